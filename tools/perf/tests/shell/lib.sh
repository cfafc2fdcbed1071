# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers for the shell tests, sourced (not run) by each of them:
#
#	#!/bin/sh
#	# One line saying what the test checks (perf test prints it)
#	. "$(dirname "$0")"/lib.sh
#
# POSIX sh, so tests may be sh or bash scripts. `perf test` skips lib*.sh when it looks for
# tests. A test exits 0 when it passed, 2 (skip) when a prerequisite is missing, 3 when it
# passed but some of its cases could not run here (not_tested, then pass), anything else
# when it failed; the helpers below exit for it. A skip or a partial pass prints its reason
# as its last "skip: " or "partial: " line, which perf test shows on the result line.
#
# Under `perf test`, the environment holds:
#	PERF			the perf binary under test (absolute path)
#	PERF_SRCDIR		the top of the source tree
#	TMPDIR			a private directory, also the working directory, removed afterwards
#	PERF_TEST_VERBOSE	0, or the number of -v given to perf test
# Run by hand (sh tools/perf/tests/shell/foo.sh), PERF defaults to tools/perf/perf of the
# tree holding the script, and a private TMPDIR is made and removed here.
#
# Set here for the tests:
#	SYSTEM_PERF	the distribution's perf (default /usr/bin/perf), the differential oracle
#	FIXTURES	where need_fixture unpacks the golden recordings the repository carries
#			(tools/perf/tests/data/fixtures, see unpack-fixtures.sh there):
#			$TMPDIR/fixtures
#	WORKLOAD_PERF	the perf to run `test -w` workloads with: the normal build when it
#			exists, since under the ASan one the sanitizer runtime adds samples and
#			frames of its own (LeakSanitizer's scan at exit) to every recording
#	HOME		$TMPDIR/home, empty: the test's own build-id cache (see below)

lib_dir=$(cd "$(dirname "$0")" && pwd)

# perf test runs each test in its private TMPDIR; anywhere else we were run by hand, and
# files the test writes must not land in the caller's directory (the source tree, say)
if [ -n "${TMPDIR:-}" ] && [ -d "$TMPDIR" ] &&
	[ "$(pwd -P)" = "$(cd "$TMPDIR" && pwd -P)" ]; then
	lib_standalone=
else
	lib_standalone=1
fi

: "${PERF_SRCDIR:=$(cd "$lib_dir/../../../.." && pwd)}"
: "${PERF:=$PERF_SRCDIR/tools/perf/perf}"
: "${SYSTEM_PERF:=/usr/bin/perf}"
: "${PERF_TEST_VERBOSE:=0}"
if [ -z "${WORKLOAD_PERF:-}" ]; then
	WORKLOAD_PERF=$PERF
	[ -x "$PERF_SRCDIR/tools/perf/perf" ] && WORKLOAD_PERF=$PERF_SRCDIR/tools/perf/perf
fi
# the oracle's record is run again when it aborts on its own (lib/system-perf)
if [ -x "$SYSTEM_PERF" ] && [ -z "${SYSTEM_PERF_REAL:-}" ]; then
	SYSTEM_PERF_REAL=$SYSTEM_PERF
	SYSTEM_PERF=$lib_dir/lib/system-perf
	export SYSTEM_PERF_REAL
fi
# `-- "$CPU_WINDOW" PID SECONDS`: a perf record window in the target's CPU time
CPU_WINDOW=$lib_dir/lib/cpu-window
export PERF PERF_SRCDIR SYSTEM_PERF WORKLOAD_PERF
# perf 6.1's records and CPU-wide records of ours must not overlap (lib/system-perf says
# why): the first hold this lock shared, the second exclusively (cpu_wide_locked). One file
# for every test of the machine, whatever their TMPDIRs.
: "${PERF_TEST_RECORD_LOCK:=/tmp/perf-test-record.lock}"
export PERF_TEST_RECORD_LOCK

if [ -n "$lib_standalone" ]; then
	# make the private scratch directory perf test would have made
	TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/perf-test-XXXXXX") || exit 1
	export TMPDIR PERF_TEST_VERBOSE
	trap 'rm -rf "$TMPDIR"' EXIT
	cd "$TMPDIR" || exit 1
fi
FIXTURES=$TMPDIR/fixtures

