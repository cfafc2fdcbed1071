#!/bin/sh
# perf record: -g, --defer (fallback), pipe mode, -z, errors, SIGINT: our files read back with the workload's call structure (exclusive)
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi

depth=2
want="calls_leaf calls_recurse calls_recurse calls_level8 calls_level7 calls_level6 calls_level5"
want="$want calls_level4 calls_level3 calls_level2 calls_level1 workload__calls"

# chains FILE: one line per sample of our perf script: its symbols, innermost first
chains() {
	awk 'NF == 0 { if (chain != "") print chain; chain = ""; next }
	     NF >= 2 && $1 ~ /^[0-9a-f]+$/ { s = $2; sub(/\+0x[0-9a-f]+$/, "", s)
		chain = chain (chain == "" ? "" : " ") s }
	     END { if (chain != "") print chain }' "$1"
}

# check_calls SCRIPT_OUTPUT WHAT: samples in calls_leaf all carry the whole chain
check_calls() {
	chains "$1" >chains.txt
	leaf=$(grep -c '^calls_leaf ' chains.txt)
	full=$(grep -c "^$want" chains.txt)
	verbose "$2: $(wc -l <chains.txt) samples, $leaf in calls_leaf, $full with the whole chain"
	# 0.3 s at 1000 Hz is about 300 samples, most in calls_leaf; 20 rules out a dead run
	[ "$leaf" -ge 20 ] || fail "$2: only $leaf samples in calls_leaf"
	# below calls_leaf's prologue the chain is deterministic: the few samples in its
	# first instruction (push %rbp) lack their caller in a frame-pointer walk
	[ $((leaf - full)) -le $((leaf / 20 + 1)) ] ||
		fail "$2: $((leaf - full)) of $leaf calls_leaf samples lack the full chain"
}

# -g: the file, read back by our script
"$PERF" record -q -e cpu-clock:u -F 1000 -g -o g.data -- "$WORKLOAD_PERF" test -w calls 0.3 $depth \
	>rec.log 2>&1 || fail "record -g failed: $(tail -1 rec.log)"
[ ! -s rec.log ] || fail "record -q printed: $(head -1 rec.log)"
"$PERF" script -i g.data >g.txt 2>g.err || fail "script of record -g failed: $(tail -1 g.err)"
[ ! -s g.err ] || fail "script of record -g warned: $(head -1 g.err)"
check_calls g.txt "record -g"

# HEADER_SAMPLE_TIME: the first and last sample's times, which perf report --time N% needs
# (it was never written)
times=$("$PERF" script -i g.data -F time | sed -n '1p;$p' | tr -d ': ' | tr '\n' ' ')
hdr=$("$PERF" script --header-only -i g.data | sed -n 's/^# time of [a-z]* sample : //p' | tr '\n' ' ')
[ -n "$times" ] && [ "$hdr" = "$times" ] ||
	fail "header sample times '$hdr', the samples' first and last '$times'"

# pipe mode into script, and the workload's stdout kept off the data pipe
"$PERF" record -e cpu-clock:u -F 1000 -g -o - -- "$WORKLOAD_PERF" test -w calls 0.3 $depth \
	2>pipe.log | "$PERF" script -i - >pipe.txt 2>pipe.err ||
	fail "record -o - | script -i - failed: $(tail -1 pipe.err) $(tail -1 pipe.log)"
check_calls pipe.txt "record -o - | script -i -"
expect_grep 'Captured and wrote' pipe.log "record -o - said nothing of what it wrote"

# no -o and a pipe for stdout: pipe mode, as perf 6.1 picks it (and no perf.data is made)
rm -f perf.data
"$PERF" record -q -e cpu-clock:u -- "$WORKLOAD_PERF" test -w noploop 0.1 2>fifo.log |
	"$PERF" script -i - >fifo.txt 2>fifo.err ||
	fail "record -- cmd | script -i - failed: $(tail -1 fifo.err) $(tail -1 fifo.log)"
