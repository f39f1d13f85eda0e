#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of issue 42 on exported PROF_* folders, for test_realism.

Each check reads what msprof's export wrote (mindstudio_profiler_output/),
prints one line saying what it saw, and exits 0 when the check holds, 1
when it does not, 2 on unreadable input. Standard library only.

  flows PROF...          every HostToDevice flow goes forward in time
  ends TOL_US PROF...    each collective is on every rank, once, and ends at the same
                         time on all
  idle PROF              some Task Wait Time > 0 and some Overlap Free > 0
  apis PROF              no two APIs share Avg, Min, Max and Variance
  sync PROF              no sync returns before the end of the work before it
  notify-wait PROF       the first Notify_Waits of its collectives, us (prints)
  same PROF PROF         op_summary rows agree but for times and task ids
  differ PROF PROF       some same op has another duration
  flat PROF              every op of one shape has one duration
"""
import csv
import glob
import json
import os
import sys


def one(prof, pattern):
    files = sorted(glob.glob(os.path.join(prof, "mindstudio_profiler_output", pattern)))
    if not files:
        raise FileNotFoundError(f"{prof}: no {pattern}")
    return files[0]


def rows(prof, name):
    with open(one(prof, f"{name}_*.csv"), newline="") as f:
        return list(csv.DictReader(f))


def timeline(prof):
    with open(one(prof, "msprof_*.json")) as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def num(v):
    try:
        return float(str(v).strip())
    except ValueError:
        return None


def processes(events):
    """pid -> process name"""
    return {e["pid"]: e["args"]["name"] for e in events
            if e.get("ph") == "M" and e.get("name") == "process_name"}


def check_flows(profs):
    bad = total = 0
    for prof in profs:
        ends = {}
        for e in timeline(prof):
            if e.get("ph") in ("s", "f") and "HostToDevice" in str(e.get("cat", "")):
                ends.setdefault((e.get("cat"), e["id"]), {})[e["ph"]] = num(e["ts"])
        for flow in ends.values():
            if "s" in flow and "f" in flow:
                total += 1
                bad += flow["f"] < flow["s"]
    print(f"flows: {total} HostToDevice, {bad} pointing back")
    return total > 0 and bad == 0


def check_ends(tol, profs):
    ends, twice = {}, []
    for rank, prof in enumerate(profs):
        for r in rows(prof, "op_summary"):
            if r["Task Type"] == "COMMUNICATION":
                mine = ends.setdefault(r["Op Name"], {})
                if rank in mine:
                    twice.append(f'{r["Op Name"]} on rank {rank}')
                mine[rank] = num(r["Task Start Time(us)"]) + num(r["Task Duration(us)"])
    full = {k: v for k, v in ends.items() if len(v) == len(profs)}
    worst = max(full, key=lambda k: max(full[k].values()) - min(full[k].values()), default=None)
    spread = max(full[worst].values()) - min(full[worst].values()) if worst else None
    print(f"ends: {len(full)} collectives on all {len(profs)} ranks, widest spread {spread} us"
          f" ({worst}: {full.get(worst)}); on some ranks only: {sorted(set(ends) - set(full))};"
          f" twice: {twice}")
    return bool(full) and spread <= tol and not twice and len(full) == len(ends)


def check_idle(prof):
    waits = [num(r["Task Wait Time(us)"]) for r in rows(prof, "op_summary")]
    events = timeline(prof)
    names = processes(events)
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}
    free = sum(num(e.get("dur", 0)) or 0 for e in events
               if e.get("ph") == "X" and names.get(e["pid"]) == "Overlap Analysis"
               and threads.get((e["pid"], e["tid"])) == "Free")
    busy = sum(1 for w in waits if w and w > 0)
    print(f"idle: Task Wait Time > 0 on {busy} of {len(waits)} ops, Free {free:.3f} us")
    return busy > 0 and free > 0


def check_apis(prof):
    seen = {}
    for r in rows(prof, "api_statistic"):
        key = tuple(r[c] for c in ("Avg(us)", "Min(us)", "Max(us)", "Variance"))
        seen.setdefault(key, []).append(f'{r["Level"]}/{r["API Name"]}')
    same = [v for v in seen.values() if len(v) > 1]
    print(f"apis: {sum(len(v) for v in seen.values())} APIs, identical statistics: {same}")
    return not same


def check_sync(prof):
    """Every sync returns no earlier than the end of what ran before it."""
    events = timeline(prof)
    names = processes(events)
    api = [e for e in events if e.get("ph") == "X" and names.get(e["pid"]) == "CANN"]
    hw = [e for e in events if e.get("ph") == "X" and names.get(e["pid"]) == "Ascend Hardware"]
    syncs = [e for e in api if "Synchronize" in e.get("name", "")]
    bad = 0
    for s in syncs:
        start, end = num(s["ts"]), num(s["ts"]) + num(s["dur"])
        before = [num(t["ts"]) + num(t["dur"]) for t in hw if num(t["ts"]) < start]
        # the timeline's us have 3 decimals: a ns of rounding either way
        if before and end + 0.002 < max(before):
            bad += 1
    print(f"sync: {len(syncs)} syncs, {bad} returned before the work they waited for")
    return len(syncs) > 0 and bad == 0


def notify_wait(prof):
    """The first Notify_Wait of each collective in task_time, us, summed."""
    total, inside, n = 0.0, False, 0
    for r in rows(prof, "task_time"):
        kind = r.get("kernel_type") or r.get("Task Type") or ""
        if kind == "MEMCPY_ASYNC" and not inside:
            inside, n = True, 0
        if kind not in ("MEMCPY_ASYNC", "NOTIFY_WAIT", "NOTIFY_RECORD", "SDMA_SQE"):
            inside = False
            continue
        if inside:
            n += 1
            if n == 3:
                total += num(r["task_time(us)"] if "task_time(us)" in r else r["Duration(us)"])
    print(f"{total:.3f}")
    return True


SKIP = {"Task Start Time(us)", "Task Wait Time(us)", "Task ID"}


def op_rows(prof):
    return [r for r in rows(prof, "op_summary") if r["Task Type"] != "COMMUNICATION"]


def check_same(a, b):
    ra, rb = op_rows(a), op_rows(b)
    diff = [(x["Op Name"], k, x[k], y[k]) for x, y in zip(ra, rb)
            for k in x if k not in SKIP and x[k] != y[k]]
    print(f"same: {len(ra)} and {len(rb)} ops, {len(diff)} values differ: {diff[:4]}")
    return len(ra) == len(rb) and len(ra) > 0 and not diff


def check_differ(a, b):
    ra, rb = op_rows(a), op_rows(b)
    n = sum(x["Task Duration(us)"] != y["Task Duration(us)"] for x, y in zip(ra, rb))
    print(f"differ: {n} of {len(ra)} ops took another time")
    return len(ra) == len(rb) and n > 0


def check_flat(prof):
    by = {}
    for r in op_rows(prof):
        by.setdefault((r["OP Type"], r["Input Shapes"], r["Block Num"]), set()).add(
            r["Task Duration(us)"])
    spread = {k: v for k, v in by.items() if len(v) > 1}
    print(f"flat: {len(by)} shapes, {len(spread)} with more than one duration")
    return len(by) > 0 and not spread


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    mode, args = argv[1], argv[2:]
    checks = {
        "flows": lambda: check_flows(args),
        "ends": lambda: check_ends(float(args[0]), args[1:]),
        "idle": lambda: check_idle(args[0]),
        "apis": lambda: check_apis(args[0]),
        "sync": lambda: check_sync(args[0]),
        "notify-wait": lambda: notify_wait(args[0]),
        "same": lambda: check_same(args[0], args[1]),
        "differ": lambda: check_differ(args[0], args[1]),
        "flat": lambda: check_flat(args[0]),
    }
    if mode not in checks:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        return 0 if checks[mode]() else 1
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print(f"{mode}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
