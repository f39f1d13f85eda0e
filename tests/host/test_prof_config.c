// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration files of a PROF_* folder (prof_config.c) carry every
 * key msprof's C++ analysis path checks before it reads a folder (issue
 * 41). Without one, CANN's msprof stops at "JSON parameter loading failed"
 * for A2, A3 and Atlas 350 (analysis/csrc at 9ba1ac7be):
 * - domain/services/environment/context.cpp, CHECK_VALUES, of the merged
 *   info.json + start_info of host/ and of each device_N/, and for a device
 *   one DeviceInfo with hwts_frequency and aic_frequency, for the host the
 *   CPU's Frequency;
 * - domain/services/device_context/sample_info.cpp, the members of
 *   sample.json it reads with .at().
 * No oracle needed: the keys are listed here from msprof's source.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "format/format.h"

static struct json_object *load(struct __test_metadata *_metadata, const char *dir,
				const char *name)
{
	char path[PATH_MAX];
	struct json_object *o;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o = json_object_from_file(path);
	EXPECT_NE(NULL, o) TH_LOG("%s: not JSON", path);
	return o;
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* context.cpp's CHECK_VALUES, less start_info's two (checked apart) */
static const char *const info_keys[] = {
	"platform_version", "pid", "CPU", "DeviceInfo", "hostname", "memoryTotal", "netCard",
};

/* sample_info.cpp's from_json (.at()), and context.cpp's two of sample.json */
static const char *const sample_keys[] = {
	"ai_core_profiling",
	"ai_core_metrics",
	"ai_core_profiling_events",
	"ai_core_profiling_mode",
	"aicore_sampling_interval",
	"aiv_profiling",
	"aiv_metrics",
	"aiv_profiling_events",
	"aiv_profiling_mode",
	"aiv_sampling_interval",
	"llc_profiling",
};

static void check_common(struct __test_metadata *_metadata, struct json_object *info,
			 const char *what)
{
	struct json_object *v, *card;
	const char *host;

	for (size_t i = 0; i < sizeof(info_keys) / sizeof(info_keys[0]); i++) {
		EXPECT_NE(NULL, member(info, info_keys[i])) TH_LOG("%s: no %s", what, info_keys[i]);
	}
	/* the real name, never a bare VM's "(none)" */
	host = json_object_get_string(member(info, "hostname"));
	ASSERT_NE(NULL, host);
	EXPECT_NE(0, host[0]);
	EXPECT_NE(0, strcmp(host, "(none)"));
	/* KiB of the machine, an integer (context.cpp reads it as uint64_t) */
	v = member(info, "memoryTotal");
	EXPECT_TRUE(json_object_is_type(v, json_type_int)) TH_LOG("%s: memoryTotal", what);
	EXPECT_LT(0, json_object_get_int64(v));
	/* [{netCardName, speed}], speed Mb/s or -1 (unknown) */
	v = member(info, "netCard");
	ASSERT_TRUE(json_object_is_type(v, json_type_array)) TH_LOG("%s: netCard", what);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		card = json_object_array_get_idx(v, i);
		EXPECT_TRUE(json_object_is_type(member(card, "netCardName"), json_type_string));
		EXPECT_TRUE(json_object_is_type(member(card, "speed"), json_type_int));
		EXPECT_NE(0, strcmp("lo", json_object_get_string(member(card, "netCardName"))));
		EXPECT_LE(-1, json_object_get_int64(member(card, "speed")));
	}
}

static void check_sample(struct __test_metadata *_metadata, const char *dir)
{
	struct json_object *o = load(_metadata, dir, "sample.json");

	for (size_t i = 0; i < sizeof(sample_keys) / sizeof(sample_keys[0]); i++) {
		EXPECT_NE(NULL, member(o, sample_keys[i]))
		TH_LOG("%s/sample.json: no %s", dir, sample_keys[i]);
	}
	/* read with get_to() into integers */
	EXPECT_TRUE(json_object_is_type(member(o, "aicore_sampling_interval"), json_type_int));
	EXPECT_TRUE(json_object_is_type(member(o, "aiv_sampling_interval"), json_type_int));
	json_object_put(o);
}

