#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates the upstream perf 7.2 outputs in this directory (see README). Needs upstream
# perf (scripts/upstream-perf: make test-deps, root) and zstd; run from anywhere: bash regen.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../../../.." && pwd)
up=$src/scripts/upstream-perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$tmp/fixtures
for d in perf72 real-defer; do
	"$here/../unpack-fixtures.sh" $d "$fx"
done
gzip -dc "$fx/perf72/kallsyms.gz" >"$tmp/ks72"
gzip -dc "$fx/real-defer/kallsyms.gz" >"$tmp/ksdef"
mkdir "$tmp/nosymfs"
: >"$tmp/noks"

# the input path perf prints after '@' becomes FILE: the tests run from other directories
norm() { sed -E 's#^(0x[0-9a-f]+)@/host/[^ ]* \[#\1@FILE [#'; }

"$up" script -D --no-inline --symfs="$tmp/nosymfs" --kallsyms="$tmp/noks" \
	-i "$here/../dump-kinds.data" 2>/dev/null | norm >"$here/dump-kinds.D.txt"

for n in sched calls.pipe thr.fpz; do
	"$up" script -D --no-inline --symfs="$fx/perf72/symfs" --kallsyms="$tmp/ks72" \
		-i "$fx/perf72/data/$n.data" 2>/dev/null | norm | zstd -19 -q -c >"$here/perf72-$n.D.txt.zst"
done
# 21 MB in full: the first records (both stack-dump samples and side-band) are enough
"$up" script -D --no-inline --symfs="$fx/perf72/symfs" --kallsyms="$tmp/ks72" \
	-i "$fx/perf72/data/calls_cet.dwarf.data" 2>/dev/null | norm | head -n 20000 |
	zstd -19 -q -c >"$here/perf72-calls_cet.dwarf.D.head.txt.zst"
for n in calls_u twoevents; do
	"$up" script -D --no-merge-callchains --no-inline --symfs="$fx/real-defer/symfs" \
		--kallsyms="$tmp/ksdef" -i "$fx/real-defer/data/$n.data" 2>/dev/null | norm |
		zstd -19 -q -c >"$here/real-defer-$n.D-nomerge.txt.zst"
done

for d in perf72 real-defer; do
	for f in "$fx/$d"/data/*.data; do
		n=$(basename "$f" .data)
		"$up" script --header-only -i "$f" 2>/dev/null >"$here/$d-$n.header.txt"
		"$up" script --header-only -I -i "$f" 2>/dev/null >"$here/$d-$n.header-I.txt"
	done
done
# pipe mode: the header block, then the features as their records come
"$up" script --header --no-inline --symfs="$fx/perf72/symfs" --kallsyms="$tmp/ks72" \
	-i "$fx/perf72/data/calls.pipe.data" 2>/dev/null | head -n 40 >"$here/perf72-calls.pipe.header-pipe.head.txt"

# side-band records shown between samples (tests/shell/script-sideband.sh)
for n in thr.fpz sched; do
	"$up" script --no-inline --show-mmap-events --show-task-events --symfs="$fx/perf72/symfs" \
		--kallsyms="$tmp/ks72" -i "$fx/perf72/data/$n.data" 2>/dev/null |
		zstd -19 -q -c >"$here/perf72-$n.sideband.txt.zst"
done

# inline frames and source lines (tests/shell/inline-golden.sh): one file per case of
# inline-cases.txt; a report's random Tip line is kept, the test leaves it out
grep -v '^#' "$here/inline-cases.txt" | while read -r case rec args; do
	# shellcheck disable=SC2086
	"$up" $args --symfs="$fx/perf72/symfs" --kallsyms="$tmp/ks72" \
		-i "$fx/perf72/data/$rec.data" 2>/dev/null | zstd -19 -q -c >"$here/inline-$case.txt.zst"
done

# source lines of DWARF-unwound chains (tests/shell/unwind-dwarf-upstream.sh): crt1's _start,
# covered by no unit, is "??:0"
for args in "-F +srcline --no-inline" "-F +srcline"; do
	n=$(echo "$args" | tr -c 'a-z\n' '-' | sed -E 's/-+/-/g; s/^-|-$//g')
	# shellcheck disable=SC2086
	"$up" script $args --symfs="$fx/perf72/symfs" --kallsyms="$tmp/ks72" \
		-i "$fx/perf72/data/calls_cet.dwarf.data" 2>/dev/null |
		zstd -19 -q -c >"$here/unwind-calls_cet.dwarf.script-$n.txt.zst"
done
