#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Python package's in-VM suite: pytest on tests/vm/python (the build's
# package, build/python over build/lib, on Debian's /usr/bin/python3),
# counted as a kselftest suite is: its report, then a "# Totals:" line for
# tests/run-suites.sh. Installed as build/tests/vm/test_python, so that
# `make vm-test SUITES=python` runs it like any other suite.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
log=$(mktemp)
(cd "$top/tests/vm/python" &&
	PYTHONPATH="$top/build/python" LD_LIBRARY_PATH="$top/build/lib" \
	NPUPROF_TOP="$top" PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 -m pytest -p no:cacheprovider -rfEs -v .) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# "== 21 passed, 1 failed, 2 skipped in 0.12s =="
tail=$(grep -E '^=+ .* in [0-9.]+s' "$log" | tail -n1)
rm -f "$log"
[ -n "$tail" ] || { echo "# pytest exited $rc without its summary"; exit 1; }
count() { grep -oE "[0-9]+ $1" <<<"$tail" | grep -oE '^[0-9]+' || echo 0; }
echo "# Totals: pass:$(count passed) fail:$(count failed) xfail:$(count xfailed)" \
	"xpass:$(count xpassed) skip:$(count skipped) error:$(count error)"
exit "$rc"
