// SPDX-License-Identifier: GPL-2.0
/*
 * The bad-input matrix: every ioctl and every field of its structure, each
 * case tripping exactly one check of the kernel and asserting the exact
 * errno (docs/uapi.md), and the valid edge cases next to them.
 *
 * The cases are tables: one line per case, run in a loop that names the
 * case when it fails. After every case the file's queues are synced: a
 * rejected call must not have queued anything (the last completed task id
 * does not move), an accepted submit must have queued exactly its tasks
 * (the ids follow on). Each test ends with a good submit and sync.
 *
 *  - struct_ladder: the size ladder, zero and non-zero tails, the command's
 *    size bits, and NULL / kernel / unmapped / half-mapped / read-only
 *    structures, for each of the five ioctls.
 *  - <ioctl>_fields: every member of the ioctl's own structure.
 *  - task_fields: every member of struct vnpu_task, each case submitted
 *    alone and as the last task of a batch of three (all or nothing).
 *  - task_arrays: @task_size strides, tails and unmapped task arrays.
 *  - sync_timeout_and_signals, create_readonly_gives_the_stream_back,
 *    products_must_match: what needs a pending collective, a read-only
 *    page or another module configuration.
 */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <time.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"
#include "vnpu_hccl.h"

/* The mapping of every fixture: RW_PAGES read-write, one PROT_NONE, one read-only. */
#define RW_PAGES 4
/* A user address in the kernel half: access_ok() fails. */
#define KERNEL_PTR 0xffff800000000000ull

struct ctx {
	int fd;
	unsigned int stream; /* the stream the good tasks run on */
	unsigned int ndev;
	size_t page;
	int split; /* the device splits AIC/AIV (MIX tasks are valid) */
	unsigned char *rw; /* RW_PAGES read-write pages */
	unsigned char *none; /* followed by one inaccessible page */
	unsigned char *ro; /* and one read-only page */
	unsigned char *stage; /* two read-write pages for task arrays */
	unsigned char *stage_end; /* followed by an inaccessible page */
	unsigned char *img; /* a page to build structures in */
	struct vnpu_task good[3]; /* valid AI_CORE tasks on @stream */
	struct vnpu_task comm; /* a valid collective of devices 0 and 1 */
	int partner; /* device 1's rank of its communicator, -1 if none */
	__u64 last_id; /* the file's last completed task */
	int victim; /* a stream for the STREAM_DESTROY cases */
	unsigned int ncases;
};

static const char *ename(int e)
{
	static char buf[32];

	switch (e) {
	case 0:
		return "success";
	case EINVAL:
		return "EINVAL";
	case E2BIG:
		return "E2BIG";
	case EMSGSIZE:
		return "EMSGSIZE";
	case EFAULT:
		return "EFAULT";
	case ENOENT:
		return "ENOENT";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EINTR:
		return "EINTR";
	case ENOTTY:
		return "ENOTTY";
	case EMFILE:
		return "EMFILE";
	case ENOMEM:
		return "ENOMEM";
	case EPIPE:
		return "EPIPE";
	default:
		snprintf(buf, sizeof(buf), "errno %d", e);
		return buf;
	}
}

/* 0 or the errno of the ioctl. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* Submit with every member under the caller's control; 0 or the errno. */
static int submit_raw(int fd, const void *tasks, __u64 *ids, __u32 count, __u32 task_size)
{
	struct vnpu_submit sub = {
		.size = sizeof(sub),
		.tasks = (__u64)(unsigned long)tasks,
		.task_ids = (__u64)(unsigned long)ids,
		.count = count,
		.task_size = task_size,
	};

	return xioctl(fd, VNPU_IOC_SUBMIT, &sub);
}

/* Up to three members of a structure set to a value (little-endian). */
struct set {
	size_t off;
	size_t size; /* 0: unused */
	__u64 val;
};

#define SET(type, member, v)                                                                  \
	{                                                                                     \
		offsetof(struct type, member), sizeof(((struct type *)0)->member), (__u64)(v) \
	}
#define NSETS 3

static void apply_sets(void *obj, const struct set *s)
{
	for (int i = 0; i < NSETS; i++)
		if (s[i].size)
			memcpy((unsigned char *)obj + s[i].off, &s[i].val, s[i].size);
}

/*
 * After a case: wait until the file is idle. A rejected call must not have
 * queued anything, an accepted one exactly @queued tasks: the file's last
 * completed id moves by that much (the ids of a device are contiguous and
 * nothing else submits to device 0 meanwhile).
 */
static void settle(struct __test_metadata *_metadata, struct ctx *c, unsigned int queued,
		   const char *what, const char *name)
{
	struct vnpu_sync sy;
	int ret = vnpu_sync_stream(c->fd, 0, VNPU_SYNC_F_ALL_STREAMS, 10000, &sy);

	ASSERT_EQ(0, ret) TH_LOG("%s: %s: sync after the case: %s", what, name, ename(-ret));
	EXPECT_EQ(c->last_id + queued, sy.last_task_id)
	TH_LOG("%s: %s: %u task(s) should have been queued", what, name, queued);
	c->last_id = sy.last_task_id;
	c->ncases++;
}

/* The device still works: a good task gets the next id and completes. */
static void device_works(struct __test_metadata *_metadata, struct ctx *c)
{
	struct vnpu_sync sy;
	__u64 id = 0;

	ASSERT_EQ(0, vnpu_submit_tasks(c->fd, c->good, 1, &id));
	EXPECT_EQ(c->last_id + 1, id) TH_LOG("rejected calls consumed task ids");
	ASSERT_EQ(0, vnpu_sync_stream(c->fd, c->stream, 0, 10000, &sy));
	EXPECT_EQ(id, sy.last_task_id);
	EXPECT_GT(sy.device_time, 0);
	c->last_id = id;
	if (c->ncases)
		TH_LOG("%u cases", c->ncases);
}

