/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: internals shared by the runtime, the profiler and the
 * collector. Not installed.
 */
#ifndef NPUPROF_INTERNAL_H
#define NPUPROF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "npuprof.h"
#include "raw_format.h"

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
struct npuprof_dev {
	int fd;
	unsigned int id;
	struct vnpu_info info;
	uint16_t *hw_stream;
	uint64_t serial;
	struct npuprof_dev *next_open;
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
 * at @start_ns.
 */
bool npuprof_host_recording(void);
void npuprof_api_record(enum npuprof_api_id api, uint64_t start_ns, uint64_t rt_start,
			uint64_t rt_end);
void npuprof_launch_record(const struct npuprof_dev *dev, const struct vnpu_task *tasks,
			   unsigned int n, const uint64_t *ids, uint64_t start_ns);

/*
 * fileio.c: write all of @buf at @off (or at the file position when -1),
 * retrying short writes and EINTR; on failure, the bytes written in *@done.
 */
int npuprof_write_at(int fd, const void *buf, size_t n, int64_t off, size_t *done);

/*
 * metric_names.c: the group of a metric name (VNPU_METRIC_NONE if none):
 * only the Profiler's aic_metrics keys with @profiler_keys_only, else
 * every name sample.json may give; and the name sample.json gives the
 * group a device of @chip_id programmed on its AIC or AIV side.
 */
uint32_t npuprof_metric_group(const char *name, bool profiler_keys_only);
const char *npuprof_metric_sample_name(uint32_t group, uint32_t chip_id, bool aiv);

/* global.c: PROFILING_MODE=true profiles every device the process opens. */
int npuprof_global_device_opened(struct npuprof_dev *dev, struct npuprof_error *err);
/* The PROF_* folder of global profiling, or NULL. */
int npuprof_global_dir(char *buf, size_t len);
/* Is global profiling configured in the environment? */
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

#endif /* NPUPROF_INTERNAL_H */
