// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export, vnpu layout: the rows of one task - its task_time,
 * op_summary and aicpu rows, its op_statistic and communication_statistic
 * entries and its timeline events - and the rows of the records that are
 * no task's (RUNTIME, host API calls). Everything here formats into the
 * writers' buffers in place, with no printf, because it runs for every
 * task (export_speed measures it); the column order is docs/output.md's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "npuprof_internal.h"

#define NPX_INVALID_ID 4294967295ULL /* Model Id of a task without OP_INFO */

/* ---- names of enum values ---- */

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

/* ---- the CSV rows of one task ---- */

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

/* ---- timeline events ---- */

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

/* ---- all of a task ---- */

/* A task leaves the reorder window: every row it makes. */
int npx_emit(struct npx_export *x, struct npx_task *t)
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

/* ---- the records of no task ---- */

int npx_row_runtime(struct npx_export *x, const struct vnpu_rec_runtime *r)
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

int npx_row_host_api(struct npx_export *x, const struct npuprof_api_rec *a, uint64_t dur)
{
	char name[48], tname[32], *p;
	int rc;

	rc = npx_apistat_add(&x->apistat, NPX_LEVEL_ACL, a->api_id, dur, x->o.err);
	if (rc)
		return rc;
	if (!npx_tl_known(&x->tl, NPX_PID_ACL, a->tid)) {
		snprintf(tname, sizeof(tname), "Thread %u", a->tid);
		rc = npx_tl_thread(&x->o, &x->tl, NPX_PID_ACL, "AscendCL", "CPU", 0, a->tid, tname);
	}
	if (!rc)
		rc = npx_tl_begin(&x->o, &x->tl, &p);
	if (rc)
		return rc;
	p = npx_tl_head(p, npx_api_name(NPX_LEVEL_ACL, a->api_id, name, sizeof(name)), 48,
			NPX_PID_ACL, a->tid);
	p = npx_tl_times(p, a->start_ns, dur);
	p = npx_lit(p, ",\"args\":{\"Thread Id\":");
	p = npx_fmt_u64(p, a->tid);
	p = npx_lit(p, ",\"Mode\":\"ACL_OP\",\"level\":\"acl\"}}");
	npx_tl_end(&x->tl, p);
	return 0;
}

/* ---- the op_summary header ---- */

char *npx_op_summary_header(const struct npx_layout *l)
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
