# SPDX-License-Identifier: GPL-2.0
"""The in-VM Python suite's fixtures: the tree, the CLI, a fresh output folder."""
import os

import pytest

TOP = os.environ.get("NPUPROF_TOP") or os.path.abspath(os.path.join(__file__, "../../../.."))


@pytest.fixture
def top():
    return TOP


@pytest.fixture
def npuprof_cli():
    return os.path.join(TOP, "build/tools/npuprof/npuprof")


@pytest.fixture
def out(tmp_path):
    d = tmp_path / "out"
    d.mkdir()
    return str(d)


@pytest.fixture
def dev():
    import npuprof
    with npuprof.open(0) as d:
        yield d
