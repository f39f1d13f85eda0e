// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof's communicator key as text (comm.c): what one rank hands
 * another, so it must round-trip and refuse anything that is not one.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "npuprof.h"

TEST(format_and_parse_round_trip)
{
	struct npuprof_comm_key key, back;
	char text[NPUPROF_COMM_KEY_STRLEN];
	struct npuprof_error err;

	for (size_t i = 0; i < sizeof(key.bytes); i++)
		key.bytes[i] = (uint8_t)(i * 37 + 5);
	npuprof_comm_key_format(&key, text);
	EXPECT_EQ(64, strlen(text));
	EXPECT_EQ(0, strncmp(text, "052a4f7499be", 12)) TH_LOG("%s", text);
	ASSERT_EQ(0, npuprof_comm_key_parse(text, &back, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, memcmp(&key, &back, sizeof(key)));
	/* upper case too */
	for (char *p = text; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p -= 'a' - 'A';
	ASSERT_EQ(0, npuprof_comm_key_parse(text, &back, &err));
	EXPECT_EQ(0, memcmp(&key, &back, sizeof(key)));
}

TEST(bad_keys_are_refused_by_name)
{
	struct npuprof_comm_key key;
	struct npuprof_error err;
	char text[NPUPROF_COMM_KEY_STRLEN + 1];

	EXPECT_EQ(-EINVAL, npuprof_comm_key_parse("abcd", &key, &err));
	EXPECT_NE(NULL, strstr(err.msg, "'abcd'")) TH_LOG("%s", err.msg);
	memset(text, '0', 64);
	text[64] = '\0';
	text[10] = 'g';
	EXPECT_EQ(-EINVAL, npuprof_comm_key_parse(text, &key, &err));
	EXPECT_NE(NULL, strstr(err.msg, "at 10")) TH_LOG("%s", err.msg);
	memset(text, '0', 65);
	text[65] = '\0';
	EXPECT_EQ(-EINVAL, npuprof_comm_key_parse(text, &key, &err));
	EXPECT_EQ(-EINVAL, npuprof_comm_key_parse(NULL, &key, &err));
}

TEST_HARNESS_MAIN
