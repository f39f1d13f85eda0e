// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: msprof_{ts}.json, the Chrome trace timeline.
 *
 * One JSON array of events, one event per line. Processes (layers) and
 * threads get their "M" metadata events (process_name, process_labels,
 * process_sort_index, thread_name, thread_sort_index) the first time an
 * event lands on them, so the file is written in one streaming pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "npuprof_internal.h"

static uint64_t npx_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void npx_u64set_put(uint64_t *v, size_t cap, uint64_t key)
{
	size_t i;

	for (i = npx_mix64(key) & (cap - 1); v[i]; i = (i + 1) & (cap - 1))
		;
	v[i] = key;
}

int npx_u64set_add(struct npx_u64set *s, uint64_t key)
{
	size_t i;

	if (s->cap) {
		for (i = npx_mix64(key) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
			if (s->v[i] == key)
				return 0;
	}
	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		uint64_t *v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (i = 0; i < s->cap; i++)
			if (s->v[i])
				npx_u64set_put(v, cap, s->v[i]);
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	npx_u64set_put(s->v, s->cap, key);
	s->n++;
	return 1;
}

bool npx_u64set_has(const struct npx_u64set *s, uint64_t key)
{
	size_t i;

	if (!s->cap)
		return false;
	for (i = npx_mix64(key) & (s->cap - 1); s->v[i]; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == key)
			return true;
	return false;
}

void npx_u64set_free(struct npx_u64set *s)
{
	free(s->v);
	s->v = NULL;
	s->cap = 0;
	s->n = 0;
}

int npx_tl_open(struct npx_out *o, struct npx_tl *tl)
{
	char tmp[96];
	char *p;
	int rc;

	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-msprof.tmp", o->pid);
	rc = npx_file_open(o, &tl->f, tmp);
	if (rc)
		return rc;
	npx_file_reserve(o, &tl->f, 2, &p);
	*p++ = '[';
	npx_file_advance(&tl->f, p);
	tl->events = 0;
	return 0;
}

int npx_tl_begin(struct npx_out *o, struct npx_tl *tl, char **cur)
{
	int rc = npx_file_reserve(o, &tl->f, NPX_ROW_MAX, cur);

	if (rc)
		return rc;
	if (tl->events)
		*(*cur)++ = ',';
	*(*cur)++ = '\n';
	return 0;
}

/* {"name":"<meta>","ph":"M","pid":P,"tid":T,"args":{"<key>":<value>}} */
static int npx_tl_meta(struct npx_out *o, struct npx_tl *tl, const char *meta, uint32_t pid,
		       uint32_t tid, const char *key, const char *sval, uint32_t ival)
{
	char *p;
	int rc = npx_tl_begin(o, tl, &p);

	if (rc)
		return rc;
	p = npx_lit(p, "{\"name\":\"");
	p = npx_put(p, meta);
	p = npx_lit(p, "\",\"ph\":\"M\",\"pid\":");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	p = npx_fmt_u64(p, tid);
	p = npx_lit(p, ",\"args\":{\"");
	p = npx_put(p, key);
	p = npx_lit(p, "\":");
	if (sval)
		p = npx_json_str(p, sval, 256);
	else
		p = npx_fmt_u64(p, ival);
	p = npx_lit(p, "}}");
	npx_tl_end(tl, p);
	return 0;
}

int npx_tl_thread(struct npx_out *o, struct npx_tl *tl, uint32_t pid, const char *name,
		  const char *label, uint32_t sort, uint32_t tid, const char *tname)
{
	int rc;

	rc = npx_u64set_add(&tl->seen, (uint64_t)pid << 33);
	if (rc < 0)
		return npuprof_set_error(o->err, rc, "out of memory");
	if (rc) {
		rc = npx_tl_meta(o, tl, "process_name", pid, 0, "name", name, 0);
		if (!rc)
			rc = npx_tl_meta(o, tl, "process_labels", pid, 0, "labels", label, 0);
		if (!rc)
			rc = npx_tl_meta(o, tl, "process_sort_index", pid, 0, "sort_index", NULL,
					 sort);
		if (rc)
			return rc;
	}
	rc = npx_u64set_add(&tl->seen, (uint64_t)pid << 33 | (uint64_t)tid << 1 | 1);
	if (rc < 0)
		return npuprof_set_error(o->err, rc, "out of memory");
	if (rc) {
		rc = npx_tl_meta(o, tl, "thread_name", pid, tid, "name", tname, 0);
		if (!rc)
			rc = npx_tl_meta(o, tl, "thread_sort_index", pid, tid, "sort_index", NULL,
					 tid);
	}
	return rc;
}

int npx_tl_close(struct npx_out *o, struct npx_tl *tl)
{
	char *p;
	int rc;

	if (tl->f.fd < 0)
		return 0;
	rc = npx_file_reserve(o, &tl->f, 4, &p);
	if (rc)
		return rc;
	p = npx_lit(p, "\n]\n");
	npx_file_advance(&tl->f, p);
	return npx_file_close(o, &tl->f);
}

void npx_tl_free(struct npx_tl *tl)
{
	npx_file_free(&tl->f);
	npx_u64set_free(&tl->seen);
}
