/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vnpu: virtual NPU character devices (/dev/vnpuN), user API.
 *
 * This header is the contract between vnpu.ko and userspace (libnpuprof,
 * tools, tests). It is included unchanged by both sides.
 *
 * Extensibility rules, for every ioctl structure:
 *  - The first member is @size, the size of the structure as the caller
 *    knows it. The kernel accepts any size from the first published version
 *    (VNPU_*_SIZE_VER0) up; bytes the kernel does not know must be zero
 *    (-E2BIG otherwise), bytes the caller did not pass read as zero.
 *  - @flags and every reserved member must be zero (-EINVAL otherwise).
 *  - Members are only ever appended; a new version gets a new SIZE_VER.
 *  - Output structures are written up to min(@size, kernel size) and @size
 *    comes back as the kernel's size; the kernel zeroes every byte it
 *    writes that has no meaning.
 *
 * See docs/uapi.md for the ioctl table and the meaning of every field.
 */
#ifndef _UAPI_VNPU_H
#define _UAPI_VNPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* The user API version reported by VNPU_IOC_GET_INFO: major << 16 | minor. */
#define VNPU_UAPI_VERSION_MAJOR 0
#define VNPU_UAPI_VERSION_MINOR 1
#define VNPU_UAPI_VERSION \
	((VNPU_UAPI_VERSION_MAJOR << 16) | VNPU_UAPI_VERSION_MINOR)

#define VNPU_MAX_DEVICES 16

#define VNPU_IOC_MAGIC 'V'

/**
 * struct vnpu_info - device information (VNPU_IOC_GET_INFO)
 * @size: in: sizeof(struct vnpu_info) as the caller knows it;
 *        out: the size this kernel knows (may be larger: more to ask for).
 * @flags: in: must be zero.
 * @uapi_version: out: VNPU_UAPI_VERSION of the running module.
 * @dev_id: out: the N of /dev/vnpuN.
 * @dev_count: out: number of vnpu devices the module created.
 * @reserved: must be zero on input; zero on output.
 */
struct vnpu_info {
	__u32 size;
	__u32 flags;
	__u32 uapi_version;
	__u32 dev_id;
	__u32 dev_count;
	__u32 reserved;
};

#define VNPU_INFO_SIZE_VER0 24

/* Ioctl numbers: dispatched on _IOC_NR, the size is carried in @size. */
#define VNPU_IOC_NR_GET_INFO 0x00

#define VNPU_IOC_GET_INFO _IOWR(VNPU_IOC_MAGIC, VNPU_IOC_NR_GET_INFO, struct vnpu_info)

#endif /* _UAPI_VNPU_H */
