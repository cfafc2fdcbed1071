#!/bin/sh
# make demo: first a live recording on this machine (`perf record -g --defer` of a bundled
# workload: deferred callchains on Linux >= 6.19, the inline fallback with repair data on
# older kernels), its callchains and a short perf report; then the stitched deferred
# callchains of a real recording the repository carries (upstream perf 7.2 on Linux 7.2,
# `perf record --call-graph fp,defer -- /w/sys 100`), resolved against its own DSOs
# (demo/symfs) and the guest's kallsyms, which shows type-22 stitching on any machine.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
perf=$top/tools/perf/perf
demo=$top/demo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$demo/kallsyms.gz" >"$tmp/kallsyms"
run() {
	"$perf" script --symfs="$demo/symfs" --kallsyms="$tmp/kallsyms" -i "$demo/sys.data" "$@"
}

echo "== Live: perf record -g --defer -- perf test -w calls 0.5 (on $(uname -sr))"
echo
if "$perf" record -g --defer -o "$tmp/live.data" -- "$perf" test -w calls 0.5 2 2>"$tmp/live.log"; then
	sed 's/^/   /' "$tmp/live.log"
	echo
	echo "== Two of its callchains (perf script):"
	echo
	"$perf" script -i "$tmp/live.data" |
		awk 'BEGIN { RS = ""; ORS = "\n\n" } /calls_leaf/ && /workload__calls/ && n < 2 { print; n++ }'
	echo "== perf report --stdio --no-children (top of it):"
	echo
	"$perf" report --stdio --no-children -i "$tmp/live.data" 2>/dev/null | grep -v '^#' | grep -v '^$' | head -24
	echo
else
	echo "   (no live recording here: $(tail -1 "$tmp/live.log"))"
	echo
fi

echo "== A deferred sample as the kernel wrote it (perf script --no-merge-callchains):"
echo "   the kernel stack ends in a cookie; the user stack comes later in its own record"
echo
run --no-merge-callchains >"$tmp/nomerge"
# the first kernel-mode sample whose user stack (in its record) reaches the workload
awk 'BEGIN { RS = ""; ORS = "\n\n" }
	NR == FNR { if (/DEFERRED CALLCHAIN/ && /\/w\/sys/) { c = $0; sub(/.*cookie: /, "", c); sub(/\].*/, "", c); rec[c] = $0 } next }
	/kallsyms/ && /\(cookie\)/ { c = $0; sub(/ \(cookie\).*/, "", c); sub(/.*[ \t]/, "", c); if (c in rec) { print; print rec[c]; exit } }' \
	"$tmp/nomerge" "$tmp/nomerge"
echo "== The same samples stitched (perf script): kernel part, then the user part"
echo
run | awk 'BEGIN { RS = ""; ORS = "\n\n" } /kallsyms/ && /\/w\/sys/ && n < 2 { print; n++ }'
echo "== Stitching statistics for the whole file (perf script --stitch-stats):"
run --stitch-stats 2>&1 >/dev/null
