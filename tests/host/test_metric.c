// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof export: the op_summary metric columns.
 *
 *  - the header of every metric group on a split product (A2: aic_/aiv_,
 *    the reference's section 1.4 table), on a flat one (910: unprefixed),
 *    and the product variants (350 without PipeUtilizationExct events, a
 *    split product without STARS);
 *  - every formula against values computed by hand (aicore_time, ratios,
 *    pipe times, icache_miss_rate, bandwidths, cube_utilization, fops,
 *    MemoryAccess KB, memory_bound);
 *  - the N/A and 0 rules: the other core's columns hold 0, events the
 *    session did not program give N/A, AI_CPU rows, rows without PMU data
 *    and saturated counters give N/A everywhere.
 *
 * Product facts and event lists are literals copied from kmod/vnpu_model.c
 * (the control page carries them at run time).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "npuprof_internal.h"

struct prod {
	uint32_t caps, aic, aiv, khz, sys, chip;
};

#define SPLIT_STARS (VNPU_CAP_SPLIT_AIC_AIV | VNPU_CAP_STARS)
static const struct prod A2 = { SPLIT_STARS, 24, 48, 1800000, 50000, 5 };
static const struct prod P350 = { SPLIT_STARS, 32, 64, 1900000, 1000000, 15 };
static const struct prod P910 = { 0, 32, 0, 1000000, 100000, 1 };
static const struct prod P310P = { 0, 8, 7, 1080000, 38400, 4 };
static const struct prod SPLIT_NO_STARS = { VNPU_CAP_SPLIT_AIC_AIV, 24, 48, 1800000, 50000, 5 };

static const uint32_t group_ev[VNPU_METRIC_COUNT][8] = {
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
static const uint32_t group_n[VNPU_METRIC_COUNT] = { 7, 8, 8, 8, 3, 8, 6, 8, 8 };
static const uint32_t pu_exct[8] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };

static void mkctrl(struct vnpu_ring_ctrl *c, const struct prod *p, uint32_t group)
{
	memset(c, 0, sizeof(*c));
	c->magic = VNPU_RING_MAGIC;
	c->compat_version = 1;
	c->level = VNPU_PROF_L1;
	c->caps = p->caps;
	c->aic_num = p->aic;
	c->aiv_num = p->aiv;
	c->aic_freq_khz = p->khz;
	c->sys_cnt_freq_khz = p->sys;
	c->metric_group = group;
	if (group >= VNPU_METRIC_COUNT)
		return;
	c->n_events = group_n[group];
	memcpy(c->aic_events, group_ev[group], sizeof(c->aic_events));
	if (group == VNPU_METRIC_PIPE_UTILIZATION && p->chip == 5)
		memcpy(c->aic_events, pu_exct, sizeof(c->aic_events));
	if (p->caps & VNPU_CAP_SPLIT_AIC_AIV)
		memcpy(c->aiv_events, group_ev[group], sizeof(c->aiv_events));
}

static char out[8192];

static const char *header(const struct prod *p, uint32_t group)
{
	struct vnpu_ring_ctrl c;
	struct npx_layout l;

	mkctrl(&c, p, group);
	if (npx_layout_init(&l, &c, NULL))
		return "init failed";
	/* without the leading comma */
	*npx_layout_header(&l, out) = '\0';
	return out[0] == ',' ? out + 1 : out;
}

#define AIC_HEAD "aicore_time(us),aic_total_cycles,"
#define AIV_HEAD "aiv_time(us),aiv_total_cycles,"
#define FLAT_HEAD "aicore_time(us),total_cycles,"

TEST(split_headers_every_group)
{
	EXPECT_STREQ(AIC_HEAD
		     "aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
		     "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,"
		     "aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate," AIV_HEAD
		     "aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,"
		     "aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,"
		     "aiv_icache_miss_rate,cube_utilization(%)",
		     header(&A2, VNPU_METRIC_PIPE_UTILIZATION));
	EXPECT_STREQ(AIC_HEAD "aic_mac_fp16_ratio,aic_mac_int8_ratio,aic_cube_fops," AIV_HEAD
			      "aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,aiv_vec_int32_ratio,"
			      "aiv_vec_misc_ratio,aiv_vector_fops",
		     header(&A2, VNPU_METRIC_ARITHMETIC_UTILIZATION));
	EXPECT_STREQ(
		AIC_HEAD
		"aic_l1_read_bw(GB/s),aic_l1_write_bw(GB/s),aic_main_mem_read_bw(GB/s),"
		"aic_main_mem_write_bw(GB/s),aic_l2_read_bw(GB/s),aic_l2_write_bw(GB/s)," AIV_HEAD
		"aiv_ub_read_bw(GB/s),aiv_ub_write_bw(GB/s),"
		"aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s),"
		"aiv_l2_read_bw(GB/s),aiv_l2_write_bw(GB/s)",
		header(&A2, VNPU_METRIC_MEMORY));
	EXPECT_STREQ(AIC_HEAD "aic_l0a_read_bw(GB/s),aic_l0a_write_bw(GB/s),aic_l0b_read_bw(GB/s),"
			      "aic_l0b_write_bw(GB/s),aic_l0c_read_bw_cube(GB/s),"
			      "aic_l0c_write_bw_cube(GB/s)," AIV_HEAD
			      "aiv_l0c_read_bw(GB/s),aiv_l0c_write_bw(GB/s)",
		     header(&A2, VNPU_METRIC_MEMORY_L0));
	EXPECT_STREQ(AIC_HEAD AIV_HEAD "aiv_vec_bankgroup_cflt_ratio,aiv_vec_bank_cflt_ratio,"
				       "aiv_vec_resc_cflt_ratio",
		     header(&A2, VNPU_METRIC_RESOURCE_CONFLICT_RATIO));
	EXPECT_STREQ(AIC_HEAD "aic_ub_read_bw_scalar(GB/s),aic_ub_write_bw_scalar(GB/s)," AIV_HEAD
			      "aiv_ub_read_bw_vector(GB/s),aiv_ub_write_bw_vector(GB/s),"
			      "aiv_ub_read_bw_scalar(GB/s),aiv_ub_write_bw_scalar(GB/s)",
		     header(&A2, VNPU_METRIC_MEMORY_UB));
	EXPECT_STREQ(AIC_HEAD "aic_write_cache_hit,aic_write_cache_miss_allocate,"
			      "aic_r0_read_cache_hit,aic_r0_read_cache_miss_allocate,"
			      "aic_r1_read_cache_hit,aic_r1_read_cache_miss_allocate," AIV_HEAD
			      "aiv_write_cache_hit,aiv_write_cache_miss_allocate,"
			      "aiv_r0_read_cache_hit,aiv_r0_read_cache_miss_allocate,"
			      "aiv_r1_read_cache_hit,aiv_r1_read_cache_miss_allocate",
		     header(&A2, VNPU_METRIC_L2_CACHE));
	/* msprof's own system test expectation for MemoryAccess on A2 */
	EXPECT_STREQ(AIC_HEAD "aic_read_main_memory_datas(KB),aic_write_main_memory_datas(KB),"
			      "aic_GM_to_L1_datas(KB),aic_L0C_to_L1_datas(KB),"
			      "aic_L0C_to_GM_datas(KB),aic_GM_to_UB_datas(KB),"
			      "aic_UB_to_GM_datas(KB)," AIV_HEAD
			      "aiv_read_main_memory_datas(KB),aiv_write_main_memory_datas(KB),"
			      "aiv_GM_to_L1_datas(KB),aiv_L0C_to_L1_datas(KB),"
			      "aiv_L0C_to_GM_datas(KB),aiv_GM_to_UB_datas(KB),"
			      "aiv_UB_to_GM_datas(KB)",
		     header(&A2, VNPU_METRIC_MEMORY_ACCESS));
	EXPECT_STREQ(AIC_HEAD
		     "aic_mac_exe_time(us),aic_mac_exe_ratio,aic_scalar_exe_time(us),"
		     "aic_scalar_exe_ratio,aic_mte1_exe_time(us),aic_mte1_exe_ratio,"
		     "aic_mte2_exe_time(us),aic_mte2_exe_ratio,aic_mte3_exe_time(us),"
		     "aic_mte3_exe_ratio,aic_fixpipe_exe_time(us),aic_fixpipe_exe_ratio," AIV_HEAD
		     "aiv_vec_exe_time(us),aiv_vec_exe_ratio,"
		     "aiv_scalar_exe_time(us),aiv_scalar_exe_ratio,aiv_mte2_exe_time(us),"
		     "aiv_mte2_exe_ratio,aiv_mte3_exe_time(us),aiv_mte3_exe_ratio,"
		     "cube_utilization(%)",
		     header(&A2, VNPU_METRIC_PIPE_EXECUTE_UTILIZATION));
}

TEST(flat_headers_every_group)
{
	EXPECT_STREQ(FLAT_HEAD "vec_time(us),vec_ratio,mac_time(us),mac_ratio,scalar_time(us),"
			       "scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),mte2_ratio,"
			       "mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound",
		     header(&P910, VNPU_METRIC_PIPE_UTILIZATION));
	EXPECT_STREQ(FLAT_HEAD "mac_fp16_ratio,mac_int8_ratio,vec_fp32_ratio,vec_fp16_ratio,"
			       "vec_int32_ratio,vec_misc_ratio,cube_fops,vector_fops",
		     header(&P910, VNPU_METRIC_ARITHMETIC_UTILIZATION));
	EXPECT_STREQ(FLAT_HEAD "ub_read_bw(GB/s),ub_write_bw(GB/s),l1_read_bw(GB/s),"
			       "l1_write_bw(GB/s),l2_read_bw(GB/s),l2_write_bw(GB/s),"
			       "main_mem_read_bw(GB/s),main_mem_write_bw(GB/s)",
		     header(&P910, VNPU_METRIC_MEMORY));
	EXPECT_STREQ(FLAT_HEAD "l0a_read_bw(GB/s),l0a_write_bw(GB/s),l0b_read_bw(GB/s),"
			       "l0b_write_bw(GB/s),l0c_read_bw(GB/s),l0c_write_bw(GB/s),"
			       "l0c_read_bw_cube(GB/s),l0c_write_bw_cube(GB/s)",
		     header(&P910, VNPU_METRIC_MEMORY_L0));
	EXPECT_STREQ(FLAT_HEAD "vec_bankgroup_cflt_ratio,vec_bank_cflt_ratio,vec_resc_cflt_ratio",
		     header(&P910, VNPU_METRIC_RESOURCE_CONFLICT_RATIO));
	EXPECT_STREQ(FLAT_HEAD "ub_read_bw_vector(GB/s),ub_write_bw_vector(GB/s),"
			       "ub_read_bw_scalar(GB/s),ub_write_bw_scalar(GB/s)",
		     header(&P910, VNPU_METRIC_MEMORY_UB));
	/* the model does not offer these on 910/310P; the layout still exists */
	EXPECT_STREQ(FLAT_HEAD "write_cache_hit,write_cache_miss_allocate,r0_read_cache_hit,"
			       "r0_read_cache_miss_allocate,r1_read_cache_hit,"
			       "r1_read_cache_miss_allocate",
		     header(&P910, VNPU_METRIC_L2_CACHE));
	EXPECT_STREQ(FLAT_HEAD "read_main_memory_datas(KB),write_main_memory_datas(KB),"
			       "GM_to_L1_datas(KB),L0C_to_L1_datas(KB),L0C_to_GM_datas(KB),"
			       "GM_to_UB_datas(KB),UB_to_GM_datas(KB)",
		     header(&P910, VNPU_METRIC_MEMORY_ACCESS));
	EXPECT_STREQ(FLAT_HEAD "vec_exe_time(us),vec_exe_ratio,mac_exe_time(us),mac_exe_ratio,"
			       "scalar_exe_time(us),scalar_exe_ratio,mte1_exe_time(us),"
			       "mte1_exe_ratio,mte2_exe_time(us),mte2_exe_ratio,"
			       "mte3_exe_time(us),mte3_exe_ratio,fixpipe_exe_time(us),"
			       "fixpipe_exe_ratio,memory_bound,cube_utilization(%)",
		     header(&P910, VNPU_METRIC_PIPE_EXECUTE_UTILIZATION));
	/* 310P is flat too */
	EXPECT_STREQ(header(&P910, VNPU_METRIC_MEMORY), header(&P310P, VNPU_METRIC_MEMORY));
}

TEST(no_group_no_columns)
{
	EXPECT_STREQ("", header(&A2, VNPU_METRIC_NONE));
	EXPECT_STREQ("", header(&P910, VNPU_METRIC_NONE));
}

/* without STARS/FFTS, aiv_time(us) is removed; aiv_total_cycles stays */
TEST(split_without_stars)
{
	EXPECT_STREQ(AIC_HEAD "aic_l0a_read_bw(GB/s),aic_l0a_write_bw(GB/s),aic_l0b_read_bw(GB/s),"
			      "aic_l0b_write_bw(GB/s),aic_l0c_read_bw_cube(GB/s),"
			      "aic_l0c_write_bw_cube(GB/s),aiv_total_cycles,"
			      "aiv_l0c_read_bw(GB/s),aiv_l0c_write_bw(GB/s)",
		     header(&SPLIT_NO_STARS, VNPU_METRIC_MEMORY_L0));
}

TEST(bad_group)
{
	struct vnpu_ring_ctrl c;
	struct npuprof_error err = { 0 };
	struct npx_layout l;

	mkctrl(&c, &A2, 42);
	EXPECT_EQ(-EBADMSG, npx_layout_init(&l, &c, &err));
	EXPECT_NE(NULL, strstr(err.msg, "42"));
	mkctrl(&c, &A2, VNPU_METRIC_MEMORY);
	c.aic_freq_khz = 0;
	EXPECT_EQ(-EBADMSG, npx_layout_init(&l, &c, &err));
}

/* ---- values ---- */

static struct npx_layout lay;

static void layout(const struct prod *p, uint32_t group)
{
	struct vnpu_ring_ctrl c;

	mkctrl(&c, p, group);
	npx_layout_init(&lay, &c, NULL);
}

static const char *row(const struct vnpu_rec_pmu *pmu, uint32_t type, uint32_t blocks,
		       uint64_t dur_ns)
{
	struct npx_mrow r = {
		.pmu = pmu, .task_type = type, .block_num = blocks, .dur_ns = dur_ns
	};

	*npx_layout_row(&lay, &r, out) = '\0';
	return out;
}

/*
 * A2 PipeUtilization, AI_CORE, 24 blocks on 24 cores (1 wave), C = 4,320,000
 * cycles at 1800 MHz: aicore_time = 4320000 / 1800 / 24 = 100 us.
 * mac = 0x416 + 0x417 = 2,160,000: ratio 0.5, time 50 us; scalar 432,000:
 * 0.1, 10 us; mte1 (0x302) 864,000: 0.2, 20 us; mte2 1,296,000: 0.3, 30 us;
 * fixpipe 43,201: 0.0100002 -> 0.010, 1.0000231 us -> 1.000;
 * icache 1234 / 2000 = 0.617. The task lasted 125 us:
 * cube_utilization = 4320000 / (1800 * 24) * 100 / 125 = 80%.
 */
TEST(a2_pipe_utilization_ai_core)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 4320000,
		.aic_blocks = 24,
		.aic_events = { 2000000, 160000, 432000, 864000, 1296000, 43201, 2000, 1234 },
	};

	layout(&A2, VNPU_METRIC_PIPE_UTILIZATION);
	EXPECT_STREQ(",100.000,4320000,50.000,0.500,10.000,0.100,20.000,0.200,30.000,0.300,"
		     "1.000,0.010,0.617,"
		     /* the AIV side of an AI_CORE task: 0 */
		     "0,0,0,0,0,0,0,0,0,0,0,"
		     "80.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 24, 125000));
}

