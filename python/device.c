// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * npuprof._npuprof.Device: an open /dev/vnpuN and the runtime over it
 * (streams, launch, sync, communicators), libnpuprof's npuprof_dev.
 *
 * Every call that can wait (open and close under global profiling, launch
 * when the device's queue is full, sync, a rank waiting for its group's
 * key) runs without the GIL. Meanwhile the device counts it in @users, and
 * close() from another thread refuses with EBUSY rather than free what the
 * call uses: the Python object keeps the device alive, never the other way.
 */
#include "ext.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* the device of @self for a call, or NULL with ValueError when closed */
static struct npuprof_dev *dev_of(struct npy_device *self)
{
	if (!self->dev)
		PyErr_SetString(PyExc_ValueError, "operation on a closed npuprof.Device");
	return self->dev;
}

int npy_device_arg(PyObject *o, bool none_ok, struct npuprof_dev **dev)
{
	if (none_ok && o == Py_None) {
		*dev = NULL;
		return 0;
	}
	if (!PyObject_TypeCheck(o, &npy_device_type)) {
		PyErr_Format(PyExc_TypeError, "expected an npuprof.Device%s, not %.100s",
			     none_ok ? " or None" : "", Py_TYPE(o)->tp_name);
		return -1;
	}
	*dev = dev_of((struct npy_device *)o);
	return *dev ? 0 : -1;
}

/*
 * Run @call without the GIL, again after each signal that raised nothing
 * (poll(2)'s EINTR): Ctrl-C stops a sync that waits forever. An -EINTR
 * left is the handler's exception, which npy_raise() keeps.
 */
#define WITHOUT_GIL(self, rc, call)                               \
	do {                                                      \
		PyThreadState *ts_;                               \
		(self)->users++;                                  \
		for (;;) {                                        \
			ts_ = PyEval_SaveThread();                \
			rc = (call);                              \
			PyEval_RestoreThread(ts_);                \
			if (rc != -EINTR || PyErr_CheckSignals()) \
				break;                            \
		}                                                 \
		(self)->users--;                                  \
	} while (0)

/*
 * A timeout_ms as poll(2)'s (negative: forever), kept across WITHOUT_GIL's
 * retries after a signal, as PEP 475 has it for Python's own waits: each
 * try waits for what is left, never the whole timeout again (a timer that
 * ticks faster than the timeout would otherwise make it wait forever).
 */
struct deadline {
	int timeout_ms;
	int64_t end_ns;
};

static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void deadline_start(struct deadline *d, int timeout_ms)
{
	d->timeout_ms = timeout_ms;
	d->end_ns = timeout_ms > 0 ? monotonic_ns() + (int64_t)timeout_ms * 1000000 : 0;
}

/* the ms left, rounded up so that a try never ends before the deadline */
static int deadline_left(const struct deadline *d)
{
	int64_t left;

	if (d->timeout_ms <= 0)
		return d->timeout_ms;
	left = d->end_ns - monotonic_ns();
	return left > 0 ? (int)((left + 999999) / 1000000) : 0;
}

const char npy_open_doc[] = "open(dev_id, cls=Device)\n--\n\n"
			    "Open /dev/vnpu<dev_id> as this thread's current device\n"
			    "(npuprof_open()); a cls, Device or a subclass of it.";

PyObject *npy_open(PyObject *self, PyObject *args)
{
	PyTypeObject *cls = &npy_device_type;
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = NULL;
	struct npy_device *d;
	PyThreadState *ts;
	unsigned int id;
	int rc;

	(void)self;
	if (!PyArg_ParseTuple(args, "I|O!:open", &id, &PyType_Type, &cls))
		return NULL;
	if (!PyType_IsSubtype(cls, &npy_device_type)) {
		PyErr_Format(PyExc_TypeError, "open: %.100s is not an npuprof.Device type",
			     cls->tp_name);
		return NULL;
	}
	ts = PyEval_SaveThread();
	rc = npuprof_open(id, &dev, &err);
	PyEval_RestoreThread(ts);
	if (rc)
		return npy_raise(rc, &err);
	d = (struct npy_device *)cls->tp_alloc(cls, 0);
	if (!d) {
		npuprof_close(dev);
		return NULL;
	}
	d->dev = dev;
	d->users = 0;
	return (PyObject *)d;
}

static PyObject *device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	(void)type;
	(void)args;
	(void)kwargs;
	PyErr_SetString(PyExc_TypeError, "npuprof.Device: use npuprof.open(dev_id)");
	return NULL;
}

