#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Atlas 350's own records (chip 15, v6: uapi/vnpu_ascend.h) when the
# folder is not what the device and the host wrote (issue 36): the export
# says what it could not join, keeps what it could, and never fails on a
# bad record. Each case is a copy of tests/golden/p350-l1_default with one
# thing changed, exported by this build's npuprof.
#
# Installed as build/tests/host/test_v6_input; prints TAP and a kselftest
# Totals line, as the C suites do.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
[ -d "$top/tests/golden" ] || top=$(cd "$(dirname "$0")/../.." && pwd)
src=$(ls -d "$top"/tests/golden/p350-l1_default/PROF_* | head -n1)
npuprof="$top/build/tools/npuprof/npuprof"
d=$(mktemp -d)
prof=PROF_000001_20260101000000000_V6INPUT00000000
trap 'rm -rf "$d"' EXIT
n=0 pass=0 fail=0

# the copy of the golden folder at $d/$prof, its outputs gone
fresh() {
	rm -rf "$d/$prof" && cp -a "$src" "$d/$prof" && rm -rf "$d/$prof/mindstudio_profiler_output"
}

# export $d/$prof; stderr in $d/err, the op_summary's rows but its header in $d/rows
run() {
	"$npuprof" export -t 20260101000000 "$d/$prof" >/dev/null 2>"$d/err"
	local rc=$?
	tail -n +2 "$d/$prof"/mindstudio_profiler_output/op_summary_*.csv >"$d/rows" 2>/dev/null
	return $rc
}

# one case: $1 its name; the rest a command that returns 0 when it holds
check() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		pass=$((pass + 1))
		echo "ok $n $name"
	else
		fail=$((fail + 1))
		sed 's/^/# /' "$d/err" 2>/dev/null
		echo "not ok $n $name"
	fi
}

soc=device_0/data/stars_soc.data.0.slice_0
pmu=device_0/data/ffts_profile.data.0.slice_0
track=host/data/unaging.compact.task_track.slice_0

echo "TAP version 13"
echo "1..6"

# as the device wrote it: every row with its host task's stream, no warning
fresh
check "as written: 4 rows, each on stream 0" \
	eval 'run && [ "$(wc -l <"$d/rows")" = 4 ] && [ "$(cut -d, -f4 "$d/rows" | sort -u)" = 0 ] && ! grep -q warning "$d/err"'

# no task_track: the records have no stream (msprof: 65535), said
fresh
rm -f "$d/$prof/$track"
check "no task_track: stream 65535, and said" \
	eval 'run; grep -q "no host task_track record has: their stream is 65535" "$d/err"'

# a torn last log: msprof frames the file from its end (the first bytes
# are the odd ones), so every record is read off by 16 bytes: said, no row
fresh
truncate -s -16 "$d/$prof/$soc"
check "a torn ACSQ log: framed as msprof frames it, and said" \
	eval 'run && [ ! -s "$d/rows" ] && grep -q "not whole 32-byte records" "$d/err"'

# a log's magic broken: that task's pair does not form, the others do
fresh
printf '\x00\x00' | dd of="$d/$prof/$soc" bs=1 seek=2 conv=notrunc status=none
check "a bad magic: skipped and said, 3 rows" \
	eval 'run && [ "$(wc -l <"$d/rows")" = 3 ] && grep -q "magic" "$d/err"'

# a PMU record of another function type: skipped and said, its row N/A
fresh
printf '\x3f' | dd of="$d/$prof/$pmu" bs=1 seek=0 conv=notrunc status=none
check "a PMU record of another type: skipped and said" \
	eval 'run && [ "$(wc -l <"$d/rows")" = 4 ] && grep -q "not a v6 PMU record" "$d/err"'

# two host records of one id: the first one's stream, and msprof's word for it
fresh
f="$d/$prof/$track"
head -c 64 "$f" >"$d/one" && cat "$d/one" >>"$f"
check "a repeated task id on the host: said" \
	eval 'run; grep -q "repeat a task id of the device" "$d/err"'

echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail -eq 0 ]
