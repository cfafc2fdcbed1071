#!/bin/sh
# Option values: non-numbers refused with 129, -g's argument from the next word, --[no-]inline
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data/calls.fp.data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"
data=$G/data/calls.fp.data

# refused MESSAGE CMD ARGS...: perf CMD ARGS exits 129, its stderr starts with MESSAGE
# and goes on with the usage
refused() {
	msg=$1
	cmd=$2
	shift 2
	"$PERF" "$cmd" -i "$data" "$@" >ref.out 2>ref.err
	rc=$?
	[ $rc = 129 ] || fail "perf $cmd $* exited $rc, not 129: $(head -2 ref.err)"
	[ "$(head -1 ref.err)" = "$msg" ] ||
		fail "perf $cmd $* said '$(head -1 ref.err)', not '$msg'"
	[ -s ref.out ] && fail "perf $cmd $* printed output"
	return 0
}

num=" Error: option \`max-stack' expects a numerical value"
for v in x "" 5x 0x10 99999999999 " 5"; do
	refused "$num" report --stdio "--max-stack=$v"
	refused "$num" script "--max-stack=$v"
done
grep -q '^ Usage: perf script ' ref.err || fail "no usage after a bad --max-stack"
pct=" Error: option \`percent-limit' expects a numerical value"
for v in abc "" 5x inf nan; do
	refused "$pct" report --stdio "--percent-limit=$v"
done
refused "$pct" report --stdio --percent-limit abc
mb=" Error: option \`deferred-max-mb' expects an unsigned numerical value"
for v in -1 x "" 99999999999999999999999; do
	refused "$mb" report --stdio "--deferred-max-mb=$v"
	refused "$mb" script "--deferred-max-mb=$v"
done
refused " Error: option \`max-stack' requires a value" report --stdio --max-stack
refused " Error: option \`stdio' takes no value" report --stdio=1

# the same words upstream prints, where upstream refuses too
if upstream_perf; then
	"$UPSTREAM_PERF" report --stdio --max-stack=x -i "$data" >/dev/null 2>up.err
	rc=$?
	if [ $rc != 2 ]; then
		[ $rc = 129 ] || fail "upstream exited $rc for --max-stack=x (the oracle changed?)"
		"$PERF" report --stdio --max-stack=x -i "$data" 2>our.err
		cmp -s up.err our.err || fail "--max-stack=x: our error and usage differ from upstream's"
	else
		not_tested "the comparison with upstream: upstream perf unavailable ($(tail -1 up.err))"
	fi
else
	not_tested "the comparison with upstream: no upstream perf"
fi

# good numbers still work
"$PERF" report --stdio --max-stack=3 --percent-limit=2.5 --deferred-max-mb=8 -i "$data" \
	--symfs="$G/symfs" --kallsyms=kallsyms >/dev/null 2>err || fail "good numbers refused: $(cat err)"

# -g: the next word is its argument unless it is missing or starts with '-'
rep() {
	out=$1
	shift
	"$PERF" report --stdio --symfs="$G/symfs" --kallsyms=kallsyms -i "$data" "$@" 2>"$out.err" |
		grep -v '^# (Tip: ' >"$out" || true
	[ -s "$out.err" ] && fail "perf report $* said: $(head -3 "$out.err")"
	[ -s "$out" ] || fail "perf report $* printed nothing"
}
same() {
	cmp -s "$1" "$2" || fail "perf report $3 differs from $4"
}
rep default.out
rep g.out -g
rep g_def.out -g graph,0.5,caller,function,percent
same g.out g_def.out "-g" "-g graph,0.5,caller,function,percent"
rep g_last.out --no-children -g
rep g_last_def.out --no-children --call-graph=graph,0.5,caller,function,percent
same g_last.out g_last_def.out "-g as the last word" "its default"
rep g_n.out -g -n
rep n_g.out -n --call-graph=graph,0.5,caller,function,percent
same g_n.out n_g.out "-g -n" "-n --call-graph=DEFAULT"
rep g_stdio.out -g --no-children
same g_stdio.out g_last.out "-g --no-children" "--no-children -g"
rep callee.out --no-children -g callee
rep callee2.out --no-children -gcallee
rep callee3.out --no-children --call-graph=callee
rep callee4.out --no-children --call-graph callee
same callee.out callee2.out "-g callee" "-gcallee"
same callee.out callee3.out "-g callee" "--call-graph=callee"
same callee.out callee4.out "-g callee" "--call-graph callee"
cmp -s callee.out g_last.out && fail "-g callee made no difference"
rep none.out -g none
rep nocg.out --no-call-graph
same none.out nocg.out "-g none" "--no-call-graph"
cmp -s none.out g.out && fail "-g none made no difference"
rep folded.out --no-children --call-graph=folded
grep -q ';' folded.out || fail "--call-graph=folded printed no folded chains"
rep ng.out -ng callee --no-children
rep ng2.out -n --no-children -g callee
same ng.out ng2.out "-ng callee" "-n -g callee"

# inline frames are on by default: --inline changes nothing, --no-inline leaves them out
for cmd in script report; do
	"$PERF" $cmd --symfs="$G/symfs" --kallsyms=kallsyms -i "$data" >inl.def 2>inl.err ||
		fail "perf $cmd failed: $(head -3 inl.err)"
	"$PERF" $cmd --inline --symfs="$G/symfs" --kallsyms=kallsyms -i "$data" >inl.on 2>inl.err ||
		fail "perf $cmd --inline failed: $(head -3 inl.err)"
	grep -v '^# (Tip' inl.def >inl.def.n
	grep -v '^# (Tip' inl.on >inl.on.n
	cmp -s inl.def.n inl.on.n || fail "perf $cmd --inline differs from the default"
	"$PERF" $cmd --no-inline --symfs="$G/symfs" --kallsyms=kallsyms -i "$data" 2>&1 >inl.out |
		grep . && fail "perf $cmd --no-inline complained"
	[ -s inl.out ] || fail "perf $cmd --no-inline printed nothing"
	grep -q '(inlined)' inl.out && fail "perf $cmd --no-inline printed inline frames"
	# calls.fp has one frame with inlined functions (rtld_timer_stop in ld.so's dl_main)
	grep -q 'rtld_timer_stop.*(inlined)' inl.on || fail "perf $cmd --inline: no inline frame"
done
pass
