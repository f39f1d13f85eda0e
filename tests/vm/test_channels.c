// SPDX-License-Identifier: GPL-2.0
/*
 * The channels of a session: the device's own records, one ring per
 * channel, in the formats msprof reads (uapi/vnpu_ascend.h):
 * every task's ACSQ start and end logs with the STARS magic, its stream's
 * device-wide id and the low 16 bits of its id, a counter that runs over
 * the channel; a context PMU record per AI Core / Vector task at L1 and
 * L2 with the programmed counters; a flip per stream and task id epoch;
 * and exact loss accounting per channel (produced == read + lost), a
 * task's start and end logs lost together or not at all. A device without
 * STARS (910A, 310P) writes HWTS logs and AI Core PMU records in the same
 * channels. Also debugfs vnpuN/bench_tasks, the producer of
 * bench/ring_transport.c.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vnpu_ascend.h"

#define PAGE 4096

struct chans {
	int fd;
	struct vnpu_prof_start ps;
	void *base;
	volatile __u64 *cons;
	const struct vnpu_ring_ctrl *ctrl;
};

static int chans_start(struct chans *c, int dev, __u32 level, __u32 pages)
{
	c->fd = vnpu_open_dev(dev, O_RDWR);
	if (c->fd < 0)
		return -errno;
	memset(&c->ps, 0, sizeof(c->ps));
	c->ps.size = sizeof(c->ps);
	c->ps.flags = VNPU_PROF_F_CHANNELS;
	c->ps.level = level;
	c->ps.ring_pages = pages;
	if (ioctl(c->fd, VNPU_IOC_PROF_START, &c->ps))
		return -errno;
	c->base = mmap(NULL, c->ps.mmap_size, PROT_READ, MAP_SHARED, c->fd, 0);
	c->cons = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, PAGE);
	if (c->base == MAP_FAILED || c->cons == MAP_FAILED)
		return -errno;
	c->ctrl = c->base;
	return 0;
}

static const struct vnpu_ring_chan *chan(const struct chans *c, int ch)
{
	return (const void *)((const char *)c->base + c->ctrl->chan_offset + 64 * ch);
}

static volatile __u64 *chan_cons(const struct chans *c, int ch)
{
	return (volatile __u64 *)((volatile char *)c->cons + VNPU_RING_CHAN_CONS_OFFSET(ch));
}

/* Read channel @ch's records into @out (up to @max), consuming them. */
static size_t chan_read(const struct chans *c, int ch, void *out, size_t max)
{
	const struct vnpu_ring_chan *d = chan(c, ch);
	__u64 prod = __atomic_load_n(&d->producer_pos, __ATOMIC_ACQUIRE), cons = *chan_cons(c, ch);
	const char *data = (const char *)c->base + d->data_offset;
	size_t n = 0;

	for (; cons < prod; cons += d->rec_size, n++)
		if (n < max)
			memcpy((char *)out + n * d->rec_size, data + (cons & (d->data_size - 1)),
			       d->rec_size);
	__atomic_store_n(chan_cons(c, ch), cons, __ATOMIC_RELEASE);
	return n;
}

static void chans_end(struct chans *c)
{
	if (c->base && c->base != MAP_FAILED)
		munmap(c->base, c->ps.mmap_size);
	if (c->cons && c->cons != MAP_FAILED)
		munmap((void *)c->cons, PAGE);
	close(c->fd);
}

/* @n tasks of @type on a new stream; their ids in @ids; the stream's hw id */
static int run(int fd, unsigned int n, unsigned int type, __u64 *ids, __u32 *hw)
{
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	static struct vnpu_task t[4096];
	unsigned int done;

	if (ioctl(fd, VNPU_IOC_STREAM_CREATE, &sc))
		return -errno;
	*hw = sc.hw_stream_id;
	for (unsigned int i = 0; i < 4096; i++)
		vnpu_task_init(&t[i], "Add_ch", "Add", type, sc.stream_id, 1 << 16, 1 << 14);
	for (done = 0; done < n; done += 4096) {
		unsigned int k = n - done < 4096 ? n - done : 4096;
		int ret = vnpu_submit_tasks(fd, t, k, ids ? ids + done : NULL);

		if (ret)
			return ret;
	}
	return vnpu_sync_stream(fd, sc.stream_id, 0, 600000, NULL);
}

