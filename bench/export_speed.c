// SPDX-License-Identifier: GPL-2.0
/*
 * export_speed: how fast npuprof_export() turns raw records into
 * mindstudio_profiler_output/, against a straightforward reference
 * converter (bench/ref_export.py: Python, struct.unpack_from and the csv
 * module, an op_summary-like CSV with the same columns) on the same data.
 *
 * For each size N of -n, a synthetic PROF folder is written (one A2
 * device, L1 PipeUtilization, N MatMul/Add tasks of 4 records each:
 * TASK_START, OP_INFO with 3 tensors, PMU, TASK_END, 504 bytes a task;
 * files rotated at 64 MiB like the collector's; -0 for L0 data) and
 * exported: -r times for the first size, once for the others. Each export
 * runs in a fresh process (this program, exec'd with -x), so its peak RSS
 * (wait4) is the export's alone, and must not grow with N. On the first
 * size the reference runs too, also in its own process. Printed: tasks/s
 * (wall), output MB/s, peak RSS, and the ratio to the reference.
 *
 *   export_speed [-n N[,N...]] [-r runs] [-d dir] [-0] [-k] [-R ref_export.py]
 *   export_speed -x PROF_DIR      (one export; used by the above)
 *
 * Defaults: -n 1000000,10000000 -r 3 -d /tmp, no reference without -R.
 * -k keeps the last folder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "npuprof_export.h"
#include "raw_format.h"
#include "vnpu.h"
#include "vnpu_prof.h"

#define TIMESTAMP "20251129164800"
#define MAX_SIZES 4

struct out {
	char dir[512];
	int fd;
	unsigned int file;
	uint64_t bytes, total;
	unsigned char buf[1 << 20];
	size_t len;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void flush_out(struct out *o)
{
	if (o->len && write(o->fd, o->buf, o->len) != (ssize_t)o->len)
		die("write");
	o->len = 0;
}

static void open_next(struct out *o)
{
	char path[600];

	if (o->fd >= 0) {
		flush_out(o);
		close(o->fd);
	}
	snprintf(path, sizeof(path), "%s/" NPUPROF_RAW_REC_PREFIX NPUPROF_RAW_SEQ_FMT, o->dir,
		 o->file++);
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (o->fd < 0)
		die(path);
	o->bytes = 0;
}

static uint64_t seq;

static void emit(struct out *o, void *rec, uint16_t type, size_t size)
{
	struct vnpu_rec_hdr *h = rec;

	h->type = type;
	h->size = (uint16_t)size;
	h->seq = seq++;
	if (o->bytes + size > NPUPROF_RAW_ROTATE_BYTES)
		open_next(o);
	if (o->len + size > sizeof(o->buf))
		flush_out(o);
	memcpy(o->buf + o->len, rec, size);
	o->len += size;
	o->bytes += size;
	o->total += size;
}

/* Write the raw data of @n tasks into @prof; returns the bytes of records. */
static uint64_t generate(const char *prof, unsigned long n, int l0)
{
	static const uint32_t aic_ev[8] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };
	static const uint32_t aiv_ev[8] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 };
	static struct out o;
	struct vnpu_ring_ctrl c = { 0 };
	char path[700];
	uint64_t t = 1000;
	int fd;

	memset(&o, 0, sizeof(o));
	o.fd = -1;
	seq = 0;
	mkdir(prof, 0755);
	snprintf(path, sizeof(path), "%s/device_0", prof);
	mkdir(path, 0755);
	snprintf(o.dir, sizeof(o.dir), "%s/device_0/data", prof);
	mkdir(o.dir, 0755);

	c.magic = VNPU_RING_MAGIC;
	c.version = c.compat_version = 1;
	c.hdr_size = sizeof(c);
	c.product = VNPU_PRODUCT_A2;
	c.level = l0 ? VNPU_PROF_L0 : VNPU_PROF_L1;
	c.metric_group = l0 ? VNPU_METRIC_NONE : VNPU_METRIC_PIPE_UTILIZATION;
	c.n_events = l0 ? 0 : 8;
	c.caps = VNPU_CAP_SPLIT_AIC_AIV | VNPU_CAP_STARS;
	c.aic_num = 24;
	c.aiv_num = 48;
	c.aic_freq_khz = 1800000;
	c.sys_cnt_freq_khz = 50000;
	memcpy(c.aic_events, aic_ev, sizeof(aic_ev));
	memcpy(c.aiv_events, aiv_ev, sizeof(aiv_ev));
	c.mono_base_ns = 1764406085000000000ULL;
	snprintf(path, sizeof(path), "%s/" NPUPROF_RAW_CTRL_FILE, o.dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, &c, sizeof(c)) != sizeof(c))
		die(path);
	close(fd);

	open_next(&o);
	for (unsigned long i = 0; i < n; i++) {
		unsigned char op[512] = { 0 };
		struct vnpu_rec_task st = { .task_id = i, .stream_id = (uint32_t)(i % 4) };
		struct vnpu_rec_op_info *oi = (void *)op;
		struct vnpu_rec_pmu pmu = { .task_id = i };
		bool cube = i % 3 == 0;
		uint64_t dur = 100 + i % 977;
		size_t sz = sizeof(*oi);

		st.task_type = cube ? VNPU_TASK_AI_CORE : VNPU_TASK_AI_VECTOR_CORE;
		st.timestamp = t;
		emit(&o, &st, VNPU_REC_TASK_START, sizeof(st));
		if (!l0) {
			oi->task_id = i;
			oi->stream_id = st.stream_id;
			oi->task_type = st.task_type;
			oi->block_num = cube ? 24 : 40;
			oi->model_id = 1;
			oi->n_tensors = 3;
			snprintf(oi->op_name, sizeof(oi->op_name), "%s_%lu",
				 cube ? "MatMul" : "Add", i % 1000);
			snprintf(oi->op_type, sizeof(oi->op_type), "%s", cube ? "MatMul" : "Add");
			for (int k = 0; k < 3; k++) {
				struct vnpu_rec_tensor tn = { .dtype = VNPU_DT_FLOAT16,
							      .ndims = 2,
							      .output = k == 2 };
				uint64_t dims[2] = { 1024 + i % 7, 4096 };

				memcpy(op + sz, &tn, sizeof(tn));
				memcpy(op + sz + sizeof(tn), dims, sizeof(dims));
				sz += sizeof(tn) + sizeof(dims);
			}
			emit(&o, oi, VNPU_REC_OP_INFO, sz);
			if (cube) {
				pmu.aic_total_cycles = dur * 36 * 24;
				pmu.aic_blocks = 24;
			} else {
				pmu.aiv_total_cycles = dur * 36 * 40;
				pmu.aiv_blocks = 40;
			}
			for (int k = 0; k < 8; k++) {
				pmu.aic_events[k] = cube ? pmu.aic_total_cycles / (k + 2) : 0;
				pmu.aiv_events[k] = cube ? 0 : pmu.aiv_total_cycles / (k + 2);
			}
			emit(&o, &pmu, VNPU_REC_PMU, sizeof(pmu));
		}
		st.timestamp = t + dur;
		emit(&o, &st, VNPU_REC_TASK_END, sizeof(st));
		t += dur + 7;
	}
	flush_out(&o);
	close(o.fd);
	return o.total;
}

