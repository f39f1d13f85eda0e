// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: communicators and the collectives that run on them.
 *
 * A communicator is a group of ranks, one per device, as an HCCL "hcom"
 * group is. One rank makes it (VNPU_COMM_F_CREATE) and gets a random key,
 * which it hands to the others as HCCL hands out its root info; each rank
 * joins with the key from a file on its own device and gets a handle in
 * that file. Only a holder of the key can join, and only while a rank is
 * free, so no other file can join or abort a group's collectives.
 *
 * A COMMUNICATION task names a handle of its file. The n-th collective a
 * rank queues on a communicator meets the n-th of every other rank (as in
 * HCCL, a group's collectives are issued in the same order on every rank):
 * when it reaches the head of its stream it "arrives" at the rendezvous of
 * that number; when every rank has arrived, the collective starts on all of
 * them at the latest arrival time and lasts what the ring-algorithm cost
 * model says. Ranks that disagree on the operation abort it.
 *
 * Sends and receives are numbered apart, per ordered pair of ranks: the
 * n-th Send from a to b meets the n-th Recv of b from a, at a rendezvous
 * of those two ranks alone.
 *
 * A rank that leaves (its handle destroyed, its file released) breaks the
 * communicator: every collective not yet complete on it, and every later
 * one, completes at once with no duration, so that no stream waits forever
 * for a rank that is gone; so do the Sends and Recvs to and from it (those
 * between the ranks that stay still run). Ranks that disagree on a
 * collective break it for everything. A rendezvous lives while a task of
 * it does; a communicator while a handle does.
 *
 * Lock order: vnpu_file.lock, vnpu_device.lock, then vnpu_comm_lock.
 */
#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"

/**
 * struct vnpu_communicator - a group of ranks
 * @node: in vnpu_comms while it has a handle.
 * @refs: handles to it (under vnpu_comm_lock).
 * @key: what a rank joins with.
 * @nranks: its ranks.
 * @joined: ranks that joined (bit per rank).
 * @devices: the devices of the ranks that joined (bit N for /dev/vnpuN).
 * @product: the product of its devices (all the same).
 * @next_seq: per rank, the number its next collective gets.
 * @p2p_seq: the number the next Send ([0][src][dst]) and the next Recv
 *           ([1][src][dst]) of a pair of ranks get.
 * @pending: its rendezvous.
 * @gone: ranks that left: what waits for one of them completes at once.
 * @broken: ranks disagreed: everything completes at once.
 */
struct vnpu_communicator {
	struct list_head node;
	u32 refs;
	u8 key[VNPU_COMM_KEY_LEN];
	u32 nranks;
	u32 joined;
	u32 devices;
	const struct vnpu_product_desc *product;
	u64 next_seq[VNPU_MAX_DEVICES];
	u64 p2p_seq[2][VNPU_MAX_DEVICES][VNPU_MAX_DEVICES];
	struct list_head pending;
	u32 gone;
	bool broken;
};

/**
 * struct vnpu_comm - the rendezvous of one collective
 * @node: in its communicator's @pending.
 * @cm: the communicator.
 * @seq: the collective's number on it (among its pair's, point to point).
 * @pair: 0 for a collective; 1 + src * VNPU_MAX_DEVICES + dst for a Send
 *        and Recv from rank src to rank dst.
 * @members: the ranks it waits for: all, or a Send's and Recv's two.
 * @op: enum vnpu_comm_op, the first rank's (a Recv counts as its Send).
 * @root: the first rank's root (Broadcast).
 * @arrived: ranks whose task reached the head of its stream.
 * @left: ranks whose task completed or was cancelled.
 * @bytes: message size per rank, the first rank's (the others must agree).
 * @link_mbps: the slowest link of the ranks that arrived.
 * @ready: the latest arrival time, device ticks.
 * @start: start of the collective, once @done.
 * @end: end of the collective, once @done.
 * @done: every rank arrived: @start and @end are set.
 * @aborted: it completes at once (a rank left, or the ranks' ops differ).
 */
struct vnpu_comm {
	struct list_head node;
	struct vnpu_communicator *cm;
	u64 seq;
	u32 pair;
	u32 members;
	u32 op;
	u32 root;
	u32 arrived;
	u32 left;
	u64 bytes;
	u32 link_mbps;
	u64 ready;
	u64 start;
	u64 end;
	bool done;
	bool aborted;
};

static DEFINE_SPINLOCK(vnpu_comm_lock);
static LIST_HEAD(vnpu_comms);

static void vnpu_communicator_free(struct vnpu_communicator *cm)
{
	if (!cm)
		return;
	/* every task of every rank is gone, and their rendezvous with them */
	WARN_ON_ONCE(!list_empty(&cm->pending));
	kfree(cm);
	vnpu_obj_put(VNPU_OBJ_COMMUNICATOR);
}

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

static u32 vnpu_comm_all_ranks(const struct vnpu_communicator *cm)
{
	return GENMASK(cm->nranks - 1, 0);
}

/* Wake the executors of the communicator's devices other than @self. */
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

/* ---- communicators and handles ---- */

/*
 * Do two keys differ? In time that does not depend on where (as
 * crypto_memneq(), which not every kernel exports to modules).
 */
static bool vnpu_comm_key_differs(const u8 *a, const u8 *b)
{
	u8 diff = 0;
	u32 i;

	for (i = 0; i < VNPU_COMM_KEY_LEN; i++)
		diff |= a[i] ^ b[i];
	return diff;
}

static struct vnpu_communicator *vnpu_comm_find(const u8 *key)
{
	struct vnpu_communicator *cm;

	lockdep_assert_held(&vnpu_comm_lock);
	list_for_each_entry(cm, &vnpu_comms, node)
		if (!vnpu_comm_key_differs(cm->key, key))
			return cm;
	return NULL;
}

/* Drop a handle's reference; the last one frees the communicator. */
static void vnpu_comm_put(struct vnpu_communicator *cm)
{
	bool last;

	spin_lock(&vnpu_comm_lock);
	last = !--cm->refs;
	if (last)
		list_del(&cm->node);
	spin_unlock(&vnpu_comm_lock);
	if (last)
		vnpu_communicator_free(cm);
}

/* Can rendezvous @c no longer happen? Under vnpu_comm_lock. */
static bool vnpu_comm_dead(const struct vnpu_comm *c)
{
	return c->aborted || c->cm->broken || (c->cm->gone & c->members);
}

/* Rank @rank (on device @self) leaves: nothing may wait for it any more. */
static void vnpu_comm_break(struct vnpu_communicator *cm, u32 rank, u32 self)
{
	u32 devices;

	spin_lock(&vnpu_comm_lock);
	cm->gone |= BIT(rank);
	devices = cm->devices;
	spin_unlock(&vnpu_comm_lock);
	vnpu_comm_kick(devices, self);
}

static int vnpu_comm_check_init(struct vnpu_comm_init *ci)
{
	if ((ci->flags & ~VNPU_COMM_F_CREATE) || ci->reserved)
		return -EINVAL;
	if (ci->nranks < 2 || ci->nranks > VNPU_MAX_DEVICES || ci->rank >= ci->nranks)
		return -EINVAL;
	return 0;
}

/* Join @cm as @rank from @vfile. Under vnpu_comm_lock. */
static int vnpu_comm_add_rank(struct vnpu_communicator *cm, struct vnpu_file *vfile,
			      const struct vnpu_comm_init *ci)
{
	struct vnpu_device *vdev = vfile->vdev;

	lockdep_assert_held(&vnpu_comm_lock);
	if (ci->nranks != cm->nranks)
		return -EINVAL;
	/* one clock rate and one link model for the whole group */
	if (vdev->product != cm->product)
		return -EINVAL;
	/* a rank already left: the group can run no collective any more */
	if (cm->broken || cm->gone)
		return -EPIPE;
	if (cm->joined & BIT(ci->rank))
		return -EBUSY;
	if (cm->devices & BIT(vdev->id))
		return -EEXIST;
	cm->joined |= BIT(ci->rank);
	cm->devices |= BIT(vdev->id);
	cm->refs++;
	return 0;
}

long vnpu_ioctl_comm_init(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_communicator *cm, *fresh = NULL;
	struct vnpu_comm_handle *h = NULL;
	struct vnpu_comm_init ci;
	u32 usize, id;
	int ret;

	ret = vnpu_copy_struct_in(&ci, sizeof(ci), VNPU_COMM_INIT_SIZE_VER0, arg);
	if (ret)
		return ret;
	ret = vnpu_comm_check_init(&ci);
	if (ret)
		return ret;
	usize = ci.size;
	/* the struct is written back at the end: fault before joining */
	if (vnpu_copy_struct_out(arg, &ci, sizeof(ci), usize))
		return -EFAULT;

	if (ci.flags & VNPU_COMM_F_CREATE) {
		fresh = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
		if (!fresh)
			return -ENOMEM;
		vnpu_obj_get(VNPU_OBJ_COMMUNICATOR);
		INIT_LIST_HEAD(&fresh->pending);
		fresh->nranks = ci.nranks;
		fresh->product = vfile->vdev->product;
		get_random_bytes(fresh->key, sizeof(fresh->key));
		memcpy(ci.key, fresh->key, sizeof(ci.key));
	}

	mutex_lock(&vfile->lock);
	for (id = 0; id < VNPU_MAX_COMMS; id++) {
		if (!vfile->comms[id].cm) {
			h = &vfile->comms[id];
			break;
		}
	}
	if (!h) {
		ret = -EMFILE;
		goto out_unlock;
	}
	spin_lock(&vnpu_comm_lock);
	if (fresh) {
		/* a key is 256 random bits: it never meets another */
		list_add_tail(&fresh->node, &vnpu_comms);
		cm = fresh;
		fresh = NULL;
	} else {
		cm = vnpu_comm_find(ci.key);
	}
	ret = cm ? vnpu_comm_add_rank(cm, vfile, &ci) : -ENOENT;
	if (!ret) {
		h->cm = cm;
		h->rank = ci.rank;
		h->nranks = cm->nranks;
		h->queued = 0;
	} else if (cm && !cm->refs) {
		/* a communicator just made, whose first rank failed */
		list_del(&cm->node);
		fresh = cm;
	}
	spin_unlock(&vnpu_comm_lock);
out_unlock:
	mutex_unlock(&vfile->lock);
	vnpu_communicator_free(fresh);
	if (ret)
		return ret;

	ci.size = sizeof(ci);
	ci.comm_id = id + 1;
	/*
	 * Written like STREAM_CREATE's id: once joined, the handle stays (the
	 * file's other threads may use it) until destroyed or released.
	 */
	return vnpu_copy_struct_out(arg, &ci, sizeof(ci), usize);
}

long vnpu_ioctl_comm_destroy(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_communicator *cm = NULL;
	struct vnpu_comm_destroy cd;
	struct vnpu_comm_handle *h;
	u32 rank = 0;
	int ret;

	ret = vnpu_copy_struct_in(&cd, sizeof(cd), VNPU_COMM_DESTROY_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (cd.flags || cd.reserved || !cd.comm_id || cd.comm_id > VNPU_MAX_COMMS)
		return -EINVAL;

	mutex_lock(&vfile->lock);
	h = &vfile->comms[cd.comm_id - 1];
	spin_lock(&vdev->lock);
	if (!h->cm) {
		ret = -ENOENT;
	} else if (h->queued) {
		/* collectives of the file, queued or being submitted, use it */
		ret = -EBUSY;
	} else {
		cm = h->cm;
		rank = h->rank;
		h->cm = NULL;
	}
	spin_unlock(&vdev->lock);
	mutex_unlock(&vfile->lock);
	if (cm) {
		vnpu_comm_break(cm, rank, vdev->id);
		vnpu_comm_put(cm);
	}
	return ret;
}

/* The file is going away, its tasks already gone: leave every group. */
void vnpu_file_release_comms(struct vnpu_file *vfile)
{
	struct vnpu_comm_handle *h;
	u32 id;

	for (id = 0; id < VNPU_MAX_COMMS; id++) {
		h = &vfile->comms[id];
		if (!h->cm)
			continue;
		vnpu_comm_break(h->cm, h->rank, vfile->vdev->id);
		vnpu_comm_put(h->cm);
		h->cm = NULL;
	}
}

/**
 * vnpu_comm_handle_get() - the handle a COMMUNICATION task names
 * @vfile: its file (lock held).
 * @comm_id: the task's comm_id, 1 .. VNPU_MAX_COMMS.
 *
 * Return: the handle, or NULL if the file has no such communicator.
 */
struct vnpu_comm_handle *vnpu_comm_handle_get(struct vnpu_file *vfile, u32 comm_id)
{
	lockdep_assert_held(&vfile->lock);
	if (!comm_id || comm_id > VNPU_MAX_COMMS || !vfile->comms[comm_id - 1].cm)
		return NULL;
	return &vfile->comms[comm_id - 1];
}

/**
 * vnpu_comm_queue() - number a collective as it is queued
 * @task: a COMMUNICATION task of a reserved batch (vdev->lock held).
 * @h: its handle.
 *
 * Its number on the communicator is the count of the rank's collectives
 * before it: nothing can fail after this, so numbers have no holes.
 */
void vnpu_comm_queue(struct vnpu_ktask *task, struct vnpu_comm_handle *h)
{
	u32 op = task->desc.comm_op, peer = task->desc.comm_peer;

	spin_lock(&vnpu_comm_lock);
	task->cm = h->cm;
	task->comm_rank = h->rank;
	task->comm_nranks = h->nranks;
	if (op == VNPU_COMM_SEND)
		task->comm_seq = h->cm->p2p_seq[0][h->rank][peer]++;
	else if (op == VNPU_COMM_RECV)
		task->comm_seq = h->cm->p2p_seq[1][peer][h->rank]++;
	else
		task->comm_seq = h->cm->next_seq[h->rank]++;
	spin_unlock(&vnpu_comm_lock);
}

/**
 * vnpu_comm_check_peer() - is a COMMUNICATION task's peer one of @h's ranks?
 * @h: the handle the task names.
 * @t: the task.
 *
 * Return: 0, or -EINVAL for a Send or Recv to itself or to a rank the
 * communicator does not have, a root it does not have, or a peer given to
 * an operation that has none.
 */
int vnpu_comm_check_peer(const struct vnpu_comm_handle *h, const struct vnpu_task *t)
{
	switch (t->comm_op) {
	case VNPU_COMM_SEND:
	case VNPU_COMM_RECV:
		return t->comm_peer < h->nranks && t->comm_peer != h->rank ? 0 : -EINVAL;
	case VNPU_COMM_BROADCAST:
		return t->comm_peer < h->nranks ? 0 : -EINVAL;
	default:
		return t->comm_peer ? -EINVAL : 0;
	}
}

/* A Send's or Recv's pair of ranks (struct vnpu_comm.pair); 0 for a collective. */
static u32 vnpu_comm_pair(const struct vnpu_ktask *task)
{
	u32 peer = task->desc.comm_peer, rank = task->comm_rank;

	if (task->desc.comm_op == VNPU_COMM_SEND)
		return 1 + rank * VNPU_MAX_DEVICES + peer;
	if (task->desc.comm_op == VNPU_COMM_RECV)
		return 1 + peer * VNPU_MAX_DEVICES + rank;
	return 0;
}

/* The op a rendezvous compares: a Recv is the other half of its Send. */
static u32 vnpu_comm_match_op(u32 op)
{
	return op == VNPU_COMM_RECV ? VNPU_COMM_SEND : op;
}

/* ---- rendezvous ---- */

/*
 * Find the rendezvous of @task's collective, or start one with the task's
 * spare, and arrive at it. Under vnpu_comm_lock.
 */
static struct vnpu_comm *vnpu_comm_join(struct vnpu_ktask *task, u64 ready)
{
	struct vnpu_communicator *cm = task->cm;
	u32 pair = vnpu_comm_pair(task), op = vnpu_comm_match_op(task->desc.comm_op);
	struct vnpu_comm *c;

	list_for_each_entry(c, &cm->pending, node) {
		if (c->seq == task->comm_seq && c->pair == pair)
			goto found;
	}
	c = task->comm_spare;
	task->comm_spare = NULL;
	c->cm = cm;
	c->seq = task->comm_seq;
	c->pair = pair;
	c->members = pair ? BIT((pair - 1) / VNPU_MAX_DEVICES) | BIT((pair - 1) % VNPU_MAX_DEVICES)
			  : vnpu_comm_all_ranks(cm);
	c->op = op;
	c->root = task->desc.comm_peer;
	list_add_tail(&c->node, &cm->pending);
found:
	if (!c->arrived) {
		c->bytes = task->desc.bytes;
		c->link_mbps = task->comm_link_mbps;
	}
	c->link_mbps = min(c->link_mbps, task->comm_link_mbps);
	c->arrived |= BIT(task->comm_rank);
	c->ready = max(c->ready, ready);
	task->comm_ready = ready;
	/*
	 * Ranks that disagree on a collective's op, message size (count x
	 * dtype) or root: the group is no longer usable.
	 */
	if (c->op != op || c->bytes != task->desc.bytes ||
	    (op == VNPU_COMM_BROADCAST && c->root != task->desc.comm_peer)) {
		c->aborted = true;
		cm->broken = true;
	}
	task->comm = c;
	return c;
}

/**
 * vnpu_comm_arrive() - a COMMUNICATION task reached the head of its stream
 * @vdev: its device (locked).
 * @task: the task; gets its rendezvous in @task->comm.
 * @ready: the earliest device time it could start on @vdev.
 */
void vnpu_comm_arrive(struct vnpu_device *vdev, struct vnpu_ktask *task, u64 ready)
{
	struct vnpu_communicator *cm = task->cm;
	struct vnpu_comm *c;

	lockdep_assert_held(&vdev->lock);
	task->comm_link_mbps = READ_ONCE(vdev->link_bw_mbps) ?: vdev->product->link_bw_mbps;
	spin_lock(&vnpu_comm_lock);
	c = vnpu_comm_join(task, ready);
	if (c->arrived == c->members && !vnpu_comm_dead(c)) {
		c->start = c->ready;
		/*
		 * the last to arrive waits the least: its sub-tasks end it, at
		 * the pace of the slowest link
		 */
		c->end = c->start + vnpu_model_comm_ticks_link(vdev->product, c->link_mbps, c->op,
								cm->nranks, c->bytes);
		c->done = true;
	}
	/* done, or aborted: the other ranks' executors may have a task to run */
	if (c->done || vnpu_comm_dead(c))
		vnpu_comm_kick(cm->devices, vdev->id);
	spin_unlock(&vnpu_comm_lock);
}

/**
 * vnpu_comm_ready() - can the arrived @task run, and when?
 * @task: an arrived COMMUNICATION task; gets the ring's pace when it can
 *        run (@task->comm_slow_mbps).
 * @start: set to its start when it can run.
 * @end: set to its end when it can run.
 *
 * Return: true when every rank arrived, or the collective cannot happen
 * (aborted, or its communicator broken: the task then takes no time).
 */
bool vnpu_comm_ready(struct vnpu_ktask *task, u64 *start, u64 *end)
{
	struct vnpu_comm *c = task->comm;
	bool ready;

	spin_lock(&vnpu_comm_lock);
	ready = c->done || vnpu_comm_dead(c);
	/*
	 * Each rank's task starts when it arrived, its first Notify_Wait
	 * holding it until the last rank is there; all end together.
	 */
	if (c->done) {
		*start = task->comm_ready;
		*end = c->end;
		task->comm_slow_mbps = c->link_mbps;
	} else if (ready) {
		*start = task->comm_ready;
		*end = task->comm_ready;
	}
	spin_unlock(&vnpu_comm_lock);
	return ready;
}

/**
 * vnpu_comm_devices() - the devices of a collective's communicator
 * @task: a COMMUNICATION task that has been queued.
 *
 * Return: bit N for /dev/vnpuN, for its records.
 */
u32 vnpu_comm_devices(const struct vnpu_ktask *task)
{
	u32 devices;

	spin_lock(&vnpu_comm_lock);
	devices = task->cm->devices;
	spin_unlock(&vnpu_comm_lock);
	return devices;
}

/**
 * vnpu_comm_leave() - a COMMUNICATION task completed or was cancelled
 * @vdev: its device (locked).
 * @task: the task, arrived or (when cancelled) still queued.
 * @h: its handle, whose queued count it leaves.
 * @cancelled: the task's file is being released.
 *
 * Return: whether the collective ran (every rank arrived, none left, all
 * agreed); false when it was aborted.
 */
bool vnpu_comm_leave(struct vnpu_device *vdev, struct vnpu_ktask *task,
		     struct vnpu_comm_handle *h, bool cancelled)
{
	struct vnpu_communicator *cm = task->cm;
	struct vnpu_comm *c = task->comm, *gone = NULL;
	u32 kick = 0;
	bool ran;

	lockdep_assert_held(&vdev->lock);
	h->queued--;
	spin_lock(&vnpu_comm_lock);
	if (cancelled && !(c && c->done)) {
		/* its partners must not wait for it: nor for this rank again */
		cm->gone |= BIT(task->comm_rank);
		kick = cm->devices;
	}
	ran = c && c->done;
	if (c) {
		c->left |= BIT(task->comm_rank);
		/* the last arrived rank to leave a collective that will not grow */
		if (c->left == c->arrived &&
		    (c->done || vnpu_comm_dead(c))) {
			list_del(&c->node);
			gone = c;
		}
	}
	spin_unlock(&vnpu_comm_lock);
	task->comm = NULL;
	vnpu_comm_free(gone);
	if (kick)
		vnpu_comm_kick(kick, vdev->id);
	return ran;
}
