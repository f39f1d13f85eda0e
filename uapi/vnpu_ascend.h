/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: the device's own record formats, as an Ascend device writes them
 * and as msprof's parser reads them (Ascend/msprof analysis/, commit
 * 9ba1ac7be; the parser files are named at each record). All
 * little-endian, packed, fixed size: a raw file is whole records back to
 * back. A STARS device (VNPU_CAP_STARS: Atlas A2 = 910B, Atlas A3 =
 * 910_93, chip id 5; Atlas 200I/500 A2, chip id 7) writes
 *
 *   stars_soc.data.N.slice_K     struct vnpu_acsq_log      64 B
 *                                struct vnpu_ffts_log      64 B (mix ops, chip 5)
 *   ffts_profile.data.N.slice_K  struct vnpu_ffts_pmu     128 B
 *                                struct vnpu_ffts_block_pmu 128 B (mix ops, chip 5)
 *
 * and a device of the HWTS generation (no VNPU_CAP_STARS: Atlas training
 * series = 910A, chip id 1; Atlas inference series = 310P, chip id 4)
 * writes, in the same two channels,
 *
 *   hwts.data.N.slice_K          struct vnpu_hwts_log      64 B
 *   aicore.data.N.slice_K        struct vnpu_aic_pmu      128 B
 *
 * and both write
 *
 *   ts_track.data.N.slice_K      struct vnpu_ts_flip       40 B
 *   aicpu.data.N.slice_K         struct vnpu_aicpu_node   256 B
 *
 * Timestamps are system counter ticks (syscnt) at the product's hwts
 * frequency (50 MHz on chip 5). docs/msprof-parser.md has how the parser
 * uses every field; docs/output.md what the device writes into each.
 */
#ifndef _UAPI_VNPU_ASCEND_H
#define _UAPI_VNPU_ASCEND_H

#include <linux/const.h>
#include <linux/types.h>

/* The magic of STARS records (checked by msprof in stars_soc since 2026-06) */
#define VNPU_STARS_MAGIC 0x6BD3

/* Function types: the low 6 bits of the first half-word */
#define VNPU_FUNC_ACSQ_START 0x00 /* 0b000000 */
#define VNPU_FUNC_ACSQ_END 0x01	  /* 0b000001 */
#define VNPU_FUNC_FFTS_LOG_START 0x22 /* 0b100010, FFTS+ subtask log */
#define VNPU_FUNC_FFTS_LOG_END 0x23   /* 0b100011 */
#define VNPU_FUNC_CONTEXT_PMU 0x28 /* 0b101000 */
#define VNPU_FUNC_BLOCK_PMU 0x29   /* 0b101001 */
#define VNPU_FUNC_MASK 0x3f

/* SQE types of an ACSQ log (msprof's SqeType) */
enum vnpu_sqe_type {
	VNPU_SQE_AI_CORE = 0,
	VNPU_SQE_AI_CPU = 1,
	VNPU_SQE_AIV = 2,
	VNPU_SQE_PLACE_HOLDER = 3,
	VNPU_SQE_EVENT_RECORD = 4,
	VNPU_SQE_EVENT_WAIT = 5,
	VNPU_SQE_NOTIFY_RECORD = 6,
	VNPU_SQE_NOTIFY_WAIT = 7,
	VNPU_SQE_WRITE_VALUE = 8,
	VNPU_SQE_SDMA = 11,
};

/**
 * struct vnpu_acsq_log - one ACSQ task log: a task's start or its end
 * (msparser/stars/stars_log_parser.py, profiling_bean/stars/acsq_task.py;
 * struct format "4HQHH11L")
 * @word0: bits 0-5 function type (VNPU_FUNC_ACSQ_START or _END), bits 6-9
 *         a counter that increases with every record of the channel
 *         (a gap shows a loss), bits 10-15 enum vnpu_sqe_type.
 * @magic: VNPU_STARS_MAGIC.
 * @stream_id: the stream, below 0x1000 (bits 12 and 13 re-encode ids).
 * @task_id: the task's 16-bit id on its stream.
 * @syscnt: when, in system counter ticks.
 * @reserved0: zero.
 * @acc_acsq: bits 0-5 accelerator id, bits 6-12 ACSQ id.
 * @reserved: zero.
 */
