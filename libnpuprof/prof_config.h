/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the configuration files of a PROF_* folder in the real
 * layout, as msprof's collector writes them and its parser reads them
 * (internal; docs/output.md "Configuration files"):
 *
 *   host/info.json, sample.json, start_info, end_info, host_start.log
 *   device_N/info.json.N, sample.json, start_info.N, end_info.N,
 *            host_start.log.N, dev_start.log.N
 */
#ifndef NPUPROF_PROF_CONFIG_H
#define NPUPROF_PROF_CONFIG_H

#include <stdint.h>

#include "npuprof_error.h"
#include "vnpu.h"
#include "vnpu_prof.h"

/* msprof's id of the host in "devices" */
#define NPC_HOST_ID 64

/**
 * struct npc_instant - one instant on the clocks the files link
 * @real_ns: CLOCK_REALTIME.
 * @raw_ns: CLOCK_MONOTONIC_RAW (host record time).
 * @mono_ns: CLOCK_MONOTONIC (the device's mono_base_ns clock).
 */
struct npc_instant {
	uint64_t real_ns;
	uint64_t raw_ns;
	uint64_t mono_ns;
};

void npc_now(struct npc_instant *t);

/**
 * struct npc_session - what the configuration files describe
 * @level: enum vnpu_prof_level.
 * @info: a device of the session (its product: platform_version, the
 *        sample's metric names), or NULL for the host files before one.
 * @ctrl: its session's control page (events, clocks), or NULL.
 */
struct npc_session {
	uint32_t level;
	const struct vnpu_info *info;
	const struct vnpu_ring_ctrl *ctrl;
};

/* host/: info.json, sample.json, start_info and host_start.log, at @t. */
int npc_write_host(const char *host_dir, const struct npc_session *s, const struct npc_instant *t,
		   struct npuprof_error *err);

/* device_N/: info.json.N, sample.json, start_info.N and the two start logs, at @t. */
int npc_write_device(const char *dev_dir, unsigned int id, const struct npc_session *s,
		     const struct npc_instant *t, struct npuprof_error *err);

/*
 * The end of the run's files in @dir (host/, @id < 0, or device_N/, @id N),
 * written into room reserved at the start, so that a disk full at the end
 * still takes them: npc_reserve_ends() writes the room of end_info(.N) (a
 * hidden .end_info(.N).reserve) and of the loss report (vnpu_loss.json,
 * an empty object until the end); npc_write_end() writes end_info(.N) at
 * @t into its room and renames it (a file anew without a room).
 */
int npc_reserve_ends(const char *dir, int id, struct npuprof_error *err);
int npc_write_end(const char *dir, int id, const struct npc_instant *t, struct npuprof_error *err);

/**
 * struct npc_loss - the accounting of one channel (produced == written +
 * lost + not_written)
 * @channel: the raw file's name (stars_soc...).
 * @rec_size: bytes of a record.
 * @produced: records the device produced.
 * @lost: records the device dropped, the channel full.
 * @written: records in the raw files.
 * @not_written: records drained but not written (a write error).
 */
struct npc_loss {
	const char *channel;
	uint32_t rec_size;
	uint64_t produced;
	uint64_t lost;
	uint64_t written;
	uint64_t not_written;
};

/*
 * @dir/vnpu_loss.json, the loss report (ours, not msprof's;
 * docs/output.md), rewritten in place in the room npc_reserve_ends() made.
 */
int npc_write_loss(const char *dir, const struct npc_loss *l, unsigned int n,
		   struct npuprof_error *err);

#endif /* NPUPROF_PROF_CONFIG_H */
