#!/bin/sh
# Output to a full disk fails every command with one 'write error' line; a closed pipe is quiet
. "$(dirname "$0")"/lib.sh

need_perf
[ -c /dev/full ] || skip "no /dev/full here"
need_fixture perf72/data/sys.fp.data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"
data=$G/data/sys.fp.data
in="-i $data --symfs=$G/symfs --kallsyms=kallsyms"

# full NAME ARGS...: perf ARGS > /dev/full exits non-zero with exactly the one line
# "perf NAME: write error: No space left on device" on stderr
full() {
	name=$1
	shift
	# shellcheck disable=SC2086 # $in is a word list on purpose
	"$PERF" "$@" >/dev/full 2>full.err
	rc=$?
	[ $rc -ne 0 ] || fail "perf $* > /dev/full exited 0"
	[ $rc -lt 128 ] || fail "perf $* > /dev/full died of signal $((rc - 128))"
	printf 'perf%s: write error: No space left on device\n' "${name:+ $name}" >full.exp
	if ! cmp -s full.exp full.err; then
		verbose "--- stderr of perf $* ---"
		verbose "$(head -20 full.err)"
		fail "perf $* > /dev/full did not say 'perf $name: write error: ...' alone"
	fi
}

# shellcheck disable=SC2086
{
	full script script $in
	full script script -D $in
	full script script --header-only $in
	full script script --show-task-events --show-mmap-events $in
	full report report --stdio $in
	full report report --stdio -g caller $in
	full report report --stdio -D $in
	full report report --stdio --stats $in
	full report report --header-only $in
	full test test list
	full version version
	full version --version
	full script script --help
	full report report -h
	full "" --help
	full "" help
}

# quiet PERF-ARGS...: perf ARGS | head -1 prints nothing on stderr and ends as perf does,
# by SIGPIPE (141) or, when everything fit in the pipe before head left, 0; and the same
# when SIGPIPE is ignored (a parent like Python's subprocess does that) and EPIPE comes instead
quiet() {
	for ign in no yes; do
		rm -f pipe.rc
		if [ $ign = yes ]; then
			(trap '' PIPE; "$PERF" "$@" 2>pipe.err; echo $? >pipe.rc) | head -1 >/dev/null
		else
			("$PERF" "$@" 2>pipe.err; echo $? >pipe.rc) | head -1 >/dev/null
		fi
		rc=$(cat pipe.rc 2>/dev/null)
		[ -s pipe.err ] && fail "perf $* | head -1 (SIGPIPE ignored: $ign) said: $(head -3 pipe.err)"
		case "$rc" in
		0 | 141) ;;
		*) fail "perf $* | head -1 (SIGPIPE ignored: $ign) exited '$rc', not 0 or 141" ;;
		esac
	done
}

# shellcheck disable=SC2086
{
	quiet script $in
	quiet script -D $in
	quiet report --stdio $in
	quiet report --stdio -D $in
	quiet test list
}
exit 0
