// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof export, the text layer: integer and 3-decimal formatting
 * (never through double), CSV quoting of names, JSON escaping, rounding,
 * and the sliced CSV writer (temporary names, slicing, commit, discard).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "export/ascend.h"

static char buf[512];

static const char *u64s(uint64_t v)
{
	*npa_fmt_u64(buf, v) = '\0';
	return buf;
}

static const char *s64s(int64_t v)
{
	*npa_fmt_s64(buf, v) = '\0';
	return buf;
}

static const char *milli(npa_u128 v)
{
	*npa_fmt_milli(buf, v) = '\0';
	return buf;
}

static const char *u128s(npa_u128 v)
{
	*npa_fmt_u128(buf, v) = '\0';
	return buf;
}

TEST(integers)
{
	EXPECT_STREQ("0", u64s(0));
	EXPECT_STREQ("7", u64s(7));
	EXPECT_STREQ("10", u64s(10));
	EXPECT_STREQ("99", u64s(99));
	EXPECT_STREQ("100", u64s(100));
	EXPECT_STREQ("999", u64s(999));
	EXPECT_STREQ("1000", u64s(1000));
	EXPECT_STREQ("4294967295", u64s(4294967295ULL));
	EXPECT_STREQ("18446744073709551615", u64s(UINT64_MAX));
	EXPECT_STREQ("10000000000000000000", u64s(10000000000000000000ULL));
	for (uint64_t v = 1; v < UINT64_MAX / 7; v = v * 7 + 3) {
		char want[32];

		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		EXPECT_STREQ(want, u64s(v));
	}
	/* signed, as %lld: the timeline's connection ids (-1 for none) */
	EXPECT_STREQ("0", s64s(0));
	EXPECT_STREQ("-1", s64s(-1));
	EXPECT_STREQ("9223372036854775807", s64s(INT64_MAX));
	EXPECT_STREQ("-9223372036854775808", s64s(INT64_MIN));
	for (int64_t v = 1; v < INT64_MAX / 7; v = v * 7 + 3) {
		char want[32];

		snprintf(want, sizeof(want), "%lld", (long long)-v);
		EXPECT_STREQ(want, s64s(-v));
	}
}

TEST(u128)
{
	npa_u128 big = (npa_u128)UINT64_MAX + 1;

	EXPECT_STREQ("0", u128s(0));
	EXPECT_STREQ("18446744073709551616", u128s(big));
	/* a low part with leading zeros: 10^19 * 5 + 7 */
	EXPECT_STREQ("50000000000000000007", u128s((npa_u128)10000000000000000000ULL * 5 + 7));
	EXPECT_STREQ("340282366920938463463374607431768211455", u128s(~(npa_u128)0));
}

/* ns -> microseconds with exactly 3 decimals */
TEST(three_decimals)
{
	EXPECT_STREQ("0.000", milli(0));
	EXPECT_STREQ("0.001", milli(1));
	EXPECT_STREQ("0.010", milli(10));
	EXPECT_STREQ("0.099", milli(99));
	EXPECT_STREQ("0.999", milli(999));
	EXPECT_STREQ("1.000", milli(1000));
	EXPECT_STREQ("1.001", milli(1001));
	EXPECT_STREQ("1234.567", milli(1234567));
	/* a CLOCK_MONOTONIC-sized start time, and the largest u64 */
	EXPECT_STREQ("1764406085123456.789", milli(1764406085123456789ULL));
	EXPECT_STREQ("18446744073709551.615", milli(UINT64_MAX));
	/* beyond 64 bits */
	EXPECT_STREQ("18446744073709551.616", milli((npa_u128)UINT64_MAX + 1));
	for (uint64_t v = 1; v < UINT64_MAX / 13; v = v * 13 + 11) {
		char want[40];

		snprintf(want, sizeof(want), "%llu.%03llu", (unsigned long long)(v / 1000),
			 (unsigned long long)(v % 1000));
		EXPECT_STREQ(want, milli(v));
	}
}

TEST(rounding)
{
	EXPECT_EQ(0, (uint64_t)npa_div_round(5, 0));
	EXPECT_EQ(0, (uint64_t)npa_div_round(0, 7));
	EXPECT_EQ(3, (uint64_t)npa_div_round(5, 2)); /* 2.5: half up */
	EXPECT_EQ(1, (uint64_t)npa_div_round(4, 3)); /* 1.33 */
	EXPECT_EQ(2, (uint64_t)npa_div_round(5, 3)); /* 1.67 */
	EXPECT_EQ(1, (uint64_t)npa_div_round(1, 2));
	EXPECT_EQ(0, (uint64_t)npa_div_round(1, 3));
	/* the 128-bit path */
	EXPECT_EQ(3, (uint64_t)npa_div_round((npa_u128)5 << 64, (npa_u128)2 << 64));
	EXPECT_EQ(1ULL << 63, (uint64_t)npa_div_round((npa_u128)1 << 127, (npa_u128)1 << 64));
}

