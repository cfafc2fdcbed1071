#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# upstream-tests.sh [-v] [TEST...]: upstream perf's own shell tests (Debian sid's linux-perf
# installs them in /usr/lib/perf-core/tests/shell) run against our perf, beside upstream perf
# 7.2 itself run the same way (`make upstream-tests`, root).
#
# They run in the sid tree the differential tests use (scripts/test-deps.sh builds it;
# $UPSTREAM_PERF_DIR/sid), which gets gcc and libc6-dev here (some tests build a program) and
# the libraries build/perf links (and bc, which record.sh calculates with). Each test runs chrooted there, in a private mount namespace
# with the machine's /proc, /sys, /dev and tracefs, under a timeout (UPSTREAM_TESTS_TIMEOUT,
# default 600 s), twice: with our perf first in PATH (a copy of build/perf under /opt), then
# with upstream's /usr/bin/perf. Exit status 0 passes, 2 skips (perf's convention), any other
# fails.
#
# One line per test: ours, then upstream's result; then "N passed, N failed, N skipped" for
# ours, and how many of ours failed where upstream fails too, or for a reason listed in
# known() below (the README says why). Only the other failures fail the run.
# -v prints the output of every failing run. Exit status: non-zero when one failed, 2 when
# the tree cannot be had (no root, no tree and no archive).
set -u
cd "$(dirname "$0")/.." || exit 1

dir=${UPSTREAM_PERF_DIR:-/var/cache/upstream-perf}
root=$dir/sid
timeout=${UPSTREAM_TESTS_TIMEOUT:-600}
perf=${PERF:-build/perf}
verbose=
[ "${1:-}" = -v ] && { verbose=1; shift; }

say() { echo "upstream-tests: $*"; }
die() { say "$*" >&2; exit 2; }

# the tests, in the commands we ship: record, report, script, inject, buildid-cache,
# kallsyms, evlist, list and the test workloads
TESTS="record.sh pipe_test.sh perf-report-hierarchy.sh header.sh data_validation.sh
inject-callchain.sh inject_aslr.sh test_dwarf_unwind_multithreaded.sh addr2line_inlines.sh
kallsyms.sh buildid.sh evlist.sh list.sh record_weak_term.sh perftool-testsuite_report.sh
data_file_offset_diagnostics.sh record+zstd_comp_decomp.sh
record+zstd_comp_decomp_multi_record.sh record_sideband.sh jitdump-python.sh script.sh"

# tests ours may fail, with the reason (README: "upstream's shell tests")
known() {
	case $1 in
	script.sh) echo "runs upstream's Python scripts (perf script -s): no embedded Python here" ;;
	*) return 1 ;;
	esac
}

[ "$(id -u)" = 0 ] || die "needs root (it chroots into $root)"
[ -x "$perf" ] || die "no $perf: run make first"
if [ ! -x "$root/usr/bin/perf" ]; then
	say "no sid tree at $root: scripts/test-deps.sh upstream-perf"
	scripts/test-deps.sh upstream-perf || die "cannot build the sid tree (make test-deps)"
fi
shell=$root/usr/lib/perf-core/tests/shell
[ -d "$shell" ] || die "no upstream tests in $shell (linux-perf in the sid tree)"

# in_root CMD...: CMD chrooted in the tree with the machine's pseudo file systems, in a mount
# namespace of its own so that nothing stays mounted; its /tmp is $ROOT_TMP (default: the
# machine's)
in_root() {
	unshare -m --propagation private sh -c '
		r=$1 t=$2; shift 2
		mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" &&
		mount --rbind /dev "$r/dev" && mount --bind "$t" "$r/tmp" || exit 125
		exec chroot "$r" "$@"' sh "$root" "${ROOT_TMP:-/tmp}" "$@"
}

# what build/perf links, as sid's packages (their names change across releases: t64)
need_pkgs="gcc libc6-dev bc binutils xz-utils"
for lib in $(ldd "$perf" | awk '$2 == "=>" { print $1 }'); do
	if ! in_root sh -c "ldconfig -p | grep -q '$lib '"; then
		case $lib in
		libdw.so.*) need_pkgs="$need_pkgs libdw1t64" ;;
		libelf.so.*) need_pkgs="$need_pkgs libelf1t64" ;;
		libzstd.so.*) need_pkgs="$need_pkgs libzstd1" ;;
		libtraceevent.so.*) need_pkgs="$need_pkgs libtraceevent1" ;;
		libncursesw.so.*) need_pkgs="$need_pkgs libncursesw6" ;;
		libtinfo.so.*) need_pkgs="$need_pkgs libtinfo6" ;;
		libstdc++.so.*) need_pkgs="$need_pkgs libstdc++6" ;;
		libprotobuf-c.so.*) need_pkgs="$need_pkgs libprotobuf-c1" ;;
		libz.so.*) need_pkgs="$need_pkgs zlib1g" ;;
		*) die "the sid tree lacks $lib, which $perf links" ;;
		esac
	fi
