/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the device, its open files, streams and tasks, and what the files
 * that run them share. Each other concern has its own header: the ring
 * (vnpu_ring.h), communicators (vnpu_comm.h), the netlink family
 * (vnpu_nl_family.h; uapi/vnpu_nl.h is its uapi), object counts and fault
 * knobs (vnpu_debugfs.h), the product table, cost and PMU models
 * (vnpu_product.h, vnpu_cost.h, vnpu_pmu.h).
 *
 * Objects and their lifetimes:
 *  - struct vnpu_device: one per /dev/vnpuN, lives as long as the module.
 *    Its executor thread runs the queued tasks in device time.
 *  - struct vnpu_file: one per open file; owns its streams.
 *  - struct vnpu_stream: created and destroyed by ioctl, or at release.
 *  - struct vnpu_ktask: a queued task, from submit until it completes or
 *    its file is released.
 */
#ifndef _VNPU_DRV_H
#define _VNPU_DRV_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vnpu.h"
#include "vnpu_ascend.h"
#include "vnpu_comm.h"
#include "vnpu_cost.h"
#include "vnpu_prof.h"
#include "vnpu_ring.h"

#define VNPU_NAME "vnpu"

/* Device-wide stream ids: msprof re-encodes ids with bit 12 or 13 set. */
#define VNPU_HW_STREAMS VNPU_MAX_HW_STREAMS

/* The device's limits, reported by VNPU_IOC_GET_INFO (struct vnpu_info). */
#define VNPU_MAX_STREAMS 64	  /* per open file */
#define VNPU_MAX_SUBMIT 4096	  /* tasks per VNPU_IOC_SUBMIT call */
#define VNPU_MAX_PENDING 4096	  /* tasks queued per open file; submit waits */
#define VNPU_RING_DEFAULT_PAGES 1024	/* 4 MiB of data */
#define VNPU_RING_MAX_PAGES 8192	/* 32 MiB of data */
#define VNPU_MAX_COMMS 16	  /* communicator handles per open file */

/* Cores of one type a device models at most (the product table's maximum). */
#define VNPU_MAX_CORES 64

/**
 * struct vnpu_prof - a profiling session
 * @owner: the file that started it; stays until that file starts another
 *         session or is released, so it can drain the ring after stop.
 * @ring: the ring; NULL once the session has stopped and the ring has no
 *        mapping left (under the owner's lock): its memory is given back.
 * @final: the ring's counters when it went.
 * @uid: the effective user that started it.
 * @see_all: it records every file's work, not only @uid's (prof_paranoid).
 * @id: session id (module-wide counter).
 * @level: enum vnpu_prof_level.
 * @group: enum vnpu_metric_group, VNPU_METRIC_NONE at L0.
 * @n_events: PMU events per side.
 * @aic_events: AIC-side event ids.
 * @aiv_events: AIV-side event ids.
 * @aic_slots: the slot of each of @aic_events (vnpu_pmu_slot()), mapped
 *             when the session starts: vnpu_pmu_compute() computes these
 *             events of a task, and no other.
 * @aiv_slots: the same for @aiv_events.
 * @hwts: the product has no STARS (no VNPU_CAP_STARS): its channels carry
 *        HWTS logs and AI Core PMU records (uapi/vnpu_ascend.h).
 * @ffts: a MIX task is an FFTS+ task (chip 5: FFTS+ logs, block PMU
 *        records), as msprof reads it on that chip alone.
 * @v6: the product writes v6 records (chip 15: 32 B ACSQ logs, 32-bit
 *      task ids, no flips, v6 PMU records).
 * @active: records are being written (under vnpu_device.lock).
 * @start_ticks: device time at which it started: a task that started
 *               before has no records in it.
 */
struct vnpu_prof {
	struct vnpu_file *owner;
	struct vnpu_ring *ring;
	struct vnpu_ring_final final;
	kuid_t uid;
	bool see_all;
	u32 id;
	u32 level;
	u32 group;
	u32 n_events;
	u32 aic_events[VNPU_PMU_EVENTS_ALL];
	u32 aiv_events[VNPU_PMU_EVENTS_ALL];
	u8 aic_slots[VNPU_PMU_EVENTS_ALL];
	u8 aiv_slots[VNPU_PMU_EVENTS_ALL];
	bool hwts;
	bool ffts;
	bool v6;
	bool active;
	u64 start_ticks;
};

