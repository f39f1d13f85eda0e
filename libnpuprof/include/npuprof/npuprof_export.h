/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: offline export of a PROF_* folder.
 *
 * npuprof_export() reads the raw data of a PROF_* folder in the Ascend
 * layout (host/ and device_N/ with msprof's own raw files, as the
 * collector writes them or a device and CANN did; docs/output.md) and
 * writes into PROF_x/mindstudio_profiler_output/ what msprof's parser
 * writes from it: op_summary, op_statistic, task_time, api_statistic,
 * communication_statistic, aicpu (CSV, sliced every slice_rows rows),
 * msprof_{ts}.json, and our README.txt.
 *
 * A device's tasks are held in memory while it is exported (one device at
 * a time; docs/performance.md). Every file is written under a temporary
 * name and renamed at the end, so an export that fails leaves no partial
 * file behind.
 */
#ifndef NPUPROF_EXPORT_H
#define NPUPROF_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "npuprof_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NPUPROF_EXPORT_SLICE_ROWS 1000000 /* msprof's CSV_LIMIT */
#define NPUPROF_EXPORT_MAX_DEVICES 16 /* device_0 .. device_15 */

/**
 * typedef npuprof_progress_fn - progress of an export
 * @arg: npuprof_export_opts.progress_arg.
 * @done: bytes of raw data read so far.
 * @total: bytes of raw data in the folder.
 *
 * Called after the host's records are read and after each device, the
 * last time with @done == @total (bytes of host/data and device_N/data).
 *
 * Return: 0 to go on; anything else stops the export with -ECANCELED.
 */
typedef int (*npuprof_progress_fn)(void *arg, uint64_t done, uint64_t total);

/**
 * struct npuprof_export_device - what the export found on one device
 * @dev_id: the N of device_N.
 * @level: enum vnpu_prof_level of the session.
 * @metric_group: enum vnpu_metric_group (VNPU_METRIC_NONE at L0).
 * @product: 0 (the vnpu layout of libnpuprof before 0.5 named it).
 * @records: records in the raw files, as the loss report counts them.
 * @bytes: bytes of device_N/data.
 * @tasks: tasks exported.
 * @lost: records the device dropped (its rings were full), from the loss
 *        report (device_N/vnpu_loss.json).
 * @seq_missing: records missing from the raw files, not lost on the device:
 *               drained by the collector but not written (a full disk...),
 *               from the loss report.
 * @incomplete, @unknown, @out_of_order: 0 (counts of the vnpu layout's
 *               reader, kept for the ABI).
 */
struct npuprof_export_device {
	uint32_t dev_id;
	uint32_t level;
	uint32_t metric_group;
	uint32_t product;
	uint64_t records;
	uint64_t bytes;
	uint64_t tasks;
	uint64_t lost;
	uint64_t seq_missing;
	uint64_t incomplete;
	uint64_t unknown;
	uint64_t out_of_order;
};

/**
 * struct npuprof_export_summary - what an export did (filled on success)
 * @n_devices: entries used in @dev, in export order.
 * @warnings: warnings issued (printed to stderr unless quiet).
 * @dev: per device.
 * @host_api_records: host api_event records read.
 * @lost: sum of @dev[].lost.
 * @op_summary_rows: op_summary data rows.
 * @op_summary_files: op_summary files (more than one: sliced).
 * @timestamp: the {ts} of the file names, 14 digits, NUL-terminated.
 */
struct npuprof_export_summary {
	uint32_t n_devices;
	uint32_t warnings;
	struct npuprof_export_device dev[NPUPROF_EXPORT_MAX_DEVICES];
	uint64_t host_api_records;
	uint64_t lost;
	uint64_t op_summary_rows;
	uint32_t op_summary_files;
	char timestamp[16];
};

/**
 * struct npuprof_export_opts - options of npuprof_export(); NULL for all
 * defaults
 * @sz: sizeof(struct npuprof_export_opts) as the caller knows it: the
 *      OPTS rules of npuprof.h (NPUPROF_OPTS() sets it; an older, smaller
 *      struct is read only as far as @sz; a newer one with a member this
 *      library does not know set is -E2BIG).
 * @timestamp: the {ts} of the output names, exactly 14 digits
 *             YYYYMMDDhhmmss; NULL: the local time of the export.
 * @slice_rows: data rows per CSV file before it is sliced; 0: 1000000.
 * @progress: called as the input is read, or NULL.
 * @progress_arg: passed to @progress.
 * @quiet: non-zero: print no warning on stderr (they still count in the
 *         summary, and lost records still go to README.txt).
 * @summary: out: filled on success when not NULL.
 */
struct npuprof_export_opts {
	size_t sz;
	const char *timestamp;
	uint64_t slice_rows;
	npuprof_progress_fn progress;
	void *progress_arg;
	int quiet;
	struct npuprof_export_summary *summary;
};

/**
 * npuprof_export() - write mindstudio_profiler_output/ of a PROF_* folder
 * @prof_dir: the PROF_* folder.
 * @opts: options, or NULL for the defaults.
 * @err: filled on failure when not NULL (the code and a message naming
 *       the bad path, value or record: file and offset).
 *
 * Return: 0, or a negative errno: -EINVAL (bad argument or option),
 * -E2BIG (@opts newer than this library, with a member it does not know
 * set),
 * -ENAMETOOLONG, -ENOENT (a missing folder, or no host/info.json: nothing
 * to export), -ENOTDIR, -EBADMSG (raw data that cannot be read, such as
 * no device folder readable), -EPROTONOSUPPORT (the vnpu layout of
 * libnpuprof before 0.5), -ECANCELED (the progress callback asked to
 * stop), -ENOMEM, or the errno of a failed system call.
 */
int npuprof_export(const char *prof_dir, const struct npuprof_export_opts *opts,
		   struct npuprof_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NPUPROF_EXPORT_H */
