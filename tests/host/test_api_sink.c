// SPDX-License-Identifier: GPL-2.0
/*
 * The host record sink across a collector's end: runtime calls on other
 * threads go on recording while the Profiler stops (or exit() runs the
 * global session's end), and must never touch a sink being freed.
 * This suite is built from the library's sources with AddressSanitizer
 * (tests/Makefile), so a use-after-free is reported, not silently survived.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "hostrec/hostrec.h"
#include "collect/collect.h"

struct recorders {
	atomic_int stop;
	atomic_ulong calls;
};

/* A device of the runtime with stream 0 (hw id 5), and a task on it, called at @start. */
static void fake_launch_at(uint64_t id, uint64_t start)
{
	static const struct vnpu_task task = {
		.op_name = "Add_0",
		.op_type = "Add",
		.task_type = VNPU_TASK_AI_VECTOR_CORE,
		.block_num = 8,
		.n_inputs = 2,
		.n_outputs = 1,
		.tensors = { { .ndims = 2, .dims = { 4, 4 } },
			     { .ndims = 2, .dims = { 4, 4 } },
			     { .ndims = 2, .dims = { 4, 4 } } },
	};
	uint16_t hw_stream[4] = { 5, 0xffff, 0xffff, 0xffff };
	struct nph_device dev = {
		.info = { .max_streams = 4, .max_submit = 4096 },
		.hw_stream = hw_stream,
	};

	nph_launch_record(&dev, &task, 1, &id, start, 0);
}

static void fake_launch(uint64_t id)
{
	fake_launch_at(id, npx_now_ns());
}

static void *record_loop(void *arg)
{
	struct recorders *r = arg;
	uint64_t id = 0;

	while (!atomic_load(&r->stop)) {
		nph_api_record(NPF_API_SYNC, npx_now_ns(), 0, 0);
		/* past 65,536 ids the host flips too */
		fake_launch(id += 97);
		atomic_fetch_add(&r->calls, 1);
	}
	return NULL;
}

struct flusher {
	struct nph_sink *s;
	atomic_int stop;
};

