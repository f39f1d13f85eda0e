// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: msprof_{ts}.json as msprof's C++ path writes it
 * (analysis/csrc/application/timeline/ at 9ba1ac7be), the path CANN runs
 * for chips 5, 15 and 16 (docs/output.md, "Which msprof path").
 *
 * Its file is one compact JSON array of chunks, one per layer, that a
 * thread pool appends in no fixed order; inside a chunk the order is its
 * assembler's. We write the chunks in the order the layers are submitted,
 * one of the orders the C++ path gives:
 *
 *   Ascend Hardware   the tasks by start, each with its flow's end when
 *                     it is an op's;
 *                     then the MEMCPY_ASYNC tasks with theirs; then the
 *                     metadata
 *   CANN              the metadata, every host call that ends after the
 *                     collection began, then the flows' starts
 *   Communication     the metadata, the HCCL tasks by start, then each
 *                     collective in its std::unordered_map's order, with
 *                     its flow's end
 *   Overlap Analysis  the metadata, then Computing, Communication,
 *                     Communication(Not Overlapped) and Free, in integers
 *   AI Core Freq      (chip 5) two points, the collection's start and end;
 *                     written twice, as the C++ path runs its assembler
 *                     once for FREQ and once for LOW_POWER
 *
 *   times        every "ts" is a string of whole local ns / 1000 with three
 *                decimals (ascend_cpp.c); a host call's is its raw ns plus
 *                host/start_info's offset, in integers
 *   connection   a host call's id is its 1-based place among all the host's
 *                calls sorted by begin, then level descending
 *                (event_grouper.cpp); a device task's is its node call's;
 *                a flow's id is the connection id << 32
 *
 * Everything is written as it is made: nothing is sorted by time, so the
 * writer holds one index per task and per call, not the events.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/ascend_timeline.h"
#include "export/cpp_umap.h"

#define CPP_SORT_CANN 7
#define CPP_SORT_HW 14
#define CPP_SORT_FREQ 15
#define CPP_SORT_COMM 16
#define CPP_SORT_OVERLAP 31
/* a device task without a host task: connection id -1, printed unsigned */
#define CPP_NO_CONN UINT64_MAX
/* one event's room: five names of 4 KiB, escaped 6 times, and numbers */
#define CPP_EV_MAX (160u << 10)

struct cw {
	struct npa_out *o;
	struct npa_file *f;
	struct npuprof_error *err;
	bool first;
	const struct npa_export *x;
	uint64_t *cid; /* the C++ connection id of x->host.api[i] */
	uint64_t host_local; /* host/start_info's offset, ns */
	uint64_t host_begin; /* host/start_info's collectionTimeBegin, ns */
	char *p; /* the event being written */
};

/* ---- the JSON rapidjson's Writer writes ---- */

/* a string, escaped as rapidjson escapes it (json_escape.c) */
static char *js(char *p, const char *s)
{
	*p++ = '"';
	p = npx_json_escape(p, s, NPX_JSON_RAPIDJSON);
	*p++ = '"';
	return p;
}

/*
 * A double as rapidjson's Writer prints it: the shortest digits (Grisu2;
 * Python's repr has the same digits), laid out by its Prettify(): "12.0",
 * "0.00052", "1e-7", "1.5e30". NaN and infinities, which it refuses, are 0.0.
 */
