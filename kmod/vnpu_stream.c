// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: streams of an open file (create, destroy, sync, release).
 *
 * A stream is an in-order queue. Its slot in vnpu_file.streams holds one
 * reference; a sync waiting on it holds another, so that a concurrent
 * destroy cannot free it under the waiter.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"

static void vnpu_stream_free(struct kref *ref)
{
	struct vnpu_stream *stream = container_of(ref, struct vnpu_stream, ref);

	/* no record names it any more: its device-wide id can be reused */
	ida_free(&stream->vfile->vdev->hw_streams, stream->hw_id);
	kfree(stream);
	vnpu_obj_put(VNPU_OBJ_STREAM);
}

static void vnpu_stream_put(struct vnpu_stream *stream)
{
	kref_put(&stream->ref, vnpu_stream_free);
}

long vnpu_ioctl_stream_create(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_stream_create sc;
	struct vnpu_stream *stream;
	u32 id, usize;
	int ret;

	ret = vnpu_copy_struct_in(&sc, sizeof(sc), VNPU_STREAM_CREATE_SIZE_VER0, arg);
	if (ret)
		return ret;
	/* stream_id and hw_stream_id are outputs: a reused struct is fine */
	if (sc.flags)
		return -EINVAL;

	stream = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*stream), GFP_KERNEL_ACCOUNT);
	if (!stream)
		return -ENOMEM;
	ret = vnpu_fail_alloc() ? -ENOMEM :
	      ida_alloc_max(&vdev->hw_streams, VNPU_HW_STREAMS - 1, GFP_KERNEL);
	if (ret < 0) {
		kfree(stream);
		/* every device-wide id in use: as many streams as the device has */
		return ret == -ENOSPC ? -EMFILE : ret;
	}
	stream->hw_id = ret;
	vnpu_obj_get(VNPU_OBJ_STREAM);
	kref_init(&stream->ref);
	init_waitqueue_head(&stream->idle_wq);
	stream->vfile = vfile;
	INIT_LIST_HEAD(&stream->pending);
	RB_CLEAR_NODE(&stream->active);

	mutex_lock(&vfile->lock);
	for (id = 0; id < VNPU_MAX_STREAMS; id++)
		if (!vfile->streams[id])
			break;
	if (id == VNPU_MAX_STREAMS) {
		mutex_unlock(&vfile->lock);
		vnpu_stream_put(stream);
		return -EMFILE;
	}
	stream->id = id;
	spin_lock(&vdev->lock);
	vfile->streams[id] = stream;
	spin_unlock(&vdev->lock);
	mutex_unlock(&vfile->lock);

	/*
	 * The stream is published: another thread may already SUBMIT to or
	 * DESTROY its (predictable) id, so it is never taken back. If the id
	 * cannot be copied out, the stream stays until it is destroyed or
	 * the file is released, as a DRM handle does.
	 */
	usize = sc.size;
	memset(&sc, 0, sizeof(sc));
	sc.size = sizeof(sc);
	sc.stream_id = id;
	sc.hw_stream_id = stream->hw_id;
	return vnpu_copy_struct_out(arg, &sc, sizeof(sc), usize);
}

/* Take a reference on stream @id of @vfile, or NULL if there is none. */
static struct vnpu_stream *vnpu_stream_get(struct vnpu_file *vfile, u32 id)
{
	struct vnpu_stream *stream = NULL;

	if (id >= VNPU_MAX_STREAMS)
		return NULL;
	mutex_lock(&vfile->lock);
	if (vfile->streams[id]) {
		stream = vfile->streams[id];
		kref_get(&stream->ref);
	}
	mutex_unlock(&vfile->lock);
	return stream;
}

