// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: msprof_{ts}.json of the real layout, the events
 * msprof's parser writes (docs/msprof-parser.md section 6):
 *
 *   CANN              AscendCL@ / Node@ / Runtime@ ... calls of each host thread
 *   Ascend Hardware   the device tasks, one thread per stream
 *   HostToDevice      a flow from each task_track to its device task
 *   Communication     the collectives and their HCCL tasks, and their flows
 *                     (ascend_timeline_hccl.c)
 *   AI Core Freq      the clock, one counter per millisecond
 *   Overlap Analysis  (ascend_timeline_overlap.c) Computing (merged op intervals), Communication
 * (merged collectives), Communication(Not Overlapped) and Free, as
 * SectionCalculator.compute_pipeline_overlap finds them
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

#include "export/ascend.h"
#include "export/ascend_timeline.h"

#define SORT_CANN 7
#define SORT_HW 14
#define SORT_FREQ 15
#define SORT_OVERLAP_BASE 19

static int timeline_py(struct npa_export *x, struct npa_out *o, struct npa_file *f);

/* a new event at the end of the list; NULL when out of memory (error set) */
static struct npa_tl_ev *tl_push(struct npa_tl *t)
{
	if (t->n == t->cap_ev) {
		size_t cap = t->cap_ev ? 2 * t->cap_ev : 4096;
		void *p = realloc(t->ev, cap * sizeof(*t->ev));

		if (!p) {
			npx_set_error(t->err, -ENOMEM, "out of memory");
			return NULL;
		}
		t->ev = p;
		t->cap_ev = cap;
	}
	return &t->ev[t->n++];
}

/* a text event; @conn: a CANN call's connection id, else 0 */
static int tl_add_text(struct npa_tl *t, const char *text, size_t len, const char *ts, bool meta,
		       uint64_t conn)
{
	struct npa_tl_ev *e;

	if (len > NPA_TL_CHUNK)
		return npx_set_error(t->err, -E2BIG, "a timeline event of %zu bytes", len);
	if (!t->n_chunk || t->used + len > NPA_TL_CHUNK) {
		if (t->n_chunk == t->cap_chunk) {
			size_t cap = t->cap_chunk ? 2 * t->cap_chunk : 64;
			void *p = realloc(t->chunk, cap * sizeof(*t->chunk));

			if (!p)
				return npx_set_error(t->err, -ENOMEM, "out of memory");
			t->chunk = p;
			t->cap_chunk = cap;
		}
		t->chunk[t->n_chunk] = malloc(NPA_TL_CHUNK);
		if (!t->chunk[t->n_chunk])
			return npx_set_error(t->err, -ENOMEM, "out of memory");
		t->n_chunk++;
		t->used = 0;
	}
	e = tl_push(t);
	if (!e)
		return -ENOMEM;
	memcpy(t->chunk[t->n_chunk - 1] + t->used, text, len);
	*e = (struct npa_tl_ev){
		.ts = ts ? strtod(ts, NULL) : 0,
		.ref = (t->n_chunk - 1) * (size_t)NPA_TL_CHUNK + t->used,
		.tsm = conn,
		.len = (uint32_t)len,
		.kind = NPA_TL_TEXT,
		.meta = meta,
		.dev = t->dev,
	};
	t->used += len;
	return 0;
}

int npa_tl_add(struct npa_tl *t, const char *text, size_t len, const char *ts, bool meta)
{
	return tl_add_text(t, text, len, ts, meta, 0);
}

static const char *tl_text(const struct npa_tl *t, const struct npa_tl_ev *e)
{
	return t->chunk[e->ref / NPA_TL_CHUNK] + e->ref % NPA_TL_CHUNK;
}

static void tl_free(struct npa_tl *t)
{
	for (size_t i = 0; i < t->n_chunk; i++)
		free(t->chunk[i]);
	free(t->chunk);
	free(t->ev);
	free(t->sec);
	free(t->list);
}

/* "ts" strings have three decimals: "123.456" is 123456, false for others ("nan", "-1.000") */
static bool tsm_parse(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '.'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p++ != '.' || x > (UINT64_MAX - 999) / 1000)
		return false;
	for (int i = 0; i < 3; i++, p++) {
		if (*p < '0' || *p > '9')
			return false;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p)
		return false;
	*v = x;
	return true;
}

