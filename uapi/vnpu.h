/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: virtual NPU character devices (/dev/vnpuN), user API.
 *
 * This header is the contract between vnpu.ko and userspace (libnpuprof,
 * tools, tests). It is included unchanged by both sides.
 *
 * Extensibility rules, for every ioctl structure:
 *  - The first member is @size, the size of the structure as the caller
 *    knows it. The kernel accepts any size from the first published version
 *    (VNPU_*_SIZE_VER0) up; bytes the kernel does not know must be zero
 *    (-E2BIG otherwise), bytes the caller did not pass read as zero.
 *  - @flags and every reserved member must be zero on input (-EINVAL
 *    otherwise). Output members are ignored on input, so a structure can
 *    be passed again as it came back (a second SYNC or PROF_START).
 *  - Members are only ever appended; a new version gets a new SIZE_VER.
 *  - Output structures are written up to min(@size, kernel size) and @size
 *    comes back as the kernel's size; the kernel zeroes every byte it
 *    writes that has no meaning.
 *  - Arrays passed by pointer carry their element size (e.g. @task_size of
 *    struct vnpu_submit) under the same rules, element by element.
 *  - Ioctls are dispatched on their whole number (anything else is
 *    -ENOTTY); the size bits are those of this header's structures, and
 *    the size the caller knows travels in @size.
 *  - Limits (streams, queued tasks, batch and ring sizes) are the device's,
 *    reported by VNPU_IOC_GET_INFO, not constants of this header.
 *
 * See docs/uapi.md for the ioctl table and the meaning of every field.
 */
#ifndef _UAPI_VNPU_H
#define _UAPI_VNPU_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/* The user API version reported by VNPU_IOC_GET_INFO: major << 16 | minor. */
#define VNPU_UAPI_VERSION_MAJOR 0
#define VNPU_UAPI_VERSION_MINOR 11
#define VNPU_UAPI_VERSION ((VNPU_UAPI_VERSION_MAJOR << 16) | VNPU_UAPI_VERSION_MINOR)

#define VNPU_MAX_DEVICES 16	  /* bits of a COMMUNICATION task's mask */
#define VNPU_MAX_HW_STREAMS 2048 /* device-wide stream ids: 11 bits in records */
#define VNPU_OP_NAME_LEN 64	  /* including the NUL */
#define VNPU_OP_TYPE_LEN 32	  /* including the NUL */
#define VNPU_NAME_LEN 32	  /* product and chip names, including the NUL */
#define VNPU_MAX_TENSORS 8	  /* inputs + outputs of one task */
#define VNPU_MAX_DIMS 8
#define VNPU_TASK_MAX_FLOPS _BITULL(50)
#define VNPU_TASK_MAX_BYTES _BITULL(40)

/**
 * enum vnpu_product_id - the products a device can model (module parameter
 * "product", by key: a2, a3, 350, 910, 200i-a2, 310p)
 */
enum vnpu_product_id {
	VNPU_PRODUCT_A2 = 0,	    /* Atlas A2 training, Ascend910B, chip id 5 */
	VNPU_PRODUCT_A3 = 1,	    /* Atlas A3, Ascend910B arch, chip id 5 */
	VNPU_PRODUCT_350 = 2,	    /* Atlas 350, Ascend950, chip id 15 */
	VNPU_PRODUCT_910 = 3,	    /* Atlas training series, Ascend910A, chip id 1 */
	VNPU_PRODUCT_200I_A2 = 4,   /* Atlas 200I/500 A2, Ascend310B, chip id 7 */
	VNPU_PRODUCT_310P = 5,	    /* Atlas inference series, Ascend310P, chip id 4 */
	VNPU_PRODUCT_COUNT
};

/* struct vnpu_info.caps */
#define VNPU_CAP_SPLIT_AIC_AIV	 _BITUL(0) /* aic_/aiv_ column prefixes */
#define VNPU_CAP_SCOPED_PROFILING _BITUL(1) /* Profiler scope supported */
#define VNPU_CAP_STARS		 _BITUL(2) /* STARS/FFTS: Context ID, Mix Block; STARS records */

/**
 * enum vnpu_metric_group - AI Core metric groups (aic_metrics); the values
 * are the ACL aclprofAicoreMetrics ones. struct vnpu_info.metric_groups is
 * a mask of (1 << group) of the groups the product supports.
 */
