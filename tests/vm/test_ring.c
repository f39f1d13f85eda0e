// SPDX-License-Identifier: GPL-2.0
/*
 * The profiling rings: sessions (start, stop, -EBUSY, owner close), the
 * mapping's protections, each channel's records whole and in order (task
 * logs in pairs, their counter without a gap) for every level and metric
 * group (FIXTURE_VARIANT), level gating, loss accounting per channel with
 * a stalled consumer, hostile consumer positions, poll.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"

/* ---- every level x metric group ---- */

FIXTURE(levels)
{
	struct ring r;
};

FIXTURE_VARIANT(levels)
{
	__u32 level;
	int group; /* -1: default */
	int expect_group;
};

#define LEVEL_GROUP(name, lvl, grp, exp)                         \
	FIXTURE_VARIANT_ADD(levels, name)                        \
	{                                                        \
		.level = lvl, .group = grp, .expect_group = exp, \
	}

LEVEL_GROUP(l0, VNPU_PROF_L0, -1, VNPU_METRIC_NONE);
LEVEL_GROUP(l1_default, VNPU_PROF_L1, -1, VNPU_METRIC_PIPE_UTILIZATION);
LEVEL_GROUP(l1_arith, VNPU_PROF_L1, VNPU_METRIC_ARITHMETIC_UTILIZATION,
	    VNPU_METRIC_ARITHMETIC_UTILIZATION);
LEVEL_GROUP(l1_pipe, VNPU_PROF_L1, VNPU_METRIC_PIPE_UTILIZATION, VNPU_METRIC_PIPE_UTILIZATION);
LEVEL_GROUP(l1_memory, VNPU_PROF_L1, VNPU_METRIC_MEMORY, VNPU_METRIC_MEMORY);
LEVEL_GROUP(l1_memory_l0, VNPU_PROF_L1, VNPU_METRIC_MEMORY_L0, VNPU_METRIC_MEMORY_L0);
LEVEL_GROUP(l1_memory_ub, VNPU_PROF_L1, VNPU_METRIC_MEMORY_UB, VNPU_METRIC_MEMORY_UB);
LEVEL_GROUP(l1_conflict, VNPU_PROF_L1, VNPU_METRIC_RESOURCE_CONFLICT_RATIO,
	    VNPU_METRIC_RESOURCE_CONFLICT_RATIO);
LEVEL_GROUP(l1_l2cache, VNPU_PROF_L1, VNPU_METRIC_L2_CACHE, VNPU_METRIC_L2_CACHE);
LEVEL_GROUP(l1_memory_access, VNPU_PROF_L1, VNPU_METRIC_MEMORY_ACCESS, VNPU_METRIC_MEMORY_ACCESS);
LEVEL_GROUP(l2_default, VNPU_PROF_L2, -1, VNPU_METRIC_PIPE_UTILIZATION);
LEVEL_GROUP(l2_l2cache, VNPU_PROF_L2, VNPU_METRIC_L2_CACHE, VNPU_METRIC_L2_CACHE);

FIXTURE_SETUP(levels)
{
	memset(&self->r, 0, sizeof(self->r));
	self->r.fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(self->r.fd, 0);
	ASSERT_EQ(0,
		  vnpu_prof_start(self->r.fd, variant->level, variant->group, 64, 0, &self->r.ps));
	ASSERT_EQ(0, ring_map(&self->r));
}

FIXTURE_TEARDOWN(levels)
{
	ring_unmap(&self->r);
	close(self->r.fd);
}

