// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the cost model: a task's duration, its cores and its blocks' work.
 *
 * A roofline per block: a block of a task runs on one core for
 * max(compute, memory) cycles plus a fixed overhead; the cores of one type
 * share the device's main memory bandwidth equally; blocks beyond the core
 * count run in further waves. What each block did (struct vnpu_pmu_side)
 * is the PMU model's input (vnpu_pmu.c), so that every busy-cycle event of
 * a block is at most the block's cycles. Collectives: the ring algorithm
 * over the product's links, step by step as HCCL's sub-tasks.
 */
#include "vnpu_cost.h"
#include "vnpu_math.h"

static u64 vnpu_splitmix64(u64 x)
{
	u64 z = x + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The jitter of a task, parts per million: Irwin-Hall(4), the sum of four
 * uniform draws, centred and scaled to a standard deviation of
 * @in->jitter_permille. Bell-shaped like a real device's spread of
 * same-shape ops (a real A2 runs one MatMul shape in 116-148 us), and
 * bounded at +-2 * sqrt(3) sigma (+-3.46 sigma, within +-50% at the
 * largest sigma), so that no draw is ever absurd.
 */
static s64 vnpu_jitter_ppm(const struct vnpu_model_in *in)
{
	u64 sigma = vnpu_min(in->jitter_permille, VNPU_MODEL_MAX_SIGMA) * 1000, sum = 0, mag;
	const u64 half = 1ULL << 33;
	bool neg;
	int i;

	if (!sigma)
		return 0;
	/* four draws of 32 bits: splitmix64's outputs for the key's stream */
	for (i = 0; i < 4; i++)
		sum += vnpu_splitmix64(in->jitter_seed + i * 0x9e3779b97f4a7c15ULL) >> 32;
	/* x = (sum - 2^33) / 2^32 in [-2, 2], whose sd is 1 / sqrt(3) */
	neg = sum < half;
	mag = neg ? half - sum : sum - half;
	mag = vnpu_mul_div(mag >> 8, (u32)sigma, 1U << 24, false);
	mag = vnpu_mul_div(mag, 1732051, 1000000, false);
	return neg ? -(s64)mag : (s64)mag;
}

static u64 vnpu_jitter(u64 v, s64 ppm)
{
	if (ppm >= 0)
		return vnpu_sat_add(v, vnpu_mul_div(v, (u32)ppm, VNPU_PPM, false));
	return v - vnpu_mul_div(v, (u32)-ppm, VNPU_PPM, false);
}

/* @bytes at @mbps MB/s, in system counter ticks (rounded up) */
static u64 vnpu_model_xfer_ticks(const struct vnpu_product_desc *p, u64 bytes, u32 mbps)
{
	u64 t;

	bytes = vnpu_min(bytes, VNPU_MODEL_MAX_BYTES);
	/* bytes / (mbps * 10^6 B/s) * (sys_cnt_freq_khz * 10^3 / s) */
	t = vnpu_mul_div(bytes, p->sys_cnt_freq_khz, mbps ? mbps : 1, true);
	return vnpu_div_up(t, 1000);
}

/**
 * vnpu_model_hccl_step_ticks() - duration of one sub-task of a collective
 * @p: the product (memory bandwidth, system counter).
 * @link_mbps: the bandwidth of the link the copy takes (0: the product's).
 * @st: the sub-task (uapi/vnpu_hccl.h).
 *
 * A copy costs VNPU_MODEL_COMM_STEP_NS plus its bytes over the link (a
 * local copy at vnpu_hccl_local_mbps()); a
 * Notify_Record VNPU_MODEL_NOTIFY_NS; a Notify_Wait whose notify is
 * already there VNPU_MODEL_NOTIFY_WAIT_NS (the time a rank waits for
 * another is added by the rendezvous).
 *
 * Return: system counter ticks.
 */
u64 vnpu_model_hccl_step_ticks(const struct vnpu_product_desc *p, u32 link_mbps,
			       const struct vnpu_hccl_step *st)
{
	u32 local;
	u64 ticks;

	switch (st->kind) {
	case VNPU_HCCL_NOTIFY_RECORD:
		return vnpu_ns_to_ticks(p, VNPU_MODEL_NOTIFY_NS);
	case VNPU_HCCL_NOTIFY_WAIT:
		return vnpu_ns_to_ticks(p, VNPU_MODEL_NOTIFY_WAIT_NS);
	default:
		ticks = vnpu_ns_to_ticks(p, VNPU_MODEL_COMM_STEP_NS);
		local = vnpu_hccl_local_mbps(p->hbm_bw_mbps, p->link_bw_mbps);
		if (st->link == VNPU_LINK_ON_CHIP)
			return vnpu_sat_add(ticks, vnpu_model_xfer_ticks(p, st->bytes, local));
		return vnpu_sat_add(ticks, vnpu_model_xfer_ticks(p, st->bytes,
								  link_mbps ?: p->link_bw_mbps));
	}
}

/**
 * vnpu_model_comm_ticks_link() - duration of a collective when no rank waits
 * @p: the product.
 * @link_mbps: the bandwidth of the slowest link of the ring (0: the
 *             product's): the ranks run the ring steps in lock-step, so a
 *             step lasts as long as its slowest copy.
 * @comm_op: enum vnpu_comm_op (unknown values are modelled as AllReduce).
 * @ranks: devices taking part.
 * @bytes: the task's bytes (uapi/vnpu_hccl.h says what they are per op).
 *
 * VNPU_MODEL_COMM_BASE_NS for fewer than two ranks; else the sum of the
 * sub-tasks of uapi/vnpu_hccl.h (the ring), each of
 * vnpu_model_hccl_step_ticks(). The ranks run the sub-tasks in lock-step
 * after their first Notify_Wait, so this is also the time from the last
 * rank's arrival to the end of the collective on every rank. A Send and
 * its Recv last what the Send's sub-tasks do (the Recv's end waits for the
 * Send's Notify_Record).
 *
 * Return: system counter ticks.
 */
u64 vnpu_model_comm_ticks_link(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u64 bytes)
{
	const struct vnpu_hccl_step wait = { .kind = VNPU_HCCL_NOTIFY_WAIT };

	if (ranks <= 1)
		return vnpu_ns_to_ticks(p, VNPU_MODEL_COMM_BASE_NS);
	if (comm_op == VNPU_COMM_RECV)
		comm_op = VNPU_COMM_SEND;
	/* rank 0's sub-tasks (to rank 1), its first wait at its own cost */
	return vnpu_sat_add(vnpu_model_comm_busy_ticks(p, link_mbps, comm_op, ranks, 0, 1, bytes),
			    vnpu_model_hccl_step_ticks(p, link_mbps, &wait));
}

/**
 * vnpu_model_comm_busy_ticks() - a rank's part of a collective, waits aside
 * @p: the product.
 * @link_mbps: the pace of the ring (0: the product's link).
 * @comm_op: enum vnpu_comm_op.
 * @ranks: devices taking part, 2 .. VNPU_MAX_DEVICES.
 * @rank: the rank.
 * @peer: its peer (Send, Recv), else unused.
 * @bytes: the task's bytes.
 *
 * The sum of the rank's sub-tasks but its first Notify_Wait, which lasts
 * whatever is left of the collective (the time the rank waited).
 *
 * Return: system counter ticks.
 */
u64 vnpu_model_comm_busy_ticks(const struct vnpu_product_desc *p, u32 link_mbps, u32 comm_op,
			       u32 ranks, u32 rank, u32 peer, u64 bytes)
{
	u32 product = vnpu_product_id(p), i;
	u32 n = ranks < 2 ? 2 : ranks < VNPU_MAX_DEVICES ? ranks : VNPU_MAX_DEVICES;
	struct vnpu_hccl_step st;
	u64 ticks = 0;

	for (i = 0; i < vnpu_hccl_steps(comm_op, n); i++) {
		if (i == vnpu_hccl_first_wait(comm_op))
			continue;
		vnpu_hccl_step(comm_op, n, rank, peer, bytes, product, i, &st);
		ticks = vnpu_sat_add(ticks, vnpu_model_hccl_step_ticks(p, link_mbps, &st));
	}
	return ticks;
}

/* vnpu_model_comm_ticks_link() over the product's own links. */
u64 vnpu_model_comm_ticks(const struct vnpu_product_desc *p, u32 comm_op, u32 ranks, u64 bytes)
{
	return vnpu_model_comm_ticks_link(p, 0, comm_op, ranks, bytes);
}

/* Data type classes of the cube and vector units. */
enum vnpu_dclass {
	VNPU_DC_FP16,	/* fp16, bf16 (and unknown types) */
	VNPU_DC_FP32,	/* cube: half rate unless HF32; vector: half rate */
	VNPU_DC_INT8,	/* int8, uint8, bool: cube twice the rate */
	VNPU_DC_INT32,	/* int16, int32, int64: integer cube counters, fp16 rate */
};

static u32 vnpu_dclass(u32 dtype)
{
	switch (dtype) {
	case VNPU_DT_FLOAT:
		return VNPU_DC_FP32;
	case VNPU_DT_INT8:
	case VNPU_DT_UINT8:
	case VNPU_DT_BOOL:
		return VNPU_DC_INT8;
	case VNPU_DT_INT16:
	case VNPU_DT_INT32:
	case VNPU_DT_INT64:
		return VNPU_DC_INT32;
	default:
		return VNPU_DC_FP16;
	}
}

/**
 * struct vnpu_side - the blocks of one task on one PMU side (internal)
 * @pmu: what one block did, kept in the output's counters.
 * @blocks: blocks on the side.
 * @cores: cores of the type the blocks run on.
 * @on_aiv: the blocks run on AI Vector Cores.
 * @vec_flops: vector work of one block.
 */
struct vnpu_side {
	struct vnpu_pmu_side *pmu;
	u32 blocks;
	u32 cores;
	bool on_aiv;
	u64 vec_flops;
};

/* Busy cycles of the pipes of one block, into s->pmu. */
static void vnpu_side_busy(const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
			   struct vnpu_side *s, u32 nsides)
{
	struct vnpu_pmu_side *b = s->pmu;
	u32 cls = vnpu_dclass(in->dtype);
	u32 crate = p->cube_flops_per_cycle;
	u32 vrate = p->vector_flops_per_cycle;
	u32 vhalf = vrate / 2 ? vrate / 2 : 1;
	u64 f, moves = 0;
	u32 share;

	/* Cube: fp16 rate, int8 twice, fp32 half unless HF32. */
	if (cls == VNPU_DC_INT8)
		crate *= 2;
	else if (cls == VNPU_DC_FP32 && !(in->flags & VNPU_TASK_F_HF32))
		crate /= 2;
	b->cc = vnpu_div_up(b->cube_flops, crate ? crate : 1);
	if (cls == VNPU_DC_INT8 || cls == VNPU_DC_INT32) {
		b->mac_int = b->cc;
		b->cube_int8 = vnpu_min(b->cc, vnpu_div_up(b->cube_flops, VNPU_CUBE_INT8_OPS));
	} else {
		b->mac_fp = b->cc;
		b->cube_fp16 = vnpu_min(b->cc, vnpu_div_up(b->cube_flops, VNPU_CUBE_FP16_OPS));
	}

	/* Vector: one instruction per cycle, lanes by type. */
	f = s->vec_flops;
	switch (cls) {
	case VNPU_DC_FP32:
		b->vec_fp32 = vnpu_div_up(f, vhalf);
		break;
	case VNPU_DC_INT32:
		b->vec_int32 = vnpu_div_up(f, vhalf);
		break;
	case VNPU_DC_INT8:
		b->vec_misc = vnpu_div_up(f, vrate);
		break;
	default:
		/* 1/16 of the work in 64-lane (tail) instructions */
		b->vec_fp16_128 = vnpu_div_up(f - f / 16, vrate);
		b->vec_fp16_64 = vnpu_div_up(f / 16, vhalf);
		break;
	}
	/* A unified core moves cube results L0C -> UB with the vector unit. */
	if (b->ub && b->cube_flops)
		moves = vnpu_div_up(b->wr, 256);
	b->vec_misc += moves;
	b->vc = b->vec_fp32 + b->vec_int32 + b->vec_misc + b->vec_fp16_128 + b->vec_fp16_64;

	/*
	 * Memory: this core's share of the device bandwidth, hbm / (cores *
	 * sides), in bytes per cycle: cycles = bytes * cores * sides *
	 * freq_khz / (hbm_mbps * 1000).
	 */
	share = s->cores * nsides * p->aic_freq_khz;
	b->mrd = vnpu_div_up(vnpu_mul_div(b->rd, share, p->hbm_bw_mbps, true), 1000);
	b->mwr = vnpu_div_up(vnpu_mul_div(b->wr, share, p->hbm_bw_mbps, true), 1000);
	b->busy = vnpu_max(vnpu_max(b->cc, b->vc), b->mrd + b->mwr);
}

/* The cycles of a block of @b's work, its busiest unit at its efficiency. */
static u64 vnpu_side_nominal(const struct vnpu_pmu_side *b)
{
	u64 cube = vnpu_mul_div(b->cc, 1000, VNPU_MODEL_CUBE_EFF, true);
	u64 vec = vnpu_mul_div(b->vc, 1000, VNPU_MODEL_VEC_EFF, true);
	u64 mem = vnpu_mul_div(b->mrd + b->mwr, 1000, VNPU_MODEL_MEM_EFF, true);

	return vnpu_max(cube, vnpu_max(vec, mem));
}

/*
 * Split @flops and @bytes of a task between its primary side and, for MIX
 * tasks, a secondary side: the secondary moves 1/4 of the bytes and does
 * a share of work on its own unit (vector: 1 FLOP per 2 bytes it moves;
 * cube: 1/8 of the flops).
 */
static void vnpu_side_work(struct vnpu_side *s, bool primary, bool cube, bool mix,
			   const struct vnpu_model_in *in)
{
	u64 flops = vnpu_min(in->flops, VNPU_MODEL_MAX_FLOPS);
	u64 bytes = vnpu_min(in->bytes, VNPU_MODEL_MAX_BYTES);
	u64 n = s->blocks;

	if (mix)
		bytes = primary ? bytes - bytes / 4 : bytes / 4;
	if (!primary)
		flops = cube ? flops / 8 : bytes / 2;
	if (cube)
		s->pmu->cube_flops = vnpu_div_up(flops, n);
	else
		s->vec_flops = vnpu_div_up(flops, n);
	/* cube work reads more than it writes; elementwise work 2:1 */
	if (cube) {
		s->pmu->rd = vnpu_div_up(bytes - bytes / 4, n);
		s->pmu->wr = vnpu_div_up(bytes / 4, n);
	} else {
		s->pmu->rd = vnpu_div_up(bytes - bytes / 3, n);
		s->pmu->wr = vnpu_div_up(bytes / 3, n);
	}
}

static void vnpu_model_aicpu(const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
			     struct vnpu_model_out *out, s64 ppm)
{
	u64 flops = vnpu_min(in->flops, VNPU_MODEL_MAX_FLOPS);
	u64 bytes = vnpu_min(in->bytes, VNPU_MODEL_MAX_BYTES);
	u64 work;

	/* flops / (AICPU_FLOPS / s) * sys_cnt_freq_khz * 1000 / s */
	work = vnpu_mul_div(flops, p->sys_cnt_freq_khz, VNPU_MODEL_AICPU_FLOPS / 1000, true);
	work = vnpu_sat_add(work, vnpu_mul_div(bytes, p->sys_cnt_freq_khz,
					       VNPU_MODEL_AICPU_BPS / 1000, true));
	out->launch_ticks = vnpu_jitter(vnpu_ns_to_ticks(p, VNPU_MODEL_AICPU_LAUNCH_NS), ppm);
	out->duration_ticks = vnpu_sat_add(out->launch_ticks, vnpu_jitter(work, ppm));
	out->aicpu_used = vnpu_min(in->block_num ? in->block_num : 1, p->aicpu_num);
}

/**
 * vnpu_model_task() - model the execution of one task
 * @p: the product.
 * @in: the task.
 * @out: out: duration, cores occupied and PMU counters.
 *
 * AI Core tasks: per block, compute cycles (flops / block_num at the
 * per-core rate of the unit and data type) and memory cycles (bytes /
 * block_num at the core's share of the main memory bandwidth) overlap:
 * block cycles = max(compute / its efficiency, memory / its efficiency) +
 * VNPU_MODEL_BLOCK_CYCLES, then the jitter (never below the busiest pipe +
 * half the overhead, so that every busy count stays within the block).
 * A cube task's waves last longer than their blocks
 * (VNPU_MODEL_CUBE_OCCUPANCY). Cores used = min(block_num, cores), waves = ceil(block_num /
 * cores); duration = launch + waves * block cycles, in system counter
 * ticks. The blocks of both sides of a MIX task run in lock-step.
 * AI CPU tasks run on one AI CPU at VNPU_MODEL_AICPU_FLOPS and
 * VNPU_MODEL_AICPU_BPS; COMMUNICATION tasks take vnpu_model_comm_ticks().
 * The result depends only on @p and @in.
 */
void vnpu_model_task(const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
		     struct vnpu_model_out *out)
{
	struct vnpu_counters *c = &out->ctr;
	struct vnpu_side sides[2] = { { .pmu = &c->aic }, { .pmu = &c->aiv } };
	struct vnpu_side *prim, *sec = NULL;
	bool split, cube, mix = false;
	u32 type, nsides, i;
	u64 cyc = 0, nominal = 0, waves = 0, ticks;
	s64 ppm;

	*out = (struct vnpu_model_out){ .duration_ticks = 0 };
	if (!p || !in)
		return;
	ppm = vnpu_jitter_ppm(in);
	type = in->task_type;
	if (type == VNPU_TASK_AI_CPU) {
		vnpu_model_aicpu(p, in, out, ppm);
		return;
	}
	if (type == VNPU_TASK_COMMUNICATION) {
		out->launch_ticks = vnpu_jitter(vnpu_ns_to_ticks(p, VNPU_MODEL_COMM_BASE_NS), ppm);
		out->duration_ticks = vnpu_jitter(vnpu_model_comm_ticks(p, in->comm_op,
									in->comm_ranks, in->bytes),
						  ppm);
		return;
	}

	split = vnpu_product_split(p);
	if (type >= VNPU_TASK_TYPE_COUNT)
		type = VNPU_TASK_AI_CORE;
	if (!split && type == VNPU_TASK_MIX_AIC)
		type = VNPU_TASK_AI_CORE;
	if (!split && type == VNPU_TASK_MIX_AIV)
		type = VNPU_TASK_AI_VECTOR_CORE;
	cube = type == VNPU_TASK_AI_CORE || type == VNPU_TASK_MIX_AIC;
	if (!split && type == VNPU_TASK_AI_CORE) {
		if (in->unit == VNPU_UNIT_AUTO)
			cube = in->flops &&
			       in->flops / 4 >= vnpu_min(in->bytes, VNPU_MODEL_MAX_BYTES);
		else
			cube = in->unit != VNPU_UNIT_VECTOR;
	}

	/* The primary side: AIC for cube work and on non-split products. */
	prim = &sides[split && !cube ? 1 : 0];
	prim->blocks = in->block_num ? in->block_num : 1;
	if (split) {
		prim->cores = cube ? p->aic_num : p->aiv_num;
		prim->on_aiv = !cube;
		prim->pmu->ub = !cube;
		prim->pmu->fixpipe = cube;
		if ((type == VNPU_TASK_MIX_AIC || type == VNPU_TASK_MIX_AIV) &&
		    in->mix_block_num) {
			mix = true;
			sec = &sides[cube ? 1 : 0];
			sec->blocks = in->mix_block_num;
			sec->cores = cube ? p->aiv_num : p->aic_num;
			sec->on_aiv = cube;
			sec->pmu->ub = cube;
			sec->pmu->fixpipe = !cube;
		}
	} else {
		prim->pmu->ub = true;
		prim->cores = p->aic_num;
		if (type == VNPU_TASK_AI_VECTOR_CORE && p->aiv_num) {
			prim->cores = p->aiv_num;
			prim->on_aiv = true;
		}
	}
	nsides = mix ? 2 : 1;
	vnpu_side_work(prim, true, cube, mix, in);
	if (sec)
		vnpu_side_work(sec, false, !cube, mix, in);

	/*
	 * Both sides run in lock-step: one block length for the task. Its
	 * busiest unit runs at its efficiency; the jitter moves the block
	 * both ways, never below that unit's own cycles.
	 */
	for (i = 0; i < nsides; i++) {
		struct vnpu_side *sd = i ? sec : prim;

		vnpu_side_busy(p, in, sd, nsides);
		cyc = vnpu_max(cyc, sd->pmu->busy);
		nominal = vnpu_max(nominal, vnpu_side_nominal(sd->pmu));
	}
	cyc = vnpu_max(vnpu_jitter(nominal + VNPU_MODEL_BLOCK_CYCLES, ppm),
		       cyc + VNPU_MODEL_BLOCK_CYCLES / 2);
	c->block_cycles = cyc;

	for (i = 0; i < nsides; i++) {
		struct vnpu_side *sd = i ? sec : prim;
		u64 w = vnpu_div_up(sd->blocks, sd->cores ? sd->cores : 1);
		u32 used = vnpu_min(sd->blocks, sd->cores);

		waves = vnpu_max(waves, w);
		if (sd == &sides[0]) {
			c->aic_total_cycles = cyc * sd->blocks;
			c->aic_blocks = sd->blocks;
			c->aic_core_num = sd->cores;
		} else {
			c->aiv_total_cycles = cyc * sd->blocks;
			c->aiv_blocks = sd->blocks;
			c->aiv_core_num = sd->cores;
		}
		/* the core type occupied, not the PMU side */
		if (sd->on_aiv)
			out->aiv_used = used;
		else
			out->aic_used = used;
	}

	out->launch_ticks = vnpu_jitter(vnpu_ns_to_ticks(p, VNPU_MODEL_LAUNCH_NS), ppm);
	ticks = vnpu_cycles_to_ticks(p, waves * cyc);
	if (cube)
		ticks = vnpu_mul_div(ticks, 1000, VNPU_MODEL_CUBE_OCCUPANCY, true);
	out->duration_ticks = vnpu_sat_add(out->launch_ticks, ticks);
}
