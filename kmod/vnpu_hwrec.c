// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: the device's own records, written into the channels of a session
 * in the formats of uapi/vnpu_ascend.h, as a STARS device (chips 5 and 7;
 * chip 15 in its v6 formats) or an HWTS one (chips 1 and 4, no
 * VNPU_CAP_STARS) writes them and msprof's parser reads them:
 *
 *   ACSQ      a start and an end log per task (every level): ACSQ logs, or
 *             HWTS logs; a collective is the sub-tasks HCCL issues for it
 *             (uapi/vnpu_hccl.h), each with its own id and its own pair
 *   PMU       the PMU record of an AI Core / AI Vector Core task (L1 on):
 *             the context PMU, or the AI Core PMU
 *
 * A MIX task on a chip-5 device is an FFTS+ task of one context (id 0):
 * its ACSQ logs hold the context's FFTS+ start and end logs, and from L1
 * on its context PMU record counts the main core type (AIC for MIX_AIC)
 * and a block PMU record per block counts the other.
 *   TS_TRACK  a flip before a stream's first task of each new task id epoch
 *   AICPU     the AI CPU's record of an AI CPU task (L2)
 *
 * A task's 16-bit id is the low half-word of its device-wide id, and its
 * epoch (id >> 16) is its batch: before the first task of a stream in an
 * epoch the stream gets the flips that bring its batch there, so that the
 * batch msprof counts from the flips is the epoch, whenever the session
 * started. libnpuprof writes the same flips on the host side. A v6 device
 * (chip 15) writes the low 32 bits of the device-wide id whole, and no
 * flips: its records carry no stream, msprof finds it by the id.
 *
 * vnpu_hwrec_bench() writes the same records for synthetic tasks, from
 * debugfs, so that the transport can be measured alone.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "vnpu_drv.h"

static u32 vnpu_sqe_type(u32 task_type)
{
	switch (task_type) {
	case VNPU_TASK_AI_VECTOR_CORE:
	case VNPU_TASK_MIX_AIV:
		return VNPU_SQE_AIV;
	case VNPU_TASK_AI_CPU:
		return VNPU_SQE_AI_CPU;
	case VNPU_TASK_COMMUNICATION:
		return VNPU_SQE_SDMA;
	default:
		return VNPU_SQE_AI_CORE;
	}
}

/* A v6 ACSQ log's SQE type: the v6 chip renumbered them (msprof's ChipV6SqeType) */
static u32 vnpu_sqe_v6(u32 sqe)
{
	switch (sqe) {
	case VNPU_SQE_AIV:
		return VNPU_SQE_V6_AIV;
	case VNPU_SQE_AI_CPU:
		return VNPU_SQE_V6_AICPU_D;
	default:
		/* AI Core, the notifies and SDMA keep their numbers */
		return sqe;
	}
}

/* One ACSQ log, every byte set, reserved ones included: the page is the reader's. */
static struct vnpu_acsq_log vnpu_acsq_rec(u32 func, u8 cnt, u32 sqe, u32 stream_id, u64 id,
					  u64 syscnt)
{
	return (struct vnpu_acsq_log){
		.word0 = VNPU_ACSQ_WORD0(func, cnt, sqe),
		.magic = VNPU_STARS_MAGIC,
		.stream_id = stream_id,
		.task_id = id & 0xffff,
		.syscnt = syscnt,
	};
}

/*
 * A task's start and end logs, in one reservation: a reader sees both or,
 * if the channel was full, neither (two records counted lost).
 */
static void vnpu_hwrec_acsq(struct vnpu_ring *r, u32 stream_id, u64 id, u32 sqe, u64 start,
			    u64 end)
{
	struct vnpu_acsq_log *rec;
	u8 cnt;

	rec = vnpu_chan_reserve(r, VNPU_CH_ACSQ, 2, &cnt);
	if (!rec)
		return;
	rec[0] = vnpu_acsq_rec(VNPU_FUNC_ACSQ_START, cnt, sqe, stream_id, id, start);
	rec[1] = vnpu_acsq_rec(VNPU_FUNC_ACSQ_END, cnt + 1, sqe, stream_id, id, end);
}

