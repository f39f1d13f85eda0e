/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the product table, the facts of each modelled Ascend product.
 *
 * Pure integer logic, no kernel or libc calls: the product table, the cost
 * model (vnpu_cost.c) and the PMU model (vnpu_pmu.c) are built into vnpu.ko
 * and into the host unit test (tests/host/test_model.c).
 *
 * Units: durations are in system counter ticks of the product
 * (sys_cnt_freq_khz), core work in AI Core clock cycles (aic_freq_khz),
 * bandwidths in MB/s (10^6 B/s), compute rates in FLOP per core cycle.
 */
#ifndef _VNPU_PRODUCT_H
#define _VNPU_PRODUCT_H

#ifdef __KERNEL__
#include <linux/kernel.h>
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
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#include "vnpu.h"

/* Cube FLOP of one fp16 / int8 cube instruction (the cube_fops formula). */
#define VNPU_CUBE_FP16_OPS (16 * 16 * 16 * 2)
#define VNPU_CUBE_INT8_OPS (16 * 16 * 32 * 2)

/*
 * vnpu_product_desc.features: chip 5's FFTS+ (a MIX task's FFTS+ logs and
 * block PMU records, as msprof's SubTaskCalculator reads them on that chip
 * alone) and its AIC PipeUtilization list (PipeUtilizationExct); chip 7's
 * UB counters with new ids (MemoryUB); chip 15's own v6 records (32 B
 * ACSQ logs, 32-bit task ids unique on the device, no flips, v6 PMU
 * records).
 */
#define VNPU_PF_FFTS_PLUS	_BITUL(0)
#define VNPU_PF_PIPE_EXCT	_BITUL(1)
#define VNPU_PF_UB_V11		_BITUL(2)
#define VNPU_PF_V6		_BITUL(3)

/* The bit of enum vnpu_metric_group @g in vnpu_product_desc.metric_groups. */
#define VNPU_MG(g) (1U << (g))

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
 * @features: VNPU_PF_*: what the chip's records and event lists do
 *            differently, beyond what the uapi's @caps says.
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
	u32 features;
	u32 metric_groups;
	u32 default_group;
	u32 cube_flops_per_cycle;
	u32 vector_flops_per_cycle;
};

/* Cube and vector cores apart (AIC and AIV), each with its PMU side. */
static inline bool vnpu_product_split(const struct vnpu_product_desc *p)
{
	return p->caps & VNPU_CAP_SPLIT_AIC_AIV;
}

const struct vnpu_product_desc *vnpu_product_get(u32 id);
u32 vnpu_product_id(const struct vnpu_product_desc *p);
int vnpu_product_find(const char *key);
u64 vnpu_product_cube_flops(const struct vnpu_product_desc *p);
u64 vnpu_product_vector_flops(const struct vnpu_product_desc *p);
u64 vnpu_ns_to_ticks(const struct vnpu_product_desc *p, u64 ns);
u64 vnpu_cycles_to_ticks(const struct vnpu_product_desc *p, u64 cycles);

#endif /* _VNPU_PRODUCT_H */
