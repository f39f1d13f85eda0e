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
 *
 * This file: the writer's helpers (timeline_cpp.h), Ascend Hardware, CANN,
 * AI Core Freq and the file; ascend_timeline_cpp_comm.c: Communication
 * and Overlap Analysis.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/ascend_timeline.h"
#include "export/timeline_cpp.h"

/* ---- the JSON rapidjson's Writer writes ---- */

/* a string, escaped as rapidjson escapes it (json_escape.c) */
char *npa_tlc_str(char *p, const char *s)
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
char *npa_tlc_ts(char *p, uint64_t ns)
{
	*p++ = '"';
	p = npa_cpp_us(p, ns);
	*p++ = '"';
	return p;
}

/* GetFormatPid() computes in uint32_t */
uint32_t npa_tlc_pid(long pid, uint32_t sort, uint32_t dev)
{
	return (uint32_t)pid << 10 | sort << 5 | dev;
}

/* start an event: room for NPA_TLC_EV_MAX bytes in w->p, "," before all but the first */
int npa_tlc_begin(struct npa_tlc *w)
{
	int rc = npa_file_reserve(w->o, w->f, NPA_TLC_EV_MAX + 2, &w->p);

	if (rc)
		return rc;
	if (!w->first)
		*w->p++ = ',';
	w->first = false;
	return 0;
}

void npa_tlc_end(struct npa_tlc *w)
{
	npa_file_advance(w->f, w->p);
}

/* a metadata event, @sval or @ival in args.@key */
static int meta(struct npa_tlc *w, const char *name, uint32_t pid, int64_t tid, const char *key,
		const char *sval, int64_t ival)
{
	int rc = npa_tlc_begin(w);
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
	p = sval ? npa_tlc_str(p, sval) : npa_fmt_s64(p, ival);
	p = npx_lit(p, "}}");
	w->p = p;
	npa_tlc_end(w);
	return 0;
}

/* process_name, process_labels and process_sort_index (GenerateHWMetaData) */
int npa_tlc_process(struct npa_tlc *w, uint32_t pid, const char *name, const char *labels,
		    uint32_t sort)
{
	int rc = meta(w, "process_name", pid, 0, "name", name, 0);

	if (!rc)
		rc = meta(w, "process_labels", pid, 0, "labels", labels, 0);
	if (!rc)
		rc = meta(w, "process_sort_index", pid, 0, "sort_index", NULL, sort);
	return rc;
}

/* a thread's thread_name and thread_sort_index */
int npa_tlc_thread(struct npa_tlc *w, uint32_t pid, int64_t tid, const char *name, int64_t sort)
{
	int rc = meta(w, "thread_name", pid, tid, "name", name, 0);

	return rc ? rc : meta(w, "thread_sort_index", pid, tid, "sort_index", NULL, sort);
}

/* a flow event: its start on a host call (no bp) or its end ("bp":"e") */
int npa_tlc_flow(struct npa_tlc *w, bool end, uint64_t conn, uint32_t pid, int64_t tid, uint64_t ns)
{
	char id[24];
	int rc = npa_tlc_begin(w);
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
	p = npa_tlc_ts(p, ns);
	p = end ? npx_lit(p, ",\"bp\":\"e\"}") : npx_lit(p, "}");
	w->p = p;
	npa_tlc_end(w);
	return 0;
}

/* the head of an "X" event, up to its args' '{' */
char *npa_tlc_x_head(char *p, const char *name, uint32_t pid, int64_t tid, uint64_t ns, double dur)
{
	p = npx_lit(p, "{\"name\":");
	p = npa_tlc_str(p, name);
	p = npx_lit(p, ",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":");
	p = npa_fmt_s64(p, tid);
	p = npx_lit(p, ",\"ts\":");
	p = npa_tlc_ts(p, ns);
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
static int connection_ids(struct npa_tlc *w, size_t *order)
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

/* the C++ connection id of our connection id @conn, NPA_TLC_NO_CONN for none */
uint64_t npa_tlc_conn(const struct npa_tlc *w, int64_t conn)
{
	int64_t i = conn >= 0 ? api_of_conn(&w->x->host, conn) : -1;

	return i >= 0 ? w->cid[i] : NPA_TLC_NO_CONN;
}

/* a call's local ns, as ApiProcessor has it (host ns are monotonic ns) */
static uint64_t api_ns(const struct npa_tlc *w, uint64_t raw)
{
	return raw + w->host_local;
}

/* ---- a device task as AscendTaskData has it ---- */

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
bool npa_tlc_hw_task(const struct npa_tlc *w, const struct npa_dev *d, size_t i, bool shadowed,
		     struct npa_tlc_task *o)
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
	o->conn = o->ht ? npa_tlc_conn(w, o->ht->conn) : NPA_TLC_NO_CONN;
	o->memcpy = !strcmp(o->host_type, "MEMCPY_ASYNC");
	return true;
}

/* TaskProcessor::GetTaskType() on a STARS chip */
static const char *hw_task_type(const struct npa_tlc_task *t)
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

static int hw_event(struct npa_tlc *w, const struct npa_dev *d, const struct npa_tlc_task *t,
		    uint32_t pid)
{
	const struct npa_task *k = &d->tasks[t->i];
	const char *name, *type;
	int rc = npa_tlc_begin(w);
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
	p = npa_tlc_x_head(p, name, pid, k->stream, t->t.start, t->t.dur_d / 1000);
	p = npx_lit(p, "\"Model Id\":");
	p = npa_fmt_u64(p, t->op ? t->op->model_id : NPA_NO_MODEL);
	p = npx_lit(p, ",\"Task Type\":");
	p = npa_tlc_str(p, type);
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
	npa_tlc_end(w);
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

static bool conn_is_acl_event(const struct npa_tlc *w, const struct npa_tlc_task *t)
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
static int threads(struct npa_tlc *w, uint32_t pid, uint32_t *v, size_t n, const char *fmt)
{
	char name[48];
	int rc = 0;

	npx_qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 0; !rc && i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		snprintf(name, sizeof(name), fmt, v[i]);
		rc = npa_tlc_thread(w, pid, (int32_t)v[i], name, (int32_t)v[i]);
	}
	return rc;
}

static int hardware(struct npa_tlc *w)
{
	const struct npa_export *x = w->x;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = npa_tlc_pid(d->cfg.pid, NPA_TLC_SORT_HW, d->cfg.id), *streams;
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
				struct npa_tlc_task t;

				if (!npa_tlc_hw_task(w, d, order[r], false, &t) ||
				    t.memcpy != (pass == 1))
					continue;
				streams[ns++] = d->tasks[t.i].stream;
				rc = hw_event(w, d, &t, pid);
				if (!rc && (t.memcpy || t.op || conn_is_acl_event(w, &t)))
					rc = npa_tlc_flow(w, true, t.conn, pid,
							  d->tasks[t.i].stream, t.t.start);
			}
		}
		snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
		if (!rc && ns)
			rc = npa_tlc_process(w, pid, "Ascend Hardware", label, NPA_TLC_SORT_HW);
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
static bool api_kept(const struct npa_tlc *w, const struct npa_api *a)
{
	return api_ns(w, a->end) >= w->host_begin;
}

