// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: text formatting and the output files.
 *
 * Numbers are formatted by hand (never printf, never through double):
 * microseconds with 3 decimals come from integer nanoseconds, ratios and
 * bandwidths from integer thousandths computed by the callers.
 *
 * Every output file is written under a temporary name in the output folder
 * (".npuprof-{pid}-{base}-{i}.tmp") and renamed to its final name only
 * when the whole export has succeeded; on failure the temporary files are
 * removed, so no partial file is ever left under a final name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "export_internal.h"

void npx_warn(struct npx_warn *w, const char *fmt, ...)
{
	va_list ap;

	w->count++;
	if (w->quiet)
		return;
	fputs("npuprof: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char npx_digits2[] = "00010203040506070809"
				  "10111213141516171819"
				  "20212223242526272829"
				  "30313233343536373839"
				  "40414243444546474849"
				  "50515253545556575859"
				  "60616263646566676869"
				  "70717273747576777879"
				  "80818283848586878889"
				  "90919293949596979899";

char *npx_fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	char *end = tmp + sizeof(tmp), *s = end;

	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		s -= 2;
		memcpy(s, npx_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		s -= 2;
		memcpy(s, npx_digits2 + 2 * v, 2);
	} else {
		*--s = (char)('0' + v);
	}
	memcpy(p, s, (size_t)(end - s));
	return p + (end - s);
}

#define NPX_E19 10000000000000000000ULL

char *npx_fmt_u128(char *p, npx_u128 v)
{
	uint64_t lo;
	char tmp[20], *e;
	size_t n;

	if (!(v >> 64))
		return npx_fmt_u64(p, (uint64_t)v);
	p = npx_fmt_u128(p, v / NPX_E19);
	lo = (uint64_t)(v % NPX_E19);
	/* the low part, zero-padded to 19 digits */
	e = npx_fmt_u64(tmp, lo);
	n = (size_t)(e - tmp);
	memset(p, '0', 19 - n);
	memcpy(p + 19 - n, tmp, n);
	return p + 19;
}

char *npx_fmt_milli(char *p, npx_u128 v)
{
	unsigned int frac;

	if (!(v >> 64)) {
		uint64_t w = (uint64_t)v;

		p = npx_fmt_u64(p, w / 1000);
		frac = (unsigned int)(w % 1000);
	} else {
		p = npx_fmt_u128(p, v / 1000);
		frac = (unsigned int)(v % 1000);
	}
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npx_digits2 + 2 * (frac % 100), 2);
	return p + 4;
}

/* Printable ASCII passes; anything else (control, 8-bit) becomes '?'. */
static inline char npx_clean(char c)
{
	return c >= 0x20 && c < 0x7f ? c : '?';
}

char *npx_csv_name(char *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;
	bool quote = false;

	if (!n)
		return npx_put(p, NPX_NA);
	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"')
			quote = true;
	if (!quote) {
		for (i = 0; i < n; i++)
			p[i] = npx_clean(s[i]);
		return p + n;
	}
	*p++ = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = npx_clean(s[i]);
	}
	*p++ = '"';
	return p;
}

char *npx_json_str(char *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max), i;

	*p++ = '"';
	for (i = 0; i < n; i++) {
		char c = npx_clean(s[i]);

		if (c == '"' || c == '\\')
			*p++ = '\\';
		*p++ = c;
	}
	*p++ = '"';
	return p;
}

/* ---- files ---- */

void npx_file_init(struct npx_file *f)
{
	f->fd = -1;
	f->tmp[0] = '\0';
	f->buf = NULL;
	f->len = 0;
}

int npx_file_open(struct npx_out *o, struct npx_file *f, const char *tmp)
{
	if (!f->buf) {
		f->buf = malloc(NPX_BUF_SIZE);
		if (!f->buf)
			return npuprof_set_error(o->err, -ENOMEM, "out of memory");
	}
	snprintf(f->tmp, sizeof(f->tmp), "%s", tmp);
	f->len = 0;
	f->fd = openat(o->dfd, f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		int e = errno;

		f->tmp[0] = '\0';
		return npuprof_set_error(o->err, -e, "%s/%s: %s", NPUPROF_OUTPUT_DIR, tmp,
					 strerror(e));
	}
	return 0;
}

int npx_file_flush(struct npx_out *o, struct npx_file *f)
{
	size_t done = 0;

	while (done < f->len) {
		ssize_t n = write(f->fd, f->buf + done, f->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			return npuprof_set_error(o->err, -e, "%s/%s: write: %s", NPUPROF_OUTPUT_DIR,
						 f->tmp, strerror(e));
		}
		done += (size_t)n;
	}
	f->len = 0;
	return 0;
}