# Each test its own HOME, so its own build-id cache ($HOME/.debug): perf record copies every
# DSO it sampled there and the readers look there first, so what another test or an earlier
# run recorded (a binary of the same build id, corrupted since) must not change this one's
# symbols; the caller's cache and ~/.perfconfig stay out of it.
HOME=$TMPDIR/home
mkdir -p "$HOME" || exit 1
unset PERF_BUILDID_DIR
export HOME

# verbose MSG...: a detail, printed only with perf test -v
verbose() {
	[ "$PERF_TEST_VERBOSE" -gt 0 ] && echo "$*" >&2
	return 0
}

# skip REASON...: a prerequisite is missing; perf test shows "Skip (REASON)"
skip() {
	echo "skip: $*" >&2
	exit 2
}

# fail MSG...: the one reason this test failed
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# cases N: this test has N cases that may each be not_tested; pass then says "K of N cases"
lib_cases=
cases() {
	lib_cases=$1
}

# not_tested WHY...: one case cannot run here (WHY names it and the reason); the test goes
# on, and pass reports it. Call it from the test's own shell, not a subshell or a pipeline.
lib_not_tested=
lib_nr_not_tested=0
not_tested() {
	echo "not tested: $*" >&2
	lib_not_tested=${lib_not_tested:+$lib_not_tested; }$*
	lib_nr_not_tested=$((lib_nr_not_tested + 1))
}

# pass: the test passed; exits 0, or 3 (Ok in part) with "partial: K of N cases: WHY; WHY"
# ("partial: not run: WHY; WHY" without cases) when cases were not_tested: a test that ran
# only some of its cases never says a plain Ok
pass() {
	[ "$lib_nr_not_tested" -eq 0 ] && exit 0
	if [ -n "$lib_cases" ]; then
		echo "partial: $((lib_cases - lib_nr_not_tested)) of $lib_cases cases: $lib_not_tested" >&2
	else
		echo "partial: not run: $lib_not_tested" >&2
	fi
	exit 3
}

# need_cmd CMD...: skip unless every command is available
need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

# need_perf: the binary under test must exist (it is the one thing we never skip for)
need_perf() {
	[ -x "$PERF" ] || fail "PERF=$PERF is not an executable; build it with make"
}

# need_system_perf_record: skip unless the system perf exists and may record here. The probe
# failed once, most likely beside a CPU-wide record of ours (lib/system-perf: the record lock
# now keeps them apart); it is still tried three times, and a skip says its own error.
need_system_perf_record() {
	local try=0 why
	[ -x "$SYSTEM_PERF" ] || skip "no system perf at $SYSTEM_PERF: make test-deps"
	until "$SYSTEM_PERF" record -q -e cpu-clock -o "$TMPDIR/.probe.data" -- true \
		>"$TMPDIR/.probe.log" 2>&1; do
		try=$((try + 1))
		verbose "system perf record, try $try: $(cat "$TMPDIR/.probe.log")"
		[ $try -lt 3 ] && { sleep 1; continue; }
		why=$(grep -m1 . "$TMPDIR/.probe.log" | cut -c1-100)
		skip "$SYSTEM_PERF_REAL record fails here: ${why:-no message} (perf_event_paranoid" \
			"is $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo unknown))"
	done
	rm -f "$TMPDIR/.probe.data" "$TMPDIR/.probe.log"
}

# cpu_wide_locked CMD...: CMD, a CPU-wide (-a, -C) perf record of ours, holding
# PERF_TEST_RECORD_LOCK exclusively, so that no perf 6.1 record of a test run beside this
# one gets the kernel's leaked build-id bit. Tests whose every CPU-wide record is theirs
# alone are "(exclusive)" instead. Waits at most 300 s (a deadlock would be a test that
# runs one inside the other), then records anyway, saying so.
cpu_wide_locked() {
	( : >>"$PERF_TEST_RECORD_LOCK" ) 2>/dev/null
	[ -r "$PERF_TEST_RECORD_LOCK" ] || { "$@"; return; }
	(
		flock -x -w 300 9 || echo "cpu_wide_locked: no lock in 300 s, recording anyway" >&2
		exec "$@"
	) 9<"$PERF_TEST_RECORD_LOCK"
}

