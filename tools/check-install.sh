#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The library installs as documented, and its ABI is what the headers and
# libnpuprof.map say. make install into DESTDIR=build/install/root, then:
#  - build a program against it with pkg-config, shared and static;
#  - the shared library exports exactly the functions the installed headers
#    declare (gcc -aux-info lists them; static inlines excluded), each at
#    its default version, plus the compat symbols of older nodes: headers
#    declare no hidden symbol, and nothing undeclared leaks;
#  - options structs follow the OPTS rules: an older (smaller) struct works
#    and is read only as far as its sz, a newer one with an unknown member
#    set is -E2BIG, sz 0 is -EINVAL;
#  - a program linked against LIBNPUPROF_0.1's npuprof_profiler_start (the
#    struct without sz) still works;
#  - the version macros, npuprof_version() and the SONAME agree;
#  - the installed npuprof runs with the installed library (no build-tree
#    rpath), and the man pages parse without warnings (man-db and groff);
#  - the installed Python package imports from outside the tree and
#    reaches the library (a Profiler with no device: ENODEV).
# A gate of make check. The installed tree stays in build/install/root:
# the in-VM suite test_python runs a Profiler block with it
# (tests/vm/python/test_installed.py), which the host cannot.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
	echo "check-install: $*" >&2
	exit 1
}
root="$top/build/install/root"
rm -rf "$root"
make --no-print-directory -C "$top" install PREFIX=/usr DESTDIR="$root" >/dev/null
pc="$root/usr/lib/pkgconfig"
inc="$root/usr/include/npuprof"
lib="$root/usr/lib"
sed -i "s|^prefix=.*|prefix=$root/usr|" "$pc/libnpuprof.pc"
export PKG_CONFIG_PATH="$pc"

cat >"$d/hello.c" <<'C'
#include <npuprof.h>
#include <stdio.h>
int main(void)
{
	NPUPROF_OPTS(npuprof_options, o, .level = "L1", .aic_metrics = "Memory");
	struct npuprof_error err;
	int ret = npuprof_profiler_start(&o, &err);

	printf("%d %s\n", ret, err.msg);
	return ret == -ENODEV ? 0 : 1;
}
C
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror -include errno.h -o "$d/hello" "$d/hello.c" \
	$(pkg-config --cflags --libs libnpuprof)
LD_LIBRARY_PATH="$lib" "$d/hello" >/dev/null || fail "hello (shared) failed"
# shellcheck disable=SC2046
cc -std=gnu11 -include errno.h -o "$d/hello-static" "$d/hello.c" \
	$(pkg-config --cflags libnpuprof) "$lib/libnpuprof.a" \
	$(pkg-config --libs-only-l --static libnpuprof | sed 's/-lnpuprof//')
"$d/hello-static" >/dev/null || fail "hello (static) failed"

# the Python package, imported from outside the tree with the installed library
(cd "$d" && PYTHONPATH="$root/usr/lib/python3/dist-packages" LD_LIBRARY_PATH="$lib" \
	/usr/bin/python3 -c '
import errno, npuprof
assert npuprof.__file__.startswith("'"$root"'"), npuprof.__file__
try:
    with npuprof.Profiler(level="L1", aic_metrics="Memory"):
        raise AssertionError("started without a device")
except npuprof.ProfilerError as e:
    assert e.errno == errno.ENODEV, e
') || fail "the installed Python package does not import or run"

# the declared API against the exports
echo '#include <npuprof.h>' >"$d/decl.c"
cc -std=gnu11 -I"$inc" -aux-info "$d/decls" -c -o /dev/null "$d/decl.c"
grep "^/\* $inc/" "$d/decls" | sed -n 's/.*\*\/ extern [^(]*[ *]\(npuprof_[a-z0-9_]*\) (.*/\1/p' |
	sort -u >"$d/declared"
[ -s "$d/declared" ] || fail "no declaration found in the installed headers"
nm -D --defined-only "$lib/libnpuprof.so" | awk '{print $3}' | grep -v '^LIBNPUPROF_' |
	sort >"$d/exported"
grep '@@' "$d/exported" | sed 's/@@.*//' | sort -u >"$d/defaults"
if ! diff -u "$d/declared" "$d/defaults" >"$d/api.diff"; then
	cat "$d/api.diff" >&2
	fail "declared (-) and exported at a default version (+) differ"
fi
compat=$(grep -v '@@' "$d/exported" | tr '\n' ' ')
[ "$compat" = "npuprof_launch@LIBNPUPROF_0.1 npuprof_profiler_start@LIBNPUPROF_0.1 npuprof_scope_enter@LIBNPUPROF_0.1 npuprof_sync@LIBNPUPROF_0.1 npuprof_sync_all@LIBNPUPROF_0.1 " ] ||
	fail "compat symbols are '$compat'"

# options structs of other sizes, and a program of LIBNPUPROF_0.1
cat >"$d/abi.c" <<'C'
#include <npuprof.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* what a caller compiled against a header with fewer members passes */
struct older_options {
	size_t sz;
	const char *level;
};

/* an export_opts of a caller that knew only sz and timestamp */
struct older_export_opts {
	size_t sz;
	const char *timestamp;
};

/* LIBNPUPROF_0.1's npuprof_profiler_start and its struct (no sz) */
struct options_v0_1 {
	const char *level, *aic_metrics, *output_path;
};
int start_v0_1(const struct options_v0_1 *o, struct npuprof_error *err);
__asm__(".symver start_v0_1, npuprof_profiler_start@LIBNPUPROF_0.1");

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "abi.c:%d: %s: %s\n", __LINE__, #cond, \
				err.msg);                                    \
			return 1;                                            \
		}                                                            \
	} while (0)

