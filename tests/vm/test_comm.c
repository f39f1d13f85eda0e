// SPDX-License-Identifier: GPL-2.0
/*
 * Communicators (docs/uapi.md, "Communicators"): VNPU_IOC_COMM_INIT and
 * VNPU_IOC_COMM_DESTROY, every errno they give; collectives that meet by
 * their order on the communicator; a rank that leaves or disagrees breaks
 * the group; and no file outside a group can join it or abort its
 * collectives (issue 16 item 5); Send and Recv, which meet by pair.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vm/vnpu_test.h"

#define GRANTED_GID 4242

static int comm_init(int fd, __u32 flags, __u32 nranks, __u32 rank, __u8 *key, __u32 *id)
{
	struct vnpu_comm_init ci = {
		.size = sizeof(ci),
		.flags = flags,
		.nranks = nranks,
		.rank = rank,
	};

	if (key && !(flags & VNPU_COMM_F_CREATE))
		memcpy(ci.key, key, sizeof(ci.key));
	if (ioctl(fd, VNPU_IOC_COMM_INIT, &ci))
		return -errno;
	if (key && (flags & VNPU_COMM_F_CREATE))
		memcpy(key, ci.key, sizeof(ci.key));
	if (id)
		*id = ci.comm_id;
	return 0;
}

static int comm_destroy(int fd, __u32 id)
{
	struct vnpu_comm_destroy cd = { .size = sizeof(cd), .comm_id = id };

	return ioctl(fd, VNPU_IOC_COMM_DESTROY, &cd) ? -errno : 0;
}

/* Queue one collective of @op on @comm, on a new stream of @fd; the stream. */
static int collective(int fd, __u32 comm, __u32 op, __u64 bytes)
{
	struct vnpu_task t;
	int s = vnpu_stream_new(fd);

	if (s < 0)
		return s;
	vnpu_task_init(&t, "hcom_collective", "AllReduce", VNPU_TASK_COMMUNICATION, (unsigned int)s,
		       0, bytes);
	t.comm_op = op;
	t.comm_id = comm;
	return vnpu_submit_tasks(fd, &t, 1, NULL) ?: s;
}

/* Queue a Send to, or a Recv of, @peer on a new stream of @fd; the stream. */
static int p2p(int fd, __u32 comm, __u32 op, __u32 peer, __u64 bytes)
{
	struct vnpu_task t;
	int s = vnpu_stream_new(fd);

	if (s < 0)
		return s;
	vnpu_task_init(&t, op == VNPU_COMM_SEND ? "hcom_send" : "hcom_receive",
		       op == VNPU_COMM_SEND ? "HcomSend" : "HcomReceive", VNPU_TASK_COMMUNICATION,
		       (unsigned int)s, 0, bytes);
	t.comm_op = op;
	t.comm_id = comm;
	t.comm_peer = peer;
	return vnpu_submit_tasks(fd, &t, 1, NULL) ?: s;
}

FIXTURE(comm)
{
	int fd[2];
	__u32 id[2];
};

FIXTURE_SETUP(comm)
{
	if (vnpu_param_devices() < 2)
		SKIP(return, "needs devices=2");
	self->fd[0] = vnpu_open_dev(0, O_RDWR);
	self->fd[1] = vnpu_open_dev(1, O_RDWR);
	ASSERT_LE(0, self->fd[0]);
	ASSERT_LE(0, self->fd[1]);
}

FIXTURE_TEARDOWN(comm)
{
	if (vnpu_param_devices() < 2)
		return;
	close(self->fd[0]);
	close(self->fd[1]);
	EXPECT_EQ(0, vnpu_objects_settled());
}

