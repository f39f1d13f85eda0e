// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the Profiler - the TF adapter's Profiler(level, aic_metrics,
 * output_path) with all its rules:
 *
 *  - level "L0" (default: NULL), "L1", "L2"; anything else, "" included,
 *    is an error with the adapter's words naming the valid keys;
 *  - aic_metrics "" (none at L0, PipeUtilization at L1/L2) or one of the
 *    seven groups; a group at L0 is an error ("Please use L1 or L2 if you
 *    want to collect aic metrics!");
 *  - output_path "" is $ASCEND_WORK_PATH if set, else "./"; it must exist,
 *    be a directory the user can read and write, and hold none of
 *    \n \f \r \b \t \v \x7F (prof_dir.c, shared with global profiling);
 *  - one profiler at a time in the process: nesting is an error, and so is
 *    a start from a second thread while one is active;
 *  - not while global profiling is configured (PROFILING_MODE=true, or
 *    PROFILING_OPTIONS set and not empty);
 *  - the checks in the adapter's order: nesting, level, aic_metrics, then
 *    global profiling, the output path, the device;
 *  - not on products without the Profiler (200I/500 A2, inference series).
 *
 * The one-at-a-time rule is why this file has process-wide state.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof_internal.h"
#include "vnpu_prof.h"

/* The process's profiler (the one-at-a-time rule). */
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npuprof_collector *prof_collector;
static pthread_t prof_owner;
static char prof_dir[PATH_MAX];
static pthread_once_t prof_atfork_once = PTHREAD_ONCE_INIT;

/*
 * A child of fork() is in no Profiler: it drops the parent's without a word
 * to the devices, and its own npuprof_profiler_stop() says "not started".
 */
static void prof_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	prof_lock = fresh;
	if (prof_collector)
		npuprof_collector_forget(prof_collector);
	prof_collector = NULL;
	prof_dir[0] = '\0';
}

static void prof_atfork_register(void)
{
	pthread_atfork(NULL, NULL, prof_atfork_child);
}

/*
 * Global profiling is configured: PROFILING_MODE is "true", or
 * PROFILING_OPTIONS is set and not empty (the adapter documents both as
 * incompatible with the Profiler; its code checks the first at run time).
 */
static bool global_conflict(void)
{
	const char *opts = getenv("PROFILING_OPTIONS");

	return npuprof_global_configured() || (opts && *opts);
}

/*
 * The TF adapter's GetLevel: an exact key of its map (NULL is our default,
 * "L0"; an empty string is a value, and the adapter rejects it).
 */
int npuprof_parse_level(const char *level, uint32_t *out, struct npuprof_error *err)
{
	uint32_t l = level ? npuprof_level_of(level, false) : VNPU_PROF_L0;
	char names[32];

	if (l < VNPU_PROF_LEVEL_COUNT) {
		*out = l;
		return 0;
	}
	npuprof_level_names(names, sizeof(names), false);
	return npuprof_set_error(err, -EINVAL,
				 "Profiler options: level cannot set to: %s, should set level"
				 " to [%s].",
				 level, names);
}

int npuprof_parse_metrics(const char *metrics, uint32_t level, uint32_t *out,
			  struct npuprof_error *err)
{
	char keys[160];

	if (!metrics || !*metrics) {
		*out = VNPU_METRIC_NONE; /* the device default: PipeUtilization at L1/L2 */
		return 0;
	}
	/* the adapter checks this before the name: any value at L0 */
	if (level == VNPU_PROF_L0)
		return npuprof_set_error(err, -EINVAL,
					 "Please use L1 or L2 if you want to collect aic metrics!");
	*out = npuprof_metric_group(metrics, true);
	if (*out != VNPU_METRIC_NONE)
		return 0;
	npuprof_metric_keys(keys, sizeof(keys));
	return npuprof_set_error(err, -EINVAL,
				 "Profiler options: aic_metrics cannot set to: %s, should set"
				 " aic_metrics to [%s].",
				 metrics, keys);
}

NPUPROF_API int npuprof_profiler_start(const struct npuprof_options *opts,
				       struct npuprof_error *err)
{
	static const struct npuprof_options defaults;
	struct npuprof_collect_opts co;
	struct npuprof_dev *dev = npuprof_current();
	struct npuprof_collector *c;
	char dir[PATH_MAX];
	int ret;