grep -q ' noploop+' fifo.txt || fail "record with stdout a pipe: no pipe-mode stream of noploop"
[ ! -e perf.data ] || fail "record with stdout a pipe wrote perf.data"

# -o - is flushed at each round: a live reader gets the samples as they come, not once 64 KB
# have gathered (at 10 Hz, some 40 bytes a sample, a buffer takes minutes; the loop drains
# the rings at least every 0.5 s, so the first sample comes within a second or so)
mkfifo live.fifo
# made here: the background cat creates it only when it is scheduled, maybe after the first read
: >live.data
cat live.fifo >live.data &
"$PERF" record -q -e cpu-clock:u -F 10 -o - -- "$WORKLOAD_PERF" test -w noploop 30 \
	>live.fifo 2>live.log &
rpid=$!
n=0
while [ $n -lt 150 ] && ! "$PERF" script -i - <live.data 2>/dev/null | grep -q ' noploop+'; do
	sleep 0.1
	n=$((n + 1))
done
kill -INT $rpid
wait
# the stop flushes everything: only what came before it counts
[ $n -lt 150 ] || fail "record -o -: no sample reached the pipe within 15 s"
verbose "record -o -: the first samples read after $n tenths of a second"

# -z: COMPRESSED2 records, read back the same
"$PERF" record -q -z -e cpu-clock:u -F 1000 -g -o z.data -- "$WORKLOAD_PERF" test -w calls 0.3 $depth \
	>z.log 2>&1 || fail "record -z failed: $(tail -1 z.log)"
"$PERF" script -i z.data >z.txt 2>z.err || fail "script of record -z failed: $(tail -1 z.err)"
check_calls z.txt "record -z"
"$PERF" script --header-only -i z.data | grep -q '^# compressed : Zstd, level = 1' ||
	fail "record -z: no compressed feature (level 1)"
"$PERF" record -q --compression-level=3 -e cpu-clock:u -o z3.data -- true ||
	fail "record --compression-level=3 failed"

# HEADER_CMDLINE as perf writes it: its executable (/proc/self/exe), then "record" and the
# arguments (the path was once written twice, argv[0] after the executable)
"$PERF" record -q -e cpu-clock:u -o cmd.data -- true >cmd.log 2>&1 ||
	fail "record -- true failed: $(tail -1 cmd.log)"
cmdline=$("$PERF" script --header-only -i cmd.data | sed -n 's/^# cmdline : //p' | sed 's/ *$//')
[ "$cmdline" = "$(readlink -f "$PERF") record -q -e cpu-clock:u -o cmd.data -- true" ] ||
	fail "cmdline: '$cmdline'"

# --defer on this kernel: one line, then the fallback: user regs + stack with the inline chain
"$PERF" record -e cpu-clock:u -F 1000 --defer -o d.data -- "$WORKLOAD_PERF" test -w calls 0.3 $depth \
	>d.log 2>&1 || fail "record --defer failed: $(tail -1 d.log)"
if grep -q 'no deferred user callchains' d.log; then
	[ "$(grep -c 'deferred' d.log)" -eq 1 ] || fail "record --defer: more than one line about it"
	"$PERF" script --header-only -i d.data >d.hdr 2>&1
	"$PERF" script -i d.data >d.txt 2>d.err || fail "script of the --defer fallback failed"
	check_calls d.txt "record --defer (fallback)"
	# the repair data: regs and a 640-byte dump (the default) in every sample
	"$PERF" script -D -i d.data >d.dump 2>&1
	expect_grep 'ustack: size 640,' d.dump "the fallback samples carry no 640-byte user stack"
	expect_grep 'user regs: mask 0x1c0' d.dump "the fallback samples carry no ip/sp/bp user regs"
	# --call-graph fp,defer,SIZE and --no-repair-data
	# a workload that runs: `true` may end before the first tick and leave no sample to look at
	"$PERF" record -q -e cpu-clock:u --call-graph fp,defer,128 -o d128.data -- \
		"$WORKLOAD_PERF" test -w noploop 0.1 ||
		fail "record --call-graph fp,defer,128 failed"
	"$PERF" script -D -i d128.data 2>&1 | grep -q 'ustack: size 128,' ||
		fail "--call-graph fp,defer,128 did not size the dump"
	"$PERF" record -q -e cpu-clock:u --defer --no-repair-data -o dn.data -- \
		"$WORKLOAD_PERF" test -w calls 0.1 || fail "record --defer --no-repair-data failed"
	! "$PERF" script -D -i dn.data 2>&1 | grep -q 'ustack:' ||
		fail "--no-repair-data still recorded the stack"
