// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the profiling record rings - allocation, the producer side, mmap.
 *
 * A session has one ring per channel (enum vnpu_channel) of fixed-size
 * records, all in one mapping. Each channel's data pages are vmap()ed
 * twice back to back (as kernel/bpf/ringbuf.c does), behind the control
 * page and the consumer page, and mapped the same way into userspace, so
 * that a run of records crossing the end of a ring is contiguous for both
 * sides. The layout and the barrier contract are documented in
 * uapi/vnpu_prof.h and docs/ring.md.
 *
 * All producers hold vnpu_device.lock. A consumer position is written by
 * userspace at any time: it is read once per reservation, validated, and
 * never used to compute an address.
 *
 * Memory: every page of a ring is charged to the user that started the
 * session, as perf and io_uring charge theirs: against user->locked_vm,
 * which may reach RLIMIT_MEMLOCK plus the module's mlock_kb allowance
 * (perf_event_mlock_kb's counterpart), unless the caller has CAP_IPC_LOCK;
 * and every allocation is GFP_KERNEL_ACCOUNT (memcg). A ring is
 * refcounted: its session holds it, and so does each mapping of it, so
 * that its pages and its charge go exactly when the last of them does.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vnpu_debugfs.h"
#include "vnpu_ring.h"
#include "vnpu_ring_math.h"
#include "vnpu_trace.h"

/* Pages of the mapping: control, consumer, then each channel's data pages twice. */
static u32 vnpu_ring_map_pages(const struct vnpu_ring *r)
{
	return 2 + 2 * r->nr_data;
}

static struct page *vnpu_ring_page(const struct vnpu_ring *r, u32 i)
{
	const struct vnpu_chan *c;
	u32 ch;

	if (i < 2)
		return r->pages[i];
	for (ch = 0; ch + 1 < r->n_chan && i >= r->chan[ch + 1].map_first; ch++)
		;
	c = &r->chan[ch];
	return r->pages[c->first + (i - c->map_first) % c->nr];
}

static unsigned int vnpu_param_mlock_kb = 65536;
module_param_named(mlock_kb, vnpu_param_mlock_kb, uint, 0644);
MODULE_PARM_DESC(mlock_kb,
		 "ring memory each user may lock beyond RLIMIT_MEMLOCK, KiB (default 65536; as perf_event_mlock_kb)");

/*
 * Charge @pages to the calling user before they are allocated: -EPERM if
 * that takes the user's locked memory past RLIMIT_MEMLOCK plus mlock_kb.
 */
static int vnpu_ring_charge(struct vnpu_ring *r, unsigned long pages)
{
	unsigned long limit;
	struct user_struct *user;
	long cur, next;

	if (capable(CAP_IPC_LOCK))
		return 0;
	limit = (rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT) +
		(READ_ONCE(vnpu_param_mlock_kb) >> (PAGE_SHIFT - 10));
	user = get_current_user();
	cur = atomic_long_read(&user->locked_vm);
	do {
		next = cur + pages;
		if (next < cur || next > limit) {
			free_uid(user);
			return -EPERM;
		}
	} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, next));
	r->user = user;
	r->charged = pages;
	return 0;
}

static void vnpu_ring_uncharge(struct vnpu_ring *r)
{
	if (!r->user)
		return;
	atomic_long_sub(r->charged, &r->user->locked_vm);
	free_uid(r->user);
	r->user = NULL;
}

/* Allocate the pages and the vmap of @r, whose page counts are set. */
static int vnpu_ring_alloc_pages(struct vnpu_ring *r)
{
	struct page **map;
	u32 i, n;
	int ret;

	kref_init(&r->ref);
	ret = vnpu_ring_charge(r, 2 + r->nr_data);
	if (ret)
		return ret;
	r->pages = vnpu_fail_alloc() ? NULL :
		   kvcalloc(2 + r->nr_data, sizeof(*r->pages), GFP_KERNEL_ACCOUNT);
	if (!r->pages) {
		vnpu_ring_uncharge(r);
		return -ENOMEM;
	}
	for (i = 0; i < 2 + r->nr_data; i++) {
		r->pages[i] = vnpu_fail_alloc() ? NULL :
			      alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!r->pages[i])
			goto err_free_pages;
	}

	n = vnpu_ring_map_pages(r);
	map = vnpu_fail_alloc() ? NULL : kvcalloc(n, sizeof(*map), GFP_KERNEL);
	if (!map)
		goto err_free_pages;
	for (i = 0; i < n; i++)
		map[i] = vnpu_ring_page(r, i);
	r->vaddr = vnpu_fail_alloc() ? NULL : vmap(map, n, VM_MAP, PAGE_KERNEL);
	kvfree(map);
	if (!r->vaddr)
		goto err_free_pages;
	vnpu_obj_get(VNPU_OBJ_RING);
	r->ctrl = r->vaddr;
	r->cons = r->vaddr + PAGE_SIZE;
	return 0;

