// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 40: npuprof_export() on folders whose files are hostile in kind
 * rather than in their bytes (test_msprof_fuzz and tests/fuzz/ do the
 * bytes): links where files belong (to /dev/zero, loops), a FIFO, huge
 * files, a start log line that begins with a NUL byte, task records
 * missing or empty. Each case is a copy of msprof's sample
 * (msprof_reference.h) with one thing changed, exported in a child under
 * a time limit, whose peak RSS is measured. Each was seen failing on the
 * code before issue 40 (the NUL line under make asan only: it was an
 * out-of-bounds read that returned garbage, not a crash).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "host/msprof_reference.h"

/* every path here is a short one under /tmp */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define TS "20261201084721"
#define PROF_NAME "PROF_000001_20250101000000000_SIMULATOR"
/* what an export may take beyond that of the untouched sample (issue 40: 256 MiB) */
#define RSS_SLACK_KB (64 * 1024)

/**
 * struct result - what the child's export gave
 * @done: the child reported (it neither crashed nor hung).
 * @rc: npuprof_export()'s result.
 * @devices: devices exported.
 * @rows: op_summary rows.
 * @msg: the error message.
 * @warn: what it printed on stderr (its warnings), the first 16 KiB.
 * @rss_kb: the child's peak resident set.
 */
struct result {
	int done;
	int rc;
	unsigned int devices;
	unsigned long long rows;
	char msg[512];
	char warn[16384];
	long rss_kb;
};

FIXTURE(prof)
{
	char ref[PATH_MAX];
	char work[64];
	char prof[PATH_MAX];
	struct result r;
	long base_rss_kb;
	int have;
};

/*
 * Export @prof in a child within @secs, its warnings on a file: a hang is
 * a child killed by the alarm, reported as not done. Without ASan the
 * child's address space is capped, so that the unbounded reads this suite
 * is about fail there rather than take the machine's memory (ASan's
 * shadow needs terabytes of address space).
 */
static void export_child(const char *work, const char *prof, unsigned int secs, struct result *r)
{
	char errf[PATH_MAX];
	struct rusage ru;
	int p[2], st, fd;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	snprintf(errf, sizeof(errf), "%s/stderr", work);
	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		struct npuprof_export_summary sum = { 0 };
		struct npuprof_export_opts o = { .sz = sizeof(o),
						 .timestamp = TS,
						 .summary = &sum };
		struct npuprof_error err = { 0 };
		struct result res = { .done = 1 };

		close(p[0]);
		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(3);
#ifndef __SANITIZE_ADDRESS__
		{
			struct rlimit rl = { 1ULL << 30, 1ULL << 30 };

			setrlimit(RLIMIT_AS, &rl);
		}
#endif
		alarm(secs);
		res.rc = npuprof_export(prof, &o, &err);
		res.devices = sum.n_devices;
		res.rows = sum.op_summary_rows;
		snprintf(res.msg, sizeof(res.msg), "%s", err.msg);
		if (write(p[1], &res, sizeof(res)) != sizeof(res))
			_exit(3);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return;
	}
	if (read(p[0], r, sizeof(*r)) != sizeof(*r))
		r->done = 0;
	close(p[0]);
	if (wait4(pid, &st, 0, &ru) == pid)
		r->rss_kb = ru.ru_maxrss;
	fd = open(errf, O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, r->warn, sizeof(r->warn) - 1);

		r->warn[n > 0 ? n : 0] = 0;
		close(fd);
	}
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd))
		fprintf(stderr, "# failed: %s\n", cmd);
}

