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
 *  - leaving the scope however it is left stops and exports: the end of
 *    the block, break/return/goto, exit() (an atexit handler, as global
 *    profiling's), and the end of the thread that started it (a
 *    thread-specific destructor), so that a thread that dies never locks
 *    the process out of the Profiler.
 *
 * The one-at-a-time rule is why this file has process-wide state.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "vnpu_prof.h"

/* The process's profiler (the one-at-a-time rule). */
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npc_collector *prof_collector;
static pthread_t prof_owner;
static char prof_dir[PATH_MAX];
static pthread_once_t prof_once = PTHREAD_ONCE_INIT;
static pthread_key_t prof_owner_key;

/*
 * A child of fork() is in no Profiler: it drops the parent's without a word
 * to the devices, and its own npuprof_profiler_stop() says "not started".
 */
static void prof_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	prof_lock = fresh;
	if (prof_collector)
		npc_forget(prof_collector);
	prof_collector = NULL;
	prof_dir[0] = '\0';
}

/* Stop and export the session, from outside any call: errors are printed. */
static void prof_finish_unowned(const char *why)
{
	struct npuprof_error e;

	if (!prof_collector)
		return;
	if (npc_finish(prof_collector, 1, &e))
		npx_print(NPUPROF_ERROR, "npuprof: error: the Profiler, stopped at %s: %s\n", why,
			  e.msg);
	prof_collector = NULL;
}

/* exit() inside a scope: stop and export, as global profiling does */
static void prof_exit(void)
{
	pthread_mutex_lock(&prof_lock);
	prof_finish_unowned("exit");
	pthread_mutex_unlock(&prof_lock);
}

/* The thread that started the Profiler ends inside the scope. */
static void prof_owner_exit(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&prof_lock);
	if (prof_collector && pthread_equal(prof_owner, pthread_self()))
		prof_finish_unowned("the end of its thread");
	pthread_mutex_unlock(&prof_lock);
}

static void prof_init(void)
{
	pthread_atfork(NULL, NULL, prof_atfork_child);
	pthread_key_create(&prof_owner_key, prof_owner_exit);
	atexit(prof_exit);
}

/*
 * Global profiling is configured: PROFILING_MODE is "true", or
 * PROFILING_OPTIONS is set and not empty (the adapter documents both as
 * incompatible with the Profiler; its code checks the first at run time).
 */
static bool global_conflict(void)
{
	const char *opts = getenv("PROFILING_OPTIONS");

	return npr_global_configured() || (opts && *opts);
}

/*
 * The TF adapter's GetLevel: an exact key of its map (NULL is our default,
 * "L0"; an empty string is a value, and the adapter rejects it).
 */
int nps_parse_level(const char *level, uint32_t *out, struct npuprof_error *err)
{
	uint32_t l = level ? npf_level_of(level, false) : VNPU_PROF_L0;
	char names[32];

	if (l < VNPU_PROF_LEVEL_COUNT) {
		*out = l;
		return 0;
	}
	npf_level_names(names, sizeof(names), false);
	return npx_set_error(err, -EINVAL,
			     "Profiler options: level cannot set to: %s, should set level"
			     " to [%s].",
			     level, names);
}

int nps_parse_metrics(const char *metrics, uint32_t level, bool msprof_names, uint32_t *out,
		      struct npuprof_error *err)
{
	char keys[256];

	if (!metrics || !*metrics) {
		*out = VNPU_METRIC_NONE; /* the product's default at L1/L2 (uapi/vnpu_prof.h) */
		return 0;
	}
	/* the adapter checks this before the name: any value at L0 */
	if (level == VNPU_PROF_L0)
		return npx_set_error(err, -EINVAL,
				     "Please use L1 or L2 if you want to collect aic metrics!");
	*out = msprof_names ? npf_metric_group_msprof(metrics) : npf_metric_group(metrics, true);
	if (*out != VNPU_METRIC_NONE)
		return 0;
	npf_metric_keys(keys, sizeof(keys), msprof_names);
	if (msprof_names)
		return npx_set_error(err, -EINVAL, "aic_metrics '%s' is not one of: %s", metrics,
				     keys);
	return npx_set_error(err, -EINVAL,
			     "Profiler options: aic_metrics cannot set to: %s, should set"
			     " aic_metrics to [%s].",
			     metrics, keys);
}

