// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: what msprof writes of the collectives of the real
 * layout besides op_summary and the timeline (docs/output.md,
 * "Collectives and clusters"):
 *
 *   communication_statistic_{ts}.csv  per device and op type, the executed
 *        collectives after the collection start (HcclCalculator's
 *        HcclOpReport, viewer/hccl_op_report.py)
 *
 * (analyze/communication.json and communication_matrix.json: ascend_analyze.c.)
 * A folder without collectives gets no report, as msprof writes none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/cpp_umap.h"

static const char hdr_comm_stat[] = "Device_id,OP Type,Count,Total Time(us),Min Time(us),"
				    "Avg Time(us),Max Time(us),Ratio(%)";

struct op_stat {
	const char *type;
	uint64_t count;
	double total, min, max;
};

/* an executed collective counted in the report: its type and duration */
struct op_ent {
	const char *type;
	double dur;
	char *key; /* the C++ path's: "{op name}-{launch begin}-{type}" */
};

/*
 * msprof's order: its report sorts the op types, in the order they first
 * appear, by Max Time descending (Python's sort, stable), and the viewer's
 * SQL orders that by Total Time descending (SQLite's sorter keeps ties in
 * table order). So: Total, then Max, descending, then first appearance:
 * a stable insertion sort (a handful of op types).
 */
static bool before(const struct op_stat *x, const struct op_stat *y)
{
	if (x->total != y->total)
		return x->total > y->total;
	return x->max > y->max;
}

static void sort_stable(struct op_stat *st, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct op_stat v = st[i];
		size_t j = i;

		for (; j && before(&v, &st[j - 1]); j--)
			st[j] = st[j - 1];
		st[j] = v;
	}
}

/*
 * The C++ path's order (HcclCalculator::GetHcclStatisticsData): the ops
 * are grouped in a std::unordered_map by "{name}-{launch begin}-{type}",
 * whose iteration order sums them into a second one by type, whose
 * iteration order is sorted by ratio, descending, with std::sort (an
 * insertion sort for 16 types or fewer: ties keep their place). @order
 * gets the first map's order of @ents.
 */
static int cpp_order(const struct op_ent *ents, size_t n, size_t *order)
{
	const char **keys = malloc((n + 1) * sizeof(*keys));
	int rc;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		keys[i] = ents[i].key;
	rc = npa_cpp_umap_order(keys, n, order);
	free(keys);
	return rc;
}

/* @st[0..n), its types in first-seen order, into the C++ path's row order */
static int cpp_sort(struct op_stat *st, size_t n, double sum)
{
	const char **keys = malloc((n + 1) * sizeof(*keys));
	size_t *order = malloc((n + 1) * sizeof(*order));
	struct op_stat *v = malloc((n + 1) * sizeof(*v));
	int rc = -ENOMEM;

	if (keys && order && v) {
		for (size_t i = 0; i < n; i++)
			keys[i] = st[i].type;
		rc = npa_cpp_umap_order(keys, n, order);
	}
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			v[i] = st[order[i]];
		/* by ratio, descending, ties in place */
		for (size_t i = 1; i < n; i++) {
			struct op_stat e = v[i];
			size_t j = i;

			for (; j && e.total / sum * 100 > v[j - 1].total / sum * 100; j--)
				v[j] = v[j - 1];
			v[j] = e;
		}
		memcpy(st, v, n * sizeof(*st));
	}
	free(keys);
	free(order);
	free(v);
	return rc;
}

/* sqlite's round(ns / 1000.0, 3), as Python prints it or, @cpp, DoubleToStr() */
static char *us3(char *p, double ns, bool cpp)
{
	double v = npa_sqlite_round(ns / 1000.0, 3);

	return cpp ? npa_cpp_fixed3(p, v) : npa_py_repr(p, v);
}

