// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof: the command line of vnpu + libnpuprof.
 *
 *   npuprof run [--level L] [--aic-metrics GROUP] [--output DIR] -- PROGRAM [ARGS]
 *   npuprof export [--timestamp TS] [--quiet] RAW_OR_PROF_DIR
 *   npuprof devices [--json]
 *   npuprof stat [--json] [DEV]
 *   npuprof watch [--count N] [--timeout SEC]
 *   npuprof [COMMAND] --help | --version
 *
 * Exit codes: 0 success; 1 failure (the message names what failed; a
 * missing or unusable output directory is one: the environment, not the
 * command line, is wrong); 2 bad usage (an unknown option, a malformed
 * value); `run` returns the program's own status (128 + signal when it
 * was killed). See docs/npuprof.md and npuprof(1).
 *
 * Output: what a script parses (the tables of devices and stat, their
 * --json documents, watch's events, --help, --version) goes to stdout;
 * results and progress (run's "npuprof: profile: DIR", export's summary)
 * and every message go to stderr, so that they never mix with PROGRAM's
 * own stdout under `run`.
 *
 * `run` learns each PROF_* folder from the program itself: it passes one
 * end of a socket pair in NPUPROF_REPORT_FD, and libnpuprof's global
 * profiling sends each folder's path there when it makes it (report.c).
 * While the program runs, `run` forwards SIGINT and SIGTERM to it; when a
 * signal killed it (so its atexit export never ran), `run` exports the
 * folders itself from the raw data already on disk, as `perf record` does.
 *
 * Only libnpuprof's public API is used: the tool links the shared library.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npuprof.h"
#include "vnpu_prof.h"

/* The project's version: the libnpuprof header's this was built with. */
#define STR_(x) #x
#define STR(x) STR_(x)
#define NPUPROF_CLI_VERSION \
	STR(NPUPROF_VERSION_MAJOR) "." STR(NPUPROF_VERSION_MINOR) "." STR(NPUPROF_VERSION_PATCH)

#define EXIT_USAGE 2

static const char *prog = "npuprof";

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", prog, *cmd ? " " : "", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s%s%s --help'.\n", prog, *cmd ? " " : "", cmd);
	return EXIT_USAGE;
}

/*
 * getopt_long() returned '?' or ':' (opterr is 0, so getopt printed
 * nothing): name the option, as the user wrote it.
 */
static int bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	if (optopt)
		return usage_error(cmd, "unknown option '-%c'", optopt);
	return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

/* Start getopt_long() over on a subcommand's argv (glibc: optind 0 resets it). */
static void getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

static int fail(const char *cmd, const struct npuprof_error *err)
{
	fprintf(stderr, "%s %s: %s\n", prog, cmd, err->msg);
	return 1;
}

static int version(void)
{
	printf("npuprof %s\nlibnpuprof %s\n", NPUPROF_CLI_VERSION, npuprof_version());
	return 0;
}

/* A whole decimal number in [min, max], or -1. */
static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	return v;
}

static const char *level_str(uint32_t level, const char *unknown)
{
	const char *s = npuprof_level_name(level);

	return s ? s : unknown;
}

static const char *group_str(uint32_t group)
{
	const char *s = npuprof_metrics_name(group);

	return s ? s : "none";
}

/* ---- export (also run's, for a program that was killed) ---- */

static int progress(void *arg, uint64_t done, uint64_t total)
{
	int width = 40, fill = total ? (int)(done * (uint64_t)width / total) : width;

	(void)arg;
	fprintf(stderr, "\rexporting [%.*s%*s] %3d%%", fill,
		"########################################", width - fill, "",
		total ? (int)(done * 100 / total) : 100);
	if (done == total)
		fputc('\n', stderr);
	return 0;
}