enum vnpu_metric_group {
	VNPU_METRIC_ARITHMETIC_UTILIZATION = 0,
	VNPU_METRIC_PIPE_UTILIZATION = 1,
	VNPU_METRIC_MEMORY = 2,
	VNPU_METRIC_MEMORY_L0 = 3,
	VNPU_METRIC_RESOURCE_CONFLICT_RATIO = 4,
	VNPU_METRIC_MEMORY_UB = 5,
	VNPU_METRIC_L2_CACHE = 6,
	VNPU_METRIC_PIPE_EXECUTE_UTILIZATION = 7,
	VNPU_METRIC_MEMORY_ACCESS = 8,
	VNPU_METRIC_COUNT,
	VNPU_METRIC_NONE = 0xff,
};

/**
 * struct vnpu_info - device and product facts (VNPU_IOC_GET_INFO)
 * @size: in: sizeof(struct vnpu_info) as the caller knows it;
 *        out: the size this kernel knows (may be larger: more to ask for).
 * @flags: in: must be zero.
 * @uapi_version: out: VNPU_UAPI_VERSION of the running module.
 * @dev_id: out: the N of /dev/vnpuN.
 * @dev_count: out: number of vnpu devices the module created.
 * @product: out: enum vnpu_product_id.
 * @product_name: out: e.g. "Atlas A2 training", NUL-terminated.
 * @chip_name: out: e.g. "Ascend910B", NUL-terminated.
 * @chip_id: out: msprof's platform_version (5 for 910B).
 * @npu_arch: out: aclplatformNpuArch (2201 for A2/A3).
 * @aic_num: out: AI Cores (cube cores on products that split AIC/AIV).
 * @aiv_num: out: AI Vector Cores (0 where there are none).
 * @aicpu_num: out: AI CPUs.
 * @caps: out: VNPU_CAP_*.
 * @aic_freq_khz: out: AI Core clock, kHz.
 * @sys_cnt_freq_khz: out: system counter (device timestamps), kHz.
 * @hbm_bw_mbps: out: HBM (main memory) bandwidth, MB/s (10^6 B/s).
 * @link_bw_mbps: out: inter-device link bandwidth per direction, MB/s.
 * @metric_groups: out: mask of 1 << enum vnpu_metric_group supported.
 * @reserved0: zero.
 * @cube_flops: out: peak cube throughput of the device, FLOP/s (fp16).
 * @vector_flops: out: peak vector throughput of the device, FLOP/s (fp16).
 * @reserved: must be zero on input; zero on output.
 *
 * The device's limits (VNPU_INFO_SIZE_VER1 on):
 * @max_streams: out: streams per open file (ids 0 .. max_streams - 1).
 * @max_hw_streams: out: device-wide stream ids (hw_stream_id below it).
 * @max_submit: out: tasks per VNPU_IOC_SUBMIT (-EMSGSIZE above).
 * @max_pending: out: tasks one open file may have queued; SUBMIT waits for
 *               room beyond it.
 * @ring_default_bytes: out: data bytes of a session's ring (of its ACSQ and
 *                      PMU channels each) when ring_pages is 0.
 * @ring_max_bytes: out: the most data bytes ring_pages may ask for.
 * @max_comms: out: communicator handles per open file.
 * @reserved1: zero.
 *
 * 0.10 (VNPU_INFO_SIZE_VER2):
 * @time_base_raw_ns: out: CLOCK_MONOTONIC_RAW at device time 0, the same
 *                    on every device: a device time of T ticks is the host
 *                    instant time_base_raw_ns + T * 10^6 / sys_cnt_freq_khz
 *                    (device time is host time, docs/uapi.md).
 *
 * Every member but @size, @flags and the reserved ones is an output, and
 * is ignored on input.
 */
