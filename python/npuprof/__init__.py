# SPDX-License-Identifier: LGPL-2.1-or-later
"""npuprof: the Ascend TF adapter's Profiler, over libnpuprof and a virtual NPU.

    import npuprof

    with npuprof.open(0) as dev, \
         npuprof.Profiler(level="L1", aic_metrics="ArithmeticUtilization",
                          output_path="./") as prof:
        s = dev.create_stream()
        dev.launch(dev.matmul("fc/MatMul", 1024, 1024, 1024, stream=s))
        dev.sync(s)
    print(npuprof.read(prof.path).op_summary)   # the PROF_* folder, exported as msprof does

The Profiler's rules are the adapter's (docs/python.md): an option that is
not a str is a ValueError at construction; nesting, a bad level,
aic_metrics at L0 and an unknown aic_metrics are RuntimeErrors at enter,
checked in that order, with the adapter's texts. libnpuprof also checks the
output path and PROFILING_MODE / PROFILING_OPTIONS at enter, where the
adapter fails later. Every failure of the library is an
npuprof.ProfilerError, a RuntimeError with .errno.

Also: the runtime (open, Device, Task), results as data (read), and
torch_npu's profile() and schedule().
"""

from ._npuprof import ProfilerError
from .profiler import Profiler, export
from .results import Results, Table, read
from .runtime import DTYPES, Device, Task, open
from .schedule import ProfilerAction, profile, schedule

__all__ = ["Profiler", "ProfilerError", "export", "open", "Device", "Task", "DTYPES", "read",
           "Results", "Table", "profile", "schedule", "ProfilerAction"]