/*
 * 48 blocks on 24 cores: 2 waves; aicore_time = C / 1800 / 48 * 2.
 * C = 4,320,000 -> 100 us again. Half-up rounding of a ratio: 1 / 2000.
 */
TEST(waves_and_rounding)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 4320000,
		.aic_blocks = 48,
		.aic_events = { 0, 0, 2160, 0, 0, 0, 2000, 1 },
	};

	layout(&A2, VNPU_METRIC_PIPE_UTILIZATION);
	/* scalar 2160 / 4320000 = 0.0005 -> 0.001 (half up); time 0.05 us */
	EXPECT_STREQ(",100.000,4320000,0.000,0.000,0.050,0.001,0.000,0.000,0.000,0.000,0.000,"
		     "0.000,0.001,0,0,0,0,0,0,0,0,0,0,0,80.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 48, 125000));
	/* the PMU record's blocks count, not OP_INFO's; none -> OP_INFO's */
	pmu.aic_blocks = 0;
	EXPECT_STREQ(",100.000,4320000,0.000,0.000,0.050,0.001,0.000,0.000,0.000,0.000,0.000,"
		     "0.000,0.001,0,0,0,0,0,0,0,0,0,0,0,80.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 48, 125000));
}

/* An AI_VECTOR_CORE task: aic columns 0, aiv side on 48 vector cores. */
TEST(a2_vector_task)
{
	struct vnpu_rec_pmu pmu = {
		.aiv_total_cycles = 1800000,
		.aiv_blocks = 48,
		/* 0x8 vec, 0xa, 0x9 scalar, 0xb, 0xc mte2, 0xd mte3, 0x54, 0x55 */
		.aiv_events = { 900000, 0, 180000, 0, 360000, 90000, 0, 0 },
	};

	layout(&A2, VNPU_METRIC_PIPE_UTILIZATION);
	/* aiv_time = 1800000 / 1800 / 48 = 20.833 us; vec 0.5 -> 10.417 us */
	EXPECT_STREQ(",0,0,0,0,0,0,0,0,0,0,0,0,0,"
		     "20.833,1800000,10.417,0.500,2.083,0.100,4.167,0.200,1.042,0.050,0.000,"
		     "0.000",
		     row(&pmu, VNPU_TASK_AI_VECTOR_CORE, 48, 50000));
}

/* A MIX_AIC task has both sides. */
TEST(a2_mix_task)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 43200,
		.aic_blocks = 24,
		.aiv_total_cycles = 86400,
		.aiv_blocks = 48,
		.aic_events = { 43200, 0, 0, 0, 0, 0, 0, 0 },
		.aiv_events = { 8640, 0, 0, 0, 0, 0, 0, 0 },
	};

	layout(&A2, VNPU_METRIC_PIPE_UTILIZATION);
	/* aicore 43200/1800/24 = 1 us; aiv 86400/1800/48 = 1 us; util 1/(1800*24)*100/2 */
	EXPECT_STREQ(",1.000,43200,1.000,1.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,"
		     "0.000,0.000,1.000,86400,0.100,0.100,0.000,0.000,0.000,0.000,0.000,0.000,"
		     "0.000,50.000",
		     row(&pmu, VNPU_TASK_MIX_AIC, 24, 2000));
}

