// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: npuprof_export(), the offline export of a PROF_* folder, and
 * the vnpu layout's folder: its arguments checked, which device_N folders
 * and record files there are (device ids in string order, as msprof sorts
 * Device_id), the memory of the join, the output files (through
 * output_folder.c, which commits them all or removes them all), the
 * devices then the host, README.txt and the summary. A folder in the real
 * Ascend layout goes to npa_export() instead.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "npuprof_internal.h"

static const char npx_hdr_comm_stat[] = "Device_id,OP Type,Count,Total Time(us),Min Time(us),"
					"Avg Time(us),Max Time(us),Ratio(%)";

static bool npx_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* PROF_{6 digits}_{17 digits}_{one or more [A-Za-z0-9]} (trailing slashes allowed) */
static bool npx_prof_name_ok(const char *path)
{
	size_t n = strlen(path), i;
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = path + n; b > path && b[-1] != '/'; b--)
		;
	n -= (size_t)(b - path);
	if (n < 5 + 6 + 1 + 17 + 2 || strncmp(b, "PROF_", 5) || !npx_digits(b + 5, 6) ||
	    b[11] != '_' || !npx_digits(b + 12, 17) || b[29] != '_')
		return false;
	for (i = 30; i < n; i++)
		if (!((b[i] >= 'A' && b[i] <= 'Z') || (b[i] >= 'a' && b[i] <= 'z') ||
		      (b[i] >= '0' && b[i] <= '9')))
			return false;
	return true;
}

static int npx_cmp_dev(const void *a, const void *b)
{
	char x[16], y[16];

	/* Device_id is compared as a string, as msprof sorts it */
	snprintf(x, sizeof(x), "%u", *(const uint32_t *)a);
	snprintf(y, sizeof(y), "%u", *(const uint32_t *)b);
	return strcmp(x, y);
}

