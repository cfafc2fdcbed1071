#!/bin/sh
# perf record -e syntax: modifiers, groups ({a,b}, :S, :W), raw/PMU/cache events, --filter, --exclude-perf: attrs as perf 6.1's, files read by ours and upstream 7.2, perf's errors (exclusive)
# perf test timeout: 300
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
# the comparisons with perf 6.1 and upstream 7.2, the tracepoint filters, --exclude-perf (-a),
# the refusal of a hardware event without a CPU PMU
cases 5
wl="$WORKLOAD_PERF test -w noploop 0.1"

# err_case EXIT PATTERN WHAT ARGS...: perf record ARGS fails with EXIT and one line matching
err_case() {
	want=$1 pat=$2 what=$3
	shift 3
	"$PERF" record -o err.data "$@" -- true >err.out 2>err.log
	rc=$?
	[ "$rc" -eq "$want" ] || fail "$what: exit $rc, not $want ($(head -1 err.log))"
	expect_grep "$pat" err.log "$what: not perf's message"
	[ "$(grep -c 'perf record:' err.log)" -eq 1 ] || fail "$what: not one line: $(cat err.log)"
}

# syntax errors: 129 and perf's words, before anything is opened
err_case 129 "'cpu-clock:x': Bad modifier 'x'.*perf list" "bad modifier" -e cpu-clock:x
err_case 129 "Bad modifier 'ppppp'" "four p" -e cpu-clock:ppppp
err_case 129 "Bad modifier 'uu'" "a repeated modifier" -e cpu-clock:uu
err_case 129 "Bad modifier 'q'" "a bad group modifier" -e '{cpu-clock,task-clock}:q'
err_case 129 "Cannot find PMU .nosuchpmu'" "unknown pmu" -e nosuchpmu/config=1/
err_case 129 "unknown term 'foo' for pmu 'software' \(valid terms: config," "bad term" \
	-e software/foo=1/
err_case 129 "'config=zz': the value is not a number" "bad term value" -e software/config=zz/
err_case 129 "without its closing '}'" "unclosed group" -e '{cpu-clock,task-clock'
err_case 129 "groups do not nest" "nested group" -e '{cpu-clock,{task-clock}}'
err_case 129 "L1-icache-stores': that cache has no such operation" "cache op" -e L1-icache-stores
err_case 129 "unknown event 'no-such-event'" "unknown event" -e no-such-event
err_case 129 "--filter option should follow a -e tracepoint option: 'cpu-clock' is not a tracepoint" \
	"--filter after a non-tracepoint" -e cpu-clock --filter 'common_pid != 0'
err_case 129 "--filter option should follow a -e tracepoint option" "--filter before any -e" \
	--filter 'common_pid != 0'
err_case 129 "--exclude-perf option should follow a -e tracepoint option" \
	"--exclude-perf after a non-tracepoint" -e task-clock --exclude-perf

# refused by the kernel: 255, perf's line, no fallback to cpu-clock (only cycles falls back)
if "$PERF" record -q -e instructions -o hw.data -- true >hw.log 2>&1; then
	not_tested "hardware events without a CPU PMU: this machine has one"
else
	err_case 255 "The instructions event is not supported\.$" "instructions without a PMU" \
		-e instructions
	err_case 255 "The r1a8 event is not supported\.$" "raw event" -e r1a8
	err_case 255 "The L1-dcache-load-misses event is not supported\.$" "cache event" \
		-e L1-dcache-load-misses
	err_case 255 "The LLC-loads:u event is not supported\.$" "cache event with a modifier" \
		-e LLC-loads:u
	err_case 255 "The instructions event is not supported" "a failing member" \
		-e '{cpu-clock,instructions}'
fi
# a member the kernel will not group (pinned): an error, unless the group is weak
err_case 255 "task-clock:D event cannot be opened in its group: only a group leader can be pinned" \
	"pinned member" -e '{cpu-clock,task-clock:D}'

# events_of FILE: "N event" per event name among the samples of our script
events_of() {
	"$PERF" script -F event -i "$1" 2>/dev/null | sort | uniq -c | awk '{ print $1, $2 }'
}
# has_samples FILE WHAT EVENT...: at least 20 samples of each (0.1 s at 4 kHz is ~400)
has_samples() {
	f=$1 what=$2
	shift 2
	events_of "$f" >ev.txt
	for e in "$@"; do
		n=$(awk -v e="$e:" '$2 == e { print $1 }' ev.txt)
		[ "${n:-0}" -ge 20 ] || fail "$what: ${n:-no} $e samples ($(tr '\n' ' ' <ev.txt))"
	done
}
# shellcheck disable=SC2086
rec() {
	name=$1
	shift
	"$PERF" record -q -o "$name.data" "$@" -- $wl >"$name.log" 2>&1 ||
		fail "record $*: $(tail -1 "$name.log")"
	[ ! -s "$name.log" ] || fail "record -q $* said: $(head -1 "$name.log")"
}

