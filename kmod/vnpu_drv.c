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
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"
#include "vnpu_nl_family.h"

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of virtual NPUs to create (1..16, default 1)");

static char *product[VNPU_MAX_DEVICES];
static unsigned int nproduct;
module_param_array(product, charp, &nproduct, 0444);
MODULE_PARM_DESC(product,
		 "product per device: a2, a3, 350, 910, 200i-a2, 310p (default a2; the last one given applies to the devices after it)");

/*
 * The seed of the task-duration jitter: the same seed gives every op the
 * same draw (vnpu_submit.c keys it by device, stream and place), 0 none.
 * A load without one draws a random seed, as no two runs of a real device
 * are alike. A session records the seed it ran with, so the seed cannot
 * change while one is active (vnpu_seed_lock orders the two).
 */
u64 vnpu_param_seed;
DEFINE_SPINLOCK(vnpu_seed_lock);
static bool vnpu_seed_given;

static int vnpu_seed_set(const char *val, const struct kernel_param *kp)
{
	u32 i, n = vnpu_device_count();
	int ret = 0;
	u64 v;

	if (sysfs_streq(val, "random"))
		v = get_random_u64() ?: 1;
	else if (kstrtou64(val, 0, &v))
		return -EINVAL;
	spin_lock(&vnpu_seed_lock);
	for (i = 0; i < n && !ret; i++) {
		struct vnpu_device *vdev = vnpu_device_get(i);

		spin_lock(&vdev->lock);
		if (vdev->prof)
			ret = -EBUSY;
		spin_unlock(&vdev->lock);
	}
	if (!ret) {
		WRITE_ONCE(vnpu_param_seed, v);
		vnpu_seed_given = true;
	}
	spin_unlock(&vnpu_seed_lock);
	return ret;
}

static int vnpu_seed_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(vnpu_param_seed));
}

static const struct kernel_param_ops vnpu_seed_ops = {
	.set = vnpu_seed_set,
	.get = vnpu_seed_get,
};

module_param_cb(seed, &vnpu_seed_ops, NULL, 0644);
MODULE_PARM_DESC(seed, "seed of the task-duration jitter: N, or random (the default); 0: no jitter; -EBUSY while a session is active");

unsigned int vnpu_param_jitter = 60;
module_param_named(jitter, vnpu_param_jitter, uint, 0444);
MODULE_PARM_DESC(jitter, "task-duration jitter, its standard deviation in permille (0..144, default 60: 6%)");

/*
 * Device time 0 on every device: device time is host time, counted from
 * here in each product's system counter ticks (vnpu_exec.c).
 */
u64 vnpu_epoch_raw_ns;

/*
 * A fault knob for the init-order test (test_lifecycle): the load waits
 * this many ms at the last step of init that can fail, then fails it.
 */
static unsigned int fail_init_ms;
module_param(fail_init_ms, uint, 0444);
MODULE_PARM_DESC(fail_init_ms, "testing: fail the load after this many ms at its last failable step (default 0: never)");

static int vnpu_init_fault(void)
{
	if (!fail_init_ms)
		return 0;
	msleep(fail_init_ms);
	pr_info(VNPU_NAME ": fail_init_ms=%u: failing the load, as asked\n", fail_init_ms);
	return -EIO;
}

static dev_t vnpu_devt;
static struct cdev vnpu_cdev; /* every minor: added last at init */
static struct class *vnpu_class;
static struct vnpu_device *vnpu_devs;
static u32 vnpu_ndevs;

u32 vnpu_device_count(void)
{
	return vnpu_ndevs;
}

struct vnpu_device *vnpu_device_get(u32 id)
{
	return id < vnpu_ndevs ? &vnpu_devs[id] : NULL;
}

/* The product of device @id from the "product" parameter, or -EINVAL. */
static int vnpu_product_of(u32 id)
{
	const char *key;
	int p;

	if (!nproduct)
		return VNPU_PRODUCT_A2;
	key = product[min_t(u32, id, nproduct - 1)];
	p = vnpu_product_find(key);
	if (p < 0)
		pr_err(VNPU_NAME ": product=%s is not one of a2, a3, 350, 910, 200i-a2, 310p\n",
		       key);
	return p < 0 ? -EINVAL : p;
}

static char *vnpu_devnode(struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0660;
	return NULL;
}

/* Everything a device needs before anyone can open it. */
static int vnpu_device_setup(struct vnpu_device *vdev, u32 id, int product_id)
{
	vdev->id = id;
	vdev->product_id = product_id;
	vdev->product = vnpu_product_get(product_id);
	spin_lock_init(&vdev->lock);
	mutex_init(&vdev->prof_lock);
	vdev->active = RB_ROOT_CACHED;
	ida_init(&vdev->hw_streams);
	vdev->next_task_id = 1;
	vdev->running = RB_ROOT_CACHED;
	atomic_set(&vdev->kick, 0);
	init_waitqueue_head(&vdev->exec_wq);
	init_waitqueue_head(&vdev->done_wq);
	return vnpu_exec_start(vdev);
}

