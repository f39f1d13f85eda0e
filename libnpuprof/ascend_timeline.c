// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: msprof_{ts}.json of the real layout, the events
 * msprof's parser writes (docs/msprof-parser.md section 6):
 *
 *   CANN              AscendCL@ / Node@ / Runtime@ ... calls of each host thread
 *   Ascend Hardware   the device tasks, one thread per stream
 *   HostToDevice      a flow from each task_track to its device task
 *   AI Core Freq      the clock, one counter per millisecond
 *   Overlap Analysis  Computing (merged op intervals) and Free (the gaps)
 *
 * Each device's events are built in msprof's construction order and
 * sorted, stably, by the float value of their "ts" (metadata first), as
 * msprof sorts them; the devices' lists are then merged as msprof merges
 * its per-device files: every metadata event first, then the rest in
 * device order, each CANN call once. One difference: msprof orders the
 * thread metadata of a process by CPython's set iteration order, we by
 * thread id (docs/output.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof_internal.h"

#define SORT_CANN 7
#define SORT_HW 14
#define SORT_FREQ 15
#define SORT_OVERLAP_BASE 19

/**
 * struct tl_ev - one event, formatted
 * @ts: float(ts), 0 for metadata (they sort first).
 * @seq: construction order, for the stable sort.
 * @off: its text in the arena.
 * @len: its length.
 * @meta: a metadata ("M") event.
 * @conn: a CANN call's connection id; 0 for other events (and for the
 *        call of id 0, which msprof does not de-duplicate either).
 */
struct tl_ev {
	double ts;
	uint64_t seq;
	size_t off;
	uint32_t len;
	bool meta;
	uint64_t conn;
};

#define TL_SCRATCH (128u << 10) /* one event: three names of 4 KiB, escaped 6 times */

struct tl {
	char *scratch;
	char *arena;
	size_t used, cap;
	struct tl_ev *ev;
	size_t n, cap_ev;
	struct npuprof_error *err;
};

static int tl_add(struct tl *t, const char *text, size_t len, const char *ts, bool meta,
		  uint64_t conn)
{
	struct tl_ev *e;

	if (t->used + len > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1 << 20;
		char *p;

		while (cap < t->used + len)
			cap *= 2;
		p = realloc(t->arena, cap);
		if (!p)
			return npuprof_set_error(t->err, -ENOMEM, "out of memory");
		t->arena = p;
		t->cap = cap;
	}
	if (t->n == t->cap_ev) {
		size_t cap = t->cap_ev ? 2 * t->cap_ev : 4096;
		void *p = realloc(t->ev, cap * sizeof(*t->ev));

		if (!p)
			return npuprof_set_error(t->err, -ENOMEM, "out of memory");
		t->ev = p;
		t->cap_ev = cap;
	}
	memcpy(t->arena + t->used, text, len);
	e = &t->ev[t->n];
	e->ts = ts ? strtod(ts, NULL) : 0;
	e->seq = t->n;
	e->off = t->used;
	e->len = (uint32_t)len;
	e->meta = meta;
	e->conn = conn;
	t->used += len;
	t->n++;
	return 0;
}

/* the inside of a JSON string as json.dumps(ensure_ascii=True) writes it */
static char *json_body(char *p, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		uint32_t c = *u;
		int n = 0;

		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
			u++;
			continue;
		}
		if (c < 0x20) {
			static const char esc[] = "btnvfr";

			*p++ = '\\';
			if (c >= 8 && c <= 13 && c != 11) {
				*p++ = esc[c - 8];
			} else {
				p = npx_lit(p, "u00");
				*p++ = hex[c >> 4];
				*p++ = hex[c & 15];
			}
			u++;
			continue;
		}
		if (c < 0x80) {
			*p++ = (char)c;
			u++;
			continue;
		}
		/* UTF-8 to \uXXXX (surrogate pairs above the BMP) */
		if ((c & 0xe0) == 0xc0)
			n = 1, c &= 0x1f;
		else if ((c & 0xf0) == 0xe0)
			n = 2, c &= 0x0f;
		else if ((c & 0xf8) == 0xf0)
			n = 3, c &= 0x07;
		else
			n = -1;
		u++;
		for (int i = 0; i < n; i++) {
			if ((u[0] & 0xc0) != 0x80) {
				n = -1;
				break;
			}
			c = c << 6 | (*u++ & 0x3f);
		}
		if (n < 0)
			c = 0xfffd;
		if (c >= 0x10000) {
			uint32_t v = c - 0x10000, hi = 0xd800 | (v >> 10),
				 lo = 0xdc00 | (v & 0x3ff);

			p += sprintf(p, "\\u%04x\\u%04x", hi, lo);
		} else {
			p += sprintf(p, "\\u%04x", c);
		}
	}
	return p;
}

static char *json_str(char *p, const char *s)
{
	*p++ = '"';
	p = json_body(p, s);
	*p++ = '"';
	return p;
}

/* msprof's format pid: (pid << 10) | (sort index << 5) | device (31: host) */
static uint64_t fmt_pid(long pid, uint32_t sort, uint32_t dev)
{
	return (uint64_t)pid << 10 | (uint64_t)sort << 5 | dev;
}

