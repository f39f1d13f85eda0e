/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export/: the data model of the export of the real Ascend
 * layout, shared by the export's files and private to export/.
 */
#ifndef NPA_ASCEND_H
#define NPA_ASCEND_H

#include "core/core.h"
#include "format/format.h"
#include "export/output.h"
#include "export/pyfmt.h"

/*
 * The export of a PROF_* folder in the real Ascend raw layout
 * (host/ with CANN's records, device_N/ with the device's own), written to
 * reproduce what msprof's parser writes from the same folder
 * (docs/msprof-parser.md describes the parser; docs/output.md what we
 * write and where we differ).
 *
 *   ascend_config.c    info.json, sample.json, start_info, host_start.log...
 *   ascend_raw.c       slices, whole records, hash_dic and type_info_dic
 *   ascend_host.c      the host records: API calls, ops, host tasks
 *   ascend_tensors.c   an op's tensor strings from its tensor_info records
 *   ascend_device.c    ACSQ logs, PMU records, flips, and the join
 *   ascend_device_hwts.c  the HWTS chips' logs and AI Core PMU records
 *   ascend_metrics.c   the op_summary PMU columns of each metric group
 *   ascend_hccl.c      collectives: hccl_info, hccl_op_info, their tasks and ops
 *   ascend_communication.c  communication_statistic, analyze/communication*.json
 *   ascend_summary.c   op_summary, task_time
 *   ascend_statistic.c op_statistic, api_statistic
 *   ascend_timeline.c  msprof_{ts}.json
 *   ascend_timeline_hccl.c  its Communication layer and flows (ascend_timeline.h)
 *   ascend_timeline_overlap.c  its Overlap Analysis layer
 *   ascend_timeline_cpp*.c  the same file as msprof's C++ path writes it
 *   ascend_export.c    the folder: devices, order, README.txt
 */

/* PMU counters a record may carry: a v6 chip's 10 (chip 5's records have 8) */
#define NPA_PMU_EVENTS VNPU_PMU_V6_COUNTERS
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
 * @mono: start_info clockMonotonicRaw as written.
 * @mono_raw: start_info clockMonotonicRaw, ns.
 * @have_begin: start_info was read.
 */
/*
 * The longest session the export believes, in microseconds (a day): an
 * end_info further from its start_info is another machine's clock, and
 * the timeline's per-millisecond fills up to it would never end.
 */
#define NPA_MAX_SESSION_US 86400e6

struct npa_clock {
	char begin[32];
	char mono[32];
	char end[32];
	double offset;
	double mono_raw;
	bool have_begin;
};

/**
 * struct npa_cpp_clock - what msprof's C++ path turns a device syscnt into
 * local ns with (Context::GetSyscntConversionParams, GetProfTimeRecordInfo)
 * @ok: the export prints the C++ path's formats: the chip is one CANN runs
 *      it for (NPF_CHIP_CPP_PATH), every value below was read, and info.json.N
 *      has the keys without which that path reads no folder (memoryTotal,
 *      netCard).
 * @dev_cnt: dev_start.log.N cntvct.
 * @host_mon: host_start.log.N clock_monotonic_raw, + cntvct_diff * 1000 /
 *            the host CPU MHz (1000 when empty) as that path adds it.
 * @freq: DeviceInfo[0].hwts_frequency, MHz.
 * @begin_ns: start_info.N collectionTimeBegin * 1000.
 * @local: @begin_ns - start_info.N clockMonotonicRaw.
 */
struct npa_cpp_clock {
	bool ok;
	uint64_t dev_cnt;
	uint64_t host_mon;
	double freq;
	uint64_t begin_ns;
	uint64_t local;
};

/**
 * struct npa_dev_cfg - one device_N folder's configuration
 * @id: N.
 * @chip_id: info.json.N "platform_version" (msprof's chip id).
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
 * @cpp: the same files, as msprof's C++ path reads them.
 */
