// SPDX-License-Identifier: GPL-2.0
/*
 * Device time is host time: a task starts no earlier than its submission
 * and is retired (its sync returns, its records are written) only when
 * the host's clock reaches its modelled end.
 *
 *  - A batch whose device time is B takes at least B of wall time, and
 *    the device time at its end is the host's raw clock at that instant.
 *  - A host that sleeps between two tasks leaves the device idle: the
 *    second starts at its submission, the sleep after the first's end.
 *  - Closing a file whose task is running returns at once and frees the
 *    device: the next file's task does not wait for the rest of the
 *    cancelled one, and the close does not wait for another file's tasks
 *    queued behind it (that one needs 2 vCPUs to fail: make stress).
 *  - SIGKILL of a process asleep in SYNC behind long tasks: it dies at
 *    once, the device takes new work at once, nothing is left allocated
 *    (10 times in make check, 100 under make stress).
 */
#include <signal.h>
#include <time.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"

#define CAL_TASKS 8 /* the batch of tasks_take_their_device_time */
#define TASK_MS 20 /* device time of one calibrated task */
#define PROMPT_S 1.0 /* "at once", with room for TCG and a busy host */

static void tasks_init(struct vnpu_task *t, unsigned int n, int stream, __u64 flops)
{
	for (unsigned int i = 0; i < n; i++)
		vnpu_task_init(&t[i], "MatMul_1", "MatMul", VNPU_TASK_AI_CORE, stream, flops,
			       1 << 16);
}

/* What run_batch() saw: device times in ticks, wall time in seconds. */
struct batch {
	__u64 submit; /* the batch's submission */
	__u64 end; /* the end of the batch */
	double wall; /* from the batch's submit to its sync's return */
	double raw_after; /* CLOCK_MONOTONIC_RAW at its sync's return, ns */
};

static double raw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * On a new stream of @fd, after a sync (the device idle): @n tasks of
 * @flops, synced. end - submit is the batch's own device time. 0 or -errno.
 */
static int run_batch(int fd, unsigned int n, __u64 flops, struct batch *b)
{
	struct vnpu_task *t = calloc(n, sizeof(*t));
	struct vnpu_sync z = { 0 };
	int s = vnpu_stream_new(fd), ret;
	double t0;

	if (!t || s < 0) {
		free(t);
		return s < 0 ? s : -ENOMEM;
	}
	tasks_init(t, n, s, flops);
	ret = vnpu_sync_stream(fd, 0, VNPU_SYNC_F_ALL_STREAMS, 60000, NULL);
	t0 = vnpu_now_s();
	if (!ret)
		ret = vnpu_submit_at(fd, t, n, NULL, &b->submit);
	if (!ret)
		ret = vnpu_sync_stream(fd, s, 0, 60000, &z);
	b->raw_after = raw_now_ns();
	b->wall = vnpu_now_s() - t0;
	b->end = z.device_time;
	vnpu_stream_del(fd, s);
	free(t);
	return ret;
}

static double ticks_to_ns(const struct vnpu_info *info, __u64 ticks)
{
	return (double)ticks * 1e6 / info->sys_cnt_freq_khz;
}

/*
 * @n tasks for @stream that each occupy every AI Core of the device for
 * about @seconds of device time (less if that passes VNPU_TASK_MAX_FLOPS):
 * nothing else can start on the device until they end. Their length, in
 * seconds.
 */
static double long_tasks_init(struct vnpu_task *t, unsigned int n, int stream, __u64 flops,
			      double ns, const struct vnpu_info *info, double seconds)
{
	double want = (double)flops * info->aic_num * seconds * 1e9 / ns;
	__u64 f = want > (double)VNPU_TASK_MAX_FLOPS ? VNPU_TASK_MAX_FLOPS : (__u64)want;

	tasks_init(t, n, stream, f);
	for (unsigned int i = 0; i < n; i++)
		t[i].block_num = info->aic_num;
	return (double)f / info->aic_num / flops * ns / 1e9;
}

FIXTURE(hosttime)
{
	struct vnpu_info info;
	__u64 flops; /* one task of about TASK_MS of device time */
	double task_ns; /* its device time */
};

