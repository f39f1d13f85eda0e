// SPDX-License-Identifier: GPL-2.0
/*
 * synth_prof: a synthetic PROF_* folder in the real Ascend raw layout; see
 * synth_prof.h. The records are what vnpu's channels and libnpuprof's host
 * sink write (uapi/vnpu_ascend.h, libnpuprof/format/cann_format.h); the config
 * files follow ../shared/reference/msprof-sample, which msprof's parser read.
 *
 * Task i runs on stream 2 + i % streams, as that stream's task i / streams:
 * its 16-bit id and its batch (flips, on the device and the host, each
 * time a stream's ids wrap). Host: the AscendCL call and the node launch
 * window in 1 us slots from 1 ms after the start, with node_basic_info,
 * tensor_info (3 tensors) and task_track inside. Device: 50 MHz ticks, each
 * task 50 ticks (1 us) after the last and at least 1 us after its launch;
 * a third are MatMul (AI Core, 24 blocks), the rest Add (AI Vector Core,
 * 40 blocks), 1000 op names of each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cann_format.h"
#include "synth_prof.h"
#include "vnpu_ascend.h"

#define SLICE_BYTES (64u << 20) /* the collector's and the host sink's */
#define RAW_BASE 1000000000000ull /* CLOCK_MONOTONIC_RAW at the start, ns */
#define REAL_BASE_US 1735689600000000ull /* CLOCK_REALTIME at the start, us */
#define CNTVCT_BASE 5000000000ull /* the device's syscnt at the start */
#define HWTS_MHZ 50
#define NAMES 1000
#define TID 4242

/* hash_dic ids: op names, op types, the kernel names are the op names */
#define H_MATMUL_TYPE 1
#define H_ADD_TYPE 2
#define H_NAME(cube, k) (100 + (uint64_t)(cube)*NAMES + (k))

/* type_info_dic types (libnpuprof/hostrec/host_records.c) */
#define ACL_OP_EXECUTE (1u << 16 | 1)
#define RT_KERNEL_AICORE 0
#define RT_KERNEL_AIVEC 66
#define RT_FLIP_TASK 98

struct sink {
	char dir[512];
	const char *name; /* "stars_soc.data.0.slice_", "unaging.compact.task_track.slice_" */
	unsigned int slice;
	int fd;
	uint64_t bytes; /* in this slice */
	size_t len;
	unsigned char buf[1 << 20];
};

enum {
	S_ACSQ,
	S_PMU,
	S_FLIP,
	S_API,
	S_NODE,
	S_TENSOR,
	S_TRACK,
	S_COUNT,
};

static const char *const sink_names[S_COUNT] = {
	[S_ACSQ] = "stars_soc.data.0.slice_",
	[S_PMU] = "ffts_profile.data.0.slice_",
	[S_FLIP] = "ts_track.data.0.slice_",
	[S_API] = "unaging.api_event.data.slice_",
	[S_NODE] = "unaging.compact.node_basic_info.slice_",
	[S_TENSOR] = "unaging.additional.tensor_info.slice_",
	[S_TRACK] = "unaging.compact.task_track.slice_",
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void sink_flush(struct sink *s)
{
	if (s->len && write(s->fd, s->buf, s->len) != (ssize_t)s->len)
		die("write");
	s->len = 0;
}

static void sink_close(struct sink *s)
{
	if (s->fd < 0)
		return;
	sink_flush(s);
	close(s->fd);
	s->fd = -1;
}

static void sink_open(struct sink *s)
{
	char path[700];

	sink_close(s);
	snprintf(path, sizeof(path), "%s/%s%u", s->dir, s->name, s->slice++);
	s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (s->fd < 0)
		die(path);
	s->bytes = 0;
}

/* Append one record: whole records per slice, as the collector writes them. */
static void put(struct sink *s, const void *rec, size_t size, uint64_t *total)
{
	if (s->fd < 0 || s->bytes + size > SLICE_BYTES)
		sink_open(s);
	if (s->len + size > sizeof(s->buf))
		sink_flush(s);
	memcpy(s->buf + s->len, rec, size);
	s->len += size;
	s->bytes += size;
	*total += size;
}

static void write_text(const char *dir, const char *name, const char *text, uint64_t *total)
{
	char path[700];
	size_t n = strlen(text);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n)
		die(path);
	close(fd);
	*total += n;
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
}

static void hdr(struct cann_hdr *h, uint16_t level, uint32_t type, size_t size, uint64_t ts)
{
	h->magic = CANN_MAGIC;
	h->level = level;
	h->type = type;
	h->thread_id = TID;
	h->data_len = (uint32_t)(size - sizeof(*h));
	h->timestamp = ts;
}

