// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof_export() end to end: synthetic PROF folders (vnpu.ctrl + record
 * files written by the helpers below, byte for byte as the ring has them)
 * in a temporary folder, exported, and the files checked line by line:
 * headers, values computed by hand, N/A rules, quoting, sorting and wait
 * time, slicing, communication, AI CPU, host API statistics, lost records,
 * the timeline (parsed by python3), and every error path of the raw
 * input (each must fail cleanly with a message naming the file/offset or
 * value, and leave no file behind).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "npuprof_export.h"
#include "raw_format.h"
#include "vnpu.h"
#include "vnpu_prof.h"

#define TS "20251129164800"
#define PROF_NAME "PROF_000001_20251129164800123_ABCDEFGHIJKLMNOP"
#define MONO_BASE 1764406085000000000ULL

/* ---- products (literals from kmod/vnpu_model.c) ---- */

struct prod {
	uint32_t id, caps, aic, aiv, khz, sys, chip;
};

#define SPLIT_STARS (VNPU_CAP_SPLIT_AIC_AIV | VNPU_CAP_STARS)
static const struct prod A2 = { VNPU_PRODUCT_A2, SPLIT_STARS, 24, 48, 1800000, 50000, 5 };
static const struct prod P350 = { VNPU_PRODUCT_350, SPLIT_STARS, 32, 64, 1900000, 1000000, 15 };
static const struct prod P910 = { VNPU_PRODUCT_910, 0, 32, 0, 1000000, 100000, 1 };

static const uint32_t pu_default[8] = { 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55 };
static const uint32_t pu_exct[8] = { 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x54, 0x55 };

static void mkctrl(struct vnpu_ring_ctrl *c, const struct prod *p, uint32_t dev, uint32_t level)
{
	memset(c, 0, sizeof(*c));
	c->magic = VNPU_RING_MAGIC;
	c->version = 1;
	c->compat_version = 1;
	c->hdr_size = sizeof(*c);
	c->page_size = 4096;
	c->data_offset = 8192;
	c->data_size = 4 << 20;
	c->cons_offset = 4096;
	c->prod_pos_offset = 384;
	c->session_id = 1;
	c->dev_id = dev;
	c->product = p->id;
	c->level = level;
	c->caps = p->caps | VNPU_CAP_SCOPED_PROFILING;
	c->aic_num = p->aic;
	c->aiv_num = p->aiv;
	c->aic_freq_khz = p->khz;
	c->sys_cnt_freq_khz = p->sys;
	c->mono_base_ns = MONO_BASE;
	if (level == VNPU_PROF_L0) {
		c->metric_group = VNPU_METRIC_NONE;
		return;
	}
	c->metric_group = VNPU_METRIC_PIPE_UTILIZATION;
	c->n_events = 8;
	memcpy(c->aic_events, p->chip == 5 ? pu_exct : pu_default, sizeof(c->aic_events));
	if (p->caps & VNPU_CAP_SPLIT_AIC_AIV)
		memcpy(c->aiv_events, pu_default, sizeof(c->aiv_events));
}

/* ---- record streams ---- */

struct rb {
	unsigned char *p;
	size_t len, cap;
	uint64_t seq;
};

static void rb_raw(struct rb *b, const void *rec, size_t size)
{
	if (b->len + size > b->cap) {
		b->cap = (b->len + size) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, rec, size);
	b->len += size;
}

/* append a record: fill its header (type, size, the next seq) */
static void rb_add(struct rb *b, uint16_t type, void *rec, size_t size)
{
	struct vnpu_rec_hdr *h = rec;

	h->type = type;
	h->size = (uint16_t)size;
	h->seq = b->seq++;
	rb_raw(b, rec, size);
}

static void rb_free(struct rb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void add_task_rec(struct rb *b, uint16_t type, uint64_t id, uint32_t stream, uint32_t tt,
			 uint64_t ts)
{
	struct vnpu_rec_task r = {
		.task_id = id, .stream_id = stream, .task_type = tt, .timestamp = ts
	};

	rb_add(b, type, &r, sizeof(r));
}

struct tens {
	uint8_t dtype, format, ndims, output;
	uint64_t dims[VNPU_MAX_DIMS];
};

struct op {
	uint32_t block, mix, flags, model;
	const char *name, *type;
	unsigned int n;
	struct tens t[VNPU_MAX_TENSORS];
};

static void add_op(struct rb *b, uint64_t id, uint32_t stream, uint32_t tt, const struct op *o)
{
	unsigned char buf[1024];
	struct vnpu_rec_op_info *r = (void *)buf;
	size_t size = sizeof(*r);

	memset(buf, 0, sizeof(buf));
	r->task_id = id;
	r->stream_id = stream;
	r->task_type = tt;
	r->block_num = o->block;
	r->mix_block_num = o->mix;
	r->op_flags = o->flags;
	r->model_id = o->model;
	r->n_tensors = o->n;
	snprintf(r->op_name, sizeof(r->op_name), "%s", o->name);
	snprintf(r->op_type, sizeof(r->op_type), "%s", o->type);
	for (unsigned int i = 0; i < o->n; i++) {
		struct vnpu_rec_tensor t = { .dtype = o->t[i].dtype,
					     .format = o->t[i].format,
					     .ndims = o->t[i].ndims,
					     .output = o->t[i].output };

		memcpy(buf + size, &t, sizeof(t));
		size += sizeof(t);
		memcpy(buf + size, o->t[i].dims, o->t[i].ndims * 8);
		size += o->t[i].ndims * 8;
	}
	rb_add(b, VNPU_REC_OP_INFO, buf, size);
}

static void add_pmu(struct rb *b, uint64_t id, uint32_t stream, const struct vnpu_rec_pmu *p)
{
	struct vnpu_rec_pmu r = *p;

	r.task_id = id;
	r.stream_id = stream;
	rb_add(b, VNPU_REC_PMU, &r, sizeof(r));
}

static void add_lost(struct rb *b, uint64_t n)
{
	struct vnpu_rec_lost r = { .lost = n };

	rb_add(b, VNPU_REC_LOST, &r, sizeof(r));
}

static const struct op simple_op = {
	.block = 8,
	.model = 1,
	.name = "Add_1",
	.type = "Add",
	.n = 2,
	.t = { { VNPU_DT_FLOAT16, VNPU_FMT_ND, 2, 0, { 16, 16 } },
	       { VNPU_DT_FLOAT16, VNPU_FMT_ND, 2, 1, { 16, 16 } } },
};

/* START, OP_INFO (@o, or none at NULL), PMU (when @pmu), END: one task */
static void add_task(struct rb *b, uint64_t id, uint32_t stream, uint32_t tt, uint64_t start,
		     uint64_t dur, const struct op *o, const struct vnpu_rec_pmu *pmu)
{
	add_task_rec(b, VNPU_REC_TASK_START, id, stream, tt, start);
	if (o)
		add_op(b, id, stream, tt, o);
	if (pmu)
		add_pmu(b, id, stream, pmu);
	add_task_rec(b, VNPU_REC_TASK_END, id, stream, tt, start + dur);
}

/* ---- the folder ---- */

FIXTURE(prof)
{
	char base[64];
	char prof[192];
	char out[256];
	struct npuprof_error err;
	struct npuprof_export_summary sum;
};

FIXTURE_SETUP(prof)
{
	snprintf(self->base, sizeof(self->base), "/tmp/npuprof-export-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	snprintf(self->prof, sizeof(self->prof), "%s/" PROF_NAME, self->base);
	ASSERT_EQ(0, mkdir(self->prof, 0755));
	snprintf(self->out, sizeof(self->out), "%s/" NPUPROF_OUTPUT_DIR, self->prof);
	memset(&self->err, 0, sizeof(self->err));
	memset(&self->sum, 0, sizeof(self->sum));
}

FIXTURE_TEARDOWN(prof)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->base);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->base);
}

