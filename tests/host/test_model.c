// SPDX-License-Identifier: GPL-2.0
/*
 * The product table, cost model and PMU counter model (kmod/vnpu_product.c,
 * vnpu_cost.c and vnpu_pmu.c), checked on the host: table facts against the reference, event lists
 * against the collector's, and for a grid of tasks on every product the
 * properties the profiler relies on (ratios in [0, 1], bandwidths under
 * their peaks, aicore_time within the task, determinism, bounded jitter).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "vnpu_cost.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Expected table facts (reference section 3 and 1.6, and the brief). */
static const char *const keys[VNPU_PRODUCT_COUNT] = { "a2", "a3", "350", "910", "200i-a2", "310p" };
static const char *const names[VNPU_PRODUCT_COUNT] = {
	"Atlas A2 training",	 "Atlas A3",	      "Atlas 350",
	"Atlas training series", "Atlas 200I/500 A2", "Atlas inference series"
};
static const char *const chips[VNPU_PRODUCT_COUNT] = { "Ascend910B", "Ascend910_93", "Ascend950",
						       "Ascend910A", "Ascend310B",   "Ascend310P" };
static const unsigned int chip_ids[VNPU_PRODUCT_COUNT] = { 5, 5, 15, 1, 7, 4 };
static const unsigned int archs[VNPU_PRODUCT_COUNT] = { 2201, 2201, 3510, 1001, 3002, 2002 };
static const unsigned int sys_khz[VNPU_PRODUCT_COUNT] = { 50000,  50000, 1000000,
							  100000, 48000, 38400 };
static const bool split[VNPU_PRODUCT_COUNT] = { true, true, true, false, true, false };
static const bool scoped[VNPU_PRODUCT_COUNT] = { true, true, true, true, false, false };

#define G(x) (1u << VNPU_METRIC_##x)
#define ALL_GROUPS ((1u << VNPU_METRIC_COUNT) - 1)
static const unsigned int groups[VNPU_PRODUCT_COUNT] = {
	ALL_GROUPS & ~G(PIPE_EXECUTE_UTILIZATION),
	ALL_GROUPS & ~G(PIPE_EXECUTE_UTILIZATION),
	ALL_GROUPS & ~(G(L2_CACHE) | G(PIPE_EXECUTE_UTILIZATION) | G(MEMORY_ACCESS)),
	ALL_GROUPS & ~(G(L2_CACHE) | G(PIPE_EXECUTE_UTILIZATION) | G(MEMORY_ACCESS)),
	ALL_GROUPS & ~G(MEMORY_ACCESS),
	ALL_GROUPS & ~(G(L2_CACHE) | G(PIPE_EXECUTE_UTILIZATION) | G(MEMORY_ACCESS)),
};

/* The collector's event lists, zero-terminated. */
static const unsigned int ref_events[VNPU_METRIC_COUNT][11] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f },
	[VNPU_METRIC_PIPE_UTILIZATION] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 },
	[VNPU_METRIC_MEMORY] = { 0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13 },
	[VNPU_METRIC_MEMORY_L0] = { 0x1b, 0x1c, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { 0x64, 0x65, 0x66 },
	[VNPU_METRIC_MEMORY_UB] = { 0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44 },
	[VNPU_METRIC_L2_CACHE] = { 0x500, 0x502, 0x504, 0x506, 0x508, 0x50a },
	[VNPU_METRIC_PIPE_EXECUTE_UTILIZATION] = { 0x12c, 0x49, 0x4a, 0x9, 0x302, 0xc, 0xd, 0x303 },
	[VNPU_METRIC_MEMORY_ACCESS] = { 0x32, 0x3d, 0x3e, 0x206, 0x20c, 0x50c, 0x50d, 0x50e },
};
static const unsigned int ref_pu_exct[9] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };
/* chip 15's own lists (msprof's collector, DavidV121Platform) */
static const unsigned int ref_v6[VNPU_METRIC_COUNT][11] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { 0x323, 0x324 },
	[VNPU_METRIC_PIPE_UTILIZATION] = { 0x501, 0x301, 0x1, 0x701, 0x202, 0x203, 0x34, 0x35,
					   0x714 },
	[VNPU_METRIC_MEMORY] = { 0x400, 0x401, 0x56f, 0x571, 0x570, 0x572, 0x707, 0x709 },
	[VNPU_METRIC_MEMORY_L0] = { 0x304, 0x703, 0x306, 0x705, 0x712, 0x30a, 0x308 },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { 0x540, 0x556, 0x502, 0x528 },
	[VNPU_METRIC_MEMORY_UB] = { 0x3, 0x5, 0x70c, 0x206, 0x204, 0x571, 0x572 },
	[VNPU_METRIC_L2_CACHE] = { 0x424, 0x425, 0x426, 0x42a, 0x42b, 0x42c },
};
/* chip 7's MemoryUB: its UB counters have other ids (msconfig/ai_core_config.py) */
static const unsigned int ref_ub_v11[9] = { 0x37, 0x38, 0x1a5, 0x1a6, 0x17f, 0x180, 0x191 };

/* Busy-cycle events: each at most the side's total cycles. */
static const unsigned int busy_events[] = { 0x8,   0x9,	 0xa,  0xb,  0xc,   0xd,   0x302,
					    0x303, 0x49, 0x4a, 0x4b, 0x4c,  0x4d,  0x4e,
					    0x4f,  0x64, 0x65, 0x66, 0x12c, 0x416, 0x417 };

/* Bandwidth events: pipe bits x scalar of the reference formula, peak B/cycle. */
static const struct {
	unsigned int id, pipe, scalar, peak;
} bw_events[] = {
	{ 0x15, 256, 4, VNPU_PEAK_UB_READ },   { 0x16, 256, 4, VNPU_PEAK_UB_WRITE },
	{ 0x31, 256, 16, VNPU_PEAK_L1_READ },  { 0x32, 128, 8, VNPU_PEAK_L1_WRITE },
	{ 0xf, 256, 8, VNPU_PEAK_L2 },	       { 0x10, 256, 8, VNPU_PEAK_L2 },
	{ 0x1b, 256, 16, VNPU_PEAK_L0A },      { 0x1c, 256, 16, VNPU_PEAK_L0A },
	{ 0x21, 256, 8, VNPU_PEAK_L0B },       { 0x22, 256, 8, VNPU_PEAK_L0B },
	{ 0x27, 256, 8, VNPU_PEAK_L0C_VEC },   { 0x29, 256, 8, VNPU_PEAK_L0C_VEC },
	{ 0x28, 256, 32, VNPU_PEAK_L0C_CUBE }, { 0x2a, 256, 32, VNPU_PEAK_L0C_CUBE },
	{ 0x43, 128, 2, VNPU_PEAK_UB_VEC },    { 0x44, 128, 2, VNPU_PEAK_UB_VEC },
	{ 0x37, 128, 1, VNPU_PEAK_UB_SCALAR }, { 0x38, 128, 1, VNPU_PEAK_UB_SCALAR },
};

