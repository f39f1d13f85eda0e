// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: profiling sessions - start, stop, stats, and handing each completed
 * task to the record writer (vnpu_hwrec.c), which writes the device's own
 * records into the session's channels, gated by its level:
 *
 *   L0  task logs (ACSQ or HWTS), ts_track flips
 *   L1  + PMU records (AI Core, Vector Core and MIX tasks)
 *   L2  + AI CPU records
 *
 * One session per device at a time, owned by the file that started it and
 * stopped when that file is closed. The owner keeps the stopped session's
 * ring (to drain it) until it starts another one or is closed.
 *
 * Lock order: vnpu_device.prof_lock, vnpu_file.lock, vnpu_device.lock.
 * No user memory is touched under vnpu_file.lock (mmap takes it under
 * mmap_lock).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"
#include "vnpu_nl_family.h"
#include "vnpu_trace.h"

static atomic_t vnpu_prof_ids = ATOMIC_INIT(0);

/*
 * What a session may record of other users' work, as perf_event_paranoid
 * rules perf's: 0, every file's tasks on the device; 1, only
 * those of files its starter's user opened, unless the starter is
 * perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN).
 */
static int prof_paranoid = 1;
module_param(prof_paranoid, int, 0644);
MODULE_PARM_DESC(prof_paranoid,
		 "0: a session records every user's work; 1 (default): other users' only with CAP_PERFMON");

/* Does @prof record the work of @vfile? */
static bool vnpu_prof_sees(const struct vnpu_prof *prof, const struct vnpu_file *vfile)
{
	return prof->see_all || uid_eq(vfile->uid, prof->uid);
}

static void vnpu_prof_free(struct vnpu_prof *prof)
{
	if (!prof)
		return;
	vnpu_ring_drop(prof->ring);
	kfree(prof);
	vnpu_obj_put(VNPU_OBJ_SESSION);
}

static void vnpu_prof_fill_ctrl(struct vnpu_device *vdev, struct vnpu_prof *prof)
{
	const struct vnpu_product_desc *p = vdev->product;
	struct vnpu_ring *r = prof->ring;
	struct vnpu_ring_ctrl *c = r->ctrl;

	c->magic = VNPU_RING_MAGIC;
	c->version = VNPU_RING_VERSION;
	c->compat_version = 2;
	c->hdr_size = sizeof(*c);
	c->page_size = PAGE_SIZE;
	/* each channel has its own data area (struct vnpu_ring_chan) */
	c->n_channels = r->n_chan;
	c->chan_offset = VNPU_RING_CHAN_OFFSET;
	c->cons_offset = PAGE_SIZE;
	c->session_id = prof->id;
	c->dev_id = vdev->id;
	c->product = vdev->product_id;
	c->level = prof->level;
	c->metric_group = prof->group;
	c->n_events = prof->n_events;
	c->caps = p->caps;
	c->aic_num = p->aic_num;
	c->aiv_num = p->aiv_num;
	c->aic_freq_khz = p->aic_freq_khz;
	c->sys_cnt_freq_khz = p->sys_cnt_freq_khz;
	memcpy(c->aic_events, prof->aic_events, sizeof(c->aic_events));
	memcpy(c->aiv_events, prof->aiv_events, sizeof(c->aiv_events));
	memcpy(c->aic_events_hi, prof->aic_events + VNPU_PMU_EVENTS, sizeof(c->aic_events_hi));
	memcpy(c->aiv_events_hi, prof->aiv_events + VNPU_PMU_EVENTS, sizeof(c->aiv_events_hi));
	c->raw_base_ns = vnpu_epoch_raw_ns;
}

/*
 * The session starts now: the device time and its host instant on
 * CLOCK_MONOTONIC_RAW (exactly, on the tick grid), and CLOCK_MONOTONIC
 * beside it for readers of ring versions before 4; and the jitter its
 * tasks are drawn with. Under the device lock, so that a task retired in
 * the session started after it, and vnpu_seed_lock.
 */
