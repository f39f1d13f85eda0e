// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: mindstudio_profiler_output/
 * write it. The folder is made if needed and opened once (its files are
 * written relative to it); every file is written under a temporary name,
 * and at the end either all of them are renamed to their final names or
 * all are removed, so that a failed export leaves no partial output.
 * README.txt begins with the list of those files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/ascend.h"

int npa_out_init(struct npa_out *o, const struct npuprof_export_opts *opts,
		 struct npuprof_error *err)
{
	o->dfd = -1;
	o->pid = (long)getpid();
	o->err = err;
	o->slice_rows = opts && opts->slice_rows ? opts->slice_rows : NPUPROF_EXPORT_SLICE_ROWS;
	return npa_out_timestamp(o, opts ? opts->timestamp : NULL);
}

int npa_out_open(struct npa_out *o, const char *prof)
{
	snprintf(o->path, sizeof(o->path), "%s/" NPF_OUTPUT_DIR, prof);
	if (mkdir(o->path, 0755) && errno != EEXIST)
		return npx_set_error(o->err, -errno, "%s: %s", o->path, strerror(errno));
	o->dfd = open(o->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dfd < 0)
		return npx_set_error(o->err, -errno, "%s: %s", o->path, strerror(errno));
	o->dir = o->path;
	npa_io_start(o);
	return 0;
}

int npa_readme_begin(struct npa_out *o, struct npa_file *readme, const char *intro,
		     struct npa_csv *const *csvs, unsigned int n)
{
	char tmp[96], name[128];
	char *p;
	int rc;

	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-README.tmp", o->pid);
	rc = npa_file_open(o, readme, tmp);
	if (rc)
		return rc;
	npa_file_reserve(o, readme, NPA_ROW_MAX, &p);
	p = npx_put(p, intro);
	p = npx_lit(p, "\n\nFiles:\n");
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int k = 0; k < csvs[i]->nfiles; k++) {
			npa_file_advance(readme, p);
			rc = npa_file_reserve(o, readme, 256, &p);
			if (rc)
				return rc;
			npa_csv_name_of(o, csvs[i], k, name, sizeof(name));
			p = npx_lit(p, "  ");
			p = npx_put(p, name);
			*p++ = '\n';
		}
	}
	npa_file_advance(readme, p);
	rc = npa_file_reserve(o, readme, NPA_ROW_MAX, &p);
	if (rc)
		return rc;
	p = npx_lit(p, "  msprof_");
	p = npx_put(p, o->ts);
	p = npx_lit(p, ".json\n\nData loss:\n");
	npa_file_advance(readme, p);
	return 0;
}

int npa_out_commit(struct npa_out *o, const struct npa_outputs *f)
{
	char name[64];
	int rc;

	for (unsigned int i = 0; i < f->n; i++) {
		rc = npa_csv_commit(o, f->csv[i]);
		if (rc)
			return rc;
	}
	snprintf(name, sizeof(name), "msprof_%s.json", o->ts);
	rc = npa_file_commit(o, f->timeline, name);
	if (!rc)
		rc = npa_file_commit(o, f->readme, "README.txt");
	return rc;
}

void npa_out_end(struct npa_out *o, const struct npa_outputs *f, int rc)
{
	if (rc && o->dfd >= 0) {
		for (unsigned int i = 0; i < f->n; i++)
			npa_csv_discard(o, f->csv[i]);
		npa_file_discard(o, f->timeline);
		npa_file_discard(o, f->readme);
	}
	npa_io_stop(o);
	if (o->dfd >= 0)
		close(o->dfd);
	o->dfd = -1;
	for (unsigned int i = 0; i < f->n; i++)
		npa_csv_free(f->csv[i]);
	npa_file_free(f->timeline);
	npa_file_free(f->readme);
}
