// SPDX-License-Identifier: GPL-2.0
/*
 * Device nodes, open/close, the info ioctl and its validation, unknown
 * ioctls, and module load/unload cycles.
 */
#include <sys/sysmacros.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"

static unsigned int count_nodes(void)
{
	unsigned int n = 0;
	struct stat st;
	char path[32];

	for (unsigned int i = 0; i < VNPU_MAX_DEVICES + 1; i++) {
		snprintf(path, sizeof(path), "/dev/vnpu%u", i);
		if (stat(path, &st) == 0)
			n++;
	}
	return n;
}

TEST(nodes_match_parameter)
{
	unsigned int n = vnpu_param_devices();
	struct stat st;

	ASSERT_GE(n, 1);
	EXPECT_EQ(n, count_nodes());
	for (unsigned int i = 0; i < n; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/vnpu%u", i);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s missing", path);
		EXPECT_TRUE(S_ISCHR(st.st_mode));
		EXPECT_EQ(0660, st.st_mode & 07777);
		EXPECT_EQ(0, st.st_uid);
		EXPECT_EQ(0, st.st_gid);
		EXPECT_EQ(i, minor(st.st_rdev));
	}
	EXPECT_EQ(0, access("/sys/class/vnpu/vnpu0", F_OK));
}

TEST(open_close)
{
	for (int i = 0; i < 100; i++) {
		int fd = vnpu_open_dev(0, O_RDWR);

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, close(fd));
	}
}

TEST(info_reports_version_and_ids)
{
	unsigned int n = vnpu_param_devices();
	struct vnpu_info info;

	for (unsigned int i = 0; i < n; i++) {
		int fd = vnpu_open_dev(i, O_RDWR);

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, vnpu_get_info(fd, &info));
		EXPECT_EQ(VNPU_UAPI_VERSION, info.uapi_version);
		EXPECT_EQ(sizeof(info), info.size);
		EXPECT_EQ(i, info.dev_id);
		EXPECT_EQ(n, info.dev_count);
		EXPECT_EQ(0, info.flags);
		EXPECT_EQ(0, info.reserved0);
		for (int r = 0; r < 4; r++)
			EXPECT_EQ(0, info.reserved[r]);
		close(fd);
	}
}

FIXTURE(dev)
{
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

TEST_F(dev, info_rejects_nonzero_flags)
{
	struct vnpu_info info = { .size = sizeof(info), .flags = 1 };

	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, info_rejects_nonzero_reserved)
{
	struct vnpu_info info = { .size = sizeof(info), .reserved = { 0, 0, 0, 1 } };

	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, info_rejects_size_below_ver0)
{
	struct vnpu_info info = { .size = VNPU_INFO_SIZE_VER0 - 4 };

	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

/* A newer caller's larger struct: zero tail accepted, non-zero tail E2BIG. */
TEST_F(dev, info_size_ladder)
{
	struct {
		struct vnpu_info info;
		__u64 future[4];
	} big;

	memset(&big, 0, sizeof(big));
	big.info.size = sizeof(big);
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_GET_INFO, &big));
	EXPECT_EQ(sizeof(struct vnpu_info), big.info.size);
	EXPECT_EQ(VNPU_UAPI_VERSION, big.info.uapi_version);
	EXPECT_EQ(0, big.future[0]);

	memset(&big, 0, sizeof(big));
	big.info.size = sizeof(big);
	big.future[3] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, &big));
	EXPECT_EQ(E2BIG, errno);
}

/* The kernel writes no more than the caller's size. */
TEST_F(dev, info_writes_at_most_size)
{
	unsigned char buf[sizeof(struct vnpu_info) + 8];
	struct vnpu_info *info = (struct vnpu_info *)buf;

	memset(buf, 0xa5, sizeof(buf));
	memset(info, 0, VNPU_INFO_SIZE_VER0);
	info->size = VNPU_INFO_SIZE_VER0;
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_GET_INFO, info));
	for (size_t i = VNPU_INFO_SIZE_VER0; i < sizeof(buf); i++)
		EXPECT_EQ(0xa5, buf[i]);
}