/*
 * The option rules as public calls, so that a tool (npuprof run) checks a
 * value before it starts anything, with the Profiler's own words; they
 * wrap the functions the Profiler uses, so the two cannot drift apart.
 */
NPUPROF_API int npuprof_level_parse(const char *name, uint32_t *level, struct npuprof_error *err)
{
	npx_clear_error(err);
	if (!level)
		return npx_set_error(err, -EINVAL, "npuprof_level_parse: level is NULL");
	return nps_parse_level(name, level, err);
}

NPUPROF_API const char *npuprof_level_name(uint32_t level)
{
	return npf_level_spelling(level, false);
}

NPUPROF_API int npuprof_metrics_parse(const char *name, uint32_t level, uint32_t *group,
				      struct npuprof_error *err)
{
	npx_clear_error(err);
	if (!group)
		return npx_set_error(err, -EINVAL, "npuprof_metrics_parse: group is NULL");
	return nps_parse_metrics(name, level, false, group, err);
}

NPUPROF_API int npuprof_metrics_parse_msprof(const char *name, uint32_t level, uint32_t *group,
					     struct npuprof_error *err)
{
	npx_clear_error(err);
	if (!group)
		return npx_set_error(err, -EINVAL, "npuprof_metrics_parse_msprof: group is NULL");
	return nps_parse_metrics(name, level, true, group, err);
}

NPUPROF_API int npuprof_output_check(const char *path, const char *what, char *resolved, size_t len,
				     struct npuprof_error *err)
{
	char dir[PATH_MAX];
	int ret;

	npx_clear_error(err);
	if (!resolved || !len)
		return npx_set_error(err, -EINVAL, "npuprof_output_check: no buffer");
	resolved[0] = '\0';
	what = what ? what : "output_path";
	ret = nps_output_dir(path, what, what, dir, err);
	if (ret)
		return ret;
	if (snprintf(resolved, len, "%s", dir) >= (int)len)
		return npx_set_error(err, -ERANGE, "output directory '%s' is longer than %zu bytes",
				     dir, len - 1);
	return 0;
}

NPUPROF_API int npuprof_profiler_start_v0_2(const struct npuprof_options *user,
					    struct npuprof_error *err)
{
	struct npuprof_options o = { .sz = sizeof(o) }, *opts = &o;
	struct npc_opts co;
	struct npuprof_dev *dev = npuprof_current();
	struct npc_collector *c;
	char dir[PATH_MAX];
	int ret;