struct vnpu_acsq_log {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 syscnt;
	__u16 reserved0;
	__u16 acc_acsq;
	__u32 reserved[11];
};

#define VNPU_ACSQ_WORD0(func, cnt, sqe) \
	((__u16)(((func) & 0x3f) | (((cnt) & 0xf) << 6) | (((sqe) & 0x3f) << 10)))
#define VNPU_ACSQ_FUNC(w) ((w) & 0x3f)
#define VNPU_ACSQ_CNT(w) (((w) >> 6) & 0xf)
#define VNPU_ACSQ_SQE(w) (((w) >> 10) & 0x3f)

/* struct vnpu_ffts_pmu.ffts: FFTS type in bits 13-15 */
#define VNPU_FFTS_TYPE_AIC 0	  /* a plain AI Core task */
#define VNPU_FFTS_TYPE_AIV 1	  /* a plain AI Vector Core task */
#define VNPU_FFTS_TYPE_FFTS_PLUS 4 /* an FFTS+ (mix) context */
#define VNPU_FFTS_TYPE(w) (((w) >> 13) & 0x7)
/* struct vnpu_ffts_pmu.subtask: type in bits 0-7, counters overflowed in bit 10 */
#define VNPU_FFTS_SUBTASK_OVERFLOW _BITUL(10)
#define VNPU_FFTS_NO_SUBTASK 0xffff /* subtask_id of a plain task */
#define VNPU_PMU_COUNTERS 8

/**
 * struct vnpu_ffts_pmu - the PMU counters of one task (context PMU)
 * (mscalculate/stars/ffts_pmu_calculator.py, profiling_bean/stars/ffts_pmu.py;
 * struct format "4HQ4HQ12Q")
 * @word0: bits 0-5 VNPU_FUNC_CONTEXT_PMU, bits 6-9 the channel's counter.
 * @magic: VNPU_STARS_MAGIC (msprof does not check it here).
 * @stream_id: the task's stream.
 * @task_id: the task's 16-bit id.
 * @reserved0: zero.
 * @subtask: bits 0-7 subtask type (0 for a plain task), bit 10
 *           VNPU_FFTS_SUBTASK_OVERFLOW: a counter saturated, the record
 *           is not used.
 * @subtask_id: VNPU_FFTS_NO_SUBTASK for a plain task.
 * @ffts: bits 13-15 VNPU_FFTS_TYPE_*.
 * @reserved1: zero.
 * @reserved2: zero.
 * @total_cycle: the task's cycles, summed over its blocks.
 * @reserved3: zero.
 * @pmu: the 8 programmed counters, summed over blocks, in the order of
 *       sample.json's ai_core_profiling_events (aiv_profiling_events for
 *       an AIV task).
 * @start_syscnt: when the task started.
 * @end_syscnt: when it ended.
 */
struct vnpu_ffts_pmu {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 reserved0;
	__u16 subtask;
	__u16 subtask_id;
	__u16 ffts;
	__u16 reserved1;
	__u64 reserved2;
	__u64 total_cycle;
	__u64 reserved3;
	__u64 pmu[VNPU_PMU_COUNTERS];
	__u64 start_syscnt;
	__u64 end_syscnt;
};

/* FFTS+ subtask types (struct vnpu_ffts_log.subtask_type, vnpu_ffts_pmu.subtask) */
#define VNPU_FFTS_SUBTASK_AIC 0
#define VNPU_FFTS_SUBTASK_MIX_AIC 6
#define VNPU_FFTS_SUBTASK_MIX_AIV 7

