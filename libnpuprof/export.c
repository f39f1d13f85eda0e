// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: npuprof_export(), the offline export of a PROF_* folder.
 *
 * Devices are exported one after the other (device ids in string order,
 * as msprof sorts Device_id), each in one streaming pass over its record
 * files:
 *
 *   records --> join by task id --> reorder by start --> rows of every file
 *               (pending, <= 256)   (sorted ring, 4096)
 *
 * The device writes the records of one task together when the task
 * completes (TASK_START, OP_INFO, PMU or COMM or AICPU, TASK_END), and
 * tasks complete in start-time order per device. So a task is complete
 * when the records move on to another task id after its TASK_START and
 * TASK_END have been seen; it then enters a window sorted by start time,
 * and leaves it (in start order) once 4096 younger tasks are queued behind
 * it. Records of interleaved tasks are joined as long as fewer than 256
 * tasks are open at once; tasks that arrive more than 4096 tasks late are
 * exported out of order and counted. Memory is bounded by these windows,
 * not by the length of the run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "npuprof_internal.h"

#define NPX_WINDOW 4096 /* completed tasks held for reordering */
#define NPX_WIN_CAP 8192 /* the ring holding them, a power of two > NPX_WINDOW */
#define NPX_PENDING 256 /* tasks seen without their TASK_END yet */
#define NPX_PROGRESS_STEP (4ULL << 20)
#define NPX_SEQ_WARN_MAX 3 /* seq gaps reported one by one, then counted */
#define NPX_CTRL_MIN_SIZE 192 /* struct vnpu_ring_ctrl up to start_mono_ns */
#define NPX_INVALID_ID 4294967295ULL

enum {
	NPX_HAVE_START = 1 << 0,
	NPX_HAVE_END = 1 << 1,
	NPX_HAVE_OP = 1 << 2,
	NPX_HAVE_PMU = 1 << 3,
	NPX_HAVE_COMM = 1 << 4,
	NPX_HAVE_AICPU = 1 << 5,
};

struct npx_tensor {
	uint8_t dtype;
	uint8_t format;
	uint8_t ndims;
	uint8_t output;
	uint64_t dims[VNPU_MAX_DIMS];
};

/**
 * struct npx_task - the joined records of one task
 * @task_id: the task.
 * @first_seq: seq of its first record (eviction order).
 * @start_seq: seq of its TASK_START (tie-break of equal start times).
 * @start_ticks: TASK_START timestamp.
 * @end_ticks: TASK_END timestamp.
 * @start_ns: @start_ticks as absolute CLOCK_MONOTONIC ns.
 * @end_ns: @end_ticks likewise.
 * @stream_id: from TASK_START.
 * @task_type: from TASK_START.
 * @have: NPX_HAVE_*.
 * @n_tensors: entries of @t.
 * @op: OP_INFO (fixed part).
 * @pmu: PMU.
 * @t: the OP_INFO tensors.
 * @comm: COMM.
 * @aicpu: AICPU.
 */
struct npx_task {
	uint64_t task_id;
	uint64_t first_seq;
	uint64_t start_seq;
	uint64_t start_ticks;
	uint64_t end_ticks;
	uint64_t start_ns;
	uint64_t end_ns;
	uint32_t stream_id;
	uint32_t task_type;
	uint32_t have;
	uint32_t n_tensors;
	struct vnpu_rec_op_info op;
	struct vnpu_rec_pmu pmu;
	struct npx_tensor t[VNPU_MAX_TENSORS];
	union {
		struct vnpu_rec_comm comm;
		struct vnpu_rec_aicpu aicpu;
	};
};

/**
 * struct npx_hent - an entry of the reorder window
 * @start_ns: the task's start.
 * @seq: its TASK_START's seq (ties).
 * @t: the task.
 */
struct npx_hent {
	uint64_t start_ns;
	uint64_t seq;
	struct npx_task *t;
};

/**
 * struct npx_dev_state - the device being exported
 * @id: the N of device_N.
 * @ctrl: its vnpu.ctrl.
 * @layout: its op_summary metric columns.
 * @sum: its summary entry.
 * @next_seq: the seq expected next.
 * @seq_started: a record has been read.
 * @seq_gaps: gaps seen.
 * @unwritten: records the collector reported it could not write.
 * @dups: records that repeat one of their task's.
 * @bad_times: tasks whose end precedes their start (duration 0).
 * @pending: tasks without TASK_END yet, oldest first.
 * @npending: entries of @pending.
 * @last: the task of the previous task record.
 * @win: completed tasks, a ring sorted on (start_ns, start_seq).
 * @whead: the first entry of @win.
 * @nwin: entries in @win.
 * @last_start: start of the last task taken from the window.
 * @prev_end: end of the previous op_summary row (wait time).
 * @have_prev: there was a previous op_summary row on this device.
 */
struct npx_dev_state {
	uint32_t id;
	struct vnpu_ring_ctrl ctrl;
	struct npx_layout layout;
	struct npuprof_export_device *sum;
	uint64_t next_seq;
	bool seq_started;
	uint64_t seq_gaps;
	uint64_t unwritten;
	uint64_t dups;
	uint64_t bad_times;
	struct npx_task *pending[NPX_PENDING];
	unsigned int npending;
	struct npx_task *last;
	struct npx_hent *win;
	unsigned int whead;
	unsigned int nwin;
	uint64_t last_start;
	uint64_t prev_end;
	bool have_prev;
};

/**
 * struct npx_export - one npuprof_export() call
 * @prof: the PROF folder.
 * @o: the output folder.
 * @w: warnings.
 * @progress: the caller's callback.
 * @progress_arg: its argument.
 * @total: bytes of raw input.
 * @done: bytes of finished streams.
 * @next_progress: call @progress when the input read reaches this.
 * @files: per device, its record files.
 * @ndev: devices.
 * @devs: their ids, in export order.
 * @host: host/data/api.rec.*.
 * @op_summary: the CSVs...
 * @task_time: ...
 * @op_stat: ...
 * @api_stat: ...
 * @comm_stat: ...
 * @aicpu: ...
 * @tl: the timeline.
 * @readme: README.txt.
 * @outdir: the path of mindstudio_profiler_output/.
 * @op_header_dev: the device whose layout set the op_summary header.
 * @opstat: op_statistic of the current device.
 * @commstat: communication_statistic of the current device.
 * @apistat: api_statistic.
 * @pool: task storage.
 * @free: free tasks.
 * @nfree: entries of @free.
 * @d: the current device.
 * @sum: the summary.
 */
struct npx_export {
	const char *prof;
	struct npx_out o;
	struct npx_warn w;
	npuprof_progress_fn progress;
	void *progress_arg;
	uint64_t total;
	uint64_t done;
	uint64_t next_progress;
	struct npx_rfiles *files;
	unsigned int ndev;
	uint32_t devs[NPUPROF_EXPORT_MAX_DEVICES];
	struct npx_rfiles host;
	struct npx_csv op_summary, task_time, op_stat, api_stat, comm_stat, aicpu;
	struct npx_tl tl;
	struct npx_file readme;
	char outdir[PATH_MAX];
	int op_header_dev;
	struct npx_opstat opstat;
	struct npx_commstat commstat;
	struct npx_apistat apistat;
	struct npx_task *pool;
	struct npx_task **free;
	unsigned int nfree;
	struct npx_dev_state d;
	struct npuprof_export_summary sum;
};

static const char npx_hdr_task_time[] = "Device_id,kernel_name,kernel_type,stream_id,task_id,"
					"task_time(us),task_start(us),task_stop(us)";
static const char npx_hdr_op_stat[] = "Device_id,OP Type,Core Type,Count,Total Time(us),"
				      "Min Time(us),Avg Time(us),Max Time(us),Ratio(%)";
static const char npx_hdr_api_stat[] = "Device_id,Level,API Name,Time(us),Count,Avg(us),"
				       "Min(us),Max(us),Variance";
static const char npx_hdr_comm_stat[] = "Device_id,OP Type,Count,Total Time(us),Min Time(us),"
					"Avg Time(us),Max Time(us),Ratio(%)";
static const char npx_hdr_aicpu[] = "Device_id,Timestamp(us),Node,Compute_time(us),"
				    "Memcpy_time(us),Task_time(us),Dispatch_time(us),"
				    "Total_time(us),Stream ID,Task ID";

