// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints: the vnpu events through tracefs (exact counts and fields for
 * a known workload, profiling sessions and ring loss), npuprof-top's per op
 * type counts (tp_btf, raw_tp, the device filter), and perf record -e
 * 'vnpu:*' with Debian's perf (skipped when it is not there).
 *
 * The known workload: 10 AI Core tasks, 7 MatMul and 3 Add, in one batch
 * on one fresh stream of /dev/vnpu0.
 */
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"
#include "vnpu_prof.h"

#define N_TASKS 10
#define N_MATMUL 7
#define N_ADD 3
#define MAX_EVENTS 4096
#define TOP_START_MS 120000 /* BTF parsing and BPF loading under TCG */
#define TOP_END_MS 60000

/* The op type of the workload's task @i: 3 Adds among 7 MatMuls. */
static const char *work_op(int i)
{
	return i == 2 || i == 5 || i == 8 ? "Add" : "MatMul";
}

/* Submit the workload on a new stream of @fd and wait for it; 0 or -errno. */
static int run_workload(int fd, __u64 *ids)
{
	struct vnpu_task t[N_TASKS];
	int s = vnpu_stream_new(fd), ret;

	if (s < 0)
		return s;
	for (int i = 0; i < N_TASKS; i++)
		vnpu_task_init(&t[i], work_op(i), work_op(i), VNPU_TASK_AI_CORE, s,
			       !strcmp(work_op(i), "MatMul") ? 1ull << 30 : 1 << 20, 1 << 20);
	ret = vnpu_submit_tasks(fd, t, N_TASKS, ids);
	if (!ret)
		ret = vnpu_sync_stream(fd, s, 0, 30000, NULL);
	return ret;
}

/* ---- tracefs ---- */

static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[128];

	for (unsigned int i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/vnpu/enable", dirs[i]);
		if (!access(path, W_OK))
			return dirs[i];
	}
	return NULL;
}

static int tracefs_write(const char *dir, const char *file, const char *val)
{
	size_t n = strlen(val);
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%.200s/%.200s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (n && write(fd, val, n) != (ssize_t)n)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Read all of @fd (tracefs files have no size) into a NUL-terminated buffer. */
static char *read_fd(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;

	while (buf) {
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				break;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			buf[len] = 0;
			return buf;
		}
		len += n;
	}
	free(buf);
	return NULL;
}

static char *tracefs_read(const char *dir, const char *file)
{
	char path[512], *buf;
	int fd;

	snprintf(path, sizeof(path), "%.200s/%.200s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = read_fd(fd);
	close(fd);
	return buf;
}

/* One vnpu event as printed by its TP_printk (tracefs or perf script). */
struct ev {
	char name[32];
	unsigned int dev, stream, blocks, qdepth, session, group;
	unsigned long long task, start, end, dur, produced, lost;
	char type[32], op[32], level[8];
};

/* Fill @e from "name: key=value ..." starting at @p (one line). */
static void ev_parse(struct ev *e, const char *p, const char *eol)
{
	char tok[96];
	int n;

	memset(e, 0, sizeof(*e));
	sscanf(p, "%31[a-z_]", e->name);
	p = strchr(p, ':');
	while (p && p < eol) {
		p += strspn(p, ": ");
		if (p >= eol || sscanf(p, "%95[^ \n]%n", tok, &n) != 1)
			break;
		p += n;
		sscanf(tok, "dev=%u", &e->dev);
		sscanf(tok, "task=%llu", &e->task);
		sscanf(tok, "stream=%u", &e->stream);
		sscanf(tok, "type=%31s", e->type);
		sscanf(tok, "op_type=%31s", e->op);
		sscanf(tok, "blocks=%u", &e->blocks);
		sscanf(tok, "start=%llu", &e->start);
		sscanf(tok, "end=%llu", &e->end);
		sscanf(tok, "duration_ns=%llu", &e->dur);
		sscanf(tok, "qdepth=%u", &e->qdepth);
		sscanf(tok, "session=%u", &e->session);
		sscanf(tok, "level=%7s", e->level);
		sscanf(tok, "group=%u", &e->group);
		sscanf(tok, "produced=%llu", &e->produced);
		sscanf(tok, "lost=%llu", &e->lost);
	}
}

/* The vnpu events of a trace or perf script output, in order. */
static int ev_parse_all(const char *buf, struct ev *evs, int max)
{
	const char *line = buf, *eol, *p;
	int n = 0;

	for (; *line && n < max; line = *eol ? eol + 1 : eol) {
		eol = strchrnul(line, '\n');
		if (*line == '#')
			continue;
		/* "  vnpu_task_end: ..." (tracefs), "vnpu:vnpu_task_end: ..." (perf) */
		p = strstr(line, " vnpu_");
		if (!p || p > eol)
			p = strstr(line, ":vnpu_");
		if (!p || p > eol)
			continue;
		ev_parse(&evs[n++], p + 1, eol);
	}
	return n;
}

static int ev_count(const struct ev *evs, int n, const char *name, int dev, const char *op)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(evs[i].name, name) && (dev < 0 || evs[i].dev == (unsigned int)dev) &&
		    (!op || !strcmp(evs[i].op, op)))
			c++;
	return c;
}

