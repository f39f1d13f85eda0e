/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnpuprof runtime/: devices, streams, operator launches and
 * collectives (runtime.c, ops.c, comm.c, comm_ranks.c). It records what
 * CANN's runtime records through hostrec/ and knows nothing of the
 * session, the collector or the export: global profiling reaches it
 * through the open hook.
 */
#ifndef NPR_RUNTIME_H
#define NPR_RUNTIME_H

#include "core/core.h"
#include "format/format.h"
#include "hostrec/hostrec.h"

/**
 * struct npuprof_dev - an open device
 * @fd: /dev/vnpuN.
 * @rec: the device as its host records describe it (hostrec/hostrec.h):
 *       its id N, VNPU_IOC_GET_INFO at open, its streams' device-wide ids
 *       and its communicators.
 * @serial: unique among the devices this process opened.
 * @next_open: in runtime.c's list of open devices.
 */
struct npuprof_dev {
	int fd;
	struct nph_device rec;
	uint64_t serial;
	struct npuprof_dev *next_open;
};

/*
 * runtime.c: what runs when a device opens, before the open returns (an
 * error fails the open). The session sets it (global.c, when the library
 * loads), so that the runtime calls global profiling without knowing it:
 * a program that uses only the runtime links none of the session.
 */
typedef int (*npr_open_hook_fn)(struct npuprof_dev *dev, struct npuprof_error *err);
void npr_set_open_hook(npr_open_hook_fn fn);

/* runtime.c: is global profiling configured in the environment (PROFILING_MODE)? */
int npr_global_configured(void);

#endif /* NPR_RUNTIME_H */