else
	verbose "this kernel defers callchains: $(cat d.log)"
	"$PERF" script -D -i d.data | grep -q CALLCHAIN_DEFERRED ||
		fail "record --defer on a deferring kernel wrote no deferred records"
fi
"$PERF" record -q --call-graph dwarf,defer -o x.data -- true 2>dw.err && fail "dwarf,defer was accepted"
expect_grep 'only works with FP' dw.err "dwarf,defer: not perf's reason"

# a hardware event without a PMU: upstream's note, then task-clock for a command, cpu-clock
# for -a (the default event says it only with -v)
if [ ! -d /sys/bus/event_source/devices/cpu ] && [ ! -d /sys/bus/event_source/devices/cpu_core ]; then
	"$PERF" record -e cycles -o cy.data -- true >cy.log 2>&1 || fail "record -e cycles failed: $(tail -1 cy.log)"
	expect_grep '^The cycles event is not supported, trying to fall back to task-clock$' cy.log \
		"-e cycles without a PMU: not upstream's note"
	"$PERF" script -i cy.data -F event 2>/dev/null | grep -q 'task-clock' || fail "-e cycles did not fall back to task-clock"
	"$PERF" record -a -e cycles -o cya.data -- true >cya.log 2>&1 ||
		fail "record -a -e cycles failed: $(tail -1 cya.log)"
	expect_grep '^The cycles event is not supported, trying to fall back to cpu-clock$' cya.log \
		"-a -e cycles without a PMU: not upstream's note"
	"$PERF" record -o cy.data -- true >cyd.log 2>&1
	! grep -q 'not supported' cyd.log || fail "the default event's fallback was noted without -v"
else
	not_tested "-e cycles' fallback to cpu-clock: this machine has a CPU PMU"
fi
# -c: a fixed period instead of a frequency
"$PERF" record -q -e cpu-clock:u -c 100000 -o c.data -- "$WORKLOAD_PERF" test -w noploop 0.1 ||
	fail "record -c failed"
"$PERF" script -i c.data -F period 2>/dev/null | sort -u | grep -Eqx ' *100000 *' ||
	fail "record -c 100000: the samples' period is not 100000"

# two events, with and without -g: each one's samples, read back by ours and named in the
# header (a second attr once ended the recording with a garbage message)
for g in "" -g; do
	# shellcheck disable=SC2086
	"$PERF" record -q $g -e cpu-clock,task-clock -o two.data -- "$WORKLOAD_PERF" test -w noploop 0.1 \
		>two.log 2>&1 || fail "record $g -e cpu-clock,task-clock failed: $(cat two.log)"
	[ -s two.log ] && fail "record $g -e cpu-clock,task-clock said: $(cat two.log)"
	"$PERF" script -F event -i two.data 2>/dev/null | sort | uniq -c >two.events
	for ev in cpu-clock task-clock; do
		n=$(awk -v e="$ev:" '$2 == e { print $1 }' two.events)
		[ "${n:-0}" -ge 50 ] ||
			fail "record $g -e cpu-clock,task-clock: ${n:-no} $ev samples: $(cat two.events)"
	done
done