static void api(struct sink *s, uint16_t level, uint32_t type, uint64_t b, uint64_t e,
		uint64_t item, uint64_t *total)
{
	struct cann_api_event a = { .magic = CANN_MAGIC,
				    .level = level,
				    .type = type,
				    .thread_id = TID,
				    .begin = b,
				    .end = e,
				    .item_id = item };

	put(s, &a, sizeof(a), total);
}

static void write_configs(const char *prof, const struct synth_opts *o, uint64_t end_ns,
			  uint64_t *total)
{
	static const char aic_ev[] = "0x416,0x417,0x9,0x302,0xc,0x303,0x54,0x55";
	static const char aiv_ev[] = "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55";
	const char *lv = o->l0 ? "l0" : "l1";
	char dir[600], buf[2048], start[256], end[256];
	uint64_t end_us = REAL_BASE_US + (end_ns - RAW_BASE) / 1000;

	snprintf(start, sizeof(start),
		 "{\"collectionDateBegin\": \"2025-01-01 00:00:00.000000\", "
		 "\"collectionTimeBegin\": \"%llu\", \"clockMonotonicRaw\": \"%llu\"}\n",
		 REAL_BASE_US, RAW_BASE);
	snprintf(end, sizeof(end),
		 "{\"collectionDateEnd\": \"2025-01-01 00:00:00.000000\", "
		 "\"collectionTimeEnd\": \"%llu\", \"clockMonotonicRaw\": \"%llu\"}\n",
		 (unsigned long long)end_us, (unsigned long long)end_ns);

	snprintf(dir, sizeof(dir), "%s/host", prof);
	write_text(dir, "start_info", start, total);
	write_text(dir, "end_info", end, total);
	snprintf(buf, sizeof(buf),
		 "[Host]\nclock_monotonic_raw: %llu\ncntvct: %llu\ncntvct_diff: 0\n", RAW_BASE,
		 RAW_BASE);
	write_text(dir, "host_start.log", buf, total);
	write_text(dir, "info.json",
		   "{\"jobInfo\": \"NA\", \"devices\": \"64\", \"platform_version\": \"5\", "
		   "\"drvVersion\": 467473, \"pid\": \"1000\", \"pid_name\": \"bench\", "
		   "\"version\": \"1.0\", \"hostname\": \"bench\", \"rank_id\": -1, "
		   "\"CPU\": [{\"Id\": 0, \"Name\": \"bench\", \"Frequency\": \"\", "
		   "\"Logical_CPU_Count\": 1, \"Type\": \"bench\"}]}\n",
		   total);
	for (int host = 1; host >= 0; host--) {
		snprintf(
			buf, sizeof(buf),
			"{\"ai_core_metrics\": \"%s\", \"ai_core_profiling\": \"%s\", "
			"\"ai_core_profiling_events\": \"%s\", \"ai_core_profiling_mode\": "
			"\"task-based\", \"aiv_metrics\": \"%s\", \"aiv_profiling\": \"%s\", "
			"\"aiv_profiling_events\": \"%s\", \"aiv_profiling_mode\": \"task-based\", "
			"\"profLevel\": \"%s\", \"ascendcl\": \"on\", \"runtimeApi\": \"off\", "
			"\"taskTime\": \"%s\", \"hwts_log\": \"on\", \"stars_acsq_task\": \"on\", "
			"\"msproftx\": \"off\", \"llc_profiling\": \"\", "
			"\"ai_ctrl_cpu_profiling_events\": \"\", \"devices\": \"%s\"}\n",
			o->l0 ? "" : "PipeUtilizationExct", o->l0 ? "off" : "on",
			o->l0 ? "" : aic_ev, o->l0 ? "" : "PipeUtilization", o->l0 ? "off" : "on",
			o->l0 ? "" : aiv_ev, lv, lv, host ? "64" : "0");
		if (!host)
			snprintf(dir, sizeof(dir), "%s/device_0", prof);
		write_text(dir, "sample.json", buf, total);
	}
	write_text(dir, "start_info.0", start, total);
	write_text(dir, "end_info.0", end, total);
	snprintf(buf, sizeof(buf),
		 "[Device0]\nclock_realtime: %llu\nclock_monotonic_raw: %llu\ncntvct: %llu\n"
		 "cntvct_diff: 0\n",
		 REAL_BASE_US * 1000, RAW_BASE, RAW_BASE);
	write_text(dir, "host_start.log.0", buf, total);
	snprintf(buf, sizeof(buf),
		 "clock_realtime: %llu\nclock_monotonic_raw: %llu\ncntvct: %llu\n",
		 REAL_BASE_US * 1000, RAW_BASE, CNTVCT_BASE);
	write_text(dir, "dev_start.log.0", buf, total);
	snprintf(buf, sizeof(buf),
		 "{\"jobInfo\": \"NA\", \"devices\": \"0\", \"platform_version\": \"5\", "
		 "\"drvVersion\": 467473, \"pid\": \"1000\", \"pid_name\": \"bench\", "
		 "\"version\": \"1.0\", \"CPU\": [{\"Id\": 0, \"Name\": \"bench\", "
		 "\"Frequency\": \"\", \"Logical_CPU_Count\": 1, \"Type\": \"bench\"}], "
		 "\"DeviceInfo\": [{\"id\": 0, \"env_type\": 3, \"ai_cpu_core_num\": 6, "
		 "\"ai_core_num\": 24, \"aiv_num\": 48, \"hwts_frequency\": \"%d\", "
		 "\"aic_frequency\": \"1800\", \"aiv_frequency\": \"1800\"}]}\n",
		 HWTS_MHZ);
	write_text(dir, "info.json.0", buf, total);
}

