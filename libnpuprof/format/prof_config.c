// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the configuration files of a PROF_* folder (format/format.h).
 *
 * The clocks: host records are in CLOCK_MONOTONIC_RAW ns (host CPU
 * Frequency is "", so msprof takes them as ns). The device counts system
 * counter ticks of the same host clock (device time is host time); the
 * start logs give msprof one instant on both, the session's start:
 * dev_start.log.N's cntvct is its tick (start_ticks) and host_start.log.N's
 * clock_monotonic_raw the same instant (start_raw_ns), so msprof's
 * time_from_syscnt lands each device time on the host's line where it
 * happened.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "format/format.h"

/* Our driver version, for msprof's drvVersion checks (>= 467473: flips) */
#define NPF_DRV_VERSION 467473

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void npf_now(struct npf_instant *t)
{
	t->mono_ns = clock_ns(CLOCK_MONOTONIC);
	t->raw_ns = clock_ns(CLOCK_MONOTONIC_RAW);
	t->real_ns = clock_ns(CLOCK_REALTIME);
}

static int write_text(const char *path, const char *text, struct npuprof_error *err)
{
	FILE *f = fopen(path, "we");
	int ret = 0;

	if (!f)
		return npx_set_error(err, -errno, "cannot create %s: %s", path, strerror(errno));
	if (fputs(text, f) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		return npx_set_error(err, ret, "cannot write %s: %s", path, strerror(-ret));
	return 0;
}

static int write_json(const char *path, struct json_object *o, struct npuprof_error *err)
{
	const char *text;
	int ret;

	if (!o)
		return npx_set_error(err, -ENOMEM, "%s: out of memory", path);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED);
	ret = text ? write_text(path, text, err)
		   : npx_set_error(err, -ENOMEM, "%s: out of memory", path);
	json_object_put(o);
	return ret;
}

static void put_str(struct json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, json_object_new_string(val));
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	put_str(o, key, buf);
}

static void put_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* kHz as msprof's MHz string: "50", "1850", "19.2" */
static void put_mhz(struct json_object *o, const char *key, uint32_t khz)
{
	char buf[24];

	if (khz % 1000)
		snprintf(buf, sizeof(buf), "%u.%03u", khz / 1000, khz % 1000);
	else
		snprintf(buf, sizeof(buf), "%u", khz / 1000);
	/* trailing zeros of the fraction, as Python's float str */
	for (char *e = buf + strlen(buf) - 1; strchr(buf, '.') && *e == '0'; e--)
		*e = '\0';
	put_str(o, key, buf);
}

static void comm_name(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/comm", "re");

	snprintf(buf, len, "unknown");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* RANK_ID of the environment (a collective's rank), -1 when unset or not a rank */
static int64_t rank_id(void)
{
	const char *s = getenv("RANK_ID");
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v < 0 || v > 65535 ? -1 : v;
}

/*
 * The host's memory in KiB, /proc/meminfo's MemTotal, as CANN writes
 * info.json's memoryTotal (msprof's C++ path requires the key); 0 unknown.
 */
static int64_t mem_total_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lld kB", &kib) == 1)
			break;
	fclose(f);
	return kib > 0 ? kib : 0;
}

/* /sys/class/net/@name/speed in Mb/s; -1 unknown, as the kernel says it */
static int64_t net_speed(const char *name)
{
	char path[PATH_MAX];
	long long mbps = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &mbps) != 1 || mbps < 0)
		mbps = -1;
	fclose(f);
	return mbps;
}

/*
 * info.json's netCard: the host's network interfaces but the loopback,
 * [{"netCardName", "speed" (Mb/s, -1 unknown)}], in the order the kernel
 * lists them; msprof's C++ path requires the key, its host network usage
 * divides by the speeds it knows (not -1).
 */
static struct json_object *net_cards(void)
{
	struct json_object *arr = json_object_new_array(), *c;
	DIR *dir = opendir("/sys/class/net");
	struct dirent *e;

