/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vnpu: private header shared by the module's files.
 */
#ifndef _VNPU_DRV_H
#define _VNPU_DRV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/types.h>

#include "vnpu.h"

#define VNPU_NAME "vnpu"

/**
 * struct vnpu_device - one virtual NPU, /dev/vnpuN
 * @id: the N of /dev/vnpuN.
 * @cdev: the character device; its lifetime is the module's.
 * @dev: the class device that makes the node appear.
 */
struct vnpu_device {
	u32 id;
	struct cdev cdev;
	struct device *dev;
};

/**
 * struct vnpu_file - per-open-file context
 * @vdev: the device this file was opened on.
 */
struct vnpu_file {
	struct vnpu_device *vdev;
};

extern const struct file_operations vnpu_fops;
u32 vnpu_device_count(void);

#endif /* _VNPU_DRV_H */
