#!/bin/sh
# JIT frames named from /tmp/perf-PID.map as upstream 7.2 names them ([JIT] tid PID, script's perf-PID.map), its lines in any order, under --symfs; a missing, malformed, foreign or unreadable map: raw addresses and one warning; node --perf-basic-prof and python3.12+ -X perf
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300

. "$(dirname "$0")"/lib.sh

need_perf
cases 4	# upstream 7.2 on the workload, node, python -X perf (with upstream's), upstream on node
[ "$(uname -m)" = x86_64 ] || skip "the jitmap workload's machine code is x86-64's"
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	skip "perf_event_open refused here: $(tail -1 probe.log)"
fi
upstream_perf && have_upstream=1 || have_upstream=0
maps=
trap 'rm -f $maps; [ -z "$lib_standalone" ] || rm -rf "$TMPDIR"' EXIT

"$WORKLOAD_PERF" record -q -g -e cpu-clock -o jm.data -- "$WORKLOAD_PERF" test -w jitmap 0.5 \
	>rec.log 2>&1 || fail "record of the jitmap workload failed: $(tail -1 rec.log)"
pid=$("$PERF" script -G -F pid,ip,sym -i jm.data 2>/dev/null | awk '/jit_inner/ { print $1; exit }')
map=/tmp/perf-$pid.map
maps="$map"
[ -n "$pid" ] && [ -s "$map" ] || fail "the workload left no perf map ($map)"
cp "$map" good.map

# report and script as perf users read them; $1 the perf, $2 a file prefix, then options
views() {
	p=$1 out=$2
	shift 2
	"$p" report --stdio --no-children -g none --sort comm,dso,sym -i "$PWD/jm.data" "$@" \
		2>"$out.rerr" | grep -v '^#' | grep -v '^$' >"$out.report"
	"$p" script -F comm,tid,ip,sym,symoff,dso -i "$PWD/jm.data" "$@" 2>"$out.serr" >"$out.script"
}

views "$PERF" ours
expect_grep "perf +\[JIT\] tid $pid +\[\.\] jit_inner\$" ours.report "report names no jit_inner in [JIT] tid $pid"
expect_grep "jit_inner\+0x[0-9a-f]+ \(/tmp/perf-$pid\.map\)" ours.script "script names no jit_inner+off (/tmp/perf-$pid.map)"
# the frame pointers of the JIT'd code lead through jit_outer back to the workload
grep -A2 -m1 'jit_inner+' ours.script | tr -d '\n' |
	grep -Eq 'jit_inner\+0x[0-9a-f]+ .*jit_outer\+0x9 .*jitmap_run\+' ||
	fail "no chain jit_inner <- jit_outer+0x9 <- jitmap_run: $(grep -A2 -m1 'jit_inner+' ours.script | tr '\n' ' ')"
[ ! -s ours.rerr ] && [ ! -s ours.serr ] || fail "a good map warned: $(cat ours.rerr ours.serr | head -1)"
if [ "$have_upstream" = 1 ]; then
	views "$UPSTREAM_PERF" up
	diff up.report ours.report >d || fail "report differs from upstream's: $(head -4 d | tr '\n' ' ')"
	diff up.script ours.script >d || fail "script differs from upstream's: $(head -4 d | tr '\n' ' ')"
	# -v: the symbols' origin letter, j for a perf map's
	"$PERF" report -v --stdio --no-children -g none -i "$PWD/jm.data" 2>/dev/null | grep -v '^# (Tip' >v.ours
	"$UPSTREAM_PERF" report -v --stdio --no-children -g none -i "$PWD/jm.data" 2>/dev/null | grep -v '^# (Tip' >v.up
	diff v.up v.ours >d || fail "report -v differs from upstream's: $(head -4 d | tr '\n' ' ')"
else
	not_tested "upstream 7.2 on the workload: not installed (make test-deps)"
fi

# the lines in any order name the same
sort -r good.map >"$map"
views "$PERF" rev
cmp -s rev.report ours.report && cmp -s rev.script ours.script || fail "the map's line order changed the output"

