// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the host sink (hostrec/hostrec.h): where the records of the
 * runtime's calls (host_records.c) are buffered, under one process-wide
 * lock, and how they reach the files of host/data: a slice per kind, as
 * msprof's, written by the collector's thread without the lock; what
 * could not be buffered or written is counted for the loss report.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hostrec/hostrec.h"
#include "hostrec/sink.h"

#define FLUSH_BYTES (256u << 10) /* wake the writer at this much buffered */
#define MAX_BUFFERED (64u << 20) /* per kind; beyond, records are dropped and counted */

/* The files of each record kind. */
static const struct {
	const char *prefix; /* + slice number */
	uint32_t rec_size; /* 0: text lines, counted in bytes */
	const char *name; /* in the loss report */
} kinds[NPH_K_COUNT] = {
#define UNAGING(group, kind) "unaging." group kind ".slice_"
	[NPH_K_API] = { UNAGING("", NPF_RAW_API_EVENT), sizeof(struct cann_api_event),
			"api_event" },
	[NPH_K_NODE] = { UNAGING(NPF_RAW_COMPACT, NPF_RAW_NODE_BASIC_INFO),
			 sizeof(struct cann_node_basic_info), NPF_RAW_NODE_BASIC_INFO },
	[NPH_K_NODE_AGING] = { "aging." NPF_RAW_COMPACT NPF_RAW_NODE_BASIC_INFO ".slice_",
			       sizeof(struct cann_node_basic_info),
			       "aging." NPF_RAW_NODE_BASIC_INFO },
	[NPH_K_TENSOR] = { UNAGING(NPF_RAW_ADDITIONAL, NPF_RAW_TENSOR_INFO),
			   sizeof(struct cann_tensor_info), NPF_RAW_TENSOR_INFO },
	[NPH_K_CTX_ID] = { UNAGING(NPF_RAW_ADDITIONAL, NPF_RAW_CONTEXT_ID_INFO),
			   sizeof(struct cann_context_id_info), NPF_RAW_CONTEXT_ID_INFO },
	[NPH_K_TRACK] = { UNAGING(NPF_RAW_COMPACT, NPF_RAW_TASK_TRACK),
			  sizeof(struct cann_task_track), NPF_RAW_TASK_TRACK },
	[NPH_K_HCCL_OP] = { UNAGING(NPF_RAW_COMPACT, NPF_RAW_HCCL_OP_INFO),
			    sizeof(struct cann_hccl_op_info), NPF_RAW_HCCL_OP_INFO },
	[NPH_K_HCCL_INFO] = { UNAGING(NPF_RAW_ADDITIONAL, NPF_RAW_HCCL_INFO),
			      sizeof(struct cann_hccl_info), NPF_RAW_HCCL_INFO },
	[NPH_K_HASH] = { UNAGING(NPF_RAW_ADDITIONAL, NPF_RAW_HASH_DIC), 0, NPF_RAW_HASH_DIC },
	[NPH_K_TYPE] = { UNAGING(NPF_RAW_ADDITIONAL, NPF_RAW_TYPE_INFO_DIC), 0,
			 NPF_RAW_TYPE_INFO_DIC },
#undef UNAGING
};

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nph_sink *host_sink;
static atomic_bool nph_sink_on;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/*
 * The calling thread's id, asked of the kernel once per thread: a gettid
 * syscall per record was a third of what an L0 record cost. Per thread,
 * not global; a fork's child (whose one thread is the one that forked)
 * asks again.
 */
static __thread uint32_t cached_tid;

uint32_t nph_this_tid(void)
{
	if (!cached_tid)
		cached_tid = (uint32_t)syscall(SYS_gettid);
	return cached_tid;
}

/*
 * A child of fork() records nothing into its parent's sink (whose files and
 * writer are the parent's); the lock may have been held by another thread
 * of the parent at the fork, so it starts anew.
 */
static void atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	cached_tid = 0;
	host_lock = fresh;
	host_sink = NULL;
	atomic_store(&nph_sink_on, 0);
}