	if (!arr || !dir) {
		if (dir)
			closedir(dir);
		return arr;
	}
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		c = json_object_new_object();
		if (!c)
			break;
		put_str(c, "netCardName", e->d_name);
		put_int(c, "speed", net_speed(e->d_name));
		json_object_array_add(arr, c);
	}
	closedir(dir);
	return arr;
}

/* The members host/info.json and device_N/info.json.N share. */
static struct json_object *info_common(const char *devices, const struct npf_session *s)
{
	struct json_object *o = json_object_new_object(), *cpus, *cpu;
	char host[256] = "localhost", comm[64];
	struct utsname u;

	if (!o)
		return NULL;
	/* a host without a name (a bare VM says "(none)") is CANN's "localhost" */
	if (gethostname(host, sizeof(host) - 1) || !host[0] || !strcmp(host, "(none)"))
		snprintf(host, sizeof(host), "localhost");
	comm_name(comm, sizeof(comm));
	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	put_str(o, "jobInfo", "NA");
	put_str(o, "devices", devices);
	put_u64(o, "platform_version", s->info ? s->info->chip_id : 5);
	put_int(o, "drvVersion", NPF_DRV_VERSION);
	put_u64(o, "pid", (uint64_t)getpid());
	put_str(o, "pid_name", comm);
	put_str(o, "version", "1.0");
	put_str(o, "hostname", host);
	put_u64(o, "hostUid", (uint64_t)(uint32_t)gethostid());
	put_int(o, "rank_id", rank_id());
	put_int(o, "memoryTotal", mem_total_kib());
	json_object_object_add(o, "netCard", net_cards());
	cpus = json_object_new_array();
	cpu = json_object_new_object();
	if (cpus && cpu) {
		put_int(cpu, "Id", 0);
		put_str(cpu, "Name", u.machine);
		/* empty: host record times are ns of CLOCK_MONOTONIC_RAW */
		put_str(cpu, "Frequency", "");
		put_int(cpu, "Logical_CPU_Count", sysconf(_SC_NPROCESSORS_ONLN));
		put_str(cpu, "Type", u.machine);
		json_object_array_add(cpus, cpu);
		cpu = NULL;
	}
	json_object_put(cpu);
	json_object_object_add(o, "CPU", cpus);
	return o;
}

/*
 * host/info.json: the common members and an empty DeviceInfo. msprof's
 * C++ path requires the key in every info.json; its pure-Python path takes
 * a host info.json whose DeviceInfo is not empty for a device's.
 */
static struct json_object *host_info(const char *devices, const struct npf_session *s)
{
	struct json_object *o = info_common(devices, s), *arr = json_object_new_array();

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	json_object_object_add(o, "DeviceInfo", arr);
	return o;
}

/* the @n event ids of one side: the first VNPU_PMU_EVENTS in @ev, the rest in @hi */
static void events_str(char *buf, size_t len, const uint32_t *ev, const uint32_t *hi, uint32_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < n && i < VNPU_PMU_EVENTS_ALL; i++) {
		uint32_t id = i < VNPU_PMU_EVENTS ? ev[i] : hi[i - VNPU_PMU_EVENTS];

		if (!id)
			break;
		off += (size_t)snprintf(buf + off, len - off, "%s0x%x", i ? "," : "", id);
	}
}

static struct json_object *sample_json(const char *devices, const struct npf_session *s)
{
	static const struct vnpu_ring_ctrl none = { .metric_group = VNPU_METRIC_NONE };
	const struct vnpu_ring_ctrl *c = s->ctrl ? s->ctrl : &none;
	uint32_t chip = s->info ? s->info->chip_id : 5;
	struct json_object *o = json_object_new_object();
	int pmu = c->metric_group != VNPU_METRIC_NONE;
	char ev[128];