static void put_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror(path);
		exit(2);
	}
	close(fd);
}

static void dev_dirs(const char *prof, uint32_t dev, char *data, size_t len)
{
	char dir[256], info[320], json[256];

	snprintf(dir, sizeof(dir), "%s/device_%u", prof, dev);
	mkdir(dir, 0755);
	snprintf(info, sizeof(info), "%s/info.json.%u", dir, dev);
	snprintf(json, sizeof(json), "{\"DeviceInfo\":[{\"id\":%u}]}\n", dev);
	put_file(info, json, strlen(json));
	snprintf(data, len, "%s/data", dir);
	mkdir(data, 0755);
}

/* vnpu.ctrl and the records, a new vnpu.rec.NNNN before @split bytes (0: one file) */
static void write_dev(const char *prof, uint32_t dev, const struct vnpu_ring_ctrl *c,
		      const struct rb *b, size_t split)
{
	char data[512], path[640];
	size_t off = 0, start = 0;
	unsigned int file = 0;

	dev_dirs(prof, dev, data, sizeof(data));
	snprintf(path, sizeof(path), "%s/vnpu.ctrl", data);
	put_file(path, c, sizeof(*c));
	while (off < b->len || !file) {
		size_t end = off;

		/* whole records up to @split bytes (at least one) */
		while (end < b->len) {
			uint16_t sz;

			memcpy(&sz, b->p + end + 2, 2);
			if (!sz || (split && end > start && end + sz - start > split))
				break;
			end += sz;
		}
		if (end == off && end < b->len) /* a malformed size: write the rest */
			end = b->len;
		snprintf(path, sizeof(path), "%s/vnpu.rec.%04u", data, file++);
		put_file(path, b->p + off, end - off);
		off = start = end;
	}
}

/* the raw bytes of @b into one vnpu.rec.NNNN */
static void write_rec_file(const char *prof, uint32_t dev, unsigned int n, const void *p,
			   size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/device_%u/data/vnpu.rec.%04u", prof, dev, n);
	put_file(path, p, len);
}

static void write_host(const char *prof, const struct npuprof_api_rec *r, unsigned int n)
{
	char dir[512], path[640];

	snprintf(dir, sizeof(dir), "%s/host", prof);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/api.rec.0000", dir);
	put_file(path, r, n * sizeof(*r));
}

static int do_export(FIXTURE_DATA(prof) * self, uint64_t slice)
{
	struct npuprof_export_opts o = { .sz = sizeof(o),
					 .timestamp = TS,
					 .slice_rows = slice,
					 .quiet = 1,
					 .summary = &self->sum };

	return npuprof_export(self->prof, &o, &self->err);
}

/* the content of an output file, NULL when it does not exist */
static char *out_file(FIXTURE_DATA(prof) * self, const char *name)
{
	static char *data;
	char path[512];
	struct stat st;
	int fd;

	free(data);
	data = NULL;
	snprintf(path, sizeof(path), "%s/%s", self->out, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	fstat(fd, &st);
	data = calloc(1, (size_t)st.st_size + 1);
	if (read(fd, data, (size_t)st.st_size) != st.st_size) {
		free(data);
		data = NULL;
	}
	close(fd);
	return data;
}

/* line @n (0 = the header) of @text, in a static buffer */
static const char *line(const char *text, int n)
{
	static char buf[8192];
	const char *e;

	if (!text)
		return "(no file)";
	for (; n > 0 && text; n--) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text || !*text)
		return "(no line)";
	e = strchr(text, '\n');
	snprintf(buf, sizeof(buf), "%.*s", (int)(e ? e - text : (long)strlen(text)), text);
	return buf;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/* field @i of a CSV line (quotes handled, kept), in a static buffer */
static const char *field(const char *l, int i)
{
	static char buf[1024];
	bool q = false;
	int k = 0;
	size_t n = 0;

	for (; *l; l++) {
		if (*l == '"')
			q = !q;
		if (*l == ',' && !q) {
			if (k++ == i)
				break;
			continue;
		}
		if (k == i && n < sizeof(buf) - 1)
			buf[n++] = *l;
	}
	buf[n] = '\0';
	return buf;
}

/* files in the output folder (temporary ones included) */
static int count_out(FIXTURE_DATA(prof) * self)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(self->out);

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void rm_out(FIXTURE_DATA(prof) * self)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->out);
	if (system(cmd))
		perror(cmd);
}

static const char *read_small(const char *path)
{
	static char msg[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, msg, sizeof(msg) - 1);

	if (fd >= 0)
		close(fd);
	msg[n > 0 ? n : 0] = '\0';
	return msg;
}

#define OPS_FILE "op_summary_" TS ".csv"
#define TASK_FILE "task_time_" TS ".csv"

static const char base_hdr_stars[] =
	"Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
	"Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,"
	"HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	"Output Data Types,Output Formats,Context ID";

/*
 * A2, L1, PipeUtilization: one MatMul. The counter is 50 MHz (20 ns a
 * tick): start 50,000 ticks = 1 ms after mono_base_ns, 6250 ticks = 125 us.
 * The PMU values are those of test_metric's a2_pipe_utilization_ai_core.
 */
TEST_F(prof, a2_pipe_utilization_full_row)
{
	struct op mm = {
		.block = 24,
		.flags = VNPU_TASK_F_HF32,
		.model = 7,
		.name = "MatMul_1",
		.type = "MatMul",
		.n = 3,
		.t = { { VNPU_DT_FLOAT16, VNPU_FMT_ND, 2, 0, { 4096, 4096 } },
		       { VNPU_DT_FLOAT16, VNPU_FMT_FRACTAL_NZ, 2, 0, { 4096, 4096 } },
		       { VNPU_DT_FLOAT, VNPU_FMT_ND, 2, 1, { 4096, 4096 } } },
	};
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 4320000,
		.aic_blocks = 24,
		.aic_events = { 2000000, 160000, 432000, 864000, 1296000, 43201, 2000, 1234 },
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	add_task(&b, 42, 3, VNPU_TASK_AI_CORE, 50000, 6250, &mm, &pmu);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);

	t = out_file(self, OPS_FILE);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(2, count_lines(t));
	EXPECT_STREQ("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
		     "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,"
		     "Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
		     "Output Shapes,Output Data Types,Output Formats,Context ID,"
		     "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,"
		     "aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,"
		     "aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
		     "aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),"
		     "aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"
		     "aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
		     "cube_utilization(%)",
		     line(t, 0));
	EXPECT_STREQ("0,7,42,3,MatMul_1,MatMul,static,AI_CORE,\"1764406085001000.000\t\",125.000,"
		     "0.000,24,0,YES,\"\"\"4096,4096;4096,4096\"\"\",FLOAT16;FLOAT16,ND;FRACTAL_NZ,"
		     "\"\"\"4096,4096\"\"\",FLOAT,ND,N/A,"
		     "100.000,4320000,50.000,0.500,10.000,0.100,20.000,0.200,30.000,0.300,1.000,"
		     "0.010,0.617,0,0,0,0,0,0,0,0,0,0,0,80.000",
		     line(t, 1));

	t = out_file(self, TASK_FILE);
	EXPECT_STREQ("Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
		     "task_start(us),task_stop(us)",
		     line(t, 0));
	EXPECT_STREQ("0,MatMul_1,KERNEL_AICORE,3,42,125.000,1764406085001000.000,"
		     "1764406085001125.000",
		     line(t, 1));
	t = out_file(self, "op_statistic_" TS ".csv");
	EXPECT_STREQ("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
		     "Avg Time(us),Max Time(us),Ratio(%)",
		     line(t, 0));
	EXPECT_STREQ("0,MatMul,AI_CORE,1,125.000,125.000,125.000,125.000,100.000", line(t, 1));
	/* nothing else: no host data, no communication, no AI CPU */
	EXPECT_EQ(NULL, out_file(self, "api_statistic_" TS ".csv"));
	EXPECT_EQ(NULL, out_file(self, "communication_statistic_" TS ".csv"));
	EXPECT_EQ(NULL, out_file(self, "aicpu_" TS ".csv"));
	EXPECT_NE(NULL, out_file(self, "msprof_" TS ".json"));
	t = out_file(self, "README.txt");
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "  " OPS_FILE "\n"));
	EXPECT_NE(NULL, strstr(t, "none: no record was lost"));
	EXPECT_EQ(5, count_out(self));

	EXPECT_EQ(1, self->sum.n_devices);
	EXPECT_EQ(4, self->sum.dev[0].records);
	EXPECT_EQ(1, self->sum.dev[0].tasks);
	EXPECT_EQ(0, self->sum.dev[0].lost);
	EXPECT_EQ(1, self->sum.op_summary_rows);
	EXPECT_EQ(1, self->sum.op_summary_files);
	EXPECT_EQ(0, self->sum.warnings);
	EXPECT_STREQ(TS, self->sum.timestamp);
	rb_free(&b);
}