static const struct npx_name *npx_dtype_name(uint32_t t)
{
	static const struct npx_name names[VNPU_DT_COUNT + 1] = {
		[VNPU_DT_FLOAT] = NPX_NAME("FLOAT"), [VNPU_DT_FLOAT16] = NPX_NAME("FLOAT16"),
		[VNPU_DT_INT8] = NPX_NAME("INT8"),   [VNPU_DT_INT32] = NPX_NAME("INT32"),
		[VNPU_DT_UINT8] = NPX_NAME("UINT8"), [VNPU_DT_INT16] = NPX_NAME("INT16"),
		[VNPU_DT_INT64] = NPX_NAME("INT64"), [VNPU_DT_BF16] = NPX_NAME("BF16"),
		[VNPU_DT_BOOL] = NPX_NAME("BOOL"),   [VNPU_DT_COUNT] = NPX_NAME("UNDEFINED"),
	};

	return &names[t < VNPU_DT_COUNT ? t : VNPU_DT_COUNT];
}

static const struct npx_name *npx_format_name(uint32_t f)
{
	static const struct npx_name names[VNPU_FMT_COUNT + 1] = {
		[VNPU_FMT_ND] = NPX_NAME("ND"),
		[VNPU_FMT_NCHW] = NPX_NAME("NCHW"),
		[VNPU_FMT_NHWC] = NPX_NAME("NHWC"),
		[VNPU_FMT_NC1HWC0] = NPX_NAME("NC1HWC0"),
		[VNPU_FMT_FRACTAL_NZ] = NPX_NAME("FRACTAL_NZ"),
		[VNPU_FMT_FRACTAL_Z] = NPX_NAME("FRACTAL_Z"),
		[VNPU_FMT_COUNT] = NPX_NAME("UNDEFINED"),
	};

	return &names[f < VNPU_FMT_COUNT ? f : VNPU_FMT_COUNT];
}

static const struct npx_name *npx_kernel_type(uint32_t type)
{
	static const struct npx_name names[VNPU_TASK_TYPE_COUNT + 1] = {
		[VNPU_TASK_AI_CORE] = NPX_NAME("KERNEL_AICORE"),
		[VNPU_TASK_AI_VECTOR_CORE] = NPX_NAME("KERNEL_AIVEC"),
		[VNPU_TASK_MIX_AIC] = NPX_NAME("KERNEL_MIX_AIC"),
		[VNPU_TASK_MIX_AIV] = NPX_NAME("KERNEL_MIX_AIV"),
		[VNPU_TASK_AI_CPU] = NPX_NAME("KERNEL_AICPU"),
		[VNPU_TASK_COMMUNICATION] = NPX_NAME("COMMUNICATION"),
		[VNPU_TASK_TYPE_COUNT] = NPX_NAME("UNKNOWN"),
	};

	return &names[type < VNPU_TASK_TYPE_COUNT ? type : VNPU_TASK_TYPE_COUNT];
}

/* ---- time ---- */

static uint64_t npx_sat(npx_u128 v)
{
	return v >> 64 ? UINT64_MAX : (uint64_t)v;
}

/* device ticks -> ns (a duration) */
static uint64_t npx_ticks_dur(const struct npx_dev_state *d, uint64_t ticks)
{
	return npx_sat((npx_u128)ticks * 1000000 / d->ctrl.sys_cnt_freq_khz);
}

/* device time -> absolute CLOCK_MONOTONIC ns */
static uint64_t npx_ticks_abs(const struct npx_dev_state *d, uint64_t ticks)
{
	return npx_sat((npx_u128)d->ctrl.mono_base_ns + npx_ticks_dur(d, ticks));
}

/* ---- progress ---- */

static int npx_progress(struct npx_export *x, uint64_t done)
{
	if (!x->progress)
		return 0;
	if (done < x->next_progress && done != x->total)
		return 0;
	x->next_progress = done + NPX_PROGRESS_STEP;
	if (x->progress(x->progress_arg, done, x->total))
		return npuprof_set_error(x->o.err, -ECANCELED,
					 "export cancelled by the progress callback");
	return 0;
}

/* ---- the rows of one task ---- */

static char *npx_shapes(char *p, const struct npx_task *t, uint8_t output)
{
	bool first = true;
	uint32_t i, k;

	/* the value is "dims;dims" with its quotes, CSV-quoted: """...""" */
	p = npx_lit(p, "\"\"\"");
	for (i = 0; i < t->n_tensors; i++) {
		if (t->t[i].output != output)
			continue;
		if (!first)
			*p++ = ';';
		first = false;
		for (k = 0; k < t->t[i].ndims; k++) {
			if (k)
				*p++ = ',';
			p = npx_fmt_u64(p, t->t[i].dims[k]);
		}
	}
	return npx_lit(p, "\"\"\"");
}

static char *npx_tensor_names(char *p, const struct npx_task *t, uint8_t output, bool format)
{
	bool first = true;
	uint32_t i;

	for (i = 0; i < t->n_tensors; i++) {
		if (t->t[i].output != output)
			continue;
		if (!first)
			*p++ = ';';
		first = false;
		p = npx_put_name(p, format ? npx_format_name(t->t[i].format)
					   : npx_dtype_name(t->t[i].dtype));
	}
	return p;
}

static inline char *npx_comma(char *p)
{
	*p++ = ',';
	return p;
}

static inline char *npx_na(char *p)
{
	memcpy(p, ",N/A", 4);
	return p + 4;
}

static int npx_row_op_summary(struct npx_export *x, const struct npx_task *t, uint64_t dur)
{
	struct npx_dev_state *d = &x->d;
	bool op = t->have & NPX_HAVE_OP, stars = d->layout.stars;
	bool mix = t->task_type == VNPU_TASK_MIX_AIC || t->task_type == VNPU_TASK_MIX_AIV;
	uint64_t wait = 0;
	struct npx_mrow mr;
	char *p;
	int rc;

	rc = npx_csv_begin(&x->o, &x->op_summary, &p);
	if (rc)
		return rc;
	if (d->have_prev && t->start_ns > d->prev_end)
		wait = t->start_ns - d->prev_end;
	d->prev_end = t->start_ns + dur;
	d->have_prev = true;

	p = npx_fmt_u64(p, d->id);
	if (op) {
		p = npx_fmt_u64(npx_comma(p), t->op.model_id);
	} else {
		p = npx_na(p);
	}
	p = npx_fmt_u64(npx_comma(p), t->task_id);
	p = npx_fmt_u64(npx_comma(p), t->stream_id);
	if (op) {
		p = npx_csv_name(npx_comma(p), t->op.op_name, sizeof(t->op.op_name));
		p = npx_csv_name(npx_comma(p), t->op.op_type, sizeof(t->op.op_type));
		if (t->op.op_flags & VNPU_TASK_F_DYNAMIC)
			p = npx_lit(p, ",dynamic");
		else
			p = npx_lit(p, ",static");
	} else {
		p = npx_na(npx_na(npx_na(p)));
	}
	if (d->ctrl.level == VNPU_PROF_L0)
		p = npx_na(p);
	else
		p = npx_put_name(npx_comma(p), npx_task_type(t->task_type));
	/* Task Start Time(us): quoted, with a trailing TAB */
	p = npx_lit(p, ",\"");
	p = npx_fmt_milli(p, t->start_ns);
	p = npx_lit(p, "\t\"");
	p = npx_fmt_milli(npx_comma(p), dur);
	p = npx_fmt_milli(npx_comma(p), wait);
	p = npx_fmt_u64(npx_comma(p), op ? t->op.block_num : 0);
	if (stars) {
		if (op)
			p = npx_fmt_u64(npx_comma(p), t->op.mix_block_num);
		else
			p = npx_na(p);
	}
	if (op) {
		if (t->op.op_flags & VNPU_TASK_F_HF32)
			p = npx_lit(p, ",YES");
		else
			p = npx_lit(p, ",NO");
		p = npx_shapes(npx_comma(p), t, 0);
		p = npx_tensor_names(npx_comma(p), t, 0, false);
		p = npx_tensor_names(npx_comma(p), t, 0, true);
		p = npx_shapes(npx_comma(p), t, 1);
		p = npx_tensor_names(npx_comma(p), t, 1, false);
		p = npx_tensor_names(npx_comma(p), t, 1, true);
	} else {
		p = npx_na(npx_na(npx_na(npx_na(npx_na(npx_na(npx_na(p)))))));
	}
	if (stars) {
		if (mix)
			p = npx_lit(p, ",0");
		else
			p = npx_na(p);
	}
	mr.pmu = t->have & NPX_HAVE_PMU ? &t->pmu : NULL;
	mr.task_type = t->task_type;
	mr.block_num = op ? t->op.block_num : 0;
	mr.mix_block_num = op ? t->op.mix_block_num : 0;
	mr.dur_ns = dur;
	p = npx_layout_row(&d->layout, &mr, p);
	npx_csv_end(&x->op_summary, p);
	return 0;
}

