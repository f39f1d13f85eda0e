// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: op_summary and task_time (op_statistic and
 * api_statistic: ascend_statistic.c) of the real layout, row for row and digit for digit as
 * msprof's parser writes them (docs/msprof-parser.md sections 4 and 5). Numbers go through the same
 * roundings (Python's round(), SQLite's round()) and are printed as Python prints floats; times are
 * msprof's local times, with their trailing TAB. One deliberate difference: op_summary says Block
 * Dim and Mix Block Dim where msprof now says Block Num and Mix Block Num (docs/output.md). On
 * chips 5, 15 and 16 (NPF_CHIP_CPP_PATH) every file here is what msprof's C++ path writes instead,
 * CANN's there: its times and number formats (ascend_cpp.c), its row order and its names.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

static const char hdr_op_summary[] =
	"Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
	"Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,"
	"HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	"Output Data Types,Output Formats,Context ID";
/* the HWTS chips' (1 to 4): no Mix Block Dim and no Context ID (delete_useless_cols) */
static const char hdr_op_summary_hwts[] =
	"Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
	"Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,"
	"HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	"Output Data Types,Output Formats";

char *npa_csv_field(char *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\r', n) &&
	    !memchr(s, '\n', n)) {
		memcpy(p, s, n);
		return p + n;
	}
	*p++ = '"';
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	*p++ = '"';
	return p;
}

static char *csv_opt(char *p, const char *s)
{
	return s ? npa_csv_field(p, s, 4096) : npx_lit(p, "N/A");
}

/* the local time (epoch us, 3 decimals) of device ns @ns, then a TAB */
static char *local_tab(char *p, double ns, double offset)
{
	p = npa_py_local_time_d(p, ns, offset);
	*p++ = '\t';
	return p;
}

/*
 * msprof's filter_data_by_start_time_condition: the formatted start
 * ("...\t") after collectionTimeBegin as strings, or a task spanning it.
 */
static bool after_begin(const char *start_tab, const char *end, const char *begin)
{
	if (strcmp(start_tab, begin) > 0)
		return true;
	return strcmp(start_tab, begin) < 0 && strcmp(begin, end) < 0;
}

/* the start and end strings of a task */
static void task_times(const struct npa_dev *d, const struct npa_task *t, char *start_tab,
		       char *end)
{
	char s[64], dur[64], *e;

	e = npa_py_local_time_d(s, t->start, d->cfg.clock.offset);
	*e = 0;
	memcpy(start_tab, s, (size_t)(e - s));
	start_tab[e - s] = '\t';
	start_tab[e - s + 1] = 0;
	/* msprof's float_calculate([start, dur]): the Decimal sum of the two strings */
	e = npa_py_repr(dur, npa_py_round(t->dur / 1000.0, 3));
	*e = 0;
	e = npa_py_decimal_add3(end, s, dur);
	*e = 0;
}

static bool op_lonely(const struct npa_export *x, const struct npa_task *t)
{
	/* a kernel with no launch window: OP State and HF32 Eligible are N/A */
	return t->host >= 0 && x->host.htask[t->host].conn < 0;
}

/*
 * msprof's op_summary row of an executed collective, its times given
 * (AiCoreOpReport.get_hccl_op_data; the C++ path's GenerateHcclBody)
 */
static int comm_row(struct npa_export *x, const struct npa_comm_op *o, uint32_t dev,
		    const char *start_tab, const char *dur, const char *wait)
{
	const struct npa_hccl_op *hop = &x->host.hops[o->hop];
	unsigned int commas = 0;
	char *p;
	int rc;

	rc = npa_csv_begin(&x->o, &x->op_summary, &p);
	if (!rc)
		rc = npa_file_reserve(
			&x->o, &x->op_summary.f,
			npa_row_room(strlen(o->name) + strlen(hop->type)) + 4 * NPA_MCOL_MAX, &p);
	if (rc)
		return rc;
	p = npa_fmt_u64(p, dev);
	p = npx_lit(p, ",4294967295,N/A,N/A,");
	p = npa_csv_field(p, o->name, 4096);
	*p++ = ',';
	p = npa_csv_field(p, hop->type, 4096);
	p = npx_lit(p, ",N/A,COMMUNICATION,");
	p = npx_put(p, start_tab);
	*p++ = ',';
	p = npx_put(p, dur);
	*p++ = ',';
	p = npx_put(p, wait);
	/* Block Dim 0, then N/A to the end of the header's columns */
	p = npx_lit(p, ",0");
	for (const char *h = x->op_summary.header; h && *h; h++) {
		if (*h == ',' && ++commas > 11)
			p = npx_lit(p, ",N/A");
	}
	npa_csv_end(&x->op_summary, p);
	return 0;
}