/* The control page describes the session and its channels. */
TEST_F(levels, header)
{
	static const struct {
		__u32 rec_size, pages;
	} chans[VNPU_CH_COUNT] = {
		[VNPU_CH_ACSQ] = { 64, 64 },
		[VNPU_CH_PMU] = { 128, 64 },
		[VNPU_CH_TS_TRACK] = { 40, 1 },
		[VNPU_CH_AICPU] = { sizeof(struct vnpu_aicpu_node), 8 },
	};
	const struct vnpu_ring_ctrl *c = self->r.ctrl;
	__u64 offset = 2 * PAGE;

	EXPECT_EQ(VNPU_RING_MAGIC, c->magic);
	EXPECT_EQ(VNPU_RING_VERSION, c->version);
	EXPECT_EQ(2, c->compat_version);
	EXPECT_EQ(sizeof(*c), c->hdr_size);
	EXPECT_EQ(PAGE, c->cons_offset);
	EXPECT_EQ(VNPU_CH_COUNT, c->n_channels);
	EXPECT_EQ(VNPU_RING_CHAN_OFFSET, c->chan_offset);
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		const struct vnpu_ring_chan *d = ring_chan(&self->r, ch);

		EXPECT_EQ(ch, d->type);
		EXPECT_EQ(chans[ch].rec_size, d->rec_size) TH_LOG("channel %d", ch);
		EXPECT_EQ(chans[ch].pages * PAGE, d->data_size) TH_LOG("channel %d", ch);
		EXPECT_EQ(offset, d->data_offset) TH_LOG("channel %d", ch);
		offset += 2 * d->data_size;
	}
	EXPECT_EQ(offset, self->r.ps.mmap_size);
	EXPECT_EQ(variant->level, c->level);
	EXPECT_EQ(variant->expect_group, c->metric_group);
	EXPECT_EQ(variant->expect_group, self->r.ps.metric_group);
	EXPECT_EQ(self->r.ps.session_id, c->session_id);
	EXPECT_EQ((2 + 2 * (64 + 64 + 1 + 8)) * PAGE, self->r.ps.mmap_size);
	EXPECT_NE(0, c->sys_cnt_freq_khz);
	EXPECT_NE(0, c->aic_freq_khz);
	EXPECT_EQ(0, c->stopped);
	if (variant->level == VNPU_PROF_L0) {
		EXPECT_EQ(0, c->n_events);
	} else {
		EXPECT_GE(c->n_events, 1);
		EXPECT_LE(c->n_events, 8);
		for (__u32 i = 0; i < c->n_events; i++)
			EXPECT_EQ(self->r.ps.aic_events[i], c->aic_events[i]);
	}
	/* the PipeUtilization events of the reference, A2/A3 AIC override */
	if (variant->expect_group == VNPU_METRIC_PIPE_UTILIZATION) {
		static const __u32 aic[8] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };
		static const __u32 aiv[8] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 };

		for (int i = 0; i < 8; i++) {
			EXPECT_EQ(aic[i], c->aic_events[i]);
			EXPECT_EQ(aiv[i], c->aiv_events[i]);
		}
	}
}

/* sum of the channels' producer positions (PROF_STATS bytes) */
static __u64 ring_bytes(const struct ring *r)
{
	__u64 n = 0;

	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		n += ring_prod(r, ch);
	return n;
}

/* sum of the reader's consumer positions */
static __u64 ring_consumed(const struct ring *r)
{
	__u64 n = 0;

	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		n += *ring_cons(r, ch);
	return n;
}

/*
 * Each channel's records whole and in order, the level's channels and no
 * others: task logs at every level, PMU records from L1 on (AI Core and
 * Vector Core tasks, not AI CPU ones), AI CPU records at L2.
 */
