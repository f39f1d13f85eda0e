// SPDX-License-Identifier: GPL-2.0
/*
 * The Profiler's option rules, each bad value a test, without a device:
 * level, aic_metrics, output_path (and ASCEND_WORK_PATH), the global
 * profiling options, and the rules that need no device (global profiling
 * configured, no current device).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof.h"
#include "session/session.h"
#include "vnpu_prof.h"

/* The TF adapter's GetLevel: an exact key of {L0, L1, L2}; NULL is the default. */
TEST(levels)
{
	struct npuprof_error err;
	char want[128];
	uint32_t l = 99;

	EXPECT_EQ(0, nps_parse_level(NULL, &l, &err));
	EXPECT_EQ(VNPU_PROF_L0, l);
	EXPECT_EQ(0, nps_parse_level("L1", &l, &err));
	EXPECT_EQ(VNPU_PROF_L1, l);
	EXPECT_EQ(0, nps_parse_level("L2", &l, &err));
	EXPECT_EQ(VNPU_PROF_L2, l);
	/* the empty string is a value, and not a level: the adapter rejects it */
	const char *bad[] = { "", "l1", "L3", "L", "L1 ", "level1", "0" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, nps_parse_level(bad[i], &l, &err)) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(-EINVAL, err.code);
		snprintf(want, sizeof(want),
			 "Profiler options: level cannot set to: %s, should set level to [L0, L1, "
			 "L2].",
			 bad[i]);
		EXPECT_STREQ(want, err.msg);
	}
}

/* GetAicMetrics: L0 takes none, L1/L2 default to PipeUtilization, the adapter's words. */
TEST(metrics)
{
	static const char *const names[] = {
		"ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0", "MemoryUB",
		"ResourceConflictRatio", "L2Cache"
	};
	static const uint32_t groups[] = { VNPU_METRIC_ARITHMETIC_UTILIZATION,
					   VNPU_METRIC_PIPE_UTILIZATION,
					   VNPU_METRIC_MEMORY,
					   VNPU_METRIC_MEMORY_L0,
					   VNPU_METRIC_MEMORY_UB,
					   VNPU_METRIC_RESOURCE_CONFLICT_RATIO,
					   VNPU_METRIC_L2_CACHE };
	struct npuprof_error err;
	char want[256];
	uint32_t g;

	for (int i = 0; i < 7; i++) {
		EXPECT_EQ(0, nps_parse_metrics(names[i], VNPU_PROF_L1, false, &g, &err));
		EXPECT_EQ(groups[i], g);
		EXPECT_EQ(0, nps_parse_metrics(names[i], VNPU_PROF_L2, false, &g, &err));
		/* a group at L0 is an error, with the TF adapter's words */
		EXPECT_EQ(-EINVAL, nps_parse_metrics(names[i], VNPU_PROF_L0, false, &g, &err));
		EXPECT_STREQ("Please use L1 or L2 if you want to collect aic metrics!", err.msg);
	}
	/* at L0 any value is that error, checked before the name */
	EXPECT_EQ(-EINVAL, nps_parse_metrics("bogus", VNPU_PROF_L0, false, &g, &err));
	EXPECT_STREQ("Please use L1 or L2 if you want to collect aic metrics!", err.msg);
	/* "" means the default: none at L0, PipeUtilization at L1/L2 (device side) */
	EXPECT_EQ(0, nps_parse_metrics("", VNPU_PROF_L0, false, &g, &err));
	EXPECT_EQ(VNPU_METRIC_NONE, g);
	EXPECT_EQ(0, nps_parse_metrics(NULL, VNPU_PROF_L1, false, &g, &err));
	EXPECT_EQ(VNPU_METRIC_NONE, g);
	/* unknown groups list the valid keys, sorted as the adapter's std::map */
	const char *bad[] = { "pipeutilization", "MemoryAccess", "Custom:0x1", "L2cache", " " };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, nps_parse_metrics(bad[i], VNPU_PROF_L1, false, &g, &err));
		snprintf(want, sizeof(want),
			 "Profiler options: aic_metrics cannot set to: %s, should set aic_metrics"
			 " to [ArithmeticUtilization, L2Cache, Memory, MemoryL0, MemoryUB,"
			 " PipeUtilization, ResourceConflictRatio].",
			 bad[i]);
		EXPECT_STREQ(want, err.msg);
	}
}

FIXTURE(paths)
{
	char dir[64];
	char cwd[PATH_MAX];
};