TEST(records_are_the_devices_own)
{
	static struct vnpu_acsq_log acsq[64];
	static struct vnpu_ffts_pmu pmu[32];
	struct chans c = { 0 };
	__u64 ids[32];
	__u32 hw;
	size_t n;

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L1, 4));
	EXPECT_EQ(VNPU_CH_COUNT, c.ctrl->n_channels);
	EXPECT_EQ(VNPU_RING_CHAN_OFFSET, c.ctrl->chan_offset);
	EXPECT_EQ(64, chan(&c, VNPU_CH_ACSQ)->rec_size);
	EXPECT_EQ(128, chan(&c, VNPU_CH_PMU)->rec_size);
	EXPECT_EQ(40, chan(&c, VNPU_CH_TS_TRACK)->rec_size);
	EXPECT_EQ(4 * PAGE, chan(&c, VNPU_CH_ACSQ)->data_size);
	ASSERT_EQ(0, run(c.fd, 32, VNPU_TASK_AI_CORE, ids, &hw));
	EXPECT_GT(2048, hw);

	n = chan_read(&c, VNPU_CH_ACSQ, acsq, 64);
	ASSERT_EQ(64, n);
	for (size_t i = 0; i < n; i++) {
		const struct vnpu_acsq_log *l = &acsq[i];

		EXPECT_EQ(VNPU_STARS_MAGIC, l->magic);
		EXPECT_EQ(i % 2 ? VNPU_FUNC_ACSQ_END : VNPU_FUNC_ACSQ_START,
			  VNPU_ACSQ_FUNC(l->word0));
		EXPECT_EQ(i & 0xf, VNPU_ACSQ_CNT(l->word0));
		EXPECT_EQ(VNPU_SQE_AI_CORE, VNPU_ACSQ_SQE(l->word0));
		EXPECT_EQ(hw, l->stream_id);
		EXPECT_EQ(ids[i / 2] & 0xffff, l->task_id);
		if (i % 2)
			EXPECT_LT(acsq[i - 1].syscnt, l->syscnt);
		EXPECT_EQ(0, l->reserved0 | l->acc_acsq);
	}
	n = chan_read(&c, VNPU_CH_PMU, pmu, 32);
	ASSERT_EQ(32, n);
	for (size_t i = 0; i < n; i++) {
		const struct vnpu_ffts_pmu *p = &pmu[i];
		__u64 any = 0;

		EXPECT_EQ(VNPU_FUNC_CONTEXT_PMU, p->word0 & VNPU_FUNC_MASK);
		EXPECT_EQ(hw, p->stream_id);
		EXPECT_EQ(ids[i] & 0xffff, p->task_id);
		EXPECT_EQ(VNPU_FFTS_TYPE_AIC, VNPU_FFTS_TYPE(p->ffts));
		EXPECT_EQ(VNPU_FFTS_NO_SUBTASK, p->subtask_id);
		EXPECT_LT(0, p->total_cycle);
		EXPECT_EQ(acsq[2 * i].syscnt, p->start_syscnt);
		EXPECT_EQ(acsq[2 * i + 1].syscnt, p->end_syscnt);
		for (unsigned int k = 0; k < c.ps.n_events && k < VNPU_PMU_COUNTERS; k++)
			any |= p->pmu[k];
		EXPECT_NE(0, any);
	}
	/*
	 * The flips that bring the new stream to its tasks' epoch: none below
	 * task id 65536 (a device that ran more tasks before is past it)
	 */
	EXPECT_EQ(ids[31] >> 16, chan_read(&c, VNPU_CH_TS_TRACK, NULL, 0));
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);
}

/*
 * A mix task on the A2 is an FFTS+ task of one context: its ACSQ pair
 * encloses the context's FFTS+ pair (one reservation, consecutive
 * counters), and at L1 its context PMU record (FFTS+, subtask MIX_AIC, id
 * 0) is followed by one block PMU record per AIV block.
 */
