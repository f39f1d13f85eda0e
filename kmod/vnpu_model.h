/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: product table, cost model and per-task PMU counter model.
 *
 * Pure integer logic, no kernel or libc calls: the same vnpu_model.c is
 * built into vnpu.ko and into the host unit test (tests/host/test_model.c).
 *
 * Units: durations are in system counter ticks of the product
 * (sys_cnt_freq_khz), core work in AI Core clock cycles (aic_freq_khz),
 * bandwidths in MB/s (10^6 B/s), compute rates in FLOP per core cycle.
 */
#ifndef _VNPU_MODEL_H
#define _VNPU_MODEL_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
/* freestanding headers and the uapi types only: no libc */
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
#endif

#include "vnpu.h"
#include "vnpu_hccl.h"

/* At most this many PMU events are programmed per core (PMU_EVENT_MAX_NUM). */
#define VNPU_PMU_EVENTS_MAX 8

/* Cube FLOP of one fp16 / int8 cube instruction (the cube_fops formula). */
#define VNPU_CUBE_FP16_OPS (16 * 16 * 16 * 2)
#define VNPU_CUBE_INT8_OPS (16 * 16 * 32 * 2)

/* Model constants (chosen, not public figures). */
#define VNPU_MODEL_LAUNCH_NS		2000	/* AI Core task launch overhead */
#define VNPU_MODEL_BLOCK_CYCLES		1000	/* fixed overhead of one block */
#define VNPU_MODEL_AICPU_LAUNCH_NS	10000	/* AI CPU task launch overhead */
#define VNPU_MODEL_AICPU_FLOPS		1000000000ULL	/* one AI CPU, FLOP/s */
#define VNPU_MODEL_AICPU_BPS		4000000000ULL	/* one AI CPU, B/s */
#define VNPU_MODEL_COMM_BASE_NS		2000	/* fixed cost of a collective */
#define VNPU_MODEL_COMM_STEP_NS		1500	/* setup of one SDMA copy */
#define VNPU_MODEL_NOTIFY_NS		1000	/* a Notify_Record */
#define VNPU_MODEL_NOTIFY_WAIT_NS	500	/* a Notify_Wait already signalled */
#define VNPU_MODEL_MAX_PERMILLE		500	/* jitter is clamped to +-50% */
/*
 * Calibration against published A2 (910B) runs (docs/calibration.md):
 * the share of a block its busiest unit runs at. A MatMul reaches 51-80%
 * of cube peak; vector and memory work do better, never all of it. The
 * rest is the stall that jitter moves both ways.
 */
#define VNPU_MODEL_CUBE_EFF		700	/* permille of the block */
#define VNPU_MODEL_VEC_EFF		850
#define VNPU_MODEL_MEM_EFF		850
/*
 * A cube task's cores are busy this share of its waves (blocks start
 * staggered, end unevenly): a real A2 MatMul's cube_utilization, its
 * cores' cycles over the task's, is 51-80%.
 */
#define VNPU_MODEL_CUBE_OCCUPANCY	750	/* permille */
/* Cube blocks: the scalar unit (addresses, loops) and MTE2 (operand tiles) */
#define VNPU_MODEL_CUBE_SCALAR		375	/* busy, permille of the block */
#define VNPU_MODEL_CUBE_MTE2		875
#define VNPU_MODEL_MAX_SIGMA		144	/* permille: 3.46 sigma stays within it */
#define VNPU_MODEL_MAX_FLOPS		100000000000000000ULL	/* 1e17: inputs are clamped */
#define VNPU_MODEL_MAX_BYTES		10000000000000ULL	/* 1e13 */

/*
 * Per-core peak bandwidth, bytes per core clock cycle, that the counters
 * never exceed when converted with the reference formula
 * event * pipe_bits * scalar / (total_cycles / freq) / 2^33 (that is, the
 * average per core). Main memory is bounded by the product's HBM
 * bandwidth instead (per core and for the whole task).
 */