/* A v6 task's start and end logs, in one reservation: the 32-bit id, no stream */
static void vnpu_hwrec_acsq_v6(struct vnpu_ring *r, u64 id, u32 sqe, u64 start, u64 end)
{
	struct vnpu_acsq_log_v6 *rec;
	u8 cnt;

	rec = vnpu_chan_reserve(r, VNPU_CH_ACSQ, 2, &cnt);
	if (!rec)
		return;
	rec[0] = (struct vnpu_acsq_log_v6){
		.word0 = VNPU_ACSQ_WORD0(VNPU_FUNC_ACSQ_START, cnt, vnpu_sqe_v6(sqe)),
		.magic = VNPU_STARS_MAGIC,
		.task_lo = id & 0xffff,
		.task_hi = (id >> 16) & 0xffff,
		.syscnt = start,
	};
	rec[1] = rec[0];
	rec[1].word0 = VNPU_ACSQ_WORD0(VNPU_FUNC_ACSQ_END, cnt + 1, vnpu_sqe_v6(sqe));
	rec[1].syscnt = end;
}

/*
 * A mix task's logs, in one reservation: its ACSQ start, its context's
 * FFTS+ start and end (the context runs for the whole task), its ACSQ end.
 */
static void vnpu_hwrec_mix_logs(struct vnpu_ring *r, u32 stream_id, u64 id, u32 sqe,
				u32 subtask, u64 start, u64 end)
{
	struct vnpu_acsq_log *acsq;
	struct vnpu_ffts_log *ffts;
	u8 cnt;

	acsq = vnpu_chan_reserve(r, VNPU_CH_ACSQ, 4, &cnt);
	if (!acsq)
		return;
	BUILD_BUG_ON(sizeof(struct vnpu_ffts_log) != sizeof(struct vnpu_acsq_log));
	acsq[0] = vnpu_acsq_rec(VNPU_FUNC_ACSQ_START, cnt, sqe, stream_id, id, start);
	ffts = (struct vnpu_ffts_log *)&acsq[1];
	ffts[0] = (struct vnpu_ffts_log){
		.word0 = VNPU_ACSQ_WORD0(VNPU_FUNC_FFTS_LOG_START, cnt + 1, sqe),
		.magic = VNPU_STARS_MAGIC,
		.stream_id = stream_id,
		.task_id = id & 0xffff,
		.syscnt = start,
		.subtask_type = subtask,
		.subtask_id = 0,
		.ffts = VNPU_FFTS_TYPE_FFTS_PLUS << 13,
	};
	ffts[1] = ffts[0];
	ffts[1].word0 = VNPU_ACSQ_WORD0(VNPU_FUNC_FFTS_LOG_END, cnt + 2, sqe);
	ffts[1].syscnt = end;
	acsq[3] = vnpu_acsq_rec(VNPU_FUNC_ACSQ_END, cnt + 3, sqe, stream_id, id, end);
}

/*
 * The context PMU record of a task: a plain AI Core / AI Vector Core task
 * (subtask VNPU_FFTS_NO_SUBTASK, its FFTS type), or a mix task's context.
 * @aiv: the side counted. @c holds the session's programmed events
 * (vnpu_pmu_compute(), once per task).
 */
static void vnpu_hwrec_context_pmu(struct vnpu_ring *r, const struct vnpu_prof *prof,
				   u32 stream_id, u64 id, bool aiv, u16 subtask, u16 subtask_id,
				   u16 ffts_type, u64 start, u64 end, const struct vnpu_counters *c)
{
	struct vnpu_ffts_pmu *rec;
	u8 cnt;
	u32 i;

	rec = vnpu_chan_reserve(r, VNPU_CH_PMU, 1, &cnt);
	if (!rec)
		return;
	*rec = (struct vnpu_ffts_pmu){
		.word0 = VNPU_FUNC_CONTEXT_PMU | (cnt << 6),
		.magic = VNPU_STARS_MAGIC,
		.stream_id = stream_id,
		.task_id = id & 0xffff,
		.subtask = subtask,
		.subtask_id = subtask_id,
		.ffts = ffts_type << 13,
		.total_cycle = aiv ? c->aiv_total_cycles : c->aic_total_cycles,
		.start_syscnt = start,
		.end_syscnt = end,
	};
	for (i = 0; i < prof->n_events && i < VNPU_PMU_COUNTERS; i++)
		rec->pmu[i] = c->ev[aiv][i];
}

