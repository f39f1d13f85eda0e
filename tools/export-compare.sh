#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Two builds of npuprof export the same raw folders; their outputs must be
# the same, byte for byte. For a change that moves code and must change no
# output (issue 39's refactoring): build the commit before it, then
#
#   tools/export-compare.sh OLD/build/tools/npuprof/npuprof \
#       build/tools/npuprof/npuprof build/vm/results/check/layout/*
#
# Each PROF_* folder is copied twice, its old outputs removed, and each copy
# exported by one binary with the same --timestamp; then the two output
# trees are compared file by file (diff -r). Exit 1 on any difference.
#
# Usage: tools/export-compare.sh OLD_NPUPROF NEW_NPUPROF PROF_DIR...
set -uo pipefail
[ $# -ge 3 ] || { sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
old=$1 new=$2
shift 2
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "export-compare: $b is not an executable" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
folders=0 files=0 bad=0
# $1 into $2/ under its own name (the export wants a PROF_* folder)
copy() {
	rm -rf "$2" && mkdir -p "$2" && cp -a "$1" "$2/" &&
		find "$2" -name mindstudio_profiler_output -type d -prune -exec rm -rf {} +
}
for src in "$@"; do
	# a layout folder holds PROF_* folders; a PROF_* folder is itself one
	mapfile -t profs < <(find "$src" -maxdepth 2 -type d -name 'PROF_*' | sort)
	[ ${#profs[@]} -gt 0 ] || { echo "export-compare: no PROF_* folder in $src" >&2; bad=$((bad + 1)); continue; }
	for p in "${profs[@]}"; do
		folders=$((folders + 1))
		for side in old new; do
			copy "$p" "$tmp/$side"
			"${!side}" export -q -t 20260101000000 "$tmp/$side/${p##*/}" 2>&1 |
				sed "s|$tmp/$side|DIR|g" >"$tmp/$side.out"
			echo "exit ${PIPESTATUS[0]}" >>"$tmp/$side.out"
		done
		if ! diff -r "$tmp/old" "$tmp/new" >"$tmp/diff" || ! diff "$tmp/old.out" "$tmp/new.out" >>"$tmp/diff"; then
			echo "export-compare: $p: the exports differ:"
			head -40 "$tmp/diff"
			bad=$((bad + 1))
		fi
		files=$((files + $(find "$tmp/new" -path '*mindstudio_profiler_output*' -type f | wc -l)))
	done
done
echo "export-compare: $folders folders, $files output files, $bad differing"
[ $bad -eq 0 ]