TEST_F(comm, init_validation)
{
	struct vnpu_comm_init ci = { .size = sizeof(ci), .nranks = 2 };
	__u8 key[VNPU_COMM_KEY_LEN], none[VNPU_COMM_KEY_LEN] = { 0 }, scratch[VNPU_COMM_KEY_LEN];
	int other = vnpu_open_dev(0, O_RDWR);
	__u32 id;

	ASSERT_LE(0, other);
	EXPECT_EQ(-EINVAL, comm_init(self->fd[0], VNPU_COMM_F_CREATE, 1, 0, key, &id));
	EXPECT_EQ(-EINVAL, comm_init(self->fd[0], VNPU_COMM_F_CREATE, 17, 0, key, &id));
	EXPECT_EQ(-EINVAL, comm_init(self->fd[0], VNPU_COMM_F_CREATE, 2, 2, key, &id));
	EXPECT_EQ(-EINVAL, comm_init(self->fd[0], 2, 2, 0, key, &id));
	ci.flags = VNPU_COMM_F_CREATE;
	ci.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd[0], VNPU_IOC_COMM_INIT, &ci));
	EXPECT_EQ(EINVAL, errno);
	/* a key nobody made */
	EXPECT_EQ(-ENOENT, comm_init(self->fd[1], 0, 2, 1, none, &id));

	ASSERT_EQ(0, comm_init(self->fd[0], VNPU_COMM_F_CREATE, 2, 0, key, &self->id[0]));
	EXPECT_EQ(1, self->id[0]);
	/* rank 0 is taken; nranks must be the creator's; one rank per device */
	EXPECT_EQ(-EBUSY, comm_init(self->fd[1], 0, 2, 0, key, &id));
	EXPECT_EQ(-EINVAL, comm_init(self->fd[1], 0, 3, 1, key, &id));
	EXPECT_EQ(-EEXIST, comm_init(other, 0, 2, 1, key, &id));
	ASSERT_EQ(0, comm_init(self->fd[1], 0, 2, 1, key, &self->id[1]));
	/* full */
	EXPECT_EQ(-EBUSY, comm_init(other, 0, 2, 1, key, &id));

	/* a file has max_comms handles */
	for (int i = 0; i < VNPU_MAX_COMMS; i++) {
		ASSERT_EQ(0, comm_init(other, VNPU_COMM_F_CREATE, 2, 0, scratch, &id))
		TH_LOG("%d", i);
	}
	EXPECT_EQ(-EMFILE, comm_init(other, VNPU_COMM_F_CREATE, 2, 0, scratch, &id));
	close(other);
	/* rank 1 leaves; the group is broken, and nobody can join it again */
	ASSERT_EQ(0, comm_destroy(self->fd[1], self->id[1]));
	EXPECT_EQ(-EPIPE, comm_init(self->fd[1], 0, 2, 1, key, &id));
}

TEST_F(comm, destroy_validation)
{
	int s;

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	EXPECT_EQ(-EINVAL, comm_destroy(self->fd[0], 0));
	EXPECT_EQ(-EINVAL, comm_destroy(self->fd[0], 17));
	EXPECT_EQ(-ENOENT, comm_destroy(self->fd[0], 2));
	/* rank 0's collective waits for rank 1: its handle is busy */
	s = collective(self->fd[0], self->id[0], VNPU_COMM_ALLREDUCE, 1 << 20);
	ASSERT_LE(0, s);
	EXPECT_EQ(-EBUSY, comm_destroy(self->fd[0], self->id[0]));
	/*
	 * rank 1 leaves: the group is broken, rank 0's collective ends at
	 * once, and its next sync says so, once (per stream, per file)
	 */
	EXPECT_EQ(0, comm_destroy(self->fd[1], self->id[1]));
	EXPECT_EQ(-ENOENT, comm_destroy(self->fd[1], self->id[1]));
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[0], (unsigned int)s, 0, 5000, NULL));
	EXPECT_EQ(0, vnpu_sync_stream(self->fd[0], (unsigned int)s, 0, 5000, NULL));
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[0], 0, VNPU_SYNC_F_ALL_STREAMS, 5000, NULL));
	EXPECT_EQ(0, vnpu_sync_stream(self->fd[0], 0, VNPU_SYNC_F_ALL_STREAMS, 5000, NULL));
	EXPECT_EQ(0, comm_destroy(self->fd[0], self->id[0]));
	/* a handle that is gone: its tasks are refused */
	EXPECT_EQ(-ENOENT, collective(self->fd[0], self->id[0], VNPU_COMM_ALLREDUCE, 4096));
}

