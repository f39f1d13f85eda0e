/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: profiling sessions and the record ring, user API.
 *
 * A profiling session on a device is started by VNPU_IOC_PROF_START with a
 * level (L0/L1/L2) and an AI Core metric group, and stopped by
 * VNPU_IOC_PROF_STOP or by closing the file that started it. While it runs
 * the device writes records into a ring that the starting file maps:
 *
 *   offset 0                  control page     read-only   struct vnpu_ring_ctrl
 *   offset PAGE_SIZE          consumer page    read-write  struct vnpu_ring_cons
 *   offset 2 * PAGE_SIZE      data, data_size bytes, read-only
 *   offset 2 * PAGE_SIZE + data_size   the same data pages again
 *
 * The data pages are mapped twice, back to back (as the BPF ring buffer
 * does), so a record that wraps around the end of the ring is contiguous
 * in memory: neither side has wrap-around code. Map the whole ring
 * read-only (vnpu_prof_start.mmap_size bytes at offset 0) and the consumer
 * page again read-write (PAGE_SIZE bytes at offset PAGE_SIZE); any other
 * writable mapping is refused, as are mprotect() to writable and mremap()
 * growth. Find fields through the offsets in the control page, not by
 * assuming this layout: it may grow.
 *
 * Barrier contract (the same as perf's and the BPF ring buffer's):
 *
 *   kernel (producer)                     user (consumer)
 *   cons = load_acquire(consumer_pos)     prod = load_acquire(producer_pos)
 *   if room: write record(s)              read records [cons, prod)
 *   store_release(producer_pos, new)      store_release(consumer_pos, new)
 *
 * Positions are free-running byte counters (never wrapped); the offset of
 * a position in the data area is pos & (data_size - 1). The kernel never
 * trusts consumer_pos: a value behind the last one it saw or ahead of
 * producer_pos counts as no progress, and can neither corrupt memory nor
 * make the kernel overwrite records it has not seen consumed.
 *
 * Loss: a record that does not fit is dropped and counted. Before the next
 * record that fits, the kernel writes a VNPU_REC_LOST record carrying the
 * number dropped since the last one (room for it is always kept), so
 * produced == consumed + lost holds exactly for a reader that counts data
 * records and adds up LOST counts. ctrl->lost and ctrl->produced are the
 * running totals.
 *
 * Wakeups: poll()/epoll report EPOLLIN when at least wakeup_bytes are
 * unread, and EPOLLIN | EPOLLHUP once the session has stopped (drain what
 * is left, then unmap).
 */
#ifndef _UAPI_VNPU_PROF_H
#define _UAPI_VNPU_PROF_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/** enum vnpu_prof_level - what a session collects (the TF adapter's levels) */
enum vnpu_prof_level {
	VNPU_PROF_L0 = 0,	/* task start/end only */
	VNPU_PROF_L1 = 1,	/* + op info, AI Core PMU counters, communication */
	VNPU_PROF_L2 = 2,	/* + runtime (ioctl) records, AI CPU detail */
	VNPU_PROF_LEVEL_COUNT
};

#define VNPU_PMU_EVENTS 8		/* programmable counters per core */

/* struct vnpu_prof_start.flags */
#define VNPU_PROF_F_METRIC_GROUP _BITUL(0) /* @metric_group is given */
#define VNPU_PROF_F_CHANNELS	_BITUL(1) /* the device's own records, one ring per channel */
#define VNPU_PROF_F_ALL		(VNPU_PROF_F_METRIC_GROUP | VNPU_PROF_F_CHANNELS)

/**
 * enum vnpu_channel - the channels of a VNPU_PROF_F_CHANNELS session: each
 * is a ring of fixed-size records in the device's own format
 * (uapi/vnpu_ascend.h), written to the raw file msprof reads
 * @VNPU_CH_ACSQ: struct vnpu_acsq_log, every task's start and end (L0 on):
 *                stars_soc.data.N.slice_K; on a device without
 *                VNPU_CAP_STARS struct vnpu_hwts_log: hwts.data.N.slice_K.
 * @VNPU_CH_PMU: struct vnpu_ffts_pmu, the counters of each AI Core and AI
 *               Vector Core task (L1 on): ffts_profile.data.N.slice_K; on a
 *               device without VNPU_CAP_STARS struct vnpu_aic_pmu:
 *               aicore.data.N.slice_K.
 * @VNPU_CH_TS_TRACK: struct vnpu_ts_flip, a stream's 16-bit task ids
 *                    wrapped (every level): ts_track.data.N.slice_K.
 * @VNPU_CH_AICPU: struct vnpu_aicpu_node, the AI CPU's account of each of
 *                 its tasks (L2): aicpu.data.N.slice_K.
 * @VNPU_CH_COUNT: channels.
 */
