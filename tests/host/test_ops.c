// SPDX-License-Identifier: GPL-2.0
/*
 * The operator builders of the collectives (libnpuprof/runtime/ops.c): each fills
 * a COMMUNICATION task with GE's op type, the operation, its communicator,
 * tag and peer, the buffer's size and tensor; and each refuses what no
 * device could take, with the task's other fields untouched by a later
 * valid call.
 */
#include "kselftest_harness.h"
#include "npuprof.h"

struct comm_case {
	const char *type;
	uint32_t op, peer;
	int (*build)(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n,
		     enum vnpu_dtype dt);
};

static int allreduce(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n,
		     enum vnpu_dtype dt)
{
	(void)peer;
	return npuprof_op_allreduce(NULL, t, "hcom_allReduce_1", 3, comm, 7, n, dt);
}

static int allgather(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n,
		     enum vnpu_dtype dt)
{
	(void)peer;
	return npuprof_op_allgather(NULL, t, "hcom_allGather_1", 3, comm, 7, n, dt);
}

static int reducescatter(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n,
			 enum vnpu_dtype dt)
{
	(void)peer;
	return npuprof_op_reducescatter(NULL, t, "hcom_reduceScatter_1", 3, comm, 7, n, dt);
}

static int broadcast(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n,
		     enum vnpu_dtype dt)
{
	return npuprof_op_broadcast(NULL, t, "hcom_broadcast_1", 3, comm, 7, peer, n, dt);
}

static int send(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n, enum vnpu_dtype dt)
{
	return npuprof_op_send(NULL, t, "hcom_send_1", 3, comm, 7, peer, n, dt);
}

static int recv(struct vnpu_task *t, uint32_t comm, uint32_t peer, uint64_t n, enum vnpu_dtype dt)
{
	return npuprof_op_recv(NULL, t, "hcom_receive_1", 3, comm, 7, peer, n, dt);
}

static const struct comm_case cases[] = {
	{ "HcomAllReduce", VNPU_COMM_ALLREDUCE, 0, allreduce },
	{ "HcomAllGather", VNPU_COMM_ALLGATHER, 0, allgather },
	{ "HcomReduceScatter", VNPU_COMM_REDUCESCATTER, 0, reducescatter },
	{ "HcomBroadcast", VNPU_COMM_BROADCAST, 2, broadcast },
	{ "HcomSend", VNPU_COMM_SEND, 5, send },
	{ "HcomReceive", VNPU_COMM_RECV, 15, recv },
};

TEST(collective_builders)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct comm_case *c = &cases[i];
		struct vnpu_task t;

		ASSERT_EQ(0, c->build(&t, 4, c->peer, 1000, VNPU_DT_FLOAT16)) TH_LOG("%s", c->type);
		EXPECT_STREQ(c->type, t.op_type);
		EXPECT_EQ(VNPU_TASK_COMMUNICATION, t.task_type);
		EXPECT_EQ(3, t.stream_id);
		EXPECT_EQ(1, t.block_num);
		EXPECT_EQ(c->op, t.comm_op);
		EXPECT_EQ(4, t.comm_id);
		EXPECT_EQ(7, t.comm_tag);
		EXPECT_EQ(c->peer, t.comm_peer);
		EXPECT_EQ(2000, t.bytes);
		/* the buffer, for hccl_op_info's data type and count */
		EXPECT_EQ(1, t.n_inputs);
		EXPECT_EQ(0, t.n_outputs);
		EXPECT_EQ(VNPU_DT_FLOAT16, t.tensors[0].dtype);
		EXPECT_EQ(1000, t.tensors[0].dims[0]);
		/* a reduction adds once per element; a copy computes nothing */
		EXPECT_EQ(c->op == VNPU_COMM_ALLREDUCE || c->op == VNPU_COMM_REDUCESCATTER ? 1000
											   : 0,
			  t.flops)
		TH_LOG("%s", c->type);
	}
}

TEST(collective_builders_refuse)
{
	struct npuprof_dev *none = NULL;
	char long_name[VNPU_OP_NAME_LEN + 1];
	struct vnpu_task t;

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct comm_case *c = &cases[i];

		/* no communicator handle is 0 */
		EXPECT_EQ(-EINVAL, c->build(&t, 0, c->peer, 1000, VNPU_DT_FLOAT16))
		TH_LOG("%s", c->type);
		EXPECT_EQ(-EINVAL, c->build(&t, 4, c->peer, 1000, VNPU_DT_COUNT));
		EXPECT_EQ(-EINVAL, c->build(&t, 4, c->peer, 1000, (enum vnpu_dtype) - 1));
	}
	/* a peer no communicator has (16 ranks at most) */
	EXPECT_EQ(-EINVAL,
		  npuprof_op_send(none, &t, "s", 0, 1, 0, VNPU_MAX_DEVICES, 1, VNPU_DT_INT8));
	EXPECT_EQ(-EINVAL, npuprof_op_recv(none, &t, "r", 0, 1, 0, UINT32_MAX, 1, VNPU_DT_INT8));
	EXPECT_EQ(-EINVAL,
		  npuprof_op_broadcast(none, &t, "b", 0, 1, 0, VNPU_MAX_DEVICES, 1, VNPU_DT_INT8));
	/* names */
	EXPECT_EQ(-EINVAL, npuprof_op_send(none, &t, NULL, 0, 1, 0, 1, 1, VNPU_DT_INT8));
	EXPECT_EQ(-EINVAL, npuprof_op_send(none, &t, "", 0, 1, 0, 1, 1, VNPU_DT_INT8));
	EXPECT_EQ(-ENAMETOOLONG, npuprof_op_recv(none, &t, long_name, 0, 1, 0, 1, 1, VNPU_DT_INT8));
	EXPECT_EQ(-EINVAL, npuprof_op_allgather(none, NULL, "g", 0, 1, 0, 1, VNPU_DT_INT8));
	/* an empty message has no tensor and no bytes */
	ASSERT_EQ(0, npuprof_op_send(none, &t, "s", 0, 1, 0, 1, 0, VNPU_DT_INT8));
	EXPECT_EQ(0, t.n_inputs);
	EXPECT_EQ(0, t.bytes);
}

TEST_HARNESS_MAIN
