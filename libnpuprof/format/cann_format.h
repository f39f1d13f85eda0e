/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the host records CANN's runtime writes into host/data/, as
 * msprof's parser reads them (Ascend/msprof analysis/ at 9ba1ac7be; the
 * parser files are named at each record; docs/msprof-parser.md section 1).
 * Little-endian, packed, fixed size.
 *
 *   {aging|unaging}.api_event.data.slice_K                struct cann_api_event
 *   {aging|unaging}.compact.node_basic_info.slice_K       struct cann_node_basic_info
 *   {aging|unaging}.compact.task_track.slice_K            struct cann_task_track
 *   {aging|unaging}.additional.tensor_info.slice_K        struct cann_tensor_info
 *   {aging|unaging}.additional.context_id_info.slice_K    struct cann_context_id_info
 *   {aging|unaging}.additional.hccl_info.slice_K          struct cann_hccl_info
 *   {aging|unaging}.compact.hccl_op_info.slice_K          struct cann_hccl_op_info
 *   {aging|unaging}.additional.hash_dic.slice_K           text: "hash:name" lines
 *   {aging|unaging}.additional.type_info_dic.slice_K      text: "level_type:name" lines
 *
 * "aging" node_basic_info marks a dynamic op (OP State "dynamic"); every
 * other file kind is written "unaging" by our runtime.
 */
#ifndef NPF_CANN_FORMAT_H
#define NPF_CANN_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define CANN_MAGIC 0x5A5A

/* The levels of the header (msprof's LevelDataType) */
enum cann_level {
	CANN_LEVEL_PYTORCH_TX = 30000,
	CANN_LEVEL_PTA = 25000,
	CANN_LEVEL_TX = 20500,
	CANN_LEVEL_ACL = 20000,
	CANN_LEVEL_MODEL = 15000,
	CANN_LEVEL_NODE = 10000,
	CANN_LEVEL_AICPU = 6000,
	CANN_LEVEL_HCCL = 5500,
	CANN_LEVEL_RUNTIME = 5000,
};

/* Header types of the node level and the runtime level used here */
#define CANN_NODE_BASIC_INFO 0 /* type_info_dic 10000_0 */
#define CANN_NODE_TENSOR_INFO 1
#define CANN_NODE_CONTEXT_ID_INFO 4 /* type_info_dic 10000_4: context_id_info */
#define CANN_NODE_LAUNCH 5 /* api_event: the node-level launch window */
#define CANN_RUNTIME_TASK_TRACK 2 /* 5000_2 */

/* ACL api_event types are AclApiTag << 16 | id */
enum cann_acl_tag {
	CANN_ACL_OP = 1,
	CANN_ACL_MODEL = 2,
	CANN_ACL_RTS = 3,
	CANN_ACL_OTHERS = 4,
	CANN_ACL_NN = 5,
	CANN_ACL_ASCENDC = 6,
	CANN_ACL_HOST_HCCL = 7,
	CANN_ACL_DVPP = 9,
	CANN_ACL_GRAPH = 10,
	CANN_ACL_ATB = 11,
};

/* node_basic_info task types (GE's GeTaskType) */
enum cann_ge_task_type {
	CANN_GE_AI_CORE = 0,
	CANN_GE_AI_CPU = 1,
	CANN_GE_AI_VECTOR_CORE = 2,
	CANN_GE_WRITE_BACK = 3,
	CANN_GE_MIX_AIC = 4,
	CANN_GE_MIX_AIV = 5,
	CANN_GE_FFTS_PLUS = 6,
	CANN_GE_DSA_SQE = 7,
	CANN_GE_DVPP = 8,
	CANN_GE_HCCL = 9,
	CANN_GE_FUSION = 10,
	CANN_GE_INVALID = 11,
	CANN_GE_TASK_TYPE_COUNT
};

/**
 * struct cann_hdr - the 24-byte header of a compact or additional record
 * ("HHIIIQ")
 * @magic: CANN_MAGIC; any other value, or an unknown level, makes msprof
 *         drop every record of the kind.
 * @level: enum cann_level.
 * @type: per level.
 * @thread_id: the host thread.
 * @data_len: bytes of the body.
 * @timestamp: CLOCK_MONOTONIC_RAW ns (raw ns: host CPU Frequency is empty).
 */
struct cann_hdr {
	uint16_t magic;
	uint16_t level;
	uint32_t type;
	uint32_t thread_id;
	uint32_t data_len;
	uint64_t timestamp;
} __attribute__((packed));

/**
 * struct cann_api_event - an API call (msparser/api_event/api_event_parser.py;
 * "HHIIIQQQ", 40 B)
 * @magic: CANN_MAGIC.
 * @level: enum cann_level.
 * @type: ACL: CANN_ACL_* << 16 | id; else a type_info_dic type.
 * @thread_id: the calling thread.
 * @reserve: zero (a request id for begin/end event pairs, unused here).
 * @begin: ns; 0 drops the record.
 * @end: ns; all ones would make it half of an event pair.
 * @item_id: a hash_dic hash (the op name for a node launch).
 */
