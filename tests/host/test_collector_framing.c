// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's scan of the legacy ring's records (issue 17, bug 4): a
 * record size the kernel would never write (0, not a multiple of 8, past
 * the data) ends the scan instead of looping on it. Built with the
 * collector's own source, to reach its static scan.
 */
#include "../../libnpuprof/collector.c"

#include "kselftest_harness.h"

static unsigned char data[2 * 4096];

static void put_rec(uint64_t off, uint32_t size)
{
	struct vnpu_rec_hdr h = { .type = VNPU_REC_TASK_START, .size = size };

	memcpy(data + off, &h, sizeof(h));
}

TEST(bad_sizes_end_the_scan)
{
	static const uint32_t bad[] = { 0, 4, 20, 1u << 20 };
	struct vnpu_ring_ctrl ctrl = { .data_size = 4096 };
	struct dev_collect d = { .ctrl = &ctrl, .data = data };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(data, 0, sizeof(data));
		put_rec(0, 32);
		put_rec(32, bad[i]);
		/* room for one record: the scan must stop, at most at the end */
		EXPECT_GE(256, whole_records(&d, 0, 256, 32)) TH_LOG("size %u", bad[i]);
		EXPECT_GE(256, whole_records(&d, 32, 256, 32)) TH_LOG("size %u", bad[i]);
	}
	/* good records: whole ones that fit in the room (at least one) */
	memset(data, 0, sizeof(data));
	for (uint64_t off = 0; off < 256; off += 32)
		put_rec(off, 32);
	EXPECT_EQ(64, whole_records(&d, 0, 256, 64));
	EXPECT_EQ(32, whole_records(&d, 0, 256, 8));
}

TEST_HARNESS_MAIN
