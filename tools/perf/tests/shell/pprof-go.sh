#!/bin/sh
# perf data convert --to-pprof: Go's pprof (-symbolize=none) shows the stacks and counts perf script shows (fp, deferred and fallback recordings, inline frames) and a -top equal to report's self column; bad input and options one line each
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 600
. "$(dirname "$0")"/lib.sh

need_perf
cases 4	# our -g recording, the system perf's, the fallback of --defer (live), the real deferred files
command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1 ||
	skip "no Go pprof (go tool pprof): apt-get install golang-go, or make test-deps as root"
export HOME="${HOME:-$TMPDIR}" GOCACHE="$TMPDIR/gocache" GOFLAGS=-mod=mod

# stacks_script DATA [OPTS]: "comm pid tid|leaf;...;root" per sample, counted, from perf script
stacks_script() {
	data=$1
	shift
	"$PERF" script -F comm,pid,tid,ip,sym "$@" -i "$data" 2>/dev/null | awk '
		function flush() { if (key != "") n[key stack]++; key = "" }
		/^[^\t]/ {
			flush()
			split($0, f, " ")
			pt = f[2]; sub(/:$/, "", pt); split(pt, id, "/")
			key = f[1] " " id[1] " " id[2] "|"; stack = ""; first = 1
			next
		}
		/^\t/ {
			line = $0; sub(/^\t *[0-9a-f]+ /, "", line); sub(/ \(inlined\)$/, "", line)
			stack = first ? line : stack ";" line; first = 0
		}
		END { flush(); for (k in n) print n[k], k }' | sort
}

# stacks_pprof PROFILE: the same from go tool pprof -traces (counts, not periods)
stacks_pprof() {
	go tool pprof -traces -sample_index=samples -symbolize=none "$1" 2>/dev/null | awk '
		function flush() { if (inblock && frames != "") n[comm " " pid " " tid "|" frames] += v; frames = ""; inblock = 0 }
		/^-----------\+/ { flush(); inblock = 1; comm = pid = tid = ""; next }
		!inblock { next }
		/^ *comm: / { comm = $2; next }
		/^ *pid: / { pid = $2; next }
		/^ *tid: / { tid = $2; next }
		/^ *event: / { next }
		{
			line = $0; sub(/^ +/, "", line)
			if (frames == "") { v = line; sub(/ .*/, "", v); sub(/^[0-9]+ +/, "", line) }
			sub(/ \(inline\)$/, "", line)
			frames = frames == "" ? line : frames ";" line
		}
		END { flush(); for (k in n) print n[k], k }' | sort
}

# check WHAT DATA [OPTS]: the profile of DATA against our perf script of it
check() {
	what=$1 data=$2
	shift 2
	"$PERF" data convert "$@" -i "$data" --to-pprof "$what.pb.gz" 2>conv.err ||
		fail "$what: perf data convert failed: $(cat conv.err)"
	gzip -t "$what.pb.gz" || fail "$what: not a gzip file"
	stacks_script "$data" "$@" >want
	stacks_pprof "$what.pb.gz" >got
	[ -s want ] || fail "$what: perf script shows no samples"
	cmp -s want got || fail "$what: go tool pprof -traces differs from perf script:
$(diff want got | head -10)"
	verbose "$what: $(wc -l <want) stacks, $(awk '{ n += $1 } END { print n }' want) samples"
}

# 1. ours, -g, inline frames on and off
"$PERF" record -q -g -e cpu-clock -o g.data -- "$WORKLOAD_PERF" test -w calls 0.3 >rec.log 2>&1 ||
	fail "perf record -g failed: $(tail -1 rec.log)"
check ours-g g.data
check ours-g-noinline g.data --no-inline

# -top: each function's flat count is report's self column (its sample count), --no-inline
# on both sides (report puts an inlined function's samples on its caller)
go tool pprof -top -sample_index=samples -symbolize=none -nodecount=100000 -nodefraction=0 ours-g-noinline.pb.gz 2>/dev/null |
	awk '/^ *[0-9]+ +[0-9.]+% / && $1 > 0 {
		name = $0
		for (i = 0; i < 5; i++) sub(/^ *[^ ]+/, "", name)	# flat flat% sum% cum cum%
		sub(/^ +/, "", name); print $1, name }' |
	sort >top.got
