#!/bin/sh
# perf inject of user stack dumps: repair data (-g --defer fallback) and, with --convert-callchain, --call-graph dwarf (ours, perf 6.1's, mixed events, pipes) unwound into the chain, dumps dropped
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300
. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/lib/inject-readers.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
inject_readers_init

# sample_type of the file's first event line in --header-only
sample_type() {
	"$PERF" script --header-only -i "$1" | sed -n 's/.*sample_type = \([A-Z_|]*\).*/\1/p' | head -1
}
has_dump() {
	case $(sample_type "$1") in *REGS_USER*STACK_USER*) return 0 ;; esac
	return 1
}

# our fallback recording: inline FP chains + user regs + a small dump, repaired by readers
"$PERF" record -q -g --defer -e cpu-clock -F 2000 -o rep.data -- "$WORKLOAD_PERF" test -w calls 0.4 \
	>rep.log 2>&1 || fail "perf record -g --defer failed: $(tail -1 rep.log)"
has_dump rep.data || fail "the --defer recording has no repair data here: $(sample_type rep.data)"
"$PERF" inject -i rep.data -o rep.inj.data 2>inj.err || fail "perf inject of the repair data failed: $(cat inj.err)"
! has_dump rep.inj.data || fail "perf inject kept the regs and dumps: $(sample_type rep.inj.data)"
inject_readers rep rep.data rep.inj.data
grep -q calls_leaf rep.out.txt || fail "no calls_leaf in the injected repair-data file"
"$PERF" inject --keep-stack -i rep.data -o rep.keep.data 2>inj.err || fail "perf inject --keep-stack failed: $(cat inj.err)"
has_dump rep.keep.data || fail "perf inject --keep-stack dropped the dumps: $(sample_type rep.keep.data)"
"$PERF" script -i rep.keep.data >keep.txt 2>keep.err || fail "perf script of the --keep-stack file failed"
cmp -s rep.in.txt keep.txt || fail "perf script of the --keep-stack file differs from the recording's:
$(diff rep.in.txt keep.txt | head -12)"

# --call-graph dwarf,8192, ours: as recorded without --convert-callchain, unwound with it
"$PERF" record -q --call-graph dwarf,8192 -e cpu-clock -F 1000 -o dw.data -- "$WORKLOAD_PERF" test -w calls 0.4 \
	>dw.log 2>&1 || fail "perf record --call-graph dwarf failed: $(tail -1 dw.log)"
"$PERF" inject -i dw.data -o dw.same.data 2>inj.err || fail "perf inject of the dwarf file failed: $(cat inj.err)"
has_dump dw.same.data || fail "perf inject without --convert-callchain dropped the dumps"
"$PERF" script -i dw.data >dw.txt 2>/dev/null
"$PERF" script -i dw.same.data >dw.same.txt 2>/dev/null
cmp -s dw.txt dw.same.txt || fail "perf inject without --convert-callchain changed what the dwarf file shows"
"$PERF" inject --convert-callchain -i dw.data -o dw.inj.data 2>inj.err ||
	fail "perf inject --convert-callchain failed: $(cat inj.err)"
! has_dump dw.inj.data || fail "perf inject --convert-callchain kept the dumps: $(sample_type dw.inj.data)"
inject_readers dw dw.data dw.inj.data
# the issue's goal: a twentieth of the input or less
in_size=$(wc -c <dw.data)
out_size=$(wc -c <dw.inj.data)
[ $((out_size * 20)) -le "$in_size" ] ||
	fail "perf inject --convert-callchain of a dwarf,8192 file: $out_size bytes of $in_size, more than 1/20"
verbose "dwarf,8192: $in_size bytes -> $out_size ($((in_size / out_size))x smaller)"

# pipes: in, out, both
"$PERF" record -q --call-graph dwarf -e cpu-clock -F 1000 -o - -- "$WORKLOAD_PERF" test -w calls 0.3 \
	>dwp.data 2>dwp.log || fail "perf record --call-graph dwarf -o - failed: $(tail -1 dwp.log)"
