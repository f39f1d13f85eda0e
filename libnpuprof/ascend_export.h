/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the export of a PROF_* folder in the real Ascend raw layout
 * (host/ with CANN's records, device_N/ with the device's own), written to
 * reproduce what msprof's parser writes from the same folder
 * (docs/msprof-parser.md describes the parser; docs/output.md what we
 * write and where we differ).
 *
 *   ascend_config.c    info.json, sample.json, start_info, host_start.log...
 *   ascend_raw.c       slices, whole records, hash_dic and type_info_dic
 *   ascend_host.c      the host records: API calls, ops, host tasks
 *   ascend_device.c    ACSQ logs, PMU records, flips, and the join
 *   ascend_metrics.c   the op_summary PMU columns of each metric group
 *   ascend_summary.c   op_summary, task_time, op_statistic, api_statistic
 *   ascend_timeline.c  msprof_{ts}.json
 *   ascend_export.c    the folder: devices, order, README.txt
 *
 * Nothing here is exported from the shared library.
 */
#ifndef NPUPROF_ASCEND_EXPORT_H
#define NPUPROF_ASCEND_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "cann_format.h"
#include "export_internal.h"
#include "vnpu_ascend.h"

#define NPA_NO_CTX 4294967295u /* context id of a task that is not an FFTS+ context */
#define NPA_NO_MODEL 4294967295u
#define NPA_MAX_DEVICES NPUPROF_EXPORT_MAX_DEVICES

/* ---- configuration (ascend_config.c) ---- */

/**
 * struct npa_clock - what turns a folder's times into msprof's
 * @begin: start_info collectionTimeBegin, epoch us, as written.
 * @end: end_info collectionTimeEnd as written ("" when missing).
 * @offset: collectionTimeBegin - clockMonotonicRaw / 1000.0 (epoch us of
 *          monotonic 0), a double as msprof computes it.
 * @mono_raw: start_info clockMonotonicRaw, ns.
 * @have_begin: start_info was read.
 */
struct npa_clock {
	char begin[32];
	char end[32];
	double offset;
	double mono_raw;
	bool have_begin;
};

/**
 * struct npa_dev_cfg - one device_N folder's configuration
 * @id: N.
 * @pid: info.json.N "pid" (the timeline's process ids derive from it).
 * @hwts_hz: DeviceInfo[0].hwts_frequency in Hz.
 * @aic_mhz: DeviceInfo[0].aic_frequency in MHz.
 * @ai_core_num: DeviceInfo[0].ai_core_num.
 * @aiv_num: DeviceInfo[0].aiv_num.
 * @aic_metrics: sample.json ai_core_metrics ("" when none).
 * @aiv_metrics: sample.json aiv_metrics.
 * @aic_events: sample.json ai_core_profiling_events.
 * @n_aic_events: their number.
 * @aiv_events: aiv_profiling_events.
 * @n_aiv_events: their number.
 * @level: sample.json profLevel as enum vnpu_prof_level (L0 when absent).
 * @metric_group: ai_core_metrics as enum vnpu_metric_group, VNPU_METRIC_NONE
 *                when none or not one of ours (for the export summary).
 * @dev_cnt: dev_start.log.N cntvct / 1e9.
 * @host_mon: host_start.log.N clock_monotonic_raw (+ the cntvct_diff
 *            correction) / 1e9.
 * @host_cnt: host_start.log.N cntvct / 1e9.
 * @host_start_count: the host counter at the collection start: a
 *                    task_track before it counts no blocks in the PMU
 *                    time formulas (msprof's get_block_num_from_ge).
 * @clock: start_info.N / end_info.N.
 */
struct npa_dev_cfg {
	uint32_t id;
	long pid;
	double hwts_hz;
	double aic_mhz;
	uint32_t ai_core_num;
	uint32_t aiv_num;
	char aic_metrics[32];
	char aiv_metrics[32];
	uint32_t aic_events[VNPU_PMU_COUNTERS];
	uint32_t n_aic_events;
	uint32_t aiv_events[VNPU_PMU_COUNTERS];
	uint32_t n_aiv_events;
	uint32_t level;
	uint32_t metric_group;
	double dev_cnt;
	double host_mon;
	double host_cnt;
	double host_start_count;
	struct npa_clock clock;
};

/**
 * struct npa_host_cfg - the host folder's configuration
 * @pid: info.json "pid".
 * @cpu_hz: CPU[0].Frequency in Hz, 0 when empty (timestamps are ns).
 * @clock: start_info / end_info.
 * @level0: sample.json profLevel is l0: ops have names only.
 */
struct npa_host_cfg {
	long pid;
	double cpu_hz;
	bool level0;
	struct npa_clock clock;
};