#define VNPU_PEAK_UB_READ	512	/* 0x15, 128 B per count */
#define VNPU_PEAK_UB_WRITE	512	/* 0x16, 128 B per count */
#define VNPU_PEAK_L1_READ	512	/* 0x31, 512 B per count */
#define VNPU_PEAK_L1_WRITE	256	/* 0x32, 128 B per count */
#define VNPU_PEAK_L2		256	/* 0xf / 0x10, 256 B per count */
#define VNPU_PEAK_L0A		512	/* 0x1b / 0x1c, 512 B per count */
#define VNPU_PEAK_L0B		512	/* 0x21 / 0x22, 256 B per count */
#define VNPU_PEAK_L0C_VEC	256	/* 0x27 / 0x29, 256 B per count */
#define VNPU_PEAK_L0C_CUBE	1024	/* 0x28 / 0x2a, 1024 B per count */
#define VNPU_PEAK_UB_VEC	256	/* 0x43 / 0x44, 32 B per count */
#define VNPU_PEAK_UB_SCALAR	16	/* 0x37 / 0x38, 16 B per count */

/**
 * struct vnpu_product_desc - facts about one modelled product
 * @key: module parameter value ("a2", "a3", "350", "910", "200i-a2",
 *       "310p"), in enum vnpu_product order.
 * @name: product name, e.g. "Atlas A2 training".
 * @chip_name: chip (SoC) name, e.g. "Ascend910B".
 * @chip_id: msprof platform_version.
 * @npu_arch: aclplatformNpuArch.
 * @aic_num: AI Cores; cube cores on products with VNPU_CAP_SPLIT_AIC_AIV,
 *           unified (cube + vector) cores elsewhere.
 * @aiv_num: AI Vector Cores, 0 where there are none.
 * @aicpu_num: AI CPUs.
 * @aic_freq_khz: AI Core (and AI Vector Core) clock, kHz.
 * @sys_cnt_freq_khz: system counter (task timestamps), kHz.
 * @hbm_bw_mbps: main memory bandwidth of the device, MB/s.
 * @link_bw_mbps: inter-device link bandwidth to one ring neighbour, per
 *                direction, MB/s.
 * @caps: VNPU_CAP_*.
 * @metric_groups: mask of 1 << enum vnpu_metric_group supported.
 * @default_group: the enum vnpu_metric_group an L1/L2 session programs when
 *                 it names none (msprof's collector default for the chip).
 * @cube_flops_per_cycle: fp16 FLOP per cycle of one cube unit.
 * @vector_flops_per_cycle: fp16 FLOP per cycle of one vector unit.
 */
struct vnpu_product_desc {
	const char *key;
	const char *name;
	const char *chip_name;
	u32 chip_id;
	u32 npu_arch;
	u32 aic_num;
	u32 aiv_num;
	u32 aicpu_num;
	u32 aic_freq_khz;
	u32 sys_cnt_freq_khz;
	u32 hbm_bw_mbps;
	u32 link_bw_mbps;
	u32 caps;
	u32 metric_groups;
	u32 default_group;
	u32 cube_flops_per_cycle;
	u32 vector_flops_per_cycle;
};

/**
 * enum vnpu_pmu_event - the AI Core PMU events the model counts (the ids of
 * msprof's ai_core_config.py and the collector's metric event lists)
 */
