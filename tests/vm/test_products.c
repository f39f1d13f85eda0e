// SPDX-License-Identifier: GPL-2.0
/*
 * Every product through the module. One load with all six
 * (devices=6 product=a2,a3,350,910,200i-a2,310p) and VNPU_IOC_GET_INFO on
 * each device against literal facts: the public ones from
 * shared/reference/ascend-profiling.md (chip ids, npu_arch, system counter
 * rates, which products split AIC/AIV and have STARS or scoped profiling,
 * the metric groups the ACL documentation does not rule out), and the chosen
 * ones of the table in kmod/vnpu_product.c, with the consistency rules
 * (names, peaks, no AIV side without the split). Then the "product"
 * parameter: an unknown key and more keys than devices fail the load with
 * -EINVAL, and the last key given applies to the devices after it. And a
 * profiling session with every metric group on every product: a supported
 * group starts and programs the documented events (returned by the start
 * ioctl and in the control page), an unsupported one is -EOPNOTSUPP.
 *
 * Every test reloads the module. The fixture's teardown puts it back as the
 * runner loaded it (VNPU_MODPARAMS), after a failed assertion too, and the
 * harness process does it once more when it exits, for a test killed by
 * its timeout (which skips its teardown).
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"

#define PAGE 4096
#define ALL_PRODUCTS "devices=6 product=a2,a3,350,910,200i-a2,310p"
#define MG(g) (1u << (g))
#define ALL_GROUPS (MG(VNPU_METRIC_COUNT) - 1)
#define SPLIT VNPU_CAP_SPLIT_AIC_AIV
#define SCOPED VNPU_CAP_SCOPED_PROFILING
#define STARS VNPU_CAP_STARS
/* what the ACL doc lists as not supported on 910, 310P and 950 */
#define NO_L2_PEU_MA                                                           \
	(MG(VNPU_METRIC_L2_CACHE) | MG(VNPU_METRIC_PIPE_EXECUTE_UTILIZATION) | \
	 MG(VNPU_METRIC_MEMORY_ACCESS))
#define CUBE_FLOP_PER_CYCLE (16 * 16 * 16 * 2) /* the cube_fops formula */
#define VEC_FLOP_PER_CYCLE 128 /* 256-byte vector unit, fp16 */

struct fact {
	const char *key;
	__u32 product;
	const char *name, *chip;
	/* ascend-profiling.md */
	__u32 chip_id, npu_arch, sys_cnt_khz, caps, metric_groups;
	/* kmod/vnpu_product.c */
	__u32 aic, aiv, aicpu, aic_khz, hbm_mbps, link_mbps;
};

/*
 * metric_groups: every group but those the ACL doc's aclprofAicoreMetrics
 * notes list as not supported. caps: split and STARS on 200I/500 A2, A2,
 * A3 and 950 (aic_/aiv_ columns, Context ID); Profiler scope on 350, A3,
 * A2 and 910 (the TF doc's supported products).
 */
static const struct fact facts[VNPU_PRODUCT_COUNT] = {
	{ "a2", VNPU_PRODUCT_A2, "Atlas A2 training", "Ascend910B", 5, 2201, 50000,
	  SPLIT | STARS | SCOPED, ALL_GROUPS & ~MG(VNPU_METRIC_PIPE_EXECUTE_UTILIZATION), 24, 48, 6,
	  1800000, 1600000, 20500 },
	{ "a3", VNPU_PRODUCT_A3, "Atlas A3", "Ascend910_93", 5, 2201, 50000, SPLIT | STARS | SCOPED,
	  ALL_GROUPS & ~MG(VNPU_METRIC_PIPE_EXECUTE_UTILIZATION), 24, 48, 6, 1800000, 1600000,
	  196000 },
	{ "350", VNPU_PRODUCT_350, "Atlas 350", "Ascend950", 15, 3510, 1000000,
	  SPLIT | STARS | SCOPED, ALL_GROUPS & ~NO_L2_PEU_MA, 32, 64, 8, 1900000, 1400000, 500000 },
	{ "910", VNPU_PRODUCT_910, "Atlas training series", "Ascend910A", 1, 1001, 100000, SCOPED,
	  ALL_GROUPS & ~NO_L2_PEU_MA, 32, 0, 14, 1000000, 1200000, 30000 },
	{ "200i-a2", VNPU_PRODUCT_200I_A2, "Atlas 200I/500 A2", "Ascend310B", 7, 3002, 48000,
	  SPLIT | STARS, ALL_GROUPS & ~MG(VNPU_METRIC_MEMORY_ACCESS), 1, 1, 1, 1250000, 51200,
	  2000 },
	{ "310p", VNPU_PRODUCT_310P, "Atlas inference series", "Ascend310P", 4, 2002, 38400, 0,
	  ALL_GROUPS & ~NO_L2_PEU_MA, 8, 7, 4, 1080000, 204800, 16000 },
};

