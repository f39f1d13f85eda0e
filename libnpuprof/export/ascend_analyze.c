// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: analyze/communication.json and
 * communication_matrix.json, what "msprof analyze --rule
 * communication,communication_matrix" writes of a PROF folder
 * (docs/output.md, "Collectives and clusters"):
 *
 *   the HCCL tasks after the collection start, grouped by
 *   "{op name}@{group}" in the order they are first seen (the devices in
 *   msprof's order of their folders, reverse by name);
 *   communication.json  per op (its first iteration only) the time
 *        info of its master plane (transit: the SDMA copies off chip and
 *        the RDMA payloads; wait: the Notify_Waits, synchronization those
 *        before the first transit) and the bandwidth per transport, then
 *        "Total HCCL Operators" summing them (CommunicationParser);
 *   communication_matrix.json  per op and "src-dst" link the transport,
 *        size, time and bandwidth of its copies and payloads, then the
 *        total (CommunicationMatrixParser).
 *
 * Numbers are as json.dump writes Python's: floats as repr() does, the
 * values that stayed Python's int 0 as 0. A folder without collectives
 * gets no analyze/. communication_analyzer.db is not written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/ascend.h"

#define TOTAL "Total HCCL Operators"
#define NO_RANK 4294967295LL

/* a Python number: a float, or the int 0 it started as */
struct pn {
	double v;
	bool f;
};

static void pn_add(struct pn *a, struct pn b)
{
	a->v += b.v;
	a->f |= b.f;
}

static struct pn pf(double v)
{
	return (struct pn){ v, true };
}

/* ---- a growing text ---- */

struct sb {
	char *p;
	size_t n, cap;
	bool oom;
};

/* room for @len more bytes and a NUL; false (and oom) when there is none */
static bool sb_reserve(struct sb *s, size_t len)
{
	if (s->oom)
		return false;
	if (s->n + len + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		char *p;

		while (cap < s->n + len + 1)
			cap *= 2;
		p = realloc(s->p, cap);
		if (!p) {
			s->oom = true;
			return false;
		}
		s->p = p;
		s->cap = cap;
	}
	return true;
}

static void sb_put(struct sb *s, const char *str, size_t len)
{
	if (!sb_reserve(s, len))
		return;
	memcpy(s->p + s->n, str, len);
	s->n += len;
	s->p[s->n] = 0;
}

static void sb_s(struct sb *s, const char *str)
{
	sb_put(s, str, strlen(str));
}

static void sb_repr(struct sb *s, double v)
{
	char b[NPA_PY_FMT_MAX];

	sb_put(s, b, (size_t)(npa_py_repr(b, v) - b));
}

static void sb_pn(struct sb *s, struct pn v)
{
	if (v.f)
		sb_repr(s, v.v);
	else
		sb_s(s, "0");
}

static void sb_i64(struct sb *s, long long v)
{
	char b[32];

	sb_put(s, b, (size_t)snprintf(b, sizeof(b), "%lld", v));
}

/* a JSON string as json.dump writes it (json_escape.c) */
static void sb_str(struct sb *s, const char *str)
{
	/* the quotes and the escaped text, straight into the buffer */
	if (!sb_reserve(s, NPX_JSON_ESCAPED_MAX(strlen(str)) + 2))
		return;
	s->p[s->n++] = '"';
	s->n = (size_t)(npx_json_escape(s->p + s->n, str, NPX_JSON_PY) - s->p);
	s->p[s->n++] = '"';
	s->p[s->n] = '\0';
}

/* ---- the events, as msprof's HcclTask ---- */

struct ev {
	const struct npa_comm_task *t;
	const struct npa_dev *d;
	char transport[32], link[32], rdma[32];
};

struct op {
	char *key;
	const char *name;
	struct ev **ev;
	size_t n, cap;
};

struct ops {
	struct op *op;
	size_t n, cap;
};

static void ops_free(struct ops *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->op[i].key);
		free(o->op[i].ev);
	}
	free(o->op);
	o->op = NULL;
	o->n = o->cap = 0;
}

static struct op *op_get(struct ops *o, const char *key, size_t *hint)
{
	struct op *p;