struct cann_api_event {
	uint16_t magic;
	uint16_t level;
	uint32_t type;
	uint32_t thread_id;
	uint32_t reserve;
	uint64_t begin;
	uint64_t end;
	uint64_t item_id;
} __attribute__((packed));

/**
 * struct cann_node_basic_info - what an op is (msparser/compact_info/
 * node_basic_info_bean.py; 64 B), inside its node launch window
 * @hdr: level CANN_LEVEL_NODE, type CANN_NODE_BASIC_INFO.
 * @op_name: hash of the op name.
 * @task_type: enum cann_ge_task_type.
 * @op_type: hash of the op type.
 * @block_dim: bits 0-15 blocks; bits 16-31 the mix block multiplier.
 * @op_flag: non-zero: HF32 eligible.
 * @reserved: zero.
 * @reserved2: zero.
 */
struct cann_node_basic_info {
	struct cann_hdr hdr;
	uint64_t op_name;
	uint32_t task_type;
	uint64_t op_type;
	uint32_t block_dim;
	uint32_t op_flag;
	uint64_t reserved;
	uint32_t reserved2;
} __attribute__((packed));

/**
 * struct cann_task_track - a task given to a device (msparser/compact_info/
 * task_track_bean.py; 64 B), inside its node launch window
 * @hdr: level CANN_LEVEL_RUNTIME, type CANN_RUNTIME_TASK_TRACK.
 * @device: bits 0-11 the device id.
 * @stream_id: the stream.
 * @task_id: the 16-bit task id.
 * @batch_id: flips of the stream so far (msprof recomputes it).
 * @task_type: a runtime type of type_info_dic (KERNEL_AICORE, FLIP_TASK...).
 * @kernel_name: hash of the kernel name.
 * @num_blocks: the kernel's blocks (CANN's extInfo.kernelInfo.numBlocks:
 *	msprof's C++ path takes Block Num from it, and without it every PMU
 *	*_time column is 0; its pure-Python path reads these 16 B as reserved).
 * @args_size: the size of the kernel's arguments (0: not modelled).
 * @ratio_mode: bits 0-2 the mix ratio (Mix Block Num = numBlocks x ratio;
 *	0 for a kernel that is not a mix), bits 3-4 the schedule mode (0).
 * @reserved: zero.
 */
struct cann_task_track {
	struct cann_hdr hdr;
	uint16_t device;
	uint16_t stream_id;
	uint16_t task_id;
	uint16_t batch_id;
	uint64_t task_type;
	uint64_t kernel_name;
	uint16_t num_blocks;
	uint16_t args_size;
	uint8_t ratio_mode;
	uint8_t reserved[11];
} __attribute__((packed));

#define CANN_MAX_TENSORS 5
#define CANN_TENSOR_DIMS 8

/**
 * struct cann_tensor - one tensor of a tensor_info record (11 words)
 * @io: 0 input, 1 output.
 * @format: GE format (low 8 bits; bits 8-23 a sub-format).
 * @data_type: GE data type.
 * @dims: the shape; zeros are not dimensions.
 */
struct cann_tensor {
	uint32_t io;
	uint32_t format;
	uint32_t data_type;
	uint32_t dims[CANN_TENSOR_DIMS];
} __attribute__((packed));

/**
 * struct cann_tensor_info - an op's tensors (msparser/add_info/
 * tensor_add_info_bean.py; "QI55I" after the header, 256 B)
 * @hdr: level CANN_LEVEL_NODE, type CANN_NODE_TENSOR_INFO.
 * @op_name: hash of the op name.
 * @tensor_num: tensors used, at most CANN_MAX_TENSORS per record.
 * @tensor: the tensors.
 */
struct cann_tensor_info {
	struct cann_hdr hdr;
	uint64_t op_name;
	uint32_t tensor_num;
	struct cann_tensor tensor[CANN_MAX_TENSORS];
} __attribute__((packed));

#define CANN_MAX_CTX_IDS 55

/**
 * struct cann_context_id_info - the FFTS+ contexts of a mix op
 * (msparser/add_info/ctx_id_bean.py; 256 B)
 * @hdr: level CANN_LEVEL_NODE, type CANN_NODE_CONTEXT_ID_INFO.
 * @op_name: hash of the op name.
 * @ctx_num: ids used.
 * @ctx_id: the context ids.
 */
struct cann_context_id_info {
	struct cann_hdr hdr;
	uint64_t op_name;
	uint32_t ctx_num;
	uint32_t ctx_id[CANN_MAX_CTX_IDS];
} __attribute__((packed));

/* ---- collectives (HCCL) ---- */