struct npa_dev_cfg {
	uint32_t id;
	uint32_t chip_id;
	long pid;
	double hwts_hz;
	double aic_mhz;
	uint32_t ai_core_num;
	uint32_t aiv_num;
	char aic_metrics[32];
	char aiv_metrics[32];
	uint32_t aic_events[NPA_PMU_EVENTS];
	uint32_t n_aic_events;
	uint32_t aiv_events[NPA_PMU_EVENTS];
	uint32_t n_aiv_events;
	uint32_t level;
	uint32_t metric_group;
	double dev_cnt;
	double host_mon;
	double host_cnt;
	double host_start_count;
	struct npa_clock clock;
	struct npa_cpp_clock cpp;
};

/**
 * struct npa_host_cfg - the host folder's configuration
 * @pid: info.json "pid".
 * @cpu_hz: CPU[0].Frequency in Hz, 0 when empty (timestamps are ns).
 * @clock: start_info / end_info.
 * @level0: sample.json profLevel is l0: ops have names only.
 * @cpp_ok: start_info's two values are whole numbers, as msprof's C++
 *          path reads them: @cpp_begin_ns and @cpp_local are set.
 * @cpp_begin_ns: collectionTimeBegin * 1000.
 * @cpp_local: @cpp_begin_ns - clockMonotonicRaw, the host calls' offset.
 */
struct npa_host_cfg {
	long pid;
	double cpu_hz;
	bool level0;
	struct npa_clock clock;
	bool cpp_ok;
	uint64_t cpp_begin_ns;
	uint64_t cpp_local;
};

/*
 * ascend_config.c: @path's JSON object into *@out (put it with
 * json_object_put()), read with npx_input_read() and parsed with json-c's
 * tokener at most 16 levels deep; anything but blanks after the object is
 * an error. 0, or a negative errno with @err naming the file (and the
 * offset where the JSON goes wrong).
 */
struct json_object;
int npa_json_load(const char *path, struct json_object **out, struct npuprof_error *err);

int npa_host_cfg_load(const char *dir, struct npa_host_cfg *c, struct npa_warn *w,
		      struct npuprof_error *err);
int npa_dev_cfg_load(const char *dir, uint32_t id, struct npa_dev_cfg *c, struct npa_warn *w,
		     struct npuprof_error *err);

/* device ns of a syscnt, as msprof's InfoConfReader.time_from_syscnt (doubles) */
static inline double npa_syscnt_ns_d(const struct npa_dev_cfg *c, double syscnt)
{
	return (syscnt - c->dev_cnt * 1e9) / c->hwts_hz * 1e9 + c->host_mon * 1e9;
}

static inline double npa_syscnt_ns(const struct npa_dev_cfg *c, uint64_t syscnt)
{
	return npa_syscnt_ns_d(c, (double)syscnt);
}

/* ---- msprof's C++ path (ascend_cpp.c) ---- */

/**
 * struct npa_cpp_time - a device task's times as msprof's C++ path has them
 * @start: local ns, whole (its AscendTaskData.timestamp).
 * @end: local ns, whole.
 * @start_d: the ns it stores in ascend_task.db (before the local offset).
 * @dur_d: the duration it stores there.
 */
struct npa_cpp_time {
	uint64_t start;
	uint64_t end;
	double start_d;
	double dur_d;
};

void npa_cpp_task_ns(const struct npa_cpp_clock *c, uint64_t start_cnt, uint64_t end_cnt,
		     struct npa_cpp_time *t);