/* 350 programs the default PipeUtilization list on AIC: no fixpipe, mac from 0xa */
TEST(p350_missing_events_are_na)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1900000,
		.aic_blocks = 32,
		/* 0x8, 0xa mac, 0x9, 0xb mte1, 0xc, 0xd, 0x54, 0x55 */
		.aic_events = { 0, 950000, 0, 190000, 0, 0, 100, 10 },
	};

	layout(&P350, VNPU_METRIC_PIPE_UTILIZATION);
	/* aicore 1900000/1900/32 = 31.25 -> 31.250 */
	EXPECT_STREQ(",31.250,1900000,15.625,0.500,0.000,0.000,3.125,0.100,0.000,0.000,N/A,N/A,"
		     "0.100,0,0,0,0,0,0,0,0,0,0,0,100.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 32, 31250));
	/* on a vector row the aic columns are 0 even where they do not exist */
	row(&pmu, VNPU_TASK_AI_VECTOR_CORE, 32, 31250);
	EXPECT_EQ(0, strncmp(",0,0,0,0,0,0,0,0,0,0,0,0,0,", out, 27));
	EXPECT_EQ(NULL, strstr(out, "N/A"));
}

/*
 * Bandwidth = events * bits / (C / freq_Hz) / 2^33. C = 1,800,000 at
 * 1.8 GHz (1 ms): l1_read 2^21 * 4096 -> 1000 GB/s; l1_write 2^23 * 1024
 * -> 1000; main_mem_read 2^27 * 64 -> 1000, main_mem_write 1 * 64 ->
 * 0.0000075 -> 0.000; l2_read 2^22 * 2048 -> 1000; l2_write 3 * 2^20 * 2048
 * -> 750.
 */