/*
 * 910 (flat, no STARS): no Mix Block Dim, no Context ID, unprefixed
 * metric columns. 100 MHz counter: 10 ns a tick. 64 blocks, 2 waves.
 */
TEST_F(prof, p910_flat_row)
{
	struct op mm = {
		.block = 64, .flags = VNPU_TASK_F_DYNAMIC, .name = "mm", .type = "MatMul"
	};
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 6400000,
		.aic_blocks = 64,
		.aic_events = { 1600000, 3200000, 640000, 0, 1600000, 320000, 0, 0 },
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &P910, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 25000, &mm, &pmu);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	EXPECT_STREQ("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
		     "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,"
		     "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
		     "Output Data Types,Output Formats,"
		     "aicore_time(us),total_cycles,vec_time(us),vec_ratio,mac_time(us),mac_ratio,"
		     "scalar_time(us),scalar_ratio,mte1_time(us),mte1_ratio,mte2_time(us),"
		     "mte2_ratio,mte3_time(us),mte3_ratio,icache_miss_rate,memory_bound",
		     line(t, 0));
	/* no tensors: empty shapes (the quotes stay), empty types and formats */
	EXPECT_STREQ("0,0,1,0,mm,MatMul,dynamic,AI_CORE,\"1764406085000001.000\t\",250.000,0.000,"
		     "64,NO,\"\"\"\"\"\",,,\"\"\"\"\"\",,,"
		     "200.000,6400000,50.000,0.250,100.000,0.500,20.000,0.100,0.000,0.000,50.000,"
		     "0.250,10.000,0.050,0.000,0.500",
		     line(t, 1));
	rb_free(&b);
}

/* L0: task records only; OP Type, OP State, Task Type, shapes... N/A, Block Dim 0 */
TEST_F(prof, l0_na_columns)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &A2, 0, VNPU_PROF_L0);
	add_task(&b, 5, 1, VNPU_TASK_AI_CORE, 1000, 500, NULL, NULL);
	add_task(&b, 6, 1, VNPU_TASK_MIX_AIC, 2000, 500, NULL, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	EXPECT_STREQ(base_hdr_stars, line(t, 0));
	/* 20 ns ticks: 1000 -> 20 us, 500 -> 10 us; wait 40 - 20 - 10 = 10 us */
	EXPECT_STREQ("0,N/A,5,1,N/A,N/A,N/A,N/A,\"1764406085000020.000\t\",10.000,0.000,0,N/A,N/A,"
		     "N/A,N/A,N/A,N/A,N/A,N/A,N/A",
		     line(t, 1));
	/* a MIX task carries Context ID 0 */
	EXPECT_STREQ("0,N/A,6,1,N/A,N/A,N/A,N/A,\"1764406085000040.000\t\",10.000,10.000,0,N/A,"
		     "N/A,N/A,N/A,N/A,N/A,N/A,N/A,0",
		     line(t, 2));
	t = out_file(self, TASK_FILE);
	EXPECT_STREQ("0,N/A,KERNEL_AICORE,1,5,10.000,1764406085000020.000,1764406085000030.000",
		     line(t, 1));
	EXPECT_STREQ("0,N/A,KERNEL_MIX_AIC,1,6,10.000,1764406085000040.000,1764406085000050.000",
		     line(t, 2));
	/* no op types at L0: no op_statistic */
	EXPECT_EQ(NULL, out_file(self, "op_statistic_" TS ".csv"));
	EXPECT_EQ(VNPU_PROF_L0, self->sum.dev[0].level);
	EXPECT_EQ(VNPU_METRIC_NONE, self->sum.dev[0].metric_group);
	rb_free(&b);
}

/*
 * Tasks reach the stream out of start order: rows sorted by start;
 * wait = max(0, start_i - start_{i-1} - dur_{i-1}) with the previous row
 * only (350: 1 GHz counter, 1 ns a tick).
 */
