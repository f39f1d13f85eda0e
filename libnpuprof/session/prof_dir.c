// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: where a PROF_* folder goes, for the Profiler and for global
 * profiling alike: the precedence (an explicit path, else
 * ${ASCEND_WORK_PATH}/profiling_data, created when missing, as CANN puts
 * it, else the current directory) and the checks the adapter makes of the
 * directory, in one place so that the two ways to profile cannot
 * disagree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

static const char *char_name(char c)
{
	switch (c) {
	case '\n':
		return "\\n";
	case '\f':
		return "\\f";
	case '\r':
		return "\\r";
	case '\b':
		return "\\b";
	case '\t':
		return "\\t";
	case '\v':
		return "\\v";
	default:
		return "\\x7F";
	}
}

/* The first forbidden character of @path, or NULL. */
static const char *forbidden(const char *path)
{
	for (const char *p = path; *p; p++)
		if (strchr("\n\f\r\b\t\v\x7f", *p))
			return p;
	return NULL;
}

int nps_check_output_path(const char *path, const char *what, char *resolved,
			  struct npuprof_error *err)
{
	const char *bad = NULL;
	struct stat st;

	if (strlen(path) >= PATH_MAX)
		return npx_set_error(err, -ENAMETOOLONG, "%s is longer than %d bytes", what,
				     PATH_MAX - 1);
	bad = forbidden(path);
	if (bad)
		return npx_set_error(err, -EINVAL,
				     "%s '%s' contains the forbidden character %s "
				     "(at offset %zu)",
				     what, path, char_name(*bad), (size_t)(bad - path));
	if (stat(path, &st)) {
		int e = errno;

		if (e == ENOENT)
			return npx_set_error(err, -e, "%s '%s' does not exist", what, path);
		/* a parent without search permission, a file as a parent, a loop... */
		return npx_set_error(err, -e, "%s '%s' cannot be looked up: %s", what, path,
				     strerror(e));
	}
	if (!S_ISDIR(st.st_mode))
		return npx_set_error(err, -ENOTDIR, "%s '%s' is not a directory", what, path);
	if (access(path, R_OK | W_OK | X_OK))
		return npx_set_error(err, errno == EROFS ? -EROFS : -EACCES,
				     "%s '%s' must be readable and writable by the user: %s", what,
				     path, strerror(errno));
	if (!realpath(path, resolved))
		return npx_set_error(err, -errno, "%s '%s': %s", what, path, strerror(errno));
	/* a link may lead where the name itself would be refused */
	bad = forbidden(resolved);
	if (bad)
		return npx_set_error(err, -EINVAL,
				     "%s '%s' resolves to '%s', which contains the forbidden"
				     " character %s (at offset %zu)",
				     what, path, resolved, char_name(*bad),
				     (size_t)(bad - resolved));
	return 0;
}

/* CANN's check of ASCEND_WORK_PATH: letters, digits and _ - . / only. */
static int work_path_charset(const char *env, struct npuprof_error *err)
{
	for (const char *p = env; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("_-./", c))
			continue;
		return npx_set_error(err, -EINVAL,
				     "ASCEND_WORK_PATH '%s' has the byte 0x%02x at offset %zu:"
				     " only letters, digits and _ - . / are allowed",
				     env, c, (size_t)(p - env));
	}
	return 0;
}

/* ${ASCEND_WORK_PATH}/profiling_data, made when missing */
static int work_path_dir(const char *env, char *resolved, struct npuprof_error *err)
{
	char dir[PATH_MAX], base[PATH_MAX];
	int ret = work_path_charset(env, err);

	if (!ret)
		ret = nps_check_output_path(env, "ASCEND_WORK_PATH", base, err);
	if (ret)
		return ret;
	if (snprintf(dir, sizeof(dir), "%s/profiling_data", base) >= (int)sizeof(dir))
		return npx_set_error(err, -ENAMETOOLONG,
				     "ASCEND_WORK_PATH '%s'/profiling_data is longer than %d bytes",
				     env, PATH_MAX - 1);
	/* 0750, as CANN makes its profiling directories */
	if (mkdir(dir, 0750) && errno != EEXIST)
		return npx_set_error(err, -errno, "cannot create %s (ASCEND_WORK_PATH): %s", dir,
				     strerror(errno));
	return nps_check_output_path(dir, "ASCEND_WORK_PATH's profiling_data", resolved, err);
}

int nps_output_dir(const char *path, const char *what, const char *default_what, char *resolved,
		   struct npuprof_error *err)
{
	const char *env = getenv("ASCEND_WORK_PATH");

	if (path && *path)
		return nps_check_output_path(path, what, resolved, err);
	if (env && *env)
		return work_path_dir(env, resolved, err);
	return nps_check_output_path("./", default_what, resolved, err);
}
