#!/bin/sh
# sample filters (--comms, --pid, --tid, -C, --time, -S, -d) of script and report equal upstream perf 7.2's on live recordings
# perf test timeout: 240
. "$(dirname "$0")"/lib.sh

need_perf
need_upstream_perf
need_system_perf_record

# ls in three processes forked by sh (-g), and the whole machine on every cpu (-a, plain)
"$SYSTEM_PERF" record -q -g -o fg.data -- \
	sh -c 'for i in 1 2 3; do ls -R /usr/lib >/dev/null 2>&1; done' >rec.log 2>&1 ||
	{ verbose "$(cat rec.log)"; fail "perf record -g failed"; }
sys=
if "$SYSTEM_PERF" record -q -a -o sys.data -- sleep 0.3 >rec.log 2>&1; then
	sys=sys
else
	verbose "no -a recording: $(cat rec.log)"
	not_tested "the -a (-C) cases: no -a recording here ($(tail -1 rec.log))"
fi
cp /proc/kallsyms kallsyms || fail "cannot copy /proc/kallsyms"

# the values to filter on come from the recording: its busiest pid, tid and symbol, a sample
# address of that symbol, and the cpu of the first sample of the -a recording
pid=$("$PERF" script -F pid -i fg.data | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
tid=$("$PERF" script -F tid -i fg.data | sort | uniq -c | sort -rn | awk 'NR == 2 { print $2 }')
sym=$("$PERF" report --stdio -q --no-children --sort sym -g none --kallsyms=kallsyms -i fg.data |
	awk 'NR == 1 { print $3 }')
addr=$("$PERF" script -F ip,sym --max-stack=1 --kallsyms=kallsyms -i fg.data |
	awk -v s="$sym" '$2 == s { print $1; exit }')
# the times of the samples at a fifth, two, three and four fifths of the recording (how many
# there are depends on /usr/lib's size: some 900 here, fewer on a minimal root)
"$PERF" script -F time -i fg.data | tr -d ' :' >all.times
n=$(grep -c . all.times)
[ "$n" -ge 20 ] || fail "only $n samples in the -g recording"
awk -v n="$n" 'NR == int(n / 5) || NR == int(2 * n / 5) || NR == int(3 * n / 5) ||
	NR == int(4 * n / 5)' all.times >times
t1=$(sed -n 1p times) t2=$(sed -n 2p times) t3=$(sed -n 3p times) t4=$(sed -n 4p times)
[ -n "$pid" ] && [ -n "$tid" ] && [ -n "$sym" ] && [ -n "$addr" ] && [ -n "$t4" ] ||
	fail "no pid/tid/symbol/address/times found in the recording (pid '$pid' tid '$tid' sym '$sym' addr '$addr' times $(cat times))"
verbose "pid $pid tid $tid sym $sym addr $addr times $t1 $t2 $t3 $t4"

# one case a line: command, recording, options. Allowed on purpose (see
# Documentation/perf-report.txt): in children mode, where a hide filter (-c, -d, -S, --pid,
# --tid) leaves entries of upstream's tree unshown, entries of equal percentage among
# unresolved garbage frames can come in another order, and such an entry's samples can be
# split over two entries there and merged again, the merged part's callchain unresolved
# below the split: "report~" cases compare the lines as sorted, without the callchains of
# entries that are bare addresses (unordered), so only their order and those callchains
# may differ. The -a cases print no comm (upstream forgets the comm of a thread after its
# EXIT, we keep it).
cat >cases <<CASES
script fg --comms ls
script fg --comm sh
script fg -c ls,sh
script fg --pid $pid
script fg --tid $tid,$pid
script fg -S $sym
script fg -S $sym,$addr
script fg -S $addr
script fg --time 10%/2
script fg --time $t2,
script fg --time ,$t1
script fg --time $t1,$t2
script fg --time $t1,$t2 --comms sh
script fg --time 10%
script fg --time 0%-10%,50%-60%
script fg --time 10%/1,10%/3
script fg --comms ls --time 40%-60% -S $sym
script fg --show-task-events --comms ls
script fg --show-task-events --time 50%-100%
report~ fg --comms ls
report~ fg -c sh --sort pid -n
report fg --comms ls,sh --no-children
report~ fg --pid $pid
report fg --pid $pid --no-children
report fg --tid $tid --sort pid -g none
report fg --no-children -d libc.so.6
report fg --no-children -d libc.so.6,[kernel.kallsyms]
report fg -g none -d ls
report fg --no-children -S $sym
report fg --no-children -S $sym,$addr --sort pid
report fg --no-children -c nonexistent
report fg --no-children -c ls -d libc.so.6 -n
report fg --time 10%/2
report fg --time $t3, --no-children -g none
report fg --time 0%-20%,60%-80% --no-children --sort pid
report fg --no-children --comms ls --time 25%-75% -g caller
report~ fg -d libc.so.6 -S $sym
CASES
if [ -n "$sys" ]; then
	cat >>cases <<CASES
script sys -F pid,tid,cpu,time -C 0
script sys -F pid,tid,cpu,time -C 1
script sys -F pid,tid,cpu,time -C 0-1 --time 0%-50%
script sys -F pid,tid,cpu,time -C 0x0,1
script sys -F pid,tid,cpu,time --show-task-events --show-mmap-events -C 1
report sys --sort pid,cpu -C 0
report sys --sort cpu,pid -C 0,1 --time 30%-60%
CASES
fi

# the random tip, and a line the sandbox upstream runs in adds (it has no /sys)
strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)|^Failed to read max cpus' "$1" |
		sed 's|/host/|/|g'
}