#define CHK(cond)                                             \
	do {                                                  \
		if (!(cond)) {                                \
			TH_LOG("%s: failed: %s", ctx, #cond); \
			ASSERT_TRUE(0);                       \
		}                                             \
	} while (0)

static double absd(double x)
{
	return x < 0 ? -x : x;
}

static double maxd(double a, double b)
{
	return a > b ? a : b;
}

#define EXPECT_NEAR(expected, seen, tol)                         \
	do {                                                     \
		double e_ = (expected), s_ = (seen), t_ = (tol); \
		if (absd(e_ - s_) > t_) {                        \
			TH_LOG("expected %s = %g, seen %s = %g, tolerance %g", #expected, e_, #seen, \
			       s_, t_);                   \
			EXPECT_TRUE(0);                          \
		}                                                \
	} while (0)

static double hz(const struct vnpu_product_desc *p)
{
	return p->aic_freq_khz * 1000.0;
}

static double dur_s(const struct vnpu_product_desc *p, const struct vnpu_model_out *o)
{
	return (double)o->duration_ticks / (p->sys_cnt_freq_khz * 1000.0);
}

static u64 rd(const struct vnpu_model_out *o, bool aiv, unsigned int id)
{
	return vnpu_pmu_read(&o->ctr, aiv, id);
}

static double ratio(const struct vnpu_model_out *o, bool aiv, unsigned int id)
{
	u64 total = aiv ? o->ctr.aiv_total_cycles : o->ctr.aic_total_cycles;

	return total ? (double)rd(o, aiv, id) / total : 0;
}

static double mac_ratio(const struct vnpu_product_desc *p, const struct vnpu_model_out *o, bool aiv)
{
	if (p->chip_id == 5 && !aiv)
		return ratio(o, aiv, 0x416) + ratio(o, aiv, 0x417);
	return ratio(o, aiv, 0xa);
}

static struct vnpu_model_in matmul(u32 type, u32 blocks, u32 dtype, double m, double n, double k)
{
	double esize = dtype == VNPU_DT_FLOAT ? 4 : dtype == VNPU_DT_INT8 ? 1 : 2;

	return (struct vnpu_model_in){ .task_type = type,
				       .block_num = blocks,
				       .dtype = dtype,
				       .flops = (u64)(2 * m * n * k),
				       .bytes = (u64)((m * k + k * n + m * n) * esize) };
}

static struct vnpu_model_in add(u32 type, u32 blocks, u32 dtype, u64 elems)
{
	return (struct vnpu_model_in){ .task_type = type,
				       .block_num = blocks,
				       .dtype = dtype,
				       .flops = elems,
				       .bytes = 12 * elems };
}

/* Checks of one PMU side of a modelled task. */
static void check_side(struct __test_metadata *_metadata, const char *ctx,
		       const struct vnpu_product_desc *p, const struct vnpu_model_out *o, bool aiv)
{
	const struct vnpu_counters *c = &o->ctr;
	u64 total = aiv ? c->aiv_total_cycles : c->aic_total_cycles;
	u32 blocks = aiv ? c->aiv_blocks : c->aic_blocks;
	u32 cores = aiv ? c->aiv_core_num : c->aic_core_num;
	double f = hz(p), aicore_time, main_bytes;
	unsigned int i;

	if (!blocks) {
		CHK(total == 0);
		for (i = 0; i < VNPU_PMU_SLOTS; i++)
			CHK(rd(o, aiv, vnpu_pmu_event(i)) == 0);
		return;
	}
	CHK(total > 0);
	CHK(cores > 0);
	for (i = 0; i < ARRAY_LEN(busy_events); i++)
		CHK(rd(o, aiv, busy_events[i]) <= total);
	CHK(rd(o, aiv, 0x416) + rd(o, aiv, 0x417) <= total);
	CHK(rd(o, aiv, 0x416) + rd(o, aiv, 0x417) == rd(o, aiv, 0xa));
	CHK(rd(o, aiv, 0x49) <= rd(o, aiv, 0x416));
	CHK(rd(o, aiv, 0x4a) <= rd(o, aiv, 0x417));
	CHK(rd(o, aiv, 0x4b) + rd(o, aiv, 0x4c) + rd(o, aiv, 0x4d) + rd(o, aiv, 0x4e) +
		    rd(o, aiv, 0x4f) ==
	    rd(o, aiv, 0x8));
	CHK(rd(o, aiv, 0x12c) <= rd(o, aiv, 0x8));
	CHK(rd(o, aiv, 0x302) == rd(o, aiv, 0xb));
	CHK(rd(o, aiv, 0x55) <= rd(o, aiv, 0x54));
	CHK(rd(o, aiv, 0x54) > 0);
	if (aiv) {
		/* the AIV has no cube, no L1, no L0 */
		CHK(rd(o, aiv, 0xa) == 0);
		CHK(mac_ratio(p, o, aiv) == 0);
		CHK(rd(o, aiv, 0x31) == 0);
		CHK(rd(o, aiv, 0x1b) == 0);
		CHK(rd(o, aiv, 0x2a) == 0);
	}

	/* L2: hits + misses are the requests; misses are the main memory traffic */
	CHK(rd(o, aiv, 0x504) + rd(o, aiv, 0x506) + rd(o, aiv, 0x508) + rd(o, aiv, 0x50a) ==
	    rd(o, aiv, 0xf));
	CHK(rd(o, aiv, 0x500) + rd(o, aiv, 0x502) == rd(o, aiv, 0x10));
	CHK(rd(o, aiv, 0x12) * 8 == (rd(o, aiv, 0x506) + rd(o, aiv, 0x50a)) * 256);
	CHK(rd(o, aiv, 0x13) * 8 == rd(o, aiv, 0x502) * 256);
	/* MemoryAccess differences are not negative */
	CHK(rd(o, aiv, 0x32) >= rd(o, aiv, 0x206));
	CHK(rd(o, aiv, 0x20c) >= rd(o, aiv, 0x206));

	/* bandwidths, reference formula with total_cycles: per-core average */
	for (i = 0; i < ARRAY_LEN(bw_events); i++) {
		double gibs = (double)rd(o, aiv, bw_events[i].id) * bw_events[i].pipe *
			      bw_events[i].scalar / (total / f) / 8589934592.0;
		double peak = bw_events[i].peak * f / 1073741824.0;

		if (gibs > peak * (1 + 1e-9)) {
			TH_LOG("%s: event 0x%x: %.3f GiB/s > peak %.3f", ctx, bw_events[i].id,
			       gibs, peak);
			ASSERT_TRUE(0);
		}
	}
	main_bytes = (double)(rd(o, aiv, 0x12) + rd(o, aiv, 0x13)) * 8;
	CHK(main_bytes / (total / f) <= p->hbm_bw_mbps * 1e6);

	/* aicore_time within the task; whole-task main memory bandwidth */
	aicore_time = total / f / blocks * ((blocks + cores - 1) / cores);
	CHK(aicore_time <= dur_s(p, o));
	CHK(main_bytes / aicore_time <= p->hbm_bw_mbps * 1e6 * (1 + 1e-9));
}

/* Checks of a modelled AI Core task. */
static void check_task(struct __test_metadata *_metadata, const char *ctx,
		       const struct vnpu_product_desc *p, const struct vnpu_model_in *in,
		       const struct vnpu_model_out *o)
{
	const struct vnpu_counters *c = &o->ctr;
	double util, l2_bw, main_bw = 0;

	CHK(o->duration_ticks > o->launch_ticks);
	CHK(o->launch_ticks > 0);
	CHK(o->aicpu_used == 0);
	CHK(o->aic_used <= p->aic_num);
	CHK(o->aiv_used <= p->aiv_num);
	CHK(o->aic_used + o->aiv_used > 0);
	CHK(c->aic_blocks + c->aiv_blocks > 0);
	if (!(p->caps & VNPU_CAP_SPLIT_AIC_AIV)) {
		CHK(c->aiv_blocks == 0);
		CHK(c->aiv_total_cycles == 0);
	}
	/* occupied cores: min(blocks, cores) of each side */
	CHK(o->aic_used + o->aiv_used ==
	    (c->aic_blocks < c->aic_core_num ? c->aic_blocks : c->aic_core_num) +
		    (c->aiv_blocks < c->aiv_core_num ? c->aiv_blocks : c->aiv_core_num));
	check_side(_metadata, ctx, p, o, false);
	check_side(_metadata, ctx, p, o, true);

	/* cube_utilization(%) in [0, 100] */
	util = c->aic_total_cycles / (hz(p) * p->aic_num) * 100 / (dur_s(p, o) * 1e6);
	CHK(util >= 0 && util <= 100);

	/* both sides of a MIX task together stay under the HBM bandwidth */
	main_bw += (rd(o, false, 0x12) + rd(o, false, 0x13)) * 8.0 / dur_s(p, o);
	main_bw += (rd(o, true, 0x12) + rd(o, true, 0x13)) * 8.0 / dur_s(p, o);
	CHK(main_bw <= p->hbm_bw_mbps * 1e6);
	/* so does all their traffic through L2 (timing charges it at the HBM share) */
	l2_bw = (rd(o, false, 0xf) + rd(o, false, 0x10) + rd(o, true, 0xf) + rd(o, true, 0x10)) *
		256.0 / dur_s(p, o);
	CHK(l2_bw <= p->hbm_bw_mbps * 1e6);

	/* the cube side counts the cube work: cube_fops formula */
	if (in->task_type == VNPU_TASK_AI_CORE && rd(o, false, 0xa)) {
		double fops = rd(o, false, 0x49) * 8192.0 + rd(o, false, 0x4a) * 16384.0;

		CHK(fops >= (double)in->flops);
		CHK(fops <= (double)in->flops + 16384.0 * c->aic_blocks);
	}
}

TEST(product_table)
{
	unsigned int id, i;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);
		bool is_split;

		ASSERT_NE(NULL, p);
		TH_LOG("%s: %s %s aic %u aiv %u aicpu %u %u MHz cube %.1f TFLOPS vec %.1f TFLOPS "
		       "hbm %u GB/s link %u GB/s",
		       p->key, p->name, p->chip_name, p->aic_num, p->aiv_num, p->aicpu_num,
		       p->aic_freq_khz / 1000, vnpu_product_cube_flops(p) / 1e12,
		       vnpu_product_vector_flops(p) / 1e12, p->hbm_bw_mbps / 1000,
		       p->link_bw_mbps / 1000);
		EXPECT_STREQ(keys[id], p->key);
		EXPECT_STREQ(names[id], p->name);
		EXPECT_STREQ(chips[id], p->chip_name);
		EXPECT_LT(strlen(p->name), VNPU_NAME_LEN);
		EXPECT_LT(strlen(p->chip_name), VNPU_NAME_LEN);
		EXPECT_EQ(chip_ids[id], p->chip_id);
		EXPECT_EQ(archs[id], p->npu_arch);
		EXPECT_EQ(sys_khz[id], p->sys_cnt_freq_khz);
		is_split = p->caps & VNPU_CAP_SPLIT_AIC_AIV;
		EXPECT_EQ(split[id], is_split);
		EXPECT_EQ(split[id], !!(p->caps & VNPU_CAP_STARS));
		EXPECT_EQ(scoped[id], !!(p->caps & VNPU_CAP_SCOPED_PROFILING));
		EXPECT_EQ(0, p->caps & ~(VNPU_CAP_SPLIT_AIC_AIV | VNPU_CAP_STARS |
					 VNPU_CAP_SCOPED_PROFILING));
		EXPECT_EQ(groups[id], p->metric_groups);
		/* an L1 session naming no group programs msprof's collector default */
		EXPECT_EQ(chip_ids[id] == 7 ? VNPU_METRIC_PIPE_EXECUTE_UTILIZATION
					    : VNPU_METRIC_PIPE_UTILIZATION,
			  p->default_group);
		EXPECT_NE(0, p->metric_groups & (1u << p->default_group));

		EXPECT_GT(p->aic_num, 0);
		EXPECT_GT(p->aicpu_num, 0);
		EXPECT_GT(p->aic_freq_khz, p->sys_cnt_freq_khz);
		EXPECT_GT(p->hbm_bw_mbps, 0);
		EXPECT_GT(p->link_bw_mbps, 0);
		/* aiv_num is 0 only where AIC and AIV are not split */
		if (is_split)
			EXPECT_GT(p->aiv_num, 0);
		if (!p->aiv_num)
			EXPECT_FALSE(is_split);
		/* the cube_fops / vector_fops constants of the formulas */
		EXPECT_EQ(VNPU_CUBE_FP16_OPS, p->cube_flops_per_cycle);
		EXPECT_EQ(128, p->vector_flops_per_cycle);
		/* peaks: cube 1 .. 1000 TFLOPS, vector well below the cube */
		EXPECT_GT(vnpu_product_cube_flops(p), 1000000000000ull);
		EXPECT_LT(vnpu_product_cube_flops(p), 1000000000000000ull);
		EXPECT_LT(vnpu_product_vector_flops(p) * 8, vnpu_product_cube_flops(p));
		/*
		 * The model's memory share fits its u32 arithmetic and each
		 * core's share is below 64 B/cycle (the VNPU_PEAK_* bounds).
		 */
		EXPECT_LT((u64)(p->aic_num > p->aiv_num ? p->aic_num : p->aiv_num) * 2 *
				  p->aic_freq_khz,
			  1ull << 32);
		EXPECT_LT(p->hbm_bw_mbps * 1000.0 / p->aic_num / p->aic_freq_khz, 64);
		if (p->aiv_num)
			EXPECT_LT(p->hbm_bw_mbps * 1000.0 / p->aiv_num / p->aic_freq_khz, 64);
		/* distinct keys */
		for (i = 0; i < id; i++)
			EXPECT_STRNE(vnpu_product_get(i)->key, p->key);
	}
	EXPECT_EQ(NULL, vnpu_product_get(VNPU_PRODUCT_COUNT));
	EXPECT_EQ(NULL, vnpu_product_get(~0u));
	/* public peaks: 910A 256 TFLOPS fp16, 910B ~ 280-400 */
	EXPECT_NEAR(256e12, (double)vnpu_product_cube_flops(vnpu_product_get(VNPU_PRODUCT_910)),
		    10e12);
	EXPECT_NEAR(340e12, (double)vnpu_product_cube_flops(vnpu_product_get(VNPU_PRODUCT_A2)),
		    60e12);
	EXPECT_NEAR(70e12, (double)vnpu_product_cube_flops(vnpu_product_get(VNPU_PRODUCT_310P)),
		    5e12);
}