TEST_F(prof, sorted_with_wait_time)
{
	static const struct {
		uint64_t id, start, dur;
	} tk[] = { { 3, 300000, 10000 },
		   { 1, 100000, 50000 },
		   { 5, 500000, 10000 },
		   { 2, 200000, 150000 },
		   { 4, 400000, 10000 } };
	static const char *const want[] = {
		"1,\"1764406085000100.000\t\",50.000,0.000",
		"2,\"1764406085000200.000\t\",150.000,50.000",
		/* overlaps task 2: 300 - 200 - 150 < 0 */
		"3,\"1764406085000300.000\t\",10.000,0.000",
		/* the previous row only, not the longest end so far */
		"4,\"1764406085000400.000\t\",10.000,90.000",
		"5,\"1764406085000500.000\t\",10.000,90.000",
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	unsigned int i;
	char *t;

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	for (i = 0; i < 5; i++)
		add_task(&b, tk[i].id, 0, VNPU_TASK_AI_VECTOR_CORE, tk[i].start, tk[i].dur,
			 &simple_op, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	ASSERT_EQ(6, count_lines(t));
	for (i = 0; i < 5; i++) {
		char got[160], l[1024];

		snprintf(l, sizeof(l), "%s", line(t, (int)i + 1));
		/* Task ID, Task Start Time, Task Duration, Task Wait Time */
		snprintf(got, sizeof(got), "%s,", field(l, 2));
		strcat(got, field(l, 8));
		strcat(got, ",");
		strcat(got, field(l, 9));
		strcat(got, ",");
		strcat(got, field(l, 10));
		EXPECT_STREQ(want[i], got);
	}
	/* task_time in start order as well */
	t = out_file(self, TASK_FILE);
	EXPECT_EQ(0, strncmp("0,Add_1,KERNEL_AIVEC,0,1,", line(t, 1), 25));
	EXPECT_EQ(0, strncmp("0,Add_1,KERNEL_AIVEC,0,5,", line(t, 5), 25));
	EXPECT_EQ(0, self->sum.dev[0].out_of_order);
	rb_free(&b);
}

/* every CSV is sliced past slice_rows rows; exactly slice_rows is one file */
TEST_F(prof, slicing)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	for (uint64_t i = 0; i < 7; i++)
		add_task(&b, i + 1, 0, VNPU_TASK_AI_VECTOR_CORE, 1000 * (i + 1), 100, &simple_op,
			 NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 3)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(NULL, out_file(self, OPS_FILE));
	t = out_file(self, "op_summary_slice_0_" TS ".csv");
	ASSERT_NE(NULL, t);
	EXPECT_EQ(4, count_lines(t));
	EXPECT_EQ(0, strncmp("Device_id,Model ID", line(t, 0), 18));
	EXPECT_EQ(0, strncmp("0,1,1,0,Add_1", line(t, 1), 13));
	t = out_file(self, "op_summary_slice_1_" TS ".csv");
	EXPECT_EQ(4, count_lines(t));
	EXPECT_EQ(0, strncmp("0,1,4,0,Add_1", line(t, 1), 13));
	/* wait time runs across slices: 4000 - 3000 - 100 ns */
	EXPECT_NE(NULL, strstr(line(t, 1), ",0.100,0.900,"));
	t = out_file(self, "op_summary_slice_2_" TS ".csv");
	EXPECT_EQ(2, count_lines(t));
	EXPECT_NE(NULL, out_file(self, "task_time_slice_2_" TS ".csv"));
	EXPECT_EQ(NULL, out_file(self, TASK_FILE));
	/* one op type: op_statistic is not sliced */
	EXPECT_NE(NULL, out_file(self, "op_statistic_" TS ".csv"));
	EXPECT_EQ(3, self->sum.op_summary_files);
	EXPECT_EQ(7, self->sum.op_summary_rows);
	t = out_file(self, "README.txt");
	EXPECT_NE(NULL, strstr(t, "op_summary_slice_2_" TS ".csv"));

	/* 7 rows with a limit of 7: not sliced */
	ASSERT_EQ(0, do_export(self, 7)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(8, count_lines(out_file(self, OPS_FILE)));
	rb_free(&b);
}

/*
 * COMMUNICATION rows are not in op_summary (nor in its wait chain), but in
 * task_time, communication_statistic and the timeline's Communication layer.
 */
TEST_F(prof, communication)
{
	struct vnpu_rec_comm cm = {
		.comm_op = VNPU_COMM_ALLREDUCE,
		.devices = 0x3,
		.tag = 9,
		.bytes = 1 << 20,
		.start = 2000,
		.end = 2600,
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	snprintf(cm.op_name, sizeof(cm.op_name), "hcom_allReduce__1_0_1");
	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_VECTOR_CORE, 1000, 500, &simple_op, NULL);
	add_task_rec(&b, VNPU_REC_TASK_START, 2, 1, VNPU_TASK_COMMUNICATION, 2000);
	cm.task_id = 2;
	cm.stream_id = 1;
	rb_add(&b, VNPU_REC_COMM, &cm, sizeof(cm));
	add_task_rec(&b, VNPU_REC_TASK_END, 2, 1, VNPU_TASK_COMMUNICATION, 2600);
	add_task(&b, 3, 0, VNPU_TASK_AI_VECTOR_CORE, 3000, 500, &simple_op, NULL);
	/* a second AllReduce, 200 ns */
	add_task_rec(&b, VNPU_REC_TASK_START, 4, 1, VNPU_TASK_COMMUNICATION, 4000);
	cm.task_id = 4;
	cm.start = 4000;
	cm.end = 4200;
	rb_add(&b, VNPU_REC_COMM, &cm, sizeof(cm));
	add_task_rec(&b, VNPU_REC_TASK_END, 4, 1, VNPU_TASK_COMMUNICATION, 4200);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);

	t = out_file(self, OPS_FILE);
	EXPECT_EQ(3, count_lines(t));
	EXPECT_EQ(NULL, strstr(t, "COMMUNICATION"));
	/* task 3 waits for task 1: 3000 - 1000 - 500 ns */
	EXPECT_NE(NULL, strstr(line(t, 2), "\t\",0.500,1.500,"));
	t = out_file(self, TASK_FILE);
	EXPECT_EQ(5, count_lines(t));
	EXPECT_STREQ("0,N/A,COMMUNICATION,1,2,0.600,1764406085000002.000,1764406085000002.600",
		     line(t, 2));
	t = out_file(self, "communication_statistic_" TS ".csv");
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("Device_id,OP Type,Count,Total Time(us),Min Time(us),Avg Time(us),"
		     "Max Time(us),Ratio(%)",
		     line(t, 0));
	EXPECT_STREQ("0,hcom_allReduce_,2,0.800,0.200,0.400,0.600,100.000", line(t, 1));
	t = out_file(self, "msprof_" TS ".json");
	EXPECT_NE(NULL, strstr(t, "\"args\":{\"name\":\"Communication\"}"));
	EXPECT_NE(NULL, strstr(t, "{\"name\":\"hcom_allReduce__1_0_1\",\"ph\":\"X\""));
	EXPECT_NE(NULL, strstr(t, "\"rank_size\":2,\"size(Byte)\":1048576"));
	rb_free(&b);
}

/* LOST records: counted, warned about on stderr, written to README.txt */
TEST_F(prof, lost_records_reported)
{
	struct npuprof_export_opts o = { .sz = sizeof(o), .timestamp = TS, .summary = &self->sum };
	struct vnpu_ring_ctrl c;
	char errf[256], *t;
	const char *msg;
	struct rb b = { 0 };
	int saved, fd;

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_VECTOR_CORE, 1000, 500, &simple_op, NULL);
	add_lost(&b, 5);
	add_task(&b, 7, 0, VNPU_TASK_AI_VECTOR_CORE, 9000, 500, &simple_op, NULL);
	add_lost(&b, 2);
	write_dev(self->prof, 0, &c, &b, 0);

	snprintf(errf, sizeof(errf), "%s/stderr", self->base);
	fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	close(fd);
	ASSERT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);

	EXPECT_EQ(7, self->sum.dev[0].lost);
	EXPECT_EQ(7, self->sum.lost);
	EXPECT_EQ(2, self->sum.dev[0].tasks);
	EXPECT_LE(1, self->sum.warnings);
	t = out_file(self, "README.txt");
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "device_0: 7 records were lost on the device"));
	/* the warning names the count */
	msg = read_small(errf);
	EXPECT_NE(NULL, strstr(msg, "device_0: 7 records were lost")) TH_LOG("%s", msg);
	rb_free(&b);
}

/* Quoting: names with commas and quotes; scalar inputs as empty dims. */
TEST_F(prof, quoting_and_scalars)
{
	struct op o = {
		.block = 1,
		.name = "a,\"b\"",
		.type = "My,Op",
		.n = 4,
		.t = { { VNPU_DT_INT32, VNPU_FMT_NCHW, 2, 0, { 2, 3 } },
		       { VNPU_DT_INT8, VNPU_FMT_ND, 0, 0, { 0 } },
		       { VNPU_DT_BF16, VNPU_FMT_NC1HWC0, 1, 0, { 4 } },
		       { 200, 99, 3, 1, { 1, 1, 1 } } },
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CPU, 1000, 500, &o, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	/* AI_CPU: every metric N/A; unknown dtype/format: UNDEFINED */
	EXPECT_STREQ("0,0,1,0,\"a,\"\"b\"\"\",\"My,Op\",static,AI_CPU,\"1764406085000001.000\t\","
		     "0.500,0.000,1,0,NO,\"\"\"2,3;;4\"\"\",INT32;INT8;BF16,NCHW;ND;NC1HWC0,"
		     "\"\"\"1,1,1\"\"\",UNDEFINED,UNDEFINED,N/A,"
		     "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
		     "N/A,N/A,N/A,N/A,N/A,N/A",
		     line(t, 1));
	t = out_file(self, "op_statistic_" TS ".csv");
	EXPECT_STREQ("0,\"My,Op\",AI_CPU,1,0.500,0.500,0.500,0.500,100.000", line(t, 1));
	/* the timeline escapes the quotes */
	t = out_file(self, "msprof_" TS ".json");
	EXPECT_NE(NULL, strstr(t, "{\"name\":\"a,\\\"b\\\"\",\"ph\":\"X\""));
	rb_free(&b);
}

/* op_statistic: one row per (OP Type, Core Type), Total Time descending */
TEST_F(prof, op_statistic)
{
	struct op mm = simple_op, add = simple_op;
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mm.name = "mm";
	mm.type = "MatMul";
	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 1000000, 100000, &mm, NULL);
	add_task(&b, 2, 0, VNPU_TASK_AI_VECTOR_CORE, 2000000, 100000, &add, NULL);
	add_task(&b, 3, 0, VNPU_TASK_AI_CORE, 3000000, 300000, &mm, NULL);
	add_task(&b, 4, 0, VNPU_TASK_AI_CORE, 4000000, 7, &add, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, "op_statistic_" TS ".csv");
	EXPECT_EQ(4, count_lines(t));
	/* 400 of 500.007 us = 79.999%; avg of 100 and 300 = 200 */
	EXPECT_STREQ("0,MatMul,AI_CORE,2,400.000,100.000,200.000,300.000,79.999", line(t, 1));
	EXPECT_STREQ("0,Add,AI_VECTOR_CORE,1,100.000,100.000,100.000,100.000,20.000", line(t, 2));
	EXPECT_STREQ("0,Add,AI_CORE,1,0.007,0.007,0.007,0.007,0.001", line(t, 3));
	rb_free(&b);
}

