// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: the host records (hostrec/hostrec.h) - the records CANN's
 * runtime writes on the host, as the runtime's calls make them; the sink
 * (host_sink.c) buffers and writes them.
 *
 * What one runtime call writes (CANN format, docs/output.md "Host records"):
 *  - an AscendCL api_event around the call (aclrtSetDevice,
 *    aclrtCreateStream, aclrtSynchronizeStream, aclrtDestroyStream,
 *    aclrtResetDevice), and at L2 a Runtime api_event around its ioctl;
 *  - per task of a launch, in a window of its own inside the call: an
 *    AscendCL aclopCompileAndExecute event, a node-level "launch" window
 *    (the op's name), and in that window the op's node_basic_info and
 *    tensor_info (L1 on: L0 has no op info) and its task_track, preceded by FLIP_TASK task_tracks
 * when the task's id starts a new epoch of 65,536 on its stream; at L2 a Runtime rtKernelLaunch
 * event in the window. A collective is what HCCL writes instead (put_collective()): an
 * AscendCL Hccl* event, the node launch window with node_basic_info and hccl_op_info, and per
 * sub-task of uapi/vnpu_hccl.h a level-5500 window with its task_track and hccl_info. Names go
 * through hash_dic (a 64-bit FNV-1a of the name); the types of
 * type_info_dic are fixed (the table below), written once at the start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostrec/hostrec.h"
#include "hostrec/sink.h"
#include "vnpu_hccl.h"
#include "vnpu_prof.h"

/*
 * The fixed types of type_info_dic. AscendCL types are AclApiTag << 16 |
 * an id of ours; runtime types share one namespace (level 5000) between
 * task_track task types and Runtime api_event types. The task types are
 * CANN's own (TsTaskType): msprof's pure-Python path reads them by the
 * names here, but its C++ path (compact_info_parser.cpp) takes type 98 for
 * a flip and drops type 6 (MAINTENANCE) outright, whatever the names say.
 * Runtime APIs start at 1000, as CANN's RT_PROFILE_TYPE_API_BEGIN.
 */
#define ACL_TYPE(tag, id) ((uint32_t)(tag) << 16 | (id))
#define RT_KERNEL_AICORE 0
#define RT_KERNEL_AICPU 1
#define RT_MEMCPY_ASYNC 5
#define RT_HCCL 7 /* never on a task_track of ours: collectives write their sub-tasks */
#define RT_NOTIFY_WAIT 14
#define RT_NOTIFY_RECORD 15
#define RT_KERNEL_AIVEC 66
#define RT_FLIP_TASK 98
#define RT_KERNEL_MIX_AIC 108
#define RT_KERNEL_MIX_AIV 109
#define RT_API_BASE 1000 /* + enum npf_api_id */
#define ACL_OP_EXECUTE ACL_TYPE(CANN_ACL_OP, 1)
#define RT_KERNEL_LAUNCH (RT_API_BASE + NPF_API_LAUNCH)

static const struct {
	uint32_t acl_type;
	const char *acl, *rt;
} api_names[NPF_API_COUNT] = {
	[NPF_API_OPEN] = { ACL_TYPE(CANN_ACL_RTS, 1), "aclrtSetDevice", "rtSetDevice" },
	[NPF_API_STREAM_CREATE] = { ACL_TYPE(CANN_ACL_RTS, 2), "aclrtCreateStream",
				    "rtStreamCreate" },
	[NPF_API_LAUNCH] = { ACL_OP_EXECUTE, "aclopCompileAndExecute",
			     "rtKernelLaunchWithHandleV2" },
	[NPF_API_SYNC] = { ACL_TYPE(CANN_ACL_RTS, 3), "aclrtSynchronizeStream",
			   "rtStreamSynchronize" },
	[NPF_API_STREAM_DESTROY] = { ACL_TYPE(CANN_ACL_RTS, 4), "aclrtDestroyStream",
				     "rtStreamDestroy" },
	[NPF_API_CLOSE] = { ACL_TYPE(CANN_ACL_RTS, 5), "aclrtResetDevice", "rtDeviceReset" },
};

static const struct {
	uint32_t type;
	const char *name;
} rt_task_types[] = {
	{ RT_KERNEL_AICORE, "KERNEL_AICORE" },	   { RT_KERNEL_AIVEC, "KERNEL_AIVEC" },
	{ CANN_RUNTIME_TASK_TRACK, "task_track" }, { RT_FLIP_TASK, "FLIP_TASK" },
	{ RT_KERNEL_MIX_AIC, "KERNEL_MIX_AIC" },   { RT_KERNEL_MIX_AIV, "KERNEL_MIX_AIV" },
	{ RT_KERNEL_AICPU, "KERNEL_AICPU" },	   { RT_HCCL, "HCCL" },
	{ RT_MEMCPY_ASYNC, "MEMCPY_ASYNC" },	   { RT_NOTIFY_WAIT, "NOTIFY_WAIT" },
	{ RT_NOTIFY_RECORD, "NOTIFY_RECORD" },
};

/* The sub-tasks of a collective (uapi/vnpu_hccl.h): hccl_info name, runtime type */
/*
 * ... and what issuing one costs HCCL's host thread, ns: the least and the
 * spread above it (modelled, not measured: the dev VM's emulated clock
 * would make every call tens of us)
 */
static const struct {
	const char *name;
	uint32_t rt;
	uint32_t cost_ns, spread_ns;
} hccl_kinds[VNPU_HCCL_KIND_COUNT] = {
	[VNPU_HCCL_MEMCPY] = { "Memcpy", RT_MEMCPY_ASYNC, 2000, 600 },
	[VNPU_HCCL_REDUCE_INLINE] = { "Reduce_Inline", RT_MEMCPY_ASYNC, 2300, 700 },
	[VNPU_HCCL_NOTIFY_RECORD] = { "Notify_Record", RT_NOTIFY_RECORD, 1000, 400 },
	[VNPU_HCCL_NOTIFY_WAIT] = { "Notify_Wait", RT_NOTIFY_WAIT, 800, 300 },
};

/*
 * The host cost of launching one op (its AscendCL call, node launch and
 * runtime launch nested), ns: CANN 8 launches a kernel in 4 to 6 us; and
 * of a collective's own call, before its sub-tasks.
 */
#define LAUNCH_COST_NS 4000
#define LAUNCH_SPREAD_NS 2000
#define HCCL_OP_COST_NS 3000
#define HCCL_OP_SPREAD_NS 1000

/* A draw in [@base, @base + @spread] keyed by @key (splitmix64). */
static uint64_t host_cost(uint64_t key, uint32_t base, uint32_t spread)
{
	return base + npx_mix64(key + 0x9e3779b97f4a7c15ull) % (spread + 1ull);
}

/* enum vnpu_comm_op: the HCCL API (AscendCL level, tag HOST_HCCL) and the tag's prefix */
static const struct {
	const char *api, *tag;
} hccl_ops[VNPU_COMM_OP_COUNT] = {
	[VNPU_COMM_ALLREDUCE] = { "HcclAllReduce", "AllReduce" },
	[VNPU_COMM_ALLGATHER] = { "HcclAllGather", "AllGather" },
	[VNPU_COMM_REDUCESCATTER] = { "HcclReduceScatter", "ReduceScatter" },
	[VNPU_COMM_BROADCAST] = { "HcclBroadcast", "Broadcast" },
	[VNPU_COMM_SEND] = { "HcclSend", "Send" },
	[VNPU_COMM_RECV] = { "HcclRecv", "Receive" },
};
#define ACL_HCCL(op) ACL_TYPE(CANN_ACL_HOST_HCCL, 1 + (op))

/* enum vnpu_dtype -> HcclDataType (hccl_op_info, hccl_info) */
static const uint8_t hccl_dtype[VNPU_DT_COUNT] = {
	[VNPU_DT_FLOAT] = 4, [VNPU_DT_FLOAT16] = 3, [VNPU_DT_INT8] = 0,
	[VNPU_DT_INT32] = 2, [VNPU_DT_UINT8] = 7,   [VNPU_DT_INT16] = 1,
	[VNPU_DT_INT64] = 5, [VNPU_DT_BF16] = 11,   [VNPU_DT_BOOL] = 7,
};

/* enum vnpu_task_type -> GE task type of node_basic_info, runtime type of task_track */
static const struct {
	uint32_t ge, rt;
} task_types[VNPU_TASK_TYPE_COUNT] = {
	[VNPU_TASK_AI_CORE] = { CANN_GE_AI_CORE, RT_KERNEL_AICORE },
	[VNPU_TASK_AI_VECTOR_CORE] = { CANN_GE_AI_VECTOR_CORE, RT_KERNEL_AIVEC },
	[VNPU_TASK_MIX_AIC] = { CANN_GE_MIX_AIC, RT_KERNEL_MIX_AIC },
	[VNPU_TASK_MIX_AIV] = { CANN_GE_MIX_AIV, RT_KERNEL_MIX_AIV },
	[VNPU_TASK_AI_CPU] = { CANN_GE_AI_CPU, RT_KERNEL_AICPU },
	[VNPU_TASK_COMMUNICATION] = { CANN_GE_HCCL, RT_HCCL },
};

/* enum vnpu_dtype -> GE data type; enum vnpu_format -> GE format */
static const uint32_t ge_dtype[VNPU_DT_COUNT] = {
	[VNPU_DT_FLOAT] = 0, [VNPU_DT_FLOAT16] = 1, [VNPU_DT_INT8] = 2,
	[VNPU_DT_INT32] = 3, [VNPU_DT_UINT8] = 4,   [VNPU_DT_INT16] = 6,
	[VNPU_DT_INT64] = 9, [VNPU_DT_BF16] = 27,   [VNPU_DT_BOOL] = 12,
};

static const uint32_t ge_format[VNPU_FMT_COUNT] = {
	[VNPU_FMT_ND] = 2,	[VNPU_FMT_NCHW] = 0,	    [VNPU_FMT_NHWC] = 1,
	[VNPU_FMT_NC1HWC0] = 3, [VNPU_FMT_FRACTAL_NZ] = 29, [VNPU_FMT_FRACTAL_Z] = 4,
};

/*
 * The end of the calling thread's last host record: a launch's modelled
 * windows, which may begin before the call did, never overlap it.
 */
static __thread uint64_t thread_last_end;

static void put_hdr(struct cann_hdr *h, uint16_t level, uint32_t type, uint32_t tid, uint32_t body,
		    uint64_t ts)
{
	h->magic = CANN_MAGIC;
	h->level = level;
	h->type = type;
	h->thread_id = tid;
	h->data_len = body;
	h->timestamp = ts;
}

static void put_api(struct nph_sink *s, uint16_t level, uint32_t type, uint32_t tid, uint64_t begin,
		    uint64_t end, uint64_t item)
{
	struct cann_api_event *e = nph_reserve(s, NPH_K_API, sizeof(*e));

	if (!e)
		return;
	e->magic = CANN_MAGIC;
	e->level = level;
	e->type = type;
	e->thread_id = tid;
	e->begin = begin;
	e->end = end;
	e->item_id = item;
}

/* ---- the runtime's calls ---- */

void nph_api_record(enum npf_api_id api, uint64_t start_ns, uint64_t rt_start, uint64_t rt_end)
{
	struct nph_sink *s;
	uint64_t end_ns;
	uint32_t tid;

	/* nothing, not even the clock, when no session records (or none did at the start) */
	if (!start_ns || !nph_recording() || api >= NPF_API_COUNT)
		return;
	end_ns = npx_now_ns();
	tid = nph_this_tid();
	s = nph_sink_lock();
	if (!s)
		return;
	put_api(s, CANN_LEVEL_ACL, api_names[api].acl_type, tid, start_ns, end_ns, 0);
	if (s->level >= VNPU_PROF_L2 && rt_start && rt_end >= rt_start)
		put_api(s, CANN_LEVEL_RUNTIME, RT_API_BASE + api, tid, rt_start, rt_end, 0);
	thread_last_end = end_ns;
	nph_sink_unlock(s);
}

/*
 * The host flips that bring stream @hw of device @dev to @epoch, at @ts.
 * A v6 chip's ids do not wrap: its task_track records carry the id's high
 * half where the others carry the batch, and it has no flips.
 */
static void put_flips(struct nph_sink *s, const struct nph_device *dev, uint16_t hw, uint32_t epoch,
		      uint32_t tid, uint64_t ts)
{
	uint32_t **ep = &s->epoch[dev->id];

	if (npf_chip_has(dev->info.chip_id, NPF_CHIP_V6))
		return;
	if (!*ep) {
		*ep = calloc(VNPU_MAX_HW_STREAMS, sizeof(**ep));
		if (!*ep) {
			s->nomem[NPH_K_TRACK]++;
			return;
		}
	}
	for (; (*ep)[hw] < epoch; (*ep)[hw]++) {
		struct cann_task_track *t = nph_reserve(s, NPH_K_TRACK, sizeof(*t));

		if (!t)
			continue;
		put_hdr(&t->hdr, CANN_LEVEL_RUNTIME, CANN_RUNTIME_TASK_TRACK, tid,
			sizeof(*t) - sizeof(t->hdr), ts);
		t->device = (uint16_t)dev->id;
		t->stream_id = hw;
		t->task_id = 0;
		t->batch_id = (uint16_t)((*ep)[hw] + 1);
		t->task_type = RT_FLIP_TASK;
	}
}

static void put_tensors(struct nph_sink *s, const struct vnpu_task *t, uint64_t op, uint32_t tid,
			uint64_t ts)
{
	unsigned int n = t->n_inputs + t->n_outputs;

	if (n > VNPU_MAX_TENSORS)
		n = VNPU_MAX_TENSORS;
	for (unsigned int first = 0; first < n; first += CANN_MAX_TENSORS) {
		struct cann_tensor_info *ti = nph_reserve(s, NPH_K_TENSOR, sizeof(*ti));

		if (!ti)
			return;
		put_hdr(&ti->hdr, CANN_LEVEL_NODE, CANN_NODE_TENSOR_INFO, tid,
			sizeof(*ti) - sizeof(ti->hdr), ts);
		ti->op_name = op;
		for (unsigned int i = first; i < n && i < first + CANN_MAX_TENSORS; i++) {
			const struct vnpu_tensor *v = &t->tensors[i];
			struct cann_tensor *c = &ti->tensor[ti->tensor_num++];

			c->io = i >= t->n_inputs;
			c->format = v->format < VNPU_FMT_COUNT ? ge_format[v->format] : 2;
			c->data_type = v->dtype < VNPU_DT_COUNT ? ge_dtype[v->dtype] : 28;
			for (unsigned int d = 0; d < v->ndims && d < CANN_TENSOR_DIMS; d++)
				c->dims[d] =
					v->dims[d] > UINT32_MAX ? UINT32_MAX : (uint32_t)v->dims[d];
		}
	}
}

/* The op types that get an aclnn API name of their own; the rest, the generic one. */
#define ACLNN_MAX 256
#define ACL_ACLNN(i) ACL_TYPE(CANN_ACL_OP, 0x100 + (i))

/* aclnn's name for a GE op type where it is not "aclnn" and the type. */
static const char *const aclnn_renamed[][2] = {
	{ "MatMul", "Matmul" },
	{ "MatMulV2", "Matmul" },
	{ "BatchMatMulV2", "BatchMatMul" },
	{ "SoftmaxV2", "Softmax" },
	{ "DropOutGenMask", "DropoutGenMask" },
	{ "DropOutDoMask", "DropoutDoMask" },
};

/*
 * The AscendCL API type of launching an op of @op_type: CANN 8 launches
 * ops through aclnn, one API per op (aclnnMatmul, aclnnAdd, ...). Each
 * type gets an id of its own the first time it is seen, and its name in
 * type_info_dic; past ACLNN_MAX types, or out of memory, the generic
 * aclopCompileAndExecute.
 */
static uint32_t aclnn_type(struct nph_sink *s, const char *op_type)
{
	const char *name = op_type;
	char line[96];
	uint32_t i;

	if (s->last_aclnn < s->naclnn && !strcmp(s->aclnn[s->last_aclnn], op_type))
		return ACL_ACLNN(s->last_aclnn);
	for (i = 0; i < s->naclnn; i++)
		if (!strcmp(s->aclnn[i], op_type))
			return ACL_ACLNN(s->last_aclnn = i);
	if (!*op_type || s->naclnn == ACLNN_MAX)
		return ACL_OP_EXECUTE;
	if (!s->aclnn) {
		s->aclnn = calloc(ACLNN_MAX, sizeof(*s->aclnn));
		if (!s->aclnn)
			return ACL_OP_EXECUTE;
	}
	for (i = 0; i < sizeof(aclnn_renamed) / sizeof(aclnn_renamed[0]); i++)
		if (!strcmp(op_type, aclnn_renamed[i][0]))
			name = aclnn_renamed[i][1];
	snprintf(line, sizeof(line), "%d_%u:aclnn%s\n", CANN_LEVEL_ACL, ACL_ACLNN(s->naclnn), name);
	nph_append_text(s, NPH_K_TYPE, line);
	snprintf(s->aclnn[s->naclnn], sizeof(s->aclnn[0]), "%s", op_type);
	s->last_aclnn = s->naclnn;
	return ACL_ACLNN(s->naclnn++);
}

/*
 * The records of task @t (id @id) in its window [b, b + w), w >= 8. With
 * @ffts (chip 5) a MIX op is an FFTS+ task of one context, id 0: its
 * context_id_info says so, as CANN's runtime reports it.
 */
static void put_task(struct nph_sink *s, const struct nph_device *dev, uint16_t hw,
		     const struct vnpu_task *t, uint64_t id, uint32_t tid, uint64_t b, uint64_t w)
{
	bool ffts = npf_chip_has(dev->info.chip_id, NPF_CHIP_FFTS_PLUS);
	uint32_t type = t->task_type < VNPU_TASK_TYPE_COUNT ? t->task_type : VNPU_TASK_AI_CORE;
	char name[VNPU_OP_NAME_LEN], op_type[VNPU_OP_TYPE_LEN];
	struct cann_node_basic_info *nb;
	struct cann_task_track *tt;
	uint64_t op, e = b + w - 1;
	uint32_t mult;

	/* the task's strings are the caller's: NUL-terminate our copies */
	memcpy(name, t->op_name, sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memcpy(op_type, t->op_type, sizeof(op_type) - 1);
	op_type[sizeof(op_type) - 1] = '\0';
	op = nph_name_hash(s, name);
	/* the mix blocks are a multiple of the blocks: round up */
	mult = t->block_num ? (t->mix_block_num + t->block_num - 1) / t->block_num : 0;
	put_api(s, CANN_LEVEL_ACL, aclnn_type(s, op_type), tid, b, e, 0);
	put_api(s, CANN_LEVEL_NODE, CANN_NODE_LAUNCH, tid, b + 1, e - 1, op);
	if (s->level >= VNPU_PROF_L2)
		put_api(s, CANN_LEVEL_RUNTIME, RT_KERNEL_LAUNCH, tid, b + 2, e - 2, 0);

	/* L0 (ACL_PROF_TASK_TIME_L0): dispatch and execution times, no op info */
	nb = s->level >= VNPU_PROF_L1
		     ? nph_reserve(s,
				   t->flags & VNPU_TASK_F_DYNAMIC ? NPH_K_NODE_AGING : NPH_K_NODE,
				   sizeof(*nb))
		     : NULL;
	if (nb) {
		put_hdr(&nb->hdr, CANN_LEVEL_NODE, CANN_NODE_BASIC_INFO, tid,
			sizeof(*nb) - sizeof(nb->hdr), b + 3);
		nb->op_name = op;
		nb->task_type = task_types[type].ge;
		nb->op_type = nph_name_hash(s, op_type);
		nb->block_dim = (t->block_num & 0xffff) | (mult & 0xffff) << 16;
		nb->op_flag = !!(t->flags & VNPU_TASK_F_HF32);
	}
	if (s->level >= VNPU_PROF_L1)
		put_tensors(s, t, op, tid, b + 3);
	if (ffts && s->level >= VNPU_PROF_L1 &&
	    (type == VNPU_TASK_MIX_AIC || type == VNPU_TASK_MIX_AIV)) {
		struct cann_context_id_info *ci = nph_reserve(s, NPH_K_CTX_ID, sizeof(*ci));

		if (ci) {
			put_hdr(&ci->hdr, CANN_LEVEL_NODE, CANN_NODE_CONTEXT_ID_INFO, tid,
				sizeof(*ci) - sizeof(ci->hdr), b + 3);
			ci->op_name = op;
			ci->ctx_num = 1;
			ci->ctx_id[0] = 0;
		}
	}

	put_flips(s, dev, hw, (uint32_t)(id >> 16), tid, b + 3);
	tt = nph_reserve(s, NPH_K_TRACK, sizeof(*tt));
	if (tt) {
		put_hdr(&tt->hdr, CANN_LEVEL_RUNTIME, CANN_RUNTIME_TASK_TRACK, tid,
			sizeof(*tt) - sizeof(tt->hdr), b + 4);
		tt->device = (uint16_t)(dev->id & 0xfff);
		tt->stream_id = hw;
		tt->task_id = (uint16_t)(id & 0xffff);
		tt->batch_id = (uint16_t)(id >> 16);
		tt->task_type = task_types[type].rt;
		tt->kernel_name = op;
		tt->num_blocks = (uint16_t)t->block_num;
		/* msprof multiplies it back: Mix Block Num = numBlocks x ratio */
		tt->ratio_mode = (uint8_t)(mult < 7 ? mult : 7);
	}
}

/* Host ns a collective of @nids sub-tasks needs for its nested windows. */
static uint64_t collective_width(uint32_t nids)
{
	return 8 + 4 * (uint64_t)nids;
}

static uint32_t collective_nids(const struct nph_device *dev, const struct vnpu_task *t)
{
	const struct nph_comm_info *c =
		t->comm_id && t->comm_id <= NPH_MAX_COMMS ? &dev->comms[t->comm_id - 1] : NULL;

	return c && c->nranks ? vnpu_hccl_steps(t->comm_op, c->nranks) : 1;
}

/* The modelled host cost of issuing sub-task @st (id @sid), ns, 4 at least. */
static uint64_t step_cost(const struct vnpu_hccl_step *st, uint64_t sid)
{
	uint32_t k = st->kind < VNPU_HCCL_KIND_COUNT ? st->kind : VNPU_HCCL_MEMCPY;
	uint64_t c = host_cost(sid, hccl_kinds[k].cost_ns, hccl_kinds[k].spread_ns);

	return c < 4 ? 4 : c;
}

/* The modelled cost of a collective's @nids sub-tasks beyond their 4 ns each. */
static uint64_t collective_steps_cost(const struct nph_device *dev, const struct vnpu_task *t,
				      uint64_t id, const struct nph_comm_info *c, uint32_t nids)
{
	uint32_t op = t->comm_op < VNPU_COMM_OP_COUNT ? t->comm_op : VNPU_COMM_ALLREDUCE;
	struct vnpu_hccl_step st;
	uint64_t sum = 0;

	for (uint32_t i = 0; i < nids; i++) {
		vnpu_hccl_step(op, c->nranks, c->rank, t->comm_peer, t->bytes, dev->info.product, i,
			       &st);
		sum += step_cost(&st, id + i) - 4;
	}
	return sum;
}

/* The device address of @rank's HCCL buffer, as hccl_info shows it. */
static uint64_t hccl_buffer(uint32_t rank)
{
	return 0x12c000000000ull + ((uint64_t)rank << 32);
}

/* A copy's estimated time, us, at @mbps MB/s (bytes / mbps = us). */
static double copy_us(uint64_t bytes, uint32_t mbps)
{
	return mbps ? (double)bytes / mbps : 0;
}

/*
 * The records of collective @t (first sub-task id @id) in its window [b,
 * b + w), w >= collective_width(): what HCCL writes (msprof-sample-hccl).
 * In the AscendCL Hccl* event, the node launch window; in it the op's
 * node_basic_info and hccl_op_info, then per sub-task a 5500 "master"
 * window holding its task_track and hccl_info. Without the communicator
 * (a handle the library did not make) only the ACL and node windows.
 */
static void put_collective(struct nph_sink *s, const struct nph_device *dev, uint16_t hw,
			   const struct vnpu_task *t, uint64_t id, uint32_t tid, uint64_t b,
			   uint64_t w)
{
	const struct nph_comm_info *c =
		t->comm_id && t->comm_id <= NPH_MAX_COMMS ? &dev->comms[t->comm_id - 1] : NULL;
	uint32_t op = t->comm_op < VNPU_COMM_OP_COUNT ? t->comm_op : VNPU_COMM_ALLREDUCE;
	uint32_t dt = t->n_inputs ? t->tensors[0].dtype : VNPU_DT_FLOAT16;
	uint32_t nids;
	char name[VNPU_OP_NAME_LEN], op_type[VNPU_OP_TYPE_LEN], tag[96];
	uint64_t opn, group, ccl_tag, e = b + w - 1, x, xw, want, room;
	struct cann_hccl_op_info *oi;
	struct cann_node_basic_info *nb;
	uint32_t esize;

	if (dt >= VNPU_DT_COUNT)
		dt = VNPU_DT_FLOAT16;
	esize = npuprof_dtype_size(dt) ? npuprof_dtype_size(dt) : 2;
	memcpy(name, t->op_name, sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memcpy(op_type, t->op_type, sizeof(op_type) - 1);
	op_type[sizeof(op_type) - 1] = '\0';
	opn = nph_name_hash(s, name);
	put_api(s, CANN_LEVEL_ACL, ACL_HCCL(op), tid, b, e, opn);
	put_api(s, CANN_LEVEL_NODE, CANN_NODE_LAUNCH, tid, b + 1, e - 1, opn);
	if (!c || !c->nranks)
		return;
	group = nph_name_hash(s, c->group);
	snprintf(tag, sizeof(tag), "%s_%s", hccl_ops[op].tag, c->group);
	ccl_tag = nph_name_hash(s, tag);
	/* L0 (ACL_PROF_TASK_TIME_L0) has no op info: no node_basic_info, no hccl records */
	nb = s->level >= VNPU_PROF_L1 ? nph_reserve(s, NPH_K_NODE, sizeof(*nb)) : NULL;
	if (nb) {
		put_hdr(&nb->hdr, CANN_LEVEL_NODE, CANN_NODE_BASIC_INFO, tid,
			sizeof(*nb) - sizeof(nb->hdr), b + 2);
		nb->op_name = opn;
		nb->task_type = CANN_GE_HCCL;
		nb->op_type = nph_name_hash(s, op_type);
	}
	oi = s->level >= VNPU_PROF_L1 ? nph_reserve(s, NPH_K_HCCL_OP, sizeof(*oi)) : NULL;
	if (oi) {
		put_hdr(&oi->hdr, CANN_LEVEL_NODE, CANN_NODE_HCCL_OP_INFO, tid,
			sizeof(*oi) - sizeof(oi->hdr), b + 3);
		oi->data_type = hccl_dtype[dt];
		oi->alg_type = nph_name_hash(s, "RING-NA-NA-NA");
		oi->count = t->bytes / esize;
		oi->group_name = group;
	}
	nids = vnpu_hccl_steps(op, c->nranks);
	/*
	 * the sub-tasks' windows after the op's own 4 ns, each its modelled
	 * cost, all of them scaled down (to 4 ns at least) when the window
	 * is narrower than their sum
	 */
	want = collective_steps_cost(dev, t, id, c, nids);
	room = w > 8 + 4ull * nids ? w - 8 - 4ull * nids : 0;
	x = b + 4;
	for (uint32_t i = 0; i < nids; i++, x += xw) {
		uint64_t sid = id + i;
		struct vnpu_hccl_step st;
		struct cann_task_track *tt;
		struct cann_hccl_info *hi;
		bool copy;

		vnpu_hccl_step(op, c->nranks, c->rank, t->comm_peer, t->bytes, dev->info.product, i,
			       &st);
		copy = st.kind == VNPU_HCCL_MEMCPY || st.kind == VNPU_HCCL_REDUCE_INLINE;
		xw = step_cost(&st, sid);
		xw = 4 +
		     (want > room ? (uint64_t)((unsigned __int128)(xw - 4) * room / want) : xw - 4);
		put_api(s, CANN_LEVEL_HCCL, CANN_HCCL_MASTER, tid, x, x + xw - 1,
			nph_name_hash(s, hccl_kinds[st.kind].name));
		put_flips(s, dev, hw, (uint32_t)(sid >> 16), tid, x + 1);
		tt = nph_reserve(s, NPH_K_TRACK, sizeof(*tt));
		if (tt) {
			put_hdr(&tt->hdr, CANN_LEVEL_RUNTIME, CANN_RUNTIME_TASK_TRACK, tid,
				sizeof(*tt) - sizeof(tt->hdr), x + 1);
			tt->device = (uint16_t)(dev->id & 0xfff);
			tt->stream_id = hw;
			tt->task_id = (uint16_t)(sid & 0xffff);
			tt->batch_id = (uint16_t)(sid >> 16);
			tt->task_type = hccl_kinds[st.kind].rt;
		}
		hi = s->level >= VNPU_PROF_L1 ? nph_reserve(s, NPH_K_HCCL_INFO, sizeof(*hi)) : NULL;
		if (!hi)
			continue;
		put_hdr(&hi->hdr, CANN_LEVEL_HCCL, CANN_HCCL_INFO, tid,
			sizeof(*hi) - sizeof(hi->hdr), x + 2);
		hi->item_id = nph_name_hash(s, hccl_kinds[st.kind].name);
		hi->ccl_tag = ccl_tag;
		hi->group_name = group;
		hi->local_rank = c->rank;
		hi->remote_rank = st.remote;
		hi->rank_size = c->nranks;
		hi->work_flow_mode = 1;
		hi->context_id = UINT32_MAX;
		/* a notify's id: the pair of ranks and the step, as HCCL numbers its own */
		hi->notify_id = copy ? UINT64_MAX : (uint64_t)st.remote << 8 | (i & 0xff);
		hi->stage = UINT32_MAX;
		hi->role = st.kind == VNPU_HCCL_NOTIFY_RECORD;
		hi->duration_estimated =
			!copy ? 0
			      : copy_us(st.bytes,
					st.link == VNPU_LINK_ON_CHIP
						? vnpu_hccl_local_mbps(dev->info.hbm_bw_mbps,
								       dev->info.link_bw_mbps)
						: dev->info.link_bw_mbps);
		/*
		 * the HCCL buffers: one per rank, in a device address space of its
		 * own; a collective's copies pull from the remote, a Send's push
		 */
		hi->src_addr =
			copy ? hccl_buffer(op == VNPU_COMM_SEND ? c->rank : st.remote) : UINT32_MAX;
		hi->dst_addr =
			copy ? hccl_buffer(op == VNPU_COMM_SEND ? st.remote : c->rank) : UINT32_MAX;
		hi->data_size = st.bytes;
		hi->op_type = st.reduce ? 0 : 255;
		hi->data_type = copy ? hccl_dtype[dt] : 255;
		hi->link_type = st.link;
		hi->transport_type = 0;
		hi->rdma_type = 255;
	}
}

/* The narrowest window a task's records fit in (put_task, put_collective). */
static uint64_t launch_width(const struct nph_device *dev, const struct vnpu_task *t)
{
	return t->task_type == VNPU_TASK_COMMUNICATION ? collective_width(collective_nids(dev, t))
						       : 8;
}

/* The window the host's launch of @t (id @id) takes, modelled, ns. */
static uint64_t launch_cost(const struct nph_device *dev, const struct vnpu_task *t, uint64_t id)
{
	const struct nph_comm_info *c =
		t->comm_id && t->comm_id <= NPH_MAX_COMMS ? &dev->comms[t->comm_id - 1] : NULL;
	uint64_t w;

	if (t->task_type != VNPU_TASK_COMMUNICATION)
		return host_cost(id, LAUNCH_COST_NS, LAUNCH_SPREAD_NS);
	w = launch_width(dev, t) + host_cost(id, HCCL_OP_COST_NS, HCCL_OP_SPREAD_NS);
	if (c && c->nranks)
		w += collective_steps_cost(dev, t, id, c, collective_nids(dev, t));
	return w;
}

void nph_launch_record(const struct nph_device *dev, const struct vnpu_task *tasks, unsigned int n,
		       const uint64_t *ids, uint64_t start_ns, uint64_t submit_ns)
{
	uint64_t end_ns, need = 0, want = 0, lo, room, extra;
	struct nph_sink *s;
	uint32_t tid;

	if (!start_ns || !nph_recording())
		return;
	end_ns = submit_ns ? submit_ns : npx_now_ns();
	tid = nph_this_tid();
	s = nph_sink_lock();
	if (!s)
		return;
	if (!ids) {
		nph_sink_unlock(s);
		nph_api_record(NPF_API_LAUNCH, start_ns, 0, 0);
		return;
	}
	/*
	 * n windows, each task's records in its own, ending at the device's
	 * submission stamp, so that every task's launch comes before its
	 * start (a HostToDevice flow never points back). Each is its launch's
	 * modelled cost (CANN's, not the dev VM's emulated call), as far as
	 * the thread's previous record leaves room: else they are narrowed
	 * toward their narrowest, and begin before that record only when
	 * even those do not fit.
	 */
	for (unsigned int i = 0; i < n; i++) {
		need += launch_width(dev, &tasks[i]);
		want += launch_cost(dev, &tasks[i], ids[i]);
	}
	lo = thread_last_end > end_ns ? end_ns : thread_last_end;
	room = end_ns - lo;
	if (room >= want) {
		start_ns = end_ns - want;
		extra = want - need;
	} else if (room >= need) {
		start_ns = lo;
		extra = room - need;
	} else {
		start_ns = end_ns > need ? end_ns - need : 0;
		extra = 0;
	}
	for (unsigned int i = 0; i < n; i++) {
		uint32_t st = tasks[i].stream_id;
		uint16_t hw = st < dev->info.max_streams ? dev->hw_stream[st] : NPH_NO_HW_STREAM;
		bool coll = tasks[i].task_type == VNPU_TASK_COMMUNICATION;
		uint64_t wmin = launch_width(dev, &tasks[i]), wi = wmin;

		/* its share of the room above the narrowest, by its modelled cost */
		if (want > need)
			wi += (uint64_t)((unsigned __int128)(launch_cost(dev, &tasks[i], ids[i]) -
							     wmin) *
					 extra / (want - need));
		if (hw != NPH_NO_HW_STREAM && coll)
			put_collective(s, dev, hw, &tasks[i], ids[i], tid, start_ns, wi);
		else if (hw != NPH_NO_HW_STREAM)
			put_task(s, dev, hw, &tasks[i], ids[i], tid, start_ns, wi);
		/* else not a stream of ours: the device ran nothing */
		start_ns += wi;
	}
	thread_last_end = start_ns;
	nph_sink_unlock(s);
}

/* type_info_dic: the names of the record types the sink writes */
void nph_put_type_names(struct nph_sink *s)
{
	static const char *const node_types[] = {
		[CANN_NODE_BASIC_INFO] = "node_basic_info",
		[CANN_NODE_TENSOR_INFO] = "tensor_info",
		[CANN_NODE_CONTEXT_ID_INFO] = "context_id_info",
		[CANN_NODE_LAUNCH] = "launch",
	};
	char line[64];

	for (size_t i = 0; i < sizeof(node_types) / sizeof(node_types[0]); i++) {
		if (!node_types[i])
			continue;
		snprintf(line, sizeof(line), "%d_%zu:%s\n", CANN_LEVEL_NODE, i, node_types[i]);
		nph_append_text(s, NPH_K_TYPE, line);
	}
	for (size_t i = 0; i < sizeof(rt_task_types) / sizeof(rt_task_types[0]); i++) {
		snprintf(line, sizeof(line), "%d_%u:%s\n", CANN_LEVEL_RUNTIME,
			 rt_task_types[i].type, rt_task_types[i].name);
		nph_append_text(s, NPH_K_TYPE, line);
	}
	for (int a = 0; a < NPF_API_COUNT; a++) {
		snprintf(line, sizeof(line), "%d_%u:%s\n", CANN_LEVEL_ACL, api_names[a].acl_type,
			 api_names[a].acl);
		nph_append_text(s, NPH_K_TYPE, line);
		snprintf(line, sizeof(line), "%d_%d:%s\n", CANN_LEVEL_RUNTIME, RT_API_BASE + a,
			 api_names[a].rt);
		nph_append_text(s, NPH_K_TYPE, line);
	}
	snprintf(line, sizeof(line), "%d_%d:hccl_op_info\n", CANN_LEVEL_NODE,
		 CANN_NODE_HCCL_OP_INFO);
	nph_append_text(s, NPH_K_TYPE, line);
	snprintf(line, sizeof(line), "%d_%d:master\n", CANN_LEVEL_HCCL, CANN_HCCL_MASTER);
	nph_append_text(s, NPH_K_TYPE, line);
	snprintf(line, sizeof(line), "%d_%d:hccl_info\n", CANN_LEVEL_HCCL, CANN_HCCL_INFO);
	nph_append_text(s, NPH_K_TYPE, line);
	for (int op = 0; op < VNPU_COMM_OP_COUNT; op++) {
		snprintf(line, sizeof(line), "%d_%u:%s\n", CANN_LEVEL_ACL, ACL_HCCL(op),
			 hccl_ops[op].api);
		nph_append_text(s, NPH_K_TYPE, line);
	}
}
