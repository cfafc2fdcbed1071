#!/bin/sh
# Frame-pointer callchain of perf test -w calls (system perf)
# SPDX-License-Identifier: GPL-2.0
#
# Callchain tests rely on `perf test -w calls` having exactly this shape; this checks it
# with the system perf alone, so a failure here is in the workload (inlining, tail calls or
# a missing frame pointer after a compiler change), not in our record/script.

. "$(dirname "$0")"/lib.sh

need_perf
need_system_perf_record
[ -x "$WORKLOAD_PERF" ] || fail "WORKLOAD_PERF=$WORKLOAD_PERF is not an executable"

depth=3
# calls_leaf, then $depth calls_recurse frames, then the fixed levels, innermost first
want="calls_leaf"
i=0
while [ $i -lt $depth ]; do
	want="$want calls_recurse"
	i=$((i + 1))
done
want="$want calls_level8 calls_level7 calls_level6 calls_level5 calls_level4 calls_level3"
want="$want calls_level2 calls_level1 workload__calls"

# :u keeps kernel frames (interrupt entry and the like) out of the chains
"$SYSTEM_PERF" record -q -e cpu-clock:u -F 1000 -g -o calls.data -- \
	"$WORKLOAD_PERF" test -w calls 0.3 $depth >record.log 2>&1 ||
	fail "$SYSTEM_PERF record of '$WORKLOAD_PERF test -w calls' failed: $(tail -1 record.log)"
"$SYSTEM_PERF" script -i calls.data -F ip,sym >script.txt 2>script.err ||
	fail "$SYSTEM_PERF script failed: $(tail -1 script.err)"

# one line per sample: its symbols, innermost first
awk 'NF == 0 { if (chain != "") print chain; chain = ""; next }
     { chain = chain (chain == "" ? "" : " ") $2 }
     END { if (chain != "") print chain }' script.txt >chains.txt

leaf=$(grep -c '^calls_leaf ' chains.txt)
full=$(grep -c "^$want" chains.txt)
verbose "samples: $(wc -l <chains.txt), in calls_leaf: $leaf, with the whole chain: $full"
# 0.3 s at 1000 Hz gives about 300 samples; 20 rules out a recording that barely ran
[ "$leaf" -ge 20 ] || fail "only $leaf samples in calls_leaf (is the workload running?)"
# the chain is deterministic below calls_leaf's own prologue, so every sample must show it
if [ "$full" -ne "$leaf" ]; then
	verbose "expected: $want"
	verbose "$(grep '^calls_leaf ' chains.txt | grep -v "^$want" | sort | uniq -c | head -5)"
	fail "$((leaf - full)) of $leaf calls_leaf samples lack the full frame-pointer chain"
fi
exit 0
