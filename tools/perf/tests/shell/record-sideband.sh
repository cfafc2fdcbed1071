#!/bin/sh
# perf record's side-band against perf 6.1: the -a/-C tracking dummy (on every CPU with -C), LOST_SAMPLES at the end, -C lists, -p advice, --namespaces, --all-cgroups, ksymbol/bpf_event, -u, --buildid-mmap (exclusive)
# perf test timeout: 300
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
need_system_perf_record

# fields FILE: per event (in order) the attr fields perf record sets for the side-band and
# the sample layout, from the system perf's evlist -v; the event names, precise_ip and
# exclude_guest are the event syntax's (another test) and build_id our default (see
# Documentation/perf-record.txt), so they are left out
fields() {
	"$SYSTEM_PERF" evlist -v -i "$1" 2>/dev/null | awk '{
		sub(/^[^:]*(:[a-zA-Z]*)?: /, "")
		n = split($0, f, ", ")
		out = ""
		for (i = 1; i <= n; i++) {
			if (f[i] ~ /^(precise_ip|exclude_guest|build_id|size):/)
				continue
			out = out f[i] ", "
		}
		print NR ": " out
	}'
}

# same_attrs WHAT ARGS...: ours and perf 6.1's attrs of `record ARGS -- sleep 0.1` agree
# (perf 6.1 with -B -N: its build-id step at the end aborts now and then, "assertion failed
# at util/build-id.c:1010", stack smashing, while other tests rebuild binaries; -B and -N
# change no attr. An abort is tried once more.)
same_attrs() {
	what=$1
	shift
	"$SYSTEM_PERF" record -q -B -N -o sys.data "$@" -- sleep 0.1 >sys.log 2>&1
	rc=$?
	[ $rc -eq 134 ] && { "$SYSTEM_PERF" record -q -B -N -o sys.data "$@" -- sleep 0.1 >sys.log 2>&1; rc=$?; }
	[ $rc -eq 0 ] || fail "$what: perf 6.1 failed: $(tail -1 sys.log)"
	"$PERF" record -q -o our.data "$@" -- sleep 0.1 >our.log 2>&1 ||
		fail "$what: perf record $* failed: $(tail -1 our.log)"
	fields sys.data >sys.attrs
	fields our.data >our.attrs
	if ! cmp -s sys.attrs our.attrs; then
		verbose "perf 6.1: $(cat sys.attrs)"
		verbose "ours:     $(cat our.attrs)"
		fail "$what: attrs differ from perf 6.1's: $(diff sys.attrs our.attrs | grep '^[<>]' | head -2 | tr '\n' ' ')"
	fi
}

# no_warnings WHAT FILE: perf 6.1 and upstream 7.2 read FILE's side-band without a warning
no_warnings() {
	"$SYSTEM_PERF" script -i "$2" --show-task-events --show-mmap-events \
		--show-namespace-events --show-cgroup-events --show-bpf-events >sys.out 2>sys.err ||
		fail "$1: perf 6.1 script failed: $(tail -1 sys.err)"
	! grep -qi "warn\|unknown\|error" sys.err ||
		fail "$1: perf 6.1 script warns: $(grep -i "warn\|unknown\|error" sys.err | head -1)"
	if upstream_perf; then
		"$UPSTREAM_PERF" script -i "$2" --show-task-events --show-mmap-events \
			--show-namespace-events --show-cgroup-events --show-bpf-events \
			>up.out 2>up.err || fail "$1: upstream 7.2 script failed: $(tail -1 up.err)"
		! grep -qi "warn\|unknown\|error" up.err ||
			fail "$1: upstream 7.2 warns: $(grep -i "warn\|unknown\|error" up.err | head -1)"
	fi
	"$PERF" script -i "$2" --show-task-events --show-mmap-events --show-namespace-events \
		--show-cgroup-events --show-bpf-events >our.out 2>our.err ||
		fail "$1: our script failed: $(tail -1 our.err)"
	[ ! -s our.err ] || fail "$1: our script warns: $(head -1 our.err)"
}

# 1. -a and -C: perf's dummy tracks (enabled at once, before /proc is read), the sampling
# events do not
same_attrs "-a" -a
same_attrs "-a -g --switch-events" -a -g --switch-events
same_attrs "-C 0 -e cpu-clock,task-clock" -C 0 -e cpu-clock,task-clock
# every thread found in /proc: a FORK from its parent, then its COMM, as perf 6.1 writes them
for f in sys our; do
	"$SYSTEM_PERF" report -D -i $f.data 2>/dev/null |
		sed -n 's/^0 [0-9 ]*0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_\(FORK([0-9:]*):([0-9:]*)\|COMM: [^:]*:1\/1\)$/\1/p' |
		head -2 >$f.fork1
