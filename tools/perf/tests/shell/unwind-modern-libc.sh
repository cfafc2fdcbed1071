#!/bin/sh
# perf record -g --defer (fallback: default repair dump) on bookworm's libc and in a Debian sid chroot (glibc >= 2.41): the workloads' callers right in >= 99.95% of samples
# perf test timeout: 600
# SPDX-License-Identifier: GPL-2.0
#
# This kernel has no deferred callchains, so `perf record -g --defer` records the kernel's
# inline FP chain, user regs and a stack dump of the default size, and perf script repairs
# the top frames. Where libc has no frame pointers between the program and the system call
# (glibc 2.41 and later: read -> __syscall_cancel -> __internal_syscall_cancel), the dump must
# hold their frames to reach the caller: that is what sets the default size. Each built-in
# workload of known call structure (perf test -w) runs on this machine's libc, and chrooted in
# the Debian sid tree that make test-deps builds for upstream perf (python3 in it, sid's libc
# debug files beside it: lib.sh's with_sid): perf record runs there too, so the recorded
# paths and build ids are the tree's. The callers are judged by callers.awk against the
# workloads' source.

. "$(dirname "$0")"/lib.sh

need_perf
need_cmd awk
[ -x "$WORKLOAD_PERF" ] || fail "WORKLOAD_PERF=$WORKLOAD_PERF is not an executable"
judge=$lib_dir/lib/callers.awk
[ -f "$judge" ] || fail "the judge $judge is missing"

# the workloads and, for each, the least number of samples it must give to be judged; each
# runs 2 s, some 4000 samples at 2000 Hz: the bar is a rate (one wrong in 2000), and a
# shorter run on a busy machine judges fewer than 2000, where one wrong sample fails it (sid's
# malloc: a sample in __set_vma_name under sysmalloc_mmap, once in some 16000, needs a dump
# 24 bytes over the default to reach malloc_loop's caller)
workloads="syscalls calls stdio pread condwait nanosleep poll malloc cxx python3"
min_judged=500
secs=2

# the normal build records (see WORKLOAD_PERF in lib.sh); inside the chroot the same binary,
# at the same path: the tree's /tmp is this machine's under with_sid
cp "$WORKLOAD_PERF" "$TMPDIR/perf" || fail "cannot copy $WORKLOAD_PERF"
prog=$TMPDIR/perf

"$prog" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1 ||
	skip "perf record fails here: $(tail -1 probe.log)"

sid_ok=
sid_why=$( (need_sid) 2>&1 | sed -n 's/^skip: //p')
if [ -z "$sid_why" ]; then
	if with_sid chroot "$SID" "$prog" record -q -e cpu-clock -o "$TMPDIR/sid-probe.data" \
		-- true >sid-probe.log 2>&1; then
		sid_ok=1
	else
		sid_why="perf record fails in the sid chroot: $(tail -1 sid-probe.log)"
	fi
fi

set -- $workloads
cases $((2 * $#))

# run WHERE NAME: record workload NAME on WHERE's libc (host or sid), judge its callers
run() {
	where=$1
	w=$2
	f=$TMPDIR/$where-$w.data
	symfs=
	if [ "$where" = sid ]; then
		# the sid python3 is the tree's, found in its PATH
		with_sid chroot "$SID" env PATH=/usr/bin:/bin HOME="$HOME" "$prog" record -g \
			--defer -F 2000 -e cpu-clock -o "$f" -- "$prog" test -w "$w" $secs \
			>"$where-$w.log" 2>&1
		symfs="--symfs $SID"
	else
		# the distribution's python3, not one of a user's PATH
		env PATH=/usr/bin:/bin "$prog" record -g --defer -F 2000 -e cpu-clock -o "$f" \
			-- "$prog" test -w "$w" $secs >"$where-$w.log" 2>&1
	fi || fail "$where: perf record of perf test -w $w failed: $(tail -2 "$where-$w.log")"
	grep -q "no deferred user callchains" "$where-$w.log" ||
		fail "$where: perf record -g --defer did not say it falls back: $(cat "$where-$w.log")"
	# shellcheck disable=SC2086
	if [ "$where" = sid ]; then
		with_sid "$PERF" script --no-inline $symfs --unwind-stats -i "$f"
	else
		"$PERF" script --no-inline --unwind-stats -i "$f"
	fi >"$where-$w.out" 2>"$where-$w.err" ||
		fail "$where: perf script -i $f failed: $(tail -2 "$where-$w.err")"
	awk -v workload="$w" -v prog="$prog" -f "$judge" "$where-$w.out" >"$where-$w.judged" \
		2>"$where-$w.wrong" || fail "$where: the judge failed on $w: $(cat "$where-$w.wrong")"
	set -- $(sed -n 's/^judged \([0-9]*\) right \([0-9]*\).*/\1 \2/p' "$where-$w.judged")
	[ $# = 2 ] || fail "$where: no verdict for $w: $(cat "$where-$w.judged")"
	verbose "$where $w: $2 of $1 samples with the right callers; $(grep -E 'joined|ended' \
		"$where-$w.err" | tr '\n' ' ')"
	[ "$1" -ge "$min_judged" ] ||
		fail "$where: only $1 samples of perf test -w $w judged (at least $min_judged)"
	# >= 99.95%: wrong * 2000 <= judged
	if [ $((($1 - $2) * 2000)) -gt "$1" ]; then
		verbose "$(head -60 "$where-$w.wrong")"
		fail "$where: perf test -w $w: $2 of $1 samples have the right callers (< 99.95%)"
	fi
}

for w in $workloads; do
	run host "$w"
	if [ -n "$sid_ok" ]; then
		run sid "$w"
	else
		not_tested "sid $w ($sid_why)"
	fi
done
pass