done
missing=
for p in $need_pkgs; do
	in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing in the sid tree:$missing"
	in_root env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false \
		install -y -q $missing >/dev/null 2>&1 ||
	{ in_root apt-get -o Acquire::Check-Valid-Until=false update >/dev/null 2>&1 &&
	  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null 2>&1; } ||
		die "apt-get install$missing in the sid tree failed"
fi

ours=$(mktemp -d "$root/opt/ourperf.XXXXXX") || die "cannot make a directory in $root/opt"
logs=$(mktemp -d "${TMPDIR:-/tmp}/upstream-tests.XXXXXX") || die "cannot make a log directory"
trap 'rm -rf "$ours" "$logs"' EXIT
mkdir -p "$ours/bin" && cp "$perf" "$ours/bin/perf" || die "cannot copy $perf into the tree"
ours_bin=/opt/${ours##*/}/bin

# run_one PATHPREFIX TEST LOG: the test's exit status (124: timed out). Each run has a /tmp
# of its own, removed after it: some upstream tests leave files there (record+zstd_comp_decomp.sh
# quotes its rm's glob), and ours must not meet upstream's.
run_one() {
	local t rc
	t=$(mktemp -d "$logs/tmp.XXXXXX") && chmod 1777 "$t" || return 125
	ROOT_TMP=$t in_root env -i PATH="$1/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root TERM=dumb \
		LC_ALL=C.UTF-8 timeout -k 10 "$timeout" \
		bash "/usr/lib/perf-core/tests/shell/$2" >"$3" 2>&1 </dev/null
	rc=$?
	rm -rf "$t"
	return $rc
}

result() {
	case $1 in
	0) echo Ok ;;
	2) echo Skip ;;
	124) echo "FAILED (timed out)" ;;
	*) echo "FAILED (exit $1)" ;;
	esac
}

[ $# -gt 0 ] && TESTS="$*"
passed=0 failed=0 skipped=0 known_failed=0 up_passed=0 up_failed=0 up_skipped=0
for t in $TESTS; do
	[ -f "$shell/$t" ] || { say "$t: no such upstream test"; failed=$((failed + 1)); continue; }
	run_one "$ours_bin:" "$t" "$logs/ours"
	rc=$?
	run_one "" "$t" "$logs/upstream"
	up=$?
	case $up in 0) up_passed=$((up_passed + 1)) ;; 2) up_skipped=$((up_skipped + 1)) ;;
	*) up_failed=$((up_failed + 1)) ;; esac
	r=$(result $rc)
	why=
	case $rc in
	0) passed=$((passed + 1)) ;;
	2) why=$(grep -o -i -m1 'skip[^]]*' "$logs/ours" | head -c 120)
	   if [ "$up" = 0 ] && reason=$(known "$t"); then
		r="Skip, known: $reason"
		known_failed=$((known_failed + 1))
	   elif [ "$up" = 0 ]; then
		r="FAILED (skipped where upstream passes)"
		failed=$((failed + 1))
	   else
		skipped=$((skipped + 1))
	   fi ;;
	*) if reason=$(known "$t"); then
		r="$r, known: $reason"
		known_failed=$((known_failed + 1))
	   elif [ "$up" != 0 ] && [ "$up" != 2 ]; then
		r="$r, as upstream"
		known_failed=$((known_failed + 1))
	   else
		failed=$((failed + 1))
	   fi ;;
	esac
	printf '%-44s %s%s    (upstream: %s)\n' "$t" "$r" "${why:+ ($why)}" "$(result $up)"
	if [ -n "$verbose" ] && [ "$rc" != 0 ]; then
		sed 's/^/    | /' "$logs/ours" | tail -40
	fi
done
echo "upstream perf 7.2 itself: $up_passed passed, $up_failed failed, $up_skipped skipped"
echo "$passed passed, $failed failed, $skipped skipped, $known_failed failed as upstream does or known"
[ "$failed" = 0 ]
