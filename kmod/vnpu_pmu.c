// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the PMU model. Every event of a block is a function of what the
 * cost model says the block did (struct vnpu_pmu_side) and of its cycles,
 * computed only for the events a session programmed; every busy count
 * stays within the block and every bandwidth under its per-core peak
 * (VNPU_PEAK_* in vnpu_pmu.h).
 */
#include "vnpu_cost.h"
#include "vnpu_math.h"
#include "vnpu_pmu.h"

/* One counter slot per enum vnpu_pmu_event, in this order. */
enum vnpu_slot {
	VNPU_S_VEC_BUSY,
	VNPU_S_SCALAR_BUSY,
	VNPU_S_CUBE_BUSY,
	VNPU_S_MTE1_BUSY,
	VNPU_S_MTE2_BUSY,
	VNPU_S_MTE3_BUSY,
	VNPU_S_L2_READ,
	VNPU_S_L2_WRITE,
	VNPU_S_MAIN_READ,
	VNPU_S_MAIN_WRITE,
	VNPU_S_UB_READ,
	VNPU_S_UB_WRITE,
	VNPU_S_L0A_READ,
	VNPU_S_L0A_WRITE,
	VNPU_S_L0B_READ,
	VNPU_S_L0B_WRITE,
	VNPU_S_VEC_L0C_READ,
	VNPU_S_CUBE_L0C_READ,
	VNPU_S_VEC_L0C_WRITE,
	VNPU_S_CUBE_L0C_WRITE,
	VNPU_S_L1_READ,
	VNPU_S_L1_WRITE,
	VNPU_S_SCALAR_UB_READ,
	VNPU_S_SCALAR_UB_WRITE,
	VNPU_S_MTE_UB_READ,
	VNPU_S_MTE_UB_WRITE,
	VNPU_S_VEC_UB_READ,
	VNPU_S_VEC_UB_WRITE,
	VNPU_S_CUBE_FP16,
	VNPU_S_CUBE_INT8,
	VNPU_S_VEC_FP32,
	VNPU_S_VEC_FP16_128,
	VNPU_S_VEC_FP16_64,
	VNPU_S_VEC_INT32,
	VNPU_S_VEC_MISC,
	VNPU_S_ICACHE_REQ,
	VNPU_S_ICACHE_MISS,
	VNPU_S_BANKGROUP_STALL,
	VNPU_S_BANK_STALL,
	VNPU_S_VEC_RESC_CONFLICT,
	VNPU_S_VEC_EXE,
	VNPU_S_L0C_TO_L1,
	VNPU_S_L0C_TO_GM,
	VNPU_S_MTE1_EXTRA,
	VNPU_S_FIXPIPE,
	VNPU_S_MAC_FP,
	VNPU_S_MAC_INT,
	VNPU_S_L2_WRITE_HIT,
	VNPU_S_L2_WRITE_MISS,
	VNPU_S_L2_R0_READ_HIT,
	VNPU_S_L2_R0_READ_MISS,
	VNPU_S_L2_R1_READ_HIT,
	VNPU_S_L2_R1_READ_MISS,
	VNPU_S_WRITE_MAIN,
	VNPU_S_READ_MAIN,
	VNPU_S_READ_MAIN_DATAS,
	VNPU_S_V11_VEC_UB_READ0,
	VNPU_S_V11_VEC_UB_READ1,
	VNPU_S_V11_VEC_UB_WRITE,
	VNPU_S_V11_MTE_UB_READ,
	VNPU_S_V11_MTE_UB_WRITE,
	VNPU_S_COUNT
};

