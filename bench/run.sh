#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/run.sh [--smoke]: make bench (and make bench-smoke). Runs the export
# benchmark on the host, then the ring, overhead and scale benchmarks in one
# dev VM boot (vnpu.ko with devices=16), and prints one table of every ROW
# the benchmarks printed (docs/performance.md explains each). --smoke runs
# each benchmark for a second or two and only checks that it completes.
# The full logs: build/bench/host.log, build/bench/vm/<run>/output; the
# table: build/bench/results.md. Exits non-zero if a benchmark fails (a
# missed target is a row that says MISSED, not a failure).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
smoke=0
[ "${1:-}" = --smoke ] && smoke=1
out=build/bench
name=$([ $smoke = 1 ] && echo smoke || echo full)
host_log=$out/host-$name.log
vm_dir=$out/vm/$name
table=$out/results-$name.md
rc=0

echo "bench: export (host)..." >&2
if [ $smoke = 1 ]; then
	args=(-n 20000,50000 -r 1)
else
	args=(-n 1000000,10000000 -r 3)
fi
# msprof's parser, the export's peer, only when MSPROF_ANALYSIS names a copy
# of it (opt-in, as make check-msprof); the row says "skipped" otherwise
if [ -n "${MSPROF_ANALYSIS:-}" ]; then
	args+=(-M "$MSPROF_ANALYSIS" -m $([ $smoke = 1 ] && echo 2000 || echo 100000))
fi
"$out/export_speed" "${args[@]}" -d "${BENCH_TMP:-/tmp}" \
	>"$host_log" 2>&1 || { cat "$host_log" >&2; echo "bench: export_speed failed" >&2; rc=1; }

echo "bench: ring, overhead, scale (dev VM, devices=16, 2 vCPUs)..." >&2
mkdir -p "$vm_dir"
# two vCPUs: a device's producer and its reader on CPUs of their own, as on
# a real host (one vCPU makes every wakeup a context switch in the middle of
# the producer's time)
tools/vm/run -s 2 -M 2048 -p devices=16 -t 900 -q -r "$vm_dir" -- bench/vm.sh \
	$([ $smoke = 1 ] && echo --smoke) || { cat "$vm_dir/output" >&2; echo "bench: the VM part failed" >&2; rc=1; }

{
	echo "| Benchmark | Metric | vnpu | Baseline | Ratio | Target | |"
	echo "|---|---|---|---|---|---|---|"
	# smoke runs are too short to judge a target: no verdicts
	cat "$vm_dir/output" "$host_log" 2>/dev/null | grep '^ROW|' |
		awk -F'|' -v smoke=$smoke '{
			if (smoke && $8 != "-") $8 = "(smoke)"
			s = "|"; for (i = 2; i <= NF; i++) s = s " " $i " |"; print s }'
} >"$table"
cat "$table"
for b in "ring end-to-end" "ring transport" overhead scale export; do
	if ! grep -q "^| $b" "$table"; then
		echo "bench: no result from the $b benchmark" >&2
		rc=1
	fi
done
[ $rc = 0 ] && echo "bench: table in $table; logs in $host_log and $vm_dir/output" >&2
exit $rc