static void vnpu_prof_stamp_start(struct vnpu_device *vdev, struct vnpu_prof *prof)
{
	const struct vnpu_product_desc *p = vdev->product;
	struct vnpu_ring_ctrl *c = prof->ring->ctrl;
	u64 mono = ktime_get_ns(), raw = ktime_get_raw_ns();

	prof->start_ticks = mul_u64_u32_div(raw - vnpu_epoch_raw_ns, p->sys_cnt_freq_khz,
					    1000000);
	c->start_ticks = prof->start_ticks;
	c->start_raw_ns = vnpu_epoch_raw_ns + vnpu_ticks_to_ns(p, prof->start_ticks);
	c->start_mono_ns = mono;
	c->mono_base_ns = mono - (raw - vnpu_epoch_raw_ns);
	/* vnpu_seed_lock is held: the seed holds until the session stops */
	c->jitter_seed = vnpu_param_seed;
	c->jitter_permille = vnpu_param_seed ? vnpu_param_jitter : 0;
	c->jitter_dist = c->jitter_permille ? VNPU_JITTER_IRWIN_HALL_4 : VNPU_JITTER_NONE;
}

static int vnpu_prof_check_start(const struct vnpu_product_desc *p,
				 struct vnpu_prof_start *ps)
{
	/* channels are the only layout: the flag says the caller knows it */
	if ((ps->flags & ~VNPU_PROF_F_ALL) || !(ps->flags & VNPU_PROF_F_CHANNELS) ||
	    ps->level >= VNPU_PROF_LEVEL_COUNT)
		return -EINVAL;
	/* session_id, n_events, the events and mmap_size are outputs: ignored */

	if (ps->flags & VNPU_PROF_F_METRIC_GROUP) {
		/* no AI Core metrics at L0, as the TF adapter says */
		if (ps->level == VNPU_PROF_L0 || ps->metric_group >= VNPU_METRIC_COUNT)
			return -EINVAL;
		if (!(p->metric_groups & BIT(ps->metric_group)))
			return -EOPNOTSUPP;
	} else {
		/* without the flag it is only an output (the group in force) */
		ps->metric_group = ps->level == VNPU_PROF_L0 ?
				   VNPU_METRIC_NONE : p->default_group;
	}

	if (!ps->ring_pages)
		ps->ring_pages = VNPU_RING_DEFAULT_PAGES;
	if (!is_power_of_2(ps->ring_pages) || ps->ring_pages > VNPU_RING_MAX_PAGES)
		return -EINVAL;
	if (!ps->wakeup_bytes)
		ps->wakeup_bytes = ps->ring_pages * PAGE_SIZE / 2;
	/* a channel's watermark is capped at what it can hold (vnpu_ring.c) */
	if (ps->wakeup_bytes < 8 || ps->wakeup_bytes > ps->ring_pages * PAGE_SIZE)
		return -EINVAL;
	return 0;
}

