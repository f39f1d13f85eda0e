# SPDX-License-Identifier: LGPL-2.1-or-later
"""torch_npu's profile() and schedule(), over the Profiler (npuprof.profile).

    def ready(folder):                      # one PROF_* folder, exported
        print(npuprof.read(folder).op_summary[0])

    with npuprof.profile(schedule=npuprof.schedule(wait=1, warmup=1, active=2, repeat=1),
                         on_trace_ready=ready, level="L1") as p:
        for batch in data:
            train_step(batch)
            p.step()

The schedule's actions are torch's: NONE, WARMUP, RECORD and
RECORD_AND_SAVE. Each active window is one Profiler session, so one PROF_*
folder, handed to on_trace_ready when the window ends (at its last step(),
or when the block ends inside it). Warmup steps run unprofiled: torch
traces them and drops the trace, but a Profiler session keeps all it
recorded, so the session starts at the window's first active step.
"""

import enum

from .profiler import Profiler

__all__ = ["ProfilerAction", "schedule", "profile"]


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, active, warmup=0, repeat=0, skip_first=0):
    """A step -> ProfilerAction function, as torch's: skip_first steps, then
    cycles of wait, warmup and active steps, repeat times (0: no end)."""
    for name, v, least in (("wait", wait, 0), ("warmup", warmup, 0), ("active", active, 1),
                           ("repeat", repeat, 0), ("skip_first", skip_first, 0)):
        if not isinstance(v, int) or isinstance(v, bool) or v < least:
            raise ValueError(f"schedule: {name}={v!r}: an int, at least {least}")
    cycle = wait + warmup + active

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if repeat and step // cycle >= repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < wait:
            return ProfilerAction.NONE
        if pos < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return action


def _always(step):
    return ProfilerAction.RECORD


class profile:  # noqa: N801 - torch's name
    """Profile a loop window by window (schedule), or the whole block (none).

    level, aic_metrics and output_path are the Profiler's. on_trace_ready
    gets each window's PROF_* folder; .folders lists them all.
    """

    def __init__(self, *, schedule=None, on_trace_ready=None, level="L1", aic_metrics="",
                 output_path=""):
        if schedule is not None and not callable(schedule):
            raise ValueError("profile: schedule must be callable (npuprof.schedule(...))")
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise ValueError("profile: on_trace_ready must be callable")
        self._schedule = schedule or _always
        self._ready = on_trace_ready
        self._options = dict(level=level, aic_metrics=aic_metrics, output_path=output_path)
        Profiler(**self._options)  # the adapter's type checks, now
        self._session = None
        self.step_num = 0
        self.folders = []

    def _start(self):
        session = Profiler(**self._options)
        session.__enter__()
        self._session = session

    def _stop(self, exc=None):
        session, self._session = self._session, None
        session.__exit__(type(exc) if exc else None, exc, None)
        self.folders.append(session.path)
        if self._ready and exc is None:
            self._ready(session.path)

    def _enter(self, action):
        if action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE) \
                and self._session is None:
            self._start()

    def __enter__(self):
        self.step_num = 0
        self._enter(self._schedule(0))
        return self

    def step(self):
        """The current step ended: end a window that ended with it, start the next."""
        before = self._schedule(self.step_num)
        self.step_num += 1
        if before == ProfilerAction.RECORD_AND_SAVE and self._session is not None:
            self._stop()
        self._enter(self._schedule(self.step_num))

    def __exit__(self, exc_type, exc, tb):
        if self._session is not None:
            self._stop(exc)
        return False