TEST(product_find)
{
	char buf[16];
	unsigned int id;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		EXPECT_EQ((int)id, vnpu_product_find(keys[id]));
		snprintf(buf, sizeof(buf), "%s\n", keys[id]);
		EXPECT_EQ((int)id, vnpu_product_find(buf));
		snprintf(buf, sizeof(buf), "%s\n\n", keys[id]);
		EXPECT_EQ(-1, vnpu_product_find(buf));
		snprintf(buf, sizeof(buf), "%sx", keys[id]);
		EXPECT_EQ(-1, vnpu_product_find(buf));
	}
	EXPECT_EQ(-1, vnpu_product_find("a4"));
	EXPECT_EQ(-1, vnpu_product_find(""));
	EXPECT_EQ(-1, vnpu_product_find("\n"));
	EXPECT_EQ(-1, vnpu_product_find("A2"));
	EXPECT_EQ(-1, vnpu_product_find("a"));
	EXPECT_EQ(-1, vnpu_product_find("200i"));
	EXPECT_EQ(-1, vnpu_product_find(" a2"));
	EXPECT_EQ(-1, vnpu_product_find(NULL));
}

/* an A2 MIX task: cube work on 8 AIC blocks, vector work on 16 AIV blocks */
static const struct vnpu_model_in a2_mix = {
	.task_type = VNPU_TASK_MIX_AIC,
	.block_num = 8,
	.mix_block_num = 16,
	.dtype = VNPU_DT_FLOAT16,
	.flops = 1ull << 34,
	.bytes = 1ull << 26,
};

