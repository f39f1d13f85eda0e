// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: the PMU columns of op_summary on chip 5 (A2/A3), as
 * msprof's parser computes them from a context PMU record and the group's
 * event list (docs/msprof-parser.md section 4.3): the same columns, and
 * the same double arithmetic in the same order, so that the values agree
 * to the last printed digit. Chip 7 (200I/500 A2) has one set of
 * unprefixed columns for every record, AIV ones too, from the AIC event
 * list, with its V1_1 N/A list and memory_bound (section 11). The HWTS
 * chips 1 (training series) and 4 (inference series) have chip 7's
 * columns, every one printed, from their own MemoryUB events and vector
 * fops coefficients (section 12).
 *
 *   aicore_time(us) = round(T * 1000 * 1000.0 / int(f) / B * ceil(B / C), 2)
 *   X_ratio         = 1.0 * p(X) / T
 *   X_time(us)      = aicore_time * X_ratio
 *   X_bw(GB/s)      = 1.0 * p(X) * pipe * scalar / (T / f) / 2^33
 *
 * T total cycles, f the AI Core clock in Hz, B the task's blocks, C the
 * side's cores. Every value but the cycle counts is then rounded as
 * SQLite's round(x, 3) rounds it, since msprof's report selects it so.
 *
 * Chip 15 (v6) renumbers the events (msprof's CHIP_V6_MAP) and computes its
 * columns on the pure-Python formulas above (Chip6PmuCalculator, whose
 * results msprof's C++ path prints), but for the total times: each core
 * type's record's end less its start in us, rounded to 2 places, which
 * the X_time columns multiply.
 */
#include <stdio.h>
#include <string.h>

#include "export/ascend.h"

enum mkind {
	K_TOTAL_TIME, /* aicore_time / aiv_time */
	K_CYCLES, /* total cycles, an integer */
	K_RATIO, /* p(ev) / T */
	K_RATIO2, /* p(ev) / T + p(ev2) / T */
	K_TIME, /* total time * p(ev) / T */
	K_TIME2, /* total time * (p(ev) / T + p(ev2) / T) */
	K_ICACHE, /* (p(0x55) / T) / (p(0x54) / T) */
	K_BW, /* bandwidth of p(ev), factor k */
	K_COUNT, /* p(ev) as a float */
	K_CUBE_FOPS,
	K_VECTOR_FOPS,
	K_BW2, /* the sum of the bandwidths of p(ev) and p(ev2), factor k */
	K_MEMBOUND, /* mte2 / max(vec, mac), of the row's rounded ratios */
	K_BW_VEC, /* K_BW, plus p(ev2)'s as ub_read_bw_vector (128 x 2) */
};

struct mdef {
	const char *name; /* without the aic_/aiv_ prefix */
	uint8_t kind;
	uint16_t ev, ev2;
	double k;
	bool na; /* computed, but printed N/A (chip 7's NOT_SUPPORT_PMU list) */
};

#define END                             \
	{                               \
		NULL, 0, 0, 0, 0, false \
	}
#define RATIO(n, e)                                 \
	{                                           \
		n "_ratio", K_RATIO, e, 0, 0, false \
	}
#define PIPE(n, e) { n "_time(us)", K_TIME, e, 0, 0, false }, RATIO(n, e)
#define BW(n, e, k)                              \
	{                                        \
		n "(GB/s)", K_BW, e, 0, k, false \
	}
#define COUNT(n, e)                        \
	{                                  \
		n, K_COUNT, e, 0, 0, false \
	}
#define ICACHE                                                     \
	{                                                          \
		"icache_miss_rate", K_ICACHE, 0x55, 0x54, 0, false \
	}

static const struct mdef pipe_aic[] = { PIPE("mac", 0xa),
					PIPE("scalar", 0x9),
					PIPE("mte1", 0xb),
					PIPE("mte2", 0xc),
					PIPE("mte3", 0xd),
					ICACHE,
					END };
static const struct mdef pipe_aiv[] = {
	PIPE("vec", 0x8), PIPE("scalar", 0x9), PIPE("mte2", 0xc), PIPE("mte3", 0xd), ICACHE, END
};
static const struct mdef exct_aic[] = {
	{ "mac_time(us)", K_TIME2, 0x416, 0x417, 0, false },
	{ "mac_ratio", K_RATIO2, 0x416, 0x417, 0, false },
	PIPE("scalar", 0x9),
	PIPE("mte1", 0x302),
	PIPE("mte2", 0xc),
	PIPE("fixpipe", 0x303),
	ICACHE,
	END,
};
/*
 * The AIV side of PipeUtilizationExct: msprof drops aiv_mac_time, mte1
 * time and fixpipe as unsupported, but keeps the mac_ratio_extra and
 * mte1_ratio_extra ratios it renames.
 */
static const struct mdef exct_aiv[] = {
	{ "mac_ratio", K_RATIO2, 0x416, 0x417, 0, false },
	PIPE("scalar", 0x9),
	RATIO("mte1", 0x302),
	PIPE("mte2", 0xc),
	ICACHE,
	END,
};
static const struct mdef arith_aic[] = { RATIO("mac_fp16", 0x49),
					 RATIO("mac_int8", 0x4a),
					 { "cube_fops", K_CUBE_FOPS, 0x49, 0x4a, 0, false },
					 END };
static const struct mdef arith_aiv[] = {
	RATIO("vec_fp32", 0x4b),
	{ "vec_fp16_ratio", K_RATIO2, 0x4c, 0x4d, 0, false },
	RATIO("vec_int32", 0x4e),
	RATIO("vec_misc", 0x4f),
	{ "vector_fops", K_VECTOR_FOPS, 0x4c, 0x4d, 0, false },
	END,
};
/*
 * Memory on chip 5 is what msprof's C++ path writes, the path CANN runs on
 * these chips (docs/msprof-parser.md section 4.3): the L2 pair ends each
 * side (its MemoryHeaderString order, ub_* dropped on AIC and l1_* on
 * AIV), and l1_write_bw is 128 x 8 B a count (memory_calculator.h). The
 * pure-Python fallback drops the pair (aic_utils.py _remove_list) and
 * takes 256 x 8 for l1_write_bw (constant.py).
 */
static const struct mdef mem_aic[] = { BW("l1_read_bw", 0x31, 256.0 * 16.0),
				       BW("l1_write_bw", 0x32, 128.0 * 8.0),
				       BW("main_mem_read_bw", 0x12, 8.0 * 8.0),
				       BW("main_mem_write_bw", 0x13, 8.0 * 8.0),
				       BW("l2_read_bw", 0xf, 256.0 * 8.0),
				       BW("l2_write_bw", 0x10, 256.0 * 8.0),
				       END };
static const struct mdef mem_aiv[] = { BW("ub_read_bw", 0x15, 256.0 * 4.0),
				       BW("ub_write_bw", 0x16, 256.0 * 4.0),
				       BW("main_mem_read_bw", 0x12, 8.0 * 8.0),
				       BW("main_mem_write_bw", 0x13, 8.0 * 8.0),
				       BW("l2_read_bw", 0xf, 256.0 * 8.0),
				       BW("l2_write_bw", 0x10, 256.0 * 8.0),
				       END };
/*
 * MemoryL0 as the C++ path (memory_l0_calculator.h): the scalars by its
 * MemoryL0Index, 16 for L0B reads and 32 for the cube's L0C, where the
 * pure-Python path takes 8 (docs/msprof-parser.md section 4.3)
 */
static const struct mdef l0_aic[] = { BW("l0a_read_bw", 0x1b, 256.0 * 16.0),
				      BW("l0a_write_bw", 0x1c, 256.0 * 16.0),
				      BW("l0b_read_bw", 0x21, 256.0 * 16.0),
				      BW("l0b_write_bw", 0x22, 256.0 * 8.0),
				      BW("l0c_read_bw_cube", 0x28, 256.0 * 32.0),
				      BW("l0c_write_bw_cube", 0x2a, 256.0 * 32.0),
				      END };
static const struct mdef l0_aiv[] = { BW("l0c_read_bw", 0x27, 256.0 * 8.0),
				      BW("l0c_write_bw", 0x29, 256.0 * 8.0), END };
static const struct mdef ub_aic[] = { BW("ub_read_bw_scalar", 0x37, 128.0),
				      BW("ub_write_bw_scalar", 0x38, 128.0), END };
static const struct mdef ub_aiv[] = { BW("ub_read_bw_vector", 0x43, 256.0),
				      BW("ub_write_bw_vector", 0x44, 256.0),
				      BW("ub_read_bw_scalar", 0x37, 128.0),
				      BW("ub_write_bw_scalar", 0x38, 128.0), END };
static const struct mdef none[] = { END };
static const struct mdef cflt_aiv[] = { RATIO("vec_bankgroup_cflt", 0x64),
					RATIO("vec_bank_cflt", 0x65), RATIO("vec_resc_cflt", 0x66),
					END };
static const struct mdef l2[] = { COUNT("write_cache_hit", 0x500),
				  COUNT("write_cache_miss_allocate", 0x502),
				  COUNT("r0_read_cache_hit", 0x504),
				  COUNT("r0_read_cache_miss_allocate", 0x506),
				  COUNT("r1_read_cache_hit", 0x508),
				  COUNT("r1_read_cache_miss_allocate", 0x50a),
				  END };

/*
 * Chip 7: msprof's AICORE_METRICS_LIST order, the V1_1 chips' unsupported
 * columns N/A (viewer/chip_model_function/chip_model_decorators.py)
 */
#define NA_PIPE(n, e)                              \
	{ n "_time(us)", K_TIME, e, 0, 0, true },  \
	{                                          \
		n "_ratio", K_RATIO, e, 0, 0, true \
	}
#define NA_RATIO(n, e)                             \
	{                                          \
		n "_ratio", K_RATIO, e, 0, 0, true \
	}
#define NA_BW(n, e, k)                          \
	{                                       \
		n "(GB/s)", K_BW, e, 0, k, true \
	}
#define MEMBOUND                                           \
	{                                                  \
		"memory_bound", K_MEMBOUND, 0, 0, 0, false \
	}
static const struct mdef v11_pipe[] = {
	NA_PIPE("vec", 0x8),
	PIPE("mac", 0xa),
	PIPE("scalar", 0x9),
	PIPE("mte1", 0xb),
	PIPE("mte2", 0xc),
	PIPE("mte3", 0xd),
	ICACHE,
	MEMBOUND,
	END,
};
static const struct mdef v11_pipe_exe[] = {
	PIPE("vec_exe", 0x12c),
	{ "mac_exe_time(us)", K_TIME2, 0x49, 0x4a, 0, false },
	{ "mac_exe_ratio", K_RATIO2, 0x49, 0x4a, 0, false },
	PIPE("scalar_exe", 0x9),
	PIPE("mte1_exe", 0x302),
	PIPE("mte2_exe", 0xc),
	PIPE("mte3_exe", 0xd),
	PIPE("fixpipe_exe", 0x303),
	MEMBOUND,
	END,
};
static const struct mdef v11_arith[] = {
	RATIO("mac_fp16", 0x49),
	RATIO("mac_int8", 0x4a),
	NA_RATIO("vec_fp32", 0x4b),
	{ "vec_fp16_ratio", K_RATIO2, 0x4c, 0x4d, 0, true },
	NA_RATIO("vec_int32", 0x4e),
	NA_RATIO("vec_misc", 0x4f),
	{ "cube_fops", K_CUBE_FOPS, 0x49, 0x4a, 0, false },
	{ "vector_fops", K_VECTOR_FOPS, 0x4c, 0x4d, 0, false },
	END,
};
static const struct mdef v11_mem[] = { NA_BW("ub_read_bw", 0x15, 256.0 * 4.0),
				       NA_BW("ub_write_bw", 0x16, 256.0 * 4.0),
				       BW("l1_read_bw", 0x31, 256.0 * 16.0),
				       BW("l1_write_bw", 0x32, 256.0 * 8.0),
				       BW("main_mem_read_bw", 0x12, 8.0 * 8.0),
				       BW("main_mem_write_bw", 0x13, 8.0 * 8.0),
				       END };
static const struct mdef v11_l0[] = { BW("l0a_read_bw", 0x1b, 256.0 * 16.0),
				      BW("l0a_write_bw", 0x1c, 256.0 * 16.0),
				      BW("l0b_read_bw", 0x21, 256.0 * 8.0),
				      BW("l0b_write_bw", 0x22, 256.0 * 8.0),
				      BW("l0c_read_bw", 0x27, 256.0 * 8.0),
				      NA_BW("l0c_write_bw", 0x29, 256.0 * 8.0),
				      BW("l0c_read_bw_cube", 0x28, 256.0 * 8.0),
				      BW("l0c_write_bw_cube", 0x2a, 256.0 * 8.0),
				      END };
/* 0x17f and 0x180 both count ub_read_bw_vector: msprof sums the two */
static const struct mdef v11_ub[] = {
	{ "ub_read_bw_vector(GB/s)", K_BW2, 0x17f, 0x180, 256.0, false },
	BW("ub_write_bw_vector", 0x191, 256.0),
	BW("ub_read_bw_scalar", 0x37, 128.0),
	BW("ub_write_bw_scalar", 0x38, 128.0),
	END,
};
/* chips 1 and 4: the default MemoryUB events, the vector reads one counter */
static const struct mdef hwts_ub[] = {
	BW("ub_read_bw_vector", 0x43, 256.0),
	BW("ub_write_bw_vector", 0x44, 256.0),
	BW("ub_read_bw_scalar", 0x37, 128.0),
	BW("ub_write_bw_scalar", 0x38, 128.0),
	END,
};
static const struct mdef v11_cflt[] = { NA_RATIO("vec_bankgroup_cflt", 0x64),
					NA_RATIO("vec_bank_cflt", 0x65),
					NA_RATIO("vec_resc_cflt", 0x66), END };

static const struct {
	uint32_t group;
	const struct mdef *cols;
} v11_groups[] = {
	{ VNPU_METRIC_PIPE_UTILIZATION, v11_pipe },
	{ VNPU_METRIC_PIPE_EXECUTE_UTILIZATION, v11_pipe_exe },
	{ VNPU_METRIC_ARITHMETIC_UTILIZATION, v11_arith },
	{ VNPU_METRIC_MEMORY, v11_mem },
	{ VNPU_METRIC_MEMORY_L0, v11_l0 },
	{ VNPU_METRIC_MEMORY_UB, v11_ub },
	{ VNPU_METRIC_RESOURCE_CONFLICT_RATIO, v11_cflt },
	{ VNPU_METRIC_L2_CACHE, l2 },
};

/* chip 15 (v6): its event ids, the pure-Python path's scales (constant.py PmuCalculateFunc) */
#define ICACHE_V6                                                  \
	{                                                          \
		"icache_miss_rate", K_ICACHE, 0x35, 0x34, 0, false \
	}
static const struct mdef v6_pipe_aic[] = {
	PIPE("mac", 0x301),  PIPE("scalar", 0x1),    PIPE("mte1", 0x701), PIPE("mte2", 0x202),
	PIPE("mte3", 0x203), PIPE("fixpipe", 0x714), ICACHE_V6,		  END,
};
static const struct mdef v6_pipe_aiv[] = {
	PIPE("vec", 0x501),  PIPE("scalar", 0x1), PIPE("mte2", 0x202),
	PIPE("mte3", 0x203), ICACHE_V6,		  END,
};
static const struct mdef v6_arith_aic[] = { RATIO("mac_fp16", 0x323),
					    RATIO("mac_int8", 0x324),
					    { "cube_fops", K_CUBE_FOPS, 0x323, 0x324, 0, false },
					    END };
static const struct mdef v6_mem_aic[] = { BW("l1_read_bw", 0x707, 256.0 * 16.0),
					  BW("l1_write_bw", 0x709, 256.0 * 8.0),
					  BW("main_mem_read_bw", 0x400, 8.0 * 8.0),
					  BW("main_mem_write_bw", 0x401, 8.0 * 8.0), END };
/* msprof adds ub_read_bw_vector (0x571, at its own scale) into ub_read_bw */
static const struct mdef v6_mem_aiv[] = { { "ub_read_bw(GB/s)", K_BW_VEC, 0x56f, 0x571, 256.0 * 4.0,
					    false },
					  BW("ub_write_bw", 0x570, 256.0 * 4.0),
					  BW("main_mem_read_bw", 0x400, 8.0 * 8.0),
					  BW("main_mem_write_bw", 0x401, 8.0 * 8.0),
					  END };
static const struct mdef v6_l0_aic[] = { BW("l0a_read_bw", 0x304, 256.0 * 16.0),
					 BW("l0a_write_bw", 0x703, 256.0 * 16.0),
					 BW("l0b_read_bw", 0x306, 256.0 * 8.0),
					 BW("l0b_write_bw", 0x705, 256.0 * 8.0),
					 BW("l0c_read_bw_cube", 0x30a, 256.0 * 8.0),
					 BW("l0c_write_bw_cube", 0x308, 256.0 * 8.0),
					 END };
static const struct mdef v6_l0_aiv[] = { BW("l0c_read_bw", 0x712, 256.0 * 8.0), END };
static const struct mdef v6_ub_aic[] = { BW("ub_read_bw_scalar", 0x3, 128.0),
					 BW("ub_write_bw_scalar", 0x5, 128.0),
					 BW("fixp2ub_write_bw", 0x70c, 256.0 * 8.0), END };
static const struct mdef v6_ub_aiv[] = {
	BW("ub_read_bw_vector", 0x571, 128.0 * 2.0), BW("ub_write_bw_vector", 0x572, 128.0 * 2.0),
	BW("ub_read_bw_scalar", 0x3, 128.0),	     BW("ub_write_bw_scalar", 0x5, 128.0),
	BW("fixp2ub_write_bw", 0x70c, 256.0 * 8.0),  END,
};
/* CHIP_V6_MAP: (r540 + r556) / task_cyc and r528 / r502 */
static const struct mdef v6_cflt_aiv[] = {
	{ "vec_bank_cflt_ratio", K_RATIO2, 0x540, 0x556, 0, false },
	{ "vec_resc_cflt_ratio", K_ICACHE, 0x528, 0x502, 0, false },
	END,
};
static const struct mdef v6_l2[] = { COUNT("read_local_l2_hit", 0x424),
				     COUNT("read_local_l2_miss", 0x425),
				     COUNT("read_local_l2_victim", 0x426),
				     COUNT("write_local_l2_hit", 0x42a),
				     COUNT("write_local_l2_miss", 0x42b),
				     COUNT("write_local_l2_victim", 0x42c),
				     END };

static const struct {
	uint32_t group;
	const struct mdef *aic, *aiv;
} v6_groups[] = {
	{ VNPU_METRIC_PIPE_UTILIZATION, v6_pipe_aic, v6_pipe_aiv },
	{ VNPU_METRIC_ARITHMETIC_UTILIZATION, v6_arith_aic, none },
	{ VNPU_METRIC_MEMORY, v6_mem_aic, v6_mem_aiv },
	{ VNPU_METRIC_MEMORY_L0, v6_l0_aic, v6_l0_aiv },
	{ VNPU_METRIC_MEMORY_UB, v6_ub_aic, v6_ub_aiv },
	{ VNPU_METRIC_RESOURCE_CONFLICT_RATIO, none, v6_cflt_aiv },
	{ VNPU_METRIC_L2_CACHE, v6_l2, v6_l2 },
};

/* the columns of each group msprof parses (its names: metric_names.c) */
static const struct {
	uint32_t group;
	bool exct; /* the A2/A3 AIC name, PipeUtilizationExct */
	const struct mdef *aic, *aiv;
} groups[] = {
	{ VNPU_METRIC_PIPE_UTILIZATION, false, pipe_aic, pipe_aiv },
	{ VNPU_METRIC_PIPE_UTILIZATION, true, exct_aic, exct_aiv },
	{ VNPU_METRIC_ARITHMETIC_UTILIZATION, false, arith_aic, arith_aiv },
	{ VNPU_METRIC_MEMORY, false, mem_aic, mem_aiv },
	{ VNPU_METRIC_MEMORY_L0, false, l0_aic, l0_aiv },
	{ VNPU_METRIC_MEMORY_UB, false, ub_aic, ub_aiv },
	{ VNPU_METRIC_RESOURCE_CONFLICT_RATIO, false, none, cflt_aiv },
	{ VNPU_METRIC_L2_CACHE, false, l2, l2 },
};

/* the columns of sample.json's metric name @name on one side, NULL if none */
static const struct mdef *group_side(const char *name, bool aiv, bool v6)
{
	uint32_t group = npf_metric_group(name, false);
	bool exct = npf_metric_exct(name);

	for (size_t i = 0; v6 && i < NPX_ARRAY_SIZE(v6_groups); i++)
		if (v6_groups[i].group == group)
			return aiv ? v6_groups[i].aiv : v6_groups[i].aic;
	if (v6)
		return NULL;
	for (size_t i = 0; i < NPX_ARRAY_SIZE(groups); i++)
		if (groups[i].group == group && groups[i].exct == exct)
			return aiv ? groups[i].aiv : groups[i].aic;
	return NULL;
}

static int ev_index(const uint32_t *ev, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (ev[i] == id)
			return (int)i;
	return -1;
}

static int col_index(const struct npa_metrics *m, const char *name)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (!strcmp(m->name[i], name))
			return (int)i;
	return -1;
}

/* memory_bound's operands: the ratios of PipeUtilization or of PipelineExecuteUtilization */
static bool set_membound(struct npa_metrics *m)
{
	static const char *const names[2][3] = { { "mte2_ratio", "vec_ratio", "mac_ratio" },
						 { "mte2_exe_ratio", "vec_exe_ratio",
						   "mac_exe_ratio" } };

	for (int v = 0; v < 2; v++) {
		int i0 = col_index(m, names[v][0]), i1 = col_index(m, names[v][1]),
		    i2 = col_index(m, names[v][2]);

		if (i0 >= 0 && i1 >= 0 && i2 >= 0) {
			m->mb[0] = (int8_t)i0;
			m->mb[1] = (int8_t)i1;
			m->mb[2] = (int8_t)i2;
			return true;
		}
	}
	return false;
}

/*
 * The columns of one side (@aiv), or with m->flat of every record: "aic_"
 * / "aiv_" before each name but the first, or no prefix when flat.
 */
static bool add_side(struct npa_metrics *m, const struct mdef *defs, bool aiv, const uint32_t *ev,
		     uint32_t n_ev)
{
	const char *pre = m->flat ? "" : aiv ? "aiv_" : "aic_";

	if (m->n + 2 > NPA_MCOL_MAX)
		return false;
	snprintf(m->name[m->n], sizeof(m->name[0]), "%s", aiv ? "aiv_time(us)" : "aicore_time(us)");
	m->kind[m->n] = K_TOTAL_TIME;
	m->ev[m->n] = m->ev2[m->n] = -1;
	m->aiv[m->n++] = aiv;
	snprintf(m->name[m->n], sizeof(m->name[0]), "%stotal_cycles", pre);
	m->kind[m->n] = K_CYCLES;
	m->ev[m->n] = m->ev2[m->n] = -1;
	m->aiv[m->n++] = aiv;
	for (const struct mdef *d = defs; d->name; d++) {
		int e = d->kind == K_MEMBOUND ? -1 : ev_index(ev, n_ev, d->ev),
		    e2 = d->ev2 ? ev_index(ev, n_ev, d->ev2) : -1;

		if (m->n == NPA_MCOL_MAX || (e < 0 && d->kind != K_MEMBOUND) ||
		    (d->ev2 && e2 < 0 && d->kind != K_VECTOR_FOPS))
			return false;
		if (d->kind == K_MEMBOUND && !set_membound(m))
			return false;
		snprintf(m->name[m->n], sizeof(m->name[0]), "%s%s", pre, d->name);
		m->kind[m->n] = d->kind;
		m->k[m->n] = d->k;
		m->ev[m->n] = (int8_t)e;
		m->ev2[m->n] = (int8_t)e2;
		m->na[m->n] = d->na;
		m->aiv[m->n++] = aiv;
	}
	return true;
}

/* chip 7's columns of sample.json's metric name @name, or an HWTS chip's; NULL if none */
static const struct mdef *v11_cols(const char *name, bool hwts)
{
	uint32_t group = npf_metric_group(name, false);

	if (hwts && group == VNPU_METRIC_MEMORY_UB)
		return hwts_ub;
	for (size_t i = 0; i < NPX_ARRAY_SIZE(v11_groups); i++)
		if (v11_groups[i].group == group)
			return v11_groups[i].cols;
	return NULL;
}

/*
 * Chip 7: one set of columns from the AIC events, for AIC and AIV records
 * alike (m->flat); else the AIC side's, then the AIV side's.
 */
void npa_metrics_init(struct npa_metrics *m, const struct npa_dev_cfg *c, struct npa_warn *w)
{
	const struct mdef *aic, *aiv = NULL;
	int mac;

	memset(m, 0, sizeof(*m));
	if (!c->aic_metrics[0] || !c->n_aic_events)
		return;
	m->flat = npf_chip_has(c->chip_id, NPF_CHIP_V1_1 | NPF_CHIP_HWTS);
	if (m->flat) {
		aic = v11_cols(c->aic_metrics, npf_chip_has(c->chip_id, NPF_CHIP_HWTS));
	} else {
		m->v6 = npf_chip_has(c->chip_id, NPF_CHIP_V6);
		aic = group_side(c->aic_metrics, false, m->v6);
		aiv = group_side(c->aiv_metrics[0] ? c->aiv_metrics : c->aic_metrics, true, m->v6);
	}
	if (!aic || (!m->flat && !aiv)) {
		npa_warn(w,
			 "device_%u: metric group %s / %s is not supported on chip %u: no PMU"
			 " columns",
			 c->id, c->aic_metrics, c->aiv_metrics, c->chip_id);
		memset(m, 0, sizeof(*m));
		return;
	}
	if (!add_side(m, aic, false, c->aic_events, c->n_aic_events) ||
	    (aiv && !add_side(m, aiv, true, c->aiv_events, c->n_aiv_events))) {
		/* msprof: "table MetricSummary has N columns but M values were supplied" */
		npa_warn(w,
			 "device_%u: the events programmed do not match metric group %s / %s:"
			 " no PMU columns, as msprof writes none",
			 c->id, c->aic_metrics, c->aiv_metrics);
		memset(m, 0, sizeof(*m));
		return;
	}
	/* the N/A list is the V1_1 chips' alone: the HWTS chips print every column */
	if (npf_chip_has(c->chip_id, NPF_CHIP_HWTS))
		memset(m->na, 0, sizeof(m->na));
	mac = col_index(m, m->flat ? "mac_ratio" : "aic_mac_ratio");
	m->cube_util = mac >= 0;
	m->mac = (int8_t)mac;
}

char *npa_metrics_header(const struct npa_metrics *m, char *p)
{
	for (unsigned int i = 0; i < m->n; i++) {
		*p++ = ',';
		p = npx_put(p, m->name[i]);
	}
	if (m->cube_util)
		p = npx_lit(p, ",cube_utilization(%)");
	return p;
}

static double ratio(const uint64_t *pmu, int e, double t)
{
	return t ? 1.0 * (double)pmu[e] / t : 0;
}

/*
 * fp16 128 and 64 lanes, fp32, int32, misc: the ops per cycle of each;
 * the last three are msprof's get_vector_num(), [64, 16, 16] on the
 * chips it calls v3 (2 to 4: the inference series), else [64, 64, 32]
 */
static double vector_fops(const uint32_t *ev, uint32_t n_ev, const uint64_t *v, double t,
			  uint32_t chip)
{
	bool v3 = chip >= 2 && chip <= 4;
	const struct {
		uint16_t ev;
		double lanes;
	} parts[] = { { 0x4c, 128 },
		      { 0x4d, 64 },
		      { 0x4b, 64 },
		      { 0x4e, v3 ? 16 : 64 },
		      { 0x4f, v3 ? 16 : 32 } };
	double sum = 0;

	for (size_t i = 0; i < NPX_ARRAY_SIZE(parts); i++) {
		int e = ev_index(ev, n_ev, parts[i].ev);

		if (e < 0)
			return 0;
		sum += ratio(v, e, t) * t * parts[i].lanes;
	}
	return sum;
}

/*
 * msprof's cal_total_time; its C++ path (Calculator::CalculatorTotalTime)
 * leaves out the final round to two places
 */
static double total_time(double cycles, double f, uint32_t b, uint32_t c, bool cpp)
{
	double v;

	if (!b || !c || !f)
		return 0;
	v = cycles * 1000 * 1000.0 / (double)(int64_t)f / b * ((b + c - 1) / c);
	return cpp ? v : npa_py_round(v, 2);
}

static double bw(const uint64_t *v, int e, double k, double t, double f)
{
	/* pipe * scale is a power of two: one product is exact */
	return t && f ? 1.0 * (double)v[e] * k / (t / f) / 8589934592.0 : 0;
}

char *npa_metrics_row(const struct npa_metrics *m, const struct npa_dev_cfg *c,
		      const struct npa_pmu *pmu, uint32_t block_num, uint32_t mix_block_num,
		      double dur_ns, char *p)
{
	static const uint64_t zeros[NPA_PMU_EVENTS];
	double f = c->aic_mhz * 1e6, mac_ratio = 0, aic_cycles = 0, vals[NPA_MCOL_MAX] = { 0 };

	for (unsigned int i = 0; i < m->n; i++) {
		bool mine = pmu && (m->flat || pmu->aiv == m->aiv[i]);
		/* a mix op's other side: its block records, over its mix blocks */
		bool other = pmu && !mine && pmu->mix;
		const uint64_t *v = mine ? pmu->pmu : other ? pmu->pmu2 : zeros;
		uint64_t cyc = mine ? pmu->total : other ? pmu->total2 : 0;
		double t = (double)cyc, tt, x = 0;
		uint32_t cores = m->aiv[i] && !m->flat ? c->aiv_num : c->ai_core_num;
		int e = m->ev[i], e2 = m->ev2[i];

		*p++ = ',';
		if (!pmu) {
			p = npx_lit(p, "N/A");
			continue;
		}
		if (m->v6)
			tt = mine ? pmu->time_us : other ? pmu->time2_us : 0;
		else
			tt = total_time(t, f, other ? mix_block_num : block_num, cores, c->cpp.ok);
		switch (m->kind[i]) {
		case K_TOTAL_TIME:
			x = tt;
			break;
		case K_CYCLES:
			p = npa_fmt_u64(p, cyc);
			if (!m->aiv[i])
				aic_cycles = t;
			continue;
		case K_RATIO:
			x = ratio(v, e, t);
			break;
		case K_RATIO2:
			x = ratio(v, e, t) + ratio(v, e2, t);
			break;
		case K_TIME:
			x = tt * ratio(v, e, t);
			break;
		case K_TIME2:
			x = tt * (ratio(v, e, t) + ratio(v, e2, t));
			break;
		case K_ICACHE:
			x = ratio(v, e, t);
			if (e2 >= 0 && ratio(v, e2, t) != 0)
				x = x / ratio(v, e2, t);
			break;
		case K_BW:
			x = bw(v, e, m->k[i], t, f);
			break;
		case K_BW2:
			x = bw(v, e, m->k[i], t, f) + bw(v, e2, m->k[i], t, f);
			break;
		case K_BW_VEC:
			x = bw(v, e, m->k[i], t, f) + bw(v, e2, 128.0 * 2.0, t, f);
			break;
		case K_COUNT:
			x = 1.0 * (double)v[e];
			break;
		case K_CUBE_FOPS:
			x = ratio(v, e, t) * t * 16 * 16 * 16 * 2 +
			    ratio(v, e2, t) * t * 16 * 16 * 32 * 2;
			break;
		case K_VECTOR_FOPS:
			x = m->flat ? vector_fops(c->aic_events, c->n_aic_events, v, t, c->chip_id)
				    : vector_fops(c->aiv_events, c->n_aiv_events, v, t, c->chip_id);
			break;
		case K_MEMBOUND: {
			/* msprof's add_mem_bound, on the ratios as the report rounded them */
			double d =
				vals[m->mb[1]] > vals[m->mb[2]] ? vals[m->mb[1]] : vals[m->mb[2]];

			if (d == 0) {
				*p++ = '0';
				continue;
			}
			p = npa_py_repr(p, npa_py_round(vals[m->mb[0]] / d, 3));
			continue;
		}
		}
		x = npa_sqlite_round(x, 3);
		vals[i] = x;
		if (m->cube_util && (int)i == m->mac)
			mac_ratio = x;
		p = m->na[i] ? npx_lit(p, "N/A") : npa_py_repr(p, x);
	}
	if (m->cube_util) {
		*p++ = ',';
		if (!pmu) {
			p = npx_lit(p, "N/A");
		} else if (c->cpp.ok) {
			/*
			 * chips 5, 15 and 16, msprof's C++ path (ascend_cpp.c),
			 * metric_processor.cpp: std::to_string(cycles / (MHz x
			 * cores) x 100), over the Task Duration cell's us
			 * (op_summary_assembler.cpp AddCubeUsage), "%.3f"
			 */
			char u[400];
			double core = c->aic_mhz * c->ai_core_num;

			if (!core) {
				p = npx_lit(p, "N/A");
			} else if (!dur_ns) {
				*p++ = '0';
			} else {
				*npa_cpp_to_string(u, aic_cycles / core * 100) = 0;
				p += sprintf(p, "%.3f", strtod(u, NULL) / dur_ns);
			}
		} else if (!mac_ratio || !aic_cycles || !dur_ns) {
			*p++ = '0';
		} else {
			double u = aic_cycles / (c->aic_mhz * c->ai_core_num * dur_ns) * 1000 * 100;

			p = npa_py_repr(p, npa_py_round(u, 3));
		}
	}
	return p;
}