done
[ "$(cat our.fork1)" = "$(printf 'FORK(1:1):(0:0)\nCOMM: %s:1/1' "$(cat /proc/1/comm)")" ] ||
	fail "-C 0: pid 1 is not synthesized FORK(1:1):(0:0) then its COMM: $(tr '\n' ' ' <our.fork1)"
cmp -s sys.fork1 our.fork1 || fail "-C 0: pid 1's FORK and COMM differ from perf 6.1's"
same_attrs "workload" -e cpu-clock
no_warnings "-a" our.data
# -C: the tracking dummy on every online CPU (as perf 6.4+), the sampling events on the
# listed ones: the program taskset runs on CPU 1 still gets its MMAPs
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	"$PERF" record -q -C 0 -o c.data -- taskset --cpu-list 1 true >c.log 2>&1 ||
		fail "-C 0: $(tail -1 c.log)"
	n=$("$PERF" script -i c.data --show-mmap-events -C 1 2>/dev/null | grep -c 'MMAP.*/true$')
	[ "$n" -gt 0 ] || fail "-C 0: no MMAP of true on CPU 1"
	ids=$("$PERF" report --header-only -i c.data 2>/dev/null |
		sed -n 's/^# event : name = \([^,]*\), , id = { \([0-9, ]*\) }.*/\1 \2/p' |
		awk '{ print $1, NF - 1 }' | tr '\n' ' ')
	[ "$ids" = "cpu-clock:ppp 1 dummy:HG $(nproc) " ] ||
		fail "-C 0: ids per event not 1 for cpu-clock and $(nproc) for the dummy: $ids"
	no_warnings "-C 0" c.data
	# a pipe: ID_INDEX places every id on its cpu, each event's idx counting its own cpus
	"$PERF" record -q -C 0 -o - -- true 2>/dev/null >cp.data
	"$PERF" report -D -i cp.data 2>/dev/null | grep -A3 'PERF_RECORD_ID_INDEX' |
		sed -n 's/.*idx: \([0-9]*\)  cpu: \([0-9]*\).*/\1 \2/p' | tr '\n' ' ' >cp.idx
	[ "$(cat cp.idx)" = "0 0 0 0 1 1 " ] || [ "$(nproc)" -ne 2 ] ||
		fail "-C 0 in a pipe: ID_INDEX (idx cpu) not '0 0 0 0 1 1': $(cat cp.idx)"
else
	not_tested "-C's tracking dummy on every CPU: one CPU or no taskset"
fi

# 2. PERF_FORMAT_LOST read at the end: a LOST_SAMPLES record per descriptor that dropped
# samples (misc 0, the descriptor's id in the trailer, time 0), as perf 6.1 writes them.
# A one-page ring, a sample per page fault, and perf record stopped (SIGSTOP) for 0.3 s
# while the workload faults: the ring fills and the kernel drops samples, counting each
# into both PERF_RECORD_LOST and the event's PERF_FORMAT_LOST count.
"$PERF" record -q -e page-faults,minor-faults -c 1 -g -m 1 -o lost.data -- \
	"$WORKLOAD_PERF" test -w malloc 1 >lost.log 2>&1 &
rec=$!
sleep 0.3
kill -STOP $rec
sleep 0.3
kill -CONT $rec
wait $rec || fail "record -m 1 failed: $(tail -1 lost.log)"
"$SYSTEM_PERF" report -D -i lost.data >lost.dump 2>/dev/null || fail "perf 6.1 report -D of lost.data failed"

if grep -q "PERF_RECORD_LOST:" lost.dump; then
	expect_grep "^0 0x[0-9a-f]+ \[0x28\]: PERF_RECORD_LOST_SAMPLES: id:[0-9]+: lost samples :[1-9]" \
		lost.dump "the kernel lost samples, but there is no LOST_SAMPLES record as perf 6.1 writes it"
	ids=$("$SYSTEM_PERF" evlist -v -i lost.data 2>/dev/null | wc -l)
	"$SYSTEM_PERF" report --header-only -i lost.data 2>/dev/null | sed -n 's/.*id = { \([^}]*\)}.*/\1/p' |
		tr ', ' '\n\n' | grep . | sort >ids.txt
	sed -n 's/.*LOST_SAMPLES: id:\([0-9]*\):.*/\1/p' lost.dump | sort -u >lost-ids.txt
	[ -z "$(comm -13 ids.txt lost-ids.txt)" ] ||
		fail "LOST_SAMPLES with ids of no event: $(comm -13 ids.txt lost-ids.txt | head -1)"
	verbose "$(grep -c LOST_SAMPLES lost.dump) LOST_SAMPLES records for $ids events"
	# -q: no messages but errors, the sum of what was lost neither
	[ ! -s lost.log ] || fail "record -q with lost samples said: $(head -1 lost.log)"
