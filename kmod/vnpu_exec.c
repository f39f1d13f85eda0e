// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the executor - one kernel thread per device runs the queued tasks
 * in host time.
 *
 * Device time is host time: a system counter at the product's frequency
 * that counts CLOCK_MONOTONIC_RAW from the module's load
 * (vnpu_epoch_raw_ns), the same instant on every device. A task gets
 *
 *   start = max(its submission, the device clock, the end of the stream's
 *               previous task, the time the cores it needs are free)
 *   end   = start + the cost model's duration
 *
 * where the device clock is the start of the previously dispatched task:
 * tasks of one stream run in order, tasks of different streams overlap on
 * different cores, and the executor takes the heads of the streams in
 * submission order (the smallest id that can run). A collective starts
 * when the last of its ranks arrives (vnpu_comm.c): the ranks' clocks are
 * one.
 *
 * The times come from the model alone, never from when the executor
 * happens to wake: host time only decides when a task is dispatched (once
 * its start has come) and retired (once its end has). A retired task's
 * records are written and its syncs woken, so a sync returns no earlier
 * than the modelled end of what it waits for, in host time: a host that
 * waits on the device sees the device's time pass, and a host slower than
 * the device leaves it idle (the stream's Wait Time, the step's Free).
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vnpu_debugfs.h"
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
	RB_CLEAR_NODE(&task->run);
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

/**
 * vnpu_ticks_to_ns() - system counter ticks to nanoseconds, rounded down
 * @p: the product.
 * @ticks: ticks of its system counter.
 *
 * Return: nanoseconds.
 */
u64 vnpu_ticks_to_ns(const struct vnpu_product_desc *p, u64 ticks)
{
	/* 128-bit intermediate: ticks * 10^6 overflows after hours at 1 GHz */
	return mul_u64_u32_div(ticks, 1000000, p->sys_cnt_freq_khz);
}

/**
 * vnpu_now_ticks() - device time now
 * @p: the product.
 *
 * Rounded down: a tick that has not fully passed has not come.
 *
 * Return: ticks of @p's system counter since vnpu_epoch_raw_ns.
 */
