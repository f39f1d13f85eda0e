/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench: small helpers shared by the benchmarks - the clock, medians, the
 * way out on a failure, and the one output format run.sh turns into the
 * table:
 *
 *   ROW|bench|metric|vnpu|baseline|ratio|target|verdict
 *
 * Every other line a benchmark prints is detail for the log.
 */
#ifndef BENCH_H
#define BENCH_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* End the benchmark: "<program>: @what: <errno's message>". */
static inline void __attribute__((noreturn)) bench_die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	exit(1);
}

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v[0..n) (sorts @v). */
static inline double bench_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * One row of the table. @ratio < 0 prints "-"; @target NULL prints "-" and
 * no verdict; else @met says whether the target is met.
 */
static inline void bench_row(const char *bench, const char *metric, const char *vnpu,
			     const char *base, double ratio, const char *target, int met)
{
	char r[32] = "-";

	if (ratio >= 0)
		snprintf(r, sizeof(r), "%.3f", ratio);
	printf("ROW|%s|%s|%s|%s|%s|%s|%s\n", bench, metric, vnpu, base ? base : "-", r,
	       target ? target : "-", target ? (met ? "met" : "MISSED") : "-");
	fflush(stdout);
}

#endif /* BENCH_H */
