// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: a PROF_* folder in the real layout (host/, device_N/
 * with msprof's own raw files) into mindstudio_profiler_output/, as
 * msprof's parser writes it from the same folder. The devices are read one
 * after another, in the order msprof merges them (device_N sorted as
 * strings), each against the host's records read once.
 *
 * A device whose configuration or data cannot be read is left out with a
 * warning naming the file; the others are still exported.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npuprof_internal.h"

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);

	return n > 0 && (size_t)n < sizeof(path) && !access(path, F_OK);
}

/*
 * host/info.json, and no vnpu.ctrl or api.rec.NNNN of the old layout (which
 * the vnpu layout's reader, export_*.c, reads).
 */
bool npa_is_ascend_layout(const char *prof)
{
	char dir[PATH_MAX];
	struct dirent *de;
	bool old = false;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/host", prof);
	if (!exists(dir, "info.json"))
		return false;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	if (exists(dir, NPUPROF_RAW_API_PREFIX "0000"))
		return false;
	dp = opendir(prof);
	if (!dp)
		return false;
	while (!old && (de = readdir(dp))) {
		if (strncmp(de->d_name, "device_", 7))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/data", prof, de->d_name);
		old = exists(dir, "vnpu.ctrl");
	}
	closedir(dp);
	return !old;
}

struct dev_id {
	uint32_t id;
	char name[16];
};

static int cmp_dev_name(const void *a, const void *b)
{
	return strcmp(((const struct dev_id *)a)->name, ((const struct dev_id *)b)->name);
}

/* device_N folders holding an info.json.N, in msprof's sorted() order */
static int scan_devices(struct npa_export *x, struct dev_id *ids, unsigned int *n)
{
	struct dirent *de;
	DIR *dp = opendir(x->prof);

	*n = 0;
	if (!dp)
		return npuprof_set_error(x->o.err, -errno, "%s: %s", x->prof, strerror(errno));
	while ((de = readdir(dp))) {
		char dir[PATH_MAX], info[32];
		unsigned long id;
		char *end;

		if (strncmp(de->d_name, "device_", 7) || !de->d_name[7])
			continue;
		errno = 0;
		id = strtoul(de->d_name + 7, &end, 10);
		if (errno || *end || id >= 1000 || (de->d_name[7] == '0' && de->d_name[8]))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", x->prof, de->d_name);
		snprintf(info, sizeof(info), "info.json.%lu", id);
		if (!exists(dir, info)) {
			npx_warn(&x->w, "%s: no %s: not a device folder", dir, info);
			continue;
		}
		if (*n == NPA_MAX_DEVICES) {
			npx_warn(&x->w, "%s: more than %u devices: ignored", dir, NPA_MAX_DEVICES);
			continue;
		}
		ids[*n].id = (uint32_t)id;
		/* device_ and at most 3 digits */
		snprintf(ids[*n].name, sizeof(ids[*n].name), "device_%lu", id);
		(*n)++;
	}
	closedir(dp);
	qsort(ids, *n, sizeof(*ids), cmp_dev_name);
	return 0;
}

/* One line of README's "Data loss:" for a loss report, if it counts any. */
static int loss_line(struct npa_export *x, const char *who, const struct npa_loss *l,
		     const char *lost_where)
{
	char *p;
	int rc;

	if (!l->lost && !l->not_written)
		return 0;
	rc = npx_file_reserve(&x->o, &x->readme, 512, &p);
	if (rc)
		return rc;
	p = npx_lit(p, "  ");
	p = npx_put(p, who);
	p = npx_lit(p, ": ");
	if (l->lost) {
		p = npx_fmt_u64(p, l->lost);
		p = npx_put(p, lost_where);
	}
	if (l->not_written) {
		if (l->lost)
			p = npx_lit(p, ", ");
		p = npx_fmt_u64(p, l->not_written);
		p = npx_lit(p, " records are missing from the record files (not written by the"
			       " collector)");
	}
	p = npx_lit(p, "; the tasks they described are missing or incomplete in every file.\n");
	npx_file_advance(&x->readme, p);
	return 0;
}

/* README's "Data loss:", from the loss reports of the folder */
static int readme_loss(struct npa_export *x)
{
	char who[32], *p;
	bool any = x->host_loss.lost || x->host_loss.not_written;
	int rc;

	for (unsigned int i = 0; i < x->ndev; i++)
		any |= x->dev[i].loss.lost || x->dev[i].loss.not_written;
	if (!any) {
		rc = npx_file_reserve(&x->o, &x->readme, 128, &p);
		if (rc)
			return rc;
		p = npx_lit(p, "  none: no record was lost on any device.\n");
		npx_file_advance(&x->readme, p);
		return 0;
	}
	rc = loss_line(x, "host", &x->host_loss, " records were lost on the host (no memory)");
	for (unsigned int i = 0; !rc && i < x->ndev; i++) {
		snprintf(who, sizeof(who), "device_%u", x->dev[i].cfg.id);
		rc = loss_line(x, who, &x->dev[i].loss,
			       " records were lost on the device (the ring was full)");
	}
	return rc;
}

/* The warnings of a loss report. */
static void warn_loss(struct npa_export *x, const char *who, const struct npa_loss *l)
{
	if (l->lost)
		npx_warn(&x->w,
			 "%s: %llu records were lost where they were made (a full ring): the"
			 " export is incomplete (see %s/README.txt)",
			 who, (unsigned long long)l->lost, NPUPROF_OUTPUT_DIR);
	if (l->not_written)
		npx_warn(&x->w,
			 "%s: %llu records are missing from the record files (the collector"
			 " could not write them): the export is incomplete (see %s/README.txt)",
			 who, (unsigned long long)l->not_written, NPUPROF_OUTPUT_DIR);
}

