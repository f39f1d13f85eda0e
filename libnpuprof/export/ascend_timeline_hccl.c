// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the collectives of msprof_{ts}.json (docs/output.md,
 * "Collectives and clusters"), as msprof's HCCLExport and HostToDevice
 * write them:
 *
 *   Communication  a "Group {name} Communication" thread per group (tid: the
 *                  group's start index) with one bar per executed collective,
 *                  and a "Plane N" thread per plane (start index + N + 1)
 *                  with the group's HCCL tasks
 *   HostToDevice   a flow from each collective's Node@launch to its bar,
 *                  id (connection id << 32) - 1, and one from each CANN call
 *                  to each MEMCPY_ASYNC task of its connection id,
 *                  (connection id << 32) + context id
 *
 * The group's threads are numbered in the order the groups first appear
 * among the tasks, their planes in increasing order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/ascend_timeline.h"

#define SORT_COMM 17

/* ---- the flows to the collectives and their copies ---- */

/*
 * The start of a flow to a device event: on @a's thread at its time, id
 * (connection id << 32) + @ctx (HostToDevice.add_hccl_start_points,
 * add_memcpy_async_start_points).
 */
static int flow_start(struct npa_tl *t, uint64_t pid, const struct npa_api *a, const char *ts,
		      int64_t ctx)
{
	char buf[512], id[32], *p = buf;

	snprintf(id, sizeof(id), "%lld", (long long)((int64_t)a->conn * 4294967296LL + ctx));
	p = npx_lit(p, "{\"name\": \"HostToDevice");
	p = npx_put(p, id);
	p = npx_lit(p, "\", \"ph\": \"s\", \"cat\": \"HostToDevice\", \"id\": \"");
	p = npx_put(p, id);
	p = npx_lit(p, "\", \"pid\": ");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, a->tid);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\"}");
	return npa_tl_add(t, buf, (size_t)(p - buf), ts, false);
}

static bool is_memcpy(const struct npa_export *x, const struct npa_task *k)
{
	return k->host >= 0 && x->host.htask[k->host].conn >= 0 &&
	       !strcmp(x->host.htask[k->host].type, "MEMCPY_ASYNC");
}

struct conn_ctx {
	int64_t conn;
	size_t seq;
	uint32_t ctx;
};

static int cmp_conn_ctx(const void *a, const void *b)
{
	const struct conn_ctx *x = a, *y = b;

	if (x->conn != y->conn)
		return x->conn < y->conn ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the first of @n sorted pairs of connection id @conn, @n if none */
static size_t conn_lower(const struct conn_ctx *v, size_t n, int64_t conn)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].conn < conn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a task of TaskInfo: a kernel task_track with its launch's op */
static bool in_task_info(const struct npa_export *x, const struct npa_task *k)
{
	const struct npa_htask *ht = k->host >= 0 ? &x->host.htask[k->host] : NULL;

	return ht && ht->op >= 0 && ht->conn >= 0 && !strncmp(ht->type, "KERNEL", 6);
}

/*
 * The flows' starts of the CANN calls @emitted: for each collective launch
 * (a Node@launch of the connection id of an HCCL task), one per context id
 * of its tasks in TaskInfo, else one with context -1; then one per
 * MEMCPY_ASYNC task of the call's connection id.
 */