TEST_F(levels, records_and_gating)
{
	struct ring *r = &self->r;
	struct vnpu_prof_stats st;

	ASSERT_EQ(0, run_tasks(r->fd, 300, VNPU_TASK_AI_CORE));
	ASSERT_EQ(0, run_tasks(r->fd, 10, VNPU_TASK_AI_CPU));
	ring_drain(r);
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	ring_drain(r);
	EXPECT_EQ(0, r->bad) TH_LOG("inconsistent record at test line %d", r->bad);
	/* a one-page TS_TRACK may drop flips of a device past 3M task ids, not the others */
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		if (ch != VNPU_CH_TS_TRACK)
			EXPECT_EQ(0, ring_chan(r, ch)->lost) TH_LOG("channel %d", ch);
		EXPECT_EQ(ring_chan(r, ch)->produced, r->per_chan[ch] + ring_chan(r, ch)->lost);
	}
	EXPECT_EQ(0, r->gaps);
	EXPECT_EQ(1, r->ctrl->stopped);

	EXPECT_EQ(2 * 310, r->per_chan[VNPU_CH_ACSQ]);
	EXPECT_EQ(310, r->tasks);
	if (variant->level == VNPU_PROF_L0) {
		EXPECT_EQ(0, r->per_chan[VNPU_CH_PMU]);
	} else {
		EXPECT_EQ(300, r->per_chan[VNPU_CH_PMU]);
		EXPECT_GT(r->pmu_nonzero, 0);
	}
	EXPECT_EQ(variant->level == VNPU_PROF_L2 ? 10 : 0, r->per_chan[VNPU_CH_AICPU]);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
	/* the flips of TS_TRACK too: a stream's task ids may wrap in the suite */
	EXPECT_EQ(r->records + st.lost, st.produced);
	EXPECT_EQ(r->records, st.written);
	EXPECT_EQ(ring_chan(r, VNPU_CH_TS_TRACK)->lost, st.lost);
	EXPECT_EQ(0, st.active);
	EXPECT_EQ(ring_bytes(r), st.bytes);
}

/* ---- single-variant ring tests ---- */

FIXTURE(ring)
{
	struct ring r;
};

FIXTURE_SETUP(ring)
{
	memset(&self->r, 0, sizeof(self->r));
	self->r.fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(self->r.fd, 0);
}

FIXTURE_TEARDOWN(ring)
{
	if (self->r.base)
		ring_unmap(&self->r);
	close(self->r.fd);
}

static void *reader(void *arg)
{
	struct ring *r = arg;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };

	for (;;) {
		int n = poll(&pfd, 1, 10000);

		ring_drain(r);
		if (n <= 0 || (pfd.revents & POLLHUP)) {
			ring_drain(r);
			return NULL;
		}
	}
}

/* produced == consumed + lost in every channel (the reader drained them all) */
static void expect_exact(struct __test_metadata *_metadata, const struct ring *r)
{
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		const struct vnpu_ring_chan *d = ring_chan(r, ch);

		EXPECT_EQ(d->produced, r->per_chan[ch] + d->lost) TH_LOG("channel %d", ch);
	}
}

/* 100k tasks at L1 read concurrently by a polling thread: nothing lost. */
TEST_F_TIMEOUT(ring, concurrent_100k, 600)
{
	struct ring *r = &self->r;
	struct vnpu_prof_stats st;
	pthread_t th;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L1, -1, 4096, 64 * 1024, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	ASSERT_EQ(0, pthread_create(&th, NULL, reader, r));
	int n = (int)vnpu_scaled(100000);

	ASSERT_EQ(0, run_tasks(r->fd, n, VNPU_TASK_AI_CORE));
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	pthread_join(th, NULL);
	EXPECT_EQ(0, r->bad) TH_LOG("inconsistent record at test line %d", r->bad);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
	EXPECT_EQ(0, st.lost);
	EXPECT_EQ(st.produced, r->records);
	EXPECT_EQ(2 * n, r->per_chan[VNPU_CH_ACSQ]);
	EXPECT_EQ(n, r->per_chan[VNPU_CH_PMU]);
	EXPECT_EQ(n, r->tasks);
	EXPECT_EQ(0, r->gaps);
}

/*
 * With nobody reading, one-page channels overflow: each counts its loss,
 * produced == consumed + lost, a task's two logs are lost together, and
 * the counter of the first log after the loss says how many went.
 */
