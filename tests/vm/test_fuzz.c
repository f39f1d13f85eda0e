// SPDX-License-Identifier: GPL-2.0
/*
 * A structured fuzzer over every ioctl of uapi/vnpu.h and uapi/vnpu_prof.h,
 * the ring mapping and poll, then a bounded trinity run on the device nodes.
 *
 * fuzz.ioctls: a seeded sequence of calls in random order over several open
 * files on several devices (files are opened, dup()ed and closed as it
 * goes). Most calls start from a valid structure (a valid batch of valid
 * tasks for a submit) and corrupt at most one thing: the @size ladder and
 * the tail, one member (reserved, output, flags, ids, counts, pointers,
 * enums, strings without a NUL, tensor slots), one task of a batch, or the
 * placement of the structure (NULL, low, unmapped, kernel, non-canonical,
 * misaligned, straddling into an unmapped page, read-only). Some are pure
 * random bytes, some use wrong ioctl numbers (type, direction, number, size
 * bits). In between: streams are created and destroyed, batches of up to
 * VNPU_MAX_SUBMIT tasks and collectives across devices are submitted,
 * syncs wait with short timeouts, sessions start and stop, the ring is
 * mapped, touched (hostile consumer positions), trimmed, mprotect()ed,
 * mremap()ed and madvise()d with random offsets, lengths and protections,
 * files are polled, read, written and seeked. Calls that may wait are
 * interrupted by a 30 ms timer (EINTR is documented for them).
 *
 * The oracle, per call:
 *  - a failure must carry an errno the documentation lists for that call
 *    (docs/uapi.md, docs/ring.md, and mmap(2) and friends for the generic
 *    memory calls);
 *  - a call with a clear defect (a reserved or output member set, an
 *    undefined flag, a bad @size or tail, an unreadable structure, an
 *    unwritable one that must be written back, a wrong ioctl number, a
 *    writable ring mapping...) must fail;
 *  - a call built valid may only fail for a reason of state (ENOENT,
 *    EMFILE, EBUSY, EPERM, ETIMEDOUT, EINTR, ENOMEM);
 *  - a success writes back exactly the kernel's size (never past the
 *    caller's @size, a canary checks), with zeroed reserved members and
 *    sane outputs; a rejected call leaves the structure as it was.
 *
 * The seed is printed (fixed by default); VNPU_FUZZ_SEED=N replays a run,
 * VNPU_FUZZ_SEED=time picks a new one. Each step draws its random numbers
 * from the seed and its own index, so a replay makes the same choices; what
 * they meet may still differ where timing decides (EINTR, ETIMEDOUT).
 * The fuzz loop runs in a child process so that a crash is reported with
 * the call that caused it; after it the device must still run a task, and
 * the module must unload and load again.
 *
 * fuzz.trinity: tools/stress/trinity.sh, trinity on the device nodes only.
 */
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"

/* Calls of the fuzz loop: make check, and make stress (VNPU_STRESS=1). */
#define FUZZ_QUICK 20000
#define FUZZ_FULL 140000 /* about 5 min in make stress (2 vCPUs, slub_debug) */
#define FUZZ_DEFAULT_SEED 0x766e7075ul /* "vnpu" */

#define MAX_FILES 6
#define MAX_MAPS 16
#define MAX_DEVS 4 /* devices the fuzzer opens files on */
#define RW_PAGES 4 /* the structure arena: read-write pages, none, read-write, ro */
#define ALARM_MS 30 /* calls that may wait are interrupted after this */
#define LOG_MAX 24 /* problems reported in full */
#define NERR 150 /* errno histogram */
#define PAGE_MAX 4096

#define KERNEL_PTR 0xffff800000000000ull
#define CANARY 0xa5
#define CANARY_LEN 64

/* ------------------------------------------------------------------ */
/* What the child reports, in memory shared with the parent             */
/* ------------------------------------------------------------------ */

enum op {
	OP_INFO,
	OP_CREATE,
	OP_DESTROY,
	OP_SUBMIT,
	OP_SYNC,
	OP_PROF_START,
	OP_PROF_STOP,
	OP_PROF_STATS,
	OP_BADCMD,
	OP_MMAP,
	OP_MUNMAP,
	OP_MPROTECT,
	OP_MREMAP,
	OP_MADVISE,
	OP_POLL,
	OP_RW,
	OP_OPEN,
	OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"GET_INFO",  "STREAM_CREATE", "STREAM_DESTROY", "SUBMIT",     "SYNC",	    "PROF_START",
	"PROF_STOP", "PROF_STATS",    "bad_cmd",	"mmap",	      "munmap",	    "mprotect",
	"mremap",    "madvise",	      "poll",		"read_write", "open_close",
};

struct opstat {
	unsigned long calls, ok, rejected, undocumented, violations;
	unsigned long err[NERR];
};

struct shared {
	struct opstat op[OP_COUNT];
	unsigned long calls, touches, iter;
	unsigned long problems;
	char cur[200]; /* the call in progress */
	char log[LOG_MAX][240];
	unsigned int nlog;
	int finished;
};

/* ------------------------------------------------------------------ */
/* The fuzzer's state                                                   */
/* ------------------------------------------------------------------ */

struct ffile {
	int fd; /* -1: closed */
	unsigned int dev;
	int acc; /* O_RDONLY, O_WRONLY or O_RDWR */
	unsigned int desc; /* the open file description: dup()s share it */
	__u64 streams; /* the stream ids we believe it has */
	__u32 ring_pages; /* its session's data pages (all channels): it can map them */
	int active; /* we believe its session runs */
	__u32 comms; /* bit N - 1: communicator handle N it may hold */
};

struct fmap {
	unsigned char *addr; /* NULL: free slot */
	size_t len;
	unsigned long pgoff; /* page of the ring layout at addr */
	int prot;
	int touch; /* every page is there and readable */
};

struct dinfo {
	__u32 caps, aiv_num, metric_groups, product;
};

struct fz {
	__u64 rng;
	struct shared *sh;
	size_t page;
	unsigned int ndev; /* devices the module has */
	unsigned int nuse; /* devices used, at most MAX_DEVS */
	struct dinfo info[MAX_DEVS];
	struct ffile f[MAX_FILES];
	struct fmap m[MAX_MAPS];
	unsigned int next_desc;
	__u32 comm_tag;
	unsigned char *arena; /* RW_PAGES read-write pages */
	unsigned char *none; /* then an inaccessible page, a read-write one... */
	unsigned char *ro; /* ...and a read-only page */
	unsigned char *tasks; /* VNPU_MAX_SUBMIT pages for task arrays... */
	unsigned char *tasks_end; /* ...followed by an inaccessible page */
	__u64 *ids_end; /* VNPU_MAX_SUBMIT ids end here, at an inaccessible page */
	unsigned char *ids_map;
};

/* ---- random numbers (vnpu_rnd64() in vnpu_test.h) ---- */

static __u64 rnd64(struct fz *z)
{
	return vnpu_rnd64(&z->rng);
}

static unsigned int rnd(struct fz *z, unsigned int n)
{
	return vnpu_rnd(&z->rng, n);
}

static int chance(struct fz *z, unsigned int pct)
{
	return vnpu_chance(&z->rng, pct);
}

static const __u64 interesting[] = {
	0,	    1,
	2,	    3,
	7,	    8,
	15,	    16,
	63,	    64,
	65,	    127,
	128,	    255,
	256,	    815,
	816,	    817,
	4095,	    4096,
	4097,	    8192,
	8193,	    65535,
	65536,	    0x7fffffff,
	0x80000000, 0xfffffffe,
	0xffffffff, 1ull << 32,
	1ull << 40, (1ull << 40) + 1,
	1ull << 50, (1ull << 50) + 1,
	1ull << 63, ~0ull,
	KERNEL_PTR,
};

static __u64 rnd_value(struct fz *z)
{
	switch (rnd(z, 4)) {
	case 0:
		return rnd64(z);
	case 1:
		return 1ull << rnd(z, 64);
	default:
		return interesting[rnd(z, ARRAY_SIZE(interesting))];
	}
}

/* A pointer that no access can go through. */
static __u64 bad_uptr(struct fz *z)
{
	switch (rnd(z, 8)) {
	case 0:
		return 8;
	case 1:
		return (unsigned long)z->none;
	case 2:
		return KERNEL_PTR;
	case 3:
		return 0xffffffff81000000ull;
	case 4:
		return 0x0000800000000000ull; /* the first non-canonical address */
	case 5:
		return 0xfffffffffffff000ull;
	case 6:
		return ~0ull;
	default:
		return 0x1000;
	}
}

/* ---- problems ---- */

static void problem(struct fz *z, enum op op, int undocumented, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct fz *z, enum op op, int undocumented, const char *fmt, ...)
{
	struct shared *sh = z->sh;
	va_list ap;

	if (undocumented)
		sh->op[op].undocumented++;
	else
		sh->op[op].violations++;
	sh->problems++;
	if (sh->nlog >= LOG_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->log[sh->nlog], sizeof(sh->log[0]), fmt, ap);
	va_end(ap);
	sh->nlog++;
}

static int in_set(const int *set, int e)
{
	for (; *set; set++)
		if (*set == e)
			return 1;
	return 0;
}

/* Count a finished call: 0 or the errno it failed with. */
static void account(struct fz *z, enum op op, int err)
{
	struct opstat *s = &z->sh->op[op];

	s->calls++;
	z->sh->calls++;
	if (!err) {
		s->ok++;
		return;
	}
	s->rejected++;
	s->err[err < NERR ? err : 0]++;
}

/* A failure's errno is documented; a valid call fails only for a reason of state. */
static void check_errno(struct fz *z, enum op op, int err, const int *doc, const int *state,
			int valid, int must_fail)
{
	account(z, op, err);
	if (!err) {
		if (must_fail)
			problem(z, op, 0, "accepted: %s", z->sh->cur);
		return;
	}
	if (!in_set(doc, err))
		problem(z, op, 1, "errno %d (%s) is not documented: %s", err, strerror(err),
			z->sh->cur);
	else if (valid && state && !in_set(state, err))
		problem(z, op, 0, "a valid call failed with %s: %s", strerror(err), z->sh->cur);
}

/* ---- the timer that interrupts calls that may wait ---- */

static void on_alarm(int sig)
{
}

