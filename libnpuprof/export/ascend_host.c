// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the host records of the real layout (host/data/),
 * joined as msprof's CANN analysis chain joins them
 * (docs/msprof-parser.md sections 1.2-1.8 and 3.1-3.2):
 *
 *  - api_event records are the API calls (api_statistic, the CANN
 *    timeline); each kept one takes the next connection id;
 *  - a node-level API call is a node launch window: the node_basic_info,
 *    tensor_info and task_track records of its thread that fall in it
 *    (bounds included) belong to its op;
 *  - task_track records are the host tasks; FLIP_TASK ones count the
 *    wraps of a stream's 16-bit task ids, and give the tasks after them
 *    the next batch.
 *
 * msprof attaches a record to the last window of its level opened before
 * it, if that window still holds it; windows of our runtime nest, and the
 * lookup below (the window of the thread with the latest start at or
 * before the record) gives the same answer.
 *
 * An op's tensor strings, from its tensor_info records: ascend_tensors.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"

static const char *const ge_task_names[CANN_GE_TASK_TYPE_COUNT] = {
	"AI_CORE",   "AI_CPU",	"AI_VECTOR_CORE", "WRITE_BACK", "MIX_AIC", "MIX_AIV",
	"FFTS_PLUS", "DSA_SQE", "DVPP",		  "HCCL",	"FUSION",  "INVALID",
};

const char *npa_ge_task_type_name(uint32_t t)
{
	if (t == NPA_TASK_TYPE_NA)
		return "N/A";
	return t < CANN_GE_TASK_TYPE_COUNT ? ge_task_names[t] : "UNKNOWN";
}

/* msprof's names of CANN's record levels: api_statistic's and the timeline's */
static const struct {
	uint32_t level;
	const char *lower; /* api_statistic's Level, the timeline's args */
	const char *title; /* the CANN timeline's thread prefix (pure-Python path) */
} cann_levels[] = {
	{ CANN_LEVEL_ACL, "acl", "AscendCL" },
	{ CANN_LEVEL_RUNTIME, "runtime", "Runtime" },
	{ CANN_LEVEL_MODEL, "model", "Model" },
	{ CANN_LEVEL_NODE, "node", "Node" },
	{ CANN_LEVEL_HCCL, "communication", "Communication" },
	{ CANN_LEVEL_AICPU, "aicpu", "Aicpu" },
	{ CANN_LEVEL_TX, "msproftx", "Msproftx" },
	{ CANN_LEVEL_PTA, "pta", "Pta" },
	{ CANN_LEVEL_PYTORCH_TX, "pytorch_tx", "Pytorch_tx" },
};

const char *npa_cann_level_lower(uint32_t level)
{
	for (size_t i = 0; i < NPX_ARRAY_SIZE(cann_levels); i++)
		if (cann_levels[i].level == level)
			return cann_levels[i].lower;
	return "unknown";
}

const char *npa_cann_level_title(uint32_t level)
{
	for (size_t i = 0; i < NPX_ARRAY_SIZE(cann_levels); i++)
		if (cann_levels[i].level == level)
			return cann_levels[i].title;
	return "Unknown";
}

static bool is_kernel(const char *type)
{
	return !strncmp(type, "KERNEL", 6) || !strncmp(type, "STARS_COMMON", 12) ||
	       !strncmp(type, "FFTS_PLUS", 9);
}

const struct npa_op *npa_task_op(const struct npa_host *h, const struct npa_task *t)
{
	const struct npa_htask *ht;
	const struct npa_op *op;

	if (t->host < 0)
		return NULL;
	ht = &h->htask[t->host];
	if (ht->op < 0 || !is_kernel(ht->type))
		return NULL;
	op = &h->ops[ht->op];
	if (op->task_type == CANN_GE_WRITE_BACK || op->task_type == CANN_GE_INVALID)
		return NULL;
	/* TaskInfo joins on the context: a mix op's row is its context's task */
	if (op->ctx != t->ctx)
		return NULL;
	return op;
}

static bool level_known(uint32_t level)
{
	switch (level) {
	case CANN_LEVEL_PYTORCH_TX:
	case CANN_LEVEL_PTA:
	case CANN_LEVEL_TX:
	case CANN_LEVEL_ACL:
	case CANN_LEVEL_MODEL:
	case CANN_LEVEL_NODE:
	case CANN_LEVEL_AICPU:
	case CANN_LEVEL_HCCL:
	case CANN_LEVEL_RUNTIME:
		return true;
	}
	return false;
}