TEST_F(ring, overflow_accounting)
{
	struct ring *r = &self->r;
	const struct vnpu_ring_chan *acsq;
	struct vnpu_prof_stats st;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L1, -1, 1, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	acsq = ring_chan(r, VNPU_CH_ACSQ);
	/* 201: the logs lost, 338, are not a multiple of the counter's 16 */
	ASSERT_EQ(0, run_tasks(r->fd, 201, VNPU_TASK_AI_CORE));
	ring_drain(r);
	/* a page of 64-byte logs holds 32 tasks: the rest of the 201 went */
	EXPECT_EQ(64, r->per_chan[VNPU_CH_ACSQ]);
	EXPECT_EQ(2 * 201 - 64, acsq->lost);
	/* room again: these are read, after a gap of the counter */
	ASSERT_EQ(0, run_tasks(r->fd, 2, VNPU_TASK_AI_CORE));
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	ring_drain(r);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
	EXPECT_EQ(0, r->bad) TH_LOG("inconsistent record at test line %d", r->bad);
	EXPECT_EQ(2 * 203, acsq->produced);
	EXPECT_EQ(0, acsq->lost % 2) TH_LOG("a task's logs are lost together");
	EXPECT_EQ(acsq->lost % 16, r->gaps % 16);
	EXPECT_NE(0, r->gaps % 16);
	EXPECT_EQ(32 + 2, r->tasks);
	expect_exact(_metadata, r);
	EXPECT_GT(st.lost, 0);
	EXPECT_EQ(st.produced, r->records + st.lost);
	EXPECT_EQ(st.lost, ring_lost(r));
	EXPECT_EQ(st.lost, r->ctrl->lost);
}

/* Records lost last, with nothing after them, are counted once the session stops. */
TEST_F(ring, loss_counted_at_stop)
{
	struct ring *r = &self->r;
	struct vnpu_prof_stats st;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L1, -1, 1, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	ASSERT_EQ(0, run_tasks(r->fd, 100, VNPU_TASK_AI_CORE));
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	ring_drain(r);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
	EXPECT_EQ(0, r->bad);
	EXPECT_EQ(2 * 100, ring_chan(r, VNPU_CH_ACSQ)->produced);
	EXPECT_EQ(100, ring_chan(r, VNPU_CH_PMU)->produced);
	EXPECT_GT(st.lost, 0);
	EXPECT_EQ(st.produced, r->records + st.lost);
	expect_exact(_metadata, r);
}

/* a garbage consumer position into channel @ch */
static void set_cons(struct ring *r, int ch, __u64 v)
{
	__atomic_store_n(ring_cons(r, ch), v, __ATOMIC_RELEASE);
}

/* From here on the reader reads from each producer position, as a new one. */
static void take_over(struct ring *r)
{
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		set_cons(r, ch, ring_prod(r, ch));
		r->per_chan[ch] = 0;
	}
	r->records = r->tasks = r->gaps = 0;
	r->next_cnt = -1;
	r->open = 0;
}

/* Consumer positions behind, far ahead and random: no oops, no corruption. */
TEST_F(ring, hostile_consumer_positions)
{
	struct ring *r = &self->r;
	__u64 vals[] = { 0, 1, 7, ~0ull, 1ull << 63, 0x12345678ull, 4096 * 3 + 5 };
	struct vnpu_prof_stats st, st2;
	__u64 data = 0;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L1, -1, 4, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
		data += ring_chan(r, ch)->data_size;
	srand(42);
	for (int round = 0; round < 40; round++) {
		for (int ch = 0; ch < VNPU_CH_COUNT; ch++)
			set_cons(r, ch,
				 round < 7 ? vals[round] + ch : ((__u64)rand() << 32) | rand());
		ASSERT_EQ(0, run_tasks(r->fd, 20, VNPU_TASK_AI_CORE));
		ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
		/* the kernel never takes a position ahead of the producer */
		EXPECT_LE(st.consumed_pos, st.bytes);
		EXPECT_LE(st.bytes - st.consumed_pos, data);
		EXPECT_EQ(st.produced, st.written + st.lost);
	}
	/* a well-behaved consumer afterwards: it reads every later record */
	take_over(r);
	ASSERT_EQ(0, run_tasks(r->fd, 10, VNPU_TASK_AI_CORE));
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	ring_drain(r);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st2));
	EXPECT_EQ(0, r->bad) TH_LOG("inconsistent record at test line %d", r->bad);
	EXPECT_EQ(st2.lost, st.lost);
	EXPECT_EQ(10, r->tasks);
	EXPECT_EQ(st2.produced - st.produced, r->records);
	EXPECT_EQ(st2.bytes, ring_consumed(r));
}