char *npa_cpp_double(char *p, double v)
{
	char r[40], d[24];
	const char *e;
	int nd = 0, before_point = 0, kk, k;
	bool point = false;

	if (!isfinite(v))
		v = 0;
	if (signbit(v)) {
		*p++ = '-';
		v = -v;
	}
	if (v == 0)
		return npx_lit(p, "0.0");
	*npa_py_repr(r, v) = 0;
	/* repr's digits without their leading zeros: v = 0.d * 10^kk */
	e = strchr(r, 'e');
	for (const char *q = r; *q && q != e; q++) {
		if (*q == '.') {
			point = true;
		} else if (nd || *q != '0') {
			d[nd++] = *q;
			before_point += !point;
		} else if (point) {
			before_point--; /* a zero after the point, before any digit */
		}
	}
	kk = before_point + (e ? atoi(e + 1) : 0);
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	k = kk - nd;
	if (k >= 0 && kk <= 21) {
		memcpy(p, d, nd);
		p += nd;
		for (int i = 0; i < k; i++)
			*p++ = '0';
		return npx_lit(p, ".0");
	}
	if (kk > 0 && kk <= 21) {
		memcpy(p, d, kk);
		p += kk;
		*p++ = '.';
		memcpy(p, d + kk, nd - kk);
		return p + nd - kk;
	}
	if (kk > -6 && kk <= 0) {
		p = npx_lit(p, "0.");
		for (int i = 0; i < -kk; i++)
			*p++ = '0';
		memcpy(p, d, nd);
		return p + nd;
	}
	*p++ = d[0];
	if (nd > 1) {
		*p++ = '.';
		memcpy(p, d + 1, nd - 1);
		p += nd - 1;
	}
	*p++ = 'e';
	return p + sprintf(p, "%d", kk - 1);
}

/* a "ts": whole ns / 1000 with three decimals */
static char *ts(char *p, uint64_t ns)
{
	*p++ = '"';
	p = npa_cpp_us(p, ns);
	*p++ = '"';
	return p;
}

/* GetFormatPid() computes in uint32_t */
static uint32_t fmt_pid(long pid, uint32_t sort, uint32_t dev)
{
	return (uint32_t)pid << 10 | sort << 5 | dev;
}

/* start an event: room for CPP_EV_MAX bytes in w->p, "," before all but the first */
static int ev_begin(struct cw *w)
{
	int rc = npa_file_reserve(w->o, w->f, CPP_EV_MAX + 2, &w->p);

	if (rc)
		return rc;
	if (!w->first)
		*w->p++ = ',';
	w->first = false;
	return 0;
}

static void ev_end(struct cw *w)
{
	npa_file_advance(w->f, w->p);
}

