// SPDX-License-Identifier: GPL-2.0
/*
 * Execution: streams, submit and sync, in-order streams, parallel streams,
 * determinism, close with work in flight, concurrent submitters, and
 * collectives across devices. Timings are read back through sync's
 * device_time (the end of the stream's last task) and submit's submit_time
 * (the batch's submission): device time is host time, so a duration is
 * the end of a task that ran alone minus its submission (after a sync the
 * device is idle: the next task starts at its submission).
 */
#include <pthread.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"

FIXTURE(exec)
{
	int fd;
	int stream;
};

FIXTURE_SETUP(exec)
{
	self->fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->stream = vnpu_stream_new(self->fd);
	ASSERT_GE(self->stream, 0);
}

FIXTURE_TEARDOWN(exec)
{
	close(self->fd);
}

TEST_F(exec, stream_lifecycle)
{
	int ids[VNPU_MAX_STREAMS];

	/* the fixture holds stream 0 */
	for (int i = 1; i < VNPU_MAX_STREAMS; i++) {
		ids[i] = vnpu_stream_new(self->fd);
		ASSERT_GE(ids[i], 0);
	}
	EXPECT_EQ(-EMFILE, vnpu_stream_new(self->fd));
	EXPECT_EQ(0, vnpu_stream_del(self->fd, ids[5]));
	EXPECT_EQ(-ENOENT, vnpu_stream_del(self->fd, ids[5]));
	EXPECT_EQ(ids[5], vnpu_stream_new(self->fd));
	EXPECT_EQ(-EINVAL, vnpu_stream_del(self->fd, VNPU_MAX_STREAMS));
	for (int i = 1; i < VNPU_MAX_STREAMS; i++)
		EXPECT_EQ(0, vnpu_stream_del(self->fd, ids[i]));
}

TEST_F(exec, submit_and_sync)
{
	struct vnpu_task t[3];
	struct vnpu_sync sy;
	__u64 ids[3];

	vnpu_task_init(&t[0], "MatMul_1", "MatMul", VNPU_TASK_AI_CORE, self->stream,
		       2ull * 1024 * 1024 * 1024, 3 * 1024 * 1024 * 2);
	vnpu_task_init(&t[1], "Add_1", "Add", VNPU_TASK_AI_CORE, self->stream, 1 << 20, 12 << 20);
	vnpu_task_init(&t[2], "Cast_1", "Cast", VNPU_TASK_AI_CPU, self->stream, 1000, 4000);
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 3, ids));
	EXPECT_GT(ids[0], 0);
	EXPECT_EQ(ids[0] + 1, ids[1]);
	EXPECT_EQ(ids[0] + 2, ids[2]);
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &sy));
	EXPECT_EQ(ids[2], sy.last_task_id);
	EXPECT_GT(sy.device_time, 0);
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, 0, VNPU_SYNC_F_ALL_STREAMS, 0, &sy));
	EXPECT_EQ(ids[2], sy.last_task_id);
}

/* Submit @n tasks as one batch and wait: the batch's submission and end. */
static int run_batch(int fd, int stream, const struct vnpu_task *t, unsigned int n, __u64 *submit,
		     __u64 *end)
{
	struct vnpu_sync sy;

	if (vnpu_submit_at(fd, t, n, NULL, submit) || vnpu_sync_stream(fd, stream, 0, 10000, &sy))
		return -1;
	*end = sy.device_time;
	return 0;
}

/* The durations of @n identical tasks on one stream, each alone. */
static int run_serial(int fd, int stream, int n, __u64 flops, __u64 *durs)
{
	struct vnpu_task t;
	__u64 submit = 0, end = 0;

	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, stream, flops, 1 << 20);
	for (int i = 0; i < n; i++) {
		if (run_batch(fd, stream, &t, 1, &submit, &end))
			return -1;
		durs[i] = end - submit;
	}
	return 0;
}

/*
 * A task that begins a new task id epoch (every 65536 ids) starts two
 * ticks after its stream's previous task (vnpu_exec.c): a batch may have
 * one such gap.
 */
