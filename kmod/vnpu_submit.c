// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: VNPU_IOC_SUBMIT - copy in a batch of task descriptors, validate
 * every field, and queue the batch on its streams, all or nothing.
 */
#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"
#include "vnpu_names.h"
#include "vnpu_trace.h"

static const u8 vnpu_dtype_size[VNPU_DT_COUNT] = VNPU_DTYPE_SIZES;

/* A NUL-terminated, non-empty name within @len bytes (uapi/vnpu_names.h). */
static bool vnpu_name_valid(const char *name, size_t len)
{
	const u8 *s = (const u8 *)name;
	size_t n = strnlen(name, len), i = 0;
	unsigned int step;

	if (n == 0 || n == len)
		return false;
	for (; i < n; i += step) {
		step = vnpu_name_char(s + i, n - i);
		if (!step)
			return false;
	}
	return true;
}

/* Validate @t and return its size in bytes through @bytes, or -EINVAL. */
static int vnpu_tensor_validate(const struct vnpu_tensor *t, u64 *bytes)
{
	u64 n = 1;
	u32 i;

	if (t->dtype >= VNPU_DT_COUNT || t->format >= VNPU_FMT_COUNT ||
	    t->ndims > VNPU_MAX_DIMS || t->reserved)
		return -EINVAL;
	for (i = 0; i < VNPU_MAX_DIMS; i++) {
		if (i < t->ndims) {
			if (!t->dims[i] || check_mul_overflow(n, t->dims[i], &n))
				return -EINVAL;
		} else if (t->dims[i]) {
			return -EINVAL;
		}
	}
	if (check_mul_overflow(n, (u64)vnpu_dtype_size[t->dtype], bytes))
		return -EINVAL;
	return 0;
}

/* The handle's existence, and the peer's, are checked when the batch is reserved. */
static int vnpu_comm_validate(const struct vnpu_task *t)
{
	if (t->task_type != VNPU_TASK_COMMUNICATION)
		return t->comm_op || t->comm_id || t->comm_tag || t->comm_peer ? -EINVAL : 0;
	if (t->comm_op >= VNPU_COMM_OP_COUNT || t->comm_peer >= VNPU_MAX_DEVICES)
		return -EINVAL;
	if (!t->comm_id || t->comm_id > VNPU_MAX_COMMS)
		return -EINVAL;
	return 0;
}

/**
 * vnpu_task_validate() - check every field of a task descriptor
 * @vdev: the device it is submitted to (product limits).
 * @t: the descriptor, as copied in (unknown tail bytes already checked).
 *
 * Stream and communicator existence is checked when the batch is reserved.
 *
 * Return: 0 or -EINVAL.
 */
int vnpu_task_validate(const struct vnpu_device *vdev, const struct vnpu_task *t)
{
	const struct vnpu_product_desc *p = vdev->product;
	bool mix = t->task_type == VNPU_TASK_MIX_AIC ||
		   t->task_type == VNPU_TASK_MIX_AIV;
	u64 bytes = 0, sum = 0;
	u32 i, ntensors;

	if (!vnpu_name_valid(t->op_name, sizeof(t->op_name)) ||
	    !vnpu_name_valid(t->op_type, sizeof(t->op_type)))
		return -EINVAL;
	if (t->task_type >= VNPU_TASK_TYPE_COUNT || t->stream_id >= VNPU_MAX_STREAMS)
		return -EINVAL;
	if (t->flags & ~VNPU_TASK_F_ALL)
		return -EINVAL;
	if (t->reserved[0] || t->reserved[1])
		return -EINVAL;

	if (!t->block_num || t->block_num > U16_MAX)
		return -EINVAL;
	if ((t->task_type == VNPU_TASK_AI_CPU ||
	     t->task_type == VNPU_TASK_COMMUNICATION) && t->block_num != 1)
		return -EINVAL;
	if (mix != !!t->mix_block_num || t->mix_block_num > U16_MAX)
		return -EINVAL;
	if (mix && !(p->caps & VNPU_CAP_SPLIT_AIC_AIV))
		return -EINVAL;
	if (t->task_type == VNPU_TASK_AI_VECTOR_CORE && !p->aiv_num)
		return -EINVAL;
	if (vnpu_comm_validate(t))
		return -EINVAL;

	if (t->n_inputs > VNPU_MAX_TENSORS || t->n_outputs > VNPU_MAX_TENSORS)
		return -EINVAL;
	ntensors = t->n_inputs + t->n_outputs;
	if (ntensors > VNPU_MAX_TENSORS)
		return -EINVAL;
	for (i = 0; i < VNPU_MAX_TENSORS; i++) {
		if (i >= ntensors) {
			if (memchr_inv(&t->tensors[i], 0, sizeof(t->tensors[i])))
				return -EINVAL;
			continue;
		}
		if (vnpu_tensor_validate(&t->tensors[i], &bytes) ||
		    check_add_overflow(sum, bytes, &sum))
			return -EINVAL;
	}

	if (t->flops > VNPU_TASK_MAX_FLOPS || t->bytes > VNPU_TASK_MAX_BYTES)
		return -EINVAL;
	if (!t->bytes && sum > VNPU_TASK_MAX_BYTES)
		return -EINVAL;
	return 0;
}

