// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the Communication and Overlap Analysis layers of
 * msprof_{ts}.json as msprof's C++ path writes them (its
 * communication and overlap assemblers; the file and its other layers:
 * ascend_timeline_cpp.c, the writer's helpers: timeline_cpp.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/cpp_umap.h"
#include "export/timeline_cpp.h"

/* ---- Communication ---- */

/* an HCCL task as CommunicationTaskData has it */
struct comm_t {
	const struct npa_comm_task *ct;
	struct npa_cpp_time t;
	const char *group; /* its group's name: hash_dic's, or @digits */
	char digits[24]; /* the group hash's digits, when hash_dic lacks it */
	char *key; /* its collective's opKey: op name _ raw group _ device, owned */
};

struct comm_op {
	const char *key;
	const struct npa_comm_task *first; /* its first task */
	const char *group;
	bool have_end;
	uint64_t start, end; /* local ns */
	double first_start, last_end; /* the master tasks' doubles */
};

struct comm_group {
	const char *name;
	uint64_t planes; /* bit p: plane p */
	int32_t start;
};

static int cmp_comm_t(const void *a, const void *b)
{
	const struct comm_t *x = a, *y = b;

	if (x->t.start_d != y->t.start_d)
		return x->t.start_d < y->t.start_d ? -1 : 1;
	/* then their order in d->comm.t (host, then device time) */
	return x->ct < y->ct ? -1 : x->ct > y->ct;
}

/*
 * GetGroupNameValue(): a group's name, its hash's in hash_dic or its
 * digits (written into @t, which then must not move). The host is not
 * changed: the timeline is written while the CSVs read it.
 */
static void group_name(const struct npa_host *h, struct comm_t *t)
{
	const char *s = t->ct->have_group ? npa_dict_get(&h->hash, t->ct->group) : "N/A";

	if (!s) {
		snprintf(t->digits, sizeof(t->digits), "%llu", (unsigned long long)t->ct->group);
		s = t->digits;
	}
	t->group = s;
}

static struct comm_group *find_group(struct comm_group *g, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	return NULL;
}

/*
 * @py: the device's records were parsed by msprof's Python path (a v6 chip,
 * whose DeviceParseScene is not the C++ one): its bandwidth is Python's
 * (size x 10^-9) / (duration x 10^-9), which may differ from the C++ path's
 * size / duration in the last digit.
 */
static char *task_args(char *p, const struct npa_comm_task *ct, const struct npa_cpp_time *t,
		       bool py)
{
	const struct npa_hccl_task *h = ct->h;
	char b[32];
	double bw = 0;

	if ((py || h->rdma == 1) && ct->bw >= 0)
		bw = ct->bw; /* a payload's bandwidth: over its run of payloads */
	else if (!py && t->dur_d > 0)
		bw = (double)h->size / t->dur_d;
	p = npx_lit(p, "\"notify_id\":\"");
	p = npa_fmt_u64(p, h->notify);
	p = npx_lit(p, "\",\"duration estimated(us)\":");
	p = npa_cpp_double(p, h->dur_est);
	p = npx_lit(p, ",\"stream id\":");
	p = npa_fmt_u64(p, h->stream);
	p = npx_lit(p, ",\"task id\":");
	p = npa_fmt_u64(p, h->task);
	p = npx_lit(p, ",\"context id\":");
	p = npa_fmt_u64(p, h->ctx);
	p = npx_lit(p, ",\"task type\":");
	p = npa_tlc_str(p, h->name);
	p = npx_lit(p, ",\"src rank\":");
	p = npa_fmt_s64(p, h->local_rank);
	p = npx_lit(p, ",\"dst rank\":");
	p = npa_fmt_s64(p, h->remote_rank);
	p = npx_lit(p, ",\"transport type\":");
	p = npa_tlc_str(p, npa_hccl_transport(h->transport, b, sizeof(b)));
	p = npx_lit(p, ",\"size(Byte)\":");
	p = npa_fmt_u64(p, h->size);
	p = npx_lit(p, ",\"data type\":");
	p = npa_tlc_str(p, npa_hccl_data_type(h->data_type, b, sizeof(b)));
	p = npx_lit(p, ",\"link type\":");
	p = npa_tlc_str(p, npa_hccl_link_type(h->link_type, b, sizeof(b)));
	p = npx_lit(p, ",\"bandwidth(GB/s)\":");
	p = npa_cpp_double(p, bw);
	p = npx_lit(p, ",\"model id\":");
	p = npa_fmt_u64(p, NPA_NO_MODEL);
	return npx_lit(p, "}}");
}

