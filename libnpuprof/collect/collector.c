// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the collector - one PROF_* folder, one profiling session per
 * device, and a background thread that drains every ring into raw files
 * as records arrive, so that nothing drained is lost if the workload dies
 * (the raw layout is docs/output.md's).
 *
 * Each device runs a channel session: each channel is a ring of the
 * device's own fixed-size records (uapi/vnpu_ascend.h), drained into the
 * raw file msprof reads (stars_soc and ffts_profile, or on a device without
 * STARS hwts and aicore; ts_track, aicpu; .data.N.slice_K), beside the
 * configuration files
 * of prof_config.c; the host records are the host sink's (hostrec/).
 *
 * The reader follows the ring's barrier contract (uapi/vnpu_prof.h):
 * load-acquire a channel's producer_pos, write the bytes, store-release its
 * consumer_pos. The data pages are mapped twice, so [consumer, producer)
 * is contiguous and goes to the file with one write() straight from the
 * mapping.
 *
 * When a write fails (a full disk, an I/O error, the folder removed), the
 * slice is cut back to its last whole record and the device's data is no
 * longer written, but the thread goes on draining the rings, so the
 * workload runs on as before; it counts the records it drops per channel,
 * and the loss report (vnpu_loss.json, written into room reserved at the
 * start) carries the counts. The raw data stays exportable and its loss is
 * reported in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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

#include "collect/collect.h"
#include "hostrec/hostrec.h"
#include "npuprof_export.h"
#include "vnpu_ascend.h"
#include "vnpu_prof.h"
#include "vnpu_ring_math.h"

#define POLL_MS 100
#define COLLECT_RING_PAGES_L0 1024 /* 4 MiB */
#define COLLECT_RING_PAGES_L1 2048 /* 8 MiB */

/**
 * struct chan_collect - one channel of a channel session and its slices
 * @name: the raw file's name before ".data.N.slice_K".
 * @rec_size: bytes of a record.
 * @desc: its descriptor in the control page.
 * @data: its data (mapped twice), @size bytes.
 * @cons: its consumer_pos in the consumer page.
 * @pos: our consumer position.
 * @out: the current slice, -1 before the first record.
 * @slice: K.
 * @file_bytes: bytes in @out (whole records).
 * @written: records written.
 * @dropped: records drained but not written (after a write error).
 */
struct chan_collect {
	char name[32];
	uint32_t rec_size;
	const struct vnpu_ring_chan *desc;
	const unsigned char *data;
	uint64_t size;
	uint64_t *cons;
	uint64_t pos;
	int out;
	unsigned int slice;
	uint64_t file_bytes;
	uint64_t written;
	uint64_t dropped;
};

/* each channel's raw file, on a STARS device and on an HWTS one (uapi/vnpu_ascend.h) */
static const struct {
	const char *name;
	const char *hwts_name;
	uint32_t rec_size;
} chan_files[VNPU_CH_COUNT] = {
	[VNPU_CH_ACSQ] = { NPF_RAW_STARS_SOC, NPF_RAW_HWTS, sizeof(struct vnpu_acsq_log) },
	[VNPU_CH_PMU] = { NPF_RAW_FFTS_PROFILE, NPF_RAW_AICORE, sizeof(struct vnpu_ffts_pmu) },
	[VNPU_CH_TS_TRACK] = { NPF_RAW_TS_TRACK, NPF_RAW_TS_TRACK, sizeof(struct vnpu_ts_flip) },
	[VNPU_CH_AICPU] = { NPF_RAW_AICPU, NPF_RAW_AICPU, sizeof(struct vnpu_aicpu_node) },
};

/**
 * struct dev_collect - one device's session and raw files
 * @dev_id: the N of /dev/vnpuN.
 * @fd: our own descriptor of the device (owns the session).
 * @map: the ring, read-only, @map_size bytes.
 * @cons: the consumer page, read-write.
 * @ctrl: the control page.
 * @dir: device_N/data.
 * @bytes: bytes collected.
 * @error: the first write error (negative errno), then nothing is written.
 * @error_path: the file it happened on.
 * @dropped: records drained but not written since @error.
 * @stop_failed: VNPU_IOC_PROF_STOP failed: do not wait for the end.
 * @done: stopped and drained.
 * @hwts: the device has no STARS: its channels carry HWTS logs and AI Core
 *        PMU records, written to hwts.data and aicore.data.
 * @v6: the device writes v6 records (chip 15): its ACSQ logs are
 *      struct vnpu_acsq_log_v6.
 * @ch: its channels.
 * @devdir: device_N.
 */
struct dev_collect {
	unsigned int dev_id;
	int fd;
	void *map;
	size_t map_size;
	void *cons;
	const struct vnpu_ring_ctrl *ctrl;
	char dir[PATH_MAX];
	uint64_t bytes;
	int error;
	char error_path[PATH_MAX];
	uint64_t dropped;
	int stop_failed;
	int done;
	bool hwts;
	bool v6;
	struct chan_collect ch[VNPU_CH_COUNT];
	char devdir[PATH_MAX];
};

struct npc_collector {
	char dir[PATH_MAX];
	struct npc_opts opts;
	pthread_mutex_t lock; /* devs, ndev */
	struct dev_collect devs[VNPU_MAX_DEVICES];
	unsigned int ndev;
	int wake_fd;
	pthread_t thread;
	int thread_started;
	atomic_int stopping;
	char host_dir[PATH_MAX];
	struct nph_sink *host; /* from the first device on */
};

/* PROF_NNNNNN: sessions of this process, from 1. */
static atomic_uint prof_index;

static int write_some(int fd, const void *buf, size_t n, size_t *done)
{
	return npx_write_at(fd, buf, n, -1, done);
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

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove @dir and everything under it (a folder this collector created). */
static void remove_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
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
		return npx_set_error(err, -ENAMETOOLONG, "path too long: %s", out);
	if (mkdir(out, 0755) && errno != EEXIST)
		return npx_set_error(err, -errno, "cannot create %s: %s", out, strerror(errno));
	return 0;
}

int npc_create(const struct npc_opts *opts, struct npc_collector **cp, struct npuprof_error *err)
{
	struct npc_collector *c;
	char name[96], data[PATH_MAX];
	int ret;

	*cp = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return npx_set_error(err, -ENOMEM, "out of memory");
	c->opts = *opts;
	c->wake_fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	for (int i = 0; i < VNPU_MAX_DEVICES; i++)
		c->devs[i].fd = -1;

	ret = make_prof_name(name, sizeof(name));
	if (ret) {
		npx_set_error(err, ret, "cannot read /dev/urandom: %s", strerror(-ret));
		goto err_free;
	}
	ret = mkdirf(err, c->dir, sizeof(c->dir), "%s/%s", opts->output_dir, name);
	if (ret) {
		c->dir[0] = '\0'; /* not ours to remove */
		goto err_free;
	}
	ret = mkdirf(err, c->host_dir, sizeof(c->host_dir), "%s/" NPF_RAW_HOST_DIR, c->dir);
	if (!ret)
		ret = mkdirf(err, data, sizeof(data), "%s/" NPF_RAW_DATA_DIR, c->host_dir);
	if (ret)
		goto err_free;
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake_fd < 0) {
		ret = npx_set_error(err, -errno, "eventfd: %s", strerror(errno));
		goto err_free;
	}
	*cp = c;
	return 0;

err_free:
	if (c->dir[0])
		remove_tree(c->dir);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ret;
}