/*
 * Per rank, two collectives of @ops and @bytes (NULL: 8 MiB each), in
 * order: the device time each was submitted (@sub, may be NULL) and
 * ended, and what the sync after it said (@rc NULL: it must be 0).
 */
static void run_sized_in_order(struct __test_metadata *_metadata, FIXTURE_DATA(comm) * self,
			       const __u32 ops[2][2], const __u64 bytes[2][2], __u64 end[2][2],
			       __u64 start[2], int rc[2][2], __u64 sub[2][2])
{
	struct vnpu_sync sy;
	int s[2];

	for (int r = 0; r < 2; r++) {
		s[r] = vnpu_stream_new(self->fd[r]);
		ASSERT_LE(0, s[r]);
		ASSERT_EQ(0, vnpu_sync_stream(self->fd[r], s[r], 0, 5000, &sy));
		start[r] = sy.device_time;
	}
	for (int k = 0; k < 2; k++) {
		for (int r = 0; r < 2; r++) {
			struct vnpu_task t;

			vnpu_task_init(&t, "hcom", "HCCL", VNPU_TASK_COMMUNICATION,
				       (unsigned int)s[r], 0, bytes ? bytes[r][k] : 8 << 20);
			t.comm_op = ops[r][k];
			t.comm_id = self->id[r];
			ASSERT_EQ(0, vnpu_submit_at(self->fd[r], &t, 1, NULL,
						    sub ? &sub[r][k] : NULL));
		}
		for (int r = 0; r < 2; r++) {
			int ret = vnpu_sync_stream(self->fd[r], s[r], 0, 5000, &sy);

			if (rc)
				rc[r][k] = ret;
			else
				ASSERT_EQ(0, ret);
			/* an aborted collective's sync writes nothing; the next one does */
			if (ret == -EPIPE)
				ASSERT_EQ(0, vnpu_sync_stream(self->fd[r], s[r], 0, 5000, &sy));
			end[r][k] = sy.device_time;
		}
	}
}

static void run_in_order(struct __test_metadata *_metadata, FIXTURE_DATA(comm) * self,
			 const __u32 ops[2][2], __u64 end[2][2], __u64 start[2])
{
	run_sized_in_order(_metadata, self, ops, NULL, end, start, NULL, NULL);
}

/*
 * The n-th collective of each rank meets the n-th of the other: both end
 * at the same device time, and each takes the cost model's time.
 */