u64 vnpu_now_ticks(const struct vnpu_product_desc *p)
{
	return mul_u64_u32_div(ktime_get_raw_ns() - vnpu_epoch_raw_ns, p->sys_cnt_freq_khz,
			       1000000);
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

/*
 * The cost model's output for @task, in @out. The model is pure: the
 * same task gives the same output every time, so it is run when the task
 * is first looked at (its duration and cores) and again when it is
 * retired into a session (its counters), not kept in between.
 */
static void vnpu_exec_model(struct vnpu_device *vdev, const struct vnpu_ktask *task,
			    struct vnpu_model_out *out)
{
	const struct vnpu_task *d = &task->desc;
	struct vnpu_model_in in = {
		.task_type = d->task_type,
		.block_num = d->block_num,
		.mix_block_num = d->mix_block_num,
		.flags = d->flags,
		.dtype = vnpu_task_dtype(d),
		.unit = VNPU_UNIT_AUTO,
		.flops = d->flops,
		.bytes = d->bytes,
		.jitter_seed = task->jitter_key,
		.jitter_permille = task->jitter_sigma,
	};

	if (d->task_type == VNPU_TASK_COMMUNICATION) {
		/* its times come from the rendezvous; no core is booked */
		memset(out, 0, sizeof(*out));
		return;
	}
	vnpu_model_task(vdev->product, &in, out);
}

/*
 * The earliest a head can start, on a stream's clock: its submission, the
 * device clock, the stream's previous end. A task that begins a new task
 * id epoch (id >> 16, vnpu_hwrec.c) on its stream starts two ticks after
 * the one before ended: the flip before it, a tick before its start, then
 * falls strictly between the two tasks, where both msprof paths look for
 * it.
 */
static u64 vnpu_exec_ready_at(const struct vnpu_device *vdev, const struct vnpu_ktask *task)
{
	const struct vnpu_stream *s = task->stream;
	u64 t = max3(task->submit, vdev->clock, s->ready_at);

	if (s->last_sched_id && (task->id >> 16) != (s->last_sched_id >> 16))
		t = max(t, s->ready_at + 2);
	return t;
}

/* When the head @task (not a collective) can start, its cores counted. */
static u64 vnpu_exec_start_of(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	const struct vnpu_product_desc *p = vdev->product;
	struct vnpu_model_out *out = &vdev->model_out;
	u64 start;

	if (!task->modelled) {
		vnpu_exec_model(vdev, task, out);
		task->dur = out->duration_ticks;
		task->aic_want = out->aic_used;
		task->aiv_want = out->aiv_used;
		task->aicpu_want = out->aicpu_used;
		task->modelled = true;
	}
	start = vnpu_exec_ready_at(vdev, task);
	start = max(start, vnpu_cores_pick(&vdev->aic, p->aic_num, task->aic_want,
					   &task->aic_used));
	start = max(start, vnpu_cores_pick(&vdev->aiv, p->aiv_num, task->aiv_want,
					   &task->aiv_used));
	return max(start, vnpu_cores_pick(&vdev->aicpu, p->aicpu_num, task->aicpu_want,
					  &task->aicpu_used));
}

/*
 * The next task to dispatch at device time @now: the head with the
 * smallest id that can run, with its start and end set, if it has started
 * by @now. A collective arrives at its rendezvous when it is first looked
 * at as a head, and is passed over until every rank is there. When the
 * first head that can run starts later than @now, nothing is dispatched:
 * the device clock would hold every later one back to it as well;
 * *@wake gets its start.
 */
static struct vnpu_ktask *vnpu_exec_next(struct vnpu_device *vdev, u64 now, u64 *wake)
{
	struct vnpu_ktask *head;
	struct vnpu_stream *s;
	struct rb_node *n;
	u64 start;

	lockdep_assert_held(&vdev->lock);
	for (n = rb_first_cached(&vdev->active); n; n = rb_next(n)) {
		s = rb_entry(n, struct vnpu_stream, active);
		head = vnpu_stream_head(s);
		if (head->desc.task_type == VNPU_TASK_COMMUNICATION) {
			if (!head->comm)
				vnpu_comm_arrive(vdev, head, vnpu_exec_ready_at(vdev, head));
			if (!vnpu_comm_ready(head, &head->start, &head->end))
				continue;
			start = head->start;
		} else {
			start = vnpu_exec_start_of(vdev, head);
		}
		if (start > now) {
			*wake = min(*wake, start);
			return NULL;
		}
		if (head->desc.task_type != VNPU_TASK_COMMUNICATION) {
			head->start = start;
			head->end = start + head->dur;
		}
		return head;
	}
	return NULL;
}

static bool vnpu_task_ends_before(struct rb_node *a, const struct rb_node *b)
{
	const struct vnpu_ktask *x = rb_entry(a, struct vnpu_ktask, run);
	const struct vnpu_ktask *y = rb_entry(b, struct vnpu_ktask, run);

	return x->end < y->end || (x->end == y->end && x->id < y->id);
}

/*
 * @task starts: book its cores, move the clocks, and keep it with the
 * running tasks until its end. Its stream leaves the heads the executor
 * looks at (its next task cannot start before this one ends) and comes
 * back when it is retired.
 */
static void vnpu_exec_dispatch(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	const struct vnpu_product_desc *p = vdev->product;
	struct vnpu_stream *s = task->stream;

	lockdep_assert_held(&vdev->lock);
	vnpu_cores_book(&vdev->aic, p->aic_num, task->aic_used, task->end);
	vnpu_cores_book(&vdev->aiv, p->aiv_num, task->aiv_used, task->end);
	vnpu_cores_book(&vdev->aicpu, p->aicpu_num, task->aicpu_used, task->end);
	/* a collective's last id is its last sub-task's */
	s->last_sched_id = task->id + task->nids - 1;
	vdev->clock = max(vdev->clock, task->start);
	s->ready_at = task->end;
	vnpu_exec_unqueue_stream(vdev, s);
	rb_add_cached(&task->run, &vdev->running, vnpu_task_ends_before);
}

/* Retire @task: it has run (or its rendezvous was aborted). */
static void vnpu_exec_complete(struct vnpu_device *vdev, struct vnpu_ktask *task)
{
	struct vnpu_stream *s = task->stream;
	struct vnpu_file *vfile = s->vfile;
	u64 dur_ns = vnpu_ticks_to_ns(vdev->product, task->end - task->start);

	lockdep_assert_held(&vdev->lock);
	rb_erase_cached(&task->run, &vdev->running);
	trace_vnpu_task_start(vdev->id, task->id, s->hw_id, task->desc.task_type,
			      task->desc.op_type, task->start, task->end, dur_ns,
			      s->npending);
	list_del(&task->node);
	/* read locklessly by waiters: READ_ONCE there, WRITE_ONCE here */
	WRITE_ONCE(s->npending, s->npending - 1);
	if (s->npending) {
		/* its place in the device's order is its next head's */
		vnpu_exec_queue_stream(vdev, s);
	} else {
		/* its syncs and destroy: they read what follows under the lock */
		vnpu_wake_idle(&s->idle_wq);
	}
	WRITE_ONCE(vdev->npending, vdev->npending - 1);
	WRITE_ONCE(vfile->npending, vfile->npending - 1);
	if (!vfile->npending)
		vnpu_wake_idle(&vfile->idle_wq);
	s->last_done_id = task->id + task->nids - 1;
	vfile->last_done_id = s->last_done_id;
	vfile->last_end = max(vfile->last_end, task->end);
	vdev->tasks_run++;
	if (vdev->prof)
		vnpu_exec_model(vdev, task, &vdev->model_out);
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

/*
 * The file of the running @task is being released at device time @now:
 * the task ends now and its cores are free from now on, so that the next
 * file's work does not wait out the rest of it (over a minute for the
 * largest task on one core). A collective ends with its ranks.
 */
static void vnpu_exec_cut_short(struct vnpu_device *vdev, struct vnpu_ktask *task, u64 now)
{
	const struct vnpu_product_desc *p = vdev->product;

	lockdep_assert_held(&vdev->lock);
	now = max(now, task->start);
	if (now >= task->end || task->desc.task_type == VNPU_TASK_COMMUNICATION)
		return;
	vnpu_cores_unbook(&vdev->aic, p->aic_num, task->aic_used, task->end, now);
	vnpu_cores_unbook(&vdev->aiv, p->aiv_num, task->aiv_used, task->end, now);
	vnpu_cores_unbook(&vdev->aicpu, p->aicpu_num, task->aicpu_used, task->end, now);
	/* its place among the running is by end: take it out before the end moves */
	rb_erase_cached(&task->run, &vdev->running);
	task->end = now;
	task->stream->ready_at = now;
	rb_add_cached(&task->run, &vdev->running, vnpu_task_ends_before);
}

/*
 * One lock hold of the executor at device time @now: retire what has
 * ended and dispatch what has started, in time order, up to a batch.
 * *@wake gets the next device time at which something will be due.
 *
 * Return: the tasks retired and dispatched.
 */
static unsigned int vnpu_exec_round(struct vnpu_device *vdev, u64 now, u64 *wake)
{
	struct vnpu_ktask *task;
	unsigned int done = 0;
	struct rb_node *n;

	lockdep_assert_held(&vdev->lock);
	while (done < VNPU_EXEC_BATCH) {
		n = rb_first_cached(&vdev->running);
		task = n ? rb_entry(n, struct vnpu_ktask, run) : NULL;
		if (task && task->end <= now) {
			vnpu_exec_complete(vdev, task);
			done++;
			continue;
		}
		if (task)
			*wake = min(*wake, task->end);
		task = vnpu_exec_next(vdev, now, wake);
		if (!task)
			break;
		vnpu_exec_dispatch(vdev, task);
		done++;
	}
	return done;
}

static int vnpu_exec_thread(void *data)
{
	struct vnpu_device *vdev = data;
	const struct vnpu_product_desc *p = vdev->product;
	unsigned int done;
	u64 now, wake;
	ktime_t sleep;
	int kick;

	while (!kthread_should_stop()) {
		kick = atomic_read(&vdev->kick);
		wake = U64_MAX;
		spin_lock(&vdev->lock);
		now = vnpu_now_ticks(p);
		done = vnpu_exec_round(vdev, now, &wake);
		/* the batch's records, visible at once: one publish per lock hold */
		vnpu_prof_flush(vdev);
		spin_unlock(&vdev->lock);

		if (done)
			wake_up(&vdev->done_wq);
		if (done >= VNPU_EXEC_BATCH) {
			cond_resched();
			continue;
		}
		if (wake == U64_MAX) {
			wait_event_interruptible(vdev->exec_wq, kthread_should_stop() ||
						 atomic_read(&vdev->kick) != kick);
			continue;
		}
		now = vnpu_now_ticks(p);
		if (wake <= now)
			continue;
		/*
		 * Until the next start or end, or new work. The timer's slack
		 * only ever makes a retirement later in host time, never a
		 * time stamp different.
		 */
		sleep = ns_to_ktime(vnpu_ticks_to_ns(p, wake - now) + 1);
		wait_event_interruptible_hrtimeout(vdev->exec_wq,
						   kthread_should_stop() ||
						   atomic_read(&vdev->kick) != kick,
						   sleep);
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

/*
 * The file is being released: a task of it that is running ends now and
 * is retired (its records written, as a device writes a task's log when it
 * is stopped), and its queued tasks are dropped.
 */
void vnpu_exec_cancel_file(struct vnpu_file *vfile)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_ktask *task, *tmp;
	struct vnpu_stream *s;
	LIST_HEAD(dead);
	u64 now;
	u32 id;

	spin_lock(&vdev->lock);
	now = vnpu_now_ticks(vdev->product);
	for (id = 0; id < VNPU_MAX_STREAMS; id++) {
		s = vfile->streams[id];
		if (!s)
			continue;
		task = list_empty(&s->pending) ? NULL : vnpu_stream_head(s);
		if (task && !RB_EMPTY_NODE(&task->run)) {
			vnpu_exec_cut_short(vdev, task, now);
			vnpu_exec_complete(vdev, task);
		}
		list_for_each_entry_safe(task, tmp, &s->pending, node) {
			list_move_tail(&task->node, &dead);
			WRITE_ONCE(s->npending, s->npending - 1);
			WRITE_ONCE(vdev->npending, vdev->npending - 1);
			WRITE_ONCE(vfile->npending, vfile->npending - 1);
			if (task->desc.task_type == VNPU_TASK_COMMUNICATION)
				vnpu_comm_leave(vdev, task, vnpu_task_handle(vfile, task), true);
		}
		vnpu_exec_unqueue_stream(vdev, s);
	}
	vnpu_prof_flush(vdev);
	spin_unlock(&vdev->lock);

	list_for_each_entry_safe(task, tmp, &dead, node)
		vnpu_task_free(task);
	/* submitters waiting for room; the executor, whose next wake may be ours */
	wake_up(&vdev->done_wq);
	vnpu_exec_kick(vdev);
}
