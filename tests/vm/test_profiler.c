// SPDX-License-Identifier: GPL-2.0
/*
 * The Profiler end to end: the TF adapter's own example, every level and
 * metric group (files and headers), its rules (nesting, a second thread,
 * global profiling, bad paths, unsupported product), global profiling, and
 * a workload killed mid-profile whose raw data still exports.
 */
#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "npuprof.h"
#include "vm/vnpu_test.h"
#include "vnpu_prof.h"

/* The one PROF_* folder under @dir, in @out; 0 or -1. */
static int find_prof(const char *dir, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int ret = -1;

	snprintf(pat, sizeof(pat), "%s/PROF_*", dir);
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1) {
		snprintf(out, len, "%s", g.gl_pathv[0]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

/* Path of the output file @prefix*.csv|json of @prof, or -1. */
static int find_output(const char *prof, const char *prefix, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int ret = -1;

	snprintf(pat, sizeof(pat), "%s/mindstudio_profiler_output/%s", prof, prefix);
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc >= 1) {
		snprintf(out, len, "%s", g.gl_pathv[0]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

/* First line of @path in @line, and the number of lines after it. */
static int read_csv(const char *path, char *line, size_t len, int *rows)
{
	FILE *f = fopen(path, "r");
	char buf[8192];

	if (!f)
		return -1;
	if (!fgets(line, (int)len, f)) {
		fclose(f);
		return -1;
	}
	line[strcspn(line, "\r\n")] = 0;
	*rows = 0;
	while (fgets(buf, sizeof(buf), f))
		(*rows)++;
	fclose(f);
	return 0;
}

static int grep_file(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	char buf[16384];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(buf, sizeof(buf), f))
		found = strstr(buf, needle) != NULL;
	fclose(f);
	return found;
}

FIXTURE(prof)
{
	char dir[64];
	char cwd[PATH_MAX];
	struct npuprof_dev *dev;
	uint32_t stream;
};

FIXTURE_SETUP(prof)
{
	struct npuprof_error err;

	strcpy(self->dir, "/tmp/npuprof-test-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_NE(NULL, getcwd(self->cwd, sizeof(self->cwd)));
	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_EQ(0, npuprof_open(0, &self->dev, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_stream_create(self->dev, &self->stream, &err));
}

FIXTURE_TEARDOWN(prof)
{
	npuprof_close(self->dev);
	if (chdir(self->cwd))
		TH_LOG("chdir back failed");
}

/*
 * The first @n cells of @path's first row after the header, split at
 * commas in @row (the cells before op_summary's quoted shapes): 0, or -1.
 */
static int first_row_cells(const char *path, char *row, size_t len, char **cell, int n)
{
	FILE *f = fopen(path, "r");
	char *save = NULL, *p = row;
	int ok;

	if (!f)
		return -1;
	ok = fgets(row, (int)len, f) && fgets(row, (int)len, f);
	fclose(f);
	for (int i = 0; ok && i < n; i++, p = NULL)
		ok = (cell[i] = strtok_r(p, ",", &save)) != NULL;
	return ok ? 0 : -1;
}

/* The seed: an int32 2x2 Add under L1 / ArithmeticUtilization / "./". */
TEST_F(prof, seed_example)
{
	uint64_t dims[2] = { 2, 2 };
	char prof[PATH_MAX], csv[PATH_MAX], header[8192], row[8192], *cell[11];
	struct npuprof_scope scope;
	struct vnpu_task add;
	int rows = 0;

	ASSERT_EQ(0, npuprof_op_add(self->dev, &add, "Add", self->stream, 2, dims, VNPU_DT_INT32));
	NPUPROF_PROFILER(&scope, .level = "L1", .aic_metrics = "ArithmeticUtilization",
			 .output_path = "./")
	{
		ASSERT_EQ(0, npuprof_launch(self->dev, &add, 1, NULL, NULL));
		ASSERT_EQ(0, npuprof_sync(self->dev, self->stream, 10000, NULL));
	}
	ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", csv, sizeof(csv)));
	ASSERT_EQ(0, read_csv(csv, header, sizeof(header), &rows));
	/* the default device is an A2 (chip 5): msprof's C++ path's names */
	EXPECT_EQ(0, strncmp(header,
			     "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,"
			     "Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),"
			     "Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,"
			     "Input Formats,Output Shapes,Output Data Types,Output Formats,"
			     "Context ID,",
			     strlen("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,"
				    "OP State,Task Type,Task Start Time(us),Task Duration(us),"
				    "Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,"
				    "Input Shapes,Input Data Types,Input Formats,Output Shapes,"
				    "Output Data Types,Output Formats,Context ID,")))
	TH_LOG("%s", header);
	EXPECT_NE(NULL, strstr(header, "aic_mac_fp16_ratio")) TH_LOG("%s", header);
	EXPECT_NE(NULL, strstr(header, "aiv_vec_int32_ratio")) TH_LOG("%s", header);
	EXPECT_EQ(1, rows);
	EXPECT_TRUE(grep_file(csv, ",Add,Add,"));
	EXPECT_TRUE(grep_file(csv, "INT32;INT32"));
	/* msprof's C++ path's cells: ns / 1000 with 3 decimals, the first wait "0" */
	ASSERT_EQ(0, first_row_cells(csv, row, sizeof(row), cell, 11));
	EXPECT_EQ('\t', cell[8][strlen(cell[8]) - 1]) TH_LOG("start %s", cell[8]);
	EXPECT_EQ('.', cell[8][strlen(cell[8]) - 5]) TH_LOG("start %s", cell[8]);
	EXPECT_EQ('.', cell[9][strlen(cell[9]) - 4]) TH_LOG("duration %s", cell[9]);
	EXPECT_STREQ("0", cell[10]);
	ASSERT_EQ(0, find_output(prof, "api_statistic_*.csv", csv, sizeof(csv)));
	EXPECT_TRUE(grep_file(csv, "host,acl,")) TH_LOG("api_statistic's Device_id is host");
}

/*
 * npuprof_launch_stride(): a caller compiled with a larger struct vnpu_task
 * (a newer uapi) launches with its own stride, and the host records read
 * each task through it (the op names reach op_summary); a member this
 * device does not know set is -E2BIG, a stride below VER0 -EINVAL.
 */
TEST_F(prof, launch_takes_the_callers_stride)
{
	struct wide_task {
		struct vnpu_task t;
		uint64_t newer_member;
	} wide[2] = { 0 };
	uint64_t dims[2] = { 64, 64 }, ids[2] = { 0 };
	char prof[PATH_MAX], csv[PATH_MAX], header[8192];
	struct npuprof_error err;
	struct npuprof_scope scope;
	int rows = 0;

	ASSERT_EQ(0, npuprof_op_add(self->dev, &wide[0].t, "Wide_0", self->stream, 2, dims,
				    VNPU_DT_FLOAT16));
	ASSERT_EQ(0, npuprof_op_add(self->dev, &wide[1].t, "Wide_1", self->stream, 2, dims,
				    VNPU_DT_FLOAT16));
	NPUPROF_PROFILER(&scope, .level = "L1", .output_path = "./")
	{
		EXPECT_EQ(0, npuprof_launch_stride(self->dev, wide, 2, sizeof(wide[0]), ids, &err))
		TH_LOG("%s", err.msg);
		EXPECT_EQ(ids[0] + 1, ids[1]);
		EXPECT_EQ(-EINVAL, npuprof_launch_stride(self->dev, wide, 2,
							 VNPU_TASK_SIZE_VER0 - 8, NULL, &err));
		EXPECT_NE(NULL, strstr(err.msg, "task_size 808")) TH_LOG("%s", err.msg);
		wide[1].newer_member = 1;
		EXPECT_EQ(-E2BIG,
			  npuprof_launch_stride(self->dev, wide, 2, sizeof(wide[0]), NULL, &err));
		EXPECT_EQ(0, npuprof_sync(self->dev, self->stream, 10000, NULL));
	}
	ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", csv, sizeof(csv)));
	ASSERT_EQ(0, read_csv(csv, header, sizeof(header), &rows));
	EXPECT_EQ(2, rows);
	EXPECT_TRUE(grep_file(csv, ",Wide_0,Add,"));
	EXPECT_TRUE(grep_file(csv, ",Wide_1,Add,"));
}

/*
 * An operator named in UTF-8 keeps its name: as it is in op_summary, and
 * in the timeline as the A2's msprof writes it, its C++ path's rapidjson
 * (UTF-8 as is; the pure-Python path's json.dumps() writes \\uXXXX). The
 * driver refused such names before uapi 0.6, and the export turned their
 * bytes into '?'.
 */
TEST_F(prof, utf8_names_reach_the_outputs)
{
	uint64_t dims[2] = { 64, 64 };
	char prof[PATH_MAX], csv[PATH_MAX], json[PATH_MAX], header[8192];
	struct npuprof_error err;
	struct npuprof_scope scope;
	struct vnpu_task t;
	int rows = 0;

	ASSERT_EQ(0, npuprof_op_add(self->dev, &t, "\u77e9\u9635\u4e58_0", self->stream, 2, dims,
				    VNPU_DT_FLOAT16));
	NPUPROF_PROFILER(&scope, .level = "L1", .output_path = "./")
	{
		EXPECT_EQ(0, npuprof_launch(self->dev, &t, 1, NULL, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(0, npuprof_sync(self->dev, self->stream, 10000, NULL));
	}
	ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", csv, sizeof(csv)));
	ASSERT_EQ(0, read_csv(csv, header, sizeof(header), &rows));
	EXPECT_EQ(1, rows);
	EXPECT_TRUE(grep_file(csv, ",\u77e9\u9635\u4e58_0,Add,"));
	ASSERT_EQ(0, find_output(prof, "msprof_*.json", json, sizeof(json)));
	EXPECT_TRUE(grep_file(json, "\"\u77e9\u9635\u4e58_0\""));
}

/*
 * Timeouts are poll(2)'s: npuprof_sync() with 0 does not wait, N waits N
 * ms, a negative one waits forever. A collective whose partner has not
 * launched keeps the stream busy until it does.
 */
TEST(sync_timeouts_are_polls)
{
	struct npuprof_dev *d0, *d1;
	struct npuprof_comm_key key;
	struct npuprof_error err;
	uint32_t c0, c1, s0, s1;
	struct vnpu_task t0, t1;
	double start;

	ASSERT_EQ(0, npuprof_open(0, &d0, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_open(1, &d1, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_comm_create(d0, 2, 0, &key, &c0, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_comm_join(d1, &key, 2, 1, &c1, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_stream_create(d0, &s0, &err));
	ASSERT_EQ(0, npuprof_stream_create(d1, &s1, &err));
	ASSERT_EQ(0, npuprof_op_allreduce(d0, &t0, "hcom_allReduce_0", s0, c0, 1, 1 << 16,
					  VNPU_DT_FLOAT16));
	ASSERT_EQ(0, npuprof_op_allreduce(d1, &t1, "hcom_allReduce_0", s1, c1, 1, 1 << 16,
					  VNPU_DT_FLOAT16));
	ASSERT_EQ(0, npuprof_launch(d0, &t0, 1, NULL, &err)) TH_LOG("%s", err.msg);

	start = vnpu_now_s();
	EXPECT_EQ(-ETIMEDOUT, npuprof_sync(d0, s0, 0, &err));
	EXPECT_EQ(-ETIMEDOUT, npuprof_sync_all(d0, 0, &err));
	EXPECT_GT(0.5, vnpu_now_s() - start);
	start = vnpu_now_s();
	EXPECT_EQ(-ETIMEDOUT, npuprof_sync(d0, s0, 200, &err));
	EXPECT_LE(0.19, vnpu_now_s() - start);

	ASSERT_EQ(0, npuprof_launch(d1, &t1, 1, NULL, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_sync(d0, s0, -1, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_sync(d0, s0, 0, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_sync_all(d1, -1, &err)) TH_LOG("%s", err.msg);
	npuprof_close(d1);
	npuprof_close(d0);
}

/* ---- every level x metric group: the expected files and headers ---- */

/*
 * Every product the Profiler supports (VNPU_CAP_SCOPED_PROFILING), every
 * level and metric group it takes. The A2 is the module's default; the others reload the module
 * with product=@product. The 200I/500 A2 has no Profiler: its variants
 * profile the same ops under global profiling (npuprof run's way).
 */
FIXTURE(levels)
{
	char dir[64];
	char cwd[PATH_MAX];
	struct npuprof_dev *dev;
	uint32_t stream;
};

FIXTURE_VARIANT(levels)
{
	const char *name;
	const char *product; /* the module's product= key; NULL: the default (a2) */
	const char *product_name;
	const char *level;
	const char *metrics;
	const char *column; /* a column the group brings ("," first: unprefixed), or NULL */
	bool global; /* PROFILING_MODE in a child process, not the Profiler */
};

/* one variant; @g: under global profiling instead of the Profiler */
#define LV_VAR(prod, key, pname, id, l, m, c, g)                                          \
	FIXTURE_VARIANT_ADD(levels, prod##_##id)                                          \
	{                                                                                 \
		.name = #prod "-" #id, .product = key, .product_name = pname, .level = l, \
		.metrics = m, .column = c, .global = g,                                   \
	}
#define LV_ONE(prod, key, pname, id, l, m, c) LV_VAR(prod, key, pname, id, l, m, c, false)
/*
 * Every group at L1 and at L2 (@lv, @l): the PMU columns do not depend on
 * the level, but what else each level brings (AI CPU, runtime API) meets
 * each group's columns only in such a folder, and make check-msprof
 * compares every one of them with msprof (docs/testing.md). First the
 * base groups, on every product.
 */
#define LV_BASE_AT(prod, key, pname, lv, l)                                                     \
	LV_ONE(prod, key, pname, lv##_default, l, "", "aic_mac_ratio");                         \
	LV_ONE(prod, key, pname, lv##_arith, l, "ArithmeticUtilization", "aic_cube_fops");      \
	LV_ONE(prod, key, pname, lv##_pipe, l, "PipeUtilization", "aiv_mte3_ratio");            \
	LV_ONE(prod, key, pname, lv##_memory, l, "Memory", "aic_l2_read_bw(GB/s)");             \
	LV_ONE(prod, key, pname, lv##_memory_l0, l, "MemoryL0", "aic_l0a_read_bw(GB/s)");       \
	LV_ONE(prod, key, pname, lv##_memory_ub, l, "MemoryUB", "aiv_ub_read_bw_vector(GB/s)"); \
	LV_ONE(prod, key, pname, lv##_conflict, l, "ResourceConflictRatio",                     \
	       "aiv_vec_bank_cflt_ratio")
#define LV_BASE(prod, key, pname)                     \
	LV_ONE(prod, key, pname, l0, "L0", "", NULL); \
	LV_BASE_AT(prod, key, pname, l1, "L1");       \
	LV_BASE_AT(prod, key, pname, l2, "L2")
/* the Atlas 350 (chip 15, v6): its Memory group has no L2 pair, msprof's v6 list */
#define LV_V6_AT(prod, key, pname, lv, l)                                                      \
	LV_ONE(prod, key, pname, lv##_default, l, "", "aic_fixpipe_ratio");                    \
	LV_ONE(prod, key, pname, lv##_arith, l, "ArithmeticUtilization", "aic_cube_fops");     \
	LV_ONE(prod, key, pname, lv##_pipe, l, "PipeUtilization", "aiv_mte3_ratio");           \
	LV_ONE(prod, key, pname, lv##_memory, l, "Memory", "aiv_ub_read_bw(GB/s)");            \
	LV_ONE(prod, key, pname, lv##_memory_l0, l, "MemoryL0", "aic_l0a_read_bw(GB/s)");      \
	LV_ONE(prod, key, pname, lv##_memory_ub, l, "MemoryUB", "aic_fixp2ub_write_bw(GB/s)"); \
	LV_ONE(prod, key, pname, lv##_conflict, l, "ResourceConflictRatio",                    \
	       "aiv_vec_bank_cflt_ratio")
#define LV_V6(prod, key, pname)                       \
	LV_ONE(prod, key, pname, l0, "L0", "", NULL); \
	LV_V6_AT(prod, key, pname, l1, "L1");         \
	LV_V6_AT(prod, key, pname, l2, "L2")
#define LV_L2CACHE(prod, key, pname)                                                  \
	LV_ONE(prod, key, pname, l1_l2cache, "L1", "L2Cache", "aic_write_cache_hit"); \
	LV_ONE(prod, key, pname, l2_l2cache, "L2", "L2Cache", "aic_write_cache_hit")

/* the 910 does not split AIC/AIV: unprefixed columns (docs/output.md) */
#define LV_FLAT_AT(prod, key, pname, lv, l)                                                  \
	LV_ONE(prod, key, pname, lv##_default, l, "", ",mac_ratio");                         \
	LV_ONE(prod, key, pname, lv##_arith, l, "ArithmeticUtilization", ",cube_fops");      \
	LV_ONE(prod, key, pname, lv##_pipe, l, "PipeUtilization", ",mte3_ratio");            \
	LV_ONE(prod, key, pname, lv##_memory, l, "Memory", ",main_mem_read_bw(GB/s)");       \
	LV_ONE(prod, key, pname, lv##_memory_l0, l, "MemoryL0", ",l0a_read_bw(GB/s)");       \
	LV_ONE(prod, key, pname, lv##_memory_ub, l, "MemoryUB", ",ub_read_bw_vector(GB/s)"); \
	LV_ONE(prod, key, pname, lv##_conflict, l, "ResourceConflictRatio", ",vec_bank_cflt_ratio")
#define LV_FLAT(prod, key, pname)                     \
	LV_ONE(prod, key, pname, l0, "L0", "", NULL); \
	LV_FLAT_AT(prod, key, pname, l1, "L1");       \
	LV_FLAT_AT(prod, key, pname, l2, "L2")

/*
 * The 200I/500 A2 (chip 7): unprefixed columns from one event list on AIC
 * and AIV alike; its default group is PipelineExecuteUtilization.
 */
#define LV_G(prod, key, pname, id, l, m, c) LV_VAR(prod, key, pname, id, l, m, c, true)
#define LV_V11_AT(prod, key, pname, lv, l)                                                         \
	LV_G(prod, key, pname, lv##_default, l, "", ",vec_exe_ratio");                             \
	LV_G(prod, key, pname, lv##_arith, l, "ArithmeticUtilization", ",cube_fops");              \
	LV_G(prod, key, pname, lv##_pipe, l, "PipeUtilization", ",memory_bound");                  \
	LV_G(prod, key, pname, lv##_memory, l, "Memory", ",main_mem_read_bw(GB/s)");               \
	LV_G(prod, key, pname, lv##_memory_l0, l, "MemoryL0", ",l0a_read_bw(GB/s)");               \
	LV_G(prod, key, pname, lv##_memory_ub, l, "MemoryUB", ",ub_read_bw_vector(GB/s)");         \
	LV_G(prod, key, pname, lv##_conflict, l, "ResourceConflictRatio", ",vec_bank_cflt_ratio"); \
	LV_G(prod, key, pname, lv##_l2cache, l, "L2Cache", ",write_cache_hit")
#define LV_V11(prod, key, pname)                    \
	LV_G(prod, key, pname, l0, "L0", "", NULL); \
	LV_V11_AT(prod, key, pname, l1, "L1");      \
	LV_V11_AT(prod, key, pname, l2, "L2")

LV_BASE(a2, NULL, "Atlas A2 training");
LV_L2CACHE(a2, NULL, "Atlas A2 training");
LV_BASE(a3, "a3", "Atlas A3");
LV_L2CACHE(a3, "a3", "Atlas A3");
LV_V6(p350, "350", "Atlas 350");
LV_FLAT(p910, "910", "Atlas training series");
LV_V11(p200i, "200i-a2", "Atlas 200I/500 A2");

/* The inference series (310P, chip 4): chip 1's columns, no Profiler */
#define LV_HWTS_AT(prod, key, pname, lv, l)                                                \
	LV_G(prod, key, pname, lv##_default, l, "", ",mac_ratio");                         \
	LV_G(prod, key, pname, lv##_arith, l, "ArithmeticUtilization", ",vector_fops");    \
	LV_G(prod, key, pname, lv##_pipe, l, "PipeUtilization", ",memory_bound");          \
	LV_G(prod, key, pname, lv##_memory, l, "Memory", ",main_mem_read_bw(GB/s)");       \
	LV_G(prod, key, pname, lv##_memory_l0, l, "MemoryL0", ",l0a_read_bw(GB/s)");       \
	LV_G(prod, key, pname, lv##_memory_ub, l, "MemoryUB", ",ub_read_bw_vector(GB/s)"); \
	LV_G(prod, key, pname, lv##_conflict, l, "ResourceConflictRatio", ",vec_bank_cflt_ratio")
#define LV_HWTS_G(prod, key, pname)                 \
	LV_G(prod, key, pname, l0, "L0", "", NULL); \
	LV_HWTS_AT(prod, key, pname, l1, "L1");     \
	LV_HWTS_AT(prod, key, pname, l2, "L2")
LV_HWTS_G(p310p, "310p", "Atlas inference series");

FIXTURE_SETUP(levels)
{
	struct npuprof_error err;
	char params[64];

	strcpy(self->dir, "/tmp/npuprof-levels-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_NE(NULL, getcwd(self->cwd, sizeof(self->cwd)));
	if (variant->product) {
		snprintf(params, sizeof(params), "devices=1 product=%s", variant->product);
		ASSERT_EQ(0, vnpu_module_unload_settled());
		ASSERT_EQ(0, vnpu_module_load(params));
	}
	ASSERT_EQ(0, npuprof_open(0, &self->dev, &err)) TH_LOG("%s", err.msg);
	ASSERT_STREQ(variant->product_name, npuprof_dev_info(self->dev)->product_name);
	ASSERT_EQ(0, npuprof_stream_create(self->dev, &self->stream, &err));
}

FIXTURE_TEARDOWN(levels)
{
	npuprof_close(self->dev);
	vnpu_sh(NULL, 0, "rm -rf %s", self->dir);
	if (variant->product) {
		vnpu_module_unload_settled();
		vnpu_module_restore();
	}
}

/*
 * One Profiler run of four ops (AI Core, AI Vector Core, AI CPU) at @level
 * with @metrics: the files msprof writes, their headers and rows. The
 * folder is kept under /vnpu-results/layout/@keep when the VM runner
 * collects results, for make check-msprof.
 */
/* four ops (AI Core, AI Vector Core, AI CPU) on @stream; 0 or the first error */
static int four_ops(struct npuprof_dev *dev, uint32_t stream)
{
	uint64_t dims[3] = { 4, 128, 256 };
	struct vnpu_task t[4];
	int ret;

	ret = npuprof_op_matmul(dev, &t[0], "mm", stream, 512, 256, 512, VNPU_DT_FLOAT16);
	if (!ret)
		ret = npuprof_op_add(dev, &t[1], "add", stream, 3, dims, VNPU_DT_FLOAT16);
	if (!ret)
		ret = npuprof_op_softmax(dev, &t[2], "softmax", stream, 3, dims, VNPU_DT_FLOAT);
	if (!ret)
		ret = npuprof_op_relu(dev, &t[3], "relu", stream, 3, dims, VNPU_DT_FLOAT16);
	if (ret)
		return ret;
	t[3].task_type = VNPU_TASK_AI_CPU;
	t[3].block_num = 1;
	ret = npuprof_launch(dev, t, 4, NULL, NULL);
	return ret ? ret : npuprof_sync(dev, stream, 10000, NULL);
}

/*
 * The four ops under global profiling, in a child: profiled from its
 * npuprof_open() on, exported at its exit. Its exit status: 0, or 10 + the
 * step that failed.
 */
static void four_ops_global(struct __test_metadata *_metadata, const char *dir, const char *level,
			    const char *metrics)
{
	char opts[PATH_MAX + 128];
	int status;
	pid_t pid;

	snprintf(opts, sizeof(opts),
		 "{\"output\": \"%s\", \"level\": \"%s\", \"aic_metrics\": \"%s\"}", dir, level,
		 metrics);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct npuprof_error err;
		struct npuprof_dev *dev;
		uint32_t stream;

		setenv("PROFILING_MODE", "true", 1);
		setenv("PROFILING_OPTIONS", opts, 1);
		if (npuprof_open(0, &dev, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			_exit(10);
		}
		if (npuprof_stream_create(dev, &stream, &err))
			_exit(11);
		if (four_ops(dev, stream))
			_exit(12);
		npuprof_close(dev);
		exit(0); /* the export runs at exit */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

static void files_and_headers(struct __test_metadata *_metadata, struct npuprof_dev *dev,
			      uint32_t stream, const char *dir, const char *level,
			      const char *metrics, const char *column, const char *keep,
			      bool global)
{
	const struct vnpu_info *info = npuprof_dev_info(dev);
	/* the raw task logs: HWTS without STARS, ACSQ with (the 350's in v6 formats) */
	const char *raw = info->caps & VNPU_CAP_STARS ? "stars_soc" : "hwts";
	const char *pmu = info->caps & VNPU_CAP_STARS ? "ffts_profile" : "aicore";
	char prof[PATH_MAX], path[PATH_MAX], header[8192], logs[PATH_MAX + 64];
	struct npuprof_scope scope;
	int rows;

	if (global) {
		four_ops_global(_metadata, dir, level, metrics);
	} else {
		NPUPROF_PROFILER(&scope, .level = level, .aic_metrics = metrics, .output_path = dir)
		{
			ASSERT_EQ(0, four_ops(dev, stream));
		}
		ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
	}
	ASSERT_EQ(0, find_prof(dir, prof, sizeof(prof)));
	/* the task logs, and the PMU records from L1 on */
	snprintf(logs, sizeof(logs), "%s/device_0/data/%s.data.0.slice_0", prof, raw);
	EXPECT_EQ(0, access(logs, F_OK)) TH_LOG("%s", logs);
	snprintf(logs, sizeof(logs), "%s/device_0/data/%s.data.0.slice_0", prof, pmu);
	EXPECT_EQ(strcmp(level, "L0") ? 0 : -1, access(logs, F_OK)) TH_LOG("%s", logs);
	/* and nothing under msprof's names that is not in their format */
	snprintf(logs, sizeof(logs), "%s/device_0/data/stars_soc.data.0.slice_0", prof);
	EXPECT_EQ(strcmp(raw, "stars_soc") ? -1 : 0, access(logs, F_OK)) TH_LOG("%s", logs);

	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_EQ(4, rows);
	if (column) {
		EXPECT_NE(NULL, strstr(header, column)) TH_LOG("%s", header);
		if (column[0] == ',')
			EXPECT_EQ(NULL, strstr(header, "aic_")) TH_LOG("%s", header);
	} else {
		EXPECT_EQ(NULL, strstr(header, "aic_")) TH_LOG("L0 has no metric columns");
	}

	ASSERT_EQ(0, find_output(prof, "task_time_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_STREQ("Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
		     "task_start(us),task_stop(us)",
		     header);
	EXPECT_EQ(4, rows);
	/* L0 has no op types, so no op_statistic (docs/output.md) */
	if (!strcmp(level, "L0")) {
		EXPECT_EQ(-1, find_output(prof, "op_statistic_*.csv", path, sizeof(path)));
	} else {
		ASSERT_EQ(0, find_output(prof, "op_statistic_*.csv", path, sizeof(path)));
		ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
		EXPECT_STREQ("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
			     "Avg Time(us),Max Time(us),Ratio(%)",
			     header);
	}
	ASSERT_EQ(0, find_output(prof, "api_statistic_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_STREQ("Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance",
		     header);
	EXPECT_GE(rows, 2) TH_LOG("launch and sync at least");
	EXPECT_EQ(0, find_output(prof, "msprof_*.json", path, sizeof(path)));
	if (!strcmp(level, "L2")) {
		EXPECT_EQ(0, find_output(prof, "aicpu_*.csv", path, sizeof(path)));
	} else {
		EXPECT_EQ(-1, find_output(prof, "aicpu_*.csv", path, sizeof(path)));
	}
	EXPECT_EQ(-1, find_output(prof, "communication_statistic_*.csv", path, sizeof(path)));
	vnpu_keep_prof(prof, keep);
}

TEST_F(levels, files_and_headers)
{
	files_and_headers(_metadata, self->dev, self->stream, self->dir, variant->level,
			  variant->metrics, variant->column, variant->name, variant->global);
}

/*
 * One stream of more than 65,536 tasks: the 16-bit task ids wrap, the
 * device and the host flip, and every task is an op of its own batch.
 * 70,000 tasks and their export take over 30 s (the harness's default)
 * under the debug kernel's KASAN in TCG: a fixture for a longer timeout.
 * On the 910A at L1 its AI Core PMU records, which have no batch, go to
 * the tasks of their id in order: every row has its counters. As mix ops
 * on the A2, the block PMU records of a (stream, task id) go to its two
 * contexts in turn.
 */
FIXTURE(wrap){};
FIXTURE_VARIANT(wrap)
{
	const char *product; /* NULL: the default (a2) */
	const char *level;
	const char *keep;
	bool mix; /* MIX_AIC tasks: a key's block PMU records go to two contexts */
};
FIXTURE_VARIANT_ADD(wrap, a2_l0){
	.product = NULL,
	.level = "L0",
	.keep = "a2-wrap",
};
FIXTURE_VARIANT_ADD(wrap, p910_l1){
	.product = "910",
	.level = "L1",
	.keep = "p910-wrap",
};
FIXTURE_VARIANT_ADD(wrap, a2_l1_mix){
	.product = NULL,
	.level = "L1",
	.keep = "a2-mix-wrap",
	.mix = true,
};
/* the Atlas 350's 32-bit ids: no wrap, no flip; a mix op's two PMU records */
FIXTURE_VARIANT_ADD(wrap, p350_l1_mix){
	.product = "350",
	.level = "L1",
	.keep = "p350-mix-wrap",
	.mix = true,
};
FIXTURE_SETUP(wrap)
{
	char params[64];

	if (variant->product) {
		snprintf(params, sizeof(params), "devices=1 product=%s", variant->product);
		ASSERT_EQ(0, vnpu_module_unload_settled());
		ASSERT_EQ(0, vnpu_module_load(params));
	}
}
FIXTURE_TEARDOWN(wrap)
{
	if (variant->product) {
		vnpu_module_unload_settled();
		vnpu_module_restore();
	}
}

/* rows of the CSV at @path whose last cell is N/A */
static int rows_ending_na(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[8192];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strcspn(buf, "\r\n");

		n += len >= 4 && !strncmp(buf + len - 4, ",N/A", 4);
	}
	fclose(f);
	return n;
}

TEST_F_TIMEOUT(wrap, stream_past_65536_tasks, 600)
{
	const unsigned int total = 70000, batch = VNPU_MAX_SUBMIT;
	char dir[] = "/tmp/npuprof-wrap-XXXXXX", prof[PATH_MAX], path[PATH_MAX], header[8192];
	uint64_t dims[2] = { 16, 16 };
	struct npuprof_scope scope;
	struct npuprof_error err;
	struct npuprof_dev *dev;
	struct vnpu_task *t;
	uint32_t stream;
	int rows;

	ASSERT_NE(NULL, mkdtemp(dir));
	t = calloc(batch, sizeof(*t));
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, npuprof_open(0, &dev, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_stream_create(dev, &stream, &err));
	for (unsigned int i = 0; i < batch; i++) {
		ASSERT_EQ(0,
			  npuprof_op_add(dev, &t[i], "wrap/Add", stream, 2, dims, VNPU_DT_FLOAT16));
		if (variant->mix) {
			t[i].task_type = VNPU_TASK_MIX_AIC;
			t[i].mix_block_num = t[i].block_num;
		}
	}
	NPUPROF_PROFILER(&scope, .level = variant->level, .output_path = dir)
	{
		for (unsigned int done = 0; done < total;) {
			unsigned int n = total - done < batch ? total - done : batch;

			ASSERT_EQ(0, npuprof_launch(dev, t, n, NULL, &err)) TH_LOG("%s", err.msg);
			done += n;
		}
		ASSERT_EQ(0, npuprof_sync(dev, stream, 60000, &err)) TH_LOG("%s", err.msg);
	}
	ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
	ASSERT_EQ(0, find_prof(dir, prof, sizeof(prof)));
	/* every task once: no batch collapsed onto another (msprof drops those) */
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_EQ((int)total, rows);
	if (strcmp(variant->level, "L0"))
		EXPECT_EQ(0, rows_ending_na(path)) TH_LOG("rows without their PMU counters");
	ASSERT_EQ(0, find_output(prof, "task_time_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_EQ((int)total, rows);
	if (variant->product && !strcmp(variant->product, "350")) {
		/* v6: 32 B logs, a PMU record per core type of each mix op, no flip */
		EXPECT_EQ(0, vnpu_sh(NULL, 0, "test $(stat -c %%s %s/device_0/data/%s) = %u", prof,
				     "stars_soc.data.0.slice_0", total * 2 * 32));
		EXPECT_EQ(0, vnpu_sh(NULL, 0, "test $(stat -c %%s %s/device_0/data/%s) = %u", prof,
				     "ffts_profile.data.0.slice_0", total * 2 * 128));
		EXPECT_NE(0, vnpu_sh(NULL, 0, "test -s %s/device_0/data/ts_track.data.0.slice_0",
				     prof));
	} else {
		/* the device's flips are in its raw data */
		EXPECT_EQ(0, vnpu_sh(NULL, 0, "test -s %s/device_0/data/ts_track.data.0.slice_0",
				     prof));
	}
	vnpu_keep_prof(prof, variant->keep);
	npuprof_close(dev);
	free(t);
	vnpu_sh(NULL, 0, "rm -rf %s", dir);
}

/*
 * MIX ops on the A2 (chip 5) are FFTS+ tasks of one context: the device
 * writes the context's FFTS+ logs among the ACSQ logs, and from L1 its
 * context PMU record and a block PMU record per block of the other core
 * type; the host a context_id_info. op_summary has one row per op, with
 * Context ID 0 and the Mix Block Num. The folders are kept for make
 * check-msprof.
 */
static int mix_ops(struct npuprof_dev *dev, uint32_t stream)
{
	uint64_t dims[3] = { 4, 128, 256 };
	struct vnpu_task t[3];
	int ret;

	ret = npuprof_op_matmul(dev, &t[0], "mm_mix", stream, 512, 256, 512, VNPU_DT_FLOAT16);
	if (!ret)
		ret = npuprof_op_add(dev, &t[1], "add_mix", stream, 3, dims, VNPU_DT_FLOAT16);
	if (!ret)
		ret = npuprof_op_matmul(dev, &t[2], "mm", stream, 256, 256, 256, VNPU_DT_FLOAT16);
	if (ret)
		return ret;
	t[0].task_type = VNPU_TASK_MIX_AIC;
	t[0].block_num = 4;
	t[0].mix_block_num = 8;
	t[1].task_type = VNPU_TASK_MIX_AIV;
	t[1].block_num = 4;
	t[1].mix_block_num = 2;
	ret = npuprof_launch(dev, t, 3, NULL, NULL);
	return ret ? ret : npuprof_sync(dev, stream, 10000, NULL);
}

TEST(mix_ops_are_ffts_plus_tasks)
{
	static const char *const levels[] = { "L0", "L1" };

	for (int l = 0; l < 2; l++) {
		char dir[] = "/tmp/npuprof-mix-XXXXXX", prof[PATH_MAX], path[PATH_MAX + 64];
		char header[8192], keep[32];
		struct npuprof_scope scope;
		struct npuprof_error err;
		struct npuprof_dev *dev;
		uint32_t stream;
		int rows;

		ASSERT_NE(NULL, mkdtemp(dir));
		ASSERT_EQ(0, npuprof_open(0, &dev, &err)) TH_LOG("%s", err.msg);
		ASSERT_EQ(0, npuprof_stream_create(dev, &stream, &err));
		NPUPROF_PROFILER(&scope, .level = levels[l], .output_path = dir)
		{
			ASSERT_EQ(0, mix_ops(dev, stream));
		}
		ASSERT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
		ASSERT_EQ(0, find_prof(dir, prof, sizeof(prof)));
		/* 10 logs of 64 B: 3 tasks' ACSQ pairs, the two mix ops' FFTS+ pairs */
		snprintf(path, sizeof(path), "%s/device_0/data/stars_soc.data.0.slice_0", prof);
		EXPECT_EQ(0, vnpu_sh(NULL, 0, "test $(stat -c %%s %s) = 640", path));
		snprintf(path, sizeof(path),
			 "%s/host/data/unaging.additional.context_id_info.slice_0", prof);
		EXPECT_EQ(l ? 0 : -1, access(path, F_OK)) TH_LOG("%s", path);
		ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)));
		ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
		EXPECT_EQ(3, rows);
		if (l) {
			EXPECT_EQ(1, grep_file(path, ",mm_mix,MatMul,static,MIX_AIC,"));
			EXPECT_EQ(1, grep_file(path, ",add_mix,Add,static,MIX_AIV,"));
		}
		ASSERT_EQ(0, find_output(prof, "task_time_*.csv", path, sizeof(path)));
		ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
		EXPECT_EQ(3, rows);
		snprintf(keep, sizeof(keep), "a2-mix-%s", levels[l]);
		vnpu_keep_prof(prof, keep);
		npuprof_close(dev);
		vnpu_sh(NULL, 0, "rm -rf %s", dir);
	}
}

/* ---- the rules ---- */

TEST_F(prof, nesting_is_an_error)
{
	struct npuprof_scope outer, inner;
	struct npuprof_error err;
	int inner_ran = 0;

	NPUPROF_PROFILER(&outer, .level = "L0", .output_path = self->dir)
	{
		EXPECT_EQ(-EALREADY, npuprof_profiler_start(NULL, &err));
		EXPECT_STREQ("Not support nested call 'profiler.Profiler'.", err.msg);
		/* nesting is checked first, before the values (the adapter's order) */
		EXPECT_EQ(-EALREADY,
			  npuprof_profiler_start(
				  &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							     .level = "L9" },
				  &err));
		EXPECT_STREQ("Not support nested call 'profiler.Profiler'.", err.msg);
		NPUPROF_PROFILER(&inner, .level = "L1", .output_path = self->dir)
		{
			inner_ran = 1;
		}
		EXPECT_EQ(-EALREADY, inner.ret);
	}
	EXPECT_EQ(0, outer.ret) TH_LOG("%s", outer.err.msg);
	EXPECT_EQ(0, inner_ran);
	/* and usable again afterwards */
	EXPECT_EQ(0, npuprof_profiler_start(
			     &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							.output_path = "./" },
			     &err))
	TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
}

struct thread_try {
	struct npuprof_dev *dev;
	int start_ret;
	int stop_ret;
	char msg[256];
};

static void *other_thread(void *arg)
{
	struct thread_try *tt = arg;
	struct npuprof_error err;

	npuprof_set_current(tt->dev);
	tt->start_ret = npuprof_profiler_start(NULL, &err);
	snprintf(tt->msg, sizeof(tt->msg), "%s", err.msg);
	tt->stop_ret = npuprof_profiler_stop(&err);
	return NULL;
}

TEST_F(prof, second_thread_is_an_error)
{
	struct thread_try tt = { .dev = self->dev };
	struct npuprof_error err;
	pthread_t th;

	ASSERT_EQ(0, npuprof_profiler_start(NULL, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pthread_create(&th, NULL, other_thread, &tt));
	pthread_join(th, NULL);
	EXPECT_EQ(-EBUSY, tt.start_ret);
	EXPECT_NE(NULL, strstr(tt.msg, "another thread")) TH_LOG("%s", tt.msg);
	EXPECT_EQ(-EBUSY, tt.stop_ret);
	EXPECT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
}

TEST_F(prof, global_profiling_conflict)
{
	struct npuprof_error err;

	setenv("PROFILING_MODE", "true", 1);
	EXPECT_EQ(-EPERM, npuprof_profiler_start(NULL, &err));
	unsetenv("PROFILING_MODE");
	EXPECT_STREQ("The option 'profiling_mode' or env variables 'PROFILING_MODE' cannot be set"
		     " to true when using 'profiler.Profiler'.",
		     err.msg);
}

TEST_F(prof, bad_paths)
{
	struct npuprof_error err;
	char file[PATH_MAX];
	FILE *f;

	EXPECT_EQ(-ENOENT, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .output_path = "no/such/dir" },
				   &err));
	EXPECT_NE(NULL, strstr(err.msg, "no/such/dir"));
	EXPECT_EQ(-EINVAL, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .output_path = "./a\tb" },
				   &err));
	snprintf(file, sizeof(file), "%s/f", self->dir);
	f = fopen(file, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	EXPECT_EQ(-ENOTDIR, npuprof_profiler_start(
				    &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							       .output_path = file },
				    &err));
	/* nothing was started */
	EXPECT_EQ(-ENOENT, npuprof_profiler_stop(&err));
}

/* A workload killed mid-profile leaves raw data that exports. */
TEST_F(prof, killed_workload_raw_data_exports)
{
	char prof[PATH_MAX], path[PATH_MAX], header[8192];
	struct npuprof_error err;
	int status, rows;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint64_t dims[2] = { 64, 64 };
		struct vnpu_task t[64];

		if (npuprof_profiler_start(
			    &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
						       .level = "L1",
						       .output_path = "./" },
			    &err))
			_exit(3);
		for (int i = 0; i < 64; i++)
			npuprof_op_add(self->dev, &t[i], "Add", self->stream, 2, dims,
				       VNPU_DT_FLOAT16);
		npuprof_launch(self->dev, t, 64, NULL, NULL);
		npuprof_sync(self->dev, self->stream, 10000, NULL);
		/* give the reader a round, then die without stopping */
		usleep(500 * 1000);
		raise(SIGKILL);
		_exit(4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("child exited with %d", WEXITSTATUS(status));
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	EXPECT_EQ(-1, find_output(prof, "op_summary_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, npuprof_export(prof, NULL, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)));
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_EQ(64, rows);
}

/* Unsupported products: the module reloaded with a 310P device. */
/*
 * Issue 17 bug 6: the folder the caller was given is the caller's. The
 * next session must not rewrite it under the caller's feet (it was a
 * static buffer that every session rewrote, without a lock).
 */
TEST_F(prof, profiler_dir_is_the_callers)
{
	struct npuprof_error err;
	char first[PATH_MAX], mine[PATH_MAX], second[PATH_MAX], tiny[8];

	ASSERT_EQ(0, npuprof_profiler_start(
			     &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							.output_path = "./" },
			     &err))
	TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_profiler_dir(mine, sizeof(mine)));
	snprintf(first, sizeof(first), "%s", mine);
	EXPECT_NE(NULL, strstr(mine, "/PROF_")) TH_LOG("%s", mine);
	EXPECT_EQ(-ERANGE, npuprof_profiler_dir(tiny, sizeof(tiny)));
	EXPECT_EQ(-EINVAL, npuprof_profiler_dir(NULL, 0));
	ASSERT_EQ(0, npuprof_profiler_start(
			     &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							.output_path = "./" },
			     &err))
	TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
	EXPECT_STREQ(first, mine) TH_LOG("the first folder's name was rewritten");
	ASSERT_EQ(0, npuprof_profiler_dir(second, sizeof(second)));
	EXPECT_STRNE(first, second);
}

struct closer {
	struct npuprof_dev *dev;
};

/* exit() inside the block stops and exports, as global profiling does */
TEST_F(prof, exit_inside_a_scope_exports)
{
	char prof[PATH_MAX], path[PATH_MAX], header[8192];
	int status, rows = 0;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint64_t dims[2] = { 64, 64 };
		struct npuprof_scope scope;
		struct vnpu_task t;

		npuprof_op_add(self->dev, &t, "Add_exit", self->stream, 2, dims, VNPU_DT_FLOAT16);
		NPUPROF_PROFILER(&scope, .level = "L1", .output_path = "./")
		{
			if (npuprof_launch(self->dev, &t, 1, NULL, NULL) ||
			    npuprof_sync(self->dev, self->stream, 10000, NULL))
				_exit(3);
			exit(0);
		}
		_exit(4); /* the profiler did not start */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	ASSERT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)))
	TH_LOG("%s was not exported at exit", prof);
	ASSERT_EQ(0, read_csv(path, header, sizeof(header), &rows));
	EXPECT_EQ(1, rows);
	EXPECT_TRUE(grep_file(path, ",Add_exit,Add,"));
}

struct owner_arg {
	struct npuprof_dev *dev;
	uint32_t stream;
	int ret;
};

/* start the Profiler, launch, and end the thread without stopping */
static void *start_and_leave(void *arg)
{
	struct owner_arg *a = arg;
	uint64_t dims[2] = { 64, 64 };
	struct vnpu_task t;

	npuprof_set_current(a->dev);
	a->ret = npuprof_profiler_start(
		&(struct npuprof_options){
			.sz = sizeof(struct npuprof_options), .level = "L1", .output_path = "./" },
		NULL);
	if (!a->ret) {
		npuprof_op_add(a->dev, &t, "Add_orphan", a->stream, 2, dims, VNPU_DT_FLOAT16);
		a->ret = npuprof_launch(a->dev, &t, 1, NULL, NULL);
	}
	if (!a->ret)
		a->ret = npuprof_sync(a->dev, a->stream, 10000, NULL);
	return NULL;
}

/*
 * A thread that started the Profiler and ended without stopping it does
 * not lock the process out: its session is stopped and exported when it
 * ends, and the next start, from another thread, works.
 */
TEST_F(prof, dead_owner_thread_does_not_lock_out)
{
	struct owner_arg a = { .dev = self->dev, .stream = self->stream, .ret = -1 };
	char prof[PATH_MAX], path[PATH_MAX];
	struct npuprof_error err;
	pthread_t th;

	ASSERT_EQ(0, pthread_create(&th, NULL, start_and_leave, &a));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, a.ret);
	ASSERT_EQ(0, find_prof(".", prof, sizeof(prof)));
	EXPECT_EQ(0, find_output(prof, "op_summary_*.csv", path, sizeof(path)))
	TH_LOG("the dead thread's session was not exported");
	EXPECT_TRUE(grep_file(path, ",Add_orphan,Add,"));
	ASSERT_EQ(0, npuprof_profiler_start(
			     &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							.output_path = "/tmp" },
			     &err))
	TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
}

/* scope.ran tells a skipped block from one that ran and failed to stop */
TEST_F(prof, scope_says_whether_the_block_ran)
{
	struct npuprof_scope scope;
	int body = 0;

	NPUPROF_PROFILER(&scope, .level = "L9")
	{
		body = 1;
	}
	EXPECT_EQ(0, body);
	EXPECT_EQ(0, scope.ran);
	EXPECT_EQ(-EINVAL, scope.ret);
	NPUPROF_PROFILER(&scope, .level = "L0", .output_path = "./")
	{
		body = 1;
	}
	EXPECT_EQ(1, body);
	EXPECT_EQ(1, scope.ran);
	EXPECT_EQ(0, scope.ret) TH_LOG("%s", scope.err.msg);
}

/*
 * -EACCES as the user it is meant for, not root (who passes access()): a
 * directory nobody cannot write, one under a directory nobody cannot
 * search (stat() fails: the message gives the reason, not "does not
 * exist"), and ASCEND_WORK_PATH naming the first. Each is refused before
 * anything is made.
 */
TEST(output_path_eacces_as_nobody)
{
	char dir[] = "/tmp/npuprof-eacces-XXXXXX", sub[64], work[64];
	int status;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir)); /* 0700, root's */
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ASSERT_EQ(0, mkdir(sub, 0777));
	ASSERT_EQ(0, chmod(sub, 0777));
	snprintf(work, sizeof(work), "%s/profiling_data", dir);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char resolved[PATH_MAX];
		struct npuprof_error err;

		if (vnpu_become_nobody(0))
			_exit(10);
		if (npuprof_output_check(dir, NULL, resolved, sizeof(resolved), &err) != -EACCES ||
		    !strstr(err.msg, "must be readable and writable"))
			_exit(11);
		if (npuprof_output_check(sub, NULL, resolved, sizeof(resolved), &err) != -EACCES ||
		    !strstr(err.msg, "cannot be looked up: Permission denied") ||
		    strstr(err.msg, "does not exist"))
			_exit(12);
		if (npuprof_profiler_start(
			    &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
						       .output_path = dir },
			    &err) != -EACCES)
			_exit(13);
		setenv("ASCEND_WORK_PATH", dir, 1);
		if (npuprof_profiler_start(NULL, &err) != -EACCES ||
		    !strstr(err.msg, "ASCEND_WORK_PATH"))
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("check %d failed as nobody", WEXITSTATUS(status));
	EXPECT_NE(0, access(work, F_OK)) TH_LOG("%s was made for a refused start", work);
	rmdir(sub);
	rmdir(dir);
}

static void *close_it(void *arg)
{
	npuprof_close(((struct closer *)arg)->dev);
	return NULL;
}

/*
 * Issue 17 bug 5: a device another thread closed is nobody's current
 * device any more (the opener's thread kept a dangling pointer, which the
 * profiler and the op builders then read).
 */
TEST(closed_device_is_nobodys_current)
{
	struct npuprof_error err;
	struct closer c;
	pthread_t th;

	ASSERT_EQ(0, npuprof_open(0, &c.dev, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(c.dev, npuprof_current());
	ASSERT_EQ(0, pthread_create(&th, NULL, close_it, &c));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(NULL, npuprof_current()) TH_LOG("a closed device is still current");
}

TEST(unsupported_product)
{
	struct npuprof_dev *dev;
	struct npuprof_error err;

	ASSERT_EQ(0, vnpu_module_unload());
	ASSERT_EQ(0, vnpu_module_load("devices=2 product=a2,310p"));
	ASSERT_EQ(0, npuprof_open(1, &dev, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP, npuprof_profiler_start(NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "Atlas inference series")) TH_LOG("%s", err.msg);
	npuprof_close(dev);
	ASSERT_EQ(0, vnpu_module_unload());
	ASSERT_EQ(0, vnpu_module_restore());
}

/* A group the product lacks (the 350 has no L2Cache): the error names both, nothing is left */
TEST(unsupported_metric_group)
{
	char dir[] = "/tmp/npuprof-group-XXXXXX", prof[PATH_MAX];
	struct npuprof_dev *dev;
	glob_t g;
	struct npuprof_error err;

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, vnpu_module_unload());
	ASSERT_EQ(0, vnpu_module_load("devices=1 product=350"));
	ASSERT_EQ(0, npuprof_open(0, &dev, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EOPNOTSUPP,
		  npuprof_profiler_start(
			  &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
						     .level = "L1",
						     .aic_metrics = "L2Cache",
						     .output_path = dir },
			  &err));
	EXPECT_NE(NULL, strstr(err.msg, "Atlas 350 has no metric group L2Cache"))
	TH_LOG("%s", err.msg);
	EXPECT_EQ(-ENOENT, npuprof_profiler_stop(&err));
	/* the device is free for a session of a group it has */
	EXPECT_EQ(0, npuprof_profiler_start(
			     &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							.level = "L1",
							.aic_metrics = "Memory",
							.output_path = dir },
			     &err))
	TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_profiler_stop(&err)) TH_LOG("%s", err.msg);
	/* one PROF_* folder: the refused session left none */
	snprintf(prof, sizeof(prof), "%s/PROF_*", dir);
	ASSERT_EQ(0, glob(prof, 0, NULL, &g));
	EXPECT_EQ(1, g.gl_pathc);
	globfree(&g);
	npuprof_close(dev);
	vnpu_sh(NULL, 0, "rm -rf %s", dir);
	ASSERT_EQ(0, vnpu_module_unload());
	ASSERT_EQ(0, vnpu_module_restore());
}

TEST_HARNESS_MAIN