/* Export the PROF_* folder @root and say what it held, on stderr: 0 or 1. */
static int export_prof(const char *cmd, const char *root, const char *timestamp, int quiet)
{
	struct npuprof_export_summary sum = { 0 }; /* filled on success only */
	struct npuprof_export_opts eo = {
		.sz = sizeof(eo), .timestamp = timestamp, .quiet = quiet, .summary = &sum
	};
	struct npuprof_error err;
	unsigned long long missing = 0;

	if (!quiet && isatty(STDERR_FILENO))
		eo.progress = progress;
	if (npuprof_export(root, &eo, &err))
		return fail(cmd, &err);
	fprintf(stderr,
		"npuprof: exported %s/mindstudio_profiler_output (%llu op_summary rows, "
		"%u device(s))\n",
		root, (unsigned long long)sum.op_summary_rows, sum.n_devices);
	for (uint32_t i = 0; i < sum.n_devices; i++) {
		const struct npuprof_export_device *d = &sum.dev[i];

		fprintf(stderr, "npuprof:   device %u: %s, %s, %llu tasks, %llu records, %llu lost",
			d->dev_id, level_str(d->level, "?"), group_str(d->metric_group),
			(unsigned long long)d->tasks, (unsigned long long)d->records,
			(unsigned long long)d->lost);
		if (d->seq_missing)
			fprintf(stderr, ", %llu missing", (unsigned long long)d->seq_missing);
		fputc('\n', stderr);
		missing += d->seq_missing;
	}
	if (sum.lost)
		fprintf(stderr,
			"%s %s: warning: %llu records were lost (ring full); see README.txt\n",
			prog, cmd, (unsigned long long)sum.lost);
	if (missing)
		fprintf(stderr,
			"%s %s: warning: %llu records are missing from the raw data "
			"(not written, cut short or removed); see README.txt\n",
			prog, cmd, missing);
	return 0;
}

/* ---- run ---- */

static const char run_help[] =
	"Usage: npuprof run [OPTIONS] -- PROGRAM [ARGS...]\n"
	"Run PROGRAM under global profiling: every virtual NPU it opens through\n"
	"libnpuprof is profiled until it exits, into one PROF_* folder.\n"
	"\n"
	"  -l, --level L0|L1|L2        what to collect (default L1)\n"
	"  -m, --aic-metrics GROUP     AI Core metric group, as msprof's (L1/L2; default the\n"
	"                              product's: PipeUtilization, or PipelineExecuteUtilization\n"
	"                              on the 200I/500 A2): ArithmeticUtilization, L2Cache,\n"
	"                              Memory, MemoryL0, MemoryUB, PipeUtilization,\n"
	"                              ResourceConflictRatio, PipelineExecuteUtilization,\n"
	"                              MemoryAccess (each where the product has it)\n"
	"  -o, --output DIR            where the PROF_* folder goes (default:\n"
	"                              $ASCEND_WORK_PATH/profiling_data, or the current\n"
	"                              directory); must exist and be writable\n"
	"  -n, --ranks N               run N copies of PROGRAM (2..16), one process per rank:\n"
	"                              RANK_ID, RANK_SIZE, ASCEND_DEVICE_ID and NPUPROF_ROOT_INFO\n"
	"                              set for each (npuprof_comm_init_ranks() reads them);\n"
	"                              one PROF_* folder per rank\n"
	"  -h, --help                  this text\n"
	"  -V, --version               the versions of npuprof and libnpuprof\n"
	"\n"
	"Sets PROFILING_MODE=true, PROFILING_OPTIONS (msprof's convention) and\n"
	"NPUPROF_REPORT_FD for PROGRAM and prints each PROF_* folder it makes, on\n"
	"stderr. SIGINT and SIGTERM are passed on to PROGRAM; when a signal kills it,\n"
	"npuprof exports its folders itself. Exit status: PROGRAM's (128 + N when\n"
	"signal N killed it).\n";

/*
 * What `run` learned from the program: the PROF_* folders it reported,
 * each once (a program and its children share the socket).
 */
struct run_profs {
	char **dir;
	size_t n;
};

/*
 * Read the folders waiting on @fd without blocking. A message must be an
 * absolute path to a PROF_* folder and a newline, as report.c sends it:
 * anything else (the program may write what it likes to the socket) is
 * ignored. Returns 0, or -1 once every writer has closed its end.
 */
