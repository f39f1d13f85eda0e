// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the AI CPU's records (device_N/data/aicpu.data.N.slice_K,
 * struct vnpu_aicpu_node) and aicpu_{ts}.csv, as msprof builds them
 * (msparser/add_info/aicpu_add_info_parser.py into AiCpuData, then
 * viewer/aicpu_viewer.py ParseAiCpuData.analysis_aicpu; docs/msprof-parser.md):
 *
 *  - a record with a run start or end tick of 0 is dropped; times are
 *    time_from_syscnt() in ms, the phases differences of the microsecond
 *    fields / 1000, Total_time the ticks from submission to after the run;
 *  - its Node is the op of the AI CPU task (host type KERNEL_AICPU, same
 *    stream and task id) whose device window holds the run's end, when
 *    that op's task type is AI_CPU; else N/A. On a v6 chip (15) it is the
 *    op of the first task of the record's stream and 16-bit task id,
 *    whatever its type and time (analysis_aicpu_by_sqe_id): its 32-bit id
 *    is the record's only while it is under 65536;
 *  - a row starting before collectionTimeBegin is left out; rows are sorted
 *    by their Timestamp text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "vnpu_ascend.h"

struct aicpu_read {
	struct npa_dev *d;
	size_t cap;
	uint64_t bad;
	struct npa_warn *w;
	struct npuprof_error *err;
};

static int on_aicpu(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct aicpu_read *r = arg;
	const struct npa_dev_cfg *c = &r->d->cfg;
	struct vnpu_aicpu_node n;
	struct npa_aicpu *a;

	memcpy(&n, rec, sizeof(n));
	if (n.magic != VNPU_AICPU_MAGIC || n.level != VNPU_AICPU_LEVEL) {
		/* msprof: "'5A5A' check Failed" and the kind is lost; we skip the record */
		if (!r->bad++)
			npa_warn(r->w,
				 "%s: offset %llu: not an AI CPU record (magic %#x, level %u):"
				 " skipped",
				 file, (unsigned long long)off, n.magic, n.level);
		return 0;
	}
	if (n.type != VNPU_AICPU_TYPE_NODE || !n.run_start_tick || !n.run_end_tick)
		return 0;
	if (npa_grow((void **)&r->d->aicpu, &r->cap, r->d->n_aicpu, sizeof(*a), 256))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	a = &r->d->aicpu[r->d->n_aicpu++];
	npa_stars_ids(n.stream_id, n.task_id, &a->stream, &a->task);
	a->start_ms = ((double)n.run_start_tick - c->dev_cnt * 1e9) / c->hwts_hz * 1000.0 +
		      c->host_mon * 1000.0;
	a->end_ms = ((double)n.run_end_tick - c->dev_cnt * 1e9) / c->hwts_hz * 1000.0 +
		    c->host_mon * 1000.0;
	a->compute_ms = (double)(int64_t)(n.memcpy_start_us - n.compute_start_us) / 1000.0;
	a->memcpy_ms = (double)(int64_t)(n.memcpy_end_us - n.memcpy_start_us) / 1000.0;
	a->dispatch_ms = (double)n.dispatch_us / 1000.0;
	a->total_ms = (double)(int64_t)(n.tick_after_run - n.submit_tick) / c->hwts_hz * 1000.0;
	return 0;
}

int npa_aicpu_load(struct npa_dev *d, const char *data, const char *label, struct npa_warn *w,
		   struct npuprof_error *err)
{
	struct aicpu_read r = { .d = d, .w = w, .err = err };
	char prefix[64];
	const char *prefixes[] = { prefix, NULL };
	struct npa_slices s;
	int rc;

	snprintf(prefix, sizeof(prefix), NPF_RAW_AICPU ".data.%u.", d->cfg.id);
	rc = npa_slices_find(&s, data, label, prefixes, w, err);
	if (!rc)
		rc = npa_slices_read(&s, sizeof(struct vnpu_aicpu_node), false, on_aicpu, &r, w,
				     err);
	npa_slices_free(&s);
	return rc;
}

struct aicpu_row {
	char ts[NPA_PY_FMT_MAX + 2];
	const char *node;
	const struct npa_aicpu *a;
};

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct aicpu_row *)a)->ts, ((const struct aicpu_row *)b)->ts);
}

