// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: where the library's own messages go (npuprof_set_print(),
 * libbpf's libbpf_set_print()). The one print function is process-wide
 * state by nature: it is the program's choice for the whole library. It is
 * an atomic pointer, so that a reader thread printing while the program
 * replaces it calls one or the other, never a torn value.
 */
#include <stdio.h>

#include "core/core.h"

static int print_stderr(enum npuprof_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static npuprof_print_fn print_fn = print_stderr;

NPUPROF_API npuprof_print_fn npuprof_set_print(npuprof_print_fn fn)
{
	return __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);
}

void npx_print(enum npuprof_print_level level, const char *fmt, ...)
{
	npuprof_print_fn fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
	va_end(ap);
}