TEST(pmu_slots)
{
	struct vnpu_model_in cube = {
		.task_type = VNPU_TASK_AI_CORE,
		.block_num = 8,
		.dtype = VNPU_DT_FLOAT16,
		.flops = 1ull << 34,
		.bytes = 1ull << 26,
	};
	unsigned int nonzero[2] = { 0, 0 };
	struct vnpu_model_out o;
	unsigned int s, t;

	for (s = 0; s < VNPU_PMU_SLOTS; s++) {
		ASSERT_NE(0, vnpu_pmu_event(s));
		for (t = 0; t < s; t++)
			ASSERT_NE(vnpu_pmu_event(t), vnpu_pmu_event(s));
	}
	EXPECT_EQ(0, vnpu_pmu_event(VNPU_PMU_SLOTS));
	EXPECT_EQ(0, vnpu_pmu_event(~0u));

	/*
	 * The events are computed when read, from one block's work: a MIX
	 * task on the A2 has both sides; each event reads the same by id
	 * and by slot, and the same every time.
	 */
	vnpu_model_task(vnpu_product_get(VNPU_PRODUCT_A2), &a2_mix, &o);
	ASSERT_GT(o.ctr.aic_blocks, 0);
	ASSERT_GT(o.ctr.aiv_blocks, 0);
	for (s = 0; s < VNPU_PMU_SLOTS; s++) {
		EXPECT_EQ(s, vnpu_pmu_slot(vnpu_pmu_event(s)));
		EXPECT_EQ(vnpu_pmu_read_slot(&o.ctr, false, s),
			  vnpu_pmu_read(&o.ctr, false, vnpu_pmu_event(s)));
		EXPECT_EQ(vnpu_pmu_read_slot(&o.ctr, true, s),
			  vnpu_pmu_read(&o.ctr, true, vnpu_pmu_event(s)));
		nonzero[0] += !!vnpu_pmu_read_slot(&o.ctr, false, s);
		nonzero[1] += !!vnpu_pmu_read_slot(&o.ctr, true, s);
	}
	/* cube work on the AIC side, vector work and its UB on the AIV side */
	EXPECT_GT(vnpu_pmu_read(&o.ctr, false, 0x9), 0); /* cube busy */
	EXPECT_GT(vnpu_pmu_read(&o.ctr, true, 0x8), 0); /* vector busy */
	EXPECT_GT(nonzero[0], 20);
	EXPECT_GT(nonzero[1], 20);
	/* ids the model does not count, no slot, no counters */
	EXPECT_EQ(0, vnpu_pmu_read(&o.ctr, false, 0));
	EXPECT_EQ(0, vnpu_pmu_read(&o.ctr, false, 0x1));
	EXPECT_EQ(0, vnpu_pmu_read(&o.ctr, true, 0x7));
	EXPECT_EQ(0, vnpu_pmu_read(&o.ctr, false, 0x501));
	EXPECT_EQ(0, vnpu_pmu_read(NULL, false, 0x8));
	EXPECT_EQ(VNPU_PMU_NO_SLOT, vnpu_pmu_slot(0));
	EXPECT_EQ(VNPU_PMU_NO_SLOT, vnpu_pmu_slot(0x501));
	EXPECT_EQ(0, vnpu_pmu_read_slot(&o.ctr, true, VNPU_PMU_NO_SLOT));
	EXPECT_EQ(0, vnpu_pmu_read_slot(NULL, true, 0));
	/*
	 * The v6 events (chip 15) are slots past the others: the model's event
	 * of the same thing, in the v6 unit (0x400 counts 64 B, 0x12 8 B).
	 */
	EXPECT_EQ(VNPU_PMU_SLOTS, vnpu_pmu_slot_v6(0x501));
	EXPECT_EQ(vnpu_pmu_read(&o.ctr, true, 0x8),
		  vnpu_pmu_read_slot(&o.ctr, true, vnpu_pmu_slot_v6(0x501)));
	EXPECT_GT(vnpu_pmu_read(&o.ctr, true, 0x12), 0);
	EXPECT_EQ(vnpu_pmu_read(&o.ctr, true, 0x12) / o.ctr.aiv_blocks >> 3,
		  vnpu_pmu_read_slot(&o.ctr, true, vnpu_pmu_slot_v6(0x400)) / o.ctr.aiv_blocks);
	EXPECT_EQ(VNPU_PMU_NO_SLOT, vnpu_pmu_slot_v6(0x8));
	EXPECT_EQ(VNPU_PMU_NO_SLOT, vnpu_pmu_slot_v6(0));
	EXPECT_EQ(0, vnpu_pmu_read_slot(&o.ctr, true, VNPU_PMU_NO_SLOT - 1));

	/* a side without blocks reads 0 in every slot */
	vnpu_model_task(vnpu_product_get(VNPU_PRODUCT_A2), &cube, &o);
	ASSERT_GT(o.ctr.aic_blocks, 0);
	ASSERT_EQ(0, o.ctr.aiv_blocks);
	for (s = 0; s < VNPU_PMU_SLOTS; s++)
		EXPECT_EQ(0, vnpu_pmu_read_slot(&o.ctr, true, s));
}

/*
 * A session's events, computed once per task: its slots in its order, on
 * both sides; at most VNPU_PMU_EVENTS_MAX, the rest 0.
 */
TEST(pmu_compute)
{
	const unsigned char aic_slots[VNPU_PMU_EVENTS_MAX + 2] = {
		2, 0, 5, 60, 7, 9, 11, 13, 1, 1
	};
	const unsigned char aiv_slots[VNPU_PMU_EVENTS_MAX + 2] = {
		0, 2, 4, 6, 8, 10, VNPU_PMU_NO_SLOT, 12, 3, 3
	};
	struct vnpu_model_out o;
	unsigned int s;

	vnpu_model_task(vnpu_product_get(VNPU_PRODUCT_A2), &a2_mix, &o);
	EXPECT_FALSE(o.ctr.ev_valid);
	vnpu_pmu_compute(&o.ctr, aic_slots, aiv_slots, 3, 42);
	EXPECT_TRUE(o.ctr.ev_valid);
	EXPECT_EQ(42, o.ctr.ev_session);
	for (s = 0; s < VNPU_PMU_EVENTS_MAX; s++) {
		EXPECT_EQ(s < 3 ? vnpu_pmu_read_slot(&o.ctr, false, aic_slots[s]) : 0,
			  o.ctr.ev[0][s]);
		EXPECT_EQ(s < 3 ? vnpu_pmu_read_slot(&o.ctr, true, aiv_slots[s]) : 0,
			  o.ctr.ev[1][s]);
	}
	EXPECT_NE(0, o.ctr.ev[0][0]);
	vnpu_pmu_compute(&o.ctr, aic_slots, aiv_slots, VNPU_PMU_EVENTS_MAX + 2, 43);
	EXPECT_EQ(43, o.ctr.ev_session);
	for (s = 0; s < VNPU_PMU_EVENTS_MAX; s++) {
		EXPECT_EQ(vnpu_pmu_read_slot(&o.ctr, false, aic_slots[s]), o.ctr.ev[0][s]);
		EXPECT_EQ(vnpu_pmu_read_slot(&o.ctr, true, aiv_slots[s]), o.ctr.ev[1][s]);
	}
	EXPECT_EQ(0, o.ctr.ev[1][6]); /* no slot */
}

TEST(metric_events)
{
	unsigned int id, g, side, i, s;
	u32 ids[VNPU_PMU_EVENTS_MAX];

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);

		for (g = 0; g < VNPU_METRIC_COUNT; g++) {
			for (side = 0; side < 2; side++) {
				const unsigned int *ref = ref_events[g];
				bool aiv = side;
				u32 n;

				memset(ids, 0xff, sizeof(ids));
				n = vnpu_metric_events(p, g, aiv, ids);
				if (!(groups[id] & (1u << g)) || (aiv && !split[id])) {
					EXPECT_EQ(0, n);
					continue;
				}
				if (g == VNPU_METRIC_PIPE_UTILIZATION && !aiv && chip_ids[id] == 5)
					ref = ref_pu_exct;
				if (g == VNPU_METRIC_MEMORY_UB && chip_ids[id] == 7)
					ref = ref_ub_v11;
				if (chip_ids[id] == 15)
					ref = ref_v6[g];
				ASSERT_GE(n, 1);
				ASSERT_LE(n, VNPU_PMU_EVENTS_MAX);
				for (i = 0; i < n; i++) {
					EXPECT_EQ(ref[i], ids[i]);
					/* the model counts every programmed event */
					if (chip_ids[id] == 15) {
						EXPECT_NE(VNPU_PMU_NO_SLOT,
							  vnpu_pmu_slot_v6(ids[i]));
						continue;
					}
					for (s = 0; s < VNPU_PMU_SLOTS; s++)
						if (vnpu_pmu_event(s) == ids[i])
							break;
					EXPECT_LT(s, VNPU_PMU_SLOTS);
				}
				EXPECT_EQ(0, ref[n]);
			}
		}
		EXPECT_EQ(0, vnpu_metric_events(p, VNPU_METRIC_COUNT, false, ids));
		EXPECT_EQ(0, vnpu_metric_events(p, VNPU_METRIC_NONE, false, ids));
	}
	EXPECT_EQ(0, vnpu_metric_events(NULL, VNPU_METRIC_PIPE_UTILIZATION, false, ids));
}

/*
 * The grid: every product, AI Core task type, data type and HF32 flag;
 * MatMul-like and Add-like work, small to huge; block_num from 1 to twice
 * the cores; MIX tasks with 0, 1x and 2x secondary blocks; half of the
 * cases with jitter.
 */