# an entry line ends in its symbol: a bare address's callchain (to the blank line) goes
unordered() {
	awk '/^ +[0-9.]+%/ { bare = $NF ~ /^0x[0-9a-f]+$/; print; next }
	     /^$/ { bare = 0 }
	     !bare' | sort
}

failed=""
while read -r cmd data opts; do
	order=cat
	[ "$cmd" = "report~" ] && cmd=report order=unordered
	extra=
	[ "$cmd" = report ] && extra=--stdio
	# shellcheck disable=SC2086
	"$UPSTREAM_PERF" $cmd $extra --no-inline --kallsyms=kallsyms $opts -i "$data.data" \
		>want.out 2>want.err </dev/null
	urc=$?
	[ $urc = 2 ] && skip "upstream perf could not be set up"
	# shellcheck disable=SC2086
	"$PERF" $cmd $extra --no-inline --kallsyms=kallsyms $opts -i "$data.data" \
		>got.out 2>got.err </dev/null
	rc=$?
	strip want.out | $order >want; strip want.err >>want
	strip got.out | $order >got; strip got.err >>got
	if [ $rc != $urc ] || ! cmp -s want got; then
		verbose "--- $cmd $data $opts: exit $urc upstream, $rc ours; upstream vs ours ---"
		verbose "$(diff want got | head -20)"
		failed="$failed [$cmd $data $opts]"
	fi
done <cases

# bad values: upstream's message, our exit code. Upstream exits 0 after the list and cpu
# messages of report (and script's list messages), having printed nothing: we exit 255
cat >errors <<'ERRORS'
script fg 255 -C 0
script fg 234 --time x
script fg 234 --time 2,1
script fg 234 --time 10%/0
script fg 234 --time 110%/1
script fg 234 --time 1.0000000001,
script fg 255 --pid 1,x
script fg 255 --tid 1x
script fg 255 -c ls,ls
report fg 255 -C 0
report fg 234 --time x
report fg 255 --pid x
report fg 255 -d ls,ls
report fg 255 -S a,a
ERRORS
if [ -n "$sys" ]; then
	cat >>errors <<'ERRORS'
script sys 255 -C x
script sys 255 -C 1-0
script sys 255 -C 0,0
script sys 255 -C 4096
report sys 255 -C x
report sys 255 -C 4096
ERRORS
fi
while read -r cmd data want_rc opts; do
	extra=
	[ "$cmd" = report ] && extra=--stdio
	# shellcheck disable=SC2086
	"$UPSTREAM_PERF" $cmd $extra --kallsyms=kallsyms $opts -i "$data.data" >want.out 2>want.err </dev/null
	# shellcheck disable=SC2086
	"$PERF" $cmd $extra --kallsyms=kallsyms $opts -i "$data.data" >got.out 2>got.err </dev/null
	rc=$?
	strip want.out >want; strip want.err >>want
	strip got.out >got; strip got.err >>got
	if [ $rc != "$want_rc" ] || ! cmp -s want got || ! [ -s got.err ]; then
		verbose "--- $cmd $data $opts: exit $rc (want $want_rc); upstream vs ours ---"
		verbose "$(diff want got | head -10)"
		failed="$failed [error: $cmd $data $opts]"
	fi
done <errors

[ -z "$failed" ] || fail "differs from upstream:$failed"
pass
