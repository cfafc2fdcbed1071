#!/bin/sh
# perf script report flamegraph's HTML page in headless Chromium: no console error, no request; boxes' names and widths equal upstream's perf script stacks; zoom, search, reset and the callee view work; a screenshot of the demo recording
# SPDX-License-Identifier: GPL-2.0
# perf test timeout: 300
. "$(dirname "$0")"/lib.sh
#
# The driver (lib/flamegraph-browser.js) speaks the DevTools protocol through puppeteer-core,
# which make test-deps installs into $PERF_TEST_NODE (default /var/cache/perf-test-node), with
# Debian's chromium. The oracle for the boxes is perf script's text of the same file folded
# into stacks (fold() below): on the perf72 fixture calls.fp.data upstream 7.2's perf script
# when its tree is here, a tool no one here wrote (else ours, and a partial result says so);
# on the demo recording (deferred callchains, which upstream stitches otherwise: see
# defer-real.sh) ours, whose text comes from script-output.c, not from the flame graph's
# tree. The screenshot of the demo recording is kept at $PERF_FLAMEGRAPH_SHOT when set (the
# README's, Documentation/images/flamegraph-demo.png).

need_perf
need_cmd node gzip
cases 2	# the fixture against upstream's perf script; the demo recording against ours
node_dir=${PERF_TEST_NODE:-/var/cache/perf-test-node}
chromium=$(command -v chromium || command -v chromium-browser) ||
	skip "no chromium (Debian's chromium package): make test-deps as root"
[ -d "$node_dir/node_modules/puppeteer-core" ] ||
	skip "no puppeteer-core in $node_dir/node_modules: make test-deps as root (npm install --prefix $node_dir puppeteer-core)"
export NODE_PATH="$node_dir/node_modules"
D=$PERF_SRCDIR/demo
gzip -dc "$D/kallsyms.gz" >kallsyms || fail "cannot unpack $D/kallsyms.gz"
need_fixture perf72/data
gzip -dc "$FIXTURES/perf72/kallsyms.gz" >k72 || fail "cannot unpack the perf72 kallsyms"

# fold: perf script -F comm,pid,ip,sym text into "proc;outermost;...;leaf COUNT" lines
fold() {
	awk '
	function flush(   s, i) {
		if (proc == "")
			return
		s = proc
		for (i = n; i >= 1; i--)
			s = s ";" fr[i]
		cnt[s]++
		proc = ""
	}
	/^[^\t]/ {
		flush()
		line = $0
		sub(/ +$/, "", line)
		pid = line
		sub(/.* /, "", pid)
		comm = line
		sub(/ +[0-9-]+$/, "", comm)
		proc = pid == 0 ? comm : comm " (" pid ")"
		n = 0
		next
	}
	/^\t/ {
		f = $0
		sub(/^\t *[0-9a-f]+ /, "", f)
		sub(/ \(inlined\)$/, "", f)
		fr[++n] = f
		next
	}
	{ flush() }
	END {
		flush()
		for (s in cnt)
			print s, cnt[s]
	}'
}

# check NAME FILE ORACLE: the page of FILE (every box kept) against the folded stacks of
# FILE from ORACLE's perf script (upstream or ours)
check() {
	name=$1 file=$2
	if [ "$3" = upstream ]; then
		# shellcheck disable=SC2086 # S is a list of words
		"$UPSTREAM_PERF" script $S -F comm,pid,ip,sym -i "$file" >"$name.txt" 2>"$name.err" ||
			fail "$name: upstream perf script failed: $(tail -1 "$name.err")"
	else
		# shellcheck disable=SC2086
		"$PERF" script $S -F comm,pid,ip,sym -i "$file" >"$name.txt" 2>"$name.err" ||
			fail "$name: perf script failed: $(tail -1 "$name.err")"
	fi
	fold <"$name.txt" >"$name.folded"
	[ -s "$name.folded" ] || fail "$name: no stacks in perf script's output"
	# shellcheck disable=SC2086
	"$PERF" script report flamegraph $S -i "$file" --minwidth 0 -o "$name.html" >/dev/null 2>"$name.err" ||
		fail "$name: perf script report flamegraph failed: $(tail -1 "$name.err")"
	timeout 120 node "$lib_dir/lib/flamegraph-browser.js" "$chromium" "$name.html" "$name.folded" \
		"$name.png" >"$name.log" 2>&1
	grep -q '^ok ' "$name.log" || fail "$name: $(grep -m1 FAIL "$name.log" || tail -1 "$name.log")"
	[ -s "$name.png" ] || fail "$name: no screenshot"
	verbose "$name: $(cat "$name.log")"
}

S="--symfs=$FIXTURES/perf72/symfs --kallsyms=$TMPDIR/k72"
if upstream_perf; then
	check fp "$FIXTURES/perf72/data/calls.fp.data" upstream
else
	not_tested "calls.fp.data against upstream's perf script (no upstream perf 7.2: make test-deps as root): checked against ours"
	check fp "$FIXTURES/perf72/data/calls.fp.data" ours
fi
S="--symfs=$D/symfs --kallsyms=$TMPDIR/kallsyms"
check calls "$D/calls.data" ours
if [ -n "${PERF_FLAMEGRAPH_SHOT:-}" ]; then
	cp calls.png "$PERF_FLAMEGRAPH_SHOT" || fail "cannot keep the screenshot at $PERF_FLAMEGRAPH_SHOT"
fi
pass
