// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: op_statistic, communication_statistic, api_statistic.
 *
 * Durations are aggregated as integer nanoseconds (count, sum, min, max,
 * sum of squares) and printed as 3-decimal microseconds; Avg is the sum
 * over the count rounded to the nanosecond, Ratio(%) the share of the
 * group's total in thousandths of a percent, Variance the population
 * variance in us^2 (3 decimals). The tables hold one entry per distinct
 * key (op type, API), never one per task.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "npuprof_internal.h"

const struct npx_name *npx_task_type(uint32_t type)
{
	static const struct npx_name names[VNPU_TASK_TYPE_COUNT + 1] = {
		[VNPU_TASK_AI_CORE] = NPX_NAME("AI_CORE"),
		[VNPU_TASK_AI_VECTOR_CORE] = NPX_NAME("AI_VECTOR_CORE"),
		[VNPU_TASK_MIX_AIC] = NPX_NAME("MIX_AIC"),
		[VNPU_TASK_MIX_AIV] = NPX_NAME("MIX_AIV"),
		[VNPU_TASK_AI_CPU] = NPX_NAME("AI_CPU"),
		[VNPU_TASK_COMMUNICATION] = NPX_NAME("COMMUNICATION"),
		[VNPU_TASK_TYPE_COUNT] = NPX_NAME("UNKNOWN"),
	};

	return &names[type < VNPU_TASK_TYPE_COUNT ? type : VNPU_TASK_TYPE_COUNT];
}

const char *npx_task_type_name(uint32_t type)
{
	return npx_task_type(type)->s;
}

const char *npx_comm_op_type(uint32_t op)
{
	static const char *const names[VNPU_COMM_OP_COUNT] = {
		[VNPU_COMM_ALLREDUCE] = "hcom_allReduce_",
		[VNPU_COMM_ALLGATHER] = "hcom_allGather_",
		[VNPU_COMM_REDUCESCATTER] = "hcom_reduceScatter_",
		[VNPU_COMM_BROADCAST] = "hcom_broadcast_",
		[VNPU_COMM_SEND] = "hcom_send_",
		[VNPU_COMM_RECV] = "hcom_receive_",
	};

	return op < VNPU_COMM_OP_COUNT ? names[op] : "hcom_unknown_";
}

/*
 * The columns of a duration aggregate: ",Count,Total,Min,Avg,Max"
 * (op_statistic, communication_statistic) or ",Time,Count,Avg,Min,Max"
 * (api_statistic, @api).
 */
static char *npx_agg_cols(char *p, const struct npx_agg *a, bool api)
{
	uint64_t avg = a->count ? (uint64_t)npx_div_round(a->total, a->count) : 0;

	*p++ = ',';
	if (api) {
		p = npx_fmt_milli(p, a->total);
		*p++ = ',';
		p = npx_fmt_u64(p, a->count);
		*p++ = ',';
		p = npx_fmt_milli(p, avg);
		*p++ = ',';
		p = npx_fmt_milli(p, a->min);
	} else {
		p = npx_fmt_u64(p, a->count);
		*p++ = ',';
		p = npx_fmt_milli(p, a->total);
		*p++ = ',';
		p = npx_fmt_milli(p, a->min);
		*p++ = ',';
		p = npx_fmt_milli(p, avg);
	}
	*p++ = ',';
	return npx_fmt_milli(p, a->max);
}

/* ",ratio" in percent with 3 decimals */
static char *npx_ratio_col(char *p, uint64_t part, npx_u128 whole)
{
	*p++ = ',';
	return npx_fmt_milli(p, npx_div_round((npx_u128)part * 100000, whole));
}

/* ---- op_statistic ---- */

/**
 * struct npx_opstat_ent - one (OP Type, Core Type) of a device
 * @used: the slot holds an entry.
 * @task_type: enum vnpu_task_type.
 * @hash: of the key.
 * @op_type: NUL-terminated.
 * @agg: durations.
 */
struct npx_opstat_ent {
	bool used;
	uint32_t task_type;
	uint64_t hash;
	char op_type[VNPU_OP_TYPE_LEN];
	struct npx_agg agg;
};

