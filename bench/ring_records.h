/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's record formats as the ring benchmarks' BPF programs write
 * them (uapi/vnpu_ascend.h, mirrored here because a BPF object cannot
 * include uapi headers beside vmlinux.h): an ACSQ log (64 B; a task's start
 * and end go in one reservation, as vnpu_hwrec.c reserves them) and the
 * context PMU record (128 B). ring_bench.c and ring_transport.c check the
 * sizes against uapi/vnpu_ascend.h, and well_formed() what a reader gets.
 */
#ifndef RING_RECORDS_H
#define RING_RECORDS_H

#define RT_ACSQ_SIZE 64 /* struct vnpu_acsq_log */
#define RT_PMU_SIZE 128 /* struct vnpu_ffts_pmu */
#define RT_STARS_MAGIC 0x6BD3 /* VNPU_STARS_MAGIC */
#define RT_FUNC_ACSQ_END 0x01
#define RT_FUNC_CONTEXT_PMU 0x28

struct rt_acsq {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 syscnt;
	__u16 reserved0;
	__u16 acc_acsq;
	__u32 reserved[11];
};

struct rt_pmu {
	__u16 word0;
	__u16 magic;
	__u16 stream_id;
	__u16 task_id;
	__u64 reserved0;
	__u16 subtask;
	__u16 subtask_id;
	__u16 ffts;
	__u16 reserved1;
	__u64 reserved2;
	__u64 total_cycle;
	__u64 reserved3;
	__u64 pmu[8];
	__u64 start_syscnt;
	__u64 end_syscnt;
};

#endif /* RING_RECORDS_H */
