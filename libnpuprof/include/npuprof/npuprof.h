/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: drive virtual NPUs (/dev/vnpuN) and profile them.
 *
 * Two faces:
 *  - a small runtime: open a device, create streams, launch operators
 *    (with builders for common ones), synchronize;
 *  - the profiler: the C form of the Ascend TF adapter's
 *    Profiler(level="L0", aic_metrics="", output_path="") used in a `with`
 *    block, writing msprof-compatible output (see docs/libnpuprof.md).
 *
 * Conventions (as liburing's): calls return 0 (or a count) on success and
 * a negative errno on failure; calls that take a struct npuprof_error *
 * (NULL allowed) also fill it with a message naming the bad value.
 */
#ifndef NPUPROF_H
#define NPUPROF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vnpu.h"
#include "npuprof_error.h"
#include "npuprof_export.h"
#include "npuprof_nl.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ---- versions ----
 * The version this header belongs to; npuprof_version() and friends give
 * the library's at run time. The shared library's symbols are versioned
 * (LIBNPUPROF_0.1, LIBNPUPROF_0.2, ...): a program built against an older
 * libnpuprof keeps working with a newer one.
 */
#define NPUPROF_VERSION_MAJOR 0
#define NPUPROF_VERSION_MINOR 5
#define NPUPROF_VERSION_PATCH 0

unsigned int npuprof_major_version(void);
unsigned int npuprof_minor_version(void);
/* "MAJOR.MINOR.PATCH" */
const char *npuprof_version(void);

/*
 * ---- options structs ----
 * Every options struct starts with `size_t sz`, sizeof the struct as the
 * caller was compiled (libbpf's OPTS rules): the library reads only the
 * members the caller has, and refuses, with -E2BIG, a newer struct whose
 * members it does not know are set. NPUPROF_OPTS() declares one with sz
 * set and every other byte zero:
 *
 *	NPUPROF_OPTS(npuprof_export_opts, eo, .timestamp = "20261201120000");
 */
#define NPUPROF_OPTS(TYPE, NAME, ...)                                    \
	struct TYPE NAME = ({                                            \
		memset(&NAME, 0, sizeof(struct TYPE));                   \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ }; \
	})

/*
 * ---- messages ----
 * The library's own warnings and errors that no call returns (a failure
 * in the background reader, a global-profiling session at exit, an
 * export's warnings): NPUPROF_WARN lines start "npuprof: warning: ",
 * NPUPROF_ERROR ones "npuprof: error: "; each ends with a newline. By
 * default they go to stderr. npuprof_set_print() installs @fn instead
 * (NULL: print nothing) and returns the previous one; @fn may be called
 * from any thread, the library's reader threads included.
 */
enum npuprof_print_level {
	NPUPROF_WARN,
	NPUPROF_ERROR,
};

typedef int (*npuprof_print_fn)(enum npuprof_print_level level, const char *fmt, va_list ap);

npuprof_print_fn npuprof_set_print(npuprof_print_fn fn);

/* ---- runtime ---- */

/* An open virtual NPU. */
struct npuprof_dev;

/**
 * npuprof_open() - open /dev/vnpu@dev_id and make it the calling thread's
 * current device (the one a profiler scope profiles)
 * @dev_id: the N of /dev/vnpuN.
 * @devp: out: the device.
 * @err: filled on failure.
 *
 * Under global profiling (PROFILING_MODE=true), the device is profiled
 * from here until the process exits.
 *
 * Return: 0, -ENOENT (no such device), -EACCES, -ENOMEM.
 */
int npuprof_open(unsigned int dev_id, struct npuprof_dev **devp, struct npuprof_error *err);

/* Close @dev (pending work is dropped by the driver). NULL is a no-op. */
void npuprof_close(struct npuprof_dev *dev);

/* The N of /dev/vnpuN. */
unsigned int npuprof_dev_id(const struct npuprof_dev *dev);

/* The device's product facts (cached at open). */
const struct vnpu_info *npuprof_dev_info(const struct npuprof_dev *dev);

/* Make @dev the calling thread's current device. */
void npuprof_set_current(struct npuprof_dev *dev);

/* The calling thread's current device, or NULL. */
struct npuprof_dev *npuprof_current(void);

