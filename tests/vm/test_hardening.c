// SPDX-License-Identifier: GPL-2.0
/*
 * Driver hardening: one test per defect found in review, each written to
 * fail on the code that had the defect (the item number is in the
 * test's comment).
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "npuprof_nl.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"

/* The group the unprivileged tests' devices are granted to (the udev rule). */
#define GRANTED_GID 4242

/*
 * A STREAM_CREATE argument in a read-only page: the copy in succeeds, the
 * copy out of the new id fails with -EFAULT.
 */
static struct vnpu_stream_create *readonly_create_arg(void)
{
	struct vnpu_stream_create *sc;
	long page = sysconf(_SC_PAGESIZE);

	sc = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sc == MAP_FAILED)
		return NULL;
	memset(sc, 0, sizeof(*sc));
	sc->size = sizeof(*sc);
	if (mprotect(sc, page, PROT_READ)) {
		munmap(sc, page);
		return NULL;
	}
	return sc;
}

/*
 * Item 1: a stream, once published, stays until it is destroyed or its file
 * is released, even when the id cannot be copied out. The old code took it
 * back, which raced with SUBMIT and DESTROY of the same predictable id.
 */
TEST(stream_create_fault_keeps_the_stream)
{
	struct vnpu_stream_create *sc = readonly_create_arg();
	int fd = vnpu_open_dev(0, O_RDWR);

	ASSERT_NE(NULL, sc);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(-1, ioctl(fd, VNPU_IOC_STREAM_CREATE, sc));
	ASSERT_EQ(EFAULT, errno);
	/* the stream exists at the lowest free id, 0, and works */
	EXPECT_EQ(0, vnpu_sync_stream(fd, 0, 0, 1000, NULL));
	EXPECT_EQ(1, vnpu_stream_new(fd));
	EXPECT_EQ(0, vnpu_stream_del(fd, 0));
	EXPECT_EQ(0, vnpu_stream_del(fd, 1));
	close(fd);
	munmap(sc, sysconf(_SC_PAGESIZE));
	EXPECT_EQ(0, vnpu_objects_settled());
}

struct create_race {
	int fd;
	atomic_int stop;
	atomic_ulong destroyed, submitted;
};

/* Destroy the lowest ids, the ones STREAM_CREATE hands out next. */
static void *destroy_low_ids(void *arg)
{
	struct create_race *r = arg;

	for (unsigned int id = 0; !atomic_load(&r->stop); id = (id + 1) % 4)
		if (!vnpu_stream_del(r->fd, id))
			atomic_fetch_add(&r->destroyed, 1);
	return NULL;
}

static void *submit_low_ids(void *arg)
{
	struct create_race *r = arg;
	struct vnpu_task t;

	vnpu_task_init(&t, "Add_race", "Add", VNPU_TASK_AI_CORE, 0, 1000, 4096);
	for (; !atomic_load(&r->stop); t.stream_id = (t.stream_id + 1) % 4)
		if (!vnpu_submit_tasks(r->fd, &t, 1, NULL))
			atomic_fetch_add(&r->submitted, 1);
	return NULL;
}

/*
 * Item 1, the race itself: STREAM_CREATE with an unwritable output while
 * other threads DESTROY and SUBMIT to the id it is about to publish. With
 * the rollback, a destroy in the window freed the stream that the rollback
 * then put again (a double free, or a use-after-free by a queued task);
 * slub_debug and KASAN report it, and the VM runner fails the run.
 */
