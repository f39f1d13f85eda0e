// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export, vnpu layout: a device's records joined into tasks,
 * and the tasks put back in start order, in one streaming pass.
 *
 * The device writes the records of one task together when the task
 * completes (TASK_START, OP_INFO, PMU or COMM or AICPU, TASK_END), and
 * tasks complete in start-time order per device. So a task is complete
 * when the records move on to another task id after its TASK_START and
 * TASK_END have been seen; it then enters a window sorted by start time,
 * and leaves it (in start order) once 4096 younger tasks are queued behind
 * it. Records of interleaved tasks are joined as long as fewer than 256
 * tasks are open at once; tasks that arrive more than 4096 tasks late are
 * exported out of order and counted. Memory is bounded by these windows,
 * not by the length of the run.
 *
 * The record loop, the join and the window are in one file so that the
 * compiler can inline them into each other: they run for every record.
 */
#include <errno.h>
#include <stdio.h>

#include "npuprof_internal.h"

#define NPX_SEQ_WARN_MAX 3 /* seq gaps reported one by one, then counted */

/* ---- the reorder window ---- */

/*
 * Completed tasks wait in a ring kept sorted by (start, seq): tasks arrive
 * almost always in start order, so an insertion is an append, and one that
 * arrives late moves only the entries that start after it (at most the
 * window). The keys live in the ring (24 bytes an entry), so sorting never
 * touches the tasks themselves.
 */
static bool npx_before(const struct npx_hent *a, const struct npx_hent *b)
{
	return a->start_ns < b->start_ns || (a->start_ns == b->start_ns && a->seq < b->seq);
}

static void npx_win_push(struct npx_dev_state *d, struct npx_task *t)
{
	struct npx_hent e = { .start_ns = t->start_ns, .seq = t->start_seq, .t = t };
	unsigned int i = d->nwin++;

	while (i) {
		struct npx_hent *prev = &d->win[(d->whead + i - 1) & (NPX_WIN_CAP - 1)];

		if (!npx_before(&e, prev))
			break;
		d->win[(d->whead + i) & (NPX_WIN_CAP - 1)] = *prev;
		i--;
	}
	d->win[(d->whead + i) & (NPX_WIN_CAP - 1)] = e;
}

/* The task that starts first; the next one's memory is prefetched. */
static struct npx_task *npx_win_pop(struct npx_dev_state *d)
{
	struct npx_task *top = d->win[d->whead].t;

	d->whead = (d->whead + 1) & (NPX_WIN_CAP - 1);
	if (--d->nwin) {
		/* written a window ago: bring it back before it is formatted */
		const char *next = (const char *)d->win[d->whead].t;
		size_t off;

		for (off = 0; off < sizeof(struct npx_task); off += 64)
			__builtin_prefetch(next + off);
	}
	return top;
}

static int npx_pop_emit(struct npx_export *x)
{
	struct npx_task *t = npx_win_pop(&x->d);
	int rc = npx_emit(x, t);

	x->free[x->nfree++] = t;
	return rc;
}

/* ---- joining records into tasks ---- */

static void npx_pending_remove(struct npx_dev_state *d, struct npx_task *t)
{
	unsigned int i;

	for (i = d->npending; i-- > 0;) {
		if (d->pending[i] == t) {
			memmove(&d->pending[i], &d->pending[i + 1],
				(d->npending - i - 1) * sizeof(d->pending[0]));
			d->npending--;
			break;
		}
	}
	if (d->last == t)
		d->last = NULL;
}

static void npx_drop(struct npx_export *x, struct npx_task *t)
{
	npx_pending_remove(&x->d, t);
	x->d.sum->incomplete++;
	x->free[x->nfree++] = t;
}

