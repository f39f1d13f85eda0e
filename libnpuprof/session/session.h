/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof session/: the Profiler and its rules (profiler.c), global
 * profiling from PROFILING_MODE and PROFILING_OPTIONS (global.c), the
 * output directory (prof_dir.c) and the report of a folder made
 * (report.c). The one place that decides when a collection starts.
 */
#ifndef NPS_SESSION_H
#define NPS_SESSION_H

#include "core/core.h"
#include "format/format.h"
#include "runtime/runtime.h"
#include "collect/collect.h"

/*
 * global.c: PROFILING_MODE=true profiles every device the process opens
 * (the runtime's open hook). A static link gets it with the session: any
 * Profiler call, or -Wl,--undefined=nps_global_device_opened
 * (pkg-config --static).
 */
int nps_global_device_opened(struct npuprof_dev *dev, struct npuprof_error *err);
/* The PROF_* folder of global profiling, or NULL. */
int nps_global_dir(char *buf, size_t len);

/*
 * report.c: send @dir (a PROF_* folder just made) to the socket
 * NPUPROF_REPORT_FD names, as one "DIR\n" message; 0, or why not (-ENOENT:
 * no variable; -EINVAL: malformed; -EBADF, -ENOTSOCK: not the socket the
 * variable was made for; the send's -errno). Never blocks long, never
 * raises SIGPIPE.
 */
int nps_report_dir(const char *dir);

/*
 * profiler.c: the Profiler's options, checked with the TF adapter's rules
 * and words: @level (NULL: L0) into *@out, and @metrics ("" or NULL: the
 * device default) at @level into *@out.
 */
int nps_parse_level(const char *level, uint32_t *out, struct npuprof_error *err);
int nps_parse_metrics(const char *metrics, uint32_t level, bool msprof_names, uint32_t *out,
		      struct npuprof_error *err);

/*
 * prof_dir.c: the directory a PROF_* folder goes in, checked and
 * resolved into @resolved (PATH_MAX bytes): @path when set and not empty,
 * else $ASCEND_WORK_PATH when set and not empty, else "./". Messages name
 * @path @what, and "./" @default_what. nps_check_output_path() checks
 * one candidate: it exists, is a directory the user can read and write,
 * and holds none of \n \f \r \b \t \v \x7F.
 */
int nps_output_dir(const char *path, const char *what, const char *default_what, char *resolved,
		   struct npuprof_error *err);
int nps_check_output_path(const char *path, const char *what, char *resolved,
			  struct npuprof_error *err);

/* global.c: parse PROFILING_OPTIONS @json into @co (its output_dir points into @dir). */
int nps_global_parse(const char *json, struct npc_opts *co, char *dir, struct npuprof_error *err);

#endif /* NPS_SESSION_H */
