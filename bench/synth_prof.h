/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth_prof: a synthetic PROF_* folder in the real Ascend raw layout
 * (docs/output.md), as the collector and the runtime write it for one A2
 * device: the config files, the device's ACSQ logs, context PMU records and
 * task-id flips, and the host's api_event, node_basic_info, tensor_info,
 * task_track, hash_dic and type_info_dic, in 64 MiB slices. Made on the host,
 * at any size, for the export benchmark (and msprof's parser, its peer).
 */
#ifndef BENCH_SYNTH_PROF_H
#define BENCH_SYNTH_PROF_H

#include <stdint.h>

/**
 * struct synth_opts - what to generate
 * @tasks: tasks, spread over @streams streams (each flips past 65,535 ids).
 * @streams: 1..64.
 * @l0: L0 (ACSQ logs and launches only), else L1 PipeUtilization.
 */
struct synth_opts {
	unsigned long tasks;
	unsigned int streams;
	int l0;
};

/* Write the folder @prof (created; its parent must exist). Returns the raw bytes written. */
uint64_t synth_prof(const char *prof, const struct synth_opts *o);

#endif /* BENCH_SYNTH_PROF_H */