/* Create a stream; its id in *@stream. */
int npuprof_stream_create(struct npuprof_dev *dev, uint32_t *stream, struct npuprof_error *err);

/* Destroy a stream after its queued tasks ran. */
int npuprof_stream_destroy(struct npuprof_dev *dev, uint32_t stream, struct npuprof_error *err);

/**
 * npuprof_launch_stride() - queue @n tasks (all or nothing)
 * @dev: the device.
 * @tasks: the tasks (see the npuprof_op_* builders), @task_size bytes apart.
 * @n: 1 .. the device's vnpu_info.max_submit (4096).
 * @task_size: sizeof(struct vnpu_task) as the caller was compiled, at least
 *             VNPU_TASK_SIZE_VER0: a newer struct's members this device
 *             does not know must be zero (-E2BIG).
 * @ids: out: the task ids, or NULL.
 * @err: filled on failure (the driver's errno and the first bad task).
 */
int npuprof_launch_stride(struct npuprof_dev *dev, const void *tasks, unsigned int n,
			  size_t task_size, uint64_t *ids, struct npuprof_error *err);

/* npuprof_launch_stride() with this header's struct vnpu_task. */
static inline int npuprof_launch(struct npuprof_dev *dev, const struct vnpu_task *tasks,
				 unsigned int n, uint64_t *ids, struct npuprof_error *err)
{
	return npuprof_launch_stride(dev, tasks, n, sizeof(*tasks), ids, err);
}

/*
 * Wait until @stream is idle. Timeouts in libnpuprof are poll(2)'s, in
 * every call that has one: @timeout_ms < 0 waits forever, 0 does not wait,
 * N waits up to N ms; -ETIMEDOUT when it expires (at once for 0 unless
 * idle). -EINTR when a signal interrupts the wait.
 */
int npuprof_sync(struct npuprof_dev *dev, uint32_t stream, int timeout_ms,
		 struct npuprof_error *err);

/* Wait until every stream of @dev opened here is idle; @timeout_ms as above. */
int npuprof_sync_all(struct npuprof_dev *dev, int timeout_ms, struct npuprof_error *err);

/*
 * ---- operator builders: fill *@t for npuprof_launch() on @dev ----
 * @dev sizes the block count and picks the core type (element-wise ops go
 * to the AI Vector Cores where its product has them); NULL sizes them for
 * any product, on the AI Cores. They never read the thread's current device.
 */

/* C[m,n] = A[m,k] x B[k,n] on the cube (AI_CORE). */
int npuprof_op_matmul(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		      uint32_t stream, uint64_t m, uint64_t k, uint64_t n, enum vnpu_dtype dtype);

/* Element-wise ops on @ndims dims @dims (AI_VECTOR_CORE where there are
 * vector cores, else AI_CORE). */
int npuprof_op_add(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		   uint32_t stream, unsigned int ndims, const uint64_t *dims,
		   enum vnpu_dtype dtype);
int npuprof_op_mul(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		   uint32_t stream, unsigned int ndims, const uint64_t *dims,
		   enum vnpu_dtype dtype);
int npuprof_op_relu(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		    uint32_t stream, unsigned int ndims, const uint64_t *dims,
		    enum vnpu_dtype dtype);
/* Softmax and LayerNorm over the last dim. */
int npuprof_op_softmax(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		       uint32_t stream, unsigned int ndims, const uint64_t *dims,
		       enum vnpu_dtype dtype);
int npuprof_op_layernorm(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			 uint32_t stream, unsigned int ndims, const uint64_t *dims,
			 enum vnpu_dtype dtype);
/* NCHW input, [cout, cin, kh, kw] filter, stride 1, same padding. */
int npuprof_op_conv2d(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		      uint32_t stream, const uint64_t nchw[4], const uint64_t filter[4],
		      enum vnpu_dtype dtype);
/*
 * Collectives on communicator @comm (a handle of the device), of @elems
 * elements of @dtype per rank (AllGather: the gathered buffer;
 * ReduceScatter: the buffer it scatters), op types as GE names them
 * (HcomAllReduce, HcomAllGather, HcomReduceScatter, HcomBroadcast). @tag is
 * the caller's, carried into the records.
 */
int npuprof_op_allreduce(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			 uint32_t stream, uint32_t comm, uint32_t tag, uint64_t elems,
			 enum vnpu_dtype dtype);