const char *npc_dir(const struct npc_collector *c)
{
	return c->dir;
}

static void wake(struct npc_collector *c);

static void wake_cb(void *arg)
{
	wake(arg);
}

/* The host side, at the first device: its sink and its configuration files. */
static int host_start(struct npc_collector *c, const struct npf_session *sess,
		      struct npuprof_error *err)
{
	char data[PATH_MAX];
	struct npf_instant now;
	int ret;

	if (pathf(data, "%s/" NPF_RAW_DATA_DIR, c->host_dir))
		return npx_set_error(err, -ENAMETOOLONG, "path too long: %s", c->host_dir);
	ret = nph_sink_create(data, c->opts.level, &c->host, err);
	if (ret)
		return ret;
	npf_now(&now);
	ret = npf_write_host(c->host_dir, sess, &now, err);
	if (!ret)
		ret = npf_reserve_ends(c->host_dir, -1, err);
	if (ret) {
		nph_sink_forget(c->host);
		c->host = NULL;
		return ret;
	}
	nph_sink_install(c->host, wake_cb, c);
	return 0;
}

/* ---- draining ---- */

/*
 * The first write error of a device, on @ch's slice: cut the slice back to
 * its whole records (a write that failed half way leaves part of one), and
 * write nothing more; drain_chan() then drops and counts what it drains.
 */