int npa_tl_comm_flow_starts(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
			    uint64_t pid, const size_t *emitted, size_t n_emitted)
{
	const struct npa_host *h = &x->host;
	struct conn_ctx *hc = malloc((d->comm.n + 1) * sizeof(*hc)),
			*mc = malloc((d->n_tasks + 1) * sizeof(*mc)),
			*kc = malloc((d->n_tasks + 1) * sizeof(*kc));
	size_t nh = 0, nm = 0, nk = 0;
	int rc = 0;

	if (!hc || !mc || !kc) {
		free(hc);
		free(mc);
		free(kc);
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->comm.n; i++)
		if (d->comm.t[i].hop >= 0)
			hc[nh++] = (struct conn_ctx){ h->hops[d->comm.t[i].hop].conn, i, 0 };
	for (size_t k = 0; k < d->n_tasks; k++)
		if (is_memcpy(x, &d->tasks[k]))
			mc[nm++] = (struct conn_ctx){ h->htask[d->tasks[k].host].conn, k,
						      d->tasks[k].ctx };
	for (size_t k = 0; k < d->n_tasks; k++)
		if (in_task_info(x, &d->tasks[k]))
			kc[nk++] = (struct conn_ctx){ h->htask[d->tasks[k].host].conn, k,
						      d->tasks[k].ctx };
	npx_qsort(hc, nh, sizeof(*hc), cmp_conn_ctx);
	npx_qsort(mc, nm, sizeof(*mc), cmp_conn_ctx);
	npx_qsort(kc, nk, sizeof(*kc), cmp_conn_ctx);
	for (size_t i = 0; !rc && i < n_emitted; i++) {
		const struct npa_api *a = &h->api[emitted[i]];
		size_t j = conn_lower(hc, nh, a->conn);
		char ts[NPA_PY_FMT_MAX];

		if (a->level != CANN_LEVEL_NODE || j == nh || hc[j].conn != a->conn)
			continue;
		npa_tl_host_local(ts, a->begin, h->cfg.clock.offset);
		j = conn_lower(kc, nk, a->conn);
		if (j == nk || kc[j].conn != a->conn)
			rc = flow_start(t, pid, a, ts, -1);
		for (; !rc && j < nk && kc[j].conn == a->conn; j++)
			rc = flow_start(t, pid, a, ts, kc[j].ctx);
	}
	for (size_t i = 0; !rc && i < n_emitted; i++) {
		const struct npa_api *a = &h->api[emitted[i]];
		size_t j = conn_lower(mc, nm, a->conn);
		char ts[NPA_PY_FMT_MAX];

		if (j == nm || mc[j].conn != a->conn)
			continue;
		npa_tl_host_local(ts, a->begin, h->cfg.clock.offset);
		for (; !rc && j < nm && mc[j].conn == a->conn; j++)
			rc = flow_start(t, pid, a, ts, mc[j].ctx);
	}
	free(hc);
	free(mc);
	free(kc);
	return rc;
}

/* ---- Communication ---- */

/* a group of the Communication process (HCCLExport.HcclGroup) */
struct comm_group {
	uint64_t group;
	bool have_group;
	uint64_t planes; /* bit p: plane p */
	uint32_t start;
};

static bool same_group(const struct comm_group *g, const struct npa_comm_task *t)
{
	return g->have_group == t->have_group && (!t->have_group || g->group == t->group);
}

static struct comm_group *find_group(struct comm_group *g, size_t n, uint64_t group,
				     bool have_group)
{
	for (size_t i = 0; i < n; i++)
		if (g[i].have_group == have_group && (!have_group || g[i].group == group))
			return &g[i];
	return NULL;
}

static char *comm_task_args(char *p, const struct npa_comm_task *ct)
{
	const struct npa_hccl_task *h = ct->h;
	char b[32];

	p = npx_lit(p, ", \"args\": {\"notify_id\": \"");
	p = npa_fmt_u64(p, h->notify);
	p = npx_lit(p, "\", \"duration estimated(us)\": ");
	if (h->dur_est > -1e15 && h->dur_est < 1e15 && (double)(long long)h->dur_est == h->dur_est)
		p += sprintf(p, "%lld", (long long)h->dur_est);
	else
		p = npa_py_repr(p, h->dur_est);
	p = npx_lit(p, ", \"stream id\": ");
	p = npa_fmt_u64(p, h->stream);
	p = npx_lit(p, ", \"task id\": ");
	p = npa_fmt_u64(p, h->task);
	p = npx_lit(p, ", \"context id\": ");
	p = npa_fmt_u64(p, h->ctx);
	p = npx_lit(p, ", \"task type\": ");
	p = npa_tl_json_str(p, h->name);
	p += sprintf(p, ", \"src rank\": %lld, \"dst rank\": %lld", (long long)h->local_rank,
		     (long long)h->remote_rank);
	p = npx_lit(p, ", \"transport type\": ");
	p = npa_tl_json_str(p, npa_hccl_transport(h->transport, b, sizeof(b)));
	p = npx_lit(p, ", \"size(Byte)\": ");
	p = npa_fmt_u64(p, h->size);
	p = npx_lit(p, ", \"data type\": ");
	p = npa_tl_json_str(p, npa_hccl_data_type(h->data_type, b, sizeof(b)));
	p = npx_lit(p, ", \"link type\": ");
	p = npa_tl_json_str(p, npa_hccl_link_type(h->link_type, b, sizeof(b)));
	p = npx_lit(p, ", \"bandwidth(GB/s)\": ");
	if (ct->bw < 0)
		*p++ = '0';
	else
		p = npa_py_repr(p, ct->bw);
	p = npx_lit(p, ", \"model id\": ");
	p = npa_fmt_u64(p, NPA_NO_MODEL);
	return npx_lit(p, "}");
}

