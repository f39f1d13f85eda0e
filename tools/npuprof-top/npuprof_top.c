// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof-top: a live view of the vnpu devices from the module's
 * tracepoints - per op type count, time and latency percentiles, queue
 * depth per stream, busy time per device - with no profiling session
 * (no ring) needed.
 *
 * Attaches with tp_btf when the module's BTF is there (/sys/kernel/btf/vnpu
 * with the btf_trace_vnpu_* types), else, or with -R, with raw_tp. Both
 * program sets are in the object; bpf_program__set_autoload() picks one.
 */
#include <argp.h>
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "vnpu.h"
#include "npuprof_top.h"
#include "npuprof_top.skel.h"

_Static_assert(MAX_DEVS == VNPU_MAX_DEVICES, "one device slot per vnpu device");
_Static_assert(OP_TYPE_LEN == VNPU_OP_TYPE_LEN, "the op key holds a whole op type");

#define NSEC_PER_SEC 1000000000ULL
#define MODULE_BTF "/sys/kernel/btf/vnpu"

static struct env {
	int dev;
	unsigned long interval;
	unsigned long count;
	bool raw_tp;
	bool verbose;
} env = {
	.dev = -1,
	.interval = 1,
};

static volatile sig_atomic_t exiting;

const char *argp_program_version = "npuprof-top 1.0";
const char argp_program_doc[] =
	"Show vnpu tasks per op type, stream and device, from the vnpu module's\n"
	"tracepoints (no profiling session needed).\n"
	"\n"
	"USAGE: npuprof-top [-h] [-v] [-R] [-d DEV] [-i INTERVAL] [-n COUNT]\n"
	"\n"
	"EXAMPLES:\n"
	"    npuprof-top             # every device, a report every second\n"
	"    npuprof-top -d 1        # only /dev/vnpu1\n"
	"    npuprof-top -i 5 -n 3   # three 5-second reports, then exit\n"
	"    npuprof-top -R          # attach with raw_tp even with module BTF\n";

static const struct argp_option opts[] = {
	{ "dev", 'd', "DEV", 0, "Only device DEV (/dev/vnpuDEV)", 0 },
	{ "interval", 'i', "INTERVAL", 0, "Seconds between reports (default 1)", 0 },
	{ "count", 'n', "COUNT", 0, "Reports to print, then exit (default: until Ctrl-C)", 0 },
	{ "raw-tp", 'R', NULL, 0, "Attach with raw_tp even if the module has BTF", 0 },
	{ "verbose", 'v', NULL, 0, "Verbose debug output", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

/* Digits only (no sign, space or base prefix), within [min, max]. */
static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	unsigned long v;

	switch (key) {
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case 'v':
		env.verbose = true;
		break;
	case 'R':
		env.raw_tp = true;
		break;
	case 'd':
		if (parse_ulong(arg, 0, MAX_DEVS - 1, &v))
			argp_error(state, "invalid device: %s (0 .. %d)", arg, MAX_DEVS - 1);
		env.dev = (int)v;
		break;
	case 'i':
		if (parse_ulong(arg, 1, 86400, &env.interval))
			argp_error(state, "invalid interval: %s (1 .. 86400 seconds)", arg);
		break;
	case 'n':
		if (parse_ulong(arg, 1, 1000000000, &env.count))
			argp_error(state, "invalid count: %s (1 .. 1000000000)", arg);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument: %s", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *format, va_list args)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void sig_handler(int sig)
{
	(void)sig;
	exiting = 1;
}

/* Does the running module carry BTF with its tracepoints' types? */
static bool module_btf_ok(void)
{
	struct btf *vmlinux, *mod;
	bool ok = false;

	if (access(MODULE_BTF, R_OK))
		return false;
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		return false;
	mod = btf__parse_split(MODULE_BTF, vmlinux);
	if (mod) {
		ok = btf__find_by_name_kind(mod, "btf_trace_vnpu_task_submit", BTF_KIND_TYPEDEF) >
			     0 &&
		     btf__find_by_name_kind(mod, "btf_trace_vnpu_task_end", BTF_KIND_TYPEDEF) > 0;
		btf__free(mod);
	}
	btf__free(vmlinux);
	return ok;
}

static struct npuprof_top_bpf *open_and_load(bool use_btf)
{
	struct npuprof_top_bpf *obj;
	int err;

	obj = npuprof_top_bpf__open();
	if (!obj) {
		fprintf(stderr, "npuprof-top: failed to open the BPF object\n");
		return NULL;
	}
	obj->rodata->targ_dev = env.dev;
	bpf_program__set_autoload(obj->progs.submit_btf, use_btf);
	bpf_program__set_autoload(obj->progs.end_btf, use_btf);
	bpf_program__set_autoload(obj->progs.submit_raw, !use_btf);
	bpf_program__set_autoload(obj->progs.end_raw, !use_btf);
	err = npuprof_top_bpf__load(obj);
	if (err) {
		fprintf(stderr, "npuprof-top: failed to load the %s programs: %s\n",
			use_btf ? "tp_btf" : "raw_tp", strerror(-err));
		npuprof_top_bpf__destroy(obj);
		return NULL;
	}
	return obj;
}

/* ---- reading the maps ---- */

struct op_entry {
	struct op_key key;
	struct op_stat stat;
};

struct stream_entry {
	struct stream_key key;
	struct stream_stat stat;
};

struct snapshot {
	struct op_entry ops[MAX_OPS];
	int nops;
	struct stream_entry streams[MAX_STREAMS];
	int nstreams;
	struct dev_stat devs[MAX_DEVS];
	__u64 lost[LOST_NR];
	__u64 time_ns;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

static int read_ops(int fd, struct snapshot *s)
{
	struct op_key key, next;
	bool first = true;

	s->nops = 0;
	while (s->nops < MAX_OPS && !bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		struct op_entry *e = &s->ops[s->nops];

		first = false;
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &e->stat)) {
			e->key = key;
			s->nops++;
		}
	}
	return 0;
}

static int read_streams(int fd, struct snapshot *s)
{
	struct stream_key key, next;
	bool first = true;

	s->nstreams = 0;
	while (s->nstreams < MAX_STREAMS && !bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		struct stream_entry *e = &s->streams[s->nstreams];

		first = false;
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &e->stat)) {
			e->key = key;
			s->nstreams++;
		}
	}
	return 0;
}