static void chan_write_failed(struct dev_collect *d, struct chan_collect *ch, int error,
			      const char *path)
{
	d->error = error;
	snprintf(d->error_path, sizeof(d->error_path), "%s", path);
	/*
	 * If this fails too, the slice ends in part of a record: msprof, which
	 * trims a slice's total % size bytes from the front, would read it
	 * shifted; our reader warns of it (ascend_raw.c).
	 */
	if (ch->out >= 0 && !ftruncate(ch->out, (off_t)ch->file_bytes))
		lseek(ch->out, (off_t)ch->file_bytes, SEEK_SET);
}

/* The path of slice @no of channel @ch into @buf (PATH_MAX); -1 if too long. */
static int slice_path(const struct dev_collect *d, const struct chan_collect *ch, unsigned int no,
		      char *buf)
{
	return pathf(buf, "%s/%s.data.%u.slice_%u", d->dir, ch->name, d->dev_id, no);
}

/* The first write error of a channel session, on @ch's current slice. */
static void slice_write_failed(struct dev_collect *d, struct chan_collect *ch, int error)
{
	char path[PATH_MAX];

	if (slice_path(d, ch, ch->slice, path))
		snprintf(path, sizeof(path), "%s", d->dir);
	chan_write_failed(d, ch, error, path);
}

/* Open slice @no of channel @ch; on failure the error is the device's. */
static int open_slice(struct dev_collect *d, struct chan_collect *ch, unsigned int no)
{
	char path[PATH_MAX];
	int fd;

	if (slice_path(d, ch, no, path)) {
		chan_write_failed(d, ch, -ENAMETOOLONG, d->dir);
		return d->error;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		chan_write_failed(d, ch, -errno, path);
		return d->error;
	}
	if (ch->out >= 0 && close(ch->out)) {
		/* what the old slice held may not have reached the disk: name it */
		int error = -errno;
		char old[PATH_MAX];

		if (slice_path(d, ch, ch->slice, old))
			snprintf(old, sizeof(old), "%s", d->dir);
		/* the new slice is empty: cutting it to its whole records keeps it so */
		ch->out = fd;
		ch->slice = no;
		ch->file_bytes = 0;
		chan_write_failed(d, ch, error, old);
		return d->error;
	}
	ch->out = fd;
	ch->slice = no;
	ch->file_bytes = 0;
	return 0;
}

/* Drop [pos, @prod) of @ch, counted. */
static void chan_discard(struct chan_collect *ch, uint64_t prod)
{
	ch->dropped += (prod - ch->pos) / ch->rec_size;
	ch->pos = prod;
	__atomic_store_n(ch->cons, ch->pos, __ATOMIC_RELEASE);
}

