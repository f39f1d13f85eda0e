// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: module init and exit, module parameters, device instances.
 *
 * Each device is a character device /dev/vnpuN in the "vnpu" class. The
 * nodes are root-owned and mode 0660; grant a group access with a udev rule
 * (see docs/devvm.md).
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "vnpu_drv.h"

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of virtual NPUs to create (1..16, default 1)");

static dev_t vnpu_devt;
static struct class *vnpu_class;
static struct vnpu_device *vnpu_devs;
static u32 vnpu_ndevs;

u32 vnpu_device_count(void)
{
	return vnpu_ndevs;
}

static char *vnpu_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0660;
	return NULL;
}

static int vnpu_device_add(struct vnpu_device *vdev, u32 id)
{
	dev_t devt = MKDEV(MAJOR(vnpu_devt), id);
	int ret;

	vdev->id = id;
	cdev_init(&vdev->cdev, &vnpu_fops);
	vdev->cdev.owner = THIS_MODULE;
	ret = cdev_add(&vdev->cdev, devt, 1);
	if (ret)
		return ret;

	vdev->dev = device_create(vnpu_class, NULL, devt, vdev, VNPU_NAME "%u", id);
	if (IS_ERR(vdev->dev)) {
		ret = PTR_ERR(vdev->dev);
		goto err_cdev_del;
	}
	return 0;

err_cdev_del:
	cdev_del(&vdev->cdev);
	return ret;
}

static void vnpu_device_remove(struct vnpu_device *vdev)
{
	device_destroy(vnpu_class, vdev->cdev.dev);
	cdev_del(&vdev->cdev);
}

static int __init vnpu_init(void)
{
	u32 i;
	int ret;

	if (devices < 1 || devices > VNPU_MAX_DEVICES) {
		pr_err(VNPU_NAME ": devices=%u is out of range 1..%u\n",
		       devices, VNPU_MAX_DEVICES);
		return -EINVAL;
	}

	ret = alloc_chrdev_region(&vnpu_devt, 0, devices, VNPU_NAME);
	if (ret)
		return ret;

	vnpu_class = class_create(THIS_MODULE, VNPU_NAME);
	if (IS_ERR(vnpu_class)) {
		ret = PTR_ERR(vnpu_class);
		goto err_unregister_region;
	}
	vnpu_class->devnode = vnpu_devnode;

	vnpu_devs = kcalloc(devices, sizeof(*vnpu_devs), GFP_KERNEL);
	if (!vnpu_devs) {
		ret = -ENOMEM;
		goto err_destroy_class;
	}

	for (i = 0; i < devices; i++) {
		ret = vnpu_device_add(&vnpu_devs[i], i);
		if (ret)
			goto err_remove_devices;
		vnpu_ndevs++;
	}

	pr_info(VNPU_NAME ": %u device(s), uapi %u.%u\n", vnpu_ndevs,
		VNPU_UAPI_VERSION_MAJOR, VNPU_UAPI_VERSION_MINOR);
	return 0;

err_remove_devices:
	while (vnpu_ndevs)
		vnpu_device_remove(&vnpu_devs[--vnpu_ndevs]);
	kfree(vnpu_devs);
err_destroy_class:
	class_destroy(vnpu_class);
err_unregister_region:
	unregister_chrdev_region(vnpu_devt, devices);
	return ret;
}

static void __exit vnpu_exit(void)
{
	while (vnpu_ndevs)
		vnpu_device_remove(&vnpu_devs[--vnpu_ndevs]);
	kfree(vnpu_devs);
	class_destroy(vnpu_class);
	unregister_chrdev_region(vnpu_devt, devices);
}

module_init(vnpu_init);
module_exit(vnpu_exit);

MODULE_DESCRIPTION("Virtual NPU devices with a profiling ring");
MODULE_LICENSE("GPL");