static uint64_t npx_hash(const char *s, uint32_t extra)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ extra;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static int npx_opstat_grow(struct npx_opstat *m, struct npuprof_error *err)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct npx_opstat_ent *ent = calloc(cap, sizeof(*ent));

	if (!ent)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->ent[i].used)
			continue;
		for (j = m->ent[i].hash & (cap - 1); ent[j].used; j = (j + 1) & (cap - 1))
			;
		ent[j] = m->ent[i];
	}
	free(m->ent);
	m->ent = ent;
	m->cap = cap;
	return 0;
}

int npx_opstat_add(struct npx_opstat *m, const char *op_type, uint32_t task_type, uint64_t dur_ns,
		   struct npuprof_error *err)
{
	uint64_t h = npx_hash(op_type, task_type);
	size_t j;
	int rc;

	if (m->n * 2 >= m->cap) {
		rc = npx_opstat_grow(m, err);
		if (rc)
			return rc;
	}
	for (j = h & (m->cap - 1); m->ent[j].used; j = (j + 1) & (m->cap - 1)) {
		struct npx_opstat_ent *e = &m->ent[j];

		if (e->hash == h && e->task_type == task_type && !strcmp(e->op_type, op_type)) {
			npx_agg_add(&e->agg, dur_ns);
			return 0;
		}
	}
	m->ent[j].used = true;
	m->ent[j].hash = h;
	m->ent[j].task_type = task_type;
	snprintf(m->ent[j].op_type, sizeof(m->ent[j].op_type), "%s", op_type);
	memset(&m->ent[j].agg, 0, sizeof(m->ent[j].agg));
	npx_agg_add(&m->ent[j].agg, dur_ns);
	m->n++;
	return 0;
}

static int npx_opstat_cmp(const void *a, const void *b)
{
	const struct npx_opstat_ent *x = a, *y = b;
	int c;

	if (x->used != y->used)
		return x->used ? -1 : 1;
	if (x->agg.total != y->agg.total)
		return x->agg.total > y->agg.total ? -1 : 1;
	c = strcmp(x->op_type, y->op_type);
	if (c)
		return c;
	return x->task_type < y->task_type ? -1 : x->task_type > y->task_type;
}

int npx_opstat_flush(struct npx_out *o, struct npx_csv *c, struct npx_opstat *m, uint32_t dev_id)
{
	npx_u128 whole = 0;
	size_t i;
	char *p;
	int rc;

	if (!m->n)
		return 0;
	/* sort the slots in place: used ones first, by Total Time descending */
	qsort(m->ent, m->cap, sizeof(*m->ent), npx_opstat_cmp);
	for (i = 0; i < m->n; i++)
		whole += m->ent[i].agg.total;
	for (i = 0; i < m->n; i++) {
		const struct npx_opstat_ent *e = &m->ent[i];

		rc = npx_csv_begin(o, c, &p);
		if (rc)
			return rc;
		p = npx_fmt_u64(p, dev_id);
		*p++ = ',';
		p = npx_csv_name(p, e->op_type, sizeof(e->op_type));
		*p++ = ',';
		p = npx_put_name(p, npx_task_type(e->task_type));
		p = npx_agg_cols(p, &e->agg, false);
		p = npx_ratio_col(p, e->agg.total, whole);
		npx_csv_end(c, p);
	}
	memset(m->ent, 0, m->cap * sizeof(*m->ent));
	m->n = 0;
	return 0;
}

void npx_opstat_free(struct npx_opstat *m)
{
	free(m->ent);
	m->ent = NULL;
	m->cap = 0;
	m->n = 0;
}

/* ---- communication_statistic ---- */