const char *npa_hash_name(const struct npa_host *h, uint64_t hash, char *buf, size_t len)
{
	const char *s = npa_dict_get(&h->hash, hash);

	if (s)
		return s;
	snprintf(buf, len, "%llu", (unsigned long long)hash);
	return buf;
}

/* a copy of @s that lives as long as @h (names not in a dictionary) */
static const char *intern(struct npa_host *h, const char *s)
{
	char *v;

	if (npa_grow((void **)&h->strs, &h->cap_strs, h->n_strs, sizeof(*h->strs), 64))
		return NULL;
	v = strdup(s);
	if (v)
		h->strs[h->n_strs++] = v;
	return v;
}

/*
 * @s, once: the tensor strings of ops of the same shapes are the same few
 * strings, and a million ops would otherwise hold six copies each.
 */
const char *npa_host_tensor_str(struct npa_host *h, const char *s)
{
	uintptr_t *slot;
	const char *v;

	if (!h->tensor_strs.hash_fn)
		h->tensor_strs =
			(struct npx_hmap)NPX_HMAP_INIT(npx_hmap_hash_str, npx_hmap_equal_str, NULL);
	slot = npx_hmap_find(&h->tensor_strs, (uintptr_t)s);
	if (slot)
		return (const char *)*slot;
	v = intern(h, s);
	/* keyed by the copy, which lives as long as the map */
	slot = v ? npx_hmap_slot(&h->tensor_strs, (uintptr_t)v, NULL) : NULL;
	if (!slot)
		return NULL;
	*slot = (uintptr_t)v;
	return v;
}

/* a hash's name from hash_dic, else its decimal digits (interned) */
const char *npa_host_hash_str(struct npa_host *h, uint64_t hash)
{
	const char *s = npa_dict_get(&h->hash, hash);
	char buf[32];

	if (s)
		return s;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)hash);
	return intern(h, buf);
}

/* ---- reading ---- */

/**
 * struct node_rec - a node_basic_info, tensor_info or task_track record
 * @kind: which.
 * @aging: from an aging slice.
 * @tid: its thread.
 * @ts: its timestamp.
 * @rec: the record; a tensor_info (four times the size of the others, and
 *       one per op at most) is kept apart, in host_read.ti[@rec.ti].
 */
struct node_rec {
	uint8_t kind;
	bool aging;
	uint32_t tid;
	uint64_t ts;
	union {
		struct cann_node_basic_info nbi;
		struct cann_task_track tt;
		size_t ti;
		struct {
			uint32_t num;
			uint32_t first;
		} ctx;
	} rec;
};

enum { REC_NBI, REC_TENSOR, REC_TRACK, REC_CTX };

struct host_read {
	struct npa_host *h;
	struct npa_warn *w;
	struct npuprof_error *err;
	struct node_rec *nr;
	size_t n_nr, cap_nr;
	struct cann_tensor_info *ti;
	size_t n_ti, cap_ti;
	size_t cap_api;
	uint32_t conn;
	uint8_t kind;
	bool aging;
	bool bad; /* a record of this kind failed msprof's check: drop the kind */
	const char *bad_file;
	uint64_t bad_off;
	uint64_t pairs;
};

static bool hdr_ok(struct host_read *r, uint16_t magic, uint16_t level, const char *file,
		   uint64_t off)
{
	if (magic == CANN_MAGIC && level_known(level))
		return true;
	if (!r->bad) {
		r->bad = true;
		r->bad_file = file;
		r->bad_off = off;
		npa_warn(r->w,
			 "%s: offset %llu: magic %#x, level %u is not a CANN record: every record"
			 " of this kind is dropped, as msprof drops them",
			 file, (unsigned long long)off, magic, level);
	}
	return false;
}