static char *tsm_put(char *p, uint64_t v)
{
	unsigned int frac = (unsigned int)(v % 1000);

	p = npa_fmt_u64(p, v / 1000);
	*p++ = '.';
	*p++ = (char)('0' + frac / 100);
	*p++ = (char)('0' + frac / 10 % 10);
	*p++ = (char)('0' + frac % 10);
	*p = '\0';
	return p;
}

char *npa_tl_json_str(char *p, const char *s)
{
	*p++ = '"';
	p = npx_json_escape(p, s, NPX_JSON_PY);
	*p++ = '"';
	return p;
}

/* msprof's format pid: (pid << 10) | (sort index << 5) | device (31: host) */
uint64_t npa_tl_fmt_pid(long pid, uint32_t sort, uint32_t dev)
{
	return (uint64_t)pid << 10 | (uint64_t)sort << 5 | dev;
}

int npa_tl_meta(struct npa_tl *t, const char *what, uint64_t pid, uint64_t tid, const char *key,
		const char *sval, int64_t ival)
{
	char buf[512], *p = buf;

	p = npx_lit(p, "{\"name\": \"");
	p = npx_put(p, what);
	p = npx_lit(p, "\", \"pid\": ");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, tid);
	p = npx_lit(p, ", \"args\": {\"");
	p = npx_put(p, key);
	p = npx_lit(p, "\": ");
	if (sval)
		p = npa_tl_json_str(p, sval);
	else
		p = npa_fmt_s64(p, ival);
	p = npx_lit(p, "}, \"ph\": \"M\"}");
	return npa_tl_add(t, buf, (size_t)(p - buf), NULL, true);
}

int npa_tl_process_meta(struct npa_tl *t, uint64_t pid, const char *name)
{
	return npa_tl_meta(t, "process_name", pid, 0, "name", name, 0);
}

int npa_tl_process_tail(struct npa_tl *t, uint64_t pid, const char *labels, uint32_t sort)
{
	int rc = npa_tl_meta(t, "process_labels", pid, 0, "labels", labels, 0);

	return rc ? rc : npa_tl_meta(t, "process_sort_index", pid, 0, "sort_index", NULL, sort);
}

/* ---- CANN ---- */

static const char *acl_tag(uint32_t type)
{
	static const char *const tags[] = { NULL,	  "ACL_OP",   "ACL_MODEL",   "ACL_RTS",
					    "ACL_OTHERS", "ACL_NN",   "ACL_ASCENDC", "HOST_HCCL",
					    NULL,	  "ACL_DVPP", "ACL_GRAPH",   "ACL_ATB" };
	uint32_t t = type >> 16;

	return t < NPX_ARRAY_SIZE(tags) && tags[t] ? tags[t] : "ACL_OTHERS";
}

/* host µs of host ns, and its local time string */
char *npa_tl_host_local(char *p, uint64_t ns, double offset)
{
	return npa_py_decimal_add3_d(p, (double)ns * 1e6 / 1e9, offset);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void npa_tl_api_strs(const struct npa_host *h, const struct npa_api *a, struct npa_tl_api *s)
{
	const char *type = npa_dict_get(&h->types, (uint64_t)a->level << 32 | a->type);
	const char *item = npa_hash_name(h, a->item, s->num, sizeof(s->num));

	if (!type) {
		snprintf(s->tname, sizeof(s->tname), "%u", a->type);
		type = s->tname;
	}
	s->mode = a->level == CANN_LEVEL_ACL ? acl_tag(a->type) : type;
	s->api = a->level == CANN_LEVEL_ACL ? type : a->level == CANN_LEVEL_HCCL ? item : type;
	s->level = npa_cann_level_lower(a->level);
	s->id = a->level == CANN_LEVEL_ACL ? type : "0";
	s->item = item;
}

/* the event of host call @i, at @tsb */
static char *fmt_cann(const struct npa_export *x, const struct npa_dev *d, size_t i,
		      const char *tsb, char *p)
{
	const struct npa_api *a = &x->host.api[i];
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, SORT_CANN, 31);
	struct npa_tl_api s;

	npa_tl_api_strs(&x->host, a, &s);
	p = npx_lit(p, "{\"name\": \"");
	p = npx_put(p, npa_cann_level_title(a->level));
	*p++ = '@';
	p = npx_json_escape(p, s.api, NPX_JSON_PY);
	*p++ = '"';
	p = npx_lit(p, ", \"pid\": ");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, a->tid);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, tsb);
	p = npx_lit(p, "\", \"dur\": ");
	p = npa_py_repr(p, (double)(int64_t)(a->end - a->begin) * 1e6 / 1e9);
	p = npx_lit(p, ", \"args\": {\"Thread Id\": ");
	p = npa_fmt_u64(p, a->tid);
	p = npx_lit(p, ", \"Mode\": ");
	p = npa_tl_json_str(p, s.mode);
	p = npx_lit(p, ", \"level\": \"");
	p = npx_put(p, s.level);
	p = npx_lit(p, "\", \"id\": ");
	p = npa_tl_json_str(p, s.id);
	p = npx_lit(p, ", \"item_id\": ");
	p = npa_tl_json_str(p, s.item);
	p = npx_lit(p, ", \"connection_id\": ");
	p = npa_fmt_u64(p, a->conn);
	return npx_lit(p, "}, \"ph\": \"X\"}");
}

