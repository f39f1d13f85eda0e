/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof core/: what every other part of the library uses and that
 * depends on none of them: the visibility and symbol-version macros,
 * error reports, options structs, the library's messages, the clock of
 * host records, hostile-input file reads, the one hash map, JSON strings
 * as Python writes them, and small helpers. Prefix npx_.
 */
#ifndef NPX_CORE_H
#define NPX_CORE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "npuprof.h"

/* ---- symbols, errors, options, messages (npuprof_error.c, opts.c, print.c) ---- */

/* Public symbols: the library builds with -fvisibility=hidden. */
#define NPUPROF_API __attribute__((visibility("default")))

/*
 * A symbol whose ABI changed (libbpf's COMPAT_VERSION / DEFAULT_VERSION):
 * the current implementation, @internal, is @api@@@version, the default
 * that new programs link against; an old one is @api@@version, kept for
 * the programs linked against that node. @version is a string, so that no
 * formatter can split "LIBNPUPROF_0.2". In the static library there are
 * no versions: @api is an alias of the current one.
 */
#ifdef NPUPROF_SHARED
#define NPUPROF_COMPAT(internal, api, version) __asm__(".symver " #internal "," #api "@" version)
#define NPUPROF_DEFAULT(internal, api, version) __asm__(".symver " #internal "," #api "@@" version)
#else
#define NPUPROF_COMPAT(internal, api, version)
#define NPUPROF_DEFAULT(internal, api, version) \
	extern __typeof__(internal) api NPUPROF_API __attribute__((alias(#internal)))
#endif

/* npuprof_error.c */
/*
 * npx_set_error() - fill @err (when not NULL) with @code and a message
 * @err: the caller's error report, or NULL.
 * @code: a negative errno.
 * @fmt: printf format of the message (truncated to fit).
 *
 * Return: @code, so that "return npx_set_error(err, -EINVAL, ...);"
 * reads naturally.
 */
int npx_set_error(struct npuprof_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear @err (when not NULL): code 0, empty message. */
void npx_clear_error(struct npuprof_error *err);

/* opts.c: the OPTS rules (sz) of an options struct of @lib_sz bytes. */
int npx_opts_check(const void *opts, size_t lib_sz, const char *type, struct npuprof_error *err);
/* @opts is not NULL and the caller's struct has @field */
#define npx_opts_has(opts, field) \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), field) + sizeof((opts)->field))
/* @opts's @field, else @fallback (NULL @opts, or a caller too old to have it) */
#define npx_opts_get(opts, field, fallback) (npx_opts_has(opts, field) ? (opts)->field : (fallback))

/* print.c: a message of the library's own, through npuprof_set_print(). */
void npx_print(enum npuprof_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Host record time: CLOCK_MONOTONIC_RAW, as CANN's (host CPU Frequency ""). */
static inline uint64_t npx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * fileio.c: write all of @buf at @off (or at the file position when -1),
 * retrying short writes and EINTR; on failure, the bytes written in *@done.
 */
int npx_write_at(int fd, const void *buf, size_t n, int64_t off, size_t *done);

/*
 * fileio.c: the export's inputs. A PROF folder may come from another
 * machine or person, so every file of it is opened the one way
 * npx_input_open() does: never through a symbolic link (O_NOFOLLOW),
 * never blocking (O_NONBLOCK: a FIFO in a file's place), a regular file
 * only, and at most @cap bytes, the most a @what ("JSON file") may hold by
 * its format. Each refusal names @path and why (and the cap) in @err.
 * Returns the descriptor, its fstat() in *@st; or a negative errno.
 *
 * npx_input_read() reads such a file whole into *@buf (malloc()ed, NUL
 * terminated after its *@len bytes; the bytes it had at the open, no more).
 */
struct stat;
int npx_input_open(const char *path, uint64_t cap, const char *what, struct stat *st,
		   struct npuprof_error *err);
int npx_input_read(const char *path, uint64_t cap, const char *what, char **buf, size_t *len,
		   struct npuprof_error *err);

/* the caps by format: what msprof's writers and ours write is far smaller */
#define NPX_CAP_JSON (4ULL << 20) /* info.json, sample.json, start_info, loss reports */
#define NPX_CAP_LOG (1ULL << 20) /* host_start.log, dev_start.log */
#define NPX_CAP_DICT (64ULL << 20) /* a slice of hash_dic or type_info_dic */
/* a raw record slice: CANN rotates far below it, our collector at 64 MiB */
#define NPX_CAP_SLICE (1ULL << 30)

/* ---- the hash map (hashmap.c) ---- */

typedef uint64_t (*npx_hmap_hash_fn)(uintptr_t key, void *ctx);
typedef bool (*npx_hmap_equal_fn)(uintptr_t a, uintptr_t b, void *ctx);

struct npx_hmap_entry {
	uint64_t hash; /* 0: free */
	uintptr_t key;
	uintptr_t value;
};

/**
 * struct npx_hmap - the library's one hash map (hashmap.c)
 * @e: the entries, @cap of them (a power of two, at most half used).
 * @cap: entries.
 * @n: keys in it.
 * @hash_fn: the keys' hash (npx_hmap_hash_u64, npx_hmap_hash_str or the
 *           caller's).
 * @equal_fn: whether two keys are one.
 * @ctx: passed to both (say, the array that index keys point into).
 *
 * Zero it but for the functions (NPX_HMAP_INIT) to start; free it with
 * npx_hmap_free(). It owns nothing that its keys or values point to.
 */
struct npx_hmap {
	struct npx_hmap_entry *e;
	size_t cap;
	size_t n;
	npx_hmap_hash_fn hash_fn;
	npx_hmap_equal_fn equal_fn;
	void *ctx;
};

#define NPX_HMAP_INIT(hash, equal, context)                              \
	{                                                                \
		.hash_fn = (hash), .equal_fn = (equal), .ctx = (context) \
	}

/*
 * The value of @key, added with value 0 when it is not there (*@added
 * says which, when not NULL); NULL when out of memory. The pointer holds
 * until the next key is added.
 */
uintptr_t *npx_hmap_slot(struct npx_hmap *m, uintptr_t key, bool *added);
/* the value of @key, or NULL when it is not there */
uintptr_t *npx_hmap_find(const struct npx_hmap *m, uintptr_t key);
/* room for @n keys without growing: 0 or -ENOMEM */
int npx_hmap_reserve(struct npx_hmap *m, size_t n);
void npx_hmap_free(struct npx_hmap *m);

uint64_t npx_hmap_hash_u64(uintptr_t key, void *ctx);
bool npx_hmap_equal_u64(uintptr_t a, uintptr_t b, void *ctx);
/* keys are NUL-terminated strings (const char *), hashed with FNV-1a */
uint64_t npx_hmap_hash_str(uintptr_t key, void *ctx);
bool npx_hmap_equal_str(uintptr_t a, uintptr_t b, void *ctx);

/* splitmix64's finalizer, and the 64-bit FNV-1a of @n bytes */
uint64_t npx_mix64(uint64_t z);
uint64_t npx_fnv1a64(const void *p, size_t n);

/* ---- JSON strings (json_escape.c) ---- */

/*
 * json_escape.c: the inside of a JSON string (no quotes) as one of
 * msprof's writers has it, at @p, NUL-terminated; returns the end. @p has
 * room for NPX_JSON_ESCAPED_MAX(strlen(@s)) bytes: 6 per input byte.
 */
enum npx_json_dialect {
	NPX_JSON_PY, /* Python's json.dumps, ensure_ascii */
	NPX_JSON_RAPIDJSON, /* the C++ path's rapidjson Writer */
};
#define NPX_JSON_ESCAPED_MAX(n) (6 * (size_t)(n) + 1)
char *npx_json_escape(char *p, const char *s, enum npx_json_dialect dialect);

/* ---- small helpers ---- */

/* append a string literal (its length known at compile time) */
#define npx_lit(p, s) ((char *)memcpy((p), "" s, sizeof(s) - 1) + sizeof(s) - 1)

/* append @s */
static inline char *npx_put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

#define NPX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * qsort() and qsort_r() of @n elements at @base, which is NULL when a folder
 * had none: glibc declares the base nonnull, so qsort(NULL, 0, ...) is
 * undefined behaviour (UBSan stops there), and the export's arrays are NULL
 * whenever a kind of record is absent.
 */
/*
 * (int64_t)@v where the cast is defined, and a saturated value where it is
 * not: a time or count computed from a hostile folder can be beyond
 * int64_t or NaN, and casting those is undefined behaviour (UBSan stops
 * there; x86 gives INT64_MIN). In range it is the cast, truncation.
 */
static inline int64_t npx_i64_ld(long double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775808.0L)
		return INT64_MAX;
	if (v < -9223372036854775808.0L)
		return INT64_MIN;
	return (int64_t)v;
}

static inline int64_t npx_i64(double v)
{
	return npx_i64_ld(v);
}

static inline void npx_qsort(void *base, size_t n, size_t size,
			     int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline void npx_qsort_r(void *base, size_t n, size_t size,
			       int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

#endif /* NPX_CORE_H */
