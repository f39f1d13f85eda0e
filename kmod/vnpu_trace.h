/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: tracepoints (events/vnpu/ in tracefs, perf's vnpu:*, and
 * tp_btf/raw_tp BPF programs).
 *
 * The prototypes take scalars and the NUL-terminated op type only, never
 * a kernel structure: a tp_btf or raw_tp program sees exactly these
 * arguments, so the BPF side needs no layout of the module's structures.
 * Keep them stable; add arguments at the end. The recorded entries hold
 * scalars and a copy of the op type (__string), never a pointer.
 *
 * Device times (start, end) are in the product's system counter ticks,
 * durations in nanoseconds. docs/tracing.md describes every event.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vnpu

#if !defined(_VNPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _VNPU_TRACE_H

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "vnpu.h"
#include "vnpu_prof.h"

TRACE_DEFINE_ENUM(VNPU_TASK_AI_CORE);
TRACE_DEFINE_ENUM(VNPU_TASK_AI_VECTOR_CORE);
TRACE_DEFINE_ENUM(VNPU_TASK_MIX_AIC);
TRACE_DEFINE_ENUM(VNPU_TASK_MIX_AIV);
TRACE_DEFINE_ENUM(VNPU_TASK_AI_CPU);
TRACE_DEFINE_ENUM(VNPU_TASK_COMMUNICATION);
TRACE_DEFINE_ENUM(VNPU_PROF_L0);
TRACE_DEFINE_ENUM(VNPU_PROF_L1);
TRACE_DEFINE_ENUM(VNPU_PROF_L2);

#define vnpu_trace_task_type(type)					\
	__print_symbolic(type,						\
			 { VNPU_TASK_AI_CORE, "AI_CORE" },		\
			 { VNPU_TASK_AI_VECTOR_CORE, "AI_VECTOR_CORE" },	\
			 { VNPU_TASK_MIX_AIC, "MIX_AIC" },		\
			 { VNPU_TASK_MIX_AIV, "MIX_AIV" },		\
			 { VNPU_TASK_AI_CPU, "AI_CPU" },		\
			 { VNPU_TASK_COMMUNICATION, "COMMUNICATION" })

#define vnpu_trace_level(level)						\
	__print_symbolic(level,						\
			 { VNPU_PROF_L0, "L0" },			\
			 { VNPU_PROF_L1, "L1" },			\
			 { VNPU_PROF_L2, "L2" })

/*
 * vnpu_task_submit - a task was queued on its stream (VNPU_IOC_SUBMIT)
 * @dev: the N of /dev/vnpuN.
 * @task_id: the device-wide task id.
 * @stream: the stream's device-wide id (the records' Stream ID).
 * @task_type: enum vnpu_task_type.
 * @op_type: the operator type, e.g. "MatMul".
 * @block_num: blocks (cores) the task asks for.
 * @qdepth: tasks queued on the stream, this one included.
 */
TRACE_EVENT(vnpu_task_submit,
	    TP_PROTO(u32 dev, u64 task_id, u32 stream, u32 task_type,
		     const char *op_type, u32 block_num, u32 qdepth),
	    TP_ARGS(dev, task_id, stream, task_type, op_type, block_num,
		    qdepth),
	    TP_STRUCT__entry(__field(u64, task_id)
			     __field(u32, dev)
			     __field(u32, stream)
			     __field(u32, task_type)
			     __field(u32, block_num)
			     __field(u32, qdepth)
			     __string(op_type, op_type)),
	    TP_fast_assign(__entry->task_id = task_id;
			   __entry->dev = dev;
			   __entry->stream = stream;
			   __entry->task_type = task_type;
			   __entry->block_num = block_num;
			   __entry->qdepth = qdepth;
			   __assign_str(op_type, op_type);),
	    TP_printk("dev=%u task=%llu stream=%u type=%s op_type=%s blocks=%u qdepth=%u",
		      __entry->dev, __entry->task_id, __entry->stream,
		      vnpu_trace_task_type(__entry->task_type),
		      __get_str(op_type), __entry->block_num, __entry->qdepth)
);

/*
 * vnpu_task_start and vnpu_task_end are both emitted when the executor
 * retires the task (in device time it has run by then): @start and @end
 * are the device times, not the trace timestamp.
 *
 * @qdepth: tasks queued on the stream: at vnpu_task_start this task
 * included, at vnpu_task_end after it left the queue.
 */