	npuprof_clear_error(err);
	if (!opts)
		opts = &defaults;
	pthread_once(&prof_atfork_once, prof_atfork_register);
	pthread_mutex_lock(&prof_lock);
	/* the adapter's order: nesting, the level, aic_metrics; then ours */
	if (prof_collector) {
		if (pthread_equal(prof_owner, pthread_self()))
			ret = npuprof_set_error(err, -EALREADY,
						"Not support nested call 'profiler.Profiler'.");
		else
			ret = npuprof_set_error(
				err, -EBUSY,
				"Not support nested call 'profiler.Profiler'. (it is"
				" active in another thread: one profiler at a time"
				" per process)");
		goto out_unlock;
	}
	ret = npuprof_parse_level(opts->level, &co.level, err);
	if (!ret)
		ret = npuprof_parse_metrics(opts->aic_metrics, co.level, &co.metric_group, err);
	if (!ret && global_conflict())
		ret = npuprof_set_error(
			err, -EPERM,
			"The option 'profiling_mode' or env variables 'PROFILING_MODE'"
			" cannot be set to true when using 'profiler.Profiler'.");
	if (!ret)
		ret = npuprof_output_dir(opts->output_path, "output_path", "output_path", dir, err);
	if (ret)
		goto out_unlock;
	co.output_dir = dir;
	if (!dev) {
		ret = npuprof_set_error(err, -ENODEV,
					"no current device: open one with npuprof_open() first");
		goto out_unlock;
	}
	if (!(dev->info.caps & VNPU_CAP_SCOPED_PROFILING)) {
		ret = npuprof_set_error(err, -EOPNOTSUPP,
					"the Profiler is not supported on %s (vnpu%u)",
					dev->info.product_name, dev->id);
		goto out_unlock;
	}
	ret = npuprof_collector_create(&co, &c, err);
	if (ret)
		goto out_unlock;
	ret = npuprof_collector_add(c, dev->id, err);
	if (!ret)
		ret = npuprof_collector_start(c, err);
	if (ret) {
		/* nothing was collected: leave no PROF_* folder behind */
		npuprof_collector_discard(c);
		goto out_unlock;
	}
	snprintf(prof_dir, sizeof(prof_dir), "%s", npuprof_collector_dir(c));
	prof_collector = c;
	prof_owner = pthread_self();
out_unlock:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

NPUPROF_API int npuprof_profiler_stop(struct npuprof_error *err)
{
	int ret;

	npuprof_clear_error(err);
	pthread_mutex_lock(&prof_lock);
	if (!prof_collector) {
		ret = npuprof_set_error(err, -ENOENT, "the Profiler is not started");
	} else if (!pthread_equal(prof_owner, pthread_self())) {
		ret = npuprof_set_error(err, -EBUSY, "the Profiler was started by another thread");
	} else {
		ret = npuprof_collector_finish(prof_collector, 1, err);
		prof_collector = NULL;
	}
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

NPUPROF_API int npuprof_profiler_dir(char *buf, size_t len)
{
	int ret = -ENOENT;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	/* under the lock the next session writes it under */
	pthread_mutex_lock(&prof_lock);
	if (prof_dir[0])
		ret = snprintf(buf, len, "%s", prof_dir) < (int)len ? 0 : -ERANGE;
	pthread_mutex_unlock(&prof_lock);
	return ret == -ENOENT ? npuprof_global_dir(buf, len) : ret;
}

NPUPROF_API struct npuprof_scope *npuprof_scope_enter(struct npuprof_scope *scope,
						      const struct npuprof_options *opts)
{
	memset(scope, 0, sizeof(*scope));
	scope->ret = npuprof_profiler_start(opts, &scope->err);
	scope->active = !scope->ret;
	return scope->active ? scope : NULL;
}

/* The block ran to its end: stop, and end the loop. */
NPUPROF_API struct npuprof_scope *npuprof_scope_next(struct npuprof_scope *scope)
{
	scope->active = 0;
	scope->ret = npuprof_profiler_stop(&scope->err);
	return NULL;
}

/* The block was left early (break, return, goto): stop. */
NPUPROF_API void npuprof_scope_cleanup(struct npuprof_scope **guard)
{
	if (*guard && (*guard)->active)
		npuprof_scope_next(*guard);
}