	if (*hint < o->n && !strcmp(o->op[*hint].key, key))
		return &o->op[*hint];
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->op[i].key, key)) {
			*hint = i;
			return &o->op[i];
		}
	if (npa_grow((void **)&o->op, &o->cap, o->n, sizeof(*o->op), 16))
		return NULL;
	p = &o->op[o->n];
	memset(p, 0, sizeof(*p));
	p->key = strdup(key);
	if (!p->key)
		return NULL;
	*hint = o->n++;
	return p;
}

static int op_add(struct op *p, struct ev *e)
{
	if (npa_grow((void **)&p->ev, &p->cap, p->n, sizeof(*p->ev), 64))
		return -ENOMEM;
	p->ev[p->n++] = e;
	return 0;
}

static double ev_size(const struct ev *e)
{
	return e->t->h->size == UINT64_MAX ? 0 : (double)e->t->h->size;
}

static bool is_sdma_item(const struct ev *e)
{
	return !strcmp(e->t->h->name, "Memcpy") || !strcmp(e->t->h->name, "Reduce_Inline");
}

static bool is_payload(const struct ev *e)
{
	return !strcmp(e->rdma, "RDMA_SEND_PAYLOAD");
}

/* RDMA_NO_BARRIER_TASK_NUM for a send or receive, else RDMA_WITH_BARRIER_TASK_NUM */
static size_t rdma_ops(const struct ev *e)
{
	char low[256];
	size_t i;

	for (i = 0; i + 1 < sizeof(low) && e->t->name[i]; i++)
		low[i] = (char)(e->t->name[i] >= 'A' && e->t->name[i] <= 'Z' ? e->t->name[i] + 32
									     : e->t->name[i]);
	low[i] = 0;
	return strstr(low, "send") || strstr(low, "receive") ? 3 : 5;
}

static size_t payloads(struct ev *const *ev, size_t n, size_t i)
{
	size_t k = 0;

	while (i + k < n && is_payload(ev[i + k]))
		k++;
	return k;
}

/* calculate_consecutive_payload_tasks_info: false when the closing tasks are missing */
static bool payload_info(struct ev *const *ev, size_t n, size_t i, size_t cnt, size_t jump,
			 double *ms, double *mb)
{
	double size = 0;
	const struct ev *last;

	if (i + cnt + jump - 2 >= n)
		return false;
	for (size_t k = i; k < i + cnt; k++)
		size += ev_size(ev[k]);
	last = ev[i + cnt + jump - 2];
	*mb = size / 1e6;
	*ms = (last->t->dur + last->t->start - ev[i]->t->start) / 1e6;
	return true;
}

/* ---- communication.json ---- */

enum { RDMA, HCCS, PCIE, SDMA, SIO, N_TR };
static const char *const tr_name[N_TR] = { "RDMA", "HCCS", "PCIE", "SDMA", "SIO" };
static const double tr_thr[N_TR] = { 0.5, 32, 32, 0, 32 };

struct dist {
	double size;
	long long count;
	struct pn dur;
};

struct bw {
	struct pn size, time, bw, lpr;
	struct dist *d;
	size_t nd, capd;
};

struct tinfo {
	struct pn start, elapse, transit, wait, sync, idle, wratio, sratio;
};

struct cinfo {
	struct tinfo t;
	struct bw b[N_TR];
};

static void cinfo_free(struct cinfo *c)
{
	for (int k = 0; k < N_TR; k++)
		free(c->b[k].d);
}

static int tr_index(const char *s)
{
	for (int k = 0; k < N_TR; k++)
		if (!strcmp(s, tr_name[k]))
			return k;
	return -1;
}

static int dist_add(struct bw *b, double size, long long count, struct pn dur)
{
	size_t i;

	for (i = 0; i < b->nd && b->d[i].size != size; i++)
		;
	if (i == b->nd) {
		if (npa_grow((void **)&b->d, &b->capd, b->nd, sizeof(*b->d), 8))
			return -ENOMEM;
		b->d[b->nd++] = (struct dist){ size, 0, { 0, false } };
	}
	b->d[i].count += count;
	pn_add(&b->d[i].dur, dur);
	return 0;
}

static int bw_record(struct bw *b, double mb, double ms)
{
	pn_add(&b->size, pf(mb));
	pn_add(&b->time, pf(ms));
	return dist_add(b, mb, 1, pf(ms));
}

static void bw_rate(struct bw *b)
{
	if (b->time.v != 0)
		b->bw = pf(npa_py_round((b->size.v / 1000) / (b->time.v / 1000), 4));
}