static int read_snapshot(struct npuprof_top_bpf *obj, struct snapshot *s)
{
	int ncpus = libbpf_num_possible_cpus();
	__u64 *percpu;
	__u32 i;
	int c;

	if (ncpus <= 0)
		return -EINVAL;
	percpu = calloc(ncpus, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	s->time_ns = now_ns();
	read_ops(bpf_map__fd(obj->maps.ops), s);
	read_streams(bpf_map__fd(obj->maps.streams), s);
	for (i = 0; i < MAX_DEVS; i++)
		if (bpf_map_lookup_elem(bpf_map__fd(obj->maps.devs), &i, &s->devs[i]))
			memset(&s->devs[i], 0, sizeof(s->devs[i]));
	for (i = 0; i < LOST_NR; i++) {
		s->lost[i] = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(obj->maps.lost), &i, percpu))
			continue;
		for (c = 0; c < ncpus; c++)
			s->lost[i] += percpu[c];
	}
	free(percpu);
	return 0;
}

/* ---- the report ---- */

struct op_row {
	const char *op_type;
	struct op_stat d; /* this interval */
};

static const struct op_stat *find_op(const struct snapshot *s, const struct op_key *key)
{
	for (int i = 0; i < s->nops; i++)
		if (!memcmp(&s->ops[i].key, key, sizeof(*key)))
			return &s->ops[i].stat;
	return NULL;
}

static const struct stream_stat *find_stream(const struct snapshot *s, const struct stream_key *key)
{
	for (int i = 0; i < s->nstreams; i++)
		if (s->streams[i].key.dev == key->dev && s->streams[i].key.stream == key->stream)
			return &s->streams[i].stat;
	return NULL;
}

static int cmp_op_row(const void *a, const void *b)
{
	const struct op_row *x = a, *y = b;

	if (x->d.total_ns != y->d.total_ns)
		return x->d.total_ns < y->d.total_ns ? 1 : -1;
	return strcmp(x->op_type, y->op_type);
}

