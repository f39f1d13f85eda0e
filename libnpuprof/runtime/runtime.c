// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the runtime - devices, streams, launch, sync. While a
 * profiling session collects, every call writes the host records CANN's
 * runtime writes (hostrec/host_records.c): its AscendCL event, its ioctl's Runtime
 * event at L2, and for a launch each task's node and task_track records.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "npuprof.h"
#include "runtime/runtime.h"
#include "hostrec/hostrec.h"

/* what runs at each open, set by the session (npr_set_open_hook()) */
static npr_open_hook_fn open_hook;

/*
 * The runtime reads msprof's switch itself, so that a program built
 * without the session (libnpuprof.a, runtime calls only) is told rather
 * than run unprofiled under `npuprof run`.
 */
int npr_global_configured(void)
{
	const char *mode = getenv("PROFILING_MODE");

	return mode && !strcmp(mode, "true");
}

/* Before main() (a constructor) or before any open: read without a lock. */
void npr_set_open_hook(npr_open_hook_fn fn)
{
	__atomic_store_n(&open_hook, fn, __ATOMIC_RELEASE);
}

/*
 * The thread's current device, as aclrtSetDevice keeps one per thread: a
 * pointer and the serial of the device it was, checked against the open
 * devices before use, so that a device any thread closed is nobody's
 * current device (issue 17 bug 5). That rule is why the open devices are
 * process-wide state.
 */
static __thread struct npuprof_dev *current_dev;
static __thread uint64_t current_serial;

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npuprof_dev *open_devs; /* linked by next_open */
static uint64_t open_serials;

/* A child of fork() may have been forked while another thread held it. */
static void open_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

	open_lock = fresh;
}

static void open_atfork_register(void)
{
	pthread_atfork(NULL, NULL, open_atfork_child);
}

static void open_add(struct npuprof_dev *dev)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, open_atfork_register);
	pthread_mutex_lock(&open_lock);
	dev->serial = ++open_serials;
	dev->next_open = open_devs;
	open_devs = dev;
	pthread_mutex_unlock(&open_lock);
}

static void open_remove(struct npuprof_dev *dev)
{
	pthread_mutex_lock(&open_lock);
	for (struct npuprof_dev **pp = &open_devs; *pp; pp = &(*pp)->next_open) {
		if (*pp == dev) {
			*pp = dev->next_open;
			break;
		}
	}
	pthread_mutex_unlock(&open_lock);
}

static void set_current(struct npuprof_dev *dev)
{
	current_dev = dev;
	current_serial = dev ? dev->serial : 0;
}

NPUPROF_API int npuprof_open(unsigned int dev_id, struct npuprof_dev **devp,
			     struct npuprof_error *err)
{
	uint64_t t0 = npx_now_ns(), r0, r1;
	npr_open_hook_fn hook;
	struct npuprof_dev *dev;
	char path[32];
	int ret;

	npx_clear_error(err);
	if (!devp)
		return npx_set_error(err, -EINVAL, "npuprof_open: devp is NULL");
	*devp = NULL;
	hook = __atomic_load_n(&open_hook, __ATOMIC_ACQUIRE);
	if (!hook && npr_global_configured())
		return npx_set_error(
			err, -ENOTSUP,
			"PROFILING_MODE=true, but this program has no global profiling: it links "
			"libnpuprof.a without the Profiler; link libnpuprof.so, or add "
			"-Wl,--undefined=nps_global_device_opened (pkg-config --static)");
	if (dev_id >= VNPU_MAX_DEVICES)
		return npx_set_error(err, -ENOENT, "device %u: there are at most %u devices",
				     dev_id, VNPU_MAX_DEVICES);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return npx_set_error(err, -ENOMEM, "out of memory");
	dev->rec.id = dev_id;
	snprintf(path, sizeof(path), "/dev/vnpu%u", dev_id);
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = -errno;
		free(dev);
		return npx_set_error(err, ret, "cannot open %s: %s", path, strerror(-ret));
	}
	dev->rec.info.size = sizeof(dev->rec.info);
	r0 = npx_now_ns();
	ret = ioctl(dev->fd, VNPU_IOC_GET_INFO, &dev->rec.info);
	r1 = npx_now_ns();
	if (ret) {
		ret = -errno;
		npx_set_error(err, ret, "%s: VNPU_IOC_GET_INFO: %s", path, strerror(-ret));
		goto err_close;
	}
	/* the device's limits come with uapi 0.5 (VNPU_INFO_SIZE_VER1) */
	if (dev->rec.info.size < VNPU_INFO_SIZE_VER1 || !dev->rec.info.max_streams) {
		ret = npx_set_error(err, -EPROTONOSUPPORT,
				    "%s: the vnpu module's uapi %u.%u is older than 0.5", path,
				    dev->rec.info.uapi_version >> 16,
				    dev->rec.info.uapi_version & 0xffff);
		goto err_close;
	}
	dev->rec.hw_stream = malloc(dev->rec.info.max_streams * sizeof(*dev->rec.hw_stream));
	if (!dev->rec.hw_stream) {
		ret = npx_set_error(err, -ENOMEM, "out of memory");
		goto err_close;
	}
	memset(dev->rec.hw_stream, 0xff, dev->rec.info.max_streams * sizeof(*dev->rec.hw_stream));
	ret = hook ? hook(dev, err) : 0;
	if (ret)
		goto err_free_streams;
	open_add(dev);
	set_current(dev);
	*devp = dev;
	nph_api_record(NPF_API_OPEN, t0, r0, r1);
	return 0;

