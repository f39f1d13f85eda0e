# SPDX-License-Identifier: LGPL-2.1-or-later
"""The Ascend TF adapter's Profiler, and export (npuprof.Profiler, npuprof.export)."""

from . import _npuprof
from ._npuprof import ProfilerError

__all__ = ["Profiler", "export"]


class Profiler:
    """A Profiler session: one PROF_* folder, written when the block ends.

    Keyword-only, as the adapter's: Profiler(level="L0", aic_metrics="",
    output_path=""). The block's own exception is never hidden: if the
    stop fails while one propagates, the stop's error is added to it as a
    note.
    """

    def __init__(self, *, level="L0", aic_metrics="", output_path=""):
        for name, value in (("level", level), ("aic_metrics", aic_metrics),
                            ("output_path", output_path)):
            if not isinstance(value, str):
                raise ValueError(f"Option {name} should be str, but get type: {type(value)}")
        self._level = level
        self._aic_metrics = aic_metrics
        self._output_path = output_path
        self._path = None

    def __enter__(self):
        _npuprof.profiler_start(self._level, self._aic_metrics, self._output_path)
        self._path = _npuprof.profiler_dir()
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            _npuprof.profiler_stop()
        except ProfilerError as e:
            if exc is None:
                raise
            exc.add_note(f"npuprof: stopping the Profiler failed too: {e}")
        return False

    @property
    def path(self):
        """The session's PROF_* folder (None before it started)."""
        return self._path


def export(folder):
    """Write folder's mindstudio_profiler_output/, as `npuprof export` does."""
    _npuprof.export(folder)