static int op_event(struct npa_tlc *w, const struct comm_op *op, const struct comm_group *g,
		    uint32_t pid)
{
	const struct npa_host *h = &w->x->host;
	const struct npa_hccl_op *hop = op->first->hop >= 0 ? &h->hops[op->first->hop] : NULL;
	bool info = hop && hop->info;
	char b[32];
	int rc = npa_tlc_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	p = npa_tlc_x_head(p, op->first->name, pid, g->start, op->start,
			   (double)(op->end - op->start) / 1000);
	p = npx_lit(p, "\"rank_size\":");
	p = npa_fmt_s64(p, op->first->h->rank_size);
	p = npx_lit(p, ",\"connection_id\":");
	p = npa_fmt_u64(p, hop ? npa_tlc_conn(w, hop->conn) : NPA_TLC_NO_CONN);
	p = npx_lit(p, ",\"model id\":");
	p = npa_fmt_u64(p, NPA_NO_MODEL);
	p = npx_lit(p, ",\"data_type\":");
	p = npa_tlc_str(p, info ? npa_hccl_data_type(hop->data_type, b, sizeof(b)) : "N/A");
	p = npx_lit(p, ",\"alg_type\":");
	p = npa_tlc_str(p, info && hop->alg ? hop->alg : "N/A");
	p = npx_lit(p, ",\"count\":");
	if (info && hop->count != UINT64_MAX)
		p = npa_fmt_u64(p, hop->count);
	else
		p = npx_lit(p, "-1");
	p = npx_lit(p, ",\"relay\":");
	p = info && hop->relay == 1 ? npx_lit(p, "\"yes\"") : npx_lit(p, "\"no\"");
	p = npx_lit(p, ",\"retry\":");
	p = info && hop->retry == 1 ? npx_lit(p, "\"yes\"") : npx_lit(p, "\"no\"");
	p = npx_lit(p, "}}");
	w->p = p;
	npa_tlc_end(w);
	return 0;
}

/*
 * A device's collectives, as the C++ path has them: @ts its HCCL tasks by
 * start, @ops its collectives (one per opKey) in std::unordered_map order,
 * @g its groups, in the same order. Freed by comm_free().
 */
struct comm_dev {
	struct comm_t *ts;
	size_t n;
	struct comm_op *ops;
	size_t n_ops;
	struct comm_group *g;
	size_t ng;
};

static void comm_free(struct comm_dev *c)
{
	for (size_t i = 0; c->ts && i < c->n; i++)
		free(c->ts[i].key);
	free(c->ts);
	free(c->ops);
	free(c->g);
	memset(c, 0, sizeof(*c));
}

