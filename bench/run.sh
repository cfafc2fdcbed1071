#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/run.sh - named benchmarks of our perf against the system perf; see bench/README.md.
#
# Usage: bench/run.sh [-l] [NAME...]     (no NAME: every benchmark; -l: list them)
#
# Environment:
#	BENCH_SAMPLES	samples in the recorded file (default 2000000)
#	BENCH_REPEAT	timed runs per tool, the fastest is reported (default 1)
#	BENCH_TIMEOUT	seconds one timed run may take (default 900)
#	SYSTEM_PERF	the reference perf (default /usr/bin/perf)
#	OURS		our perf (default tools/perf/perf)
#	UPSTREAM_PERF	upstream perf 7.2's wrapper (default scripts/upstream-perf), used
#			by report_fp when its tree exists (UPSTREAM_PERF_DIR, default
#			/var/cache/upstream-perf)
#	BENCH_CACHE	where recordings are kept between runs (default bench/.cache)
#	BENCH_DEFER_CONVERT
#			command that turns an inline-callchain perf.data into its deferred
#			twin: "$BENCH_DEFER_CONVERT IN OUT [each]" (used by script_deferred;
#			default: our perf test -w defer-convert)
#	BENCH_DEFER_REPEAT
#			rounds of script_deferred, the fastest run of each file kept (default 5)
#	BENCH_INLINE_REPEAT
#			rounds of ours with and without inline frames in script_inline and
#			report_inline (default 3)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
SYSTEM_PERF=${SYSTEM_PERF:-/usr/bin/perf}
OURS=${OURS:-$top/tools/perf/perf}
UPSTREAM_PERF=${UPSTREAM_PERF:-$top/scripts/upstream-perf}
UPSTREAM_PERF_DIR=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}
BENCH_SAMPLES=${BENCH_SAMPLES:-2000000}
BENCH_REPEAT=${BENCH_REPEAT:-1}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
BENCH_CACHE=${BENCH_CACHE:-$top/bench/.cache}
BENCH_DEFER_CONVERT=${BENCH_DEFER_CONVERT:-}
BENCH_DEFER_REPEAT=${BENCH_DEFER_REPEAT:-5}
BENCH_INLINE_REPEAT=${BENCH_INLINE_REPEAT:-3}
BENCH_DWARF_MB=${BENCH_DWARF_MB:-500}
# the converter ships in perf test as a workload
[ -n "$BENCH_DEFER_CONVERT" ] || BENCH_DEFER_CONVERT="$(cd "$(dirname "$0")/.." && pwd)/tools/perf/perf test -w defer-convert"

# the benchmarks, in run order: each NAME has bench_NAME and a one-line description
BENCHMARKS=(script_fp report_fp flamegraph pprof script_deferred report_deferred script_inline report_inline report_dwarf inject_deferred inject_dwarf record_end record_overhead record_size)
declare -A BENCH_DESC=(
	[script_fp]="perf script -i FILE of a ${BENCH_SAMPLES}-sample -g file: system perf vs ours"
	[flamegraph]="perf script report flamegraph (html, json, svg) of that file vs our perf script of it; the page's size and its render time in headless Chromium"
	[pprof]="perf data convert --to-pprof of that file vs our perf script of it; the profile's size"
	[report_fp]="perf report --stdio --no-children and --children of that file: system perf, upstream 7.2 and ours"
	[script_deferred]="our perf script of deferred-callchain twins (as the kernel writes them, and one record per sample) vs the inline file"
	[report_deferred]="the same with our perf report --stdio --no-children"
	[script_inline]="perf script of the -g file with inline frames (the default): upstream 7.2 and ours, vs our --no-inline"
	[report_inline]="the same with perf report --stdio --no-children"
	[report_dwarf]="perf report --stdio of a ~${BENCH_DWARF_MB:-500} MB --call-graph dwarf file: system perf, upstream 7.2 (both DWARF-unwind), ours --unwind=dwarf, --unwind=fp and --unwind=fp --no-inline"
	[inject_deferred]="our perf inject of the deferred twin of the -g file (stitched inline into a new file) vs our perf script of it"
	[inject_dwarf]="our perf inject --convert-callchain of the --call-graph dwarf file vs the system perf's perf script of it (which DWARF-unwinds it)"
	[record_end]="perf record -g of a ~40 MB recording: time from the workload's exit to record's exit, system perf vs ours"
	[record_overhead]="perf record -F 20000 -g -p of a workload on every CPU: lost samples and record's own CPU time, system perf vs ours"
	[record_size]="bytes per sample of perf test -w calls: our -g, -g --defer (fallback, its repair dump sizes) and the system perf's -g and --call-graph dwarf, over plain -g"
)

# longest a recording may take, whatever the sample rate allows
MAX_RECORD_SECONDS=600

die() {
	echo "bench: $*" >&2
	exit 1
}

log() {
	echo "bench: $*" >&2
}

# ---- measuring ---------------------------------------------------------------------------

# measure LOG CMD...: runs CMD with stdout to /dev/null and stderr to LOG; sets M_WALL
# (seconds), M_RSS (peak resident KB) and M_RC (exit status)
measure() {
	local errlog=$1 tf t0
	shift
	tf=$(mktemp) || die "mktemp failed"
	if [ -x /usr/bin/time ]; then
		# time's %e has 10 ms steps, too coarse for a run under a second: the wall time
		# comes from bash's microsecond clock around it
		t0=$EPOCHREALTIME
		timeout "$BENCH_TIMEOUT" /usr/bin/time -f '%e %M %x' -o "$tf" "$@" >/dev/null 2>"$errlog"
		M_RC=$?
		M_WALL=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
		# a command killed by a signal makes time print a "Command terminated" line first
		read -r _ M_RSS _ < <(tail -1 "$tf")
	elif command -v python3 >/dev/null; then
		python3 - "$tf" "$BENCH_TIMEOUT" "$@" >/dev/null 2>"$errlog" <<-'EOF'
		import resource, subprocess, sys, time
		out, limit, cmd = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
		t0 = time.monotonic()
		try:
		    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, timeout=limit).returncode
		except subprocess.TimeoutExpired:
		    rc = 124
		wall = time.monotonic() - t0
		rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
		open(out, "w").write("%.3f %d %d\n" % (wall, rss, rc))
		sys.exit(rc)
		EOF
		M_RC=$?
		read -r M_WALL M_RSS _ <"$tf"
	else
		die "need /usr/bin/time (Debian package 'time') or python3 to measure peak RSS"
	fi
	rm -f "$tf"
	[ -n "${M_WALL:-}" ] || M_WALL=0
	[ -n "${M_RSS:-}" ] || M_RSS=0
}