static void arm(void)
{
	struct itimerval it = { .it_value = { 0, ALARM_MS * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/* ---- files ---- */

static struct ffile *pick_file(struct fz *z)
{
	unsigned int i = rnd(z, MAX_FILES);

	for (unsigned int k = 0; k < MAX_FILES; k++, i = (i + 1) % MAX_FILES)
		if (z->f[i].fd >= 0)
			return &z->f[i];
	return NULL;
}

static struct ffile *file_on(struct fz *z, unsigned int dev)
{
	unsigned int i = rnd(z, MAX_FILES);

	for (unsigned int k = 0; k < MAX_FILES; k++, i = (i + 1) % MAX_FILES)
		if (z->f[i].fd >= 0 && z->f[i].dev == dev)
			return &z->f[i];
	return NULL;
}

/* A stream the file has, as far as we know; otherwise a low id. */
static __u32 pick_stream(struct fz *z, const struct ffile *f)
{
	unsigned int n = __builtin_popcountll(f->streams), k;

	if (!n)
		return rnd(z, 3);
	k = rnd(z, n);
	for (unsigned int id = 0; id < VNPU_MAX_STREAMS; id++)
		if ((f->streams >> id & 1) && !k--)
			return id;
	return 0;
}

static void desc_streams(struct fz *z, unsigned int desc, __u32 id, int set)
{
	for (int i = 0; i < MAX_FILES; i++) {
		if (z->f[i].fd < 0 || z->f[i].desc != desc)
			continue;
		if (set)
			z->f[i].streams |= 1ull << id;
		else
			z->f[i].streams &= ~(1ull << id);
	}
}

static void desc_session(struct fz *z, unsigned int desc, __u32 pages, int active)
{
	for (int i = 0; i < MAX_FILES; i++) {
		if (z->f[i].fd < 0 || z->f[i].desc != desc)
			continue;
		if (pages)
			z->f[i].ring_pages = pages;
		z->f[i].active = active;
	}
}

/* ------------------------------------------------------------------ */
/* Structures: templates, mutations, placement, write-back checks       */
/* ------------------------------------------------------------------ */

enum kind {
	K_ANY, /* any value */
	K_ZERO, /* reserved: must be zero */
	K_OUT, /* an output: any value, ignored on input */
	K_FLAGS, /* defined bits only */
	K_STREAM, /* a stream id */
	K_PTR, /* a user pointer (submit) */
	K_COUNT, /* submit's count */
	K_TSIZE, /* submit's task_size */
	K_ENUM, /* an enum */
	K_NAME, /* a NUL-terminated printable string */
	K_TENSOR, /* the tensor array of a task */
};

struct field {
	const char *name;
	unsigned short off, size;
	unsigned char kind;
};

#define FLD(type, m, k)                                           \
	{                                                         \
		.name = #m, .off = offsetof(struct type, m),      \
		.size = sizeof(((struct type *)0)->m), .kind = k, \
	}

static const struct field info_fields[] = {
	FLD(vnpu_info, flags, K_FLAGS),	     FLD(vnpu_info, uapi_version, K_OUT),
	FLD(vnpu_info, dev_id, K_OUT),	     FLD(vnpu_info, product_name, K_OUT),
	FLD(vnpu_info, chip_name, K_OUT),    FLD(vnpu_info, metric_groups, K_OUT),
	FLD(vnpu_info, reserved0, K_ZERO),   FLD(vnpu_info, cube_flops, K_OUT),
	FLD(vnpu_info, vector_flops, K_OUT), FLD(vnpu_info, reserved, K_ZERO),
};

static const struct field create_fields[] = {
	FLD(vnpu_stream_create, flags, K_FLAGS),
	FLD(vnpu_stream_create, stream_id, K_OUT),
	FLD(vnpu_stream_create, hw_stream_id, K_OUT),
};

static const struct field destroy_fields[] = {
	FLD(vnpu_stream_destroy, flags, K_FLAGS),
	FLD(vnpu_stream_destroy, stream_id, K_STREAM),
	FLD(vnpu_stream_destroy, reserved, K_ZERO),
};

static const struct field submit_fields[] = {
	FLD(vnpu_submit, flags, K_FLAGS),     FLD(vnpu_submit, tasks, K_PTR),
	FLD(vnpu_submit, task_ids, K_PTR),    FLD(vnpu_submit, count, K_COUNT),
	FLD(vnpu_submit, task_size, K_TSIZE), FLD(vnpu_submit, submitted, K_OUT),
	FLD(vnpu_submit, reserved, K_ZERO),   FLD(vnpu_submit, submit_time, K_OUT),
};

static const struct field sync_fields[] = {
	FLD(vnpu_sync, flags, K_FLAGS),	    FLD(vnpu_sync, stream_id, K_STREAM),
	FLD(vnpu_sync, timeout_ms, K_ANY),  FLD(vnpu_sync, last_task_id, K_OUT),
	FLD(vnpu_sync, device_time, K_OUT), FLD(vnpu_sync, reserved, K_ZERO),
};

static const struct field pstart_fields[] = {
	FLD(vnpu_prof_start, flags, K_FLAGS),	    FLD(vnpu_prof_start, level, K_ENUM),
	FLD(vnpu_prof_start, metric_group, K_ENUM), FLD(vnpu_prof_start, ring_pages, K_ANY),
	FLD(vnpu_prof_start, wakeup_bytes, K_ANY),  FLD(vnpu_prof_start, session_id, K_OUT),
	FLD(vnpu_prof_start, n_events, K_OUT),	    FLD(vnpu_prof_start, aic_events, K_OUT),
	FLD(vnpu_prof_start, aiv_events, K_OUT),    FLD(vnpu_prof_start, mmap_size, K_OUT),
	FLD(vnpu_prof_start, aic_events_hi, K_OUT), FLD(vnpu_prof_start, aiv_events_hi, K_OUT),
};

static const struct field pstop_fields[] = {
	FLD(vnpu_prof_stop, flags, K_FLAGS),
	FLD(vnpu_prof_stop, reserved, K_ZERO),
};

static const struct field pstats_fields[] = {
	FLD(vnpu_prof_stats, flags, K_FLAGS),	FLD(vnpu_prof_stats, session_id, K_OUT),
	FLD(vnpu_prof_stats, active, K_OUT),	FLD(vnpu_prof_stats, produced, K_OUT),
	FLD(vnpu_prof_stats, lost, K_OUT),	FLD(vnpu_prof_stats, written, K_OUT),
	FLD(vnpu_prof_stats, bytes, K_OUT),	FLD(vnpu_prof_stats, consumed_pos, K_OUT),
	FLD(vnpu_prof_stats, reserved, K_ZERO),
};

static const struct field task_fields[] = {
	FLD(vnpu_task, op_name, K_NAME),   FLD(vnpu_task, op_type, K_NAME),
	FLD(vnpu_task, task_type, K_ENUM), FLD(vnpu_task, stream_id, K_STREAM),
	FLD(vnpu_task, block_num, K_ANY),  FLD(vnpu_task, mix_block_num, K_ANY),
	FLD(vnpu_task, flags, K_FLAGS),	   FLD(vnpu_task, model_id, K_ANY),
	FLD(vnpu_task, n_inputs, K_ANY),   FLD(vnpu_task, n_outputs, K_ANY),
	FLD(vnpu_task, comm_op, K_ANY),	   FLD(vnpu_task, comm_id, K_ANY),
	FLD(vnpu_task, comm_tag, K_ANY),   FLD(vnpu_task, comm_peer, K_ANY),
	FLD(vnpu_task, flops, K_ANY),	   FLD(vnpu_task, bytes, K_ANY),
	FLD(vnpu_task, reserved, K_ZERO),  FLD(vnpu_task, tensors, K_TENSOR),
};

/* Documented errnos (docs/uapi.md, docs/ring.md), and those a valid call may get. */
static const int doc_info[] = { EFAULT, EINVAL, E2BIG, 0 };
static const int doc_create[] = { EFAULT, EINVAL, E2BIG, EMFILE, ENOMEM, 0 };
static const int doc_destroy[] = { EFAULT, EINVAL, E2BIG, ENOENT, EINTR, 0 };
static const int doc_submit[] = { EFAULT, EINVAL, E2BIG, EMSGSIZE, ENOENT, ENOMEM, EINTR, 0 };
static const int doc_sync[] = { EFAULT, EINVAL, E2BIG, ENOENT, ETIMEDOUT, EINTR, EPIPE, 0 };
static const int doc_pstart[] = { EFAULT, EINVAL, E2BIG, EOPNOTSUPP, ENOMEM, EBUSY, 0 };
static const int doc_pstop[] = { EFAULT, EINVAL, E2BIG, ENOENT, EPERM, 0 };
static const int doc_pstats[] = { EFAULT, EINVAL, E2BIG, 0 };
static const int doc_notty[] = { ENOTTY, 0 };

static const int st_none[] = { 0 };
static const int st_create[] = { EMFILE, ENOMEM, 0 };
static const int st_destroy[] = { ENOENT, EINTR, 0 };
static const int st_submit[] = { ENOENT, ENOMEM, EINTR, 0 };
static const int st_sync[] = { ENOENT, ETIMEDOUT, EINTR, EPIPE, 0 };
static const int st_pstart[] = { EBUSY, ENOMEM, 0 };
static const int st_pstop[] = { ENOENT, EPERM, 0 };

/* Where a structure is put. */
enum place {
	AT_OK, /* read-write memory */
	AT_MISALIGNED, /* read-write, 1..7 bytes off alignment */
	AT_END, /* read-write, ending exactly at an unmapped page */
	AT_RO, /* a read-only page */
	AT_RO_SPLIT, /* the first 8 bytes read-write, the rest read-only */
	AT_TAIL_UNMAPPED, /* the kernel's bytes readable, the caller's tail not */
	AT_STRADDLE, /* @size readable, the rest unmapped */
	AT_NULL,
	AT_BAD, /* bad_uptr() */
};

struct call {
	const struct ioc *d;
	struct ffile *f;
	unsigned char img[PAGE_MAX + CANARY_LEN]; /* the structure as built */
	unsigned char *arg; /* where it went */
	size_t usize; /* its @size (as a size_t: may exceed a page) */
	size_t len; /* bytes laid out at @arg */
	enum place where;
	unsigned long cmd;
	int valid; /* built valid, nothing corrupted */
	int must_fail;
	int canary; /* CANARY_LEN canary bytes follow arg + len */
	char what[96];
	/* submit */
	__u32 count;
	__u64 *ids;
};

struct ioc {
	const char *name;
	enum op op;
	unsigned int nr;
	unsigned long cmd;
	size_t ksize;
	size_t ver0; /* the smallest size the kernel takes */
	int writes_back;
	__u32 flags_ok;
	const int *doc, *state;
	const struct field *fields;
	size_t nfields;
	/* fill a valid structure (@size aside) into c->img; 0, or -1 to skip the call */
	int (*build)(struct fz *z, struct call *c, int mutate);
	/* after a success: follow the state, check the outputs */
	void (*done)(struct fz *z, struct call *c);
};

static void put_le(unsigned char *p, size_t size, __u64 v)
{
	memcpy(p, &v, size < 8 ? size : 8);
}

static __u64 trunc_to(__u64 v, size_t size)
{
	return size >= 8 ? v : v & ((1ull << (8 * size)) - 1);
}

/* Corrupt member @fl of the structure at @img. */
static void mutate_field(struct fz *z, struct call *c, unsigned char *img, const struct field *fl,
			 __u32 flags_ok)
{
	__u64 v;

	switch (fl->kind) {
	case K_ZERO:
		if (fl->size > 8) {
			img[fl->off + rnd(z, fl->size)] = 1 + rnd(z, 255);
		} else {
			do
				v = trunc_to(rnd_value(z), fl->size);
			while (!v);
			put_le(img + fl->off, fl->size, v);
		}
		c->must_fail = 1;
		break;
	case K_FLAGS:
		v = trunc_to(chance(z, 60) ? 1ull << rnd(z, 32) : rnd_value(z), fl->size);
		put_le(img + fl->off, fl->size, v);
		/* a session without the channels, the only layout, is -EINVAL */
		if ((v & ~(__u64)flags_ok) ||
		    (c->d->op == OP_PROF_START && !(v & VNPU_PROF_F_CHANNELS)))
			c->must_fail = 1;
		break;
	case K_STREAM:
		v = chance(z, 50) ? rnd(z, VNPU_MAX_STREAMS + 2) : trunc_to(rnd_value(z), 4);
		put_le(img + fl->off, 4, v);
		if (v >= VNPU_MAX_STREAMS)
			c->must_fail = 1;
		break;
	default:
		put_le(img + fl->off, fl->size, trunc_to(rnd_value(z), fl->size));
		break;
	}
	snprintf(c->what, sizeof(c->what), "%s corrupted", fl->name);
}

/* ---- the tasks of a submit ---- */

static const char *const op_types[] = { "MatMul", "Add",       "Relu",	    "SoftmaxV2",
					"Cast",	  "LayerNorm", "AllReduce", "TransData" };

static void rnd_name(struct fz *z, char *s, size_t size)
{
	size_t n = 1 + rnd(z, chance(z, 10) ? size - 1 : 16);

	memset(s, 0, size);
	for (size_t i = 0; i < n; i++)
		s[i] = 0x20 + rnd(z, 0x5f);
}

static void rnd_tensor(struct fz *z, struct vnpu_tensor *x)
{
	memset(x, 0, sizeof(*x));
	x->dtype = rnd(z, VNPU_DT_COUNT);
	x->format = rnd(z, VNPU_FMT_COUNT);
	x->ndims = rnd(z, 5);
	for (unsigned int i = 0; i < x->ndims; i++)
		x->dims[i] = 1 + rnd(z, 64);
}

/* A valid task for device @dev on @stream (a collective on handle @comm_id if not 0). */
static void make_task(struct fz *z, struct vnpu_task *t, unsigned int dev, __u32 stream,
		      __u32 comm_id, __u32 tag)
{
	const struct dinfo *di = &z->info[dev];
	unsigned int r = rnd(z, 100);

	memset(t, 0, sizeof(*t));
	rnd_name(z, t->op_name, sizeof(t->op_name));
	snprintf(t->op_type, sizeof(t->op_type), "%s", op_types[rnd(z, ARRAY_SIZE(op_types))]);
	t->stream_id = stream;
	t->block_num = chance(z, 5) ? 65535 : 1 + rnd(z, 48);
	t->flags = rnd(z, VNPU_TASK_F_ALL + 1);
	t->model_id = rnd(z, 4);
	/*
	 * Device time is host time: a task runs as long as it models, and
	 * the limits' own (minutes; test_bad_input has them) would hold the
	 * device for the whole run. Milliseconds at most.
	 */
	t->flops = chance(z, 3) ? 1ull << 34 : rnd64(z) % (1ull << 30);
	t->bytes = chance(z, 30) ? 0 : chance(z, 3) ? 1ull << 28 : rnd64(z) % (1ull << 26);
	if (comm_id) {
		t->task_type = VNPU_TASK_COMMUNICATION;
		t->block_num = 1;
		t->flops = 0;
		t->comm_op = rnd(z, VNPU_COMM_OP_COUNT);
		t->comm_id = comm_id;
		t->comm_tag = tag;
		if (!t->bytes)
			t->bytes = 4096;
		return;
	}
	if (r < 15 && di->aiv_num) {
		t->task_type = VNPU_TASK_AI_VECTOR_CORE;
	} else if (r < 30 && (di->caps & VNPU_CAP_SPLIT_AIC_AIV)) {
		t->task_type = chance(z, 50) ? VNPU_TASK_MIX_AIC : VNPU_TASK_MIX_AIV;
		t->mix_block_num = 1 + rnd(z, 48);
	} else if (r < 40) {
		t->task_type = VNPU_TASK_AI_CPU;
		t->block_num = 1;
	} else {
		t->task_type = VNPU_TASK_AI_CORE;
	}
	t->n_inputs = rnd(z, 4);
	t->n_outputs = rnd(z, 3);
	for (unsigned int i = 0; i < t->n_inputs + t->n_outputs; i++)
		rnd_tensor(z, &t->tensors[i]);
}

/* Corrupt one member of task @t; sets c->must_fail where the task cannot be valid. */
static void mutate_task(struct fz *z, struct call *c, struct vnpu_task *t, unsigned int idx)
{
	const struct field *fl = &task_fields[rnd(z, ARRAY_SIZE(task_fields))];
	unsigned char *p = (unsigned char *)t;
	size_t n;

	if (fl->kind == K_NAME) {
		char *s = (char *)p + fl->off;

		switch (rnd(z, 4)) {
		case 0: /* no NUL */
			for (size_t i = 0; i < fl->size; i++)
				s[i] = 0x21 + rnd(z, 0x5e);
			c->must_fail = 1;
			break;
		case 1: /* empty */
			memset(s, 0, fl->size);
			c->must_fail = 1;
			break;
		case 2: /* a byte outside 0x20 .. 0x7e before the NUL */
			n = strnlen(s, fl->size);
			s[rnd(z, n ? n : 1)] =
				chance(z, 50) ? 1 + rnd(z, 0x1f) : 0x7f + rnd(z, 0x81);
			c->must_fail = 1;
			break;
		default: /* the longest valid one */
			memset(s, 'a' + rnd(z, 26), fl->size - 1);
			s[fl->size - 1] = 0;
			break;
		}
	} else if (fl->kind == K_TENSOR) {
		unsigned int slot = rnd(z, VNPU_MAX_TENSORS), m = rnd(z, 5);
		struct vnpu_tensor *x = &t->tensors[slot];
		int used = slot < t->n_inputs + t->n_outputs;
		__u64 v = rnd_value(z);

		switch (m) {
		case 0:
			x->dtype = v;
			c->must_fail |= (used && x->dtype >= VNPU_DT_COUNT) || (!used && x->dtype);
			break;
		case 1:
			x->format = v;
			c->must_fail |=
				(used && x->format >= VNPU_FMT_COUNT) || (!used && x->format);
			break;
		case 2:
			x->ndims = v;
			c->must_fail |= x->ndims > VNPU_MAX_DIMS || (!used && x->ndims);
			break;
		case 3:
			x->reserved = v | 1;
			c->must_fail = 1;
			break;
		default:
			x->dims[rnd(z, VNPU_MAX_DIMS)] = v;
			c->must_fail |= !used && v;
			break;
		}
	} else {
		mutate_field(z, c, p, fl, VNPU_TASK_F_ALL);
		if (fl->off == offsetof(struct vnpu_task, task_type) &&
		    t->task_type >= VNPU_TASK_TYPE_COUNT)
			c->must_fail = 1;
	}
	snprintf(c->what, sizeof(c->what), "task %u: %s corrupted", idx, fl->name);
}

/* ---- builders: a valid structure, and what follows a success ---- */

static int build_nothing(struct fz *z, struct call *c, int mutate)
{
	return 0;
}

static void done_info(struct fz *z, struct call *c)
{
	struct vnpu_info in;

	memcpy(&in, c->arg, sizeof(in));
	if (in.uapi_version != VNPU_UAPI_VERSION || in.dev_id != c->f->dev ||
	    in.dev_count != z->ndev || in.reserved0 || in.reserved[0] || in.reserved[1] ||
	    in.reserved[2] || in.reserved[3] || in.flags)
		problem(z, OP_INFO, 0, "GET_INFO outputs: version %#x dev %u/%u: %s",
			in.uapi_version, in.dev_id, in.dev_count, z->sh->cur);
	for (int k = 0; k < 2; k++) {
		const char *s = k ? in.chip_name : in.product_name;
		size_t n = strnlen(s, VNPU_NAME_LEN);

		if (n == VNPU_NAME_LEN || !n)
			problem(z, OP_INFO, 0, "GET_INFO: a name without a NUL");
		for (size_t i = n; i < VNPU_NAME_LEN; i++)
			if (s[i])
				problem(z, OP_INFO, 0, "GET_INFO: byte %zu after a name's NUL", i);
	}
}

static void done_create(struct fz *z, struct call *c)
{
	struct vnpu_stream_create sc;

	memcpy(&sc, c->arg, sizeof(sc));
	if (sc.stream_id >= VNPU_MAX_STREAMS || sc.flags || sc.hw_stream_id >= 2048) {
		problem(z, OP_CREATE, 0, "STREAM_CREATE outputs: id %u: %s", sc.stream_id,
			z->sh->cur);
		return;
	}
	desc_streams(z, c->f->desc, sc.stream_id, 1);
}

static int build_destroy(struct fz *z, struct call *c, int mutate)
{
	struct vnpu_stream_destroy *sd = (void *)c->img;

	sd->stream_id = pick_stream(z, c->f);
	return 0;
}

static void done_destroy(struct fz *z, struct call *c)
{
	struct vnpu_stream_destroy sd;

	memcpy(&sd, c->arg, sizeof(sd));
	desc_streams(z, c->f->desc, sd.stream_id, 0);
}

/*
 * A valid batch: mostly one to a few tasks, sometimes VNPU_MAX_SUBMIT, at
 * the start of the task area or ending at its guard page, with or without
 * ids. With @mutate, half the time one task or the stride is corrupted
 * instead of a member of struct vnpu_submit.
 */
static int build_submit(struct fz *z, struct call *c, int mutate)
{
	struct vnpu_submit *sub = (void *)c->img;
	__u32 count, tsize = sizeof(struct vnpu_task);
	struct vnpu_task t;
	unsigned char *base;
	unsigned int r = rnd(z, 1000);

	if (r < 5)
		count = VNPU_MAX_SUBMIT;
	else if (r < 15)
		count = 64 + rnd(z, VNPU_MAX_SUBMIT - 64);
	else if (r < 350)
		count = 2 + rnd(z, 15);
	else
		count = 1;
	if (chance(z, 10))
		tsize = chance(z, 50) ? z->page : tsize + rnd(z, 64);
	if ((size_t)count * tsize > VNPU_MAX_SUBMIT * z->page)
		count = VNPU_MAX_SUBMIT * z->page / tsize;
	base = chance(z, 80) ? z->tasks : z->tasks_end - (size_t)count * tsize;

	/* one template, copied: big batches stay cheap to build */
	make_task(z, &t, c->f->dev, pick_stream(z, c->f), 0, 0);
	for (__u32 i = 0; i < count; i++) {
		unsigned char *e = base + (size_t)i * tsize;

		if (i < 8 && i)
			make_task(z, &t, c->f->dev, pick_stream(z, c->f), 0, 0);
		memcpy(e, &t, sizeof(t));
		if (tsize > sizeof(t))
			memset(e + sizeof(t), 0, tsize - sizeof(t));
	}
	sub->tasks = (unsigned long)base;
	sub->count = count;
	sub->task_size = tsize;
	if (chance(z, 50)) {
		c->ids = z->ids_end - count;
		sub->task_ids = (unsigned long)c->ids;
	}
	c->count = count;

	if (mutate && chance(z, 50)) {
		unsigned int which = chance(z, 50) ? count - 1 : rnd(z, count);
		unsigned char *e = base + (size_t)which * tsize;

		c->valid = 0;
		if (tsize > sizeof(t) && chance(z, 20)) {
			e[sizeof(t) + rnd(z, tsize - sizeof(t))] = 1 + rnd(z, 255);
			c->must_fail = 1;
			snprintf(c->what, sizeof(c->what), "task %u: a non-zero tail byte", which);
		} else {
			memcpy(&t, e, sizeof(t));
			mutate_task(z, c, &t, which);
			memcpy(e, &t, sizeof(t));
		}
		return 1;
	}
	return 0;
}

/* The pointers and counts of struct vnpu_submit. */
static void mutate_submit_field(struct fz *z, struct call *c, const struct field *fl)
{
	struct vnpu_submit *sub = (void *)c->img;
	__u64 v;

	switch (fl->kind) {
	case K_PTR:
		if (fl->off == offsetof(struct vnpu_submit, tasks)) {
			switch (rnd(z, 4)) {
			case 0:
				sub->tasks = 0;
				c->must_fail = 1;
				break;
			case 1: /* the last task runs into the guard page */
				sub->tasks = (unsigned long)(z->tasks_end -
							     (size_t)sub->count * sub->task_size +
							     1 + rnd(z, 800));
				c->must_fail = 1;
				break;
			case 2: /* readable, misaligned, not a task array */
				sub->tasks = (unsigned long)(z->tasks + 1 + rnd(z, 7));
				break;
			default:
				sub->tasks = bad_uptr(z);
				c->must_fail = 1;
				break;
			}
		} else {
			switch (rnd(z, 4)) {
			case 0:
				sub->task_ids = (unsigned long)z->ro;
				c->must_fail = 1;
				break;
			case 1: /* the last id in the guard page */
				sub->task_ids = (unsigned long)(z->ids_end - sub->count + 1);
				c->must_fail = 1;
				break;
			case 2: /* misaligned: fine */
				c->ids = NULL;
				sub->task_ids = (unsigned long)z->ids_end - sub->count * 8 - 3;
				break;
			default:
				sub->task_ids = bad_uptr(z);
				c->must_fail = 1;
				break;
			}
			if (c->must_fail)
				c->ids = NULL;
		}
		break;
	case K_COUNT:
		v = chance(z, 50) ? interesting[rnd(z, 8)] : trunc_to(rnd_value(z), 4);
		if (chance(z, 30))
			v = VNPU_MAX_SUBMIT + rnd(z, 3);
		sub->count = v;
		if (!sub->count || sub->count > VNPU_MAX_SUBMIT)
			c->must_fail = 1;
		c->ids = NULL;
		break;
	case K_TSIZE:
		v = chance(z, 50) ? interesting[rnd(z, ARRAY_SIZE(interesting))] : rnd(z, 8192);
		sub->task_size = v;
		if (sub->task_size < VNPU_TASK_SIZE_VER0 || sub->task_size > z->page)
			c->must_fail = 1;
		break;
	default:
		mutate_field(z, c, c->img, fl, 0);
		return;
	}
	snprintf(c->what, sizeof(c->what), "%s corrupted", fl->name);
}

static void done_submit(struct fz *z, struct call *c)
{
	struct vnpu_submit sub;

	memcpy(&sub, c->arg, sizeof(sub));
	if (sub.submitted != sub.count)
		problem(z, OP_SUBMIT, 0, "SUBMIT: submitted %u of %u: %s", sub.submitted, sub.count,
			z->sh->cur);
	if (!c->ids || sub.count != c->count)
		return;
	for (__u32 i = 0; i < c->count; i++) {
		if (c->ids[i] != c->ids[0] + i || !c->ids[0]) {
			problem(z, OP_SUBMIT, 0, "SUBMIT: ids not contiguous at %u: %s", i,
				z->sh->cur);
			break;
		}
	}
}

static int build_sync(struct fz *z, struct call *c, int mutate)
{
	struct vnpu_sync *sy = (void *)c->img;

	if (chance(z, 30))
		sy->flags = VNPU_SYNC_F_ALL_STREAMS;
	else
		sy->stream_id = pick_stream(z, c->f);
	if (chance(z, 20))
		sy->flags |= VNPU_SYNC_F_NOWAIT;
	switch (rnd(z, 10)) {
	case 0:
		sy->timeout_ms = 0; /* forever: the timer interrupts it */
		break;
	case 1:
		sy->timeout_ms = 0xffffffff;
		break;
	default:
		sy->timeout_ms = 1 + rnd(z, 20);
		break;
	}
	return 0;
}

static void done_sync(struct fz *z, struct call *c)
{
	struct vnpu_sync in, out;

	memcpy(&in, c->img, sizeof(in));
	memcpy(&out, c->arg, sizeof(out));
	if (out.reserved || out.flags != in.flags || out.stream_id != in.stream_id ||
	    out.timeout_ms != in.timeout_ms || (!out.last_task_id && out.device_time))
		problem(z, OP_SYNC, 0, "SYNC outputs: %s", z->sh->cur);
}

static int build_pstart(struct fz *z, struct call *c, int mutate)
{
	struct vnpu_prof_start *ps = (void *)c->img;
	const struct dinfo *di = &z->info[c->f->dev];
	unsigned int r = rnd(z, 100);

	ps->level = rnd(z, VNPU_PROF_LEVEL_COUNT);
	ps->flags = VNPU_PROF_F_CHANNELS;
	if (ps->level != VNPU_PROF_L0 && chance(z, 50)) {
		__u32 g;

		do
			g = rnd(z, VNPU_METRIC_COUNT);
		while (!(di->metric_groups >> g & 1));
		ps->flags |= VNPU_PROF_F_METRIC_GROUP;
		ps->metric_group = g;
	}
	if (r < 2)
		ps->ring_pages = VNPU_RING_MAX_PAGES;
	else if (r < 7)
		ps->ring_pages = 0; /* the default, 1024 */
	else
		ps->ring_pages = 1u << rnd(z, 5);
	if (chance(z, 50)) {
		__u32 pages = ps->ring_pages ? ps->ring_pages : VNPU_RING_DEFAULT_PAGES;

		ps->wakeup_bytes = 8 + rnd(z, pages * z->page - 7);
	}
	return 0;
}

static void done_pstart(struct fz *z, struct call *c)
{
	struct vnpu_prof_start in, out;
	__u64 data_pages;
	__u32 pages;

	memcpy(&in, c->img, sizeof(in));
	memcpy(&out, c->arg, sizeof(out));
	pages = out.ring_pages;
	/* ACSQ and PMU of @pages each, TS_TRACK /256, AICPU /8 */
	data_pages = 2ull * pages + (pages / 256 ? pages / 256 : 1) + (pages / 8 ? pages / 8 : 1);
	if ((in.ring_pages && pages != in.ring_pages) ||
	    (!in.ring_pages && pages != VNPU_RING_DEFAULT_PAGES) ||
	    out.mmap_size != (2 + 2 * data_pages) * z->page || out.n_events > VNPU_PMU_EVENTS_ALL ||
	    !out.session_id || out.level != in.level ||
	    (in.level == VNPU_PROF_L0 && out.metric_group != VNPU_METRIC_NONE) ||
	    (in.level != VNPU_PROF_L0 && out.metric_group >= VNPU_METRIC_COUNT))
		problem(z, OP_PROF_START, 0, "PROF_START outputs: pages %u mmap_size %llu: %s",
			pages, (unsigned long long)out.mmap_size, z->sh->cur);
	if (pages && pages <= VNPU_RING_MAX_PAGES)
		desc_session(z, c->f->desc, (__u32)data_pages, 1);
}

static void done_pstop(struct fz *z, struct call *c)
{
	desc_session(z, c->f->desc, 0, 0);
}

static void done_pstats(struct fz *z, struct call *c)
{
	struct vnpu_prof_stats st;

	memcpy(&st, c->arg, sizeof(st));
	if (st.reserved[0] || st.reserved[1] || st.active > 1 || st.lost > st.produced ||
	    st.bytes % 8 || st.consumed_pos > st.bytes || st.written > st.produced + st.lost ||
	    (!st.session_id && (st.active || st.produced || st.written || st.bytes)))
		problem(z, OP_PROF_STATS, 0,
			"PROF_STATS outputs: id %u active %u produced %llu lost %llu: %s",
			st.session_id, st.active, (unsigned long long)st.produced,
			(unsigned long long)st.lost, z->sh->cur);
}

#define IOC(n, o, c, type, v0, wb, fl, dc, stt, flds, bld, dn)                       \
	{                                                                            \
		n, o, _IOC_NR(c), c, sizeof(struct type), v0, wb, fl, dc, stt, flds, \
			ARRAY_SIZE(flds), bld, dn                                    \
	}

static const struct ioc iocs[] = {
	IOC("GET_INFO", OP_INFO, VNPU_IOC_GET_INFO, vnpu_info, VNPU_INFO_SIZE_VER0, 1, 0, doc_info,
	    st_none, info_fields, build_nothing, done_info),
	IOC("STREAM_CREATE", OP_CREATE, VNPU_IOC_STREAM_CREATE, vnpu_stream_create,
	    VNPU_STREAM_CREATE_SIZE_VER0, 1, 0, doc_create, st_create, create_fields, build_nothing,
	    done_create),
	IOC("STREAM_DESTROY", OP_DESTROY, VNPU_IOC_STREAM_DESTROY, vnpu_stream_destroy,
	    VNPU_STREAM_DESTROY_SIZE_VER0, 0, 0, doc_destroy, st_destroy, destroy_fields,
	    build_destroy, done_destroy),
	IOC("SUBMIT", OP_SUBMIT, VNPU_IOC_SUBMIT, vnpu_submit, VNPU_SUBMIT_SIZE_VER0, 1, 0,
	    doc_submit, st_submit, submit_fields, build_submit, done_submit),
	IOC("SYNC", OP_SYNC, VNPU_IOC_SYNC, vnpu_sync, VNPU_SYNC_SIZE_VER0, 1, VNPU_SYNC_F_ALL,
	    doc_sync, st_sync, sync_fields, build_sync, done_sync),
	IOC("PROF_START", OP_PROF_START, VNPU_IOC_PROF_START, vnpu_prof_start,
	    VNPU_PROF_START_SIZE_VER0, 1, VNPU_PROF_F_ALL, doc_pstart, st_pstart, pstart_fields,
	    build_pstart, done_pstart),
	IOC("PROF_STOP", OP_PROF_STOP, VNPU_IOC_PROF_STOP, vnpu_prof_stop, VNPU_PROF_STOP_SIZE_VER0,
	    0, 0, doc_pstop, st_pstop, pstop_fields, build_nothing, done_pstop),
	IOC("PROF_STATS", OP_PROF_STATS, VNPU_IOC_PROF_STATS, vnpu_prof_stats,
	    VNPU_PROF_STATS_SIZE_VER0, 1, 0, doc_pstats, st_none, pstats_fields, build_nothing,
	    done_pstats),
};

static const struct ioc *ioc_by_nr(unsigned int nr)
{
	for (size_t i = 0; i < ARRAY_SIZE(iocs); i++)
		if (iocs[i].nr == nr)
			return &iocs[i];
	return NULL;
}

/* The caller's @size: mostly exact; else the ladder's rungs. */
static void pick_size(struct fz *z, struct call *c)
{
	const struct ioc *d = c->d;
	size_t k = d->ksize, page = z->page;
	int tail = 0;

	switch (rnd(z, 12)) {
	case 0:
		c->usize = 0;
		break;
	case 1:
		c->usize = rnd(z, k);
		break;
	case 2:
		c->usize = k + 1 + rnd(z, 64);
		tail = chance(z, 50);
		break;
	case 3:
		c->usize = page;
		tail = chance(z, 50);
		break;
	case 4:
		c->usize = page + 1 + rnd(z, 8);
		break;
	case 5:
		c->usize = chance(z, 50) ? 0xffffffffu : trunc_to(rnd64(z), 4);
		break;
	default:
		c->usize = k;
		return;
	}
	snprintf(c->what, sizeof(c->what), "size %zu%s", c->usize, tail ? ", non-zero tail" : "");
	if (c->usize < d->ver0 || c->usize > page)
		c->must_fail = 1;
	if (tail && c->usize > k && c->usize <= page) {
		c->img[k + rnd(z, c->usize - k)] = 1 + rnd(z, 255);
		c->must_fail = 1;
	}
}

static const char *place_name(enum place p)
{
	static const char *const names[] = { "rw",	   "misaligned", "page end",
					     "ro",	   "ro split",	 "tail unmapped",
					     "straddling", "NULL",	 "bad" };

	return names[p];
}

static void pick_place(struct fz *z, struct call *c)
{
	c->where = (enum place)rnd(z, AT_BAD + 1);
	switch (c->where) {
	case AT_OK:
	case AT_MISALIGNED:
	case AT_END:
		break;
	case AT_RO:
	case AT_RO_SPLIT:
		c->must_fail |= c->d->writes_back;
		break;
	case AT_TAIL_UNMAPPED:
		c->must_fail |= c->usize > c->d->ksize;
		break;
	default:
		c->must_fail = 1;
		break;
	}
	snprintf(c->what, sizeof(c->what), "placed %s", place_name(c->where));
}

/* Lay the image out where c->where says; sets c->arg. */
static void place(struct fz *z, struct call *c)
{
	size_t len = c->len;

	c->canary = 0;
	switch (c->where) {
	case AT_OK:
	case AT_MISALIGNED:
		c->arg = z->arena + (c->where == AT_MISALIGNED ? 1 + rnd(z, 7) : 0);
		memcpy(c->arg, c->img, len);
		memset(c->arg + len, CANARY, CANARY_LEN);
		c->canary = 1;
		break;
	case AT_END:
		c->arg = z->none - len;
		memcpy(c->arg, c->img, len);
		break;
	case AT_RO:
		mprotect(z->ro, z->page, PROT_READ | PROT_WRITE);
		memcpy(z->ro, c->img, len);
		mprotect(z->ro, z->page, PROT_READ);
		c->arg = z->ro;
		break;
	case AT_RO_SPLIT:
		mprotect(z->ro, z->page, PROT_READ | PROT_WRITE);
		c->arg = z->ro - 8;
		memcpy(c->arg, c->img, len);
		mprotect(z->ro, z->page, PROT_READ);
		break;
	case AT_TAIL_UNMAPPED:
		c->arg = z->none - c->d->ksize;
		memcpy(c->arg, c->img, c->d->ksize);
		break;
	case AT_STRADDLE:
		c->arg = z->none - sizeof(__u32);
		memcpy(c->arg, c->img, sizeof(__u32));
		break;
	case AT_NULL:
		c->arg = NULL;
		break;
	default:
		c->arg = (unsigned char *)(unsigned long)bad_uptr(z);
		break;
	}
}

/* One call of an ioctl of the table: valid, one thing corrupted, or random. */
static void fuzz_ioctl(struct fz *z, const struct ioc *d)
{
	static struct call call;
	struct call *c = &call;
	struct vnpu_prof_stats st0, st1;
	unsigned int mode = rnd(z, 100), r;
	int ret, err = 0, readable;
	size_t k = d->ksize;
	__u32 size32;

	memset(c, 0, sizeof(*c));
	c->d = d;
	c->f = pick_file(z);
	if (!c->f)
		return;
	/* mostly the owner of a session, for a stop that can work */
	if (d->op == OP_PROF_STOP && chance(z, 70)) {
		for (int i = 0; i < MAX_FILES; i++)
			if (z->f[i].fd >= 0 && z->f[i].active)
				c->f = &z->f[i];
	}
	c->valid = 1;
	c->usize = k;
	c->cmd = d->cmd;
	snprintf(c->what, sizeof(c->what), "valid");

	if (mode < 50) {
		/* valid: only what the contract allows to vary */
		if (d->build(z, c, 0) < 0)
			return;
		/* (other size bits are another number: fuzz_badcmd's -ENOTTY) */
		r = rnd(z, 20);
		if (r == 1) /* the upper half of a 64-bit command is not the command */
			c->cmd |= (unsigned long)(1 + rnd(z, 0xffff)) << 32;
		else if (r == 2)
			c->usize = k + 8 * (1 + rnd(z, 4)); /* a zero tail */
		else if (r == 3)
			c->usize = z->page;
		c->where = chance(z, 90) ? AT_OK : chance(z, 50) ? AT_MISALIGNED : AT_END;
		if (!d->writes_back && chance(z, 5))
			c->where = chance(z, 50) ? AT_RO : AT_RO_SPLIT;
	} else if (mode < 88) {
		/* one thing corrupted */
		int done = d->build(z, c, 1);

		if (done < 0)
			return;
		c->where = AT_OK;
		if (!done) {
			c->valid = 0;
			r = rnd(z, 10);
			if (r < 3) {
				pick_size(z, c);
			} else if (r < 5) {
				pick_place(z, c);
			} else {
				const struct field *fl = &d->fields[rnd(z, d->nfields)];

				if (d->op == OP_SUBMIT)
					mutate_submit_field(z, c, fl);
				else
					mutate_field(z, c, c->img, fl, d->flags_ok);
			}
		} else {
			c->valid = 0;
		}
	} else {
		/* random bytes, a random @size, mostly in read-write memory */
		size_t n = 4 + rnd(z, z->page - 4);

		if (d->build(z, c, 0) < 0)
			return;
		c->valid = 0;
		if (chance(z, 50)) {
			for (size_t i = 4; i < n; i++)
				c->img[i] = rnd(z, 256);
		} else {
			for (unsigned int i = 1 + rnd(z, 4); i; i--)
				c->img[4 + rnd(z, k - 4)] = rnd_value(z);
		}
		if (d->op == OP_SUBMIT) {
			/* the kernel writes ids there: never at a random address of ours */
			struct vnpu_submit *sub = (void *)c->img;

			if (chance(z, 50))
				sub->tasks = (unsigned long)z->tasks;
			sub->task_ids = chance(z, 50) ? 0
					: chance(z, 50)
						? (unsigned long)(z->ids_end - VNPU_MAX_SUBMIT)
						: bad_uptr(z);
			c->ids = NULL;
		}
		if (chance(z, 50))
			pick_size(z, c);
		else if (chance(z, 50))
			c->usize = n;
		c->where = chance(z, 80) ? AT_OK : (enum place)rnd(z, AT_BAD + 1);
		if (c->where > AT_TAIL_UNMAPPED ||
		    ((c->where == AT_RO || c->where == AT_RO_SPLIT) && d->writes_back) ||
		    (c->where == AT_TAIL_UNMAPPED && c->usize > k))
			c->must_fail = 1;
		if (c->usize < k || c->usize > z->page)
			c->must_fail = 1;
		snprintf(c->what, sizeof(c->what), "random bytes, size %zu", c->usize);
	}

	size32 = c->usize;
	c->usize = size32; /* what the kernel sees */
	memcpy(c->img, &size32, sizeof(size32));
	c->len = size32 > k ? size32 : k;
	if (c->len > z->page)
		c->len = k;
	place(z, c);
	snprintf(z->sh->cur, sizeof(z->sh->cur),
		 "#%lu %s fd %d (dev %u) cmd %#lx size %u at %s (%p): %s", z->sh->iter, d->name,
		 c->f->fd, c->f->dev, c->cmd, size32, place_name(c->where), (void *)c->arg,
		 c->what);

	/* an unwritable structure fails before the session exists (docs/ring.md) */
	if (d->op == OP_PROF_START && (c->where == AT_RO || c->where == AT_RO_SPLIT) &&
	    vnpu_prof_stats(c->f->fd, &st0))
		st0.session_id = ~0u;
	if (d->op == OP_DESTROY || d->op == OP_SYNC || d->op == OP_SUBMIT)
		arm();
	ret = ioctl(c->f->fd, c->cmd, c->arg);
	if (ret)
		err = errno;
	if (d->op == OP_DESTROY || d->op == OP_SYNC || d->op == OP_SUBMIT)
		disarm();
	if (ret && !err)
		err = EIO;
	check_errno(z, d->op, err, d->doc, d->state, c->valid, c->must_fail);
	if (d->op == OP_PROF_START && (c->where == AT_RO || c->where == AT_RO_SPLIT) && err &&
	    st0.session_id != ~0u &&
	    (vnpu_prof_stats(c->f->fd, &st1) || st1.session_id != st0.session_id))
		problem(z, d->op, 0, "a failed PROF_START changed the session (%u -> %u): %s",
			st0.session_id, st1.session_id, z->sh->cur);

	/* a success where only the kernel's bytes are there is possible too */
	readable = c->where <= AT_TAIL_UNMAPPED;
	if (!err && readable)
		d->done(z, c);

	/* what the kernel wrote, in memory it could write */
	if (c->where > AT_END)
		return;
	if (!err && d->writes_back) {
		__u32 out;

		memcpy(&out, c->arg, sizeof(out));
		if (out != k)
			problem(z, d->op, 0, "@size %u on return: %s", out, z->sh->cur);
		for (size_t i = k; i < c->len; i++) {
			if (c->arg[i]) {
				problem(z, d->op, 0, "tail byte %zu written: %s", i, z->sh->cur);
				break;
			}
		}
	} else if (err != EFAULT && memcmp(c->arg, c->img, c->len)) {
		problem(z, d->op, 0, "%s changed the structure: %s", err ? "a rejected call" : "",
			z->sh->cur);
	}
	for (size_t i = 0; c->canary && i < CANARY_LEN; i++) {
		if (c->arg[c->len + i] != CANARY) {
			problem(z, d->op, 0, "written past the caller's size (+%zu): %s", i,
				z->sh->cur);
			break;
		}
	}
}

/* Leave the communicators of @f that no queued collective uses any more. */
static void comms_trim(struct fz *z, struct ffile *f)
{
	for (unsigned int id = 1; id <= 16; id++) {
		struct vnpu_comm_destroy cd = { .size = sizeof(cd), .comm_id = id };

		if (!(f->comms & 1u << (id - 1)))
			continue;
		if (!ioctl(f->fd, VNPU_IOC_COMM_DESTROY, &cd) || errno == ENOENT)
			f->comms &= ~(1u << (id - 1));
		else if (errno != EBUSY)
			problem(z, OP_SUBMIT, 1, "COMM_DESTROY %u: %s: %s", id, strerror(errno),
				z->sh->cur);
	}
}

/* A communicator of the files @fs (rank i: fs[i]); 0, or -1 without room. */
static int comms_make(struct fz *z, struct ffile **fs, unsigned int n, __u32 *ids)
{
	struct vnpu_comm_init ci = { .size = sizeof(ci), .flags = VNPU_COMM_F_CREATE, .nranks = n };

	for (unsigned int i = 0; i < n; i++) {
		ci.rank = i;
		if (ioctl(fs[i]->fd, VNPU_IOC_COMM_INIT, &ci)) {
			if (errno != EMFILE)
				problem(z, OP_SUBMIT, 1, "COMM_INIT rank %u of %u: %s: %s", i, n,
					strerror(errno), z->sh->cur);
			return -1;
		}
		ids[i] = ci.comm_id;
		fs[i]->comms |= 1u << (ci.comm_id - 1);
		ci.flags = 0;
	}
	return 0;
}

/*
 * A collective: the same task on a stream of a file on each device of a
 * new communicator of those files.
 */
static void fuzz_collective(struct fz *z)
{
	struct ffile *fs[MAX_DEVS];
	unsigned int n = 0, want = 2 + rnd(z, z->nuse - 1);
	__u32 mask = 0, tag = ++z->comm_tag, ids[MAX_DEVS];
	int skip_last = chance(z, 10);
	struct vnpu_task t;

	if (z->nuse < 2)
		return;
	for (unsigned int dev = rnd(z, z->nuse), k = 0; k < z->nuse && n < want;
	     k++, dev = (dev + 1) % z->nuse) {
		struct ffile *f = file_on(z, dev);

		if (f && f->streams &&
		    (!n || z->info[dev].product == z->info[fs[0]->dev].product)) {
			fs[n++] = f;
			mask |= 1u << dev;
		}
	}
	if (n < 2)
		return;
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu communicator of %#x", z->sh->iter, mask);
	for (unsigned int i = 0; i < n; i++)
		comms_trim(z, fs[i]);
	if (comms_make(z, fs, n, ids))
		return;
	for (unsigned int i = 0; i < n - (skip_last ? 1 : 0); i++) {
		struct vnpu_submit sub = { .size = sizeof(sub),
					   .count = 1,
					   .task_size = sizeof(t) };
		int ret, err = 0;

		make_task(z, &t, fs[i]->dev, pick_stream(z, fs[i]), ids[i], tag);
		/* a peer of the group: another rank for Send/Recv, any for a root */
		if (t.comm_op == VNPU_COMM_SEND || t.comm_op == VNPU_COMM_RECV)
			t.comm_peer = (i + 1 + rnd(z, n - 1)) % n;
		else if (t.comm_op == VNPU_COMM_BROADCAST)
			t.comm_peer = rnd(z, n);
		sub.tasks = (unsigned long)&t;
		snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu collective %#x tag %u on dev %u",
			 z->sh->iter, mask, tag, fs[i]->dev);
		arm();
		ret = ioctl(fs[i]->fd, VNPU_IOC_SUBMIT, &sub);
		if (ret)
			err = errno;
		disarm();
		check_errno(z, OP_SUBMIT, err, doc_submit, st_submit, 1, 0);
	}
}

/* A command the driver must not take for one of its own. */
static void fuzz_badcmd(struct fz *z)
{
	struct ffile *f = pick_file(z);
	static const unsigned int vfs_types[] = { 0, 'T', 'X', 'f', 0x94, VNPU_IOC_MAGIC };
	unsigned int type, dir, nr, size;
	const struct ioc *d;
	unsigned long cmd;
	void *arg;
	int ret, err = 0, vfs;

	if (!f)
		return;
	type = VNPU_IOC_MAGIC;
	dir = _IOC_READ | _IOC_WRITE;
	nr = iocs[rnd(z, ARRAY_SIZE(iocs))].nr;
	size = rnd(z, 0x4000);
	switch (rnd(z, 4)) {
	case 0:
		type = rnd(z, 256);
		break;
	case 1:
		dir = rnd(z, 3); /* none, write, read */
		break;
	case 2:
		do
			nr = rnd(z, 256);
		while (ioc_by_nr(nr));
		break;
	default:
		cmd = rnd64(z);
		type = _IOC_TYPE(cmd);
		dir = _IOC_DIR(cmd);
		nr = _IOC_NR(cmd);
		size = _IOC_SIZE(cmd);
		break;
	}
	/* the kernel's own file ioctls (FIOCLEX, FIGETBSZ, FICLONE...) are not ours */
	vfs = 0;
	for (size_t i = 0; i < ARRAY_SIZE(vfs_types) - 1; i++)
		vfs |= type == vfs_types[i];
	if (vfs)
		type = 'W';
	cmd = _IOC(dir, type, nr, size);
	/* only the header's whole numbers are the driver's */
	d = ioc_by_nr(nr);
	if (d && (unsigned int)d->cmd != (unsigned int)cmd)
		d = NULL;

	arg = z->arena;
	if (chance(z, 30)) {
		arg = (void *)(unsigned long)bad_uptr(z);
	} else {
		for (size_t i = 0; i < 256; i++)
			z->arena[i] = chance(z, 70) ? 0 : rnd(z, 256);
		/* a submit writes ids at @task_ids: not at a random address of ours */
		if (d && d->op == OP_SUBMIT)
			memset(z->arena + offsetof(struct vnpu_submit, task_ids), 0, sizeof(__u64));
	}
	snprintf(z->sh->cur, sizeof(z->sh->cur),
		 "#%lu ioctl cmd %#lx (type %#x dir %u nr %#x) arg %p", z->sh->iter, cmd, type, dir,
		 nr, arg);
	if (d)
		arm();
	ret = ioctl(f->fd, cmd, arg);
	if (ret)
		err = errno;
	if (d)
		disarm();
	if (d)
		check_errno(z, OP_BADCMD, err, d->doc, NULL, 0, 0);
	else
		check_errno(z, OP_BADCMD, err, doc_notty, NULL, 0, 1);
	/* random bytes that a handler took: what we believe of the file is stale */
	if (d && !err) {
		for (int i = 0; i < MAX_FILES; i++) {
			if (z->f[i].fd >= 0 && z->f[i].desc == f->desc) {
				z->f[i].ring_pages = 0;
				z->f[i].active = d->op == OP_PROF_START || z->f[i].active;
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* The mapping, poll, read/write, files                                 */
/* ------------------------------------------------------------------ */

/* mmap(2) and docs/ring.md */
static const int doc_mmap[] = { EINVAL, EPERM, ENODEV, EACCES, ENOMEM, EOVERFLOW, EOPNOTSUPP, 0 };
static const int st_mmap[] = { ENODEV, ENOMEM, 0 };
static const int doc_munmap[] = { EINVAL, 0 };
static const int doc_mprotect[] = { EACCES, EINVAL, ENOMEM, 0 };
static const int doc_mremap[] = { EAGAIN, EFAULT, EINVAL, ENOMEM, 0 };
/* ENOSYS: a kernel built without CONFIG_ADVISE_SYSCALLS (the debug kernel) */
static const int doc_madvise[] = { EACCES, EAGAIN, EBADF,  EFAULT, EINVAL,
				   EIO,	   ENOMEM, ENOSYS, EPERM,  0 };
static const int doc_poll[] = { EFAULT, EINTR, EINVAL, ENOMEM, 0 };
/* no read or write (EINVAL), not seekable (ESPIPE), and the access mode (EBADF) */
static const int doc_rw[] = { EINVAL, ESPIPE, EBADF, 0 };
static const int doc_open[] = { ENOMEM, 0 };

static struct fmap *pick_map(struct fz *z)
{
	unsigned int i = rnd(z, MAX_MAPS);

	for (unsigned int k = 0; k < MAX_MAPS; k++, i = (i + 1) % MAX_MAPS)
		if (z->m[i].addr)
			return &z->m[i];
	return NULL;
}

static void touch(struct fz *z, struct fmap *m)
{
	volatile unsigned char *p = m->addr;
	size_t off = rnd(z, m->len / z->page) * z->page;

	if (!m->touch)
		return;
	z->sh->touches++;
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu touch %p + %zu of a map of %zu (page %lu)",
		 z->sh->iter, (void *)m->addr, off, m->len, m->pgoff);
	(void)p[off + rnd(z, z->page)];
	if (m->pgoff == 0 && ((const struct vnpu_ring_ctrl *)m->addr)->magic != VNPU_RING_MAGIC)
		problem(z, OP_MMAP, 0, "the control page has no magic: #%lu", z->sh->iter);
	/* a channel's consumer position: behind, ahead, random, or plausible */
	if (m->pgoff == 1 && (m->prot & PROT_WRITE)) {
		__u64 *cons =
			(__u64 *)(m->addr + VNPU_RING_CHAN_CONS_OFFSET(rnd(z, VNPU_CH_COUNT)));

		__atomic_store_n(cons, chance(z, 50) ? rnd_value(z) : *cons + 8 * rnd(z, 64),
				 __ATOMIC_RELEASE);
	}
}

static void fuzz_mmap(struct fz *z)
{
	struct ffile *f = pick_file(z);
	size_t P = z->page;
	unsigned long total, pgoff, npages;
	unsigned long long off;
	int prot, flags, must_fail = 0, valid, err = 0;
	struct fmap *m = NULL;
	void *p;

	if (!f)
		return;
	total = f->ring_pages ? 2 + 2ul * f->ring_pages : 2 + 2ul * (1u << rnd(z, 5));
	switch (rnd(z, 10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		pgoff = 0;
		break;
	case 4:
	case 5:
		pgoff = 1;
		break;
	case 6:
		pgoff = 2;
		break;
	case 7:
		pgoff = total;
		break;
	case 8:
		pgoff = chance(z, 50) ? 1ul << 35 : (1ull << 52) - 1;
		break;
	default:
		pgoff = rnd(z, total + 2);
		break;
	}
	switch (rnd(z, 10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		npages = pgoff < total ? total - pgoff : 1;
		break;
	case 4:
	case 5:
		npages = 1;
		break;
	case 6:
		npages = 0;
		break;
	case 7:
		npages = total + 1;
		break;
	default:
		npages = 1 + rnd(z, total);
		break;
	}
	switch (rnd(z, 20)) {
	case 0:
	case 1:
	case 2:
		prot = PROT_READ | PROT_WRITE;
		break;
	case 3:
		prot = PROT_WRITE;
		break;
	case 4:
		prot = PROT_NONE;
		break;
	case 5:
		prot = PROT_READ | PROT_EXEC;
		break;
	default:
		prot = PROT_READ;
		break;
	}
	flags = chance(z, 85) ? MAP_SHARED : MAP_PRIVATE;
	if (chance(z, 5)) {
		/* unknown to mmap (no MAP_FIXED*: nothing may land on our memory) */
		static const int bits[] = { MAP_SYNC, 1 << 21, 1 << 22, 1 << 23, 1 << 24, 1 << 25 };

		flags = MAP_SHARED_VALIDATE | (chance(z, 50) ? 0 : bits[rnd(z, ARRAY_SIZE(bits))]);
	}
	if (chance(z, 5))
		flags |= MAP_POPULATE;
	off = (unsigned long long)pgoff * P;
	if (chance(z, 3)) {
		off += 1 + rnd(z, P - 1);
		must_fail = 1;
	}
	if (!npages || ((prot & PROT_WRITE) && !(pgoff == 1 && npages == 1)) || f->acc == O_WRONLY)
		must_fail = 1;
	/* a writable consumer page must be shared */
	if ((prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE)
		must_fail = 1;
	valid = !must_fail && f->ring_pages && pgoff + npages <= total && prot == PROT_READ &&
		(flags & MAP_TYPE) == MAP_SHARED;
	snprintf(z->sh->cur, sizeof(z->sh->cur),
		 "#%lu mmap fd %d (dev %u, ring %u pages) off %#llx len %lu pages prot %#x flags "
		 "%#x",
		 z->sh->iter, f->fd, f->dev, f->ring_pages, off, npages, prot, flags);
	p = mmap(NULL, npages * P, prot, flags, f->fd, off);
	if (p == MAP_FAILED)
		err = errno;
	check_errno(z, OP_MMAP, err, doc_mmap, st_mmap, valid, must_fail);
	if (err)
		return;
	for (int i = 0; i < MAX_MAPS && !m; i++)
		if (!z->m[i].addr)
			m = &z->m[i];
	if (!m) {
		munmap(p, npages * P);
		return;
	}
	m->addr = p;
	m->len = npages * P;
	m->pgoff = pgoff;
	m->prot = prot;
	m->touch = (prot & PROT_READ) != 0;
	touch(z, m);
}

static void fuzz_munmap(struct fz *z)
{
	struct fmap *m = pick_map(z);
	size_t P = z->page, n;
	int err = 0, must_fail = 0, head = 0;
	unsigned char *a;

	if (!m)
		return;
	n = m->len;
	a = m->addr;
	switch (rnd(z, 10)) {
	case 0: /* the first page */
		if (m->len > P) {
			n = P;
			head = 1;
		}
		break;
	case 1: /* the last page */
		if (m->len > P) {
			a = m->addr + m->len - P;
			n = P;
		}
		break;
	case 2: /* misaligned */
		a = m->addr + 1 + rnd(z, P - 1);
		must_fail = 1;
		break;
	default:
		break;
	}
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu munmap %p + %zu of a map of %zu",
		 z->sh->iter, (void *)a, n, m->len);
	if (munmap(a, n))
		err = errno;
	check_errno(z, OP_MUNMAP, err, doc_munmap, NULL, 0, must_fail);
	if (err)
		return;
	if (n == m->len) {
		m->addr = NULL;
		return;
	}
	m->len -= n;
	if (head) {
		m->addr += P;
		m->pgoff++;
	}
}

static void fuzz_mprotect(struct fz *z)
{
	static const int prots[] = { PROT_READ,	 PROT_READ | PROT_WRITE,
				     PROT_NONE,	 PROT_READ | PROT_EXEC,
				     PROT_WRITE, PROT_READ };
	struct fmap *m = pick_map(z);
	int prot = prots[rnd(z, ARRAY_SIZE(prots))], err = 0, must_fail;

	if (!m)
		return;
	/* only the consumer page, mapped alone, may ever be writable */
	must_fail = (prot & PROT_WRITE) && !(m->pgoff == 1 && m->len == z->page);
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu mprotect %p + %zu (page %lu) prot %#x",
		 z->sh->iter, (void *)m->addr, m->len, m->pgoff, prot);
	if (mprotect(m->addr, m->len, prot))
		err = errno;
	check_errno(z, OP_MPROTECT, err, doc_mprotect, NULL, 0, must_fail);
	if (!err) {
		m->prot = prot;
		if (!(prot & PROT_READ))
			m->touch = 0;
	}
}

static void fuzz_mremap(struct fz *z)
{
	struct fmap *m = pick_map(z);
	size_t P = z->page, nlen = 0;
	int flags = 0, err = 0, must_fail = 0;
	void *p;

	if (!m)
		return;
	switch (rnd(z, 5)) {
	case 0: /* shrink */
		nlen = m->len > P ? m->len - P * (1 + rnd(z, m->len / P - 1)) : m->len;
		break;
	case 1: /* grow in place */
		nlen = m->len + P;
		must_fail = 1;
		break;
	case 2: /* grow, moving */
		nlen = m->len + P * (1 + rnd(z, 4));
		flags = MREMAP_MAYMOVE;
		must_fail = 1;
		break;
	case 3: /* move if it must */
		nlen = m->len;
		flags = MREMAP_MAYMOVE;
		break;
	default: /* keep a copy */
		nlen = m->len;
		flags = MREMAP_MAYMOVE | MREMAP_DONTUNMAP;
		must_fail = 1;
		break;
	}
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu mremap %p %zu -> %zu flags %#x", z->sh->iter,
		 (void *)m->addr, m->len, nlen, flags);
	p = mremap(m->addr, m->len, nlen, flags);
	if (p == MAP_FAILED)
		err = errno;
	check_errno(z, OP_MREMAP, err, doc_mremap, NULL, 0, must_fail);
	if (err)
		return;
	if (flags & MREMAP_DONTUNMAP) {
		/* the old range stays mapped: forget the copy */
		munmap(p, nlen);
		return;
	}
	m->addr = p;
	m->len = nlen;
}

static void fuzz_madvise(struct fz *z)
{
	static const int advice[] = {
		MADV_NORMAL,	MADV_RANDOM,   MADV_SEQUENTIAL,	   MADV_WILLNEED,
		MADV_DONTNEED,	MADV_FREE,     MADV_DONTFORK,	   MADV_DOFORK,
		MADV_DONTDUMP,	MADV_DODUMP,   MADV_COLD,	   MADV_PAGEOUT,
		MADV_MERGEABLE, MADV_HUGEPAGE, MADV_POPULATE_READ, MADV_POPULATE_WRITE,
	};
	struct fmap *m = pick_map(z);
	int adv = advice[rnd(z, ARRAY_SIZE(advice))], err = 0;

	if (!m)
		return;
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu madvise %p + %zu (page %lu) advice %d",
		 z->sh->iter, (void *)m->addr, m->len, m->pgoff, adv);
	if (madvise(m->addr, m->len, adv))
		err = errno;
	check_errno(z, OP_MADVISE, err, doc_madvise, NULL, 0, 0);
	/* pages dropped from the mapping are not faulted back: SIGBUS */
	if (!err &&
	    (adv == MADV_DONTNEED || adv == MADV_FREE || adv == MADV_COLD || adv == MADV_PAGEOUT))
		m->touch = 0;
}

static void fuzz_poll(struct fz *z)
{
	static const short events[] = { POLLIN, POLLIN | POLLRDNORM, POLLOUT, POLLPRI,
					POLLIN | POLLOUT | POLLPRI | POLLRDHUP };
	struct pollfd pfd[3];
	unsigned int n = 1 + rnd(z, 3);
	int ret, err = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct ffile *f = pick_file(z);

		if (!f)
			return;
		pfd[i].fd = f->fd;
		pfd[i].events = events[rnd(z, ARRAY_SIZE(events))];
		pfd[i].revents = 0;
	}
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu poll %u fds (first %d)", z->sh->iter, n,
		 pfd[0].fd);
	if (chance(z, 30)) {
		struct timespec ts = { 0, 1000000 * rnd(z, 3) };

		ret = ppoll(pfd, n, &ts, NULL);
	} else {
		ret = poll(pfd, n, chance(z, 80) ? 0 : 1 + rnd(z, 3));
	}
	if (ret < 0)
		err = errno;
	check_errno(z, OP_POLL, err, doc_poll, NULL, 0, 0);
	for (unsigned int i = 0; !err && i < n; i++)
		if (pfd[i].revents & ~(POLLIN | POLLRDNORM | POLLHUP | POLLERR))
			problem(z, OP_POLL, 0, "poll revents %#x: %s", pfd[i].revents, z->sh->cur);
}

static void fuzz_rw(struct fz *z)
{
	struct ffile *f = pick_file(z);
	size_t n = rnd(z, 64);
	ssize_t ret;
	int what = rnd(z, 5), err = 0;

	if (!f)
		return;
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu %s fd %d (mode %d) %zu bytes", z->sh->iter,
		 (const char *[]){ "read", "write", "lseek", "pread", "pwrite" }[what], f->fd,
		 f->acc, n);
	switch (what) {
	case 0:
		ret = read(f->fd, z->arena, n);
		break;
	case 1:
		ret = write(f->fd, z->arena, n);
		break;
	case 2:
		ret = lseek(f->fd, rnd(z, 4096), rnd(z, 3));
		break;
	case 3:
		ret = pread(f->fd, z->arena, n, rnd(z, 4096));
		break;
	default:
		ret = pwrite(f->fd, z->arena, n, rnd(z, 4096));
		break;
	}
	if (ret < 0)
		err = errno;
	check_errno(z, OP_RW, err, doc_rw, NULL, 0, 1);
}

static void file_close(struct fz *z, struct ffile *f)
{
	close(f->fd);
	f->fd = -1;
	f->streams = 0;
	f->ring_pages = 0;
	f->active = 0;
	f->comms = 0;
}

/* Open, reopen, dup or close a file. */
static void fuzz_open(struct fz *z)
{
	static const int modes[] = { O_RDWR, O_RDWR, O_RDWR, O_RDWR, O_RDONLY, O_WRONLY };
	struct ffile *f = &z->f[rnd(z, MAX_FILES)], *src = pick_file(z);
	unsigned int r = rnd(z, 10);
	int fd, err = 0;

	if (f->fd >= 0)
		file_close(z, f);
	if (r == 0) /* closed for a while */
		return;
	if (r == 1 && src && src != f) {
		snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu dup fd %d", z->sh->iter, src->fd);
		fd = fcntl(src->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0) {
			check_errno(z, OP_OPEN, errno, doc_open, NULL, 0, 0);
			return;
		}
		account(z, OP_OPEN, 0);
		*f = *src;
		f->fd = fd;
		return;
	}
	f->dev = rnd(z, z->nuse);
	f->acc = modes[rnd(z, ARRAY_SIZE(modes))];
	snprintf(z->sh->cur, sizeof(z->sh->cur), "#%lu open /dev/vnpu%u mode %d", z->sh->iter,
		 f->dev, f->acc);
	fd = vnpu_open_dev(f->dev, f->acc | (chance(z, 20) ? O_NONBLOCK : 0));
	if (fd < 0)
		err = errno;
	check_errno(z, OP_OPEN, err, doc_open, NULL, 0, 0);
	if (fd < 0)
		return;
	f->fd = fd;
	f->desc = ++z->next_desc;
}

/* ------------------------------------------------------------------ */
/* The loop                                                             */
/* ------------------------------------------------------------------ */

static int fz_setup(struct fz *z)
{
	size_t P = z->page;
	unsigned char *p;

	p = mmap(NULL, (RW_PAGES + 3) * P, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (p == MAP_FAILED)
		return -1;
	z->arena = p;
	z->none = p + RW_PAGES * P;
	z->ro = z->none + 2 * P;
	if (mprotect(z->none, P, PROT_NONE) || mprotect(z->ro, P, PROT_READ))
		return -1;

	p = mmap(NULL, (VNPU_MAX_SUBMIT + 1) * P, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	z->tasks = p;
	z->tasks_end = p + VNPU_MAX_SUBMIT * P;
	if (mprotect(z->tasks_end, P, PROT_NONE))
		return -1;

	/* a spare page, the ids, an inaccessible page */
	p = mmap(NULL, VNPU_MAX_SUBMIT * sizeof(__u64) + 2 * P, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	z->ids_map = p;
	z->ids_end = (__u64 *)(p + P + VNPU_MAX_SUBMIT * sizeof(__u64));
	if (mprotect(z->ids_end, P, PROT_NONE))
		return -1;

	for (unsigned int dev = 0; dev < z->nuse; dev++) {
		struct vnpu_info in;
		int fd = vnpu_open_dev(dev, O_RDWR);

		if (fd < 0 || vnpu_get_info(fd, &in))
			return -1;
		close(fd);
		z->info[dev].caps = in.caps;
		z->info[dev].aiv_num = in.aiv_num;
		z->info[dev].metric_groups = in.metric_groups;
		z->info[dev].product = in.product;
	}
	for (int i = 0; i < MAX_FILES; i++) {
		struct ffile *f = &z->f[i];

		f->dev = i % z->nuse;
		f->acc = O_RDWR;
		f->fd = vnpu_open_dev(f->dev, O_RDWR);
		if (f->fd < 0)
			return -1;
		f->desc = ++z->next_desc;
	}
	return 0;
}

/* The fuzz loop, in the child: returns its exit status. */
static int fuzz_child(struct shared *sh, __u64 seed, unsigned long calls)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART: EINTR */
	static struct fz fz;
	struct fz *z = &fz;

	z->sh = sh;
	z->rng = seed;
	z->page = sysconf(_SC_PAGESIZE);
	z->ndev = vnpu_param_devices();
	z->nuse = z->ndev < MAX_DEVS ? z->ndev : MAX_DEVS;
	snprintf(sh->cur, sizeof(sh->cur), "setup");
	if (!z->nuse || z->page != PAGE_MAX || sigaction(SIGALRM, &sa, NULL))
		return 2;
	for (int i = 0; i < MAX_FILES; i++)
		z->f[i].fd = -1;
	if (fz_setup(z)) {
		snprintf(sh->cur, sizeof(sh->cur), "setup: %s", strerror(errno));
		return 3;
	}

	while (sh->calls < calls) {
		unsigned int r;

		/*
		 * Each step draws from its own stream: a timing-dependent result
		 * (EINTR, ETIMEDOUT) changes what the fuzzer believes, not the
		 * random numbers of the steps that follow.
		 */
		sh->iter++;
		z->rng = seed ^ sh->iter * 0xd1b54a32d192ed03ull;
		r = rnd(z, 1000);
		if (r < 50)
			fuzz_ioctl(z, &iocs[OP_INFO]);
		else if (r < 130)
			fuzz_ioctl(z, &iocs[OP_CREATE]);
		else if (r < 190)
			fuzz_ioctl(z, &iocs[OP_DESTROY]);
		else if (r < 450)
			fuzz_ioctl(z, &iocs[OP_SUBMIT]);
		else if (r < 570)
			fuzz_ioctl(z, &iocs[OP_SYNC]);
		else if (r < 620)
			fuzz_ioctl(z, &iocs[OP_PROF_START]);
		else if (r < 660)
			fuzz_ioctl(z, &iocs[OP_PROF_STOP]);
		else if (r < 700)
			fuzz_ioctl(z, &iocs[OP_PROF_STATS]);
		else if (r < 730)
			fuzz_collective(z);
		else if (r < 770)
			fuzz_badcmd(z);
		else if (r < 820)
			fuzz_mmap(z);
		else if (r < 845)
			fuzz_munmap(z);
		else if (r < 860)
			fuzz_mprotect(z);
		else if (r < 875)
			fuzz_mremap(z);
		else if (r < 890)
			fuzz_madvise(z);
		else if (r < 920) {
			struct fmap *m = pick_map(z);

			if (m)
				touch(z, m);
		} else if (r < 950)
			fuzz_poll(z);
		else if (r < 970)
			fuzz_rw(z);
		else
			fuzz_open(z);
	}

	snprintf(sh->cur, sizeof(sh->cur), "cleanup");
	for (int i = 0; i < MAX_MAPS; i++)
		if (z->m[i].addr)
			munmap(z->m[i].addr, z->m[i].len);
	for (int i = 0; i < MAX_FILES; i++)
		if (z->f[i].fd >= 0)
			close(z->f[i].fd);
	sh->finished = 1;
	return sh->problems ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* The tests                                                            */
/* ------------------------------------------------------------------ */

/* Wait for @pid until @deadline (seconds, vnpu_now_s()); -1 on timeout (then killed). */
static int wait_until(pid_t pid, double deadline, int *status)
{
	while (waitpid(pid, status, WNOHANG) == 0) {
		if (vnpu_now_s() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
		usleep(50000);
	}
	return 0;
}

/*
 * The device still runs a task, and the module unloads and loads again
 * (no file open anywhere, nothing leaked: the debug kernel's kmemleak and
 * the module's own count at unload check that).
 */
static void device_healthy(struct __test_metadata *_metadata)
{
	struct vnpu_sync sy;
	struct vnpu_info info;
	struct vnpu_task t;
	__u64 id = 0;
	int fd, s, ret = 0;

	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd, 0);
	s = vnpu_stream_new(fd);
	ASSERT_GE(s, 0);
	vnpu_task_init(&t, "Health_1", "Add", VNPU_TASK_AI_CORE, s, 1 << 20, 1 << 20);
	ASSERT_EQ(0, vnpu_submit_tasks(fd, &t, 1, &id));
	ASSERT_EQ(0, vnpu_sync_stream(fd, s, 0, 10000, &sy));
	EXPECT_EQ(id, sy.last_task_id);
	close(fd);

	if (!getenv("VNPU_KO")) {
		TH_LOG("VNPU_KO is not set (not run by the VM runner): the module stays loaded");
		return;
	}
	ret = vnpu_module_unload_settled();
	EXPECT_EQ(0, ret) TH_LOG("unload: %s", strerror(-ret));
	ASSERT_EQ(0, vnpu_module_restore());
	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, vnpu_get_info(fd, &info));
	close(fd);
}

FIXTURE(fuzz)
{
	int unused;
};

FIXTURE_SETUP(fuzz)
{
	ASSERT_GT(vnpu_param_devices(), 0);
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F_TIMEOUT(fuzz, ioctls, 3600)
{
	unsigned long calls = vnpu_stress_count(FUZZ_QUICK, FUZZ_FULL);
	unsigned long tot_ok = 0, tot_rej = 0, tot_undoc = 0, tot_viol = 0;
	double t0, secs, limit = vnpu_stress_mode() ? 3300 : 600;
	__u64 seed = vnpu_fuzz_seed(FUZZ_DEFAULT_SEED);
	struct shared *sh;
	int status = 0, hung;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	TH_LOG("seed %llu (VNPU_FUZZ_SEED=%llu replays it), %lu calls",
	       (unsigned long long)seed, (unsigned long long)seed, calls);

	fflush(stdout);
	fflush(stderr);
	t0 = vnpu_now_s();
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(fuzz_child(sh, seed, calls));
	hung = wait_until(pid, t0 + limit, &status);
	secs = vnpu_now_s() - t0;

	for (int op = 0; op < OP_COUNT; op++) {
		struct opstat *s = &sh->op[op];
		char errs[512] = "";
		int off = 0;

		for (int e = 1; e < NERR; e++) {
			if (s->err[e] && off < (int)sizeof(errs) - 40)
				off += snprintf(errs + off, sizeof(errs) - off, " %s:%lu",
						strerrorname_np(e) ?: "?", s->err[e]);
		}
		vnpu_figure("fuzz", "op=%s calls=%lu ok=%lu rejected=%lu undocumented=%lu",
			    op_names[op], s->calls, s->ok, s->rejected, s->undocumented);
		if (off)
			printf("# fuzz: %s errors:%s\n", op_names[op], errs);
		tot_ok += s->ok;
		tot_rej += s->rejected;
		tot_undoc += s->undocumented;
		tot_viol += s->violations;
	}
	vnpu_figure("fuzz",
		    "calls=%lu ok=%lu rejected=%lu undocumented=%lu violations=%lu seconds=%.1f "
		    "calls_per_s=%.0f touches=%lu seed=%llu",
		    sh->calls, tot_ok, tot_rej, tot_undoc, tot_viol, secs,
		    secs > 0 ? sh->calls / secs : 0.0, sh->touches, (unsigned long long)seed);
	for (unsigned int i = 0; i < sh->nlog; i++)
		TH_LOG("%s", sh->log[i]);
	if (sh->problems > sh->nlog)
		TH_LOG("... and %lu more", sh->problems - sh->nlog);

	EXPECT_EQ(0, hung) TH_LOG("the fuzz loop hung for %.0f s; it was at: %s", limit, sh->cur);
	if (WIFSIGNALED(status)) {
		EXPECT_FALSE(WIFSIGNALED(status))
		TH_LOG("the fuzz loop died of signal %d (%s) at: %s", WTERMSIG(status),
		       strsignal(WTERMSIG(status)), sh->cur);
	} else {
		EXPECT_TRUE(WIFEXITED(status) && sh->finished)
		TH_LOG("the fuzz loop exited %d before its end at: %s", WEXITSTATUS(status),
		       sh->cur);
	}
	EXPECT_EQ(0, tot_undoc) TH_LOG("undocumented errnos (above)");
	EXPECT_EQ(0, tot_viol) TH_LOG("contract violations (above)");
	EXPECT_GE(sh->calls, calls);
	munmap(sh, sizeof(*sh));

	device_healthy(_metadata);
}

/* The tree: VNPU_TOP (the VM runner sets it), else four levels above this binary. */
static int top_dir(char *buf, size_t len)
{
	const char *top = getenv("VNPU_TOP");
	ssize_t n;

	if (top) {
		snprintf(buf, len, "%s", top);
		return 0;
	}
	n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (int i = 0; i < 4; i++) {
		char *slash = strrchr(buf, '/');

		if (!slash)
			return -1;
		*slash = 0;
	}
	return 0;
}

static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path)
		path = "/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/*
 * trinity on the device nodes only, as an unprivileged user, bounded in
 * syscalls and seconds (tools/stress/trinity.sh). Pass: no kernel report
 * (the VM runner scans dmesg), no taint, and the module unloads after it.
 */
TEST_F_TIMEOUT(fuzz, trinity, 3600)
{
	const char *dbg = getenv("VNPU_DEBUG_KERNEL");
	unsigned long count = vnpu_stress_count(20000, 2000000);
	/* KASAN and TCG: trinity needs some 30 s to start on the debug kernel */
	unsigned int secs = vnpu_stress_mode() ? 300 : dbg && strcmp(dbg, "1") == 0 ? 60 : 20;
	unsigned int devs = vnpu_param_devices();
	char top[PATH_MAX], script[PATH_MAX + 64], a_secs[16], a_count[24], a_seed[24], a_dev[8];
	int status = 0;
	pid_t pid;

	if (!in_path("trinity"))
		SKIP(return, "trinity is not installed (apt-get install trinity; tools/deps.sh)");
	if (geteuid() != 0)
		SKIP(return, "needs root (device nodes for an unprivileged user)");
	ASSERT_EQ(0, top_dir(top, sizeof(top)));
	snprintf(script, sizeof(script), "%s/tools/stress/trinity.sh", top);
	ASSERT_EQ(0, access(script, R_OK)) TH_LOG("no %s", script);
	snprintf(a_secs, sizeof(a_secs), "%u", secs);
	snprintf(a_count, sizeof(a_count), "%lu", count);
	snprintf(a_seed, sizeof(a_seed), "%llu",
		 (unsigned long long)vnpu_fuzz_seed(FUZZ_DEFAULT_SEED));
	snprintf(a_dev, sizeof(a_dev), "%u", devs < 2 ? devs : 2);

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		execl("/bin/bash", "bash", script, "-t", a_secs, "-n", a_count, "-s", a_seed, "-d",
		      a_dev, (char *)NULL);
		_exit(127);
	}
	if (wait_until(pid, vnpu_now_s() + secs + 180, &status))
		TH_LOG("trinity.sh did not end within %u s", secs + 180);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		SKIP(return, "tools/stress/trinity.sh could not run trinity (above)");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
	TH_LOG("tools/stress/trinity.sh failed (status %#x)", status);

	device_healthy(_metadata);
}

TEST_HARNESS_MAIN
