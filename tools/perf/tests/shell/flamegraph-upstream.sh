#!/bin/sh
# perf script report flamegraph --format json equals upstream 7.2's flamegraph.py (stacks.json) on the corpus, the perf72 and real-defer fixtures and live -g recordings
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 600
. "$(dirname "$0")"/lib.sh
#
# Upstream runs flamegraph.py through a second perf script that sees only the words after
# the report's name, and takes -f/-o only after a "--" (before it, perf script takes -f as
# its --force): so both tools run `script report flamegraph --symfs=... -i F -- -f json -o -`
# and the outputs are compared byte for byte.
#
# Not compared, each for a reason of the base tool, not of the flame graph (our perf script
# differs from upstream's on these files too, on purpose; see the tests named):
#  - perf72/calls_cet.dwarf.data: upstream's libdw unwinding stops early on a few samples
#    where ours unwinds them whole (unwind-dwarf-upstream.sh);
#  - real-defer/calls.data, twoevents.data: upstream names a sample's process by its comm at
#    delivery, after stitching, ours at sample time, and upstream leaves some cookies
#    unstitched (defer-real.sh);
#  - system-wide recordings: exited threads' comms (`:TID` in upstream, corpus-upstream.sh).

need_perf
need_upstream_perf
cases 2	# live recordings: the system perf's, ours
unpack_corpus
need_fixture perf72/data
need_fixture real-defer/data
gzip -dc "$FIXTURES/perf72/kallsyms.gz" >k72 && gzip -dc "$FIXTURES/real-defer/kallsyms.gz" >kdefer ||
	fail "cannot unpack the fixtures' kallsyms"

nr=0
# compare NAME FILE [OPTIONS...]: ours and upstream's stacks.json of FILE; $fg_args go to
# flamegraph.py (after the "--")
fg_args=
compare() {
	name=$1 file=$2
	shift 2
	"$UPSTREAM_PERF" script report flamegraph "$@" -i "$file" -- -f json -o - $fg_args \
		>"up-$name.json" 2>"up-$name.err" || fail "$name: upstream failed: $(tail -1 "up-$name.err")"
	"$PERF" script report flamegraph "$@" -i "$file" -- -f json -o - $fg_args \
		>"our-$name.json" 2>"our-$name.err" || fail "$name: ours failed: $(tail -1 "our-$name.err")"
	[ -s "up-$name.json" ] || fail "$name: upstream wrote nothing"
	if ! cmp -s "up-$name.json" "our-$name.json"; then
		verbose "upstream: $(head -c 2000 "up-$name.json")"
		verbose "ours:     $(head -c 2000 "our-$name.json")"
		fail "$name: our stacks.json differs from upstream's at $(cmp "up-$name.json" "our-$name.json" | sed 's/.*differ: //')"
	fi
	nr=$((nr + 1))
}

for f in "$C"/*.data; do
	compare "corpus-$(basename "$f" .data)" "$f" --symfs="$TMPDIR/symfs" --kallsyms="$TMPDIR/kallsyms"
done
for f in calls.fp calls.pipe sched sys.fp thr.fpz; do
	compare "perf72-$f" "$FIXTURES/perf72/data/$f.data" --symfs="$FIXTURES/perf72/symfs" --kallsyms="$TMPDIR/k72"
done
for f in calls_nodefer calls_u sys; do
	compare "defer-$f" "$FIXTURES/real-defer/data/$f.data" --symfs="$FIXTURES/real-defer/symfs" \
		--kallsyms="$TMPDIR/kdefer"
done
# the same stacks whichever way the options come: flamegraph.py's after "--", or ours directly
"$PERF" script report flamegraph -f json -o direct.json --symfs="$TMPDIR/symfs" \
	--kallsyms="$TMPDIR/kallsyms" -i "$C/fp.data" >/dev/null 2>&1 &&
	cmp -s direct.json our-corpus-fp.json || fail "-f json -o FILE without '--' gives other stacks"
# -e: one event of a two-event file, named in full as upstream compares it
ev=$("$PERF" script -F event -i "$C/two.data" 2>/dev/null | sed 's/^ *//; s/: *$//' | sort -u | tail -1)
[ -n "$ev" ] || fail "perf script -F event names no event of two.data"
fg_args="-e $ev"
compare corpus-two-e "$C/two.data" --symfs="$TMPDIR/symfs" --kallsyms="$TMPDIR/kallsyms"
fg_args=
cmp -s our-corpus-two-e.json our-corpus-two.json && fail "-e $ev kept the other event's samples"

# live: a -g recording of our call-chain workload by the system perf, and by ours
if [ -x "$SYSTEM_PERF" ] &&
	"$SYSTEM_PERF" record -q -g -e cpu-clock -o sys.data -- "$WORKLOAD_PERF" test -w calls 0.5 \
		>rec-sys.log 2>&1; then
	compare live-system "$TMPDIR/sys.data"
else
	not_tested "a live recording of the system perf ($SYSTEM_PERF record: $(tail -1 rec-sys.log 2>/dev/null))"
fi
if "$WORKLOAD_PERF" record -q -g -e cpu-clock -o ours.data -- "$WORKLOAD_PERF" test -w calls 0.5 0 \
	>rec-ours.log 2>&1; then
	compare live-ours "$TMPDIR/ours.data"
else
	not_tested "a live recording of ours (perf record: $(tail -1 rec-ours.log))"
fi
verbose "$nr files compared"
pass
