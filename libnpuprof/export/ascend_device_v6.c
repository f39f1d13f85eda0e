// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the device records of a v6 chip (15, the Atlas 350;
 * uapi/vnpu_ascend.h, docs/msprof-parser.md section 11). Its task ids are
 * 32 bits and unique on the device, and neither its ACSQ logs nor its PMU
 * records name a stream: as msprof (LogBaseParser._set_stream_id_by_host,
 * Chip6PmuCalculator._set_stream_id_by_host) each takes the stream of the
 * host's task_track record of its id, 65535 when there is none, the first
 * record's when there are several (msprof logs "Duplicate task_id"). No
 * task id wraps, so there are no flips and every batch is 0. A mix op has
 * a PMU record per core type: its main core's (flags MAIN | MIX) takes
 * the first record of the other core type of its (stream, task) that has
 * no MAIN flag. The rest of a device's reading and its join:
 * ascend_device.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/device.h"
#include "vnpu_ascend.h"

_Static_assert(sizeof(((struct npa_pmu *)0)->pmu) == sizeof(((struct vnpu_pmu_v6 *)0)->pmu),
	       "a v6 record's counters fill struct npa_pmu's");

int npa_v6_ids_build(struct npa_dev_read *r, const struct npa_host *h)
{
	r->ids = (struct npx_hmap)NPX_HMAP_INIT(npx_hmap_hash_u64, npx_hmap_equal_u64, NULL);
	r->htask = h->htask;
	if (npx_hmap_reserve(&r->ids, h->n_htask))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < h->n_htask; i++) {
		const struct npa_htask *t = &h->htask[i];
		uintptr_t *first;
		bool added;

		/* a mix op's context row repeats its task: one id */
		if (t->dev != r->d->cfg.id || t->ctx != NPA_NO_CTX)
			continue;
		first = npx_hmap_slot(&r->ids, t->task, &added);
		if (added) {
			*first = i;
			continue;
		}
		/* the host's first record of the id, by time */
		r->dup_ids++;
		if (t->ts < h->htask[*first].ts)
			*first = i;
	}
	if (r->dup_ids)
		npa_warn(r->w,
			 "device_%u: %llu host task_track records repeat a task id of the"
			 " device: their device records take the first one's stream (msprof"
			 " logs \"Duplicate task_id found\")",
			 r->d->cfg.id, (unsigned long long)r->dup_ids);
	return 0;
}

/* the stream of task @task, by its host record; 65535 (msprof's UINT16_MAX) if none */
static uint32_t v6_stream(struct npa_dev_read *r, uint32_t task)
{
	const uintptr_t *i = npx_hmap_find(&r->ids, task);

	if (i)
		return r->htask[*i].stream;
	r->no_stream++;
	return 65535;
}

