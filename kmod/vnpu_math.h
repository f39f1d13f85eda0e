/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: the integer arithmetic of the product, cost and PMU models. No
 * floating point; every multiply-then-divide goes through vnpu_mul_div(),
 * which cannot overflow and saturates instead. Shared with the host unit
 * test, so no kernel helper (mul_u64_u32_div() and the like) is used.
 */
#ifndef _VNPU_MATH_H
#define _VNPU_MATH_H

#include "vnpu_product.h"

#define VNPU_U64_MAX (~0ULL)
#define VNPU_PPM 1000000U

static inline u64 vnpu_sat_add(u64 a, u64 b)
{
	return a + b < a ? VNPU_U64_MAX : a + b;
}

/*
 * a * b / c, rounded down or up, without overflow: with a = q * c + r,
 * r * b < c * b < 2^64. Saturates when the result does not fit.
 */
static inline u64 vnpu_mul_div(u64 a, u32 b, u32 c, bool up)
{
	u64 q, r, lo;

	if (!c)
		return VNPU_U64_MAX;
	q = a / c;
	r = a % c;
	if (q && b > VNPU_U64_MAX / q)
		return VNPU_U64_MAX;
	lo = r * b;
	lo = up ? (lo + c - 1) / c : lo / c;
	return vnpu_sat_add(q * b, lo);
}

static inline u64 vnpu_div_up(u64 a, u64 b)
{
	return b ? a / b + (a % b != 0) : 0;
}

static inline u64 vnpu_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline u64 vnpu_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

#endif /* _VNPU_MATH_H */