struct vnpu_info {
	__u32 size;
	__u32 flags;
	__u32 uapi_version;
	__u32 dev_id;
	__u32 dev_count;
	__u32 product;
	char product_name[VNPU_NAME_LEN];
	char chip_name[VNPU_NAME_LEN];
	__u32 chip_id;
	__u32 npu_arch;
	__u32 aic_num;
	__u32 aiv_num;
	__u32 aicpu_num;
	__u32 caps;
	__u32 aic_freq_khz;
	__u32 sys_cnt_freq_khz;
	__u32 hbm_bw_mbps;
	__u32 link_bw_mbps;
	__u32 metric_groups;
	__u32 reserved0;
	__u64 cube_flops;
	__u64 vector_flops;
	__u64 reserved[4];
	__u32 max_streams;
	__u32 max_hw_streams;
	__u32 max_submit;
	__u32 max_pending;
	__u64 ring_default_bytes;
	__u64 ring_max_bytes;
	__u32 max_comms;
	__u32 reserved1;
	__u64 time_base_raw_ns;
};

#define VNPU_INFO_SIZE_VER0 184
#define VNPU_INFO_SIZE_VER1 224
#define VNPU_INFO_SIZE_VER2 232

/**
 * struct vnpu_stream_create - VNPU_IOC_STREAM_CREATE
 * @size: in: sizeof(struct vnpu_stream_create).
 * @flags: in: must be zero.
 * @stream_id: out: the new stream, unique within the open file.
 * @hw_stream_id: in: must be zero; out: the stream's device-wide id, below
 *                VNPU_MAX_HW_STREAMS, as the device's records name it
 *                (stream ids of destroyed streams are reused).
 */
struct vnpu_stream_create {
	__u32 size;
	__u32 flags;
	__u32 stream_id;
	__u32 hw_stream_id;
};

#define VNPU_STREAM_CREATE_SIZE_VER0 16

/**
 * struct vnpu_stream_destroy - VNPU_IOC_STREAM_DESTROY
 * @size: in: sizeof(struct vnpu_stream_destroy).
 * @flags: in: must be zero.
 * @stream_id: in: a stream of this file. The call waits (interruptibly)
 *             until the stream's queued tasks have run, then frees the id.
 * @reserved: must be zero.
 */
struct vnpu_stream_destroy {
	__u32 size;
	__u32 flags;
	__u32 stream_id;
	__u32 reserved;
};

#define VNPU_STREAM_DESTROY_SIZE_VER0 16

/** enum vnpu_task_type - the accelerator a task runs on (op_summary "Task Type") */
enum vnpu_task_type {
	VNPU_TASK_AI_CORE = 0,
	VNPU_TASK_AI_VECTOR_CORE = 1,
	VNPU_TASK_MIX_AIC = 2,
	VNPU_TASK_MIX_AIV = 3,
	VNPU_TASK_AI_CPU = 4,
	VNPU_TASK_COMMUNICATION = 5,
	VNPU_TASK_TYPE_COUNT
};

/** enum vnpu_dtype - tensor data types (op_summary "Data Types") */
enum vnpu_dtype {
	VNPU_DT_FLOAT = 0,
	VNPU_DT_FLOAT16 = 1,
	VNPU_DT_INT8 = 2,
	VNPU_DT_INT32 = 3,
	VNPU_DT_UINT8 = 4,
	VNPU_DT_INT16 = 5,
	VNPU_DT_INT64 = 6,
	VNPU_DT_BF16 = 7,
	VNPU_DT_BOOL = 8,
	VNPU_DT_COUNT
};

/*
 * Bytes per element of each enum vnpu_dtype, as an array initializer: the
 * kernel sizes tensors with it, and so does userspace that must agree.
 */
#define VNPU_DTYPE_SIZES {						\
	[VNPU_DT_FLOAT] = 4, [VNPU_DT_FLOAT16] = 2, [VNPU_DT_INT8] = 1,	\
	[VNPU_DT_INT32] = 4, [VNPU_DT_UINT8] = 1, [VNPU_DT_INT16] = 2,	\
	[VNPU_DT_INT64] = 8, [VNPU_DT_BF16] = 2, [VNPU_DT_BOOL] = 1,	\
}

/** enum vnpu_format - tensor formats (op_summary "Formats") */
enum vnpu_format {
	VNPU_FMT_ND = 0,
	VNPU_FMT_NCHW = 1,
	VNPU_FMT_NHWC = 2,
	VNPU_FMT_NC1HWC0 = 3,
	VNPU_FMT_FRACTAL_NZ = 4,
	VNPU_FMT_FRACTAL_Z = 5,
	VNPU_FMT_COUNT
};