FIXTURE_SETUP(paths)
{
	strcpy(self->dir, "/tmp/npuprof-opts-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_NE(NULL, getcwd(self->cwd, sizeof(self->cwd)));
}

FIXTURE_TEARDOWN(paths)
{
	if (chdir(self->cwd))
		TH_LOG("chdir back failed");
	rmdir(self->dir);
}

TEST_F(paths, good_absolute_and_relative)
{
	char resolved[PATH_MAX], sub[128];
	struct npuprof_error err;

	EXPECT_EQ(0, nps_check_output_path(self->dir, "output_path", resolved, &err));
	EXPECT_STREQ(self->dir, resolved);
	snprintf(sub, sizeof(sub), "%s/d", self->dir);
	ASSERT_EQ(0, mkdir(sub, 0755));
	ASSERT_EQ(0, chdir(self->dir));
	EXPECT_EQ(0, nps_check_output_path("d", "output_path", resolved, &err));
	EXPECT_STREQ(sub, resolved);
	EXPECT_EQ(0, nps_check_output_path("./", "output_path", resolved, &err));
	EXPECT_STREQ(self->dir, resolved);
	rmdir(sub);
}

TEST_F(paths, forbidden_characters)
{
	static const char chars[] = { '\n', '\f', '\r', '\b', '\t', '\v', 0x7f };
	char resolved[PATH_MAX], path[128];
	struct npuprof_error err;

	for (size_t i = 0; i < sizeof(chars); i++) {
		snprintf(path, sizeof(path), "%s/a%cb", self->dir, chars[i]);
		EXPECT_EQ(-EINVAL, nps_check_output_path(path, "output_path", resolved, &err));
		EXPECT_NE(NULL, strstr(err.msg, "forbidden character")) TH_LOG("%s", err.msg);
	}
}

TEST_F(paths, missing_not_a_directory_unwritable)
{
	char resolved[PATH_MAX], path[128];
	struct npuprof_error err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/missing", self->dir);
	EXPECT_EQ(-ENOENT, nps_check_output_path(path, "output_path", resolved, &err));
	EXPECT_NE(NULL, strstr(err.msg, path));
	EXPECT_NE(NULL, strstr(err.msg, "does not exist"));

	snprintf(path, sizeof(path), "%s/file", self->dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	EXPECT_EQ(-ENOTDIR, nps_check_output_path(path, "output_path", resolved, &err));
	unlink(path);

	/* root passes access() checks: only check as another user */
	if (geteuid() != 0) {
		ASSERT_EQ(0, chmod(self->dir, 0500));
		EXPECT_EQ(-EACCES, nps_check_output_path(self->dir, "output_path", resolved, &err));
		chmod(self->dir, 0700);
	}
}

TEST_F(paths, global_options)
{
	struct npc_opts co;
	char resolved[PATH_MAX], json[256];
	struct npuprof_error err;

	snprintf(json, sizeof(json), "{\"output\":\"%s\",\"level\":\"L2\"}", self->dir);
	EXPECT_EQ(0, nps_global_parse(json, &co, resolved, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(VNPU_PROF_L2, co.level);
	EXPECT_EQ(VNPU_METRIC_NONE, co.metric_group);
	EXPECT_STREQ(self->dir, co.output_dir);

	/* msprof's switches */
	snprintf(json, sizeof(json),
		 "{\"output\":\"%s\",\"task_time\":\"l0\",\"training_trace\":\"on\"}", self->dir);
	EXPECT_EQ(0, nps_global_parse(json, &co, resolved, &err));
	EXPECT_EQ(VNPU_PROF_L0, co.level);
	snprintf(json, sizeof(json),
		 "{\"output\":\"%s\",\"task_time\":\"on\",\"aic_metrics\":\"Memory\","
		 "\"aicpu\":\"on\"}",
		 self->dir);
	EXPECT_EQ(0, nps_global_parse(json, &co, resolved, &err));
	EXPECT_EQ(VNPU_PROF_L2, co.level);
	EXPECT_EQ(VNPU_METRIC_MEMORY, co.metric_group);

	/* bad values name themselves */
	EXPECT_EQ(-EINVAL, nps_global_parse("[1,2]", &co, resolved, &err));
	EXPECT_EQ(-EINVAL, nps_global_parse("{not json", &co, resolved, &err));
	EXPECT_NE(NULL, strstr(err.msg, "not a JSON object"));
	EXPECT_EQ(-EINVAL, nps_global_parse("{\"task_time\":\"l7\"}", &co, resolved, &err));
	EXPECT_NE(NULL, strstr(err.msg, "l7"));
	EXPECT_EQ(-EINVAL, nps_global_parse("{\"level\":\"L9\"}", &co, resolved, &err));
	EXPECT_EQ(-EINVAL, nps_global_parse("{\"task_time\":\"l0\",\"aic_metrics\":\"Memory\"}",
					    &co, resolved, &err));
	EXPECT_EQ(-EINVAL, nps_global_parse("{\"aic_metrics\":\"Fast\"}", &co, resolved, &err));
	EXPECT_NE(NULL, strstr(err.msg, "'Fast'")) TH_LOG("%s", err.msg);
	/* msprof's names: the groups the Profiler has no key for too */
	snprintf(json, sizeof(json), "{\"output\":\"%s\",\"aic_metrics\":\"MemoryAccess\"}",
		 self->dir);
	EXPECT_EQ(0, nps_global_parse(json, &co, resolved, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(VNPU_METRIC_MEMORY_ACCESS, co.metric_group);
	snprintf(json, sizeof(json),
		 "{\"output\":\"%s\",\"aic_metrics\":\"PipelineExecuteUtilization\"}", self->dir);
	EXPECT_EQ(0, nps_global_parse(json, &co, resolved, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(VNPU_METRIC_PIPE_EXECUTE_UTILIZATION, co.metric_group);
	EXPECT_EQ(-ENOENT,
		  nps_global_parse("{\"output\":\"/nonexistent/npuprof\"}", &co, resolved, &err));
}

/* "" takes ${ASCEND_WORK_PATH}/profiling_data (CANN's rule), created when missing */
TEST_F(paths, ascend_work_path)
{
	char resolved[PATH_MAX], want[PATH_MAX], file[PATH_MAX];
	struct npuprof_error err;
	struct stat st;

	/* the variable must name an existing directory */
	setenv("ASCEND_WORK_PATH", "/nonexistent/work", 1);
	EXPECT_EQ(-ENOENT, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .level = "L0" },
				   &err));
	EXPECT_NE(NULL, strstr(err.msg, "ASCEND_WORK_PATH '/nonexistent/work'"))
	TH_LOG("%s", err.msg);
	/* output_path takes priority: the path is fine, then there is no device */
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .output_path = self->dir },
				   &err));
	setenv("ASCEND_WORK_PATH", self->dir, 1);
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(NULL, &err));
	snprintf(want, sizeof(want), "%s/profiling_data", self->dir);
	ASSERT_EQ(0, stat(want, &st)) TH_LOG("profiling_data was not created");
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	/* it exists now: the same again */
	EXPECT_EQ(0, npuprof_output_check(NULL, NULL, resolved, sizeof(resolved), &err))
	TH_LOG("%s", err.msg);
	EXPECT_STREQ(want, resolved);
	rmdir(want);
	/* profiling_data that is a file */
	snprintf(file, sizeof(file), "%s/profiling_data", self->dir);
	ASSERT_EQ(0, close(open(file, O_CREAT | O_WRONLY, 0600)));
	EXPECT_EQ(-ENOTDIR, npuprof_output_check(NULL, NULL, resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "profiling_data")) TH_LOG("%s", err.msg);
	unlink(file);
	unsetenv("ASCEND_WORK_PATH");
}

/* ASCEND_WORK_PATH may hold letters, digits and _ - . / only */
TEST_F(paths, ascend_work_path_charset)
{
	static const char *const bad[] = { "/tmp/a b",		 "/tmp/x;y", "/tmp/$HOME",
					   "/tmp/\u00e9t\u00e9", "/tmp/a*",  "~/work" };
	char resolved[PATH_MAX];
	struct npuprof_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("ASCEND_WORK_PATH", bad[i], 1);
		EXPECT_EQ(-EINVAL,
			  npuprof_output_check(NULL, NULL, resolved, sizeof(resolved), &err))
		TH_LOG("%s", bad[i]);
		EXPECT_NE(NULL, strstr(err.msg, "only letters, digits and _ - . /"))
		TH_LOG("%s", err.msg);
	}
	unsetenv("ASCEND_WORK_PATH");
}

/*
 * The forbidden characters are checked on the resolved path too (a link
 * to a directory whose name has one), and a stat() failure says why.
 */
TEST_F(paths, resolved_path_and_stat_reasons)
{
	char bad[PATH_MAX], link[PATH_MAX], resolved[PATH_MAX], under[PATH_MAX], file[PATH_MAX];
	char longname[PATH_MAX];
	struct npuprof_error err;

	snprintf(bad, sizeof(bad), "%s/a\nb", self->dir);
	snprintf(link, sizeof(link), "%s/link", self->dir);
	ASSERT_EQ(0, mkdir(bad, 0700));
	ASSERT_EQ(0, symlink(bad, link));
	EXPECT_EQ(-EINVAL, npuprof_output_check(link, NULL, resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "resolves to")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "\\n")) TH_LOG("%s", err.msg);
	unlink(link);
	rmdir(bad);

	/* a component that is a file: not "does not exist" */
	snprintf(file, sizeof(file), "%s/f", self->dir);
	snprintf(under, sizeof(under), "%s/f/sub", self->dir);
	ASSERT_EQ(0, close(open(file, O_CREAT | O_WRONLY, 0600)));
	EXPECT_EQ(-ENOTDIR, npuprof_output_check(under, NULL, resolved, sizeof(resolved), &err));
	EXPECT_EQ(NULL, strstr(err.msg, "does not exist")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, strerror(ENOTDIR))) TH_LOG("%s", err.msg);
	unlink(file);
	/* a name too long for the file system */
	memset(longname, 'n', 300);
	longname[300] = 0;
	EXPECT_EQ(-ENAMETOOLONG,
		  npuprof_output_check(longname, NULL, resolved, sizeof(resolved), &err));
	EXPECT_EQ(NULL, strstr(err.msg, "does not exist")) TH_LOG("%s", err.msg);
	/* a missing one does say so */
	snprintf(under, sizeof(under), "%s/missing", self->dir);
	EXPECT_EQ(-ENOENT, npuprof_output_check(under, NULL, resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "does not exist")) TH_LOG("%s", err.msg);
}