int npx_commstat_flush(struct npx_out *o, struct npx_csv *c, struct npx_commstat *m,
		       uint32_t dev_id)
{
	unsigned int order[VNPU_COMM_OP_COUNT + 1] = { 0 }, n = 0, i, j;
	npx_u128 whole = 0;
	char *p;
	int rc;

	for (i = 0; i <= VNPU_COMM_OP_COUNT; i++) {
		if (!m->op[i].count)
			continue;
		whole += m->op[i].total;
		/* insertion sort by Total Time descending */
		for (j = n; j && m->op[order[j - 1]].total < m->op[i].total; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	for (i = 0; i < n; i++) {
		const struct npx_agg *a = &m->op[order[i]];

		rc = npx_csv_begin(o, c, &p);
		if (rc)
			return rc;
		p = npx_fmt_u64(p, dev_id);
		*p++ = ',';
		p = npx_put(p, npx_comm_op_type(order[i]));
		p = npx_agg_cols(p, a, false);
		p = npx_ratio_col(p, a->total, whole);
		npx_csv_end(c, p);
	}
	memset(m, 0, sizeof(*m));
	return 0;
}

/* ---- api_statistic ---- */

const char *npx_api_name(uint32_t level, uint32_t id, char *buf, size_t len)
{
	static const char *const rt[VNPU_RT_API_COUNT] = {
		[VNPU_RT_STREAM_CREATE] = "VNPU_IOC_STREAM_CREATE",
		[VNPU_RT_STREAM_DESTROY] = "VNPU_IOC_STREAM_DESTROY",
		[VNPU_RT_SUBMIT] = "VNPU_IOC_SUBMIT",
		[VNPU_RT_SYNC] = "VNPU_IOC_SYNC",
	};
	const char *name = NULL;

	if (level == NPX_LEVEL_ACL)
		name = npuprof_api_name(id);
	else if (id < VNPU_RT_API_COUNT)
		name = rt[id];
	if (name)
		return name;
	snprintf(buf, len, "%s_api_%u", level == NPX_LEVEL_ACL ? "npuprof" : "vnpu", id);
	return buf;
}

int npx_apistat_add(struct npx_apistat *m, uint32_t level, uint32_t id, uint64_t dur_ns,
		    struct npuprof_error *err)
{
	struct npx_apistat_ent *e;
	size_t i;

	for (i = 0; i < m->n; i++) {
		e = &m->ent[i];
		if (e->level == level && e->id == id) {
			npx_agg_add(&e->agg, dur_ns);
			return 0;
		}
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;

		/* bounded: ids are 32-bit, but a run uses a handful */
		e = realloc(m->ent, cap * sizeof(*e));
		if (!e)
			return npuprof_set_error(err, -ENOMEM, "out of memory");
		m->ent = e;
		m->cap = cap;
	}
	e = &m->ent[m->n++];
	memset(e, 0, sizeof(*e));
	e->level = level;
	e->id = id;
	npx_agg_add(&e->agg, dur_ns);
	return 0;
}

static int npx_apistat_cmp(const void *a, const void *b)
{
	const struct npx_apistat_ent *x = a, *y = b;

	if (x->agg.total != y->agg.total)
		return x->agg.total > y->agg.total ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Population variance in thousandths of us^2:
 * (n * sumsq - sum^2) / n^2 ns^2 = that / 10^6 us^2, times 1000.
 */
static npx_u128 npx_variance_milli(const struct npx_agg *a)
{
	npx_u128 n = a->count, s = a->total, num;

	if (a->count < 2)
		return 0;
	/* n * sumsq may not fit for absurd inputs: saturate */
	if (a->sumsq > (~(npx_u128)0) / n)
		return ~(npx_u128)0 / 1000;
	num = n * a->sumsq - s * s;
	return npx_div_round(num, n * n * 1000);
}

int npx_apistat_write(struct npx_out *o, struct npx_csv *c, struct npx_apistat *m)
{
	static const char *const levels[] = { "AscendCL", "Runtime" };
	char name[48];
	size_t i;
	char *p;
	int rc;

	if (m->n)
		qsort(m->ent, m->n, sizeof(*m->ent), npx_apistat_cmp);
	for (i = 0; i < m->n; i++) {
		const struct npx_apistat_ent *e = &m->ent[i];

		rc = npx_csv_begin(o, c, &p);
		if (rc)
			return rc;
		p = npx_lit(p, "host,");
		p = npx_put(p, levels[e->level == NPX_LEVEL_RUNTIME]);
		*p++ = ',';
		p = npx_put(p, npx_api_name(e->level, e->id, name, sizeof(name)));
		p = npx_agg_cols(p, &e->agg, true);
		*p++ = ',';
		p = npx_fmt_milli(p, npx_variance_milli(&e->agg));
		npx_csv_end(c, p);
	}
	return 0;
}

void npx_apistat_free(struct npx_apistat *m)
{
	free(m->ent);
	m->ent = NULL;
	m->n = 0;
	m->cap = 0;
}
