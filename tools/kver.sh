#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel release of Debian's installed linux-image-amd64, the
# kernel the dev VM boots and the module is built for. Never uname -r: the
# host runs another kernel. Override with KVER=... in the environment.
set -e
if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) || {
	echo "kver: linux-image-amd64 is not installed (run tools/deps.sh)" >&2
	exit 1
}
# "linux-image-6.1.0-NN-amd64 (= ...)" -> "6.1.0-NN-amd64"
echo "$dep" | sed -n 's/^linux-image-\([^ ,]*\).*/\1/p' | head -n1
