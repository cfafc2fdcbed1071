#!/bin/sh
# Errors and exit codes as upstream 7.2 (255 for a cut pipe stream): bad inputs, options, sort keys
. "$(dirname "$0")"/lib.sh

need_perf
need_upstream_perf
need_fixture perf72/data/calls.pipe.data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"
SYM="--symfs=$G/symfs --kallsyms=kallsyms"
# the wrapper shows upstream the host's files under /host
unhost() {
	sed 's|/host/|/|g' "$1"
}

# same_error CASE ARGS...: ours and upstream's stderr and exit status identical (with the
# input at an absolute path, which the wrapper hands upstream as /host/...)
same_error() {
	c=$1
	shift
	"$PERF" "$@" >"$c.out" 2>"$c.err"
	rc=$?
	"$UPSTREAM_PERF" "$@" >"$c.uout" 2>"$c.uerr"
	urc=$?
	[ $rc = $urc ] || fail "$c: perf $* exited $rc, upstream $urc"
	unhost "$c.uerr" >"$c.want"
	if ! cmp -s "$c.want" "$c.err"; then
		verbose "$(diff "$c.want" "$c.err")"
		fail "$c: perf $* says otherwise than upstream"
	fi
	[ -s "$c.out" ] && fail "$c: perf $* printed output"
	verbose "$c: $rc, $(head -1 "$c.err")"
}

mkdir dir empty-dir
: >empty.data
for cmd in script report; do
	# no perf.data here; upstream runs in its tree's root, which has none either
	"$PERF" $cmd >missing.out 2>missing.err
	rc=$?
	[ $rc = 255 ] || fail "perf $cmd without perf.data exited $rc, not 255"
	echo "failed to open perf.data: No such file or directory  (try 'perf record' first)" >missing.want
	cmp -s missing.want missing.err || fail "perf $cmd without perf.data: $(cat missing.err)"
	"$UPSTREAM_PERF" $cmd >/dev/null 2>missing.uerr
	cmp -s missing.want missing.uerr || fail "upstream changed its words for a missing perf.data: $(cat missing.uerr)"

	same_error $cmd-nonexist $cmd -i "$TMPDIR/nonexist.data"
	same_error $cmd-dir $cmd -i "$TMPDIR/dir"
	same_error $cmd-empty $cmd -i "$TMPDIR/empty.data"

	# usage errors: 129 and the same first lines
	"$PERF" $cmd --no-such-option >bad.out 2>bad.err
	rc=$?
	"$UPSTREAM_PERF" $cmd --no-such-option >/dev/null 2>bad.uerr
	urc=$?
	[ $rc = 129 ] && [ $urc = 129 ] || fail "perf $cmd --no-such-option exited $rc, upstream $urc"
	head -3 bad.uerr >bad.want
	head -3 bad.err >bad.got
	cmp -s bad.want bad.got || fail "perf $cmd --no-such-option: $(cat bad.got)"
done

# -F TYPE: asks for nothing of a type, which the recording must have (a pipe has shown
# none when the fields are checked): upstream's line, status 255
same_error F-hw script $SYM -F hw: -i "$G/data/calls.fp.data"
same_error F-trace script $SYM -F trace:, -i "$G/data/calls.fp.data"
same_error F-sw-pipe script $SYM -F sw: -i "$G/data/calls.pipe.data"

# perf.data directories (read as upstream reads them, --threads' refused): data-dir.sh

# an unknown --sort key or field: upstream's two lines, then the usage of that option only
# (its help text is ours: it lists the keys we have) and status 0, no report
for opt in --sort -F; do
	"$PERF" report --stdio $SYM -i "$G/data/calls.pipe.data" $opt nonsense >sort.out 2>sort.err
	rc=$?
	"$UPSTREAM_PERF" report --stdio $SYM -i "$G/data/calls.pipe.data" $opt nonsense \
		>sort.uout 2>sort.uerr
	urc=$?
	[ $rc = 0 ] && [ $urc = 0 ] || fail "report $opt nonsense exited $rc, upstream $urc"
	[ -s sort.out ] && fail "report $opt nonsense printed a report"
	head -5 sort.uerr >sort.want
	head -5 sort.err >sort.got
	if ! cmp -s sort.want sort.got; then
		verbose "$(diff sort.want sort.got)"
		fail "report $opt nonsense: not upstream's error and usage"
	fi
	[ "$(grep -c -- '^    -' sort.err)" = 1 ] || fail "report $opt nonsense: more than the option's usage"
done

# Cut pipe streams: upstream prints what it read before the cut, says so and exits 0 (255
# inside the 16-byte header); we print the same and exit 255 at every cut inside a record,
# on purpose: half a profile must not pass for a whole one. Record boundaries, from the sizes at offset 6 of
# each header.
src=$G/data/calls.pipe.data
size_at() {
	od -An -tu2 -j $(($1 + 6)) -N2 "$src" | tr -d ' '
}
off=16
n=0
# past the attrs, features and the first samples (the 40th record: about 30 features first)
while [ $n -lt 40 ]; do
	off=$((off + $(size_at $off)))
	n=$((n + 1))
done
rsize=$(size_at $off)
# inside the header, inside the first record (an ATTR), at a boundary, inside a header,
# mid-record, one byte short of the whole stream
for cut in 8 40 $off $((off + 4)) $((off + rsize / 2)) $(($(wc -c <"$src") - 1)); do
	for cmd in script report; do
		o=""
		[ $cmd = report ] && o=--stdio
		head -c $cut "$src" | "$PERF" $cmd $o $SYM -i - >cut.out 2>cut.err
		rc=$?
		head -c $cut "$src" | "$UPSTREAM_PERF" $cmd $o $SYM -i - >cut.uout 2>cut.uerr
		urc=$?
		# a cut at a record boundary looks like the stream's end to anyone: 0, as upstream
		want=255
		[ $cut = $off ] && want=0
		[ $rc = $want ] || fail "$cmd of a stream cut at $cut exited $rc (upstream $urc), not $want: $(cat cut.err)"
		grep -v -E '^# \((Tip:|Cannot load tips)' cut.uout >cut.want
		grep -v -E '^# \((Tip:|Cannot load tips)' cut.out >cut.got
		if ! cmp -s cut.want cut.got; then
			verbose "$(diff cut.want cut.got | head -20)"
			fail "$cmd of a stream cut at $cut: not what upstream prints before the cut"
		fi
		# ours says where; upstream's words lead
		if grep -q 'unexpected end of event stream' cut.uerr; then
			expect_grep "^perf $cmd: unexpected end of event stream: the input ends inside the record \(type [0-9]+ [A-Z_0-9]+, size [0-9]+\) at offset 0x[0-9a-f]+$" \
				cut.err "$cmd of a stream cut at $cut: no line saying where"
		fi
		# samples came before the 40th record: they are printed
		[ $cmd = script ] && [ $cut -ge $off ] && [ ! -s cut.out ] &&
			fail "script of a stream cut at $cut printed nothing"
		verbose "cut at $cut: $cmd $rc, $(grep -v CPU_DOMAIN cut.err | head -1)"
	done
done
# a cut inside a record header: upstream ends quietly, we say where
head -c $((off + 4)) "$src" | "$PERF" script $SYM -i - >/dev/null 2>cut.err
rc=$?
[ $rc = 255 ] || fail "script of a stream cut inside a record header exited $rc, not 255"
expect_grep "^perf script: unexpected end of event stream: the input ends inside the 8-byte header of the record at offset $(printf '%#x' $off)$" \
	cut.err "a cut inside a record header is not said"
exit 0
