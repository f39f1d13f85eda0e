/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the cost model: how long a task runs, on which cores, and what
 * each of its blocks did (the PMU model's input); the collectives' and
 * their HCCL steps' durations.
 */
#ifndef _VNPU_COST_H
#define _VNPU_COST_H

#include "vnpu_hccl.h"
#include "vnpu_pmu.h"

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

void vnpu_model_task(const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
		     struct vnpu_model_out *out);
u64 vnpu_model_comm_ticks(const struct vnpu_product_desc *p, u32 comm_op, u32 ranks, u64 bytes);
u64 vnpu_model_comm_ticks_link(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u64 bytes);
u64 vnpu_model_comm_busy_ticks(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u32 rank, u32 peer, u64 bytes);
u64 vnpu_model_hccl_step_ticks(const struct vnpu_product_desc *p, u32 link_mbps,
			       const struct vnpu_hccl_step *st);

#endif /* _VNPU_COST_H */