static struct vnpu_prof *vnpu_prof_new(struct vnpu_device *vdev,
				       struct vnpu_file *vfile,
				       const struct vnpu_prof_start *ps)
{
	const struct vnpu_product_desc *p = vdev->product;
	/* the channels' pages and record sizes (uapi/vnpu_prof.h) */
	const u32 pages[VNPU_CH_COUNT] = {
		[VNPU_CH_ACSQ] = ps->ring_pages,
		[VNPU_CH_PMU] = ps->ring_pages,
		[VNPU_CH_TS_TRACK] = max(1u, ps->ring_pages / 256),
		[VNPU_CH_AICPU] = max(1u, ps->ring_pages / 8),
	};
	/* an HWTS device's records are the same sizes, a v6 one's logs half (uapi/vnpu_ascend.h) */
	const u32 sizes[VNPU_CH_COUNT] = {
		[VNPU_CH_ACSQ] = p->features & VNPU_PF_V6 ? sizeof(struct vnpu_acsq_log_v6) :
							     sizeof(struct vnpu_acsq_log),
		[VNPU_CH_PMU] = sizeof(struct vnpu_ffts_pmu),
		[VNPU_CH_TS_TRACK] = sizeof(struct vnpu_ts_flip),
		[VNPU_CH_AICPU] = sizeof(struct vnpu_aicpu_node),
	};
	/* a task's logs, with a mix task's FFTS+ logs (vnpu_hwrec.c), go in one */
	const u8 max_n[VNPU_CH_COUNT] = {
		[VNPU_CH_ACSQ] = 4,
		[VNPU_CH_PMU] = 1,
		[VNPU_CH_TS_TRACK] = 1,
		[VNPU_CH_AICPU] = 1,
	};
	struct vnpu_ring *ring;
	struct vnpu_prof *prof;
	u32 n_aic = 0, n_aiv = 0, i;

	prof = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*prof), GFP_KERNEL_ACCOUNT);
	if (!prof)
		return ERR_PTR(-ENOMEM);
	vnpu_obj_get(VNPU_OBJ_SESSION);
	BUILD_BUG_ON(sizeof(struct vnpu_hwts_log) != sizeof(struct vnpu_acsq_log));
	BUILD_BUG_ON(sizeof(struct vnpu_aic_pmu) != sizeof(struct vnpu_ffts_pmu));
	BUILD_BUG_ON(sizeof(struct vnpu_pmu_v6) != sizeof(struct vnpu_ffts_pmu));
	ring = vnpu_ring_alloc_chans(pages, sizes, max_n, VNPU_CH_COUNT);
	if (IS_ERR(ring)) {
		vnpu_prof_free(prof);
		return ERR_CAST(ring);
	}
	prof->ring = ring;
	prof->uid = current_euid();
	prof->see_all = READ_ONCE(prof_paranoid) <= 0 || perfmon_capable();
	prof->ring->wakeup_bytes = ps->wakeup_bytes;
	prof->owner = vfile;
	prof->id = atomic_inc_return(&vnpu_prof_ids);
	prof->level = ps->level;
	prof->hwts = !(p->caps & VNPU_CAP_STARS);
	prof->ffts = p->features & VNPU_PF_FFTS_PLUS;
	prof->v6 = p->features & VNPU_PF_V6;
	prof->group = ps->metric_group;
	if (prof->group != VNPU_METRIC_NONE) {
		n_aic = vnpu_metric_events(p, prof->group, false, prof->aic_events);
		n_aiv = vnpu_metric_events(p, prof->group, true, prof->aiv_events);
	}
	prof->n_events = max(n_aic, n_aiv);
	for (i = 0; i < VNPU_PMU_EVENTS_ALL; i++) {
		prof->aic_slots[i] = prof->v6 ? vnpu_pmu_slot_v6(prof->aic_events[i]) :
						vnpu_pmu_slot(prof->aic_events[i]);
		prof->aiv_slots[i] = prof->v6 ? vnpu_pmu_slot_v6(prof->aiv_events[i]) :
						vnpu_pmu_slot(prof->aiv_events[i]);
	}
	vnpu_prof_fill_ctrl(vdev, prof);
	return prof;
}

/*
 * A stopped session's ring whose readers have all unmapped it: nobody will
 * read it any more, so give its memory back now rather than at the owner's
 * next start or close (a file may hold a stopped session for ever). A ring
 * that was never mapped stays, charged, for a reader that maps it after
 * the stop to drain it. Under the owner's lock; returns the ring for the
 * caller to drop after unlocking.
 */
static struct vnpu_ring *vnpu_prof_unhook_ring(struct vnpu_prof *prof)
{
	struct vnpu_ring *r = prof->ring;

	lockdep_assert_held(&prof->owner->lock);
	/* stopped: prof->final has the counters (vnpu_prof_stop_locked()) */
	if (!r || READ_ONCE(prof->active) || !r->mapped || atomic_read(&r->maps))
		return NULL;
	prof->ring = NULL;
	return r;
}

/* A ring's counters as PROF_STATS reports them. */
static void vnpu_ring_counts(const struct vnpu_ring *r, struct vnpu_ring_final *f)
{
	f->produced = r->produced;
	f->lost = r->lost;
	f->written = r->written;
	f->bytes = r->prod;
	f->consumed_pos = r->cons_seen;
}

