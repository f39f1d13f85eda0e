// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the executor - one kernel thread per device runs the queued tasks
 * in device time.
 *
 * Scheduling is deterministic: the executor always takes, among the heads
 * of the streams with work, the task with the smallest id (submission
 * order) that can run, and gives it
 *
 *   start = max(device clock, end of the stream's previous task,
 *               the time the cores it needs are free)
 *   end   = start + the cost model's duration
 *
 * where the device clock is the start of the previously dispatched task:
 * tasks of one stream run in order, tasks of different streams overlap on
 * different cores. The same submissions (and jitter seed) give the same
 * timings. Device time is a system counter at the product's frequency,
 * 0 when the device was created.
 *
 * With the module parameter pacing=1 the device clock also never runs
 * behind the wall clock, and a task completes only when the wall clock
 * has reached its end: device time tracks CLOCK_MONOTONIC.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vnpu_drv.h"
#include "vnpu_trace.h"

/* Tasks completed per lock hold before the executor lets others in. */
#define VNPU_EXEC_BATCH 64

/*
 * Every task of every device, charged to the submitter's memory cgroup;
 * the descriptor is the one region a submit copies from user memory
 * (hardened usercopy allows no other).
 */
static struct kmem_cache *vnpu_task_cache;

int vnpu_task_cache_init(void)
{
	vnpu_task_cache = KMEM_CACHE_USERCOPY(vnpu_ktask, SLAB_ACCOUNT, desc);
	return vnpu_task_cache ? 0 : -ENOMEM;
}

void vnpu_task_cache_exit(void)
{
	kmem_cache_destroy(vnpu_task_cache);
}

/**
 * vnpu_task_alloc() - a task for a submit, its descriptor not yet written
 *
 * Everything but @desc is zeroed. @desc (most of the task) is not: the
 * submit copies it in whole (copy_struct_from_user() writes every byte of
 * it, zeroing what the caller's smaller struct lacks), and a task whose
 * copy failed is freed unread.
 *
 * Return: the task, or NULL.
 */
struct vnpu_ktask *vnpu_task_alloc(void)
{
	struct vnpu_ktask *task;

	if (vnpu_fail_alloc())
		return NULL;
	task = kmem_cache_alloc(vnpu_task_cache, GFP_KERNEL);
	if (!task)
		return NULL;
	memset(task, 0, offsetof(struct vnpu_ktask, desc));
	memset((char *)task + offsetofend(struct vnpu_ktask, desc), 0,
	       sizeof(*task) - offsetofend(struct vnpu_ktask, desc));
	vnpu_obj_get(VNPU_OBJ_TASK);
	return task;
}

void vnpu_task_free(struct vnpu_ktask *task)
{
	if (!task)
		return;
	vnpu_comm_free(task->comm_spare);
	kmem_cache_free(vnpu_task_cache, task);
	vnpu_obj_put(VNPU_OBJ_TASK);
}

void vnpu_exec_kick(struct vnpu_device *vdev)
{
	atomic_inc(&vdev->kick);
	wake_up(&vdev->exec_wq);
}

static u64 vnpu_ticks_to_ns(const struct vnpu_device *vdev, u64 ticks)
{
	/* 128-bit intermediate: ticks * 10^6 overflows after hours at 1 GHz */
	return mul_u64_u32_div(ticks, 1000000, vdev->product->sys_cnt_freq_khz);
}

static u64 vnpu_wall_ticks(const struct vnpu_device *vdev)
{
	return vnpu_ns_to_ticks(vdev->product, ktime_get_ns() - vdev->epoch_ns);
}

static struct vnpu_ktask *vnpu_stream_head(struct vnpu_stream *s)
{
	return list_first_entry(&s->pending, struct vnpu_ktask, node);
}

static bool vnpu_stream_before(struct rb_node *a, const struct rb_node *b)
{
	return vnpu_stream_head(rb_entry(a, struct vnpu_stream, active))->id <
	       vnpu_stream_head(rb_entry(b, struct vnpu_stream, active))->id;
}