#define EPOCH_GAP 2

TEST_F(exec, in_order_within_a_stream)
{
	struct vnpu_task t[8];
	__u64 durs[8], submit = 0, end = 0;

	ASSERT_EQ(0, run_serial(self->fd, self->stream, 8, 1ull << 30, durs));
	for (int i = 0; i < 8; i++) {
		EXPECT_LT(0, durs[i]);
		/* equal tasks alone: equal durations (the suite runs with seed=0) */
		EXPECT_EQ(durs[0], durs[i]);
	}
	/* eight back to back in one batch: one after the other */
	for (int i = 0; i < 8; i++)
		vnpu_task_init(&t[i], "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream,
			       1ull << 30, 1 << 20);
	ASSERT_EQ(0, run_batch(self->fd, self->stream, t, 8, &submit, &end));
	EXPECT_LE(8 * durs[0], end - submit);
	EXPECT_GE(8 * durs[0] + EPOCH_GAP, end - submit);
}

/* Two streams, one single-block task each, submitted in one batch, overlap. */
TEST_F(exec, streams_run_in_parallel)
{
	struct vnpu_task t[2];
	struct vnpu_sync s1;
	int s2 = vnpu_stream_new(self->fd);
	__u64 submit = 0, end = 0, d_one;

	ASSERT_GE(s2, 0);
	/* the duration of one task alone */
	vnpu_task_init(&t[0], "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream, 1ull << 32,
		       1 << 20);
	ASSERT_EQ(0, run_batch(self->fd, self->stream, t, 1, &submit, &end));
	d_one = end - submit;

	t[1] = t[0];
	t[1].stream_id = s2;
	ASSERT_EQ(0, run_batch(self->fd, self->stream, t, 2, &submit, &end));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, s2, 0, 10000, &s1));
	/* both end one duration after their submission, not two */
	EXPECT_EQ(submit + d_one, end);
	EXPECT_GE(submit + d_one + EPOCH_GAP, s1.device_time);
	EXPECT_LE(submit + d_one, s1.device_time);
}

/* Block num is limited by the cores: twice the cores takes two waves. */
TEST_F(exec, blocks_beyond_the_cores_take_waves)
{
	struct vnpu_info info;
	struct vnpu_task t;
	__u64 submit = 0, end = 0, one, two;

	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream,
		       (__u64)info.aic_num << 30, 1 << 20);
	t.block_num = info.aic_num;
	ASSERT_EQ(0, run_batch(self->fd, self->stream, &t, 1, &submit, &end));
	one = end - submit;
	t.block_num = 2 * info.aic_num;
	t.flops *= 2;
	ASSERT_EQ(0, run_batch(self->fd, self->stream, &t, 1, &submit, &end));
	two = end - submit;
	EXPECT_GT(two, one * 3 / 2);
}

/* @t alone on an idle device: its duration. */
static __u64 alone(int fd, int stream, const struct vnpu_task *t)
{
	struct vnpu_task one = *t;
	__u64 submit = 0, end = 0;

	one.stream_id = stream;
	if (run_batch(fd, stream, &one, 1, &submit, &end))
		return 0;
	return end - submit;
}

/*
 * Cores go to tasks by when they are free: a long task on half the cores
 * and a one-block task on another stream start together; a task of every
 * core waits for the long one's cores.
 */