/*
 * Move [pos, producer) of @ch to its slices (or drop it after an error).
 * Slices hold whole records, at most NPF_RAW_ROTATE_BYTES.
 */
static void drain_chan(struct dev_collect *d, struct chan_collect *ch)
{
	uint64_t limit = NPF_RAW_ROTATE_BYTES / ch->rec_size * ch->rec_size;
	uint64_t prod = __atomic_load_n(&ch->desc->producer_pos, __ATOMIC_ACQUIRE);

	/* not the kernel's framing: count it and go on from there */
	if (prod - ch->pos > ch->size || (prod - ch->pos) % ch->rec_size) {
		ch->dropped++;
		ch->pos = prod;
		__atomic_store_n(ch->cons, ch->pos, __ATOMIC_RELEASE);
		return;
	}
	while (ch->pos != prod) {
		uint64_t n = prod - ch->pos;
		size_t done;
		int ret;

		if (d->error || ((ch->out < 0 || ch->file_bytes >= limit) &&
				 open_slice(d, ch, ch->out < 0 ? 0 : ch->slice + 1))) {
			chan_discard(ch, prod);
			break;
		}
		if (n > limit - ch->file_bytes)
			n = limit - ch->file_bytes;
		ret = write_some(ch->out, ch->data + vnpu_ring_offset(ch->pos, ch->size), n, &done);
		if (ret)
			/* keep the whole records that were written */
			n = done / ch->rec_size * ch->rec_size;
		ch->file_bytes += n;
		ch->written += n / ch->rec_size;
		ch->pos += n;
		d->bytes += n;
		if (ret)
			slice_write_failed(d, ch, ret);
		/* pairs with the kernel's load-acquire of consumer_pos */
		__atomic_store_n(ch->cons, ch->pos, __ATOMIC_RELEASE);
	}
}

static void drain_chans(struct dev_collect *d)
{
	int all = 1;

	for (int i = 0; i < VNPU_CH_COUNT; i++)
		drain_chan(d, &d->ch[i]);
	if (d->done || !__atomic_load_n(&d->ctrl->stopped, __ATOMIC_ACQUIRE))
		return;
	for (int i = 0; i < VNPU_CH_COUNT; i++)
		all &= d->ch[i].pos ==
		       __atomic_load_n(&d->ch[i].desc->producer_pos, __ATOMIC_ACQUIRE);
	d->done = all;
}

static void *reader_main(void *arg)
{
	struct npc_collector *c = arg;
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
			drain_chans(&c->devs[i]);
			all_done &= c->devs[i].done || c->devs[i].stop_failed;
		}
		if (c->host)
			nph_sink_flush(c->host);
		if (atomic_load(&c->stopping) && all_done)
			break;
	}
	return NULL;
}

static void wake(struct npc_collector *c)
{
	uint64_t one = 1;

	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		return; /* the counter is full: the thread is awake anyway */
}

/* The channels of a channel session, checked against the mapping. */
static int map_chans(struct dev_collect *d, size_t page)
{
	const unsigned char *base = d->map;

	if (d->ctrl->n_channels != VNPU_CH_COUNT || d->ctrl->chan_offset != VNPU_RING_CHAN_OFFSET)
		return -EPROTO;
	for (int i = 0; i < VNPU_CH_COUNT; i++) {
		const struct vnpu_ring_chan *desc =
			(const void *)(base + VNPU_RING_CHAN_OFFSET + i * sizeof(*desc));
		struct chan_collect *ch = &d->ch[i];

		uint32_t rec_size = d->v6 && i == VNPU_CH_ACSQ ? sizeof(struct vnpu_acsq_log_v6)
							       : chan_files[i].rec_size;

		if (desc->type != (uint32_t)i || desc->rec_size != rec_size || !desc->data_size ||
		    (desc->data_size & (desc->data_size - 1)) || desc->data_offset > d->map_size ||
		    2 * desc->data_size > d->map_size ||
		    desc->data_offset + 2 * desc->data_size > d->map_size ||
		    VNPU_RING_CHAN_CONS_OFFSET(i) + sizeof(uint64_t) > page)
			return -EPROTO;
		snprintf(ch->name, sizeof(ch->name), "%s",
			 d->hwts ? chan_files[i].hwts_name : chan_files[i].name);
		ch->rec_size = desc->rec_size;
		ch->desc = desc;
		ch->data = base + desc->data_offset;
		ch->size = desc->data_size;
		ch->cons = (uint64_t *)((unsigned char *)d->cons + VNPU_RING_CHAN_CONS_OFFSET(i));
		ch->pos = __atomic_load_n(ch->cons, __ATOMIC_ACQUIRE);
	}
	return 0;
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
	if (d->ctrl->magic != VNPU_RING_MAGIC || d->ctrl->compat_version != 2)
		return -EPROTO;
	return map_chans(d, (size_t)page);
}

