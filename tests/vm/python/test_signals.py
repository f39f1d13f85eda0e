# SPDX-License-Identifier: GPL-2.0
"""Signals during a wait, as PEP 475 has them for Python's own calls.

A handler that raises stops the wait with its exception (Ctrl-C ends a sync
that waits forever); one that raises nothing lets the wait go on, with what
is left of its timeout, not the whole of it again. Each wait here is on a
stream that would wait forever: an AllReduce whose partner never comes.
"""
import errno
import signal
import time

import pytest

import npuprof


class Stop(Exception):
    pass


@pytest.fixture
def stuck():
    """(dev, stream, unstick): the stream's head is a collective its peer has
    not joined; unstick() brings the peer, and the collective runs."""
    with npuprof.open(7) as dev:
        s = dev.create_stream()
        comm, key = dev.comm_create(2, 0)
        dev.launch(dev.allreduce("stuck/hcom_allReduce", comm, 1 << 10, stream=s))

        def unstick():
            signal.setitimer(signal.ITIMER_REAL, 0)
            with npuprof.open(6) as peer:
                ps = peer.create_stream()
                pc = peer.comm_join(key, 2, 1)
                peer.launch(peer.allreduce("stuck/hcom_allReduce", pc, 1 << 10, stream=ps))
                peer.sync(ps, timeout_ms=60000)
                dev.sync(s, timeout_ms=60000)
                peer.comm_destroy(pc)
            dev.comm_destroy(comm)

        yield dev, s, unstick


@pytest.fixture
def alarm():
    """arm(handler, every): SIGALRM to handler every `every` s, from 20 ms on."""
    old = signal.getsignal(signal.SIGALRM)

    def arm(handler, every=0.0):
        signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, 0.02, every)

    yield arm
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def stop(signum, frame):
    raise Stop()


def test_a_handler_that_raises_stops_a_sync_that_waits_forever(stuck, alarm):
    dev, s, unstick = stuck
    alarm(stop)
    with pytest.raises(Stop):
        dev.sync(s)
    with pytest.raises(Stop):
        alarm(stop)
        dev.sync()                   # every stream
    unstick()


def test_a_handler_that_raises_nothing_keeps_the_timeout(stuck, alarm):
    """Ticks every 10 ms retry the wait for what is left of its 300 ms."""
    dev, s, unstick = stuck
    ticks = []

    def tick(signum, frame):
        ticks.append(signum)
        if len(ticks) > 300:         # 3 s: the timeout started over each time
            signal.setitimer(signal.ITIMER_REAL, 0)
            raise Stop()

    alarm(tick, 0.01)
    t0 = time.monotonic()
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.sync(s, timeout_ms=300)
    took = time.monotonic() - t0
    assert e.value.errno == errno.ETIMEDOUT
    assert len(ticks) >= 5, "no signal came during the wait"
    assert 0.29 <= took < 2.0, took
    unstick()


def test_a_handler_that_raises_stops_a_destroy_and_keeps_the_stream(stuck, alarm):
    dev, s, unstick = stuck
    alarm(stop)
    with pytest.raises(Stop):
        dev.destroy_stream(s)        # waits for the stream to drain
    # the stream is still there: it takes work, and goes once drained
    dev.launch(dev.relu("after", (16, 16), stream=s))
    unstick()
    dev.destroy_stream(s)
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.destroy_stream(s)
    assert e.value.errno == errno.ENOENT


def test_a_handler_that_raises_stops_a_launch_that_waits_for_room(stuck, alarm):
    """Behind the stuck head, the open file's quota fills; one more launch waits."""
    dev, s, unstick = stuck
    room = dev.info["max_pending"] - 1
    per = dev.info["max_submit"]
    while room > 0:
        n = min(per, room)
        dev.launch([dev.add(f"q{i}", (16, 16), stream=s) for i in range(n)])
        room -= n
    alarm(stop)
    with pytest.raises(Stop):
        dev.launch(dev.add("one-too-many", (16, 16), stream=s))
    unstick()
    dev.launch(dev.add("room-again", (16, 16), stream=s))
    dev.sync(s, timeout_ms=60000)