static int readme(struct npa_export *x)
{
	struct npx_csv *csvs[] = { &x->aicpu,	&x->api_stat,	&x->comm_stat,
				   &x->op_stat, &x->op_summary, &x->task_time };
	int rc;

	rc = npx_readme_begin(
		&x->o, &x->readme,
		"This folder was written by libnpuprof (npuprof_export) from the raw"
		" data of the PROF folder above it, as msprof's parser would write it.",
		csvs, NPX_ARRAY_SIZE(csvs));
	if (!rc)
		rc = readme_loss(x);
	if (rc)
		return rc;
	return npx_file_close(&x->o, &x->readme);
}

static int run(struct npa_export *x)
{
	struct dev_id ids[NPA_MAX_DEVICES];
	char host[PATH_MAX + 8], who[32];
	unsigned int n, k;
	int rc;

	rc = npa_host_load(&x->host, x->prof, &x->w, x->o.err);
	if (rc)
		return rc;
	snprintf(host, sizeof(host), "%s/host", x->prof);
	npa_loss_load(host, &x->host_loss, &x->w);
	warn_loss(x, "host", &x->host_loss);
	rc = scan_devices(x, ids, &n);
	if (!rc)
		rc = npx_out_open(&x->o, x->prof);
	if (rc)
		return rc;

	for (k = 0; k < n; k++) {
		struct npa_dev *d = &x->dev[x->ndev];
		struct npuprof_error e;

		npuprof_clear_error(&e);
		rc = npa_dev_load(d, x->prof, ids[k].id, &x->host, &x->w, &e);
		if (!rc)
			rc = npa_comm_build(d, &x->host, &e);
		if (rc == -ENOMEM)
			return npuprof_set_error(x->o.err, rc, "%s", e.msg);
		if (rc) {
			npx_warn(&x->w, "%s: device_%u is not exported", e.msg, ids[k].id);
			npa_dev_free(d);
			continue;
		}
		x->ndev++;
		snprintf(who, sizeof(who), "device_%u", ids[k].id);
		warn_loss(x, who, &d->loss);
		rc = npa_op_summary(x, d);
		if (!rc)
			rc = npa_task_time(x, d);
		if (!rc)
			rc = npa_op_statistic(x, d);
		if (!rc)
			rc = npa_api_statistic(x, d);
		if (!rc)
			rc = npa_aicpu_csv(x, d);
		if (!rc)
			rc = npa_comm_statistic(x, d);
		if (rc)
			return rc;
	}
	if (!x->ndev && n)
		return npuprof_set_error(x->o.err, -EBADMSG,
					 "%s: no device folder could be read (see the warnings)",
					 x->prof);
	for (k = 0; k < x->out.n; k++) {
		rc = npx_csv_close(&x->o, x->out.csv[k]);
		if (rc)
			return rc;
	}
	rc = npa_timeline(x, &x->timeline);
	if (!rc)
		rc = readme(x);
	if (!rc)
		rc = npx_out_commit(&x->o, &x->out);
	if (!rc)
		rc = npa_comm_analyze(x);
	return rc;
}

int npa_export(const char *prof, const struct npuprof_export_opts *opts, struct npuprof_error *err)
{
	struct npa_export *x = calloc(1, sizeof(*x));
	int rc;

	if (!x)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	x->prof = prof;
	x->w.quiet = opts ? opts->quiet : 0;
	npx_csv_init(&x->op_summary, "op_summary");
	npx_csv_init(&x->task_time, "task_time");
	npx_csv_init(&x->op_stat, "op_statistic");
	npx_csv_init(&x->api_stat, "api_statistic");
	npx_csv_init(&x->aicpu, "aicpu");
	npx_csv_init(&x->comm_stat, "communication_statistic");
	npx_file_init(&x->timeline);
	npx_file_init(&x->readme);
	x->out = (struct npx_outputs){
		.csv = { &x->op_summary, &x->op_stat, &x->task_time, &x->api_stat, &x->aicpu,
			 &x->comm_stat },
		.n = 6,
		.timeline = &x->timeline,
		.readme = &x->readme,
	};

	rc = npx_out_init(&x->o, opts, err);
	if (!rc)
		rc = run(x);
	npx_out_end(&x->o, &x->out, rc);
	if (rc) {
		if (err && !err->code)
			npuprof_set_error(err, rc, "export failed: %s", strerror(-rc));
	} else if (opts && opts->summary) {
		struct npuprof_export_summary *s = opts->summary;

		memset(s, 0, sizeof(*s));
		s->n_devices = x->ndev;
		s->warnings = x->w.count;
		s->host_api_records = x->host.n_api;
		s->op_summary_rows = x->op_summary.rows_total;
		s->op_summary_files = x->op_summary.nfiles;
		for (unsigned int k = 0; k < x->ndev; k++) {
			const struct npa_dev *d = &x->dev[k];

			s->dev[k].dev_id = d->cfg.id;
			s->dev[k].level = d->cfg.level;
			s->dev[k].metric_group = d->cfg.metric_group;
			s->dev[k].tasks = d->n_tasks;
			s->dev[k].records = d->loss.written;
			s->dev[k].lost = d->loss.lost;
			s->dev[k].seq_missing = d->loss.not_written;
			s->lost += d->loss.lost;
		}
		memcpy(s->timestamp, x->o.ts, sizeof(s->timestamp));
	}
	for (unsigned int k = 0; k < x->ndev; k++)
		npa_dev_free(&x->dev[k]);
	npa_host_free(&x->host);
	free(x);
	return rc;
}