/**
 * struct vnpu_ffts_log - one FFTS+ subtask log: a context's start or end,
 * in the ACSQ channel beside its task's ACSQ logs
 * (msparser/stars/ffts_log_parser.py, profiling_bean/stars/ffts_plus_log.py;
 * struct format "4HQ4H10L")
 * @word0: bits 0-5 VNPU_FUNC_FFTS_LOG_START or _END, bits 6-9 the channel's
 *         counter, bits 10-15 the task's enum vnpu_sqe_type.
 * @magic: VNPU_STARS_MAGIC.
 * @stream_id: the task's stream.
 * @task_id: the task's 16-bit id.
 * @syscnt: when, in system counter ticks.
 * @subtask_type: VNPU_FFTS_SUBTASK_MIX_AIC or _MIX_AIV (low 8 bits).
 * @subtask_id: the context id (0: a mix op's one context).
 * @ffts: bits 13-15 VNPU_FFTS_TYPE_FFTS_PLUS.
 * @thread_id: the context's thread (0).
 * @reserved: zero.
 */
struct vnpu_ffts_log {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 syscnt;
	__u16 subtask_type;
	__u16 subtask_id;
	__u16 ffts;
	__u16 thread_id;
	__u32 reserved[10];
};

/* struct vnpu_ffts_block_pmu.core: bit 0 the core type, the core id above */
#define VNPU_BLOCK_CORE_AIV _BITUL(0)

/**
 * struct vnpu_ffts_block_pmu - the PMU counters of one block of an FFTS+
 * context on the cores of the type that is not its main one (a mix op's
 * AIV blocks for MIX_AIC), in the PMU channel after the context's
 * struct vnpu_ffts_pmu (profiling_bean/stars/ffts_block_pmu.py,
 * mscalculate/stars/ffts_pmu_calculator.py; struct format "4HQ2HBBHLHH12Q")
 * @word0: bits 0-5 VNPU_FUNC_BLOCK_PMU, bits 6-9 the channel's counter.
 * @magic: VNPU_STARS_MAGIC.
 * @stream_id: the task's stream.
 * @task_id: the task's 16-bit id.
 * @reserved0: zero.
 * @subtask_type: the context's VNPU_FFTS_SUBTASK_*.
 * @subtask_id: the context id.
 * @core: bit 0 VNPU_BLOCK_CORE_AIV for an AI Vector Core, the core id
 *        in bits 1-7.
 * @ffts: bits 5-7 VNPU_FFTS_TYPE_FFTS_PLUS.
 * @reserved1: zero.
 * @reserved2: zero.
 * @sub_block_id: zero.
 * @block_id: the block.
 * @total_cycle: the block's cycles.
 * @reserved3: zero.
 * @pmu: the block's share of the 8 programmed counters of its core type.
 * @start_syscnt: when the block started.
 * @end_syscnt: when it ended.
 */
struct vnpu_ffts_block_pmu {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 reserved0;
	__u16 subtask_type;
	__u16 subtask_id;
	__u8 core;
	__u8 ffts;
	__u16 reserved1;
	__u32 reserved2;
	__u16 sub_block_id;
	__u16 block_id;
	__u64 total_cycle;
	__u64 reserved3;
	__u64 pmu[VNPU_PMU_COUNTERS];
	__u64 start_syscnt;
	__u64 end_syscnt;
};

/*
 * The Atlas 350 (chip id 15, msprof's CHIP_V6_1_0) writes its own records
 * into the same two channels: task ids are 32 bits and unique on the
 * device, across streams, and the records carry no stream (msprof takes it
 * from the host's task_track record of the id, so the host writes one for
 * every task the device runs); no task id wraps, so no flip is written.
 *
 *   stars_soc.data.N.slice_K     struct vnpu_acsq_log_v6   32 B
 *   ffts_profile.data.N.slice_K  struct vnpu_pmu_v6       128 B
 */

/* Function types of struct vnpu_pmu_v6 (msprof's StarsConstant.PMU_TAG_V6) */
#define VNPU_FUNC_V6_BLOCK_PMU 0x29	/* 0b101001 */
#define VNPU_FUNC_V6_CONTEXT_PMU 0x2a	/* 0b101010 */

