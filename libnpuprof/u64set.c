// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: a set of 64-bit keys (open addressing, linear probing,
 * a mixed hash), for what the timeline has written once already (its
 * processes' and threads' metadata events).
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