int npuprof_op_allgather(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			 uint32_t stream, uint32_t comm, uint32_t tag, uint64_t elems,
			 enum vnpu_dtype dtype);
int npuprof_op_reducescatter(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			     uint32_t stream, uint32_t comm, uint32_t tag, uint64_t elems,
			     enum vnpu_dtype dtype);
/* @root: the rank whose buffer every rank ends with, the same on all. */
int npuprof_op_broadcast(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			 uint32_t stream, uint32_t comm, uint32_t tag, uint32_t root,
			 uint64_t elems, enum vnpu_dtype dtype);
/*
 * Point to point (HcomSend, HcomReceive): a Send to rank @dst meets the
 * Recv of @dst from this rank, the n-th Send of a pair the n-th Recv, of
 * the same size.
 */
int npuprof_op_send(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		    uint32_t stream, uint32_t comm, uint32_t tag, uint32_t dst, uint64_t elems,
		    enum vnpu_dtype dtype);
int npuprof_op_recv(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		    uint32_t stream, uint32_t comm, uint32_t tag, uint32_t src, uint64_t elems,
		    enum vnpu_dtype dtype);

/* ---- communicators (HCCL groups: libnpuprof/runtime/comm.c) ---- */

/**
 * struct npuprof_comm_key - what the ranks of a communicator join with,
 * as HCCL's root info is: whoever holds it can join while a rank is free
 */
struct npuprof_comm_key {
	uint8_t bytes[VNPU_COMM_KEY_LEN];
};

/* Characters of a key as text, NUL included. */
#define NPUPROF_COMM_KEY_STRLEN (2 * VNPU_COMM_KEY_LEN + 1)

/*
 * npuprof_comm_create(): make a communicator of @nranks ranks (2 .. 16),
 * join it as @rank from @dev, and get its new @key. npuprof_comm_join():
 * join the one @key names as @rank, from another device. Either gives the
 * handle in *@comm that COMMUNICATION tasks on @dev name. Every rank is on
 * its own device. npuprof_comm_destroy(): leave it (-EBUSY while a
 * collective of @dev is queued on it); the group is then broken, and the
 * other ranks' collectives on it complete at once. Closing the device
 * leaves every communicator it joined.
 */
int npuprof_comm_create(struct npuprof_dev *dev, uint32_t nranks, uint32_t rank,
			struct npuprof_comm_key *key, uint32_t *comm, struct npuprof_error *err);
int npuprof_comm_join(struct npuprof_dev *dev, const struct npuprof_comm_key *key, uint32_t nranks,
		      uint32_t rank, uint32_t *comm, struct npuprof_error *err);
int npuprof_comm_destroy(struct npuprof_dev *dev, uint32_t comm, struct npuprof_error *err);
/**
 * npuprof_comm_init_ranks() - join the communicator of every rank of a
 * multi-process job (HcclCommInitClusterInfo's role), from the
 * environment its launcher sets: RANK_ID and RANK_SIZE (HCCL's), and
 * NPUPROF_ROOT_INFO, a file the ranks share. Rank 0 creates the group and
 * writes its key there (mode 0600, atomically); the others wait for it,
 * up to @timeout_ms (poll(2)'s: negative waits forever), and join.
 * `npuprof run --ranks N` sets all three.
 * @dev: this rank's device.
 * @timeout_ms: how long a rank other than 0 waits for the key.
 * @comm: out: the handle.
 * @rank, @nranks: out, when not NULL: RANK_ID and RANK_SIZE.
 * @err: filled on failure: the variable, the file or the device.
 *
 * Return: 0; -EINVAL (a variable unset or out of range: RANK_SIZE 2..16,
 * RANK_ID below it), -ETIMEDOUT (no key in time), -EBADMSG (the file is
 * not a key), or what npuprof_comm_create() / _join() return.
 */
int npuprof_comm_init_ranks(struct npuprof_dev *dev, int timeout_ms, uint32_t *comm, uint32_t *rank,
			    uint32_t *nranks, struct npuprof_error *err);
/* The key as 64 hex digits (to pass in an environment variable), and back. */
void npuprof_comm_key_format(const struct npuprof_comm_key *key, char out[NPUPROF_COMM_KEY_STRLEN]);
int npuprof_comm_key_parse(const char *hex, struct npuprof_comm_key *key,
			   struct npuprof_error *err);

