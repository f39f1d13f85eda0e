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
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/ascend.h"

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);

	return n > 0 && (size_t)n < sizeof(path) && !access(path, F_OK);
}

/*
 * Whether @dir/@name is there as any kind of entry (a link too, even a
 * broken one or a loop: its reader then says what is wrong with it): 0,
 * -ENOENT, or the errno that kept it from being looked at (a folder on
 * the way that is a loop of links, or unreadable), the path in @path.
 */
static int entry_at(const char *dir, const char *name, char *path, size_t len)
{
	struct stat st;
	int n = snprintf(path, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

/*
 * The vnpu layout of earlier versions (device_N/data/vnpu.ctrl,
 * host/data/api.rec.NNNN): named in the error, as it is no longer read.
 */
static bool vnpu_layout(const char *prof)
{
	char dir[PATH_MAX];
	struct dirent *de;
	bool old = false;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/" NPF_RAW_HOST_DATA, prof);
	if (exists(dir, "api.rec.0000"))
		return true;
	dp = opendir(prof);
	if (!dp)
		return false;
	while (!old && (de = readdir(dp))) {
		if (strncmp(de->d_name, NPF_RAW_DEVICE_PREFIX, strlen(NPF_RAW_DEVICE_PREFIX)))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/data", prof, de->d_name);
		old = exists(dir, "vnpu.ctrl");
	}
	closedir(dp);
	return old;
}

static bool digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* PROF_{6 digits}_{17 digits}_{one or more [A-Za-z0-9]} (trailing slashes allowed) */
static bool prof_name_ok(const char *path)
{
	size_t n = strlen(path), i;
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = path + n; b > path && b[-1] != '/'; b--)
		;
	n -= (size_t)(b - path);
	if (n < 5 + 6 + 1 + 17 + 2 || strncmp(b, "PROF_", 5) || !digits(b + 5, 6) || b[11] != '_' ||
	    !digits(b + 12, 17) || b[29] != '_')
		return false;
	for (i = 30; i < n; i++)
		if (!((b[i] >= 'A' && b[i] <= 'Z') || (b[i] >= 'a' && b[i] <= 'z') ||
		      (b[i] >= '0' && b[i] <= '9')))
			return false;
	return true;
}

/* bytes of the regular files in @dir: the raw data, as the progress counts it */
static uint64_t dir_bytes(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	uint64_t n = 0;
	struct stat st;

	if (!dp)
		return 0;
	/* as the readers take them: regular files, not links */
	while ((de = readdir(dp)))
		if (!fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			n += (uint64_t)st.st_size;
	closedir(dp);
	return n;
}

/* @done more bytes read: tell the caller's progress callback, which may cancel */
static int progress(struct npa_export *x, uint64_t done)
{
	x->done += done;
	if (!x->progress)
		return 0;
	if (x->progress(x->progress_arg, x->done, x->total))
		return npx_set_error(x->o.err, -ECANCELED,
				     "export cancelled by the progress callback");
	return 0;
}

struct dev_id {
	uint32_t id;
	char name[16];
	uint64_t bytes; /* of its data/ */
};

static uint64_t ids_bytes(const struct dev_id *ids, unsigned int n)
{
	uint64_t b = 0;

	for (unsigned int k = 0; k < n; k++)
		b += ids[k].bytes;
	return b;
}

static int cmp_dev_name(const void *a, const void *b)
{
	return strcmp(((const struct dev_id *)a)->name, ((const struct dev_id *)b)->name);
}

/*
 * device_N folders holding an info.json.N, in msprof's sorted() order; in
 * *@bad those that could not even be looked into (a loop of links, no
 * permission), each warned about
 */
static int scan_devices(struct npa_export *x, struct dev_id *ids, unsigned int *n,
			unsigned int *bad)
{
	struct dirent *de;
	DIR *dp = opendir(x->prof);

	*n = *bad = 0;
	if (!dp)
		return npx_set_error(x->o.err, -errno, "%s: %s", x->prof, strerror(errno));
	while ((de = readdir(dp))) {
		char dir[PATH_MAX], info[32], path[PATH_MAX];
		unsigned long id;
		char *end;
		int e;

		if (strncmp(de->d_name, NPF_RAW_DEVICE_PREFIX, strlen(NPF_RAW_DEVICE_PREFIX)) ||
		    !de->d_name[strlen(NPF_RAW_DEVICE_PREFIX)])
			continue;
		errno = 0;
		id = strtoul(de->d_name + 7, &end, 10);
		if (errno || *end || id >= 1000 || (de->d_name[7] == '0' && de->d_name[8]))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", x->prof, de->d_name);
		snprintf(info, sizeof(info), NPF_RAW_INFO_JSON ".%lu", id);
		e = entry_at(dir, info, path, sizeof(path));
		if (e == -ENOENT) {
			npa_warn(&x->w, "%s: no %s: not a device folder", dir, info);
			continue;
		}
		if (e) {
			npa_warn(&x->w, "%s: %s: the device folder cannot be read", path,
				 strerror(-e));
			(*bad)++;
			continue;
		}
		if (*n == NPA_MAX_DEVICES) {
			npa_warn(&x->w, "%s: more than %u devices: ignored", dir, NPA_MAX_DEVICES);
			continue;
		}
		ids[*n].id = (uint32_t)id;
		/* device_ and at most 3 digits */
		snprintf(ids[*n].name, sizeof(ids[*n].name), NPF_RAW_DEVICE_PREFIX "%lu", id);
		(*n)++;
	}
	closedir(dp);
	npx_qsort(ids, *n, sizeof(*ids), cmp_dev_name);
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
	rc = npa_file_reserve(&x->o, &x->readme, 512, &p);
	if (rc)
		return rc;
	p = npx_lit(p, "  ");
	p = npx_put(p, who);
	p = npx_lit(p, ": ");
	if (l->lost) {
		p = npa_fmt_u64(p, l->lost);
		p = npx_put(p, lost_where);
	}
	if (l->not_written) {
		if (l->lost)
			p = npx_lit(p, ", ");
		p = npa_fmt_u64(p, l->not_written);
		p = npx_lit(p, " records are missing from the record files (not written by the"
			       " collector)");
	}
	p = npx_lit(p, "; the tasks they described are missing or incomplete in every file.\n");
	npa_file_advance(&x->readme, p);
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
		rc = npa_file_reserve(&x->o, &x->readme, 128, &p);
		if (rc)
			return rc;
		p = npx_lit(p, "  none: no record was lost on any device.\n");
		npa_file_advance(&x->readme, p);
		return 0;
	}
	rc = loss_line(x, "host", &x->host_loss, " records were lost on the host (no memory)");
	for (unsigned int i = 0; !rc && i < x->ndev; i++) {
		snprintf(who, sizeof(who), NPF_RAW_DEVICE_DIR, x->dev[i].cfg.id);
		rc = loss_line(x, who, &x->dev[i].loss,
			       " records were lost on the device (the ring was full)");
	}
	return rc;
}

/*
 * The records the collector's loss reports, host and every device, say it
 * wrote, not counting the dictionaries every run writes at its start; -1
 * where one is missing or not whole (msprof's own folders, a run that was
 * killed, a report removed): then nothing read is nothing known. 0 is a
 * run that recorded nothing (a profiled region with no work).
 */
static int64_t recorded(const struct npa_export *x, unsigned int n_dirs, unsigned int bad)
{
	uint64_t sum;

	if (bad || x->ndev != n_dirs || !x->host_loss.present)
		return -1;
	sum = x->host_loss.written_records;
	for (unsigned int k = 0; k < x->ndev; k++) {
		if (!x->dev[k].loss.present)
			return -1;
		sum += x->dev[k].loss.written_records;
	}
	return (int64_t)(sum & INT64_MAX);
}

/* The warnings of a loss report. */
static void warn_loss(struct npa_export *x, const char *who, const struct npa_loss *l)
{
	if (l->lost)
		npa_warn(&x->w,
			 "%s: %llu records were lost where they were made (a full ring): the"
			 " export is incomplete (see %s/README.txt)",
			 who, (unsigned long long)l->lost, NPF_OUTPUT_DIR);
	if (l->not_written)
		npa_warn(&x->w,
			 "%s: %llu records are missing from the record files (the collector"
			 " could not write them): the export is incomplete (see %s/README.txt)",
			 who, (unsigned long long)l->not_written, NPF_OUTPUT_DIR);
}

static int readme(struct npa_export *x)
{
	struct npa_csv *csvs[] = { &x->aicpu,	&x->api_stat,	&x->comm_stat,
				   &x->op_stat, &x->op_summary, &x->task_time };
	int rc;

	rc = npa_readme_begin(
		&x->o, &x->readme,
		"This folder was written by libnpuprof (npuprof_export) from the raw"
		" data of the PROF folder above it, as msprof's parser would write it.",
		csvs, NPX_ARRAY_SIZE(csvs));
	if (!rc)
		rc = readme_loss(x);
	if (rc)
		return rc;
	return npa_file_close(&x->o, &x->readme);
}

/**
 * struct timeline_job - the timeline, written beside the CSVs
 * @x: the export (read only while the job runs: its devices and host).
 * @o: @x's outputs with their own error and path scratch (same folder
 *     and writer thread, which takes buffers from any thread).
 * @err: the job's error.
 * @thread: it, when @started.
 * @started: a thread runs it; else run_timeline() writes it inline.
 * @rc: its result.
 */
struct timeline_job {
	struct npa_export *x;
	struct npa_out o;
	struct npuprof_error err;
	pthread_t thread;
	bool started;
	int rc;
};

static void *timeline_main(void *arg)
{
	struct timeline_job *j = arg;

	j->rc = npa_timeline(j->x, &j->o, &j->x->timeline);
	return NULL;
}

/*
 * The timeline reads the loaded devices and host and writes one file;
 * the CSVs read the same and write theirs: neither changes what the other
 * reads, so on a machine with two cores the timeline (about a third of
 * the export's formatting) runs in a thread of its own while the CSVs are
 * written. Without a thread it is written after them.
 */
static void timeline_start(struct npa_export *x, struct timeline_job *j)
{
	*j = (struct timeline_job){ .x = x, .o = x->o };
	npx_clear_error(&j->err);
	j->o.err = &j->err;
	j->started = x->ndev && !pthread_create(&j->thread, NULL, timeline_main, j);
}

/* Wait for the timeline (or write it now); @rc is the CSVs' result. */
static int timeline_finish(struct npa_export *x, struct timeline_job *j, int rc)
{
	if (j->started)
		pthread_join(j->thread, NULL);
	else if (!rc)
		j->rc = npa_timeline(x, &j->o, &x->timeline);
	if (rc || !j->rc)
		return rc;
	if (x->o.err)
		*x->o.err = j->err;
	return j->rc;
}

static int run(struct npa_export *x)
{
	struct timeline_job tl;
	struct dev_id ids[NPA_MAX_DEVICES];
	char host[PATH_MAX + 8], dir[PATH_MAX + 32], who[32];
	unsigned int n, k, bad;
	size_t tasks = 0;
	int64_t written;
	int rc;

	rc = scan_devices(x, ids, &n, &bad);
	if (rc)
		return rc;
	snprintf(host, sizeof(host), "%s/" NPF_RAW_HOST_DATA, x->prof);
	x->total = dir_bytes(host);
	for (k = 0; k < n; k++) {
		snprintf(dir, sizeof(dir), "%s/%s/data", x->prof, ids[k].name);
		x->total += ids[k].bytes = dir_bytes(dir);
	}
	rc = npa_host_load(&x->host, x->prof, &x->w, x->o.err);
	if (!rc)
		rc = progress(x, x->total - x->done - ids_bytes(ids, n));
	if (rc)
		return rc;
	snprintf(host, sizeof(host), "%s/host", x->prof);
	npa_loss_load(host, &x->host_loss, &x->w);
	warn_loss(x, "host", &x->host_loss);
	rc = npa_out_open(&x->o, x->prof);
	if (rc)
		return rc;

	/* every device first: the timeline and the CSVs read them all */
	for (k = 0; k < n; k++) {
		struct npa_dev *d = &x->dev[x->ndev];
		struct npuprof_error e;

		npx_clear_error(&e);
		rc = npa_dev_load(d, x->prof, ids[k].id, &x->host, &x->w, &e);
		if (!rc)
			rc = npa_comm_build(d, &x->host, &e);
		if (rc == -ENOMEM) {
			npa_dev_free(d);
			return npx_set_error(x->o.err, rc, "%s", e.msg);
		}
		if (rc) {
			npa_warn(&x->w, "%s: device_%u is not exported", e.msg, ids[k].id);
			npa_dev_free(d);
			rc = progress(x, ids[k].bytes);
			if (rc)
				return rc;
			continue;
		}
		tasks += d->n_tasks;
		x->dev_bytes[x->ndev++] = ids[k].bytes;
		snprintf(who, sizeof(who), NPF_RAW_DEVICE_DIR, ids[k].id);
		warn_loss(x, who, &d->loss);
	}
	if (!x->ndev && (n || bad))
		return npx_set_error(x->o.err, -EBADMSG,
				     "%s: no device folder could be read (see the warnings)",
				     x->prof);
	/*
	 * A folder of nothing must not pass for a run that did nothing: only
	 * the collector's own reports can say the run recorded nothing (a
	 * profiled region with no work), and then the export is an empty one.
	 */
	written = tasks || x->host.n_api ? 0 : recorded(x, n, bad);
	if (written < 0)
		return npx_set_error(x->o.err, -ENODATA,
				     "%s: nothing to export: no device task and no host API"
				     " record was read, and no whole loss report of the"
				     " collector says the run recorded nothing (see the warnings)",
				     x->prof);
	if (written > 0)
		return npx_set_error(x->o.err, -ENODATA,
				     "%s: nothing to export: no device task and no host API"
				     " record was read, where the loss reports count %lld"
				     " records written (see the warnings)",
				     x->prof, (long long)written);
	timeline_start(x, &tl);
	rc = 0;
	for (k = 0; !rc && k < x->ndev; k++) {
		const struct npa_dev *d = &x->dev[k];

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
		if (!rc)
			rc = progress(x, x->dev_bytes[k]);
	}
	for (k = 0; !rc && k < x->out.n; k++)
		rc = npa_csv_close(&x->o, x->out.csv[k]);
	rc = timeline_finish(x, &tl, rc);
	if (!rc)
		rc = readme(x);
	if (!rc)
		rc = npa_out_commit(&x->o, &x->out);
	if (!rc)
		rc = npa_comm_analyze(x);
	return rc;
}

static int export(const char *prof, const struct npuprof_export_opts *opts,
		  struct npuprof_error *err)
{
	struct npa_export *x = calloc(1, sizeof(*x));
	int rc;

	if (!x)
		return npx_set_error(err, -ENOMEM, "out of memory");
	x->prof = prof;
	x->w.quiet = opts->quiet;
	x->progress = opts->progress;
	x->progress_arg = opts->progress_arg;
	npa_csv_init(&x->op_summary, "op_summary");
	npa_csv_init(&x->task_time, "task_time");
	npa_csv_init(&x->op_stat, "op_statistic");
	npa_csv_init(&x->api_stat, "api_statistic");
	npa_csv_init(&x->aicpu, "aicpu");
	npa_csv_init(&x->comm_stat, "communication_statistic");
	npa_file_init(&x->timeline);
	npa_file_init(&x->readme);
	x->out = (struct npa_outputs){
		.csv = { &x->op_summary, &x->op_stat, &x->task_time, &x->api_stat, &x->aicpu,
			 &x->comm_stat },
		.n = 6,
		.timeline = &x->timeline,
		.readme = &x->readme,
	};

	rc = npa_out_init(&x->o, opts, err);
	if (!rc && !prof_name_ok(prof))
		npa_warn(&x->w,
			 "%s: the folder name is not PROF_{6 digits}_{17 digits}_{id}:"
			 " msprof tools may not recognise it",
			 prof);
	if (!rc)
		rc = run(x);
	npa_out_end(&x->o, &x->out, rc);
	if (rc) {
		if (err && !err->code)
			npx_set_error(err, rc, "export failed: %s", strerror(-rc));
	} else if (opts->summary) {
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
			s->dev[k].bytes = x->dev_bytes[k];
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

NPUPROF_API int npuprof_export(const char *prof_dir, const struct npuprof_export_opts *user,
			       struct npuprof_error *err)
{
	/* the caller's options as this library's struct (the OPTS rules, opts.c) */
	struct npuprof_export_opts o = { .sz = sizeof(o) };
	char host[PATH_MAX], path[PATH_MAX];
	struct npa_out probe;
	struct stat st;
	int rc;

	npx_clear_error(err);
	if (!prof_dir || !*prof_dir)
		return npx_set_error(err, -EINVAL, "prof_dir is NULL or empty");
	if (strlen(prof_dir) > PATH_MAX - 128)
		return npx_set_error(err, -ENAMETOOLONG, "prof_dir is too long");
	rc = npx_opts_check(user, sizeof(*user), "npuprof_export_opts", err);
	if (rc)
		return rc;
	o.timestamp = npx_opts_get(user, timestamp, NULL);
	o.slice_rows = npx_opts_get(user, slice_rows, 0);
	o.progress = npx_opts_get(user, progress, NULL);
	o.progress_arg = npx_opts_get(user, progress_arg, NULL);
	o.quiet = npx_opts_get(user, quiet, 0);
	o.summary = npx_opts_get(user, summary, NULL);
	/* the options' values too: a bad one is reported whatever the folder holds */
	rc = npa_out_init(&probe, &o, err);
	if (rc)
		return rc;
	if (stat(prof_dir, &st))
		return npx_set_error(err, -errno, "%s: %s", prof_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return npx_set_error(err, -ENOTDIR, "%s: not a folder", prof_dir);
	snprintf(host, sizeof(host), "%s/host", prof_dir);
	/* a link or a special file in its place is there: its reader says what is wrong */
	rc = entry_at(host, NPF_RAW_INFO_JSON, path, sizeof(path));
	if (!rc)
		return export(prof_dir, &o, err);
	if (rc != -ENOENT)
		return npx_set_error(err, rc, "%s: %s", path, strerror(-rc));
	if (vnpu_layout(prof_dir))
		return npx_set_error(err, -EPROTONOSUPPORT,
				     "%s: raw data in the vnpu layout of libnpuprof before 0.5"
				     " (vnpu.ctrl, api.rec.NNNN), which is no longer read",
				     prof_dir);
	return npx_set_error(err, -ENOENT, "%s: nothing to export: no host/info.json", prof_dir);
}
