// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the collector - one PROF_* folder, one profiling session per
 * device, and a background thread that drains every ring into raw files
 * as records arrive, so that nothing drained is lost if the workload dies
 * (the raw layout is in raw_format.h and docs/output.md).
 *
 * The reader follows the ring's barrier contract (uapi/vnpu_prof.h):
 * load-acquire producer_pos, write the bytes, store-release consumer_pos.
 * The data pages are mapped twice, so [consumer, producer) is contiguous
 * and goes to the file with one write() straight from the mapping.
 *
 * Host API records (api_statistic) are appended by the runtime to an
 * in-memory buffer under a lock and written by the same thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "npuprof_internal.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define POLL_MS 100
#define COLLECT_RING_PAGES_L0 1024 /* 4 MiB */
#define COLLECT_RING_PAGES_L1 2048 /* 8 MiB */
#define API_FLUSH_RECS 4096

/**
 * struct dev_collect - one device's session and raw files
 * @dev_id: the N of /dev/vnpuN.
 * @fd: our own descriptor of the device (owns the session).
 * @map: the ring, read-only, @map_size bytes.
 * @cons: the consumer page, read-write.
 * @ctrl: the control page.
 * @data: the data area (twice).
 * @pos: our consumer position.
 * @dir: device_N/data.
 * @out: the current vnpu.rec.NNNN.
 * @file_no: NNNN.
 * @file_bytes: bytes in @out.
 * @bytes: bytes collected.
 * @error: the first write error (negative errno), then nothing is written.
 * @done: stopped and drained.
 */
struct dev_collect {
	unsigned int dev_id;
	int fd;
	void *map;
	size_t map_size;
	struct vnpu_ring_cons *cons;
	const struct vnpu_ring_ctrl *ctrl;
	const unsigned char *data;
	uint64_t pos;
	char dir[PATH_MAX];
	int out;
	unsigned int file_no;
	uint64_t file_bytes;
	uint64_t bytes;
	int error;
	int done;
};

struct npuprof_collector {
	char dir[PATH_MAX];
	struct npuprof_collect_opts opts;
	pthread_mutex_t lock; /* devs, ndev, api buffer */
	struct dev_collect devs[VNPU_MAX_DEVICES];
	unsigned int ndev;
	int wake_fd;
	pthread_t thread;
	int thread_started;
	atomic_int stopping;
	struct npuprof_api_rec *api;
	size_t api_n, api_cap;
	int api_out;
	int api_error;
};

/* The collector host API records go to; at most one per process. */
static _Atomic(struct npuprof_collector *) api_sink;
/* PROF_NNNNNN: sessions of this process, from 1. */
static atomic_uint prof_index;

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_file(const char *path, const void *buf, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, buf, n);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* snprintf into a PATH_MAX buffer; -1 with errno ENAMETOOLONG if cut. */
static int pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int open_seq_file(const char *dir, const char *prefix, unsigned int no)
{
	char path[PATH_MAX];

	if (pathf(path, "%s/%s" NPUPROF_RAW_SEQ_FMT, dir, prefix, no))
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/* PROF_{6 digits}_{YYYYMMDDhhmmssmmm}_{16 x [A-Z0-9]} */
static int make_prof_name(char *buf, size_t len)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[16];
	char word[17];
	struct timespec ts;
	struct tm tm;
	int fd;

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (read(fd, rnd, sizeof(rnd)) != sizeof(rnd)) {
		close(fd);
		return -EIO;
	}
	close(fd);
	for (int i = 0; i < 16; i++)
		word[i] = alnum[rnd[i] % (sizeof(alnum) - 1)];
	word[16] = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "PROF_%06u_%04d%02d%02d%02d%02d%02d%03ld_%s",
		 atomic_fetch_add(&prof_index, 1) + 1, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, word);
	return 0;
}