# two -e, a group, a sampling group, a weak group the kernel refuses as a group
rec two -e cpu-clock -e task-clock
has_samples two.data "-e cpu-clock -e task-clock" cpu-clock task-clock
rec group -e '{cpu-clock,task-clock}'
has_samples group.data "{cpu-clock,task-clock}" cpu-clock task-clock
rec groups -e '{cpu-clock,task-clock}:S'
# the leader's samples carry both counts: script shows one sample per member that counted
has_samples groups.data "{cpu-clock,task-clock}:S" cpu-clock task-clock
rec weak -e '{cpu-clock,task-clock:D}:W'
has_samples weak.data "weak group" cpu-clock task-clock:D
for f in group groups; do
	"$PERF" report --header-only -i $f.data >$f.hdr 2>&1 || fail "report --header-only $f failed"
	expect_grep '^# group: \{cpu-clock,task-clock\}$' $f.hdr "$f: no HEADER_GROUP_DESC"
done
"$PERF" report --header-only -i weak.data >weak.hdr 2>&1
! grep -q '^# group:' weak.hdr || fail "weak group opened alone still has a GROUP_DESC"
"$PERF" report --header-only -i two.data >two.hdr 2>&1
! grep -q '^# group:' two.hdr || fail "two single events have a GROUP_DESC"
"$PERF" report --stdio --no-group -i groups.data >groups.rep 2>groups.rep.err ||
	fail "report of the :S group failed: $(tail -1 groups.rep.err)"
expect_grep "of event 'task-clock'" groups.rep "report of the :S group: no task-clock"
# the same :S group in a pipe
# shellcheck disable=SC2086
"$PERF" record -q -o - -e '{cpu-clock,task-clock}:S' -- $wl >gpipe.data 2>gpipe.log ||
	fail "record -o - of a :S group: $(tail -1 gpipe.log)"
"$PERF" script -i - <gpipe.data >gpipe.txt 2>gpipe.err || fail "script of the :S pipe failed"
[ ! -s gpipe.err ] || fail "script of the :S pipe warned: $(head -1 gpipe.err)"

# PMU terms: software/config=1/ is task-clock, name= names it, period= is its own
rec pmu -e 'software/config=1,name=tc/' -e 'software/config=0,period=1000000/'
has_samples pmu.data "software/config=N/" tc software/config=0,period=1000000/
# a fixed period of its own: no PERIOD in its samples (perf's choice), so the header says it
"$PERF" report --header-only -i pmu.data >pmu.hdr 2>&1
expect_grep "name = software/config=0,period=1000000/,.* sample_period, sample_freq \} = 1000000," pmu.hdr \
	"period=1000000 is not the event's period"

# upstream 7.2 reads our group files as ours does (the vdso: upstream cannot read its symbols)
cp /proc/kallsyms kallsyms || fail "cannot copy /proc/kallsyms"
if upstream_perf; then
	for f in group groups gpipe; do
		"$UPSTREAM_PERF" script --kallsyms=kallsyms -i $f.data 2>$f.up.err |
			grep -v '(\[vdso\])' >$f.up
		"$PERF" script --kallsyms=kallsyms -i $f.data 2>$f.our.err | grep -v '(\[vdso\])' >$f.our
		[ -s $f.our ] || fail "$f: our script printed nothing: $(head -1 $f.our.err)"
		cmp -s $f.up $f.our || fail "$f: upstream's script differs from ours: $(diff $f.up $f.our | head -3)"
	done
else
	UPSTREAM_PERF=
	not_tested "upstream 7.2 on our group files: no upstream perf here"
fi

