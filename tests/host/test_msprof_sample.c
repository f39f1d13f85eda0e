// SPDX-License-Identifier: GPL-2.0
/*
 * The export against msprof's own output: ../shared/reference/msprof-sample/
 * holds a PROF folder in the real raw layout together with the
 * mindstudio_profiler_output/ that msprof's parser (Ascend/msprof
 * 9ba1ac7be) wrote from it. npuprof_export() on a copy of the raw folder
 * must write the same CSVs and timeline, byte for byte, but for the one
 * deliberate difference of docs/output.md: op_summary's Block Dim / Mix
 * Block Dim. (README.txt is our own.)
 *
 * The reference is found through VNPU_REFERENCE, else beside the project
 * (../shared/reference from the top of the tree).
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "host/msprof_reference.h"

#define TS "20261201084721"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[n] = 0;
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

/* the first line where @a and @b differ, for the log */
static void first_diff(const char *a, const char *b, char *out, size_t len)
{
	int line = 1;
	const char *la = a, *lb = b;

	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	snprintf(out, len, "line %d:\n  msprof: %.300s\n  ours:   %.300s", line, la, lb);
	for (char *p = out; *p; p++)
		if (*p == '\n' && p[1] != ' ')
			*p = ' ';
}

FIXTURE(sample)
{
	char ref[PATH_MAX];
	char work[64];
	char prof[PATH_MAX];
	int have;
};

/*
 * The sample, in a copy that a variant may change first (the Atlas 350's
 * own records are checked on the dev VM's folders: tests/golden and make
 * check-msprof).
 */
FIXTURE_VARIANT(sample)
{
	const char *as; /* a shell command run in the copy, or NULL */
};

FIXTURE_VARIANT_ADD(sample, chip5){
	.as = NULL,
};

FIXTURE_SETUP(sample)
{
	char cmd[6 * PATH_MAX];

	self->have = !msprof_reference_dir(self->ref, sizeof(self->ref));
	if (!self->have)
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	snprintf(self->work, sizeof(self->work), "/tmp/npuprof-sample-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->work));
	snprintf(self->prof, sizeof(self->prof), "%s/PROF_000001_20250101000000000_SIMULATOR",
		 self->work);
	ASSERT_EQ(0, msprof_sample_copy(self->ref, MSPROF_SAMPLE, self->prof));
	if (variant->as) {
		snprintf(cmd, sizeof(cmd), "cd %s && %s", self->prof, variant->as);
		ASSERT_EQ(0, system(cmd)) TH_LOG("%s", cmd);
	}
}

FIXTURE_TEARDOWN(sample)
{
	char cmd[PATH_MAX + 16];

	if (!self->have)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->work);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->work);
}

/* Every CSV msprof wrote, cell for cell, the timeline event for event, and no other file. */
TEST_F(sample, outputs_equal_msprofs)
{
	static const char *const files[] = { "op_summary_" TS ".csv", "task_time_" TS ".csv",
					     "op_statistic_" TS ".csv", "api_statistic_" TS ".csv",
					     "msprof_" TS ".json" };
	struct npuprof_export_opts opts = { .sz = sizeof(opts), .timestamp = TS, .quiet = 1 };
	struct npuprof_error err;
	char path[2 * PATH_MAX], ours_path[2 * PATH_MAX], where[1024];
	struct dirent *de;
	DIR *d;

	/* the harness runs the body after a SKIP in the setup */
	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &opts, &err)) TH_LOG("%s", err.msg);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n_ref, n_ours;
		char *ref, *ours, *hdr;

		snprintf(path, sizeof(path), "%s/%s/mindstudio_profiler_output/%s", self->ref,
			 MSPROF_SAMPLE, files[i]);
		snprintf(ours_path, sizeof(ours_path), "%s/mindstudio_profiler_output/%s",
			 self->prof, files[i]);
		ref = slurp(path, &n_ref);
		ours = slurp(ours_path, &n_ours);
		ASSERT_NE(NULL, ref) TH_LOG("%s", path);
		ASSERT_NE(NULL, ours) TH_LOG("we wrote no %s", ours_path);
		/* the deliberate difference: msprof-analyze's checks key on Block Dim */
		hdr = strstr(ref, ",Block Num,Mix Block Num,");
		if (hdr)
			memcpy(hdr, ",Block Dim,Mix Block Dim,",
			       strlen(",Block Dim,Mix Block Dim,"));
		first_diff(ref, ours, where, sizeof(where));
		EXPECT_STREQ(ref, ours) TH_LOG("%s differs at %s", files[i], where);
		free(ref);
		free(ours);
	}
	/* no CSV or timeline that msprof did not write */
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output", self->prof);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		bool known = false;

		if (!strstr(de->d_name, ".csv") && !strstr(de->d_name, ".json"))
			continue;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			known |= !strcmp(de->d_name, files[i]);
		EXPECT_TRUE(known) TH_LOG("%s is not in msprof's output", de->d_name);
	}
	closedir(d);
	/* no collectives: msprof analyze writes no analyze/, and neither do we */
	snprintf(path, sizeof(path), "%s/analyze", self->prof);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s exists without HCCL records", path);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * A collection clock past 2^64 microseconds (1e20, another machine's or a
 * corrupt start_info): the timeline's times no longer fit the integer
 * fast path, and the AI Core Freq fills are floats msprof writes as
 * "1e+20". What msprof wrote from this folder (checked with
 * tools/msprof-compare.py at 9ba1ac7be: every file equal): the CANN
 * events at their Decimal times, 1001 AI Core Freq events (the start,
 * 999 fills of one ms, the end).
 */
TEST_F(sample, a_clock_past_2_64_microseconds)
{
	struct npuprof_export_opts opts = { .sz = sizeof(opts), .timestamp = TS, .quiet = 1 };
	char cmd[8 * PATH_MAX], path[2 * PATH_MAX];
	struct npuprof_error err;
	size_t n;
	char *tl;

	if (!self->have)
		return;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && sed -i 's/\"collectionTimeBegin\": \"[0-9]*\"/\"collectionTimeBegin\":"
		 " \"100000000000000000000\"/' host/start_info device_0/start_info.0 && sed -i"
		 " 's/\"collectionTimeEnd\": \"[0-9]*\"/\"collectionTimeEnd\":"
		 " \"100000000000001000000\"/' host/end_info device_0/end_info.0",
		 self->prof);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, npuprof_export(self->prof, &opts, &err)) TH_LOG("%s", err.msg);
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/msprof_" TS ".json",
		 self->prof);
	tl = slurp(path, &n);
	ASSERT_NE(NULL, tl);
	EXPECT_NE(NULL, strstr(tl, "\"ts\": \"100000000000000010000.000\""));
	EXPECT_EQ(1001, count(tl, "{\"name\": \"AI Core Freq\", \"ts\""));
	EXPECT_NE(NULL, strstr(tl, "{\"name\": \"AI Core Freq\", \"ts\": \"1e+20\""));
	EXPECT_NE(NULL,
		  strstr(tl, "{\"name\": \"AI Core Freq\", \"ts\": \"100000000000001000000\""));
	free(tl);
}

TEST_HARNESS_MAIN
