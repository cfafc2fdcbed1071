#!/bin/sh
# perf script: synthetic deferred callchains print exactly as the same stacks recorded inline
. "$(dirname "$0")"/lib.sh

# The fixtures come from the C builder (tests/fixture-defer.c): every case of deferred
# stitching (shared cookies, records on other CPUs and after their samples, lost records
# released by a newer record, an exit or the end, duplicates, empty records, user-mode
# samples, kernel threads), per-task and per-CPU, as file, pipe, zstd and cross-endian
# streams, each beside the inline recording of the same stacks. A sample whose record was
# lost is kept in its deferred form in the inline file too: its "(cookie)" line is the
# expected output.
need_perf
mkdir fx || fail "cannot make $TMPDIR/fx"
if ! "$PERF" test -w defer-fixtures fx >fx.log 2>&1; then
	verbose "$(cat fx.log)"
	skip "perf test -w defer-fixtures is not available"
fi

# a stitched sample is printed when its record arrives: compare the sample blocks sorted
blocks() {
	awk 'BEGIN { RS = "" } { gsub(/\n/, "\001"); print }' "$1" | sort
}

n=0
for inline in fx/inline-*.data; do
	base=${inline#fx/inline-}
	base=${base%.data}
	"$PERF" script -i "$inline" >want.txt 2>want.err || fail "perf script -i $inline: $(head -1 want.err)"
	[ -s want.txt ] || fail "perf script -i $inline printed nothing"
	blocks want.txt >want.sorted
	for d in fx/defer-"$base"-*.data; do
		"$PERF" script -i "$d" >got.txt 2>got.err || fail "perf script -i $d: $(head -1 got.err)"
		blocks got.txt >got.sorted
		if ! cmp -s got.sorted want.sorted; then
			verbose "$(diff got.sorted want.sorted | tr '\001' '\n' | head -40)"
			fail "perf script of $d differs from the inline recording $inline"
		fi
		n=$((n + 1))
	done
done
[ "$n" -ge 36 ] || fail "only $n deferred fixtures were compared"
verbose "$n deferred fixtures print as their inline recordings"
exit 0
