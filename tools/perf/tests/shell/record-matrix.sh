#!/bin/sh
# perf record's files equal the system perf's (6.1) for the invocations users type: every attr field, the record types, the header features (lib/record-matrix.txt), both perfs read ours without a warning, and upstream sees the same call structure in both
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 900
#
# Each row of lib/record-matrix.txt is recorded twice on the same workload, by perf 6.1 and by
# ours; perf 6.1 then describes both files (`perf evlist -v`, `perf report --stats`, `perf
# report --header-only`), so both are seen through one reader that no one here wrote. What
# differs must be allowed in the table with its reason. Every file of ours must be read by perf
# 6.1's perf script and by upstream 7.2's perf script and perf report without a line on
# stderr, and where the row records callchains, upstream must see the same call structure of
# the workload in both files.

. "$(dirname "$0")"/lib.sh

need_perf
need_system_perf_record
table=$PERF_SRCDIR/tools/perf/tests/shell/lib/record-matrix.txt
[ -r "$table" ] || fail "no table at $table"
have_upstream=1
upstream_perf || { have_upstream=0; not_tested "upstream 7.2 reading our files: not installed (make test-deps)"; }

# on FILE PERF ARGS...: PERF ARGS reading FILE; a pipe row's stream on stdin, as a pipe is read
on() {
	local file=$1
	shift
	if [ "$pipe" = 1 ]; then
		"$@" -i - <"$file"
	else
		"$@" -i "$file"
	fi
}

# record PERF FILE LOG: the row recorded by PERF into FILE; a pipe row (-o - in its options)
# writes the stream to stdout, as `perf record -o - > FILE`
# A CPU-wide row of ours (-a, -C) holds the record lock (lib.sh: cpu_wide_locked): this test
# runs beside others, whose perf 6.1 records it would otherwise spoil.
record() {
	local lock=
	case " $opts " in
	*" -a "* | *" -C "*) [ "$1" = "$PERF" ] && lock=cpu_wide_locked ;;
	esac
	# shellcheck disable=SC2086 # the options are words
	if [ "$pipe" = 1 ]; then
		$lock "$1" record -q -N $opts -- $work >"$2" 2>"$3"
	else
		$lock "$1" record -q -N -o "$2" $opts -- $work >"$3" 2>&1
	fi
}

# describe FILE PREFIX: perf 6.1's view of FILE as PREFIX.evlist, .stats and .features
describe() {
	on "$1" "$SYSTEM_PERF" evlist -v 2>"$2.evlist.err" | grep -v '^#' >"$2.evlist" ||
		return 1
	on "$1" "$SYSTEM_PERF" report --stats >"$2.stats" 2>"$2.stats.err" || return 1
	on "$1" "$SYSTEM_PERF" report --header-only >"$2.header" 2>"$2.header.err" || return 1
}

# warnings ERR: the first line of ERR that is not the lost-records warning (a loaded machine's
# rings overflow: that is the run's, not the file layout's) nor upstream's shell failing to
# run perf-read-vdso32, a helper Debian does not ship: upstream runs it for a [vdso] sample
# of a process whose maps do not tell it the process is 64-bit (a -a recording catches such
# processes when the machine is busy; upstream perf trace shows the same of a fresh exec):
# the machine's processes at that moment, not the file; fails when there is none
warnings() {
	grep -v -e '^Warning:$' -e '^Processed [0-9]* events and lost [0-9]* chunks!$' \
		-e '^Check IO/CPU overload!$' -e '^$' \
		-e '^sh: 1: perf-read-vdsox\{0,1\}32: not found$' "$1" | head -1 | grep .
}

# stacks FILE OUT: upstream's user stacks of the workload in FILE (lib/user-stacks.awk)
stacks() {
	on "$1" "$UPSTREAM_PERF" script -F comm,ip,sym,dso 2>/dev/null |
		awk -f "$PERF_SRCDIR/tools/perf/tests/shell/lib/user-stacks.awk" >"$2"
}