/* SQE types of a v6 ACSQ log (msprof's SqeType.ChipV6SqeType) */
enum vnpu_sqe_v6_type {
	VNPU_SQE_V6_AI_CORE = 0,
	VNPU_SQE_V6_AIV = 1,
	VNPU_SQE_V6_FUSION = 2,
	VNPU_SQE_V6_AICPU_H = 4,
	VNPU_SQE_V6_AICPU_D = 5,
	VNPU_SQE_V6_NOTIFY_RECORD = 6,
	VNPU_SQE_V6_NOTIFY_WAIT = 7,
	VNPU_SQE_V6_WRITE_VALUE = 8,
	VNPU_SQE_V6_SDMA = 11,
};

/**
 * struct vnpu_acsq_log_v6 - one v6 ACSQ task log: a task's start or its
 * end (msparser/stars/stars_log_parser.py with a 32 B record,
 * profiling_bean/stars/acsq_task_v6_bean.py; struct format "4HQHH3L")
 * @word0: as struct vnpu_acsq_log's, with enum vnpu_sqe_v6_type in bits
 *         10-15.
 * @magic: VNPU_STARS_MAGIC (checked).
 * @task_lo: the low half of the task's 32-bit id.
 * @task_hi: its high half.
 * @syscnt: when, in system counter ticks.
 * @reserved0: zero.
 * @acc_acsq: bits 0-5 accelerator id, bits 6-12 ACSQ id.
 * @reserved: zero.
 */
struct vnpu_acsq_log_v6 {
	__u16 word0;
	__u16 magic;
	__u16 task_lo;
	__u16 task_hi;
	__u64 syscnt;
	__u16 reserved0;
	__u16 acc_acsq;
	__u32 reserved[3];
};

/* struct vnpu_pmu_v6.flags */
#define VNPU_PMU_V6_MAIN _BITUL(0)	/* the main core's record: msprof drops others unless mix */
#define VNPU_PMU_V6_MIX _BITUL(1)	/* a mix op's (AIC and AIV) */
#define VNPU_PMU_V6_OVERFLOW _BITUL(2)	/* a counter saturated */
/* struct vnpu_pmu_v6.core_type: bit 0 */
#define VNPU_PMU_V6_AIV _BITUL(0)
#define VNPU_PMU_V6_COUNTERS 10

/**
 * struct vnpu_pmu_v6 - the PMU counters of one task on one core type, v6
 * (mscalculate/stars/chip6_pmu_calculator.py,
 * profiling_bean/stars/pmu_bean_v6.py; struct format "4HQ2BH2B3HL12Q")
 * @word0: bits 0-5 VNPU_FUNC_V6_CONTEXT_PMU, bits 6-9 the channel's counter.
 * @magic: VNPU_STARS_MAGIC.
 * @task_lo: the low half of the task's 32-bit id.
 * @task_hi: its high half.
 * @total_cycle: the task's cycles on this core type, summed over blocks.
 * @ctx_type: zero.
 * @flags: VNPU_PMU_V6_*. A mix op has two records: the main core type's
 *         (MAIN | MIX) and the other's (MIX).
 * @reserved0: zero.
 * @core_type: VNPU_PMU_V6_AIV for an AI Vector Core, else an AI Core.
 * @core_id: zero (a context record).
 * @reserved1: zero.
 * @sub_block_id: zero.
 * @block_id: zero.
 * @reserved2: zero.
 * @pmu: the programmed counters, summed over blocks, in the order of
 *       sample.json's events for the core type; unprogrammed ones zero.
 * @start_syscnt: when the task started.
 * @end_syscnt: when it ended.
 */
struct vnpu_pmu_v6 {
	__u16 word0;
	__u16 magic;
	__u16 task_lo;
	__u16 task_hi;
	__u64 total_cycle;
	__u8 ctx_type;
	__u8 flags;
	__u16 reserved0;
	__u8 core_type;
	__u8 core_id;
	__u16 reserved1;
	__u16 sub_block_id;
	__u16 block_id;
	__u32 reserved2;
	__u64 pmu[VNPU_PMU_V6_COUNTERS];
	__u64 start_syscnt;
	__u64 end_syscnt;
};

