// SPDX-License-Identifier: GPL-2.0
/*
 * Permissions and information leaks (docs/reliability.md):
 *  - the device nodes are character devices, root:root, mode 0660;
 *  - an unprivileged user can open neither them nor the debugfs knobs;
 *    a group given the node (what tools/udev/60-vnpu.rules does) can;
 *  - nothing the kernel hands out carries bytes it did not mean to: every
 *    reserved member, every byte after a string's NUL, every byte of the
 *    ring's pages outside the fields and the records, every reserved byte
 *    of a record is zero.
 * Unprivileged netlink writes (RESET_STATS: -EPERM) are in test_netlink.
 */
#include <grp.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vm/vnpu_test_ring.h"

#define GRANTED_GID 4242

/* Run @fn as uid/gid nobody with @gid as the only supplementary group (0:
 * none); returns its exit status, 100 if dropping privileges failed. */
static int as_nobody(gid_t gid, int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (vnpu_become_nobody(gid))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* 0 if every open is refused with EACCES, else a step number. */
static int opens_refused(void)
{
	if (vnpu_open_dev(0, O_RDWR) >= 0 || errno != EACCES)
		return 1;
	if (vnpu_open_dev(0, O_RDONLY) >= 0 || errno != EACCES)
		return 2;
	if (open(VNPU_DEBUGFS "/fail_alloc", O_WRONLY) >= 0)
		return 3;
	if (open(VNPU_DEBUGFS "/objects", O_RDONLY) >= 0)
		return 4;
	return 0;
}

static int open_works(void)
{
	struct vnpu_info info;
	int fd = vnpu_open_dev(0, O_RDWR);

	if (fd < 0)
		return 1;
	if (vnpu_get_info(fd, &info))
		return 2;
	close(fd);
	return 0;
}

TEST(nodes_are_root_0660)
{
	unsigned int n = vnpu_param_devices();

	ASSERT_GT(n, 0);
	for (unsigned int d = 0; d < n; d++) {
		char path[32];
		struct stat st;

		snprintf(path, sizeof(path), "/dev/vnpu%u", d);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_TRUE(S_ISCHR(st.st_mode));
		EXPECT_EQ(0660, st.st_mode & 07777) TH_LOG("%s mode %o", path, st.st_mode & 07777);
		EXPECT_EQ(0, st.st_uid);
		EXPECT_EQ(0, st.st_gid);
	}
}

TEST(unprivileged_user_is_refused)
{
	EXPECT_EQ(0, as_nobody(0, opens_refused));
}

/* The udev rule's effect: the node's group opens it, nobody else. */
TEST(granted_group_opens)
{
	ASSERT_EQ(0, chown("/dev/vnpu0", 0, GRANTED_GID));
	EXPECT_EQ(0, as_nobody(GRANTED_GID, open_works));
	EXPECT_EQ(1, as_nobody(GRANTED_GID + 1, opens_refused) == 0 ? 1 : 0);
	ASSERT_EQ(0, chown("/dev/vnpu0", 0, 0));
}

/* Every byte of @p[from, to) is zero. */
static int zero_bytes(const void *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (((const unsigned char *)p)[i])
			return 0;
	return 1;
}

/* The bytes of a string member after its NUL are zero (and a NUL exists). */
static int string_clean(const char *s, size_t len)
{
	size_t n = strnlen(s, len);

	return n < len && zero_bytes(s, n, len);
}

TEST(ioctl_outputs_have_no_stray_bytes)
{
	int fd = vnpu_open_dev(0, O_RDWR), s;
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	struct vnpu_prof_start ps;
	struct vnpu_prof_stats st;
	struct vnpu_sync sy;
	struct vnpu_info info;
	struct vnpu_task t;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vnpu_get_info(fd, &info));
	EXPECT_EQ(0, info.reserved0);
	EXPECT_TRUE(zero_bytes(info.reserved, 0, sizeof(info.reserved)));
	EXPECT_TRUE(string_clean(info.product_name, sizeof(info.product_name)));
	EXPECT_TRUE(string_clean(info.chip_name, sizeof(info.chip_name)));

	ASSERT_EQ(0, ioctl(fd, VNPU_IOC_STREAM_CREATE, &sc));
	EXPECT_GT(2048, sc.hw_stream_id);
	EXPECT_EQ(0, sc.flags);
	s = sc.stream_id;

	ASSERT_EQ(0, vnpu_prof_start(fd, VNPU_PROF_L1, -1, 4, 0, &ps));
	for (unsigned int i = ps.n_events; i < VNPU_PMU_EVENTS_ALL; i++) {
		EXPECT_EQ(0, i < VNPU_PMU_EVENTS ? ps.aic_events[i]
						 : ps.aic_events_hi[i - VNPU_PMU_EVENTS]);
		EXPECT_EQ(0, i < VNPU_PMU_EVENTS ? ps.aiv_events[i]
						 : ps.aiv_events_hi[i - VNPU_PMU_EVENTS]);
	}
	vnpu_task_init(&t, "Add_1", "Add", VNPU_TASK_AI_CORE, s, 4096, 4096);
	ASSERT_EQ(0, vnpu_submit_tasks(fd, &t, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, &sy));
	EXPECT_EQ(0, sy.reserved);
	EXPECT_NE(0, sy.last_task_id);
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	EXPECT_TRUE(zero_bytes(st.reserved, 0, sizeof(st.reserved)));
	ASSERT_EQ(0, vnpu_prof_stop(fd));
	ASSERT_EQ(0, vnpu_prof_stats(fd, &st));
	EXPECT_TRUE(zero_bytes(st.reserved, 0, sizeof(st.reserved)));
	close(fd);
}

