// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the one hash map, after libbpf's: keys and values are
 * uintptr_t (a number, or a pointer to what the caller keeps), hashed and
 * compared by the caller's functions, with ready ones for 64-bit numbers
 * and strings. Open addressing with linear probing, at most half full, so
 * that a lookup touches one or two cache lines. Nothing iterates it: the
 * users keep their own arrays in the order they need, and the map only
 * finds things in them, so its layout never reaches an output.
 */
#include "core/core.h"

_Static_assert(sizeof(uintptr_t) == sizeof(uint64_t), "64-bit keys must fit a uintptr_t");

uint64_t npx_mix64(uint64_t z)
{
	/* splitmix64's finalizer */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t npx_fnv1a64(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t npx_hmap_hash_u64(uintptr_t key, void *ctx)
{
	(void)ctx;
	return npx_mix64(key);
}

bool npx_hmap_equal_u64(uintptr_t a, uintptr_t b, void *ctx)
{
	(void)ctx;
	return a == b;
}

uint64_t npx_hmap_hash_str(uintptr_t key, void *ctx)
{
	const char *s = (const char *)key;

	(void)ctx;
	return npx_fnv1a64(s, strlen(s));
}

bool npx_hmap_equal_str(uintptr_t a, uintptr_t b, void *ctx)
{
	(void)ctx;
	return !strcmp((const char *)a, (const char *)b);
}

/* a stored hash is never 0: 0 marks a free entry */
static uint64_t hash_of(const struct npx_hmap *m, uintptr_t key)
{
	uint64_t h = m->hash_fn(key, m->ctx);

	return h ? h : 1;
}

static struct npx_hmap_entry *probe(const struct npx_hmap *m, uintptr_t key, uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct npx_hmap_entry *e = &m->e[i];

		if (!e->hash || (e->hash == h && m->equal_fn(e->key, key, m->ctx)))
			return e;
	}
}

static int grow(struct npx_hmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 16;
	struct npx_hmap old = *m;

	if (cap < m->cap)
		return -ENOMEM;
	m->e = calloc(cap, sizeof(*m->e));
	if (!m->e) {
		m->e = old.e;
		return -ENOMEM;
	}
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		const struct npx_hmap_entry *e = &old.e[i];

		if (e->hash)
			*probe(m, e->key, e->hash) = *e;
	}
	free(old.e);
	return 0;
}

int npx_hmap_reserve(struct npx_hmap *m, size_t n)
{
	while (2 * n > m->cap)
		if (grow(m))
			return -ENOMEM;
	return 0;
}

uintptr_t *npx_hmap_slot(struct npx_hmap *m, uintptr_t key, bool *added)
{
	struct npx_hmap_entry *e;
	uint64_t h = hash_of(m, key);

	if (added)
		*added = false;
	if (m->cap) {
		e = probe(m, key, h);
		if (e->hash)
			return &e->value;
	}
	if (npx_hmap_reserve(m, m->n + 1))
		return NULL;
	e = probe(m, key, h);
	e->hash = h;
	e->key = key;
	e->value = 0;
	m->n++;
	if (added)
		*added = true;
	return &e->value;
}

uintptr_t *npx_hmap_find(const struct npx_hmap *m, uintptr_t key)
{
	struct npx_hmap_entry *e;

	if (!m->cap)
		return NULL;
	e = probe(m, key, hash_of(m, key));
	return e->hash ? &e->value : NULL;
}

void npx_hmap_free(struct npx_hmap *m)
{
	free(m->e);
	m->e = NULL;
	m->cap = 0;
	m->n = 0;
}