/*
 * msprof's op_summary row of task @t and its op, its time cells given;
 * @dur is the duration the cube utilization divides by (ns on the
 * pure-Python path, the Task Duration cell's us on the C++ path)
 */
static int op_row(struct npa_export *x, const struct npa_dev *d, const struct npa_metrics *m,
		  const struct npa_task *t, const struct npa_op *op, const char *start_tab,
		  const char *dur_cell, const char *wait, double dur)
{
	bool lonely = op_lonely(x, t) || op->level0, after;
	bool hwts = npf_chip_has(d->cfg.chip_id, NPF_CHIP_HWTS);
	uint32_t blocks = op->block_num, mix_blocks = op->mix_block_num;
	char *p;
	int rc;

	rc = npa_csv_begin(&x->o, &x->op_summary, &p);
	if (!rc)
		rc = npa_file_reserve(&x->o, &x->op_summary.f,
				      npa_row_room(strlen(op->name) + strlen(op->type) +
						   (op->in_shapes ? strlen(op->in_shapes) : 0) +
						   (op->out_shapes ? strlen(op->out_shapes) : 0) +
						   (op->in_types ? strlen(op->in_types) : 0) +
						   (op->out_types ? strlen(op->out_types) : 0) +
						   (op->in_formats ? strlen(op->in_formats) : 0) +
						   (op->out_formats ? strlen(op->out_formats) : 0)),
				      &p);
	if (rc)
		return rc;
	p = npa_fmt_u64(p, d->cfg.id);
	*p++ = ',';
	p = npa_fmt_u64(p, op->model_id);
	*p++ = ',';
	p = npa_fmt_u64(p, t->task);
	*p++ = ',';
	p = npa_fmt_u64(p, t->stream);
	*p++ = ',';
	p = npa_csv_field(p, op->name, 4096);
	*p++ = ',';
	p = npa_csv_field(p, op->type, 4096);
	*p++ = ',';
	p = lonely ? npx_lit(p, "N/A") : op->dynamic ? npx_lit(p, "dynamic") : npx_lit(p, "static");
	*p++ = ',';
	p = npx_put(p, npa_ge_task_type_name(op->task_type));
	*p++ = ',';
	p = npx_put(p, start_tab);
	*p++ = ',';
	p = npx_put(p, dur_cell);
	*p++ = ',';
	p = npx_put(p, wait);
	*p++ = ',';
	/* the C++ path takes the blocks from the task_track (ProcessRuntimeTrackInfo) */
	if (d->cfg.cpp.ok && t->host >= 0) {
		blocks = x->host.htask[t->host].num_blocks;
		mix_blocks = x->host.htask[t->host].mix_blocks;
	}
	p = npa_fmt_u64(p, blocks);
	*p++ = ',';
	if (!hwts) {
		p = npa_fmt_u64(p, mix_blocks);
		*p++ = ',';
	}
	p = lonely ? npx_lit(p, "N/A") : op->hf32 ? npx_lit(p, "YES") : npx_lit(p, "NO");
	*p++ = ',';
	p = csv_opt(p, op->in_shapes);
	*p++ = ',';
	p = csv_opt(p, op->in_types);
	*p++ = ',';
	p = csv_opt(p, op->in_formats);
	*p++ = ',';
	p = csv_opt(p, op->out_shapes);
	*p++ = ',';
	p = csv_opt(p, op->out_types);
	*p++ = ',';
	p = csv_opt(p, op->out_formats);
	if (!hwts) {
		*p++ = ',';
		if (t->ctx == NPA_NO_CTX)
			p = npx_lit(p, "N/A");
		else
			p = npa_fmt_u64(p, t->ctx);
	}
	/* a launch before the collection start gives no blocks to the formulas */
	after = d->cfg.cpp.ok || (double)x->host.htask[t->host].ts >= d->cfg.host_start_count;
	p = npa_metrics_row(m, &d->cfg, t->pmu >= 0 ? &d->pmu[t->pmu] : NULL, after ? blocks : 0,
			    after ? mix_blocks : 0, dur, p);
	npa_csv_end(&x->op_summary, p);
	return 0;
}