/* the task ended before the collection began: the C++ path drops it */
bool npa_cpp_before_start(const struct npa_cpp_clock *c, const struct npa_cpp_time *t);
/* std::to_string(@v) ("%f") read back in millionths, as HPFloat reads it (bounded at 1e18) */
__int128 npa_cpp_micro(double v);
/* @ns / 1000 with three decimals (DivideByPowersOfTenWithPrecision) */
char *npa_cpp_us(char *p, uint64_t ns);
/* DoubleToStr(): %.3f without trailing zeros or a bare point */
char *npa_cpp_fixed3(char *p, double v);
/* std::to_string(double): %f */
char *npa_cpp_to_string(char *p, double v);
/* a double as rapidjson's Writer prints it ("12.0", "0.00052", "1e-7"), ascend_timeline_cpp.c */
char *npa_cpp_double(char *p, double v);

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
 * A name that matches but is no regular file (a link, a FIFO, a folder) is
 * warned about and skipped; an empty one is skipped.
 */
int npa_slices_find(struct npa_slices *s, const char *dir, const char *label,
		    const char *const *prefixes, struct npa_warn *w, struct npuprof_error *err);
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
		    void *arg, struct npa_warn *w, struct npuprof_error *err);

/*
 * Make room for element @n of the array *@p of *@cap elements of @size
 * bytes (doubling, from @first); 0 or -ENOMEM, the array kept.
 */
int npa_grow(void **p, size_t *cap, size_t n, size_t size, size_t first);

/*
 * A hash -> name dictionary (hash_dic), or (level << 32 | type) -> name:
 * @map from the key to the index of its name in @val (strings it owns).
 * Zero it to start.
 */
struct npa_dict {
	struct npx_hmap map;
	char **val;
	size_t cap;
	size_t n;
};

int npa_dict_put(struct npa_dict *d, uint64_t key, const char *val, size_t len);
const char *npa_dict_get(const struct npa_dict *d, uint64_t key);
void npa_dict_free(struct npa_dict *d);
/* load "key:value" lines of hash_dic (@typed false) or type_info_dic slices */
int npa_dict_load(struct npa_dict *d, const struct npa_slices *s, bool typed, struct npa_warn *w,
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
 * @api: its node launch (index in npa_host.api), SIZE_MAX for none.
 * @ctx: the context of its TaskInfo row: NPA_NO_CTX, or a mix op's FFTS+
 *       context from its context_id_info (0).
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
	const char *in_shapes, *in_types, *in_formats;
	const char *out_shapes, *out_types, *out_formats;
	uint32_t model_id;
	bool level0;
	size_t api;
	uint32_t ctx;
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
	uint16_t id_hi; /* task_track's batch field: a v6 chip's id's high half */
	uint32_t num_blocks; /* kernelInfo.numBlocks */
	uint32_t mix_blocks; /* numBlocks x kernelInfo.ratio */
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
 * @strs: names that are in no dictionary (decimal hashes) and the ops'
 *        tensor strings, owned.
 * @n_strs, @cap_strs: their count and room.
 * @tensor_strs: the tensor strings of @strs, by content (string to the
 *               same string): ops of one shape share them.
 * @hccl: the HCCL tasks (ascend_hccl.c), by task_track order.
 * @n_hccl: their number.
 * @hops: the collectives (node windows holding HCCL tasks), by begin.
 * @n_hops: their number.
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
	struct npx_hmap tensor_strs;
	struct npa_hccl_task *hccl;
	size_t n_hccl;
	struct npa_hccl_op *hops;
	size_t n_hops;
};

int npa_host_load(struct npa_host *h, const char *prof, struct npa_warn *w,
		  struct npuprof_error *err);
void npa_host_free(struct npa_host *h);
/*
 * A v6 chip's task_track records carry the 32-bit id's high half where
 * the others carry the batch (msprof's TaskTrackChip6Bean): give device
 * @dev's host tasks their whole id, batch 0 (again: the same ids).
 */
void npa_host_v6_ids(struct npa_host *h, uint32_t dev);

/*
 * The API windows of one level, sorted by (tid, begin, conn), to find the
 * window holding a record (msprof's joins: a record belongs to the window
 * on its thread that holds its timestamp). npa_window_of() gives the
 * window's index in h->api, or -1.
 */
