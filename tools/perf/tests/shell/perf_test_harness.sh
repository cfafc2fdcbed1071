#!/bin/sh
# perf test: Ok, Ok in part, Skip with its reason, FAILED, timeout, isolation, parallel and exclusive runs, -r, and the summary line
# SPDX-License-Identifier: GPL-2.0
#
# Runs the binary under test's `perf test` on a directory of made-up shell tests whose
# outcome is known, and checks what it prints and returns.

. "$(dirname "$0")"/lib.sh

need_perf

probe=$TMPDIR/probe
mkdir "$probe" || fail "cannot create $probe"

# mk FILE DESCRIPTION BODY: a test script; the description line is what perf test shows
mk() {
	printf '#!/bin/sh\n# %s\n%s\n' "$2" "$3" >"$probe/$1"
	chmod +x "$probe/$1"
}
# it counts its runs, for -r
mk a_pass.sh "harness-probe pass" '[ -z "$OUTER" ] || echo run >>"$OUTER/pass.runs"; exit 0'
mk b_skip.sh "harness-probe skip" "exit 2"
# the real lib.sh: skip's reason and a partial pass reach the result line without -v
lib=$lib_dir/lib.sh
mk b_skip_why.sh "harness-probe skip why" ". '$lib'
echo 'skip: a command said this first'
skip 'no such thing: make test-deps'"
mk b_part.sh "harness-probe partial" ". '$lib'
cases 5
not_tested 'no hotspot'
not_tested 'no tracefs'
pass"
mk b_part_n.sh "harness-probe partial uncounted" ". '$lib'
not_tested 'no tmpfs'
pass"
# exit 3 alone is some command's failure, not a partial pass
mk c_three.sh "harness-probe exit 3" "exit 3"
mk c_fail.sh "harness-probe fail" "echo failing on purpose; echo recorded >left.txt; exit 1"
mk d_hang.sh "harness-probe hang" "sleep 60"
# a test that says it is long by nature gets its own limit over --timeout's
mk d_long.sh "harness-probe long" '# perf test timeout: 30
sleep 2; touch "$OUTER/long.done"'
# a test must get its own TMPDIR as working directory and its own HOME in it (tests that run
# at once share no build-id cache); it leaves its name behind for us
mk e_env.sh "harness-probe env" \
	'[ -x "$PERF" ] && [ -d "$TMPDIR" ] && [ "$(pwd -P)" = "$(cd "$TMPDIR" && pwd -P)" ] &&
	 [ "$TMPDIR" != "$OUTER" ] && [ "$HOME" = "$TMPDIR/home" ] && [ -d "$HOME" ] &&
	 echo "$TMPDIR" >"$OUTER/e_env.tmpdir"'