static int meta(struct tl *t, const char *what, uint64_t pid, uint64_t tid, const char *key,
		const char *sval, int64_t ival)
{
	char buf[512], *p = buf;

	p = npx_lit(p, "{\"name\": \"");
	p = npx_put(p, what);
	p = npx_lit(p, "\", \"pid\": ");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npx_fmt_u64(p, tid);
	p = npx_lit(p, ", \"args\": {\"");
	p = npx_put(p, key);
	p = npx_lit(p, "\": ");
	if (sval)
		p = json_str(p, sval);
	else
		p += sprintf(p, "%lld", (long long)ival);
	p = npx_lit(p, "}, \"ph\": \"M\"}");
	return tl_add(t, buf, (size_t)(p - buf), NULL, true, 0);
}

static int process_meta(struct tl *t, uint64_t pid, const char *name)
{
	return meta(t, "process_name", pid, 0, "name", name, 0);
}

static int process_tail(struct tl *t, uint64_t pid, const char *labels, uint32_t sort)
{
	int rc = meta(t, "process_labels", pid, 0, "labels", labels, 0);

	return rc ? rc : meta(t, "process_sort_index", pid, 0, "sort_index", NULL, sort);
}

/* ---- CANN ---- */

static const char *level_prefix(uint32_t level)
{
	switch (level) {
	case CANN_LEVEL_ACL:
		return "AscendCL";
	case CANN_LEVEL_RUNTIME:
		return "Runtime";
	case CANN_LEVEL_MODEL:
		return "Model";
	case CANN_LEVEL_NODE:
		return "Node";
	case CANN_LEVEL_HCCL:
		return "Communication";
	case CANN_LEVEL_AICPU:
		return "Aicpu";
	case CANN_LEVEL_TX:
		return "Msproftx";
	case CANN_LEVEL_PTA:
		return "Pta";
	case CANN_LEVEL_PYTORCH_TX:
		return "Pytorch_tx";
	}
	return "Unknown";
}

static const char *level_lower(uint32_t level)
{
	switch (level) {
	case CANN_LEVEL_ACL:
		return "acl";
	case CANN_LEVEL_RUNTIME:
		return "runtime";
	case CANN_LEVEL_MODEL:
		return "model";
	case CANN_LEVEL_NODE:
		return "node";
	case CANN_LEVEL_HCCL:
		return "communication";
	case CANN_LEVEL_AICPU:
		return "aicpu";
	case CANN_LEVEL_TX:
		return "msproftx";
	case CANN_LEVEL_PTA:
		return "pta";
	case CANN_LEVEL_PYTORCH_TX:
		return "pytorch_tx";
	}
	return "unknown";
}

static const char *acl_tag(uint32_t type)
{
	static const char *const tags[] = { NULL,	  "ACL_OP",   "ACL_MODEL",   "ACL_RTS",
					    "ACL_OTHERS", "ACL_NN",   "ACL_ASCENDC", "HOST_HCCL",
					    NULL,	  "ACL_DVPP", "ACL_GRAPH",   "ACL_ATB" };
	uint32_t t = type >> 16;

	return t < NPX_ARRAY_SIZE(tags) && tags[t] ? tags[t] : "ACL_OTHERS";
}

