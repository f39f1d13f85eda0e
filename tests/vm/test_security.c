// SPDX-License-Identifier: GPL-2.0
/*
 * Permissions and information leaks (docs/reliability.md):
 *  - the device nodes are character devices, root:root, mode 0660;
 *  - an unprivileged user can open neither them nor the debugfs knobs;
 *    a group given the node (what tools/udev/60-vnpu.rules does) can;
 *  - nothing the kernel hands out carries bytes it did not mean to: every
 *    reserved member, every byte after a string's NUL, every byte of the
 *    ring's pages outside the fields, every byte between a record's fields
 *    and its size is zero.
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
	EXPECT_TRUE(zero_bytes(ps.reserved, 0, sizeof(ps.reserved)));
	for (unsigned int i = ps.n_events; i < VNPU_PMU_EVENTS; i++) {
		EXPECT_EQ(0, ps.aic_events[i]);
		EXPECT_EQ(0, ps.aiv_events[i]);
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

/* The meaningful bytes of a record of type @h->type: the rest must be zero. */
static size_t record_used(const struct vnpu_rec_hdr *h)
{
	switch (h->type) {
	case VNPU_REC_LOST:
		return sizeof(struct vnpu_rec_lost);
	case VNPU_REC_TASK_START:
	case VNPU_REC_TASK_END:
		return sizeof(struct vnpu_rec_task);
	case VNPU_REC_OP_INFO: {
		/* each tensor is followed by its ndims __u64 dims */
		const struct vnpu_rec_op_info *o = (const void *)h;
		const unsigned char *x = (const void *)(o + 1);

		for (__u32 i = 0; i < o->n_tensors; i++)
			x += sizeof(struct vnpu_rec_tensor) +
			     ((const struct vnpu_rec_tensor *)x)->ndims * sizeof(__u64);
		return x - (const unsigned char *)h;
	}
	case VNPU_REC_PMU:
		return sizeof(struct vnpu_rec_pmu);
	case VNPU_REC_COMM:
		return sizeof(struct vnpu_rec_comm);
	case VNPU_REC_RUNTIME:
		return sizeof(struct vnpu_rec_runtime);
	case VNPU_REC_AICPU:
		return sizeof(struct vnpu_rec_aicpu);
	}
	return 0;
}

/* 0 if the record has no stray byte, else a reason number. */
static int record_clean(const struct vnpu_rec_hdr *h)
{
	size_t used = record_used(h);

	if (!used || used > h->size)
		return 1;
	if (!zero_bytes(h, used, h->size))
		return 2;
	switch (h->type) {
	case VNPU_REC_OP_INFO: {
		const struct vnpu_rec_op_info *o = (const void *)h;
		const unsigned char *x = (const void *)(o + 1);

		if (o->reserved || !string_clean(o->op_name, sizeof(o->op_name)) ||
		    !string_clean(o->op_type, sizeof(o->op_type)))
			return 3;
		for (__u32 i = 0; i < o->n_tensors; i++) {
			const struct vnpu_rec_tensor *t = (const void *)x;

			if (t->reserved || t->output > 1)
				return 4;
			x += sizeof(*t) + t->ndims * sizeof(__u64);
		}
		break;
	}
	case VNPU_REC_PMU: {
		const struct vnpu_rec_pmu *p = (const void *)h;

		if (p->reserved)
			return 5;
		break;
	}
	case VNPU_REC_COMM: {
		const struct vnpu_rec_comm *c = (const void *)h;

		if (!string_clean(c->op_name, sizeof(c->op_name)))
			return 6;
		break;
	}
	case VNPU_REC_AICPU: {
		const struct vnpu_rec_aicpu *a = (const void *)h;

		if (a->reserved || !string_clean(a->op_name, sizeof(a->op_name)))
			return 7;
		break;
	}
	}
	return 0;
}

TEST(ring_pages_have_no_stray_bytes)
{
	struct ring r = { 0 };
	struct vnpu_task t[3];
	__u64 dims[2] = { 16, 16 }, prod, cons;
	unsigned long records = 0;
	int s;

	r.fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(r.fd, 0);
	s = vnpu_stream_new(r.fd);
	ASSERT_GE(s, 0);
	ASSERT_EQ(0, vnpu_prof_start(r.fd, VNPU_PROF_L2, -1, 16, 0, &r.ps));
	ASSERT_EQ(0, ring_map(&r));

	/* a fresh ring: the header's fields, then nothing */
	EXPECT_EQ(0, r.ctrl->reserved1);
	EXPECT_EQ(0, r.ctrl->reserved0);
	EXPECT_TRUE(zero_bytes(r.ctrl->reserved, 0, sizeof(r.ctrl->reserved)));
	EXPECT_TRUE(zero_bytes(r.ctrl->reserved2, 0, sizeof(r.ctrl->reserved2)));
	EXPECT_TRUE(zero_bytes(r.ctrl, sizeof(*r.ctrl), r.ctrl->page_size));
	EXPECT_TRUE(zero_bytes(r.cons, sizeof(*r.cons), r.ctrl->page_size));
	prod = __atomic_load_n(&r.ctrl->producer_pos, __ATOMIC_ACQUIRE);
	EXPECT_TRUE(zero_bytes(r.data, prod, r.ctrl->data_size));

	vnpu_task_init(&t[0], "MatMul_1", "MatMul", VNPU_TASK_AI_CORE, s, 1 << 20, 1 << 14);
	vnpu_task_tensor(&t[0], 0, VNPU_DT_FLOAT16, 2, dims);
	vnpu_task_tensor(&t[0], 1, VNPU_DT_FLOAT16, 2, dims);
	vnpu_task_init(&t[1], "Cast_2", "Cast", VNPU_TASK_AI_CPU, s, 1 << 10, 1 << 10);
	vnpu_task_init(&t[2], "Add_3", "Add", VNPU_TASK_AI_VECTOR_CORE, s, 1 << 12, 1 << 12);
	for (int i = 0; i < 20; i++)
		ASSERT_EQ(0, vnpu_submit_tasks(r.fd, t, 3, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(r.fd, s, 0, 10000, NULL));
	ASSERT_EQ(0, vnpu_prof_stop(r.fd));

	prod = __atomic_load_n(&r.ctrl->producer_pos, __ATOMIC_ACQUIRE);
	ASSERT_LE(prod, r.ctrl->data_size) TH_LOG("the test assumes the ring did not wrap");
	for (cons = 0; cons < prod;) {
		const struct vnpu_rec_hdr *h = (const void *)(r.data + cons);

		ASSERT_GE(h->size, sizeof(*h));
		EXPECT_EQ(0, record_clean(h))
		TH_LOG("record %llu (type %u, %u bytes) at %llu", (unsigned long long)h->seq,
		       h->type, h->size, (unsigned long long)cons);
		cons += h->size;
		records++;
	}
	/* past the last record: still untouched zeros */
	EXPECT_TRUE(zero_bytes(r.data, prod, r.ctrl->data_size));
	EXPECT_GT(records, 200);
	ring_unmap(&r);
	close(r.fd);
	vnpu_figure("security", "records_checked=%lu stray_bytes=0", records);
}

TEST_HARNESS_MAIN