/* The collector's reader thread: flush now and then. */
static void *flush_loop(void *arg)
{
	struct flusher *f = arg;

	while (!atomic_load(&f->stop)) {
		nph_sink_flush(f->s);
		usleep(200);
	}
	return NULL;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static uint64_t tree_bytes;

static int add_size(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	if (flag == FTW_F)
		tree_bytes += (uint64_t)sb->st_size;
	return 0;
}

/* The bytes of the files under @dir */
static uint64_t bytes_under(const char *dir)
{
	tree_bytes = 0;
	nftw(dir, add_size, 16, FTW_PHYS);
	return tree_bytes;
}

/*
 * A call that started before any session recorded (nph_now_ns()
 * gave 0: the hot calls read no clock then) records nothing, not a call
 * from time 0; one with its start records.
 */
TEST(no_record_without_a_start)
{
	char dir[] = "/tmp/npuprof-sink-XXXXXX";
	struct npuprof_error err;
	struct nph_sink *s;
	uint64_t before;

	ASSERT_NE(NULL, mkdtemp(dir));
	EXPECT_EQ(0, nph_now_ns()) TH_LOG("no session records yet");
	ASSERT_EQ(0, nph_sink_create(dir, VNPU_PROF_L2, &s, &err)) TH_LOG("%s", err.msg);
	nph_sink_install(s, NULL, NULL);
	EXPECT_NE(0, nph_now_ns());
	nph_sink_flush(s);
	before = bytes_under(dir); /* what a sink writes of its own (dictionaries) */
	nph_api_record(NPF_API_SYNC, 0, 0, 0);
	fake_launch_at(1, 0);
	nph_sink_flush(s);
	EXPECT_EQ(before, bytes_under(dir));
	nph_api_record(NPF_API_SYNC, npx_now_ns(), 0, 0);
	fake_launch(2);
	nph_sink_flush(s);
	EXPECT_LT(before, bytes_under(dir));
	EXPECT_EQ(0, nph_sink_close(s, NULL, 0, &err)) TH_LOG("%s", err.msg);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Sinks of every level come and go while three threads record in a loop. */
TEST(record_across_finish)
{
	char dir[] = "/tmp/npuprof-sink-XXXXXX";
	struct recorders r = { 0 };
	pthread_t th[3];

	ASSERT_NE(NULL, mkdtemp(dir));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, record_loop, &r));
	for (int round = 0; round < 300; round++) {
		struct flusher f = { 0 };
		struct npuprof_error err;
		pthread_t ft;

		ASSERT_EQ(0, nph_sink_create(dir, round % 3, &f.s, &err));
		nph_sink_install(f.s, NULL, NULL);
		if (round % 4 < 2)
			ASSERT_EQ(0, pthread_create(&ft, NULL, flush_loop, &f));
		usleep(round % 7 * 100);
		if (round % 4 < 2) {
			atomic_store(&f.stop, 1);
			pthread_join(ft, NULL);
		}
		EXPECT_EQ(0, nph_sink_close(f.s, NULL, 0, &err)) TH_LOG("%s", err.msg);
	}
	atomic_store(&r.stop, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	TH_LOG("%lu calls recorded across 300 sinks", (unsigned long)atomic_load(&r.calls));
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The descriptor this process has open on a file whose name contains @part. */
static int fd_named(const char *part)
{
	char link[300], target[4096];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int found = -1;

	while (d && (e = readdir(d))) {
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (strstr(target, part))
			found = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* Read a pipe until its last writer is gone. */
static void *drain_pipe(void *arg)
{
	char buf[65536];

	while (read(*(int *)arg, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

static void *record_many(void *arg)
{
	struct recorders *r = arg;

	for (int i = 0; i < 20000; i++)
		nph_api_record(NPF_API_SYNC, npx_now_ns(), 0, 0);
	atomic_store(&r->stop, 1);
	return NULL;
}

/*
 * Bug 3: a runtime call never waits behind a write() of the API records.
 * The record file is swapped for a pipe nobody reads, so any write of more
 * than a pipe's worth blocks; the recording thread must finish anyway.
 */
TEST(record_never_waits_for_a_write)
{
	char dir[] = "/tmp/npuprof-sink-XXXXXX";
	struct recorders r = { 0 };
	struct flusher f = { 0 };
	struct npuprof_error err;
	int p[2], api_fd;
	pthread_t th, ft, drainer;

	ASSERT_NE(NULL, mkdtemp(dir));
	/* a first record opens the api_event slice */
	ASSERT_EQ(0, nph_sink_create(dir, 1, &f.s, &err));
	nph_sink_install(f.s, NULL, NULL);
	nph_api_record(NPF_API_SYNC, npx_now_ns(), 0, 0);
	nph_sink_flush(f.s);
	api_fd = fd_named("api_event.data.slice_0");
	ASSERT_LE(0, api_fd);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(api_fd, dup2(p[1], api_fd));
	ASSERT_EQ(0, pthread_create(&ft, NULL, flush_loop, &f));
	ASSERT_EQ(0, pthread_create(&th, NULL, record_many, &r));
	for (int i = 0; i < 500 && !atomic_load(&r.stop); i++)
		usleep(10000);
	/* 20,000 records are 800 kB: had the recorder written them, it would wait */
	EXPECT_EQ(1, atomic_load(&r.stop));
	/* let the flusher's writes through, then finish */
	ASSERT_EQ(0, pthread_create(&drainer, NULL, drain_pipe, &p[0]));
	pthread_join(th, NULL);
	atomic_store(&f.stop, 1);
	pthread_join(ft, NULL);
	close(p[1]);
	nph_sink_close(f.s, NULL, 0, &err); /* closes the other write end */
	pthread_join(drainer, NULL);
	close(p[0]);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The thread ids of the api_event records in @dir's slices, in file order. */
static int api_tids(const char *dir, uint32_t *tids, int max)
{
	struct cann_api_event ev;
	char path[4200];
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (e = readdir(d))) {
		FILE *f;

		if (!strstr(e->d_name, "api_event"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		while (f && fread(&ev, sizeof(ev), 1, f) == 1)
			if (n < max)
				tids[n++] = ev.thread_id;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Three calls on this thread. */
static void record_three(void)
{
	for (int i = 0; i < 3; i++)
		nph_api_record(NPF_API_SYNC, npx_now_ns(), 0, 0);
}

/* A sink of @dir installed, and three calls into it: 0 or -1. */
static int sink_and_record_three(const char *dir, struct nph_sink **s, struct npuprof_error *err)
{
	if (nph_sink_create(dir, 1, s, err))
		return -1;
	nph_sink_install(*s, NULL, NULL);
	record_three();
	return 0;
}

static void *record_three_here(void *arg)
{
	*(uint32_t *)arg = (uint32_t)syscall(SYS_gettid);
	record_three();
	return NULL;
}

/*
 * Each record names the thread that made the call: the id is asked of the
 * kernel once per thread and kept, so a second thread has its own, and the
 * child of a fork its own, not its parent's.
 */
TEST(records_name_their_thread)
{
	char dir[] = "/tmp/npuprof-sink-XXXXXX", cdir[] = "/tmp/npuprof-sink-XXXXXX";
	uint32_t tids[16], other = 0, self_tid = (uint32_t)syscall(SYS_gettid);
	struct npuprof_error err;
	struct nph_sink *s;
	pthread_t th;
	int n, status;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_NE(NULL, mkdtemp(cdir));
	ASSERT_EQ(0, sink_and_record_three(dir, &s, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pthread_create(&th, NULL, record_three_here, &other));
	pthread_join(th, NULL);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct nph_sink *cs;

		/* the parent's sink is not the child's: it records into its own */
		if (sink_and_record_three(cdir, &cs, &err) || nph_sink_close(cs, NULL, 0, &err))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, nph_sink_close(s, NULL, 0, &err)) TH_LOG("%s", err.msg);

	n = api_tids(dir, tids, 16);
	ASSERT_EQ(6, n);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(self_tid, tids[i]);
		EXPECT_EQ(other, tids[3 + i]);
	}
	EXPECT_NE(self_tid, other);
	n = api_tids(cdir, tids, 16);
	ASSERT_EQ(3, n);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ((uint32_t)pid, tids[i]);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(cdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TEST_HARNESS_MAIN
