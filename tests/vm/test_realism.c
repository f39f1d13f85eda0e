// SPDX-License-Identifier: GPL-2.0
/*
 * A device that behaves like one (issue 42): task durations spread as a
 * real device's do, reproducibly.
 *
 *  - The module parameter seed: N, "random" or 0 (no jitter); readable;
 *    -EINVAL for anything else, -EBUSY while a session is active; a
 *    session's control page records the seed, sigma and distribution.
 *  - The same seed gives every op the same duration, run after run (the
 *    draw is keyed by device, stream and place, not by task id); another
 *    seed other durations; seed 0 equal durations for equal ops.
 *
 * The runner loads the module with seed=0 (the suites compare durations);
 * each test here puts it back.
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"

#define OPS 24

/* The seed in force, or ~0 when it cannot be read. */
static unsigned long long seed_get(void)
{
	unsigned long long v = ~0ull;
	FILE *f = fopen("/sys/module/vnpu/parameters/seed", "r");

	if (!f)
		return v;
	if (fscanf(f, "%llu", &v) != 1)
		v = ~0ull;
	fclose(f);
	return v;
}

/* Write the seed: 0 or -errno. */
static int seed_set(const char *v)
{
	int fd = open("/sys/module/vnpu/parameters/seed", O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * A fresh file's run: OPS MatMuls of one shape on one stream, each alone
 * (submitted after the previous one's sync): their durations, in ticks.
 */
static int run_ops(__u64 *durs)
{
	int fd = vnpu_open_dev(0, O_RDWR), s, ret = 0;
	struct vnpu_sync sy = { 0 };
	struct vnpu_task t;
	__u64 submit = 0;

	if (fd < 0)
		return fd;
	s = vnpu_stream_new(fd);
	if (s < 0) {
		close(fd);
		return s;
	}
	vnpu_task_init(&t, "MatMul", "MatMul", VNPU_TASK_AI_CORE, s, 1ull << 30, 1 << 22);
	t.block_num = 8;
	for (int i = 0; i < OPS && !ret; i++) {
		ret = vnpu_submit_at(fd, &t, 1, NULL, &submit);
		if (!ret)
			ret = vnpu_sync_stream(fd, s, 0, 10000, &sy);
		durs[i] = sy.device_time - submit;
	}
	close(fd);
	return ret;
}

FIXTURE(seeded)
{
	unsigned long long loaded;
};

FIXTURE_SETUP(seeded)
{
	self->loaded = seed_get();
	ASSERT_NE(~0ull, self->loaded);
}

FIXTURE_TEARDOWN(seeded)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", self->loaded);
	EXPECT_EQ(0, seed_set(v));
}

TEST_F(seeded, the_seed_parameter)
{
	struct ring r = { 0 };

	ASSERT_EQ(0, seed_set("12345"));
	EXPECT_EQ(12345ull, seed_get());
	ASSERT_EQ(0, seed_set("random"));
	EXPECT_NE(0ull, seed_get());
	EXPECT_NE(12345ull, seed_get());
	EXPECT_EQ(-EINVAL, seed_set("twelve"));
	EXPECT_EQ(-EINVAL, seed_set("-1"));

	/* a session records the seed it runs with, which holds until it stops */
	ASSERT_EQ(0, seed_set("777"));
	r.fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, vnpu_prof_start(r.fd, VNPU_PROF_L0, -1, 0, 0, &r.ps));
	ASSERT_EQ(0, ring_map(&r));
	EXPECT_LE(4, r.ctrl->version);
	EXPECT_EQ(777ull, r.ctrl->jitter_seed);
	EXPECT_LT(0, r.ctrl->jitter_permille);
	EXPECT_EQ(VNPU_JITTER_IRWIN_HALL_4, r.ctrl->jitter_dist);
	EXPECT_EQ(-EBUSY, seed_set("778"));
	EXPECT_EQ(777ull, seed_get());
	EXPECT_EQ(0, vnpu_prof_stop(r.fd));
	ring_unmap(&r);
	EXPECT_EQ(0, seed_set("778"));

	/* seed 0: none */
	ASSERT_EQ(0, seed_set("0"));
	ASSERT_EQ(0, vnpu_prof_start(r.fd, VNPU_PROF_L0, -1, 0, 0, &r.ps));
	ASSERT_EQ(0, ring_map(&r));
	EXPECT_EQ(0ull, r.ctrl->jitter_seed);
	EXPECT_EQ(0, r.ctrl->jitter_permille);
	EXPECT_EQ(VNPU_JITTER_NONE, r.ctrl->jitter_dist);
	EXPECT_EQ(0, vnpu_prof_stop(r.fd));
	ring_unmap(&r);
	close(r.fd);
}

TEST_F(seeded, one_seed_one_set_of_durations)
{
	__u64 a[OPS], b[OPS], c[OPS], z[OPS];
	int same = 0, spread = 0;

	ASSERT_EQ(0, seed_set("4242"));
	ASSERT_EQ(0, run_ops(a));
	ASSERT_EQ(0, run_ops(b));
	ASSERT_EQ(0, seed_set("4243"));
	ASSERT_EQ(0, run_ops(c));
	ASSERT_EQ(0, seed_set("0"));
	ASSERT_EQ(0, run_ops(z));
	for (int i = 0; i < OPS; i++) {
		/* the same place on a new file draws the same, whatever its ids */
		EXPECT_EQ(a[i], b[i]) TH_LOG("op %d", i);
		same += a[i] == c[i];
		spread += a[i] != a[0];
		/* no jitter: the model's one duration */
		EXPECT_EQ(z[0], z[i]) TH_LOG("op %d", i);
	}
	EXPECT_GT(OPS / 4, same) TH_LOG("another seed drew %d durations of %d the same", same, OPS);
	EXPECT_LT(OPS / 2, spread) TH_LOG("one seed, one shape: %d of %d differ", spread, OPS);
	TH_LOG("one MatMul shape: %llu ticks without jitter; %llu, %llu, ... with seed 4242",
	       (unsigned long long)z[0], (unsigned long long)a[0], (unsigned long long)a[1]);
}

TEST_HARNESS_MAIN
