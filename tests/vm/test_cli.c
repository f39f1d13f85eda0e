// SPDX-License-Identifier: GPL-2.0
/*
 * The npuprof command line: help and usage errors (exit 2, naming the bad
 * value; a missing --output is 1), `npuprof run` writes the same files as
 * the library's Profiler for the same workload and says where on stderr,
 * `npuprof export` rebuilds identical files from the raw data, a run
 * interrupted with SIGINT is exported by npuprof itself, and devices /
 * stat (text and --json) / watch (events, and LOST on an overrun) over
 * netlink. tests/host/test_cli_host.c has the rest (no device needed),
 * test_cluster.c `run --ranks`.
 */
#include <glob.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "npuprof.h"
#include "vm/vnpu_test.h"

/*
 * The forking workload of run_with_a_forking_workload: this binary runs it
 * instead of the suite when VNPU_FORK_WORKLOAD is set. It launches 10 Adds,
 * forks a child that launches 3 of its own and calls exit() (running the
 * atexit handlers it inherited), then launches 10 more once the child is
 * gone: the parent's PROF folder must hold all 20 of its own.
 */
static void fork_workload_launch(struct npuprof_dev *dev, uint32_t stream, const char *name, int n)
{
	static const uint64_t dims[] = { 1024, 1024 };
	struct vnpu_task t;

	for (int i = 0; i < n; i++) {
		if (npuprof_op_add(dev, &t, name, stream, 2, dims, VNPU_DT_FLOAT16) ||
		    npuprof_launch(dev, &t, 1, NULL, NULL))
			_exit(3);
	}
	if (npuprof_sync(dev, stream, 10000, NULL))
		_exit(4);
}

__attribute__((constructor)) static void fork_workload(void)
{
	struct npuprof_dev *dev;
	uint32_t stream;
	int st;
	pid_t pid;

	if (!getenv("VNPU_FORK_WORKLOAD"))
		return;
	if (npuprof_open(0, &dev, NULL) || npuprof_stream_create(dev, &stream, NULL))
		_exit(2);
	fork_workload_launch(dev, stream, "Add_parent", 10);
	pid = fork();
	if (pid == 0) {
		fork_workload_launch(dev, stream, "Add_child", 3);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		_exit(5);
	fork_workload_launch(dev, stream, "Add_parent", 10);
	npuprof_close(dev);
	exit(0);
}

/*
 * The sleeping workload of run_exports_after_sigint: with
 * VNPU_SLEEP_WORKLOAD set, this binary launches 10 Adds on device 0, waits
 * for them, gives the collector's reader thread time to write them out
 * (it wakes every 100 ms), says "ready" on stdout and sleeps until it is
 * killed: its atexit export never runs.
 */
__attribute__((constructor)) static void sleep_workload(void)
{
	struct npuprof_dev *dev;
	uint32_t stream;

	if (!getenv("VNPU_SLEEP_WORKLOAD"))
		return;
	if (npuprof_open(0, &dev, NULL) || npuprof_stream_create(dev, &stream, NULL))
		_exit(2);
	fork_workload_launch(dev, stream, "Add_sleep", 10);
	sleep(2);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		sleep(60);
}

static char npuprof[PATH_MAX], examples[PATH_MAX];

static void find_tools(void)
{
	const char *top = getenv("VNPU_TOP");

	snprintf(npuprof, sizeof(npuprof), "%s/build/tools/npuprof/npuprof", top ? top : ".");
	snprintf(examples, sizeof(examples), "%s/build/examples", top ? top : ".");
}

TEST(help_everywhere)
{
	static const char *const cmds[] = { "", "run ", "export ", "devices ", "stat ", "watch " };
	char out[8192];

	find_tools();
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "%s %s--help", npuprof, cmds[i]))
		TH_LOG("%s--help: %s", cmds[i], out);
		EXPECT_NE(NULL, strstr(out, "Usage: npuprof")) TH_LOG("%s", out);
	}
}

