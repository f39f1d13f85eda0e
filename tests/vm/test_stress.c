// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency (docs/reliability.md): threads and processes at once on the
 * same devices, each doing something the others make awkward:
 *  - submitters: streams created and destroyed with tasks still queued,
 *    batches of random size, syncs with short timeouts, files closed with
 *    work pending and reopened; some share one file, some are processes;
 *  - profilers: sessions started and stopped at random levels (-EBUSY when
 *    another file has the device's), the ring mapped, polled, drained and
 *    unmapped; the session's file closed while another thread polls it;
 *    fork() with the ring mapped, the child reading it and exiting;
 *  - an unloader: delete_module() attempts all along, which must be
 *    refused while anything is open.
 * Afterwards nothing is left allocated (debugfs object counts), every ring
 * read was consistent, and the devices still work.
 *
 * Run on the stock kernel with slub_debug=FZPU by make stress (two vCPUs),
 * with KASAN and lockdep by make check's debug pass.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"

/* plain TEST()s time out after 30 s; these take longer under make stress */
FIXTURE(slow)
{
	int unused;
};

FIXTURE_SETUP(slow)
{
}

FIXTURE_TEARDOWN(slow)
{
}

struct shared {
	unsigned int ndev;
	unsigned long iters;
	int shared_fd; /* one file several submitters use at once */
	volatile int done;
	/* results, updated with __atomic builtins */
	unsigned long submits, tasks, syncs, streams, reopens, rejected;
	unsigned long sessions, busy, records, lost, forks, poll_races;
	unsigned long unload_refused, bad_ring;
	int unexpected; /* an errno nothing documents for the call */
};

#define ADD(field, n) __atomic_add_fetch(&(field), (n), __ATOMIC_RELAXED)

static void unexpected(struct shared *sh, int err, int line)
{
	if (!__atomic_load_n(&sh->unexpected, __ATOMIC_RELAXED))
		fprintf(stderr, "# unexpected error %d (%s) at test line %d\n", err, strerror(-err),
			line);
	__atomic_store_n(&sh->unexpected, line, __ATOMIC_RELAXED);
}

/* Submit loop on @fd (or its own files when @fd < 0) for sh->iters rounds. */
static void submitter(struct shared *sh, int fd_in, unsigned int seed)
{
	static __thread struct vnpu_task t[64];
	int own = fd_in < 0, fd = fd_in, s = -1, ret;

	for (unsigned long i = 0; i < sh->iters; i++) {
		unsigned int r = rand_r(&seed), n = 1 + r % 64;

		if (fd < 0) {
			fd = vnpu_open_dev(r % sh->ndev, O_RDWR);
			if (fd < 0) {
				unexpected(sh, -errno, __LINE__);
				return;
			}
		}
		if (s < 0) {
			s = vnpu_stream_new(fd);
			if (s == -EMFILE) {
				ADD(sh->rejected, 1);
				continue;
			}
			if (s < 0) {
				unexpected(sh, s, __LINE__);
				return;
			}
			ADD(sh->streams, 1);
		}
		for (unsigned int k = 0; k < n; k++)
			vnpu_task_init(&t[k], k % 3 ? "Add_1" : "MatMul_2",
				       k % 3 ? "Add" : "MatMul",
				       k % 5 == 4 ? VNPU_TASK_AI_CPU : VNPU_TASK_AI_CORE, s,
				       1 << (10 + r % 8), 1 << 12);
		ret = vnpu_submit_tasks(fd, t, n, NULL);
		if (ret == 0) {
			ADD(sh->submits, 1);
			ADD(sh->tasks, n);
		} else if (ret == -EAGAIN || ret == -ENOSPC || ret == -ENOENT) {
			/* queue full, or a stream another thread destroyed */
			ADD(sh->rejected, 1);
		} else {
			unexpected(sh, ret, __LINE__);
			return;
		}
		switch (r % 7) {
		case 0: /* a sync that may well time out */
			ret = vnpu_sync_stream(fd, s, 0, 1 + r % 3, NULL);
			if (ret && ret != -ETIMEDOUT && ret != -ENOENT) {
				unexpected(sh, ret, __LINE__);
				return;
			}
			ADD(sh->syncs, 1);
			break;
		case 1: /* destroyed with tasks queued */
			ret = vnpu_stream_del(fd, s);
			if (ret && ret != -ENOENT) {
				unexpected(sh, ret, __LINE__);
				return;
			}
			s = -1;
			break;
		case 2: /* the file closed with work pending */
			if (own) {
				close(fd);
				fd = -1;
				s = -1;
				ADD(sh->reopens, 1);
			}
			break;
		}
	}
	if (s >= 0 && fd >= 0) {
		ret = vnpu_sync_stream(fd, s, 0, 60000, NULL);
		if (ret && ret != -ENOENT)
			unexpected(sh, ret, __LINE__);
	}
	if (own && fd >= 0)
		close(fd);
}

struct worker {
	struct shared *sh;
	int fd;
	unsigned int seed;
	unsigned int dev;
	volatile int poll_fd;
};

static void *submitter_thread(void *arg)
{
	struct worker *w = arg;

	submitter(w->sh, w->fd, w->seed);
	return NULL;
}

/* Poll whatever file descriptor the profiler publishes, closed or not. */
static void *poller_thread(void *arg)
{
	struct worker *w = arg;

	while (!__atomic_load_n(&w->sh->done, __ATOMIC_RELAXED)) {
		struct pollfd pfd = { .fd = w->poll_fd, .events = POLLIN };

		if (pfd.fd < 0) {
			usleep(100);
			continue;
		}
		poll(&pfd, 1, 1);
		if (pfd.revents & (POLLNVAL | POLLHUP))
			ADD(w->sh->poll_races, 1);
	}
	return NULL;
}

/* The child of a fork with the ring mapped: read it, touch the consumer positions. */
static void forked_reader(struct ring *r)
{
	volatile __u64 sum = 0;

	if (r->ctrl->magic != VNPU_RING_MAGIC)
		_exit(1);
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		const struct vnpu_ring_chan *d = ring_chan(r, ch);
		const unsigned char *data = (const unsigned char *)r->base + d->data_offset;

		for (__u64 off = 0; off < 2 * d->data_size; off += 4096)
			sum += data[off];
		/* a no-op store: its own copy of the mapping, the same page */
		__atomic_store_n(ring_cons(r, ch), *ring_cons(r, ch), __ATOMIC_RELEASE);
	}
	(void)sum;
	_exit(0);
}

