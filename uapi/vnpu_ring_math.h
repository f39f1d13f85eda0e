/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: ring position arithmetic, pure, shared by the kernel's producer
 * (kmod/vnpu_ring.c), libnpuprof's consumer and the tests
 * (tests/host/test_ring_math.c), as liburing's ring helpers live in its
 * header: the uapi is the one place both sides take it from.
 *
 * Positions are free-running u64 byte counters; differences are taken
 * with unsigned wrap-around, so the arithmetic holds across 2^64 too.
 */
#ifndef _VNPU_RING_MATH_H
#define _VNPU_RING_MATH_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <linux/types.h>
#endif

/* Bytes written and not yet consumed. */
static inline __u64 vnpu_ring_used(__u64 cons, __u64 prod)
{
	return prod - cons;
}

/* Offset of @pos in a data area of @size bytes (a power of two). */
static inline __u64 vnpu_ring_offset(__u64 pos, __u64 size)
{
	return pos & (size - 1);
}

/*
 * Is a consumer position read from the shared page plausible: not behind
 * the last valid one (@seen) and not ahead of the producer (@prod)?
 */
static inline bool vnpu_ring_cons_valid(__u64 seen, __u64 cons, __u64 prod)
{
	return cons - seen <= prod - seen;
}

/* Can @need more bytes be written into a ring of @size bytes? */
static inline bool vnpu_ring_fits(__u64 size, __u64 cons, __u64 prod, __u64 need)
{
	__u64 used = vnpu_ring_used(cons, prod);

	return used <= size && size - used >= need;
}

#endif /* _VNPU_RING_MATH_H */
