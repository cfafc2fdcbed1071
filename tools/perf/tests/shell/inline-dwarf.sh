#!/bin/sh
# Inline frames from DWARF of a program built here: own, split, separate, stripped, compressed and corrupt debug info
. "$(dirname "$0")"/lib.sh
#
# A C program built at -O2 -g with two always_inline functions (leaf_step inside mid_mix,
# both inlined into the noinline outer_work) is recorded with -g; its hot loop is the known
# inline chain, which perf script must print (innermost first, the containing function last,
# with its dso):
#	<ip> leaf_step+0x.. (inlined)
#	<ip> mid_mix+0x.. (inlined)
#	<ip> outer_work+0x.. (/path/prog)
# The same recording is then read against variants of the binary (the recorded build id is
# the same in all): its DWARF split into a .dwo (-gsplit-dwarf, a second build), a separate
# debug file (objcopy --only-keep-debug) found by .gnu_debuglink and by build id under a
# --symfs, the stripped binary without any debug file (no symbols, no inline frames, no
# error), compressed debug sections, and a corrupt .debug_info (one warning naming the DSO,
# frames without inline expansion). With upstream perf 7.2 at hand, ours must equal its
# output on the own-DWARF and C++ recordings byte for byte.

need_perf
need_cmd gcc objcopy strip readelf
need_system_perf_record

cat >prog.c <<'EOF'
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long leaf_step(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

static inline __attribute__((always_inline)) unsigned long mid_mix(unsigned long x)
{
	return leaf_step(x) ^ (x >> 7);
}

__attribute__((noinline)) unsigned long outer_work(unsigned long x)
{
	return mid_mix(x) + 1;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 3000000, s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += outer_work(i);
	return s == 42;
}
EOF
here=$(pwd)
build() {	# OUT EXTRA-CFLAGS...
	out=$1
	shift
	gcc -O2 -g -fno-omit-frame-pointer "$@" -o "$out" prog.c >"$out.cc.log" 2>&1 ||
		fail "gcc $* failed: $(head -3 "$out.cc.log")"
}
rec() {	# DATA PROGRAM
	"$SYSTEM_PERF" record -q -e cpu-clock:u -F 2000 -g -o "$1" -- "$2" 3000000 >"$1.log" 2>&1 ||
		{ verbose "$(cat "$1.log")"; skip "$SYSTEM_PERF record fails here"; }
}
# has_chain OUT PROG: the known chain, in order, on consecutive lines at the same ip
has_chain() {
	awk -v prog="$2" '
		$2 ~ /^leaf_step\+0x[0-9a-f]+$/ && $3 == "(inlined)" { ip = $1; state = 1; next }
		state == 1 && $1 == ip && $2 ~ /^mid_mix\+0x/ && $3 == "(inlined)" { state = 2; next }
		state == 2 && $1 == ip && $2 ~ /^outer_work\+0x/ && $3 == "(" prog ")" { found++ }
		{ state = 0 }
		END { exit found ? 0 : 1 }' "$1"
}
# this machine's libc and ld.so may have debug files: only the program's frames count
no_inline() {	# OUT WHAT
	grep -Eq '(leaf_step|mid_mix).*\(inlined\)' "$1" && fail "$2: inline frames printed"
	grep -q 'outer_work+0x' "$1" || fail "$2: no outer_work frame at all"
}
script() {	# OUT ARGS...: ours, stderr kept
	out=$1
	shift
	"$PERF" script "$@" >"$out" 2>"$out.err" || fail "perf script $* failed: $(head -3 "$out.err")"
}

build prog
rec own.data "$here/prog"
script own.out -i own.data
has_chain own.out "$here/prog" || { verbose "$(head -40 own.out)"; fail "own DWARF: no leaf_step/mid_mix/outer_work chain"; }
[ -s own.out.err ] && fail "own DWARF: stderr: $(head -3 own.out.err)"
script own-no.out --no-inline -i own.data
no_inline own-no.out "--no-inline"
grep -q '(inlined)' own-no.out && fail "--no-inline: inline frames printed"
"$PERF" report --stdio --no-children -i own.data >own.rep 2>own.rep.err || fail "perf report failed"
grep -q 'leaf_step (inlined)' own.rep || fail "perf report: no 'leaf_step (inlined)' in the callchains"
# srcline of the innermost frame: the line of leaf_step's multiply (prog.c:6)
script own-src.out -F ip,sym,srcline -i own.data
grep -A1 ' leaf_step$' own-src.out | grep -q '^  prog\.c:[0-9]* (inlined)$' || fail "-F srcline: no prog.c line"

# the same binary with compressed debug sections: same output
cp prog prog.plain
if objcopy --compress-debug-sections=zlib prog 2>/dev/null; then
	readelf -S -W prog | grep -q '\.debug_info .* C ' || fail "objcopy did not compress .debug_info"
	script comp.out -i own.data
	cmp -s own.out comp.out || { verbose "$(diff own.out comp.out | head)"; fail "compressed debug sections: output differs"; }
else
	not_tested "compressed debug sections: objcopy cannot compress them"
fi

# a separate debug file, found by .gnu_debuglink next to the binary
cp prog.plain prog
objcopy --only-keep-debug prog prog.debug || fail "objcopy --only-keep-debug failed"
objcopy --strip-all --add-gnu-debuglink=prog.debug prog || fail "objcopy --strip-all failed"
script link.out -i own.data
cmp -s own.out link.out || { verbose "$(diff own.out link.out | head)"; fail "debug file by .gnu_debuglink: output differs"; }

# the stripped binary alone: no symbols, no inline frames, no complaint
mv prog.debug prog.debug.away
script strip.out -i own.data
grep -Eq '(leaf_step|mid_mix|outer_work)' strip.out && fail "stripped binary: symbols without a symbol table"
[ -s strip.out.err ] && fail "stripped binary: stderr: $(head -3 strip.out.err)"

# the debug file by build id under a --symfs (the stripped binary there too)
bid=$(readelf -n prog.plain | awk '/Build ID/ { print $3 }')
[ -n "$bid" ] || fail "no build id in the binary"
S=symfs
d=$S/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)
mkdir -p "$S$here" "$d"
cp prog "$S$here/prog"
cp prog.debug.away "$d/$(echo "$bid" | cut -c3-).debug"
script bid.out --symfs="$S" -i own.data
# libc is not under the symfs: the program's frames are compared
progframes() {
	grep -E ' (leaf_step|mid_mix|outer_work|main)\+0x' "$1"
}
progframes own.out >own.prog
progframes bid.out >bid.prog
[ -s own.prog ] || fail "no frames of the program"
cmp -s own.prog bid.prog || { verbose "$(diff own.prog bid.prog | head)"; fail "debug file by build id under --symfs: output differs"; }

