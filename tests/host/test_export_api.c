// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof_export() as an API, on a copy of msprof's sample folder
 * (../shared/reference/msprof-sample, see msprof_reference.h): its
 * arguments and options (the OPTS rules), the progress callback and its
 * cancel, the summary, slicing, the output folder, the folder's name, and
 * folders it cannot read: one of the vnpu layout of earlier versions, or
 * none at all. What it writes, cell by cell, is test_msprof_sample's.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "host/msprof_reference.h"

#define TS "20261201084721"
#define PROF_NAME "PROF_000001_20250101000000000_SIMULATOR"

FIXTURE(prof)
{
	char ref[PATH_MAX];
	char work[64];
	char prof[PATH_MAX];
	char out[PATH_MAX + 64];
	struct npuprof_error err;
	struct npuprof_export_summary sum;
	int have;
};

FIXTURE_SETUP(prof)
{
	self->have = !msprof_reference_dir(self->ref, sizeof(self->ref));
	if (!self->have)
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	snprintf(self->work, sizeof(self->work), "/tmp/npuprof-export-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->work));
	snprintf(self->prof, sizeof(self->prof), "%s/" PROF_NAME, self->work);
	snprintf(self->out, sizeof(self->out), "%s/mindstudio_profiler_output", self->prof);
	ASSERT_EQ(0, msprof_sample_copy(self->ref, MSPROF_SAMPLE, self->prof));
}

FIXTURE_TEARDOWN(prof)
{
	char cmd[PATH_MAX + 16];

	if (!self->have)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->work);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->work);
}

static int do_export(FIXTURE_DATA(prof) * self, uint64_t slice_rows)
{
	struct npuprof_export_opts o = { .sz = sizeof(o),
					 .timestamp = TS,
					 .slice_rows = slice_rows,
					 .quiet = 1,
					 .summary = &self->sum };

	memset(&self->sum, 0, sizeof(self->sum));
	return npuprof_export(self->prof, &o, &self->err);
}

static bool out_exists(FIXTURE_DATA(prof) * self, const char *name)
{
	char path[2 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", self->out, name);
	return !access(path, F_OK);
}

/* entries in the output folder (0 when there is none) */
static int count_out(FIXTURE_DATA(prof) * self)
{
	char cmd[PATH_MAX + 128];
	int n = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls -A %s 2>/dev/null | wc -l", self->out);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fscanf(p, "%d", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

static void rm_out(FIXTURE_DATA(prof) * self)
{
	char cmd[PATH_MAX + 80];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->out);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", self->out);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* what the export says of the sample: its devices, rows and raw bytes */
TEST_F(prof, summary)
{
	char path[PATH_MAX + 64];
	struct stat st;

	if (!self->have)
		return;
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.n_devices);
	EXPECT_EQ(0, self->sum.dev[0].dev_id);
	EXPECT_LT(0, self->sum.dev[0].tasks);
	EXPECT_LT(0, self->sum.host_api_records);
	EXPECT_LT(0, self->sum.op_summary_rows);
	EXPECT_EQ(1, self->sum.op_summary_files);
	EXPECT_STREQ(TS, self->sum.timestamp);
	EXPECT_EQ(0, self->sum.lost);
	snprintf(path, sizeof(path), "%s/device_0/data", self->prof);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_LT(0, self->sum.dev[0].bytes);
	EXPECT_TRUE(out_exists(self, "op_summary_" TS ".csv"));
	EXPECT_TRUE(out_exists(self, "README.txt"));
}

/* bad arguments and options: an error naming them, nothing written */
TEST_F(prof, folder_errors)
{
	struct npuprof_export_opts o = { .sz = sizeof(o), .timestamp = "2025", .quiet = 1 };
	union {
		struct npuprof_export_opts o;
		unsigned char b[sizeof(struct npuprof_export_opts) + 8];
	} newer = { 0 };
	char p[PATH_MAX + 16], *longer;

	if (!self->have)
		return;
	EXPECT_EQ(-EINVAL, npuprof_export(NULL, NULL, &self->err));
	EXPECT_EQ(-EINVAL, npuprof_export("", NULL, NULL));
	longer = malloc(PATH_MAX);
	ASSERT_NE(NULL, longer);
	memset(longer, 'a', PATH_MAX - 1);
	longer[PATH_MAX - 1] = '\0';
	EXPECT_EQ(-ENAMETOOLONG, npuprof_export(longer, NULL, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "too long")) TH_LOG("%s", self->err.msg);
	free(longer);
	snprintf(p, sizeof(p), "%s/nope", self->work);
	EXPECT_EQ(-ENOENT, npuprof_export(p, NULL, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "nope"));
	snprintf(p, sizeof(p), "%s/file", self->work);
	put_file(p, "x");
	EXPECT_EQ(-ENOTDIR, npuprof_export(p, NULL, &self->err));
	/* a bad timestamp, whatever the folder holds (nothing here, or no folder) */
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "timestamp \"2025\"")) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(-EINVAL, npuprof_export(self->work, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "timestamp")) TH_LOG("%s", self->err.msg);
	snprintf(p, sizeof(p), "%s/nope", self->work);
	EXPECT_EQ(-EINVAL, npuprof_export(p, &o, &self->err));
	o.timestamp = "2025112916480x";
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	EXPECT_EQ(0, count_out(self));
	/* the OPTS rules: an older caller's struct is read only as far as its sz */
	o.sz = offsetof(struct npuprof_export_opts, timestamp);
	o.timestamp = "2025";
	EXPECT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	o.sz = 4;
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "sz is 4")) TH_LOG("%s", self->err.msg);
	/* a newer caller's, with an unknown member set */
	newer.o.sz = sizeof(newer);
	newer.o.quiet = 1;
	EXPECT_EQ(0, npuprof_export(self->prof, &newer.o, &self->err));
	newer.b[sizeof(newer) - 1] = 1;
	EXPECT_EQ(-E2BIG, npuprof_export(self->prof, &newer.o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "npuprof_export_opts"));
}

