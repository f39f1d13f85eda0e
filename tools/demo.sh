#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: a small transformer block (examples/transformer.c) as a
# distributed job, one process per rank (DEMO_RANKS, default 2) on its own
# virtual NPU, with a tensor-parallel AllReduce per layer, run in the dev
# VM by `npuprof run --ranks N` at L2. Each rank writes its own PROF_*
# folder (with its rank_id); they come back to ./out/ (replacing the last
# demo's), and the top ops of rank 0 by total time are printed, with the
# command that analyses the cluster. DEMO_PRODUCT picks the product (the
# module's product= key of a training product with AI Vector Cores: a2 by
# default, a3 or 350), so that make check-msprof can compare each one's
# demo folders.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
layers=${DEMO_LAYERS:-4}
ranks=${DEMO_RANKS:-2}
product=${DEMO_PRODUCT:-a2}
# each product's last demo stays, for make check-msprof (out/ has the last one)
res="$top/build/vm/results/demo"
[ "$product" = a2 ] || res="$res-$product"
case "$ranks" in
[2-9] | 1[0-6]) ;;
*) echo "demo: DEMO_RANKS must be 2..16, not '$ranks'" >&2; exit 2 ;;
esac
case "$product" in
a2 | a3 | 350) ;;
*) echo "demo: DEMO_PRODUCT must be a2, a3 or 350, not '$product'" >&2; exit 2 ;;
esac
rm -rf "$res"
mkdir -p "$res"

echo "demo: running examples/transformer ($layers layers) on $ranks ranks of product $product," \
	"one process each, under npuprof run (L2) in the dev VM"
tools/vm/run --quiet --results "$res" --params "devices=$ranks product=$product" -- bash -c '
	set -e
	mkdir -p /vnpu-results/prof
	'"$top"'/build/tools/npuprof/npuprof run --ranks '"$ranks"' --level L2 \
		--aic-metrics PipeUtilization --output /vnpu-results/prof -- \
		'"$top"'/build/examples/transformer '"$layers"'
' || {
	cat "$res/output"
	echo "demo: FAILED (logs in $res)" >&2
	exit 1
}
cat "$res/output"

mapfile -t profs < <(ls -d "$res"/prof/PROF_* 2>/dev/null)
[ "${#profs[@]}" -eq "$ranks" ] ||
	{ echo "demo: ${#profs[@]} PROF_* folder(s) written, not $ranks" >&2; exit 1; }
mkdir -p "$top/out"
rm -rf "$top"/out/PROF_*
cp -r "${profs[@]}" "$top/out/"
echo
rank0=
for p in "${profs[@]}"; do
	out="$top/out/$(basename "$p")"
	rank=$(sed -n 's/.*"rank_id": *\(-\?[0-9]*\).*/\1/p' "$out/host/info.json" 2>/dev/null || true)
	echo "demo: rank ${rank:-?}: $out"
	[ "$rank" = 0 ] && rank0=$out
done
out=${rank0:-$top/out/$(basename "${profs[0]}")}
echo "demo: rank 0's outputs:"
ls "$out/mindstudio_profiler_output" | sed 's/^/demo:   /'

stat=$(ls "$out"/mindstudio_profiler_output/op_statistic_*.csv 2>/dev/null | head -n1)
if [ -n "$stat" ]; then
	echo
	echo "demo: rank 0's top ops by total time (from $(basename "$stat")):"
	# Device_id,OP Type,Core Type,Count,Total Time(us),Min,Avg,Max,Ratio(%)
	{
		printf '%-8s %-14s %-16s %8s %16s %10s\n' Device "OP Type" "Core Type" Count \
			"Total Time(us)" "Ratio(%)"
		tail -n +2 "$stat" | sort -t, -k5,5 -g -r | head -n 10 |
			awk -F, '{ printf "%-8s %-14s %-16s %8s %16s %10s\n", $1, $2, $3, $4, $5, $9 }'
	}
fi
echo
echo "demo: to analyse the cluster with Ascend's suite (msprof-analyze):"
echo "demo:   msprof-analyze cluster -d $top/out/ -m all"