static int cann(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_host *h = &x->host;
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, SORT_CANN, 31);
	double begin = strtod(h->cfg.clock.begin, NULL);
	uint32_t *tids;
	size_t nt = 0, *emitted, n_emitted = 0;
	char tsb[NPA_PY_FMT_MAX], num[32];
	int rc;

	if (!h->n_api)
		return 0;
	/*
	 * msprof writes no CANN process, not even its names, when none of its
	 * calls is in the window (a host clock link that puts them all before
	 * the collection began)
	 */
	for (nt = 0; nt < h->n_api; nt++) {
		npa_tl_host_local(tsb, h->api[nt].begin, h->cfg.clock.offset);
		if (strtod(tsb, NULL) >= begin)
			break;
	}
	if (nt == h->n_api)
		return 0;
	nt = 0;
	tids = malloc(h->n_api * sizeof(*tids));
	if (!tids)
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < h->n_api; i++)
		tids[nt++] = h->api[i].tid;
	npx_qsort(tids, nt, sizeof(*tids), cmp_u32);
	rc = npa_tl_process_meta(t, pid, "CANN");
	for (size_t i = 0; !rc && i < nt; i++) {
		if (i && tids[i] == tids[i - 1])
			continue;
		snprintf(num, sizeof(num), "Thread %u", tids[i]);
		rc = npa_tl_meta(t, "thread_name", pid, tids[i], "name", num, 0);
	}
	for (size_t i = 0; !rc && i < nt; i++) {
		if (i && tids[i] == tids[i - 1])
			continue;
		rc = npa_tl_meta(t, "thread_sort_index", pid, tids[i], "sort_index", NULL, tids[i]);
	}
	free(tids);
	emitted = malloc(h->n_api * sizeof(*emitted));
	if (!emitted)
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < h->n_api; i++) {
		/* a zero-length call is an event too (dur 0.0), though no tree node */
		npa_tl_host_local(tsb, h->api[i].begin, h->cfg.clock.offset);
		if (strtod(tsb, NULL) < begin)
			continue;
		rc = npa_tl_add_ref(t, NPA_TL_CANN, i, tsb);
		emitted[n_emitted++] = i;
	}
	if (!rc)
		rc = npa_tl_comm_flow_starts(t, x, d, pid, emitted, n_emitted);
	free(emitted);
	if (!rc)
		rc = npa_tl_process_tail(t, pid, "CPU", SORT_CANN);
	return rc;
}

/* ---- Ascend Hardware and the flows ---- */

/*
 * msprof's timeline window (msprof_timeline.py): start <= Decimal(ts), or
 * ts < start < ts + dur; the first exactly, the second in doubles.
 */
bool npa_tl_in_window(const char *ts, double dur_us, double begin)
{
	return npa_py_decimal_cmp_float(ts, begin) >= 0 ||
	       (dur_us > 0 && begin < strtod(ts, NULL) + dur_us);
}

static int cmp_stream(const void *a, const void *b)
{
	return cmp_u32(a, b);
}

