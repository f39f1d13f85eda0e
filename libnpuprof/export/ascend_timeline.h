/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export: what the files of msprof_{ts}.json share
 * (ascend_timeline.c: the file and its layers; ascend_timeline_hccl.c: the
 * collectives' layer and flows; ascend_timeline_overlap.c: Overlap
 * Analysis).
 */
#ifndef NPA_ASCEND_TIMELINE_H
#define NPA_ASCEND_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/ascend.h"

/*
 * Where an event's text comes from. The events of every task (the CANN
 * calls, the device task, its flow and the Overlap Analysis sections) are
 * formatted when the file is written, from what they describe: a timeline
 * of 1M tasks would otherwise hold 1.3 GB of text until it is sorted.
 * The rest (metadata, counters, collectives) is kept as text.
 */
enum npa_tl_kind {
	NPA_TL_TEXT, /* @ref: where its text is (NPA_TL_CHUNK) */
	NPA_TL_CANN, /* @ref: the host call x->host.api[ref] */
	NPA_TL_HW, /* @ref: the device task d->tasks[ref] */
	NPA_TL_FLOW_S, /* @ref: the task d->tasks[ref]: its HostToDevice flow's start */
	NPA_TL_FLOW_F, /* @ref: the same flow's end */
	NPA_TL_OVERLAP, /* @ref: the section t->sec[ref] */
};

/**
 * struct npa_tl_ev - one event
 * @ts: float(ts), 0 for metadata (they sort first).
 * @ref: per @kind.
 * @tsm: a formatted kind: its "ts" in thousandths (ts strings have three
 *       decimals); NPA_TL_TEXT: the connection id of a CANN call kept as text
 *       (0 for the others, and for the call of id 0, which msprof does not
 *       de-duplicate either).
 * @len: NPA_TL_TEXT: the text's length.
 * @kind: enum npa_tl_kind.
 * @meta: a metadata ("M") event.
 * @dev: the device it belongs to (an index of x->dev).
 */
struct npa_tl_ev {
	double ts;
	uint64_t ref;
	uint64_t tsm;
	uint32_t len;
	uint8_t kind;
	bool meta;
	uint16_t dev;
};

/* an Overlap Analysis section, and the thread it is on */
struct npa_tl_sec {
	double s, e;
	uint32_t list;
};

struct npa_tl_sec_list {
	uint64_t pid;
	uint32_t tid;
	const char *name;
	double offset;
};

#define NPA_TL_SCRATCH (128u << 10) /* one event: three names of 4 KiB, escaped 6 times */
/*
 * The events' text lives in chunks of NPA_TL_CHUNK bytes that never move (an
 * event never spans two): no copy as the timeline grows, and no more than
 * one chunk of slack. tl_ev.ref is chunk * NPA_TL_CHUNK + the offset in it.
 */
#define NPA_TL_CHUNK (8u << 20)

struct npa_tl {
	char *scratch;
	char **chunk;
	size_t n_chunk, cap_chunk, used; /* used: bytes of the last chunk */
	struct npa_tl_ev *ev;
	size_t n, cap_ev;
	uint16_t dev; /* the device being added */
	const struct npa_export *x;
	struct npa_tl_sec *sec;
	size_t n_sec, cap_sec;
	struct npa_tl_sec_list *list;
	size_t n_list, cap_list;
	struct npuprof_error *err;
};

/* add one formatted event; @ts its "ts" (NULL for metadata) */
int npa_tl_add(struct npa_tl *t, const char *text, size_t len, const char *ts, bool meta);
/* a JSON string as json.dumps(ensure_ascii=True) writes it */
char *npa_tl_json_str(char *p, const char *s);
/* msprof's format pid: (pid << 10) | (sort index << 5) | device (31: host) */
uint64_t npa_tl_fmt_pid(long pid, uint32_t sort, uint32_t dev);
/* a metadata event: @sval when set, else @ival */
int npa_tl_meta(struct npa_tl *t, const char *what, uint64_t pid, uint64_t tid, const char *key,
		const char *sval, int64_t ival);
int npa_tl_process_meta(struct npa_tl *t, uint64_t pid, const char *name);
int npa_tl_process_tail(struct npa_tl *t, uint64_t pid, const char *labels, uint32_t sort);
/* host µs of host ns, as a local time string */
char *npa_tl_host_local(char *p, uint64_t ns, double offset);
/* msprof's timeline window */
bool npa_tl_in_window(const char *ts, double dur_us, double begin);

/*
 * The strings msprof prints for a host call: its name's part after "@"
 * (@api), "Mode", "level", "id" and "item_id"; they point into @h or @s
 */
struct npa_tl_api {
	const char *api, *mode, *level, *id, *item;
	char num[32], tname[32];
};

/* the longest @api: a name of hash_dic or type_info_dic */
#define NPA_TL_NAME_MAX 4096

void npa_tl_api_strs(const struct npa_host *h, const struct npa_api *a, struct npa_tl_api *s);

/* ascend_timeline_cpp.c: the C++ path's file, for a folder it reads as a device's */
bool npa_timeline_cpp_ok(const struct npa_export *x);
int npa_timeline_cpp(struct npa_export *x, struct npa_out *o, struct npa_file *f);

/* ascend_timeline_hccl.c */
int npa_tl_communication(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d);
int npa_tl_comm_flow_starts(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
			    uint64_t pid, const size_t *emitted, size_t n_emitted);
int npa_tl_memcpy_ends(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
		       uint64_t pid);

/* ascend_timeline.c: an event formatted when the file is written, at @ts */
int npa_tl_add_ref(struct npa_tl *t, uint8_t kind, uint64_t ref, const char *ts);

/* ascend_timeline_overlap.c: device @d's Overlap Analysis events, and one formatted */
int npa_tl_overlap(struct npa_tl *t, const struct npa_export *x, const struct npa_dev *d,
		   uint32_t sort);
char *npa_tl_fmt_overlap(const struct npa_tl *t, size_t i, const char *ts, char *p);

#endif /* NPA_ASCEND_TIMELINE_H */
