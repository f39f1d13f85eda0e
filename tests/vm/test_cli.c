// SPDX-License-Identifier: GPL-2.0
/*
 * The npuprof command line: help and usage errors (exit 2, naming the bad
 * value), `npuprof run` writes the same files as the library's Profiler
 * for the same workload, `npuprof export` rebuilds identical files from the
 * raw data, and devices / stat / watch over netlink.
 */
#include <glob.h>
#include <limits.h>
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
		{ "run --output /nonexistent/npuprof -- true", 2, "/nonexistent/npuprof" },
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
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "%s run --level L1 --output %s -- %s/matmul_add 5",
			     npuprof, cli_dir, examples))
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "npuprof: profile: ")) TH_LOG("%s", out);
	ASSERT_EQ(0,
		  vnpu_sh(out, sizeof(out), "cd %s && %s/matmul_add --scoped 5", lib_dir, examples))
	TH_LOG("%s", out);
	ASSERT_EQ(0, one_prof(cli_dir, prof_cli, sizeof(prof_cli)));
	ASSERT_EQ(0, one_prof(lib_dir, prof_lib, sizeof(prof_lib)));
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
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "%s export --timestamp %s %s/device_0/data", npuprof,
			     ts, prof_cli))
	TH_LOG("%s", out);
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