static int npx_row_task_time(struct npx_export *x, const struct npx_task *t, uint64_t dur)
{
	bool named = (t->have & NPX_HAVE_OP) && t->task_type != VNPU_TASK_COMMUNICATION;
	char *p;
	int rc;

	rc = npx_csv_begin(&x->o, &x->task_time, &p);
	if (rc)
		return rc;
	p = npx_fmt_u64(p, x->d.id);
	if (named)
		p = npx_csv_name(npx_comma(p), t->op.op_name, sizeof(t->op.op_name));
	else
		p = npx_na(p);
	p = npx_put_name(npx_comma(p), npx_kernel_type(t->task_type));
	p = npx_fmt_u64(npx_comma(p), t->stream_id);
	p = npx_fmt_u64(npx_comma(p), t->task_id);
	p = npx_fmt_milli(npx_comma(p), dur);
	p = npx_fmt_milli(npx_comma(p), t->start_ns);
	p = npx_fmt_milli(npx_comma(p), t->start_ns + dur);
	npx_csv_end(&x->task_time, p);
	return 0;
}

static int npx_row_aicpu(struct npx_export *x, const struct npx_task *t)
{
	const struct vnpu_rec_aicpu *a = &t->aicpu;
	struct npx_dev_state *d = &x->d;
	uint64_t start = npx_ticks_abs(d, a->start), end = npx_ticks_abs(d, a->end);
	uint64_t compute = npx_ticks_dur(d, a->compute_ticks);
	uint64_t memcpy_ns = npx_ticks_dur(d, a->memcpy_ticks);
	char *p;
	int rc;

	rc = npx_csv_begin(&x->o, &x->aicpu, &p);
	if (rc)
		return rc;
	p = npx_fmt_u64(p, d->id);
	p = npx_fmt_milli(npx_comma(p), start);
	if (a->op_name[0] || !(t->have & NPX_HAVE_OP))
		p = npx_csv_name(npx_comma(p), a->op_name, sizeof(a->op_name));
	else
		p = npx_csv_name(npx_comma(p), t->op.op_name, sizeof(t->op.op_name));
	p = npx_fmt_milli(npx_comma(p), compute);
	p = npx_fmt_milli(npx_comma(p), memcpy_ns);
	p = npx_fmt_milli(npx_comma(p), npx_sat((npx_u128)compute + memcpy_ns));
	p = npx_fmt_milli(npx_comma(p), npx_ticks_dur(d, a->dispatch_ticks));
	p = npx_fmt_milli(npx_comma(p), end > start ? end - start : 0);
	p = npx_fmt_u64(npx_comma(p), t->stream_id);
	p = npx_fmt_u64(npx_comma(p), t->task_id);
	npx_csv_end(&x->aicpu, p);
	return 0;
}

/* "ts":"<us>","dur":<us> */
static char *npx_tl_times(char *p, uint64_t start_ns, uint64_t dur_ns)
{
	p = npx_lit(p, ",\"ts\":\"");
	p = npx_fmt_milli(p, start_ns);
	p = npx_lit(p, "\",\"dur\":");
	return npx_fmt_milli(p, dur_ns);
}

static char *npx_tl_head(char *p, const char *name, size_t max, uint32_t pid, uint64_t tid)
{
	p = npx_lit(p, "{\"name\":");
	p = npx_json_str(p, name, max);
	p = npx_lit(p, ",\"ph\":\"X\",\"pid\":");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	return npx_fmt_u64(p, tid);
}

static int npx_tl_stream(struct npx_export *x, uint32_t layer, uint32_t stream)
{
	static const char *const layers[] = { "Ascend Hardware", "Communication" };
	uint32_t pid = npx_dev_pid(x->d.id, layer);
	char label[32], tname[32];

	if (npx_tl_known(&x->tl, pid, stream))
		return 0;
	snprintf(label, sizeof(label), "NPU %u", x->d.id);
	snprintf(tname, sizeof(tname), "Stream %u", stream);
	return npx_tl_thread(&x->o, &x->tl, pid, layers[layer], label, pid, stream, tname);
}

static int npx_tl_task(struct npx_export *x, const struct npx_task *t, uint64_t dur)
{
	bool op = t->have & NPX_HAVE_OP;
	const char *name =
		op && t->op.op_name[0] ? t->op.op_name : npx_task_type_name(t->task_type);
	char *p;
	int rc;

	rc = npx_tl_stream(x, NPX_LAYER_HW, t->stream_id);
	if (!rc)
		rc = npx_tl_begin(&x->o, &x->tl, &p);
	if (rc)
		return rc;
	p = npx_tl_head(p, name, VNPU_OP_NAME_LEN, npx_dev_pid(x->d.id, NPX_LAYER_HW),
			t->stream_id);
	p = npx_tl_times(p, t->start_ns, dur);
	p = npx_lit(p, ",\"args\":{\"Model Id\":");
	p = npx_fmt_u64(p, op ? t->op.model_id : NPX_INVALID_ID);
	p = npx_lit(p, ",\"Task Type\":\"");
	p = npx_put_name(p, npx_task_type(t->task_type));
	p = npx_lit(p, "\",\"Physic Stream Id\":");
	p = npx_fmt_u64(p, t->stream_id);
	p = npx_lit(p, ",\"Task Id\":");
	p = npx_fmt_u64(p, t->task_id);
	p = npx_lit(p, ",\"Batch Id\":0,\"Subtask Id\":4294967295}}");
	npx_tl_end(&x->tl, p);
	return 0;
}

static int npx_tl_comm(struct npx_export *x, const struct npx_task *t, uint64_t start, uint64_t dur)
{
	const struct vnpu_rec_comm *c = &t->comm;
	const char *name = c->op_name[0] ? c->op_name : npx_comm_op_type(c->comm_op);
	char *p;
	int rc;

	rc = npx_tl_stream(x, NPX_LAYER_COMM, t->stream_id);
	if (!rc)
		rc = npx_tl_begin(&x->o, &x->tl, &p);
	if (rc)
		return rc;
	p = npx_tl_head(p, name, sizeof(c->op_name), npx_dev_pid(x->d.id, NPX_LAYER_COMM),
			t->stream_id);
	p = npx_tl_times(p, start, dur);
	p = npx_lit(p, ",\"args\":{\"OP Type\":\"");
	p = npx_put(p, npx_comm_op_type(c->comm_op));
	p = npx_lit(p, "\",\"rank_size\":");
	p = npx_fmt_u64(p, (uint64_t)__builtin_popcount(c->devices));
	p = npx_lit(p, ",\"size(Byte)\":");
	p = npx_fmt_u64(p, c->bytes);
	p = npx_lit(p, ",\"tag\":");
	p = npx_fmt_u64(p, c->tag);
	p = npx_lit(p, ",\"Stream Id\":");
	p = npx_fmt_u64(p, t->stream_id);
	p = npx_lit(p, ",\"Task Id\":");
	p = npx_fmt_u64(p, t->task_id);
	p = npx_lit(p, ",\"alg_type\":\"RING\"}}");
	npx_tl_end(&x->tl, p);
	return 0;
}

