// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the profiling record ring - allocation, the producer side, mmap.
 *
 * The data pages are vmap()ed twice back to back (as kernel/bpf/ringbuf.c
 * does), behind the control page and the consumer page, and mapped the
 * same way into userspace, so that a record crossing the end of the ring
 * is contiguous for both sides. The layout and the barrier contract are
 * documented in uapi/vnpu_prof.h and docs/ring.md.
 *
 * All producers hold vnpu_device.lock. The consumer position is written by
 * userspace at any time: it is read once per reservation, validated, and
 * never used to compute an address.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vnpu_drv.h"
#include "vnpu_ring_math.h"
#include "vnpu_trace.h"

#define VNPU_RING_LOST_SIZE sizeof(struct vnpu_rec_lost)
/* The largest record the device writes: OP_INFO with every tensor at full rank. */
#define VNPU_RING_MAX_REC_SIZE							\
	(sizeof(struct vnpu_rec_op_info) +					\
	 VNPU_MAX_TENSORS * (sizeof(struct vnpu_rec_tensor) + VNPU_MAX_DIMS * sizeof(__u64)))

/* Pages of the mapping: control, consumer, then the data pages twice. */
static u32 vnpu_ring_map_pages(const struct vnpu_ring *r)
{
	return 2 + 2 * r->nr_data;
}

static struct page *vnpu_ring_page(const struct vnpu_ring *r, u32 i)
{
	return i < 2 ? r->pages[i] : r->pages[2 + (i - 2) % r->nr_data];
}

/**
 * vnpu_ring_alloc() - allocate a ring with @nr_data data pages
 * @nr_data: a power of two, 1 .. VNPU_RING_MAX_PAGES.
 *
 * Return: the ring, zeroed, or NULL.
 */
struct vnpu_ring *vnpu_ring_alloc(u32 nr_data)
{
	struct page **map = NULL;
	struct vnpu_ring *r;
	u32 i, n;