/* The one event @name of task @id; NULL if there is none or several. */
static const struct ev *ev_task(const struct ev *evs, int n, const char *name,
				unsigned long long id)
{
	const struct ev *found = NULL;

	for (int i = 0; i < n; i++) {
		if (strcmp(evs[i].name, name) || evs[i].task != id || evs[i].dev != 0)
			continue;
		if (found)
			return NULL;
		found = &evs[i];
	}
	return found;
}

/* Check the task events of the workload with task ids @ids in @evs. */
static void check_task_events(struct __test_metadata *_metadata, const struct ev *evs, int n,
			      const __u64 *ids)
{
	unsigned long long prev_end = 0;

	EXPECT_EQ(N_TASKS, ev_count(evs, n, "vnpu_task_submit", 0, NULL));
	EXPECT_EQ(N_MATMUL, ev_count(evs, n, "vnpu_task_submit", 0, "MatMul"));
	EXPECT_EQ(N_ADD, ev_count(evs, n, "vnpu_task_submit", 0, "Add"));
	EXPECT_EQ(N_TASKS, ev_count(evs, n, "vnpu_task_start", 0, NULL));
	EXPECT_EQ(N_MATMUL, ev_count(evs, n, "vnpu_task_start", 0, "MatMul"));
	EXPECT_EQ(N_ADD, ev_count(evs, n, "vnpu_task_start", 0, "Add"));
	EXPECT_EQ(N_TASKS, ev_count(evs, n, "vnpu_task_end", 0, NULL));
	EXPECT_EQ(N_MATMUL, ev_count(evs, n, "vnpu_task_end", 0, "MatMul"));
	EXPECT_EQ(N_ADD, ev_count(evs, n, "vnpu_task_end", 0, "Add"));

	for (int i = 0; i < N_TASKS; i++) {
		const struct ev *sub = ev_task(evs, n, "vnpu_task_submit", ids[i]);
		const struct ev *st = ev_task(evs, n, "vnpu_task_start", ids[i]);
		const struct ev *end = ev_task(evs, n, "vnpu_task_end", ids[i]);

		ASSERT_NE(NULL, sub) TH_LOG("task %llu: no single submit event", ids[i]);
		ASSERT_NE(NULL, st) TH_LOG("task %llu: no single start event", ids[i]);
		ASSERT_NE(NULL, end) TH_LOG("task %llu: no single end event", ids[i]);
		EXPECT_STREQ(work_op(i), sub->op);
		EXPECT_STREQ(work_op(i), st->op);
		EXPECT_STREQ(work_op(i), end->op);
		EXPECT_STREQ("AI_CORE", sub->type);
		EXPECT_STREQ("AI_CORE", end->type);
		EXPECT_EQ(1, sub->blocks);
		/* one stream for all, queued in one batch before any ran */
		EXPECT_EQ(sub->stream, st->stream);
		EXPECT_EQ(sub->stream, end->stream);
		EXPECT_EQ(i + 1, sub->qdepth);
		EXPECT_EQ(N_TASKS - i, st->qdepth);
		EXPECT_EQ(N_TASKS - i - 1, end->qdepth);
		/* durations, and in order within the stream */
		EXPECT_GT(st->dur, 0);
		EXPECT_EQ(st->dur, end->dur);
		EXPECT_GT(end->end, end->start);
		EXPECT_EQ(st->start, end->start);
		EXPECT_EQ(st->end, end->end);
		EXPECT_GE(end->start, prev_end);
		prev_end = end->end;
	}
}