/* host/data api records: api_statistic (AscendCL) and the timeline */
TEST_F(prof, api_statistic)
{
	struct npuprof_api_rec r[5];
	struct vnpu_rec_runtime rt = {
		.api = VNPU_RT_SUBMIT, .tid = 77, .count = 1, .start_ns = 5000, .end_ns = 5300
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 5; i++) {
		r[i].type = NPUPROF_API_REC_TYPE;
		r[i].size = sizeof(r[i]);
		r[i].tid = 1234;
	}
	/* launches of 1, 2 and 6 us: mean 3, population variance (4 + 1 + 9) / 3 */
	r[0].api_id = NPUPROF_API_LAUNCH;
	r[0].start_ns = 1000;
	r[0].end_ns = 2000;
	r[1].api_id = NPUPROF_API_LAUNCH;
	r[1].start_ns = 3000;
	r[1].end_ns = 5000;
	r[2].api_id = NPUPROF_API_LAUNCH;
	r[2].start_ns = 6000;
	r[2].end_ns = 12000;
	r[3].api_id = NPUPROF_API_SYNC;
	r[3].start_ns = 13000;
	r[3].end_ns = 13500;
	r[4].api_id = 99; /* an id this library does not know */
	r[4].start_ns = 14000;
	r[4].end_ns = 14001;
	write_host(self->prof, r, 5);
	/* L2: a runtime record on the device */
	mkctrl(&c, &P350, 0, VNPU_PROF_L2);
	rb_add(&b, VNPU_REC_RUNTIME, &rt, sizeof(rt));
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, "api_statistic_" TS ".csv");
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance",
		     line(t, 0));
	EXPECT_STREQ("host,AscendCL,npuprof_launch,9.000,3,3.000,1.000,6.000,4.667", line(t, 1));
	EXPECT_STREQ("host,AscendCL,npuprof_sync,0.500,1,0.500,0.500,0.500,0.000", line(t, 2));
	EXPECT_STREQ("host,Runtime,VNPU_IOC_SUBMIT,0.300,1,0.300,0.300,0.300,0.000", line(t, 3));
	EXPECT_STREQ("host,AscendCL,npuprof_api_99,0.001,1,0.001,0.001,0.001,0.000", line(t, 4));
	EXPECT_EQ(5, self->sum.host_api_records);
	t = out_file(self, "msprof_" TS ".json");
	EXPECT_NE(NULL, strstr(t, "{\"name\":\"npuprof_launch\",\"ph\":\"X\",\"pid\":10,"
				  "\"tid\":1234,\"ts\":\"1.000\",\"dur\":1.000,"));
	EXPECT_NE(NULL, strstr(t, "\"args\":{\"name\":\"AscendCL\"}"));
	EXPECT_NE(NULL, strstr(t, "{\"name\":\"VNPU_IOC_SUBMIT\",\"ph\":\"X\",\"pid\":11,"));
	rb_free(&b);
}

/* L2 AI CPU detail */
TEST_F(prof, aicpu)
{
	struct vnpu_rec_aicpu a = {
		.task_id = 1,
		.start = 10000,
		.end = 11000,
		.dispatch_ticks = 100,
		.compute_ticks = 500,
		.memcpy_ticks = 200,
	};
	struct op o = simple_op;
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	o.name = "cpu_op";
	snprintf(a.op_name, sizeof(a.op_name), "DropOutGenMask");
	mkctrl(&c, &A2, 0, VNPU_PROF_L2);
	add_task_rec(&b, VNPU_REC_TASK_START, 1, 2, VNPU_TASK_AI_CPU, 10000);
	add_op(&b, 1, 2, VNPU_TASK_AI_CPU, &o);
	a.stream_id = 2;
	rb_add(&b, VNPU_REC_AICPU, &a, sizeof(a));
	add_task_rec(&b, VNPU_REC_TASK_END, 1, 2, VNPU_TASK_AI_CPU, 11000);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, "aicpu_" TS ".csv");
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),"
		     "Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID",
		     line(t, 0));
	/* 20 ns ticks */
	EXPECT_STREQ("0,1764406085000200.000,DropOutGenMask,10.000,4.000,14.000,2.000,20.000,2,1",
		     line(t, 1));
	t = out_file(self, OPS_FILE);
	EXPECT_NE(NULL, strstr(line(t, 1), "AI_CPU"));
	EXPECT_NE(NULL, strstr(line(t, 1), ",N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
					   "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A"));
	rb_free(&b);
}