TEST_F(dev, info_bad_pointer_is_efault)
{
	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_GET_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
}

/*
 * Issue 16 item 11: only the whole numbers of the header are the device's.
 * V4L2's VIDIOC_G_FMT, _IOWR('V', 4, struct v4l2_format) (204 bytes), was
 * dispatched as SYNC when the magic was 'V' and the size bits were ignored.
 */
TEST_F(dev, unknown_ioctls_are_enotty)
{
	struct vnpu_info info = { .size = sizeof(info) };
	char v4l2_format[204] = { 0 };
	unsigned long cmds[] = {
		_IOWR('V', 4, char[204]), /* VIDIOC_G_FMT */
		_IOWR('V', 0, struct vnpu_info),
		_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_SYNC, char[204]),
		_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, char[8]),
		_IOWR(VNPU_IOC_MAGIC, 0x7f, struct vnpu_info),
		_IOWR('X', VNPU_IOC_NR_GET_INFO, struct vnpu_info),
		_IOR(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, struct vnpu_info),
		_IOW(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, struct vnpu_info),
		_IO(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO),
		0,
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], i < 3 ? (void *)v4l2_format : &info))
		TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
	/* the magic is one that ioctl-number.rst leaves free */
	EXPECT_EQ(0xB8, VNPU_IOC_MAGIC);
}

/*
 * Issue 16 item 11: the limits come from GET_INFO (uapi 0.5), and they are
 * the ones the device enforces.
 */
TEST_F(dev, info_reports_limits)
{
	struct vnpu_info info;
	int ids[VNPU_MAX_STREAMS + 1], n = 0;

	ASSERT_EQ(0, vnpu_get_info(self->fd, &info));
	EXPECT_EQ(VNPU_MAX_STREAMS, info.max_streams);
	EXPECT_EQ(VNPU_MAX_HW_STREAMS, info.max_hw_streams);
	EXPECT_EQ(VNPU_MAX_SUBMIT, info.max_submit);
	EXPECT_EQ(VNPU_MAX_PENDING, info.max_pending);
	EXPECT_EQ((__u64)VNPU_RING_DEFAULT_PAGES * getpagesize(), info.ring_default_bytes);
	EXPECT_EQ((__u64)VNPU_RING_MAX_PAGES * getpagesize(), info.ring_max_bytes);
	EXPECT_EQ(VNPU_MAX_COMMS, info.max_comms);

	/* max_streams streams, and not one more */
	for (n = 0; n < (int)info.max_streams; n++)
		ASSERT_EQ(n, ids[n] = vnpu_stream_new(self->fd));
	EXPECT_EQ(-EMFILE, vnpu_stream_new(self->fd));
	while (n--)
		EXPECT_EQ(0, vnpu_stream_del(self->fd, ids[n]));
}

/* A 0.4 caller's GET_INFO number and 184-byte struct still work. */
TEST_F(dev, info_ver0_number)
{
	struct vnpu_info info;

	memset(&info, 0xa5, sizeof(info));
	memset(&info, 0, VNPU_INFO_SIZE_VER0);
	info.size = VNPU_INFO_SIZE_VER0;
	ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_GET_INFO_VER0, &info));
	EXPECT_EQ(VNPU_UAPI_VERSION, info.uapi_version);
	EXPECT_EQ(sizeof(info), info.size);
	EXPECT_EQ(0xa5a5a5a5, info.max_streams); /* past its 184 bytes: untouched */
}

/*
 * Issue 16 item 11: output members are not inputs, so a structure passed
 * back as it came out is accepted: a second GET_INFO, STREAM_CREATE, SYNC,
 * PROF_START and PROF_STATS with the same structure.
 */