/**
 * enum vnpu_comm_op - operations of COMMUNICATION tasks
 * @VNPU_COMM_ALLREDUCE: every rank ends with the reduction of all buffers.
 * @VNPU_COMM_ALLGATHER: every rank ends with every rank's chunk.
 * @VNPU_COMM_REDUCESCATTER: every rank ends with its chunk of the reduction.
 * @VNPU_COMM_BROADCAST: every rank ends with the buffer of the root
 *                       (struct vnpu_task.comm_peer).
 * @VNPU_COMM_SEND: point to point: the buffer goes to rank comm_peer,
 *                  which runs the matching VNPU_COMM_RECV.
 * @VNPU_COMM_RECV: point to point: receive from rank comm_peer.
 * @VNPU_COMM_OP_COUNT: the first value that is not an operation.
 */
enum vnpu_comm_op {
	VNPU_COMM_ALLREDUCE = 0,
	VNPU_COMM_ALLGATHER = 1,
	VNPU_COMM_REDUCESCATTER = 2,
	VNPU_COMM_BROADCAST = 3,
	VNPU_COMM_SEND = 4,
	VNPU_COMM_RECV = 5,
	VNPU_COMM_OP_COUNT
};

/**
 * struct vnpu_tensor - one input or output tensor
 * @dtype: enum vnpu_dtype.
 * @format: enum vnpu_format.
 * @ndims: 0 (a scalar) .. VNPU_MAX_DIMS.
 * @reserved: must be zero.
 * @dims: the first @ndims are the shape; each >= 1; the rest must be zero.
 */
struct vnpu_tensor {
	__u32 dtype;
	__u32 format;
	__u32 ndims;
	__u32 reserved;
	__u64 dims[VNPU_MAX_DIMS];
};

/* struct vnpu_task.flags */
#define VNPU_TASK_F_HF32	_BITUL(0) /* HF32 eligible */
#define VNPU_TASK_F_DYNAMIC	_BITUL(1) /* OP State "dynamic" (else static) */
#define VNPU_TASK_F_ALL		(VNPU_TASK_F_HF32 | VNPU_TASK_F_DYNAMIC)

/**
 * struct vnpu_task - one task of a VNPU_IOC_SUBMIT batch
 * @op_name: NUL-terminated operator name, not empty, printable ASCII.
 * @op_type: NUL-terminated operator type (e.g. "MatMul"), not empty,
 *           printable ASCII.
 * @task_type: enum vnpu_task_type.
 * @stream_id: a stream of this file.
 * @block_num: blocks (cores used), 1 .. 65535; exactly 1 for AI_CPU and
 *             COMMUNICATION.
 * @mix_block_num: blocks of the secondary core type of a MIX task, 1 ..
 *                 65535; must be zero for other types. MIX_AIC and MIX_AIV
 *                 need a product that splits AIC/AIV, AI_VECTOR_CORE one
 *                 with vector cores (-EINVAL otherwise).
 * @flags: VNPU_TASK_F_*.
 * @model_id: free for the caller (op_summary "Model ID").
 * @n_inputs: inputs, first in @tensors.
 * @n_outputs: outputs, after the inputs; n_inputs + n_outputs <= 8.
 * @comm_op: COMMUNICATION only: enum vnpu_comm_op; else zero.
 * @comm_id: COMMUNICATION only: a communicator handle of this file
 *           (VNPU_IOC_COMM_INIT); else zero. The n-th collective a rank
 *           queues on a communicator meets the n-th of every other rank,
 *           which must be the same @comm_op; each runs it when all have.
 *           Send and Recv are counted apart, per pair of ranks: the n-th
 *           SEND from rank a to rank b meets the n-th RECV of b from a.
 * @comm_tag: COMMUNICATION only: free for the caller (the device does not
 *            read it); else zero.
 * @comm_peer: SEND: the rank sent to; RECV: the rank received from (a
 *             rank of the communicator other than this one); BROADCAST:
 *             the root, the same on every rank; else zero.
 * @flops: floating-point (or integer) operations of the task, at most
 *         VNPU_TASK_MAX_FLOPS.
 * @bytes: bytes moved between main memory and the cores; for
 *         COMMUNICATION the message size per device. 0 derives it from
 *         the tensors (the sum of their sizes). At most
 *         VNPU_TASK_MAX_BYTES, given or derived.
 * @reserved: must be zero.
 * @tensors: @n_inputs inputs then @n_outputs outputs; unused ones zero.
 */
