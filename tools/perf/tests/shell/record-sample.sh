#!/bin/sh
# perf record's sample-field options (-d -T -P -W -s -R -n -k --user-regs -I, -F above the limit, -m rounding): attrs as perf 6.1's, files read by ours, perf 6.1 and upstream 7.2; -b/-j without LBR, lbr and --aio refused with one line; --threads (one file), --synth (exclusive)
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 600

. "$(dirname "$0")"/lib.sh

need_perf
cases 4	# attrs against perf 6.1, upstream 7.2 reads, branch stacks refused, -m as perf 6.1
if ! "$PERF" record -q -e cpu-clock -o probe.data -- true >probe.log 2>&1; then
	verbose "$(cat probe.log)"
	skip "perf record cannot open events here: $(tail -1 probe.log)"
fi
wl="$WORKLOAD_PERF test -w noploop 0.05"

# the options and the attrs they make; each row is recorded by perf 6.1 and by us
opts_list() {
	cat <<'EOF'
-d -c 1000000
-i -T
-P -c 1000000
-c 1000000
--no-period
--no-timestamp
-W
-s -i
-R
-n
-k monotonic_raw
-k CLOCK_REALTIME
--user-regs=ip,sp
-Iip,sp,r15
--call-graph dwarf --user-regs=ip
EOF
}

# fields FILE: the attr of FILE as perf 6.1 prints it, one field a line
fields() {
	"$SYSTEM_PERF" evlist -v -i "$1" 2>/dev/null | sed 's/, /\n/g' | sort
}

