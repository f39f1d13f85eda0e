/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: the generic netlink family "vnpu", user API.
 *
 * Device state, counters and profiling-session events of every /dev/vnpuN,
 * without opening the devices. The spec is kmod/spec/vnpu.yaml; the family
 * is documented in docs/netlink.md.
 *
 *   VNPU_CMD_DEV_GET      do: one device (VNPU_A_DEV_ID required)
 *                         dump: every device (no attributes)
 *   VNPU_CMD_RESET_STATS  do: zero a device's tasks-run counter
 *                         (CAP_NET_ADMIN); multicasts VNPU_CMD_DEVICE_RESET
 *
 * Notifications on the multicast group VNPU_GENL_MCGRP_EVENTS ("events"):
 * VNPU_CMD_SESSION_STARTED, VNPU_CMD_SESSION_STOPPED, VNPU_CMD_RECORDS_LOST,
 * VNPU_CMD_DEVICE_RESET.
 *
 * All commands are strictly validated: unknown attributes, attributes a
 * command does not take, a missing VNPU_A_DEV_ID and attributes of the
 * wrong size are rejected with -EINVAL, values out of the policy's range
 * with -ERANGE, each with an extended ACK message. u64 attributes are
 * 64-bit aligned with VNPU_A_PAD.
 */
#ifndef _UAPI_VNPU_NL_H
#define _UAPI_VNPU_NL_H

#define VNPU_GENL_NAME "vnpu"
#define VNPU_GENL_VERSION 1
#define VNPU_GENL_MCGRP_EVENTS "events"

/**
 * enum vnpu_nl_attr - attributes of every command and notification
 * @VNPU_A_UNSPEC: never used.
 * @VNPU_A_DEV_ID: u32, the N of /dev/vnpuN; DEV_GET and RESET_STATS take
 *                 it (0 .. devices - 1: -ENODEV above the last device,
 *                 -ERANGE at VNPU_MAX_DEVICES and above).
 * @VNPU_A_PAD: padding for 64-bit attributes; ignore.
 * @VNPU_A_DEV_PRODUCT: u32, enum vnpu_product_id.
 * @VNPU_A_DEV_PRODUCT_NAME: string, e.g. "Atlas A2 training".
 * @VNPU_A_DEV_CHIP_NAME: string, e.g. "Ascend910B".
 * @VNPU_A_DEV_CHIP_ID: u32, msprof platform_version.
 * @VNPU_A_DEV_AIC_NUM: u32, AI Cores.
 * @VNPU_A_DEV_AIV_NUM: u32, AI Vector Cores.
 * @VNPU_A_DEV_AICPU_NUM: u32, AI CPUs.
 * @VNPU_A_DEV_AIC_FREQ_KHZ: u32, AI Core clock, kHz.
 * @VNPU_A_DEV_SYS_CNT_FREQ_KHZ: u32, system counter (device time), kHz.
 * @VNPU_A_PROF_ACTIVE: u32, 1 while a profiling session runs, else 0.
 * @VNPU_A_PROF_SESSION: u32, the running session's id (as returned by
 *                       VNPU_IOC_PROF_START); absent when none runs.
 * @VNPU_A_PROF_LEVEL: u32, its enum vnpu_prof_level.
 * @VNPU_A_PROF_METRIC_GROUP: u32, its enum vnpu_metric_group
 *                            (VNPU_METRIC_NONE at L0).
 * @VNPU_A_TASKS_RUN: u64, tasks completed since load or the last
 *                    RESET_STATS.
 * @VNPU_A_TASKS_PENDING: u64, tasks queued and not completed.
 * @VNPU_A_RECORDS_PRODUCED: u64, records the running session produced
 *                           (written + lost) over its channels; absent when
 *                           none runs.
 * @VNPU_A_RECORDS_LOST: u64, records it dropped (their channel full).
 * @VNPU_A_RING_SIZE: u64, data bytes of its channels, added up.
 * @VNPU_A_RING_USED: u64, bytes of its channels not yet consumed, added up,
 *                    as the kernel last saw their consumer positions.
 * @__VNPU_A_MAX: the number of attributes.
 * @VNPU_A_MAX: the highest attribute.
 */
enum vnpu_nl_attr {
	VNPU_A_UNSPEC,
	VNPU_A_DEV_ID,
	VNPU_A_PAD,
	VNPU_A_DEV_PRODUCT,
	VNPU_A_DEV_PRODUCT_NAME,
	VNPU_A_DEV_CHIP_NAME,
	VNPU_A_DEV_CHIP_ID,
	VNPU_A_DEV_AIC_NUM,
	VNPU_A_DEV_AIV_NUM,
	VNPU_A_DEV_AICPU_NUM,
	VNPU_A_DEV_AIC_FREQ_KHZ,
	VNPU_A_DEV_SYS_CNT_FREQ_KHZ,
	VNPU_A_PROF_ACTIVE,
	VNPU_A_PROF_SESSION,
	VNPU_A_PROF_LEVEL,
	VNPU_A_PROF_METRIC_GROUP,
	VNPU_A_TASKS_RUN,
	VNPU_A_TASKS_PENDING,
	VNPU_A_RECORDS_PRODUCED,
	VNPU_A_RECORDS_LOST,
	VNPU_A_RING_SIZE,
	VNPU_A_RING_USED,

	__VNPU_A_MAX,
	VNPU_A_MAX = __VNPU_A_MAX - 1
};

/**
 * enum vnpu_nl_cmd - commands (requests) and notifications
 * @VNPU_CMD_UNSPEC: never used.
 * @VNPU_CMD_DEV_GET: request: one device (do) or all (dump). Reply: the
 *                    device attributes, VNPU_A_DEV_ID .. VNPU_A_RING_USED.
 * @VNPU_CMD_RESET_STATS: request (CAP_NET_ADMIN): VNPU_A_DEV_ID. Zeroes
 *                        the device's VNPU_A_TASKS_RUN. Reply: an ACK.
 * @VNPU_CMD_SESSION_STARTED: notification: VNPU_A_DEV_ID,
 *                            VNPU_A_PROF_SESSION, VNPU_A_PROF_LEVEL,
 *                            VNPU_A_PROF_METRIC_GROUP, VNPU_A_RING_SIZE.
 * @VNPU_CMD_SESSION_STOPPED: notification: VNPU_A_DEV_ID,
 *                            VNPU_A_PROF_SESSION, VNPU_A_PROF_LEVEL and the
 *                            session's final VNPU_A_RECORDS_PRODUCED and
 *                            VNPU_A_RECORDS_LOST.
 * @VNPU_CMD_RECORDS_LOST: notification: a running session began to drop
 *                         records; the same attributes as SESSION_STOPPED,
 *                         counted when the message is built. At most one
 *                         per session per 100 ms (see docs/netlink.md).
 * @VNPU_CMD_DEVICE_RESET: notification: VNPU_A_DEV_ID; RESET_STATS zeroed
 *                         the device's counters.
 * @__VNPU_CMD_MAX: the number of commands.
 * @VNPU_CMD_MAX: the highest command.
 */
enum vnpu_nl_cmd {
	VNPU_CMD_UNSPEC,
	VNPU_CMD_DEV_GET,
	VNPU_CMD_RESET_STATS,
	VNPU_CMD_SESSION_STARTED,
	VNPU_CMD_SESSION_STOPPED,
	VNPU_CMD_RECORDS_LOST,
	VNPU_CMD_DEVICE_RESET,

	__VNPU_CMD_MAX,
	VNPU_CMD_MAX = __VNPU_CMD_MAX - 1
};

#endif /* _UAPI_VNPU_NL_H */