# a missing map: raw addresses under [JIT] tid PID, one warning per file (not per sample)
rm -f "$map"
views "$PERF" miss
expect_grep "\[JIT\] tid $pid +\[\.\] 0x0000" miss.report "no raw address in [JIT] tid $pid without a map"
grep -q jit_inner miss.report && fail "jit_inner named without a map"
[ "$(grep -c "perf-$pid.map" miss.rerr)" = 1 ] || fail "without a map report warned $(grep -c "perf-$pid.map" miss.rerr) times: $(head -2 miss.rerr | tr '\n' ' ')"
expect_grep "^Warning: $map: No such file or directory" miss.serr "script's warning of the missing map: $(head -1 miss.serr)"
"$PERF" report -q --stdio -i jm.data >/dev/null 2>q.err
[ ! -s q.err ] || fail "report -q warned: $(head -1 q.err)"
if [ "$have_upstream" = 1 ]; then
	views "$UPSTREAM_PERF" upmiss
	diff upmiss.report miss.report >d || fail "without a map, report differs from upstream's: $(head -4 d | tr '\n' ' ')"
fi

# malformed lines are skipped, counted once; the good ones still name
{ echo "zz 10 not_hex"; head -1 good.map; echo "7f00"; echo "0x1000 10 prefixed"; echo; tail -1 good.map; } >"$map"
views "$PERF" bad
cmp -s bad.report ours.report || fail "good lines among malformed ones named differently"
[ "$(grep -c "perf-$pid.map" bad.rerr)" = 1 ] || fail "malformed lines: $(grep -c "perf-$pid.map" bad.rerr) warnings"
expect_grep "^Warning: $map: 4 malformed lines skipped \(the first: line 1" bad.rerr "the malformed lines' warning: $(head -1 bad.rerr)"

# someone else's map is not read unless forced (-f), as upstream
cp good.map "$map"
chown 65534 "$map" || fail "cannot chown $map"
views "$PERF" foreign
grep -q jit_inner foreign.report && fail "another user's map was read"
expect_grep "not owned by the current user or root: ignored \(use -f to override\)" foreign.rerr "no warning of another user's map: $(head -1 foreign.rerr)"
views "$PERF" forced -f
cmp -s forced.report ours.report || fail "-f did not read another user's map"

# a directory where the map should be: a warning, no crash
rm -f "$map"
mkdir "$map" || fail "cannot make $map"
views "$PERF" dir

[ -d "$map" ] && rmdir "$map"
expect_grep "^Warning: $map: Is a directory" dir.rerr "a directory for a map: $(head -1 dir.rerr)"
grep -q jit_inner dir.report && fail "named from a directory"

# under --symfs: the recording's map copied beside it (the machine's own /tmp has none)
mkdir -p symfs/tmp && cp good.map "symfs$map"
views "$PERF" symfs --symfs "$PWD/symfs"
grep -c jit_inner symfs.report >/dev/null || fail "--symfs: the map under the symfs was not read"
grep -Eq "perf +\[JIT\] tid $pid +\[\.\] jit_inner\$" symfs.report ||
	fail "--symfs: no jit_inner: $(head -3 symfs.report | tr '\n' ' ')"

# node --perf-basic-prof: V8's names for its JIT'd code
if command -v node >/dev/null 2>&1; then
	cat >s.js <<'JS'