err_free_streams:
	free(dev->rec.hw_stream);
err_close:
	close(dev->fd);
	free(dev);
	return ret;
}

NPUPROF_API void npuprof_close(struct npuprof_dev *dev)
{
	uint64_t t0 = npx_now_ns(), r1;

	if (!dev)
		return;
	open_remove(dev);
	if (current_dev == dev)
		set_current(NULL);
	close(dev->fd);
	r1 = npx_now_ns();
	free(dev->rec.hw_stream);
	free(dev);
	nph_api_record(NPF_API_CLOSE, t0, t0, r1);
}

NPUPROF_API unsigned int npuprof_dev_id(const struct npuprof_dev *dev)
{
	return dev->rec.id;
}

NPUPROF_API const struct vnpu_info *npuprof_dev_info(const struct npuprof_dev *dev)
{
	return &dev->rec.info;
}

NPUPROF_API void npuprof_set_current(struct npuprof_dev *dev)
{
	set_current(dev);
}

NPUPROF_API struct npuprof_dev *npuprof_current(void)
{
	struct npuprof_dev *found = NULL;

	if (!current_dev)
		return NULL;
	/* only the open devices are looked at: the pointer may be stale */
	pthread_mutex_lock(&open_lock);
	for (struct npuprof_dev *d = open_devs; d; d = d->next_open) {
		if (d == current_dev && d->serial == current_serial) {
			found = d;
			break;
		}
	}
	pthread_mutex_unlock(&open_lock);
	if (!found)
		set_current(NULL);
	return found;
}

NPUPROF_API int npuprof_stream_create(struct npuprof_dev *dev, uint32_t *stream,
				      struct npuprof_error *err)
{
	struct vnpu_stream_create sc = { .size = sizeof(sc) };
	uint64_t t0 = npx_now_ns(), r0, r1;
	int ret;

	npx_clear_error(err);
	if (!dev || !stream)
		return npx_set_error(err, -EINVAL, "npuprof_stream_create: NULL argument");
	r0 = npx_now_ns();
	ret = ioctl(dev->fd, VNPU_IOC_STREAM_CREATE, &sc) ? -errno : 0;
	r1 = npx_now_ns();
	if (ret) {
		npx_set_error(err, ret, "vnpu%u: cannot create a stream: %s", dev->rec.id,
			      strerror(-ret));
	} else {
		*stream = sc.stream_id;
		if (sc.stream_id < dev->rec.info.max_streams)
			dev->rec.hw_stream[sc.stream_id] = (uint16_t)sc.hw_stream_id;
	}
	nph_api_record(NPF_API_STREAM_CREATE, t0, r0, r1);
	return ret;
}

NPUPROF_API int npuprof_stream_destroy(struct npuprof_dev *dev, uint32_t stream,
				       struct npuprof_error *err)
{
	struct vnpu_stream_destroy sd = { .size = sizeof(sd), .stream_id = stream };
	uint64_t t0 = npx_now_ns(), r0, r1;
	int ret;

