// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A small transformer block on virtual NPUs with an AllReduce per layer.
 * The sample workload of `make demo`. Two ways to run it:
 *
 *  - one process per rank, as distributed training runs (tensor
 *    parallel: each rank holds its share of the heads and of the FFN, and
 *    the AllReduce sums the partial outputs), when RANK_SIZE is set:
 *
 *	npuprof run --ranks 2 -- transformer [LAYERS]
 *
 *    Each rank opens device ASCEND_DEVICE_ID (else RANK_ID) and joins the
 *    job's communicator with npuprof_comm_init_ranks(); each writes its
 *    own PROF_* folder, with its rank_id;
 *  - one process driving DEVICES devices (data parallel), without it:
 *
 *	transformer [LAYERS [DEVICES]]   (default 4 layers, 2 devices)
 *
 * Run it under global profiling (npuprof run, or PROFILING_MODE=true with
 * PROFILING_OPTIONS) to profile its devices.
 */
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "npuprof.h"

#define SEQ 512
#define HIDDEN 1024
#define FFN 4096
#define HEADS 16

struct worker {
	struct npuprof_dev *dev;
	uint32_t stream;
	uint32_t comm; /* its handle of the group of every device */
};

static int check(int ret, const struct npuprof_error *err)
{
	if (ret)
		fprintf(stderr, "transformer: %s\n", err->msg);
	return ret;
}

/* One layer on one device; the ops as a framework would launch them. */
static int layer(struct worker *w, int l, unsigned int batch)
{
	uint64_t act[3] = { batch, SEQ, HIDDEN }, ffn[3] = { batch, SEQ, FFN };
	uint64_t scores[4] = { batch, HEADS, SEQ, SEQ }, seeds[2] = { batch, HEADS };
	uint64_t rows = (uint64_t)batch * SEQ;
	struct vnpu_task t[13];
	struct npuprof_error err;
	char name[13][48];
	int n = 0, ret = 0;

	npuprof_set_current(w->dev);
	for (int i = 0; i < 13; i++)
		snprintf(name[i], sizeof(name[i]), "layer%d/op%d", l, i);
	snprintf(name[0], 48, "layer%d/attn/LayerNorm", l);
	ret |= npuprof_op_layernorm(w->dev, &t[n++], name[0], w->stream, 3, act, VNPU_DT_FLOAT16);
	snprintf(name[1], 48, "layer%d/attn/qkv/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[1], w->stream, rows, HIDDEN, 3 * HIDDEN,
				 VNPU_DT_FLOAT16);
	snprintf(name[2], 48, "layer%d/attn/scores/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[2], w->stream, rows * HEADS, HIDDEN / HEADS,
				 SEQ, VNPU_DT_FLOAT16);
	snprintf(name[3], 48, "layer%d/attn/SoftmaxV2", l);
	ret |= npuprof_op_softmax(w->dev, &t[n++], name[3], w->stream, 4, scores, VNPU_DT_FLOAT16);
	/* the dropout mask's seeds are drawn on the AI CPU, as CANN runs DropOutGenMask */
	snprintf(name[12], 48, "layer%d/attn/DropOutGenMask", l);
	ret |= npuprof_op_relu(w->dev, &t[n], name[12], w->stream, 2, seeds, VNPU_DT_UINT8);
	snprintf(t[n].op_type, sizeof(t[n].op_type), "DropOutGenMask");
	t[n].task_type = VNPU_TASK_AI_CPU;
	t[n++].block_num = 1;
	snprintf(name[4], 48, "layer%d/attn/context/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[4], w->stream, rows * HEADS, SEQ,
				 HIDDEN / HEADS, VNPU_DT_FLOAT16);
	snprintf(name[5], 48, "layer%d/attn/out/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[5], w->stream, rows, HIDDEN, HIDDEN,
				 VNPU_DT_FLOAT16);
	snprintf(name[6], 48, "layer%d/attn/residual/Add", l);
	ret |= npuprof_op_add(w->dev, &t[n++], name[6], w->stream, 3, act, VNPU_DT_FLOAT16);
	snprintf(name[7], 48, "layer%d/ffn/LayerNorm", l);
	ret |= npuprof_op_layernorm(w->dev, &t[n++], name[7], w->stream, 3, act, VNPU_DT_FLOAT16);
	snprintf(name[8], 48, "layer%d/ffn/up/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[8], w->stream, rows, HIDDEN, FFN,
				 VNPU_DT_FLOAT16);
	snprintf(name[9], 48, "layer%d/ffn/Relu", l);
	ret |= npuprof_op_relu(w->dev, &t[n++], name[9], w->stream, 3, ffn, VNPU_DT_FLOAT16);
	snprintf(name[10], 48, "layer%d/ffn/down/MatMul", l);
	ret |= npuprof_op_matmul(w->dev, &t[n++], name[10], w->stream, rows, FFN, HIDDEN,
				 VNPU_DT_FLOAT16);
	snprintf(name[11], 48, "layer%d/grad/hcom_allReduce", l);
	ret |= npuprof_op_allreduce(w->dev, &t[n++], name[11], w->stream, w->comm, (uint32_t)l,
				    (uint64_t)HIDDEN * FFN, VNPU_DT_FLOAT16);
	if (ret) {
		fprintf(stderr, "transformer: cannot build the ops of layer %d\n", l);
		return ret;
	}
	return check(npuprof_launch(w->dev, t, (unsigned int)n, NULL, &err), &err);
}