TEST_F(comm, collectives_meet_in_order)
{
	const __u32 ops[2][2] = { { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLGATHER },
				  { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLGATHER } };
	__u64 end[2][2], start[2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	run_in_order(_metadata, self, ops, end, start);
	for (int k = 0; k < 2; k++) {
		EXPECT_EQ(end[0][k], end[1][k]) TH_LOG("collective %d", k);
	}
	EXPECT_GT(end[0][0], start[0]);
	EXPECT_GT(end[0][1], end[0][0]);
}

/* Ranks that disagree on a collective abort it, and break the group. */
TEST_F(comm, disagreeing_ranks_break_the_group)
{
	const __u32 ops[2][2] = { { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLREDUCE },
				  { VNPU_COMM_BROADCAST, VNPU_COMM_ALLREDUCE } };
	__u64 end[2][2], start[2], sub[2][2];
	int rc[2][2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	run_sized_in_order(_metadata, self, ops, NULL, end, start, rc, sub);
	/*
	 * The second collective, which both ranks agree on, takes no time:
	 * it ends when it arrives, at its submission (up to a task id epoch's
	 * two ticks), as the group broke at the first (an agreeing pair takes
	 * 8 MiB's time). Every sync after an aborted collective says so.
	 */
	for (int r = 0; r < 2; r++) {
		EXPECT_LE(sub[r][1], end[r][1]) TH_LOG("rank %d", r);
		EXPECT_GE(sub[r][1] + 2, end[r][1]) TH_LOG("rank %d", r);
		EXPECT_EQ(-EPIPE, rc[r][0]) TH_LOG("rank %d", r);
		EXPECT_EQ(-EPIPE, rc[r][1]) TH_LOG("rank %d", r);
	}
}

/*
 * Ranks that disagree on a collective's size (count x dtype) abort it and
 * break the group, as ranks that disagree on the op do.
 */
TEST_F(comm, disagreeing_sizes_break_the_group)
{
	const __u32 ops[2][2] = { { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLREDUCE },
				  { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLREDUCE } };
	const __u64 bytes[2][2] = { { 8 << 20, 8 << 20 }, { 4 << 20, 8 << 20 } };
	__u64 end[2][2], start[2], sub[2][2];
	int rc[2][2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	run_sized_in_order(_metadata, self, ops, bytes, end, start, rc, sub);
	for (int r = 0; r < 2; r++) {
		EXPECT_LE(sub[r][1], end[r][1]) TH_LOG("rank %d", r);
		EXPECT_GE(sub[r][1] + 2, end[r][1]) TH_LOG("rank %d", r);
		EXPECT_EQ(-EPIPE, rc[r][0]) TH_LOG("rank %d", r);
		EXPECT_EQ(-EPIPE, rc[r][1]) TH_LOG("rank %d", r);
	}
}

/*
 * A rank that calls a collective the other never calls: its stream waits
 * (a sync with a timeout says -ETIMEDOUT, other streams go on) until the
 * other leaves, and then the collective is aborted, which its next sync
 * says (-EPIPE).
 */
TEST_F(comm, unmatched_collective_waits_then_aborts)
{
	__u64 end[2][2], start[2];
	const __u32 ops[2][2] = { { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLREDUCE },
				  { VNPU_COMM_ALLREDUCE, VNPU_COMM_ALLREDUCE } };
	struct vnpu_task t;
	int s, other;

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	run_in_order(_metadata, self, ops, end, start);
	/* a third on rank 0 alone */
	s = collective(self->fd[0], self->id[0], VNPU_COMM_ALLREDUCE, 1 << 20);
	ASSERT_LE(0, s);
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(self->fd[0], (unsigned int)s, 0, 200, NULL));
	/* another stream of the file runs meanwhile */
	other = vnpu_stream_new(self->fd[0]);
	ASSERT_LE(0, other);
	vnpu_task_init(&t, "matmul", "MatMul", VNPU_TASK_AI_CORE, (unsigned int)other, 1 << 20,
		       1 << 20);
	EXPECT_EQ(0, vnpu_submit_tasks(self->fd[0], &t, 1, NULL));
	EXPECT_EQ(0, vnpu_sync_stream(self->fd[0], (unsigned int)other, 0, 5000, NULL));
	EXPECT_EQ(0, comm_destroy(self->fd[1], self->id[1]));
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[0], (unsigned int)s, 0, 5000, NULL));
}

/*
 * A Send meets the Recv of its pair, whatever the collectives around it:
 * rank 0 queues a Send then an AllReduce, rank 1 the AllReduce then the
 * Recv, each on a stream of its own. Each pair ends together, and the
 * Send takes at least its copy over the link.
 */