/**
 * struct vnpu_ktask - a task from submit to completion
 * @node: in its stream's @pending list (under vnpu_device.lock).
 * @stream: the stream it was submitted to.
 * @id: device-wide task id, increasing in submission order; a
 *      COMMUNICATION task's sub-tasks (uapi/vnpu_hccl.h) have @id ..
 *      @id + @nids - 1.
 * @nids: the ids it takes: 1, or vnpu_hccl_steps() for a collective.
 * @desc: the validated descriptor.
 * @cm: a COMMUNICATION task's communicator, from when it is queued (its
 *      file's handle keeps it).
 * @comm_rank: its rank there.
 * @comm_seq: its number among the rank's collectives on @cm.
 * @comm_nranks: the ranks of @cm.
 * @comm_ready: when it arrived at its rendezvous, device time: its
 *              first sub-task starts then.
 * @comm_link_mbps: the bandwidth of its device's link when it arrived.
 * @comm_slow_mbps: the slowest of its ranks' links, once every rank
 *                  arrived: the ring's pace.
 * @comm: the rendezvous of a COMMUNICATION task once it reached the head of
 *        its stream; NULL before and for other types.
 * @comm_spare: a rendezvous allocated at submit for a COMMUNICATION task,
 *              used if it is the first to arrive (the executor cannot
 *              allocate); freed otherwise.
 * @submit: device time (ticks) of its submission: it starts no earlier.
 * @jitter_key: the key of its duration's jitter, set when it is queued.
 * @jitter_sigma: the jitter's standard deviation, permille; 0: none
 *                (seed 0), latched with the key.
 * @start: device time (ticks) the task started, set when it is dispatched.
 * @end: device time it ends.
 * @dur: its duration, from the cost model, once @modelled.
 * @aic_want: the AI Cores the cost model asks for, once @modelled.
 * @aiv_want: the same for the AI Vector Cores.
 * @aicpu_want: the same for the AI CPUs.
 * @modelled: @dur and the wants are set (the head of a stream is modelled
 *            once, however often it is looked at before it starts).
 * @aic_used: the AI Cores it was booked on, set when it is dispatched; 0
 *            for a COMMUNICATION task.
 * @aiv_used: the same for the AI Vector Cores.
 * @aicpu_used: the same for the AI CPUs.
 * @run: its place in the device's running tasks, from its start to its end.
 */
struct vnpu_ktask {
	struct list_head node;
	struct vnpu_stream *stream;
	u64 id;
	u32 nids;
	struct vnpu_task desc;
	struct vnpu_communicator *cm;
	u32 comm_rank;
	u32 comm_nranks;
	u64 comm_seq;
	u64 comm_ready;
	u32 comm_link_mbps;
	u32 comm_slow_mbps;
	struct vnpu_comm *comm;
	struct vnpu_comm *comm_spare;
	u64 submit;
	u64 jitter_key;
	u32 jitter_sigma;
	u64 start;
	u64 end;
	u64 dur;
	u32 aic_want;
	u32 aiv_want;
	u32 aicpu_want;
	bool modelled;
	u32 aic_used;
	u32 aiv_used;
	u32 aicpu_used;
	struct rb_node run;
};

/**
 * struct vnpu_cores - the cores of one kind, by when they are free
 * @free_at: the times they are free, sorted ascending in a circle that
 *           starts at @head; which core is which does not matter
 *           (vnpu_exec.c). The product's first N are used.
 * @head: where the circle starts.
 */
struct vnpu_cores {
	u64 free_at[VNPU_MAX_CORES];
	u32 head;
};

/**
 * struct vnpu_stream - an in-order queue of tasks (one per stream id)
 * @ref: held by vnpu_file.streams and by syncs waiting on the stream.
 * @vfile: the owner.
 * @id: index in vnpu_file.streams.
 * @hw_id: device-wide id below VNPU_HW_STREAMS, the "Stream ID" of
 *         profiling records; reused once the stream is gone.
 * @reserved: tasks of submits that reserved room on it and have not
 *            queued yet (under vnpu_device.lock).
 * @last_sched_id: the id of the last task scheduled on it.
 * @flip_session: the session @flip_epoch counts in.
 * @flip_epoch: the task id epoch (id >> 16) the session has
 *              written flips up to for this stream.
 * @dying: being destroyed: takes no more tasks (under vnpu_file.lock).
 * @pending: tasks not yet completed, in submission order.
 * @active: in vnpu_device.active, keyed by the id of its first pending
 *          task, while @pending is not empty (else RB_EMPTY_NODE).
 * @npending: length of @pending.
 * @ready_at: device time at which the stream's last task ends.
 * @last_done_id: id of the last completed task, 0 if none.
 * @nqueued: tasks queued on it since it was created: a task's place, which
 *           keys its jitter (the same place draws the same on every run).
 * @comm_aborted: collectives that completed without running (aborted)
 *                since a sync of the stream last reported them.
 * @idle_wq: syncs and the destroy of this stream wait here for it to be
 *           idle; woken when its last pending task completes (or its
 *           last reservation goes), not at every completion on the device.
 */