static int comm_build(struct npa_tlc *w, const struct npa_dev *d, struct comm_dev *c)
{
	const struct npa_host *h = &w->x->host;
	const char **keys = NULL;
	size_t *order = NULL;
	int rc = -ENOMEM;

	memset(c, 0, sizeof(*c));
	if (!d->comm.n)
		return 0;
	c->ts = calloc(d->comm.n, sizeof(*c->ts));
	c->ops = calloc(d->comm.n, sizeof(*c->ops));
	c->g = calloc(d->comm.n, sizeof(*c->g));
	keys = calloc(d->comm.n, sizeof(*keys));
	order = calloc(d->comm.n, sizeof(*order));
	if (!c->ts || !c->ops || !c->g || !keys || !order)
		goto out;
	for (size_t i = 0; i < d->comm.n; i++) {
		const struct npa_comm_task *ct = &d->comm.t[i];
		struct comm_t *t = &c->ts[c->n];
		char hb[24];

		npa_cpp_task_ns(&d->cfg.cpp, ct->start_cnt, ct->end_cnt, &t->t);
		if (t->t.start < d->cfg.cpp.begin_ns)
			continue;
		t->ct = ct;
		if (ct->have_group)
			snprintf(hb, sizeof(hb), "%llu", (unsigned long long)ct->group);
		else
			snprintf(hb, sizeof(hb), "N/A");
		if (asprintf(&t->key, "%s_%s_%u", ct->name, hb, d->cfg.id) < 0) {
			t->key = NULL;
			goto out;
		}
		c->n++;
	}
	qsort(c->ts, c->n, sizeof(*c->ts), cmp_comm_t);
	/* the names point into the tasks, which stay where they are from here */
	for (size_t i = 0; i < c->n; i++)
		group_name(h, &c->ts[i]);
	/* the collectives, by opKey in first-task order */
	for (size_t i = 0; i < c->n; i++) {
		struct comm_t *t = &c->ts[i];
		struct comm_op *op = NULL;

		for (size_t k = c->n_ops; k-- > 0;)
			if (!strcmp(c->ops[k].key, t->key)) {
				op = &c->ops[k];
				break;
			}
		if (!op) {
			op = &c->ops[c->n_ops++];
			op->key = t->key;
			op->first = t->ct;
			op->group = t->group;
			op->first_start = INFINITY;
		}
		if (t->ct->h->master) {
			if (t->t.start_d < op->first_start) {
				op->first_start = t->t.start_d;
				op->start = t->t.start;
			}
			if (!op->have_end || t->t.start_d + t->t.dur_d > op->last_end) {
				op->last_end = t->t.start_d + t->t.dur_d;
				op->end = t->t.end;
			}
			op->have_end = true;
		}
	}
	/* std::unordered_map<std::string, CommunicationOpData> order */
	for (size_t k = 0; k < c->n_ops; k++)
		keys[k] = c->ops[k].key;
	rc = npa_cpp_umap_order(keys, c->n_ops, order);
	if (rc)
		goto out;
	{
		struct comm_op *sorted = malloc((c->n_ops + 1) * sizeof(*sorted));

		if (!sorted) {
			rc = -ENOMEM;
			goto out;
		}
		for (size_t k = 0; k < c->n_ops; k++)
			sorted[k] = c->ops[order[k]];
		free(c->ops);
		c->ops = sorted;
	}
	/* the groups: planesTable then groupTable, both unordered_maps of the names */
	for (size_t i = 0; i < c->n; i++) {
		struct comm_group *g = find_group(c->g, c->ng, c->ts[i].group);
		int64_t plane = c->ts[i].ct->h->plane < 0 ? 0 : c->ts[i].ct->h->plane;

		if (!g) {
			g = &c->g[c->ng++];
			g->name = c->ts[i].group;
		}
		if (plane < 64)
			g->planes |= 1ull << plane;
	}
	for (size_t k = 0; k < c->ng; k++)
		keys[k] = c->g[k].name;
	rc = npa_cpp_umap_order(keys, c->ng, order);
	for (int twice = 0; !rc && twice < 2; twice++) {
		struct comm_group *sorted = malloc((c->ng + 1) * sizeof(*sorted));

		if (!sorted) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < c->ng; k++)
			sorted[k] = c->g[order[k]];
		free(c->g);
		c->g = sorted;
		/* groupTable's keys go in in planesTable's order */
		if (!twice) {
			for (size_t k = 0; k < c->ng; k++)
				keys[k] = c->g[k].name;
			rc = npa_cpp_umap_order(keys, c->ng, order);
		}
	}
out:
	free(keys);
	free(order);
	if (rc)
		comm_free(c);
	return rc;
}

