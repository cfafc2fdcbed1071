#!/bin/sh
# perf inject --aslr: every address moved, the reports the same (ours and upstream's), the user and kernel maps elsewhere; dumps, physical addresses and registers gone; file, pipe, cross-endian
# SPDX-License-Identifier: GPL-2.0
. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e task-clock:u -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
cases 4

# report FILE [READER]: the report's lines, [unknown] addresses aside (self only: a pipe
# has no children column, as upstream's)
report() {
	"${2:-$PERF}" report -i "$1" --stdio -q --no-children --sort comm,dso,sym 2>/dev/null |
		grep -v -E '0x[0-9a-f]{8,}' | sort
}

# starts FILE: the maps' starts, in order
starts() {
	"$PERF" script -i "$1" --show-mmap-events 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2\{0,1\} [-0-9/]*: \[\(0x[0-9a-f]*\)(.*/\1/p'
}

# the noploop workload with frame-pointer callchains, in user space
"$PERF" record -q -g -e task-clock:u -o u.data -- "$WORKLOAD_PERF" test -w noploop 0.5 \
	>rec.log 2>&1 || fail "record: $(tail -1 rec.log)"
"$PERF" inject -v --aslr -i u.data -o u.aslr.data 2>inj.log || fail "inject --aslr: $(tail -1 inj.log)"
report u.data >want.txt
report u.aslr.data >got.txt
grep -q noploop want.txt || fail "no noploop sample resolved in the recording"
cmp -s want.txt got.txt || fail "the report changed: $(diff want.txt got.txt | grep '^[<>]' | head -2 | tr '\n' ' ')"
# every map elsewhere, and every sample's ip and frames
starts u.data >want.starts
starts u.aslr.data >got.starts
[ -s want.starts ] && [ "$(wc -l <want.starts)" = "$(wc -l <got.starts)" ] ||
	fail "the maps: $(wc -l <want.starts) before, $(wc -l <got.starts) after"
[ -z "$(paste -d' ' want.starts got.starts | awk '$1 == $2')" ] ||
	fail "a map did not move: $(paste -d' ' want.starts got.starts | awk '$1 == $2' | head -1)"
# (a chain the kernel walked into data, argv's strings, ends in "addresses" between the top
# of user space, 2^47, and the kernel half, 2^63, such as 7364616f6c6572, "reloads": no
# address at all, they stay as they were)
ips() {
	"$PERF" script -i "$1" -F ip 2>/dev/null |
		awk 'NF && $1 != "0" {
			n = length($1); c = substr($1, 1, 1)
			if ((n == 12 && c ~ /[89a-f]/) || (n > 12 && n < 16) || (n == 16 && c ~ /[0-7]/))
				next
			print $1
		}'
}
ips u.data >want.ips
ips u.aslr.data >got.ips
[ "$(wc -l <want.ips)" -gt 100 ] && [ "$(wc -l <want.ips)" = "$(wc -l <got.ips)" ] ||
	fail "the frames: $(wc -l <want.ips) before, $(wc -l <got.ips) after"
[ -z "$(paste -d' ' want.ips got.ips | awk '$1 == $2')" ] || fail "a frame did not move"
# the callers stay the callers (0: the end of a chain the kernel cut, stays 0)
"$PERF" script -i u.data -F ip,sym 2>/dev/null | awk 'NF > 1 { print $2 }' >want.syms
"$PERF" script -i u.aslr.data -F ip,sym 2>/dev/null | awk 'NF > 1 { print $2 }' >got.syms
grep -q '^workload__noploop' want.syms && cmp -s want.syms got.syms ||
	fail "the callchains' symbols changed: $(diff want.syms got.syms | grep '^[<>]' | head -2 | tr '\n' ' ')"
# another run, another layout
"$PERF" inject --aslr -i u.data -o u.aslr2.data 2>inj.log || fail "inject --aslr: $(tail -1 inj.log)"
starts u.aslr2.data >got2.starts
! cmp -s got.starts got2.starts || fail "two runs gave the same layout"

# a pipe in and out
"$PERF" inject --aslr -i - -o - <u.data >p.aslr.data 2>inj.log && [ ! -s inj.log ] ||
	fail "inject --aslr from a file to a pipe: $(tail -1 inj.log)"
report p.aslr.data >got.txt
cmp -s want.txt got.txt || fail "through a pipe the report changed"

if upstream_perf; then
	report u.data "$UPSTREAM_PERF" >want.up
	report u.aslr.data "$UPSTREAM_PERF" >got.up
	grep -q noploop want.up && cmp -s want.up got.up ||
		fail "upstream 7.2's report changed: $(diff want.up got.up | grep '^[<>]' | head -2 | tr '\n' ' ')"
else
	not_tested "upstream 7.2 reading the moved file: no upstream perf (make test-deps)"
fi

# the kernel: slid, its symbols still found (kallsyms relocated from the map's pgoff)
if "$PERF" record -q -e task-clock:k -o k.data -- dd if=/dev/urandom of=/dev/null bs=1M count=20 \
	>rec.log 2>&1 && "$PERF" report -i k.data --stdio -q 2>/dev/null | grep -q '\[k\] [a-z_]'; then
	"$PERF" inject --aslr -i k.data -o k.aslr.data 2>inj.log || fail "inject --aslr -k: $(tail -1 inj.log)"
	report k.data >want.txt
	report k.aslr.data >got.txt
	cmp -s want.txt got.txt || fail "the kernel report changed: $(diff want.txt got.txt | grep '^[<>]' | head -2 | tr '\n' ' ')"
	starts k.data | head -1 >want.k
	starts k.aslr.data | head -1 >got.k
	! cmp -s want.k got.k || fail "the kernel map did not move"
	if upstream_perf; then
		report k.data "$UPSTREAM_PERF" >want.up
		report k.aslr.data "$UPSTREAM_PERF" >got.up
		cmp -s want.up got.up || fail "upstream 7.2's kernel report changed"
	fi
else
	not_tested "kernel samples: none resolved here (kptr_restrict or paranoid)"
fi

# what cannot move goes: physical addresses and dumps drop the sample, registers leave it
"$PERF" record -q -e task-clock:u --phys-data -o ph.data -- "$WORKLOAD_PERF" test -w noploop 0.2 \
	>rec.log 2>&1 || fail "record --phys-data: $(tail -1 rec.log)"
"$PERF" inject -v --aslr -i ph.data -o ph.aslr.data 2>inj.log || fail "inject: $(tail -1 inj.log)"
n=$("$PERF" script -i ph.data 2>/dev/null | wc -l)
[ "$n" -gt 0 ] && [ "$("$PERF" script -i ph.aslr.data 2>/dev/null | wc -l)" -eq 0 ] ||
	fail "--phys-data: samples written ($n before)"
expect_grep "^perf inject: --aslr: $n samples dropped: their physical addresses or user stack dumps" \
	inj.log "--phys-data: the dropped samples not counted with -v"
"$PERF" record -q -e task-clock:u --user-regs -o rg.data -- "$WORKLOAD_PERF" test -w noploop 0.2 \
	>rec.log 2>&1 || fail "record --user-regs: $(tail -1 rec.log)"
"$PERF" inject --aslr -i rg.data -o rg.aslr.data 2>inj.log || fail "inject: $(tail -1 inj.log)"
"$PERF" report -D -i rg.data 2>/dev/null | grep -q 'user regs' || fail "--user-regs recorded no regs"
! "$PERF" report -D -i rg.aslr.data 2>/dev/null | grep -q 'user regs' || fail "the user regs stayed"
! "$PERF" evlist -v -i rg.aslr.data 2>/dev/null | grep -q REGS_USER || fail "REGS_USER stayed in the attr"
report rg.data >want.txt
report rg.aslr.data >got.txt
cmp -s want.txt got.txt || fail "--user-regs: the report changed"
if "$PERF" record -q --call-graph dwarf,4096 -e task-clock:u -o dw.data -- \
	"$WORKLOAD_PERF" test -w noploop 0.2 >rec.log 2>&1; then
	"$PERF" inject --aslr -i dw.data -o dw.aslr.data 2>inj.log || fail "inject: $(tail -1 inj.log)"
	[ "$("$PERF" script -i dw.aslr.data 2>/dev/null | wc -l)" -eq 0 ] ||
		fail "dwarf: samples with their stack dumps written"
	"$PERF" inject --aslr --convert-callchain -i dw.data -o dw.conv.data 2>inj.log ||
		fail "inject --convert-callchain: $(tail -1 inj.log)"
	"$PERF" script -i dw.conv.data 2>/dev/null | grep -q ' noploop+' ||
		fail "dwarf with --convert-callchain: no noploop frame"
else
	not_tested "--call-graph dwarf: $(tail -1 rec.log)"
fi

# a cross-endian input (deferred callchains, stitched on the way) and its host-order twin
mkdir fx && "$PERF" test -w defer-fixtures fx >fx.log 2>&1 || fail "perf test -w defer-fixtures failed"
for f in swap file; do
	"$PERF" inject --aslr -i fx/defer-main-task-$f.data -o $f.aslr.data 2>inj.log ||
		fail "inject --aslr of defer-main-task-$f: $(tail -1 inj.log)"
	# against plain inject: unstitched samples lose their cookie either way
	"$PERF" inject -i fx/defer-main-task-$f.data -o $f.inj.data 2>inj.log ||
		fail "inject of defer-main-task-$f: $(tail -1 inj.log)"
	"$PERF" script -i $f.inj.data -F ip,sym 2>/dev/null | awk 'NF > 1 { print $2 }' >want.syms
	"$PERF" script -i $f.aslr.data -F ip,sym 2>/dev/null | awk 'NF > 1 { print $2 }' >got.syms
	[ -s want.syms ] && cmp -s want.syms got.syms || fail "defer-main-task-$f: the frames' symbols changed"
done

"$PERF" inject --aslr --keep-stack -i u.data -o ks.data >ks.log 2>&1
[ $? -eq 129 ] && grep -q "^perf inject: --aslr drops the samples whose stack dumps --keep-stack keeps" ks.log ||
	fail "--aslr --keep-stack not refused: $(head -1 ks.log)"
pass
