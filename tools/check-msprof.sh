#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-msprof MSPROF_ANALYSIS=<analysis/ of Ascend/msprof at 9ba1ac7be>
#
# Runs msprof's own parser on copies of PROF folders in the real Ascend
# layout and compares what it writes with our export, file by file and cell
# by cell (tools/msprof-compare.py). The folders: a copy of the reference
# samples (../shared/reference/msprof-sample and msprof-sample-hccl), every real-layout PROF_* folder
# under build/vm/results/ (the in-VM suites, and each product's last make
# demo: DEMO_PRODUCT=a3 or 350 for the others), out/ when it is not one of
# those, and those given in MSPROF_PROFS. Opt-in: msprof is an oracle, never a dependency, and
# a fresh machine has no copy of it (DEVELOPERS.md says where it comes from).
# MSPROF_CPP_ANALYSIS (a second analysis/ tree with lib64/msprof_analysis.so)
# adds msprof's C++ path, MSPROF_CPP_LIBS the folder of the libraries it
# needs (libc_sec.so): every folder must be read by it, export db included.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

if [ -z "${MSPROF_ANALYSIS:-}" ]; then
	echo "check-msprof: skipped: MSPROF_ANALYSIS is not set (the analysis/ folder of"
	echo "check-msprof: Ascend/msprof at 9ba1ac7be; DEVELOPERS.md says where it comes from)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
if [ ! -f "$MSPROF_ANALYSIS/msprof/msprof.py" ]; then
	echo "check-msprof: MSPROF_ANALYSIS=$MSPROF_ANALYSIS has no msprof/msprof.py" >&2
	exit 2
fi

profs=()
for s in msprof-sample msprof-sample-hccl; do
	sample=$(ls -d "$top/../shared/reference/$s"/PROF_* 2>/dev/null | head -n1)
	[ -n "$sample" ] && profs+=("$sample")
done
# out/ holds a copy of the last demo's folders, which build/vm/results/
# keeps (one demo per product): compare each once
demos=("$top"/build/vm/results/demo*/prof/PROF_*)
for p in "$top"/out/PROF_* "${demos[@]}" "$top"/build/vm/results/*/PROF_* \
	"$top"/build/vm/results/*/layout/*/PROF_* ${MSPROF_PROFS:-}; do
	[ -f "$p/host/info.json" ] || continue
	case "$p" in
	"$top"/out/*) ls -d "$top"/build/vm/results/demo*/prof/"${p##*/}" >/dev/null 2>&1 &&
		continue ;;
	esac
	profs+=("$p")
done
if [ ${#profs[@]} -eq 0 ]; then
	echo "check-msprof: no PROF folder in the real layout to compare"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
# msprof's C++ path (analysis/lib64/msprof_analysis.so), also opt-in
cpp=()
if [ -n "${MSPROF_CPP_ANALYSIS:-}" ]; then
	cpp=(--cpp "$MSPROF_CPP_ANALYSIS")
else
	echo "check-msprof: note: MSPROF_CPP_ANALYSIS is not set: msprof's C++ path is not run"
	echo "check-msprof: (../shared/reference/msprof-cpp/README.md says how to get it)"
fi
exec /usr/bin/python3 "$top/tools/msprof-compare.py" "${cpp[@]}" "$MSPROF_ANALYSIS" \
	"$top/build/tools/npuprof/npuprof" "${profs[@]}"
