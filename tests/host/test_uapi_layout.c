// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi layout on x86_64 is what docs/uapi.md says: sizes, offsets, and
 * no implicit padding (the sum of member sizes equals the struct size).
 */
#include <stddef.h>

#include "kselftest_harness.h"
#include "vnpu.h"

#define MEMBER_SIZE(t, m) sizeof(((t *)0)->m)

TEST(vnpu_info)
{
	EXPECT_EQ(VNPU_INFO_SIZE_VER0, sizeof(struct vnpu_info));
	EXPECT_EQ(0, offsetof(struct vnpu_info, size));
	EXPECT_EQ(4, offsetof(struct vnpu_info, flags));
	EXPECT_EQ(8, offsetof(struct vnpu_info, uapi_version));
	EXPECT_EQ(12, offsetof(struct vnpu_info, dev_id));
	EXPECT_EQ(16, offsetof(struct vnpu_info, dev_count));
	EXPECT_EQ(20, offsetof(struct vnpu_info, reserved));
	EXPECT_EQ(sizeof(struct vnpu_info), MEMBER_SIZE(struct vnpu_info, size) +
						    MEMBER_SIZE(struct vnpu_info, flags) +
						    MEMBER_SIZE(struct vnpu_info, uapi_version) +
						    MEMBER_SIZE(struct vnpu_info, dev_id) +
						    MEMBER_SIZE(struct vnpu_info, dev_count) +
						    MEMBER_SIZE(struct vnpu_info, reserved));
}

TEST(ioctl_numbers)
{
	EXPECT_EQ(0xc0185600u, (unsigned int)VNPU_IOC_GET_INFO);
}

TEST_HARNESS_MAIN
