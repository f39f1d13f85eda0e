/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A checking ring reader for the in-VM suites: maps a session's channels
 * as docs/ring.md says, drains each following the barrier contract and
 * checks its records on the way (whole records; task logs in start/end
 * pairs with the same task id and an end not before its start; the 4-bit
 * counter of the task logs stepping by one but where records were lost;
 * PMU records with cycles). Also a small task workload to fill them.
 */
#ifndef VNPU_TEST_RING_H
#define VNPU_TEST_RING_H

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "vm/vnpu_test.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define PAGE 4096

struct ring {
	int fd;
	struct vnpu_prof_start ps;
	void *base;
	size_t size;
	const struct vnpu_ring_ctrl *ctrl;
	void *cons; /* the consumer page */
	/* what the reader saw */
	__u64 records; /* over every channel */
	__u64 per_chan[VNPU_CH_COUNT];
	__u64 tasks; /* task log pairs (start, end) */
	__u64 pmu_nonzero; /* PMU counters that were not 0 */
	__u64 gaps; /* task logs the counter says are missing (modulo 16 per gap) */
	int next_cnt; /* the next task log's counter, -1 before the first */
	int open; /* a start log was read, its end not yet */
	__u16 open_task;
	__u64 open_syscnt;
	int bad; /* first inconsistency, as a line number */
};

static inline const struct vnpu_ring_chan *ring_chan(const struct ring *r, int ch)
{
	return (const void *)((const char *)r->base + r->ctrl->chan_offset +
			      ch * sizeof(struct vnpu_ring_chan));
}

/* channel @ch's consumer position, in the consumer page */
static inline __u64 *ring_cons(const struct ring *r, int ch)
{
	return (__u64 *)((char *)r->cons + VNPU_RING_CHAN_CONS_OFFSET(ch));
}

/* the channel's producer position, with the contract's load-acquire */
static inline __u64 ring_prod(const struct ring *r, int ch)
{
	return __atomic_load_n(&ring_chan(r, ch)->producer_pos, __ATOMIC_ACQUIRE);
}

/* lost records of every channel, as the descriptors count them */
static inline __u64 ring_lost(const struct ring *r)
{
	__u64 n = 0;

	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		n += __atomic_load_n(&ring_chan(r, ch)->lost, __ATOMIC_RELAXED);
	return n;
}

static inline int ring_map(struct ring *r)
{
	r->size = r->ps.mmap_size;
	r->next_cnt = -1;
	r->base = mmap(NULL, r->size, PROT_READ, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->cons = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, PAGE);
	if (r->cons == MAP_FAILED) {
		r->cons = NULL;
		return -errno;
	}
	r->ctrl = r->base;
	if (r->ctrl->n_channels != VNPU_CH_COUNT || r->ctrl->chan_offset != VNPU_RING_CHAN_OFFSET)
		return -EPROTO;
	return 0;
}

static inline void ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->size);
	if (r->cons)
		munmap(r->cons, PAGE);
	r->base = r->cons = NULL;
}

#define BAD(r)                               \
	do {                                 \
		if (!(r)->bad)               \
			(r)->bad = __LINE__; \
	} while (0)

/* a task log: its counter, whether it starts or ends the task (or neither: FFTS+), its id */
static inline void ring_task_log(struct ring *r, const void *rec)
{
	bool stars = r->ctrl->caps & VNPU_CAP_STARS;
	int cnt, kind; /* 0 start, 1 end, 2 another log */
	__u16 task;
	__u64 syscnt;

	if (stars) {
		const struct vnpu_acsq_log *l = rec;
		__u16 func = VNPU_ACSQ_FUNC(l->word0);

		if (l->magic != VNPU_STARS_MAGIC)
			BAD(r);
		cnt = VNPU_ACSQ_CNT(l->word0);
		kind = func == VNPU_FUNC_ACSQ_START ? 0 : func == VNPU_FUNC_ACSQ_END ? 1 : 2;
		if (kind == 2 && func != VNPU_FUNC_FFTS_LOG_START && func != VNPU_FUNC_FFTS_LOG_END)
			BAD(r);
		task = l->task_id;
		syscnt = l->syscnt;
	} else {
		const struct vnpu_hwts_log *l = rec;

		cnt = VNPU_HWTS_CNT(l->word0);
		kind = VNPU_HWTS_TYPE(l->word0);
		if (kind > 1)
			BAD(r);
		task = l->task_id;
		syscnt = l->syscnt;
	}
	if (r->next_cnt >= 0 && cnt != r->next_cnt) {
		r->gaps += (unsigned int)(cnt - r->next_cnt) & 0xf;
		/* records are lost a reservation at a time: never half a task */
		if (r->open)
			BAD(r);
	}
	r->next_cnt = (cnt + 1) & 0xf;
	if (kind == 0) {
		if (r->open)
			BAD(r);
		r->open = 1;
		r->open_task = task;
		r->open_syscnt = syscnt;
	} else if (kind == 1) {
		if (!r->open || r->open_task != task || syscnt < r->open_syscnt)
			BAD(r);
		r->open = 0;
		r->tasks++;
	}
}