# need_fixture PATH: unpacks the fixture set PATH is in (its first component: perf72 or
# real-defer) into $FIXTURES, once, and fails unless $FIXTURES/PATH is there
need_fixture() {
	need_cmd zstd
	"$PERF_SRCDIR/tools/perf/tests/data/unpack-fixtures.sh" "${1%%/*}" "$FIXTURES" ||
		fail "cannot unpack the fixture ${1%%/*}"
	[ -e "$FIXTURES/$1" ] || fail "fixture $FIXTURES/$1 is missing"
}

# upstream_perf: sets UPSTREAM_PERF to the project's upstream perf 7.2 wrapper and succeeds
# when it runs here (root, and make test-deps built its tree)
upstream_perf() {
	UPSTREAM_PERF=$PERF_SRCDIR/scripts/upstream-perf
	"$UPSTREAM_PERF" --version >/dev/null 2>&1
}

# oracle_cache NAME PATH...: sets ORACLE_CACHE to a directory where a test keeps upstream's
# outputs on fixed inputs for the other build's run of the same make test (run-tests.sh
# gives both runs PERF_TEST_CACHE and removes it after): upstream prints the same in both,
# and running it again took a third of the ASan build's run of the corpus test. The key is
# NAME, upstream's version and the bytes of PATH... (the inputs: files, and the files
# under directories). Empty without PERF_TEST_CACHE: a plain perf test runs upstream every
# time.
oracle_cache() {
	local name=$1 key
	shift
	ORACLE_CACHE=
	[ -n "${PERF_TEST_CACHE:-}" ] && [ -d "$PERF_TEST_CACHE" ] || return 0
	key=$({ "$UPSTREAM_PERF" --version &&
		find "$@" -type f -print0 | LC_ALL=C sort -z | xargs -0 cat; } |
		cksum | tr ' ' .) || return 0
	mkdir -p "$PERF_TEST_CACHE/$name.$key" && ORACLE_CACHE=$PERF_TEST_CACHE/$name.$key
}

# cached_upstream NAME OUT CMD...: upstream's CMD, its stdout in OUT and its exit status
# returned; from ORACLE_CACHE's entry NAME when a run before kept it there (exit status 0
# only: a failure is upstream's to show again; ORACLE_HITS counts them), into it otherwise.
# Only for output that depends on the inputs' bytes alone, not on their paths or times
# (--header's "captured on" is the file's mtime): an empty NAME runs upstream uncached.
cached_upstream() {
	local name=$1 out=$2 rc
	shift 2
	[ -n "$name" ] || { "$UPSTREAM_PERF" "$@" >"$out"; return; }
	if [ -n "${ORACLE_CACHE:-}" ] && [ -f "$ORACLE_CACHE/$name.ok" ]; then
		cp "$ORACLE_CACHE/$name.out" "$out" &&
			{ ORACLE_HITS=$((${ORACLE_HITS:-0} + 1)); return 0; }
	fi
	"$UPSTREAM_PERF" "$@" >"$out"
	rc=$?
	# written aside and renamed: a concurrent run of the test never reads half
	if [ -n "${ORACLE_CACHE:-}" ] && [ $rc = 0 ] &&
	   cp "$out" "$ORACLE_CACHE/$name.out.$$" &&
	   mv -f "$ORACLE_CACHE/$name.out.$$" "$ORACLE_CACHE/$name.out"; then
		: >"$ORACLE_CACHE/$name.ok"
	fi
	return $rc
}

# need_upstream_perf: upstream_perf, or skip
need_upstream_perf() {
	upstream_perf || skip "no upstream perf 7.2 ($("$UPSTREAM_PERF" --version 2>&1 |
		sed -n 's/^upstream-perf: //p' | head -1)): make test-deps as root"
}

# The Debian sid tree make test-deps builds for upstream perf (glibc >= 2.41, python3), and
# sid's libc debug files, unpacked beside it (not in it: upstream runs there)
SID=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}/sid
SID_DEBUG=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}/sid-debug

