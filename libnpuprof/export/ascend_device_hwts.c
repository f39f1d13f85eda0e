// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the device records of the HWTS chips (1 to 4), which
 * have no STARS (docs/msprof-parser.md section 1.11): HWTS logs (hwts)
 * pair in file order into tasks, and AI Core PMU records (aicore), which
 * have no time, go to op_summary's rows of a (stream, task) in order. The
 * rest of a device's reading and its join: ascend_device.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/device.h"
#include "vnpu_ascend.h"

/*
 * The 4-bit counter of an HWTS record, which steps by one over the whole
 * stream of its kind: msprof logs each gap ("An lost before the operator",
 * hwts_log.py, aic_pmu.py) and drops nothing; so do we, with a warning.
 */
static void hwts_count(struct npa_dev_read *r, int *next, uint64_t *gaps, uint32_t cnt,
		       const char *what, const char *file, uint64_t off)
{
	if (*next >= 0 && cnt != (uint32_t)*next) {
		if (!*gaps)
			npa_warn(r->w,
				 "%s: offset %llu: %s counter %u, not %d: records are missing"
				 " before it",
				 file, (unsigned long long)off, what, cnt, *next);
		*gaps += (cnt - (uint32_t)*next) & 0xf;
	}
	*next = (int)((cnt + 1) & 0xf);
}

int npa_hwts_on_log(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct vnpu_hwts_log l;
	struct npa_acsq *e;
	uint32_t type;

	memcpy(&l, rec, sizeof(l));
	hwts_count(r, &r->log_cnt, &r->log_gaps, VNPU_HWTS_CNT(l.word0), "HWTS log", file, off);
	type = VNPU_HWTS_TYPE(l.word0);
	/* msprof keeps the start and end logs and drops the other types */
	if (type != VNPU_HWTS_LOG_START && type != VNPU_HWTS_LOG_END) {
		if (!r->bad_type++)
			npa_warn(r->w,
				 "%s: offset %llu: log type %u is neither a start nor an end:"
				 " skipped",
				 file, (unsigned long long)off, type);
		return 0;
	}
	if (npa_grow((void **)&r->ev, &r->cap_ev, r->n_ev, sizeof(*r->ev), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	e = &r->ev[r->n_ev];
	e->stream = l.stream_id % 2048;
	e->task = l.task_id;
	e->sqe = l.task_type;
	e->end = type == VNPU_HWTS_LOG_END;
	e->ns = npa_syscnt_ns(&r->d->cfg, l.syscnt);
	e->cnt = l.syscnt;
	e->seq = r->n_ev++;
	return 0;
}

int npa_hwts_on_pmu(void *arg, const void *rec, const char *file, uint64_t off)
{
	struct npa_dev_read *r = arg;
	struct npa_dev *d = r->d;
	struct vnpu_aic_pmu p;
	struct npa_pmu_rec *pr;

	memcpy(&p, rec, sizeof(p));
	hwts_count(r, &r->pmu_cnt, &r->pmu_gaps, VNPU_HWTS_CNT(p.word0), "AI Core PMU record", file,
		   off);
	if (npa_grow((void **)&d->pmu, &r->cap_pmu, d->n_pmu, sizeof(*d->pmu), 4096) ||
	    npa_grow((void **)&r->pr, &r->cap_pr, d->n_pmu, sizeof(*r->pr), 4096))
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	/*
	 * the whole entry: join() reads .mix of every PMU record it takes, and
	 * a grown array's new room holds whatever realloc() left there
	 */
	d->pmu[d->n_pmu] = (struct npa_pmu){ .total = p.total_cycle };
	memcpy(d->pmu[d->n_pmu].pmu, p.pmu, sizeof(p.pmu));
	pr = &r->pr[d->n_pmu];
	pr->stream = p.stream_id % 2048;
	pr->task = p.task_id;
	pr->ctx = NPA_NO_CTX;
	pr->batch = 0; /* none: matched in order */
	pr->end_ns = 0;
	pr->idx = d->n_pmu++;
	return 0;
}

static int cmp_hwts_key(const void *a, const void *b)
{
	const struct npa_acsq *x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * msprof's HwtsCalculator._prep_data, per (stream, task) in file order: an
 * end takes the last start before it, or, with none, a start at tick -1
 * (a task of huge duration, as msprof shows it); a start no end takes is
 * no task.
 */
int npa_hwts_pair(struct npa_dev_read *r)
{
	struct npa_dev *d = r->d;
	size_t i, j;

	d->tasks = calloc(r->n_ev + 1, sizeof(*d->tasks));
	if (!d->tasks)
		return npx_set_error(r->err, -ENOMEM, "out of memory");
	npx_qsort(r->ev, r->n_ev, sizeof(*r->ev), cmp_hwts_key);
	for (i = 0; i < r->n_ev; i = j) {
		int64_t start = -1;

		for (j = i; j < r->n_ev && r->ev[j].task == r->ev[i].task &&
			    r->ev[j].stream == r->ev[i].stream;
		     j++) {
			const struct npa_acsq *e = &r->ev[j];

			if (!e->end) {
				if (start >= 0)
					d->mismatched++;
				start = (int64_t)j;
				continue;
			}
			if (start < 0)
				d->mismatched++;
			npa_dev_add_task(d, e->stream, e->task, NPA_NO_CTX, e->sqe, false,
					 start >= 0 ? r->ev[start].ns
						    : npa_syscnt_ns_d(&d->cfg, -1.0),
					 e->ns, start >= 0 ? r->ev[start].cnt : 0, e->cnt);
			start = -1;
		}
		if (start >= 0)
			d->mismatched++;
	}
	npx_qsort(d->tasks, d->n_tasks, sizeof(*d->tasks), npa_dev_cmp_task_start);
	npa_dev_warn_mismatched(r);
	return 0;
}

/*
 * Whether op_summary's row of @t takes a PMU record on an HWTS chip:
 * msprof's rows (a kernel's task with its op) in start order take them,
 * but for AI CPU and DVPP ops (ai_core_op_report.py HARDWARE_OP_LIST)
 */
bool npa_hwts_row_takes_pmu(const struct npa_host *h, const struct npa_task *t)
{
	const struct npa_op *op = npa_task_op(h, t);

	return op && op->task_type != CANN_GE_AI_CPU && op->task_type != CANN_GE_DVPP;
}