struct vandal {
	struct ring *r;
	volatile int stop;
	unsigned long writes;
};

/* Write random consumer positions as fast as it can until told to stop. */
static void *vandal_thread(void *arg)
{
	struct vandal *v = arg;
	unsigned int seed = 1234;

	while (!v->stop) {
		__u64 x = ((__u64)rand_r(&seed) << 32) | rand_r(&seed);
		int ch = (int)(x >> 60) % VNPU_CH_COUNT;
		__u64 prod = ring_prod(v->r, ch);

		switch (x % 4) {
		case 0: /* anywhere */
			break;
		case 1: /* plausible: between 0 and the producer */
			x = prod ? x % (prod + 1) : 0;
			break;
		case 2: /* just ahead */
			x = prod + x % 64;
			break;
		default: /* backwards by a little */
			x = prod - x % 4096;
		}
		set_cons(v->r, ch, x);
		v->writes++;
	}
	return NULL;
}

/*
 * A consumer writing random positions continuously while the producer runs
 * at full rate: the kernel survives, its accounting stays consistent, and
 * once a well-behaved consumer takes over (from each producer position, a
 * record boundary) it reads every later record, in order, none lost.
 */
TEST_F_TIMEOUT(ring, hostile_consumer_concurrent, 1200)
{
	struct ring *r = &self->r;
	struct vandal v = { .r = r };
	struct vnpu_prof_stats st, st2;
	int n = (int)vnpu_stress_count(20000, 1000000);
	pthread_t th;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L2, -1, 16, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	ASSERT_EQ(0, pthread_create(&th, NULL, vandal_thread, &v));
	ASSERT_EQ(0, run_tasks(r->fd, n, VNPU_TASK_AI_CORE));
	v.stop = 1;
	pthread_join(th, NULL);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st));
	EXPECT_EQ(1, st.active);
	EXPECT_LE(st.consumed_pos, st.bytes);
	/* L2 + AI Core: two logs and a PMU record per task */
	EXPECT_GE(st.produced, 3ull * n);
	EXPECT_LE(st.lost, st.produced);
	EXPECT_EQ(st.produced, st.written + st.lost);

	take_over(r);
	for (int i = 0; i < 50; i++) {
		/* a few tasks at a time: they fit in the ring, nothing is lost */
		ASSERT_EQ(0, run_tasks(r->fd, 8, VNPU_TASK_AI_CORE));
		ring_drain(r);
	}
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	ring_drain(r);
	ASSERT_EQ(0, vnpu_prof_stats(r->fd, &st2));
	EXPECT_EQ(0, r->bad) TH_LOG("inconsistent record at test line %d", r->bad);
	EXPECT_EQ(st2.lost, st.lost);
	EXPECT_EQ(st2.produced - st.produced, r->records);
	EXPECT_EQ(400, r->tasks);
	EXPECT_EQ(0, r->gaps);
	EXPECT_EQ(st2.bytes, ring_consumed(r));
	vnpu_figure("ring",
		    "hostile_writes=%lu tasks=%d produced=%llu consumed_after=%llu lost=%llu",
		    v.writes, n, (unsigned long long)st2.produced, (unsigned long long)r->records,
		    (unsigned long long)st2.lost);
}