int main(void)
{
	struct npuprof_error err = { 0 };
	/* the older struct, followed by what would be aic_metrics: garbage */
	union {
		struct older_options o;
		unsigned char bytes[sizeof(struct npuprof_options) + 16];
	} u;
	unsigned char newer[sizeof(struct npuprof_options) + 8];
	struct options_v0_1 v1 = { .level = "L7" };

	memset(&u, 0x5a, sizeof(u));
	u.o.sz = sizeof(u.o);
	u.o.level = "L9";
	CHECK(npuprof_profiler_start((const void *)&u, &err) == -EINVAL);
	CHECK(strstr(err.msg, "level cannot set to: L9"));
	u.o.level = "L1";
	/* aic_metrics was not read: the options pass, the host has no device */
	CHECK(npuprof_profiler_start((const void *)&u, &err) == -ENODEV);

	memset(newer, 0, sizeof(newer));
	*(size_t *)newer = sizeof(newer);
	CHECK(npuprof_profiler_start((const void *)newer, &err) == -ENODEV);
	newer[sizeof(newer) - 1] = 1;
	CHECK(npuprof_profiler_start((const void *)newer, &err) == -E2BIG);
	CHECK(strstr(err.msg, "is not zero"));
	*(size_t *)newer = 0;
	CHECK(npuprof_profiler_start((const void *)newer, &err) == -EINVAL);
	CHECK(strstr(err.msg, "sz is 0"));

	struct older_export_opts eo = { .sz = sizeof(eo), .timestamp = "20260101000000" };

	/* accepted: the export goes on to find no folder */
	CHECK(npuprof_export("/nonexistent-prof", (const void *)&eo, &err) == -ENOENT);
	eo.timestamp = "2026";
	CHECK(npuprof_export("/tmp", (const void *)&eo, &err) == -EINVAL);
	CHECK(strstr(err.msg, "timestamp"));

	CHECK(start_v0_1(&v1, &err) == -EINVAL);
	CHECK(strstr(err.msg, "level cannot set to: L7"));

	CHECK(npuprof_major_version() == NPUPROF_VERSION_MAJOR);
	CHECK(npuprof_minor_version() == NPUPROF_VERSION_MINOR);
	printf("%s\n", npuprof_version());
	return 0;
}
C
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror -o "$d/abi" "$d/abi.c" \
	$(pkg-config --cflags --libs libnpuprof)
version=$(LD_LIBRARY_PATH="$lib" "$d/abi") || fail "the ABI program failed"
major=${version%%.*}
[ -e "$lib/libnpuprof.so.$version" ] || fail "no libnpuprof.so.$version for npuprof_version() $version"
[ "$(readelf -d "$lib/libnpuprof.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" = "libnpuprof.so.$major" ] ||
	fail "SONAME is not libnpuprof.so.$major"

# the CLI: linked with the installed shared library, no build-tree rpath
bin="$root/usr/bin/npuprof"
[ -x "$bin" ] || { echo "check-install: no $bin" >&2; exit 1; }
if readelf -d "$bin" | grep -E 'RPATH|RUNPATH' | grep -q .; then
	echo "check-install: $bin keeps an rpath: $(readelf -d "$bin" | grep -E 'RPATH|RUNPATH')" >&2
	exit 1
fi
readelf -d "$bin" | grep -q 'NEEDED.*\[libnpuprof\.so\.0\]' ||
	{ echo "check-install: $bin does not use libnpuprof.so.0" >&2; exit 1; }
ver=$(LD_LIBRARY_PATH="$lib" "$bin" --version)
case "$ver" in
"npuprof "*"
libnpuprof "*) ;;
*) echo "check-install: npuprof --version said: $ver" >&2; exit 1 ;;
esac

# the man pages: installed, and clean for man-db and groff (warnings are failures)
for m in man1/npuprof.1 man3/libnpuprof.3; do
	f="$root/usr/share/man/$m"
	[ -f "$f" ] || { echo "check-install: no $f" >&2; exit 1; }
	w=$( { MANWIDTH=80 man --warnings -l "$f" >/dev/null; } 2>&1)
	w+=$(groff -man -z -ww "$f" 2>&1)
	if [ -n "$w" ]; then
		echo "check-install: $m: $w" >&2
		exit 1
	fi
done
echo "check-install: installed, pkg-config works (shared and static); exports = the headers' $(wc -l <"$d/declared") functions + 5 compat; OPTS rules and LIBNPUPROF_0.1 hold;" \
	"npuprof and the Python package run with the installed library; npuprof(1) and libnpuprof(3) are clean"