TEST(usage_errors_name_the_bad_value)
{
	static const struct {
		const char *args;
		int status;
		const char *says;
	} cases[] = {
		{ "", 2, "no command" },
		{ "frobnicate", 2, "frobnicate" },
		{ "run", 2, "no PROGRAM" },
		{ "run --level L7 -- true", 2, "L7" },
		{ "run --level L0 --aic-metrics Memory -- true", 2, "Please use L1 or L2" },
		{ "run --aic-metrics Fast -- true", 2, "Fast" },
		/* the environment is wrong, not the command line */
		{ "run --output /nonexistent/npuprof -- true", 1, "/nonexistent/npuprof" },
		{ "run --bogus -- true", 2, "bogus" },
		{ "run -- /nonexistent/program", 127, "/nonexistent/program" },
		{ "export", 2, "exactly one" },
		{ "export /tmp", 1, "not in a PROF_* folder" },
		{ "export /nonexistent/PROF_x", 1, "/nonexistent/PROF_x" },
		{ "stat 99", 2, "99" },
		{ "stat x", 2, "'x'" },
		{ "stat 1 2", 2, "too many" },
		{ "watch --count 0", 2, "'0'" },
		{ "watch --timeout -5", 2, "-5" },
		{ "devices extra", 2, "too many" },
	};
	char out[8192];

	find_tools();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(cases[i].status,
			  vnpu_sh(out, sizeof(out), "%s %s", npuprof, cases[i].args))
		TH_LOG("npuprof %s: %s", cases[i].args, out);
		EXPECT_NE(NULL, strstr(out, cases[i].says))
		TH_LOG("npuprof %s said: %s", cases[i].args, out);
	}
}

/* The output files of @prof: names without the timestamp, and headers. */
static void describe(const char *prof, char *out, size_t len)
{
	char pat[PATH_MAX], line[8192];
	size_t n = 0;
	glob_t g;

	out[0] = 0;
	snprintf(pat, sizeof(pat), "%s/mindstudio_profiler_output/*", prof);
	if (glob(pat, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/') + 1;
		const char *us = strrchr(base, '_');
		FILE *f = fopen(g.gl_pathv[i], "r");

		n += (size_t)snprintf(out + n, len - n, "%.*s:", us ? (int)(us - base) : 0, base);
		if (f && strstr(base, ".csv") && fgets(line, sizeof(line), f))
			n += (size_t)snprintf(out + n, len - n, "%s", line);
		else
			n += (size_t)snprintf(out + n, len - n, "\n");
		if (f)
			fclose(f);
	}
	globfree(&g);
}

static int one_prof(const char *dir, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int ret = -1;

	snprintf(pat, sizeof(pat), "%s/PROF_*", dir);
	if (!glob(pat, 0, NULL, &g) && g.gl_pathc == 1) {
		snprintf(out, len, "%s", g.gl_pathv[0]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

TEST(run_matches_the_library_and_export_rebuilds)
{
	static char a[65536], b[65536], out[8192];
	char cli_dir[] = "/tmp/npuprof-cli-XXXXXX", lib_dir[] = "/tmp/npuprof-lib-XXXXXX";
	char prof_cli[PATH_MAX], prof_lib[PATH_MAX], ts[16];
	char *p;

	find_tools();
	ASSERT_NE(NULL, mkdtemp(cli_dir));
	ASSERT_NE(NULL, mkdtemp(lib_dir));

	/* the same workload: under npuprof run, and with the Profiler block */
	/* stderr alone: the result line is there, naming the folder made */
	ASSERT_EQ(0,
		  vnpu_sh(out, sizeof(out),
			  "{ %s run --level L1 --output %s -- %s/matmul_add 5 2>&1 >/dev/null; }",
			  npuprof, cli_dir, examples))
	TH_LOG("%s", out);
	ASSERT_EQ(0, vnpu_sh(b, sizeof(b), "cd %s && %s/matmul_add --scoped 5", lib_dir, examples))
	TH_LOG("%s", b);
	ASSERT_EQ(0, one_prof(cli_dir, prof_cli, sizeof(prof_cli)));
	ASSERT_EQ(0, one_prof(lib_dir, prof_lib, sizeof(prof_lib)));
	snprintf(a, sizeof(a), "npuprof: profile: %s\n", prof_cli);
	EXPECT_NE(NULL, strstr(out, a)) TH_LOG("%s", out);
	describe(prof_cli, a, sizeof(a));
	describe(prof_lib, b, sizeof(b));
	EXPECT_STREQ(b, a);
	EXPECT_NE(NULL, strstr(a, "op_summary:Device_id,")) TH_LOG("%s", a);

	/* export again with the same timestamp: identical files */
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "ls %s/mindstudio_profiler_output/op_summary_*.csv",
			     prof_cli));
	p = strstr(out, "op_summary_");
	ASSERT_NE(NULL, p);
	snprintf(ts, sizeof(ts), "%.14s", p + strlen("op_summary_"));
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "cp -r %s/mindstudio_profiler_output %s/first",
			     prof_cli, cli_dir));
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "rm -rf %s/mindstudio_profiler_output", prof_cli));
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out),
			     "{ %s export --timestamp %s %s/device_0/data >/dev/null; }", npuprof,
			     ts, prof_cli))
	TH_LOG("%s", out);
	/* the summary is on stderr */
	EXPECT_NE(NULL, strstr(out, "exported")) TH_LOG("%s", out);
	EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "diff -r %s/first %s/mindstudio_profiler_output",
			     cli_dir, prof_cli))
	TH_LOG("%s", out);
	vnpu_sh(NULL, 0, "rm -rf %s %s", cli_dir, lib_dir);
}