TEST_F(exec, cores_go_to_whoever_finds_them_free)
{
	struct vnpu_task t[3];
	struct vnpu_sync s[3];
	struct vnpu_info info;
	int st[3] = { self->stream, vnpu_stream_new(self->fd), vnpu_stream_new(self->fd) };
	__u64 d[3], submit = 0;

	ASSERT_GE(st[1], 0);
	ASSERT_GE(st[2], 0);
	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	ASSERT_LE(4, info.aic_num);
	for (int i = 0; i < 3; i++)
		vnpu_task_init(&t[i], "MatMul", "MatMul", VNPU_TASK_AI_CORE, st[i],
			       (__u64)info.aic_num << 30, 1 << 20);
	t[0].block_num = info.aic_num / 2;
	t[1].block_num = 1;
	t[1].flops >>= 4;
	t[2].block_num = info.aic_num;
	for (int i = 0; i < 3; i++) {
		d[i] = alone(self->fd, self->stream, &t[i]);
		ASSERT_LT(0, d[i]);
	}
	ASSERT_GT(d[0], d[1]);

	/* every core free (the device is idle after a sync), the three in one submit */
	ASSERT_EQ(0, vnpu_submit_at(self->fd, t, 3, NULL, &submit));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, vnpu_sync_stream(self->fd, st[i], 0, 10000, &s[i]));
	/* the same up to an id epoch's two ticks, once */
	EXPECT_LE(submit + d[0], s[0].device_time);
	EXPECT_GE(submit + d[0] + EPOCH_GAP, s[0].device_time);
	EXPECT_LE(submit + d[1], s[1].device_time);
	EXPECT_GE(submit + d[1] + EPOCH_GAP, s[1].device_time);
	EXPECT_LE(submit + d[0] + d[2], s[2].device_time);
	EXPECT_GE(submit + d[0] + d[2] + EPOCH_GAP, s[2].device_time);
}

/* The same submissions on a fresh file take the same times. */
TEST(deterministic)
{
	__u64 a[16], b[16];

	for (int run = 0; run < 2; run++) {
		int fd = vnpu_open_dev(0, O_RDWR);
		int s;

		ASSERT_GE(fd, 0);
		s = vnpu_stream_new(fd);
		ASSERT_GE(s, 0);
		ASSERT_EQ(0, run_serial(fd, s, 16, 1ull << 28, run ? b : a));
		close(fd);
	}
	for (int i = 0; i < 16; i++)
		EXPECT_EQ(a[i], b[i]);
}

/* A lone task on an idle device starts at its submission, in host time. */
TEST_F(exec, device_time_is_host_time)
{
	struct vnpu_info info;
	struct vnpu_task t;
	struct timespec ts;
	__u64 before, after, submit = 0, end = 0, d, raw_end;

	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	ASSERT_LE(VNPU_INFO_SIZE_VER2, info.size);
	ASSERT_NE(0, info.time_base_raw_ns);
	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream, 1ull << 30,
		       1 << 20);
	d = alone(self->fd, self->stream, &t);
	ASSERT_LT(0, d);
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	before = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	ASSERT_EQ(0, run_batch(self->fd, self->stream, &t, 1, &submit, &end));
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	after = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	/* the stamp is the host's instant of the call, on its raw clock */
	EXPECT_LE(before, info.time_base_raw_ns + submit * 1000000ull / info.sys_cnt_freq_khz +
				  1000000ull / info.sys_cnt_freq_khz);
	EXPECT_GE(after, info.time_base_raw_ns + submit * 1000000ull / info.sys_cnt_freq_khz);
	EXPECT_EQ(submit + d, end);
	/* and the sync returned no earlier than the task's end, in host time */
	raw_end = info.time_base_raw_ns + end * 1000000ull / info.sys_cnt_freq_khz;
	EXPECT_LE(raw_end, after);
}

/*
 * A sync waits for the modelled end in host time: a task of a good part
 * of a second keeps its sync that long, and one queued behind it starts
 * when it ends.
 */
TEST_F(exec, sync_waits_for_the_end_in_host_time)
{
	struct vnpu_info info;
	struct vnpu_task t;
	struct timespec a, b;
	__u64 submit = 0, end = 0, d, flops = 1ull << 30;
	double ms;

	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream, flops, 1 << 20);
	d = alone(self->fd, self->stream, &t);
	ASSERT_LT(0, d);
	/* about 300 ms of one core */
	t.flops = flops * (__u64)(0.3 * info.sys_cnt_freq_khz * 1000.0 / d + 1);
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	ASSERT_EQ(0, run_batch(self->fd, self->stream, &t, 1, &submit, &end));
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
	EXPECT_LE((end - submit) / (double)info.sys_cnt_freq_khz, ms)
	TH_LOG("a %.1f ms task, its sync returned after %.1f ms",
		       (end - submit) / (double)info.sys_cnt_freq_khz, ms);
	EXPECT_LT(250.0, (end - submit) / (double)info.sys_cnt_freq_khz);
}

