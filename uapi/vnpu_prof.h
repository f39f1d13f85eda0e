/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: profiling sessions and the record ring, user API.
 *
 * A profiling session on a device is started by VNPU_IOC_PROF_START with a
 * level (L0/L1/L2) and an AI Core metric group, and stopped by
 * VNPU_IOC_PROF_STOP or by closing the file that started it. While it runs
 * the device writes its own records (uapi/vnpu_ascend.h) into rings, one
 * per channel (enum vnpu_channel), that the starting file maps:
 *
 *   offset 0              control page    read-only   struct vnpu_ring_ctrl,
 *                                                     the channel descriptors
 *   offset PAGE_SIZE      consumer page   read-write  a consumer_pos per channel
 *   offset data_offset    channel 0's data, data_size bytes, then the same
 *                         pages again; then channel 1's, and so on
 *
 * Each channel's data pages are mapped twice, back to back (as the BPF
 * ring buffer does), so a run of records that wraps around the end of the
 * ring is contiguous in memory: neither side has wrap-around code. Map the
 * whole ring read-only (vnpu_prof_start.mmap_size bytes at offset 0) and
 * the consumer page again read-write (PAGE_SIZE bytes at offset PAGE_SIZE);
 * any other writable mapping is refused, as are mprotect() to writable and
 * mremap() growth. Find each channel through its descriptor (struct
 * vnpu_ring_chan), not by assuming this layout: it may grow.
 *
 * Barrier contract, per channel (the same as perf's and the BPF ring
 * buffer's):
 *
 *   kernel (producer)                     user (consumer)
 *   cons = load_acquire(consumer_pos)     prod = load_acquire(producer_pos)
 *   if room: write record(s)              read records [cons, prod)
 *   store_release(producer_pos, new)      store_release(consumer_pos, new)
 *
 * Positions are free-running byte counters (never wrapped), multiples of
 * the channel's record size; the offset of a position in the channel's
 * data is pos & (data_size - 1). The kernel never trusts a consumer_pos: a
 * value behind the last one it saw or ahead of producer_pos counts as no
 * progress, and can neither corrupt memory nor make the kernel overwrite
 * records it has not seen consumed.
 *
 * Loss: records that do not fit are dropped and counted in the channel's
 * lost (a task's start and end log go in one reservation, so both are
 * lost or neither), so produced == consumed + lost holds exactly for
 * each channel; the ACSQ log's 4-bit counter shows where. ctrl->produced
 * and ctrl->lost are the totals over the channels.
 *
 * Wakeups: poll()/epoll report EPOLLIN when at least wakeup_bytes are
 * unread in one channel, and EPOLLIN | EPOLLHUP once the session has
 * stopped (drain what is left, then unmap).
 */
#ifndef _UAPI_VNPU_PROF_H
#define _UAPI_VNPU_PROF_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/** enum vnpu_prof_level - what a session collects (the TF adapter's levels) */
enum vnpu_prof_level {
	VNPU_PROF_L0 = 0,	/* task start/end logs only */
	VNPU_PROF_L1 = 1,	/* + AI Core PMU counters */
	VNPU_PROF_L2 = 2,	/* + the AI CPU's records */
	VNPU_PROF_LEVEL_COUNT
};

#define VNPU_PMU_EVENTS 8		/* counters per core in the event arrays */
/* a v6 product (chip 15) has 10: the last two are in the *_events_hi arrays */
#define VNPU_PMU_EVENTS_HI 2
#define VNPU_PMU_EVENTS_ALL (VNPU_PMU_EVENTS + VNPU_PMU_EVENTS_HI)

/* struct vnpu_prof_start.flags */
#define VNPU_PROF_F_METRIC_GROUP _BITUL(0) /* @metric_group is given */
/* required: the device's own records, one ring per channel (the only layout) */
#define VNPU_PROF_F_CHANNELS	_BITUL(1)
#define VNPU_PROF_F_ALL		(VNPU_PROF_F_METRIC_GROUP | VNPU_PROF_F_CHANNELS)

/**
 * enum vnpu_channel - the channels of a session: each
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
 * @flags: in: VNPU_PROF_F_*; VNPU_PROF_F_CHANNELS is required (-EINVAL
 *         without it: the single ring of vnpu records of uapi 0.8 and
 *         before is gone).
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
 *              out: the pages in force: the pages of the ACSQ and of the
 *              PMU channel each; the TS_TRACK channel gets ring_pages /
 *              256, the AICPU channel ring_pages / 8 (at least one page
 *              each).
 * @wakeup_bytes: in: poll() wakes when this many bytes are unread in any
 *                one channel (capped at what that channel can hold), 8 ..
 *                ring_pages * page size; 0 for half of ring_pages.
 * @session_id: out: increases with every session on the module.
 * @n_events: out: PMU events programmed per core (0 at L0), at most
 *            VNPU_PMU_EVENTS_ALL: the 9th and 10th are in the *_hi arrays.
 * @aic_events: out: the event ids of the AI Core side (AIC), in counter order.
 * @aiv_events: out: the event ids of the AI Vector Core side.
 * @mmap_size: out: bytes to map at offset 0.
 * @aic_events_hi: out: the AIC side's 9th and 10th event ids (uapi 0.11;
 *                 reserved before).
 * @aiv_events_hi: out: the AIV side's.
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
	__u32 aic_events_hi[VNPU_PMU_EVENTS_HI];
	__u32 aiv_events_hi[VNPU_PMU_EVENTS_HI];
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
 * @produced: out: records the device produced (written + lost), over
 *            every channel.
 * @lost: out: records dropped because their channel was full.
 * @written: out: records written.
 * @bytes: out: bytes written, over every channel.
 * @consumed_pos: out: bytes consumed, over every channel (the sum of the
 *                last valid consumer positions the kernel saw).
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
#define VNPU_RING_VERSION 5

/**
 * struct vnpu_ring_ctrl - the control page (offset 0, read-only)
 * @magic: VNPU_RING_MAGIC.
 * @version: VNPU_RING_VERSION; readers accept any version with the same
 *           @compat_version.
 * @compat_version: 2 (1 was the single ring of vnpu records, gone).
 * @hdr_size: bytes of this structure the kernel fills.
 * @page_size: the kernel's page size.
 * @reserved3: zero.
 * @cons_offset: offset of the consumer page in the mapping.
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
 * @mono_base_ns: CLOCK_MONOTONIC at device time 0, as it was when the
 *                session started (device time runs on CLOCK_MONOTONIC_RAW,
 *                which NTP does not slew: use @raw_base_ns from version 4).
 * @start_ticks: device time when the session started.
 * @start_mono_ns: CLOCK_MONOTONIC when the session started.
 * @stopped: non-zero once the session has stopped (no record follows).
 * @reserved0: zero.
 * @n_channels: VNPU_CH_COUNT.
 * @chan_offset: VNPU_RING_CHAN_OFFSET: where the n_channels struct
 *               vnpu_ring_chan are in this page.
 * @produced: records produced (written + lost) over the channels, running
 *            total.
 * @lost: records dropped, running total.
 * @written: records written, running total.
 * @raw_base_ns: (version 4) CLOCK_MONOTONIC_RAW at device time 0:
 *               raw_ns = raw_base_ns + ticks * 10^6 / sys_cnt_freq_khz
 *               (vnpu_info.time_base_raw_ns).
 * @start_raw_ns: (version 4) CLOCK_MONOTONIC_RAW at @start_ticks, exactly
 *                (on the tick grid): the host instant of the session's
 *                start, as host_start.log publishes it.
 * @jitter_seed: (version 4) the seed the session's task durations were
 *               drawn with (module parameter seed); 0: no jitter.
 * @jitter_permille: (version 4) the jitter's standard deviation, permille of
 *                   a task's duration; 0 when @jitter_seed is.
 * @jitter_dist: (version 4) enum vnpu_jitter_dist of the draws.
 * @aic_events_hi: (version 5) the AIC side's 9th and 10th event ids, when
 *                 @n_events is over VNPU_PMU_EVENTS (a v6 product).
 * @aiv_events_hi: (version 5) the AIV side's.
 * @reserved: zero; room to grow.
 * @reserved4: zero.
 */
struct vnpu_ring_ctrl {
	__u64 magic;
	__u32 version;
	__u32 compat_version;
	__u32 hdr_size;
	__u32 page_size;
	__u64 reserved3[2];
	__u64 cons_offset;
	__u64 reserved4;
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
	__u64 raw_base_ns;
	__u64 start_raw_ns;
	__u64 jitter_seed;
	__u32 jitter_permille;
	__u32 jitter_dist;
	__u32 aic_events_hi[VNPU_PMU_EVENTS_HI];
	__u32 aiv_events_hi[VNPU_PMU_EVENTS_HI];
	__u64 reserved[21];
};

/**
 * enum vnpu_jitter_dist - the distribution of task-duration jitter
 * @VNPU_JITTER_NONE: no jitter (seed 0).
 * @VNPU_JITTER_IRWIN_HALL_4: the sum of four uniform draws, centred and
 *                            scaled to the standard deviation: bell-shaped,
 *                            bounded at +-2 sqrt(3) sigma.
 */
enum vnpu_jitter_dist {
	VNPU_JITTER_NONE = 0,
	VNPU_JITTER_IRWIN_HALL_4 = 1,
};

/**
 * struct vnpu_ring_chan - one channel of a session, in the control page
 * at chan_offset + 64 * channel (read-only); the ring protocol of each is
 * the one above, with its own producer_pos here and its own consumer_pos
 * (a __u64) at VNPU_RING_CHAN_CONS_OFFSET(channel) in the consumer page.
 * A position is always a multiple of @rec_size from the start, so
 * [consumer_pos, producer_pos) is whole records; a record may cross the
 * end of the data area (@data_size need not be a multiple of @rec_size),
 * and the data is mapped twice, so the run is contiguous all the same. A record that does not fit
 * is dropped and counted in @lost: produced == consumed + lost, consumed =
 * bytes / rec_size; the ACSQ log's counter (bits 6-9) shows where.
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

#endif /* _UAPI_VNPU_PROF_H */
