// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: op_statistic and api_statistic of the real layout,
 * as msprof's parser writes them (docs/msprof-parser.md section 5): the
 * ops and the host's API calls, grouped, with their counts and times in
 * msprof's roundings (the op_summary and task_time they sum up:
 * ascend_summary.c). On chips 5, 15 and 16 (NPF_CHIP_CPP_PATH) what
 * msprof's C++ path writes instead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

/* ---- op_statistic ---- */

/*
 * A sum of durations as SQLite keeps it in an INTEGER column: integral
 * values are integers (and their sum and quotient integer arithmetic), any
 * other value makes the sum a REAL.
 */
struct sq_num {
	bool real;
	int64_t i;
	double r;
};

static struct sq_num sq_of(double v)
{
	if (v > -9.2e18 && v < 9.2e18 && v == (double)(int64_t)v)
		return (struct sq_num){ false, (int64_t)v, v };
	return (struct sq_num){ true, 0, v };
}

static double sq_val(struct sq_num a)
{
	return a.real ? a.r : (double)a.i;
}

static void sq_add(struct sq_num *s, struct sq_num v)
{
	/* SQLite turns an integer sum that overflows into a REAL, as here */
	if (!s->real && !v.real && !__builtin_add_overflow(s->i, v.i, &s->i)) {
		s->r = (double)s->i;
		return;
	}
	s->r = sq_val(*s) + sq_val(v);
	s->real = true;
}

struct opstat {
	const char *op_type;
	uint32_t task_type;
	uint64_t count;
	struct sq_num sum;
	double min, max;
	struct sq_num min_v, max_v;
	size_t first;
};

static int cmp_opstat_key(const void *a, const void *b)
{
	const struct opstat *x = a, *y = b;
	int c = strcmp(x->op_type, y->op_type);

	if (c)
		return c;
	return x->task_type < y->task_type ? -1 : x->task_type > y->task_type;
}

int npa_op_statistic(struct npa_export *x, const struct npa_dev *d)
{
	bool cpp = d->cfg.cpp.ok;
	struct opstat *st;
	double begin = npa_raw_begin_ns(&d->cfg), total = 0;
	size_t n = 0, i, j;
	int rc = 0;

	if (!x->op_stat.header) {
		rc = npa_csv_set_header(&x->o, &x->op_stat, NPA_HDR_OP_STAT);
		if (rc)
			return rc;
	}
	st = calloc(d->n_tasks ? d->n_tasks : 1, sizeof(*st));
	if (!st)
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	for (i = 0; i < d->n_tasks; i++) {
		const struct npa_task *t = &d->tasks[i];
		const struct npa_op *op = npa_task_op(&x->host, t);

		if (!op || !(t->start > begin) || !strcmp(op->type, "N/A") ||
		    op->task_type == CANN_GE_HCCL)
			continue;
		st[n].op_type = op->type;
		st[n].task_type = op->task_type;
		st[n].count = 1;
		st[n].sum = sq_of(t->dur);
		st[n].min_v = st[n].max_v = st[n].sum;
		st[n].first = i;
		n++;
	}
	/* GROUP BY op_type, task_type */
	npx_qsort(st, n, sizeof(*st), cmp_opstat_key);
	for (i = 0, j = 0; i < n; j++) {
		size_t k = i + 1;

		st[j] = st[i];
		for (; k < n && !cmp_opstat_key(&st[k], &st[i]); k++) {
			sq_add(&st[j].sum, st[k].sum);
			st[j].count++;
			if (sq_val(st[k].min_v) < sq_val(st[j].min_v))
				st[j].min_v = st[k].min_v;
			if (sq_val(st[k].max_v) > sq_val(st[j].max_v))
				st[j].max_v = st[k].max_v;
		}
		total += sq_val(st[j].sum);
		i = k;
	}
	n = j;
	/* sorted by ratio (total time) descending, ties in group order */
	for (i = 1; i < n; i++) {
		struct opstat v = st[i];

		for (j = i; j > 0 && sq_val(st[j - 1].sum) < sq_val(v.sum); j--)
			st[j] = st[j - 1];
		st[j] = v;
	}
	for (i = 0; i < n && !rc; i++) {
		struct opstat *s = &st[i];
		/* sum(duration)/count(op_type): SQLite's integer division for integers */
		double avg = s->sum.real ? s->sum.r / (double)s->count
					 : (double)(s->sum.i / (int64_t)s->count);
		double vals[4] = { sq_val(s->sum), sq_val(s->min_v), avg, sq_val(s->max_v) };
		double ratio = total > 0 ? npa_py_round(sq_val(s->sum) / total * 100, 6) : 0;
		char *p;

		rc = npa_csv_begin(&x->o, &x->op_stat, &p);
		if (!rc)
			rc = npa_file_reserve(&x->o, &x->op_stat.f,
					      npa_row_room(strlen(s->op_type)), &p);
		if (rc)
			break;
		p = npa_fmt_u64(p, d->cfg.id);
		*p++ = ',';
		p = npa_csv_field(p, s->op_type, 4096);
		*p++ = ',';
		p = npx_put(p, npa_ge_task_type_name(s->task_type));
		*p++ = ',';
		p = npa_fmt_u64(p, s->count);
		/* the C++ path prints the same rounded numbers with DoubleToStr() */
		for (int k = 0; k < 4; k++) {
			double v = npa_py_round(npa_py_round(vals[k], 6) / 1000.0, 3);

			*p++ = ',';
			p = cpp ? npa_cpp_fixed3(p, v) : npa_py_repr(p, v);
		}
		*p++ = ',';
		p = cpp ? npa_cpp_fixed3(p, npa_py_round(ratio, 3))
			: npa_py_repr(p, npa_py_round(ratio, 3));
		npa_csv_end(&x->op_stat, p);
	}
	free(st);
	return rc;
}