static int comm_meta(struct npa_tl *t, uint64_t pid, struct comm_group *g, size_t ng,
		     const struct npa_host *h)
{
	uint32_t index = 0;
	int rc = npa_tl_process_meta(t, pid, "Communication");

	for (size_t i = 0; !rc && i < ng; i++) {
		char name[4200], hb[32];

		g[i].start = index;
		if (g[i].have_group) {
			snprintf(hb, sizeof(hb), "%llu", (unsigned long long)g[i].group);
			snprintf(name, sizeof(name), "Group %.4000s Communication",
				 npa_hash_name(h, g[i].group, hb, sizeof(hb)));
		} else {
			snprintf(name, sizeof(name), "Communication");
		}
		rc = npa_tl_meta(t, "thread_name", pid, index, "name", name, 0);
		if (!rc)
			rc = npa_tl_meta(t, "thread_sort_index", pid, index, "sort_index", NULL,
					 index);
		for (uint32_t p = 0; !rc && p < 64; p++) {
			if (!(g[i].planes >> p & 1))
				continue;
			snprintf(name, sizeof(name), "Plane %u", p);
			rc = npa_tl_meta(t, "thread_name", pid, g[i].start + p + 1, "name", name,
					 0);
			index = g[i].start + p + 1;
		}
		for (uint32_t p = 0; !rc && p < 64; p++)
			if (g[i].planes >> p & 1)
				rc = npa_tl_meta(t, "thread_sort_index", pid, g[i].start + p + 1,
						 "sort_index", NULL, g[i].start + p + 1);
		index++;
	}
	return rc;
}