struct npa_windows {
	const struct npa_host *h;
	size_t *idx;
	size_t n;
};
int npa_windows_init(struct npa_windows *wn, const struct npa_host *h, uint32_t level);
int64_t npa_window_of(const struct npa_windows *wn, uint32_t tid, uint64_t ts);
void npa_windows_free(struct npa_windows *wn);
/* a hash's name, or its decimal digits in @buf */
const char *npa_hash_name(const struct npa_host *h, uint64_t hash, char *buf, size_t len);
/* a hash's name, or its decimal digits kept in @h; NULL: no memory */
const char *npa_host_hash_str(struct npa_host *h, uint64_t hash);
/* @s, kept once however many ops give it (a tensor string), or NULL */
const char *npa_host_tensor_str(struct npa_host *h, const char *s);

/*
 * ascend_tensors.c: @op's six tensor strings from its tensor_info records
 * @ti[0..@n); 0 or -ENOMEM
 */
int npa_op_tensors(struct npa_host *h, struct npa_op *op, const struct cann_tensor_info *const *ti,
		   size_t n, struct npa_warn *w);
/* enum cann_ge_task_type's name ("AI_CORE"...) */
const char *npa_ge_task_type_name(uint32_t t);
/* msprof's name of CANN level @level: "acl", ... ("unknown"); "AscendCL", ... ("Unknown") */
const char *npa_cann_level_lower(uint32_t level);
const char *npa_cann_level_title(uint32_t level);

struct npa_task;
/* the op of device task @t for op_summary (msprof's TaskInfo join), or NULL */
const struct npa_op *npa_task_op(const struct npa_host *h, const struct npa_task *t);

/* ---- collectives, the host side (ascend_hccl.c) ---- */

/* "not set" of msprof's HCCL integers (DEFAULT_INVALID_VALUE) */
#define NPA_HCCL_NONE (-1LL)

/**
 * struct npa_hccl_task - an HCCL task the host gave a device (msprof's
 * HCCLTask): a task_track inside a level-5500 window, with the hccl_info
 * of that window
 * @dev, @stream, @task, @batch: the task_track's, the batch recomputed.
 * @ctx: the hccl_info's context id (NPA_NO_CTX without one).
 * @tid: the thread.
 * @ts: the task_track's ns.
 * @master: the window's type is "master" in type_info_dic.
 * @op: its collective (index in npa_host.hops), -1 when in no node window.
 * @info: an hccl_info was found; else the fields below are msprof's defaults.
 * @name: the task name (Memcpy...), "N/A" without hccl_info.
 * @group: the group hash.
 * @plane, @local_rank, @remote_rank, @rank_size: hccl_info's, or NPA_HCCL_NONE.
 * @dur_est: durationEstimated, us.
 * @size: bytes.
 * @notify: notifyID.
 * @data_type, @link_type, @transport, @rdma: hccl_info's enums.
 */
struct npa_hccl_task {
	uint32_t dev, stream, task, batch, ctx, tid;
	uint64_t ts;
	bool master;
	int64_t op;
	bool info;
	const char *name;
	uint64_t group;
	int64_t plane, local_rank, remote_rank, rank_size;
	double dur_est;
	uint64_t size;
	uint64_t notify;
	uint32_t data_type, link_type, transport, rdma;
};

/**
 * struct npa_hccl_op - a collective: a node launch window holding HCCL
 * tasks (msprof's HCCLOP)
 * @dev: the device of its first task.
 * @tid: its thread.
 * @begin, @end: the launch window, ns.
 * @conn: the launch's connection id.
 * @name: the launch's item (hcom_allReduce_).
 * @type: node_basic_info's op type, "N/A" without one.
 * @dynamic: from an aging node_basic_info.
 * @info: an hccl_op_info was found; else the fields below are msprof's defaults.
 * @relay, @retry: its flags.
 * @data_type: its data type.
 * @alg: the algorithm's name.
 * @count: elements.
 * @group: the group hash.
 */
