#!/bin/sh
# The pager and the progress line by their environment: report --stdio on a terminal through PERF_PAGER, else PAGER (LESS=FRSX), never with -P, a pipe input, cat, or stdout not a terminal; perf -p script paged; a pager that quits early ends perf quietly; a load over a second shows a progress line on a terminal's stderr, wiped, never in a file
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 180

. "$(dirname "$0")"/lib.sh

need_perf
need_cmd script timeout
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	skip "perf_event_open refused here: $(tail -1 probe.log)"
fi
"$WORKLOAD_PERF" record -q -g -e cpu-clock -o p.data -- "$WORKLOAD_PERF" test -w calls 0.3 >rec.log 2>&1 ||
	fail "record failed: $(tail -1 rec.log)"
"$PERF" report --stdio -i p.data >plain.txt 2>plain.err || fail "report into a file failed"
grep -q calls_leaf plain.txt || fail "the report names no calls_leaf"
"$WORKLOAD_PERF" record -q -g -e cpu-clock -o - -- "$WORKLOAD_PERF" test -w calls 0.3 >p.pipe 2>rec.log ||
	fail "record -o - failed: $(tail -1 rec.log)"

# on_tty CMD: CMD's stdout and stderr on a terminal (script's pty); the terminal's bytes in tty.out
on_tty() {
	rm -f tty.out
	timeout 60 script -qec "$1" tty.out >/dev/null 2>&1 </dev/null
}
# the pager writes what it got to paged.txt; env and arguments in $1
paged() {
	rm -f paged.txt
	on_tty "$1"
}

paged "PERF_PAGER='cat >$PWD/paged.txt' PAGER=false $PERF report --stdio -i $PWD/p.data"
[ -f paged.txt ] || fail "PERF_PAGER did not get report --stdio on a terminal"
# the same text as into a file, but for the random tip line
grep -v '^# (Tip' plain.txt >a; grep -v '^# (Tip' paged.txt >b
cmp -s a b || fail "the paged text differs from the file's: $(diff a b | head -3 | tr '\n' ' ')"
grep -q calls_leaf tty.out && fail "the report reached the terminal besides the pager"

paged "unset PERF_PAGER; PAGER='cat >$PWD/paged.txt' $PERF report --stdio -i $PWD/p.data"
[ -s paged.txt ] || fail "PAGER did not get the report when PERF_PAGER is unset"

paged "unset LESS; PERF_PAGER='echo \"LESS=\$LESS\" >$PWD/paged.txt; cat >/dev/null' $PERF report --stdio -i $PWD/p.data"
grep -q '^LESS=FRSX$' paged.txt || fail "the pager's LESS: $(cat paged.txt 2>/dev/null)"
paged "LESS=-M PERF_PAGER='echo \"LESS=\$LESS\" >$PWD/paged.txt; cat >/dev/null' $PERF report --stdio -i $PWD/p.data"
grep -q '^LESS=-M$' paged.txt || fail "the user's LESS was not kept: $(cat paged.txt 2>/dev/null)"

for how in "$PERF -P report" "$PERF --no-pager report"; do
	paged "PERF_PAGER='cat >$PWD/paged.txt' $how --stdio -i $PWD/p.data"
	[ -f paged.txt ] && fail "$how paged"
	grep -q calls_leaf tty.out || fail "$how: the report is not on the terminal"
done
paged "PERF_PAGER='cat >$PWD/paged.txt' $PERF report --stdio -i - <$PWD/p.pipe"
[ -f paged.txt ] && fail "report -i - (a pipe's reader) paged"
grep -q calls_leaf tty.out || fail "report -i -: the report is not on the terminal"
paged "PERF_PAGER=cat PAGER='cat >$PWD/paged.txt' $PERF report --stdio -i $PWD/p.data"
[ -f paged.txt ] && fail "PERF_PAGER=cat paged"
grep -q calls_leaf tty.out || fail "PERF_PAGER=cat: the report is not on the terminal"
paged "PERF_PAGER= PAGER='cat >$PWD/paged.txt' $PERF report --stdio -i $PWD/p.data"
[ -f paged.txt ] && fail "an empty PERF_PAGER paged"
paged "PERF_PAGER='cat >$PWD/paged.txt' $PERF report --stdio -i $PWD/p.data >$PWD/out.txt"
[ -f paged.txt ] && fail "stdout not a terminal, yet paged"
[ -s out.txt ] || fail "stdout into a file got nothing"

paged "PERF_PAGER='cat >$PWD/paged.txt' $PERF script -i $PWD/p.data"
[ -f paged.txt ] && fail "perf script paged without -p"
paged "PERF_PAGER='cat >$PWD/paged.txt' $PERF -p script -i $PWD/p.data"
grep -q calls_leaf paged.txt || fail "perf -p script was not paged"

# a pager that stops reading: perf ends, quietly, within the timeout
paged "PERF_PAGER='head -c 100 >$PWD/paged.txt' $PERF -p script -i $PWD/p.data; echo \"status \$?\""
[ -s paged.txt ] || fail "the early pager got nothing"
grep -qi 'write error\|broken pipe' tty.out && fail "perf complained when the pager quit: $(grep -i error tty.out | head -1)"
grep -Eq 'status (0|141)' tty.out || fail "perf's status after the pager quit: $(grep status tty.out)"

# progress: a load held over a second (the pipe's writer pauses) shows it on the terminal's
# stderr, and wipes it; the report itself goes to a file
half=$(($(stat -c %s p.pipe) / 2))
feed="{ head -c $half $PWD/p.pipe; sleep 1.5; tail -c +$((half + 1)) $PWD/p.pipe; }"
on_tty "$feed | $PERF report --stdio -i - >$PWD/prog.txt"
grep -q 'Processing events\.\.\.' tty.out || fail "no progress line on the terminal during a 1.5 s load"
grep -q "$(printf '\r\033\\[K')" tty.out || fail "the progress line was not wiped"
grep -q calls_leaf prog.txt || fail "the report after the progress line is missing"
grep -q 'Processing' prog.txt && fail "the progress line went into the report"
eval "$feed" | "$PERF" report --stdio -i - >prog2.txt 2>prog2.err
[ -s prog2.err ] && fail "progress (or anything) on stderr in a file: $(head -c 200 prog2.err)"
on_tty "$feed | $PERF report -q --stdio -i - >$PWD/prog.txt"
grep -q 'Processing' tty.out && fail "report -q showed progress"
# a short load shows none
on_tty "$PERF report --stdio -i $PWD/p.data >$PWD/prog.txt"
grep -q 'Processing' tty.out && fail "progress for a load under a second"
pass
