# SPDX-License-Identifier: GPL-2.0
"""The Profiler's option rules, on the host (no device needed).

Each row of docs/python.md's behaviour table that does not need a device:
the exception's type and its exact text. The rules that need one (nesting,
a second thread, the block's exception kept) run in the dev VM.
"""
import errno
import os
import shutil

import pytest

import npuprof

METRICS = ("[ArithmeticUtilization, L2Cache, Memory, MemoryL0, MemoryUB, PipeUtilization,"
           " ResourceConflictRatio]")


@pytest.mark.parametrize("name", ["level", "aic_metrics", "output_path"])
@pytest.mark.parametrize("value,shown", [(1, "<class 'int'>"), (None, "<class 'NoneType'>"),
                                         (b"L1", "<class 'bytes'>")])
def test_a_non_str_option_is_a_value_error_at_init(name, value, shown):
    with pytest.raises(ValueError) as e:
        npuprof.Profiler(**{name: value})
    assert str(e.value) == f"Option {name} should be str, but get type: {shown}"


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        npuprof.Profiler("L1")


def enter(**options):
    """The error entering a Profiler with options raises."""
    with pytest.raises(RuntimeError) as e:
        with npuprof.Profiler(**options):
            pass
    assert isinstance(e.value, npuprof.ProfilerError)
    return e.value


@pytest.mark.parametrize("level", ["L4", "", "l1", "L1 "])
def test_a_bad_level_fails_at_enter(level):
    e = enter(level=level)
    assert str(e) == (f"Profiler options: level cannot set to: {level}, should set level to"
                      " [L0, L1, L2].")
    assert e.errno == errno.EINVAL


def test_aic_metrics_at_l0_fails_at_enter():
    e = enter(level="L0", aic_metrics="ArithmeticUtilization")
    assert str(e) == "Please use L1 or L2 if you want to collect aic metrics!"
    assert enter(aic_metrics="Memory").errno == errno.EINVAL  # L0 is the default


def test_an_unknown_aic_metrics_fails_at_enter():
    e = enter(level="L2", aic_metrics="X")
    assert str(e) == f"Profiler options: aic_metrics cannot set to: X, should set aic_metrics to {METRICS}."


def test_the_rules_are_checked_in_the_adapters_order():
    # the level before aic_metrics, L0's rule before the name's
    assert "level cannot set to: L9" in str(enter(level="L9", aic_metrics="X"))
    assert str(enter(level="L0", aic_metrics="X")).startswith("Please use L1 or L2")


def test_a_missing_output_path_fails_at_enter(tmp_path):
    e = enter(level="L1", output_path=str(tmp_path / "none"))
    assert e.errno == errno.ENOENT
    assert str(tmp_path / "none") in str(e)


def test_global_profiling_fails_at_enter(monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "true")
    e = enter(level="L1")
    assert e.errno == errno.EPERM
    assert "PROFILING_MODE" in str(e)


def test_without_a_device_enter_says_so():
    e = enter(level="L1", aic_metrics="PipeUtilization")
    assert e.errno == errno.ENODEV
    assert "no current device" in str(e)


def test_a_failed_enter_starts_nothing():
    enter(level="L4")
    # nothing to stop: a new Profiler is not nested in the failed one
    assert "Not support nested" not in str(enter(level="L1"))


def test_profiler_error_is_a_runtime_error_with_errno():
    assert issubclass(npuprof.ProfilerError, RuntimeError)
    assert npuprof.ProfilerError.__module__ == "npuprof"


def test_export_names_a_missing_folder(tmp_path):
    with pytest.raises(npuprof.ProfilerError) as e:
        npuprof.export(str(tmp_path / "PROF_none"))
    assert e.value.errno == errno.ENOENT
    assert str(tmp_path / "PROF_none") in str(e.value)


def test_export_writes_msprofs_sample(tmp_path):
    ref = os.environ.get("VNPU_REFERENCE",
                         os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                      "reference"))
    sample = os.path.join(ref, "msprof-sample")
    profs = [p for p in os.listdir(sample) if p.startswith("PROF_")] if os.path.isdir(sample) else []
    if not profs:
        pytest.skip(f"no msprof sample in {sample}")
    prof = tmp_path / profs[0]
    shutil.copytree(os.path.join(sample, profs[0]), prof,
                    ignore=shutil.ignore_patterns("mindstudio_profiler_*", "sqlite"))
    npuprof.export(str(prof))
    out = os.listdir(prof / "mindstudio_profiler_output")
    assert any(f.startswith("op_summary_") and f.endswith(".csv") for f in out)
    assert any(f.startswith("msprof_") and f.endswith(".json") for f in out)