else
	not_tested "LOST_SAMPLES: the kernel lost nothing with a one-page ring"
fi

# 4. -C: perf's CPU list syntax through the one reader (util/cpu-list.c): what perf 6.1 takes
# records those CPUs, what it refuses as usage (exit 129) is refused so, in one line
"$PERF" record -q -C 1,0 -o c10.data -- true >c10.log 2>&1 || fail "-C 1,0 refused: $(tail -1 c10.log)"
# (an empty -C is refused too; perf 6.1 takes it for "any CPU" and fails later, exit 255)
for spec in x 1-0 0,0 "1 2" ""; do
	"$SYSTEM_PERF" record -q -B -N -C "$spec" -o sysc.data -- true >/dev/null 2>&1
	sys=$?
	"$PERF" record -q -C "$spec" -o c.data -- true >c.log 2>&1
	ours=$?
	[ -z "$spec" ] && sys=129
	[ $ours -eq 129 ] && [ $sys -eq 129 ] ||
		fail "-C '$spec': exit $ours, perf 6.1 $sys (a usage error is 129)"
	[ "$(wc -l <c.log)" -eq 1 ] && grep -q "^perf record: -C '$spec': " c.log ||
		fail "-C '$spec': not one line naming it: $(head -2 c.log | tr '\n' ' ')"
done
last=$(($(getconf _NPROCESSORS_CONF) + 1))
"$PERF" record -q -C $last -o c.data -- true >c.log 2>&1 && fail "-C $last (no such CPU) was accepted"
[ "$(wc -l <c.log)" -eq 1 ] && grep -q "CPU $last is not online" c.log ||
	fail "-C $last: not one line saying the CPU is not online: $(head -2 c.log | tr '\n' ' ')"

# 5. -p of another user's process: the kernel refuses it for want of ptrace access, whatever
# kernel.perf_event_paranoid says; the advice says so (run as another user with setpriv)
foreign_p() {
	if [ "$(id -u)" != 0 ]; then
		(cd / && "$PERF" record -o /dev/null -p 1 -- true) >foreign.log 2>&1
	elif command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$PERF" 2>/dev/null; then
		(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$PERF" record -o /dev/null -p 1 -- true) >foreign.log 2>&1
	else
		return 2
	fi
}
foreign_p
case $? in
2)	not_tested "-p of another user's process: not root and no setpriv, or user nobody cannot run $PERF";;
0)	fail "-p 1 as another user than its owner was accepted";;
*)	[ "$(wc -l <foreign.log)" -eq 1 ] ||
		fail "-p 1 as another user: not one line: $(head -3 foreign.log | tr '\n' ' ')"
	expect_grep "^perf record: -p 1: .*task 1 belongs to user .*ptrace.*CAP_SYS_PTRACE.*paranoid is not the cause" \
		foreign.log "-p 1 as another user: the advice does not name ptrace access"
	! grep -q "sysctl\|fall back" foreign.log ||
		fail "-p 1 as another user: advice about perf_event_paranoid: $(cat foreign.log)";;
esac

# 6. Side-band options, with perf 6.1's attrs and records; perf 6.1 and upstream 7.2 read the
# files without a warning
# --namespaces: the bit on the tracking event, a NAMESPACES record synthesized per thread
# (the workload's own for a workload), each as perf 6.1 reads /proc/TID/ns
same_attrs "--namespaces" -e cpu-clock --namespaces
"$SYSTEM_PERF" report -D -i our.data 2>/dev/null | grep -q "^0 0x[0-9a-f]* \[0x98\]: PERF_RECORD_NAMESPACES [0-9]*/[0-9]* - nr_namespaces: 7" ||
	fail "--namespaces: no synthesized NAMESPACES record of the workload"