enum vnpu_pmu_event {
	VNPU_EV_VEC_BUSY = 0x8,
	VNPU_EV_SCALAR_BUSY = 0x9,
	VNPU_EV_CUBE_BUSY = 0xa,
	VNPU_EV_MTE1_BUSY = 0xb,
	VNPU_EV_MTE2_BUSY = 0xc,
	VNPU_EV_MTE3_BUSY = 0xd,
	VNPU_EV_L2_READ = 0xf,
	VNPU_EV_L2_WRITE = 0x10,
	VNPU_EV_MAIN_READ = 0x12,
	VNPU_EV_MAIN_WRITE = 0x13,
	VNPU_EV_UB_READ = 0x15,
	VNPU_EV_UB_WRITE = 0x16,
	VNPU_EV_L0A_READ = 0x1b,
	VNPU_EV_L0A_WRITE = 0x1c,
	VNPU_EV_L0B_READ = 0x21,
	VNPU_EV_L0B_WRITE = 0x22,
	VNPU_EV_VEC_L0C_READ = 0x27,
	VNPU_EV_CUBE_L0C_READ = 0x28,
	VNPU_EV_VEC_L0C_WRITE = 0x29,
	VNPU_EV_CUBE_L0C_WRITE = 0x2a,
	VNPU_EV_L1_READ = 0x31,
	VNPU_EV_L1_WRITE = 0x32,
	VNPU_EV_SCALAR_UB_READ = 0x37,
	VNPU_EV_SCALAR_UB_WRITE = 0x38,
	VNPU_EV_MTE_UB_READ = 0x3d,
	VNPU_EV_MTE_UB_WRITE = 0x3e,
	VNPU_EV_VEC_UB_READ = 0x43,
	VNPU_EV_VEC_UB_WRITE = 0x44,
	VNPU_EV_CUBE_FP16 = 0x49,
	VNPU_EV_CUBE_INT8 = 0x4a,
	VNPU_EV_VEC_FP32 = 0x4b,
	VNPU_EV_VEC_FP16_128 = 0x4c,
	VNPU_EV_VEC_FP16_64 = 0x4d,
	VNPU_EV_VEC_INT32 = 0x4e,
	VNPU_EV_VEC_MISC = 0x4f,
	VNPU_EV_ICACHE_REQ = 0x54,
	VNPU_EV_ICACHE_MISS = 0x55,
	VNPU_EV_BANKGROUP_STALL = 0x64,
	VNPU_EV_BANK_STALL = 0x65,
	VNPU_EV_VEC_RESC_CONFLICT = 0x66,
	VNPU_EV_VEC_EXE = 0x12c,
	VNPU_EV_V11_VEC_UB_READ0 = 0x17f,	/* chip 7's MemoryUB */
	VNPU_EV_V11_VEC_UB_READ1 = 0x180,
	VNPU_EV_V11_VEC_UB_WRITE = 0x191,
	VNPU_EV_V11_MTE_UB_READ = 0x1a5,
	VNPU_EV_V11_MTE_UB_WRITE = 0x1a6,
	VNPU_EV_L0C_TO_L1 = 0x206,
	VNPU_EV_L0C_TO_GM = 0x20c,
	VNPU_EV_MTE1_EXTRA = 0x302,
	VNPU_EV_FIXPIPE = 0x303,
	VNPU_EV_MAC_FP = 0x416,
	VNPU_EV_MAC_INT = 0x417,
	VNPU_EV_L2_WRITE_HIT = 0x500,
	VNPU_EV_L2_WRITE_MISS = 0x502,
	VNPU_EV_L2_R0_READ_HIT = 0x504,
	VNPU_EV_L2_R0_READ_MISS = 0x506,
	VNPU_EV_L2_R1_READ_HIT = 0x508,
	VNPU_EV_L2_R1_READ_MISS = 0x50a,
	VNPU_EV_WRITE_MAIN = 0x50c,
	VNPU_EV_READ_MAIN = 0x50d,
	VNPU_EV_READ_MAIN_DATAS = 0x50e,
};

/* Number of enum vnpu_pmu_event values: one counter slot per event. */
#define VNPU_PMU_SLOTS 61