/*
 * A mix task's PMU: the context PMU record of its main core type, then a
 * block PMU record per block of the other, each with its share of that
 * side's counts (the shares add up to the side's counts).
 */
static void vnpu_hwrec_mix_pmu(struct vnpu_ring *r, const struct vnpu_prof *prof, u32 stream_id,
			       u64 id, bool main_aiv, u64 start, u64 end,
			       const struct vnpu_counters *c)
{
	u32 subtask = main_aiv ? VNPU_FFTS_SUBTASK_MIX_AIV : VNPU_FFTS_SUBTASK_MIX_AIC;
	u32 blocks = main_aiv ? c->aic_blocks : c->aiv_blocks, b, i, rem;
	u64 total = main_aiv ? c->aic_total_cycles : c->aiv_total_cycles, per = 0;
	struct vnpu_ffts_block_pmu *blk;
	u8 cnt;

	vnpu_hwrec_context_pmu(r, prof, stream_id, id, main_aiv, subtask, 0,
			       VNPU_FFTS_TYPE_FFTS_PLUS, start, end, c);
	if (blocks)
		per = div_u64_rem(total, blocks, &rem);
	/* one record a block, each its own reservation: a loss costs a block */
	for (b = 0; b < blocks; b++) {
		blk = vnpu_chan_reserve(r, VNPU_CH_PMU, 1, &cnt);
		if (!blk)
			continue;
		*blk = (struct vnpu_ffts_block_pmu){
			.word0 = VNPU_FUNC_BLOCK_PMU | (cnt << 6),
			.magic = VNPU_STARS_MAGIC,
			.stream_id = stream_id,
			.task_id = id & 0xffff,
			.subtask_type = subtask,
			.subtask_id = 0,
			.core = main_aiv ? 0 : VNPU_BLOCK_CORE_AIV,
			.ffts = VNPU_FFTS_TYPE_FFTS_PLUS << 5,
			.block_id = b & 0xffff,
			.total_cycle = per + (b < rem ? 1 : 0),
			.start_syscnt = start,
			.end_syscnt = end,
		};
		for (i = 0; i < prof->n_events && i < VNPU_PMU_COUNTERS; i++) {
			u64 v = c->ev[!main_aiv][i];
			u32 vrem;

			v = div_u64_rem(v, blocks, &vrem);
			blk->pmu[i] = v + (b < vrem ? 1 : 0);
		}
	}
}

/* The HWTS task type of STARS SQE type @sqe: they differ in SDMA alone */
static u8 vnpu_hwts_type(u32 sqe)
{
	return sqe == VNPU_SQE_SDMA ? VNPU_HWTS_SDMA : (u8)sqe;
}

/* The HWTS device's task logs: a pair, in one reservation, as ACSQ logs */
static void vnpu_hwrec_hwts(struct vnpu_ring *r, u32 stream_id, u64 id, u32 sqe, u64 start,
			    u64 end)
{
	struct vnpu_hwts_log *rec;
	u8 cnt;

	rec = vnpu_chan_reserve(r, VNPU_CH_ACSQ, 2, &cnt);
	if (!rec)
		return;
	rec[0] = (struct vnpu_hwts_log){
		.word0 = VNPU_HWTS_WORD0(VNPU_HWTS_LOG_START, cnt),
		.task_type = vnpu_hwts_type(sqe),
		.task_id = id & 0xffff,
		.syscnt = start,
		.stream_id = stream_id,
	};
	rec[1] = (struct vnpu_hwts_log){
		.word0 = VNPU_HWTS_WORD0(VNPU_HWTS_LOG_END, cnt + 1),
		.task_type = vnpu_hwts_type(sqe),
		.task_id = id & 0xffff,
		.syscnt = end,
		.stream_id = stream_id,
	};
}