static void *map_pages(size_t page, size_t n)
{
	void *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

FIXTURE(bad)
{
	struct ctx c;
};

FIXTURE_SETUP(bad)
{
	struct ctx *c = &self->c;
	struct vnpu_info info;
	struct vnpu_sync sy;
	const __u64 dims[2] = { 16, 16 };
	int s;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->partner = -1;
	c->victim = -1;
	c->page = sysconf(_SC_PAGESIZE);
	c->ndev = vnpu_param_devices();
	c->fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(c->fd, 0);
	ASSERT_EQ(0, vnpu_get_info(c->fd, &info));
	c->split = !!(info.caps & VNPU_CAP_SPLIT_AIC_AIV);
	s = vnpu_stream_new(c->fd);
	ASSERT_GE(s, 0);
	c->stream = s;

	c->rw = map_pages(c->page, RW_PAGES + 2);
	ASSERT_NE(NULL, c->rw);
	c->none = c->rw + RW_PAGES * c->page;
	c->ro = c->none + c->page;
	ASSERT_EQ(0, mprotect(c->none, c->page, PROT_NONE));
	ASSERT_EQ(0, mprotect(c->ro, c->page, PROT_READ));
	c->stage = map_pages(c->page, 3);
	ASSERT_NE(NULL, c->stage);
	c->stage_end = c->stage + 2 * c->page;
	ASSERT_EQ(0, mprotect(c->stage_end, c->page, PROT_NONE));
	c->img = map_pages(c->page, 1);
	ASSERT_NE(NULL, c->img);

	vnpu_task_init(&c->good[0], "Add_1", "Add", VNPU_TASK_AI_CORE, c->stream, 1 << 20, 0);
	vnpu_task_tensor(&c->good[0], 0, VNPU_DT_FLOAT16, 2, dims);
	vnpu_task_tensor(&c->good[0], 1, VNPU_DT_FLOAT16, 2, dims);
	c->good[2] = c->good[1] = c->good[0];
	vnpu_task_init(&c->comm, "hcom_allReduce_1", "AllReduce", VNPU_TASK_COMMUNICATION,
		       c->stream, 0, 4096);
	c->comm.comm_op = VNPU_COMM_ALLREDUCE;
	c->comm.comm_id = 1;
	c->comm.comm_tag = 0xbad;
	if (c->ndev >= 2) {
		int fds[2] = { c->fd, vnpu_open_dev(1, O_RDWR) };
		__u32 ids[2] = { 0, 0 };

		ASSERT_GE(fds[1], 0);
		c->partner = fds[1];
		ASSERT_EQ(0, vnpu_comm_group(fds, 2, ids));
		c->comm.comm_id = ids[0];
	}

	/* a first task, so that "did not move" means something */
	ASSERT_EQ(0, vnpu_submit_tasks(c->fd, c->good, 1, NULL));
	ASSERT_EQ(0, vnpu_sync_stream(c->fd, c->stream, 0, 10000, &sy));
	ASSERT_GT(sy.last_task_id, 0);
	c->last_id = sy.last_task_id;
}

FIXTURE_TEARDOWN(bad)
{
	struct ctx *c = &self->c;

	if (c->fd >= 0)
		close(c->fd);
	if (c->partner >= 0)
		close(c->partner);
	if (c->rw)
		munmap(c->rw, (RW_PAGES + 2) * c->page);
	if (c->stage)
		munmap(c->stage, 3 * c->page);
	if (c->img)
		munmap(c->img, c->page);
}

/* ------------------------------------------------------------------ */
/* The extensible structures of the five ioctls                         */
/* ------------------------------------------------------------------ */

struct ioc {
	const char *name;
	unsigned long cmd;
	unsigned int nr;
	size_t ksize, ver0;
	int writes_back; /* @size comes back as the kernel's size */
	int ro_err; /* errno for a read-only structure */
	void (*fill)(struct ctx *c, void *s); /* a valid structure, @size aside */
	void (*cleanup)(struct ctx *c);
};

static void fill_nothing(struct ctx *c, void *s)
{
}

static void fill_destroy(struct ctx *c, void *s)
{
	struct vnpu_stream_destroy *sd = s;

	c->victim = vnpu_stream_new(c->fd);
	sd->stream_id = c->victim;
}

static void cleanup_destroy(struct ctx *c)
{
	if (c->victim >= 0)
		vnpu_stream_del(c->fd, c->victim);
	c->victim = -1;
}

/* Give back what an accepted STREAM_CREATE took. */
static void cleanup_create(struct ctx *c)
{
	for (unsigned int id = 0; id < VNPU_MAX_STREAMS; id++)
		if (id != c->stream)
			vnpu_stream_del(c->fd, id);
}

static void fill_submit(struct ctx *c, void *s)
{
	struct vnpu_submit *sub = s;

	sub->tasks = (__u64)(unsigned long)c->good;
	sub->count = 1;
	sub->task_size = sizeof(struct vnpu_task);
}

static void fill_sync(struct ctx *c, void *s)
{
	struct vnpu_sync *sy = s;

	sy->stream_id = c->stream;
}

static const struct ioc iocs[] = {
	{ "GET_INFO", VNPU_IOC_GET_INFO, VNPU_IOC_NR_GET_INFO, sizeof(struct vnpu_info),
	  VNPU_INFO_SIZE_VER0, 1, EFAULT, fill_nothing, NULL },
	{ "STREAM_CREATE", VNPU_IOC_STREAM_CREATE, VNPU_IOC_NR_STREAM_CREATE,
	  sizeof(struct vnpu_stream_create), VNPU_STREAM_CREATE_SIZE_VER0, 1, EFAULT, fill_nothing,
	  cleanup_create },
	/* nothing is written back: a read-only structure is fine */
	{ "STREAM_DESTROY", VNPU_IOC_STREAM_DESTROY, VNPU_IOC_NR_STREAM_DESTROY,
	  sizeof(struct vnpu_stream_destroy), VNPU_STREAM_DESTROY_SIZE_VER0, 0, 0, fill_destroy,
	  cleanup_destroy },
	/* all or nothing: the EFAULT of the write-back must not leave tasks queued */
	{ "SUBMIT", VNPU_IOC_SUBMIT, VNPU_IOC_NR_SUBMIT, sizeof(struct vnpu_submit),
	  VNPU_SUBMIT_SIZE_VER0, 1, EFAULT, fill_submit, NULL },
	{ "SYNC", VNPU_IOC_SYNC, VNPU_IOC_NR_SYNC, sizeof(struct vnpu_sync), VNPU_SYNC_SIZE_VER0, 1,
	  EFAULT, fill_sync, NULL },
};

enum ioc_id { IOC_INFO, IOC_CREATE, IOC_DESTROY, IOC_SUBMIT, IOC_SYNC };

/* Where a case puts the structure. */
enum place {
	AT_RW, /* read-write memory */
	AT_NULL, /* NULL */
	AT_KERNEL, /* a kernel address */
	AT_UNMAPPED, /* an inaccessible page */
	AT_SIZE_ONLY, /* @size readable, the rest in an inaccessible page */
	AT_TAIL_UNMAPPED, /* the kernel's bytes readable, the caller's tail not */
	AT_RO, /* a read-only page */
};

/* The caller's @size: base + delta. */
enum size_base { B_VER0, B_ZERO, B_KSIZE, B_PAGE, B_U32_MAX };

/* A non-zero byte past the kernel's size. */
enum tail { TAIL_ZERO, TAIL_FIRST, TAIL_LAST };

#define ERR_RO (-1) /* the ioctl's ro_err */

struct scase {
	const char *name;
	enum size_base base;
	long delta;
	enum place where;
	enum tail tail;
	int raw_cmd; /* use _IOC(RW, VNPU_IOC_MAGIC, nr, cmd_size) instead of the header's */
	unsigned int cmd_size;
	struct set set[NSETS];
	int err; /* expected errno, 0: accepted */
};

static size_t case_size(const struct ctx *c, const struct ioc *d, const struct scase *k)
{
	switch (k->base) {
	case B_ZERO:
		return k->delta;
	case B_KSIZE:
		return d->ksize + k->delta;
	case B_PAGE:
		return c->page + k->delta;
	case B_U32_MAX:
		return 0xffffffffu;
	default:
		return d->ver0 + k->delta;
	}
}

static void *place_struct(struct ctx *c, enum place where, size_t len, size_t ksize)
{
	switch (where) {
	case AT_NULL:
		return NULL;
	case AT_KERNEL:
		return (void *)(unsigned long)KERNEL_PTR;
	case AT_UNMAPPED:
		return c->none;
	case AT_SIZE_ONLY:
		memcpy(c->none - sizeof(__u32), c->img, sizeof(__u32));
		return c->none - sizeof(__u32);
	case AT_TAIL_UNMAPPED:
		memcpy(c->none - ksize, c->img, ksize);
		return c->none - ksize;
	case AT_RO:
		if (mprotect(c->ro, c->page, PROT_READ | PROT_WRITE))
			return NULL;
		memcpy(c->ro, c->img, len);
		mprotect(c->ro, c->page, PROT_READ);
		return c->ro;
	default:
		memset(c->rw, 0, RW_PAGES * c->page);
		memcpy(c->rw, c->img, len);
		return c->rw;
	}
}

static void run_struct_case(struct __test_metadata *_metadata, struct ctx *c, const struct ioc *d,
			    const struct scase *k)
{
	size_t usize = case_size(c, d, k);
	size_t len = usize < d->ksize ? d->ksize : usize;
	int want = k->err == ERR_RO ? d->ro_err : k->err;
	unsigned long cmd = d->cmd;
	__u32 size32 = usize, queued = 0;
	struct vnpu_submit sub;
	void *arg;
	int got;

	if (k->raw_cmd)
		cmd = _IOC(_IOC_READ | _IOC_WRITE, VNPU_IOC_MAGIC, d->nr, k->cmd_size);
	if (len > c->page)
		len = c->page;
	memset(c->img, 0, c->page);
	d->fill(c, c->img);
	memcpy(c->img, &size32, sizeof(size32));
	apply_sets(c->img, k->set);
	if (k->tail == TAIL_FIRST)
		c->img[d->ksize] = 0x01;
	else if (k->tail == TAIL_LAST)
		c->img[usize - 1] = 0x80;

	/* an accepted submit queues @count tasks */
	if (d->nr == VNPU_IOC_NR_SUBMIT && !want) {
		memcpy(&sub, c->img, sizeof(sub));
		queued = sub.count;
	}
	arg = place_struct(c, k->where, len, d->ksize);
	got = xioctl(c->fd, cmd, arg);
	EXPECT_EQ(want, got)
	TH_LOG("%s: %s: expected %s, got %s", d->name, k->name, ename(want), ename(got));
	if (!got && k->where == AT_RW) {
		__u32 out;

		memcpy(&out, arg, sizeof(out));
		/* @size comes back as the kernel's size; nothing is written past it */
		if (d->writes_back) {
			EXPECT_EQ(d->ksize, out)
			TH_LOG("%s: %s: @size on return", d->name, k->name);
		}
		for (size_t i = d->ksize; i < len; i++) {
			EXPECT_EQ(0, c->rw[i])
			TH_LOG("%s: %s: byte %zu written", d->name, k->name, i);
			if (c->rw[i])
				break;
		}
	}
	if (d->cleanup)
		d->cleanup(c);
	settle(_metadata, c, queued, d->name, k->name);
}

static void run_struct_cases(struct __test_metadata *_metadata, struct ctx *c, const struct ioc *d,
			     const struct scase *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_struct_case(_metadata, c, d, &k[i]);
}

/* The same for every ioctl: the size ladder, tails, command bits, pointers. */
TEST_F_TIMEOUT(bad, struct_ladder, 300)
{
	const struct scase cases[] = {
		{ "size VER0", .err = 0 },
		{ "size 0", .base = B_ZERO, .err = EINVAL },
		{ "size 4 (@size alone)", .base = B_ZERO, .delta = 4, .err = EINVAL },
		{ "size VER0 - 1", .delta = -1, .err = EINVAL },
		{ "size VER0 - 8", .delta = -8, .err = EINVAL },
		{ "size PAGE_SIZE + 1", .base = B_PAGE, .delta = 1, .err = EINVAL },
		{ "size 0xffffffff", .base = B_U32_MAX, .err = EINVAL },
		{ "size + 1, zero tail", .base = B_KSIZE, .delta = 1, .err = 0 },
		{ "size + 8, zero tail", .base = B_KSIZE, .delta = 8, .err = 0 },
		{ "size PAGE_SIZE, zero tail", .base = B_PAGE, .err = 0 },
		{ "size + 1, non-zero tail", .base = B_KSIZE, .delta = 1, .tail = TAIL_FIRST,
		  .err = E2BIG },
		{ "size + 8, last tail byte non-zero", .base = B_KSIZE, .delta = 8,
		  .tail = TAIL_LAST, .err = E2BIG },
		{ "size PAGE_SIZE, last byte non-zero", .base = B_PAGE, .tail = TAIL_LAST,
		  .err = E2BIG },
		{ "flags bit 31", .set = { { 4, 4, 1u << 31 } }, .err = EINVAL },
		/* only the header's whole numbers: the size comes in @size */
		{ "command size bits 0", .raw_cmd = 1, .cmd_size = 0, .err = ENOTTY },
		{ "command size bits 0x3fff", .raw_cmd = 1, .cmd_size = 0x3fff, .err = ENOTTY },
		{ "command size bits 0, size + 8, zero tail", .base = B_KSIZE, .delta = 8,
		  .raw_cmd = 1, .err = ENOTTY },
		{ "NULL", .where = AT_NULL, .err = EFAULT },
		{ "kernel address", .where = AT_KERNEL, .err = EFAULT },
		{ "unmapped", .where = AT_UNMAPPED, .err = EFAULT },
		{ "only @size mapped", .where = AT_SIZE_ONLY, .err = EFAULT },
		{ "zero tail in an unmapped page", .base = B_KSIZE, .delta = 8,
		  .where = AT_TAIL_UNMAPPED, .err = EFAULT },
		{ "read-only", .where = AT_RO, .err = ERR_RO },
	};
	struct ctx *c = &self->c;

	for (size_t i = 0; i < ARRAY_SIZE(iocs); i++)
		run_struct_cases(_metadata, c, &iocs[i], cases, ARRAY_SIZE(cases));
	device_works(_metadata, c);
}

/* Flags and reserved bytes must be zero; output bytes are ignored on input. */
static int info_byte_is_input(size_t off)
{
	return (off >= offsetof(struct vnpu_info, flags) &&
		off < offsetof(struct vnpu_info, flags) + sizeof(__u32)) ||
	       (off >= offsetof(struct vnpu_info, reserved0) &&
		off < offsetof(struct vnpu_info, reserved0) + sizeof(__u32)) ||
	       (off >= offsetof(struct vnpu_info, reserved) &&
		off < offsetof(struct vnpu_info, reserved) +
				sizeof(((struct vnpu_info *)0)->reserved));
}

TEST_F_TIMEOUT(bad, info_fields, 120)
{
	struct ctx *c = &self->c;
	char name[64];

	for (size_t off = sizeof(__u32); off < sizeof(struct vnpu_info); off++) {
		struct scase k = { name, .set = { { off, 1, 1 } },
				   .err = info_byte_is_input(off) ? EINVAL : 0 };

		snprintf(name, sizeof(name), "byte %zu set", off);
		run_struct_case(_metadata, c, &iocs[IOC_INFO], &k);
	}
	device_works(_metadata, c);
}

TEST_F(bad, stream_create_fields)
{
	struct ctx *c = &self->c;
	const struct scase cases[] = {
		{ "flags bit 0", .set = { SET(vnpu_stream_create, flags, 1) }, .err = EINVAL },
		/* outputs are ignored on input: a reused struct is fine */
		{ "stream_id (out) non-zero", .set = { SET(vnpu_stream_create, stream_id, 1) },
		  .err = 0 },
		{ "stream_id (out) bit 31", .set = { SET(vnpu_stream_create, stream_id, 1u << 31) },
		  .err = 0 },
		{ "hw_stream_id (out) non-zero",
		  .set = { SET(vnpu_stream_create, hw_stream_id, 1) }, .err = 0 },
		{ "hw_stream_id (out) bit 31",
		  .set = { SET(vnpu_stream_create, hw_stream_id, 1u << 31) }, .err = 0 },
	};

	run_struct_cases(_metadata, c, &iocs[IOC_CREATE], cases, ARRAY_SIZE(cases));
	device_works(_metadata, c);
}

TEST_F(bad, stream_destroy_fields)
{
	struct ctx *c = &self->c;
	const struct scase cases[] = {
		{ "flags bit 0", .set = { SET(vnpu_stream_destroy, flags, 1) }, .err = EINVAL },
		{ "flags bit 31", .set = { SET(vnpu_stream_destroy, flags, 1u << 31) },
		  .err = EINVAL },
		{ "reserved non-zero", .set = { SET(vnpu_stream_destroy, reserved, 1) },
		  .err = EINVAL },
		{ "reserved bit 31", .set = { SET(vnpu_stream_destroy, reserved, 1u << 31) },
		  .err = EINVAL },
		{ "stream 63, free", .set = { SET(vnpu_stream_destroy, stream_id, 63) },
		  .err = ENOENT },
		{ "stream 64", .set = { SET(vnpu_stream_destroy, stream_id, VNPU_MAX_STREAMS) },
		  .err = EINVAL },
		{ "stream 0xffffffff", .set = { SET(vnpu_stream_destroy, stream_id, 0xffffffffu) },
		  .err = EINVAL },
	};

	run_struct_cases(_metadata, c, &iocs[IOC_DESTROY], cases, ARRAY_SIZE(cases));
	/* destroying twice: the second finds nothing */
	ASSERT_GE(c->victim = vnpu_stream_new(c->fd), 0);
	EXPECT_EQ(0, vnpu_stream_del(c->fd, c->victim));
	EXPECT_EQ(-ENOENT, vnpu_stream_del(c->fd, c->victim));
	device_works(_metadata, c);
}

TEST_F(bad, submit_fields)
{
	struct ctx *c = &self->c;
	const __u64 none = (unsigned long)c->none;
	const struct scase cases[] = {
		{ "valid: task_ids wanted",
		  .set = { SET(vnpu_submit, task_ids, (unsigned long)(c->rw + c->page)) },
		  .err = 0 },
		{ "valid: count 3", .set = { SET(vnpu_submit, count, 3) }, .err = 0 },
		{ "flags bit 0", .set = { SET(vnpu_submit, flags, 1) }, .err = EINVAL },
		{ "reserved non-zero", .set = { SET(vnpu_submit, reserved, 1) }, .err = EINVAL },
		{ "reserved bit 31", .set = { SET(vnpu_submit, reserved, 1u << 31) },
		  .err = EINVAL },
		{ "submitted (out) non-zero, ignored", .set = { SET(vnpu_submit, submitted, 1) },
		  .err = 0 },
		{ "submit_time (out) non-zero, ignored",
		  .set = { SET(vnpu_submit, submit_time, ~0ull) }, .err = 0 },
		{ "count 0", .set = { SET(vnpu_submit, count, 0) }, .err = EINVAL },
		{ "count VNPU_MAX_SUBMIT + 1",
		  .set = { SET(vnpu_submit, count, VNPU_MAX_SUBMIT + 1) }, .err = EMSGSIZE },
		{ "count 0xffffffff", .set = { SET(vnpu_submit, count, 0xffffffffu) },
		  .err = EMSGSIZE },
		{ "tasks NULL", .set = { SET(vnpu_submit, tasks, 0) }, .err = EINVAL },
		{ "tasks 8", .set = { SET(vnpu_submit, tasks, 8) }, .err = EFAULT },
		{ "tasks unmapped", .set = { SET(vnpu_submit, tasks, none) }, .err = EFAULT },
		{ "tasks a kernel address", .set = { SET(vnpu_submit, tasks, KERNEL_PTR) },
		  .err = EFAULT },
		{ "task_size 0", .set = { SET(vnpu_submit, task_size, 0) }, .err = EINVAL },
		{ "task_size VER0 - 1",
		  .set = { SET(vnpu_submit, task_size, VNPU_TASK_SIZE_VER0 - 1) }, .err = EINVAL },
		{ "task_size PAGE_SIZE + 1", .set = { SET(vnpu_submit, task_size, c->page + 1) },
		  .err = EINVAL },
		{ "task_size 0xffffffff", .set = { SET(vnpu_submit, task_size, 0xffffffffu) },
		  .err = EINVAL },
		{ "task_ids 8", .set = { SET(vnpu_submit, task_ids, 8) }, .err = EFAULT },
		{ "task_ids unmapped", .set = { SET(vnpu_submit, task_ids, none) }, .err = EFAULT },
		{ "task_ids a kernel address", .set = { SET(vnpu_submit, task_ids, KERNEL_PTR) },
		  .err = EFAULT },
		{ "task_ids read-only", .set = { SET(vnpu_submit, task_ids, (unsigned long)c->ro) },
		  .err = EFAULT },
		{ "task_ids: the second id unmapped",
		  .set = { SET(vnpu_submit, task_ids, none - 8), SET(vnpu_submit, count, 2) },
		  .err = EFAULT },
		{ "task_ids: the last of 3 ids unmapped",
		  .set = { SET(vnpu_submit, task_ids, none - 16), SET(vnpu_submit, count, 3) },
		  .err = EFAULT },
	};

	run_struct_cases(_metadata, c, &iocs[IOC_SUBMIT], cases, ARRAY_SIZE(cases));
	device_works(_metadata, c);
}

TEST_F(bad, sync_fields)
{
	struct ctx *c = &self->c;
	const struct scase cases[] = {
		{ "valid: all streams",
		  .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_ALL_STREAMS),
			   SET(vnpu_sync, stream_id, 0) },
		  .err = 0 },
		{ "valid: timeout 1 ms, idle", .set = { SET(vnpu_sync, timeout_ms, 1) }, .err = 0 },
		{ "valid: timeout 0xffffffff ms, idle",
		  .set = { SET(vnpu_sync, timeout_ms, 0xffffffffu) }, .err = 0 },
		{ "valid: NOWAIT, idle", .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_NOWAIT) },
		  .err = 0 },
		{ "valid: ALL_STREAMS | NOWAIT, idle, timeout not read",
		  .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_ALL), SET(vnpu_sync, stream_id, 0),
			   SET(vnpu_sync, timeout_ms, 12345) },
		  .err = 0 },
		{ "flags bit 2", .set = { SET(vnpu_sync, flags, 4) }, .err = EINVAL },
		{ "flags ALL_STREAMS | bit 2",
		  .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_ALL_STREAMS | 4),
			   SET(vnpu_sync, stream_id, 0) },
		  .err = EINVAL },
		{ "flags bit 31", .set = { SET(vnpu_sync, flags, 1u << 31) }, .err = EINVAL },
		{ "reserved non-zero", .set = { SET(vnpu_sync, reserved, 1) }, .err = EINVAL },
		{ "reserved bit 63", .set = { SET(vnpu_sync, reserved, 1ull << 63) },
		  .err = EINVAL },
		{ "last_task_id (out) non-zero, ignored",
		  .set = { SET(vnpu_sync, last_task_id, 1) }, .err = 0 },
		{ "device_time (out) non-zero, ignored", .set = { SET(vnpu_sync, device_time, 1) },
		  .err = 0 },
		{ "ALL_STREAMS with stream_id 1",
		  .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_ALL_STREAMS),
			   SET(vnpu_sync, stream_id, 1) },
		  .err = EINVAL },
		{ "ALL_STREAMS with stream_id 64",
		  .set = { SET(vnpu_sync, flags, VNPU_SYNC_F_ALL_STREAMS),
			   SET(vnpu_sync, stream_id, VNPU_MAX_STREAMS) },
		  .err = EINVAL },
		{ "stream 63, free", .set = { SET(vnpu_sync, stream_id, 63) }, .err = ENOENT },
		{ "stream 64", .set = { SET(vnpu_sync, stream_id, VNPU_MAX_STREAMS) },
		  .err = EINVAL },
		{ "stream 0xffffffff", .set = { SET(vnpu_sync, stream_id, 0xffffffffu) },
		  .err = EINVAL },
	};

	run_struct_cases(_metadata, c, &iocs[IOC_SYNC], cases, ARRAY_SIZE(cases));
	device_works(_metadata, c);
}

