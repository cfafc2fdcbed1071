#!/bin/sh
# perf script report flamegraph: each bad option or input one error line and perf's exit status; default outputs, -o -, filters (--comms, --pid, --tid, --time) and -e count what perf script counts; html and svg self-contained
# SPDX-License-Identifier: GPL-2.0
. "$(dirname "$0")"/lib.sh

need_perf
need_cmd python3
unpack_corpus
S="--symfs=$TMPDIR/symfs --kallsyms=$TMPDIR/kallsyms"
F=$C/fp.data

# bad ARGS STATUS PATTERN: perf script ARGS fails with STATUS and one stderr line matching
bad() {
	want=$1 pat=$2
	shift 2
	# shellcheck disable=SC2086 # S is a list of words
	"$PERF" script "$@" >out 2>err
	got=$?
	[ "$got" = "$want" ] || fail "perf script $*: exit $got, not $want ($(head -1 err))"
	# a usage error prints the usage after its line (as every perf command does)
	grep -Eq -- "$pat" err || fail "perf script $*: no '$pat' in: $(head -3 err)"
	[ "$want" = 129 ] || [ "$(wc -l <err)" = 1 ] || fail "perf script $*: more than one line: $(cat err)"
	[ ! -s out ] || fail "perf script $*: wrote to stdout: $(head -2 out)"
}
bad 129 "which report" report
bad 129 "no report 'nosuch'" report nosuch
bad 129 "--format takes html, json or svg, not 'pdf'" report flamegraph -i "$F" -f pdf
bad 129 "--colorscheme takes blue-green or orange, not 'red'" report flamegraph -i "$F" --colorscheme red
bad 129 "--minwidth takes a number of pixels from 0 to 1200, not 'x'" report flamegraph -i "$F" --minwidth x
bad 129 "--minwidth takes .* not '-1'" report flamegraph -i "$F" --minwidth=-1
bad 129 "unexpected argument 'extra'" report flamegraph -i "$F" -- extra
bad 129 "unknown option" report flamegraph -i "$F" --nosuch
bad 255 "no event 'nosuch' in the input \(its events: 'cpu-clock:pppH'\)" report flamegraph -i "$F" -e nosuch
bad 255 "cannot write 'nodir/x.html': No such file or directory" report flamegraph $S -i "$F" -o nodir/x.html
bad 255 "failed to open missing.data" report flamegraph -i missing.data
[ ! -e flamegraph.html ] || fail "a failed run left flamegraph.html"

# the default outputs, named on stdout as upstream names them
for f in html:flamegraph.html json:stacks.json svg:flamegraph.svg; do
	# shellcheck disable=SC2086
	"$PERF" script report flamegraph $S -i "$F" -f "${f%%:*}" >out 2>err ||
		fail "-f ${f%%:*}: $(head -1 err)"
	[ "$(cat out)" = "dumping data to ${f#*:}" ] || fail "-f ${f%%:*} says: $(cat out)"
	[ -s "${f#*:}" ] || fail "-f ${f%%:*} wrote no ${f#*:}"
done
# shellcheck disable=SC2086
"$PERF" script report flamegraph $S -i "$F" -f json -o - >stdout.json 2>err || fail "-o -: $(head -1 err)"
cmp -s stdout.json stacks.json || fail "-o - writes other stacks than -o stacks.json"

# total SAMPLES-JSON: the samples a stacks.json counts
total() {
	python3 -c 'import json, sys
def s(n): return n["v"] + sum(s(c) for c in n["c"])
print(s(json.load(open(sys.argv[1]))))' "$1"
}
# the filters: the stacks count the samples perf script prints with the same filter
pid=$("$PERF" script -F pid -i "$C/switch.data" 2>/dev/null | awk 'NR == 1 { print $1 }')
t=$("$PERF" script -F time -i "$C/switch.data" 2>/dev/null | awk 'NR == 5 { sub(/:$/, "", $1); print $1 }')
for filter in "--comms perf" "--pid $pid" "--tid $pid" "--time $t," ""; do
	# shellcheck disable=SC2086
	want=$("$PERF" script $S -F comm -i "$C/switch.data" $filter 2>/dev/null | wc -l)
	# shellcheck disable=SC2086
	"$PERF" script report flamegraph $S -i "$C/switch.data" $filter -f json -o f.json >/dev/null 2>err ||
		fail "$filter: $(head -1 err)"
	got=$(total f.json)
	[ "$got" = "$want" ] || fail "flamegraph $filter counts $got samples, perf script $want"
done
# shellcheck disable=SC2086
"$PERF" script report flamegraph $S -i "$C/switch.data" --comms nosuch -f json -o f.json >/dev/null 2>&1
[ "$(total f.json)" = 0 ] || fail "--comms nosuch still counts samples"

# html and svg: nothing outside the file (no src=, href= or url(), no http but the SVG
# namespace), the data and code inline, the SVG well-formed XML
for f in flamegraph.html flamegraph.svg; do
	grep -Eiq 'src=|href=|url\(|@import' "$f" && fail "$f refers to something outside itself"
	grep -v 'xmlns="http://www.w3.org/2000/svg"' "$f" | grep -qi 'https\?://' &&
		fail "$f names a URL: $(grep -i '://' "$f" | head -1 | cut -c1-100)"
done
grep -q "Content-Security-Policy\" content=\"default-src 'none'" flamegraph.html ||
	fail "the page does not forbid fetches"
grep -q 'id="fg-data"' flamegraph.html || fail "the page has no data block"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' flamegraph.svg ||
	fail "flamegraph.svg is not well-formed XML"
# the svg: a box per frame of the stacks (minwidth 0), the root's count in its title
# shellcheck disable=SC2086
"$PERF" script report flamegraph $S -i "$F" -f svg --minwidth 0 -o all.svg >/dev/null 2>&1 ||
	fail "-f svg --minwidth 0 failed"
boxes=$(grep -c '<g class="f"' all.svg)
nodes=$(python3 -c 'import json, sys
def n(x): return 1 + sum(n(c) for c in x["c"])
print(n(json.load(open(sys.argv[1]))))' stacks.json)
[ "$boxes" = "$nodes" ] || fail "the svg has $boxes boxes, the stacks $nodes nodes"
# --minwidth drops boxes: at 100px fewer, never the root
# shellcheck disable=SC2086
"$PERF" script report flamegraph $S -i "$F" -f svg --minwidth 100 -o wide.svg >/dev/null 2>&1
few=$(grep -c '<g class="f"' wide.svg)
[ "$few" -ge 1 ] && [ "$few" -lt "$boxes" ] || fail "--minwidth 100 kept $few of $boxes boxes"
# orange and blue-green differ in colour only
# shellcheck disable=SC2086
"$PERF" script report flamegraph $S -i "$F" -f svg --minwidth 0 --colorscheme orange -o orange.svg >/dev/null 2>&1
[ "$(grep -c '<g class="f"' orange.svg)" = "$boxes" ] && ! cmp -s orange.svg all.svg ||
	fail "--colorscheme orange: not the same boxes in other colours"
pass