static void dev_close(struct dev_collect *d)
{
	if (d->cons)
		munmap(d->cons, (size_t)sysconf(_SC_PAGESIZE));
	if (d->map)
		munmap(d->map, d->map_size);
	for (int i = 0; i < VNPU_CH_COUNT; i++) {
		if (d->ch[i].out >= 0)
			close(d->ch[i].out);
		d->ch[i].out = -1;
	}
	if (d->fd >= 0)
		close(d->fd);
	d->cons = NULL;
	d->map = NULL;
	d->fd = -1;
}

/* The device's raw files: device_N/ and its data/, and the first files in them. */
static int dev_files(struct npc_collector *c, struct dev_collect *d, const struct vnpu_info *info,
		     struct npuprof_error *err)
{
	struct npf_session sess = { .level = c->opts.level, .info = info, .ctrl = d->ctrl };
	struct npf_instant now;
	int ret;

	ret = mkdirf(err, d->devdir, sizeof(d->devdir), "%s/" NPF_RAW_DEVICE_DIR, c->dir,
		     d->dev_id);
	if (ret) {
		d->devdir[0] = '\0';
		return ret;
	}
	ret = mkdirf(err, d->dir, sizeof(d->dir), "%s/" NPF_RAW_DATA_DIR, d->devdir);
	if (ret)
		return ret;
	if (!c->host) {
		ret = host_start(c, &sess, err);
		if (ret)
			return ret;
	}
	npf_now(&now);
	ret = npf_write_device(d->devdir, d->dev_id, &sess, &now, err);
	return ret ? ret : npf_reserve_ends(d->devdir, (int)d->dev_id, err);
}

int npc_add(struct npc_collector *c, unsigned int dev_id, struct npuprof_error *err)
{
	struct vnpu_prof_start ps = { .size = sizeof(ps), .level = c->opts.level };
	struct vnpu_info info = { .size = sizeof(info) };
	struct dev_collect *d;
	char path[32];
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
		return npx_set_error(err, -E2BIG, "more than %u devices", VNPU_MAX_DEVICES);

	d = &c->devs[c->ndev];
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < VNPU_CH_COUNT; i++)
		d->ch[i].out = -1;
	d->dev_id = dev_id;
	snprintf(path, sizeof(path), "/dev/vnpu%u", dev_id);
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return npx_set_error(err, -errno, "cannot open %s: %s", path, strerror(errno));
	if (ioctl(d->fd, VNPU_IOC_GET_INFO, &info)) {
		ret = npx_set_error(err, -errno, "%s: VNPU_IOC_GET_INFO: %s", path,
				    strerror(errno));
		goto err_close;
	}
	d->hwts = !(info.caps & VNPU_CAP_STARS);
	d->v6 = npf_chip_has(info.chip_id, NPF_CHIP_V6);
	ps.flags = VNPU_PROF_F_CHANNELS;
	if (c->opts.metric_group != VNPU_METRIC_NONE) {
		ps.flags |= VNPU_PROF_F_METRIC_GROUP;
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
		if (ret == -EOPNOTSUPP && (ps.flags & VNPU_PROF_F_METRIC_GROUP))
			npx_set_error(err, ret,
				      "%s: cannot start profiling: %s has no metric group %s", path,
				      info.product_name,
				      npuprof_metrics_name(c->opts.metric_group));
		else
			npx_set_error(err, ret, "%s: cannot start profiling: %s%s", path,
				      strerror(-ret),
				      ret == -EBUSY ? " (a session is active on the device)" : "");
		goto err_close;
	}
	ret = map_ring(d, &ps);
	if (ret) {
		npx_set_error(err, ret, "%s: cannot map the ring: %s", path, strerror(-ret));
		goto err_close;
	}
	ret = dev_files(c, d, &info, err);
	if (ret)
		goto err_close;

	/* the reader sees the new device from its next round on */
	pthread_mutex_lock(&c->lock);
	c->ndev++;
	pthread_mutex_unlock(&c->lock);
	if (c->thread_started)
		wake(c);
	return 0;