static void atfork_register(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

/* ---- buffering (under host_lock) ---- */

/* Room for @n more bytes of kind @k, or NULL (counted as dropped). */
void *nph_reserve(struct nph_sink *s, enum nph_kind k, size_t n)
{
	struct nph_buf *b = &s->buf[k];
	void *p;

	s->produced[k] += kinds[k].rec_size ? 1 : n;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64u << 10;

		while (cap < b->n + n)
			cap *= 2;
		p = cap <= MAX_BUFFERED ? realloc(b->p, cap) : NULL;
		if (!p) {
			s->nomem[k] += kinds[k].rec_size ? 1 : n;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	p = b->p + b->n;
	memset(p, 0, n);
	b->n += n;
	s->since_wake += n;
	return p;
}

void nph_append_text(struct nph_sink *s, enum nph_kind k, const char *text)
{
	size_t n = strlen(text);
	char *p = nph_reserve(s, k, n);

	if (p)
		memcpy(p, text, n);
}

/*
 * The hash_dic id of @name, added to hash_dic the first time. Two names
 * with one 64-bit hash would share an entry (the first name); at 2^-64
 * per pair this is not checked.
 */
uint64_t nph_name_hash(struct nph_sink *s, const char *name)
{
	uint64_t h = npx_fnv1a64(name, strlen(name));
	char line[VNPU_OP_NAME_LEN + 32];
	bool added;

	h = h ? h : 1; /* 0 stands for no name in the records */
	if (!npx_hmap_slot(&s->hashes, h, &added)) {
		s->nomem[NPH_K_HASH]++;
		return h;
	}
	if (!added)
		return h;
	snprintf(line, sizeof(line), "%llu:%s\n", (unsigned long long)h, name);
	nph_append_text(s, NPH_K_HASH, line);
	return h;
}

static void maybe_wake(struct nph_sink *s)
{
	/* an eventfd write, never a file write, under the lock */
	if (s->since_wake >= FLUSH_BYTES && s->wake) {
		s->since_wake = 0;
		s->wake(s->wake_arg);
	}
}

/* ---- the records' side ---- */

bool nph_recording(void)
{
	return atomic_load_explicit(&nph_sink_on, memory_order_relaxed);
}

struct nph_sink *nph_sink_lock(void)
{
	pthread_mutex_lock(&host_lock);
	if (host_sink)
		return host_sink;
	pthread_mutex_unlock(&host_lock);
	return NULL;
}

void nph_sink_unlock(struct nph_sink *s)
{
	maybe_wake(s);
	pthread_mutex_unlock(&host_lock);
}

/* ---- the sink ---- */

static bool open_slice(struct nph_sink *s, enum nph_kind k, unsigned int no);
static void free_sink(struct nph_sink *s);

int nph_sink_create(const char *data_dir, uint32_t level, struct nph_sink **sp,
		    struct npuprof_error *err)
{
	struct nph_sink *s = calloc(1, sizeof(*s));

	*sp = NULL;
	if (!s)
		return npx_set_error(err, -ENOMEM, "out of memory");
	if (snprintf(s->dir, sizeof(s->dir), "%s", data_dir) >= (int)sizeof(s->dir)) {
		free(s);
		return npx_set_error(err, -ENAMETOOLONG, "path too long: %s", data_dir);
	}
	s->level = level;
	for (int k = 0; k < NPH_K_COUNT; k++)
		s->file[k].fd = -1;
	nph_put_type_names(s);
	if (s->nomem[NPH_K_TYPE]) {
		free(s->buf[NPH_K_TYPE].p);
		free(s);
		return npx_set_error(err, -ENOMEM, "out of memory");
	}
	*sp = s;
	return 0;
}

void nph_sink_install(struct nph_sink *s, void (*wake)(void *), void *arg)
{
	pthread_once(&atfork_once, atfork_register);
	pthread_mutex_lock(&host_lock);
	s->wake = wake;
	s->wake_arg = arg;
	s->hashes = (struct npx_hmap)NPX_HMAP_INIT(npx_hmap_hash_u64, npx_hmap_equal_u64, NULL);
	host_sink = s;
	atomic_store(&nph_sink_on, 1);
	pthread_mutex_unlock(&host_lock);
}

void nph_sink_uninstall(struct nph_sink *s)
{
	pthread_mutex_lock(&host_lock);
	if (host_sink == s) {
		host_sink = NULL;
		atomic_store(&nph_sink_on, 0);
	}
	pthread_mutex_unlock(&host_lock);
}

static void write_failed(struct nph_sink *s, struct nph_kind_file *f, int error)
{
	s->error = error;
	snprintf(s->error_path, sizeof(s->error_path), "%s", f->path);
	/* keep whole records: if this fails too, the readers ignore a cut record */
	if (f->fd >= 0 && !ftruncate(f->fd, (off_t)f->bytes))
		lseek(f->fd, (off_t)f->bytes, SEEK_SET);
}

/* Open slice @no of kind @k; false (and the error set) on failure. */
static bool open_slice(struct nph_sink *s, enum nph_kind k, unsigned int no)
{
	struct nph_kind_file *f = &s->file[k];
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s%u", s->dir, kinds[k].prefix, no);
	int fd;

	memcpy(f->path, path, sizeof(path));
	if (n < 0 || n >= (int)sizeof(path)) {
		write_failed(s, f, -ENAMETOOLONG);
		return false;
	}
	fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		f->fd = -1;
		write_failed(s, f, -errno);
		return false;
	}
	if (f->fd >= 0 && close(f->fd) && !s->error) {
		f->fd = fd;
		write_failed(s, f, -errno);
		return false;
	}
	f->fd = fd;
	f->slice = no;
	f->bytes = 0;
	return true;
}

/* Records of kind @k not written: @n bytes. */
static void count_dropped(struct nph_sink *s, enum nph_kind k, size_t n)
{
	s->dropped[k] += kinds[k].rec_size ? n / kinds[k].rec_size : n;
}

static void count_written(struct nph_sink *s, enum nph_kind k, size_t n)
{
	s->written[k] += kinds[k].rec_size ? n / kinds[k].rec_size : n;
}

/* Write @n bytes of kind @k: whole records per slice, slices of at most 64 MiB. */
static void write_kind(struct nph_sink *s, enum nph_kind k, const unsigned char *p, size_t n)
{
	struct nph_kind_file *f = &s->file[k];
	uint32_t rs = kinds[k].rec_size;
	uint64_t limit = rs ? NPF_RAW_ROTATE_BYTES / rs * rs : UINT64_MAX;

	while (n && !s->error) {
		size_t chunk = n, done;
		int ret;

		if (f->fd < 0 && !open_slice(s, k, 0))
			break;
		if (f->bytes >= limit && !open_slice(s, k, f->slice + 1))
			break;
		if (chunk > limit - f->bytes)
			chunk = (size_t)(limit - f->bytes);
		ret = npx_write_at(f->fd, p, chunk, -1, &done);
		if (ret) {
			done = rs ? done / rs * rs : done;
			count_written(s, k, done);
			f->bytes += done;
			p += done;
			n -= done;
			write_failed(s, f, ret);
			break;
		}
		count_written(s, k, chunk);
		f->bytes += chunk;
		p += chunk;
		n -= chunk;
	}
	count_dropped(s, k, n);
}

void nph_sink_flush(struct nph_sink *s)
{
	struct nph_buf out[NPH_K_COUNT];

	pthread_mutex_lock(&host_lock);
	for (int k = 0; k < NPH_K_COUNT; k++) {
		out[k] = s->buf[k];
		s->buf[k] = s->spare[k];
		s->buf[k].n = 0;
	}
	s->since_wake = 0;
	pthread_mutex_unlock(&host_lock);
	for (int k = 0; k < NPH_K_COUNT; k++) {
		if (out[k].n)
			write_kind(s, (enum nph_kind)k, out[k].p, out[k].n);
		s->spare[k] = out[k];
		s->spare[k].n = 0;
	}
}

/* Is the file of @fd removed from the tree (while we wrote it)? */
static bool removed(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) && st.st_nlink == 0;
}

