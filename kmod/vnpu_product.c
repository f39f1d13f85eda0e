// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the product table, and the conversions that depend only on it.
 */
#include "vnpu_math.h"
#include "vnpu_product.h"

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
		.features = VNPU_PF_FFTS_PLUS | VNPU_PF_PIPE_EXCT,
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
		.features = VNPU_PF_FFTS_PLUS | VNPU_PF_PIPE_EXCT,
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
		.features = VNPU_PF_V6,
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
		.features = VNPU_PF_UB_V11,
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

	if (!vnpu_product_split(p))
		units += p->aic_num;
	return units * p->vector_flops_per_cycle * p->aic_freq_khz * 1000;
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

/* AI Core cycles to system counter ticks, rounded up. */
u64 vnpu_cycles_to_ticks(const struct vnpu_product_desc *p, u64 cycles)
{
	return vnpu_mul_div(cycles, p->sys_cnt_freq_khz, p->aic_freq_khz, true);
}