# not executable: still run, through its #! line
mk f_noexec.sh "harness-probe not executable" "exit 0"
chmod -x "$probe/f_noexec.sh"
# two tests that pass only when they run at the same time: each says it started and waits
# (at most 10 s) for the other
meet() {
	mk "g_meet_$1.sh" "harness-probe meet $1" "touch \"\$OUTER/meet_$1.started\"
i=0
while [ ! -e \"\$OUTER/meet_$2.started\" ]; do
	i=\$((i + 1)); [ \$i -le 100 ] || exit 1; sleep 0.1
done"
}
meet a b
meet b a
# upstream's tag: it runs after every other test, alone, and its result line comes last;
# the tag itself is not shown. The file name sorts first, the run order must not follow it.
mk a_alone.sh "harness-probe alone (exclusive)" '[ -e "$OUTER/long.done" ] && [ -e "$OUTER/meet_a.started" ]'
# helpers are not tests
mk lib_helper.sh "harness-probe helper" "exit 1"

# a timeout of 1 s: the hang test is the one that needs it; failed tests' output kept
mkdir failed || fail "cannot create $TMPDIR/failed"
mkdir kept || fail "cannot create $TMPDIR/kept"
OUTER=$TMPDIR PERF_TEST_SHELL_DIR=$probe PERF_TEST_FAILED_DIR=$TMPDIR/failed \
	PERF_TEST_KEEP_FAILED=$TMPDIR/kept PERF_TEST_TIMES=$TMPDIR/times \
	"$PERF" test -j 4 --timeout 1 harness-probe >out.txt 2>&1
rc=$?
verbose "$(cat out.txt)"

[ "$rc" -ne 0 ] || fail "perf test exited 0 although tests failed"
expect_grep '^ *[0-9]+: harness-probe pass +: Ok$' out.txt "exit 0 was not reported as Ok"
expect_grep '^ *[0-9]+: harness-probe skip +: Skip \(no reason given\)$' out.txt \
	"exit 2 without a reason was not reported as Skip (no reason given)"
expect_grep '^ *[0-9]+: harness-probe skip why +: Skip \(no such thing: make test-deps\)$' out.txt \
	"skip's reason is not on the result line"
expect_grep '^ *[0-9]+: harness-probe partial +: Ok \(3 of 5 cases: no hotspot; no tracefs\)$' \
	out.txt "a partial pass was not reported as Ok (3 of 5 cases: ...)"
expect_grep '^ *[0-9]+: harness-probe partial uncounted +: Ok \(not run: no tmpfs\)$' out.txt \
	"a partial pass without cases was not reported as Ok (not run: ...)"
expect_grep '^ *[0-9]+: harness-probe exit 3 +: FAILED!$' out.txt \
	"exit 3 without a reason was not reported as FAILED!"
expect_grep '^ *[0-9]+: harness-probe fail +: FAILED!$' out.txt "exit 1 was not reported as FAILED!"
expect_grep '^ *[0-9]+: harness-probe hang +: FAILED!$' out.txt "a hung test was not reported as FAILED!"
expect_grep '^ *[0-9]+: harness-probe long +: Ok$' out.txt "a test's own longer timeout was not kept"
expect_grep '^ *[0-9]+: harness-probe env +: Ok$' out.txt "a test did not get PERF and a private TMPDIR"
expect_grep '^ *[0-9]+: harness-probe not executable +: Ok$' out.txt \
	"a non-executable script was not run through its #! line"
expect_grep '^ *[0-9]+: harness-probe meet a +: Ok$' out.txt "-j 4 did not run two tests at once"
expect_grep '^ *[0-9]+: harness-probe meet b +: Ok$' out.txt "-j 4 did not run two tests at once"
grep -E '^ *[0-9]+: ' out.txt | tail -1 | grep -qE '^ *[0-9]+: harness-probe alone +: Ok$' ||
	fail "the exclusive test did not run last, after the others, or its tag was shown: $(grep -F alone out.txt)"
grep -q 'harness-probe helper' out.txt && fail "lib_helper.sh was run as a test"
# partial passes count as passed, and apart on the line before the summary
[ "$(tail -1 out.txt)" = "9 passed, 3 failed, 2 skipped" ] ||
	fail "wrong summary line: '$(tail -1 out.txt)'"
[ "$(tail -2 out.txt | head -1)" = "2 partial: passed, but not every case ran (reasons above)" ] ||
	fail "wrong partial line: '$(tail -2 out.txt | head -1)'"

# PERF_TEST_FAILED_DIR: NR.log of each failed test only, with its output or why it ended
nr_fail=$(awk -F: '/harness-probe fail/ { print $1 + 0 }' out.txt)
nr_hang=$(awk -F: '/harness-probe hang/ { print $1 + 0 }' out.txt)
nr_three=$(awk -F: '/harness-probe exit 3/ { print $1 + 0 }' out.txt)
grep -qx 'failing on purpose' "failed/$nr_fail.log" ||
	fail "the failed test's output was not kept: $(ls failed)"
grep -q 'timed out after 1 s' "failed/$nr_hang.log" || fail "the hung test's log says no timeout"
grep -q "exit 3 without a 'partial: ' line" "failed/$nr_three.log" ||
	fail "the exit 3 test's log does not say why it failed"
[ "$(ls failed | wc -l)" -eq 3 ] || fail "logs kept for tests that did not fail: $(ls failed)"
# PERF_TEST_KEEP_FAILED: the failed tests' directories, with what they wrote, and no other
grep -qx recorded "kept/$nr_fail/left.txt" ||
	fail "the failed test's directory was not kept: $(ls -R kept | head -5)"
[ "$(ls kept | sort -n | tr '\n' ' ')" = "$(ls failed | sed 's/\.log$//' | sort -n | tr '\n' ' ')" ] ||
	fail "directories kept: $(ls kept | tr '\n' ' '), failed: $(ls failed | tr '\n' ' ')"

# PERF_TEST_TIMES: "NR SECONDS LIMIT" for each test run; the long one slept 2 s under its own
# limit, the hung one was killed at --timeout's
[ "$(grep -c . times)" -eq 14 ] || fail "PERF_TEST_TIMES: not 14 lines: $(cat times)"
nr_long=$(awk -F: '/harness-probe long/ { print $1 + 0 }' out.txt)
awk -v l="$nr_long" -v h="$nr_hang" '$1 == l && $2 >= 2 && $3 == 30 { long++ }
	$1 == h && $2 >= 1 && $3 == 1 { hang++ } END { exit !(long == 1 && hang == 1) }' times ||
	fail "PERF_TEST_TIMES: the long and hung tests' lines are wrong: $(cat times)"

# the private directory is gone once the test ended
[ -s e_env.tmpdir ] || fail "the env probe left no record"
[ -e "$(cat e_env.tmpdir)" ] && fail "the test's TMPDIR $(cat e_env.tmpdir) was not removed"

# shell tests are numbered in file name order, one after the other, and the result column
# lines up (upstream pads every description to the longest one); their lines come in number
# order, whatever order they ended in, but for the exclusive one, last
grep -vF 'harness-probe alone' out.txt |
	awk '/harness-probe/ { n = $1 + 0; if (prev && n != prev + 1) bad = 1; prev = n
			      c = index($0, " : "); if (col && c != col) bad = 1; col = c }
		 END { exit bad }' || fail "tests are not in number order, not numbered consecutively or not aligned"