/* Only the consumer page can be writable; nothing beyond the ring maps. */
TEST_F(ring, mapping_protections)
{
	struct ring *r = &self->r;
	void *p;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L0, -1, 2, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	/* writable data, control page or whole ring */
	EXPECT_EQ(MAP_FAILED,
		  mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 2 * PAGE));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0));
	/* read-only mappings cannot be made writable */
	EXPECT_EQ(-1, mprotect(r->base, r->size, PROT_READ | PROT_WRITE));
	EXPECT_EQ(-1, mprotect((char *)r->base + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	/* nor grown */
	p = mremap(r->base, r->size, r->size + PAGE, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, p);
	/* beyond the ring */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, r->fd, r->size));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, r->size + PAGE, PROT_READ, MAP_SHARED, r->fd, 0));
	/* each channel's data pages are mapped twice: the same bytes */
	ASSERT_EQ(0, run_tasks(r->fd, 5, VNPU_TASK_AI_CORE));
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		const struct vnpu_ring_chan *d = ring_chan(r, ch);
		const char *data = (const char *)r->base + d->data_offset;

		EXPECT_EQ(0, memcmp(data, data + d->data_size, d->data_size))
		TH_LOG("channel %d", ch);
	}
	EXPECT_LT(0, ring_prod(r, VNPU_CH_ACSQ));
	EXPECT_EQ(0, vnpu_prof_stop(r->fd));
}

TEST_F(ring, second_session_is_busy)
{
	struct vnpu_prof_start ps;
	int other = vnpu_open_dev(0, O_RDWR);

	ASSERT_GE(other, 0);
	ASSERT_EQ(0, vnpu_prof_start(self->r.fd, VNPU_PROF_L0, -1, 1, 0, &ps));
	EXPECT_EQ(-EBUSY, vnpu_prof_start(other, VNPU_PROF_L0, -1, 1, 0, &ps));
	EXPECT_EQ(-EBUSY, vnpu_prof_start(self->r.fd, VNPU_PROF_L1, -1, 1, 0, &ps));
	/* only the owner stops it */
	EXPECT_EQ(-EPERM, vnpu_prof_stop(other));
	EXPECT_EQ(0, vnpu_prof_stop(self->r.fd));
	EXPECT_EQ(-ENOENT, vnpu_prof_stop(self->r.fd));
	/* now the other can */
	EXPECT_EQ(0, vnpu_prof_start(other, VNPU_PROF_L0, -1, 1, 0, &ps));
	close(other);
	/* closing the owner mid-stream ended it */
	EXPECT_EQ(0, vnpu_prof_start(self->r.fd, VNPU_PROF_L0, -1, 1, 0, &ps));
	EXPECT_EQ(0, vnpu_prof_stop(self->r.fd));
}

TEST_F(ring, owner_close_mid_stream)
{
	struct vnpu_prof_start ps;
	int fd2;

	for (int i = 0; i < 5; i++) {
		fd2 = vnpu_open_dev(0, O_RDWR);
		ASSERT_GE(fd2, 0);
		ASSERT_EQ(0, vnpu_prof_start(fd2, VNPU_PROF_L2, -1, 1, 0, &ps));
		ASSERT_EQ(0, run_tasks(fd2, 50, VNPU_TASK_AI_CORE));
		close(fd2);
	}
	ASSERT_EQ(0, vnpu_prof_start(self->r.fd, VNPU_PROF_L1, -1, 1, 0, &ps));
	ASSERT_EQ(0, vnpu_prof_stop(self->r.fd));
}

/*
 * A mapping holds the file: closing the descriptor does not end the
 * session while the ring is mapped; unmapping does.
 */
TEST_F(ring, mapping_keeps_the_session)
{
	struct ring *r = &self->r;
	struct vnpu_prof_start ps;

	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L0, -1, 1, 0, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	ASSERT_EQ(0, run_tasks(r->fd, 3, VNPU_TASK_AI_CORE));
	close(r->fd);
	r->fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(r->fd, 0);
	EXPECT_EQ(VNPU_RING_MAGIC, r->ctrl->magic);
	EXPECT_EQ(0, r->ctrl->stopped);
	EXPECT_EQ(-EBUSY, vnpu_prof_start(r->fd, VNPU_PROF_L0, -1, 1, 0, &ps));
	/* still recording tasks from other files */
	ASSERT_EQ(0, run_tasks(r->fd, 2, VNPU_TASK_AI_CORE));
	ring_drain(r);
	EXPECT_EQ(10, r->per_chan[VNPU_CH_ACSQ]);
	EXPECT_EQ(5, r->tasks);
	EXPECT_EQ(0, r->bad);
	ring_unmap(r);
	EXPECT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L0, -1, 1, 0, &ps));
	EXPECT_EQ(0, vnpu_prof_stop(r->fd));
}

