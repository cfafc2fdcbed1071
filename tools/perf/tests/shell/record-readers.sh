#!/bin/sh
# perf record -g files of ours read without a warning by the system perf (script, report), upstream 7.2 (script equal to ours byte for byte, report --time 10%) and hotspot's perfparser (exclusive)
# SPDX-License-Identifier: GPL-2.0

. "$(dirname "$0")"/lib.sh

need_perf
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
need_upstream_perf
[ -x "$SYSTEM_PERF" ] || skip "no system perf at $SYSTEM_PERF: make test-deps"

# a plain -g file, and a -a one (synthesized side-band of running processes, kernel map)
"$PERF" record -q -g -o g.data -- "$WORKLOAD_PERF" test -w calls 0.3 >g.log 2>&1 ||
	fail "record -g failed: $(tail -1 g.log)"
"$PERF" record -q -g -a -o a.data -- "$WORKLOAD_PERF" test -w calls 0.3 >a.log 2>&1 ||
	fail "record -g -a failed: $(tail -1 a.log)"

# pipe mode: a -g stream (build ids as records, 8-byte sized) and a tracepoint stream (the
# tracing data record's size is the padded one, which upstream checks)
"$PERF" record -q -g -o - -- "$WORKLOAD_PERF" test -w calls 0.3 >p.data 2>p.log ||
	fail "record -g -o - failed: $(tail -1 p.log)"
# the vDSO's build id comes before the first sample (a reader resolves samples as they come,
# and would take its own vDSO for the recorded one), as a record that perf reads on its stdin
"$PERF" script -D -i p.data 2>/dev/null | awk '
	/@pipe \[0x[0-9a-f]+\]: event: [0-9]+$/ { t = $NF; if (t == 9) { sample = 1; exit } }
	t == 67 && /\[vdso\]/ { vdso = 1 }
	END { exit !(sample && vdso) }' || fail "pipe: no BUILD_ID record of [vdso] before the first sample"
for tool in "$SYSTEM_PERF" "$UPSTREAM_PERF"; do
	"$tool" script -i - <p.data >p.stdin.txt 2>p.stdin.err ||
		fail "$tool script of our pipe stream on its stdin failed: $(tail -1 p.stdin.err)"
	[ ! -s p.stdin.err ] || fail "$tool script of our pipe stream on its stdin warned: $(head -1 p.stdin.err)"
done
if "$PERF" record -q -e sched:sched_switch -a -o - -- sleep 0.1 >t.data 2>t.log; then
	for tool in "$SYSTEM_PERF" "$UPSTREAM_PERF"; do
		"$tool" script -i t.data >t.txt 2>t.err ||
			fail "$tool script of our tracepoint pipe stream failed: $(tail -1 t.err)"
		[ ! -s t.err ] || fail "$tool script of our tracepoint pipe stream warned: $(head -1 t.err)"
		grep -q 'prev_comm=' t.txt || fail "$tool script of our tracepoint pipe stream printed no fields"
	done
else
	not_tested "the tracepoint stream: no sched:sched_switch here ($(tail -1 t.log))"
fi

for f in g a p; do
	"$SYSTEM_PERF" script -i $f.data >$f.sys.txt 2>$f.sys.err ||
		fail "system perf script of our $f.data failed: $(tail -1 $f.sys.err)"
	[ ! -s $f.sys.err ] || fail "system perf script of our $f.data warned: $(head -1 $f.sys.err)"
	"$SYSTEM_PERF" report --stdio -i $f.data >$f.sysrep.txt 2>$f.sysrep.err ||
		fail "system perf report of our $f.data failed: $(tail -1 $f.sysrep.err)"
	[ ! -s $f.sysrep.err ] || fail "system perf report of our $f.data warned: $(head -1 $f.sysrep.err)"
	grep -q calls_leaf $f.sys.txt || fail "system perf script of our $f.data lacks calls_leaf"

	"$UPSTREAM_PERF" script --no-inline -i $f.data >$f.up.txt 2>$f.up.err ||
		fail "upstream perf script of our $f.data failed: $(tail -1 $f.up.err)"
	[ ! -s $f.up.err ] || fail "upstream perf script of our $f.data warned: $(head -1 $f.up.err)"
	"$PERF" script --no-inline -i $f.data >$f.ours.txt 2>$f.ours.err ||
		fail "our perf script of $f.data failed: $(tail -1 $f.ours.err)"
	# -a meets threads that exit while recorded, where upstream forgets them and we do
	# not (on purpose, README "Tests"): the byte-for-byte check is the workload's file
	[ $f = a ] && continue
	# a sample in the vDSO (clock_gettime, about one in a thousand): upstream runs in its
	# own root, without this machine's build-id cache, and names no [vdso] symbol; we
	# take this machine's vDSO. The frame's address and DSO are still compared.
	for o in up ours; do
		sed -E 's/^(\t +[0-9a-f]+ ).* \(\[vdso\]\)$/\1[unknown] ([vdso])/' $f.$o.txt >$f.$o.vdso
	done
	if ! cmp -s $f.up.vdso $f.ours.vdso; then
		verbose "$(diff $f.up.vdso $f.ours.vdso | head -20)"
		fail "upstream's perf script --no-inline of our $f.data differs from ours"
	fi
done

# upstream's --time N% slices need HEADER_SAMPLE_TIME (without it: a HINT and no samples);
# the workload spins 0.3 s, so the first tenth holds samples
"$UPSTREAM_PERF" report --stdio --time 10%/1 -i g.data >time.txt 2>time.err ||
	fail "upstream perf report --time 10%/1 of our file failed: $(tail -1 time.err)"
[ ! -s time.err ] || fail "upstream perf report --time 10%/1 of our file warned: $(head -1 time.err)"
expect_grep "^# Samples: [1-9][0-9]* +of event .*time slices: 10%/1" time.txt \
	"upstream perf report --time 10%/1 of our file: no samples in the slice"

parser=/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser
if [ -x "$parser" ]; then
	"$parser" --input g.data --output g.hotspot >hs.log 2>&1 || fail "hotspot-perfparser failed: $(tail -1 hs.log)"
	[ -s g.hotspot ] || fail "hotspot-perfparser wrote nothing"
	grep -aq calls_leaf g.hotspot || fail "hotspot-perfparser found no calls_leaf in our file"
	# the parser complains of features and record types it does not know in perf's own
	# files too: ours may draw no complaint that a system perf file of this machine does not
	"$SYSTEM_PERF" record -q -g -o sys.data -- "$WORKLOAD_PERF" test -w calls 0.1 >sys.log 2>&1 ||
		fail "system perf record failed: $(tail -1 sys.log)"
	"$parser" --input sys.data --output sys.hotspot >hs-sys.log 2>&1
	grep -v '^Linux version' hs.log | sort -u >hs.ours
	grep -v '^Linux version' hs-sys.log | sort -u >hs.sys
	extra=$(comm -23 hs.ours hs.sys)
	[ -z "$extra" ] || fail "hotspot-perfparser complains of our file only: $extra"
else
	not_tested "hotspot's perfparser: not installed (make test-deps as root)"
fi
pass
