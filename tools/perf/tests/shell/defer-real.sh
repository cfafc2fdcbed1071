#!/bin/sh
# Deferred callchains of real Linux 7.2 recordings: stitched and unmerged output vs upstream
. "$(dirname "$0")"/lib.sh

need_perf
need_fixture real-defer/upstream
R=$FIXTURES/real-defer
gzip -dc "$R/kallsyms.gz" >kallsyms || fail "cannot unpack $R/kallsyms.gz"

# The merged output we must print, derived from upstream's unmerged one (see the fixture
# README): every sample block with its "(cookie)" line replaced by the frames of the
# DEFERRED CALLCHAIN record with the same tid and cookie, wherever that record is. The comm
# is the one at sample time, which is what the unmerged output shows. Blocks are sorted, so
# the check does not depend on the order of delivery.
derive_merged() {
	awk '
	function tid_of(line,   n, f, i) {
		n = split(line, f, " ")
		for (i = 2; i <= n; i++)
			if (f[i] ~ /^[0-9]+\.[0-9]+:$/)
				return f[i - 1]
		return ""
	}
	function flush(   key) {
		if (nb == 0)
			return
		if (blk[1] ~ /: DEFERRED CALLCHAIN \[cookie: [0-9a-f]+\]$/) {
			c = blk[1]
			sub(/.*cookie: /, "", c)
			sub(/\]$/, "", c)
			key = tid_of(blk[1]) " " c
			if (!(key in rec)) {
				rec[key] = ""
				for (i = 2; i <= nb; i++)
					rec[key] = rec[key] blk[i] "\n"
			}
		} else {
			ns++
			for (i = 1; i <= nb; i++)
				smp[ns, i] = blk[i]
			snb[ns] = nb
		}
		nb = 0
	}
	/^$/ { flush(); next }
	{ blk[++nb] = $0 }
	END {
		flush()
		for (s = 1; s <= ns; s++) {
			out = ""
			for (i = 1; i <= snb[s]; i++) {
				line = smp[s, i]
				if (line ~ / \(cookie\) \(\[unknown\]\)$/) {
					split(line, f, " ")
					key = tid_of(smp[s, 1]) " " f[1]
					if (key in rec) {
						out = out rec[key]
						continue
					}
				}
				out = out line "\n"
			}
			printf "%s\n", out
		}
	}' "$1"
}

# one line per block (frames joined), sorted: a multiset of samples
blocks() {
	awk 'BEGIN { RS = ""; FS = "\n" } { gsub(/\n/, "|"); print }' "$1" | sort
}

failed=""
for data in "$R"/data/*.data; do
	name=$(basename "$data" .data)
	[ -f "$R/upstream/$name.script-nomerge.txt" ] || continue
	"$PERF" script --no-merge-callchains --symfs="$R/symfs" --kallsyms=kallsyms -i "$data" \
		>"$name.nomerge" 2>"$name.err" || fail "$name: perf script --no-merge-callchains failed: $(cat "$name.err")"
	if ! cmp -s "$name.nomerge" "$R/upstream/$name.script-nomerge.txt"; then
		verbose "$(diff "$R/upstream/$name.script-nomerge.txt" "$name.nomerge" | head -20)"
		failed="$failed $name(--no-merge-callchains)"
	fi
	"$PERF" script --symfs="$R/symfs" --kallsyms=kallsyms -i "$data" \
		>"$name.merged" 2>"$name.err" || fail "$name: perf script failed: $(cat "$name.err")"
	derive_merged "$R/upstream/$name.script-nomerge.txt" >"$name.want"
	blocks "$name.want" >"$name.want.blocks"
	blocks "$name.merged" >"$name.got.blocks"
	if ! cmp -s "$name.want.blocks" "$name.got.blocks"; then
		verbose "$(diff "$name.want.blocks" "$name.got.blocks" | tr '|' '\n' | head -30)"
		failed="$failed $name(merged)"
	fi
	# no sample may keep a cookie that has a record
	if [ "$name" != calls_nodefer ] && grep -q '(cookie)' "$name.merged" &&
	   [ "$(grep -c '(cookie)' "$name.merged")" != "$(grep -c '(cookie)' "$name.want")" ]; then
		failed="$failed $name(cookies)"
	fi
done
[ -z "$failed" ] || fail "differs from upstream:$failed"
exit 0
