/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: error reports.
 *
 * Every library call that can fail returns 0 (or a count) on success and a
 * negative errno on failure, and, when the caller passes a struct
 * npuprof_error, fills it with the same code and a one-line message naming
 * the bad value (the missing path, the malformed record with its file and
 * offset, ...).
 */
#ifndef NPUPROF_ERROR_H
#define NPUPROF_ERROR_H

#define NPUPROF_ERROR_MSG_LEN 256

/**
 * struct npuprof_error - why a call failed
 * @code: the negative errno the call returned, 0 when it succeeded.
 * @msg: NUL-terminated message, "" when it succeeded.
 */
struct npuprof_error {
	int code;
	char msg[NPUPROF_ERROR_MSG_LEN];
};

/*
 * npuprof_set_error() - fill @err (when not NULL) with @code and a message
 * @err: the caller's error report, or NULL.
 * @code: a negative errno.
 * @fmt: printf format of the message (truncated to fit).
 *
 * Internal to the library: every module reports errors through it.
 *
 * Return: @code, so that "return npuprof_set_error(err, -EINVAL, ...);"
 * reads naturally.
 */
int npuprof_set_error(struct npuprof_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear @err (when not NULL): code 0, empty message. */
void npuprof_clear_error(struct npuprof_error *err);

#endif /* NPUPROF_ERROR_H */