FIXTURE(trace)
{
	const char *dir;
	int fd;
	struct ev *evs;
};

FIXTURE_SETUP(trace)
{
	self->dir = tracefs_dir();
	self->evs = calloc(MAX_EVENTS, sizeof(*self->evs));
	ASSERT_NE(NULL, self->evs);
	self->fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(trace)
{
	if (self->dir) {
		tracefs_write(self->dir, "events/vnpu/enable", "0");
		tracefs_write(self->dir, "trace", "");
	}
	close(self->fd);
	free(self->evs);
}

/* Clear the buffer and enable every vnpu event. */
static int trace_on(const char *dir)
{
	int ret = tracefs_write(dir, "events/vnpu/enable", "0");

	if (!ret)
		ret = tracefs_write(dir, "trace", "");
	if (!ret)
		ret = tracefs_write(dir, "events/vnpu/enable", "1");
	if (!ret)
		ret = tracefs_write(dir, "tracing_on", "1");
	return ret;
}

TEST_F(trace, events_are_listed)
{
	static const char *const names[] = { "vnpu_task_submit",  "vnpu_task_start",
					     "vnpu_task_end",	  "vnpu_session_start",
					     "vnpu_session_stop", "vnpu_records_lost" };
	char path[256];

	if (!self->dir)
		SKIP(return, "no tracefs with events/vnpu");
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *fmt;

		snprintf(path, sizeof(path), "events/vnpu/%s/format", names[i]);
		fmt = tracefs_read(self->dir, path);
		ASSERT_NE(NULL, fmt) TH_LOG("%s", path);
		/* scalars and a copied string: no pointer in the entry */
		EXPECT_EQ(NULL, strstr(fmt, "char *"));
		if (strstr(names[i], "task_"))
			EXPECT_NE(NULL, strstr(fmt, "__data_loc char[] op_type"));
		free(fmt);
	}
}

TEST_F(trace, task_events)
{
	__u64 ids[N_TASKS];
	char *buf;
	int n;

	if (!self->dir)
		SKIP(return, "no tracefs with events/vnpu");
	ASSERT_EQ(0, trace_on(self->dir));
	ASSERT_EQ(0, run_workload(self->fd, ids));
	ASSERT_EQ(0, tracefs_write(self->dir, "events/vnpu/enable", "0"));
	buf = tracefs_read(self->dir, "trace");
	ASSERT_NE(NULL, buf);
	n = ev_parse_all(buf, self->evs, MAX_EVENTS);
	free(buf);
	check_task_events(_metadata, self->evs, n, ids);
	/* no profiling session: no session events */
	EXPECT_EQ(0, ev_count(self->evs, n, "vnpu_session_start", -1, NULL));
	EXPECT_EQ(0, ev_count(self->evs, n, "vnpu_records_lost", -1, NULL));
}

/* The task events again, through trace_pipe read without blocking. */
TEST_F(trace, trace_pipe)
{
	__u64 ids[N_TASKS];
	char path[256], *buf;
	int pfd, n;

	if (!self->dir)
		SKIP(return, "no tracefs with events/vnpu");
	ASSERT_EQ(0, trace_on(self->dir));
	snprintf(path, sizeof(path), "%s/trace_pipe", self->dir);
	pfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_GE(pfd, 0);
	ASSERT_EQ(0, run_workload(self->fd, ids));
	ASSERT_EQ(0, tracefs_write(self->dir, "events/vnpu/enable", "0"));
	/* non-blocking: read() fails with EAGAIN once drained */
	buf = read_fd(pfd);
	close(pfd);
	ASSERT_NE(NULL, buf);
	n = ev_parse_all(buf, self->evs, MAX_EVENTS);
	free(buf);
	check_task_events(_metadata, self->evs, n, ids);
}