/* A task with TASK_START and TASK_END: into the reorder window. */
static int npx_complete(struct npx_export *x, struct npx_task *t)
{
	struct npx_dev_state *d = &x->d;

	npx_pending_remove(d, t);
	t->start_ns = npx_ticks_abs(d, t->start_ticks);
	t->end_ns = npx_ticks_abs(d, t->end_ticks);
	npx_win_push(d, t);
	if (d->nwin > NPX_WINDOW)
		return npx_pop_emit(x);
	return 0;
}

static bool npx_is_complete(const struct npx_task *t)
{
	return (t->have & (NPX_HAVE_START | NPX_HAVE_END)) == (NPX_HAVE_START | NPX_HAVE_END);
}

/* The open task @task_id, created when new; NULL with *rc on error. */
static struct npx_task *npx_task_get(struct npx_export *x, uint64_t task_id, uint64_t seq, int *rc)
{
	struct npx_dev_state *d = &x->d;
	struct npx_task *t;
	unsigned int i;

	*rc = 0;
	if (d->last && d->last->task_id == task_id)
		return d->last;
	/* the records moved on: the previous task is done if it is complete */
	if (d->last && npx_is_complete(d->last)) {
		*rc = npx_complete(x, d->last);
		if (*rc)
			return NULL;
	}
	d->last = NULL;
	for (i = d->npending; i-- > 0;) {
		if (d->pending[i]->task_id == task_id) {
			d->last = d->pending[i];
			return d->last;
		}
	}
	if (d->npending == NPX_PENDING) {
		/* the oldest open task will not complete any more */
		t = d->pending[0];
		if (npx_is_complete(t))
			*rc = npx_complete(x, t);
		else
			npx_drop(x, t);
		if (*rc)
			return NULL;
	}
	t = x->free[--x->nfree];
	memset(t, 0, offsetof(struct npx_task, op));
	t->task_id = task_id;
	t->first_seq = seq;
	d->pending[d->npending++] = t;
	d->last = t;
	return t;
}

int npx_short_record(struct npx_export *x, const char *file, uint64_t off, const char *what,
		     size_t size, size_t want)
{
	return npuprof_set_error(x->o.err, -EBADMSG,
				 "%s: offset %llu: %s record of %zu bytes, expected at least %zu",
				 file, (unsigned long long)off, what, size, want);
}

/*
 * Parse OP_INFO into @t; an error message names the record's file and
 * offset (formatted only then: this runs for every task).
 */
static int npx_op_info(struct npx_export *x, struct npx_task *t, const void *rec, size_t size,
		       const struct npx_reader *r, uint64_t off)
{
	const char *p = (const char *)rec + sizeof(struct vnpu_rec_op_info);
	const char *end = (const char *)rec + size;
	char file[128], what[96];
	uint32_t i;

	memcpy(&t->op, rec, sizeof(t->op));
	if (t->op.n_tensors > VNPU_MAX_TENSORS) {
		snprintf(what, sizeof(what), "OP_INFO with %u tensors (at most %u)",
			 t->op.n_tensors, (unsigned int)VNPU_MAX_TENSORS);
		goto bad;
	}
	for (i = 0; i < t->op.n_tensors; i++) {
		struct vnpu_rec_tensor rt;

		if (end - p < (ptrdiff_t)sizeof(rt))
			goto overrun;
		memcpy(&rt, p, sizeof(rt));
		p += sizeof(rt);
		if (rt.ndims > VNPU_MAX_DIMS) {
			snprintf(what, sizeof(what), "OP_INFO tensor %u has %u dims (at most %u)",
				 i, rt.ndims, (unsigned int)VNPU_MAX_DIMS);
			goto bad;
		}
		if (end - p < (ptrdiff_t)(rt.ndims * sizeof(__u64)))
			goto overrun;
		t->t[i].dtype = rt.dtype;
		t->t[i].format = rt.format;
		t->t[i].ndims = rt.ndims;
		t->t[i].output = rt.output ? 1 : 0;
		memcpy(t->t[i].dims, p, rt.ndims * sizeof(__u64));
		p += rt.ndims * sizeof(__u64);
	}
	t->n_tensors = t->op.n_tensors;
	return 0;
overrun:
	snprintf(what, sizeof(what), "OP_INFO tensor %u runs past the record's %zu bytes", i, size);
bad:
	npx_reader_path(r, file, sizeof(file));
	return npuprof_set_error(x->o.err, -EBADMSG, "%s: offset %llu: %s", file,
				 (unsigned long long)off, what);
}