int npa_comm_statistic(struct npa_export *x, const struct npa_dev *d)
{
	bool cpp = d->cfg.cpp.ok;
	const struct npa_comm *c = &d->comm;
	struct op_stat *st;
	struct op_ent *ents;
	size_t *order;
	bool *seen;
	size_t n = 0, ne = 0;
	double sum = 0;
	bool valid = false;
	int rc = 0;

	for (size_t i = 0; i < c->n; i++)
		valid |= strcmp(x->host.hops[c->t[i].hop].type, "N/A") != 0;
	/* msprof writes no report when no collective has an op type */
	if (!c->n_op || !valid)
		return 0;
	st = calloc(c->n_op, sizeof(*st));
	seen = calloc(c->n_op, sizeof(*seen));
	ents = calloc(c->n_op, sizeof(*ents));
	order = calloc(c->n_op, sizeof(*order));
	if (!st || !seen || !ents || !order) {
		free(st);
		free(seen);
		free(ents);
		free(order);
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	}
	/*
	 * the ops in the order of their first counted master task, by host
	 * then device time (msprof's communication_data), for the order of ties
	 */
	for (size_t i = 0; !rc && i < c->n; i++) {
		const struct npa_comm_task *t = &c->t[i];
		const struct npa_comm_op *o = &c->op[t->op];
		struct op_ent *e = &ents[ne];

		if (!t->h->master || seen[t->op] || !o->stat || t->start < o->stat_start)
			continue;
		seen[t->op] = true;
		e->type = x->host.hops[o->hop].type;
		e->dur = o->stat_end - o->stat_start;
		if (cpp && asprintf(&e->key, "%s-%llu-%s", t->name,
				    (unsigned long long)x->host.hops[o->hop].begin, e->type) < 0) {
			e->key = NULL;
			rc = -ENOMEM;
		}
		ne++;
	}
	if (!rc && cpp)
		rc = cpp_order(ents, ne, order);
	for (size_t j = 0; !rc && j < ne; j++) {
		const struct op_ent *e = &ents[cpp ? order[j] : j];
		struct op_stat *s = NULL;

		for (size_t k = 0; k < n && !s; k++)
			if (!strcmp(st[k].type, e->type))
				s = &st[k];
		if (!s) {
			s = &st[n++];
			*s = (struct op_stat){ e->type, 0, 0, e->dur, e->dur };
		}
		s->count++;
		s->total += e->dur;
		if (e->dur < s->min)
			s->min = e->dur;
		if (e->dur > s->max)
			s->max = e->dur;
		sum += e->dur;
	}
	if (!rc && cpp)
		rc = cpp_sort(st, n, sum);
	else
		sort_stable(st, n);
	if (rc) {
		rc = npx_set_error(x->o.err, rc, "out of memory");
		goto out;
	}
	if (n && !x->comm_stat.header)
		rc = npa_csv_set_header(&x->o, &x->comm_stat, hdr_comm_stat);
	for (size_t k = 0; !rc && k < n; k++) {
		const struct op_stat *s = &st[k];
		double ratio = sum != 0 ? npa_py_round(s->total / sum * 100, 6) : 0;
		char *p;

		rc = npa_csv_begin(&x->o, &x->comm_stat, &p);
		if (!rc)
			rc = npa_file_reserve(&x->o, &x->comm_stat.f,
					      NPA_ROW_MAX + 2 * strlen(s->type), &p);
		if (rc)
			break;
		p = npa_fmt_u64(p, d->cfg.id);
		*p++ = ',';
		p = npa_csv_field(p, s->type, 4096);
		*p++ = ',';
		p = npa_fmt_u64(p, s->count);
		*p++ = ',';
		p = us3(p, s->total, cpp);
		*p++ = ',';
		p = us3(p, s->min, cpp);
		*p++ = ',';
		p = us3(p, s->total / (double)s->count, cpp);
		*p++ = ',';
		p = us3(p, s->max, cpp);
		*p++ = ',';
		p = cpp ? npa_cpp_fixed3(p, npa_sqlite_round(ratio, 3))
			: npa_py_repr(p, npa_sqlite_round(ratio, 3));
		npa_csv_end(&x->comm_stat, p);
	}
out:
	for (size_t j = 0; j < ne; j++)
		free(ents[j].key);
	free(ents);
	free(order);
	free(st);
	free(seen);
	return rc;
}
