// SPDX-License-Identifier: GPL-2.0
/*
 * The export of folders that other tools wrote must survive them: seeded
 * corruptions of copies of ../shared/reference/msprof-sample/ (truncated
 * raw files, records with a wrong magic or level, junk appended, config
 * files missing, cut short or with an unknown product, random bytes), each
 * exported in a child process under a time limit. The sample is a chip-5
 * (STARS) folder; the same runs on it converted to chip 1's records (HWTS
 * logs and AI Core PMU records, docs/msprof-parser.md section 12), where
 * the record corrupted in place is a log's type or a counter. The oracle:
 *
 *  - no crash and no hang (the child exits, within 20 s);
 *  - a failed export names a file of the folder in its message;
 *  - a structural corruption (every kind but random bytes, which can make
 *    valid-looking data) is never silent: either a warning or an error
 *    comes, or every output file equals that of the folder uncorrupted
 *    (msprof's own for the sample).
 *
 * VNPU_FUZZ_SEED replays a run; VNPU_FUZZ_ROUNDS sets its length.
 *
 * Also: a host start_info from another clock (its calls before the
 * collection began, its end_info decades later) exports as msprof does.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "vnpu_ascend.h"
#include "host/msprof_reference.h"

/* every path here is a short one under /tmp or the reference folder */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define TS "20261201084721"

/* the raw files of a chip-5 folder and of its chip-1 conversion: host, then device */
static const char *const raw_files[2][5] = {
	{
		"host/data/unaging.api_event.data.slice_0",
		"host/data/unaging.compact.node_basic_info.slice_0",
		"host/data/unaging.compact.task_track.slice_0",
		"device_0/data/stars_soc.data.0.slice_0",
		"device_0/data/ffts_profile.data.0.slice_0",
	},
	{
		"host/data/unaging.api_event.data.slice_0",
		"host/data/unaging.compact.node_basic_info.slice_0",
		"host/data/unaging.compact.task_track.slice_0",
		"device_0/data/hwts.data.0.slice_0",
		"device_0/data/aicore.data.0.slice_0",
	},
};
static const unsigned int raw_size[] = { 40, 64, 64, 64, 128 };

static const char *const config_files[] = {
	"host/info.json",	    "host/start_info",	     "device_0/info.json.0",
	"device_0/sample.json",	    "device_0/start_info.0", "device_0/host_start.log.0",
	"device_0/dev_start.log.0",
};

static const char *const outputs[] = { "op_summary_" TS ".csv", "task_time_" TS ".csv",
				       "op_statistic_" TS ".csv", "api_statistic_" TS ".csv",
				       "msprof_" TS ".json" };

enum kind { K_TRUNCATE, K_MAGIC, K_JUNK, K_CFG_MISSING, K_CFG_CUT, K_PRODUCT, K_BYTES, K_COUNT };