FIXTURE_SETUP(hosttime)
{
	struct batch b = { 0 };
	int fd;

	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_get_info(fd, &self->info));
	ASSERT_GT(self->info.sys_cnt_freq_khz, 0);
	ASSERT_LE(VNPU_INFO_SIZE_VER2, self->info.size);
	for (self->flops = 1ull << 16; self->flops <= VNPU_TASK_MAX_FLOPS; self->flops <<= 1) {
		ASSERT_EQ(0, run_batch(fd, 1, self->flops, &b));
		self->task_ns = ticks_to_ns(&self->info, b.end - b.submit);
		if (self->task_ns >= TASK_MS * 1e6)
			break;
	}
	ASSERT_LE(self->flops, VNPU_TASK_MAX_FLOPS) TH_LOG("no task reaches %d ms", TASK_MS);
	close(fd);
}

FIXTURE_TEARDOWN(hosttime)
{
}

/*
 * A batch takes at least its device time of wall time, and ends, in
 * device time, at an instant of the host's raw clock no later than its
 * sync's return.
 */
TEST_F_TIMEOUT(hosttime, tasks_take_their_device_time, 120)
{
	int fd = vnpu_open_dev(0, O_RDWR);
	double batch_ns, end_raw;
	struct batch b;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_batch(fd, CAL_TASKS, self->flops, &b));
	batch_ns = ticks_to_ns(&self->info, b.end - b.submit);
	end_raw = self->info.time_base_raw_ns + ticks_to_ns(&self->info, b.end);
	TH_LOG("batch: %.1f ms of device time, %.1f ms of wall time", batch_ns / 1e6,
	       b.wall * 1e3);
	EXPECT_LE(CAL_TASKS * self->task_ns, batch_ns);
	EXPECT_GE(b.wall + 0.001, batch_ns / 1e9);
	EXPECT_LE(end_raw, b.raw_after);
	close(fd);
}

/*
 * A host that sleeps between two tasks: the device is idle meanwhile, and
 * the second task starts at its submission, after the sleep (the Free of
 * a host-bound step, its task's Wait Time).
 */
TEST_F_TIMEOUT(hosttime, a_slow_host_leaves_the_device_idle, 60)
{
	int fd = vnpu_open_dev(0, O_RDWR), s;
	struct vnpu_task t;
	struct vnpu_sync a, z;
	__u64 sub[2] = { 0, 0 };

	ASSERT_GE(fd, 0);
	s = vnpu_stream_new(fd);
	ASSERT_GE(s, 0);
	tasks_init(&t, 1, s, 1 << 16);
	ASSERT_EQ(0, vnpu_submit_at(fd, &t, 1, NULL, &sub[0]));
	usleep(20000);
	ASSERT_EQ(0, vnpu_submit_at(fd, &t, 1, NULL, &sub[1]));
	ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, &z));
	/* the first had long ended: the gap is the host's */
	EXPECT_LE(ticks_to_ns(&self->info, sub[0]) + 20e6, ticks_to_ns(&self->info, sub[1]));
	ASSERT_EQ(0, vnpu_submit_at(fd, &t, 1, NULL, &sub[0]));
	ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, &a));
	/* the same task alone after the sync: it starts at its submission */
	EXPECT_EQ(z.device_time - sub[1], a.device_time - sub[0]);
	close(fd);
}

/*
 * Close while a long task is running: close returns at once, and the
 * next file's small task does not wait for the cancelled one's end.
 */
TEST_F_TIMEOUT(hosttime, close_cancels_the_running_task, 120)
{
	unsigned int long_tasks = 2; /* 2 x 10 s on every core: far beyond "at once" */
	struct vnpu_task t[2];
	double t0, closed, small, len;
	struct batch b;
	int fd, s;

	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd, 0);
	s = vnpu_stream_new(fd);
	ASSERT_GE(s, 0);
	len = long_tasks_init(t, long_tasks, s, self->flops, self->task_ns, &self->info, 10);
	ASSERT_GE(len, 3 * PROMPT_S) TH_LOG("the long tasks last only %.3f s", len);
	ASSERT_EQ(0, vnpu_submit_tasks(fd, t, long_tasks, NULL));
	usleep(50000); /* the first is running now */
	t0 = vnpu_now_s();
	close(fd);
	closed = vnpu_now_s() - t0;
	EXPECT_LT(closed, PROMPT_S) TH_LOG("close took %.3f s", closed);

	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd, 0);
	t0 = vnpu_now_s();
	ASSERT_EQ(0, run_batch(fd, 1, 1 << 12, &b));
	small = vnpu_now_s() - t0;
	TH_LOG("tasks of %.1f s on %u cores: close took %.3f s, the next small task %.3f s",
	       len, self->info.aic_num, closed, small);
	EXPECT_LT(small, PROMPT_S)
	TH_LOG("a small task after the cancelled one took %.3f s", small);
	close(fd);
	EXPECT_EQ(0, vnpu_objects_settled());
}

