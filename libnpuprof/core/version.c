// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the library's version at run time, which may differ from
 * the NPUPROF_VERSION_* macros a program was compiled with (libbpf's
 * libbpf_major_version() and friends).
 */
#include "core/core.h"

#define STR_(x) #x
#define STR(x) STR_(x)

NPUPROF_API unsigned int npuprof_major_version(void)
{
	return NPUPROF_VERSION_MAJOR;
}

NPUPROF_API unsigned int npuprof_minor_version(void)
{
	return NPUPROF_VERSION_MINOR;
}

NPUPROF_API const char *npuprof_version(void)
{
	return STR(NPUPROF_VERSION_MAJOR) "." STR(NPUPROF_VERSION_MINOR) "." STR(
		NPUPROF_VERSION_PATCH);
}