/* ---- the sliced writer ---- */

FIXTURE(out)
{
	char dir[64];
	struct npa_out o;
	struct npuprof_error err;
};

FIXTURE_SETUP(out)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/npuprof-csv-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	memset(&self->o, 0, sizeof(self->o));
	self->o.dfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, self->o.dfd);
	snprintf(self->o.ts, sizeof(self->o.ts), "20251129164800");
	self->o.pid = getpid();
	self->o.slice_rows = 3;
	self->o.err = &self->err;
}

FIXTURE_TEARDOWN(out)
{
	char cmd[128];

	close(self->o.dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->dir);
}

static int count_files(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' || de->d_name[1] == 'n')
			n++;
	closedir(d);
	return n;
}

static char *slurp(const char *dir, const char *name)
{
	char path[256];
	static char data[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	n = read(fd, data, sizeof(data) - 1);
	close(fd);
	data[n < 0 ? 0 : n] = '\0';
	return data;
}

static int write_rows(struct npa_out *o, struct npa_csv *c, int n)
{
	for (int i = 0; i < n; i++) {
		char *p;
		int rc = npa_csv_begin(o, c, &p);

		if (rc)
			return rc;
		p = npa_fmt_u64(p, (uint64_t)i);
		npa_csv_end(c, p);
	}
	return npa_csv_close(o, c);
}

TEST_F(out, sliced_every_three_rows)
{
	struct npa_csv c;

	npa_csv_init(&c, "task_time");
	ASSERT_EQ(0, npa_csv_set_header(&self->o, &c, "Device_id,x"));
	ASSERT_EQ(0, write_rows(&self->o, &c, 7));
	EXPECT_EQ(3, c.nfiles);
	EXPECT_EQ(7, c.rows_total);
	/* nothing under a final name before the commit */
	EXPECT_EQ(NULL, slurp(self->dir, "task_time_slice_0_20251129164800.csv"));
	ASSERT_EQ(0, npa_csv_commit(&self->o, &c));
	EXPECT_STREQ("Device_id,x\n0\n1\n2\n",
		     slurp(self->dir, "task_time_slice_0_20251129164800.csv"));
	EXPECT_STREQ("Device_id,x\n3\n4\n5\n",
		     slurp(self->dir, "task_time_slice_1_20251129164800.csv"));
	EXPECT_STREQ("Device_id,x\n6\n", slurp(self->dir, "task_time_slice_2_20251129164800.csv"));
	EXPECT_EQ(NULL, slurp(self->dir, "task_time_20251129164800.csv"));
	EXPECT_EQ(3, count_files(self->dir));
	npa_csv_free(&c);
}

TEST_F(out, exactly_the_limit_is_not_sliced)
{
	struct npa_csv c;

	npa_csv_init(&c, "op_summary");
	ASSERT_EQ(0, npa_csv_set_header(&self->o, &c, "h"));
	ASSERT_EQ(0, write_rows(&self->o, &c, 3));
	EXPECT_EQ(1, c.nfiles);
	ASSERT_EQ(0, npa_csv_commit(&self->o, &c));
	EXPECT_STREQ("h\n0\n1\n2\n", slurp(self->dir, "op_summary_20251129164800.csv"));
	EXPECT_EQ(1, count_files(self->dir));
	npa_csv_free(&c);
}

TEST_F(out, no_rows_no_file)
{
	struct npa_csv c;

	npa_csv_init(&c, "aicpu");
	ASSERT_EQ(0, npa_csv_set_header(&self->o, &c, "h"));
	ASSERT_EQ(0, write_rows(&self->o, &c, 0));
	EXPECT_EQ(0, c.nfiles);
	ASSERT_EQ(0, npa_csv_commit(&self->o, &c));
	EXPECT_EQ(0, count_files(self->dir));
	npa_csv_free(&c);
}

TEST_F(out, discard_leaves_nothing)
{
	struct npa_csv c;

	npa_csv_init(&c, "op_summary");
	ASSERT_EQ(0, npa_csv_set_header(&self->o, &c, "h"));
	ASSERT_EQ(0, write_rows(&self->o, &c, 5));
	EXPECT_EQ(2, count_files(self->dir)); /* the two temporary slices */
	npa_csv_discard(&self->o, &c);
	EXPECT_EQ(0, count_files(self->dir));
	npa_csv_free(&c);
}

TEST_F(out, write_error_names_the_file)
{
	struct npa_file f;
	char *p;

	npa_file_init(&f);
	ASSERT_EQ(0, npa_file_open(&self->o, &f, ".npuprof-test.tmp"));
	/* make the descriptor unwritable */
	close(f.fd);
	f.fd = open("/dev/null", O_RDONLY);
	ASSERT_EQ(0, npa_file_reserve(&self->o, &f, 4, &p));
	memcpy(p, "abc\n", 4);
	npa_file_advance(&f, p + 4);
	EXPECT_EQ(-EBADF, npa_file_flush(&self->o, &f));
	EXPECT_EQ(-EBADF, self->err.code);
	EXPECT_NE(NULL, strstr(self->err.msg, ".npuprof-test.tmp"));
	npa_file_discard(&self->o, &f);
	npa_file_free(&f);
	EXPECT_EQ(0, count_files(self->dir));
}

/* the same through the writer thread: the error surfaces at close */
TEST_F(out, async_write_error_names_the_file)
{
	struct npa_file f;
	char *p;
	int i;

	npa_io_start(&self->o);
	ASSERT_NE(NULL, self->o.io);
	npa_file_init(&f);
	ASSERT_EQ(0, npa_file_open(&self->o, &f, ".npuprof-async.tmp"));
	close(f.fd);
	f.fd = open("/dev/null", O_RDONLY);
	/* more than two buffers: the error is seen by a flush or by the close */
	for (i = 0; i < 3 * (NPA_BUF_SIZE / 4096) && !self->err.code; i++) {
		if (npa_file_reserve(&self->o, &f, 4096, &p))
			break;
		memset(p, 'x', 4096);
		npa_file_advance(&f, p + 4096);
	}
	if (!self->err.code)
		EXPECT_EQ(-EBADF, npa_file_close(&self->o, &f));
	EXPECT_EQ(-EBADF, self->err.code);
	EXPECT_NE(NULL, strstr(self->err.msg, ".npuprof-async.tmp: write: Bad file descriptor"));
	npa_file_discard(&self->o, &f);
	npa_file_free(&f);
	npa_io_stop(&self->o);
	EXPECT_EQ(NULL, self->o.io);
	EXPECT_EQ(0, count_files(self->dir));
}

/* many buffers through the thread land in order */
/* the lines of a file are 0, 1, 2, ... after the header: their count, -1 if not */
static int count_sequence(const char *path)
{
	char line[32];
	int n = -1;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (n >= 0 && atoi(line) != n) {
			n = -1;
			break;
		}
		n++;
	}
	fclose(fp);
	return n;
}