static int mkdirf(struct npuprof_error *err, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int mkdirf(struct npuprof_error *err, char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return npuprof_set_error(err, -ENAMETOOLONG, "path too long: %s", out);
	if (mkdir(out, 0755) && errno != EEXIST)
		return npuprof_set_error(err, -errno, "cannot create %s: %s", out, strerror(errno));
	return 0;
}

int npuprof_collector_create(const struct npuprof_collect_opts *opts, struct npuprof_collector **cp,
			     struct npuprof_error *err)
{
	struct npuprof_collector *c;
	char name[96], host[PATH_MAX], data[PATH_MAX];
	int ret;

	*cp = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return npuprof_set_error(err, -ENOMEM, "out of memory");
	c->opts = *opts;
	c->api_out = -1;
	c->wake_fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	for (int i = 0; i < VNPU_MAX_DEVICES; i++)
		c->devs[i].fd = c->devs[i].out = -1;

	ret = make_prof_name(name, sizeof(name));
	if (ret) {
		npuprof_set_error(err, ret, "cannot read /dev/urandom: %s", strerror(-ret));
		goto err_free;
	}
	ret = mkdirf(err, c->dir, sizeof(c->dir), "%s/%s", opts->output_dir, name);
	if (!ret)
		ret = mkdirf(err, host, sizeof(host), "%s/" NPUPROF_RAW_HOST_DIR, c->dir);
	if (!ret)
		ret = mkdirf(err, data, sizeof(data), "%s/" NPUPROF_RAW_DATA_DIR, host);
	if (ret)
		goto err_free;
	c->api_out = open_seq_file(data, NPUPROF_RAW_API_PREFIX, 0);
	if (c->api_out < 0) {
		ret = npuprof_set_error(err, -errno,
					"cannot create %s/" NPUPROF_RAW_API_PREFIX "0000: %s", data,
					strerror(errno));
		goto err_free;
	}
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake_fd < 0) {
		ret = npuprof_set_error(err, -errno, "eventfd: %s", strerror(errno));
		goto err_free;
	}
	atomic_store(&api_sink, c);
	*cp = c;
	return 0;

err_free:
	if (c->api_out >= 0)
		close(c->api_out);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ret;
}

const char *npuprof_collector_dir(const struct npuprof_collector *c)
{
	return c->dir;
}

/* ---- host API records ---- */

static void api_flush_locked(struct npuprof_collector *c)
{
	int ret;

	if (!c->api_n)
		return;
	if (!c->api_error) {
		ret = write_all(c->api_out, c->api, c->api_n * sizeof(*c->api));
		if (ret)
			c->api_error = ret;
	}
	c->api_n = 0;
}

void npuprof_api_record(enum npuprof_api_id api, uint64_t start_ns)
{
	struct npuprof_collector *c = atomic_load_explicit(&api_sink, memory_order_acquire);
	struct npuprof_api_rec *r;

	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	if (c->api_n == c->api_cap) {
		size_t cap = c->api_cap ? 2 * c->api_cap : 1024;
		void *p = realloc(c->api, cap * sizeof(*c->api));

		if (!p) {
			pthread_mutex_unlock(&c->lock);
			return;
		}
		c->api = p;
		c->api_cap = cap;
	}
	r = &c->api[c->api_n++];
	memset(r, 0, sizeof(*r));
	r->type = NPUPROF_API_REC_TYPE;
	r->size = sizeof(*r);
	r->api_id = api;
	r->start_ns = start_ns;
	r->end_ns = npuprof_now_ns();
	r->tid = (uint32_t)syscall(SYS_gettid);
	if (c->api_n >= API_FLUSH_RECS)
		api_flush_locked(c);
	pthread_mutex_unlock(&c->lock);
}

/* ---- draining ---- */

/* Bytes of the whole records from @pos that fit in @room (at least one). */
static uint64_t whole_records(const struct dev_collect *d, uint64_t pos, uint64_t end,
			      uint64_t room)
{
	uint64_t n = 0;

	while (pos + n < end) {
		const struct vnpu_rec_hdr *h =
			(const void *)(d->data + vnpu_ring_offset(pos + n, d->ctrl->data_size));

		if (n && n + h->size > room)
			break;
		n += h->size;
	}
	return n;
}

