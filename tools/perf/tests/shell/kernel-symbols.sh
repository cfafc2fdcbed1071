#!/bin/sh
# Kernel symbols: only from a kallsyms of the recorded build id (cache, --symfs, --kallsyms), init text of -a profiles
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# hex_bytes HEXSTRING: the bytes as od -tx1 prints them, one a line
hex_bytes() {
	echo "$1" | sed 's/../&\n/g' | grep .
}

# patch FILE OLD NEW: every occurrence of the byte string OLD (hex) in FILE becomes NEW
patch() {
	offs=$(od -An -v -tx1 "$1" | tr -s ' ' '\n' | grep . | awk -v pat="$2" '
		BEGIN { n = length(pat) / 2 }
		{ b[NR % n] = $0; if (NR < n) next
		  w = ""; for (i = NR - n + 1; i <= NR; i++) w = w b[i % n]
		  if (w == pat) print NR - n }')
	[ -n "$offs" ] || fail "$2 is not in $1"
	esc=$(hex_bytes "$3" | while read -r b; do printf '\\%03o' "0x$b"; done)
	for off in $offs; do
		# shellcheck disable=SC2059
		printf "$esc" | dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null ||
			fail "cannot patch $1 at $off"
	done
}

# kernel_frames FILE: the callchain lines of kernel addresses
kernel_frames() {
	grep -E '^	 *ffffffff[0-9a-f]{8} ' "$1"
}

# The golden recording's kernel build id, replaced by one no running kernel has
real_id=85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26
fake_id=ee0000000000000000000000000000000000ee01
cp "$G/data/calls.fp.data" foreign.data && chmod u+w foreign.data || fail "cannot copy calls.fp.data"
patch foreign.data $real_id $fake_id
mkdir -p home nocache

# 1. a foreign kernel with no kallsyms of its build id: unknown symbols and perf's warning, once
HOME=$PWD/home PERF_BUILDID_DIR=$PWD/nocache "$PERF" script -i foreign.data >mismatch.out \
	2>mismatch.err || fail "perf script of a foreign kernel's recording failed: $(cat mismatch.err)"
want="No kallsyms or vmlinux with build-id $fake_id was found"
[ "$(cat mismatch.err)" = "$want" ] ||
	fail "stderr is '$(cat mismatch.err)', want exactly '$want'"
kernel_frames mismatch.out >mismatch.k
[ -s mismatch.k ] || fail "no kernel frames in the script of calls.fp.data"
if grep -v '\[unknown\] (\[kernel.kallsyms\])$' mismatch.k >named.k; then
	fail "a foreign kernel's address got a name from this machine: $(head -1 named.k)"
fi
HOME=$PWD/home PERF_BUILDID_DIR=$PWD/nocache "$PERF" report --stdio -i foreign.data \
	>report.out 2>report.err || fail "perf report of a foreign kernel's recording failed"
[ "$(cat report.err)" = "$want" ] || fail "report's stderr is '$(cat report.err)', want '$want'"

# 2. --kallsyms is trusted: the names the golden recording has with its own kallsyms
"$PERF" script -i "$G/data/calls.fp.data" --kallsyms=kallsyms >golden.out 2>golden.err ||
	fail "perf script --kallsyms of calls.fp.data failed"
kernel_frames golden.out >golden.k
grep -q -v '\[unknown\]' golden.k || fail "no kernel symbol resolved with --kallsyms"
HOME=$PWD/home PERF_BUILDID_DIR=$PWD/nocache "$PERF" script -i foreign.data --kallsyms=kallsyms \
	>trusted.out 2>trusted.err || fail "perf script --kallsyms of foreign.data failed"
[ ! -s trusted.err ] || fail "--kallsyms is not trusted: $(cat trusted.err)"
cmp -s golden.out trusted.out || fail "--kallsyms output differs once the build id changed"

# 3. the build-id cache perf record fills: $PERF_BUILDID_DIR, ~/.debug, old layout, --symfs
check_cache() {	# what env...
	what=$1
	shift
	env "$@" "$PERF" script -i foreign.data >cache.out 2>cache.err ||
		fail "perf script with the kallsyms in $what failed: $(cat cache.err)"
	[ ! -s cache.err ] || fail "kallsyms in $what not found: $(cat cache.err)"
	cmp -s golden.out cache.out || fail "kallsyms in $what: output differs from --kallsyms"
}
mkdir -p "cache/[kernel.kallsyms]/$fake_id" "home/.debug/[kernel.kallsyms]" \
	"symfs$PWD/nocache/[kernel.kallsyms]/$fake_id"
cp kallsyms "cache/[kernel.kallsyms]/$fake_id/kallsyms"
check_cache '$PERF_BUILDID_DIR' HOME="$PWD/home" PERF_BUILDID_DIR="$PWD/cache"
cp kallsyms "home/.debug/[kernel.kallsyms]/$fake_id"
check_cache '~/.debug (old layout)' HOME="$PWD/home" PERF_BUILDID_DIR=
rm "home/.debug/[kernel.kallsyms]/$fake_id"
cp kallsyms "symfs$PWD/nocache/[kernel.kallsyms]/$fake_id/kallsyms"
HOME=$PWD/home PERF_BUILDID_DIR=$PWD/nocache "$PERF" script --symfs="$PWD/symfs" \
	-i foreign.data >symfs.out 2>symfs.err || fail "perf script --symfs failed"
[ ! -s symfs.err ] || fail "kallsyms in the cache under --symfs not found: $(cat symfs.err)"
kernel_frames golden.out >golden.k; kernel_frames symfs.out >symfs.k
cmp -s golden.k symfs.k || fail "kallsyms under --symfs: output differs from --kallsyms"

# 4. init text lies past the kernel MMAP (it ends at _etext): once the kernel's symbols are
# loaded perf moves the kernel map over them. ffffffff816d5ca0, a frame of a late sample of
# sys.fp.data, becomes start_kernel+0x10 (the kallsyms has start_kernel at ffffffff83780b10).
cp "$G/data/sys.fp.data" init.data && chmod u+w init.data || fail "cannot copy sys.fp.data"
patch init.data a05c6d81ffffffff 200b7883ffffffff
"$PERF" script -i init.data --kallsyms=kallsyms >init.out 2>init.err ||
	fail "perf script of init.data failed: $(cat init.err)"
expect_grep '^	 *ffffffff83780b20 start_kernel\+0x10 \(\[kernel.kallsyms\]\)$' init.out \
	"an init text address is not start_kernel+0x10 ([kernel.kallsyms])"
# The load comes with the first kernel address the recorded map has: one before it (here the
# first frame of calls.fp.data's first sample) stays unknown, as in perf.
cp "$G/data/calls.fp.data" first.data && chmod u+w first.data || fail "cannot copy calls.fp.data"
patch first.data 67602582ffffffff 200b7883ffffffff
"$PERF" script -i first.data --kallsyms=kallsyms >first.out 2>first.err ||
	fail "perf script of first.data failed: $(cat first.err)"
expect_grep '^	 *ffffffff83780b20 \[unknown\] \(\[unknown\]\)$' first.out \
	"an init text address before the kernel's load is not [unknown] ([unknown])"

# 5. the same against upstream perf 7.2, on the crafted file and on a live -a recording
upstream_perf || { not_tested "the comparisons with upstream: no upstream perf 7.2 (make test-deps as root)"; pass; }
U=$UPSTREAM_PERF
# user DSOs are left out (an empty --symfs): only the kernel's frames are compared
mkdir -p nosymfs
# Upstream once printed every kernel frame of the live file [unknown] and named them the next
# run: a difference is asked of upstream up to three times before it counts.
compare_upstream() {	# file kallsyms
	"$PERF" script -i "$1" --kallsyms="$2" --symfs="$PWD/nosymfs" >our.out 2>our.err ||
		fail "perf script of $1 failed: $(cat our.err)"
	kernel_frames our.out >our.k
	for try in 1 2 3; do
		"$U" script -i "$1" --kallsyms="$2" --symfs="$PWD/nosymfs" >up.out 2>up.err
		rc=$?
		[ $rc = 2 ] && { not_tested "the comparisons with upstream from $1 on: upstream perf unavailable ($(tail -1 up.err))"; pass; }
		[ $rc = 0 ] || fail "upstream perf script of $1 exited $rc: $(tail -1 up.err)"
		kernel_frames up.out >up.k
		cmp -s up.k our.k && return 0
		verbose "$1: upstream run $try differs: $(diff up.k our.k | head -4)"
		cp up.out "up.$try.out"
		cp up.err "up.$try.err"
	done
	fail "$1: kernel frames differ from upstream's: $(diff up.k our.k | head -4)"
}
compare_upstream init.data kallsyms
compare_upstream first.data kallsyms
if "$SYSTEM_PERF" record -q -a -g -o sys.data -- sleep 1 >record.log 2>&1; then
	cp /proc/kallsyms live.kallsyms || fail "cannot copy /proc/kallsyms"
	compare_upstream sys.data live.kallsyms
else
	not_tested "the live -a comparison: no -a recording here ($(tail -1 record.log))"
fi
pass
