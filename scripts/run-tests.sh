#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-tests.sh - the test step of `make test`: `perf test` on the normal build
# (tools/perf/perf), then on the ASan+UBSan build (build-asan/perf) where any sanitizer
# finding aborts the test that hit it. Failed tests are re-run once with -v so the log
# shows why, after the failed run's own output (PERF_TEST_FAILED_DIR: a failure that does
# not happen again still says what it was). The last line is the combined "N passed, N failed, N skipped"; the exit
# status is non-zero when anything failed or a run did not finish. Partial passes (Ok for only
# some of their cases) are among the passed, listed with their reasons and counted on the
# line before it, "N partial: ...".
#
# Usage: scripts/run-tests.sh [perf test arguments, e.g. a test number or name fragment]
# NORMAL_PERF and ASAN_PERF override the two binaries (default tools/perf/perf and
# build-asan/perf).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# how many failed tests get a verbose re-run per build, and how much of each is shown:
# enough to diagnose, bounded time and log size
MAX_RERUNS=10
MAX_DETAIL_LINES=200
# how many of the slowest tests each build lists, with their time limits: a test that
# comes near its limit on a slow or loaded machine is the next flaky one
SLOWEST=5

# upstream's outputs on the tests' fixed inputs, for the second build's run: the same in both
# (lib.sh's oracle_cache), removed at the end
PERF_TEST_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/perf-run-tests-cache.XXXXXX") || exit 1
export PERF_TEST_CACHE
trap 'rm -rf "$PERF_TEST_CACHE"' EXIT

total_passed=0
total_failed=0
total_skipped=0
total_partial=0
# "build: NR: name" of each failed test, repeated after the summary: a CI log that keeps
# only its tail still says what failed
failed_names=()
# "build: NR: name : Ok (reason)" of each partial pass, listed the same way
partial_names=()

# show_bounded FILE: a long diff says what it has to in its first lines; the last line kept
show_bounded() {
	if [ "$(wc -l <"$1")" -gt $((MAX_DETAIL_LINES + 1)) ]; then
		head -n "$MAX_DETAIL_LINES" "$1"
		echo "[... $(($(wc -l <"$1") - MAX_DETAIL_LINES - 1)) more lines ...]"
		tail -n 1 "$1"
	else
		cat "$1"
	fi
}

# show_slowest NAME TIMES: the slowest tests of PERF_TEST_TIMES's file TIMES ("NR SECONDS
# LIMIT" lines), those past half their limit marked
show_slowest() {
	[ -s "$2" ] || return 0
	echo "==== $1 build: the $SLOWEST slowest tests ===="
	sort -k2,2 -rn "$2" | head -n "$SLOWEST" |
		awk '{ near = ($3 > 0 && $2 > $3 / 2) ? "  (past half its time limit)" : ""
		       printf "%4d: %6.1f s of %d s%s\n", $1, $2, $3, near }'
}

# run_suite NAME BINARY [ARGS...]: runs one binary's perf test and adds up its counts
run_suite() {
	local name=$1 bin=$2 log faildir times summary rc start p f s partial
	shift 2

	echo "==== perf test: $name build ($bin) ===="
	if [ ! -x "$bin" ]; then
		echo "$bin is missing: build it first (make all / make asan)"
		total_failed=$((total_failed + 1))
		return
	fi
	log=$(mktemp "${TMPDIR:-/tmp}/perf-run-tests.XXXXXX") || exit 1
	faildir=$(mktemp -d "${TMPDIR:-/tmp}/perf-run-tests-failed.XXXXXX") || exit 1
	times=$(mktemp "${TMPDIR:-/tmp}/perf-run-tests-times.XXXXXX") || exit 1
	start=$SECONDS
	PERF_TEST_FAILED_DIR=$faildir PERF_TEST_TIMES=$times "$bin" test "$@" </dev/null 2>&1 |
		tee "$log"
	rc=${PIPESTATUS[0]}
	show_slowest "$name" "$times"
	rm -f "$times"
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
	echo "==== $name build: exit status $rc, $((SECONDS - start)) s ===="
	if [ -z "$summary" ]; then
		echo "$bin test ended without its summary line (exit status $rc): counted as one failure"
		total_failed=$((total_failed + 1))
		rm -f "$log"
		rm -rf "$faildir"
		return
	fi
	read -r p _ f _ s _ <<<"$summary"
	partial=$(sed -nE 's/^([0-9]+) partial: .*/\1/p' "$log" | tail -1)
	total_partial=$((total_partial + ${partial:-0}))
	mapfile -t -O "${#partial_names[@]}" partial_names < <(sed -nE "s/^ *([0-9]+: .*: Ok \(.*\))$/$name build: \1/p" "$log")
	total_passed=$((total_passed + p))
	total_skipped=$((total_skipped + s))
	total_failed=$((total_failed + f))
	if [ "$f" -eq 0 ] && [ "$rc" -ne 0 ]; then
		echo "$bin test exited $rc with no failed test: counted as one failure"
		total_failed=$((total_failed + 1))
	fi
	local failed=() line nr n=0
	mapfile -t failed < <(sed -nE 's/^ *([0-9]+: .*[^ ]) *: FAILED!$/\1/p' "$log")
	failed_names+=("${failed[@]/#/$name build: }")
	for line in "${failed[@]}"; do
		nr=${line%%:*}
		n=$((n + 1))
		if [ "$n" -gt "$MAX_RERUNS" ]; then
			echo "---- (more failures: re-run them with '$bin test -v NUMBER') ----"
			break
		fi
		if [ -s "$faildir/$nr.log" ]; then
			echo "---- $name build: test $nr, the failed run's output ----"
			show_bounded "$faildir/$nr.log"
		fi
		echo "---- $name build: test $nr again, with -v ----"
		"$bin" test -v "$nr" </dev/null 2>&1 |
			grep -vE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' >"$log.v"
		show_bounded "$log.v"
		rm -f "$log.v"
	done
	rm -f "$log"
	rm -rf "$faildir"
}

run_suite normal "${NORMAL_PERF:-tools/perf/perf}" "$@"

# every finding fails the test: stop at the first error, abort (the harness reports the
# signal), check for leaks at exit; allocator_may_return_null keeps ASan from aborting on
# the huge allocations hostile input asks for, which the code must survive as ENOMEM
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:allocator_may_return_null=1:print_summary=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1
export LSAN_OPTIONS=report_objects=1
run_suite asan "${ASAN_PERF:-build-asan/perf}" "$@"

echo "==== both builds ===="
for line in "${partial_names[@]}"; do
	echo "PARTIAL: $(echo "$line" | tr -s ' ')"
done
for line in "${failed_names[@]}"; do
	echo "FAILED: $line"
done
[ "$total_partial" -eq 0 ] ||
	echo "$total_partial partial: passed, but not every case ran (counted in passed)"
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" -eq 0 ]
