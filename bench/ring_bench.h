/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_bench: what ring_bench.bpf.c and ring_bench.c share: the records of
 * a channel session (ring_records.h), for the bench task (an Add, an AI
 * Vector Core task on A2): L0 its ACSQ start and end logs (2 x 64 B), L1
 * also its context PMU record (128 B).
 */
#ifndef RING_BENCH_H
#define RING_BENCH_H

#include "ring_records.h"

#endif /* RING_BENCH_H */