/* Bytes of a validated task: as given, or the sum of its tensors' sizes. */
static u64 vnpu_task_bytes(const struct vnpu_task *t)
{
	u64 sum = 0, n;
	u32 i, d;

	if (t->bytes)
		return t->bytes;
	for (i = 0; i < t->n_inputs + t->n_outputs; i++) {
		n = vnpu_dtype_size[t->tensors[i].dtype];
		for (d = 0; d < t->tensors[i].ndims; d++)
			n *= t->tensors[i].dims[d];
		sum += n;
	}
	return sum;
}

static void vnpu_free_batch(struct vnpu_ktask **tasks, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		vnpu_task_free(tasks[i]);
	kvfree(tasks);
}

/*
 * Are the streams and communicators of the whole batch there (-ENOENT),
 * and the peers its tasks name ranks of their communicators (-EINVAL)?
 * Under vfile->lock.
 */
static int vnpu_batch_check_targets(struct vnpu_file *vfile, struct vnpu_ktask **tasks,
				    u32 count)
{
	struct vnpu_comm_handle *h;
	struct vnpu_stream *stream;
	u32 i;

	for (i = 0; i < count; i++) {
		stream = vfile->streams[tasks[i]->desc.stream_id];
		if (!stream || stream->dying)
			return -ENOENT;
		if (tasks[i]->desc.task_type != VNPU_TASK_COMMUNICATION)
			continue;
		h = vnpu_comm_handle_get(vfile, tasks[i]->desc.comm_id);
		if (!h)
			return -ENOENT;
		if (vnpu_comm_check_peer(h, &tasks[i]->desc))
			return -EINVAL;
	}
	return 0;
}

/* Tasks of the file queued, reserved or being copied in. */
static u32 vnpu_quota_used(const struct vnpu_file *vfile)
{
	return READ_ONCE(vfile->npending) + READ_ONCE(vfile->nstaged);
}

/*
 * Wait (interruptibly, holding nothing) until the file's quota has room for
 * @count tasks, and take it, before anything is allocated for them: a
 * submitter that waits holds no memory, and the task copies a file can
 * make are bounded by its quota. The quota is the file's own: one file's
 * stuck work (a collective whose partner never comes) never keeps
 * another's from the device.
 */
static int vnpu_quota_take(struct vnpu_file *vfile, u32 count)
{
	struct vnpu_device *vdev = vfile->vdev;
	int ret;

	for (;;) {
		ret = wait_event_interruptible(vdev->done_wq,
					       vnpu_quota_used(vfile) + count <= VNPU_MAX_PENDING);
		if (ret)
			return ret;
		spin_lock(&vdev->lock);
		if (vfile->npending + vfile->nstaged + count <= VNPU_MAX_PENDING)
			break;
		/* another submitter took the room first */
		spin_unlock(&vdev->lock);
	}
	WRITE_ONCE(vfile->nstaged, vfile->nstaged + count);
	spin_unlock(&vdev->lock);
	return 0;
}

static void vnpu_quota_give_back(struct vnpu_file *vfile, u32 count)
{
	struct vnpu_device *vdev = vfile->vdev;

	spin_lock(&vdev->lock);
	WRITE_ONCE(vfile->nstaged, vfile->nstaged - count);
	spin_unlock(&vdev->lock);
	/* another submitter of the file may be waiting for the room */
	wake_up_all(&vdev->done_wq);
}

/*
 * Turn the quota the batch took into a reservation, with its ids: on
 * return 0 the batch is counted as pending but not queued, each task knows
 * its stream, and each stream counts it in @reserved, so that a destroy
 * waits for it. No lock is held then: the caller copies to user memory,
 * which may fault and take mmap_lock, and mmap takes vfile->lock under
 * mmap_lock.
 */