static int device_close_now(struct npy_device *self)
{
	struct npuprof_dev *dev = self->dev;
	PyThreadState *ts;

	if (!dev)
		return 0;
	if (self->users) {
		npy_raise_msg(-EBUSY, "device %u: %u calls of other threads are in flight",
			      npuprof_dev_id(dev), self->users);
		return -1;
	}
	self->dev = NULL;
	ts = PyEval_SaveThread();
	npuprof_close(dev);
	PyEval_RestoreThread(ts);
	return 0;
}

static void device_dealloc(struct npy_device *self)
{
	/* nobody else holds it: no call is in flight */
	if (self->dev)
		npuprof_close(self->dev);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(close_doc, "close()\n--\n\n"
			"Close the device; its pending work is dropped. Again: nothing.");

static PyObject *device_close(struct npy_device *self, PyObject *unused)
{
	(void)unused;
	if (device_close_now(self))
		return NULL;
	return Py_NewRef(Py_None);
}

static PyObject *device_enter(struct npy_device *self, PyObject *unused)
{
	(void)unused;
	if (!dev_of(self))
		return NULL;
	return Py_NewRef(self);
}

static PyObject *device_exit(struct npy_device *self, PyObject *args)
{
	(void)args;
	if (device_close_now(self))
		return NULL;
	return Py_NewRef(Py_False);
}

PyDoc_STRVAR(set_current_doc, "set_current()\n--\n\n"
			      "Make this the calling thread's current device.");

static PyObject *device_set_current(struct npy_device *self, PyObject *unused)
{
	struct npuprof_dev *dev = dev_of(self);

	(void)unused;
	if (!dev)
		return NULL;
	npuprof_set_current(dev);
	return Py_NewRef(Py_None);
}

PyDoc_STRVAR(create_stream_doc, "create_stream()\n--\n\nA new stream's id.");

static PyObject *device_create_stream(struct npy_device *self, PyObject *unused)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	uint32_t stream;
	int rc;

	(void)unused;
	if (!dev)
		return NULL;
	rc = npuprof_stream_create(dev, &stream, &err);
	if (rc)
		return npy_raise(rc, &err);
	return PyLong_FromUnsignedLong(stream);
}

PyDoc_STRVAR(destroy_stream_doc, "destroy_stream(stream)\n--\n\n"
				 "Destroy a stream once its queued tasks ran.");

static PyObject *device_destroy_stream(struct npy_device *self, PyObject *args)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	unsigned int stream;
	int rc;

	if (!dev || !PyArg_ParseTuple(args, "I:destroy_stream", &stream))
		return NULL;
	WITHOUT_GIL(self, rc, npuprof_stream_destroy(dev, stream, &err));
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

PyDoc_STRVAR(launch_doc, "launch(tasks)\n--\n\n"
			 "Queue a Task or a sequence of Tasks, all or nothing\n"
			 "(npuprof_launch()); the list of their task ids.");

static PyObject *device_launch(struct npy_device *self, PyObject *arg)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	struct vnpu_task *tasks = NULL;
	PyObject *seq = NULL, *ids_list = NULL;
	uint64_t *ids = NULL;
	Py_ssize_t n;
	int rc;

	if (!dev)
		return NULL;
	if (PyObject_TypeCheck(arg, &npy_task_type)) {
		n = 1;
	} else {
		seq = PySequence_Fast(arg, "launch() takes a Task or a sequence of Tasks");
		if (!seq)
			return NULL;
		n = PySequence_Fast_GET_SIZE(seq);
	}
	if (n < 1 || n > (Py_ssize_t)npuprof_dev_info(dev)->max_submit) {
		npy_raise_msg(-EINVAL, "launch: %zd tasks (1..%u a call)", n,
			      npuprof_dev_info(dev)->max_submit);
		goto out;
	}
	tasks = PyMem_Calloc((size_t)n, sizeof(*tasks));
	ids = PyMem_Calloc((size_t)n, sizeof(*ids));
	if (!tasks || !ids) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *o = seq ? PySequence_Fast_GET_ITEM(seq, i) : arg;

		if (!PyObject_TypeCheck(o, &npy_task_type)) {
			PyErr_Format(PyExc_TypeError, "launch: item %zd is a %.100s, not a Task", i,
				     Py_TYPE(o)->tp_name);
			goto out;
		}
		tasks[i] = ((struct npy_task *)o)->t;
	}
	WITHOUT_GIL(self, rc, npuprof_launch(dev, tasks, (unsigned int)n, ids, &err));
	if (rc) {
		npy_raise(rc, &err);
		goto out;
	}
	ids_list = PyList_New(n);
	for (Py_ssize_t i = 0; ids_list && i < n; i++) {
		PyObject *id = PyLong_FromUnsignedLongLong(ids[i]);

		if (!id) {
			Py_CLEAR(ids_list);
			break;
		}
		PyList_SET_ITEM(ids_list, i, id);
	}
