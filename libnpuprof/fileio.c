// SPDX-License-Identifier: LGPL-2.1-or-later
/* libnpuprof: whole writes of the raw files, for the collector and the host sink. */
#include <errno.h>
#include <unistd.h>

#include "npuprof_internal.h"

int npuprof_write_at(int fd, const void *buf, size_t n, int64_t off, size_t *done)
{
	const char *p = buf;

	*done = 0;
	while (n) {
		ssize_t w = off < 0 ? write(fd, p, n) : pwrite(fd, p, n, (off_t)(off + *done));

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!w)
			return -EIO;
		p += w;
		n -= (size_t)w;
		*done += (size_t)w;
	}
	return 0;
}