/* MIX tasks (Context ID 0, Mix Block Dim), a vector task, a saturated PMU */
TEST_F(prof, mix_vector_overflow)
{
	struct op mix = simple_op;
	struct vnpu_rec_pmu pmu = {
		.aic_total_cycles = 43200,
		.aic_blocks = 24,
		.aiv_total_cycles = 86400,
		.aiv_blocks = 48,
		.aic_events = { 43200 },
		.aiv_events = { 8640 },
	};
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mix.block = 24;
	mix.mix = 48;
	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	/* 2 us: 100 ticks */
	add_task(&b, 1, 0, VNPU_TASK_MIX_AIC, 1000, 100, &mix, &pmu);
	add_task(&b, 2, 0, VNPU_TASK_AI_VECTOR_CORE, 2000, 100, &simple_op, &pmu);
	pmu.hdr.flags = VNPU_REC_PMU_F_OVERFLOW;
	add_task(&b, 3, 0, VNPU_TASK_AI_CORE, 3000, 100, &simple_op, &pmu);
	/* no PMU record at all (lost) */
	add_task(&b, 4, 0, VNPU_TASK_AI_CORE, 4000, 100, &simple_op, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	EXPECT_NE(NULL,
		  strstr(line(t, 1), ",MIX_AIC,\"1764406085000020.000\t\",2.000,0.000,24,48,NO,"));
	EXPECT_NE(NULL, strstr(line(t, 1), ",FLOAT16,ND,0,1.000,43200,1.000,1.000,"));
	EXPECT_NE(NULL, strstr(line(t, 1), ",1.000,86400,0.100,0.100,0.000,0.000,0.000,0.000,"
					   "0.000,0.000,0.000,50.000"));
	/* the vector task: aic columns 0, aiv ones computed (8 blocks on the op) */
	EXPECT_NE(NULL,
		  strstr(line(t, 2), ",FLOAT16,ND,N/A,0,0,0,0,0,0,0,0,0,0,0,0,0,1.000,86400,"));
	EXPECT_NE(NULL, strstr(line(t, 3), ",N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
					   "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A"));
	EXPECT_NE(NULL, strstr(line(t, 4), ",N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
					   "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A"));
	rb_free(&b);
}

/* Device_id is sorted as a string, as msprof does: 0, 1, 10, 2 */
TEST_F(prof, devices_in_string_order)
{
	static const uint32_t devs[] = { 2, 10, 0, 1 };
	char *t;

	for (unsigned int i = 0; i < 4; i++) {
		struct vnpu_ring_ctrl c;
		struct rb b = { 0 };

		mkctrl(&c, &P350, devs[i], VNPU_PROF_L1);
		add_task(&b, 1, 0, VNPU_TASK_AI_VECTOR_CORE, 1000, 500, &simple_op, NULL);
		write_dev(self->prof, devs[i], &c, &b, 0);
		rb_free(&b);
	}
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	t = out_file(self, OPS_FILE);
	EXPECT_EQ(0, strncmp("0,", line(t, 1), 2));
	EXPECT_EQ(0, strncmp("1,", line(t, 2), 2));
	EXPECT_EQ(0, strncmp("10,", line(t, 3), 3));
	EXPECT_EQ(0, strncmp("2,", line(t, 4), 2));
	/* each device's first row waits 0 */
	EXPECT_NE(NULL, strstr(line(t, 4), "\t\",0.500,0.000,"));
	t = out_file(self, "op_statistic_" TS ".csv");
	EXPECT_EQ(0, strncmp("10,Add,", line(t, 3), 7));
	EXPECT_EQ(4, self->sum.n_devices);
	EXPECT_EQ(10, self->sum.dev[2].dev_id);
}

/* records split over rotated files give the same export as one file */
TEST_F(prof, rotated_files)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *one, p[512];

	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	for (uint64_t i = 0; i < 20; i++)
		add_task(&b, i, i % 3, VNPU_TASK_AI_VECTOR_CORE, 1000 * i, 400, &simple_op, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	one = strdup(out_file(self, OPS_FILE));
	write_dev(self->prof, 0, &c, &b, 1000);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_STREQ(one, out_file(self, OPS_FILE));
	EXPECT_EQ(b.len, self->sum.dev[0].bytes);
	snprintf(p, sizeof(p), "%s/device_0/data/vnpu.rec.0003", self->prof);
	EXPECT_EQ(0, access(p, F_OK));
	free(one);
	rb_free(&b);
}

static int python_check(const char *json, const char *procs, int x_events)
{
	char script[256], cmd[1024];
	static const char py[] =
		"import json, re, sys\n"
		"ev = json.load(open(sys.argv[1]))\n"
		"assert isinstance(ev, list), 'not an array'\n"
		"procs = {e['pid']: e['args']['name'] for e in ev\n"
		"         if e['ph'] == 'M' and e['name'] == 'process_name'}\n"
		"threads = {(e['pid'], e['tid']) for e in ev\n"
		"           if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
		"xs = [e for e in ev if e['ph'] == 'X']\n"
		"for e in xs:\n"
		"    assert re.fullmatch(r'[0-9]+\\.[0-9]{3}', e['ts']), e\n"
		"    assert isinstance(e['dur'], float) or isinstance(e['dur'], int), e\n"
		"    assert e['pid'] in procs, e\n"
		"    assert (e['pid'], e['tid']) in threads, e\n"
		"want = sorted(x for x in sys.argv[2].split(',') if x)\n"
		"assert sorted(set(procs.values())) == want, (sorted(set(procs.values())), want)\n"
		"assert len(xs) == int(sys.argv[3]), len(xs)\n";

	snprintf(script, sizeof(script), "%s.check.py", json);
	put_file(script, py, sizeof(py) - 1);
	snprintf(cmd, sizeof(cmd), "python3 %s '%s' '%s' %d", script, json, procs, x_events);
	return system(cmd);
}

/* The timeline parses as JSON and has the expected processes and events. */
TEST_F(prof, timeline_json)
{
	struct npuprof_api_rec api = {
		.type = NPUPROF_API_REC_TYPE,
		.size = sizeof(api),
		.api_id = NPUPROF_API_OPEN,
		.start_ns = MONO_BASE,
		.end_ns = MONO_BASE + 1500,
		.tid = 42,
	};
	struct vnpu_rec_runtime rt = {
		.api = VNPU_RT_SYNC, .tid = 42, .result = -110, .start_ns = 1, .end_ns = 2
	};
	struct vnpu_rec_comm cm = { .task_id = 3, .stream_id = 5, .start = 300, .end = 400 };
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char path[512], *t;

	mkctrl(&c, &P350, 0, VNPU_PROF_L2);
	add_task(&b, 1, 0, VNPU_TASK_AI_VECTOR_CORE, 100, 50, &simple_op, NULL);
	add_task(&b, 2, 4, VNPU_TASK_AI_CORE, 200, 50, NULL, NULL);
	add_task_rec(&b, VNPU_REC_TASK_START, 3, 5, VNPU_TASK_COMMUNICATION, 300);
	rb_add(&b, VNPU_REC_COMM, &cm, sizeof(cm));
	add_task_rec(&b, VNPU_REC_TASK_END, 3, 5, VNPU_TASK_COMMUNICATION, 400);
	rb_add(&b, VNPU_REC_RUNTIME, &rt, sizeof(rt));
	write_dev(self->prof, 0, &c, &b, 0);
	write_host(self->prof, &api, 1);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	snprintf(path, sizeof(path), "%s/msprof_" TS ".json", self->out);
	/* 3 hardware tasks, 1 communication, 1 runtime, 1 host API */
	EXPECT_EQ(0, python_check(path, "Ascend Hardware,AscendCL,Communication,Runtime", 6));
	t = out_file(self, "msprof_" TS ".json");
	EXPECT_EQ('[', t[0]);
	EXPECT_NE(NULL, strstr(t, "\"args\":{\"Model Id\":1,\"Task Type\":\"AI_VECTOR_CORE\","
				  "\"Physic Stream Id\":0,\"Task Id\":1,"));
	/* a task without OP_INFO is named by its type */
	EXPECT_NE(NULL, strstr(t, "{\"name\":\"AI_CORE\",\"ph\":\"X\",\"pid\":1000,\"tid\":4,"
				  "\"ts\":\"1764406085000000.200\",\"dur\":0.050,"));
	EXPECT_NE(NULL, strstr(t, "\"args\":{\"name\":\"Stream 4\"}"));
	EXPECT_NE(NULL, strstr(t, "\"result\":-110"));
	/* an empty export still gives a valid (empty) array */
	rb_free(&b);
}

TEST_F(prof, timeline_empty_device)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char path[512];

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	snprintf(path, sizeof(path), "%s/msprof_" TS ".json", self->out);
	EXPECT_EQ(0, python_check(path, "", 0));
	EXPECT_EQ(NULL, out_file(self, OPS_FILE));
	EXPECT_NE(NULL, out_file(self, "README.txt"));
}

/* tasks that miss their start or end are counted and left out */
TEST_F(prof, incomplete_tasks)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &simple_op, NULL);
	add_task_rec(&b, VNPU_REC_TASK_START, 2, 0, VNPU_TASK_AI_CORE, 200);
	add_task_rec(&b, VNPU_REC_TASK_END, 3, 0, VNPU_TASK_AI_CORE, 350);
	add_task(&b, 4, 0, VNPU_TASK_AI_CORE, 400, 50, &simple_op, NULL);
	/* the last task of the stream never ends */
	add_task_rec(&b, VNPU_REC_TASK_START, 5, 0, VNPU_TASK_AI_CORE, 500);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(2, self->sum.dev[0].tasks);
	EXPECT_EQ(3, self->sum.dev[0].incomplete);
	EXPECT_LE(1, self->sum.warnings);
	EXPECT_EQ(3, count_lines(out_file(self, OPS_FILE)));
	rb_free(&b);
}