TEST(stream_create_fault_races_destroy_and_submit)
{
	struct vnpu_stream_create *sc = readonly_create_arg();
	struct create_race r = { .fd = vnpu_open_dev(0, O_RDWR) };
	unsigned long rounds = vnpu_stress_count(20000, 200000);
	pthread_t th[2];
	unsigned long faults = 0, full = 0, other = 0;

	ASSERT_NE(NULL, sc);
	ASSERT_GE(r.fd, 0);
	ASSERT_EQ(0, pthread_create(&th[0], NULL, destroy_low_ids, &r));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, submit_low_ids, &r));
	for (unsigned long i = 0; i < rounds; i++) {
		if (!ioctl(r.fd, VNPU_IOC_STREAM_CREATE, sc))
			other++;
		else if (errno == EFAULT)
			faults++;
		else if (errno == EMFILE) /* the ids past 0 stay taken */
			full++;
		else
			other++;
	}
	atomic_store(&r.stop, 1);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	EXPECT_EQ(0, other);
	EXPECT_LT(0, faults);
	/* every stream created was either destroyed or is still there */
	EXPECT_EQ(0, vnpu_sync_stream(r.fd, 0, VNPU_SYNC_F_ALL_STREAMS, 10000, NULL));
	TH_LOG("%lu creates (%lu EFAULT, %lu EMFILE), %lu destroys, %lu submits", rounds, faults,
	       full,
	       (unsigned long)atomic_load(&r.destroyed), (unsigned long)atomic_load(&r.submitted));
	close(r.fd);
	munmap(sc, sysconf(_SC_PAGESIZE));
	EXPECT_EQ(0, vnpu_objects_settled());
}

/*
 * Item 6: a watermark of the whole data size was accepted, but it could
 * never be reached (a channel holds as little as its size less its
 * largest reservation unread when that no longer fits: four 64-byte logs
 * of a mix task), so a poll(-1) reader slept forever. The watermark in
 * force is capped per channel at what it is sure to hold unread, and a
 * ring filled by a reader that never reads wakes it.
 */
TEST(wakeup_at_the_data_size_wakes)
{
	int fd = vnpu_open_dev(0, O_RDWR), stream;
	struct vnpu_prof_start ps;
	struct pollfd pfd;
	struct vnpu_task t[64];
	long page = sysconf(_SC_PAGESIZE);

	ASSERT_GE(fd, 0);
	stream = vnpu_stream_new(fd);
	ASSERT_GE(stream, 0);
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1, (__u32)page, &ps));
	EXPECT_EQ(page, ps.wakeup_bytes);
	for (int i = 0; i < 64; i++)
		vnpu_task_init(&t[i], "Add_fill", "Add", VNPU_TASK_AI_CORE, stream, 1000, 4096);
	/* 64 tasks at L1 write far more than one page: the ring fills up */
	ASSERT_EQ(0, vnpu_submit_tasks(fd, t, 64, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(fd, stream, 0, 10000, NULL));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 5000));
	EXPECT_TRUE(pfd.revents & POLLIN);
	EXPECT_EQ(0, vnpu_prof_stop(fd));
	close(fd);
}

/*
 * Item 8: a writable mapping of the consumer page must be MAP_SHARED, as
 * bpf_map_mmap() requires: a private one is a copy the kernel never sees.
 */
TEST(writable_consumer_mapping_must_be_shared)
{
	int fd = vnpu_open_dev(0, O_RDWR);
	struct vnpu_prof_start ps;
	long page = sysconf(_SC_PAGESIZE);
	void *m;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 0, 0, &ps));
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, page);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
	if (m != MAP_FAILED)
		munmap(m, page);
	/* read-only private mappings, and the shared writable one, are fine */
	m = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, page);
	EXPECT_NE(MAP_FAILED, m);
	if (m != MAP_FAILED)
		munmap(m, page);
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, page);
	EXPECT_NE(MAP_FAILED, m);
	if (m != MAP_FAILED)
		munmap(m, page);
	EXPECT_EQ(0, vnpu_prof_stop(fd));
	close(fd);
}

/* Submit @n (<= 256) tasks on @stream, their ids to @ids; 0 or -errno. */
static int submit_n(int fd, int stream, unsigned int n, __u64 *ids)
{
	static struct vnpu_task t[256];

	for (unsigned int i = 0; i < n; i++)
		vnpu_task_init(&t[i], "Add_id", "Add", VNPU_TASK_AI_CORE, stream, 1000, 4096);
	return vnpu_submit_tasks(fd, t, n, ids);
}

