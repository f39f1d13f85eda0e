// SPDX-License-Identifier: GPL-2.0
/*
 * libnpuprof's output on a file system that fails (docs/reliability.md,
 * docs/output.md "When writing fails"): each case mounts a small tmpfs in a
 * private mount namespace and checks the error (its code, the path and the
 * errno's text in the message), that no CSV is left under a final name nor
 * any temporary file, that the raw data is whole records up to the failure
 * with every lost record counted (produced == written + lost), and that it
 * exports once there is room:
 *  - a full disk at start, a disk that fills while the collector writes,
 *    a disk that fills during the export (npuprof_export() and the
 *    Profiler's stop), a read-only mount, the output folder removed during
 *    the run, a ring that overflows (device loss reported);
 *  - the npuprof CLI (run, export) on a full disk and a read-only mount.
 */
#include <dirent.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "npuprof.h"
#include "format/prof_layout.h"
#include "vm/vnpu_test.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"

#define ENOSPC_MSG "No space left on device"
#define EROFS_MSG "Read-only file system"
#define ENOENT_MSG "No such file or directory"
#define TS "20261129120000"

/* ---- figures: added up over the cases (each runs in its own child) ---- */

struct totals {
	int cases;
	unsigned long written;
	unsigned long lost_reported;
	unsigned long partial_csv;
};

static struct totals *tot;

