# SPDX-License-Identifier: LGPL-2.1-or-later
"""The runtime: a virtual NPU, its streams, ops, collectives, launch and sync.

    with npuprof.open(0) as dev:              # /dev/vnpu0, this thread's current device
        s = dev.create_stream()
        mm = dev.matmul("fc/MatMul", 1024, 1024, 1024, stream=s)
        dev.launch([mm, dev.relu("fc/Relu", (1024, 1024), stream=s)])
        dev.sync(s)

The current device is per thread, as in C: open() makes the new device the
calling thread's, Device.set_current() makes another one. Builders size
their op for the device they are called on; a Task is plain data until
Device.launch() copies it to the device.
"""

from . import _npuprof
from ._npuprof import Task

__all__ = ["Device", "Task", "open", "DTYPES"]

# dtype names -> enum vnpu_dtype (op_summary writes the upper-case name)
DTYPES = {
    "float32": _npuprof.DT_FLOAT, "float": _npuprof.DT_FLOAT, "fp32": _npuprof.DT_FLOAT,
    "float16": _npuprof.DT_FLOAT16, "fp16": _npuprof.DT_FLOAT16,
    "bfloat16": _npuprof.DT_BF16, "bf16": _npuprof.DT_BF16,
    "int8": _npuprof.DT_INT8, "uint8": _npuprof.DT_UINT8, "int16": _npuprof.DT_INT16,
    "int32": _npuprof.DT_INT32, "int64": _npuprof.DT_INT64, "bool": _npuprof.DT_BOOL,
}


def _dtype(name):
    try:
        return DTYPES[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"dtype {name!r}: not one of {', '.join(DTYPES)}") from None


class Device(_npuprof.Device):
    """An open /dev/vnpuN (npuprof.open()); closes as a context manager.

    Streams: create_stream(), destroy_stream(). Work: the builders below,
    launch(), sync(). Groups: comm_init_ranks() (as `npuprof run --ranks N`
    sets them up), comm_create() and comm_join() (one process, many
    devices), comm_destroy(). info is the product's facts, id the N.
    """

    def _op(self, kind, name, stream, dtype, *args):
        return _npuprof.op(kind, self, name, stream, _dtype(dtype), *args)

    def matmul(self, name, m, k, n, *, stream, dtype="float16"):
        """C[m,n] = A[m,k] x B[k,n] on the cube (AI_CORE)."""
        return self._op("matmul", name, stream, dtype, m, k, n)

    def add(self, name, dims, *, stream, dtype="float16"):
        """Element-wise, on the AI Vector Cores where the product has them."""
        return self._op("add", name, stream, dtype, dims)

    def mul(self, name, dims, *, stream, dtype="float16"):
        return self._op("mul", name, stream, dtype, dims)

    def relu(self, name, dims, *, stream, dtype="float16"):
        return self._op("relu", name, stream, dtype, dims)

    def softmax(self, name, dims, *, stream, dtype="float16"):
        """Over the last dim."""
        return self._op("softmax", name, stream, dtype, dims)

    def layernorm(self, name, dims, *, stream, dtype="float16"):
        """Over the last dim."""
        return self._op("layernorm", name, stream, dtype, dims)

    def conv2d(self, name, nchw, filter, *, stream, dtype="float16"):
        """NCHW input, [cout, cin, kh, kw] filter, stride 1, same padding."""
        return self._op("conv2d", name, stream, dtype, nchw, filter)

    def allreduce(self, name, comm, elems, *, stream, tag=0, dtype="float16"):
        """HcomAllReduce of elems elements a rank on group comm."""
        return self._op("allreduce", name, stream, dtype, comm, tag, elems)

    def allgather(self, name, comm, elems, *, stream, tag=0, dtype="float16"):
        """HcomAllGather; elems: the gathered buffer."""
        return self._op("allgather", name, stream, dtype, comm, tag, elems)

    def reducescatter(self, name, comm, elems, *, stream, tag=0, dtype="float16"):
        """HcomReduceScatter; elems: the buffer it scatters."""
        return self._op("reducescatter", name, stream, dtype, comm, tag, elems)

    def broadcast(self, name, comm, elems, *, stream, root=0, tag=0, dtype="float16"):
        """HcomBroadcast from rank root (the same on every rank)."""
        return self._op("broadcast", name, stream, dtype, comm, tag, root, elems)

    def send(self, name, comm, dst, elems, *, stream, tag=0, dtype="float16"):
        """HcomSend to rank dst: meets dst's recv of this rank, n-th for n-th."""
        return self._op("send", name, stream, dtype, comm, tag, dst, elems)

    def recv(self, name, comm, src, elems, *, stream, tag=0, dtype="float16"):
        """HcomReceive from rank src."""
        return self._op("recv", name, stream, dtype, comm, tag, src, elems)


def open(dev_id):  # noqa: A001 - npuprof.open, as os.open
    """Open /dev/vnpu<dev_id> as this thread's current device: a Device."""
    return _npuprof.open(dev_id, Device)