/* A task leaves the reorder window: every row it makes. */
static int npx_emit(struct npx_export *x, struct npx_task *t)
{
	struct npx_dev_state *d = &x->d;
	uint64_t dur;
	int rc;

	if (d->sum->tasks && t->start_ns < d->last_start)
		d->sum->out_of_order++;
	else
		d->last_start = t->start_ns;
	d->sum->tasks++;
	if (t->end_ns >= t->start_ns) {
		dur = t->end_ns - t->start_ns;
	} else {
		dur = 0;
		d->bad_times++;
	}

	rc = npx_row_task_time(x, t, dur);
	if (rc)
		return rc;
	if (t->task_type != VNPU_TASK_COMMUNICATION) {
		rc = npx_row_op_summary(x, t, dur);
		if (!rc && d->ctrl.level >= VNPU_PROF_L1)
			rc = npx_opstat_add(
				&x->opstat,
				t->have & NPX_HAVE_OP && t->op.op_type[0] ? t->op.op_type : NPX_NA,
				t->task_type, dur, x->o.err);
		if (rc)
			return rc;
	}
	if (t->have & NPX_HAVE_COMM) {
		uint64_t s = npx_ticks_abs(d, t->comm.start), e = npx_ticks_abs(d, t->comm.end);
		uint64_t cd = e > s ? e - s : 0;

		npx_agg_add(
			&x->commstat.op[t->comm.comm_op < VNPU_COMM_OP_COUNT ? t->comm.comm_op
									     : VNPU_COMM_OP_COUNT],
			cd);
		rc = npx_tl_comm(x, t, s, cd);
		if (rc)
			return rc;
	}
	if (t->have & NPX_HAVE_AICPU) {
		rc = npx_row_aicpu(x, t);
		if (rc)
			return rc;
	}
	return npx_tl_task(x, t, dur);
}

/* ---- the reorder window ---- */

/*
 * Completed tasks wait in a ring kept sorted by (start, seq): tasks arrive
 * almost always in start order, so an insertion is an append, and one that
 * arrives late moves only the entries that start after it (at most the
 * window). The keys live in the ring (24 bytes an entry), so sorting never
 * touches the tasks themselves.
 */
static bool npx_before(const struct npx_hent *a, const struct npx_hent *b)
{
	return a->start_ns < b->start_ns || (a->start_ns == b->start_ns && a->seq < b->seq);
}

static void npx_win_push(struct npx_dev_state *d, struct npx_task *t)
{
	struct npx_hent e = { .start_ns = t->start_ns, .seq = t->start_seq, .t = t };
	unsigned int i = d->nwin++;

	while (i) {
		struct npx_hent *prev = &d->win[(d->whead + i - 1) & (NPX_WIN_CAP - 1)];

		if (!npx_before(&e, prev))
			break;
		d->win[(d->whead + i) & (NPX_WIN_CAP - 1)] = *prev;
		i--;
	}
	d->win[(d->whead + i) & (NPX_WIN_CAP - 1)] = e;
}

/* The task that starts first; the next one's memory is prefetched. */
static struct npx_task *npx_win_pop(struct npx_dev_state *d)
{
	struct npx_task *top = d->win[d->whead].t;

	d->whead = (d->whead + 1) & (NPX_WIN_CAP - 1);
	if (--d->nwin) {
		/* written a window ago: bring it back before it is formatted */
		const char *next = (const char *)d->win[d->whead].t;
		size_t off;

		for (off = 0; off < sizeof(struct npx_task); off += 64)
			__builtin_prefetch(next + off);
	}
	return top;
}

static int npx_pop_emit(struct npx_export *x)
{
	struct npx_task *t = npx_win_pop(&x->d);
	int rc = npx_emit(x, t);

	x->free[x->nfree++] = t;
	return rc;
}

/* ---- joining records into tasks ---- */

static void npx_pending_remove(struct npx_dev_state *d, struct npx_task *t)
{
	unsigned int i;

	for (i = d->npending; i-- > 0;) {
		if (d->pending[i] == t) {
			memmove(&d->pending[i], &d->pending[i + 1],
				(d->npending - i - 1) * sizeof(d->pending[0]));
			d->npending--;
			break;
		}
	}
	if (d->last == t)
		d->last = NULL;
}

static void npx_drop(struct npx_export *x, struct npx_task *t)
{
	npx_pending_remove(&x->d, t);
	x->d.sum->incomplete++;
	x->free[x->nfree++] = t;
}

/* A task with TASK_START and TASK_END: into the reorder window. */
static int npx_complete(struct npx_export *x, struct npx_task *t)
{
	struct npx_dev_state *d = &x->d;

	npx_pending_remove(d, t);
	t->start_ns = npx_ticks_abs(d, t->start_ticks);
	t->end_ns = npx_ticks_abs(d, t->end_ticks);
	npx_win_push(d, t);
	if (d->nwin > NPX_WINDOW)
		return npx_pop_emit(x);
	return 0;
}

static bool npx_is_complete(const struct npx_task *t)
{
	return (t->have & (NPX_HAVE_START | NPX_HAVE_END)) == (NPX_HAVE_START | NPX_HAVE_END);
}

/* The open task @task_id, created when new; NULL with *rc on error. */
static struct npx_task *npx_task_get(struct npx_export *x, uint64_t task_id, uint64_t seq, int *rc)
{
	struct npx_dev_state *d = &x->d;
	struct npx_task *t;
	unsigned int i;

	*rc = 0;
	if (d->last && d->last->task_id == task_id)
		return d->last;
	/* the records moved on: the previous task is done if it is complete */
	if (d->last && npx_is_complete(d->last)) {
		*rc = npx_complete(x, d->last);
		if (*rc)
			return NULL;
	}
	d->last = NULL;
	for (i = d->npending; i-- > 0;) {
		if (d->pending[i]->task_id == task_id) {
			d->last = d->pending[i];
			return d->last;
		}
	}
	if (d->npending == NPX_PENDING) {
		/* the oldest open task will not complete any more */
		t = d->pending[0];
		if (npx_is_complete(t))
			*rc = npx_complete(x, t);
		else
			npx_drop(x, t);
		if (*rc)
			return NULL;
	}
	t = x->free[--x->nfree];
	memset(t, 0, offsetof(struct npx_task, op));
	t->task_id = task_id;
	t->first_seq = seq;
	d->pending[d->npending++] = t;
	d->last = t;
	return t;
}

static int npx_short(struct npx_export *x, const char *file, uint64_t off, const char *what,
		     size_t size, size_t want)
{
	return npuprof_set_error(x->o.err, -EBADMSG,
				 "%s: offset %llu: %s record of %zu bytes, expected at least %zu",
				 file, (unsigned long long)off, what, size, want);
}

/*
 * Parse OP_INFO into @t; an error message names the record's file and
 * offset (formatted only then: this runs for every task).
 */
static int npx_op_info(struct npx_export *x, struct npx_task *t, const void *rec, size_t size,
		       const struct npx_reader *r, uint64_t off)
{
	const char *p = (const char *)rec + sizeof(struct vnpu_rec_op_info);
	const char *end = (const char *)rec + size;
	char file[128], what[96];
	uint32_t i;

	memcpy(&t->op, rec, sizeof(t->op));
	if (t->op.n_tensors > VNPU_MAX_TENSORS) {
		snprintf(what, sizeof(what), "OP_INFO with %u tensors (at most %u)",
			 t->op.n_tensors, (unsigned int)VNPU_MAX_TENSORS);
		goto bad;
	}
	for (i = 0; i < t->op.n_tensors; i++) {
		struct vnpu_rec_tensor rt;

		if (end - p < (ptrdiff_t)sizeof(rt))
			goto overrun;
		memcpy(&rt, p, sizeof(rt));
		p += sizeof(rt);
		if (rt.ndims > VNPU_MAX_DIMS) {
			snprintf(what, sizeof(what), "OP_INFO tensor %u has %u dims (at most %u)",
				 i, rt.ndims, (unsigned int)VNPU_MAX_DIMS);
			goto bad;
		}
		if (end - p < (ptrdiff_t)(rt.ndims * sizeof(__u64)))
			goto overrun;
		t->t[i].dtype = rt.dtype;
		t->t[i].format = rt.format;
		t->t[i].ndims = rt.ndims;
		t->t[i].output = rt.output ? 1 : 0;
		memcpy(t->t[i].dims, p, rt.ndims * sizeof(__u64));
		p += rt.ndims * sizeof(__u64);
	}
	t->n_tensors = t->op.n_tensors;
	return 0;
overrun:
	snprintf(what, sizeof(what), "OP_INFO tensor %u runs past the record's %zu bytes", i, size);
bad:
	npx_reader_path(r, file, sizeof(file));
	return npuprof_set_error(x->o.err, -EBADMSG, "%s: offset %llu: %s", file,
				 (unsigned long long)off, what);
}