/* The rules checked before any device is touched. */
/*
 * The public forms (npuprof.h) of the rules above, which npuprof(1) checks
 * its options with: same results and words as the Profiler's, names back.
 */
TEST(public_level_and_metrics_calls)
{
	struct npuprof_error err;
	uint32_t l = 99, g = 99, seen = 0;

	for (uint32_t i = 0; i < VNPU_PROF_LEVEL_COUNT; i++) {
		ASSERT_NE(NULL, npuprof_level_name(i));
		EXPECT_EQ(0, npuprof_level_parse(npuprof_level_name(i), &l, &err));
		EXPECT_EQ(i, l);
	}
	EXPECT_STREQ("L1", npuprof_level_name(VNPU_PROF_L1));
	EXPECT_EQ(NULL, npuprof_level_name(VNPU_PROF_LEVEL_COUNT));
	EXPECT_EQ(NULL, npuprof_level_name(UINT32_MAX));
	EXPECT_EQ(0, npuprof_level_parse(NULL, &l, &err));
	EXPECT_EQ(VNPU_PROF_L0, l);
	EXPECT_EQ(-EINVAL, npuprof_level_parse("L3", &l, &err));
	EXPECT_STREQ("Profiler options: level cannot set to: L3, should set level to [L0, L1, L2].",
		     err.msg);
	EXPECT_EQ(-EINVAL, npuprof_level_parse("L1", NULL, &err));
	EXPECT_EQ(-EINVAL, err.code);
	/* a success clears an earlier message */
	EXPECT_EQ(0, npuprof_level_parse("L2", &l, &err));
	EXPECT_STREQ("", err.msg);

	/* every group has a name, each a different one; the Profiler's keys parse back */
	for (uint32_t i = 0; i < VNPU_METRIC_COUNT; i++) {
		const char *name = npuprof_metrics_name(i);

		ASSERT_NE(NULL, name) TH_LOG("group %u", i);
		for (uint32_t j = 0; j < i; j++)
			EXPECT_STRNE(npuprof_metrics_name(j), name);
		if (npuprof_metrics_parse(name, VNPU_PROF_L1, &g, &err) == 0) {
			EXPECT_EQ(i, g);
			seen++;
		}
	}
	EXPECT_EQ(7, seen);
	EXPECT_STREQ("PipeUtilization", npuprof_metrics_name(VNPU_METRIC_PIPE_UTILIZATION));
	EXPECT_EQ(NULL, npuprof_metrics_name(VNPU_METRIC_NONE));
	EXPECT_EQ(NULL, npuprof_metrics_name(VNPU_METRIC_COUNT));
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse("Memory", VNPU_PROF_L0, &g, &err));
	EXPECT_STREQ("Please use L1 or L2 if you want to collect aic metrics!", err.msg);
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse("Fast", VNPU_PROF_L1, &g, &err));
	EXPECT_NE(NULL, strstr(err.msg, "cannot set to: Fast")) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, npuprof_metrics_parse("", VNPU_PROF_L1, &g, &err));
	EXPECT_EQ(VNPU_METRIC_NONE, g);
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse("Memory", VNPU_PROF_L1, NULL, &err));
	EXPECT_EQ(0, npuprof_metrics_parse("Memory", VNPU_PROF_L1, &g, NULL));
	/* the two groups no Profiler key selects are not the Profiler's */
	EXPECT_EQ(-EINVAL,
		  npuprof_metrics_parse("PipelineExecuteUtilization", VNPU_PROF_L1, &g, &err));
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse("MemoryAccess", VNPU_PROF_L1, &g, &err));
}