/* analyze_bandwidth_info */
static void bw_analyze(struct bw *b, int k)
{
	long long packets = 0, large = 0;

	bw_rate(b);
	for (size_t i = 0; i < b->nd; i++) {
		if (b->d[i].size > tr_thr[k])
			large += b->d[i].count;
		packets += b->d[i].count;
	}
	if (packets > 0)
		b->lpr = pf(npa_py_round((double)large / (double)packets, 4));
}

static void bw_finish(struct bw *b)
{
	for (int k = 0; k < N_TR; k++) {
		if (k != SDMA) {
			bw_analyze(&b[k], k);
			continue;
		}
		/* combine_sdma_info: SDMA is its own plus HCCS, PCIE and SIO */
		struct pn s = b[HCCS].size, t = b[HCCS].time;

		pn_add(&s, b[PCIE].size);
		pn_add(&s, b[SIO].size);
		pn_add(&t, b[PCIE].time);
		pn_add(&t, b[SIO].time);
		pn_add(&b[SDMA].size, s);
		pn_add(&b[SDMA].time, t);
		bw_rate(&b[SDMA]);
	}
}

static void ratios(struct tinfo *t)
{
	if (t->wait.v + t->transit.v != 0)
		t->wratio = pf(npa_py_round(t->wait.v / (t->wait.v + t->transit.v), 4));
	if (t->sync.v + t->transit.v != 0)
		t->sratio = pf(npa_py_round(t->sync.v / (t->sync.v + t->transit.v), 4));
}

static bool transit_sdma(const struct ev *e)
{
	return is_sdma_item(e) && !strcmp(e->transport, "SDMA") && strcmp(e->link, "ON_CHIP");
}

