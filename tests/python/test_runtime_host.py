# SPDX-License-Identifier: GPL-2.0
"""The runtime's rules that need no device: tasks, types, errors."""
import errno

import pytest

import npuprof
from npuprof import _npuprof


def test_open_without_a_device_names_it():
    with pytest.raises(npuprof.ProfilerError) as e:
        npuprof.open(15)
    assert e.value.errno in (errno.ENOENT, errno.EACCES) and "vnpu15" in str(e.value)


def test_devices_come_from_open_only():
    with pytest.raises(TypeError, match="npuprof.open"):
        npuprof.Device()
    with pytest.raises(TypeError):
        npuprof.Task()


def test_a_task_is_data_a_caller_may_adjust():
    t = _npuprof.op("relu", None, "layer0/attn/DropOutGenMask", 3, _npuprof.DT_UINT8, (2, 16))
    assert (t.name, t.op_type, t.stream_id, t.dtype) == ("layer0/attn/DropOutGenMask", "Relu",
                                                        3, "UINT8")
    assert t.task_type in ("AI_CORE", "AI_VECTOR_CORE") and t.bytes == 0  # from its tensors
    c = t.copy()
    c.op_type, c.task_type, c.block_num, c.stream_id = "DropOutGenMask", "AI_CPU", 1, 4
    assert (c.op_type, c.task_type, c.block_num, c.stream_id) == ("DropOutGenMask", "AI_CPU",
                                                                 1, 4)
    assert (t.op_type, t.stream_id) == ("Relu", 3)
    assert "DropOutGenMask" in repr(c)


def test_builders_of_every_kind():
    dt = _npuprof.DT_FLOAT16
    mm = _npuprof.op("matmul", None, "mm", 0, dt, 64, 128, 256)
    assert (mm.op_type, mm.task_type) == ("MatMul", "AI_CORE") and mm.flops == 2 * 64 * 128 * 256
    assert _npuprof.op("conv2d", None, "c", 0, dt, (1, 3, 32, 32), (8, 3, 3, 3)).op_type
    ar = _npuprof.op("allreduce", None, "ar", 0, dt, 1, 7, 1024)
    assert (ar.op_type, ar.task_type, ar.bytes) == ("HcomAllReduce", "COMMUNICATION", 2048)
    assert _npuprof.op("send", None, "s", 0, dt, 1, 0, 1, 64).op_type == "HcomSend"


@pytest.mark.parametrize("args,exc,text", [
    (("nope", None, "x", 0, 1), ValueError, "no builder 'nope'"),
    (("add", None, "x", 0, 99, (4,)), npuprof.ProfilerError, "dtype 99"),
    (("add", None, "x", 0, 1, ()), npuprof.ProfilerError, "0 dims"),
    (("add", None, "x", 0, 1, tuple(range(1, 10))), npuprof.ProfilerError, "9 dims"),
    (("add", None, "x", 0, 1, ("a",)), TypeError, ""),
    (("conv2d", None, "x", 0, 1, (1, 2, 3), (1, 2, 3, 4)), npuprof.ProfilerError, "3 dims"),
    (("matmul", "dev", "x", 0, 1, 1, 1, 1), TypeError, "npuprof.Device or None"),
    (("matmul", None, "x", 0, 1, 1, 1), TypeError, ""),
])
def test_bad_builds_say_what(args, exc, text):
    with pytest.raises(exc, match=text):
        _npuprof.op(*args)


def test_bad_adjustments_say_what():
    t = _npuprof.op("add", None, "a", 0, _npuprof.DT_FLOAT16, (8,))
    with pytest.raises(npuprof.ProfilerError, match="op_type"):
        t.op_type = "x" * 40
    with pytest.raises(npuprof.ProfilerError, match="not one of"):
        t.task_type = "GPU"
    with pytest.raises(npuprof.ProfilerError, match="a collective"):
        t.task_type = "COMMUNICATION"
    with pytest.raises(OverflowError):
        t.block_num = 2**32
    with pytest.raises(AttributeError):
        t.name = "b"


def test_dtype_names():
    assert npuprof.DTYPES["bf16"] == _npuprof.DT_BF16
    with pytest.raises(ValueError, match="dtype 'float8'"):
        npuprof.runtime._dtype("float8")
