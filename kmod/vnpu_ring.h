/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the record rings of a profiling session, one per channel, in one
 * mapping (docs/ring.md): the producer side and its mmap.
 */
#ifndef _VNPU_RING_H
#define _VNPU_RING_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vnpu_prof.h"

struct page;
struct user_struct;
struct vm_area_struct;

/**
 * struct vnpu_chan - one channel of a session
 * @data: its data area, @size bytes mapped twice (in the ring's vmap).
 * @size: data bytes, a power of two.
 * @rec_size: bytes of each record.
 * @first: index of its first data page in vnpu_ring.pages.
 * @nr: its data pages.
 * @map_first: page index of its data in the mapping (and the vmap).
 * @desc: its descriptor in the control page.
 * @cons: its consumer position in the consumer page (never trusted).
 * @prod: producer position (published at vnpu_ring_publish()).
 * @published: the producer position last published.
 * @cons_seen: the last plausible consumer position.
 * @produced: records produced (written + lost).
 * @lost: records dropped.
 * @cnt: the 4-bit counter the next record carries.
 * @max_n: the most records one reservation of it takes.
 */
struct vnpu_chan {
	void *data;
	u64 size;
	u32 rec_size;
	u32 first;
	u32 nr;
	u32 map_first;
	struct vnpu_ring_chan *desc;
	u64 *cons;
	u64 prod;
	u64 published;
	u64 cons_seen;
	u64 produced;
	u64 lost;
	u8 cnt;
	u8 max_n;
};

/**
 * struct vnpu_ring - the record rings of one profiling session, one per
 * channel, in one mapping
 * @pages: the control page, the consumer page, then the data pages.
 * @nr_data: data pages of all channels.
 * @n_chan: channels.
 * @dirty: a bit per channel with records produced (written or lost) since
 *         the last publish; only those are published and checked for a
 *         wakeup.
 * @chan: the channels.
 * @vaddr: the kernel's view: control, consumer, each channel's data twice.
 * @ctrl: the control page.
 * @cons: the consumer page (user-writable: never trusted).
 * @size: data bytes of all channels.
 * @prod: the channels' bytes written, added up.
 * @cons_seen: the channels' last plausible consumer positions, added up.
 * @produced: records produced (written + lost).
 * @lost: records dropped.
 * @losing: a bit per channel whose last reservation was dropped: a loss
 *          burst runs while it is not 0.
 * @written: records written.
 * @wakeup_bytes: poll wakes at this many unread bytes in a channel, capped
 *                per channel (vnpu_chan_max_unread()).
 * @lost_event: a run of lost records began; cleared when the device hands
 *              it to vnpu_nl_records_lost() (a netlink event).
 * @ref: held by the session and by each mapping.
 * @maps: mappings of the ring (VMAs).
 * @mapped: it has been mapped (under the owner's lock).
 * @user: the user its pages are charged to (NULL: CAP_IPC_LOCK).
 * @charged: the pages charged.
 */
struct vnpu_ring {
	struct page **pages;
	u32 nr_data;
	u32 n_chan;
	u32 dirty;
	struct vnpu_chan chan[VNPU_CH_COUNT];
	void *vaddr;
	struct vnpu_ring_ctrl *ctrl;
	void *cons;
	u64 size;
	u64 prod;
	u64 cons_seen;
	u64 produced;
	u64 lost;
	u32 losing;
	u64 written;
	u32 wakeup_bytes;
	bool lost_event;
	struct kref ref;
	atomic_t maps;
	bool mapped;
	struct user_struct *user;
	unsigned long charged;
};

/**
 * struct vnpu_ring_final - a stopped session's counters, kept once its
 * ring is gone (PROF_STATS)
 */
struct vnpu_ring_final {
	u64 produced;
	u64 lost;
	u64 written;
	u64 bytes;
	u64 consumed_pos;
};

struct vnpu_ring *vnpu_ring_alloc_chans(const u32 *pages, const u32 *rec_size, const u8 *max_n,
					u32 n);
void *vnpu_chan_reserve(struct vnpu_ring *r, u32 ch, u32 n, u8 *cnt);
bool vnpu_ring_poll_in(struct vnpu_ring *r, bool stopped);
void vnpu_ring_hold(struct vnpu_ring *r);
void vnpu_ring_drop(struct vnpu_ring *r);
void vnpu_ring_publish(struct vnpu_ring *r, wait_queue_head_t *wq);
void vnpu_ring_stop(struct vnpu_ring *r, wait_queue_head_t *wq);
int vnpu_ring_mmap(struct vnpu_ring *r, struct vm_area_struct *vma);

#endif /* _VNPU_RING_H */