/* host µs of host ns, and its local time string */
static char *host_local(char *p, uint64_t ns, double offset)
{
	char us[NPX_PY_FMT_MAX], off[NPX_PY_FMT_MAX];

	npx_py_repr(us, (double)ns * 1e6 / 1e9);
	npx_py_repr(off, offset);
	return npx_py_decimal_add3(p, us, off);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- the flows to the collectives and their copies ---- */

/*
 * The start of a flow to a device event: on @a's thread at its time, id
 * (connection id << 32) + @ctx (HostToDevice.add_hccl_start_points,
 * add_memcpy_async_start_points).
 */
static int flow_start(struct tl *t, uint64_t pid, const struct npa_api *a, const char *ts,
		      int64_t ctx)
{
	char buf[512], id[32], *p = buf;

	snprintf(id, sizeof(id), "%lld", (long long)((int64_t)a->conn * 4294967296LL + ctx));
	p = npx_lit(p, "{\"name\": \"HostToDevice");
	p = npx_put(p, id);
	p = npx_lit(p, "\", \"ph\": \"s\", \"cat\": \"HostToDevice\", \"id\": \"");
	p = npx_put(p, id);
	p = npx_lit(p, "\", \"pid\": ");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npx_fmt_u64(p, a->tid);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\"}");
	return tl_add(t, buf, (size_t)(p - buf), ts, false, 0);
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

/*
 * The flows' starts of the CANN calls @emitted: one per collective launch
 * (a Node@launch of the connection id of an HCCL task), then one per
 * MEMCPY_ASYNC task of the call's connection id.
 */
static int comm_flow_starts(struct tl *t, const struct npa_export *x, const struct npa_dev *d,
			    uint64_t pid, const size_t *emitted, size_t n_emitted)
{
	const struct npa_host *h = &x->host;
	struct conn_ctx *hc = malloc((d->comm.n + 1) * sizeof(*hc)),
			*mc = malloc((d->n_tasks + 1) * sizeof(*mc));
	size_t nh = 0, nm = 0;
	int rc = 0;

	if (!hc || !mc) {
		free(hc);
		free(mc);
		return npuprof_set_error(t->err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->comm.n; i++)
		if (d->comm.t[i].hop >= 0)
			hc[nh++] = (struct conn_ctx){ h->hops[d->comm.t[i].hop].conn, i, 0 };
	for (size_t k = 0; k < d->n_tasks; k++)
		if (is_memcpy(x, &d->tasks[k]))
			mc[nm++] = (struct conn_ctx){ h->htask[d->tasks[k].host].conn, k,
						      d->tasks[k].ctx };
	qsort(hc, nh, sizeof(*hc), cmp_conn_ctx);
	qsort(mc, nm, sizeof(*mc), cmp_conn_ctx);
	for (size_t i = 0; !rc && i < n_emitted; i++) {
		const struct npa_api *a = &h->api[emitted[i]];
		size_t j = conn_lower(hc, nh, a->conn);
		char ts[NPX_PY_FMT_MAX];

		if (a->level != CANN_LEVEL_NODE || j == nh || hc[j].conn != a->conn)
			continue;
		host_local(ts, a->begin, h->cfg.clock.offset);
		rc = flow_start(t, pid, a, ts, -1);
	}
	for (size_t i = 0; !rc && i < n_emitted; i++) {
		const struct npa_api *a = &h->api[emitted[i]];
		size_t j = conn_lower(mc, nm, a->conn);
		char ts[NPX_PY_FMT_MAX];

		if (j == nm || mc[j].conn != a->conn)
			continue;
		host_local(ts, a->begin, h->cfg.clock.offset);
		for (; !rc && j < nm && mc[j].conn == a->conn; j++)
			rc = flow_start(t, pid, a, ts, mc[j].ctx);
	}
	free(hc);
	free(mc);
	return rc;
}

static int cann(struct tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_host *h = &x->host;
	uint64_t pid = fmt_pid(d->cfg.pid, SORT_CANN, 31);
	double begin = strtod(h->cfg.clock.begin, NULL);
	uint32_t *tids;
	size_t nt = 0, *emitted, n_emitted = 0;
	char *buf = t->scratch, tsb[NPX_PY_FMT_MAX], num[32];
	int rc;

	if (!h->n_api)
		return 0;
	tids = malloc(h->n_api * sizeof(*tids));
	if (!tids)
		return npuprof_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < h->n_api; i++)
		tids[nt++] = h->api[i].tid;
	qsort(tids, nt, sizeof(*tids), cmp_u32);
	rc = process_meta(t, pid, "CANN");
	for (size_t i = 0; !rc && i < nt; i++) {
		if (i && tids[i] == tids[i - 1])
			continue;
		snprintf(num, sizeof(num), "Thread %u", tids[i]);
		rc = meta(t, "thread_name", pid, tids[i], "name", num, 0);
	}
	for (size_t i = 0; !rc && i < nt; i++) {
		if (i && tids[i] == tids[i - 1])
			continue;
		rc = meta(t, "thread_sort_index", pid, tids[i], "sort_index", NULL, tids[i]);
	}
	free(tids);
	emitted = malloc(h->n_api * sizeof(*emitted));
	if (!emitted)
		return npuprof_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < h->n_api; i++) {
		const struct npa_api *a = &h->api[i];
		const char *type = npa_dict_get(&h->types, (uint64_t)a->level << 32 | a->type);
		const char *item = npa_hash_name(h, a->item, num, sizeof(num));
		char tname[32], *p = buf;
		const char *api, *mode;

		/* a zero-length call is an event too (dur 0.0), though no tree node */
		host_local(tsb, a->begin, h->cfg.clock.offset);
		if (strtod(tsb, NULL) < begin)
			continue;
		if (!type) {
			snprintf(tname, sizeof(tname), "%u", a->type);
			type = tname;
		}
		mode = a->level == CANN_LEVEL_ACL ? acl_tag(a->type) : type;
		api = a->level == CANN_LEVEL_ACL ? type : a->level == CANN_LEVEL_HCCL ? item : type;
		p = npx_lit(p, "{\"name\": \"");
		p = npx_put(p, level_prefix(a->level));
		*p++ = '@';
		p = json_body(p, api);
		*p++ = '"';
		p = npx_lit(p, ", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, a->tid);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npx_py_repr(p, (double)(int64_t)(a->end - a->begin) * 1e6 / 1e9);
		p = npx_lit(p, ", \"args\": {\"Thread Id\": ");
		p = npx_fmt_u64(p, a->tid);
		p = npx_lit(p, ", \"Mode\": ");
		p = json_str(p, mode);
		p = npx_lit(p, ", \"level\": \"");
		p = npx_put(p, level_lower(a->level));
		p = npx_lit(p, "\", \"id\": ");
		p = json_str(p, a->level == CANN_LEVEL_ACL ? type : "0");
		p = npx_lit(p, ", \"item_id\": ");
		p = json_str(p, item);
		p = npx_lit(p, ", \"connection_id\": ");
		p = npx_fmt_u64(p, a->conn);
		p = npx_lit(p, "}, \"ph\": \"X\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, a->conn);
		emitted[n_emitted++] = i;
	}
	if (!rc)
		rc = comm_flow_starts(t, x, d, pid, emitted, n_emitted);
	free(emitted);
	if (!rc)
		rc = process_tail(t, pid, "CPU", SORT_CANN);
	return rc;
}

/* ---- Ascend Hardware and the flows ---- */

/*
 * msprof's timeline window (msprof_timeline.py): start <= Decimal(ts), or
 * ts < start < ts + dur; the first exactly, the second in doubles.
 */
static bool in_window(const char *ts, double dur_us, double begin)
{
	return npx_py_decimal_cmp_float(ts, begin) >= 0 ||
	       (dur_us > 0 && begin < strtod(ts, NULL) + dur_us);
}

static int cmp_stream(const void *a, const void *b)
{
	return cmp_u32(a, b);
}

static int hardware(struct tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_host *h = &x->host;
	uint64_t pid = fmt_pid(d->cfg.pid, SORT_HW, d->cfg.id);
	uint64_t cann_pid = fmt_pid(d->cfg.pid, SORT_CANN, 31);
	double begin = strtod(d->cfg.clock.begin, NULL);
	uint32_t *streams;
	size_t ns = 0;
	char *buf = t->scratch, tsb[NPX_PY_FMT_MAX], id[48];
	int rc;

	if (!d->n_tasks)
		return 0;
	streams = malloc(d->n_tasks * sizeof(*streams));
	if (!streams)
		return npuprof_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < d->n_tasks; i++)
		streams[ns++] = d->tasks[i].stream;
	qsort(streams, ns, sizeof(*streams), cmp_stream);
	rc = process_meta(t, pid, "Ascend Hardware");
	for (size_t i = 0; !rc && i < ns; i++) {
		if (i && streams[i] == streams[i - 1])
			continue;
		snprintf(id, sizeof(id), "Stream %u", streams[i]);
		rc = meta(t, "thread_name", pid, streams[i], "name", id, 0);
		if (!rc)
			rc = meta(t, "thread_sort_index", pid, streams[i], "sort_index", NULL,
				  streams[i]);
	}
	free(streams);
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
		const struct npa_op *op = ht && ht->op >= 0 ? &h->ops[ht->op] : NULL;
		const char *type = op && !op->level0 ? npa_ge_task_type_name(op->task_type)
				   : ht		     ? ht->type
						     : "AI_CORE";
		char *p = buf;

		npx_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		if (!in_window(tsb, k->dur / 1000, begin))
			continue;
		p = npx_lit(p, "{\"name\": ");
		p = json_str(p, op ? op->name : type);
		p = npx_lit(p, ", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, k->stream);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npx_py_repr(p, k->dur / 1000);
		p = npx_lit(p, ", \"args\": {\"Model Id\": ");
		p = npx_fmt_u64(p, op ? op->model_id : NPA_NO_MODEL);
		p = npx_lit(p, ", \"Task Type\": ");
		p = json_str(p, type);
		p = npx_lit(p, ", \"Physic Stream Id\": ");
		p = npx_fmt_u64(p, k->stream);
		p = npx_lit(p, ", \"Task Id\": ");
		p = npx_fmt_u64(p, k->task);
		p = npx_lit(p, ", \"Batch Id\": ");
		p = npx_fmt_u64(p, k->batch);
		p = npx_lit(p, ", \"Subtask Id\": ");
		p = npx_fmt_u64(p, k->ctx);
		p = npx_lit(p, ", \"connection_id\": ");
		p += sprintf(p, "%lld", ht ? (long long)ht->conn : -1LL);
		p = npx_lit(p, "}, \"ph\": \"X\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	snprintf(id, sizeof(id), "NPU %u", d->cfg.id);
	if (!rc)
		rc = process_tail(t, pid, id, SORT_HW);
	/* flows: a kernel task with a host task (msprof: one in TaskInfo) */
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
		npx_u128 fid;
		char hts[NPX_PY_FMT_MAX], *p = buf, *q;

		if (!ht || ht->op < 0 || strncmp(ht->type, "KERNEL", 6))
			continue;
		npx_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		fid = (npx_u128)d->cfg.id << 80 | (npx_u128)k->stream << 64 |
		      (npx_u128)k->task << 48 | (npx_u128)k->batch << 32 | k->ctx;
		q = npx_fmt_u128(id, fid);
		*q = 0;
		host_local(hts, ht->ts, h->cfg.clock.offset);
		p = npx_lit(p, "{\"name\": \"HostToDevice");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ph\": \"s\", \"cat\": \"HostToDevice\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"pid\": ");
		p = npx_fmt_u64(p, cann_pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, ht->tid);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, hts);
		p = npx_lit(p, "\"}");
		/* start events are never filtered */
		rc = tl_add(t, buf, (size_t)(p - buf), hts, false, 0);
		if (rc || !in_window(tsb, 0, begin))
			continue;
		p = buf;
		p = npx_lit(p, "{\"name\": \"HostToDevice");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ph\": \"f\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"cat\": \"HostToDevice\", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, k->stream);
		p = npx_lit(p, ", \"bp\": \"e\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	/* the copies' ends: (connection id << 32) + context id (add_memcpy_async_end_points) */
	for (size_t i = 0; !rc && h->n_api && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
		const struct npa_op *op = ht && ht->op >= 0 ? &h->ops[ht->op] : NULL;
		char *p = buf;

		if (!is_memcpy(x, k) || (op && strcmp(op->name, "MEMCPY_ASYNC")))
			continue;
		npx_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		if (!in_window(tsb, 0, begin))
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
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, k->stream);
		p = npx_lit(p, ", \"bp\": \"e\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	return rc;
}

/* ---- Communication ---- */

#define SORT_COMM 17

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
	p = npx_fmt_u64(p, h->notify);
	p = npx_lit(p, "\", \"duration estimated(us)\": ");
	if (h->dur_est > -1e15 && h->dur_est < 1e15 && (double)(long long)h->dur_est == h->dur_est)
		p += sprintf(p, "%lld", (long long)h->dur_est);
	else
		p = npx_py_repr(p, h->dur_est);
	p = npx_lit(p, ", \"stream id\": ");
	p = npx_fmt_u64(p, h->stream);
	p = npx_lit(p, ", \"task id\": ");
	p = npx_fmt_u64(p, h->task);
	p = npx_lit(p, ", \"context id\": ");
	p = npx_fmt_u64(p, h->ctx);
	p = npx_lit(p, ", \"task type\": ");
	p = json_str(p, h->name);
	p += sprintf(p, ", \"src rank\": %lld, \"dst rank\": %lld", (long long)h->local_rank,
		     (long long)h->remote_rank);
	p = npx_lit(p, ", \"transport type\": ");
	p = json_str(p, npa_hccl_transport(h->transport, b, sizeof(b)));
	p = npx_lit(p, ", \"size(Byte)\": ");
	p = npx_fmt_u64(p, h->size);
	p = npx_lit(p, ", \"data type\": ");
	p = json_str(p, npa_hccl_data_type(h->data_type, b, sizeof(b)));
	p = npx_lit(p, ", \"link type\": ");
	p = json_str(p, npa_hccl_link_type(h->link_type, b, sizeof(b)));
	p = npx_lit(p, ", \"bandwidth(GB/s)\": ");
	if (ct->bw < 0)
		*p++ = '0';
	else
		p = npx_py_repr(p, ct->bw);
	p = npx_lit(p, ", \"model id\": ");
	p = npx_fmt_u64(p, NPA_NO_MODEL);
	return npx_lit(p, "}");
}

static int comm_meta(struct tl *t, uint64_t pid, struct comm_group *g, size_t ng,
		     const struct npa_host *h)
{
	uint32_t index = 0;
	int rc = process_meta(t, pid, "Communication");

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
		rc = meta(t, "thread_name", pid, index, "name", name, 0);
		if (!rc)
			rc = meta(t, "thread_sort_index", pid, index, "sort_index", NULL, index);
		for (uint32_t p = 0; !rc && p < 64; p++) {
			if (!(g[i].planes >> p & 1))
				continue;
			snprintf(name, sizeof(name), "Plane %u", p);
			rc = meta(t, "thread_name", pid, g[i].start + p + 1, "name", name, 0);
			index = g[i].start + p + 1;
		}
		for (uint32_t p = 0; !rc && p < 64; p++)
			if (g[i].planes >> p & 1)
				rc = meta(t, "thread_sort_index", pid, g[i].start + p + 1,
					  "sort_index", NULL, g[i].start + p + 1);
		index++;
	}
	return rc;
}

static int communication(struct tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_comm *c = &d->comm;
	const struct npa_host *h = &x->host;
	uint64_t pid = fmt_pid(d->cfg.pid, SORT_COMM, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL);
	struct comm_group *g;
	size_t ng = 0;
	char *buf = t->scratch, tsb[NPX_PY_FMT_MAX], label[32];
	int rc;

	if (!c->n)
		return 0;
	g = calloc(c->n, sizeof(*g));
	if (!g)
		return npuprof_set_error(t->err, -ENOMEM, "out of memory");
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
		npx_py_local_time_d(tsb, ct->start, d->cfg.clock.offset);
		if (!in_window(tsb, ct->dur / 1000, begin))
			continue;
		p = npx_lit(p, "{\"name\": ");
		p = json_str(p, ct->h->name);
		p = npx_lit(p, ", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, q->start + (uint64_t)ct->h->plane + 1);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npx_py_repr(p, ct->dur / 1000);
		p = comm_task_args(p, ct);
		p = npx_lit(p, ", \"ph\": \"X\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	/* the collectives, on their group's thread */
	for (size_t i = 0; !rc && i < c->n_op; i++) {
		const struct npa_comm_op *op = &c->op[i];
		const struct npa_hccl_op *hop = op->hop >= 0 ? &h->hops[op->hop] : NULL;
		const struct comm_group *q = find_group(g, ng, op->group, op->have_group);
		char *p = buf, b[32];

		if (!q)
			continue;
		npx_py_local_time_d(tsb, op->start, d->cfg.clock.offset);
		if (!in_window(tsb, (op->end - op->start) / 1000, begin))
			continue;
		p = npx_lit(p, "{\"name\": ");
		p = json_str(p, op->name);
		p = npx_lit(p, ", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, q->start);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"dur\": ");
		p = npx_py_repr(p, (op->end - op->start) / 1000);
		p += sprintf(p, ", \"args\": {\"rank_size\": %lld, \"connection_id\": %lld",
			     (long long)op->rank_size, (long long)op->conn);
		p = npx_lit(p, ", \"model id\": ");
		p = npx_fmt_u64(p, NPA_NO_MODEL);
		p = npx_lit(p, ", \"data_type\": ");
		p = json_str(p, hop && hop->info ? npa_hccl_data_type(hop->data_type, b, sizeof(b))
						 : "N/A");
		p = npx_lit(p, ", \"alg_type\": ");
		p = json_str(p, hop && hop->info && hop->alg ? hop->alg : "N/A");
		p = npx_lit(p, ", \"count\": ");
		p = npx_fmt_u64(p, hop && hop->info ? hop->count : 0);
		p = npx_lit(p, "}, \"ph\": \"X\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	/* the flows' ends: (connection id << 32) + context id (-1) */
	for (size_t i = 0; !rc && i < c->n_op; i++) {
		const struct npa_comm_op *op = &c->op[i];
		const struct comm_group *q = find_group(g, ng, op->group, op->have_group);
		char *p = buf, id[32];

		if (!q || op->conn < 0)
			continue;
		npx_py_local_time_d(tsb, op->start, d->cfg.clock.offset);
		if (!in_window(tsb, 0, begin))
			continue;
		snprintf(id, sizeof(id), "%lld", (long long)(op->conn * 4294967296LL - 1));
		p = npx_lit(p, "{\"name\": \"HostToDevice");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ph\": \"f\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"ts\": \"");
		p = npx_put(p, tsb);
		p = npx_lit(p, "\", \"cat\": \"HostToDevice\", \"pid\": ");
		p = npx_fmt_u64(p, pid);
		p = npx_lit(p, ", \"tid\": ");
		p = npx_fmt_u64(p, q->start);
		p = npx_lit(p, ", \"bp\": \"e\"}");
		rc = tl_add(t, buf, (size_t)(p - buf), tsb, false, 0);
	}
	free(g);
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = process_tail(t, pid, label, SORT_COMM);
	return rc;
}

/* ---- AI Core Freq ---- */

static int freq_event(struct tl *t, uint64_t pid, const char *ts, double mhz)
{
	char buf[256], *p = buf;

	p = npx_lit(p, "{\"name\": \"AI Core Freq\", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\", \"pid\": ");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": 0, \"args\": {\"MHz\": ");
	p = npx_py_repr(p, mhz);
	p = npx_lit(p, "}, \"ph\": \"C\"}");
	return tl_add(t, buf, (size_t)(p - buf), ts, false, 0);
}

static int ai_core_freq(struct tl *t, const struct npa_dev *d)
{
	uint64_t pid = fmt_pid(d->cfg.pid, SORT_FREQ, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL), first, last;
	char first_ts[NPX_PY_FMT_MAX], label[32];
	int rc;

	if (!d->cfg.aic_mhz)
		return 0;
	rc = process_meta(t, pid, "AI Core Freq");
	/* the clock at the device's start, then one fill per ms to the end */
	npx_py_local_time_d(first_ts, d->cfg.host_mon * 1e9, d->cfg.clock.offset);
	first = strtod(first_ts, NULL);
	if (!rc && in_window(first_ts, 0, begin))
		rc = freq_event(t, pid, first_ts, d->cfg.aic_mhz);
	last = d->cfg.clock.end[0] ? strtod(d->cfg.clock.end, NULL) : first + 1;
	if (!rc && last - first > 1000) {
		double gap = last - first;
		uint64_t fills = (uint64_t)(gap / 1000), f2 = (uint64_t)((gap - 1) / 1000);

		if (f2 < fills)
			fills = f2;
		for (uint64_t k = 1; !rc && k <= fills; k++) {
			char ts[NPX_PY_FMT_MAX];

			npx_py_repr(ts, first + (double)k * 1000);
			if (in_window(ts, 0, begin))
				rc = freq_event(t, pid, ts, d->cfg.aic_mhz);
		}
	}
	if (!rc && d->cfg.clock.end[0]) {
		rc = freq_event(t, pid, d->cfg.clock.end, d->cfg.aic_mhz);
	} else if (!rc && in_window(first_ts, 0, begin)) {
		/* no end_info: msprof ends the counter a microsecond after its start */
		char ts[NPX_PY_FMT_MAX];

		npx_py_decimal_add3(ts, first_ts, "1");
		rc = freq_event(t, pid, ts, d->cfg.aic_mhz);
	}
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = process_tail(t, pid, label, SORT_FREQ);
	return rc;
}

/* ---- Overlap Analysis ---- */

static int overlap_event(struct tl *t, uint64_t pid, uint32_t tid, const char *name, double s,
			 double e, double offset)
{
	char buf[512], ts[NPX_PY_FMT_MAX], te[NPX_PY_FMT_MAX], *p = buf;

	npx_py_local_time_d(ts, s, offset);
	npx_py_local_time_d(te, e, offset);
	p = npx_lit(p, "{\"name\": \"");
	p = npx_put(p, name);
	p = npx_lit(p, "\", \"pid\": ");
	p = npx_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npx_fmt_u64(p, tid);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\", \"dur\": ");
	p = npx_py_decimal_diff_repr(p, te, ts);
	p = npx_lit(p, ", \"ph\": \"X\"}");
	return tl_add(t, buf, (size_t)(p - buf), ts, false, 0);
}

static bool computing(const struct npa_export *x, const struct npa_task *k)
{
	const struct npa_htask *ht = k->host >= 0 ? &x->host.htask[k->host] : NULL;
	const struct npa_op *op = ht && ht->op >= 0 ? &x->host.ops[ht->op] : NULL;

	if (!op || strncmp(ht->type, "KERNEL", 6))
		return false;
	/* level 0: every op of ge_summary joins (its task type N/A is not UNKNOWN) */
	if (op->level0)
		return true;
	switch (op->task_type) {
	case CANN_GE_AI_CORE:
	case CANN_GE_AI_CPU:
	case CANN_GE_AI_VECTOR_CORE:
	case CANN_GE_MIX_AIC:
	case CANN_GE_MIX_AIV:
		return true;
	}
	return false;
}

/*
 * The task extremes that bound Free: the earliest start and the latest end
 * of the tasks that are not computing kernels (PipelineOverlapViewer:
 * get_ascend_task_time_extremes over the host types not in COMP_TASK_TYPE,
 * in the whole AscendTask table); 0 and infinity when there is none.
 */
static void task_extremes(const struct npa_export *x, const struct npa_dev *d, double *latest,
			  double *earliest)
{
	static const char *const comp[] = { "KERNEL_AICORE",	"KERNEL_AIVEC",
					    "FFTS_PLUS",	"KERNEL_MIX_AIC",
					    "KERNEL_MIX_AIV",	"PROFILING_ENABLE",
					    "PROFILING_DISABLE" };

	*latest = 0;
	*earliest = INFINITY;
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const char *type = k->host >= 0 ? x->host.htask[k->host].type : "UNKNOWN";
		bool is_comp = false;

		for (size_t c = 0; c < NPX_ARRAY_SIZE(comp); c++)
			is_comp |= !strcmp(type, comp[c]);
		if (is_comp)
			continue;
		if (k->start + k->dur > *latest)
			*latest = k->start + k->dur;
		if (k->start < *earliest)
			*earliest = k->start;
	}
}

/* a time section, device ns; @comm: a CommunicationTimeSection */
struct section {
	double s, e;
	bool comm;
};

struct sections {
	struct section *v;
	size_t n, cap;
};

static int sec_add(struct sections *l, double s, double e, bool comm)
{
	if (npa_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v), 64))
		return -ENOMEM;
	l->v[l->n++] = (struct section){ s, e, comm };
	return 0;
}

