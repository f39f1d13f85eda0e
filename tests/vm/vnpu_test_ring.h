/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A checking ring reader for the in-VM suites: maps a session's ring as
 * docs/ring.md says, drains it following the barrier contract and checks
 * every record header (size, alignment, contiguous sequence numbers)
 * on the way. Also a small task workload to fill it.
 */
#ifndef VNPU_TEST_RING_H
#define VNPU_TEST_RING_H

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "vm/vnpu_test.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define PAGE 4096

struct ring {
	int fd;
	struct vnpu_prof_start ps;
	void *base;
	size_t size;
	struct vnpu_ring_ctrl *ctrl;
	struct vnpu_ring_cons *cons;
	const unsigned char *data;
	/* what the reader saw */
	__u64 seq;
	__u64 records; /* data records (not LOST) */
	__u64 lost; /* sum of LOST records */
	__u64 per_type[VNPU_REC_TYPE_COUNT];
	__u64 pmu_nonzero;
	int bad; /* first inconsistency, as a line number */
};

static inline int ring_map(struct ring *r)
{
	r->size = r->ps.mmap_size;
	r->base = mmap(NULL, r->size, PROT_READ, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED)
		return -errno;
	r->cons = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, PAGE);
	if (r->cons == MAP_FAILED)
		return -errno;
	r->ctrl = r->base;
	r->data = (unsigned char *)r->base + r->ctrl->data_offset;
	return 0;
}

static inline void ring_unmap(struct ring *r)
{
	munmap(r->base, r->size);
	munmap(r->cons, PAGE);
}

#define BAD(r)                               \
	do {                                 \
		if (!(r)->bad)               \
			(r)->bad = __LINE__; \
	} while (0)

/* Consume what is there; returns bytes consumed. */
static inline __u64 ring_drain(struct ring *r)
{
	__u64 prod = __atomic_load_n(&r->ctrl->producer_pos, __ATOMIC_ACQUIRE);
	__u64 cons = r->cons->consumer_pos, start = cons;

	while (cons != prod) {
		const struct vnpu_rec_hdr *h =
			(const void *)(r->data + vnpu_ring_offset(cons, r->ctrl->data_size));

		if (h->size < sizeof(*h) || h->size % 8 || h->size > prod - cons) {
			BAD(r);
			break;
		}
		if (h->seq != r->seq)
			BAD(r);
		r->seq = h->seq + 1;
		if (h->type == VNPU_REC_LOST) {
			r->lost += ((const struct vnpu_rec_lost *)h)->lost;
		} else {
			r->records++;
			if (h->type < VNPU_REC_TYPE_COUNT)
				r->per_type[h->type]++;
		}
		if (h->type == VNPU_REC_PMU) {
			const struct vnpu_rec_pmu *p = (const void *)h;

			if (p->aic_total_cycles + p->aiv_total_cycles == 0)
				BAD(r);
			for (int i = 0; i < VNPU_PMU_EVENTS; i++)
				if (p->aic_events[i] || p->aiv_events[i])
					r->pmu_nonzero++;
		}
		if (h->type == VNPU_REC_TASK_END) {
			/* every task: START before END, END with a later time */
			const struct vnpu_rec_task *t = (const void *)h;

			if (!t->task_id)
				BAD(r);
		}
		cons += h->size;
	}
	__atomic_store_n(&r->cons->consumer_pos, cons, __ATOMIC_RELEASE);
	return cons - start;
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