static void __attribute__((constructor)) totals_map(void)
{
	void *p =
		mmap(NULL, sizeof(*tot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	tot = p == MAP_FAILED ? NULL : p;
}

static void __attribute__((destructor)) totals_print(void)
{
	if (tot && tot->cases)
		vnpu_figure(
			"library",
			"cases=%d records_written=%lu records_lost_reported=%lu partial_csv=%lu",
			tot->cases, tot->written, tot->lost_reported, tot->partial_csv);
}

/* output or temporary files found where a failure must leave none */
static unsigned long leftovers;

static void count_case(unsigned long written, unsigned long lost)
{
	unsigned long partial = leftovers;

	leftovers = 0;
	if (!tot)
		return;
	__atomic_add_fetch(&tot->cases, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot->written, written, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot->lost_reported, lost, __ATOMIC_RELAXED);
	__atomic_add_fetch(&tot->partial_csv, partial, __ATOMIC_RELAXED);
}

/* snprintf into a PATH_MAX buffer (a longer path is cut: these are short) */
static void pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void pathf(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
}

/* ---- the shell, for the CLI and cp ---- */

static char npuprof_bin[PATH_MAX], matmul_add[PATH_MAX];

static void find_tools(void)
{
	const char *top = getenv("VNPU_TOP");

	pathf(npuprof_bin, "%s/build/tools/npuprof/npuprof", top ? top : ".");
	pathf(matmul_add, "%s/build/examples/matmul_add", top ? top : ".");
}

/* ---- files ---- */

/* what a tree holds: nftw has no context argument */
static struct {
	int csv, json, tmp, readme, prof;
} seen;

static int see(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = strlen(base);

	(void)st;
	if (flag == FTW_D && !strncmp(base, "PROF_", 5))
		seen.prof++;
	if (flag != FTW_F)
		return 0;
	if (n > 4 && !strcmp(base + n - 4, ".tmp"))
		seen.tmp++;
	else if (n > 4 && !strcmp(base + n - 4, ".csv"))
		seen.csv++;
	else if (n > 5 && !strcmp(base + n - 5, ".json") && !strncmp(base, "msprof_", 7))
		seen.json++;
	else if (!strcmp(base, "README.txt"))
		seen.readme++;
	return 0;
}

static void scan_tree(const char *dir)
{
	memset(&seen, 0, sizeof(seen));
	nftw(dir, see, 16, FTW_PHYS);
}

/* Output files (CSV, timeline, README) and temporary files under @dir. */
static int output_files(const char *dir)
{
	scan_tree(dir);
	leftovers += (unsigned long)(seen.csv + seen.json + seen.readme + seen.tmp);
	return seen.csv + seen.json + seen.readme + seen.tmp;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int rm_tree(const char *dir)
{
	return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entries of @dir (counted as leftovers: only used where there must be none). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	leftovers += (unsigned long)n;
	return n;
}

/* The one PROF_* folder under @dir, in @out; 0 or -1. */
static int find_prof(const char *dir, char *out, size_t len)
{
	char pat[PATH_MAX];
	glob_t g;
	int ret = -1;

	pathf(pat, "%s/PROF_*", dir);
	if (!glob(pat, 0, NULL, &g) && g.gl_pathc == 1) {
		snprintf(out, len, "%s", g.gl_pathv[0]);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

/* Data rows of the CSV @prefix* of @prof's output, or -1. */
static long csv_rows(const char *prof, const char *prefix)
{
	char pat[PATH_MAX], line[16384];
	long rows = -1;
	glob_t g;
	FILE *f;

	pathf(pat, "%s/mindstudio_profiler_output/%s*.csv", prof, prefix);
	if (glob(pat, 0, NULL, &g) || g.gl_pathc != 1) {
		globfree(&g);
		return -1;
	}
	f = fopen(g.gl_pathv[0], "r");
	globfree(&g);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		rows++;
	fclose(f);
	return rows;
}

static int file_has(const char *path, const char *needle)
{
	char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, needle) != NULL;
}

/* FNV-1a over the names, sizes and bytes of the raw files of @prof. */
static uint64_t raw_digest(const char *prof)
{
	static const char *const pats[] = { "%s/device_*/data/*", "%s/device_*/info.json.*",
					    "%s/host/data/*" };
	uint64_t h = 1469598103934665603ULL;
	char pat[PATH_MAX], buf[65536];

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		glob_t g;

		pathf(pat, pats[i], prof);
		if (glob(pat, 0, NULL, &g))
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++) {
			int fd = open(g.gl_pathv[k], O_RDONLY);
			const char *name = strrchr(g.gl_pathv[k], '/');
			ssize_t n;

			for (const char *c = name; *c; c++)
				h = (h ^ (unsigned char)*c) * 1099511628211ULL;
			while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
				for (ssize_t j = 0; j < n; j++)
					h = (h ^ (unsigned char)buf[j]) * 1099511628211ULL;
			if (fd >= 0)
				close(fd);
		}
		globfree(&g);
	}
	return h;
}

/* ---- the raw record files, checked record by record ---- */

/* The device's channels: the raw file of each, and its record size. */
static const struct {
	const char *name;
	size_t rec_size;
} channels[] = {
	{ "stars_soc", sizeof(struct vnpu_acsq_log) },
	{ "ffts_profile", sizeof(struct vnpu_ffts_pmu) },
	{ "ts_track", sizeof(struct vnpu_ts_flip) },
	{ "aicpu", sizeof(struct vnpu_aicpu_node) },
};

/**
 * struct raw_count - what a device's raw files and loss report hold
 * @data: records in the channels' slices.
 * @lost: the device's losses (a full channel), from the loss report.
 * @unwritten: records the collector drained but could not write, from it.
 * @collector_recs: 1 when the loss report is there and readable.
 * @bad: slices that are not whole records, a loss report whose counts do
 *       not balance or disagree with the slices.
 * @last_collector: the loss report balances: produced == written + lost +
 *                  not_written, written == the records in the slices.
 * @files: slices.
 * @bytes: their bytes.
 */
struct raw_count {
	unsigned long data;
	unsigned long lost;
	unsigned long unwritten;
	unsigned long collector_recs;
	unsigned long bad;
	int last_collector;
	unsigned int files;
	unsigned long bytes;
};

/* The number after "@key": in @s, from @from on; -1 when absent. */
static long json_count(const char *s, const char *key)
{
	const char *k = strstr(s, key);

	return k ? strtol(k + strlen(key), NULL, 10) : -1;
}

static void walk_raw(const char *prof, unsigned int dev, struct raw_count *rc)
{
	unsigned long produced = 0, written = 0;
	char path[PATH_MAX], buf[4096];
	ssize_t n;
	int fd;

	memset(rc, 0, sizeof(*rc));
	for (size_t c = 0; c < sizeof(channels) / sizeof(channels[0]); c++) {
		for (unsigned int k = 0;; k++) {
			struct stat st;

			pathf(path, "%s/device_%u/data/%s.data.%u.slice_%u", prof, dev,
			      channels[c].name, dev, k);
			if (stat(path, &st))
				break;
			rc->files++;
			rc->bytes += (unsigned long)st.st_size;
			if ((size_t)st.st_size % channels[c].rec_size)
				rc->bad++;
			rc->data += (unsigned long)((size_t)st.st_size / channels[c].rec_size);
		}
	}
	pathf(path, "%s/device_%u/" NPF_RAW_LOSS_FILE, prof, dev);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		rc->bad++;
		return;
	}
	buf[n] = '\0';
	rc->collector_recs = 1;
	/* one entry per channel, in channel order */
	for (const char *e = strstr(buf, "\"channel\""); e; e = strstr(e + 1, "\"channel\"")) {
		long p = json_count(e, "\"produced\": "), l = json_count(e, "\"lost\": ");
		long w = json_count(e, "\"written\": "), u = json_count(e, "\"not_written\": ");

		if (p < 0 || l < 0 || w < 0 || u < 0 || p != w + l + u)
			rc->bad++;
		produced += (unsigned long)p;
		written += (unsigned long)w;
		rc->lost += (unsigned long)l;
		rc->unwritten += (unsigned long)u;
	}
	rc->last_collector = produced == written + rc->lost + rc->unwritten && written == rc->data;
	if (!rc->last_collector)
		rc->bad++;
}

/* ---- mounts ---- */

/* Mount a tmpfs of @size ("64k") on @dir. */
static int mount_tmpfs(const char *dir, const char *size, unsigned long flags)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "size=%s,mode=0755", size);
	return mount("npuprof-test", dir, "tmpfs", flags, opts) ? -errno : 0;
}