static const u16 vnpu_slot_ids[VNPU_S_COUNT] = {
	VNPU_EV_VEC_BUSY, VNPU_EV_SCALAR_BUSY, VNPU_EV_CUBE_BUSY,
	VNPU_EV_MTE1_BUSY, VNPU_EV_MTE2_BUSY, VNPU_EV_MTE3_BUSY,
	VNPU_EV_L2_READ, VNPU_EV_L2_WRITE, VNPU_EV_MAIN_READ,
	VNPU_EV_MAIN_WRITE, VNPU_EV_UB_READ, VNPU_EV_UB_WRITE,
	VNPU_EV_L0A_READ, VNPU_EV_L0A_WRITE, VNPU_EV_L0B_READ,
	VNPU_EV_L0B_WRITE, VNPU_EV_VEC_L0C_READ, VNPU_EV_CUBE_L0C_READ,
	VNPU_EV_VEC_L0C_WRITE, VNPU_EV_CUBE_L0C_WRITE, VNPU_EV_L1_READ,
	VNPU_EV_L1_WRITE, VNPU_EV_SCALAR_UB_READ, VNPU_EV_SCALAR_UB_WRITE,
	VNPU_EV_MTE_UB_READ, VNPU_EV_MTE_UB_WRITE, VNPU_EV_VEC_UB_READ,
	VNPU_EV_VEC_UB_WRITE, VNPU_EV_CUBE_FP16, VNPU_EV_CUBE_INT8,
	VNPU_EV_VEC_FP32, VNPU_EV_VEC_FP16_128, VNPU_EV_VEC_FP16_64,
	VNPU_EV_VEC_INT32, VNPU_EV_VEC_MISC, VNPU_EV_ICACHE_REQ,
	VNPU_EV_ICACHE_MISS, VNPU_EV_BANKGROUP_STALL, VNPU_EV_BANK_STALL,
	VNPU_EV_VEC_RESC_CONFLICT, VNPU_EV_VEC_EXE, VNPU_EV_L0C_TO_L1,
	VNPU_EV_L0C_TO_GM, VNPU_EV_MTE1_EXTRA, VNPU_EV_FIXPIPE,
	VNPU_EV_MAC_FP, VNPU_EV_MAC_INT, VNPU_EV_L2_WRITE_HIT,
	VNPU_EV_L2_WRITE_MISS, VNPU_EV_L2_R0_READ_HIT, VNPU_EV_L2_R0_READ_MISS,
	VNPU_EV_L2_R1_READ_HIT, VNPU_EV_L2_R1_READ_MISS, VNPU_EV_WRITE_MAIN,
	VNPU_EV_READ_MAIN, VNPU_EV_READ_MAIN_DATAS, VNPU_EV_V11_VEC_UB_READ0,
	VNPU_EV_V11_VEC_UB_READ1, VNPU_EV_V11_VEC_UB_WRITE, VNPU_EV_V11_MTE_UB_READ,
	VNPU_EV_V11_MTE_UB_WRITE,
};

/*
 * A v6 product (chip 15) numbers its events anew (msprof's CHIP_V6_MAP,
 * analysis/msconfig/ai_core_config.py) and counts some in other units: each
 * is the model's event of the same thing, shifted right to the v6 unit (the
 * bytes a count stands for in msprof's v6 formulas over the chip-5 event's).
 * Their slots follow enum vnpu_slot's, VNPU_S_V6 + the index here.
 */
#define VNPU_S_V6 VNPU_S_COUNT