static void check_start_info(struct __test_metadata *_metadata, const char *dir, const char *name)
{
	struct json_object *o = load(_metadata, dir, name);

	/* become startClockMonotonicRaw and startCollectionTimeBegin */
	EXPECT_NE(NULL, member(o, "clockMonotonicRaw")) TH_LOG("%s/%s", dir, name);
	EXPECT_NE(NULL, member(o, "collectionTimeBegin")) TH_LOG("%s/%s", dir, name);
	json_object_put(o);
}

FIXTURE(cfg)
{
	char dir[64];
	struct vnpu_info info;
	struct vnpu_ring_ctrl ctrl;
	struct npf_session s;
	struct npf_instant t;
};

FIXTURE_SETUP(cfg)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/npuprof-cfg-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	/* an A2 as the device reports it; the session at L1, PipeUtilization */
	self->info = (struct vnpu_info){
		.chip_id = 5,
		.aic_num = 24,
		.aiv_num = 48,
		.aicpu_num = 6,
		.aic_freq_khz = 1850000,
		.sys_cnt_freq_khz = 50000,
	};
	snprintf(self->info.product_name, sizeof(self->info.product_name), "Atlas A2");
	snprintf(self->info.chip_name, sizeof(self->info.chip_name), "Ascend910B");
	self->ctrl = (struct vnpu_ring_ctrl){
		.sys_cnt_freq_khz = 50000,
		.start_ticks = 1000,
		.start_mono_ns = 2000000,
		.metric_group = VNPU_METRIC_NONE,
	};
	self->s = (struct npf_session){ .level = VNPU_PROF_L1,
					.info = &self->info,
					.ctrl = &self->ctrl };
	npf_now(&self->t);
}

FIXTURE_TEARDOWN(cfg)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->dir);
}