/* ------------------------------------------------------------------ */
/* struct vnpu_task                                                     */
/* ------------------------------------------------------------------ */

enum task_base { BASE_AIC, BASE_COMM };

struct tcase {
	const char *name;
	enum task_base base;
	struct set set[NSETS];
	void (*fn)(struct vnpu_task *t, const struct ctx *c);
	int err;
	unsigned int min_dev; /* devices the case needs to trip only its check */
	/*
	 * valid, and a minute of device time: run on a file of its own that
	 * is closed (cancelling it) rather than synced, as device time is
	 * host time and a sync waits for the task's end
	 */
	bool runs_long;
};

#define T(member, v) SET(vnpu_task, member, v)

static void name_no_nul(struct vnpu_task *t, const struct ctx *c)
{
	memset(t->op_name, 'a', sizeof(t->op_name));
}

static void type_no_nul(struct vnpu_task *t, const struct ctx *c)
{
	memset(t->op_type, 'a', sizeof(t->op_type));
}

static void name_longest(struct vnpu_task *t, const struct ctx *c)
{
	memset(t->op_name, 'n', sizeof(t->op_name) - 1);
	memset(t->op_type, 't', sizeof(t->op_type) - 1);
}

static void name_printable_bounds(struct vnpu_task *t, const struct ctx *c)
{
	snprintf(t->op_name, sizeof(t->op_name), " ~Add 1~ ");
	snprintf(t->op_type, sizeof(t->op_type), "~ ");
}

