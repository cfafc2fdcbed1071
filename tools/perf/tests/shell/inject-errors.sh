#!/bin/sh
# perf inject errors: usage (129), unreadable, corrupt and cut inputs (one line with offset and record type, 255, no output file left), someone else's file without -f
# SPDX-License-Identifier: GPL-2.0
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture real-defer/data
in=$FIXTURES/real-defer/data/calls.data

# usage errors: perf's status, the usage on stderr, nothing written
usage_error() {
	what=$1
	shift
	"$PERF" inject "$@" -i "$in" -o u.data >u.out 2>u.err
	rc=$?
	[ $rc -eq 129 ] || fail "perf inject $what: exit $rc, not 129"
	grep -q 'perf inject \[<options>\]' u.err || fail "perf inject $what: no usage on stderr"
	[ ! -e u.data ] || fail "perf inject $what wrote its output"
}
usage_error "with an unknown option" --no-such-option
usage_error "with an argument" extra
usage_error "-z0" -z0
usage_error "--compression-level=20" --compression-level=20
usage_error "--keep-stack --convert-callchain" --keep-stack --convert-callchain
"$PERF" inject --help >help.txt 2>&1 || fail "perf inject --help failed"
for o in --input --output --build-ids --buildid-all --convert-callchain --keep-deferred --keep-stack --force --compression-level; do
	grep -q -- "$o" help.txt || fail "perf inject --help does not list $o"
done

# one line, the status, and no file under OUT's name nor a temporary one beside it
bad_input() {
	what=$1 want=$2
	shift 2
	rm -rf outdir
	mkdir outdir
	"$@" >bad.out 2>bad.err
	rc=$?
	[ $rc -ne 0 ] || fail "perf inject of $what succeeded"
	[ $rc -eq 255 ] || fail "perf inject of $what: exit $rc, not 255"
	[ "$(wc -l <bad.err)" -eq 1 ] || fail "perf inject of $what: not one line on stderr: $(cat bad.err)"
	grep -q -- "$want" bad.err || fail "perf inject of $what: '$(cat bad.err)' does not say '$want'"
	[ -z "$(ls -A outdir)" ] || fail "perf inject of $what left $(ls -A outdir)"
	verbose "$what: $(cat bad.err)"
}
bad_input "a missing file" "nosuch.data" "$PERF" inject -i nosuch.data -o outdir/out.data

# a sample record whose size is cut to its header: the reader names it and its offset
off=$("$PERF" script -D -i "$in" 2>/dev/null | sed -n 's/^[0-9]* \(0x[0-9a-f]*\) \[0x[0-9a-f]*\]: PERF_RECORD_SAMPLE.*/\1/p' | sed -n 20p)
[ -n "$off" ] || fail "no 20th sample in $in"
cp "$in" corrupt.data
printf '\010\000' | dd of=corrupt.data bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null ||
	fail "cannot corrupt the copy"
bad_input "a corrupt sample" "SAMPLE (9) record at offset $off" "$PERF" inject -i corrupt.data -o outdir/out.data
# the output's name keeps what it had: the rewrite goes to a temporary name first
echo old >outdir/out.data
"$PERF" inject -i corrupt.data -o outdir/out.data 2>/dev/null && fail "perf inject of a corrupt file succeeded"
[ "$(cat outdir/out.data)" = old ] || fail "a failed perf inject replaced the existing output"
[ "$(ls -A outdir)" = out.data ] || fail "a failed perf inject left $(ls -A outdir)"

# a stream cut inside a record: said with its offset, never taken for a whole profile
"$PERF" inject -i "$in" -o - >whole.pipe 2>/dev/null || fail "perf inject to a pipe failed"
size=$(wc -c <whole.pipe)
head -c $((size / 2 + 3)) whole.pipe >cut.pipe
bad_input "a cut stream" "offset" sh -c "\"$PERF\" inject -o outdir/out.data <cut.pipe"

# an output that cannot be made
"$PERF" inject -i "$in" -o no/such/dir/out.data >nodir.out 2>nodir.err && fail "perf inject into a missing directory succeeded"
[ "$(wc -l <nodir.err)" -eq 1 ] || fail "perf inject into a missing directory: not one line: $(cat nodir.err)"

# an output that is no regular file is written in place, never renamed over; a full one
# is one line
"$PERF" inject -i "$in" -o /dev/null 2>null.err || fail "perf inject -o /dev/null failed: $(cat null.err)"
[ -c /dev/null ] || fail "perf inject -o /dev/null replaced the device"
if [ -c /dev/full ]; then
	"$PERF" inject -i "$in" -o /dev/full >full.out 2>full.err && fail "perf inject -o /dev/full succeeded"
	[ "$(wc -l <full.err)" -eq 1 ] || fail "perf inject -o /dev/full: not one line: $(cat full.err)"
	grep -q 'No space left on device' full.err || fail "perf inject -o /dev/full: $(cat full.err)"
	[ -c /dev/full ] || fail "perf inject -o /dev/full replaced the device"
else
	not_tested "a full output: no /dev/full"
fi

# -f: perf reads someone else's file only when forced (root's or one's own always)
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	cp "$in" theirs.data
	chown nobody theirs.data
	# root is the current user here: perf's check is against the effective uid, so
	# drop to another one with setpriv when we can
	if command -v setpriv >/dev/null 2>&1; then
		chmod 644 theirs.data
		chmod 777 .
		setpriv --reuid=daemon --regid=daemon --clear-groups "$PERF" inject -i theirs.data -o forced.data \
			>f.out 2>f.err && fail "perf inject read someone else's file without -f"
		grep -q "not owned by current user or root (use -f to override)" f.err ||
			fail "perf inject of someone else's file: $(cat f.err)"
		setpriv --reuid=daemon --regid=daemon --clear-groups "$PERF" inject -f -i theirs.data -o forced.data \
			>f.out 2>f.err || fail "perf inject -f of someone else's file failed: $(cat f.err)"
	else
		not_tested "-f: no setpriv to run as another user"
	fi
else
	not_tested "-f: not root, no other user's file to read"
fi
pass
