/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The sub-tasks of a collective, as HCCL issues them on its stream.
 *
 * HCCL runs a collective as a sequence of small tasks on the device: SDMA
 * copies (Memcpy), copies that reduce on the fly (Reduce_Inline), and the
 * notifies that synchronise a rank with its neighbours (Notify_Record,
 * Notify_Wait). The host knows the sequence (it writes a task_track and an
 * hccl_info for each), and the device runs it. Both sides here take it
 * from the same function, as liburing keeps its ring helpers in its
 * header: the driver to number and time the sub-tasks and write their
 * ACSQ logs, libnpuprof to write the host records of the same tasks.
 *
 * A COMMUNICATION task on a communicator of n ranks takes
 * vnpu_hccl_steps(op, n) consecutive task ids, one per sub-task; the id
 * VNPU_IOC_SUBMIT returns for it is the first. The algorithm is the ring
 * (HCCL's for a single server of 2..16 devices), rank r sending to
 * r + 1 and receiving from r - 1, a chunk being 1/n of the message:
 *
 *   AllReduce      Memcpy(local, S), n-1 x [Record, Wait, Reduce_Inline(S/n)],
 *                  n-1 x [Record, Wait, Memcpy(S/n)], Record, Wait,
 *                  Memcpy(local, S)
 *   AllGather      Memcpy(local, S/n), n-1 x [Record, Wait, Memcpy(S/n)],
 *                  Record, Wait, Memcpy(local, S)
 *   ReduceScatter  Memcpy(local, S), n-1 x [Record, Wait, Reduce_Inline(S/n)],
 *                  Record, Wait, Memcpy(local, S/n)
 *   Broadcast      Memcpy(local, S), n-1 x [Record, Wait, Memcpy(S/(n-1))],
 *                  Record, Wait, Memcpy(local, S)
 *
 * S is the task's bytes: the message of AllReduce and Broadcast, the
 * gathered buffer of AllGather, the buffer ReduceScatter scatters. A
 * Broadcast is the pipelined ring, every link carrying the message once,
 * modelled alike on every rank. For two ranks AllReduce is the ten tasks
 * of msprof-sample-hccl, in its order.
 *
 * Send and Recv are a pair between rank s and rank d (the peer), HCCL's
 * point-to-point protocol: the receiver says its buffer is free, the
 * sender writes into it and says it is done.
 *
 *   Send (s to d)  Notify_Wait(d), Memcpy(to d, S), Notify_Record(d)
 *   Recv (d of s)  Notify_Record(s), Notify_Wait(s)
 *
 * A rank waits for the others at its first Notify_Wait
 * (vnpu_hccl_first_wait()): the third sub-task of a collective, the first
 * of a Send, the second of a Recv.
 */
#ifndef _UAPI_VNPU_HCCL_H
#define _UAPI_VNPU_HCCL_H

#include <linux/types.h>

/* enum vnpu_hccl_kind - what a sub-task does (hccl_info's itemId name) */
enum vnpu_hccl_kind {
	VNPU_HCCL_MEMCPY = 0,	     /* "Memcpy", an SDMA copy */
	VNPU_HCCL_REDUCE_INLINE = 1, /* "Reduce_Inline", a copy that reduces */
	VNPU_HCCL_NOTIFY_RECORD = 2, /* "Notify_Record", tell a neighbour */
	VNPU_HCCL_NOTIFY_WAIT = 3,   /* "Notify_Wait", wait for a neighbour */
	VNPU_HCCL_KIND_COUNT
};

/* enum vnpu_hccl_link - hccl_info's linkType (HCCL's LinkType values) */
enum vnpu_hccl_link {
	VNPU_LINK_ON_CHIP = 0,
	VNPU_LINK_HCCS = 1,
	VNPU_LINK_PCIE = 2,
	VNPU_LINK_SIO = 4,
};

/**
 * struct vnpu_hccl_step - one sub-task of a collective, on one rank
 * @kind: enum vnpu_hccl_kind.
 * @remote: the rank it copies from or notifies (itself for a local copy).
 * @link: enum vnpu_hccl_link; VNPU_LINK_ON_CHIP for a local copy.
 * @reduce: it reduces (Reduce_Inline).
 * @bytes: bytes copied (0 for a notify).
 */
struct vnpu_hccl_step {
	__u32 kind;
	__u32 remote;
	__u32 link;
	__u32 reduce;
	__u64 bytes;
};

/*
 * vnpu_hccl_link() - the link between two devices of product @product
 * (enum vnpu_product_id of vnpu.h): HCCS between the training chips of
 * a server, PCIe between the inference cards.
 */
static inline __u32 vnpu_hccl_link(__u32 product)
{
	return product == 4 /* 200I_A2 */ || product == 5 /* 310P */ ? VNPU_LINK_PCIE
								       : VNPU_LINK_HCCS;
}

/*
 * vnpu_hccl_link_ranks() - the link between ranks @a and @b of a group on
 * product @product, ranks laid out on the devices in order (rank r on the
 * r-th device, as npuprof run places them): on an Atlas A3 the two dies
 * of a chip (devices 2k and 2k + 1) are joined by SIO, the chips by HCCS;
 * elsewhere vnpu_hccl_link(). ON_CHIP for a rank and itself.
 */
static inline __u32 vnpu_hccl_link_ranks(__u32 product, __u32 a, __u32 b)
{
	if (a == b)
		return VNPU_LINK_ON_CHIP;
	if (product == 1 /* A3 */ && a / 2 == b / 2)
		return VNPU_LINK_SIO;
	return vnpu_hccl_link(product);
}

/* The collective ops are enum vnpu_comm_op of vnpu.h, repeated by value. */
/*
 * The rate of a local (on-chip) SDMA copy, MB/s, from the device's main
 * memory bandwidth and its link's: it reads and writes main memory
 * through one SDMA engine, about 22.5% of the bandwidth (a real A2's
 * LOCAL copies run at 300-334 GB/s of its 1.6 TB/s; docs/calibration.md),
 * and never slower than twice a link that is faster than that (up to
 * half the bandwidth): a copy within the chip beats one across the link.
 */
static inline __u32 vnpu_hccl_local_mbps(__u32 hbm_bw_mbps, __u32 link_bw_mbps)
{
	__u64 sdma = (__u64)hbm_bw_mbps * 9 / 40, fast = (__u64)link_bw_mbps * 2;

	if (fast > hbm_bw_mbps / 2)
		fast = hbm_bw_mbps / 2;
	return (__u32)(sdma > fast ? sdma : fast);
}

#define VNPU_HCCL_OP_ALLREDUCE 0
#define VNPU_HCCL_OP_ALLGATHER 1
#define VNPU_HCCL_OP_REDUCESCATTER 2
#define VNPU_HCCL_OP_BROADCAST 3
#define VNPU_HCCL_OP_SEND 4
#define VNPU_HCCL_OP_RECV 5

/* Is @op point to point (Send or Recv)? */
static inline int vnpu_hccl_p2p(__u32 op)
{
	return op == VNPU_HCCL_OP_SEND || op == VNPU_HCCL_OP_RECV;
}

/* ring steps (of three sub-tasks) of @op on @n ranks */
static inline __u32 vnpu_hccl_ring_steps(__u32 op, __u32 n)
{
	return op == VNPU_HCCL_OP_ALLREDUCE ? 2 * (n - 1) : n - 1;
}

/**
 * vnpu_hccl_steps() - the sub-tasks of a collective
 * @op: enum vnpu_comm_op (an unknown one counts as AllReduce).
 * @nranks: ranks of its communicator, 2 .. 16.
 *
 * Return: how many sub-tasks (and task ids) it takes: 4 + 3 * ring steps,
 * 3 for a Send, 2 for a Recv.
 */
static inline __u32 vnpu_hccl_steps(__u32 op, __u32 nranks)
{
	if (op == VNPU_HCCL_OP_SEND)
		return 3;
	if (op == VNPU_HCCL_OP_RECV)
		return 2;
	if (nranks < 2)
		nranks = 2;
	return 4 + 3 * vnpu_hccl_ring_steps(op, nranks);
}

/* The index of a collective's first Notify_Wait (vnpu_hccl_first_wait()). */
#define VNPU_HCCL_FIRST_WAIT 2

/* The index of @op's first Notify_Wait: where a rank waits for the others. */
static inline __u32 vnpu_hccl_first_wait(__u32 op)
{
	if (op == VNPU_HCCL_OP_SEND)
		return 0;
	if (op == VNPU_HCCL_OP_RECV)
		return 1;
	return VNPU_HCCL_FIRST_WAIT;
}

/* Sub-task @i of a Send to, or a Recv of, @peer: as vnpu_hccl_step(). */
static inline void vnpu_hccl_p2p_step(__u32 op, __u32 peer, __u64 bytes, __u32 link, __u32 i,
				      struct vnpu_hccl_step *st)
{
	static const __u32 send[3] = { VNPU_HCCL_NOTIFY_WAIT, VNPU_HCCL_MEMCPY,
				       VNPU_HCCL_NOTIFY_RECORD };
	static const __u32 recv[2] = { VNPU_HCCL_NOTIFY_RECORD, VNPU_HCCL_NOTIFY_WAIT };

	*st = (struct vnpu_hccl_step){ .remote = peer, .link = link };
	if (op == VNPU_HCCL_OP_SEND) {
		st->kind = send[i < 3 ? i : 2];
		if (st->kind == VNPU_HCCL_MEMCPY)
			st->bytes = bytes;
	} else {
		st->kind = recv[i < 2 ? i : 1];
	}
}

/**
 * vnpu_hccl_step() - sub-task @i of a collective on rank @rank
 * @op, @nranks: as vnpu_hccl_steps().
 * @rank: this rank, below @nranks.
 * @peer: a Send's or Recv's peer (struct vnpu_task.comm_peer); else unused.
 * @bytes: the message per rank (the task's bytes).
 * @product: enum vnpu_product_id: the links (vnpu_hccl_link_ranks()).
 * @i: below vnpu_hccl_steps(@op, @nranks).
 * @st: out.
 */
static inline void vnpu_hccl_step(__u32 op, __u32 nranks, __u32 rank, __u32 peer, __u64 bytes,
				  __u32 product, __u32 i, struct vnpu_hccl_step *st)
{
	__u32 n = nranks < 2 ? 2 : nranks, ring = vnpu_hccl_ring_steps(op, n);
	__u32 prev = (rank + n - 1) % n, next = (rank + 1) % n;
	__u64 chunk = (bytes + n - 1) / n;
	__u32 last = 4 + 3 * ring - 1, k;

	if (vnpu_hccl_p2p(op)) {
		vnpu_hccl_p2p_step(op, peer, bytes, vnpu_hccl_link_ranks(product, rank, peer), i,
				   st);
		return;
	}
	*st = (struct vnpu_hccl_step){ .kind = VNPU_HCCL_MEMCPY, .remote = rank,
				       .link = VNPU_LINK_ON_CHIP, .bytes = bytes };
	if (i == 0) {
		if (op == VNPU_HCCL_OP_ALLGATHER)
			st->bytes = chunk;
		return;
	}
	if (i == last) {
		if (op == VNPU_HCCL_OP_REDUCESCATTER)
			st->bytes = chunk;
		return;
	}
	/* the ring steps, then the final Record, Wait: phases of three from 1 */
	k = (i - 1) % 3;
	st->bytes = 0;
	if (k == 0) {
		st->kind = VNPU_HCCL_NOTIFY_RECORD;
		st->remote = next;
		st->link = vnpu_hccl_link_ranks(product, rank, next);
		return;
	}
	st->remote = prev;
	st->link = vnpu_hccl_link_ranks(product, rank, prev);
	if (k == 1) {
		st->kind = VNPU_HCCL_NOTIFY_WAIT;
		return;
	}
	switch (op) {
	case VNPU_HCCL_OP_ALLGATHER:
		st->bytes = chunk;
		break;
	case VNPU_HCCL_OP_BROADCAST:
		st->bytes = (bytes + n - 2) / (n - 1);
		break;
	case VNPU_HCCL_OP_REDUCESCATTER:
		st->kind = VNPU_HCCL_REDUCE_INLINE;
		st->reduce = 1;
		st->bytes = chunk;
		break;
	default:
		/* AllReduce: reduce-scatter first, then all-gather */
		if ((i - 1) / 3 < n - 1) {
			st->kind = VNPU_HCCL_REDUCE_INLINE;
			st->reduce = 1;
		}
		st->bytes = chunk;
		break;
	}
}

#endif /* _UAPI_VNPU_HCCL_H */