/* msprof's --aic-metrics: every group by its sample.json name, and no other name */
TEST(public_metrics_parse_msprof)
{
	struct npuprof_error err;
	uint32_t g;

	for (uint32_t i = 0; i < VNPU_METRIC_COUNT; i++) {
		g = VNPU_METRIC_COUNT;
		EXPECT_EQ(0, npuprof_metrics_parse_msprof(npuprof_metrics_name(i), VNPU_PROF_L2, &g,
							  &err))
		TH_LOG("%s: %s", npuprof_metrics_name(i), err.msg);
		EXPECT_EQ(i, g);
	}
	EXPECT_EQ(0, npuprof_metrics_parse_msprof("", VNPU_PROF_L1, &g, &err));
	EXPECT_EQ(VNPU_METRIC_NONE, g);
	EXPECT_EQ(0, npuprof_metrics_parse_msprof(NULL, VNPU_PROF_L0, &g, &err));
	EXPECT_EQ(VNPU_METRIC_NONE, g);
	/* sample.json's A2/A3 AIC name is not an option; names are case-sensitive */
	EXPECT_EQ(-EINVAL,
		  npuprof_metrics_parse_msprof("PipeUtilizationExct", VNPU_PROF_L1, &g, &err));
	EXPECT_STREQ("aic_metrics 'PipeUtilizationExct' is not one of: ArithmeticUtilization,"
		     " L2Cache, Memory, MemoryL0, MemoryUB, PipeUtilization,"
		     " ResourceConflictRatio, PipelineExecuteUtilization, MemoryAccess",
		     err.msg);
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse_msprof("memory", VNPU_PROF_L1, &g, &err));
	EXPECT_NE(NULL, strstr(err.msg, "'memory'"));
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse_msprof("MemoryAccess", VNPU_PROF_L0, &g, &err));
	EXPECT_STREQ("Please use L1 or L2 if you want to collect aic metrics!", err.msg);
	EXPECT_EQ(-EINVAL, npuprof_metrics_parse_msprof("Memory", VNPU_PROF_L1, NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "group is NULL"));
}