int npx_file_close(struct npx_out *o, struct npx_file *f)
{
	int rc = 0;

	if (f->fd < 0)
		return 0;
	if (f->len)
		rc = npx_file_flush(o, f);
	if (close(f->fd) && !rc)
		rc = npuprof_set_error(o->err, -errno, "%s/%s: close: %s", NPUPROF_OUTPUT_DIR,
				       f->tmp, strerror(errno));
	f->fd = -1;
	return rc;
}

int npx_file_commit(struct npx_out *o, struct npx_file *f, const char *final)
{
	if (!f->tmp[0])
		return 0;
	if (renameat(o->dfd, f->tmp, o->dfd, final))
		return npuprof_set_error(o->err, -errno, "%s/%s: rename to %s: %s",
					 NPUPROF_OUTPUT_DIR, f->tmp, final, strerror(errno));
	f->tmp[0] = '\0';
	return 0;
}

void npx_file_discard(struct npx_out *o, struct npx_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->len = 0;
	if (f->tmp[0])
		unlinkat(o->dfd, f->tmp, 0);
	f->tmp[0] = '\0';
}

void npx_file_free(struct npx_file *f)
{
	free(f->buf);
	f->buf = NULL;
}

/* ---- sliced CSVs ---- */

void npx_csv_init(struct npx_csv *c, const char *base)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	npx_file_init(&c->f);
}

int npx_csv_set_header(struct npx_out *o, struct npx_csv *c, const char *header)
{
	char *h = strdup(header);

	if (!h)
		return npuprof_set_error(o->err, -ENOMEM, "out of memory");
	free(c->header);
	c->header = h;
	return 0;
}

static void npx_csv_tmp(const struct npx_out *o, const struct npx_csv *c, unsigned int i, char *buf,
			size_t len)
{
	snprintf(buf, len, ".npuprof-%ld-%s-%u.tmp", o->pid, c->base, i);
}

void npx_csv_name_of(const struct npx_out *o, const struct npx_csv *c, unsigned int i, char *buf,
		     size_t len)
{
	if (c->nfiles <= 1)
		snprintf(buf, len, "%s_%s.csv", c->base, o->ts);
	else
		snprintf(buf, len, "%s_slice_%u_%s.csv", c->base, i, o->ts);
}

/* Close the current slice (keeping its temporary file) and open the next. */
static int npx_csv_next_slice(struct npx_out *o, struct npx_csv *c)
{
	char tmp[96];
	char *cur;
	size_t n = strlen(c->header);
	int rc;

	rc = npx_file_close(o, &c->f);
	if (rc)
		return rc;
	npx_csv_tmp(o, c, c->nfiles, tmp, sizeof(tmp));
	rc = npx_file_open(o, &c->f, tmp);
	if (rc)
		return rc;
	c->nfiles++;
	c->rows = 0;
	/* the header may be longer than the buffer: write it through */
	if (n + 1 > NPX_BUF_SIZE)
		return npuprof_set_error(o->err, -EINVAL, "%s: header too long", c->base);
	npx_file_reserve(o, &c->f, n + 1, &cur);
	memcpy(cur, c->header, n);
	cur[n] = '\n';
	npx_file_advance(&c->f, cur + n + 1);
	return 0;
}

int npx_csv_begin(struct npx_out *o, struct npx_csv *c, char **cur)
{
	int rc;

	if (c->f.fd < 0 || c->rows >= o->slice_rows) {
		rc = npx_csv_next_slice(o, c);
		if (rc)
			return rc;
	}
	return npx_file_reserve(o, &c->f, NPX_ROW_MAX, cur);
}

int npx_csv_close(struct npx_out *o, struct npx_csv *c)
{
	return npx_file_close(o, &c->f);
}

int npx_csv_commit(struct npx_out *o, struct npx_csv *c)
{
	char tmp[96], final[128];
	unsigned int i;

	for (i = 0; i < c->nfiles; i++) {
		npx_csv_tmp(o, c, i, tmp, sizeof(tmp));
		npx_csv_name_of(o, c, i, final, sizeof(final));
		if (renameat(o->dfd, tmp, o->dfd, final))
			return npuprof_set_error(o->err, -errno, "%s/%s: rename to %s: %s",
						 NPUPROF_OUTPUT_DIR, tmp, final, strerror(errno));
	}
	c->f.tmp[0] = '\0';
	return 0;
}

void npx_csv_discard(struct npx_out *o, struct npx_csv *c)
{
	char tmp[96];
	unsigned int i;

	npx_file_discard(o, &c->f);
	for (i = 0; i < c->nfiles; i++) {
		npx_csv_tmp(o, c, i, tmp, sizeof(tmp));
		unlinkat(o->dfd, tmp, 0);
	}
	c->nfiles = 0;
}

void npx_csv_free(struct npx_csv *c)
{
	npx_file_free(&c->f);
	free(c->header);
	c->header = NULL;
}
