/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export: what the files of msprof_{ts}.json share
 * (ascend_timeline.c: the file and its layers; ascend_timeline_hccl.c: the
 * collectives' layer and flows).
 */
#ifndef ASCEND_TIMELINE_H
#define ASCEND_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "npuprof_internal.h"

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

/* add one formatted event; @ts its "ts" (NULL for metadata) */
int npa_tl_add(struct tl *t, const char *text, size_t len, const char *ts, bool meta,
	       uint64_t conn);
/* a JSON string as json.dumps(ensure_ascii=True) writes it */
char *npa_tl_json_str(char *p, const char *s);
/* msprof's format pid: (pid << 10) | (sort index << 5) | device (31: host) */
uint64_t npa_tl_fmt_pid(long pid, uint32_t sort, uint32_t dev);
/* a metadata event: @sval when set, else @ival */
int npa_tl_meta(struct tl *t, const char *what, uint64_t pid, uint64_t tid, const char *key,
		const char *sval, int64_t ival);
int npa_tl_process_meta(struct tl *t, uint64_t pid, const char *name);
int npa_tl_process_tail(struct tl *t, uint64_t pid, const char *labels, uint32_t sort);
/* host µs of host ns, as a local time string */
char *npa_tl_host_local(char *p, uint64_t ns, double offset);
/* msprof's timeline window */
bool npa_tl_in_window(const char *ts, double dur_us, double begin);

/* ascend_timeline_hccl.c */
int npa_tl_communication(struct tl *t, const struct npa_export *x, const struct npa_dev *d);
int npa_tl_comm_flow_starts(struct tl *t, const struct npa_export *x, const struct npa_dev *d,
			    uint64_t pid, const size_t *emitted, size_t n_emitted);
int npa_tl_memcpy_ends(struct tl *t, const struct npa_export *x, const struct npa_dev *d,
		       uint64_t pid);

#endif /* ASCEND_TIMELINE_H */