/* The collector's event lists per group (ascend-profiling.md, vnpu_pmu.c for PEU). */
static const struct {
	__u32 n;
	__u32 ids[VNPU_PMU_EVENTS];
} group_events[VNPU_METRIC_COUNT] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { 7, { 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f } },
	[VNPU_METRIC_PIPE_UTILIZATION] = { 8, { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 } },
	[VNPU_METRIC_MEMORY] = { 8, { 0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13 } },
	[VNPU_METRIC_MEMORY_L0] = { 8, { 0x1b, 0x1c, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a } },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { 3, { 0x64, 0x65, 0x66 } },
	[VNPU_METRIC_MEMORY_UB] = { 8, { 0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44 } },
	[VNPU_METRIC_L2_CACHE] = { 6, { 0x500, 0x502, 0x504, 0x506, 0x508, 0x50a } },
	[VNPU_METRIC_PIPE_EXECUTE_UTILIZATION] = { 8,
						   { 0x12c, 0x49, 0x4a, 0x9, 0x302, 0xc, 0xd,
						     0x303 } },
	[VNPU_METRIC_MEMORY_ACCESS] = { 8,
					{ 0x32, 0x3d, 0x3e, 0x206, 0x20c, 0x50c, 0x50d, 0x50e } },
};

/* A2/A3 (chip id 5) AIC PipeUtilization: "PipeUtilizationExct". */
static const __u32 pu_exct[VNPU_PMU_EVENTS] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };
/* Atlas 350 (chip id 15): its own lists (DavidV121Platform), up to 10 events */
static const struct {
	__u32 n;
	__u32 ids[VNPU_PMU_EVENTS_ALL];
} v6_events[VNPU_METRIC_COUNT] = {
	[VNPU_METRIC_ARITHMETIC_UTILIZATION] = { 2, { 0x323, 0x324 } },
	[VNPU_METRIC_PIPE_UTILIZATION] = { 9,
					   { 0x501, 0x301, 0x1, 0x701, 0x202, 0x203, 0x34, 0x35,
					     0x714 } },
	[VNPU_METRIC_MEMORY] = { 8, { 0x400, 0x401, 0x56f, 0x571, 0x570, 0x572, 0x707, 0x709 } },
	[VNPU_METRIC_MEMORY_L0] = { 7, { 0x304, 0x703, 0x306, 0x705, 0x712, 0x30a, 0x308 } },
	[VNPU_METRIC_RESOURCE_CONFLICT_RATIO] = { 4, { 0x540, 0x556, 0x502, 0x528 } },
	[VNPU_METRIC_MEMORY_UB] = { 7, { 0x3, 0x5, 0x70c, 0x206, 0x204, 0x571, 0x572 } },
};
/* 200I/500 A2 (chip id 7) MemoryUB, on both sides */
static const __u32 ub_v11[VNPU_PMU_EVENTS] = { 0x37, 0x38, 0x1a5, 0x1a6, 0x17f, 0x180, 0x191 };

/* ---- putting the module back ---- */

static pid_t harness_pid;

static void restore_module(void)
{
	if (!getenv("VNPU_KO"))
		return;
	vnpu_module_unload(); /* ours, if a test left it loaded */
	vnpu_module_restore();
}

static void __attribute__((constructor)) remember_harness(void)
{
	harness_pid = getpid();
}