/*
 * Session start/stop, and one records_lost per loss burst with a stalled
 * reader. A burst runs from a reservation that does not fit to the
 * time every channel that lost records has fitted one again: here the task
 * logs and PMU records stop fitting once their one-page channels are full,
 * and never fit again, so there is one burst, whose event carries the loss
 * so far, a task's two logs.
 */
TEST_F(trace, session_events)
{
	struct vnpu_prof_start ps = {
		.size = sizeof(ps),
		.flags = VNPU_PROF_F_CHANNELS,
		.level = VNPU_PROF_L1,
		.ring_pages = 1,
	};
	struct vnpu_prof_stop stop = { .size = sizeof(stop) };
	struct vnpu_prof_stats st = { .size = sizeof(st) };
	struct vnpu_task t[200];
	struct vnpu_sync sy;
	int s, n, nbursts;
	struct vnpu_ring_chan flips;
	__u64 last = 0;
	const struct ev *e;
	char *buf;

	if (!self->dir)
		SKIP(return, "no tracefs with events/vnpu");
	ASSERT_EQ(0, trace_on(self->dir));
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_START, &ps));
	s = vnpu_stream_new(self->fd);
	ASSERT_GE(s, 0);
	/* far more than one page of L1 records, and nobody reads the ring */
	for (int i = 0; i < 200; i++)
		vnpu_task_init(&t[i], "Relu", "Relu", VNPU_TASK_AI_CORE, s, 1 << 20, 1 << 20);
	ASSERT_EQ(0, vnpu_submit_tasks(self->fd, t, 200, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd, s, 0, 30000, &sy));
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_STOP, &stop));
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_STATS, &st));
	ASSERT_GT(st.lost, 0);
	ASSERT_EQ(0, tracefs_write(self->dir, "events/vnpu/enable", "0"));
	ASSERT_EQ(0, vnpu_chan_desc(self->fd, &ps, VNPU_CH_TS_TRACK, &flips));
	buf = tracefs_read(self->dir, "trace");
	ASSERT_NE(NULL, buf);
	n = ev_parse_all(buf, self->evs, MAX_EVENTS);
	free(buf);

	EXPECT_EQ(1, ev_count(self->evs, n, "vnpu_session_start", 0, NULL));
	EXPECT_EQ(1, ev_count(self->evs, n, "vnpu_session_stop", 0, NULL));
	nbursts = ev_count(self->evs, n, "vnpu_records_lost", 0, NULL);
	/* a flip of TS_TRACK that fits does not end the burst of the other two */
	EXPECT_EQ(1, nbursts)
	TH_LOG("%llu flips, %llu lost", (unsigned long long)flips.produced,
	       (unsigned long long)flips.lost);
	EXPECT_EQ(200, ev_count(self->evs, n, "vnpu_task_end", 0, "Relu"));
	for (int i = 0; i < n; i++) {
		e = &self->evs[i];
		if (!strcmp(e->name, "vnpu_session_start")) {
			EXPECT_EQ(ps.session_id, e->session);
			EXPECT_STREQ("L1", e->level);
			EXPECT_EQ(ps.metric_group, e->group);
		} else if (!strcmp(e->name, "vnpu_session_stop")) {
			EXPECT_EQ(ps.session_id, e->session);
			EXPECT_STREQ("L1", e->level);
			EXPECT_EQ(ps.metric_group, e->group);
			EXPECT_EQ(st.produced, e->produced);
			EXPECT_EQ(st.lost, e->lost);
		} else if (!strcmp(e->name, "vnpu_records_lost")) {
			/* the transition into loss: the session's loss so far, growing */
			EXPECT_EQ(ps.session_id, e->session);
			/* a task's two logs, or a flip when TS_TRACK filled first */
			if (!last)
				EXPECT_EQ(flips.lost ? 1 : 2, e->lost);
			EXPECT_LT(last, e->lost);
			EXPECT_GE(st.lost, e->lost);
			last = e->lost;
		}
	}
}

