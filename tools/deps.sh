#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install (from Debian's packages) and prepare everything the build, the dev
# VM and the tests need. Idempotent and quick when all is present: it only
# asks apt when a package is missing, and only extracts the kernel-source
# members once (cached under build/ksrc, keyed by the linux-source version).
#
# Usage: tools/deps.sh [--quiet]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
quiet=${1:-}

say() { [ "$quiet" = --quiet ] || echo "deps: $*"; }

pkgs=(
	# kernel for the guest and headers for the module, in one call so they match
	linux-image-amd64 linux-headers-amd64
	# dev VM
	qemu-system-x86 busybox-static cpio xz-utils kmod
	# userspace build and libraries
	build-essential pkg-config libnl-3-dev libnl-genl-3-dev libnl-utils
	libbpf-dev bpftool clang llvm dwarves libelf-dev zlib1g-dev libjson-c-dev
	iproute2
	# libFuzzer and the sanitizers' runtime for clang (make fuzz, tests/fuzz/):
	# clang only recommends it, and recommends are not installed here
	libclang-rt-14-dev
	# lint
	sparse cppcheck clang-format
	# the man pages' check in tools/check-install.sh (man --warnings, groff -ww)
	man-db groff-base
	# kselftest harness headers and checkpatch.pl
	linux-source-6.1
	# the debug kernel (tools/vm/debug-kernel.sh)
	flex bison bc
	# the reference converter of the export benchmark, JSON checks in tests
	python3
	# the npuprof Python package (python/): its C extension and its tests
	python3-dev python3-pytest
	linux-perf # perf record -e 'vnpu:*' in tests/vm/test_trace.c (runs in the 6.1 guest)
	trinity # the syscall fuzzer of tools/stress/trinity.sh (tests/vm/test_fuzz.c)
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing+=("$p") ;; esac
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps: missing packages: ${missing[*]} (run as root to install)" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The guest kernel: the one linux-image-amd64 depends on (never uname -r).
kver=$("$top/tools/kver.sh")
[ -d "/lib/modules/$kver/build" ] || {
	echo "deps: headers for $kver missing: apt-get install linux-headers-$kver" >&2
	exit 1
}

# Kernel-source members: kselftest harness headers and checkpatch.pl.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
ksrc="$build/ksrc"
if [ "$(cat "$ksrc/.version" 2>/dev/null)" != "$srcver" ]; then
	say "extracting kselftest harness and checkpatch from linux-source $srcver"
	tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n1)
	rm -rf "$ksrc"
	mkdir -p "$ksrc"
	tar -C "$ksrc" --strip-components=1 -xf "$tarball" \
		--wildcards \
		'linux-source-6.1/tools/testing/selftests/kselftest.h' \
		'linux-source-6.1/tools/testing/selftests/kselftest_harness.h' \
		'linux-source-6.1/scripts/checkpatch.pl' \
		'linux-source-6.1/scripts/spelling.txt' \
		'linux-source-6.1/scripts/const_structs.checkpatch'
	echo "$srcver" >"$ksrc/.version"
fi

# The uncompressed guest kernel: boots twice as fast under TCG (PVH entry)
# and is the base for module BTF and the BPF tools' vmlinux.h.
vmdir="$build/vm"
mkdir -p "$vmdir"
if [ ! -s "$vmdir/vmlinux-$kver" ]; then
	say "extracting vmlinux from /boot/vmlinuz-$kver"
	"$top/tools/vm/extract-vmlinux.sh" "/boot/vmlinuz-$kver" >"$vmdir/vmlinux-$kver.tmp"
	if [ "$(head -c 4 "$vmdir/vmlinux-$kver.tmp" | od -An -c | tr -d ' ')" != '177ELF' ]; then
		echo "deps: could not extract vmlinux from /boot/vmlinuz-$kver" >&2
		exit 1
	fi
	mv "$vmdir/vmlinux-$kver.tmp" "$vmdir/vmlinux-$kver"
fi
exit 0