static int vnpu_reserve_batch(struct vnpu_file *vfile, struct vnpu_ktask **tasks,
			      u32 count, u64 *first_id, u64 *nids, u64 *submit)
{
	struct vnpu_device *vdev = vfile->vdev;
	int ret;
	u32 i;

	mutex_lock(&vfile->lock);
	ret = vnpu_batch_check_targets(vfile, tasks, count);
	if (ret) {
		mutex_unlock(&vfile->lock);
		return ret;
	}
	/* a collective takes the ids of its sub-tasks (uapi/vnpu_hccl.h) */
	*nids = 0;
	for (i = 0; i < count; i++) {
		tasks[i]->nids = 1;
		if (tasks[i]->desc.task_type == VNPU_TASK_COMMUNICATION)
			tasks[i]->nids = vnpu_hccl_steps(tasks[i]->desc.comm_op,
							 vnpu_task_handle(vfile, tasks[i])->nranks);
		*nids += tasks[i]->nids;
	}
	spin_lock(&vdev->lock);
	*first_id = vdev->next_task_id;
	vdev->next_task_id += *nids;
	/*
	 * The batch's submission, under the lock that orders the ids: ids
	 * and submission times rise together (no task starts before it).
	 */
	*submit = vnpu_now_ticks(vdev->product);
	WRITE_ONCE(vfile->nstaged, vfile->nstaged - count);
	WRITE_ONCE(vdev->npending, vdev->npending + count);
	WRITE_ONCE(vfile->npending, vfile->npending + count);
	for (i = 0; i < count; i++) {
		tasks[i]->stream = vfile->streams[tasks[i]->desc.stream_id];
		tasks[i]->submit = *submit;
		WRITE_ONCE(tasks[i]->stream->reserved, tasks[i]->stream->reserved + 1);
		/* a destroy of the handle now waits for this collective */
		if (tasks[i]->desc.task_type == VNPU_TASK_COMMUNICATION)
			vnpu_task_handle(vfile, tasks[i])->queued++;
	}
	spin_unlock(&vdev->lock);
	mutex_unlock(&vfile->lock);
	return 0;
}

/*
 * The copy-out failed: give the reserved room back, and the ids too unless
 * another file took ids since.
 */
static void vnpu_unreserve_batch(struct vnpu_file *vfile, struct vnpu_ktask **tasks, u32 count,
				 u64 first_id, u64 nids)
{
	struct vnpu_device *vdev = vfile->vdev;
	u32 i;

	spin_lock(&vdev->lock);
	for (i = 0; i < count; i++) {
		struct vnpu_stream *s = tasks[i]->stream;

		WRITE_ONCE(s->reserved, s->reserved - 1);
		/* a destroy waits for the reservations to go too */
		if (!s->reserved && !s->npending)
			vnpu_wake_idle(&s->idle_wq);
		if (tasks[i]->desc.task_type == VNPU_TASK_COMMUNICATION)
			vnpu_task_handle(vfile, tasks[i])->queued--;
	}
	if (vdev->next_task_id == first_id + nids)
		vdev->next_task_id = first_id;
	WRITE_ONCE(vdev->npending, vdev->npending - count);
	WRITE_ONCE(vfile->npending, vfile->npending - count);
	if (!vfile->npending)
		vnpu_wake_idle(&vfile->idle_wq);
	spin_unlock(&vdev->lock);
	/* another submitter of the file may be waiting for the room */
	wake_up_all(&vdev->done_wq);
}

/*
 * The key of @task's jitter: the seed, the device, the stream (its id in
 * the file, which a new run numbers the same) and the task's place on it,
 * not its id (ids are device-wide and never reused): the same seed gives
 * the same draws op for op, run after run.
 */
static void vnpu_task_key_jitter(struct vnpu_device *vdev, struct vnpu_ktask *task, u64 seed)
{
	struct vnpu_stream *s = task->stream;

	task->jitter_sigma = seed ? vnpu_param_jitter : 0;
	task->jitter_key = seed ^ (u64)vdev->id << 56 ^ (u64)s->id << 48 ^ s->nqueued++;
}

/*
 * Queue a reserved batch, ids from @first_id. Its streams are still there:
 * a destroy waits for their reservations.
 */