static int on_api(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct host_read *r = arg;
	struct npa_host *h = r->h;
	struct cann_api_event e;
	struct npa_api *a;

	memcpy(&e, rec, sizeof(e));
	if (!hdr_ok(r, e.magic, e.level, file, off))
		return 0;
	if (e.end == UINT64_MAX) {
		/* half of a begin/end event pair: it takes a connection id, no window */
		r->conn++;
		r->pairs++;
		return 0;
	}
	if (!e.begin) {
		h->dropped_begin0++;
		return 0;
	}
	if (npa_grow((void **)&h->api, &r->cap_api, h->n_api, sizeof(*h->api), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	a = &h->api[h->n_api++];
	a->level = e.level;
	a->type = e.type;
	a->tid = e.thread_id;
	a->item = e.item_id;
	a->begin = e.begin;
	a->end = e.end;
	a->conn = r->conn++;
	return 0;
}

static int on_node_rec(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct host_read *r = arg;
	struct cann_hdr hd;
	struct node_rec *n;

	memcpy(&hd, rec, sizeof(hd));
	if (!hdr_ok(r, hd.magic, hd.level, file, off))
		return 0;
	if (npa_grow((void **)&r->nr, &r->cap_nr, r->n_nr, sizeof(*r->nr), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	n = &r->nr[r->n_nr++];
	memset(n, 0, sizeof(*n));
	n->kind = r->kind;
	n->aging = r->aging;
	n->tid = hd.thread_id;
	n->ts = hd.timestamp;
	if (r->kind == REC_TENSOR) {
		if (npa_grow((void **)&r->ti, &r->cap_ti, r->n_ti, sizeof(*r->ti), 1024)) {
			r->n_nr--;
			return npx_set_error(r->err, -ENOMEM, "out of memory");
		}
		memcpy(&r->ti[r->n_ti], rec, sizeof(*r->ti));
		n->rec.ti = r->n_ti++;
	} else if (r->kind == REC_CTX) {
		struct cann_context_id_info ci;

		memcpy(&ci, rec, sizeof(ci));
		n->rec.ctx.num = ci.ctx_num;
		n->rec.ctx.first = ci.ctx_id[0];
	} else {
		memcpy(&n->rec, rec, r->kind == REC_NBI ? sizeof(n->rec.nbi) : sizeof(n->rec.tt));
	}
	return 0;
}

/* Read the slices of "aging.{what}" then "unaging.{what}" */
static int read_kind(struct host_read *r, const char *data, const char *what, size_t size,
		     bool per_file, npa_rec_fn fn, uint8_t kind)
{
	static const char *const groups[] = { "aging.", "unaging." };
	struct npa_slices s;
	char prefix[96];
	int rc = 0;

	r->bad = false;
	for (int g = 0; g < 2 && !rc; g++) {
		const char *prefixes[] = { prefix, NULL };
		size_t before_api = r->h->n_api, before_nr = r->n_nr;

		snprintf(prefix, sizeof(prefix), "%s%s", groups[g], what);
		rc = npa_slices_find(&s, data, NPF_RAW_HOST_DATA, prefixes, r->w, r->err);
		if (rc)
			break;
		r->kind = kind;
		r->aging = g == 0;
		rc = npa_slices_read(&s, size, per_file, fn, r, r->w, r->err);
		npa_slices_free(&s);
		if (r->bad) {
			/* msprof's parser of the kind aborts: nothing of it is kept */
			r->h->n_api = before_api;
			r->n_nr = before_nr;
		}
	}
	return rc;
}

static int load_dict(struct npa_host *h, const char *data, const char *what, bool typed,
		     struct npa_warn *w, struct npuprof_error *err)
{
	char p1[64], p2[64];
	const char *prefixes[] = { p1, p2, NULL };
	struct npa_slices s;
	int rc;

	snprintf(p1, sizeof(p1), "aging." NPF_RAW_ADDITIONAL "%s.", what);
	snprintf(p2, sizeof(p2), "unaging." NPF_RAW_ADDITIONAL "%s.", what);
	rc = npa_slices_find(&s, data, NPF_RAW_HOST_DATA, prefixes, w, err);
	if (!rc)
		rc = npa_dict_load(typed ? &h->types : &h->hash, &s, typed, w, err);
	npa_slices_free(&s);
	return rc;
}

/* ---- node windows ---- */

static int cmp_window(const void *a, const void *b, void *arg)
{
	const struct npa_host *h = arg;
	const struct npa_api *x = &h->api[*(const size_t *)a], *y = &h->api[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->conn < y->conn ? -1 : x->conn > y->conn;
}

int npa_windows_init(struct npa_windows *wn, const struct npa_host *h, uint32_t level)
{
	wn->h = h;
	wn->n = 0;
	wn->idx = malloc((h->n_api ? h->n_api : 1) * sizeof(*wn->idx));
	if (!wn->idx)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_api; i++)
		if (h->api[i].level == level)
			wn->idx[wn->n++] = i;
	npx_qsort_r(wn->idx, wn->n, sizeof(*wn->idx), cmp_window, (void *)h);
	return 0;
}

void npa_windows_free(struct npa_windows *wn)
{
	free(wn->idx);
	wn->idx = NULL;
	wn->n = 0;
}

int64_t npa_window_of(const struct npa_windows *wn, uint32_t tid, uint64_t ts)
{
	size_t lo = 0, hi = wn->n;
	const struct npa_api *a;

	/* the last window with (tid, begin) <= (tid, ts) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		a = &wn->h->api[wn->idx[mid]];
		if (a->tid < tid || (a->tid == tid && a->begin <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	a = &wn->h->api[wn->idx[lo - 1]];
	if (a->tid != tid || ts > a->end)
		return -1;
	return (int64_t)wn->idx[lo - 1];
}

/* a record and the window it is in */
struct win_rec {
	size_t win;
	size_t rec;
};

static int cmp_win_rec(const void *a, const void *b)
{
	const struct win_rec *x = a, *y = b;

	if (x->win != y->win)
		return x->win < y->win ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* ---- flips and batches ---- */

static int cmp_htask(const void *a, const void *b)
{
	const struct npa_htask *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* a flip goes before the tasks at its time */
	if (x->batch != y->batch)
		return x->batch > y->batch ? -1 : 1;
	return x->conn < y->conn ? -1 : x->conn > y->conn;
}

/*
 * Give every host task its batch: per (device, stream), the number of
 * FLIP_TASK records before it (msprof's FlipCalculator.compute_batch_id).
 * Flips are marked with batch UINT32_MAX on entry and removed.
 */
static void host_batches(struct npa_host *h)
{
	size_t i, out = 0;
	uint32_t dev = UINT32_MAX, stream = UINT32_MAX, batch = 0;

	npx_qsort(h->htask, h->n_htask, sizeof(*h->htask), cmp_htask);
	for (i = 0; i < h->n_htask; i++) {
		struct npa_htask *t = &h->htask[i];

		if (t->dev != dev || t->stream != stream) {
			dev = t->dev;
			stream = t->stream;
			batch = 0;
		}
		if (t->batch == UINT32_MAX) {
			batch++;
			continue;
		}
		t->batch = batch;
		h->htask[out++] = *t;
	}
	h->n_htask = out;
}

void npa_host_v6_ids(struct npa_host *h, uint32_t dev)
{
	for (size_t i = 0; i < h->n_htask; i++) {
		struct npa_htask *t = &h->htask[i];

		if (t->dev == dev) {
			t->task = (uint32_t)t->id_hi << 16 | (t->task & 0xffff);
			t->batch = 0;
		}
	}
}

/* ---- the join ---- */

static const char *type_name(struct npa_host *h, uint32_t level, uint64_t type)
{
	const char *s = npa_dict_get(&h->types, (uint64_t)level << 32 | (type & 0xffffffffu));
	char buf[32];

	if (s)
		return s;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)type);
	return intern(h, buf);
}

/* the ge task type of a kernel task_track outside any node window */
/*
 * A task_track type whose task is an op's kernel (msprof's
 * CANNAnalysisGear.is_kernel_task, no HCCL level here): KERNEL_*,
 * STARS_COMMON and FFTS_PLUS. Others (HCCL, EVENT_RECORD...) keep their
 * type as their name.
 */
static bool kernel_type(const char *type)
{
	return !strncmp(type, "KERNEL", 6) || !strcmp(type, "STARS_COMMON") ||
	       !strcmp(type, "FFTS_PLUS");
}

/* The op of node window @win at level 0: the launch's name, nothing else is known. */
static int level0_op(struct npa_host *h, size_t *cap_ops, int64_t win, int64_t *op_idx)
{
	struct npa_op *op;

	if (npa_grow((void **)&h->ops, cap_ops, h->n_ops, sizeof(*h->ops), 1024))
		return -ENOMEM;
	op = &h->ops[h->n_ops];
	memset(op, 0, sizeof(*op));
	op->ctx = NPA_NO_CTX;
	op->name = npa_host_hash_str(h, h->api[win].item);
	if (!op->name)
		return -ENOMEM;
	op->type = "N/A";
	op->task_type = NPA_TASK_TYPE_NA;
	op->model_id = NPA_NO_MODEL;
	op->level0 = true;
	op->api = (size_t)win;
	*op_idx = (int64_t)h->n_ops++;
	return 0;
}

static uint32_t lonely_task_type(const char *type)
{
	if (!strcmp(type, "KERNEL_AIVEC"))
		return CANN_GE_AI_VECTOR_CORE;
	if (!strcmp(type, "KERNEL_MIX_AIC"))
		return CANN_GE_MIX_AIC;
	if (!strcmp(type, "KERNEL_MIX_AIV"))
		return CANN_GE_MIX_AIV;
	if (!strcmp(type, "KERNEL_AICPU"))
		return CANN_GE_AI_CPU;
	return CANN_GE_AI_CORE;
}

static bool mix_kernel(const char *type)
{
	return !strcmp(type, "KERNEL_MIX_AIC") || !strcmp(type, "KERNEL_MIX_AIV");
}

static int join(struct host_read *r)
{
	struct npa_host *h = r->h;
	struct npa_windows wn = { .h = h };
	int64_t *win_op = NULL;
	const struct cann_tensor_info **tis = NULL;
	size_t i, cap_ops = 0, n_tis, n_tracks = 0;
	const char *tname = NULL;
	uint64_t last = 0;
	bool mix = false;
	int rc = -ENOMEM;

	rc = npa_windows_init(&wn, h, CANN_LEVEL_NODE);
	if (rc)
		goto out;
	rc = -ENOMEM;
	win_op = malloc((h->n_api ? h->n_api : 1) * sizeof(*win_op));
	tis = malloc((r->n_nr ? r->n_nr : 1) * sizeof(*tis));
	/* a mix kernel's task_track is two host tasks (below); types repeat: one lookup a run */
	for (i = 0; i < r->n_nr; i++) {
		if (r->nr[i].kind != REC_TRACK)
			continue;
		n_tracks++;
		if (!tname || r->nr[i].rec.tt.task_type != last) {
			last = r->nr[i].rec.tt.task_type;
			tname = type_name(h, CANN_LEVEL_RUNTIME, last);
			if (!tname)
				goto out;
			mix = mix_kernel(tname);
		}
		n_tracks += mix;
	}
	h->htask = calloc(n_tracks ? n_tracks : 1, sizeof(*h->htask));
	if (!win_op || !tis || !h->htask)
		goto out;
	for (i = 0; i < h->n_api; i++)
		win_op[i] = -1;

	/* ops: one per window with a node_basic_info (the first one counts) */
	for (i = 0; i < r->n_nr; i++) {
		const struct node_rec *n = &r->nr[i];
		const struct cann_node_basic_info *b = &n->rec.nbi;
		int64_t win;
		struct npa_op *op;

		/* at level 0 msprof takes no op info, only the launch's name */
		if (n->kind != REC_NBI || h->cfg.level0)
			continue;
		win = npa_window_of(&wn, n->tid, n->ts);
		if (win < 0) {
			npa_warn(r->w,
				 "host/data: node_basic_info of thread %u at %llu ns is in no"
				 " node launch window: ignored",
				 n->tid, (unsigned long long)n->ts);
			continue;
		}
		if (win_op[win] >= 0)
			continue;
		if (npa_grow((void **)&h->ops, &cap_ops, h->n_ops, sizeof(*h->ops), 1024))
			goto out;
		op = &h->ops[h->n_ops];
		memset(op, 0, sizeof(*op));
		op->ctx = NPA_NO_CTX;
		op->name = npa_host_hash_str(h, h->api[win].item);
		op->type = npa_host_hash_str(h, b->op_type);
		if (!op->name || !op->type)
			goto out;
		op->task_type = b->task_type;
		if (b->task_type >= CANN_GE_TASK_TYPE_COUNT)
			npa_warn(r->w, "host/data: node_basic_info task type %u is unknown",
				 b->task_type);
		op->block_num = b->block_dim & 0xffff;
		op->mix_block_num = (b->block_dim & 0xffff) * (b->block_dim >> 16);
		op->dynamic = n->aging;
		op->hf32 = b->op_flag != 0;
		op->model_id = NPA_NO_MODEL;
		op->api = (size_t)win;
		win_op[win] = (int64_t)h->n_ops++;
	}

	/*
	 * context ids: a mix op's context_id_info gives its TaskInfo row the
	 * context (0) its FFTS+ context runs as; one context is read
	 */
	for (i = 0; i < r->n_nr; i++) {
		const struct node_rec *n = &r->nr[i];
		int64_t win;

		if (n->kind != REC_CTX || !n->rec.ctx.num)
			continue;
		win = npa_window_of(&wn, n->tid, n->ts);
		if (win < 0 || win_op[win] < 0)
			continue;
		if (n->rec.ctx.num > 1)
			npa_warn(r->w,
				 "host/data: context_id_info of thread %u at %llu ns lists %u"
				 " contexts: only the first (%u) is read",
				 n->tid, (unsigned long long)n->ts, n->rec.ctx.num,
				 n->rec.ctx.first);
		h->ops[win_op[win]].ctx = n->rec.ctx.first;
	}

	/* tensors: the tensor_info records of each op's window, in file order */
	{
		struct win_rec *tw = malloc((r->n_nr ? r->n_nr : 1) * sizeof(*tw));
		size_t n_tw = 0, k, e;

		if (!tw)
			goto out;
		for (i = 0; i < r->n_nr; i++) {
			int64_t win;

			if (r->nr[i].kind != REC_TENSOR)
				continue;
			win = npa_window_of(&wn, r->nr[i].tid, r->nr[i].ts);
			if (win >= 0 && win_op[win] >= 0)
				tw[n_tw++] = (struct win_rec){ (size_t)win, i };
		}
		npx_qsort(tw, n_tw, sizeof(*tw), cmp_win_rec);
		for (k = 0; k < n_tw; k = e) {
			for (e = k, n_tis = 0; e < n_tw && tw[e].win == tw[k].win; e++)
				tis[n_tis++] = &r->ti[r->nr[tw[e].rec].rec.ti];
			if (npa_op_tensors(h, &h->ops[win_op[tw[k].win]], tis, n_tis, r->w)) {
				free(tw);
				goto out;
			}
		}
		free(tw);
	}

	/* host tasks */
	for (i = 0; i < r->n_nr; i++) {
		const struct node_rec *n = &r->nr[i];
		const struct cann_task_track *t = &n->rec.tt;
		struct npa_htask *ht;
		const char *type;
		int64_t win;

		if (n->kind != REC_TRACK)
			continue;
		type = type_name(h, CANN_LEVEL_RUNTIME, t->task_type);
		if (!type)
			goto out;
		if (!strcmp(type, "MAINTENANCE"))
			continue;
		ht = &h->htask[h->n_htask++];
		ht->dev = t->device & 0xfff;
		ht->stream = t->stream_id;
		ht->task = t->task_id;
		ht->id_hi = t->batch_id;
		ht->ts = n->ts;
		ht->tid = n->tid;
		ht->ctx = NPA_NO_CTX;
		ht->type = type;
		ht->op = -1;
		ht->conn = -1;
		/* what msprof's C++ path takes Block Num and Mix Block Num from */
		ht->num_blocks = t->num_blocks;
		ht->mix_blocks = (uint32_t)t->num_blocks * (t->ratio_mode & 7);
		if (!strcmp(type, "FLIP_TASK")) {
			ht->batch = UINT32_MAX;
			continue;
		}
		ht->kernel = npa_dict_get(&h->hash, t->kernel_name);
		if (!ht->kernel)
			ht->kernel = "N/A";
		win = npa_window_of(&wn, n->tid, n->ts);
		if (win >= 0) {
			ht->conn = h->api[win].conn;
			/* only kernel tasks take the window's op (msprof's is_kernel_task) */
			if (!kernel_type(type))
				continue;
			if (h->cfg.level0 && win_op[win] < 0 &&
			    level0_op(h, &cap_ops, win, &win_op[win]))
				goto out;
			ht->op = win_op[win];
			if (ht->op < 0)
				npa_warn(r->w,
					 "host/data: the launch of thread %u at %llu ns has no"
					 " node_basic_info: its task %u of stream %u has no op",
					 n->tid, (unsigned long long)h->api[win].begin, ht->task,
					 ht->stream);
		} else if (!strncmp(type, "KERNEL", 6) && strcmp(ht->kernel, "N/A")) {
			/* a kernel with no launch: named after itself (msprof's lonely task) */
			struct npa_op *op;

			if (npa_grow((void **)&h->ops, &cap_ops, h->n_ops, sizeof(*h->ops), 1024))
				goto out;
			op = &h->ops[h->n_ops];
			memset(op, 0, sizeof(*op));
			op->ctx = NPA_NO_CTX;
			op->name = op->type = ht->kernel;
			op->task_type = lonely_task_type(type);
			op->model_id = NPA_NO_MODEL;
			op->api = SIZE_MAX;
			ht->op = (int64_t)h->n_ops++;
		}
		/*
		 * a mix kernel runs as an FFTS+ context (0) and as its task
		 * (msprof's get_context_ids: "0" is added to the default)
		 */
		if (mix_kernel(type)) {
			h->htask[h->n_htask] = *ht;
			h->htask[h->n_htask++].ctx = 0;
		}
	}
	host_batches(h);
	rc = 0;
out:
	if (rc)
		npx_set_error(r->err, rc, "out of memory");
	npa_windows_free(&wn);
	free(win_op);
	free(tis);
	return rc;
}

int npa_host_load(struct npa_host *h, const char *prof, struct npa_warn *w,
		  struct npuprof_error *err)
{
	struct host_read r = { .h = h, .w = w, .err = err };
	char dir[PATH_MAX], data[PATH_MAX + 8];
	int rc;

	memset(h, 0, sizeof(*h));
	snprintf(dir, sizeof(dir), "%s/host", prof);
	rc = npa_host_cfg_load(dir, &h->cfg, w, err);
	if (rc)
		return rc;
	snprintf(data, sizeof(data), "%s/data", dir);
	rc = load_dict(h, data, NPF_RAW_HASH_DIC, false, w, err);
	if (!rc)
		rc = load_dict(h, data, NPF_RAW_TYPE_INFO_DIC, true, w, err);
	if (!rc)
		rc = read_kind(&r, data, NPF_RAW_API_EVENT ".", sizeof(struct cann_api_event), true,
			       on_api, 0);
	if (!rc)
		rc = read_kind(&r, data, NPF_RAW_COMPACT NPF_RAW_NODE_BASIC_INFO ".",
			       sizeof(struct cann_node_basic_info), false, on_node_rec, REC_NBI);
	if (!rc)
		rc = read_kind(&r, data, NPF_RAW_ADDITIONAL NPF_RAW_TENSOR_INFO ".",
			       sizeof(struct cann_tensor_info), false, on_node_rec, REC_TENSOR);
	if (!rc)
		rc = read_kind(&r, data, NPF_RAW_COMPACT NPF_RAW_TASK_TRACK ".",
			       sizeof(struct cann_task_track), false, on_node_rec, REC_TRACK);
	if (!rc)
		rc = read_kind(&r, data, NPF_RAW_ADDITIONAL NPF_RAW_CONTEXT_ID_INFO ".",
			       sizeof(struct cann_context_id_info), false, on_node_rec, REC_CTX);
	if (!rc)
		rc = join(&r);
	if (!rc)
		rc = npa_hccl_load(h, data, w, err);
	if (!rc && h->dropped_begin0)
		npa_warn(w, "host/data: %llu API records start at 0: dropped, as msprof drops them",
			 (unsigned long long)h->dropped_begin0);
	free(r.nr);
	free(r.ti);
	return rc;
}

void npa_host_free(struct npa_host *h)
{
	for (size_t i = 0; i < h->n_strs; i++)
		free(h->strs[i]);
	free(h->strs);
	npx_hmap_free(&h->tensor_strs);
	free(h->ops);
	free(h->api);
	free(h->htask);
	npa_hccl_free(h);
	npa_dict_free(&h->hash);
	npa_dict_free(&h->types);
	memset(h, 0, sizeof(*h));
}