/* Stop @vdev's active session if @vfile owns it. Under prof_lock. */
static int vnpu_prof_stop_locked(struct vnpu_device *vdev, struct vnpu_file *vfile)
{
	struct vnpu_prof *prof = vdev->prof;

	lockdep_assert_held(&vdev->prof_lock);
	if (!prof)
		return -ENOENT;
	if (prof->owner != vfile)
		return -EPERM;
	spin_lock(&vdev->lock);
	vdev->prof = NULL;
	vnpu_ring_stop(prof->ring, &vfile->prof_wq);
	/*
	 * The counters are final: keep them in the session, which outlives
	 * the ring (its last reader may unmap, and so free, it at any time
	 * from now on). Written before @active, which vm_close reads.
	 */
	vnpu_ring_counts(prof->ring, &prof->final);
	trace_vnpu_session_stop(vdev->id, prof->id, prof->level, prof->group,
				prof->final.produced, prof->final.lost);
	WRITE_ONCE(prof->active, false);
	spin_unlock(&vdev->lock);
	/* process context, prof_lock held; from prof->final, not the ring */
	vnpu_nl_session_stopped(vdev, prof);
	return 0;
}

/* Stop the session, and free its ring at once if nothing maps it. */
static int vnpu_prof_stop_file(struct vnpu_device *vdev, struct vnpu_file *vfile)
{
	struct vnpu_ring *gone = NULL;
	int ret;

	mutex_lock(&vdev->prof_lock);
	ret = vnpu_prof_stop_locked(vdev, vfile);
	mutex_unlock(&vdev->prof_lock);
	if (ret)
		return ret;
	mutex_lock(&vfile->lock);
	if (vfile->prof)
		gone = vnpu_prof_unhook_ring(vfile->prof);
	mutex_unlock(&vfile->lock);
	vnpu_ring_drop(gone);
	return 0;
}

long vnpu_ioctl_prof_start(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_prof *prof, *old;
	struct vnpu_ring *gone;
	struct vnpu_prof_start ps;
	u32 usize;
	int ret;

	ret = vnpu_copy_struct_in(&ps, sizeof(ps), VNPU_PROF_START_SIZE_VER0, arg);
	if (ret)
		return ret;
	usize = ps.size;
	/* the struct is written back at the end: fault before the session exists */
	if (vnpu_copy_struct_out(arg, &ps, sizeof(ps), usize))
		return -EFAULT;
	ret = vnpu_prof_check_start(vdev->product, &ps);
	if (ret)
		return ret;

	/* busy before anything is allocated or charged */
	mutex_lock(&vdev->prof_lock);
	if (vdev->prof) {
		mutex_unlock(&vdev->prof_lock);
		return -EBUSY;
	}
	/*
	 * The file's stopped session gives its ring back first, so that a
	 * restart never needs two rings' charge (a mapping of it keeps it,
	 * and its charge, until it goes).
	 */
	mutex_lock(&vfile->lock);
	gone = vfile->prof ? vfile->prof->ring : NULL;
	if (gone)
		vfile->prof->ring = NULL;
	mutex_unlock(&vfile->lock);
	vnpu_ring_drop(gone);
	prof = vnpu_prof_new(vdev, vfile, &ps);
	if (IS_ERR(prof)) {
		mutex_unlock(&vdev->prof_lock);
		return PTR_ERR(prof);
	}
	mutex_lock(&vfile->lock);
	old = vfile->prof;
	vfile->prof = prof;
	spin_lock(&vnpu_seed_lock);
	spin_lock(&vdev->lock);
	vnpu_prof_stamp_start(vdev, prof);
	WRITE_ONCE(prof->active, true);
	vdev->prof = prof;
	trace_vnpu_session_start(vdev->id, prof->id, prof->level, prof->group);
	spin_unlock(&vdev->lock);
	spin_unlock(&vnpu_seed_lock);
	mutex_unlock(&vfile->lock);
	/* process context; under prof_lock so start and stop events stay in order */
	vnpu_nl_session_started(vdev, prof);
	/* while prof_lock holds it: another thread may stop and free it after */
	ps.size = sizeof(ps);
	ps.session_id = prof->id;
	ps.n_events = prof->n_events;
	memcpy(ps.aic_events, prof->aic_events, sizeof(ps.aic_events));
	memcpy(ps.aiv_events, prof->aiv_events, sizeof(ps.aiv_events));
	memcpy(ps.aic_events_hi, prof->aic_events + VNPU_PMU_EVENTS, sizeof(ps.aic_events_hi));
	memcpy(ps.aiv_events_hi, prof->aiv_events + VNPU_PMU_EVENTS, sizeof(ps.aiv_events_hi));
	ps.mmap_size = (2 + 2ULL * prof->ring->nr_data) * PAGE_SIZE;
	mutex_unlock(&vdev->prof_lock);
	vnpu_prof_free(old);
	return vnpu_copy_struct_out(arg, &ps, sizeof(ps), usize);
}

