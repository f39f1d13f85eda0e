#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: a small transformer block (examples/transformer.c) on two
# virtual NPUs with an AllReduce per layer, run in the dev VM under global
# profiling at L2. The PROF_* folder comes back to ./out/, and the top ops
# by total time are printed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
res="$top/build/vm/results/demo"
layers=${DEMO_LAYERS:-4}
rm -rf "$res"
mkdir -p "$res"

echo "demo: running examples/transformer ($layers layers, 2 devices) under the profiler (L2) in the dev VM"
tools/vm/run --quiet --results "$res" --params "devices=2" -- bash -c '
	set -e
	mkdir -p /vnpu-results/prof
	PROFILING_MODE=true \
	PROFILING_OPTIONS="{\"output\":\"/vnpu-results/prof\",\"level\":\"L2\",\"aic_metrics\":\"PipeUtilization\"}" \
		'"$top"'/build/examples/transformer '"$layers"' 2
' || {
	cat "$res/output"
	echo "demo: FAILED (logs in $res)" >&2
	exit 1
}
cat "$res/output"

prof=$(ls -d "$res"/prof/PROF_* 2>/dev/null | head -n1)
[ -n "$prof" ] || { echo "demo: no PROF_* folder was written" >&2; exit 1; }
mkdir -p "$top/out"
rm -rf "$top/out/$(basename "$prof")"
cp -r "$prof" "$top/out/"
out="$top/out/$(basename "$prof")"
echo
echo "demo: profile written to $out"
ls "$out/mindstudio_profiler_output" | sed 's/^/demo:   /'

stat=$(ls "$out"/mindstudio_profiler_output/op_statistic_*.csv 2>/dev/null | head -n1)
if [ -n "$stat" ]; then
	echo
	echo "demo: top ops by total time (from $(basename "$stat")):"
	# Device_id,OP Type,Core Type,Count,Total Time(us),Min,Avg,Max,Ratio(%)
	{
		printf '%-8s %-12s %-16s %8s %16s %10s\n' Device "OP Type" "Core Type" Count \
			"Total Time(us)" "Ratio(%)"
		tail -n +2 "$stat" | sort -t, -k5,5 -g -r | head -n 10 |
			awk -F, '{ printf "%-8s %-12s %-16s %8s %16s %10s\n", $1, $2, $3, $4, $5, $9 }'
	}
fi