static int cmp_stream(const void *a, const void *b)
{
	const struct stream_entry *x = a, *y = b;

	if (x->key.dev != y->key.dev)
		return x->key.dev < y->key.dev ? -1 : 1;
	if (x->key.stream != y->key.stream)
		return x->key.stream < y->key.stream ? -1 : 1;
	return 0;
}

/* @ns as microseconds with three decimals, without floating point. */
static const char *fmt_us(char *buf, size_t len, __u64 ns)
{
	snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
	return buf;
}

/*
 * The @pct percentile of a log2 histogram, by bucket: the upper bound of
 * the slot holding the ceil(n * pct / 100)-th smallest of its n values.
 * n is the slots' sum (a read can fall between two of an event's updates).
 */
static __u64 hist_percentile(const struct op_stat *d, unsigned int pct)
{
	__u64 want, seen = 0, n = 0;
	int i;

	for (i = 0; i < MAX_SLOTS; i++)
		n += d->slots[i];
	want = (n * pct + 99) / 100;
	if (!want)
		want = 1;
	for (i = 0; i < MAX_SLOTS; i++) {
		seen += d->slots[i];
		if (seen >= want)
			break;
	}
	if (i >= MAX_SLOTS)
		i = MAX_SLOTS - 1;
	return 2ULL << i;
}

static void print_ops(const struct snapshot *cur, const struct snapshot *prev, __u64 *tasks)
{
	static struct op_row rows[MAX_OPS];
	char b[5][32];
	int n = 0;

	*tasks = 0;
	for (int i = 0; i < cur->nops; i++) {
		const struct op_stat *c = &cur->ops[i].stat;
		const struct op_stat *p = find_op(prev, &cur->ops[i].key);
		struct op_row *r = &rows[n];

		/* an entry can be read between its creation and first count */
		if (c->count == (p ? p->count : 0))
			continue;
		r->op_type = cur->ops[i].key.op_type;
		r->d.count = c->count - (p ? p->count : 0);
		r->d.total_ns = c->total_ns - (p ? p->total_ns : 0);
		for (int k = 0; k < MAX_SLOTS; k++)
			r->d.slots[k] = c->slots[k] - (p ? p->slots[k] : 0);
		*tasks += r->d.count;
		n++;
	}
	qsort(rows, n, sizeof(rows[0]), cmp_op_row);

	printf("%-31s %8s %14s %12s %12s %12s %12s\n", "OP TYPE", "COUNT", "TOTAL(us)", "AVG(us)",
	       "P50(us)", "P90(us)", "P99(us)");
	for (int i = 0; i < n; i++) {
		const struct op_stat *d = &rows[i].d;

		printf("%-31.31s %8llu %14s %12s %12s %12s %12s\n", rows[i].op_type,
		       (unsigned long long)d->count, fmt_us(b[0], sizeof(b[0]), d->total_ns),
		       fmt_us(b[1], sizeof(b[1]), d->total_ns / d->count),
		       fmt_us(b[2], sizeof(b[2]), hist_percentile(d, 50)),
		       fmt_us(b[3], sizeof(b[3]), hist_percentile(d, 90)),
		       fmt_us(b[4], sizeof(b[4]), hist_percentile(d, 99)));
	}
}

static void print_streams(struct snapshot *cur, const struct snapshot *prev)
{
	qsort(cur->streams, cur->nstreams, sizeof(cur->streams[0]), cmp_stream);
	printf("\n%-4s %6s %6s %6s %10s %10s\n", "DEV", "STREAM", "DEPTH", "PEAK", "SUBMITTED",
	       "DONE");
	for (int i = 0; i < cur->nstreams; i++) {
		const struct stream_stat *c = &cur->streams[i].stat;
		const struct stream_stat *p = find_stream(prev, &cur->streams[i].key);
		__u64 sub = c->submitted - (p ? p->submitted : 0);
		__u64 done = c->done - (p ? p->done : 0);

		if (!sub && !done && !c->depth)
			continue;
		printf("%-4u %6u %6u %6u %10llu %10llu\n", cur->streams[i].key.dev,
		       cur->streams[i].key.stream, c->depth, c->peak, (unsigned long long)sub,
		       (unsigned long long)done);
	}
}