# best_of LABEL LOG CMD...: BENCH_REPEAT runs, keeps the fastest; sets B_WALL B_RSS B_RC
best_of() {
	local label=$1 errlog=$2 i
	shift 2
	B_WALL= B_RSS=0 B_RC=0
	for ((i = 1; i <= BENCH_REPEAT; i++)); do
		measure "$errlog" "$@"
		log "  $label run $i: ${M_WALL} s, $((M_RSS / 1024)) MB, exit $M_RC"
		if [ "$M_RC" -ne 0 ]; then
			B_WALL=$M_WALL B_RSS=$M_RSS B_RC=$M_RC
			return
		fi
		if [ -z "$B_WALL" ] || awk -v a="$M_WALL" -v b="$B_WALL" 'BEGIN { exit !(a < b) }'; then
			B_WALL=$M_WALL
		fi
		[ "$M_RSS" -gt "$B_RSS" ] && B_RSS=$M_RSS
	done
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'
}

# report_row TOOL WALL RSS_KB RC ERRLOG: one line of a result table
report_row() {
	local tool=$1 wall=$2 rss=$3 rc=$4 errlog=$5
	if [ "$rc" -eq 0 ]; then
		printf '  %-22s %10.3f %14.1f\n' "$tool" "$wall" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
	else
		printf '  %-22s %10s %14s   exit %s: %s\n' "$tool" "-" "-" "$rc" \
			"$(grep -v '^\s*$' "$errlog" | tail -1 | cut -c1-100)"
	fi
}

# warm_cache FILE: read it once so the first timed tool does not pay for the disk alone
warm_cache() {
	cat "$1" >/dev/null
}

# ---- recordings ----------------------------------------------------------------------------

# The workload runs from a copy of our perf kept next to the recordings: the samples name
# that binary, and a rebuilt tools/perf/perf (another build id) would no longer resolve them.
WORKLOAD_PERF=$BENCH_CACHE/workload-perf

# workload_cmd SECONDS: the shell command run under perf record: our `perf test -w calls`
# in one process per CPU, half of them with 12 extra recursive frames (chains of 13 and 25
# frames). Stopping the shell (perf record sends it SIGTERM when it stops) stops them too.
workload_cmd() {
	local secs=$1 i cmd='p=""; '
	for ((i = 0; i < $(nproc); i++)); do
		cmd+="'$WORKLOAD_PERF' test -w calls $secs $(((i % 2) * 12)) & p=\"\$p \$!\"; "
	done
	echo "$cmd"'trap "kill $p" INT TERM; wait'
}

# samples_in LOG: the sample count perf record reports on its last line
samples_in() {
	sed -nE 's/.*\(([0-9]+) samples\).*/\1/p' "$1" | tail -1
}

# record_until FILE BYTES LOG CMD ARGS...: `$SYSTEM_PERF record ARGS -o FILE.tmp -- sh -c CMD`
# (output to LOG), stopped with SIGINT once FILE.tmp holds BYTES; dies unless it ended well
record_until() {
	local file=$1 target=$2 logf=$3 cmd=$4 pid rc
	shift 4
	"$SYSTEM_PERF" record "$@" -o "$file.tmp" -- sh -c "$cmd" >"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$(stat -c %s "$file.tmp" 2>/dev/null || echo 0)" -ge "$target" ]; then
			kill -INT "$pid"
			break
		fi
		sleep 0.2
	done
	wait "$pid"
	rc=$?
	# 130: perf record stopped by our SIGINT, which is how it is meant to end
	[ "$rc" -eq 0 ] || [ "$rc" -eq 130 ] || die "$SYSTEM_PERF record failed (exit $rc), see $logf"
}

# fp_data: prints the path of the cached BENCH_SAMPLES-sample -g recording, recording it
# first when missing. How many samples a second of recording yields depends on the rate
# the kernel allows and on what else the machine runs, so a 1 s calibration measures the
# bytes per sample, and the real recording is stopped once the file holds that many bytes
# for BENCH_SAMPLES samples.
fp_data() {
	local file=$BENCH_CACHE/fp-$BENCH_SAMPLES.data meta cal n per_s bps target secs got
	meta=$file.meta
	if [ -s "$file" ] && [ -s "$meta" ]; then
		echo "$file"
		return 0
	fi
	[ -x "$SYSTEM_PERF" ] || die "no system perf at $SYSTEM_PERF"
	[ -x "$OURS" ] || die "$OURS is missing: run make first"
	"$OURS" test -w calls 0 >/dev/null 2>&1 || die "$OURS test -w calls does not run"
	mkdir -p "$BENCH_CACHE" || die "cannot create $BENCH_CACHE"
	cp "$OURS" "$WORKLOAD_PERF.tmp" && mv "$WORKLOAD_PERF.tmp" "$WORKLOAD_PERF" ||
		die "cannot copy $OURS to $WORKLOAD_PERF"

	cal=$BENCH_CACHE/calibrate.data
	"$SYSTEM_PERF" record -e cpu-clock -F max -g -o "$cal" -- sh -c "$(workload_cmd 1)" \
		>"$cal.log" 2>&1 || die "$SYSTEM_PERF record failed, see $cal.log"
	n=$(samples_in "$cal.log")
	[ -n "$n" ] && [ "$n" -gt 0 ] || die "no samples in the calibration recording, see $cal.log"
	per_s=$n
	bps=$(($(stat -c %s "$cal") / n))
	rm -f "$cal" "$cal.log"
	target=$((BENCH_SAMPLES * bps))
	# three times the estimate: the stop comes from the file size, this only bounds it
	secs=$((BENCH_SAMPLES * 3 / per_s + 10))
	[ "$secs" -le "$MAX_RECORD_SECONDS" ] || secs=$MAX_RECORD_SECONDS
	log "recording $BENCH_SAMPLES samples (~$((target / 1048576)) MB at $bps bytes/sample," \
		"~$per_s samples/s here) into $file"

	record_until "$file" "$target" "$BENCH_CACHE/record.log" "$(workload_cmd "$secs")" \
		-e cpu-clock -F max -g
	got=$(samples_in "$BENCH_CACHE/record.log")
	[ -n "$got" ] || die "cannot find the sample count in $BENCH_CACHE/record.log"
	[ "$got" -ge $((BENCH_SAMPLES * 9 / 10)) ] ||
		log "got only $got samples in ${secs} s (a busy machine?); keeping the file anyway"
	mv "$file.tmp" "$file" || die "cannot move $file.tmp to $file"
	printf 'samples=%s\nrecorded_with=%s\nworkload=%s\n' "$got" \
		"$("$SYSTEM_PERF" --version)" "$(workload_cmd "$secs")" >"$meta"
	echo "$file"
}