static void name_utf8(struct vnpu_task *t, const struct ctx *c)
{
	/* 3-byte CJK, a 4-byte emoji, U+00A0 (the first after C1) */
	snprintf(t->op_name, sizeof(t->op_name), "\u77e9\u9635\u4e58_0 \U0001F600\u00a0");
	snprintf(t->op_type, sizeof(t->op_type), "\u00dcbung");
}

/* op_name "A" followed by @bytes (NUL-terminated), then "Z" */
static void name_bytes(struct vnpu_task *t, const char *bytes)
{
	snprintf(t->op_name, sizeof(t->op_name), "A%sZ", bytes);
}

static void name_overlong(struct vnpu_task *t, const struct ctx *c)
{
	name_bytes(t, "\xc0\xaf"); /* '/' in two bytes */
}

static void name_surrogate(struct vnpu_task *t, const struct ctx *c)
{
	name_bytes(t, "\xed\xa0\x80"); /* U+D800 */
}

static void name_above_unicode(struct vnpu_task *t, const struct ctx *c)
{
	name_bytes(t, "\xf4\x90\x80\x80"); /* U+110000 */
}

static void name_c1_control(struct vnpu_task *t, const struct ctx *c)
{
	name_bytes(t, "\xc2\x85"); /* U+0085, NEXT LINE */
}

static void name_cut_sequence(struct vnpu_task *t, const struct ctx *c)
{
	snprintf(t->op_name, sizeof(t->op_name), "Add_\xe7\x9f"); /* 2 of 3 bytes, then NUL */
}

/* @n_in inputs and @n_out outputs, all valid (FLOAT16 [4, 4]). */
static void tensors(struct vnpu_task *t, unsigned int n_in, unsigned int n_out)
{
	const __u64 dims[2] = { 4, 4 };

	memset(t->tensors, 0, sizeof(t->tensors));
	t->n_inputs = t->n_outputs = 0;
	for (unsigned int i = 0; i < n_in + n_out; i++)
		vnpu_task_tensor(t, i >= n_in, VNPU_DT_FLOAT16, 2, dims);
}

static void tensors_4_4(struct vnpu_task *t, const struct ctx *c)
{
	tensors(t, 4, 4);
}

static void tensors_8_0(struct vnpu_task *t, const struct ctx *c)
{
	tensors(t, 8, 0);
}

static void tensors_0_8(struct vnpu_task *t, const struct ctx *c)
{
	tensors(t, 0, 8);
}

static void tensors_none(struct vnpu_task *t, const struct ctx *c)
{
	tensors(t, 0, 0);
}