TEST(mix_task_is_an_ffts_plus_context)
{
	static struct vnpu_acsq_log logs[8];
	static struct vnpu_ffts_pmu pmu[8];
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	const struct vnpu_ffts_log *f;
	struct chans c = { 0 };
	struct vnpu_task t;
	__u64 id, cyc = 0;
	size_t n;

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L1, 4));
	ASSERT_EQ(0, ioctl(c.fd, VNPU_IOC_STREAM_CREATE, &sc));
	vnpu_task_init(&t, "MatMul_mix", "MatMul", VNPU_TASK_MIX_AIC, sc.stream_id, 1 << 20,
		       1 << 18);
	t.block_num = 2;
	t.mix_block_num = 4;
	ASSERT_EQ(0, vnpu_submit_tasks(c.fd, &t, 1, &id));
	ASSERT_EQ(0, vnpu_sync_stream(c.fd, sc.stream_id, 0, 10000, NULL));

	ASSERT_EQ(4, chan_read(&c, VNPU_CH_ACSQ, logs, 8));
	EXPECT_EQ(VNPU_FUNC_ACSQ_START, VNPU_ACSQ_FUNC(logs[0].word0));
	EXPECT_EQ(VNPU_FUNC_FFTS_LOG_START, VNPU_ACSQ_FUNC(logs[1].word0));
	EXPECT_EQ(VNPU_FUNC_FFTS_LOG_END, VNPU_ACSQ_FUNC(logs[2].word0));
	EXPECT_EQ(VNPU_FUNC_ACSQ_END, VNPU_ACSQ_FUNC(logs[3].word0));
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(VNPU_STARS_MAGIC, logs[i].magic);
		EXPECT_EQ((VNPU_ACSQ_CNT(logs[0].word0) + i) & 0xf, VNPU_ACSQ_CNT(logs[i].word0));
		EXPECT_EQ(id & 0xffff, logs[i].task_id);
		EXPECT_EQ(sc.hw_stream_id, logs[i].stream_id);
	}
	for (int i = 1; i < 3; i++) {
		f = (const struct vnpu_ffts_log *)&logs[i];
		EXPECT_EQ(VNPU_FFTS_SUBTASK_MIX_AIC, f->subtask_type);
		EXPECT_EQ(0, f->subtask_id);
		EXPECT_EQ(VNPU_FFTS_TYPE_FFTS_PLUS, VNPU_FFTS_TYPE(f->ffts));
		EXPECT_EQ(0, f->thread_id);
	}
	EXPECT_LE(logs[0].syscnt, logs[1].syscnt);
	EXPECT_LT(logs[1].syscnt, logs[2].syscnt);
	EXPECT_LE(logs[2].syscnt, logs[3].syscnt);

	n = chan_read(&c, VNPU_CH_PMU, pmu, 8);
	ASSERT_EQ(5, n) TH_LOG("the context's record and one a block");
	EXPECT_EQ(VNPU_FUNC_CONTEXT_PMU, pmu[0].word0 & VNPU_FUNC_MASK);
	EXPECT_EQ(VNPU_FFTS_TYPE_FFTS_PLUS, VNPU_FFTS_TYPE(pmu[0].ffts));
	EXPECT_EQ(VNPU_FFTS_SUBTASK_MIX_AIC, pmu[0].subtask & 0xff);
	EXPECT_EQ(0, pmu[0].subtask_id);
	EXPECT_LT(0, pmu[0].total_cycle);
	for (size_t i = 1; i < n; i++) {
		const struct vnpu_ffts_block_pmu *b = (const void *)&pmu[i];

		EXPECT_EQ(VNPU_FUNC_BLOCK_PMU, b->word0 & VNPU_FUNC_MASK);
		EXPECT_EQ(VNPU_STARS_MAGIC, b->magic);
		EXPECT_EQ(id & 0xffff, b->task_id);
		EXPECT_EQ(VNPU_FFTS_SUBTASK_MIX_AIC, b->subtask_type);
		EXPECT_EQ(0, b->subtask_id);
		EXPECT_EQ(VNPU_BLOCK_CORE_AIV, b->core);
		EXPECT_EQ(VNPU_FFTS_TYPE_FFTS_PLUS, b->ffts >> 5);
		EXPECT_EQ(i - 1, b->block_id);
		cyc += b->total_cycle;
	}
	/* the AIV side works all the way too: cycles on all of its blocks */
	EXPECT_LT(0, cyc);
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);
}

