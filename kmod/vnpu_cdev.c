// SPDX-License-Identifier: GPL-2.0
/*
 * vnpu: file operations of /dev/vnpuN (open, release, ioctl dispatch) and
 * the copy helpers every ioctl uses for its extensible structure.
 */
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "vnpu_debugfs.h"
#include "vnpu_drv.h"

static int vnpu_open(struct inode *inode, struct file *file)
{
	struct vnpu_device *vdev = vnpu_device_get(iminor(inode));
	struct vnpu_file *vfile;

	if (!vdev)
		return -ENXIO;
	vfile = vnpu_fail_alloc() ? NULL : kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);
	if (!vfile)
		return -ENOMEM;
	vnpu_obj_get(VNPU_OBJ_FILE);
	vfile->vdev = vdev;
	/* whose work it is, for sessions of other users (vnpu_prof_sees()) */
	vfile->uid = file->f_cred->euid;
	mutex_init(&vfile->lock);
	init_waitqueue_head(&vfile->prof_wq);
	init_waitqueue_head(&vfile->idle_wq);
	file->private_data = vfile;
	return nonseekable_open(inode, file);
}

static int vnpu_release(struct inode *inode, struct file *file)
{
	struct vnpu_file *vfile = file->private_data;

	vnpu_prof_release(vfile);
	vnpu_file_release_streams(vfile);
	/* after the streams: no task of the file uses a communicator now */
	vnpu_file_release_comms(vfile);
	mutex_destroy(&vfile->lock);
	kfree(vfile);
	vnpu_obj_put(VNPU_OBJ_FILE);
	return 0;
}

/**
 * vnpu_copy_struct_in() - copy an extensible ioctl structure in
 * @dst: kernel copy, @ksize bytes.
 * @ksize: the kernel's size of the structure.
 * @min_size: the smallest published version (SIZE_VER0).
 * @src: user pointer; its first u32 is the caller's size.
 *
 * copy_struct_from_user() zero-fills what the caller did not pass and
 * rejects (-E2BIG) non-zero bytes this kernel does not know.
 *
 * Return: 0, -EFAULT, -EINVAL (size below @min_size) or -E2BIG.
 */
int vnpu_copy_struct_in(void *dst, size_t ksize, size_t min_size,
			const void __user *src)
{
	u32 usize;

	if (get_user(usize, (const u32 __user *)src))
		return -EFAULT;
	if (usize < min_size || usize > PAGE_SIZE)
		return -EINVAL;
	return copy_struct_from_user(dst, ksize, src, usize);
}

/**
 * vnpu_copy_struct_out() - copy an ioctl structure back, no more than the
 * caller's @usize bytes of it
 * @dst: user pointer.
 * @src: kernel copy; every byte of it must be initialized.
 * @ksize: the kernel's size of the structure.
 * @usize: the caller's size (from its @size member on input).
 *
 * Return: 0 or -EFAULT.
 */
int vnpu_copy_struct_out(void __user *dst, void *src, size_t ksize, u32 usize)
{
	if (copy_to_user(dst, src, min_t(size_t, ksize, usize)))
		return -EFAULT;
	return 0;
}