# same_structure NAME: the workload's call structure as upstream 7.2 reads it is the same in
# both files of row NAME: a user stack that holds at least a tenth of one file's workload
# samples (and 5 of them) is in the other file too; prints what is missing
same_structure() {
	stacks "t.$1.data" "t.$1.stacks"
	stacks "o.$1.data" "o.$1.stacks"
	awk -v row="$1" '
	FNR == 1 { side++ }
	$2 == "TOTAL" { total[side] = $1; next }
	{ c = $1; sub(/^[0-9]+ /, ""); n[side, $0] = c; seen[$0] = 1 }
	END {
		if (!total[1] || !total[2]) {
			printf "%s: no workload samples with user stacks (perf 6.1: %d, ours: %d)\n", row, total[1], total[2]
			exit
		}
		for (s in seen)
			for (a = 1; a <= 2; a++) {
				b = 3 - a
				if (n[a, s] >= 5 && n[a, s] * 10 >= total[a] && !((b, s) in n))
					printf "%s: the stack %s (%d of %d samples in %s) is not in %s\n", row, s,
						n[a, s], total[a], a == 1 ? "perf 6.1 file" : "ours",
						b == 1 ? "perf 6.1 file" : "ours"
			}
	}' "t.$1.stacks" "o.$1.stacks"
}

# upstream_reads NAME TAG ARGS...: upstream 7.2's `perf ARGS -i` of our file of row NAME ends
# without a line on stderr that it does not also print for perf 6.1's file (upstream runs
# without /sys here, see upstream-perf: "Failed to read max cpus" once it reads two events'
# THREAD_MAP and CPU_MAP is its setting, not our file); prints the problem
upstream_reads() {
	local name=$1 what=$2 w
	shift 2
	on "o.$name.data" "$UPSTREAM_PERF" "$@" >"o.$name.up.$what.txt" 2>"o.$name.up.$what.err" || {
		echo "$name: upstream perf $* of ours failed: $(tail -1 "o.$name.up.$what.err")"
		return
	}
	w=$(warnings "o.$name.up.$what.err") || return 0
	on "t.$name.data" "$UPSTREAM_PERF" "$@" >/dev/null 2>"t.$name.up.$what.err"
	if grep -qxF "$w" "t.$name.up.$what.err"; then
		verbose "$name: upstream perf $* also says on perf 6.1's file: $w"
	else
		echo "$name: upstream perf $* of ours warned: $w"
	fi
}

# compare NAME: the differences between perf 6.1's (t.*) and our (o.*) descriptions of row
# NAME that the table does not allow, one per line; the allowances used go to NAME.used
compare() {
	awk -v row="$1" -v used="$1.used" -v table="$table" '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	function allowed(what) {
		if ((row SUBSEP what) in allow) { print row " " what > used; return 1 }
		if (("*" SUBSEP what) in allow) { print "* " what > used; return 1 }
		return 0
	}
	# one evlist line: name, then "key: value" pairs
	function parse_evlist(line, side, idx,    p, rest, n, parts, i, kv) {
		p = index(line, ": type: ")
		if (!p) return 0
		name[side, idx] = substr(line, 1, p - 1)
		rest = substr(line, p + 2)
		gsub(/\{ sample_period, sample_freq \}/, "sample_period", rest)
		n = split(rest, parts, ", ")
		for (i = 1; i <= n; i++) {
			kv = index(parts[i], ": ")
			if (!kv) continue
			field[side, idx, substr(parts[i], 1, kv - 1)] = substr(parts[i], kv + 2)
			keys[idx, substr(parts[i], 1, kv - 1)] = 1
		}
		return 1
	}
	function diff(what, msg) {
		if (!allowed(what)) print row ": " msg
	}
	BEGIN {
		while ((getline l < table) > 0) {
			if (l !~ /^allow /) continue
			sub(/^allow +/, "", l)
			split(l, a, "|")
			split(trim(a[1]), w, / +/)
			allow[w[1], w[2]] = 1
		}
		for (s = 0; s < 2; s++) {
			f = (s ? "o" : "t") "." row
			n = 0
			while ((getline l < (f ".evlist")) > 0)
				if (parse_evlist(l, s, n)) n++
			nev[s] = n
			stats = 1
			while ((getline l < (f ".stats")) > 0) {
				if (l ~ / stats:$/ && l !~ /^Aggregated/) stats = 0
				if (stats && match(l, /^ *[A-Z_0-9]+ events: +[0-9]+/)) {
					split(trim(l), a, / +/)
					if (a[1] != "TOTAL" && a[3] > 0) rec[s, a[1]] = 1; types[a[1]] = 1
				}
			}
			while ((getline l < (f ".header")) > 0)
				if (sub(/^# missing features: */, "", l)) {
					m = split(trim(l), a, / +/)
					for (i = 1; i <= m; i++) { miss[s, a[i]] = 1; feats[a[i]] = 1 }
				}
		}
		if (nev[0] != nev[1])
			diff("events", "events: perf 6.1 " nev[0] ", ours " nev[1])
		for (i = 0; i < nev[0] && i < nev[1]; i++) {
			if (name[0, i] != name[1, i])
				diff("attr:name", "event " i ": name: perf 6.1 " name[0, i] ", ours " name[1, i])
			for (k in keys) {
				split(k, kk, SUBSEP)
				if (kk[1] != i || kk[2] == "size") continue
				v0 = ((0, i, kk[2]) in field) ? field[0, i, kk[2]] : "(none)"
				v1 = ((1, i, kk[2]) in field) ? field[1, i, kk[2]] : "(none)"
				if (v0 != v1)
					diff("attr:" kk[2], "event " i " (" name[0, i] "): " kk[2] ": perf 6.1 " v0 ", ours " v1)
			}
		}
		# perf 6.1 cannot read the records: counted as one allowance, none compared
		if (allowed("read:perf-6.1")) delete types
		for (t in types)
			if (((0, t) in rec) != ((1, t) in rec))
				diff("record:" t, "record " t ": " (((0, t) in rec) ? "perf 6.1 only" : "ours only"))
		for (t in feats)
			if (((0, t) in miss) != ((1, t) in miss))
				diff("feature:" t, "feature " t ": " (((0, t) in miss) ? "ours only" : "perf 6.1 only"))
	}'
}