/*
 * A forking workload under npuprof run: the child's exit() must not stop
 * the parent's session, write the parent's host records again, or touch
 * the parent's reader thread (issue 17, bug 2).
 */
TEST(run_with_a_forking_workload)
{
	char dir[] = "/tmp/npuprof-fork-XXXXXX", prof[PATH_MAX], self_exe[PATH_MAX], out[8192];
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	const char *csv = "mindstudio_profiler_output";

	find_tools();
	ASSERT_LT(0, n);
	self_exe[n] = 0;
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out),
			     "VNPU_FORK_WORKLOAD=1 %s run --level L1 --output %s -- %s", npuprof,
			     dir, self_exe))
	TH_LOG("%s", out);
	ASSERT_EQ(0, one_prof(dir, prof, sizeof(prof))) TH_LOG("%s", out);
	/*
	 * The session went on after the child's exit: all 20 of the parent's
	 * tasks are there. The child's 3 ran on the device during the session,
	 * on the file it shares with the parent, so the device recorded them
	 * too (task_time has 23 tasks); the child wrote no host records, so
	 * they are not ops (op_summary takes op names from the host's).
	 */
	EXPECT_EQ(20, vnpu_sh(NULL, 0, "exit $(grep -c ,Add_parent, %s/%s/op_summary_*.csv)", prof,
			      csv));
	EXPECT_EQ(0, vnpu_sh(NULL, 0, "exit $(grep -c ,Add_child, %s/%s/op_summary_*.csv)", prof,
			     csv));
	EXPECT_EQ(24, vnpu_sh(NULL, 0, "exit $(cat %s/%s/task_time_*.csv | wc -l)", prof, csv));
	/* the host records are the parent's alone, each once: 20 launches */
	EXPECT_EQ(20,
		  vnpu_sh(out, sizeof(out),
			  "exit $(awk -F, '$3 ~ /aunch/ { print $5 }' %s/%s/api_statistic_*.csv)",
			  prof, csv));
	vnpu_sh(out, sizeof(out), "cat %s/%s/api_statistic_*.csv", prof, csv);
	TH_LOG("%s", out);
	vnpu_sh(NULL, 0, "rm -rf %s", dir);
}

/*
 * Issue 17: SIGINT to `npuprof run` goes on to the program; a program that
 * dies of it never runs its atexit export, so npuprof exports the folder
 * the program reported, from the raw data already on disk, and exits 130.
 */