/*
 * The HWTS generation (no VNPU_CAP_STARS: the training series, 910A, and
 * the inference series, 310P): HWTS start and end logs whose counter runs
 * over the channel, with the HWTS task type (AI CPU 1, not STARS's SQE
 * type), and an AI Core PMU record per AI Core task, in the order the
 * tasks ran, for the AI CPU tasks none.
 */
TEST(hwts_records_without_stars)
{
	static struct vnpu_hwts_log logs[80];
	static struct vnpu_aic_pmu pmu[40];

	ASSERT_EQ(0, vnpu_module_unload_settled());
	ASSERT_EQ(0, vnpu_module_load("devices=2 product=910,310p"));
	for (int dev = 0; dev < 2; dev++) {
		struct vnpu_info info;
		struct chans c = { 0 };
		__u64 ids[32], cpu_ids[4];
		__u32 hw, cpu_hw;
		size_t n;

		ASSERT_EQ(0, chans_start(&c, dev, VNPU_PROF_L1, 4));
		ASSERT_EQ(0, vnpu_get_info(c.fd, &info));
		ASSERT_EQ(0, info.caps & VNPU_CAP_STARS) TH_LOG("%s", info.product_name);
		EXPECT_EQ(64, chan(&c, VNPU_CH_ACSQ)->rec_size);
		EXPECT_EQ(128, chan(&c, VNPU_CH_PMU)->rec_size);
		ASSERT_EQ(0, run(c.fd, 32, VNPU_TASK_AI_CORE, ids, &hw));
		ASSERT_EQ(0, run(c.fd, 4, VNPU_TASK_AI_CPU, cpu_ids, &cpu_hw));

		n = chan_read(&c, VNPU_CH_ACSQ, logs, 80);
		ASSERT_EQ(72, n);
		for (size_t i = 0; i < n; i++) {
			const struct vnpu_hwts_log *l = &logs[i];
			bool cpu = i >= 64;

			EXPECT_EQ(i % 2 ? VNPU_HWTS_LOG_END : VNPU_HWTS_LOG_START,
				  VNPU_HWTS_TYPE(l->word0));
			EXPECT_EQ(i & 0xf, VNPU_HWTS_CNT(l->word0));
			EXPECT_EQ(0, l->word0 & 0x8);
			EXPECT_EQ(cpu ? VNPU_HWTS_AI_CPU : VNPU_HWTS_AI_CORE, l->task_type);
			EXPECT_EQ(cpu ? cpu_hw : hw, l->stream_id);
			EXPECT_EQ((cpu ? cpu_ids[(i - 64) / 2] : ids[i / 2]) & 0xffff, l->task_id);
			if (i % 2)
				EXPECT_LT(logs[i - 1].syscnt, l->syscnt);
			EXPECT_EQ(0, l->reserved0 | l->reserved1);
			for (int k = 0; k < 11; k++)
				EXPECT_EQ(0, l->reserved[k]);
		}
		n = chan_read(&c, VNPU_CH_PMU, pmu, 40);
		ASSERT_EQ(32, n) TH_LOG("%s: the AI CPU tasks have none", info.product_name);
		for (size_t i = 0; i < n; i++) {
			const struct vnpu_aic_pmu *p = &pmu[i];
			__u64 any = 0;

			EXPECT_EQ((i & 0xf) << 4, p->word0);
			EXPECT_EQ(hw, p->stream_id);
			EXPECT_EQ(ids[i] & 0xffff, p->task_id);
			EXPECT_LT(0, p->total_cycle);
			EXPECT_EQ(0, p->reserved0 | p->reserved1 | p->reserved2 | p->reserved3 |
					     p->reserved4 | p->reserved5);
			for (unsigned int k = 0; k < c.ps.n_events && k < VNPU_PMU_COUNTERS; k++)
				any |= p->pmu[k];
			EXPECT_NE(0, any);
		}
		EXPECT_EQ(0, vnpu_prof_stop(c.fd));
		chans_end(&c);
	}
	vnpu_module_unload_settled();
	vnpu_module_restore();
}