static int npx_scan(struct npx_export *x)
{
	struct npuprof_error *err = x->o.err;
	struct dirent *de;
	char dir[PATH_MAX];
	unsigned int k;
	int rc = 0;
	DIR *dp;

	dp = opendir(x->prof);
	if (!dp)
		return npuprof_set_error(err, -errno, "%s: %s", x->prof, strerror(errno));
	while ((de = readdir(dp))) {
		const char *s = de->d_name + 7;
		unsigned long id = 0;
		struct stat st;
		size_t n;

		if (strncmp(de->d_name, "device_", 7))
			continue;
		n = strlen(s);
		if (fstatat(dirfd(dp), de->d_name, &st, 0) || !S_ISDIR(st.st_mode))
			continue;
		if (!n || n > 5 || !npx_digits(s, n) || (n > 1 && s[0] == '0')) {
			npx_warn(&x->w, "%s/%s: not a device_{id} folder, ignored", x->prof,
				 de->d_name);
			continue;
		}
		id = strtoul(s, NULL, 10);
		if (id >= NPUPROF_EXPORT_MAX_DEVICES || x->ndev == NPUPROF_EXPORT_MAX_DEVICES) {
			rc = npuprof_set_error(err, -EINVAL, "%s/%s: device ids go up to %u",
					       x->prof, de->d_name,
					       (unsigned int)NPUPROF_EXPORT_MAX_DEVICES - 1);
			goto out;
		}
		x->devs[x->ndev++] = (uint32_t)id;
	}
	qsort(x->devs, x->ndev, sizeof(x->devs[0]), npx_cmp_dev);
	x->files = calloc(x->ndev ? x->ndev : 1, sizeof(*x->files));
	if (!x->files) {
		rc = npuprof_set_error(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < x->ndev; k++) {
		char label[64];

		snprintf(label, sizeof(label), NPUPROF_RAW_DEVICE_DIR "/" NPUPROF_RAW_DATA_DIR,
			 x->devs[k]);
		snprintf(dir, sizeof(dir), "%s/%s", x->prof, label);
		rc = npx_rfiles_scan(&x->files[k], dir, label, NPUPROF_RAW_REC_PREFIX, &x->w, err);
		if (rc)
			goto out;
		x->total += x->files[k].bytes;
	}
	snprintf(dir, sizeof(dir), "%s/" NPUPROF_RAW_HOST_DIR "/" NPUPROF_RAW_DATA_DIR, x->prof);
	rc = npx_rfiles_scan(&x->host, dir, NPUPROF_RAW_HOST_DIR "/" NPUPROF_RAW_DATA_DIR,
			     NPUPROF_RAW_API_PREFIX, &x->w, err);
	if (rc)
		goto out;
	x->total += x->host.bytes;
	if (!x->ndev && !x->host.n)
		rc = npuprof_set_error(err, -ENOENT,
				       "%s: no device_{id} folder and no " NPUPROF_RAW_HOST_DIR
				       "/" NPUPROF_RAW_DATA_DIR "/" NPUPROF_RAW_API_PREFIX
				       "NNNN: nothing to export",
				       x->prof);
out:
	closedir(dp);
	return rc;
}

/* README.txt: the files, and the records each device lost */
static int npx_readme(struct npx_export *x)
{
	unsigned int i, k;
	char *p;
	int rc;

	rc = npx_readme_begin(&x->o, &x->readme,
			      "This folder was written by libnpuprof (npuprof_export) from the raw"
			      " data of the PROF folder above it.",
			      x->out.csv, x->out.n);
	if (!rc)
		rc = npx_file_reserve(&x->o, &x->readme, NPX_ROW_MAX, &p);
	if (rc)
		return rc;
	for (i = 0, k = 0; i < x->ndev; i++)
		k += x->sum.dev[i].lost || x->sum.dev[i].seq_missing;
	if (!k)
		p = npx_lit(p, "  none: no record was lost on any device.\n");
	for (i = 0; i < x->ndev; i++) {
		const struct npuprof_export_device *d = &x->sum.dev[i];

		if (!d->lost && !d->seq_missing)
			continue;
		p = npx_lit(p, "  device_");
		p = npx_fmt_u64(p, d->dev_id);
		p = npx_lit(p, ": ");
		if (d->lost) {
			p = npx_fmt_u64(p, d->lost);
			p = npx_lit(p, " records were lost on the device (the ring was full)");
		}
		if (d->seq_missing) {
			if (d->lost)
				p = npx_lit(p, ", ");
			p = npx_fmt_u64(p, d->seq_missing);
			p = npx_lit(p, " records are missing from the record files (not written by"
				       " the collector, cut short, or removed)");
		}
		p = npx_lit(p, "; the tasks they described are missing or incomplete in every"
			       " file.\n");
	}
	npx_file_advance(&x->readme, p);
	return npx_file_close(&x->o, &x->readme);
}

static int npx_run(struct npx_export *x)
{
	unsigned int k;
	int rc;

	rc = npx_scan(x);
	if (rc)
		return rc;
	x->pool = calloc(NPX_WINDOW + NPX_PENDING + 1, sizeof(*x->pool));
	x->free = calloc(NPX_WINDOW + NPX_PENDING + 1, sizeof(*x->free));
	x->d.win = calloc(NPX_WIN_CAP, sizeof(*x->d.win));
	if (!x->pool || !x->free || !x->d.win)
		return npuprof_set_error(x->o.err, -ENOMEM, "out of memory");
	for (k = 0; k < NPX_WINDOW + NPX_PENDING + 1; k++)
		x->free[x->nfree++] = &x->pool[k];

	rc = npx_out_open(&x->o, x->prof);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->task_time, NPX_HDR_TASK_TIME);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->op_stat, NPX_HDR_OP_STAT);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->api_stat, NPX_HDR_API_STAT);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->comm_stat, npx_hdr_comm_stat);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->aicpu, NPX_HDR_AICPU);
	if (!rc)
		rc = npx_tl_open(&x->o, &x->tl);
	for (k = 0; !rc && k < x->ndev; k++) {
		rc = npx_device(x, k);
		x->sum.n_devices = k + 1;
	}
	if (!rc)
		rc = npx_host(x);
	if (!rc)
		rc = npx_apistat_write(&x->o, &x->api_stat, &x->apistat);
	for (k = 0; !rc && k < x->out.n; k++)
		rc = npx_csv_close(&x->o, x->out.csv[k]);
	if (!rc)
		rc = npx_tl_close(&x->o, &x->tl);
	if (!rc)
		rc = npx_progress(x, x->total);
	if (!rc)
		rc = npx_readme(x);
	if (!rc)
		rc = npx_out_commit(&x->o, &x->out);
	return rc;
}

