# SPDX-License-Identifier: GPL-2.0
"""The Profiler, profile() and read() on a virtual NPU: the rules that need one."""
import os
import subprocess
import sys
import threading

import pytest

import npuprof


def work(dev, s, names):
    dev.launch([dev.matmul(n, 128, 128, 128, stream=s) for n in names])
    dev.sync(s, timeout_ms=60000)


def test_a_profiled_block_reads_back_as_data(dev, out):
    s = dev.create_stream()
    with npuprof.Profiler(level="L1", aic_metrics="ArithmeticUtilization",
                          output_path=out) as prof:
        work(dev, s, [f"layer{i}/MatMul" for i in range(5)])
    assert os.path.basename(prof.path).startswith("PROF_")
    res = npuprof.read(prof.path)
    ops = [r for r in res.op_summary if r["Op Name"].startswith("layer")]
    assert [r["Op Name"] for r in ops] == [f"layer{i}/MatMul" for i in range(5)]
    assert all(r["OP Type"] == "MatMul" and r["Task Duration(us)"] > 0 for r in ops)
    assert res.op_statistic and res.api_statistic and res.task_time


def test_nesting_is_refused_and_the_first_goes_on(dev, out):
    s = dev.create_stream()
    with npuprof.Profiler(level="L1", output_path=out) as prof:
        with pytest.raises(RuntimeError) as e:
            with npuprof.Profiler(level="L1", output_path=out):
                pass
        assert str(e.value) == "Not support nested call 'profiler.Profiler'."
        work(dev, s, ["after/MatMul"])
    assert any(r["Op Name"] == "after/MatMul" for r in npuprof.read(prof.path).op_summary)


def test_a_second_thread_cannot_start_while_one_runs(dev, out):
    s = dev.create_stream()
    errors = []

    def second():
        with npuprof.open(1):
            try:
                with npuprof.Profiler(level="L0", output_path=out):
                    pass
            except npuprof.ProfilerError as e:
                errors.append(e)

    with npuprof.Profiler(level="L1", output_path=out) as prof:
        t = threading.Thread(target=second)
        t.start()
        t.join()
        work(dev, s, ["first/MatMul"])
    assert len(errors) == 1
    assert any(r["Op Name"] == "first/MatMul" for r in npuprof.read(prof.path).op_summary)


def test_the_block_s_exception_is_kept(dev, out):
    s = dev.create_stream()
    with pytest.raises(KeyError, match="mine"):
        with npuprof.Profiler(level="L1", output_path=out) as prof:
            work(dev, s, ["before/MatMul"])
            raise KeyError("mine")
    assert any(r["Op Name"] == "before/MatMul" for r in npuprof.read(prof.path).op_summary)


def test_profile_writes_one_folder_per_active_window(dev, out):
    s = dev.create_stream()
    ready = []
    sched = npuprof.schedule(wait=1, warmup=1, active=2, repeat=2)
    with npuprof.profile(schedule=sched, on_trace_ready=ready.append, level="L1",
                         output_path=out) as p:
        for step in range(9):
            work(dev, s, [f"step{step}/MatMul"])
            p.step()
    assert ready == p.folders and len(ready) == 2 and ready[0] != ready[1]
    # cycle 0: steps 2 and 3 active, cycle 1: steps 6 and 7
    for folder, steps in zip(ready, ([2, 3], [6, 7])):
        names = sorted({r["Op Name"] for r in npuprof.read(folder).op_summary
                        if r["Op Name"].startswith("step")})
        assert names == [f"step{i}/MatMul" for i in steps], folder


def test_npuprof_run_profiles_a_python_script(npuprof_cli, top, out):
    """Global profiling around a Python program: two ranks, two PROF_* folders."""
    env = dict(os.environ)
    r = subprocess.run([npuprof_cli, "run", "--ranks", "2", "--level", "L1", "--output", out,
                        "--", sys.executable, os.path.join(top, "examples/transformer.py"),
                        "2"], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rank 1 of 2: 2 layers done" in r.stdout
    profs = sorted(p for p in os.listdir(out) if p.startswith("PROF_"))
    assert len(profs) == 2
    for p in profs:
        res = npuprof.read(os.path.join(out, p))
        names = [r["Op Name"] for r in res.op_summary]
        assert "layer1/grad/hcom_allReduce" in " ".join(names)
        assert any(r["OP Type"] == "DropOutGenMask" and r["Task Type"] == "AI_CPU"
                   for r in res.op_summary)
        assert res.communication_statistic
