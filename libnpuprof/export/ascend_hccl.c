// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the collectives (HCCL) of the real layout, as msprof's
 * parser finds them (docs/output.md, "Collectives and clusters"):
 *
 *   host   an HCCL task is a task_track inside a level-5500 API window
 *          (type "master" or "slave" in type_info_dic) with the hccl_info
 *          records of that window (one task per context id); a collective
 *          is the node launch window holding HCCL tasks, with its
 *          node_basic_info (the op type) and hccl_op_info
 *          (CANNAnalysisGear.add_hccl_task / add_hccl_op);
 *   device the HCCL tasks joined to the device's tasks on (stream, task,
 *          batch, context), given to the collectives of their thread by
 *          time, counted per key (the iteration), named
 *          "{node}_{group[-3:]}_{index}_{iteration}" and grouped into the
 *          executed collectives (HcclCalculator).
 *
 * A record that is not whole, or whose magic or level is wrong, is warned
 * about, naming the file: a bad header drops the record kind, as msprof's
 * parser drops it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

/* ---- msprof's enum names (common_func/hccl_info_common.py) ---- */

static const char *enum_name(const char *const *names, size_t n, uint32_t v, char *buf, size_t len)
{
	if (v < n && names[v])
		return names[v];
	if (v == 255)
		return "RESERVED";
	if (v == 4294967295u)
		return "INVALID_TYPE";
	snprintf(buf, len, "%u", v);
	return buf;
}

const char *npa_hccl_data_type(uint32_t v, char *buf, size_t len)
{
	static const char *const n[] = { "INT8",    "INT16",   "INT32",	 "FP16",   "FP32",
					 "INT64",   "UINT64",  "UINT8",	 "UINT16", "UINT32",
					 "FP64",    "BFP16",   "INT128", NULL,	   "HIF8",
					 "FP8E4M3", "FP8E5M2", "FP8E8M0" };

	return enum_name(n, NPX_ARRAY_SIZE(n), v, buf, len);
}

const char *npa_hccl_link_type(uint32_t v, char *buf, size_t len)
{
	static const char *const n[] = { "ON_CHIP", "HCCS",	     "PCIE", "ROCE", "SIO",
					 "HCCS_SW", "STANDARD_ROCE", "UB",   "UBoE" };

	return enum_name(n, NPX_ARRAY_SIZE(n), v, buf, len);
}

const char *npa_hccl_transport(uint32_t v, char *buf, size_t len)
{
	static const char *const n[] = { "SDMA", "RDMA", "LOCAL", "UB", "ROCE" };

	return enum_name(n, NPX_ARRAY_SIZE(n), v, buf, len);
}

const char *npa_hccl_rdma_type(uint32_t v, char *buf, size_t len)
{
	static const char *const n[] = { "RDMA_SEND_NOTIFY", "RDMA_SEND_PAYLOAD" };

	return enum_name(n, NPX_ARRAY_SIZE(n), v, buf, len);
}

/* ---- reading ---- */

struct hccl_read {
	struct npa_warn *w;
	struct npuprof_error *err;
	uint16_t level;
	bool bad;
	void *recs;
	size_t size, n, cap;
};

static int on_rec(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct hccl_read *r = arg;
	struct cann_hdr hd;

	if (r->bad)
		return 0;
	memcpy(&hd, rec, sizeof(hd));
	if (hd.magic != CANN_MAGIC || hd.level != r->level) {
		r->bad = true;
		npa_warn(r->w,
			 "%s: offset %llu: magic %#x, level %u is not a CANN record of level %u: "
			 "every"
			 " record of this kind is dropped, as msprof drops them",
			 file, (unsigned long long)off, hd.magic, hd.level, r->level);
		return 0;
	}
	if (npa_grow(&r->recs, &r->cap, r->n, r->size, 256))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	memcpy((char *)r->recs + r->n * r->size, rec, r->size);
	r->n++;
	return 0;
}