struct npa_hccl_op {
	uint32_t dev;
	uint32_t tid;
	uint64_t begin, end;
	uint32_t conn;
	const char *name;
	const char *type;
	bool dynamic;
	bool info;
	uint32_t relay, retry, data_type;
	const char *alg;
	uint64_t count;
	uint64_t group;
};

/*
 * Read host/data's hccl_info and hccl_op_info and find the HCCL tasks and
 * collectives of @h (after its API calls, ops and host tasks are read).
 * Bad records are warned about and skipped.
 */
int npa_hccl_load(struct npa_host *h, const char *data, struct npa_warn *w,
		  struct npuprof_error *err);
void npa_hccl_free(struct npa_host *h);
/* msprof's names of the hccl_info enums ("FP32", "HCCS", "SDMA"...; digits if unknown) */
const char *npa_hccl_data_type(uint32_t v, char *buf, size_t len);
const char *npa_hccl_link_type(uint32_t v, char *buf, size_t len);
const char *npa_hccl_transport(uint32_t v, char *buf, size_t len);
const char *npa_hccl_rdma_type(uint32_t v, char *buf, size_t len);

/* ---- a device (ascend_device.c) ---- */

/**
 * struct npa_pmu - one context PMU record
 * @total: total cycles.
 * @pmu: the counters.
 * @aiv: an AIV task's (ffts type 1), or a MIX_AIV context's: the side
 *       @total and @pmu count.
 * @mix: a mix op's context (FFTS+, subtask type MIX_AIC or MIX_AIV): the
 *       other side counts @total2 and @pmu2, its block PMU records summed
 *       (zero when it has none).
 * @total2: the other side's cycles.
 * @pmu2: its counters.
 * @time_us: a v6 record's: its own time, us, rounded to 2 places (its
 *           end less its start: msprof's v6 total time is not from cycles).
 * @time2_us: the other core type's record's, for a v6 mix op.
 */
struct npa_pmu {
	uint64_t total;
	uint64_t pmu[NPA_PMU_EVENTS];
	bool aiv;
	bool mix;
	uint64_t total2;
	uint64_t pmu2[NPA_PMU_EVENTS];
	double time_us;
	double time2_us;
};

/**
 * struct npa_task - a device task, joined with its host task (AscendTask)
 * @stream: stream.
 * @task: task id.
 * @batch: batch.
 * @ctx: context.
 * @sqe: enum vnpu_sqe_type of its ACSQ log; of an FFTS+ subtask
 *       (@sub), its subtask type.
 * @start: device ns (double, as msprof).
 * @dur: end - start ns.
 * @start_cnt: the syscnt of its start log (0 for an HWTS end with none).
 * @end_cnt: the syscnt of its end log.
 * @host: its host task, -1 for a device-only task.
 * @pmu: its PMU record, -1 when none.
 * @sub: an FFTS+ subtask (a context, from FFTS+ logs), not an ACSQ task.
 * @shadowed: an ACSQ task with a subtask of its (stream, task, batch): the
 *            subtask stands for it in task_time and the timeline.
 */
struct npa_task {
	uint32_t stream;
	uint32_t task;
	uint32_t batch;
	uint32_t ctx;
	uint32_t sqe;
	double start;
	double dur;
	uint64_t start_cnt;
	uint64_t end_cnt;
	int64_t host;
	int64_t pmu;
	bool sub;
	bool shadowed;
};

/* ---- collectives, a device's (ascend_hccl.c) ---- */

/**
 * struct npa_comm_task - an HCCL task joined with its device task
 * (msprof's HCCLTaskSingleDevice)
 * @h: the host's HCCL task.
 * @op: its collective (index in npa_comm.op).
 * @start: the device task's start, ns.
 * @dur: its duration, ns.
 * @iter: how many times its (stream, task, ctx, batch) was seen so far.
 * @bw: bandwidth, GB/s (a negative value: msprof's int 0).
 * @group: the task's group, else its collective's.
 * @have_group: @group is set ("N/A" otherwise).
 * @name: "{node}_{group[-3:]}_{index}_{iter}", owned.
 * @hop: its npa_host.hops entry, -1 for none.
 */
