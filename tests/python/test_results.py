# SPDX-License-Identifier: GPL-2.0
"""npuprof.read(): an export's CSV tables as typed rows (no device needed)."""
import os

import pytest

import npuprof

HEADER = "Device_id,Op Name,OP Type,Task ID,Task Start Time(us),Task Duration(us),Input Shapes\n"


def folder(tmp_path, files):
    out = tmp_path / "PROF_000001_20261207000000_ABC" / "mindstudio_profiler_output"
    out.mkdir(parents=True)
    for name, text in files.items():
        (out / name).write_text(text)
    return out.parent


def test_cells_are_typed_as_msprof_meant_them(tmp_path):
    prof = folder(tmp_path, {
        "op_summary_20261207000000.csv":
            HEADER + '0,layer0/MatMul,MatMul,12,1796641200526194.160\t, 24.5,"1,512;512,1024"\n'
                     "0,layer0/Add,Add,13,1796641200526300.000\t,N/A,\n",
    })
    res = npuprof.read(prof)
    rows = res.op_summary
    assert len(rows) == 2 and rows.columns[1] == "Op Name"
    assert rows[0] == {"Device_id": 0, "Op Name": "layer0/MatMul", "OP Type": "MatMul",
                       "Task ID": 12, "Task Start Time(us)": 1796641200526194.16,
                       "Task Duration(us)": 24.5, "Input Shapes": "1,512;512,1024"}
    assert rows[1]["Task Duration(us)"] is None and rows[1]["Input Shapes"] is None
    assert rows.column("Task ID") == [12, 13]
    with pytest.raises(KeyError, match="no column 'Nope'"):
        rows.column("Nope")
    # its mindstudio_profiler_output/ reads the same
    assert npuprof.read(os.path.join(prof, "mindstudio_profiler_output")).op_summary == rows


def test_slices_join_in_order_and_absent_tables_are_empty(tmp_path):
    prof = folder(tmp_path, {
        "op_summary_slice_1_20261207000000.csv": HEADER + "0,b,Add,2,2.0,1.0,\n",
        "op_summary_slice_0_20261207000000.csv": HEADER + "0,a,Add,1,1.0,1.0,\n",
        "l2_cache_20261207000000.csv": "Device_id,Hit Rate\n0,0.5\n",
        "msprof_20261207000000.json": "[]",
    })
    res = npuprof.read(prof)
    assert [r["Op Name"] for r in res.op_summary] == ["a", "b"]
    assert len(res.op_summary.files) == 2
    assert res["l2_cache"][0]["Hit Rate"] == 0.5 and "l2_cache" in res
    assert "communication_statistic" not in res and len(res.communication_statistic) == 0
    with pytest.raises(AttributeError, match="no table 'nothing'"):
        res.nothing


def test_bad_files_name_themselves(tmp_path):
    prof = folder(tmp_path, {"op_summary_20261207000000.csv": HEADER + "0,a,Add\n"})
    with pytest.raises(ValueError, match=r"op_summary_20261207000000.csv:2: 3 cells"):
        npuprof.read(prof)
    with pytest.raises(FileNotFoundError, match="export the PROF_"):
        npuprof.read(tmp_path / "nothing")


def test_to_dataframe_has_the_columns_or_names_pandas(tmp_path):
    prof = folder(tmp_path, {"op_summary_20261207000000.csv": HEADER + "0,a,Add,1,1.0,2.0,\n"})
    table = npuprof.read(prof).op_summary
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="python3-pandas"):
            table.to_dataframe()
        return
    df = table.to_dataframe()
    assert list(df.columns) == table.columns and df["Task Duration(us)"][0] == 2.0


def test_msprof_s_own_export_reads(tmp_path):
    """msprof's sample, exported by us, read back: every table has rows."""
    import shutil
    ref = os.environ.get("VNPU_REFERENCE", os.path.join(os.path.dirname(__file__),
                                                         "../../../shared/reference"))
    sample = os.path.join(ref, "msprof-sample")
    profs = [p for p in (os.listdir(sample) if os.path.isdir(sample) else [])
             if p.startswith("PROF_")]
    if not profs:
        pytest.skip(f"no msprof sample in {sample}")
    dst = tmp_path / profs[0]
    shutil.copytree(os.path.join(sample, profs[0]), dst, ignore=shutil.ignore_patterns(
        "mindstudio_profiler_output"))
    npuprof.export(str(dst))
    res = npuprof.read(dst)
    for name in ("op_summary", "op_statistic", "task_time"):
        assert len(res[name]) > 0, name
    assert all(isinstance(r["Task Duration(us)"], float) for r in res.op_summary)