/* Item 7: a submit that fails leaves the caller's id array alone. */
TEST(failed_submit_leaves_the_ids_alone)
{
	int fd = vnpu_open_dev(0, O_RDWR), stream;
	struct vnpu_task t[2];
	__u64 ids[2] = { 0xaaaaaaaaaaaaaaaaull, 0xaaaaaaaaaaaaaaaaull };

	ASSERT_GE(fd, 0);
	stream = vnpu_stream_new(fd);
	ASSERT_GE(stream, 0);
	vnpu_task_init(&t[0], "Add_ok", "Add", VNPU_TASK_AI_CORE, stream, 1000, 4096);
	vnpu_task_init(&t[1], "Add_bad", "Add", VNPU_TASK_AI_CORE, stream, 1000, 4096);
	t[1].block_num = 0; /* invalid */
	EXPECT_EQ(-EINVAL, vnpu_submit_tasks(fd, t, 2, ids));
	EXPECT_EQ(0xaaaaaaaaaaaaaaaaull, ids[0]);
	EXPECT_EQ(0xaaaaaaaaaaaaaaaaull, ids[1]);
	close(fd);
}

struct ids_race {
	__u64 *ids;
	long page;
	atomic_int stop;
};

/* Make the id page read-only and writable again, over and over. */
static void *flip_ids_page(void *arg)
{
	struct ids_race *r = arg;

	while (!atomic_load(&r->stop)) {
		mprotect(r->ids, r->page, PROT_READ);
		mprotect(r->ids, r->page, PROT_READ | PROT_WRITE);
	}
	return NULL;
}

/* A fixture only for TEST_F_TIMEOUT. */
FIXTURE(race)
{
	int unused;
};

FIXTURE_SETUP(race)
{
}

FIXTURE_TEARDOWN(race)
{
}

/*
 * Item 7, the race: with the id page turned read-only while a submit
 * runs, the old code could queue the tasks and then fail the copy-out of
 * their ids: -EFAULT for tasks that ran. Every -EFAULT must mean "not
 * queued": the tasks the device ran (netlink's tasks_run) are counted
 * against the successes. Batches of 256 make the call long enough for the
 * flipper to run in it (each task's allocation is a preemption point).
 * A round (256 tasks in, run, out) takes about 10 ms under TCG and nearly
 * twice that while the flipper's mprotect()s shoot down TLBs: 1000 rounds
 * take ~20 s, near the harness's default 30 s on a slow host; hence the
 * explicit timeout, sized for make stress's 20000.
 */
TEST_F_TIMEOUT(race, submit_efault_means_nothing_queued, 1200)
{
	struct ids_race r = { .page = sysconf(_SC_PAGESIZE) };
	unsigned long rounds = vnpu_stress_count(1000, 20000), ok = 0, faults = 0;
	const unsigned int batch = 256;
	/* a device of its own, so that tasks_run counts this test's tasks only */
	unsigned int dev = vnpu_param_devices() - 1;
	int fd = vnpu_open_dev(dev, O_RDWR), stream;
	struct npuprof_nl_dev before, after;
	struct npuprof_error err;
	struct npuprof_nl *nl;
	pthread_t th;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, npuprof_nl_open(&nl, &err)) TH_LOG("%s", err.msg);
	stream = vnpu_stream_new(fd);
	ASSERT_GE(stream, 0);
	r.ids = mmap(NULL, r.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r.ids);
	ASSERT_EQ(0, npuprof_nl_get(nl, dev, &before, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pthread_create(&th, NULL, flip_ids_page, &r));
	for (unsigned long i = 0; i < rounds; i++) {
		int ret = submit_n(fd, stream, batch, r.ids);

		if (!ret) {
			ok++;
		} else {
			ASSERT_EQ(-EFAULT, ret);
			faults++;
		}
	}
	atomic_store(&r.stop, 1);
	pthread_join(th, NULL);
	ASSERT_EQ(0, vnpu_sync_stream(fd, stream, 0, 30000, NULL));
	ASSERT_EQ(0, npuprof_nl_get(nl, dev, &after, &err)) TH_LOG("%s", err.msg);
	TH_LOG("%lu submits of %u: %lu ok, %lu EFAULT; %llu tasks run", rounds, batch, ok, faults,
	       (unsigned long long)(after.tasks_run - before.tasks_run));
	EXPECT_EQ(ok * batch, after.tasks_run - before.tasks_run);
	munmap(r.ids, r.page);
	npuprof_nl_close(nl);
	close(fd);
}

