// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the record files of a PROF folder.
 *
 * A stream (device_N/data/vnpu.rec.NNNN or host/data/api.rec.NNNN) is a run
 * of files numbered from 0000 without a gap, each holding whole records.
 * The reader returns the records one by one from a fixed buffer (memory
 * does not depend on the size of the files) and checks their framing: a
 * size below the minimum or not a multiple of 8 is an error (the stream
 * cannot be resynchronised), a record cut by the end of a file is an error
 * unless it is at the end of the last file (a collector that died while
 * writing), which is a warning.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npuprof_internal.h"

#define NPX_READ_BUF (4U << 20) /* > the largest record (65528 bytes) */
#define NPX_MAX_FILES 1000000U

static int npx_cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* The index of "prefixNNNN", or -1 when @name is not one. */
static long npx_rfile_index(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix), n, i;
	unsigned long v = 0;
	char want[32];

	if (strncmp(name, prefix, pl))
		return -1;
	name += pl;
	n = strlen(name);
	if (n < 4 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(name[i] - '0');
	}
	/* exactly the %04u spelling: no extra leading zeros */
	snprintf(want, sizeof(want), NPUPROF_RAW_SEQ_FMT, (unsigned int)v);
	return strcmp(want, name) ? -1 : (long)v;
}

int npx_rfiles_scan(struct npx_rfiles *s, const char *dir, const char *label, const char *prefix,
		    struct npx_warn *w, struct npuprof_error *err)
{
	unsigned int *idx = NULL, n = 0, cap = 0, i;
	struct dirent *de;
	int rc = 0;
	DIR *d;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->label, sizeof(s->label), "%s", label);
	s->prefix = prefix;
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return npuprof_set_error(err, -errno, "%s: %s", label, strerror(errno));
	}
	while ((de = readdir(d))) {
		long v;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		v = npx_rfile_index(de->d_name, prefix);
		if (v < 0 || v >= NPX_MAX_FILES) {
			npx_warn(w, "%s/%s: not a record file name (%sNNNN), ignored", label,
				 de->d_name, prefix);
			continue;
		}
		if (n == cap) {
			unsigned int *t = realloc(idx, (cap ? cap * 2 : 64) * sizeof(*idx));

			if (!t) {
				rc = npuprof_set_error(err, -ENOMEM, "out of memory");
				goto out;
			}
			idx = t;
			cap = cap ? cap * 2 : 64;
		}
		idx[n++] = (unsigned int)v;
	}
	if (n)
		qsort(idx, n, sizeof(*idx), npx_cmp_uint);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX + 64];
		struct stat st;

		if (idx[i] != i) {
			rc = npuprof_set_error(err, -ENOENT,
					       "%s/%s" NPUPROF_RAW_SEQ_FMT
					       " is missing (%s" NPUPROF_RAW_SEQ_FMT " exists)",
					       label, prefix, i, prefix, idx[i]);
			goto out;
		}
		snprintf(path, sizeof(path), "%s/%s" NPUPROF_RAW_SEQ_FMT, dir, prefix, i);
		if (stat(path, &st)) {
			rc = npuprof_set_error(err, -errno, "%s/%s" NPUPROF_RAW_SEQ_FMT ": %s",
					       label, prefix, i, strerror(errno));
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			rc = npuprof_set_error(err, -EBADMSG,
					       "%s/%s" NPUPROF_RAW_SEQ_FMT ": not a regular file",
					       label, prefix, i);
			goto out;
		}
		s->bytes += (uint64_t)st.st_size;
	}
	s->n = n;
out:
	free(idx);
	closedir(d);
	return rc;
}

void npx_reader_path(const struct npx_reader *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s" NPUPROF_RAW_SEQ_FMT, r->files->label, r->files->prefix, r->cur);
}

int npx_reader_open(struct npx_reader *r, const struct npx_rfiles *files, size_t min_size,
		    struct npuprof_error *err)
{
	memset(r, 0, sizeof(*r));
	r->files = files;
	r->fd = -1;
	r->min_size = min_size;
	r->buf = malloc(NPX_READ_BUF);
	if (!r->buf)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	return 0;
}

static int npx_reader_open_file(struct npx_reader *r, struct npuprof_error *err)
{
	char path[PATH_MAX + 64], name[128];

	snprintf(path, sizeof(path), "%s/%s" NPUPROF_RAW_SEQ_FMT, r->files->dir, r->files->prefix,
		 r->cur);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		npx_reader_path(r, name, sizeof(name));
		return npuprof_set_error(err, -errno, "%s: %s", name, strerror(errno));
	}
	r->len = 0;
	r->pos = 0;
	r->base = 0;
	r->eof = false;
	return 0;
}

static int npx_reader_fill(struct npx_reader *r, struct npuprof_error *err)
{
	size_t avail = r->len - r->pos;
	char name[128];
	ssize_t n;

	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, avail);
		r->base += r->pos;
		r->pos = 0;
		r->len = avail;
	}
	do
		n = read(r->fd, r->buf + r->len, NPX_READ_BUF - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		npx_reader_path(r, name, sizeof(name));
		return npuprof_set_error(err, -errno, "%s: read: %s", name, strerror(errno));
	}
	if (!n)
		r->eof = true;
	r->len += (size_t)n;
	return 0;
}

int npx_reader_next(struct npx_reader *r, const void **rec, size_t *size, uint64_t *off,
		    struct npx_warn *w, struct npuprof_error *err)
{
	char name[128];
	int rc;

	for (;;) {
		size_t avail;

		if (r->fd < 0) {
			if (r->cur >= r->files->n)
				return 0;
			rc = npx_reader_open_file(r, err);
			if (rc)
				return rc;
		}
		avail = r->len - r->pos;
		if (avail >= 4) {
			const char *p = r->buf + r->pos;
			uint16_t sz;

			memcpy(&sz, p + 2, sizeof(sz));
			if (sz < r->min_size || sz % 8) {
				npx_reader_path(r, name, sizeof(name));
				return npuprof_set_error(
					err, -EBADMSG, "%s: offset %llu: bad record size %u (%s)",
					name, (unsigned long long)(r->base + r->pos), sz,
					sz % 8 ? "not a multiple of 8" : "smaller than the header");
			}
			if (avail >= sz) {
				*rec = p;
				*size = sz;
				*off = r->base + r->pos;
				r->pos += sz;
				r->consumed += sz;
				return 1;
			}
		}
		if (!r->eof) {
			rc = npx_reader_fill(r, err);
			if (rc)
				return rc;
			continue;
		}
		/* the end of this file */
		if (avail) {
			npx_reader_path(r, name, sizeof(name));
			if (r->cur + 1 < r->files->n)
				return npuprof_set_error(
					err, -EBADMSG,
					"%s: offset %llu: truncated record (%zu bytes"
					" at the end of a file that is not the last)",
					name, (unsigned long long)(r->base + r->pos), avail);
			npx_warn(
				w,
				"%s: offset %llu: truncated record (%zu bytes at the end), ignored",
				name, (unsigned long long)(r->base + r->pos), avail);
			r->truncated += avail;
			r->consumed += avail;
		}
		close(r->fd);
		r->fd = -1;
		r->cur++;
		r->len = 0;
		r->pos = 0;
	}
}

void npx_reader_close(struct npx_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
}
