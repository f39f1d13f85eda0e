// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * npuprof._npuprof.Task and op(): one operator to launch, filled by
 * libnpuprof's npuprof_op_* builders (their sizing, block counts and core
 * types), kept by value. A few fields stay writable, the ones the C
 * examples change after building (op_type, task_type, block_num, stream:
 * examples/transformer.c's DropOutGenMask on the AI CPU).
 */
#include "ext.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* enum vnpu_task_type's names, as the constants and task_type give them */
static const char *const task_types[] = {
	[VNPU_TASK_AI_CORE] = "AI_CORE", [VNPU_TASK_AI_VECTOR_CORE] = "AI_VECTOR_CORE",
	[VNPU_TASK_MIX_AIC] = "MIX_AIC", [VNPU_TASK_MIX_AIV] = "MIX_AIV",
	[VNPU_TASK_AI_CPU] = "AI_CPU",	 [VNPU_TASK_COMMUNICATION] = "COMMUNICATION",
};

/* enum vnpu_dtype's names, as op_summary's Data Types writes them */
static const char *const dtypes[VNPU_DT_COUNT] = {
	[VNPU_DT_FLOAT] = "FLOAT", [VNPU_DT_FLOAT16] = "FLOAT16", [VNPU_DT_INT8] = "INT8",
	[VNPU_DT_INT32] = "INT32", [VNPU_DT_UINT8] = "UINT8",	  [VNPU_DT_INT16] = "INT16",
	[VNPU_DT_INT64] = "INT64", [VNPU_DT_BF16] = "BF16",	  [VNPU_DT_BOOL] = "BOOL",
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* @o as up to @max dims, at least @min, into @dims; their count, or -1 raised */
static int dims_arg(PyObject *o, const char *what, unsigned int min, unsigned int max,
		    uint64_t *dims)
{
	PyObject *seq = PySequence_Fast(o, "dims must be a sequence of ints");
	Py_ssize_t n;

	if (!seq)
		return -1;
	n = PySequence_Fast_GET_SIZE(seq);
	if (n < (Py_ssize_t)min || n > (Py_ssize_t)max) {
		Py_DECREF(seq);
		npy_raise_msg(-EINVAL, "%s: %zd dims (%u..%u)", what, n, min, max);
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		dims[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
		if (PyErr_Occurred()) {
			Py_DECREF(seq);
			return -1;
		}
	}
	Py_DECREF(seq);
	return (int)n;
}

const char npy_op_doc[] =
	"op(kind, dev, name, stream, dtype, *args)\n--\n\n"
	"Build one Task with libnpuprof's builder of kind, for dev (a Device,\n"
	"or None: sized for any product). args by kind: matmul m, k, n;\n"
	"add, mul, relu, softmax, layernorm dims; conv2d nchw, filter;\n"
	"allreduce, allgather, reducescatter comm, tag, elems; broadcast comm,\n"
	"tag, root, elems; send comm, tag, dst, elems; recv comm, tag, src, elems.";

typedef int eltwise_fn(const struct npuprof_dev *, struct vnpu_task *, const char *, uint32_t,
		       unsigned int, const uint64_t *, enum vnpu_dtype);
typedef int coll_fn(const struct npuprof_dev *, struct vnpu_task *, const char *, uint32_t,
		    uint32_t, uint32_t, uint64_t, enum vnpu_dtype);
typedef int peer_fn(const struct npuprof_dev *, struct vnpu_task *, const char *, uint32_t,
		    uint32_t, uint32_t, uint32_t, uint64_t, enum vnpu_dtype);

static const struct {
	const char *kind;
	eltwise_fn *fn;
} eltwise[] = {
	{ "add", npuprof_op_add },
	{ "mul", npuprof_op_mul },
	{ "relu", npuprof_op_relu },
	{ "softmax", npuprof_op_softmax },
	{ "layernorm", npuprof_op_layernorm },
};

static const struct {
	const char *kind;
	coll_fn *fn;
} collectives[] = {
	{ "allreduce", npuprof_op_allreduce },
	{ "allgather", npuprof_op_allgather },
	{ "reducescatter", npuprof_op_reducescatter },
};

static const struct {
	const char *kind;
	peer_fn *fn;
} peers[] = {
	{ "broadcast", npuprof_op_broadcast },
	{ "send", npuprof_op_send },
	{ "recv", npuprof_op_recv },
};

/* the builder of @kind on the rest of @args into @t: its return, or 1 raised */
static int build(const char *kind, const struct npuprof_dev *dev, const char *name, uint32_t stream,
		 enum vnpu_dtype dt, PyObject *rest, struct vnpu_task *t)
{
	unsigned long long a, b, c;
	unsigned int x, y, z;
	uint64_t d1[VNPU_MAX_DIMS], d2[4];
	PyObject *o1, *o2;
	int n;

	if (!strcmp(kind, "matmul")) {
		if (!PyArg_ParseTuple(rest, "KKK:matmul", &a, &b, &c))
			return 1;
		return npuprof_op_matmul(dev, t, name, stream, a, b, c, dt);
	}
	for (size_t i = 0; i < ARRAY_LEN(eltwise); i++) {
		if (strcmp(kind, eltwise[i].kind))
			continue;
		if (!PyArg_ParseTuple(rest, "O", &o1))
			return 1;
		n = dims_arg(o1, kind, 1, VNPU_MAX_DIMS, d1);
		if (n < 0)
			return 1;
		return eltwise[i].fn(dev, t, name, stream, (unsigned int)n, d1, dt);
	}
	if (!strcmp(kind, "conv2d")) {
		if (!PyArg_ParseTuple(rest, "OO:conv2d", &o1, &o2) ||
		    dims_arg(o1, "conv2d nchw", 4, 4, d1) < 0 ||
		    dims_arg(o2, "conv2d filter", 4, 4, d2) < 0)
			return 1;
		return npuprof_op_conv2d(dev, t, name, stream, d1, d2, dt);
	}
	for (size_t i = 0; i < ARRAY_LEN(collectives); i++) {
		if (strcmp(kind, collectives[i].kind))
			continue;
		if (!PyArg_ParseTuple(rest, "IIK", &x, &y, &a))
			return 1;
		return collectives[i].fn(dev, t, name, stream, x, y, a, dt);
	}
	for (size_t i = 0; i < ARRAY_LEN(peers); i++) {
		if (strcmp(kind, peers[i].kind))
			continue;
		if (!PyArg_ParseTuple(rest, "IIIK", &x, &y, &z, &a))
			return 1;
		return peers[i].fn(dev, t, name, stream, x, y, z, a, dt);
	}
	PyErr_Format(PyExc_ValueError, "op: no builder '%.50s'", kind);
	return 1;
}

PyObject *npy_op(PyObject *self, PyObject *args, PyObject *kwargs)
{
	struct npuprof_dev *dev;
	const char *kind, *name;
	PyObject *devo, *rest;
	unsigned int stream, dt;
	struct npy_task *task;
	int rc;

	(void)self;
	if (kwargs && PyDict_GET_SIZE(kwargs)) {
		PyErr_SetString(PyExc_TypeError, "op() takes no keyword arguments");
		return NULL;
	}
	if (PyTuple_GET_SIZE(args) < 5) {
		PyErr_SetString(PyExc_TypeError, "op(kind, dev, name, stream, dtype, *args)");
		return NULL;
	}
	rest = PyTuple_GetSlice(args, 0, 5);
	if (!rest)
		return NULL;
	rc = PyArg_ParseTuple(rest, "sOsII:op", &kind, &devo, &name, &stream, &dt);
	Py_DECREF(rest);
	if (!rc || npy_device_arg(devo, true, &dev))
		return NULL;
	if (dt >= VNPU_DT_COUNT)
		return npy_raise_msg(-EINVAL, "op %s: dtype %u (0..%u)", name, dt,
				     VNPU_DT_COUNT - 1);
	task = PyObject_New(struct npy_task, &npy_task_type);
	if (!task)
		return NULL;
	memset(&task->t, 0, sizeof(task->t));
	rest = PyTuple_GetSlice(args, 5, PyTuple_GET_SIZE(args));
	rc = rest ? build(kind, dev, name, stream, (enum vnpu_dtype)dt, rest, &task->t) : 1;
	Py_XDECREF(rest);
	if (rc) {
		Py_DECREF(task);
		if (rc < 0)
			return npy_raise_msg(rc, "op %s (%s): %s", name, kind, strerror(-rc));
		return NULL;
	}
	return (PyObject *)task;
}

static void task_dealloc(struct npy_task *self)
{
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *task_str_field(const char *s, size_t len)
{
	return PyUnicode_FromStringAndSize(s, (Py_ssize_t)strnlen(s, len));
}

static PyObject *task_get_name(struct npy_task *self, void *closure)
{
	(void)closure;
	return task_str_field(self->t.op_name, sizeof(self->t.op_name));
}

static PyObject *task_get_op_type(struct npy_task *self, void *closure)
{
	(void)closure;
	return task_str_field(self->t.op_type, sizeof(self->t.op_type));
}

static int task_set_op_type(struct npy_task *self, PyObject *v, void *closure)
{
	const char *s;
	Py_ssize_t n;

	(void)closure;
	if (!v) {
		PyErr_SetString(PyExc_AttributeError, "op_type cannot be deleted");
		return -1;
	}
	s = PyUnicode_AsUTF8AndSize(v, &n);
	if (!s)
		return -1;
	if (!n || n >= (Py_ssize_t)sizeof(self->t.op_type) || memchr(s, 0, (size_t)n)) {
		npy_raise_msg(-EINVAL, "op_type '%.40s': 1..%zu bytes, no NUL", s,
			      sizeof(self->t.op_type) - 1);
		return -1;
	}
	memset(self->t.op_type, 0, sizeof(self->t.op_type));
	memcpy(self->t.op_type, s, (size_t)n);
	return 0;
}

static PyObject *task_get_task_type(struct npy_task *self, void *closure)
{
	(void)closure;
	if (self->t.task_type < ARRAY_LEN(task_types) && task_types[self->t.task_type])
		return PyUnicode_FromString(task_types[self->t.task_type]);
	return PyLong_FromUnsignedLong(self->t.task_type);
}

static int task_set_task_type(struct npy_task *self, PyObject *v, void *closure)
{
	const char *s;

	(void)closure;
	if (!v || !PyUnicode_Check(v)) {
		PyErr_SetString(PyExc_TypeError, "task_type takes a name, as AI_CPU");
		return -1;
	}
	s = PyUnicode_AsUTF8(v);
	if (!s)
		return -1;
	for (size_t i = 0; i < ARRAY_LEN(task_types); i++) {
		if (task_types[i] && !strcmp(s, task_types[i])) {
			if (i == VNPU_TASK_COMMUNICATION ||
			    self->t.task_type == VNPU_TASK_COMMUNICATION) {
				npy_raise_msg(-EINVAL,
					      "task_type %s: a collective is built by its builder",
					      s);
				return -1;
			}
			self->t.task_type = (uint32_t)i;
			return 0;
		}
	}
	npy_raise_msg(-EINVAL,
		      "task_type '%.40s': not one of AI_CORE, AI_VECTOR_CORE, "
		      "MIX_AIC, MIX_AIV, AI_CPU",
		      s);
	return -1;
}

/* the u32 fields a caller may change: offsets into struct vnpu_task */
static PyObject *task_get_u32(struct npy_task *self, void *closure)
{
	uint32_t v;

	memcpy(&v, (char *)&self->t + (size_t)closure, sizeof(v));
	return PyLong_FromUnsignedLong(v);
}

static int task_set_u32(struct npy_task *self, PyObject *o, void *closure)
{
	unsigned long v;
	uint32_t u;

	if (!o) {
		PyErr_SetString(PyExc_AttributeError, "cannot be deleted");
		return -1;
	}
	v = PyLong_AsUnsignedLong(o);
	if (PyErr_Occurred())
		return -1;
	if (v > UINT32_MAX) {
		PyErr_SetString(PyExc_OverflowError, "above 2**32 - 1");
		return -1;
	}
	u = (uint32_t)v;
	memcpy((char *)&self->t + (size_t)closure, &u, sizeof(u));
	return 0;
}

static PyObject *task_get_flops(struct npy_task *self, void *closure)
{
	(void)closure;
	return PyLong_FromUnsignedLongLong(self->t.flops);
}

static PyObject *task_get_bytes(struct npy_task *self, void *closure)
{
	(void)closure;
	return PyLong_FromUnsignedLongLong(self->t.bytes);
}

static PyObject *task_get_dtype(struct npy_task *self, void *closure)
{
	uint32_t dt = self->t.tensors[0].dtype;

	(void)closure;
	if (!self->t.n_inputs && !self->t.n_outputs)
		return Py_NewRef(Py_None);
	return PyUnicode_FromString(dt < VNPU_DT_COUNT ? dtypes[dt] : "UNDEFINED");
}

#define U32_FIELD(f, doc)                                            \
	{                                                            \
#f, (getter)task_get_u32, (setter)task_set_u32, doc, \
			(void *)offsetof(struct vnpu_task, f)        \
	}

static PyGetSetDef task_getset[] = {
	{ "name", (getter)task_get_name, NULL, "Its op name (op_summary's Op Name).", NULL },
	{ "op_type", (getter)task_get_op_type, (setter)task_set_op_type,
	  "Its op type (OP Type), as GE names it.", NULL },
	{ "task_type", (getter)task_get_task_type, (setter)task_set_task_type,
	  "The cores it runs on: AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU or\n"
	  "COMMUNICATION (Task Type).",
	  NULL },
	U32_FIELD(stream_id, "The stream it is launched on."),
	U32_FIELD(block_num, "Its block count (Block Num)."),
	{ "flops", (getter)task_get_flops, NULL, "Its work, as the cost model takes it.", NULL },
	{ "bytes", (getter)task_get_bytes, NULL,
	  "A collective's bytes a rank (0 for the others: the model takes their\ntensors).", NULL },
	{ "dtype", (getter)task_get_dtype, NULL, "Its first tensor's data type.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyDoc_STRVAR(copy_doc, "copy()\n--\n\nAn independent copy, to change and launch again.");

static PyObject *task_copy(struct npy_task *self, PyObject *unused)
{
	struct npy_task *c = PyObject_New(struct npy_task, &npy_task_type);

	(void)unused;
	if (c)
		c->t = self->t;
	return (PyObject *)c;
}

static PyMethodDef task_methods[] = {
	{ "copy", (PyCFunction)task_copy, METH_NOARGS, copy_doc },
	{ "__copy__", (PyCFunction)task_copy, METH_NOARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyObject *task_repr(struct npy_task *self)
{
	PyObject *type = task_get_task_type(self, NULL), *r;

	if (!type)
		return NULL;
	r = PyUnicode_FromFormat("<npuprof.Task %.64s %.32s %S stream %u>", self->t.op_name,
				 self->t.op_type, type, self->t.stream_id);
	Py_DECREF(type);
	return r;
}

PyTypeObject npy_task_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "npuprof.Task",
	.tp_doc = PyDoc_STR("One operator to launch, built by a Device's builders\n"
			    "(Device.matmul(), ...); Device.launch() copies it."),
	.tp_basicsize = sizeof(struct npy_task),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_dealloc = (destructor)task_dealloc,
	.tp_repr = (reprfunc)task_repr,
	.tp_getset = task_getset,
	.tp_methods = task_methods,
};

int npy_task_setup(PyObject *m)
{
	char name[32];

	if (PyType_Ready(&npy_task_type) ||
	    PyModule_AddObjectRef(m, "Task", (PyObject *)&npy_task_type))
		return -1;
	/* DT_FLOAT16 = 1, ...: enum vnpu_dtype, for op()'s dtype */
	for (unsigned int i = 0; i < VNPU_DT_COUNT; i++) {
		snprintf(name, sizeof(name), "DT_%s", dtypes[i]);
		if (PyModule_AddIntConstant(m, name, i))
			return -1;
	}
	return 0;
}
