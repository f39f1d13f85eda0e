// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the uapi's data types (enum vnpu_dtype) and their sizes,
 * which the operator builders and the host records both need: a format
 * fact, so that neither depends on the other for it.
 */
#include "npuprof.h"
#include "format/format.h"

NPUPROF_API unsigned int npuprof_dtype_size(enum vnpu_dtype dtype)
{
	static const unsigned char size[VNPU_DT_COUNT] = VNPU_DTYPE_SIZES;

	return (unsigned int)dtype < VNPU_DT_COUNT ? size[dtype] : 0;
}
