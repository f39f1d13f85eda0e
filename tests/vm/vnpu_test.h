/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the in-VM suites: device nodes, module (re)loading.
 * The VM runner exports VNPU_KO (the module file) and VNPU_MODPARAMS (the
 * parameters it was loaded with).
 */
#ifndef VNPU_TEST_H
#define VNPU_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vnpu.h"

static inline int vnpu_open_dev(unsigned int id, int flags)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/vnpu%u", id);
	return open(path, flags | O_CLOEXEC);
}

static inline int vnpu_get_info(int fd, struct vnpu_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return ioctl(fd, VNPU_IOC_GET_INFO, info);
}

static inline int vnpu_module_loaded(void)
{
	return access("/sys/module/vnpu", F_OK) == 0;
}

/* Load vnpu.ko with @params; returns 0 or -errno. */
static inline int vnpu_module_load(const char *params)
{
	const char *ko = getenv("VNPU_KO");
	int fd, ret = 0;

	if (!ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* Unload vnpu; returns 0 or -errno (-EBUSY/-EAGAIN while in use). */
static inline int vnpu_module_unload(void)
{
	if (syscall(SYS_delete_module, "vnpu", O_NONBLOCK))
		return -errno;
	return 0;
}

/* Put the module back as the runner loaded it, for the suites that follow. */
static inline int vnpu_module_restore(void)
{
	const char *params = getenv("VNPU_MODPARAMS");

	if (vnpu_module_loaded())
		return 0;
	return vnpu_module_load(params ? params : "");
}

static inline unsigned int vnpu_param_devices(void)
{
	unsigned int n = 0;
	FILE *f = fopen("/sys/module/vnpu/parameters/devices", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

#endif /* VNPU_TEST_H */
