// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnpuprof: operator builders - fill a struct vnpu_task with the shapes,
 * the task type and the work (FLOPs, bytes) of common operators.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "npuprof.h"
#include "runtime/runtime.h"
#include "hostrec/hostrec.h"

static int task_init(struct vnpu_task *t, const char *name, const char *type, uint32_t task_type,
		     uint32_t stream)
{
	if (!t || !name || !*name)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	if (strlen(name) >= sizeof(t->op_name))
		return -ENAMETOOLONG;
	strcpy(t->op_name, name);
	strcpy(t->op_type, type);
	t->task_type = task_type;
	t->stream_id = stream;
	t->block_num = 1;
	return 0;
}

static int add_tensor(struct vnpu_task *t, int output, enum vnpu_dtype dtype,
		      enum vnpu_format format, unsigned int ndims, const uint64_t *dims)
{
	struct vnpu_tensor *x;

	if (t->n_inputs + t->n_outputs >= VNPU_MAX_TENSORS || ndims > VNPU_MAX_DIMS ||
	    !npuprof_dtype_size(dtype))
		return -EINVAL;
	x = &t->tensors[t->n_inputs + t->n_outputs];
	x->dtype = dtype;
	x->format = format;
	x->ndims = ndims;
	for (unsigned int i = 0; i < ndims; i++) {
		if (!dims[i])
			return -EINVAL;
		x->dims[i] = dims[i];
	}
	if (output)
		t->n_outputs++;
	else
		t->n_inputs++;
	return 0;
}

static uint64_t elems(unsigned int ndims, const uint64_t *dims)
{
	uint64_t n = 1;

	for (unsigned int i = 0; i < ndims; i++)
		n *= dims[i];
	return n;
}

/* Enough blocks to keep up to all cores of @cores busy with @work units. */
static uint32_t blocks_for(uint64_t work, uint64_t per_block, uint32_t cores)
{
	uint64_t b = (work + per_block - 1) / per_block;

	if (b < 1)
		b = 1;
	if (cores && b > cores)
		b = cores;
	return (uint32_t)b;
}

/* The core type element-wise work goes to on @dev's product (NULL: AI Core). */
static uint32_t vector_type(const struct npuprof_dev *dev)
{
	return dev && dev->rec.info.aiv_num ? VNPU_TASK_AI_VECTOR_CORE : VNPU_TASK_AI_CORE;
}

/* The cores of @task_type on @dev (NULL: 8, a size that suits any product). */
static uint32_t cores_of(const struct npuprof_dev *dev, uint32_t task_type)
{
	if (!dev)
		return 8;
	return task_type == VNPU_TASK_AI_VECTOR_CORE ? dev->rec.info.aiv_num
						     : dev->rec.info.aic_num;
}

NPUPROF_API int npuprof_op_matmul(const struct npuprof_dev *dev, struct vnpu_task *t,
				  const char *name, uint32_t stream, uint64_t m, uint64_t k,
				  uint64_t n, enum vnpu_dtype dtype)
{
	uint64_t a[2] = { m, k }, b[2] = { k, n }, c[2] = { m, n };
	int ret = task_init(t, name, "MatMul", VNPU_TASK_AI_CORE, stream);

	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_ND, 2, a);
	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_ND, 2, b);
	if (!ret)
		ret = add_tensor(t, 1, dtype, VNPU_FMT_ND, 2, c);
	if (ret)
		return ret;
	t->flops = 2 * m * k * n;
	/* one block per 128x128 output tile, at most the cube cores */
	t->block_num = blocks_for(((m + 127) / 128) * ((n + 127) / 128), 1,
				  cores_of(dev, VNPU_TASK_AI_CORE));
	if (dtype == VNPU_DT_FLOAT)
		t->flags |= VNPU_TASK_F_HF32;
	return 0;
}

/* An element-wise op with @nin inputs of shape @dims and @flops_per per element. */
static int eltwise(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		   const char *type, uint32_t stream, unsigned int ndims, const uint64_t *dims,
		   enum vnpu_dtype dtype, unsigned int nin, unsigned int flops_per)
{
	uint32_t tt = vector_type(dev);
	int ret = task_init(t, name, type, tt, stream);

	for (unsigned int i = 0; !ret && i < nin; i++)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_ND, ndims, dims);
	if (!ret)
		ret = add_tensor(t, 1, dtype, VNPU_FMT_ND, ndims, dims);
	if (ret)
		return ret;
	t->flops = elems(ndims, dims) * flops_per;
	t->block_num = blocks_for(elems(ndims, dims), 16384, cores_of(dev, tt));
	return 0;
}

NPUPROF_API int npuprof_op_add(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			       uint32_t stream, unsigned int ndims, const uint64_t *dims,
			       enum vnpu_dtype dtype)
{
	return eltwise(dev, t, name, "Add", stream, ndims, dims, dtype, 2, 1);
}

NPUPROF_API int npuprof_op_mul(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
			       uint32_t stream, unsigned int ndims, const uint64_t *dims,
			       enum vnpu_dtype dtype)
{
	return eltwise(dev, t, name, "Mul", stream, ndims, dims, dtype, 2, 1);
}

NPUPROF_API int npuprof_op_relu(const struct npuprof_dev *dev, struct vnpu_task *t,
				const char *name, uint32_t stream, unsigned int ndims,
				const uint64_t *dims, enum vnpu_dtype dtype)
{
	return eltwise(dev, t, name, "Relu", stream, ndims, dims, dtype, 1, 1);
}

NPUPROF_API int npuprof_op_softmax(const struct npuprof_dev *dev, struct vnpu_task *t,
				   const char *name, uint32_t stream, unsigned int ndims,
				   const uint64_t *dims, enum vnpu_dtype dtype)
{
	/* max, sub, exp, sum, div */
	return eltwise(dev, t, name, "SoftmaxV2", stream, ndims, dims, dtype, 1, 5);
}