long vnpu_ioctl_stream_destroy(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_stream_destroy sd;
	struct vnpu_stream *stream;
	int ret;

	ret = vnpu_copy_struct_in(&sd, sizeof(sd), VNPU_STREAM_DESTROY_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (sd.flags || sd.reserved)
		return -EINVAL;
	if (sd.stream_id >= VNPU_MAX_STREAMS)
		return -EINVAL;

	mutex_lock(&vfile->lock);
	stream = vfile->streams[sd.stream_id];
	if (!stream || stream->dying) {
		mutex_unlock(&vfile->lock);
		return -ENOENT;
	}
	/* no submit adds work to a dying stream; wait without the lock */
	stream->dying = true;
	mutex_unlock(&vfile->lock);

	/* a submit that reserved room on it queues first (vnpu_submit.c) */
	ret = wait_event_interruptible(stream->idle_wq, !READ_ONCE(stream->npending) &&
				       !READ_ONCE(stream->reserved));

	mutex_lock(&vfile->lock);
	if (ret) {
		stream->dying = false;
	} else {
		spin_lock(&vdev->lock);
		vfile->streams[sd.stream_id] = NULL;
		spin_unlock(&vdev->lock);
		vnpu_stream_put(stream);
	}
	mutex_unlock(&vfile->lock);
	return ret;
}

/* Wait on @wq (the stream's or the file's) until *@pending is 0. */
static long vnpu_wait_idle(wait_queue_head_t *wq, u32 *pending, u32 flags, u32 timeout_ms)
{
	long ret;

	if (flags & VNPU_SYNC_F_NOWAIT)
		return READ_ONCE(*pending) ? -ETIMEDOUT : 0;
	if (!timeout_ms)
		return wait_event_interruptible(*wq, !READ_ONCE(*pending));
	ret = wait_event_interruptible_timeout(*wq, !READ_ONCE(*pending),
					       msecs_to_jiffies(timeout_ms));
	if (ret == 0)
		return -ETIMEDOUT;
	return ret < 0 ? ret : 0;
}

long vnpu_ioctl_sync(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_stream *stream = NULL;
	struct vnpu_sync sy;
	u32 usize, aborted;
	long ret;

	ret = vnpu_copy_struct_in(&sy, sizeof(sy), VNPU_SYNC_SIZE_VER0, arg);
	if (ret)
		return ret;
	/* last_task_id and device_time are outputs: a reused struct is fine */
	if ((sy.flags & ~VNPU_SYNC_F_ALL) || sy.reserved)
		return -EINVAL;

	if (sy.flags & VNPU_SYNC_F_ALL_STREAMS) {
		if (sy.stream_id)
			return -EINVAL;
		ret = vnpu_wait_idle(&vfile->idle_wq, &vfile->npending, sy.flags, sy.timeout_ms);
	} else {
		stream = vnpu_stream_get(vfile, sy.stream_id);
		if (!stream)
			return sy.stream_id >= VNPU_MAX_STREAMS ? -EINVAL : -ENOENT;
		ret = vnpu_wait_idle(&stream->idle_wq, &stream->npending, sy.flags, sy.timeout_ms);
	}
	if (ret)
		goto out_put;

	/*
	 * A collective that was aborted (a rank left, or the ranks disagreed)
	 * completed without running: the sync after it fails with -EPIPE,
	 * once, as a runtime reports a failed task at the next synchronize.
	 */
	spin_lock(&vdev->lock);
	if (stream) {
		sy.last_task_id = stream->last_done_id;
		sy.device_time = stream->ready_at;
		aborted = stream->comm_aborted;
		stream->comm_aborted = 0;
	} else {
		sy.last_task_id = vfile->last_done_id;
		sy.device_time = vfile->last_end;
		aborted = vfile->comm_aborted;
		vfile->comm_aborted = 0;
	}
	spin_unlock(&vdev->lock);
	/* an error writes nothing back (docs/uapi.md): the next sync tells */
	if (aborted) {
		ret = -EPIPE;
		goto out_put;
	}
	usize = sy.size;
	sy.size = sizeof(sy);
	ret = vnpu_copy_struct_out(arg, &sy, sizeof(sy), usize);
out_put:
	if (stream)
		vnpu_stream_put(stream);
	return ret;
}

/* The file is going away: drop its queued work, then its streams. */
void vnpu_file_release_streams(struct vnpu_file *vfile)
{
	u32 id;

	vnpu_exec_cancel_file(vfile);
	for (id = 0; id < VNPU_MAX_STREAMS; id++) {
		if (vfile->streams[id]) {
			vnpu_stream_put(vfile->streams[id]);
			vfile->streams[id] = NULL;
		}
	}
}