static int npx_runtime(struct npx_export *x, const struct vnpu_rec_runtime *r)
{
	uint64_t dur = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	char name[48], tname[32], *p;
	int rc;

	rc = npx_apistat_add(&x->apistat, NPX_LEVEL_RUNTIME, r->api, dur, x->o.err);
	if (rc)
		return rc;
	if (!npx_tl_known(&x->tl, NPX_PID_RUNTIME, r->tid)) {
		snprintf(tname, sizeof(tname), "Thread %u", r->tid);
		rc = npx_tl_thread(&x->o, &x->tl, NPX_PID_RUNTIME, "Runtime", "CPU", 1, r->tid,
				   tname);
	}
	if (!rc)
		rc = npx_tl_begin(&x->o, &x->tl, &p);
	if (rc)
		return rc;
	p = npx_tl_head(p, npx_api_name(NPX_LEVEL_RUNTIME, r->api, name, sizeof(name)), 48,
			NPX_PID_RUNTIME, r->tid);
	p = npx_tl_times(p, r->start_ns, dur);
	p = npx_lit(p, ",\"args\":{\"Thread Id\":");
	p = npx_fmt_u64(p, r->tid);
	p = npx_lit(p, ",\"Device Id\":");
	p = npx_fmt_u64(p, x->d.id);
	p = npx_lit(p, ",\"result\":");
	if (r->result < 0)
		*p++ = '-';
	p = npx_fmt_u64(p, r->result < 0 ? -(int64_t)r->result : r->result);
	p = npx_lit(p, ",\"count\":");
	p = npx_fmt_u64(p, r->count);
	p = npx_lit(p, "}}");
	npx_tl_end(&x->tl, p);
	return 0;
}

static void npx_seq(struct npx_export *x, const struct vnpu_rec_hdr *h, const char *file,
		    uint64_t off)
{
	struct npx_dev_state *d = &x->d;
	uint64_t want = d->seq_started ? d->next_seq : 0;

	if (h->seq != want) {
		if (h->seq > want)
			d->sum->seq_missing += h->seq - want;
		if (++d->seq_gaps <= NPX_SEQ_WARN_MAX)
			npx_warn(&x->w, "%s: offset %llu: seq %llu where %llu was expected%s", file,
				 (unsigned long long)off, (unsigned long long)h->seq,
				 (unsigned long long)want,
				 h->seq > want ? ": records are missing" : ": seq went back");
	}
	d->seq_started = true;
	d->next_seq = h->seq + 1;
}

/* sizes of the known record types */
static const size_t npx_rec_size[VNPU_REC_TYPE_COUNT] = {
	[VNPU_REC_LOST] = sizeof(struct vnpu_rec_lost),
	[VNPU_REC_TASK_START] = sizeof(struct vnpu_rec_task),
	[VNPU_REC_TASK_END] = sizeof(struct vnpu_rec_task),
	[VNPU_REC_OP_INFO] = sizeof(struct vnpu_rec_op_info),
	[VNPU_REC_PMU] = sizeof(struct vnpu_rec_pmu),
	[VNPU_REC_COMM] = sizeof(struct vnpu_rec_comm),
	[VNPU_REC_RUNTIME] = sizeof(struct vnpu_rec_runtime),
	[VNPU_REC_AICPU] = sizeof(struct vnpu_rec_aicpu),
};

static const char *const npx_rec_name[VNPU_REC_TYPE_COUNT] = {
	[VNPU_REC_LOST] = "LOST",	  [VNPU_REC_TASK_START] = "TASK_START",
	[VNPU_REC_TASK_END] = "TASK_END", [VNPU_REC_OP_INFO] = "OP_INFO",
	[VNPU_REC_PMU] = "PMU",		  [VNPU_REC_COMM] = "COMM",
	[VNPU_REC_RUNTIME] = "RUNTIME",	  [VNPU_REC_AICPU] = "AICPU",
};

static int npx_dev_record(struct npx_export *x, const struct npx_reader *r, const void *rec,
			  size_t size, uint64_t off)
{
	const struct vnpu_rec_hdr *h = rec;
	struct npx_dev_state *d = &x->d;
	uint32_t type = h->type;
	struct npx_task *t;
	char file[128];
	int rc;

	d->sum->records++;
	if (h->seq != (d->seq_started ? d->next_seq : 0)) {
		npx_reader_path(r, file, sizeof(file));
		npx_seq(x, h, file, off);
	} else {
		d->seq_started = true;
		d->next_seq = h->seq + 1;
	}
	if (type == 0 || type >= VNPU_REC_TYPE_COUNT) {
		d->sum->unknown++;
		return 0;
	}
	if (size < npx_rec_size[type]) {
		npx_reader_path(r, file, sizeof(file));
		return npx_short(x, file, off, npx_rec_name[type], size, npx_rec_size[type]);
	}

	switch (type) {
	case VNPU_REC_LOST:
		/* the collector's own: records it drained but could not write */
		if (h->flags & NPUPROF_RAW_LOST_F_COLLECTOR) {
			d->unwritten += ((const struct vnpu_rec_lost *)rec)->lost;
			d->sum->seq_missing += ((const struct vnpu_rec_lost *)rec)->lost;
		} else {
			d->sum->lost += ((const struct vnpu_rec_lost *)rec)->lost;
		}
		return 0;
	case VNPU_REC_RUNTIME:
		return npx_runtime(x, rec);
	default:
		break;
	}
	/* every other type starts with hdr, task_id */
	t = npx_task_get(x, ((const struct vnpu_rec_task *)rec)->task_id, h->seq, &rc);
	if (!t)
		return rc;
	switch (type) {
	case VNPU_REC_TASK_START:
	case VNPU_REC_TASK_END: {
		const struct vnpu_rec_task *tr = rec;
		uint32_t bit = type == VNPU_REC_TASK_START ? NPX_HAVE_START : NPX_HAVE_END;

		if (t->have & bit)
			d->dups++;
		t->have |= bit;
		if (type == VNPU_REC_TASK_START) {
			t->start_ticks = tr->timestamp;
			t->start_seq = h->seq;
			t->stream_id = tr->stream_id;
			t->task_type = tr->task_type;
		} else {
			t->end_ticks = tr->timestamp;
			if (!(t->have & NPX_HAVE_START)) {
				t->stream_id = tr->stream_id;
				t->task_type = tr->task_type;
			}
		}
		break;
	}
	case VNPU_REC_OP_INFO:
		if (t->have & NPX_HAVE_OP)
			d->dups++;
		rc = npx_op_info(x, t, rec, size, r, off);
		if (rc)
			return rc;
		t->have |= NPX_HAVE_OP;
		break;
	case VNPU_REC_PMU:
		if (t->have & NPX_HAVE_PMU)
			d->dups++;
		memcpy(&t->pmu, rec, sizeof(t->pmu));
		t->have |= NPX_HAVE_PMU;
		break;
	case VNPU_REC_COMM:
		if (t->have & (NPX_HAVE_COMM | NPX_HAVE_AICPU))
			d->dups++;
		memcpy(&t->comm, rec, sizeof(t->comm));
		t->have = (t->have & ~NPX_HAVE_AICPU) | NPX_HAVE_COMM;
		break;
	case VNPU_REC_AICPU:
		if (t->have & (NPX_HAVE_COMM | NPX_HAVE_AICPU))
			d->dups++;
		memcpy(&t->aicpu, rec, sizeof(t->aicpu));
		t->have = (t->have & ~NPX_HAVE_COMM) | NPX_HAVE_AICPU;
		break;
	}
	return 0;
}

/* ---- one device ---- */

