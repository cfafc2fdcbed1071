#!/bin/sh
# perf script reads pipe mode from stdin (-i -) exactly as from a file
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data/calls.pipe.data
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack kallsyms"
"$PERF" script --symfs="$G/symfs" --kallsyms=kallsyms -i - <"$G/data/calls.pipe.data" >stdin.out 2>stdin.err ||
	fail "perf script -i - failed: $(cat stdin.err)"
"$PERF" script --symfs="$G/symfs" --kallsyms=kallsyms -i "$G/data/calls.pipe.data" >file.out 2>file.err ||
	fail "perf script -i FILE failed: $(cat file.err)"
cmp -s stdin.out file.out || fail "stdin and file differ"
[ -s stdin.out ] || fail "no output"
cat "$G/data/calls.pipe.data" | "$PERF" script --symfs="$G/symfs" --kallsyms=kallsyms -i - >pipe.out 2>pipe.err ||
	fail "perf script from a real pipe failed: $(cat pipe.err)"
cmp -s pipe.out file.out || fail "pipe and file differ"
exit 0