/* ---- api_statistic ---- */

/*
 * The calls that share an API Name and level make one row. A call's name
 * comes from its (level, type), or (level, item) at the levels named by
 * item: the calls are grouped by that key, and each group's name made once.
 */
struct api_group {
	uint32_t level;
	uint64_t v; /* type or item */
	char name[192];
	const char *level_name;
	size_t rank; /* the row: groups of the same name and level share it */
};

static bool api_by_item(uint32_t level)
{
	return !(level == CANN_LEVEL_ACL || level == CANN_LEVEL_RUNTIME ||
		 level == CANN_LEVEL_MODEL || level == CANN_LEVEL_NODE);
}

/* rows in SQLite's BINARY collation (bytes) of the name, then the level */
static int cmp_group(const void *a, const void *b)
{
	const struct api_group *x = *(const struct api_group *const *)a;
	const struct api_group *y = *(const struct api_group *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->level_name, y->level_name);
}

/* the API Name msprof shows for a call */
static void api_name(const struct npa_host *h, const struct npa_api *a, char *buf, size_t len)
{
	const char *s;

	if (!api_by_item(a->level)) {
		s = npa_dict_get(&h->types, (uint64_t)a->level << 32 | a->type);
		if (s)
			snprintf(buf, len, "%s", s);
		else
			snprintf(buf, len, "%u", a->type);
		return;
	}
	{
		char num[32];

		snprintf(buf, len, "%s", npa_hash_name(h, a->item, num, sizeof(num)));
	}
}

/* a call's group key: its level, and its item or type (api_by_item()) */
static uint64_t api_group_v(const struct npa_api *a)
{
	return api_by_item(a->level) ? a->item : a->type;
}

static uint64_t api_group_hash(uintptr_t key, void *ctx)
{
	const struct npa_api *a = (const struct npa_api *)key;

	(void)ctx;
	return npx_mix64(api_group_v(a) ^ (uint64_t)a->level << 48);
}

static bool api_group_equal(uintptr_t x, uintptr_t y, void *ctx)
{
	const struct npa_api *a = (const struct npa_api *)x, *b = (const struct npa_api *)y;

	(void)ctx;
	return a->level == b->level && api_group_v(a) == api_group_v(b);
}