	r = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->nr_data = nr_data;
	r->pages = vnpu_fail_alloc() ? NULL :
		   kvcalloc(2 + nr_data, sizeof(*r->pages), GFP_KERNEL);
	if (!r->pages)
		goto err_free_ring;
	for (i = 0; i < 2 + nr_data; i++) {
		r->pages[i] = vnpu_fail_alloc() ? NULL :
			      alloc_page(GFP_KERNEL | __GFP_ZERO);
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
	r->data = r->vaddr + 2 * PAGE_SIZE;
	r->size = (u64)nr_data * PAGE_SIZE;
	return r;

err_free_pages:
	for (i = 0; i < 2 + nr_data && r->pages[i]; i++)
		__free_page(r->pages[i]);
	kvfree(r->pages);
err_free_ring:
	kfree(r);
	return NULL;
}

/* Free the kernel's view; pages still mapped by a process stay until munmap. */
void vnpu_ring_free(struct vnpu_ring *r)
{
	u32 i;

	if (!r)
		return;
	vunmap(r->vaddr);
	for (i = 0; i < 2 + r->nr_data; i++)
		put_page(r->pages[i]);
	kvfree(r->pages);
	kfree(r);
	vnpu_obj_put(VNPU_OBJ_RING);
}

/* Read the consumer position once; an implausible one counts as no move. */
static u64 vnpu_ring_consumer(struct vnpu_ring *r)
{
	/*
	 * Pairs with the consumer's store-release: its reads of the records
	 * before this position are done before we overwrite them.
	 */
	u64 cons = smp_load_acquire(&r->cons->consumer_pos);

	if (vnpu_ring_cons_valid(r->cons_seen, cons, r->prod))
		r->cons_seen = cons;
	return r->cons_seen;
}

static void *vnpu_ring_put(struct vnpu_ring *r, u16 type, u32 size)
{
	struct vnpu_rec_hdr *hdr = r->data + vnpu_ring_offset(r->prod, r->size);

	memset(hdr, 0, size);
	hdr->type = type;
	hdr->size = size;
	hdr->seq = r->seq++;
	r->prod += size;
	r->written++;
	return hdr;
}

/**
 * vnpu_ring_reserve() - room for one data record
 * @r: the ring; the caller holds vnpu_device.lock.
 * @type: enum vnpu_rec_type.
 * @bytes: the record's size, header included.
 *
 * Writes the pending LOST record first if there is one. The record is
 * zeroed and its header filled; it becomes visible at vnpu_ring_publish().
 * Room for one LOST record always stays free, so that the last loss of a
 * session can be reported at stop.
 *
 * Return: the record, or NULL if it was dropped (and counted).
 */
void *vnpu_ring_reserve(struct vnpu_ring *r, u16 type, u32 bytes)
{
	u32 size = vnpu_ring_rec_size(bytes);
	u32 lost = r->lost_pending ? VNPU_RING_LOST_SIZE : 0;
	struct vnpu_rec_lost *rec;
	u64 cons = vnpu_ring_consumer(r);

	r->produced++;
	if (!vnpu_ring_fits(r->size, cons, r->prod, lost + size, VNPU_RING_LOST_SIZE)) {
		/* a run of losses begins: the device sends a netlink event */
		if (!r->lost_pending)
			r->lost_event = true;
		r->lost_pending++;
		r->lost++;
		/* one event per loss burst: on the transition into loss */
		if (r->lost_pending == 1)
			trace_vnpu_records_lost(r->ctrl->dev_id,
						r->ctrl->session_id, r->lost);
		return NULL;
	}
	if (lost) {
		rec = vnpu_ring_put(r, VNPU_REC_LOST, VNPU_RING_LOST_SIZE);
		rec->lost = r->lost_pending;
		r->lost_pending = 0;
	}
	return vnpu_ring_put(r, type, size);
}

/* Make the records written so far visible, and wake a waiting reader. */
void vnpu_ring_publish(struct vnpu_ring *r, wait_queue_head_t *wq)
{
	struct vnpu_ring_ctrl *ctrl = r->ctrl;

	WRITE_ONCE(ctrl->produced, r->produced);
	WRITE_ONCE(ctrl->lost, r->lost);
	WRITE_ONCE(ctrl->written, r->written);
	/* pairs with the consumer's load-acquire of producer_pos */
	smp_store_release(&ctrl->producer_pos, r->prod);
	if (vnpu_ring_used(r->cons_seen, r->prod) >= r->wakeup_bytes &&
	    wq_has_sleeper(wq))
		wake_up_interruptible(wq);
}

/* The session stops: report the last loss, mark the end, wake readers. */
void vnpu_ring_stop(struct vnpu_ring *r, wait_queue_head_t *wq)
{
	struct vnpu_rec_lost *rec;

	if (r->lost_pending) {
		/* vnpu_ring_reserve() always left room for this */
		rec = vnpu_ring_put(r, VNPU_REC_LOST, VNPU_RING_LOST_SIZE);
		rec->lost = r->lost_pending;
		r->lost_pending = 0;
	}
	vnpu_ring_publish(r, wq);
	/* a reader that sees stopped also sees every record before it */
	smp_store_release(&r->ctrl->stopped, 1);
	wake_up_interruptible_all(wq);
}

/* Bytes a reader can read now (for poll). */
u64 vnpu_ring_readable(struct vnpu_ring *r)
{
	u64 cons, prod;

	/* the same pairings as the consumer's own loads and stores */
	cons = smp_load_acquire(&r->cons->consumer_pos);
	/* pairs with the store-release in vnpu_ring_publish() */
	prod = smp_load_acquire(&r->ctrl->producer_pos);

	if (!vnpu_ring_cons_valid(READ_ONCE(r->cons_seen), cons, prod))
		cons = READ_ONCE(r->cons_seen);
	return vnpu_ring_used(cons, prod);
}

/**
 * vnpu_ring_max_wakeup() - the largest watermark a ring can reach
 * @data_size: its data bytes, at least one page.
 *
 * The producer keeps room for a LOST record and stops at the first record
 * that does not fit, so a reader that never reads is sure to see this many
 * bytes unread, and maybe no more.
 *
 * Return: the watermark cap, in bytes.
 */
u32 vnpu_ring_max_wakeup(u64 data_size)
{
	BUILD_BUG_ON(VNPU_RING_MAX_REC_SIZE + VNPU_RING_LOST_SIZE >= PAGE_SIZE);
	BUILD_BUG_ON(sizeof(struct vnpu_rec_pmu) > VNPU_RING_MAX_REC_SIZE ||
		     sizeof(struct vnpu_rec_comm) > VNPU_RING_MAX_REC_SIZE ||
		     sizeof(struct vnpu_rec_aicpu) > VNPU_RING_MAX_REC_SIZE);
	return data_size - VNPU_RING_LOST_SIZE - VNPU_RING_MAX_REC_SIZE + 8;
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