TEST(consistency_grid)
{
	static const u32 types[] = { VNPU_TASK_AI_CORE, VNPU_TASK_AI_VECTOR_CORE, VNPU_TASK_MIX_AIC,
				     VNPU_TASK_MIX_AIV };
	unsigned int id, t, dt, hf, w, b, m, cases = 0;
	char ctx[160];

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);

		for (t = 0; t < ARRAY_LEN(types); t++) {
			bool vec = types[t] == VNPU_TASK_AI_VECTOR_CORE ||
				   types[t] == VNPU_TASK_MIX_AIV;
			u32 cores = vec && p->aiv_num ? p->aiv_num : p->aic_num;
			u32 bnums[] = { 1, cores / 2 ? cores / 2 : 1, cores, cores + 1, 2 * cores };
			bool mixt = split[id] && (types[t] == VNPU_TASK_MIX_AIC ||
						  types[t] == VNPU_TASK_MIX_AIV);

			for (dt = 0; dt < VNPU_DT_COUNT; dt++) {
				for (hf = 0; hf < 2; hf++) {
					for (w = 0; w < 5; w++) {
						for (b = 0; b < ARRAY_LEN(bnums); b++) {
							for (m = 0; m < (mixt ? 3u : 1u); m++) {
								struct vnpu_model_in in;
								struct vnpu_model_out o;

								switch (w) {
								case 0:
									in = matmul(types[t],
										    bnums[b], dt,
										    64, 64, 64);
									break;
								case 1:
									in = matmul(types[t],
										    bnums[b], dt,
										    4096, 4096,
										    4096);
									break;
								case 2:
									in = matmul(types[t],
										    bnums[b], dt,
										    79370, 79370,
										    79370);
									break;
								case 3:
									in = add(types[t], bnums[b],
										 dt, 1024);
									break;
								default:
									in = add(types[t], bnums[b],
										 dt,
										 10000000000ull);
									break;
								}
								in.flags =
									hf ? VNPU_TASK_F_HF32 : 0;
								in.mix_block_num = m * bnums[b];
								if (cases % 2) {
									in.jitter_seed = cases;
									in.jitter_permille = 100;
								}
								snprintf(ctx, sizeof(ctx),
									 "%s type %u dtype %u hf32 "
									 "%u "
									 "work %u blocks %u mix %u",
									 p->key, types[t], dt, hf,
									 w, in.block_num,
									 in.mix_block_num);
								vnpu_model_task(p, &in, &o);
								check_task(_metadata, ctx, p, &in,
									   &o);
								cases++;
							}
						}
					}
				}
			}
		}
	}
	TH_LOG("%u tasks checked", cases);
}

/* msprof's cube_utilization(%) / 100: aic_total_cycles / (freq * cores * duration) */
static double cube_util(const struct vnpu_product_desc *p, const struct vnpu_model_out *o)
{
	return o->ctr.aic_total_cycles / (p->aic_freq_khz * 1e3 * p->aic_num * dur_s(p, o));
}

/*
 * A large fp16 MatMul is cube-bound, at the share of cube peak a real A2
 * MatMul reaches (51-80%), with its pipes busy as a real A2's are
 * (docs/calibration.md): mac_ratio 0.5-0.89, scalar 0.25-0.49, mte2
 * 0.76-0.97.
 */
TEST(matmul_cube_bound)
{
	unsigned int id;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);
		struct vnpu_model_in in =
			matmul(VNPU_TASK_AI_CORE, p->aic_num, VNPU_DT_FLOAT16, 4096, 4096, 4096);
		struct vnpu_model_out o;
		double ideal;

		vnpu_model_task(p, &in, &o);
		TH_LOG("%s MatMul 4096^3: %.1f us, mac %.3f mte2 %.3f, cube_utilization %.3f", p->key,
		       dur_s(p, &o) * 1e6, mac_ratio(p, &o, false), ratio(&o, false, 0xc),
		       cube_util(p, &o));
		EXPECT_LE(0.5, mac_ratio(p, &o, false));
		EXPECT_GE(0.89, mac_ratio(p, &o, false));
		EXPECT_LE(0.76, ratio(&o, false, 0xc));
		EXPECT_GE(0.97, ratio(&o, false, 0xc));
		EXPECT_LE(0.25, ratio(&o, false, 0x9));
		EXPECT_GE(0.49, ratio(&o, false, 0x9));
		EXPECT_EQ(p->aic_num, o.aic_used);
		EXPECT_EQ(0, o.aiv_used);
		ideal = in.flops / (double)vnpu_product_cube_flops(p);
		EXPECT_GE(dur_s(p, &o), ideal);
		/* cube_utilization: the cores' cycles over the task's, 51-80% */
		EXPECT_LE(0.51, cube_util(p, &o));
		EXPECT_GE(0.80, cube_util(p, &o));

		/* MIX_AIC: still cube-bound, with the vector side busy too */
		if (split[id]) {
			in.task_type = VNPU_TASK_MIX_AIC;
			in.mix_block_num = 2 * p->aic_num;
			vnpu_model_task(p, &in, &o);
			EXPECT_GT(mac_ratio(p, &o, false), 0.5);
			EXPECT_GT(o.ctr.aiv_total_cycles, 0);
			EXPECT_GT(ratio(&o, true, 0x8), 0);
			EXPECT_EQ(0, mac_ratio(p, &o, true));
		}
	}
}

/* An Add is vector/MTE-bound: no cube work, mte2 or vec ratio dominant. */
TEST(add_vector_bound)
{
	static const unsigned int others[] = { 0x9, 0xb, 0xd, 0x302, 0x303, 0x64, 0x65, 0x66 };
	unsigned int id, i;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);
		u32 type = split[id] ? VNPU_TASK_AI_VECTOR_CORE : VNPU_TASK_AI_CORE;
		u32 cores = split[id] ? p->aiv_num : p->aic_num;
		struct vnpu_model_in in = add(type, cores, VNPU_DT_FLOAT, 100000000);
		struct vnpu_model_out o;
		bool aiv = split[id];
		double top;

		vnpu_model_task(p, &in, &o);
		top = maxd(ratio(&o, aiv, 0xc), ratio(&o, aiv, 0x8));
		TH_LOG("%s Add 1e8 fp32: %.1f us, mte2 %.3f vec %.3f", p->key, dur_s(p, &o) * 1e6,
		       ratio(&o, aiv, 0xc), ratio(&o, aiv, 0x8));
		EXPECT_EQ(0, rd(&o, aiv, 0xa));
		EXPECT_EQ(0, mac_ratio(p, &o, aiv));
		EXPECT_GT(top, 0.5);
		for (i = 0; i < ARRAY_LEN(others); i++)
			EXPECT_LT(ratio(&o, aiv, others[i]), top);
		/* memory-bound at the HBM bandwidth's achievable share, to within 10% */
		EXPECT_NEAR(in.bytes / (p->hbm_bw_mbps * 1e6 * VNPU_MODEL_MEM_EFF / 1000),
			    dur_s(p, &o), in.bytes / (p->hbm_bw_mbps * 1e6) * 0.1);
		if (split[id]) {
			EXPECT_EQ(0, o.ctr.aic_total_cycles);
			EXPECT_EQ(cores, o.aiv_used);
		}
		/* chip 7's UB events count what the others' do: msprof sums 0x17f and 0x180 */
		EXPECT_GT(rd(&o, aiv, 0x43), 0);
		EXPECT_EQ(rd(&o, aiv, 0x43), rd(&o, aiv, 0x17f) + rd(&o, aiv, 0x180));
		EXPECT_EQ(rd(&o, aiv, 0x44), rd(&o, aiv, 0x191));
		EXPECT_EQ(rd(&o, aiv, 0x3d), rd(&o, aiv, 0x1a5));
		EXPECT_EQ(rd(&o, aiv, 0x3e), rd(&o, aiv, 0x1a6));
	}
}

/* Unified AI Cores: the unit follows the hint, or the intensity. */
TEST(unified_unit)
{
	const struct vnpu_product_desc *p = vnpu_product_get(VNPU_PRODUCT_910);
	struct vnpu_model_in in = matmul(VNPU_TASK_AI_CORE, 32, VNPU_DT_FLOAT16, 1024, 1024, 1024);
	struct vnpu_model_out o;

	vnpu_model_task(p, &in, &o);
	EXPECT_GT(rd(&o, false, 0xa), 0);
	EXPECT_GT(rd(&o, false, 0x27), 0); /* results leave L0C through the vector unit */
	in.unit = VNPU_UNIT_VECTOR;
	vnpu_model_task(p, &in, &o);
	EXPECT_EQ(0, rd(&o, false, 0xa));
	EXPECT_GT(rd(&o, false, 0x8), 0);

	in = add(VNPU_TASK_AI_CORE, 32, VNPU_DT_FLOAT16, 1 << 20);
	vnpu_model_task(p, &in, &o);
	EXPECT_EQ(0, rd(&o, false, 0xa));
	EXPECT_GT(rd(&o, false, 0x3e), 0); /* GM -> UB */
	in.unit = VNPU_UNIT_CUBE;
	vnpu_model_task(p, &in, &o);
	EXPECT_GT(rd(&o, false, 0xa), 0);

	/* 310P Vector Cores: AIV cores occupied, counters on the AIC side */
	p = vnpu_product_get(VNPU_PRODUCT_310P);
	in = add(VNPU_TASK_AI_VECTOR_CORE, 14, VNPU_DT_FLOAT16, 1 << 20);
	vnpu_model_task(p, &in, &o);
	EXPECT_EQ(7, o.aiv_used);
	EXPECT_EQ(0, o.aic_used);
	EXPECT_EQ(7, o.ctr.aic_core_num);
	EXPECT_EQ(14, o.ctr.aic_blocks);
	EXPECT_EQ(0, o.ctr.aiv_total_cycles);
	EXPECT_GT(o.ctr.aic_total_cycles, 0);
	/* 910 has no Vector Cores: AI_VECTOR_CORE runs on the AI Cores */
	p = vnpu_product_get(VNPU_PRODUCT_910);
	vnpu_model_task(p, &in, &o);
	EXPECT_EQ(14, o.aic_used);
	EXPECT_EQ(0, o.aiv_used);
}