int npa_host_cfg_load(const char *dir, struct npa_host_cfg *c, struct npx_warn *w,
		      struct npuprof_error *err);
int npa_dev_cfg_load(const char *dir, uint32_t id, struct npa_dev_cfg *c, struct npx_warn *w,
		     struct npuprof_error *err);

/* device ns of a syscnt, as msprof's InfoConfReader.time_from_syscnt (doubles) */
static inline double npa_syscnt_ns(const struct npa_dev_cfg *c, uint64_t syscnt)
{
	return ((double)syscnt - c->dev_cnt * 1e9) / c->hwts_hz * 1e9 + c->host_mon * 1e9;
}

/* ---- raw files (ascend_raw.c) ---- */

/**
 * struct npa_slices - the slices of one raw file kind, in msprof's order
 * @dir: the data/ folder.
 * @label: it, relative to the PROF folder, for messages.
 * @name: the slice names, sorted by their trailing number.
 * @n: slices.
 * @bytes: their total size.
 */
struct npa_slices {
	char dir[PATH_MAX];
	char label[64];
	char **name;
	unsigned int n;
	uint64_t bytes;
};

/*
 * The slices in @dir whose names are "{prefix}{anything}slice_{K}" for one
 * of the @prefixes (NULL-terminated), as msprof's file regexes take them.
 */
int npa_slices_find(struct npa_slices *s, const char *dir, const char *label,
		    const char *const *prefixes, struct npuprof_error *err);
void npa_slices_free(struct npa_slices *s);

/*
 * Read the whole records of @s: each record is passed to @fn with its file
 * and offset. msprof's framing: with @per_file false, the slices are one
 * stream trimmed at the front by (total size % @size) bytes (a record may
 * straddle two slices); with @per_file true, each slice is trimmed alone
 * and its tail beyond whole records is dropped. Trimmed bytes are warned
 * about, naming the file. @fn returns 0 or a negative errno that stops it.
 */
typedef int (*npa_rec_fn)(void *arg, const void *rec, const char *file, uint64_t off);
int npa_slices_read(const struct npa_slices *s, size_t size, bool per_file, npa_rec_fn fn,
		    void *arg, struct npx_warn *w, struct npuprof_error *err);

/*
 * Make room for element @n of the array *@p of *@cap elements of @size
 * bytes (doubling, from @first); 0 or -ENOMEM, the array kept.
 */
int npa_grow(void **p, size_t *cap, size_t n, size_t size, size_t first);

/* A hash -> name dictionary (hash_dic), or (level << 32 | type) -> name */
struct npa_dict {
	uint64_t *key;
	char **val;
	size_t cap;
	size_t n;
};

int npa_dict_put(struct npa_dict *d, uint64_t key, const char *val, size_t len);
const char *npa_dict_get(const struct npa_dict *d, uint64_t key);
void npa_dict_free(struct npa_dict *d);
/* load "key:value" lines of hash_dic (@typed false) or type_info_dic slices */
int npa_dict_load(struct npa_dict *d, const struct npa_slices *s, bool typed, struct npx_warn *w,
		  struct npuprof_error *err);

/* ---- the host (ascend_host.c) ---- */

/**
 * struct npa_api - one API call (msprof's ApiData)
 * @level: enum cann_level.
 * @type: the record's type.
 * @tid: its thread.
 * @item: its item hash.
 * @begin: ns.
 * @end: ns.
 * @conn: connection id (its index among the kept records, file order).
 */
struct npa_api {
	uint32_t level;
	uint32_t type;
	uint32_t tid;
	uint32_t conn;
	uint64_t item;
	uint64_t begin;
	uint64_t end;
};

/**
 * struct npa_op - what a node launch window says of its op (TaskInfo)
 * @name: the op name (the launch's item), never NULL.
 * @type: the op type, "N/A" when unknown.
 * @task_type: enum cann_ge_task_type.
 * @block_num: blockDim & 0xffff.
 * @mix_block_num: block_num * (blockDim >> 16).
 * @dynamic: from an aging node_basic_info.
 * @hf32: op_flag non-zero.
 * @in_shapes, ...: the tensor strings, NULL for N/A.
 * @model_id: NPA_NO_MODEL.
 */
/* npa_op.task_type of a level-0 op: "N/A" */
#define NPA_TASK_TYPE_NA 0xffffffffu

struct npa_op {
	const char *name;
	const char *type;
	uint32_t task_type;
	uint32_t block_num;
	uint32_t mix_block_num;
	bool dynamic;
	bool hf32;
	char *in_shapes, *in_types, *in_formats;
	char *out_shapes, *out_types, *out_formats;
	uint32_t model_id;
	bool level0;
};