int npa_tl_communication(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_comm *c = &d->comm;
	const struct npa_host *h = &x->host;
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, SORT_COMM, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL);
	struct comm_group *g;
	size_t ng = 0;
	char *buf = t->scratch, tsb[NPA_PY_FMT_MAX], label[32];
	int rc;

	if (!c->n)
		return 0;
	g = calloc(c->n, sizeof(*g));
	if (!g)
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < c->n; i++) {
		const struct npa_comm_task *ct = &c->t[i];
		struct comm_group *q = NULL;
		int64_t plane = ct->h->plane < 0 ? 0 : ct->h->plane;

		for (size_t k = 0; k < ng && !q; k++)
			if (same_group(&g[k], ct))
				q = &g[k];
		if (!q) {
			q = &g[ng++];
			q->group = ct->group;
			q->have_group = ct->have_group;
		}
		if (plane < 64)
			q->planes |= 1ull << plane;
	}
	rc = comm_meta(t, pid, g, ng, h);
	/* the tasks, one thread per plane (none at level 0) */
	for (size_t i = 0; !rc && !h->cfg.level0 && i < c->n; i++) {
		const struct npa_comm_task *ct = &c->t[i];
		const struct comm_group *q = find_group(g, ng, ct->group, ct->have_group);
		char *p = buf;

		if (ct->h->plane < 0 || ct->h->plane >= 64)
			continue;
		npa_py_local_time_d(tsb, ct->start, d->cfg.clock.offset);
		if (!npa_tl_in_window(tsb, ct->dur / 1000, begin))
			continue;
		p = npx_lit(p, "{\"name\": ");
		p = npa_tl_json_str(p, ct->h->name);
		p = npx_lit(p, ", \"pid\": ");
		p = npa_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npa_fmt_u64(p, q->start + (uint64_t)ct->h->plane + 1);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npa_py_repr(p, ct->dur / 1000);
		p = comm_task_args(p, ct);
		p = npx_lit(p, ", \"ph\": \"X\"}");
		rc = npa_tl_add(t, buf, (size_t)(p - buf), tsb, false);
	}
	/* the collectives, on their group's thread */
	for (size_t i = 0; !rc && i < c->n_op; i++) {
		const struct npa_comm_op *op = &c->op[i];
		const struct npa_hccl_op *hop = op->hop >= 0 ? &h->hops[op->hop] : NULL;
		const struct comm_group *q = find_group(g, ng, op->group, op->have_group);
		char *p = buf, b[32];

		if (!q)
			continue;
		npa_py_local_time_d(tsb, op->start, d->cfg.clock.offset);
		if (!npa_tl_in_window(tsb, (op->end - op->start) / 1000, begin))
			continue;
		p = npx_lit(p, "{\"name\": ");
		p = npa_tl_json_str(p, op->name);
		p = npx_lit(p, ", \"pid\": ");
		p = npa_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npa_fmt_u64(p, q->start);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npa_py_repr(p, (op->end - op->start) / 1000);
		p += sprintf(p, ", \"args\": {\"rank_size\": %lld, \"connection_id\": %lld",
			     (long long)op->rank_size, (long long)op->conn);
		p = npx_lit(p, ", \"model id\": ");
		p = npa_fmt_u64(p, NPA_NO_MODEL);
		p = npx_lit(p, ", \"data_type\": ");
		p = npa_tl_json_str(p, hop && hop->info
					       ? npa_hccl_data_type(hop->data_type, b, sizeof(b))
					       : "N/A");
		p = npx_lit(p, ", \"alg_type\": ");
		p = npa_tl_json_str(p, hop && hop->info && hop->alg ? hop->alg : "N/A");
		p = npx_lit(p, ", \"count\": ");
		/* without hccl_op_info: HcclOps' defaults (not checked against msprof) */
		if (hop && hop->info && hop->count != UINT64_MAX)
			p = npa_fmt_u64(p, hop->count);
		else
			p = npx_lit(p, "-1");
		p = npx_lit(p, "}, \"ph\": \"X\"}");
		rc = npa_tl_add(t, buf, (size_t)(p - buf), tsb, false);
	}
	/* the flows' ends: (connection id << 32) + context id (-1) */
	for (size_t i = 0; !rc && i < c->n_op; i++) {
		const struct npa_comm_op *op = &c->op[i];
		const struct comm_group *q = find_group(g, ng, op->group, op->have_group);
		char *p = buf, id[32];

		if (!q || op->conn < 0)
			continue;
		npa_py_local_time_d(tsb, op->start, d->cfg.clock.offset);
		if (!npa_tl_in_window(tsb, 0, begin))
			continue;
		snprintf(id, sizeof(id), "%lld", (long long)(op->conn * 4294967296LL - 1));
		p = npx_lit(p, "{\"name\": \"HostToDevice");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ph\": \"f\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"cat\": \"HostToDevice\", \"pid\": ");
		p = npa_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npa_fmt_u64(p, q->start);
		p = npx_lit(p, ", \"bp\": \"e\"}");
		rc = npa_tl_add(t, buf, (size_t)(p - buf), tsb, false);
	}
	free(g);
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = npa_tl_process_tail(t, pid, label, SORT_COMM);
	return rc;
}

/* the copies' ends: (connection id << 32) + context id (add_memcpy_async_end_points) */
int npa_tl_memcpy_ends(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
		       uint64_t pid)
{
	const struct npa_host *h = &x->host;
	double begin = strtod(d->cfg.clock.begin, NULL);
	char *buf = t->scratch, tsb[NPA_PY_FMT_MAX], id[48];
	int rc = 0;

	for (size_t i = 0; !rc && h->n_api && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
		const struct npa_op *op = ht && ht->op >= 0 ? &h->ops[ht->op] : NULL;
		char *p = buf;

		if (!is_memcpy(x, k) || (op && strcmp(op->name, "MEMCPY_ASYNC")))
			continue;
		npa_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		if (!npa_tl_in_window(tsb, 0, begin))
			continue;
		snprintf(id, sizeof(id), "%llu",
			 (unsigned long long)((uint64_t)ht->conn << 32) + k->ctx);
		p = npx_lit(p, "{\"name\": \"HostToDevice");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ph\": \"f\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"cat\": \"HostToDevice\", \"pid\": ");
		p = npa_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npa_fmt_u64(p, k->stream);
		p = npx_lit(p, ", \"bp\": \"e\"}");
		rc = npa_tl_add(t, buf, (size_t)(p - buf), tsb, false);
	}
	return rc;
}
