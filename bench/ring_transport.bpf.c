// SPDX-License-Identifier: GPL-2.0
/*
 * ring_transport, the BPF baseline: a BPF_PROG_TYPE_SYSCALL program, run
 * by bpf_prog_test_run() once per batch, that writes the records of
 * args.tasks tasks into a BPF ring buffer with bpf_loop(), as the device
 * writes them into its channels from debugfs bench_tasks
 * (vnpu_hwrec_bench()): the same records, the same sizes, the same
 * reservations per task, every byte written. Records that do not fit are
 * counted in @dropped: a BPF ring buffer loses silently, the program has
 * to count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "ring_transport.h"

/* max_entries is set by the user side before load */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
} rb SEC(".maps");

/* One producer at a time (the user side runs one batch at a time). */
__u64 produced;
__u64 dropped;
/* the batch to write: set by the user side before each run */
struct rt_args args;

static __always_inline __u64 submit_flags(const struct rt_args *a, __u64 size)
{
	if (!a->wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) + size >= a->wakeup_bytes
		       ? BPF_RB_FORCE_WAKEUP
		       : BPF_RB_NO_WAKEUP;
}

static long one_task(__u32 i, void *ctx)
{
	const struct rt_args *a = &args;
	__u64 id = a->first_id + i, t = id * 1000;
	struct rt_acsq *s;
	struct rt_pmu *p;

	produced += 2;
	s = bpf_ringbuf_reserve(&rb, 2 * sizeof(*s), 0);
	if (s) {
		__builtin_memset(s, 0, 2 * sizeof(*s));
		s[0].word0 = (__u16)((i & 0xf) << 6);
		s[0].magic = RT_STARS_MAGIC;
		s[0].stream_id = 2047;
		s[0].task_id = (__u16)id;
		s[0].syscnt = t;
		s[1].word0 = (__u16)(RT_FUNC_ACSQ_END | ((i + 1) & 0xf) << 6);
		s[1].magic = RT_STARS_MAGIC;
		s[1].stream_id = 2047;
		s[1].task_id = (__u16)id;
		s[1].syscnt = t + 900;
		bpf_ringbuf_submit(s, submit_flags(a, 2 * sizeof(*s)));
	} else {
		dropped += 2;
	}
	if (!a->level)
		return 0;
	produced++;
	p = bpf_ringbuf_reserve(&rb, sizeof(*p), 0);
	if (!p) {
		dropped++;
		return 0;
	}
	__builtin_memset(p, 0, sizeof(*p));
	p->word0 = (__u16)(RT_FUNC_CONTEXT_PMU | (i & 0xf) << 6);
	p->magic = RT_STARS_MAGIC;
	p->stream_id = 2047;
	p->task_id = (__u16)id;
	p->subtask_id = 0xffff;
	p->total_cycle = 1800;
	p->start_syscnt = t;
	p->end_syscnt = t + 900;
	bpf_ringbuf_submit(p, submit_flags(a, sizeof(*p)));
	return 0;
}

/* cppcheck cannot parse libbpf's SEC() (no bpf headers on its path) */
// cppcheck-suppress unknownMacro
SEC("syscall")
int produce(void *ctx)
{
	/* the tasks it ran: the user side checks them */
	return bpf_loop(args.tasks, one_task, NULL, 0);
}

char LICENSE[] SEC("license") = "GPL";