TEST(a2_memory_bandwidth)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1800000,
		.aic_blocks = 1,
		/* 0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13 */
		.aic_events = { 0, 0, 1 << 21, 1 << 23, 1 << 22, 3 << 20, 1 << 27, 1 },
	};

	layout(&A2, VNPU_METRIC_MEMORY);
	EXPECT_STREQ(",1000.000,1800000,1000.000,1000.000,1000.000,0.000,1000.000,750.000,"
		     "0,0,0,0,0,0,0,0",
		     row(&pmu, VNPU_TASK_AI_CORE, 1, 1000000));
	/* ub on the vector side: 2^23 * 1024 bits in 1 ms -> 1000 */
	pmu.aiv_total_cycles = 1800000;
	pmu.aiv_blocks = 1;
	pmu.aiv_events[0] = 1 << 23;
	pmu.aiv_events[1] = 1 << 22;
	EXPECT_STREQ(",0,0,0,0,0,0,0,0,1000.000,1800000,1000.000,500.000,0.000,0.000,0.000,0.000",
		     row(&pmu, VNPU_TASK_AI_VECTOR_CORE, 1, 1000000));
}

TEST(memory_l0_and_ub_factors)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1800000,
		.aic_blocks = 1,
		.aiv_total_cycles = 1800000,
		.aiv_blocks = 1,
		/* 0x1b, 0x1c, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a: 4096 4096 2048 2048 . 8192 . 8192
		 */
		.aic_events = { 1 << 21, 1 << 21, 1 << 22, 1 << 22, 0, 1 << 20, 0, 1 << 20 },
		.aiv_events = { 0, 0, 0, 0, 1 << 22, 0, 1 << 21, 0 },
	};

	layout(&A2, VNPU_METRIC_MEMORY_L0);
	EXPECT_STREQ(",1000.000,1800000,1000.000,1000.000,1000.000,1000.000,1000.000,1000.000,"
		     "1000.000,1800000,1000.000,500.000",
		     row(&pmu, VNPU_TASK_MIX_AIC, 1, 1000000));
	/* MemoryUB: 0x10, 0x13, 0x37, 0x38 (128 bits), 0x3d, 0x3e, 0x43, 0x44 (256 bits) */
	layout(&A2, VNPU_METRIC_MEMORY_UB);
	memset(pmu.aic_events, 0, sizeof(pmu.aic_events));
	memset(pmu.aiv_events, 0, sizeof(pmu.aiv_events));
	pmu.aic_events[2] = 1 << 26;
	pmu.aic_events[3] = 1 << 25;
	pmu.aiv_events[6] = 1 << 25;
	pmu.aiv_events[7] = 1 << 24;
	pmu.aiv_events[2] = 1 << 26;
	EXPECT_STREQ(",1000.000,1800000,1000.000,500.000,1000.000,1800000,1000.000,500.000,"
		     "1000.000,0.000",
		     row(&pmu, VNPU_TASK_MIX_AIV, 1, 1000000));
}

