/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The C half of the npuprof package: what its files share. _npuprof.c is
 * the module (the Profiler, export, the error), device.c the Device type
 * (the runtime: streams, launch, sync, communicators) and task.c the Task
 * type and the op builders. Only libnpuprof's public headers are used.
 */
#ifndef NPUPROF_PY_EXT_H
#define NPUPROF_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>

#include "npuprof.h"

/* npuprof.ProfilerError, a RuntimeError with .errno */
extern PyObject *npy_error;

/* raise ProfilerError(@err->msg or strerror) with .errno = -@rc; NULL */
PyObject *npy_raise(int rc, const struct npuprof_error *err);
/* the same with a message of our own */
PyObject *npy_raise_msg(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An open virtual NPU: NULL once closed. @users: calls in flight without the GIL. */
struct npy_device {
	PyObject_HEAD struct npuprof_dev *dev;
	unsigned int users;
};

/* One task to launch, by value: the builders fill it, Device.launch copies it. */
struct npy_task {
	PyObject_HEAD struct vnpu_task t;
};

extern PyTypeObject npy_device_type;
extern PyTypeObject npy_task_type;

/* Module functions of device.c and task.c, for _npuprof.c's table */
PyObject *npy_open(PyObject *self, PyObject *args);
PyObject *npy_op(PyObject *self, PyObject *args, PyObject *kwargs);
extern const char npy_open_doc[], npy_op_doc[];

/* add the types, the dtype and task type constants to @m: 0 or -1 */
int npy_device_setup(PyObject *m);
int npy_task_setup(PyObject *m);

/* @o as a device, or NULL (None) when @none_ok; raises TypeError or ValueError (closed) */
int npy_device_arg(PyObject *o, bool none_ok, struct npuprof_dev **dev);

#endif
