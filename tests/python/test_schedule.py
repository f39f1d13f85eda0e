# SPDX-License-Identifier: GPL-2.0
"""npuprof.schedule() and profile(): torch's schedule, on the host."""
import pytest

import npuprof

A = npuprof.ProfilerAction


def test_schedule_is_torch_s():
    s = npuprof.schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [s(i) for i in range(6)] == [A.NONE, A.WARMUP, A.RECORD, A.RECORD_AND_SAVE,
                                        A.NONE, A.NONE]
    s = npuprof.schedule(wait=0, active=1, repeat=0, skip_first=2)
    assert [s(i) for i in range(5)] == [A.NONE, A.NONE] + [A.RECORD_AND_SAVE] * 3
    s = npuprof.schedule(wait=2, active=3, repeat=2)
    assert [s(i).value for i in range(11)] == [0, 0, 2, 2, 3, 0, 0, 2, 2, 3, 0]


@pytest.mark.parametrize("bad", [dict(wait=-1, active=1), dict(wait=0, active=0),
                                 dict(wait=0, active=1, repeat=-1), dict(wait=0, active=1.5),
                                 dict(wait=True, active=1)])
def test_a_bad_schedule_is_a_value_error(bad):
    with pytest.raises(ValueError, match="schedule: "):
        npuprof.schedule(**bad)


def test_profile_checks_its_options_at_once():
    with pytest.raises(ValueError, match="Option level should be str"):
        npuprof.profile(level=1)
    with pytest.raises(ValueError, match="schedule must be callable"):
        npuprof.profile(schedule=3)
    with pytest.raises(TypeError):
        npuprof.profile(npuprof.schedule(wait=0, active=1))


def test_steps_outside_a_window_start_nothing():
    """No device here: a window that started would fail; waiting steps do not."""
    with npuprof.profile(schedule=npuprof.schedule(wait=3, active=1)) as p:
        p.step()
        p.step()
        assert p.step_num == 2 and p.folders == []
        with pytest.raises(npuprof.ProfilerError):
            p.step()            # step 3 is active: the Profiler starts, with no device
