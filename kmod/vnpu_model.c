// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: product table, cost model and per-task PMU counter model.
 *
 * Pure integer logic shared by vnpu.ko and the host unit test: no floating
 * point, no library or kernel calls. Every multiply-then-divide goes
 * through vnpu_mul_div(), which cannot overflow and saturates instead.
 *
 * The timing model is a roofline per block: a block of a task runs on one
 * core for max(compute, memory) cycles plus a fixed overhead; the cores of
 * one type share the device's main memory bandwidth equally; blocks beyond
 * the core count run in further waves. The PMU counters are derived from
 * the same per-block quantities, so that every busy-cycle event of a block
 * is at most the block's cycles and every bandwidth stays under the
 * documented per-core peak (VNPU_PEAK_* in vnpu_model.h).
 */
#include "vnpu_model.h"

#define VNPU_U64_MAX (~0ULL)
#define VNPU_PPM 1000000U

/*
 * The product table. Public figures: chip ids, npu_arch, system counter
 * frequencies (msprof collector), 910B 24 AIC + 48 AIV, 910A 32 AI Cores
 * at 1 GHz (256 TFLOPS fp16) and 1.2 TB/s HBM, 910B 1.6 TB/s HBM, 310P
 * 8 AI Cores + 7 Vector Cores and 204.8 GB/s LPDDR4X (Atlas 300I Pro),
 * 310B 51.2 GB/s LPDDR4X (Atlas 200I A2), HCCS 56 GB/s per 910B peer and
 * 30 GB/s per 910A link, the 16x16x16 cube (8192 FLOP/cycle fp16, twice
 * that int8) and the 256-byte vector unit (128 fp16 lanes).
 * Chosen: the clocks (910B 1.8 GHz: 354 TFLOPS fp16; 310P 1.08 GHz: 70.8
 * TFLOPS fp16 / 141 TOPS int8 as the Atlas 300I Pro; 310B 1.25 GHz: 20.5
 * TOPS int8 as the Atlas 200I/500 A2, with 1 AIC + 1 AIV), the AI CPU
 * counts, every figure of the A3 die (taken as one 910B-class die with a
 * faster fabric) and of the 950 (32 AIC + 64 AIV at 1.9 GHz: ~500 TFLOPS
 * fp16, 1.4 TB/s), and the link bandwidths of the A3 (196 GB/s), 950
 * (500 GB/s), 310B (2 GB/s) and 310P (16 GB/s, PCIe).
 */
#define VNPU_MG(g) (1U << (g))
#define VNPU_MG_BASE (VNPU_MG(VNPU_METRIC_ARITHMETIC_UTILIZATION) |	\
		      VNPU_MG(VNPU_METRIC_PIPE_UTILIZATION) |		\
		      VNPU_MG(VNPU_METRIC_MEMORY) |			\
		      VNPU_MG(VNPU_METRIC_MEMORY_L0) |			\
		      VNPU_MG(VNPU_METRIC_RESOURCE_CONFLICT_RATIO) |	\
		      VNPU_MG(VNPU_METRIC_MEMORY_UB))
#define VNPU_CAPS_STARS (VNPU_CAP_SPLIT_AIC_AIV | VNPU_CAP_STARS)