	npx_clear_error(err);
	if (!dev)
		return npx_set_error(err, -EINVAL, "npuprof_stream_destroy: NULL device");
	r0 = npx_now_ns();
	ret = ioctl(dev->fd, VNPU_IOC_STREAM_DESTROY, &sd) ? -errno : 0;
	r1 = npx_now_ns();
	if (ret)
		npx_set_error(err, ret, "vnpu%u: cannot destroy stream %u: %s", dev->rec.id, stream,
			      strerror(-ret));
	else if (stream < dev->rec.info.max_streams)
		dev->rec.hw_stream[stream] = NPH_NO_HW_STREAM;
	nph_api_record(NPF_API_STREAM_DESTROY, t0, r0, r1);
	return ret;
}

/*
 * The caller's tasks as this library's struct vnpu_task, for the host
 * records: the same array when the strides agree, else a copy of each
 * task's first bytes, zero-extended (the driver checks the rest).
 */
static const struct vnpu_task *tasks_as_ours(const void *tasks, unsigned int n, size_t task_size,
					     struct vnpu_task **copy)
{
	size_t keep = task_size < sizeof(struct vnpu_task) ? task_size : sizeof(struct vnpu_task);

	*copy = NULL;
	if (task_size == sizeof(struct vnpu_task))
		return tasks;
	*copy = calloc(n, sizeof(**copy));
	for (unsigned int i = 0; *copy && i < n; i++)
		memcpy(&(*copy)[i], (const char *)tasks + (size_t)i * task_size, keep);
	return *copy;
}

/*
 * The host instant of a device time: CLOCK_MONOTONIC_RAW, as the host's
 * records; 0 when the module does not say (before uapi 0.10).
 */
static uint64_t submit_raw_ns(const struct npuprof_dev *dev, uint64_t ticks)
{
	const struct vnpu_info *in = &dev->rec.info;

	if (in->size < VNPU_INFO_SIZE_VER2 || !in->time_base_raw_ns || !ticks ||
	    !in->sys_cnt_freq_khz)
		return 0;
	return in->time_base_raw_ns +
	       (uint64_t)((unsigned __int128)ticks * 1000000u / in->sys_cnt_freq_khz);
}

NPUPROF_API int npuprof_launch_stride(struct npuprof_dev *dev, const void *tasks, unsigned int n,
				      size_t task_size, uint64_t *ids, struct npuprof_error *err)
{
	struct vnpu_submit sub = {
		.size = sizeof(sub),
		.tasks = (uintptr_t)tasks,
		.task_ids = (uintptr_t)ids,
		.count = n,
		.task_size = (uint32_t)task_size,
	};
	uint64_t t0 = nph_now_ns(), *own = NULL;
	const struct vnpu_task *ours;
	struct vnpu_task *copy;
	int ret = 0;

	npx_clear_error(err);
	if (!dev || !tasks)
		return npx_set_error(err, -EINVAL, "npuprof_launch: NULL argument");
	if (n == 0 || n > dev->rec.info.max_submit)
		return npx_set_error(err, -EINVAL, "npuprof_launch: %u tasks (1..%u)", n,
				     dev->rec.info.max_submit);
	/* the driver's bounds, checked here to name them */
	if (task_size < VNPU_TASK_SIZE_VER0 || task_size > 4096)
		return npx_set_error(err, -EINVAL,
				     "npuprof_launch: task_size %zu (%u..4096: sizeof(struct"
				     " vnpu_task) as the caller knows it)",
				     task_size, VNPU_TASK_SIZE_VER0);
	ours = tasks_as_ours(tasks, n, task_size, &copy);
	if (!ours)
		return npx_set_error(err, -ENOMEM, "npuprof_launch: out of memory");
	/* task_track names each task's id: ask for them while recording */
	if (!ids && nph_recording()) {
		own = malloc(n * sizeof(*own));
		sub.task_ids = (uintptr_t)own;
	}
	if (ioctl(dev->fd, VNPU_IOC_SUBMIT, &sub)) {
		ret = -errno;
		npx_set_error(err, ret, "vnpu%u: launch of %u task(s) from '%.*s' (%.*s): %s",
			      dev->rec.id, n, (int)sizeof(ours[0].op_name), ours[0].op_name,
			      (int)sizeof(ours[0].op_type), ours[0].op_type, strerror(-ret));
	}
	/* nothing was queued on an error: the call alone is recorded */
	nph_launch_record(&dev->rec, ours, n,
			  ret	? NULL
			  : ids ? ids
				: own,
			  t0, ret ? 0 : submit_raw_ns(dev, sub.submit_time));
	free(own);
	free(copy);
	return ret;
}

