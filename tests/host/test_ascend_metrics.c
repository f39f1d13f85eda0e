// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof export: the op_summary PMU columns of chip 7 (Atlas 200I/500
 * A2), against msprof's own output. The counters are context PMU records
 * a 200i-a2 vnpu device wrote (matmul_add under `npuprof run`), and every
 * expected header and cell is what msprof's parser (Ascend/msprof
 * 9ba1ac7be) wrote for that record: one set of unprefixed columns for AIC
 * and AIV records alike, computed from the AIC event list with C =
 * ai_core_num; the V1_1 chips' N/A list; memory_bound from the real
 * vec_ratio; 0x17f + 0x180 summed (docs/msprof-parser.md section 11).
 * Then the HWTS chips 1 and 4 (section 12).
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "export/ascend.h"

/* a device of @chip, @cores AI Cores at @mhz, programmed with @ev for @metrics */
static void cfg_chip(struct npa_dev_cfg *c, uint32_t chip, uint32_t cores, double mhz,
		     double hwts_hz, const char *metrics, const uint32_t *ev, uint32_t n)
{
	memset(c, 0, sizeof(*c));
	c->chip_id = chip;
	c->aic_mhz = mhz;
	c->ai_core_num = cores;
	c->hwts_hz = hwts_hz;
	snprintf(c->aic_metrics, sizeof(c->aic_metrics), "%s", metrics);
	for (uint32_t i = 0; i < n; i++)
		c->aic_events[i] = ev[i];
	c->n_aic_events = n;
}

/* the 200i-a2's DeviceInfo: 1 AIC, 1 AIV, 1250 MHz; both sides program @ev */
static void cfg_v11(struct npa_dev_cfg *c, const char *metrics, const uint32_t *ev, uint32_t n)
{
	cfg_chip(c, 7, 1, 1250, 48e6, metrics, ev, n);
	c->aiv_num = 1;
	snprintf(c->aiv_metrics, sizeof(c->aiv_metrics), "%s", metrics);
	for (uint32_t i = 0; i < n; i++)
		c->aiv_events[i] = ev[i];
	c->n_aiv_events = n;
}

static void header(const struct npa_metrics *m, char *buf)
{
	*npa_metrics_header(m, buf) = 0;
}

/* one row: a task of @blocks blocks, @total cycles, @dur_ns (msprof's Task Duration) */
static void row_of(const struct npa_metrics *m, const struct npa_dev_cfg *c, bool aiv,
		   uint64_t total, uint32_t blocks, double dur_ns, const uint64_t pmu[8], char *buf)
{
	struct npa_pmu p = { .total = total, .aiv = aiv };

	memcpy(p.pmu, pmu, 8 * sizeof(pmu[0]));
	*npa_metrics_row(m, c, &p, blocks, 0, dur_ns, buf) = 0;
}

/* a 1-block task of 10.5 us */
static void row(const struct npa_metrics *m, const struct npa_dev_cfg *c, bool aiv,
		const uint64_t pmu[8], char *buf)
{
	row_of(m, c, aiv, 10600, 1, 10500, pmu, buf);
}

TEST(pipe_utilization)
{
	static const uint32_t ev[] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 };
	static const uint64_t mm[8] = { 0, 4096, 550, 2048, 7200, 0, 694, 26 };
	static const uint64_t add[8] = { 544, 0, 550, 0, 6400, 3200, 694, 26 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_v11(&c, "PipeUtilization", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, w.count);
	header(&m, buf);
	EXPECT_STREQ(",aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),mac_ratio,"
		     "scalar_time(us),scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),"
		     "mte2_ratio,mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound,"
		     "cube_utilization(%)",
		     buf);
	row(&m, &c, false, mm, buf);
	EXPECT_STREQ(",8.48,10600,N/A,N/A,3.277,0.386,0.44,0.052,1.638,0.193,5.76,0.679,0.0,0.0,"
		     "0.037,1.759,80.762",
		     buf);
	/* an AIV record: the same columns; memory_bound from the vec_ratio printed N/A */
	row(&m, &c, true, add, buf);
	EXPECT_STREQ(",8.48,10600,N/A,N/A,0.0,0.0,0.44,0.052,0.0,0.0,5.12,0.604,2.56,0.302,0.037,"
		     "11.843,0",
		     buf);
	*npa_metrics_row(&m, &c, NULL, 1, 0, 10500, buf) = 0;
	EXPECT_STREQ(",N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A", buf);
}