static int npx_load_ctrl(struct npx_export *x, const char *dir, const char *label)
{
	struct npx_dev_state *d = &x->d;
	struct vnpu_ring_ctrl *c = &d->ctrl;
	char path[PATH_MAX + 32];
	struct npuprof_error *err = x->o.err;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/" NPUPROF_RAW_CTRL_FILE, dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return npuprof_set_error(err, -errno, "%s/" NPUPROF_RAW_CTRL_FILE ": %s", label,
					 strerror(errno));
	memset(c, 0, sizeof(*c));
	do
		n = read(fd, c, sizeof(*c));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;

		close(fd);
		return npuprof_set_error(err, -e, "%s/" NPUPROF_RAW_CTRL_FILE ": read: %s", label,
					 strerror(e));
	}
	close(fd);
	if (n < NPX_CTRL_MIN_SIZE)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": %zd bytes, a struct vnpu_ring_ctrl has at least %d",
					 label, n, NPX_CTRL_MIN_SIZE);
	if (c->magic != VNPU_RING_MAGIC)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": bad magic 0x%llx", label,
					 (unsigned long long)c->magic);
	if (c->compat_version != 1)
		return npuprof_set_error(err, -EPROTO,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": compat_version %u (this library reads 1)",
					 label, c->compat_version);
	if (c->dev_id != d->id)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": dev_id %u does not match the folder",
					 label, c->dev_id);
	if (!c->sys_cnt_freq_khz)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": sys_cnt_freq_khz is 0",
					 label);
	if (c->level >= VNPU_PROF_LEVEL_COUNT)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": unknown level %u", label,
					 c->level);
	if (c->n_events > VNPU_PMU_EVENTS)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": n_events %u (at most %u)",
					 label, c->n_events, (unsigned int)VNPU_PMU_EVENTS);
	if (c->metric_group >= VNPU_METRIC_COUNT && c->metric_group != VNPU_METRIC_NONE)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE ": unknown metric group %u",
					 label, c->metric_group);
	if (c->metric_group != VNPU_METRIC_NONE && !c->aic_freq_khz)
		return npuprof_set_error(err, -EBADMSG,
					 "%s/" NPUPROF_RAW_CTRL_FILE
					 ": aic_freq_khz is 0 with metric group %u",
					 label, c->metric_group);
	return npx_layout_init(&d->layout, c, err);
}

/* The op_summary header of the current device. */
static char *npx_op_summary_header(const struct npx_layout *l)
{
	char *h = malloc(NPX_ROW_MAX), *p = h;

	if (!h)
		return NULL;
	p = npx_lit(p, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
		       "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,");
	if (l->stars)
		p = npx_lit(p, "Mix Block Dim,");
	p = npx_lit(p, "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
		       "Output Shapes,Output Data Types,Output Formats");
	if (l->stars)
		p = npx_lit(p, ",Context ID");
	p = npx_layout_header(l, p);
	*p = '\0';
	return h;
}

static int npx_device(struct npx_export *x, unsigned int k)
{
	struct npx_dev_state *d = &x->d;
	char dir[PATH_MAX], label[64];
	const void *rec;
	struct npx_reader r;
	uint64_t off;
	size_t size;
	char *hdr;
	int rc;

	d->id = x->devs[k];
	d->sum = &x->sum.dev[k];
	memset(d->sum, 0, sizeof(*d->sum));
	d->sum->dev_id = d->id;
	d->next_seq = 0;
	d->seq_started = false;
	d->seq_gaps = 0;
	d->unwritten = 0;
	d->dups = 0;
	d->bad_times = 0;
	d->npending = 0;
	d->last = NULL;
	d->whead = 0;
	d->nwin = 0;
	d->have_prev = false;
	d->last_start = 0;
	snprintf(label, sizeof(label), NPUPROF_RAW_DEVICE_DIR "/" NPUPROF_RAW_DATA_DIR, d->id);
	snprintf(dir, sizeof(dir), "%s/%s", x->prof, label);
	rc = npx_load_ctrl(x, dir, label);
	if (rc)
		return rc;
	d->sum->level = d->ctrl.level;
	d->sum->metric_group = d->ctrl.metric_group;
	d->sum->product = d->ctrl.product;
	d->sum->bytes = x->files[k].bytes;

	hdr = npx_op_summary_header(&d->layout);
	if (!hdr)
		return npuprof_set_error(x->o.err, -ENOMEM, "out of memory");
	if (x->op_header_dev < 0) {
		rc = npx_csv_set_header(&x->o, &x->op_summary, hdr);
		x->op_header_dev = (int)d->id;
	} else if (strcmp(hdr, x->op_summary.header)) {
		rc = npuprof_set_error(
			x->o.err, -EINVAL,
			"%s: the op_summary columns of this device (product %u, metric"
			" group %u) differ from device_%d's: one op_summary cannot"
			" hold both",
			label, d->ctrl.product, d->ctrl.metric_group, x->op_header_dev);
	}
	free(hdr);
	if (rc)
		return rc;

	rc = npx_reader_open(&r, &x->files[k], sizeof(struct vnpu_rec_hdr), x->o.err);
	if (rc)
		return rc;
	while ((rc = npx_reader_next(&r, &rec, &size, &off, &x->w, x->o.err)) > 0) {
		rc = npx_dev_record(x, &r, rec, size, off);
		if (!rc)
			rc = npx_progress(x, x->done + r.consumed);
		if (rc)
			break;
	}
	x->done += r.consumed;
	npx_reader_close(&r);
	if (rc)
		return rc;
	/* a record cut at the end (the collector died writing it): one missing */
	if (r.truncated)
		d->sum->seq_missing++;

	/* the end: complete tasks go to the window, the rest were cut short */
	d->last = NULL;
	while (d->npending) {
		struct npx_task *t = d->pending[0];

		if (npx_is_complete(t))
			rc = npx_complete(x, t);
		else
			npx_drop(x, t);
		if (rc)
			return rc;
	}
	while (d->nwin) {
		rc = npx_pop_emit(x);
		if (rc)
			return rc;
	}
	rc = npx_opstat_flush(&x->o, &x->op_stat, &x->opstat, d->id);
	if (!rc)
		rc = npx_commstat_flush(&x->o, &x->comm_stat, &x->commstat, d->id);
	if (rc)
		return rc;

	if (d->sum->lost)
		npx_warn(&x->w,
			 "device_%u: %llu records were lost on the device (the ring was full):"
			 " the export is incomplete (see %s/README.txt)",
			 d->id, (unsigned long long)d->sum->lost, NPUPROF_OUTPUT_DIR);
	if (d->unwritten)
		npx_warn(&x->w,
			 "device_%u: %llu records could not be written by the collector (its"
			 " session failed): the export is incomplete (see %s/README.txt)",
			 d->id, (unsigned long long)d->unwritten, NPUPROF_OUTPUT_DIR);
	if (d->seq_gaps)
		npx_warn(&x->w, "device_%u: %llu seq gaps, %llu records missing from the files",
			 d->id, (unsigned long long)d->seq_gaps,
			 (unsigned long long)d->sum->seq_missing);
	if (d->sum->unknown)
		npx_warn(&x->w, "device_%u: %llu records of unknown types skipped", d->id,
			 (unsigned long long)d->sum->unknown);
	if (d->sum->incomplete)
		npx_warn(&x->w,
			 "device_%u: %llu tasks without TASK_START or TASK_END (or records of no"
			 " task) not exported",
			 d->id, (unsigned long long)d->sum->incomplete);
	if (d->sum->out_of_order)
		npx_warn(&x->w,
			 "device_%u: %llu tasks arrived too late for the %u-task reorder window"
			 " and are out of start-time order",
			 d->id, (unsigned long long)d->sum->out_of_order, (unsigned int)NPX_WINDOW);
	if (d->dups)
		npx_warn(&x->w, "device_%u: %llu duplicate task records (the last one is used)",
			 d->id, (unsigned long long)d->dups);
	if (d->bad_times)
		npx_warn(&x->w, "device_%u: %llu tasks end before they start (duration 0)", d->id,
			 (unsigned long long)d->bad_times);
	x->sum.lost += d->sum->lost;
	return 0;
}

/* ---- host API records ---- */