function leaf(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
function mid(n) { let t = 0; for (let k = 0; k < 50; k++) t += leaf(n); return t; }
// 0.7 s of CPU, not of the clock: a loaded machine gives less
function cputime() { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
const end = cputime() + 700; let r = 0;
while (cputime() < end) r += mid(10000);
if (r < 0) console.log(r);
JS
	"$PERF" record -q -g -e cpu-clock -o n.data -- node --perf-basic-prof s.js >n.log 2>&1 ||
		fail "record of node failed: $(tail -1 n.log)"
	npid=$("$PERF" script -F comm,pid -i n.data 2>/dev/null | awk '$1 == "node" { print $2; exit }')
	maps="$maps /tmp/perf-$npid.map"
	"$PERF" report --stdio --no-children -g none --sort comm,dso,sym -i "$PWD/n.data" 2>n.err |
		grep -v '^#' | grep -v '^$' >n.report
	# V8 names: "JS:*leaf FILE:LINE:COL" (node 20), "LazyCompile:*leaf FILE:LINE" (node 18)
	expect_grep "\[JIT\] tid $npid +\[\.\] (JS|LazyCompile):[*~^]?(leaf|mid) $PWD/s\.js:" n.report \
		"node: no JS function named in [JIT] tid $npid: $(head -2 n.report | tr '\n' ' ')"
	if [ "$have_upstream" = 1 ]; then
		"$UPSTREAM_PERF" report --stdio --no-children -g none --sort comm,dso,sym -i "$PWD/n.data" 2>/dev/null |
			grep -v '^#' | grep -v '^$' >n.up
		diff n.up n.report >d || fail "node: report differs from upstream's: $(head -4 d | tr '\n' ' ')"
	else
		not_tested "upstream 7.2 on node: not installed (make test-deps)"
	fi
else
	not_tested "node --perf-basic-prof: node is not installed"
	not_tested "upstream 7.2 on node: node is not installed"
fi

# python3.12+ -X perf: here, or the sid tree's (chrooted, sharing /tmp)
py= pyrun=
for c in python3.14 python3.13 python3.12; do
	# a command that runs (pyenv's shims exist for versions that are not selected)
	if $c -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
		py=$c pyrun=
		break
	fi
done
if [ -z "$py" ] && [ "$(id -u)" = 0 ] && [ -x "$SID/usr/bin/python3" ] && [ -d "$SID_DEBUG/usr/lib/debug" ] &&
	chroot "$SID" python3 -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
	py=python3 pyrun=sid
fi
if [ -n "$py" ]; then
	cat >p.py <<'PY'
import time
def py_leaf(n):
    s = 0
    for i in range(n):
        s += i % 7
    return s
# 0.7 s of CPU, not of the clock: a loaded machine gives less
end = time.process_time() + 0.7
while time.process_time() < end:
    py_leaf(20000)
PY
	if [ "$pyrun" = sid ]; then
		cp p.py /tmp/perf-map-test.py
		maps="$maps /tmp/perf-map-test.py"
		with_sid "$PERF" record -q -g -e cpu-clock -o "$PWD/p.data" -- chroot "$SID" python3 -X perf /tmp/perf-map-test.py >p.log 2>&1
	else
		"$PERF" record -q -g -e cpu-clock -o p.data -- $py -X perf p.py >p.log 2>&1
	fi || fail "record of $py -X perf failed: $(tail -1 p.log)"
	ppid=$("$PERF" script -F comm,pid -i p.data 2>/dev/null | awk '$1 ~ /python/ { print $2; exit }')
	maps="$maps /tmp/perf-$ppid.map"
	"$PERF" script -F ip,sym,dso -i p.data 2>p.err >p.script
	expect_grep "py::py_leaf:.*p(erf-map-test)?\.py \(/tmp/perf-$ppid\.map\)" p.script \
		"$py -X perf: no py::py_leaf frame from /tmp/perf-$ppid.map"
	# the JIT entries as upstream's (the interpreter's own files: the sid tree's, there)
	pysymfs=
	[ "$pyrun" = sid ] && pysymfs="--symfs=$SID"
	if [ "$have_upstream" = 1 ]; then
		# shellcheck disable=SC2086
		# with --children: the trampolines are callers, seldom sampled themselves
		"$PERF" report --stdio --children -g none --sort comm,dso,sym $pysymfs -i "$PWD/p.data" 2>/dev/null |
			grep '\[JIT\]' >p.ours
		# shellcheck disable=SC2086
		"$UPSTREAM_PERF" report --stdio --children -g none --sort comm,dso,sym $pysymfs -i "$PWD/p.data" 2>/dev/null |
			grep '\[JIT\]' >p.up
		[ -s p.ours ] || fail "$py -X perf: no [JIT] entries in the report"
		diff p.up p.ours >d || fail "$py -X perf: [JIT] entries differ from upstream's: $(head -4 d | tr '\n' ' ')"
	fi
else
	not_tested "python3.12+ -X perf: no python3.12 or later here nor in the sid tree (make test-deps)"
fi
pass