TEST(run_exports_after_sigint)
{
	char dir[] = "/tmp/npuprof-sigint-XXXXXX", prof[PATH_MAX], self_exe[PATH_MAX];
	char errf[PATH_MAX], line[64] = "", out[8192], readme[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	struct pollfd pfd;
	int p[2], st;
	size_t got = 0;
	pid_t pid;

	find_tools();
	ASSERT_LT(0, n);
	self_exe[n] = 0;
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(errf, sizeof(errf), "%s.stderr", dir);
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		/* whatever started the suite, npuprof must see SIGINT unignored */
		signal(SIGINT, SIG_DFL);
		dup2(p[1], 1);
		if (e >= 0)
			dup2(e, 2);
		close(p[0]);
		setenv("VNPU_SLEEP_WORKLOAD", "1", 1);
		execl(npuprof, "npuprof", "run", "--level", "L1", "--output", dir, "--", self_exe,
		      (char *)NULL);
		_exit(126);
	}
	close(p[1]);
	/* the workload's "ready": its tasks ran and are on disk */
	pfd.fd = p[0];
	pfd.events = POLLIN;
	while (got < sizeof(line) - 1 && !strchr(line, '\n') && poll(&pfd, 1, 20000) > 0) {
		ssize_t k = read(p[0], line + got, sizeof(line) - 1 - got);

		if (k <= 0)
			break;
		got += (size_t)k;
		line[got] = 0;
	}
	EXPECT_STREQ("ready\n", line);
	ASSERT_EQ(0, kill(pid, SIGINT));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(p[0]);
	vnpu_sh(out, sizeof(out), "cat %s", errf);
	EXPECT_TRUE(WIFEXITED(st)) TH_LOG("%s", out);
	EXPECT_EQ(128 + SIGINT, WEXITSTATUS(st)) TH_LOG("%s", out);
	ASSERT_EQ(0, one_prof(dir, prof, sizeof(prof))) TH_LOG("%s", out);
	snprintf(readme, sizeof(readme), "npuprof: profile: %s\n", prof);
	EXPECT_NE(NULL, strstr(out, readme)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "killed by signal 2")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "npuprof: exported ")) TH_LOG("%s", out);
	snprintf(readme, sizeof(readme), "%s/mindstudio_profiler_output/README.txt", prof);
	EXPECT_EQ(0, access(readme, F_OK));
	EXPECT_EQ(10, vnpu_sh(NULL, 0,
			      "exit $(grep -c ,Add_sleep, %s/mindstudio_profiler_output/"
			      "op_summary_*.csv)",
			      prof));
	vnpu_sh(NULL, 0, "rm -rf %s %s", dir, errf);
}

TEST(devices_and_stat)
{
	char out[8192];
	unsigned int n = vnpu_param_devices();

	find_tools();
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "%s devices", npuprof)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Atlas A2 training")) TH_LOG("%s", out);
	ASSERT_EQ((int)n, vnpu_sh(NULL, 0, "exit $(%s devices | grep -c Ascend)", npuprof));
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "%s stat 0", npuprof)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "vnpu0: Atlas A2 training")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "tasks run")) TH_LOG("%s", out);
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "%s stat %u", npuprof, n)) TH_LOG("%s", out);
}

/* The "devices" array of a --json document in @out, or NULL. */
static struct json_object *json_devices(struct json_object *doc)
{
	struct json_object *arr;

	if (!doc || !json_object_object_get_ex(doc, "devices", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	return arr;
}

static const char *jget_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static int64_t jget_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

/* devices --json and stat --json: one document on stdout, a running session in it. */
TEST(devices_and_stat_json)
{
	static char out[65536];
	unsigned int n = vnpu_param_devices();
	struct json_object *doc, *arr, *d, *p;
	struct vnpu_prof_start ps;
	int fd;

	find_tools();
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "{ %s devices --json 2>/dev/null; }", npuprof));
	doc = json_tokener_parse(out);
	arr = json_devices(doc);
	ASSERT_NE(NULL, arr) TH_LOG("%s", out);
	EXPECT_EQ(n, json_object_array_length(arr));
	d = json_object_array_get_idx(arr, 0);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(0, jget_int(d, "id"));
	EXPECT_STREQ("Atlas A2 training", jget_str(d, "product"));
	EXPECT_STREQ("Ascend910B", jget_str(d, "chip"));
	EXPECT_LT(0, jget_int(d, "aic_num"));
	EXPECT_TRUE(json_object_object_get_ex(d, "profiling", NULL));
	EXPECT_FALSE(json_object_object_get_ex(d, "tasks_run", NULL)); /* stat's */
	json_object_put(doc);

