# SPDX-License-Identifier: GPL-2.0
"""The installed package, as a user's script runs it: from outside the tree.

tools/check-install.sh (make check's install gate, before the VM boots)
installs into build/install/root and keeps it; here a script in a scratch
folder imports npuprof from there, with the installed library only, and
profiles a block on a virtual NPU.
"""
import os
import subprocess
import sys

import pytest

from conftest import TOP

ROOT = os.path.join(TOP, "build/install/root")

SCRIPT = r"""
import os, sys
import npuprof
root = sys.argv[1]
assert npuprof.__file__.startswith(root), npuprof.__file__
with npuprof.open(0) as dev:
    s = dev.create_stream()
    with npuprof.Profiler(level="L1", aic_metrics="PipeUtilization",
                          output_path=os.getcwd()) as prof:
        dev.launch([dev.matmul("installed/MatMul", 128, 128, 128, stream=s),
                    dev.relu("installed/Relu", (128, 128), stream=s)])
        dev.sync(s, timeout_ms=60000)
res = npuprof.read(prof.path)
names = [r["Op Name"] for r in res.op_summary if r["Op Name"].startswith("installed/")]
assert names == ["installed/MatMul", "installed/Relu"], names
with open("/proc/self/maps") as f:
    libs = {l.split()[-1] for l in f if "libnpuprof" in l}
print(os.path.basename(prof.path), *sorted(libs))
"""


def test_the_installed_package_profiles_a_block(tmp_path):
    if not os.path.isdir(ROOT):
        pytest.skip("no build/install/root: make check's install gate "
                    "(tools/check-install.sh) makes it before the VM boots")
    lib = os.path.join(ROOT, "usr/lib")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NPUPROF_TOP")}
    env.update(PYTHONPATH=os.path.join(lib, "python3/dist-packages"), LD_LIBRARY_PATH=lib)
    r = subprocess.run([sys.executable, "-c", SCRIPT, ROOT], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    folder, *libs = r.stdout.split()
    assert folder.startswith("PROF_") and (tmp_path / folder).is_dir()
    # the installed library, not the build tree's
    assert libs and all(p.startswith(lib) for p in libs), libs
