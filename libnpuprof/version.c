// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the library's version, for `npuprof --version` and for
 * programs that want to know which library they run with (the soname only
 * says the ABI).
 */
#include "npuprof_internal.h"

NPUPROF_API const char *npuprof_version(void)
{
	return "0.1.0";
}