static void vnpu_device_teardown(struct vnpu_device *vdev)
{
	vnpu_exec_stop(vdev);
	ida_destroy(&vdev->hw_streams);
}

static void vnpu_nodes_remove(u32 n)
{
	while (n--)
		device_destroy(vnpu_class, MKDEV(MAJOR(vnpu_devt), n));
}

/*
 * The device nodes. Opening one gives -ENXIO until vnpu_cdev is added, so
 * they may appear before init is sure to succeed.
 */
static int vnpu_nodes_add(void)
{
	struct device *dev;
	u32 i;

	for (i = 0; i < vnpu_ndevs; i++) {
		dev = device_create(vnpu_class, NULL, MKDEV(MAJOR(vnpu_devt), i),
				    &vnpu_devs[i], VNPU_NAME "%u", i);
		if (IS_ERR(dev)) {
			vnpu_nodes_remove(i);
			return PTR_ERR(dev);
		}
		vnpu_devs[i].dev = dev;
	}
	return 0;
}

/*
 * Init order: everything, netlink and debugfs included, then the nodes,
 * and last the one cdev of every minor, which makes the devices openable.
 * Nothing can fail after it, so no file is ever open on a device that a
 * failed load frees (issue 16 item 10).
 */
static int __init vnpu_init(void)
{
	int products[VNPU_MAX_DEVICES];
	u32 i;
	int ret;

	if (devices < 1 || devices > VNPU_MAX_DEVICES) {
		pr_err(VNPU_NAME ": devices=%u is out of range 1..%u\n",
		       devices, VNPU_MAX_DEVICES);
		return -EINVAL;
	}
	if (nproduct > devices) {
		pr_err(VNPU_NAME ": %u products given for %u devices\n",
		       nproduct, devices);
		return -EINVAL;
	}
	if (vnpu_param_jitter > VNPU_MODEL_MAX_SIGMA) {
		pr_err(VNPU_NAME ": jitter=%u is out of range 0..%u\n",
		       vnpu_param_jitter, VNPU_MODEL_MAX_SIGMA);
		return -EINVAL;
	}
	for (i = 0; i < devices; i++) {
		products[i] = vnpu_product_of(i);
		if (products[i] < 0)
			return products[i];
	}
	vnpu_epoch_raw_ns = ktime_get_raw_ns();
	if (!vnpu_seed_given)
		vnpu_param_seed = get_random_u64() ?: 1;

	ret = vnpu_task_cache_init();
	if (ret)
		return ret;

	ret = alloc_chrdev_region(&vnpu_devt, 0, devices, VNPU_NAME);
	if (ret)
		goto err_destroy_task_cache;

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
		ret = vnpu_device_setup(&vnpu_devs[i], i, products[i]);
		if (ret)
			goto err_teardown_devices;
		vnpu_ndevs++;
	}

	/* after the devices: a netlink request never sees one being set up */
	ret = vnpu_nl_init();
	if (ret)
		goto err_teardown_devices;
	vnpu_debugfs_init();

	ret = vnpu_nodes_add();
	if (ret)
		goto err_exit_nl_debugfs;

	ret = vnpu_init_fault();
	if (ret)
		goto err_remove_nodes;

	cdev_init(&vnpu_cdev, &vnpu_fops);
	vnpu_cdev.owner = THIS_MODULE;
	ret = cdev_add(&vnpu_cdev, vnpu_devt, vnpu_ndevs);
	if (ret)
		goto err_remove_nodes;

	pr_info(VNPU_NAME ": %u device(s), uapi %u.%u\n", vnpu_ndevs,
		VNPU_UAPI_VERSION_MAJOR, VNPU_UAPI_VERSION_MINOR);
	return 0;

err_remove_nodes:
	vnpu_nodes_remove(vnpu_ndevs);
err_exit_nl_debugfs:
	vnpu_debugfs_exit();
	vnpu_nl_exit();
err_teardown_devices:
	while (vnpu_ndevs)
		vnpu_device_teardown(&vnpu_devs[--vnpu_ndevs]);
	kfree(vnpu_devs);
err_destroy_class:
	class_destroy(vnpu_class);
err_unregister_region:
	unregister_chrdev_region(vnpu_devt, devices);
err_destroy_task_cache:
	vnpu_task_cache_exit();
	return ret;
}

static void __exit vnpu_exit(void)
{
	/* first: no new open, then nobody reads a device being removed */
	cdev_del(&vnpu_cdev);
	vnpu_nodes_remove(vnpu_ndevs);
	vnpu_debugfs_exit();
	vnpu_nl_exit();
	while (vnpu_ndevs)
		vnpu_device_teardown(&vnpu_devs[--vnpu_ndevs]);
	kfree(vnpu_devs);
	class_destroy(vnpu_class);
	unregister_chrdev_region(vnpu_devt, devices);
	vnpu_objects_check_leaks();
	vnpu_task_cache_exit();
}

module_init(vnpu_init);
module_exit(vnpu_exit);

MODULE_DESCRIPTION("Virtual NPU devices with a profiling ring");
MODULE_LICENSE("GPL");