static int read_reports(int fd, struct run_profs *p)
{
	char buf[PATH_MAX + 2];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT | MSG_TRUNC);
		const char *base;
		char **grown;
		size_t i;

		if (n == 0)
			return -1; /* end of file: no writer is left */
		if (n < 0)
			return errno == EINTR ? 0 : errno == EAGAIN ? 0 : -1;
		if ((size_t)n >= sizeof(buf) - 1 || buf[n - 1] != '\n')
			continue; /* too long (truncated) or not a line */
		buf[n - 1] = '\0';
		base = strrchr(buf, '/');
		if (buf[0] != '/' || strchr(buf, '\n') || !base || strncmp(base + 1, "PROF_", 5))
			continue;
		for (i = 0; i < p->n && strcmp(p->dir[i], buf); i++)
			;
		if (i < p->n)
			continue;
		grown = realloc(p->dir, (p->n + 1) * sizeof(*p->dir));
		if (!grown)
			return 0; /* keep what we have; the folder is still on disk */
		p->dir = grown;
		p->dir[p->n] = strdup(buf);
		if (!p->dir[p->n])
			return 0;
		fprintf(stderr, "npuprof: profile: %s\n", p->dir[p->n++]);
	}
}

/*
 * The signals `run` passes on: SIGINT and SIGTERM, unless npuprof itself
 * was started with them ignored (a background job of a non-interactive
 * shell, nohup): PROGRAM inherits that, and npuprof honours it too.
 */
static void forwarded_signals(sigset_t *set)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		if (!sigaction(sigs[i], NULL, &sa) && sa.sa_handler != SIG_IGN)
			sigaddset(set, sigs[i]);
	}
}

/*
 * Wait for the @n processes of @pid (one per rank), reading their reports
 * on @rfd and passing on the signals @sfd delivers to those still
 * running; their statuses go to @status. The socket is not read to its
 * end: a grandchild that outlives PROGRAM may hold it open, and `run` is
 * done when every rank is.
 */
static int wait_child(pid_t *pid, unsigned int n, int sfd, int rfd, struct run_profs *profs,
		      int *status)
{
	struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN }, { .fd = rfd, .events = POLLIN } };
	unsigned int left = n;

	for (;;) {
		struct signalfd_siginfo si;
		pid_t w = 0;
		int st;

		while (left && (w = waitpid(-1, &st, WNOHANG)) > 0) {
			for (unsigned int i = 0; i < n; i++) {
				if (pid[i] == w) {
					status[i] = st;
					pid[i] = 0;
					left--;
				}
			}
		}
		if (!left)
			break;
		if (w < 0 && errno != EINTR && errno != ECHILD) {
			perror("npuprof run: waitpid");
			return -1;
		}
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			perror("npuprof run: poll");
			return -1;
		}
		if (pfd[1].revents && read_reports(rfd, profs) < 0)
			pfd[1].fd = -1; /* every writer is gone: stop polling it */
		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			for (unsigned int i = 0; i < n && si.ssi_signo != SIGCHLD; i++)
				if (pid[i])
					kill(pid[i], (int)si.ssi_signo);
		}
	}
	/* what PROGRAM sent before it exited is queued: take it */
	read_reports(rfd, profs);
	return 0;
}

