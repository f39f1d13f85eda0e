#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the dev VM's initramfs for kernel $1 into $2: a static busybox, the
# guest kernel's own 9p/virtio/overlay modules (decompressed, so busybox
# insmod can load them) and tools/vm/init. The root file system is the
# host's /, shared read-only over 9p; see docs/devvm.md.
set -euo pipefail
kver=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)

mods="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci
netfs fscache 9pnet 9pnet_virtio 9p overlay"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,sys,host,upper,newroot,lib/modules}
cp /bin/busybox "$tmp/bin/busybox"
: >"$tmp/modules.order"
for m in $mods; do
	path=$(modinfo -k "$kver" -n "$m" 2>/dev/null) || continue
	# built in: modinfo prints "(builtin)" or nothing
	case "$path" in /*) ;; *) continue ;; esac
	base=$(basename "$path")
	case "$path" in
	*.ko.xz) xz -dc "$path" >"$tmp/lib/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -qdc "$path" >"$tmp/lib/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko.gz) gzip -dc "$path" >"$tmp/lib/modules/${base%.gz}"; base=${base%.gz} ;;
	*) cp "$path" "$tmp/lib/modules/$base" ;;
	esac
	echo "$base" >>"$tmp/modules.order"
done
install -m 0755 "$here/init" "$tmp/init"
(cd "$tmp" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