TEST_F(cfg, host_info_json_has_every_key_of_the_cpp_context)
{
	struct npuprof_error e;
	struct json_object *info, *cpu, *dev;

	ASSERT_EQ(0, npf_write_host(self->dir, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	info = load(_metadata, self->dir, "info.json");
	ASSERT_NE(NULL, info);
	check_common(_metadata, info, "host/info.json");
	cpu = member(info, "CPU");
	ASSERT_TRUE(json_object_is_type(cpu, json_type_array));
	ASSERT_LT(0, json_object_array_length(cpu));
	EXPECT_NE(NULL, member(json_object_array_get_idx(cpu, json_object_array_length(cpu) - 1),
			       "Frequency"));
	/*
	 * present for the C++ path and empty: msprof's pure-Python path takes
	 * an info.json with a DeviceInfo for a device's (is_host_profiling)
	 */
	dev = member(info, "DeviceInfo");
	ASSERT_TRUE(json_object_is_type(dev, json_type_array));
	EXPECT_EQ(0, json_object_array_length(dev));
	json_object_put(info);
	check_sample(_metadata, self->dir);
	check_start_info(_metadata, self->dir, "start_info");
}

TEST_F(cfg, device_info_json_has_every_key_of_the_cpp_context)
{
	struct npuprof_error e;
	struct json_object *info, *dev, *d;

	ASSERT_EQ(0, npf_write_device(self->dir, 0, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	info = load(_metadata, self->dir, "info.json.0");
	ASSERT_NE(NULL, info);
	check_common(_metadata, info, "device_0/info.json.0");
	/* exactly one, with the two frequencies not empty */
	dev = member(info, "DeviceInfo");
	ASSERT_TRUE(json_object_is_type(dev, json_type_array));
	ASSERT_EQ(1, json_object_array_length(dev));
	d = json_object_array_get_idx(dev, 0);
	EXPECT_STREQ("50", json_object_get_string(member(d, "hwts_frequency")));
	EXPECT_STREQ("1850", json_object_get_string(member(d, "aic_frequency")));
	json_object_put(info);
	check_sample(_metadata, self->dir);
	check_start_info(_metadata, self->dir, "start_info.0");
}

/* the session's metric group is in sample.json as msprof names it, with its events */
/* The value of @key in the "key: value" lines of @dir/@name, or ~0. */
static unsigned long long log_value(const char *dir, const char *name, const char *key)
{
	char path[512], line[256];
	unsigned long long v = ~0ull;
	size_t n = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtoull(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/*
 * Device time is host time (ring version 4): the start logs put the
 * session's start tick at its exact raw instant, not at the MONOTONIC
 * stamp moved to the raw clock.
 */
TEST_F(cfg, start_logs_anchor_the_start_tick_at_its_raw_instant)
{
	struct json_object *info, *d;
	struct npuprof_error e;

	self->ctrl.version = 4;
	self->ctrl.start_raw_ns = 123456789000ull;
	ASSERT_EQ(0, npf_write_device(self->dir, 0, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(123456789000ull, log_value(self->dir, "host_start.log.0", "clock_monotonic_raw"));
	EXPECT_EQ(1000ull, log_value(self->dir, "dev_start.log.0", "cntvct"));

	/* the jitter's seed, as a string (JSON numbers lose 64-bit integers) */
	self->ctrl.jitter_seed = 18446744073709551557ull;
	self->ctrl.jitter_permille = 60;
	self->ctrl.jitter_dist = VNPU_JITTER_IRWIN_HALL_4;
	ASSERT_EQ(0, npf_write_device(self->dir, 0, &self->s, &self->t, &e));
	info = load(_metadata, self->dir, "info.json.0");
	ASSERT_NE(NULL, info);
	d = json_object_array_get_idx(member(info, "DeviceInfo"), 0);
	EXPECT_STREQ("18446744073709551557", json_object_get_string(member(d, "jitter_seed")));
	EXPECT_EQ(60, json_object_get_int(member(d, "jitter_permille")));
	EXPECT_STREQ("irwin-hall-4", json_object_get_string(member(d, "jitter_distribution")));
	json_object_put(info);

	/* version 3: the MONOTONIC stamp, on the raw clock; no jitter keys */
	self->ctrl.version = 3;
	ASSERT_EQ(0, npf_write_device(self->dir, 0, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(2000000ull + self->t.raw_ns - self->t.mono_ns,
		  log_value(self->dir, "host_start.log.0", "clock_monotonic_raw"));
}

TEST_F(cfg, sample_json_names_the_group_and_its_events)
{
	struct npuprof_error e;
	struct json_object *o;

	self->ctrl.metric_group = VNPU_METRIC_PIPE_UTILIZATION;
	self->ctrl.n_events = 2;
	self->ctrl.aic_events[0] = 0x8;
	self->ctrl.aic_events[1] = 0x9;
	ASSERT_EQ(0, npf_write_host(self->dir, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	o = load(_metadata, self->dir, "sample.json");
	ASSERT_NE(NULL, o);
	EXPECT_STREQ("on", json_object_get_string(member(o, "ai_core_profiling")));
	/* an A2's name for it, as msprof writes it there */
	EXPECT_STREQ("PipeUtilizationExct", json_object_get_string(member(o, "ai_core_metrics")));
	EXPECT_STREQ("0x8,0x9", json_object_get_string(member(o, "ai_core_profiling_events")));
	EXPECT_EQ(10, json_object_get_int(member(o, "aicore_sampling_interval")));
	json_object_put(o);
}

/* an Atlas 350 list of 9 events: the 9th from the control page's aic_events_hi */
TEST_F(cfg, sample_json_takes_the_events_past_the_8th)
{
	static const uint32_t pu[] = { 0x501, 0x301, 0x1, 0x701, 0x202, 0x203, 0x34, 0x35 };
	struct npuprof_error e;
	struct json_object *o;

	self->ctrl.metric_group = VNPU_METRIC_PIPE_UTILIZATION;
	self->ctrl.n_events = 9;
	memcpy(self->ctrl.aic_events, pu, sizeof(pu));
	memcpy(self->ctrl.aiv_events, pu, sizeof(pu));
	self->ctrl.aic_events_hi[0] = 0x714;
	self->ctrl.aiv_events_hi[0] = 0x714;
	self->ctrl.aic_events_hi[1] = 0x999; /* past n_events: not written */
	ASSERT_EQ(0, npf_write_host(self->dir, &self->s, &self->t, &e)) TH_LOG("%s", e.msg);
	o = load(_metadata, self->dir, "sample.json");
	ASSERT_NE(NULL, o);
	EXPECT_STREQ("0x501,0x301,0x1,0x701,0x202,0x203,0x34,0x35,0x714",
		     json_object_get_string(member(o, "ai_core_profiling_events")));
	EXPECT_STREQ("0x501,0x301,0x1,0x701,0x202,0x203,0x34,0x35,0x714",
		     json_object_get_string(member(o, "aiv_profiling_events")));
	json_object_put(o);
}

TEST_HARNESS_MAIN