static const struct vnpu_v6_event {
	u16 id;
	u8 slot;
	u8 shift;
} vnpu_v6_events[] = {
	/* PipeUtilization */
	{ 0x501, VNPU_S_VEC_BUSY, 0 },
	{ 0x301, VNPU_S_CUBE_BUSY, 0 },
	{ 0x1, VNPU_S_SCALAR_BUSY, 0 },
	{ 0x701, VNPU_S_MTE1_BUSY, 0 },
	{ 0x202, VNPU_S_MTE2_BUSY, 0 },
	{ 0x203, VNPU_S_MTE3_BUSY, 0 },
	{ 0x34, VNPU_S_ICACHE_REQ, 0 },
	{ 0x35, VNPU_S_ICACHE_MISS, 0 },
	{ 0x714, VNPU_S_FIXPIPE, 0 },
	/* Memory: main memory 64 B, UB 1024 B (vector 256/128 B), L1 4096/2048 B */
	{ 0x400, VNPU_S_MAIN_READ, 3 },
	{ 0x401, VNPU_S_MAIN_WRITE, 3 },
	{ 0x56f, VNPU_S_UB_READ, 3 },
	{ 0x570, VNPU_S_UB_WRITE, 3 },
	{ 0x571, VNPU_S_VEC_UB_READ, 3 },
	{ 0x572, VNPU_S_VEC_UB_WRITE, 2 },
	{ 0x707, VNPU_S_L1_READ, 3 },
	{ 0x709, VNPU_S_L1_WRITE, 4 },
	/* MemoryL0: 4096 B L0A, 2048 B L0B and L0C */
	{ 0x304, VNPU_S_L0A_READ, 3 },
	{ 0x703, VNPU_S_L0A_WRITE, 3 },
	{ 0x306, VNPU_S_L0B_READ, 3 },
	{ 0x705, VNPU_S_L0B_WRITE, 3 },
	{ 0x712, VNPU_S_CUBE_L0C_READ, 1 },
	{ 0x30a, VNPU_S_CUBE_L0C_READ, 1 },
	{ 0x308, VNPU_S_CUBE_L0C_WRITE, 1 },
	/* MemoryUB: scalar 128 B, MTE 128 B, FIXPIPE to UB 2048 B */
	{ 0x3, VNPU_S_SCALAR_UB_READ, 3 },
	{ 0x5, VNPU_S_SCALAR_UB_WRITE, 3 },
	{ 0x70c, VNPU_S_VEC_L0C_READ, 3 },
	{ 0x206, VNPU_S_MTE_UB_WRITE, 0 },
	{ 0x204, VNPU_S_MTE_UB_READ, 0 },
	/* ArithmeticUtilization: cube instructions (a ratio and cube_fops) */
	{ 0x323, VNPU_S_CUBE_FP16, 0 },
	{ 0x324, VNPU_S_CUBE_INT8, 0 },
	/* ResourceConflictRatio */
	{ 0x540, VNPU_S_BANK_STALL, 0 },
	{ 0x556, VNPU_S_BANKGROUP_STALL, 0 },
	{ 0x502, VNPU_S_VEC_BUSY, 0 },
	{ 0x528, VNPU_S_VEC_RESC_CONFLICT, 0 },
};

#define VNPU_V6_EVENTS ARRAY_SIZE(vnpu_v6_events)

/**
 * vnpu_pmu_event() - the event id counted in a slot of struct vnpu_counters
 * @slot: 0 .. VNPU_PMU_SLOTS - 1.
 *
 * Return: the enum vnpu_pmu_event value, or 0 when @slot is out of range.
 */
u32 vnpu_pmu_event(u32 slot)
{
	/* fails to build when VNPU_PMU_SLOTS does not match enum vnpu_slot */
	(void)sizeof(char[1 - 2 * !!(VNPU_S_COUNT ^ VNPU_PMU_SLOTS)]);
	return slot < VNPU_S_COUNT ? vnpu_slot_ids[slot] : 0;
}

/**
 * vnpu_pmu_read() - the value of one PMU event of a task
 * @c: the task's counters.
 * @aiv: the AIV side (else the AIC side).
 * @event_id: a PMU event id.
 *
 * Return: the event's count summed over the side's blocks, 0 for ids the
 * model does not count.
 */
u64 vnpu_pmu_read(const struct vnpu_counters *c, bool aiv, u32 event_id)
{
	return vnpu_pmu_read_slot(c, aiv, vnpu_pmu_slot(event_id));
}

/**
 * vnpu_pmu_slot() - the slot of struct vnpu_counters that counts an event
 * @event_id: a PMU event id.
 *
 * A session maps its programmed events once, when it starts, so that a
 * record reads each counter without a search (vnpu_pmu_read_slot()).
 *
 * Return: the slot, or VNPU_PMU_NO_SLOT for ids the model does not count.
 */
u8 vnpu_pmu_slot(u32 event_id)
{
	u32 s;

	for (s = 0; s < VNPU_S_COUNT; s++)
		if (event_id && vnpu_slot_ids[s] == event_id)
			return (u8)s;
	return VNPU_PMU_NO_SLOT;
}