/* Closing with thousands of tasks queued is safe and frees the device. */
TEST(close_with_pending_work)
{
	static struct vnpu_task t[VNPU_MAX_SUBMIT];

	for (int round = 0; round < 3; round++) {
		int fd = vnpu_open_dev(0, O_RDWR);
		int s;

		ASSERT_GE(fd, 0);
		s = vnpu_stream_new(fd);
		ASSERT_GE(s, 0);
		for (int i = 0; i < VNPU_MAX_SUBMIT; i++)
			vnpu_task_init(&t[i], "Add", "Add", VNPU_TASK_AI_CORE, s, 1 << 20, 1 << 20);
		ASSERT_EQ(0, vnpu_submit_tasks(fd, t, VNPU_MAX_SUBMIT, NULL));
		close(fd);
	}
	/* the device still works */
	int fd = vnpu_open_dev(0, O_RDWR);
	int s = vnpu_stream_new(fd);
	struct vnpu_sync sy;

	ASSERT_GE(s, 0);
	for (int i = 0; i < 16; i++)
		t[i].stream_id = s;
	ASSERT_EQ(0, vnpu_submit_tasks(fd, t, 16, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, &sy));
	EXPECT_GT(sy.last_task_id, 0);
	close(fd);
}

struct submitter {
	int fd;
	int stream;
	int n;
	int err;
};

static void *submit_thread(void *arg)
{
	struct submitter *sb = arg;
	struct vnpu_task t[32];

	for (int i = 0; i < 32; i++)
		vnpu_task_init(&t[i], "Mul", "Mul", VNPU_TASK_AI_CORE, sb->stream, 1 << 16,
			       1 << 16);
	for (int i = 0; i < sb->n && !sb->err; i++)
		sb->err = vnpu_submit_tasks(sb->fd, t, 32, NULL);
	if (!sb->err)
		sb->err = vnpu_sync_stream(sb->fd, sb->stream, 0, 60000, NULL);
	return NULL;
}

/* 4 threads on one device: two share a file, two have their own. */
TEST(four_threads_one_device)
{
	struct submitter sb[4];
	pthread_t th[4];
	int shared = vnpu_open_dev(0, O_RDWR);
	struct vnpu_sync sy;

	ASSERT_GE(shared, 0);
	for (int i = 0; i < 4; i++) {
		sb[i].fd = i < 2 ? shared : vnpu_open_dev(0, O_RDWR);
		ASSERT_GE(sb[i].fd, 0);
		sb[i].stream = vnpu_stream_new(sb[i].fd);
		ASSERT_GE(sb[i].stream, 0);
		sb[i].n = 100;
		sb[i].err = 0;
	}
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, submit_thread, &sb[i]));
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, sb[i].err) TH_LOG("thread %d", i);
	}
	ASSERT_EQ(0, vnpu_sync_stream(shared, 0, VNPU_SYNC_F_ALL_STREAMS, 10000, &sy));
	for (int i = 2; i < 4; i++)
		close(sb[i].fd);
	close(shared);
}