# 1. each option's attr equals perf 6.1's: what differs from perf's for the same options
# differs the same way without them (our baseline keeps build_id, perf 6.1 has ksymbol ...)
if [ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" record -q -B -e cpu-clock -o p0.data -- true >/dev/null 2>&1; then
	"$PERF" record -q -e cpu-clock -o o0.data -- true || fail "record -e cpu-clock failed"
	fields p0.data >p0.f
	fields o0.data >o0.f
	diff p0.f o0.f | grep '^[<>]' | grep -v 'cpu-clock' >base.diff
	opts_list | while read -r o; do
		# -B: perf 6.1's build-id pass at the end asserts now and then on this machine
		# shellcheck disable=SC2086
		"$SYSTEM_PERF" record -q -B -e cpu-clock $o -o p.data -- true >p.log 2>&1 ||
			fail "perf 6.1 record $o failed: $(head -1 p.log)"
		# shellcheck disable=SC2086
		"$PERF" record -q -e cpu-clock $o -o o.data -- true >o.log 2>&1 ||
			fail "record $o failed: $(head -1 o.log)"
		fields p.data >p.f
		fields o.data >o.f
		diff p.f o.f | grep '^[<>]' | grep -v 'cpu-clock' >o.diff
		cmp -s base.diff o.diff || fail "record $o: the attr differs from perf 6.1's: $(diff base.diff o.diff | grep '^[<>]' | tr '\n' ' ')"
	done || exit 1
else
	not_tested "attrs against perf 6.1: $SYSTEM_PERF cannot record here"
fi

# 2. our files, read back: ours, perf 6.1 and upstream 7.2 read them without a word
upstream_perf || not_tested "upstream 7.2 reads: no upstream perf"
# reads FILE WHAT: every reader we have reads FILE with no warning
reads() {
	"$PERF" script -i "$1" >r.out 2>r.err || fail "$2: our script failed: $(head -1 r.err)"
	[ -s r.err ] && fail "$2: our script said: $(head -1 r.err)"
	if [ -x "$SYSTEM_PERF" ]; then
		"$SYSTEM_PERF" script -i "$1" >/dev/null 2>r.err || fail "$2: perf 6.1 script failed: $(head -1 r.err)"
		[ -s r.err ] && fail "$2: perf 6.1 script said: $(head -1 r.err)"
	fi
	if [ -n "${UPSTREAM_PERF:-}" ] && "$UPSTREAM_PERF" --version >/dev/null 2>&1; then
		"$UPSTREAM_PERF" script -i "$1" >/dev/null 2>r.err ||
			fail "$2: upstream script failed: $(head -1 r.err)"
		[ -s r.err ] && fail "$2: upstream script said: $(head -1 r.err)"
	fi
	return 0
}
# same_fields FILE FIELDS WHAT: our script -F FIELDS prints what upstream 7.2's does
same_fields() {
	"$PERF" script -F "$2" -i "$1" >f.ours 2>f.err || fail "$3: script -F $2 failed: $(head -1 f.err)"
	[ -s f.ours ] || fail "$3: script -F $2 printed nothing"
	if [ -n "${UPSTREAM_PERF:-}" ] && "$UPSTREAM_PERF" --version >/dev/null 2>&1; then
		"$UPSTREAM_PERF" script -F "$2" -i "$1" >f.up 2>/dev/null
		# a sample after its thread's EXIT record (file order without timestamps):
		# upstream forgets the thread and prints its comm as :TID, ours keeps the name
		cmp -s f.ours f.up || allow_exited_comm f.up f.ours ||
			fail "$3: script -F $2 differs from upstream 7.2's: $(diff f.ours f.up | head -3)"
	fi
	return 0
}
rec() {
	out=$1
	shift
	# shellcheck disable=SC2086
	"$PERF" record -q -e cpu-clock "$@" -o "$out" -- $wl >rec.log 2>&1 ||
		fail "record $* failed: $(head -1 rec.log)"
	[ -s rec.log ] && fail "record -q $* said: $(head -1 rec.log)"
	return 0
}
rec r0.data
rec d.data -d
reads d.data "-d"
same_fields d.data ip,addr "-d"
# mmap_data: the data mappings (non-executable) come too, from the kernel for a workload and
# from /proc for -p (cpu-clock has no data address: its addr is 0, as in perf)
"$PERF" script -D -i d.data 2>/dev/null | grep -q 'PERF_RECORD_MMAP2.*\]: r[-w]-p' ||
	fail "-d: no data mmaps recorded"
"$PERF" script -D -i r0.data 2>/dev/null | grep -q 'PERF_RECORD_MMAP2.*\]: r[-w]-p' &&
	fail "no -d: data mmaps recorded"
sleep 5 &
spid=$!
"$PERF" record -q -e cpu-clock -d -p $spid -o dp.data -- sleep 0.1 >rec.log 2>&1 ||
	fail "record -d -p failed: $(head -1 rec.log)"
kill $spid
"$PERF" script -D -i dp.data 2>/dev/null | grep -q 'PERF_RECORD_MMAP2.*\]: r[-w]-p' ||
	fail "-d -p: no data mmaps synthesized"
rec w.data -W
reads w.data "-W"
same_fields w.data ip,weight,ins_lat,retire_lat "-W"
rec u.data --user-regs=ip,sp,bp
reads u.data "--user-regs"
same_fields u.data ip,uregs "--user-regs"
expect_grep ' ABI:2 +BP:0x[0-9a-f]+ +SP:0x[0-9a-f]+ +IP:0x' f.ours "--user-regs=ip,sp,bp: not the three registers"
rec i.data -Iip,sp
reads i.data "-I"
same_fields i.data ip,iregs "-I"
rec r.data -R
reads r.data "-R"
same_fields r.data cpu,ip "-R"
rec t.data --no-timestamp -P -c 1000000
reads t.data "--no-timestamp -P -c"
same_fields t.data comm,tid,period,ip "--no-timestamp -P -c"
rec k.data -k monotonic_raw
reads k.data "-k monotonic_raw"
same_fields k.data time,ip "-k monotonic_raw"
"$PERF" script --header-only -i k.data >k.hdr 2>&1
expect_grep '^# clockid: monotonic_raw \(4\)$' k.hdr "-k: no clock_data feature naming the clock"
expect_grep '^# clockid frequency: [0-9]+ MHz$' k.hdr "-k: no clockid feature"
# perf 6.1 reads our clock_data: the reference time in the recorded clock
if [ -x "$SYSTEM_PERF" ]; then
	"$SYSTEM_PERF" report --header-only -i k.data 2>&1 | grep -q '^# reference time: .*(monotonic_raw)$' ||
		fail "-k: perf 6.1 finds no reference time in our clock_data"
fi
# -s: inherit_stat; the kernel writes each inherited counter's READ as its task exits, which
# report -T lists per thread as perf 6.1 does
"$PERF" record -q -e cpu-clock -s -o s.data -- "$WORKLOAD_PERF" test -w forkexec 0.2 >rec.log 2>&1 ||
	fail "record -s failed: $(head -1 rec.log)"
reads s.data "-s"
"$PERF" script -D -i s.data 2>/dev/null | grep -q 'PERF_RECORD_READ' || fail "-s: no READ records"
"$PERF" report -T --stdio -i s.data 2>/dev/null | sed -n '/^# *PID *TID/,$p' >s.ours
[ "$(wc -l <s.ours)" -ge 3 ] || fail "-s: report -T lists no threads' counts: $(cat s.ours)"
if [ -x "$SYSTEM_PERF" ]; then
	"$SYSTEM_PERF" report -T --stdio -i s.data 2>/dev/null | sed -n '/^# *PID *TID/,$p' >s.sys
	cmp -s s.ours s.sys || fail "-s: report -T differs from perf 6.1's: $(diff s.ours s.sys | head -3)"
fi
# -n: the side-band and no sample
rec n.data -n
reads n.data "-n"
"$PERF" script -D -i n.data 2>/dev/null | grep -q 'PERF_RECORD_SAMPLE' && fail "-n: samples were recorded"
"$PERF" script -D -i n.data 2>/dev/null | grep -q 'PERF_RECORD_COMM' || fail "-n: no side-band"
# --call-graph dwarf records the data addresses too, as perf does, and still unwinds
rec dw.data --call-graph dwarf
reads dw.data "--call-graph dwarf"
# --user-regs takes no next word: the command is recorded, not parsed as registers
"$PERF" record -q -e cpu-clock --user-regs -o ur.data true >ur.log 2>&1 ||
	fail "record --user-regs true failed: $(head -1 ur.log)"

# 3. -F above kernel.perf_event_max_sample_rate: lowered with perf's warning (--strict-freq:
# refused); -q keeps it quiet
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
over=$((max * 10))
"$PERF" record -e cpu-clock -F $over -o f.data -- true >f.log 2>&1 || fail "-F $over failed: $(head -1 f.log)"
head -4 f.log >f.warn
cat >f.want <<EOF
warning: Maximum frequency rate ($max Hz) exceeded, throttling from $over Hz to $max Hz.
         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.
         The kernel will lower it when perf's interrupts take too long.
         Use --strict-freq to disable this throttling, refusing to record.
EOF
cmp -s f.warn f.want || fail "-F $over: not perf's warning: $(head -1 f.log)"
if [ -x "$SYSTEM_PERF" ]; then
	"$SYSTEM_PERF" record -B -e cpu-clock -F $over -o fs.data -- true 2>&1 | head -4 >f.sys
	cmp -s f.sys f.want || fail "-F $over: perf 6.1 words its warning otherwise now: $(head -1 f.sys)"
fi
"$PERF" script --header-only -i f.data | grep -q "sample_freq } = $max," ||
	fail "-F $over: the attr's frequency is not $max"
"$PERF" record -q -e cpu-clock -F $over -o f.data -- true >f.log 2>&1
[ -s f.log ] && fail "-q -F $over: said $(head -1 f.log)"

# refused CODE PATTERN ARGS...: perf record ARGS exits CODE, its first line matches PATTERN
# (the usage may follow, as perf's)
refused() {
	code=$1
	pat=$2
	shift 2
	"$PERF" record "$@" >x.out 2>x.err
	rc=$?
	[ $rc = "$code" ] || fail "record $*: exit $rc, not $code: $(head -1 x.err)"
	head -1 x.err | grep -Eq -- "$pat" || fail "record $*: first line '$(head -1 x.err)' does not match '$pat'"
	[ $code = 129 ] || [ "$(grep -c . x.err)" -eq 1 ] || fail "record $*: more than one line: $(cat x.err)"
	return 0
}
refused 129 "-F $over --strict-freq: Maximum frequency rate \($max Hz\) exceeded" \
	-e cpu-clock -F $over --strict-freq -o x.data -- true
[ "$(grep -c . x.err)" -eq 1 ] || fail "--strict-freq: more than one line"
refused 129 'cannot set frequency and period at the same time' -F 100 -c 100 -o x.data -- true
refused 129 "-F '0': the sampling frequency must be a positive" -F 0 -o x.data -- true

# 4. -m: rounded up to a power of two of pages, in perf 6.1's words
page=$(getconf PAGESIZE)
for m in 100 100K 0; do
	"$PERF" record -e cpu-clock -m $m -o m.data -- true >m.log 2>&1 || fail "-m $m failed: $(head -1 m.log)"
	if [ -x "$SYSTEM_PERF" ]; then
		"$SYSTEM_PERF" record -B -e cpu-clock -m $m -o ms.data -- true 2>&1 | grep '^rounding' >m.sys
		head -1 m.log >m.ours
		cmp -s m.ours m.sys || fail "-m $m: '$(cat m.ours)', perf 6.1 says '$(cat m.sys)'"
	fi
done
[ -x "$SYSTEM_PERF" ] || not_tested "-m as perf 6.1: no $SYSTEM_PERF"
# with 4 KB pages: 100 pages are 128 (512K)
if [ "$page" = 4096 ]; then
	"$PERF" record -e cpu-clock -m 100 -o m.data -- true 2>&1 | grep -qx 'rounding mmap pages size to 512K (128 pages)' ||
		fail "-m 100: not rounded to 128 pages"
fi
refused 129 "-m '8k': the ring size must be a number of pages" -m 8k -o x.data -- true
refused 129 "-m '2000000': at most 1048576 pages" -m 2000000 -o x.data -- true

# bad values: one line each (then the usage), exit 129
refused 129 "unknown branch filter 'foo'" -j any,foo -o x.data -- true
refused 129 "can't use --branch-any \(-b\) with --branch-filter \(-j\)" -b -j any -o x.data -- true
refused 129 "unknown clock 'foo'" -k foo -o x.data -- true
refused 129 "unknown clock '4x'" -k 4x -o x.data -- true
refused 129 "clock '99' \(99\): not a clock of this machine" -k 99 -o x.data -- true
refused 129 'given twice' -k 1 -k 4 -o x.data -- true
refused 129 'unknown register "foo", check man page or run "perf record --user-regs=\?"' \
	--user-regs=ip,foo -o x.data -- true
refused 129 'unknown register "ds"' --user-regs=ds -o x.data -- true
refused 129 'unknown register "", check man page or run "perf record -I\?"' -Iip, -o x.data -- true
refused 129 '^available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15 $' \
	--user-regs=?
if [ -x "$SYSTEM_PERF" ]; then
	"$SYSTEM_PERF" record --user-regs=? 2>&1 | head -1 >regs.sys
	head -1 x.err | cmp -s - regs.sys || fail "--user-regs=?: perf 6.1 lists '$(cat regs.sys)'"
fi
refused 129 '^available registers: AX ' -I?
refused 129 "option \`call-graph' lbr is not supported: LBR call stacks" --call-graph lbr -o x.data -- true
refused 129 "option \`aio' is not supported" --aio -o x.data -- true
refused 129 "option \`aio' is not supported" --aio=2 -o x.data -- true
refused 129 "option \`threads' spec 'socket'" --threads=socket -o x.data -- true
"$PERF" record -q --no-aio --no-threads -e cpu-clock -o x.data -- true ||
	fail "--no-aio --no-threads: refused"
# --threads: one file, the samples there as without it
"$PERF" record -q --threads=package -e cpu-clock -o thr.data -- "$WORKLOAD_PERF" test -w noploop 0.2 ||
	fail "--threads=package: refused"
"$PERF" report -i thr.data --stdio -q 2>/dev/null | grep -q noploop ||
	fail "--threads=package: no noploop samples in the file"
# --synth=no: -a without the maps and COMMs of the processes running already
"$PERF" record -q -a --synth=no -e cpu-clock -o syn.data -- sleep 0.1 2>syn.err || fail "--synth=no: $(cat syn.err)"
# (the synthesized ones have time 0; the workload's own COMM is written whatever --synth says)
"$PERF" script -i syn.data --show-mmap-events --show-task-events 2>/dev/null |
	grep ' 0\.000000: PERF_RECORD_\(MMAP\|COMM\)' | grep -v -e 'kernel\.kallsyms' -e 'COMM: perf-exec:' >syn.pre
[ -s syn.pre ] && fail "--synth=no: synthesized records: $(head -2 syn.pre)"
"$PERF" record -q -a -e cpu-clock -o syn.data -- sleep 0.1 2>syn.err || fail "-a: $(cat syn.err)"
"$PERF" script -i syn.data --show-mmap-events --show-task-events 2>/dev/null |
	grep ' 0\.000000: PERF_RECORD_\(MMAP\|COMM\)' | grep -v -e 'kernel\.kallsyms' -e 'COMM: perf-exec:' >syn.pre
[ -s syn.pre ] || fail "-a without --synth: no synthesized records (the check above cannot fail)"
refused 129 "option \`synth' unknown type 'maps'" --synth=maps -a -o x.data -- true
# -B: no build-id table; --no-bpf-event: no ksymbol/bpf_event in the attrs; each against without
for opt in "" -B; do
	"$PERF" record -q $opt -e cpu-clock -o nb.data -- "$WORKLOAD_PERF" test -w noploop 0 ||
		fail "record $opt failed"
	"$PERF" report -i nb.data --header-only 2>/dev/null | grep '^# missing features:' >nb.miss
	case "$opt:$(grep -c ' BUILD_ID ' nb.miss)" in
	:0 | -B:1) ;;
	*) fail "record $opt: HEADER_BUILD_ID $(cat nb.miss)" ;;
	esac