[ "$(awk -F: '/harness-probe alone/ { print $1 + 0 }' out.txt)" -eq \
	$(($(awk -F: '/harness-probe pass/ { print $1 + 0 }' out.txt) - 1)) ] ||
	fail "the exclusive test is not numbered by its file name"

# -S: one after the other, so the first of the two meeting tests waits in vain
mkdir seq || fail "cannot create $TMPDIR/seq"
OUTER=$TMPDIR/seq PERF_TEST_SHELL_DIR=$probe "$PERF" test -S "harness-probe meet" >seq.txt 2>&1 &&
	fail "perf test -S exited 0 although a test failed"
expect_grep '^ *[0-9]+: harness-probe meet a +: FAILED!$' seq.txt "-S ran two tests at once"
expect_grep '^ *[0-9]+: harness-probe meet b +: Ok$' seq.txt "-S: the second test did not see the first"
[ "$(tail -1 seq.txt)" = "1 passed, 1 failed, 0 skipped" ] || fail "-S: wrong summary '$(tail -1 seq.txt)'"

# -r N: N runs, a result line each, all counted
mkdir runs || fail "cannot create $TMPDIR/runs"
nr_pass=$(awk -F: '/harness-probe pass/ { print $1 + 0 }' out.txt)
OUTER=$TMPDIR/runs PERF_TEST_SHELL_DIR=$probe "$PERF" test -r 3 "$nr_pass" >runs.txt 2>&1 ||
	fail "perf test -r 3 of a passing test exited non-zero"
[ "$(grep -cE "^ *$nr_pass: harness-probe pass +: Ok$" runs.txt)" -eq 3 ] ||
	fail "-r 3: not three result lines: $(cat runs.txt)"
[ "$(grep -c . runs/pass.runs)" -eq 3 ] || fail "-r 3: the test ran $(grep -c . runs/pass.runs) times"
[ "$(tail -1 runs.txt)" = "3 passed, 0 failed, 0 skipped" ] || fail "-r 3: wrong summary '$(tail -1 runs.txt)'"

# bad counts: perf's usage error, one line naming the option
for opt in "-j -1" "-r 0"; do
	# shellcheck disable=SC2086 # the option and its value are two words
	PERF_TEST_SHELL_DIR=$probe "$PERF" test $opt harness-probe >bad.txt 2>&1
	rc=$?
	[ "$rc" -eq 129 ] || fail "perf test $opt: exit $rc, not 129"
	[ "$(grep -c . bad.txt)" -eq 1 ] && grep -qE -- "--(jobs|runs-per-test) must be" bad.txt ||
		fail "perf test $opt: not one line naming the option: $(cat bad.txt)"
done

# selection by number runs exactly that test, and Ok alone exits 0
first=$(awk -F: '/harness-probe pass/ { print $1 + 0 }' out.txt)
PERF_TEST_SHELL_DIR=$probe "$PERF" test "$first" >one.txt 2>&1 ||
	fail "perf test $first (a passing test) exited non-zero"
[ "$(grep -c ': Ok$' one.txt)" -eq 1 ] || fail "perf test $first did not run exactly one test"

# list prints number and description, runs nothing
PERF_TEST_SHELL_DIR=$probe "$PERF" test list harness-probe >list.txt 2>&1 ||
	fail "perf test list failed"
[ "$(grep -c 'harness-probe' list.txt)" -eq 14 ] || fail "perf test list did not list the 14 probes"
grep -q 'Ok$' list.txt && fail "perf test list ran tests"
# a word that is a test's whole title selects that test only, any other a substring
"$PERF" test list Symbols >list.txt 2>&1 || fail "perf test list Symbols failed"
[ "$(grep -c . list.txt)" -eq 1 ] && grep -q '^ *[0-9]*: Symbols: ' list.txt ||
	fail "perf test list Symbols: not the one test titled Symbols: $(cat list.txt)"
"$PERF" test list symbol >list.txt 2>&1 || fail "perf test list symbol failed"
[ "$(grep -c . list.txt)" -gt 1 ] || fail "perf test list symbol: the substring selects one test only"

# workloads: known names run, unknown ones fail
"$PERF" test --list-workloads >wl.txt 2>&1 || fail "perf test --list-workloads failed"
for w in noploop leafloop calls; do
	grep -qx "$w" wl.txt || fail "workload $w is not listed"
	"$PERF" test -w "$w" 0 || fail "perf test -w $w 0 failed"
done
"$PERF" test -w no-such-workload 2>/dev/null && fail "an unknown workload did not fail"
exit 0
