// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: whole writes of the raw files, for the collector and the host
 * sink; and the one way the export opens and reads a PROF folder's files,
 * bounded and typed, since the folder may come from anywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

int npx_write_at(int fd, const void *buf, size_t n, int64_t off, size_t *done)
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

/* ---- reading what a PROF folder holds (the export) ---- */

static const char *file_type(mode_t m)
{
	if (S_ISDIR(m))
		return "a folder";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

int npx_input_open(const char *path, uint64_t cap, const char *what, struct stat *st,
		   struct npuprof_error *err)
{
	/*
	 * O_NONBLOCK: a FIFO put in a file's place must not block the open
	 * (nor anything after it); O_NOFOLLOW: no file of a PROF folder is a
	 * link, and one may lead to /dev/zero or out of the folder.
	 */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0) {
		int e = errno;

		if (e == ELOOP)
			return npx_set_error(err, -ELOOP,
					     "%s: a symbolic link (or a loop of them): inputs"
					     " are read only from regular files",
					     path);
		return npx_set_error(err, -e, "%s: %s", path, strerror(e));
	}
	if (fstat(fd, st)) {
		int e = errno;

		close(fd);
		return npx_set_error(err, -e, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return npx_set_error(err, -EINVAL, "%s: %s, not a regular file: not read", path,
				     file_type(st->st_mode));
	}
	if ((uint64_t)st->st_size > cap) {
		close(fd);
		return npx_set_error(
			err, -EFBIG, "%s: %llu bytes, over the %llu a %s may hold: not read", path,
			(unsigned long long)st->st_size, (unsigned long long)cap, what);
	}
	return fd;
}

int npx_input_read(const char *path, uint64_t cap, const char *what, char **buf, size_t *len,
		   struct npuprof_error *err)
{
	struct stat st;
	size_t size, got = 0;
	char *p;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = npx_input_open(path, cap, what, &st, err);
	if (fd < 0)
		return fd;
	/* the size at the open: a file that grows meanwhile is read no further */
	size = (size_t)st.st_size;
	p = malloc(size + 1);
	if (!p) {
		close(fd);
		return npx_set_error(err, -ENOMEM, "%s: out of memory for %zu bytes", path, size);
	}
	while (got < size) {
		ssize_t n = read(fd, p + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(p);
			return npx_set_error(err, -e, "%s: offset %zu: %s", path, got, strerror(e));
		}
		if (!n)
			break; /* it shrank: what is there */
		got += (size_t)n;
	}
	close(fd);
	p[got] = 0;
	*buf = p;
	*len = got;
	return 0;
}