TEST_F(dev, reused_structs_are_accepted)
{
	struct vnpu_info info = { .size = sizeof(info) };
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	struct vnpu_sync sy = { .size = sizeof(sy), .flags = VNPU_SYNC_F_ALL_STREAMS };
	struct vnpu_prof_start ps = { .size = sizeof(ps),
				      .flags = VNPU_PROF_F_CHANNELS,
				      .level = VNPU_PROF_L1 };
	struct vnpu_prof_stop st = { .size = sizeof(st) };
	struct vnpu_prof_stats ss = { .size = sizeof(ss) };
	struct vnpu_task t;
	struct vnpu_submit sub = { .size = sizeof(sub), .count = 1, .task_size = sizeof(t) };
	__u32 first_stream = 0;

	for (int round = 0; round < 2; round++) {
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_GET_INFO, &info)) TH_LOG("round %d", round);
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_START, &ps))
		TH_LOG("round %d: %s", round, strerror(errno));
		EXPECT_NE(0, ps.session_id);
		EXPECT_NE(0, ps.mmap_size);
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_STREAM_CREATE, &sc))
		TH_LOG("round %d", round);
		if (!round)
			first_stream = sc.stream_id;
		vnpu_task_init(&t, "reuse", "Add", VNPU_TASK_AI_CORE, sc.stream_id, 1000, 64);
		sub.tasks = (unsigned long)&t;
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_SUBMIT, &sub)) TH_LOG("round %d", round);
		EXPECT_EQ(1, sub.submitted);
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_SYNC, &sy)) TH_LOG("round %d", round);
		EXPECT_NE(0, sy.last_task_id);
		EXPECT_NE(0, sy.device_time);
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_STOP, &st)) TH_LOG("round %d", round);
		ASSERT_EQ(0, ioctl(self->fd, VNPU_IOC_PROF_STATS, &ss)) TH_LOG("round %d", round);
		EXPECT_EQ(ps.session_id, ss.session_id);
		EXPECT_NE(0, ss.produced);
	}
	EXPECT_NE(first_stream, sc.stream_id);
}

/* "count too large" and "non-zero tail" are told apart. */
TEST_F(dev, submit_count_too_large_is_emsgsize)
{
	struct vnpu_submit sub = {
		.size = sizeof(sub),
		.count = VNPU_MAX_SUBMIT + 1,
		.task_size = sizeof(struct vnpu_task),
		.tasks = 8,
	};

	EXPECT_EQ(-1, ioctl(self->fd, VNPU_IOC_SUBMIT, &sub));
	EXPECT_EQ(EMSGSIZE, errno);
}

TEST(unload_refused_while_open)
{
	int fd = vnpu_open_dev(0, O_RDWR);

	ASSERT_GE(fd, 0);
	EXPECT_NE(0, vnpu_module_unload());
	EXPECT_TRUE(vnpu_module_loaded());
	close(fd);
}

TEST(load_rejects_bad_device_count)
{
	ASSERT_EQ(0, vnpu_module_unload());
	EXPECT_EQ(-EINVAL, vnpu_module_load("devices=0"));
	EXPECT_EQ(-EINVAL, vnpu_module_load("devices=17"));
	EXPECT_FALSE(vnpu_module_loaded());
	ASSERT_EQ(0, vnpu_module_restore());
}

/* Load and unload 20 times with activity in between, 1..16 devices. */
TEST(load_unload_cycles)
{
	static const unsigned int counts[] = { 1, 2, 16, 3, 8 };

	ASSERT_EQ(0, vnpu_module_unload());
	for (int i = 0; i < 20; i++) {
		unsigned int n = counts[i % 5];
		struct vnpu_info info;
		char params[32];
		int fd;

		snprintf(params, sizeof(params), "devices=%u", n);
		ASSERT_EQ(0, vnpu_module_load(params)) TH_LOG("cycle %d", i);
		ASSERT_EQ(n, count_nodes()) TH_LOG("cycle %d", i);
		fd = vnpu_open_dev(n - 1, O_RDWR);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, vnpu_get_info(fd, &info));
		EXPECT_EQ(n - 1, info.dev_id);
		EXPECT_EQ(n, info.dev_count);
		close(fd);
		ASSERT_EQ(0, vnpu_module_unload()) TH_LOG("cycle %d", i);
		ASSERT_EQ(0, count_nodes());
	}
	ASSERT_EQ(0, vnpu_module_restore());
}

TEST_HARNESS_MAIN
