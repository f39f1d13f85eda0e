// SPDX-License-Identifier: GPL-2.0
/*
 * The npuprof command line on the host, where no device exists: --help
 * and --version everywhere, usage errors (status 2, naming the bad value,
 * nothing on stdout), a missing --output (status 1), what `run` passes to
 * PROGRAM (the environment, the one inherited socket), PROGRAM's status,
 * SIGINT and SIGTERM passed on, a grandchild holding the report socket,
 * and the folders PROGRAM reports: exported by npuprof when a signal
 * killed PROGRAM, "not exported" when it exited. Results go to stderr,
 * stdout stays for what scripts parse.
 */
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof.h"
#include "host/msprof_reference.h"

#define SAMPLE "PROF_000001_20250101000000000_SIMULATOR"

static char npuprof[PATH_MAX];

/* build/tests/host/test_cli_host -> build/tools/npuprof/npuprof */
static int find_npuprof(void)
{
	char self[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *p;

	if (n <= 0)
		return -1;
	self[n] = 0;
	for (int i = 0; i < 3; i++) {
		p = strrchr(self, '/');
		if (!p)
			return -1;
		*p = 0;
	}
	snprintf(npuprof, sizeof(npuprof), "%s/tools/npuprof/npuprof", self);
	return access(npuprof, X_OK);
}

struct res {
	char out[65536], err[65536];
	int status; /* the exit status, or 1000 + signal */
	pid_t pid;
	int ofd, efd;
};

/* Start npuprof with @args (NULL-terminated, after argv[0]), pipes on stdout and stderr. */
static int start(struct res *r, const char *const *args)
{
	const char *argv[32] = { npuprof };
	int o[2], e[2];
	size_t n = 1;

	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	if (pipe2(o, O_CLOEXEC) || pipe2(e, O_CLOEXEC))
		return -1;
	r->out[0] = r->err[0] = 0;
	r->pid = fork();
	if (r->pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(o[1], 1);
		dup2(e[1], 2);
		execv(npuprof, (char *const *)argv);
		_exit(126);
	}
	close(o[1]);
	close(e[1]);
	r->ofd = o[0];
	r->efd = e[0];
	return r->pid < 0 ? -1 : 0;
}

/* Read a line of stdout (PROGRAM's "ready") into r->out; 0 once it is there. */
static int read_line(struct res *r)
{
	size_t n = 0;

	while (n < sizeof(r->out) - 1 && read(r->ofd, r->out + n, 1) == 1) {
		if (r->out[n++] == '\n') {
			r->out[n] = 0;
			return 0;
		}
	}
	r->out[n] = 0;
	return -1;
}

/* Read both pipes to their end (appending to r->out), reap, and set r->status. */
static void finish(struct res *r)
{
	size_t no = strlen(r->out), ne = 0;
	struct pollfd p[2] = { { .fd = r->ofd, .events = POLLIN },
			       { .fd = r->efd, .events = POLLIN } };
	int st;

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, 30000) <= 0)
			break;
		for (int i = 0; i < 2; i++) {
			char *buf = i ? r->err : r->out;
			size_t *n = i ? &ne : &no;
			ssize_t k;

			if (!p[i].revents)
				continue;
			k = read(p[i].fd, buf + *n, sizeof(r->out) - 1 - *n);
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				continue;
			}
			*n += (size_t)k;
		}
	}
	r->out[no] = r->err[ne] = 0;
	if (p[0].fd >= 0)
		close(p[0].fd);
	if (p[1].fd >= 0)
		close(p[1].fd);
	waitpid(r->pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static int run(struct res *r, const char *const *args)
{
	if (start(r, args))
		return -1;
	finish(r);
	return r->status;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

FIXTURE(cli)
{
	struct res r;
	char dir[64];
};

FIXTURE_SETUP(cli)
{
	ASSERT_EQ(0, find_npuprof()) TH_LOG("no %s: build it with make tools", npuprof);
	strcpy(self->dir, "/tmp/npuprof-cli-host-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(cli)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(cli, version_everywhere)
{
	static const char *const cmds[] = { "run", "export", "devices", "stat", "watch" };
	char want[128];

	snprintf(want, sizeof(want), "npuprof %s\nlibnpuprof %s\n", npuprof_version(),
		 npuprof_version());
	EXPECT_EQ(0, run(&self->r, ARGS("--version")));
	EXPECT_STREQ(want, self->r.out);
	EXPECT_STREQ("", self->r.err);
	EXPECT_EQ(0, run(&self->r, ARGS("-V")));
	EXPECT_STREQ(want, self->r.out);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(0, run(&self->r, ARGS(cmds[i], "--version")));
		EXPECT_STREQ(want, self->r.out)
		{
			TH_LOG("%s --version: %s", cmds[i], self->r.err);
		}
		EXPECT_EQ(0, run(&self->r, ARGS(cmds[i], "-V")));
		EXPECT_STREQ(want, self->r.out);
	}
	/* after --, it is PROGRAM's */
	EXPECT_EQ(0, run(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c",
					"echo \"$1\"", "sh", "--version")));
	EXPECT_STREQ("--version\n", self->r.out);
}

TEST_F(cli, help_everywhere)
{
	static const char *const cmds[] = { "run", "export", "devices", "stat", "watch" };

	EXPECT_EQ(0, run(&self->r, ARGS("--help")));
	EXPECT_NE(NULL, strstr(self->r.out, "Usage: npuprof"));
	EXPECT_EQ(0, run(&self->r, ARGS("help")));
	EXPECT_NE(NULL, strstr(self->r.out, "Usage: npuprof"));
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(0, run(&self->r, ARGS(cmds[i], "-h")));
		EXPECT_NE(NULL, strstr(self->r.out, "Usage: npuprof "))
		{
			TH_LOG("%s -h: %s", cmds[i], self->r.out);
		}
		EXPECT_NE(NULL, strstr(self->r.out, cmds[i]));
		EXPECT_NE(NULL, strstr(self->r.out, "--version"));
		EXPECT_STREQ("", self->r.err);
	}
}

/* Status 2, the bad value named on stderr, nothing on stdout. */
TEST_F(cli, usage_errors)
{
	static const struct {
		const char *const args[8];
		const char *says;
	} cases[] = {
		{ { NULL }, "no command given" },
		{ { "frobnicate" }, "unknown command 'frobnicate'" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "-x", "run" }, "unknown option '-x'" },
		{ { "run" }, "no PROGRAM given" },
		{ { "run", "--bogus", "--", "true" }, "unknown option '--bogus'" },
		{ { "run", "--level" }, "option '--level' needs a value" },
		{ { "run", "-l" }, "option '-l' needs a value" },
		{ { "run", "--level", "L7", "--", "true" }, "cannot set to: L7" },
		{ { "run", "--level", "L0", "--aic-metrics", "Memory", "--", "true" },
		  "Please use L1 or L2" },
		{ { "run", "--aic-metrics", "Fast", "--", "true" },
		  "aic_metrics 'Fast' is not one of" },
		{ { "run", "--output", "/tmp/a\tb", "--", "true" }, "forbidden character \\t" },
		{ { "export" }, "exactly one" },
		{ { "export", "--bogus", "x" }, "unknown option '--bogus'" },
		{ { "export", "--timestamp" }, "'--timestamp' needs a value" },
		{ { "devices", "extra" }, "too many arguments" },
		{ { "devices", "--bogus" }, "unknown option '--bogus'" },
		{ { "devices", "-x" }, "unknown option '-x'" },
		{ { "stat", "x" }, "DEV 'x'" },
		{ { "stat", "99" }, "DEV '99'" },
		{ { "stat", "1", "2" }, "too many arguments" },
		{ { "stat", "--json", "--bogus" }, "unknown option '--bogus'" },
		{ { "watch", "--count", "0" }, "--count '0'" },
		{ { "watch", "--timeout", "-5" }, "--timeout '-5'" },
		{ { "watch", "--count" }, "'--count' needs a value" },
		{ { "watch", "extra" }, "unexpected argument 'extra'" },
		{ { "watch", "--bogus" }, "unknown option '--bogus'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(2, run(&self->r, cases[i].args))
		{
			TH_LOG("case %zu (%s): %s", i, cases[i].says, self->r.err);
		}
		EXPECT_NE(NULL, strstr(self->r.err, cases[i].says))
		{
			TH_LOG("case %zu said: %s", i, self->r.err);
		}
		EXPECT_NE(NULL, strstr(self->r.err, "--help'"));
		EXPECT_STREQ("", self->r.out);
	}
}

/* The environment is wrong, not the command line: status 1, PROGRAM never runs. */
TEST_F(cli, missing_output_directory_is_status_1)
{
	char missing[128], file[128], marker[128];
	FILE *f;

	snprintf(missing, sizeof(missing), "%s/missing", self->dir);
	snprintf(file, sizeof(file), "%s/file", self->dir);
	snprintf(marker, sizeof(marker), "touch %s/ran", self->dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	EXPECT_EQ(1, run(&self->r, ARGS("run", "--output", missing, "--", "sh", "-c", marker)));
	EXPECT_NE(NULL, strstr(self->r.err, missing)) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "does not exist")) TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "--help"));
	EXPECT_EQ(1, run(&self->r, ARGS("run", "--output", file, "--", "sh", "-c", marker)));
	EXPECT_NE(NULL, strstr(self->r.err, "is not a directory")) TH_LOG("%s", self->r.err);
	/* ASCEND_WORK_PATH, the default, likewise */
	setenv("ASCEND_WORK_PATH", missing, 1);
	EXPECT_EQ(1, run(&self->r, ARGS("run", "--", "sh", "-c", marker)));
	unsetenv("ASCEND_WORK_PATH");
	EXPECT_NE(NULL, strstr(self->r.err, "ASCEND_WORK_PATH")) TH_LOG("%s", self->r.err);
	snprintf(marker, sizeof(marker), "%s/ran", self->dir);
	EXPECT_NE(0, access(marker, F_OK));
}