/* Sessions on one device, started, read, stopped, closed, forked. */
static void *profiler_thread(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	unsigned int seed = w->seed;

	for (unsigned long i = 0; i < sh->iters / 4 + 1; i++) {
		unsigned int r = rand_r(&seed);
		struct vnpu_prof_stats st;
		struct ring ring = { 0 };
		int ret, dupfd;

		ring.fd = vnpu_open_dev(w->dev, O_RDWR);
		if (ring.fd < 0) {
			unexpected(sh, -errno, __LINE__);
			return NULL;
		}
		ret = vnpu_prof_start(ring.fd, r % 3, -1, 4 << (r % 4), 0, &ring.ps);
		if (ret == -EBUSY) {
			ADD(sh->busy, 1);
			close(ring.fd);
			usleep(r % 500);
			continue;
		}
		if (ret) {
			unexpected(sh, ret, __LINE__);
			close(ring.fd);
			return NULL;
		}
		ADD(sh->sessions, 1);
		ret = ring_map(&ring);
		if (ret) {
			unexpected(sh, ret, __LINE__);
			close(ring.fd);
			return NULL;
		}
		dupfd = dup(ring.fd);
		w->poll_fd = dupfd;
		for (int k = 0; k < 20; k++) {
			struct pollfd pfd = { .fd = ring.fd, .events = POLLIN };

			poll(&pfd, 1, 2);
			ring_drain(&ring);
		}
		if (r % 5 == 0) {
			pid_t pid = fork();
			int status;

			if (pid == 0)
				forked_reader(&ring);
			if (pid > 0 && waitpid(pid, &status, 0) == pid &&
			    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
				unexpected(sh, -EIO, __LINE__);
			ADD(sh->forks, 1);
		}
		if (r % 3) {
			ret = vnpu_prof_stop(ring.fd);
			if (ret)
				unexpected(sh, ret, __LINE__);
			ring_drain(&ring);
			if (vnpu_prof_stats(ring.fd, &st) == 0 &&
			    st.session_id == ring.ps.session_id)
				ADD(sh->lost, st.lost);
		}
		/* else: closed with the session running, as a crash would */
		if (ring.bad)
			ADD(sh->bad_ring, 1);
		ADD(sh->records, ring.records);
		/* close both while the poller may be inside poll() on one */
		w->poll_fd = -1;
		close(dupfd);
		ring_unmap(&ring);
		close(ring.fd);
	}
	return NULL;
}

/* delete_module() all along: refused while any file or mapping exists. */
static void *unloader_thread(void *arg)
{
	struct shared *sh = arg;

	while (!__atomic_load_n(&sh->done, __ATOMIC_RELAXED)) {
		int ret = vnpu_module_unload();

		if (ret == 0) {
			/* nothing held it for a moment: put it back, count it a bug */
			unexpected(sh, -EBUSY, __LINE__);
			vnpu_module_restore();
		} else if (ret != -EAGAIN && ret != -EBUSY) {
			unexpected(sh, ret, __LINE__);
		} else {
			ADD(sh->unload_refused, 1);
		}
		usleep(5000);
	}
	return NULL;
}

TEST_F_TIMEOUT(slow, everything_at_once, 3600)
{
	enum { SUBMITTERS = 6, SHARERS = 3, PROCS = 3 };
	struct worker sw[SUBMITTERS + SHARERS], pw[2];
	pthread_t sth[SUBMITTERS + SHARERS], pth[2], poller[2], unloader;
	struct shared *sh;
	double t0, t1;
	pid_t procs[PROCS];
	char what[256];
	int holder;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	sh->ndev = vnpu_param_devices() >= 2 ? 2 : 1;
	sh->iters = vnpu_stress_count(300, 5000);
	/* holds the module while the unloader tries, whatever else closes */
	holder = vnpu_open_dev(0, O_RDONLY);
	ASSERT_GE(holder, 0);
	sh->shared_fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(sh->shared_fd, 0);
	t0 = vnpu_now_s();

	for (int i = 0; i < PROCS; i++) {
		procs[i] = fork();
		ASSERT_GE(procs[i], 0);
		if (procs[i] == 0) {
			submitter(sh, -1, 1000 + i);
			_exit(0);
		}
	}
	ASSERT_EQ(0, pthread_create(&unloader, NULL, unloader_thread, sh));
	for (int i = 0; i < SUBMITTERS + SHARERS; i++) {
		sw[i] = (struct worker){ .sh = sh,
					 .fd = i < SUBMITTERS ? -1 : sh->shared_fd,
					 .seed = 1 + i };
		ASSERT_EQ(0, pthread_create(&sth[i], NULL, submitter_thread, &sw[i]));
	}
	for (int i = 0; i < 2; i++) {
		/* two profilers on one device: they race for it (-EBUSY) */
		pw[i] = (struct worker){ .sh = sh, .seed = 100 + i, .dev = 0, .poll_fd = -1 };
		ASSERT_EQ(0, pthread_create(&pth[i], NULL, profiler_thread, &pw[i]));
		ASSERT_EQ(0, pthread_create(&poller[i], NULL, poller_thread, &pw[i]));
	}

	for (int i = 0; i < SUBMITTERS + SHARERS; i++)
		pthread_join(sth[i], NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(pth[i], NULL);
	for (int i = 0; i < PROCS; i++) {
		int st;

		ASSERT_EQ(procs[i], waitpid(procs[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	sh->done = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(poller[i], NULL);
	pthread_join(unloader, NULL);
	t1 = vnpu_now_s();
	close(sh->shared_fd);
	close(holder);

	EXPECT_EQ(0, sh->unexpected)
	TH_LOG("first unexpected error at test line %d",
					    sh->unexpected);
	EXPECT_EQ(0, sh->bad_ring);
	EXPECT_GT(sh->sessions, 0);
	EXPECT_GT(sh->unload_refused, 0);
	vnpu_objects_settled();
	EXPECT_EQ(0, vnpu_objects_unexpected(what, sizeof(what))) TH_LOG("still live: %s", what);

	/* the devices still work */
	for (unsigned int d = 0; d < sh->ndev; d++) {
		int fd = vnpu_open_dev(d, O_RDWR);
		int s = vnpu_stream_new(fd);
		struct vnpu_task t;

		ASSERT_GE(s, 0);
		vnpu_task_init(&t, "Add_1", "Add", VNPU_TASK_AI_CORE, s, 4096, 4096);
		EXPECT_EQ(0, vnpu_submit_tasks(fd, &t, 1, NULL));
		EXPECT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, NULL));
		close(fd);
	}
	vnpu_figure("concurrency",
		    "threads=%d processes=%d seconds=%.1f submits=%lu tasks=%lu syncs=%lu "
		    "streams=%lu reopens=%lu rejected=%lu",
		    SUBMITTERS + SHARERS + 5, PROCS, t1 - t0, sh->submits, sh->tasks, sh->syncs,
		    sh->streams, sh->reopens, sh->rejected);
	vnpu_figure("concurrency",
		    "sessions=%lu busy=%lu records_consumed=%lu records_lost=%lu forks=%lu "
		    "poll_races=%lu unload_refused=%lu leaks=0",
		    sh->sessions, sh->busy, sh->records, sh->lost, sh->forks, sh->poll_races,
		    sh->unload_refused);
	munmap(sh, sizeof(*sh));
}

TEST_HARNESS_MAIN