/* PROFILING_OPTIONS for the child, made by json-c (DIR may hold quotes). */
static char *profiling_options(const char *dir, const char *level, const char *metrics)
{
	struct json_object *o = json_object_new_object();
	char *s = NULL;

	if (!o)
		return NULL;
	if (!json_object_object_add(o, "output", json_object_new_string(dir)) &&
	    !json_object_object_add(o, "level", json_object_new_string(level)) &&
	    !json_object_object_add(o, "aic_metrics", json_object_new_string(metrics)))
		s = strdup(json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

static bool exported(const char *dir)
{
	char readme[PATH_MAX + 64];

	/* README.txt is the last file an export writes */
	snprintf(readme, sizeof(readme), "%s/mindstudio_profiler_output/README.txt", dir);
	return access(readme, F_OK) == 0;
}

/* After PROGRAM: export what a killed one left, or say what was not exported. */
static int run_results(const char *program, int status, struct run_profs *profs)
{
	int failed = 0;

	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		fprintf(stderr, "npuprof run: '%s' was killed by signal %d (%s)%s\n", program, sig,
			strsignal(sig), profs->n ? "; exporting what it collected" : "");
		for (size_t i = 0; i < profs->n; i++) {
			if (!exported(profs->dir[i]) && export_prof("run", profs->dir[i], NULL, 0))
				fprintf(stderr,
					"npuprof run: %s was not exported; its raw data is "
					"there for 'npuprof export'\n",
					profs->dir[i]);
		}
		return 128 + sig;
	}
	for (size_t i = 0; i < profs->n; i++) {
		if (exported(profs->dir[i]))
			continue;
		fprintf(stderr,
			"npuprof run: %s was not exported (see the error above); export "
			"its raw data with 'npuprof export' once the cause is fixed\n",
			profs->dir[i]);
		failed = 1;
	}
	/* PROGRAM's status, unless it succeeded and its profile did not */
	return WEXITSTATUS(status) ? WEXITSTATUS(status) : failed;
}

/*
 * The status `run` reports for its ranks: the first killed by a signal,
 * else the first that failed, else success (rank 0's).
 */
static int worst_status(const int *status, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (WIFSIGNALED(status[i]))
			return status[i];
	for (unsigned int i = 0; i < n; i++)
		if (WEXITSTATUS(status[i]))
			return status[i];
	return status[0];
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "aic-metrics", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "ranks", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *level = "L1", *metrics = "", *output = NULL;
	struct run_profs profs = { NULL, 0 };
	char dir[PATH_MAX], report[64], *json, rdv[] = "/tmp/npuprof-ranks-XXXXXX";
	char root_info[sizeof(rdv) + 16];
	int status[VNPU_MAX_DEVICES] = { 0 };
	pid_t pid[VNPU_MAX_DEVICES] = { 0 };
	unsigned int ranks = 0, forked = 0;
	sigset_t set, old;
	struct npuprof_error err;
	int c, ret, sfd = -1, sv[2];
	struct stat st;
	uint32_t l, g;
	long v;

	getopt_reset();
	while ((c = getopt_long(argc, argv, "+:l:m:o:n:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			v = parse_num(optarg, 2, VNPU_MAX_DEVICES);
			if (v < 0)
				return usage_error("run", "--ranks '%s' is not 2..%d", optarg,
						   VNPU_MAX_DEVICES);
			ranks = (unsigned int)v;
			break;
		case 'l':
			level = optarg;
			break;
		case 'm':
			metrics = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(run_help, stdout);
			return 0;
		case 'V':
			return version();
		default:
			return bad_option("run", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("run", "no PROGRAM given");
	if (npuprof_level_parse(level, &l, &err) ||
	    npuprof_metrics_parse_msprof(metrics, l, &g, &err))
		return usage_error("run", "%s", err.msg);
	ret = npuprof_output_check(output, "--output", dir, sizeof(dir), &err);
	/* a malformed name is bad usage; a missing or read-only directory is not */
	if (ret == -EINVAL || ret == -ENAMETOOLONG)
		return usage_error("run", "%s", err.msg);
	if (ret)
		return fail("run", &err);

	json = profiling_options(dir, level, metrics);
	if (!json) {
		fprintf(stderr, "npuprof run: out of memory\n");
		return 1;
	}
	/* the child's end is sv[1]; its inode tells the library it is the one meant */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) || fstat(sv[1], &st)) {
		perror("npuprof run: socketpair");
		free(json);
		return 1;
	}
	/* where rank 0 leaves the communicator's key for the others */
	if (ranks) {
		if (!mkdtemp(rdv)) {
			perror("npuprof run: mkdtemp");
			free(json);
			close(sv[0]);
			close(sv[1]);
			return 1;
		}
		snprintf(root_info, sizeof(root_info), "%s/root_info", rdv);
	}
	snprintf(report, sizeof(report), "%d:%llu", sv[1], (unsigned long long)st.st_ino);

	/*
	 * Block the signals to pass on before the fork, so that none is lost
	 * between the fork and the wait: they arrive on a signalfd instead.
	 * SIGCHLD too, with its default action (an inherited SIG_IGN would
	 * reap PROGRAM behind our back).
	 */
	signal(SIGCHLD, SIG_DFL);
	forwarded_signals(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		perror("npuprof run: signalfd");
		ret = 1;
		goto out;
	}

	fflush(NULL);
	for (forked = 0; forked < (ranks ? ranks : 1); forked++) {
		pid[forked] = fork();
		if (pid[forked] < 0) {
			perror("npuprof run: fork");
			pid[forked] = 0;
			/* the ranks already running would wait for this one forever */
			for (unsigned int i = 0; i < forked; i++)
				kill(pid[i], SIGTERM);
			break;
		}
		if (pid[forked] == 0) {
			char num[16];

			sigprocmask(SIG_SETMASK, &old, NULL);
			/* the one fd PROGRAM inherits from us */
			if (fcntl(sv[1], F_SETFD, 0) == 0)
				setenv("NPUPROF_REPORT_FD", report, 1);
			setenv("PROFILING_MODE", "true", 1);
			setenv("PROFILING_OPTIONS", json, 1);
			if (ranks) {
				/* HCCL's variables; rank r on device r */
				snprintf(num, sizeof(num), "%u", forked);
				setenv("RANK_ID", num, 1);
				setenv("ASCEND_DEVICE_ID", num, 1);
				snprintf(num, sizeof(num), "%u", ranks);
				setenv("RANK_SIZE", num, 1);
				setenv("NPUPROF_ROOT_INFO", root_info, 1);
			}
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "npuprof run: cannot run '%s': %s\n", argv[optind],
				strerror(errno));
			_exit(127);
		}
	}
	close(sv[1]);
	sv[1] = -1;
	if (wait_child(pid, forked, sfd, sv[0], &profs, status)) {
		ret = 1;
		goto out;
	}
	/*
	 * PROGRAM is gone: signals get their usual meaning back, so that a
	 * second Ctrl-C stops an export that takes too long. Those already
	 * queued were meant for PROGRAM.
	 */
	{
		struct signalfd_siginfo si;

		while (read(sfd, &si, sizeof(si)) == sizeof(si))
			;
	}
	close(sfd);
	sfd = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	ret = run_results(argv[optind], worst_status(status, forked), &profs);
	if (forked < (ranks ? ranks : 1))
		ret = ret ? ret : 1; /* a rank could not be started */
out:
	if (ranks) {
		unlink(root_info);
		rmdir(rdv);
	}
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	for (size_t i = 0; i < profs.n; i++)
		free(profs.dir[i]);
	free(profs.dir);
	free(json);
	return ret;
}

/* ---- export ---- */

static const char export_help[] =
	"Usage: npuprof export [OPTIONS] RAW_OR_PROF_DIR\n"
	"Parse the raw data of a PROF_* folder (or of one of its device_N or data\n"
	"folders) again into mindstudio_profiler_output/; the summary goes to stderr.\n"
	"\n"
	"  -t, --timestamp YYYYMMDDhhmmss   the {ts} of the file names (default: now)\n"
	"  -q, --quiet                      no progress bar and no warnings\n"
	"  -h, --help                       this text\n"
	"  -V, --version                    the versions of npuprof and libnpuprof\n";

/* The PROF_* folder @path is in or is, in @out (PATH_MAX): 0 or 1. */
static int find_prof_root(const char *path, char *out)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf)) {
		fprintf(stderr, "%s export: '%s': %s\n", prog, path, strerror(errno));
		return 1;
	}
	for (;;) {
		char *base = strrchr(buf, '/');

		if (!base || base == buf) {
			fprintf(stderr, "%s export: '%s' is not in a PROF_* folder\n", prog, path);
			return 1;
		}
		if (!strncmp(base + 1, "PROF_", 5)) {
			strcpy(out, buf);
			return 0;
		}
		*base = 0;
	}
}

