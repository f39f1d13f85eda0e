/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npuprof-top: the structures shared by npuprof_top.bpf.c and npuprof_top.c.
 * Every map is cumulative since the tool attached: the user side prints
 * the difference between two reads, so no event is lost to a reset.
 */
#ifndef NPUPROF_TOP_H
#define NPUPROF_TOP_H

#define OP_TYPE_LEN 32 /* VNPU_OP_TYPE_LEN: the key of the op map */
#define MAX_SLOTS 32 /* log2 histogram: slot i is [2^i, 2^(i+1)) ns */
#define MAX_DEVS 16 /* VNPU_MAX_DEVICES */
#define MAX_OPS 1024 /* op types tracked */
#define MAX_STREAMS 4096

/* The op map's key: the op type, NUL-padded (keys compare all bytes). */
struct op_key {
	char op_type[OP_TYPE_LEN];
};

/* Per op type: tasks ended, their total duration, the duration histogram. */
struct op_stat {
	__u64 count;
	__u64 total_ns;
	__u64 slots[MAX_SLOTS];
};

struct stream_key {
	__u32 dev;
	__u32 stream; /* the device-wide stream id */
};

/* Per stream: tasks submitted and ended, queue depth now and at most. */
struct stream_stat {
	__u64 submitted;
	__u64 done;
	__u32 depth;
	__u32 peak;
};

/*
 * Per device: busy time (the union of its tasks' device time intervals,
 * in ns) and tasks ended. @busy_until is the end (ticks) of the busy time
 * counted so far.
 */
struct dev_stat {
	__u64 busy_ns;
	__u64 busy_until;
	__u64 tasks;
};

/* Indexes of the per-CPU loss counters. */
enum lost_reason {
	LOST_OP_MAP, /* op map full: a task not counted */
	LOST_STREAM_MAP, /* stream map full: a stream not tracked */
	LOST_HIST_SLOT, /* duration beyond the last slot: put in the last */
	LOST_NR,
};

#endif /* NPUPROF_TOP_H */