/* the records of "{aging,unaging}.{what}" slices, each group a stream of whole records */
static int read_recs(struct hccl_read *r, const char *data, const char *what)
{
	static const char *const groups[] = { "aging.", "unaging." };
	int rc = 0;

	for (int g = 0; g < 2 && !rc; g++) {
		char prefix[96];
		const char *prefixes[] = { prefix, NULL };
		struct npa_slices s;
		size_t before = r->n;

		snprintf(prefix, sizeof(prefix), "%s%s", groups[g], what);
		rc = npa_slices_find(&s, data, NPF_RAW_HOST_DATA, prefixes, r->w, r->err);
		if (rc)
			break;
		r->bad = false;
		rc = npa_slices_read(&s, r->size, false, on_rec, r, r->w, r->err);
		npa_slices_free(&s);
		if (r->bad)
			r->n = before;
	}
	return rc;
}

/* ---- the host's HCCL tasks and collectives ---- */

static void task_from_info(struct npa_host *h, struct npa_hccl_task *t,
			   const struct cann_hccl_info *in)
{
	t->info = true;
	t->ctx = in->context_id;
	t->name = npa_host_hash_str(h, in->item_id);
	t->group = in->group_name;
	t->plane = in->plane_id;
	t->local_rank = in->local_rank;
	t->remote_rank = in->remote_rank;
	t->rank_size = in->rank_size;
	t->dur_est = in->duration_estimated;
	t->size = in->data_size;
	t->notify = in->notify_id;
	t->data_type = in->data_type;
	t->link_type = in->link_type;
	t->transport = in->transport_type;
	t->rdma = in->rdma_type;
}

struct hccl_join {
	struct npa_host *h;
	struct npa_warn *w;
	const struct cann_hccl_info *info;
	size_t n_info;
	const struct cann_hccl_op_info *opi;
	size_t n_opi;
	struct npa_windows hw, nw;
	int64_t *info_win; /* per hccl_info: its 5500 window */
	int64_t *win_hop; /* per API call: its collective */
	int64_t *api_op; /* per API call: its node_basic_info op */
	size_t cap_hccl, cap_hops;
};

static int add_task(struct hccl_join *j, const struct npa_htask *ht, bool master, int64_t hop,
		    const struct cann_hccl_info *in)
{
	struct npa_host *h = j->h;
	struct npa_hccl_task *t;

	if (npa_grow((void **)&h->hccl, &j->cap_hccl, h->n_hccl, sizeof(*h->hccl), 256))
		return -ENOMEM;
	t = &h->hccl[h->n_hccl++];
	memset(t, 0, sizeof(*t));
	t->dev = ht->dev;
	t->stream = ht->stream;
	t->task = ht->task;
	t->batch = ht->batch;
	t->tid = ht->tid;
	t->ts = ht->ts;
	t->master = master;
	t->op = hop;
	t->ctx = NPA_NO_CTX;
	t->name = "N/A";
	t->plane = t->local_rank = t->remote_rank = t->rank_size = NPA_HCCL_NONE;
	t->dur_est = -1;
	t->size = UINT64_MAX;
	t->notify = UINT64_MAX;
	t->data_type = t->link_type = t->transport = t->rdma = UINT32_MAX;
	if (in)
		task_from_info(h, t, in);
	return t->name ? 0 : -ENOMEM;
}

/* the collective of node window @win (made on first use), or -1 */
static int hop_of(struct hccl_join *j, int64_t win, uint32_t dev, int64_t *out)
{
	struct npa_host *h = j->h;
	const struct npa_api *a;
	struct npa_hccl_op *o;

	*out = -1;
	if (win < 0)
		return 0;
	if (j->win_hop[win] >= 0) {
		*out = j->win_hop[win];
		return 0;
	}
	if (npa_grow((void **)&h->hops, &j->cap_hops, h->n_hops, sizeof(*h->hops), 64))
		return -ENOMEM;
	a = &h->api[win];
	o = &h->hops[h->n_hops];
	memset(o, 0, sizeof(*o));
	o->dev = dev;
	o->tid = a->tid;
	o->begin = a->begin;
	o->end = a->end;
	o->conn = a->conn;
	o->name = npa_host_hash_str(h, a->item);
	o->type = "N/A";
	o->alg = "N/A";
	o->relay = o->retry = o->data_type = UINT32_MAX;
	o->count = UINT64_MAX;
	if (!o->name)
		return -ENOMEM;
	if (j->api_op[win] >= 0) {
		o->type = h->ops[j->api_op[win]].type;
		o->dynamic = h->ops[j->api_op[win]].dynamic;
	}
	/* the window's last hccl_op_info counts */
	for (size_t k = 0; k < j->n_opi; k++) {
		const struct cann_hccl_op_info *p = &j->opi[k];

		if (npa_window_of(&j->nw, p->hdr.thread_id, p->hdr.timestamp) != win)
			continue;
		o->info = true;
		o->relay = p->flags & 1;
		o->retry = (p->flags >> 1) & 1;
		o->data_type = p->data_type;
		o->alg = npa_host_hash_str(h, p->alg_type);
		o->count = p->count;
		o->group = p->group_name;
		if (!o->alg)
			return -ENOMEM;
	}
	j->win_hop[win] = (int64_t)h->n_hops;
	*out = (int64_t)h->n_hops++;
	return 0;
}