/*
 * What PROGRAM gets: PROFILING_MODE, PROFILING_OPTIONS (valid JSON even
 * for a directory with a quote in its name) and NPUPROF_REPORT_FD naming
 * the one socket it inherits; its status comes back.
 */
TEST_F(cli, run_passes_the_environment_and_the_status)
{
	static const char script[] =
		"printf '%s\\n' \"$PROFILING_MODE\" \"$PROFILING_OPTIONS\" \"$NPUPROF_REPORT_FD\";"
		"fd=${NPUPROF_REPORT_FD%%:*}; readlink /proc/$$/fd/$fd; exit 3";
	char odd[128], line[4][4096], want[64];
	struct json_object *o, *v;
	unsigned long long ino;
	int fd;

	snprintf(odd, sizeof(odd), "%s/a\"b\\c", self->dir);
	ASSERT_EQ(0, mkdir(odd, 0755));
	EXPECT_EQ(3, run(&self->r, ARGS("run", "--level", "L2", "--aic-metrics", "Memory",
					"--output", odd, "--", "sh", "-c", script)));
	EXPECT_EQ(4, sscanf(self->r.out, "%4095[^\n]\n%4095[^\n]\n%4095[^\n]\n%4095[^\n]", line[0],
			    line[1], line[2], line[3]))
	TH_LOG("%s", self->r.out);
	EXPECT_STREQ("true", line[0]);
	o = json_tokener_parse(line[1]);
	ASSERT_NE(NULL, o) TH_LOG("%s", line[1]);
	ASSERT_TRUE(json_object_object_get_ex(o, "output", &v));
	EXPECT_STREQ(odd, json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(o, "level", &v));
	EXPECT_STREQ("L2", json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(o, "aic_metrics", &v));
	EXPECT_STREQ("Memory", json_object_get_string(v));
	json_object_put(o);
	ASSERT_EQ(2, sscanf(line[2], "%d:%llu", &fd, &ino)) TH_LOG("%s", line[2]);
	snprintf(want, sizeof(want), "socket:[%llu]", ino);
	EXPECT_STREQ(want, line[3]);
	/* no folder was reported: nothing to say */
	EXPECT_EQ(NULL, strstr(self->r.err, "npuprof: profile:")) TH_LOG("%s", self->r.err);

	EXPECT_EQ(0, run(&self->r, ARGS("run", "--output", self->dir, "--", "true")));
	EXPECT_EQ(127,
		  run(&self->r, ARGS("run", "--output", self->dir, "--", "/nonexistent/prog")));
	EXPECT_NE(NULL, strstr(self->r.err, "cannot run '/nonexistent/prog'"));
}