static int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timestamp", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *timestamp = NULL;
	char root[PATH_MAX];
	int c, quiet = 0;

	getopt_reset();
	while ((c = getopt_long(argc, argv, ":t:qhV", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			timestamp = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(export_help, stdout);
			return 0;
		case 'V':
			return version();
		default:
			return bad_option("export", c, argv);
		}
	}
	if (optind != argc - 1)
		return usage_error("export", "give exactly one RAW_OR_PROF_DIR");
	if (find_prof_root(argv[optind], root))
		return 1;
	return export_prof("export", root, timestamp, quiet);
}

/* ---- devices, stat, watch (generic netlink) ---- */

static const char devices_help[] = "Usage: npuprof devices [--json]\n"
				   "List the virtual NPUs (over the vnpu generic netlink family).\n"
				   "\n"
				   "  -j, --json     one JSON document instead of the table\n"
				   "  -h, --help     this text\n"
				   "  -V, --version  the versions of npuprof and libnpuprof\n";
static const char stat_help[] =
	"Usage: npuprof stat [--json] [DEV]\n"
	"Show the state and counters of device DEV (default: every device).\n"
	"\n"
	"  -j, --json     one JSON document instead of the text\n"
	"  -h, --help     this text\n"
	"  -V, --version  the versions of npuprof and libnpuprof\n";
