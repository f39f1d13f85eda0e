/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_transport: what ring_transport.bpf.c and ring_transport.c share
 * besides the records (ring_records.h): per task, its ACSQ start and end
 * logs in one reservation, and from L1 on its context PMU record.
 */
#ifndef RING_TRANSPORT_H
#define RING_TRANSPORT_H

#include "ring_records.h"

/*
 * The batch of one bpf_prog_test_run of the producer (its .bss): @tasks tasks from
 * id @first_id, at @level; @wakeup_bytes 0 for the BPF ring buffer's own
 * wakeups, else the vnpu ring's policy (wake only at that many bytes unread).
 */
struct rt_args {
	__u32 tasks;
	__u32 level;
	__u64 first_id;
	__u64 wakeup_bytes;
};

#endif /* RING_TRANSPORT_H */