	/* a session on device 0 shows in stat --json 0 */
	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 0, 0, &ps));
	EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "{ %s stat --json 0 2>/dev/null; }", npuprof));
	vnpu_prof_stop(fd);
	close(fd);
	doc = json_tokener_parse(out);
	arr = json_devices(doc);
	ASSERT_NE(NULL, arr) TH_LOG("%s", out);
	ASSERT_EQ(1, json_object_array_length(arr));
	d = json_object_array_get_idx(arr, 0);
	EXPECT_LE(0, jget_int(d, "tasks_run"));
	EXPECT_LE(0, jget_int(d, "ring_size"));
	ASSERT_TRUE(json_object_object_get_ex(d, "profiling", &p));
	ASSERT_NE(NULL, p) TH_LOG("%s", out);
	EXPECT_EQ(ps.session_id, jget_int(p, "session"));
	EXPECT_STREQ("L1", jget_str(p, "level"));
	EXPECT_STREQ("PipeUtilization", jget_str(p, "aic_metrics"));
	json_object_put(doc);

	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "{ %s stat -j 2>/dev/null; }", npuprof));
	doc = json_tokener_parse(out);
	arr = json_devices(doc);
	ASSERT_NE(NULL, arr) TH_LOG("%s", out);
	EXPECT_EQ(n, json_object_array_length(arr));
	json_object_put(doc);
	/* a device that does not exist: status 1, no document */
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "{ %s stat --json %u 2>/dev/null; }", npuprof, n));
	EXPECT_STREQ("", out);
}

/*
 * A watcher that cannot keep up (stopped while 1000 events are sent) has
 * its socket buffer overrun: it prints LOST and goes on with the events
 * that follow, instead of exiting (issue 17).
 */
TEST(watch_says_lost_and_goes_on)
{
	const char *outf = "/tmp/npuprof-watch-lost.out";
	char out[65536], *lost;
	struct vnpu_prof_start ps;
	int fd = vnpu_open_dev(0, O_RDWR), st, up = 0;
	pid_t pid;

	find_tools();
	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int o = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0)
			_exit(126);
		dup2(o, 1);
		execl(npuprof, "npuprof", "watch", "--timeout", "5", (char *)NULL);
		_exit(126);
	}
	/* wait until it is subscribed: it prints the events of a session */
	for (int i = 0; i < 100 && !up; i++) {
		ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 1, 0, &ps));
		ASSERT_EQ(0, vnpu_prof_stop(fd));
		usleep(100000);
		up = vnpu_sh(NULL, 0, "grep -q session-stopped %s", outf) == 0;
	}
	ASSERT_TRUE(up);
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	for (int i = 0; i < 500; i++) {
		ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 1, 0, &ps));
		ASSERT_EQ(0, vnpu_prof_stop(fd));
	}
	ASSERT_EQ(0, kill(pid, SIGCONT));
	/* the watcher drains what is queued, then 5 s without an event end it */
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(fd);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	vnpu_sh(out, sizeof(out), "cat %s", outf);
	lost = strstr(out, "\nLOST ");
	ASSERT_NE(NULL, lost) TH_LOG("%s", out);
	/* and it went on: events after the LOST line */
	EXPECT_NE(NULL, strstr(lost, "\nvnpu0 session-")) TH_LOG("%s", lost);
	unlink(outf);
}

TEST(watch_sees_a_session)
{
	char out[8192];

	find_tools();
	/* a watcher for two events, then a profiled run starts and stops a session */
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out),
			     "(%s watch --count 2 --timeout 60 > /tmp/npuprof-watch.out &"
			     " sleep 1; cd /tmp && %s/matmul_add --scoped 2; wait)",
			     npuprof, examples))
	TH_LOG("%s", out);
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "cat /tmp/npuprof-watch.out"));
	EXPECT_NE(NULL, strstr(out, "vnpu0 session-started")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "vnpu0 session-stopped")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
