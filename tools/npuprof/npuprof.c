// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof: the command line of vnpu + libnpuprof.
 *
 *   npuprof run [--level L] [--aic-metrics GROUP] [--output DIR] -- PROGRAM [ARGS]
 *   npuprof export [--timestamp TS] [--quiet] RAW_OR_PROF_DIR
 *   npuprof devices
 *   npuprof stat [DEV]
 *   npuprof watch [--count N] [--timeout SEC]
 *
 * Exit codes: 0 success; 1 failure (the message names what failed);
 * 2 bad usage; `run` returns the program's own status (128 + signal when
 * it was killed). See docs/npuprof.md.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npuprof.h"
#include "npuprof_internal.h"
#include "vnpu_prof.h"

int npuprof_parse_level(const char *level, uint32_t *out, struct npuprof_error *err);
int npuprof_parse_metrics(const char *metrics, uint32_t level, uint32_t *out,
			  struct npuprof_error *err);
int npuprof_check_output_path(const char *path, const char *what, char *resolved,
			      struct npuprof_error *err);

#define EXIT_USAGE 2

static const char *prog = "npuprof";

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", prog, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s %s --help'.\n", prog, cmd);
	return EXIT_USAGE;
}

static int fail(const char *cmd, const struct npuprof_error *err)
{
	fprintf(stderr, "%s %s: %s\n", prog, cmd, err->msg);
	return 1;
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

static const char *const level_names[] = { "L0", "L1", "L2" };
static const char *const group_names[] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = "ArithmeticUtilization",
	[VNPU_METRIC_PIPE_UTILIZATION] = "PipeUtilization",
	[VNPU_METRIC_MEMORY] = "Memory",
	[VNPU_METRIC_MEMORY_L0] = "MemoryL0",
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = "ResourceConflictRatio",
	[VNPU_METRIC_MEMORY_UB] = "MemoryUB",
	[VNPU_METRIC_L2_CACHE] = "L2Cache",
	[VNPU_METRIC_PIPE_EXECUTE_UTILIZATION] = "PipelineExecuteUtilization",
	[VNPU_METRIC_MEMORY_ACCESS] = "MemoryAccess",
};

static const char *group_name(uint32_t g)
{
	return g < VNPU_METRIC_COUNT ? group_names[g] : "none";
}

/* ---- run ---- */

static const char run_help[] =
	"Usage: npuprof run [OPTIONS] -- PROGRAM [ARGS...]\n"
	"Run PROGRAM under global profiling: every virtual NPU it opens through\n"
	"libnpuprof is profiled until it exits, into one PROF_* folder.\n"
	"\n"
	"  -l, --level L0|L1|L2        what to collect (default L1)\n"
	"  -m, --aic-metrics GROUP     AI Core metric group (L1/L2; default PipeUtilization):\n"
	"                              ArithmeticUtilization, PipeUtilization, Memory, MemoryL0,\n"
	"                              MemoryUB, ResourceConflictRatio, L2Cache\n"
	"  -o, --output DIR            where the PROF_* folder goes (default: $ASCEND_WORK_PATH\n"
	"                              or the current directory); must exist and be writable\n"
	"  -h, --help                  this text\n"
	"\n"
	"Sets PROFILING_MODE=true and PROFILING_OPTIONS (msprof's convention) for PROGRAM,\n"
	"then prints the PROF_* folder(s) written. Exit status: PROGRAM's.\n";