int npa_tlc_communication(struct npa_tlc *w)
{
	const struct npa_export *x = w->x;
	int32_t index = 0;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = npa_tlc_pid(d->cfg.pid, NPA_TLC_SORT_COMM, d->cfg.id);
		struct comm_dev c;
		char label[32], name[4200];

		rc = comm_build(w, d, &c);
		if (rc || !c.n) {
			comm_free(&c);
			continue;
		}
		snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
		rc = npa_tlc_process(w, pid, "Communication", label, NPA_TLC_SORT_COMM);
		/* the running index is not reset between devices (GenerateMetaDataEvent) */
		for (size_t k = 0; !rc && k < c.ng; k++) {
			struct comm_group *g = &c.g[k];
			int32_t start = index;

			g->start = index;
			if (strcmp(g->name, "N/A"))
				snprintf(name, sizeof(name), "Group %.4000s Communication",
					 g->name);
			else
				snprintf(name, sizeof(name), "Communication");
			rc = npa_tlc_thread(w, pid, index, name, index);
			for (uint32_t p = 0; !rc && p < 64; p++) {
				if (!(g->planes >> p & 1))
					continue;
				snprintf(name, sizeof(name), "Plane %u", p);
				index = start + (int32_t)p + 1;
				rc = npa_tlc_thread(w, pid, index, name, index);
			}
			index++;
		}
		/* the tasks (none at level 0) */
		for (size_t i = 0; !rc && !x->host.cfg.level0 && i < c.n; i++) {
			const struct comm_t *t = &c.ts[i];
			const struct comm_group *g = find_group(c.g, c.ng, t->group);
			char *p;

			if (t->ct->h->plane < 0 || !g)
				continue;
			rc = npa_tlc_begin(w);
			if (rc)
				break;
			p = npa_tlc_x_head(w->p, t->ct->h->name, pid,
					   g->start + t->ct->h->plane + 1, t->t.start,
					   t->t.dur_d / 1000);
			w->p = task_args(p, t->ct, &t->t,
					 npf_chip_has(d->cfg.chip_id, NPF_CHIP_V6));
			npa_tlc_end(w);
		}
		/* the collectives, each with its flow's end */
		for (size_t k = 0; !rc && k < c.n_ops; k++) {
			const struct comm_op *op = &c.ops[k];
			const struct comm_group *g = find_group(c.g, c.ng, op->group);
			const struct npa_hccl_op *hop =
				op->first->hop >= 0 ? &x->host.hops[op->first->hop] : NULL;

			if (!op->have_end || !g)
				continue;
			rc = op_event(w, op, g, pid);
			if (!rc)
				rc = npa_tlc_flow(
					w, true, hop ? npa_tlc_conn(w, hop->conn) : NPA_TLC_NO_CONN,
					pid, g->start, op->start);
		}
		comm_free(&c);
	}
	return rc;
}

/* ---- Overlap Analysis ---- */

struct span {
	uint64_t s, e;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static int span_add(struct spans *l, uint64_t s, uint64_t e)
{
	if (npa_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v), 64))
		return -ENOMEM;
	l->v[l->n++] = (struct span){ s, e };
	return 0;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

/* UnionOneSet() of the sorted @l, in place: touching spans merge */
static void span_union(struct spans *l)
{
	size_t m = 0;

	npx_qsort(l->v, l->n, sizeof(*l->v), cmp_span);
	for (size_t i = 0; i < l->n; i++) {
		if (m && l->v[m - 1].e >= l->v[i].s) {
			if (l->v[i].e > l->v[m - 1].e)
				l->v[m - 1].e = l->v[i].e;
			continue;
		}
		l->v[m++] = l->v[i];
	}
	l->n = m;
}

/* GetDifferenceSet(): @a minus @b, both unions, into @r */
static int span_diff(const struct spans *a, const struct spans *b, struct spans *r)
{
	size_t i = 0, j = 0;
	uint64_t last;
	int rc = 0;

	if (!a->n)
		return 0;
	if (!b->n) {
		for (size_t k = 0; !rc && k < a->n; k++)
			rc = span_add(r, a->v[k].s, a->v[k].e);
		return rc;
	}
	last = a->v[0].s;
	while (!rc && i < a->n && j < b->n) {
		const struct span *x, *y;

		while (j < b->n && b->v[j].e <= a->v[i].s)
			j++;
		if (j >= b->n)
			break;
		x = &a->v[i];
		y = &b->v[j];
		if (x->e <= y->s) {
			/* ProcessSetAIsOnTheLeftOfSetB */
			if (x->e >= last) {
				uint64_t s = last > x->s ? last : x->s;

				if (s < x->e)
					rc = span_add(r, s, x->e);
				last = x->e;
			}
			i++;
		} else if (x->s >= y->s && x->e <= y->e) {
			i++;
		} else if ((x->s <= y->s && x->e >= y->e) || (x->e >= y->s && x->s <= y->s)) {
			if (y->s >= last) {
				uint64_t s = last > x->s ? last : x->s;

				if (s < y->s)
					rc = span_add(r, s, y->s);
				last = y->e;
			}
			j++;
		} else if (x->s >= y->s && x->s <= y->e) {
			last = y->e;
			j++;
		} else {
			i++;
		}
	}
	for (; !rc && i < a->n; i++) {
		uint64_t s = a->v[i].s > last ? a->v[i].s : last;

		if (s < a->v[i].e)
			rc = span_add(r, s, a->v[i].e);
		last = a->v[i].e;
	}
	return rc;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int overlap_events(struct npa_tlc *w, uint32_t pid, uint32_t tid, const char *name,
			  const struct spans *l)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < l->n; i++) {
		if (l->v[i].e <= l->v[i].s)
			continue;
		rc = npa_tlc_begin(w);
		if (rc)
			break;
		w->p = npa_tlc_x_head(w->p, name, pid, tid, l->v[i].s,
				      (double)(l->v[i].e - l->v[i].s) / 1000);
		w->p = npx_lit(w->p, "}}");
		npa_tlc_end(w);
	}
	return rc;
}