/* struct vnpu_hwts_log.word0: the log type in bits 0-2, a counter in bits 4-7 */
#define VNPU_HWTS_LOG_START 0
#define VNPU_HWTS_LOG_END 1
#define VNPU_HWTS_WORD0(type, cnt) ((__u8)(((type) & 0x7) | (((cnt) & 0xf) << 4)))
#define VNPU_HWTS_TYPE(w) ((w) & 0x7)
#define VNPU_HWTS_CNT(w) (((w) >> 4) & 0xf)

/* Task types of an HWTS log (msprof's SqeType.HwSqeType) */
enum vnpu_hwts_task_type {
	VNPU_HWTS_AI_CORE = 0,
	VNPU_HWTS_AI_CPU = 1,
	VNPU_HWTS_AIV = 2,
	VNPU_HWTS_PLACE_HOLDER = 3,
	VNPU_HWTS_EVENT_RECORD = 4,
	VNPU_HWTS_EVENT_WAIT = 5,
	VNPU_HWTS_NOTIFY_RECORD = 6,
	VNPU_HWTS_NOTIFY_WAIT = 7,
	VNPU_HWTS_WRITE_VALUE = 8,
	VNPU_HWTS_SDMA = 9,
};

/**
 * struct vnpu_hwts_log - one HWTS task log: a task's start or its end, on
 * a device without STARS (mscalculate/hwts/hwts_calculator.py,
 * profiling_bean/struct_info/hwts_log.py; struct format "=BBHHHQ12I")
 * @word0: bits 0-2 VNPU_HWTS_LOG_START or _END, bits 4-7 a counter that
 *         steps by one with every record of the channel, modulo 16 (msprof
 *         logs a loss at a gap).
 * @task_type: enum vnpu_hwts_task_type.
 * @reserved0: zero.
 * @reserved1: zero.
 * @task_id: the task's 16-bit id on its stream.
 * @syscnt: when, in system counter ticks.
 * @stream_id: the stream (msprof takes it modulo 2048).
 * @reserved: zero.
 *
 * msprof pairs an end with the last start of its (stream, task) before it
 * in file order, and an end with none becomes a task that started at tick
 * -1: the device writes a task's two logs together, or neither.
 */
struct vnpu_hwts_log {
	__u8 word0;
	__u8 task_type;
	__u16 reserved0;
	__u16 reserved1;
	__u16 task_id;
	__u64 syscnt;
	__u32 stream_id;
	__u32 reserved[11];
};

/**
 * struct vnpu_aic_pmu - the PMU counters of one AI Core task, on a device
 * without STARS (mscalculate/aic/aic_calculator.py,
 * profiling_bean/struct_info/aic_pmu.py; struct format "=BBHHHII10Q8I")
 * @word0: bits 4-7 the channel's counter, as in struct vnpu_hwts_log.
 * @reserved0: zero.
 * @reserved1: zero.
 * @reserved2: zero.
 * @task_id: the task's 16-bit id.
 * @reserved3: zero.
 * @reserved4: zero.
 * @total_cycle: the task's cycles, summed over its blocks.
 * @reserved5: zero.
 * @pmu: the 8 programmed counters, summed over blocks, in the order of
 *       sample.json's ai_core_profiling_events.
 * @stream_id: the task's stream (msprof takes it modulo 2048).
 * @reserved: zero.
 *
 * The record has no time and no batch: msprof gives a stream's records
 * of one task id to its tasks of that id in order, so the device writes
 * them in the order its tasks end.
 */
struct vnpu_aic_pmu {
	__u8 word0;
	__u8 reserved0;
	__u16 reserved1;
	__u16 reserved2;
	__u16 task_id;
	__u32 reserved3;
	__u32 reserved4;
	__u64 total_cycle;
	__u64 reserved5;
	__u64 pmu[VNPU_PMU_COUNTERS];
	__u32 stream_id;
	__u32 reserved[7];
};

/* struct vnpu_ts_flip.tag */
#define VNPU_TS_TAG_TASK_FLIP 14

/**
 * struct vnpu_ts_flip - a stream's 16-bit task ids wrapped around
 * (msparser/step_trace/ts_track_parser.py, task_flip_bean.py; struct format
 * "BBHLQHHHH16B"): every task of @stream_id after it is in the next batch
 * @mode: zero.
 * @tag: VNPU_TS_TAG_TASK_FLIP.
 * @reserved0: zero.
 * @reserved1: zero.
 * @syscnt: when the ids wrapped.
 * @stream_id: the stream.
 * @flip_num: flips of this stream so far, from 1.
 * @reserved2: zero.
 * @task_id: the first task id after the flip (0).
 * @reserved: zero.
 */
