#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write the uncompressed vmlinux ELF inside a Debian bzImage to stdout.
# Debian ships no scripts/extract-vmlinux; its kernels are xz-compressed, so
# find the xz magic and decompress from there (trailing garbage is fine).
set -euo pipefail
export LC_ALL=C
img=$1
off=$(grep -obUaP '\xfd7zXZ\x00' "$img" | head -n1 | cut -d: -f1)
[ -n "$off" ] || { echo "extract-vmlinux: no xz stream in $img" >&2; exit 1; }
tail -c +$((off + 1)) "$img" | xz -dc 2>/dev/null || true