done
for opt in "" --no-bpf-event; do
	"$PERF" record -q $opt -e cpu-clock -o nb.data -- true || fail "record $opt failed"
	n=$("$PERF" evlist -v -i nb.data | grep -c 'bpf_event: 1')
	[ "$opt:$n" = ":1" ] || [ "$opt:$n" = "--no-bpf-event:0" ] ||
		fail "record $opt: $n attrs with bpf_event"
done
# -k 6 (monotonic_coarse) is a clock, but not one the kernel stamps samples with
refused 255 "cannot open event 'cpu-clock': Invalid argument: -k 6: the kernel stamps samples only with" \
	-e cpu-clock -k 6 -o x.data -- true

# branch stacks: the attr is built (perf's), the kernel refuses it without LBR/BRS: one line
"$PERF" record -q -e cpu-clock -b -o b.data -- true >b.log 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	[ $rc = 255 ] || fail "-b refused with exit $rc, not 255"
	[ "$(grep -c . b.log)" -eq 1 ] || fail "-b: not one line: $(cat b.log)"
	expect_grep "^perf record: cannot open event 'cpu-clock': .*branch stacks \(-b, -j\) need a hardware PMU with LBR \(Intel\) or BRS \(AMD\)" \
		b.log "-b: the reason is not given"
	refused 255 "branch stacks \(-b, -j\) need a hardware PMU with LBR" -e cpu-clock -j any_call,u -o x.data -- true
else
	not_tested "branch stacks refused: this machine samples them"
fi
pass