/* op_time_parser, and the start; -1 when the op has no master task */
static int time_info(struct ev **ev, size_t n, struct tinfo *ti)
{
	struct ev **m = malloc(n * sizeof(*m));
	const struct ev *first = NULL, *late, *early;
	size_t nm = 0, i = 0, jump;
	bool wait_flag = true;
	char ts[NPA_PY_FMT_MAX + 32];

	if (!m)
		return -ENOMEM;
	for (size_t k = 0; k < n && !first; k++)
		if (ev[k]->t->h->master)
			first = ev[k];
	if (!first) {
		free(m);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		if (ev[k]->t->h->plane == first->t->h->plane)
			m[nm++] = ev[k];
	jump = rdma_ops(m[0]);
	while (i < nm) {
		const struct ev *e = m[i];

		if (transit_sdma(e)) {
			wait_flag = false;
			pn_add(&ti->transit, pf(e->t->dur / 1e6));
		}
		if (is_payload(e)) {
			size_t cnt = payloads(m, nm, i);
			double ms, mb;

			if (!payload_info(m, nm, i, cnt, jump, &ms, &mb)) {
				i += cnt;
				continue;
			}
			pn_add(&ti->transit, pf(ms));
			i += jump + cnt - 1;
			wait_flag = false;
			continue;
		}
		if (!strcmp(e->t->h->name, "Notify_Wait")) {
			double w = e->t->dur / 1e6;

			if (wait_flag)
				pn_add(&ti->sync, pf(w));
			pn_add(&ti->wait, pf(w));
		}
		i++;
	}
	late = early = m[0];
	for (size_t k = 1; k < nm; k++) {
		if (m[k]->t->start + m[k]->t->dur > late->t->start + late->t->dur)
			late = m[k];
		if (m[k]->t->start < early->t->start)
			early = m[k];
	}
	ti->elapse = pf((late->t->start + late->t->dur - early->t->start) / 1e6);
	ti->idle = ti->elapse;
	ti->idle.v = ti->elapse.v - ti->transit.v - ti->wait.v;
	ratios(ti);
	/* the earliest master task (first is one) */
	early = first;
	for (size_t k = 0; k < n; k++)
		if (ev[k]->t->h->master && ev[k]->t->start < early->t->start)
			early = ev[k];
	*npa_py_local_time_d(ts, early->t->start, early->d->cfg.clock.offset) = 0;
	ti->start = pf(strtod(ts, NULL));
	free(m);
	return 0;
}

/* op_bandwidth_parser: per plane, in the order the planes are first seen */
static int bw_info(struct ev **ev, size_t n, struct bw *b)
{
	size_t jump = rdma_ops(ev[0]);
	int rc = 0;

	for (size_t p = 0; p < n && !rc; p++) {
		struct ev **pl;
		size_t np = 0, i = 0;
		bool seen = false;

		for (size_t k = 0; k < p && !seen; k++)
			seen = ev[k]->t->h->plane == ev[p]->t->h->plane;
		if (seen)
			continue;
		pl = malloc((n - p) * sizeof(*pl));
		if (!pl)
			return -ENOMEM;
		for (size_t k = p; k < n; k++)
			if (ev[k]->t->h->plane == ev[p]->t->h->plane)
				pl[np++] = ev[k];
		while (i < np && !rc) {
			const struct ev *e = pl[i];

			if (transit_sdma(e)) {
				int k = !strcmp(e->link, "HCCS_SW") ? HCCS : tr_index(e->link);

				if (k != HCCS && k != PCIE && k != SIO)
					k = SDMA;
				rc = bw_record(&b[k], ev_size(e) / 1e6, e->t->dur / 1e6);
			}
			if (!rc && is_payload(e)) {
				size_t cnt = payloads(pl, np, i);
				double ms, mb;
				int k = tr_index(e->transport);

				if (!payload_info(pl, np, i, cnt, jump, &ms, &mb)) {
					i += cnt;
					continue;
				}
				if (k >= 0)
					rc = bw_record(&b[k], mb, ms);
				i += jump + cnt - 1;
				continue;
			}
			i++;
		}
		free(pl);
	}
	if (!rc)
		bw_finish(b);
	return rc;
}

static void put_time(struct sb *s, const struct tinfo *t)
{
	sb_s(s, "{\"Start Timestamp(us)\": ");
	sb_pn(s, t->start);
	sb_s(s, ", \"Elapse Time(ms)\": ");
	sb_pn(s, t->elapse);
	sb_s(s, ", \"Transit Time(ms)\": ");
	sb_pn(s, t->transit);
	sb_s(s, ", \"Wait Time(ms)\": ");
	sb_pn(s, t->wait);
	sb_s(s, ", \"Synchronization Time(ms)\": ");
	sb_pn(s, t->sync);
	sb_s(s, ", \"Idle Time(ms)\": ");
	sb_pn(s, t->idle);
	sb_s(s, ", \"Wait Time Ratio\": ");
	sb_pn(s, t->wratio);
	sb_s(s, ", \"Synchronization Time Ratio\": ");
	sb_pn(s, t->sratio);
	sb_s(s, "}");
}

static void put_cinfo(struct sb *s, const char *key, const struct cinfo *c)
{
	sb_str(s, key);
	sb_s(s, ": {\"Communication Time Info\": ");
	put_time(s, &c->t);
	sb_s(s, ", \"Communication Bandwidth Info\": {");
	for (int k = 0; k < N_TR; k++) {
		const struct bw *b = &c->b[k];

		if (k)
			sb_s(s, ", ");
		sb_str(s, tr_name[k]);
		sb_s(s, ": {\"Transit Size(MB)\": ");
		sb_pn(s, b->size);
		sb_s(s, ", \"Transit Time(ms)\": ");
		sb_pn(s, b->time);
		sb_s(s, ", \"Bandwidth(GB/s)\": ");
		sb_pn(s, b->bw);
		sb_s(s, ", \"Large Packet Ratio\": ");
		sb_pn(s, b->lpr);
		sb_s(s, ", \"Size Distribution\": {");
		for (size_t i = 0; i < b->nd; i++) {
			if (i)
				sb_s(s, ", ");
			sb_s(s, "\"");
			sb_repr(s, b->d[i].size);
			sb_s(s, "\": [");
			sb_i64(s, b->d[i].count);
			sb_s(s, ", ");
			sb_pn(s, b->d[i].dur);
			sb_s(s, "]");
		}
		sb_s(s, "}}");
	}
	sb_s(s, "}}");
}

/* CommunicationParser.combine for one op */
static int total_add(struct cinfo *tot, const struct cinfo *c)
{
	int rc = 0;

	pn_add(&tot->t.elapse, c->t.elapse);
	pn_add(&tot->t.transit, c->t.transit);
	pn_add(&tot->t.wait, c->t.wait);
	pn_add(&tot->t.sync, c->t.sync);
	pn_add(&tot->t.idle, c->t.idle);
	for (int k = 0; k < N_TR && !rc; k++) {
		pn_add(&tot->b[k].size, c->b[k].size);
		pn_add(&tot->b[k].time, c->b[k].time);
		for (size_t i = 0; k != SDMA && i < c->b[k].nd && !rc; i++)
			rc = dist_add(&tot->b[k], c->b[k].d[i].size, c->b[k].d[i].count,
				      c->b[k].d[i].dur);
	}
	return rc;
}

static void total_finish(struct cinfo *tot)
{
	ratios(&tot->t);
	for (int k = 0; k < N_TR; k++)
		if (k == SDMA)
			bw_rate(&tot->b[k]);
		else
			bw_analyze(&tot->b[k], k);
}

static int communication_json(const struct ops *o, struct sb *s)
{
	struct cinfo tot;
	int rc = 0;

	memset(&tot, 0, sizeof(tot));
	sb_s(s, "{");
	for (size_t i = 0; i < o->n && !rc; i++) {
		struct cinfo c;

		memset(&c, 0, sizeof(c));
		rc = time_info(o->op[i].ev, o->op[i].n, &c.t);
		if (!rc)
			rc = bw_info(o->op[i].ev, o->op[i].n, c.b);
		if (!rc)
			rc = total_add(&tot, &c);
		if (!rc) {
			put_cinfo(s, o->op[i].key, &c);
			sb_s(s, ", ");
		}
		cinfo_free(&c);
	}
	if (!rc) {
		total_finish(&tot);
		put_cinfo(s, TOTAL, &tot);
		sb_s(s, "}");
	}
	cinfo_free(&tot);
	return rc;
}

/* ---- communication_matrix.json ---- */

struct link {
	char key[48];
	int type;
	struct pn size, time;
	long long large, packets;
};

struct links {
	struct link *l;
	size_t n, cap;
};

static struct link *link_get(struct links *ls, const char *key)
{
	for (size_t i = 0; i < ls->n; i++)
		if (!strcmp(ls->l[i].key, key))
			return &ls->l[i];
	if (npa_grow((void **)&ls->l, &ls->cap, ls->n, sizeof(*ls->l), 8))
		return NULL;
	memset(&ls->l[ls->n], 0, sizeof(ls->l[0]));
	snprintf(ls->l[ls->n].key, sizeof(ls->l[0].key), "%s", key);
	return &ls->l[ls->n++];
}

static void link_key(const struct ev *e, char *key, size_t len)
{
	long long lr = e->t->h->local_rank, rr = e->t->h->remote_rank;

	snprintf(key, len, "%lld-%lld", lr, rr == NO_RANK ? lr : rr);
}

/* convert_to_enum: HCCS 0, PCIE 1, RDMA 2, LOCAL 3, SIO 4, else -1 */
static int tr_enum(const char *s)
{
	static const char *const n[] = { "HCCS", "PCIE", "RDMA", "LOCAL", "SIO" };

	if (!strcmp(s, "HCCS_SW"))
		return 0;
	for (int k = 0; k < 5; k++)
		if (!strcmp(s, n[k]))
			return k;
	return -1;
}

static double thr_of(const char *s)
{
	int k = tr_index(s);

	return k >= 0 ? tr_thr[k] : 0;
}

static int link_add(struct links *ls, const struct ev *e, const char *type, double mb, double ms)
{
	char key[48];
	struct link *l;

	link_key(e, key, sizeof(key));
	l = link_get(ls, key);
	if (!l)
		return -ENOMEM;
	l->type = tr_enum(type);
	pn_add(&l->size, pf(mb));
	pn_add(&l->time, pf(ms));
	l->packets++;
	if (mb > thr_of(type))
		l->large++;
	return 0;
}

static int matrix_op(struct ev **ev, size_t n, struct links *ls)
{
	size_t jump = rdma_ops(ev[0]);
	int rc = 0;

	for (size_t p = 0; p < n && !rc; p++) {
		struct ev **pl;
		size_t np = 0, i = 0;
		bool seen = false;

		for (size_t k = 0; k < p && !seen; k++)
			seen = ev[k]->t->h->plane == ev[p]->t->h->plane;
		if (seen)
			continue;
		pl = malloc((n - p) * sizeof(*pl));
		if (!pl)
			return -ENOMEM;
		for (size_t k = p; k < n; k++)
			if (ev[k]->t->h->plane == ev[p]->t->h->plane)
				pl[np++] = ev[k];
		while (i < np && !rc) {
			const struct ev *e = pl[i];

			if (e->t->h->local_rank == NO_RANK) {
				i++;
				continue;
			}
			if (!strcmp(e->transport, "SDMA") && is_sdma_item(e)) {
				const char *type = !strcmp(e->link, "ON_CHIP")	 ? "LOCAL"
						   : !strcmp(e->link, "HCCS_SW") ? "HCCS"
										 : e->link;

				rc = link_add(ls, e, type, ev_size(e) / 1e6, e->t->dur / 1e6);
			}
			if (!rc && is_payload(e)) {
				size_t cnt = payloads(pl, np, i);
				double ms, mb;

				if (!payload_info(pl, np, i, cnt, jump, &ms, &mb)) {
					i += cnt;
					continue;
				}
				rc = link_add(ls, e, e->transport, mb, ms);
				i += jump + cnt - 1;
				continue;
			}
			i++;
		}
		free(pl);
	}
	return rc;
}

static void put_links(struct sb *s, const char *key, const struct links *ls)
{
	static const char *const n[] = { "\"HCCS\"", "\"PCIE\"", "\"RDMA\"", "\"LOCAL\"",
					 "\"SIO\"" };

	sb_str(s, key);
	sb_s(s, ": {");
	for (size_t i = 0; i < ls->n; i++) {
		const struct link *l = &ls->l[i];

		if (i)
			sb_s(s, ", ");
		sb_str(s, l->key);
		sb_s(s, ": {\"Transport Type\": ");
		sb_s(s, l->type >= 0 && l->type < 5 ? n[l->type] : "null");
		sb_s(s, ", \"Transit Size(MB)\": ");
		sb_pn(s, l->size);
		sb_s(s, ", \"Transit Time(ms)\": ");
		sb_pn(s, l->time);
		sb_s(s, ", \"Bandwidth(GB/s)\": ");
		if (l->time.v != 0)
			sb_repr(s, npa_py_round(l->size.v / l->time.v, 4));
		else
			sb_s(s, "0");
		sb_s(s, "}");
	}
	sb_s(s, "}");
}

static int matrix_json(const struct ops *o, struct sb *s)
{
	struct links tot = { 0 };
	int rc = 0;

	sb_s(s, "{");
	for (size_t i = 0; i < o->n && !rc; i++) {
		struct links ls = { 0 };

		rc = matrix_op(o->op[i].ev, o->op[i].n, &ls);
		for (size_t k = 0; k < ls.n && !rc; k++) {
			struct link *t = link_get(&tot, ls.l[k].key);

			if (!t) {
				rc = -ENOMEM;
				break;
			}
			t->type = ls.l[k].type;
			pn_add(&t->size, ls.l[k].size);
			pn_add(&t->time, ls.l[k].time);
			t->large += ls.l[k].large;
			t->packets += ls.l[k].packets;
		}
		if (!rc) {
			put_links(s, o->op[i].key, &ls);
			sb_s(s, ", ");
		}
		free(ls.l);
	}
	if (!rc) {
		put_links(s, TOTAL, &tot);
		sb_s(s, "}");
	}
	free(tot.l);
	return rc;
}

/* ---- gathering and writing ---- */

static int cmp_dev_desc(const void *a, const void *b)
{
	const struct npa_dev *x = *(const struct npa_dev *const *)a,
			     *y = *(const struct npa_dev *const *)b;
	char nx[32], ny[32];

	snprintf(nx, sizeof(nx), NPF_RAW_DEVICE_DIR, x->cfg.id);
	snprintf(ny, sizeof(ny), NPF_RAW_DEVICE_DIR, y->cfg.id);
	return -strcmp(nx, ny);
}

/*
 * The events of @d after the collection start into @ev, grouped by op
 * into @dev (all of them, in order).
 */
static int dev_events(const struct npa_dev *d, struct ev *ev, size_t *n, struct ops *dev)
{
	double begin = npa_raw_begin_ns(&d->cfg);
	size_t hint = 0;

	*n = 0;
	for (size_t i = 0; i < d->comm.n; i++) {
		const struct npa_comm_task *t = &d->comm.t[i];
		struct ev *e = &ev[*n];
		char key[4200], b[32];
		struct op *p;

		if (t->start < begin)
			continue;
		e->t = t;
		e->d = d;
		snprintf(e->transport, sizeof(e->transport), "%s",
			 npa_hccl_transport(t->h->transport, b, sizeof(b)));
		snprintf(e->link, sizeof(e->link), "%s",
			 npa_hccl_link_type(t->h->link_type, b, sizeof(b)));
		snprintf(e->rdma, sizeof(e->rdma), "%s",
			 npa_hccl_rdma_type(t->h->rdma, b, sizeof(b)));
		if (t->have_group)
			snprintf(key, sizeof(key), "%s@%llu", t->name,
				 (unsigned long long)t->group);
		else
			snprintf(key, sizeof(key), "%s@N/A", t->name);
		(*n)++;
		p = op_get(dev, key, &hint);
		if (!p || op_add(p, e))
			return -ENOMEM;
	}
	return 0;
}

static int write_file(struct npa_export *x, const char *dir, const char *name, const struct sb *s)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 80];
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		e = errno;
	else if (fwrite(s->p, 1, s->n, f) != s->n)
		e = errno ? errno : EIO;
	if (f && fclose(f) && !e)
		e = errno;
	if (!e && rename(tmp, path))
		e = errno;
	if (e) {
		unlink(tmp);
		return npx_set_error(x->o.err, -e, "%s: %s", path, strerror(e));
	}
	return 0;
}

