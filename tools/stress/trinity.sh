#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/stress/trinity.sh: trinity (Debian's syscall fuzzer) against the
# vnpu device files only, bounded in syscalls and in seconds. Runs as root
# inside the dev VM, with vnpu.ko loaded:
#
#   make vm CMD="tools/stress/trinity.sh -t 60"
#   make vm-test SUITES=fuzz    (what make check runs: fuzz.trinity)
#
# - trinity runs as nobody (uid and gid 65534), never as root. It gets
#   device nodes of its own for the first DEVICES vnpu devices (two names
#   each, so that it opens several files per device), made with mknod in a
#   scratch tmpfs, owned by nobody, mode 0600. /dev is not touched.
# - Its victim path (-V) is that directory, and the only fd provider left
#   on is the one that opens victim files ("pseudo"): every fd it fuzzes
#   is a vnpu file (or that directory).
# - Syscalls: those that mean something on a character device file.
# - It runs in the scratch tmpfs, logging off, stdin /dev/null, its output
#   in a file there. /vnpu-results (the share with the host) is covered by
#   an empty read-only tmpfs in a private mount namespace where the kernel
#   has them, and nobody must not be able to write to it in any case
#   (checked before the run).
# - Bounds: -N SYSCALLS, and SIGINT after SECONDS (SIGKILL 15 s later).
#
# Prints "# figure: trinity syscalls=N seconds=S ..." (from trinity's own
# count). Exit status: 0 when trinity ran and the kernel did not taint
# (oopses and WARNINGs also fail the VM run through its dmesg scan), 4 when
# trinity is not installed, 1 otherwise.
#
# Usage: tools/stress/trinity.sh [-t SECONDS] [-n SYSCALLS] [-s SEED]
#                                [-d DEVICES] [-C CHILDREN] [-o FILE]
#   -o FILE   keep trinity's own output there (it is printed when it failed)
set -uo pipefail

secs=20
count=20000
seed=1
ndev=2
children=2
keep=""
uid=65534
syscalls=(ioctl mmap munmap mremap mprotect madvise msync read write pread64 pwrite64
	readv writev poll ppoll select dup dup2 dup3 fcntl lseek newfstat flock fsync
	fdatasync)

usage() { sed -n '/^# Usage:/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while getopts "t:n:s:d:C:o:h" o; do
	case $o in
	t) secs=$OPTARG ;;
	n) count=$OPTARG ;;
	s) seed=$OPTARG ;;
	d) ndev=$OPTARG ;;
	C) children=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) usage; exit 2 ;;
	esac
done
say() { echo "# trinity: $*"; }

if ! command -v trinity >/dev/null; then
	say "trinity is not installed (apt-get install trinity)"
	exit 4
fi
if [ "$(id -u)" != 0 ]; then
	say "run me as root (in the dev VM): I make device nodes for an unprivileged user"
	exit 1
fi
[ -e /dev/vnpu0 ] || { say "no /dev/vnpu0: is vnpu.ko loaded?"; exit 1; }

# shared memory segments of uid $uid
shm_ids() {
	command -v ipcs >/dev/null || return 0
	ipcs -m -c 2>/dev/null | awk -v u="$uid" '$1 ~ /^[0-9]+$/ && ($3 == u || $3 == "nobody") { print $1 }'
}
shm0=$(shm_ids | tr '\n' ' ')
scratch=$(mktemp -d /tmp/vnpu-trinity.XXXXXX) || exit 1
mounted=0
tpid=""
cleanup() {
	[ -z "$tpid" ] || kill -KILL -- "-$tpid" 2>/dev/null
	# the System V segments trinity made (it leaves them behind)
	for id in $(shm_ids); do
		case " $shm0 " in *" $id "*) ;; *) ipcrm -m "$id" 2>/dev/null ;; esac
	done
	cd /
	[ "$mounted" = 0 ] || umount "$scratch" 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
if mount -t tmpfs -o size=64m,mode=0755 vnpu-trinity "$scratch"; then
	mounted=1