static void write_dics(const char *data, uint64_t *total)
{
	size_t cap = 64 * 1024, len = 0;
	char *t = malloc(cap);

	if (!t)
		die("malloc");
	len += (size_t)snprintf(t + len, cap - len, "%d:MatMul\n%d:Add\n", H_MATMUL_TYPE,
				H_ADD_TYPE);
	for (int cube = 0; cube < 2; cube++)
		for (int k = 0; k < NAMES; k++)
			len += (size_t)snprintf(t + len, cap - len, "%llu:%s_%d\n",
						(unsigned long long)H_NAME(cube, k),
						cube ? "MatMul" : "Add", k);
	write_text(data, "unaging.additional.hash_dic.slice_0", t, total);
	snprintf(t, cap,
		 "20000_%u:aclopCompileAndExecute\n10000_0:node_basic_info\n"
		 "10000_1:tensor_info\n10000_5:launch\n5000_%d:KERNEL_AICORE\n"
		 "5000_%d:KERNEL_AIVEC\n5000_2:task_track\n5000_%d:FLIP_TASK\n",
		 ACL_OP_EXECUTE, RT_KERNEL_AICORE, RT_KERNEL_AIVEC, RT_FLIP_TASK);
	write_text(data, "unaging.additional.type_info_dic.slice_0", t, total);
	free(t);
}

static void put_tensors(struct sink *s, uint64_t op, unsigned long i, uint64_t ts, uint64_t *total)
{
	struct cann_tensor_info ti = { .op_name = op, .tensor_num = 3 };

	hdr(&ti.hdr, CANN_LEVEL_NODE, CANN_NODE_TENSOR_INFO, sizeof(ti), ts);
	for (int k = 0; k < 3; k++) {
		ti.tensor[k].io = k == 2;
		ti.tensor[k].format = 2; /* ND */
		ti.tensor[k].data_type = 1; /* FLOAT16 */
		ti.tensor[k].dims[0] = 1024 + (uint32_t)(i % 7);
		ti.tensor[k].dims[1] = 4096;
	}
	put(s, &ti, sizeof(ti), total);
}