/* Names of the PROF_* entries of @dir, newline-separated, in @buf. */
static void list_prof(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	buf[0] = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "PROF_", 5))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s\n", e->d_name);
	}
	closedir(d);
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "aic-metrics", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *level = "L1", *metrics = "", *output = NULL;
	char dir[PATH_MAX], json[PATH_MAX + 128], *before, *after;
	struct npuprof_error err;
	uint32_t l, g;
	int c, status, failed = 0;
	pid_t pid;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+l:m:o:h", opts, NULL)) != -1) {
		switch (c) {
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
		default:
			return usage_error("run", "bad option");
		}
	}
	if (optind >= argc)
		return usage_error("run", "no PROGRAM given");
	if (npuprof_parse_level(level, &l, &err) || npuprof_parse_metrics(metrics, l, &g, &err))
		return usage_error("run", "%s", err.msg);
	if (!output) {
		const char *env = getenv("ASCEND_WORK_PATH");

		output = env && *env ? env : ".";
	}
	if (npuprof_check_output_path(output, "--output", dir, &err))
		return usage_error("run", "%s", err.msg);

	snprintf(json, sizeof(json), "{\"output\":\"%s\",\"level\":\"%s\",\"aic_metrics\":\"%s\"}",
		 dir, level, metrics);
	before = malloc(1 << 16);
	after = malloc(1 << 16);
	if (!before || !after)
		return 1;
	list_prof(dir, before, 1 << 16);

	pid = fork();
	if (pid < 0) {
		perror("npuprof run: fork");
		return 1;
	}
	if (pid == 0) {
		setenv("PROFILING_MODE", "true", 1);
		setenv("PROFILING_OPTIONS", json, 1);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "npuprof run: cannot run '%s': %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("npuprof run: waitpid");
			return 1;
		}
	}

	list_prof(dir, after, 1 << 16);
	for (char *line = strtok(after, "\n"); line; line = strtok(NULL, "\n")) {
		char needle[300], readme[PATH_MAX + 320];

		snprintf(needle, sizeof(needle), "%s\n", line);
		if (strstr(before, needle))
			continue;
		printf("npuprof: profile: %s/%s\n", dir, line);
		/* README.txt is the last file an export writes */
		snprintf(readme, sizeof(readme), "%s/%s/mindstudio_profiler_output/README.txt", dir,
			 line);
		if (!WIFSIGNALED(status) && access(readme, F_OK)) {
			fprintf(stderr,
				"npuprof run: %s/%s was not exported (see the error above); export "
				"its raw data with 'npuprof export' once the cause is fixed\n",
				dir, line);
			failed = 1;
		}
	}
	free(before);
	free(after);
	if (WIFSIGNALED(status)) {
		fprintf(stderr,
			"npuprof run: '%s' was killed by signal %d; its raw data can be "
			"exported with 'npuprof export'\n",
			argv[optind], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	/* PROGRAM's status, unless it succeeded and its profile did not */
	return WEXITSTATUS(status) ? WEXITSTATUS(status) : failed;
}

/* ---- export ---- */

static const char export_help[] =
	"Usage: npuprof export [OPTIONS] RAW_OR_PROF_DIR\n"
	"Parse the raw data of a PROF_* folder (or of one of its device_N or data\n"
	"folders) again into mindstudio_profiler_output/.\n"
	"\n"
	"  -t, --timestamp YYYYMMDDhhmmss   the {ts} of the file names (default: now)\n"
	"  -q, --quiet                      no progress bar and no warnings\n"
	"  -h, --help                       this text\n";

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

/* The PROF_* folder @path is in or is, in @out. */
static int find_prof_root(const char *path, char *out, struct npuprof_error *err)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf))
		return npuprof_set_error(err, -errno, "'%s': %s", path, strerror(errno));
	for (;;) {
		char *base = strrchr(buf, '/');

		if (!base || base == buf)
			return npuprof_set_error(err, -ENOENT, "'%s' is not in a PROF_* folder",
						 path);
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
		{ NULL, 0, NULL, 0 },
	};
	struct npuprof_export_summary sum;
	struct npuprof_export_opts eo = { .sz = sizeof(eo), .summary = &sum };
	struct npuprof_error err;
	unsigned long long missing = 0;
	char root[PATH_MAX];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:qh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			eo.timestamp = optarg;
			break;
		case 'q':
			eo.quiet = 1;
			break;
		case 'h':
			fputs(export_help, stdout);
			return 0;
		default:
			return usage_error("export", "bad option");
		}
	}
	if (optind != argc - 1)
		return usage_error("export", "give exactly one RAW_OR_PROF_DIR");
	if (find_prof_root(argv[optind], root, &err))
		return fail("export", &err);
	if (!eo.quiet && isatty(STDERR_FILENO))
		eo.progress = progress;
	if (npuprof_export(root, &eo, &err))
		return fail("export", &err);
	printf("npuprof: exported %s/mindstudio_profiler_output (%llu op_summary rows, "
	       "%u device(s))\n",
	       root, (unsigned long long)sum.op_summary_rows, sum.n_devices);
	for (uint32_t i = 0; i < sum.n_devices; i++) {
		const struct npuprof_export_device *d = &sum.dev[i];

		printf("npuprof:   device %u: %s, %s, %llu tasks, %llu records, %llu lost",
		       d->dev_id, d->level < 3 ? level_names[d->level] : "?",
		       group_name(d->metric_group), (unsigned long long)d->tasks,
		       (unsigned long long)d->records, (unsigned long long)d->lost);
		if (d->seq_missing)
			printf(", %llu missing", (unsigned long long)d->seq_missing);
		putchar('\n');
		missing += d->seq_missing;
	}
	if (sum.lost)
		fprintf(stderr,
			"npuprof export: warning: %llu records were lost (ring full); "
			"see README.txt\n",
			(unsigned long long)sum.lost);
	if (missing)
		fprintf(stderr,
			"npuprof export: warning: %llu records are missing from the raw data "
			"(not written, cut short or removed); see README.txt\n",
			(unsigned long long)missing);
	return 0;
}