static int cann_event(struct npa_tlc *w, size_t i, uint32_t pid)
{
	const struct npa_host *h = &w->x->host;
	const struct npa_api *a = &h->api[i];
	struct npa_tl_api s;
	uint64_t b = api_ns(w, a->begin), e = api_ns(w, a->end);
	char name[NPA_TL_NAME_MAX + 32];
	int rc = npa_tlc_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	npa_tl_api_strs(h, a, &s);
	snprintf(name, sizeof(name), "%s@%s", cpp_level_prefix(a->level), s.api);
	p = npa_tlc_x_head(p, name, pid, a->tid, b, (double)(e - b) / 1000);
	p = npx_lit(p, "\"Thread Id\":");
	p = npa_fmt_u64(p, a->tid);
	p = npx_lit(p, ",\"Mode\":");
	p = npa_tlc_str(p, s.mode);
	p = npx_lit(p, ",\"level\":");
	p = npa_tlc_str(p, s.level);
	p = npx_lit(p, ",\"id\":");
	p = npa_tlc_str(p, s.id);
	p = npx_lit(p, ",\"item_id\":");
	p = npa_tlc_str(p, s.item);
	p = npx_lit(p, ",\"connection_id\":");
	p = npa_fmt_u64(p, w->cid[i]);
	p = npx_lit(p, "}}");
	w->p = p;
	npa_tlc_end(w);
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

static int cann(struct npa_tlc *w, const size_t *order)
{
	const struct npa_export *x = w->x;
	const struct npa_host *h = &x->host;
	uint32_t pid = npa_tlc_pid(h->cfg.pid, NPA_TLC_SORT_CANN, 31), *tids;
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
			struct npa_tlc_task t;

			if (npa_tlc_hw_task(w, d, i, false, &t) && t.memcpy)
				copies[nc++] = t.conn;
		}
	}
	npx_qsort(copies, nc, sizeof(*copies), cmp_u64);
	rc = npa_tlc_process(w, pid, "CANN", "CPU", NPA_TLC_SORT_CANN);
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
			rc = npa_tlc_flow(w, false, w->cid[i], pid, a->tid, api_ns(w, a->begin));
	}
	free(tids);
	free(copies);
	return rc;
}

static int freq_point(struct npa_tlc *w, uint32_t pid, uint64_t ns, uint64_t mhz)
{
	int rc = npa_tlc_begin(w);
	char *p = w->p;

	if (rc)
		return rc;
	p = npx_lit(p, "{\"name\":\"AI Core Freq\",\"pid\":");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ",\"tid\":0,\"ts\":");
	p = npa_tlc_ts(p, ns);
	p = npx_lit(p, ",\"ph\":\"C\",\"args\":{\"MHz\":");
	p = npa_fmt_u64(p, mhz);
	p = npx_lit(p, "}}");
	w->p = p;
	npa_tlc_end(w);
	return 0;
}

/*
 * AicoreFreqProcessor (chips 5 and 7; 15 and 16 read lowpower.db, which
 * we do not write): the collection's start and end at the info.json clock,
 * sorted, then the process's metadata
 */
static int ai_core_freq(struct npa_tlc *w)
{
	const struct npa_export *x = w->x;
	int rc = 0;

	for (unsigned int di = 0; !rc && di < x->ndev; di++) {
		const struct npa_dev *d = &x->dev[di];
		uint32_t pid = npa_tlc_pid(d->cfg.pid, NPA_TLC_SORT_FREQ, d->cfg.id);
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
			rc = npa_tlc_process(w, pid, "AI Core Freq", label, NPA_TLC_SORT_FREQ);
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
		if (!x->dev[i].cfg.cpp.ok)
			return false;
	return true;
}

int npa_timeline_cpp(struct npa_export *x, struct npa_out *o, struct npa_file *f)
{
	const struct npa_host *h = &x->host;
	struct npa_tlc w = {
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
		rc = npa_tlc_communication(&w);
	for (unsigned int di = 0; !rc && di < x->ndev; di++)
		rc = npa_tlc_overlap_dev(&w, &x->dev[di]);
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