/* The tests run in forked children: this runs in the harness process only. */
static void __attribute__((destructor)) restore_at_exit(void)
{
	if (getpid() == harness_pid)
		restore_module();
}

FIXTURE(mod)
{
	int fd[VNPU_MAX_DEVICES];
	unsigned int n;
};

FIXTURE_SETUP(mod)
{
	self->n = 0;
	if (!getenv("VNPU_KO"))
		SKIP(return, "VNPU_KO is not set (not run by the VM runner)");
	ASSERT_EQ(0, vnpu_module_unload());
}

FIXTURE_TEARDOWN(mod)
{
	for (unsigned int i = 0; i < self->n; i++)
		close(self->fd[i]);
	self->n = 0;
	restore_module();
}

/* Load with @params and open every device: 0 or -errno. */
static int load_and_open(FIXTURE_DATA(mod) * self, const char *params)
{
	unsigned int n;
	int ret = vnpu_module_load(params);

	if (ret)
		return ret;
	n = vnpu_param_devices();
	for (self->n = 0; self->n < n; self->n++) {
		self->fd[self->n] = vnpu_open_dev(self->n, O_RDWR);
		if (self->fd[self->n] < 0)
			return -errno;
	}
	return 0;
}

static int read_param(const char *name, char *buf, size_t len)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* A name field: not empty, NUL-terminated within its size. */
static int name_ok(const char *s, size_t len)
{
	return s[0] && memchr(s, '\0', len);
}

static void check_info(struct __test_metadata *_metadata, const struct vnpu_info *info,
		       unsigned int dev, unsigned int count, const struct fact *f)
{
	__u64 vec_units = info->aiv_num + (info->caps & SPLIT ? 0 : info->aic_num);

	EXPECT_EQ(sizeof(*info), info->size);
	EXPECT_EQ(VNPU_UAPI_VERSION, info->uapi_version);
	EXPECT_EQ(dev, info->dev_id);
	EXPECT_EQ(count, info->dev_count);
	EXPECT_EQ(f->product, info->product);
	EXPECT_TRUE(name_ok(info->product_name, sizeof(info->product_name)));
	EXPECT_TRUE(name_ok(info->chip_name, sizeof(info->chip_name)));
	EXPECT_STREQ(f->name, info->product_name);
	EXPECT_STREQ(f->chip, info->chip_name);
	/* the public facts */
	EXPECT_EQ(f->chip_id, info->chip_id);
	EXPECT_EQ(f->npu_arch, info->npu_arch);
	EXPECT_EQ(f->sys_cnt_khz, info->sys_cnt_freq_khz);
	EXPECT_EQ(f->caps, info->caps);
	EXPECT_EQ(f->metric_groups, info->metric_groups);
	/* the model's figures */
	EXPECT_EQ(f->aic, info->aic_num);
	EXPECT_EQ(f->aiv, info->aiv_num);
	EXPECT_EQ(f->aicpu, info->aicpu_num);
	EXPECT_EQ(f->aic_khz, info->aic_freq_khz);
	EXPECT_EQ(f->hbm_mbps, info->hbm_bw_mbps);
	EXPECT_EQ(f->link_mbps, info->link_bw_mbps);
	/* consistency */
	EXPECT_NE(0, info->aic_num);
	EXPECT_NE(0, info->aicpu_num);
	EXPECT_NE(0, info->aic_freq_khz);
	EXPECT_NE(0, info->hbm_bw_mbps);
	EXPECT_NE(0, info->link_bw_mbps);
	if (!info->aiv_num)
		EXPECT_FALSE(info->caps & SPLIT) TH_LOG("no vector cores, but split");
	if (info->caps & SPLIT)
		EXPECT_NE(0, info->aiv_num);
	EXPECT_EQ(0, info->caps & ~(__u32)(SPLIT | SCOPED | STARS));
	EXPECT_EQ(0, info->metric_groups & ~ALL_GROUPS);
	EXPECT_TRUE(info->metric_groups & MG(VNPU_METRIC_PIPE_UTILIZATION))
	TH_LOG("PipeUtilization, the default group, is on every product");
	EXPECT_NE(0, info->cube_flops);
	EXPECT_NE(0, info->vector_flops);
	EXPECT_EQ((__u64)CUBE_FLOP_PER_CYCLE * info->aic_num * info->aic_freq_khz * 1000,
		  info->cube_flops);
	EXPECT_EQ(vec_units * VEC_FLOP_PER_CYCLE * info->aic_freq_khz * 1000, info->vector_flops);
	EXPECT_EQ(0, info->flags);
	EXPECT_EQ(0, info->reserved0);
	for (int r = 0; r < 4; r++)
		EXPECT_EQ(0, info->reserved[r]);
}

