#!/bin/sh
# perf script -D, --header and -I print exactly what upstream perf 7.2 prints (golden files)
. "$(dirname "$0")"/lib.sh

# The expected outputs are upstream's (tools/perf/tests/data/expected/README); this runs the
# whole command, so the script output between the dumped records is compared too.
need_perf
need_fixture perf72/data
need_fixture real-defer/data
need_cmd zstd
E=$PERF_SRCDIR/tools/perf/tests/data/expected
gzip -dc "$FIXTURES/perf72/kallsyms.gz" >ks72 || fail "cannot unpack perf72 kallsyms"
gzip -dc "$FIXTURES/real-defer/kallsyms.gz" >ksdef || fail "cannot unpack real-defer kallsyms"
KS72=$(pwd)/ks72
KSDEF=$(pwd)/ksdef

# the input path after '@' is FILE in the expected files; the date of "captured on" varies
norm() {
	sed -E -e 's#^(0x[0-9a-f]+)@/[^ ]* \[#\1@FILE [#' \
		-e 's/^# captured on    : .*/# captured on    : DATE/' "$1"
}

failed=""
# check NAME EXPECTED [head [FILTER]]: NAME.out against EXPECTED, or with "head" against
# an EXPECTED that is the first lines of perf's output; both through the grep -v pattern
# FILTER if given
check() {
	case $2 in
	*.zst)	zstd -dcq "$E/$2" >"$1.want.raw" ;;
	*)	cp "$E/$2" "$1.want.raw" ;;
	esac
	norm "$1.want.raw" >"$1.want"
	norm "$1.out" >"$1.got"
	if [ -n "${4:-}" ]; then
		grep -v -E "$4" "$1.want" >"$1.want.f"; mv "$1.want.f" "$1.want"
		grep -v -E "$4" "$1.got" >"$1.got.f"; mv "$1.got.f" "$1.got"
	fi
	if [ "${3:-}" = head ]; then
		head -n "$(wc -l <"$1.want")" "$1.got" >"$1.got.h"; mv "$1.got.h" "$1.got"
	fi
	if cmp -s "$1.want" "$1.got"; then
		verbose "$1: identical ($(wc -l <"$1.got") lines)"
	else
		verbose "--- $1: upstream vs ours ---"
		verbose "$(diff "$1.want" "$1.got" | head -20)"
		failed="$failed $1"
	fi
}

# run NAME ARGS...: perf script ARGS into NAME.out; a failing command fails its check
run() {
	name=$1
	shift
	if ! "$PERF" script "$@" >"$name.out" 2>"$name.err"; then
		verbose "$name: perf script $* failed: $(head -3 "$name.err")"
		: >"$name.out"
	fi
}

P72=$FIXTURES/perf72
for n in sched thr.fpz calls.pipe; do
	run "$n" -D --no-inline --symfs="$P72/symfs" --kallsyms="$KS72" -i "$P72/data/$n.data"
	check "$n" "perf72-$n.D.txt.zst"
done
# a pipe read from standard input is "pipe" just the same
run stdin -D --no-inline --symfs="$P72/symfs" --kallsyms="$KS72" -i - <"$P72/data/calls.pipe.data"
check stdin perf72-calls.pipe.D.txt.zst
# the script's callchain lines come from DWARF unwinding here: script-golden.sh checks
# those; this compares the dump around them (registers, stack dumps)
run dwarf -D --no-inline --symfs="$P72/symfs" --kallsyms="$KS72" -i "$P72/data/calls_cet.dwarf.data"
check dwarf perf72-calls_cet.dwarf.D.head.txt.zst head '^	'


DEF=$FIXTURES/real-defer
for n in calls_u twoevents; do
	run "$n" -D --no-merge-callchains --no-inline --symfs="$DEF/symfs" --kallsyms="$KSDEF" \
		-i "$DEF/data/$n.data"
	check "$n" "real-defer-$n.D-nomerge.txt.zst"
done

for f in "$P72"/data/*.data "$DEF"/data/*.data; do
	d=$(basename "$(dirname "$(dirname "$f")")")
	n=$(basename "$f" .data)
	run "$d-$n.h" --header-only -i "$f"
	check "$d-$n.h" "$d-$n.header.txt"
	run "$d-$n.hI" --header-only -I -i "$f"
	check "$d-$n.hI" "$d-$n.header-I.txt"
done
# pipe mode: the features are printed as their records are processed, after the block
run pipe-header --header --no-inline --symfs="$P72/symfs" --kallsyms="$KS72" -i "$P72/data/calls.pipe.data"
check pipe-header perf72-calls.pipe.header-pipe.head.txt head

[ -z "$failed" ] || fail "output differs from upstream perf 7.2 for:$failed"
exit 0
