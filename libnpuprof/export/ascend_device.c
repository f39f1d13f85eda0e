// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: a device_N folder of the real layout, and its join
 * with the host tasks (docs/msprof-parser.md sections 1.9-1.12, 3.3, 12):
 *
 *  - ACSQ logs (stars_soc) pair into tasks per (task id, stream): an end
 *    belongs to the earliest start before it, unless the next start comes
 *    first (then that start lost its end); on the HWTS chips, HWTS logs
 *    (hwts) pair in file order: an end takes the last start of its
 *    (stream, task) before it, or one at tick -1;
 *  - ts_track flips give each stream's tasks their batch;
 *  - context PMU records (ffts_profile) are the tasks' counters, by
 *    (stream, task, batch); the HWTS chips' AI Core PMU records (aicore)
 *    have no time, so no batch: op_summary's rows take a (stream, task)'s
 *    records in order, AI CPU rows none;
 *  - a device task joins the host task with the same (stream, task,
 *    context, batch): one host task takes every device task of its key,
 *    a device task with none stays device-only, and a key with several of
 *    both is dropped with a warning, as msprof drops it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/device.h"

/* ---- a multimap of 64-bit keys to record indices (device.h) ---- */

int npa_kmap_init(struct npa_kmap *m, size_t n)
{
	m->map = (struct npx_hmap)NPX_HMAP_INIT(npx_hmap_hash_u64, npx_hmap_equal_u64, NULL);
	m->next = malloc((n ? n : 1) * sizeof(*m->next));
	if (!m->next || npx_hmap_reserve(&m->map, n))
		return -ENOMEM;
	return 0;
}

void npa_kmap_add(struct npa_kmap *m, uint64_t key, int64_t v, int64_t *tail)
{
	bool added;
	uintptr_t *head = npx_hmap_slot(&m->map, key, &added);

	m->next[v] = -1;
	if (added)
		*head = (uintptr_t)v;
	else
		m->next[tail[*head]] = v;
	tail[*head] = v;
}

int64_t npa_kmap_get(const struct npa_kmap *m, uint64_t key)
{
	const uintptr_t *head = npx_hmap_find(&m->map, key);

	return head ? (int64_t)*head : -1;
}

int64_t npa_kmap_pop(struct npa_kmap *m, uint64_t key)
{
	uintptr_t *head = npx_hmap_find(&m->map, key);
	int64_t v;

	if (!head || (int64_t)*head < 0)
		return -1;
	v = (int64_t)*head;
	*head = (uintptr_t)m->next[v];
	return v;
}

void npa_kmap_free(struct npa_kmap *m)
{
	npx_hmap_free(&m->map);
	free(m->next);
}

/*
 * A task's key: a 16-bit id and its batch, or a v6 chip's 32-bit id (its
 * batch is 0), in the same 32 bits.
 */
static uint64_t task_key(uint32_t stream, uint32_t task, uint32_t ctx, uint32_t batch)
{
	uint64_t c = ctx == NPA_NO_CTX ? 0xffff : ctx & 0x7fff;
	uint32_t id = task + ((batch & 0xffff) << 16);

	return (uint64_t)(stream & 0xffff) << 48 | (uint64_t)id << 16 | c;
}

/* ---- reading ---- */

/* msprof's StarsCommon stream/task re-encoding of bits 12 and 13 */
void npa_stars_ids(uint32_t raw_stream, uint32_t raw_task, uint32_t *stream, uint32_t *task)
{
	*stream = raw_stream;
	*task = raw_task;
	if (raw_stream & 0x1000) {
		*task = (raw_task & 0x1fff) | (raw_stream & 0xe000);
		*stream = raw_stream % 2048;
	} else if (raw_stream & 0x2000) {
		*task = (raw_stream & 0xfff) | (raw_task & 0xf000);
		*stream = (raw_task & 0xfff) % 2048;
	} else {
		*stream = raw_stream % 2048;
	}
}

