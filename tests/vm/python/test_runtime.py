# SPDX-License-Identifier: GPL-2.0
"""The runtime on a virtual NPU: devices, streams, launch, sync, groups."""
import errno
import threading

import pytest

import npuprof


def test_a_device_opens_closes_and_says_what_it_is():
    dev = npuprof.open(1)
    assert dev.id == 1 and not dev.closed and isinstance(dev, npuprof.Device)
    info = dev.info
    assert info["dev_id"] == 1 and info["aic_num"] > 0 and info["max_submit"] >= 1
    assert "/dev/vnpu1" in repr(dev)
    dev.close()
    dev.close()                      # again: nothing
    assert dev.closed and "closed" in repr(dev)
    with pytest.raises(ValueError, match="closed"):
        dev.create_stream()
    with pytest.raises(ValueError, match="closed"):
        dev.matmul("mm", 16, 16, 16, stream=0)


def test_launch_and_sync(dev):
    s = dev.create_stream()
    ids = dev.launch([dev.matmul("mm", 256, 256, 256, stream=s),
                      dev.relu("relu", (256, 256), stream=s)])
    assert len(ids) == 2 and ids[1] > ids[0]
    assert len(dev.launch(dev.add("add", (256, 256), stream=s))) == 1
    dev.sync(s, timeout_ms=60000)
    dev.sync()                       # every stream
    dev.destroy_stream(s)


def test_bad_launches_keep_the_queue_as_it_was(dev):
    s = dev.create_stream()
    with pytest.raises(TypeError, match="item 1"):
        dev.launch([dev.matmul("mm", 16, 16, 16, stream=s), "relu"])
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.launch([])
    assert e.value.errno == errno.EINVAL
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.launch(dev.matmul("mm", 16, 16, 16, stream=s + 100))
    assert e.value.errno in (errno.EINVAL, errno.ENOENT)
    dev.sync(s, timeout_ms=0)        # nothing was queued: idle at once
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.destroy_stream(12345)
    assert e.value.errno in (errno.EINVAL, errno.ENOENT)


def test_a_sync_that_expires_is_etimedout(dev):
    s = dev.create_stream()
    dev.launch([dev.matmul(f"big{i}", 8192, 8192, 8192, stream=s) for i in range(64)])
    with pytest.raises(npuprof.ProfilerError) as e:
        dev.sync(s, timeout_ms=0)
    assert e.value.errno == errno.ETIMEDOUT


def test_closing_a_device_another_thread_waits_on_is_ebusy(dev):
    s = dev.create_stream()
    dev.launch([dev.matmul(f"big{i}", 8192, 8192, 8192, stream=s) for i in range(16)])
    waiting = threading.Thread(target=dev.sync, args=(s,))
    waiting.start()
    try:
        for _ in range(200):
            try:
                dev.close()
            except npuprof.ProfilerError as e:
                assert e.errno == errno.EBUSY and "in flight" in str(e)
                break
            else:
                pytest.fail("closed while another thread waited")  # pragma: no cover
        else:  # pragma: no cover
            pytest.skip("the sync ended before close() was tried")
    finally:
        waiting.join()


def test_two_devices_meet_in_an_allreduce():
    with npuprof.open(2) as a, npuprof.open(3) as b:
        sa, sb = a.create_stream(), b.create_stream()
        ca, key = a.comm_create(2, 0)
        assert len(key) == 64
        cb = b.comm_join(key, 2, 1)
        a.launch(a.allreduce("grad/hcom_allReduce", ca, 1 << 20, stream=sa))
        b.launch(b.allreduce("grad/hcom_allReduce", cb, 1 << 20, stream=sb))
        a.sync(sa, timeout_ms=60000)
        b.sync(sb, timeout_ms=60000)
        a.comm_destroy(ca)
        with pytest.raises(npuprof.ProfilerError):
            b.comm_join("zz", 2, 1)


def test_the_current_device_is_per_thread():
    """A Profiler profiles the calling thread's current device: here each its own."""
    seen = {}

    def work(d):
        with npuprof.open(d) as dev:
            s = dev.create_stream()
            dev.launch(dev.matmul("mm", 64, 64, 64, stream=s))
            dev.sync(s)
            seen[d] = dev.id

    ts = [threading.Thread(target=work, args=(d,)) for d in (4, 5)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert seen == {4: 4, 5: 5}


def test_many_cycles_leak_nothing():
    """Open, launch, sync, close 300 times: no fd and no memory left behind."""
    import os
    import resource

    def cycle():
        with npuprof.open(6) as dev:
            s = dev.create_stream()
            dev.launch([dev.add("a", (64, 64), stream=s), dev.relu("r", (64, 64), stream=s)])
            dev.sync(s, timeout_ms=60000)

    for _ in range(20):
        cycle()
    fds = len(os.listdir("/proc/self/fd"))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(300):
        cycle()
    assert len(os.listdir("/proc/self/fd")) == fds
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 4096   # KiB