static void npx_seq(struct npx_export *x, const struct vnpu_rec_hdr *h, const char *file,
		    uint64_t off)
{
	struct npx_dev_state *d = &x->d;
	uint64_t want = d->seq_started ? d->next_seq : 0;

	if (h->seq != want) {
		if (h->seq > want)
			d->sum->seq_missing += h->seq - want;
		if (++d->seq_gaps <= NPX_SEQ_WARN_MAX)
			npx_warn(&x->w, "%s: offset %llu: seq %llu where %llu was expected%s", file,
				 (unsigned long long)off, (unsigned long long)h->seq,
				 (unsigned long long)want,
				 h->seq > want ? ": records are missing" : ": seq went back");
	}
	d->seq_started = true;
	d->next_seq = h->seq + 1;
}

/* sizes of the known record types */
static const size_t npx_rec_size[VNPU_REC_TYPE_COUNT] = {
	[VNPU_REC_LOST] = sizeof(struct vnpu_rec_lost),
	[VNPU_REC_TASK_START] = sizeof(struct vnpu_rec_task),
	[VNPU_REC_TASK_END] = sizeof(struct vnpu_rec_task),
	[VNPU_REC_OP_INFO] = sizeof(struct vnpu_rec_op_info),
	[VNPU_REC_PMU] = sizeof(struct vnpu_rec_pmu),
	[VNPU_REC_COMM] = sizeof(struct vnpu_rec_comm),
	[VNPU_REC_RUNTIME] = sizeof(struct vnpu_rec_runtime),
	[VNPU_REC_AICPU] = sizeof(struct vnpu_rec_aicpu),
};

static const char *const npx_rec_name[VNPU_REC_TYPE_COUNT] = {
	[VNPU_REC_LOST] = "LOST",	  [VNPU_REC_TASK_START] = "TASK_START",
	[VNPU_REC_TASK_END] = "TASK_END", [VNPU_REC_OP_INFO] = "OP_INFO",
	[VNPU_REC_PMU] = "PMU",		  [VNPU_REC_COMM] = "COMM",
	[VNPU_REC_RUNTIME] = "RUNTIME",	  [VNPU_REC_AICPU] = "AICPU",
};