long vnpu_ioctl_prof_stop(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_prof_stop st;
	int ret;

	ret = vnpu_copy_struct_in(&st, sizeof(st), VNPU_PROF_STOP_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (st.flags || st.reserved)
		return -EINVAL;
	return vnpu_prof_stop_file(vdev, vfile);
}

long vnpu_ioctl_prof_stats(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_prof_stats st;
	struct vnpu_ring_final f;
	struct vnpu_prof *prof;
	u32 usize;
	int ret;

	ret = vnpu_copy_struct_in(&st, sizeof(st), VNPU_PROF_STATS_SIZE_VER0, arg);
	if (ret)
		return ret;
	/* every member but @flags and @reserved is an output */
	if (st.flags || st.reserved[0] || st.reserved[1])
		return -EINVAL;
	usize = st.size;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);

	/* this file's session, else the device's */
	mutex_lock(&vfile->lock);
	spin_lock(&vdev->lock);
	prof = vfile->prof ? vfile->prof : vdev->prof;
	if (prof) {
		/* a stopped session's are final, with or without its ring */
		if (prof->active)
			vnpu_ring_counts(prof->ring, &f);
		else
			f = prof->final;
		st.session_id = prof->id;
		st.active = prof->active;
		st.produced = f.produced;
		st.lost = f.lost;
		st.written = f.written;
		st.bytes = f.bytes;
		st.consumed_pos = f.consumed_pos;
	}
	spin_unlock(&vdev->lock);
	mutex_unlock(&vfile->lock);
	return vnpu_copy_struct_out(arg, &st, sizeof(st), usize);
}

/* The file is going away: stop its session and free its ring. */
void vnpu_prof_release(struct vnpu_file *vfile)
{
	struct vnpu_device *vdev = vfile->vdev;

	mutex_lock(&vdev->prof_lock);
	if (vdev->prof && vdev->prof->owner == vfile)
		vnpu_prof_stop_locked(vdev, vfile);
	mutex_unlock(&vdev->prof_lock);
	vnpu_prof_free(vfile->prof);
	vfile->prof = NULL;
}

/* A mapping is copied (fork) or split: one more holder of the ring. */
static void vnpu_prof_vm_open(struct vm_area_struct *vma)
{
	struct vnpu_ring *r = vma->vm_private_data;

	atomic_inc(&r->maps);
	vnpu_ring_hold(r);
}

/*
 * A mapping goes. The file outlives it (the mapping holds the file), but
 * the ring may be an older session's than the file's current one.
 */
static void vnpu_prof_vm_close(struct vm_area_struct *vma)
{
	struct vnpu_file *vfile = vma->vm_file->private_data;
	struct vnpu_ring *r = vma->vm_private_data, *gone = NULL;

	if (atomic_dec_and_test(&r->maps)) {
		mutex_lock(&vfile->lock);
		if (vfile->prof && vfile->prof->ring == r)
			gone = vnpu_prof_unhook_ring(vfile->prof);
		mutex_unlock(&vfile->lock);
	}
	vnpu_ring_drop(gone);
	vnpu_ring_drop(r);
}

