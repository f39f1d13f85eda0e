/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_transport: what ring_transport.bpf.c and ring_transport.c share.
 * The BPF side writes records of exactly the device's formats
 * (uapi/vnpu_ascend.h; mirrored here because a BPF object cannot include
 * uapi headers beside vmlinux.h): per task, its ACSQ start and end logs in
 * one reservation (2 x 64 B, as vnpu_hwrec.c reserves them), and from L1
 * on its context PMU record (128 B). ring_transport.c checks the sizes
 * against uapi/vnpu_ascend.h.
 */
#ifndef RING_TRANSPORT_H
#define RING_TRANSPORT_H

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
