/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof: the generic netlink client of the "vnpu" family - device
 * state and counters without opening the devices, and profiling-session
 * events (uapi/vnpu_nl.h, docs/netlink.md). Built on libnl-genl-3.
 *
 * One struct npuprof_nl holds a request socket and, after
 * npuprof_nl_subscribe(), an event socket. Use it from one thread at a
 * time; open one per thread otherwise.
 */
#ifndef NPUPROF_NL_H
#define NPUPROF_NL_H

#include <stdint.h>

#include "npuprof_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A connection to the "vnpu" generic netlink family. */
struct npuprof_nl;

/**
 * struct npuprof_nl_dev - one device, as VNPU_CMD_DEV_GET reports it
 * @id: the N of /dev/vnpuN.
 * @product: enum vnpu_product_id.
 * @chip_id: msprof platform_version.
 * @aic_num: AI Cores.
 * @aiv_num: AI Vector Cores.
 * @aicpu_num: AI CPUs.
 * @aic_freq_khz: AI Core clock, kHz.
 * @sys_cnt_freq_khz: system counter, kHz.
 * @product_name: e.g. "Atlas A2 training", NUL-terminated.
 * @chip_name: e.g. "Ascend910B", NUL-terminated.
 * @prof_active: 1 while a profiling session runs.
 * @prof_session: its id; 0 when none runs (as every member below).
 * @prof_level: its enum vnpu_prof_level.
 * @prof_group: its enum vnpu_metric_group.
 * @tasks_run: tasks completed since load or the last reset.
 * @tasks_pending: tasks queued.
 * @records_produced: data records the session produced (written + lost).
 * @records_lost: data records it dropped.
 * @ring_size: data bytes of its ring.
 * @ring_used: bytes of its ring not yet consumed, as the kernel last saw.
 */
struct npuprof_nl_dev {
	uint32_t id, product, chip_id, aic_num, aiv_num, aicpu_num, aic_freq_khz, sys_cnt_freq_khz;
	char product_name[32], chip_name[32];
	uint32_t prof_active, prof_session, prof_level, prof_group;
	uint64_t tasks_run, tasks_pending, records_produced, records_lost, ring_size, ring_used;
};

/* enum npuprof_nl_event_type - what struct npuprof_nl_event reports */
enum npuprof_nl_event_type {
	NPUPROF_NL_EV_SESSION_STARTED = 1,
	NPUPROF_NL_EV_SESSION_STOPPED,
	NPUPROF_NL_EV_RECORDS_LOST,
	NPUPROF_NL_EV_DEVICE_RESET
};

/**
 * struct npuprof_nl_event - one event of the "events" group
 * @type: enum npuprof_nl_event_type.
 * @dev_id: the device.
 * @session: the session (0 for DEVICE_RESET).
 * @level: its enum vnpu_prof_level (0 for DEVICE_RESET).
 * @produced: data records produced: final at SESSION_STOPPED, so far at
 *            RECORDS_LOST, 0 otherwise.
 * @lost: data records lost, likewise.
 */
struct npuprof_nl_event {
	uint32_t type, dev_id, session, level;
	uint64_t produced, lost;
};

/**
 * npuprof_nl_open() - connect to the "vnpu" family
 * @nlp: out: the connection.
 * @err: filled on failure.
 *
 * Return: 0, -ENOENT when the family is not registered (vnpu.ko is not
 * loaded), -ENOMEM, or another -errno of the socket.
 */
int npuprof_nl_open(struct npuprof_nl **nlp, struct npuprof_error *err);

/* Close @nl and its sockets. NULL is a no-op. */
void npuprof_nl_close(struct npuprof_nl *nl);

/**
 * npuprof_nl_get() - one device's state and counters
 * @nl: the connection.
 * @dev_id: the device.
 * @out: out: the device.
 * @err: filled on failure, with the kernel's extended ACK message.
 *
 * Return: 0, -ENODEV (no such device), -ERANGE (@dev_id >= VNPU_MAX_DEVICES),
 * or another -errno.
 */
int npuprof_nl_get(struct npuprof_nl *nl, uint32_t dev_id, struct npuprof_nl_dev *out,
		   struct npuprof_error *err);

/**
 * npuprof_nl_dump() - every device's state and counters
 * @nl: the connection.
 * @out: out: up to @max devices, by id; NULL to only count them.
 * @max: room in @out (VNPU_MAX_DEVICES always suffices).
 * @err: filled on failure.
 *
 * Return: the number of devices stored in @out (with @out NULL: the number
 * of devices), or -errno.
 */
int npuprof_nl_dump(struct npuprof_nl *nl, struct npuprof_nl_dev *out, unsigned int max,
		    struct npuprof_error *err);

/**
 * npuprof_nl_reset_stats() - zero a device's tasks-run counter
 * @nl: the connection.
 * @dev_id: the device.
 * @err: filled on failure.
 *
 * Subscribers get NPUPROF_NL_EV_DEVICE_RESET.
 *
 * Return: 0, -EPERM without CAP_NET_ADMIN, -ENODEV, -ERANGE, or -errno.
 */
int npuprof_nl_reset_stats(struct npuprof_nl *nl, uint32_t dev_id, struct npuprof_error *err);

/**
 * npuprof_nl_subscribe() - join the "events" multicast group
 * @nl: the connection.
 * @err: filled on failure.
 *
 * Events sent from then on queue up until npuprof_nl_next_event() reads
 * them. Calling it again is a no-op.
 *
 * Return: 0 or -errno.
 */
int npuprof_nl_subscribe(struct npuprof_nl *nl, struct npuprof_error *err);

/**
 * npuprof_nl_next_event() - the next event, waiting for one
 * @nl: a subscribed connection.
 * @ev: out: the event.
 * @timeout_ms: how long to wait: 0 returns at once, negative waits forever.
 * @err: filled on failure.
 *
 * Return: 0 with an event, -ETIMEDOUT, -EINVAL (not subscribed), -ENOBUFS
 * (events were lost: the socket's buffer overran or the kernel could not
 * allocate one; the next call goes on with the following events), or
 * another -errno.
 */
int npuprof_nl_next_event(struct npuprof_nl *nl, struct npuprof_nl_event *ev, int timeout_ms,
			  struct npuprof_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NPUPROF_NL_H */