# a corrupt .debug_info: one warning naming the DSO, frames without inline expansion
cp prog.plain prog
off=$(readelf -S -W prog | awk '$2 == ".debug_info" { print $5 }')
[ -n "$off" ] || fail "no .debug_info in the binary"
# the first unit's version (at +4) becomes 0x6666: no DWARF version libdw reads
printf 'ff' | dd of=prog bs=1 seek=$((0x$off + 4)) conv=notrunc 2>/dev/null
script bad.out -i own.data
no_inline bad.out "corrupt .debug_info"
[ "$(grep -c . bad.out.err)" = 2 ] || fail "corrupt .debug_info: not one warning: $(cat bad.out.err)"
# the file read is the build-id cache's copy, perf record's hard link to prog (perf looks in
# the cache first), or prog itself
grep -Eq "^$here/prog: cannot read DWARF of ($here/prog|$HOME/\.debug/\.build-id/[0-9a-f]{2}/[0-9a-f]+/elf): .*without inline functions$" bad.out.err ||
	fail "corrupt .debug_info: the warning does not name the DSO: $(cat bad.out.err)"

# split DWARF: a second build, its .dwo beside it, recorded anew
if build splitprog -gsplit-dwarf 2>/dev/null && ls ./*.dwo >/dev/null 2>&1; then
	rec split.data "$here/splitprog"
	script split.out -i split.data
	has_chain split.out "$here/splitprog" || { verbose "$(head -40 split.out)"; fail "-gsplit-dwarf: no inline chain"; }
else
	not_tested "split DWARF: gcc -gsplit-dwarf made no .dwo"
fi

# byte for byte with upstream, when it is here: C, and C++ (demangled linkage names, and
# addr2line's name for functions without one, see util/dwarf-inline.h)
if upstream_perf; then
	cp prog.plain prog
	"$UPSTREAM_PERF" script -i own.data >own.up 2>/dev/null ||
		fail "upstream perf script failed"
	cmp -s own.up own.out || { verbose "$(diff own.up own.out | head -20)"; fail "own DWARF: differs from upstream"; }
	if command -v g++ >/dev/null 2>&1; then
		cat >cxx.cc <<'EOF'
#include <stdlib.h>
namespace ns {
static inline __attribute__((always_inline)) long leaf(long x)
{
	for (int i = 0; i < 100; i++)
		x = x * 31 + i;
	return x;
}
static inline __attribute__((always_inline)) long mid(long x) { return leaf(x) ^ leaf(x + 1); }
struct K { __attribute__((noinline)) long method(long x); };
long K::method(long x) { return mid(x) - 1; }
}
extern "C" __attribute__((noinline)) long top(long x) { return ns::mid(x) + 1; }
__attribute__((noinline)) long cxxfn(long x) { return ns::mid(x + 3); }
/* an inlined function whose name is longer than upstream's 1024-byte frame buffer */
template <class T> struct Wrapper_of_a_rather_long_type_name {};
#define W(T) Wrapper_of_a_rather_long_type_name<T>
typedef W(W(W(W(W(W(W(W(W(W(int)))))))))) Deep10;
typedef W(W(W(W(W(W(W(W(W(W(Deep10)))))))))) Deep20;
typedef W(W(W(W(W(W(W(W(W(W(Deep20)))))))))) Deep;
template <class T> static inline __attribute__((always_inline)) long deep_work(T *, long x)
{
	return ns::mid(x) + 7;
}
__attribute__((noinline)) long deepfn(long x) { return deep_work((Deep *)0, x); }
int main(int argc, char **argv)
{
	long s = 0, n = argc > 1 ? atol(argv[1]) : 1000000;
	ns::K k;

	for (long i = 0; i < n; i++)
		s += top(i) + cxxfn(i) + k.method(i) + deepfn(i);
	return s == 42;
}
EOF
		g++ -O2 -g -fno-omit-frame-pointer -o cxx cxx.cc || fail "g++ failed"
		rec cxx.data "$here/cxx"
		script cxx.out -i cxx.data
		"$UPSTREAM_PERF" script -i cxx.data >cxx.up 2>/dev/null ||
			fail "upstream perf script failed"
		grep -q 'ns::K::method(long)+0x' cxx.out || fail "C++: no demangled ns::K::method frame"
		grep -q 'deep_work<Wrapper_of_a_rather_long_type_name<.*(inlined)' cxx.out ||
			fail "C++: no inlined deep_work<...> frame"
		cmp -s cxx.up cxx.out || { verbose "$(diff cxx.up cxx.out | head -20)"; fail "C++: differs from upstream"; }
		"$UPSTREAM_PERF" report --stdio -i cxx.data 2>/dev/null |
			grep -v '^# (Tip' >cxx.rep.up
		"$PERF" report --stdio -i cxx.data 2>/dev/null | grep -v '^# (Tip' >cxx.rep
		cmp -s cxx.rep.up cxx.rep || { verbose "$(diff cxx.rep.up cxx.rep | head -20)"; fail "C++ report: differs from upstream"; }
		# the long name fills upstream's buffer: its frame line ends without the mark
		grep -q 'deep_work<Wrapper_of_a_rather_long_type_name<' cxx.rep ||
			fail "C++ report: no deep_work frame"
		grep 'deep_work<Wrapper_of_a_rather_long_type_name<' cxx.rep | grep -v '\[\.\]' |
			grep -q '(inlined)' && fail "C++ report: the long name's frame kept its (inlined) mark"
		"$PERF" report --stdio --no-children -g caller -i cxx.data 2>/dev/null | grep -v '^# (Tip' >cxx.rep2
		"$UPSTREAM_PERF" report --stdio --no-children -g caller -i cxx.data 2>/dev/null |
			grep -v '^# (Tip' >cxx.rep2.up
		cmp -s cxx.rep2.up cxx.rep2 || { verbose "$(diff cxx.rep2.up cxx.rep2 | head -20)"; fail "C++ report -g caller: differs from upstream"; }
	else
		not_tested "C++ against upstream: no g++"
	fi
else
	not_tested "the comparisons with upstream: no upstream perf"
fi
pass
