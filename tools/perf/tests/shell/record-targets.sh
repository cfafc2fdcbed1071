#!/bin/sh
# perf record -p on a running process (to its last thread; perf's pid lists), -t, --per-thread, -a and -C: samples with their symbols (exclusive)
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi

# count_sym FILE SYM: samples of our script whose ip is in SYM
count_sym() {
	"$PERF" script -G -i "$1" -F ip,sym 2>/dev/null | awk -v s="$2" '$2 == s { n++ }
		END { print n + 0 }'
}

# -p: the process was running before; its COMM and maps come from /proc
"$WORKLOAD_PERF" test -w noploop 60 &
wl=$!
wait_until 30 cpu_used $wl 0.05 || fail "the noploop ($wl) did not spin in 30 s"
# the command only says how long: until the noploop has used 1 s more of CPU, however slow
# the start (ASan) and busy the machine
"$PERF" record -q -g -p $wl -o p.data -- "$CPU_WINDOW" $wl 1 >p.log 2>&1 ||
	fail "record -p failed: $(tail -1 p.log)"
"$PERF" script -i p.data -F comm,tid >p.txt 2>p.err || fail "script of record -p failed: $(tail -1 p.err)"
n=$(count_sym p.data noploop)
verbose "-p: $(wc -l <p.txt) samples, $n in noploop"
# a second of its CPU at 4000 Hz; noploop spins, so most samples are in it: 500 rules out a
# dead run
[ "$n" -ge 500 ] || fail "-p $wl: only $n samples in noploop"
grep -q "^ *perf *$wl *\$" p.txt || fail "-p: the samples lack the process's comm from /proc"

# -t and --per-thread: one ring per thread
"$PERF" record -q --per-thread -t $wl -o t.data -- "$CPU_WINDOW" $wl 0.5 >t.log 2>&1 ||
	fail "record --per-thread -t failed: $(tail -1 t.log)"
n=$(count_sym t.data noploop)
[ "$n" -ge 200 ] || fail "-t $wl --per-thread: only $n samples in noploop"

# -a: every CPU, with the cpu in each sample; -C 0: only that one
"$PERF" record -q -a -o a.data -- "$CPU_WINDOW" $wl 0.5 >a.log 2>&1 || fail "record -a failed: $(tail -1 a.log)"
"$PERF" script -i a.data -F comm,tid,cpu >a.txt 2>a.err || fail "script of -a failed: $(tail -1 a.err)"
grep -q "^ *perf *$wl *\[" a.txt || fail "-a: no sample of the running noploop ($wl)"
"$PERF" record -q -C 0 -o c.data -- sleep 0.3 >c.log 2>&1 || fail "record -C 0 failed: $(tail -1 c.log)"
"$PERF" script -i c.data -F cpu >c.txt 2>/dev/null
[ -s c.txt ] || fail "-C 0: no samples"
! grep -qv '\[000\]' c.txt || fail "-C 0: samples of another cpu: $(grep -v '\[000\]' c.txt | head -1)"

# nr_ids FILE: how many kernel ids the first event has (one per opened descriptor)
nr_ids() {
	"$PERF" script --header-only -i "$1" 2>/dev/null |
		awk -F'id = [{]' '/^# event :/ { split($2, a, "}"); print split(a[1], b, ","); exit }'
}

# -p takes perf's comma list: a pid named twice is opened once (perf keeps a set), and a
# range is refused as perf 6.1 refuses it (it once was opened whole and synthesized by ends)
"$PERF" record -q -p "$wl,$wl" -o dup.data -- sleep 0.1 >dup.log 2>&1 ||
	fail "record -p $wl,$wl failed: $(tail -1 dup.log)"
[ "$(nr_ids dup.data)" -eq "$(nr_ids p.data)" ] ||
	fail "-p $wl,$wl: $(nr_ids dup.data) descriptors, -p $wl has $(nr_ids p.data)"
"$PERF" record -p "$wl-$wl" -o x.data -- true 2>range.err &&
	fail "-p $wl-$wl was accepted (perf 6.1 refuses ranges)"
expect_grep "-p $wl-$wl: not a list of process ids" range.err "-p with a range: no clear line"
kill $wl 2>/dev/null
wait $wl 2>/dev/null

# -p of a process whose main thread leaves first (pthread_exit) while its worker goes on:
# the recording follows the worker to its end, as perf does. It once stopped with the
# first thread: only the ring owners' descriptors were polled, and they hung up.
# The main thread spins 1 s of CPU, long enough that perf record is attached before it
# leaves on a loaded machine too
"$WORKLOAD_PERF" test -w threadexit 4 1 &
te=$!
two_threads() {
	[ "$(find /proc/$te/task -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -ge 2 ]
}
wait_until 10 two_threads
# no command: the recording ends when the last thread does (timeout: a hang fails, not blocks)
timeout -s INT 60 "$PERF" record -q -p $te -o te.data >te.log 2>&1 ||
	fail "record -p of threadexit failed: $(tail -1 te.log)"
wait $te
main=$(count_sym te.data threadexit_main)
worker=$(count_sym te.data threadexit_worker)
verbose "-p threadexit: $main samples in threadexit_main, $worker in threadexit_worker"
# the worker spins 4 s of CPU time, the main thread 1 s: some 4 times the samples (more
# when the recording started late into the main thread's second). Cut at the main thread's
# exit, both had about the same; 3 times tells the two apart
[ "$main" -ge 1 ] || fail "-p threadexit: no sample of the main thread"
[ "$worker" -ge $((3 * main)) ] ||
	fail "-p threadexit: $worker worker samples for $main of the main thread: stopped at its exit?"

# errors: a pid that does not exist, a bad cpu list
"$PERF" record -p 2147483 -o x.data 2>np.err; rc=$?
[ $rc -eq 255 ] || fail "-p of no process: exit $rc, not 255"
[ "$(wc -l <np.err)" -eq 1 ] || fail "-p of no process: not one line"
expect_grep '-p 2147483: no such process' np.err "-p of no process: no clear line"
"$PERF" record -C 99999 -o x.data -- true 2>nc.err && fail "-C 99999 was accepted"
expect_grep 'CPU 99999 is not online' nc.err "-C 99999: no clear line"
exit 0
