/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export: the reading of a device_N folder, shared by
 * ascend_device.c (the STARS chips' records, pairing, batches, the join)
 * and ascend_device_hwts.c (the HWTS chips' records); private to export/.
 */
#ifndef NPA_DEVICE_H
#define NPA_DEVICE_H

#include "export/ascend.h"

/*
 * A multimap of 64-bit keys to record indices (ascend_device.c): the map
 * (core/hashmap.c) finds a key's first index; @next chains the rest, in
 * the order they were added.
 * npa_kmap_init(): room for indices 0 .. @n - 1.
 * npa_kmap_add(): add index @v (added in increasing order) under @key;
 *   lists keep that order. @tail has room for every index. Room for every
 *   index was reserved: the add cannot fail.
 * npa_kmap_get(): the first index of @key, -1 for none.
 * npa_kmap_pop(): the same, taken off its list (a queue per key), -1 when
 *   the key has none left.
 */
struct npa_kmap {
	struct npx_hmap map; /* key -> its first index */
	int64_t *next; /* per index: the next index of the same key, -1 at the end */
};

int npa_kmap_init(struct npa_kmap *m, size_t n);
void npa_kmap_add(struct npa_kmap *m, uint64_t key, int64_t v, int64_t *tail);
int64_t npa_kmap_get(const struct npa_kmap *m, uint64_t key);
int64_t npa_kmap_pop(struct npa_kmap *m, uint64_t key);
void npa_kmap_free(struct npa_kmap *m);

struct npa_acsq {
	uint32_t stream;
	uint32_t task;
	uint32_t sqe;
	bool end;
	double ns;
	uint64_t cnt; /* its syscnt */
	size_t seq; /* file order, for stable sorts */
};

struct npa_flip {
	uint32_t stream;
	uint32_t task;
	double ns;
};

/* a PMU record before its join: its key and time */
struct npa_pmu_rec {
	uint32_t stream;
	uint32_t task;
	uint32_t ctx;
	uint32_t batch;
	double end_ns;
	size_t idx; /* in npa_dev.pmu */
};

/* an FFTS+ subtask log: a context's start or end */
struct npa_sub_ev {
	uint32_t stream;
	uint32_t task;
	uint32_t ctx;
	uint32_t thread;
	uint32_t type;
	bool end;
	double ns;
	uint64_t cnt;
	size_t seq;
};

/* a block PMU record of a mix op's other core type */
struct npa_blk {
	uint32_t stream;
	uint32_t task;
	uint32_t ctx;
	uint64_t total;
	uint64_t pmu[NPA_PMU_EVENTS];
	double time_us; /* a v6 record's (struct npa_pmu.time_us) */
};

struct npa_dev_read {
	struct npa_dev *d;
	struct npa_warn *w;
	struct npuprof_error *err;
	struct npa_acsq *ev;
	size_t n_ev, cap_ev;
	struct npa_flip *flips;
	size_t n_flips, cap_flips;
	struct npa_pmu_rec *pr;
	size_t cap_pmu, cap_pr;
	uint64_t bad_magic, bad_func, overflow, bad_ffts;
	bool hwts; /* an HWTS chip's records */
	bool v6; /* a v6 chip's records (ascend_device_v6.c) */
	/* HWTS: logs of another type; where the logs' and PMU records' counters skip */
	uint64_t bad_type, log_gaps, pmu_gaps;
	int log_cnt, pmu_cnt; /* the next record's counter, -1 before the first */
	struct npa_sub_ev *sev;
	size_t n_sev, cap_sev;
	struct npa_blk *blk;
	size_t n_blk, cap_blk;
	/*
	 * v6: the device's host task of each task id (an index in @htask, the
	 * host's tasks: a v6 chip's records name no stream); duplicates, ids
	 * not there
	 */
	struct npx_hmap ids;
	const struct npa_htask *htask;
	uint64_t dup_ids, no_stream;
};

/* ---- ascend_device.c ---- */

/* a device task (an ACSQ or HWTS pair, or an FFTS+ subtask), not yet joined */
void npa_dev_add_task(struct npa_dev *d, uint32_t stream, uint32_t task, uint32_t ctx, uint32_t sqe,
		      bool sub, double start, double end, uint64_t start_cnt, uint64_t end_cnt);
/*
 * A STARS log's magic is VNPU_STARS_MAGIC, its function type an ACSQ
 * start or end: else false, the first such record of the device named in
 * a warning and every one counted (msprof skips them).
 */
bool npa_stars_magic_ok(struct npa_dev_read *r, uint16_t magic, const char *file, uint64_t off);
bool npa_acsq_func_ok(struct npa_dev_read *r, uint32_t func, const char *file, uint64_t off);
/* warn of the starts and ends that found no partner */
void npa_dev_warn_mismatched(const struct npa_dev_read *r);
int npa_dev_cmp_task_start(const void *a, const void *b);

/* ---- ascend_device_hwts.c ---- */

/* raw-file record callbacks of hwts and aicore (npa_raw_read()'s) */
int npa_hwts_on_log(void *arg, const void *rec, const char *file, uint64_t off);
int npa_hwts_on_pmu(void *arg, const void *rec, const char *file, uint64_t off);
/* the logs paired into @r->d's tasks */
int npa_hwts_pair(struct npa_dev_read *r);
/* whether op_summary's row of @t takes the next AI Core PMU record of its key */
bool npa_hwts_row_takes_pmu(const struct npa_host *h, const struct npa_task *t);

/* ---- ascend_device_v6.c ---- */

/* the task id -> stream table of @r's device from @h (before any record is read) */
int npa_v6_ids_build(struct npa_dev_read *r, const struct npa_host *h);
/* raw-file record callbacks of a v6 chip's stars_soc and ffts_profile */
int npa_v6_on_log(void *arg, const void *rec, const char *file, uint64_t off);
int npa_v6_on_pmu(void *arg, const void *rec, const char *file, uint64_t off);
/* give each mix op's main PMU record the other core type's (after reading) */
int npa_v6_pair_mix(struct npa_dev_read *r);
/* warn of the records whose id no host task has */
void npa_v6_warn(const struct npa_dev_read *r);

#endif /* NPA_DEVICE_H */