static __u64 rnd64(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 0 .. n - 1; 0 when n is 0 (a file an earlier corruption emptied) */
static unsigned int rnd(__u64 *s, unsigned int n)
{
	return n ? (unsigned int)(rnd64(s) % n) : 0;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (long)st.st_size;
}

static int read_at(const char *path, long off, void *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	int ok = fd >= 0 && pread(fd, buf, n, off) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int write_at(const char *path, long off, const void *buf, size_t n)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && pwrite(fd, buf, n, off) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Apply one corruption of @kind to @prof (@hwts: chip 1's records); its description to @what. */
static int corrupt(const char *prof, bool hwts, enum kind kind, __u64 *s, char *what, size_t len)
{
	const char *const *raw = raw_files[hwts];
	char path[PATH_MAX];
	unsigned int f;
	long size;

	switch (kind) {
	case K_TRUNCATE:
		f = rnd(s, 5);
		snprintf(path, sizeof(path), "%s/%s", prof, raw[f]);
		size = file_size(path);
		/* not a whole number of records: the parser must see it */
		size = (long)rnd(s, (unsigned int)size);
		if (size % raw_size[f] == 0)
			size += 1 + rnd(s, raw_size[f] - 1);
		snprintf(what, len, "%s cut to %ld bytes", raw[f], size);
		return truncate(path, size);
	case K_MAGIC: {
		/*
		 * The first half-word of every kind but ffts_profile is checked;
		 * an HWTS log's type (7: neither start nor end), an AI Core PMU
		 * record's counter (its next value but one).
		 */
		static const unsigned int at[] = { 0, 0, 0, 2, 0 };
		static const __u16 bad[] = { 0x5a5b, 0x5a5b, 0x5a5b, 0x6bd4, 0x0029 };
		__u16 v;

		f = rnd(s, 5);
		if (hwts && f >= 3) {
			unsigned char b;

			snprintf(path, sizeof(path), "%s/%s", prof, raw[f]);
			size = file_size(path) / raw_size[f];
			size = (long)rnd(s, (unsigned int)size) * raw_size[f];
			if (read_at(path, size, &b, 1))
				return -1;
			b = f == 3 ? (unsigned char)(b | 7) : (unsigned char)(b + 0x20);
			snprintf(what, len, "%s: record at %ld gets byte 0 %#x", raw[f], size, b);
			return write_at(path, size, &b, 1);
		}
		snprintf(path, sizeof(path), "%s/%s", prof, raw[f]);
		size = file_size(path) / raw_size[f];
		size = (long)rnd(s, (unsigned int)size) * raw_size[f];
		v = bad[f];
		snprintf(what, len, "%s: record at %ld gets %#x at +%u", raw[f], size, v, at[f]);
		return write_at(path, size + at[f], &v, sizeof(v));
	}
	case K_JUNK: {
		char junk[7] = "garbage";

		f = rnd(s, 5);
		snprintf(path, sizeof(path), "%s/%s", prof, raw[f]);
		snprintf(what, len, "%s: 7 bytes appended", raw[f]);
		return write_at(path, file_size(path), junk, sizeof(junk));
	}
	case K_CFG_MISSING:
		f = rnd(s, ARRAY_SIZE(config_files));
		snprintf(path, sizeof(path), "%s/%s", prof, config_files[f]);
		snprintf(what, len, "%s removed", config_files[f]);
		return unlink(path);
	case K_CFG_CUT:
		f = rnd(s, ARRAY_SIZE(config_files));
		snprintf(path, sizeof(path), "%s/%s", prof, config_files[f]);
		size = file_size(path);
		size = (long)rnd(s, (unsigned int)size);
		snprintf(what, len, "%s cut to %ld bytes", config_files[f], size);
		return truncate(path, size);
	case K_PRODUCT: {
		char cmd[PATH_MAX + 128];

		f = rnd(s, 2);
		snprintf(what, len, "%s: platform_version 99",
			 f ? "device_0/info.json.0" : "host/info.json");
		snprintf(cmd, sizeof(cmd),
			 "sed -i 's/\"platform_version\": \"[0-9]*\"/\"platform_version\": \"99\"/'"
			 " %s/%s 2>/dev/null",
			 prof, f ? "device_0/info.json.0" : "host/info.json");
		return system(cmd);
	}
	case K_BYTES: {
		unsigned char b = (unsigned char)rnd64(s);
		long off;

		f = rnd(s, 5);
		snprintf(path, sizeof(path), "%s/%s", prof, raw[f]);
		off = (long)rnd(s, (unsigned int)file_size(path));
		snprintf(what, len, "%s: byte %ld = %#x", raw[f], off, b);
		return write_at(path, off, &b, 1);
	}
	case K_COUNT:
		break;
	}
	return -1;
}

static bool same_file(const char *a, const char *b)
{
	char cmd[2 * PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

/*
 * Export @prof in a child: 0 it succeeded (*@warnings set), 1 it failed
 * with an error naming a file, 2 crashed, hung or failed without naming one.
 */
static int export_child(const char *prof, unsigned int *warnings, char *msg, size_t len)
{
	int p[2], st;
	pid_t pid;
	struct {
		int rc;
		unsigned int warnings;
		char msg[512];
	} res = { 0 };

	if (pipe(p))
		return 2;
	pid = fork();
	if (pid == 0) {
		struct npuprof_export_summary sum = { 0 };
		struct npuprof_export_opts o = {
			.sz = sizeof(o), .timestamp = TS, .quiet = 1, .summary = &sum
		};
		struct npuprof_error err = { 0 };

		close(p[0]);
		alarm(20);
		res.rc = npuprof_export(prof, &o, &err);
		res.warnings = res.rc ? 0 : sum.warnings;
		snprintf(res.msg, sizeof(res.msg), "%s", err.msg);
		if (write(p[1], &res, sizeof(res)) != sizeof(res))
			_exit(3);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &res, sizeof(res)) != sizeof(res)) {
		close(p[0]);
		if (pid > 0)
			waitpid(pid, &st, 0);
		snprintf(msg, len, "the export crashed or hung");
		return 2;
	}
	close(p[0]);
	waitpid(pid, &st, 0);
	snprintf(msg, len, "%s", res.msg);
	*warnings = res.warnings;
	if (!res.rc)
		return 0;
	/* an error names a file or folder of the PROF folder */
	return strstr(res.msg, "PROF_000001") || strstr(res.msg, "device_0") ||
			       strstr(res.msg, "host/")
		       ? 1
		       : 2;
}

/*
 * The sample's device records rewritten as chip 1's (docs/msprof-parser.md
 * section 12): each ACSQ log as an HWTS log (start or end, AI_CPU for an AI
 * CPU task, else AI_CORE), each context PMU record as an AI Core PMU
 * record, the counters stepping by one; platform_version 1. 0 or -1.
 */
static int to_chip1(const char *prof)
{
	char in[PATH_MAX], out[PATH_MAX], cmd[2 * PATH_MAX];
	unsigned char rec[128];
	unsigned int n = 0;
	FILE *fi, *fo;

	snprintf(in, sizeof(in), "%s/device_0/data/stars_soc.data.0.slice_0", prof);
	snprintf(out, sizeof(out), "%s/device_0/data/hwts.data.0.slice_0", prof);
	fi = fopen(in, "rb");
	fo = fopen(out, "wb");
	while (fi && fo && fread(rec, 64, 1, fi) == 1) {
		struct vnpu_acsq_log a;
		struct vnpu_hwts_log h = { 0 };

		memcpy(&a, rec, sizeof(a));
		h.word0 = VNPU_HWTS_WORD0(VNPU_ACSQ_FUNC(a.word0) == VNPU_FUNC_ACSQ_END, n++);
		h.task_type = VNPU_ACSQ_SQE(a.word0) == 1; /* AI_CPU_SQE */
		h.task_id = a.task_id;
		h.syscnt = a.syscnt;
		h.stream_id = a.stream_id;
		fwrite(&h, sizeof(h), 1, fo);
	}
	if (!fi || !fo || fclose(fo) || fclose(fi) || unlink(in))
		return -1;
	snprintf(in, sizeof(in), "%s/device_0/data/ffts_profile.data.0.slice_0", prof);
	snprintf(out, sizeof(out), "%s/device_0/data/aicore.data.0.slice_0", prof);
	fi = fopen(in, "rb");
	fo = fopen(out, "wb");
	for (n = 0; fi && fo && fread(rec, 128, 1, fi) == 1;) {
		struct vnpu_ffts_pmu f;
		struct vnpu_aic_pmu p = { 0 };

		memcpy(&f, rec, sizeof(f));
		p.word0 = VNPU_HWTS_WORD0(0, n++);
		p.task_id = f.task_id;
		p.total_cycle = f.total_cycle;
		memcpy(p.pmu, f.pmu, sizeof(p.pmu));
		p.stream_id = f.stream_id;
		fwrite(&p, sizeof(p), 1, fo);
	}
	if (!fi || !fo || fclose(fo) || fclose(fi) || unlink(in))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/\"platform_version\": \"5\"/\"platform_version\": \"1\"/'"
		 " %s/host/info.json %s/device_0/info.json.0",
		 prof, prof);
	return system(cmd) ? -1 : 0;
}

/* A fresh copy of the sample at @prof, as chip 1's with @hwts: 0 or -1. */
static int sample_copy(const char *ref, const char *prof, bool hwts)
{
	if (msprof_sample_copy(ref, MSPROF_SAMPLE, prof))
		return -1;
	return hwts ? to_chip1(prof) : 0;
}

/*
 * The seeded rounds over copies of the sample (@hwts: as chip 1's), against
 * the outputs in @want (msprof's, or our export of the clean chip-1 copy).
 */
static void fuzz_rounds(struct __test_metadata *_metadata, const char *ref, const char *want,
			bool hwts)
{
	char work[] = "/tmp/npuprof-fuzz-XXXXXX", prof[PATH_MAX];
	char cmd[4 * PATH_MAX], what[3][512], msg[512];
	const char *env = getenv("VNPU_FUZZ_SEED");
	__u64 seed = env ? strtoull(env, NULL, 0) : 0x5eed0f14ull, s = seed;
	unsigned long rounds =
		getenv("VNPU_FUZZ_ROUNDS") ? strtoul(getenv("VNPU_FUZZ_ROUNDS"), NULL, 0) : 300;
	unsigned long failed = 0, warned = 0, clean = 0, silent = 0;

	ASSERT_NE(NULL, mkdtemp(work));
	snprintf(prof, sizeof(prof), "%s/PROF_000001_20250101000000000_SIMULATOR", work);
	TH_LOG("seed %#llx, %lu rounds", (unsigned long long)seed, rounds);
	for (unsigned long i = 0; i < rounds; i++) {
		unsigned int n = 1 + rnd(&s, 3), warnings = 0;
		bool structural = false;
		int r;

		ASSERT_EQ(0, sample_copy(ref, prof, hwts));
		for (unsigned int k = 0; k < n; k++) {
			enum kind kind = (enum kind)rnd(&s, K_COUNT);

			what[k][0] = 0;
			if (corrupt(prof, hwts, kind, &s, what[k], sizeof(what[k])))
				continue;
			structural |= kind != K_BYTES;
		}
		r = export_child(prof, &warnings, msg, sizeof(msg));
		ASSERT_NE(2, r)
		TH_LOG("round %lu (%s; %s; %s): %s", i, what[0], n > 1 ? what[1] : "",
				       n > 2 ? what[2] : "", msg);
		if (r == 1) {
			failed++;
			continue;
		}
		if (warnings) {
			warned++;
			continue;
		}
		/* no word said: every file must be the uncorrupted folder's */
		bool same = true;

		for (size_t k = 0; k < ARRAY_SIZE(outputs); k++) {
			char a[2 * PATH_MAX], b[2 * PATH_MAX];

			snprintf(a, sizeof(a), "%s/%s", want, outputs[k]);
			snprintf(b, sizeof(b), "%s/mindstudio_profiler_output/%s", prof,
				 outputs[k]);
			/* op_summary differs from msprof's in its header only */
			if (k == 0 && !hwts)
				continue;
			same &= same_file(a, b);
		}
		if (same) {
			clean++;
		} else if (structural) {
			silent++;
			EXPECT_FALSE(structural)
			TH_LOG("round %lu: silent change (%s; %s; %s)", i, what[0],
			       n > 1 ? what[1] : "", n > 2 ? what[2] : "");
		}
	}
	TH_LOG("%lu rounds: %lu errors naming a file, %lu with warnings, %lu unchanged, %lu silent",
	       rounds, failed, warned, clean, silent);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
	if (system(cmd))
		TH_LOG("cannot remove %s", work);
}

TEST(corrupted_samples)
{
	char ref[PATH_MAX], want[2 * PATH_MAX];

	if (msprof_reference_dir(ref, sizeof(ref)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	snprintf(want, sizeof(want), "%s/%s/mindstudio_profiler_output", ref, MSPROF_SAMPLE);
	fuzz_rounds(_metadata, ref, want, false);
}

/* The same on chip 1's records: HWTS logs and AI Core PMU records. */
TEST(corrupted_hwts_samples)
{
	char ref[PATH_MAX], work[] = "/tmp/npuprof-fuzz-XXXXXX", prof[PATH_MAX];
	char want[2 * PATH_MAX], cmd[2 * PATH_MAX], msg[512];
	unsigned int warnings = 1;

	if (msprof_reference_dir(ref, sizeof(ref)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	ASSERT_NE(NULL, mkdtemp(work));
	snprintf(prof, sizeof(prof), "%s/PROF_000001_20250101000000000_SIMULATOR", work);
	ASSERT_EQ(0, sample_copy(ref, prof, true));
	/* the clean conversion exports without a word: what a silent round must equal */
	ASSERT_EQ(0, export_child(prof, &warnings, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(0, warnings);
	snprintf(want, sizeof(want), "%s/mindstudio_profiler_output", prof);
	fuzz_rounds(_metadata, ref, want, true);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
	if (system(cmd))
		TH_LOG("cannot remove %s", work);
}

/*
 * What an HWTS folder's reader says of what msprof drops or logs: a log of
 * another type is skipped with a warning naming its file and offset, and a
 * counter that skips is a warning that records are missing (msprof's "An
 * lost before the operator"); each is exported otherwise.
 */
TEST(hwts_records_msprof_drops_are_named)
{
	char ref[PATH_MAX], work[] = "/tmp/npuprof-fuzz-XXXXXX", prof[PATH_MAX];
	char path[2 * PATH_MAX], cmd[2 * PATH_MAX], msg[512];
	unsigned int warnings;
	unsigned char b;

	if (msprof_reference_dir(ref, sizeof(ref)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	ASSERT_NE(NULL, mkdtemp(work));
	snprintf(prof, sizeof(prof), "%s/PROF_000001_20250101000000000_SIMULATOR", work);

	/* the second log (the first task's end) of type 5 */
	ASSERT_EQ(0, sample_copy(ref, prof, true));
	snprintf(path, sizeof(path), "%s/device_0/data/hwts.data.0.slice_0", prof);
	ASSERT_EQ(0, read_at(path, 64, &b, 1));
	b = (unsigned char)((b & 0xf0) | 5);
	ASSERT_EQ(0, write_at(path, 64, &b, 1));
	ASSERT_EQ(0, export_child(prof, &warnings, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_LE(1, warnings);

	/* the last AI Core PMU record's counter one ahead: one record missing */
	ASSERT_EQ(0, sample_copy(ref, prof, true));
	snprintf(path, sizeof(path), "%s/device_0/data/aicore.data.0.slice_0", prof);
	ASSERT_EQ(0, read_at(path, 256, &b, 1));
	b = (unsigned char)(b + 0x10);
	ASSERT_EQ(0, write_at(path, 256, &b, 1));
	ASSERT_EQ(0, export_child(prof, &warnings, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_EQ(2, warnings) TH_LOG("the gap, then the device's count");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
	if (system(cmd))
		TH_LOG("cannot remove %s", work);
}

/* What the timeline holds: events, HostToDevice flow events, CANN process names; -1 if not JSON. */
static int timeline_events(const char *prof, int *flows, int *cann)
{
	char path[2 * PATH_MAX];
	struct json_object *a, *v;
	int n;

	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/msprof_" TS ".json", prof);
	a = json_object_from_file(path);
	if (!a || !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		return -1;
	}
	n = (int)json_object_array_length(a);
	*flows = *cann = 0;
	for (int i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *args;

		if (json_object_object_get_ex(e, "cat", &v) &&
		    !strcmp(json_object_get_string(v), "HostToDevice"))
			++*flows;
		if (json_object_object_get_ex(e, "args", &args) &&
		    json_object_object_get_ex(args, "name", &v) &&
		    !strcmp(json_object_get_string(v), "CANN"))
			++*cann;
	}
	json_object_put(a);
	return n;
}

/*
 * A start_info from another clock: the host's calls all fall before the
 * collection began (1970 here), and its end_info is 55 years after that.
 * msprof then shows no CANN process and no HostToDevice flows (checked with
 * its parser); the export does the same, says that it ignored the end
 * (whose per-millisecond AI Core Freq fills would never end: it hung
 * before), and keeps the device's events.
 */
TEST(host_clock_from_elsewhere)
{
	char ref[PATH_MAX], work[] = "/tmp/npuprof-fuzz-XXXXXX", prof[PATH_MAX];
	char cmd[4 * PATH_MAX], path[2 * PATH_MAX], msg[512];
	int before, after, flows, cann;
	unsigned int warnings = 0;
	FILE *f;

	if (msprof_reference_dir(ref, sizeof(ref)))
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	ASSERT_NE(NULL, mkdtemp(work));
	snprintf(prof, sizeof(prof), "%s/PROF_000001_20250101000000000_SIMULATOR", work);
	ASSERT_EQ(0, msprof_sample_copy(ref, MSPROF_SAMPLE, prof));
	ASSERT_EQ(0, export_child(prof, &warnings, msg, sizeof(msg))) TH_LOG("%s", msg);
	before = timeline_events(prof, &flows, &cann);
	ASSERT_LT(0, before);
	ASSERT_LT(0, flows);
	ASSERT_EQ(1, cann);

	/* the host's CLOCK_MONOTONIC_RAW at 1970: 9e15 ns (104 days) after its calls */
	snprintf(path, sizeof(path), "%s/host/start_info", prof);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("{\"collectionDateBegin\": \"1970-01-01 00:00:00.000000\", \"collectionTimeBegin\": "
	      "\"0\", \"clockMonotonicRaw\": \"9000000000000000\"}",
	      f);
	fclose(f);
	ASSERT_EQ(0, export_child(prof, &warnings, msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_LT(0, warnings);
	after = timeline_events(prof, &flows, &cann);
	EXPECT_LT(0, after);
	EXPECT_GT(before, after);
	EXPECT_EQ(0, flows);
	EXPECT_EQ(0, cann);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
	if (system(cmd))
		TH_LOG("cannot remove %s", work);
}

TEST_HARNESS_MAIN
