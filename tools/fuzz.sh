#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The libFuzzer harnesses of tests/fuzz/ (issue 40; docs/testing.md).
#
# Usage: tools/fuzz.sh [SECONDS] [HARNESS...]   make fuzz FUZZ_S=N
#          each harness for SECONDS (default 60), one after another, from
#          the regression corpus, the seeds and what earlier runs found
#          (build/fuzz/corpus/); a crash, a hang over -timeout or more
#          than -rss_limit_mb is kept in build/fuzz/artifacts/ and fails
#        tools/fuzz.sh --replay [HARNESS...]
#          every input of the regression corpus (tests/fuzz/corpus/) and
#          every seed run once (make check)
# HARNESS: config host_raw device_raw folder (default: all). Exit 1 if any
# failed. The seeds are written afresh from the shared samples, the golden
# folders of the chips they do not cover (the 910's HWTS records, the Atlas
# 350's v6 ones: tests/golden/), and, when there, the demo's (out/PROF_*).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
fz="$top/build/fuzz"
mode=run
secs=60
case "${1:-}" in
--replay) mode=replay; shift ;;
[0-9]*) secs=$1; shift ;;
esac
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(config host_raw device_raw folder)

export VNPU_REFERENCE=${VNPU_REFERENCE:-$top/../shared/reference}
# every report is fatal; leaks count (libFuzzer checks them per input)
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# limits: a hang is an input that takes over 10 s; 512 MB is far above
# what an input of a few KB may make the export take
limits=(-timeout=10 -rss_limit_mb=512)

failed=0
for h in "${harnesses[@]}"; do
	bin="$fz/fuzz_$h"
	[ -x "$bin" ] || { echo "fuzz: no $bin (make fuzz-build)" >&2; exit 2; }
	seeds="$fz/seeds/$h"
	rm -rf "$seeds" && mkdir -p "$seeds" "$fz/corpus/$h" "$fz/artifacts" "$top/tests/fuzz/corpus/$h"
	VNPU_FUZZ_SEED_FROM="$(ls -d "$top"/tests/golden/p910-*/PROF_* "$top"/tests/golden/p350-*/PROF_* \
		2>/dev/null | tr '\n' ' ')$(find "$top/out" -maxdepth 1 -name 'PROF_*' -type d 2>/dev/null |
		tr '\n' ' ')" \
		VNPU_FUZZ_SEEDS="$seeds" "$bin" >/dev/null 2>&1 ||
		{ echo "fuzz: $h: cannot write its seeds" >&2; exit 2; }
	log="$fz/$h.log"
	start=$(date +%s)
	if [ $mode = replay ]; then
		mapfile -t inputs < <(find "$top/tests/fuzz/corpus/$h" "$seeds" -type f | sort)
		nice -n 10 "$bin" "${limits[@]}" "${inputs[@]}" >"$log" 2>&1
		rc=$?
		what="${#inputs[@]} inputs replayed"
	else
		nice -n 10 "$bin" "${limits[@]}" -max_total_time="$secs" -print_final_stats=1 \
			-artifact_prefix="$fz/artifacts/$h-" \
			"$fz/corpus/$h" "$top/tests/fuzz/corpus/$h" "$seeds" >"$log" 2>&1
		rc=$?
		what="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log") runs, corpus $(find "$fz/corpus/$h" -type f | wc -l)"
	fi
	if [ $rc -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log"; then
		echo "# fuzz $h FAILED ($what, $(($(date +%s) - start)) s, exit $rc); from $log:"
		grep -E -m20 'ERROR:|runtime error:|SUMMARY|Test unit written|^    #[0-9]' "$log"
		failed=1
	else
		echo "# fuzz $h: $what, $(($(date +%s) - start)) s, no crash, hang or OOM"
	fi
done
exit $failed