static int join(struct hccl_join *j)
{
	struct npa_host *h = j->h;
	size_t n = h->n_api ? h->n_api : 1;
	uint64_t outside = 0;
	int rc;

	j->info_win = malloc((j->n_info ? j->n_info : 1) * sizeof(*j->info_win));
	j->win_hop = malloc(n * sizeof(*j->win_hop));
	j->api_op = malloc(n * sizeof(*j->api_op));
	if (!j->info_win || !j->win_hop || !j->api_op)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_api; i++)
		j->win_hop[i] = j->api_op[i] = -1;
	for (size_t i = 0; i < h->n_ops; i++)
		if (h->ops[i].api < h->n_api && j->api_op[h->ops[i].api] < 0)
			j->api_op[h->ops[i].api] = (int64_t)i;
	for (size_t i = 0; i < j->n_info; i++) {
		j->info_win[i] =
			npa_window_of(&j->hw, j->info[i].hdr.thread_id, j->info[i].hdr.timestamp);
		outside += j->info_win[i] < 0;
	}
	if (outside)
		npa_warn(
			j->w,
			"host/data: %llu hccl_info records are in no HCCL task window (level 5500):"
			" ignored",
			(unsigned long long)outside);
	for (size_t i = 0; i < h->n_htask; i++) {
		const struct npa_htask *ht = &h->htask[i];
		int64_t win = npa_window_of(&j->hw, ht->tid, ht->ts), hop;
		const char *type;
		bool master, any = false;

		if (win < 0)
			continue;
		type = npa_dict_get(&h->types, (uint64_t)CANN_LEVEL_HCCL << 32 | h->api[win].type);
		master = type && !strcmp(type, "master");
		rc = hop_of(j, npa_window_of(&j->nw, ht->tid, ht->ts), ht->dev, &hop);
		/* one task per context id of the window's hccl_info, the last one counting */
		for (size_t k = 0; !rc && k < j->n_info; k++) {
			bool later = false;

			if (j->info_win[k] != win)
				continue;
			for (size_t l = k + 1; l < j->n_info && !later; l++)
				later = j->info_win[l] == win &&
					j->info[l].context_id == j->info[k].context_id;
			if (later)
				continue;
			any = true;
			rc = add_task(j, ht, master, hop, &j->info[k]);
		}
		if (!rc && !any)
			rc = add_task(j, ht, master, hop, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

int npa_hccl_load(struct npa_host *h, const char *data, struct npa_warn *w,
		  struct npuprof_error *err)
{
	struct hccl_read ri = {
		.w = w, .err = err, .level = CANN_LEVEL_HCCL, .size = sizeof(struct cann_hccl_info)
	};
	struct hccl_read ro = { .w = w,
				.err = err,
				.level = CANN_LEVEL_NODE,
				.size = sizeof(struct cann_hccl_op_info) };
	struct hccl_join j = { .h = h, .w = w };
	int rc;

	rc = read_recs(&ri, data, NPF_RAW_ADDITIONAL NPF_RAW_HCCL_INFO ".");
	if (!rc)
		rc = read_recs(&ro, data, NPF_RAW_COMPACT NPF_RAW_HCCL_OP_INFO ".");
	if (rc)
		goto out;
	j.info = ri.recs;
	j.n_info = ri.n;
	j.opi = ro.recs;
	j.n_opi = ro.n;
	rc = npa_windows_init(&j.hw, h, CANN_LEVEL_HCCL);
	if (!rc)
		rc = npa_windows_init(&j.nw, h, CANN_LEVEL_NODE);
	if (!rc && j.hw.n)
		rc = join(&j);
	if (rc)
		rc = npx_set_error(err, rc, "out of memory");
out:
	npa_windows_free(&j.hw);
	npa_windows_free(&j.nw);
	free(j.info_win);
	free(j.win_hop);
	free(j.api_op);
	free(ri.recs);
	free(ro.recs);
	return rc;
}

void npa_hccl_free(struct npa_host *h)
{
	free(h->hccl);
	free(h->hops);
	h->hccl = NULL;
	h->hops = NULL;
	h->n_hccl = h->n_hops = 0;
}

/* ---- a device's collectives ---- */

static int cmp_dev_key(const void *a, const void *b, void *arg)
{
	const struct npa_task *t = arg, *x = &t[*(const size_t *)a], *y = &t[*(const size_t *)b];

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if (x->ctx != y->ctx)
		return x->ctx < y->ctx ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int key_cmp(const struct npa_task *x, const struct npa_hccl_task *y)
{
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if (x->ctx != y->ctx)
		return x->ctx < y->ctx ? -1 : 1;
	return 0;
}

/* msprof's "order by host_timestamp, timestamp", then the order they were made */
static int cmp_comm(const void *a, const void *b)
{
	const struct npa_comm_task *x = a, *y = b;

	if (x->h->ts != y->h->ts)
		return x->h->ts < y->h->ts ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter; /* iter holds the order here */
}

static int cmp_hop(const void *a, const void *b, void *arg)
{
	const struct npa_hccl_op *o = arg, *x = &o[*(const size_t *)a], *y = &o[*(const size_t *)b];

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* HCCL tasks by (stream, task, batch, ctx): the times one was given to a collective */
static uint64_t task_key_hash(uintptr_t key, void *ctx)
{
	const struct npa_hccl_task *t = (const struct npa_hccl_task *)key;

	(void)ctx;
	return npx_mix64(((uint64_t)t->stream << 48 | (uint64_t)t->task << 32 | t->batch) ^
			 npx_mix64(t->ctx));
}

static bool task_key_equal(uintptr_t x, uintptr_t y, void *ctx)
{
	const struct npa_hccl_task *a = (const struct npa_hccl_task *)x,
				   *b = (const struct npa_hccl_task *)y;

	(void)ctx;
	return a->stream == b->stream && a->task == b->task && a->batch == b->batch &&
	       a->ctx == b->ctx;
}

/*
 * Give the tasks (sorted) to the collectives of their thread by time
 * (HcclCalculator._merge_hccl_ops_and_tasks); tasks left over are dropped.
 */
static int merge(struct npa_comm *c, const struct npa_host *h, uint32_t dev, size_t *kept)
{
	size_t *ops = malloc((h->n_hops ? h->n_hops : 1) * sizeof(*ops)), n_ops = 0;
	struct npx_hmap given = NPX_HMAP_INIT(task_key_hash, task_key_equal, NULL);
	bool *done_tid = NULL;
	size_t out = 0;

	done_tid = calloc(h->n_hops ? h->n_hops : 1, sizeof(*done_tid));
	if (!ops || !done_tid || npx_hmap_reserve(&given, c->n)) {
		free(ops);
		free(done_tid);
		npx_hmap_free(&given);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->n_hops; i++)
		if (h->hops[i].dev == dev)
			ops[n_ops++] = i;
	npx_qsort_r(ops, n_ops, sizeof(*ops), cmp_hop, (void *)h->hops);
	/* thread by thread, in the order of their first collective */
	for (size_t f = 0; f < n_ops; f++) {
		uint32_t tid = h->hops[ops[f]].tid;
		size_t ti = 0;

		if (done_tid[f])
			continue;
		for (size_t o = f; o < n_ops; o++) {
			const struct npa_hccl_op *op = &h->hops[ops[o]];

			if (op->tid != tid)
				continue;
			done_tid[o] = true;
			while (ti < c->n && c->t[ti].h->tid != tid)
				ti++;
			if (ti == c->n)
				break;
			while (ti < c->n) {
				struct npa_comm_task *t = &c->t[ti];

				if (t->h->tid != tid) {
					ti++;
					continue;
				}
				if (t->h->ts > op->end)
					break;
				t->hop = (int64_t)ops[o];
				/* room for every task was reserved: no failure here */
				t->iter =
					(uint32_t)++ * npx_hmap_slot(&given, (uintptr_t)t->h, NULL);
				ti++;
			}
		}
	}
	for (size_t i = 0; i < c->n; i++) {
		if (c->t[i].hop < 0)
			continue;
		c->t[out++] = c->t[i];
	}
	*kept = out;
	free(ops);
	npx_hmap_free(&given);
	free(done_tid);
	return 0;
}

double npa_raw_begin_ns(const struct npa_dev_cfg *c)
{
	char off[64], *e;
	long double b = strtold(c->clock.begin, NULL), o;

	e = npa_py_repr(off, c->clock.offset);
	*e = 0;
	o = strtold(off, NULL);
	/* both have at most 3 decimals at these magnitudes: long double is exact enough */
	return (double)npx_i64_ld((b - o) * 1000.0L);
}

/* the decimal digits of a group, or "N/A" */
static void group_str(const struct npa_comm_task *t, char *buf, size_t len)
{
	if (t->have_group)
		snprintf(buf, len, "%llu", (unsigned long long)t->group);
	else
		snprintf(buf, len, "N/A");
}

struct name_state {
	uint64_t group;
	bool have_group;
	bool aicpu;
	uint64_t first;
	int64_t count;
};

/* HcclCalculator.update_op_name_by_group_name */
static int name_tasks(struct npa_comm *c, const struct npa_host *h, double begin)
{
	struct name_state *st = NULL;
	size_t n_st = 0, cap = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct npa_comm_task *t = &c->t[i];
		const struct npa_hccl_op *op = &h->hops[t->hop];
		bool aicpu = strstr(op->name, "AicpuKernel") != NULL;
		struct name_state *s = NULL;
		char g[32], name[4200];
		size_t gl;

		for (size_t k = 0; k < n_st && !s; k++)
			if (st[k].have_group == t->have_group &&
			    (!t->have_group || st[k].group == t->group) && st[k].aicpu == aicpu)
				s = &st[k];
		if (!s) {
			if (npa_grow((void **)&st, &cap, n_st, sizeof(*st), 8)) {
				free(st);
				return -ENOMEM;
			}
			s = &st[n_st++];
			*s = (struct name_state){ t->group, t->have_group, aicpu, 0, -1 };
		}
		if (t->start > begin && op->begin > s->first) {
			s->first = op->begin;
			s->count++;
		}
		group_str(t, g, sizeof(g));
		gl = strlen(g);
		snprintf(name, sizeof(name), "%.4000s_%s_%lld_%u", op->name,
			 gl > 3 ? g + gl - 3 : g, (long long)s->count, t->iter);
		t->name = strdup(name);
		if (!t->name) {
			free(st);
			return -ENOMEM;
		}
	}
	free(st);
	return 0;
}

static int cmp_master(const void *a, const void *b, void *arg)
{
	const struct npa_comm *c = arg;
	const struct npa_comm_task *x = &c->t[*(const size_t *)a], *y = &c->t[*(const size_t *)b];
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* the executed collectives: master tasks by (name, launch) */
static int group_ops(struct npa_comm *c, const struct npa_host *h, double begin)
{
	size_t *idx = malloc((c->n ? c->n : 1) * sizeof(*idx)), n = 0, cap = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++)
		if (c->t[i].h->master)
			idx[n++] = i;
	npx_qsort_r(idx, n, sizeof(*idx), cmp_master, c);
	for (size_t k = 0; k < n; k++) {
		struct npa_comm_task *t = &c->t[idx[k]];
		const struct npa_hccl_op *hop = &h->hops[t->hop];
		struct npa_comm_op *o = NULL;

		for (size_t e = c->n_op; e-- > 0 && !o;) {
			if (strcmp(c->op[e].name, t->name))
				break;
			if (c->op[e].first == hop->begin)
				o = &c->op[e];
		}
		if (!o) {
			if (npa_grow((void **)&c->op, &cap, c->n_op, sizeof(*c->op), 16)) {
				free(idx);
				return -ENOMEM;
			}
			o = &c->op[c->n_op++];
			memset(o, 0, sizeof(*o));
			o->name = t->name;
			o->first = hop->begin;
			o->hop = t->hop;
			o->start = t->start;
			o->end = t->start + t->dur;
			o->conn = hop->conn;
			o->group = t->group;
			o->have_group = t->have_group;
		}
		t->op = (size_t)(o - c->op);
		if (t->start < o->start)
			o->start = t->start;
		if (t->start + t->dur > o->end)
			o->end = t->start + t->dur;
		o->rank_size = t->h->rank_size;
		if (t->start < begin)
			continue;
		if (!o->stat || t->start < o->stat_start)
			o->stat_start = t->start;
		if (!o->stat || t->start + t->dur > o->stat_end)
			o->stat_end = t->start + t->dur;
		o->stat = true;
	}
	free(idx);
	return 0;
}

int npa_comm_build(struct npa_dev *d, const struct npa_host *h, struct npuprof_error *err)
{
	struct npa_comm *c = &d->comm;
	size_t *idx = NULL, cap = 0, kept;
	double begin;
	int rc = -ENOMEM;

	memset(c, 0, sizeof(*c));
	if (!h->n_hccl || !d->n_tasks)
		return 0;
	idx = malloc(d->n_tasks * sizeof(*idx));
	if (!idx)
		goto out;
	for (size_t i = 0; i < d->n_tasks; i++)
		idx[i] = i;
	npx_qsort_r(idx, d->n_tasks, sizeof(*idx), cmp_dev_key, d->tasks);
	/* the inner join on (stream, task, batch, context) */
	for (size_t i = 0; i < h->n_hccl; i++) {
		const struct npa_hccl_task *ht = &h->hccl[i];
		size_t lo = 0, hi = d->n_tasks;

		if (ht->dev != d->cfg.id)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (key_cmp(&d->tasks[idx[mid]], ht) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < d->n_tasks && !key_cmp(&d->tasks[idx[lo]], ht); lo++) {
			const struct npa_task *k = &d->tasks[idx[lo]];
			struct npa_comm_task *t;

			if (npa_grow((void **)&c->t, &cap, c->n, sizeof(*c->t), 256))
				goto out;
			t = &c->t[c->n];
			memset(t, 0, sizeof(*t));
			t->h = ht;
			t->start = k->start;
			t->dur = k->dur;
			t->start_cnt = k->start_cnt;
			t->end_cnt = k->end_cnt;
			t->hop = -1;
			t->iter = (uint32_t)c->n++;
		}
	}
	npx_qsort(c->t, c->n, sizeof(*c->t), cmp_comm);
	for (size_t i = 0; i < c->n; i++)
		c->t[i].iter = (uint32_t)i;
	rc = merge(c, h, d->cfg.id, &kept);
	if (rc)
		goto out;
	c->n = kept;
	for (size_t i = 0; i < c->n; i++) {
		struct npa_comm_task *t = &c->t[i];
		const struct npa_hccl_op *op = &h->hops[t->hop];

		/* the task's group, else the collective's (update_task_desc_with_hccl_op) */
		t->have_group = t->h->info || op->info;
		t->group = t->h->info ? t->h->group : op->group;
		if (t->h->size == UINT64_MAX || fabs(t->dur) < 1e-15)
			t->bw = -1;
		else
			t->bw = ((double)t->h->size * pow(0.001, 3)) / (t->dur * pow(0.001, 3));
	}
	begin = npa_raw_begin_ns(&d->cfg);
	rc = name_tasks(c, h, begin);
	if (!rc)
		rc = group_ops(c, h, begin);
out:
	free(idx);
	if (rc) {
		npa_comm_free(c);
		return npx_set_error(err, rc, "out of memory");
	}
	return 0;
}

void npa_comm_free(struct npa_comm *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->t[i].name);
	free(c->t);
	free(c->op);
	memset(c, 0, sizeof(*c));
}