/* L0: the ACSQ logs only; an AI CPU task never has a PMU record */
TEST(levels_gate_the_pmu)
{
	struct chans c = { 0 };
	__u32 hw;

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L0, 4));
	ASSERT_EQ(0, run(c.fd, 10, VNPU_TASK_AI_CORE, NULL, &hw));
	EXPECT_EQ(20, chan_read(&c, VNPU_CH_ACSQ, NULL, 0));
	EXPECT_EQ(0, chan_read(&c, VNPU_CH_PMU, NULL, 0));
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L2, 4));
	ASSERT_EQ(0, run(c.fd, 10, VNPU_TASK_AI_CPU, NULL, &hw));
	EXPECT_EQ(20, chan_read(&c, VNPU_CH_ACSQ, NULL, 0));
	EXPECT_EQ(0, chan_read(&c, VNPU_CH_PMU, NULL, 0));
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);
}

/* A ring nobody reads: every record is produced, read or lost, exactly. */
TEST(loss_is_exact_per_channel)
{
	struct chans c = { 0 };
	struct vnpu_prof_stats st;
	__u64 read_acsq, read_pmu;
	__u32 hw;

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L1, 1));
	ASSERT_EQ(0, run(c.fd, 1000, VNPU_TASK_AI_CORE, NULL, &hw));
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	read_acsq = chan_read(&c, VNPU_CH_ACSQ, NULL, 0);
	read_pmu = chan_read(&c, VNPU_CH_PMU, NULL, 0);
	EXPECT_EQ(2000, chan(&c, VNPU_CH_ACSQ)->produced);
	EXPECT_EQ(1000, chan(&c, VNPU_CH_PMU)->produced);
	EXPECT_LT(0, chan(&c, VNPU_CH_ACSQ)->lost);
	EXPECT_EQ(2000, read_acsq + chan(&c, VNPU_CH_ACSQ)->lost);
	EXPECT_EQ(1000, read_pmu + chan(&c, VNPU_CH_PMU)->lost);
	/* a page holds 64 records of 64 bytes: all were read, none more */
	EXPECT_EQ(PAGE / 64, read_acsq);
	/* a start and its end go in one reservation: lost in pairs */
	EXPECT_EQ(0, chan(&c, VNPU_CH_ACSQ)->lost % 2);
	ASSERT_EQ(0, vnpu_prof_stats(c.fd, &st));
	/* and the flips of the stream's epoch, if the device is past id 65536 */
	EXPECT_EQ(3000 + chan(&c, VNPU_CH_TS_TRACK)->produced, st.produced);
	EXPECT_EQ(0, chan(&c, VNPU_CH_AICPU)->produced);
	EXPECT_EQ(chan(&c, VNPU_CH_ACSQ)->lost + chan(&c, VNPU_CH_PMU)->lost, st.lost);
	chans_end(&c);
}

#define BENCH_TASKS "/sys/kernel/debug/vnpu/vnpu0/bench_tasks"

