// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * npuprof._npuprof: the C half of the Python package (the npuprof/ modules are the
 * rest), over libnpuprof's public API only: this file is the module, the
 * Profiler, export and the error; device.c the runtime; task.c the ops.
 *
 * Why C and not ctypes: the headers are the ABI (sz-versioned option
 * structs), and the GIL is released around every call that waits on the
 * device or the disk (the Profiler's start and stop, an export), so that a
 * program's other threads run meanwhile. Every failure raises
 * npuprof.ProfilerError (a RuntimeError) with the library's message, which
 * names the bad value or file, and its errno in .errno.
 */
#include "ext.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "npuprof_export.h"

PyObject *npy_error;

/* raise ProfilerError(@msg) with .errno = -@rc; NULL */
static PyObject *raise_text(int rc, const char *msg)
{
	PyObject *e = PyObject_CallFunction(npy_error, "s", msg);
	PyObject *no;

	if (!e)
		return NULL;
	no = PyLong_FromLong(-rc);
	if (!no || PyObject_SetAttrString(e, "errno", no)) {
		Py_XDECREF(no);
		Py_DECREF(e);
		return NULL;
	}
	Py_DECREF(no);
	PyErr_SetObject(npy_error, e);
	Py_DECREF(e);
	return NULL;
}

PyObject *npy_raise(int rc, const struct npuprof_error *err)
{
	/* a wait a signal's handler interrupted by raising: its exception stands */
	if (rc == -EINTR && PyErr_Occurred())
		return NULL;
	return raise_text(rc, err && err->msg[0] ? err->msg : strerror(-rc));
}

PyObject *npy_raise_msg(int rc, const char *fmt, ...)
{
	char msg[sizeof(((struct npuprof_error *)0)->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return raise_text(rc, msg);
}

PyDoc_STRVAR(profiler_start_doc,
	     "profiler_start(level, aic_metrics, output_path)\n--\n\n"
	     "Start the Profiler on this thread's current device (str options,\n"
	     "npuprof_profiler_start()).");

static PyObject *profiler_start(PyObject *self, PyObject *args)
{
	const char *level, *metrics, *path;
	struct npuprof_error err = { 0 };
	int rc;

	(void)self;
	if (!PyArg_ParseTuple(args, "sss:profiler_start", &level, &metrics, &path))
		return NULL;
	{
		NPUPROF_OPTS(npuprof_options, o, .level = level, .aic_metrics = metrics,
			     .output_path = path);

		PyThreadState *ts = PyEval_SaveThread();

		rc = npuprof_profiler_start(&o, &err);
		PyEval_RestoreThread(ts);
	}
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

PyDoc_STRVAR(profiler_stop_doc,
	     "profiler_stop()\n--\n\n"
	     "Stop the Profiler, collect the rest and export (npuprof_profiler_stop()).");

static PyObject *profiler_stop(PyObject *self, PyObject *unused)
{
	struct npuprof_error err = { 0 };
	PyThreadState *ts;
	int rc;

	(void)self;
	(void)unused;
	ts = PyEval_SaveThread();
	rc = npuprof_profiler_stop(&err);
	PyEval_RestoreThread(ts);
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

PyDoc_STRVAR(profiler_dir_doc, "profiler_dir()\n--\n\n"
			       "The PROF_* folder of the running or last session, or None.");

static PyObject *profiler_dir(PyObject *self, PyObject *unused)
{
	char buf[PATH_MAX];

	(void)self;
	(void)unused;
	if (npuprof_profiler_dir(buf, sizeof(buf)))
		return Py_NewRef(Py_None);
	return PyUnicode_DecodeFSDefault(buf);
}

PyDoc_STRVAR(export_doc,
	     "export(folder)\n--\n\n"
	     "Write mindstudio_profiler_output/ of a PROF_* folder (npuprof_export()).");

static PyObject *export(PyObject *self, PyObject *args)
{
	struct npuprof_error err = { 0 };
	PyThreadState *ts;
	PyObject *path;
	int rc;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:export", PyUnicode_FSConverter, &path))
		return NULL;
	ts = PyEval_SaveThread();
	rc = npuprof_export(PyBytes_AS_STRING(path), NULL, &err);
	PyEval_RestoreThread(ts);
	Py_DECREF(path);
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

static PyMethodDef methods[] = {
	{ "profiler_start", profiler_start, METH_VARARGS, profiler_start_doc },
	{ "profiler_stop", profiler_stop, METH_NOARGS, profiler_stop_doc },
	{ "profiler_dir", profiler_dir, METH_NOARGS, profiler_dir_doc },
	{ "export", export, METH_VARARGS, export_doc },
	{ "open", npy_open, METH_VARARGS, npy_open_doc },
	{ "op", (PyCFunction)(void (*)(void))npy_op, METH_VARARGS | METH_KEYWORDS, npy_op_doc },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "npuprof._npuprof",
	.m_doc = "libnpuprof's runtime, Profiler and export (the npuprof package's C half).",
	.m_size = -1,
	.m_methods = methods,
};

PyMODINIT_FUNC PyInit__npuprof(void)
{
	PyObject *m = PyModule_Create(&module);

	if (!m)
		return NULL;
	npy_error = PyErr_NewExceptionWithDoc(
		"npuprof.ProfilerError",
		"A failure of libnpuprof: the message names the bad value or file;\n"
		".errno is its errno (errno.EINVAL for a bad option...).",
		PyExc_RuntimeError, NULL);
	if (!npy_error || PyModule_AddObjectRef(m, "ProfilerError", npy_error) ||
	    npy_device_setup(m) || npy_task_setup(m)) {
		Py_XDECREF(npy_error);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
