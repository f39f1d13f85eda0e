// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: file operations of /dev/vnpuN (open, release, ioctl).
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vnpu_drv.h"

static int vnpu_open(struct inode *inode, struct file *file)
{
	struct vnpu_device *vdev = container_of(inode->i_cdev, struct vnpu_device, cdev);
	struct vnpu_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL);
	if (!vfile)
		return -ENOMEM;
	vfile->vdev = vdev;
	file->private_data = vfile;
	return nonseekable_open(inode, file);
}

static int vnpu_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * Copy an extensible structure in: @usize is the caller's idea of its size
 * (the first u32 of every ioctl structure), checked against the smallest
 * published version; copy_struct_from_user() zero-fills what the caller did
 * not pass and rejects (-E2BIG) non-zero bytes this kernel does not know.
 */
static int vnpu_copy_in(void *dst, size_t ksize, size_t min_size,
			void __user *src)
{
	u32 usize;

	if (get_user(usize, (u32 __user *)src))
		return -EFAULT;
	if (usize < min_size)
		return -EINVAL;
	return copy_struct_from_user(dst, ksize, src, usize);
}

/* Copy out no more than the caller's structure holds. */
static int vnpu_copy_out(void __user *dst, const void *src, size_t ksize,
			 u32 usize)
{
	if (copy_to_user(dst, src, min_t(size_t, ksize, usize)))
		return -EFAULT;
	return 0;
}

static long vnpu_ioctl_get_info(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_info info;
	u32 usize;
	int ret;

	ret = vnpu_copy_in(&info, sizeof(info), VNPU_INFO_SIZE_VER0, arg);
	if (ret)
		return ret;
	if (info.flags || info.reserved)
		return -EINVAL;

	usize = info.size;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.uapi_version = VNPU_UAPI_VERSION;
	info.dev_id = vfile->vdev->id;
	info.dev_count = vnpu_device_count();
	return vnpu_copy_out(arg, &info, sizeof(info), usize);
}

static long vnpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vnpu_file *vfile = file->private_data;
	void __user *uarg = (void __user *)arg;

	/* The size bits of cmd vary with the caller's struct version. */
	if (_IOC_TYPE(cmd) != VNPU_IOC_MAGIC ||
	    _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -ENOTTY;

	switch (_IOC_NR(cmd)) {
	case VNPU_IOC_NR_GET_INFO:
		return vnpu_ioctl_get_info(vfile, uarg);
	default:
		return -ENOTTY;
	}
}

const struct file_operations vnpu_fops = {
	.owner = THIS_MODULE,
	.open = vnpu_open,
	.release = vnpu_release,
	.unlocked_ioctl = vnpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};