static void free_sink(struct nph_sink *s)
{
	for (int k = 0; k < NPH_K_COUNT; k++) {
		free(s->buf[k].p);
		free(s->spare[k].p);
	}
	for (int d = 0; d < VNPU_MAX_DEVICES; d++)
		free(s->epoch[d]);
	npx_hmap_free(&s->hashes);
	free(s->aclnn);
	free(s);
}

int nph_sink_close(struct nph_sink *s, const char *loss_dir, int ret, struct npuprof_error *err)
{
	struct npf_loss loss[NPH_K_COUNT];
	struct npuprof_error e;
	const char *gone = NULL;
	uint64_t dropped = 0, nomem = 0;
	unsigned int n = 0;
	int code = 0;

	nph_sink_uninstall(s);
	nph_sink_flush(s);
	for (int k = 0; k < NPH_K_COUNT; k++) {
		if (!gone && removed(s->file[k].fd))
			gone = s->file[k].path;
		if (s->file[k].fd >= 0 && close(s->file[k].fd) && !s->error) {
			s->error = -errno;
			snprintf(s->error_path, sizeof(s->error_path), "%s", s->file[k].path);
		}
		s->file[k].fd = -1;
		dropped += s->dropped[k];
		nomem += s->nomem[k];
		if (s->produced[k])
			loss[n++] = (struct npf_loss){
				.channel = kinds[k].name,
				.rec_size = kinds[k].rec_size,
				.produced = s->produced[k],
				.lost = s->nomem[k],
				.written = s->written[k],
				.not_written = s->dropped[k],
			};
	}
	if (s->error) {
		code = s->error;
		npx_set_error(&e, code, "%s: %s (%llu host records not written)", s->error_path,
			      strerror(-code), (unsigned long long)(dropped + nomem));
	} else if (nomem) {
		code = -ENOMEM;
		npx_set_error(&e, code, "%s: %s (%llu host records not written)", s->dir,
			      strerror(ENOMEM), (unsigned long long)nomem);
	} else if (gone) {
		code = -ENOENT;
		npx_set_error(&e, code, "%s: removed during the run: %s", gone, strerror(ENOENT));
	}
	/* the counts, in the room reserved at the start */
	if (loss_dir && npf_write_loss(loss_dir, loss, n, code ? NULL : &e) && !code)
		code = e.code;
	if (code) {
		if (!ret) {
			if (err)
				*err = e;
			ret = code;
		} else {
			npx_print(NPUPROF_ERROR, "npuprof: error: %s\n", e.msg);
		}
	}
	free_sink(s);
	return ret;
}

void nph_sink_forget(struct nph_sink *s)
{
	for (int k = 0; k < NPH_K_COUNT; k++)
		if (s->file[k].fd >= 0)
			close(s->file[k].fd);
	free_sink(s);
}
