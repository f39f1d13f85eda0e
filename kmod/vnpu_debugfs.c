// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: debugfs, /sys/kernel/debug/vnpu/ (root only, for tests).
 *
 *  objects     live objects of each kind the module allocates: the
 *              reliability tests (docs/reliability.md) check that every
 *              count is back to zero once the files are closed, however
 *              they were closed (SIGKILL, fork, races). Read-only.
 *  fail_alloc  fault injection, in the manner of netdevsim's knobs: write N
 *              and the Nth allocation the module makes from then on fails
 *              as if memory ran out; 0 (the default) disarms it. Reading
 *              gives the allocations still to go. Stock kernels lack
 *              CONFIG_FAILSLAB, so the module counts its own allocations;
 *              that also keeps other subsystems out of the experiment.
 *  vnpuN/link_bw_mbps
 *              the bandwidth (MB/s) of the link device N's collectives copy
 *              over, 1 .. VNPU_LINK_BW_MAX_MBPS; 0 (the default) is the
 *              product's (vnpu_info.link_bw_mbps). A slower one is the slow
 *              link of the communication matrix: the ring runs at its pace,
 *              the other ranks waiting for it. Read back: the value in
 *              force. Collectives take it when they arrive.
 *  vnpuN/bench_tasks
 *              the transport alone, for bench/ring_transport.c: write N
 *              (1 .. 2^24) and the device writes the records of N AI Core
 *              tasks into its running session's channels, as it
 *              writes a real task's, with no cost model in between
 *              (vnpu_hwrec_bench()). The write returns when they are all
 *              written (or lost); ENODEV without a session.
 *              Write-only.
 *
 * The module works without debugfs; a failure to create it is not an error.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"

struct vnpu_objects vnpu_objects;

static atomic_t vnpu_fail_countdown = ATOMIC_INIT(0);
static struct dentry *vnpu_debugfs_dir;

static const char *const vnpu_object_names[] = {
	[VNPU_OBJ_FILE] = "files",
	[VNPU_OBJ_STREAM] = "streams",
	[VNPU_OBJ_TASK] = "tasks",
	[VNPU_OBJ_COMM] = "comms",
	[VNPU_OBJ_COMMUNICATOR] = "communicators",
	[VNPU_OBJ_SESSION] = "sessions",
	[VNPU_OBJ_RING] = "rings",
};

static_assert(ARRAY_SIZE(vnpu_object_names) == VNPU_OBJ_KINDS);

/*
 * True when the armed countdown reaches this allocation. An allocation
 * site calls it first and fails as the allocator would.
 */
bool vnpu_fail_alloc(void)
{
	int old = atomic_read(&vnpu_fail_countdown);

	/* a decrement that never goes below zero, from any context */
	do {
		if (old <= 0)
			return false;
	} while (!atomic_try_cmpxchg(&vnpu_fail_countdown, &old, old - 1));
	return old == 1;
}

/* The number of live objects of any kind: 0 once the module is idle. */
long vnpu_objects_live(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < VNPU_OBJ_KINDS; i++)
		sum += atomic_long_read(&vnpu_objects.live[i]);
	return sum;
}

/* Report at unload what was never freed; the VM runner fails on it. */
void vnpu_objects_check_leaks(void)
{
	int i;

	for (i = 0; i < VNPU_OBJ_KINDS; i++) {
		long n = atomic_long_read(&vnpu_objects.live[i]);

		if (n)
			pr_err(VNPU_NAME ": leaked at unload: %ld %s\n", n,
			       vnpu_object_names[i]);
	}
}

static int vnpu_objects_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < VNPU_OBJ_KINDS; i++)
		seq_printf(m, "%s %ld\n", vnpu_object_names[i],
			   atomic_long_read(&vnpu_objects.live[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vnpu_objects);

static int vnpu_fail_alloc_get(void *data, u64 *val)
{
	*val = max(atomic_read(&vnpu_fail_countdown), 0);
	return 0;
}

static int vnpu_fail_alloc_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	atomic_set(&vnpu_fail_countdown, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vnpu_fail_alloc_fops, vnpu_fail_alloc_get,
			 vnpu_fail_alloc_set, "%llu\n");

/* 10 TB/s: more than any link, and far from overflowing the model */
#define VNPU_LINK_BW_MAX_MBPS 10000000

static int vnpu_link_bw_get(void *data, u64 *val)
{
	struct vnpu_device *vdev = data;

	*val = READ_ONCE(vdev->link_bw_mbps) ?: vdev->product->link_bw_mbps;
	return 0;
}

static int vnpu_link_bw_set(void *data, u64 val)
{
	struct vnpu_device *vdev = data;

	if (val > VNPU_LINK_BW_MAX_MBPS)
		return -EINVAL;
	WRITE_ONCE(vdev->link_bw_mbps, (u32)val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vnpu_link_bw_fops, vnpu_link_bw_get, vnpu_link_bw_set, "%llu\n");

static ssize_t vnpu_bench_tasks_write(struct file *file, const char __user *buf, size_t len,
				      loff_t *ppos)
{
	struct vnpu_device *vdev = file->private_data;
	u32 n;
	int ret;

	ret = kstrtou32_from_user(buf, len, 0, &n);
	if (ret)
		return ret;
	ret = vnpu_hwrec_bench(vdev, n);
	return ret ? ret : len;
}

static const struct file_operations vnpu_bench_tasks_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = vnpu_bench_tasks_write,
	.llseek = no_llseek,
};

void vnpu_debugfs_init(void)
{
	struct vnpu_device *vdev;
	u32 i;

	vnpu_debugfs_dir = debugfs_create_dir(VNPU_NAME, NULL);
	debugfs_create_file("objects", 0400, vnpu_debugfs_dir, NULL,
			    &vnpu_objects_fops);
	debugfs_create_file_unsafe("fail_alloc", 0600, vnpu_debugfs_dir, NULL,
				   &vnpu_fail_alloc_fops);
	for (i = 0; (vdev = vnpu_device_get(i)); i++) {
		char name[16];
		struct dentry *dir;

		snprintf(name, sizeof(name), "vnpu%u", i);
		dir = debugfs_create_dir(name, vnpu_debugfs_dir);
		debugfs_create_file_unsafe("link_bw_mbps", 0600, dir, vdev, &vnpu_link_bw_fops);
		debugfs_create_file("bench_tasks", 0200, dir, vdev, &vnpu_bench_tasks_fops);
	}
}

void vnpu_debugfs_exit(void)
{
	debugfs_remove_recursive(vnpu_debugfs_dir);
	atomic_set(&vnpu_fail_countdown, 0);
}