/*
 * A channel that dropped records and is never written again must not hold
 * the burst for the rest of the session: 20 AI CPU tasks at L2 overflow the
 * one-page AICPU channel (16 records), the reader then reads everything,
 * and AI Core tasks, never an AI CPU record again, overflow the task logs:
 * two bursts, two events. (With the AICPU channel's bit left set, the
 * second loss went unreported.)
 */
TEST_F(trace, burst_ends_when_the_channel_has_room)
{
	struct ring r = { .fd = self->fd };
	int nbursts;
	char *buf;
	int n;

	if (!self->dir)
		SKIP(return, "no tracefs with events/vnpu");
	ASSERT_EQ(0, trace_on(self->dir));
	ASSERT_EQ(0, vnpu_prof_start(r.fd, VNPU_PROF_L2, -1, 1, 0, &r.ps));
	ASSERT_EQ(0, ring_map(&r));
	ASSERT_EQ(0, run_tasks(r.fd, 20, VNPU_TASK_AI_CPU));
	ring_drain(&r);
	ASSERT_EQ(20, ring_chan(&r, VNPU_CH_AICPU)->produced);
	ASSERT_EQ(4, ring_chan(&r, VNPU_CH_AICPU)->lost);
	EXPECT_EQ(0, ring_chan(&r, VNPU_CH_ACSQ)->lost);
	/* the task logs overflow now: nobody reads */
	ASSERT_EQ(0, run_tasks(r.fd, 200, VNPU_TASK_AI_CORE));
	EXPECT_LT(0, ring_chan(&r, VNPU_CH_ACSQ)->lost);
	EXPECT_EQ(4, ring_chan(&r, VNPU_CH_AICPU)->lost);
	ASSERT_EQ(0, vnpu_prof_stop(r.fd));
	ASSERT_EQ(0, tracefs_write(self->dir, "events/vnpu/enable", "0"));
	buf = tracefs_read(self->dir, "trace");
	ASSERT_NE(NULL, buf);
	n = ev_parse_all(buf, self->evs, MAX_EVENTS);
	free(buf);
	nbursts = ev_count(self->evs, n, "vnpu_records_lost", 0, NULL);
	EXPECT_EQ(2, nbursts);
	ring_unmap(&r);
}

/* ---- npuprof-top ---- */

struct top {
	pid_t pid;
	int out;
	char buf[1 << 16];
	size_t len;
};

static const char *top_path(void)
{
	static char path[PATH_MAX];
	const char *topdir = getenv("VNPU_TOP");

	snprintf(path, sizeof(path), "%s/build/tools/npuprof-top/npuprof-top",
		 topdir ? topdir : ".");
	return path;
}

static int top_start(struct top *t, char *const argv[])
{
	int p[2];

	t->len = 0;
	t->buf[0] = 0;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	t->pid = fork();
	if (t->pid < 0)
		return -errno;
	if (!t->pid) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(p[1], STDOUT_FILENO);
		execv(top_path(), argv);
		_exit(127);
	}
	close(p[1]);
	t->out = p[0];
	return 0;
}