/* one task late by more than the reorder window: exported, counted */
TEST_F(prof, beyond_the_reorder_window)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char *t;

	mkctrl(&c, &P350, 0, VNPU_PROF_L0);
	for (uint64_t i = 1; i <= 5000; i++)
		add_task(&b, i, 0, VNPU_TASK_AI_CORE, 1000 * i, 10, NULL, NULL);
	/* completes after 5000 tasks that started later */
	add_task(&b, 9999, 0, VNPU_TASK_AI_CORE, 500, 10, NULL, NULL);
	/* within the window: sorted */
	add_task(&b, 9998, 0, VNPU_TASK_AI_CORE, 4999500, 10, NULL, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(5002, self->sum.dev[0].tasks);
	EXPECT_EQ(1, self->sum.dev[0].out_of_order);
	t = out_file(self, OPS_FILE);
	EXPECT_EQ(0, strncmp("0,N/A,9999,", line(t, 905), 11));
	EXPECT_EQ(0, strncmp("0,N/A,9998,", line(t, 5001), 11));
	rb_free(&b);
}

/* a seq gap (records missing from the files): a warning, README notes it */
TEST_F(prof, seq_gap_warns)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &simple_op, NULL);
	b.seq += 3;
	add_task(&b, 2, 0, VNPU_TASK_AI_CORE, 200, 50, &simple_op, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(3, self->sum.dev[0].seq_missing);
	EXPECT_EQ(2, self->sum.dev[0].tasks);
	EXPECT_LE(1, self->sum.warnings);
	EXPECT_NE(NULL, strstr(out_file(self, "README.txt"),
			       "3 records are missing from the record files"));
	rb_free(&b);
}

/* an unknown record type is skipped (its size says how far) */
TEST_F(prof, unknown_type_skipped)
{
	unsigned char u[40] = { 0 };
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	mkctrl(&c, &P350, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &simple_op, NULL);
	rb_add(&b, 77, u, sizeof(u));
	add_task(&b, 2, 0, VNPU_TASK_AI_CORE, 200, 50, &simple_op, NULL);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.dev[0].unknown);
	EXPECT_EQ(2, self->sum.dev[0].tasks);
	EXPECT_EQ(7, self->sum.dev[0].records);
	rb_free(&b);
}

/* ---- malformed input: an error naming the file and offset, no output left ---- */

static void expect_failure(struct __test_metadata *_metadata, FIXTURE_DATA(prof) * self, int code,
			   const char *msg)
{
	int rc = do_export(self, 0);

	EXPECT_EQ(code, rc) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(code, self->err.code);
	EXPECT_NE(NULL, strstr(self->err.msg, msg))
	TH_LOG("\"%s\" lacks \"%s\"", self->err.msg, msg);
	/* no partial file, not even a temporary one */
	EXPECT_EQ(0, count_out(self));
}

#define EXPECT_FAILURE(code, msg) expect_failure(_metadata, self, code, msg)

static void one_task_dev(FIXTURE_DATA(prof) * self, struct vnpu_ring_ctrl *c, struct rb *b)
{
	mkctrl(c, &A2, 0, VNPU_PROF_L1);
	add_task(b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &simple_op, NULL);
}

TEST_F(prof, truncated_last_file_is_a_warning)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	/* a record cut after 20 bytes at the end of the last file */
	write_rec_file(self->prof, 0, 1, b.p, 20);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_LE(1, self->sum.warnings);
	EXPECT_EQ(1, self->sum.dev[0].tasks);
	rb_free(&b);
}

TEST_F(prof, truncated_middle_file_is_an_error)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	write_rec_file(self->prof, 0, 0, b.p, b.len - 8);
	write_rec_file(self->prof, 0, 1, b.p, 40);
	EXPECT_FAILURE(-EBADMSG, "device_0/data/vnpu.rec.0000: offset ");
	EXPECT_NE(NULL, strstr(self->err.msg, "truncated record"));
	rb_free(&b);
}

TEST_F(prof, size_not_multiple_of_8)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	uint16_t bad = 44;

	one_task_dev(self, &c, &b);
	/* the second record (OP_INFO at offset 40) claims 44 bytes */
	memcpy(b.p + 40 + 2, &bad, 2);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "device_0/data/vnpu.rec.0000: offset 40: bad record size 44 "
				 "(not a multiple of 8)");
	rb_free(&b);
}

TEST_F(prof, size_smaller_than_header)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	uint16_t bad = 8;

	one_task_dev(self, &c, &b);
	memcpy(b.p + 2, &bad, 2);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "vnpu.rec.0000: offset 0: bad record size 8 (smaller than");
	rb_free(&b);
}

TEST_F(prof, known_record_too_short)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	struct vnpu_rec_task r = { .task_id = 1 };

	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	rb_add(&b, VNPU_REC_TASK_START, &r, 24);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "vnpu.rec.0000: offset 0: TASK_START record of 24 bytes, "
				 "expected at least 40");
	rb_free(&b);
}

TEST_F(prof, op_info_tensors_overrun)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	struct op o = simple_op;
	uint32_t n = 3;

	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &o, NULL);
	/* claim a third tensor the record has no room for */
	memcpy(b.p + 40 + offsetof(struct vnpu_rec_op_info, n_tensors), &n, 4);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "offset 40: OP_INFO tensor 2 runs past");
	rb_free(&b);
}

TEST_F(prof, op_info_bad_counts)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	struct op o = simple_op;
	uint32_t n = 9;
	uint8_t dims = 9;

	mkctrl(&c, &A2, 0, VNPU_PROF_L1);
	add_task(&b, 1, 0, VNPU_TASK_AI_CORE, 100, 50, &o, NULL);
	memcpy(b.p + 40 + offsetof(struct vnpu_rec_op_info, n_tensors), &n, 4);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "OP_INFO with 9 tensors");
	n = 2;
	memcpy(b.p + 40 + offsetof(struct vnpu_rec_op_info, n_tensors), &n, 4);
	memcpy(b.p + 40 + sizeof(struct vnpu_rec_op_info) + 2, &dims, 1);
	write_dev(self->prof, 0, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "OP_INFO tensor 0 has 9 dims");
	rb_free(&b);
}

TEST_F(prof, missing_middle_file)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char p[512];

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 48);
	snprintf(p, sizeof(p), "%s/device_0/data/vnpu.rec.0001", self->prof);
	ASSERT_EQ(0, unlink(p));
	EXPECT_FAILURE(-ENOENT, "device_0/data/vnpu.rec.0001 is missing");
	rb_free(&b);
}

TEST_F(prof, ctrl_errors)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char p[512];

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	snprintf(p, sizeof(p), "%s/device_0/data/vnpu.ctrl", self->prof);

	ASSERT_EQ(0, unlink(p));
	EXPECT_FAILURE(-ENOENT, "device_0/data/vnpu.ctrl: No such file");
	put_file(p, &c, 100);
	EXPECT_FAILURE(-EBADMSG, "vnpu.ctrl: 100 bytes");
	c.magic = 1;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "vnpu.ctrl: bad magic 0x1");
	c.magic = VNPU_RING_MAGIC;
	c.compat_version = 2;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EPROTO, "compat_version 2");
	c.compat_version = 1;
	c.dev_id = 3;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "dev_id 3 does not match");
	c.dev_id = 0;
	c.sys_cnt_freq_khz = 0;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "sys_cnt_freq_khz is 0");
	c.sys_cnt_freq_khz = 50000;
	c.level = 3;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "unknown level 3");
	c.level = 1;
	c.n_events = 9;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "n_events 9");
	c.n_events = 8;
	c.metric_group = 42;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "unknown metric group 42");
	c.metric_group = VNPU_METRIC_MEMORY;
	c.aic_freq_khz = 0;
	put_file(p, &c, sizeof(c));
	EXPECT_FAILURE(-EBADMSG, "aic_freq_khz is 0");
	/* the first 192 bytes are enough (an older, shorter control page) */
	c.aic_freq_khz = 1800000;
	put_file(p, &c, 192);
	EXPECT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	rb_free(&b);
}