static int npx_dev_record(struct npx_export *x, const struct npx_reader *r, const void *rec,
			  size_t size, uint64_t off)
{
	const struct vnpu_rec_hdr *h = rec;
	struct npx_dev_state *d = &x->d;
	uint32_t type = h->type;
	struct npx_task *t;
	char file[128];
	int rc;

	d->sum->records++;
	if (h->seq != (d->seq_started ? d->next_seq : 0)) {
		npx_reader_path(r, file, sizeof(file));
		npx_seq(x, h, file, off);
	} else {
		d->seq_started = true;
		d->next_seq = h->seq + 1;
	}
	if (type == 0 || type >= VNPU_REC_TYPE_COUNT) {
		d->sum->unknown++;
		return 0;
	}
	if (size < npx_rec_size[type]) {
		npx_reader_path(r, file, sizeof(file));
		return npx_short_record(x, file, off, npx_rec_name[type], size, npx_rec_size[type]);
	}

	switch (type) {
	case VNPU_REC_LOST:
		/* the collector's own: records it drained but could not write */
		if (h->flags & NPUPROF_RAW_LOST_F_COLLECTOR) {
			d->unwritten += ((const struct vnpu_rec_lost *)rec)->lost;
			d->sum->seq_missing += ((const struct vnpu_rec_lost *)rec)->lost;
		} else {
			d->sum->lost += ((const struct vnpu_rec_lost *)rec)->lost;
		}
		return 0;
	case VNPU_REC_RUNTIME:
		return npx_row_runtime(x, rec);
	default:
		break;
	}
	/* every other type starts with hdr, task_id */
	t = npx_task_get(x, ((const struct vnpu_rec_task *)rec)->task_id, h->seq, &rc);
	if (!t)
		return rc;
	switch (type) {
	case VNPU_REC_TASK_START:
	case VNPU_REC_TASK_END: {
		const struct vnpu_rec_task *tr = rec;
		uint32_t bit = type == VNPU_REC_TASK_START ? NPX_HAVE_START : NPX_HAVE_END;

		if (t->have & bit)
			d->dups++;
		t->have |= bit;
		if (type == VNPU_REC_TASK_START) {
			t->start_ticks = tr->timestamp;
			t->start_seq = h->seq;
			t->stream_id = tr->stream_id;
			t->task_type = tr->task_type;
		} else {
			t->end_ticks = tr->timestamp;
			if (!(t->have & NPX_HAVE_START)) {
				t->stream_id = tr->stream_id;
				t->task_type = tr->task_type;
			}
		}
		break;
	}
	case VNPU_REC_OP_INFO:
		if (t->have & NPX_HAVE_OP)
			d->dups++;
		rc = npx_op_info(x, t, rec, size, r, off);
		if (rc)
			return rc;
		t->have |= NPX_HAVE_OP;
		break;
	case VNPU_REC_PMU:
		if (t->have & NPX_HAVE_PMU)
			d->dups++;
		memcpy(&t->pmu, rec, sizeof(t->pmu));
		t->have |= NPX_HAVE_PMU;
		break;
	case VNPU_REC_COMM:
		if (t->have & (NPX_HAVE_COMM | NPX_HAVE_AICPU))
			d->dups++;
		memcpy(&t->comm, rec, sizeof(t->comm));
		t->have = (t->have & ~NPX_HAVE_AICPU) | NPX_HAVE_COMM;
		break;
	case VNPU_REC_AICPU:
		if (t->have & (NPX_HAVE_COMM | NPX_HAVE_AICPU))
			d->dups++;
		memcpy(&t->aicpu, rec, sizeof(t->aicpu));
		t->have = (t->have & ~NPX_HAVE_COMM) | NPX_HAVE_AICPU;
		break;
	}
	return 0;
}

/* ---- the stream ---- */

int npx_join_device(struct npx_export *x, const struct npx_rfiles *files)
{
	struct npx_dev_state *d = &x->d;
	const void *rec;
	struct npx_reader r;
	uint64_t off;
	size_t size;
	int rc;

	rc = npx_reader_open(&r, files, sizeof(struct vnpu_rec_hdr), x->o.err);
	if (rc)
		return rc;
	while ((rc = npx_reader_next(&r, &rec, &size, &off, &x->w, x->o.err)) > 0) {
		rc = npx_dev_record(x, &r, rec, size, off);
		if (!rc)
			rc = npx_progress(x, x->done + r.consumed);
		if (rc)
			break;
	}
	x->done += r.consumed;
	npx_reader_close(&r);
	if (rc)
		return rc;
	/* a record cut at the end (the collector died writing it): one missing */
	if (r.truncated)
		d->sum->seq_missing++;

	/* the end: complete tasks go to the window, the rest were cut short */
	d->last = NULL;
	while (d->npending) {
		struct npx_task *t = d->pending[0];

		if (npx_is_complete(t))
			rc = npx_complete(x, t);
		else
			npx_drop(x, t);
		if (rc)
			return rc;
	}
	while (d->nwin) {
		rc = npx_pop_emit(x);
		if (rc)
			return rc;
	}
	return 0;
}
