// SPDX-License-Identifier: GPL-2.0
/*
 * overhead: what profiling costs a workload of many small ops.
 *
 * One process opens /dev/vnpu0 and runs the same workload - N Add ops on
 * a 256-element FLOAT16 tensor, launched one by one with npuprof_launch(),
 * a npuprof_sync() every S ops and at the end - with profiling off, then
 * under the library's Profiler (npuprof_profiler_start) at L0, L1 and L2,
 * and again: off, L0, L1, L2, off, ... for R rounds and a last off. The
 * time of a run is the workload's, from its first launch to its last
 * sync; starting the profiler is not in it, and stopping it (drain the
 * ring, export the CSVs) is reported apart. Each profiled run is compared
 * to the mean of the two off runs around it (the load of a shared machine
 * drifts over minutes), and the ratio reported is the median over the
 * rounds.
 *
 * make bench runs 8 rounds of 25000 ops: 200000 ops per level, each
 * profiled run 10 to 15 s of wall time from the off runs it is compared to.
 *
 *   overhead [-n ops] [-s sync_every] [-r rounds] [-o output_dir] [-m off|L0|L1|L2]
 *
 * -m runs that mode alone (to profile it), and prints no table.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"
#include "npuprof.h"
#include "vnpu.h"
#include "vnpu_prof.h"

#define MODES 4 /* off, L0, L1, L2 */
static const char *const level_name[MODES] = { NULL, "L0", "L1", "L2" };

