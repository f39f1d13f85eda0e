/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the host suites find ../shared/reference (msprof's sample and the
 * output its parser wrote from it): VNPU_REFERENCE, else beside the top of
 * the tree, found from this binary's place in build/tests/host/.
 */
#ifndef MSPROF_REFERENCE_H
#define MSPROF_REFERENCE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSPROF_SAMPLE "msprof-sample/PROF_000001_20250101000000000_SIMULATOR"
/* rank 0 of a 2-rank AllReduce, with analyze/ (msprof analyze --rule communication...) */
#define MSPROF_SAMPLE_HCCL "msprof-sample-hccl/PROF_000001_20250101000000000_SIMRANK0"

/* The reference folder into @out; 0 when it is readable. */
static inline int msprof_reference_dir(char *out, size_t len)
{
	const char *env = getenv("VNPU_REFERENCE");
	char exe[PATH_MAX - 32];
	ssize_t n;

	if (env) {
		snprintf(out, len, "%s", env);
		return access(out, R_OK);
	}
	/* build/tests/host/<this> -> the top of the tree -> ../shared/reference */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	for (int i = 0; i < 4; i++)
		*strrchr(exe, '/') = 0;
	snprintf(out, len, "%s/../shared/reference", exe);
	return access(out, R_OK);
}

/*
 * A fresh copy at @prof of the raw data (host/, device_0/) of @sample
 * (MSPROF_SAMPLE...) in the reference folder @ref, writable: what the
 * suites export. 0, or -1 if a step failed.
 */
static inline int msprof_sample_copy(const char *ref, const char *sample, const char *prof)
{
	char cmd[8 * PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && mkdir -p %s && cp -r %s/%s/host %s/%s/device_0 %s/ && chmod -R u+w "
		 "%s",
		 prof, prof, ref, sample, ref, sample, prof, prof);
	return system(cmd) ? -1 : 0;
}

#endif /* MSPROF_REFERENCE_H */