/* Device i is product i, every fact as documented. */
TEST_F(mod, info_matches_the_reference)
{
	struct vnpu_info info;
	char buf[128];

	ASSERT_EQ(0, load_and_open(self, ALL_PRODUCTS));
	ASSERT_EQ(VNPU_PRODUCT_COUNT, self->n);
	for (unsigned int i = 0; i < self->n; i++) {
		int passed = _metadata->passed;

		ASSERT_EQ(0, vnpu_get_info(self->fd[i], &info));
		check_info(_metadata, &info, i, VNPU_PRODUCT_COUNT, &facts[i]);
		if (passed && !_metadata->passed)
			TH_LOG("that was device %u (%s)", i, facts[i].key);
	}
	/* products of the same chip id are the same architecture */
	EXPECT_EQ(facts[VNPU_PRODUCT_A2].chip_id, facts[VNPU_PRODUCT_A3].chip_id);
	EXPECT_EQ(facts[VNPU_PRODUCT_A2].npu_arch, facts[VNPU_PRODUCT_A3].npu_arch);
	/* the parameters read back as given */
	ASSERT_EQ(0, read_param("product", buf, sizeof(buf)));
	EXPECT_STREQ("a2,a3,350,910,200i-a2,310p\n", buf);
	ASSERT_EQ(0, read_param("devices", buf, sizeof(buf)));
	EXPECT_STREQ("6\n", buf);
}

/* Without the parameter every device is an a2. */
TEST_F(mod, default_product_is_a2)
{
	struct vnpu_info info;

	ASSERT_EQ(0, load_and_open(self, "devices=2"));
	for (unsigned int i = 0; i < self->n; i++) {
		ASSERT_EQ(0, vnpu_get_info(self->fd[i], &info));
		check_info(_metadata, &info, i, 2, &facts[VNPU_PRODUCT_A2]);
	}
}

/* The last key given applies to the devices after it. */
TEST_F(mod, last_product_applies_to_the_rest)
{
	static const __u32 want[4] = { VNPU_PRODUCT_310P, VNPU_PRODUCT_350, VNPU_PRODUCT_350,
				       VNPU_PRODUCT_350 };
	struct vnpu_info info;

	ASSERT_EQ(0, load_and_open(self, "devices=3 product=910"));
	ASSERT_EQ(3, self->n);
	for (unsigned int i = 0; i < 3; i++) {
		ASSERT_EQ(0, vnpu_get_info(self->fd[i], &info));
		check_info(_metadata, &info, i, 3, &facts[VNPU_PRODUCT_910]);
		close(self->fd[i]);
	}
	self->n = 0;
	ASSERT_EQ(0, vnpu_module_unload());

	ASSERT_EQ(0, load_and_open(self, "devices=4 product=310p,350"));
	ASSERT_EQ(4, self->n);
	for (unsigned int i = 0; i < 4; i++) {
		ASSERT_EQ(0, vnpu_get_info(self->fd[i], &info));
		check_info(_metadata, &info, i, 4, &facts[want[i]]);
	}
}

/* A key that is not a product fails the load; nothing is left loaded. */
TEST_F(mod, unknown_product_is_refused)
{
	static const char *const bad[] = {
		"product=foo",	"devices=2 product=a2,foo", "devices=3 product=910,310p,bar",
		"product=A2", /* keys are lower case */
		"product=a", /* a prefix of a key */
		"product=a22", /* a key and more */
		"product=200i",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, vnpu_module_load(bad[i])) TH_LOG("%s", bad[i]);
		EXPECT_FALSE(vnpu_module_loaded()) TH_LOG("%s", bad[i]);
		if (vnpu_module_loaded())
			ASSERT_EQ(0, vnpu_module_unload());
	}
}