/* LIBNPUPROF_0.1's npuprof_launch(): its struct vnpu_task was VER0's. */
NPUPROF_API int npuprof_launch_v0_1(struct npuprof_dev *dev, const struct vnpu_task *tasks,
				    unsigned int n, uint64_t *ids, struct npuprof_error *err)
{
	return npuprof_launch_stride(dev, tasks, n, VNPU_TASK_SIZE_VER0, ids, err);
}
NPUPROF_COMPAT(npuprof_launch_v0_1, npuprof_launch, "LIBNPUPROF_0.1");

static int do_sync(struct npuprof_dev *dev, uint32_t stream, uint32_t flags,
		   unsigned int timeout_ms, struct npuprof_error *err)
{
	struct vnpu_sync sy = {
		.size = sizeof(sy),
		.flags = flags,
		.stream_id = stream,
		.timeout_ms = timeout_ms,
	};
	uint64_t t0 = nph_now_ns(), r0, r1;
	int ret;

	npx_clear_error(err);
	if (!dev)
		return npx_set_error(err, -EINVAL, "npuprof_sync: NULL device");
	r0 = t0 ? npx_now_ns() : 0;
	ret = ioctl(dev->fd, VNPU_IOC_SYNC, &sy) ? -errno : 0;
	r1 = t0 ? npx_now_ns() : 0;
	if (ret) {
		char what[32] = "all streams";

		if (!(flags & VNPU_SYNC_F_ALL_STREAMS))
			snprintf(what, sizeof(what), "stream %u", stream);
		/* the driver's word for a collective that completed without running */
		npx_set_error(err, ret, "vnpu%u: sync of %s: %s", dev->rec.id, what,
			      ret == -EPIPE ? "a collective was aborted (a rank of its "
					      "communicator left, or the ranks disagreed on it)"
					    : strerror(-ret));
	}
	nph_api_record(NPF_API_SYNC, t0, r0, r1);
	return ret;
}

/*
 * The library's timeouts are poll(2)'s: negative waits forever, 0 does not
 * wait, N waits N ms; the ioctl's 0 means forever and NOWAIT is a flag.
 */
static int sync_timeout(struct npuprof_dev *dev, uint32_t stream, uint32_t flags, int timeout_ms,
			struct npuprof_error *err)
{
	if (timeout_ms < 0)
		return do_sync(dev, stream, flags, 0, err);
	if (timeout_ms == 0)
		return do_sync(dev, stream, flags | VNPU_SYNC_F_NOWAIT, 0, err);
	return do_sync(dev, stream, flags, (uint32_t)timeout_ms, err);
}

NPUPROF_API int npuprof_sync_v0_2(struct npuprof_dev *dev, uint32_t stream, int timeout_ms,
				  struct npuprof_error *err)
{
	return sync_timeout(dev, stream, 0, timeout_ms, err);
}
NPUPROF_DEFAULT(npuprof_sync_v0_2, npuprof_sync, "LIBNPUPROF_0.2");

NPUPROF_API int npuprof_sync_all_v0_2(struct npuprof_dev *dev, int timeout_ms,
				      struct npuprof_error *err)
{
	return sync_timeout(dev, 0, VNPU_SYNC_F_ALL_STREAMS, timeout_ms, err);
}
NPUPROF_DEFAULT(npuprof_sync_all_v0_2, npuprof_sync_all, "LIBNPUPROF_0.2");

/* LIBNPUPROF_0.1's: an unsigned timeout, 0 waiting forever */
NPUPROF_API int npuprof_sync_v0_1(struct npuprof_dev *dev, uint32_t stream, unsigned int timeout_ms,
				  struct npuprof_error *err)
{
	return do_sync(dev, stream, 0, timeout_ms, err);
}
NPUPROF_COMPAT(npuprof_sync_v0_1, npuprof_sync, "LIBNPUPROF_0.1");

NPUPROF_API int npuprof_sync_all_v0_1(struct npuprof_dev *dev, unsigned int timeout_ms,
				      struct npuprof_error *err)
{
	return do_sync(dev, 0, VNPU_SYNC_F_ALL_STREAMS, timeout_ms, err);
}
NPUPROF_COMPAT(npuprof_sync_all_v0_1, npuprof_sync_all, "LIBNPUPROF_0.1");