TEST_F(comm, send_meets_recv_by_pair)
{
	struct vnpu_sync sy[2][2];
	int s[2][2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	s[0][0] = p2p(self->fd[0], self->id[0], VNPU_COMM_SEND, 1, 8 << 20);
	s[0][1] = collective(self->fd[0], self->id[0], VNPU_COMM_ALLREDUCE, 1 << 20);
	s[1][1] = collective(self->fd[1], self->id[1], VNPU_COMM_ALLREDUCE, 1 << 20);
	s[1][0] = p2p(self->fd[1], self->id[1], VNPU_COMM_RECV, 0, 8 << 20);
	for (int r = 0; r < 2; r++) {
		for (int k = 0; k < 2; k++) {
			ASSERT_LE(0, s[r][k]);
			ASSERT_EQ(0, vnpu_sync_stream(self->fd[r], (unsigned int)s[r][k], 0, 5000,
						      &sy[r][k]))
			TH_LOG("rank %d, op %d", r, k);
		}
	}
	EXPECT_EQ(sy[0][0].device_time, sy[1][0].device_time);
	EXPECT_EQ(sy[0][1].device_time, sy[1][1].device_time);
}

/*
 * Both ranks send first, then receive, each on its own streams: a Send
 * waits for its Recv (-ETIMEDOUT meanwhile), not for the other rank's
 * Send, which is a pair of its own; the Recvs complete both.
 */
TEST_F(comm, exchange_waits_for_the_recvs)
{
	int snd[2], rcv[2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	for (int r = 0; r < 2; r++) {
		snd[r] = p2p(self->fd[r], self->id[r], VNPU_COMM_SEND, 1 - r, 1 << 20);
		ASSERT_LE(0, snd[r]);
	}
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(self->fd[0], (unsigned int)snd[0], 0, 200, NULL));
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(self->fd[1], (unsigned int)snd[1], 0, 200, NULL));
	for (int r = 0; r < 2; r++) {
		rcv[r] = p2p(self->fd[r], self->id[r], VNPU_COMM_RECV, 1 - r, 1 << 20);
		ASSERT_LE(0, rcv[r]);
	}
	for (int r = 0; r < 2; r++) {
		EXPECT_EQ(0, vnpu_sync_stream(self->fd[r], (unsigned int)snd[r], 0, 5000, NULL));
		EXPECT_EQ(0, vnpu_sync_stream(self->fd[r], (unsigned int)rcv[r], 0, 5000, NULL));
	}
}

/*
 * A rank that leaves aborts what waits for it, not the Sends and Recvs of
 * the ranks that stay: in a group of 3, rank 0 leaves; rank 1's Send to
 * rank 2 still runs, while a collective, which needs rank 0, is aborted.
 */
TEST_F(comm, a_leaving_rank_spares_the_others_pairs)
{
	int fd[3] = { self->fd[0], self->fd[1], -1 }, snd, rcv, all;
	__u32 id[3];

	if (vnpu_param_devices() < 3)
		SKIP(return, "needs devices=3");
	fd[2] = vnpu_open_dev(2, O_RDWR);
	ASSERT_LE(0, fd[2]);
	ASSERT_EQ(0, vnpu_comm_group(fd, 3, id));
	ASSERT_EQ(0, comm_destroy(fd[0], id[0]));
	snd = p2p(fd[1], id[1], VNPU_COMM_SEND, 2, 1 << 20);
	rcv = p2p(fd[2], id[2], VNPU_COMM_RECV, 1, 1 << 20);
	all = collective(fd[1], id[1], VNPU_COMM_ALLREDUCE, 1 << 20);
	ASSERT_LE(0, snd);
	ASSERT_LE(0, rcv);
	ASSERT_LE(0, all);
	EXPECT_EQ(0, vnpu_sync_stream(fd[1], (unsigned int)snd, 0, 5000, NULL));
	EXPECT_EQ(0, vnpu_sync_stream(fd[2], (unsigned int)rcv, 0, 5000, NULL));
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(fd[1], (unsigned int)all, 0, 5000, NULL));
	close(fd[2]);
}

/* A Recv of another size than its Send aborts the pair, and breaks the group. */
TEST_F(comm, send_recv_of_other_sizes_break_the_group)
{
	int snd, rcv;

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	snd = p2p(self->fd[0], self->id[0], VNPU_COMM_SEND, 1, 8 << 20);
	rcv = p2p(self->fd[1], self->id[1], VNPU_COMM_RECV, 0, 4 << 20);
	ASSERT_LE(0, snd);
	ASSERT_LE(0, rcv);
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[0], (unsigned int)snd, 0, 5000, NULL));
	EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[1], (unsigned int)rcv, 0, 5000, NULL));
}

/* Ranks that name other roots for one Broadcast abort it. */
TEST_F(comm, disagreeing_roots_break_the_group)
{
	int s[2];

	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	for (int r = 0; r < 2; r++) {
		struct vnpu_task t;

		s[r] = vnpu_stream_new(self->fd[r]);
		ASSERT_LE(0, s[r]);
		vnpu_task_init(&t, "hcom_broadcast", "HcomBroadcast", VNPU_TASK_COMMUNICATION,
			       (unsigned int)s[r], 0, 1 << 20);
		t.comm_op = VNPU_COMM_BROADCAST;
		t.comm_id = self->id[r];
		t.comm_peer = (__u32)r;
		ASSERT_EQ(0, vnpu_submit_tasks(self->fd[r], &t, 1, NULL));
	}
	for (int r = 0; r < 2; r++)
		EXPECT_EQ(-EPIPE, vnpu_sync_stream(self->fd[r], (unsigned int)s[r], 0, 5000, NULL));
}

