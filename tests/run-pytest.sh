#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a folder of pytest tests of the npuprof Python package (the build's,
# build/python over build/lib), print their report, and append one line to
# a summary file, as tests/run-suites.sh does: "NAME PASS FAIL SKIP".
# A run that ends without pytest's summary line counts as one failure.
# SUMMARY_FILE "-": print a kselftest "# Totals:" line instead and exit
# non-zero on a failure, as a suite that tests/run-suites.sh runs
# (tests/vm/test_python.sh). Further arguments go to pytest.
#
# Usage: tests/run-pytest.sh SUMMARY_FILE NAME DIR [PYTEST_ARG...]
set -u
summary=$1 name=$2 dir=$(cd "$3" && pwd)
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
echo "# suite: $name"
(cd "$dir" && PYTHONPATH="$top/build/python" LD_LIBRARY_PATH="$top/build/lib" \
	PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -p no:cacheprovider -rfEs "$@" "$dir") \
	2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# "== 21 passed, 1 failed, 2 skipped in 0.12s =="
tail=$(grep -E '^=+ .* in [0-9.]+s' "$log" | tail -n1)
count() { grep -oE "[0-9]+ $1" <<<"$tail" | grep -oE '^[0-9]+' || echo 0; }
if [ -z "$tail" ]; then
	echo "# $name exited $rc without pytest's summary: counted as failed"
	p=0 f=1 s=0
else
	p=$(count passed) f=$(($(count failed) + $(count error)))
	s=$(count skipped)
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 5 ] && [ "$f" -eq 0 ]; then
		echo "# $name exited $rc with no failed test: counted as failed"
		f=1
	fi
fi
rm -f "$log"
if [ "$summary" = - ]; then
	echo "# Totals: pass:$p fail:$f xfail:0 xpass:0 skip:$s error:0"
	[ "$f" -eq 0 ]
	exit
fi
echo "$name $p $f $s" >>"$summary"
exit 0
