// SPDX-License-Identifier: GPL-2.0
/*
 * The export of collectives against msprof's own output:
 * ../shared/reference/msprof-sample-hccl/ holds rank 0 of a 2-rank
 * AllReduce in the real raw layout (hccl_info, hccl_op_info, the 5500 API
 * windows, the HCCL stream's ACSQ logs) together with what msprof's parser
 * (Ascend/msprof 9ba1ac7be) wrote from it: mindstudio_profiler_output/ and
 * analyze/ (msprof analyze --rule communication,communication_matrix).
 * npuprof_export() on a copy of the raw folder must write the same CSVs
 * and timeline, byte for byte (but for op_summary's Block Dim / Mix Block
 * Dim, docs/output.md), and the same analyze/communication.json and
 * communication_matrix.json: the same keys in the same order, the same
 * strings, numbers equal to msprof's within its rounding.
 * (communication_analyzer.db is not written; README.txt is our own.)
 *
 * The reference is found through VNPU_REFERENCE, else beside the project.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "host/msprof_reference.h"

/* the CSVs' {ts}; msprof's timeline took the next second */
#define TS "20261201095539"
#define TS_TIMELINE_REF "20261201095540"

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

/*
 * Is @ours the JSON value @ref? Objects: the same keys in the same order;
 * numbers within 1e-9 (relative) of each other, an int and a double alike;
 * @path names where they differ in @why.
 */
static bool json_same(struct json_object *ref, struct json_object *ours, const char *path,
		      char *why, size_t len)
{
	enum json_type tr = json_object_get_type(ref), to = json_object_get_type(ours);
	char sub[1024];

	if ((tr == json_type_int || tr == json_type_double) &&
	    (to == json_type_int || to == json_type_double)) {
		double a = json_object_get_double(ref), b = json_object_get_double(ours);

		if (fabs(a - b) <= 1e-9 * fmax(1, fabs(a)))
			return true;
		snprintf(why, len, "%s: msprof %.17g, ours %.17g", path, a, b);
		return false;
	}
	if (tr != to) {
		snprintf(why, len, "%s: msprof %s, ours %s", path, json_object_to_json_string(ref),
			 json_object_to_json_string(ours));
		return false;
	}
	if (tr == json_type_object) {
		struct json_object_iterator ir = json_object_iter_begin(ref),
					    io = json_object_iter_begin(ours),
					    er = json_object_iter_end(ref),
					    eo = json_object_iter_end(ours);

		for (; !json_object_iter_equal(&ir, &er) && !json_object_iter_equal(&io, &eo);
		     json_object_iter_next(&ir), json_object_iter_next(&io)) {
			const char *kr = json_object_iter_peek_name(&ir);
			const char *ko = json_object_iter_peek_name(&io);

			snprintf(sub, sizeof(sub), "%s/%s", path, kr);
			if (strcmp(kr, ko)) {
				snprintf(why, len, "%s: msprof has key \"%s\", ours \"%s\"", path,
					 kr, ko);
				return false;
			}
			if (!json_same(json_object_iter_peek_value(&ir),
				       json_object_iter_peek_value(&io), sub, why, len))
				return false;
		}
		if (json_object_iter_equal(&ir, &er) != json_object_iter_equal(&io, &eo)) {
			snprintf(why, len, "%s: %s has more keys", path,
				 json_object_iter_equal(&ir, &er) ? "ours" : "msprof");
			return false;
		}
		return true;
	}
	if (tr == json_type_array) {
		size_t n = json_object_array_length(ref);

		if (n != json_object_array_length(ours)) {
			snprintf(why, len, "%s: msprof %zu elements, ours %zu", path, n,
				 json_object_array_length(ours));
			return false;
		}
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (!json_same(json_object_array_get_idx(ref, i),
				       json_object_array_get_idx(ours, i), sub, why, len))
				return false;
		}
		return true;
	}
	if (!json_object_equal(ref, ours)) {
		snprintf(why, len, "%s: msprof %s, ours %s", path, json_object_to_json_string(ref),
			 json_object_to_json_string(ours));
		return false;
	}
	return true;
}

FIXTURE(hccl)
{
	char ref[PATH_MAX];
	char work[64];
	char prof[PATH_MAX];
	int have;
};

FIXTURE_SETUP(hccl)
{
	self->have = !msprof_reference_dir(self->ref, sizeof(self->ref));
	if (self->have) {
		char probe[2 * PATH_MAX];

		snprintf(probe, sizeof(probe), "%s/%s", self->ref, MSPROF_SAMPLE_HCCL);
		self->have = !access(probe, R_OK);
	}
	if (!self->have)
		SKIP(return, "no ../shared/reference/msprof-sample-hccl (set VNPU_REFERENCE)");
	snprintf(self->work, sizeof(self->work), "/tmp/npuprof-hccl-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->work));
	snprintf(self->prof, sizeof(self->prof), "%s/PROF_000001_20250101000000000_SIMRANK0",
		 self->work);
	ASSERT_EQ(0, msprof_sample_copy(self->ref, MSPROF_SAMPLE_HCCL, self->prof));
}

FIXTURE_TEARDOWN(hccl)
{
	char cmd[PATH_MAX + 16];

	if (!self->have)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->work);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->work);
}