out:
	PyMem_Free(ids);
	PyMem_Free(tasks);
	Py_XDECREF(seq);
	return ids_list;
}

PyDoc_STRVAR(sync_doc, "sync(stream=None, timeout_ms=-1)\n--\n\n"
		       "Wait until the stream (None: every stream of this device opened\n"
		       "here) is idle; timeout_ms as poll(2)'s (negative: forever).\n"
		       "ProfilerError with errno ETIMEDOUT when it expires.");

static PyObject *device_sync(struct npy_device *self, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "stream", "timeout_ms", NULL };
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	PyObject *stream = Py_None;
	int timeout = -1, rc;
	struct deadline dl;
	unsigned long s = 0;

	if (!dev ||
	    !PyArg_ParseTupleAndKeywords(args, kwargs, "|Oi:sync", kwlist, &stream, &timeout))
		return NULL;
	if (stream != Py_None) {
		s = PyLong_AsUnsignedLong(stream);
		if (PyErr_Occurred())
			return NULL;
		if (s > UINT32_MAX)
			return npy_raise_msg(-EINVAL, "sync: stream %lu out of range", s);
	}
	deadline_start(&dl, timeout);
	if (stream == Py_None)
		WITHOUT_GIL(self, rc, npuprof_sync_all(dev, deadline_left(&dl), &err));
	else
		WITHOUT_GIL(self, rc, npuprof_sync(dev, (uint32_t)s, deadline_left(&dl), &err));
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

PyDoc_STRVAR(comm_init_ranks_doc,
	     "comm_init_ranks(timeout_ms=-1)\n--\n\n"
	     "Join the group of every rank of this job, as `npuprof run --ranks N`\n"
	     "sets it up (RANK_ID, RANK_SIZE, NPUPROF_ROOT_INFO:\n"
	     "npuprof_comm_init_ranks()); (comm, rank, nranks).");

static PyObject *device_comm_init_ranks(struct npy_device *self, PyObject *args, PyObject *kwargs)
{
	static char *kwlist[] = { "timeout_ms", NULL };
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	uint32_t comm = 0, rank = 0, nranks = 0;
	int timeout = -1, rc;
	struct deadline dl;

	if (!dev ||
	    !PyArg_ParseTupleAndKeywords(args, kwargs, "|i:comm_init_ranks", kwlist, &timeout))
		return NULL;
	deadline_start(&dl, timeout);
	WITHOUT_GIL(self, rc,
		    npuprof_comm_init_ranks(dev, deadline_left(&dl), &comm, &rank, &nranks, &err));
	if (rc)
		return npy_raise(rc, &err);
	return Py_BuildValue("(III)", comm, rank, nranks);
}

PyDoc_STRVAR(comm_create_doc,
	     "comm_create(nranks, rank)\n--\n\n"
	     "Make a group of nranks (2..16) and join it as rank; (comm, key):\n"
	     "the other ranks join with the key (64 hex digits), from their devices.");

static PyObject *device_comm_create(struct npy_device *self, PyObject *args)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	char hex[NPUPROF_COMM_KEY_STRLEN];
	struct npuprof_comm_key key;
	unsigned int nranks, rank;
	uint32_t comm;
	int rc;

	if (!dev || !PyArg_ParseTuple(args, "II:comm_create", &nranks, &rank))
		return NULL;
	rc = npuprof_comm_create(dev, nranks, rank, &key, &comm, &err);
	if (rc)
		return npy_raise(rc, &err);
	npuprof_comm_key_format(&key, hex);
	return Py_BuildValue("(Is)", comm, hex);
}

PyDoc_STRVAR(comm_join_doc, "comm_join(key, nranks, rank)\n--\n\n"
			    "Join the group that key names as rank; its handle here.");

static PyObject *device_comm_join(struct npy_device *self, PyObject *args)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	struct npuprof_comm_key key;
	unsigned int nranks, rank;
	const char *hex;
	uint32_t comm;
	int rc;

	if (!dev || !PyArg_ParseTuple(args, "sII:comm_join", &hex, &nranks, &rank))
		return NULL;
	rc = npuprof_comm_key_parse(hex, &key, &err);
	if (!rc)
		rc = npuprof_comm_join(dev, &key, nranks, rank, &comm, &err);
	if (rc)
		return npy_raise(rc, &err);
	return PyLong_FromUnsignedLong(comm);
}

PyDoc_STRVAR(comm_destroy_doc, "comm_destroy(comm)\n--\n\n"
			       "Leave the group (EBUSY while a collective on it is queued).");