/* More keys than devices, or more than the 16 the array holds. */
TEST_F(mod, too_many_products_are_refused)
{
	static const char *const bad[] = {
		"product=a2,a3", /* devices=1, the default */
		"devices=2 product=a2,a3,350",
		"devices=5 product=a2,a3,350,910,200i-a2,310p",
		"devices=16 product=a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2,a2",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, vnpu_module_load(bad[i])) TH_LOG("%s", bad[i]);
		EXPECT_FALSE(vnpu_module_loaded()) TH_LOG("%s", bad[i]);
		if (vnpu_module_loaded())
			ASSERT_EQ(0, vnpu_module_unload());
	}
	/* as many keys as devices is fine */
	ASSERT_EQ(0, load_and_open(self, "devices=16 product=a2,a3,350,910,200i-a2,310p,a2,a3,"
					 "350,910,200i-a2,310p,a2,a3,350,910"));
	EXPECT_EQ(16, self->n);
}

/* The events a session programs: the group's list, per product rules. */
static void check_events(struct __test_metadata *_metadata, const struct fact *f, __u32 group,
			 const struct vnpu_prof_start *ps)
{
	const __u32 *want_aic = group_events[group].ids, *want_aiv = group_events[group].ids;
	__u32 n = group_events[group].n, n_events = ps->n_events;
	__u32 aic[VNPU_PMU_EVENTS_ALL], aiv[VNPU_PMU_EVENTS_ALL];

	memcpy(aic, ps->aic_events, sizeof(ps->aic_events));
	memcpy(aic + VNPU_PMU_EVENTS, ps->aic_events_hi, sizeof(ps->aic_events_hi));
	memcpy(aiv, ps->aiv_events, sizeof(ps->aiv_events));
	memcpy(aiv + VNPU_PMU_EVENTS, ps->aiv_events_hi, sizeof(ps->aiv_events_hi));
	if (f->chip_id == 15) {
		want_aic = want_aiv = v6_events[group].ids;
		n = v6_events[group].n;
	}

	if (group == VNPU_METRIC_PIPE_UTILIZATION && f->chip_id == 5)
		want_aic = pu_exct;
	if (group == VNPU_METRIC_MEMORY_UB && f->chip_id == 7) {
		want_aic = want_aiv = ub_v11;
		n = 7;
	}
	EXPECT_EQ(n, n_events);
	for (__u32 i = 0; i < VNPU_PMU_EVENTS_ALL; i++) {
		__u32 a = i < n ? want_aic[i] : 0;
		__u32 v = i < n && (f->caps & SPLIT) ? want_aiv[i] : 0;

		EXPECT_EQ(a, aic[i]) TH_LOG("%s group %u aic counter %u", f->key, group, i);
		EXPECT_EQ(v, aiv[i]) TH_LOG("%s group %u aiv counter %u", f->key, group, i);
	}
}

/* The control page describes the session and the product. */
static void check_ctrl(struct __test_metadata *_metadata, int fd, unsigned int dev,
		       const struct fact *f, const struct vnpu_prof_start *ps)
{
	const struct vnpu_ring_ctrl *c = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);

	ASSERT_NE(MAP_FAILED, c);
	EXPECT_EQ(VNPU_RING_MAGIC, c->magic);
	EXPECT_EQ(ps->session_id, c->session_id);
	EXPECT_EQ(dev, c->dev_id);
	EXPECT_EQ(f->product, c->product);
	EXPECT_EQ(ps->level, c->level);
	EXPECT_EQ(ps->metric_group, c->metric_group);
	EXPECT_EQ(f->caps, c->caps);
	EXPECT_EQ(f->aic, c->aic_num);
	EXPECT_EQ(f->aiv, c->aiv_num);
	EXPECT_EQ(f->aic_khz, c->aic_freq_khz);
	EXPECT_EQ(f->sys_cnt_khz, c->sys_cnt_freq_khz);
	EXPECT_EQ(ps->n_events, c->n_events);
	EXPECT_EQ(0, memcmp(ps->aic_events, c->aic_events, sizeof(c->aic_events)));
	EXPECT_EQ(0, memcmp(ps->aiv_events, c->aiv_events, sizeof(c->aiv_events)));
	EXPECT_EQ(0, memcmp(ps->aic_events_hi, c->aic_events_hi, sizeof(c->aic_events_hi)));
	EXPECT_EQ(0, memcmp(ps->aiv_events_hi, c->aiv_events_hi, sizeof(c->aiv_events_hi)));
	munmap((void *)c, PAGE);
}

