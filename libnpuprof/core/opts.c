// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: libbpf's rules for options structs (libbpf_validate_opts).
 * Every options struct starts with `size_t sz`, the size the caller was
 * compiled with:
 *  - smaller than the library's: an older caller; the members it does not
 *    have read as zero, their defaults (npx_opts_get());
 *  - larger: a newer caller; accepted only if every byte the library does
 *    not know is zero (a non-zero one would be an option silently
 *    ignored): -E2BIG otherwise;
 *  - less than sizeof(size_t): not an options struct at all, -EINVAL.
 */
#include <errno.h>

#include "core/core.h"

int npx_opts_check(const void *opts, size_t lib_sz, const char *type, struct npuprof_error *err)
{
	size_t user_sz;
	const unsigned char *p = opts;

	if (!opts)
		return 0;
	user_sz = *(const size_t *)opts;
	if (user_sz < sizeof(size_t))
		return npx_set_error(err, -EINVAL,
				     "struct %s: sz is %zu: set it to sizeof(struct %s)"
				     " (NPUPROF_OPTS() does)",
				     type, user_sz, type);
	for (size_t i = lib_sz; i < user_sz; i++) {
		if (p[i])
			return npx_set_error(err, -E2BIG,
					     "struct %s: sz %zu: byte %zu is not zero, and this"
					     " libnpuprof (%s) knows only %zu bytes of it",
					     type, user_sz, i, npuprof_version(), lib_sz);
	}
	return 0;
}