/* Every CSV msprof wrote, cell for cell, and no other CSV (the timeline: below). */
TEST_F(hccl, csvs_equal_msprofs)
{
	static const char *const files[] = { "op_summary_" TS ".csv", "task_time_" TS ".csv",
					     "op_statistic_" TS ".csv", "api_statistic_" TS ".csv",
					     "communication_statistic_" TS ".csv" };
	struct npuprof_export_opts opts = { .sz = sizeof(opts), .timestamp = TS, .quiet = 1 };
	struct npuprof_error err;
	char path[2 * PATH_MAX], ours_path[2 * PATH_MAX], where[1024];
	struct dirent *de;
	DIR *d;

	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &opts, &err)) TH_LOG("%s", err.msg);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n_ref, n_ours;
		char *ref, *ours, *hdr;

		snprintf(path, sizeof(path), "%s/%s/mindstudio_profiler_output/%s", self->ref,
			 MSPROF_SAMPLE_HCCL, files[i]);
		snprintf(ours_path, sizeof(ours_path), "%s/mindstudio_profiler_output/%s",
			 self->prof, files[i]);
		ref = slurp(path, &n_ref);
		ours = slurp(ours_path, &n_ours);
		ASSERT_NE(NULL, ref) TH_LOG("%s", path);
		ASSERT_NE(NULL, ours) TH_LOG("we wrote no %s", ours_path);
		hdr = strstr(ref, ",Block Num,Mix Block Num,");
		if (hdr)
			memcpy(hdr, ",Block Dim,Mix Block Dim,",
			       strlen(",Block Dim,Mix Block Dim,"));
		first_diff(ref, ours, where, sizeof(where));
		EXPECT_STREQ(ref, ours) TH_LOG("%s differs at %s", files[i], where);
		free(ref);
		free(ours);
	}
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output", self->prof);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		bool known = false;

		if (!strstr(de->d_name, ".csv"))
			continue;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			known |= !strcmp(de->d_name, files[i]);
		EXPECT_TRUE(known) TH_LOG("%s is not in msprof's output", de->d_name);
	}
	closedir(d);
}

/*
 * The timeline, byte for byte: the Communication process (Group / Plane
 * threads), its flows and Overlap Analysis' Communication threads too.
 */
TEST_F(hccl, timeline_equals_msprofs)
{
	struct npuprof_export_opts opts = { .sz = sizeof(opts), .timestamp = TS, .quiet = 1 };
	struct npuprof_error err;
	char path[2 * PATH_MAX], where[1024];
	size_t n_ref, n_ours;
	char *ref, *ours;

	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &opts, &err)) TH_LOG("%s", err.msg);
	snprintf(path, sizeof(path),
		 "%s/%s/mindstudio_profiler_output/msprof_" TS_TIMELINE_REF ".json", self->ref,
		 MSPROF_SAMPLE_HCCL);
	ref = slurp(path, &n_ref);
	ASSERT_NE(NULL, ref) TH_LOG("%s", path);
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/msprof_" TS ".json",
		 self->prof);
	ours = slurp(path, &n_ours);
	ASSERT_NE(NULL, ours) TH_LOG("we wrote no %s", path);
	first_diff(ref, ours, where, sizeof(where));
	EXPECT_STREQ(ref, ours) TH_LOG("the timeline differs at %s", where);
	free(ref);
	free(ours);
}

/* analyze/communication.json and communication_matrix.json as msprof analyze writes them */
TEST_F(hccl, analyze_equals_msprofs)
{
	static const char *const files[] = { "communication.json", "communication_matrix.json" };
	struct npuprof_export_opts opts = { .sz = sizeof(opts), .timestamp = TS, .quiet = 1 };
	struct npuprof_error err;
	char path[2 * PATH_MAX], why[2048];

	if (!self->have)
		return;
	ASSERT_EQ(0, npuprof_export(self->prof, &opts, &err)) TH_LOG("%s", err.msg);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct json_object *ref, *ours;

		snprintf(path, sizeof(path), "%s/%s/analyze/%s", self->ref, MSPROF_SAMPLE_HCCL,
			 files[i]);
		ref = json_object_from_file(path);
		ASSERT_NE(NULL, ref) TH_LOG("%s", path);
		snprintf(path, sizeof(path), "%s/analyze/%s", self->prof, files[i]);
		ours = json_object_from_file(path);
		ASSERT_NE(NULL, ours) TH_LOG("we wrote no %s (or not JSON)", path);
		why[0] = 0;
		EXPECT_TRUE(json_same(ref, ours, files[i], why, sizeof(why))) TH_LOG("%s", why);
		json_object_put(ref);
		json_object_put(ours);
	}
	/* msprof's analyze writes communication_analyzer.db too; we do not (docs/output.md) */
	snprintf(path, sizeof(path), "%s/analyze/communication_analyzer.db", self->prof);
	EXPECT_NE(0, access(path, F_OK));
}

TEST_HARNESS_MAIN