enum vnpu_channel {
	VNPU_CH_ACSQ = 0,
	VNPU_CH_PMU = 1,
	VNPU_CH_TS_TRACK = 2,
	VNPU_CH_AICPU = 3,
	VNPU_CH_COUNT
};

/* The channel descriptors start here in the control page, 64 bytes each. */
#define VNPU_RING_CHAN_OFFSET 1024
/* A channel's consumer position in the consumer page, each on its own line. */
#define VNPU_RING_CHAN_CONS_OFFSET(ch) (64 * ((ch) + 1))

/**
 * struct vnpu_prof_start - VNPU_IOC_PROF_START
 * @size: in: sizeof(struct vnpu_prof_start).
 * @flags: in: VNPU_PROF_F_*.
 * @level: in: enum vnpu_prof_level.
 * @metric_group: in, with VNPU_PROF_F_METRIC_GROUP: enum vnpu_metric_group,
 *                one the product supports; rejected at L0 (-EINVAL).
 *                Without the flag: none at L0; at L1/L2 the product's
 *                default, as msprof's collector's (PipeUtilization;
 *                PipelineExecuteUtilization on chip 7, the 200I/500 A2);
 *                the value passed is ignored.
 *                out: the group in force (VNPU_METRIC_NONE at L0).
 * @ring_pages: in: data pages, a power of two, at most
 *              vnpu_info.ring_max_bytes; 0 for vnpu_info.ring_default_bytes.
 *              out: the pages in force. With VNPU_PROF_F_CHANNELS:
 *              the pages of the ACSQ and of the PMU channel each; the
 *              TS_TRACK channel gets ring_pages / 256, the AICPU channel
 *              ring_pages / 8 (at least one page each).
 * @wakeup_bytes: in: poll() wakes when this many bytes are unread, 8 ..
 *                data size; 0 for half the ring. With channels: unread in
 *                any one channel, capped at what that channel can hold.
 * @session_id: out: increases with every session on the module.
 * @n_events: out: PMU events programmed per core (0 at L0).
 * @aic_events: out: the event ids of the AI Core side (AIC), in counter order.
 * @aiv_events: out: the event ids of the AI Vector Core side.
 * @mmap_size: out: bytes to map at offset 0.
 * @reserved: must be zero.
 *
 * Outputs are ignored on input: the structure an earlier START returned
 * starts the same session again.
 */
struct vnpu_prof_start {
	__u32 size;
	__u32 flags;
	__u32 level;
	__u32 metric_group;
	__u32 ring_pages;
	__u32 wakeup_bytes;
	__u32 session_id;
	__u32 n_events;
	__u32 aic_events[VNPU_PMU_EVENTS];
	__u32 aiv_events[VNPU_PMU_EVENTS];
	__u64 mmap_size;
	__u64 reserved[2];
};

#define VNPU_PROF_START_SIZE_VER0 120

/**
 * struct vnpu_prof_stop - VNPU_IOC_PROF_STOP
 * @size: in: sizeof(struct vnpu_prof_stop).
 * @flags: in: must be zero.
 * @reserved: must be zero.
 */
struct vnpu_prof_stop {
	__u32 size;
	__u32 flags;
	__u64 reserved;
};

#define VNPU_PROF_STOP_SIZE_VER0 16

/**
 * struct vnpu_prof_stats - VNPU_IOC_PROF_STATS: the counters of the
 * calling file's own session (running or stopped), else of the device's
 * running session, else zeros
 * @size: in: sizeof(struct vnpu_prof_stats).
 * @flags: in: must be zero.
 * @session_id: out: the session, 0 if there was none.
 * @active: out: 1 while the session runs.
 * @produced: out: data records the device produced (written + lost).
 * @lost: out: data records dropped because the ring was full.
 * @written: out: records written, LOST records included.
 * @bytes: out: bytes written (producer position).
 * @consumed_pos: out: the last valid consumer position the kernel saw.
 * @reserved: must be zero.
 */
struct vnpu_prof_stats {
	__u32 size;
	__u32 flags;
	__u32 session_id;
	__u32 active;
	__u64 produced;
	__u64 lost;
	__u64 written;
	__u64 bytes;
	__u64 consumed_pos;
	__u64 reserved[2];
};

#define VNPU_PROF_STATS_SIZE_VER0 72