struct vnpu_stream {
	struct kref ref;
	struct vnpu_file *vfile;
	u32 id;
	u32 hw_id;
	u32 reserved;
	u64 last_sched_id;
	u32 flip_session;
	u64 flip_epoch;
	bool dying;
	struct list_head pending;
	struct rb_node active;
	u32 npending;
	u64 ready_at;
	u64 last_done_id;
	u64 nqueued;
	u32 comm_aborted;
	wait_queue_head_t idle_wq;
};

/**
 * struct vnpu_device - one virtual NPU, /dev/vnpuN
 * @id: the N of /dev/vnpuN.
 * @product_id: enum vnpu_product_id.
 * @product: the modelled product (the table in vnpu_product.c).
 * @dev: the class device that makes the node appear (the one cdev of
 *       every minor is vnpu_drv.c's).
 * @lock: protects everything below it, the streams' queues and timing.
 * @active: streams with pending tasks, ordered by the id of their first
 *          (the executor takes the smallest that can run: O(log n)).
 * @npending: tasks queued on the device.
 * @next_task_id: the id the next submitted task gets.
 * @hw_streams: the device-wide stream ids in use (an IDA, its own lock).
 * @clock: the start of the last task dispatched (device time, ticks).
 * @aic: the AI Cores (cube or unified): when each is free.
 * @aiv: the same for the AI Vector Cores.
 * @aicpu: the same for the AI CPUs.
 * @tasks_run: tasks completed since load.
 * @model_out: the executor's scratch for the cost model (too big for the
 *             stack).
 * @running: the tasks that have started and not yet ended in host time,
 *           by end (at most one per stream: its head).
 * @kick: bumped whenever a task may have become runnable.
 * @link_bw_mbps: the bandwidth of the link its collectives' copies take,
 *                0 for the product's (debugfs link_bw_mbps: a slow link).
 * @exec_wq: the executor waits here for work.
 * @done_wq: submitters waiting for room wait here (syncs wait on their
 *           stream or file).
 * @exec_thread: runs vnpu_exec_thread().
 * @prof: the active profiling session, NULL if none (under @lock; changed
 *        under @prof_lock too).
 * @prof_lock: serializes session start and stop.
 * @nl_lost_work: sends the netlink RECORDS_LOST event (vnpu_nl.c).
 * @nl_lost_due: the session it is queued for (under @lock).
 * @nl_lost_session: the session of the last one sent (under @lock).
 * @nl_lost_next: jiffies before which that session gets no other.
 */
struct vnpu_device {
	u32 id;
	u32 product_id;
	const struct vnpu_product_desc *product;
	struct device *dev;

	spinlock_t lock; /* the executor's state, queues, timing */
	struct rb_root_cached active;
	u32 npending;
	u64 next_task_id;
	struct ida hw_streams;
	u64 clock;
	struct vnpu_cores aic;
	struct vnpu_cores aiv;
	struct vnpu_cores aicpu;
	u64 tasks_run;
	struct vnpu_model_out model_out;
	struct rb_root_cached running;

	atomic_t kick;
	u32 link_bw_mbps;
	wait_queue_head_t exec_wq;
	wait_queue_head_t done_wq;
	struct task_struct *exec_thread;
	struct vnpu_prof *prof;
	struct mutex prof_lock; /* session start and stop */
	struct delayed_work nl_lost_work;
	u32 nl_lost_due;
	u32 nl_lost_session;
	unsigned long nl_lost_next;
};

/**
 * struct vnpu_file - per-open-file context
 * @vdev: the device this file was opened on.
 * @lock: protects the stream table; held only briefly, never while
 *        sleeping for the device or touching user memory.
 * @streams: the streams by id; NULL where free. Entries change under both
 *           @lock and vdev->lock, so either is enough to read them.
 * @npending: tasks of this file queued (under vdev->lock).
 * @nstaged: tasks of this file's submits that took quota and are being
 *           copied in, not yet reserved (under vdev->lock).
 * @last_done_id: id of the last completed task of this file.
 * @last_end: device time the last completed task of this file ended.
 * @comm_aborted: collectives of this file that completed without running
 *                since a sync of all its streams last reported them.
 * @prof: the session this file started, active or stopped (under @lock).
 * @prof_wq: poll() waits here; in the file so epoll never outlives it.
 * @idle_wq: syncs of all the file's streams wait here; woken when its last
 *           pending task completes.
 * @uid: the effective user that opened it.
 * @comms: its communicator handles (task comm_id N is @comms[N - 1]).
 */