static void vnpu_queue_batch(struct vnpu_file *vfile, struct vnpu_ktask **tasks,
			     u32 count, u64 first_id)
{
	struct vnpu_device *vdev = vfile->vdev;
	u64 seed = READ_ONCE(vnpu_param_seed);
	struct vnpu_stream *stream;
	u32 i;

	spin_lock(&vdev->lock);
	for (i = 0; i < count; i++) {
		stream = tasks[i]->stream;
		WRITE_ONCE(stream->reserved, stream->reserved - 1);
		tasks[i]->id = first_id;
		first_id += tasks[i]->nids;
		vnpu_task_key_jitter(vdev, tasks[i], seed);
		if (tasks[i]->desc.task_type == VNPU_TASK_COMMUNICATION)
			vnpu_comm_queue(tasks[i], vnpu_task_handle(vfile, tasks[i]));
		list_add_tail(&tasks[i]->node, &stream->pending);
		WRITE_ONCE(stream->npending, stream->npending + 1);
		if (stream->npending == 1)
			vnpu_exec_queue_stream(vdev, stream);
		trace_vnpu_task_submit(vdev->id, tasks[i]->id, stream->hw_id,
				       tasks[i]->desc.task_type,
				       tasks[i]->desc.op_type,
				       tasks[i]->desc.block_num, stream->npending);
	}
	spin_unlock(&vdev->lock);
	vnpu_exec_kick(vdev);
}

long vnpu_ioctl_submit(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_ktask **tasks;
	struct vnpu_submit sub;
	u64 __user *uids;
	u64 first_id = 0, nids = 0, id;
	u32 i, n = 0, usize;
	long ret;

	ret = vnpu_copy_struct_in(&sub, sizeof(sub), VNPU_SUBMIT_SIZE_VER0, arg);
	if (ret)
		return ret;
	/* submitted and submit_time are outputs: a reused struct is fine */
	if (sub.flags || sub.reserved || !sub.count || !sub.tasks)
		return -EINVAL;
	/* not E2BIG, which says "a non-zero tail" */
	if (sub.count > VNPU_MAX_SUBMIT)
		return -EMSGSIZE;
	if (sub.task_size < VNPU_TASK_SIZE_VER0 || sub.task_size > PAGE_SIZE)
		return -EINVAL;
	uids = u64_to_user_ptr(sub.task_ids);
	/* the struct is written back at the end: fault before queuing */
	if (vnpu_copy_struct_out(arg, &sub, sizeof(sub), sub.size))
		return -EFAULT;

	ret = vnpu_quota_take(vfile, sub.count);
	if (ret)
		return ret;
	tasks = vnpu_fail_alloc() ? NULL :
		kvcalloc(sub.count, sizeof(*tasks), GFP_KERNEL_ACCOUNT);
	if (!tasks) {
		vnpu_quota_give_back(vfile, sub.count);
		return -ENOMEM;
	}
	for (n = 0; n < sub.count; n++) {
		const void __user *src = u64_to_user_ptr(sub.tasks) +
					 (u64)n * sub.task_size;
		struct vnpu_ktask *t = vnpu_task_alloc();

		if (!t) {
			ret = -ENOMEM;
			goto out_free;
		}
		tasks[n] = t;
		INIT_LIST_HEAD(&t->node);
		ret = copy_struct_from_user(&t->desc, sizeof(t->desc), src,
					    sub.task_size);
		if (ret)
			goto out_free_all;
		ret = vnpu_task_validate(vdev, &t->desc);
		if (ret)
			goto out_free_all;
		t->desc.bytes = vnpu_task_bytes(&t->desc);
		if (t->desc.task_type == VNPU_TASK_COMMUNICATION) {
			t->comm_spare = vnpu_comm_alloc();
			if (!t->comm_spare) {
				ret = -ENOMEM;
				goto out_free_all;
			}
		}
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto out_free_all;
		}
	}

	ret = vnpu_reserve_batch(vfile, tasks, n, &first_id, &nids, &sub.submit_time);
	if (ret)
		goto out_free;

	/*
	 * The outputs are written while the batch is reserved but not queued,
	 * with no lock held (the copies may fault), so that -EFAULT always
	 * means nothing was queued. The ids reserved are then
	 * given back, or skipped if another file took ids meanwhile: ids stay
	 * unique and increasing.
	 */
	for (i = 0, id = first_id; uids && i < sub.count; id += tasks[i]->nids, i++) {
		if (put_user(id, &uids[i])) {
			ret = -EFAULT;
			goto out_unreserve;
		}
	}
	usize = sub.size;
	sub.size = sizeof(sub);
	sub.submitted = sub.count;
	ret = vnpu_copy_struct_out(arg, &sub, sizeof(sub), usize);
	if (ret)
		goto out_unreserve;
	vnpu_queue_batch(vfile, tasks, n, first_id);
	kvfree(tasks);
	return 0;

out_unreserve:
	vnpu_unreserve_batch(vfile, tasks, n, first_id, nids);
	vnpu_free_batch(tasks, n);
	return ret;
out_free_all:
	n++;
out_free:
	vnpu_free_batch(tasks, n);
	vnpu_quota_give_back(vfile, sub.count);
	return ret;
}