/* device task @i's event, at @tsb */
static char *fmt_hw(const struct npa_export *x, const struct npa_dev *d, size_t i, const char *tsb,
		    char *p)
{
	const struct npa_host *h = &x->host;
	const struct npa_task *k = &d->tasks[i];
	const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
	const struct npa_op *op = ht && ht->op >= 0 ? &h->ops[ht->op] : NULL;
	const char *type = op && !op->level0 ? npa_ge_task_type_name(op->task_type)
			   : ht		     ? ht->type
					     : "AI_CORE";

	p = npx_lit(p, "{\"name\": ");
	/* the name is ge_summary's for the task's context, else its type */
	p = npa_tl_json_str(p, op && op->ctx == k->ctx ? op->name : type);
	p = npx_lit(p, ", \"pid\": ");
	p = npa_fmt_u64(p, npa_tl_fmt_pid(d->cfg.pid, SORT_HW, d->cfg.id));
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, k->stream);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, tsb);
	p = npx_lit(p, "\", \"dur\": ");
	p = npa_py_repr(p, k->dur / 1000);
	p = npx_lit(p, ", \"args\": {\"Model Id\": ");
	p = npa_fmt_u64(p, op ? op->model_id : NPA_NO_MODEL);
	p = npx_lit(p, ", \"Task Type\": ");
	p = npa_tl_json_str(p, type);
	p = npx_lit(p, ", \"Physic Stream Id\": ");
	p = npa_fmt_u64(p, k->stream);
	p = npx_lit(p, ", \"Task Id\": ");
	p = npa_fmt_u64(p, k->task);
	p = npx_lit(p, ", \"Batch Id\": ");
	p = npa_fmt_u64(p, k->batch);
	p = npx_lit(p, ", \"Subtask Id\": ");
	p = npa_fmt_u64(p, k->ctx);
	p = npx_lit(p, ", \"connection_id\": ");
	p = npa_fmt_s64(p, ht ? ht->conn : -1);
	return npx_lit(p, "}, \"ph\": \"X\"}");
}

/* the start (@end false) or end of device task @i's HostToDevice flow, at @ts */
static char *fmt_flow(const struct npa_export *x, const struct npa_dev *d, size_t i, bool end,
		      const char *ts, char *p)
{
	const struct npa_task *k = &d->tasks[i];
	npa_u128 fid = (npa_u128)d->cfg.id << 80 | (npa_u128)k->stream << 64 |
		       (npa_u128)k->task << 48 | (npa_u128)k->batch << 32 | k->ctx;
	char id[48];

	*npa_fmt_u128(id, fid) = 0;
	p = npx_lit(p, "{\"name\": \"HostToDevice");
	p = npx_put(p, id);
	if (!end) {
		const struct npa_htask *ht = &x->host.htask[k->host];

		p = npx_lit(p, "\", \"ph\": \"s\", \"cat\": \"HostToDevice\", \"id\": \"");
		p = npx_put(p, id);
		p = npx_lit(p, "\", \"pid\": ");
		p = npa_fmt_u64(p, npa_tl_fmt_pid(d->cfg.pid, SORT_CANN, 31));
		p = npx_lit(p, ", \"tid\": ");
		p = npa_fmt_u64(p, ht->tid);
		p = npx_lit(p, ", \"ts\": \"");
		p = npx_put(p, ts);
		return npx_lit(p, "\"}");
	}
	p = npx_lit(p, "\", \"ph\": \"f\", \"id\": \"");
	p = npx_put(p, id);
	p = npx_lit(p, "\", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\", \"cat\": \"HostToDevice\", \"pid\": ");
	p = npa_fmt_u64(p, npa_tl_fmt_pid(d->cfg.pid, SORT_HW, d->cfg.id));
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, k->stream);
	return npx_lit(p, ", \"bp\": \"e\"}");
}