struct npa_comm_task {
	const struct npa_hccl_task *h;
	size_t op;
	double start;
	double dur;
	uint64_t start_cnt, end_cnt; /* its device task's syscnts */
	uint32_t iter;
	double bw;
	uint64_t group;
	bool have_group;
	char *name;
	int64_t hop;
};

/**
 * struct npa_comm_op - an executed collective: the master tasks of one name
 * and launch (get_hccl_op_data_by_group)
 * @name: the op name (a task's).
 * @first: the launch's begin, ns.
 * @hop: the collective, -1 for none.
 * @start: the first master task's start, ns.
 * @end: the last master task's end, ns.
 * @conn: the launch's connection id, -1 for none.
 * @group: the group of its tasks, @have_group.
 * @rank_size: the rank size of the collective's last task.
 * @stat_start, @stat_end: the same over the tasks after the collection start
 *        (communication_statistic); @stat false when there is none.
 */
struct npa_comm_op {
	const char *name;
	uint64_t first;
	int64_t hop;
	double start, end;
	int64_t conn;
	uint64_t group;
	bool have_group;
	int64_t rank_size;
	bool stat;
	double stat_start, stat_end;
};

/**
 * struct npa_comm - a device's collectives
 * @t: its HCCL tasks, by host then device time.
 * @n: their number.
 * @op: its executed collectives, by name and launch.
 * @n_op: their number.
 */
struct npa_comm {
	struct npa_comm_task *t;
	size_t n;
	struct npa_comm_op *op;
	size_t n_op;
};

struct npa_dev;
/* join the host's HCCL tasks to @d's device tasks, name them, group them */
int npa_comm_build(struct npa_dev *d, const struct npa_host *h, struct npuprof_error *err);
void npa_comm_free(struct npa_comm *c);
/* msprof's collection start in device ns (trans_from_local_time_into_dev_raw_time) */
double npa_raw_begin_ns(const struct npa_dev_cfg *c);

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
	/* written, of the channels of fixed-size records (not the text dictionaries) */
	uint64_t written_records;
};

void npa_loss_load(const char *dir, struct npa_loss *l, struct npa_warn *w);

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
 * @comm: its collectives (ascend_hccl.c).
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
	struct npa_comm comm;
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

int npa_aicpu_load(struct npa_dev *d, const char *data, const char *label, struct npa_warn *w,
		   struct npuprof_error *err);

/*
 * Read device_@id of @prof, joined with @h's tasks. On a v6 chip it first
 * gives @h's tasks of the device their 32-bit ids (npa_host_v6_ids()).
 */
int npa_dev_load(struct npa_dev *d, const char *prof, uint32_t id, struct npa_host *h,
		 struct npa_warn *w, struct npuprof_error *err);
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
 * @na: the column is computed but printed N/A (chip 7).
 * @flat: one set of columns for every record, AIC or AIV (chips 1, 4, 7).
 * @v6: a v6 chip's columns (15): its event ids, its times from syscnt.
 * @mb: the columns memory_bound divides: mte2, vec and mac ratios.
 * @cube_util: cube_utilization(%) ends the row.
 * @mac: with @cube_util, the mac_ratio column it is computed from.
 */
struct npa_metrics {
	unsigned int n;
	char name[NPA_MCOL_MAX][48];
	uint8_t kind[NPA_MCOL_MAX];
	double k[NPA_MCOL_MAX];
	int8_t ev[NPA_MCOL_MAX];
	int8_t ev2[NPA_MCOL_MAX];
	bool aiv[NPA_MCOL_MAX];
	bool na[NPA_MCOL_MAX];
	bool flat;
	bool v6;
	int8_t mb[3];
	bool cube_util;
	int8_t mac;
};