uint64_t synth_prof(const char *prof, const struct synth_opts *o)
{
	static struct sink sinks[S_COUNT];
	unsigned int streams = o->streams ? o->streams : 1;
	uint32_t epoch[64] = { 0 };
	uint8_t cnt[S_COUNT] = { 0 };
	char dir[600];
	/* the first launch 1 ms after the start; its task 1 us later */
	uint64_t total = 0, b = RAW_BASE + 1000000, t = CNTVCT_BASE + 1000 * HWTS_MHZ;

	if (streams > 64)
		streams = 64;
	make_dir(prof);
	for (int k = 0; k < 2; k++) {
		snprintf(dir, sizeof(dir), "%s/%s", prof, k ? "host" : "device_0");
		make_dir(dir);
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/data");
		make_dir(dir);
		for (int i = 0; i < S_COUNT; i++) {
			if ((i >= S_API) != k)
				continue;
			memset(&sinks[i], 0, sizeof(sinks[i]));
			snprintf(sinks[i].dir, sizeof(sinks[i].dir), "%s", dir);
			sinks[i].name = sink_names[i];
			sinks[i].fd = -1;
		}
	}
	write_dics(dir, &total);

	for (unsigned long i = 0; i < o->tasks; i++, b += 1000) {
		unsigned int si = (unsigned int)(i % streams);
		uint16_t stream = (uint16_t)(2 + si);
		uint64_t sid = i / streams, op;
		uint16_t id = (uint16_t)sid;
		bool cube = i % 3 == 0;
		uint64_t dur = 5 + i % 37;
		int k = (int)(i % NAMES);

		op = H_NAME(cube, k);
		api(&sinks[S_API], CANN_LEVEL_ACL, ACL_OP_EXECUTE, b, b + 800, 0, &total);
		api(&sinks[S_API], CANN_LEVEL_NODE, CANN_NODE_LAUNCH, b + 1, b + 799, op, &total);
		if (!o->l0) {
			struct cann_node_basic_info nb = {
				.op_name = op,
				.task_type = cube ? 0 : 2, /* GE AI_CORE, AI_VECTOR_CORE */
				.op_type = cube ? H_MATMUL_TYPE : H_ADD_TYPE,
				.block_dim = cube ? 24 : 40,
			};

			hdr(&nb.hdr, CANN_LEVEL_NODE, CANN_NODE_BASIC_INFO, sizeof(nb), b + 3);
			put(&sinks[S_NODE], &nb, sizeof(nb), &total);
			put_tensors(&sinks[S_TENSOR], op, i, b + 3, &total);
		}
		/* a stream's ids wrap: the host and the device flip its batch */
		for (; epoch[si] < sid >> 16; epoch[si]++) {
			struct cann_task_track f = { .stream_id = stream,
						     .batch_id = (uint16_t)(epoch[si] + 1),
						     .task_type = RT_FLIP_TASK };
			struct vnpu_ts_flip d = { .tag = VNPU_TS_TAG_TASK_FLIP,
						  .syscnt = t,
						  .stream_id = stream,
						  .flip_num = (uint16_t)(epoch[si] + 1) };

			hdr(&f.hdr, CANN_LEVEL_RUNTIME, CANN_RUNTIME_TASK_TRACK, sizeof(f), b + 3);
			put(&sinks[S_TRACK], &f, sizeof(f), &total);
			put(&sinks[S_FLIP], &d, sizeof(d), &total);
		}
		{
			struct cann_task_track tt = {
				.stream_id = stream,
				.task_id = id,
				.batch_id = (uint16_t)(sid >> 16),
				.task_type = cube ? RT_KERNEL_AICORE : RT_KERNEL_AIVEC,
				.kernel_name = op,
			};

			hdr(&tt.hdr, CANN_LEVEL_RUNTIME, CANN_RUNTIME_TASK_TRACK, sizeof(tt),
			    b + 4);
			put(&sinks[S_TRACK], &tt, sizeof(tt), &total);
		}

		/* the device: 1 us after the launch at the earliest, 1 us after the last task */
		t += 50;
		for (int end = 0; end < 2; end++) {
			uint32_t sqe = cube ? VNPU_SQE_AI_CORE : VNPU_SQE_AIV;
			struct vnpu_acsq_log a = {
				.word0 = VNPU_ACSQ_WORD0(end, cnt[S_ACSQ], sqe),
				.magic = VNPU_STARS_MAGIC,
				.stream_id = stream,
				.task_id = id,
				.syscnt = t + (end ? dur : 0),
			};

			cnt[S_ACSQ] = (cnt[S_ACSQ] + 1) & 0xf;
			put(&sinks[S_ACSQ], &a, sizeof(a), &total);
		}
		if (!o->l0) {
			uint64_t cyc = dur * 36 * (cube ? 24 : 40);
			struct vnpu_ffts_pmu p = {
				.word0 = (uint16_t)(VNPU_FUNC_CONTEXT_PMU | cnt[S_PMU] << 6),
				.magic = VNPU_STARS_MAGIC,
				.stream_id = stream,
				.task_id = id,
				.subtask_id = VNPU_FFTS_NO_SUBTASK,
				.ffts = (uint16_t)((cube ? VNPU_FFTS_TYPE_AIC : VNPU_FFTS_TYPE_AIV)
						   << 13),
				.total_cycle = cyc,
				.start_syscnt = t,
				.end_syscnt = t + dur,
			};

			for (int e = 0; e < VNPU_PMU_COUNTERS; e++)
				p.pmu[e] = cyc / (uint64_t)(e + 2);
			cnt[S_PMU] = (cnt[S_PMU] + 1) & 0xf;
			put(&sinks[S_PMU], &p, sizeof(p), &total);
		}
	}
	for (int i = 0; i < S_COUNT; i++)
		sink_close(&sinks[i]);
	write_configs(prof, o, b + 1000000, &total);
	return total;
}
