// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof ascend_cpp.c: device times and numbers as msprof's C++ path
 * (msprof_analysis.so, built from Ascend/msprof at 9ba1ac7be) prints them.
 *
 * The expected values are what that library wrote for make demo's rank 0
 * folder (device 0 of chip 5: hwts_frequency 50, dev_start.log cntvct and
 * host_start.log clock_monotonic_raw 3627967982, start_info
 * collectionTimeBegin 1796590725987364 and clockMonotonicRaw 3627966982):
 * task 4 (SoftmaxV2) at syscnt 3627969999 for 1177 ticks, its task_time
 * row "23.540,1796590725987405.340,1796590725987428.880"; and the op_summary
 * wait of task 2, "0.070000", which is 1796590725987370.180 less
 * 1796590725987365.000 and 5.180 in doubles.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "export/ascend.h"
#include "export/cpp_umap.h"

static const struct npa_cpp_clock demo = {
	.ok = true,
	.dev_cnt = 3627967982ull,
	.host_mon = 3627967982ull,
	.freq = 50.0,
	.begin_ns = 1796590725987364000ull,
	.local = 1796590725987364000ull - 3627966982ull,
};

static const char *us(uint64_t ns)
{
	static char buf[48];

	*npa_cpp_us(buf, ns) = 0;
	return buf;
}

static const char *fixed3(double v)
{
	static char buf[400];

	*npa_cpp_fixed3(buf, v) = 0;
	return buf;
}

TEST(chips)
{
	EXPECT_TRUE(npf_chip_has(5, NPF_CHIP_CPP_PATH));
	EXPECT_TRUE(npf_chip_has(15, NPF_CHIP_CPP_PATH));
	EXPECT_TRUE(npf_chip_has(16, NPF_CHIP_CPP_PATH));
	EXPECT_FALSE(npf_chip_has(1, NPF_CHIP_CPP_PATH));
	EXPECT_FALSE(npf_chip_has(4, NPF_CHIP_CPP_PATH));
	EXPECT_FALSE(npf_chip_has(7, NPF_CHIP_CPP_PATH));
}

TEST(task_times_of_the_demo)
{
	struct npa_cpp_time t;

	npa_cpp_task_ns(&demo, 3627969999ull, 3627969999ull + 1177, &t);
	EXPECT_EQ(3628008322.0, t.start_d);
	EXPECT_EQ(23540.0, t.dur_d);
	EXPECT_EQ(1796590725987405340ull, t.start);
	EXPECT_EQ(1796590725987428880ull, t.end);
	EXPECT_STREQ("1796590725987405.340", us(t.start));
	EXPECT_STREQ("23.540", us(t.end - t.start));
	EXPECT_FALSE(npa_cpp_before_start(&demo, &t));
}

/* a count before the device's anchor: the C++ path subtracts */
TEST(count_before_the_anchor)
{
	struct npa_cpp_time t;

	npa_cpp_task_ns(&demo, demo.dev_cnt - 200, demo.dev_cnt - 150, &t);
	EXPECT_EQ(3627967982.0 - 4000, t.start_d);
	EXPECT_EQ(1000.0, t.dur_d);
	EXPECT_EQ(demo.local + 3627967982ull - 4000, t.start);
	/* it ended before the collection began: dropped */
	EXPECT_TRUE(npa_cpp_before_start(&demo, &t));
}

TEST(divide_by_powers_of_ten)
{
	EXPECT_STREQ("0.000", us(0));
	EXPECT_STREQ("0.005", us(5));
	EXPECT_STREQ("0.050", us(50));
	EXPECT_STREQ("1.000", us(1000));
	EXPECT_STREQ("18446744073709551.615", us(UINT64_MAX));
}

TEST(double_to_str)
{
	EXPECT_STREQ("26", fixed3(26.0));
	EXPECT_STREQ("100", fixed3(100.0));
	EXPECT_STREQ("0", fixed3(0.0));
	EXPECT_STREQ("67.667", fixed3(67.6666));
	EXPECT_STREQ("90665.901", fixed3(90665.901));
	EXPECT_STREQ("0.5", fixed3(0.5));
	EXPECT_STREQ("-1.25", fixed3(-1.25));
}