static void print_devs(const struct snapshot *cur, const struct snapshot *prev, __u64 elapsed)
{
	char b[32];

	printf("\n%-4s %14s %9s %8s\n", "DEV", "BUSY(us)", "UTIL(%)", "TASKS");
	for (int i = 0; i < MAX_DEVS; i++) {
		__u64 busy = cur->devs[i].busy_ns - prev->devs[i].busy_ns;
		__u64 tasks = cur->devs[i].tasks - prev->devs[i].tasks;
		/* tenths of a percent; device time need not track wall time */
		__u64 util = elapsed ? busy * 1000 / elapsed : 0;

		if (!tasks && i != env.dev)
			continue;
		printf("%-4d %14s %7llu.%llu %8llu\n", i, fmt_us(b, sizeof(b), busy),
		       (unsigned long long)(util / 10), (unsigned long long)(util % 10),
		       (unsigned long long)tasks);
	}
}

static void print_report(struct snapshot *cur, const struct snapshot *prev, const char *mode)
{
	__u64 elapsed = cur->time_ns - prev->time_ns, tasks;
	char ts[16] = "";
	struct tm tm;
	time_t t;

	t = time(NULL);
	if (localtime_r(&t, &tm))
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	printf("%s  interval %llu.%03llu s  (%s)\n", ts,
	       (unsigned long long)(elapsed / NSEC_PER_SEC),
	       (unsigned long long)(elapsed % NSEC_PER_SEC / 1000000), mode);
	print_ops(cur, prev, &tasks);
	print_streams(cur, prev);
	print_devs(cur, prev, elapsed);
	if (cur->lost[LOST_OP_MAP] || cur->lost[LOST_STREAM_MAP] || cur->lost[LOST_HIST_SLOT])
		printf("\nLOST: %llu tasks (op map full), %llu stream updates (stream map full), "
		       "%llu durations beyond the last histogram slot\n",
		       (unsigned long long)cur->lost[LOST_OP_MAP],
		       (unsigned long long)cur->lost[LOST_STREAM_MAP],
		       (unsigned long long)cur->lost[LOST_HIST_SLOT]);
	printf("TASKS: %llu\n\n", (unsigned long long)tasks);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_program_doc,
	};
	static struct snapshot snaps[2];
	struct snapshot *cur = &snaps[0], *prev = &snaps[1], *tmp;
	struct npuprof_top_bpf *obj = NULL;
	struct sigaction sa = { .sa_handler = sig_handler };
	struct timespec deadline;
	unsigned long done = 0;
	bool use_btf;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return err;
	libbpf_set_print(libbpf_print_fn);

	if (access("/sys/module/vnpu", F_OK)) {
		fprintf(stderr, "npuprof-top: the vnpu module is not loaded\n");
		return 1;
	}
	use_btf = !env.raw_tp && module_btf_ok();
	if (env.verbose && use_btf)
		fprintf(stderr, "npuprof-top: module BTF found: using tp_btf\n");
	else if (env.verbose)
		fprintf(stderr, "npuprof-top: %s: using raw_tp\n",
			env.raw_tp ? "-R" : "no module BTF with the vnpu tracepoints");
	obj = open_and_load(use_btf);
	if (!obj && use_btf) {
		fprintf(stderr, "npuprof-top: falling back to raw_tp\n");
		use_btf = false;
		obj = open_and_load(false);
	}
	if (!obj)
		return 1;
	err = npuprof_top_bpf__attach(obj);
	if (err) {
		fprintf(stderr, "npuprof-top: failed to attach: %s\n", strerror(-err));
		goto cleanup;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	err = read_snapshot(obj, prev);
	if (err)
		goto cleanup;
	printf("Tracing vnpu tasks with %s... Hit Ctrl-C to end.\n\n",
	       use_btf ? "tp_btf" : "raw_tp");
	fflush(stdout);

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	while (!exiting) {
		deadline.tv_sec += (time_t)env.interval;
		/* no SA_RESTART: a signal ends the wait, and its interval is printed */
		while (!exiting && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL))
			;
		err = read_snapshot(obj, cur);
		if (err)
			break;
		print_report(cur, prev, use_btf ? "tp_btf" : "raw_tp");
		tmp = prev;
		prev = cur;
		cur = tmp;
		if (env.count && ++done >= env.count)
			break;
	}

cleanup:
	npuprof_top_bpf__destroy(obj);
	return err != 0;
}