	if (!o)
		return NULL;
	put_str(o, "ai_core_metrics",
		pmu ? npf_metric_sample_name(c->metric_group, chip, false) : "");
	put_str(o, "ai_core_profiling", pmu ? "on" : "off");
	events_str(ev, sizeof(ev), c->aic_events, c->aic_events_hi, pmu ? c->n_events : 0);
	put_str(o, "ai_core_profiling_events", ev);
	put_str(o, "ai_core_profiling_mode", "task-based");
	/* ms; msprof's C++ path requires both, CANN's default (task-based: unused) */
	put_int(o, "aicore_sampling_interval", 10);
	put_str(o, "aiv_metrics", pmu ? npf_metric_sample_name(c->metric_group, chip, true) : "");
	put_str(o, "aiv_profiling", pmu ? "on" : "off");
	events_str(ev, sizeof(ev), c->aiv_events, c->aiv_events_hi, pmu ? c->n_events : 0);
	put_str(o, "aiv_profiling_events", ev);
	put_str(o, "aiv_profiling_mode", "task-based");
	put_int(o, "aiv_sampling_interval", 10);
	put_str(o, "profLevel",
		npf_level_spelling(s->level < VNPU_PROF_LEVEL_COUNT ? s->level : VNPU_PROF_L0,
				   true));
	put_str(o, "ascendcl", "on");
	put_str(o, "runtimeApi", s->level >= VNPU_PROF_L2 ? "on" : "off");
	put_str(o, "taskTime",
		npf_level_spelling(s->level >= VNPU_PROF_L1 ? VNPU_PROF_L1 : VNPU_PROF_L0, true));
	put_str(o, "hwts_log", "on");
	put_str(o, "stars_acsq_task", "on");
	put_str(o, "msproftx", "off");
	put_str(o, "llc_profiling", "");
	put_str(o, "ai_ctrl_cpu_profiling_events", "");
	put_str(o, "devices", devices);
	return o;
}

static struct json_object *start_end(const char *date_key, const char *time_key,
				     const struct npf_instant *t)
{
	struct json_object *o = json_object_new_object();
	time_t sec = (time_t)(t->real_ns / 1000000000u);
	char date[64];
	struct tm tm;
	size_t n;

	if (!o)
		return NULL;
	localtime_r(&sec, &tm);
	n = strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(date + n, sizeof(date) - n, ".%06u",
		 (unsigned int)(t->real_ns % 1000000000u / 1000u));
	put_str(o, date_key, date);
	put_u64(o, time_key, t->real_ns / 1000u);
	put_u64(o, "clockMonotonicRaw", t->raw_ns);
	return o;
}

static int pathcat(char *buf, size_t len, const char *dir, const char *name,
		   struct npuprof_error *err)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return npx_set_error(err, -ENAMETOOLONG, "path too long: %s/%s", dir, name);
	return 0;
}

int npf_write_host(const char *host_dir, const struct npf_session *s, const struct npf_instant *t,
		   struct npuprof_error *err)
{
	char path[4096], devices[8], text[160];
	int ret;

	snprintf(devices, sizeof(devices), "%d", NPF_HOST_ID);
	ret = pathcat(path, sizeof(path), host_dir, NPF_RAW_INFO_JSON, err);
	if (!ret)
		ret = write_json(path, host_info(devices, s), err);
	if (!ret)
		ret = pathcat(path, sizeof(path), host_dir, NPF_RAW_SAMPLE_JSON, err);
	if (!ret)
		ret = write_json(path, sample_json(devices, s), err);
	if (!ret)
		ret = pathcat(path, sizeof(path), host_dir, NPF_RAW_START_INFO, err);
	if (!ret)
		ret = write_json(path, start_end("collectionDateBegin", "collectionTimeBegin", t),
				 err);
	if (!ret)
		ret = pathcat(path, sizeof(path), host_dir, "host_start.log", err);
	if (!ret) {
		/* the host has no counter of its own: cntvct is the raw clock */
		snprintf(text, sizeof(text),
			 "[Host]\nclock_monotonic_raw: %llu\ncntvct: %llu\ncntvct_diff: 0\n",
			 (unsigned long long)t->raw_ns, (unsigned long long)t->raw_ns);
		ret = write_text(path, text, err);
	}
	return ret;
}

