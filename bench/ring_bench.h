/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring_bench: what ring_bench.bpf.c and ring_bench.c share. The BPF side
 * copies records of exactly the vnpu ring's sizes for the bench task (an
 * Add with two inputs and one output, one dim each), so both transports
 * move the same bytes per task: L0 TASK_START + TASK_END (2 x 40 B), L1
 * + OP_INFO (216 B) + PMU (184 B). ring_bench.c checks the sizes against
 * uapi/vnpu_prof.h and against the records the device really writes.
 */
#ifndef RING_BENCH_H
#define RING_BENCH_H

#define RB_TASK_SIZE 40 /* struct vnpu_rec_task */
#define RB_OPINFO_SIZE 216 /* struct vnpu_rec_op_info + 3 x (tensor + 1 dim) */
#define RB_PMU_SIZE 184 /* struct vnpu_rec_pmu */

/* The header and the task record, as struct vnpu_rec_hdr / vnpu_rec_task. */
struct rb_hdr {
	__u16 type;
	__u16 size;
	__u32 flags;
	__u64 seq;
};

struct rb_task {
	struct rb_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 task_type;
	__u64 timestamp;
};

/* OP_INFO's fixed part (168 B) and its three tensors (16 B each). */
struct rb_op_info {
	struct rb_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 task_type;
	__u32 block_num;
	__u32 mix_block_num;
	__u32 op_flags;
	__u32 model_id;
	__u32 n_tensors;
	__u32 reserved;
	__u64 flops;
	__u64 bytes;
	char op_name[64];
	char op_type[32];
	__u64 tensors[6];
};

/* PMU: header, ids, cycles, blocks, 2 x 8 counters. */
struct rb_pmu {
	struct rb_hdr hdr;
	__u64 task_id;
	__u32 stream_id;
	__u32 reserved;
	__u64 aic_total_cycles;
	__u64 aiv_total_cycles;
	__u32 aic_blocks;
	__u32 aiv_blocks;
	__u64 aic_events[8];
	__u64 aiv_events[8];
};

#endif /* RING_BENCH_H */