static void put(const char *prof, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", prof, name);
	f = fopen(path, "w");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

FIXTURE_SETUP(prof)
{
	self->have = !msprof_reference_dir(self->ref, sizeof(self->ref));
	if (!self->have)
		SKIP(return, "no ../shared/reference (set VNPU_REFERENCE): msprof's sample is not "
			     "here");
	snprintf(self->work, sizeof(self->work), "/tmp/npuprof-hostile-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->work));
	snprintf(self->prof, sizeof(self->prof), "%s/" PROF_NAME, self->work);
	ASSERT_EQ(0, msprof_sample_copy(self->ref, MSPROF_SAMPLE, self->prof));
	/* the untouched sample's peak: what the cases are measured against */
	export_child(self->work, self->prof, 20, &self->r);
	ASSERT_TRUE(self->r.done);
	ASSERT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	self->base_rss_kb = self->r.rss_kb;
	sh("rm -rf %s/mindstudio_profiler_output", self->prof);
}

FIXTURE_TEARDOWN(prof)
{
	if (self->have)
		sh("rm -rf %s", self->work);
}

#define EXPORT(secs) export_child(self->work, self->prof, (secs), &self->r)
/* it finished, within the memory an export of the sample takes plus the slack */
#define EXPECT_BOUNDED()                                                                           \
	do {                                                                                       \
		ASSERT_TRUE(self->r.done) TH_LOG("the export crashed or hung");                    \
		EXPECT_GE(self->base_rss_kb + RSS_SLACK_KB, self->r.rss_kb)                        \
		TH_LOG("peak RSS %ld kB, the sample's %ld kB", self->r.rss_kb,            \
		       self->base_rss_kb); \
	} while (0)
#define EXPECT_IN(hay, needle) EXPECT_NE(NULL, strstr(hay, needle)) TH_LOG("%s", hay)

/* Finding 1: a start log line that begins with a NUL byte (read before the buffer) */
TEST_F(prof, start_log_line_with_a_nul)
{
	static const char log[] = "\0\n[Device0]\ncntvct: 123456789\n\0x\nclock_monotonic_raw: 1\n";

	if (!self->have)
		return;
	put(self->prof, "device_0/dev_start.log.0", log, sizeof(log) - 1);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_EQ(1, self->r.devices);
}

/* a start log with no value: the device is left out, the file named */
TEST_F(prof, start_log_without_its_value)
{
	static const char log[] = "\0cntvct: 1\n";

	if (!self->have)
		return;
	put(self->prof, "device_0/dev_start.log.0", log, sizeof(log) - 1);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EBADMSG, self->r.rc);
	EXPECT_IN(self->r.warn, "device_0/dev_start.log.0: no cntvct");
}

/* Finding 3: valid JSON and then 256 MiB (a sparse file: it costs no disk) */
TEST_F(prof, padded_info_json_is_refused_by_size)
{
	char path[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(path, sizeof(path), "%s/host/info.json", self->prof);
	ASSERT_EQ(0, truncate(path, 256 << 20));
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EFBIG, self->r.rc);
	EXPECT_IN(self->r.msg, "host/info.json: 268435456 bytes, over the 4194304 a JSON file");
}

/* Finding 3: info.json a link to /dev/zero (json-c read it without end) */
TEST_F(prof, info_json_linked_to_dev_zero)
{
	if (!self->have)
		return;
	sh("rm %s/host/info.json && ln -s /dev/zero %s/host/info.json", self->prof, self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-ELOOP, self->r.rc);
	EXPECT_IN(self->r.msg, "host/info.json: a symbolic link");
}

/* and a device's, to a file that is fine: not followed either */
TEST_F(prof, device_info_json_linked)
{
	if (!self->have)
		return;
	sh("cd %s/device_0 && mv info.json.0 real && ln -s real info.json.0", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EBADMSG, self->r.rc);
	EXPECT_IN(self->r.warn, "device_0/info.json.0: a symbolic link");
	EXPECT_IN(self->r.msg, "no device folder could be read");
}

/* Finding 4: a FIFO in place of start_info (the open blocked for ever) */
TEST_F(prof, fifo_in_place_of_start_info)
{
	char path[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(path, sizeof(path), "%s/host/start_info", self->prof);
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, mkfifo(path, 0644));
	EXPORT(10);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EINVAL, self->r.rc);
	EXPECT_IN(self->r.msg, "host/start_info: a FIFO, not a regular file");
}