static int npx_host(struct npx_export *x)
{
	const void *rec;
	struct npx_reader r;
	uint64_t off, unknown = 0, bad_times = 0;
	size_t size;
	int rc;

	if (!x->host.n)
		return 0;
	rc = npx_reader_open(&r, &x->host, 8, x->o.err);
	if (rc)
		return rc;
	while ((rc = npx_reader_next(&r, &rec, &size, &off, &x->w, x->o.err)) > 0) {
		const struct npuprof_api_rec *a = rec;
		char name[48], tname[32], file[128], *p;
		uint64_t dur;

		if (a->type != NPUPROF_API_REC_TYPE) {
			unknown++;
			continue;
		}
		if (size < sizeof(*a)) {
			npx_reader_path(&r, file, sizeof(file));
			rc = npx_short(x, file, off, "api", size, sizeof(*a));
			break;
		}
		x->sum.host_api_records++;
		if (a->end_ns >= a->start_ns) {
			dur = a->end_ns - a->start_ns;
		} else {
			dur = 0;
			bad_times++;
		}
		rc = npx_apistat_add(&x->apistat, NPX_LEVEL_ACL, a->api_id, dur, x->o.err);
		if (rc)
			break;
		if (!npx_tl_known(&x->tl, NPX_PID_ACL, a->tid)) {
			snprintf(tname, sizeof(tname), "Thread %u", a->tid);
			rc = npx_tl_thread(&x->o, &x->tl, NPX_PID_ACL, "AscendCL", "CPU", 0, a->tid,
					   tname);
		}
		if (!rc)
			rc = npx_tl_begin(&x->o, &x->tl, &p);
		if (rc)
			break;
		p = npx_tl_head(p, npx_api_name(NPX_LEVEL_ACL, a->api_id, name, sizeof(name)), 48,
				NPX_PID_ACL, a->tid);
		p = npx_tl_times(p, a->start_ns, dur);
		p = npx_lit(p, ",\"args\":{\"Thread Id\":");
		p = npx_fmt_u64(p, a->tid);
		p = npx_lit(p, ",\"Mode\":\"ACL_OP\",\"level\":\"acl\"}}");
		npx_tl_end(&x->tl, p);
		rc = npx_progress(x, x->done + r.consumed);
		if (rc)
			break;
	}
	x->done += r.consumed;
	npx_reader_close(&r);
	if (rc)
		return rc;
	if (unknown)
		npx_warn(&x->w, "%s: %llu records of unknown types skipped", x->host.label,
			 (unsigned long long)unknown);
	if (bad_times)
		npx_warn(&x->w, "%s: %llu API records end before they start (duration 0)",
			 x->host.label, (unsigned long long)bad_times);
	return 0;
}

/* ---- the folder ---- */

static bool npx_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* PROF_{6 digits}_{17 digits}_{one or more [A-Za-z0-9]} (trailing slashes allowed) */
static bool npx_prof_name_ok(const char *path)
{
	size_t n = strlen(path), i;
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = path + n; b > path && b[-1] != '/'; b--)
		;
	n -= (size_t)(b - path);
	if (n < 5 + 6 + 1 + 17 + 2 || strncmp(b, "PROF_", 5) || !npx_digits(b + 5, 6) ||
	    b[11] != '_' || !npx_digits(b + 12, 17) || b[29] != '_')
		return false;
	for (i = 30; i < n; i++)
		if (!((b[i] >= 'A' && b[i] <= 'Z') || (b[i] >= 'a' && b[i] <= 'z') ||
		      (b[i] >= '0' && b[i] <= '9')))
			return false;
	return true;
}

static int npx_cmp_dev(const void *a, const void *b)
{
	char x[16], y[16];

	/* Device_id is compared as a string, as msprof sorts it */
	snprintf(x, sizeof(x), "%u", *(const uint32_t *)a);
	snprintf(y, sizeof(y), "%u", *(const uint32_t *)b);
	return strcmp(x, y);
}

static int npx_scan(struct npx_export *x)
{
	struct npuprof_error *err = x->o.err;
	struct dirent *de;
	char dir[PATH_MAX];
	unsigned int k;
	int rc = 0;
	DIR *dp;

	dp = opendir(x->prof);
	if (!dp)
		return npuprof_set_error(err, -errno, "%s: %s", x->prof, strerror(errno));
	while ((de = readdir(dp))) {
		const char *s = de->d_name + 7;
		unsigned long id = 0;
		struct stat st;
		size_t n;

		if (strncmp(de->d_name, "device_", 7))
			continue;
		n = strlen(s);
		if (fstatat(dirfd(dp), de->d_name, &st, 0) || !S_ISDIR(st.st_mode))
			continue;
		if (!n || n > 5 || !npx_digits(s, n) || (n > 1 && s[0] == '0')) {
			npx_warn(&x->w, "%s/%s: not a device_{id} folder, ignored", x->prof,
				 de->d_name);
			continue;
		}
		id = strtoul(s, NULL, 10);
		if (id >= NPUPROF_EXPORT_MAX_DEVICES || x->ndev == NPUPROF_EXPORT_MAX_DEVICES) {
			rc = npuprof_set_error(err, -EINVAL, "%s/%s: device ids go up to %u",
					       x->prof, de->d_name,
					       (unsigned int)NPUPROF_EXPORT_MAX_DEVICES - 1);
			goto out;
		}
		x->devs[x->ndev++] = (uint32_t)id;
	}
	qsort(x->devs, x->ndev, sizeof(x->devs[0]), npx_cmp_dev);
	x->files = calloc(x->ndev ? x->ndev : 1, sizeof(*x->files));
	if (!x->files) {
		rc = npuprof_set_error(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < x->ndev; k++) {
		char label[64];

		snprintf(label, sizeof(label), NPUPROF_RAW_DEVICE_DIR "/" NPUPROF_RAW_DATA_DIR,
			 x->devs[k]);
		snprintf(dir, sizeof(dir), "%s/%s", x->prof, label);
		rc = npx_rfiles_scan(&x->files[k], dir, label, NPUPROF_RAW_REC_PREFIX, &x->w, err);
		if (rc)
			goto out;
		x->total += x->files[k].bytes;
	}
	snprintf(dir, sizeof(dir), "%s/" NPUPROF_RAW_HOST_DIR "/" NPUPROF_RAW_DATA_DIR, x->prof);
	rc = npx_rfiles_scan(&x->host, dir, NPUPROF_RAW_HOST_DIR "/" NPUPROF_RAW_DATA_DIR,
			     NPUPROF_RAW_API_PREFIX, &x->w, err);
	if (rc)
		goto out;
	x->total += x->host.bytes;
	if (!x->ndev && !x->host.n)
		rc = npuprof_set_error(err, -ENOENT,
				       "%s: no device_{id} folder and no " NPUPROF_RAW_HOST_DIR
				       "/" NPUPROF_RAW_DATA_DIR "/" NPUPROF_RAW_API_PREFIX
				       "NNNN: nothing to export",
				       x->prof);
out:
	closedir(dp);
	return rc;
}

static int npx_readme(struct npx_export *x)
{
	struct npx_csv *csvs[] = { &x->op_summary, &x->op_stat,	  &x->task_time,
				   &x->api_stat,   &x->comm_stat, &x->aicpu };
	char tmp[96], name[128];
	unsigned int i, k;
	char *p;
	int rc;

	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-README.tmp", x->o.pid);
	rc = npx_file_open(&x->o, &x->readme, tmp);
	if (rc)
		return rc;
	npx_file_reserve(&x->o, &x->readme, NPX_ROW_MAX, &p);
	p = npx_lit(p, "This folder was written by libnpuprof (npuprof_export) from the raw data"
		       " of the PROF folder above it.\n\nFiles:\n");
	for (i = 0; i < NPX_ARRAY_SIZE(csvs); i++) {
		for (k = 0; k < csvs[i]->nfiles; k++) {
			npx_file_advance(&x->readme, p);
			rc = npx_file_reserve(&x->o, &x->readme, 256, &p);
			if (rc)
				return rc;
			npx_csv_name_of(&x->o, csvs[i], k, name, sizeof(name));
			p = npx_lit(p, "  ");
			p = npx_put(p, name);
			*p++ = '\n';
		}
	}
	npx_file_advance(&x->readme, p);
	rc = npx_file_reserve(&x->o, &x->readme, NPX_ROW_MAX, &p);
	if (rc)
		return rc;
	p = npx_lit(p, "  msprof_");
	p = npx_put(p, x->o.ts);
	p = npx_lit(p, ".json\n\nData loss:\n");
	for (i = 0, k = 0; i < x->ndev; i++)
		k += x->sum.dev[i].lost || x->sum.dev[i].seq_missing;
	if (!k)
		p = npx_lit(p, "  none: no record was lost on any device.\n");
	for (i = 0; i < x->ndev; i++) {
		const struct npuprof_export_device *d = &x->sum.dev[i];

		if (!d->lost && !d->seq_missing)
			continue;
		p = npx_lit(p, "  device_");
		p = npx_fmt_u64(p, d->dev_id);
		p = npx_lit(p, ": ");
		if (d->lost) {
			p = npx_fmt_u64(p, d->lost);
			p = npx_lit(p, " records were lost on the device (the ring was full)");
		}
		if (d->seq_missing) {
			if (d->lost)
				p = npx_lit(p, ", ");
			p = npx_fmt_u64(p, d->seq_missing);
			p = npx_lit(p, " records are missing from the record files (not written by"
				       " the collector, cut short, or removed)");
		}
		p = npx_lit(p, "; the tasks they described are missing or incomplete in every"
			       " file.\n");
	}
	npx_file_advance(&x->readme, p);
	return npx_file_close(&x->o, &x->readme);
}

static void npx_discard(struct npx_export *x)
{
	npx_csv_discard(&x->o, &x->op_summary);
	npx_csv_discard(&x->o, &x->task_time);
	npx_csv_discard(&x->o, &x->op_stat);
	npx_csv_discard(&x->o, &x->api_stat);
	npx_csv_discard(&x->o, &x->comm_stat);
	npx_csv_discard(&x->o, &x->aicpu);
	npx_file_discard(&x->o, &x->tl.f);
	npx_file_discard(&x->o, &x->readme);
}

static int npx_commit(struct npx_export *x)
{
	struct npx_csv *csvs[] = { &x->op_summary, &x->op_stat,	  &x->task_time,
				   &x->api_stat,   &x->comm_stat, &x->aicpu };
	char name[64];
	unsigned int i;
	int rc;

	for (i = 0; i < NPX_ARRAY_SIZE(csvs); i++) {
		rc = npx_csv_commit(&x->o, csvs[i]);
		if (rc)
			return rc;
	}
	snprintf(name, sizeof(name), "msprof_%s.json", x->o.ts);
	rc = npx_file_commit(&x->o, &x->tl.f, name);
	if (!rc)
		rc = npx_file_commit(&x->o, &x->readme, "README.txt");
	return rc;
}

static int npx_run(struct npx_export *x)
{
	struct npx_csv *csvs[] = { &x->op_summary, &x->op_stat,	  &x->task_time,
				   &x->api_stat,   &x->comm_stat, &x->aicpu };
	char *out = x->outdir;
	unsigned int k;
	int rc;

	rc = npx_scan(x);
	if (rc)
		return rc;
	x->pool = calloc(NPX_WINDOW + NPX_PENDING + 1, sizeof(*x->pool));
	x->free = calloc(NPX_WINDOW + NPX_PENDING + 1, sizeof(*x->free));
	x->d.win = calloc(NPX_WIN_CAP, sizeof(*x->d.win));
	if (!x->pool || !x->free || !x->d.win)
		return npuprof_set_error(x->o.err, -ENOMEM, "out of memory");
	for (k = 0; k < NPX_WINDOW + NPX_PENDING + 1; k++)
		x->free[x->nfree++] = &x->pool[k];

	snprintf(out, sizeof(x->outdir), "%s/" NPUPROF_OUTPUT_DIR, x->prof);
	if (mkdir(out, 0755) && errno != EEXIST)
		return npuprof_set_error(x->o.err, -errno, "%s: %s", out, strerror(errno));
	x->o.dfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->o.dfd < 0)
		return npuprof_set_error(x->o.err, -errno, "%s: %s", out, strerror(errno));
	x->o.dir = out;
	npx_io_start(&x->o);

	rc = npx_csv_set_header(&x->o, &x->task_time, npx_hdr_task_time);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->op_stat, npx_hdr_op_stat);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->api_stat, npx_hdr_api_stat);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->comm_stat, npx_hdr_comm_stat);
	if (!rc)
		rc = npx_csv_set_header(&x->o, &x->aicpu, npx_hdr_aicpu);
	if (!rc)
		rc = npx_tl_open(&x->o, &x->tl);
	for (k = 0; !rc && k < x->ndev; k++) {
		rc = npx_device(x, k);
		x->sum.n_devices = k + 1;
	}
	if (!rc)
		rc = npx_host(x);
	if (!rc)
		rc = npx_apistat_write(&x->o, &x->api_stat, &x->apistat);
	for (k = 0; !rc && k < NPX_ARRAY_SIZE(csvs); k++)
		rc = npx_csv_close(&x->o, csvs[k]);
	if (!rc)
		rc = npx_tl_close(&x->o, &x->tl);
	if (!rc)
		rc = npx_progress(x, x->total);
	if (!rc)
		rc = npx_readme(x);
	if (!rc)
		rc = npx_commit(x);
	return rc;
}