NPUPROF_API int npuprof_op_layernorm(const struct npuprof_dev *dev, struct vnpu_task *t,
				     const char *name, uint32_t stream, unsigned int ndims,
				     const uint64_t *dims, enum vnpu_dtype dtype)
{
	uint64_t last = ndims ? dims[ndims - 1] : 1;
	int ret = eltwise(dev, t, name, "LayerNorm", stream, ndims, dims, dtype, 1, 8);

	/* gamma and beta */
	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_ND, 1, &last);
	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_ND, 1, &last);
	if (!ret) {
		/* inputs before outputs: move the output behind the new inputs */
		struct vnpu_tensor out = t->tensors[1];

		t->tensors[1] = t->tensors[2];
		t->tensors[2] = t->tensors[3];
		t->tensors[3] = out;
		t->n_inputs = 3;
		t->n_outputs = 1;
	}
	return ret;
}

NPUPROF_API int npuprof_op_conv2d(const struct npuprof_dev *dev, struct vnpu_task *t,
				  const char *name, uint32_t stream, const uint64_t nchw[4],
				  const uint64_t filter[4], enum vnpu_dtype dtype)
{
	uint64_t out[4] = { nchw[0], filter[0], nchw[2], nchw[3] };
	int ret = task_init(t, name, "Conv2D", VNPU_TASK_AI_CORE, stream);

	if (!ret && filter[1] != nchw[1])
		ret = -EINVAL;
	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_NCHW, 4, nchw);
	if (!ret)
		ret = add_tensor(t, 0, dtype, VNPU_FMT_FRACTAL_Z, 4, filter);
	if (!ret)
		ret = add_tensor(t, 1, dtype, VNPU_FMT_NCHW, 4, out);
	if (ret)
		return ret;
	t->flops = 2 * elems(4, out) * filter[1] * filter[2] * filter[3];
	t->block_num = blocks_for(elems(4, out), 65536, cores_of(dev, VNPU_TASK_AI_CORE));
	return 0;
}

/*
 * A COMMUNICATION task of @op: @n elements of @dtype per rank on handle
 * @comm, with @peer (Send, Recv: the other rank; Broadcast: the root).
 * GE's op type of the HCCL node is op_summary's OP Type.
 */
static int comm_task(const struct npuprof_dev *dev, struct vnpu_task *t, const char *name,
		     const char *type, uint32_t op, uint32_t stream, uint32_t comm, uint32_t tag,
		     uint32_t peer, uint64_t n, enum vnpu_dtype dtype)
{
	int ret = task_init(t, name, type, VNPU_TASK_COMMUNICATION, stream);

	if (ret)
		return ret;
	/* a handle @dev can have (its existence is the device's to check) */
	if (!comm || (dev && comm > dev->rec.info.max_comms))
		return -EINVAL;
	if (!npuprof_dtype_size(dtype))
		return -EINVAL;
	/* a rank a communicator can have (that it has, the device checks) */
	if (peer >= VNPU_MAX_DEVICES)
		return -EINVAL;
	/* the buffer, for its data type (hccl_op_info's dataType and count) */
	if (n && add_tensor(t, 0, dtype, VNPU_FMT_ND, 1, &n))
		return -EINVAL;
	t->comm_op = op;
	t->comm_id = comm;
	t->comm_tag = tag;
	t->comm_peer = peer;
	t->bytes = n * npuprof_dtype_size(dtype);
	/* the reductions' one operation per element */
	t->flops = op == VNPU_COMM_ALLREDUCE || op == VNPU_COMM_REDUCESCATTER ? n : 0;
	return 0;
}

NPUPROF_API int npuprof_op_allreduce(const struct npuprof_dev *dev, struct vnpu_task *t,
				     const char *name, uint32_t stream, uint32_t comm, uint32_t tag,
				     uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomAllReduce", VNPU_COMM_ALLREDUCE, stream, comm, tag, 0,
			 n, dtype);
}

NPUPROF_API int npuprof_op_allgather(const struct npuprof_dev *dev, struct vnpu_task *t,
				     const char *name, uint32_t stream, uint32_t comm, uint32_t tag,
				     uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomAllGather", VNPU_COMM_ALLGATHER, stream, comm, tag, 0,
			 n, dtype);
}

NPUPROF_API int npuprof_op_reducescatter(const struct npuprof_dev *dev, struct vnpu_task *t,
					 const char *name, uint32_t stream, uint32_t comm,
					 uint32_t tag, uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomReduceScatter", VNPU_COMM_REDUCESCATTER, stream, comm,
			 tag, 0, n, dtype);
}

NPUPROF_API int npuprof_op_broadcast(const struct npuprof_dev *dev, struct vnpu_task *t,
				     const char *name, uint32_t stream, uint32_t comm, uint32_t tag,
				     uint32_t root, uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomBroadcast", VNPU_COMM_BROADCAST, stream, comm, tag,
			 root, n, dtype);
}

NPUPROF_API int npuprof_op_send(const struct npuprof_dev *dev, struct vnpu_task *t,
				const char *name, uint32_t stream, uint32_t comm, uint32_t tag,
				uint32_t dst, uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomSend", VNPU_COMM_SEND, stream, comm, tag, dst, n,
			 dtype);
}

NPUPROF_API int npuprof_op_recv(const struct npuprof_dev *dev, struct vnpu_task *t,
				const char *name, uint32_t stream, uint32_t comm, uint32_t tag,
				uint32_t src, uint64_t n, enum vnpu_dtype dtype)
{
	return comm_task(dev, t, name, "HcomReceive", VNPU_COMM_RECV, stream, comm, tag, src, n,
			 dtype);
}