err_free_pages:
	for (i = 0; i < 2 + r->nr_data && r->pages[i]; i++)
		__free_page(r->pages[i]);
	kvfree(r->pages);
	vnpu_ring_uncharge(r);
	return -ENOMEM;
}

/**
 * vnpu_ring_alloc_chans() - allocate a ring of @n channels
 * @pages: each channel's data pages, a power of two.
 * @rec_size: each channel's record size.
 * @max_n: the most records one reservation of each channel takes (1 .. 4).
 * @n: channels, 1 .. VNPU_CH_COUNT.
 *
 * The control page gets the channel descriptors' static fields.
 *
 * Return: the ring, zeroed, with one reference; ERR_PTR(-ENOMEM), or
 * ERR_PTR(-EPERM) past the caller's locked-memory limit.
 */
struct vnpu_ring *vnpu_ring_alloc_chans(const u32 *pages, const u32 *rec_size, const u8 *max_n,
					u32 n)
{
	struct vnpu_ring *r;
	u32 ch, first = 2, map = 2;
	int ret;

	BUILD_BUG_ON(VNPU_RING_CHAN_OFFSET + VNPU_CH_COUNT * sizeof(struct vnpu_ring_chan) >
		     PAGE_SIZE);
	BUILD_BUG_ON(sizeof(struct vnpu_ring_chan) != 64);
	BUILD_BUG_ON(VNPU_RING_CHAN_CONS_OFFSET(VNPU_CH_COUNT) > PAGE_SIZE);
	r = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->n_chan = n;
	for (ch = 0; ch < n; ch++) {
		struct vnpu_chan *c = &r->chan[ch];

		c->nr = pages[ch];
		c->first = first;
		c->map_first = map;
		c->rec_size = rec_size[ch];
		c->max_n = max_n[ch];
		c->size = (u64)pages[ch] * PAGE_SIZE;
		first += c->nr;
		map += 2 * c->nr;
		r->nr_data += c->nr;
		r->size += c->size;
	}
	ret = vnpu_ring_alloc_pages(r);
	if (ret) {
		kfree(r);
		return ERR_PTR(ret);
	}
	for (ch = 0; ch < n; ch++) {
		struct vnpu_chan *c = &r->chan[ch];

		c->data = r->vaddr + (size_t)c->map_first * PAGE_SIZE;
		c->desc = (void *)r->ctrl + VNPU_RING_CHAN_OFFSET + ch * sizeof(*c->desc);
		c->cons = (void *)r->cons + VNPU_RING_CHAN_CONS_OFFSET(ch);
		c->desc->type = ch;
		c->desc->rec_size = c->rec_size;
		c->desc->data_offset = (u64)c->map_first * PAGE_SIZE;
		c->desc->data_size = c->size;
	}
	return r;
}

static void vnpu_ring_release(struct kref *ref)
{
	struct vnpu_ring *r = container_of(ref, struct vnpu_ring, ref);
	u32 i;

	vunmap(r->vaddr);
	for (i = 0; i < 2 + r->nr_data; i++)
		put_page(r->pages[i]);
	kvfree(r->pages);
	vnpu_ring_uncharge(r);
	kfree(r);
	vnpu_obj_put(VNPU_OBJ_RING);
}

void vnpu_ring_hold(struct vnpu_ring *r)
{
	kref_get(&r->ref);
}

/* Drop a reference: the last one (session or mapping) frees the ring. */
void vnpu_ring_drop(struct vnpu_ring *r)
{
	if (r)
		kref_put(&r->ref, vnpu_ring_release);
}