"$PERF" report --stdio --no-children --no-inline -g none -n --sort sym -i g.data 2>/dev/null |
	awk '/^ +[0-9.]+%/ { name = $0; sub(/^ *[^ ]+ +[^ ]+ +\[.\] /, "", name); sub(/ +$/, "", name)
		# report names an address without a symbol by itself, script and the profile "[unknown]"
		if (name ~ /^0x[0-9a-f]+$/) name = "[unknown]"
		n[name] += $2 }
	     END { for (k in n) print n[k], k }' | sort >top.want
cmp -s top.want top.got || fail "go tool pprof -top differs from perf report's self column:
$(diff top.want top.got | head -10)"

# 2. the system perf's -g recording
if [ -x "$SYSTEM_PERF" ] &&
   "$SYSTEM_PERF" record -q -g -e cpu-clock -o sys.data -- "$WORKLOAD_PERF" test -w calls 0.2 >rec.log 2>&1; then
	check sys-g sys.data
else
	not_tested "a recording of the system perf: $SYSTEM_PERF cannot record here"
fi

# 3. --defer: on this kernel the fallback (user regs and stack, unwound here), else deferred
if "$PERF" record -q -g --defer -e cpu-clock -o defer.data -- "$WORKLOAD_PERF" test -w syscalls 0.3 \
	>rec.log 2>&1; then
	check defer defer.data
else
	not_tested "perf record --defer: $(tail -1 rec.log)"
fi

# 4. the real deferred recordings (stitched as script stitches them)
if [ -x "$PERF_SRCDIR/tools/perf/tests/data/unpack-fixtures.sh" ] &&
   "$PERF_SRCDIR/tools/perf/tests/data/unpack-fixtures.sh" real-defer "$FIXTURES" >/dev/null 2>&1; then
	n=0
	for f in "$FIXTURES"/real-defer/data/*.data; do
		[ -f "$f" ] || continue
		check "real-defer-$(basename "$f" .data)" "$f" --symfs="$FIXTURES/real-defer/symfs" \
			--kallsyms="$FIXTURES/real-defer/kallsyms"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || fail "no real deferred recordings in $FIXTURES/real-defer/data"
else
	not_tested "the real deferred recordings: the fixtures cannot be unpacked"
fi

# the profile as a profile: string_table[0] "", mapping[0] the workload, a line per inlined
# function of a location, the flags (-raw prints the message's fields)
go tool pprof -raw -symbolize=none ours-g.pb.gz >raw.txt 2>&1 || fail "go tool pprof -raw failed"
grep -q '^Mappings' raw.txt || fail "go tool pprof -raw: no mappings: $(head -3 raw.txt)"
sed -n '/^Mappings/,$p' raw.txt | sed -n 2p | grep -q 'perf' ||
	fail "the first mapping is not the workload's binary: $(sed -n '/^Mappings/,$p' raw.txt | sed -n 2p)"
sed -n '/^Mappings/,$p' raw.txt | sed -n 2p | grep -q '\[FN\]' ||
	fail "the workload's mapping has no has_functions: $(sed -n '/^Mappings/,$p' raw.txt | sed -n 2p)"

# errors: one line, non-zero
bad() {
	want_rc=$1 pat=$2
	shift 2
	"$PERF" data "$@" >bad.out 2>bad.err
	rc=$?
	[ $rc = "$want_rc" ] || fail "perf data $*: exit $rc, not $want_rc: $(head -2 bad.err)"
	grep -q -- "$pat" bad.err || fail "perf data $*: '$(head -1 bad.err)' does not say '$pat'"
}
bad 255 "no-such.data" convert -i no-such.data --to-pprof x.pb.gz
bad 255 "cannot create /no/such/dir/x.pb.gz" convert -i g.data --to-pprof /no/such/dir/x.pb.gz
[ -e /no/such/dir/x.pb.gz ] && fail "a profile in a missing directory"
bad 129 "no output: --to-pprof FILE" convert -i g.data
bad 129 "--to-json is not supported" convert -i g.data --to-json x.json
bad 129 "unknown option" convert --bogus
bad 129 "unknown command 'split'" split
head -c 4000 g.data >cut.data
bad 255 "runs past the end of the file" convert -i cut.data --to-pprof cut.pb.gz
[ -e cut.pb.gz ] && fail "a profile of a cut file was written"
# stdout
"$PERF" data convert -i g.data --to-pprof - >stdout.pb.gz 2>/dev/null || fail "--to-pprof - failed"
cmp -s stdout.pb.gz ours-g.pb.gz || gzip -dc stdout.pb.gz | cmp -s - "$(gzip -dc ours-g.pb.gz >ours.pb; echo ours.pb)" ||
	fail "--to-pprof - writes another profile"
pass