# the attrs equal perf 6.1's, field by field (but the attr size, the ids, and the side-band
# event's ksymbol/bpf_event, which we do not record, and build_id, which perf 6.1 leaves off)
attrs_of() {
	"$SYSTEM_PERF" evlist -v -i "$1" 2>/dev/null | grep -v '^#' |
		sed -E 's/size: [0-9]+, //; s/, (ksymbol|bpf_event|build_id): 1//g'
}
sys_attrs=
if [ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" record -q -B -N -e cpu-clock -o sys.data -- true 2>/dev/null
then
	sys_attrs=yes
	# one recording per line (perf 6.1 takes seconds each on a loaded machine): the
	# modifiers of single events, :S alone, groups alone, groups with modifiers, PMU terms;
	# cycles with -a, where both fall back to cpu-clock (for a task perf 6.1 takes cpu-clock,
	# upstream since 6.8 and we task-clock: record.sh)
	while read -r spec; do
		# -B -N: perf 6.1's build-id cache aborts now and then on a busy machine (an
		# assertion in util/build-id.c); the attrs are the same without it
		# shellcheck disable=SC2086
		"$SYSTEM_PERF" record -q -B -N $spec -o sys.data -- true </dev/null >sys.log 2>&1 ||
			fail "perf 6.1 cannot record $spec: $(tail -1 sys.log)"
		# shellcheck disable=SC2086
		"$PERF" record -q $spec -o our.data -- true </dev/null >our.log 2>&1 ||
			fail "record $spec: $(tail -1 our.log)"
		attrs_of sys.data >sys.attrs
		attrs_of our.data >our.attrs
		[ -s sys.attrs ] || fail "perf 6.1's evlist of $spec printed nothing"
		cmp -s sys.attrs our.attrs ||
			fail "$spec: our attrs are not perf 6.1's: $(diff sys.attrs our.attrs | tr '\n' ' ')"
	done <<-EOF
	-e cpu-clock -e cpu-clock:u -e cpu-clock:k -e cpu-clock:h -e cpu-clock:uk -e cpu-clock:G -e cpu-clock:H -e cpu-clock:uG -e cpu-clock:D -e cpu-clock:I -e cpu-clock:p -e cpu-clock:pp -e cpu-clock:ppp -e cpu-clock:P -e cpu-clock:W -e cpu-clock:e
	-a -e cycles:u -e cycles:P
	-e cpu-clock:S
	-e {cpu-clock,task-clock}
	-e {cpu-clock,task-clock}:S
	-e {cpu-clock,task-clock}:uS -e {cpu-clock:k,task-clock}:u -e {cpu-clock,task-clock}:D -e {cpu-clock,page-faults:u}:SG -e task-clock:uS
	-e software/config=0/ -e software/config=1,name=tc/ -e software/config=3/k -e software/config=1,period=1234567/
	EOF
	# and perf 6.1 reads our group files without a word
	for f in group groups gpipe; do
		"$SYSTEM_PERF" script -i $f.data >/dev/null 2>sys.err || fail "perf 6.1 script $f failed"
		[ ! -s sys.err ] || fail "perf 6.1 script $f warned: $(head -1 sys.err)"
	done
else
	not_tested "attrs against perf 6.1: no system perf that records here"
fi

# tracepoints: a modifier, --filter (joined by &&), a filter the kernel refuses
if "$PERF" record -q -e sched:sched_process_exec -o tp.data -- true >tp.log 2>&1; then
	[ "$("$PERF" script -i tp.data 2>/dev/null | grep -c sched_process_exec)" -eq 1 ] ||
		fail "sched_process_exec of true: not one sample"
	"$PERF" record -q -e sched:sched_process_exec:u --filter 'pid != 0' --filter 'pid == 1' \
		-o tpf.data -- true >tpf.log 2>&1 || fail "record --filter: $(tail -1 tpf.log)"
	[ "$("$PERF" script -i tpf.data 2>/dev/null | grep -c sched_process_exec)" -eq 0 ] ||
		fail "--filter 'pid == 1' kept the exec of true"
	"$PERF" record -q -e sched:sched_process_exec --filter 'pid != 1' -o tpk.data -- true \
		>tpk.log 2>&1 || fail "record --filter 'pid != 1': $(tail -1 tpk.log)"
	[ "$("$PERF" script -i tpk.data 2>/dev/null | grep -c sched_process_exec)" -eq 1 ] ||
		fail "--filter 'pid != 1' dropped the exec of true"
	err_case 255 'failed to set filter "nosuchfield == 1" on event sched:sched_process_exec with 22 \(Invalid argument\)' \
		"a bad filter" -e sched:sched_process_exec --filter 'nosuchfield == 1'
	# a tracepoint among other events: its samples alone carry the CPU, so the sample
	# types differ and the id goes first and last (IDENTIFIER), as perf; read as upstream
	rec tpmix -e sched:sched_switch,cpu-clock -e '{task-clock,sched:sched_process_exec}:S'
	if [ -n "$UPSTREAM_PERF" ] && [ -x "$UPSTREAM_PERF" ]; then
		"$UPSTREAM_PERF" script --kallsyms=kallsyms -i tpmix.data 2>/dev/null |
			grep -v '(\[vdso\])' >tpmix.up
		"$PERF" script --kallsyms=kallsyms -i tpmix.data 2>tpmix.err | grep -v '(\[vdso\])' >tpmix.our
		[ -s tpmix.our ] || fail "tracepoint mix: our script printed nothing: $(head -1 tpmix.err)"
		cmp -s tpmix.up tpmix.our ||
			fail "tracepoint mix: upstream's script differs from ours: $(diff tpmix.up tpmix.our | head -3)"
	fi
	if [ -n "$sys_attrs" ]; then
		"$SYSTEM_PERF" record -q -B -N -e sched:sched_switch,cpu-clock \
			-e '{task-clock,sched:sched_process_exec}:S' -o sys.data -- true </dev/null >sys.log 2>&1 ||
			fail "perf 6.1 cannot record the tracepoint mix: $(tail -1 sys.log)"
		"$PERF" record -q -e sched:sched_switch,cpu-clock \
			-e '{task-clock,sched:sched_process_exec}:S' -o our.data -- true </dev/null >our.log 2>&1 ||
			fail "record of the tracepoint mix: $(tail -1 our.log)"
		attrs_of sys.data >sys.attrs
		attrs_of our.data >our.attrs
		cmp -s sys.attrs our.attrs ||
			fail "tracepoint mix: our attrs are not perf 6.1's: $(diff sys.attrs our.attrs | tr '\n' ' ')"
		# perf 6.1's file of it: a tracepoint member without CPU after one with it (our
		# script once let the second take the cpu and trace fields from the first's type)
		if [ -n "$UPSTREAM_PERF" ]; then
			"$UPSTREAM_PERF" script --kallsyms=kallsyms -i sys.data 2>/dev/null | grep -v "(\\[vdso\\])" >sysmix.up
			"$PERF" script --kallsyms=kallsyms -i sys.data 2>sysmix.err | grep -v "(\\[vdso\\])" >sysmix.our
			[ -s sysmix.our ] || fail "perf 6.1's tracepoint mix: our script printed nothing"
			cmp -s sysmix.up sysmix.our ||
				fail "perf 6.1's tracepoint mix: upstream's script differs from ours: $(diff sysmix.up sysmix.our | head -3)"
		fi
	fi
else
	verbose "$(cat tp.log)"
	not_tested "tracepoint filters: cannot record a tracepoint here"
fi

# --exclude-perf: none of perf's own syscalls (its pid is the shell's that execs it)
# (perf's writes and polls: not all syscalls, which perf, recording its own, makes ever more of)
sc=syscalls:sys_enter_write,syscalls:sys_enter_poll,syscalls:sys_enter_ppoll
if "$PERF" record -q -a -e $sc -o ex0.data -- true >ex.log 2>&1; then
	sh -c 'echo $$ >ex.pid; exec "$1" record -q -a -e "$2" --exclude-perf -o ex.data -- sleep 0.2' \
		sh "$PERF" $sc >ex.log 2>&1 || fail "record --exclude-perf: $(tail -1 ex.log)"
	sh -c 'echo $$ >inc.pid; exec "$1" record -q -a -e "$2" -o inc.data -- sleep 0.2' \
		sh "$PERF" $sc >inc.log 2>&1 || fail "record -a $sc: $(tail -1 inc.log)"
	n_ex=$("$PERF" script -F pid -i ex.data 2>/dev/null | awk -v p="$(cat ex.pid)" '$1 == p' | wc -l)
	n_inc=$("$PERF" script -F pid -i inc.data 2>/dev/null | awk -v p="$(cat inc.pid)" '$1 == p' | wc -l)
	# without the filter perf sees its own reads, polls and writes
	[ "$n_inc" -gt 0 ] || fail "record -a $sc: none of perf's own syscalls"
	[ "$n_ex" -eq 0 ] || fail "--exclude-perf: $n_ex of perf's own syscalls recorded"
else
	verbose "$(cat ex.log)"
	not_tested "--exclude-perf: cannot record syscall tracepoints system-wide here"
fi
pass