err_close:
	/* closing the owner file ends the session; device_N/ is of no use */
	dev_close(d);
	if (d->devdir[0])
		remove_tree(d->devdir);
	return ret;
}

/* Start draining (after the first device was added). */
int npc_start(struct npc_collector *c, struct npuprof_error *err)
{
	int ret;

	if (c->thread_started)
		return 0;
	ret = -pthread_create(&c->thread, NULL, reader_main, c);
	if (ret)
		return npx_set_error(err, ret, "cannot start the reader thread: %s",
				     strerror(-ret));
	c->thread_started = 1;
	return 0;
}

/* Is the file of @fd still in the tree (not removed while we wrote it)? */
static int file_removed(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) && st.st_nlink == 0;
}

/* The first failure goes to @err (its code is returned), later ones are printed. */
static int report(struct npuprof_error *err, int ret, const struct npuprof_error *e)
{
	if (!ret) {
		if (err)
			*err = *e;
		return e->code;
	}
	npx_print(NPUPROF_ERROR, "npuprof: error: %s\n", e->msg);
	return ret;
}

/*
 * The loss report of a channel session, written into the room reserved at
 * the start; the records not written count in d->dropped. Returns whether
 * it is written (the losses are then counted in the raw data).
 */
static int chans_end(struct dev_collect *d, int *ret, struct npuprof_error *err)
{
	struct npf_loss loss[VNPU_CH_COUNT];
	struct npuprof_error e;

	for (int i = 0; i < VNPU_CH_COUNT; i++) {
		struct chan_collect *ch = &d->ch[i];

		if (!d->error && file_removed(ch->out)) {
			d->error = -ENOENT;
			if (slice_path(d, ch, ch->slice, d->error_path))
				snprintf(d->error_path, sizeof(d->error_path), "%s", d->dir);
		}
		d->dropped += ch->dropped;
		loss[i] = (struct npf_loss){
			.channel = ch->name,
			.rec_size = ch->rec_size,
			.produced = ch->desc->produced,
			.lost = ch->desc->lost,
			.written = ch->written,
			.not_written = ch->dropped,
		};
	}
	if (npf_write_loss(d->devdir, loss, VNPU_CH_COUNT, &e)) {
		*ret = report(err, *ret, &e);
		return 0;
	}
	return 1;
}

/* end_info(.N) at @end, a failure reported. */
static int write_end(const char *dir, int id, const struct npf_instant *end, int ret,
		     struct npuprof_error *err)
{
	struct npuprof_error e;

	return npf_write_end(dir, id, end, &e) ? report(err, ret, &e) : ret;
}