fp_samples() {
	sed -n 's/^samples=//p' "$1.meta"
}

# ---- benchmarks ------------------------------------------------------------------------------

bench_script_fp() {
	local data errs errt
	data=$(fp_data) || return 1
	errs=$BENCH_CACHE/script_fp.system.err
	errt=$BENCH_CACHE/script_fp.ours.err
	echo "script_fp: perf script -i $data ($(fp_samples "$data") samples, $(($(stat -c %s "$data") / 1048576)) MB)"
	warm_cache "$data"
	best_of "system perf" "$errs" "$SYSTEM_PERF" script -i "$data"
	local s_wall=$B_WALL s_rss=$B_RSS s_rc=$B_RC
	best_of "ours" "$errt" "$OURS" script -i "$data"
	local o_wall=$B_WALL o_rss=$B_RSS o_rc=$B_RC
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	report_row "system perf ($("$SYSTEM_PERF" --version | awk '{ print $3 }'))" "$s_wall" "$s_rss" "$s_rc" "$errs"
	report_row "ours" "$o_wall" "$o_rss" "$o_rc" "$errt"
	if [ "$s_rc" -eq 0 ] && [ "$o_rc" -eq 0 ]; then
		echo "  ours/system: wall $(ratio "$o_wall" "$s_wall"), peak RSS $(ratio "$o_rss" "$s_rss")"
	else
		echo "  ours/system: n/a (a run failed)"
		return 1
	fi
}

# The target (issue 22): the export at least as fast as our perf script of the same file, the
# page under a few MB and drawn in under 2 s (flamegraph-browser.js --time, when chromium and
# puppeteer-core are here: make test-deps).
bench_flamegraph() {
	local data errs errf out=$BENCH_CACHE/flamegraph.out fmt node_dir=${PERF_TEST_NODE:-/var/cache/perf-test-node}
	data=$(fp_data) || return 1
	errs=$BENCH_CACHE/flamegraph.script.err
	errf=$BENCH_CACHE/flamegraph.export.err
	echo "flamegraph: perf script report flamegraph -i $data ($(fp_samples "$data") samples, $(($(stat -c %s "$data") / 1048576)) MB)"
	warm_cache "$data"
	best_of "ours, perf script" "$errs" "$OURS" script -i "$data"
	local s_wall=$B_WALL s_rss=$B_RSS s_rc=$B_RC
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	report_row "ours, perf script" "$s_wall" "$s_rss" "$s_rc" "$errs"
	for fmt in html json svg; do
		best_of "flamegraph -f $fmt" "$errf" "$OURS" script report flamegraph -i "$data" -f "$fmt" -o "$out.$fmt"
		report_row "flamegraph -f $fmt" "$B_WALL" "$B_RSS" "$B_RC" "$errf"
		[ "$B_RC" -eq 0 ] || return 1
		echo "    $fmt: $(stat -c %s "$out.$fmt") bytes, export/script wall $(ratio "$B_WALL" "$s_wall") (target: at most 1x)"
	done
	if command -v chromium >/dev/null && [ -d "$node_dir/node_modules/puppeteer-core" ]; then
		echo "  render: $(NODE_PATH=$node_dir/node_modules timeout 120 node \
			"$(dirname "$0")/../tools/perf/tests/shell/lib/flamegraph-browser.js" \
			"$(command -v chromium)" "$out.html" --time 2>&1 | tail -1) (target: under 2 s)"
	else
		echo "  render: not timed (no chromium or puppeteer-core in $node_dir: make test-deps)"
	fi
	rm -f "$out".*
}

# issue 22's target: the pprof export of the ~2.4M-sample file at least as fast as our perf
# script of it
bench_pprof() {
	local data errs errp out=$BENCH_CACHE/pprof.pb.gz s_wall s_rss s_rc
	data=$(fp_data) || return 1
	errs=$BENCH_CACHE/pprof.script.err
	errp=$BENCH_CACHE/pprof.export.err
	echo "pprof: perf data convert --to-pprof -i $data ($(fp_samples "$data") samples, $(($(stat -c %s "$data") / 1048576)) MB)"
	warm_cache "$data"
	best_of "ours, perf script" "$errs" "$OURS" script -i "$data"
	s_wall=$B_WALL s_rss=$B_RSS s_rc=$B_RC
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	report_row "ours, perf script" "$s_wall" "$s_rss" "$s_rc" "$errs"
	best_of "data convert" "$errp" "$OURS" data convert -i "$data" --to-pprof "$out"
	report_row "data convert --to-pprof" "$B_WALL" "$B_RSS" "$B_RC" "$errp"
	[ "$B_RC" -eq 0 ] || return 1
	echo "    $(stat -c %s "$out") bytes, export/script wall $(ratio "$B_WALL" "$s_wall") (target: at most 1x)"
	rm -f "$out"
}

# upstream_available: true when upstream perf 7.2's tree is set up (the wrapper would
# otherwise build it, minutes of downloads, in the middle of a benchmark)
upstream_available() {
	[ -x "$UPSTREAM_PERF" ] && [ -x "$UPSTREAM_PERF_DIR/sid/usr/bin/perf" ] &&
		"$UPSTREAM_PERF" --version >/dev/null 2>&1
}