/* SectionCalculator.merge_continuous_intervals, in place; @l sorted by start */
static void sec_merge(struct sections *l)
{
	size_t m = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (m && l->v[i].s <= l->v[m - 1].e) {
			if (l->v[i].e > l->v[m - 1].e)
				l->v[m - 1].e = l->v[i].e;
			continue;
		}
		l->v[m++] = l->v[i];
	}
	l->n = m;
}

/* sort @l by start, stably (an insertion sort: @l is nearly sorted) */
static void sec_sort_stable(struct sections *l)
{
	for (size_t i = 1; i < l->n; i++) {
		struct section v = l->v[i];
		size_t j = i;

		while (j && l->v[j - 1].s > v.s) {
			l->v[j] = l->v[j - 1];
			j--;
		}
		l->v[j] = v;
	}
}

/*
 * SectionCalculator.compute_pipeline_overlap: the communication not
 * overlapped by computing into @pure, the gaps into @free (then the Free
 * after the last section up to @latest, and before the first from @earliest).
 */
static int pipeline_overlap(const struct sections *comm, const struct sections *comp, double latest,
			    double earliest, struct sections *pure, struct sections *free_s)
{
	struct sections all = { 0 };
	struct section min;
	double max_end = -INFINITY, min_start = INFINITY;
	int rc = 0;

	/* sorted(communication + compute, key=start): a merge, communication first on ties */
	for (size_t i = 0, j = 0; !rc && (i < comm->n || j < comp->n);) {
		if (j == comp->n || (i < comm->n && comm->v[i].s <= comp->v[j].s))
			rc = sec_add(&all, comm->v[i].s, comm->v[i].e, true), i++;
		else
			rc = sec_add(&all, comp->v[j].s, comp->v[j].e, false), j++;
	}
	if (rc || !all.n) {
		free(all.v);
		return rc;
	}
	for (size_t i = 0; i < all.n; i++) {
		if (all.v[i].e > max_end)
			max_end = all.v[i].e;
		if (all.v[i].s < min_start)
			min_start = all.v[i].s;
	}
	min = all.v[0];
	for (size_t i = 1; !rc && i < all.n; i++) {
		const struct section *ts = &all.v[i];

		if (min.e - ts->s < 0) {
			rc = sec_add(free_s, min.e, ts->s, false);
			if (!rc && min.comm)
				rc = sec_add(pure, min.s, min.e, false);
			min = *ts;
			continue;
		}
		if (min.e - ts->e < 0) {
			if (min.comm) {
				rc = sec_add(pure, min.s, ts->s, false);
				min = (struct section){ min.e, ts->e, false };
			}
			if (ts->comm)
				min = (struct section){ min.e, ts->e, true };
		} else {
			if (min.comm) {
				rc = sec_add(pure, min.s, ts->s, false);
				min = (struct section){ ts->e, min.e, true };
			}
			if (ts->comm)
				min = (struct section){ ts->e, min.e, false };
		}
	}
	if (!rc && min.comm)
		rc = sec_add(pure, min.s, min.e, false);
	if (!rc && max_end < latest)
		rc = sec_add(free_s, max_end, latest, false);
	if (!rc && min_start > earliest)
		rc = sec_add(free_s, earliest, min_start, false);
	free(all.v);
	return rc;
}