no_warnings "--namespaces" our.data
same_attrs "-a --namespaces --all-cgroups" -a --namespaces --all-cgroups
no_warnings "-a --namespaces --all-cgroups" our.data
# nsrec FILE TID: the synthesized NAMESPACES of TID as perf 6.1 prints them
nsrec() {
	"$SYSTEM_PERF" report -D -i "$1" 2>/dev/null | grep -A2 "^0 0 .*NAMESPACES $2/$2 " | tr -s ' \t\n' ' '
}
[ -n "$(nsrec our.data 2)" ] && [ "$(nsrec our.data 2 | sed 's/.*NAMESPACES//')" = "$(nsrec sys.data 2 | sed 's/.*NAMESPACES//')" ] ||
	fail "-a --namespaces: kthreadd's namespaces differ from perf 6.1's: $(nsrec our.data 2) vs $(nsrec sys.data 2)"
# --all-cgroups: the cgroup sample type on every event, CGROUP records of the hierarchy
same_attrs "--all-cgroups" -e cpu-clock --all-cgroups
"$SYSTEM_PERF" report -D -i sys.data 2>/dev/null | grep "^0 0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_CGROUP" |
	sed 's/^0 0x[0-9a-f]* //' | sort >sys.cg
"$SYSTEM_PERF" report -D -i our.data 2>/dev/null | grep "^0 0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_CGROUP" |
	sed 's/^0 0x[0-9a-f]* //' | sort >our.cg
[ -s our.cg ] && cmp -s sys.cg our.cg ||
	fail "--all-cgroups: CGROUP records differ from perf 6.1's: $(diff sys.cg our.cg | grep '^[<>]' | head -2 | tr '\n' ' ')"
no_warnings "--all-cgroups" our.data
"$PERF" script -i our.data -F comm,cgroup >cg.txt 2>cg.err || fail "script -F cgroup failed: $(head -1 cg.err)"
grep -q " /" cg.txt || fail "--all-cgroups: script -F cgroup shows no cgroup path: $(head -1 cg.txt)"
# --buildid-mmap: build ids in the MMAP2 records only, the kernel's map among them (an MMAP2
# with its build id as perf 6.1 synthesizes it), no HEADER_BUILD_ID, no build-id cache
rm -rf "$HOME/.debug"
same_attrs "--buildid-mmap" -e cpu-clock --buildid-mmap
kmap() {
	"$SYSTEM_PERF" report -D -i "$1" 2>/dev/null | grep "^0 .*PERF_RECORD_MMAP2 -1/0: .*\[kernel.kallsyms\]_text" |
		sed 's/^0 0x[0-9a-f]* //'
}
[ -n "$(kmap our.data)" ] && [ "$(kmap our.data)" = "$(kmap sys.data)" ] ||
	fail "--buildid-mmap: the kernel map differs from perf 6.1's: '$(kmap our.data)' vs '$(kmap sys.data)'"
"$SYSTEM_PERF" report --header-only -i our.data 2>/dev/null | grep "missing features" | grep -qw BUILD_ID ||
	fail "--buildid-mmap: HEADER_BUILD_ID written (perf 6.1 writes none)"
[ ! -d "$HOME/.debug" ] || [ -z "$(find "$HOME/.debug" -name elf -newer sys.data)" ] ||
	fail "--buildid-mmap: the build-id cache was filled: $(find "$HOME/.debug" -name elf | head -1)"
no_warnings "--buildid-mmap" our.data
# -u: every process of a user (a noploop run as nobody), as perf 6.1 opens them; a user
# unknown or with nothing running is refused in one line
"$PERF" record -q -u no-such-user-here -o u.data -- true >u.log 2>&1
[ $? -eq 129 ] && [ "$(wc -l <u.log)" -eq 1 ] && grep -q "^perf record: -u no-such-user-here: no such user" u.log ||
	fail "-u of an unknown user: not one usage line: $(head -2 u.log | tr '\n' ' ')"
