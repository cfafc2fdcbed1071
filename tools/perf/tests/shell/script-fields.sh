#!/bin/sh
# perf script -F field selection, --ns and their errors
. "$(dirname "$0")"/lib.sh

need_perf
D=$PERF_SRCDIR/demo
[ -f "$D/calls.data" ] || fail "demo/calls.data is missing from the tree"
gzip -dc "$D/kallsyms.gz" >kallsyms || fail "cannot unpack kallsyms"
s() { "$PERF" script --symfs="$D/symfs" --kallsyms=kallsyms -i "$D/calls.data" "$@"; }

s >default.out 2>err || fail "default run failed: $(cat err)"
[ -s default.out ] || fail "no output"

# naming the default fields explicitly changes nothing
s -F comm,tid,time,event,ip,sym,symoff,dso,period >explicit.out 2>err || fail "-F defaults: $(cat err)"
cmp -s default.out explicit.out || fail "-F with the default fields differs from the default"

# -period drops the period column and nothing else
s -F -period >noperiod.out 2>err || fail "-F -period: $(cat err)"
sed -E 's/^(.* [0-9]+\.[0-9]{6}: ) +[0-9]+ (cpu-clock: )$/\1\2/' default.out >want.out
cmp -s want.out noperiod.out || fail "-F -period is not the default minus the period column"

# ip alone: frames are bare addresses
s -F comm,tid,time,ip >ip.out 2>err || fail "-F ip: $(cat err)"
grep '^	' default.out | awk '{ print $1 }' >want.ip
grep '^	' ip.out | awk '{ print $1 }' >got.ip
cmp -s want.ip got.ip || fail "-F ip frames differ from the default frames' addresses"
grep -qE '^	 *[0-9a-f]+ ' ip.out && fail "-F ip printed more than addresses"

# --ns: the same times with nanoseconds, which truncate to the default microseconds
s --ns -F time >ns.out 2>err || fail "--ns: $(cat err)"
grep -oE '[0-9]+\.[0-9]{9}:' ns.out | sed -E 's/([0-9]+\.[0-9]{6})[0-9]{3}:/\1:/' >ns.times
grep -oE '[0-9]+\.[0-9]{6}:' default.out >us.times
cmp -s ns.times us.times || fail "--ns times do not match the microsecond times"

# errors: a field the samples lack, an unknown field
s -F cpu >/dev/null 2>err
rc=$?
[ $rc = 255 ] || fail "-F cpu on samples without PERF_SAMPLE_CPU exited $rc, not 255 (upstream's)"
expect_grep "^Samples for 'cpu-clock' event do not have CPU attribute set\. Cannot print 'cpu' field\.$" err \
	"wrong error for -F cpu: $(cat err)"
if s -F comm,bogus >/dev/null 2>err; then
	fail "-F bogus accepted"
fi
expect_grep "Invalid field requested: 'bogus'" err "wrong error for -F bogus: $(cat err)"

# a field a type cannot have: left out of it with perf's warning, the rest is printed
s -F comm,trace >trace.out 2>err || fail "-F comm,trace refused: $(cat err)"
expect_grep "^'trace' not valid for software events. Ignoring.$" err \
	"no warning for -F comm,trace: $(cat err)"
[ "$(grep -c . trace.out)" = "$(grep -c 'cpu-clock:' default.out)" ] ||
	fail "-F comm,trace does not print one comm line per sample"

# mistakes: perf's message, and its exit status (129: usage, 255: the run cannot start)
mistake() {
	want_rc=$1 msg=$2
	shift 2
	s "$@" >/dev/null 2>err
	rc=$?
	[ $rc = "$want_rc" ] || fail "$*: exit $rc, not $want_rc"
	expect_grep "$msg" err "wrong error for $*: $(cat err)"
}
mistake 129 "^Cannot set fields to 'none' for all event types.$" -F ''
mistake 129 "^'trace' not valid for software events.$" -F sw:trace
mistake 129 "^Cannot mix \+-field with overridden fields$" -F comm,+trace
mistake 255 "^reltime and deltatime - the two don't get along well. Please limit to --reltime or --deltatime.$" \
	--reltime --deltatime
mistake 255 "^Invalid file: no-such-vmlinux$" -k no-such-vmlinux
# fields the samples lack: perf's error
mistake 255 "^Samples for 'cpu-clock' event do not have IREGS attribute set\. Cannot print 'iregs' field\.$" \
	-F comm,iregs
mistake 255 "^Samples for 'cpu-clock' event do not have WEIGHT_STRUCT attribute set\. Cannot print 'ins_lat' field\.$" \
	-F comm,ins_lat
mistake 255 "^Samples for 'cpu-clock' event do not have DATA_SRC attribute set\. Cannot print 'data_src' field\.$" \
	-F comm,data_src
# and samples that have it (pf.data: -d page faults, PERF_SAMPLE_DATA_SRC with every part
# N/A): the raw value and its words, as upstream prints them (the values one by one: test
# script_data_src)
"$PERF" script -F comm,data_src -i "$PERF_SRCDIR/tools/perf/tests/data/corpus/pf.data" \
	>data_src.out 2>err || fail "-F data_src refused: $(cat err)"
[ -s data_src.out ] || fail "-F data_src printed nothing"
grep -vqxF '            find       1e05080021 |OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A' \
	data_src.out && fail "-F data_src: a line is not pf.data's value and its words: $(head -1 data_src.out)"
# "TYPE:" asks for nothing of a type the recording must then have (calls.data: cpu-clock only)
mistake 255 "^hardware events do not exist. Remove corresponding -F option to proceed.$" -F hw:
mistake 255 "^tracepoint events do not exist. Remove corresponding -F option to proceed.$" \
	-F trace:
mistake 255 "^breakpoint events do not exist. Remove corresponding -F option to proceed.$" \
	-F break:,
# perf has no type word for hardware-cache events; synth: is its word for synthesized events
mistake 129 "^Invalid event type in field string: 'hw-cache'$" -F hw-cache:comm
mistake 129 "^'trace' not valid for unknown events.$" -F synth:trace
mistake 129 "^Invalid field requested: 'bogus'$" -F synth:comm,bogus
# a type the recording has, with nothing asked of it: nothing printed; of one it lacks: the rest
s -F sw: >none.out 2>err || fail "-F sw: refused: $(cat err)"
[ -s none.out ] && fail "-F sw: printed samples of software events"
s -F hw:comm >hw.out 2>err || fail "-F hw:comm refused: $(cat err)"
cmp -s default.out hw.out || fail "-F hw:comm changed the software events' lines"
s -F synth:comm >synth.out 2>err || fail "-F synth:comm refused: $(cat err)"
cmp -s default.out synth.out || fail "-F synth:comm changed the software events' lines"

# --reltime starts at 0, --deltatime adds up to the last time stamp less the first
s -F time --reltime | head -1 | grep -qE '^ +0\.000000: $' || fail "--reltime does not start at 0"
s -F time --deltatime --ns | awk -F: '{ t += $1 } END { printf "%.9f\n", t }' >sum
s -F time --ns | awk -F: 'NR == 1 { a = $1 } { b = $1 } END { printf "%.9f\n", b - a }' >span
cmp -s sum span || fail "--deltatime times add up to $(cat sum), not $(cat span)"
exit 0