/* All 8 slots valid, but 5 + 4 of them claimed. */
static void tensors_5_4(struct vnpu_task *t, const struct ctx *c)
{
	tensors(t, 4, 4);
	t->n_inputs = 5;
}

static void tensor_8_dims(struct vnpu_task *t, const struct ctx *c)
{
	t->tensors[0].ndims = VNPU_MAX_DIMS;
	for (int i = 0; i < VNPU_MAX_DIMS; i++)
		t->tensors[0].dims[i] = i == 0 ? 16 : 1;
}

/* bytes 0: the sum of two INT8 tensors of @a and @b elements. */
static void derived(struct vnpu_task *t, __u64 a, __u64 b)
{
	tensors(t, 0, 0);
	vnpu_task_tensor(t, 0, VNPU_DT_INT8, 1, &a);
	vnpu_task_tensor(t, 1, VNPU_DT_INT8, 1, &b);
	t->bytes = 0;
}

static void derived_max(struct vnpu_task *t, const struct ctx *c)
{
	derived(t, VNPU_TASK_MAX_BYTES / 2, VNPU_TASK_MAX_BYTES / 2);
}

static void derived_max_plus_1(struct vnpu_task *t, const struct ctx *c)
{
	derived(t, VNPU_TASK_MAX_BYTES, 1);
}

static void derived_wraps(struct vnpu_task *t, const struct ctx *c)
{
	derived(t, 1ull << 63, 1ull << 63);
}