static inline void ring_pmu(struct ring *r, const void *rec)
{
	const __u64 *pmu;
	__u64 cycles;

	if (r->ctrl->caps & VNPU_CAP_STARS) {
		const struct vnpu_ffts_pmu *p = rec;

		if (VNPU_ACSQ_FUNC(p->word0) == VNPU_FUNC_BLOCK_PMU)
			return;
		if (VNPU_ACSQ_FUNC(p->word0) != VNPU_FUNC_CONTEXT_PMU)
			BAD(r);
		pmu = p->pmu;
		cycles = p->total_cycle;
	} else {
		const struct vnpu_aic_pmu *p = rec;

		pmu = p->pmu;
		cycles = p->total_cycle;
	}
	if (!cycles)
		BAD(r);
	for (int i = 0; i < VNPU_PMU_COUNTERS; i++)
		r->pmu_nonzero += pmu[i] != 0;
}

/* Consume what channel @ch holds; returns the records consumed. */
static inline __u64 ring_drain_chan(struct ring *r, int ch)
{
	const struct vnpu_ring_chan *d = ring_chan(r, ch);
	const unsigned char *data = (const unsigned char *)r->base + d->data_offset;
	__u64 prod = ring_prod(r, ch), cons = *ring_cons(r, ch), n = 0;

	if (prod - cons > d->data_size || (prod - cons) % d->rec_size) {
		BAD(r);
		return 0;
	}
	for (; cons != prod; cons += d->rec_size, n++) {
		const void *rec = data + vnpu_ring_offset(cons, d->data_size);

		if (ch == VNPU_CH_ACSQ)
			ring_task_log(r, rec);
		else if (ch == VNPU_CH_PMU)
			ring_pmu(r, rec);
	}
	r->per_chan[ch] += n;
	r->records += n;
	__atomic_store_n(ring_cons(r, ch), cons, __ATOMIC_RELEASE);
	return n;
}

/* Consume what every channel holds; returns the records consumed. */
static inline __u64 ring_drain(struct ring *r)
{
	__u64 n = 0;

	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		n += ring_drain_chan(r, ch);
	return n;
}

/* Submit @n small tasks in batches on a new stream of @fd; returns 0 or -errno. */
static inline int run_tasks(int fd, int n, unsigned int task_type)
{
	static __thread struct vnpu_task t[256];
	int s = vnpu_stream_new(fd), ret;

	if (s < 0)
		return s;
	for (int i = 0; i < 256; i++) {
		__u64 dims[2] = { 64, 64 };

		/* on a vector-capable product, Adds go to the vector cores */
		unsigned int tt = task_type == VNPU_TASK_AI_CORE && i % 2 == 0
					  ? VNPU_TASK_AI_VECTOR_CORE
					  : task_type;

		vnpu_task_init(&t[i], i % 2 ? "MatMul_3" : "Add_7", i % 2 ? "MatMul" : "Add", tt, s,
			       i % 2 ? 1 << 20 : 4096, 1 << 14);
		vnpu_task_tensor(&t[i], 0, VNPU_DT_FLOAT16, 2, dims);
		vnpu_task_tensor(&t[i], 0, VNPU_DT_FLOAT16, 2, dims);
		vnpu_task_tensor(&t[i], 1, VNPU_DT_FLOAT16, 2, dims);
	}
	for (int done = 0; done < n; done += 256) {
		ret = vnpu_submit_tasks(fd, t, n - done < 256 ? n - done : 256, NULL);
		if (ret)
			return ret;
	}
	return vnpu_sync_stream(fd, s, 0, 60000, NULL);
}

#endif /* VNPU_TEST_RING_H */