static int remount(const char *dir, const char *size, unsigned long flags)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "size=%s", size);
	return mount(NULL, dir, NULL, MS_REMOUNT | flags, opts) ? -errno : 0;
}

/*
 * Fill the file system of @dir with @dir/filler until @leave bytes are free
 * (0: until a write fails with ENOSPC). Returns 0 or -errno.
 */
static int fill(const char *dir, unsigned long leave)
{
	static char zero[65536];
	char path[PATH_MAX];
	struct statvfs vfs;
	unsigned long todo = ~0UL;
	int fd, ret = 0;

	if (leave) {
		if (statvfs(dir, &vfs))
			return -errno;
		todo = vfs.f_bavail * vfs.f_bsize;
		todo = todo > leave ? todo - leave : 0;
	}
	pathf(path, "%s/filler", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return -errno;
	while (todo) {
		size_t n = todo < sizeof(zero) ? todo : sizeof(zero);
		ssize_t w = write(fd, zero, n);

		if (w <= 0) {
			ret = w < 0 && errno != ENOSPC ? -errno : 0;
			if (leave)
				ret = -ENOSPC;
			break;
		}
		todo -= (size_t)w;
	}
	close(fd);
	return ret;
}

static int unfill(const char *dir)
{
	char path[PATH_MAX];

	pathf(path, "%s/filler", dir);
	return unlink(path) ? -errno : 0;
}

/* ---- the fixture: a scratch folder, a mount point, device 0 ---- */

FIXTURE(out)
{
	char scratch[64];
	char mnt[PATH_MAX];
	char big[PATH_MAX];
	int mounted;
	struct npuprof_dev *dev;
	uint32_t stream;
	int stats_fd;
};

FIXTURE_SETUP(out)
{
	struct npuprof_error err;

	self->stats_fd = -1;
	find_tools();
	/* our mounts die with this test's process, even if teardown does not run */
	ASSERT_EQ(0, unshare(CLONE_NEWNS)) TH_LOG("unshare: %s", strerror(errno));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	strcpy(self->scratch, "/tmp/npuprof-outputs-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->scratch));
	pathf(self->mnt, "%s/mnt", self->scratch);
	pathf(self->big, "%s/big", self->scratch);
	ASSERT_EQ(0, mkdir(self->mnt, 0755));
	ASSERT_EQ(0, mkdir(self->big, 0755));
	ASSERT_EQ(0, npuprof_open(0, &self->dev, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, npuprof_stream_create(self->dev, &self->stream, &err)) TH_LOG("%s", err.msg);
	self->stats_fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_LE(0, self->stats_fd);
}

FIXTURE_TEARDOWN(out)
{
	npuprof_profiler_stop(NULL);
	if (self->mounted && umount2(self->mnt, MNT_DETACH))
		TH_LOG("umount %s: %s", self->mnt, strerror(errno));
	if (self->stats_fd >= 0)
		close(self->stats_fd);
	npuprof_close(self->dev);
	rm_tree(self->scratch);
}

/* @n tasks (MatMul and Add, L1 records) in batches of 64, then a sync. */
static int run_tasks(FIXTURE_DATA(out) * self, unsigned int n)
{
	uint64_t dims[2] = { 128, 128 };
	struct npuprof_error err;
	struct vnpu_task t[64];
	int ret;

	while (n) {
		unsigned int k = n < 64 ? n : 64;

		for (unsigned int i = 0; i < k; i++) {
			if (i % 2)
				npuprof_op_add(self->dev, &t[i], "fc/BiasAdd", self->stream, 2,
					       dims, VNPU_DT_FLOAT16);
			else
				npuprof_op_matmul(self->dev, &t[i], "fc/MatMul", self->stream, 128,
						  128, 128, VNPU_DT_FLOAT16);
		}
		ret = npuprof_launch(self->dev, t, k, NULL, &err);
		if (ret)
			return ret;
		n -= k;
	}
	return npuprof_sync(self->dev, self->stream, 60000, &err);
}

static int stats(FIXTURE_DATA(out) * self, struct vnpu_prof_stats *st)
{
	return vnpu_prof_stats(self->stats_fd, st);
}

/* Bytes of the record files of device 0 of @prof. */
/* op_summary rows; 0 when there is none (msprof writes no empty CSV) */
static long op_rows(const char *prof)
{
	long n = csv_rows(prof, "op_summary_");

	return n < 0 ? 0 : n;
}

static unsigned long raw_bytes(const char *prof)
{
	struct raw_count rc;

	walk_raw(prof, 0, &rc);
	return rc.bytes;
}

/*
 * Wait until the collector has written everything the device wrote to the
 * ring (no loss: the record files hold the ring's bytes); the stats in @st.
 */
static int drained(FIXTURE_DATA(out) * self, const char *prof, struct vnpu_prof_stats *st)
{
	for (int i = 0; i < 1000; i++) {
		if (stats(self, st))
			return -1;
		if (raw_bytes(prof) == st->bytes)
			return 0;
		usleep(10000);
	}
	return -1;
}

static int profile(const char *dir, const char *level, struct npuprof_error *err)
{
	return npuprof_profiler_start(
		&(struct npuprof_options){
			.sz = sizeof(struct npuprof_options), .level = level, .output_path = dir },
		err);
}

/* A complete profile of @tasks tasks at L1 under @dir; its folder in @prof. */
static int good_profile(FIXTURE_DATA(out) * self, const char *dir, unsigned int tasks, char *prof,
			size_t len)
{
	struct npuprof_error err;

	if (profile(dir, "L1", &err) || run_tasks(self, tasks) || npuprof_profiler_stop(&err))
		return -1;
	if (npuprof_profiler_dir(prof, len))
		return -1;
	return 0;
}

/* ---- the cases ---- */

/* No room for even the first raw file: start fails, nothing is left, the device works. */
TEST_F_TIMEOUT(out, full_disk_at_start, 120)
{
	struct npuprof_error err;
	char prof[PATH_MAX];
	int ret;

	ASSERT_EQ(0, mount_tmpfs(self->mnt, "64k", 0));
	self->mounted = 1;
	ASSERT_EQ(0, fill(self->mnt, 0));

	ret = profile(self->mnt, "L1", &err);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(ret, err.code);
	EXPECT_NE(NULL, strstr(err.msg, self->mnt)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, ENOSPC_MSG)) TH_LOG("%s", err.msg);
	/* no CSV, no timeline, no temporary file, and no half-made PROF_* folder */
	EXPECT_EQ(0, output_files(self->mnt));
	EXPECT_EQ(0, seen.prof);
	EXPECT_EQ(-ENOENT, npuprof_profiler_stop(&err));

	/* the workload runs, and profiling works once there is room */
	EXPECT_EQ(0, run_tasks(self, 16));
	ASSERT_EQ(0, unfill(self->mnt));
	ASSERT_EQ(0, remount(self->mnt, "1m", 0));
	ASSERT_EQ(0, good_profile(self, self->mnt, 16, prof, sizeof(prof)));
	EXPECT_EQ(16, csv_rows(prof, "op_summary_"));
	count_case(0, 0);
}

/*
 * The disk fills while the collector writes: stop fails naming a raw
 * file, the workload ran to its end, the files hold whole records, the
 * loss report counts what was not written (produced == written + lost +
 * not written), and it exports.
 */
TEST_F_TIMEOUT(out, disk_fills_mid_run, 300)
{
	unsigned long rounds = vnpu_stress_count(1, 8);

	for (unsigned long round = 0; round < rounds; round++) {
		char prof[PATH_MAX], copy[PATH_MAX], out[8192], readme[PATH_MAX];
		struct npuprof_export_summary sum;
		struct npuprof_export_opts eo = { .sz = sizeof(eo), .quiet = 1, .summary = &sum };
		struct vnpu_prof_stats st;
		struct npuprof_error err;
		struct raw_count rc;
		unsigned int batches = 0;
		int ret;

		ASSERT_EQ(0, mount_tmpfs(self->mnt, "64k", 0));
		self->mounted = 1;
		ASSERT_EQ(0, profile(self->mnt, "L1", &err)) TH_LOG("%s", err.msg);
		npuprof_profiler_dir(prof, PATH_MAX);
		/* four times what the disk holds; every batch of the workload succeeds */
		do {
			ASSERT_EQ(0, run_tasks(self, 64));
			ASSERT_EQ(0, stats(self, &st));
			batches++;
		} while (st.bytes < 4 * 65536 * (round + 1) && batches < 10000);
		/* the workload is over: the counters are final (the session ends with stop) */
		ret = npuprof_profiler_stop(&err);
		ASSERT_EQ(-ENOSPC, ret) TH_LOG("%s", err.msg);
		EXPECT_EQ(ret, err.code);
		/* a slice of a channel */
		EXPECT_NE(NULL, strstr(err.msg, "/device_0/data/")) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, ".data.0.slice_")) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, ENOSPC_MSG)) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, prof)) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, "records not written, counted in the raw data"))
		TH_LOG("%s", err.msg);
		EXPECT_EQ(0, output_files(self->mnt));

		/* whole records, and every record accounted for in the loss report */
		walk_raw(prof, 0, &rc);
		EXPECT_EQ(0, rc.bad);
		EXPECT_LT(0, rc.data);
		EXPECT_LT(0, rc.unwritten);
		EXPECT_EQ(1, rc.collector_recs);
		EXPECT_TRUE(rc.last_collector);
		EXPECT_EQ(st.lost, rc.lost);
		EXPECT_EQ(st.produced, rc.data + rc.lost + rc.unwritten)
		TH_LOG("produced %llu: %lu written, %lu lost, %lu not written",
		       (unsigned long long)st.produced, rc.data, rc.lost, rc.unwritten);

		/* a copy on a bigger disk exports, the missing records reported */
		pathf(copy, "%s/%s", self->big, strrchr(prof, '/') + 1);
		ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "cp -a %s %s", prof, copy))
		TH_LOG("%s", out);
		ASSERT_EQ(0, npuprof_export(copy, &eo, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(rc.unwritten, sum.dev[0].seq_missing);
		EXPECT_EQ(rc.lost, sum.lost);
		EXPECT_LT(0, sum.dev[0].tasks);
		EXPECT_EQ((long)sum.op_summary_rows, op_rows(copy));
		pathf(readme, "%s/mindstudio_profiler_output/README.txt", copy);
		EXPECT_TRUE(file_has(readme, "records are missing from the record files"));

		/* and so does the original once there is room, with the CLI */
		ASSERT_EQ(0, remount(self->mnt, "16m", 0));
		EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "%s export --quiet %s", npuprof_bin, prof))
		TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "missing")) TH_LOG("%s", out);
		EXPECT_EQ((long)sum.op_summary_rows, op_rows(prof));
		scan_tree(self->mnt);
		EXPECT_EQ(0, seen.tmp);

		count_case(rc.data, rc.lost + rc.unwritten);
		ASSERT_EQ(0, umount2(self->mnt, 0));
		self->mounted = 0;
		rm_tree(self->big);
		mkdir(self->big, 0755);
	}
}