static const struct vm_operations_struct vnpu_prof_vm_ops = {
	.open = vnpu_prof_vm_open,
	.close = vnpu_prof_vm_close,
};

int vnpu_prof_mmap(struct vnpu_file *vfile, struct vm_area_struct *vma)
{
	struct vnpu_ring *r;
	int ret = -ENODEV;

	mutex_lock(&vfile->lock);
	r = vfile->prof ? vfile->prof->ring : NULL;
	if (r)
		ret = vnpu_ring_mmap(r, vma);
	if (!ret) {
		vma->vm_ops = &vnpu_prof_vm_ops;
		vma->vm_private_data = r;
		r->mapped = true;
		atomic_inc(&r->maps);
		vnpu_ring_hold(r);
	}
	mutex_unlock(&vfile->lock);
	return ret;
}

__poll_t vnpu_prof_poll(struct vnpu_file *vfile, struct file *file,
			struct poll_table_struct *wait)
{
	struct vnpu_ring *r;
	__poll_t mask = 0;
	bool stopped;

	poll_wait(file, &vfile->prof_wq, wait);
	/*
	 * Pairs with the barrier in wq_has_sleeper() of vnpu_ring_publish():
	 * either the producer sees us queued, or we see its records.
	 */
	smp_mb();
	mutex_lock(&vfile->lock);
	if (!vfile->prof) {
		mask = EPOLLERR;
		goto out_unlock;
	}
	r = vfile->prof->ring;
	/* stopped, and its ring gone with its last mapping: nothing to read */
	if (!r) {
		mask = EPOLLHUP;
		goto out_unlock;
	}
	/* pairs with the release in vnpu_ring_stop(): all records visible */
	stopped = smp_load_acquire(&r->ctrl->stopped);
	if (vnpu_ring_poll_in(r, stopped))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (stopped)
		mask |= EPOLLHUP;
out_unlock:
	mutex_unlock(&vfile->lock);
	return mask;
}

/**
 * vnpu_prof_task() - write the records of a completed task
 * @vdev: the device (locked).
 * @task: the task, with its start and end.
 * @out: its cost-model output (counters); gets the session's programmed
 *       events, computed here once for the task, from L1 on.
 *
 * The records become visible at the next vnpu_prof_flush(), which the
 * executor calls before it lets go of the device lock: once per batch of
 * tasks, not once per task.
 */
void vnpu_prof_task(struct vnpu_device *vdev, const struct vnpu_ktask *task,
		    struct vnpu_model_out *out)
{
	struct vnpu_prof *prof = vdev->prof;
	struct vnpu_counters *c = &out->ctr;

	lockdep_assert_held(&vdev->lock);
	if (!prof || !vnpu_prof_sees(prof, task->stream->vfile))
		return;
	/* one that was running when the session started has no launch in it */
	if (task->start < prof->start_ticks)
		return;
	/*
	 * Only now, with the session known: none without an L1 session, and
	 * only its events (a paced task may have been modelled before the
	 * session started).
	 */
	if (prof->level >= VNPU_PROF_L1 && (!c->ev_valid || c->ev_session != prof->id))
		vnpu_pmu_compute(c, prof->aic_slots, prof->aiv_slots, prof->n_events, prof->id);
	vnpu_hwrec_task(prof, task, c);
}

/**
 * vnpu_prof_flush() - publish the records written since the last flush
 * @vdev: the device (locked).
 *
 * Makes them visible, wakes a reader at its watermark, and reports the
 * start of a loss run (netlink). A session stop publishes on its own.
 */
void vnpu_prof_flush(struct vnpu_device *vdev)
{
	struct vnpu_prof *prof = vdev->prof;
	struct vnpu_ring *r;

	lockdep_assert_held(&vdev->lock);
	if (!prof || !prof->ring->dirty)
		return;
	r = prof->ring;
	vnpu_ring_publish(r, &prof->owner->prof_wq);
	if (unlikely(r->lost_event))
		vnpu_nl_records_lost(vdev, prof);	/* only queues work */
}