/* Data type rates on a cube-bound MatMul. */
TEST(dtype_rates)
{
	const struct vnpu_product_desc *p = vnpu_product_get(VNPU_PRODUCT_A2);
	struct vnpu_model_in in = matmul(VNPU_TASK_AI_CORE, 24, VNPU_DT_FLOAT16, 8192, 8192, 8192);
	struct vnpu_model_out o;
	double fp16, t;

	vnpu_model_task(p, &in, &o);
	fp16 = dur_s(p, &o);
	in.dtype = VNPU_DT_BF16;
	vnpu_model_task(p, &in, &o);
	EXPECT_NEAR(fp16, dur_s(p, &o), fp16 * 0.01);
	in.dtype = VNPU_DT_INT8;
	vnpu_model_task(p, &in, &o);
	t = dur_s(p, &o);
	EXPECT_NEAR(fp16 / 2, t, fp16 * 0.05);
	EXPECT_GT(rd(&o, false, 0x417), 0);
	EXPECT_EQ(0, rd(&o, false, 0x416));
	in.dtype = VNPU_DT_FLOAT;
	vnpu_model_task(p, &in, &o);
	EXPECT_NEAR(fp16 * 2, dur_s(p, &o), fp16 * 0.05);
	in.flags = VNPU_TASK_F_HF32;
	vnpu_model_task(p, &in, &o);
	EXPECT_NEAR(fp16, dur_s(p, &o), fp16 * 0.01);
}

static bool same_out(const struct vnpu_model_out *a, const struct vnpu_model_out *b)
{
	const struct vnpu_counters *x = &a->ctr, *y = &b->ctr;
	unsigned int s;

	for (s = 0; s < VNPU_PMU_SLOTS; s++)
		if (vnpu_pmu_read_slot(x, false, s) != vnpu_pmu_read_slot(y, false, s) ||
		    vnpu_pmu_read_slot(x, true, s) != vnpu_pmu_read_slot(y, true, s))
			return false;
	return a->duration_ticks == b->duration_ticks && a->launch_ticks == b->launch_ticks &&
	       a->aic_used == b->aic_used && a->aiv_used == b->aiv_used &&
	       a->aicpu_used == b->aicpu_used && x->aic_total_cycles == y->aic_total_cycles &&
	       x->aiv_total_cycles == y->aiv_total_cycles && x->aic_blocks == y->aic_blocks &&
	       x->aiv_blocks == y->aiv_blocks && x->aic_core_num == y->aic_core_num &&
	       x->aiv_core_num == y->aiv_core_num;
}

TEST(determinism_and_jitter)
{
	const struct vnpu_product_desc *p = vnpu_product_get(VNPU_PRODUCT_A2);
	struct vnpu_model_in in = matmul(VNPU_TASK_MIX_AIC, 24, VNPU_DT_FLOAT16, 2048, 2048, 2048);
	struct vnpu_model_out a, b, base;
	unsigned int seed, below = 0, above = 0;

	in.mix_block_num = 48;
	memset(&a, 0xa5, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	vnpu_model_task(p, &in, &a);
	vnpu_model_task(p, &in, &b);
	EXPECT_TRUE(same_out(&a, &b));
	base = a;

	in.jitter_permille = 50;
	in.jitter_seed = 1;
	vnpu_model_task(p, &in, &a);
	vnpu_model_task(p, &in, &b);
	EXPECT_TRUE(same_out(&a, &b));
	in.jitter_seed = 2;
	vnpu_model_task(p, &in, &b);
	EXPECT_NE(a.duration_ticks, b.duration_ticks);

	/*
	 * Irwin-Hall(4) with a standard deviation of 5%: bounded at
	 * +-2 sqrt(3) sigma, centred, its spread sigma, both ways
	 */
	double sum = 0, sum2 = 0, n = 4000;

	for (seed = 0; seed < n; seed++) {
		double d0 = base.duration_ticks, d;

		in.jitter_seed = seed * 0x9e3779b97f4a7c15ull;
		vnpu_model_task(p, &in, &a);
		d = a.duration_ticks;
		ASSERT_LE(absd(d - d0), d0 * 0.050 * 3.4642 + 2);
		below += d < d0;
		above += d > d0;
		sum += (d - d0) / d0;
		sum2 += (d - d0) / d0 * ((d - d0) / d0);
	}
	EXPECT_GT(below, n / 3);
	EXPECT_GT(above, n / 3);
	EXPECT_LT(absd(sum / n), 0.050 / 10);
	EXPECT_LT(absd(sqrt(sum2 / n - (sum / n) * (sum / n)) - 0.050), 0.050 / 10)
	TH_LOG("sd %.4f, mean %.4f", sqrt(sum2 / n - (sum / n) * (sum / n)), sum / n);

	/* the amplitude is clamped; the counters stay consistent */
	in.jitter_permille = ~0u;
	for (seed = 0; seed < 200; seed++) {
		in.jitter_seed = seed;
		vnpu_model_task(p, &in, &a);
		check_task(_metadata, "max jitter", p, &in, &a);
		ASSERT_LE(absd((double)a.duration_ticks - base.duration_ticks),
			  base.duration_ticks * VNPU_MODEL_MAX_PERMILLE / 1000.0 + 2);
		ASSERT_LE(VNPU_MODEL_MAX_SIGMA * 3.4642, VNPU_MODEL_MAX_PERMILLE);
		ASSERT_GT(a.duration_ticks, a.launch_ticks);
	}
}

TEST(communication)
{
	static const u64 sizes[] = { 0, 1024, 1 << 20, 64 << 20, 1ull << 30, 100ull << 30 };
	unsigned int id, op, n, s;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);

		for (op = 0; op < VNPU_COMM_OP_COUNT; op++) {
			u64 one = vnpu_model_comm_ticks(p, op, 1, 0);

			EXPECT_GT(one, 0);
			EXPECT_EQ(one, vnpu_model_comm_ticks(p, op, 1, 1ull << 30));
			EXPECT_EQ(one, vnpu_model_comm_ticks(p, op, 0, 1ull << 30));
			for (n = 2; n <= VNPU_MAX_DEVICES; n++) {
				for (s = 1; s < ARRAY_LEN(sizes); s++)
					EXPECT_LT(vnpu_model_comm_ticks(p, op, n, sizes[s - 1]),
						  vnpu_model_comm_ticks(p, op, n, sizes[s]));
				/* a Send and its Recv involve two ranks, whatever the group */
				if (vnpu_hccl_p2p(op)) {
					EXPECT_EQ(vnpu_model_comm_ticks(p, op, 2, 64 << 20),
						  vnpu_model_comm_ticks(p, op, n, 64 << 20));
				} else {
					EXPECT_LT(vnpu_model_comm_ticks(p, op, n - 1, 64 << 20),
						  vnpu_model_comm_ticks(p, op, n, 64 << 20));
				}
				EXPECT_LT(one, vnpu_model_comm_ticks(p, op, n, 0));
			}
		}
		/* AllReduce moves twice what AllGather moves */
		EXPECT_GT(vnpu_model_comm_ticks(p, VNPU_COMM_ALLREDUCE, 8, 1ull << 30),
			  vnpu_model_comm_ticks(p, VNPU_COMM_ALLGATHER, 8, 1ull << 30));
		EXPECT_EQ(vnpu_model_comm_ticks(p, VNPU_COMM_ALLGATHER, 8, 1ull << 30),
			  vnpu_model_comm_ticks(p, VNPU_COMM_REDUCESCATTER, 8, 1ull << 30));
		/* two-rank Broadcast: one link transfer */
		EXPECT_LT(vnpu_model_comm_ticks(p, VNPU_COMM_BROADCAST, 2, 1ull << 30),
			  vnpu_model_comm_ticks(p, VNPU_COMM_ALLREDUCE, 2, 1ull << 30));
		/* the product's link is link 0; a ring at half its speed is slower */
		EXPECT_EQ(vnpu_model_comm_ticks(p, VNPU_COMM_ALLREDUCE, 8, 64 << 20),
			  vnpu_model_comm_ticks_link(p, p->link_bw_mbps, VNPU_COMM_ALLREDUCE, 8,
						     64 << 20));
		EXPECT_LT(vnpu_model_comm_ticks(p, VNPU_COMM_ALLREDUCE, 8, 64 << 20),
			  vnpu_model_comm_ticks_link(p, p->link_bw_mbps / 2, VNPU_COMM_ALLREDUCE, 8,
						     64 << 20));
	}

	/*
	 * A2, 8-rank AllReduce of 1 GiB: 2 * 7/8 GiB over 56 GB/s = 33.6 ms,
	 * plus the copies in and out of the HCCL buffer at half the HBM's
	 * bandwidth (uapi/vnpu_hccl.h)
	 */
	{
		const struct vnpu_product_desc *p = vnpu_product_get(VNPU_PRODUCT_A2);
		struct vnpu_model_in in = { .task_type = VNPU_TASK_COMMUNICATION,
					    .block_num = 1,
					    .comm_op = VNPU_COMM_ALLREDUCE,
					    .comm_ranks = 8,
					    .bytes = 1ull << 30 };
		struct vnpu_model_out o;
		double ms;

		vnpu_model_task(p, &in, &o);
		ms = o.duration_ticks / (p->sys_cnt_freq_khz * 1.0);
		TH_LOG("a2 AllReduce 8 x 1 GiB: %.3f ms", ms);
		EXPECT_NEAR(2.0 * 7 / 8 * (1ull << 30) / (p->link_bw_mbps * 1e6) * 1e3 +
				    2.0 * (1ull << 30) /
					    (vnpu_hccl_local_mbps(p->hbm_bw_mbps, p->link_bw_mbps) *
					     1e6) *
					    1e3,
			    ms, 0.2);
		EXPECT_EQ(vnpu_model_comm_ticks(p, in.comm_op, 8, in.bytes), o.duration_ticks);
		EXPECT_GT(o.launch_ticks, 0);
		EXPECT_LT(o.launch_ticks, o.duration_ticks);
		EXPECT_EQ(0, o.aic_used + o.aiv_used + o.aicpu_used);
		EXPECT_EQ(0, o.ctr.aic_total_cycles + o.ctr.aiv_total_cycles);
		EXPECT_EQ(0, rd(&o, false, 0xc));
	}
}

