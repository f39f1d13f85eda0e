#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the reliability suites (docs/reliability.md) with their long
# counts (VNPU_STRESS=1), in one boot of Debian's kernel with two vCPUs and
# the slab allocator's own checks on (slub_debug=FZPU: sanity checks, red
# zones, poisoning, owner tracking; list debugging is built into Debian's
# kernel). Prints each suite's TAP, a table of the figures the suites report
# ("# figure: AREA key=value ..."), and ends with "N passed, N failed".
#
# Usage: tools/stress.sh [--kernel stock|debug] [SUITE...]
#   --kernel debug  the debug kernel (KASAN, lockdep, kmemleak) instead,
#                   one vCPU (its build has no SMP to spare under TCG)
#   SUITE           default: fuzz fuzz_netlink stress lifecycle hosttime ring security outputs
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
kernel=stock
case "${1:-}" in
--kernel)
	case "${2:-}" in stock | debug) kernel=$2 ;;
	*) echo "stress: --kernel takes stock or debug, not '${2:-}'" >&2; exit 2 ;;
	esac
	shift 2 ;;
esac
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(fuzz fuzz_netlink stress lifecycle hosttime ring security outputs)
suites=()
for s in "${names[@]}"; do
	s=${s#test_}
	[ -x "$top/build/tests/vm/test_$s" ] || { echo "stress: no in-VM suite '$s'" >&2; exit 2; }
	suites+=("$top/build/tests/vm/test_$s")
done

res="$top/build/vm/results/stress"
rm -rf "$res"
mkdir -p "$res"
vmargs=(--results "$res" --params "devices=${VNPU_DEVICES:-8} seed=0" --quiet
	--timeout "${VNPU_VM_TIMEOUT:-5400}")
if [ $kernel = debug ]; then
	make --no-print-directory -C "$top" module-debug || exit 1
	vmargs+=(--debug)
else
	vmargs+=(--smp 2 --append "slub_debug=FZPU")
fi

start=$(date +%s)
VNPU_STRESS=1 "$top/tools/vm/run" "${vmargs[@]}" \
	-- "$top/tests/run-suites.sh" /vnpu-results/summary "${suites[@]}"
vmrc=$?
secs=$(($(date +%s) - start))
cat "$res/output"

printf '\n# === figures (%s kernel, %d s) ===\n' "$kernel" "$secs"
grep -h '^# figure: ' "$res/output" | sed 's/^# figure: //' |
	awk '{ area = $1; $1 = ""; printf "# %-12s%s\n", area, $0 }'
if [ -s "$res/kmemleak" ]; then
	echo "# leaks       kmemleak reports: $(grep -c '^unreferenced object' "$res/kmemleak")"
fi

summary="$res/summary"
[ -f "$summary" ] || : >"$summary"
[ $vmrc = 0 ] || echo "vm 0 1 0" >>"$summary"
"$top/tools/summary.sh" "$summary"