# errors: one line each naming the fix, perf's exit codes
"$PERF" record -e no-such-event -o x.data -- true 2>ev.err; rc=$?
[ $rc -eq 129 ] || fail "unknown event: exit $rc, not 129"
expect_grep "unknown event 'no-such-event'.*perf list" ev.err "unknown event: no clear line"
"$PERF" record -F abc -o x.data -- true 2>f.err; rc=$?
[ $rc -eq 129 ] || fail "-F abc: exit $rc, not 129"
[ "$(wc -l <f.err)" -eq 1 ] || fail "-F abc: more than one line"
expect_grep "-F 'abc'.*positive number of Hz" f.err "-F abc: no clear line"
# above the limit: lowered with perf's warning (record-sample.sh), refused with --strict-freq
"$PERF" record -F 100000000 --strict-freq -o x.data -- true 2>f2.err && fail "-F 100000000 --strict-freq was accepted"
expect_grep "perf_event_max_sample_rate" f2.err "-F too high: the sysctl is not named"
"$PERF" record --no-such-option 2>o.err; rc=$?
[ $rc -eq 129 ] || fail "unknown option: exit $rc, not 129"
"$PERF" record -o x.data -- ./no-such-command 2>w.err; rc=$?
[ $rc -eq 255 ] || fail "a workload that cannot start: exit $rc, not 255"
expect_grep "^Failed to collect '.*' for the './no-such-command' workload: No such file or directory" \
	w.err "a workload that cannot start: not perf's text"
# the output is moved to OUTPUT.old before a new one is written, as perf does: a workload
# that cannot start leaves the last good recording there (it once truncated it to nothing)
"$PERF" record -q -o old.data -- true >old.log 2>&1 || fail "record -- true failed: $(tail -1 old.log)"
cp old.data old.ref
"$PERF" record -o old.data -- ./no-such-command 2>/dev/null
cmp -s old.ref old.data.old ||
	fail "a workload that cannot start: the previous old.data is not old.data.old"
"$PERF" record -q -o x.data -- sh -c 'exit 3'; rc=$?
[ $rc -eq 3 ] || fail "the workload's exit code 3 came back as $rc"

# inherit: threads, a forked child and its exec are all followed (perf test -w forkexec)
"$PERF" record -q -e cpu-clock:u -o fe.data -- "$WORKLOAD_PERF" test -w forkexec 0.3 >fe.log 2>&1 ||
	fail "record of -w forkexec failed: $(tail -1 fe.log)"
"$PERF" script -i fe.data -F tid,ip,sym >fe.txt 2>fe.err || fail "script of -w forkexec failed"
threads=$(awk '$NF == "forkexec_thread_spin" { print $1 }' fe.txt | sort -u | wc -l)
[ "$threads" -eq 2 ] || fail "-w forkexec: samples of $threads threads in forkexec_thread_spin, not 2"
grep -q ' forkexec_child_spin$' fe.txt || fail "-w forkexec: the forked child was not followed"
grep -q ' leaf$' fe.txt || fail "-w forkexec: the exec'd leafloop was not followed"
"$PERF" record -q --no-inherit -e cpu-clock:u -o ni.data -- "$WORKLOAD_PERF" test -w forkexec 0.2 \
	>ni.log 2>&1 || fail "record --no-inherit failed: $(tail -1 ni.log)"
! "$PERF" script -i ni.data -F ip,sym 2>/dev/null | grep -q 'forkexec_thread_spin\|leaf$' ||
	fail "--no-inherit followed the threads or the child"

# SIGINT: the workload stops, the buffers are drained, the file is whole
"$PERF" record -e cpu-clock:u -g -o int.data -- "$WORKLOAD_PERF" test -w calls 30 >int.log 2>&1 &
rpid=$!
# SIGINT once the workload has had 0.2 s of CPU time (some 800 samples at 4 kHz), however
# long a loaded machine takes to give it that: after a fixed second it had too few
workload_busy() {
	wl=$(pgrep -P $rpid 2>/dev/null | head -1)
	[ -n "$wl" ] && cpu_used "$wl" 0.2
}
wait_until 60 workload_busy
kill -INT $rpid
wait $rpid
expect_grep 'Captured and wrote' int.log "SIGINT: no summary"
"$PERF" script -i int.data >int.txt 2>int.err || fail "script of the interrupted recording failed: $(tail -1 int.err)"
[ "$(grep -c calls_leaf int.txt)" -ge 100 ] || fail "SIGINT: too few samples were kept"
pass
