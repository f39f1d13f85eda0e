// SPDX-License-Identifier: GPL-2.0
/*
 * NPUPROF_REPORT_FD (libnpuprof/session/report.c): global profiling tells npuprof
 * run each PROF_* folder it makes, on the socket the variable names. It
 * writes only to the socket the variable was made for (the fd number and
 * the inode match, an AF_UNIX SOCK_SEQPACKET socket), never to whatever
 * else has the number, ignores malformed values, raises no SIGPIPE when
 * the reader is gone and never blocks long on a full socket.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "session/session.h"

#define DIR_A "/tmp/out/PROF_000001_20260101000000000_AAAAAAAAAAAAAAAA"

/* Point NPUPROF_REPORT_FD at @fd with @fd's own inode (+ @ino_delta). */
static int set_report_fd(int fd, long ino_delta)
{
	struct stat st;
	char v[64];

	if (fstat(fd, &st))
		return -1;
	snprintf(v, sizeof(v), "%d:%llu", fd, (unsigned long long)st.st_ino + ino_delta);
	return setenv("NPUPROF_REPORT_FD", v, 1);
}

/* Bytes waiting on @fd, read without blocking (-1: none). */
static ssize_t pending(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, MSG_DONTWAIT);

	buf[n < 0 ? 0 : n] = 0;
	return n < 0 ? -1 : n;
}

FIXTURE(rep)
{
	int sv[2]; /* sv[0] the reader (npuprof run), sv[1] the child's end */
};

FIXTURE_SETUP(rep)
{
	signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would kill the test: that is the point */
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, self->sv));
}

FIXTURE_TEARDOWN(rep)
{
	close(self->sv[0]);
	close(self->sv[1]);
	unsetenv("NPUPROF_REPORT_FD");
}

TEST_F(rep, one_message_per_folder)
{
	char buf[8192];

	ASSERT_EQ(0, set_report_fd(self->sv[1], 0));
	EXPECT_EQ(0, nps_report_dir(DIR_A));
	EXPECT_EQ(0, nps_report_dir("/tmp/b/PROF_2"));
	EXPECT_EQ(strlen(DIR_A) + 1, pending(self->sv[0], buf, sizeof(buf)));
	EXPECT_STREQ(DIR_A "\n", buf);
	EXPECT_EQ(strlen("/tmp/b/PROF_2\n"), pending(self->sv[0], buf, sizeof(buf)));
	EXPECT_STREQ("/tmp/b/PROF_2\n", buf);
	EXPECT_EQ(-1, pending(self->sv[0], buf, sizeof(buf)));
}

TEST_F(rep, unset_or_malformed_is_ignored)
{
	static const char *const bad[] = { "",	    "abc",   "3",
					   "3:",    ":5",    "-1:5",
					   "+3:5",  "3:5x",  "3 :5",
					   " 3:5",  "3:-5",  "99999999999:1",
					   "3:5:7", "0x3:5", "3:99999999999999999999" };
	char buf[256], v[64];

	unsetenv("NPUPROF_REPORT_FD");
	EXPECT_EQ(-ENOENT, nps_report_dir(DIR_A));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(0, setenv("NPUPROF_REPORT_FD", bad[i], 1));
		EXPECT_EQ(-EINVAL, nps_report_dir(DIR_A))
		{
			TH_LOG("'%s'", bad[i]);
		}
	}
	/* the right fd with the right digits around it still parses */
	snprintf(v, sizeof(v), "%d:0", self->sv[1]);
	ASSERT_EQ(0, setenv("NPUPROF_REPORT_FD", v, 1));
	EXPECT_EQ(-ENOTSOCK, nps_report_dir(DIR_A));
	EXPECT_EQ(-1, pending(self->sv[0], buf, sizeof(buf)));
}

TEST_F(rep, closed_fd_is_ignored)
{
	ASSERT_EQ(0, set_report_fd(self->sv[1], 0));
	close(self->sv[1]);
	self->sv[1] = -1;
	EXPECT_EQ(-EBADF, nps_report_dir(DIR_A));
}

/* The number now names something else: a pipe, a file, another socket. */
TEST_F(rep, never_writes_to_another_file)
{
	char path[] = "/tmp/npuprof-report-XXXXXX", buf[256];
	int p[2], f, st[2];
	struct stat sb;

	ASSERT_EQ(0, pipe2(p, O_NONBLOCK | O_CLOEXEC));
	ASSERT_EQ(0, set_report_fd(p[1], 0));
	EXPECT_EQ(-ENOTSOCK, nps_report_dir(DIR_A));
	EXPECT_EQ(-1, read(p[0], buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	close(p[0]);
	close(p[1]);

	f = mkstemp(path);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, set_report_fd(f, 0));
	EXPECT_EQ(-ENOTSOCK, nps_report_dir(DIR_A));
	ASSERT_EQ(0, fstat(f, &sb));
	EXPECT_EQ(0, sb.st_size);
	close(f);
	unlink(path);

	/* a stream socket, even with its own inode: lines could split */
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, st));
	ASSERT_EQ(0, set_report_fd(st[1], 0));
	EXPECT_EQ(-ENOTSOCK, nps_report_dir(DIR_A));
	EXPECT_EQ(-1, pending(st[0], buf, sizeof(buf)));
	close(st[0]);
	close(st[1]);

	/* the right kind of socket under the number, but not the one meant */
	ASSERT_EQ(0, set_report_fd(self->sv[1], 1));
	EXPECT_EQ(-ENOTSOCK, nps_report_dir(DIR_A));
	EXPECT_EQ(-1, pending(self->sv[0], buf, sizeof(buf)));
}

TEST_F(rep, reader_gone_raises_no_sigpipe)
{
	ASSERT_EQ(0, set_report_fd(self->sv[1], 0));
	close(self->sv[0]);
	self->sv[0] = -1;
	EXPECT_EQ(-EPIPE, nps_report_dir(DIR_A));
}

TEST_F(rep, full_socket_gives_up_soon)
{
	char big[4096] = { 0 };
	struct timespec a, b;
	double s;

	ASSERT_EQ(0, set_report_fd(self->sv[1], 0));
	while (send(self->sv[1], big, sizeof(big), MSG_DONTWAIT) > 0)
		;
	ASSERT_EQ(EAGAIN, errno);
	clock_gettime(CLOCK_MONOTONIC, &a);
	EXPECT_EQ(-EAGAIN, nps_report_dir(DIR_A));
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	EXPECT_GT(3.0, s);
	EXPECT_LT(0.5, s); /* it did wait for room */
}

/* A child of fork() (a grandchild of npuprof run) reports on the same socket. */
TEST_F(rep, a_child_reports_on_the_inherited_socket)
{
	char buf[256];
	int st;
	pid_t pid;

	ASSERT_EQ(0, set_report_fd(self->sv[1], 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(nps_report_dir("/tmp/c/PROF_child") ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(0, nps_report_dir("/tmp/p/PROF_parent"));
	EXPECT_LT(0, pending(self->sv[0], buf, sizeof(buf)));
	EXPECT_STREQ("/tmp/c/PROF_child\n", buf);
	EXPECT_LT(0, pending(self->sv[0], buf, sizeof(buf)));
	EXPECT_STREQ("/tmp/p/PROF_parent\n", buf);
}

TEST_HARNESS_MAIN