static int rotate(struct dev_collect *d)
{
	if (close(d->out))
		return -errno;
	d->out = open_seq_file(d->dir, NPUPROF_RAW_REC_PREFIX, ++d->file_no);
	d->file_bytes = 0;
	return d->out < 0 ? -errno : 0;
}

/* Move [pos, producer) to the raw files. Returns bytes, or -errno. */
static int64_t drain(struct dev_collect *d)
{
	uint64_t prod = __atomic_load_n(&d->ctrl->producer_pos, __ATOMIC_ACQUIRE);
	uint64_t start = d->pos;

	while (!d->error && d->pos != prod) {
		uint64_t n = prod - d->pos, room = NPUPROF_RAW_ROTATE_BYTES - d->file_bytes;
		const void *src = d->data + vnpu_ring_offset(d->pos, d->ctrl->data_size);
		int ret;

		if (n > room)
			n = whole_records(d, d->pos, prod, room);
		ret = write_all(d->out, src, n);
		if (ret) {
			d->error = ret;
			break;
		}
		d->file_bytes += n;
		d->pos += n;
		d->bytes += n;
		/* pairs with the kernel's load-acquire of consumer_pos */
		__atomic_store_n(&d->cons->consumer_pos, d->pos, __ATOMIC_RELEASE);
		if (d->pos != prod || d->file_bytes >= NPUPROF_RAW_ROTATE_BYTES) {
			ret = rotate(d);
			if (ret)
				d->error = ret;
		}
	}
	if (!d->done && __atomic_load_n(&d->ctrl->stopped, __ATOMIC_ACQUIRE) &&
	    d->pos == __atomic_load_n(&d->ctrl->producer_pos, __ATOMIC_ACQUIRE))
		d->done = 1;
	return d->error ? d->error : (int64_t)(d->pos - start);
}

static void *reader_main(void *arg)
{
	struct npuprof_collector *c = arg;
	struct pollfd pfd[VNPU_MAX_DEVICES + 1];

	for (;;) {
		unsigned int n, all_done = 1;
		uint64_t v;

		pthread_mutex_lock(&c->lock);
		n = c->ndev;
		pfd[0] = (struct pollfd){ .fd = c->wake_fd, .events = POLLIN };
		for (unsigned int i = 0; i < n; i++)
			pfd[i + 1] = (struct pollfd){ .fd = c->devs[i].fd, .events = POLLIN };
		pthread_mutex_unlock(&c->lock);

		poll(pfd, n + 1, POLL_MS);
		if (read(c->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			break;

		/* devs[0..n) do not move while the thread runs */
		for (unsigned int i = 0; i < n; i++) {
			drain(&c->devs[i]);
			all_done &= c->devs[i].done || c->devs[i].error;
		}
		pthread_mutex_lock(&c->lock);
		api_flush_locked(c);
		pthread_mutex_unlock(&c->lock);
		if (atomic_load(&c->stopping) && all_done)
			break;
	}
	return NULL;
}

static void wake(struct npuprof_collector *c)
{
	uint64_t one = 1;

	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		return; /* the counter is full: the thread is awake anyway */
}

/* msprof's device info file; readers take the core counts from it. */
static int write_info_json(const struct dev_collect *d, const char *devdir,
			   const struct vnpu_info *info)
{
	char path[PATH_MAX], buf[1024];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "{\"platform_version\":\"%u\",\"product\":\"%s\",\"DeviceInfo\":[{"
		     "\"id\":%u,\"chip_name\":\"%s\",\"npu_arch\":%u,\"ai_core_num\":%u,"
		     "\"aiv_num\":%u,\"ai_cpu_num\":%u,\"aic_frequency\":\"%u\","
		     "\"aiv_frequency\":\"%u\",\"hwts_frequency\":\"%.3f\","
		     "\"hbm_bandwidth_mbps\":%u}]}\n",
		     info->chip_id, info->product_name, d->dev_id, info->chip_name, info->npu_arch,
		     info->aic_num, info->aiv_num, info->aicpu_num, info->aic_freq_khz / 1000,
		     info->aic_freq_khz / 1000, info->sys_cnt_freq_khz / 1000.0, info->hbm_bw_mbps);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -EOVERFLOW;
	if (pathf(path, "%s/" NPUPROF_RAW_INFO_JSON, devdir, d->dev_id))
		return -errno;
	return write_file(path, buf, (size_t)n);
}

static int map_ring(struct dev_collect *d, const struct vnpu_prof_start *ps)
{
	long page = sysconf(_SC_PAGESIZE);

	d->map_size = ps->mmap_size;
	d->map = mmap(NULL, d->map_size, PROT_READ, MAP_SHARED, d->fd, 0);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		return -errno;
	}
	d->cons = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, page);
	if (d->cons == MAP_FAILED) {
		d->cons = NULL;
		return -errno;
	}
	d->ctrl = d->map;
	if (d->ctrl->magic != VNPU_RING_MAGIC || d->ctrl->compat_version != 1)
		return -EPROTO;
	d->data = (const unsigned char *)d->map + d->ctrl->data_offset;
	d->pos = __atomic_load_n(&d->cons->consumer_pos, __ATOMIC_ACQUIRE);
	return 0;
}

