/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: what debugfs shows and sets: the objects alive (a leak check at
 * unload) and the fault knobs (vnpu_fail_alloc()).
 */
#ifndef _VNPU_DEBUGFS_H
#define _VNPU_DEBUGFS_H

#include <linux/atomic.h>
#include <linux/types.h>

/* Kinds of objects vnpu_debugfs.c counts while they live. */
enum vnpu_obj_kind {
	VNPU_OBJ_FILE,
	VNPU_OBJ_STREAM,
	VNPU_OBJ_TASK,
	VNPU_OBJ_COMM,
	VNPU_OBJ_COMMUNICATOR,
	VNPU_OBJ_SESSION,
	VNPU_OBJ_RING,
	VNPU_OBJ_KINDS,
};

struct vnpu_objects {
	atomic_long_t live[VNPU_OBJ_KINDS];
};

extern struct vnpu_objects vnpu_objects;
bool vnpu_fail_alloc(void);
long vnpu_objects_live(void);
void vnpu_objects_check_leaks(void);
void vnpu_debugfs_init(void);
void vnpu_debugfs_exit(void);

static inline void vnpu_obj_get(enum vnpu_obj_kind kind)
{
	atomic_long_inc(&vnpu_objects.live[kind]);
}

static inline void vnpu_obj_put(enum vnpu_obj_kind kind)
{
	atomic_long_dec(&vnpu_objects.live[kind]);
}

#endif /* _VNPU_DEBUGFS_H */