#define VNPU_IOC_NR_PROF_START 0x10
#define VNPU_IOC_NR_PROF_STOP 0x11
#define VNPU_IOC_NR_PROF_STATS 0x12

#ifndef VNPU_IOC_MAGIC
#define VNPU_IOC_MAGIC 0xB8 /* as in vnpu.h */
#endif
#define VNPU_IOC_PROF_START \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_PROF_START, struct vnpu_prof_start)
#define VNPU_IOC_PROF_STOP \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_PROF_STOP, struct vnpu_prof_stop)
#define VNPU_IOC_PROF_STATS \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_PROF_STATS, struct vnpu_prof_stats)

/* ---- the mapping ---- */

#define VNPU_RING_MAGIC 0x564e5055524e4731ULL	/* "VNPURNG1" */
#define VNPU_RING_VERSION 2

/**
 * struct vnpu_ring_ctrl - the control page (offset 0, read-only)
 * @magic: VNPU_RING_MAGIC.
 * @version: VNPU_RING_VERSION; readers accept any version with the same
 *           @compat_version.
 * @compat_version: 1.
 * @hdr_size: bytes of this structure the kernel fills.
 * @page_size: the kernel's page size.
 * @data_offset: offset of the data area in the mapping.
 * @data_size: bytes of data, a power of two.
 * @cons_offset: offset of struct vnpu_ring_cons in the mapping.
 * @prod_pos_offset: offset of @producer_pos within this page.
 * @session_id: the session (as in struct vnpu_prof_start).
 * @dev_id: the device.
 * @product: enum vnpu_product_id.
 * @level: enum vnpu_prof_level.
 * @metric_group: enum vnpu_metric_group in force, VNPU_METRIC_NONE at L0.
 * @n_events: PMU events per core side.
 * @caps: VNPU_CAP_* of the product.
 * @aic_num: AI Cores (core_num of the AIC-side formulas).
 * @aiv_num: AI Vector Cores.
 * @aic_freq_khz: AI Core clock (freq of the formulas).
 * @sys_cnt_freq_khz: device timestamp rate: ns = ticks * 10^6 / this.
 * @aic_events: event ids of the AIC-side PMU counters, in counter order.
 * @aiv_events: event ids of the AIV side.
 * @mono_base_ns: CLOCK_MONOTONIC at device time 0:
 *                mono_ns = mono_base_ns + ticks * 10^6 / sys_cnt_freq_khz.
 * @start_ticks: device time when the session started.
 * @start_mono_ns: CLOCK_MONOTONIC when the session started.
 * @stopped: non-zero once the session has stopped (no record follows).
 * @reserved0: zero.
 * @n_channels: VNPU_CH_COUNT with VNPU_PROF_F_CHANNELS, else 0 (the
 *              session then has the one ring of vnpu records below).
 * @chan_offset: VNPU_RING_CHAN_OFFSET: where the n_channels struct
 *               vnpu_ring_chan are in this page (0 without channels).
 * @produced: data records produced (written + lost), running total.
 * @lost: data records dropped, running total.
 * @written: records written (LOST included), running total.
 * @reserved: zero; room to grow.
 * @producer_pos: alone on its 64-byte cache line (offset 384): bytes
 *                written, free-running; read with load-acquire.
 * @reserved2: zero, the rest of @producer_pos's cache line.
 */
struct vnpu_ring_ctrl {
	__u64 magic;
	__u32 version;
	__u32 compat_version;
	__u32 hdr_size;
	__u32 page_size;
	__u64 data_offset;
	__u64 data_size;
	__u64 cons_offset;
	__u64 prod_pos_offset;
	__u32 session_id;
	__u32 dev_id;
	__u32 product;
	__u32 level;
	__u32 metric_group;
	__u32 n_events;
	__u32 caps;
	__u32 aic_num;
	__u32 aiv_num;
	__u32 aic_freq_khz;
	__u32 sys_cnt_freq_khz;
	__u32 reserved1;
	__u32 aic_events[VNPU_PMU_EVENTS];
	__u32 aiv_events[VNPU_PMU_EVENTS];
	__u64 mono_base_ns;
	__u64 start_ticks;
	__u64 start_mono_ns;
	__u32 stopped;
	__u32 reserved0;
	__u64 produced;
	__u64 lost;
	__u64 written;
	__u32 n_channels;
	__u32 chan_offset;
	__u64 reserved[19];
	__u64 producer_pos;
	__u64 reserved2[7];
};

