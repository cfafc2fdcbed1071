#!/bin/sh
# perf script --stitch-stats: one account per recording, whatever its layout, and it adds up
. "$(dirname "$0")"/lib.sh

# Fixtures from the C builder (see defer-fixtures.sh). Every layout of one scenario holds
# the same samples and records, so the stitching statistics must be the same for all; and
# they must agree with --no-merge-callchains, which shows each deferred sample's cookie and
# each record: deferred samples = stitched + released, records shown = records counted.
need_perf
mkdir fx || fail "cannot make $TMPDIR/fx"
if ! "$PERF" test -w defer-fixtures fx >fx.log 2>&1; then
	verbose "$(cat fx.log)"
	skip "perf test -w defer-fixtures is not available"
fi

# count LABEL FILE: the number at the end of the stats line starting with LABEL
count() {
	sed -n "s/^ *$1  *\([0-9][0-9]*\)\$/\1/p" "$2" | head -1
}

stats() {
	"$PERF" script --stitch-stats -i "$1" >/dev/null 2>"$2" || fail "perf script --stitch-stats -i $1 failed"
	expect_grep '^deferred callchain stitching:' "$2" "no stitching statistics for $1"
	# the bytes held depend on the arena's chunks, not only on the recording
	grep -v -e 'bytes held' -e 'memory cap in bytes' "$2" | grep -E '^ +[a-zA-Z]' >"$2.counts"
}

for scenario in main dup noattr; do
	for layout in task cpu; do
		first=
		for d in fx/defer-$scenario-$layout-*.data; do
			stats "$d" st.txt
			if [ -z "$first" ]; then
				first=$d
				cp st.txt.counts first.counts
				continue
			fi
			if ! cmp -s st.txt.counts first.counts; then
				verbose "$(diff st.txt.counts first.counts)"
				fail "stitching statistics of $d differ from those of $first"
			fi
		done

		st=st.txt
		stitched=$(count 'samples stitched' $st)
		released=$(count 'samples without user callchain' $st)
		records=$(count 'CALLCHAIN_DEFERRED records' $st)
		dups=$(count 'duplicates ignored' $st)
		[ -n "$stitched" ] && [ -n "$released" ] && [ -n "$records" ] && [ -n "$dups" ] ||
			fail "cannot read the statistics of $first"
		"$PERF" script --no-merge-callchains -i "$first" >nomerge.txt 2>nomerge.err ||
			fail "perf script --no-merge-callchains -i $first: $(head -1 nomerge.err)"
		cookies=$(grep -c '(cookie)' nomerge.txt)
		shown=$(grep -c 'DEFERRED CALLCHAIN \[cookie: ' nomerge.txt)
		case $scenario in
		noattr)
			# without defer_callchain a marker is just an address: nothing to stitch
			[ "$stitched" -eq 0 ] && [ "$released" -eq 0 ] && [ "$cookies" -eq 0 ] ||
				fail "$first: samples of attrs without defer_callchain were treated as deferred"
			;;
		*)
			[ "$stitched" -gt 0 ] && [ "$released" -gt 0 ] ||
				fail "$first: $stitched stitched, $released released: a case is missing"
			[ "$cookies" -eq $((stitched + released)) ] ||
				fail "$first: $cookies deferred samples unmerged, but $stitched stitched + $released released"
			for why in 'a newer record had another cookie' 'the thread exited first' 'the input ended first'; do
				[ "$(count "$why" $st)" -gt 0 ] || fail "$first: no sample released because $why"
			done
			;;
		esac
		[ "$shown" -eq "$records" ] ||
			fail "$first: --no-merge-callchains shows $shown records, the statistics count $records"
		if [ $scenario = dup ]; then
			# defer_output on both events: each record twice, the second ignored
			[ "$dups" -gt 0 ] && [ $((dups * 2)) -eq "$records" ] ||
				fail "$first: $dups of $records records ignored as duplicates, want half"
		else
			[ "$dups" -eq 0 ] || fail "$first: $dups duplicates where there are none"
		fi
	done
done
exit 0
