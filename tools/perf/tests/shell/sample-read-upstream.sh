#!/bin/sh
# samples with read values (-e '{a,b}:S', 'a:S') made by the system perf: script and report equal upstream's
# perf test timeout: 240
. "$(dirname "$0")"/lib.sh
#
# Upstream delivers such a sample once per read value that grew since the previous sample
# reading the same id (per thread for an inherited counter), as a sample of that member with
# the growth as its period. Recorded here at test time: a group of two, a group of three with
# -g, a group with a tracepoint, a single inherited 'page-faults:S' over forking children, and
# a -g group of find /usr for children mode with inline frames.
# The side-by-side group view of report is refused (exit 129) for now; --no-group is exact,
# and so are --stats and --tasks, which show no group view.

need_perf
need_upstream_perf
need_system_perf_record

rec() {
	name=$1
	shift
	"$SYSTEM_PERF" record -q -o "$name.data" "$@" >/dev/null 2>"$name.rec.err" ||
		{ verbose "$(cat "$name.rec.err")"; return 1; }
}
wl='find /usr/share/doc -name *.gz'
# shellcheck disable=SC2086
rec two -e '{cpu-clock,page-faults}:S' -- $wl || skip "$SYSTEM_PERF cannot record a :S group here"
# shellcheck disable=SC2086
rec three -e '{cpu-clock,page-faults,minor-faults}:S' -g -- $wl || fail "three-member group"
rec single -e 'page-faults:S' -c 5 -- sh -c 'ls /usr >/dev/null; ls /usr/lib >/dev/null; ls / >/dev/null' ||
	fail "single page-faults:S"
datas="two three single"
# shellcheck disable=SC2086
if rec tp -e '{cpu-clock,syscalls:sys_enter_openat}:S' -- $wl; then
	datas="$datas tp"
else
	not_tested "the tracepoint group: tracefs is not available"
fi

# one copy of this boot's kernel symbols for both
cp /proc/kallsyms kallsyms || fail "cannot copy /proc/kallsyms"

strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)' "$1"
}

failed=""
# compare NAME CMD-AND-OPTIONS...: ours and upstream's stdout and exit code, one after the other
compare() {
	case=$1
	shift
	"$UPSTREAM_PERF" "$@" --kallsyms=kallsyms >"$case.want" 2>/dev/null
	rc_want=$?
	[ $rc_want = 2 ] && skip "upstream perf could not be set up"
	"$PERF" "$@" --kallsyms=kallsyms >"$case.out" 2>"$case.err"
	rc_got=$?
	strip "$case.want" >want
	strip "$case.out" >got
	if [ $rc_want != $rc_got ] || ! cmp -s want got; then
		# kept for the failure: a live recording that differs once must say how
		{
			echo "--- $case ($*): upstream (exit $rc_want) vs ours (exit $rc_got) ---"
			diff want got | head -20
		} >>failed.diff
		failed="$failed $case"
	fi
}

for d in $datas; do
	grep -q . "$d.data" || fail "$d.data is empty"
	compare "$d.script" script -i "$d.data"
	compare "$d.script.F1" script -i "$d.data" -F comm,tid,period,event,ip,sym
	compare "$d.script.F2" script -i "$d.data" -F event,period,time,cpu
	compare "$d.report" report --stdio -i "$d.data" --no-group --no-children
	compare "$d.report.n" report --stdio -i "$d.data" --no-group --no-children --sort pid,sym -n
done
compare three.caller report --stdio -i three.data --no-group --no-children -g caller
compare single.default report --stdio -i single.data
# what shows no group view is not refused
compare two.stats report --stdio -i two.data --stats
compare three.tasks report --stdio -i three.data --tasks
# children mode with libc's inline frames (its debug file, where installed): a function
# listed twice in one inline chain counts once; symbols in a tree that holds inlined ones
# have no order, so an entry can be added twice and merged by the comm collapse (its
# branches then print as addresses), as upstream's
rec inl -e '{cpu-clock,task-clock}:S' -g -- find /usr -name '*.gz' || fail "recording -g of find /usr"
compare inl.caller report --stdio -i inl.data --no-group --children -g caller
compare inl.callee report --stdio -i inl.data --no-group --children -g callee
compare inl.sym report --stdio -i inl.data --no-group --children --sort dso,sym
grep -q '(inlined)' inl.caller.out || not_tested "inline frames: none in inl.data (no debug info for libc?)"
[ -z "$failed" ] || fail "different from upstream:$failed
$(head -60 failed.diff)"

# a pipe shows its attrs late: the same, from its first group sample on
# shellcheck disable=SC2086
"$SYSTEM_PERF" record -q -o - -e '{cpu-clock,page-faults}:S' -- $wl 2>/dev/null >pipe.data ||
	fail "recording a :S group to a pipe"
"$UPSTREAM_PERF" script -i - --kallsyms=kallsyms <pipe.data >want 2>/dev/null
"$PERF" script -i - --kallsyms=kallsyms <pipe.data >got 2>err || fail "script of the pipe: $(cat err)"
cmp -s want got || fail "script of a pipe of a :S group differs from upstream"
"$PERF" report --stdio -i - <pipe.data >out 2>err
rc=$?
[ $rc = 129 ] || fail "report of a pipe of a sampling group exited $rc, not 129"
expect_grep "^perf report: the report of sampling groups" err "the refusal of a pipe's group view"

# the group view is refused in one line; -T keeps its own refusal of read values
"$PERF" report --stdio -i two.data >out 2>err
rc=$?
[ $rc = 129 ] || fail "report of a sampling group exited $rc, not 129"
expect_grep "^perf report: the report of sampling groups \(PERF_SAMPLE_READ of a group" err \
	"the refusal of the group view"
"$PERF" report --stdio --group -i two.data >out 2>err && fail "--group was not refused"
"$PERF" report --stdio -T -i two.data >out 2>err
rc=$?
[ $rc = 129 ] || fail "report -T exited $rc, not 129"
expect_grep "^perf report: -T of recordings with PERF_SAMPLE_READ counts is not supported yet" err \
	"the -T refusal"
pass