/* cube_fops = 0x49 * 8192 + 0x4a * 16384; vector_fops = 32, 128, 64, 64, 32 */
TEST(arithmetic_utilization)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1000,
		.aic_blocks = 1,
		.aiv_total_cycles = 1000,
		.aiv_blocks = 1,
		/* 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f */
		.aic_events = { 10, 1, 0, 0, 0, 0, 0 },
		.aiv_events = { 0, 0, 100, 200, 50, 25, 5 },
	};

	layout(&A2, VNPU_METRIC_ARITHMETIC_UTILIZATION);
	EXPECT_STREQ(",0.556,1000,0.010,0.001,98304.000,0.556,1000,0.100,0.250,0.025,0.005,"
		     "33760.000",
		     row(&pmu, VNPU_TASK_MIX_AIC, 1, 1000));
	/* flat 910: one side, every column */
	layout(&P910, VNPU_METRIC_ARITHMETIC_UTILIZATION);
	pmu.aic_events[2] = 100;
	pmu.aic_events[3] = 200;
	pmu.aic_events[4] = 50;
	pmu.aic_events[5] = 25;
	pmu.aic_events[6] = 5;
	/* aicore_time = 1000 / 1000 MHz = 1 us */
	EXPECT_STREQ(",1.000,1000,0.010,0.001,0.100,0.250,0.025,0.005,98304.000,33760.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 1, 1000));
}