/**
 * struct npa_htask - a task the host gave a device (HostTask)
 * @dev: the device id.
 * @stream: stream id.
 * @task: 16-bit task id.
 * @batch: batch (flips of the stream before it).
 * @ctx: context id (NPA_NO_CTX).
 * @ts: task_track timestamp, ns.
 * @tid: its thread.
 * @type: the runtime task type name (KERNEL_AICORE...).
 * @kernel: the kernel name, "N/A" when unknown.
 * @op: its op, -1 when the task_track is in no node window.
 * @conn: the node launch's connection id, or -1.
 */
struct npa_htask {
	uint32_t dev;
	uint32_t stream;
	uint32_t task;
	uint32_t batch;
	uint32_t ctx;
	uint32_t tid;
	uint64_t ts;
	const char *type;
	const char *kernel;
	int64_t op;
	int64_t conn;
};

/**
 * struct npa_host - everything read from host/
 * @cfg: its configuration.
 * @hash: hash_dic.
 * @types: type_info_dic.
 * @api: the API calls, file order.
 * @ops: ops (node launch windows with a node_basic_info).
 * @htask: host tasks, sorted by (dev, stream, ts).
 * @n_api, @n_ops, @n_htask: counts.
 * @dropped_begin0: API records with begin 0, dropped.
 * @strs: names that are in no dictionary (decimal hashes), owned.
 * @n_strs, @cap_strs: their count and room.
 */
struct npa_host {
	struct npa_host_cfg cfg;
	struct npa_dict hash;
	struct npa_dict types;
	struct npa_api *api;
	size_t n_api;
	struct npa_op *ops;
	size_t n_ops;
	struct npa_htask *htask;
	size_t n_htask;
	uint64_t dropped_begin0;
	char **strs;
	size_t n_strs, cap_strs;
};

int npa_host_load(struct npa_host *h, const char *prof, struct npx_warn *w,
		  struct npuprof_error *err);
void npa_host_free(struct npa_host *h);
/* a hash's name, or its decimal digits in @buf */
const char *npa_hash_name(const struct npa_host *h, uint64_t hash, char *buf, size_t len);
/* enum cann_ge_task_type's name ("AI_CORE"...) */
const char *npa_ge_task_type_name(uint32_t t);

/* ---- a device (ascend_device.c) ---- */

/**
 * struct npa_pmu - one context PMU record
 * @total: total cycles.
 * @pmu: the counters.
 * @aiv: an AIV task's (ffts type 1).
 */
struct npa_pmu {
	uint64_t total;
	uint64_t pmu[VNPU_PMU_COUNTERS];
	bool aiv;
};

/**
 * struct npa_task - a device task, joined with its host task (AscendTask)
 * @stream: stream.
 * @task: task id.
 * @batch: batch.
 * @ctx: context.
 * @sqe: enum vnpu_sqe_type of its ACSQ log.
 * @start: device ns (double, as msprof).
 * @dur: end - start ns.
 * @host: its host task, -1 for a device-only task.
 * @pmu: its PMU record, -1 when none.
 */
struct npa_task {
	uint32_t stream;
	uint32_t task;
	uint32_t batch;
	uint32_t ctx;
	uint32_t sqe;
	double start;
	double dur;
	int64_t host;
	int64_t pmu;
};

/**
 * struct npa_loss - the sums of a loss report (ascend_loss.c)
 * @present: the folder has one (ours).
 * @produced: records made.
 * @lost: dropped where they were made (a full ring, no memory).
 * @written: in the raw files.
 * @not_written: drained but not written (a write error).
 */
struct npa_loss {
	bool present;
	uint64_t produced;
	uint64_t lost;
	uint64_t written;
	uint64_t not_written;
};

void npa_loss_load(const char *dir, struct npa_loss *l, struct npx_warn *w);

/**
 * struct npa_dev - one device_N folder
 * @cfg: its configuration.
 * @tasks: AscendTask rows, sorted by start.
 * @n_tasks: their number.
 * @pmu: the PMU records.
 * @n_pmu: their number.
 * @mismatched: ACSQ starts and ends that did not pair.
 * @loss: its loss report.
 * @aicpu: its AI CPU records (aicpu.data), in file order.
 * @n_aicpu: their number.
 */
struct npa_dev {
	struct npa_dev_cfg cfg;
	struct npa_loss loss;
	struct npa_aicpu *aicpu;
	size_t n_aicpu;
	struct npa_task *tasks;
	size_t n_tasks;
	struct npa_pmu *pmu;
	size_t n_pmu;
	uint64_t mismatched;
};

/* msprof's StarsCommon stream and task ids of a record's (bits 12, 13 re-encode) */
void npa_stars_ids(uint32_t raw_stream, uint32_t raw_task, uint32_t *stream, uint32_t *task);

/* ---- AI CPU records (ascend_aicpu.c) ---- */

