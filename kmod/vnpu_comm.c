// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: collective communication across the module's devices.
 *
 * A COMMUNICATION task names the devices taking part (a mask) and a tag.
 * When it reaches the head of its stream it "arrives" at the rendezvous of
 * that (mask, tag, op); when every device of the mask has arrived, the
 * collective starts on all of them at the latest arrival time and lasts
 * what the ring-algorithm cost model says. If a taking-part file is
 * released before that (whether its task had arrived or was still queued
 * behind others), the rendezvous is aborted: the devices that arrived, and
 * those that arrive later, complete theirs at once, so that no stream
 * waits forever on a closed file. An aborted rendezvous stays findable
 * until every device of its mask has come by (or the module unloads), but
 * only VNPU_COMM_MAX_IDLE of those no task holds are kept: beyond that the
 * oldest is forgotten, so that half-submitted collectives cannot pin kernel
 * memory without bound.
 *
 * Lock order: vnpu_device.lock, then vnpu_comm_lock.
 */
#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "vnpu_drv.h"

/**
 * struct vnpu_comm - one collective between devices
 * @node: in vnpu_comm_list until every device of @devices has arrived.
 * @devices: the devices taking part (bit N for /dev/vnpuN).
 * @tag: the caller's tag that matches the submissions.
 * @op: enum vnpu_comm_op.
 * @arrived: devices whose task reached the head of its stream.
 * @left: devices whose task completed or was cancelled.
 * @bytes: message size per device (the largest given).
 * @ready: the latest arrival time, device ticks.
 * @start: start of the collective, once @done.
 * @end: end of the collective, once @done.
 * @done: every device arrived: @start and @end are set.
 * @aborted: a device's task was cancelled before the collective started.
 */
struct vnpu_comm {
	struct list_head node;
	u32 devices;
	u32 tag;
	u32 op;
	u32 arrived;
	u32 left;
	u64 bytes;
	u64 ready;
	u64 start;
	u64 end;
	bool done;
	bool aborted;
};

/* Aborted rendezvous kept for partners that have not come by yet. */
#define VNPU_COMM_MAX_IDLE 64

static DEFINE_SPINLOCK(vnpu_comm_lock);
static LIST_HEAD(vnpu_comm_list);

struct vnpu_comm *vnpu_comm_alloc(void)
{
	struct vnpu_comm *c;

	if (vnpu_fail_alloc())
		return NULL;
	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return NULL;
	INIT_LIST_HEAD(&c->node);
	vnpu_obj_get(VNPU_OBJ_COMM);
	return c;
}

void vnpu_comm_free(struct vnpu_comm *c)
{
	if (!c)
		return;
	kfree(c);
	vnpu_obj_put(VNPU_OBJ_COMM);
}

/* Wake the executors of the devices in @mask other than @self. */
static void vnpu_comm_kick(u32 mask, u32 self)
{
	unsigned long bits = mask & ~BIT(self);
	struct vnpu_device *vdev;
	unsigned int i;

	for_each_set_bit(i, &bits, VNPU_MAX_DEVICES) {
		vdev = vnpu_device_get(i);
		if (vdev)
			vnpu_exec_kick(vdev);
	}
}

/*
 * Find the rendezvous of @task's collective that @vdev has not joined yet,
 * or start one with the task's spare, and join it. Under vnpu_comm_lock.
 */
static struct vnpu_comm *vnpu_comm_join(struct vnpu_device *vdev,
					struct vnpu_ktask *task, u64 ready)
{
	const struct vnpu_task *d = &task->desc;
	u32 bit = BIT(vdev->id);
	struct vnpu_comm *c;

	list_for_each_entry(c, &vnpu_comm_list, node) {
		if (c->devices == d->comm_devices && c->tag == d->comm_tag &&
		    c->op == d->comm_op && !(c->arrived & bit))
			goto found;
	}
	c = task->comm_spare;
	task->comm_spare = NULL;
	c->devices = d->comm_devices;
	c->tag = d->comm_tag;
	c->op = d->comm_op;
	list_add_tail(&c->node, &vnpu_comm_list);
found:
	c->arrived |= bit;
	c->ready = max(c->ready, ready);
	c->bytes = max(c->bytes, d->bytes);
	task->comm = c;
	return c;
}

/* Every device came by and every arrived task left: free. */
static bool vnpu_comm_finished(const struct vnpu_comm *c)
{
	return c->arrived == c->devices && c->left == c->arrived;
}

