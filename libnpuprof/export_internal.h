/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: internals of the offline export (npuprof_export()).
 *
 *   raw_reader.c       list and stream the record files, validate framing
 *   csv_writer.c       number/string formatting, buffered files under
 *                      temporary names, sliced CSVs, commit/discard
 *   metric_layout.c    op_summary metric columns and their formulas
 *   export_stats.c     op_statistic, communication_statistic, api_statistic
 *   timeline_writer.c  msprof_{ts}.json
 *   export.c           npuprof_export(): devices, task join, reorder, rows
 *
 * Nothing here is exported from the shared library.
 */
#ifndef NPUPROF_EXPORT_INTERNAL_H
#define NPUPROF_EXPORT_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "npuprof_error.h"
#include "npuprof_internal.h"
#include "npuprof_export.h"
#include "raw_format.h"
#include "vnpu.h"
#include "vnpu_prof.h"

typedef unsigned __int128 npx_u128;

#define NPX_ROW_MAX 16384 /* bytes one CSV row or JSON event may take */
#define NPX_BUF_SIZE (512U << 10) /* an output buffer (two a file) */
#define NPX_NA "N/A"
#define NPX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- warnings ---- */

/**
 * struct npx_warn - where warnings go
 * @quiet: do not print them.
 * @count: warnings issued.
 */
struct npx_warn {
	int quiet;
	uint32_t count;
};

