// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every HCCL operation the runtime has, on every rank of a job: AllReduce,
 * AllGather, ReduceScatter, Broadcast, and a ring exchange of Send and
 * Recv (rank r sends to r + 1 and receives from r - 1), ROUNDS times, with
 * a MatMul between them so that computation and communication alternate
 * on the timeline. One process per rank:
 *
 *	npuprof run --ranks N -- collectives [ROUNDS]   (default 2)
 *
 * Each rank opens device ASCEND_DEVICE_ID (else RANK_ID), joins the job's
 * communicator with npuprof_comm_init_ranks() and queues everything on one
 * stream, as HCCL issues a group's operations in order. The exchange
 * cannot deadlock on in-order streams: even ranks send first, odd ranks
 * receive first.
 */
#include <stdio.h>
#include <stdlib.h>

#include "npuprof.h"

#define ELEMS (1u << 20) /* per rank, fp16: 2 MiB */

static int check(int ret, const struct npuprof_error *err)
{
	if (ret)
		fprintf(stderr, "collectives: %s\n", err->msg);
	return ret;
}

/* One round on rank @rank of @nranks: the ops as a framework would launch them. */
static int round_of(struct npuprof_dev *dev, uint32_t stream, uint32_t comm, uint32_t rank,
		    uint32_t nranks, int k)
{
	uint32_t next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
	struct vnpu_task t[8];
	struct npuprof_error err;
	char name[8][48];
	int n = 0, ret = 0;

	for (int i = 0; i < 8; i++)
		snprintf(name[i], sizeof(name[i]), "round%d/op%d", k, i);
	snprintf(name[0], 48, "round%d/MatMul", k);
	ret |= npuprof_op_matmul(dev, &t[n++], name[0], stream, 1024, 1024, 1024, VNPU_DT_FLOAT16);
	snprintf(name[1], 48, "round%d/hcom_allReduce", k);
	ret |= npuprof_op_allreduce(dev, &t[n++], name[1], stream, comm, (uint32_t)k, ELEMS,
				    VNPU_DT_FLOAT16);
	snprintf(name[2], 48, "round%d/hcom_allGather", k);
	ret |= npuprof_op_allgather(dev, &t[n++], name[2], stream, comm, (uint32_t)k,
				    (uint64_t)ELEMS * nranks, VNPU_DT_FLOAT16);
	snprintf(name[3], 48, "round%d/hcom_reduceScatter", k);
	ret |= npuprof_op_reducescatter(dev, &t[n++], name[3], stream, comm, (uint32_t)k,
					(uint64_t)ELEMS * nranks, VNPU_DT_FLOAT16);
	snprintf(name[4], 48, "round%d/hcom_broadcast", k);
	ret |= npuprof_op_broadcast(dev, &t[n++], name[4], stream, comm, (uint32_t)k, 0, ELEMS,
				    VNPU_DT_FLOAT16);
	snprintf(name[5], 48, "round%d/Add", k);
	ret |= npuprof_op_add(dev, &t[n++], name[5], stream, 1, (uint64_t[]){ ELEMS },
			      VNPU_DT_FLOAT16);
	snprintf(name[6], 48, "round%d/hcom_send", k);
	snprintf(name[7], 48, "round%d/hcom_receive", k);
	if (rank % 2 == 0) {
		ret |= npuprof_op_send(dev, &t[n++], name[6], stream, comm, (uint32_t)k, next,
				       ELEMS, VNPU_DT_FLOAT16);
		ret |= npuprof_op_recv(dev, &t[n++], name[7], stream, comm, (uint32_t)k, prev,
				       ELEMS, VNPU_DT_FLOAT16);
	} else {
		ret |= npuprof_op_recv(dev, &t[n++], name[7], stream, comm, (uint32_t)k, prev,
				       ELEMS, VNPU_DT_FLOAT16);
		ret |= npuprof_op_send(dev, &t[n++], name[6], stream, comm, (uint32_t)k, next,
				       ELEMS, VNPU_DT_FLOAT16);
	}
	if (ret) {
		fprintf(stderr, "collectives: cannot build the ops of round %d\n", k);
		return ret;
	}
	return check(npuprof_launch(dev, t, (unsigned int)n, NULL, &err), &err);
}

int main(int argc, char **argv)
{
	const char *dev_env = getenv("ASCEND_DEVICE_ID");
	int rounds = argc > 1 ? atoi(argv[1]) : 2, ret = 0;
	struct npuprof_error err;
	struct npuprof_dev *dev;
	uint32_t stream, comm, rank, nranks;

	if (rounds < 1 || rounds > 1000) {
		fprintf(stderr, "usage: collectives [ROUNDS (1..1000)], one process per rank\n");
		return 2;
	}
	if (!dev_env || !*dev_env)
		dev_env = getenv("RANK_ID");
	if (!getenv("RANK_SIZE") || !dev_env || !*dev_env) {
		fprintf(stderr, "collectives: run one process per rank, with RANK_ID and RANK_SIZE "
				"set (npuprof run --ranks N -- collectives)\n");
		return 2;
	}
	if (check(npuprof_open((unsigned int)atoi(dev_env), &dev, &err), &err) ||
	    check(npuprof_stream_create(dev, &stream, &err), &err) ||
	    check(npuprof_comm_init_ranks(dev, 60000, &comm, &rank, &nranks, &err), &err))
		return 1;
	for (int k = 0; k < rounds && !ret; k++)
		ret = round_of(dev, stream, comm, rank, nranks, k);
	if (!ret)
		ret = check(npuprof_sync(dev, stream, 60000, &err), &err);
	npuprof_close(dev);
	if (!ret)
		printf("collectives: rank %u of %u: %d rounds done\n", rank, nranks, rounds);
	return ret ? 1 : 0;
}
