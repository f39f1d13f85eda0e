// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: tell the process that started us (npuprof run) which PROF_*
 * folder global profiling made, the moment it is made, so that it knows
 * the folder even when the program is killed before its atexit export.
 *
 * NPUPROF_REPORT_FD="FD:INODE" names an inherited AF_UNIX SOCK_SEQPACKET
 * socket, FD, whose inode is INODE. The folder's absolute path and a
 * newline go there in one message (so the lines of several processes
 * sharing the socket never mix). The inode is the guard: an fd number is
 * only a number, and a program may well have closed the socket and opened
 * something else under it; then the inode does not match and nothing is
 * written. Every failure (no variable, a malformed one, a closed fd,
 * another kind of file, a reader that is gone) is silent: reporting is a
 * courtesy to the caller and must never disturb the workload, so the send
 * raises no SIGPIPE and waits at most REPORT_WAIT_MS for room.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "session/session.h"

#define REPORT_WAIT_MS 1000

/* "FD:INODE", two whole decimal numbers: 0 and the fd, or -EINVAL. */
static int report_parse(const char *s, int *fd, ino_t *ino)
{
	unsigned long long f, i;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	f = strtoull(s, &end, 10);
	if (errno || *end != ':' || f > INT_MAX || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	i = strtoull(end + 1, &end, 10);
	if (errno || *end || (ino_t)i != i)
		return -EINVAL;
	*fd = (int)f;
	*ino = (ino_t)i;
	return 0;
}

int nps_report_dir(const char *dir)
{
	char line[PATH_MAX + 1];
	int fd, type, domain, n;
	socklen_t len;
	struct stat st;
	ino_t ino;

	if (!getenv("NPUPROF_REPORT_FD"))
		return -ENOENT;
	if (report_parse(getenv("NPUPROF_REPORT_FD"), &fd, &ino))
		return -EINVAL;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISSOCK(st.st_mode) || st.st_ino != ino)
		return -ENOTSOCK;
	len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) || type != SOCK_SEQPACKET)
		return -ENOTSOCK;
	len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) || domain != AF_UNIX)
		return -ENOTSOCK;
	n = snprintf(line, sizeof(line), "%s\n", dir);
	if (n < 0 || n >= (int)sizeof(line))
		return -ENAMETOOLONG;
	for (int waited = 0;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };

		if (send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) == n)
			return 0;
		if (errno == EINTR)
			continue;
		if ((errno != EAGAIN && errno != EWOULDBLOCK) || waited)
			return -errno;
		/* the reader is slow, not gone: give it a moment, once */
		if (poll(&pfd, 1, REPORT_WAIT_MS) <= 0)
			return -EAGAIN;
		waited = 1;
	}
}
