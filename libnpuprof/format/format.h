/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof format/: Ascend's formats, which the writers (the host
 * records, the collector) and the readers (the export) must agree on: the
 * chips and what each does, the level and metric-group names, the
 * configuration files of a PROF_* folder, and, in headers of their own
 * because they describe bytes on disk rather than code, the PROF_* folder's
 * names (prof_layout.h) and CANN's host records (cann_format.h); the uapi/
 * headers describe the device's records.
 */
#ifndef NPF_FORMAT_H
#define NPF_FORMAT_H

#include "core/core.h"
#include "format/cann_format.h"
#include "format/prof_layout.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"

/* ---- Ascend's chips (chip_table.c) ---- */

/* What a chip (msprof's platform_version) does, in struct npf_chip.features. */
#define NPF_CHIP_READ (1u << 0) /* the export reads its device records as its own */
#define NPF_CHIP_HWTS (1u << 1) /* HWTS logs and AI Core PMU records, no STARS */
#define NPF_CHIP_V1_1 (1u << 2) /* PMU columns derived as the V1_1 chips' */
#define NPF_CHIP_CPP_PATH (1u << 3) /* CANN runs msprof's C++ path for it */
#define NPF_CHIP_FREQ (1u << 4) /* the Python timeline draws AI Core Freq */
#define NPF_CHIP_FREQ_CPP (1u << 5) /* the C++ timeline draws AI Core Freq */
#define NPF_CHIP_SQE_OTHER (1u << 6) /* msprof names none of its task types */
#define NPF_CHIP_FFTS_PLUS (1u << 7) /* a MIX task runs as FFTS+ (context logs) */
#define NPF_CHIP_PIPE_EXCT (1u << 8) /* AIC PipeUtilization is "PipeUtilizationExct" */
#define NPF_CHIP_V6 (1u << 9) /* v6 records: 32-bit task ids, no flips (uapi/vnpu_ascend.h) */

/**
 * struct npf_chip - one chip of the table
 * @id: msprof's platform_version.
 * @features: NPF_CHIP_*.
 */
struct npf_chip {
	uint32_t id;
	unsigned int features;
};

/* the row of chip @id; a chip msprof does not know gets a row of its own */
const struct npf_chip *npf_chip(uint32_t id);
bool npf_chip_known(uint32_t id);
bool npf_chip_has(uint32_t id, unsigned int feature);

/* ---- names (level_names.c, metric_names.c) ---- */

/*
 * level_names.c: the level named @name ("L1", or msprof's "l1" with
 * @msprof), VNPU_PROF_LEVEL_COUNT if none (@name NULL included); the name
 * of @level in either spelling, NULL if none; and every name, in level
 * order, as "L0, L1, L2" in @buf (messages that list them).
 */
uint32_t npf_level_of(const char *name, bool msprof);
const char *npf_level_spelling(uint32_t level, bool msprof);
void npf_level_names(char *buf, size_t len, bool msprof);

/*
 * metric_names.c: the group of a metric name (VNPU_METRIC_NONE if none):
 * only the Profiler's aic_metrics keys with @profiler_keys_only, else
 * every name sample.json may give; whether @name is the A2/A3 AIC name of
 * its group ("PipeUtilizationExct", whose columns differ); the name
 * sample.json gives the group a device of @chip_id programmed on its AIC
 * or AIV side; and the Profiler's keys (in byte order), or with
 * @msprof_names msprof's, as "A, B, ..." in @buf.
 */
uint32_t npf_metric_group(const char *name, bool profiler_keys_only);
/* msprof's --aic-metrics names (its CLI and PROFILING_OPTIONS): every group's */
uint32_t npf_metric_group_msprof(const char *name);
bool npf_metric_exct(const char *name);
const char *npf_metric_sample_name(uint32_t group, uint32_t chip_id, bool aiv);
void npf_metric_keys(char *buf, size_t len, bool msprof_names);

/* ---- the configuration files of a PROF_* folder (prof_config.c) ---- */

/*
 * The configuration files of a PROF_* folder in the real layout, as
 * msprof's collector writes them and its parser reads them (docs/output.md
 * "Configuration files"):
 *
 *   host/info.json, sample.json, start_info, end_info, host_start.log
 *   device_N/info.json.N, sample.json, start_info.N, end_info.N,
 *            host_start.log.N, dev_start.log.N
 */

/* msprof's id of the host in "devices" */
#define NPF_HOST_ID 64

/**
 * struct npf_instant - one instant on the clocks the files link
 * @real_ns: CLOCK_REALTIME.
 * @raw_ns: CLOCK_MONOTONIC_RAW (host record time).
 * @mono_ns: CLOCK_MONOTONIC (the device's mono_base_ns clock).
 */
struct npf_instant {
	uint64_t real_ns;
	uint64_t raw_ns;
	uint64_t mono_ns;
};

void npf_now(struct npf_instant *t);

/**
 * struct npf_session - what the configuration files describe
 * @level: enum vnpu_prof_level.
 * @info: a device of the session (its product: platform_version, the
 *        sample's metric names), or NULL for the host files before one.
 * @ctrl: its session's control page (events, clocks), or NULL.
 */
struct npf_session {
	uint32_t level;
	const struct vnpu_info *info;
	const struct vnpu_ring_ctrl *ctrl;
};

/* host/: info.json, sample.json, start_info and host_start.log, at @t. */
int npf_write_host(const char *host_dir, const struct npf_session *s, const struct npf_instant *t,
		   struct npuprof_error *err);

/* device_N/: info.json.N, sample.json, start_info.N and the two start logs, at @t. */
int npf_write_device(const char *dev_dir, unsigned int id, const struct npf_session *s,
		     const struct npf_instant *t, struct npuprof_error *err);

/*
 * The end of the run's files in @dir (host/, @id < 0, or device_N/, @id N),
 * written into room reserved at the start, so that a disk full at the end
 * still takes them: npf_reserve_ends() writes the room of end_info(.N) (a
 * hidden .end_info(.N).reserve) and of the loss report (vnpu_loss.json,
 * an empty object until the end); npf_write_end() writes end_info(.N) at
 * @t into its room and renames it (a file anew without a room).
 */
int npf_reserve_ends(const char *dir, int id, struct npuprof_error *err);
int npf_write_end(const char *dir, int id, const struct npf_instant *t, struct npuprof_error *err);

/**
 * struct npf_loss - the accounting of one channel (produced == written +
 * lost + not_written)
 * @channel: the raw file's name (stars_soc...).
 * @rec_size: bytes of a record.
 * @produced: records the device produced.
 * @lost: records the device dropped, the channel full.
 * @written: records in the raw files.
 * @not_written: records drained but not written (a write error).
 */
struct npf_loss {
	const char *channel;
	uint32_t rec_size;
	uint64_t produced;
	uint64_t lost;
	uint64_t written;
	uint64_t not_written;
};

/*
 * @dir/vnpu_loss.json, the loss report (ours, not msprof's;
 * docs/output.md), rewritten in place in the room npf_reserve_ends() made.
 */
int npf_write_loss(const char *dir, const struct npf_loss *l, unsigned int n,
		   struct npuprof_error *err);

#endif /* NPF_FORMAT_H */