static int cmp_aicpu_task(const void *a, const void *b)
{
	const struct npa_task *x = *(const struct npa_task *const *)a;
	const struct npa_task *y = *(const struct npa_task *const *)b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The op of the AI CPU task of @a's stream and task id whose window holds
 * @a's run end (get_aicpu_batch_id, then ge_summary), from @idx[0..n), the
 * AI CPU tasks sorted by cmp_aicpu_task; "N/A" when none. The windows of
 * one stream do not overlap: the one to look at is the last that starts
 * at or before the end. With @v6, @idx holds every task, and the first of
 * the key is the one, whatever its type.
 */
static const char *aicpu_node(const struct npa_export *x, const struct npa_task **idx, size_t n,
			      const struct npa_aicpu *a, bool v6)
{
	double end_ns = v6 ? -INFINITY : a->end_ms * 1000.0 * 1000;
	const struct npa_task *t = NULL;
	const struct npa_htask *h;
	const struct npa_op *op;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct npa_task *m = idx[mid];
		bool before = m->stream != a->stream ? m->stream < a->stream
			      : m->task != a->task   ? m->task < a->task
						     : m->start <= end_ns;

		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (v6 && lo < n)
		t = idx[lo];
	else if (!v6 && lo)
		t = idx[lo - 1];
	if (!t || t->stream != a->stream || t->task != a->task ||
	    (!v6 && end_ns > t->start + t->dur))
		return "N/A";
	h = &x->host.htask[t->host];
	op = h->op >= 0 ? &x->host.ops[h->op] : NULL;
	return op && (v6 || op->task_type == CANN_GE_AI_CPU) ? op->name : "N/A";
}

static char *put_us(char *p, double ms)
{
	return npa_py_repr(p, npa_py_round(ms * 1000.0, 3));
}

int npa_aicpu_csv(struct npa_export *x, const struct npa_dev *d)
{
	double begin = strtod(d->cfg.clock.begin, NULL);
	char off[NPA_PY_FMT_MAX], us[NPA_PY_FMT_MAX];
	const struct npa_task **idx;
	struct aicpu_row *rows;
	size_t n = 0, n_idx = 0;
	bool v6 = npf_chip_has(d->cfg.chip_id, NPF_CHIP_V6);
	int rc = 0;

	if (!d->n_aicpu)
		return 0;
	if (!x->aicpu.header) {
		rc = npa_csv_set_header(&x->o, &x->aicpu, NPA_HDR_AICPU);
		if (rc)
			return rc;
	}
	rows = malloc(d->n_aicpu * sizeof(*rows));
	idx = malloc((d->n_tasks ? d->n_tasks : 1) * sizeof(*idx));
	if (!rows || !idx) {
		free(rows);
		free(idx);
		return npx_set_error(x->o.err, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->n_tasks; i++) {
		const struct npa_task *t = &d->tasks[i];

		if (t->host >= 0 && (v6 || !strcmp(x->host.htask[t->host].type, "KERNEL_AICPU")))
			idx[n_idx++] = t;
	}
	npx_qsort(idx, n_idx, sizeof(*idx), cmp_aicpu_task);
	npa_py_repr(off, d->cfg.clock.offset);
	for (size_t i = 0; i < d->n_aicpu; i++) {
		const struct npa_aicpu *a = &d->aicpu[i];
		char *e;

		/* str((Decimal(str(start_us)) + Decimal(str(offset))).quantize(0.000)) */
		npa_py_repr(us, a->start_ms * 1000.0);
		e = npa_py_decimal_add3(rows[n].ts, us, off);
		if (begin > strtod(rows[n].ts, NULL))
			continue;
		e[0] = '\t';
		e[1] = '\0';
		rows[n].a = a;
		rows[n++].node = aicpu_node(x, idx, n_idx, a, v6);
	}
	npx_qsort(rows, n, sizeof(*rows), cmp_row);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct npa_aicpu *a = rows[i].a;
		char *p;

		rc = npa_csv_begin(&x->o, &x->aicpu, &p);
		if (!rc)
			rc = npa_file_reserve(&x->o, &x->aicpu.f, 512 + 2 * strlen(rows[i].node),
					      &p);
		if (rc)
			break;
		p = npa_fmt_u64(p, d->cfg.id);
		*p++ = ',';
		p = npx_put(p, rows[i].ts);
		*p++ = ',';
		p = npa_csv_field(p, rows[i].node, 4096);
		*p++ = ',';
		p = put_us(p, a->compute_ms);
		*p++ = ',';
		p = put_us(p, a->memcpy_ms);
		*p++ = ',';
		p = put_us(p, a->end_ms - a->start_ms);
		*p++ = ',';
		p = put_us(p, a->dispatch_ms);
		*p++ = ',';
		p = put_us(p, a->total_ms);
		*p++ = ',';
		p = npa_fmt_u64(p, a->stream);
		*p++ = ',';
		p = npa_fmt_u64(p, a->task);
		npa_csv_end(&x->aicpu, p);
	}
	free(rows);
	free(idx);
	return rc;
}