/**
 * vnpu_exec_queue_stream() - @s has work: put it where the executor looks
 * @vdev: its device (locked).
 * @s: a stream whose pending list just became non-empty.
 *
 * The device's streams with work are ordered by the id of their first
 * task, so the pick is the leftmost (O(1)) and a requeue O(log n).
 */
void vnpu_exec_queue_stream(struct vnpu_device *vdev, struct vnpu_stream *s)
{
	lockdep_assert_held(&vdev->lock);
	rb_add_cached(&s->active, &vdev->active, vnpu_stream_before);
}

static void vnpu_exec_unqueue_stream(struct vnpu_device *vdev, struct vnpu_stream *s)
{
	if (RB_EMPTY_NODE(&s->active))
		return;
	rb_erase_cached(&s->active, &vdev->active);
	RB_CLEAR_NODE(&s->active);
}

/*
 * The head of a stream with work that can run and has the smallest id:
 * the first stream in id order, unless its head is a collective still
 * waiting for its other ranks, which arrives at its rendezvous here (when
 * it is the first task in submission order that could run) and is passed
 * over until they are all there.
 */
static struct vnpu_ktask *vnpu_exec_pick(struct vnpu_device *vdev)
{
	struct vnpu_ktask *head;
	struct vnpu_stream *s;
	struct rb_node *n;

	lockdep_assert_held(&vdev->lock);
	for (n = rb_first_cached(&vdev->active); n; n = rb_next(n)) {
		s = rb_entry(n, struct vnpu_stream, active);
		head = vnpu_stream_head(s);
		if (head->desc.task_type != VNPU_TASK_COMMUNICATION)
			return head;
		if (!head->comm)
			vnpu_comm_arrive(vdev, head, max(vdev->clock, s->ready_at));
		if (vnpu_comm_ready(head, &head->start, &head->end))
			return head;
	}
	return NULL;
}

/*
 * The cores of a kind are kept as their free times sorted ascending, in a
 * circle from @head, not core by core: a task takes the @used cores that
 * are free first, and as they all become free at its end, which core is
 * which never matters (the timings are those of any choice among equal
 * times). So the pick is the @used-th smallest time, O(1); the booking
 * drops the first @used and puts the end where it sorts, found by binary
 * search. Device time mostly moves forward, so that is usually the tail
 * of the circle and nothing moves.
 */

/* The @i-th smallest free time of @c's first @num cores. */
static u64 *vnpu_core(struct vnpu_cores *c, u32 num, u32 i)
{
	i += c->head;
	return &c->free_at[i >= num ? i - num : i];
}

/* When the @used cores free first are all free; their number in *@taken. */
static u64 vnpu_cores_pick(struct vnpu_cores *c, u32 num, u32 used, u32 *taken)
{
	*taken = min(used, num);
	return *taken ? *vnpu_core(c, num, *taken - 1) : 0;
}