struct vnpu_task {
	char op_name[VNPU_OP_NAME_LEN];
	char op_type[VNPU_OP_TYPE_LEN];
	__u32 task_type;
	__u32 stream_id;
	__u32 block_num;
	__u32 mix_block_num;
	__u32 flags;
	__u32 model_id;
	__u32 n_inputs;
	__u32 n_outputs;
	__u32 comm_op;
	__u32 comm_id;
	__u32 comm_tag;
	__u32 comm_peer;
	__u64 flops;
	__u64 bytes;
	__u64 reserved[2];
	struct vnpu_tensor tensors[VNPU_MAX_TENSORS];
};

#define VNPU_TASK_SIZE_VER0 816

/**
 * struct vnpu_submit - VNPU_IOC_SUBMIT: queue a batch of tasks
 * @size: in: sizeof(struct vnpu_submit).
 * @flags: in: must be zero.
 * @tasks: in: user pointer to @count tasks, @task_size bytes apart.
 * @task_ids: in: user pointer to @count __u64, out: the task ids (device
 *            wide, increasing in submission order), or 0 (not wanted).
 * @count: in: 1 .. vnpu_info.max_submit (-EMSGSIZE above).
 * @task_size: in: sizeof(struct vnpu_task) as the caller knows it.
 * @submitted: out: tasks queued. The batch is all or nothing: on any
 *             error nothing is queued and this is 0.
 * @reserved: must be zero.
 * @submit_time: out (0.10, VNPU_SUBMIT_SIZE_VER1): the device time at which
 *               the batch was submitted, in ticks of sys_cnt_freq_khz: no
 *               task of it starts before. Ignored on input.
 */
struct vnpu_submit {
	__u32 size;
	__u32 flags;
	__u64 tasks;
	__u64 task_ids;
	__u32 count;
	__u32 task_size;
	__u32 submitted;
	__u32 reserved;
	__u64 submit_time;
};

#define VNPU_SUBMIT_SIZE_VER0 40
#define VNPU_SUBMIT_SIZE_VER1 48

/* struct vnpu_sync.flags */
#define VNPU_SYNC_F_ALL_STREAMS _BITUL(0) /* every stream of the file */
#define VNPU_SYNC_F_NOWAIT _BITUL(1) /* 0.6: do not wait; timeout_ms is not read */
#define VNPU_SYNC_F_ALL (VNPU_SYNC_F_ALL_STREAMS | VNPU_SYNC_F_NOWAIT)

/**
 * struct vnpu_sync - VNPU_IOC_SYNC: wait until a stream (or all) is idle
 * @size: in: sizeof(struct vnpu_sync).
 * @flags: in: VNPU_SYNC_F_*.
 * @stream_id: in: the stream; must be zero with VNPU_SYNC_F_ALL_STREAMS.
 * @timeout_ms: in: 0 waits forever. -ETIMEDOUT when it expires; the wait
 *              is interruptible (-EINTR / restart). With VNPU_SYNC_F_NOWAIT
 *              there is no wait: -ETIMEDOUT at once unless idle.
 *              0.7: -EPIPE (nothing written) when a collective on the
 *              stream(s) was aborted since the last sync that said so.
 * @last_task_id: out: id of the last task completed on the stream(s).
 * @device_time: out: the device's system counter when the stream(s)
 *               became idle (ticks of sys_cnt_freq_khz).
 * @reserved: must be zero.
 */
struct vnpu_sync {
	__u32 size;
	__u32 flags;
	__u32 stream_id;
	__u32 timeout_ms;
	__u64 last_task_id;
	__u64 device_time;
	__u64 reserved;
};

#define VNPU_SYNC_SIZE_VER0 40

/* The bytes of a communicator's key. */
#define VNPU_COMM_KEY_LEN 32

/* struct vnpu_comm_init.flags */
#define VNPU_COMM_F_CREATE _BITUL(0) /* make the communicator; its key comes back */