/* A grandchild that keeps the socket open does not keep npuprof waiting. */
TEST_F(cli, a_grandchild_holding_the_socket)
{
	time_t t0 = time(NULL);

	EXPECT_EQ(0, run(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c",
					"sleep 20 </dev/null >/dev/null 2>&1 & exit 0")));
	EXPECT_GT(10, time(NULL) - t0);
}

/* SIGINT passed on: PROGRAM handles it, and its status is run's. */
TEST_F(cli, sigint_is_passed_on)
{
	ASSERT_EQ(0, start(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c",
					  "trap 'echo got INT; exit 42' INT; echo ready;"
					  " while :; do sleep 0.1; done")));
	ASSERT_EQ(0, read_line(&self->r)) TH_LOG("%s", self->r.out);
	EXPECT_STREQ("ready\n", self->r.out);
	ASSERT_EQ(0, kill(self->r.pid, SIGINT));
	finish(&self->r);
	EXPECT_EQ(42, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_STREQ("ready\ngot INT\n", self->r.out);
}

/* SIGTERM passed on kills PROGRAM: npuprof exits 128 + 15 itself, and says so. */
TEST_F(cli, sigterm_kills_the_program_not_npuprof)
{
	ASSERT_EQ(0, start(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c",
					  "echo ready; exec sleep 30")));
	ASSERT_EQ(0, read_line(&self->r));
	ASSERT_EQ(0, kill(self->r.pid, SIGTERM));
	finish(&self->r);
	EXPECT_EQ(128 + SIGTERM, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "was killed by signal 15")) TH_LOG("%s", self->r.err);
}