/* a metadata event, @sval or @ival in args.@key */
static int meta(struct cw *w, const char *name, uint32_t pid, int64_t tid, const char *key,
		const char *sval, int64_t ival)
{
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	p = npx_lit(p, "{\"name\":\"");
	p = npx_put(p, name);
	p = npx_lit(p, "\",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	p = npa_fmt_s64(p, tid);
	p = npx_lit(p, ",\"ph\":\"M\",\"args\":{\"");
	p = npx_put(p, key);
	p = npx_lit(p, "\":");
	p = sval ? js(p, sval) : npa_fmt_s64(p, ival);
	p = npx_lit(p, "}}");
	w->p = p;
	ev_end(w);
	return 0;
}

/* process_name, process_labels and process_sort_index (GenerateHWMetaData) */
static int process(struct cw *w, uint32_t pid, const char *name, const char *labels, uint32_t sort)
{
	int rc = meta(w, "process_name", pid, 0, "name", name, 0);

	if (!rc)
		rc = meta(w, "process_labels", pid, 0, "labels", labels, 0);
	if (!rc)
		rc = meta(w, "process_sort_index", pid, 0, "sort_index", NULL, sort);
	return rc;
}

/* a thread's thread_name and thread_sort_index */
static int thread(struct cw *w, uint32_t pid, int64_t tid, const char *name, int64_t sort)
{
	int rc = meta(w, "thread_name", pid, tid, "name", name, 0);

	return rc ? rc : meta(w, "thread_sort_index", pid, tid, "sort_index", NULL, sort);
}

/* a flow event: its start on a host call (no bp) or its end ("bp":"e") */
static int flow(struct cw *w, bool end, uint64_t conn, uint32_t pid, int64_t tid, uint64_t ns)
{
	char id[24];
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	*npa_fmt_u64(id, conn << 32) = 0;
	p = npx_lit(p, "{\"name\":\"HostToDevice");
	p = npx_put(p, id);
	p = npx_lit(p, "\",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	p = npa_fmt_s64(p, tid);
	p = end ? npx_lit(p, ",\"ph\":\"f\"") : npx_lit(p, ",\"ph\":\"s\"");
	p = npx_lit(p, ",\"cat\":\"HostToDevice\",\"id\":\"");
	p = npx_put(p, id);
	p = npx_lit(p, "\",\"ts\":");
	p = ts(p, ns);
	p = end ? npx_lit(p, ",\"bp\":\"e\"}") : npx_lit(p, "}");
	w->p = p;
	ev_end(w);
	return 0;
}

/* the head of an "X" event, up to its args' '{' */
static char *x_head(char *p, const char *name, uint32_t pid, int64_t tid, uint64_t ns, double dur)
{
	p = npx_lit(p, "{\"name\":");
	p = js(p, name);
	p = npx_lit(p, ",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	p = npa_fmt_s64(p, tid);
	p = npx_lit(p, ",\"ts\":");
	p = ts(p, ns);
	p = npx_lit(p, ",\"dur\":");
	p = npa_cpp_double(p, dur);
	return npx_lit(p, ",\"ph\":\"X\",\"args\":{");
}

/* ---- connection ids ---- */

struct api_key {
	uint64_t begin;
	uint32_t level;
	size_t i;
};

static int cmp_api_key(const void *a, const void *b)
{
	const struct api_key *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->level != y->level)
		return x->level > y->level ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The C++ path's id of every call: its place in (begin, level descending)
 * order, after the calls of begin 0, which it numbers first and drops.
 * @order gets the calls in that order (api_event.db's rows).
 */
static int connection_ids(struct cw *w, size_t *order)
{
	const struct npa_host *h = &w->x->host;
	struct api_key *k = malloc((h->n_api + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_api; i++)
		k[i] = (struct api_key){ h->api[i].begin, h->api[i].level, i };
	npx_qsort(k, h->n_api, sizeof(*k), cmp_api_key);
	for (size_t r = 0; r < h->n_api; r++) {
		w->cid[k[r].i] = h->dropped_begin0 + r + 1;
		order[r] = k[r].i;
	}
	free(k);
	return 0;
}

/* the index in h->api of the call of our connection id @conn, or -1 */
static int64_t api_of_conn(const struct npa_host *h, int64_t conn)
{
	size_t lo = 0, hi = h->n_api;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((int64_t)h->api[mid].conn < conn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->n_api && (int64_t)h->api[lo].conn == conn ? (int64_t)lo : -1;
}

/* the C++ connection id of our connection id @conn, CPP_NO_CONN for none */
static uint64_t cpp_conn(const struct cw *w, int64_t conn)
{
	int64_t i = conn >= 0 ? api_of_conn(&w->x->host, conn) : -1;

	return i >= 0 ? w->cid[i] : CPP_NO_CONN;
}

/* a call's local ns, as ApiProcessor has it (host ns are monotonic ns) */
static uint64_t api_ns(const struct cw *w, uint64_t raw)
{
	return raw + w->host_local;
}

/* ---- a device task as AscendTaskData has it ---- */

struct hw_task {
	size_t i; /* d->tasks[i] */
	const struct npa_htask *ht; /* its host task, NULL for none */
	const struct npa_op *op; /* its TaskInfo row, NULL for none */
	const struct npa_op *info; /* its op_summary row's op (Overlap's computing), or NULL */
	const char *host_type; /* "UNKNOWN" without a host task */
	const char *dev_type;
	struct npa_cpp_time t;
	uint64_t conn;
	bool memcpy;
};

/*
 * GetDeviceTaskTypeStr(): task_time's names of the STARS SQE and FFTS+
 * subtask types, and "UNKNOWN" where task_time says "Other" or a number
 */
static const char *dev_type_name(const struct npa_task *k)
{
	const char *s = npa_sqe_name(k->sqe, k->sub, 5);

	return !strcmp(s, "Other") || (*s >= '0' && *s <= '9') ? "UNKNOWN" : s;
}

/*
 * Device task @i as the C++ path keeps it (AscendTaskData); false for one
 * it drops (an unnamed device type, a task that ended before the
 * collection began) and, unless @shadowed, for an ACSQ task an FFTS+
 * context stands for (Ascend Hardware shows the context alone; Overlap
 * Analysis counts both)
 */
static bool hw_task(const struct cw *w, const struct npa_dev *d, size_t i, bool shadowed,
		    struct hw_task *o)
{
	const struct npa_host *h = &w->x->host;
	const struct npa_task *k = &d->tasks[i];

	if (k->shadowed && !shadowed)
		return false;
	o->i = i;
	o->dev_type = dev_type_name(k);
	if (!strcmp(o->dev_type, "UNKNOWN"))
		return false;
	npa_cpp_task_ns(&d->cfg.cpp, k->start_cnt, k->end_cnt, &o->t);
	if (npa_cpp_before_start(&d->cfg.cpp, &o->t))
		return false;
	o->ht = k->host >= 0 ? &h->htask[k->host] : NULL;
	o->op = npa_task_op(h, k);
	o->info = o->op;
	/*
	 * The C++ path makes a mix kernel's context host task only from its
	 * context_id_info, which an op with no node records lacks (task_time)
	 */
	if (k->ctx != NPA_NO_CTX && (!o->op || o->op->level0)) {
		o->ht = NULL;
		o->op = NULL;
	}
	o->host_type = o->ht ? o->ht->type : "UNKNOWN";
	o->conn = o->ht ? cpp_conn(w, o->ht->conn) : CPP_NO_CONN;
	o->memcpy = !strcmp(o->host_type, "MEMCPY_ASYNC");
	return true;
}

/* TaskProcessor::GetTaskType() on a STARS chip */
static const char *hw_task_type(const struct hw_task *t)
{
	if (strcmp(t->host_type, "FFTS_PLUS") && strcmp(t->host_type, "UNKNOWN"))
		return t->host_type;
	return t->dev_type;
}

/* ---- Ascend Hardware ---- */

/*
 * The order of ascend_task.db's rows: GenerateTopDownTask() makes them in
 * TaskId order (task, stream, context, batch), then HcclCalculator sorts
 * that vector by start time in place (std::sort) before they are stored.
 * By start, then TaskId, then log order.
 */
static int cmp_task_row(const void *a, const void *b, void *arg)
{
	const struct npa_dev *d = arg;
	const struct npa_task *x = &d->tasks[*(const size_t *)a],
			      *y = &d->tasks[*(const size_t *)b];

	if (x->start_cnt != y->start_cnt)
		return x->start_cnt < y->start_cnt ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if ((uint16_t)x->stream != (uint16_t)y->stream)
		return (uint16_t)x->stream < (uint16_t)y->stream ? -1 : 1;
	if (x->ctx != y->ctx)
		return x->ctx < y->ctx ? -1 : 1;
	if ((uint16_t)x->batch != (uint16_t)y->batch)
		return (uint16_t)x->batch < (uint16_t)y->batch ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *task_order(const struct npa_dev *d)
{
	size_t *v = malloc((d->n_tasks + 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < d->n_tasks; i++)
		v[i] = i;
	npx_qsort_r(v, d->n_tasks, sizeof(*v), cmp_task_row, (void *)d);
	return v;
}

static int hw_event(struct cw *w, const struct npa_dev *d, const struct hw_task *t, uint32_t pid)
{
	const struct npa_task *k = &d->tasks[t->i];
	const char *name, *type;
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	if (t->memcpy) {
		/* MemcpyAsyncEvent: the host type's name, the device type's type */
		name = t->host_type;
		type = t->dev_type;
	} else {
		name = t->op ? t->op->name : hw_task_type(t);
		type = t->op && !t->op->level0 ? npa_ge_task_type_name(t->op->task_type)
					       : hw_task_type(t);
	}
	p = x_head(p, name, pid, k->stream, t->t.start, t->t.dur_d / 1000);
	p = npx_lit(p, "\"Model Id\":");
	p = npa_fmt_u64(p, t->op ? t->op->model_id : NPA_NO_MODEL);
	p = npx_lit(p, ",\"Task Type\":");
	p = js(p, type);
	p = npx_lit(p, ",\"Physic Stream Id\":");
	p = npa_fmt_u64(p, k->stream);
	p = npx_lit(p, ",\"Task Id\":");
	p = npa_fmt_u64(p, k->task);
	p = npx_lit(p, ",\"Batch Id\":");
	p = npa_fmt_u64(p, k->batch);
	p = npx_lit(p, ",\"Subtask Id\":");
	p = npa_fmt_u64(p, k->ctx);
	p = npx_lit(p, ",\"connection_id\":");
	p = npa_fmt_u64(p, t->conn);
	p = npx_lit(p, "}}");
	w->p = p;
	ev_end(w);
	return 0;
}

/* whether host call @i is aclrtRecordEvent or aclrtStreamWaitEvent */
static bool acl_event(const struct npa_host *h, size_t i)
{
	const struct npa_api *a = &h->api[i];
	const char *type;

	if (a->level != CANN_LEVEL_ACL)
		return false;
	type = npa_dict_get(&h->types, (uint64_t)a->level << 32 | a->type);
	return type && (!strcmp(type, "aclrtRecordEvent") || !strcmp(type, "aclrtStreamWaitEvent"));
}

static bool conn_is_acl_event(const struct cw *w, const struct hw_task *t)
{
	int64_t i;

	if (!t->ht || t->ht->conn < 0)
		return false;
	i = api_of_conn(&w->x->host, t->ht->conn);
	return i >= 0 && acl_event(&w->x->host, (size_t)i);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* emit the sorted, distinct thread ids @v[0..n) as "@fmt" threads */
static int threads(struct cw *w, uint32_t pid, uint32_t *v, size_t n, const char *fmt)
{
	char name[48];
	int rc = 0;

	npx_qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 0; !rc && i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		snprintf(name, sizeof(name), fmt, v[i]);
		rc = thread(w, pid, (int32_t)v[i], name, (int32_t)v[i]);
	}
	return rc;
}

static int hardware(struct cw *w)
{
	const struct npa_export *x = w->x;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = fmt_pid(d->cfg.pid, CPP_SORT_HW, d->cfg.id), *streams;
		size_t *order = task_order(d), ns = 0;
		char label[32];

		streams = malloc((d->n_tasks + 1) * sizeof(*streams));
		if (!order || !streams) {
			free(order);
			free(streams);
			return -ENOMEM;
		}
		/* the tasks, then the copies (GenerateMemcpyAsyncTrace) */
		for (int pass = 0; !rc && pass < 2; pass++) {
			for (size_t r = 0; !rc && r < d->n_tasks; r++) {
				struct hw_task t;

				if (!hw_task(w, d, order[r], false, &t) || t.memcpy != (pass == 1))
					continue;
				streams[ns++] = d->tasks[t.i].stream;
				rc = hw_event(w, d, &t, pid);
				if (!rc && (t.memcpy || t.op || conn_is_acl_event(w, &t)))
					rc = flow(w, true, t.conn, pid, d->tasks[t.i].stream,
						  t.t.start);
			}
		}
		snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
		if (!rc && ns)
			rc = process(w, pid, "Ascend Hardware", label, CPP_SORT_HW);
		if (!rc)
			rc = threads(w, pid, streams, ns, "Stream %u");
		free(streams);
		free(order);
	}
	return rc;
}

/* ---- CANN ---- */

static const char *cpp_level_prefix(uint32_t level)
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
	}
	return "Api";
}

/* the calls the C++ path keeps: those that end after the collection began */
static bool api_kept(const struct cw *w, const struct npa_api *a)
{
	return api_ns(w, a->end) >= w->host_begin;
}

static int cann_event(struct cw *w, size_t i, uint32_t pid)
{
	const struct npa_host *h = &w->x->host;
	const struct npa_api *a = &h->api[i];
	struct npa_tl_api s;
	uint64_t b = api_ns(w, a->begin), e = api_ns(w, a->end);
	char name[NPA_TL_NAME_MAX + 32];
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	npa_tl_api_strs(h, a, &s);
	snprintf(name, sizeof(name), "%s@%s", cpp_level_prefix(a->level), s.api);
	p = x_head(p, name, pid, a->tid, b, (double)(e - b) / 1000);
	p = npx_lit(p, "\"Thread Id\":");
	p = npa_fmt_u64(p, a->tid);
	p = npx_lit(p, ",\"Mode\":");
	p = js(p, s.mode);
	p = npx_lit(p, ",\"level\":");
	p = js(p, s.level);
	p = npx_lit(p, ",\"id\":");
	p = js(p, s.id);
	p = npx_lit(p, ",\"item_id\":");
	p = js(p, s.item);
	p = npx_lit(p, ",\"connection_id\":");
	p = npa_fmt_u64(p, w->cid[i]);
	p = npx_lit(p, "}}");
	w->p = p;
	ev_end(w);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool u64_in(const uint64_t *v, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == key;
}

static int cann(struct cw *w, const size_t *order)
{
	const struct npa_export *x = w->x;
	const struct npa_host *h = &x->host;
	uint32_t pid = fmt_pid(h->cfg.pid, CPP_SORT_CANN, 31), *tids;
	uint64_t *copies;
	size_t nt = 0, nc = 0, cap = 1;
	int rc;

	if (!h->n_api)
		return 0;
	for (unsigned int di = 0; di < x->ndev; di++)
		cap += x->dev[di].n_tasks;
	tids = malloc(h->n_api * sizeof(*tids));
	copies = malloc(cap * sizeof(*copies));
	if (!tids || !copies) {
		free(tids);
		free(copies);
		return -ENOMEM;
	}
	for (size_t r = 0; r < h->n_api; r++)
		if (api_kept(w, &h->api[order[r]]))
			tids[nt++] = h->api[order[r]].tid;
	/* the connection ids of the copies (GetMemcpyAsyncConnectionIds) */
	for (unsigned int di = 0; di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];

		for (size_t i = 0; i < d->n_tasks; i++) {
			struct hw_task t;

			if (hw_task(w, d, i, false, &t) && t.memcpy)
				copies[nc++] = t.conn;
		}
	}
	npx_qsort(copies, nc, sizeof(*copies), cmp_u64);
	rc = process(w, pid, "CANN", "CPU", CPP_SORT_CANN);
	if (!rc)
		rc = threads(w, pid, tids, nt, "Thread %u");
	for (size_t r = 0; !rc && r < h->n_api; r++)
		if (api_kept(w, &h->api[order[r]]))
			rc = cann_event(w, order[r], pid);
	for (size_t r = 0; !rc && r < h->n_api; r++) {
		size_t i = order[r];
		const struct npa_api *a = &h->api[i];

		if (!api_kept(w, a))
			continue;
		if (a->level == CANN_LEVEL_NODE || acl_event(h, i) || u64_in(copies, nc, w->cid[i]))
			rc = flow(w, false, w->cid[i], pid, a->tid, api_ns(w, a->begin));
	}
	free(tids);
	free(copies);
	return rc;
}

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

static char *task_args(char *p, const struct npa_comm_task *ct, const struct npa_cpp_time *t)
{
	const struct npa_hccl_task *h = ct->h;
	char b[32];
	double bw = 0;

	if (h->rdma == 1 && ct->bw >= 0)
		bw = ct->bw; /* a payload's bandwidth: over its run of payloads */
	else if (t->dur_d > 0)
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
	p = js(p, h->name);
	p = npx_lit(p, ",\"src rank\":");
	p = npa_fmt_s64(p, h->local_rank);
	p = npx_lit(p, ",\"dst rank\":");
	p = npa_fmt_s64(p, h->remote_rank);
	p = npx_lit(p, ",\"transport type\":");
	p = js(p, npa_hccl_transport(h->transport, b, sizeof(b)));
	p = npx_lit(p, ",\"size(Byte)\":");
	p = npa_fmt_u64(p, h->size);
	p = npx_lit(p, ",\"data type\":");
	p = js(p, npa_hccl_data_type(h->data_type, b, sizeof(b)));
	p = npx_lit(p, ",\"link type\":");
	p = js(p, npa_hccl_link_type(h->link_type, b, sizeof(b)));
	p = npx_lit(p, ",\"bandwidth(GB/s)\":");
	p = npa_cpp_double(p, bw);
	p = npx_lit(p, ",\"model id\":");
	p = npa_fmt_u64(p, NPA_NO_MODEL);
	return npx_lit(p, "}}");
}

static int op_event(struct cw *w, const struct comm_op *op, const struct comm_group *g,
		    uint32_t pid)
{
	const struct npa_host *h = &w->x->host;
	const struct npa_hccl_op *hop = op->first->hop >= 0 ? &h->hops[op->first->hop] : NULL;
	bool info = hop && hop->info;
	char b[32];
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	p = x_head(p, op->first->name, pid, g->start, op->start,
		   (double)(op->end - op->start) / 1000);
	p = npx_lit(p, "\"rank_size\":");
	p = npa_fmt_s64(p, op->first->h->rank_size);
	p = npx_lit(p, ",\"connection_id\":");
	p = npa_fmt_u64(p, hop ? cpp_conn(w, hop->conn) : CPP_NO_CONN);
	p = npx_lit(p, ",\"model id\":");
	p = npa_fmt_u64(p, NPA_NO_MODEL);
	p = npx_lit(p, ",\"data_type\":");
	p = js(p, info ? npa_hccl_data_type(hop->data_type, b, sizeof(b)) : "N/A");
	p = npx_lit(p, ",\"alg_type\":");
	p = js(p, info && hop->alg ? hop->alg : "N/A");
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
	ev_end(w);
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

static int comm_build(struct cw *w, const struct npa_dev *d, struct comm_dev *c)
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

static int communication(struct cw *w)
{
	const struct npa_export *x = w->x;
	int32_t index = 0;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = fmt_pid(d->cfg.pid, CPP_SORT_COMM, d->cfg.id);
		struct comm_dev c;
		char label[32], name[4200];

		rc = comm_build(w, d, &c);
		if (rc || !c.n) {
			comm_free(&c);
			continue;
		}
		snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
		rc = process(w, pid, "Communication", label, CPP_SORT_COMM);
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
			rc = thread(w, pid, index, name, index);
			for (uint32_t p = 0; !rc && p < 64; p++) {
				if (!(g->planes >> p & 1))
					continue;
				snprintf(name, sizeof(name), "Plane %u", p);
				index = start + (int32_t)p + 1;
				rc = thread(w, pid, index, name, index);
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
			rc = ev_begin(w);
			if (rc)
				break;
			p = x_head(w->p, t->ct->h->name, pid, g->start + t->ct->h->plane + 1,
				   t->t.start, t->t.dur_d / 1000);
			w->p = task_args(p, t->ct, &t->t);
			ev_end(w);
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
				rc = flow(w, true, hop ? cpp_conn(w, hop->conn) : CPP_NO_CONN, pid,
					  g->start, op->start);
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

static int overlap_events(struct cw *w, uint32_t pid, uint32_t tid, const char *name,
			  const struct spans *l)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < l->n; i++) {
		if (l->v[i].e <= l->v[i].s)
			continue;
		rc = ev_begin(w);
		if (rc)
			break;
		w->p = x_head(w->p, name, pid, tid, l->v[i].s,
			      (double)(l->v[i].e - l->v[i].s) / 1000);
		w->p = npx_lit(w->p, "}}");
		ev_end(w);
	}
	return rc;
}

static int overlap_dev(struct cw *w, const struct npa_dev *d)
{
	static const char *const comp_types[] = { "KERNEL_AICORE",    "KERNEL_AIVEC",
						  "FFTS_PLUS",	      "KERNEL_MIX_AIC",
						  "KERNEL_MIX_AIV",   "PROFILING_ENABLE",
						  "PROFILING_DISABLE" };
	static const char *const names[] = { "Computing", "Communication",
					     "Communication(Not Overlapped)", "Free" };
	uint32_t pid = fmt_pid(d->cfg.pid, CPP_SORT_OVERLAP, d->cfg.id);
	struct spans comp = { 0 }, comm = { 0 }, pure = { 0 }, all = { 0 }, fr = { 0 },
		     span = { 0 };
	uint64_t begin = UINT64_MAX, end = 0;
	bool any = false;
	struct comm_dev c;
	char label[32];
	int rc = 0;

	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		struct hw_task t;
		uint64_t e;
		bool is_comp = false;

		if (!hw_task(w, d, i, true, &t))
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
	rc = process(w, pid, "Overlap Analysis", label, CPP_SORT_OVERLAP);
	for (uint32_t k = 0; !rc && k < 4; k++)
		rc = thread(w, pid, k, names[k], k);
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

static int freq_point(struct cw *w, uint32_t pid, uint64_t ns, uint64_t mhz)
{
	int rc = ev_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	p = npx_lit(p, "{\"name\":\"AI Core Freq\",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":0,\"ts\":");
	p = ts(p, ns);
	p = npx_lit(p, ",\"ph\":\"C\",\"args\":{\"MHz\":");
	p = npa_fmt_u64(p, mhz);
	p = npx_lit(p, "}}");
	w->p = p;
	ev_end(w);
	return 0;
}

/*
 * AicoreFreqProcessor (chips 5 and 7; 15 and 16 read lowpower.db, which
 * we do not write): the collection's start and end at the info.json clock,
 * sorted, then the process's metadata
 */
static int ai_core_freq(struct cw *w)
{
	const struct npa_export *x = w->x;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = fmt_pid(d->cfg.pid, CPP_SORT_FREQ, d->cfg.id);
		uint64_t mhz = d->cfg.aic_mhz > 0 ? (uint64_t)d->cfg.aic_mhz : 0, end_us;
		char label[32], *e;

		if (!npf_chip_has(d->cfg.chip_id, NPF_CHIP_FREQ_CPP))
			continue;
		rc = freq_point(w, pid, d->cfg.cpp.begin_ns, mhz);
		end_us = strtoull(d->cfg.clock.end, &e, 10);
		if (!rc && d->cfg.clock.end[0] && !*e && end_us <= UINT64_MAX / 1000 &&
		    end_us * 1000 >= d->cfg.cpp.begin_ns)
			rc = freq_point(w, pid, end_us * 1000, mhz);
		snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
		if (!rc)
			rc = process(w, pid, "AI Core Freq", label, CPP_SORT_FREQ);
	}
	return rc;
}

/* ---- the file ---- */

bool npa_timeline_cpp_ok(const struct npa_export *x)
{
	const struct npa_host_cfg *h = &x->host.cfg;

	/* host ns are monotonic ns (no CPU frequency, or 1000 MHz) */
	if (!x->ndev || !h->cpp_ok || (h->cpu_hz && h->cpu_hz != 1e9))
		return false;
	for (unsigned int i = 0; i < x->ndev; i++)
		/* an Atlas 350's device files are read by neither msprof path (issue 36) */
		if (!x->dev[i].cfg.cpp.ok || npf_chip_has(x->dev[i].cfg.chip_id, NPF_CHIP_BORROWED))
			return false;
	return true;
}

int npa_timeline_cpp(struct npa_export *x, struct npa_out *o, struct npa_file *f)
{
	const struct npa_host *h = &x->host;
	struct cw w = {
		.o = o,
		.f = f,
		.err = o->err,
		.first = true,
		.x = x,
		.host_local = h->cfg.cpp_local,
		.host_begin = h->cfg.cpp_begin_ns,
	};
	size_t *order = malloc((h->n_api + 1) * sizeof(*order));
	char tmp[96], *p;
	int rc;

	w.cid = malloc((h->n_api + 1) * sizeof(*w.cid));
	rc = order && w.cid ? connection_ids(&w, order) : -ENOMEM;
	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-msprof.tmp", o->pid);
	if (!rc)
		rc = npa_file_open(o, f, tmp);
	if (rc == -ENOMEM)
		rc = npx_set_error(o->err, rc, "out of memory");
	if (!rc)
		rc = npa_file_reserve(o, f, 2, &p);
	if (!rc) {
		*p++ = '[';
		npa_file_advance(f, p);
	}
	/* submission order: ASCEND, CANN, COMMUNICATION, OVERLAP, FREQ, LOW_POWER */
	if (!rc)
		rc = hardware(&w);
	if (!rc)
		rc = cann(&w, order);
	if (!rc)
		rc = communication(&w);
	for (unsigned int di = 0; !rc && di < x->ndev; di++)
		rc = overlap_dev(&w, &x->dev[di]);
	if (!rc)
		rc = ai_core_freq(&w);
	if (!rc)
		rc = ai_core_freq(&w);
	if (rc == -ENOMEM && !o->err->code)
		rc = npx_set_error(o->err, rc, "out of memory");
	if (!rc)
		rc = npa_file_reserve(o, f, 2, &p);
	if (!rc) {
		*p++ = ']';
		npa_file_advance(f, p);
		rc = npa_file_close(o, f);
	}
	free(order);
	free(w.cid);
	return rc;
}
