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

#endif /* NPUPROF_ERROR_H */
