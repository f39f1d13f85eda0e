/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof hostrec/: the host records CANN's runtime writes (api_event,
 * node_basic_info, task_track...), made from the runtime's calls and
 * buffered in the host sink while a collector runs (host_records.c makes
 * them, host_sink.c buffers and writes them).
 */
#ifndef NPH_HOSTREC_H
#define NPH_HOSTREC_H

#include "core/core.h"
#include "format/format.h"

#define NPH_NO_HW_STREAM 0xffff

/*
 * What the host records of a collective say about its communicator
 * (comm.c): set when a handle is made, cleared when it is destroyed.
 * @group is HCCL's group name, the same on every rank, in the form of the
 * identifier HcclGetRootInfo() gives a group ("<ip>%<netif>_<port>_<device>_
 * <timestamp us>"): the loopback and a hash of the key in the timestamp's
 * place (not the key, which would let a reader of the profile join the
 * group). A profile shows it as a real run's would, naming no simulator.
 */
#define NPH_MAX_COMMS 16
struct nph_comm_info {
	uint32_t nranks;
	uint32_t rank;
	char group[48];
};

/**
 * struct nph_device - a device as its host records describe it; the
 * runtime keeps one in each open device and hands it to the records
 * @id: N of /dev/vnpuN.
 * @info: VNPU_IOC_GET_INFO at open.
 * @hw_stream: per stream of the open file (info.max_streams of them), its
 *             device-wide id (the one the device's records and task_track
 *             name), NPH_NO_HW_STREAM if none.
 * @comms: per communicator id - 1, what its collectives' records say.
 */
struct nph_device {
	unsigned int id;
	struct vnpu_info info;
	uint16_t *hw_stream;
	struct nph_comm_info comms[NPH_MAX_COMMS];
};

/*
 * host_records.c: the runtime's host records, written while a collector runs.
 * nph_api_record(): call @api, from @start_ns to now; its ioctl ran
 * [@rt_start, @rt_end] (0, 0: none), the Runtime event at L2.
 * nph_launch_record(): @n tasks queued with ids @ids, the call started
 * at @start_ns and the device stamped the batch at @submit_ns (0: unknown,
 * now is used): the tasks' records go before it, as no task can start
 * before its submission. A @start_ns of 0 (nph_now_ns() when nothing
 * recorded at the call's start) records nothing: a session that began
 * during the call has no start for it.
 */
bool nph_recording(void);
void nph_api_record(enum npf_api_id api, uint64_t start_ns, uint64_t rt_start, uint64_t rt_end);
void nph_launch_record(const struct nph_device *dev, const struct vnpu_task *tasks, unsigned int n,
		       const uint64_t *ids, uint64_t start_ns, uint64_t submit_ns);

/*
 * The time for a host record, or 0 when no session records: the hot calls
 * (launch, sync) read no clock then (the dev VM's clock is an emulated
 * HPET: 6% of a workload's time with profiling off went to these reads).
 */
static inline uint64_t nph_now_ns(void)
{
	return nph_recording() ? npx_now_ns() : 0;
}

/*
 * The host sink: where the runtime's host records go while a collector
 * runs. At most one per process (the Profiler's one-at-a-time rule),
 * behind one process-wide lock that outlives every sink, so that a runtime call on another thread
 * finds the sink gone instead of locking one that is being freed.
 *
 * A runtime call appends its records to in-memory buffers under the lock
 * (never a write() under it); the collector's reader thread, or its end,
 * swaps the buffers out and writes them to host/data/ without the lock.
 *
 * The records are what CANN's runtime writes (cann_format.h): api_event,
 * node_basic_info, tensor_info, context_id_info, task_track, hccl_op_info,
 * hccl_info, hash_dic and type_info_dic, in slices as msprof's
 * (docs/output.md).
 */

struct nph_sink;

/**
 * nph_sink_create() - a sink writing into @data_dir (host/data)
 * @data_dir: the directory, which exists.
 * @level: enum vnpu_prof_level: what the CANN records include.
 * @sp: out: the sink.
 * @err: filled on failure.
 */
int nph_sink_create(const char *data_dir, uint32_t level, struct nph_sink **sp,
		    struct npuprof_error *err);

/*
 * Make @s the process's sink; @wake(@arg) is called, under the lock, when
 * enough is buffered that the writer should run (an eventfd write).
 */
void nph_sink_install(struct nph_sink *s, void (*wake)(void *), void *arg);

/* No runtime call reaches @s after this returns. */
void nph_sink_uninstall(struct nph_sink *s);

/* Write out what is buffered; one thread at a time. */
void nph_sink_flush(struct nph_sink *s);

/*
 * Flush, write the counts per kind into @loss_dir's loss report (whose
 * room npf_reserve_ends() made; NULL: none), report a write failure or
 * records not written (into @err when @ret is 0, else to stderr), close
 * the files and free @s. Returns @ret, or the first failure.
 */
int nph_sink_close(struct nph_sink *s, const char *loss_dir, int ret, struct npuprof_error *err);

/* In a child of fork(): free @s without a write (its files are the parent's). */
void nph_sink_forget(struct nph_sink *s);

#endif /* NPH_HOSTREC_H */
