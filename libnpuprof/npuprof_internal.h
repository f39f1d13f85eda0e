/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the one internal header - every prototype the library's files
 * share, with the types and inline helpers they need, so that each is
 * declared once. Not installed; nothing here is exported from the shared
 * library (it builds with -fvisibility=hidden; NPUPROF_API marks the public
 * symbols). The public API is npuprof.h and the headers it includes.
 *
 * Data formats stay in headers of their own, since they describe bytes on
 * disk rather than code: prof_layout.h (the names in a PROF_* folder,
 * shared with tests and benchmarks) and cann_format.h (CANN's host
 * records); the uapi/ headers describe the device's records.
 *
 * Sections, each with the files that define it:
 *   0. the hash map; Ascend's chips               hashmap.c, chip_table.c
 *   1. the runtime, names, output folders, global profiling, the collector
 *   2. the host sink                             host_sink.c
 *   3. the configuration files of a PROF_* folder  prof_config.c
 *   4. the export's output files, JSON strings    csv_writer.c, output_folder.c,
 *                                                json_escape.c
 *   5. msprof's Python numbers                   pyfmt.c
 *   6. the export of the real Ascend layout      ascend_*.c
 */
#ifndef NPUPROF_INTERNAL_H
#define NPUPROF_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cann_format.h"
#include "npuprof.h"
#include "prof_layout.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"

/* ======== 0. the hash map (hashmap.c) ======== */

typedef uint64_t (*npx_hmap_hash_fn)(uintptr_t key, void *ctx);
typedef bool (*npx_hmap_equal_fn)(uintptr_t a, uintptr_t b, void *ctx);

struct npx_hmap_entry {
	uint64_t hash; /* 0: free */
	uintptr_t key;
	uintptr_t value;
};

/**
 * struct npx_hmap - the library's one hash map (hashmap.c)
 * @e: the entries, @cap of them (a power of two, at most half used).
 * @cap: entries.
 * @n: keys in it.
 * @hash_fn: the keys' hash (npx_hmap_hash_u64, npx_hmap_hash_str or the
 *           caller's).
 * @equal_fn: whether two keys are one.
 * @ctx: passed to both (say, the array that index keys point into).
 *
 * Zero it but for the functions (NPX_HMAP_INIT) to start; free it with
 * npx_hmap_free(). It owns nothing that its keys or values point to.
 */
struct npx_hmap {
	struct npx_hmap_entry *e;
	size_t cap;
	size_t n;
	npx_hmap_hash_fn hash_fn;
	npx_hmap_equal_fn equal_fn;
	void *ctx;
};

#define NPX_HMAP_INIT(hash, equal, context)                              \
	{                                                                \
		.hash_fn = (hash), .equal_fn = (equal), .ctx = (context) \
	}

/*
 * The value of @key, added with value 0 when it is not there (*@added
 * says which, when not NULL); NULL when out of memory. The pointer holds
 * until the next key is added.
 */
uintptr_t *npx_hmap_slot(struct npx_hmap *m, uintptr_t key, bool *added);
/* the value of @key, or NULL when it is not there */
uintptr_t *npx_hmap_find(const struct npx_hmap *m, uintptr_t key);
/* room for @n keys without growing: 0 or -ENOMEM */
int npx_hmap_reserve(struct npx_hmap *m, size_t n);
void npx_hmap_free(struct npx_hmap *m);

uint64_t npx_hmap_hash_u64(uintptr_t key, void *ctx);
bool npx_hmap_equal_u64(uintptr_t a, uintptr_t b, void *ctx);
/* keys are NUL-terminated strings (const char *), hashed with FNV-1a */
uint64_t npx_hmap_hash_str(uintptr_t key, void *ctx);
bool npx_hmap_equal_str(uintptr_t a, uintptr_t b, void *ctx);

/* splitmix64's finalizer, and the 64-bit FNV-1a of @n bytes */
uint64_t npx_mix64(uint64_t z);
uint64_t npx_fnv1a64(const void *p, size_t n);

/* ======== 0. Ascend's chips (chip_table.c) ======== */

/* What a chip (msprof's platform_version) does, in struct npf_chip.features. */
#define NPF_CHIP_READ (1u << 0) /* the export reads its device records as its own */
#define NPF_CHIP_HWTS (1u << 1) /* HWTS logs and AI Core PMU records, no STARS */
#define NPF_CHIP_V1_1 (1u << 2) /* PMU columns derived as the V1_1 chips' */
#define NPF_CHIP_CPP_PATH (1u << 3) /* CANN runs msprof's C++ path for it */
#define NPF_CHIP_FREQ (1u << 4) /* the Python timeline draws AI Core Freq */
#define NPF_CHIP_FREQ_CPP (1u << 5) /* the C++ timeline draws AI Core Freq */
#define NPF_CHIP_SQE_OTHER (1u << 6) /* msprof names none of its task types */
#define NPF_CHIP_FFTS_PLUS (1u << 7) /* a MIX task runs as FFTS+ (context logs) */
#define NPF_CHIP_PIPE_EXCT (1u << 8) /* AIC PipeUtilization is "PipeUtilizationExct" */
#define NPF_CHIP_BORROWED (1u << 9) /* writes another chip's records (file_prefix) */

/**
 * struct npf_chip - one chip of the table
 * @id: msprof's platform_version.
 * @features: NPF_CHIP_*.
 * @file_prefix: the prefix of its devices' raw file names ("" but for
 *               NPF_CHIP_BORROWED: "chip5_").
 */
struct npf_chip {
	uint32_t id;
	unsigned int features;
	const char *file_prefix;
};

/* the row of chip @id; a chip msprof does not know gets a row of its own */
const struct npf_chip *npf_chip(uint32_t id);
bool npf_chip_known(uint32_t id);
bool npf_chip_has(uint32_t id, unsigned int feature);
const char *npf_chip_file_prefix(uint32_t id);

/* ======== 1. the runtime, global profiling, the collector ======== */

/*
 * Internals shared by the runtime, the profiler and the collector.
 */

/* Public symbols: the library builds with -fvisibility=hidden. */
#define NPUPROF_API __attribute__((visibility("default")))

/*
 * A symbol whose ABI changed (libbpf's COMPAT_VERSION / DEFAULT_VERSION):
 * the current implementation, @internal, is @api@@@version, the default
 * that new programs link against; an old one is @api@@version, kept for
 * the programs linked against that node. @version is a string, so that no
 * formatter can split "LIBNPUPROF_0.2". In the static library there are
 * no versions: @api is an alias of the current one.
 */