void npx_warn(struct npx_warn *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- formatting (csv_writer.c); each returns the end of what it wrote ---- */

extern const char npx_digits2[201];

/* decimal digits of @v */
static inline unsigned int npx_ndigits(uint64_t v)
{
	unsigned int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

static inline char *npx_fmt_u64(char *p, uint64_t v)
{
	char *end = p + npx_ndigits(v);

	p = end;
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, npx_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, npx_digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return end;
}

char *npx_fmt_u128(char *p, npx_u128 v);
char *npx_fmt_milli128(char *p, npx_u128 v);

/* @v thousandths as "v/1000.xyz": 3-decimal microseconds from ns and the like */
static inline char *npx_fmt_milli(char *p, npx_u128 v)
{
	uint64_t w = (uint64_t)v;
	unsigned int frac;

	if (v >> 64)
		return npx_fmt_milli128(p, v);
	p = npx_fmt_u64(p, w / 1000);
	frac = (unsigned int)(w % 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npx_digits2 + 2 * (frac % 100), 2);
	return p + 4;
}

/* a short name and its length, copied 16 bytes at a time */
struct npx_name {
	char s[16];
	uint8_t n;
};

#define NPX_NAME(str)                \
	{                            \
		str, sizeof(str) - 1 \
	}

static inline char *npx_put_name(char *p, const struct npx_name *n)
{
	memcpy(p, n->s, sizeof(n->s));
	return p + n->n;
}

/* append a string literal (its length known at compile time) */
#define npx_lit(p, s) ((char *)memcpy((p), "" s, sizeof(s) - 1) + sizeof(s) - 1)

/* A name as one CSV field: N/A when empty, quoted when it holds , or " */
char *npx_csv_name(char *p, const char *s, size_t max);
/* A name as a JSON string, quotes included */
char *npx_json_str(char *p, const char *s, size_t max);

static inline char *npx_put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* round(num / den) (half up), 0 when den is 0 */
static inline npx_u128 npx_div_round(npx_u128 num, npx_u128 den)
{
	if (!den)
		return 0;
	if (!(num >> 64) && !(den >> 64))
		return (uint64_t)num / (uint64_t)den +
		       ((uint64_t)num % (uint64_t)den >= (uint64_t)den - (uint64_t)den / 2);
	return num / den + (num % den >= den - den / 2);
}

/* ---- output files (csv_writer.c) ---- */

struct npx_io;

/**
 * struct npx_out - the output folder
 * @dfd: mindstudio_profiler_output/, opened O_DIRECTORY.
 * @ts: the 14-digit {ts} of the names.
 * @pid: this process (temporary names).
 * @slice_rows: rows per CSV file.
 * @err: the caller's error report.
 * @io: the writer thread, NULL for synchronous writes.
 * @dir: the path of @dfd for messages; NULL: "mindstudio_profiler_output".
 */
struct npx_out {
	int dfd;
	char ts[16];
	long pid;
	uint64_t slice_rows;
	struct npuprof_error *err;
	struct npx_io *io;
	const char *dir;
};

/*
 * Set @o->ts: @timestamp (exactly 14 digits YYYYMMDDhhmmss), or the local
 * time now when NULL; -EINVAL with a message otherwise.
 */
int npx_out_timestamp(struct npx_out *o, const char *timestamp);

/* the output folder as messages name it */
static inline const char *npx_out_dir(const struct npx_out *o)
{
	return o->dir ? o->dir : NPUPROF_OUTPUT_DIR;
}

/*
 * Start the writer thread: full buffers are written by it while the next
 * one is formatted (formatting and the kernel's copy overlap). Without a
 * thread (it cannot be created) files are written synchronously.
 */
void npx_io_start(struct npx_out *o);
/* wait for every queued write and stop the thread */
void npx_io_stop(struct npx_out *o);

/**
 * struct npx_file - a buffered output file under a temporary name
 * @fd: -1 when closed.
 * @tmp: its temporary name in the output folder.
 * @buf: the buffer being filled (NPX_BUF_SIZE bytes), one of @bufs.
 * @len: bytes in @buf.
 * @bufs: two buffers: one filled while the writer thread writes the other.
 * @cur: the index of @buf in @bufs.
 * @busy: a write of @bufs[i] is queued or running (under the io lock).
 */
struct npx_file {
	int fd;
	char tmp[96];
	char *buf;
	size_t len;
	char *bufs[2];
	unsigned int cur;
	bool busy[2];
};

void npx_file_init(struct npx_file *f);
int npx_file_open(struct npx_out *o, struct npx_file *f, const char *tmp);
int npx_file_flush(struct npx_out *o, struct npx_file *f);
int npx_file_close(struct npx_out *o, struct npx_file *f);
/* rename the closed file to @final */
int npx_file_commit(struct npx_out *o, struct npx_file *f, const char *final);
/* close it (if open) and remove the temporary file */
void npx_file_discard(struct npx_out *o, struct npx_file *f);
void npx_file_free(struct npx_file *f);

/* Make room for @n more bytes; *cur is where to write. */
static inline int npx_file_reserve(struct npx_out *o, struct npx_file *f, size_t n, char **cur)
{
	int rc = 0;

	if (NPX_BUF_SIZE - f->len < n)
		rc = npx_file_flush(o, f);
	*cur = f->buf + f->len;
	return rc;
}

static inline void npx_file_advance(struct npx_file *f, char *cur)
{
	f->len = (size_t)(cur - f->buf);
}

/**
 * struct npx_csv - one CSV, sliced every npx_out.slice_rows rows
 * @base: "op_summary": base_{ts}.csv or base_slice_{i}_{ts}.csv.
 * @header: the header line, without the newline (owned).
 * @rows: data rows in the current slice.
 * @rows_total: data rows written.
 * @nfiles: slices opened.
 * @f: the current slice.
 */
struct npx_csv {
	const char *base;
	char *header;
	uint64_t rows;
	uint64_t rows_total;
	unsigned int nfiles;
	struct npx_file f;
};

void npx_csv_init(struct npx_csv *c, const char *base);
/* set the header (copied); only before the first row */
int npx_csv_set_header(struct npx_out *o, struct npx_csv *c, const char *header);
/* start a row (a new slice when the current one is full); *cur: where to write */
int npx_csv_begin(struct npx_out *o, struct npx_csv *c, char **cur);

static inline void npx_csv_end(struct npx_csv *c, char *cur)
{
	*cur++ = '\n';
	npx_file_advance(&c->f, cur);
	c->rows++;
	c->rows_total++;
}

int npx_csv_close(struct npx_out *o, struct npx_csv *c);
/* rename the slices to their final names (after npx_csv_close()) */
int npx_csv_commit(struct npx_out *o, struct npx_csv *c);
void npx_csv_discard(struct npx_out *o, struct npx_csv *c);
void npx_csv_free(struct npx_csv *c);
/* the final name of slice @i (for messages and README.txt) */
void npx_csv_name_of(const struct npx_out *o, const struct npx_csv *c, unsigned int i, char *buf,
		     size_t len);

/* ---- record files (raw_reader.c) ---- */

/**
 * struct npx_rfiles - the record files of one stream (vnpu.rec.* or api.rec.*)
 * @dir: the folder holding them.
 * @label: the folder relative to the PROF folder, for messages.
 * @prefix: NPUPROF_RAW_REC_PREFIX or NPUPROF_RAW_API_PREFIX.
 * @n: files, indices 0 .. n - 1.
 * @bytes: their total size.
 */
struct npx_rfiles {
	char dir[PATH_MAX];
	char label[64];
	const char *prefix;
	unsigned int n;
	uint64_t bytes;
};

int npx_rfiles_scan(struct npx_rfiles *s, const char *dir, const char *label, const char *prefix,
		    struct npx_warn *w, struct npuprof_error *err);

/**
 * struct npx_reader - streams the records of a struct npx_rfiles
 * @files: the files.
 * @cur: the file being read.
 * @fd: its descriptor, -1 when none.
 * @buf: read buffer.
 * @len: bytes in @buf.
 * @pos: the next record in @buf.
 * @base: offset in the file of @buf[0].
 * @eof: the file has been read to its end.
 * @min_size: the smallest valid record size.
 * @consumed: bytes of all files consumed so far.
 * @truncated: bytes of a truncated record dropped at the end of the last file.
 */
struct npx_reader {
	const struct npx_rfiles *files;
	unsigned int cur;
	int fd;
	char *buf;
	size_t len;
	size_t pos;
	uint64_t base;
	bool eof;
	size_t min_size;
	uint64_t consumed;
	uint64_t truncated;
};

int npx_reader_open(struct npx_reader *r, const struct npx_rfiles *files, size_t min_size,
		    struct npuprof_error *err);
/*
 * The next record: 1 with *rec (8-byte aligned, valid until the next call),
 * *size and *off (its offset in npx_reader_path()), 0 at the end, or a
 * negative errno (malformed framing, I/O).
 */
int npx_reader_next(struct npx_reader *r, const void **rec, size_t *size, uint64_t *off,
		    struct npx_warn *w, struct npuprof_error *err);
/* "device_0/data/vnpu.rec.0001" of the current file */
void npx_reader_path(const struct npx_reader *r, char *buf, size_t len);
void npx_reader_close(struct npx_reader *r);

/* ---- metric columns (metric_layout.c) ---- */

#define NPX_MCOL_MAX 48

struct npx_mcol;

/**
 * struct npx_mres - a metric column resolved against a session's events
 * @idx: counter index of each event of the column, -1 if not programmed.
 * @alt: counter index of the fallback event, -1 if none.
 * @na: the value does not exist in this session (events not programmed).
 */
struct npx_mres {
	int8_t idx[5];
	int8_t alt;
	bool na;
};

/**
 * struct npx_layout - the op_summary metric columns of a session
 * @split: aic_/aiv_ columns (VNPU_CAP_SPLIT_AIC_AIV).
 * @stars: Context ID, Mix Block Dim and aiv_time(us) exist (VNPU_CAP_STARS).
 * @group: enum vnpu_metric_group, VNPU_METRIC_NONE for no columns.
 * @n: metric columns.
 * @col: the columns, in order.
 * @res: their resolution.
 * @freq_khz: AI Core clock.
 * @aic_num: AI Cores.
 * @aiv_num: AI Vector Cores.
 */
struct npx_layout {
	bool split;
	bool stars;
	uint32_t group;
	unsigned int n;
	const struct npx_mcol *col[NPX_MCOL_MAX];
	struct npx_mres res[NPX_MCOL_MAX];
	uint32_t freq_khz;
	uint32_t aic_num;
	uint32_t aiv_num;
};

/**
 * struct npx_mrow - what the metric columns of one op_summary row need
 * @pmu: the task's PMU record, NULL when it has none.
 * @task_type: enum vnpu_task_type.
 * @block_num: OP_INFO block_num, 0 when unknown.
 * @mix_block_num: OP_INFO mix_block_num, 0 when unknown.
 * @dur_ns: Task Duration in ns.
 */
struct npx_mrow {
	const struct vnpu_rec_pmu *pmu;
	uint32_t task_type;
	uint32_t block_num;
	uint32_t mix_block_num;
	uint64_t dur_ns;
};

int npx_layout_init(struct npx_layout *l, const struct vnpu_ring_ctrl *ctrl,
		    struct npuprof_error *err);
/* ",name,name,...": the metric part of the header */
char *npx_layout_header(const struct npx_layout *l, char *p);
/* ",v,v,...": the metric part of a row (N/A everywhere without PMU data) */
char *npx_layout_row(const struct npx_layout *l, const struct npx_mrow *r, char *p);

/* ---- statistics (export_stats.c) ---- */

/**
 * struct npx_agg - count, sum, min, max and sum of squares of durations (ns)
 */
struct npx_agg {
	uint64_t count;
	uint64_t total;
	uint64_t min;
	uint64_t max;
	npx_u128 sumsq;
};

static inline void npx_agg_add(struct npx_agg *a, uint64_t v)
{
	if (!a->count || v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	a->count++;
	a->total += v;
	a->sumsq += (npx_u128)v * v;
}

struct npx_opstat_ent;

/**
 * struct npx_opstat - op_statistic of one device: (OP Type, Core Type) -> agg
 * @ent: open-addressing table.
 * @cap: its size, a power of two.
 * @n: entries used.
 */
struct npx_opstat {
	struct npx_opstat_ent *ent;
	size_t cap;
	size_t n;
};

int npx_opstat_add(struct npx_opstat *m, const char *op_type, uint32_t task_type, uint64_t dur_ns,
		   struct npuprof_error *err);
/* write the device's rows (Total Time descending) and empty the table */
int npx_opstat_flush(struct npx_out *o, struct npx_csv *c, struct npx_opstat *m, uint32_t dev_id);
void npx_opstat_free(struct npx_opstat *m);

/* communication_statistic of one device, by enum vnpu_comm_op (+1: unknown) */
struct npx_commstat {
	struct npx_agg op[VNPU_COMM_OP_COUNT + 1];
};

int npx_commstat_flush(struct npx_out *o, struct npx_csv *c, struct npx_commstat *m,
		       uint32_t dev_id);

/* api_statistic levels */
enum npx_api_level {
	NPX_LEVEL_ACL = 0, /* host/data api records: "AscendCL" */
	NPX_LEVEL_RUNTIME, /* VNPU_REC_RUNTIME records: "Runtime" */
};

struct npx_apistat_ent {
	uint32_t level;
	uint32_t id;
	struct npx_agg agg;
};

struct npx_apistat {
	struct npx_apistat_ent *ent;
	size_t n;
	size_t cap;
};

int npx_apistat_add(struct npx_apistat *m, uint32_t level, uint32_t id, uint64_t dur_ns,
		    struct npuprof_error *err);
int npx_apistat_write(struct npx_out *o, struct npx_csv *c, struct npx_apistat *m);
void npx_apistat_free(struct npx_apistat *m);
/* the API Name of a (level, id); @buf holds names of unknown ids */
const char *npx_api_name(uint32_t level, uint32_t id, char *buf, size_t len);

/* names of enum values as the CSVs print them */
const char *npx_task_type_name(uint32_t type);
const struct npx_name *npx_task_type(uint32_t type);
const char *npx_comm_op_type(uint32_t op);

/* ---- timeline (timeline_writer.c) ---- */

struct npx_u64set {
	uint64_t *v;
	size_t cap;
	size_t n;
};

/* add @key (never 0); 1 when it was new, 0 when known, -ENOMEM */
int npx_u64set_add(struct npx_u64set *s, uint64_t key);
bool npx_u64set_has(const struct npx_u64set *s, uint64_t key);
void npx_u64set_free(struct npx_u64set *s);

/**
 * struct npx_tl - msprof_{ts}.json being written
 * @f: the file.
 * @events: events written.
 * @seen: (pid, tid) pairs and pids that have their metadata events.
 */
struct npx_tl {
	struct npx_file f;
	uint64_t events;
	struct npx_u64set seen;
};

/* process ids of the timeline layers */
#define NPX_PID_ACL 10 /* host: AscendCL (host/data api records) */
#define NPX_PID_RUNTIME 11 /* host: Runtime (VNPU_REC_RUNTIME records) */
#define NPX_PID_DEV_BASE 1000 /* device d: NPX_PID_DEV_BASE + 10 * d + layer */
#define NPX_LAYER_HW 0 /* "Ascend Hardware" */
#define NPX_LAYER_COMM 1 /* "Communication" */

static inline uint32_t npx_dev_pid(uint32_t dev, uint32_t layer)
{
	return NPX_PID_DEV_BASE + 10 * dev + layer;
}

int npx_tl_open(struct npx_out *o, struct npx_tl *tl);
/*
 * Make sure process @pid (named @name, labelled @label, sorted by @sort) and
 * its thread @tid (named @tname) have their metadata events.
 */
int npx_tl_thread(struct npx_out *o, struct npx_tl *tl, uint32_t pid, const char *name,
		  const char *label, uint32_t sort, uint32_t tid, const char *tname);
/* thread @tid of process @pid has its metadata events already */
static inline bool npx_tl_known(const struct npx_tl *tl, uint32_t pid, uint32_t tid)
{
	return npx_u64set_has(&tl->seen, (uint64_t)pid << 33 | (uint64_t)tid << 1 | 1);
}

/* start an event: room for NPX_ROW_MAX bytes at *cur (the separator is written) */
int npx_tl_begin(struct npx_out *o, struct npx_tl *tl, char **cur);

static inline void npx_tl_end(struct npx_tl *tl, char *cur)
{
	npx_file_advance(&tl->f, cur);
	tl->events++;
}

int npx_tl_close(struct npx_out *o, struct npx_tl *tl);
void npx_tl_free(struct npx_tl *tl);

#endif /* NPUPROF_EXPORT_INTERNAL_H */
