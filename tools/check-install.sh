#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The library installs as documented: make install into a scratch DESTDIR,
# then build a program against it with pkg-config, shared and static, and
# check the shared library exports exactly the public API (npuprof_*,
# versioned LIBNPUPROF_0.1), that the installed npuprof runs with the
# installed library, and that the man pages parse without warnings (man-db
# and groff). A gate of make check.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
make --no-print-directory -C "$top" install PREFIX=/usr DESTDIR="$d/root" >/dev/null
pc="$d/root/usr/lib/pkgconfig"
sed -i "s|^prefix=.*|prefix=$d/root/usr|" "$pc/libnpuprof.pc"
cat >"$d/hello.c" <<'C'
#include <npuprof.h>
#include <stdio.h>
int main(void)
{
	struct npuprof_options o = { .level = "L1", .aic_metrics = "Memory" };
	struct npuprof_error err;
	int ret = npuprof_profiler_start(&o, &err);

	printf("%d %s\n", ret, err.msg);
	return ret == -ENODEV ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$pc"
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror -include errno.h -o "$d/hello" "$d/hello.c" \
	$(pkg-config --cflags --libs libnpuprof)
LD_LIBRARY_PATH="$d/root/usr/lib" "$d/hello" >/dev/null
# shellcheck disable=SC2046
cc -std=gnu11 -include errno.h -o "$d/hello-static" "$d/hello.c" \
	$(pkg-config --cflags libnpuprof) "$d/root/usr/lib/libnpuprof.a" \
	$(pkg-config --libs-only-l --static libnpuprof | sed 's/-lnpuprof//')
"$d/hello-static" >/dev/null
bad=$(nm -D --defined-only "$d/root/usr/lib/libnpuprof.so" | awk '{print $3}' |
	grep -v -E '^(npuprof_[a-z0-9_]+@@LIBNPUPROF_0\.1|LIBNPUPROF_0\.1)$' || true)
if [ -n "$bad" ]; then
	echo "check-install: symbols outside the public API: $bad" >&2
	exit 1
fi
[ "$(readelf -d "$d/root/usr/lib/libnpuprof.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" = libnpuprof.so.0 ]

# the CLI: linked with the installed shared library, no build-tree rpath
bin="$d/root/usr/bin/npuprof"
[ -x "$bin" ] || { echo "check-install: no $bin" >&2; exit 1; }
if readelf -d "$bin" | grep -E 'RPATH|RUNPATH' | grep -q .; then
	echo "check-install: $bin keeps an rpath: $(readelf -d "$bin" | grep -E 'RPATH|RUNPATH')" >&2
	exit 1
fi
readelf -d "$bin" | grep -q 'NEEDED.*\[libnpuprof\.so\.0\]' ||
	{ echo "check-install: $bin does not use libnpuprof.so.0" >&2; exit 1; }
ver=$(LD_LIBRARY_PATH="$d/root/usr/lib" "$bin" --version)
case "$ver" in
"npuprof "*"
libnpuprof "*) ;;
*) echo "check-install: npuprof --version said: $ver" >&2; exit 1 ;;
esac

# the man pages: installed, and clean for man-db and groff (warnings are failures)
for m in man1/npuprof.1 man3/libnpuprof.3; do
	f="$d/root/usr/share/man/$m"
	[ -f "$f" ] || { echo "check-install: no $f" >&2; exit 1; }
	w=$( { MANWIDTH=80 man --warnings -l "$f" >/dev/null; } 2>&1)
	w+=$(groff -man -z -ww "$f" 2>&1)
	if [ -n "$w" ]; then
		echo "check-install: $m: $w" >&2
		exit 1
	fi
done
echo "check-install: installed, pkg-config works (shared and static), only npuprof_* exported;" \
	"npuprof runs with the installed library; npuprof(1) and libnpuprof(3) are clean"
