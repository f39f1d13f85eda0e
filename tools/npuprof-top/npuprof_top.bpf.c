// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof-top, kernel side: aggregates the vnpu module's vnpu_task_submit
 * and vnpu_task_end tracepoints into per op type, per stream and per device
 * maps. Each handler comes twice: tp_btf (typed arguments, needs the
 * module's BTF) and raw_tp (no BTF needed); the user side loads one set.
 * The tracepoints' arguments are scalars and the op type string only, so
 * no module structure layout is needed here.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "npuprof_top.h"

#ifndef EEXIST
#define EEXIST 17
#endif

/* The device to watch, -1 for all (set before load). */
const volatile int targ_dev = -1;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_OPS);
	__type(key, struct op_key);
	__type(value, struct op_stat);
} ops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_STREAMS);
	__type(key, struct stream_key);
	__type(value, struct stream_stat);
} streams SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_DEVS);
	__type(key, __u32);
	__type(value, struct dev_stat);
} devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LOST_NR);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline void count_lost(__u32 reason)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &reason);

	if (n)
		(*n)++;
}

static __always_inline __u32 log2_u32(__u32 v)
{
	__u32 r, shift;

	r = (v > 0xffff) << 4;
	v >>= r;
	shift = (v > 0xff) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xf) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_u32(hi) + 32 : log2_u32(v);
}

static __always_inline bool skip_dev(__u32 dev)
{
	return targ_dev >= 0 && dev != (__u32)targ_dev;
}

static __always_inline struct stream_stat *stream_get(__u32 dev, __u32 stream)
{
	struct stream_key key = { .dev = dev, .stream = stream };
	struct stream_stat zero = {}, *st;
	long err;

	st = bpf_map_lookup_elem(&streams, &key);
	if (st)
		return st;
	err = bpf_map_update_elem(&streams, &key, &zero, BPF_NOEXIST);
	if (err && err != -EEXIST) {
		count_lost(LOST_STREAM_MAP);
		return NULL;
	}
	return bpf_map_lookup_elem(&streams, &key);
}

static __always_inline int on_submit(__u32 dev, __u32 stream, __u32 qdepth)
{
	struct stream_stat *st;

	if (skip_dev(dev))
		return 0;
	st = stream_get(dev, stream);
	if (!st)
		return 0;
	/* one device's events are serialized by its lock */
	st->submitted++;
	st->depth = qdepth;
	if (qdepth > st->peak)
		st->peak = qdepth;
	return 0;
}

static __always_inline void op_account(const char *op_type, __u64 dur_ns)
{
	struct op_stat zero = {}, *os;
	struct op_key key = {};
	__u32 slot;
	long err;

	bpf_probe_read_kernel_str(key.op_type, sizeof(key.op_type), op_type);
	os = bpf_map_lookup_elem(&ops, &key);
	if (!os) {
		err = bpf_map_update_elem(&ops, &key, &zero, BPF_NOEXIST);
		if (err && err != -EEXIST) {
			count_lost(LOST_OP_MAP);
			return;
		}
		os = bpf_map_lookup_elem(&ops, &key);
		if (!os)
			return;
	}
	slot = log2_u64(dur_ns);
	if (slot >= MAX_SLOTS) {
		count_lost(LOST_HIST_SLOT);
		slot = MAX_SLOTS - 1;
	}
	/* one op type can end on several devices at once */
	__sync_fetch_and_add(&os->count, 1);
	__sync_fetch_and_add(&os->total_ns, dur_ns);
	__sync_fetch_and_add(&os->slots[slot], 1);
}

/* Add the part of [start, end) not yet counted to the device's busy time. */
static __always_inline void dev_account(__u32 dev, __u64 start, __u64 end, __u64 dur_ns)
{
	struct dev_stat *ds;
	__u64 from, ticks;

	if (dev >= MAX_DEVS)
		return;
	ds = bpf_map_lookup_elem(&devs, &dev);
	if (!ds)
		return;
	ds->tasks++;
	if (end <= start)
		return;
	from = start > ds->busy_until ? start : ds->busy_until;
	if (end <= from)
		return;
	ticks = end - from;
	ds->busy_ns += ticks == end - start ? dur_ns : ticks * dur_ns / (end - start);
	ds->busy_until = end;
}

static __always_inline int on_end(__u32 dev, __u32 stream, const char *op_type, __u64 start,
				  __u64 end, __u64 dur_ns, __u32 qdepth)
{
	struct stream_stat *st;

	if (skip_dev(dev))
		return 0;
	op_account(op_type, dur_ns);
	st = stream_get(dev, stream);
	if (st) {
		st->done++;
		st->depth = qdepth;
	}
	dev_account(dev, start, end, dur_ns);
	return 0;
}

/*
 * cppcheck cannot parse libbpf's SEC()/BPF_PROG() (typeof, no bpf headers on
 * its include path): it stops at the first program, with unknownMacro.
 */
// cppcheck-suppress unknownMacro
SEC("tp_btf/vnpu_task_submit")
int BPF_PROG(submit_btf, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type,
	     const char *op_type, __u32 block_num, __u32 qdepth)
{
	return on_submit(dev, stream, qdepth);
}

SEC("raw_tp/vnpu_task_submit")
int BPF_PROG(submit_raw, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type,
	     const char *op_type, __u32 block_num, __u32 qdepth)
{
	return on_submit(dev, stream, qdepth);
}

SEC("tp_btf/vnpu_task_end")
int BPF_PROG(end_btf, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(dev, stream, op_type, start, end, dur_ns, qdepth);
}

SEC("raw_tp/vnpu_task_end")
int BPF_PROG(end_raw, __u32 dev, __u64 task_id, __u32 stream, __u32 task_type, const char *op_type,
	     __u64 start, __u64 end, __u64 dur_ns, __u32 qdepth)
{
	return on_end(dev, stream, op_type, start, end, dur_ns, qdepth);
}

char LICENSE[] SEC("license") = "GPL";
