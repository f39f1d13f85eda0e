// SPDX-License-Identifier: GPL-2.0
/*
 * ring_bench, the BPF baseline: on the vnpu module's vnpu_task_end
 * tracepoint (run by the device's executor, under the device lock, as the
 * device's own records are written), reserve, fill and submit into a BPF
 * ring buffer the records a channel session carries for the task
 * (ring_records.h): its ACSQ start and end logs in one reservation and, at
 * L1, its context PMU record, every byte written.
 * Records that do not fit are counted in @dropped (BPF ring buffers lose
 * silently; the program has to count).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "ring_bench.h"

/* 0: L0 records (the ACSQ pair); 1: L1 (+ the context PMU record). Set before load. */
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
__u64 produced;
__u64 dropped;
/* the channels' 4-bit counters, as the device keeps them */
__u32 acsq_cnt;
__u32 pmu_cnt;

static __always_inline __u64 submit_flags(__u64 size)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) + size >= wakeup_bytes
		       ? BPF_RB_FORCE_WAKEUP
		       : BPF_RB_NO_WAKEUP;
}

/* The task's start and end logs, in one reservation (vnpu_hwrec_acsq()). */
static __always_inline void put_acsq(__u64 id, __u32 stream, __u64 start, __u64 end)
{
	struct rt_acsq *r = bpf_ringbuf_reserve(&rb, 2 * sizeof(*r), 0);
	__u32 cnt = acsq_cnt;

	acsq_cnt += 2;
	produced += 2;
	if (!r) {
		dropped += 2;
		return;
	}
	__builtin_memset(r, 0, 2 * sizeof(*r));
	r[0].word0 = (__u16)((cnt & 0xf) << 6);
	r[0].magic = RT_STARS_MAGIC;
	r[0].stream_id = (__u16)stream;
	r[0].task_id = (__u16)id;
	r[0].syscnt = start;
	r[1].word0 = (__u16)(RT_FUNC_ACSQ_END | ((cnt + 1) & 0xf) << 6);
	r[1].magic = RT_STARS_MAGIC;
	r[1].stream_id = (__u16)stream;
	r[1].task_id = (__u16)id;
	r[1].syscnt = end;
	bpf_ringbuf_submit(r, submit_flags(2 * sizeof(*r)));
}

/* The context PMU record (vnpu_hwrec_pmu()): cycles and 8 counters. */
static __always_inline void put_pmu(__u64 id, __u32 stream, __u64 start, __u64 end, __u64 dur_ns)
{
	struct rt_pmu *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	__u32 cnt = pmu_cnt++;

	produced++;
	if (!r) {
		dropped++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->word0 = (__u16)(RT_FUNC_CONTEXT_PMU | (cnt & 0xf) << 6);
	r->magic = RT_STARS_MAGIC;
	r->stream_id = (__u16)stream;
	r->task_id = (__u16)id;
	r->subtask_id = 0xffff;
	r->ffts = 1 << 13; /* an AI Vector Core task: the bench's Add */
	r->total_cycle = dur_ns;
	for (int i = 0; i < 8; i++)
		r->pmu[i] = dur_ns >> i;
	r->start_syscnt = start;
	r->end_syscnt = end;
	bpf_ringbuf_submit(r, submit_flags(sizeof(*r)));
}

static __always_inline int on_end(__u64 id, __u32 stream, __u64 start, __u64 end, __u64 dur_ns)
{
	put_acsq(id, stream, start, end);
	if (level >= 1)
		put_pmu(id, stream, start, end, dur_ns);
	return 0;
}

// cppcheck-suppress unknownMacro
SEC("tp_btf/vnpu_task_end")
int BPF_PROG(end_btf, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(task_id, stream, start, end, dur_ns);
}

SEC("raw_tp/vnpu_task_end")
int BPF_PROG(end_raw, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(task_id, stream, start, end, dur_ns);
}

char LICENSE[] SEC("license") = "GPL";