/*
 * One rank of a multi-process job: its device, the job's communicator.
 * TRANSFORMER_SLOW_RANK=r gives rank r three times the batch (unequal
 * work), so that the others wait for it at every AllReduce.
 * TRANSFORMER_SLEEP_RANK=r:ms makes rank r's host sleep ms milliseconds
 * before it launches each layer (a slow data loader): the others' devices
 * wait for it at every AllReduce, in their first Notify_Wait.
 * TRANSFORMER_DIE_RANK=r makes rank r crash (SIGKILL) once its first layer
 * is done: the others' next AllReduce is aborted, which their sync says.
 */
static int run_rank(int layers)
{
	const char *dev_env = getenv("ASCEND_DEVICE_ID"), *slow = getenv("TRANSFORMER_SLOW_RANK");
	const char *die = getenv("TRANSFORMER_DIE_RANK"), *sleep = getenv("TRANSFORMER_SLEEP_RANK");
	unsigned int batch = 2, sleep_rank = UINT32_MAX, sleep_ms = 0;
	struct npuprof_error err;
	struct worker w;
	uint32_t rank, nranks;
	int ret;

	if (!dev_env || !*dev_env)
		dev_env = getenv("RANK_ID");
	if (!dev_env || !*dev_env) {
		fprintf(stderr, "transformer: RANK_SIZE is set but not RANK_ID\n");
		return 2;
	}
	if (check(npuprof_open((unsigned int)atoi(dev_env), &w.dev, &err), &err) ||
	    check(npuprof_stream_create(w.dev, &w.stream, &err), &err) ||
	    check(npuprof_comm_init_ranks(w.dev, 60000, &w.comm, &rank, &nranks, &err), &err))
		return 1;
	if (slow && *slow && (uint32_t)atoi(slow) == rank)
		batch = 6;
	if (sleep && sscanf(sleep, "%u:%u", &sleep_rank, &sleep_ms) != 2) {
		fprintf(stderr, "transformer: TRANSFORMER_SLEEP_RANK=%s: not RANK:MS\n", sleep);
		npuprof_close(w.dev);
		return 2;
	}
	ret = 0;
	for (int l = 0; l < layers && !ret; l++) {
		if (sleep_rank == rank)
			usleep(sleep_ms * 1000u);
		ret = layer(&w, l, batch);
		if (!ret && die && *die && (uint32_t)atoi(die) == rank) {
			ret = check(npuprof_sync(w.dev, w.stream, 60000, &err), &err);
			fprintf(stderr, "transformer: rank %u crashes after layer %d\n", rank, l);
			raise(SIGKILL);
		}
	}
	if (!ret)
		ret = check(npuprof_sync(w.dev, w.stream, 60000, &err), &err);
	npuprof_close(w.dev);
	if (!ret)
		printf("transformer: rank %u of %u: %d layers done\n", rank, nranks, layers);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	int layers = argc > 1 ? atoi(argv[1]) : 4;
	int ndev = argc > 2 ? atoi(argv[2]) : 2;
	struct worker w[VNPU_MAX_DEVICES];
	struct npuprof_comm_key key;
	struct npuprof_error err;
	int ret = 0;

	if (layers < 1 || layers > 1000 || ndev < 2 || ndev > VNPU_MAX_DEVICES) {
		fprintf(stderr, "usage: transformer [LAYERS (1..1000) [DEVICES (2..16)]]\n");
		return 2;
	}
	if (getenv("RANK_SIZE"))
		return run_rank(layers);
	for (int d = 0; d < ndev; d++) {
		if (check(npuprof_open((unsigned int)d, &w[d].dev, &err), &err) ||
		    check(npuprof_stream_create(w[d].dev, &w[d].stream, &err), &err))
			return 1;
	}
	/* one group of every device, rank d on device d, as hcom's world group */
	if (check(npuprof_comm_create(w[0].dev, (uint32_t)ndev, 0, &key, &w[0].comm, &err), &err))
		return 1;
	for (int d = 1; d < ndev; d++)
		if (check(npuprof_comm_join(w[d].dev, &key, (uint32_t)ndev, (uint32_t)d, &w[d].comm,
					    &err),
			  &err))
			return 1;
	/* every device queues its layers; the AllReduces meet on the devices */
	for (int l = 0; l < layers && !ret; l++)
		for (int d = 0; d < ndev && !ret; d++)
			ret = layer(&w[d], l, 2);
	for (int d = 0; d < ndev && !ret; d++)
		ret = check(npuprof_sync(w[d].dev, w[d].stream, 60000, &err), &err);
	for (int d = 0; d < ndev; d++)
		npuprof_close(w[d].dev);
	if (!ret)
		printf("transformer: %d layers on %d devices done\n", layers, ndev);
	return ret ? 1 : 0;
}