DECLARE_EVENT_CLASS(vnpu_task_run,
		    TP_PROTO(u32 dev, u64 task_id, u32 stream, u32 task_type,
			     const char *op_type, u64 start, u64 end,
			     u64 duration_ns, u32 qdepth),
		    TP_ARGS(dev, task_id, stream, task_type, op_type, start,
			    end, duration_ns, qdepth),
		    TP_STRUCT__entry(__field(u64, task_id)
				     __field(u64, start)
				     __field(u64, end)
				     __field(u64, duration_ns)
				     __field(u32, dev)
				     __field(u32, stream)
				     __field(u32, task_type)
				     __field(u32, qdepth)
				     __string(op_type, op_type)),
		    TP_fast_assign(__entry->task_id = task_id;
				   __entry->start = start;
				   __entry->end = end;
				   __entry->duration_ns = duration_ns;
				   __entry->dev = dev;
				   __entry->stream = stream;
				   __entry->task_type = task_type;
				   __entry->qdepth = qdepth;
				   __assign_str(op_type, op_type);),
		    TP_printk("dev=%u task=%llu stream=%u type=%s op_type=%s start=%llu end=%llu duration_ns=%llu qdepth=%u",
			      __entry->dev, __entry->task_id, __entry->stream,
			      vnpu_trace_task_type(__entry->task_type),
			      __get_str(op_type), __entry->start, __entry->end,
			      __entry->duration_ns, __entry->qdepth)
);

DEFINE_EVENT(vnpu_task_run, vnpu_task_start,
	     TP_PROTO(u32 dev, u64 task_id, u32 stream, u32 task_type,
		      const char *op_type, u64 start, u64 end, u64 duration_ns,
		      u32 qdepth),
	     TP_ARGS(dev, task_id, stream, task_type, op_type, start, end,
		     duration_ns, qdepth)
);

DEFINE_EVENT(vnpu_task_run, vnpu_task_end,
	     TP_PROTO(u32 dev, u64 task_id, u32 stream, u32 task_type,
		      const char *op_type, u64 start, u64 end, u64 duration_ns,
		      u32 qdepth),
	     TP_ARGS(dev, task_id, stream, task_type, op_type, start, end,
		     duration_ns, qdepth)
);

/*
 * vnpu_session_start - a profiling session started
 * @dev: the device.
 * @session: the session id.
 * @level: enum vnpu_prof_level.
 * @group: enum vnpu_metric_group (255: none, at L0).
 */
TRACE_EVENT(vnpu_session_start,
	    TP_PROTO(u32 dev, u32 session, u32 level, u32 group),
	    TP_ARGS(dev, session, level, group),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, session)
			     __field(u32, level)
			     __field(u32, group)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->session = session;
			   __entry->level = level;
			   __entry->group = group;),
	    TP_printk("dev=%u session=%u level=%s group=%u",
		      __entry->dev, __entry->session,
		      vnpu_trace_level(__entry->level), __entry->group)
);

/*
 * vnpu_session_stop - a profiling session stopped (ioctl or close)
 * @dev: the device.
 * @session: the session id.
 * @level: enum vnpu_prof_level.
 * @group: enum vnpu_metric_group.
 * @produced: records the session produced (written + lost), over its channels.
 * @lost: records it dropped because their channel was full.
 */
TRACE_EVENT(vnpu_session_stop,
	    TP_PROTO(u32 dev, u32 session, u32 level, u32 group, u64 produced,
		     u64 lost),
	    TP_ARGS(dev, session, level, group, produced, lost),
	    TP_STRUCT__entry(__field(u64, produced)
			     __field(u64, lost)
			     __field(u32, dev)
			     __field(u32, session)
			     __field(u32, level)
			     __field(u32, group)),
	    TP_fast_assign(__entry->produced = produced;
			   __entry->lost = lost;
			   __entry->dev = dev;
			   __entry->session = session;
			   __entry->level = level;
			   __entry->group = group;),
	    TP_printk("dev=%u session=%u level=%s group=%u produced=%llu lost=%llu",
		      __entry->dev, __entry->session,
		      vnpu_trace_level(__entry->level), __entry->group,
		      __entry->produced, __entry->lost)
);

/*
 * vnpu_records_lost - a session's channels started dropping records
 *
 * Emitted once per loss burst, on the transition into loss: the first
 * reservation dropped while no burst runs. The burst lasts until every
 * channel that dropped records has fitted one again or has room again
 * (vnpu_chan_reserve());
 * the records dropped meanwhile are not traced one by one: the channels'
 * lost counters and vnpu_session_stop carry the counts.
 *
 * @dev: the device.
 * @session: the session id.
 * @lost: records the session has lost so far, the dropped reservation
 *        included (two for a task's logs).
 */
TRACE_EVENT(vnpu_records_lost,
	    TP_PROTO(u32 dev, u32 session, u64 lost),
	    TP_ARGS(dev, session, lost),
	    TP_STRUCT__entry(__field(u64, lost)
			     __field(u32, dev)
			     __field(u32, session)),
	    TP_fast_assign(__entry->lost = lost;
			   __entry->dev = dev;
			   __entry->session = session;),
	    TP_printk("dev=%u session=%u lost=%llu",
		      __entry->dev, __entry->session, __entry->lost)
);

#endif /* _VNPU_TRACE_H */

/* This part must be outside the guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vnpu_trace
#include <trace/define_trace.h>