/* Write @val to debugfs bench_tasks: 0 or -errno. */
static int bench_tasks(const char *val)
{
	int fd = open(BENCH_TASKS, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * bench_tasks writes the records of N AI Core tasks as a real task's (a
 * start and an end log, a PMU record at L1) on stream 2047; bad counts, and
 * a write without a session, are refused.
 */
TEST(bench_tasks_writes_task_records)
{
	static struct vnpu_acsq_log acsq[64];
	static struct vnpu_ffts_pmu pmu[32];
	struct chans c = { 0 };

	if (access(BENCH_TASKS, F_OK))
		SKIP(return, "no " BENCH_TASKS " (debugfs not mounted?)");
	EXPECT_EQ(-ENODEV, bench_tasks("1"));

	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L1, 4));
	EXPECT_EQ(-EINVAL, bench_tasks("0"));
	EXPECT_EQ(-EINVAL, bench_tasks("-1"));
	EXPECT_EQ(-EINVAL, bench_tasks("ten"));
	EXPECT_EQ(-EINVAL, bench_tasks("16777217"));
	EXPECT_EQ(0, chan(&c, VNPU_CH_ACSQ)->produced);
	ASSERT_EQ(0, bench_tasks("32"));
	ASSERT_EQ(64, chan_read(&c, VNPU_CH_ACSQ, acsq, 64));
	ASSERT_EQ(32, chan_read(&c, VNPU_CH_PMU, pmu, 32));
	for (unsigned int i = 0; i < 64; i++) {
		EXPECT_EQ(VNPU_STARS_MAGIC, acsq[i].magic);
		EXPECT_EQ(i % 2 ? VNPU_FUNC_ACSQ_END : VNPU_FUNC_ACSQ_START,
			  VNPU_ACSQ_FUNC(acsq[i].word0));
		EXPECT_EQ(i & 0xf, VNPU_ACSQ_CNT(acsq[i].word0));
		EXPECT_EQ(2047, acsq[i].stream_id);
		EXPECT_EQ(i / 2, acsq[i].task_id);
	}
	for (unsigned int i = 0; i < 32; i++) {
		EXPECT_EQ(VNPU_FUNC_CONTEXT_PMU, pmu[i].word0 & VNPU_FUNC_MASK);
		EXPECT_EQ(i, pmu[i].task_id);
		EXPECT_EQ(acsq[2 * i].syscnt, pmu[i].start_syscnt);
		EXPECT_EQ(acsq[2 * i + 1].syscnt, pmu[i].end_syscnt);
	}
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	EXPECT_EQ(-ENODEV, bench_tasks("1"));
	chans_end(&c);
}

/*
 * Full rate into a ring nobody reads: the first page's worth of tasks is
 * whole, every other record lost and counted, start and end together;
 * the counter shows the gap to the next records once there is room.
 */
TEST(bench_tasks_loss_is_exact)
{
	static struct vnpu_acsq_log acsq[64];
	struct chans c = { 0 };
	struct vnpu_prof_stats st;

	if (access(BENCH_TASKS, F_OK))
		SKIP(return, "no " BENCH_TASKS " (debugfs not mounted?)");
	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L0, 1));
	ASSERT_EQ(0, bench_tasks("1000"));
	EXPECT_EQ(2000, chan(&c, VNPU_CH_ACSQ)->produced);
	EXPECT_EQ(2000 - PAGE / 64, chan(&c, VNPU_CH_ACSQ)->lost);
	EXPECT_EQ(0, chan(&c, VNPU_CH_PMU)->produced);
	ASSERT_EQ(PAGE / 64, chan_read(&c, VNPU_CH_ACSQ, acsq, 64));
	for (unsigned int i = 0; i < PAGE / 64; i++)
		EXPECT_EQ(i / 2, acsq[i].task_id);
	ASSERT_EQ(0, bench_tasks("1"));
	ASSERT_EQ(2, chan_read(&c, VNPU_CH_ACSQ, acsq, 64));
	/* 2000 records counted before it: 2000 % 16 */
	EXPECT_EQ(2000 & 0xf, VNPU_ACSQ_CNT(acsq[0].word0));
	EXPECT_EQ(VNPU_FUNC_ACSQ_START, VNPU_ACSQ_FUNC(acsq[0].word0));
	ASSERT_EQ(0, vnpu_prof_stats(c.fd, &st));
	EXPECT_EQ(2002, st.produced);
	EXPECT_EQ(2000 - PAGE / 64, st.lost);
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);
}

/*
 * A fatal signal ends a long bench_tasks write (vnpu_hwrec_bench()'s
 * -EINTR): the writer dies at once, not after 16M tasks, the producer
 * stops, and the session goes on.
 */