# need_sid: skip unless root, the sid tree and its libc debug files are here
need_sid() {
	need_cmd unshare chroot
	[ "$(id -u)" = 0 ] || skip "not root: the sid userland runs chrooted"
	unshare -m --propagation private true 2>/dev/null ||
		skip "no private mount namespace here ($(unshare -m --propagation private true 2>&1 |
			head -1)): is / a mount point?"
	[ -x "$SID/usr/bin/perf" ] || skip "no Debian sid tree at $SID: make test-deps as root"
	[ -d "$SID_DEBUG/usr/lib/debug" ] && [ -x "$SID/usr/bin/python3" ] ||
		skip "no sid libc debug files in $SID_DEBUG or python3 in $SID: make test-deps as root"
}

# with_sid CMD...: CMD in a mount namespace of its own where the sid tree has this machine's
# /proc, /sys and /tmp and sid's libc debug files at its /usr/lib/debug, for `chroot "$SID"`
# and for --symfs "$SID" alike; nothing stays mounted
with_sid() {
	unshare -m --propagation private sh -c '
		sid=$1 debug=$2
		shift 2
		mkdir -p "$sid/usr/lib/debug" &&
			mount -t proc proc "$sid/proc" && mount --bind /sys "$sid/sys" &&
			mount --bind /tmp "$sid/tmp" &&
			mount --bind "$debug/usr/lib/debug" "$sid/usr/lib/debug" && exec "$@"' \
		with_sid "$SID" "$SID_DEBUG" "$@"
}

# allow_exited_comm WANT GOT: the files differ only where upstream prints a sample's comm
# (script -F comm,tid,... or comm,pid,tid,...)
# as `:TID` (its thread exited before the sample was processed) and ours the name, the
# rest of the line equal (awk's exit runs END too: "bad" keeps END from overturning a refusal)
allow_exited_comm() {
	awk 'NR == FNR { w[FNR] = $0; n = FNR; next }
	{
		if (FNR > n) { bad = 1; exit }
		if (w[FNR] == $0) next
		# upstream: ":TID" (right-aligned as a comm), then the same TID or PID/TID
		if (!match(w[FNR], /^ *:[0-9]+ /)) { bad = 1; exit }
		tid = w[FNR]; sub(/^ *:/, "", tid); sub(/ .*/, "", tid)
		theirs = w[FNR]; sub(/^ *:[0-9]+ /, "", theirs)
		ours = $0
		if (!sub(/^ *[^ :][^ ]* /, "", ours) || ours != theirs) { bad = 1; exit }
		if (!match(theirs, "^ *([0-9]+/)?" tid " ")) { bad = 1; exit }
		allowed++
	}
	END { exit bad || FNR != n || !allowed }' "$1" "$2"
}

# expect_grep PATTERN FILE WHAT: fail with WHAT unless an extended regex matches in FILE
expect_grep() {
	if ! grep -Eq -- "$1" "$2"; then
		verbose "--- $2 ---"
		verbose "$(head -50 "$2")"
		fail "$3"
	fi
}

# unpack_corpus: sets C to the corpus of real recordings (tests/data/corpus) and unpacks its
# kallsyms into ./kallsyms and its DSOs into the --symfs tree ./symfs
unpack_corpus() {
	need_cmd gzip
	C=$PERF_SRCDIR/tools/perf/tests/data/corpus
	[ -f "$C/kallsyms.gz" ] || fail "corpus missing: $C/kallsyms.gz"
	gzip -dc "$C/kallsyms.gz" >kallsyms || fail "cannot unpack $C/kallsyms.gz"
	mkdir symfs || fail "cannot make symfs"
	(cd "$C/symfs" && find . -name '*.gz') | while read -r f; do
		d=symfs/${f%.gz}
		mkdir -p "$(dirname "$d")" && gzip -dc "$C/symfs/$f" >"$d" ||
			fail "cannot unpack $C/symfs/$f"
	done
}

# wait_until SECONDS CMD...: run CMD every 50 ms until it succeeds; 1 if SECONDS pass first.
# Tests wait for what they need (a file, a process's state) rather than sleep a guess,
# which a loaded machine or the ASan build outlasts
wait_until() {
	wu_left=$(($1 * 20))
	shift
	until "$@"; do
		[ $wu_left -gt 0 ] || return 1
		wu_left=$((wu_left - 1))
		sleep 0.05
	done
}

# cpu_used PID SECONDS: PID has used SECONDS of CPU in all (a busy workload is under way,
# whatever the load)
cpu_used() {
	"$CPU_WINDOW" --used "$1" "$2"
}