static int overlap_sections(struct tl *t, uint64_t pid, uint32_t tid, const char *name,
			    const struct sections *l, double offset)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < l->n; i++)
		rc = overlap_event(t, pid, tid, name, l->v[i].s, l->v[i].e, offset);
	return rc;
}

static int overlap(struct tl *t, const struct npa_export *x, const struct npa_dev *d, uint32_t sort)
{
	uint64_t pid = fmt_pid(d->cfg.pid, sort, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL), latest, earliest;
	struct sections comp = { 0 }, comm = { 0 }, pure = { 0 }, free_s = { 0 };
	char label[32];
	int rc = 0;

	/* computing: the computing ops' tasks in the window (op_summary's) */
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		char ts[NPX_PY_FMT_MAX];

		if (!computing(x, k))
			continue;
		npx_py_local_time_d(ts, k->start, d->cfg.clock.offset);
		if (in_window(ts, k->dur / 1000, begin))
			rc = sec_add(&comp, k->start, k->start + k->dur, false);
	}
	/* communication: the executed collectives (get_hccl_op_time_section) */
	for (size_t i = 0; !rc && i < d->comm.n_op; i++)
		rc = sec_add(&comm, d->comm.op[i].start, d->comm.op[i].end, true);
	if (rc) {
		rc = npuprof_set_error(t->err, rc, "out of memory");
		goto out;
	}
	sec_sort_stable(&comp);
	sec_merge(&comp);
	sec_sort_stable(&comm);
	sec_merge(&comm);
	if (!comp.n && !comm.n)
		goto out;
	task_extremes(x, d, &latest, &earliest);
	rc = pipeline_overlap(&comm, &comp, latest, earliest, &pure, &free_s);
	if (rc) {
		rc = npuprof_set_error(t->err, rc, "out of memory");
		goto out;
	}
	rc = overlap_sections(t, pid, 0, "Computing", &comp, d->cfg.clock.offset);
	if (!rc)
		rc = overlap_sections(t, pid, 1, "Communication", &comm, d->cfg.clock.offset);
	if (!rc)
		rc = overlap_sections(t, pid, 2, "Communication(Not Overlapped)", &pure,
				      d->cfg.clock.offset);
	if (!rc)
		rc = overlap_sections(t, pid, 3, "Free", &free_s, d->cfg.clock.offset);
	if (!rc)
		rc = process_meta(t, pid, "Overlap Analysis");
	if (!rc)
		rc = meta(t, "thread_name", pid, 0, "name", "Computing", 0);
	if (!rc)
		rc = meta(t, "thread_name", pid, 1, "name", "Communication", 0);
	if (!rc)
		rc = meta(t, "thread_name", pid, 2, "name", "Communication(Not Overlapped)", 0);
	if (!rc)
		rc = meta(t, "thread_name", pid, 3, "name", "Free", 0);
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = process_tail(t, pid, label, sort);
out:
	free(comp.v);
	free(comm.v);
	free(pure.v);
	free(free_s.v);
	return rc;
}