/**
 * vnpu_pmu_slot_v6() - the slot that counts a v6 product's event
 * @event_id: a PMU event id of a v6 product (chip 15).
 *
 * Return: the slot, or VNPU_PMU_NO_SLOT for ids the model does not count.
 */
u8 vnpu_pmu_slot_v6(u32 event_id)
{
	u32 i;

	/* fails to build when the slots do not fit in a u8 below VNPU_PMU_NO_SLOT */
	(void)sizeof(char[1 - 2 * !!(VNPU_S_V6 + VNPU_V6_EVENTS >= VNPU_PMU_NO_SLOT)]);
	for (i = 0; i < VNPU_V6_EVENTS; i++)
		if (vnpu_v6_events[i].id == event_id)
			return (u8)(VNPU_S_V6 + i);
	return VNPU_PMU_NO_SLOT;
}

/**
 * struct vnpu_group_events - the events one metric group programs
 * @n: how many.
 * @ids: the event ids, in programming order.
 */
struct vnpu_group_events {
	u8 n;
	u16 ids[VNPU_PMU_EVENTS_MAX];
};

/* The collector's default lists (base_analyzer / platform_interface.h). */
static const struct vnpu_group_events vnpu_groups[VNPU_METRIC_COUNT] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = {
		7, { 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f } },
	[VNPU_METRIC_PIPE_UTILIZATION] = {
		8, { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 } },
	[VNPU_METRIC_MEMORY] = {
		8, { 0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13 } },
	[VNPU_METRIC_MEMORY_L0] = {
		8, { 0x1b, 0x1c, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a } },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = {
		3, { 0x64, 0x65, 0x66 } },
	[VNPU_METRIC_MEMORY_UB] = {
		8, { 0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44 } },
	[VNPU_METRIC_L2_CACHE] = {
		6, { 0x500, 0x502, 0x504, 0x506, 0x508, 0x50a } },
	[VNPU_METRIC_PIPE_EXECUTE_UTILIZATION] = {
		8, { 0x12c, 0x49, 0x4a, 0x9, 0x302, 0xc, 0xd, 0x303 } },
	[VNPU_METRIC_MEMORY_ACCESS] = {
		8, { 0x32, 0x3d, 0x3e, 0x206, 0x20c, 0x50c, 0x50d, 0x50e } },
};

/* A2/A3 (chip id 5) AIC PipeUtilization: "PipeUtilizationExct". */
static const struct vnpu_group_events vnpu_pu_exct = {
	8, { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 }
};

/* 200I/500 A2 (chip id 7) MemoryUB: its UB counters have new ids. */
static const struct vnpu_group_events vnpu_ub_v11 = {
	7, { 0x37, 0x38, 0x1a5, 0x1a6, 0x17f, 0x180, 0x191 }
};

/*
 * The v6 product's lists (msprof's collector, DavidV121Platform, which
 * CANN registers for the 950's generation; [unconfirmed] for chip 15 in
 * particular): PipeUtilization programs 9 of its 10 counters.
 */
static const struct vnpu_group_events vnpu_groups_v6[VNPU_METRIC_COUNT] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { 2, { 0x323, 0x324 } },
	[VNPU_METRIC_PIPE_UTILIZATION] = {
		9, { 0x501, 0x301, 0x1, 0x701, 0x202, 0x203, 0x34, 0x35, 0x714 } },
	[VNPU_METRIC_MEMORY] = {
		8, { 0x400, 0x401, 0x56f, 0x571, 0x570, 0x572, 0x707, 0x709 } },
	[VNPU_METRIC_MEMORY_L0] = {
		7, { 0x304, 0x703, 0x306, 0x705, 0x712, 0x30a, 0x308 } },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { 4, { 0x540, 0x556, 0x502, 0x528 } },
	[VNPU_METRIC_MEMORY_UB] = {
		7, { 0x3, 0x5, 0x70c, 0x206, 0x204, 0x571, 0x572 } },
	[VNPU_METRIC_L2_CACHE] = {
		6, { 0x424, 0x425, 0x426, 0x42a, 0x42b, 0x42c } },
};