/* many buffers through the thread land in order */
TEST_F(out, async_order)
{
	char path[128];
	struct npa_csv c;
	int i;

	npa_io_start(&self->o);
	self->o.slice_rows = 1000000;
	npa_csv_init(&c, "task_time");
	ASSERT_EQ(0, npa_csv_set_header(&self->o, &c, "n"));
	for (i = 0; i < 300000; i++) {
		char *p;

		ASSERT_EQ(0, npa_csv_begin(&self->o, &c, &p));
		p = npa_fmt_u64(p, (uint64_t)i);
		npa_csv_end(&c, p);
	}
	ASSERT_EQ(0, npa_csv_close(&self->o, &c));
	npa_io_stop(&self->o);
	ASSERT_EQ(0, npa_csv_commit(&self->o, &c));
	snprintf(path, sizeof(path), "%s/task_time_20251129164800.csv", self->dir);
	EXPECT_EQ(300000, count_sequence(path));
	npa_csv_free(&c);
}

TEST(set_error)
{
	struct npuprof_error err = { 0 };
	char longv[600];

	EXPECT_EQ(-EINVAL, npx_set_error(NULL, -EINVAL, "no report"));
	EXPECT_EQ(-ENOENT, npx_set_error(&err, -ENOENT, "%s: missing", "a/b"));
	EXPECT_EQ(-ENOENT, err.code);
	EXPECT_STREQ("a/b: missing", err.msg);
	memset(longv, 'x', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	npx_set_error(&err, -E2BIG, "%s", longv);
	EXPECT_EQ(NPUPROF_ERROR_MSG_LEN - 1, strlen(err.msg));
	npx_clear_error(&err);
	EXPECT_EQ(0, err.code);
	EXPECT_STREQ("", err.msg);
}

TEST_HARNESS_MAIN
