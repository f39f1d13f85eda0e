# SPDX-License-Identifier: LGPL-2.1-or-later
"""Results as data: the exported tables of a PROF_* folder (npuprof.read()).

    res = npuprof.read(prof.path)
    for row in res.op_summary:
        print(row["Op Name"], row["Task Duration(us)"])     # a str, a float
    df = res.op_summary.to_dataframe()                     # with pandas only

Only the standard library: csv, with each cell typed as msprof meant it.
msprof pads times with a tab (so that spreadsheets keep their digits) and
writes N/A where a value does not apply: a cell is stripped, then an int,
a float, None (empty or N/A) or the text.
"""

import csv
import os
import re

__all__ = ["read", "Results", "Table"]

# the tables msprof's export writes as CSV; any other *.csv is read too
TABLES = ("op_summary", "op_statistic", "api_statistic", "task_time",
          "communication_statistic")
_INT = re.compile(r"[+-]?\d+\Z")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?\Z")
# op_summary_20261207105959.csv, op_summary_slice_0_20261207105959.csv
_NAME = re.compile(r"(?P<table>[A-Za-z][A-Za-z0-9_]*?)(_slice_(?P<slice>\d+))?(_\d+)+\.csv\Z")


def _cell(text):
    v = text.strip()
    if v == "" or v == "N/A":
        return None
    if _INT.match(v):
        return int(v)
    if _FLOAT.match(v):
        return float(v)
    return v


class Table(list):
    """One table: a list of rows, each a dict column -> value, in file order."""

    def __init__(self, name, columns, rows=(), files=()):
        super().__init__(rows)
        self.name = name
        self.columns = list(columns)
        self.files = list(files)

    def column(self, name):
        """One column's values, row by row."""
        if name not in self.columns:
            raise KeyError(f"{self.name}: no column {name!r} (it has {', '.join(self.columns)})")
        return [r.get(name) for r in self]

    def to_dataframe(self):
        """The table as a pandas.DataFrame (needs pandas: python3-pandas on Debian)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("npuprof: to_dataframe() needs pandas "
                              "(Debian: apt install python3-pandas)") from e
        return pandas.DataFrame(list(self), columns=self.columns)

    def __repr__(self):
        return f"<npuprof.Table {self.name}: {len(self)} rows, {len(self.columns)} columns>"


class Results:
    """The tables of one export: results.op_summary, results["task_time"], ...

    A table the export did not write (communication_statistic without a
    collective) is an empty Table; `in` tells which were written.
    """

    def __init__(self, folder, tables):
        self.folder = folder
        self.tables = tables

    def __getitem__(self, name):
        try:
            return self.tables[name]
        except KeyError:
            if name in TABLES:
                return Table(name, ())
            raise KeyError(f"{self.folder}: no table {name!r}") from None

    def __getattr__(self, name):
        if name.startswith("_") or name in ("folder", "tables"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(str(e)) from None

    def __contains__(self, name):
        return name in self.tables

    def __repr__(self):
        return f"<npuprof.Results {self.folder}: {', '.join(sorted(self.tables))}>"


def _output_dir(folder):
    folder = os.fspath(folder)
    if os.path.basename(os.path.normpath(folder)) == "mindstudio_profiler_output":
        out = folder
    else:
        out = os.path.join(folder, "mindstudio_profiler_output")
    if not os.path.isdir(out):
        raise FileNotFoundError(f"npuprof.read: {out}: no such folder (export the PROF_* "
                                "folder first: npuprof.export() or `npuprof export`)")
    return out


def _read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            return [], []
        columns = [c.strip() for c in header]
        rows = []
        for n, cells in enumerate(reader, 2):
            if len(cells) != len(columns):
                raise ValueError(f"npuprof.read: {path}:{n}: {len(cells)} cells, "
                                 f"the header has {len(columns)}")
            rows.append(dict(zip(columns, map(_cell, cells))))
        return columns, rows


def read(folder):
    """The CSV tables of a PROF_* folder's mindstudio_profiler_output/: Results.

    folder is the PROF_* folder (or its mindstudio_profiler_output/). Slices
    of one table are joined in slice order; a row whose cell count is not
    its header's is a ValueError naming the file and line.
    """
    out = _output_dir(folder)
    found = {}
    for entry in sorted(os.listdir(out)):
        m = _NAME.match(entry)
        if not m:
            continue
        found.setdefault(m["table"], []).append((int(m["slice"] or 0), entry))
    tables = {}
    for name, files in found.items():
        columns, rows, paths = None, [], []
        for _, entry in sorted(files):
            path = os.path.join(out, entry)
            cols, part = _read_csv(path)
            if columns is not None and cols != columns:
                raise ValueError(f"npuprof.read: {path}: other columns than {paths[0]}")
            columns = cols
            rows += part
            paths.append(path)
        tables[name] = Table(name, columns or (), rows, paths)
    return Results(out, tables)