/**
 * struct vnpu_pmu_side - what one block of a task did on one PMU side
 * @cube_flops: cube work.
 * @rd: bytes read from main memory.
 * @wr: bytes written to main memory.
 * @cc: cube busy cycles.
 * @vc: vector busy cycles.
 * @mrd: MTE2 (read) cycles.
 * @mwr: write cycles (MTE3 or FIXPIPE).
 * @busy: the longest pipe.
 * @mac_fp: float cube MAC cycles (@cc, 0 for integer work).
 * @mac_int: integer cube MAC cycles (@cc, 0 for float work).
 * @cube_fp16: float cube instructions.
 * @cube_int8: integer cube instructions.
 * @vec_fp32: fp32 vector instructions.
 * @vec_int32: int32 vector instructions.
 * @vec_misc: other vector instructions (int8, the L0C -> UB moves).
 * @vec_fp16_128: fp16 vector instructions on 128 lanes.
 * @vec_fp16_64: fp16 vector instructions on 64 lanes.
 * @ub: the core has a vector unit and a UB (AIV or unified AI Core).
 * @fixpipe: cube results leave L0C through FIXPIPE (AIC of split products).
 *
 * Every PMU event of the side is a function of these and the block's
 * cycles (vnpu_pmu_read_slot()): the model computes no event itself, and
 * a session computes the ones it programmed (vnpu_pmu_compute()).
 */
struct vnpu_pmu_side {
	u64 cube_flops;
	u64 rd;
	u64 wr;
	u64 cc;
	u64 vc;
	u64 mrd;
	u64 mwr;
	u64 busy;
	u64 mac_fp;
	u64 mac_int;
	u64 cube_fp16;
	u64 cube_int8;
	u64 vec_fp32;
	u64 vec_int32;
	u64 vec_misc;
	u64 vec_fp16_128;
	u64 vec_fp16_64;
	bool ub;
	bool fixpipe;
};

/**
 * struct vnpu_counters - PMU counters of one task, summed over its blocks
 * @aic_total_cycles: sum over the AIC-side blocks of their cycles (the
 *                    task_cyc of msprof). On products without
 *                    VNPU_CAP_SPLIT_AIC_AIV every block counts here, even
 *                    the Vector Core blocks of the 310P.
 * @aiv_total_cycles: the same for the AIV side (0 on non-split products).
 * @aic_blocks: blocks on the AIC side (block_num of the formulas).
 * @aiv_blocks: blocks on the AIV side.
 * @aic_core_num: cores of the type the AIC-side blocks ran on (core_num of
 *                the formulas).
 * @aiv_core_num: the same for the AIV side.
 * @block_cycles: the cycles of one block (both sides run in lock-step).
 * @aic: one AIC-side block; read the events with vnpu_pmu_read_slot().
 * @aiv: one AIV-side block.
 * @ev: the events a session programmed, [0] AIC and [1] AIV side, in its
 *      programming order: filled by vnpu_pmu_compute(), not by the model.
 * @ev_valid: @ev was computed, for session @ev_session.
 * @ev_session: the session's id.
 */
struct vnpu_counters {
	u64 aic_total_cycles;
	u64 aiv_total_cycles;
	u32 aic_blocks;
	u32 aiv_blocks;
	u32 aic_core_num;
	u32 aiv_core_num;
	u64 block_cycles;
	struct vnpu_pmu_side aic;
	struct vnpu_pmu_side aiv;
	u64 ev[2][VNPU_PMU_EVENTS_MAX];
	bool ev_valid;
	u32 ev_session;
};

/**
 * enum vnpu_model_unit - which unit of a unified AI Core does the work
 * @VNPU_UNIT_AUTO: cube when flops >= 4 * bytes (a MatMul-like intensity),
 *                  else vector.
 * @VNPU_UNIT_CUBE: the cube unit.
 * @VNPU_UNIT_VECTOR: the vector unit.
 *
 * Only AI_CORE tasks on products without VNPU_CAP_SPLIT_AIC_AIV look at
 * it; elsewhere the task type decides.
 */
enum vnpu_model_unit {
	VNPU_UNIT_AUTO = 0,
	VNPU_UNIT_CUBE = 1,
	VNPU_UNIT_VECTOR = 2,
};

