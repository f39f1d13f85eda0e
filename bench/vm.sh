#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/vm.sh [--smoke]: the in-VM benchmarks, in one boot (run by
# bench/run.sh through tools/vm/run with devices=16). Each prints ROW|...
# lines for the table; the first failure ends the run with its status.
set -e
top=${VNPU_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
b=$top/build/bench
# /dev/shm: half the guest memory (run.sh boots with 2 GiB); 16 devices'
# PROF folders outgrow the root overlay's 256 MiB
out=/dev/shm/vnpu-bench
rm -rf "$out" && mkdir -p "$out"

if [ "${1:-}" = --smoke ]; then
	"$b/ring_bench" -n 2000 -r 1
	"$b/ring_transport" -n 20000 -r 1
	"$b/overhead" -n 1000 -r 1 -o "$out"
	"$b/scale" -t 0.3 -r 1 -o "$out"
else
	"$b/ring_bench" -n 40000 -r 5 -P 2
	"$b/ring_transport" -n 2000000 -r 5
	"$b/overhead" -n 25000 -r 8 -o "$out"
	"$b/scale" -t 1 -r 2 -o "$out"
fi
rm -rf "$out"