/* Bytes of the regular files in @dir (not recursive); with @rm, remove them and @dir. */
static uint64_t dir_bytes(const char *dir, int rm)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t sum = 0;
	char path[1200];
	struct stat st;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		sum += (uint64_t)st.st_size;
		if (rm)
			unlink(path);
	}
	closedir(d);
	if (rm)
		rmdir(dir);
	return sum;
}

static void rm_rf(const char *path)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd))
		die("rm -rf");
}

struct run {
	double wall, cpu;
	long rss_kb;
};

/* Run @argv in a child process: its wall time, CPU time and peak RSS. */
static struct run spawn(char *const argv[])
{
	struct run r = { 0 };
	struct rusage ru;
	double t0 = bench_now();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		die("wait4");
	r.wall = bench_now() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "export_speed: %s failed\n", argv[0]);
		exit(1);
	}
	r.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r.rss_kb = ru.ru_maxrss;
	return r;
}

static int export_one(const char *prof)
{
	struct npuprof_export_opts eo = { .sz = sizeof(eo), .timestamp = TIMESTAMP, .quiet = 1 };
	struct npuprof_error err;

	if (npuprof_export(prof, &eo, &err)) {
		fprintf(stderr, "export: %s\n", err.msg);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long sizes[MAX_SIZES] = { 1000000, 10000000 };
	const char *ref = NULL;
	char parent[256] = "/tmp", prof[400], outdir[500], refcsv[500], self[4096];
	int opt, keep = 0, l0 = 0, runs = 3, nsizes = 2;
	double tps[MAX_SIZES] = { 0 }, mbs[MAX_SIZES] = { 0 }, rssm[MAX_SIZES] = { 0 };
	double ref_tps = 0, ref_mbs = 0, ref_rss = 0;
	char a[96], b[96], bench[64], metric[96];
	ssize_t len;

	while ((opt = getopt(argc, argv, "n:r:d:0kR:x:")) != -1) {
		switch (opt) {
		case 'n': {
			char *p = optarg;

			for (nsizes = 0; nsizes < MAX_SIZES && *p; nsizes++) {
				sizes[nsizes] = strtoul(p, &p, 0);
				if (*p == ',')
					p++;
			}
			break;
		}
		case 'r':
			runs = atoi(optarg);
			if (runs < 1 || runs > 16)
				runs = 3;
			break;
		case 'd':
			snprintf(parent, sizeof(parent), "%s", optarg);
			break;
		case '0':
			l0 = 1;
			break;
		case 'k':
			keep = 1;
			break;
		case 'R':
			ref = optarg;
			break;
		case 'x':
			return export_one(optarg);
		default:
			fprintf(stderr,
				"usage: %s [-n N[,N...]] [-r runs] [-d dir] [-0] [-k] "
				"[-R ref_export.py]\n",
				argv[0]);
			return 2;
		}
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0)
		die("/proc/self/exe");
	self[len] = 0;
	snprintf(prof, sizeof(prof), "%s/PROF_000001_20251129164800123_BENCHBENCHBENCH0", parent);
	snprintf(outdir, sizeof(outdir), "%s/" NPUPROF_OUTPUT_DIR, prof);
	snprintf(refcsv, sizeof(refcsv), "%s/ref_op_summary.csv", prof);

	for (int k = 0; k < nsizes; k++) {
		unsigned long n = sizes[k];
		int nruns = k ? 1 : runs;
		double wall[16], cpu[16], rss = 0, out = 0, t0 = bench_now();
		uint64_t in;

		rm_rf(prof);
		in = generate(prof, n, l0);
		printf("export_speed: generated %lu tasks, %.1f MB of records (%.1f s)\n", n,
		       (double)in / 1e6, bench_now() - t0);
		for (int r = 0; r < nruns; r++) {
			char *xargv[] = { self, "-x", prof, NULL };
			struct run x;

			dir_bytes(outdir, 1);
			x = spawn(xargv);
			wall[r] = x.wall;
			cpu[r] = x.cpu;
			out = (double)dir_bytes(outdir, 0);
			if (x.rss_kb > rss)
				rss = (double)x.rss_kb;
			printf("export_speed: %lu tasks: export %.3f s wall (%.2f M tasks/s), "
			       "%.3f s CPU, %.0f MB out, peak RSS %ld KiB\n",
			       n, x.wall, (double)n / x.wall / 1e6, x.cpu, out / 1e6, x.rss_kb);
			fflush(stdout);
		}
		tps[k] = (double)n / bench_median(wall, nruns);
		mbs[k] = out / bench_median(wall, nruns) / 1e6;
		rssm[k] = rss;
		(void)cpu;
		if (k == 0 && ref) {
			char *rargv[] = { "python3", (char *)ref, prof, refcsv, NULL };
			struct run x = spawn(rargv);
			struct stat st;

			if (stat(refcsv, &st))
				die(refcsv);
			ref_tps = (double)n / x.wall;
			ref_mbs = (double)st.st_size / x.wall / 1e6;
			ref_rss = (double)x.rss_kb;
			printf("export_speed: %lu tasks: reference %.3f s wall (%.3f M tasks/s), "
			       "%.0f MB out, peak RSS %ld KiB\n",
			       n, x.wall, ref_tps / 1e6, (double)st.st_size / 1e6, x.rss_kb);
			unlink(refcsv);
		}
		if (!keep || k < nsizes - 1)
			rm_rf(prof);
	}

	for (int k = 0; k < nsizes; k++) {
		snprintf(bench, sizeof(bench), "export %s %.0fM", l0 ? "L0" : "L1", sizes[k] / 1e6);
		if (sizes[k] < 1000000)
			snprintf(bench, sizeof(bench), "export %s %luk", l0 ? "L0" : "L1",
				 sizes[k] / 1000);
		snprintf(a, sizeof(a), "%.3f M/s", tps[k] / 1e6);
		if (k == 0 && ref) {
			snprintf(b, sizeof(b), "%.3f M/s", ref_tps / 1e6);
			bench_row(bench, "tasks/s, vs reference (Python, csv)", a, b,
				  tps[k] / ref_tps, ">= 20", tps[k] >= 20 * ref_tps);
		}
		bench_row(bench, "tasks/s (wall, all files)", a, NULL, -1, ">= 2 M/s",
			  tps[k] >= 2e6);
		snprintf(a, sizeof(a), "%.1f MB/s", mbs[k]);
		if (k == 0 && ref)
			snprintf(b, sizeof(b), "%.1f MB/s", ref_mbs);
		bench_row(bench, "output MB/s", a, k == 0 && ref ? b : NULL,
			  k == 0 && ref ? mbs[k] / ref_mbs : -1, NULL, 0);
		snprintf(a, sizeof(a), "%.1f MiB", rssm[k] / 1024);
		if (k == 0 && ref)
			snprintf(b, sizeof(b), "%.1f MiB", ref_rss / 1024);
		bench_row(bench, "peak RSS (export process)", a, k == 0 && ref ? b : NULL, -1, NULL,
			  0);
	}
	if (nsizes > 1) {
		snprintf(bench, sizeof(bench), "export %s", l0 ? "L0" : "L1");
		snprintf(metric, sizeof(metric), "peak RSS at %lu / at %lu tasks",
			 sizes[nsizes - 1], sizes[0]);
		snprintf(a, sizeof(a), "%.1f MiB", rssm[nsizes - 1] / 1024);
		snprintf(b, sizeof(b), "%.1f MiB", rssm[0] / 1024);
		bench_row(bench, metric, a, b, rssm[nsizes - 1] / rssm[0], "<= 1.1 (flat)",
			  rssm[nsizes - 1] <= 1.1 * rssm[0]);
	}
	if (keep)
		printf("kept %s\n", prof);
	return 0;
}
