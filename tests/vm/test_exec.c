// SPDX-License-Identifier: GPL-2.0
/*
 * Execution: streams, submit and sync, in-order streams, parallel streams,
 * determinism, close with work in flight, concurrent submitters, and
 * collectives across devices. Timings are read back through sync's
 * device_time (the end of the stream's last task).
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

/* Device time at which @n identical tasks on one stream end, one by one. */
static int run_serial(int fd, int stream, int n, __u64 flops, __u64 *ends)
{
	struct vnpu_task t;
	struct vnpu_sync sy;

	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, stream, flops, 1 << 20);
	for (int i = 0; i < n; i++) {
		if (vnpu_submit_tasks(fd, &t, 1, NULL) ||
		    vnpu_sync_stream(fd, stream, 0, 10000, &sy))
			return -1;
		ends[i] = sy.device_time;
	}
	return 0;
}

TEST_F(exec, in_order_within_a_stream)
{
	__u64 ends[8];

	ASSERT_EQ(0, run_serial(self->fd, self->stream, 8, 1ull << 30, ends));
	for (int i = 1; i < 8; i++)
		EXPECT_GT(ends[i], ends[i - 1]);
	/* equal tasks back to back: equal steps */
	for (int i = 2; i < 8; i++)
		EXPECT_EQ(ends[i] - ends[i - 1], ends[1] - ends[0]);
}

/* Two streams, one single-block task each, submitted in one batch, overlap. */
TEST_F(exec, streams_run_in_parallel)
{
	struct vnpu_task t[2];
	struct vnpu_sync s0, s1, one;
	int s2 = vnpu_stream_new(self->fd);
	__u64 base, d_one;

	ASSERT_GE(s2, 0);
	/* the duration of one task alone */
	vnpu_task_init(&t[0], "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream, 1ull << 32,
		       1 << 20);
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &one));
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &s0));
	d_one = s0.device_time - one.device_time;
	base = s0.device_time;

	t[1] = t[0];
	t[1].stream_id = s2;
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 2, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &s0));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, s2, 0, 10000, &s1));
	/* both end one duration after the previous end, not two */
	EXPECT_EQ(base + d_one, s0.device_time);
	EXPECT_EQ(base + d_one, s1.device_time);
}

/* Block num is limited by the cores: twice the cores takes two waves. */
TEST_F(exec, blocks_beyond_the_cores_take_waves)
{
	struct vnpu_info info;
	struct vnpu_task t;
	struct vnpu_sync a, b, c;

	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, self->stream,
		       (__u64)info.aic_num << 30, 1 << 20);
	t.block_num = info.aic_num;
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &a));
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &b));
	t.block_num = 2 * info.aic_num;
	t.flops *= 2;
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &c));
	EXPECT_GT(c.device_time - b.device_time, (b.device_time - a.device_time) * 3 / 2);
}

/* A task of all the cores, then @t alone: @t's duration (every core free at once). */
static __u64 alone(int fd, int stream, const struct vnpu_task *t, const struct vnpu_info *info)
{
	struct vnpu_task flush = *t;
	struct vnpu_sync a, b;

	flush.stream_id = stream;
	flush.block_num = info->aic_num;
	if (vnpu_submit_tasks(fd, &flush, 1, NULL) || vnpu_sync_stream(fd, stream, 0, 10000, &a))
		return 0;
	flush = *t;
	flush.stream_id = stream;
	if (vnpu_submit_tasks(fd, &flush, 1, NULL) || vnpu_sync_stream(fd, stream, 0, 10000, &b))
		return 0;
	return b.device_time - a.device_time;
}

/*
 * Cores go to tasks by when they are free: a long task on half the cores
 * and a one-block task on another stream start together; a task of every
 * core waits for the long one's cores.
 */
TEST_F(exec, cores_go_to_whoever_finds_them_free)
{
	struct vnpu_task t[3], flush;
	struct vnpu_sync e0, s[3];
	struct vnpu_info info;
	int st[3] = { self->stream, vnpu_stream_new(self->fd), vnpu_stream_new(self->fd) };
	__u64 d[3];

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
		d[i] = alone(self->fd, self->stream, &t[i], &info);
		ASSERT_LT(0, d[i]);
	}
	ASSERT_GT(d[0], d[1]);

	/* every core free at e0, then the three in one submit */
	flush = t[2];
	flush.stream_id = self->stream;
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, &flush, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, self->stream, 0, 10000, &e0));
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 3, NULL));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, vnpu_sync_stream(self->fd, st[i], 0, 10000, &s[i]));
	EXPECT_EQ(e0.device_time + d[0], s[0].device_time);
	EXPECT_EQ(e0.device_time + d[1], s[1].device_time);
	EXPECT_EQ(e0.device_time + d[0] + d[2], s[2].device_time);
}

/* The same submissions on a fresh file give the same step times. */
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
	for (int i = 1; i < 16; i++)
		EXPECT_EQ(a[i] - a[i - 1], b[i] - b[i - 1]);
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
		ASSERT_EQ(0, vnpu_submit_tasks(fd[d], &t, 1, NULL));
	}
	for (unsigned int d = 0; d < n; d++)
		ASSERT_EQ(0, vnpu_sync_stream(fd[d], s[d], 0, 10000, &after[d]));
	/* all devices end the collective at the same device time */
	for (unsigned int d = 1; d < n; d++)
		EXPECT_EQ(after[0].device_time, after[d].device_time);
	/* and it started after every device's previous task */
	for (unsigned int d = 0; d < n; d++)
		EXPECT_GT(after[d].device_time, before[d].device_time);
	/* it starts when the last device arrives */
	*dur = after[0].device_time;
	for (unsigned int d = 0; d < n; d++) {
		if (after[0].device_time - before[d].device_time < *dur)
			*dur = after[0].device_time - before[d].device_time;
		close(fd[d]);
	}
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