TEST_F(paths, public_output_check)
{
	char resolved[PATH_MAX], small[8], path[128];
	struct npuprof_error err;

	EXPECT_EQ(0, npuprof_output_check(self->dir, "--output", resolved, sizeof(resolved), &err));
	EXPECT_STREQ(self->dir, resolved);
	/* the message names the path by the caller's word */
	snprintf(path, sizeof(path), "%s/missing", self->dir);
	EXPECT_EQ(-ENOENT,
		  npuprof_output_check(path, "--output", resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "--output '")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, path)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-ENOENT, npuprof_output_check(path, NULL, resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "output_path '")) TH_LOG("%s", err.msg);
	snprintf(path, sizeof(path), "%s/a\tb", self->dir);
	EXPECT_EQ(-EINVAL,
		  npuprof_output_check(path, "--output", resolved, sizeof(resolved), &err));
	/* NULL and "": ${ASCEND_WORK_PATH}/profiling_data, else the current directory */
	ASSERT_EQ(0, setenv("ASCEND_WORK_PATH", self->dir, 1));
	ASSERT_EQ(0, chdir("/"));
	EXPECT_EQ(0, npuprof_output_check(NULL, "--output", resolved, sizeof(resolved), &err));
	snprintf(path, sizeof(path), "%s/profiling_data", self->dir);
	EXPECT_STREQ(path, resolved);
	rmdir(path);
	ASSERT_EQ(0, setenv("ASCEND_WORK_PATH", "/nonexistent/awp", 1));
	EXPECT_EQ(-ENOENT, npuprof_output_check("", "--output", resolved, sizeof(resolved), &err));
	EXPECT_NE(NULL, strstr(err.msg, "ASCEND_WORK_PATH '/nonexistent/awp'"))
	TH_LOG("%s", err.msg);
	ASSERT_EQ(0, unsetenv("ASCEND_WORK_PATH"));
	ASSERT_EQ(0, chdir(self->dir));
	EXPECT_EQ(0, npuprof_output_check("", NULL, resolved, sizeof(resolved), &err));
	EXPECT_STREQ(self->dir, resolved);
	/* the caller's buffer: too small is -ERANGE, none is -EINVAL */
	EXPECT_EQ(-ERANGE, npuprof_output_check(self->dir, NULL, small, sizeof(small), &err));
	EXPECT_EQ(sizeof(small) - 1, strlen(small));
	EXPECT_EQ(-EINVAL, npuprof_output_check(self->dir, NULL, NULL, 0, &err));
}