/* A task's start and end logs, in the product's format */
static void vnpu_hwrec_logs(struct vnpu_ring *r, const struct vnpu_prof *prof, u32 stream_id,
			    u64 id, u32 sqe, u64 start, u64 end)
{
	if (prof->hwts)
		vnpu_hwrec_hwts(r, stream_id, id, sqe, start, end);
	else if (prof->v6)
		vnpu_hwrec_acsq_v6(r, id, sqe, start, end);
	else
		vnpu_hwrec_acsq(r, stream_id, id, sqe, start, end);
}

/*
 * Flips that bring @t's stream to the epoch of @id (@t's, or a sub-task's),
 * at @at. msprof's C++ path gives a record at the flip's own time the old
 * batch (batch_id.cpp: timestamp <= flip), its pure-Python path sorts the
 * two: so a flip is written strictly between the end of the task before
 * and the start of the first task of the epoch (vnpu_exec.c leaves a gap).
 */
static void vnpu_hwrec_flips(struct vnpu_ring *r, const struct vnpu_prof *prof,
			     const struct vnpu_ktask *t, u64 id, u64 at)
{
	struct vnpu_stream *s = t->stream;
	u64 epoch = id >> 16;
	struct vnpu_ts_flip *rec;
	u8 cnt;

	/* a v6 id does not wrap: nothing to flip */
	if (prof->v6)
		return;
	if (s->flip_session != prof->id) {
		s->flip_session = prof->id;
		s->flip_epoch = 0;
	}
	for (; s->flip_epoch < epoch; s->flip_epoch++) {
		rec = vnpu_chan_reserve(r, VNPU_CH_TS_TRACK, 1, &cnt);
		if (!rec)
			continue;
		*rec = (struct vnpu_ts_flip){
			.tag = VNPU_TS_TAG_TASK_FLIP,
			.syscnt = at,
			.stream_id = s->hw_id,
			.flip_num = (s->flip_epoch + 1) & 0xffff,
			.task_id = 0,
		};
	}
}

/*
 * The HWTS device's AI Core PMU record. It has no time: msprof hands a
 * stream's records of one task id to its tasks of that id in order, and
 * the records are written as the tasks retire, in that order. These
 * products do not split AIC and AIV: the model counts every task on the
 * AIC side.
 */
static void vnpu_hwrec_aic_pmu(struct vnpu_ring *r, const struct vnpu_prof *prof, u32 stream_id,
			       u64 id, const struct vnpu_counters *c)
{
	struct vnpu_aic_pmu *rec;
	u8 cnt;
	u32 i;

	rec = vnpu_chan_reserve(r, VNPU_CH_PMU, 1, &cnt);
	if (!rec)
		return;
	*rec = (struct vnpu_aic_pmu){
		.word0 = (cnt & 0xf) << 4,
		.task_id = id & 0xffff,
		.total_cycle = c->aic_total_cycles,
		.stream_id = stream_id,
	};
	for (i = 0; i < prof->n_events && i < VNPU_PMU_COUNTERS; i++)
		rec->pmu[i] = c->ev[0][i];
}

/*
 * A v6 PMU record: one core type's counters of task @id. @flags is
 * VNPU_PMU_V6_MAIN for a plain task's, MAIN | MIX for a mix op's main core
 * type and MIX alone for its other one.
 */
