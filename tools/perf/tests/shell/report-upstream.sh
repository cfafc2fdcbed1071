#!/bin/sh
# perf report options (sort keys, fields, call-graph modes, limits) equal upstream perf 7.2's
# perf test timeout: 240
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/data
need_upstream_perf
G=$FIXTURES/perf72
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# one line per case: a name, then the options (after --stdio --no-inline)
cat >cases <<'CASES'
sort_sym --no-children -s sym
sort_symbol --no-children -s symbol
sort_sym_dso --no-children -s sym,dso
sort_sym_comm --children -s sym,comm
sort_dso --no-children -s dso
sort_pid --no-children -s pid
sort_cpu --no-children -s cpu
sort_plus --no-children -s +pid
nr_samples --children -n --show-total-period
fields --no-children -F overhead,sym
fields_plus --no-children -F +period
no_graph --no-children -g none
caller --no-children -g caller
fractal --no-children -g fractal,0.5,count
flat --no-children -g flat
period --no-children -g graph,0.5,period
threshold --no-children -g graph,2,1
percent_limit --children --percent-limit 1
quiet --no-children -q
max_stack --children --max-stack 3
inverted --no-children -G
hide_unresolved --children -U
children_sym --children -s sym
children_fractal --children -g fractal
separator --children -t | -n
header --no-children --header
stats --stats
CASES

strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)|^cannot open maps' "$1"
}

# upstream's outputs kept for the other build's run (lib.sh: oracle_cache)
oracle_cache report-upstream "$0" "$G/data/sys.fp.data" "$G/data/thr.fpz.data" "$G/symfs" kallsyms
failed=""
for name in sys.fp thr.fpz; do
	data=$G/data/$name.data
	while read -r case opts; do
		# shellcheck disable=SC2086
		# --header prints the file's mtime: not kept (lib.sh: cached_upstream)
		key=$name.$case
		[ "$case" = header ] && key=
		cached_upstream "$key" "$name.$case.want" report --stdio --no-inline \
			--symfs="$G/symfs" --kallsyms=kallsyms $opts -i "$data" 2>/dev/null
		rc=$?
		[ $rc = 2 ] && skip "upstream perf could not be set up"
		# shellcheck disable=SC2086
		"$PERF" report --stdio --no-inline --symfs="$G/symfs" --kallsyms=kallsyms \
			$opts -i "$data" >"$name.$case.out" 2>"$name.$case.err" ||
			{ verbose "$(cat "$name.$case.err")"; failed="$failed $name/$case(exit)"; continue; }
		strip "$name.$case.want" >want
		strip "$name.$case.out" >got
		if ! cmp -s want got; then
			verbose "--- $name $case ($opts): upstream vs ours ---"
			verbose "$(diff want got | head -20)"
			failed="$failed $name/$case"
		fi
	done <cases
done
[ -z "$failed" ] || fail "perf report differs from upstream perf 7.2 for:$failed"
exit 0
