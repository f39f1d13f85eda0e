#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Reference converter for bench/export_speed: the straightforward way.

ref_export.py PROF_DIR OUT_CSV reads device_*/data/vnpu.ctrl and
vnpu.rec.* of a PROF_* folder with struct.unpack_from and writes an
op_summary-like CSV with the csv module: the same columns as npuprof's
op_summary for an A2 (split AIC/AIV) session at L1 PipeUtilization, with
plain float arithmetic, rows in record order (not sorted), one file.
"""
import csv
import glob
import os
import struct
import sys

HDR = struct.Struct("<HHIQ")
TASK = struct.Struct("<QIIQ")
OPINFO = struct.Struct("<QIIIIIIIIQQ64s32s")
TENSOR = struct.Struct("<BBBBI")
PMU = struct.Struct("<QIIQQII8Q8Q")
TYPES = ["AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "AI_CPU", "COMMUNICATION"]
DTYPES = ["FLOAT", "FLOAT16", "INT8", "INT32", "UINT8", "INT16", "INT64", "BF16", "BOOL"]
FORMATS = ["ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z"]
AIC = [("mac", (0x416, 0x417)), ("scalar", (0x9,)), ("mte1", (0x302,)), ("mte2", (0xc,)),
       ("fixpipe", (0x303,))]
AIV = [("vec", (0x8,)), ("scalar", (0x9,)), ("mte2", (0xc,)), ("mte3", (0xd,))]
HEADER = ("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
          "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,"
          "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
          "Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles").split(",")
for n, _ in AIC:
    HEADER += [f"aic_{n}_time(us)", f"aic_{n}_ratio"]
HEADER += ["aic_icache_miss_rate", "aiv_time(us)", "aiv_total_cycles"]
for n, _ in AIV:
    HEADER += [f"aiv_{n}_time(us)", f"aiv_{n}_ratio"]
HEADER += ["aiv_icache_miss_rate", "cube_utilization(%)"]


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def side(ctrl_events, events, cycles, blocks, cores, freq_mhz, cols):
    """aicore_time, cycles, (time, ratio) per column, icache miss rate."""
    ev = {e: events[i] for i, e in enumerate(ctrl_events) if e}
    waves = -(-blocks // cores) if cores else 1
    core_time = cycles / freq_mhz / blocks * waves if blocks else 0.0
    out = ["%.3f" % core_time, cycles]
    for _, ids in cols:
        n = sum(ev.get(i, 0) for i in ids)
        ratio = n / cycles if cycles else 0.0
        out += ["%.3f" % (core_time * ratio), "%.3f" % ratio]
    out.append("%.3f" % (ev.get(0x55, 0) / ev[0x54] if ev.get(0x54) else 0.0))
    return out


def convert(prof, out):
    w = csv.writer(open(out, "w", newline=""), lineterminator="\n")
    w.writerow(HEADER)
    for devdir in sorted(glob.glob(os.path.join(prof, "device_*"))):
        dev = int(devdir.rsplit("_", 1)[1])
        ctrl = open(os.path.join(devdir, "data", "vnpu.ctrl"), "rb").read()
        aic_num, aiv_num, freq_khz, cnt_khz = struct.unpack_from("<IIII", ctrl, 84)
        aic_ev = struct.unpack_from("<8I", ctrl, 104)
        aiv_ev = struct.unpack_from("<8I", ctrl, 136)
        base = struct.unpack_from("<Q", ctrl, 168)[0]
        mhz = freq_khz / 1000
        tasks, prev_end = {}, None
        for path in sorted(glob.glob(os.path.join(devdir, "data", "vnpu.rec.*"))):
            data = open(path, "rb").read()
            off = 0
            while off < len(data):
                rtype, size, _, _ = HDR.unpack_from(data, off)
                if rtype == 2:
                    tid, sid, ttype, ts = TASK.unpack_from(data, off + 16)
                    tasks[tid] = {"sid": sid, "type": ttype, "start": ts}
                elif rtype == 4:
                    f = OPINFO.unpack_from(data, off + 16)
                    ins, outs, p = [], [], off + 168
                    for _ in range(f[7]):
                        dt, fmt, nd, is_out, _ = TENSOR.unpack_from(data, p)
                        dims = struct.unpack_from("<%dQ" % nd, data, p + 8)
                        (outs if is_out else ins).append((dt, fmt, dims))
                        p += 8 + 8 * nd
                    tasks[f[0]].update(info=f, ins=ins, outs=outs)
                elif rtype == 5:
                    f = PMU.unpack_from(data, off + 16)
                    tasks[f[0]]["pmu"] = f
                elif rtype == 3:
                    tid, _, _, ts = TASK.unpack_from(data, off + 16)
                    t = tasks.pop(tid)
                    start = t["start"] * 1000000 // cnt_khz
                    end = ts * 1000000 // cnt_khz
                    wait = 0 if prev_end is None else max(0, start - prev_end)
                    prev_end = end
                    info, pmu = t["info"], t["pmu"]
                    row = [dev, info[6], tid, t["sid"], info[11].rstrip(b"\0").decode(),
                           info[12].rstrip(b"\0").decode(),
                           "dynamic" if info[5] & 2 else "static", TYPES[t["type"]],
                           us(base + start) + "\t", us(end - start), us(wait), info[3],
                           info[4], "YES" if info[5] & 1 else "NO"]
                    for ts_ in (t["ins"], t["outs"]):
                        row += ['"%s"' % ";".join(",".join(map(str, d)) for _, _, d in ts_),
                                ";".join(DTYPES[d] for d, _, _ in ts_),
                                ";".join(FORMATS[f_] for _, f_, _ in ts_)]
                    row.append("0" if t["type"] in (2, 3) else "N/A")
                    zero_aic = [0] * (3 + 2 * len(AIC))
                    zero_aiv = [0] * (3 + 2 * len(AIV))
                    aic = side(aic_ev, pmu[7:15], pmu[3], pmu[5], aic_num, mhz, AIC) \
                        if pmu[3] else zero_aic
                    aiv = side(aiv_ev, pmu[15:23], pmu[4], pmu[6], aiv_num, mhz, AIV) \
                        if pmu[4] else zero_aiv
                    dur_us = (end - start) / 1000
                    cube = pmu[3] / (mhz * aic_num) * 100 / dur_us if dur_us else 0.0
                    w.writerow(row + aic + aiv + ["%.3f" % cube])
                off += size


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: ref_export.py PROF_DIR OUT_CSV")
    convert(sys.argv[1], sys.argv[2])