	npx_clear_error(err);
	/* the struct itself before any rule: a caller's bug, not an option */
	ret = npx_opts_check(user, sizeof(*user), "npuprof_options", err);
	if (ret)
		return ret;
	o.level = npx_opts_get(user, level, NULL);
	o.aic_metrics = npx_opts_get(user, aic_metrics, NULL);
	o.output_path = npx_opts_get(user, output_path, NULL);
	pthread_once(&prof_once, prof_init);
	pthread_mutex_lock(&prof_lock);
	/* the adapter's order: nesting, the level, aic_metrics; then ours */
	if (prof_collector) {
		if (pthread_equal(prof_owner, pthread_self()))
			ret = npx_set_error(err, -EALREADY,
					    "Not support nested call 'profiler.Profiler'.");
		else
			ret = npx_set_error(err, -EBUSY,
					    "Not support nested call 'profiler.Profiler'. (it is"
					    " active in another thread: one profiler at a time"
					    " per process)");
		goto out_unlock;
	}
	ret = nps_parse_level(opts->level, &co.level, err);
	if (!ret)
		ret = nps_parse_metrics(opts->aic_metrics, co.level, false, &co.metric_group, err);
	if (!ret && global_conflict())
		ret = npx_set_error(err, -EPERM,
				    "The option 'profiling_mode' or env variables 'PROFILING_MODE'"
				    " cannot be set to true when using 'profiler.Profiler'.");
	if (!ret)
		ret = nps_output_dir(opts->output_path, "output_path", "output_path", dir, err);
	if (ret)
		goto out_unlock;
	co.output_dir = dir;
	if (!dev) {
		ret = npx_set_error(err, -ENODEV,
				    "no current device: open one with npuprof_open() first");
		goto out_unlock;
	}
	if (!(dev->rec.info.caps & VNPU_CAP_SCOPED_PROFILING)) {
		ret = npx_set_error(err, -EOPNOTSUPP,
				    "the Profiler is not supported on %s (vnpu%u)",
				    dev->rec.info.product_name, dev->rec.id);
		goto out_unlock;
	}
	ret = npc_create(&co, &c, err);
	if (ret)
		goto out_unlock;
	ret = npc_add(c, dev->rec.id, err);
	if (!ret)
		ret = npc_start(c, err);
	if (ret) {
		/* nothing was collected: leave no PROF_* folder behind */
		npc_discard(c);
		goto out_unlock;
	}
	snprintf(prof_dir, sizeof(prof_dir), "%s", npc_dir(c));
	prof_collector = c;
	prof_owner = pthread_self();
	/* any non-NULL value: the destructor runs if the thread ends now */
	pthread_setspecific(prof_owner_key, &prof_owner_key);
out_unlock:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

NPUPROF_API int npuprof_profiler_stop(struct npuprof_error *err)
{
	int ret;

	npx_clear_error(err);
	pthread_mutex_lock(&prof_lock);
	if (!prof_collector) {
		ret = npx_set_error(err, -ENOENT, "the Profiler is not started");
	} else if (!pthread_equal(prof_owner, pthread_self())) {
		ret = npx_set_error(err, -EBUSY, "the Profiler was started by another thread");
	} else {
		ret = npc_finish(prof_collector, 1, err);
		prof_collector = NULL;
		pthread_setspecific(prof_owner_key, NULL);
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
	return ret == -ENOENT ? nps_global_dir(buf, len) : ret;
}

NPUPROF_DEFAULT(npuprof_profiler_start_v0_2, npuprof_profiler_start, "LIBNPUPROF_0.2");

NPUPROF_API struct npuprof_scope *npuprof_scope_enter_v0_2(struct npuprof_scope *scope,
							   const struct npuprof_options *opts)
{
	memset(scope, 0, sizeof(*scope));
	scope->ret = npuprof_profiler_start_v0_2(opts, &scope->err);
	scope->active = !scope->ret;
	scope->ran = scope->active;
	return scope->active ? scope : NULL;
}
NPUPROF_DEFAULT(npuprof_scope_enter_v0_2, npuprof_scope_enter, "LIBNPUPROF_0.2");

/*
 * LIBNPUPROF_0.1's struct npuprof_options had no sz: programs linked
 * against it call these.
 */
struct npuprof_options_v0_1 {
	const char *level;
	const char *aic_metrics;
	const char *output_path;
};

static const struct npuprof_options *options_from_v0_1(const struct npuprof_options_v0_1 *old,
						       struct npuprof_options *o)
{
	if (!old)
		return NULL;
	*o = (struct npuprof_options){
		.sz = sizeof(*o),
		.level = old->level,
		.aic_metrics = old->aic_metrics,
		.output_path = old->output_path,
	};
	return o;
}

NPUPROF_API int npuprof_profiler_start_v0_1(const struct npuprof_options_v0_1 *old,
					    struct npuprof_error *err)
{
	struct npuprof_options o;

	return npuprof_profiler_start_v0_2(options_from_v0_1(old, &o), err);
}
NPUPROF_COMPAT(npuprof_profiler_start_v0_1, npuprof_profiler_start, "LIBNPUPROF_0.1");

/* 0.1's struct npuprof_scope ended at @active: this writes no further */
NPUPROF_API struct npuprof_scope *npuprof_scope_enter_v0_1(struct npuprof_scope *scope,
							   const struct npuprof_options_v0_1 *old)
{
	struct npuprof_options o;

	memset(scope, 0, offsetof(struct npuprof_scope, ran));
	scope->ret = npuprof_profiler_start_v0_2(options_from_v0_1(old, &o), &scope->err);
	scope->active = !scope->ret;
	return scope->active ? scope : NULL;
}
NPUPROF_COMPAT(npuprof_scope_enter_v0_1, npuprof_scope_enter, "LIBNPUPROF_0.1");

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