static const struct vnpu_product_desc vnpu_products[VNPU_PRODUCT_COUNT] = {
	[VNPU_PRODUCT_A2] = {
		.key = "a2",
		.name = "Atlas A2 training",
		.chip_name = "Ascend910B",
		.chip_id = 5,
		.npu_arch = 2201,
		.aic_num = 24,
		.aiv_num = 48,
		.aicpu_num = 6,
		.aic_freq_khz = 1800000,
		.sys_cnt_freq_khz = 50000,
		.hbm_bw_mbps = 1600000,
		/* HCCS as a real 910B's collectives see it: 18-21 GB/s algbw */
		.link_bw_mbps = 20500,
		.caps = VNPU_CAPS_STARS | VNPU_CAP_SCOPED_PROFILING,
		.metric_groups = VNPU_MG_BASE | VNPU_MG(VNPU_METRIC_L2_CACHE) |
				 VNPU_MG(VNPU_METRIC_MEMORY_ACCESS),
		.default_group = VNPU_METRIC_PIPE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
	[VNPU_PRODUCT_A3] = {
		.key = "a3",
		.name = "Atlas A3",
		.chip_name = "Ascend910_93",
		.chip_id = 5,
		.npu_arch = 2201,
		.aic_num = 24,
		.aiv_num = 48,
		.aicpu_num = 6,
		.aic_freq_khz = 1800000,
		.sys_cnt_freq_khz = 50000,
		.hbm_bw_mbps = 1600000,
		.link_bw_mbps = 196000,
		.caps = VNPU_CAPS_STARS | VNPU_CAP_SCOPED_PROFILING,
		.metric_groups = VNPU_MG_BASE | VNPU_MG(VNPU_METRIC_L2_CACHE) |
				 VNPU_MG(VNPU_METRIC_MEMORY_ACCESS),
		.default_group = VNPU_METRIC_PIPE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
	[VNPU_PRODUCT_350] = {
		.key = "350",
		.name = "Atlas 350",
		.chip_name = "Ascend950",
		.chip_id = 15,
		.npu_arch = 3510,
		.aic_num = 32,
		.aiv_num = 64,
		.aicpu_num = 8,
		.aic_freq_khz = 1900000,
		.sys_cnt_freq_khz = 1000000,
		.hbm_bw_mbps = 1400000,
		.link_bw_mbps = 500000,
		.caps = VNPU_CAPS_STARS | VNPU_CAP_SCOPED_PROFILING,
		.metric_groups = VNPU_MG_BASE,
		.default_group = VNPU_METRIC_PIPE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
	[VNPU_PRODUCT_910] = {
		.key = "910",
		.name = "Atlas training series",
		.chip_name = "Ascend910A",
		.chip_id = 1,
		.npu_arch = 1001,
		.aic_num = 32,
		.aiv_num = 0,
		.aicpu_num = 14,
		.aic_freq_khz = 1000000,
		.sys_cnt_freq_khz = 100000,
		.hbm_bw_mbps = 1200000,
		.link_bw_mbps = 30000,
		.caps = VNPU_CAP_SCOPED_PROFILING,
		.metric_groups = VNPU_MG_BASE,
		.default_group = VNPU_METRIC_PIPE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
	[VNPU_PRODUCT_200I_A2] = {
		.key = "200i-a2",
		.name = "Atlas 200I/500 A2",
		.chip_name = "Ascend310B",
		.chip_id = 7,
		.npu_arch = 3002,
		.aic_num = 1,
		.aiv_num = 1,
		.aicpu_num = 1,
		.aic_freq_khz = 1250000,
		.sys_cnt_freq_khz = 48000,
		.hbm_bw_mbps = 51200,
		.link_bw_mbps = 2000,
		.caps = VNPU_CAPS_STARS,
		.metric_groups = VNPU_MG_BASE | VNPU_MG(VNPU_METRIC_L2_CACHE) |
				 VNPU_MG(VNPU_METRIC_PIPE_EXECUTE_UTILIZATION),
		.default_group = VNPU_METRIC_PIPE_EXECUTE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
	[VNPU_PRODUCT_310P] = {
		.key = "310p",
		.name = "Atlas inference series",
		.chip_name = "Ascend310P",
		.chip_id = 4,
		.npu_arch = 2002,
		.aic_num = 8,
		.aiv_num = 7,
		.aicpu_num = 4,
		.aic_freq_khz = 1080000,
		.sys_cnt_freq_khz = 38400,
		.hbm_bw_mbps = 204800,
		.link_bw_mbps = 16000,
		.caps = 0,
		.metric_groups = VNPU_MG_BASE,
		.default_group = VNPU_METRIC_PIPE_UTILIZATION,
		.cube_flops_per_cycle = VNPU_CUBE_FP16_OPS,
		.vector_flops_per_cycle = 128,
	},
};

/* The enum vnpu_product_id of @p, one of vnpu_products. */
u32 vnpu_product_id(const struct vnpu_product_desc *p)
{
	return (u32)(p - vnpu_products);
}

/**
 * vnpu_product_get() - the table entry of a product
 * @id: enum vnpu_product.
 *
 * Return: the entry, or NULL when @id is out of range.
 */
const struct vnpu_product_desc *vnpu_product_get(u32 id)
{
	if (id >= VNPU_PRODUCT_COUNT)
		return NULL;
	return &vnpu_products[id];
}

/**
 * vnpu_product_find() - look a product up by its module parameter key
 * @key: e.g. "a2"; one trailing newline (a sysfs write) is ignored.
 *
 * Return: the enum vnpu_product value, or -1 when no product matches.
 */
int vnpu_product_find(const char *key)
{
	u32 id, i;

	if (!key)
		return -1;
	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const char *k = vnpu_products[id].key;

		for (i = 0; k[i] && key[i] == k[i]; i++)
			;
		if (k[i])
			continue;
		if (!key[i] || (key[i] == '\n' && !key[i + 1]))
			return id;
	}
	return -1;
}

static bool vnpu_split(const struct vnpu_product_desc *p)
{
	return p->caps & VNPU_CAP_SPLIT_AIC_AIV;
}

/**
 * vnpu_product_cube_flops() - peak fp16 cube throughput of the device
 * @p: the product.
 *
 * Return: FLOP/s of all cube units together.
 */
u64 vnpu_product_cube_flops(const struct vnpu_product_desc *p)
{
	return (u64)p->cube_flops_per_cycle * p->aic_num * p->aic_freq_khz * 1000;
}

/**
 * vnpu_product_vector_flops() - peak fp16 vector throughput of the device
 * @p: the product.
 *
 * The vector units are those of the AI Vector Cores, plus those of the
 * unified AI Cores on products without VNPU_CAP_SPLIT_AIC_AIV.
 *
 * Return: FLOP/s of all vector units together.
 */
u64 vnpu_product_vector_flops(const struct vnpu_product_desc *p)
{
	u64 units = p->aiv_num;

	if (!vnpu_split(p))
		units += p->aic_num;
	return units * p->vector_flops_per_cycle * p->aic_freq_khz * 1000;
}

static u64 vnpu_sat_add(u64 a, u64 b)
{
	return a + b < a ? VNPU_U64_MAX : a + b;
}

/*
 * a * b / c, rounded down or up, without overflow: with a = q * c + r,
 * r * b < c * b < 2^64. Saturates when the result does not fit.
 */
static u64 vnpu_mul_div(u64 a, u32 b, u32 c, bool up)
{
	u64 q, r, lo;

	if (!c)
		return VNPU_U64_MAX;
	q = a / c;
	r = a % c;
	if (q && b > VNPU_U64_MAX / q)
		return VNPU_U64_MAX;
	lo = r * b;
	lo = up ? (lo + c - 1) / c : lo / c;
	return vnpu_sat_add(q * b, lo);
}

static u64 vnpu_div_up(u64 a, u64 b)
{
	return b ? a / b + (a % b != 0) : 0;
}

static u64 vnpu_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

static u64 vnpu_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

/**
 * vnpu_ns_to_ticks() - nanoseconds to system counter ticks
 * @p: the product.
 * @ns: nanoseconds.
 *
 * Return: ticks of @p's system counter, rounded up.
 */
u64 vnpu_ns_to_ticks(const struct vnpu_product_desc *p, u64 ns)
{
	return vnpu_mul_div(ns, p->sys_cnt_freq_khz, VNPU_PPM, true);
}

static u64 vnpu_cycles_to_ticks(const struct vnpu_product_desc *p, u64 cycles)
{
	return vnpu_mul_div(cycles, p->sys_cnt_freq_khz, p->aic_freq_khz, true);
}

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
	if (aiv && !vnpu_split(p))
		return 0;
	g = &vnpu_groups[group];
	if (group == VNPU_METRIC_PIPE_UTILIZATION && !aiv && p->chip_id == 5)
		g = &vnpu_pu_exct;
	if (group == VNPU_METRIC_MEMORY_UB && p->chip_id == 7)
		g = &vnpu_ub_v11;
	for (i = 0; i < g->n; i++)
		ids[i] = g->ids[i];
	return g->n;
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
	if (!c || slot >= VNPU_S_COUNT)
		return 0;
	if (aiv)
		return c->aiv_blocks ?
		       vnpu_side_event(&c->aiv, slot, c->block_cycles) * c->aiv_blocks : 0;
	return c->aic_blocks ? vnpu_side_event(&c->aic, slot, c->block_cycles) * c->aic_blocks : 0;
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

	split = vnpu_split(p);
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