/*
 * Close while the file's task is running and another file's tasks queue
 * behind it (issue 16, item 4): the close waits for nothing of theirs.
 */
TEST_F_TIMEOUT(hosttime, close_waits_for_no_other_files_tasks, 180)
{
	struct vnpu_task mine[1], theirs[20];
	double t0, closed, len;
	int fd_a, fd_b, sa, sb;

	fd_b = vnpu_open_dev(0, O_RDWR);
	fd_a = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd_b, 0);
	ASSERT_GE(fd_a, 0);
	sb = vnpu_stream_new(fd_b);
	sa = vnpu_stream_new(fd_a);
	ASSERT_GE(sb, 0);
	ASSERT_GE(sa, 0);
	long_tasks_init(mine, 1, sb, self->flops, self->task_ns, &self->info, 10);
	len = long_tasks_init(theirs, 20, sa, self->flops, self->task_ns, &self->info, 0.3);
	ASSERT_EQ(0, vnpu_submit_tasks(fd_b, mine, 1, NULL));
	usleep(50000); /* B's task is running now */
	ASSERT_EQ(0, vnpu_submit_tasks(fd_a, theirs, 20, NULL));
	t0 = vnpu_now_s();
	close(fd_b);
	closed = vnpu_now_s() - t0;
	TH_LOG("close took %.3f s with 20 x %.3f s of another file's tasks queued", closed, len);
	EXPECT_LT(closed, PROMPT_S);
	close(fd_a);
	EXPECT_EQ(0, vnpu_objects_settled());
}

/* What the child of sigkill_mid_sync needs to build its long tasks. */
struct doomed_args {
	__u64 flops;
	double ns;
	const struct vnpu_info *info;
};

/* The child: long tasks, then asleep in SYNC until killed. */
static void doomed_child(int ready_fd, void *arg)
{
	const struct doomed_args *a = arg;
	struct vnpu_task t[4];
	int fd = vnpu_open_dev(0, O_RDWR), s;

	if (fd < 0)
		_exit(10);
	s = vnpu_stream_new(fd);
	if (s < 0)
		_exit(11);
	long_tasks_init(t, 4, s, a->flops, a->ns, a->info, 5);
	if (vnpu_submit_tasks(fd, t, 4, NULL))
		_exit(12);
	if (write(ready_fd, "r", 1) != 1)
		_exit(13);
	vnpu_sync_stream(fd, s, 0, 60000, NULL);
	_exit(14); /* never: 4 x 5 s of tasks on every core */
}

TEST_F_TIMEOUT(hosttime, sigkill_mid_sync, 1200)
{
	unsigned long n = vnpu_stress_count(10, 100), i;
	double worst_exit = 0, worst_next = 0;
	struct doomed_args args = { self->flops, self->task_ns, &self->info };
	unsigned int seed = 11;

	for (i = 0; i < n; i++) {
		struct batch b;
		int st, fd;
		double t0, dt;
		pid_t pid;

		pid = vnpu_fork_ready(doomed_child, &args);
		ASSERT_GT(pid, 0) TH_LOG("child %lu never got going", i);
		usleep(rand_r(&seed) % 20000);
		t0 = vnpu_now_s();
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		dt = vnpu_now_s() - t0;
		worst_exit = dt > worst_exit ? dt : worst_exit;
		ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		TH_LOG("child %lu: status %#x", i, st);

		fd = vnpu_open_dev(0, O_RDWR);
		ASSERT_GE(fd, 0);
		t0 = vnpu_now_s();
		ASSERT_EQ(0, run_batch(fd, 1, 1 << 12, &b));
		dt = vnpu_now_s() - t0;
		worst_next = dt > worst_next ? dt : worst_next;
		close(fd);
		ASSERT_EQ(0, vnpu_objects_settled());
	}
	vnpu_figure("hosttime", "sigkills=%lu worst_exit_s=%.3f worst_next_task_s=%.3f leaks=0", n,
		    worst_exit, worst_next);
	EXPECT_LT(worst_exit, PROMPT_S);
	EXPECT_LT(worst_next, PROMPT_S);
}

TEST_HARNESS_MAIN
