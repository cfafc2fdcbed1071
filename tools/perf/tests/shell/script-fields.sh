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
if s -F cpu >/dev/null 2>err; then
	fail "-F cpu accepted on samples without PERF_SAMPLE_CPU"
fi
expect_grep "Samples for 'cpu-clock' event do not have CPU attribute set. Cannot print 'cpu' field." err \
	"wrong error for -F cpu: $(cat err)"
if s -F comm,bogus >/dev/null 2>err; then
	fail "-F bogus accepted"
fi
expect_grep "Invalid field requested: 'bogus'" err "wrong error for -F bogus: $(cat err)"
exit 0