NPUPROF_API int npuprof_export(const char *prof_dir, const struct npuprof_export_opts *user,
			       struct npuprof_error *err)
{
	/* the caller's options as this library's struct (the OPTS rules, opts.c) */
	struct npuprof_export_opts o = { .sz = sizeof(o) }, *opts = &o;
	struct npx_export *x;
	struct stat st;
	int rc;

	npuprof_clear_error(err);
	if (!prof_dir || !*prof_dir)
		return npuprof_set_error(err, -EINVAL, "prof_dir is NULL or empty");
	if (strlen(prof_dir) > PATH_MAX - 128)
		return npuprof_set_error(err, -ENAMETOOLONG, "prof_dir is too long");
	rc = npuprof_opts_check(user, sizeof(*user), "npuprof_export_opts", err);
	if (rc)
		return rc;
	o.timestamp = npuprof_opts_get(user, timestamp, NULL);
	o.slice_rows = npuprof_opts_get(user, slice_rows, 0);
	o.progress = npuprof_opts_get(user, progress, NULL);
	o.progress_arg = npuprof_opts_get(user, progress_arg, NULL);
	o.quiet = npuprof_opts_get(user, quiet, 0);
	o.summary = npuprof_opts_get(user, summary, NULL);
	if (stat(prof_dir, &st))
		return npuprof_set_error(err, -errno, "%s: %s", prof_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return npuprof_set_error(err, -ENOTDIR, "%s: not a folder", prof_dir);
	/* the real Ascend raw layout has its own reader (ascend_export.c) */
	if (npa_is_ascend_layout(prof_dir))
		return npa_export(prof_dir, opts, err);

	x = calloc(1, sizeof(*x));
	if (!x)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	x->prof = prof_dir;
	x->w.quiet = opts ? opts->quiet : 0;
	x->progress = opts ? opts->progress : NULL;
	x->progress_arg = opts ? opts->progress_arg : NULL;
	x->op_header_dev = -1;
	npx_csv_init(&x->op_summary, "op_summary");
	npx_csv_init(&x->task_time, "task_time");
	npx_csv_init(&x->op_stat, "op_statistic");
	npx_csv_init(&x->api_stat, "api_statistic");
	npx_csv_init(&x->comm_stat, "communication_statistic");
	npx_csv_init(&x->aicpu, "aicpu");
	npx_file_init(&x->tl.f);
	npx_file_init(&x->readme);
	x->out = (struct npx_outputs){
		.csv = { &x->op_summary, &x->op_stat, &x->task_time, &x->api_stat, &x->comm_stat,
			 &x->aicpu },
		.n = 6,
		.timeline = &x->tl.f,
		.readme = &x->readme,
	};

	rc = npx_out_init(&x->o, opts, err);
	if (!rc) {
		if (!npx_prof_name_ok(prof_dir))
			npx_warn(&x->w,
				 "%s: the folder name is not PROF_{6 digits}_{17 digits}_{id}:"
				 " msprof tools may not recognise it",
				 prof_dir);
		rc = npx_run(x);
	}
	npx_out_end(&x->o, &x->out, rc);
	if (rc) {
		if (err && !err->code)
			npuprof_set_error(err, rc, "export failed: %s", strerror(-rc));
	} else {
		x->sum.warnings = x->w.count;
		x->sum.op_summary_rows = x->op_summary.rows_total;
		x->sum.op_summary_files = x->op_summary.nfiles;
		memcpy(x->sum.timestamp, x->o.ts, sizeof(x->sum.timestamp));
		if (opts && opts->summary)
			*opts->summary = x->sum;
	}
	npx_u64set_free(&x->tl.seen);
	npx_opstat_free(&x->opstat);
	npx_apistat_free(&x->apistat);
	free(x->files);
	free(x->pool);
	free(x->free);
	free(x->d.win);
	free(x);
	return rc;
}
