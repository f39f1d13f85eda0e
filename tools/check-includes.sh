#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The include check of make lint (issue 39): libnpuprof's subsystems
# (docs/architecture.md) use each other only through each one's interface
# header, <dir>/<dir>.h, and only downwards:
#
#   core <- format <- netlink, hostrec <- runtime, collect <- session
#                  <- export
#
# and programs (tools/, examples/, python/, bench/) include only the public
# headers (libnpuprof/include/npuprof/, uapi/): bench also the two headers
# of on-disk formats it writes, format/prof_layout.h and format/cann_format.h.
#
# Prints each include that breaks a rule, as FILE:LINE: why; exit 1 if any.
# Usage: tools/check-includes.sh [TOP]
set -uo pipefail
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
lib=libnpuprof

# what each subsystem may include besides itself
declare -A may=(
	[core]=""
	[format]="core"
	[netlink]="core"
	[hostrec]="core format"
	[runtime]="core format hostrec"
	[collect]="core format hostrec"
	[session]="core format runtime collect"
	[export]="core format"
)
bad=0
say() {
	echo "$1: $2" >&2
	bad=1
}
# a public header: the library's own, or the uapi's
public() { [ -e "$lib/include/npuprof/$1" ] || [ -e "uapi/$1" ]; }

# every quoted include of $1, as LINE NAME
includes() { grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" | sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/'; }

for f in $lib/*/*.[ch] $lib/include/npuprof/*.h; do
	dir=${f#"$lib"/}
	dir=${dir%%/*}
	while read -r line inc; do
		where="$f:$line"
		case $inc in
		*/*)
			sub=${inc%%/*}
			if [ "$dir" = include ]; then
				say "$where" "a public header includes \"$inc\", which is not installed"
			elif [ -z "${may[$sub]+x}" ]; then
				say "$where" "\"$inc\" is in no subsystem of $lib"
			elif [ ! -e "$lib/$inc" ]; then
				say "$where" "\"$inc\" does not exist"
			elif [ "$sub" != "$dir" ]; then
				if [[ " ${may[$dir]} " != *" $sub "* ]]; then
					say "$where" "$dir/ may not use $sub/ (it may use: ${may[$dir]:-nothing})"
				elif [ "$inc" != "$sub/$sub.h" ]; then
					say "$where" "\"$inc\" is private to $sub/: include $sub/$sub.h"
				fi
			fi
			;;
		*)
			public "$inc" || say "$where" "\"$inc\" is not a public header: include it as \"<dir>/$inc\""
			;;
		esac
	done < <(includes "$f")
done

# programs: the public headers, their own, and bench's two format headers
while read -r f; do
	d=$(dirname "$f")
	while read -r line inc; do
		base=${inc##*/}
		if [ -e "$d/$inc" ] || { [ "$inc" = "$base" ] && public "$inc"; }; then
			continue
		fi
		case $f:$inc in
		bench/*:cann_format.h | bench/*:prof_layout.h) continue ;;
		esac
		# a generated header (BPF skeletons, vmlinux.h) lives in build/
		if [ "$inc" = "$base" ] && ! find "$lib" -name "$base" | grep -q .; then
			continue
		fi
		say "$f:$line" "\"$inc\" is not a public header of libnpuprof"
	done < <(includes "$f")
done < <(git ls-files 'tools/*.[ch]' 'examples/*.[ch]' 'python/*.[ch]' 'bench/*.[ch]')

exit $bad