/**
 * struct vnpu_comm_init - VNPU_IOC_COMM_INIT: join a communicator as a rank
 * @size: in: sizeof(struct vnpu_comm_init).
 * @flags: in: VNPU_COMM_F_CREATE to make a new communicator (and join it),
 *         0 to join the one @key names.
 * @nranks: in: its ranks, 2 .. VNPU_MAX_DEVICES; a join must say what the
 *          creator said.
 * @rank: in: this file's rank, below @nranks and not yet taken. Every rank
 *        is on its own device, of the creator's product.
 * @comm_id: out: the handle in this file, 1 .. vnpu_info.max_comms, that
 *           COMMUNICATION tasks name.
 * @reserved: must be zero.
 * @key: in, to join: the key the creator got. out, with
 *       VNPU_COMM_F_CREATE: a new random key. Whoever holds it can join
 *       while a rank is free: hand it to the other ranks as HCCL hands out
 *       its root info (HcclGetRootInfo).
 */
struct vnpu_comm_init {
	__u32 size;
	__u32 flags;
	__u32 nranks;
	__u32 rank;
	__u32 comm_id;
	__u32 reserved;
	__u8 key[VNPU_COMM_KEY_LEN];
};

#define VNPU_COMM_INIT_SIZE_VER0 56

/**
 * struct vnpu_comm_destroy - VNPU_IOC_COMM_DESTROY: leave a communicator
 * @size: in: sizeof(struct vnpu_comm_destroy).
 * @flags: in: must be zero.
 * @comm_id: in: a handle of this file with no collective queued on it
 *           (-EBUSY otherwise). Its group is broken: the other ranks'
 *           collectives on it complete at once from then on.
 * @reserved: must be zero.
 */
struct vnpu_comm_destroy {
	__u32 size;
	__u32 flags;
	__u32 comm_id;
	__u32 reserved;
};

#define VNPU_COMM_DESTROY_SIZE_VER0 16

/*
 * Ioctl numbers: only these whole numbers are the device's (anything else
 * is -ENOTTY); a structure's size as the caller knows it is carried in its
 * @size. 0xB8 is free in Documentation/userspace-api/ioctl/ioctl-number.rst
 * (0.3 and before used 'V', which is V4L2's).
 */
#ifndef VNPU_IOC_MAGIC
#define VNPU_IOC_MAGIC 0xB8
#endif
#define VNPU_IOC_NR_GET_INFO 0x00
#define VNPU_IOC_NR_STREAM_CREATE 0x01
#define VNPU_IOC_NR_STREAM_DESTROY 0x02
#define VNPU_IOC_NR_SUBMIT 0x03
#define VNPU_IOC_NR_SYNC 0x04
#define VNPU_IOC_NR_COMM_INIT 0x05
#define VNPU_IOC_NR_COMM_DESTROY 0x06

#define VNPU_IOC_GET_INFO _IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, struct vnpu_info)
/* GET_INFO as uapi 0.4 spelled it (a 184-byte struct vnpu_info): still taken */
#define VNPU_IOC_GET_INFO_VER0 \
	_IOC(_IOC_READ | _IOC_WRITE, VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, VNPU_INFO_SIZE_VER0)
/* GET_INFO as uapi 0.5 to 0.9 spelled it (224 bytes): still taken */
#define VNPU_IOC_GET_INFO_VER1 \
	_IOC(_IOC_READ | _IOC_WRITE, VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, VNPU_INFO_SIZE_VER1)
#define VNPU_IOC_STREAM_CREATE \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_STREAM_CREATE, struct vnpu_stream_create)
#define VNPU_IOC_STREAM_DESTROY \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_STREAM_DESTROY, struct vnpu_stream_destroy)
#define VNPU_IOC_SUBMIT _IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_SUBMIT, struct vnpu_submit)
/* SUBMIT as uapi 0.9 and before spelled it (40 bytes): still taken */
#define VNPU_IOC_SUBMIT_VER0 \
	_IOC(_IOC_READ | _IOC_WRITE, VNPU_IOC_MAGIC, VNPU_IOC_NR_SUBMIT, VNPU_SUBMIT_SIZE_VER0)
#define VNPU_IOC_SYNC _IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_SYNC, struct vnpu_sync)
#define VNPU_IOC_COMM_INIT \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_COMM_INIT, struct vnpu_comm_init)
#define VNPU_IOC_COMM_DESTROY \
	_IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_COMM_DESTROY, struct vnpu_comm_destroy)

#endif /* _UAPI_VNPU_H */