/* The first position in [@lo, @hi) whose time is past @t (or @hi). */
static u32 vnpu_cores_after(struct vnpu_cores *c, u32 num, u32 lo, u32 hi, u64 t)
{
	u32 mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (*vnpu_core(c, num, mid) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Put @n times @t into @c at the place they sort among its first @len
 * (positions @len .. @len + @n - 1 are free to take).
 */
static void vnpu_cores_insert(struct vnpu_cores *c, u32 num, u32 len, u32 n, u64 t)
{
	u32 at = vnpu_cores_after(c, num, 0, len, t), i;

	for (i = len; i > at; i--)
		*vnpu_core(c, num, i - 1 + n) = *vnpu_core(c, num, i - 1);
	for (i = at; i < at + n; i++)
		*vnpu_core(c, num, i) = t;
}

/* The @n cores free first become free at @end. */
static void vnpu_cores_book(struct vnpu_cores *c, u32 num, u32 n, u64 end)
{
	if (!n)
		return;
	/* the first @n leave the front: the circle's last @n places are free */
	c->head = c->head + n >= num ? c->head + n - num : c->head + n;
	vnpu_cores_insert(c, num, num - n, n, end);
}

/*
 * @n cores booked until @end are free at @now (< @end) instead. Any @n of
 * the times equal to @end will do: they are the same.
 */
static void vnpu_cores_unbook(struct vnpu_cores *c, u32 num, u32 n, u64 end, u64 now)
{
	u32 last = vnpu_cores_after(c, num, 0, num, end), first = last, i;

	/* [first, last) hold @end: take the last @n of them */
	while (first > 0 && last - first < n && *vnpu_core(c, num, first - 1) == end)
		first--;
	n = last - first;
	/* close the gap they leave, then put @now where it sorts */
	for (i = last; i < num; i++)
		*vnpu_core(c, num, i - n) = *vnpu_core(c, num, i);
	vnpu_cores_insert(c, num, num - n, n, now);
}

static u32 vnpu_task_dtype(const struct vnpu_task *t)
{
	if (t->n_inputs + t->n_outputs)
		return t->tensors[0].dtype;
	return VNPU_DT_FLOAT16;
}

/* Give @task its start and end in device time and book its cores. */
static void vnpu_exec_schedule(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	const struct vnpu_product_desc *p = vdev->product;
	const struct vnpu_task *d = &task->desc;
	struct vnpu_model_out *out = &vdev->model_out;
	struct vnpu_stream *s = task->stream;
	struct vnpu_model_in in = {
		.task_type = d->task_type,
		.block_num = d->block_num,
		.mix_block_num = d->mix_block_num,
		.flags = d->flags,
		.dtype = vnpu_task_dtype(d),
		.unit = VNPU_UNIT_AUTO,
		.flops = d->flops,
		.bytes = d->bytes,
		.jitter_seed = vnpu_param_seed ^ task->id,
		.jitter_permille = vnpu_param_jitter,
	};
	u64 start;

	lockdep_assert_held(&vdev->lock);
	if (d->task_type == VNPU_TASK_COMMUNICATION) {
		/* start and end were set by the rendezvous; no core is booked */
		memset(out, 0, sizeof(*out));
		task->aic_used = 0;
		task->aiv_used = 0;
		task->aicpu_used = 0;
		goto out;
	}

	vnpu_model_task(p, &in, out);
	start = max(vdev->clock, s->ready_at);
	/*
	 * A task that begins a new task id epoch (id >> 16, vnpu_hwrec.c) on
	 * its stream starts two ticks after the one before ended: the flip
	 * before it, a tick before its start, then falls strictly between the
	 * two tasks, where both msprof paths look for it.
	 */
	if (s->last_sched_id && (task->id >> 16) != (s->last_sched_id >> 16))
		start = max(start, s->ready_at + 2);
	s->last_sched_id = task->id;
	if (vnpu_param_pacing)
		start = max(start, vnpu_wall_ticks(vdev));
	start = max(start, vnpu_cores_pick(&vdev->aic, p->aic_num, out->aic_used,
					   &task->aic_used));
	start = max(start, vnpu_cores_pick(&vdev->aiv, p->aiv_num, out->aiv_used,
					   &task->aiv_used));
	start = max(start, vnpu_cores_pick(&vdev->aicpu, p->aicpu_num, out->aicpu_used,
					   &task->aicpu_used));
	task->start = start;
	task->end = start + out->duration_ticks;
	vnpu_cores_book(&vdev->aic, p->aic_num, task->aic_used, task->end);
	vnpu_cores_book(&vdev->aiv, p->aiv_num, task->aiv_used, task->end);
	vnpu_cores_book(&vdev->aicpu, p->aicpu_num, task->aicpu_used, task->end);
out:
	vdev->clock = max(vdev->clock, task->start);
	s->ready_at = task->end;
}

/* Retire @task: it has run (or its rendezvous was aborted). */
static void vnpu_exec_complete(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	struct vnpu_stream *s = task->stream;
	struct vnpu_file *vfile = s->vfile;
	u64 dur_ns = vnpu_ticks_to_ns(vdev, task->end - task->start);

	lockdep_assert_held(&vdev->lock);
	trace_vnpu_task_start(vdev->id, task->id, s->hw_id, task->desc.task_type,
			      task->desc.op_type, task->start, task->end, dur_ns,
			      s->npending);
	/* its place in the device's order is its head's: requeue it */
	vnpu_exec_unqueue_stream(vdev, s);
	list_del(&task->node);
	/* read locklessly by waiters: READ_ONCE there, WRITE_ONCE here */
	WRITE_ONCE(s->npending, s->npending - 1);
	if (s->npending) {
		vnpu_exec_queue_stream(vdev, s);
	} else {
		/* its syncs and destroy: they read what follows under the lock */
		vnpu_wake_idle(&s->idle_wq);
	}
	WRITE_ONCE(vdev->npending, vdev->npending - 1);
	WRITE_ONCE(vfile->npending, vfile->npending - 1);
	if (!vfile->npending)
		vnpu_wake_idle(&vfile->idle_wq);
	/* a collective's last id is its last sub-task's */
	s->last_done_id = task->id + task->nids - 1;
	vfile->last_done_id = s->last_done_id;
	vfile->last_end = max(vfile->last_end, task->end);
	vdev->tasks_run++;
	vnpu_prof_task(vdev, task, &vdev->model_out);
	trace_vnpu_task_end(vdev->id, task->id, s->hw_id, task->desc.task_type,
			    task->desc.op_type, task->start, task->end, dur_ns,
			    s->npending);
	/* an aborted collective: the next sync says so (docs/uapi.md) */
	if (task->desc.task_type == VNPU_TASK_COMMUNICATION &&
	    !vnpu_comm_leave(vdev, task, vnpu_task_handle(vfile, task), false)) {
		s->comm_aborted++;
		vfile->comm_aborted++;
	}
	vnpu_task_free(task);
}

/* Pacing: sleep until the wall clock reaches the end of @task. */
static void vnpu_exec_pace(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	ktime_t end = ns_to_ktime(vdev->epoch_ns + vnpu_ticks_to_ns(vdev, task->end));

	while (ktime_before(ktime_get(), end)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop() || READ_ONCE(vdev->running_cancelled)) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule_hrtimeout(&end, HRTIMER_MODE_ABS);
	}
}

/*
 * Pacing of @task stopped because its file is being released: the task
 * ends now and its cores are free from now on. Without this the next
 * file's work would wait out the rest of the cancelled task in wall time
 * (over a minute for the largest task on one core). When pacing, the
 * executor schedules one task at a time, so no later task has booked
 * these cores.
 */
static void vnpu_exec_cut_short(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	const struct vnpu_product_desc *p = vdev->product;
	u64 now = max(vnpu_wall_ticks(vdev), task->start);

	lockdep_assert_held(&vdev->lock);
	if (now >= task->end)
		return;
	vnpu_cores_unbook(&vdev->aic, p->aic_num, task->aic_used, task->end, now);
	vnpu_cores_unbook(&vdev->aiv, p->aiv_num, task->aiv_used, task->end, now);
	vnpu_cores_unbook(&vdev->aicpu, p->aicpu_num, task->aicpu_used, task->end, now);
	task->end = now;
	task->stream->ready_at = now;
}

static int vnpu_exec_thread(void *data)
{
	struct vnpu_device *vdev = data;
	struct vnpu_ktask *task;
	unsigned int done;
	int kick;

	while (!kthread_should_stop()) {
		done = 0;
		kick = atomic_read(&vdev->kick);
		spin_lock(&vdev->lock);
		while (done < VNPU_EXEC_BATCH && (task = vnpu_exec_pick(vdev))) {
			vnpu_exec_schedule(vdev, task);
			if (vnpu_param_pacing) {
				vdev->running = task;
				vdev->running_cancelled = false;
				vnpu_prof_flush(vdev);
				spin_unlock(&vdev->lock);
				vnpu_exec_pace(vdev, task);
				spin_lock(&vdev->lock);
				if (vdev->running_cancelled)
					vnpu_exec_cut_short(vdev, task);
				vdev->running = NULL;
				vnpu_exec_complete(vdev, task);
				done++;
				/*
				 * A paced task took wall time: wake a release waiting
				 * for it now, not after a batch of other files' paced
				 * tasks (its syncs were woken as it completed).
				 */
				if (wq_has_sleeper(&vdev->done_wq)) {
					vnpu_prof_flush(vdev);
					spin_unlock(&vdev->lock);
					wake_up(&vdev->done_wq);
					spin_lock(&vdev->lock);
				}
				continue;
			}
			vnpu_exec_complete(vdev, task);
			done++;
		}
		/* the batch's records, visible at once: one publish per lock hold */
		vnpu_prof_flush(vdev);
		spin_unlock(&vdev->lock);

		if (done) {
			wake_up(&vdev->done_wq);
			cond_resched();
			continue;
		}
		wait_event_interruptible(vdev->exec_wq, kthread_should_stop() ||
					 atomic_read(&vdev->kick) != kick);
	}
	return 0;
}

int vnpu_exec_start(struct vnpu_device *vdev)
{
	struct task_struct *t;

	t = kthread_run(vnpu_exec_thread, vdev, VNPU_NAME "%u", vdev->id);
	if (IS_ERR(t))
		return PTR_ERR(t);
	vdev->exec_thread = t;
	return 0;
}

/* No file is open (the module is going away): the queues are empty. */
void vnpu_exec_stop(struct vnpu_device *vdev)
{
	kthread_stop(vdev->exec_thread);
}

static bool vnpu_exec_running_for(struct vnpu_device *vdev, struct vnpu_file *vfile)
{
	bool ret;

	spin_lock(&vdev->lock);
	ret = vdev->running && vdev->running->stream->vfile == vfile;
	spin_unlock(&vdev->lock);
	return ret;
}

/*
 * The file is being released: drop its queued tasks. A task being paced is
 * the executor's until it completes; stop its pacing and wait for that.
 */
void vnpu_exec_cancel_file(struct vnpu_file *vfile)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_ktask *task, *tmp;
	struct vnpu_stream *s;
	LIST_HEAD(dead);
	bool running;
	u32 id;

	spin_lock(&vdev->lock);
	for (id = 0; id < VNPU_MAX_STREAMS; id++) {
		s = vfile->streams[id];
		if (!s)
			continue;
		/* a paced task stays the head, so the stream's place holds */
		list_for_each_entry_safe(task, tmp, &s->pending, node) {
			if (task == vdev->running) {
				vdev->running_cancelled = true;
				continue;
			}
			list_move_tail(&task->node, &dead);
			WRITE_ONCE(s->npending, s->npending - 1);
			WRITE_ONCE(vdev->npending, vdev->npending - 1);
			WRITE_ONCE(vfile->npending, vfile->npending - 1);
			if (task->desc.task_type == VNPU_TASK_COMMUNICATION)
				vnpu_comm_leave(vdev, task, vnpu_task_handle(vfile, task), true);
		}
		if (!s->npending)
			vnpu_exec_unqueue_stream(vdev, s);
	}
	running = vdev->running && vdev->running->stream->vfile == vfile;
	spin_unlock(&vdev->lock);

	if (running) {
		wake_up_process(vdev->exec_thread);
		wait_event(vdev->done_wq, !vnpu_exec_running_for(vdev, vfile));
	}
	list_for_each_entry_safe(task, tmp, &dead, node)
		vnpu_task_free(task);
	wake_up(&vdev->done_wq);
}