/*
 * Every group at L1 and L2 on every product: the supported ones start, with
 * the documented events in the start ioctl's answer and the control page;
 * the others are -EOPNOTSUPP and start nothing.
 */
TEST_F(mod, metric_groups_on_every_product)
{
	struct vnpu_prof_start ps;

	ASSERT_EQ(0, load_and_open(self, ALL_PRODUCTS));
	ASSERT_EQ(VNPU_PRODUCT_COUNT, self->n);
	for (unsigned int d = 0; d < self->n; d++) {
		const struct fact *f = &facts[d];
		/* PipeUtilization, but PipelineExecuteUtilization on chip 7 */
		__u32 dflt = f->chip_id == 7 ? VNPU_METRIC_PIPE_EXECUTE_UTILIZATION
					     : VNPU_METRIC_PIPE_UTILIZATION;
		int fd = self->fd[d];

		for (__u32 level = VNPU_PROF_L1; level <= VNPU_PROF_L2; level++) {
			for (__u32 g = 0; g < VNPU_METRIC_COUNT; g++) {
				int ret = vnpu_prof_start(fd, level, g, 1, 0, &ps);

				if (!(f->metric_groups & MG(g))) {
					EXPECT_EQ(-EOPNOTSUPP, ret)
					TH_LOG("%s L%u group %u", f->key, level, g);
					EXPECT_EQ(-ENOENT, vnpu_prof_stop(fd));
					continue;
				}
				ASSERT_EQ(0, ret) TH_LOG("%s L%u group %u", f->key, level, g);
				EXPECT_EQ(g, ps.metric_group);
				/* ACSQ, PMU, TS_TRACK and AICPU of one page each */
				EXPECT_EQ((2 + 2 * 4) * PAGE, ps.mmap_size);
				check_events(_metadata, f, g, &ps);
				check_ctrl(_metadata, fd, d, f, &ps);
				ASSERT_EQ(0, vnpu_prof_stop(fd));
			}
			/* no flag: msprof's collector default */
			ASSERT_EQ(0, vnpu_prof_start(fd, level, -1, 1, 0, &ps));
			EXPECT_EQ(dflt, ps.metric_group);
			check_events(_metadata, f, dflt, &ps);
			check_ctrl(_metadata, fd, d, f, &ps);
			ASSERT_EQ(0, vnpu_prof_stop(fd));
			/* not a group */
			EXPECT_EQ(-EINVAL,
				  vnpu_prof_start(fd, level, VNPU_METRIC_COUNT, 1, 0, &ps));
			EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, level, VNPU_METRIC_NONE, 1, 0, &ps));
		}
		/* L0: no group, and none may be given */
		ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L0, -1, 1, 0, &ps));
		EXPECT_EQ(VNPU_METRIC_NONE, ps.metric_group);
		EXPECT_EQ(0, ps.n_events);
		for (int i = 0; i < VNPU_PMU_EVENTS; i++) {
			EXPECT_EQ(0, ps.aic_events[i]);
			EXPECT_EQ(0, ps.aiv_events[i]);
		}
		check_ctrl(_metadata, fd, d, f, &ps);
		ASSERT_EQ(0, vnpu_prof_stop(fd));
		for (__u32 g = 0; g < VNPU_METRIC_COUNT; g++) {
			EXPECT_EQ(-EINVAL, vnpu_prof_start(fd, VNPU_PROF_L0, g, 1, 0, &ps))
			TH_LOG("%s L0 group %u", f->key, g);
		}
		EXPECT_EQ(-ENOENT, vnpu_prof_stop(fd));
	}
}

