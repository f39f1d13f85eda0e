// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the names of the AI Core metric groups, in one table: the
 * Profiler's aic_metrics keys (the TF adapter's map), and the names
 * sample.json gives the groups a device programmed (msprof's), which the
 * export reads back.
 */
#include <stdio.h>
#include <string.h>

#include "format/format.h"

/* the Profiler's keys first, in byte order as the adapter's std::map lists them */
static const struct {
	const char *name;
	uint32_t group;
	bool profiler_key; /* a key of the adapter's kNpuMetricsMap */
	bool exct; /* the name A2/A3 (chip id 5) give their AIC side of the group */
} groups[] = {
	{ "ArithmeticUtilization", VNPU_METRIC_ARITHMETIC_UTILIZATION, true, false },
	{ "L2Cache", VNPU_METRIC_L2_CACHE, true, false },
	{ "Memory", VNPU_METRIC_MEMORY, true, false },
	{ "MemoryL0", VNPU_METRIC_MEMORY_L0, true, false },
	{ "MemoryUB", VNPU_METRIC_MEMORY_UB, true, false },
	{ "PipeUtilization", VNPU_METRIC_PIPE_UTILIZATION, true, false },
	{ "ResourceConflictRatio", VNPU_METRIC_RESOURCE_CONFLICT_RATIO, true, false },
	{ "PipelineExecuteUtilization", VNPU_METRIC_PIPE_EXECUTE_UTILIZATION, false, false },
	{ "MemoryAccess", VNPU_METRIC_MEMORY_ACCESS, false, false },
	/* A2/A3 name the AIC side of PipeUtilization after its event list */
	{ "PipeUtilizationExct", VNPU_METRIC_PIPE_UTILIZATION, false, true },
};

uint32_t npf_metric_group(const char *name, bool profiler_keys_only)
{
	for (size_t i = 0; name && i < NPX_ARRAY_SIZE(groups); i++)
		if ((groups[i].profiler_key || !profiler_keys_only) &&
		    !strcmp(name, groups[i].name))
			return groups[i].group;
	return VNPU_METRIC_NONE;
}

uint32_t npf_metric_group_msprof(const char *name)
{
	/* every group by its own name; PipeUtilizationExct is sample.json's, not an option */
	return npf_metric_exct(name) ? VNPU_METRIC_NONE : npf_metric_group(name, false);
}

bool npf_metric_exct(const char *name)
{
	for (size_t i = 0; name && i < NPX_ARRAY_SIZE(groups); i++)
		if (groups[i].exct && !strcmp(name, groups[i].name))
			return true;
	return false;
}

const char *npf_metric_sample_name(uint32_t group, uint32_t chip_id, bool aiv)
{
	bool exct = npf_chip_has(chip_id, NPF_CHIP_PIPE_EXCT) && !aiv;
	size_t i;

	/* the A2/A3 AIC name where the group has one, else the group's name */
	for (i = 0; exct && i < NPX_ARRAY_SIZE(groups); i++)
		if (groups[i].group == group && groups[i].exct)
			return groups[i].name;
	for (i = 0; i < NPX_ARRAY_SIZE(groups); i++)
		if (groups[i].group == group && !groups[i].exct)
			return groups[i].name;
	return "";
}

void npf_metric_keys(char *buf, size_t len, bool msprof_names)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NPX_ARRAY_SIZE(groups) && n < len; i++)
		if (msprof_names ? !groups[i].exct : groups[i].profiler_key)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      groups[i].name);
}

NPUPROF_API const char *npuprof_metrics_name(uint32_t group)
{
	/* sample.json's name on a chip other than 5 (A2/A3 rename one side) */
	const char *name = group < VNPU_METRIC_COUNT ? npf_metric_sample_name(group, 0, false) : "";

	return *name ? name : NULL;
}