struct vnpu_ts_flip {
	__u8 mode;
	__u8 tag;
	__u16 reserved0;
	__u32 reserved1;
	__u64 syscnt;
	__u16 stream_id;
	__u16 flip_num;
	__u16 reserved2;
	__u16 task_id;
	__u8 reserved[16];
};

/* struct vnpu_aicpu_node: the CANN header of the AI CPU's own records */
#define VNPU_AICPU_MAGIC 0x5A5A
#define VNPU_AICPU_LEVEL 6000	/* msprof's LevelDataType.AICPU */
#define VNPU_AICPU_TYPE_NODE 0	/* an AI CPU task (MSPROF_REPORT_AICPU_NODE_TYPE) */
#define VNPU_AICPU_NODE_LEN 128	/* data_len: the body, up to @version's reserve */

/**
 * struct vnpu_aicpu_node - the AI CPU's account of one of its tasks, the
 * header of CANN's additional records and MsprofAicpuNodeAdditionalData
 * (msparser/add_info/aicpu_add_info_parser.py, aicpu_add_info_bean.py;
 * struct format "HHIIIQHHIQQQQQQQIIQQQQIIIHBB14Q")
 * @magic: VNPU_AICPU_MAGIC; msprof checks it, and @level, in every record.
 * @level: VNPU_AICPU_LEVEL.
 * @type: VNPU_AICPU_TYPE_NODE.
 * @thread_id: the AI CPU thread (0).
 * @data_len: VNPU_AICPU_NODE_LEN.
 * @timestamp: when written, in syscnt ticks.
 * @stream_id: the task's stream.
 * @task_id: its 16-bit id.
 * @reserved0: zero.
 * @run_start_us: the run's start, device microseconds (unused by msprof).
 * @run_start_tick: the run's start, syscnt (0 makes msprof drop the record).
 * @compute_start_us: the compute phase's start, device microseconds.
 * @memcpy_start_us: the output copy's start (compute ends), microseconds.
 * @memcpy_end_us: the copy's end, microseconds.
 * @run_end_us: the run's end, microseconds (unused by msprof).
 * @run_end_tick: the run's end, syscnt; inside the task's ACSQ window.
 * @ai_cpu_thread: the kernel thread (0).
 * @device_id: the device.
 * @submit_tick: when the task reached the AI CPU, syscnt.
 * @schedule_tick: when it was scheduled.
 * @tick_before_run: before the kernel ran.
 * @tick_after_run: after it ran (Total_time = this - @submit_tick).
 * @kernel_type: zero.
 * @dispatch_us: from submission to the run, microseconds.
 * @total_us: the whole, microseconds (msprof uses the ticks instead).
 * @ffts_thread_id: zero.
 * @version: zero.
 * @reserved1: zero.
 * @reserved: zero, to 256 bytes.
 */
struct vnpu_aicpu_node {
	__u16 magic;
	__u16 level;
	__u32 type;
	__u32 thread_id;
	__u32 data_len;
	__u64 timestamp;
	__u16 stream_id;
	__u16 task_id;
	__u32 reserved0;
	__u64 run_start_us;
	__u64 run_start_tick;
	__u64 compute_start_us;
	__u64 memcpy_start_us;
	__u64 memcpy_end_us;
	__u64 run_end_us;
	__u64 run_end_tick;
	__u32 ai_cpu_thread;
	__u32 device_id;
	__u64 submit_tick;
	__u64 schedule_tick;
	__u64 tick_before_run;
	__u64 tick_after_run;
	__u32 kernel_type;
	__u32 dispatch_us;
	__u32 total_us;
	__u16 ffts_thread_id;
	__u8 version;
	__u8 reserved1[9];
	__u8 reserved[104];
};

#endif /* _UAPI_VNPU_ASCEND_H */