#define RESERVED_ZERO(rec, m) zero_bytes(&(rec)->m, 0, sizeof((rec)->m))

/* 0 if record @rec of channel @ch has no stray byte, else a reason number. */
static int record_clean(int ch, bool stars, const void *rec)
{
	switch (ch) {
	case VNPU_CH_ACSQ:
		if (stars) {
			const struct vnpu_acsq_log *l = rec;

			return RESERVED_ZERO(l, reserved0) && RESERVED_ZERO(l, reserved) ? 0 : 1;
		} else {
			const struct vnpu_hwts_log *l = rec;

			return RESERVED_ZERO(l, reserved0) && RESERVED_ZERO(l, reserved1) &&
					       RESERVED_ZERO(l, reserved)
				       ? 0
				       : 2;
		}
	case VNPU_CH_PMU:
		if (stars) {
			const struct vnpu_ffts_pmu *p = rec;

			return RESERVED_ZERO(p, reserved0) && RESERVED_ZERO(p, reserved1) &&
					       RESERVED_ZERO(p, reserved2) &&
					       RESERVED_ZERO(p, reserved3)
				       ? 0
				       : 3;
		} else {
			const struct vnpu_aic_pmu *p = rec;

			return RESERVED_ZERO(p, reserved0) && RESERVED_ZERO(p, reserved1) &&
					       RESERVED_ZERO(p, reserved2) &&
					       RESERVED_ZERO(p, reserved3) &&
					       RESERVED_ZERO(p, reserved4) &&
					       RESERVED_ZERO(p, reserved5) &&
					       RESERVED_ZERO(p, reserved)
				       ? 0
				       : 7;
		}
	case VNPU_CH_TS_TRACK: {
		const struct vnpu_ts_flip *f = rec;

		return RESERVED_ZERO(f, reserved0) && RESERVED_ZERO(f, reserved1) &&
				       RESERVED_ZERO(f, reserved2) && RESERVED_ZERO(f, reserved)
			       ? 0
			       : 4;
	}
	case VNPU_CH_AICPU: {
		const struct vnpu_aicpu_node *n = rec;

		return RESERVED_ZERO(n, reserved0) && RESERVED_ZERO(n, reserved1) &&
				       RESERVED_ZERO(n, reserved) && !n->kernel_type &&
				       !n->ffts_thread_id && !n->version
			       ? 0
			       : 5;
	}
	}
	return 6;
}

