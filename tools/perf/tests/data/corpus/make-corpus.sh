#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make-corpus.sh - record the corpus of real recordings that tests/shell/corpus-upstream.sh
# compares with upstream perf 7.2, and the DSOs they need.
#
#	sudo tools/perf/tests/data/corpus/make-corpus.sh [OUTDIR]
#
# Needs the system perf (/usr/bin/perf, 6.1 here), root or perf_event_paranoid <= -1 (for
# -a, tracepoints and --all-cgroups), gcc, g++, xz, git, python3 and our perf (OURS, default
# build/perf: it judges latlow). It writes, in OUTDIR
# (default: the directory of this script):
#
#	NAME.data		one recording per kind the issue lists (table below)
#	kallsyms.gz		this boot's /proc/kallsyms, for --kallsyms
#	symfs/PATH.gz		each DSO with samples in some recording (perf buildid-list
#				--with-hits), gzipped, its code and data zeroed (see reduce_dso):
#				the test unpacks them into a --symfs tree
#
# Each recording is small: a low -F, short runs, -c for the event counts. Every recording is
# of this machine's own programs, so the files are not reproducible byte for byte; re-running
# this script replaces the whole corpus (the test's expectations come from upstream perf at
# test time, never from stored output).
set -eu

PERF=${PERF:-/usr/bin/perf}
PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
# a fixed place: the DSO paths of the programs built here (stl) are recorded
work=/tmp/perf-corpus
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/*.data "$out"/*.data.old	# perf record would keep the old ones as .old
cd "$work"

cat >tiny.c <<'EOF'
#include <stdio.h>
static int sq(int x) { return x * x; }
int main(void) { int i, s = 0; for (i = 0; i < 100; i++) s += sq(i); printf("%d\n", s); return 0; }
EOF
cat >stl.cc <<'EOF'
#include <map>
#include <string>
#include <vector>
#include <algorithm>
#include <iostream>
int main()
{
	std::map<std::string, std::vector<int> > m;
	for (int i = 0; i < 200000; i++)
		m[std::to_string(i % 5000)].push_back(i);
	std::vector<std::string> keys;
	for (auto &kv : m)
		keys.push_back(kv.first);
	std::sort(keys.begin(), keys.end());
	std::cout << keys.size() << std::endl;
	return 0;
}
EOF
g++ -O1 -o stl stl.cc
# a C++ function whose demangled name is over 2000 characters (upstream cuts it at 1023)
cat >long.cc <<'EOF'
template <int N> struct S {};
template <typename... X> struct L {};
#define T S<123456789>
#define T10 T, T, T, T, T, T, T, T, T, T
typedef L<T10, T10, T10, T10, T10, T10, T10> Big;
template <typename A, typename B>
__attribute__((noinline)) long spin(long n)
{
	volatile long x = 0;

	for (long i = 0; i < n; i++)
		x += i;
	return x;
}
__attribute__((noinline)) long caller(long n) { return spin<Big, Big>(n); }
int main() { long s = 0; for (int i = 0; i < 10; i++) s += caller(1000000); return s == 42; }
EOF
g++ -O1 -fno-omit-frame-pointer -o long long.cc
head -c 1000000 /dev/urandom | od -An -tx1 >words	# input for sort and xz
pyloop='s = 0
for i in range(3000000):
    s += i * i
print(s)'

rec() {	# rec NAME PERF-RECORD-ARGS... -- COMMAND...
	local name=$1
	shift
	"$PERF" record -q -o "$out/$name.data" "$@" >/dev/null 2>"$name.log" ||
		{ cat "$name.log" >&2; exit 1; }
}

# name		how it was recorded
# fp		-g (frame pointers) of python3 -c, a loop
rec fp -g -F 499 -- "$PY" -c "$pyloop"
# plain		no callchain: gcc compiling a tiny file
rec plain -F 999 -- gcc -O2 -c -o tiny.o tiny.c
# z		-z (zstd compressed records), -g: g++ building a program with the STL
rec z -z -g -F 299 -- g++ -O1 -c -o stl.o stl.cc
# stl		-g of the STL program itself (long demangled C++ names)
rec stl -g -F 999 -- ./stl
# pipe		pipe mode (-o -), -g: xz -T2 compressing 3 MB of text
"$PERF" record -q -g -F 299 -o - -- xz -T2 -k -c words >"$out/pipe.data" 2>pipe.log
# sys		-a -g: the whole machine for 0.3 s (idle and init text, modules, kernel threads)
rec sys -a -g -F 99 -- sleep 0.3
# irq		tracepoints irq:* and sched:sched_switch, system-wide for 0.2 s; -c 1 makes
#		the period fixed (no PERF_SAMPLE_PERIOD in the samples)
rec irq -a -e 'irq:*' -e sched:sched_switch -c 1 -- sleep 0.2
# tp		tracepoints with callchains: sched process events of a fork-heavy shell loop
rec tp -g -e sched:sched_process_fork -e sched:sched_process_exec \
	-e sched:sched_process_exit -- sh -c 'for i in 1 2 3 4 5 6 7 8; do /bin/true; done'
# switch	--switch-events: sort of the text file
rec switch --switch-events -g -F 499 -- sort -o sorted words
# ns		--namespaces: git in a fresh repository
git init -q repo
rec ns --namespaces -F 999 -- git -C repo status
# cgroup	--all-cgroups: dd copying /dev/zero
rec cgroup --all-cgroups -F 999 -- dd if=/dev/zero of=/dev/null bs=4k count=100000 status=none
# pf		-e page-faults -d (data addresses): find over /usr/share/doc
rec pf -e page-faults -F 999 -d -- find /usr/share/doc -name '*.gz'
# cpu		--sample-cpu -T -d: a fork-heavy shell loop
rec cpu --sample-cpu -T -d -F 999 -- sh -c 'for i in $(seq 60); do /bin/true; done'
# two		two events (cpu-clock and page-faults, both -F 499), -g: sort
rec two -g -e cpu-clock -e page-faults -F 499 -- sort -r -o sorted words
# dwarf		--call-graph dwarf,1024: python3 -c, short
rec dwarf --call-graph dwarf,1024 -F 99 -- "$PY" -c "$pyloop"
# lat		--switch-events -g of two tasks running at once: report's Latency column (upstream
#		shows it when over 1% of the samples ran in parallel)
rec lat -g --switch-events -F 299 -- sh -c \
	'timeout 0.2 yes >/dev/null & timeout 0.2 yes >/dev/null; wait'
# latlow	lat's recording on a loaded machine (two noploop workloads beside it), kept when
#		a few of its samples but under 1% ran in parallel: upstream hides the Latency
#		column, yet equal overheads still order by latency; our perf judges that, up to
#		20 tries
lat_differs() {	# the column hidden, some entry's latency unlike its overhead
	! "$OURS" report --stdio --no-children -i "$1" 2>/dev/null | grep -q Latency &&
		"$OURS" report --stdio --no-children -g none -F overhead,latency -s sym -i "$1" \
			2>/dev/null | awk '/^ *[0-9]/ && $1 != $2 { d = 1 } END { exit !d }'
}
OURS=${OURS:-$here/../../../../../build/perf}
for try in $(seq 20); do
	"$PERF" test -w noploop 3 >/dev/null 2>&1 & l1=$!
	"$PERF" test -w noploop 3 >/dev/null 2>&1 & l2=$!
	rec latlow -g --switch-events -- sh -c \
		'timeout 0.3 yes >/dev/null & timeout 0.3 yes >/dev/null; wait'
	wait $l1 $l2
	lat_differs "$out/latlow.data" && break
	rm -f "$out/latlow.data.old"
done
# cxx		-g of the long C++ name (callchain entries and the Symbol column cut at 1023)
rec cxx -g -F 499 -- ./long
# reads		-s (per-thread counts: PERF_RECORD_READ at each thread's exit), two events: report -T
rec reads -s -e cpu-clock -e page-faults -F 199 -- sh -c 'ls -R /usr/include >/dev/null; ls / >/dev/null'

cat /proc/kallsyms >kallsyms	# a copy first: gzip refuses a file that grows while read
gzip -9n <kallsyms >"$out/kallsyms.gz"

# reduce_dso SRC DST: DST = SRC with its code and data zeroed, its layout, build id, symbol
# tables and CFI kept (../reduce-dso.py says which sections): gzip makes the zeros nothing
reduce_dso() {
	"$PY" "$here/../reduce-dso.py" "$1" "$2"
}

rm -rf "$out/symfs"
# the DSOs with sample hits, and for the recordings of one program every file it mapped:
# --with-hits counts sample ips only, and callchains pass through other DSOs too; without a
# copy, one perf could find this machine's and the other not
for f in "$out"/*.data; do
	"$PERF" buildid-list -i "$f" --with-hits 2>/dev/null | awk '{print $NF}'
	case $f in */sys.data | */irq.data) continue ;; esac
	"$PERF" script --show-mmap-events -i "$f" 2>/dev/null |
		awk '/PERF_RECORD_MMAP/ {print $NF}'
done | sort -u | while read -r dso; do
	case $dso in
	# other users' programs caught by -a: big, and left [unknown] by both perfs alike
	/work/* | */libasan.so*) continue ;;
	/*) [ -f "$dso" ] && head -c 4 "$dso" | grep -q ELF || continue ;;
	*) continue ;;	# [kernel.kallsyms], [vdso], modules' [name]: from kallsyms
	esac
	mkdir -p "$out/symfs$(dirname "$dso")"
	reduce_dso "$dso" "$work/dso"
	gzip -9n <"$work/dso" >"$out/symfs$dso.gz"
done
du -sh "$out"