TEST_F(prof, folder_errors)
{
	struct npuprof_export_opts o = { .sz = sizeof(o), .timestamp = "2025", .quiet = 1 };
	char p[512];

	EXPECT_EQ(-EINVAL, npuprof_export(NULL, NULL, &self->err));
	EXPECT_EQ(-EINVAL, npuprof_export("", NULL, NULL));
	snprintf(p, sizeof(p), "%s/nope", self->base);
	EXPECT_EQ(-ENOENT, npuprof_export(p, NULL, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "nope"));
	snprintf(p, sizeof(p), "%s/file", self->base);
	put_file(p, "x", 1);
	EXPECT_EQ(-ENOTDIR, npuprof_export(p, NULL, &self->err));
	/* an empty PROF folder: nothing to export */
	EXPECT_FAILURE(-ENOENT, "nothing to export");
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "timestamp \"2025\""));
	o.timestamp = "2025112916480x";
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	o.timestamp = NULL;
	/* the OPTS rules: an older caller's struct (only sz) is accepted... */
	o.sz = sizeof(size_t);
	EXPECT_EQ(-ENOENT, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "nothing to export")) TH_LOG("%s", self->err.msg);
	/* ...and read only as far as its sz: the bad timestamp after it is not seen */
	o.sz = offsetof(struct npuprof_export_opts, timestamp);
	o.timestamp = "2025";
	EXPECT_EQ(-ENOENT, npuprof_export(self->prof, &o, &self->err));
	o.sz = 4;
	EXPECT_EQ(-EINVAL, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "sz is 4")) TH_LOG("%s", self->err.msg);
	/* a newer caller's with an unknown member set */
	{
		union {
			struct npuprof_export_opts o;
			unsigned char b[sizeof(struct npuprof_export_opts) + 8];
		} newer = { 0 };

		newer.o.sz = sizeof(newer);
		EXPECT_EQ(-ENOENT, npuprof_export(self->prof, &newer.o, &self->err));
		newer.b[sizeof(newer) - 1] = 1;
		EXPECT_EQ(-E2BIG, npuprof_export(self->prof, &newer.o, &self->err));
		EXPECT_NE(NULL, strstr(self->err.msg, "npuprof_export_opts"));
	}
}

/* devices whose op_summary columns differ cannot share one op_summary */
TEST_F(prof, mixed_products)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	mkctrl(&c, &P910, 1, VNPU_PROF_L1);
	write_dev(self->prof, 1, &c, &b, 0);
	EXPECT_FAILURE(-EINVAL, "device_1/data: the op_summary columns");
	rb_free(&b);
}

/* a later device fails: the files of the earlier one are not left behind */
TEST_F(prof, no_partial_output)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	uint16_t bad = 12;

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	mkctrl(&c, &A2, 1, VNPU_PROF_L1);
	memcpy(b.p + 2, &bad, 2);
	write_dev(self->prof, 1, &c, &b, 0);
	EXPECT_FAILURE(-EBADMSG, "device_1/data/vnpu.rec.0000: offset 0");
	rb_free(&b);
}

struct prog {
	int calls, stop_after;
	uint64_t last, total;
};

static int progress_cb(void *arg, uint64_t done, uint64_t total)
{
	struct prog *p = arg;

	p->calls++;
	p->last = done;
	p->total = total;
	return p->stop_after && p->calls >= p->stop_after;
}

TEST_F(prof, progress_and_cancel)
{
	struct prog pg = { 0 };
	struct npuprof_export_opts o = { .sz = sizeof(o),
					 .timestamp = TS,
					 .quiet = 1,
					 .progress = progress_cb,
					 .progress_arg = &pg };
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_LE(1, pg.calls);
	EXPECT_EQ(b.len, pg.total);
	EXPECT_EQ(pg.total, pg.last);
	/* the callback stops the export: nothing written */
	rm_out(self);
	pg.calls = 0;
	pg.stop_after = 1;
	EXPECT_EQ(-ECANCELED, npuprof_export(self->prof, &o, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "cancelled"));
	EXPECT_EQ(0, count_out(self));
	rb_free(&b);
}

/* folder names: device_x is ignored with a warning, ids >= 16 refused */
TEST_F(prof, device_folder_names)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char p[512];

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	snprintf(p, sizeof(p), "%s/device_x", self->prof);
	mkdir(p, 0755);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.warnings);
	EXPECT_EQ(1, self->sum.n_devices);
	snprintf(p, sizeof(p), "%s/device_16", self->prof);
	mkdir(p, 0755);
	EXPECT_EQ(-EINVAL, do_export(self, 0));
	EXPECT_NE(NULL, strstr(self->err.msg, "device_16: device ids go up to 15"));
	rb_free(&b);
}

/* a folder not named PROF_...: exported, with a warning */
TEST_F(prof, not_a_prof_name)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char p[96];

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	snprintf(p, sizeof(p), "%.64s/PROF_1", self->base);
	ASSERT_EQ(0, rename(self->prof, p));
	snprintf(self->prof, sizeof(self->prof), "%s", p);
	snprintf(self->out, sizeof(self->out), "%s/" NPUPROF_OUTPUT_DIR, p);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.warnings);
	EXPECT_NE(NULL, out_file(self, OPS_FILE));
	rb_free(&b);
}

/* the output folder cannot be made: an error naming it */
TEST_F(prof, output_folder_is_a_file)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	put_file(self->out, "x", 1);
	EXPECT_EQ(-ENOTDIR, do_export(self, 0));
	EXPECT_NE(NULL, strstr(self->err.msg, NPUPROF_OUTPUT_DIR ": Not a directory"))
	TH_LOG("%s", self->err.msg);
	rb_free(&b);
}

/* a trailing slash is the same folder (no name warning) */
TEST_F(prof, trailing_slash)
{
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	strcat(self->prof, "//");
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, self->sum.warnings);
	EXPECT_NE(NULL, out_file(self, OPS_FILE));
	rb_free(&b);
}

/* the default timestamp: 14 digits of the local time */
TEST_F(prof, default_timestamp)
{
	struct npuprof_export_opts o = { .sz = sizeof(o), .quiet = 1, .summary = &self->sum };
	struct vnpu_ring_ctrl c;
	struct rb b = { 0 };
	char name[64];

	one_task_dev(self, &c, &b);
	write_dev(self->prof, 0, &c, &b, 0);
	ASSERT_EQ(0, npuprof_export(self->prof, &o, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(14, strlen(self->sum.timestamp));
	snprintf(name, sizeof(name), "op_summary_%s.csv", self->sum.timestamp);
	EXPECT_NE(NULL, out_file(self, name));
	/* NULL opts: all defaults */
	EXPECT_EQ(0, npuprof_export(self->prof, NULL, NULL));
	rb_free(&b);
}

/* host records of another type are skipped; a short api record is an error */
TEST_F(prof, host_records)
{
	struct npuprof_api_rec r[2] = {
		{ .type = 9, .size = 32 },
		{ .type = NPUPROF_API_REC_TYPE, .size = 32, .api_id = 0, .end_ns = 5 },
	};

	write_host(self->prof, r, 2);
	ASSERT_EQ(0, do_export(self, 0)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(1, self->sum.host_api_records);
	EXPECT_EQ(1, self->sum.warnings);
	EXPECT_EQ(0, self->sum.n_devices);
	r[0].type = NPUPROF_API_REC_TYPE;
	r[0].size = 16;
	write_host(self->prof, r, 1);
	rm_out(self);
	EXPECT_FAILURE(-EBADMSG, "host/data/api.rec.0000: offset 0: api record of 16 bytes");
}

TEST_HARNESS_MAIN
