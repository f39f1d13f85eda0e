// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the names of the AI Core metric groups, in one table: the
 * Profiler's aic_metrics keys (the TF adapter's map), and the names
 * sample.json gives the groups a device programmed (msprof's), which the
 * export reads back.
 */
#include <string.h>

#include "npuprof_internal.h"

static const struct {
	const char *name;
	uint32_t group;
	bool profiler_key; /* a key of the adapter's kNpuMetricsMap */
} groups[] = {
	{ "ArithmeticUtilization", VNPU_METRIC_ARITHMETIC_UTILIZATION, true },
	{ "PipeUtilization", VNPU_METRIC_PIPE_UTILIZATION, true },
	{ "Memory", VNPU_METRIC_MEMORY, true },
	{ "MemoryL0", VNPU_METRIC_MEMORY_L0, true },
	{ "MemoryUB", VNPU_METRIC_MEMORY_UB, true },
	{ "ResourceConflictRatio", VNPU_METRIC_RESOURCE_CONFLICT_RATIO, true },
	{ "L2Cache", VNPU_METRIC_L2_CACHE, true },
	{ "PipeExecuteUtilization", VNPU_METRIC_PIPE_EXECUTE_UTILIZATION, false },
	{ "MemoryAccess", VNPU_METRIC_MEMORY_ACCESS, false },
	/* A2/A3 name the AIC side of PipeUtilization after its event list */
	{ "PipeUtilizationExct", VNPU_METRIC_PIPE_UTILIZATION, false },
};

uint32_t npuprof_metric_group(const char *name, bool profiler_keys_only)
{
	for (size_t i = 0; name && i < sizeof(groups) / sizeof(groups[0]); i++)
		if ((groups[i].profiler_key || !profiler_keys_only) &&
		    !strcmp(name, groups[i].name))
			return groups[i].group;
	return VNPU_METRIC_NONE;
}

const char *npuprof_metric_sample_name(uint32_t group, uint32_t chip_id, bool aiv)
{
	if (group == VNPU_METRIC_PIPE_UTILIZATION && chip_id == 5 && !aiv)
		return "PipeUtilizationExct";
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].group == group)
			return groups[i].name;
	return "";
}
