#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The export's outputs, byte for byte, against a reference (issue 39: code
# moves change no output). tests/golden/CASE/PROF_*/ are raw folders the
# dev VM wrote (test_products' layout folders: chips 1, 4, 5 with FFTS+ mix
# ops, 5 as an A3 at L2, 7, and 15 in its v6 records), each with the
# mindstudio_profiler_output/ that npuprof export wrote from it (at c571540,
# before libnpuprof moved into its subsystem folders; chip 15's when it
# got its own records, checked against both msprof oracles). Each is
# copied, its outputs removed, exported again by this build's npuprof with
# the same --timestamp, and compared file by file.
#
# After a change that is meant to change the outputs, and is shown right
# by the msprof oracles (docs/testing.md), write the references anew:
#   tests/host/test_golden.sh --update build/tools/npuprof/npuprof
#
# Installed as build/tests/host/test_golden; prints TAP and a kselftest
# Totals line, as the C suites do.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
[ -d "$top/tests/golden" ] || top=$(cd "$(dirname "$0")/../.." && pwd)
golden="$top/tests/golden"
ts=20260101000000

# $1's outputs removed, then exported by $2 with the fixed timestamp
export_anew() {
	rm -rf "$1/mindstudio_profiler_output" && "$2" export -q -t "$ts" "$1" >/dev/null
}

if [ "${1:-}" = --update ]; then
	[ -x "${2:-}" ] || { echo "usage: $0 --update NPUPROF" >&2; exit 2; }
	for p in "$golden"/*/PROF_*; do
		export_anew "$p" "$2" || { echo "test_golden: $p: export failed" >&2; exit 1; }
	done
	exit 0
fi

npuprof="$top/build/tools/npuprof/npuprof"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mapfile -t cases < <(cd "$golden" && ls -d */PROF_* | sort)
echo "TAP version 13"
echo "1..${#cases[@]}"
n=0 pass=0 fail=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	rm -rf "$d/case" && mkdir -p "$d/case" && cp -a "$golden/$c" "$d/case/"
	p="$d/case/${c##*/}"
	if export_anew "$p" "$npuprof" 2>"$d/err" &&
		diff -r "$golden/$c" "$p" >"$d/diff" 2>&1; then
		pass=$((pass + 1))
		echo "ok $n ${c%%/*}: $(find "$p/mindstudio_profiler_output" -type f | wc -l) output files as the reference's"
	else
		fail=$((fail + 1))
		sed 's/^/# /' "$d/err"
		head -30 "$d/diff" | sed 's/^/# /'
		echo "not ok $n ${c%%/*}: the export differs from the reference"
	fi
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail -eq 0 ]
