/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-VM suites: device nodes, module (re)loading.
 * The VM runner exports VNPU_KO (the module file) and VNPU_MODPARAMS (the
 * parameters it was loaded with).
 */
#ifndef VNPU_TEST_H
#define VNPU_TEST_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vnpu.h"
#include "vnpu_prof.h"

/*
 * The limits of this tree's module, which the device reports in struct
 * vnpu_info (uapi 0.5 on); test_devices.limits checks that it does.
 */
#define VNPU_MAX_STREAMS 64
#define VNPU_MAX_SUBMIT 4096
#define VNPU_MAX_PENDING 4096
#define VNPU_RING_DEFAULT_PAGES 1024
#define VNPU_RING_MAX_PAGES 8192
#define VNPU_MAX_COMMS 16

static inline int vnpu_open_dev(unsigned int id, int flags)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/vnpu%u", id);
	return open(path, flags | O_CLOEXEC);
}

static inline int vnpu_get_info(int fd, struct vnpu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return ioctl(fd, VNPU_IOC_GET_INFO, info);
}

static inline int vnpu_module_loaded(void)
{
	return access("/sys/module/vnpu", F_OK) == 0;
}

/* Load vnpu.ko with @params; returns 0 or -errno. */
static inline int vnpu_module_load(const char *params)
{
	const char *ko = getenv("VNPU_KO");
	int fd, ret = 0;

	if (!ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* Unload vnpu; returns 0 or -errno (-EBUSY/-EAGAIN while in use). */
static inline int vnpu_module_unload(void)
{
	if (syscall(SYS_delete_module, "vnpu", O_NONBLOCK))
		return -errno;
	return 0;
}

/*
 * Unload vnpu once nothing holds it: the last fput() of a file closed just
 * before may still be on its way, so retry EBUSY/EAGAIN for up to 5 s.
 */
static inline int vnpu_module_unload_settled(void)
{
	int ret = 0;

	for (int i = 0; i < 50; i++) {
		ret = vnpu_module_unload();
		if (ret != -EBUSY && ret != -EAGAIN)
			break;
		usleep(100000);
	}
	return ret;
}

/*
 * Fork a child that runs @fn(@ready_fd, @arg) and never returns: @fn
 * writes one byte to @ready_fd once it is in the middle of its work (the
 * moment a test wants to kill it). Returns the child's pid after that
 * byte, or -1 if the child died first (it is then reaped).
 */
static inline pid_t vnpu_fork_ready(void (*fn)(int ready_fd, void *arg), void *arg)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		fn(p[1], arg);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

/* Seconds on CLOCK_MONOTONIC, for timing what a test does. */
static inline double vnpu_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define VNPU_NOBODY 65534

/*
 * In a forked child: become @uid (its own gid too), with @gid as the only
 * supplementary group (0: none). 0, or -1 if any step failed.
 */
static inline int vnpu_become_user(uid_t uid, gid_t gid)
{
	gid_t groups[1] = { gid };

	if (setgroups(gid ? 1 : 0, groups) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid) || geteuid() != uid)
		return -1;
	return 0;
}

static inline int vnpu_become_nobody(gid_t gid)
{
	return vnpu_become_user(VNPU_NOBODY, gid);
}

/* Write a module parameter (root); 0 or -1. */
static inline int vnpu_param_set(const char *name, const char *value)
{
	char path[96];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fputs(value, f) < 0 ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* Put the module back as the runner loaded it, for the suites that follow. */
static inline int vnpu_module_restore(void)
{
	const char *params = getenv("VNPU_MODPARAMS");

	if (vnpu_module_loaded())
		return 0;
	return vnpu_module_load(params ? params : "");
}

static inline unsigned int vnpu_param_devices(void)
{
	unsigned int n = 0;
	FILE *f = fopen("/sys/module/vnpu/parameters/devices", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* Give group @gid (0: root only) every device node, as a udev rule would. */
static inline int vnpu_grant_devices(gid_t gid)
{
	unsigned int n = vnpu_param_devices();

	for (unsigned int i = 0; i < n; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/vnpu%u", i);
		if (chown(path, 0, gid))
			return -1;
	}
	return 0;
}

/*
 * Divide a hot loop's count by VNPU_TEST_SCALE (set for the debug kernel,
 * where KASAN and kmemleak make each call tens of times slower), at least 1.
 */
static inline unsigned long vnpu_scaled(unsigned long n)
{
	const char *s = getenv("VNPU_TEST_SCALE");
	unsigned long div = s ? strtoul(s, NULL, 10) : 1;

	if (div < 1)
		div = 1;
	return n / div ? n / div : 1;
}

/*
 * Iterations of a reliability test: @quick in make check (divided by
 * VNPU_TEST_SCALE on the debug kernel), @full under make stress, which sets
 * VNPU_STRESS=1 (docs/reliability.md).
 */
static inline unsigned long vnpu_stress_count(unsigned long quick, unsigned long full)
{
	const char *s = getenv("VNPU_STRESS");

	if (s && strcmp(s, "1") == 0)
		return full;
	return vnpu_scaled(quick);
}

static inline int vnpu_stress_mode(void)
{
	const char *s = getenv("VNPU_STRESS");

	return s && strcmp(s, "1") == 0;
}

/*
 * The fuzzers' random numbers: splitmix64, so that a run replays from its
 * seed. VNPU_FUZZ_SEED is a number, or "time" for a new one; else @dflt.
 */
static inline __u64 vnpu_fuzz_seed(__u64 dflt)
{
	const char *s = getenv("VNPU_FUZZ_SEED");

	if (s && strcmp(s, "time") == 0)
		return (__u64)time(NULL) ^ (__u64)getpid() << 32;
	if (s && *s)
		return strtoull(s, NULL, 0);
	return dflt;
}

static inline __u64 vnpu_rnd64(__u64 *state)
{
	__u64 x = (*state += 0x9e3779b97f4a7c15ull);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* 0 .. @n - 1 (0 for 0) */
static inline unsigned int vnpu_rnd(__u64 *state, unsigned int n)
{
	return n ? (unsigned int)(vnpu_rnd64(state) % n) : 0;
}

/* true @pct times in 100 */
static inline int vnpu_chance(__u64 *state, unsigned int pct)
{
	return vnpu_rnd(state, 100) < pct;
}

/*
 * A figure for make stress's table: one TAP comment line
 * "# figure: AREA key=value ...". tools/stress.sh collects them.
 */
#define vnpu_figure(area, fmt, ...)                                    \
	do {                                                           \
		printf("# figure: %s " fmt "\n", area, ##__VA_ARGS__); \
		fflush(stdout);                                        \
	} while (0)

/* kmod/vnpu_debugfs.c: live objects and the allocation fault knob */
#define VNPU_DEBUGFS "/sys/kernel/debug/vnpu"

/*
 * Live objects the module holds, all kinds summed; -1 if debugfs is not
 * there. @what, if not NULL, gets the file's text ("files 0\nstreams 0...").
 */
static inline long vnpu_objects_live(char *what, size_t len)
{
	char buf[256], name[32];
	long sum = 0, n;
	int off = 0, used;
	FILE *f = fopen(VNPU_DEBUGFS "/objects", "r");

	if (!f)
		return -1;
	buf[0] = 0;
	while (fscanf(f, "%31s %ld", name, &n) == 2) {
		sum += n;
		used = snprintf(buf + off, sizeof(buf) - off, "%s %ld ", name, n);
		if (used > 0 && off + used < (int)sizeof(buf))
			off += used;
	}
	fclose(f);
	if (what)
		snprintf(what, len, "%s", buf);
	return sum;
}

/* Live objects of one kind ("files", "streams", "tasks", "comms"...), or -1. */
static inline long vnpu_object_count(const char *kind)
{
	char name[32];
	long n, found = -1;
	FILE *f = fopen(VNPU_DEBUGFS "/objects", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", name, &n) == 2)
		if (!strcmp(name, kind))
			found = n;
	fclose(f);
	return found;
}

/*
 * Live objects that should be gone once every file is closed: all of them
 * (a rendezvous lives while a task does, a communicator while a handle
 * does). -1 without debugfs.
 */
static inline long vnpu_objects_unexpected(char *what, size_t len)
{
	return vnpu_objects_live(what, len);
}

/*
 * vnpu_objects_unexpected() once the module's objects have drained: they
 * go asynchronously, at most 2 s after the last close.
 */
static inline long vnpu_objects_settled(void)
{
	long n = -1;

	for (int i = 0; i < 200; i++) {
		n = vnpu_objects_unexpected(NULL, 0);
		if (n <= 0)
			return n;
		usleep(10000);
	}
	return n;
}

/* Arm (n > 0) or disarm (0) the failure of the module's nth allocation. */
static inline int vnpu_fail_alloc_set(unsigned long n)
{
	FILE *f = fopen(VNPU_DEBUGFS "/fail_alloc", "w");
	int ret;

	if (!f)
		return -errno;
	ret = fprintf(f, "%lu\n", n) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static inline long vnpu_fail_alloc_left(void)
{
	FILE *f = fopen(VNPU_DEBUGFS "/fail_alloc", "r");
	long n = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/*
 * Run a shell command line; returns its exit status (128 + N if killed by
 * signal N, -1 if it could not start), its output (both streams, as much as
 * fits) in @out when not NULL. The rest of the output is drained, so the
 * command never blocks on a full pipe.
 */
static inline int vnpu_sh(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int vnpu_sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[8192], sink[4096];
	size_t n = 0;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out) {
		while (n < len - 1) {
			size_t k = fread(out + n, 1, len - 1 - n, p);

			if (!k)
				break;
			n += k;
		}
		out[n] = 0;
	}
	while (fread(sink, 1, sizeof(sink), p) > 0)
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Keep a copy of PROF folder @prof under /vnpu-results/layout/@name, where
 * the VM runner collects results, for make check-msprof (nothing outside
 * the runner).
 */
static inline void vnpu_keep_prof(const char *prof, const char *name)
{
	struct stat st;

	if (stat("/vnpu-results", &st) || !S_ISDIR(st.st_mode))
		return;
	vnpu_sh(NULL, 0, "mkdir -p /vnpu-results/layout/%s && cp -a %s /vnpu-results/layout/%s/",
		name, prof, name);
}

/* Create a stream; returns its id or -errno. */
static inline int vnpu_stream_new(int fd)
{
	struct vnpu_stream_create sc = { .size = sizeof(sc) };

	if (ioctl(fd, VNPU_IOC_STREAM_CREATE, &sc))
		return -errno;
	return (int)sc.stream_id;
}

static inline int vnpu_stream_del(int fd, unsigned int id)
{
	struct vnpu_stream_destroy sd = { .size = sizeof(sd), .stream_id = id };

	return ioctl(fd, VNPU_IOC_STREAM_DESTROY, &sd) ? -errno : 0;
}

/* A minimal valid task: @type on @stream with the given work. */
static inline void vnpu_task_init(struct vnpu_task *t, const char *name, const char *type,
				  unsigned int task_type, unsigned int stream, __u64 flops,
				  __u64 bytes)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->op_name, sizeof(t->op_name), "%s", name);
	snprintf(t->op_type, sizeof(t->op_type), "%s", type);
	t->task_type = task_type;
	t->stream_id = stream;
	t->block_num = 1;
	t->flops = flops;
	t->bytes = bytes;
}

/* Add a tensor (input before any output) to @t. */
static inline void vnpu_task_tensor(struct vnpu_task *t, int output, unsigned int dtype,
				    unsigned int ndims, const __u64 *dims)
{
	struct vnpu_tensor *x = &t->tensors[t->n_inputs + t->n_outputs];

	x->dtype = dtype;
	x->format = VNPU_FMT_ND;
	x->ndims = ndims;
	for (unsigned int i = 0; i < ndims; i++)
		x->dims[i] = dims[i];
	if (output)
		t->n_outputs++;
	else
		t->n_inputs++;
}

/*
 * Make a communicator of @n ranks, rank i being the file @fds[i] (each on
 * its own device): fds[0] creates it, the others join with its key. Each
 * file's handle in @ids[i]. 0 or -errno.
 */
static inline int vnpu_comm_group(const int *fds, unsigned int n, __u32 *ids)
{
	struct vnpu_comm_init ci = {
		.size = sizeof(ci),
		.flags = VNPU_COMM_F_CREATE,
		.nranks = n,
	};

	for (unsigned int i = 0; i < n; i++) {
		/* the same struct again: the key it returned is the next input */
		ci.rank = i;
		if (ioctl(fds[i], VNPU_IOC_COMM_INIT, &ci))
			return -errno;
		ids[i] = ci.comm_id;
		ci.flags = 0;
	}
	return 0;
}

/* Submit @n tasks; returns 0 or -errno. @ids may be NULL. */
/*
 * Submit @n tasks as one batch; *@submit_time (if not NULL) gets the
 * device time of the submission, before which none of them starts.
 */
static inline int vnpu_submit_at(int fd, const struct vnpu_task *tasks, unsigned int n, __u64 *ids,
				 __u64 *submit_time)
{
	struct vnpu_submit sub = {
		.size = sizeof(sub),
		.tasks = (__u64)(unsigned long)tasks,
		.task_ids = (__u64)(unsigned long)ids,
		.count = n,
		.task_size = sizeof(*tasks),
	};

	if (ioctl(fd, VNPU_IOC_SUBMIT, &sub))
		return -errno;
	if (submit_time)
		*submit_time = sub.submit_time;
	return sub.submitted == n ? 0 : -EIO;
}

static inline int vnpu_submit_tasks(int fd, const struct vnpu_task *tasks, unsigned int n,
				    __u64 *ids)
{
	return vnpu_submit_at(fd, tasks, n, ids, NULL);
}

/* Wait for @stream (or all with VNPU_SYNC_F_ALL_STREAMS); 0 or -errno. */
static inline int vnpu_sync_stream(int fd, unsigned int stream, unsigned int flags,
				   unsigned int timeout_ms, struct vnpu_sync *out)
{
	struct vnpu_sync sy = {
		.size = sizeof(sy), .flags = flags, .stream_id = stream, .timeout_ms = timeout_ms
	};

	int ret = ioctl(fd, VNPU_IOC_SYNC, &sy) ? -errno : 0;

	if (out)
		*out = sy;
	return ret;
}

/*
 * Start a profiling session: @group < 0 for the default metric group,
 * @pages and @wakeup 0 for the defaults. 0 or -errno; *@ps as returned.
 */
static inline int vnpu_prof_start(int fd, __u32 level, int group, __u32 pages, __u32 wakeup,
				  struct vnpu_prof_start *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->size = sizeof(*ps);
	ps->flags = VNPU_PROF_F_CHANNELS;
	ps->level = level;
	if (group >= 0) {
		ps->flags |= VNPU_PROF_F_METRIC_GROUP;
		ps->metric_group = group;
	}
	ps->ring_pages = pages;
	ps->wakeup_bytes = wakeup;
	return ioctl(fd, VNPU_IOC_PROF_START, ps) ? -errno : 0;
}

static inline int vnpu_prof_stop(int fd)
{
	struct vnpu_prof_stop st = { .size = sizeof(st) };

	return ioctl(fd, VNPU_IOC_PROF_STOP, &st) ? -errno : 0;
}

static inline int vnpu_prof_stats(int fd, struct vnpu_prof_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(fd, VNPU_IOC_PROF_STATS, st) ? -errno : 0;
}

/*
 * The descriptor of channel @ch of @fd's session (running or stopped, its
 * ring not given back), read from a mapping of its own: 0 or -errno.
 */
static inline int vnpu_chan_desc(int fd, const struct vnpu_prof_start *ps, int ch,
				 struct vnpu_ring_chan *out)
{
	const struct vnpu_ring_ctrl *c;
	void *m;

	m = mmap(NULL, ps->mmap_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	c = m;
	memcpy(out, (const char *)m + c->chan_offset + ch * sizeof(*out), sizeof(*out));
	munmap(m, ps->mmap_size);
	return 0;
}

/* Records channel @ch of @fd's session produced (vnpu_chan_desc()); -errno if unmapped. */
static inline long long vnpu_chan_produced(int fd, const struct vnpu_prof_start *ps, int ch)
{
	struct vnpu_ring_chan d;
	int ret = vnpu_chan_desc(fd, ps, ch, &d);

	return ret ? ret : (long long)d.produced;
}

#endif /* VNPU_TEST_H */