/* A copy of msprof's sample without its output, as a reported folder; 0 or SKIP. */
static int sample_copy(const char *dir, char *prof, size_t len)
{
	char ref[PATH_MAX], cmd[PATH_MAX * 3];

	if (msprof_reference_dir(ref, sizeof(ref)))
		return -1;
	snprintf(prof, len, "%s/" SAMPLE, dir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/msprof-sample/" SAMPLE "' '%s' && rm -rf '%s'/mind*",
		 ref, dir, prof);
	return system(cmd) ? -1 : 0;
}

/*
 * PROGRAM reports its folder (and junk: a relative path, a line that is no
 * PROF_* folder, the folder again) and is killed by SIGKILL before any
 * export: npuprof exports the folder itself, once, and exits 137.
 */
TEST_F(cli, a_killed_program_is_exported_by_npuprof)
{
	char prof[PATH_MAX], script[PATH_MAX * 3], path[PATH_MAX + 64], want[PATH_MAX + 64];
	char *first;

	if (sample_copy(self->dir, prof, sizeof(prof)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): no PROF folder to copy");
	snprintf(script, sizeof(script),
		 "fd=${NPUPROF_REPORT_FD%%%%:*}; echo %s >&$fd; echo PROF_relative >&$fd;"
		 " echo /tmp/not-a-prof >&$fd; echo %s >&$fd; kill -KILL $$",
		 prof, prof);
	EXPECT_EQ(128 + SIGKILL,
		  run(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c", script)));
	snprintf(want, sizeof(want), "npuprof: profile: %s\n", prof);
	first = strstr(self->r.err, want);
	ASSERT_NE(NULL, first) TH_LOG("%s", self->r.err);
	EXPECT_EQ(NULL, strstr(first + 1, want)) TH_LOG("reported twice: %s", self->r.err);
	EXPECT_EQ(NULL, strstr(self->r.err, "PROF_relative"));
	EXPECT_EQ(NULL, strstr(self->r.err, "not-a-prof"));
	EXPECT_NE(NULL, strstr(self->r.err, "killed by signal 9")) TH_LOG("%s", self->r.err);
	snprintf(want, sizeof(want), "npuprof: exported %s/mindstudio_profiler_output", prof);
	EXPECT_NE(NULL, strstr(self->r.err, want)) TH_LOG("%s", self->r.err);
	EXPECT_STREQ("", self->r.out);
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/README.txt", prof);
	EXPECT_EQ(0, access(path, F_OK));
	snprintf(script, sizeof(script),
		 "exit $(cat %s/mindstudio_profiler_output/op_summary_*.csv"
		 " | wc -l)",
		 prof);
	EXPECT_LT(1, WEXITSTATUS(system(script)));
}

/* A folder left unexported by a program that exited 0: status 1, and why. */
TEST_F(cli, an_unexported_folder_fails_the_run)
{
	char prof[PATH_MAX], script[PATH_MAX * 3], path[PATH_MAX + 64];

	if (sample_copy(self->dir, prof, sizeof(prof)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): no PROF folder to copy");
	snprintf(script, sizeof(script), "fd=${NPUPROF_REPORT_FD%%%%:*}; echo %s >&$fd; exit 0",
		 prof);
	EXPECT_EQ(1, run(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c", script)));
	EXPECT_NE(NULL, strstr(self->r.err, "was not exported")) TH_LOG("%s", self->r.err);
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/README.txt", prof);
	EXPECT_NE(0, access(path, F_OK));
	/* and a program that failed keeps its own status */
	snprintf(script, sizeof(script), "fd=${NPUPROF_REPORT_FD%%%%:*}; echo %s >&$fd; exit 5",
		 prof);
	EXPECT_EQ(5, run(&self->r, ARGS("run", "--output", self->dir, "--", "sh", "-c", script)));
}

/* export's summary is a result: stderr; stdout stays empty. */
TEST_F(cli, export_results_go_to_stderr)
{
	char prof[PATH_MAX], want[PATH_MAX + 64];

	if (sample_copy(self->dir, prof, sizeof(prof)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): no PROF folder to copy");
	EXPECT_EQ(0, run(&self->r, ARGS("export", "--quiet", prof)));
	snprintf(want, sizeof(want), "npuprof: exported %s/mindstudio_profiler_output (", prof);
	EXPECT_NE(NULL, strstr(self->r.err, want)) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.err, "npuprof:   device 0: L1, ")) TH_LOG("%s", self->r.err);
	EXPECT_STREQ("", self->r.out);
	EXPECT_EQ(1, run(&self->r, ARGS("export", self->dir)));
	EXPECT_NE(NULL, strstr(self->r.err, "is not in a PROF_* folder"));
}

/* Without the module, the netlink commands fail with status 1 and print nothing on stdout. */
TEST_F(cli, netlink_commands_without_the_module)
{
	if (access("/sys/module/vnpu", F_OK) == 0)
		SKIP(return, "vnpu.ko is loaded here");
	EXPECT_EQ(1, run(&self->r, ARGS("devices", "--json")));
	EXPECT_STREQ("", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.err, "vnpu.ko")) TH_LOG("%s", self->r.err);
	EXPECT_EQ(1, run(&self->r, ARGS("stat", "--json", "0")));
	EXPECT_STREQ("", self->r.out);
}

TEST_HARNESS_MAIN
