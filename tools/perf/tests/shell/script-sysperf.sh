#!/bin/sh
# perf script agrees with the system perf on recordings it makes here (same samples, symbols, DSOs)
. "$(dirname "$0")"/lib.sh

need_perf
need_system_perf_record

# The system perf (6.1) prints an older layout: user addresses relative to their DSO, a
# narrower tid column and some PLT entries without their symbol. Compare what both mean:
# each sample line with blanks squeezed, each symbol as "sym+off (dso)", whether it is a
# callchain frame or, without -g, the sample line's own. 6.1 leaves some PLT stubs unnamed
# where 7.2 (and we) name them: a PLT symbol matches [unknown]. The PLT's first entry
# (before the first stub) is 6.1's "_init+0x26": _init grown to the next symbol; _init's
# own addresses compare so on both sides too. A PLT name can be a
# demangled C++ one, parentheses and all ("std::future_category()@plt+0x6"). 6.1 demangles
# C++ names without their parameters, 7.2 (and we) with them: they go.
# A symbol starts after a frame's tab or after the sample line's "event: address ".
at_sym='(	|.*: +[0-9a-f]+ )'
normalize() {
	sed -E -e 's/^	 *[0-9a-f]+ /	/' \
		-e "s/^$at_sym(\[unknown\]|_init\+0x[0-9a-f]+|[^ (]*plt[^ (]*|.*@plt(\+0x[0-9a-f]+)?) \(/\1[plt?] (/" \
		-e "s/^($at_sym[^(]*)\(.*\)(\+0x[0-9a-f]+ \(\/)/\1\3/" \
		-e 's/  +/ /g' "$1"
}

check() {
	name=$1
	shift
	"$SYSTEM_PERF" record -q -o "$name.data" "$@" >"$name.rec.log" 2>&1 ||
		fail "$name: system perf record failed: $(tail -3 "$name.rec.log")"
	"$SYSTEM_PERF" script -i "$name.data" >"$name.sys" 2>"$name.sys.err" ||
		fail "$name: system perf script failed: $(tail -3 "$name.sys.err")"
	# perf 6.1 shows no inline frames
	"$PERF" script --no-inline -i "$name.data" >"$name.ours" 2>"$name.ours.err" ||
		fail "$name: perf script failed: $(cat "$name.ours.err")"
	normalize "$name.sys" >"$name.sys.n"
	normalize "$name.ours" >"$name.ours.n"
	[ "$(grep -c . "$name.ours.n")" -gt 0 ] || fail "$name: no samples"
	if ! cmp -s "$name.sys.n" "$name.ours.n"; then
		# the diff goes into the failure itself: a failure seen once in CI says what differed
		fail "$name: differs from $SYSTEM_PERF script:
$(diff "$name.sys.n" "$name.ours.n" | head -12)"
	fi
	verbose "$name: $(grep -c 'cpu-clock\|sched:' "$name.ours") samples agree"
}

check fp -e cpu-clock -F 2000 -g -- "$WORKLOAD_PERF" test -w calls 1
check fpz -e cpu-clock -F 2000 -g -z -- "$WORKLOAD_PERF" test -w calls 1
check noglobal -e cpu-clock -F 1000 -- "$WORKLOAD_PERF" test -w leafloop 1
check tp -e sched:sched_switch -e sched:sched_process_exit -g -- sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done'
check cpus -e cpu-clock -e task-clock --sample-cpu -F 500 -g -- "$WORKLOAD_PERF" test -w calls 1
exit 0