/* a folder in place of an optional file: a warning naming it */
TEST_F(prof, folder_in_place_of_sample_json)
{
	if (!self->have)
		return;
	sh("rm %s/device_0/sample.json && mkdir %s/device_0/sample.json", self->prof, self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_IN(self->r.warn, "device_0/sample.json: a folder, not a regular file");
}

/* Finding 5: a missing stars_soc file exported 0 rows without a word */
TEST_F(prof, missing_stars_soc_is_named)
{
	if (!self->have)
		return;
	sh("rm %s/device_0/data/stars_soc.data.0.slice_0", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_EQ(0, self->r.rows);
	EXPECT_IN(self->r.warn, "device_0/data: no task in the stars_soc.data.0.slice_* files");
}

/* Finding 5: an empty one, the same */
TEST_F(prof, empty_stars_soc_is_named)
{
	if (!self->have)
		return;
	sh(": >%s/device_0/data/stars_soc.data.0.slice_0", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_IN(self->r.warn, "device_0/data: no task in the stars_soc.data.0.slice_* files");
}

/* nothing read at all (no task, no API call): an error that says so */
TEST_F(prof, nothing_exportable_fails)
{
	if (!self->have)
		return;
	sh("rm %s/device_0/data/stars_soc.data.0.slice_0 %s/host/data/*api_event*", self->prof,
	   self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-ENODATA, self->r.rc);
	EXPECT_IN(self->r.msg, "nothing to export: no device task and no host API record");
}

#define LOSS_REPORT(written)                                                                   \
	"{ \"channels\": [ { \"channel\": \"x\", \"record_size\": 64, \"produced\": " #written \
	", \"lost\": 0, \"written\": " #written ", \"not_written\": 0 } ] }"

/*
 * The same nothing, where our collector's reports say the run recorded
 * nothing (a profiled region with no work): an empty export, not an error.
 */
TEST_F(prof, run_that_recorded_nothing_exports_empty)
{
	if (!self->have)
		return;
	sh("rm %s/device_0/data/stars_soc.data.0.slice_0 %s/host/data/*api_event*", self->prof,
	   self->prof);
	sh("echo '" LOSS_REPORT(0) "' >%s/host/vnpu_loss.json", self->prof);
	sh("echo '" LOSS_REPORT(0) "' >%s/device_0/vnpu_loss.json", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_EQ(0, self->r.rows);
}

/* ... but where they say records were written, what was read is not the run */
TEST_F(prof, records_written_but_none_read_fails)
{
	if (!self->have)
		return;
	sh("rm %s/device_0/data/stars_soc.data.0.slice_0 %s/host/data/*api_event*", self->prof,
	   self->prof);
	sh("echo '" LOSS_REPORT(0) "' >%s/host/vnpu_loss.json", self->prof);
	sh("echo '" LOSS_REPORT(7) "' >%s/device_0/vnpu_loss.json", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-ENODATA, self->r.rc);
	EXPECT_IN(self->r.msg, "nothing to export");
}

/* a raw slice that links to /dev/zero: skipped, named */
TEST_F(prof, raw_slice_linked_to_dev_zero)
{
	if (!self->have)
		return;
	sh("ln -s /dev/zero %s/device_0/data/stars_soc.data.0.slice_1", self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_IN(self->r.warn, "device_0/data/stars_soc.data.0.slice_1: a symbolic link, not a "
				"regular file: skipped");
}

/* a FIFO among the host's dictionaries: skipped, named, no hang */
TEST_F(prof, fifo_among_dictionaries)
{
	char path[PATH_MAX + 64];

	if (!self->have)
		return;
	snprintf(path, sizeof(path), "%s/host/data/unaging.additional.hash_dic.slice_1",
		 self->prof);
	ASSERT_EQ(0, mkfifo(path, 0644));
	EXPORT(10);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_IN(self->r.warn, "hash_dic.slice_1: a special file, not a regular file: skipped");
}

/*
 * Names are escaped as msprof's writer (Python's json.dumps, ensure_ascii)
 * escapes them, in every JSON file: DEL as \u007f, controls, non-ASCII as
 * \uXXXX (surrogate pairs above the BMP), and bytes that are not UTF-8 as
 * U+FFFD, one for each maximal invalid part, as bytes.decode("utf-8",
 * "replace") has them (an overlong NUL is two, not a NUL).
 */
TEST_F(prof, names_escaped_as_json_dumps)
{
	static const char dic[] =
		"11111:Mat\x7fMul\x01\xc3\xa9\xf0\x9f\x98\x80\xc0\x80\xed\xa0\x80_0"
		"\xe2\x82\n22222:MatMul\n"
		"33333:MatMul_kernel_0\n44444:aclnnMatmul\n";
	char path[PATH_MAX + 96], *json = NULL;
	size_t len = 0;
	FILE *f;

	if (!self->have)
		return;
	put(self->prof, "host/data/unaging.additional.hash_dic.slice_0", dic, sizeof(dic) - 1);
	EXPORT(20);
	EXPECT_BOUNDED();
	ASSERT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	snprintf(path, sizeof(path), "%s/mindstudio_profiler_output/msprof_" TS ".json",
		 self->prof);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f) TH_LOG("no %s", path);
	ASSERT_LT(0, getdelim(&json, &len, '\0', f));
	fclose(f);
	/* json.dumps(b.decode("utf-8", "replace")) */
	EXPECT_NE(NULL, strstr(json, "\"Mat\\u007fMul\\u0001\\u00e9\\ud83d\\ude00"
				     "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd_0\\ufffd\""))
	TH_LOG("%s: the name is not as json.dumps writes it", path);
	EXPECT_EQ(NULL, strchr(json, 0x7f)) TH_LOG("%s: a raw DEL", path);
	free(json);
}

/* Finding 5: a device folder that is a loop of links */
TEST_F(prof, device_folder_link_loop)
{
	if (!self->have)
		return;
	sh("rm -rf %s/device_0 && ln -s device_0 %s/device_0", self->prof, self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EBADMSG, self->r.rc);
	EXPECT_IN(self->r.warn, "Too many levels of symbolic links: the device folder cannot be");
	EXPECT_IN(self->r.msg, "no device folder could be read");
}

/* Finding 5: info.json a loop: named as such, not as missing */
TEST_F(prof, info_json_link_loop)
{
	if (!self->have)
		return;
	sh("rm %s/host/info.json && ln -s info.json %s/host/info.json", self->prof, self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-ELOOP, self->r.rc);
	EXPECT_IN(self->r.msg, "host/info.json: a symbolic link");
}

/* the host folder itself a loop: the errno, not "no host/info.json" */
TEST_F(prof, host_folder_link_loop)
{
	if (!self->have)
		return;
	sh("rm -rf %s/host && ln -s host %s/host", self->prof, self->prof);
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-ELOOP, self->r.rc);
	EXPECT_IN(self->r.msg, "host/info.json: Too many levels of symbolic links");
}

/* a start log over its 1 MiB cap */
TEST_F(prof, start_log_over_its_cap)
{
	char path[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(path, sizeof(path), "%s/device_0/host_start.log.0", self->prof);
	ASSERT_EQ(0, truncate(path, (1 << 20) + 1));
	EXPORT(20);
	EXPECT_BOUNDED();
	EXPECT_EQ(-EBADMSG, self->r.rc);
	EXPECT_IN(self->r.warn, "host_start.log.0: 1048577 bytes, over the 1048576 a start log");
}

/* JSON that goes wrong: each names the file and the offset */
TEST_F(prof, json_errors_name_the_offset)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "{\"pid\": 1,, }", "offset 10: not valid JSON" },
		{ "{\"collectionTimeBegin\": \"1\"} x", "offset 29: bytes after the JSON value" },
		{ "[1, 2]", "not a JSON object" },
		{ "{\"a\": 1", "offset 7: not valid JSON" },
		{ "", "offset 0: not valid JSON" },
		{ "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]}", "nesting too deep" },
		{ "{\"a\": 1}\0{}", "offset 8: bytes after the JSON value" },
	};

	if (!self->have)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].text);

		if (i == sizeof(cases) / sizeof(cases[0]) - 1)
			len = 11; /* the NUL and what follows it */
		put(self->prof, "host/start_info", cases[i].text, len);
		EXPORT(20);
		EXPECT_BOUNDED();
		EXPECT_NE(0, self->r.rc);
		EXPECT_IN(self->r.msg, "host/start_info: ");
		EXPECT_IN(self->r.msg, cases[i].want);
	}
}

/* a loss report that is a FIFO: its losses are unknown, said so; no hang */
TEST_F(prof, fifo_loss_report)
{
	char path[PATH_MAX + 32];

	if (!self->have)
		return;
	snprintf(path, sizeof(path), "%s/device_0/vnpu_loss.json", self->prof);
	ASSERT_EQ(0, mkfifo(path, 0644));
	EXPORT(10);
	EXPECT_BOUNDED();
	EXPECT_EQ(0, self->r.rc) TH_LOG("%s", self->r.msg);
	EXPECT_IN(self->r.warn, "vnpu_loss.json: a FIFO, not a regular file: not read: the losses");
}

TEST_HARNESS_MAIN