/*
 * The export runs out of room (the raw data fits, the CSVs do not): an
 * error naming the file, no file left in the output folder, the raw data
 * untouched; with room, the same export gives the same bytes.
 */
TEST_F_TIMEOUT(out, disk_fills_during_export, 300)
{
	struct npuprof_export_opts eo = { .sz = sizeof(eo), .timestamp = TS, .quiet = 1 };
	char prof[PATH_MAX], ref[PATH_MAX], copy[PATH_MAX], outdir[PATH_MAX], out[8192];
	struct raw_count rc;
	/* enough rows that the CSVs cannot fit in what is left */
	unsigned int tasks = 64 + (unsigned int)vnpu_stress_count(448, 8192);
	struct npuprof_error err;
	uint64_t digest;
	int ret;

	ASSERT_EQ(0, good_profile(self, self->big, tasks, prof, sizeof(prof)));
	/* the reference: the raw data alone, exported with the fixed {ts} */
	pathf(ref, "%s/ref", self->scratch);
	ASSERT_EQ(0,
		  vnpu_sh(out, sizeof(out),
			  "mkdir -p %s && cp -a %s %s/ && rm -rf %s/*/mindstudio_profiler_output",
			  ref, prof, ref, ref))
	TH_LOG("%s", out);
	ASSERT_EQ(0, find_prof(ref, ref, sizeof(ref)));
	ASSERT_EQ(0, npuprof_export(ref, &eo, &err)) TH_LOG("%s", err.msg);

	/* room for the raw data, not for the CSVs as well */
	ASSERT_EQ(0, mount_tmpfs(self->mnt, vnpu_stress_mode() ? "64m" : "8m", 0));
	self->mounted = 1;
	/* the raw data alone: the output of the run does not fit */
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "mkdir %s/%s && cd %s && cp -a host device_* %s/%s/",
			     self->mnt, strrchr(prof, '/') + 1, prof, self->mnt,
			     strrchr(prof, '/') + 1))
	TH_LOG("%s", out);
	ASSERT_EQ(0, find_prof(self->mnt, copy, sizeof(copy)));
	digest = raw_digest(copy);
	ASSERT_EQ(0, fill(self->mnt, 4096));

	ret = npuprof_export(copy, &eo, &err);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(ret, err.code);
	pathf(outdir, "%s/mindstudio_profiler_output/", copy);
	EXPECT_NE(NULL, strstr(err.msg, outdir)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, ENOSPC_MSG)) TH_LOG("%s", err.msg);
	/* no file at all: no final name, no temporary one */
	EXPECT_EQ(0, entries(outdir)) TH_LOG("%s", outdir);
	EXPECT_EQ(digest, raw_digest(copy));

	/* the CLI says the same */
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "%s export --quiet %s", npuprof_bin, copy));
	EXPECT_NE(NULL, strstr(out, outdir)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ENOSPC_MSG)) TH_LOG("%s", out);
	EXPECT_EQ(0, entries(outdir));
	EXPECT_EQ(digest, raw_digest(copy));

	/* with room: the files of the reference, byte for byte */
	ASSERT_EQ(0, unfill(self->mnt));
	ASSERT_EQ(0, npuprof_export(copy, &eo, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "diff -r %s/mindstudio_profiler_output %s", ref,
			     outdir))
	TH_LOG("%s", out);
	EXPECT_EQ(digest, raw_digest(copy));
	EXPECT_EQ((long)tasks, csv_rows(copy, "op_summary_"));
	walk_raw(copy, 0, &rc);
	EXPECT_EQ(0, rc.bad);
	count_case(rc.data, rc.lost);
}

