// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: error reports (see npuprof_error.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "core/core.h"

int npx_set_error(struct npuprof_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void npx_clear_error(struct npuprof_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