/**
 * struct vnpu_ring_chan - one channel of a VNPU_PROF_F_CHANNELS session,
 * in the control page at chan_offset + 64 * channel (read-only); the ring
 * protocol of each is the one above, with its own producer_pos here and
 * its own consumer_pos at VNPU_RING_CHAN_CONS_OFFSET(channel) in the
 * consumer page. Records never straddle: a position is always a multiple
 * of @rec_size from the start, and the data is mapped twice, so
 * [consumer_pos, producer_pos) is whole records, contiguous. A record that
 * does not fit is dropped and counted in @lost (no LOST record in a
 * channel: produced == consumed + lost, consumed = bytes / rec_size); the
 * ACSQ log's counter (bits 6-9) shows where.
 * @type: enum vnpu_channel.
 * @rec_size: bytes of every record.
 * @data_offset: offset of its data in the mapping (mapped twice).
 * @data_size: bytes of data, a power of two.
 * @produced: records produced (written + lost), running total.
 * @lost: records dropped because the channel was full.
 * @producer_pos: bytes written, free-running; read with load-acquire.
 * @reserved: zero.
 */
struct vnpu_ring_chan {
	__u32 type;
	__u32 rec_size;
	__u64 data_offset;
	__u64 data_size;
	__u64 produced;
	__u64 lost;
	__u64 producer_pos;
	__u64 reserved[2];
};

/**
 * struct vnpu_ring_cons - the consumer page (offset page_size, read-write)
 * @consumer_pos: bytes consumed, free-running; store with store-release
 *                after reading the records before it.
 */
struct vnpu_ring_cons {
	__u64 consumer_pos;
};

/* ---- records ---- */

/** enum vnpu_rec_type - record types, and the level that first has each */
enum vnpu_rec_type {
	VNPU_REC_LOST = 1,	  /* any level */
	VNPU_REC_TASK_START = 2,  /* L0 */
	VNPU_REC_TASK_END = 3,	  /* L0 */
	VNPU_REC_OP_INFO = 4,	  /* L1 */
	VNPU_REC_PMU = 5,	  /* L1, AI Core / Vector Core / MIX tasks */
	VNPU_REC_COMM = 6,	  /* L1, COMMUNICATION tasks */
	VNPU_REC_RUNTIME = 7,	  /* L2, one per ioctl call */
	VNPU_REC_AICPU = 8,	  /* L2, AI_CPU tasks */
	VNPU_REC_TYPE_COUNT
};

/**
 * struct vnpu_rec_hdr - the header of every record
 * @type: enum vnpu_rec_type; skip types you do not know.
 * @size: bytes of the record, header included, a multiple of 8.
 * @flags: per type.
 * @seq: 0, 1, 2... over every record written in the session: a gap is a
 *       bug, lost records are reported by VNPU_REC_LOST.
 */
struct vnpu_rec_hdr {
	__u16 type;
	__u16 size;
	__u32 flags;
	__u64 seq;
};

/**
 * struct vnpu_rec_lost - VNPU_REC_LOST
 * @hdr: the header.
 * @lost: data records dropped since the previous LOST record.
 */
struct vnpu_rec_lost {
	struct vnpu_rec_hdr hdr;
	__u64 lost;
};

/**
 * struct vnpu_rec_task - VNPU_REC_TASK_START and VNPU_REC_TASK_END (the
 * HWTS log of a real device)
 * @hdr: the header.
 * @task_id: the task.
 * @stream_id: its stream.
 * @task_type: enum vnpu_task_type.
 * @timestamp: device time, ticks.
 */
struct vnpu_rec_task {
	struct vnpu_rec_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 task_type;
	__u64 timestamp;
};

/**
 * struct vnpu_rec_tensor - one tensor of an op info record; followed by
 * @ndims __u64 dims
 * @dtype: enum vnpu_dtype.
 * @format: enum vnpu_format.
 * @ndims: 0 (scalar) .. 8.
 * @output: 0 for an input, 1 for an output.
 * @reserved: zero.
 */
struct vnpu_rec_tensor {
	__u8 dtype;
	__u8 format;
	__u8 ndims;
	__u8 output;
	__u32 reserved;
};

/* struct vnpu_rec_op_info.op_flags: the task's VNPU_TASK_F_* */

/**
 * struct vnpu_rec_op_info - VNPU_REC_OP_INFO: what the task is; followed
 * by @n_tensors struct vnpu_rec_tensor, each followed by its dims
 * @hdr: the header.
 * @task_id: the task.
 * @stream_id: its stream.
 * @task_type: enum vnpu_task_type.
 * @block_num: blocks.
 * @mix_block_num: blocks of the secondary core type (MIX tasks).
 * @op_flags: VNPU_TASK_F_*.
 * @model_id: from the submission.
 * @n_tensors: inputs and outputs that follow.
 * @reserved: zero.
 * @flops: operations of the task.
 * @bytes: bytes moved.
 * @op_name: NUL-terminated, zero-padded.
 * @op_type: NUL-terminated, zero-padded.
 */
