// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the names of the profiling levels, in one table, in both
 * spellings the library reads and writes: the TF adapter's "L0".."L2"
 * (the Profiler's level, PROFILING_OPTIONS level) and msprof's "l0".."l2"
 * (PROFILING_OPTIONS task_time, sample.json's profLevel and taskTime).
 */
#include <stdio.h>
#include <string.h>

#include "format/format.h"

static const struct {
	const char *adapter;
	const char *msprof;
} levels[VNPU_PROF_LEVEL_COUNT] = {
	[VNPU_PROF_L0] = { "L0", "l0" },
	[VNPU_PROF_L1] = { "L1", "l1" },
	[VNPU_PROF_L2] = { "L2", "l2" },
};

static const char *spelling(uint32_t level, bool msprof)
{
	return msprof ? levels[level].msprof : levels[level].adapter;
}

uint32_t npf_level_of(const char *name, bool msprof)
{
	for (uint32_t l = 0; name && l < VNPU_PROF_LEVEL_COUNT; l++)
		if (!strcmp(name, spelling(l, msprof)))
			return l;
	return VNPU_PROF_LEVEL_COUNT;
}

const char *npf_level_spelling(uint32_t level, bool msprof)
{
	return level < VNPU_PROF_LEVEL_COUNT ? spelling(level, msprof) : NULL;
}

void npf_level_names(char *buf, size_t len, bool msprof)
{
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t l = 0; l < VNPU_PROF_LEVEL_COUNT && n < len; l++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", l ? ", " : "", spelling(l, msprof));
}
