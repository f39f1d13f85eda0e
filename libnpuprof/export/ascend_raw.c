// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the raw files of the real layout, framed as msprof's
 * parser frames them (docs/msprof-parser.md section 1.1): the slices of one
 * kind sorted by their trailing number, whole records only, and a front
 * trim of (total size % record size) bytes; and the two text dictionaries,
 * hash_dic ("hash:name") and type_info_dic ("level_type:name").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/ascend.h"

#define NPA_READ_BUF (1u << 20)

int npa_grow(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : first;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* the K of "...slice_K", or -1 */
static long slice_number(const char *name)
{
	const char *p = strrchr(name, '_');
	char *end;
	long v;

	if (!p || p - name < 5 || strncmp(p - 5, "slice", 5))
		return -1;
	errno = 0;
	v = strtol(p + 1, &end, 10);
	if (errno || end == p + 1 || *end || v < 0)
		return -1;
	return v;
}

static int cmp_slice(const void *a, const void *b)
{
	long x = slice_number(*(char *const *)a), y = slice_number(*(char *const *)b);

	if (x != y)
		return x < y ? -1 : 1;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

int npa_slices_find(struct npa_slices *s, const char *dir, const char *label,
		    const char *const *prefixes, struct npa_warn *w, struct npuprof_error *err)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *dp;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->label, sizeof(s->label), "%s", label);
	dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0
				       : npx_set_error(err, -errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(dp))) {
		struct stat st;
		bool match = false;
		char *name;

		for (const char *const *p = prefixes; *p && !match; p++)
			match = !strncmp(de->d_name, *p, strlen(*p));
		/* msprof skips markers and archives, and a file with a .complete sibling */
		if (!match || slice_number(de->d_name) < 0 || has_suffix(de->d_name, ".done") ||
		    has_suffix(de->d_name, ".complete") || has_suffix(de->d_name, ".zip"))
			continue;
		/* not through a link: one may lead to /dev/zero or out of the folder */
		if (fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			npa_warn(w, "%s/%s: %s: skipped", label, de->d_name, strerror(errno));
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			npa_warn(w, "%s/%s: %s, not a regular file: skipped", label, de->d_name,
				 S_ISLNK(st.st_mode) ? "a symbolic link" : "a special file");
			continue;
		}
		if (!st.st_size)
			continue;
		if (npa_grow((void **)&s->name, &cap, s->n, sizeof(*s->name), 16)) {
			rc = npx_set_error(err, -ENOMEM, "out of memory");
			break;
		}
		name = strdup(de->d_name);
		if (!name) {
			rc = npx_set_error(err, -ENOMEM, "out of memory");
			break;
		}
		s->name[s->n++] = name;
		s->bytes += (uint64_t)st.st_size;
	}
	closedir(dp);
	if (!rc && s->n)
		npx_qsort(s->name, s->n, sizeof(*s->name), cmp_slice);
	if (rc)
		npa_slices_free(s);
	return rc;
}

void npa_slices_free(struct npa_slices *s)
{
	for (unsigned int i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	s->name = NULL;
	s->n = 0;
}

/*
 * Read the slice open at @fd (@path, @file for messages), @len bytes from
 * @skip on, into @buf, passing whole records; keep the tail in @carry.
 * Only the bytes it had when opened are read: a file that grows meanwhile
 * (or is swapped for a larger one) cannot stretch the export.
 */
static int read_slice(int fd, const char *file, uint64_t len, size_t size, uint64_t skip, char *buf,
		      size_t *carry, npa_rec_fn fn, void *arg, struct npuprof_error *err)
{
	/* the file offset of buf[0]: negative while it holds the last slice's tail */
	int64_t buf_off = (int64_t)skip - (int64_t)*carry;
	uint64_t left = len - skip;

	if (skip && lseek(fd, (off_t)skip, SEEK_SET) < 0)
		return npx_set_error(err, -errno, "%s: offset %llu: %s", file,
				     (unsigned long long)skip, strerror(errno));
	while (left) {
		size_t room = NPA_READ_BUF - *carry;
		ssize_t n = read(fd, buf + *carry, room < left ? room : (size_t)left);
		size_t have, k;
		int rc;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return npx_set_error(err, -errno, "%s: offset %lld: %s", file,
					     (long long)(buf_off + (int64_t)*carry),
					     strerror(errno));
		}
		if (!n)
			break; /* it shrank: what is there */
		left -= (uint64_t)n;
		have = *carry + (size_t)n;
		for (k = 0; k + size <= have; k += size) {
			/* a record begun in the previous slice is named at offset 0 */
			int64_t at = buf_off + (int64_t)k;

			rc = fn(arg, buf + k, file, at < 0 ? 0 : (uint64_t)at);
			if (rc)
				return rc;
		}
		*carry = have - k;
		memmove(buf, buf + k, *carry);
		buf_off += (int64_t)k;
	}
	return 0;
}