/* Bytes of one element of @dtype, 0 when unknown. */
unsigned int npuprof_dtype_size(enum vnpu_dtype dtype);

/* ---- the profiler ---- */

/**
 * struct npuprof_options - the TF adapter Profiler's options, same names
 * and defaults; declare with NPUPROF_OPTS(npuprof_options, name, ...)
 * @sz: sizeof(struct npuprof_options) (see "options structs" above).
 * @level: "L0" (default when NULL or ""), "L1" or "L2".
 * @aic_metrics: "" (default: none at L0, PipeUtilization at L1/L2) or one
 *               of ArithmeticUtilization, PipeUtilization, Memory,
 *               MemoryL0, MemoryUB, ResourceConflictRatio, L2Cache; an
 *               error at L0.
 * @output_path: "" (default: $ASCEND_WORK_PATH when set, else the current
 *               directory) or a directory, absolute or relative to the
 *               current one, that exists and that the user can read and
 *               write; no \n \f \r \b \t \v or \x7F in it.
 */
struct npuprof_options {
	size_t sz;
	const char *level;
	const char *aic_metrics;
	const char *output_path;
};

/**
 * npuprof_profiler_start() - start profiling the calling thread's current
 * device
 * @opts: the options (NULL for all defaults), @opts->sz set.
 * @err: filled on failure with the rule broken and the bad value.
 *
 * Return: 0; -EINVAL (a bad option value, or @opts->sz not set), -E2BIG
 * (@opts is newer than this library and sets a member it does not know), -ENOENT / -ENOTDIR /
 * -EACCES / -EROFS (output path), -EALREADY (nested), -EBUSY (active in another thread), -EPERM
 * (global profiling is configured), -EOPNOTSUPP (the product does not support the Profiler),
 * -ENODEV (no current device), or the errno of a failed system call (-ENOSPC: the raw files cannot
 * be written; no PROF_* folder is left).
 */
int npuprof_profiler_start(const struct npuprof_options *opts, struct npuprof_error *err);

/**
 * npuprof_profiler_stop() - stop, collect the rest, and write the output
 * @err: filled on failure.
 *
 * Return: 0; -ENOENT (not started), -EBUSY (started by another thread),
 * or the first failure of stopping, collecting and exporting: a raw write
 * error (-ENOSPC, -EIO...: the raw data keeps whole records and counts the
 * ones not written; it is not exported), -ENOENT (the PROF_* folder was
 * removed during the run), an export error. The message names the file.
 */
int npuprof_profiler_stop(struct npuprof_error *err);

/*
 * npuprof_profiler_dir() - copy the PROF_* folder of this process's running
 * or last Profiler session (else of its global profiling) into @buf, @len
 * bytes. Return: 0; -ENOENT (none yet: @buf is ""), -ERANGE (@buf too
 * small: truncated), -EINVAL (no @buf).
 */
int npuprof_profiler_dir(char *buf, size_t len);

/* ---- option values: the Profiler's rules, for tools that check first ---- */

/**
 * npuprof_level_parse() - a level name, as the Profiler's level option
 * @name: "L0", "L1" or "L2"; NULL is the Profiler's default, L0.
 * @level: out: its enum vnpu_prof_level.
 * @err: filled on failure with the Profiler's message.
 *
 * Return: 0, or -EINVAL (any other name, "" included, or @level NULL).
 */
int npuprof_level_parse(const char *name, uint32_t *level, struct npuprof_error *err);

/*
 * npuprof_level_name() - "L0", "L1" or "L2" for an enum vnpu_prof_level;
 * NULL for any other value.
 */
const char *npuprof_level_name(uint32_t level);

/**
 * npuprof_metrics_parse() - an aic_metrics name, as the Profiler's option
 * @name: one of the seven groups of struct npuprof_options.aic_metrics;
 *        NULL or "" for the default (VNPU_METRIC_NONE: none at L0, the
 *        product's default at L1/L2).
 * @level: the enum vnpu_prof_level it goes with: at L0 any name is an error.
 * @group: out: its enum vnpu_metric_group.
 * @err: filled on failure with the Profiler's message.
 *
 * Return: 0, or -EINVAL (a name at L0, an unknown name, @group NULL).
 */