TEST(bench_tasks_stops_on_a_fatal_signal)
{
	struct chans c = { 0 };
	__u64 before, after;
	int status;
	pid_t pid;

	if (access(BENCH_TASKS, F_OK))
		SKIP(return, "no " BENCH_TASKS " (debugfs not mounted?)");
	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L1, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(bench_tasks("16777216") ? 1 : 0);
	/* let it run, then kill it mid-write */
	while (chan(&c, VNPU_CH_ACSQ)->produced < 1000)
		usleep(1000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("the write finished: status %d", status);
	EXPECT_EQ(SIGKILL, WTERMSIG(status));
	before = chan(&c, VNPU_CH_ACSQ)->produced;
	usleep(100 * 1000);
	after = chan(&c, VNPU_CH_ACSQ)->produced;
	EXPECT_EQ(before, after) TH_LOG("the producer ran on after its writer died");
	EXPECT_LT(after, 2ull * 16777216);
	/* the session still takes records, and counts them all */
	ASSERT_EQ(0, bench_tasks("1"));
	EXPECT_EQ(after + 2, chan(&c, VNPU_CH_ACSQ)->produced);
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	chans_end(&c);
}

FIXTURE(long_run)
{
	int unused;
};

FIXTURE_SETUP(long_run)
{
}

FIXTURE_TEARDOWN(long_run)
{
}

/*
 * Past 65536 tasks a stream's 16-bit ids wrap: a flip marks each epoch,
 * strictly between the last task of the epoch before and the first of its
 * own (msprof's C++ path gives a log at the flip's time the old batch).
 */
TEST_F_TIMEOUT(long_run, task_ids_wrap_with_flips, 600)
{
	struct chans c = { 0 };
	struct vnpu_ts_flip flips[8];
	__u32 hw;
	unsigned int n = 70000;
	__u64 *ids = calloc(n, sizeof(*ids));
	struct vnpu_acsq_log *logs = calloc(2 * (size_t)n, sizeof(*logs));
	size_t nf, acsq = 0;

	ASSERT_NE(NULL, ids);
	ASSERT_NE(NULL, logs);
	ASSERT_EQ(0, chans_start(&c, 0, VNPU_PROF_L0, 4096));
	ASSERT_EQ(0, run(c.fd, n, VNPU_TASK_AI_CORE, ids, &hw));
	EXPECT_EQ(0, vnpu_prof_stop(c.fd));
	acsq = chan_read(&c, VNPU_CH_ACSQ, logs, 2 * (size_t)n);
	EXPECT_EQ(2 * n, acsq);
	EXPECT_EQ(0, chan(&c, VNPU_CH_ACSQ)->lost);
	nf = chan_read(&c, VNPU_CH_TS_TRACK, flips, 8);
	/* the epochs the run went through, from the first task's */
	EXPECT_EQ(ids[n - 1] >> 16, nf)
	TH_LOG("ids %llu .. %llu", (unsigned long long)ids[0],
						   (unsigned long long)ids[n - 1]);
	for (size_t i = 0; i < nf && i < 8; i++) {
		EXPECT_EQ(VNPU_TS_TAG_TASK_FLIP, flips[i].tag);
		EXPECT_EQ(hw, flips[i].stream_id);
		EXPECT_EQ(i + 1, flips[i].flip_num);
		EXPECT_EQ(0, flips[i].task_id);
	}
	/* the first task of each epoch the run entered: its start log, the end before */
	for (unsigned int k = 1; k < n && acsq == 2 * (size_t)n; k++) {
		size_t f = (size_t)(ids[k] >> 16) - 1; /* flip_num f + 1 */

		if (ids[k] >> 16 == ids[k - 1] >> 16 || f >= nf || f >= 8)
			continue;
		EXPECT_LT(logs[2 * k - 1].syscnt, flips[f].syscnt)
		TH_LOG("flip %zu at %llu, task %u ended at %llu", f,
		       (unsigned long long)flips[f].syscnt, k - 1,
		       (unsigned long long)logs[2 * k - 1].syscnt);
		EXPECT_LT(flips[f].syscnt, logs[2 * k].syscnt)
		TH_LOG("flip %zu at %llu, task %u started at %llu", f,
		       (unsigned long long)flips[f].syscnt, k,
		       (unsigned long long)logs[2 * k].syscnt);
	}
	chans_end(&c);
	free(logs);
	free(ids);
}

TEST_HARNESS_MAIN