/* an FFTS+ subtask log (FftsPlusLogDecoder) */
static int on_ffts_log(struct npa_dev_read *r, const void *rec)
{
	struct vnpu_ffts_log l;
	struct npa_sub_ev *e;

	memcpy(&l, rec, sizeof(l));
	if (npa_grow((void **)&r->sev, &r->cap_sev, r->n_sev, sizeof(*r->sev), 256))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	e = &r->sev[r->n_sev];
	npa_stars_ids(l.stream_id, l.task_id, &e->stream, &e->task);
	e->ctx = l.subtask_id;
	e->thread = l.thread_id;
	e->type = l.subtask_type & 0xff;
	e->end = VNPU_ACSQ_FUNC(l.word0) == VNPU_FUNC_FFTS_LOG_END;
	e->ns = npa_syscnt_ns(&r->d->cfg, l.syscnt);
	e->cnt = l.syscnt;
	e->seq = r->n_sev++;
	return 0;
}

bool npa_stars_magic_ok(struct npa_dev_read *r, uint16_t magic, const char *file, uint64_t off)
{
	if (magic == VNPU_STARS_MAGIC)
		return true;
	if (!r->bad_magic++)
		npa_warn(r->w,
			 "%s: offset %llu: magic %#x, not %#x: record skipped (and every other"
			 " such record of the device)",
			 file, (unsigned long long)off, magic, VNPU_STARS_MAGIC);
	return false;
}

bool npa_acsq_func_ok(struct npa_dev_read *r, uint32_t func, const char *file, uint64_t off)
{
	if (func == VNPU_FUNC_ACSQ_START || func == VNPU_FUNC_ACSQ_END)
		return true;
	if (!r->bad_func++)
		npa_warn(r->w, "%s: offset %llu: function type %#x is not an ACSQ log: skipped",
			 file, (unsigned long long)off, func);
	return false;
}

