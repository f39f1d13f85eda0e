#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 of the dev VM, run as root in the guest's chroot (the host's / with
# a tmpfs overlay). Loads the freshly built vnpu.ko, runs the command from the
# results share, writes its exit status there, and unloads the module so
# that a module that cannot unload fails the run.
set -u
R=/vnpu-results
. $R/env
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-dumb} VNPU_RESULTS=$R
export VNPU_KO VNPU_TOP VNPU_MODPARAMS VNPU_TEST_SCALE VNPU_DEBUG_KERNEL VNPU_STRESS VNPU_FUZZ_SEED
cd "$VNPU_TOP" || exit 1
echo 1 >/proc/sys/kernel/printk 2>/dev/null

if [ "$VNPU_LOAD" = 1 ]; then
	# shellcheck disable=SC2086
	if ! insmod "$VNPU_KO" $VNPU_MODPARAMS; then
		echo "vm: insmod $VNPU_KO $VNPU_MODPARAMS failed" | tee -a $R/output
		echo 125 >$R/status
		exit 0
	fi
fi

if [ "$VNPU_INTERACTIVE" = 1 ]; then
	echo "vm: vnpu loaded; the tree is at $VNPU_TOP (read-only below an overlay); exit to stop"
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	st=$?
else
	bash "$R/cmd" >>$R/output 2>&1 </dev/null
	st=$?
fi

# where the module's code is, for kmemleak's bare addresses after rmmod
echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
modline=$(grep '^vnpu ' /proc/modules || true)
if [ -n "$modline" ] && ! rmmod vnpu; then
	echo "vm: rmmod vnpu failed after the command" | tee -a $R/output
	[ $st -ne 0 ] || st=1
fi

# kmemleak (debug kernel): with the module gone, anything of its still
# allocated is a leak. Two scans: an object must look unreferenced twice.
kml=/sys/kernel/debug/kmemleak
if [ -w $kml ] && [ "${VNPU_KMEMLEAK:-1}" = 1 ]; then
	echo scan >$kml
	echo scan >$kml
	cat $kml >$R/kmemleak-all
	# "vnpu SIZE REFS DEPS STATE ADDRESS": keep the module's reports only
	set -- $modline
	if [ -n "$modline" ]; then
		"$VNPU_TOP/tools/vm/kmemleak-vnpu.py" $R/kmemleak-all "$6" "$2" >$R/kmemleak
	fi
fi
echo $st >$R/status
sync