"$PERF" script -i dwp.data >dwp.txt 2>dwp.err || fail "perf script of the dwarf pipe stream failed"
# a busy machine loses records: then every reader says so, of the injected stream too
ir_lost=$(grep 'lost [0-9]* chunks' dwp.err)
"$PERF" inject --convert-callchain <dwp.data >dwp.pipe 2>inj.err || fail "perf inject of a pipe to a pipe failed: $(cat inj.err)"
"$PERF" inject --convert-callchain -o dwp.file <dwp.data 2>inj.err || fail "perf inject of a pipe to a file failed: $(cat inj.err)"
"$PERF" inject --convert-callchain -i dw.data | "$PERF" script -i - >dwfp.txt 2>/dev/null ||
	fail "perf inject of a file to a pipe failed"
cmp -s dw.txt dwfp.txt || fail "perf inject of a file to a pipe: the stream shows other chains"
for o in dwp.pipe dwp.file; do
	"$PERF" script -i $o >o.txt 2>o.err || fail "perf script of $o failed: $(head -1 o.err)"
	cmp -s dwp.txt o.txt || fail "perf inject --convert-callchain to $o: other chains than the stream's"
done
if [ -n "$inject_have_sysperf" ]; then
	"$SYSTEM_PERF" script -i - <dwp.pipe >sysp.txt 2>sysp.err || fail "$SYSTEM_PERF script of the injected stream failed: $(tail -1 sysp.err)"
	[ -z "$(inject_warnings sysp.err)" ] ||
		fail "$SYSTEM_PERF script of the injected stream warned: $(inject_warnings sysp.err | head -1)"
	grep -q calls_leaf sysp.txt || fail "$SYSTEM_PERF script of the injected stream shows no calls_leaf"
fi

# the golden dwarf file (perf 6.1's, with its DSOs as a --symfs tree: the unwinder reads
# their CFI there, as perf script --symfs does)
need_fixture perf72/data
p72=$FIXTURES/perf72
gunzip -c "$p72/kallsyms.gz" >p72.kallsyms || fail "cannot unpack the perf72 kallsyms"
"$PERF" inject --convert-callchain --symfs="$p72/symfs" -i "$p72/data/calls_cet.dwarf.data" -o cet.inj.data \
	2>inj.err || fail "perf inject --convert-callchain of calls_cet.dwarf.data failed: $(cat inj.err)"
inject_readers cet "$p72/data/calls_cet.dwarf.data" cet.inj.data --symfs="$p72/symfs" --kallsyms=p72.kallsyms

# perf 6.1's own dwarf recordings, one event and mixed events (the fp one passes as it is)
if [ -n "$inject_have_sysperf" ] &&
	"$SYSTEM_PERF" record -q --call-graph dwarf,8192 -e cpu-clock -F 1000 -o sys.data -- \
		"$WORKLOAD_PERF" test -w calls 0.3 >sys.log 2>&1; then
	"$PERF" inject --convert-callchain -i sys.data -o sys.inj.data 2>inj.err ||
		fail "perf inject --convert-callchain of perf 6.1's dwarf file failed: $(cat inj.err)"
	inject_readers sys61 sys.data sys.inj.data
	"$SYSTEM_PERF" record -q -e cpu-clock/call-graph=dwarf/ -e task-clock/call-graph=fp/ -F 1000 \
		-o mix.data -- "$WORKLOAD_PERF" test -w calls 0.3 >mix.log 2>&1 ||
		fail "perf 6.1 record of mixed call graphs failed: $(tail -1 mix.log)"
	"$PERF" inject --convert-callchain -i mix.data -o mix.inj.data 2>inj.err ||
		fail "perf inject --convert-callchain of mixed events failed: $(cat inj.err)"
	"$PERF" script --header-only -i mix.data | grep '^# event.*task-clock' >fp.attr
	"$PERF" script --header-only -i mix.inj.data | grep '^# event.*task-clock' >fp.inj.attr
	cmp -s fp.attr fp.inj.attr || fail "perf inject changed the attr of the fp event of a mixed file"
	inject_readers mix mix.data mix.inj.data
else
	not_tested "perf 6.1's dwarf recordings: the system perf cannot record here"
fi
pass