/*
 * The calls' groups: @gid[i] for call i, @g[0..*n) the groups, in the
 * order of their first call. Returns 0 or -ENOMEM.
 */
static int api_groups(const struct npa_host *h, size_t *gid, struct api_group **g, size_t *n)
{
	/* a call's key is the call: the first of each group stands for it */
	struct npx_hmap first = NPX_HMAP_INIT(api_group_hash, api_group_equal, NULL);
	size_t cap_g = 0, i;
	int rc = 0;

	*g = NULL;
	*n = 0;
	for (i = 0; i < h->n_api; i++) {
		const struct npa_api *a = &h->api[i];
		uintptr_t *slot;
		bool added;

		slot = npx_hmap_slot(&first, (uintptr_t)a, &added);
		if (!slot || (added && npa_grow((void **)g, &cap_g, *n, sizeof(**g), 64))) {
			rc = -ENOMEM;
			break;
		}
		if (added) {
			struct api_group *e = &(*g)[*n];

			e->level = a->level;
			e->v = api_group_v(a);
			api_name(h, a, e->name, sizeof(e->name));
			e->level_name = npa_cann_level_lower(a->level);
			*slot = (*n)++;
		}
		gid[i] = *slot;
	}
	npx_hmap_free(&first);
	return rc;
}

/*
 * The C++ path's api_statistic row of the calls @idx[0..@n) (in file
 * order), api_statistic_assembler.cpp: the calls that end before the
 * collection began are left out (api_processor.cpp); each duration is its
 * ns printed with three decimals, read back and rounded to three places;
 * the sum and the extremes of those, the average and the variance rounded
 * to three places, each printed with DoubleToStr().
 */
static int api_row_cpp(struct npa_export *x, const struct npa_host *h, const size_t *idx, size_t n,
		       const struct api_group *row)
{
	double sum = 0, min = 0, max = 0, avg, var = 0, *us;
	size_t m = 0;
	char *p;
	int rc;

	us = malloc((n ? n : 1) * sizeof(*us));
	if (!us)
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		const struct npa_api *a = &h->api[idx[k]];
		char cell[40];

		if ((double)a->end < h->cfg.clock.mono_raw)
			continue;
		*npa_cpp_us(cell, a->end >= a->begin ? a->end - a->begin : 0) = 0;
		us[m] = round(strtod(cell, NULL) * 1000.0) / 1000.0;
		sum += us[m];
		if (!m || us[m] < min)
			min = us[m];
		if (!m || us[m] > max)
			max = us[m];
		m++;
	}
	if (!m) {
		free(us);
		return 0;
	}
	avg = round(sum / (double)m * 1000.0) / 1000.0;
	for (size_t k = 0; k < m; k++)
		var += (us[k] - avg) * (us[k] - avg);
	var = round(var / (double)m * 1000.0) / 1000.0;
	free(us);
	rc = npa_csv_begin(&x->o, &x->api_stat, &p);
	if (!rc)
		rc = npa_file_reserve(&x->o, &x->api_stat.f, npa_row_room(strlen(row->name)), &p);
	if (rc)
		return rc;
	p = npx_lit(p, "host,");
	p = npx_put(p, row->level_name);
	*p++ = ',';
	p = npa_csv_field(p, row->name, sizeof(row->name));
	*p++ = ',';
	p = npa_cpp_fixed3(p, sum);
	*p++ = ',';
	p = npa_fmt_u64(p, m);
	*p++ = ',';
	p = npa_cpp_fixed3(p, avg);
	*p++ = ',';
	p = npa_cpp_fixed3(p, min);
	*p++ = ',';
	p = npa_cpp_fixed3(p, max);
	*p++ = ',';
	p = npa_cpp_fixed3(p, var);
	npa_csv_end(&x->api_stat, p);
	return 0;
}