/* A channel's consumer position, read once; an implausible one counts as no move. */
static u64 vnpu_chan_consumer(struct vnpu_ring *r, struct vnpu_chan *c)
{
	/*
	 * Pairs with the consumer's store-release: its reads of the records
	 * before this position are done before we overwrite them.
	 */
	u64 cons = smp_load_acquire(c->cons);

	/* a reader can only have read what was published */
	if (vnpu_ring_cons_valid(c->cons_seen, cons, c->published)) {
		WRITE_ONCE(r->cons_seen, r->cons_seen + (cons - c->cons_seen));
		WRITE_ONCE(c->cons_seen, cons);
	}
	return c->cons_seen;
}

/*
 * End a loss burst's hold on the channels that have room again: a channel
 * that dropped records and is never written to again (the flips, the AI
 * CPU's) must not keep the burst, and with it every later one, from being
 * reported. Looked at when a reservation is dropped, the only time the
 * burst's state is read.
 */
static void vnpu_chans_recovered(struct vnpu_ring *r)
{
	u32 ch;

	for (ch = 0; r->losing && ch < r->n_chan; ch++) {
		struct vnpu_chan *c = &r->chan[ch];

		if ((r->losing & BIT(ch)) &&
		    vnpu_ring_fits(c->size, vnpu_chan_consumer(r, c), c->prod,
				   (u64)c->max_n * c->rec_size))
			r->losing &= ~BIT(ch);
	}
}

/**
 * vnpu_chan_reserve() - room for @n records in channel @ch, back to back
 * @r: the ring; the caller holds vnpu_device.lock.
 * @ch: enum vnpu_channel.
 * @n: records, 1 to the channel's max_n (a task's start and end log, and
 *     a mix task's FFTS+ logs between them: one reservation for all, so
 *     that a reader never sees one without the others).
 * @cnt: out: the channel's 4-bit counter for the first record; the next
 *       ones follow it (it counts dropped records too, so that a reader
 *       sees a gap where records were lost).
 *
 * The @n records are contiguous: positions are multiples of the record
 * size and the data is mapped twice. The caller fills every byte of them;
 * they become visible at vnpu_ring_publish(). If they do not all fit, all
 * @n are dropped and counted.
 *
 * Return: the first record, or NULL if they were dropped.
 */
void *vnpu_chan_reserve(struct vnpu_ring *r, u32 ch, u32 n, u8 *cnt)
{
	struct vnpu_chan *c = &r->chan[ch];
	u64 cons = vnpu_chan_consumer(r, c);
	u32 bytes = n * c->rec_size;
	void *rec;

	*cnt = c->cnt & 0xf;
	c->cnt += n;
	r->dirty |= BIT(ch);
	c->produced += n;
	r->produced += n;
	if (!vnpu_ring_fits(c->size, cons, c->prod, bytes)) {
		c->lost += n;
		r->lost += n;
		/*
		 * One netlink event and tracepoint per loss burst of the
		 * session: from a loss while none was running to the time
		 * every channel that lost records has fitted one again, or
		 * has room again (a record that fits in another channel does
		 * not end it).
		 */
		if (r->losing)
			vnpu_chans_recovered(r);
		if (!r->losing) {
			r->lost_event = true;
			trace_vnpu_records_lost(r->ctrl->dev_id, r->ctrl->session_id, r->lost);
		}
		r->losing |= BIT(ch);
		return NULL;
	}
	r->losing &= ~BIT(ch);
	rec = c->data + vnpu_ring_offset(c->prod, c->size);
	c->prod += bytes;
	r->prod += bytes;
	r->written += n;
	return rec;
}

/*
 * The most a channel is sure to hold unread when a reservation no longer
 * fits: all but its largest reservation. A watermark above it could sleep
 * through a channel that drops every record.
 */
static u64 vnpu_chan_max_unread(const struct vnpu_chan *c)
{
	return c->size - (u64)c->max_n * c->rec_size + 1;
}

/*
 * Is the unread of any channel in @mask at its watermark? A channel not in
 * @mask has not changed since it was last checked (and woke the reader).
 */