"$PERF" record -q -u root -p 1 -o u.data -- true >u.log 2>&1
[ $? -eq 129 ] && [ "$(wc -l <u.log)" -eq 1 ] && grep -q "^perf record: -u .*drop -p and -t" u.log ||
	fail "-u with -p: not one usage line: $(head -2 u.log | tr '\n' ' ')"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$WORKLOAD_PERF" 2>/dev/null; then
	(cd / && exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$WORKLOAD_PERF" test -w noploop 60) &
	np=$!
	# -u lists the user's processes when it starts: wait until the noploop runs as nobody
	# and spins (setpriv has switched the user and exec'd)
	nobody_spins() {
		[ "$(stat -c %U /proc/$np 2>/dev/null)" = nobody ] &&
			[ "$(cat /proc/$np/comm 2>/dev/null)" = "$(basename "$WORKLOAD_PERF")" ] &&
			cpu_used $np 0.05
	}
	wait_until 30 nobody_spins || fail "nobody's noploop ($np) did not start in 30 s"
	same_attrs "-u nobody" -e cpu-clock -u nobody
	# a second at 4000 Hz of a spinning process (the ASan build takes a while to reach
	# its loop): a dead run has none
	"$PERF" record -q -u nobody -o u.data -- sleep 1 >u.log 2>&1 || fail "-u nobody: $(tail -1 u.log)"
	n=$("$PERF" script -i u.data -F pid,ip,sym 2>/dev/null | awk -v p=$np '$1 == p && $3 == "noploop"' | wc -l)
	# with -a (or -C): every task counted, only the user's samples written, as perf 7.x's
	# BPF filter keeps them: nobody's noploop's and none of root's, whose busy loop runs
	# beside it
	(while :; do :; done) &
	busy=$!
	for a in "-a" "-C 0,1"; do
		"$PERF" record -q $a -u nobody -o ua.data -- sleep 0.5 >u.log 2>&1 ||
			fail "$a -u nobody: $(tail -1 u.log)"
		"$PERF" script -i ua.data -F pid 2>/dev/null | sort -u | tr -d ' ' >ua.pids
		grep -qx "$np" ua.pids || fail "$a -u nobody: no sample of nobody's noploop ($np)"
		for p in $(grep -vx "$np" ua.pids); do
			o=$(stat -c %U /proc/$p 2>/dev/null)
			[ -z "$o" ] || [ "$o" = nobody ] || fail "$a -u nobody: a sample of pid $p ($o's)"
		done
		"$PERF" record -q $a -u root -o ua.data -- sleep 0.5 >u.log 2>&1 ||
			fail "$a -u root: $(tail -1 u.log)"
		"$PERF" script -i ua.data -F pid 2>/dev/null | tr -d ' ' | grep -qx "$busy" ||
			fail "$a -u root: no sample of root's busy loop ($busy)"
		! "$PERF" script -i ua.data -F pid 2>/dev/null | tr -d ' ' | grep -qx "$np" ||
			fail "$a -u root: a sample of nobody's noploop ($np)"
	done
	kill $busy 2>/dev/null
	wait $busy 2>/dev/null
	no_warnings "-a -u root" ua.data
	kill $np 2>/dev/null
	wait $np 2>/dev/null
	[ "$n" -gt 0 ] || fail "-u nobody: no sample of nobody's noploop ($np) resolved"
	no_warnings "-u nobody" u.data
	"$PERF" record -q -u nobody -o u.data -- true >u.log 2>&1 && ! pgrep -u nobody >/dev/null &&
		fail "-u nobody with nothing running was accepted"
else
	not_tested "-u of another user: not root, no setpriv, or user nobody cannot run $WORKLOAD_PERF"
fi
# -G: events counted in one cgroup only (the events given before it; -a or -C), perf 6.1's
# attrs; a noploop moved into a cgroup of its own is all that the event sees there
same_attrs "-a -e cpu-clock -G /" -a -e cpu-clock -G /
"$PERF" record -q -e cpu-clock -G / -o g.data -- true >g.log 2>&1
[ $? -eq 129 ] && grep -q "only available in system-wide mode" g.log ||
	fail "-G without -a: not refused as perf 6.1 does: $(head -1 g.log)"
"$PERF" record -q -a -e cpu-clock -G no-such-cgroup-here -o g.data -- true >g.log 2>&1
[ $? -eq 129 ] && [ "$(wc -l <g.log)" -eq 1 ] && grep -q "no access to cgroup" g.log ||
	fail "-G of no cgroup: not one usage line: $(head -2 g.log | tr '\n' ' ')"
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=perf-test-sideband-$$
if [ -n "$cgroot" ] && mkdir "$cgroot/$cg" 2>/dev/null; then
	"$WORKLOAD_PERF" test -w noploop 60 &
	np=$!
	if echo $np >"$cgroot/$cg/cgroup.procs" 2>/dev/null; then
		wait_until 30 cpu_used $np 0.05 || fail "the noploop ($np) did not spin in 30 s"
		"$PERF" record -q -a -e cpu-clock -G "$cg" -o g.data -- sleep 0.3 >g.log 2>&1 ||
			fail "-a -G $cg failed: $(tail -1 g.log)"
		"$PERF" script -i g.data -F pid >g.pids 2>/dev/null
		kill $np
		wait $np 2>/dev/null
		rmdir "$cgroot/$cg"
		[ -s g.pids ] || fail "-G $cg: no samples of the noploop in it"
		other=$(awk -v p=$np '$1 != p' g.pids | head -1)
		[ -z "$other" ] || fail "-G $cg: a sample of pid $other, outside the cgroup"
	else
		kill $np
		wait $np 2>/dev/null
		rmdir "$cgroot/$cg"
		not_tested "-G on a cgroup of its own: cannot move a task into $cgroot/$cg"
	fi
else
	not_tested "-G on a cgroup of its own: no writable cgroup2 hierarchy (${cgroot:-none})"
fi
# --kcore (a perf.data directory): data-dir.sh, and make vmtest where /proc/kcore is
# ksymbol and bpf_event (perf 6.1's default on the tracking event): a BPF program loaded and
# unloaded while recording gives KSYMBOL and BPF_EVENT records; perf script --show-bpf-events
# prints them as upstream 7.2 does
"$PERF" record -q -a -o bpf.data -- "$WORKLOAD_PERF" test -w bpfprog 0.2 >bpf.log 2>&1
case $? in
0)	"$SYSTEM_PERF" report -D -i bpf.data 2>/dev/null | grep -q "PERF_RECORD_KSYMBOL .* name bpf_prog_[0-9a-f]*_perf_test" &&
		"$SYSTEM_PERF" report -D -i bpf.data 2>/dev/null | grep -q "PERF_RECORD_BPF_EVENT type 1," ||
		fail "a BPF program loaded while recording -a: no KSYMBOL or BPF_EVENT record"
	no_warnings "BPF program" bpf.data
	if upstream_perf; then
		"$PERF" script -i bpf.data --show-bpf-events 2>/dev/null | grep "PERF_RECORD_\(KSYMBOL\|BPF_EVENT\)" >bpf.ours
		"$UPSTREAM_PERF" script -i bpf.data --show-bpf-events 2>/dev/null |
			grep "PERF_RECORD_\(KSYMBOL\|BPF_EVENT\)" >bpf.up
		[ -s bpf.ours ] && cmp -s bpf.ours bpf.up ||
			fail "--show-bpf-events differs from upstream 7.2's: $(diff bpf.ours bpf.up | grep '^[<>]' | head -2 | tr '\n' ' ')"
	else
		not_tested "--show-bpf-events against upstream 7.2: not installed"
	fi;;