static int hardware(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d)
{
	const struct npa_host *h = &x->host;
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, SORT_HW, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL),
	       host_begin = strtod(h->cfg.clock.begin, NULL);
	uint32_t *streams;
	size_t ns = 0;
	char tsb[NPA_PY_FMT_MAX], id[48];
	int rc;

	if (!d->n_tasks)
		return 0;
	streams = malloc(d->n_tasks * sizeof(*streams));
	if (!streams)
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < d->n_tasks; i++)
		streams[ns++] = d->tasks[i].stream;
	npx_qsort(streams, ns, sizeof(*streams), cmp_stream);
	rc = npa_tl_process_meta(t, pid, "Ascend Hardware");
	for (size_t i = 0; !rc && i < ns; i++) {
		if (i && streams[i] == streams[i - 1])
			continue;
		snprintf(id, sizeof(id), "Stream %u", streams[i]);
		rc = npa_tl_meta(t, "thread_name", pid, streams[i], "name", id, 0);
		if (!rc)
			rc = npa_tl_meta(t, "thread_sort_index", pid, streams[i], "sort_index",
					 NULL, streams[i]);
	}
	free(streams);
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];

		/* a mix op's ACSQ task is shown as its FFTS+ context */
		if (k->shadowed)
			continue;
		npa_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		if (npa_tl_in_window(tsb, k->dur / 1000, begin))
			rc = npa_tl_add_ref(t, NPA_TL_HW, i, tsb);
	}
	snprintf(id, sizeof(id), "NPU %u", d->cfg.id);
	if (!rc)
		rc = npa_tl_process_tail(t, pid, id, SORT_HW);
	/* flows: a kernel task with a host task (msprof: one in TaskInfo) */
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		const struct npa_htask *ht = k->host >= 0 ? &h->htask[k->host] : NULL;
		char hts[NPA_PY_FMT_MAX];

		if (!ht || ht->op < 0 || strncmp(ht->type, "KERNEL", 6) || k->shadowed)
			continue;
		npa_py_local_time_d(tsb, k->start, d->cfg.clock.offset);
		npa_tl_host_local(hts, ht->ts, h->cfg.clock.offset);
		/*
		 * msprof draws a flow from a launch call it shows: none for one
		 * before the window (cann() leaves those out); the start event
		 * is not filtered otherwise, the end by the task's time
		 */
		if (strtod(hts, NULL) < host_begin)
			continue;
		rc = npa_tl_add_ref(t, NPA_TL_FLOW_S, i, hts);
		if (!rc && npa_tl_in_window(tsb, 0, begin))
			rc = npa_tl_add_ref(t, NPA_TL_FLOW_F, i, tsb);
	}
	if (!rc)
		rc = npa_tl_memcpy_ends(t, x, d, pid);
	return rc;
}

/* ---- AI Core Freq ---- */

static int freq_event(struct npa_tl *t, uint64_t pid, const char *ts, double mhz)
{
	char buf[256], *p = buf;

	p = npx_lit(p, "{\"name\": \"AI Core Freq\", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\", \"pid\": ");
	p = npa_fmt_u64(p, pid);
	p = npx_lit(p, ", \"tid\": 0, \"args\": {\"MHz\": ");
	p = npa_py_repr(p, mhz);
	p = npx_lit(p, "}, \"ph\": \"C\"}");
	return npa_tl_add(t, buf, (size_t)(p - buf), ts, false);
}

static int ai_core_freq(struct npa_tl *t, const struct npa_dev *d)
{
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, SORT_FREQ, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL), first, last, cnt;
	char first_ts[NPA_PY_FMT_MAX], label[32];
	int rc;

	/* msprof draws it on chips 4, 5 and 7 (ai_core_freq_viewer.py): not on 1 to 3 */
	if (!d->cfg.aic_mhz || !npf_chip_has(d->cfg.chip_id, NPF_CHIP_FREQ))
		return 0;
	rc = npa_tl_process_meta(t, pid, "AI Core Freq");
	/*
	 * the clock at the device's start, then one fill per ms to the end:
	 * msprof's int(cntvct / 1e9 * 1e9) ticks (one short when the double
	 * is), in microseconds, as trans_syscnt_into_local_time computes them
	 */
	cnt = (double)npx_i64(d->cfg.dev_cnt * 1e9);
	npa_py_decimal_add3_d(first_ts,
			      (cnt - d->cfg.dev_cnt * 1e9) / d->cfg.hwts_hz * 1e6 +
				      d->cfg.host_mon * 1e6,
			      d->cfg.clock.offset);
	first = strtod(first_ts, NULL);
	if (!rc && npa_tl_in_window(first_ts, 0, begin))
		rc = freq_event(t, pid, first_ts, d->cfg.aic_mhz);
	last = d->cfg.clock.end[0] ? strtod(d->cfg.clock.end, NULL) : first + 1;
	/* a host clock link far from the device's (load_clock() checks the end) */
	if (!rc && last - first > 1000 && last - first <= NPA_MAX_SESSION_US) {
		double gap = last - first;
		uint64_t fills = (uint64_t)(gap / 1000), f2 = (uint64_t)((gap - 1) / 1000);

		if (f2 < fills)
			fills = f2;
		for (uint64_t k = 1; !rc && k <= fills; k++) {
			char ts[NPA_PY_FMT_MAX];

			npa_py_repr(ts, first + (double)k * 1000);
			if (npa_tl_in_window(ts, 0, begin))
				rc = freq_event(t, pid, ts, d->cfg.aic_mhz);
		}
	}
	if (!rc && d->cfg.clock.end[0]) {
		rc = freq_event(t, pid, d->cfg.clock.end, d->cfg.aic_mhz);
	} else if (!rc && npa_tl_in_window(first_ts, 0, begin)) {
		/* no end_info: msprof ends the counter a microsecond after its start */
		char ts[NPA_PY_FMT_MAX];

		npa_py_decimal_add3(ts, first_ts, "1");
		rc = freq_event(t, pid, ts, d->cfg.aic_mhz);
	}
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = npa_tl_process_tail(t, pid, label, SORT_FREQ);
	return rc;
}