TEST(version)
{
	unsigned int major, minor, patch;
	char tail;

	ASSERT_NE(NULL, npuprof_version());
	EXPECT_EQ(3, sscanf(npuprof_version(), "%u.%u.%u%c", &major, &minor, &patch, &tail))
	TH_LOG("'%s'", npuprof_version());
}

TEST(profiler_rules_without_device)
{
	struct npuprof_error err;
	struct npuprof_scope scope;
	int ran = 0;

	/* no current device */
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no current device"));
	/* bad values come first, naming themselves */
	EXPECT_EQ(-EINVAL, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .level = "L5" },
				   &err));
	EXPECT_NE(NULL, strstr(err.msg, "L5"));
	EXPECT_EQ(-EINVAL, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .aic_metrics = "Memory" },
				   &err));
	EXPECT_EQ(-ENOENT, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .output_path = "/nonexistent/x" },
				   &err));
	/* global profiling configured: the adapter's message */
	setenv("PROFILING_MODE", "true", 1);
	EXPECT_EQ(-EPERM, npuprof_profiler_start(NULL, &err));
	EXPECT_STREQ("The option 'profiling_mode' or env variables 'PROFILING_MODE' cannot be set"
		     " to true when using 'profiler.Profiler'.",
		     err.msg);
	/* the level is checked first, as the adapter checks it */
	EXPECT_EQ(-EINVAL, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .level = "L5" },
				   &err));
	EXPECT_NE(NULL, strstr(err.msg, "level cannot set to: L5")) TH_LOG("%s", err.msg);
	/* any other value of PROFILING_MODE is not global profiling */
	setenv("PROFILING_MODE", "false", 1);
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(NULL, &err)) TH_LOG("%s", err.msg);
	setenv("PROFILING_MODE", "TRUE", 1);
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(NULL, &err)) TH_LOG("%s", err.msg);
	unsetenv("PROFILING_MODE");
	/* PROFILING_OPTIONS set and not empty is global profiling configured too */
	setenv("PROFILING_OPTIONS", "{\"output\":\"/tmp\"}", 1);
	EXPECT_EQ(-EPERM, npuprof_profiler_start(NULL, &err));
	EXPECT_NE(NULL, strstr(err.msg, "PROFILING_MODE")) TH_LOG("%s", err.msg);
	setenv("PROFILING_OPTIONS", "", 1);
	EXPECT_EQ(-ENODEV, npuprof_profiler_start(NULL, &err)) TH_LOG("%s", err.msg);
	unsetenv("PROFILING_OPTIONS");
	/* an empty level is not the default */
	EXPECT_EQ(-EINVAL, npuprof_profiler_start(
				   &(struct npuprof_options){ .sz = sizeof(struct npuprof_options),
							      .level = "" },
				   &err));
	/* a scope that cannot start skips its block and says why */
	NPUPROF_PROFILER(&scope, .level = "L1")
	{
		ran = 1;
	}
	EXPECT_EQ(0, ran);
	EXPECT_EQ(-ENODEV, scope.ret);
	/* stop without start */
	EXPECT_EQ(-ENOENT, npuprof_profiler_stop(&err));
}

TEST_HARNESS_MAIN