/* a folder with no host/info.json: nothing to export */
TEST_F(prof, nothing_to_export)
{
	char p[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(p, sizeof(p), "%s/host/info.json", self->prof);
	ASSERT_EQ(0, unlink(p));
	EXPECT_EQ(-ENOENT, do_export(self, 0));
	EXPECT_NE(NULL, strstr(self->err.msg, "nothing to export: no host/info.json"))
	TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, count_out(self));
}

/* the vnpu layout of libnpuprof before 0.5 (either of its marks): named, not read */
TEST_F(prof, vnpu_layout_is_refused)
{
	char p[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(p, sizeof(p), "%s/host/info.json", self->prof);
	ASSERT_EQ(0, unlink(p));
	snprintf(p, sizeof(p), "%s/device_0/data/vnpu.ctrl", self->prof);
	put_file(p, "");
	EXPECT_EQ(-EPROTONOSUPPORT, do_export(self, 0));
	EXPECT_NE(NULL, strstr(self->err.msg, "vnpu layout")) TH_LOG("%s", self->err.msg);
	EXPECT_NE(NULL, strstr(self->err.msg, PROF_NAME)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, count_out(self));
	ASSERT_EQ(0, unlink(p));
	snprintf(p, sizeof(p), "%s/host/data/api.rec.0000", self->prof);
	put_file(p, "");
	EXPECT_EQ(-EPROTONOSUPPORT, do_export(self, 0));
	EXPECT_EQ(0, count_out(self));
}

struct prog {
	int calls, stop_after;
	uint64_t last, total;
	bool monotonic;
};

static int progress_cb(void *arg, uint64_t done, uint64_t total)
{
	struct prog *p = arg;

	if (done < p->last || done > total)
		p->monotonic = false;
	p->calls++;
	p->last = done;
	p->total = total;
	return p->stop_after && p->calls >= p->stop_after;
}

/* progress counts the raw bytes up to their total; a non-zero return cancels */
TEST_F(prof, progress_and_cancel)
{
	struct prog pg = { .monotonic = true };
	struct npuprof_export_opts o = { .sz = sizeof(o),
					 .timestamp = TS,
					 .quiet = 1,
					 .progress = progress_cb,
					 .progress_arg = &pg };

	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_LE(2, pg.calls); /* the host, then the device */
	EXPECT_TRUE(pg.monotonic);
	EXPECT_LT(0, pg.total);
	EXPECT_EQ(pg.total, pg.last);
	/* stopped at the first call: an error, and nothing written */
	rm_out(self);
	pg = (struct prog){ .monotonic = true, .stop_after = 1 };
	EXPECT_EQ(-ECANCELED, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "cancelled")) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, pg.calls);
	EXPECT_EQ(0, count_out(self));
	/* stopped after the host, the output files open: they are removed too */
	pg = (struct prog){ .monotonic = true, .stop_after = 2 };
	EXPECT_EQ(-ECANCELED, npuprof_export(self->prof, &o, &self->err));
	EXPECT_EQ(2, pg.calls);
	EXPECT_EQ(0, count_out(self));
}