*)	not_tested "KSYMBOL/BPF_EVENT: no BPF program can be loaded here ($(tail -1 bpf.log))";;
esac
# a BPF program loaded before the recording: its KSYMBOL and BPF_EVENT synthesized at the
# start, as perf 6.1's
"$WORKLOAD_PERF" test -w bpfprog 60 >bpfpre.log 2>&1 &
bp=$!
# loaded once one of its descriptors is a BPF program (fdinfo has its tag); gone if it
# could not load one
bpf_loaded() {
	grep -qs '^prog_tag:' /proc/$bp/fdinfo/* || ! kill -0 $bp 2>/dev/null
}
wait_until 30 bpf_loaded
if grep -qs '^prog_tag:' /proc/$bp/fdinfo/*; then
	same_attrs "-a with a BPF program loaded" -a
	synth_bpf() {
		"$SYSTEM_PERF" report -D -i "$1" 2>/dev/null |
			grep "^0 \(0 \)\?0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_\(KSYMBOL\|BPF_EVENT\)" |
			sed 's/^0 \(0 \)\?0x[0-9a-f]* //' | sort
	}
	synth_bpf sys.data >bpf-sys.txt
	synth_bpf our.data >bpf-our.txt
	kill $bp 2>/dev/null
	wait $bp 2>/dev/null
	grep -q "name bpf_prog_[0-9a-f]*_perf_test" bpf-our.txt && cmp -s bpf-sys.txt bpf-our.txt ||
		fail "BPF programs loaded already: synthesized records differ from perf 6.1's: $(diff bpf-sys.txt bpf-our.txt | grep '^[<>]' | head -2 | tr '\n' ' ')"
else
	kill $bp 2>/dev/null
	wait $bp 2>/dev/null
	not_tested "synthesized BPF programs: none can be loaded here ($(tail -1 bpfpre.log))"
fi