int npa_v6_on_log(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct vnpu_acsq_log_v6 l;
	struct npa_acsq *e;
	uint32_t func;

	memcpy(&l, rec, sizeof(l));
	func = VNPU_ACSQ_FUNC(l.word0);
	if (!npa_stars_magic_ok(r, l.magic, file, off) || !npa_acsq_func_ok(r, func, file, off))
		return 0;
	if (npa_grow((void **)&r->ev, &r->cap_ev, r->n_ev, sizeof(*r->ev), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	e = &r->ev[r->n_ev];
	e->task = (uint32_t)l.task_hi << 16 | l.task_lo;
	e->stream = v6_stream(r, e->task);
	e->sqe = VNPU_ACSQ_SQE(l.word0);
	e->end = func == VNPU_FUNC_ACSQ_END;
	e->ns = npa_syscnt_ns(&r->d->cfg, l.syscnt);
	e->cnt = l.syscnt;
	e->seq = r->n_ev++;
	return 0;
}

/*
 * A v6 record's own time: msprof's duration_from_syscnt(end - start), us,
 * rounded to 2 places (Chip6PmuCalculator._calculate_total_time)
 */
static double v6_time_us(const struct npa_dev_cfg *c, const struct vnpu_pmu_v6 *p)
{
	int64_t d = (int64_t)(p->end_syscnt - p->start_syscnt);

	return c->hwts_hz ? npa_py_round((double)d / c->hwts_hz * 1000000, 2) : 0;
}

/* a record of a mix op's other core type, kept for its main one */
static int v6_keep_other(struct npa_dev_read *r, const struct vnpu_pmu_v6 *p, uint32_t task)
{
	struct npa_blk *b;

	if (npa_grow((void **)&r->blk, &r->cap_blk, r->n_blk, sizeof(*r->blk), 1024))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	b = &r->blk[r->n_blk++];
	*b = (struct npa_blk){ 0 };
	b->task = task;
	b->stream = v6_stream(r, task);
	b->total = p->total_cycle;
	b->time_us = v6_time_us(&r->d->cfg, p);
	memcpy(b->pmu, p->pmu, sizeof(b->pmu));
	return 0;
}

int npa_v6_on_pmu(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct npa_dev *d = r->d;
	struct vnpu_pmu_v6 p;
	struct npa_pmu_rec *pr;
	struct npa_pmu *m;
	uint32_t func, task;

	memcpy(&p, rec, sizeof(p));
	func = p.word0 & VNPU_FUNC_MASK;
	if (func == VNPU_FUNC_V6_BLOCK_PMU)
		return 0; /* block records: no column of op_summary reads them */
	if (func != VNPU_FUNC_V6_CONTEXT_PMU) {
		if (!r->bad_func++)
			npa_warn(r->w,
				 "%s: offset %llu: function type %#x is not a v6 PMU record:"
				 " skipped",
				 file, (unsigned long long)off, func);
		return 0;
	}
	/* msprof's overflow test compares a string with 1: it never drops one */
	task = (uint32_t)p.task_hi << 16 | p.task_lo;
	if (!(p.flags & VNPU_PMU_V6_MAIN))
		return v6_keep_other(r, &p, task);
	if (npa_grow((void **)&d->pmu, &r->cap_pmu, d->n_pmu, sizeof(*d->pmu), 4096) ||
	    npa_grow((void **)&r->pr, &r->cap_pr, d->n_pmu, sizeof(*r->pr), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	m = &d->pmu[d->n_pmu];
	memset(m, 0, sizeof(*m));
	m->total = p.total_cycle;
	memcpy(m->pmu, p.pmu, sizeof(m->pmu));
	m->aiv = p.core_type & VNPU_PMU_V6_AIV;
	m->time_us = v6_time_us(&d->cfg, &p);
	/* a mix op's main record until v6_pair_mix() finds the other core's */
	m->mix = p.flags & VNPU_PMU_V6_MIX;
	pr = &r->pr[d->n_pmu];
	pr->task = task;
	pr->stream = v6_stream(r, task);
	pr->ctx = NPA_NO_CTX;
	pr->batch = 0;
	pr->end_ns = npa_syscnt_ns(&d->cfg, p.end_syscnt);
	pr->idx = d->n_pmu++;
	return 0;
}

/* a v6 task's key: (stream, task) */
static uint64_t v6_key(uint32_t stream, uint32_t task)
{
	return (uint64_t)stream << 32 | task;
}

int npa_v6_pair_mix(struct npa_dev_read *r)
{
	struct npa_dev *d = r->d;
	struct npa_kmap others = { 0 };
	int64_t *tail = malloc((r->n_blk ? r->n_blk : 1) * sizeof(*tail));
	int rc = 0;

	if (!tail || npa_kmap_init(&others, r->n_blk)) {
		rc = npx_set_error(r->err, -ENOMEM, "out of memory");
		goto out;
	}
	/* msprof's get_main_slave_data: a deque per key, in file order */
	for (size_t i = 0; i < r->n_blk; i++)
		npa_kmap_add(&others, v6_key(r->blk[i].stream, r->blk[i].task), (int64_t)i, tail);
	for (size_t i = 0; i < d->n_pmu; i++) {
		struct npa_pmu *m = &d->pmu[r->pr[i].idx];
		int64_t b;

		if (!m->mix)
			continue;
		b = npa_kmap_pop(&others, v6_key(r->pr[i].stream, r->pr[i].task));
		if (b < 0) {
			/* none: msprof counts the main core type alone */
			m->mix = false;
			continue;
		}
		m->total2 = r->blk[b].total;
		m->time2_us = r->blk[b].time_us;
		memcpy(m->pmu2, r->blk[b].pmu, sizeof(m->pmu2));
	}
	/* they are not FFTS+ block records: the join must not read them so */
	r->n_blk = 0;
out:
	npa_kmap_free(&others);
	free(tail);
	return rc;
}

void npa_v6_warn(const struct npa_dev_read *r)
{
	if (r->no_stream)
		npa_warn(r->w,
			 "device_%u: %llu device records have a task id no host task_track"
			 " record has: their stream is 65535, as msprof gives them",
			 r->d->cfg.id, (unsigned long long)r->no_stream);
}