int npf_write_device(const char *dev_dir, unsigned int id, const struct npf_session *s,
		     const struct npf_instant *t, struct npuprof_error *err)
{
	const struct vnpu_info *in = s->info;
	const struct vnpu_ring_ctrl *c = s->ctrl;
	struct json_object *o, *arr, *d;
	char path[4096], name[32], devices[16], text[256];
	struct npf_instant start;
	uint64_t mono, raw, real;
	int ret;

	if (!in || !c || !c->sys_cnt_freq_khz)
		return npx_set_error(err, -EINVAL, "vnpu%u: no session to describe", id);
	snprintf(devices, sizeof(devices), "%u", id);
	o = info_common(devices, s);
	arr = json_object_new_array();
	d = json_object_new_object();
	if (!o || !arr || !d) {
		json_object_put(o);
		json_object_put(arr);
		json_object_put(d);
		return npx_set_error(err, -ENOMEM, "out of memory");
	}
	put_int(d, "id", id);
	put_int(d, "env_type", 3);
	put_str(d, "ctrl_cpu_id", "ARMv8_Cortex_A55");
	put_int(d, "ctrl_cpu_core_num", 1);
	put_int(d, "ctrl_cpu_endian_little", 1);
	put_int(d, "ts_cpu_core_num", 1);
	put_int(d, "ai_cpu_core_num", in->aicpu_num);
	put_int(d, "ai_core_num", in->aic_num);
	put_int(d, "ai_cpu_core_id", 1);
	put_int(d, "ai_core_id", 0);
	put_int(d, "aicpu_occupy_bitmap",
		(int64_t)(((1ull << (in->aicpu_num < 62 ? in->aicpu_num : 62)) - 1) << 1));
	put_str(d, "ctrl_cpu", "0");
	put_int(d, "aiv_num", in->aiv_num);
	put_mhz(d, "hwts_frequency", in->sys_cnt_freq_khz);
	put_mhz(d, "aic_frequency", in->aic_freq_khz);
	put_mhz(d, "aiv_frequency", in->aic_freq_khz);
	/* ours: the product behind the numbers */
	put_str(d, "product", in->product_name);
	put_str(d, "chip_name", in->chip_name);
	put_int(d, "hbm_bandwidth_mbps", in->hbm_bw_mbps);
	/*
	 * ours: the jitter the durations were drawn with, so that a run can
	 * be told from another (the seed as a string: JSON numbers lose
	 * 64-bit integers)
	 */
	if (c->version >= 4) {
		snprintf(text, sizeof(text), "%llu", (unsigned long long)c->jitter_seed);
		put_str(d, "jitter_seed", text);
		put_int(d, "jitter_permille", c->jitter_permille);
		put_str(d, "jitter_distribution",
			c->jitter_dist == VNPU_JITTER_IRWIN_HALL_4 ? "irwin-hall-4" : "none");
	}
	json_object_array_add(arr, d);
	json_object_object_add(o, "DeviceInfo", arr);
	snprintf(name, sizeof(name), NPF_RAW_INFO_JSON ".%u", id);
	ret = pathcat(path, sizeof(path), dev_dir, name, err);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	ret = write_json(path, o, err);
	if (!ret)
		ret = pathcat(path, sizeof(path), dev_dir, NPF_RAW_SAMPLE_JSON, err);
	if (!ret)
		ret = write_json(path, sample_json(devices, s), err);
	/*
	 * The session's start: start_ticks on the device, and its instant on
	 * the host's CLOCK_MONOTONIC_RAW, the clock of the host's records.
	 * Device time is host time (ring version 4 on): start_raw_ns is
	 * start_ticks exactly, so msprof maps every device time to the host
	 * instant it happened at. Before, the device kept its own busy time
	 * and the session's start was the one instant the two shared.
	 */
	mono = c->start_mono_ns;
	raw = c->version >= 4 && c->start_raw_ns ? c->start_raw_ns : mono + t->raw_ns - t->mono_ns;
	real = raw + t->real_ns - t->raw_ns;
	/*
	 * The collection begins a microsecond before the first tick a task can
	 * start at: an idle device starts the first task at start_ticks itself,
	 * and msprof's op_statistic takes only tasks that start after
	 * collectionTimeBegin (a real device's first task is never at it).
	 */
	start = (struct npf_instant){ .real_ns = real - 1000,
				      .raw_ns = raw - 1000,
				      .mono_ns = mono };
	snprintf(name, sizeof(name), NPF_RAW_START_INFO ".%u", id);
	if (!ret)
		ret = pathcat(path, sizeof(path), dev_dir, name, err);
	if (!ret)
		ret = write_json(
			path, start_end("collectionDateBegin", "collectionTimeBegin", &start), err);
	if (ret)
		return ret;

	snprintf(name, sizeof(name), "host_start.log.%u", id);
	ret = pathcat(path, sizeof(path), dev_dir, name, err);
	if (!ret) {
		snprintf(text, sizeof(text),
			 "[Device%u]\nclock_realtime: %llu\nclock_monotonic_raw: %llu\n"
			 "cntvct: %llu\ncntvct_diff: 0\n",
			 id, (unsigned long long)real, (unsigned long long)raw,
			 (unsigned long long)raw);
		ret = write_text(path, text, err);
	}
	snprintf(name, sizeof(name), "dev_start.log.%u", id);
	if (!ret)
		ret = pathcat(path, sizeof(path), dev_dir, name, err);
	if (!ret) {
		snprintf(text, sizeof(text),
			 "clock_realtime: %llu\nclock_monotonic_raw: %llu\ncntvct: %llu\n",
			 (unsigned long long)real, (unsigned long long)raw,
			 (unsigned long long)c->start_ticks);
		ret = write_text(path, text, err);
	}
	return ret;
}

