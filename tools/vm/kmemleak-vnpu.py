#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the kmemleak reports that belong to the vnpu module.

Usage: kmemleak-vnpu.py KMEMLEAK_FILE START SIZE

After rmmod the module's frames in a backtrace are bare addresses, so a
report is the module's when a frame names vnpu or lies in the module's
text as /proc/modules gave it before the unload (START, SIZE).
"""
import re
import sys


def main():
    text = open(sys.argv[1], errors="replace").read()
    start = int(sys.argv[2], 16)
    end = start + int(sys.argv[3])
    for report in re.split(r"(?=^unreferenced object )", text, flags=re.M):
        if not report.startswith("unreferenced object"):
            continue
        frames = re.findall(r"\] (0x[0-9a-f]+|\S+)", report)
        ours = any("vnpu" in f for f in frames) or any(
            f.startswith("0x") and start <= int(f, 16) < end for f in frames)
        if ours:
            sys.stdout.write(report)


if __name__ == "__main__":
    main()