struct vnpu_rec_op_info {
	struct vnpu_rec_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 task_type;
	__u32 block_num;
	__u32 mix_block_num;
	__u32 op_flags;
	__u32 model_id;
	__u32 n_tensors;
	__u32 reserved;
	__u64 flops;
	__u64 bytes;
	char op_name[64];
	char op_type[32];
};

/* struct vnpu_rec_pmu.hdr.flags */
#define VNPU_REC_PMU_F_OVERFLOW _BITUL(0) /* counters saturated: N/A */

/**
 * struct vnpu_rec_pmu - VNPU_REC_PMU: AI Core counters of one task, summed
 * over its blocks; the event of counter i is ctrl->aic_events[i] (or
 * aiv_events[i])
 * @hdr: the header.
 * @task_id: the task.
 * @stream_id: its stream.
 * @reserved: zero.
 * @aic_total_cycles: AIC-side cycles summed over blocks.
 * @aiv_total_cycles: AIV-side cycles summed over blocks.
 * @aic_blocks: AIC-side blocks.
 * @aiv_blocks: AIV-side blocks.
 * @aic_events: AIC-side counters.
 * @aiv_events: AIV-side counters.
 */
struct vnpu_rec_pmu {
	struct vnpu_rec_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 reserved;
	__u64 aic_total_cycles;
	__u64 aiv_total_cycles;
	__u32 aic_blocks;
	__u32 aiv_blocks;
	__u64 aic_events[VNPU_PMU_EVENTS];
	__u64 aiv_events[VNPU_PMU_EVENTS];
};

/**
 * struct vnpu_rec_comm - VNPU_REC_COMM: a collective on this device
 * @hdr: the header.
 * @task_id: the task.
 * @stream_id: its stream.
 * @comm_op: enum vnpu_comm_op.
 * @devices: devices taking part (mask).
 * @tag: the caller's tag.
 * @bytes: message size per device.
 * @start: device time the collective started.
 * @end: device time it ended.
 * @op_name: NUL-terminated, zero-padded.
 */
struct vnpu_rec_comm {
	struct vnpu_rec_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 comm_op;
	__u32 devices;
	__u32 tag;
	__u64 bytes;
	__u64 start;
	__u64 end;
	char op_name[64];
};

/** enum vnpu_rt_api - the runtime calls VNPU_REC_RUNTIME records */
enum vnpu_rt_api {
	VNPU_RT_STREAM_CREATE = 0,
	VNPU_RT_STREAM_DESTROY = 1,
	VNPU_RT_SUBMIT = 2,
	VNPU_RT_SYNC = 3,
	VNPU_RT_API_COUNT
};

/**
 * struct vnpu_rec_runtime - VNPU_REC_RUNTIME: one runtime (ioctl) call
 * @hdr: the header.
 * @api: enum vnpu_rt_api.
 * @tid: the calling thread, as the session's starter names it (its pid
 *       namespace); 0 if the thread is not visible there.
 * @result: 0 or -errno.
 * @count: tasks of a submit, else 0.
 * @start_ns: CLOCK_MONOTONIC when the call entered the driver.
 * @end_ns: CLOCK_MONOTONIC when it returned.
 */
struct vnpu_rec_runtime {
	struct vnpu_rec_hdr hdr;
	__u32 api;
	__u32 tid;
	__s32 result;
	__u32 count;
	__u64 start_ns;
	__u64 end_ns;
};

/**
 * struct vnpu_rec_aicpu - VNPU_REC_AICPU: detail of an AI CPU task
 * @hdr: the header.
 * @task_id: the task.
 * @stream_id: its stream.
 * @reserved: zero.
 * @start: device time it started.
 * @end: device time it ended.
 * @dispatch_ticks: of the duration: dispatch to the AI CPU.
 * @compute_ticks: of the duration: computing.
 * @memcpy_ticks: of the duration: copying data.
 * @op_name: NUL-terminated, zero-padded.
 */
struct vnpu_rec_aicpu {
	struct vnpu_rec_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 reserved;
	__u64 start;
	__u64 end;
	__u64 dispatch_ticks;
	__u64 compute_ticks;
	__u64 memcpy_ticks;
	char op_name[64];
};

#endif /* _UAPI_VNPU_PROF_H */