/*
 * Write @len bytes of @buf at the start of @path, opened with @oflags, and
 * cut it there when @cut (else its later bytes stay): the end files are
 * written into room their file already has, so that a full disk takes them.
 */
static int write_in_place(const char *path, int oflags, const char *buf, size_t len, bool cut,
			  struct npuprof_error *err)
{
	int fd = open(path, oflags | O_WRONLY | O_CLOEXEC, 0644), ret = 0;

	if (fd < 0)
		return npx_set_error(err, -errno, "cannot open %s: %s", path, strerror(errno));
	errno = 0;
	if (pwrite(fd, buf, len, 0) != (ssize_t)len || (cut && ftruncate(fd, (off_t)len)))
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		return npx_set_error(err, ret, "cannot write %s: %s", path, strerror(-ret));
	return 0;
}

/* end_info (@id < 0, the host) or end_info.@id in @dir, and its room .end_info(.N).reserve */
static int end_paths(char *path, char *room, const char *dir, int id, struct npuprof_error *err)
{
	char name[32];
	int n, m;

	if (id < 0)
		snprintf(name, sizeof(name), NPF_RAW_END_INFO);
	else
		snprintf(name, sizeof(name), NPF_RAW_END_INFO ".%d", id);
	n = snprintf(path, PATH_MAX, "%s/%s", dir, name);
	m = snprintf(room, PATH_MAX, "%s/.%s.reserve", dir, name);
	if (n < 0 || n >= PATH_MAX || m < 0 || m >= PATH_MAX)
		return npx_set_error(err, -ENAMETOOLONG, "path too long: %s", dir);
	return 0;
}

