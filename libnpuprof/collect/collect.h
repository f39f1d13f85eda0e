/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof collect/: a collection of one or more devices into one
 * PROF_* folder: the rings drained into raw files, the host sink's
 * records, the configuration files, and at the end the export
 * (collector.c).
 */
#ifndef NPC_COLLECT_H
#define NPC_COLLECT_H

#include "core/core.h"
#include "format/format.h"

/*
 * collector.c: a collection of one or more devices into one PROF_* folder.
 */
struct npc_collector;

/**
 * struct npc_opts - what to collect
 * @level: enum vnpu_prof_level.
 * @metric_group: enum vnpu_metric_group, VNPU_METRIC_NONE for the default.
 * @output_dir: the existing directory the PROF_* folder goes in.
 */
struct npc_opts {
	uint32_t level;
	uint32_t metric_group;
	const char *output_dir;
};

int npc_create(const struct npc_opts *opts, struct npc_collector **cp, struct npuprof_error *err);
int npc_add(struct npc_collector *c, unsigned int dev_id, struct npuprof_error *err);
/* Start the reader thread; devices can still be added afterwards. */
int npc_start(struct npc_collector *c, struct npuprof_error *err);
const char *npc_dir(const struct npc_collector *c);
/* Stop every device, drain, write host data, export; frees @c. */
int npc_finish(struct npc_collector *c, int export, struct npuprof_error *err);
/*
 * In a child of fork(): let go of @c, which the parent made, with no ioctl,
 * no write and no join: its sessions, files and reader thread are the
 * parent's, and the parent goes on with them. Frees @c.
 */
void npc_forget(struct npc_collector *c);
/* Finish without export and remove the PROF_* folder (a start that failed). */
void npc_discard(struct npc_collector *c);

#endif /* NPC_COLLECT_H */
