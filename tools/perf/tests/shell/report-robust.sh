#!/bin/sh
# perf report on cut, garbage and sample-less input and bad options: one-line errors, no crash
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# run_report OUT ARGS...: exit status of perf report; fails the test on a crash (a fatal
# signal, or a sanitizer report in an ASan/UBSan build). 255 is upstream's status for an
# input that cannot be read, not a signal.
run_report() {
	out=$1
	shift
	"$PERF" report --stdio --symfs="$G/symfs" --kallsyms=kallsyms "$@" >"$out" 2>"$out.err"
	rc=$?
	if { [ $rc -ge 131 ] && [ $rc != 255 ]; } || grep -q -E 'ERROR: AddressSanitizer|runtime error:' "$out.err"; then
		verbose "$(tail -20 "$out.err")"
		fail "perf report $* crashed (status $rc)"
	fi
	return $rc
}

# cut copies of a recording with callchains: every cut is an error or a report, never a crash
src=$G/data/sys.fp.data
size=$(wc -c <"$src")
for cut in 0 8 50 103 104 300 1000 4096 20000 $((size / 2)) $((size - 9)) $((size - 1)); do
	head -c "$cut" "$src" >cut.data
	if ! run_report cut.out -i cut.data; then
		[ "$(wc -l <cut.out.err)" -ge 1 ] || fail "cut at $cut: failed without saying why"
		verbose "cut at $cut: $(head -1 cut.out.err)"
	fi
done

# bytes flipped in the data section: a corrupt record is refused or reported, never a crash
i=0
while [ $i -lt 24 ]; do
	cp "$src" flip.data
	off=$((300 + i * (size - 400) / 24))
	printf '\377\377\377\377' | dd of=flip.data bs=1 seek=$off conv=notrunc 2>/dev/null
	run_report flip.out -i flip.data --children || true
	i=$((i + 1))
done

# not a perf.data file
head -c 4096 /dev/urandom >garbage.data 2>/dev/null || printf 'garbage' >garbage.data
run_report garbage.out -i garbage.data && fail "random bytes were reported as a profile"
[ $rc = 255 ] || fail "a garbage file exited $rc, not 255"
expect_grep '^garbage.data: bad magic at offset 0' garbage.out.err "no error line for a garbage file"

# a recording without samples (a 1 Hz event on `true`): upstream's message, not a report
if [ -x "$SYSTEM_PERF" ] && "$SYSTEM_PERF" record -q -e cpu-clock -F 1 -o empty.data -- true \
	>/dev/null 2>&1; then
	run_report empty.out -i empty.data || fail "a recording without samples failed: $(cat empty.out.err)"
	if ! grep -q '^# Samples' empty.out; then
		expect_grep 'empty.data data has no samples!' empty.out.err "no 'has no samples' message"
	fi
else
	not_tested "the sample-less recording: no system perf to record with"
fi

# bad options: the usage exit status 129, a bad sort key an error
run_report opt.out --no-such-option -i "$src" && fail "an unknown option was accepted"
[ $rc = 129 ] || fail "an unknown option exited $rc, not 129"
run_report opt.out -g nonsense-mode -i "$src" && fail "a bad -g argument was accepted"
[ $rc = 129 ] || fail "a bad -g argument exited $rc, not 129"
# an unknown sort key or field: upstream's error and the option's usage, status 0, no report
run_report opt.out -s nonsense -i "$src" || fail "a bad sort key exited $rc, not 0 as upstream"
expect_grep "Unknown --sort key: .nonsense'" opt.out.err "no error for a bad sort key"
expect_grep '^    -s, --sort <key' opt.out.err "no usage of --sort after a bad sort key"
[ -s opt.out ] && fail "a bad sort key printed a report"
run_report opt.out -F nonsense -i "$src" || fail "a bad field exited $rc, not 0 as upstream"
expect_grep "Unknown --fields key: .nonsense'" opt.out.err "no error for a bad field"
expect_grep '^    -F, --fields <key' opt.out.err "no usage of --fields after a bad field"
# what is not done yet says so in one line, with the usage status
run_report opt.out --symbol-filter=a --hierarchy -i "$src" &&
	fail "--symbol-filter with --hierarchy was accepted"
[ $rc = 129 ] && [ "$(wc -l <opt.out.err)" -eq 1 ] ||
	fail "--symbol-filter with --hierarchy: exit $rc, $(wc -l <opt.out.err) lines"
expect_grep "^perf report: --symbol-filter with --hierarchy is not supported yet$" opt.out.err \
	"--symbol-filter with --hierarchy: not its one line"
run_report opt.out --parallelism=x -i "$src" && fail "--parallelism=x was accepted"
[ $rc = 255 ] || [ $rc = 129 ] || fail "--parallelism=x exited $rc"
run_report opt.out -i does-not-exist.data && fail "a missing file was accepted"
[ $rc = 255 ] || fail "a missing file exited $rc, not 255"
expect_grep "^failed to open does-not-exist.data: No such file or directory$" opt.out.err \
	"the error does not name the missing file"

# a user stack word that looks like a context marker (0xfffffffffffffed0, a live ls -R
# recording of perf 6.1's): the chain is dropped, but -p still finds the parent upstream
# finds before the marker from the leaf; from the root the marker comes first: [other]
pd=$PERF_SRCDIR/tools/perf/tests/data/parent-dropped
mkdir -p empty
for order in "" "-g caller"; do
	# shellcheck disable=SC2086
	run_report pd.out --stdio --no-children -p '^ext4' $order --symfs="$PWD/empty" \
		--kallsyms="$pd/kallsyms" -i "$pd/ls-g.data" || fail "report -p of the dropped chain failed"
	if [ -z "$order" ]; then
		grep -q '\[k\] ext4_getattr .*\[other\]' pd.out &&
			fail "-p: the dropped chain's ext4_getattr sample has no parent"
		expect_grep '\[k\] ext4_getattr +ext4_getattr' pd.out "-p: no ext4_getattr entry with its parent"
	else
		expect_grep '\[k\] ext4_getattr +\[other\]' pd.out "-p -g caller: the dropped chain's walk from the root found a parent"
	fi
	if upstream_perf; then
		# shellcheck disable=SC2086
		"$UPSTREAM_PERF" report --stdio --no-children -p '^ext4' $order --symfs="$PWD/empty" \
			--kallsyms="$pd/kallsyms" -i "$pd/ls-g.data" 2>/dev/null | grep -v '^# (Tip' >pd.up
		grep -v '^# (Tip' pd.out >pd.ours
		diff pd.up pd.ours >pd.diff ||
			fail "-p ${order:-callee} of the dropped chain differs from upstream: $(head -4 pd.diff | tr '\n' ' ')"
	fi
done
pass
