#!/bin/sh
# perf record's records before the first sample (ID_INDEX, kernel MMAP, EVENT_UPDATE, THREAD_MAP, CPU_MAP, the command's COMM) hold what perf 6.1's hold, for a command, :u, several events, --per-thread, -p, -t, -a, -C and a pipe (exclusive)
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300
#
# Each case is recorded by perf 6.1 and by ours; perf 6.1's `report -D` of each file is reduced
# to the records written before PERF_RECORD_FINISHED_INIT with the ids replaced by their
# event's name and position in the header's id list (so an ID_INDEX id must be one of the
# attrs' ids) and the pids by names (W: the command, P: the -p/-t process). Events only one
# file has (perf's dummy tracking event of -a) are left out of the comparison.

. "$(dirname "$0")"/lib.sh

need_perf
need_system_perf_record

# view FILE TARGET: the reduced records of FILE (TARGET: the -p/-t pid, or 0)
view() {
	"$SYSTEM_PERF" report --header-only -i "$1" >"$1.header" 2>/dev/null || return 1
	"$SYSTEM_PERF" report -D -i "$1" >"$1.dump" 2>/dev/null || return 1
	w=$(sed -n 's/.*PERF_RECORD_COMM: perf-exec:\([0-9]*\)\/.*/\1/p' "$1.dump" | head -1)
	awk -v w="${w:--2}" -v p="$2" '
	function pid(x) { return x == w ? "W" : x == p ? "P" : x }
	FNR == NR {
		# "# event : name = cpu-clock, , id = { 11, 12 }, type = ..."
		if ($0 !~ /^# event : name = /)
			next
		# modifiers aside: perf names its default event cpu-clock:ppp after the fallback
		name = $0; sub(/^# event : name = /, "", name); sub(/[,:].*/, "", name)
		ids = $0; sub(/.* id = \{ */, "", ids); sub(/ *\}.*/, "", ids)
		n = split(ids, v, /, */)
		for (k = 1; k <= n; k++)
			ev[v[k]] = name "#" (k - 1)
		next
	}
	/PERF_RECORD_FINISHED_INIT/ { exit }
	/^ \.\.\. id: / {
		# an ID_INDEX entry: an id no attr has is a difference in itself
		e = ($3 in ev) ? ev[$3] : "unknown-id"
		print "id_index", e, "idx", $5, "cpu", $7, "tid", pid($9)
		next
	}
	/^\.\.\. id: / { upd = ($3 in ev) ? ev[$3] : "unknown-id"; next }
	/^\.\.\. (unit|scale|name): / { print "event_update", upd, $2, $3; next }
	/PERF_RECORD_THREAD_MAP/ {
		s = $0; sub(/.*PERF_RECORD_THREAD_MAP /, "", s)
		n = split(s, f, / +/)
		out = "thread_map"
		for (k = 1; k <= n; k++)
			out = out " " (f[k] ~ /^-?[0-9]+$/ ? pid(f[k]) : f[k])
		print out
		next
	}
	/PERF_RECORD_CPU_MAP/ { s = $0; sub(/.*PERF_RECORD_CPU_MAP/, "cpu_map", s); print s; next }
	# with -a and -C the /proc walk may meet the command too, named perf-exec or not yet
	# (it names itself after the fork): a race in both perfs, so the COMM counts once
	/PERF_RECORD_COMM: perf-exec:/ { if (!comm++) print "comm perf-exec W"; next }
	/PERF_RECORD_MMAP .*\[kernel\.kallsyms\]_text/ { print "kernel_mmap"; next }
	' "$1.header" "$1.dump" >"$1.view"
}

# events FILE: the event names of FILE's header without modifiers, one a line
events() {
	sed -n 's/^# event : name = \([^,:]*\)[,:].*/\1/p' "$1.header" | sort -u
}

# sys_record LOG OPTIONS...: perf 6.1's record, tried 3 times: it aborts now and then on a
# loaded machine (record-matrix.sh retries it too)
sys_record() {
	log=$1
	shift
	for try in 1 2 3; do
		"$SYSTEM_PERF" record -q -N "$@" >"$log.out" 2>"$log" && return 0
		verbose "perf 6.1 record failed (try $try): $(tail -1 "$log")"
	done
	return 1
}

# check NAME TARGET OPTIONS...: record with both, compare the views of the events both have
check() {
	name=$1
	target=$2
	shift 2
	sys_record "$name.t.log" -o "$name.t.data" "$@" ||
		fail "$name: perf 6.1 record failed: $(tail -1 "$name.t.log")"
	"$PERF" record -q -N -o "$name.o.data" "$@" >"$name.o.log" 2>&1 ||
		fail "$name: record failed: $(tail -1 "$name.o.log")"
	view "$name.t.data" "$target" || fail "$name: perf 6.1 cannot read its own file"
	view "$name.o.data" "$target" || fail "$name: perf 6.1 cannot read our file"
	events "$name.t.data" >"$name.t.events"
	events "$name.o.data" >"$name.o.events"
	comm -12 "$name.t.events" "$name.o.events" >"$name.both"
	[ -s "$name.both" ] || fail "$name: no event in both files"
	for f in t o; do
		awk 'FNR == NR { keep[$0] = 1; next }
		     $1 !~ /^(id_index|event_update)$/ { print; next }
		     { e = $2; sub(/#[0-9]+$/, "", e); if (e in keep) print }' \
			"$name.both" "$name.$f.data.view" >"$name.$f.cmp"
	done
	grep -q unknown-id "$name.o.cmp" && fail "$name: an ID_INDEX or EVENT_UPDATE id that no attr of ours has"
	# -C 0: our tracking dummy is on every online CPU (as perf 6.4+, not 6.1): its ids on
	# the others, idx counting its own cpus, are ours alone
	if [ "$name" = cpu ]; then
		grep -v '^id_index dummy#[0-9]* idx [1-9][0-9]* cpu [1-9][0-9]* tid -1$' \
			"$name.o.cmp" >"$name.o.cmp1"
		n=$(($(wc -l <"$name.o.cmp") - $(wc -l <"$name.o.cmp1")))
		[ "$n" -eq $(($(nproc) - 1)) ] ||
			fail "$name: $n ids of the dummy on other CPUs than -C 0's, not $(($(nproc) - 1))"
		mv "$name.o.cmp1" "$name.o.cmp"
	fi
	grep -q '^id_index' "$name.o.cmp" || fail "$name: no ID_INDEX"
	if ! diff "$name.t.cmp" "$name.o.cmp" >"$name.diff"; then
		verbose "$(cat "$name.diff")"
		fail "$name: the records differ from perf 6.1's: $(grep '^[<>]' "$name.diff" | head -2 | tr '\n' ' ')"
	fi
	verbose "$name: $(wc -l <"$name.o.cmp") records and entries as perf 6.1's"
}

check workload 0 -e cpu-clock -- sleep 0.1
# the default event falls back to a clock here (no hardware PMU): perf gives it no unit. With
# -a both take cpu-clock (for a task perf 6.1 takes cpu-clock, upstream since 6.8 and we
# task-clock: record.sh), so that the events compare
check default 0 -a -- sleep 0.1
check user 0 -e cpu-clock:u -- sleep 0.1
grep -q kernel_mmap user.o.cmp && fail "user: a kernel MMAP though every event excludes the kernel"
check events 0 -e task-clock -e page-faults -e cpu-clock -- sleep 0.1
check per-thread 0 --per-thread -e cpu-clock -- sleep 0.1
check cpu 0 -C 0 -e cpu-clock -- sleep 0.1
check all 0 -a -e cpu-clock -- sleep 0.1
if "$SYSTEM_PERF" list 2>/dev/null | grep -q 'sched:sched_switch'; then
	check tracepoint 0 -e sched:sched_switch -- sleep 0.1
else
	not_tested "tracepoint: no sched:sched_switch here"
fi

sleep 20 &
target=$!
# shellcheck disable=SC2064
trap "kill $target 2>/dev/null" EXIT
check pid "$target" -e cpu-clock -p "$target" -- sleep 0.2
check tid "$target" -e cpu-clock -t "$target" -- sleep 0.2

# a pipe: the NAME updates come after each event's unit and scale
sys_record pipe.t.log -o - -e cpu-clock -e page-faults -- sleep 0.1 || fail "pipe: perf 6.1 record failed"
mv pipe.t.log.out pipe.t.data
"$PERF" record -q -N -o - -e cpu-clock -e page-faults -- sleep 0.1 >pipe.o.data 2>pipe.o.log ||
	fail "pipe: record failed: $(tail -1 pipe.o.log)"
view pipe.t.data 0 || fail "pipe: perf 6.1 cannot read its own stream"
view pipe.o.data 0 || fail "pipe: perf 6.1 cannot read our stream"
grep -q 'event_update cpu-clock#0 name' pipe.o.data.view || fail "pipe: no NAME update"
diff pipe.t.data.view pipe.o.data.view >pipe.diff ||
	fail "pipe: the records differ from perf 6.1's: $(grep '^[<>]' pipe.diff | head -2 | tr '\n' ' ')"
kill $target 2>/dev/null
pass
