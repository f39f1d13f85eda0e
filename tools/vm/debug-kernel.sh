#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel (KASAN, lockdep, kmemleak, UBSAN, list debugging)
# from Debian's linux-source-6.1: tinyconfig + kvm_guest.config +
# tools/vm/debug.config, in build/debug-kernel/linux.
#
# Cached: the source is extracted once per linux-source version; the tree
# is configured and built again only when the fragment or this script
# changes (an incremental build then), and left alone otherwise. About 8
# minutes on 2 cores from scratch.
#
# Prints the tree's path on success.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
frag="$top/tools/vm/debug.config"
out="$top/build/debug-kernel"
tree="$out/linux"
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key="$ver $(sha256sum "$frag" | cut -c1-16) $(sha256sum "$0" | cut -c1-16)"
say() { echo "debug-kernel: $*" >&2; }

if [ "$(cat "$out/.key" 2>/dev/null)" = "$key" ] && [ -s "$tree/arch/x86/boot/bzImage" ]; then
	echo "$tree"
	exit 0
fi

if [ "$(cat "$out/.src" 2>/dev/null)" != "$ver" ] || [ ! -f "$tree/Makefile" ]; then
	say "extracting linux-source $ver"
	rm -rf "$out"
	mkdir -p "$out"
	tar -C "$out" -xf /usr/src/linux-source-6.1.tar.xz
	mv "$out/linux-source-6.1" "$tree"
	echo "$ver" >"$out/.src"
fi
rm -f "$out/.key"

say "configuring (tinyconfig + kvm_guest.config + debug.config)"
mk=(make -C "$tree" ARCH=x86_64 -s)
"${mk[@]}" tinyconfig >/dev/null
"${mk[@]}" kvm_guest.config >/dev/null
(cd "$tree" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null 2>&1)
"${mk[@]}" olddefconfig >/dev/null
missing=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	if ! grep -qx "$line" "$tree/.config"; then
		say "wanted but not set: $line"
		missing=1
	fi
done <"$frag"
[ $missing = 0 ] || { say "the final .config lacks the options above"; exit 1; }

say "building bzImage and modules (-j$(nproc), several minutes)"
start=$(date +%s)
nice -n 10 "${mk[@]}" -j"$(nproc)" bzImage modules >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	say "build failed (log: $out/build.log)"
	exit 1
}
say "built in $(($(date +%s) - start)) s"
echo "$key" >"$out/.key"
echo "$tree"