int npa_tlc_overlap_dev(struct npa_tlc *w, const struct npa_dev *d)
{
	static const char *const comp_types[] = { "KERNEL_AICORE",    "KERNEL_AIVEC",
						  "FFTS_PLUS",	      "KERNEL_MIX_AIC",
						  "KERNEL_MIX_AIV",   "PROFILING_ENABLE",
						  "PROFILING_DISABLE" };
	static const char *const names[] = { "Computing", "Communication",
					     "Communication(Not Overlapped)", "Free" };
	uint32_t pid = npa_tlc_pid(d->cfg.pid, NPA_TLC_SORT_OVERLAP, d->cfg.id);
	struct spans comp = { 0 }, comm = { 0 }, pure = { 0 }, all = { 0 }, fr = { 0 },
		     span = { 0 };
	uint64_t begin = UINT64_MAX, end = 0;
	bool any = false;
	struct comm_dev c;
	char label[32];
	int rc = 0;

	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		struct npa_tlc_task t;
		uint64_t e;
		bool is_comp = false;

		if (!npa_tlc_hw_task(w, d, i, true, &t))
			continue;
		any = true;
		e = t.t.start + (uint64_t)t.t.dur_d;
		if (t.info && !ends_with(t.info->name, "AicpuKernel") &&
		    !ends_with(t.info->name, "AivKernel"))
			rc = span_add(&comp, t.t.start, e);
		for (size_t k = 0; k < NPX_ARRAY_SIZE(comp_types); k++)
			is_comp |= !strcmp(t.host_type, comp_types[k]);
		if (is_comp)
			continue;
		if (e > end)
			end = e;
		if (t.t.start < begin)
			begin = t.t.start;
	}
	if (!rc)
		rc = comm_build(w, d, &c);
	if (rc)
		goto out;
	for (size_t k = 0; !rc && k < c.n_ops; k++)
		if (c.ops[k].have_end)
			rc = span_add(&comm, c.ops[k].start, c.ops[k].end);
	comm_free(&c);
	if (rc || (!any && !comm.n))
		goto out;
	span_union(&comp);
	span_union(&comm);
	rc = span_diff(&comm, &comp, &pure);
	for (size_t k = 0; k < comp.n; k++) {
		begin = comp.v[k].s < begin ? comp.v[k].s : begin;
		end = comp.v[k].e > end ? comp.v[k].e : end;
	}
	for (size_t k = 0; k < comm.n; k++) {
		begin = comm.v[k].s < begin ? comm.v[k].s : begin;
		end = comm.v[k].e > end ? comm.v[k].e : end;
	}
	if (!rc && end > begin) {
		for (size_t k = 0; !rc && k < comp.n; k++)
			rc = span_add(&all, comp.v[k].s, comp.v[k].e);
		for (size_t k = 0; !rc && k < comm.n; k++)
			rc = span_add(&all, comm.v[k].s, comm.v[k].e);
		span_union(&all);
		if (!rc)
			rc = span_add(&span, begin, end);
		if (!rc)
			rc = span_diff(&span, &all, &fr);
	}
	if (rc)
		goto out;
	/* nothing to draw: the C++ path writes no Overlap Analysis at all */
	if (!comp.n && !comm.n && !fr.n)
		goto out;
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	rc = npa_tlc_process(w, pid, "Overlap Analysis", label, NPA_TLC_SORT_OVERLAP);
	for (uint32_t k = 0; !rc && k < 4; k++)
		rc = npa_tlc_thread(w, pid, k, names[k], k);
	if (!rc)
		rc = overlap_events(w, pid, 0, names[0], &comp);
	if (!rc)
		rc = overlap_events(w, pid, 1, names[1], &comm);
	if (!rc)
		rc = overlap_events(w, pid, 2, names[2], &pure);
	if (!rc)
		rc = overlap_events(w, pid, 3, names[3], &fr);
out:
	free(comp.v);
	free(comm.v);
	free(pure.v);
	free(all.v);
	free(fr.v);
	free(span.v);
	return rc;
}

/* ---- AI Core Freq ---- */