TEST(ring_pages_have_no_stray_bytes)
{
	struct ring r = { 0 };
	struct vnpu_task t[3];
	__u64 dims[2] = { 16, 16 };
	unsigned long records = 0;
	bool stars;
	int s;

	r.fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(r.fd, 0);
	s = vnpu_stream_new(r.fd);
	ASSERT_GE(s, 0);
	ASSERT_EQ(0, vnpu_prof_start(r.fd, VNPU_PROF_L2, -1, 16, 0, &r.ps));
	ASSERT_EQ(0, ring_map(&r));
	stars = r.ctrl->caps & VNPU_CAP_STARS;

	/* a fresh ring: the header's fields, the channel descriptors, then nothing */
	EXPECT_EQ(0, r.ctrl->reserved1);
	EXPECT_EQ(0, r.ctrl->reserved0);
	EXPECT_TRUE(zero_bytes(r.ctrl->reserved, 0, sizeof(r.ctrl->reserved)));
	EXPECT_TRUE(zero_bytes(r.ctrl->reserved3, 0, sizeof(r.ctrl->reserved3)));
	EXPECT_EQ(0, r.ctrl->reserved4);
	EXPECT_TRUE(zero_bytes(r.ctrl, sizeof(*r.ctrl), VNPU_RING_CHAN_OFFSET));
	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		EXPECT_TRUE(RESERVED_ZERO(ring_chan(&r, ch), reserved)) TH_LOG("channel %d", ch);
	}
	EXPECT_TRUE(zero_bytes(
		r.ctrl, VNPU_RING_CHAN_OFFSET + VNPU_CH_COUNT * sizeof(struct vnpu_ring_chan),
		r.ctrl->page_size));
	/* the consumer page: nothing but the positions, 0 so far */
	EXPECT_TRUE(zero_bytes(r.cons, 0, r.ctrl->page_size));

	vnpu_task_init(&t[0], "MatMul_1", "MatMul", VNPU_TASK_AI_CORE, s, 1 << 20, 1 << 14);
	vnpu_task_tensor(&t[0], 0, VNPU_DT_FLOAT16, 2, dims);
	vnpu_task_tensor(&t[0], 1, VNPU_DT_FLOAT16, 2, dims);
	vnpu_task_init(&t[1], "Cast_2", "Cast", VNPU_TASK_AI_CPU, s, 1 << 10, 1 << 10);
	vnpu_task_init(&t[2], "Add_3", "Add", VNPU_TASK_AI_VECTOR_CORE, s, 1 << 12, 1 << 12);
	for (int i = 0; i < 20; i++)
		ASSERT_EQ(0, vnpu_submit_tasks(r.fd, t, 3, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(r.fd, s, 0, 10000, NULL));
	ASSERT_EQ(0, vnpu_prof_stop(r.fd));

	for (int ch = 0; ch < VNPU_CH_COUNT; ch++) {
		const struct vnpu_ring_chan *d = ring_chan(&r, ch);
		const unsigned char *data = (const unsigned char *)r.base + d->data_offset;
		__u64 prod = ring_prod(&r, ch);

		ASSERT_LE(prod, d->data_size) TH_LOG("the test assumes no channel wrapped");
		for (__u64 pos = 0; pos < prod; pos += d->rec_size, records++) {
			EXPECT_EQ(0, record_clean(ch, stars, data + pos))
			TH_LOG("channel %d, record at %llu", ch, (unsigned long long)pos);
		}
		/* past the last record: still untouched zeros */
		EXPECT_TRUE(zero_bytes(data, prod, d->data_size)) TH_LOG("channel %d", ch);
	}
	/* 60 tasks: 120 logs, 40 PMU records, 20 AI CPU records */
	EXPECT_GE(records, 180);
	ring_unmap(&r);
	close(r.fd);
	vnpu_figure("security", "records_checked=%lu stray_bytes=0", records);
}

TEST_HARNESS_MAIN
