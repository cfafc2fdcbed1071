#!/bin/sh
# perf inject -j: a node --perf-prof recording's JIT'd functions named by perf report, as upstream 7.2's inject -j and report name them; perf 6.1 reads the file; -j without -k 1 refused
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300

. "$(dirname "$0")"/lib.sh

need_perf
need_cmd node
cases 2	# upstream 7.2's inject -j, perf 6.1's report
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	skip "perf_event_open refused here: $(tail -1 probe.log)"
fi

# The runtime writes its dump and inject its ELF files in the working directory, which must not
# be under /tmp/perf-*: perf 6.1 takes every DSO whose path starts so for a perf-PID.map file
# (and names none of its symbols), and the test's own directory is /tmp/perf-test-*. Under
# /tmp, which upstream's chroot shares.
jitdir=$(mktemp -d /tmp/inject-jit.XXXXXX) || fail "cannot make a directory in /tmp"
trap 'rm -rf "$jitdir"; [ -z "$lib_standalone" ] || rm -rf "$TMPDIR"' EXIT
cd "$jitdir" || fail "cannot cd to $jitdir"

# two functions of known names, hot for half a second of CPU (not of the clock: a loaded
# machine gives less): leaf is JIT-compiled on the way
cat >s.js <<'JS'
function leaf(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
function mid(n) { return leaf(n) + 1; }
function cputime() { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
let t = cputime(), x = 0;
while (cputime() - t < 500) x += mid(10000);
if (x <= 0) console.log(x);
JS
# V8's names of JIT'd code: "JS:*leaf FILE:LINE:COL" since V8 11 (node 20), before that
# "LazyCompile:*leaf FILE:LINE" (node 18, Debian 12's), "Script:~ FILE:LINE" for the top level
js_name="(JS|LazyCompile|Function|Script):[*~^]?[a-z]* $jitdir/s\\.js:[0-9]+"
"$PERF" record -q -k 1 -e cpu-clock -g -o n.data -- node --perf-prof s.js >n.out 2>n.log ||
	fail "record of node failed: $(tail -1 n.log)"
dump=$(ls jit-*.dump 2>/dev/null | head -1)
[ -n "$dump" ] || fail "node --perf-prof wrote no jit-PID.dump here"
"$PERF" script --show-mmap-events -i n.data 2>/dev/null | grep -q "MMAP2 .*$PWD/$dump\$" ||
	fail "no MMAP2 of the dump (the runtime's marker) in the recording"

report() {
	"$1" report --stdio --no-children -g none --sort comm,dso,sym -i "$2" 2>"$3.err" |
		grep -v '^#' | grep -v '^$' >"$3"
}

# upstream first: it writes its jitted-PID-N.so files beside the dump, where ours go next
if upstream_perf; then
	"$UPSTREAM_PERF" inject -j -i n.data >up.data 2>up.log ||
		fail "upstream's inject -j failed: $(tail -1 up.log)"
	report "$UPSTREAM_PERF" up.data up.txt
	have_upstream=1
else
	not_tested "upstream 7.2's inject -j: not installed (make test-deps)"
	have_upstream=0
fi

"$PERF" inject -j -i n.data -o n.jit.data 2>inj.log || fail "inject -j failed: $(tail -1 inj.log)"
[ ! -s inj.log ] || fail "inject -j said: $(head -1 inj.log)"
n_so=$(ls jitted-*.so | wc -l)
n_load=$("$PERF" script --show-mmap-events -i n.jit.data 2>/dev/null | grep -c 'MMAP2 .*/jitted-[0-9]*-[0-9]*\.so$')
[ "$n_so" -gt 0 ] && [ "$n_load" -ge "$n_so" ] ||
	fail "$n_so jitted ELF files, $n_load MMAP2 records of them"
"$PERF" script --show-mmap-events -i n.jit.data 2>/dev/null | grep -q "$dump" &&
	fail "the dump's marker MMAP2 is still in the injected file"
report "$PERF" n.jit.data ours.txt
[ ! -s ours.txt.err ] || fail "report of the injected file said: $(head -1 ours.txt.err)"
# the hot JS code is named as node names it: leaf, or the script's top level where V8
# inlined leaf into it (which one depends on when V8 optimized)
first=$(grep -m1 'jitted-' ours.txt)
echo "$first" | grep -Eq "\[\.\] $js_name" || fail "first JIT'd entry: '$first'"
# before inject the same samples were anonymous addresses
report "$PERF" n.data before.txt
grep -Eq "$js_name" before.txt && fail "JS names before inject: the test cannot tell"

if [ "$have_upstream" = 1 ]; then
	diff up.txt ours.txt >up.diff || fail "report differs from upstream's inject -j + report ($(wc -l <up.diff) lines): $(head -3 up.diff | tr '\n' ' ')"
fi

if [ -x "${SYSTEM_PERF_REAL:-}" ]; then
	"$SYSTEM_PERF" report --stdio --no-children -g none --sort sym -i n.jit.data >sys.txt 2>sys.err ||
		fail "perf 6.1 report of the injected file failed: $(tail -1 sys.err)"
	grep -Eq "$js_name" sys.txt ||
		fail "perf 6.1 names no function of s.js: $(grep -v "^#" sys.txt | head -3)"
else
	not_tested "perf 6.1's report: no system perf (make test-deps)"
fi

# the dump's times are CLOCK_MONOTONIC: a recording without -k 1 is refused, and no output left
"$PERF" record -q -e cpu-clock -o nok.data -- node --perf-prof -e '1' >/dev/null 2>&1 ||
	fail "record without -k failed"
if "$PERF" inject -j -i nok.data -o nok.jit.data 2>nok.log; then
	fail "inject -j of a recording without -k 1 succeeded"
fi
expect_grep "record with -k 1" nok.log "inject -j without -k 1: not the reason"
[ ! -e nok.jit.data ] || fail "inject -j left an output behind after its error"
pass