/* Read the tool's output until @needle shows (NULL: until EOF). */
static int top_read_until(struct top *t, const char *needle, int timeout_ms)
{
	struct pollfd pfd = { .fd = t->out, .events = POLLIN };
	ssize_t n;

	while (!needle || !strstr(t->buf, needle)) {
		if (t->len + 1 >= sizeof(t->buf))
			return -ENOSPC;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		n = read(t->out, t->buf + t->len, sizeof(t->buf) - t->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return needle ? -EPIPE : 0;
		t->len += n;
		t->buf[t->len] = 0;
	}
	return 0;
}

/* Wait for the tool to exit; its exit status, or -1. */
static int top_wait(struct top *t)
{
	int status;

	close(t->out);
	if (waitpid(t->pid, &status, 0) != t->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The count of op type @op in the (last) report's op table; -1 if absent. */
static long long top_op_count(const char *out, const char *op, int *rows)
{
	const char *p = strstr(out, "\nOP TYPE"), *eol;
	long long found = -1;
	char name[32];
	unsigned long long count;

	*rows = 0;
	if (!p)
		return -2;
	p = strchr(p + 1, '\n');
	for (; p && p[1] && p[1] != '\n'; p = eol) {
		eol = strchr(p + 1, '\n');
		if (sscanf(p + 1, "%31s %llu", name, &count) != 2)
			break;
		(*rows)++;
		if (!strcmp(name, op))
			found = (long long)count;
	}
	return found;
}

/* The row of @dev in the device table: its task count, -1 if absent. */
static long long top_dev_tasks(const char *out, unsigned int dev)
{
	const char *p = strstr(out, "\nDEV ");

	p = p ? strstr(p + 1, "\nDEV ") : NULL; /* streams first, then devices */
	for (p = p ? strchr(p + 1, '\n') : NULL; p && p[1] && p[1] != '\n';
	     p = strchr(p + 1, '\n')) {
		unsigned int d;
		char busy[32], util[16];
		unsigned long long tasks;

		if (sscanf(p + 1, "%u %31s %15s %llu", &d, busy, util, &tasks) == 4 && d == dev)
			return (long long)tasks;
	}
	return -1;
}

static void check_top(struct __test_metadata *_metadata, int fd, char *const argv[], bool raw,
		      bool filter)
{
	static struct top t;
	const char *mode = !raw && !access("/sys/kernel/btf/vnpu", F_OK) ? "tp_btf" : "raw_tp";
	struct vnpu_task relu[4];
	char banner[64];
	__u64 ids[N_TASKS];
	int fd1 = -1, rows, s1;

	if (access(top_path(), X_OK))
		SKIP(return, "npuprof-top is not built (%.200s)", top_path());
	if (filter && vnpu_param_devices() >= 2) {
		fd1 = vnpu_open_dev(1, O_RDWR);
		ASSERT_GE(fd1, 0);
	}
	snprintf(banner, sizeof(banner), "Tracing vnpu tasks with %s", mode);
	ASSERT_EQ(0, top_start(&t, argv));
	ASSERT_EQ(0, top_read_until(&t, banner, TOP_START_MS)) TH_LOG("output: %s", t.buf);
	/* attached: the workload runs within the tool's one 2 s interval */
	ASSERT_EQ(0, run_workload(fd, ids));
	if (fd1 >= 0) {
		/* another device's tasks, that -d 0 must leave out */
		s1 = vnpu_stream_new(fd1);
		ASSERT_GE(s1, 0);
		for (int i = 0; i < 4; i++)
			vnpu_task_init(&relu[i], "Relu", "Relu", VNPU_TASK_AI_CORE, s1, 1 << 20,
				       1 << 20);
		ASSERT_EQ(0, vnpu_submit_tasks(fd1, relu, 4, NULL));
		ASSERT_EQ(0, vnpu_sync_stream(fd1, s1, 0, 30000, NULL));
		close(fd1);
	}
	ASSERT_EQ(0, top_read_until(&t, NULL, TOP_END_MS)) TH_LOG("output: %s", t.buf);
	ASSERT_EQ(0, top_wait(&t)) TH_LOG("output: %s", t.buf);

	/* exactly the workload: 7 MatMul, 3 Add, nothing else */
	EXPECT_EQ(N_MATMUL, top_op_count(t.buf, "MatMul", &rows));
	EXPECT_EQ(N_ADD, top_op_count(t.buf, "Add", &rows));
	EXPECT_EQ(2, rows);
	EXPECT_NE(NULL, strstr(t.buf, "\nTASKS: 10\n"));
	EXPECT_EQ(N_TASKS, top_dev_tasks(t.buf, 0));
	if (filter)
		EXPECT_EQ(-1, top_dev_tasks(t.buf, 1));
	EXPECT_EQ(NULL, strstr(t.buf, "LOST:"));
	/* one report, one interval */
	EXPECT_EQ(NULL, strstr(strstr(t.buf, "\nOP TYPE") + 1, "\nOP TYPE"));
}

TEST_F_TIMEOUT(trace, npuprof_top, 300)
{
	char *const argv[] = { "npuprof-top", "-n", "1", "-i", "2", NULL };

	check_top(_metadata, self->fd, argv, false, false);
}

TEST_F_TIMEOUT(trace, npuprof_top_raw_tp_one_device, 300)
{
	char *const argv[] = { "npuprof-top", "-R", "-d", "0", "-n", "1", "-i", "2", NULL };

	check_top(_metadata, self->fd, argv, true, true);
}

TEST(npuprof_top_rejects_bad_numbers)
{
	static const char *const bad[][3] = {
		{ "-i", "0" },	{ "-i", "-1" }, { "-i", "1x" },	 { "-i", " 1" }, { "-n", "0" },
		{ "-n", "+3" }, { "-d", "16" }, { "-d", "0x1" }, { "-i", "" },
	};

	if (access(top_path(), X_OK))
		SKIP(return, "npuprof-top is not built (%.200s)", top_path());
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid_t pid = fork();
		int status;

		ASSERT_GE(pid, 0);
		if (!pid) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			execl(top_path(), "npuprof-top", bad[i][0], bad[i][1], "-n", "1",
			      (char *)NULL);
			_exit(127);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_NE(0, WEXITSTATUS(status)) TH_LOG("%s '%s' accepted", bad[i][0], bad[i][1]);
		EXPECT_NE(127, WEXITSTATUS(status));
	}
}

/* ---- perf ---- */

/* Run @argv with stdout (and stderr) into @out (may be NULL); exit status or -1. */
static int run_cmd(char *const argv[], char **out, const char *env_set)
{
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		if (env_set)
			putenv((char *)env_set);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	if (out)
		*out = read_fd(p[0]);
	else
		free(read_fd(p[0]));
	close(p[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The test binary re-executed by perf record runs the workload only. */
__attribute__((constructor)) static void workload_mode(void)
{
	__u64 ids[N_TASKS];
	int fd;

	if (!getenv("VNPU_TRACE_WORKLOAD"))
		return;
	fd = vnpu_open_dev(0, O_RDWR);
	_exit(fd < 0 || run_workload(fd, ids) ? 1 : 0);
}

TEST_F_TIMEOUT(trace, perf_record, 300)
{
	static const char data[] = "/tmp/vnpu-trace-perf.data";
	char self_exe[PATH_MAX], *out = NULL;
	char *const version[] = { "/usr/bin/perf", "version", NULL };
	char *const record[] = { "/usr/bin/perf", "record", "-q",	  "-a", "-N",	  "-e",
				 "vnpu:*",	  "-o",	    (char *)data, "--", self_exe, NULL };
	char *const script[] = { "/usr/bin/perf", "script", "-i", (char *)data, NULL };
	ssize_t len;
	int n;

	if (access("/usr/bin/perf", X_OK))
		SKIP(return, "perf is not installed (Debian's linux-perf)");
	if (run_cmd(version, &out, NULL)) {
		TH_LOG("%s", out ? out : "");
		free(out);
		SKIP(return, "perf does not run here");
	}
	free(out);
	len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	ASSERT_GT(len, 0);
	self_exe[len] = 0;

	ASSERT_EQ(0, run_cmd(record, &out, "VNPU_TRACE_WORKLOAD=1")) TH_LOG("%s", out);
	free(out);
	ASSERT_EQ(0, run_cmd(script, &out, NULL)) TH_LOG("%s", out);
	ASSERT_NE(NULL, out);
	n = ev_parse_all(out, self->evs, MAX_EVENTS);
	unlink(data);
	EXPECT_EQ(N_TASKS, ev_count(self->evs, n, "vnpu_task_submit", 0, NULL)) TH_LOG("%s", out);
	EXPECT_EQ(N_MATMUL, ev_count(self->evs, n, "vnpu_task_submit", 0, "MatMul"));
	EXPECT_EQ(N_ADD, ev_count(self->evs, n, "vnpu_task_submit", 0, "Add"));
	EXPECT_EQ(N_MATMUL, ev_count(self->evs, n, "vnpu_task_start", 0, "MatMul"));
	EXPECT_EQ(N_ADD, ev_count(self->evs, n, "vnpu_task_end", 0, "Add"));
	EXPECT_EQ(N_TASKS, ev_count(self->evs, n, "vnpu_task_end", 0, NULL));
	free(out);
}

TEST_HARNESS_MAIN