fi
nodes="$scratch/nodes"
run="$scratch/run"
mkdir -p "$nodes" "$run"

made=0
for ((i = 0; i < ndev; i++)); do
	[ -c "/dev/vnpu$i" ] || break
	read -r maj min < <(stat -c '0x%t 0x%T' "/dev/vnpu$i")
	for k in 0 1; do
		mknod -m 0600 "$nodes/vnpu$i-$k" c "$maj" "$min" || exit 1
	done
	made=$((made + 1))
done
[ $made -gt 0 ] || { say "no device node made"; exit 1; }
chown -R $uid:$uid "$nodes" "$run"
chmod 0500 "$nodes"
chmod 0700 "$run"

as_nobody=(setpriv "--reuid=$uid" "--regid=$uid" --clear-groups)

# nobody cannot write to the results share
if [ -d /vnpu-results ]; then
	probe=/vnpu-results/.trinity-probe.$$
	if "${as_nobody[@]}" sh -c "echo x >$probe" 2>/dev/null; then
		rm -f "$probe"
		say "uid $uid can write to /vnpu-results: refusing to run trinity"
		exit 1
	fi
fi
# and in a private mount namespace it does not even see it
ns=()
if [ -d /vnpu-results ] && unshare --mount --propagation private true 2>/dev/null; then
	ns=(unshare --mount --propagation private -- sh -c
		'mount -t tmpfs -o ro,size=4k,mode=0555 none /vnpu-results && exec "$@"' sh)
fi

args=(-q -l off -C "$children" -N "$count" -s "$seed" -V "$nodes" --enable-fds=pseudo)
for s in "${syscalls[@]}"; do
	args+=(-c "$s")
done
say "$made device(s), ${#syscalls[@]} syscalls, $children children, seed $seed," \
	"at most $count syscalls or ${secs}s, as uid $uid${ns:+, private mount namespace}"

taint0=$(cat /proc/sys/kernel/tainted)
out="$run/trinity.out"
start=$(date +%s.%N)
cd "$run" || exit 1
# its own session and process group: timeout signals the whole group
setsid "${ns[@]}" timeout -s INT -k 15 "$secs" "${as_nobody[@]}" \
	env -i PATH=/usr/bin:/bin HOME="$run" stdbuf -oL -eL trinity "${args[@]}" \
	</dev/null >"$out" 2>&1 &
tpid=$!
wait "$tpid"
rc=$?
end=$(date +%s.%N)
kill -KILL -- "-$tpid" 2>/dev/null
tpid=""

# every file trinity opened is closed before the module may go
for ((i = 0; i < 300; i++)); do
	busy=0
	for fd in /proc/[0-9]*/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in "$nodes"/*) busy=1; break ;; esac
	done
	[ $busy = 0 ] && break
	sleep 0.1
done

[ -z "$keep" ] || cp "$out" "$keep"
grep -E '^\[main\] (Ran|Bailing|kernel|.*taint)|[Tt]aint' "$out" | head -n 20 |
	sed 's/^/# trinity: /'
n=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' "$out" | tail -n1)
okn=$(sed -n 's/.*Successes: *\([0-9][0-9]*\).*/\1/p' "$out" | tail -n1)
failn=$(sed -n 's/.*Failures: *\([0-9][0-9]*\).*/\1/p' "$out" | tail -n1)
s=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "# figure: trinity syscalls=${n:-0} seconds=$s ok=${okn:-0} failed=${failn:-0}" \
	"seed=$seed devices=$made children=$children exit=$rc"

fail=0
taint1=$(cat /proc/sys/kernel/tainted)
if [ "$taint1" != "$taint0" ]; then
	say "the kernel became tainted during the run: $taint0 -> $taint1"
	fail=1
fi
if [ -z "$n" ] || [ "$n" = 0 ]; then
	say "trinity ran no syscall (exit $rc); its output:"
	tail -n 40 "$out" | sed 's/^/# trinity: | /'
	fail=1
fi
[ "$busy" = 0 ] || { say "a process still holds a vnpu file"; fail=1; }
exit $fail