static PyObject *device_comm_destroy(struct npy_device *self, PyObject *args)
{
	struct npuprof_error err = { 0 };
	struct npuprof_dev *dev = dev_of(self);
	unsigned int comm;
	int rc;

	if (!dev || !PyArg_ParseTuple(args, "I:comm_destroy", &comm))
		return NULL;
	rc = npuprof_comm_destroy(dev, comm, &err);
	if (rc)
		return npy_raise(rc, &err);
	return Py_NewRef(Py_None);
}

static PyObject *device_get_id(struct npy_device *self, void *closure)
{
	struct npuprof_dev *dev = dev_of(self);

	(void)closure;
	return dev ? PyLong_FromUnsignedLong(npuprof_dev_id(dev)) : NULL;
}

static PyObject *device_get_closed(struct npy_device *self, void *closure)
{
	(void)closure;
	return PyBool_FromLong(!self->dev);
}

/* the product facts a user of the runtime sizes work with */
static PyObject *device_get_info(struct npy_device *self, void *closure)
{
	struct npuprof_dev *dev = dev_of(self);
	const struct vnpu_info *in;

	(void)closure;
	if (!dev)
		return NULL;
	in = npuprof_dev_info(dev);
	/* one fact a line */
	/* clang-format off */
	return Py_BuildValue("{s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:K,s:K,s:I,s:I,s:I,s:I}",
			     "dev_id", in->dev_id,
			     "product", in->product_name,
			     "chip_name", in->chip_name,
			     "chip_id", in->chip_id,
			     "aic_num", in->aic_num,
			     "aiv_num", in->aiv_num,
			     "aicpu_num", in->aicpu_num,
			     "aic_freq_khz", in->aic_freq_khz,
			     "sys_cnt_freq_khz", in->sys_cnt_freq_khz,
			     "hbm_bw_mbps", in->hbm_bw_mbps,
			     "link_bw_mbps", in->link_bw_mbps,
			     "cube_flops", (unsigned long long)in->cube_flops,
			     "vector_flops", (unsigned long long)in->vector_flops,
			     "max_streams", in->max_streams,
			     "max_submit", in->max_submit,
			     "max_pending", in->max_pending,
			     "max_comms", in->max_comms);
	/* clang-format on */
}

static PyObject *device_repr(struct npy_device *self)
{
	if (!self->dev)
		return PyUnicode_FromString("<npuprof.Device closed>");
	return PyUnicode_FromFormat("<npuprof.Device /dev/vnpu%u %s>", npuprof_dev_id(self->dev),
				    npuprof_dev_info(self->dev)->product_name);
}

static PyMethodDef device_methods[] = {
	{ "close", (PyCFunction)device_close, METH_NOARGS, close_doc },
	{ "__enter__", (PyCFunction)device_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)device_exit, METH_VARARGS, NULL },
	{ "set_current", (PyCFunction)device_set_current, METH_NOARGS, set_current_doc },
	{ "create_stream", (PyCFunction)device_create_stream, METH_NOARGS, create_stream_doc },
	{ "destroy_stream", (PyCFunction)device_destroy_stream, METH_VARARGS, destroy_stream_doc },
	{ "launch", (PyCFunction)device_launch, METH_O, launch_doc },
	{ "sync", (PyCFunction)(void (*)(void))device_sync, METH_VARARGS | METH_KEYWORDS,
	  sync_doc },
	{ "comm_init_ranks", (PyCFunction)(void (*)(void))device_comm_init_ranks,
	  METH_VARARGS | METH_KEYWORDS, comm_init_ranks_doc },
	{ "comm_create", (PyCFunction)device_comm_create, METH_VARARGS, comm_create_doc },
	{ "comm_join", (PyCFunction)device_comm_join, METH_VARARGS, comm_join_doc },
	{ "comm_destroy", (PyCFunction)device_comm_destroy, METH_VARARGS, comm_destroy_doc },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef device_getset[] = {
	{ "id", (getter)device_get_id, NULL, "The N of /dev/vnpuN.", NULL },
	{ "closed", (getter)device_get_closed, NULL, "Whether close() ran.", NULL },
	{ "info", (getter)device_get_info, NULL, "The product's facts, a dict.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject npy_device_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "npuprof.Device",
	.tp_doc = PyDoc_STR("An open virtual NPU (npuprof.open()); a context manager that\n"
			    "closes it."),
	.tp_basicsize = sizeof(struct npy_device),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_new = device_new,
	.tp_dealloc = (destructor)device_dealloc,
	.tp_repr = (reprfunc)device_repr,
	.tp_methods = device_methods,
	.tp_getset = device_getset,
};

int npy_device_setup(PyObject *m)
{
	if (PyType_Ready(&npy_device_type))
		return -1;
	return PyModule_AddObjectRef(m, "Device", (PyObject *)&npy_device_type);
}
