// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the Overlap Analysis layer of msprof_{ts}.json
 * (ascend_timeline.c): per device, Computing (merged op intervals),
 * Communication (merged collectives), Communication(Not Overlapped) and
 * Free, as msprof's SectionCalculator.compute_pipeline_overlap finds them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/ascend.h"
#include "export/ascend_timeline.h"

/* ---- Overlap Analysis ---- */

/* Overlap Analysis section @i, at @ts */
char *npa_tl_fmt_overlap(const struct npa_tl *t, size_t i, const char *ts, char *p)
{
	const struct npa_tl_sec *sec = &t->sec[i];
	const struct npa_tl_sec_list *l = &t->list[sec->list];
	char te[NPA_PY_FMT_MAX];

	npa_py_local_time_d(te, sec->e, l->offset);
	p = npx_lit(p, "{\"name\": \"");
	p = npx_put(p, l->name);
	p = npx_lit(p, "\", \"pid\": ");
	p = npa_fmt_u64(p, l->pid);
	p = npx_lit(p, ", \"tid\": ");
	p = npa_fmt_u64(p, l->tid);
	p = npx_lit(p, ", \"ts\": \"");
	p = npx_put(p, ts);
	p = npx_lit(p, "\", \"dur\": ");
	p = npa_py_decimal_diff_repr(p, te, ts);
	return npx_lit(p, ", \"ph\": \"X\"}");
}

static bool computing(const struct npa_export *x, const struct npa_task *k)
{
	const struct npa_htask *ht = k->host >= 0 ? &x->host.htask[k->host] : NULL;
	/* op_summary's join: a mix op computes as its context, not its ACSQ task */
	const struct npa_op *op = npa_task_op(&x->host, k);

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

/* the sections @l on thread @tid (@name) of process @pid; @name outlives @t */
static int overlap_sections(struct npa_tl *t, uint64_t pid, uint32_t tid, const char *name,
			    const struct sections *l, double offset)
{
	char ts[NPA_PY_FMT_MAX];
	int rc = 0;

	if (!l->n)
		return 0;
	if (npa_grow((void **)&t->list, &t->cap_list, t->n_list, sizeof(*t->list), 16))
		return npx_set_error(t->err, -ENOMEM, "out of memory");
	t->list[t->n_list] = (struct npa_tl_sec_list){ pid, tid, name, offset };
	for (size_t i = 0; !rc && i < l->n; i++) {
		if (npa_grow((void **)&t->sec, &t->cap_sec, t->n_sec, sizeof(*t->sec), 4096))
			return npx_set_error(t->err, -ENOMEM, "out of memory");
		t->sec[t->n_sec] = (struct npa_tl_sec){ l->v[i].s, l->v[i].e, (uint32_t)t->n_list };
		npa_py_local_time_d(ts, l->v[i].s, offset);
		rc = npa_tl_add_ref(t, NPA_TL_OVERLAP, t->n_sec++, ts);
	}
	t->n_list++;
	return rc;
}

int npa_tl_overlap(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
		   uint32_t sort)
{
	uint64_t pid = npa_tl_fmt_pid(d->cfg.pid, sort, d->cfg.id);
	double begin = strtod(d->cfg.clock.begin, NULL), latest, earliest;
	struct sections comp = { 0 }, comm = { 0 }, pure = { 0 }, free_s = { 0 };
	char label[32];
	int rc = 0;

	/* computing: the computing ops' tasks in the window (op_summary's) */
	for (size_t i = 0; !rc && i < d->n_tasks; i++) {
		const struct npa_task *k = &d->tasks[i];
		char ts[NPA_PY_FMT_MAX];

		if (!computing(x, k))
			continue;
		npa_py_local_time_d(ts, k->start, d->cfg.clock.offset);
		if (npa_tl_in_window(ts, k->dur / 1000, begin))
			rc = sec_add(&comp, k->start, k->start + k->dur, false);
	}
	/* communication: the executed collectives (get_hccl_op_time_section) */
	for (size_t i = 0; !rc && i < d->comm.n_op; i++)
		rc = sec_add(&comm, d->comm.op[i].start, d->comm.op[i].end, true);
	if (rc) {
		rc = npx_set_error(t->err, rc, "out of memory");
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
		rc = npx_set_error(t->err, rc, "out of memory");
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
		rc = npa_tl_process_meta(t, pid, "Overlap Analysis");
	if (!rc)
		rc = npa_tl_meta(t, "thread_name", pid, 0, "name", "Computing", 0);
	if (!rc)
		rc = npa_tl_meta(t, "thread_name", pid, 1, "name", "Communication", 0);
	if (!rc)
		rc = npa_tl_meta(t, "thread_name", pid, 2, "name", "Communication(Not Overlapped)",
				 0);
	if (!rc)
		rc = npa_tl_meta(t, "thread_name", pid, 3, "name", "Free", 0);
	snprintf(label, sizeof(label), "NPU %u", d->cfg.id);
	if (!rc)
		rc = npa_tl_process_tail(t, pid, label, sort);
out:
	free(comp.v);
	free(comm.v);
	free(pure.v);
	free(free_s.v);
	return rc;
}
