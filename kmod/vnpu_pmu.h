/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the AI Core PMU model: the events, what one block of a task did
 * (struct vnpu_pmu_side, filled by the cost model), the counters of a task,
 * and the event lists each metric group programs.
 */
#ifndef _VNPU_PMU_H
#define _VNPU_PMU_H

#include "vnpu_prof.h"
#include "vnpu_product.h"

/* At most this many PMU events are programmed per core (10 on a v6 product). */
#define VNPU_PMU_EVENTS_MAX VNPU_PMU_EVENTS_ALL

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

u32 vnpu_pmu_event(u32 slot);
u64 vnpu_pmu_read(const struct vnpu_counters *c, bool aiv, u32 event_id);
u8 vnpu_pmu_slot(u32 event_id);
u8 vnpu_pmu_slot_v6(u32 event_id);

/* vnpu_pmu_slot() of an event the model does not count */
#define VNPU_PMU_NO_SLOT 0xff

u64 vnpu_pmu_read_slot(const struct vnpu_counters *c, bool aiv, u8 slot);
void vnpu_pmu_compute(struct vnpu_counters *c, const u8 *aic_slots, const u8 *aiv_slots, u32 n,
		      u32 session);

u32 vnpu_metric_events(const struct vnpu_product_desc *p, u32 group, bool aiv,
		       u32 ids[VNPU_PMU_EVENTS_MAX]);

#endif /* _VNPU_PMU_H */