/* The export at the Profiler's stop runs out of room: the same rules. */
TEST_F_TIMEOUT(out, disk_fills_during_stop_export, 300)
{
	unsigned int tasks = 64 + (unsigned int)vnpu_stress_count(192, 4096);
	char prof[PATH_MAX], outdir[PATH_MAX];
	struct vnpu_prof_stats st;
	struct npuprof_error err;
	struct raw_count rc;
	uint64_t digest;
	int ret;

	ASSERT_EQ(0, mount_tmpfs(self->mnt, vnpu_stress_mode() ? "64m" : "8m", 0));
	self->mounted = 1;
	ASSERT_EQ(0, profile(self->mnt, "L1", &err)) TH_LOG("%s", err.msg);
	npuprof_profiler_dir(prof, PATH_MAX);
	ASSERT_EQ(0, run_tasks(self, tasks));
	ASSERT_EQ(0, drained(self, prof, &st));
	/* a poll round of the reader: the host API records are written too */
	usleep(300 * 1000);
	/* everything is on disk: only the export writes from here on */
	ASSERT_EQ(0, fill(self->mnt, 4096));
	ret = npuprof_profiler_stop(&err);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(ret, err.code);
	pathf(outdir, "%s/mindstudio_profiler_output/", prof);
	EXPECT_NE(NULL, strstr(err.msg, outdir)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, ENOSPC_MSG)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, entries(outdir));

	/* every record is in the raw data */
	walk_raw(prof, 0, &rc);
	EXPECT_EQ(0, rc.bad);
	EXPECT_EQ(0, rc.unwritten);
	EXPECT_EQ(st.produced, rc.data + rc.lost);
	digest = raw_digest(prof);

	ASSERT_EQ(0, unfill(self->mnt));
	ASSERT_EQ(0, npuprof_export(prof, NULL, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ((long)tasks, csv_rows(prof, "op_summary_"));
	EXPECT_EQ(digest, raw_digest(prof));
	count_case(rc.data, rc.lost);
}

/* A read-only mount: start and export fail naming the path; the workload runs. */
TEST_F_TIMEOUT(out, read_only_output, 120)
{
	char prof[PATH_MAX], copy[PATH_MAX], out[8192];
	struct vnpu_prof_stats st;
	struct npuprof_error err;
	int ret;

	ASSERT_EQ(0, mount_tmpfs(self->mnt, "1m", 0));
	self->mounted = 1;
	ASSERT_EQ(0, remount(self->mnt, "1m", MS_RDONLY));

	ret = profile(self->mnt, "L1", &err);
	EXPECT_EQ(-EROFS, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(ret, err.code);
	EXPECT_NE(NULL, strstr(err.msg, self->mnt)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, EROFS_MSG)) TH_LOG("%s", err.msg);
	/* nothing started: the workload runs, no session is left on the device */
	EXPECT_EQ(0, run_tasks(self, 32));
	ASSERT_EQ(0, stats(self, &st));
	EXPECT_EQ(0, st.active);
	EXPECT_EQ(0, entries(self->mnt));

	/* the CLI refuses it before running the program (the environment: status 1) */
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "%s run --output %s -- %s 2", npuprof_bin, self->mnt,
			     matmul_add));
	EXPECT_NE(NULL, strstr(out, self->mnt)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, EROFS_MSG)) TH_LOG("%s", out);

	/* raw data on a read-only mount cannot be exported in place */
	ASSERT_EQ(0, good_profile(self, self->big, 16, prof, sizeof(prof)));
	ASSERT_EQ(0, remount(self->mnt, "1m", 0));
	/* the raw data alone: the output of the run does not fit */
	ASSERT_EQ(0, vnpu_sh(out, sizeof(out), "mkdir %s/%s && cd %s && cp -a host device_* %s/%s/",
			     self->mnt, strrchr(prof, '/') + 1, prof, self->mnt,
			     strrchr(prof, '/') + 1))
	TH_LOG("%s", out);
	ASSERT_EQ(0, find_prof(self->mnt, copy, sizeof(copy)));
	ASSERT_EQ(0, remount(self->mnt, "1m", MS_RDONLY));
	ret = npuprof_export(copy, NULL, &err);
	EXPECT_EQ(-EROFS, ret) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, copy)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, EROFS_MSG)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "%s export --quiet %s", npuprof_bin, copy));
	EXPECT_NE(NULL, strstr(out, copy)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, EROFS_MSG)) TH_LOG("%s", out);
	EXPECT_EQ(0, output_files(self->mnt));
	count_case(0, 0);
}