/*
 * Item 3: one file's stuck work never blocks another file's launch. File A
 * queues a collective whose partner never arrives and 4095 tasks behind it,
 * its whole quota; file B's launch and sync on the same device, by another
 * user (nobody), must still complete. The old device-wide limit made B's
 * SUBMIT wait for A forever.
 */
TEST(stuck_file_does_not_block_another)
{
	struct vnpu_task t, *behind;
	int a, b, sa, sb, status = -1, pair[2];
	__u32 comm[2] = { 0, 0 };
	pid_t pid;

	if (vnpu_param_devices() < 2)
		SKIP(return, "needs devices=2");
	a = vnpu_open_dev(0, O_RDWR);
	ASSERT_LE(0, a);
	pair[0] = a;
	pair[1] = vnpu_open_dev(1, O_RDWR);
	ASSERT_LE(0, pair[1]);
	ASSERT_EQ(0, vnpu_comm_group(pair, 2, comm));
	sa = vnpu_stream_new(a);
	ASSERT_LE(0, sa);
	vnpu_task_init(&t, "hcom_allReduce_stuck", "AllReduce", VNPU_TASK_COMMUNICATION,
		       (unsigned int)sa, 0, 4096);
	t.comm_op = VNPU_COMM_ALLREDUCE;
	t.comm_id = comm[0]; /* rank 1 never submits its part */
	t.comm_tag = 4242;
	ASSERT_EQ(0, vnpu_submit_tasks(a, &t, 1, NULL));
	behind = calloc(VNPU_MAX_PENDING - 1, sizeof(*behind));
	ASSERT_NE(NULL, behind);
	for (unsigned int i = 0; i < VNPU_MAX_PENDING - 1; i++)
		vnpu_task_init(&behind[i], "behind/Add", "Add", VNPU_TASK_AI_CORE, (unsigned int)sa,
			       1 << 10, 1 << 10);
	ASSERT_EQ(0, vnpu_submit_tasks(a, behind, VNPU_MAX_PENDING - 1, NULL));

	/* another user, another file: its launch and sync, in 10 s at most */
	ASSERT_EQ(0, vnpu_grant_devices(GRANTED_GID));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vnpu_task one;

		alarm(10);
		if (vnpu_become_nobody(GRANTED_GID))
			_exit(5);
		b = vnpu_open_dev(0, O_RDWR);
		sb = b < 0 ? -1 : vnpu_stream_new(b);
		if (sb < 0)
			_exit(2);
		vnpu_task_init(&one, "other/MatMul", "MatMul", VNPU_TASK_AI_CORE, (unsigned int)sb,
			       1 << 20, 1 << 12);
		if (vnpu_submit_tasks(b, &one, 1, NULL))
			_exit(3);
		_exit(vnpu_sync_stream(b, (unsigned int)sb, 0, 5000, NULL) ? 4 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("the other file's launch never returned");
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, vnpu_grant_devices(0));
	/*
	 * Item 2: a submit that waits for room holds no task copies. A's
	 * quota is full; a child that shares A's file submits a full batch,
	 * which can only wait. The device then holds A's 4096 tasks, not
	 * 8192 (before the fix the batch was copied in, then it waited).
	 */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(vnpu_submit_tasks(a, behind, VNPU_MAX_PENDING - 1, NULL) ? 1 : 0);
	usleep(500 * 1000);
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG)) TH_LOG("the full batch did not wait");
	EXPECT_EQ(VNPU_MAX_PENDING, vnpu_object_count("tasks"));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));

	/* A's file goes: its collective is aborted, its tasks dropped */
	close(a);
	close(pair[1]);
	free(behind);
	EXPECT_EQ(0, vnpu_objects_settled());
}