/*
 * MemoryAccess: read = (0x50d + 0x50e) * 0.125 KB, write 0x50c * 0.125,
 * GM_to_L1 = (0x32 - 0x206) * 0.25, L0C_to_L1 = 0x206 * 0.125,
 * L0C_to_GM = (0x20c - 0x206) * 0.125, GM_to_UB 0x3e, UB_to_GM 0x3d.
 */
TEST(memory_access_kb)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1800,
		.aic_blocks = 1,
		.aiv_total_cycles = 1800,
		.aiv_blocks = 1,
		/* 0x32, 0x3d, 0x3e, 0x206, 0x20c, 0x50c, 0x50d, 0x50e */
		.aic_events = { 1000, 8, 16, 200, 1200, 24, 100, 28 },
		/* a difference that would be negative is 0 */
		.aiv_events = { 100, 0, 0, 200, 100, 0, 0, 1 },
	};

	layout(&A2, VNPU_METRIC_MEMORY_ACCESS);
	EXPECT_STREQ(",1.000,1800,16.000,3.000,200.000,25.000,125.000,2.000,1.000,"
		     "1.000,1800,0.125,0.000,0.000,25.000,0.000,0.000,0.000",
		     row(&pmu, VNPU_TASK_MIX_AIV, 1, 1000));
}