struct remover {
	const char *dir;
	int ret;
};

static void *remove_later(void *arg)
{
	struct remover *r = arg;

	usleep(200 * 1000);
	r->ret = rm_tree(r->dir);
	return NULL;
}

/*
 * The output folder is removed during the run (rm -rf from another thread):
 * stop fails naming it with ENOENT, in bounded time, and the device works.
 */
TEST_F_TIMEOUT(out, output_removed_mid_run, 120)
{
	char dir[PATH_MAX], again[PATH_MAX], prof[PATH_MAX];
	struct remover r = { .dir = dir };
	struct npuprof_error err;
	struct timespec t0, t1;
	pthread_t th;
	int ret;

	pathf(dir, "%s/out", self->scratch);
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, profile(dir, "L1", &err)) TH_LOG("%s", err.msg);
	npuprof_profiler_dir(prof, PATH_MAX);
	ASSERT_EQ(0, pthread_create(&th, NULL, remove_later, &r));
	for (int i = 0; i < 8; i++) {
		ASSERT_EQ(0, run_tasks(self, 64));
		usleep(50 * 1000);
	}
	pthread_join(th, NULL);
	ASSERT_EQ(0, r.ret) TH_LOG("rm -rf %s: %s", dir, strerror(errno));
	ASSERT_EQ(0, run_tasks(self, 64));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = npuprof_profiler_stop(&err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_EQ(-ENOENT, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(ret, err.code);
	EXPECT_NE(NULL, strstr(err.msg, prof)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, ENOENT_MSG)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "removed during the run")) TH_LOG("%s", err.msg);
	EXPECT_GT(10, t1.tv_sec - t0.tv_sec);
	EXPECT_EQ(-1, access(dir, F_OK));

	/* the device and the library work: another session */
	pathf(again, "%s/again", self->scratch);
	ASSERT_EQ(0, mkdir(again, 0755));
	ASSERT_EQ(0, good_profile(self, again, 32, prof, sizeof(prof)));
	EXPECT_EQ(32, csv_rows(prof, "op_summary_"));
	count_case(0, 0);
}