/* ---- item 2: memory accounting ---- */

#define MEMLOCK_LIMIT (1u << 20) /* the child's RLIMIT_MEMLOCK: 256 pages */
/*
 * ring_pages of a small session: 2 + 2 * 32 + 1 + 4 pages charged in all,
 * the ACSQ and PMU channels of 32 pages, TS_TRACK of 1, AICPU of 4
 */
#define SMALL_RING 32

/*
 * Run @fn(tell, go) as nobody (with the group the devices are granted to)
 * in a child: @tell is a pipe to the parent, @go one from it. Returns the
 * child's pid, the parent's ends in *@tell_fd and *@go_fd.
 */
static pid_t as_nobody_start(int (*fn)(int tell, int go), int *tell_fd, int *go_fd)
{
	int up[2], down[2];
	pid_t pid;

	if (pipe(up) || pipe(down))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		if (vnpu_become_nobody(GRANTED_GID))
			_exit(100);
		_exit(fn(up[1], down[0]));
	}
	close(up[1]);
	close(down[0]);
	*tell_fd = up[0];
	*go_fd = down[1];
	return pid;
}

static int wait_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Tell the parent a step is reached, then wait for it to say go on. */
static int rendezvous(int tell, int go)
{
	char c = 's';

	return write(tell, &c, 1) == 1 && read(go, &c, 1) == 1 ? 0 : -1;
}

static int run_small(int fd, unsigned int n);

/* nobody runs 5 tasks on device 0. */
static int nobody_runs_5(int tell, int go)
{
	int fd = vnpu_open_dev(0, O_RDWR);

	return fd >= 0 && !run_small(fd, 5) ? 0 : 1;
}