/* An AllReduce over @n devices, each submitted from its own file. */
static void allreduce(struct __test_metadata *_metadata, unsigned int n, __u64 bytes, __u64 *dur)
{
	int fd[VNPU_MAX_DEVICES], s[VNPU_MAX_DEVICES];
	struct vnpu_sync before[VNPU_MAX_DEVICES] = { 0 }, after[VNPU_MAX_DEVICES] = { 0 };
	__u32 comm[VNPU_MAX_DEVICES] = { 0 };
	__u64 last = 0, submit = 0;
	struct vnpu_task t;

	for (unsigned int d = 0; d < n; d++) {
		fd[d] = vnpu_open_dev(d, O_RDWR);
		ASSERT_GE(fd[d], 0);
		s[d] = vnpu_stream_new(fd[d]);
		ASSERT_GE(s[d], 0);
	}
	ASSERT_EQ(0, vnpu_comm_group(fd, n, comm));
	for (unsigned int d = 0; d < n; d++) {
		vnpu_task_init(&t, "hcom_allReduce_1", "AllReduce", VNPU_TASK_COMMUNICATION, s[d],
			       0, bytes);
		t.comm_op = VNPU_COMM_ALLREDUCE;
		t.comm_id = comm[d];
		t.comm_tag = 7;
		/* a compute task first, its length different per device */
		struct vnpu_task c;

		vnpu_task_init(&c, "MatMul", "MatMul", VNPU_TASK_AI_CORE, s[d], (d + 1ull) << 30,
			       1 << 20);
		ASSERT_EQ(0, vnpu_submit_tasks(fd[d], &c, 1, NULL));
		ASSERT_EQ(0, vnpu_sync_stream(fd[d], s[d], 0, 10000, &before[d]));
		ASSERT_EQ(0, vnpu_submit_at(fd[d], &t, 1, NULL, &submit));
		last = submit > last ? submit : last;
	}
	for (unsigned int d = 0; d < n; d++)
		ASSERT_EQ(0, vnpu_sync_stream(fd[d], s[d], 0, 10000, &after[d]));
	/* all devices end the collective at the same device time */
	for (unsigned int d = 1; d < n; d++)
		EXPECT_EQ(after[0].device_time, after[d].device_time);
	/* and it started after every device's previous task */
	for (unsigned int d = 0; d < n; d++)
		EXPECT_GT(after[d].device_time, before[d].device_time);
	/* it starts when the last device arrives: its submission (each is idle) */
	ASSERT_LT(last, after[0].device_time);
	*dur = after[0].device_time - last;
	for (unsigned int d = 0; d < n; d++)
		close(fd[d]);
}

TEST(allreduce_2_and_8_devices)
{
	__u64 dur2, dur8, dur2_big;

	if (vnpu_param_devices() < 8)
		SKIP(return, "needs devices=8");
	allreduce(_metadata, 2, 64 << 20, &dur2);
	allreduce(_metadata, 8, 64 << 20, &dur8);
	allreduce(_metadata, 2, 256 << 20, &dur2_big);
	EXPECT_GT(dur2, 0);
	/* ring: 2(n-1)/n of the message per device, plus a step per hop */
	EXPECT_GT(dur8, dur2);
	EXPECT_GT(dur2_big, dur2 * 3);
}

/* A collective whose partner never comes does not hang the closer. */
TEST(collective_abandoned_by_close)
{
	struct vnpu_task t;
	int fd[2] = { vnpu_open_dev(0, O_RDWR), vnpu_open_dev(1, O_RDWR) };
	__u32 comm[2] = { 0, 0 };
	int s0;

	if (vnpu_param_devices() < 2)
		SKIP(return, "needs devices=2");
	ASSERT_GE(fd[0], 0);
	ASSERT_GE(fd[1], 0);
	ASSERT_EQ(0, vnpu_comm_group(fd, 2, comm));
	s0 = vnpu_stream_new(fd[0]);
	vnpu_task_init(&t, "hcom_broadcast_1", "Broadcast", VNPU_TASK_COMMUNICATION, s0, 0, 4096);
	t.comm_op = VNPU_COMM_BROADCAST;
	t.comm_id = comm[0];
	t.comm_tag = 99;
	ASSERT_EQ(0, vnpu_submit_tasks(fd[0], &t, 1, NULL));
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd[0], s0, 0, 200, NULL));
	/* rank 1 leaves: the group is broken, rank 0's collective ends at once */
	close(fd[1]);
	/* aborted: the next sync says so, once (docs/uapi.md) */
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(fd[0], s0, 0, 5000, NULL));
	EXPECT_EQ(0, vnpu_sync_stream(fd[0], s0, 0, 5000, NULL));
	close(fd[0]);
}

TEST_HARNESS_MAIN