TEST(aicpu)
{
	unsigned int id;

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);
		struct vnpu_model_in in = { .task_type = VNPU_TASK_AI_CPU,
					    .block_num = 1,
					    .flops = 1000000,
					    .bytes = 4000000 };
		struct vnpu_model_out o, o2;

		vnpu_model_task(p, &in, &o);
		EXPECT_EQ(1, o.aicpu_used);
		EXPECT_EQ(0, o.aic_used + o.aiv_used);
		EXPECT_EQ(0, o.ctr.aic_total_cycles + o.ctr.aiv_total_cycles);
		/* 10 us launch + 1 ms of flops + 1 ms of bytes */
		EXPECT_NEAR(2.01e-3, dur_s(p, &o), 1e-5);
		in.flops *= 10;
		vnpu_model_task(p, &in, &o2);
		EXPECT_GT(o2.duration_ticks, o.duration_ticks);
	}
}

/* Extreme inputs: clamped, no overflow, still consistent. */
TEST(extremes)
{
	unsigned int id;
	char ctx[64];

	for (id = 0; id < VNPU_PRODUCT_COUNT; id++) {
		const struct vnpu_product_desc *p = vnpu_product_get(id);
		struct vnpu_model_in in = { .task_type = VNPU_TASK_MIX_AIV,
					    .block_num = 65535,
					    .mix_block_num = 65535,
					    .dtype = VNPU_DT_FLOAT,
					    .flops = ~0ull,
					    .bytes = ~0ull,
					    .jitter_seed = 7,
					    .jitter_permille = 1000 };
		struct vnpu_model_out o;

		snprintf(ctx, sizeof(ctx), "%s extreme", p->key);
		vnpu_model_task(p, &in, &o);
		check_task(_metadata, ctx, p, &in, &o);
		EXPECT_LT(o.duration_ticks, ~0ull);
		in.block_num = 1;
		in.mix_block_num = 0;
		vnpu_model_task(p, &in, &o);
		check_task(_metadata, ctx, p, &in, &o);
		EXPECT_LT(o.duration_ticks, ~0ull);
		in.block_num = 0; /* taken as 1 */
		in.flops = 0;
		in.bytes = 0;
		in.task_type = 99; /* modelled as AI_CORE */
		vnpu_model_task(p, &in, &o);
		check_task(_metadata, ctx, p, &in, &o);
		EXPECT_EQ(1, o.aic_used);
		/* the smallest task: launch + one block's overhead */
		EXPECT_LT(dur_s(p, &o), 5e-6);
	}
}

/*
 * The sub-tasks of a collective (uapi/vnpu_hccl.h), which the driver runs
 * and libnpuprof records: two-rank AllReduce is msprof-sample-hccl's ten,
 * and every op's copies carry what its algorithm sends over each link.
 */
TEST(hccl_plan)
{
	static const struct {
		__u32 kind, remote;
		__u64 bytes;
	} sample[10] = {
		{ VNPU_HCCL_MEMCPY, 0, 1 << 20 },   { VNPU_HCCL_NOTIFY_RECORD, 1, 0 },
		{ VNPU_HCCL_NOTIFY_WAIT, 1, 0 },    { VNPU_HCCL_REDUCE_INLINE, 1, 512 << 10 },
		{ VNPU_HCCL_NOTIFY_RECORD, 1, 0 },  { VNPU_HCCL_NOTIFY_WAIT, 1, 0 },
		{ VNPU_HCCL_MEMCPY, 1, 512 << 10 }, { VNPU_HCCL_NOTIFY_RECORD, 1, 0 },
		{ VNPU_HCCL_NOTIFY_WAIT, 1, 0 },    { VNPU_HCCL_MEMCPY, 0, 1 << 20 },
	};
	struct vnpu_hccl_step st;
	__u32 op, n, r, i;

	ASSERT_EQ(10, vnpu_hccl_steps(VNPU_COMM_ALLREDUCE, 2));
	for (i = 0; i < 10; i++) {
		vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 2, 0, 0, 1 << 20, VNPU_PRODUCT_A2, i, &st);
		EXPECT_EQ(sample[i].kind, st.kind) TH_LOG("step %u", i);
		EXPECT_EQ(sample[i].remote, st.remote) TH_LOG("step %u", i);
		EXPECT_EQ(sample[i].bytes, st.bytes) TH_LOG("step %u", i);
		EXPECT_EQ(i == 0 || i == 9 ? VNPU_LINK_ON_CHIP : VNPU_LINK_HCCS, st.link);
	}
	vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 2, 0, 0, 1 << 20, VNPU_PRODUCT_A2, VNPU_HCCL_FIRST_WAIT,
		       &st);
	EXPECT_EQ(VNPU_HCCL_NOTIFY_WAIT, st.kind);

	for (op = 0; op < VNPU_COMM_OP_COUNT; op++) {
		if (vnpu_hccl_p2p(op))
			continue;
		for (n = 2; n <= VNPU_MAX_DEVICES; n++) {
			__u64 S = 1ull << 24, link_bytes = 0, want;

			for (r = 0; r < n; r++) {
				__u32 waits = 0;

				for (i = 0; i < vnpu_hccl_steps(op, n); i++) {
					vnpu_hccl_step(op, n, r, 0, S, VNPU_PRODUCT_310P, i, &st);
					ASSERT_LT(st.kind, VNPU_HCCL_KIND_COUNT);
					ASSERT_LT(st.remote, n);
					if (st.kind == VNPU_HCCL_NOTIFY_WAIT) {
						EXPECT_EQ((r + n - 1) % n, st.remote);
						waits++;
					}
					if (st.kind == VNPU_HCCL_NOTIFY_RECORD)
						EXPECT_EQ((r + 1) % n, st.remote);
					if (st.link != VNPU_LINK_ON_CHIP && r == 0)
						link_bytes += st.bytes;
					if (st.link == VNPU_LINK_ON_CHIP)
						EXPECT_EQ(r, st.remote);
				}
				EXPECT_EQ(vnpu_hccl_ring_steps(op, n) + 1, waits);
			}
			/* into rank 0 over its link: the ring algorithm's share */
			want = op == VNPU_COMM_ALLREDUCE   ? 2 * (n - 1) * ((S + n - 1) / n)
			       : op == VNPU_COMM_BROADCAST ? (n - 1) * ((S + n - 2) / (n - 1))
							   : (n - 1) * ((S + n - 1) / n);
			EXPECT_EQ(want, link_bytes) TH_LOG("op %u, %u ranks", op, n);
		}
	}
	EXPECT_EQ(VNPU_LINK_PCIE, vnpu_hccl_link(VNPU_PRODUCT_310P));
	EXPECT_EQ(VNPU_LINK_HCCS, vnpu_hccl_link(VNPU_PRODUCT_A2));
}

