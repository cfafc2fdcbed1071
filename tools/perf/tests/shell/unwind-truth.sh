#!/bin/sh
# Unwinder ground truth: known call structures (dwarf recordings, fallback-like files), --unwind=fp and dwarf get >= 99.95% of callers right
# perf test timeout: 300
# SPDX-License-Identifier: GPL-2.0
#
# Recorded with the system perf's --call-graph dwarf (user regs + 8 KiB dumps): a calls program
# compiled here with and without -fcf-protection (prologues, epilogues, endbr64, a frameless
# leaf with a stack adjustment), and without frame pointers at all, and `perf test -w syscalls` (libc's frameless read, write and
# memset). Each is unwound with --unwind=fp and --unwind=dwarf as it is, and after `perf test -w unwind-convert`
# made it what our fallback recording is (the kernel's inline FP chain + a 512-byte dump);
# the kernel's chains alone (--unwind=none on that file) are scored too, for the record; and
# the fallback file in the deferred form (defer-convert) must be repaired the same.

. "$(dirname "$0")"/lib.sh
. "$lib_dir"/lib-unwind.sh

need_perf
need_cmd gcc
need_system_perf_record
[ -x "$WORKLOAD_PERF" ] || fail "WORKLOAD_PERF=$WORKLOAD_PERF is not an executable"

# record NAME CMD...: a dwarf recording NAME.dwarf.data and its fallback form NAME.fb.data
record() {
	name=$1
	shift
	"$SYSTEM_PERF" record -q -e cpu-clock -F 4000 --call-graph dwarf,8192 -o "$name.dwarf.data" \
		-- "$@" >"$name.rec.log" 2>&1 ||
		skip "perf record --call-graph dwarf fails here: $(tail -1 "$name.rec.log")"
	"$PERF" test -w unwind-convert "$name.dwarf.data" "$name.fb.data" 512 2>"$name.conv.err" ||
		fail "unwind-convert of $name failed: $(cat "$name.conv.err")"
}

# run NAME FILE ARGS...: perf script of FILE into NAME.out
run() {
	name=$1
	file=$2
	shift 2
	"$PERF" script --no-inline "$@" -i "$file" >"$name.out" 2>"$name.err" ||
		fail "perf script $* -i $file failed: $(cat "$name.err")"
}

write_truth_c
for v in fp cet nofp nocfi; do
	flags="-O2 -g -fno-omit-frame-pointer"
	[ $v = cet ] && flags="$flags -fcf-protection=full"
	# no frame pointer anywhere: only the CFI finds callers, for fp as for dwarf
	[ $v = nofp ] && flags="-O2 -g -fomit-frame-pointer"
	# no CFI in the program (no .eh_frame, no .debug_frame): its prologues are decoded
	[ $v = nocfi ] && flags="-O2 -fno-omit-frame-pointer -fcf-protection=full -fno-asynchronous-unwind-tables -fno-unwind-tables"
	# shellcheck disable=SC2086
	gcc $flags -o "truth_$v" truth.c || fail "gcc $flags truth.c failed"
	record "truth_$v" "./truth_$v" 600000
	prog=$TMPDIR/truth_$v
	run "$v.dwarf" "truth_$v.dwarf.data" --unwind=fp
	set -- $(score_calls "$v.dwarf.out" "$prog")
	at_least "$1" "$2" "truth_$v dwarf recording, --unwind=fp"
	run "$v.fb" "truth_$v.fb.data" --unwind=fp --unwind-stats
	if [ $v = nocfi ]; then
		expect_grep "^unwind: top frame rule: fp [0-9]+ entry [1-9][0-9]* cfi [0-9]+ insn [1-9]" \
			"$v.fb.err" "truth_nocfi: the decoder made no rule: $(cat "$v.fb.err")"
	fi
	set -- $(score_calls "$v.fb.out" "$prog")
	at_least "$1" "$2" "truth_$v fallback recording, --unwind=fp"
	# auto picks fp for a fallback recording
	run "$v.auto" "truth_$v.fb.data"
	cmp -s "$v.fb.out" "$v.auto.out" || fail "truth_$v: --unwind=auto differs from fp on a fallback recording"
	# DWARF unwinding needs the CFI the nocfi build lacks (upstream's too)
	if [ $v != nocfi ]; then
		run "$v.dw" "truth_$v.dwarf.data" --unwind=dwarf
		set -- $(score_calls "$v.dw.out" "$prog")
		at_least "$1" "$2" "truth_$v dwarf recording, --unwind=dwarf"
		run "$v.fbdw" "truth_$v.fb.data" --unwind=dwarf
		set -- $(score_calls "$v.fbdw.out" "$prog")
		at_least "$1" "$2" "truth_$v fallback recording, --unwind=dwarf"
	fi
	# the same fallback recording as a kernel that defers writes it (regs + dump on the
	# sample, the user chain in a later record): the stitched chain is repaired the same way
	"$PERF" test -w defer-convert "truth_$v.fb.data" "truth_$v.defer.data" 2>"$v.defer.err" ||
		fail "defer-convert of truth_$v failed: $(cat "$v.defer.err")"
	run "$v.defer" "truth_$v.defer.data" --unwind=fp
	cmp -s "$v.fb.out" "$v.defer.out" ||
		fail "truth_$v: the stitched chains are not repaired as the inline ones"
	grep -q 'not unwound' "$v.defer.err" && fail "truth_$v: stitched chains said not unwound"
	run "$v.kernel" "truth_$v.fb.data" --unwind=none
	set -- $(score_calls "$v.kernel.out" "$prog")
	verbose "truth_$v: the kernel's FP chains alone: $1 of $2 samples right"