int npa_api_statistic(struct npa_export *x, const struct npa_dev *d)
{
	bool cpp = d->cfg.cpp.ok;
	const struct npa_host *h = &x->host;
	struct api_group *g = NULL, **by_name = NULL;
	size_t i, j, n_g = 0, n_rows = 0, *gid, *order = NULL, *start = NULL;
	int rc = 0;

	/* the C++ path writes the host's calls once, as the host's */
	if (!h->n_api || (cpp && d != &x->dev[0]))
		return 0;
	if (!x->api_stat.header) {
		rc = npa_csv_set_header(&x->o, &x->api_stat, NPA_HDR_API_STAT);
		if (rc)
			return rc;
	}
	gid = malloc(h->n_api * sizeof(*gid));
	order = malloc(h->n_api * sizeof(*order));
	if (!gid || !order || api_groups(h, gid, &g, &n_g))
		goto out_nomem;
	by_name = malloc(n_g * sizeof(*by_name));
	start = calloc(n_g + 1, sizeof(*start));
	if (!by_name || !start)
		goto out_nomem;
	for (i = 0; i < n_g; i++)
		by_name[i] = &g[i];
	npx_qsort(by_name, n_g, sizeof(*by_name), cmp_group);
	for (i = 0; i < n_g; i++) {
		if (i && cmp_group(&by_name[i - 1], &by_name[i]))
			n_rows++;
		by_name[i]->rank = n_rows;
	}
	n_rows += n_g > 0;
	/* the calls of each row, in file order: a counting sort on the rank */
	for (i = 0; i < h->n_api; i++)
		start[g[gid[i]].rank + 1]++;
	for (i = 0; i < n_rows; i++)
		start[i + 1] += start[i];
	for (i = 0; i < h->n_api; i++)
		order[start[g[gid[i]].rank]++] = i;

	for (i = 0, j = 0; i < n_rows && !rc; i++) {
		double sum = 0, min = 0, max = 0, avg, dev = 0;
		size_t first = j, n;
		const struct api_group *row = &g[gid[order[first]]];
		char *p;

		/* get_host_duration: ns * 1e6 / 1e9 */
#define API_US(k) ((double)(int64_t)(h->api[order[k]].end - h->api[order[k]].begin) * 1e6 / 1e9)
		for (; j < h->n_api && g[gid[order[j]]].rank == i; j++) {
			double us = API_US(j);

			sum += us;
			if (j == first || us < min)
				min = us;
			if (j == first || us > max)
				max = us;
		}
		n = j - first;
		if (cpp) {
			rc = api_row_cpp(x, h, order + first, n, row);
			continue;
		}
		sum = npa_py_round(sum, 3);
		avg = npa_py_round(sum / (double)n, 3);
		for (size_t k = first; k < j; k++)
			dev += npa_py_round((API_US(k) - avg) * (API_US(k) - avg), 3);
#undef API_US
		rc = npa_csv_begin(&x->o, &x->api_stat, &p);
		if (!rc)
			rc = npa_file_reserve(&x->o, &x->api_stat.f,
					      npa_row_room(strlen(row->name)), &p);
		if (rc)
			break;
		p = npa_fmt_u64(p, d->cfg.id);
		*p++ = ',';
		p = npx_put(p, row->level_name);
		*p++ = ',';
		p = npa_csv_field(p, row->name, sizeof(row->name));
		*p++ = ',';
		p = npa_py_repr(p, sum);
		*p++ = ',';
		p = npa_fmt_u64(p, n);
		*p++ = ',';
		p = npa_py_repr(p, avg);
		*p++ = ',';
		p = npa_py_repr(p, npa_py_round(min, 3));
		*p++ = ',';
		p = npa_py_repr(p, npa_py_round(max, 3));
		*p++ = ',';
		p = npa_py_repr(p, npa_py_round(dev / (double)n, 3));
		npa_csv_end(&x->api_stat, p);
	}
	goto out;
out_nomem:
	rc = npx_set_error(x->o.err, -ENOMEM, "out of memory");
out:
	free(start);
	free(by_name);
	free(g);
	free(order);
	free(gid);
	return rc;
}