static void vnpu_fill_info(const struct vnpu_device *vdev, struct vnpu_info *info)
{
	const struct vnpu_product_desc *p = vdev->product;

	info->dev_id = vdev->id;
	info->dev_count = vnpu_device_count();
	info->product = vdev->product_id;
	strscpy(info->product_name, p->name, sizeof(info->product_name));
	strscpy(info->chip_name, p->chip_name, sizeof(info->chip_name));
	info->chip_id = p->chip_id;
	info->npu_arch = p->npu_arch;
	info->aic_num = p->aic_num;
	info->aiv_num = p->aiv_num;
	info->aicpu_num = p->aicpu_num;
	info->caps = p->caps;
	info->aic_freq_khz = p->aic_freq_khz;
	info->sys_cnt_freq_khz = p->sys_cnt_freq_khz;
	info->hbm_bw_mbps = p->hbm_bw_mbps;
	info->link_bw_mbps = p->link_bw_mbps;
	info->metric_groups = p->metric_groups;
	info->cube_flops = vnpu_product_cube_flops(p);
	info->vector_flops = vnpu_product_vector_flops(p);
	info->max_streams = VNPU_MAX_STREAMS;
	info->max_hw_streams = VNPU_HW_STREAMS;
	info->max_submit = VNPU_MAX_SUBMIT;
	info->max_pending = VNPU_MAX_PENDING;
	info->ring_default_bytes = (u64)VNPU_RING_DEFAULT_PAGES * PAGE_SIZE;
	info->ring_max_bytes = (u64)VNPU_RING_MAX_PAGES * PAGE_SIZE;
	info->max_comms = VNPU_MAX_COMMS;
	info->time_base_raw_ns = vnpu_epoch_raw_ns;
}

static long vnpu_ioctl_get_info(struct vnpu_file *vfile, void __user *arg)
{
	struct vnpu_info info;
	u32 usize;
	int ret;

	ret = vnpu_copy_struct_in(&info, sizeof(info), VNPU_INFO_SIZE_VER0, arg);
	if (ret)
		return ret;
	/* everything else is an output: a reused struct is fine */
	if (info.flags || info.reserved0 || info.reserved1 ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;

	usize = info.size;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.uapi_version = VNPU_UAPI_VERSION;
	vnpu_fill_info(vfile->vdev, &info);
	return vnpu_copy_struct_out(arg, &info, sizeof(info), usize);
}

static long vnpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vnpu_file *vfile = file->private_data;
	void __user *uarg = (void __user *)arg;

	/*
	 * Only the header's whole numbers: another driver's number with our
	 * nr (V4L2's VIDIOC_G_FMT is _IOWR('V', 4, ...)) is not a SYNC. The
	 * size of each structure as the caller knows it is in its @size.
	 */
	switch (cmd) {
	case VNPU_IOC_GET_INFO:
	case VNPU_IOC_GET_INFO_VER0:
	case VNPU_IOC_GET_INFO_VER1:
		return vnpu_ioctl_get_info(vfile, uarg);
	case VNPU_IOC_STREAM_CREATE:
		return vnpu_ioctl_stream_create(vfile, uarg);
	case VNPU_IOC_STREAM_DESTROY:
		return vnpu_ioctl_stream_destroy(vfile, uarg);
	case VNPU_IOC_SUBMIT:
	case VNPU_IOC_SUBMIT_VER0:
		return vnpu_ioctl_submit(vfile, uarg);
	case VNPU_IOC_SYNC:
		return vnpu_ioctl_sync(vfile, uarg);
	case VNPU_IOC_COMM_INIT:
		return vnpu_ioctl_comm_init(vfile, uarg);
	case VNPU_IOC_COMM_DESTROY:
		return vnpu_ioctl_comm_destroy(vfile, uarg);
	case VNPU_IOC_PROF_START:
		return vnpu_ioctl_prof_start(vfile, uarg);
	case VNPU_IOC_PROF_STOP:
		return vnpu_ioctl_prof_stop(vfile, uarg);
	case VNPU_IOC_PROF_STATS:
		return vnpu_ioctl_prof_stats(vfile, uarg);
	default:
		return -ENOTTY;
	}
}

static int vnpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	return vnpu_prof_mmap(file->private_data, vma);
}

static __poll_t vnpu_poll(struct file *file, struct poll_table_struct *wait)
{
	return vnpu_prof_poll(file->private_data, file, wait);
}

const struct file_operations vnpu_fops = {
	.owner = THIS_MODULE,
	.open = vnpu_open,
	.release = vnpu_release,
	.unlocked_ioctl = vnpu_ioctl,
	.mmap = vnpu_mmap,
	.poll = vnpu_poll,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};