# The target: perf report must be at least 5x as fast as the fastest of its peers, the system
# perf and upstream 7.2, in both modes, with no more peak RSS than before. Each mode times
# the three in turn; the ratio line compares ours with whichever peer was faster.
bench_report_fp() {
	local data mode errs erru erro peers=() failed=0 s_wall s_rss s_rc u_wall u_rss u_rc
	local o_wall o_rss o_rc best best_name
	data=$(fp_data) || return 1
	echo "report_fp: perf report --stdio -i $data ($(fp_samples "$data") samples," \
	     "$(($(stat -c %s "$data") / 1048576)) MB), $BENCH_REPEAT run(s) each, fastest kept"
	if upstream_available; then
		peers=(upstream)
	else
		echo "  upstream perf 7.2: skipped (no $UPSTREAM_PERF or no tree in $UPSTREAM_PERF_DIR)"
	fi
	warm_cache "$data"
	for mode in --no-children --children; do
		errs=$BENCH_CACHE/report_fp$mode.system.err
		erru=$BENCH_CACHE/report_fp$mode.upstream.err
		erro=$BENCH_CACHE/report_fp$mode.ours.err
		echo "  perf report --stdio $mode"
		best_of "system perf $mode" "$errs" "$SYSTEM_PERF" report --stdio "$mode" -i "$data"
		s_wall=$B_WALL s_rss=$B_RSS s_rc=$B_RC
		u_wall= u_rss=0 u_rc=0
		if [ ${#peers[@]} -gt 0 ]; then
			best_of "upstream $mode" "$erru" "$UPSTREAM_PERF" report --stdio "$mode" -i "$data"
			u_wall=$B_WALL u_rss=$B_RSS u_rc=$B_RC
		fi
		best_of "ours $mode" "$erro" "$OURS" report --stdio "$mode" -i "$data"
		o_wall=$B_WALL o_rss=$B_RSS o_rc=$B_RC
		printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
		report_row "system perf ($("$SYSTEM_PERF" --version | awk '{ print $3 }'))" \
			"$s_wall" "$s_rss" "$s_rc" "$errs"
		[ -z "$u_wall" ] || report_row "upstream 7.2" "$u_wall" "$u_rss" "$u_rc" "$erru"
		report_row "ours" "$o_wall" "$o_rss" "$o_rc" "$erro"
		if [ "$s_rc" -ne 0 ] || [ "$u_rc" -ne 0 ] || [ "$o_rc" -ne 0 ]; then
			echo "  ratios: n/a (a run failed)"
			failed=1
			continue
		fi
		best=$s_wall best_name="system perf"
		if [ -n "$u_wall" ] && awk -v a="$u_wall" -v b="$s_wall" 'BEGIN { exit !(a < b) }'; then
			best=$u_wall best_name="upstream 7.2"
		fi
		echo "  ours/system: wall $(ratio "$o_wall" "$s_wall"), peak RSS $(ratio "$o_rss" "$s_rss")"
		[ -z "$u_wall" ] ||
			echo "  ours/upstream: wall $(ratio "$o_wall" "$u_wall"), peak RSS $(ratio "$o_rss" "$u_rss")"
		echo "  fastest peer ($best_name) / ours: $(ratio "$best" "$o_wall") faster"
	done
	return $failed
}

# The target: with inline frames on (both tools' default), ours at least 10x as fast as
# upstream 7.2, and at most 1.5x our own --no-inline time. The file's workload is our perf
# built with -g (bench/.cache/workload-perf), and the libraries it maps have DWARF when
# their debug files are installed: inline frames come from both.
bench_inline() {	# NAME CMD ARGS...
	local name=$1 data erru erro ern u_wall= u_rss=0 u_rc=0 o_wall o_rss=0 o_rc=0 n_wall n_rss=0 n_rc=0 i
	shift
	data=$(fp_data) || return 1
	erru=$BENCH_CACHE/$name.upstream.err
	erro=$BENCH_CACHE/$name.ours.err
	ern=$BENCH_CACHE/$name.ours-noinline.err
	echo "$name: perf $* -i $data ($(fp_samples "$data") samples," \
	     "$(($(stat -c %s "$data") / 1048576)) MB), upstream once, ours $BENCH_INLINE_REPEAT rounds, fastest kept"
	warm_cache "$data"
	# upstream once: a run takes 20-40 s and is over 10x ours, far beyond the noise
	if upstream_available; then
		BENCH_REPEAT=1 best_of "upstream $name" "$erru" "$UPSTREAM_PERF" "$@" -i "$data"
		u_wall=$B_WALL u_rss=$B_RSS u_rc=$B_RC
	else
		echo "  upstream perf 7.2: skipped (no $UPSTREAM_PERF or no tree in $UPSTREAM_PERF_DIR)"
	fi
	# ours alternately with and without inline frames, the fastest of each kept: on a
	# shared machine a single pair can differ by more than the 1.5x measured
	o_wall= n_wall=
	for ((i = 1; i <= BENCH_INLINE_REPEAT; i++)); do
		BENCH_REPEAT=1 best_of "ours $name" "$erro" "$OURS" "$@" -i "$data"
		[ "$B_RC" -eq 0 ] || { o_wall=$B_WALL o_rss=$B_RSS o_rc=$B_RC; break; }
		if [ -z "$o_wall" ] || awk -v a="$B_WALL" -v b="$o_wall" 'BEGIN { exit !(a < b) }'; then
			o_wall=$B_WALL o_rss=$B_RSS o_rc=$B_RC
		fi
		BENCH_REPEAT=1 best_of "ours --no-inline $name" "$ern" "$OURS" "$@" --no-inline -i "$data"
		[ "$B_RC" -eq 0 ] || { n_wall=$B_WALL n_rss=$B_RSS n_rc=$B_RC; break; }
		if [ -z "$n_wall" ] || awk -v a="$B_WALL" -v b="$n_wall" 'BEGIN { exit !(a < b) }'; then
			n_wall=$B_WALL n_rss=$B_RSS n_rc=$B_RC
		fi
	done
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	[ -z "$u_wall" ] || report_row "upstream 7.2" "$u_wall" "$u_rss" "$u_rc" "$erru"
	report_row "ours" "$o_wall" "$o_rss" "$o_rc" "$erro"
	report_row "ours --no-inline" "$n_wall" "$n_rss" "$n_rc" "$ern"
	if [ "$u_rc" -ne 0 ] || [ "$o_rc" -ne 0 ] || [ "$n_rc" -ne 0 ]; then
		echo "  ratios: n/a (a run failed)"
		return 1
	fi
	[ -z "$u_wall" ] || echo "  upstream / ours: $(ratio "$u_wall" "$o_wall") faster (target >= 10x)"
	echo "  ours / ours --no-inline: $(ratio "$o_wall" "$n_wall") (target <= 1.5x)"
}

bench_script_inline() {
	bench_inline script_inline script
}

bench_report_inline() {
	bench_inline report_inline report --stdio --no-children
}

# deferred_twin DATA NAME [ARG]: prints the path of DATA's deferred twin NAME, converting it
# first when missing or older than DATA ("$BENCH_DEFER_CONVERT DATA OUT [ARG]")
deferred_twin() {
	local data=$1 name=$2 arg=${3:-} twin
	twin=$BENCH_CACHE/$name-$BENCH_SAMPLES.data
	if [ ! -s "$twin" ] || [ "$twin" -ot "$data" ]; then
		log "converting $data to $twin with $BENCH_DEFER_CONVERT $arg"
		# shellcheck disable=SC2086 # the converter command and its word are meant to split
		$BENCH_DEFER_CONVERT "$data" "$twin.tmp" $arg >"$BENCH_CACHE/convert.log" 2>&1 ||
			die "$BENCH_DEFER_CONVERT failed, see $BENCH_CACHE/convert.log"
		mv "$twin.tmp" "$twin" || die "cannot move $twin.tmp to $twin"
	fi
	echo "$twin"
}

# The target: stitching deferred callchains must not cost much over reading inline ones. Two
# deferred twins of the fp recording, read by our perf only (the system perf cannot read
# deferred callchains), with perf script (script_deferred) and perf report (report_deferred):
#   deferred  as the kernel writes it: kernel-mode samples of one kernel entry share a
#             cookie and a record, a user-mode sample has its own;
#   each      every sample has its own record: the most records a deferred file can hold,
#             the worst case for stitching.
# The three files are timed in turns, BENCH_DEFER_REPEAT rounds, the fastest of each kept:
# the ratios are a few percent, less than one run's noise on a shared machine.
# deferred_vs_inline NAME SUBCOMMAND...: our perf SUBCOMMAND -i FILE of the three files
deferred_vs_inline() {
	local name=$1 data twin each erri errd erre r
	local i_wall= d_wall= e_wall= i_rss=0 d_rss=0 e_rss=0 i_rc=0 d_rc=0 e_rc=0
	shift
	if [ -z "$BENCH_DEFER_CONVERT" ]; then
		echo "$name: skipped: set BENCH_DEFER_CONVERT to the inline->deferred converter"
		return 2
	fi
	data=$(fp_data) || return 1
	twin=$(deferred_twin "$data" deferred) || return 1
	each=$(deferred_twin "$data" each each) || return 1
	erri=$BENCH_CACHE/$name.inline.err
	errd=$BENCH_CACHE/$name.deferred.err
	erre=$BENCH_CACHE/$name.each.err
	echo "$name: ours perf $* of inline $(file_desc "$data"), deferred $(file_desc "$twin")," \
	     "each $(file_desc "$each"); $BENCH_DEFER_REPEAT rounds, fastest kept"
	warm_cache "$data"
	warm_cache "$twin"
	warm_cache "$each"
	for ((r = 1; r <= BENCH_DEFER_REPEAT; r++)); do
		measure "$erri" "$OURS" "$@" -i "$data"
		log "  round $r: inline ${M_WALL} s, exit $M_RC"
		[ "$M_RC" -eq 0 ] || i_rc=$M_RC
		keep_best i "$M_WALL" "$M_RSS"
		measure "$errd" "$OURS" "$@" -i "$twin"
		log "  round $r: deferred ${M_WALL} s, exit $M_RC"
		[ "$M_RC" -eq 0 ] || d_rc=$M_RC
		keep_best d "$M_WALL" "$M_RSS"
		measure "$erre" "$OURS" "$@" -i "$each"
		log "  round $r: each ${M_WALL} s, exit $M_RC"
		[ "$M_RC" -eq 0 ] || e_rc=$M_RC
		keep_best e "$M_WALL" "$M_RSS"
	done
	printf '  %-22s %10s %14s\n' "file" "wall (s)" "peak RSS (MB)"
	report_row "inline" "$i_wall" "$i_rss" "$i_rc" "$erri"
	report_row "deferred" "$d_wall" "$d_rss" "$d_rc" "$errd"
	report_row "each (worst case)" "$e_wall" "$e_rss" "$e_rc" "$erre"
	if [ "$i_rc" -eq 0 ] && [ "$d_rc" -eq 0 ] && [ "$e_rc" -eq 0 ]; then
		echo "  deferred/inline: wall $(ratio "$d_wall" "$i_wall"), peak RSS $(ratio "$d_rss" "$i_rss")"
		echo "  each/inline:     wall $(ratio "$e_wall" "$i_wall"), peak RSS $(ratio "$e_rss" "$i_rss")"
	else
		echo "  ratios: n/a (a run failed)"
		return 1
	fi
}

bench_script_deferred() {
	deferred_vs_inline script_deferred script
}

bench_report_deferred() {
	deferred_vs_inline report_deferred report --stdio --no-children
}

# ---- DWARF unwinding ---------------------------------------------------------------------

# The dwarf recording's workload is its own copy of our perf (dwarf-workload-perf): fp_data
# refreshes workload-perf whenever it records, which would change the build id under this file.
DWARF_WORKLOAD_PERF=$BENCH_CACHE/dwarf-workload-perf

# dwarf_data: prints the path of the cached ~BENCH_DWARF_MB MB `--call-graph dwarf` recording
# (8 KiB stack dumps) of the same workload as fp_data, recording it first when missing; the
# recording is stopped once the file has that size.
dwarf_data() {
	local file=$BENCH_CACHE/dwarf-${BENCH_DWARF_MB}M.data target=$((BENCH_DWARF_MB * 1048576))
	local secs=$MAX_RECORD_SECONDS
	if [ -s "$file" ] && [ -s "$file.meta" ]; then
		echo "$file"
		return 0
	fi
	[ -x "$SYSTEM_PERF" ] || die "no system perf at $SYSTEM_PERF"
	[ -x "$OURS" ] || die "$OURS is missing: run make first"
	mkdir -p "$BENCH_CACHE" || die "cannot create $BENCH_CACHE"
	cp "$OURS" "$DWARF_WORKLOAD_PERF.tmp" && mv "$DWARF_WORKLOAD_PERF.tmp" "$DWARF_WORKLOAD_PERF" ||
		die "cannot copy $OURS to $DWARF_WORKLOAD_PERF"
	log "recording ~$BENCH_DWARF_MB MB of --call-graph dwarf samples into $file"
	record_until "$file" "$target" "$BENCH_CACHE/dwarf-record.log" \
		"$(WORKLOAD_PERF=$DWARF_WORKLOAD_PERF workload_cmd "$secs")" \
		-e cpu-clock -F 1000 --call-graph dwarf,8192
	mv "$file.tmp" "$file" || die "cannot move $file.tmp to $file"
	printf 'samples=%s\nrecorded_with=%s\nworkload=%s\n' \
		"$(samples_in "$BENCH_CACHE/dwarf-record.log")" "$("$SYSTEM_PERF" --version)" \
		"$(WORKLOAD_PERF=$DWARF_WORKLOAD_PERF workload_cmd "$secs")" >"$file.meta"
	echo "$file"
}

# The target: on a --call-graph dwarf file, our --unwind=dwarf at least 2x as fast as both the
# system perf 6.1 and upstream 7.2 (which unwind it with libdw / libunwind) with less peak
# RSS, and --unwind=fp at least 10x as fast as the system perf.
bench_report_dwarf() {
	local data errs erru errd errf s_wall s_rss s_rc u_wall= u_rss=0 u_rc=0
	local d_wall d_rss d_rc f_wall f_rss f_rc n_wall n_rss n_rc errn failed=0
	data=$(dwarf_data) || return 1
	errs=$BENCH_CACHE/report_dwarf.system.err
	erru=$BENCH_CACHE/report_dwarf.upstream.err
	errd=$BENCH_CACHE/report_dwarf.ours-dwarf.err
	errf=$BENCH_CACHE/report_dwarf.ours-fp.err
	errn=$BENCH_CACHE/report_dwarf.ours-fp-noinline.err
	echo "report_dwarf: perf report --stdio --no-children -i $(file_desc "$data")," \
	     "$(sed -n 's/^samples=//p' "$data.meta") samples, $BENCH_REPEAT run(s) each, fastest kept"
	warm_cache "$data"
	best_of "system perf" "$errs" "$SYSTEM_PERF" report --stdio --no-children -i "$data"
	s_wall=$B_WALL s_rss=$B_RSS s_rc=$B_RC
	if upstream_available; then
		best_of "upstream" "$erru" "$UPSTREAM_PERF" report --stdio --no-children -i "$data"
		u_wall=$B_WALL u_rss=$B_RSS u_rc=$B_RC
	else
		echo "  upstream perf 7.2: skipped (no $UPSTREAM_PERF or no tree in $UPSTREAM_PERF_DIR)"
	fi
	best_of "ours --unwind=dwarf" "$errd" "$OURS" report --stdio --no-children --unwind=dwarf -i "$data"
	d_wall=$B_WALL d_rss=$B_RSS d_rc=$B_RC
	best_of "ours --unwind=fp" "$errf" "$OURS" report --stdio --no-children --unwind=fp -i "$data"
	f_wall=$B_WALL f_rss=$B_RSS f_rc=$B_RC
	# without inline frames: no DWARF of the DSOs to open, the time is reading and unwinding
	best_of "ours --unwind=fp --no-inline" "$errn" "$OURS" report --stdio --no-children --unwind=fp \
		--no-inline -i "$data"
	n_wall=$B_WALL n_rss=$B_RSS n_rc=$B_RC
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	report_row "system perf ($("$SYSTEM_PERF" --version | awk '{ print $3 }'))" "$s_wall" "$s_rss" "$s_rc" "$errs"
	[ -z "$u_wall" ] || report_row "upstream 7.2" "$u_wall" "$u_rss" "$u_rc" "$erru"
	report_row "ours --unwind=dwarf" "$d_wall" "$d_rss" "$d_rc" "$errd"
	report_row "ours --unwind=fp" "$f_wall" "$f_rss" "$f_rc" "$errf"
	report_row "ours fp --no-inline" "$n_wall" "$n_rss" "$n_rc" "$errn"
	if [ "$s_rc" -ne 0 ] || [ "$u_rc" -ne 0 ] || [ "$d_rc" -ne 0 ] || [ "$f_rc" -ne 0 ] ||
	   [ "$n_rc" -ne 0 ]; then
		echo "  ratios: n/a (a run failed)"
		return 1
	fi
	echo "  system/ours --unwind=dwarf: $(ratio "$s_wall" "$d_wall") faster, peak RSS $(ratio "$d_rss" "$s_rss") of it"
	[ -z "$u_wall" ] ||
		echo "  upstream/ours --unwind=dwarf: $(ratio "$u_wall" "$d_wall") faster, peak RSS $(ratio "$d_rss" "$u_rss") of it"
	echo "  system/ours --unwind=fp: $(ratio "$s_wall" "$f_wall") faster, peak RSS $(ratio "$f_rss" "$s_rss") of it"
	echo "  system/ours --unwind=fp --no-inline: $(ratio "$s_wall" "$n_wall") faster"
	return $failed
}

# ---- perf inject ----------------------------------------------------------------------------

# inject_vs NAME OUT PEER_LABEL PEER_CMD... -- INJECT_ARGS...: BENCH_REPEAT rounds of the peer
# and of our perf inject INJECT_ARGS -o OUT, alternating, the fastest of each kept; prints
# both rows and peer/ours. OUT is removed after each run (the next would overwrite it).
inject_vs() {
	local name=$1 out=$2 label=$3 errp errj r p_wall= p_rss=0 p_rc=0 j_wall= j_rss=0 j_rc=0
	local peer=() ours=()
	shift 3
	while [ "$1" != -- ]; do peer+=("$1"); shift; done
	shift
	ours=("$OURS" inject "$@" -o "$out")
	errp=$BENCH_CACHE/$name.peer.err
	errj=$BENCH_CACHE/$name.ours.err
	for ((r = 1; r <= BENCH_REPEAT; r++)); do
		measure "$errp" "${peer[@]}"
		log "  round $r: $label ${M_WALL} s, exit $M_RC"
		[ "$M_RC" -eq 0 ] || p_rc=$M_RC
		keep_best p "$M_WALL" "$M_RSS"
		measure "$errj" "${ours[@]}"
		log "  round $r: perf inject ${M_WALL} s, exit $M_RC"
		[ "$M_RC" -eq 0 ] || j_rc=$M_RC
		keep_best j "$M_WALL" "$M_RSS"
		[ $r -lt "$BENCH_REPEAT" ] && rm -f "$out"
	done
	printf '  %-22s %10s %14s\n' "tool" "wall (s)" "peak RSS (MB)"
	report_row "$label" "$p_wall" "$p_rss" "$p_rc" "$errp"
	report_row "ours, perf inject" "$j_wall" "$j_rss" "$j_rc" "$errj"
	if [ "$p_rc" -ne 0 ] || [ "$j_rc" -ne 0 ]; then
		echo "  ratio: n/a (a run failed)"
		rm -f "$out"
		return 1
	fi
	echo "  output: $(file_desc "$out")"
	rm -f "$out"
	I_PEER=$p_wall I_OURS=$j_wall
}

# The target: writing the stitched file costs at most twice printing it (perf script is
# what a user of the deferred file runs instead; inject writes every record again).
bench_inject_deferred() {
	local data twin
	if [ -z "$BENCH_DEFER_CONVERT" ]; then
		echo "inject_deferred: skipped: set BENCH_DEFER_CONVERT to the inline->deferred converter"
		return 2
	fi
	data=$(fp_data) || return 1
	twin=$(deferred_twin "$data" deferred) || return 1
	echo "inject_deferred: the deferred twin $(file_desc "$twin"), $BENCH_REPEAT round(s), fastest kept"
	warm_cache "$twin"
	inject_vs inject_deferred "$BENCH_CACHE/inject-deferred.out.data" "ours, perf script" \
		"$OURS" script -i "$twin" -- -i "$twin" || return 1
	echo "  inject/script: $(ratio "$I_OURS" "$I_PEER") (target: at most 2x)"
}

# The target: unwinding a --call-graph dwarf file into a new one at least twice as fast as
# the system perf's perf script of it, which unwinds every sample with libdw.
bench_inject_dwarf() {
	local data
	data=$(dwarf_data) || return 1
	echo "inject_dwarf: $(file_desc "$data"), $(sed -n 's/^samples=//p' "$data.meta") samples," \
	     "$BENCH_REPEAT round(s), fastest kept"
	warm_cache "$data"
	inject_vs inject_dwarf "$BENCH_CACHE/inject-dwarf.out.data" \
		"system perf script ($("$SYSTEM_PERF" --version | awk '{ print $3 }'))" \
		"$SYSTEM_PERF" script -i "$data" -- --convert-callchain -i "$data" || return 1
	echo "  system perf script / perf inject --convert-callchain: $(ratio "$I_PEER" "$I_OURS") faster (target: at least 2x)"
}

# file_desc FILE: "NAME (N MB)"
file_desc() {
	echo "$(basename "$1") ($(($(stat -c %s "$1") / 1048576)) MB)"
}

# keep_best PREFIX WALL RSS: PREFIX_wall = the smallest wall so far, PREFIX_rss the largest RSS
keep_best() {
	local w=${1}_wall r=${1}_rss
	if [ -z "${!w}" ] || awk -v a="$2" -v b="${!w}" 'BEGIN { exit !(a < b) }'; then
		printf -v "$w" '%s' "$2"
	fi
	[ "$3" -gt "${!r}" ] && printf -v "$r" '%s' "$3"
	return 0
}

# ---- perf record ---------------------------------------------------------------------------

# the -F 20000 -g rate both record benchmarks use: about 5.7 MB/s of -g samples on 2 CPUs
RECORD_FREQ=20000
# seconds of workload for record_end: ~40 MB of -g samples at RECORD_FREQ on 2 CPUs (here,
# busy with other work: 14 MB in 7 s)
RECORD_END_SECONDS=${RECORD_END_SECONDS:-20}
RECORD_OVERHEAD_SECONDS=${RECORD_OVERHEAD_SECONDS:-3}

# record_end_one TOOL LABEL: one recording; prints "SECONDS_AFTER_EXIT MB SAMPLES"
record_end_one() {
	local tool=$1 dir out end t
	dir=$(mktemp -d) || die "mktemp failed"
	out=$dir/rec.data
	# the workload notes when it ended, as its very last act
	"$tool" record -q -F $RECORD_FREQ -g -o "$out" -- sh -c \
		"$(workload_cmd "$RECORD_END_SECONDS"); date +%s.%N >'$dir/end'" >/dev/null 2>"$dir/log"
	t=$EPOCHREALTIME
	end=$(cat "$dir/end" 2>/dev/null)
	[ -n "$end" ] || { log "  $tool: $(tail -1 "$dir/log")"; rm -rf "$dir"; echo "- - -"; return; }
	awk -v a="$end" -v b="$t" -v s="$(stat -c %s "$out")" -v n="$("$OURS" script -i "$out" -F ip -G 2>/dev/null | wc -l)" \
		'BEGIN { printf "%.3f %.1f %d\n", b - a, s / 1048576, n }'
	rm -rf "$dir"
}

bench_record_end() {
	local sys ours
	mkdir -p "$BENCH_CACHE" && cp "$OURS" "$WORKLOAD_PERF.tmp" && mv "$WORKLOAD_PERF.tmp" "$WORKLOAD_PERF" ||
		die "cannot copy $OURS into $BENCH_CACHE"
	read -r -a sys < <(record_end_one "$SYSTEM_PERF")
	read -r -a ours < <(record_end_one "$OURS")
	printf '  %-22s %22s %10s %10s\n' "tool" "exit to exit (s)" "MB" "samples"
	printf '  %-22s %22s %10s %10s\n' "system perf" "${sys[0]}" "${sys[1]}" "${sys[2]}"
	printf '  %-22s %22s %10s %10s\n' "ours" "${ours[0]}" "${ours[1]}" "${ours[2]}"
	echo "  target: ours < 0.05 s, whatever the file size"
}

# record_overhead_one TOOL: prints "CPU_SECONDS SAMPLES LOST_RECORDS LOST_SAMPLES"
record_overhead_one() {
	local tool=$1 dir pids=() i cpu n lost
	dir=$(mktemp -d) || die "mktemp failed"
	for ((i = 0; i < $(nproc); i++)); do
		"$WORKLOAD_PERF" test -w calls $((RECORD_OVERHEAD_SECONDS + 2)) $(((i % 2) * 12)) &
		pids+=($!)
	done
	sleep 0.5
	# -p with a command: the command (sleep) only says how long; time's CPU is record's own
	/usr/bin/time -f '%U %S' -o "$dir/time" "$tool" record -q -F $RECORD_FREQ -g \
		-p "$(IFS=,; echo "${pids[*]}")" -o "$dir/rec.data" -- sleep "$RECORD_OVERHEAD_SECONDS" \
		>/dev/null 2>"$dir/log"
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$dir/time")
	n=$("$OURS" script -i "$dir/rec.data" -F ip -G 2>/dev/null | wc -l)
	lost=$("$OURS" script -D -i "$dir/rec.data" 2>/dev/null | awk '
		/PERF_RECORD_LOST_SAMPLES/ { s += $NF; next } / PERF_RECORD_LOST / { r++ }
		END { printf "%d %d", r, s }')
	echo "$cpu $n $lost"
	rm -rf "$dir"
}

bench_record_overhead() {
	local sys ours
	[ -x /usr/bin/time ] || { log "no /usr/bin/time: skipped"; return 2; }
	mkdir -p "$BENCH_CACHE" && cp "$OURS" "$WORKLOAD_PERF.tmp" && mv "$WORKLOAD_PERF.tmp" "$WORKLOAD_PERF" ||
		die "cannot copy $OURS into $BENCH_CACHE"
	read -r -a sys < <(record_overhead_one "$SYSTEM_PERF")
	read -r -a ours < <(record_overhead_one "$OURS")
	printf '  %-22s %14s %10s %14s %14s\n' "tool" "record CPU (s)" "samples" "LOST records" "lost samples"
	printf '  %-22s %14s %10s %14s %14s\n' "system perf" "${sys[@]}"
	printf '  %-22s %14s %10s %14s %14s\n' "ours" "${ours[@]}"
	echo "  ours/system CPU: $(ratio "${ours[0]}" "${sys[0]}") (target: at most 1.00x, no lost samples)"
}

# record_size_one TOOL ARGS...: prints "SAMPLES BYTES" of the PERF_RECORD_SAMPLEs of a 1 s
# recording of perf test -w calls (the sizes as -D prints them, read with our perf)
record_size_one() {
	local tool=$1 dir
	shift
	dir=$(mktemp -d) || die "mktemp failed"
	"$tool" record -q -F 2000 -e cpu-clock "$@" -o "$dir/rec.data" -- \
		"$WORKLOAD_PERF" test -w calls 1 >/dev/null 2>"$dir/log" ||
		{ log "$tool record $* failed: $(tail -1 "$dir/log")"; rm -rf "$dir"; return 1; }
	"$OURS" script -D -i "$dir/rec.data" 2>/dev/null | awk '
		/ PERF_RECORD_SAMPLE\(/ {
			s = $0
			sub(/^[^[]*\[0x/, "", s)
			sub(/\].*/, "", s)
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			n++
			b += v
		}
		END { printf "%d %d\n", n, b }'
	rm -rf "$dir"
}

# the issue's bound: the fallback's bytes per sample at most 6x plain -g's
bench_record_size() {
	local plain per variants name args n b ours_defer
	mkdir -p "$BENCH_CACHE" && cp "$OURS" "$WORKLOAD_PERF.tmp" && mv "$WORKLOAD_PERF.tmp" "$WORKLOAD_PERF" ||
		die "cannot copy $OURS into $BENCH_CACHE"
	variants=("ours -g|$OURS|-g"
		  "ours -g --defer (default)|$OURS|-g --defer"
		  "ours --defer-stack-size 64|$OURS|-g --defer --defer-stack-size 64"
		  "ours --defer-stack-size 128|$OURS|-g --defer --defer-stack-size 128"
		  "ours --defer-stack-size 256|$OURS|-g --defer --defer-stack-size 256"
		  "ours --defer-stack-size 512|$OURS|-g --defer --defer-stack-size 512"
		  "ours --defer-stack-size 1024|$OURS|-g --defer --defer-stack-size 1024"
		  "system perf -g|$SYSTEM_PERF|-g"
		  "system --call-graph dwarf|$SYSTEM_PERF|--call-graph dwarf")
	printf '  %-32s %8s %12s %10s\n' "recording" "samples" "bytes/sample" "over -g"
	plain=
	for v in "${variants[@]}"; do
		IFS='|' read -r name tool args <<<"$v"
		[ -x "$tool" ] || { log "$name: no $tool"; continue; }
		# shellcheck disable=SC2086
		read -r n b < <(record_size_one "$tool" $args) || continue
		[ "${n:-0}" -gt 0 ] || { log "$name: no samples"; continue; }
		per=$(awk -v b="$b" -v n="$n" 'BEGIN { printf "%.1f", b / n }')
		[ -n "$plain" ] || plain=$per
		[ "$name" = "ours -g --defer (default)" ] && ours_defer=$per
		printf '  %-32s %8d %12s %9sx\n' "$name" "$n" "$per" \
			"$(awk -v a="$per" -v p="$plain" 'BEGIN { printf "%.2f", a / p }')"
	done
	echo "  target: -g --defer (default) at most 6x plain -g: $(awk -v a="${ours_defer:-0}" \
		-v p="${plain:-1}" 'BEGIN { printf "%.2fx", a / p }')"
}

# ---- main ------------------------------------------------------------------------------------

if [ "${1:-}" = "-l" ]; then
	for b in "${BENCHMARKS[@]}"; do
		printf '%-18s %s\n' "$b" "${BENCH_DESC[$b]}"
	done
	exit 0
fi
selected=("$@")
[ ${#selected[@]} -gt 0 ] || selected=("${BENCHMARKS[@]}")
for b in "${selected[@]}"; do
	[ -n "${BENCH_DESC[$b]+set}" ] || die "no benchmark '$b' (bench/run.sh -l lists them)"
done

cd "$top" || exit 1
failed=0
for b in "${selected[@]}"; do
	echo "==== $b: ${BENCH_DESC[$b]}"
	"bench_$b"
	rc=$?
	# 2 = skipped for a missing prerequisite, already explained
	[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || failed=1
done
exit $failed
