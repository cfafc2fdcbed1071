#!/bin/sh
# --unwind=dwarf on calls_cet.dwarf.data: script (also with source lines) and report exactly upstream 7.2's but in the 4 samples it cuts short
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture perf72/upstream/calls_cet.dwarf.script-noinline.txt
G=$FIXTURES/perf72
DATA=$G/data/calls_cet.dwarf.data
gzip -dc "$G/kallsyms.gz" >kallsyms || fail "cannot unpack $G/kallsyms.gz"

# The samples where upstream's libdw unwinding gives two user frames only (`rec main`,
# `mid top`): each was taken on the `ret` after `pop %rbp`, where the CFI still says rbp is
# saved at CFA-16, below SP and so outside the dump; libdwfl loses rbp there and with it
# every rbp-based CFA above. rbp already holds the caller's value: we go on to _start.
SHORT="2995.944074 2996.310249 2996.328255 2996.606243"

# script_vs WANT GOT [SRCLINE]: equal blocks but in the SHORT samples, where GOT is WANT's
# block with more frames after it, ending at calls_cet's _start (with SRCLINE, then its
# source line: "??:0", as upstream names an address no unit covers); prints how many such
# samples
script_vs() {
	awk -v want="$1" -v short="$SHORT" -v srcline="${3:-}" '
	BEGIN {
		RS = ""; FS = "\n"
		while ((getline b < want) > 0) w[++nw] = b
		n = split(short, s, " ")
		for (i = 1; i <= n; i++) listed[s[i]] = 1
	}
	{
		if ($0 == w[NR]) next
		split($1, h, " ")
		t = h[3]; sub(/:$/, "", t)
		if (!(t in listed)) { print "sample " NR " (" t ") differs from upstream"; bad = 1; exit 1 }
		last = srcline ? NF - 1 : NF
		if (index($0, w[NR] "\n") != 1 || $last !~ / _start\+0x20 \(\/tmp\/w\/calls_cet\)$/ ||
		    (srcline && $NF != "  ??:0")) {
			print "sample " NR " (" t ") is not upstream'"'"'s two frames continued to _start"
			bad = 1; exit 1
		}
		longer++
	}
	END {
		if (bad) exit 1
		if (NR != nw) { print NR " samples, upstream " nw; exit 1 }
		print longer + 0
	}' "$2"
}

for mode in dwarf auto; do
	"$PERF" script --no-inline --unwind=$mode --symfs="$G/symfs" --kallsyms=kallsyms \
		-i "$DATA" >script.$mode 2>script.$mode.err ||
		fail "--unwind=$mode: perf script failed: $(cat script.$mode.err)"
	[ -s script.$mode.err ] && fail "--unwind=$mode: perf script says: $(cat script.$mode.err)"
	n=$(script_vs "$G/upstream/calls_cet.dwarf.script-noinline.txt" script.$mode) ||
		fail "--unwind=$mode: $n"
	[ "$n" = 4 ] || fail "--unwind=$mode: $n samples longer than upstream's, not the 4 listed"
	verbose "script --unwind=$mode: upstream's output but the 4 samples it cuts short"
done

# source lines too, inline frames on and off (upstream's output made by regen.sh)
E=$(dirname "$0")/../data/expected
need_cmd zstd
for args in "-F +srcline --no-inline" "-F +srcline"; do
	n=$(echo "$args" | tr -c 'a-z\n' '-' | sed -E 's/-+/-/g; s/^-|-$//g')
	zstd -dcq "$E/unwind-calls_cet.dwarf.script-$n.txt.zst" >"src-$n.want" ||
		fail "cannot read unwind-calls_cet.dwarf.script-$n.txt.zst"
	# shellcheck disable=SC2086
	"$PERF" script $args --unwind=dwarf --symfs="$G/symfs" --kallsyms=kallsyms -i "$DATA" \
		>"src-$n.got" 2>"src-$n.err" || fail "script $args failed: $(cat "src-$n.err")"
	script_vs "src-$n.want" "src-$n.got" srcline >"src-$n.diff" ||
		fail "script $args: $(cat "src-$n.diff")"
	[ "$(cat "src-$n.diff")" = 4 ] ||
		fail "script $args: $(cat "src-$n.diff") samples longer than upstream's, not the 4 listed"
	verbose "script $args: upstream's but the 4 samples it cuts short"