static const char watch_help[] =
	"Usage: npuprof watch [--count N] [--timeout SEC]\n"
	"Print the vnpu events (session started/stopped, records lost, device\n"
	"reset) as they happen; a LOST line when the kernel dropped some.\n"
	"\n"
	"  -c, --count N      exit after N events\n"
	"  -t, --timeout SEC  exit after SEC seconds without an event (status 0)\n"
	"  -h, --help         this text\n"
	"  -V, --version      the versions of npuprof and libnpuprof\n";

/*
 * The options of devices and stat: --json, --help, --version. 0 to go
 * on (with *@json set), or the status to exit with.
 */
static int json_opts(const char *cmd, const char *help, int argc, char **argv, int *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	getopt_reset();
	while ((c = getopt_long(argc, argv, ":jhV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = 1;
			break;
		case 'h':
			fputs(help, stdout);
			return 0;
		case 'V':
			return version();
		default:
			return bad_option(cmd, c, argv);
		}
	}
	return -1;
}

/*
 * One device as JSON: what `devices` shows, and with @counters what
 * `stat` adds. NULL when out of memory.
 */
static struct json_object *dev_json(const struct npuprof_nl_dev *d, bool counters)
{
	struct json_object *o = json_object_new_object(), *p = NULL;
	const char *group = npuprof_metrics_name(d->prof_group);
	int bad = !o;

#define ADD(key, val) (bad |= json_object_object_add(o, key, val))
	if (bad)
		return NULL;
	ADD("id", json_object_new_int64(d->id));
	ADD("product", json_object_new_string(d->product_name));
	ADD("product_id", json_object_new_int64(d->product));
	ADD("chip", json_object_new_string(d->chip_name));
	ADD("chip_id", json_object_new_int64(d->chip_id));
	ADD("aic_num", json_object_new_int64(d->aic_num));
	ADD("aiv_num", json_object_new_int64(d->aiv_num));
	ADD("aicpu_num", json_object_new_int64(d->aicpu_num));
	ADD("aic_freq_khz", json_object_new_int64(d->aic_freq_khz));
	ADD("sys_cnt_freq_khz", json_object_new_int64(d->sys_cnt_freq_khz));
	if (d->prof_active) {
		p = json_object_new_object();
		bad |= !p;
		if (p) {
			bad |= json_object_object_add(p, "session",
						      json_object_new_int64(d->prof_session));
			bad |= json_object_object_add(
				p, "level", json_object_new_string(level_str(d->prof_level, "?")));
			bad |= json_object_object_add(p, "aic_metrics",
						      group ? json_object_new_string(group) : NULL);
		}
	}
	ADD("profiling", p); /* null: no session */
	if (counters) {
		ADD("tasks_run", json_object_new_uint64(d->tasks_run));
		ADD("tasks_pending", json_object_new_uint64(d->tasks_pending));
		ADD("records_produced", json_object_new_uint64(d->records_produced));
		ADD("records_lost", json_object_new_uint64(d->records_lost));
		ADD("ring_size", json_object_new_uint64(d->ring_size));
		ADD("ring_used", json_object_new_uint64(d->ring_used));
	}
#undef ADD
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* {"devices": [...]} on stdout: 0 or 1. */
static int print_json(const char *cmd, const struct npuprof_nl_dev *devs, int n, bool counters)
{
	struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	int bad = !doc || !arr;

	for (int i = 0; !bad && i < n; i++) {
		struct json_object *d = dev_json(&devs[i], counters);

		bad = !d || json_object_array_add(arr, d);
		if (bad)
			json_object_put(d); /* a failed add leaves it ours */
	}
	if (!bad) {
		bad = json_object_object_add(doc, "devices", arr);
		if (!bad)
			arr = NULL; /* doc owns it now */
	}
	if (!bad)
		printf("%s\n",
		       json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(arr);
	json_object_put(doc);
	if (bad)
		fprintf(stderr, "%s %s: out of memory\n", prog, cmd);
	return bad ? 1 : 0;
}

static int cmd_devices(int argc, char **argv)
{
	struct npuprof_nl_dev devs[VNPU_MAX_DEVICES];
	struct npuprof_error err;
	struct npuprof_nl *nl;
	int json = 0, n, ret = json_opts("devices", devices_help, argc, argv, &json);

	if (ret >= 0)
		return ret;
	if (optind != argc)
		return usage_error("devices", "too many arguments");
	if (npuprof_nl_open(&nl, &err))
		return fail("devices", &err);
	n = npuprof_nl_dump(nl, devs, VNPU_MAX_DEVICES, &err);
	npuprof_nl_close(nl);
	if (n < 0)
		return fail("devices", &err);
	if (json)
		return print_json("devices", devs, n, false);
	printf("%-4s %-24s %-14s %4s %4s %6s %9s  %s\n", "DEV", "PRODUCT", "CHIP", "AIC", "AIV",
	       "AICPU", "AIC MHz", "PROFILING");
	for (int i = 0; i < n; i++) {
		const struct npuprof_nl_dev *d = &devs[i];
		char prof[64] = "off";

		if (d->prof_active)
			snprintf(prof, sizeof(prof), "session %u %s %s", d->prof_session,
				 level_str(d->prof_level, "?"), group_str(d->prof_group));
		printf("%-4u %-24s %-14s %4u %4u %6u %9u  %s\n", d->id, d->product_name,
		       d->chip_name, d->aic_num, d->aiv_num, d->aicpu_num, d->aic_freq_khz / 1000,
		       prof);
	}
	return 0;
}

static void print_stat(const struct npuprof_nl_dev *d)
{
	printf("vnpu%u: %s (%s)\n", d->id, d->product_name, d->chip_name);
	printf("  tasks run %llu, pending %llu\n", (unsigned long long)d->tasks_run,
	       (unsigned long long)d->tasks_pending);
	if (d->prof_active)
		printf("  profiling: session %u, %s, %s\n", d->prof_session,
		       level_str(d->prof_level, "?"), group_str(d->prof_group));
	else
		printf("  profiling: off\n");
	printf("  records produced %llu, lost %llu; ring %llu bytes, %llu unread\n",
	       (unsigned long long)d->records_produced, (unsigned long long)d->records_lost,
	       (unsigned long long)d->ring_size, (unsigned long long)d->ring_used);
}

static int cmd_stat(int argc, char **argv)
{
	struct npuprof_nl_dev devs[VNPU_MAX_DEVICES];
	struct npuprof_error err;
	struct npuprof_nl *nl;
	int json = 0, n = 1, ret = json_opts("stat", stat_help, argc, argv, &json);
	long dev = -1;

	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return usage_error("stat", "too many arguments");
	if (optind < argc) {
		dev = parse_num(argv[optind], 0, VNPU_MAX_DEVICES - 1);
		if (dev < 0)
			return usage_error("stat", "DEV '%s' is not a device number (0..%d)",
					   argv[optind], VNPU_MAX_DEVICES - 1);
	}
	if (npuprof_nl_open(&nl, &err))
		return fail("stat", &err);
	if (dev >= 0)
		ret = npuprof_nl_get(nl, (uint32_t)dev, devs, &err);
	else
		ret = n = npuprof_nl_dump(nl, devs, VNPU_MAX_DEVICES, &err);
	npuprof_nl_close(nl);
	if (ret < 0)
		return fail("stat", &err);
	if (json)
		return print_json("stat", devs, n, true);
	for (int i = 0; i < n; i++)
		print_stat(&devs[i]);
	return 0;
}

static int cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = { "?", "session-started", "session-stopped",
					     "records-lost", "device-reset" };
	long count = -1, timeout = -1;
	struct npuprof_nl_event ev;
	struct npuprof_error err;
	struct npuprof_nl *nl;
	int c, ret = 0;

	getopt_reset();
	while ((c = getopt_long(argc, argv, ":c:t:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			count = parse_num(optarg, 1, 1000000000);
			if (count < 0)
				return usage_error("watch", "--count '%s' is not a number >= 1",
						   optarg);
			break;
		case 't':
			timeout = parse_num(optarg, 1, 86400);
			if (timeout < 0)
				return usage_error(
					"watch", "--timeout '%s' is not 1..86400 seconds", optarg);
			break;
		case 'h':
			fputs(watch_help, stdout);
			return 0;
		case 'V':
			return version();
		default:
			return bad_option("watch", c, argv);
		}
	}
	if (optind != argc)
		return usage_error("watch", "unexpected argument '%s'", argv[optind]);
	if (npuprof_nl_open(&nl, &err) || npuprof_nl_subscribe(nl, &err))
		return fail("watch", &err);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (count) {
		ret = npuprof_nl_next_event(nl, &ev, timeout > 0 ? (int)timeout * 1000 : -1, &err);
		if (ret == -ETIMEDOUT) {
			ret = 0;
			break;
		}
		/* an overrun loses events, not the watch: say so and go on */
		if (ret == -ENOBUFS) {
			printf("LOST %s\n", err.msg);
			ret = 0;
			continue;
		}
		if (ret) {
			fail("watch", &err);
			break;
		}
		printf("vnpu%u %s session=%u level=%s produced=%llu lost=%llu\n", ev.dev_id,
		       ev.type < 5 ? names[ev.type] : "?", ev.session, level_str(ev.level, "-"),
		       (unsigned long long)ev.produced, (unsigned long long)ev.lost);
		if (count > 0)
			count--;
	}
	npuprof_nl_close(nl);
	return ret ? 1 : 0;
}

/* ---- main ---- */

static const char main_help[] =
	"Usage: npuprof [--help | --version] COMMAND [ARGS]\n"
	"Profile virtual NPUs (vnpu.ko) with msprof-compatible output.\n"
	"\n"
	"Commands:\n"
	"  run      run a program under profiling\n"
	"  export   parse raw data again into the output files\n"
	"  devices  list the devices\n"
	"  stat     show a device's state and counters\n"
	"  watch    print device events as they happen\n"
	"\n"
	"'npuprof COMMAND --help' describes a command. Exit status: 0 success, 1 failure,\n"
	"2 bad usage; 'run' returns the program's status.\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "run", cmd_run },   { "export", cmd_export }, { "devices", cmd_devices },
		{ "stat", cmd_stat }, { "watch", cmd_watch },
	};
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* '+': the options before COMMAND only; COMMAND parses its own */
	getopt_reset();
	while ((c = getopt_long(argc, argv, "+:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(main_help, stdout);
			return 0;
		case 'V':
			return version();
		default:
			return bad_option("", c, argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no command given\nTry '%s --help'.\n", prog, prog);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		fputs(main_help, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[optind], cmds[i].name))
			return cmds[i].fn(argc - optind, argv + optind);
	fprintf(stderr, "%s: unknown command '%s'\nTry '%s --help'.\n", prog, argv[optind], prog);
	return EXIT_USAGE;
}