/*
 * The loss report and end_info are written at the end of the run into room
 * reserved at the start, so that a full disk at the end still takes them.
 */
#define END_FILE_BYTES 256
#define LOSS_FILE_BYTES 2048

int npf_reserve_ends(const char *dir, int id, struct npuprof_error *err)
{
	char path[PATH_MAX], room[PATH_MAX], end[END_FILE_BYTES + 1], loss[LOSS_FILE_BYTES + 1];
	int ret;

	memset(end, ' ', END_FILE_BYTES);
	end[END_FILE_BYTES] = '\0';
	/* an empty object and room: a report never filled says the run did not end */
	memset(loss, ' ', LOSS_FILE_BYTES);
	memcpy(loss, "{}", 2);
	loss[LOSS_FILE_BYTES - 1] = '\n';
	loss[LOSS_FILE_BYTES] = '\0';
	ret = end_paths(path, room, dir, id, err);
	if (!ret)
		ret = write_text(room, end, err);
	if (!ret)
		ret = pathcat(path, sizeof(path), dir, NPF_RAW_LOSS_FILE, err);
	if (!ret)
		ret = write_text(path, loss, err);
	return ret;
}

int npf_write_end(const char *dir, int id, const struct npf_instant *t, struct npuprof_error *err)
{
	struct json_object *o = start_end("collectionDateEnd", "collectionTimeEnd", t);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED) : NULL;
	char path[PATH_MAX], room[PATH_MAX];
	size_t len = text ? strlen(text) : 0;
	int ret;

	ret = end_paths(path, room, dir, id, err);
	if (!ret && !text)
		ret = npx_set_error(err, -ENOMEM, "%s: out of memory", path);
	if (!ret && (len > END_FILE_BYTES || access(room, F_OK))) {
		/* no room reserved (or too little): a file of its own */
		ret = write_text(path, text, err);
	} else if (!ret) {
		/* into the room reserved at the start, then under its name */
		ret = write_in_place(room, 0, text, len, true, err);
		if (!ret && rename(room, path))
			ret = npx_set_error(err, -errno, "cannot write %s: %s", path,
					    strerror(errno));
	}
	json_object_put(o);
	return ret;
}

int npf_write_loss(const char *dir, const struct npf_loss *l, unsigned int n,
		   struct npuprof_error *err)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char path[PATH_MAX], buf[LOSS_FILE_BYTES];
	const char *text;
	size_t len;
	int ret = pathcat(path, sizeof(path), dir, NPF_RAW_LOSS_FILE, err);

	if (!ret && (!o || !arr))
		ret = npx_set_error(err, -ENOMEM, "%s: out of memory", path);
	if (ret) {
		json_object_put(o);
		json_object_put(arr);
		return ret;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct json_object *c = json_object_new_object();

		if (!c)
			break;
		put_str(c, "channel", l[i].channel);
		put_int(c, "record_size", l[i].rec_size);
		put_int(c, "produced", (int64_t)l[i].produced);
		put_int(c, "lost", (int64_t)l[i].lost);
		put_int(c, "written", (int64_t)l[i].written);
		put_int(c, "not_written", (int64_t)l[i].not_written);
		json_object_array_add(arr, c);
	}
	json_object_object_add(o, "channels", arr);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED);
	len = text ? strlen(text) : 0;
	if (!text || len >= sizeof(buf)) {
		json_object_put(o);
		return npx_set_error(err, -EOVERFLOW, "%s: the loss report does not fit", path);
	}
	/* the whole room, padded: the report's length never changes the file's */
	memset(buf, ' ', sizeof(buf));
	memcpy(buf, text, len);
	buf[sizeof(buf) - 1] = '\n';
	json_object_put(o);
	return write_in_place(path, O_CREAT, buf, sizeof(buf), false, err);
}