/*
 * One AI Core task per product at L1: two task logs, and one PMU record
 * that counts the programmed events of an AI Core task (no counter past
 * n_events), in the product's format: a context PMU record of an AIC task
 * with STARS, an AI Core PMU record without.
 */
TEST_F(mod, pmu_record_on_every_product)
{
	struct vnpu_prof_start ps;
	struct vnpu_task t;

	ASSERT_EQ(0, load_and_open(self, ALL_PRODUCTS));
	for (unsigned int d = 0; d < self->n; d++) {
		const struct fact *f = &facts[d];
		const struct vnpu_ring_chan *logs, *pmu;
		const struct vnpu_ring_ctrl *c;
		const unsigned char *rec;
		__u64 nonzero = 0, cycles, id = 0;
		const __u64 *ctr;
		int fd = self->fd[d], s;

		ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 1, 0, &ps));
		c = mmap(NULL, ps.mmap_size, PROT_READ, MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, c);
		logs = (const void *)((const char *)c + c->chan_offset +
				      VNPU_CH_ACSQ * sizeof(*logs));
		pmu = (const void *)((const char *)c + c->chan_offset + VNPU_CH_PMU * sizeof(*pmu));
		s = vnpu_stream_new(fd);
		ASSERT_GE(s, 0);
		vnpu_task_init(&t, "MatMul_1", "MatMul", VNPU_TASK_AI_CORE, s, 1 << 24, 1 << 20);
		ASSERT_EQ(0, vnpu_submit_tasks(fd, &t, 1, &id));
		ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, NULL));
		ASSERT_EQ(0, vnpu_prof_stop(fd));
		/* two ACSQ logs: 64 B each, 32 B on the v6 chip */
		EXPECT_EQ(f->chip_id == 15 ? 2 * 32 : 2 * 64,
			  __atomic_load_n(&logs->producer_pos, __ATOMIC_ACQUIRE))
		TH_LOG("%s", f->key);
		ASSERT_EQ(128, __atomic_load_n(&pmu->producer_pos, __ATOMIC_ACQUIRE))
		TH_LOG("%s", f->key);
		rec = (const unsigned char *)c + pmu->data_offset;
		if (f->chip_id == 15) {
			const struct vnpu_pmu_v6 *p = (const void *)rec;

			EXPECT_EQ(VNPU_FUNC_V6_CONTEXT_PMU, VNPU_ACSQ_FUNC(p->word0))
			TH_LOG("%s", f->key);
			EXPECT_EQ(VNPU_PMU_V6_MAIN, p->flags) TH_LOG("%s", f->key);
			EXPECT_EQ(0, p->core_type) TH_LOG("%s", f->key);
			EXPECT_EQ(id & 0xffff, p->task_lo) TH_LOG("%s", f->key);
			EXPECT_EQ((id >> 16) & 0xffff, p->task_hi) TH_LOG("%s", f->key);
			cycles = p->total_cycle;
			ctr = p->pmu;
		} else if (f->caps & STARS) {
			const struct vnpu_ffts_pmu *p = (const void *)rec;

			EXPECT_EQ(VNPU_FUNC_CONTEXT_PMU, VNPU_ACSQ_FUNC(p->word0))
			TH_LOG("%s", f->key);
			EXPECT_EQ(VNPU_FFTS_TYPE_AIC, VNPU_FFTS_TYPE(p->ffts)) TH_LOG("%s", f->key);
			cycles = p->total_cycle;
			ctr = p->pmu;
		} else {
			const struct vnpu_aic_pmu *p = (const void *)rec;

			cycles = p->total_cycle;
			ctr = p->pmu;
		}
		EXPECT_NE(0, cycles) TH_LOG("%s", f->key);
		for (int i = 0; i < (f->chip_id == 15 ? VNPU_PMU_V6_COUNTERS : VNPU_PMU_COUNTERS);
		     i++) {
			nonzero += ctr[i] != 0;
			if (i >= (int)ps.n_events)
				EXPECT_EQ(0, ctr[i]) TH_LOG("%s", f->key);
		}
		EXPECT_GT(nonzero, 0) TH_LOG("%s: no PipeUtilization counter moved", f->key);
		munmap((void *)c, ps.mmap_size);
	}
}

TEST_HARNESS_MAIN