/* ---- the file ---- */

static int cmp_ev(const void *a, const void *b)
{
	const struct tl_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* a device's events, as msprof's device_N/timeline/msprof_N.json holds them */
static int device_events(struct tl *t, const struct npa_export *x, const struct npa_dev *d,
			 uint32_t overlap_sort)
{
	size_t first = t->n;
	int rc = cann(t, x, d);

	if (!rc)
		rc = hardware(t, x, d);
	if (!rc)
		rc = communication(t, x, d);
	if (!rc)
		rc = ai_core_freq(t, d);
	if (!rc)
		rc = overlap(t, x, d, overlap_sort);
	if (!rc)
		qsort(t->ev + first, t->n - first, sizeof(*t->ev), cmp_ev);
	return rc;
}

static int write_ev(struct npx_out *o, struct npx_file *f, const struct tl *t,
		    const struct tl_ev *e, bool *first)
{
	char *p;
	int rc = npx_file_reserve(o, f, e->len + 4, &p);

	if (rc)
		return rc;
	if (!*first)
		p = npx_lit(p, ", ");
	*first = false;
	memcpy(p, t->arena + e->off, e->len);
	npx_file_advance(f, p + e->len);
	return 0;
}

int npa_timeline(struct npa_export *x, struct npx_file *f)
{
	struct tl t = { .err = x->o.err, .scratch = malloc(TL_SCRATCH) };
	size_t *start = calloc(x->ndev + 1, sizeof(*start));
	struct npx_u64set seen = { 0 };
	char tmp[96], *p;
	bool first = true;
	int rc = 0;

	if (!start || !t.scratch) {
		free(start);
		free(t.scratch);
		return npuprof_set_error(x->o.err, -ENOMEM, "out of memory");
	}
	/* Overlap Analysis takes 19 + k, k counting the devices in reverse order */
	for (unsigned int k = 0; !rc && k < x->ndev; k++) {
		start[k] = t.n;
		rc = device_events(&t, x, &x->dev[k], SORT_OVERLAP_BASE + (x->ndev - k));
	}
	start[x->ndev] = t.n;
	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-msprof.tmp", x->o.pid);
	if (!rc)
		rc = npx_file_open(&x->o, f, tmp);
	if (!rc)
		rc = npx_file_reserve(&x->o, f, 2, &p);
	if (!rc) {
		*p++ = '[';
		npx_file_advance(f, p);
	}
	/* every device's metadata, then the rest; a CANN call only once */
	for (size_t i = 0; !rc && i < t.n; i++)
		if (t.ev[i].meta)
			rc = write_ev(&x->o, f, &t, &t.ev[i], &first);
	for (size_t i = 0; !rc && i < t.n; i++) {
		const struct tl_ev *e = &t.ev[i];

		if (e->meta)
			continue;
		if (e->conn) {
			int r = npx_u64set_add(&seen, e->conn);

			if (r < 0) {
				rc = npuprof_set_error(x->o.err, r, "out of memory");
				break;
			}
			if (!r)
				continue;
		}
		rc = write_ev(&x->o, f, &t, e, &first);
	}
	if (!rc)
		rc = npx_file_reserve(&x->o, f, 2, &p);
	if (!rc) {
		*p++ = ']';
		npx_file_advance(f, p);
		rc = npx_file_close(&x->o, f);
	}
	npx_u64set_free(&seen);
	free(start);
	free(t.scratch);
	free(t.arena);
	free(t.ev);
	return rc;
}