/* The child's part: every step returns a distinct status on failure. */
static int memlock_child(int tell, int go)
{
	struct rlimit rl = { MEMLOCK_LIMIT, MEMLOCK_LIMIT };
	struct vnpu_prof_start ps;
	int fd, fds[20], i;
	void *maps[4];
	size_t len = 0;

	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 10;
	fd = vnpu_open_dev(0, O_RDWR);
	if (fd < 0)
		return 11;
	/* 1024 data pages, past the 1 MiB limit: refused, nothing allocated */
	if (vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1024, 0, &ps) != -EPERM)
		return 12;
	if (vnpu_prof_start(fd, VNPU_PROF_L1, -1, SMALL_RING, 0, &ps))
		return 13;
	if (vnpu_prof_stop(fd))
		return 14;
	close(fd);

	/* the charge goes back at close: 20 sessions in turn fit in 256 pages */
	for (int i = 0; i < 20; i++) {
		fd = vnpu_open_dev(0, O_RDWR);
		if (fd < 0 || vnpu_prof_start(fd, VNPU_PROF_L1, -1, SMALL_RING, 0, &ps))
			return 20;
		close(fd);
	}

	/*
	 * A stopped session whose ring is unmapped gives the ring back at
	 * once, though its file stays open: 20 files kept, 20 sessions.
	 */
	for (int i = 0; i < 20; i++) {
		void *m;

		fds[i] = vnpu_open_dev(0, O_RDWR);
		if (fds[i] < 0 || vnpu_prof_start(fds[i], VNPU_PROF_L1, -1, SMALL_RING, 0, &ps))
			return 30 + (i > 3);
		m = mmap(NULL, ps.mmap_size, PROT_READ, MAP_SHARED, fds[i], 0);
		if (m == MAP_FAILED)
			return 32;
		if (vnpu_prof_stop(fds[i]))
			return 33;
		munmap(m, ps.mmap_size);
	}
	/* the parent counts the rings now: none */
	if (rendezvous(tell, go))
		return 34;
	for (int i = 0; i < 20; i++)
		close(fds[i]);

	/*
	 * The charge follows the pages: a stopped session's ring that is
	 * still mapped stays charged, after its file starts another one too.
	 * 256 pages hold three 71-page rings, not four.
	 */
	fd = vnpu_open_dev(0, O_RDWR);
	for (i = 0; i < 3; i++) {
		if (vnpu_prof_start(fd, VNPU_PROF_L1, -1, SMALL_RING, 0, &ps))
			return 40;
		len = ps.mmap_size;
		maps[i] = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (maps[i] == MAP_FAILED || vnpu_prof_stop(fd))
			return 41;
	}
	if (vnpu_prof_start(fd, VNPU_PROF_L1, -1, SMALL_RING, 0, &ps) != -EPERM)
		return 42;
	for (i = 0; i < 3; i++)
		if (munmap(maps[i], len))
			return 43;
	i = vnpu_prof_start(fd, VNPU_PROF_L1, -1, SMALL_RING, 0, &ps);
	if (i)
		return 44;
	close(fd);

	/*
	 * A restart gives the stopped ring back before it takes the new one:
	 * two 139-page rings (ring_pages 64) do not fit in 256 pages, one
	 * after the other do.
	 */
	fd = vnpu_open_dev(0, O_RDWR);
	for (i = 0; i < 3; i++)
		if (vnpu_prof_start(fd, VNPU_PROF_L1, -1, 64, 0, &ps) || vnpu_prof_stop(fd))
			return 50 + i;
	close(fd);
	return 0;
}

/*
 * Item 2: ring pages are charged to the user against RLIMIT_MEMLOCK (the
 * mlock_kb allowance set to 0 here), refused with -EPERM past it, given
 * back at close, and freed as soon as a stopped session's ring has no
 * mapping left. Before the fix nothing was charged (the first step got a
 * session), and the 20 stopped rings stayed until their files closed.
 */
TEST(ring_memory_is_charged_and_given_back)
{
	int tell, go, status;
	char c = 'g';
	pid_t pid;

	ASSERT_EQ(0, vnpu_grant_devices(GRANTED_GID));
	EXPECT_EQ(0, vnpu_param_set("mlock_kb", "0"));
	pid = as_nobody_start(memlock_child, &tell, &go);
	ASSERT_LT(0, pid);
	/* at the rendezvous: 20 stopped sessions, no ring left */
	if (read(tell, &c, 1) == 1) {
		EXPECT_EQ(0, vnpu_object_count("rings"));
		EXPECT_EQ(20, vnpu_object_count("sessions"));
		ASSERT_EQ(1, write(go, &c, 1));
	}
	status = wait_status(pid);
	EXPECT_EQ(0, status) TH_LOG("the child failed at step %d", status);
	close(tell);
	close(go);
	EXPECT_EQ(0, vnpu_param_set("mlock_kb", "65536"));
	EXPECT_EQ(0, vnpu_grant_devices(0));
	EXPECT_EQ(0, vnpu_objects_settled());
}

/* ---- item 5: isolation ---- */

/* Queue @n small tasks on a new stream of @fd and wait for them; 0 or -1. */
static int run_small(int fd, unsigned int n)
{
	struct vnpu_task t[16];
	int s = vnpu_stream_new(fd);

	if (s < 0 || n > 16)
		return -1;
	for (unsigned int i = 0; i < n; i++)
		vnpu_task_init(&t[i], "iso/Add", "Add", VNPU_TASK_AI_CORE, (unsigned int)s, 1 << 10,
			       1 << 10);
	if (vnpu_submit_tasks(fd, t, n, NULL) ||
	    vnpu_sync_stream(fd, (unsigned int)s, 0, 10000, NULL))
		return -1;
	return vnpu_stream_del(fd, (unsigned int)s) ? -1 : 0;
}