int npa_comm_analyze(struct npa_export *x)
{
	const struct npa_dev *devs[NPA_MAX_DEVICES];
	struct ev *ev[NPA_MAX_DEVICES] = { 0 };
	struct ops comm = { 0 }, matrix = { 0 };
	struct sb sc = { 0 }, sm = { 0 };
	char dir[PATH_MAX];
	unsigned int nd = 0;
	int rc = 0;

	for (unsigned int i = 0; i < x->ndev; i++)
		if (x->dev[i].comm.n)
			devs[nd++] = &x->dev[i];
	if (!nd)
		return 0;
	npx_qsort(devs, nd, sizeof(devs[0]), cmp_dev_desc);
	for (unsigned int k = 0; k < nd && !rc; k++) {
		struct ops dev = { 0 };
		size_t n = 0;

		ev[k] = malloc(devs[k]->comm.n * sizeof(*ev[k]));
		if (!ev[k]) {
			rc = -ENOMEM;
			break;
		}
		rc = dev_events(devs[k], ev[k], &n, &dev);
		/* the communication rule: an op's first iteration, the last device's */
		for (size_t i = 0; !rc && i < dev.n; i++) {
			struct op *d = &dev.op[i];
			size_t hint = 0;
			struct op *c = op_get(&comm, d->key, &hint), *m;

			if (!c) {
				rc = -ENOMEM;
				break;
			}
			c->n = 0;
			for (size_t j = 0; !rc && j < d->n; j++)
				if (d->ev[j]->t->iter == d->ev[0]->t->iter)
					rc = op_add(c, d->ev[j]);
			m = rc ? NULL : op_get(&matrix, d->key, &hint);
			if (!rc && !m)
				rc = -ENOMEM;
			for (size_t j = 0; !rc && j < d->n; j++)
				rc = op_add(m, d->ev[j]);
		}
		ops_free(&dev);
	}
	if (!rc && comm.n) {
		rc = communication_json(&comm, &sc);
		if (rc == -1) {
			npa_warn(&x->w,
				 "a collective has no master task: no analyze/communication.json,"
				 " as msprof analyze writes none");
			sc.n = 0;
			rc = 0;
		}
		if (!rc)
			rc = matrix_json(&matrix, &sm);
	}
	if (!rc && (sc.oom || sm.oom))
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		rc = npx_set_error(x->o.err, rc, "out of memory");
	snprintf(dir, sizeof(dir), "%s/analyze", x->prof);
	if (!rc && (sc.n || sm.n) && mkdir(dir, 0755) && errno != EEXIST)
		rc = npx_set_error(x->o.err, -errno, "%s: %s", dir, strerror(errno));
	if (!rc && sc.n)
		rc = write_file(x, dir, "communication.json", &sc);
	if (!rc && sm.n)
		rc = write_file(x, dir, "communication_matrix.json", &sm);
	free(sc.p);
	free(sm.p);
	ops_free(&comm);
	ops_free(&matrix);
	for (unsigned int k = 0; k < nd; k++)
		free(ev[k]);
	return rc;
}