/*
 * The ring overflows (the collector's process is stopped while another
 * process runs tasks): the device's loss is in the raw data, in the stop's
 * warning, in README.txt and in the summary, and adds up to produced.
 */
TEST_F_TIMEOUT(out, ring_overflow_is_reported, 300)
{
	int go[2], ready[2], status, fd;
	char prof[PATH_MAX], readme[PATH_MAX], log[PATH_MAX], c = 0;
	struct npuprof_export_summary sum;
	struct npuprof_export_opts eo = { .sz = sizeof(eo), .quiet = 1, .summary = &sum };
	struct vnpu_prof_stats st;
	struct npuprof_error err;
	struct raw_count rc;
	struct vnpu_task t[256];
	unsigned long done = 0;
	int stream;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pathf(log, "%s/stderr", self->scratch);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* the profiled process: start, wait, stop (its stderr to a file) */
		int e = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (e < 0 || dup2(e, 2) < 0)
			_exit(10);
		if (profile(self->big, "L1", &err))
			_exit(11);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(12);
		_exit(npuprof_profiler_stop(&err) ? 13 : 0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	/* tasks from another file of the device, until the stopped reader's ring overflowed */
	fd = vnpu_open_dev(0, O_RDWR);
	ASSERT_LE(0, fd);
	stream = vnpu_stream_new(fd);
	ASSERT_LE(0, stream);
	/* the biggest records: every tensor, every dim (fewer tasks to fill the ring) */
	for (int i = 0; i < 256; i++) {
		const __u64 dims[VNPU_MAX_DIMS] = { 2, 2, 2, 2, 2, 2, 2, 2 };

		vnpu_task_init(&t[i], "wide/Add", "Add", VNPU_TASK_AI_CORE, (unsigned int)stream,
			       4096, 4096);
		for (int k = 0; k < VNPU_MAX_TENSORS; k++)
			vnpu_task_tensor(&t[i], k >= VNPU_MAX_TENSORS / 2, VNPU_DT_FLOAT16,
					 VNPU_MAX_DIMS, dims);
	}
	do {
		ASSERT_EQ(0, vnpu_submit_tasks(fd, t, 256, NULL));
		ASSERT_EQ(0, vnpu_sync_stream(fd, (unsigned int)stream, 0, 60000, NULL));
		done += 256;
		ASSERT_EQ(0, stats(self, &st));
	} while (st.lost < 100 && done < 1000000);
	close(fd);
	ASSERT_EQ(0, kill(pid, SIGCONT));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(file_has(log, "npuprof: warning: vnpu0 lost ")) TH_LOG("see %s", log);

	/* st: the counters after the last task, read while the session ran */
	EXPECT_LT(0, st.lost);
	ASSERT_EQ(0, find_prof(self->big, prof, sizeof(prof)));
	walk_raw(prof, 0, &rc);
	EXPECT_EQ(0, rc.bad);
	EXPECT_EQ(st.lost, rc.lost);
	EXPECT_EQ(0, rc.unwritten);
	EXPECT_EQ(st.produced, rc.data + rc.lost);
	pathf(readme, "%s/mindstudio_profiler_output/README.txt", prof);
	EXPECT_TRUE(file_has(readme, "records were lost on the device"));
	ASSERT_EQ(0, npuprof_export(prof, &eo, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(st.lost, sum.lost);
	EXPECT_EQ(0, sum.dev[0].seq_missing);
	count_case(rc.data, rc.lost);
}

/* npuprof run and export on a full disk: non-zero, the path and the errno on stderr. */
TEST_F_TIMEOUT(out, cli_full_disk, 300)
{
	/* 150 rounds of 3 tasks: 3 times what the disk holds */
	unsigned int rounds = 150 + (unsigned int)vnpu_stress_count(0, 4000);
	char prof[PATH_MAX], out[16384];
	struct raw_count rc;
	int st;

	ASSERT_EQ(0, mount_tmpfs(self->mnt, "64k", 0));
	self->mounted = 1;
	/* full from the start: the program cannot profile its device */
	ASSERT_EQ(0, fill(self->mnt, 0));
	st = vnpu_sh(out, sizeof(out), "%s run --level L1 --output %s -- %s 2", npuprof_bin,
		     self->mnt, matmul_add);
	EXPECT_NE(0, st);
	EXPECT_NE(NULL, strstr(out, self->mnt)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ENOSPC_MSG)) TH_LOG("%s", out);
	EXPECT_EQ(0, output_files(self->mnt));
	EXPECT_EQ(0, seen.prof);

	/* full during the run: the program succeeds, its profile does not */
	ASSERT_EQ(0, unfill(self->mnt));
	st = vnpu_sh(out, sizeof(out), "%s run --level L1 --output %s -- %s %u", npuprof_bin,
		     self->mnt, matmul_add, rounds);
	EXPECT_EQ(1, st) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "/data/")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ENOSPC_MSG)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "was not exported")) TH_LOG("%s", out);
	EXPECT_EQ(0, output_files(self->mnt));
	ASSERT_EQ(0, find_prof(self->mnt, prof, sizeof(prof)));
	walk_raw(prof, 0, &rc);
	EXPECT_EQ(0, rc.bad);
	EXPECT_LT(0, rc.unwritten);

	/* export on the full disk: status 1, the file and the errno */
	EXPECT_EQ(1, vnpu_sh(out, sizeof(out), "%s export --quiet %s", npuprof_bin, prof));
	EXPECT_NE(NULL, strstr(out, prof)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ENOSPC_MSG)) TH_LOG("%s", out);
	EXPECT_EQ(0, output_files(self->mnt));

	/* with room it exports, and says what is missing */
	ASSERT_EQ(0, remount(self->mnt, "16m", 0));
	EXPECT_EQ(0, vnpu_sh(out, sizeof(out), "%s export --quiet %s", npuprof_bin, prof))
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "missing")) TH_LOG("%s", out);
	/* the ops are the host's records: some may be among the missing */
	EXPECT_LE(0, op_rows(prof));
	count_case(rc.data, rc.lost + rc.unwritten);
}

TEST_HARNESS_MAIN