/*
 * nobody's session on device 0; in the middle of it root runs 10 tasks on
 * the device and nobody 5. Returns the tasks the session logged, or a
 * negative step.
 */
static int nobody_session(int tell, int go)
{
	struct vnpu_prof_start ps;
	int fd = vnpu_open_dev(0, O_RDWR);
	long long logs;

	if (fd < 0 || vnpu_prof_start(fd, VNPU_PROF_L0, -1, 0, 0, &ps))
		return 201;
	if (rendezvous(tell, go)) /* root runs its tasks meanwhile */
		return 202;
	if (run_small(fd, 5))
		return 203;
	if (vnpu_prof_stop(fd))
		return 204;
	logs = vnpu_chan_produced(fd, &ps, VNPU_CH_ACSQ);
	if (logs < 0)
		return 205;
	/* exit statuses are 8 bits: the count in tasks */
	return (int)(logs / 2);
}

static int nobody_session_counts(struct __test_metadata *_metadata)
{
	int tell, go, fd;
	char c = 'g';
	pid_t pid = as_nobody_start(nobody_session, &tell, &go);

	if (pid <= 0)
		return -1;
	if (read(tell, &c, 1) == 1) {
		fd = vnpu_open_dev(0, O_RDWR);
		EXPECT_EQ(0, run_small(fd, 10));
		close(fd);
		EXPECT_EQ(1, write(go, &c, 1));
	}
	close(tell);
	close(go);
	return wait_status(pid);
}

/*
 * Item 5: a session records other users' work only when its starter is
 * perfmon_capable(), or with prof_paranoid=0. Before the fix nobody's
 * session recorded root's 10 tasks too (15 in all).
 */
TEST(sessions_record_only_their_users_work)
{
	struct vnpu_prof_start ps;
	int fd, tell, go;
	pid_t pid;

	ASSERT_EQ(0, vnpu_grant_devices(GRANTED_GID));
	EXPECT_EQ(5, nobody_session_counts(_metadata)) TH_LOG("nobody's session saw root's work");
	ASSERT_EQ(0, vnpu_param_set("prof_paranoid", "0"));
	EXPECT_EQ(15, nobody_session_counts(_metadata)) TH_LOG("prof_paranoid=0: every user's");
	ASSERT_EQ(0, vnpu_param_set("prof_paranoid", "1"));

	/* root (CAP_PERFMON) records nobody's work */
	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 0, 0, &ps));
	pid = as_nobody_start(nobody_runs_5, &tell, &go);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wait_status(pid));
	close(tell);
	close(go);
	ASSERT_EQ(0, vnpu_prof_stop(fd));
	EXPECT_EQ(10, vnpu_chan_produced(fd, &ps, VNPU_CH_ACSQ));
	close(fd);
	EXPECT_EQ(0, vnpu_grant_devices(0));
}

/* Item 2: a START on a busy device is refused before it allocates. */
TEST(busy_start_allocates_nothing)
{
	struct vnpu_prof_start ps;
	int a = vnpu_open_dev(0, O_RDWR), b = vnpu_open_dev(0, O_RDWR);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, vnpu_prof_start(a, VNPU_PROF_L1, -1, 0, 0, &ps));
	ASSERT_EQ(0, vnpu_fail_alloc_set(1));
	EXPECT_EQ(-EBUSY, vnpu_prof_start(b, VNPU_PROF_L1, -1, 0, 0, &ps));
	EXPECT_EQ(1, vnpu_fail_alloc_left()) TH_LOG("the refused START allocated");
	ASSERT_EQ(0, vnpu_fail_alloc_set(0));
	close(b);
	close(a);
}

TEST_HARNESS_MAIN