static const struct tcase task_cases[] = {
	/* valid edge cases */
	{ "valid: the base AI_CORE task", .err = 0 },
	{ "valid: op_name of 63 and op_type of 31 characters", .fn = name_longest, .err = 0 },
	{ "valid: names with ' ' and '~' (0x20, 0x7e)", .fn = name_printable_bounds, .err = 0 },
	{ "valid: UTF-8 names (CJK, an emoji, U+00A0)", .fn = name_utf8, .err = 0 },
	{ "valid: a scalar input (ndims 0)",
	  .set = { T(tensors[0].ndims, 0), T(tensors[0].dims[0], 0), T(tensors[0].dims[1], 0) },
	  .err = 0 },
	{ "valid: ndims 8", .fn = tensor_8_dims, .err = 0 },
	{ "valid: 4 inputs + 4 outputs", .fn = tensors_4_4, .err = 0 },
	{ "valid: 8 inputs", .fn = tensors_8_0, .err = 0 },
	{ "valid: 8 outputs", .fn = tensors_0_8, .err = 0 },
	{ "valid: no tensors, bytes 0", .fn = tensors_none, .err = 0 },
	{ "valid: 2 outputs, no input", .set = { T(n_inputs, 0), T(n_outputs, 2) }, .err = 0 },
	{ "valid: last dtype and format",
	  .set = { T(tensors[0].dtype, VNPU_DT_COUNT - 1),
		   T(tensors[1].format, VNPU_FMT_COUNT - 1) },
	  .err = 0 },
	{ "valid: block_num 65535", .set = { T(block_num, 65535) }, .err = 0 },
	{ "valid: AI_VECTOR_CORE", .set = { T(task_type, VNPU_TASK_AI_VECTOR_CORE) }, .err = 0 },
	{ "valid: AI_CPU, block_num 1", .set = { T(task_type, VNPU_TASK_AI_CPU) }, .err = 0 },
	{ "valid: MIX_AIC, mix_block_num 1",
	  .set = { T(task_type, VNPU_TASK_MIX_AIC), T(mix_block_num, 1) }, .err = 0 },
	{ "valid: MIX_AIV, block_num and mix_block_num 65535",
	  .set = { T(task_type, VNPU_TASK_MIX_AIV), T(block_num, 65535), T(mix_block_num, 65535) },
	  .err = 0 },
	{ "valid: every flag", .set = { T(flags, VNPU_TASK_F_ALL) }, .err = 0 },
	{ "valid: model_id 0xffffffff", .set = { T(model_id, 0xffffffffu) }, .err = 0 },
	{ "valid: flops VNPU_TASK_MAX_FLOPS", .set = { T(flops, VNPU_TASK_MAX_FLOPS) }, .err = 0,
	  .runs_long = true },
	{ "valid: bytes VNPU_TASK_MAX_BYTES", .set = { T(bytes, VNPU_TASK_MAX_BYTES) }, .err = 0,
	  .runs_long = true },
	{ "valid: bytes 0, tensors of VNPU_TASK_MAX_BYTES", .fn = derived_max, .err = 0,
	  .runs_long = true },

	/* op_name, op_type */
	{ "op_name empty", .set = { T(op_name[0], 0) }, .err = EINVAL },
	{ "op_name without a NUL", .fn = name_no_nul, .err = EINVAL },
	{ "op_name with 0x01 first", .set = { T(op_name[0], 0x01) }, .err = EINVAL },
	{ "op_name with 0x1f", .set = { T(op_name[1], 0x1f) }, .err = EINVAL },
	{ "op_name with a tab", .set = { T(op_name[1], '\t') }, .err = EINVAL },
	{ "op_name with a newline last", .set = { T(op_name[4], '\n') }, .err = EINVAL },
	{ "op_name with 0x7f", .set = { T(op_name[1], 0x7f) }, .err = EINVAL },
	{ "op_name with 0x80", .set = { T(op_name[1], 0x80) }, .err = EINVAL },
	{ "op_name with 0xff", .set = { T(op_name[1], 0xff) }, .err = EINVAL },
	{ "op_name with an overlong UTF-8 '/'", .fn = name_overlong, .err = EINVAL },
	{ "op_name with a UTF-8 surrogate", .fn = name_surrogate, .err = EINVAL },
	{ "op_name with U+110000", .fn = name_above_unicode, .err = EINVAL },
	{ "op_name with a C1 control (U+0085)", .fn = name_c1_control, .err = EINVAL },
	{ "op_name with a cut UTF-8 sequence", .fn = name_cut_sequence, .err = EINVAL },
	{ "op_type empty", .set = { T(op_type[0], 0) }, .err = EINVAL },
	{ "op_type without a NUL", .fn = type_no_nul, .err = EINVAL },
	{ "op_type with 0x1f", .set = { T(op_type[1], 0x1f) }, .err = EINVAL },
	{ "op_type with 0x7f", .set = { T(op_type[1], 0x7f) }, .err = EINVAL },
	{ "op_type with 0xc3 (UTF-8)", .set = { T(op_type[1], 0xc3) }, .err = EINVAL },

	/* task_type, stream_id */
	{ "task_type VNPU_TASK_TYPE_COUNT", .set = { T(task_type, VNPU_TASK_TYPE_COUNT) },
	  .err = EINVAL },
	{ "task_type 0xffffffff", .set = { T(task_type, 0xffffffffu) }, .err = EINVAL },
	{ "stream_id 64", .set = { T(stream_id, VNPU_MAX_STREAMS) }, .err = EINVAL },
	{ "stream_id 0xffffffff", .set = { T(stream_id, 0xffffffffu) }, .err = EINVAL },
	{ "stream_id 63, free", .set = { T(stream_id, 63) }, .err = ENOENT },
	{ "stream_id 1, free", .set = { T(stream_id, 1) }, .err = ENOENT },

	/* block_num, mix_block_num */
	{ "block_num 0", .set = { T(block_num, 0) }, .err = EINVAL },
	{ "block_num 65536", .set = { T(block_num, 65536) }, .err = EINVAL },
	{ "block_num 0xffffffff", .set = { T(block_num, 0xffffffffu) }, .err = EINVAL },
	{ "AI_CPU with block_num 2", .set = { T(task_type, VNPU_TASK_AI_CPU), T(block_num, 2) },
	  .err = EINVAL },
	{ "AI_CPU with block_num 65535",
	  .set = { T(task_type, VNPU_TASK_AI_CPU), T(block_num, 65535) }, .err = EINVAL },
	{ "AI_CORE with mix_block_num 1", .set = { T(mix_block_num, 1) }, .err = EINVAL },
	{ "AI_VECTOR_CORE with mix_block_num 1",
	  .set = { T(task_type, VNPU_TASK_AI_VECTOR_CORE), T(mix_block_num, 1) }, .err = EINVAL },
	{ "AI_CPU with mix_block_num 1",
	  .set = { T(task_type, VNPU_TASK_AI_CPU), T(mix_block_num, 1) }, .err = EINVAL },
	{ "MIX_AIC with mix_block_num 0", .set = { T(task_type, VNPU_TASK_MIX_AIC) },
	  .err = EINVAL },
	{ "MIX_AIV with mix_block_num 0", .set = { T(task_type, VNPU_TASK_MIX_AIV) },
	  .err = EINVAL },
	{ "MIX_AIC with mix_block_num 65536",
	  .set = { T(task_type, VNPU_TASK_MIX_AIC), T(mix_block_num, 65536) }, .err = EINVAL },
	{ "MIX_AIV with mix_block_num 0xffffffff",
	  .set = { T(task_type, VNPU_TASK_MIX_AIV), T(mix_block_num, 0xffffffffu) },
	  .err = EINVAL },
	{ "MIX_AIC with block_num 0",
	  .set = { T(task_type, VNPU_TASK_MIX_AIC), T(mix_block_num, 1), T(block_num, 0) },
	  .err = EINVAL },

	/* flags, reserved */
	{ "flags bit 2", .set = { T(flags, 1u << 2) }, .err = EINVAL },
	{ "flags bit 31", .set = { T(flags, 1u << 31) }, .err = EINVAL },
	{ "reserved[0] non-zero", .set = { T(reserved[0], 1) }, .err = EINVAL },
	{ "reserved[1] non-zero", .set = { T(reserved[1], 1) }, .err = EINVAL },
	{ "reserved[1] bit 63", .set = { T(reserved[1], 1ull << 63) }, .err = EINVAL },

	/* n_inputs, n_outputs */
	{ "n_inputs 9", .set = { T(n_inputs, 9), T(n_outputs, 0) }, .err = EINVAL },
	{ "n_outputs 9", .set = { T(n_inputs, 0), T(n_outputs, 9) }, .err = EINVAL },
	{ "n_inputs 0xffffffff", .set = { T(n_inputs, 0xffffffffu) }, .err = EINVAL },
	{ "n_inputs 5 + n_outputs 4", .fn = tensors_5_4, .err = EINVAL },

	/* a used tensor */
	{ "input dtype VNPU_DT_COUNT", .set = { T(tensors[0].dtype, VNPU_DT_COUNT) },
	  .err = EINVAL },
	{ "input format VNPU_FMT_COUNT", .set = { T(tensors[0].format, VNPU_FMT_COUNT) },
	  .err = EINVAL },
	{ "output dtype 0xffffffff", .set = { T(tensors[1].dtype, 0xffffffffu) }, .err = EINVAL },
	{ "output format VNPU_FMT_COUNT", .set = { T(tensors[1].format, VNPU_FMT_COUNT) },
	  .err = EINVAL },
	{ "ndims 9", .set = { T(tensors[0].ndims, 9) }, .err = EINVAL },
	{ "tensor reserved non-zero", .set = { T(tensors[0].reserved, 1) }, .err = EINVAL },
	{ "a zero dim within ndims", .set = { T(tensors[0].dims[1], 0) }, .err = EINVAL },
	{ "a non-zero dim just beyond ndims", .set = { T(tensors[0].dims[2], 1) }, .err = EINVAL },
	{ "a non-zero dims[7] beyond ndims", .set = { T(tensors[1].dims[7], 1) }, .err = EINVAL },
	{ "ndims 1 with two dims set", .set = { T(tensors[0].ndims, 1) }, .err = EINVAL },
	{ "dims whose product overflows u64",
	  .set = { T(tensors[0].dims[0], 1ull << 32), T(tensors[0].dims[1], 1ull << 32) },
	  .err = EINVAL },
	{ "dims times the dtype size overflows u64",
	  .set = { T(tensors[0].dtype, VNPU_DT_FLOAT), T(tensors[0].dims[0], 1ull << 62),
		   T(tensors[0].dims[1], 1) },
	  .err = EINVAL },
	{ "tensor sizes whose sum overflows u64", .fn = derived_wraps, .err = EINVAL },

	/* an unused tensor slot */
	{ "unused slot: dtype", .set = { T(tensors[2].dtype, 1) }, .err = EINVAL },
	{ "unused slot: format", .set = { T(tensors[2].format, 1) }, .err = EINVAL },
	{ "unused slot: ndims", .set = { T(tensors[2].ndims, 1) }, .err = EINVAL },
	{ "unused slot: reserved", .set = { T(tensors[2].reserved, 1) }, .err = EINVAL },
	{ "unused slot: dims[0]", .set = { T(tensors[2].dims[0], 1) }, .err = EINVAL },
	{ "unused slot: last byte of the last slot",
	  .set = { { sizeof(struct vnpu_task) - 1, 1, 1 } }, .err = EINVAL },
	{ "unused slot: a valid tensor not counted",
	  .set = { T(tensors[2].ndims, 1), T(tensors[2].dims[0], 16) }, .err = EINVAL },
	{ "n_outputs 0 with the output still there", .set = { T(n_outputs, 0) }, .err = EINVAL },

	/* flops, bytes */
	{ "flops VNPU_TASK_MAX_FLOPS + 1", .set = { T(flops, VNPU_TASK_MAX_FLOPS + 1) },
	  .err = EINVAL },
	{ "flops 0xffffffffffffffff", .set = { T(flops, ~0ull) }, .err = EINVAL },
	{ "bytes VNPU_TASK_MAX_BYTES + 1", .set = { T(bytes, VNPU_TASK_MAX_BYTES + 1) },
	  .err = EINVAL },
	{ "bytes 0, tensors of VNPU_TASK_MAX_BYTES + 1", .fn = derived_max_plus_1, .err = EINVAL },

	/* the COMMUNICATION members on other types */
	{ "AI_CORE with comm_op", .set = { T(comm_op, VNPU_COMM_ALLGATHER) }, .err = EINVAL },
	{ "AI_CORE with comm_id", .set = { T(comm_id, 1) }, .err = EINVAL },
	{ "AI_CORE with comm_tag", .set = { T(comm_tag, 1) }, .err = EINVAL },
	{ "AI_CORE with comm_peer", .set = { T(comm_peer, 1) }, .err = EINVAL },
	{ "AI_CPU with comm_tag", .set = { T(task_type, VNPU_TASK_AI_CPU), T(comm_tag, 1) },
	  .err = EINVAL },
	{ "MIX_AIC with comm_id",
	  .set = { T(task_type, VNPU_TASK_MIX_AIC), T(mix_block_num, 1), T(comm_id, 1) },
	  .err = EINVAL },

	/* COMMUNICATION (the communicator of devices 0 and 1, tag 0xbad, ALLREDUCE) */
	{ "COMMUNICATION with comm_op VNPU_COMM_OP_COUNT", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_OP_COUNT) }, .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION with comm_op 0xffffffff", BASE_COMM, .set = { T(comm_op, 0xffffffffu) },
	  .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION with comm_id 0", BASE_COMM, .set = { T(comm_id, 0) }, .err = EINVAL,
	  .min_dev = 1 },
	{ "COMMUNICATION with comm_id 17 (past max_comms)", BASE_COMM, .set = { T(comm_id, 17) },
	  .err = EINVAL, .min_dev = 1 },
	{ "COMMUNICATION with comm_id 0xffffffff", BASE_COMM, .set = { T(comm_id, 0xffffffffu) },
	  .err = EINVAL, .min_dev = 1 },
	{ "COMMUNICATION with a free handle", BASE_COMM, .set = { T(comm_id, 16) }, .err = ENOENT,
	  .min_dev = 1 },
	{ "COMMUNICATION with block_num 2", BASE_COMM, .set = { T(block_num, 2) }, .err = EINVAL,
	  .min_dev = 2 },
	{ "COMMUNICATION with mix_block_num 1", BASE_COMM, .set = { T(mix_block_num, 1) },
	  .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION with bytes VNPU_TASK_MAX_BYTES + 1", BASE_COMM,
	  .set = { T(bytes, VNPU_TASK_MAX_BYTES + 1) }, .err = EINVAL, .min_dev = 2 },
	/* peers: the file is rank 0 of 2 (0.8) */
	{ "COMMUNICATION ALLREDUCE with comm_peer 1", BASE_COMM, .set = { T(comm_peer, 1) },
	  .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION SEND to itself", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_SEND), T(comm_peer, 0) }, .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION RECV of itself", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_RECV), T(comm_peer, 0) }, .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION SEND to rank 2 of 2", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_SEND), T(comm_peer, 2) }, .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION RECV of rank 16", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_RECV), T(comm_peer, 16) }, .err = EINVAL, .min_dev = 2 },
	{ "COMMUNICATION SEND to rank 0xffffffff", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_SEND), T(comm_peer, 0xffffffffu) }, .err = EINVAL,
	  .min_dev = 2 },
	{ "COMMUNICATION BROADCAST from root 2 of 2", BASE_COMM,
	  .set = { T(comm_op, VNPU_COMM_BROADCAST), T(comm_peer, 2) }, .err = EINVAL,
	  .min_dev = 2 },
	{ "COMMUNICATION on stream 63, free", BASE_COMM, .set = { T(stream_id, 63) }, .err = ENOENT,
	  .min_dev = 2 },
};

