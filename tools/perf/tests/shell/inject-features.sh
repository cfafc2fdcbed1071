#!/bin/sh
# perf inject passes the rest through: header features (file, pipe, cross-endian), tracing data, compressed input (-z to keep it so), and adds build ids (-b, --buildid-all, --mmap2-buildid-all, -B)
# SPDX-License-Identifier: GPL-2.0
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data
need_fixture real-defer/data
p72=$FIXTURES/perf72
gunzip -c "$p72/kallsyms.gz" >p72.kallsyms || fail "cannot unpack the perf72 kallsyms"
S="--symfs=$p72/symfs --kallsyms=p72.kallsyms"
[ -x "$SYSTEM_PERF" ] || not_tested "the system perf's view of the headers and build ids: no $SYSTEM_PERF"

# what only the rewrite changes: the data section's place and size, the file's time
header() {
	"$1" "$2" --header-only -I -i "$3" 2>&1 |
		grep -v -e '^# captured on' -e '^# data size' -e '^# feat offset' -e '^# data offset'
}

# every feature of a file as it was (the data has no rounds and no dumps to lose), seen by
# perf 6.1 and by us; a pipe's features in the file
for f in calls.fp sched thr.fpz; do
	"$PERF" inject -i "$p72/data/$f.data" -o $f.inj.data 2>inj.err || fail "perf inject of $f failed: $(cat inj.err)"
	# the input's compression is not the output's
	header "$PERF" script "$p72/data/$f.data" | grep -v '^# compressed' | sed 's/ COMPRESSED / /' >want.h
	header "$PERF" script $f.inj.data | sed 's/ COMPRESSED / /' >got.h
	cmp -s want.h got.h || fail "$f: the injected file's header differs:
$(diff want.h got.h | head -12)"
	if [ -x "$SYSTEM_PERF" ] && [ $f != thr.fpz ]; then
		header "$SYSTEM_PERF" report "$p72/data/$f.data" >want.h
		header "$SYSTEM_PERF" report $f.inj.data >got.h
		cmp -s want.h got.h || fail "$f: perf 6.1 sees another header in the injected file:
$(diff want.h got.h | head -12)"
	fi
	"$PERF" script $S -i "$p72/data/$f.data" >want.txt 2>/dev/null
	"$PERF" script $S -i $f.inj.data >got.txt 2>got.err || fail "perf script of the injected $f failed: $(head -1 got.err)"
	cmp -s want.txt got.txt || fail "$f: the injected file shows other samples:
$(diff want.txt got.txt | head -12)"
done
# tracepoints: the tracing data made it, fields and all
"$PERF" script -i sched.inj.data 2>/dev/null | grep -q 'prev_comm=' ||
	fail "the injected tracepoint file prints no tracepoint fields"

# compressed input: written whole unless -z, and -z compresses (perf 6.1 cannot read
# COMPRESSED2: upstream 7.2 is the reader there)
"$PERF" script --header-only -i thr.fpz.inj.data | grep -q '^# compressed' &&
	fail "perf inject of a compressed file wrote it compressed without -z"
"$PERF" inject -z -i "$p72/data/thr.fpz.data" -o thr.z.data 2>inj.err || fail "perf inject -z failed: $(cat inj.err)"
"$PERF" script --header-only -i thr.z.data | grep -q '^# compressed : Zstd' ||
	fail "perf inject -z did not compress"
[ "$(wc -c <thr.z.data)" -lt "$(wc -c <thr.fpz.inj.data)" ] || fail "perf inject -z wrote no smaller file"
"$PERF" script $S -i thr.z.data >got.txt 2>/dev/null
"$PERF" script $S -i "$p72/data/thr.fpz.data" >want.txt 2>/dev/null
cmp -s want.txt got.txt || fail "perf inject -z: the file shows other samples"
if upstream_perf; then
	"$UPSTREAM_PERF" script --no-inline $S -i thr.z.data >up.txt 2>up.err || fail "upstream perf script of the -z file failed: $(tail -1 up.err)"
	"$PERF" script --no-inline $S -i thr.z.data >ours.txt 2>/dev/null
	cmp -s up.txt ours.txt || fail "upstream perf script of the -z file differs from ours:
$(diff up.txt ours.txt | head -12)"
else
	not_tested "upstream perf 7.2 on the -z output: not available"
fi

# a pipe's features land in the file; a file's in the pipe
"$PERF" inject -i "$p72/data/calls.pipe.data" -o pipe.inj.data 2>inj.err || fail "perf inject of a pipe stream failed: $(cat inj.err)"
"$PERF" script --header -I -i "$p72/data/calls.pipe.data" 2>/dev/null | grep '^# [a-z]' |
	grep -v -e '^# captured on' -e '^# data ' -e '^# feat offset' -e '^# missing' >want.h
header "$PERF" script pipe.inj.data | grep '^# [a-z]' | grep -v '^# missing' >got.h
cmp -s want.h got.h || fail "the pipe's features differ in the injected file:
$(diff want.h got.h | head -12)"

# cross-endian input: a host-order file with the same header as the same input in host order
mkdir fx || fail "cannot make $TMPDIR/fx"
"$PERF" test -w defer-fixtures fx >fx.log 2>&1 || fail "perf test -w defer-fixtures failed"
"$PERF" inject -i fx/defer-main-task-swap.data -o swap.inj.data || fail "perf inject of a cross-endian file failed"
"$PERF" inject -i fx/defer-main-task-file.data -o host.inj.data || fail "perf inject of its host-order twin failed"
header "$PERF" script swap.inj.data >got.h
header "$PERF" script host.inj.data >want.h
cmp -s want.h got.h || fail "a cross-endian input's header differs from its host-order twin's:
$(diff want.h got.h | head -12)"