/* ---- the file ---- */

/*
 * A key whose unsigned order is the order of @ts, a double (-0.0 is 0.0,
 * as == says).
 */
static uint64_t ts_key(double ts)
{
	uint64_t b;

	if (ts == 0)
		ts = 0;
	memcpy(&b, &ts, sizeof(b));
	return b >> 63 ? ~b : b | 1ULL << 63;
}

/*
 * Sort @v[0..n) by ts, stably (the events are in construction order), as
 * msprof's sort by float(ts) does: an LSD radix sort of the ts keys, 16
 * bits a pass, skipping the passes in which every key has the same digit
 * (the top bits of times a few seconds apart). qsort moved the 40-byte
 * events some 23 times each at 1M tasks; this moves them at most 4 times.
 */
static int sort_events(struct npa_tl *t, struct npa_tl_ev *v, size_t n)
{
	struct npa_tl_ev *tmp, *src = v, *dst;
	size_t *count;
	int rc = 0;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(65536 * sizeof(*count));
	if (!tmp || !count) {
		rc = npx_set_error(t->err, -ENOMEM, "out of memory");
		goto out_free;
	}
	dst = tmp;
	for (unsigned int shift = 0; shift < 64; shift += 16) {
		uint32_t first = (uint32_t)(ts_key(src[0].ts) >> shift) & 0xffff;
		size_t sum = 0;
		bool same = true;

		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++) {
			uint32_t d = (uint32_t)(ts_key(src[i].ts) >> shift) & 0xffff;

			count[d]++;
			same &= d == first;
		}
		if (same)
			continue;
		for (uint32_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(ts_key(src[i].ts) >> shift) & 0xffff]++] = src[i];
		dst = src;
		src = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
out_free:
	free(count);
	free(tmp);
	return rc;
}

/* the text of @e (not NPA_TL_TEXT) at @ts, into @p (NPA_TL_SCRATCH bytes) */
static char *tl_format(const struct npa_tl *t, const struct npa_tl_ev *e, const char *ts, char *p)
{
	const struct npa_dev *d = &t->x->dev[e->dev];

	switch (e->kind) {
	case NPA_TL_CANN:
		return fmt_cann(t->x, d, e->ref, ts, p);
	case NPA_TL_HW:
		return fmt_hw(t->x, d, e->ref, ts, p);
	case NPA_TL_FLOW_S:
	case NPA_TL_FLOW_F:
		return fmt_flow(t->x, d, e->ref, e->kind == NPA_TL_FLOW_F, ts, p);
	case NPA_TL_OVERLAP:
		return npa_tl_fmt_overlap(t, e->ref, ts, p);
	}
	return p;
}

/*
 * An event formatted when it is written, at @ts. One whose time is not a
 * plain three-decimal string (a corrupt clock) is formatted now and kept
 * as text.
 */
int npa_tl_add_ref(struct npa_tl *t, uint8_t kind, uint64_t ref, const char *ts)
{
	struct npa_tl_ev *e;
	uint64_t tsm;

	if (!tsm_parse(ts, &tsm)) {
		struct npa_tl_ev tmp = { .ref = ref, .kind = kind, .dev = t->dev };
		char *end = tl_format(t, &tmp, ts, t->scratch);

		return tl_add_text(t, t->scratch, (size_t)(end - t->scratch), ts, false,
				   kind == NPA_TL_CANN ? t->x->host.api[ref].conn : 0);
	}
	e = tl_push(t);
	if (!e)
		return -ENOMEM;
	*e = (struct npa_tl_ev){
		.ts = strtod(ts, NULL), .ref = ref, .tsm = tsm, .kind = kind, .dev = t->dev
	};
	return 0;
}

