#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make lint: the style and static-analysis gates. Each must be clean.
#  - checkpatch.pl --strict on kmod/ and uapi/ (from Debian's linux-source)
#  - the module built with W=1 and sparse (C=2: every file) with no warnings
#  - userspace built with -Wall -Wextra -Werror (the normal build does that)
#  - clang-format --dry-run -Werror on userspace C
#  - cppcheck on userspace C
#  - libnpuprof's subsystems include each other only downwards, through
#    each one's interface header; programs only the public headers
#    (tools/check-includes.sh)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
kver=$("$top/tools/kver.sh")
rc=0
fail() { echo "lint: $*" >&2; rc=1; }

kfiles=$(ls kmod/*.[ch] uapi/*.h)
if ! perl build/ksrc/scripts/checkpatch.pl --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $kfiles; then
	fail "checkpatch --strict is not clean"
fi

log=build/lint-module.log
mkdir -p build
if ! flock /tmp/vnpu-build.lock make -C "/lib/modules/$kver/build" M="$top" W=1 C=2 modules >"$log" 2>&1; then
	cat "$log"
	fail "the module does not build"
elif grep -E 'warning:|error:' "$log"; then
	fail "W=1 / sparse warnings in the module"
fi
# that build relinked vnpu.ko without the module BTF the Makefile adds
make --no-print-directory -C "$top" module >/dev/null 2>&1 || fail "the module does not build"


ufiles=$(git ls-files '*.c' '*.h' | grep -Ev '^(kmod|uapi)/')
if [ -n "$ufiles" ]; then
	# shellcheck disable=SC2086
	clang-format --dry-run -Werror $ufiles || fail "clang-format: run clang-format -i on the files above"
	# shellcheck disable=SC2086
	cppcheck -q --error-exitcode=1 --std=c11 --inline-suppr \
		--enable=warning,portability,performance \
		--suppress=missingIncludeSystem --suppress='*:build/ksrc/*' -Iuapi -Ilibnpuprof -Ilibnpuprof/include/npuprof -Ilibnpuprof/format -Itests \
		-Ibuild/ksrc/tools/testing/selftests \
		-D__x86_64__ -U__KERNEL__ $ufiles || fail "cppcheck found problems"
fi
tools/check-includes.sh || fail "an include crosses libnpuprof's layers (above)"
[ $rc = 0 ] && echo "lint: clean"
exit $rc