TEST(to_string_and_back)
{
	char buf[400];

	*npa_cpp_to_string(buf, 1796590725987370.180 - 1796590725987365.000 - 5.180) = 0;
	EXPECT_STREQ("0.070000", buf);
	EXPECT_TRUE(npa_cpp_micro(3628008322.0) == (__int128)3628008322000000ll);
	EXPECT_TRUE(npa_cpp_micro(-0.5) == -500000);
	EXPECT_TRUE(npa_cpp_micro(0.0000004) == 0);
	/* hostile anchors: a bound, never an overflow */
	EXPECT_TRUE(npa_cpp_micro(1e300) == (__int128)1000000000000000000ll * 1000000);
	EXPECT_TRUE(npa_cpp_micro(-1e300) == -(__int128)1000000000000000000ll * 1000000);
	EXPECT_TRUE(npa_cpp_micro(__builtin_nan("")) > 0);
}

static const char *rj(double v)
{
	static char buf[64];

	*npa_cpp_double(buf, v) = 0;
	return buf;
}

/* rapidjson's Writer: shortest digits, ".0" on whole numbers, its own exponents */
TEST(rapidjson_doubles)
{
	EXPECT_STREQ("5.18", rj(5180.0 / 1000));
	EXPECT_STREQ("12.0", rj(12));
	EXPECT_STREQ("0.0", rj(0));
	EXPECT_STREQ("-0.0", rj(-0.0));
	EXPECT_STREQ("-2.5", rj(-2.5));
	EXPECT_STREQ("54.899267015706805", rj(4194304 / 76400.0));
	EXPECT_STREQ("386824.061", rj(386824.061));
	EXPECT_STREQ("0.001", rj(0.001));
	/* Python's repr would write 1e-05, 2.5e-06 and 1e+16 */
	EXPECT_STREQ("0.00001", rj(1e-5));
	EXPECT_STREQ("0.0000025", rj(2.5e-6));
	EXPECT_STREQ("1e-7", rj(1e-7));
	EXPECT_STREQ("1.5e-7", rj(1.5e-7));
	EXPECT_STREQ("10000000000000000.0", rj(1e16));
	EXPECT_STREQ("123456789012345680000.0", rj(123456789012345678901.0));
	EXPECT_STREQ("1e22", rj(1e22));
	EXPECT_STREQ("1.25e30", rj(1.25e30));
	EXPECT_STREQ("0.0", rj(NAN));
}

/*
 * std::hash<std::string> and a std::unordered_map's iteration order as
 * g++ 12's libstdc++ gives them (values printed by a C++ program built
 * with it): the four collectives of the demo's rank 0 come out last first
 */
TEST(unordered_map_order)
{
	const char *keys[] = {
		"layer0/grad/hcom_allReduce_683_0_1_14770693197433520683_0",
		"layer1/grad/hcom_allReduce_683_1_1_14770693197433520683_0",
		"layer2/grad/hcom_allReduce_683_2_1_14770693197433520683_0",
		"layer3/grad/hcom_allReduce_683_3_1_14770693197433520683_0",
	};
	const char *many[40];
	char names[40][16];
	size_t order[40];

	EXPECT_EQ(3663726644998027833ull, npa_cpp_str_hash("abc", 3));
	ASSERT_EQ(0, npa_cpp_umap_order(keys, 4, order));
	EXPECT_EQ(3, order[0]);
	EXPECT_EQ(2, order[1]);
	EXPECT_EQ(1, order[2]);
	EXPECT_EQ(0, order[3]);
	/* 40 keys: two rehashes (13 -> 29 -> 59 buckets) */
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "key%d", i);
		many[i] = names[i];
	}
	ASSERT_EQ(0, npa_cpp_umap_order(many, 40, order));
	EXPECT_EQ(39, order[0]);
	EXPECT_EQ(27, order[39]);
}

TEST_HARNESS_MAIN