/* the columns of @c's groups; a warning when the events do not match them */
void npa_metrics_init(struct npa_metrics *m, const struct npa_dev_cfg *c, struct npa_warn *w);
/* ",name,..." */
char *npa_metrics_header(const struct npa_metrics *m, char *p);
/*
 * ",v,...": the values for a task of @block_num blocks (@mix_block_num for
 * the other core) lasting @dur_ns (on msprof's C++ path, @c->cpp.ok: the Task
 * Duration cell's us, which its cube utilization divides by), with PMU
 * record @pmu (NULL: N/A).
 */
char *npa_metrics_row(const struct npa_metrics *m, const struct npa_dev_cfg *c,
		      const struct npa_pmu *pmu, uint32_t block_num, uint32_t mix_block_num,
		      double dur_ns, char *p);

/* ---- summaries (ascend_summary.c, ascend_statistic.c) ---- */

struct npa_export;

/* A CSV field as Python's csv writer writes it: quoted if it holds , " CR LF (2 * max + 2) */
char *npa_csv_field(char *p, const char *s, size_t max);

/* the room of a row with @strs bytes of strings (each quoted, "" doubled) */
static inline size_t npa_row_room(size_t strs)
{
	return NPA_ROW_MAX + 2 * strs;
}
int npa_op_summary(struct npa_export *x, const struct npa_dev *d);
/* aicpu_{ts}.csv rows of @d (ascend_aicpu.c) */
int npa_aicpu_csv(struct npa_export *x, const struct npa_dev *d);
int npa_task_time(struct npa_export *x, const struct npa_dev *d);
/*
 * task_time's kernel_type of a device task with no host task: its SQE
 * type's name on the chip (STARS or HWTS), its subtask type's for an FFTS+
 * subtask; "Other" for a type the chip's enum lacks (and every task of
 * chip 1), digits for a subtask type without a name (ascend_summary.c)
 */
const char *npa_sqe_name(uint32_t sqe, bool sub, uint32_t chip);
int npa_op_statistic(struct npa_export *x, const struct npa_dev *d);
int npa_api_statistic(struct npa_export *x, const struct npa_dev *d);
/* communication_statistic_{ts}.csv rows of @d (ascend_communication.c) */
int npa_comm_statistic(struct npa_export *x, const struct npa_dev *d);
/* analyze/communication.json and communication_matrix.json, after the commit */
int npa_comm_analyze(struct npa_export *x);
/* msprof_{ts}.json of every device into @f (ascend_timeline.c) */
int npa_timeline(struct npa_export *x, struct npa_out *o, struct npa_file *f);

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
 * @out: the output files, in commit order.
 * @progress: the caller's progress callback, or NULL; @progress_arg its arg.
 * @total: bytes of raw data in the folder (host/data, device_N/data).
 * @done: bytes of it read so far.
 * @dev_bytes: bytes of each device's data/, as @dev.
 */
struct npa_export {
	const char *prof;
	struct npa_out o;
	struct npa_warn w;
	struct npa_host host;
	struct npa_loss host_loss;
	struct npa_dev dev[NPA_MAX_DEVICES];
	unsigned int ndev;
	struct npa_csv op_summary;
	struct npa_csv task_time;
	struct npa_csv op_stat;
	struct npa_csv api_stat;
	struct npa_csv aicpu;
	struct npa_csv comm_stat;
	struct npa_file timeline;
	struct npa_file readme;
	struct npa_outputs out;
	/* the C++ path's op_summary wait chain runs over every device's rows */
	bool cpp_have_prev;
	double cpp_prev_start, cpp_prev_dur;
	npuprof_progress_fn progress;
	void *progress_arg;
	uint64_t total;
	uint64_t done;
	uint64_t dev_bytes[NPA_MAX_DEVICES];
};

#endif /* NPA_ASCEND_H */