/*
 * The links between ranks: on an A3 the two dies of a chip (ranks 2k,
 * 2k + 1) are joined by SIO and the chips by HCCS, so a 4-rank ring's
 * rank 1 receives from rank 0 over SIO and notifies rank 2 over HCCS;
 * the A2's are all HCCS, the 310P's PCIe.
 */
TEST(hccl_links)
{
	struct vnpu_hccl_step st;

	EXPECT_EQ(VNPU_LINK_SIO, vnpu_hccl_link_ranks(VNPU_PRODUCT_A3, 0, 1));
	EXPECT_EQ(VNPU_LINK_SIO, vnpu_hccl_link_ranks(VNPU_PRODUCT_A3, 7, 6));
	EXPECT_EQ(VNPU_LINK_HCCS, vnpu_hccl_link_ranks(VNPU_PRODUCT_A3, 1, 2));
	EXPECT_EQ(VNPU_LINK_HCCS, vnpu_hccl_link_ranks(VNPU_PRODUCT_A3, 0, 15));
	EXPECT_EQ(VNPU_LINK_ON_CHIP, vnpu_hccl_link_ranks(VNPU_PRODUCT_A3, 3, 3));
	EXPECT_EQ(VNPU_LINK_HCCS, vnpu_hccl_link_ranks(VNPU_PRODUCT_A2, 0, 1));
	EXPECT_EQ(VNPU_LINK_PCIE, vnpu_hccl_link_ranks(VNPU_PRODUCT_310P, 0, 1));

	/* AllReduce on 4 A3 ranks, rank 1: Record to 2, Wait for 0, Reduce from 0 */
	vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 4, 1, 0, 1 << 20, VNPU_PRODUCT_A3, 1, &st);
	EXPECT_EQ(VNPU_HCCL_NOTIFY_RECORD, st.kind);
	EXPECT_EQ(2, st.remote);
	EXPECT_EQ(VNPU_LINK_HCCS, st.link);
	vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 4, 1, 0, 1 << 20, VNPU_PRODUCT_A3, 2, &st);
	EXPECT_EQ(0, st.remote);
	EXPECT_EQ(VNPU_LINK_SIO, st.link);
	vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 4, 1, 0, 1 << 20, VNPU_PRODUCT_A3, 3, &st);
	EXPECT_EQ(VNPU_HCCL_REDUCE_INLINE, st.kind);
	EXPECT_EQ(VNPU_LINK_SIO, st.link);
	vnpu_hccl_step(VNPU_COMM_ALLREDUCE, 4, 1, 0, 1 << 20, VNPU_PRODUCT_A3, 0, &st);
	EXPECT_EQ(VNPU_LINK_ON_CHIP, st.link);
	/* a Send between the dies of a chip, and between chips */
	vnpu_hccl_step(VNPU_COMM_SEND, 4, 2, 3, 1 << 20, VNPU_PRODUCT_A3, 1, &st);
	EXPECT_EQ(VNPU_LINK_SIO, st.link);
	vnpu_hccl_step(VNPU_COMM_SEND, 4, 2, 1, 1 << 20, VNPU_PRODUCT_A3, 1, &st);
	EXPECT_EQ(VNPU_LINK_HCCS, st.link);
}

/*
 * Send and Recv: HCCL's point-to-point protocol, the receiver's ready
 * notify, the sender's copy into it and its done notify; the pair lasts
 * what the Send does, and a rank's busy time (all but its first wait)
 * plus that wait's own is the collective's on every rank of any op.
 */
TEST(hccl_p2p_plan)
{
	static const __u32 send[3] = { VNPU_HCCL_NOTIFY_WAIT, VNPU_HCCL_MEMCPY,
				       VNPU_HCCL_NOTIFY_RECORD };
	static const __u32 recv[2] = { VNPU_HCCL_NOTIFY_RECORD, VNPU_HCCL_NOTIFY_WAIT };
	const struct vnpu_product_desc *p = vnpu_product_get(VNPU_PRODUCT_A2);
	const struct vnpu_hccl_step wait = { .kind = VNPU_HCCL_NOTIFY_WAIT };
	const __u64 S = 3 << 20;
	struct vnpu_hccl_step st;
	__u32 op, n, r, i;
	__u64 copy;

	EXPECT_EQ(4, VNPU_COMM_SEND);
	EXPECT_EQ(5, VNPU_COMM_RECV);
	ASSERT_EQ(3, vnpu_hccl_steps(VNPU_COMM_SEND, 8));
	ASSERT_EQ(2, vnpu_hccl_steps(VNPU_COMM_RECV, 8));
	EXPECT_EQ(0, vnpu_hccl_first_wait(VNPU_COMM_SEND));
	EXPECT_EQ(1, vnpu_hccl_first_wait(VNPU_COMM_RECV));
	EXPECT_EQ(VNPU_HCCL_FIRST_WAIT, vnpu_hccl_first_wait(VNPU_COMM_ALLGATHER));
	for (i = 0; i < 3; i++) {
		vnpu_hccl_step(VNPU_COMM_SEND, 8, 2, 5, S, VNPU_PRODUCT_A2, i, &st);
		EXPECT_EQ(send[i], st.kind);
		EXPECT_EQ(5, st.remote);
		EXPECT_EQ(VNPU_LINK_HCCS, st.link);
		EXPECT_EQ(i == 1 ? S : 0, st.bytes);
		EXPECT_EQ(0, st.reduce);
	}
	for (i = 0; i < 2; i++) {
		vnpu_hccl_step(VNPU_COMM_RECV, 8, 5, 2, S, VNPU_PRODUCT_A2, i, &st);
		EXPECT_EQ(recv[i], st.kind);
		EXPECT_EQ(2, st.remote);
		EXPECT_EQ(0, st.bytes);
	}

	vnpu_hccl_step(VNPU_COMM_SEND, 2, 0, 1, S, VNPU_PRODUCT_A2, 1, &st);
	copy = vnpu_model_hccl_step_ticks(p, 0, &st);
	EXPECT_EQ(vnpu_model_comm_ticks(p, VNPU_COMM_SEND, 2, S),
		  vnpu_model_comm_ticks(p, VNPU_COMM_RECV, 2, S));
	EXPECT_EQ(vnpu_model_hccl_step_ticks(p, 0, &wait) + copy +
			  vnpu_ns_to_ticks(p, VNPU_MODEL_NOTIFY_NS),
		  vnpu_model_comm_ticks(p, VNPU_COMM_SEND, 2, S));
	/* the receiver is busy for its ready notify; the rest it waits */
	EXPECT_EQ(vnpu_ns_to_ticks(p, VNPU_MODEL_NOTIFY_NS),
		  vnpu_model_comm_busy_ticks(p, 0, VNPU_COMM_RECV, 2, 1, 0, S));
	EXPECT_EQ(copy + vnpu_ns_to_ticks(p, VNPU_MODEL_NOTIFY_NS),
		  vnpu_model_comm_busy_ticks(p, 0, VNPU_COMM_SEND, 2, 0, 1, S));

	for (op = 0; op < VNPU_COMM_OP_COUNT; op++) {
		if (vnpu_hccl_p2p(op))
			continue;
		for (n = 2; n <= VNPU_MAX_DEVICES; n += 3) {
			for (r = 0; r < n; r++) {
				EXPECT_EQ(vnpu_model_comm_ticks_link(p, 7000, op, n, S),
					  vnpu_model_comm_busy_ticks(p, 7000, op, n, r, 0, S) +
						  vnpu_model_hccl_step_ticks(p, 7000, &wait))
				TH_LOG("op %u, %u ranks, rank %u", op, n, r);
			}
		}
	}
}

TEST_HARNESS_MAIN