/* A Send to itself, or to a rank the group does not have, is refused at submit. */
TEST_F(comm, send_to_a_bad_peer_is_refused)
{
	ASSERT_EQ(0, vnpu_comm_group(self->fd, 2, self->id));
	EXPECT_EQ(-EINVAL, p2p(self->fd[0], self->id[0], VNPU_COMM_SEND, 0, 4096));
	EXPECT_EQ(-EINVAL, p2p(self->fd[0], self->id[0], VNPU_COMM_SEND, 2, 4096));
	EXPECT_EQ(-EINVAL, p2p(self->fd[1], self->id[1], VNPU_COMM_RECV, 1, 4096));
	EXPECT_EQ(-EINVAL, p2p(self->fd[1], self->id[1], VNPU_COMM_RECV, 16, 4096));
}

/* nobody, outside the group: its joins and collectives are refused. */
static int outsider(const __u8 *key, __u32 nranks)
{
	__u8 guess[VNPU_COMM_KEY_LEN];
	int fd = vnpu_open_dev(1, O_RDWR);

	if (fd < 0)
		return 10;
	memcpy(guess, key, sizeof(guess));
	guess[7] ^= 1;
	if (comm_init(fd, 0, nranks, 1, guess, NULL) != -ENOENT)
		return 11;
	/* even with the key: every rank is taken */
	if (comm_init(fd, 0, nranks, 1, (__u8 *)key, NULL) != -EBUSY)
		return 12;
	/* no handle of its own names the group */
	for (__u32 id = 1; id <= 2; id++)
		if (collective(fd, id, VNPU_COMM_ALLREDUCE, 4096) != -ENOENT)
			return 13;
	close(fd);
	return 0;
}

/*
 * Issue 16 item 5: a collective's members are its communicator's ranks.
 * Before, any file could submit the same (devices, tag) collective, join
 * the rendezvous and abort it by closing; now an outsider (another user,
 * even one given the key) cannot join a full group nor name its handle,
 * and the group's collective takes its full time.
 */
TEST_F(comm, outsiders_cannot_join_or_abort)
{
	__u8 key[VNPU_COMM_KEY_LEN];
	struct vnpu_sync sy0, sy1;
	int s0, s1, status;
	pid_t pid;

	ASSERT_EQ(0, comm_init(self->fd[0], VNPU_COMM_F_CREATE, 2, 0, key, &self->id[0]));
	ASSERT_EQ(0, comm_init(self->fd[1], 0, 2, 1, key, &self->id[1]));
	s0 = collective(self->fd[0], self->id[0], VNPU_COMM_ALLREDUCE, 64 << 20);
	ASSERT_LE(0, s0);
	ASSERT_EQ(0, vnpu_grant_devices(GRANTED_GID));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(vnpu_become_nobody(GRANTED_GID) ? 100 : outsider(key, 2));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status))
	TH_LOG("the outsider failed at step %d",
						 WEXITSTATUS(status));
	EXPECT_EQ(0, vnpu_grant_devices(0));
	/* rank 0 still waits for rank 1, not aborted by anyone */
	EXPECT_EQ(-ETIMEDOUT, vnpu_sync_stream(self->fd[0], (unsigned int)s0, 0, 100, NULL));
	s1 = collective(self->fd[1], self->id[1], VNPU_COMM_ALLREDUCE, 64 << 20);
	ASSERT_LE(0, s1);
	ASSERT_EQ(0, vnpu_sync_stream(self->fd[0], (unsigned int)s0, 0, 5000, &sy0));
	ASSERT_EQ(0, vnpu_sync_stream(self->fd[1], (unsigned int)s1, 0, 5000, &sy1));
	EXPECT_EQ(sy0.device_time, sy1.device_time);
}

TEST_HARNESS_MAIN