/**
 * vnpu_metric_events() - the PMU events a metric group programs
 * @p: the product.
 * @group: enum vnpu_metric_group.
 * @aiv: the AIV side (else the AIC side).
 * @ids: out: the event ids, in programming order.
 *
 * Products without VNPU_CAP_SPLIT_AIC_AIV have no AIV side (their
 * counters are all on the AIC side): 0 for @aiv there. Chip 7 programs
 * one list on both sides: msprof reads every record of it with the AIC
 * list (docs/msprof-parser.md section 11).
 *
 * Return: the number of ids written, 0 when @p does not support @group.
 */
u32 vnpu_metric_events(const struct vnpu_product_desc *p, u32 group, bool aiv,
		       u32 ids[VNPU_PMU_EVENTS_MAX])
{
	const struct vnpu_group_events *g;
	u32 i;

	if (!p || group >= VNPU_METRIC_COUNT || !(p->metric_groups & VNPU_MG(group)))
		return 0;
	if (aiv && !vnpu_product_split(p))
		return 0;
	g = p->features & VNPU_PF_V6 ? &vnpu_groups_v6[group] : &vnpu_groups[group];
	if (group == VNPU_METRIC_PIPE_UTILIZATION && !aiv && (p->features & VNPU_PF_PIPE_EXCT))
		g = &vnpu_pu_exct;
	if (group == VNPU_METRIC_MEMORY_UB && (p->features & VNPU_PF_UB_V11))
		g = &vnpu_ub_v11;
	for (i = 0; i < g->n; i++)
		ids[i] = g->ids[i];
	return g->n;
}

/*
 * The event in @slot of one block that ran for @cyc cycles. Only what a
 * session programmed is ever asked for, so nothing here runs per task
 * without an L1 session.
 */