#ifdef NPUPROF_SHARED
#define NPUPROF_COMPAT(internal, api, version) __asm__(".symver " #internal "," #api "@" version)
#define NPUPROF_DEFAULT(internal, api, version) __asm__(".symver " #internal "," #api "@@" version)
#else
#define NPUPROF_COMPAT(internal, api, version)
#define NPUPROF_DEFAULT(internal, api, version) \
	extern __typeof__(internal) api NPUPROF_API __attribute__((alias(#internal)))
#endif

/* npuprof_error.c */
/*
 * npuprof_set_error() - fill @err (when not NULL) with @code and a message
 * @err: the caller's error report, or NULL.
 * @code: a negative errno.
 * @fmt: printf format of the message (truncated to fit).
 *
 * Return: @code, so that "return npuprof_set_error(err, -EINVAL, ...);"
 * reads naturally.
 */
int npuprof_set_error(struct npuprof_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear @err (when not NULL): code 0, empty message. */
void npuprof_clear_error(struct npuprof_error *err);

/* opts.c: the OPTS rules (sz) of an options struct of @lib_sz bytes. */
int npuprof_opts_check(const void *opts, size_t lib_sz, const char *type,
		       struct npuprof_error *err);
/* @opts is not NULL and the caller's struct has @field */
#define npuprof_opts_has(opts, field) \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), field) + sizeof((opts)->field))
/* @opts's @field, else @fallback (NULL @opts, or a caller too old to have it) */
#define npuprof_opts_get(opts, field, fallback) \
	(npuprof_opts_has(opts, field) ? (opts)->field : (fallback))

/* print.c: a message of the library's own, through npuprof_set_print(). */
void npuprof_print(enum npuprof_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define NPUPROF_NO_HW_STREAM 0xffff

/**
 * struct npuprof_dev - an open device
 * @fd: /dev/vnpuN.
 * @id: N.
 * @info: VNPU_IOC_GET_INFO at open.
 * @hw_stream: per stream of @fd (info.max_streams of them), its device-wide
 *             id (the one the device's records and task_track name),
 *             NPUPROF_NO_HW_STREAM if none.
 * @serial: unique among the devices this process opened.
 * @next_open: in runtime.c's list of open devices.
 */
/*
 * What the host records of a collective say about its communicator
 * (comm.c): set when a handle is made, cleared when it is destroyed.
 * @group is HCCL's group name, the same on every rank, in the form of the
 * identifier HcclGetRootInfo() gives a group ("<ip>%<netif>_<port>_<device>_
 * <timestamp us>"): the loopback and a hash of the key in the timestamp's
 * place (not the key, which would let a reader of the profile join the
 * group). A profile shows it as a real run's would, naming no simulator.
 */
#define NPUPROF_MAX_COMMS 16
struct npuprof_comm_info {
	uint32_t nranks;
	uint32_t rank;
	char group[48];
};

struct npuprof_dev {
	int fd;
	unsigned int id;
	struct vnpu_info info;
	uint16_t *hw_stream;
	uint64_t serial;
	struct npuprof_dev *next_open;
	struct npuprof_comm_info comms[NPUPROF_MAX_COMMS];
};

/* Host record time: CLOCK_MONOTONIC_RAW, as CANN's (host CPU Frequency ""). */
static inline uint64_t npuprof_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * host_sink.c: the runtime's host records, written while a collector runs.
 * npuprof_api_record(): call @api, from @start_ns to now; its ioctl ran
 * [@rt_start, @rt_end] (0, 0: none), the Runtime event at L2.
 * npuprof_launch_record(): @n tasks queued with ids @ids, the call started
 * at @start_ns and the device stamped the batch at @submit_ns (0: unknown,
 * now is used): the tasks' records go before it, as no task can start
 * before its submission. A @start_ns of 0 (npuprof_rec_now_ns() when nothing
 * recorded at the call's start) records nothing: a session that began
 * during the call has no start for it.
 */
bool npuprof_host_recording(void);
void npuprof_api_record(enum npuprof_api_id api, uint64_t start_ns, uint64_t rt_start,
			uint64_t rt_end);
void npuprof_launch_record(const struct npuprof_dev *dev, const struct vnpu_task *tasks,
			   unsigned int n, const uint64_t *ids, uint64_t start_ns,
			   uint64_t submit_ns);

/*
 * The time for a host record, or 0 when no session records: the hot calls
 * (launch, sync) read no clock then (the dev VM's clock is an emulated
 * HPET: 6% of a workload's time with profiling off went to these reads).
 */
static inline uint64_t npuprof_rec_now_ns(void)
{
	return npuprof_host_recording() ? npuprof_now_ns() : 0;
}

/*
 * fileio.c: write all of @buf at @off (or at the file position when -1),
 * retrying short writes and EINTR; on failure, the bytes written in *@done.
 */
int npuprof_write_at(int fd, const void *buf, size_t n, int64_t off, size_t *done);

/*
 * fileio.c: the export's inputs. A PROF folder may come from another
 * machine or person, so every file of it is opened the one way
 * npx_input_open() does: never through a symbolic link (O_NOFOLLOW),
 * never blocking (O_NONBLOCK: a FIFO in a file's place), a regular file
 * only, and at most @cap bytes, the most a @what ("JSON file") may hold by
 * its format. Each refusal names @path and why (and the cap) in @err.
 * Returns the descriptor, its fstat() in *@st; or a negative errno.
 *
 * npx_input_read() reads such a file whole into *@buf (malloc()ed, NUL
 * terminated after its *@len bytes; the bytes it had at the open, no more).
 */
struct stat;
int npx_input_open(const char *path, uint64_t cap, const char *what, struct stat *st,
		   struct npuprof_error *err);
int npx_input_read(const char *path, uint64_t cap, const char *what, char **buf, size_t *len,
		   struct npuprof_error *err);

/* the caps by format: what msprof's writers and ours write is far smaller */
#define NPX_CAP_JSON (4ULL << 20) /* info.json, sample.json, start_info, loss reports */
#define NPX_CAP_LOG (1ULL << 20) /* host_start.log, dev_start.log */
#define NPX_CAP_DICT (64ULL << 20) /* a slice of hash_dic or type_info_dic */
/* a raw record slice: CANN rotates far below it, our collector at 64 MiB */
#define NPX_CAP_SLICE (1ULL << 30)

/*
 * level_names.c: the level named @name ("L1", or msprof's "l1" with
 * @msprof), VNPU_PROF_LEVEL_COUNT if none (@name NULL included); the name
 * of @level in either spelling, NULL if none; and every name, in level
 * order, as "L0, L1, L2" in @buf (messages that list them).
 */
uint32_t npuprof_level_of(const char *name, bool msprof);
const char *npuprof_level_spelling(uint32_t level, bool msprof);
void npuprof_level_names(char *buf, size_t len, bool msprof);

/*
 * metric_names.c: the group of a metric name (VNPU_METRIC_NONE if none):
 * only the Profiler's aic_metrics keys with @profiler_keys_only, else
 * every name sample.json may give; whether @name is the A2/A3 AIC name of
 * its group ("PipeUtilizationExct", whose columns differ); the name
 * sample.json gives the group a device of @chip_id programmed on its AIC
 * or AIV side; and the Profiler's keys (in byte order), or with
 * @msprof_names msprof's, as "A, B, ..." in @buf.
 */
uint32_t npuprof_metric_group(const char *name, bool profiler_keys_only);
/* msprof's --aic-metrics names (its CLI and PROFILING_OPTIONS): every group's */
uint32_t npuprof_metric_group_msprof(const char *name);
bool npuprof_metric_exct(const char *name);
const char *npuprof_metric_sample_name(uint32_t group, uint32_t chip_id, bool aiv);
void npuprof_metric_keys(char *buf, size_t len, bool msprof_names);

/*
 * runtime.c: what runs when a device opens, before the open returns (an
 * error fails the open). The session sets it (global.c, when the library
 * loads), so that the runtime calls global profiling without knowing it:
 * a program that uses only the runtime links none of the session.
 */
typedef int (*npuprof_open_hook_fn)(struct npuprof_dev *dev, struct npuprof_error *err);
void npuprof_runtime_set_open_hook(npuprof_open_hook_fn fn);

/*
 * global.c: PROFILING_MODE=true profiles every device the process opens
 * (the runtime's open hook). A static link gets it with the session: any
 * Profiler call, or -Wl,--undefined=npuprof_global_device_opened
 * (pkg-config --static).
 */
int npuprof_global_device_opened(struct npuprof_dev *dev, struct npuprof_error *err);
/* The PROF_* folder of global profiling, or NULL. */
int npuprof_global_dir(char *buf, size_t len);
/* runtime.c: is global profiling configured in the environment (PROFILING_MODE)? */
int npuprof_global_configured(void);

/*
 * report.c: send @dir (a PROF_* folder just made) to the socket
 * NPUPROF_REPORT_FD names, as one "DIR\n" message; 0, or why not (-ENOENT:
 * no variable; -EINVAL: malformed; -EBADF, -ENOTSOCK: not the socket the
 * variable was made for; the send's -errno). Never blocks long, never
 * raises SIGPIPE.
 */
int npuprof_report_dir(const char *dir);

/*
 * collector.c: a collection of one or more devices into one PROF_* folder.
 */
struct npuprof_collector;

/**
 * struct npuprof_collect_opts - what to collect
 * @level: enum vnpu_prof_level.
 * @metric_group: enum vnpu_metric_group, VNPU_METRIC_NONE for the default.
 * @output_dir: the existing directory the PROF_* folder goes in.
 */
struct npuprof_collect_opts {
	uint32_t level;
	uint32_t metric_group;
	const char *output_dir;
};

int npuprof_collector_create(const struct npuprof_collect_opts *opts, struct npuprof_collector **cp,
			     struct npuprof_error *err);
int npuprof_collector_add(struct npuprof_collector *c, unsigned int dev_id,
			  struct npuprof_error *err);
/* Start the reader thread; devices can still be added afterwards. */
int npuprof_collector_start(struct npuprof_collector *c, struct npuprof_error *err);
const char *npuprof_collector_dir(const struct npuprof_collector *c);
/* Stop every device, drain, write host data, export; frees @c. */
int npuprof_collector_finish(struct npuprof_collector *c, int export, struct npuprof_error *err);
/*
 * In a child of fork(): let go of @c, which the parent made, with no ioctl,
 * no write and no join: its sessions, files and reader thread are the
 * parent's, and the parent goes on with them. Frees @c.
 */
void npuprof_collector_forget(struct npuprof_collector *c);
/* Finish without export and remove the PROF_* folder (a start that failed). */
void npuprof_collector_discard(struct npuprof_collector *c);

/*
 * profiler.c: the Profiler's options, checked with the TF adapter's rules
 * and words: @level (NULL: L0) into *@out, and @metrics ("" or NULL: the
 * device default) at @level into *@out.
 */
int npuprof_parse_level(const char *level, uint32_t *out, struct npuprof_error *err);
int npuprof_parse_metrics(const char *metrics, uint32_t level, bool msprof_names, uint32_t *out,
			  struct npuprof_error *err);

/*
 * prof_dir.c: the directory a PROF_* folder goes in, checked and
 * resolved into @resolved (PATH_MAX bytes): @path when set and not empty,
 * else $ASCEND_WORK_PATH when set and not empty, else "./". Messages name
 * @path @what, and "./" @default_what. npuprof_check_output_path() checks
 * one candidate: it exists, is a directory the user can read and write,
 * and holds none of \n \f \r \b \t \v \x7F.
 */
int npuprof_output_dir(const char *path, const char *what, const char *default_what, char *resolved,
		       struct npuprof_error *err);
int npuprof_check_output_path(const char *path, const char *what, char *resolved,
			      struct npuprof_error *err);

/* global.c: parse PROFILING_OPTIONS @json into @co (its output_dir points into @dir). */
int npuprof_global_parse(const char *json, struct npuprof_collect_opts *co, char *dir,
			 struct npuprof_error *err);

/* ======== 2. the host sink ======== */

/*
 * The host sink: where the runtime's host records go while a collector
 * runs. At most one per process (the Profiler's one-at-a-time rule),
 * behind one process-wide lock that outlives every sink, so that a runtime call on another thread
 * finds the sink gone instead of locking one that is being freed.
 *
 * A runtime call appends its records to in-memory buffers under the lock
 * (never a write() under it); the collector's reader thread, or its end,
 * swaps the buffers out and writes them to host/data/ without the lock.
 *
 * The records are what CANN's runtime writes (cann_format.h): api_event,
 * node_basic_info, tensor_info, context_id_info, task_track, hccl_op_info,
 * hccl_info, hash_dic and type_info_dic, in slices as msprof's
 * (docs/output.md).
 */

struct host_sink;

/**
 * host_sink_create() - a sink writing into @data_dir (host/data)
 * @data_dir: the directory, which exists.
 * @level: enum vnpu_prof_level: what the CANN records include.
 * @sp: out: the sink.
 * @err: filled on failure.
 */
int host_sink_create(const char *data_dir, uint32_t level, struct host_sink **sp,
		     struct npuprof_error *err);

/*
 * Make @s the process's sink; @wake(@arg) is called, under the lock, when
 * enough is buffered that the writer should run (an eventfd write).
 */
void host_sink_install(struct host_sink *s, void (*wake)(void *), void *arg);

/* No runtime call reaches @s after this returns. */
void host_sink_uninstall(struct host_sink *s);

/* Write out what is buffered; one thread at a time. */
void host_sink_flush(struct host_sink *s);

/*
 * Flush, write the counts per kind into @loss_dir's loss report (whose
 * room npc_reserve_ends() made; NULL: none), report a write failure or
 * records not written (into @err when @ret is 0, else to stderr), close
 * the files and free @s. Returns @ret, or the first failure.
 */
int host_sink_close(struct host_sink *s, const char *loss_dir, int ret, struct npuprof_error *err);

/* In a child of fork(): free @s without a write (its files are the parent's). */
void host_sink_forget(struct host_sink *s);

/* ======== 3. the configuration files of a PROF_* folder ======== */

/*
 * The configuration files of a PROF_* folder in the real layout, as
 * msprof's collector writes them and its parser reads them (docs/output.md
 * "Configuration files"):
 *
 *   host/info.json, sample.json, start_info, end_info, host_start.log
 *   device_N/info.json.N, sample.json, start_info.N, end_info.N,
 *            host_start.log.N, dev_start.log.N
 */

/* msprof's id of the host in "devices" */
#define NPC_HOST_ID 64

/**
 * struct npc_instant - one instant on the clocks the files link
 * @real_ns: CLOCK_REALTIME.
 * @raw_ns: CLOCK_MONOTONIC_RAW (host record time).
 * @mono_ns: CLOCK_MONOTONIC (the device's mono_base_ns clock).
 */
struct npc_instant {
	uint64_t real_ns;
	uint64_t raw_ns;
	uint64_t mono_ns;
};

void npc_now(struct npc_instant *t);

/**
 * struct npc_session - what the configuration files describe
 * @level: enum vnpu_prof_level.
 * @info: a device of the session (its product: platform_version, the
 *        sample's metric names), or NULL for the host files before one.
 * @ctrl: its session's control page (events, clocks), or NULL.
 */
struct npc_session {
	uint32_t level;
	const struct vnpu_info *info;
	const struct vnpu_ring_ctrl *ctrl;
};

/* host/: info.json, sample.json, start_info and host_start.log, at @t. */
int npc_write_host(const char *host_dir, const struct npc_session *s, const struct npc_instant *t,
		   struct npuprof_error *err);

/* device_N/: info.json.N, sample.json, start_info.N and the two start logs, at @t. */
int npc_write_device(const char *dev_dir, unsigned int id, const struct npc_session *s,
		     const struct npc_instant *t, struct npuprof_error *err);

/*
 * The end of the run's files in @dir (host/, @id < 0, or device_N/, @id N),
 * written into room reserved at the start, so that a disk full at the end
 * still takes them: npc_reserve_ends() writes the room of end_info(.N) (a
 * hidden .end_info(.N).reserve) and of the loss report (vnpu_loss.json,
 * an empty object until the end); npc_write_end() writes end_info(.N) at
 * @t into its room and renames it (a file anew without a room).
 */
int npc_reserve_ends(const char *dir, int id, struct npuprof_error *err);
int npc_write_end(const char *dir, int id, const struct npc_instant *t, struct npuprof_error *err);

/**
 * struct npc_loss - the accounting of one channel (produced == written +
 * lost + not_written)
 * @channel: the raw file's name (stars_soc...).
 * @rec_size: bytes of a record.
 * @produced: records the device produced.
 * @lost: records the device dropped, the channel full.
 * @written: records in the raw files.
 * @not_written: records drained but not written (a write error).
 */
struct npc_loss {
	const char *channel;
	uint32_t rec_size;
	uint64_t produced;
	uint64_t lost;
	uint64_t written;
	uint64_t not_written;
};

/*
 * @dir/vnpu_loss.json, the loss report (ours, not msprof's;
 * docs/output.md), rewritten in place in the room npc_reserve_ends() made.
 */
int npc_write_loss(const char *dir, const struct npc_loss *l, unsigned int n,
		   struct npuprof_error *err);

/* ======== 4. the export: output files, a set of keys ======== */

/*
 * The offline export's (npuprof_export(), section 6) output files and
 * helpers:
 *
 *   csv_writer.c       number formatting, buffered files under temporary
 *                      names written by a writer thread, sliced CSVs
 *   output_folder.c    mindstudio_profiler_output/: commit or discard all
 *   json_escape.c      JSON strings as msprof's two writers escape them
 */

typedef unsigned __int128 npx_u128;

#define NPX_ROW_MAX 16384 /* bytes one CSV row or JSON event may take */
#define NPX_BUF_SIZE (512U << 10) /* an output buffer (two a file) */
#define NPX_NA "N/A"
#define NPX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * qsort() and qsort_r() of @n elements at @base, which is NULL when a folder
 * had none: glibc declares the base nonnull, so qsort(NULL, 0, ...) is
 * undefined behaviour (UBSan stops there), and the export's arrays are NULL
 * whenever a kind of record is absent.
 */
/*
 * (int64_t)@v where the cast is defined, and a saturated value where it is
 * not: a time or count computed from a hostile folder can be beyond
 * int64_t or NaN, and casting those is undefined behaviour (UBSan stops
 * there; x86 gives INT64_MIN). In range it is the cast, truncation.
 */
static inline int64_t npx_i64_ld(long double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775808.0L)
		return INT64_MAX;
	if (v < -9223372036854775808.0L)
		return INT64_MIN;
	return (int64_t)v;
}

static inline int64_t npx_i64(double v)
{
	return npx_i64_ld(v);
}

static inline void npx_qsort(void *base, size_t n, size_t size,
			     int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline void npx_qsort_r(void *base, size_t n, size_t size,
			       int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

/* ---- warnings ---- */

/**
 * struct npx_warn - where warnings go
 * @quiet: do not print them.
 * @count: warnings issued.
 */
struct npx_warn {
	int quiet;
	uint32_t count;
};

void npx_warn(struct npx_warn *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- formatting (csv_writer.c); each returns the end of what it wrote ---- */

extern const char npx_digits2[201];

/* decimal digits of @v */
static inline unsigned int npx_ndigits(uint64_t v)
{
	unsigned int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

static inline char *npx_fmt_u64(char *p, uint64_t v)
{
	char *end = p + npx_ndigits(v);

	p = end;
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, npx_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, npx_digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return end;
}

/* @v in decimal, with a '-' when negative (printf's %lld) */
static inline char *npx_fmt_s64(char *p, int64_t v)
{
	if (v >= 0)
		return npx_fmt_u64(p, (uint64_t)v);
	*p++ = '-';
	return npx_fmt_u64(p, 0 - (uint64_t)v);
}

char *npx_fmt_u128(char *p, npx_u128 v);
char *npx_fmt_milli128(char *p, npx_u128 v);

/* @v thousandths as "v/1000.xyz": 3-decimal microseconds from ns and the like */
static inline char *npx_fmt_milli(char *p, npx_u128 v)
{
	uint64_t w = (uint64_t)v;
	unsigned int frac;

	if (v >> 64)
		return npx_fmt_milli128(p, v);
	p = npx_fmt_u64(p, w / 1000);
	frac = (unsigned int)(w % 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npx_digits2 + 2 * (frac % 100), 2);
	return p + 4;
}

/* append a string literal (its length known at compile time) */
#define npx_lit(p, s) ((char *)memcpy((p), "" s, sizeof(s) - 1) + sizeof(s) - 1)

/*
 * json_escape.c: the inside of a JSON string (no quotes) as one of
 * msprof's writers has it, at @p, NUL-terminated; returns the end. @p has
 * room for NPX_JSON_ESCAPED_MAX(strlen(@s)) bytes: 6 per input byte.
 */
enum npx_json_dialect {
	NPX_JSON_PY, /* Python's json.dumps, ensure_ascii */
	NPX_JSON_RAPIDJSON, /* the C++ path's rapidjson Writer */
};
#define NPX_JSON_ESCAPED_MAX(n) (6 * (size_t)(n) + 1)
char *npx_json_escape(char *p, const char *s, enum npx_json_dialect dialect);

static inline char *npx_put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* round(num / den) (half up), 0 when den is 0 */
static inline npx_u128 npx_div_round(npx_u128 num, npx_u128 den)
{
	if (!den)
		return 0;
	if (!(num >> 64) && !(den >> 64))
		return (uint64_t)num / (uint64_t)den +
		       ((uint64_t)num % (uint64_t)den >= (uint64_t)den - (uint64_t)den / 2);
	return num / den + (num % den >= den - den / 2);
}

/* ---- output files (csv_writer.c) ---- */

struct npx_io;

/**
 * struct npx_out - the output folder
 * @dfd: mindstudio_profiler_output/, opened O_DIRECTORY.
 * @ts: the 14-digit {ts} of the names.
 * @pid: this process (temporary names).
 * @slice_rows: rows per CSV file.
 * @err: the caller's error report.
 * @io: the writer thread, NULL for synchronous writes.
 * @dir: the path of @dfd for messages; NULL: "mindstudio_profiler_output".
 * @path: @dir when npx_out_open() opened @dfd.
 */
struct npx_out {
	int dfd;
	char ts[16];
	long pid;
	uint64_t slice_rows;
	struct npuprof_error *err;
	struct npx_io *io;
	const char *dir;
	char path[PATH_MAX];
};

/*
 * Set @o->ts: @timestamp (exactly 14 digits YYYYMMDDhhmmss), or the local
 * time now when NULL; -EINVAL with a message otherwise.
 */
int npx_out_timestamp(struct npx_out *o, const char *timestamp);

/* the output folder as messages name it */
static inline const char *npx_out_dir(const struct npx_out *o)
{
	return o->dir ? o->dir : NPUPROF_OUTPUT_DIR;
}

/*
 * Start the writer thread: full buffers are written by it while the next
 * one is formatted (formatting and the kernel's copy overlap). Without a
 * thread (it cannot be created) files are written synchronously.
 */
void npx_io_start(struct npx_out *o);
/* wait for every queued write and stop the thread */
void npx_io_stop(struct npx_out *o);

/**
 * struct npx_file - a buffered output file under a temporary name
 * @fd: -1 when closed.
 * @tmp: its temporary name in the output folder.
 * @buf: the buffer being filled (NPX_BUF_SIZE bytes), one of @bufs.
 * @len: bytes in @buf.
 * @bufs: two buffers: one filled while the writer thread writes the other.
 * @cur: the index of @buf in @bufs.
 * @busy: a write of @bufs[i] is queued or running (under the io lock).
 */
struct npx_file {
	int fd;
	char tmp[96];
	char *buf;
	size_t len;
	char *bufs[2];
	unsigned int cur;
	bool busy[2];
};

void npx_file_init(struct npx_file *f);
int npx_file_open(struct npx_out *o, struct npx_file *f, const char *tmp);
int npx_file_flush(struct npx_out *o, struct npx_file *f);
int npx_file_close(struct npx_out *o, struct npx_file *f);
/* rename the closed file to @final */
int npx_file_commit(struct npx_out *o, struct npx_file *f, const char *final);
/* close it (if open) and remove the temporary file */
void npx_file_discard(struct npx_out *o, struct npx_file *f);
void npx_file_free(struct npx_file *f);

/* Make room for @n more bytes; *cur is where to write. */
static inline int npx_file_reserve(struct npx_out *o, struct npx_file *f, size_t n, char **cur)
{
	int rc = 0;

	if (NPX_BUF_SIZE - f->len < n)
		rc = npx_file_flush(o, f);
	*cur = f->buf + f->len;
	return rc;
}

static inline void npx_file_advance(struct npx_file *f, char *cur)
{
	f->len = (size_t)(cur - f->buf);
}

/**
 * struct npx_csv - one CSV, sliced every npx_out.slice_rows rows
 * @base: "op_summary": base_{ts}.csv or base_slice_{i}_{ts}.csv.
 * @header: the header line, without the newline (owned).
 * @rows: data rows in the current slice.
 * @rows_total: data rows written.
 * @nfiles: slices opened.
 * @f: the current slice.
 */
struct npx_csv {
	const char *base;
	char *header;
	uint64_t rows;
	uint64_t rows_total;
	unsigned int nfiles;
	struct npx_file f;
};

void npx_csv_init(struct npx_csv *c, const char *base);
/* set the header (copied); only before the first row */
int npx_csv_set_header(struct npx_out *o, struct npx_csv *c, const char *header);
/* start a row (a new slice when the current one is full); *cur: where to write */
int npx_csv_begin(struct npx_out *o, struct npx_csv *c, char **cur);

static inline void npx_csv_end(struct npx_csv *c, char *cur)
{
	*cur++ = '\n';
	npx_file_advance(&c->f, cur);
	c->rows++;
	c->rows_total++;
}

int npx_csv_close(struct npx_out *o, struct npx_csv *c);
/* rename the slices to their final names (after npx_csv_close()) */
int npx_csv_commit(struct npx_out *o, struct npx_csv *c);
void npx_csv_discard(struct npx_out *o, struct npx_csv *c);
void npx_csv_free(struct npx_csv *c);
/* the final name of slice @i (for messages and README.txt) */
void npx_csv_name_of(const struct npx_out *o, const struct npx_csv *c, unsigned int i, char *buf,
		     size_t len);

/* ---- the output folder (output_folder.c) ---- */

/* The header lines of the CSVs both layouts write alike (as msprof does). */
#define NPX_HDR_TASK_TIME                                      \
	"Device_id,kernel_name,kernel_type,stream_id,task_id," \
	"task_time(us),task_start(us),task_stop(us)"
#define NPX_HDR_OP_STAT                                     \
	"Device_id,OP Type,Core Type,Count,Total Time(us)," \
	"Min Time(us),Avg Time(us),Max Time(us),Ratio(%)"
#define NPX_HDR_API_STAT                                   \
	"Device_id,Level,API Name,Time(us),Count,Avg(us)," \
	"Min(us),Max(us),Variance"
#define NPX_HDR_AICPU                                                    \
	"Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us)," \
	"Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID"

/**
 * struct npx_outputs - the files of one export, committed or discarded together
 * @csv: the CSVs, in the order they are committed.
 * @n: entries of @csv.
 * @timeline: msprof_{ts}.json.
 * @readme: README.txt.
 */
struct npx_outputs {
	struct npx_csv *csv[8];
	unsigned int n;
	struct npx_file *timeline;
	struct npx_file *readme;
};

/*
 * The life of @o over one export: npx_out_init() (no folder yet, the {ts}
 * of the names from @opts); npx_out_open(), which makes (if needed) and
 * opens @prof/mindstudio_profiler_output and starts the writer thread;
 * npx_out_end() once the export returned @rc: on failure every file of @f
 * is removed, then the thread is stopped, the folder closed and the
 * files' buffers freed.
 */
int npx_out_init(struct npx_out *o, const struct npuprof_export_opts *opts,
		 struct npuprof_error *err);
int npx_out_open(struct npx_out *o, const char *prof);
void npx_out_end(struct npx_out *o, const struct npx_outputs *f, int rc);
/*
 * Open README.txt and write its first part: @intro, the names of the
 * slices of @csvs (@n of them, in this order), msprof_{ts}.json, and the
 * "Data loss:" heading, which the caller follows with its lines.
 */
int npx_readme_begin(struct npx_out *o, struct npx_file *readme, const char *intro,
		     struct npx_csv *const *csvs, unsigned int n);
/* rename every file of @f to its final name (after they are closed) */
int npx_out_commit(struct npx_out *o, const struct npx_outputs *f);

/* ======== 5. msprof's Python numbers ======== */

/*
 * The numbers of msprof's Python parser, byte for byte.
 *
 * msprof writes its CSV and JSON files from Python floats and Decimals:
 * str() of a float, round() in Python and in SQLite's SQL, and Decimal
 * sums quantized to 3 decimals. Each function here is one such Python
 * expression (CPython 3.11, SQLite 3.40.1 as on Debian 12), reproduced
 * exactly for every input, not merely for the common ones (within the
 * limits given); the expression is given with each. Those writing text
 * write at p and return the end of what they wrote, with a NUL there (not
 * counted).
 */

/* bytes any function here may write, the NUL included */
#define NPX_PY_FMT_MAX 48

/*
 * repr(v) == str(v) of a Python float: the shortest digits that read back
 * as v (the nearest such when several), "40.0", "0.889",
 * "1735689600001000.0" for 1e-4 <= |v| < 1e16, "1e-05", "1.5e+16" outside,
 * "inf", "-inf", "nan", "-0.0". Every float msprof prints goes through
 * this (str(x), f"{x}", json.dumps(x) and the csv module all use repr).
 * At most 24 characters.
 */
char *npx_py_repr(char *p, double v);

/*
 * round(x, ndigits) in Python, ndigits >= 0 (round(x, 0) is a float too):
 * the decimal nearest x at ndigits decimals, ties to even on the exact
 * binary value (round(2.675, 2) == 2.67, round(0.125, 2) == 0.12), read
 * back as the nearest double: msprof's round(value, 3) and the like in
 * its Python-side computations. ndigits < 0 is taken as 0.
 */
double npx_py_round(double x, int ndigits);

/*
 * round(x, n) in SQLite 3.40.1's SQL, n >= 0 (the msprof queries that
 * round in SELECT): n == 0 adds +-0.5 and truncates to an integer
 * (round(0.49999999999999994) == 1.0); otherwise SQLite's own printf
 * "%.*f" (long double arithmetic, ties away from zero after a bias of
 * 3e-16 relative, at most 16 significant digits) read back by
 * sqlite3AtoF(); |x| > 2^52 is returned as is. NaN (SQL NULL) comes back
 * as NaN.
 */
double npx_sqlite_round(double x, int n);

/*
 * The msprof timestamp of a device time: with Python's default decimal
 * context (28 digits, ROUND_HALF_EVEN),
 *
 *   str((Decimal(v_repr) / 1000 + Decimal(off_repr)).quantize(Decimal('0.000')))
 *
 * where v_repr is str() of the nanoseconds (an int or a float) and
 * off_repr str() of the microsecond offset (a float), e.g.
 * ("1000010500000", "1735689599000000.0") -> "1735690599010500.000".
 * Always 3 decimals, "-" when negative (also "-0.000"); "NaN" for a nan
 * operand, as Decimal prints it. Where Python raises (a result of more
 * than 28 digits, an infinite operand, a malformed string) this writes
 * "nan". Strings are taken as str() writes them: no spaces, no '_'.
 * Exact for operands of up to 36 significant digits (str() of a float or
 * an int has at most 20); digits past the 36th are kept only as a sticky
 * digit, which can be wrong when such operands cancel each other.
 */
char *npx_py_local_time(char *p, const char *v_repr, const char *off_repr);
/* npx_py_local_time() of repr(v_ns) and repr(off_us) */
char *npx_py_local_time_d(char *p, double v_ns, double off_us);
/* npx_py_local_time() of str(v_ns) (a Python int) and repr(off_us) */
char *npx_py_local_time_i(char *p, int64_t v_ns, double off_us);

/*
 * msprof's float_calculate() of a task end from its start and duration:
 *
 *   str((Decimal(a) + Decimal(b)).quantize(Decimal('0.000')))
 *
 * a and b being str() of ints or floats; "NaN" and "nan" as for
 * npx_py_local_time().
 */
char *npx_py_decimal_add3(char *p, const char *a, const char *b);
/* the same of Decimal(repr(a)) + Decimal(repr(b)), without the strings */
char *npx_py_decimal_add3_d(char *p, double a, double b);

/*
 * A duration from two timestamp strings, as a float:
 *
 *   repr(float(Decimal(a) - Decimal(b)))
 *
 * the difference rounded to 28 digits (half even), then to the nearest
 * double. "inf"/"nan" as Python gives them; "nan" where it raises.
 */
char *npx_py_decimal_diff_repr(char *p, const char *a, const char *b);

/*
 * Decimal(a) compared with the float b by their exact values, as Python
 * compares a Decimal with a float (msprof's timeline window:
 * float(collectionTimeBegin) <= Decimal(ts)): < 0, 0 or > 0. @a is a
 * plain decimal ("-"? digits ["." digits]), as the timestamps here; @b is
 * finite, exact here down to 2^-70 (timestamps have no such bits).
 */
int npx_py_decimal_cmp_float(const char *a, double b);

/* ======== 6. the export of the real Ascend layout ======== */

/*
 * The export of a PROF_* folder in the real Ascend raw layout
 * (host/ with CANN's records, device_N/ with the device's own), written to
 * reproduce what msprof's parser writes from the same folder
 * (docs/msprof-parser.md describes the parser; docs/output.md what we
 * write and where we differ).
 *
 *   ascend_config.c    info.json, sample.json, start_info, host_start.log...
 *   ascend_raw.c       slices, whole records, hash_dic and type_info_dic
 *   ascend_host.c      the host records: API calls, ops, host tasks
 *   ascend_device.c    ACSQ logs, PMU records, flips, and the join
 *   ascend_metrics.c   the op_summary PMU columns of each metric group
 *   ascend_hccl.c      collectives: hccl_info, hccl_op_info, their tasks and ops
 *   ascend_communication.c  communication_statistic, analyze/communication*.json
 *   ascend_summary.c   op_summary, task_time, op_statistic, api_statistic
 *   ascend_timeline.c  msprof_{ts}.json
 *   ascend_timeline_hccl.c  its Communication layer and flows (ascend_timeline.h)
 *   ascend_export.c    the folder: devices, order, README.txt
 */

#define NPA_NO_CTX 4294967295u /* context id of a task that is not an FFTS+ context */
#define NPA_NO_MODEL 4294967295u
#define NPA_MAX_DEVICES NPUPROF_EXPORT_MAX_DEVICES

/* ---- configuration (ascend_config.c) ---- */

/**
 * struct npa_clock - what turns a folder's times into msprof's
 * @begin: start_info collectionTimeBegin, epoch us, as written.
 * @end: end_info collectionTimeEnd as written ("" when missing).
 * @offset: collectionTimeBegin - clockMonotonicRaw / 1000.0 (epoch us of
 *          monotonic 0), a double as msprof computes it.
 * @mono: start_info clockMonotonicRaw as written.
 * @mono_raw: start_info clockMonotonicRaw, ns.
 * @have_begin: start_info was read.
 */
/*
 * The longest session the export believes, in microseconds (a day): an
 * end_info further from its start_info is another machine's clock, and
 * the timeline's per-millisecond fills up to it would never end.
 */
#define NPA_MAX_SESSION_US 86400e6

struct npa_clock {
	char begin[32];
	char mono[32];
	char end[32];
	double offset;
	double mono_raw;
	bool have_begin;
};

/**
 * struct npa_cpp_clock - what msprof's C++ path turns a device syscnt into
 * local ns with (Context::GetSyscntConversionParams, GetProfTimeRecordInfo)
 * @ok: the export prints the C++ path's formats: the chip is one CANN runs
 *      it for (NPF_CHIP_CPP_PATH), every value below was read, and info.json.N
 *      has the keys without which that path reads no folder (memoryTotal,
 *      netCard).
 * @dev_cnt: dev_start.log.N cntvct.
 * @host_mon: host_start.log.N clock_monotonic_raw, + cntvct_diff * 1000 /
 *            the host CPU MHz (1000 when empty) as that path adds it.
 * @freq: DeviceInfo[0].hwts_frequency, MHz.
 * @begin_ns: start_info.N collectionTimeBegin * 1000.
 * @local: @begin_ns - start_info.N clockMonotonicRaw.
 */
struct npa_cpp_clock {
	bool ok;
	uint64_t dev_cnt;
	uint64_t host_mon;
	double freq;
	uint64_t begin_ns;
	uint64_t local;
};

/**
 * struct npa_dev_cfg - one device_N folder's configuration
 * @id: N.
 * @chip_id: info.json.N "platform_version" (msprof's chip id).
 * @pid: info.json.N "pid" (the timeline's process ids derive from it).
 * @hwts_hz: DeviceInfo[0].hwts_frequency in Hz.
 * @aic_mhz: DeviceInfo[0].aic_frequency in MHz.
 * @ai_core_num: DeviceInfo[0].ai_core_num.
 * @aiv_num: DeviceInfo[0].aiv_num.
 * @aic_metrics: sample.json ai_core_metrics ("" when none).
 * @aiv_metrics: sample.json aiv_metrics.
 * @aic_events: sample.json ai_core_profiling_events.
 * @n_aic_events: their number.
 * @aiv_events: aiv_profiling_events.
 * @n_aiv_events: their number.
 * @level: sample.json profLevel as enum vnpu_prof_level (L0 when absent).
 * @metric_group: ai_core_metrics as enum vnpu_metric_group, VNPU_METRIC_NONE
 *                when none or not one of ours (for the export summary).
 * @dev_cnt: dev_start.log.N cntvct / 1e9.
 * @host_mon: host_start.log.N clock_monotonic_raw (+ the cntvct_diff
 *            correction) / 1e9.
 * @host_cnt: host_start.log.N cntvct / 1e9.
 * @host_start_count: the host counter at the collection start: a
 *                    task_track before it counts no blocks in the PMU
 *                    time formulas (msprof's get_block_num_from_ge).
 * @clock: start_info.N / end_info.N.
 * @cpp: the same files, as msprof's C++ path reads them.
 */
struct npa_dev_cfg {
	uint32_t id;
	uint32_t chip_id;
	long pid;
	double hwts_hz;
	double aic_mhz;
	uint32_t ai_core_num;
	uint32_t aiv_num;
	char aic_metrics[32];
	char aiv_metrics[32];
	uint32_t aic_events[VNPU_PMU_COUNTERS];
	uint32_t n_aic_events;
	uint32_t aiv_events[VNPU_PMU_COUNTERS];
	uint32_t n_aiv_events;
	uint32_t level;
	uint32_t metric_group;
	double dev_cnt;
	double host_mon;
	double host_cnt;
	double host_start_count;
	struct npa_clock clock;
	struct npa_cpp_clock cpp;
};

/**
 * struct npa_host_cfg - the host folder's configuration
 * @pid: info.json "pid".
 * @cpu_hz: CPU[0].Frequency in Hz, 0 when empty (timestamps are ns).
 * @clock: start_info / end_info.
 * @level0: sample.json profLevel is l0: ops have names only.
 * @cpp_ok: start_info's two values are whole numbers, as msprof's C++
 *          path reads them: @cpp_begin_ns and @cpp_local are set.
 * @cpp_begin_ns: collectionTimeBegin * 1000.
 * @cpp_local: @cpp_begin_ns - clockMonotonicRaw, the host calls' offset.
 */
struct npa_host_cfg {
	long pid;
	double cpu_hz;
	bool level0;
	struct npa_clock clock;
	bool cpp_ok;
	uint64_t cpp_begin_ns;
	uint64_t cpp_local;
};

/*
 * ascend_config.c: @path's JSON object into *@out (put it with
 * json_object_put()), read with npx_input_read() and parsed with json-c's
 * tokener at most 16 levels deep; anything but blanks after the object is
 * an error. 0, or a negative errno with @err naming the file (and the
 * offset where the JSON goes wrong).
 */
struct json_object;
int npa_json_load(const char *path, struct json_object **out, struct npuprof_error *err);

int npa_host_cfg_load(const char *dir, struct npa_host_cfg *c, struct npx_warn *w,
		      struct npuprof_error *err);
int npa_dev_cfg_load(const char *dir, uint32_t id, struct npa_dev_cfg *c, struct npx_warn *w,
		     struct npuprof_error *err);

/* device ns of a syscnt, as msprof's InfoConfReader.time_from_syscnt (doubles) */
static inline double npa_syscnt_ns_d(const struct npa_dev_cfg *c, double syscnt)
{
	return (syscnt - c->dev_cnt * 1e9) / c->hwts_hz * 1e9 + c->host_mon * 1e9;
}

static inline double npa_syscnt_ns(const struct npa_dev_cfg *c, uint64_t syscnt)
{
	return npa_syscnt_ns_d(c, (double)syscnt);
}

/* ---- msprof's C++ path (ascend_cpp.c) ---- */

/**
 * struct npa_cpp_time - a device task's times as msprof's C++ path has them
 * @start: local ns, whole (its AscendTaskData.timestamp).
 * @end: local ns, whole.
 * @start_d: the ns it stores in ascend_task.db (before the local offset).
 * @dur_d: the duration it stores there.
 */
struct npa_cpp_time {
	uint64_t start;
	uint64_t end;
	double start_d;
	double dur_d;
};

void npa_cpp_task_ns(const struct npa_cpp_clock *c, uint64_t start_cnt, uint64_t end_cnt,
		     struct npa_cpp_time *t);
/* the task ended before the collection began: the C++ path drops it */
bool npa_cpp_before_start(const struct npa_cpp_clock *c, const struct npa_cpp_time *t);
/* std::to_string(@v) ("%f") read back in millionths, as HPFloat reads it (bounded at 1e18) */
__int128 npa_cpp_micro(double v);
/* @ns / 1000 with three decimals (DivideByPowersOfTenWithPrecision) */
char *npa_cpp_us(char *p, uint64_t ns);
/* DoubleToStr(): %.3f without trailing zeros or a bare point */
char *npa_cpp_fixed3(char *p, double v);
/* std::to_string(double): %f */
char *npa_cpp_to_string(char *p, double v);
/* a double as rapidjson's Writer prints it ("12.0", "0.00052", "1e-7"), ascend_timeline_cpp.c */
char *npa_cpp_double(char *p, double v);

/* ---- raw files (ascend_raw.c) ---- */

/**
 * struct npa_slices - the slices of one raw file kind, in msprof's order
 * @dir: the data/ folder.
 * @label: it, relative to the PROF folder, for messages.
 * @name: the slice names, sorted by their trailing number.
 * @n: slices.
 * @bytes: their total size.
 */
struct npa_slices {
	char dir[PATH_MAX];
	char label[64];
	char **name;
	unsigned int n;
	uint64_t bytes;
};

/*
 * The slices in @dir whose names are "{prefix}{anything}slice_{K}" for one
 * of the @prefixes (NULL-terminated), as msprof's file regexes take them.
 * A name that matches but is no regular file (a link, a FIFO, a folder) is
 * warned about and skipped; an empty one is skipped.
 */
int npa_slices_find(struct npa_slices *s, const char *dir, const char *label,
		    const char *const *prefixes, struct npx_warn *w, struct npuprof_error *err);
void npa_slices_free(struct npa_slices *s);

/*
 * Read the whole records of @s: each record is passed to @fn with its file
 * and offset. msprof's framing: with @per_file false, the slices are one
 * stream trimmed at the front by (total size % @size) bytes (a record may
 * straddle two slices); with @per_file true, each slice is trimmed alone
 * and its tail beyond whole records is dropped. Trimmed bytes are warned
 * about, naming the file. @fn returns 0 or a negative errno that stops it.
 */
typedef int (*npa_rec_fn)(void *arg, const void *rec, const char *file, uint64_t off);
int npa_slices_read(const struct npa_slices *s, size_t size, bool per_file, npa_rec_fn fn,
		    void *arg, struct npx_warn *w, struct npuprof_error *err);

/*
 * Make room for element @n of the array *@p of *@cap elements of @size
 * bytes (doubling, from @first); 0 or -ENOMEM, the array kept.
 */
int npa_grow(void **p, size_t *cap, size_t n, size_t size, size_t first);

/*
 * A hash -> name dictionary (hash_dic), or (level << 32 | type) -> name:
 * @map from the key to the index of its name in @val (strings it owns).
 * Zero it to start.
 */
struct npa_dict {
	struct npx_hmap map;
	char **val;
	size_t cap;
	size_t n;
};

int npa_dict_put(struct npa_dict *d, uint64_t key, const char *val, size_t len);
const char *npa_dict_get(const struct npa_dict *d, uint64_t key);
void npa_dict_free(struct npa_dict *d);
/* load "key:value" lines of hash_dic (@typed false) or type_info_dic slices */
int npa_dict_load(struct npa_dict *d, const struct npa_slices *s, bool typed, struct npx_warn *w,
		  struct npuprof_error *err);

/* ---- the host (ascend_host.c) ---- */

/**
 * struct npa_api - one API call (msprof's ApiData)
 * @level: enum cann_level.
 * @type: the record's type.
 * @tid: its thread.
 * @item: its item hash.
 * @begin: ns.
 * @end: ns.
 * @conn: connection id (its index among the kept records, file order).
 */
struct npa_api {
	uint32_t level;
	uint32_t type;
	uint32_t tid;
	uint32_t conn;
	uint64_t item;
	uint64_t begin;
	uint64_t end;
};

/**
 * struct npa_op - what a node launch window says of its op (TaskInfo)
 * @name: the op name (the launch's item), never NULL.
 * @type: the op type, "N/A" when unknown.
 * @task_type: enum cann_ge_task_type.
 * @block_num: blockDim & 0xffff.
 * @mix_block_num: block_num * (blockDim >> 16).
 * @dynamic: from an aging node_basic_info.
 * @hf32: op_flag non-zero.
 * @in_shapes, ...: the tensor strings, NULL for N/A.
 * @model_id: NPA_NO_MODEL.
 * @api: its node launch (index in npa_host.api), SIZE_MAX for none.
 * @ctx: the context of its TaskInfo row: NPA_NO_CTX, or a mix op's FFTS+
 *       context from its context_id_info (0).
 */
/* npa_op.task_type of a level-0 op: "N/A" */
#define NPA_TASK_TYPE_NA 0xffffffffu

struct npa_op {
	const char *name;
	const char *type;
	uint32_t task_type;
	uint32_t block_num;
	uint32_t mix_block_num;
	bool dynamic;
	bool hf32;
	const char *in_shapes, *in_types, *in_formats;
	const char *out_shapes, *out_types, *out_formats;
	uint32_t model_id;
	bool level0;
	size_t api;
	uint32_t ctx;
};

/**
 * struct npa_htask - a task the host gave a device (HostTask)
 * @dev: the device id.
 * @stream: stream id.
 * @task: 16-bit task id.
 * @batch: batch (flips of the stream before it).
 * @ctx: context id (NPA_NO_CTX).
 * @ts: task_track timestamp, ns.
 * @tid: its thread.
 * @type: the runtime task type name (KERNEL_AICORE...).
 * @kernel: the kernel name, "N/A" when unknown.
 * @op: its op, -1 when the task_track is in no node window.
 * @conn: the node launch's connection id, or -1.
 */
struct npa_htask {
	uint32_t dev;
	uint32_t stream;
	uint32_t task;
	uint32_t batch;
	uint32_t ctx;
	uint32_t tid;
	uint64_t ts;
	const char *type;
	const char *kernel;
	int64_t op;
	int64_t conn;
	uint32_t num_blocks; /* kernelInfo.numBlocks */
	uint32_t mix_blocks; /* numBlocks x kernelInfo.ratio */
};

/**
 * struct npa_host - everything read from host/
 * @cfg: its configuration.
 * @hash: hash_dic.
 * @types: type_info_dic.
 * @api: the API calls, file order.
 * @ops: ops (node launch windows with a node_basic_info).
 * @htask: host tasks, sorted by (dev, stream, ts).
 * @n_api, @n_ops, @n_htask: counts.
 * @dropped_begin0: API records with begin 0, dropped.
 * @strs: names that are in no dictionary (decimal hashes) and the ops'
 *        tensor strings, owned.
 * @n_strs, @cap_strs: their count and room.
 * @tensor_strs: the tensor strings of @strs, by content (string to the
 *               same string): ops of one shape share them.
 * @hccl: the HCCL tasks (ascend_hccl.c), by task_track order.
 * @n_hccl: their number.
 * @hops: the collectives (node windows holding HCCL tasks), by begin.
 * @n_hops: their number.
 */
struct npa_host {
	struct npa_host_cfg cfg;
	struct npa_dict hash;
	struct npa_dict types;
	struct npa_api *api;
	size_t n_api;
	struct npa_op *ops;
	size_t n_ops;
	struct npa_htask *htask;
	size_t n_htask;
	uint64_t dropped_begin0;
	char **strs;
	size_t n_strs, cap_strs;
	struct npx_hmap tensor_strs;
	struct npa_hccl_task *hccl;
	size_t n_hccl;
	struct npa_hccl_op *hops;
	size_t n_hops;
};

int npa_host_load(struct npa_host *h, const char *prof, struct npx_warn *w,
		  struct npuprof_error *err);
void npa_host_free(struct npa_host *h);

/*
 * The API windows of one level, sorted by (tid, begin, conn), to find the
 * window holding a record (msprof's joins: a record belongs to the window
 * on its thread that holds its timestamp). npa_window_of() gives the
 * window's index in h->api, or -1.
 */
struct npa_windows {
	const struct npa_host *h;
	size_t *idx;
	size_t n;
};
int npa_windows_init(struct npa_windows *wn, const struct npa_host *h, uint32_t level);
int64_t npa_window_of(const struct npa_windows *wn, uint32_t tid, uint64_t ts);
void npa_windows_free(struct npa_windows *wn);
/* a hash's name, or its decimal digits in @buf */
const char *npa_hash_name(const struct npa_host *h, uint64_t hash, char *buf, size_t len);
/* a hash's name, or its decimal digits kept in @h; NULL: no memory */
const char *npa_host_hash_str(struct npa_host *h, uint64_t hash);
/* enum cann_ge_task_type's name ("AI_CORE"...) */
const char *npa_ge_task_type_name(uint32_t t);

struct npa_task;
/* the op of device task @t for op_summary (msprof's TaskInfo join), or NULL */
const struct npa_op *npa_task_op(const struct npa_host *h, const struct npa_task *t);

/* ---- collectives, the host side (ascend_hccl.c) ---- */

/* "not set" of msprof's HCCL integers (DEFAULT_INVALID_VALUE) */
#define NPA_HCCL_NONE (-1LL)

/**
 * struct npa_hccl_task - an HCCL task the host gave a device (msprof's
 * HCCLTask): a task_track inside a level-5500 window, with the hccl_info
 * of that window
 * @dev, @stream, @task, @batch: the task_track's, the batch recomputed.
 * @ctx: the hccl_info's context id (NPA_NO_CTX without one).
 * @tid: the thread.
 * @ts: the task_track's ns.
 * @master: the window's type is "master" in type_info_dic.
 * @op: its collective (index in npa_host.hops), -1 when in no node window.
 * @info: an hccl_info was found; else the fields below are msprof's defaults.
 * @name: the task name (Memcpy...), "N/A" without hccl_info.
 * @group: the group hash.
 * @plane, @local_rank, @remote_rank, @rank_size: hccl_info's, or NPA_HCCL_NONE.
 * @dur_est: durationEstimated, us.
 * @size: bytes.
 * @notify: notifyID.
 * @data_type, @link_type, @transport, @rdma: hccl_info's enums.
 */
struct npa_hccl_task {
	uint32_t dev, stream, task, batch, ctx, tid;
	uint64_t ts;
	bool master;
	int64_t op;
	bool info;
	const char *name;
	uint64_t group;
	int64_t plane, local_rank, remote_rank, rank_size;
	double dur_est;
	uint64_t size;
	uint64_t notify;
	uint32_t data_type, link_type, transport, rdma;
};

/**
 * struct npa_hccl_op - a collective: a node launch window holding HCCL
 * tasks (msprof's HCCLOP)
 * @dev: the device of its first task.
 * @tid: its thread.
 * @begin, @end: the launch window, ns.
 * @conn: the launch's connection id.
 * @name: the launch's item (hcom_allReduce_).
 * @type: node_basic_info's op type, "N/A" without one.
 * @dynamic: from an aging node_basic_info.
 * @info: an hccl_op_info was found; else the fields below are msprof's defaults.
 * @relay, @retry: its flags.
 * @data_type: its data type.
 * @alg: the algorithm's name.
 * @count: elements.
 * @group: the group hash.
 */
struct npa_hccl_op {
	uint32_t dev;
	uint32_t tid;
	uint64_t begin, end;
	uint32_t conn;
	const char *name;
	const char *type;
	bool dynamic;
	bool info;
	uint32_t relay, retry, data_type;
	const char *alg;
	uint64_t count;
	uint64_t group;
};

/*
 * Read host/data's hccl_info and hccl_op_info and find the HCCL tasks and
 * collectives of @h (after its API calls, ops and host tasks are read).
 * Bad records are warned about and skipped.
 */
int npa_hccl_load(struct npa_host *h, const char *data, struct npx_warn *w,
		  struct npuprof_error *err);
void npa_hccl_free(struct npa_host *h);
/* msprof's names of the hccl_info enums ("FP32", "HCCS", "SDMA"...; digits if unknown) */
const char *npa_hccl_data_type(uint32_t v, char *buf, size_t len);
const char *npa_hccl_link_type(uint32_t v, char *buf, size_t len);
const char *npa_hccl_transport(uint32_t v, char *buf, size_t len);
const char *npa_hccl_rdma_type(uint32_t v, char *buf, size_t len);

/* ---- a device (ascend_device.c) ---- */

/**
 * struct npa_pmu - one context PMU record
 * @total: total cycles.
 * @pmu: the counters.
 * @aiv: an AIV task's (ffts type 1), or a MIX_AIV context's: the side
 *       @total and @pmu count.
 * @mix: a mix op's context (FFTS+, subtask type MIX_AIC or MIX_AIV): the
 *       other side counts @total2 and @pmu2, its block PMU records summed
 *       (zero when it has none).
 * @total2: the other side's cycles.
 * @pmu2: its counters.
 */
struct npa_pmu {
	uint64_t total;
	uint64_t pmu[VNPU_PMU_COUNTERS];
	bool aiv;
	bool mix;
	uint64_t total2;
	uint64_t pmu2[VNPU_PMU_COUNTERS];
};

/**
 * struct npa_task - a device task, joined with its host task (AscendTask)
 * @stream: stream.
 * @task: task id.
 * @batch: batch.
 * @ctx: context.
 * @sqe: enum vnpu_sqe_type of its ACSQ log; of an FFTS+ subtask
 *       (@sub), its subtask type.
 * @start: device ns (double, as msprof).
 * @dur: end - start ns.
 * @start_cnt: the syscnt of its start log (0 for an HWTS end with none).
 * @end_cnt: the syscnt of its end log.
 * @host: its host task, -1 for a device-only task.
 * @pmu: its PMU record, -1 when none.
 * @sub: an FFTS+ subtask (a context, from FFTS+ logs), not an ACSQ task.
 * @shadowed: an ACSQ task with a subtask of its (stream, task, batch): the
 *            subtask stands for it in task_time and the timeline.
 */
struct npa_task {
	uint32_t stream;
	uint32_t task;
	uint32_t batch;
	uint32_t ctx;
	uint32_t sqe;
	double start;
	double dur;
	uint64_t start_cnt;
	uint64_t end_cnt;
	int64_t host;
	int64_t pmu;
	bool sub;
	bool shadowed;
};

/* ---- collectives, a device's (ascend_hccl.c) ---- */

/**
 * struct npa_comm_task - an HCCL task joined with its device task
 * (msprof's HCCLTaskSingleDevice)
 * @h: the host's HCCL task.
 * @op: its collective (index in npa_comm.op).
 * @start: the device task's start, ns.
 * @dur: its duration, ns.
 * @iter: how many times its (stream, task, ctx, batch) was seen so far.
 * @bw: bandwidth, GB/s (a negative value: msprof's int 0).
 * @group: the task's group, else its collective's.
 * @have_group: @group is set ("N/A" otherwise).
 * @name: "{node}_{group[-3:]}_{index}_{iter}", owned.
 * @hop: its npa_host.hops entry, -1 for none.
 */
struct npa_comm_task {
	const struct npa_hccl_task *h;
	size_t op;
	double start;
	double dur;
	uint64_t start_cnt, end_cnt; /* its device task's syscnts */
	uint32_t iter;
	double bw;
	uint64_t group;
	bool have_group;
	char *name;
	int64_t hop;
};

/**
 * struct npa_comm_op - an executed collective: the master tasks of one name
 * and launch (get_hccl_op_data_by_group)
 * @name: the op name (a task's).
 * @first: the launch's begin, ns.
 * @hop: the collective, -1 for none.
 * @start: the first master task's start, ns.
 * @end: the last master task's end, ns.
 * @conn: the launch's connection id, -1 for none.
 * @group: the group of its tasks, @have_group.
 * @rank_size: the rank size of the collective's last task.
 * @stat_start, @stat_end: the same over the tasks after the collection start
 *        (communication_statistic); @stat false when there is none.
 */
struct npa_comm_op {
	const char *name;
	uint64_t first;
	int64_t hop;
	double start, end;
	int64_t conn;
	uint64_t group;
	bool have_group;
	int64_t rank_size;
	bool stat;
	double stat_start, stat_end;
};

/**
 * struct npa_comm - a device's collectives
 * @t: its HCCL tasks, by host then device time.
 * @n: their number.
 * @op: its executed collectives, by name and launch.
 * @n_op: their number.
 */
struct npa_comm {
	struct npa_comm_task *t;
	size_t n;
	struct npa_comm_op *op;
	size_t n_op;
};

struct npa_dev;
/* join the host's HCCL tasks to @d's device tasks, name them, group them */
int npa_comm_build(struct npa_dev *d, const struct npa_host *h, struct npuprof_error *err);
void npa_comm_free(struct npa_comm *c);
/* msprof's collection start in device ns (trans_from_local_time_into_dev_raw_time) */
double npa_raw_begin_ns(const struct npa_dev_cfg *c);

/**
 * struct npa_loss - the sums of a loss report (ascend_loss.c)
 * @present: the folder has one (ours).
 * @produced: records made.
 * @lost: dropped where they were made (a full ring, no memory).
 * @written: in the raw files.
 * @not_written: drained but not written (a write error).
 */
struct npa_loss {
	bool present;
	uint64_t produced;
	uint64_t lost;
	uint64_t written;
	uint64_t not_written;
	/* written, of the channels of fixed-size records (not the text dictionaries) */
	uint64_t written_records;
};

void npa_loss_load(const char *dir, struct npa_loss *l, struct npx_warn *w);

/**
 * struct npa_dev - one device_N folder
 * @cfg: its configuration.
 * @tasks: AscendTask rows, sorted by start.
 * @n_tasks: their number.
 * @pmu: the PMU records.
 * @n_pmu: their number.
 * @mismatched: ACSQ starts and ends that did not pair.
 * @loss: its loss report.
 * @aicpu: its AI CPU records (aicpu.data), in file order.
 * @n_aicpu: their number.
 * @comm: its collectives (ascend_hccl.c).
 */
struct npa_dev {
	struct npa_dev_cfg cfg;
	struct npa_loss loss;
	struct npa_aicpu *aicpu;
	size_t n_aicpu;
	struct npa_task *tasks;
	size_t n_tasks;
	struct npa_pmu *pmu;
	size_t n_pmu;
	uint64_t mismatched;
	struct npa_comm comm;
};

/* msprof's StarsCommon stream and task ids of a record's (bits 12, 13 re-encode) */
void npa_stars_ids(uint32_t raw_stream, uint32_t raw_task, uint32_t *stream, uint32_t *task);

/* ---- AI CPU records (ascend_aicpu.c) ---- */

/**
 * struct npa_aicpu - an AI CPU task as msprof's AiCpuData stores it
 * @stream: stream id.
 * @task: task id.
 * @start_ms: run start, ms (time_from_syscnt).
 * @end_ms: run end, ms.
 * @compute_ms: compute phase, ms.
 * @memcpy_ms: output copy, ms.
 * @dispatch_ms: dispatch, ms.
 * @total_ms: submit to after the run, ms.
 */
struct npa_aicpu {
	uint32_t stream;
	uint32_t task;
	double start_ms;
	double end_ms;
	double compute_ms;
	double memcpy_ms;
	double dispatch_ms;
	double total_ms;
};

int npa_aicpu_load(struct npa_dev *d, const char *data, const char *label, struct npx_warn *w,
		   struct npuprof_error *err);

int npa_dev_load(struct npa_dev *d, const char *prof, uint32_t id, const struct npa_host *h,
		 struct npx_warn *w, struct npuprof_error *err);
void npa_dev_free(struct npa_dev *d);

/* ---- PMU columns (ascend_metrics.c) ---- */

#define NPA_MCOL_MAX 32

/**
 * struct npa_metrics - the op_summary PMU columns of a device
 * @n: columns, 0 when the device has no PMU data or its events do not
 *     match its group (msprof then writes none).
 * @name: their header names.
 * @kind: how each is computed (ascend_metrics.c).
 * @ev: the counter (index in the event list) each uses, or -1.
 * @ev2: a second counter, or -1.
 * @k: a bandwidth's pipe width times its scale.
 * @aiv: the column is of the AIV side.
 * @na: the column is computed but printed N/A (chip 7).
 * @flat: one set of columns for every record, AIC or AIV (chips 1, 4, 7).
 * @mb: the columns memory_bound divides: mte2, vec and mac ratios.
 * @cube_util: cube_utilization(%) ends the row.
 * @mac: with @cube_util, the mac_ratio column it is computed from.
 */
struct npa_metrics {
	unsigned int n;
	char name[NPA_MCOL_MAX][48];
	uint8_t kind[NPA_MCOL_MAX];
	double k[NPA_MCOL_MAX];
	int8_t ev[NPA_MCOL_MAX];
	int8_t ev2[NPA_MCOL_MAX];
	bool aiv[NPA_MCOL_MAX];
	bool na[NPA_MCOL_MAX];
	bool flat;
	int8_t mb[3];
	bool cube_util;
	int8_t mac;
};

/* the columns of @c's groups; a warning when the events do not match them */
void npa_metrics_init(struct npa_metrics *m, const struct npa_dev_cfg *c, struct npx_warn *w);
/* ",name,..." */
char *npa_metrics_header(const struct npa_metrics *m, char *p);
/*
 * ",v,...": the values for a task of @block_num blocks (@mix_block_num for
 * the other core) lasting @dur_ns (on msprof's C++ path, @c->cpp.ok: the Task
 * Duration cell's us, which its cube utilization divides by), with PMU
 * record @pmu (NULL: N/A).
 */
char *npa_metrics_row(const struct npa_metrics *m, const struct npa_dev_cfg *c,
		      const struct npa_pmu *pmu, uint32_t block_num, uint32_t mix_block_num,
		      double dur_ns, char *p);

/* ---- summaries (ascend_summary.c) ---- */

struct npa_export;

/* A CSV field as Python's csv writer writes it: quoted if it holds , " CR LF (2 * max + 2) */
char *npa_csv_field(char *p, const char *s, size_t max);
int npa_op_summary(struct npa_export *x, const struct npa_dev *d);
/* aicpu_{ts}.csv rows of @d (ascend_aicpu.c) */
int npa_aicpu_csv(struct npa_export *x, const struct npa_dev *d);
int npa_task_time(struct npa_export *x, const struct npa_dev *d);
/*
 * task_time's kernel_type of a device task with no host task: its SQE
 * type's name on the chip (STARS or HWTS), its subtask type's for an FFTS+
 * subtask; "Other" for a type the chip's enum lacks (and every task of
 * chip 1), digits for a subtask type without a name (ascend_summary.c)
 */
const char *npa_sqe_name(uint32_t sqe, bool sub, uint32_t chip);
int npa_op_statistic(struct npa_export *x, const struct npa_dev *d);
int npa_api_statistic(struct npa_export *x, const struct npa_dev *d);
/* communication_statistic_{ts}.csv rows of @d (ascend_communication.c) */
int npa_comm_statistic(struct npa_export *x, const struct npa_dev *d);
/* analyze/communication.json and communication_matrix.json, after the commit */
int npa_comm_analyze(struct npa_export *x);
/* msprof_{ts}.json of every device into @f (ascend_timeline.c) */
int npa_timeline(struct npa_export *x, struct npx_out *o, struct npx_file *f);

/**
 * struct npa_export - one export
 * @prof: the PROF_* folder.
 * @o: the output folder.
 * @w: warnings.
 * @host: host/.
 * @dev: the devices, in output order (device id as a string).
 * @ndev: their number.
 * @op_summary, ...: the CSVs.
 * @timeline: msprof_{ts}.json.
 * @readme: README.txt.
 * @out: the output files, in commit order.
 * @progress: the caller's progress callback, or NULL; @progress_arg its arg.
 * @total: bytes of raw data in the folder (host/data, device_N/data).
 * @done: bytes of it read so far.
 * @dev_bytes: bytes of each device's data/, as @dev.
 */
struct npa_export {
	const char *prof;
	struct npx_out o;
	struct npx_warn w;
	struct npa_host host;
	struct npa_loss host_loss;
	struct npa_dev dev[NPA_MAX_DEVICES];
	unsigned int ndev;
	struct npx_csv op_summary;
	struct npx_csv task_time;
	struct npx_csv op_stat;
	struct npx_csv api_stat;
	struct npx_csv aicpu;
	struct npx_csv comm_stat;
	struct npx_file timeline;
	struct npx_file readme;
	struct npx_outputs out;
	/* the C++ path's op_summary wait chain runs over every device's rows */
	bool cpp_have_prev;
	double cpp_prev_start, cpp_prev_dur;
	npuprof_progress_fn progress;
	void *progress_arg;
	uint64_t total;
	uint64_t done;
	uint64_t dev_bytes[NPA_MAX_DEVICES];
};

#endif /* NPUPROF_INTERNAL_H */
