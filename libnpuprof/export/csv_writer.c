// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof export: text formatting and the output files.
 *
 * Numbers are formatted by hand (never printf, never through double):
 * microseconds with 3 decimals come from integer nanoseconds, ratios and
 * bandwidths from integer thousandths computed by the callers.
 *
 * Every output file is written under a temporary name in the output folder
 * (".npuprof-{pid}-{base}-{i}.tmp") and renamed to its final name only
 * when the whole export has succeeded; on failure the temporary files are
 * removed, so no partial file is ever left under a final name.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "export/output.h"

void npa_warn(struct npa_warn *w, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	w->count++;
	if (w->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	npx_print(NPUPROF_WARN, "npuprof: warning: %s\n", msg);
}

int npa_out_timestamp(struct npa_out *o, const char *timestamp)
{
	if (timestamp) {
		size_t n = strlen(timestamp);

		for (size_t i = 0; i < n; i++)
			if (timestamp[i] < '0' || timestamp[i] > '9')
				n = 0;
		if (n != 14)
			return npx_set_error(o->err, -EINVAL,
					     "timestamp \"%.32s\": 14 digits YYYYMMDDhhmmss"
					     " expected",
					     timestamp);
		memcpy(o->ts, timestamp, 15);
	} else {
		time_t now = time(NULL);
		struct tm tm;

		if (!localtime_r(&now, &tm) ||
		    strftime(o->ts, sizeof(o->ts), "%Y%m%d%H%M%S", &tm) != 14)
			return npx_set_error(o->err, -EINVAL, "cannot format the local time");
	}
	return 0;
}

const char npa_digits2[201] = "00010203040506070809"
			      "10111213141516171819"
			      "20212223242526272829"
			      "30313233343536373839"
			      "40414243444546474849"
			      "50515253545556575859"
			      "60616263646566676869"
			      "70717273747576777879"
			      "80818283848586878889"
			      "90919293949596979899";

#define NPA_E19 10000000000000000000ULL

char *npa_fmt_u128(char *p, npa_u128 v)
{
	uint64_t lo;
	char tmp[20], *e;
	size_t n;

	if (!(v >> 64))
		return npa_fmt_u64(p, (uint64_t)v);
	p = npa_fmt_u128(p, v / NPA_E19);
	lo = (uint64_t)(v % NPA_E19);
	/* the low part, zero-padded to 19 digits */
	e = npa_fmt_u64(tmp, lo);
	n = (size_t)(e - tmp);
	memset(p, '0', 19 - n);
	memcpy(p + 19 - n, tmp, n);
	return p + 19;
}

char *npa_fmt_milli128(char *p, npa_u128 v)
{
	unsigned int frac = (unsigned int)(v % 1000);

	p = npa_fmt_u128(p, v / 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, npa_digits2 + 2 * (frac % 100), 2);
	return p + 4;
}

/* ---- the writer thread ---- */

#define NPA_IO_QUEUE 64 /* > 2 buffers x the files open at once */

/**
 * struct npa_io_req - one buffer to write
 * @fd: the file.
 * @buf: the data.
 * @len: its size.
 * @busy: cleared (under the lock) once written.
 * @name: the file's temporary name (stable while @busy).
 */
struct npa_io_req {
	int fd;
	const char *buf;
	size_t len;
	bool *busy;
	const char *name;
};

/**
 * struct npa_io - the writer thread of one export
 * @thread: it.
 * @lock: protects everything below and struct npa_file.busy.
 * @work: a request was queued, or @stop set.
 * @done: a request was written.
 * @q: the queue (FIFO: a file's buffers are written in order).
 * @head: its first entry.
 * @n: its entries.
 * @stop: leave once the queue is empty.
 * @error: the first write error (-errno); later requests are dropped.
 * @error_file: the file it happened on.
 */
struct npa_io {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work;
	pthread_cond_t done;
	struct npa_io_req q[NPA_IO_QUEUE];
	unsigned int head;
	unsigned int n;
	bool stop;
	int error;
	char error_file[96];
};

static int npa_write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

static void *npa_io_main(void *arg)
{
	struct npa_io *io = arg;

	pthread_mutex_lock(&io->lock);
	for (;;) {
		struct npa_io_req r;
		int rc = 0;

		while (!io->n && !io->stop)
			pthread_cond_wait(&io->work, &io->lock);
		if (!io->n)
			break;
		r = io->q[io->head];
		io->head = (io->head + 1) % NPA_IO_QUEUE;
		io->n--;
		if (!io->error) {
			pthread_mutex_unlock(&io->lock);
			rc = npa_write_all(r.fd, r.buf, r.len);
			pthread_mutex_lock(&io->lock);
		}
		if (rc && !io->error) {
			io->error = rc;
			snprintf(io->error_file, sizeof(io->error_file), "%s", r.name);
		}
		*r.busy = false;
		pthread_cond_broadcast(&io->done);
	}
	pthread_mutex_unlock(&io->lock);
	return NULL;
}

void npa_io_start(struct npa_out *o)
{
	struct npa_io *io = calloc(1, sizeof(*io));

	o->io = NULL;
	if (!io)
		return;
	pthread_mutex_init(&io->lock, NULL);
	pthread_cond_init(&io->work, NULL);
	pthread_cond_init(&io->done, NULL);
	if (pthread_create(&io->thread, NULL, npa_io_main, io)) {
		pthread_cond_destroy(&io->done);
		pthread_cond_destroy(&io->work);
		pthread_mutex_destroy(&io->lock);
		free(io);
		return;
	}
	o->io = io;
}

void npa_io_stop(struct npa_out *o)
{
	struct npa_io *io = o->io;

	if (!io)
		return;
	pthread_mutex_lock(&io->lock);
	io->stop = true;
	pthread_cond_signal(&io->work);
	pthread_mutex_unlock(&io->lock);
	pthread_join(io->thread, NULL);
	pthread_cond_destroy(&io->done);
	pthread_cond_destroy(&io->work);
	pthread_mutex_destroy(&io->lock);
	free(io);
	o->io = NULL;
}

static int npa_io_error(struct npa_out *o, int e, const char *name)
{
	return npx_set_error(o->err, e, "%s/%s: write: %s", npa_out_dir(o), name, strerror(-e));
}

/* Wait until no write of @f is queued or running; the first write error. */
static int npa_file_wait(struct npa_out *o, struct npa_file *f)
{
	struct npa_io *io = o->io;
	char name[96];
	int e;

	if (!io)
		return 0;
	pthread_mutex_lock(&io->lock);
	while (f->busy[0] || f->busy[1])
		pthread_cond_wait(&io->done, &io->lock);
	e = io->error;
	memcpy(name, io->error_file, sizeof(name));
	pthread_mutex_unlock(&io->lock);
	return e ? npa_io_error(o, e, name) : 0;
}

/* ---- files ---- */

void npa_file_init(struct npa_file *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

int npa_file_open(struct npa_out *o, struct npa_file *f, const char *tmp)
{
	unsigned int i, nbuf = o->io ? 2 : 1;

	for (i = 0; i < nbuf; i++) {
		if (f->bufs[i])
			continue;
		f->bufs[i] = malloc(NPA_BUF_SIZE);
		if (!f->bufs[i])
			return npx_set_error(o->err, -ENOMEM, "out of memory");
	}
	f->cur = 0;
	f->buf = f->bufs[0];
	snprintf(f->tmp, sizeof(f->tmp), "%s", tmp);
	f->len = 0;
	f->fd = openat(o->dfd, f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		int e = errno;

		f->tmp[0] = '\0';
		return npx_set_error(o->err, -e, "%s/%s: %s", npa_out_dir(o), tmp, strerror(e));
	}
	return 0;
}

int npa_file_flush(struct npa_out *o, struct npa_file *f)
{
	struct npa_io *io = o->io;
	unsigned int other = f->cur ^ 1;
	char name[96];
	int e;

	if (!f->len)
		return 0;
	if (!io) {
		e = npa_write_all(f->fd, f->buf, f->len);
		if (e)
			return npa_io_error(o, e, f->tmp);
		f->len = 0;
		return 0;
	}
	pthread_mutex_lock(&io->lock);
	while (io->n == NPA_IO_QUEUE)
		pthread_cond_wait(&io->done, &io->lock);
	f->busy[f->cur] = true;
	io->q[(io->head + io->n) % NPA_IO_QUEUE] = (struct npa_io_req){
		.fd = f->fd, .buf = f->buf, .len = f->len, .busy = &f->busy[f->cur], .name = f->tmp
	};
	io->n++;
	pthread_cond_signal(&io->work);
	/* the other buffer is filled next: its write must be over */
	while (f->busy[other])
		pthread_cond_wait(&io->done, &io->lock);
	e = io->error;
	memcpy(name, io->error_file, sizeof(name));
	pthread_mutex_unlock(&io->lock);
	if (e)
		return npa_io_error(o, e, name);
	f->cur = other;
	f->buf = f->bufs[other];
	f->len = 0;
	return 0;
}

int npa_file_close(struct npa_out *o, struct npa_file *f)
{
	int rc;

	if (f->fd < 0)
		return 0;
	rc = npa_file_flush(o, f);
	if (!rc)
		rc = npa_file_wait(o, f);
	else
		npa_file_wait(o, f);
	if (close(f->fd) && !rc)
		rc = npx_set_error(o->err, -errno, "%s/%s: close: %s", npa_out_dir(o), f->tmp,
				   strerror(errno));
	f->fd = -1;
	return rc;
}

int npa_file_commit(struct npa_out *o, struct npa_file *f, const char *final)
{
	if (!f->tmp[0])
		return 0;
	if (renameat(o->dfd, f->tmp, o->dfd, final))
		return npx_set_error(o->err, -errno, "%s/%s: rename to %s: %s", npa_out_dir(o),
				     f->tmp, final, strerror(errno));
	f->tmp[0] = '\0';
	return 0;
}

void npa_file_discard(struct npa_out *o, struct npa_file *f)
{
	npa_file_wait(o, f);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->len = 0;
	if (f->tmp[0])
		unlinkat(o->dfd, f->tmp, 0);
	f->tmp[0] = '\0';
}

void npa_file_free(struct npa_file *f)
{
	free(f->bufs[0]);
	free(f->bufs[1]);
	f->bufs[0] = f->bufs[1] = f->buf = NULL;
}

/* ---- sliced CSVs ---- */

void npa_csv_init(struct npa_csv *c, const char *base)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	npa_file_init(&c->f);
}

int npa_csv_set_header(struct npa_out *o, struct npa_csv *c, const char *header)
{
	char *h = strdup(header);

	if (!h)
		return npx_set_error(o->err, -ENOMEM, "out of memory");
	free(c->header);
	c->header = h;
	return 0;
}

static void npa_csv_tmp(const struct npa_out *o, const struct npa_csv *c, unsigned int i, char *buf,
			size_t len)
{
	snprintf(buf, len, ".npuprof-%ld-%s-%u.tmp", o->pid, c->base, i);
}

void npa_csv_name_of(const struct npa_out *o, const struct npa_csv *c, unsigned int i, char *buf,
		     size_t len)
{
	if (c->nfiles <= 1)
		snprintf(buf, len, "%s_%s.csv", c->base, o->ts);
	else
		snprintf(buf, len, "%s_slice_%u_%s.csv", c->base, i, o->ts);
}

/* Close the current slice (keeping its temporary file) and open the next. */
static int npa_csv_next_slice(struct npa_out *o, struct npa_csv *c)
{
	char tmp[96];
	char *cur;
	size_t n = strlen(c->header);
	int rc;

	rc = npa_file_close(o, &c->f);
	if (rc)
		return rc;
	npa_csv_tmp(o, c, c->nfiles, tmp, sizeof(tmp));
	rc = npa_file_open(o, &c->f, tmp);
	if (rc)
		return rc;
	c->nfiles++;
	c->rows = 0;
	/* the header may be longer than the buffer: write it through */
	if (n + 1 > NPA_BUF_SIZE)
		return npx_set_error(o->err, -EINVAL, "%s: header too long", c->base);
	npa_file_reserve(o, &c->f, n + 1, &cur);
	memcpy(cur, c->header, n);
	cur[n] = '\n';
	npa_file_advance(&c->f, cur + n + 1);
	return 0;
}

int npa_csv_begin(struct npa_out *o, struct npa_csv *c, char **cur)
{
	int rc;

	if (c->f.fd < 0 || c->rows >= o->slice_rows) {
		rc = npa_csv_next_slice(o, c);
		if (rc)
			return rc;
	}
	return npa_file_reserve(o, &c->f, NPA_ROW_MAX, cur);
}

int npa_csv_close(struct npa_out *o, struct npa_csv *c)
{
	return npa_file_close(o, &c->f);
}

int npa_csv_commit(struct npa_out *o, struct npa_csv *c)
{
	char tmp[96], final[128];
	unsigned int i;

	for (i = 0; i < c->nfiles; i++) {
		npa_csv_tmp(o, c, i, tmp, sizeof(tmp));
		npa_csv_name_of(o, c, i, final, sizeof(final));
		if (renameat(o->dfd, tmp, o->dfd, final))
			return npx_set_error(o->err, -errno, "%s/%s: rename to %s: %s",
					     npa_out_dir(o), tmp, final, strerror(errno));
	}
	c->f.tmp[0] = '\0';
	return 0;
}

void npa_csv_discard(struct npa_out *o, struct npa_csv *c)
{
	char tmp[96];
	unsigned int i;

	npa_file_discard(o, &c->f);
	for (i = 0; i < c->nfiles; i++) {
		npa_csv_tmp(o, c, i, tmp, sizeof(tmp));
		unlinkat(o->dfd, tmp, 0);
	}
	c->nfiles = 0;
}

void npa_csv_free(struct npa_csv *c)
{
	npa_file_free(&c->f);
	free(c->header);
	c->header = NULL;
}