/* ---- devices, stat, watch (generic netlink) ---- */

static const char devices_help[] =
	"Usage: npuprof devices\n"
	"List the virtual NPUs (over the vnpu generic netlink family).\n";
static const char stat_help[] =
	"Usage: npuprof stat [DEV]\n"
	"Show the state and counters of device DEV (default: every device).\n";
static const char watch_help[] =
	"Usage: npuprof watch [--count N] [--timeout SEC]\n"
	"Print the vnpu events (session started/stopped, records lost, device\n"
	"reset) as they happen.\n"
	"\n"
	"  -c, --count N      exit after N events\n"
	"  -t, --timeout SEC  exit after SEC seconds without an event (status 0)\n"
	"  -h, --help         this text\n";

static int only_help(const char *cmd, const char *help, int argc, char **argv, int max_args)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(help, stdout);
			return 0;
		}
		if (argv[i][0] == '-')
			return usage_error(cmd, "unknown option '%s'", argv[i]);
	}
	if (argc - 1 > max_args)
		return usage_error(cmd, "too many arguments");
	return -1;
}

static int cmd_devices(int argc, char **argv)
{
	struct npuprof_nl_dev devs[VNPU_MAX_DEVICES];
	struct npuprof_error err;
	struct npuprof_nl *nl;
	int ret = only_help("devices", devices_help, argc, argv, 0), n;

	if (ret >= 0)
		return ret;
	if (npuprof_nl_open(&nl, &err))
		return fail("devices", &err);
	n = npuprof_nl_dump(nl, devs, VNPU_MAX_DEVICES, &err);
	npuprof_nl_close(nl);
	if (n < 0)
		return fail("devices", &err);
	printf("%-4s %-24s %-14s %4s %4s %6s %9s  %s\n", "DEV", "PRODUCT", "CHIP", "AIC", "AIV",
	       "AICPU", "AIC MHz", "PROFILING");
	for (int i = 0; i < n; i++) {
		const struct npuprof_nl_dev *d = &devs[i];
		char prof[64] = "off";

		if (d->prof_active)
			snprintf(prof, sizeof(prof), "session %u %s %s", d->prof_session,
				 d->prof_level < 3 ? level_names[d->prof_level] : "?",
				 group_name(d->prof_group));
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
		       d->prof_level < 3 ? level_names[d->prof_level] : "?",
		       group_name(d->prof_group));
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
	int ret = only_help("stat", stat_help, argc, argv, 1), n = 1;
	long dev = -1;

	if (ret >= 0)
		return ret;
	if (argc == 2) {
		dev = parse_num(argv[1], 0, VNPU_MAX_DEVICES - 1);
		if (dev < 0)
			return usage_error("stat", "DEV '%s' is not a device number (0..%d)",
					   argv[1], VNPU_MAX_DEVICES - 1);
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
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = { "?", "session-started", "session-stopped",
					     "records-lost", "device-reset" };
	long count = -1, timeout = -1;
	struct npuprof_nl_event ev;
	struct npuprof_error err;
	struct npuprof_nl *nl;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:t:h", opts, NULL)) != -1) {
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
		default:
			return usage_error("watch", "bad option");
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
		if (ret) {
			fail("watch", &err);
			break;
		}
		printf("vnpu%u %s session=%u level=%s produced=%llu lost=%llu\n", ev.dev_id,
		       ev.type < 5 ? names[ev.type] : "?", ev.session,
		       ev.level < 3 ? level_names[ev.level] : "-", (unsigned long long)ev.produced,
		       (unsigned long long)ev.lost);
		if (count > 0)
			count--;
	}
	npuprof_nl_close(nl);
	return ret ? 1 : 0;
}

/* ---- main ---- */

static const char main_help[] =
	"Usage: npuprof COMMAND [ARGS]\n"
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

	if (argc < 2) {
		fprintf(stderr, "%s: no command given\nTry '%s --help'.\n", prog, prog);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(main_help, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\nTry '%s --help'.\n", prog, argv[1], prog);
	return EXIT_USAGE;
}
