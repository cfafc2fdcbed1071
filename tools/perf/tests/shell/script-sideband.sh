#!/bin/sh
# perf script --show-mmap-events --show-task-events equals upstream 7.2's
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data
need_cmd zstd
G=$FIXTURES/perf72
E=$PERF_SRCDIR/tools/perf/tests/data/expected
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack kallsyms"
for n in thr.fpz sched; do
	zstd -d -q -c "$E/perf72-$n.sideband.txt.zst" >"$n.want" || fail "cannot read $E/perf72-$n.sideband.txt.zst"
	"$PERF" script --no-inline --show-mmap-events --show-task-events --symfs="$G/symfs" \
		--kallsyms=kallsyms -i "$G/data/$n.data" >"$n.got" 2>"$n.err" || fail "$n: $(cat "$n.err")"
	grep -q 'PERF_RECORD_MMAP2' "$n.got" || fail "$n: no MMAP2 line"
	if ! cmp -s "$n.want" "$n.got"; then
		verbose "$(diff "$n.want" "$n.got" | head -20)"
		fail "$n: differs from upstream"
	fi
done
exit 0