done

# the syscall wrappers, called (not tail-called) from known functions
if command -v objdump >/dev/null 2>&1; then
	objdump -d --no-show-raw-insn "$WORKLOAD_PERF" >perf.dis 2>/dev/null
	for f in sys_read_one:read sys_write_one:write sys_touch:memset; do
		awk -v fn="<${f%%:*}>:" '$2 == fn { on = 1; next } on && /^$/ { exit } on' perf.dis >fn.dis
		grep -Eq "call +[0-9a-f]+ <${f#*:}@plt>" fn.dis ||
			fail "${f%%:*} does not call ${f#*:}@plt (a tail call?): $(cat fn.dis)"
	done
else
	not_tested "the syscall wrappers' calls: no objdump"
fi
record sys "$WORKLOAD_PERF" test -w syscalls 1.5
bin=$WORKLOAD_PERF
run sys.dwarf sys.dwarf.data --unwind=fp
set -- $(score_sys sys.dwarf.out "$bin")
at_least "$1" "$2" "syscalls dwarf recording, --unwind=fp"
run sys.fb sys.fb.data --unwind=fp
set -- $(score_sys sys.fb.out "$bin")
at_least "$1" "$2" "syscalls fallback recording, --unwind=fp"
for m in dwarf auto; do
	run sys.$m sys.dwarf.data --unwind=$m
	set -- $(score_sys sys.$m.out "$bin")
	at_least "$1" "$2" "syscalls dwarf recording, --unwind=$m"
done
run sys.fbdw sys.fb.data --unwind=dwarf
set -- $(score_sys sys.fbdw.out "$bin")
at_least "$1" "$2" "syscalls fallback recording, --unwind=dwarf"
# a 64-byte repair dump (--defer-stack-size 64): on glibc < 2.41 a wrapper's return address is at [SP]
"$PERF" test -w unwind-convert sys.dwarf.data sys.fb64.data 64 2>sys.conv64.err ||
	fail "unwind-convert of sys (64 bytes) failed: $(cat sys.conv64.err)"
run sys.fb64 sys.fb64.data
set -- $(score_sys sys.fb64.out "$bin")
at_least "$1" "$2" "syscalls fallback recording with a 64-byte dump, --unwind=auto"
run sys.kernel sys.fb.data --unwind=none
set -- $(score_sys sys.kernel.out "$bin")
verbose "syscalls: the kernel's FP chains alone: $1 of $2 samples right"
pass