/**
 * struct vnpu_model_in - one task, as the cost model sees it
 * @task_type: enum vnpu_task_type (unknown values are modelled as AI_CORE).
 * @block_num: blocks of the primary core type (0 is taken as 1).
 * @mix_block_num: MIX_AIC / MIX_AIV: blocks of the secondary core type
 *                 (0: none); ignored on non-split products, where MIX_AIC
 *                 runs as AI_CORE (cube) and MIX_AIV as AI_VECTOR_CORE.
 * @flags: VNPU_TASK_F_* (VNPU_TASK_F_HF32: fp32 cube work at fp16 rate).
 * @dtype: enum vnpu_dtype of the first input.
 * @unit: enum vnpu_model_unit.
 * @comm_op: COMMUNICATION: enum vnpu_comm_op.
 * @comm_ranks: COMMUNICATION: devices taking part, this one included.
 * @flops: operations of the task (clamped to VNPU_MODEL_MAX_FLOPS).
 * @bytes: bytes moved from/to main memory; COMMUNICATION: the message
 *         size per device (clamped to VNPU_MODEL_MAX_BYTES).
 * @jitter_seed: the task's key for the duration jitter (splitmix64).
 * @jitter_permille: the jitter's standard deviation, permille of the
 *                   duration; 0 = none, clamped to VNPU_MODEL_MAX_SIGMA.
 *                   The distribution is Irwin-Hall(4) (vnpu_jitter_ppm()).
 */
struct vnpu_model_in {
	u32 task_type;
	u32 block_num;
	u32 mix_block_num;
	u32 flags;
	u32 dtype;
	u32 unit;
	u32 comm_op;
	u32 comm_ranks;
	u64 flops;
	u64 bytes;
	u64 jitter_seed;
	u32 jitter_permille;
};

/**
 * struct vnpu_model_out - the modelled execution of one task
 * @duration_ticks: start to end, system counter ticks (launch included).
 * @launch_ticks: the launch (or fixed) part of @duration_ticks; the cores
 *                are busy for the rest.
 * @aic_used: AI Cores occupied (cube cores on split products).
 * @aiv_used: AI Vector Cores occupied.
 * @aicpu_used: AI CPUs occupied.
 * @ctr: PMU counters (all zero for AI_CPU and COMMUNICATION tasks).
 *
 * The structure is about 0.4 KiB: avoid it on deep kernel stacks.
 */
struct vnpu_model_out {
	u64 duration_ticks;
	u64 launch_ticks;
	u32 aic_used;
	u32 aiv_used;
	u32 aicpu_used;
	struct vnpu_counters ctr;
};

const struct vnpu_product_desc *vnpu_product_get(u32 id);
u32 vnpu_product_id(const struct vnpu_product_desc *p);
int vnpu_product_find(const char *key);
u64 vnpu_product_cube_flops(const struct vnpu_product_desc *p);
u64 vnpu_product_vector_flops(const struct vnpu_product_desc *p);
u64 vnpu_ns_to_ticks(const struct vnpu_product_desc *p, u64 ns);

void vnpu_model_task(const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
		     struct vnpu_model_out *out);
u64 vnpu_model_comm_ticks(const struct vnpu_product_desc *p, u32 comm_op, u32 ranks, u64 bytes);
u64 vnpu_model_comm_ticks_link(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u64 bytes);
u64 vnpu_model_comm_busy_ticks(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u32 rank, u32 peer, u64 bytes);
u64 vnpu_model_hccl_step_ticks(const struct vnpu_product_desc *p, u32 link_mbps,
			       const struct vnpu_hccl_step *st);

u32 vnpu_pmu_event(u32 slot);
u64 vnpu_pmu_read(const struct vnpu_counters *c, bool aiv, u32 event_id);
u8 vnpu_pmu_slot(u32 event_id);

/* vnpu_pmu_slot() of an event the model does not count */
#define VNPU_PMU_NO_SLOT 0xff

u64 vnpu_pmu_read_slot(const struct vnpu_counters *c, bool aiv, u8 slot);
void vnpu_pmu_compute(struct vnpu_counters *c, const u8 *aic_slots, const u8 *aiv_slots, u32 n,
		      u32 session);

u32 vnpu_metric_events(const struct vnpu_product_desc *p, u32 group, bool aiv,
		       u32 ids[VNPU_PMU_EVENTS_MAX]);

#endif /* _VNPU_MODEL_H */