static int on_acsq(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct vnpu_acsq_log l;
	struct npa_acsq *e;
	uint32_t func;

	memcpy(&l, rec, sizeof(l));
	if (!npa_stars_magic_ok(r, l.magic, file, off))
		return 0;
	func = VNPU_ACSQ_FUNC(l.word0);
	if (func == VNPU_FUNC_FFTS_LOG_START || func == VNPU_FUNC_FFTS_LOG_END)
		return on_ffts_log(r, rec);
	if (!npa_acsq_func_ok(r, func, file, off))
		return 0;
	if (npa_grow((void **)&r->ev, &r->cap_ev, r->n_ev, sizeof(*r->ev), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	e = &r->ev[r->n_ev];
	npa_stars_ids(l.stream_id, l.task_id, &e->stream, &e->task);
	e->sqe = l.word0 >> 10;
	e->end = func == VNPU_FUNC_ACSQ_END;
	e->ns = npa_syscnt_ns(&r->d->cfg, l.syscnt);
	e->cnt = l.syscnt;
	e->seq = r->n_ev++;
	return 0;
}

static int on_flip(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct vnpu_ts_flip f;

	(void)file;
	(void)off;
	memcpy(&f, rec, sizeof(f));
	if (f.tag != VNPU_TS_TAG_TASK_FLIP)
		return 0;
	if (npa_grow((void **)&r->flips, &r->cap_flips, r->n_flips, sizeof(*r->flips), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	r->flips[r->n_flips++] =
		(struct npa_flip){ f.stream_id, f.task_id, npa_syscnt_ns(&r->d->cfg, f.syscnt) };
	return 0;
}

/* a block PMU record (FftsBlockPmuBean): kept for the mix op it belongs to */
static int on_block_pmu(struct npa_dev_read *r, const void *rec)
{
	struct vnpu_ffts_block_pmu p;
	uint32_t sub;
	struct npa_blk *b;

	memcpy(&p, rec, sizeof(p));
	sub = p.subtask_type & 0xff;
	/* msprof's __get_mix_type: FFTS+ and a mix subtask type, else ignored */
	if (p.ffts >> 5 != VNPU_FFTS_TYPE_FFTS_PLUS ||
	    (sub != VNPU_FFTS_SUBTASK_MIX_AIC && sub != VNPU_FFTS_SUBTASK_MIX_AIV))
		return 0;
	if (npa_grow((void **)&r->blk, &r->cap_blk, r->n_blk, sizeof(*r->blk), 1024))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	b = &r->blk[r->n_blk++];
	*b = (struct npa_blk){ .ctx = p.subtask_id, .total = p.total_cycle };
	npa_stars_ids(p.stream_id, p.task_id, &b->stream, &b->task);
	memcpy(b->pmu, p.pmu, sizeof(p.pmu));
	return 0;
}

static int on_pmu(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct npa_dev *d = r->d;
	struct vnpu_ffts_pmu p;
	struct npa_pmu_rec *pr;
	uint32_t func, type, sub;

	memcpy(&p, rec, sizeof(p));
	func = p.word0 & VNPU_FUNC_MASK;
	if (func == VNPU_FUNC_BLOCK_PMU)
		return on_block_pmu(r, rec);
	if (func != VNPU_FUNC_CONTEXT_PMU) {
		if (!r->bad_func++)
			npa_warn(r->w,
				 "%s: offset %llu: function type %#x is not a context PMU"
				 " record: skipped",
				 file, (unsigned long long)off, func);
		return 0;
	}
	if (p.subtask & VNPU_FFTS_SUBTASK_OVERFLOW) {
		/* the counters saturated: msprof drops it, the row's PMU columns are N/A */
		r->overflow++;
		return 0;
	}
	type = VNPU_FFTS_TYPE(p.ffts);
	sub = p.subtask & 0xff;
	if (type == VNPU_FFTS_TYPE_FFTS_PLUS && sub != VNPU_FFTS_SUBTASK_MIX_AIC &&
	    sub != VNPU_FFTS_SUBTASK_MIX_AIV) {
		if (!r->bad_ffts++)
			npa_warn(r->w,
				 "%s: offset %llu: an FFTS+ context of subtask type %u (not a"
				 " mix op's) is not exported yet: skipped",
				 file, (unsigned long long)off, sub);
		return 0;
	}
	if (type != VNPU_FFTS_TYPE_AIC && type != VNPU_FFTS_TYPE_AIV &&
	    type != VNPU_FFTS_TYPE_FFTS_PLUS) {
		if (!r->bad_ffts++)
			npa_warn(r->w, "%s: offset %llu: FFTS type %u is not exported yet: skipped",
				 file, (unsigned long long)off, type);
		return 0;
	}
	if (npa_grow((void **)&d->pmu, &r->cap_pmu, d->n_pmu, sizeof(*d->pmu), 4096) ||
	    npa_grow((void **)&r->pr, &r->cap_pr, d->n_pmu, sizeof(*r->pr), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	/* the whole entry: the counters past chip 5's 8 are zero */
	d->pmu[d->n_pmu] = (struct npa_pmu){ .total = p.total_cycle };
	memcpy(d->pmu[d->n_pmu].pmu, p.pmu, sizeof(p.pmu));
	d->pmu[d->n_pmu].aiv = type == VNPU_FFTS_TYPE_AIV || (type == VNPU_FFTS_TYPE_FFTS_PLUS &&
							      sub == VNPU_FFTS_SUBTASK_MIX_AIV);
	d->pmu[d->n_pmu].mix = type == VNPU_FFTS_TYPE_FFTS_PLUS;
	d->pmu[d->n_pmu].total2 = 0;
	memset(d->pmu[d->n_pmu].pmu2, 0, sizeof(d->pmu[0].pmu2));
	pr = &r->pr[d->n_pmu];
	npa_stars_ids(p.stream_id, p.task_id, &pr->stream, &pr->task);
	pr->ctx = type == VNPU_FFTS_TYPE_FFTS_PLUS ? p.subtask_id : NPA_NO_CTX;
	pr->end_ns = npa_syscnt_ns(&d->cfg, p.end_syscnt);
	pr->idx = d->n_pmu++;
	return 0;
}

/* a device task (an ACSQ or HWTS pair, or an FFTS+ subtask), not yet joined */
void npa_dev_add_task(struct npa_dev *d, uint32_t stream, uint32_t task, uint32_t ctx, uint32_t sqe,
		      bool sub, double start, double end, uint64_t start_cnt, uint64_t end_cnt)
{
	d->tasks[d->n_tasks++] = (struct npa_task){
		.stream = stream,
		.task = task,
		.ctx = ctx,
		.sqe = sqe,
		.start = start,
		.dur = end - start,
		.start_cnt = start_cnt,
		.end_cnt = end_cnt,
		.host = -1,
		.pmu = -1,
		.sub = sub,
	};
}

void npa_dev_warn_mismatched(const struct npa_dev_read *r)
{
	if (r->d->mismatched)
		npa_warn(r->w, "device_%u: %llu task starts and ends do not pair (lost records?)",
			 r->d->cfg.id, (unsigned long long)r->d->mismatched);
}

/* ---- pairing ---- */

static int cmp_acsq_time(const void *a, const void *b)
{
	const struct npa_acsq *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_acsq_key(const void *a, const void *b)
{
	const struct npa_acsq *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->end != y->end)
		return x->end ? 1 : -1;
	/* the events of one key and kind keep their time order */
	return cmp_acsq_time(a, b);
}

int npa_dev_cmp_task_start(const void *a, const void *b)
{
	const struct npa_task *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

/* msprof's LogBaseParser.get_task_time, per (task, stream) */
static int pair_tasks(struct npa_dev_read *r)
{
	struct npa_dev *d = r->d;
	size_t i, j;

	d->tasks = calloc(r->n_ev / 2 + 1, sizeof(*d->tasks));
	if (!d->tasks)
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	npx_qsort(r->ev, r->n_ev, sizeof(*r->ev), cmp_acsq_key);
	for (i = 0; i < r->n_ev; i = j) {
		size_t s, s_end, e, e_end;

		for (j = i; j < r->n_ev && r->ev[j].task == r->ev[i].task &&
			    r->ev[j].stream == r->ev[i].stream;
		     j++)
			;
		for (s = i; s < j && !r->ev[s].end; s++)
			;
		s_end = s;
		s = i;
		e = s_end;
		e_end = j;
		while (s < s_end && e < e_end) {
			if (r->ev[e].ns < r->ev[s].ns) {
				e++;
				d->mismatched++;
				continue;
			}
			if (s + 1 == s_end || r->ev[e].ns < r->ev[s + 1].ns) {
				npa_dev_add_task(d, r->ev[s].stream, r->ev[s].task, NPA_NO_CTX,
						 r->ev[s].sqe, false, r->ev[s].ns, r->ev[e].ns,
						 r->ev[s].cnt, r->ev[e].cnt);
				s++;
				e++;
			} else {
				s++;
				d->mismatched++;
			}
		}
		/* the last start left waits for an end that never came: not a task */
		if (s_end > s)
			d->mismatched += s_end - s - 1;
	}
	npx_qsort(d->tasks, d->n_tasks, sizeof(*d->tasks), npa_dev_cmp_task_start);
	npa_dev_warn_mismatched(r);
	return 0;
}

/* ---- FFTS+ subtasks ---- */

static int cmp_sub_ev(const void *a, const void *b)
{
	const struct npa_sub_ev *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->ctx != y->ctx)
		return x->ctx < y->ctx ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->end != y->end)
		return x->end ? 1 : -1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * msprof's SubTaskCalculator: per (stream, task, subtask, thread), starts
 * and ends in time order, first in first out; an end before the next
 * start is dropped, and so is a start left over. The subtasks join the
 * device's tasks, with the subtask id as their context.
 */
static int pair_subtasks(struct npa_dev_read *r)
{
	struct npa_dev *d = r->d;
	size_t i, j, lost = 0;
	struct npa_task *t;

	if (!r->n_sev)
		return 0;
	t = realloc(d->tasks, (d->n_tasks + r->n_sev / 2 + 1) * sizeof(*t));
	if (!t)
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	d->tasks = t;
	npx_qsort(r->sev, r->n_sev, sizeof(*r->sev), cmp_sub_ev);
	for (i = 0; i < r->n_sev; i = j) {
		size_t s, e, e0;

		for (j = i; j < r->n_sev && r->sev[j].stream == r->sev[i].stream &&
			    r->sev[j].task == r->sev[i].task && r->sev[j].ctx == r->sev[i].ctx &&
			    r->sev[j].thread == r->sev[i].thread;
		     j++)
			;
		for (e0 = i; e0 < j && !r->sev[e0].end; e0++)
			;
		for (s = i, e = e0; s < e0 && e < j;) {
			if (r->sev[s].ns > r->sev[e].ns) {
				e++;
				lost++;
				continue;
			}
			npa_dev_add_task(d, r->sev[s].stream, r->sev[s].task, r->sev[s].ctx,
					 r->sev[s].type, true, r->sev[s].ns, r->sev[e].ns,
					 r->sev[s].cnt, r->sev[e].cnt);
			s++;
			e++;
		}
		lost += (e0 - s) + (j - e);
	}
	npx_qsort(d->tasks, d->n_tasks, sizeof(*d->tasks), npa_dev_cmp_task_start);
	if (lost)
		npa_warn(r->w, "device_%u: %zu FFTS+ subtask starts and ends do not pair",
			 d->cfg.id, lost);
	return 0;
}

/* ---- batches ---- */

static int cmp_flip(const void *a, const void *b)
{
	const struct npa_flip *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* flips of @stream at or before @ns: the batch of a task there */
static uint32_t batch_at(const struct npa_flip *f, size_t n, uint32_t stream, double ns)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].stream < stream)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].stream == stream && f[mid].ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(lo - first);
}

/* ---- a mix op's other side: its block PMU records ---- */

struct mix_state {
	struct npa_kmap bm; /* block records by (stream, task, ctx) */
	struct npa_kmap sk; /* the mix TaskInfo rows, same key */
	int64_t *cursor; /* per key (its first block): the next block */
	size_t *done; /* blocks taken */
	size_t *pops; /* mix_block_num values taken */
};

/* the mix_block_num of TaskInfo row @hi */
static uint32_t row_size(const struct npa_host *h, int64_t hi)
{
	return h->ops[h->htask[hi].op].mix_block_num;
}

/*
 * msprof's FftsPmuCalculator._get_group_number of block @n of a key whose
 * TaskInfo rows start at @first (their mix_block_num are the group sizes)
 */
static int64_t group_number(const struct mix_state *ms, const struct npa_host *h, int64_t first,
			    size_t n)
{
	uint64_t sum = 0;
	int64_t hi, k = 0;

	for (hi = first; hi >= 0; hi = ms->sk.next[hi])
		k++;
	if (k == 1 && row_size(h, first))
		return (int64_t)(n / row_size(h, first));
	for (hi = first, k = 0; hi >= 0; hi = ms->sk.next[hi], k++) {
		sum += row_size(h, hi);
		if (n < sum)
			return k;
	}
	return k - 1;
}

/*
 * The other side of mix context @t: the next group of its key's block
 * records, groups of mix_block_num records (the key's TaskInfo rows in
 * order: msprof's get_group_size_list, block mode off), none when the
 * context's mix_block_num is 0 (_get_current_block pops a key's values
 * but the last)
 */
static void mix_blocks(struct npa_dev_read *r, const struct npa_host *h, struct mix_state *ms,
		       const struct npa_task *t)
{
	struct npa_pmu *p = &r->d->pmu[t->pmu];
	uint64_t key = task_key(t->stream, t->task, t->ctx, 0);
	int64_t head, first, b, hi, g;
	size_t k = 0, i;
	uint32_t val = 0;

	if (!ms->bm.next) /* no mix_init() */
		return;
	head = npa_kmap_get(&ms->bm, key);
	first = npa_kmap_get(&ms->sk, key);
	for (hi = first; hi >= 0; hi = ms->sk.next[hi])
		k++;
	if (head < 0 || !k)
		return;
	for (hi = first, i = 0; hi >= 0; hi = ms->sk.next[hi], i++)
		if (i == (ms->pops[head] < k ? ms->pops[head] : k - 1))
			val = row_size(h, hi);
	if (k - ms->pops[head] > 1)
		ms->pops[head]++;
	b = ms->cursor[head];
	if (!val || b < 0)
		return;
	g = group_number(ms, h, first, ms->done[head]);
	while (b >= 0 && group_number(ms, h, first, ms->done[head]) == g) {
		p->total2 += r->blk[b].total;
		for (int c = 0; c < NPA_PMU_EVENTS; c++)
			p->pmu2[c] += r->blk[b].pmu[c];
		ms->done[head]++;
		b = ms->bm.next[b];
	}
	ms->cursor[head] = b;
}

/* a mix op's TaskInfo row of device @dev: its mix_block_num sizes the block groups */
static bool mix_row(const struct npa_host *h, const struct npa_htask *ht, uint32_t dev,
		    double host_start)
{
	const struct npa_op *op = ht->op >= 0 ? &h->ops[ht->op] : NULL;

	return ht->dev == dev && ht->ctx != NPA_NO_CTX && op && op->ctx == ht->ctx &&
	       (op->task_type == CANN_GE_MIX_AIC || op->task_type == CANN_GE_MIX_AIV) &&
	       (double)ht->ts >= host_start;
}

/* the maps of mix_blocks(); nothing when the device has no block records */
static int mix_init(struct npa_dev_read *r, const struct npa_host *h, struct mix_state *ms)
{
	double host_start = r->d->cfg.host_start_count;
	size_t i, n_rows = 0, n;
	int64_t *tail;

	memset(ms, 0, sizeof(*ms));
	if (!r->n_blk)
		return 0;
	for (i = 0; i < h->n_htask; i++)
		n_rows += mix_row(h, &h->htask[i], r->d->cfg.id, host_start);
	n = r->n_blk > h->n_htask ? r->n_blk : h->n_htask;
	if (npa_kmap_init(&ms->bm, r->n_blk) || npa_kmap_init(&ms->sk, n_rows))
		return -ENOMEM;
	/* the rows' map holds host task indices: its next[] must reach them all */
	free(ms->sk.next);
	ms->sk.next = malloc((h->n_htask ? h->n_htask : 1) * sizeof(*ms->sk.next));
	tail = malloc((n ? n : 1) * sizeof(*tail));
	ms->cursor = malloc(r->n_blk * sizeof(*ms->cursor));
	ms->done = calloc(r->n_blk, sizeof(*ms->done));
	ms->pops = calloc(r->n_blk, sizeof(*ms->pops));
	if (!ms->sk.next || !tail || !ms->cursor || !ms->done || !ms->pops) {
		free(tail);
		return -ENOMEM;
	}
	for (i = 0; i < r->n_blk; i++) {
		npa_kmap_add(&ms->bm, task_key(r->blk[i].stream, r->blk[i].task, r->blk[i].ctx, 0),
			     (int64_t)i, tail);
		ms->cursor[i] = (int64_t)i;
	}
	for (i = 0; i < h->n_htask; i++)
		if (mix_row(h, &h->htask[i], r->d->cfg.id, host_start))
			npa_kmap_add(
				&ms->sk,
				task_key(h->htask[i].stream, h->htask[i].task, h->htask[i].ctx, 0),
				(int64_t)i, tail);
	free(tail);
	return 0;
}

static void mix_free(struct mix_state *ms)
{
	npa_kmap_free(&ms->bm);
	npa_kmap_free(&ms->sk);
	free(ms->cursor);
	free(ms->done);
	free(ms->pops);
}

/*
 * An ACSQ task with an FFTS+ subtask of its (stream, task, batch) is
 * shown through the subtask (task_op_viewer.py, task_time_viewer.py)
 */
static int mark_shadowed(struct npa_dev *d)
{
	struct npa_kmap sm = { 0 };
	int64_t *tail;
	size_t i, n_sub = 0;

	for (i = 0; i < d->n_tasks; i++)
		n_sub += d->tasks[i].sub;
	if (!n_sub)
		return 0;
	tail = malloc(d->n_tasks * sizeof(*tail));
	if (!tail || npa_kmap_init(&sm, d->n_tasks)) {
		free(tail);
		npa_kmap_free(&sm);
		return -ENOMEM;
	}
	for (i = 0; i < d->n_tasks; i++)
		if (d->tasks[i].sub)
			npa_kmap_add(&sm,
				     task_key(d->tasks[i].stream, d->tasks[i].task, NPA_NO_CTX,
					      d->tasks[i].batch),
				     (int64_t)i, tail);
	for (i = 0; i < d->n_tasks; i++) {
		struct npa_task *t = &d->tasks[i];

		if (!t->sub &&
		    npa_kmap_get(&sm, task_key(t->stream, t->task, NPA_NO_CTX, t->batch)) >= 0)
			t->shadowed = true;
	}
	free(tail);
	npa_kmap_free(&sm);
	return 0;
}

/* ---- the join ---- */

static int join(struct npa_dev_read *r, const struct npa_host *h)
{
	struct npa_dev *d = r->d;
	struct npa_kmap hm = { 0 }, pm = { 0 };
	struct mix_state ms = { 0 };
	int64_t *tail = NULL, *ptail = NULL, *used = NULL;
	size_t i, out = 0, dropped = 0;
	int rc = -ENOMEM;

	npx_qsort(r->flips, r->n_flips, sizeof(*r->flips), cmp_flip);
	for (i = 0; i < d->n_tasks; i++)
		d->tasks[i].batch =
			batch_at(r->flips, r->n_flips, d->tasks[i].stream, d->tasks[i].start);
	/* an HWTS chip's PMU records have no time: batch 0, and tasks look them up so */
	for (i = 0; i < d->n_pmu && !r->hwts; i++)
		r->pr[i].batch = batch_at(r->flips, r->n_flips, r->pr[i].stream, r->pr[i].end_ns);

	if (mark_shadowed(d) || mix_init(r, h, &ms))
		goto out;
	if (npa_kmap_init(&hm, h->n_htask) || npa_kmap_init(&pm, d->n_pmu))
		goto out;
	tail = malloc((h->n_htask ? h->n_htask : 1) * sizeof(*tail));
	ptail = malloc((d->n_pmu ? d->n_pmu : 1) * sizeof(*ptail));
	used = calloc(d->n_pmu ? d->n_pmu : 1, sizeof(*used));
	if (!tail || !ptail || !used)
		goto out;
	for (i = 0; i < h->n_htask; i++) {
		const struct npa_htask *t = &h->htask[i];

		if (t->dev == d->cfg.id)
			npa_kmap_add(&hm, task_key(t->stream, t->task, t->ctx, t->batch),
				     (int64_t)i, tail);
	}
	for (i = 0; i < d->n_pmu; i++)
		npa_kmap_add(&pm,
			     task_key(r->pr[i].stream, r->pr[i].task, r->pr[i].ctx, r->pr[i].batch),
			     (int64_t)i, ptail);

	for (i = 0; i < d->n_tasks; i++) {
		struct npa_task *t = &d->tasks[i];
		uint64_t key = task_key(t->stream, t->task, t->ctx, t->batch);
		int64_t hi = npa_kmap_get(&hm, key), pi;

		if (hi >= 0 && hm.next[hi] >= 0) {
			/* several host tasks of the key: msprof cannot tell them apart */
			dropped++;
			continue;
		}
		t->host = hi;
		if (r->hwts) {
			key = task_key(t->stream, t->task, t->ctx, 0);
			if (!npa_hwts_row_takes_pmu(h, t)) {
				d->tasks[out++] = *t;
				continue;
			}
		}
		/* the key's PMU records, taken in order */
		for (pi = npa_kmap_get(&pm, key); pi >= 0 && used[pi]; pi = pm.next[pi])
			;
		if (pi >= 0) {
			used[pi] = 1;
			t->pmu = (int64_t)r->pr[pi].idx;
			if (d->pmu[t->pmu].mix)
				mix_blocks(r, h, &ms, t);
		}
		d->tasks[out++] = *t;
	}
	d->n_tasks = out;
	if (dropped)
		npa_warn(r->w,
			 "device_%u: %zu device tasks share their (stream, task, batch) with more"
			 " than one host task: dropped, as msprof drops them (task ids reused"
			 " without a flip?)",
			 d->cfg.id, dropped);
	rc = 0;
out:
	if (rc)
		npx_set_error(r->err, rc, "out of memory");
	npa_kmap_free(&hm);
	npa_kmap_free(&pm);
	mix_free(&ms);
	free(tail);
	free(ptail);
	free(used);
	return rc;
}

static int read_kind(struct npa_dev_read *r, const char *data, const char *label, const char *what,
		     size_t size, bool per_file, npa_rec_fn fn)
{
	char prefix[64];
	const char *prefixes[] = { prefix, NULL };
	struct npa_slices s;
	int rc;

	snprintf(prefix, sizeof(prefix), "%s.data.%u.", what, r->d->cfg.id);
	rc = npa_slices_find(&s, data, label, prefixes, r->w, r->err);
	if (!rc)
		rc = npa_slices_read(&s, size, per_file, fn, r, r->w, r->err);
	npa_slices_free(&s);
	return rc;
}

int npa_dev_load(struct npa_dev *d, const char *prof, uint32_t id, struct npa_host *h,
		 struct npa_warn *w, struct npuprof_error *err)
{
	struct npa_dev_read r = { .d = d, .w = w, .err = err, .log_cnt = -1, .pmu_cnt = -1 };
	char dir[PATH_MAX], data[PATH_MAX + 8], label[64];
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(dir, sizeof(dir), "%s/" NPF_RAW_DEVICE_DIR, prof, id);
	rc = npa_dev_cfg_load(dir, id, &d->cfg, w, err);
	if (rc)
		return rc;
	npa_loss_load(dir, &d->loss, w);
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(label, sizeof(label), NPF_RAW_DEVICE_DIR "/" NPF_RAW_DATA_DIR, id);
	r.hwts = npf_chip_has(d->cfg.chip_id, NPF_CHIP_HWTS);
	r.v6 = npf_chip_has(d->cfg.chip_id, NPF_CHIP_V6);
	if (r.v6) {
		npa_host_v6_ids(h, id);
		rc = npa_v6_ids_build(&r, h);
	}
	if (rc)
		;
	else if (r.hwts)
		rc = read_kind(&r, data, label, NPF_RAW_HWTS, sizeof(struct vnpu_hwts_log), false,
			       npa_hwts_on_log);
	else if (r.v6)
		rc = read_kind(&r, data, label, NPF_RAW_STARS_SOC, sizeof(struct vnpu_acsq_log_v6),
			       false, npa_v6_on_log);
	else
		rc = read_kind(&r, data, label, NPF_RAW_STARS_SOC, sizeof(struct vnpu_acsq_log),
			       false, on_acsq);
	if (!rc)
		rc = read_kind(&r, data, label, NPF_RAW_TS_TRACK, sizeof(struct vnpu_ts_flip),
			       false, on_flip);
	/* msprof frames each ffts_profile slice alone, aicore as one stream */
	if (!rc && r.hwts)
		rc = read_kind(&r, data, label, NPF_RAW_AICORE, sizeof(struct vnpu_aic_pmu), false,
			       npa_hwts_on_pmu);
	else if (!rc && r.v6)
		rc = read_kind(&r, data, label, NPF_RAW_FFTS_PROFILE, sizeof(struct vnpu_pmu_v6),
			       true, npa_v6_on_pmu);
	else if (!rc)
		rc = read_kind(&r, data, label, NPF_RAW_FFTS_PROFILE, sizeof(struct vnpu_ffts_pmu),
			       true, on_pmu);
	if (!rc)
		rc = npa_aicpu_load(d, data, label, w, err);
	if (!rc && r.v6)
		rc = npa_v6_pair_mix(&r);
	if (!rc && r.hwts) {
		rc = npa_hwts_pair(&r);
	} else if (!rc) {
		npx_qsort(r.ev, r.n_ev, sizeof(*r.ev), cmp_acsq_time);
		rc = pair_tasks(&r);
		if (!rc)
			rc = pair_subtasks(&r);
	}
	if (!rc)
		rc = join(&r, h);
	/* missing, empty or unusable task records: say so, or it looks like an idle device */
	if (!rc && !d->n_tasks)
		npa_warn(w,
			 "%s: no task in the %s.data.%u.slice_* files (missing, empty or"
			 " unusable): device_%u has nothing in op_summary or task_time",
			 label, r.hwts ? NPF_RAW_HWTS : NPF_RAW_STARS_SOC, id, id);
	if (!rc && r.bad_magic > 1)
		npa_warn(w, "device_%u: %llu ACSQ records with a bad magic skipped", id,
			 (unsigned long long)r.bad_magic);
	if (!rc && r.bad_type > 1)
		npa_warn(w, "device_%u: %llu HWTS logs of other types skipped", id,
			 (unsigned long long)r.bad_type);
	if (!rc && (r.log_gaps || r.pmu_gaps))
		npa_warn(w,
			 "device_%u: by their counters, %llu HWTS logs and %llu AI Core PMU"
			 " records are missing (at least: the counters wrap at 16)",
			 id, (unsigned long long)r.log_gaps, (unsigned long long)r.pmu_gaps);
	if (!rc && r.overflow)
		npa_warn(w,
			 "device_%u: %llu PMU records with saturated counters: their tasks'"
			 " PMU columns are N/A",
			 id, (unsigned long long)r.overflow);
	if (!rc && r.v6)
		npa_v6_warn(&r);
	if (r.v6)
		npx_hmap_free(&r.ids);
	free(r.ev);
	free(r.flips);
	free(r.pr);
	free(r.sev);
	free(r.blk);
	return rc;
}

void npa_dev_free(struct npa_dev *d)
{
	free(d->tasks);
	free(d->pmu);
	free(d->aicpu);
	npa_comm_free(&d->comm);
	memset(d, 0, sizeof(*d));
}