# build ids: -b adds the DSOs hit, --buildid-all every DSO mapped, each with its file's id
"$PERF" inject -b --symfs="$p72/symfs" -i "$p72/data/thr.fpz.data" -o b.data 2>inj.err || fail "perf inject -b failed: $(cat inj.err)"
"$PERF" inject --buildid-all --symfs="$p72/symfs" -i "$p72/data/thr.fpz.data" -o ball.data 2>inj.err ||
	fail "perf inject --buildid-all failed: $(cat inj.err)"
"$PERF" script $S -i b.data >got.txt 2>/dev/null
cmp -s want.txt got.txt || fail "perf inject -b: the file shows other samples"
# perf 6.1's buildid-list is the reader (we have none): entries with an id, sorted
ids() {
	"$SYSTEM_PERF" buildid-list -i "$1" 2>/dev/null | grep '^[0-9a-f]\{40\} ' | sort
}
if [ -x "$SYSTEM_PERF" ]; then
	[ -z "$(ids "$p72/data/thr.fpz.data")" ] || fail "the fixture has build ids already: no test of -b"
	ids b.data >hit.ids
	ids ball.data >all.ids
	grep -q ' /tmp/w/thr$' hit.ids || fail "perf inject -b added no build id for the workload: $(cat hit.ids)"
	[ -z "$(comm -23 hit.ids all.ids)" ] ||
		fail "perf inject -b added ids --buildid-all did not: $(comm -23 hit.ids all.ids)"
	if command -v readelf >/dev/null 2>&1; then
		while read -r id path; do
			want=$(readelf -n "$p72/symfs$path" 2>/dev/null | sed -n 's/.*Build ID: //p')
			[ "$id" = "$want" ] || fail "perf inject --buildid-all: $path has id $id, readelf says '$want'"
		done <all.ids
	else
		not_tested "the build ids against readelf: no readelf"
	fi
	verbose "-b: $(wc -l <hit.ids) ids, --buildid-all: $(wc -l <all.ids)"
fi
# --mmap2-buildid-all: each file mapping's MMAP an MMAP2 with its file's id, samples the same
"$PERF" inject --mmap2-buildid-all --symfs="$p72/symfs" -i "$p72/data/thr.fpz.data" -o m2.data 2>inj.err ||
	fail "perf inject --mmap2-buildid-all failed: $(cat inj.err)"
"$PERF" script $S -i m2.data >got.txt 2>/dev/null
cmp -s want.txt got.txt || fail "perf inject --mmap2-buildid-all: the file shows other samples"
"$PERF" script -i m2.data --show-mmap-events 2>/dev/null | grep ' PERF_RECORD_MMAP' >m2.maps
n=0
while read -r line; do
	path=${line##* }
	[ -f "$p72/symfs$path" ] || continue
	case $line in
	*PERF_RECORD_MMAP2*\<*\>*) ;;
	*) fail "perf inject --mmap2-buildid-all left a map of $path without its id: $line" ;;
	esac
	id=$(echo "$line" | sed 's/.*<\([0-9a-f]*\)>.*/\1/')
	if command -v readelf >/dev/null 2>&1; then
		want=$(readelf -n "$p72/symfs$path" 2>/dev/null | sed -n 's/.*Build ID: //p')
		[ "$id" = "$want" ] || fail "perf inject --mmap2-buildid-all: $path has id $id, readelf says '$want'"
	fi
	n=$((n + 1))
done <m2.maps
[ $n -gt 0 ] || fail "perf inject --mmap2-buildid-all: no map of a file of the symfs"
# -B: only the maps samples hit, each an MMAP2 with its id before its first sample; the same samples
"$PERF" inject -B --symfs="$p72/symfs" -i "$p72/data/thr.fpz.data" -o lazy.data 2>inj.err ||
	fail "perf inject -B failed: $(cat inj.err)"
"$PERF" script $S -i lazy.data >got.txt 2>/dev/null
cmp -s want.txt got.txt || fail "perf inject -B: the file shows other samples:
$(diff want.txt got.txt | head -8)"
"$PERF" script -i lazy.data --show-mmap-events 2>/dev/null | grep ' PERF_RECORD_MMAP' >lazy.maps
# a file's map (its path last): an MMAP2 with the id; [vdso], [kernel...] pass as they were
awk '$NF ~ /^\// && !/ PERF_RECORD_MMAP2 .*<[0-9a-f]+>/' lazy.maps >lazy.bad
[ -s lazy.bad ] && fail "perf inject -B wrote a map of a file without its build id: $(head -2 lazy.bad)"
# and only of files some sample's ip or callchain is in
awk '$NF ~ /^\// { print $NF }' lazy.maps | sort -u >lazy.paths
while read -r path; do
	grep -q "($path)" want.txt || fail "perf inject -B wrote a map of $path, which no sample hits"
done <lazy.paths
[ -s lazy.paths ] || fail "perf inject -B wrote no map of a file"
# read values (a leader-sampled group): each sample written whole, not one per value
if "$PERF" record -q -e '{cpu-clock,task-clock}:S' -g -o grp.data -- "$WORKLOAD_PERF" test -w calls 0.2 >grp.log 2>&1; then
	"$PERF" inject -i grp.data -o grp.inj.data 2>inj.err || fail "perf inject of a group failed: $(cat inj.err)"
	"$PERF" script -i grp.data >want.txt 2>/dev/null
	"$PERF" script -i grp.inj.data >got.txt 2>/dev/null
	cmp -s want.txt got.txt || fail "perf inject of a group with read values: other samples:
$(diff want.txt got.txt | head -12)"
else
	not_tested "read values: perf record of a group failed here ($(tail -1 grp.log))"
fi
pass