TEST(l2_cache_counts)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1800,
		.aic_blocks = 1,
		.aic_events = { 1, 2, 3, 4, 5, 18446744073709551615ULL },
	};

	layout(&A2, VNPU_METRIC_L2_CACHE);
	EXPECT_STREQ(",1.000,1800,1,2,3,4,5,18446744073709551615,0,0,0,0,0,0,0,0",
		     row(&pmu, VNPU_TASK_AI_CORE, 1, 1000));
}

TEST(resource_conflict_vector_only)
{
	struct vnpu_rec_pmu pmu = {
		.aiv_total_cycles = 10000,
		.aiv_blocks = 1,
		.aiv_events = { 100, 200, 5000 },
	};

	layout(&A2, VNPU_METRIC_RESOURCE_CONFLICT_RATIO);
	/* 10000 / 1800 = 5.5556 us */
	EXPECT_STREQ(",0,0,5.556,10000,0.010,0.020,0.500",
		     row(&pmu, VNPU_TASK_AI_VECTOR_CORE, 1, 1000));
}

/*
 * 910 PipeUtilization: 64 blocks on 32 cores, 2 waves: C = 6,400,000 at
 * 1000 MHz -> 6400000 / 1000 / 64 * 2 = 200 us. vec 0x8 = 1,600,000 (0.25,
 * 50 us), mac 0xa = 3,200,000 (0.5, 100 us), scalar 640,000 (0.1, 20 us),
 * mte1 0, mte2 1,600,000 (0.25, 50 us), mte3 320,000 (0.05, 10 us),
 * icache 0 requests -> 0.000, memory_bound = 1.6M / max(3.2M, 1.6M) = 0.5.
 */