static void fail(const char *what, const struct npuprof_error *err)
{
	fprintf(stderr, "overhead: %s: %s\n", what, err ? err->msg : strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long ops = 100000, sync_every = 256;
	const char *outdir = "/tmp";
	double wall[MODES][17], stop[MODES][17], ratio[MODES][16], med[MODES], stop_med[MODES];
	double lo[MODES], hi[MODES];
	uint64_t lost[MODES] = { 0 }, produced[MODES] = { 0 };
	struct npuprof_error err;
	struct npuprof_dev *dev;
	struct vnpu_task t;
	uint64_t dims[1] = { 256 };
	uint32_t stream;
	int opt, rounds = 3, stats_fd, only = -1;
	char a[64], b[64];

	while ((opt = getopt(argc, argv, "n:s:r:o:m:")) != -1) {
		switch (opt) {
		case 'n':
			ops = strtoul(optarg, NULL, 0);
			break;
		case 's':
			sync_every = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'm':
			only = 0;
			for (int m = 1; m < MODES; m++)
				if (!strcmp(optarg, level_name[m]))
					only = m;
			break;
		default:
			fprintf(stderr, "usage: %s [-n ops] [-s sync_every] [-r rounds] [-o dir]\n",
				argv[0]);
			return 2;
		}
	}
	if (!ops || !sync_every || rounds < 1 || rounds > 16) {
		fprintf(stderr, "overhead: bad arguments\n");
		return 2;
	}
	if (npuprof_open(0, &dev, &err))
		fail("npuprof_open", &err);
	if (npuprof_stream_create(dev, &stream, &err))
		fail("npuprof_stream_create", &err);
	if (npuprof_op_add(dev, &t, "Add_1", stream, 1, dims, VNPU_DT_FLOAT16))
		fail("npuprof_op_add", NULL);
	/* a file of our own to read the session's counters (PROF_STATS) */
	stats_fd = open("/dev/vnpu0", O_RDWR | O_CLOEXEC);
	if (stats_fd < 0)
		fail("open /dev/vnpu0", NULL);

	for (int r = 0; r <= rounds; r++) {
		for (int m = 0; m < (r < rounds ? MODES : 1); m++) {
			NPUPROF_OPTS(npuprof_options, o, .level = level_name[m],
				     .output_path = outdir);
			struct vnpu_prof_stats st = { .size = sizeof(st) };
			char cmd[4200], dir[4096];
			double t0, t1;

			if (only >= 0 && m != only)
				continue;
			if (m && npuprof_profiler_start(&o, &err))
				fail("npuprof_profiler_start", &err);
			t0 = bench_now();
			for (unsigned long i = 1; i <= ops; i++) {
				if (npuprof_launch(dev, &t, 1, NULL, &err))
					fail("npuprof_launch", &err);
				if ((i % sync_every == 0 || i == ops) &&
				    npuprof_sync(dev, stream, -1, &err))
					fail("npuprof_sync", &err);
			}
			t1 = bench_now();
			wall[m][r] = t1 - t0;
			stop[m][r] = 0;
			if (!m)
				continue;
			if (ioctl(stats_fd, VNPU_IOC_PROF_STATS, &st))
				fail("VNPU_IOC_PROF_STATS", NULL);
			if (npuprof_profiler_stop(&err))
				fail("npuprof_profiler_stop", &err);
			stop[m][r] = bench_now() - t1;
			lost[m] += st.lost;
			produced[m] += st.produced;
			if (npuprof_profiler_dir(dir, sizeof(dir)))
				fail("npuprof_profiler_dir", NULL);
			snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
			if (system(cmd))
				fail("rm", NULL);
			printf("overhead: round %d %s: %.3f s (%.2f us/op), stop+export %.3f s, "
			       "%llu of %llu records lost\n",
			       r, level_name[m], wall[m][r], wall[m][r] / (double)ops * 1e6,
			       stop[m][r], (unsigned long long)st.lost,
			       (unsigned long long)st.produced);
		}
		if (only <= 0)
			printf("overhead: round %d off: %.3f s (%.2f us/op)\n", r, wall[0][r],
			       wall[0][r] / (double)ops * 1e6);
		fflush(stdout);
	}
	if (only >= 0)
		return 0;
	for (int m = 1; m < MODES; m++)
		for (int r = 0; r < rounds; r++)
			ratio[m][r] = wall[m][r] / ((wall[0][r] + wall[0][r + 1]) / 2);
	med[0] = bench_median(wall[0], rounds + 1);
	for (int m = 1; m < MODES; m++) {
		med[m] = bench_median(wall[m], rounds);
		stop_med[m] = bench_median(stop[m], rounds);
		double mr = bench_median(ratio[m], rounds); /* sorts ratio[m] */

		lo[m] = ratio[m][0];
		hi[m] = ratio[m][rounds - 1];
		ratio[m][0] = mr;
	}

	snprintf(a, sizeof(a), "%.2f us/op", med[0] / (double)ops * 1e6);
	snprintf(b, sizeof(b), "%lu ops, %d rounds", ops, rounds);
	bench_row("overhead", "workload, profiling off", a, b, -1, NULL, 0);
	for (int m = 1; m < MODES; m++) {
		/* issue 18's targets; a round spread wider than the margin is noted */
		static const char *const target[MODES] = { NULL, "<= 1.03", "<= 1.05", "<= 1.08" };
		static const double limit[MODES] = { 0, 1.03, 1.05, 1.08 };
		char metric[64];

		snprintf(metric, sizeof(metric), "wall %s / off (median of per-round ratios)",
			 level_name[m]);
		snprintf(a, sizeof(a), "%.3f s (rounds %.2f..%.2f, spread %.2f%s)", med[m], lo[m],
			 hi[m], hi[m] - lo[m], hi[m] - lo[m] > limit[m] - 1 ? " > margin" : "");
		snprintf(b, sizeof(b), "%.3f s", med[0]);
		bench_row("overhead", metric, a, b, ratio[m][0], target[m],
			  ratio[m][0] <= limit[m]);
	}
	for (int m = 1; m < MODES; m++) {
		char metric[64];

		snprintf(metric, sizeof(metric), "%s stop+export (not in wall)", level_name[m]);
		snprintf(a, sizeof(a), "%.3f s", stop_med[m]);
		snprintf(b, sizeof(b), "lost %llu/%llu", (unsigned long long)lost[m],
			 (unsigned long long)produced[m]);
		bench_row("overhead", metric, a, b, -1, NULL, 0);
	}
	close(stats_fd);
	npuprof_close(dev);
	return 0;
}