static u64 vnpu_side_event(const struct vnpu_pmu_side *b, u32 slot, u64 cyc)
{
	bool l1 = !b->ub || b->cube_flops;	/* reads land in L1, not UB */
	bool l0c_out = b->fixpipe && b->cube_flops;
	u64 instr = b->cube_fp16 + b->cube_int8;
	u64 rd_lines = vnpu_div_up(b->rd, 256), wr_lines = vnpu_div_up(b->wr, 256);
	u64 r0 = rd_lines - rd_lines / 2, r1 = rd_lines / 2;
	u64 rd128 = vnpu_div_up(b->rd, 128), wr128 = vnpu_div_up(b->wr, 128);
	u64 m1 = b->cc / 2;
	/*
	 * A cube block keeps its scalar unit and MTE2 busy most of the block
	 * (the tiling's addresses, operand tiles read more than once): a real
	 * A2 MatMul shows scalar_ratio 0.25-0.49 and mte2_ratio 0.76-0.97.
	 */
	u64 sc = b->cube_flops ? vnpu_mul_div(cyc, VNPU_MODEL_CUBE_SCALAR, 1000, false) :
				 vnpu_min(cyc, VNPU_MODEL_BLOCK_CYCLES / 4 + b->busy / 32);
	u64 mte2 = l1 && b->cube_flops ?
		   vnpu_max(b->mrd, vnpu_mul_div(cyc, VNPU_MODEL_CUBE_MTE2, 1000, false)) : b->mrd;
	/* 1/8 of the results go on to L1 (chained cube work) */
	u64 l0c_to_l1 = l0c_out ? vnpu_div_up(b->wr, 1024) : 0;
	/*
	 * L2: every main memory access goes through it in 256 B lines. Reads
	 * hit 1/2 on the cube path (operands shared by blocks), 1/8 on the
	 * vector path (streaming); writes hit 3/4. Misses go to main memory.
	 */
	u64 hit_r0 = l1 ? r0 / 2 : r0 / 8, hit_r1 = l1 ? r1 / 2 : r1 / 8;
	u64 hit_w = wr_lines * 3 / 4;

	switch (slot) {
	/* the cube and vector units (vnpu_side_busy()) */
	case VNPU_S_MAC_FP:
		return b->mac_fp;
	case VNPU_S_MAC_INT:
		return b->mac_int;
	case VNPU_S_CUBE_FP16:
		return b->cube_fp16;
	case VNPU_S_CUBE_INT8:
		return b->cube_int8;
	case VNPU_S_VEC_FP32:
		return b->vec_fp32;
	case VNPU_S_VEC_INT32:
		return b->vec_int32;
	case VNPU_S_VEC_MISC:
		return b->vec_misc;
	case VNPU_S_VEC_FP16_128:
		return b->vec_fp16_128;
	case VNPU_S_VEC_FP16_64:
		return b->vec_fp16_64;
	/* PipeUtilization and PipeExecuteUtilization */
	case VNPU_S_CUBE_BUSY:
		return b->cc;
	case VNPU_S_VEC_BUSY:
		return b->vc;
	case VNPU_S_VEC_EXE:
		return b->vc - b->vc / 8;
	case VNPU_S_SCALAR_BUSY:
		return sc;
	case VNPU_S_MTE1_BUSY:
	case VNPU_S_MTE1_EXTRA:
		return m1;
	case VNPU_S_MTE2_BUSY:
		return vnpu_min(mte2, cyc);
	case VNPU_S_FIXPIPE:
		return b->fixpipe ? b->mwr : 0;
	case VNPU_S_MTE3_BUSY:
		return b->fixpipe ? 0 : b->mwr;
	case VNPU_S_ICACHE_REQ:
		return cyc / 16 + 32;
	case VNPU_S_ICACHE_MISS:
		return 16 + (cyc / 16 + 32) / 64;
	/* ResourceConflictRatio */
	case VNPU_S_BANKGROUP_STALL:
		return b->vc / 64;
	case VNPU_S_BANK_STALL:
		return b->vc / 32;
	case VNPU_S_VEC_RESC_CONFLICT:
		return b->vc / 16;
	/* L2 */
	case VNPU_S_L2_READ:
		return rd_lines;
	case VNPU_S_L2_WRITE:
		return wr_lines;
	case VNPU_S_L2_R0_READ_HIT:
		return hit_r0;
	case VNPU_S_L2_R0_READ_MISS:
		return r0 - hit_r0;
	case VNPU_S_L2_R1_READ_HIT:
		return hit_r1;
	case VNPU_S_L2_R1_READ_MISS:
		return r1 - hit_r1;
	case VNPU_S_L2_WRITE_HIT:
		return hit_w;
	case VNPU_S_L2_WRITE_MISS:
		return wr_lines - hit_w;
	case VNPU_S_MAIN_READ:					/* 8 B units */
		return (r0 - hit_r0 + r1 - hit_r1) * 32;
	case VNPU_S_MAIN_WRITE:
		return (wr_lines - hit_w) * 32;
	/* MemoryAccess: 128 B units */
	case VNPU_S_WRITE_MAIN:
		return wr128;
	case VNPU_S_READ_MAIN:
		return rd128 / 2;
	case VNPU_S_READ_MAIN_DATAS:
		return rd128 - rd128 / 2;
	case VNPU_S_L0C_TO_L1:
		return l0c_to_l1;
	case VNPU_S_L0C_TO_GM:
		return l0c_out ? wr128 + l0c_to_l1 : 0;
	/* L1 and L0 (cube path) */
	case VNPU_S_L1_READ:					/* 512 B */
		return l1 ? m1 : 0;
	case VNPU_S_L1_WRITE:
		return l1 ? rd128 + l0c_to_l1 : 0;
	case VNPU_S_L0A_READ:					/* 512 B */
		return l1 ? instr : 0;
	case VNPU_S_L0A_WRITE:
		return l1 ? m1 / 2 : 0;
	case VNPU_S_L0B_READ:					/* 256 B */
		return l1 ? 2 * instr : 0;
	case VNPU_S_L0B_WRITE:
		return l1 ? m1 : 0;
	case VNPU_S_CUBE_L0C_READ:				/* 1024 B */
		return l1 ? instr / 4 : 0;
	case VNPU_S_CUBE_L0C_WRITE:
		return l1 ? instr : 0;
	}
	if (!b->ub)
		return 0;
	/* UB (vector path and unified cores) */
	switch (slot) {
	case VNPU_S_VEC_L0C_READ:				/* 256 B */
		return b->cube_flops ? wr_lines : 0;
	case VNPU_S_UB_READ:
		return 2 * b->vc + wr128;
	case VNPU_S_UB_WRITE:
		return b->vc + (l1 ? 0 : rd128);
	case VNPU_S_MTE_UB_READ:				/* UB -> GM */
	case VNPU_S_V11_MTE_UB_READ:
		return wr128;
	case VNPU_S_MTE_UB_WRITE:				/* GM -> UB */
	case VNPU_S_V11_MTE_UB_WRITE:
		return l1 ? 0 : rd128;
	case VNPU_S_VEC_UB_READ:				/* 32 B */
	case VNPU_S_VEC_UB_WRITE:
	case VNPU_S_V11_VEC_UB_WRITE:
		return 8 * b->vc;
	case VNPU_S_SCALAR_UB_READ:				/* 16 B */
		return sc / 4;
	case VNPU_S_SCALAR_UB_WRITE:
		return sc / 8;
	/* chip 7 counts the vector reads on two ports, msprof sums them */
	case VNPU_S_V11_VEC_UB_READ0:
	case VNPU_S_V11_VEC_UB_READ1:
		return 4 * b->vc;
	}
	return 0;	/* VNPU_S_VEC_L0C_WRITE: not modelled */
}