/* chip 7's default group: no cube_utilization, memory_bound of the _exe ratios */
TEST(pipeline_execute_utilization)
{
	static const uint32_t ev[] = { 0x12c, 0x49, 0x4a, 0x9, 0x302, 0xc, 0xd, 0x303 };
	static const uint64_t mm[8] = { 0, 4096, 0, 550, 2048, 7200, 0, 2400 };
	static const uint64_t add[8] = { 476, 0, 0, 550, 0, 6400, 3200, 0 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_v11(&c, "PipelineExecuteUtilization", ev, 8);
	npa_metrics_init(&m, &c, &w);
	header(&m, buf);
	EXPECT_STREQ(",aicore_time(us),total_cycles,vec_exe_time(us),vec_exe_ratio,"
		     "mac_exe_time(us),mac_exe_ratio,scalar_exe_time(us),scalar_exe_ratio,"
		     "mte1_exe_time(us),mte1_exe_ratio,mte2_exe_time(us),mte2_exe_ratio,"
		     "mte3_exe_time(us),mte3_exe_ratio,fixpipe_exe_time(us),fixpipe_exe_ratio,"
		     "memory_bound",
		     buf);
	row(&m, &c, false, mm, buf);
	EXPECT_STREQ(",8.48,10600,0.0,0.0,3.277,0.386,0.44,0.052,1.638,0.193,5.76,0.679,0.0,0.0,"
		     "1.92,0.226,1.759",
		     buf);
	row(&m, &c, true, add, buf);
	EXPECT_STREQ(",8.48,10600,0.381,0.045,0.0,0.0,0.44,0.052,0.0,0.0,5.12,0.604,2.56,0.302,"
		     "0.0,0.0,13.422",
		     buf);
}

/* chip 7's own UB events; the _mte pair is not a column */
TEST(memory_ub)
{
	static const uint32_t ev[] = { 0x37, 0x38, 0x1a5, 0x1a6, 0x17f, 0x180, 0x191 };
	static const uint64_t mm[8] = { 0 };
	static const uint64_t add[8] = { 137, 68, 1024, 2048, 2176, 2176, 4352, 0 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_v11(&c, "MemoryUB", ev, 7);
	npa_metrics_init(&m, &c, &w);
	header(&m, buf);
	EXPECT_STREQ(
		",aicore_time(us),total_cycles,ub_read_bw_vector(GB/s),ub_write_bw_vector(GB/s),"
		"ub_read_bw_scalar(GB/s),ub_write_bw_scalar(GB/s)",
		buf);
	row(&m, &c, false, mm, buf);
	EXPECT_STREQ(",8.48,10600,0.0,0.0,0.0,0.0", buf);
	row(&m, &c, true, add, buf);
	EXPECT_STREQ(",8.48,10600,15.295,15.295,0.241,0.119", buf);
}

/*
 * The A2's MemoryUB events on chip 7 (0x43 where chip 7 counts 0x17f), and
 * a group chip 7 has no columns for: no PMU columns and a warning, never
 * columns computed from the wrong counters.
 */
TEST(events_not_of_the_group)
{
	static const uint32_t ev[] = { 0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;

	cfg_v11(&c, "MemoryUB", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, m.n);
	EXPECT_EQ(1, w.count);
	cfg_v11(&c, "MemoryAccess", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, m.n);
	EXPECT_EQ(2, w.count);
}

/* ---- chip 5 (A2/A3): an aic_ and an aiv_ side ---- */

/* the A2's DeviceInfo: 24 AIC, 48 AIV at 1800 MHz; both sides program @ev */
static void cfg_a2(struct npa_dev_cfg *c, const char *metrics, const uint32_t *ev, uint32_t n)
{
	cfg_chip(c, 5, 24, 1800, 50e6, metrics, ev, n);
	c->aiv_num = 48;
	snprintf(c->aiv_metrics, sizeof(c->aiv_metrics), "%s", metrics);
	for (uint32_t i = 0; i < n; i++)
		c->aiv_events[i] = ev[i];
	c->n_aiv_events = n;
}

/*
 * Memory on the A2: the columns and their order are those of msprof's C++
 * path, the one CANN runs on chip 5 (MemoryHeaderString without the
 * UNSUPPORTED_HEADER entries: no aic_ub_*, no aiv_l1_*), so the L2 pair
 * ends each side. Each bandwidth is p(ev) * pipe * scalar / (T / f) / 2^33:
 * L2 256 * 8 of events 0xf and 0x10, and 0 for a task that moved no L2
 * line; l1_write 128 * 8 (the C++ path's; the pure-Python fallback's
 * 256 * 8 would print 6.104). The header and the L2 cells of a real A2
 * folder (the levels fixture's a2-l1_memory) are the C++ path's, cell for
 * cell.
 */
TEST(a2_memory)
{
	static const uint32_t ev[] = { 0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13 };
	/* 18,000 cycles (10 us at 1.8 GHz): 4 KiB L2 lines read, 1 KiB written */
	static const uint64_t mm[8] = { 0, 0, 512, 256, 4096, 1024, 2048, 128 };
	static const uint64_t none[8] = { 0 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];
	double gbs = 18000.0 / 1.8e9 * 8589934592.0; /* (T / f) * 2^33 */
	char want[128];

	cfg_a2(&c, "Memory", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, w.count);
	header(&m, buf);
	EXPECT_STREQ(",aicore_time(us),aic_total_cycles,aic_l1_read_bw(GB/s),aic_l1_write_bw(GB/s),"
		     "aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s),aic_l2_read_bw(GB/s),"
		     "aic_l2_write_bw(GB/s),aiv_time(us),aiv_total_cycles,aiv_ub_read_bw(GB/s),"
		     "aiv_ub_write_bw(GB/s),aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s),"
		     "aiv_l2_read_bw(GB/s),aiv_l2_write_bw(GB/s)",
		     buf);
	row_of(&m, &c, false, 18000, 1, 10000, mm, buf);
	/* the L2 pair, from the events alone */
	snprintf(want, sizeof(want), ",%.3f,%.3f,", 4096 * 2048.0 / gbs, 1024 * 2048.0 / gbs);
	EXPECT_STREQ(",97.656,24.414,", want);
	EXPECT_NE(NULL, strstr(buf, want)) TH_LOG("%s", buf);
	EXPECT_STREQ(
		",10.0,18000,24.414,3.052,1.526,0.095,97.656,24.414,0.0,0,0.0,0.0,0.0,0.0,0.0,0.0",
		buf);
	/* an AIV record that read no L2 line: its L2 pair is 0 */
	row_of(&m, &c, true, 18000, 1, 10000, none, buf);
	EXPECT_STREQ(",0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,10.0,18000,0.0,0.0,0.0,0.0,0.0,0.0", buf);
}

/* ---- the HWTS chips: 1 (training series, 910A) and 4 (inference series, 310P) ---- */

/*
 * A device of @chip with @cores AI Cores at @mhz. The records below are
 * AI Core PMU records a 910 and a 310p vnpu device wrote (the levels
 * fixture of tests/vm/test_profiler.c), and the cells what msprof wrote
 * for them (make check-msprof: every cell equal).
 */
static void cfg_hwts(struct npa_dev_cfg *c, uint32_t chip, uint32_t cores, double mhz,
		     const char *metrics, const uint32_t *ev, uint32_t n)
{
	cfg_chip(c, chip, cores, mhz, chip == 1 ? 100e6 : 38.4e6, metrics, ev, n);
}

/* chip 1: chip 7's columns, vec_* printed (no N/A list), memory_bound of the real vec_ratio */
TEST(hwts_pipe_utilization)
{
	static const uint32_t ev[] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 };
	static const uint64_t mm[8] = { 1024, 16384, 4864, 8192, 20976, 6992, 3248, 304 };
	static const uint64_t add[8] = { 1088, 0, 2648, 0, 13984, 6992, 2064, 160 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_hwts(&c, 1, 32, 1000, "PipeUtilization", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, w.count);
	header(&m, buf);
	EXPECT_STREQ(",aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),mac_ratio,"
		     "scalar_time(us),scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),"
		     "mte2_ratio,mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound,"
		     "cube_utilization(%)",
		     buf);
	row_of(&m, &c, false, 43968, 16, 4750, mm, buf);
	EXPECT_STREQ(",2.75,43968,0.064,0.023,1.025,0.373,0.304,0.111,0.512,0.186,1.312,0.477,"
		     "0.437,0.159,0.094,1.279,28.926",
		     buf);
	row_of(&m, &c, false, 28976, 8, 5630, add, buf);
	EXPECT_STREQ(",3.62,28976,0.136,0.038,0.0,0.0,0.331,0.091,0.0,0.0,1.747,0.483,0.874,0.241,"
		     "0.078,12.711,0",
		     buf);
}

/* chip 4: vector_fops with msprof's v3 coefficients, fp32 64, int32 16, misc 16 */
TEST(hwts_arithmetic_utilization)
{
	static const uint32_t ev[] = { 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f };
	static const uint64_t mm[8] = { 16384, 0, 0, 0, 0, 0, 1024, 0 };
	static const uint64_t add[8] = { 0, 0, 0, 966, 133, 0, 0, 0 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_hwts(&c, 4, 8, 1080, "ArithmeticUtilization", ev, 7);
	npa_metrics_init(&m, &c, &w);
	header(&m, buf);
	EXPECT_STREQ(",aicore_time(us),total_cycles,mac_fp16_ratio,mac_int8_ratio,vec_fp32_ratio,"
		     "vec_fp16_ratio,vec_int32_ratio,vec_misc_ratio,cube_fops,vector_fops",
		     buf);
	row_of(&m, &c, false, 52248, 8, 8073, mm, buf);
	EXPECT_STREQ(",6.05,52248,0.314,0.0,0.0,0.0,0.0,0.02,134217728.0,16384.0", buf);
	row_of(&m, &c, false, 36036, 7, 6797, add, buf);
	EXPECT_STREQ(",4.77,36036,0.0,0.0,0.0,0.03,0.0,0.0,0.0,132160.0", buf);
	/* chip 1: [64, 64, 32], the misc counter at 32 lanes */
	cfg_hwts(&c, 1, 8, 1080, "ArithmeticUtilization", ev, 7);
	npa_metrics_init(&m, &c, &w);
	row_of(&m, &c, false, 52248, 8, 8073, mm, buf);
	EXPECT_STREQ(",6.05,52248,0.314,0.0,0.0,0.0,0.0,0.02,134217728.0,32768.0", buf);
}

/* chip 4: the default UB events, one vector read counter (0x43); no _mte pair */
TEST(hwts_memory_ub)
{
	static const uint32_t ev[] = { 0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44 };
	static const uint64_t softmax[8] = { 1372, 10976, 735, 364, 2737, 5467, 81928, 81928 };
	struct npa_warn w = { .quiet = 1 };
	struct npa_dev_cfg c;
	struct npa_metrics m;
	char buf[1024];

	cfg_hwts(&c, 4, 8, 1080, "MemoryUB", ev, 8);
	npa_metrics_init(&m, &c, &w);
	EXPECT_EQ(0, w.count);
	header(&m, buf);
	EXPECT_STREQ(
		",aicore_time(us),total_cycles,ub_read_bw_vector(GB/s),ub_write_bw_vector(GB/s),"
		"ub_read_bw_scalar(GB/s),ub_write_bw_scalar(GB/s)",
		buf);
	row_of(&m, &c, false, 45717, 7, 8073, softmax, buf);
	EXPECT_STREQ(",6.05,45717,57.68,57.68,0.259,0.128", buf);
}

TEST_HARNESS_MAIN
