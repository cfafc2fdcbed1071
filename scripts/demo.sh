#!/bin/sh
# make demo: stitched deferred callchains of a real recording the repository carries
# (upstream perf 7.2 on Linux 7.2, `perf record --call-graph fp,defer -- /w/sys 100`),
# resolved against its own DSOs (demo/symfs) and the guest's kallsyms.
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