static void device_works(struct __test_metadata *_metadata, struct ctx *c);

/*
 * A valid case whose task runs for a minute: alone, then the last of three,
 * each on a file of its own, closed at once. The ids tell what was
 * queued; a good task on the case file's stream then resumes its count.
 */
static void run_long_case(struct __test_metadata *_metadata, struct ctx *c, const struct tcase *k,
			  struct vnpu_task *batch)
{
	for (unsigned int n = 1; n <= 3; n += 2) {
		struct vnpu_task *t = n == 1 ? &batch[2] : batch;
		int fd = vnpu_open_dev(0, O_RDWR), s, got;
		__u64 ids[3] = { 0 };

		ASSERT_LE(0, fd);
		s = vnpu_stream_new(fd);
		ASSERT_LE(0, s);
		for (unsigned int i = 0; i < 3; i++)
			batch[i].stream_id = (unsigned int)s;
		got = submit_raw(fd, t, ids, n, sizeof(*t));
		EXPECT_EQ(0, got) TH_LOG("%u task(s): %s: got %s", n, k->name, ename(got));
		for (unsigned int i = 0; !got && i < n; i++) {
			EXPECT_EQ(c->last_id + 1 + i, ids[i]) TH_LOG("%s: ids", k->name);
		}
		if (!got)
			c->last_id += n;
		close(fd);
		c->ncases++;
	}
	device_works(_metadata, c);
}

static void run_task_case(struct __test_metadata *_metadata, struct ctx *c, const struct tcase *k)
{
	struct vnpu_task batch[3];
	__u64 ids[3] = { 0 };
	int got;

	if (c->ndev < k->min_dev) {
		TH_LOG("%s: not run, needs %u devices", k->name, k->min_dev);
		return;
	}
	batch[0] = c->good[0];
	batch[1] = c->good[1];
	batch[2] = k->base == BASE_COMM ? c->comm : c->good[2];
	apply_sets(&batch[2], k->set);
	if (k->fn)
		k->fn(&batch[2], c);
	if (k->runs_long) {
		run_long_case(_metadata, c, k, batch);
		return;
	}

	/* alone */
	got = submit_raw(c->fd, &batch[2], ids, 1, sizeof(batch[2]));
	EXPECT_EQ(k->err, got)
	TH_LOG("task: %s: expected %s, got %s", k->name, ename(k->err), ename(got));
	if (!k->err && !got) {
		EXPECT_EQ(c->last_id + 1, ids[0]) TH_LOG("task: %s: id", k->name);
	}
	settle(_metadata, c, k->err ? 0 : 1, "task", k->name);

	/* the last of three: nothing of the batch is queued */
	got = submit_raw(c->fd, batch, ids, 3, sizeof(batch[0]));
	EXPECT_EQ(k->err, got)
	TH_LOG("batch, last task: %s: expected %s, got %s", k->name, ename(k->err), ename(got));
	if (!k->err && !got) {
		for (int i = 0; i < 3; i++) {
			EXPECT_EQ(c->last_id + 1 + i, ids[i]) TH_LOG("batch: %s: ids", k->name);
		}
	}
	settle(_metadata, c, k->err ? 0 : 3, "batch, last task", k->name);
}

TEST_F_TIMEOUT(bad, task_fields, 600)
{
	struct ctx *c = &self->c;

	if (!c->split)
		SKIP(return, "needs a product that splits AIC/AIV (the default, a2)");
	for (size_t i = 0; i < ARRAY_SIZE(task_cases); i++)
		run_task_case(_metadata, c, &task_cases[i]);
	device_works(_metadata, c);
}

/* ------------------------------------------------------------------ */
/* Task arrays: @task_size strides, tails, unmapped elements            */
/* ------------------------------------------------------------------ */

struct acase {
	const char *name;
	size_t stride; /* @task_size; 0: PAGE_SIZE */
	int nz_elem; /* element with a non-zero byte at @nz_off, -1: none */
	size_t nz_off; /* 0: its last byte */
	int at_guard; /* the array ends in an inaccessible page... */
	size_t mapped_last; /* ...after this many bytes of the last element */
	int err;
};

static void run_array_case(struct __test_metadata *_metadata, struct ctx *c, const struct acase *k)
{
	const unsigned int count = 3;
	size_t stride = k->stride ? k->stride : c->page;
	unsigned char *base;
	__u64 ids[3] = { 0 };
	int got;

	if (k->at_guard) {
		base = c->stage_end - (count - 1) * stride - k->mapped_last;
		memset(c->stage, 0, c->stage_end - c->stage);
	} else {
		base = c->rw;
		memset(c->rw, 0, RW_PAGES * c->page);
	}
	for (unsigned int i = 0; i < count; i++) {
		size_t n = sizeof(struct vnpu_task);

		if (k->at_guard && i == count - 1 && k->mapped_last < n)
			n = k->mapped_last;
		memcpy(base + i * stride, &c->good[i], n);
	}
	if (k->nz_elem >= 0)
		base[k->nz_elem * stride + (k->nz_off ? k->nz_off : stride - 1)] = 0x01;

	got = submit_raw(c->fd, base, ids, count, stride);
	EXPECT_EQ(k->err, got)
	TH_LOG("array: %s: expected %s, got %s", k->name, ename(k->err), ename(got));
	if (!k->err && !got) {
		for (unsigned int i = 0; i < count; i++) {
			EXPECT_EQ(c->last_id + 1 + i, ids[i]) TH_LOG("array: %s: ids", k->name);
		}
	}
	settle(_metadata, c, k->err ? 0 : count, "array", k->name);
}