/* Report a device's write failure. */
static int dev_report(struct dev_collect *d, int ret, int in_band, struct npuprof_error *err)
{
	unsigned long long produced = d->ctrl ? (unsigned long long)d->ctrl->produced : 0;
	struct npuprof_error e;

	if (!d->error)
		return ret;
	if (d->error == -ENOENT && !d->dropped)
		npx_set_error(&e, d->error,
			      "%s: removed during the run: %s (the raw data of vnpu%u, %llu"
			      " records, is lost)",
			      d->error_path, strerror(-d->error), d->dev_id, produced);
	else
		npx_set_error(&e, d->error, "%s: %s (vnpu%u: %llu of %llu records not written%s)",
			      d->error_path, strerror(-d->error), d->dev_id,
			      (unsigned long long)d->dropped, produced,
			      in_band ? ", counted in the raw data" : "");
	return report(err, ret, &e);
}

int npc_finish(struct npc_collector *c, int export, struct npuprof_error *err)
{
	struct vnpu_prof_stop st = { .size = sizeof(st) };
	struct npuprof_export_opts eo = { .sz = sizeof(eo) };
	struct npf_instant end;
	struct stat sb;
	int ret = 0;

	npx_clear_error(err);
	for (unsigned int i = 0; i < c->ndev; i++) {
		if (!ioctl(c->devs[i].fd, VNPU_IOC_PROF_STOP, &st))
			continue;
		c->devs[i].stop_failed = 1;
		if (!ret)
			ret = npx_set_error(err, -errno, "vnpu%u: cannot stop profiling: %s",
					    c->devs[i].dev_id, strerror(errno));
	}
	atomic_store(&c->stopping, 1);
	if (c->thread_started) {
		wake(c);
		pthread_join(c->thread, NULL);
	} else {
		for (unsigned int i = 0; i < c->ndev; i++)
			drain_chans(&c->devs[i]);
	}
	/* no runtime call reaches the host sink from here on */
	if (c->host)
		nph_sink_uninstall(c->host);
	npf_now(&end);

	/* the whole folder removed while we wrote it: everything is gone */
	if (stat(c->dir, &sb) && errno == ENOENT) {
		struct npuprof_error e;

		npx_set_error(&e, -ENOENT,
			      "%s: removed during the run: %s (the raw data written to it is lost)",
			      c->dir, strerror(ENOENT));
		ret = report(err, ret, &e);
	}
	for (unsigned int i = 0; i < c->ndev; i++) {
		struct dev_collect *d = &c->devs[i];
		int in_band = chans_end(d, &ret, err);

		ret = dev_report(d, ret, in_band, err);
		ret = write_end(d->devdir, (int)d->dev_id, &end, ret, err);
		if (d->ctrl && (d->ctrl->lost || d->dropped))
			npx_print(NPUPROF_WARN,
				  "npuprof: warning: vnpu%u lost %llu of %llu records (%llu: ring"
				  " full, %llu: not written)\n",
				  d->dev_id, (unsigned long long)(d->ctrl->lost + d->dropped),
				  (unsigned long long)d->ctrl->produced,
				  (unsigned long long)d->ctrl->lost,
				  (unsigned long long)d->dropped);
		dev_close(d);
	}
	if (c->host)
		ret = nph_sink_close(c->host, c->host_dir, ret, err);
	if (!stat(c->dir, &sb))
		ret = write_end(c->host_dir, -1, &end, ret, err);
	if (!ret && export)
		ret = npuprof_export(c->dir, &eo, err);

	close(c->wake_fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return ret;
}

void npc_forget(struct npc_collector *c)
{
	/* munmap and close are this process's own: no ioctl, no write */
	for (unsigned int i = 0; i < c->ndev; i++)
		dev_close(&c->devs[i]);
	if (c->host)
		nph_sink_forget(c->host);
	close(c->wake_fd);
	free(c);
}

void npc_discard(struct npc_collector *c)
{
	char dir[PATH_MAX];

	memcpy(dir, c->dir, sizeof(dir));
	npc_finish(c, 0, NULL);
	remove_tree(dir);
}
