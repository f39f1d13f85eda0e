#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The library's layers, as the linker sees them (docs/libnpuprof.md): a
# program that uses only the runtime API links, from the static archive, no
# object of the session (the Profiler's rules, global profiling), the
# collector or the export. The runtime reaches global profiling only
# through the open hook the session registers; an arrow turned back (the
# runtime calling the session, the host records calling the runtime's
# builders) pulls those objects in, and this suite fails.
#
# Installed as build/tests/host/test_layers; prints TAP and a kselftest
# Totals line, as the C suites do.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
lib="$top/build/lib/libnpuprof.a"
cc=${CC:-cc}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0 pass=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $2"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
}
# the objects of the layers above the runtime: every .c of session/, collect/ and export/
upper="^($(cd "$top/libnpuprof" && ls session/*.c collect/*.c export/*.c | sed 's|.*/||; s|\.c$||' |
	paste -sd'|'))\.o\$"

# the archive members a link of $1 pulls in (the link map's), one a line
members() {
	local src=$1 out=$2
	shift 2
	$cc -std=gnu11 -I"$top/libnpuprof/include/npuprof" -I"$top/uapi" -o "$d/$out" "$src" "$@" "$lib" \
		-ljson-c -lnl-genl-3 -lnl-3 -lpthread -lm -Wl,-Map="$d/$out.map" >&2 || return 1
	grep -o 'libnpuprof\.a([a-z_0-9]*\.o)' "$d/$out.map" | sed 's/.*(\(.*\))/\1/' | sort -u
}

cat >"$d/runtime_only.c" <<'C'
#include <npuprof.h>
#include <stdio.h>
int main(void)
{
	struct npuprof_error err;
	struct npuprof_dev *dev;
	struct vnpu_task t;
	uint32_t s, comm, rank, nranks;
	uint64_t id;

	if (npuprof_open(0, &dev, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	npuprof_stream_create(dev, &s, &err);
	npuprof_op_matmul(dev, &t, "mm", s, 64, 64, 64, VNPU_DT_FLOAT16);
	npuprof_launch(dev, &t, 1, &id, &err);
	npuprof_comm_init_ranks(dev, 0, &comm, &rank, &nranks, &err);
	npuprof_sync_all(dev, -1, &err);
	npuprof_close(dev);
	return 0;
}
C
cat >"$d/profiler.c" <<'C'
#include <npuprof.h>
int main(void)
{
	NPUPROF_OPTS(npuprof_options, o, .level = "L1");
	struct npuprof_error err;

	return npuprof_profiler_start(&o, &err) ? 1 : npuprof_profiler_stop(&err);
}
C

# a program's constructor that opens a device, as test_cli's workloads do
cat >"$d/ctor.c" <<'C'
#include <npuprof.h>
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void early(void)
{
	struct npuprof_error err;
	struct npuprof_dev *dev;

	if (npuprof_open(0, &dev, &err))
		fprintf(stderr, "%s\n", err.msg);
	exit(0);
}
int main(void)
{
	return 1;
}
C

echo "TAP version 13"
echo "1..6"
members "$d/runtime_only.c" runtime_only >"$d/rt"
ok $? "a program of the runtime API links with the static archive"
bad=$(grep -E "$upper" "$d/rt" | tr '\n' ' ')
[ -z "$bad" ] || echo "# runtime_only.c pulled in: $bad(of $(wc -l <"$d/rt") members)"
ok "$([ -s "$d/rt" ] && [ -z "$bad" ] && echo 0 || echo 1)" \
	"it links no object of the session, the collector or the export"

# the check can fail: a Profiler program does pull those in
members "$d/profiler.c" profiler >"$d/pr"
ok "$([ $? = 0 ] && grep -qx global.o "$d/pr" && grep -qx collector.o "$d/pr" &&
	grep -Eq '^ascend_export\.o$' "$d/pr" && echo 0 || echo 1)" \
	"a Profiler program links the session, the collector and the export"

# pkg-config --static's way to global profiling for a runtime-only program
members "$d/runtime_only.c" runtime_global -Wl,--undefined=nps_global_device_opened >"$d/rg"
ok "$([ $? = 0 ] && grep -qx global.o "$d/rg" && echo 0 || echo 1)" \
	"-Wl,--undefined=nps_global_device_opened brings global profiling in"
# without the session, npuprof run's PROFILING_MODE is an error, not a run unprofiled
out=$(PROFILING_MODE=true "$d/runtime_only" 2>&1)
rc=$?
echo "# $out" | head -c 300
echo
ok "$([ $rc != 0 ] && grep -q 'PROFILING_MODE=true, but this program has no global profiling' <<<"$out" &&
	echo 0 || echo 1)" "PROFILING_MODE in a program without the session fails its open, saying why"
# the session's hook is in before a program's own constructors run
members "$d/ctor.c" ctor -Wl,--undefined=nps_global_device_opened >/dev/null
out=$(PROFILING_MODE=true "$d/ctor" 2>&1)
echo "# $out" | head -c 300
echo
# (this host has no vnpu: the open goes on to fail on the device, not on the hook)
ok "$(grep -q 'has no global profiling' <<<"$out" || ! grep -q 'vnpu0' <<<"$out" &&
	echo 1 || echo 0)" "a constructor's open already has global profiling"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail = 0 ]