/* poll: not readable below the watermark, readable at it, HUP at stop. */
TEST_F(ring, poll_watermark)
{
	struct ring *r = &self->r;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	struct vnpu_prof_start ps;

	/* no session: an error */
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLERR);

	/* wake at 160 bytes unread in a channel: two tasks' 64-byte logs */
	ASSERT_EQ(0, vnpu_prof_start(r->fd, VNPU_PROF_L0, -1, 4, 160, &r->ps));
	ASSERT_EQ(0, ring_map(r));
	ps = r->ps;
	(void)ps;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, run_tasks(r->fd, 1, VNPU_TASK_AI_CORE));
	/* a new stream's flips (a device past 65536 task ids) are not what this counts */
	ring_drain_chan(r, VNPU_CH_TS_TRACK);
	EXPECT_EQ(0, poll(&pfd, 1, 0)) TH_LOG("128 bytes < 160");
	ASSERT_EQ(0, run_tasks(r->fd, 1, VNPU_TASK_AI_CORE));
	ring_drain_chan(r, VNPU_CH_TS_TRACK);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLIN);
	ring_drain(r);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, vnpu_prof_stop(r->fd));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLHUP);
}

/* Bad session parameters. */
TEST_F(ring, start_validation)
{
	struct vnpu_prof_start ps;
	int fd = self->r.fd;

	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_LEVEL_COUNT, -1, 1, 0, &ps));
	EXPECT_EQ(-EINVAL,
		  vnpu_prof_start(fd, VNPU_PROF_L0, VNPU_METRIC_PIPE_UTILIZATION, 1, 0, &ps))
	TH_LOG("a metric group at L0");
	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L1, VNPU_METRIC_COUNT, 1, 0, &ps));
	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 3, 0, &ps));
	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L1, -1, VNPU_RING_MAX_PAGES * 2, 0, &ps));
	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1, 4, &ps));
	EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1, PAGE + 8, &ps));
	/* PipeExecuteUtilization: 200I/500 A2 only */
	EXPECT_EQ(-EOPNOTSUPP, vnpu_prof_start(fd, VNPU_PROF_L1,
					       VNPU_METRIC_PIPE_EXECUTE_UTILIZATION, 1, 0, &ps));

	memset(&ps, 0, sizeof(ps));
	ps.size = sizeof(ps);
	ps.flags = VNPU_PROF_F_CHANNELS | 1u << 7;
	EXPECT_EQ(-1, ioctl(fd, VNPU_IOC_PROF_START, &ps));
	EXPECT_EQ(EINVAL, errno);
	/* the single ring of vnpu records is gone: channels must be asked for */
	memset(&ps, 0, sizeof(ps));
	ps.size = sizeof(ps);
	EXPECT_EQ(-1, ioctl(fd, VNPU_IOC_PROF_START, &ps));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, VNPU_IOC_PROF_START, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* nothing was started by any of these */
	EXPECT_EQ(-ENOENT, vnpu_prof_stop(fd));
	/* no mapping without a session */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(ENODEV, errno);

	/* outputs (issue 16 item 11) are ignored on input: this one starts */
	memset(&ps, 0, sizeof(ps));
	ps.size = sizeof(ps);
	ps.flags = VNPU_PROF_F_CHANNELS;
	ps.mmap_size = 1;
	ps.session_id = 7;
	ps.n_events = 9;
	ps.aic_events[3] = 0x1234;
	EXPECT_EQ(0, ioctl(fd, VNPU_IOC_PROF_START, &ps)) TH_LOG("%s", strerror(errno));
	EXPECT_NE(7, ps.session_id);
	EXPECT_EQ(0, vnpu_prof_stop(fd));
}

TEST_HARNESS_MAIN