static bool vnpu_chans_ready(struct vnpu_ring *r, u32 mask, bool fresh)
{
	u32 ch;

	for (ch = 0; ch < r->n_chan; ch++) {
		struct vnpu_chan *c = &r->chan[ch];
		u64 cons, prod;

		if (!(mask & BIT(ch)))
			continue;
		/*
		 * For poll (@fresh): the same pairings as the consumer's own
		 * loads and stores. For the producer: its own positions.
		 */
		cons = fresh ? smp_load_acquire(c->cons) : READ_ONCE(c->cons_seen);
		/* pairs with the store-release in vnpu_ring_publish() */
		prod = fresh ? smp_load_acquire(&c->desc->producer_pos) : c->prod;
		if (!vnpu_ring_cons_valid(READ_ONCE(c->cons_seen), cons, prod))
			cons = READ_ONCE(c->cons_seen);
		if (vnpu_ring_used(cons, prod) >=
		    min_t(u64, r->wakeup_bytes, vnpu_chan_max_unread(c)))
			return true;
	}
	return false;
}

/*
 * Make the records written so far visible, and wake a waiting reader: only
 * the channels written to (or with records lost) since the last call.
 */
void vnpu_ring_publish(struct vnpu_ring *r, wait_queue_head_t *wq)
{
	struct vnpu_ring_ctrl *ctrl = r->ctrl;
	u32 dirty = r->dirty, ch;

	WRITE_ONCE(ctrl->produced, r->produced);
	WRITE_ONCE(ctrl->lost, r->lost);
	WRITE_ONCE(ctrl->written, r->written);
	for (ch = 0; ch < r->n_chan; ch++) {
		struct vnpu_chan *c = &r->chan[ch];

		if (!(dirty & BIT(ch)))
			continue;
		WRITE_ONCE(c->desc->produced, c->produced);
		WRITE_ONCE(c->desc->lost, c->lost);
		/* pairs with the consumer's load-acquire of producer_pos */
		smp_store_release(&c->desc->producer_pos, c->prod);
		c->published = c->prod;
	}
	r->dirty = 0;
	if (vnpu_chans_ready(r, dirty, false) && wq_has_sleeper(wq))
		wake_up_interruptible(wq);
}

/* The session stops: publish the last records, mark the end, wake readers. */
void vnpu_ring_stop(struct vnpu_ring *r, wait_queue_head_t *wq)
{
	/* a channel's losses are in its counters, published with it */
	vnpu_ring_publish(r, wq);
	/* a reader that sees stopped also sees every record before it */
	smp_store_release(&r->ctrl->stopped, 1);
	wake_up_interruptible_all(wq);
}

/* Should poll() say EPOLLIN: records at the watermark, or any left after stop? */
bool vnpu_ring_poll_in(struct vnpu_ring *r, bool stopped)
{
	u32 ch;

	if (vnpu_chans_ready(r, ~0u, true))
		return true;
	for (ch = 0; stopped && ch < r->n_chan; ch++) {
		struct vnpu_chan *c = &r->chan[ch];

		/* pairs with the consumer's release and vnpu_ring_publish()'s */
		if (smp_load_acquire(c->cons) != smp_load_acquire(&c->desc->producer_pos))
			return true;
	}
	return false;
}

/**
 * vnpu_ring_mmap() - map (part of) the ring into @vma
 * @r: the ring.
 * @vma: the mapping; vm_pgoff is the page index in the layout.
 *
 * Only the consumer page, alone, may be mapped writable, and then only
 * shared (as bpf_map_mmap() requires): a private copy is a page the kernel
 * never sees. Every other mapping loses VM_MAYWRITE so mprotect() cannot
 * make it writable, and no mapping can grow.
 *
 * Return: 0, -EINVAL (beyond the ring, or a private writable consumer
 * page) or -EPERM (writable data).
 */
int vnpu_ring_mmap(struct vnpu_ring *r, struct vm_area_struct *vma)
{
	unsigned long pgoff = vma->vm_pgoff, npages = vma_pages(vma);
	unsigned long addr = vma->vm_start, i;
	bool cons_only = pgoff == 1 && npages == 1;
	int ret;

	if (pgoff >= vnpu_ring_map_pages(r) ||
	    npages > vnpu_ring_map_pages(r) - pgoff)
		return -EINVAL;
	if ((vma->vm_flags & VM_WRITE) && !cons_only)
		return -EPERM;
	if ((vma->vm_flags & VM_WRITE) && !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (!cons_only)
		vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;

	for (i = 0; i < npages; i++, addr += PAGE_SIZE) {
		ret = vm_insert_page(vma, addr, vnpu_ring_page(r, pgoff + i));
		if (ret)
			return ret;
	}
	return 0;
}