/**
 * vnpu_pmu_read_slot() - the value of one PMU event of a task, by slot
 * @c: the task's counters.
 * @aiv: the AIV side (else the AIC side).
 * @slot: vnpu_pmu_slot() of the event.
 *
 * Computed on the call: a session reads only the events it programmed.
 *
 * Return: the event's count summed over the side's blocks; 0 for
 * VNPU_PMU_NO_SLOT, a side without blocks, or no @c.
 */
u64 vnpu_pmu_read_slot(const struct vnpu_counters *c, bool aiv, u8 slot)
{
	u32 shift = 0;

	if (!c || slot >= VNPU_S_V6 + VNPU_V6_EVENTS)
		return 0;
	/* a v6 event: the model's event of the same thing, in the v6 unit */
	if (slot >= VNPU_S_V6) {
		shift = vnpu_v6_events[slot - VNPU_S_V6].shift;
		slot = vnpu_v6_events[slot - VNPU_S_V6].slot;
	}
	if (aiv)
		return c->aiv_blocks ? (vnpu_side_event(&c->aiv, slot, c->block_cycles) >> shift) *
				       c->aiv_blocks : 0;
	return c->aic_blocks ? (vnpu_side_event(&c->aic, slot, c->block_cycles) >> shift) *
			       c->aic_blocks : 0;
}

/**
 * vnpu_pmu_compute() - compute the events a session programmed
 * @c: a task's counters (vnpu_model_task()).
 * @aic_slots: the slots of the session's AIC-side events (vnpu_pmu_slot()).
 * @aiv_slots: the same for the AIV side.
 * @n: events per side, at most VNPU_PMU_EVENTS_MAX.
 * @session: the session's id, kept in @c->ev_session.
 *
 * Once per task, and only while a session counts: its records then read
 * @c->ev, the programmed events in programming order.
 */
void vnpu_pmu_compute(struct vnpu_counters *c, const u8 *aic_slots, const u8 *aiv_slots, u32 n,
		      u32 session)
{
	u32 i;

	n = vnpu_min(n, VNPU_PMU_EVENTS_MAX);
	for (i = 0; i < n; i++) {
		c->ev[0][i] = vnpu_pmu_read_slot(c, false, aic_slots[i]);
		c->ev[1][i] = vnpu_pmu_read_slot(c, true, aiv_slots[i]);
	}
	for (; i < VNPU_PMU_EVENTS_MAX; i++) {
		c->ev[0][i] = 0;
		c->ev[1][i] = 0;
	}
	c->ev_valid = true;
	c->ev_session = session;
}