TEST(p910_pipe_utilization)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 6400000,
		.aic_blocks = 64,
		.aic_events = { 1600000, 3200000, 640000, 0, 1600000, 320000, 0, 0 },
	};

	layout(&P910, VNPU_METRIC_PIPE_UTILIZATION);
	EXPECT_STREQ(",200.000,6400000,50.000,0.250,100.000,0.500,20.000,0.100,0.000,0.000,"
		     "50.000,0.250,10.000,0.050,0.000,0.500",
		     row(&pmu, VNPU_TASK_AI_CORE, 64, 250000));
	/* memory_bound with no mac and no vec cycles: 0 */
	memset(pmu.aic_events, 0, sizeof(pmu.aic_events));
	pmu.aic_events[4] = 5;
	EXPECT_NE(NULL, strstr(row(&pmu, VNPU_TASK_AI_CORE, 64, 250000), ",0.000,0.000"));
}

/* 310P vector task: a flat product, but the blocks ran on the 7 vector cores */
TEST(p310p_vector_cores)
{
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 1080000,
		.aic_blocks = 14,
	};

	layout(&P310P, VNPU_METRIC_MEMORY);
	/* 1080000 / 1080 / 14 * ceil(14 / 7) = 142.857 us */
	EXPECT_STREQ(",142.857,1080000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000",
		     row(&pmu, VNPU_TASK_AI_VECTOR_CORE, 14, 1000));
	/* on the 8 AI Cores: ceil(14 / 8) = 2 waves as well */
	EXPECT_STREQ(",142.857,1080000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 14, 1000));
	pmu.aic_blocks = 8;
	/* 1080000 / 1080 / 8 * 1 = 125 */
	EXPECT_STREQ(",125.000,1080000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 8, 1000));
}

TEST(na_rows)
{
	struct vnpu_rec_pmu pmu = { .aic_total_cycles = 1000, .aic_blocks = 1 };

	layout(&A2, VNPU_METRIC_RESOURCE_CONFLICT_RATIO);
	/* no PMU record (lost, or a task type without counters) */
	EXPECT_STREQ(",N/A,N/A,N/A,N/A,N/A,N/A,N/A", row(NULL, VNPU_TASK_AI_CORE, 1, 1000));
	/* AI_CPU tasks have no AI Core counters */
	EXPECT_STREQ(",N/A,N/A,N/A,N/A,N/A,N/A,N/A", row(&pmu, VNPU_TASK_AI_CPU, 1, 1000));
	/* saturated counters */
	pmu.hdr.flags = VNPU_REC_PMU_F_OVERFLOW;
	EXPECT_STREQ(",N/A,N/A,N/A,N/A,N/A,N/A,N/A", row(&pmu, VNPU_TASK_AI_CORE, 1, 1000));
	/* no group, no columns */
	layout(&A2, VNPU_METRIC_NONE);
	EXPECT_STREQ("", row(&pmu, VNPU_TASK_AI_CORE, 1, 1000));
}

/* cube_utilization with a zero duration or zero cycles is 0, never a crash */
TEST(degenerate_values)
{
	struct vnpu_rec_pmu pmu = { .aic_blocks = 0 };

	layout(&A2, VNPU_METRIC_PIPE_UTILIZATION);
	EXPECT_STREQ(",0.000,0,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,"
		     "0.000,0,0,0,0,0,0,0,0,0,0,0,0.000",
		     row(&pmu, VNPU_TASK_AI_CORE, 0, 0));
	/* huge counters: 128-bit intermediates, no overflow */
	pmu.aic_total_cycles = UINT64_MAX;
	pmu.aic_blocks = 1;
	pmu.aic_events[2] = UINT64_MAX;
	EXPECT_NE(NULL, strstr(row(&pmu, VNPU_TASK_AI_CORE, 1, 1),
			       ",10248191152060862.008,18446744073709551615,"));
}

TEST_HARNESS_MAIN