done

strip() {
	grep -v -E '^# \((Tip:|Cannot load tips)' "$1"
}

# report -g folded against upstream's file: the SHORT samples' weight (1 sample = 100/514 %)
# moves from upstream's two-frame chains (printed when >= 0.5%, perf's default threshold:
# `rec main`, 3 samples) to the whole chains they start; everything else is equal
"$PERF" report --stdio --no-inline --no-children -g folded --unwind=dwarf --symfs="$G/symfs" \
	--kallsyms=kallsyms -i "$DATA" >folded.out 2>folded.err ||
	fail "perf report -g folded failed: $(cat folded.err)"
strip folded.out >folded.got
strip "$G/upstream/calls_cet.dwarf.report-folded.txt" >folded.want
# the header and the lines that are not chains: as upstream's
grep -v '^[0-9.]*% ' folded.got >folded.got.rest
grep -v '^[0-9.]*% ' folded.want >folded.want.rest
cmp -s folded.got.rest folded.want.rest || fail "report -g folded: header lines differ from upstream's"
awk -v nshort="$(echo $SHORT | wc -w)" '
	FNR == 1 { file++ }
	/^# Samples: / { u = 100 / $3 }
	!/^[0-9.]+% / { next }
	{ p = $1; sub(/%$/, "", p); c = substr($0, length($1) + 2) }
	file == 1 { up[c] += p; next }
	{ ours[c] += p }
	# samples in a percentage: a whole number of them, give or take two roundings (0.005 each)
	function samples(pct,  k) {
		k = int(pct / u + 0.5)
		if (pct - k * u > 0.011 || k * u - pct > 0.011) return -1
		return k
	}
	END {
		for (c in up) {
			if (c in ours) continue
			n = 0
			for (o in ours) if (index(o, c ";") == 1) { full = o; n++ }
			if (n != 1 || split(c, f, ";") != 2) { print "upstream chain " c " is not ours"; exit 1 }
			up[full] += up[c]
			moved += samples(up[c])
			delete up[c]
		}
		for (o in ours) {
			k = samples(ours[o] - up[o])
			if (k < 0) { print "chain " o ": " ours[o] "% vs upstream " up[o] "%"; exit 1 }
			moved += k
		}
		if (moved != nshort) { print moved " samples of weight moved, not " nshort; exit 1 }
	}' folded.want folded.got >folded.diff || fail "report -g folded: $(cat folded.diff)"
verbose "report -g folded: upstream's but for its short chains"

# the graph modes: upstream's own report of the same file without the SHORT samples (each
# cut out of the time range by 5 us either side) is ours, byte for byte
need_upstream_perf
T=2990
for t in $SHORT; do
	T="$T,$(awk -v t="$t" 'BEGIN { printf "%.6f %.6f", t - 0.000005, t + 0.000005 }')"
done
T="$T,"
for mode in --no-children --children; do
	"$UPSTREAM_PERF" report --stdio --no-inline $mode --symfs="$G/symfs" --kallsyms=kallsyms \
		--time "$T" -i "$DATA" >report$mode.want 2>/dev/null
	[ $? = 2 ] && skip "upstream perf could not be set up"
	"$PERF" report --stdio --no-inline $mode --unwind=dwarf --symfs="$G/symfs" \
		--kallsyms=kallsyms --time "$T" -i "$DATA" >report$mode.out 2>report$mode.err ||
		fail "report $mode failed: $(cat report$mode.err)"
	grep -q '^# Samples: 510 ' report$mode.out || fail "report $mode: --time did not cut out 4 samples"
	strip report$mode.want >want
	strip report$mode.out >got
	if ! cmp -s want got; then
		verbose "$(diff want got | head -40)"
		fail "report $mode without the 4 samples differs from upstream's"
	fi
	verbose "report $mode: upstream's without the 4 samples"
done
exit 0