/* Aborted, waiting for partners, and no task of it left to leave. */
static bool vnpu_comm_idle(const struct vnpu_comm *c)
{
	return c->aborted && c->left == c->arrived && c->arrived != c->devices;
}

/*
 * Take the oldest idle rendezvous off the list while there are more than
 * VNPU_COMM_MAX_IDLE; returns the one to free (one per call is enough: each
 * call adds at most one). Under vnpu_comm_lock.
 */
static struct vnpu_comm *vnpu_comm_trim(void)
{
	struct vnpu_comm *c, *oldest = NULL;
	u32 idle = 0;

	list_for_each_entry(c, &vnpu_comm_list, node) {
		if (!vnpu_comm_idle(c))
			continue;
		if (!oldest)
			oldest = c;
		idle++;
	}
	if (idle <= VNPU_COMM_MAX_IDLE)
		return NULL;
	list_del_init(&oldest->node);
	return oldest;
}

/**
 * vnpu_comm_arrive() - a COMMUNICATION task reached the head of its stream
 * @vdev: its device (locked).
 * @task: the task; gets its rendezvous in @task->comm.
 * @ready: the earliest device time it could start on @vdev.
 */
void vnpu_comm_arrive(struct vnpu_device *vdev, struct vnpu_ktask *task, u64 ready)
{
	struct vnpu_comm *c;

	lockdep_assert_held(&vdev->lock);
	spin_lock(&vnpu_comm_lock);
	c = vnpu_comm_join(vdev, task, ready);
	if (c->arrived == c->devices) {
		list_del_init(&c->node);
		if (!c->aborted) {
			c->start = c->ready;
			c->end = c->start +
				 vnpu_model_comm_ticks(vdev->product, c->op,
						       hweight32(c->devices), c->bytes);
			c->done = true;
			vnpu_comm_kick(c->devices, vdev->id);
		}
	}
	spin_unlock(&vnpu_comm_lock);
}

/**
 * vnpu_comm_ready() - can the arrived @task run, and when?
 * @task: an arrived COMMUNICATION task.
 * @start: set to its start when it can run.
 * @end: set to its end when it can run.
 *
 * Return: true when every device arrived, or the collective was aborted
 * (the task then takes no time).
 */
bool vnpu_comm_ready(const struct vnpu_ktask *task, u64 *start, u64 *end)
{
	struct vnpu_comm *c = task->comm;
	bool ready;

	spin_lock(&vnpu_comm_lock);
	ready = c->done || c->aborted;
	if (c->done) {
		*start = c->start;
		*end = c->end;
	} else if (c->aborted) {
		*start = c->ready;
		*end = c->ready;
	}
	spin_unlock(&vnpu_comm_lock);
	return ready;
}

/**
 * vnpu_comm_leave() - a COMMUNICATION task completed or was cancelled
 * @vdev: its device (locked).
 * @task: the task, arrived or (when cancelled) still queued; the
 *        rendezvous is freed when every device came by and left.
 * @cancelled: the task's file is being released.
 */
void vnpu_comm_leave(struct vnpu_device *vdev, struct vnpu_ktask *task, bool cancelled)
{
	struct vnpu_comm *c, *forgotten = NULL;
	bool last;

	lockdep_assert_held(&vdev->lock);
	spin_lock(&vnpu_comm_lock);
	/* a queued task that never arrived still counts for its partners */
	c = task->comm ? task->comm : vnpu_comm_join(vdev, task, 0);
	c->left |= BIT(vdev->id);
	if (cancelled && !c->done && !c->aborted) {
		c->aborted = true;
		vnpu_comm_kick(c->arrived, vdev->id);
	}
	if (c->arrived == c->devices)
		list_del_init(&c->node);
	last = vnpu_comm_finished(c);
	if (vnpu_comm_idle(c))
		forgotten = vnpu_comm_trim();
	spin_unlock(&vnpu_comm_lock);
	task->comm = NULL;
	if (last)
		vnpu_comm_free(c);
	vnpu_comm_free(forgotten);
}

/* Module exit: no file is open; free the aborted ones never completed. */
void vnpu_comm_cleanup(void)
{
	struct vnpu_comm *c, *tmp;

	spin_lock(&vnpu_comm_lock);
	list_for_each_entry_safe(c, tmp, &vnpu_comm_list, node) {
		list_del(&c->node);
		vnpu_comm_free(c);
	}
	spin_unlock(&vnpu_comm_lock);
}