TEST_F(bad, task_arrays)
{
	struct ctx *c = &self->c;
	const size_t ver0 = VNPU_TASK_SIZE_VER0;
	const struct acase cases[] = {
		{ "task_size VER0 + 8, zero tails", ver0 + 8, -1, .err = 0 },
		{ "task_size VER0 + 1 (unaligned elements)", ver0 + 1, -1, .err = 0 },
		{ "task_size PAGE_SIZE, zero tails", 0, -1, .err = 0 },
		{ "array ending just before an unmapped page", ver0, -1, .at_guard = 1,
		  .mapped_last = ver0, .err = 0 },
		{ "task_size VER0 + 8, first tail byte of the last task", ver0 + 8, 2, ver0,
		  .err = E2BIG },
		{ "task_size VER0 + 8, last tail byte of the first task", ver0 + 8, 0, 0,
		  .err = E2BIG },
		{ "task_size VER0 + 1, tail of the middle task", ver0 + 1, 1, 0, .err = E2BIG },
		{ "task_size PAGE_SIZE, last byte of the last task", 0, 2, 0, .err = E2BIG },
		{ "the last task runs into an unmapped page", ver0, -1, .at_guard = 1,
		  .mapped_last = 400, .err = EFAULT },
		{ "the last task in an unmapped page", ver0, -1, .at_guard = 1, .mapped_last = 0,
		  .err = EFAULT },
		{ "the last task's zero tail in an unmapped page", ver0 + 8, -1, .at_guard = 1,
		  .mapped_last = ver0, .err = EFAULT },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		run_array_case(_metadata, c, &cases[i]);
	device_works(_metadata, c);
}

/* ------------------------------------------------------------------ */
/* What needs a pending collective, a read-only page, other products   */
/* ------------------------------------------------------------------ */

/*
 * A stream whose id cannot be written to the caller still exists: once
 * published it is never taken back (test_hardening has the race).
 */
TEST_F(bad, create_readonly_keeps_the_stream)
{
	struct ctx *c = &self->c;
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	int id;

	ASSERT_EQ(0, mprotect(c->ro, c->page, PROT_READ | PROT_WRITE));
	memcpy(c->ro, &sc, sizeof(sc));
	ASSERT_EQ(0, mprotect(c->ro, c->page, PROT_READ));
	EXPECT_EQ(EFAULT, xioctl(c->fd, VNPU_IOC_STREAM_CREATE, c->ro));
	/* it took the lowest free id, so the next stream gets the one after */
	id = vnpu_stream_new(c->fd);
	EXPECT_EQ(c->stream + 2, id);
	EXPECT_EQ(0, vnpu_stream_del(c->fd, c->stream + 1));
	EXPECT_EQ(0, vnpu_stream_del(c->fd, id));
	device_works(_metadata, c);
}

static volatile sig_atomic_t poke_stop;

static void on_poke(int sig)
{
}

static void *poke_thread(void *arg)
{
	pthread_t target = *(pthread_t *)arg;
	const struct timespec ts = { 0, 100 * 1000 * 1000 };

	while (!poke_stop) {
		nanosleep(&ts, NULL);
		if (!poke_stop)
			pthread_kill(target, SIGUSR1);
	}
	return NULL;
}

/*
 * Run @ioc_cmd on @fd while SIGUSR1 (no SA_RESTART) arrives every 100 ms,
 * until the call returns; its errno.
 */
static int interrupted(int fd, unsigned long cmd, void *arg)
{
	pthread_t me = pthread_self(), th;
	int ret;

	poke_stop = 0;
	if (pthread_create(&th, NULL, poke_thread, &me))
		return -1;
	ret = xioctl(fd, cmd, arg);
	poke_stop = 1;
	pthread_join(th, NULL);
	return ret;
}

/*
 * A collective whose partner has not submitted keeps its stream busy:
 * sync times out (-ETIMEDOUT), sync without a timeout and destroy are
 * interruptible (-EINTR), and the stream is untouched by all of it. When
 * the partner comes, both complete together.
 */
TEST(sync_timeout_and_signals)
{
	struct sigaction sa = { .sa_handler = on_poke }; /* no SA_RESTART */
	struct vnpu_sync sy0, sy1, sy = { .size = sizeof(sy) };
	struct vnpu_stream_destroy sd = { .size = sizeof(sd) };
	struct vnpu_task t;
	double t0;
	__u64 id0 = 0, id1 = 0;
	int fd0, fd1, s0, s1, fds[2];
	__u32 comm[2] = { 0, 0 };

	if (vnpu_param_devices() < 2)
		SKIP(return, "needs devices=2");
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	fd0 = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd0, 0);
	fd1 = vnpu_open_dev(1, O_RDWR);
	ASSERT_GE(fd1, 0);
	fds[0] = fd0;
	fds[1] = fd1;
	ASSERT_EQ(0, vnpu_comm_group(fds, 2, comm));
	s0 = vnpu_stream_new(fd0);
	ASSERT_GE(s0, 0);
	vnpu_task_init(&t, "hcom_allReduce_9", "AllReduce", VNPU_TASK_COMMUNICATION, s0, 0,
		       1 << 20);
	t.comm_op = VNPU_COMM_ALLREDUCE;
	t.comm_id = comm[0];
	t.comm_tag = 0x7e57;
	ASSERT_EQ(0, vnpu_submit_tasks(fd0, &t, 1, &id0));

	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd0, s0, 0, 200, NULL));
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd0, 0, VNPU_SYNC_F_ALL_STREAMS, 100, NULL));
	/* NOWAIT: at once, whatever the timeout says (0 would be forever) */
	t0 = vnpu_now_s();
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd0, s0, VNPU_SYNC_F_NOWAIT, 0, NULL));
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd0, 0, VNPU_SYNC_F_ALL, 60000, NULL));
	EXPECT_GT(1.0, vnpu_now_s() - t0);
	sy.stream_id = s0;
	EXPECT_EQ(EINTR, interrupted(fd0, VNPU_IOC_SYNC, &sy));
	sy.stream_id = 0;
	sy.flags = VNPU_SYNC_F_ALL_STREAMS;
	EXPECT_EQ(EINTR, interrupted(fd0, VNPU_IOC_SYNC, &sy));
	sd.stream_id = s0;
	EXPECT_EQ(EINTR, interrupted(fd0, VNPU_IOC_STREAM_DESTROY, &sd));
	/* the stream is still there and still waiting */
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(fd0, s0, 0, 100, NULL));

	/* the partner: both run the collective, at the same device time */
	s1 = vnpu_stream_new(fd1);
	ASSERT_GE(s1, 0);
	t.stream_id = s1;
	t.comm_id = comm[1];
	ASSERT_EQ(0, vnpu_submit_tasks(fd1, &t, 1, &id1));
	ASSERT_EQ(0, vnpu_sync_stream(fd0, s0, 0, 10000, &sy0));
	ASSERT_EQ(0, vnpu_sync_stream(fd1, s1, 0, 10000, &sy1));
	/* a collective's last id is its last sub-task's (uapi/vnpu_hccl.h) */
	EXPECT_EQ(id0 + vnpu_hccl_steps(VNPU_COMM_ALLREDUCE, 2) - 1, sy0.last_task_id);
	EXPECT_EQ(id1 + vnpu_hccl_steps(VNPU_COMM_ALLREDUCE, 2) - 1, sy1.last_task_id);
	EXPECT_EQ(sy0.device_time, sy1.device_time);
	EXPECT_EQ(0, vnpu_stream_del(fd0, s0));
	close(fd1);
	close(fd0);
}

static int submit_one(int fd, unsigned int stream, unsigned int type, unsigned int mix,
		      __u32 comm_id)
{
	struct vnpu_task t;

	vnpu_task_init(&t, "Op_1", "Op", type, stream, 1 << 20, 1 << 20);
	t.mix_block_num = mix;
	if (type == VNPU_TASK_COMMUNICATION) {
		t.flops = 0;
		t.comm_op = VNPU_COMM_ALLGATHER;
		t.comm_id = comm_id;
		t.comm_tag = 0x910;
	}
	return -vnpu_submit_tasks(fd, &t, 1, NULL);
}

/*
 * Product limits: MIX tasks need a product that splits AIC/AIV,
 * AI_VECTOR_CORE one with vector cores, and a communicator's devices must
 * all be the same product. Reloads the module with devices a2, 910, 310p,
 * 910.
 */
TEST(products_must_match)
{
	int fd[4], s[4], ret, pair[2];
	__u32 ids[2] = { 0, 0 };

	if (!getenv("VNPU_KO"))
		SKIP(return, "VNPU_KO is not set (not run by the VM runner)");
	ASSERT_EQ(0, vnpu_module_unload());
	ret = vnpu_module_load("devices=4 product=a2,910,310p,910");
	if (ret)
		vnpu_module_restore();
	ASSERT_EQ(0, ret);
	for (int i = 0; i < 4; i++) {
		fd[i] = vnpu_open_dev(i, O_RDWR);
		ASSERT_GE(fd[i], 0);
		s[i] = vnpu_stream_new(fd[i]);
		ASSERT_GE(s[i], 0);
	}
	/* 910: no split, no vector cores */
	EXPECT_EQ(EINVAL, submit_one(fd[1], s[1], VNPU_TASK_MIX_AIC, 1, 0));
	EXPECT_EQ(EINVAL, submit_one(fd[1], s[1], VNPU_TASK_MIX_AIV, 1, 0));
	EXPECT_EQ(EINVAL, submit_one(fd[1], s[1], VNPU_TASK_AI_VECTOR_CORE, 0, 0));
	EXPECT_EQ(0, submit_one(fd[1], s[1], VNPU_TASK_AI_CORE, 0, 0));
	/* 310p: vector cores, no split */
	EXPECT_EQ(EINVAL, submit_one(fd[2], s[2], VNPU_TASK_MIX_AIC, 1, 0));
	EXPECT_EQ(EINVAL, submit_one(fd[2], s[2], VNPU_TASK_MIX_AIV, 1, 0));
	EXPECT_EQ(0, submit_one(fd[2], s[2], VNPU_TASK_AI_VECTOR_CORE, 0, 0));
	/* a2: both */
	EXPECT_EQ(0, submit_one(fd[0], s[0], VNPU_TASK_MIX_AIC, 1, 0));
	EXPECT_EQ(0, submit_one(fd[0], s[0], VNPU_TASK_AI_VECTOR_CORE, 0, 0));
	/* communicators across products: the joining rank is refused */
	pair[0] = fd[0];
	pair[1] = fd[1];
	EXPECT_EQ(-EINVAL, vnpu_comm_group(pair, 2, ids));
	pair[0] = fd[2];
	EXPECT_EQ(-EINVAL, vnpu_comm_group(pair, 2, ids));
	/* the two 910s can */
	pair[0] = fd[3];
	ASSERT_EQ(0, vnpu_comm_group(pair, 2, ids));
	EXPECT_EQ(0, submit_one(fd[3], s[3], VNPU_TASK_COMMUNICATION, 0, ids[0]));
	EXPECT_EQ(0, submit_one(fd[1], s[1], VNPU_TASK_COMMUNICATION, 0, ids[1]));
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(0, vnpu_sync_stream(fd[i], s[i], 0, 10000, NULL)) TH_LOG("device %d", i);
		close(fd[i]);
	}
	EXPECT_EQ(0, vnpu_module_unload());
	ASSERT_EQ(0, vnpu_module_restore());
}

TEST_HARNESS_MAIN
