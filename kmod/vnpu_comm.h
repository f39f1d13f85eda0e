/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: communicators and the rendezvous of their collectives (vnpu_comm.c).
 */
#ifndef _VNPU_COMM_H
#define _VNPU_COMM_H

#include <linux/types.h>

#include "vnpu.h"

struct vnpu_comm;
struct vnpu_communicator;
struct vnpu_device;
struct vnpu_file;
struct vnpu_ktask;

/**
 * struct vnpu_comm_handle - a file's membership of a communicator
 * @cm: the communicator, NULL for a free handle (changes under the file's
 *      lock and vnpu_device.lock).
 * @rank: the file's rank in it.
 * @nranks: the ranks of the communicator (fixed at its creation).
 * @queued: the file's collectives on it, reserved or queued and not yet
 *          retired (under vnpu_device.lock): destroy waits for none.
 */
struct vnpu_comm_handle {
	struct vnpu_communicator *cm;
	u32 rank;
	u32 nranks;
	u32 queued;
};

long vnpu_ioctl_comm_init(struct vnpu_file *vfile, void __user *arg);
long vnpu_ioctl_comm_destroy(struct vnpu_file *vfile, void __user *arg);
void vnpu_file_release_comms(struct vnpu_file *vfile);
struct vnpu_comm_handle *vnpu_comm_handle_get(struct vnpu_file *vfile, u32 comm_id);
void vnpu_comm_queue(struct vnpu_ktask *task, struct vnpu_comm_handle *h);
int vnpu_comm_check_peer(const struct vnpu_comm_handle *h, const struct vnpu_task *t);
struct vnpu_comm *vnpu_comm_alloc(void);
void vnpu_comm_free(struct vnpu_comm *c);
void vnpu_comm_arrive(struct vnpu_device *vdev, struct vnpu_ktask *task,
		      u64 ready);
bool vnpu_comm_ready(struct vnpu_ktask *task, u64 *start, u64 *end);
u32 vnpu_comm_devices(const struct vnpu_ktask *task);
bool vnpu_comm_leave(struct vnpu_device *vdev, struct vnpu_ktask *task,
		     struct vnpu_comm_handle *h, bool cancelled);

#endif /* _VNPU_COMM_H */