rows=$(grep -c '^run ' "$table")
[ "$rows" -gt 0 ] || fail "no rows in $table"
: >problems
: >used.all
grep '^run ' "$table" | while IFS='|' read -r name opts work; do
	name=$(echo "${name#run }" | tr -d ' ')
	# `perf` in the workload is the perf under test
	work=$(echo "$work" | sed "s|^ *perf |$WORKLOAD_PERF |")
	pipe=0
	case " $opts " in
	*" -o - "*) pipe=1 ;;
	esac
	# perf 6.1 itself aborts now and then here (one run in a few dozen, not reproducible):
	# it is the oracle, not what is tested, so it gets three tries
	tries=0
	until record "$SYSTEM_PERF" "t.$name.data" "t.$name.log"; do
		tries=$((tries + 1))
		verbose "$name: perf 6.1 record failed (try $tries): $(tail -1 "t.$name.log")"
		[ "$tries" -lt 3 ] && continue
		echo "$name: perf 6.1 record $opts failed 3 times: $(tail -1 "t.$name.log")" >>problems
		continue 2
	done
	if ! record "$PERF" "o.$name.data" "o.$name.log"; then
		echo "$name: our perf record $opts failed: $(tail -1 "o.$name.log")" >>problems
		continue
	fi
	if ! describe "t.$name.data" "t.$name" || ! describe "o.$name.data" "o.$name"; then
		echo "$name: perf 6.1 cannot describe the files (evlist, report --stats, --header-only)" >>problems
		continue
	fi
	compare "$name" >>problems
	[ -f "$name.used" ] && cat "$name.used" >>used.all
	if ! grep -qx "$name read:perf-6.1" "$name.used" 2>/dev/null; then
		for e in "o.$name".*.err; do
			[ -s "$e" ] && echo "$name: perf 6.1 warned reading ours ($e): $(head -1 "$e")" >>problems
		done
		on "o.$name.data" "$SYSTEM_PERF" script >"o.$name.sys.txt" 2>"o.$name.sys.err" ||
			echo "$name: perf 6.1 script of ours failed: $(tail -1 "o.$name.sys.err")" >>problems
		warnings "o.$name.sys.err" && echo "$name: perf 6.1 script of ours warned: $(warnings "o.$name.sys.err")" >>problems
	fi
	if [ "$have_upstream" = 1 ]; then
		upstream_reads "$name" script script >>problems
		upstream_reads "$name" report report --stdio >>problems
		case " $opts " in
		*" -g "* | *--call-graph*) same_structure "$name" >>problems ;;
		esac
	fi
	verbose "$name: $(sort -u "$name.used" 2>/dev/null | tr '\n' ',')"
done

# an allowance of one row that no longer applies is stale: the table must say what is true
grep '^allow ' "$table" | grep -v '^allow \*' | while IFS='|' read -r what _; do
	set -- ${what#allow }
	grep -qxF "$1 $2" used.all || echo "allowance '$1 $2' was not needed: remove it from the table" >>problems
done

if [ -s problems ]; then
	verbose "$(cat problems)"
	fail "$(wc -l <problems) difference(s) from perf 6.1 in $rows rows; first: $(head -1 problems)"
fi
pass
