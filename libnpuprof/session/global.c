// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: global profiling, the msprof convention: with
 * PROFILING_MODE=true and PROFILING_OPTIONS (a JSON object) in the
 * environment, every device the process opens is profiled from open until
 * exit, into one PROF_* folder, exported at exit. `npuprof run` sets these.
 *
 * PROFILING_OPTIONS keys (strings):
 *   output       the directory for the PROF_* folder (default: as the
 *                Profiler's output_path "")
 *   level        "L0", "L1" or "L2"; or, msprof style:
 *   task_time    "l0", "l1" ("on"), "l2"; "off" is not supported
 *   aic_metrics  a metric group by msprof's name: the Profiler's seven,
 *                PipelineExecuteUtilization and MemoryAccess
 *   aicpu, runtime_api   "on" raises the level to L2
 * Unknown keys are ignored (msprof has many); bad values are errors that
 * make npuprof_open() fail with a message.
 *
 * With NPUPROF_REPORT_FD set (npuprof run sets it), the PROF_* folder's
 * path goes to that socket as soon as the folder is made (report.c).
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "vnpu_prof.h"

/* The process's global collection (one per process, by definition). */
static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npc_collector *global_collector;
static char global_dir[PATH_MAX];
static int global_failed;
static struct npuprof_error global_err; /* why, when global_failed */
static pthread_once_t global_atfork_once = PTHREAD_ONCE_INIT;

/*
 * A child of fork() drops the parent's collection without a word to the
 * devices (the inherited atexit handler then finds nothing to stop); if it
 * opens a device itself, it starts a collection, and a folder, of its own.
 */
static void global_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	global_lock = fresh;
	if (global_collector)
		npc_forget(global_collector);
	global_collector = NULL;
	global_dir[0] = '\0';
	global_failed = 0;
}

/*
 * The runtime opens a device: global profiling profiles it. Registered
 * before the program's own constructors (priority 101, the first a
 * program may use): a statically linked program's constructors run before
 * the library's default ones, and one of them may open a device (test_cli's
 * workloads do; test_layers checks it).
 */
__attribute__((constructor(101))) static void global_hook_register(void)
{
	npr_set_open_hook(nps_global_device_opened);
}

static void global_atfork_register(void)
{
	pthread_atfork(NULL, NULL, global_atfork_child);
}

/* Copy global profiling's PROF_* folder to @buf: 0, -ENOENT or -ERANGE. */
int nps_global_dir(char *buf, size_t len)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&global_lock);
	if (global_dir[0])
		ret = snprintf(buf, len, "%s", global_dir) < (int)len ? 0 : -ERANGE;
	pthread_mutex_unlock(&global_lock);
	return ret;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Parse PROFILING_OPTIONS into @co (its output_dir points into @dir). */
int nps_global_parse(const char *json, struct npc_opts *co, char *dir, struct npuprof_error *err)
{
	const char *level, *task_time, *metrics, *output, *on;
	struct json_object *o;
	int ret = 0;

	o = json_tokener_parse(json ? json : "{}");
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return npx_set_error(err, -EINVAL, "PROFILING_OPTIONS is not a JSON object: '%s'",
				     json);
	}
	level = jstr(o, "level");
	task_time = jstr(o, "task_time");
	metrics = jstr(o, "aic_metrics");
	output = jstr(o, "output");

	if (level) {
		ret = nps_parse_level(level, &co->level, err);
	} else if (task_time) {
		/* msprof's level names, and "on" for l1 */
		uint32_t l =
			!strcmp(task_time, "on") ? VNPU_PROF_L1 : npf_level_of(task_time, true);
		char names[32];

		if (l < VNPU_PROF_LEVEL_COUNT) {
			co->level = l;
		} else {
			npf_level_names(names, sizeof(names), true);
			ret = npx_set_error(err, -EINVAL,
					    "PROFILING_OPTIONS task_time '%s' is not valid: use "
					    "%s or on",
					    task_time, names);
		}
	} else {
		co->level = VNPU_PROF_L1;
	}
	on = jstr(o, "aicpu");
	if (!ret && on && !strcmp(on, "on") && co->level < VNPU_PROF_L2)
		co->level = VNPU_PROF_L2;
	on = jstr(o, "runtime_api");
	if (!ret && on && !strcmp(on, "on") && co->level < VNPU_PROF_L2)
		co->level = VNPU_PROF_L2;
	if (!ret)
		ret = nps_parse_metrics(metrics, co->level, true, &co->metric_group, err);
	if (!ret)
		ret = nps_output_dir(output, "PROFILING_OPTIONS output", "output", dir, err);
	co->output_dir = dir;
	json_object_put(o);
	return ret;
}

static void global_exit(void)
{
	struct npuprof_error err;

	pthread_mutex_lock(&global_lock);
	if (global_collector) {
		if (npc_finish(global_collector, 1, &err))
			npx_print(NPUPROF_ERROR, "npuprof: error: global profiling: %s\n", err.msg);
		global_collector = NULL;
	}
	pthread_mutex_unlock(&global_lock);
}

/*
 * A device is opened: profile it. When that fails, so does the open, and
 * the message is printed too (the program may not print it, and
 * `npuprof run` users look there). When the first device fails, global
 * profiling has failed: its PROF_* folder is removed and every later open
 * fails with the same error.
 */
int nps_global_device_opened(struct npuprof_dev *dev, struct npuprof_error *err)
{
	static char dir[PATH_MAX];
	static int exit_set;
	char report[PATH_MAX] = "";
	struct npc_opts co;
	struct npuprof_error e;
	int ret = 0;

	if (!npr_global_configured())
		return 0;
	pthread_once(&global_atfork_once, global_atfork_register);
	npx_clear_error(&e);
	pthread_mutex_lock(&global_lock);
	if (global_failed) {
		ret = global_err.code;
		if (err)
			*err = global_err;
		goto out_unlock;
	}
	if (!global_collector) {
		ret = nps_global_parse(getenv("PROFILING_OPTIONS"), &co, dir, &e);
		if (!ret)
			ret = npc_create(&co, &global_collector, &e);
		if (ret)
			goto failed;
		snprintf(global_dir, sizeof(global_dir), "%s", npc_dir(global_collector));
		if (!exit_set)
			atexit(global_exit);
		exit_set = 1;
		ret = npc_add(global_collector, dev->rec.id, &e);
		if (!ret)
			ret = npc_start(global_collector, &e);
		if (ret) {
			npc_discard(global_collector);
			global_collector = NULL;
			global_dir[0] = '\0';
			goto failed;
		}
		/* the folder stays now: tell npuprof run before any task runs */
		snprintf(report, sizeof(report), "%s", global_dir);
		goto out_unlock;
	}
	ret = npc_add(global_collector, dev->rec.id, &e);
	if (ret) {
		npx_print(NPUPROF_ERROR, "npuprof: error: global profiling: %s\n", e.msg);
		if (err)
			*err = e;
	}
	goto out_unlock;
failed:
	global_failed = 1;
	global_err = e;
	npx_print(NPUPROF_ERROR, "npuprof: error: global profiling: %s\n", e.msg);
	if (err)
		*err = e;
out_unlock:
	pthread_mutex_unlock(&global_lock);
	/* outside the lock: a slow reader must not hold up other threads' opens */
	if (report[0])
		nps_report_dir(report);
	return ret;
}
