#!/bin/sh
# perf record -p on a running process, -t, --per-thread, -a and -C: samples with their symbols
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
"$WORKLOAD_PERF" test -w noploop 10 &
wl=$!
sleep 0.3
# the command only says how long (1 s after the start, however slow the start: ASan)
"$PERF" record -q -g -p $wl -o p.data -- sleep 1 >p.log 2>&1 || fail "record -p failed: $(tail -1 p.log)"
"$PERF" script -i p.data -F comm,tid >p.txt 2>p.err || fail "script of record -p failed: $(tail -1 p.err)"
n=$(count_sym p.data noploop)
verbose "-p: $(wc -l <p.txt) samples, $n in noploop"
# a second at 4000 Hz; noploop spins, so most samples are in it: 500 rules out a dead run
[ "$n" -ge 500 ] || fail "-p $wl: only $n samples in noploop"
grep -q "^ *perf *$wl *\$" p.txt || fail "-p: the samples lack the process's comm from /proc"

# -t and --per-thread: one ring per thread
"$PERF" record -q --per-thread -t $wl -o t.data -- sleep 0.5 >t.log 2>&1 ||
	fail "record --per-thread -t failed: $(tail -1 t.log)"
n=$(count_sym t.data noploop)
[ "$n" -ge 200 ] || fail "-t $wl --per-thread: only $n samples in noploop"

# -a: every CPU, with the cpu in each sample; -C 0: only that one
"$PERF" record -q -a -o a.data -- sleep 0.5 >a.log 2>&1 || fail "record -a failed: $(tail -1 a.log)"
"$PERF" script -i a.data -F comm,tid,cpu >a.txt 2>a.err || fail "script of -a failed: $(tail -1 a.err)"
grep -q "^ *perf *$wl *\[" a.txt || fail "-a: no sample of the running noploop ($wl)"
"$PERF" record -q -C 0 -o c.data -- sleep 0.3 >c.log 2>&1 || fail "record -C 0 failed: $(tail -1 c.log)"
"$PERF" script -i c.data -F cpu >c.txt 2>/dev/null
[ -s c.txt ] || fail "-C 0: no samples"
! grep -qv '\[000\]' c.txt || fail "-C 0: samples of another cpu: $(grep -v '\[000\]' c.txt | head -1)"
kill $wl 2>/dev/null
wait $wl 2>/dev/null

# errors: a pid that does not exist, a bad cpu list
"$PERF" record -p 2147483 -o x.data 2>np.err; rc=$?
[ $rc -eq 255 ] || fail "-p of no process: exit $rc, not 255"
[ "$(wc -l <np.err)" -eq 1 ] || fail "-p of no process: not one line"
expect_grep '-p 2147483: no such process' np.err "-p of no process: no clear line"
"$PERF" record -C 99999 -o x.data -- true 2>nc.err && fail "-C 99999 was accepted"
expect_grep 'not a list of CPUs' nc.err "-C 99999: no clear line"
exit 0