#define CANN_HCCL_INFO 0 /* type_info_dic 5500_0: hccl_info */
#define CANN_HCCL_MASTER 0x10001 /* 5500_65537: an HCCL task window of the master stream */
#define CANN_HCCL_SLAVE 0x10002 /* 5500_65538: of a slave stream */
#define CANN_NODE_HCCL_OP_INFO 10 /* 10000_10: hccl_op_info */

/**
 * struct cann_hccl_info - one HCCL task (msparser/add_info/hccl_info_bean.py;
 * "HHIII4Q6IQ2Id3Q6I112B", 256 B), inside its level-5500 task window
 * @hdr: level CANN_LEVEL_HCCL, type CANN_HCCL_INFO.
 * @item_id: hash of the task name (Memcpy, Reduce_Inline, Notify_Record...).
 * @ccl_tag: hash of the communicator tag.
 * @group_name: hash of the group name (msprof keeps it as decimal digits).
 * @local_rank: this rank.
 * @remote_rank: the peer.
 * @rank_size: ranks of the group.
 * @work_flow_mode: the HCCL work flow mode.
 * @plane_id: the plane (a timeline thread "Plane N").
 * @context_id: 4294967295 for a task that is not an FFTS+ context.
 * @notify_id: the notify, all ones for none.
 * @stage: the algorithm stage.
 * @role: 0 DST, 1 SRC, 255 reserved.
 * @duration_estimated: us.
 * @src_addr: source address.
 * @dst_addr: destination address.
 * @data_size: bytes.
 * @op_type: reduce op: 0 SUM, 1 MUL, 2 MAX, 3 MIN, 255 reserved.
 * @data_type: 0 INT8 ... 4 FP32 ... (hccl_info_common.py DataType).
 * @link_type: 0 ON_CHIP, 1 HCCS, 2 PCIE, 3 ROCE, 4 SIO ...
 * @transport_type: 0 SDMA, 1 RDMA, 2 LOCAL ...
 * @rdma_type: 0 RDMA_SEND_NOTIFY, 1 RDMA_SEND_PAYLOAD, 255 reserved.
 * @reserved: zero.
 */
struct cann_hccl_info {
	struct cann_hdr hdr;
	uint64_t item_id;
	uint64_t ccl_tag;
	uint64_t group_name;
	uint32_t local_rank;
	uint32_t remote_rank;
	uint32_t rank_size;
	uint32_t work_flow_mode;
	uint32_t plane_id;
	uint32_t context_id;
	uint64_t notify_id;
	uint32_t stage;
	uint32_t role;
	double duration_estimated;
	uint64_t src_addr;
	uint64_t dst_addr;
	uint64_t data_size;
	uint32_t op_type;
	uint32_t data_type;
	uint32_t link_type;
	uint32_t transport_type;
	uint32_t rdma_type;
	uint32_t reserved0;
	uint8_t reserved[112];
} __attribute__((packed));

/**
 * struct cann_hccl_op_info - one collective (msparser/compact_info/
 * hccl_op_info_bean.py; "HHIIIQBBQQQ14B", 64 B), inside its node launch window
 * @hdr: level CANN_LEVEL_NODE, type CANN_NODE_HCCL_OP_INFO.
 * @flags: bit 0 relay, bit 1 retry.
 * @data_type: as cann_hccl_info.data_type.
 * @alg_type: hash of the algorithm ("MESH-NA-NA-NA").
 * @count: elements.
 * @group_name: hash of the group name.
 * @reserved: zero.
 */
struct cann_hccl_op_info {
	struct cann_hdr hdr;
	uint8_t flags;
	uint8_t data_type;
	uint64_t alg_type;
	uint64_t count;
	uint64_t group_name;
	uint8_t reserved[14];
} __attribute__((packed));

_Static_assert(sizeof(struct cann_hdr) == 24, "cann_hdr");
_Static_assert(sizeof(struct cann_api_event) == 40, "cann_api_event");
_Static_assert(sizeof(struct cann_node_basic_info) == 64, "cann_node_basic_info");
_Static_assert(sizeof(struct cann_task_track) == 64, "cann_task_track");
/* where msprof's C++ path reads extInfo.kernelInfo (MsprofRuntimeTrack) */
_Static_assert(offsetof(struct cann_task_track, num_blocks) == 48, "kernelInfo.numBlocks");
_Static_assert(offsetof(struct cann_task_track, ratio_mode) == 52, "kernelInfo.ratio");
_Static_assert(sizeof(struct cann_tensor_info) == 256, "cann_tensor_info");
_Static_assert(sizeof(struct cann_context_id_info) == 256, "cann_context_id_info");
_Static_assert(sizeof(struct cann_hccl_info) == 256, "cann_hccl_info");
_Static_assert(sizeof(struct cann_hccl_op_info) == 64, "cann_hccl_op_info");

#endif /* NPF_CANN_FORMAT_H */
