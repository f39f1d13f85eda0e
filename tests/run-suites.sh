#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kselftest-harness suites one after another, print their TAP, and
# append one line per suite to a summary file: "NAME PASS FAIL SKIP".
# A suite that dies before its Totals line counts as one failure, so a
# crash can never pass silently.
#
# Usage: tests/run-suites.sh SUMMARY_FILE SUITE...
set -u
summary=$1
shift
for suite in "$@"; do
	name=$(basename "$suite")
	log=$(mktemp)
	echo "# suite: $name"
	"$suite" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	tot=$(grep -E '^# Totals: ' "$log" | tail -n1)
	if [ -z "$tot" ]; then
		echo "# suite $name exited $rc without a Totals line: counted as failed"
		echo "$name 0 1 0" >>"$summary"
	else
		# "# Totals: pass:P fail:F xfail:XF xpass:XP skip:S error:E"
		read -r p f xf xp s e < <(awk '{
			for (i = 3; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
			print v["pass"] + 0, v["fail"] + 0, v["xfail"] + 0,
			      v["xpass"] + 0, v["skip"] + 0, v["error"] + 0 }' <<<"$tot")
		fails=$((f + xp + e))
		# a non-zero exit with no failure counted is still a failure
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ $fails -eq 0 ]; then
			echo "# suite $name exited $rc with no failed test: counted as failed"
			fails=1
		fi
		echo "$name $((p + xf)) $fails $s" >>"$summary"
	fi
	rm -f "$log"
done
exit 0
