/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof export/: the output files of the offline export
 * (npuprof_export()) and their helpers, private to export/:
 *
 *   csv_writer.c       number formatting, buffered files under temporary
 *                      names written by a writer thread, sliced CSVs
 *   output_folder.c    mindstudio_profiler_output/: commit or discard all
 */
#ifndef NPA_OUTPUT_H
#define NPA_OUTPUT_H

#include "core/core.h"
#include "format/format.h"

typedef unsigned __int128 npa_u128;

#define NPA_ROW_MAX 16384 /* bytes one CSV row or JSON event may take */
#define NPA_BUF_SIZE (512U << 10) /* an output buffer (two a file) */
#define NPA_NA "N/A"

/* ---- warnings ---- */

/**
 * struct npa_warn - where warnings go
 * @quiet: do not print them.
 * @count: warnings issued.
 */
struct npa_warn {
	int quiet;
	uint32_t count;
};

void npa_warn(struct npa_warn *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- formatting (csv_writer.c); each returns the end of what it wrote ---- */

extern const char npa_digits2[201];

/* decimal digits of @v */
static inline unsigned int npa_ndigits(uint64_t v)
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

static inline char *npa_fmt_u64(char *p, uint64_t v)
{
	char *end = p + npa_ndigits(v);

	p = end;
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, npa_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, npa_digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return end;
}

/* @v in decimal, with a '-' when negative (printf's %lld) */
static inline char *npa_fmt_s64(char *p, int64_t v)
{
	if (v >= 0)
		return npa_fmt_u64(p, (uint64_t)v);
	*p++ = '-';
	return npa_fmt_u64(p, 0 - (uint64_t)v);
}

char *npa_fmt_u128(char *p, npa_u128 v);
char *npa_fmt_milli128(char *p, npa_u128 v);

/* @v thousandths as "v/1000.xyz": 3-decimal microseconds from ns and the like */
static inline char *npa_fmt_milli(char *p, npa_u128 v)
{
	uint64_t w = (uint64_t)v;
	unsigned int frac;

	if (v >> 64)
		return npa_fmt_milli128(p, v);
	p = npa_fmt_u64(p, w / 1000);
	frac = (unsigned int)(w % 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npa_digits2 + 2 * (frac % 100), 2);
	return p + 4;
}

/* round(num / den) (half up), 0 when den is 0 */
static inline npa_u128 npa_div_round(npa_u128 num, npa_u128 den)
{
	if (!den)
		return 0;
	if (!(num >> 64) && !(den >> 64))
		return (uint64_t)num / (uint64_t)den +
		       ((uint64_t)num % (uint64_t)den >= (uint64_t)den - (uint64_t)den / 2);
	return num / den + (num % den >= den - den / 2);
}

/* ---- output files (csv_writer.c) ---- */

struct npa_io;

/**
 * struct npa_out - the output folder
 * @dfd: mindstudio_profiler_output/, opened O_DIRECTORY.
 * @ts: the 14-digit {ts} of the names.
 * @pid: this process (temporary names).
 * @slice_rows: rows per CSV file.
 * @err: the caller's error report.
 * @io: the writer thread, NULL for synchronous writes.
 * @dir: the path of @dfd for messages; NULL: "mindstudio_profiler_output".
 * @path: @dir when npa_out_open() opened @dfd.
 */
struct npa_out {
	int dfd;
	char ts[16];
	long pid;
	uint64_t slice_rows;
	struct npuprof_error *err;
	struct npa_io *io;
	const char *dir;
	char path[PATH_MAX];
};

/*
 * Set @o->ts: @timestamp (exactly 14 digits YYYYMMDDhhmmss), or the local
 * time now when NULL; -EINVAL with a message otherwise.
 */
int npa_out_timestamp(struct npa_out *o, const char *timestamp);

/* the output folder as messages name it */
static inline const char *npa_out_dir(const struct npa_out *o)
{
	return o->dir ? o->dir : NPF_OUTPUT_DIR;
}

/*
 * Start the writer thread: full buffers are written by it while the next
 * one is formatted (formatting and the kernel's copy overlap). Without a
 * thread (it cannot be created) files are written synchronously.
 */
void npa_io_start(struct npa_out *o);
/* wait for every queued write and stop the thread */
void npa_io_stop(struct npa_out *o);

/**
 * struct npa_file - a buffered output file under a temporary name
 * @fd: -1 when closed.
 * @tmp: its temporary name in the output folder.
 * @buf: the buffer being filled (NPA_BUF_SIZE bytes), one of @bufs.
 * @len: bytes in @buf.
 * @bufs: two buffers: one filled while the writer thread writes the other.
 * @cur: the index of @buf in @bufs.
 * @busy: a write of @bufs[i] is queued or running (under the io lock).
 */
struct npa_file {
	int fd;
	char tmp[96];
	char *buf;
	size_t len;
	char *bufs[2];
	unsigned int cur;
	bool busy[2];
};

void npa_file_init(struct npa_file *f);
int npa_file_open(struct npa_out *o, struct npa_file *f, const char *tmp);
int npa_file_flush(struct npa_out *o, struct npa_file *f);
int npa_file_close(struct npa_out *o, struct npa_file *f);
/* rename the closed file to @final */
int npa_file_commit(struct npa_out *o, struct npa_file *f, const char *final);
/* close it (if open) and remove the temporary file */
void npa_file_discard(struct npa_out *o, struct npa_file *f);
void npa_file_free(struct npa_file *f);

/* Make room for @n more bytes; *cur is where to write. */
static inline int npa_file_reserve(struct npa_out *o, struct npa_file *f, size_t n, char **cur)
{
	int rc = 0;

	if (NPA_BUF_SIZE - f->len < n)
		rc = npa_file_flush(o, f);
	*cur = f->buf + f->len;
	return rc;
}

static inline void npa_file_advance(struct npa_file *f, char *cur)
{
	f->len = (size_t)(cur - f->buf);
}

/**
 * struct npa_csv - one CSV, sliced every npa_out.slice_rows rows
 * @base: "op_summary": base_{ts}.csv or base_slice_{i}_{ts}.csv.
 * @header: the header line, without the newline (owned).
 * @rows: data rows in the current slice.
 * @rows_total: data rows written.
 * @nfiles: slices opened.
 * @f: the current slice.
 */
struct npa_csv {
	const char *base;
	char *header;
	uint64_t rows;
	uint64_t rows_total;
	unsigned int nfiles;
	struct npa_file f;
};

void npa_csv_init(struct npa_csv *c, const char *base);
/* set the header (copied); only before the first row */
int npa_csv_set_header(struct npa_out *o, struct npa_csv *c, const char *header);
/* start a row (a new slice when the current one is full); *cur: where to write */
int npa_csv_begin(struct npa_out *o, struct npa_csv *c, char **cur);

static inline void npa_csv_end(struct npa_csv *c, char *cur)
{
	*cur++ = '\n';
	npa_file_advance(&c->f, cur);
	c->rows++;
	c->rows_total++;
}

int npa_csv_close(struct npa_out *o, struct npa_csv *c);
/* rename the slices to their final names (after npa_csv_close()) */
int npa_csv_commit(struct npa_out *o, struct npa_csv *c);
void npa_csv_discard(struct npa_out *o, struct npa_csv *c);
void npa_csv_free(struct npa_csv *c);
/* the final name of slice @i (for messages and README.txt) */
void npa_csv_name_of(const struct npa_out *o, const struct npa_csv *c, unsigned int i, char *buf,
		     size_t len);

/* ---- the output folder (output_folder.c) ---- */

/* The header lines of the CSVs both layouts write alike (as msprof does). */
#define NPA_HDR_TASK_TIME                                      \
	"Device_id,kernel_name,kernel_type,stream_id,task_id," \
	"task_time(us),task_start(us),task_stop(us)"
#define NPA_HDR_OP_STAT                                     \
	"Device_id,OP Type,Core Type,Count,Total Time(us)," \
	"Min Time(us),Avg Time(us),Max Time(us),Ratio(%)"
#define NPA_HDR_API_STAT                                   \
	"Device_id,Level,API Name,Time(us),Count,Avg(us)," \
	"Min(us),Max(us),Variance"
#define NPA_HDR_AICPU                                                    \
	"Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us)," \
	"Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID"

/**
 * struct npa_outputs - the files of one export, committed or discarded together
 * @csv: the CSVs, in the order they are committed.
 * @n: entries of @csv.
 * @timeline: msprof_{ts}.json.
 * @readme: README.txt.
 */
struct npa_outputs {
	struct npa_csv *csv[8];
	unsigned int n;
	struct npa_file *timeline;
	struct npa_file *readme;
};

/*
 * The life of @o over one export: npa_out_init() (no folder yet, the {ts}
 * of the names from @opts); npa_out_open(), which makes (if needed) and
 * opens @prof/mindstudio_profiler_output and starts the writer thread;
 * npa_out_end() once the export returned @rc: on failure every file of @f
 * is removed, then the thread is stopped, the folder closed and the
 * files' buffers freed.
 */
int npa_out_init(struct npa_out *o, const struct npuprof_export_opts *opts,
		 struct npuprof_error *err);
int npa_out_open(struct npa_out *o, const char *prof);
void npa_out_end(struct npa_out *o, const struct npa_outputs *f, int rc);
/*
 * Open README.txt and write its first part: @intro, the names of the
 * slices of @csvs (@n of them, in this order), msprof_{ts}.json, and the
 * "Data loss:" heading, which the caller follows with its lines.
 */
int npa_readme_begin(struct npa_out *o, struct npa_file *readme, const char *intro,
		     struct npa_csv *const *csvs, unsigned int n);
/* rename every file of @f to its final name (after they are closed) */
int npa_out_commit(struct npa_out *o, const struct npa_outputs *f);

#endif /* NPA_OUTPUT_H */
