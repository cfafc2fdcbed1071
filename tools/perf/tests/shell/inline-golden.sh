#!/bin/sh
# Inline frames (on by default) and source lines: script and report equal upstream perf 7.2's
# perf test timeout: 240
. "$(dirname "$0")"/lib.sh
#
# Each case of tests/data/expected/inline-cases.txt runs ours on a perf72 golden recording
# and compares with upstream's output in inline-CASE.txt.zst (made by regen.sh there):
# default report modes (children, no-children, folded, caller order), --max-stack counting a
# frame's inlined functions with it, script -F srcline, report --sort srcline and -F srcline
# (their branches merged by source line print as addresses, as upstream's merge drops their
# symbols) in both modes (children: a caller's entry takes its callchain frame's line),
# -g's srcline and address keys, --inline. The golden perf script files
# themselves (NAME.script.txt: upstream's default, with inline frames) are compared by
# script-golden.sh.

need_perf
need_cmd zstd
need_fixture perf72/upstream
G=$FIXTURES/perf72
E=$(dirname "$0")/../data/expected
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# the tip line is picked at random, upstream's too
strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)' "$1"
}

# the dwarf recording's chains need user-space DWARF unwinding: entry lines and headers only
entries() {
	strip "$1" | grep -E '^#|^ +[0-9]+\.[0-9]+%'
}

failed=""
n=0
# shellcheck disable=SC2034
grep -v '^#' "$E/inline-cases.txt" >cases
while read -r case rec args; do
	zstd -dcq "$E/inline-$case.txt.zst" >"$case.want.raw" || fail "cannot read inline-$case.txt.zst"
	# shellcheck disable=SC2086
	"$PERF" $args --symfs="$G/symfs" --kallsyms=kallsyms -i "$G/data/$rec.data" \
		>"$case.got.raw" 2>"$case.err"
	case $rec in
	*.dwarf) entries "$case.want.raw" >"$case.want"; entries "$case.got.raw" >"$case.got" ;;
	*) strip "$case.want.raw" >"$case.want"; strip "$case.got.raw" >"$case.got" ;;
	esac
	[ -s "$case.want" ] || fail "$case: the expected output is empty"
	if ! cmp -s "$case.want" "$case.got"; then
		verbose "--- $case: upstream vs ours ($(head -2 "$case.err")) ---"
		verbose "$(diff "$case.want" "$case.got" | head -30)"
		failed="$failed $case"
	fi
	n=$((n + 1))
done <cases
[ -z "$failed" ] || fail "differs from upstream:$failed"
# -g's branch key (branch stacks) is not supported: refused in one line, exit 129
"$PERF" report --stdio -g caller,branch -i "$G/data/calls.fp.data" >br.out 2>br.err
rc=$?
[ $rc = 129 ] || fail "report -g caller,branch exited $rc, not 129"
expect_grep "callchain sort key 'branch' is not supported" br.err "the -g branch refusal"
[ $n -gt 80 ] || fail "only $n cases ran"
verbose "$n cases equal upstream's"
exit 0