/*
 * The timeline is written by a thread of its own while the CSVs are: a
 * failure on either side is the export's error, naming its file, and
 * nothing is left behind. A folder in the way of a temporary file makes
 * its open fail.
 */
TEST_F(prof, timeline_and_csv_failures)
{
	const char *const blocked[] = { "msprof", "op_summary-0", "task_time-0" };
	char path[2 * PATH_MAX];

	if (!self->have)
		return;
	for (unsigned int i = 0; i < sizeof(blocked) / sizeof(blocked[0]); i++) {
		rm_out(self);
		ASSERT_EQ(0, mkdir(self->out, 0755));
		snprintf(path, sizeof(path), "%s/.npuprof-%ld-%s.tmp", self->out, (long)getpid(),
			 blocked[i]);
		ASSERT_EQ(0, mkdir(path, 0755));
		EXPECT_EQ(-EISDIR, do_export(self, 0)) TH_LOG("%s", blocked[i]);
		EXPECT_NE(NULL, strstr(self->err.msg, path + strlen(self->out) + 1))
		TH_LOG("%s: %s", blocked[i], self->err.msg);
		EXPECT_EQ(1, count_out(self)) TH_LOG("%s: only the folder in the way", blocked[i]);
		EXPECT_FALSE(out_exists(self, "msprof_" TS ".json"));
		EXPECT_FALSE(out_exists(self, "op_summary_" TS ".csv"));
		rmdir(path);
	}
	/* out of the way: the same export succeeds */
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_TRUE(out_exists(self, "msprof_" TS ".json"));
	EXPECT_TRUE(out_exists(self, "op_summary_" TS ".csv"));
}

/* slice_rows splits op_summary into numbered slices of that many rows */
TEST_F(prof, slicing)
{
	if (!self->have)
		return;
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	ASSERT_LT(2, self->sum.op_summary_rows);
	rm_out(self);
	ASSERT_EQ(0, do_export(self, 2)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ((self->sum.op_summary_rows + 1) / 2, self->sum.op_summary_files);
	EXPECT_TRUE(out_exists(self, "op_summary_slice_0_" TS ".csv"));
	EXPECT_TRUE(out_exists(self, "op_summary_slice_1_" TS ".csv"));
	EXPECT_FALSE(out_exists(self, "op_summary_" TS ".csv"));
}

/* a folder not named PROF_...: exported, with a warning */
TEST_F(prof, not_a_prof_name)
{
	char p[PATH_MAX];

	if (!self->have)
		return;
	snprintf(p, sizeof(p), "%s/PROF_1", self->work);
	ASSERT_EQ(0, rename(self->prof, p));
	snprintf(self->prof, sizeof(self->prof), "%s", p);
	snprintf(self->out, sizeof(self->out), "%s/mindstudio_profiler_output", p);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.warnings);
	EXPECT_TRUE(out_exists(self, "op_summary_" TS ".csv"));
}

/* a trailing slash is the same folder (no name warning) */
TEST_F(prof, trailing_slash)
{
	if (!self->have)
		return;
	strcat(self->prof, "//");
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, self->sum.warnings);
	EXPECT_TRUE(out_exists(self, "op_summary_" TS ".csv"));
}

/* the output folder cannot be made: an error naming it */
TEST_F(prof, output_folder_is_a_file)
{
	if (!self->have)
		return;
	put_file(self->out, "x");
	EXPECT_EQ(-ENOTDIR, do_export(self, 0));
	EXPECT_NE(NULL, strstr(self->err.msg, "mindstudio_profiler_output: Not a directory"))
	TH_LOG("%s", self->err.msg);
}

/* the default timestamp: 14 digits of the local time; NULL opts: all defaults */
TEST_F(prof, default_timestamp)
{
	struct npuprof_export_opts o = { .sz = sizeof(o), .quiet = 1, .summary = &self->sum };
	char name[64];

	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(14, strlen(self->sum.timestamp));
	snprintf(name, sizeof(name), "op_summary_%s.csv", self->sum.timestamp);
	EXPECT_TRUE(out_exists(self, name));
	EXPECT_EQ(0, npuprof_export(self->prof, NULL, NULL));
}

TEST_HARNESS_MAIN
