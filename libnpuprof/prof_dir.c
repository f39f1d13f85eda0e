// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: where a PROF_* folder goes, for the Profiler and for global
 * profiling alike: the precedence (an explicit path, else
 * $ASCEND_WORK_PATH, else the current directory, as the TF adapter and
 * msprof take it) and the checks the adapter makes of the directory, in
 * one place so that the two ways to profile cannot disagree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npuprof_internal.h"

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

int npuprof_check_output_path(const char *path, const char *what, char *resolved,
			      struct npuprof_error *err)
{
	struct stat st;

	if (strlen(path) >= PATH_MAX)
		return npuprof_set_error(err, -ENAMETOOLONG, "%s is longer than %d bytes", what,
					 PATH_MAX - 1);
	for (const char *p = path; *p; p++) {
		if (strchr("\n\f\r\b\t\v\x7f", *p))
			return npuprof_set_error(err, -EINVAL,
						 "%s '%s' contains the forbidden character %s "
						 "(at offset %zu)",
						 what, path, char_name(*p), (size_t)(p - path));
	}
	if (stat(path, &st))
		return npuprof_set_error(err, -errno, "%s '%s' does not exist: %s", what, path,
					 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return npuprof_set_error(err, -ENOTDIR, "%s '%s' is not a directory", what, path);
	if (access(path, R_OK | W_OK | X_OK))
		return npuprof_set_error(err, errno == EROFS ? -EROFS : -EACCES,
					 "%s '%s' must be readable and writable by the user: %s",
					 what, path, strerror(errno));
	if (!realpath(path, resolved))
		return npuprof_set_error(err, -errno, "%s '%s': %s", what, path, strerror(errno));
	return 0;
}

int npuprof_output_dir(const char *path, const char *what, const char *default_what, char *resolved,
		       struct npuprof_error *err)
{
	const char *env = getenv("ASCEND_WORK_PATH");

	if (path && *path)
		return npuprof_check_output_path(path, what, resolved, err);
	if (env && *env)
		return npuprof_check_output_path(env, "ASCEND_WORK_PATH", resolved, err);
	return npuprof_check_output_path("./", default_what, resolved, err);
}
