// SPDX-License-Identifier: GPL-2.0
/*
 * ring_bench, the BPF baseline: on the vnpu module's vnpu_task_end
 * tracepoint (run by the device's executor, under the device lock, as the
 * vnpu ring's own records are written), reserve, fill and submit into a
 * BPF ring buffer the records the vnpu ring would carry for the task: the
 * same count and the same sizes, zeroed then filled like the module's.
 * Records that do not fit are counted in @dropped (BPF ring buffers lose
 * silently; the program has to count).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "ring_bench.h"

/* 0: L0 records (TASK_START, TASK_END); 1: L1 (+ OP_INFO, PMU). Set before load. */
const volatile int level;
/*
 * 0: the BPF ring buffer's own wakeups (when the consumer has caught up).
 * Else the vnpu ring's policy: wake the consumer only once this many bytes
 * are unread (BPF_RB_NO_WAKEUP / BPF_RB_FORCE_WAKEUP).
 */
const volatile __u64 wakeup_bytes;

/* max_entries is set by the user side before load */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
} rb SEC(".maps");

/* One producer (the device lock serializes the executor): plain counters. */
__u64 seq;
__u64 produced;
__u64 dropped;

static __always_inline __u64 submit_flags(__u64 size)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) + size >= wakeup_bytes
		       ? BPF_RB_FORCE_WAKEUP
		       : BPF_RB_NO_WAKEUP;
}

static __always_inline void put_task(__u16 type, __u64 id, __u32 stream, __u32 ttype, __u64 ts)
{
	struct rb_task *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	produced++;
	if (!r) {
		dropped++;
		return;
	}
	r->hdr.type = type;
	r->hdr.size = sizeof(*r);
	r->hdr.flags = 0;
	r->hdr.seq = seq++;
	r->task_id = id;
	r->stream_id = stream;
	r->task_type = ttype;
	r->timestamp = ts;
	bpf_ringbuf_submit(r, submit_flags(sizeof(*r)));
}

static __always_inline void put_op_info(__u64 id, __u32 stream, __u32 ttype, const char *op_type)
{
	struct rb_op_info *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	produced++;
	if (!r) {
		dropped++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->hdr.type = 4;
	r->hdr.size = sizeof(*r);
	r->hdr.seq = seq++;
	r->task_id = id;
	r->stream_id = stream;
	r->task_type = ttype;
	r->block_num = 1;
	r->n_tensors = 3;
	bpf_probe_read_kernel_str(r->op_name, sizeof(r->op_type), op_type);
	bpf_probe_read_kernel_str(r->op_type, sizeof(r->op_type), op_type);
	bpf_ringbuf_submit(r, submit_flags(sizeof(*r)));
}

static __always_inline void put_pmu(__u64 id, __u32 stream, __u64 dur_ns)
{
	struct rb_pmu *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	produced++;
	if (!r) {
		dropped++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->hdr.type = 5;
	r->hdr.size = sizeof(*r);
	r->hdr.seq = seq++;
	r->task_id = id;
	r->stream_id = stream;
	r->aiv_total_cycles = dur_ns;
	r->aiv_blocks = 1;
	for (int i = 0; i < 8; i++)
		r->aiv_events[i] = dur_ns >> i;
	bpf_ringbuf_submit(r, submit_flags(sizeof(*r)));
}

static __always_inline int on_end(__u64 id, __u32 stream, __u32 ttype, const char *op_type,
				  __u64 start, __u64 end, __u64 dur_ns)
{
	put_task(2, id, stream, ttype, start);
	if (level >= 1) {
		put_op_info(id, stream, ttype, op_type);
		put_pmu(id, stream, dur_ns);
	}
	put_task(3, id, stream, ttype, end);
	return 0;
}

// cppcheck-suppress unknownMacro
SEC("tp_btf/vnpu_task_end")
int BPF_PROG(end_btf, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(task_id, stream, task_type, op_type, start, end, dur_ns);
}

SEC("raw_tp/vnpu_task_end")
int BPF_PROG(end_raw, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(task_id, stream, task_type, op_type, start, end, dur_ns);
}

char LICENSE[] SEC("license") = "GPL";