static void vnpu_hwrec_pmu_v6(struct vnpu_ring *r, const struct vnpu_prof *prof, u64 id,
			      bool aiv, u8 flags, u64 start, u64 end,
			      const struct vnpu_counters *c)
{
	struct vnpu_pmu_v6 *rec;
	u8 cnt;
	u32 i;

	rec = vnpu_chan_reserve(r, VNPU_CH_PMU, 1, &cnt);
	if (!rec)
		return;
	*rec = (struct vnpu_pmu_v6){
		.word0 = VNPU_FUNC_V6_CONTEXT_PMU | (cnt << 6),
		.magic = VNPU_STARS_MAGIC,
		.task_lo = id & 0xffff,
		.task_hi = (id >> 16) & 0xffff,
		.total_cycle = aiv ? c->aiv_total_cycles : c->aic_total_cycles,
		.flags = flags,
		.core_type = aiv ? VNPU_PMU_V6_AIV : 0,
		.start_syscnt = start,
		.end_syscnt = end,
	};
	BUILD_BUG_ON(VNPU_PMU_EVENTS_MAX > VNPU_PMU_V6_COUNTERS);
	for (i = 0; i < prof->n_events; i++)
		rec->pmu[i] = c->ev[aiv][i];
}

static void vnpu_hwrec_pmu(struct vnpu_ring *r, const struct vnpu_prof *prof, u32 stream_id,
			   u64 id, bool aiv, u64 start, u64 end, const struct vnpu_counters *c)
{
	if (prof->v6)
		vnpu_hwrec_pmu_v6(r, prof, id, aiv, VNPU_PMU_V6_MAIN, start, end, c);
	else if (prof->hwts)
		vnpu_hwrec_aic_pmu(r, prof, stream_id, id, c);
	else
		vnpu_hwrec_context_pmu(r, prof, stream_id, id, aiv, 0, VNPU_FFTS_NO_SUBTASK,
				       aiv ? VNPU_FFTS_TYPE_AIV : VNPU_FFTS_TYPE_AIC, start, end,
				       c);
}

/*
 * An AI CPU task: it computes for the first 90% of its run and copies its
 * outputs out in the last 10% (the split msprof reports as Compute_time and
 * Memcpy_time); it runs as soon as it reaches the AI CPU.
 */
static void vnpu_hwrec_aicpu(struct vnpu_ring *r, const struct vnpu_prof *prof,
			     const struct vnpu_ktask *t)
{
	u32 khz = prof->ring->ctrl->sys_cnt_freq_khz;
	u64 start_us, end_us;
	struct vnpu_aicpu_node *rec;
	u8 cnt;

	if (!khz)
		return;
	rec = vnpu_chan_reserve(r, VNPU_CH_AICPU, 1, &cnt);
	if (!rec)
		return;
	/* ticks to device microseconds, as vnpu_exec.c's ticks to ns (128-bit) */
	start_us = mul_u64_u32_div(t->start, 1000, khz);
	end_us = mul_u64_u32_div(t->end, 1000, khz);
	*rec = (struct vnpu_aicpu_node){
		.magic = VNPU_AICPU_MAGIC,
		.level = VNPU_AICPU_LEVEL,
		.type = VNPU_AICPU_TYPE_NODE,
		.data_len = VNPU_AICPU_NODE_LEN,
		.timestamp = t->end,
		.stream_id = t->stream->hw_id,
		.task_id = t->id & 0xffff,
		.run_start_us = start_us,
		.run_start_tick = t->start,
		.compute_start_us = start_us,
		.memcpy_start_us = start_us + div_u64((end_us - start_us) * 9, 10),
		.memcpy_end_us = end_us,
		.run_end_us = end_us,
		.run_end_tick = t->end,
		.device_id = prof->ring->ctrl->dev_id,
		.submit_tick = t->start,
		.schedule_tick = t->start,
		.tick_before_run = t->start,
		.tick_after_run = t->end,
		.total_us = (u32)min_t(u64, end_us - start_us, U32_MAX),
	};
}

static const u8 vnpu_hccl_sqe[VNPU_HCCL_KIND_COUNT] = {
	[VNPU_HCCL_MEMCPY] = VNPU_SQE_SDMA,
	[VNPU_HCCL_REDUCE_INLINE] = VNPU_SQE_SDMA,
	[VNPU_HCCL_NOTIFY_RECORD] = VNPU_SQE_NOTIFY_RECORD,
	[VNPU_HCCL_NOTIFY_WAIT] = VNPU_SQE_NOTIFY_WAIT,
};