static int cmp_comm_start(const void *a, const void *b, void *arg)
{
	const struct npa_comm_op *o = arg, *x = &o[*(const size_t *)a], *y = &o[*(const size_t *)b];
	double sx = trunc(x->start), sy = trunc(y->start);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int set_op_summary_header(struct npa_export *x, const struct npa_dev *d,
				 const struct npa_metrics *m)
{
	bool hwts = npf_chip_has(d->cfg.chip_id, NPF_CHIP_HWTS);
	char *hdr, *e;
	int rc;

	if (x->op_summary.header)
		return 0;
	hdr = malloc(sizeof(hdr_op_summary) + NPA_MCOL_MAX * 64);
	if (!hdr)
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	e = npx_put(hdr, hwts ? hdr_op_summary_hwts : hdr_op_summary);
	*npa_metrics_header(m, e) = 0;
	/* the C++ path's names (op_summary_assembler.cpp BLOCK_NUM, MIX_BLOCK_NUM) */
	if (d->cfg.cpp.ok) {
		char *b = strstr(hdr, ",Block Dim,Mix Block Dim,");

		if (b)
			memcpy(b, ",Block Num,Mix Block Num,", strlen(",Block Num,Mix Block Num,"));
	}
	rc = npa_csv_set_header(&x->o, &x->op_summary, hdr);
	free(hdr);
	return rc;
}

/* the pure-Python path's op_summary of @d (AiCoreOpReport) */
static int op_summary_py(struct npa_export *x, const struct npa_dev *d, const struct npa_metrics *m)
{
	char start_tab[80], end[80], dur[40], wait[40];
	double prev_start = 0, prev_dur = 0;
	bool first = true, have_prev = false;
	size_t *comm = NULL, n_comm = d->comm.n_op, ci = 0;
	int rc = 0;

	if (n_comm) {
		comm = malloc(n_comm * sizeof(*comm));
		if (!comm)
			return npx_set_error(x->o.err, -ENOMEM, "out of memory");
		for (size_t k = 0; k < n_comm; k++)
			comm[k] = k;
		npx_qsort_r(comm, n_comm, sizeof(*comm), cmp_comm_start, d->comm.op);
	}
	for (size_t i = 0; !rc && i <= d->n_tasks; i++) {
		const struct npa_task *t = i < d->n_tasks ? &d->tasks[i] : NULL;
		const struct npa_op *op = t ? npa_task_op(&x->host, t) : NULL;
		double gap;

		if (t && !op)
			continue;
		/* the collectives that start before this row (msprof's stable sort by start) */
		while (!rc && ci < n_comm) {
			const struct npa_comm_op *o = &d->comm.op[comm[ci]];
			double cs = trunc(o->start), cd = trunc(o->end - o->start);
			struct npa_task ct = { .start = cs, .dur = cd };

			if (t && !(cs < t->start))
				break;
			gap = have_prev ? cs - prev_start - prev_dur : 0;
			have_prev = true;
			prev_start = cs;
			prev_dur = cd;
			ci++;
			task_times(d, &ct, start_tab, end);
			if (!after_begin(start_tab, end, d->cfg.clock.begin))
				continue;
			*npa_py_repr(dur, npa_py_round(cd / 1000.0, 3)) = 0;
			if (first)
				strcpy(wait, "0");
			else
				*npa_py_repr(wait, npa_py_round((gap > 0 ? gap : 0) / 1000.0, 3)) =
					0;
			first = false;
			rc = comm_row(x, o, d->cfg.id, start_tab, dur, wait);
		}
		if (!t || rc)
			break;
		/* the wait chain runs over every row, before the time filter */
		gap = have_prev ? t->start - prev_start - prev_dur : 0;
		have_prev = true;
		prev_start = t->start;
		prev_dur = t->dur;
		task_times(d, t, start_tab, end);
		if (!after_begin(start_tab, end, d->cfg.clock.begin))
			continue;
		*npa_py_repr(dur, npa_py_round(t->dur / 1000.0, 3)) = 0;
		if (first)
			strcpy(wait, "0"); /* an int in msprof: no ".0" */
		else
			*npa_py_repr(wait, npa_py_round((gap > 0 ? gap : 0) / 1000.0, 3)) = 0;
		first = false;
		rc = op_row(x, d, m, t, op, start_tab, dur, wait, t->dur);
	}
	free(comm);
	return rc;
}

/* one row of the C++ path's op_summary, before its sort */
struct cpp_row {
	char start[32]; /* the Task Start Time cell, without its TAB */
	char dur[32];
	size_t idx; /* the task, or the collective with @comm */
	bool comm;
};

static int cmp_cpp_row(const void *a, const void *b)
{
	const struct cpp_row *x = a, *y = b;
	int c = strcmp(x->start, y->start);

	/* std::sort by the start string; equal starts keep their order here */
	if (c)
		return c;
	if (x->comm != y->comm)
		return x->comm ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The C++ path's times of @d's collectives into @out[op] (false in @have
 * for one with no master task): its first master task's start, and the end
 * of the one that ends last (communication_info_processor.cpp)
 */
static int comm_cpp_times(struct npa_export *x, const struct npa_dev *d, struct npa_cpp_time *out,
			  bool *have)
{
	struct npa_cpp_time *first, *last;

	first = calloc(2 * (d->comm.n_op + 1), sizeof(*first));
	if (!first)
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	last = first + d->comm.n_op + 1;
	for (size_t i = 0; i < d->comm.n; i++) {
		const struct npa_comm_task *c = &d->comm.t[i];
		struct npa_cpp_time t;

		if (c->op >= d->comm.n_op || !c->h->master)
			continue;
		npa_cpp_task_ns(&d->cfg.cpp, c->start_cnt, c->end_cnt, &t);
		if (!have[c->op] || t.start_d < first[c->op].start_d)
			first[c->op] = t;
		if (!have[c->op] || t.start_d + t.dur_d > last[c->op].start_d + last[c->op].dur_d)
			last[c->op] = t;
		have[c->op] = true;
	}
	for (size_t k = 0; k < d->comm.n_op; k++) {
		/* HPFloat(first start); HPFloat(last start) + HPFloat(last duration) */
		__int128 s6 = npa_cpp_micro(first[k].start_d);
		__int128 e6 = npa_cpp_micro(last[k].start_d) + npa_cpp_micro(last[k].dur_d);

		out[k].start = (uint64_t)(s6 / 1000000) + d->cfg.cpp.local;
		out[k].end = (uint64_t)(e6 / 1000000) + d->cfg.cpp.local;
	}
	free(first);
	return 0;
}

/*
 * The C++ path's op_summary of @d (op_summary_assembler.cpp): the rows of
 * the tasks it keeps (none that ended before the collection began) and of
 * the collectives, sorted by their start strings; the wait of a row is its
 * start less the row before's start and duration, as the doubles those
 * strings parse to (std::to_string), across devices.
 */
static int op_summary_cpp(struct npa_export *x, const struct npa_dev *d,
			  const struct npa_metrics *m)
{
	struct npa_cpp_time *ops;
	struct cpp_row *rows;
	size_t n = 0;
	bool *have;
	int rc;

	rows = malloc((d->n_tasks + d->comm.n_op + 1) * sizeof(*rows));
	ops = calloc(d->comm.n_op + 1, sizeof(*ops));
	have = calloc(d->comm.n_op + 1, sizeof(*have));
	if (!rows || !ops || !have) {
		free(rows);
		free(ops);
		free(have);
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	}
	rc = comm_cpp_times(x, d, ops, have);
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct npa_task *t = &d->tasks[i];
		struct npa_cpp_time ct;

		if (!npa_task_op(&x->host, t))
			continue;
		npa_cpp_task_ns(&d->cfg.cpp, t->start_cnt, t->end_cnt, &ct);
		if (npa_cpp_before_start(&d->cfg.cpp, &ct))
			continue;
		*npa_cpp_us(rows[n].start, ct.start) = 0;
		*npa_cpp_us(rows[n].dur, ct.end - ct.start) = 0;
		rows[n].idx = i;
		rows[n++].comm = false;
	}
	for (size_t k = 0; !rc && k < d->comm.n_op; k++) {
		if (d->comm.op[k].hop < 0 || !have[k])
			continue;
		*npa_cpp_us(rows[n].start, ops[k].start) = 0;
		*npa_cpp_us(rows[n].dur, ops[k].end - ops[k].start) = 0;
		rows[n].idx = k;
		rows[n++].comm = true;
	}
	qsort(rows, n, sizeof(*rows), cmp_cpp_row);
	for (size_t i = 0; i < n && !rc; i++) {
		char start_tab[40], wait[400];
		double s = strtod(rows[i].start, NULL), du = strtod(rows[i].dur, NULL);

		if (x->cpp_have_prev) {
			double w = s - x->cpp_prev_start - x->cpp_prev_dur;

			*npa_cpp_to_string(wait, w > 0.0 ? w : 0.0) = 0;
		} else {
			strcpy(wait, "0");
		}
		x->cpp_have_prev = true;
		x->cpp_prev_start = s;
		x->cpp_prev_dur = du;
		snprintf(start_tab, sizeof(start_tab), "%s\t", rows[i].start);
		if (rows[i].comm) {
			rc = comm_row(x, &d->comm.op[rows[i].idx], d->cfg.id, start_tab,
				      rows[i].dur, wait);
		} else {
			const struct npa_task *t = &d->tasks[rows[i].idx];

			rc = op_row(x, d, m, t, npa_task_op(&x->host, t), start_tab, rows[i].dur,
				    wait, du);
		}
	}
	free(rows);
	free(ops);
	free(have);
	return rc;
}

int npa_op_summary(struct npa_export *x, const struct npa_dev *d)
{
	struct npa_metrics m;
	int rc;

	npa_metrics_init(&m, &d->cfg, &x->w);
	rc = set_op_summary_header(x, d, &m);
	if (rc)
		return rc;
	return d->cfg.cpp.ok ? op_summary_cpp(x, d, &m) : op_summary_py(x, d, &m);
}

/*
 * task_time's kernel_type of a device task with no host task: the name of
 * its SQE type (msprof's SqeType of the chip: STARS, or HWTS on chips 1-4),
 * "Other" for one the enum lacks and for every task on chip 1
 * (TaskTimeViewer.get_device_task_type); an FFTS+ subtask's, its subtask
 * type's (StarsConstant.SUBTASK_TYPE)
 */
const char *npa_sqe_name(uint32_t sqe, bool sub, uint32_t chip)
{
	static const char *const stars[] = {
		"AI_CORE",	    "AI_CPU",	      "AIV_SQE",	   "PLACE_HOLDER_SQE",
		"EVENT_RECORD_SQE", "EVENT_WAIT_SQE", "NOTIFY_RECORD_SQE", "NOTIFY_WAIT_SQE",
		"WRITE_VALUE_SQE",  "VQ6_SQE",	      "TOF_SQE",	   "SDMA_SQE",
		"VPC_SQE",	    "JPEGE_SQE",      "JPEGD_SQE",	   "DSA_SQE",
		"ROCCE_SQE",	    "PCIE_DMA_SQE",   "HOST_CPU_SQE",	   "CDQM_SQE",
		"C_CORE_SQE",
	};
	static const char *const hwts[] = {
		"AI_CORE",	    "AI_CPU",	      "AIV_SQE",	   "PLACE_HOLDER_SQE",
		"EVENT_RECORD_SQE", "EVENT_WAIT_SQE", "NOTIFY_RECORD_SQE", "NOTIFY_WAIT_SQE",
		"WRITE_VALUE_SQE",  "SDMA_SQE",	      "MAX_SQE",
	};

	static const char *const subtask[] = {
		"AIC",
		"AIV",
		"2",
		"Notify Wait",
		"Notify Record",
		"Write Value",
		"MIX_AIC",
		"MIX_AIV",
		"SDMA",
		"Data Context",
		"Invalidate Data Context",
		"Writeback Data Context",
		"AI_CPU",
		"Load Context",
		"14",
		"DSA",
	};

	if (sub)
		return sqe < NPX_ARRAY_SIZE(subtask) ? subtask[sqe] : "Other";
	if (npf_chip_has(chip, NPF_CHIP_SQE_OTHER))
		return "Other";
	if (npf_chip_has(chip, NPF_CHIP_HWTS))
		return sqe < NPX_ARRAY_SIZE(hwts) ? hwts[sqe] : "Other";
	return sqe < NPX_ARRAY_SIZE(stars) ? stars[sqe] : "Other";
}

struct tt_row {
	char start_tab[48];
	char end_tab[48]; /* the C++ path's; the pure-Python one's is computed at print */
	char dur[32];
	size_t task;
};

static int cmp_tt(const void *a, const void *b)
{
	const struct tt_row *x = a, *y = b;
	int c = strcmp(x->start_tab, y->start_tab);

	if (c)
		return c;
	return x->task < y->task ? -1 : x->task > y->task;
}

int npa_task_time(struct npa_export *x, const struct npa_dev *d)
{
	bool cpp = d->cfg.cpp.ok;
	struct tt_row *rows;
	size_t n = 0;
	int rc = 0;

	if (!x->task_time.header) {
		rc = npa_csv_set_header(&x->o, &x->task_time, NPA_HDR_TASK_TIME);
		if (rc)
			return rc;
	}
	rows = malloc((d->n_tasks ? d->n_tasks : 1) * sizeof(*rows));
	if (!rows)
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct npa_task *t = &d->tasks[i];
		char end[80];

		/* a mix op's ACSQ task: its FFTS+ context's row stands for it */
		if (t->shadowed)
			continue;
		if (cpp) {
			/* task_time_assembler.cpp: the whole ns, the stored duration's */
			struct npa_cpp_time ct;

			npa_cpp_task_ns(&d->cfg.cpp, t->start_cnt, t->end_cnt, &ct);
			if (npa_cpp_before_start(&d->cfg.cpp, &ct))
				continue;
			strcpy(npa_cpp_us(rows[n].start_tab, ct.start), "\t");
			strcpy(npa_cpp_us(rows[n].end_tab, ct.end), "\t");
			*npa_cpp_us(rows[n].dur, ct.dur_d > 0 ? (uint64_t)ct.dur_d : 0) = 0;
			rows[n++].task = i;
			continue;
		}
		task_times(d, t, rows[n].start_tab, end);
		if (!after_begin(rows[n].start_tab, end, d->cfg.clock.begin))
			continue;
		rows[n++].task = i;
	}
	/* msprof sorts task_time by the task_start string (both paths) */
	npx_qsort(rows, n, sizeof(*rows), cmp_tt);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct npa_task *t = &d->tasks[rows[i].task];
		const struct npa_htask *h = t->host >= 0 ? &x->host.htask[t->host] : NULL;
		const struct npa_op *op = npa_task_op(&x->host, t);
		const char *kname, *ktype;
		char *p;

		/*
		 * The C++ path makes a mix kernel's context-0 host task only from
		 * its context_id_info, which an op with no node records lacks
		 */
		if (cpp && t->ctx != NPA_NO_CTX && (!op || op->level0)) {
			h = NULL;
			op = NULL;
		}
		kname = h ? h->kernel : op ? op->name : "N/A";
		/* a level-0 op has no task type: the host task's (msprof's default) */
		ktype = op && !op->level0 ? npa_ge_task_type_name(op->task_type)
			: h		  ? h->type
					  : npa_sqe_name(t->sqe, t->sub, d->cfg.chip_id);

		rc = npa_csv_begin(&x->o, &x->task_time, &p);
		if (!rc)
			rc = npa_file_reserve(&x->o, &x->task_time.f,
					      npa_row_room(strlen(kname) + strlen(ktype)), &p);
		if (rc)
			break;
		p = npa_fmt_u64(p, d->cfg.id);
		*p++ = ',';
		p = npa_csv_field(p, kname, 4096);
		*p++ = ',';
		p = npa_csv_field(p, ktype, 4096);
		*p++ = ',';
		p = npa_fmt_u64(p, t->stream);
		*p++ = ',';
		p = npa_fmt_u64(p, t->task);
		*p++ = ',';
		if (cpp)
			p = npx_put(p, rows[i].dur);
		else
			p = npa_py_repr(p, npa_py_round(t->dur / 1000.0, 3));
		*p++ = ',';
		p = npx_put(p, rows[i].start_tab);
		*p++ = ',';
		if (cpp)
			p = npx_put(p, rows[i].end_tab);
		else
			p = local_tab(p, t->start + t->dur, d->cfg.clock.offset);
		npa_csv_end(&x->task_time, p);
	}
	free(rows);
	return rc;
}