/* the connection id msprof de-duplicates a CANN call on, 0 for other events */
static uint64_t tl_conn(const struct npa_tl *t, const struct npa_tl_ev *e)
{
	if (e->kind == NPA_TL_CANN)
		return t->x->host.api[e->ref].conn;
	return e->kind == NPA_TL_TEXT ? e->tsm : 0;
}

/* a device's events, as msprof's device_N/timeline/msprof_N.json holds them */
static int device_events(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
			 uint32_t overlap_sort)
{
	size_t first = t->n;
	int rc;

	t->dev = (uint16_t)(d - x->dev);
	rc = cann(t, x, d);

	if (!rc)
		rc = hardware(t, x, d);
	if (!rc)
		rc = npa_tl_communication(t, x, d);
	if (!rc)
		rc = ai_core_freq(t, d);
	if (!rc)
		rc = npa_tl_overlap(t, x, d, overlap_sort);
	if (!rc)
		rc = sort_events(t, t->ev + first, t->n - first);
	return rc;
}

static int write_ev(struct npa_out *o, struct npa_file *f, const struct npa_tl *t,
		    const struct npa_tl_ev *e, bool *first)
{
	char *p, ts[32];
	int rc = npa_file_reserve(o, f, (e->kind == NPA_TL_TEXT ? e->len : NPA_TL_SCRATCH) + 4, &p);

	if (rc)
		return rc;
	if (!*first)
		p = npx_lit(p, ", ");
	*first = false;
	if (e->kind == NPA_TL_TEXT) {
		memcpy(p, tl_text(t, e), e->len);
		p += e->len;
	} else {
		tsm_put(ts, e->tsm);
		p = tl_format(t, e, ts, p);
	}
	npa_file_advance(f, p);
	return 0;
}

int npa_timeline(struct npa_export *x, struct npa_out *o, struct npa_file *f)
{
	if (npa_timeline_cpp_ok(x))
		return npa_timeline_cpp(x, o, f);
	return timeline_py(x, o, f);
}

static int timeline_py(struct npa_export *x, struct npa_out *o, struct npa_file *f)
{
	struct npa_tl t = { .err = o->err, .x = x, .scratch = malloc(NPA_TL_SCRATCH) };
	size_t *start = calloc(x->ndev + 1, sizeof(*start));
	struct npx_hmap seen = NPX_HMAP_INIT(npx_hmap_hash_u64, npx_hmap_equal_u64, NULL);
	char tmp[96], *p;
	bool first = true;
	int rc = 0;

	if (!start || !t.scratch) {
		free(start);
		free(t.scratch);
		return npx_set_error(o->err, -ENOMEM, "out of memory");
	}
	/* Overlap Analysis takes 19 + k, k counting the devices in reverse order */
	for (unsigned int k = 0; !rc && k < x->ndev; k++) {
		start[k] = t.n;
		rc = device_events(&t, x, &x->dev[k], SORT_OVERLAP_BASE + (x->ndev - k));
	}
	start[x->ndev] = t.n;
	snprintf(tmp, sizeof(tmp), ".npuprof-%ld-msprof.tmp", o->pid);
	if (!rc)
		rc = npa_file_open(o, f, tmp);
	if (!rc)
		rc = npa_file_reserve(o, f, 2, &p);
	if (!rc) {
		*p++ = '[';
		npa_file_advance(f, p);
	}
	/* every device's metadata, then the rest; a CANN call only once */
	for (size_t i = 0; !rc && i < t.n; i++)
		if (t.ev[i].meta)
			rc = write_ev(o, f, &t, &t.ev[i], &first);
	for (size_t i = 0; !rc && i < t.n; i++) {
		const struct npa_tl_ev *e = &t.ev[i];
		uint64_t conn;

		if (e->meta)
			continue;
		/* each device has its copy of a call; one device has no duplicate */
		conn = x->ndev > 1 ? tl_conn(&t, e) : 0;
		if (conn) {
			bool added;

			if (!npx_hmap_slot(&seen, conn, &added)) {
				rc = npx_set_error(o->err, -ENOMEM, "out of memory");
				break;
			}
			if (!added)
				continue;
		}
		rc = write_ev(o, f, &t, e, &first);
	}
	if (!rc)
		rc = npa_file_reserve(o, f, 2, &p);
	if (!rc) {
		*p++ = ']';
		npa_file_advance(f, p);
		rc = npa_file_close(o, f);
	}
	npx_hmap_free(&seen);
	free(start);
	free(t.scratch);
	tl_free(&t);
	return rc;
}
