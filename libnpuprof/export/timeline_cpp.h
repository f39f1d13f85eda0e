/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export: the writer of msprof_{ts}.json as msprof's C++ path
 * writes it, shared by its files and private to export/:
 * ascend_timeline_cpp.c (the writer's helpers, Ascend Hardware, CANN, AI
 * Core Freq and the file) and ascend_timeline_cpp_comm.c (Communication,
 * Overlap Analysis). Prefix npa_tlc_.
 */
#ifndef NPA_TIMELINE_CPP_H
#define NPA_TIMELINE_CPP_H

#include "export/ascend.h"

#define NPA_TLC_SORT_CANN 7
#define NPA_TLC_SORT_HW 14
#define NPA_TLC_SORT_FREQ 15
#define NPA_TLC_SORT_COMM 16
#define NPA_TLC_SORT_OVERLAP 31
/* a device task without a host task: connection id -1, printed unsigned */
#define NPA_TLC_NO_CONN UINT64_MAX
/* one event's room: five names of 4 KiB, escaped 6 times, and numbers */
#define NPA_TLC_EV_MAX (160u << 10)

/* the file being written, and what every layer reads */
struct npa_tlc {
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

/* a device task as AscendTaskData has it (npa_tlc_hw_task()) */
struct npa_tlc_task {
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

/* ---- the JSON rapidjson's Writer writes (ascend_timeline_cpp.c) ---- */

/* a string, escaped as rapidjson escapes it, in quotes */
char *npa_tlc_str(char *p, const char *s);
/* a "ts": whole ns / 1000 with three decimals, in quotes */
char *npa_tlc_ts(char *p, uint64_t ns);
/* GetFormatPid() */
uint32_t npa_tlc_pid(long pid, uint32_t sort, uint32_t dev);
/* start an event (a comma before all but the first); npa_tlc_end() appends it */
int npa_tlc_begin(struct npa_tlc *w);
void npa_tlc_end(struct npa_tlc *w);
/* the metadata of a process and of a thread */
int npa_tlc_process(struct npa_tlc *w, uint32_t pid, const char *name, const char *labels,
		    uint32_t sort);
int npa_tlc_thread(struct npa_tlc *w, uint32_t pid, int64_t tid, const char *name, int64_t sort);
/* a flow's start (@end false) or end, connection @conn */
int npa_tlc_flow(struct npa_tlc *w, bool end, uint64_t conn, uint32_t pid, int64_t tid,
		 uint64_t ns);
/* the head of an "X" event, up to its args */
char *npa_tlc_x_head(char *p, const char *name, uint32_t pid, int64_t tid, uint64_t ns, double dur);
/* the C++ path's connection id of the host's connection id @conn */
uint64_t npa_tlc_conn(const struct npa_tlc *w, int64_t conn);
/* device task @i as the C++ path keeps it; false for one it drops */
bool npa_tlc_hw_task(const struct npa_tlc *w, const struct npa_dev *d, size_t i, bool shadowed,
		     struct npa_tlc_task *o);

/* ---- the layers of ascend_timeline_cpp_comm.c ---- */

int npa_tlc_communication(struct npa_tlc *w);
int npa_tlc_overlap_dev(struct npa_tlc *w, const struct npa_dev *d);

#endif /* NPA_TIMELINE_CPP_H */