__attribute__((visibility("default"))) int npuprof_export(const char *prof_dir,
							  const struct npuprof_export_opts *opts,
							  struct npuprof_error *err)
{
	struct npx_export *x;
	struct stat st;
	int rc;

	npuprof_clear_error(err);
	if (!prof_dir || !*prof_dir)
		return npuprof_set_error(err, -EINVAL, "prof_dir is NULL or empty");
	if (strlen(prof_dir) > PATH_MAX - 128)
		return npuprof_set_error(err, -ENAMETOOLONG, "prof_dir is too long");
	if (opts && opts->sz < sizeof(*opts))
		return npuprof_set_error(err, -EINVAL,
					 "opts->sz is %zu: set it to sizeof(struct"
					 " npuprof_export_opts) (%zu)",
					 opts->sz, sizeof(*opts));
	if (stat(prof_dir, &st))
		return npuprof_set_error(err, -errno, "%s: %s", prof_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return npuprof_set_error(err, -ENOTDIR, "%s: not a folder", prof_dir);
	/* the real Ascend raw layout has its own reader (ascend_export.c) */
	if (npa_is_ascend_layout(prof_dir))
		return npa_export(prof_dir, opts, err);

	x = calloc(1, sizeof(*x));
	if (!x)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	x->prof = prof_dir;
	x->o.dfd = -1;
	x->o.pid = (long)getpid();
	x->o.err = err;
	x->o.slice_rows = opts && opts->slice_rows ? opts->slice_rows : NPUPROF_EXPORT_SLICE_ROWS;
	x->w.quiet = opts ? opts->quiet : 0;
	x->progress = opts ? opts->progress : NULL;
	x->progress_arg = opts ? opts->progress_arg : NULL;
	x->op_header_dev = -1;
	npx_csv_init(&x->op_summary, "op_summary");
	npx_csv_init(&x->task_time, "task_time");
	npx_csv_init(&x->op_stat, "op_statistic");
	npx_csv_init(&x->api_stat, "api_statistic");
	npx_csv_init(&x->comm_stat, "communication_statistic");
	npx_csv_init(&x->aicpu, "aicpu");
	npx_file_init(&x->tl.f);
	npx_file_init(&x->readme);

	rc = npx_out_timestamp(&x->o, opts ? opts->timestamp : NULL);
	if (!rc) {
		if (!npx_prof_name_ok(prof_dir))
			npx_warn(&x->w,
				 "%s: the folder name is not PROF_{6 digits}_{17 digits}_{id}:"
				 " msprof tools may not recognise it",
				 prof_dir);
		rc = npx_run(x);
	}
	if (rc) {
		if (x->o.dfd >= 0)
			npx_discard(x);
		if (err && !err->code)
			npuprof_set_error(err, rc, "export failed: %s", strerror(-rc));
	} else {
		x->sum.warnings = x->w.count;
		x->sum.op_summary_rows = x->op_summary.rows_total;
		x->sum.op_summary_files = x->op_summary.nfiles;
		memcpy(x->sum.timestamp, x->o.ts, sizeof(x->sum.timestamp));
		if (opts && opts->summary)
			*opts->summary = x->sum;
	}
	npx_io_stop(&x->o);
	if (x->o.dfd >= 0)
		close(x->o.dfd);
	npx_csv_free(&x->op_summary);
	npx_csv_free(&x->task_time);
	npx_csv_free(&x->op_stat);
	npx_csv_free(&x->api_stat);
	npx_csv_free(&x->comm_stat);
	npx_csv_free(&x->aicpu);
	npx_tl_free(&x->tl);
	npx_file_free(&x->readme);
	npx_opstat_free(&x->opstat);
	npx_apistat_free(&x->apistat);
	free(x->files);
	free(x->pool);
	free(x->free);
	free(x->d.win);
	free(x);
	return rc;
}
