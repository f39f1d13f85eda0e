#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of make check and make stress: one line per suite or gate from a
# summary file ("NAME PASS FAIL SKIP" lines, tests/run-suites.sh), then
# exactly one line "N passed, N failed" (", N skipped" when any). Exits 1
# if anything failed.
#
# Usage: tools/summary.sh SUMMARY_FILE
set -u
summary=$1
awk '{ printf "# %-28s pass %4d  fail %4d  skip %4d\n", $1, $2, $3, $4 }' "$summary"
read -r pass fail skip < <(awk '{ p += $2; f += $3; s += $4 } END { print p + 0, f + 0, s + 0 }' "$summary")
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
