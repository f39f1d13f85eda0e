#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: lint, build, host suites (also under ASan + UBSan, and the
# fuzzing regression corpus replayed), then every in-VM suite in one boot
# of Debian's kernel. Prints each suite's TAP and ends with exactly one line
# "N passed, N failed" (", N skipped" when any). Exits non-zero when
# anything failed: a test, a lint gate, the build, a guest oops or hang.
#
# Usage: tools/check.sh [--vm-only] [--kernel stock|debug|both] [SUITE...]
#   --vm-only   skip lint and host suites (make vm-test)
#   --kernel    which kernels run the in-VM suites: Debian's (stock), the
#               debug kernel with KASAN, lockdep, kmemleak and UBSAN (debug),
#               or one pass on each (both, the default of make check)
#   SUITE       in-VM suites to run (names like test_devices or devices);
#               default: all of tests/vm
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
res="$top/build/results"
rm -rf "$res"
mkdir -p "$res"
summary="$res/summary"
: >"$summary"
vm_only=0
kernels=both
while [ $# -gt 0 ]; do
	case "$1" in
	--vm-only) vm_only=1; shift ;;
	--kernel)
		case "${2:-}" in stock | debug | both) kernels=$2 ;;
		*) echo "check: --kernel takes stock, debug or both, not '${2:-}'" >&2; exit 2 ;;
		esac
		shift 2 ;;
	*) break ;;
	esac
done

step() { printf '\n# === %s ===\n' "$*"; }
# a gate that is not a kselftest suite counts as one test
gate() {
	local name=$1
	shift
	if "$@"; then
		echo "$name 1 0 0" >>"$summary"
	else
		echo "# gate $name FAILED"
		echo "$name 0 1 0" >>"$summary"
		return 1
	fi
}

built=1
if [ $vm_only = 0 ]; then
	step lint
	gate lint "$top/tools/lint.sh"
fi
step build
gate build make --no-print-directory -C "$top" build || built=0

if [ $built = 1 ] && [ $vm_only = 0 ]; then
	step "host suites"
	"$top/tests/run-suites.sh" "$summary" "$top"/build/tests/host/test_*
	# the Python package's rules that need no device (pytest)
	"$top/tests/run-pytest.sh" "$summary" python-host "$top/tests/python"
	step "install"
	gate install "$top/tools/check-install.sh"
	# the host side again under ASan + UBSan (make asan, build/asan/): a
	# sanitizer report kills its suite, which then counts as failed; and
	# every input of the fuzzing regression corpus, once (tools/fuzz.sh)
	step "host suites under ASan + UBSan"
	if gate asan-build make --no-print-directory -C "$top" asan; then
		asum=$(mktemp)
		VNPU_REFERENCE=${VNPU_REFERENCE:-$top/../shared/reference} \
			ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
			UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			"$top/tests/run-suites.sh" "$asum" "$top"/build/asan/tests/host/test_*
		sed 's/^/asan:/' "$asum" >>"$summary"
		rm -f "$asum"
	fi
	step "fuzz corpus replay"
	if gate fuzz-build make --no-print-directory -C "$top" fuzz-build; then
		for h in config host_raw device_raw folder; do
			gate "fuzz-replay:$h" "$top/tools/fuzz.sh" --replay "$h"
		done
	fi
fi

if [ $built = 1 ]; then
	suites=()
	if [ $# -eq 0 ]; then
		suites=("$top"/build/tests/vm/test_*)
	else
		for s in "$@"; do
			s=${s#test_}
			suites+=("$top/build/tests/vm/test_$s")
			[ -x "$top/build/tests/vm/test_$s" ] ||
				{ echo "check: no in-VM suite '$s'" >&2; exit 2; }
		done
	fi
	# one VM boot runs every suite; a guest that fails as a whole (oops,
	# hang, a module that will not unload, a leak) counts as one failure
	# more, keeping the suites it finished
	vm_pass() {
		local name=$1 res=$2
		shift 2
		rm -rf "$res"
		if "$top/tools/vm/run" --results "$res" --params "devices=${VNPU_DEVICES:-8} seed=0" \
			--timeout "${VNPU_VM_TIMEOUT:-1800}" "$@" \
			-- "$top/tests/run-suites.sh" /vnpu-results/summary "${suites[@]}"; then
			sed "s/^/$name/" "$res/summary" >>"$summary"
		else
			sed "s/^/$name/" "$res/summary" >>"$summary" 2>/dev/null
			echo "${name}vm 0 1 0" >>"$summary"
		fi
	}
	if [ $kernels != debug ]; then
		step "in-VM suites (Debian kernel $("$top/tools/kver.sh"), slub_debug=FZPU)"
		# the slab allocator's red zones, poisoning and checks: an overrun
		# or a write after free shows even without KASAN
		vm_pass "" "$top/build/vm/results/check" --append "slub_debug=FZPU"
	fi
	if [ $kernels != stock ]; then
		step "debug kernel (tools/vm/debug-kernel.sh; cached after the first build)"
		if gate debug-build make --no-print-directory -C "$top" module-debug; then
			step "in-VM suites (debug kernel: KASAN, lockdep, kmemleak, UBSAN)"
			VNPU_TEST_SCALE=${VNPU_TEST_SCALE_DEBUG:-10} \
				vm_pass "debug:" "$top/build/vm/results/check-debug" --debug
		fi
	fi
fi

if [ $built = 1 ] && [ $vm_only = 0 ]; then
	step "benchmarks, smoke mode (each runs briefly: do they complete?)"
	gate bench-smoke make --no-print-directory -C "$top" bench-smoke
fi

step summary
"$top/tools/summary.sh" "$summary"