/**
 * struct npa_aicpu - an AI CPU task as msprof's AiCpuData stores it
 * @stream: stream id.
 * @task: task id.
 * @start_ms: run start, ms (time_from_syscnt).
 * @end_ms: run end, ms.
 * @compute_ms: compute phase, ms.
 * @memcpy_ms: output copy, ms.
 * @dispatch_ms: dispatch, ms.
 * @total_ms: submit to after the run, ms.
 */
struct npa_aicpu {
	uint32_t stream;
	uint32_t task;
	double start_ms;
	double end_ms;
	double compute_ms;
	double memcpy_ms;
	double dispatch_ms;
	double total_ms;
};

int npa_aicpu_load(struct npa_dev *d, const char *data, const char *label, struct npx_warn *w,
		   struct npuprof_error *err);

int npa_dev_load(struct npa_dev *d, const char *prof, uint32_t id, const struct npa_host *h,
		 struct npx_warn *w, struct npuprof_error *err);
void npa_dev_free(struct npa_dev *d);

/* ---- PMU columns (ascend_metrics.c) ---- */

#define NPA_MCOL_MAX 32

/**
 * struct npa_metrics - the op_summary PMU columns of a device
 * @n: columns, 0 when the device has no PMU data or its events do not
 *     match its group (msprof then writes none).
 * @name: their header names.
 * @kind: how each is computed (ascend_metrics.c).
 * @ev: the counter (index in the event list) each uses, or -1.
 * @ev2: a second counter, or -1.
 * @k: a bandwidth's pipe width times its scale.
 * @aiv: the column is of the AIV side.
 * @cube_util: cube_utilization(%) ends the row.
 */
struct npa_metrics {
	unsigned int n;
	char name[NPA_MCOL_MAX][48];
	uint8_t kind[NPA_MCOL_MAX];
	double k[NPA_MCOL_MAX];
	int8_t ev[NPA_MCOL_MAX];
	int8_t ev2[NPA_MCOL_MAX];
	bool aiv[NPA_MCOL_MAX];
	bool cube_util;
};

/* the columns of @c's groups; a warning when the events do not match them */
void npa_metrics_init(struct npa_metrics *m, const struct npa_dev_cfg *c, struct npx_warn *w);
/* ",name,..." */
char *npa_metrics_header(const struct npa_metrics *m, char *p);
/*
 * ",v,...": the values for a task of @block_num blocks (@mix_block_num for
 * the other core) lasting @dur_ns, with PMU record @pmu (NULL: N/A).
 */
char *npa_metrics_row(const struct npa_metrics *m, const struct npa_dev_cfg *c,
		      const struct npa_pmu *pmu, uint32_t block_num, uint32_t mix_block_num,
		      double dur_ns, char *p);

/* ---- summaries (ascend_summary.c) ---- */

struct npa_export;

/* A CSV field as Python's csv writer writes it: quoted if it holds , " CR LF (2 * max + 2) */
char *npa_csv_field(char *p, const char *s, size_t max);
int npa_op_summary(struct npa_export *x, const struct npa_dev *d);
/* aicpu_{ts}.csv rows of @d (ascend_aicpu.c) */
int npa_aicpu_csv(struct npa_export *x, const struct npa_dev *d);
int npa_task_time(struct npa_export *x, const struct npa_dev *d);
int npa_op_statistic(struct npa_export *x, const struct npa_dev *d);
int npa_api_statistic(struct npa_export *x, const struct npa_dev *d);
/* msprof_{ts}.json of every device into @f (ascend_timeline.c) */
int npa_timeline(struct npa_export *x, struct npx_file *f);

/**
 * struct npa_export - one export
 * @prof: the PROF_* folder.
 * @o: the output folder.
 * @w: warnings.
 * @host: host/.
 * @dev: the devices, in output order (device id as a string).
 * @ndev: their number.
 * @op_summary, ...: the CSVs.
 * @timeline: msprof_{ts}.json.
 * @readme: README.txt.
 */
struct npa_export {
	const char *prof;
	struct npx_out o;
	struct npx_warn w;
	struct npa_host host;
	struct npa_loss host_loss;
	struct npa_dev dev[NPA_MAX_DEVICES];
	unsigned int ndev;
	struct npx_csv op_summary;
	struct npx_csv task_time;
	struct npx_csv op_stat;
	struct npx_csv api_stat;
	struct npx_csv aicpu;
	struct npx_file timeline;
	struct npx_file readme;
};

/* Is @prof in the real layout (no vnpu.ctrl / api.rec of the old one)? */
bool npa_is_ascend_layout(const char *prof);
int npa_export(const char *prof, const struct npuprof_export_opts *opts, struct npuprof_error *err);

#endif /* NPUPROF_ASCEND_EXPORT_H */
