#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/transformer.c in Python: transformer layers with a gradient AllReduce.

    npuprof run --ranks 2 --level L1 -- python3 examples/transformer.py 4
    python3 examples/transformer.py 4 2          # 2 devices in one process
    python3 examples/transformer.py 4 2 --profile out/   # and profile them

Each layer queues 12 ops and a gradient AllReduce on every rank, as the C
example does, with the same names, shapes and cores (DropOutGenMask on the
AI CPU). Under `npuprof run --ranks N` each process is one rank (RANK_ID,
RANK_SIZE), profiled by npuprof run; alone, one process drives every device
and --profile wraps the run in a Profiler.
"""

import argparse
import os
import sys

import npuprof

SEQ, HIDDEN, FFN, HEADS = 512, 1024, 4096, 16


def layer(dev, stream, comm, l, batch):
    act, ffn = (batch, SEQ, HIDDEN), (batch, SEQ, FFN)
    rows = batch * SEQ
    p = f"layer{l}/"
    mask = dev.relu(p + "attn/DropOutGenMask", (batch, HEADS), stream=stream, dtype="uint8")
    mask.op_type, mask.task_type, mask.block_num = "DropOutGenMask", "AI_CPU", 1
    ops = [
        dev.layernorm(p + "attn/LayerNorm", act, stream=stream),
        dev.matmul(p + "attn/qkv/MatMul", rows, HIDDEN, 3 * HIDDEN, stream=stream),
        dev.matmul(p + "attn/scores/MatMul", rows * HEADS, HIDDEN // HEADS, SEQ, stream=stream),
        dev.softmax(p + "attn/SoftmaxV2", (batch, HEADS, SEQ, SEQ), stream=stream),
        mask,
        dev.matmul(p + "attn/context/MatMul", rows * HEADS, SEQ, HIDDEN // HEADS,
                   stream=stream),
        dev.matmul(p + "attn/out/MatMul", rows, HIDDEN, HIDDEN, stream=stream),
        dev.add(p + "attn/residual/Add", act, stream=stream),
        dev.layernorm(p + "ffn/LayerNorm", act, stream=stream),
        dev.matmul(p + "ffn/up/MatMul", rows, HIDDEN, FFN, stream=stream),
        dev.relu(p + "ffn/Relu", ffn, stream=stream),
        dev.matmul(p + "ffn/down/MatMul", rows, FFN, HIDDEN, stream=stream),
        dev.allreduce(p + "grad/hcom_allReduce", comm, HIDDEN * FFN, tag=l, stream=stream),
    ]
    dev.launch(ops)


def one_rank(layers):
    """A rank of `npuprof run --ranks N`: its device, its group."""
    rank_dev = int(os.environ.get("ASCEND_DEVICE_ID") or os.environ["RANK_ID"])
    with npuprof.open(rank_dev) as dev:
        stream = dev.create_stream()
        comm, rank, nranks = dev.comm_init_ranks(timeout_ms=60000)
        for l in range(layers):
            layer(dev, stream, comm, l, batch=2)
        dev.sync(stream, timeout_ms=60000)
    print(f"transformer.py: rank {rank} of {nranks}: {layers} layers done")


def run_layers(devs, streams, comms, layers):
    for l in range(layers):
        for d, dev in enumerate(devs):
            layer(dev, streams[d], comms[d], l, batch=2)
    for d, dev in enumerate(devs):
        dev.sync(streams[d], timeout_ms=60000)


def all_devices(layers, ndev, profile_dir=None):
    """One process, every device: rank d on /dev/vnpu<d>, as hcom's world group;
    with profile_dir, a Profiler on device 0 (the thread's current device)."""
    devs = []
    try:
        devs = [npuprof.open(d) for d in range(ndev)]
        streams = [d.create_stream() for d in devs]
        comm, key = devs[0].comm_create(ndev, 0)
        comms = [comm] + [devs[d].comm_join(key, ndev, d) for d in range(1, ndev)]
        if profile_dir is None:
            run_layers(devs, streams, comms, layers)
        else:
            devs[0].set_current()
            with npuprof.Profiler(level="L1", output_path=profile_dir) as prof:
                run_layers(devs, streams, comms, layers)
            print(f"transformer.py: device 0's profile in {prof.path}")
    finally:
        for dev in devs:
            dev.close()
    print(f"transformer.py: {layers} layers on {ndev} devices done")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("layers", nargs="?", type=int, default=4)
    ap.add_argument("devices", nargs="?", type=int, default=2)
    ap.add_argument("--profile", metavar="DIR",
                    help="profile device 0 at L1 into DIR (one process)")
    a = ap.parse_args()
    if not 1 <= a.layers <= 1000 or not 2 <= a.devices <= 16:
        ap.error("LAYERS 1..1000, DEVICES 2..16")
    try:
        if os.environ.get("RANK_SIZE"):
            one_rank(a.layers)
        else:
            all_devices(a.layers, a.devices, a.profile)
    except npuprof.ProfilerError as e:
        print(f"transformer.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