static void dev_close(struct dev_collect *d)
{
	if (d->cons)
		munmap(d->cons, (size_t)sysconf(_SC_PAGESIZE));
	if (d->map)
		munmap(d->map, d->map_size);
	if (d->out >= 0)
		close(d->out);
	if (d->fd >= 0)
		close(d->fd);
	d->cons = NULL;
	d->map = NULL;
	d->out = d->fd = -1;
}

int npuprof_collector_add(struct npuprof_collector *c, unsigned int dev_id,
			  struct npuprof_error *err)
{
	struct vnpu_prof_start ps = { .size = sizeof(ps), .level = c->opts.level };
	struct vnpu_info info = { .size = sizeof(info) };
	char devdir[PATH_MAX], path[32];
	struct dev_collect *d;
	int ret;

	pthread_mutex_lock(&c->lock);
	for (unsigned int i = 0; i < c->ndev; i++) {
		if (c->devs[i].dev_id == dev_id) {
			pthread_mutex_unlock(&c->lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (c->ndev == VNPU_MAX_DEVICES)
		return npuprof_set_error(err, -E2BIG, "more than %u devices", VNPU_MAX_DEVICES);

	d = &c->devs[c->ndev];
	memset(d, 0, sizeof(*d));
	d->out = -1;
	d->dev_id = dev_id;
	snprintf(path, sizeof(path), "/dev/vnpu%u", dev_id);
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return npuprof_set_error(err, -errno, "cannot open %s: %s", path, strerror(errno));
	if (ioctl(d->fd, VNPU_IOC_GET_INFO, &info)) {
		ret = npuprof_set_error(err, -errno, "%s: VNPU_IOC_GET_INFO: %s", path,
					strerror(errno));
		goto err_close;
	}
	if (c->opts.metric_group != VNPU_METRIC_NONE) {
		ps.flags = VNPU_PROF_F_METRIC_GROUP;
		ps.metric_group = c->opts.metric_group;
	}
	/*
	 * L1/L2 write ~10x the bytes of L0 per task: a bigger ring, and a
	 * wakeup at a quarter of it, so that a submitter running flat out does
	 * not fill the rest while the reader writes its share out (bench/scale
	 * lost 4.7% at L1 with 4 MiB woken at half).
	 */
	ps.ring_pages =
		c->opts.level >= VNPU_PROF_L1 ? COLLECT_RING_PAGES_L1 : COLLECT_RING_PAGES_L0;
	ps.wakeup_bytes = ps.ring_pages * (uint32_t)sysconf(_SC_PAGESIZE) / 4;
	if (ioctl(d->fd, VNPU_IOC_PROF_START, &ps)) {
		ret = -errno;
		npuprof_set_error(err, ret, "%s: cannot start profiling: %s%s", path,
				  strerror(-ret),
				  ret == -EBUSY ? " (a session is active on the device)" : "");
		goto err_close;
	}
	ret = map_ring(d, &ps);
	if (ret) {
		npuprof_set_error(err, ret, "%s: cannot map the ring: %s", path, strerror(-ret));
		goto err_close;
	}
	ret = mkdirf(err, devdir, sizeof(devdir), "%s/" NPUPROF_RAW_DEVICE_DIR, c->dir, dev_id);
	if (!ret)
		ret = mkdirf(err, d->dir, sizeof(d->dir), "%s/" NPUPROF_RAW_DATA_DIR, devdir);
	if (ret)
		goto err_close;
	ret = write_info_json(d, devdir, &info);
	if (!ret) {
		char ctrl[PATH_MAX];

		ret = pathf(ctrl, "%s/" NPUPROF_RAW_CTRL_FILE, d->dir)
			      ? -errno
			      : write_file(ctrl, d->ctrl, sizeof(*d->ctrl));
	}
	if (ret) {
		npuprof_set_error(err, ret, "%s: cannot write the device info: %s", devdir,
				  strerror(-ret));
		goto err_close;
	}
	d->out = open_seq_file(d->dir, NPUPROF_RAW_REC_PREFIX, 0);
	if (d->out < 0) {
		ret = npuprof_set_error(err, -errno, "%s: cannot create the record file: %s",
					d->dir, strerror(errno));
		goto err_close;
	}

	/* the reader sees the new device from its next round on */
	pthread_mutex_lock(&c->lock);
	c->ndev++;
	pthread_mutex_unlock(&c->lock);
	if (c->thread_started)
		wake(c);
	return 0;

err_close:
	dev_close(d);
	return ret;
}

/* Start draining (after the first device was added). */
int npuprof_collector_start(struct npuprof_collector *c, struct npuprof_error *err)
{
	int ret;

	if (c->thread_started)
		return 0;
	ret = -pthread_create(&c->thread, NULL, reader_main, c);
	if (ret)
		return npuprof_set_error(err, ret, "cannot start the reader thread: %s",
					 strerror(-ret));
	c->thread_started = 1;
	return 0;
}

int npuprof_collector_finish(struct npuprof_collector *c, int export, struct npuprof_error *err)
{
	struct vnpu_prof_stop st = { .size = sizeof(st) };
	struct npuprof_export_opts eo = { .sz = sizeof(eo) };
	int ret = 0;

	npuprof_clear_error(err);
	for (unsigned int i = 0; i < c->ndev; i++) {
		if (ioctl(c->devs[i].fd, VNPU_IOC_PROF_STOP, &st) && !ret)
			ret = npuprof_set_error(err, -errno, "vnpu%u: cannot stop profiling: %s",
						c->devs[i].dev_id, strerror(errno));
	}
	atomic_store(&c->stopping, 1);
	if (c->thread_started) {
		wake(c);
		pthread_join(c->thread, NULL);
	} else {
		for (unsigned int i = 0; i < c->ndev; i++)
			drain(&c->devs[i]);
	}
	atomic_store(&api_sink, NULL);
	pthread_mutex_lock(&c->lock);
	api_flush_locked(c);
	pthread_mutex_unlock(&c->lock);

	for (unsigned int i = 0; i < c->ndev; i++) {
		struct dev_collect *d = &c->devs[i];

		if (d->error && !ret)
			ret = npuprof_set_error(err, d->error,
						"vnpu%u: cannot write raw data to %s: %s",
						d->dev_id, d->dir, strerror(-d->error));
		if (d->ctrl && d->ctrl->lost)
			fprintf(stderr,
				"npuprof: warning: vnpu%u lost %llu of %llu records (ring full)\n",
				d->dev_id, (unsigned long long)d->ctrl->lost,
				(unsigned long long)d->ctrl->produced);
		dev_close(d);
	}
	if (c->api_error && !ret)
		ret = npuprof_set_error(err, c->api_error, "cannot write host API data in %s: %s",
					c->dir, strerror(-c->api_error));
	if (close(c->api_out) && !ret)
		ret = npuprof_set_error(err, -errno, "closing host API data: %s", strerror(errno));
	if (!ret && export)
		ret = npuprof_export(c->dir, &eo, err);

	close(c->wake_fd);
	pthread_mutex_destroy(&c->lock);
	free(c->api);
	free(c);
	return ret;
}
