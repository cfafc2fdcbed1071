#!/bin/sh
# perf record: a full disk (small tmpfs) gives one error and a file readable to its last record; paranoid refusal as a non-root user names the fix; no sysfs cpu list (a chroot) names the file; tracepoints with fields (exclusive)
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
cases 4	# tracepoints, ENOSPC, paranoid, no sysfs
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi

# tracepoints: the fields print from the tracing data we wrote, in file and pipe mode
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	"$PERF" record -q -e sched:sched_switch -a -o tp.data -- sleep 0.2 >tp.log 2>&1 ||
		fail "record -e sched:sched_switch failed: $(tail -1 tp.log)"
	"$PERF" script -i tp.data >tp.txt 2>tp.err || fail "script of the tracepoints failed: $(tail -1 tp.err)"
	expect_grep 'sched:sched_switch: prev_comm=.* prev_pid=[0-9]+ .* ==> next_comm=' tp.txt \
		"tracepoint samples without their fields"
	"$PERF" record -q -e sched:sched_switch -a -o - -- sleep 0.2 2>tpp.log | "$PERF" script -i - >tpp.txt 2>&1
	expect_grep 'sched:sched_switch: prev_comm=' tpp.txt "pipe mode: tracepoint samples without their fields"
	"$PERF" record -e sched:no_such_tracepoint -o x.data -- true 2>tpe.err && fail "an unknown tracepoint was accepted"
	expect_grep "no_such_tracepoint" tpe.err "an unknown tracepoint: not named"
else
	not_tested "tracepoints: no tracefs"
fi

# ENOSPC: a 512 KB tmpfs fills in the middle of the recording
if [ "$(id -u)" -eq 0 ] && mkdir -p small && mount -t tmpfs -o size=512k tmpfs small 2>/dev/null; then
	"$PERF" record -e cpu-clock:u -F 4000 -g -o small/full.data -- "$WORKLOAD_PERF" test -w calls 3 \
		>full.log 2>&1; rc=$?
	cp small/full.data full.data 2>/dev/null
	umount small
	[ $rc -ne 0 ] || fail "a full disk: exit 0"
	[ "$(grep -c . full.log)" -eq 1 ] || fail "a full disk: not one line: $(cat full.log)"
	expect_grep 'No space left on device.*holds the [0-9]+ bytes of complete records' full.log \
		"a full disk: no clear line"
	"$PERF" script -i full.data >full.txt 2>full.err ||
		fail "the file of a full disk is not readable: $(tail -1 full.err)"
	[ "$(grep -c calls_leaf full.txt)" -ge 100 ] || fail "the file of a full disk kept too few samples"
else
	not_tested "ENOSPC: no tmpfs mount (not root?)"
fi

# perf_event_paranoid: a non-root user may not record system-wide at 1 or more. The sysctl
# is the machine's: hence "(exclusive)", no other test runs while it is raised.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
nobody_perf=$PERF
# a clone under /root is out of nobody's reach: then a copy of the binary in reach
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	! as_nobody test -x "$PERF" 2>/dev/null; then
	chmod 711 "$TMPDIR" && mkdir -m 755 nobody && cp "$PERF" nobody/perf &&
		nobody_perf=$TMPDIR/nobody/perf
fi
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	as_nobody test -x "$nobody_perf" 2>/dev/null; then
	trap 'echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid' EXIT
	echo 2 >/proc/sys/kernel/perf_event_paranoid
	as_nobody "$nobody_perf" record -a -o /tmp/x.data -- true \
		>par.log 2>&1; rc=$?
	echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
	trap - EXIT
	[ $rc -eq 255 ] || fail "paranoid refusal: exit $rc, not 255"
	[ "$(grep -c . par.log)" -eq 1 ] || fail "paranoid refusal: not one line: $(cat par.log)"
	expect_grep 'kernel.perf_event_paranoid is 2.*system-wide.*sysctl -w kernel.perf_event_paranoid=0' par.log \
		"paranoid refusal: the fix is not named"
else
	not_tested "paranoid: no setpriv, or no copy of the perf binary that nobody can run"
fi
# no /sys/devices/system/cpu (a chroot without sysfs): one line naming the file, exit 255
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private sh -c '
		mount -t tmpfs none /sys/devices/system/cpu || exit 99
		exec "$1" record -e cpu-clock -o nosys.data -- true' sh "$PERF" >nosys.log 2>&1
	rc=$?
	[ $rc -ne 99 ] || fail "no sysfs: cannot hide /sys/devices/system/cpu: $(cat nosys.log)"
	[ $rc -eq 255 ] || fail "no sysfs: exit $rc, not 255: $(cat nosys.log)"
	[ "$(grep -c . nosys.log)" -eq 1 ] || fail "no sysfs: not one line: $(cat nosys.log)"
	expect_grep '^perf record: cannot read /sys/devices/system/cpu/present: No such file or directory \(is sysfs mounted\?\)$' \
		nosys.log "no sysfs: the file is not named: $(cat nosys.log)"
else
	not_tested "no sysfs: not root, or no unshare"
fi
pass
