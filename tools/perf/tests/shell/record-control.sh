#!/bin/sh
# perf record's output and control options: --switch-output (SIGUSR2, size, time), --switch-output-event, --max-size, -D, --control (fifo and fd), --overwrite, -r; files read by ours, perf 6.1 and upstream 7.2; bad values refused
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 360
# (40 s on 2 CPUs at a load of 10; its workloads are CPU time, which a heavier load stretches)

. "$(dirname "$0")"/lib.sh

need_perf
cases 4	# perf 6.1 reads the files, upstream 7.2 reads them, exec tracepoints (tracefs), chrt
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
W=$WORKLOAD_PERF
sys_ok=
if [ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" script -i probe.data >/dev/null 2>&1; then
	sys_ok=1
else
	not_tested "perf 6.1 reading the files: no usable $SYSTEM_PERF"
fi
up_ok=
if upstream_perf; then
	up_ok=1
else
	not_tested "upstream 7.2 reading the files: no $UPSTREAM_PERF (make test-deps)"
fi
tp_ok=
if "$PERF" record -q -e sched:sched_process_exec -o tp.data -- true >tp.log 2>&1; then
	tp_ok=1
else
	not_tested "the exec-count cases (--switch-output=signal, -D, --control): no sched tracepoints ($(tail -1 tp.log))"
fi

# warned ERR: ERR without the lost-records warning (small rings on a slow machine, an ASan
# build: the run's, not the file's) and without upstream's "max cpus" line (its setting, not
# the file's); succeeds when something else is left, which is then in r.err2
warned() {
	grep -v -e '^Warning:$' -e '^Processed [0-9]* events and lost [0-9]* chunks!$' \
		-e '^Check IO/CPU overload!$' -e '^$' \
		-e '^Failed to read max cpus, using default of [0-9]*$' "$1" >r.err2
	[ -s r.err2 ]
}

# readable FILE WHAT [ours]: ours, perf 6.1 and upstream 7.2 (with "ours": ours only, for
# the files after a case's first; upstream takes seconds a file) read FILE without a word on
# stderr
readable() {
	"$PERF" script -i "$1" >/dev/null 2>r.err || fail "$2: our script failed on $1: $(head -1 r.err)"
	! warned r.err || fail "$2: our script warned on $1: $(head -1 r.err2)"
	[ "${3:-}" = ours ] && return 0
	if [ -n "$sys_ok" ]; then
		"$SYSTEM_PERF" script -i "$1" >/dev/null 2>r.err ||
			fail "$2: perf 6.1 script failed on $1: $(head -1 r.err)"
		! warned r.err || fail "$2: perf 6.1 script warned on $1: $(head -1 r.err2)"
	fi
	if [ -n "$up_ok" ]; then
		"$UPSTREAM_PERF" script -i "$1" >/dev/null 2>r.err ||
			fail "$2: upstream 7.2 script failed on $1: $(head -1 r.err)"
		! warned r.err || fail "$2: upstream 7.2 script warned on $1: $(head -1 r.err2)"
	fi
}

# data_size FILE: the data section's size in FILE's header (our --header-only, perf's words)
data_size() {
	"$PERF" script --header-only -i "$1" 2>/dev/null | sed -n 's/^# data size *: //p'
}

# execs FILE NAME: the exec tracepoint samples of the program NAME in FILE
execs() {
	"$PERF" script -i "$1" 2>/dev/null | grep -c "sched:sched_process_exec: filename=$2 "
}

# --switch-output=signal, SIGUSR2 twice: three files, perf's names and lines, each with its
# own side-band (the kernel's COMM/MMAP2 in the first, synthesized ones in the others), and
# together every exec: sh, three true, four true, one true = 9, and the sleeps. After each
# signal the shell waits for the dumped file (a busy machine may take long to switch, and a
# second signal before the first switch would be one switch): the glob and the count are
# builtins, only sleep execs, and each sleep is logged in sw.sleeps. The shell lives a second
# after the last switch: perf describes it to the third file from /proc once it has renamed
# the second, which is all the shell sees
if [ -n "$tp_ok" ]; then
	: >sw.sleeps
	timeout 60 "$PERF" record --switch-output -e sched:sched_process_exec -o sw.data -- sh -c '
		dumped() {
			n=0
			for f in sw.data.*; do [ -e "$f" ] && n=$((n + 1)); done
			[ $n -ge $1 ]
		}
		wait_dump() {
			until dumped $1; do sleep 0.1; echo sleep >>sw.sleeps; done
		}
		for i in 1 2 3; do /bin/true; done; kill -USR2 $PPID; wait_dump 1
		for i in 1 2 3 4; do /bin/true; done; kill -USR2 $PPID; wait_dump 2
		sleep 1; echo sleep >>sw.sleeps
		/bin/true' >sw.out 2>sw.log || fail "record --switch-output failed: $(tail -1 sw.log)"
	ls sw.data.* >sw.files 2>/dev/null
	[ "$(grep -c . sw.files)" -eq 3 ] || fail "two SIGUSR2: $(grep -c . sw.files) files, not 3: $(cat sw.log)"
	grep -qv '^sw\.data\.[0-9]\{16\}$' sw.files && fail "not perf's names (PATH.YYYYmmddHHMMSScc): $(cat sw.files)"
	[ ! -e sw.data ] || fail "--switch-output left sw.data besides the renamed files"
	[ "$(grep -c '^\[ perf record: dump data: Woken up [0-9]* times \]$' sw.log)" -eq 2 ] ||
		fail "not perf 6.1's 'dump data: Woken up N times' lines: $(cat sw.log)"
	for f in $(cat sw.files); do
		grep -q "^\[ perf record: Dump $f \]$" sw.log || fail "no '[ perf record: Dump $f ]' line"
	done
	expect_grep '^\[ perf record: Captured and wrote [0-9.]* MB sw\.data\.<timestamp> \]$' sw.log \
		"no final line in perf 6.1's words"
	total=0
	for f in $(cat sw.files); do
		readable "$f" "--switch-output=signal"
		n=$("$PERF" script -i "$f" | grep -c 'sched:sched_process_exec:')
		[ "$n" -ge 1 ] || fail "$f holds no sample"
		total=$((total + n))
		"$PERF" script --show-task-events --show-mmap-events -i "$f" >ev.txt 2>&1
		expect_grep 'PERF_RECORD_COMM.* sh:[0-9]+/' ev.txt "$f: no COMM of the workload's sh"
		expect_grep 'PERF_RECORD_MMAP2 .*/(dash|sh|bash)$' ev.txt "$f: no MMAP2 of the workload's shell"
		size=$(data_size "$f")
		[ "$size" -gt 0 ] || fail "$f: data size '$size' in its header"
		# each file's header as perf 6.1 reads it: the same data size, the same features
		[ -n "$sys_ok" ] || continue
		"$SYSTEM_PERF" report --header-only -i "$f" >hdr.txt 2>&1
		[ "$(sed -n 's/^# data size *: //p' hdr.txt)" = "$size" ] ||
			fail "$f: perf 6.1 reads data size '$(sed -n 's/^# data size *: //p' hdr.txt)', we $size"
		grep '^# missing features' hdr.txt >>features.txt
	done
	[ -z "$sys_ok" ] || [ "$(sort -u features.txt | grep -c .)" -eq 1 ] ||
		fail "the files' features differ (perf 6.1's missing features): $(sort -u features.txt)"
	want=$((9 + $(grep -c . sw.sleeps)))
	[ $total -eq $want ] || fail "the three files hold $total exec samples, not $want (9 and the sleeps)"
fi

# --switch-output=SIZE: every file but the last has at least SIZE of data (a switch comes
# at the first check after the size is reached), and each is readable
timeout 60 "$PERF" record --switch-output=32K -e cpu-clock -F 4000 -g -o sz.data -- \
	"$W" test -w calls 1 >sz.out 2>sz.log || fail "record --switch-output=32K failed: $(tail -1 sz.log)"
ls sz.data.* >sz.files 2>/dev/null
# 1 s of CPU at 4 kHz with -g is some 4000 samples of >= 56 bytes, more than 6 x 32 KB; a
# starved perf record drains its rings seldom, and a pass may bring much more than 32 KB:
# two files at least (one switch), however the passes fall
[ "$(grep -c . sz.files)" -ge 2 ] || fail "--switch-output=32K: $(grep -c . sz.files) files"
for f in $(sed '$d' sz.files); do
	[ "$(data_size "$f")" -ge 32768 ] || fail "--switch-output=32K: $f has $(data_size "$f") bytes of data"
done
readable "$(sed -n 1p sz.files)" "--switch-output=32K"
for f in $(sed 1d sz.files); do readable "$f" "--switch-output=32K" ours; done

# --switch-output=TIME: 1s, on a workload that sleeps 3.3 s: switches at about 1 and 2 s
# (each second counts from the end of the switch before), so at least 3 files
timeout 60 "$PERF" record --switch-output=1s -e cpu-clock -o tm.data -- sleep 3.3 >tm.out 2>tm.log ||
	fail "record --switch-output=1s failed: $(tail -1 tm.log)"
n=$(ls tm.data.* 2>/dev/null | grep -c .)
[ "$n" -ge 3 ] || fail "--switch-output=1s over 3.3 s: $n files, not 3 or more: $(cat tm.log)"
ls tm.data.* >tm.files
readable "$(sed -n 1p tm.files)" "--switch-output=1s"
for f in $(sed 1d tm.files); do readable "$f" "--switch-output=1s" ours; done

# --switch-output-event: each getppid switches files; dash calls it once as it starts: the
# outer sh at once, the inner one between the two 0.2 s phases, so three files, the last two
# holding a phase each
if [ -n "$tp_ok" ] && [ -d /sys/kernel/tracing/events/syscalls ]; then
	timeout 60 "$PERF" record --switch-output-event=syscalls:sys_enter_getppid -e cpu-clock \
		-o se.data -- sh -c "'$W' test -w calls 0.2; sh -c :; '$W' test -w calls 0.2" \
		>se.out 2>se.log || fail "record --switch-output-event failed: $(tail -1 se.log)"
	ls se.data.* >se.files 2>/dev/null
	[ "$(grep -c . se.files)" -eq 3 ] ||
		fail "--switch-output-event: $(grep -c . se.files) files, not 3: $(cat se.log)"
	for f in $(sed 1d se.files); do
		"$PERF" script -i "$f" 2>/dev/null | grep -q ' calls_leaf+' ||
			fail "--switch-output-event: $f holds no sample of a phase"
	done
	readable "$(sed -n 2p se.files)" "--switch-output-event"
	for f in $(sed 2d se.files); do readable "$f" "--switch-output-event" ours; done
	"$PERF" script -i "$(sed -n 2p se.files)" 2>/dev/null | grep -q "syscalls:sys_enter_getppid" &&
		fail "--switch-output-event: its event was written to the output"
fi

# --switch-max-files=2: of the four files of 3.3 s switched each second, the newest two stay
timeout 60 "$PERF" record -q --switch-output=1s --switch-max-files=2 -e cpu-clock -o mf.data -- \
	sleep 3.3 >mf.out 2>mf.log || fail "record --switch-max-files=2 failed: $(tail -1 mf.log)"
n=$(ls mf.data.* 2>/dev/null | grep -c .)
[ "$n" -eq 2 ] || fail "--switch-max-files=2: $n files: $(ls mf.data.*)"
readable "$(ls mf.data.* | tail -1)" "--switch-max-files" ours

# --timestamp-filename alone: one file, renamed at the end
"$PERF" record --timestamp-filename -e cpu-clock -o ts.data -- true >ts.out 2>ts.log ||
	fail "record --timestamp-filename failed: $(tail -1 ts.log)"
[ "$(ls ts.data.* 2>/dev/null | grep -c '^ts\.data\.[0-9]\{16\}$')" -eq 1 ] && [ ! -e ts.data ] ||
	fail "--timestamp-filename: not one ts.data.TIMESTAMP: $(ls ts.data*)"

# --max-size: the recording stops once the file holds that much, in perf's words; the
# workload (30 s) is stopped with SIGTERM, whose status perf returns (128 + 15)
timeout 60 "$PERF" record --max-size=64K -e cpu-clock -F 4000 -g -o ms.data -- "$W" test -w calls 30 \
	>ms.out 2>ms.log; rc=$?
[ $rc -eq 143 ] || fail "--max-size: exit $rc, not 143 (the workload's SIGTERM): $(cat ms.log)"
expect_grep '^\[ perf record: perf size limit reached \([0-9]+ KB\), stopping session \]$' ms.log \
	"--max-size: no perf size limit line"
[ "$(data_size ms.data)" -ge 65536 ] || fail "--max-size=64K: only $(data_size ms.data) bytes"
readable ms.data "--max-size"

# -D 500: the events wait 500 ms from the start of the workload: its sh's exec (at once) is
# not sampled, the /bin/true after a 1 s sleep is, and the dummy carried the side-band
if [ -n "$tp_ok" ]; then
	"$PERF" record -D 500 -e sched:sched_process_exec -o d.data -- sh -c 'sleep 1; /bin/true' \
		>d.out 2>d.log || fail "record -D 500 failed: $(tail -1 d.log)"
	[ "$(sed -n 1p d.log)" = "Events disabled" ] && [ "$(sed -n 2p d.log)" = "Events enabled" ] ||
		fail "-D 500: not perf's 'Events disabled' then 'Events enabled': $(cat d.log)"
	[ "$(execs d.data /bin/true)" -eq 1 ] || fail "-D 500: the exec after 1 s was not sampled"
	[ "$(execs d.data /bin/sh)" -eq 0 ] && [ "$(execs d.data /usr/bin/sh)" -eq 0 ] ||
		fail "-D 500: the workload's first exec was sampled"
	"$PERF" script --show-task-events -i d.data 2>/dev/null | grep -q 'PERF_RECORD_COMM exec: sleep' ||
		fail "-D 500: no COMM of the delayed time (the dummy event's side-band)"
	readable d.data "-D 500"
fi

# --control fifo: with -D -1: the workload itself sends the commands and waits for each ack,
# so what it execs between them is known to be disabled (true, false) or enabled (echo).
# It waits with the shell's own read, forking nothing between a command and its ack. A fork
# racing the ioctl (head forked just after the command was sent) left what the shell forked
# later in the old state, in one run of three here: echo not sampled, false sampled. Gone
# with nothing forked, and with a 20 ms pause before the ioctl; perf 6.1, slower to answer,
# rarely meets it. Likely the kernel: a child's inherited events take the parent's state
# before they are linked where the ioctl finds them, and the context swap between a parent
# and its child can then give that stale context to the shell.
if [ -n "$tp_ok" ]; then
	mkfifo ctl.fifo ack.fifo
	timeout 60 "$PERF" record -D -1 --control fifo:ctl.fifo,ack.fifo -e sched:sched_process_exec \
		-o c.data -- sh -c '
		ask() { echo "$1" >ctl.fifo; read -r a <ack.fifo; echo "$a" >>acks.txt; }
		/bin/true
		ask enable
		/bin/echo >/dev/null
		ask disable
		/bin/false
		echo bogus >ctl.fifo
		timeout 1 head -n1 ack.fifo >>bogus.txt
		ask ping' >c.out 2>c.log || fail "record --control fifo: failed: $(tail -1 c.log)"
	[ "$(tr '\n' ' ' <acks.txt)" = "ack ack ack " ] ||
		fail "--control: acks of enable, disable, ping: '$(tr '\n' ' ' <acks.txt)'"
	[ ! -s bogus.txt ] || fail "--control: an unknown command got an ack"
	expect_grep "unknown command 'bogus'" c.log "--control: the unknown command was not named"
	# all the file's execs in the message: which of them came, and how often
	n_true=$(execs c.data /bin/true) n_echo=$(execs c.data /bin/echo) n_false=$(execs c.data /bin/false)
	if [ "$n_true/$n_echo/$n_false" != 0/1/0 ]; then
		all=$("$PERF" script -F tid,time,trace -i c.data 2>/dev/null | tr -s ' \t\n' ' ')
		fail "--control: execs of true (before enable), echo (enabled), false (after disable): $n_true/$n_echo/$n_false, not 0/1/0; all: $all"
	fi
	readable c.data "--control"
fi

# --control fd: and stop: the ack comes, the workload (20 s) is stopped, perf returns its status
rm -f ctl.fifo ack.fifo
mkfifo ctl.fifo ack.fifo
exec 7<>ctl.fifo 8<>ack.fifo
timeout 60 "$PERF" record --control fd:7,8 -e cpu-clock -o st.data -- sleep 20 >st.out 2>st.log &
rpid=$!
sleep 0.3
echo stop >&7
a=$(timeout 10 head -n1 <&8)
wait $rpid; rc=$?
exec 7>&- 8>&-
[ "$a" = ack ] || fail "--control fd:7,8: no ack for stop ('$a')"
[ $rc -eq 143 ] || fail "--control stop: exit $rc, not 143 (the workload's SIGTERM; 124: no stop)"
readable st.data "--control stop"

# --overwrite: a 4-page ring per CPU keeps the end only: the first phase's process has no
# sample, the second's has (0.5 s of CPU at 4 kHz, >= 56 bytes a -g sample, is some 110 KB,
# far more than a 16 KB ring holds). Both phases on CPU 0: a ring is overwritten only by
# what runs on its CPU, and a busy machine may keep the second phase off the first's CPU
timeout 60 "$PERF" record --overwrite -m 4 -e cpu-clock -F 4000 -g -o ow.data -- taskset -c 0 sh -c "
	'$W' test -w noploop 0.3 & echo \$! >p1; wait
	'$W' test -w calls 0.5 & echo \$! >p2; wait" >ow.out 2>ow.log ||
	fail "record --overwrite failed: $(tail -1 ow.log)"
"$PERF" script -F pid -i ow.data 2>/dev/null | sort | uniq -c >ow.pids
awk -v p="$(cat p2)" '$2 == p { n = $1 } END { exit !(n > 0) }' ow.pids ||
	fail "--overwrite: no sample of the last phase: $(cat ow.pids)"
awk -v p="$(cat p1)" '$2 == p { n = $1 } END { exit n > 0 }' ow.pids ||
	fail "--overwrite: samples of the first phase were kept: $(cat ow.pids)"
"$PERF" script -D -i ow.data 2>/dev/null | grep -q 'FINISHED_ROUND' ||
	fail "--overwrite: no FINISHED_ROUND after the dump"
readable ow.data "--overwrite"

# --overwrite --switch-output: SIGUSR2 dumps what the rings hold into a file of its own; the
# second dump (at the end) holds only what came after the first: phase 1, then phase 2 (which
# starts once the first dump is there: a busy machine may switch late)
timeout 60 "$PERF" record --overwrite --switch-output -m 4 -e cpu-clock -o ows.data -- sh -c "
	'$W' test -w calls 0.2 & echo \$! >q1; wait; kill -USR2 \$PPID
	until ls ows.data.* >/dev/null 2>&1; do sleep 0.1; done
	'$W' test -w calls 0.2 & echo \$! >q2; wait" >ows.out 2>ows.log ||
	fail "record --overwrite --switch-output failed: $(tail -1 ows.log)"
ls ows.data.* >ows.files 2>/dev/null
[ "$(grep -c . ows.files)" -eq 2 ] || fail "--overwrite --switch-output: $(grep -c . ows.files) files, not 2"
i=1
for f in $(cat ows.files); do
	"$PERF" script -F pid -i "$f" 2>/dev/null | sort | uniq -c >ows.pids
	mine=$(cat q$i) other=$(cat q$((3 - i)))
	awk -v p="$mine" '$2 == p { n = $1 } END { exit !(n > 0) }' ows.pids ||
		fail "--overwrite --switch-output: $f has no sample of phase $i: $(cat ows.pids)"
	awk -v p="$other" '$2 == p { n = $1 } END { exit n > 0 }' ows.pids ||
		fail "--overwrite --switch-output: $f has samples of the other phase: $(cat ows.pids)"
	readable "$f" "--overwrite --switch-output" ours
	i=$((i + 1))
done

# -r 3: perf record runs at SCHED_FIFO 3, the workload (forked before) keeps its policy
if command -v chrt >/dev/null 2>&1; then
	"$PERF" record -q -r 3 -e cpu-clock -o rt.data -- sh -c 'chrt -p $PPID; chrt -p $$' >rt.out 2>rt.log ||
		fail "record -r 3 failed: $(tail -1 rt.log)"
	[ "$(sed -n 's/.*scheduling policy: //p' rt.out | tr '\n' ' ')" = "SCHED_FIFO SCHED_OTHER " ] &&
		grep -q 'scheduling priority: 3$' rt.out || fail "-r 3: perf's and the workload's policies: $(cat rt.out)"
else
	not_tested "-r: no chrt"
fi

# bad values: one line saying why, then perf's usage; exit 129 (perf: 129, 234 for
# --switch-output, which is -EINVAL's low byte)
# refused FIRST_LINE_PATTERN ARGS...
refused() {
	pat=$1
	shift
	"$PERF" record -e cpu-clock -o bad.data "$@" -- true >bad.out 2>bad.err; rc=$?
	[ $rc -eq 129 ] || fail "record $*: exit $rc, not 129: $(head -1 bad.err)"
	head -1 bad.err | grep -Eq -- "$pat" || fail "record $*: first line '$(head -1 bad.err)'"
	[ ! -e bad.data ] || fail "record $*: wrote a file"
}
refused "switch-output.*'bogus': expected signal, a size" --switch-output=bogus
refused "switch-output.*'10X': expected signal" --switch-output=10X
refused "switch-output.*'100': expected signal" --switch-output=100
refused "switch-output.*'10S': expected signal" --switch-output=10S
refused "^perf record: --switch-output-event: .*unknown event 'bogus'" --switch-output-event=bogus
refused "^perf record: --switch-max-files=-1: a number of files" --switch-max-files=-1
refused "max-size.*'bogus': expected a size" --max-size=bogus
refused "max-size.*'10': expected a size" --max-size=10
refused "max-size.*'0M': expected a size" --max-size=0M
refused "control.*'bogus': expected fd:CTL\[,ACK\] or fifo:CTL\[,ACK\]" --control=bogus
refused "control.*cannot open FIFO 'no/such/fifo': No such file or directory" --control=fifo:no/such/fifo
refused "control.*fd: takes descriptor numbers" --control=fd:abc
refused "control.*CTL descriptor 99 is not open" --control=fd:99
refused "control.*'fifo:': an empty CTL" --control=fifo:
refused "switch .D.*'bogus': expected milliseconds, -1, or ranges" -D bogus
refused "switch .D.*'-5': expected milliseconds" -D -5
refused "switch .D.*'20-10': ranges must each end after they start" -D 20-10
refused "mmap-flush.*'bogus': expected a number of bytes" --mmap-flush=bogus
refused "affinity.*'bogus': expected node or cpu" --affinity=bogus
refused "^perf record: -r 200: a SCHED_FIFO priority from 1 to 99$" -r 200
refused "switch .r. expects a numerical value" -r abc
refused "^perf record: --switch-output: a pipe \(-o -\) is one stream" --switch-output -o -
pass