int npuprof_metrics_parse(const char *name, uint32_t level, uint32_t *group,
			  struct npuprof_error *err);

/**
 * npuprof_metrics_parse_msprof() - an aic_metrics name, as msprof's
 * --aic-metrics (and global profiling's PROFILING_OPTIONS) takes it
 * @name: any group by its sample.json name (npuprof_metrics_name()): the
 *        Profiler's seven, PipelineExecuteUtilization and MemoryAccess;
 *        NULL or "" for the product's default.
 * @level: as npuprof_metrics_parse().
 * @group: out: its enum vnpu_metric_group.
 * @err: filled on failure, naming @name and the names taken.
 *
 * Whether the device's product supports the group is the device's to say
 * (-EOPNOTSUPP when its session starts).
 *
 * Return: 0, or -EINVAL (a name at L0, an unknown name, @group NULL).
 */
int npuprof_metrics_parse_msprof(const char *name, uint32_t level, uint32_t *group,
				 struct npuprof_error *err);

/*
 * npuprof_metrics_name() - the name of an enum vnpu_metric_group, as
 * sample.json writes it (every group, the two no Profiler key selects
 * included); NULL for VNPU_METRIC_NONE and unknown values.
 */
const char *npuprof_metrics_name(uint32_t group);

/**
 * npuprof_output_check() - check an output directory as the Profiler does
 * @path: the directory; NULL or "" for the Profiler's default
 *        ($ASCEND_WORK_PATH when set and not empty, else the current one).
 * @what: names @path in the messages (e.g. "--output"); NULL: "output_path".
 * @resolved: out: the absolute path, @len bytes at most with the NUL.
 * @len: room in @resolved (PATH_MAX always suffices).
 * @err: filled on failure; the message names the path and the rule.
 *
 * Return: 0; -ENOENT (missing), -ENOTDIR, -EACCES or -EROFS (not readable
 * and writable), -EINVAL (a control character: \n \f \r \b \t \v \x7F;
 * or no @resolved), -ENAMETOOLONG, -ERANGE (@resolved too small).
 */
int npuprof_output_check(const char *path, const char *what, char *resolved, size_t len,
			 struct npuprof_error *err);

/**
 * struct npuprof_scope - state of an NPUPROF_PROFILER block
 * @ret: 0, or why the profiler could not start or stop.
 * @err: the message.
 * @active: the block is running under the profiler.
 * @ran: the block ran (the profiler started; @ret may still tell that it
 *       could not stop or export); 0: it was skipped (0.2).
 */
struct npuprof_scope {
	int ret;
	struct npuprof_error err;
	int active;
	int ran;
};

/* Internals of NPUPROF_PROFILER. */
struct npuprof_scope *npuprof_scope_enter(struct npuprof_scope *scope,
					  const struct npuprof_options *opts);
struct npuprof_scope *npuprof_scope_next(struct npuprof_scope *scope);
void npuprof_scope_cleanup(struct npuprof_scope **guard);

/**
 * NPUPROF_PROFILER() - a `with` block: profile the statement or block that
 * follows, and stop however it is left (end, break, return, goto)
 * @scope: a struct npuprof_scope of the caller's: its ret and err tell
 *         whether the profiler started (the block is skipped when it did
 *         not) and stopped.
 *
 *	struct npuprof_scope prof;
 *
 *	NPUPROF_PROFILER(&prof, .level = "L1", .aic_metrics = "ArithmeticUtilization",
 *			 .output_path = "./") {
 *		npuprof_launch(dev, &add, 1, NULL, NULL);
 *		npuprof_sync(dev, stream, 0, NULL);
 *	}
 *	if (prof.ret)
 *		fprintf(stderr, "profiler: %s\n", prof.err.msg);
 */
#define NPUPROF_PROFILER(scope, ...)                                                        \
	for (struct npuprof_scope * __npuprof_guard                                         \
		     __attribute__((cleanup(npuprof_scope_cleanup))) = npuprof_scope_enter( \
		     (scope),                                                               \
		     &(const struct npuprof_options){ .sz = sizeof(struct npuprof_options), \
						      __VA_ARGS__ });                       \
	     __npuprof_guard; __npuprof_guard = npuprof_scope_next(__npuprof_guard))

#ifdef __cplusplus
}
#endif

#endif /* NPUPROF_H */
