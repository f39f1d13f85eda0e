// SPDX-License-Identifier: GPL-2.0
/*
 * scale: D devices profiled at once against one device.
 *
 * One process per device (as one rank per NPU): each opens /dev/vnpuN,
 * starts the library's Profiler at a level, waits for the others, then
 * launches batches of B small Add tasks for T seconds, syncs, and reports
 * its tasks/s and its session's produced and lost records (PROF_STATS).
 * Stopping the profilers (drain, export) comes after the timed part.
 *
 * Four configurations, interleaved over R rounds: 1 device and D devices,
 * each with profiling off and at the level. Reported: tasks/s per device
 * (the mean over the devices) and in total, D devices against 1. The VM
 * has one vCPU: the D executors, submitters and collector threads share
 * it, so the ideal per-device ratio there is 1/D and the ideal total
 * ratio is 1.
 *
 *   scale [-d devices] [-t seconds] [-b batch] [-l L0|L1|L2] [-r rounds] [-o dir]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "npuprof.h"
#include "vnpu.h"
#include "vnpu_prof.h"

struct child_result {
	double tasks_per_s;
	uint64_t tasks;
	uint64_t produced, lost;
};

static void fail(const char *what, const struct npuprof_error *err)
{
	fprintf(stderr, "scale: %s: %s\n", what, err ? err->msg : strerror(errno));
	exit(1);
}

static int read_all(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void child(unsigned int id, const char *level, double secs, unsigned int batch,
		  const char *outdir, int ready_fd, int go_fd, int res_fd)
{
	NPUPROF_OPTS(npuprof_options, o, .level = level, .output_path = outdir);
	struct vnpu_prof_stats st = { .size = sizeof(st) };
	struct child_result res = { 0 };
	struct npuprof_error err;
	struct npuprof_dev *dev;
	struct vnpu_task *t = calloc(batch, sizeof(*t));
	uint64_t dims[1] = { 256 };
	uint32_t stream;
	char c = 0, path[32];
	double t0, t1;
	int fd;

	if (!t || npuprof_open(id, &dev, &err) || npuprof_stream_create(dev, &stream, &err))
		fail("open", &err);
	for (unsigned int i = 0; i < batch; i++)
		if (npuprof_op_add(dev, &t[i], "Add_1", stream, 1, dims, VNPU_DT_FLOAT16))
			fail("npuprof_op_add", NULL);
	snprintf(path, sizeof(path), "/dev/vnpu%u", id);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail(path, NULL);
	if (level && npuprof_profiler_start(&o, &err))
		fail("npuprof_profiler_start", &err);
	if (write(ready_fd, &c, 1) != 1 || read_all(go_fd, &c, 1))
		fail("start barrier", NULL);
	t0 = bench_now();
	do {
		if (npuprof_launch(dev, t, batch, NULL, &err))
			fail("npuprof_launch", &err);
		res.tasks += batch;
	} while (bench_now() - t0 < secs);
	if (npuprof_sync_all(dev, -1, &err))
		fail("npuprof_sync_all", &err);
	t1 = bench_now();
	res.tasks_per_s = (double)res.tasks / (t1 - t0);
	if (level) {
		if (ioctl(fd, VNPU_IOC_PROF_STATS, &st))
			fail("VNPU_IOC_PROF_STATS", NULL);
		res.produced = st.produced;
		res.lost = st.lost;
	}
	if (write(res_fd, &res, sizeof(res)) != sizeof(res))
		fail("result pipe", NULL);
	if (level) {
		char cmd[4200], dir[4096];

		if (npuprof_profiler_stop(&err))
			fail("npuprof_profiler_stop", &err);
		if (npuprof_profiler_dir(dir, sizeof(dir)))
			fail("npuprof_profiler_dir", NULL);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fail("rm", NULL);
	}
	npuprof_close(dev);
	close(fd);
	exit(0);
}

/* One configuration: @n devices at @level (NULL: off). Fills @per_dev, @total. */
static void run(unsigned int n, const char *level, double secs, unsigned int batch,
		const char *outdir, double *per_dev, double *total, uint64_t *lost,
		uint64_t *produced)
{
	int ready[2], go[2], res[2];
	char c[64] = { 0 };

	if (pipe(ready) || pipe(go) || pipe(res))
		fail("pipe", NULL);
	for (unsigned int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			fail("fork", NULL);
		if (!pid) {
			close(ready[0]);
			close(go[1]);
			close(res[0]);
			child(i, level, secs, batch, outdir, ready[1], go[0], res[1]);
		}
	}
	close(ready[1]);
	close(go[0]);
	close(res[1]);
	if (read_all(ready[0], c, n))
		fail("a child did not start", NULL);
	if (write(go[1], c, n) != (ssize_t)n)
		fail("go", NULL);
	*total = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct child_result r;

		if (read_all(res[0], &r, sizeof(r)))
			fail("a child failed", NULL);
		*total += r.tasks_per_s;
		*lost += r.lost;
		*produced += r.produced;
	}
	for (unsigned int i = 0; i < n; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			fail("a child failed", NULL);
	}
	close(ready[0]);
	close(go[1]);
	close(res[0]);
	*per_dev = *total / n;
	printf("scale: %2u device(s), profiling %s: %.0f tasks/s per device, %.0f in total\n", n,
	       level ? level : "off", *per_dev, *total);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned int devs = 16, batch = 64;
	double secs = 3;
	const char *level = "L1", *outdir = "/tmp";
	/* [profiled][many]: per device and total, per round */
	double per[2][2][16], tot[2][2][16];
	uint64_t lost[2] = { 0 }, produced[2] = { 0 };
	int opt, rounds = 2;
	char a[96], b[96], metric[96];

	while ((opt = getopt(argc, argv, "d:t:b:l:r:o:")) != -1) {
		switch (opt) {
		case 'd':
			devs = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'b':
			batch = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			level = optarg;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'o':
			outdir = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-d devices] [-t seconds] [-b batch] [-l level] "
				"[-r rounds] [-o dir]\n",
				argv[0]);
			return 2;
		}
	}
	if (devs < 2 || devs > VNPU_MAX_DEVICES || secs <= 0 || !batch ||
	    batch > 4096 /* vnpu_info.max_submit */ || rounds < 1 || rounds > 16) {
		fprintf(stderr, "scale: bad arguments\n");
		return 2;
	}
	{
		char path[32];

		snprintf(path, sizeof(path), "/dev/vnpu%u", devs - 1);
		if (access(path, F_OK)) {
			fprintf(stderr, "scale: %s missing: load vnpu with devices=%u\n", path,
				devs);
			return 1;
		}
	}
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < 4; i++) {
			int k = (i + r) % 4, prof = k / 2, many = k % 2;
			uint64_t l = 0, p = 0;

			run(many ? devs : 1, prof ? level : NULL, secs, batch, outdir,
			    &per[prof][many][r], &tot[prof][many][r], &l, &p);
			if (prof && many) {
				lost[1] += l;
				produced[1] += p;
			} else if (prof) {
				lost[0] += l;
				produced[0] += p;
			}
		}
	}
	{
		double pn = bench_median(tot[1][1], rounds) / bench_median(tot[0][1], rounds);
		double p1 = bench_median(tot[1][0], rounds) / bench_median(tot[0][0], rounds);

		snprintf(metric, sizeof(metric), "tasks/s in total, %s / off: %u dev vs 1", level,
			 devs);
		snprintf(a, sizeof(a), "%.3f", pn);
		snprintf(b, sizeof(b), "%.3f", p1);
		bench_row("scale", metric, a, b, pn / p1, NULL, 0);
	}
	for (int prof = 1; prof >= 0; prof--) {
		double p1 = bench_median(per[prof][0], rounds),
		       pn = bench_median(per[prof][1], rounds);
		double t1 = bench_median(tot[prof][0], rounds),
		       tn = bench_median(tot[prof][1], rounds);
		char bench[64];

		snprintf(bench, sizeof(bench), "scale %s", prof ? level : "off");
		snprintf(metric, sizeof(metric), "tasks/s per device, %u dev / 1 (ideal 1/%u here)",
			 devs, devs);
		snprintf(a, sizeof(a), "%.0f", pn);
		snprintf(b, sizeof(b), "%.0f", p1);
		bench_row(bench, metric, a, b, pn / p1, NULL, 0);
		snprintf(metric, sizeof(metric), "tasks/s in total, %u dev / 1 (ideal 1 here)",
			 devs);
		snprintf(a, sizeof(a), "%.0f", tn);
		snprintf(b, sizeof(b), "%.0f", t1);
		bench_row(bench, metric, a, b, tn / t1, NULL, 0);
	}
	snprintf(metric, sizeof(metric), "records lost, %u dev / 1", devs);
	snprintf(a, sizeof(a), "%llu of %llu", (unsigned long long)lost[1],
		 (unsigned long long)produced[1]);
	snprintf(b, sizeof(b), "%llu of %llu", (unsigned long long)lost[0],
		 (unsigned long long)produced[0]);
	bench_row("scale", metric, a, b, -1, NULL, 0);
	return 0;
}
