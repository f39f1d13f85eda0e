#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Scan guest kernel logs for reports that must fail a run: oopses, BUGs,
# WARNINGs, panics, memory-safety and locking reports. Prints each report's
# first lines and exits 1 if any is found. With slub_debug (make stress) a
# corrupted slab object reads "BUG kmalloc-64 (Tainted: ...): Redzone ...";
# vnpu itself reports objects it never freed at unload (kmod/vnpu_debugfs.c).
set -u
pat='BUG:|WARNING:|Oops|general protection|Kernel panic|kernel BUG|list_add corruption|list_del corruption|UBSAN:|KASAN:|KFENCE:|possible circular locking|inconsistent lock state|possible recursive locking|sleeping function called from invalid context|suspicious RCU usage|unreferenced object|Call Trace:|segfault at .* in vnpu|BUG [^ :]+ \(|vnpu: leaked at unload'
found=0
for f in "$@"; do
	[ -r "$f" ] || continue
	if grep -Eq "$pat" "$f"; then
		echo "scan-dmesg: kernel report in $(basename "$f"):"
		grep -E -A 12 "$pat" "$f" | head -n 60 | sed 's/^/  /'
		found=1
	fi
done
exit $found
