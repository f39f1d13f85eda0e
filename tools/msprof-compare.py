#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare our export of a PROF folder with what msprof's own parser writes.

Usage: msprof-compare.py [--cpp CPP_ANALYSIS] MSPROF_ANALYSIS NPUPROF PROF_DIR...

For each PROF folder (in the real Ascend layout): two copies of its raw data
(host/, device_N/) in a scratch folder; msprof's parser (MSPROF_ANALYSIS is
the analysis/ folder of Ascend/msprof, run with this Python, standard
library only) exports one with `export summary` and `export timeline`, and
`npuprof export` (NPUPROF) the other. Then, file by file:

  - the same output files (names without their timestamps);
  - every CSV cell equal, but for op_summary's Block Dim / Mix Block Dim,
    which msprof calls Block Num / Mix Block Num (docs/output.md), and on
    the chips whose real output is msprof's C++ path (CPP_PATH_CHIPS) the
    cells where our export follows that path and this fallback does not;
  - the timeline's events equal as a multiset, and the non-metadata events
    in the same order (msprof orders metadata by CPython's set order);
  - no [ERROR] line in msprof's mindstudio_profiler_log/, but for its own
    known defects (KNOWN_ERRORS: on chip 1 it looks for AI CPU tasks in a
    table only chips other than 1 fill, docs/msprof-parser.md section 12);
  - analyze/communication.json and communication_matrix.json (msprof's
    `analyze --rule communication,communication_matrix`, run after the
    exports) equal as parsed JSON, keys in msprof's order, numbers within
    1e-9 relative; neither side writes analyze/ for a folder without
    collectives. communication_analyzer.db is msprof's alone (docs/output.md).

With --cpp, CPP_ANALYSIS is a second analysis/ tree whose lib64/ holds
msprof_analysis.so (its C++ path; MSPROF_CPP_LIBS, when set, is put in
LD_LIBRARY_PATH for the libraries it needs). A third copy of each folder
goes through it: `export summary`, `export timeline` and `export db`. One
test per folder we wrote (msprof's reference samples lack its keys): it reads the folder (no [ERROR] in its log, a CSV written
where ours has one) and its `export db` writes msprof_*.db. On the chips
it is CANN's path for (CPP_PATH_CHIPS), its CSV cells that differ from
ours are counted and the first are shown, as notes: our export follows
the pure-Python path's formats there (docs/output.md, "Which msprof path").

Every difference is printed; the last line is "N passed, N failed", one
test per folder and file. msprof's code is never copied here: it is run
from where the user keeps it (docs/testing.md).
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


# msprof's ERROR lines that any folder of the chip gets, whatever it holds
KNOWN_ERRORS = {
    # device_task_collector.py reads AiCpuFromTs, which hwts_calculator.py
    # fills on every chip but 1: any ai_cpu.db (AI CPU records at L2) on
    # chip 1 logs these two
    1: ("no such table: AiCpuFromTs",
        "no aicpu device task get from ai_cpu.db.AiCpuFromTs"),
}


# chips whose real output is msprof's C++ path (cpp_enable_scene.py): where
# this parser is its pure-Python fallback, our op_summary follows the C++
# path in these cells (docs/msprof-parser.md section 4.3). The fallback
# drops the Memory group's L2 pair, which the C++ path writes; and it takes
# 256 x 8 B a count for aic_l1_write_bw where the C++ path takes 128 x 8,
# so its cell is twice ours (each rounded to 3 places)
CPP_PATH_CHIPS = {5, 15, 16}
CPP_ONLY_COLUMNS = ("aic_l2_read_bw(GB/s)", "aic_l2_write_bw(GB/s)",
                    "aiv_l2_read_bw(GB/s)", "aiv_l2_write_bw(GB/s)")
CPP_SCALED_COLUMNS = {"aic_l1_write_bw(GB/s)": 2.0,
                      # MemoryL0: the fallback takes 8 for these scalars
                      # where the C++ path takes 16 and 32
                      "aic_l0b_read_bw(GB/s)": 0.5,
                      "aic_l0c_read_bw_cube(GB/s)": 0.25,
                      "aic_l0c_write_bw_cube(GB/s)": 0.25}


def cpp_path_cells(lines):
    """Our op_summary lines without the C++ path's own columns, and the scaled ones.

    The PMU columns end every line and hold no quoted comma (shapes do), so
    they are found from the end: a negative index names the same column in
    the header and in every row. Returns the lines and {negative index: k}.
    """
    header = lines[0].split(",") if lines else []
    n = len(header)
    drop = {i - n for i, h in enumerate(header) if h in CPP_ONLY_COLUMNS}
    out = []
    for line in lines:
        cells = line.split(",")
        out.append(",".join(c for i, c in enumerate(cells) if i - len(cells) not in drop)
                   if line else line)
    kept = [h for i, h in enumerate(header) if i - n not in drop]
    scaled = {i - len(kept): CPP_SCALED_COLUMNS[h]
              for i, h in enumerate(kept) if h in CPP_SCALED_COLUMNS}
    return out, scaled


def same_scaled(u, v, k):
    """msprof's cell u is k times our cell v, both rounded to 3 places."""
    try:
        return abs(float(u) - k * float(v)) <= 0.0005 * (k + 1) + 1e-12
    except ValueError:
        return False


def device_info(prof):
    """The first device's info.json of a folder, {} when there is none or it is bad."""
    for d in sorted(os.listdir(prof)):
        if not d.startswith("device_"):
            continue
        for f in sorted(os.listdir(os.path.join(prof, d))):
            if f.startswith("info.json"):
                try:
                    with open(os.path.join(prof, d, f), encoding="utf-8") as fp:
                        info = json.load(fp)
                except (OSError, ValueError):
                    return {}
                return info if isinstance(info, dict) else {}
    return {}


def chip_of(prof):
    try:
        return int(device_info(prof).get("platform_version", -1))
    except (TypeError, ValueError):
        return -1


def cpp_formats(prof):
    """Our export prints the C++ path's CSVs for this folder.

    On the chips CANN runs that path for, when the folder has what the path
    needs to read it at all (memoryTotal and netCard in info.json; msprof's
    own reference samples have neither: ours are the pure-Python path's).
    """
    info = device_info(prof)
    return chip_of(prof) in CPP_PATH_CHIPS and "memoryTotal" in info and "netCard" in info


def cpp_timeline(prof):
    """Our timeline is the C++ path's where its CSVs are."""
    return cpp_formats(prof)


def out_files(out):
    files = {}
    if os.path.isdir(out):
        for f in sorted(os.listdir(out)):
            files[re.sub(r"(_slice_\d+)?_\d{14}", "", f)] = os.path.join(out, f)
    return files


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def compare_csv(name, ref, ours, say, chip=-1, cpp=False):
    """CSV @ref (msprof's) against @ours, line for line and cell for cell.

    With @cpp, @ref is msprof's C++ path's, which ours prints as it is.
    """
    a = read(ref).split("\n")
    b = read(ours).split("\n")
    scaled = {}
    if name == "op_summary.csv" and chip in CPP_PATH_CHIPS:
        b, scaled = cpp_path_cells(b)
    if name == "op_summary.csv" and a and not cpp:
        a[0] = a[0].replace(",Block Num,Mix Block Num,", ",Block Dim,Mix Block Dim,")
        # the HWTS chips (1 and 4) have no Mix Block Num
        a[0] = a[0].replace(",Block Num,HF32 Eligible,", ",Block Dim,HF32 Eligible,")
    bad = 0
    if len(a) != len(b):
        say(f"{name}: {len(a) - 1} lines in msprof's, {len(b) - 1} in ours")
        bad += 1
    header = a[0].split(",") if a else []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        xs, ys = x.split(","), y.split(",")
        if len(xs) != len(ys):
            say(f"{name}: line {i + 1}: {len(xs)} cells in msprof's, {len(ys)} in ours")
            bad += 1
            continue
        for k, (u, v) in enumerate(zip(xs, ys)):
            if u != v and not (i and k - len(xs) in scaled and
                               same_scaled(u, v, scaled[k - len(xs)])):
                col = header[k] if k < len(header) else str(k)
                say(f"{name}: line {i + 1}, {col}: msprof {u!r}, ours {v!r}")
                bad += 1
        if bad > 50:
            say(f"{name}: more differences not shown")
            break
    return bad


# columns whose values are times the two paths convert differently: the
# pure-Python path in doubles of epoch us (an error up to a quarter us at
# today's epoch), the C++ path in whole ns (docs/output.md)
TIME_COLUMNS = ("Task Start Time(us)", "Task Wait Time(us)", "task_start(us)",
                "task_stop(us)", "Timestamp(us)")


def loose_cell(col, u, v):
    """Cell u of the pure-Python path and ours (the C++ path's) agree."""
    if u == v or (col == "Device_id" and "host" in (u, v)):
        return True
    # the fallback has no blocks at L0 (no node_basic_info) and no cube
    # utilization where the mac ratio is 0; the C++ path has both
    if u == "0" and col in ("Block Num", "Mix Block Num", "cube_utilization(%)"):
        return True
    try:
        x, y = float(u.strip()), float(v.strip())
    except ValueError:
        return False
    # its total times are rounded to two places before they multiply
    tol = 0.5 if col in TIME_COLUMNS else 0.006 + 1e-6 * max(abs(x), abs(y))
    return abs(x - y) <= tol


def compare_csv_loose(name, ref, ours, say):
    """The pure-Python path's CSV against ours where ours is the C++ path's.

    On the chips CANN runs the C++ path for (CPP_PATH_CHIPS) our export
    prints what that path prints; the fallback differs in number formats,
    in its time conversion and in the columns cpp_path_cells() knows. Cells
    are equal as numbers within loose_cell()'s bounds, Device_id "host"
    stands for the device, and api_statistic's rows are matched by level
    and name: the fallback also counts the calls that ended before the
    collection began, which the C++ path leaves out. communication_statistic's
    op types of equal total time may come in another order.
    """
    a = list(csv.reader(io.StringIO(read(ref))))
    b = list(csv.reader(io.StringIO(read(ours))))
    if not a or not b:
        if len(a) != len(b):
            say(f"{name}: {len(a)} lines in msprof's, {len(b)} in ours")
        return
    ha, hb = a[0], b[0]
    if name == "op_summary.csv":
        keep = [i for i, h in enumerate(hb) if h not in CPP_ONLY_COLUMNS]
        b = [[r[i] for i in keep if i < len(r)] for r in b]
        hb = b[0]
    if ha != hb:
        say(f"{name}: header {ha} (msprof) != {hb} (ours)")
        return
    if name == "api_statistic.csv":
        mine = {(r[1], r[2]): r for r in b[1:] if len(r) > 2}
        for r in a[1:]:
            if (r[1], r[2]) in mine:
                b_row = mine.pop((r[1], r[2]))
                for k, (u, v) in enumerate(zip(r, b_row)):
                    if not loose_cell(ha[k], u, v):
                        say(f"{name}: {r[1]} {r[2]}, {ha[k]}: msprof {u!r}, ours {v!r}")
        for key in mine:
            say(f"{name}: {key[0]} {key[1]}: a row msprof's pure-Python path does not write")
        return
    if len(a) != len(b):
        say(f"{name}: {len(a) - 1} lines in msprof's, {len(b) - 1} in ours")
        return
    if name == "communication_statistic.csv" and "Total Time(us)" in ha:
        # op types of equal total time: the fallback keeps first appearance,
        # the C++ path its unordered_maps' order (docs/output.md)
        t = ha.index("Total Time(us)")
        key = lambda r: (-float(r[t]), r[1]) if len(r) > t else (0, "")
        a, b = a[:1] + sorted(a[1:], key=key), b[:1] + sorted(b[1:], key=key)
    for i, (x, y) in enumerate(zip(a[1:], b[1:]), 2):
        if len(x) != len(y):
            say(f"{name}: line {i}: {len(x)} cells in msprof's, {len(y)} in ours")
            continue
        for k, (u, v) in enumerate(zip(x, y)):
            h = ha[k]
            if loose_cell(h, u, v):
                continue
            # a mix op's context at L0: the C++ path makes no host task for
            # it (no context_id_info), so no name and the device's type
            if name == "task_time.csv" and h in ("kernel_name", "kernel_type") \
                    and y[ha.index("kernel_name")] == "N/A":
                continue
            if h in CPP_SCALED_COLUMNS and same_scaled(u, v, CPP_SCALED_COLUMNS[h]):
                continue
            say(f"{name}: line {i}, {h}: msprof {u!r}, ours {v!r}")


def compare_json(name, ref, ours, say):
    a = json.loads(read(ref))
    b = json.loads(read(ours))
    key = lambda e: json.dumps(e, sort_keys=True)
    ka = sorted(map(key, a))
    kb = sorted(map(key, b))
    bad = 0
    if ka != kb:
        sa, sb = set(ka), set(kb)
        for e in sorted(sa - sb)[:20]:
            say(f"{name}: only in msprof's: {e}")
        for e in sorted(sb - sa)[:20]:
            say(f"{name}: only in ours: {e}")
        if sa == sb:
            say(f"{name}: the same events, in other numbers")
        bad += 1
    na = [key(e) for e in a if e.get("ph") != "M"]
    nb = [key(e) for e in b if e.get("ph") != "M"]
    if not bad and na != nb:
        i = next(i for i, (x, y) in enumerate(zip(na, nb)) if x != y)
        say(f"{name}: events in another order from #{i}: msprof {na[i]}, ours {nb[i]}")
        bad += 1
    return bad


def cpp_events(path):
    """The events of a C++ path timeline: (event, its exact text), in file order."""
    text = read(path)
    if not (text.startswith("[") and text.endswith("]")):
        raise ValueError(f"{path}: not one JSON array")
    dec, i, out = json.JSONDecoder(), 1, []
    while i < len(text) - 1:
        e, j = dec.raw_decode(text, i)
        out.append((e, text[i:j]))
        i = j + (text[j] == ",")
    return out


def cpp_conn_ranked(events):
    """Connection ids by rank: the C++ path's event counter is shared by threads
    that run in no fixed order, so its ids may start anywhere (docs/output.md)."""
    ids = set()
    for _, t in events:
        ids.update(int(m) for m in re.findall(r'"connection_id":(\d+)', t))
        ids.update(int(m) >> 32 for m in re.findall(r'HostToDevice(\d+)', t))
    ids.discard(2 ** 64 - 1)
    rank = {v: i + 1 for i, v in enumerate(sorted(ids))}
    out = []
    for e, t in events:
        t = re.sub(r'"connection_id":(\d+)',
                   lambda m: f'"connection_id":{rank.get(int(m.group(1)), int(m.group(1)))}', t)
        if '"cat":"HostToDevice"' in t:
            t = re.sub(r'(HostToDevice|"id":")(\d+)', lambda m: m.group(1) + str(
                rank.get(int(m.group(2)) >> 32, int(m.group(2)) >> 32) << 32), t)
        out.append((e, t))
    return out


def compare_cpp_json(name, ref, ours, say):
    """The C++ path's timeline: per process, the same event texts in the same order.

    Its layers are chunks that a thread pool appends in no fixed order, so
    processes are compared one by one; inside one, byte for byte.
    """
    try:
        a, b = cpp_conn_ranked(cpp_events(ref)), cpp_conn_ranked(cpp_events(ours))
    except ValueError as e:
        say(f"{name}: {e}")
        return
    pa, pb = {}, {}
    for e, t in a:
        pa.setdefault(e.get("pid"), []).append(t)
    for e, t in b:
        pb.setdefault(e.get("pid"), []).append(t)
    for pid in sorted(set(pa) | set(pb), key=str):
        x, y = pa.get(pid, []), pb.get(pid, [])
        if x == y:
            continue
        i = next((i for i, (u, v) in enumerate(zip(x, y)) if u != v), min(len(x), len(y)))
        say(f"{name}: pid {pid}: {len(x)} events (C++ path), {len(y)} (ours); from #{i}:"
            f" C++ {x[i] if i < len(x) else None}, ours {y[i] if i < len(y) else None}")


def compare_json_loose(name, ref, ours, say):
    """The pure-Python path's timeline against our C++ path's: the device tasks' bars.

    Where our export writes the C++ path's timeline the two differ in their
    flows, connection ids, counters, overlap and times' last digits
    (docs/output.md); each Ascend Hardware bar must still be there, by name
    and task, with a duration within a nanosecond.
    """
    def bars(path):
        out = {}
        for e in json.loads(read(path)):
            if e.get("ph") == "X" and "Task Id" in e.get("args", {}):
                a = e["args"]
                out[(a["Task Id"], a["Batch Id"], a["Subtask Id"])] = (e["name"], e["dur"])
        return out
    a, b = bars(ref), bars(ours)
    for k in sorted(set(a) ^ set(b), key=str)[:20]:
        say(f"{name}: device task {k} only in {'msprof' if k in a else 'ours'}")
    for k in sorted(set(a) & set(b), key=str):
        (na, da), (nb, db) = a[k], b[k]
        # a mix op's context without node records: the C++ path names it by
        # its subtask type, the pure-Python path by its host task's type
        if na != nb and k[2] == 4294967295:
            say(f"{name}: device task {k}: {na!r} (msprof), {nb!r} (ours)")
        if abs(da - db) > 1e-3:
            say(f"{name}: device task {k}: dur {da} (msprof), {db} (ours)")


def same_value(a, b, where, say):
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            say(f"{where}: keys {list(a)[:6]} (msprof) != {list(b)[:6]} (ours)")
            return False
        return all(same_value(a[k], b[k], f"{where}/{k}", say) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            say(f"{where}: {len(a)} items (msprof) != {len(b)} (ours)")
            return False
        return all(same_value(x, y, f"{where}[{i}]", say) for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        if abs(a - b) <= 1e-9 * max(abs(a), abs(b)):
            return True
    elif a == b:
        return True
    say(f"{where}: {a!r} (msprof) != {b!r} (ours)")
    return False


def compare_analyze(ref, ours, say):
    for f in ("communication.json", "communication_matrix.json"):
        a, b = os.path.join(ref, "analyze", f), os.path.join(ours, "analyze", f)
        if not os.path.exists(a) and not os.path.exists(b):
            continue
        if not os.path.exists(a):
            say(f"analyze/{f}: msprof writes no such file")
        elif not os.path.exists(b):
            say(f"analyze/{f}: we write no such file")
        else:
            same_value(json.loads(read(a)), json.loads(read(b)), f"analyze/{f}", say)


def raw_copy(prof, dest):
    os.makedirs(dest)
    for d in os.listdir(prof):
        if d == "host" or re.fullmatch(r"device_\d+", d):
            shutil.copytree(os.path.join(prof, d), os.path.join(dest, d),
                            ignore=shutil.ignore_patterns("sqlite", "*.complete"))


def run_cpp(cpp, prof, say, known=()):
    """msprof's C++ path on prof (a copy): True when it read it whole.

    An ERROR line of @known (msprof's own defects on the chip, KNOWN_ERRORS)
    is printed as such, not counted.
    """
    def error(line):
        if any(k in line for k in known):
            print(f"#   msprof C++ path (its known defect on this chip): {line}")
        else:
            say(line)
    env = dict(os.environ)
    libs = os.environ.get("MSPROF_CPP_LIBS")
    if libs:
        env["LD_LIBRARY_PATH"] = libs + (":" + env["LD_LIBRARY_PATH"]
                                         if env.get("LD_LIBRARY_PATH") else "")
    msprof = os.path.join(cpp, "msprof", "msprof.py")
    for cmd in (["export", "summary"], ["export", "timeline"], ["export", "db"]):
        r = subprocess.run([sys.executable, msprof] + cmd + ["-dir", prof], env=env,
                           capture_output=True, text=True)
        for line in (r.stdout + r.stderr).splitlines():
            if "[ERROR]" in line:
                error(f"msprof C++ path, {' '.join(cmd)}: {line.strip()}")
    logs = os.path.join(prof, "mindstudio_profiler_log")
    for f in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
        for line in open(os.path.join(logs, f), errors="replace"):
            if "[ERROR]" in line:
                error(f"msprof C++ path: {line.strip()}")
    if not any(re.fullmatch(r"msprof_\d+\.db", f) for f in os.listdir(prof)):
        say("msprof C++ path: export db wrote no msprof_*.db")


def verdict(label, diffs):
    """Print a test's differences (the first 40) and its ok/not ok line; 1 if it failed."""
    for d in diffs[:40]:
        print(f"#   {d}")
    if len(diffs) > 40:
        print(f"#   ... {len(diffs) - 40} more")
    print(f"{'not ok' if diffs else 'ok'} {label}")
    return 1 if diffs else 0


def main():
    args = sys.argv[1:]
    cpp = None
    if len(args) > 1 and args[0] == "--cpp":
        cpp, args = args[1], args[2:]
        if not os.path.isfile(os.path.join(cpp, "lib64", "msprof_analysis.so")):
            print(f"check-msprof: {cpp}: no lib64/msprof_analysis.so (msprof's C++ path)",
                  file=sys.stderr)
            return 2
    if len(args) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    analysis, npuprof, profs = args[0], args[1], args[2:]
    msprof = os.path.join(analysis, "msprof", "msprof.py")
    if not os.path.isfile(msprof):
        print(f"check-msprof: {msprof}: not msprof's analysis/ folder", file=sys.stderr)
        return 2
    passed = failed = 0
    scratch = tempfile.mkdtemp(prefix="check-msprof-")
    try:
        for i, prof in enumerate(profs):
            base = os.path.basename(os.path.normpath(prof))
            print(f"# {prof}")
            # the folder's own name: msprof checks it; an index keeps copies apart
            ref = os.path.join(scratch, "msprof", str(i), base)
            ours = os.path.join(scratch, "ours", str(i), base)
            raw_copy(prof, ref)
            raw_copy(prof, ours)
            for cmd in (["export", "summary"], ["export", "timeline"],
                        ["analyze", "--rule", "communication,communication_matrix"]):
                subprocess.run([sys.executable, msprof] + cmd + ["-dir", ref],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            r = subprocess.run([npuprof, "export", "--quiet", ours], capture_output=True, text=True)
            if r.returncode:
                print(f"#   npuprof export failed: {r.stderr.strip()}")
            errors = []
            logs = os.path.join(ref, "mindstudio_profiler_log")
            for f in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
                errors += [line.strip() for line in open(os.path.join(logs, f), errors="replace")
                           if "[ERROR]" in line]
            known = KNOWN_ERRORS.get(chip_of(prof), ())
            for e in [e for e in errors if any(k in e for k in known)]:
                print(f"#   msprof (its known defect on this chip): {e}")
            errors = [e for e in errors if not any(k in e for k in known)]
            for e in errors:
                print(f"#   msprof: {e}")
            if errors:
                failed += 1
            else:
                passed += 1
            fa = out_files(os.path.join(ref, "mindstudio_profiler_output"))
            fb = out_files(os.path.join(ours, "mindstudio_profiler_output"))
            for name in sorted(set(fa) | set(fb)):
                if name == "README.txt":
                    continue  # ours is our own (docs/output.md)
                diffs = []
                say = lambda m: diffs.append(m)
                if name not in fa:
                    say(f"{name}: msprof writes no such file")
                elif name not in fb:
                    say(f"{name}: we write no such file")
                elif name.endswith(".csv") and cpp_formats(prof):
                    compare_csv_loose(name, fa[name], fb[name], say)
                elif name.endswith(".json") and cpp_timeline(prof):
                    compare_json_loose(name, fa[name], fb[name], say)
                elif name.endswith(".csv"):
                    compare_csv(name, fa[name], fb[name], say, chip_of(prof))
                elif name.endswith(".json"):
                    compare_json(name, fa[name], fb[name], say)
                bad = verdict(f"{base} {name}", diffs)
                failed += bad
                passed += 1 - bad
            # msprof's reference samples predate the C++ path's keys: only
            # folders we wrote (our loss report is in them) must pass it
            ours_wrote = os.path.isfile(os.path.join(prof, "host", "vnpu_loss.json"))
            if cpp and not ours_wrote:
                print("#   note: not a folder of ours: msprof's C++ path is not run on it")
            if cpp and ours_wrote:
                cpp_copy = os.path.join(scratch, "cpp", str(i), base)
                raw_copy(prof, cpp_copy)
                diffs = []
                run_cpp(cpp, cpp_copy, diffs.append, KNOWN_ERRORS.get(chip_of(prof), ()))
                fc = out_files(os.path.join(cpp_copy, "mindstudio_profiler_output"))
                for name in sorted(n for n in fb if n.endswith(".csv") and n not in fc):
                    diffs.append(f"msprof C++ path: writes no {name}")
                bad = verdict(f"{base} read by the C++ path", diffs)
                failed += bad
                passed += 1 - bad
                # where CANN runs it, our CSVs are the C++ path's, digit for digit
                if chip_of(prof) in CPP_PATH_CHIPS:
                    for name in sorted(n for n in fc if n.endswith(".csv") or n in fb):
                        if not name.endswith(".csv"):
                            continue
                        diffs = []
                        if name not in fb:
                            diffs.append(f"{name}: we write no such file")
                        elif name not in fc:
                            diffs.append(f"{name}: msprof's C++ path writes no such file")
                        else:
                            compare_csv(name, fc[name], fb[name], diffs.append, cpp=True)
                        bad = verdict(f"{base} {name} (C++ path)", diffs)
                        failed += bad
                        passed += 1 - bad
                    if cpp_timeline(prof) or "msprof.json" in fc:
                        diffs = []
                        if "msprof.json" not in fc:
                            diffs.append("msprof.json: msprof's C++ path writes no such file")
                        elif "msprof.json" not in fb:
                            diffs.append("msprof.json: we write no such file")
                        elif not cpp_timeline(prof):
                            print("#   note: C++ path: msprof.json not compared: an Atlas 350's"
                                  " device files are read by neither path (issue 36)")
                        else:
                            compare_cpp_json("msprof.json", fc["msprof.json"], fb["msprof.json"],
                                             diffs.append)
                        if cpp_timeline(prof) or diffs:
                            bad = verdict(f"{base} msprof.json (C++ path)", diffs)
                            failed += bad
                            passed += 1 - bad
            diffs = []
            compare_analyze(ref, ours, diffs.append)
            bad = verdict(f"{base} analyze/", diffs)
            failed += bad
            passed += 1 - bad
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
