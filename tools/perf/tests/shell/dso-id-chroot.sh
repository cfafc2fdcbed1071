#!/bin/sh
# perf record of a program chrooted in the Debian sid tree: the host's and sid's libc.so.6 (one path, two files) each resolve in their own file, as upstream 7.2
# perf test timeout: 300
# SPDX-License-Identifier: GPL-2.0
#
# perf record runs on this machine and records chroot(8), which maps this machine's libc and
# then execs perf test -w syscalls in the sid tree that make test-deps builds, which maps
# sid's: two MMAP2s of /usr/lib/x86_64-linux-gnu/libc.so.6 with two build ids. With the tree
# as --symfs, the workload's libc frames must all have symbols (sid's libc, or its debug file
# by build id); a table of one dso per path looks them up in the host's build id and prints
# [unknown]. Upstream 7.2 reads the same file through a copy of the tree's files (the
# wrapper's view of the tree has no /tmp), and its script and report must equal ours.

. "$(dirname "$0")"/lib.sh

need_perf
need_cmd readelf
need_sid
[ -x "$WORKLOAD_PERF" ] || fail "WORKLOAD_PERF=$WORKLOAD_PERF is not an executable"
sid=$SID
libc=/usr/lib/x86_64-linux-gnu/libc.so.6
ld=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
[ -f "$libc" ] && [ -f "$sid$libc" ] || skip "no $libc here or in $sid"
bid() {
	readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: *//p'
}
[ "$(bid "$libc")" != "$(bid "$sid$libc")" ] || skip "the sid tree's libc is this machine's"

# the same binary inside the chroot, at the same path: the tree's /tmp is this machine's
cp "$WORKLOAD_PERF" "$TMPDIR/perf" || fail "cannot copy $WORKLOAD_PERF"
prog=$TMPDIR/perf

# perf record on this machine, the workload chrooted (lib.sh's with_sid: nothing stays mounted)
with_sid "$prog" record -g -e cpu-clock -o "$TMPDIR/chroot.data" -- \
	chroot "$sid" "$prog" test -w syscalls 1 >record.log 2>&1 ||
	fail "perf record failed: $(tail -2 record.log)"

"$PERF" script -D -i chroot.data >dump.txt 2>&1 || fail "perf script -D failed"
n=$(grep -E "PERF_RECORD_MMAP2 .* r-xp $libc\$" dump.txt | sed 's/.*<\([0-9a-f]*\)>.*/\1/' |
	sort -u | wc -l)
[ "$n" = 2 ] || fail "expected two build ids of $libc in the MMAP2s, got $n"
# sid's libc text: [start, end) of its MMAP2 (the kernel puts the file's build id in it)
set -- $(grep -E "PERF_RECORD_MMAP2 .*<$(bid "$sid$libc")>\]: r-xp $libc\$" dump.txt | head -1 |
	sed 's/.*\[0x\([0-9a-f]*\)(0x\([0-9a-f]*\)).*/\1 \2/')
[ $# = 2 ] || fail "no MMAP2 of sid's libc text"
hex16() {
	printf '%016x' "$1"
}
lo=$(hex16 "0x$1")
hi=$(hex16 $((0x$1 + 0x$2)))

cases 2
with_sid "$PERF" script --no-inline --symfs "$sid" -i chroot.data >ours.txt 2>ours.err ||
	fail "perf script failed: $(tail -2 ours.err)"
# frames in sid's libc all with a symbol (frames in the host's, of chroot before its exec,
# have none under this symfs); addresses compared as 16 hex digits
awk -v lo="$lo" -v hi="$hi" '
	NF >= 3 && $1 ~ /^[0-9a-f]+$/ {
		a = sprintf("%16s", $1)
		gsub(/ /, "0", a)
		if (a >= lo && a < hi) { n++; if ($2 == "[unknown]") bad++ }
	}
	END { printf "%d %d\n", n, bad }' ours.txt >counts
read -r nlibc nbad <counts
verbose "$nlibc frames in sid's libc, $nbad of them [unknown]"
[ "$nlibc" -gt 100 ] || fail "only $nlibc frames in sid's libc"
if [ "$nbad" != 0 ]; then
	verbose "$(grep -m 20 "unknown] ($libc)" ours.txt)"
	fail "$nbad of $nlibc frames in sid's libc are [unknown]: looked up in the host's libc?"
fi

# upstream on a copy of the files under the symfs: sid's libc and ld.so, their debug files
# by build id, the workload's binary and the build-id cache perf record filled
if ! upstream_perf; then
	not_tested "upstream comparison (no upstream perf 7.2: make test-deps as root)"
	pass
fi
tree=$TMPDIR/symfs
mkdir -p "$tree${libc%/*}" "$tree${prog%/*}" || fail "cannot make $tree"
cp "$sid$libc" "$sid$ld" "$tree${libc%/*}/" && cp "$prog" "$tree$prog" ||
	fail "cannot copy into $tree"
for f in "$sid$libc" "$sid$ld"; do
	id=$(bid "$f")
	dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	if [ -f "$SID_DEBUG$dbg" ]; then
		mkdir -p "$tree${dbg%/*}" && cp "$SID_DEBUG$dbg" "$tree$dbg" ||
			fail "cannot copy $SID_DEBUG$dbg"
	fi
done
[ -d "$HOME/.debug" ] && cp -r "$HOME/.debug" "$tree/.debug"
for mode in script report; do
	if [ $mode = script ]; then
		set -- script --no-inline
	else
		set -- report --stdio --no-inline
	fi
	"$PERF" "$@" --symfs "$tree" -i chroot.data 2>/dev/null | grep -v '^# (Tip' >"$mode.ours" ||
		fail "perf $mode failed"
	"$UPSTREAM_PERF" "$@" --symfs "$tree" -i "$TMPDIR/chroot.data" 2>/dev/null |
		grep -v '^# (Tip' >"$mode.upstream" || fail "upstream perf $mode failed"
	if ! cmp -s "$mode.ours" "$mode.upstream"; then
		verbose "$(diff "$mode.ours" "$mode.upstream" | head -40)"
		fail "perf $mode differs from upstream 7.2's"
	fi
done
pass