struct vnpu_file {
	struct vnpu_device *vdev;
	struct mutex lock; /* stream table changes */
	struct vnpu_stream *streams[VNPU_MAX_STREAMS];
	u32 npending;
	u32 nstaged;
	u64 last_done_id;
	u64 last_end;
	u32 comm_aborted;
	struct vnpu_prof *prof;
	wait_queue_head_t prof_wq;
	wait_queue_head_t idle_wq;
	kuid_t uid;
	struct vnpu_comm_handle comms[VNPU_MAX_COMMS];
};

/*
 * The handle a COMMUNICATION task of @vfile names: checked to exist when
 * its batch was reserved, and kept (its queued count) until it retires.
 */
static inline struct vnpu_comm_handle *vnpu_task_handle(struct vnpu_file *vfile,
							const struct vnpu_ktask *t)
{
	return &vfile->comms[t->desc.comm_id - 1];
}

/* vnpu_drv.c */
u32 vnpu_device_count(void);
struct vnpu_device *vnpu_device_get(u32 id);
extern u64 vnpu_param_seed;
extern spinlock_t vnpu_seed_lock;
extern unsigned int vnpu_param_jitter;
extern u64 vnpu_epoch_raw_ns;

/* vnpu_cdev.c */
extern const struct file_operations vnpu_fops;
int vnpu_copy_struct_in(void *dst, size_t ksize, size_t min_size,
			const void __user *src);
int vnpu_copy_struct_out(void __user *dst, void *src, size_t ksize, u32 usize);

/* vnpu_stream.c */
long vnpu_ioctl_stream_create(struct vnpu_file *vfile, void __user *arg);
long vnpu_ioctl_stream_destroy(struct vnpu_file *vfile, void __user *arg);
long vnpu_ioctl_sync(struct vnpu_file *vfile, void __user *arg);
void vnpu_file_release_streams(struct vnpu_file *vfile);

/* vnpu_submit.c */
long vnpu_ioctl_submit(struct vnpu_file *vfile, void __user *arg);
int vnpu_task_validate(const struct vnpu_device *vdev,
		       const struct vnpu_task *t);

/* vnpu_exec.c */
int vnpu_exec_start(struct vnpu_device *vdev);
void vnpu_exec_stop(struct vnpu_device *vdev);
void vnpu_exec_kick(struct vnpu_device *vdev);
void vnpu_exec_queue_stream(struct vnpu_device *vdev, struct vnpu_stream *s);
void vnpu_exec_cancel_file(struct vnpu_file *vfile);
u64 vnpu_now_ticks(const struct vnpu_product_desc *p);
u64 vnpu_ticks_to_ns(const struct vnpu_product_desc *p, u64 ticks);
int vnpu_task_cache_init(void);
void vnpu_task_cache_exit(void);
struct vnpu_ktask *vnpu_task_alloc(void);
void vnpu_task_free(struct vnpu_ktask *task);

/*
 * Wake whoever waits on @wq (a stream's or a file's idle_wq) for it to be
 * idle; the caller has seen it idle. Under vnpu_device.lock, which keeps
 * the stream or file alive.
 */
static inline void vnpu_wake_idle(wait_queue_head_t *wq)
{
	if (wq_has_sleeper(wq))
		wake_up_all(wq);
}

/* vnpu_prof.c */
long vnpu_ioctl_prof_start(struct vnpu_file *vfile, void __user *arg);
long vnpu_ioctl_prof_stop(struct vnpu_file *vfile, void __user *arg);
long vnpu_ioctl_prof_stats(struct vnpu_file *vfile, void __user *arg);
void vnpu_prof_release(struct vnpu_file *vfile);
void vnpu_prof_task(struct vnpu_device *vdev, const struct vnpu_ktask *task,
		    struct vnpu_model_out *out);
void vnpu_prof_flush(struct vnpu_device *vdev);
void vnpu_hwrec_task(struct vnpu_prof *prof, const struct vnpu_ktask *task,
		     const struct vnpu_counters *c);
int vnpu_hwrec_bench(struct vnpu_device *vdev, u32 n);
int vnpu_prof_mmap(struct vnpu_file *vfile, struct vm_area_struct *vma);
__poll_t vnpu_prof_poll(struct vnpu_file *vfile, struct file *file,
			struct poll_table_struct *wait);

#endif /* _VNPU_DRV_H */