int npa_slices_read(const struct npa_slices *s, size_t size, bool per_file, npa_rec_fn fn,
		    void *arg, struct npa_warn *w, struct npuprof_error *err)
{
	char *buf = NULL;
	size_t carry = 0;
	int rc = 0;

	if (!s->n)
		return 0;
	buf = malloc(NPA_READ_BUF);
	if (!buf)
		return npx_set_error(err, -ENOMEM, "out of memory");
	if (!per_file && s->bytes % size)
		npa_warn(w,
			 "%s/%s: %llu bytes are not whole %zu-byte records: skipped at its start",
			 s->label, s->name[0], (unsigned long long)(s->bytes % size), size);
	for (unsigned int i = 0; i < s->n && !rc; i++) {
		char path[PATH_MAX + 300], file[400];
		struct stat st;
		uint64_t skip = 0;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name[i]);
		snprintf(file, sizeof(file), "%s/%s", s->label, s->name[i]);
		fd = npx_input_open(path, NPX_CAP_SLICE, "raw record slice", &st, err);
		if (fd < 0) {
			rc = fd;
			break;
		}
		if (per_file) {
			skip = (uint64_t)st.st_size % size;
			if (skip)
				npa_warn(w,
					 "%s: %llu bytes are not whole %zu-byte records:"
					 " skipped at its start",
					 file, (unsigned long long)skip, size);
			carry = 0;
		} else if (!i) {
			skip = s->bytes % size;
		}
		if (skip <= (uint64_t)st.st_size)
			rc = read_slice(fd, file, (uint64_t)st.st_size, size, skip, buf, &carry, fn,
					arg, err);
		close(fd);
	}
	free(buf);
	return rc;
}

/* ---- dictionaries ---- */

int npa_dict_put(struct npa_dict *d, uint64_t key, const char *val, size_t len)
{
	uintptr_t *slot;
	bool added;
	char *v;

	if (!d->map.hash_fn)
		d->map =
			(struct npx_hmap)NPX_HMAP_INIT(npx_hmap_hash_u64, npx_hmap_equal_u64, NULL);
	if (npa_grow((void **)&d->val, &d->cap, d->n, sizeof(*d->val), 256))
		return -ENOMEM;
	v = strndup(val, len);
	slot = v ? npx_hmap_slot(&d->map, key, &added) : NULL;
	if (!slot) {
		free(v);
		return -ENOMEM;
	}
	if (!added) {
		/* a later definition wins, as in msprof's dict */
		free(d->val[*slot]);
		d->val[*slot] = v;
		return 0;
	}
	*slot = d->n;
	d->val[d->n++] = v;
	return 0;
}

const char *npa_dict_get(const struct npa_dict *d, uint64_t key)
{
	const uintptr_t *slot = npx_hmap_find(&d->map, key);

	return slot ? d->val[*slot] : NULL;
}

void npa_dict_free(struct npa_dict *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->val[i]);
	free(d->val);
	npx_hmap_free(&d->map);
	memset(d, 0, sizeof(*d));
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* One "key:value" line; @typed: the key is "level_type". */
static int dict_line(struct npa_dict *d, char *line, bool typed, const char *file,
		     unsigned long lineno, struct npa_warn *w)
{
	char *colon, *us, *end;
	size_t n = strlen(line);
	uint64_t key;

	/* msprof strips the line */
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
		line[--n] = 0;
	while (*line == ' ')
		line++;
	if (!*line)
		return 0;
	colon = strchr(line, ':');
	if (!colon) {
		npa_warn(w, "%s: line %lu: no ':', ignored", file, lineno);
		return 0;
	}
	*colon = 0;
	if (typed) {
		us = strchr(line, '_');
		if (!us || strchr(us + 1, '_') || !all_digits(line, (size_t)(us - line)) ||
		    !all_digits(us + 1, strlen(us + 1))) {
			npa_warn(w, "%s: line %lu: key '%s' is not level_type, ignored", file,
				 lineno, line);
			return 0;
		}
		key = strtoull(line, &end, 10) << 32 | strtoull(us + 1, &end, 10);
	} else {
		if (!all_digits(line, strlen(line))) {
			npa_warn(w, "%s: line %lu: key '%s' is not a number, ignored", file, lineno,
				 line);
			return 0;
		}
		key = strtoull(line, &end, 10);
	}
	return npa_dict_put(d, key, colon + 1, strlen(colon + 1));
}

int npa_dict_load(struct npa_dict *d, const struct npa_slices *s, bool typed, struct npa_warn *w,
		  struct npuprof_error *err)
{
	char path[PATH_MAX + 300], file[400];
	int rc = 0;

	for (unsigned int i = 0; i < s->n && !rc; i++) {
		unsigned long lineno = 0;
		size_t len, at;
		char *buf;

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name[i]);
		snprintf(file, sizeof(file), "%s/%s", s->label, s->name[i]);
		rc = npx_input_read(path, NPX_CAP_DICT, "dictionary slice", &buf, &len, err);
		if (rc)
			return rc;
		/* line by line in place; a NUL byte ends its line early */
		for (at = 0; !rc && at < len;) {
			char *nl = memchr(buf + at, '\n', len - at);
			char *line = buf + at;

			if (nl)
				*nl = 0;
			at = nl ? (size_t)(nl - buf) + 1 : len;
			lineno++;
			rc = dict_line(d, line, typed, file, lineno, w);
		}
		free(buf);
		if (rc)
			rc = npx_set_error(err, rc, "%s: %s", file, strerror(-rc));
	}
	return rc;
}
