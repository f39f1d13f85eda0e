/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the host sink - where the runtime's host records go while a
 * collector runs (internal). At most one per process (the Profiler's
 * one-at-a-time rule), behind one process-wide lock that outlives every
 * sink, so that a runtime call on another thread finds the sink gone
 * instead of locking one that is being freed.
 *
 * A runtime call appends its records to in-memory buffers under the lock
 * (never a write() under it); the collector's reader thread, or its end,
 * swaps the buffers out and writes them to host/data/ without the lock.
 *
 * Two formats, one per sink:
 *  - CANN (STARS products): what CANN's runtime writes (cann_format.h):
 *    api_event, node_basic_info, tensor_info, task_track, hash_dic and
 *    type_info_dic, in slices as msprof's (docs/output.md);
 *  - legacy (other products): struct npuprof_api_rec in api.rec.NNNN
 *    (raw_format.h).
 */
#ifndef NPUPROF_HOST_SINK_H
#define NPUPROF_HOST_SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "npuprof_error.h"

struct host_sink;

/**
 * host_sink_create() - a sink writing into @data_dir (host/data)
 * @data_dir: the directory, which exists.
 * @level: enum vnpu_prof_level: what the CANN records include.
 * @cann: the CANN format, else the legacy one.
 * @sp: out: the sink.
 * @err: filled on failure.
 */
int host_sink_create(const char *data_dir, uint32_t level, bool cann, struct host_sink **sp,
		     struct npuprof_error *err);

/*
 * Make @s the process's sink; @wake(@arg) is called, under the lock, when
 * enough is buffered that the writer should run (an eventfd write).
 */
void host_sink_install(struct host_sink *s, void (*wake)(void *), void *arg);

/* No runtime call reaches @s after this returns. */
void host_sink_uninstall(struct host_sink *s);

/* Write out what is buffered; one thread at a time. */
void host_sink_flush(struct host_sink *s);

/*
 * Flush, write the counts per kind into @loss_dir's loss report (whose
 * room npc_reserve_ends() made; NULL: none), report a write failure or
 * records not written (into @err when @ret is 0, else to stderr), close
 * the files and free @s. Returns @ret, or the first failure.
 */
int host_sink_close(struct host_sink *s, const char *loss_dir, int ret, struct npuprof_error *err);

/* In a child of fork(): free @s without a write (its files are the parent's). */
void host_sink_forget(struct host_sink *s);

#endif /* NPUPROF_HOST_SINK_H */