/*
 * The sub-tasks of collective @task, back to back from its start: each
 * takes its modelled time, and the first Notify_Wait whatever is left of
 * the task once the others are counted (the time this rank waited for
 * the last to arrive). The ring runs at the pace of its slowest link: a
 * rank whose own copy was faster waits the difference at its next
 * Notify_Wait. A Send's copy runs at the pace of the pair (it has no
 * later wait to take the difference). An aborted collective has no time:
 * its sub-tasks all start and end at its start.
 */
static void vnpu_hwrec_collective(struct vnpu_ring *r, const struct vnpu_prof *prof,
				  const struct vnpu_ktask *task)
{
	const struct vnpu_product_desc *p = task->stream->vfile->vdev->product;
	u32 n = task->nids, product = vnpu_product_id(p), i;
	u32 op = task->desc.comm_op, first = vnpu_hccl_first_wait(op);
	u32 own = task->comm_link_mbps, slow = task->comm_slow_mbps;
	struct vnpu_hccl_step st;
	u64 busy, t = task->start, d, wait = 0, lag = 0;

	if (op == VNPU_COMM_SEND)
		own = slow;
	/* every sub-task but the first wait, at the ring's pace */
	busy = vnpu_model_comm_busy_ticks(p, slow, op, task->comm_nranks, task->comm_rank,
					  task->desc.comm_peer, task->desc.bytes);
	if (task->end - task->start > busy)
		wait = task->end - task->start - busy;
	for (i = 0; i < n; i++) {
		vnpu_hccl_step(op, task->comm_nranks, task->comm_rank, task->desc.comm_peer,
			       task->desc.bytes, product, i, &st);
		d = vnpu_model_hccl_step_ticks(p, own, &st);
		if (i == first) {
			d = wait;
		} else if (st.kind == VNPU_HCCL_NOTIFY_WAIT) {
			d += lag;
			lag = 0;
		} else if (st.kind != VNPU_HCCL_NOTIFY_RECORD && st.link != VNPU_LINK_ON_CHIP) {
			lag = vnpu_model_hccl_step_ticks(p, slow, &st);
			lag = lag > d ? lag - d : 0;
		}
		if (task->end == task->start)
			d = 0;
		/* never past the task's end (a model that changed under it) */
		d = min(d, task->end - t);
		/* the first sub-task follows the gap; the others follow at once */
		vnpu_hwrec_flips(r, prof, task, task->id + i, i == 0 && t ? t - 1 : t);
		vnpu_hwrec_logs(r, prof, task->stream->hw_id, task->id + i,
				vnpu_hccl_sqe[st.kind], t, t + d);
		t += d;
	}
}

/**
 * vnpu_hwrec_task() - write the device's records of a completed task
 * @prof: the session.
 * @task: the task, with its start and end.
 * @c: its counters.
 *
 * The caller holds vnpu_device.lock and publishes the ring.
 */
void vnpu_hwrec_task(struct vnpu_prof *prof, const struct vnpu_ktask *task,
		     const struct vnpu_counters *c)
{
	struct vnpu_ring *r = prof->ring;
	u32 type = task->desc.task_type;

	if (type == VNPU_TASK_COMMUNICATION) {
		vnpu_hwrec_collective(r, prof, task);
		return;
	}
	vnpu_hwrec_flips(r, prof, task, task->id, task->start ? task->start - 1 : 0);
	if (prof->ffts && (type == VNPU_TASK_MIX_AIC || type == VNPU_TASK_MIX_AIV)) {
		bool main_aiv = type == VNPU_TASK_MIX_AIV;
		u32 sub = main_aiv ? VNPU_FFTS_SUBTASK_MIX_AIV : VNPU_FFTS_SUBTASK_MIX_AIC;

		vnpu_hwrec_mix_logs(r, task->stream->hw_id, task->id, vnpu_sqe_type(type), sub,
				    task->start, task->end);
		if (prof->level >= VNPU_PROF_L1)
			vnpu_hwrec_mix_pmu(r, prof, task->stream->hw_id, task->id, main_aiv,
					   task->start, task->end, c);
		return;
	}
	vnpu_hwrec_logs(r, prof, task->stream->hw_id, task->id, vnpu_sqe_type(type), task->start,
			task->end);
	/* a v6 mix op: a record for each core type, the main one's first */
	if (prof->v6 && prof->level >= VNPU_PROF_L1 &&
	    (type == VNPU_TASK_MIX_AIC || type == VNPU_TASK_MIX_AIV)) {
		bool main_aiv = type == VNPU_TASK_MIX_AIV;

		vnpu_hwrec_pmu_v6(r, prof, task->id, main_aiv, VNPU_PMU_V6_MAIN | VNPU_PMU_V6_MIX,
				  task->start, task->end, c);
		vnpu_hwrec_pmu_v6(r, prof, task->id, !main_aiv, VNPU_PMU_V6_MIX, task->start,
				  task->end, c);
		return;
	}
	/* the context PMU of plain tasks (a MIX task on chip 7 has none) */
	if (prof->level >= VNPU_PROF_L1 &&
	    (type == VNPU_TASK_AI_CORE || type == VNPU_TASK_AI_VECTOR_CORE))
		vnpu_hwrec_pmu(r, prof, task->stream->hw_id, task->id,
			       type == VNPU_TASK_AI_VECTOR_CORE, task->start, task->end, c);
	if (prof->level >= VNPU_PROF_L2 && type == VNPU_TASK_AI_CPU)
		vnpu_hwrec_aicpu(r, prof, task);
}

/* The executor's batch: tasks retired per hold of the device lock (vnpu_exec.c). */
#define VNPU_BENCH_BATCH 64
/* A stream id no real stream has: the bench's records stand apart. */
#define VNPU_BENCH_STREAM (VNPU_HW_STREAMS - 1)
/* The most tasks one write may ask for: a few seconds of records in TCG. */
#define VNPU_BENCH_MAX_TASKS BIT(24)

/**
 * vnpu_hwrec_bench() - the transport alone: the records of @n AI Core tasks
 * @vdev: the device, with a running session.
 * @n: tasks, 1 .. VNPU_BENCH_MAX_TASKS.
 *
 * Writes each task's records as vnpu_prof_task() writes a real one (its
 * ACSQ start and end, and its context PMU record from L1 on),
 * VNPU_BENCH_BATCH tasks per hold of the lock, published once per hold,
 * as the executor retires them, but with no cost model and no queues: what
 * is left is the ring. For bench/ring_transport.c (debugfs bench_tasks).
 * Loss is counted as for any record.
 *
 * Return: 0; -EINVAL for a bad @n; -ENODEV if no session runs (or
 * it stopped on the way); -EINTR on a fatal signal.
 */
int vnpu_hwrec_bench(struct vnpu_device *vdev, u32 n)
{
	static const struct vnpu_counters ctr = {
		.aic_total_cycles = 1800,
		.aic_blocks = 1,
	};
	struct vnpu_prof *prof;
	struct vnpu_ring *r;
	u32 done = 0, i;
	u64 t;

	if (!n || n > VNPU_BENCH_MAX_TASKS)
		return -EINVAL;
	while (done < n) {
		spin_lock(&vdev->lock);
		prof = vdev->prof;
		if (!prof) {
			spin_unlock(&vdev->lock);
			return -ENODEV;
		}
		r = prof->ring;
		for (i = 0; i < VNPU_BENCH_BATCH && done < n; i++, done++) {
			t = vdev->clock + done * 1000ull;
			vnpu_hwrec_logs(r, prof, VNPU_BENCH_STREAM, done, VNPU_SQE_AI_CORE, t,
					t + 900);
			if (prof->level >= VNPU_PROF_L1)
				vnpu_hwrec_pmu(r, prof, VNPU_BENCH_STREAM, done, false, t, t + 900,
					       &ctr);
		}
		vnpu_prof_flush(vdev);
		spin_unlock(&vdev->lock);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}
