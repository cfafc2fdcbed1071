#!/bin/sh
# The callchain judge of the workloads (lib/callers.awk) on hand-written chains, and its table against the workloads' machine code (objdump: calls, no tail jumps)
# SPDX-License-Identifier: GPL-2.0
#
# callers.awk decides whether a recording's callchains hold a workload's known call
# structure; the unwinder's measurements rest on it, so it gets chains whose verdict is
# known: right ones with glibc 2.36's and 2.43's names for the same functions, one that
# skips the direct caller, one lost in libc, one with a wrong caller, for several
# workloads. Each case is a single sample, so the verdict is the whole output line.

. "$(dirname "$0")"/lib.sh

judge=$lib_dir/lib/callers.awk
[ -r "$judge" ] || fail "$judge is missing"

LIBC=/usr/lib/x86_64-linux-gnu/libc.so.6
CXXLIB=/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.33
PY=/usr/bin/python3.14
PROG=/opt/perf/perf
failures=0

# check NAME WORKLOAD "WANT" <SAMPLE: a sample of perf script --no-inline, its header line
# then its frames as "SYM DSO" lines, innermost first (a kernel frame's DSO is
# [kernel.kallsyms]); WANT is the judge's verdict line
check() {
	awk '
		NR == 1 { print; next }
		{
			addr = $NF == "[kernel.kallsyms]" ? "ffffffff81000000" : "7f0000001000"
			dso = $NF
			sub(/ [^ ]+$/, "")
			printf "\t%16s %s+0x10 (%s)\n", addr, $0, dso
		}
		END { print "" }' >"case.$1.txt"
	got=$(awk -v workload="$2" -v prog=$PROG -f "$judge" "case.$1.txt" 2>"case.$1.err")
	if [ "$got" = "$3" ]; then
		verbose "ok: $1: $got"
	else
		echo "$1: the judge says '$got', want '$3'; its chain:"
		cat "case.$1.txt" "case.$1.err"
		failures=$((failures + 1))
	fi
}

RIGHT="judged 1 right 1 lost-elsewhere 0"
WRONG="judged 1 right 0 lost-elsewhere 0"
NOTJUDGED="judged 0 right 0 lost-elsewhere 0"

check syscalls-right syscalls "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
vfs_read [kernel.kallsyms]
read $LIBC
sys_read_one $PROG
sys_loop $PROG
workload__syscalls $PROG
cmd_test $PROG
main $PROG
EOF

# glibc 2.43: read makes its system call in __internal_syscall_cancel, below it
check syscalls-right-243 syscalls "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__internal_syscall_cancel $LIBC
__syscall_cancel $LIBC
__libc_read $LIBC
sys_read_one $PROG
sys_loop $PROG
workload__syscalls $PROG
EOF

check syscalls-plt syscalls "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
read@plt $PROG
sys_read_one $PROG
sys_loop $PROG
workload__syscalls $PROG
EOF

# the frameless read() hid its caller's return address: sys_read_one is skipped
check syscalls-skipped syscalls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__GI___libc_read $LIBC
sys_loop $PROG
workload__syscalls $PROG
EOF

# the library's inner frame as the program's callee: read() itself is skipped
check syscalls-inner-callee syscalls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__syscall_cancel $LIBC
sys_read_one $PROG
sys_loop $PROG
workload__syscalls $PROG
EOF

check syscalls-lost-in-libc syscalls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__syscall_cancel $LIBC
__libc_write $LIBC
EOF

check syscalls-wrong-caller syscalls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
memset $LIBC
sys_touch $PROG
workload__syscalls $PROG
EOF

check syscalls-no-entry syscalls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
sys_touch $PROG
sys_loop $PROG
EOF

# start-up, in libc but in nothing the workload calls
check syscalls-elsewhere syscalls "judged 0 right 0 lost-elsewhere 1" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_dl_relocate_object $LIBC
__libc_start_main@@GLIBC_2.34 $LIBC
EOF

check calls-not-ours calls "$NOTJUDGED" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
spin__init $PROG
cmd_test $PROG
EOF

check calls-right calls "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
calls_leaf $PROG
calls_level8 $PROG
calls_level7 $PROG
calls_level6 $PROG
calls_level5 $PROG
calls_level4 $PROG
calls_level3 $PROG
calls_level2 $PROG
calls_level1 $PROG
workload__calls $PROG
EOF

check calls-gap calls "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
calls_leaf $PROG
calls_level8 $PROG
calls_level6 $PROG
calls_level5 $PROG
calls_level4 $PROG
calls_level3 $PROG
calls_level2 $PROG
calls_level1 $PROG
workload__calls $PROG
EOF

check stdio-right stdio "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__GI___libc_write $LIBC
_IO_file_write@@GLIBC_2.2.5 $LIBC
new_do_write $LIBC
_IO_do_write@@GLIBC_2.2.5 $LIBC
_IO_file_sync@@GLIBC_2.2.5 $LIBC
_IO_fflush $LIBC
stdio_write_one $PROG
stdio_loop $PROG
workload__stdio $PROG
EOF

check stdio-skipped stdio "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
read $LIBC
_IO_file_xsgetn $LIBC
stdio_read_one $PROG
stdio_loop $PROG
workload__stdio $PROG
EOF

check stdio-lost stdio "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
read $LIBC
_IO_file_read $LIBC
_IO_file_xsgetn $LIBC
EOF

# walked out of libc into garbage: lost too, though it does not end in libc
check stdio-garbage stdio "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_IO_file_xsgetn $LIBC
_IO_fread $LIBC
[unknown] [unknown]
[unknown] [unknown]
EOF

check pread-right pread "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__libc_pread64 $LIBC
pread_one $PROG
pread_loop $PROG
workload__pread $PROG
EOF

check pread-swapped pread "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
preadv64 $LIBC
readv_one $PROG
pread_loop $PROG
workload__pread $PROG
EOF

# the other thread: its chain ends at its start function, then libc's start_thread
check condwait-thread condwait "$RIGHT" <<EOF
perf 101 [001] 1.000: 1 cpu-clock:
futex_wait [kernel.kallsyms]
__futex_abstimed_wait_common64 $LIBC
___pthread_cond_wait $LIBC
condwait_wait $PROG
condwait_player $PROG
condwait_thread $PROG
start_thread $LIBC
clone3 $LIBC
EOF

check condwait-main condwait "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
pthread_cond_signal@@GLIBC_2.3.2 $LIBC
condwait_signal $PROG
condwait_player $PROG
condwait_run $PROG
workload__condwait $PROG
EOF

# pthread_mutex_unlock tail-jumps to __pthread_mutex_unlock_usercnt: no frame skipped
check condwait-tailjump condwait "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__GI___pthread_mutex_unlock_usercnt $LIBC
condwait_player $PROG
condwait_run $PROG
workload__condwait $PROG
EOF

check condwait-skipped condwait "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
pthread_cond_wait@@GLIBC_2.3.2 $LIBC
condwait_player $PROG
condwait_thread $PROG
start_thread $LIBC
EOF

check nanosleep-right nanosleep "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__clock_nanosleep $LIBC
__nanosleep $LIBC
nap_one $PROG
nap_loop $PROG
workload__nanosleep $PROG
EOF

# clock_nanosleep is also a callee of ours, but of nap_clock_one
check nanosleep-skipped nanosleep "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
clock_nanosleep@GLIBC_2.2.5 $LIBC
nap_one $PROG
nap_loop $PROG
workload__nanosleep $PROG
EOF

check poll-right poll "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__poll $LIBC
poll_one $PROG
poll_loop $PROG
workload__poll $PROG
EOF

check poll-wrong poll "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
epoll_wait $LIBC
poll_one $PROG
poll_loop $PROG
workload__poll $PROG
EOF

check malloc-free malloc "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__munmap $LIBC
cfree@GLIBC_2.2.5 $LIBC
free_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

check malloc-right malloc "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_int_malloc $LIBC
__libc_malloc $LIBC
malloc_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

# glibc 2.43: malloc's slow path is a jump to __libc_malloc2, free's to _int_free_chunk
check malloc-tailjump malloc "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_int_malloc $LIBC
__libc_malloc2 $LIBC
malloc_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

check free-tailjump malloc "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_int_free_chunk $LIBC
free_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

check malloc-skipped malloc "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
_int_malloc $LIBC
malloc_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

check cxx-right cxx "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
std::ostream& std::ostream::_M_insert<long>(long) $CXXLIB
cxx_insert_one $PROG
cxx_loop $PROG
workload__cxx $PROG
EOF

check cxx-string cxx "$RIGHT" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__memmove_avx_unaligned_erms $LIBC
std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_append(char const*, unsigned long) $CXXLIB
cxx_append_one $PROG
cxx_loop $PROG
workload__cxx $PROG
EOF

check cxx-skipped cxx "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
std::ostream& std::ostream::_M_insert<long>(long) $CXXLIB
cxx_loop $PROG
workload__cxx $PROG
EOF

check cxx-lost cxx "$WRONG" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
std::ostream::sentry::sentry(std::ostream&) $CXXLIB
[unknown] $CXXLIB
EOF

check python3-right python3 "$RIGHT" <<EOF
python3 200 [000] 1.000: 1 cpu-clock:
__internal_syscall_cancel $LIBC
__syscall_cancel $LIBC
read $LIBC
_Py_read $PY
[unknown] $PY
_PyEval_EvalFrameDefault $PY
Py_BytesMain $PY
__libc_start_call_main $LIBC
__libc_start_main@@GLIBC_2.34 $LIBC
_start $PY
EOF

check python3-lost python3 "$WRONG" <<EOF
python3 200 [000] 1.000: 1 cpu-clock:
read $LIBC
__libc_start_main@@GLIBC_2.34 $LIBC
EOF

check python3-not-interp python3 "$WRONG" <<EOF
python3 200 [000] 1.000: 1 cpu-clock:
read $LIBC
reader_loop /usr/bin/bash
main /usr/bin/bash
EOF

# other processes than the interpreter (perf itself before the exec) are not judged
# another system call of the interpreter's, lost in libc: not read's
check python3-open python3 "$NOTJUDGED" <<EOF
python3 200 [000] 1.000: 1 cpu-clock:
__syscall_cancel $LIBC
__libc_open64 $LIBC
EOF

check python3-other-comm python3 "$NOTJUDGED" <<EOF
perf 200 [000] 1.000: 1 cpu-clock:
read $LIBC
sys_read_one $PROG
EOF

# glibc 2.43's first free() of a thread: a jump to tcache_free_init
check malloc-tcache-init malloc "$RIGHT" <<EOF
perf 300 [000] 1.000: 1 cpu-clock:
tcache_init $LIBC
tcache_free_init $LIBC
free_one $PROG
malloc_loop $PROG
workload__malloc $PROG
EOF

# glibc 2.43's pthread_join: a jump to __pthread_clockjoin_ex
check condwait-join condwait "$RIGHT" <<EOF
perf 500 [000] 1.000: 1 cpu-clock:
__pthread_clockjoin_ex $LIBC
condwait_run $PROG
workload__condwait $PROG
EOF

# the exit handlers (libstdc++'s static destructors calling free): a whole chain, not lost
ELSEWHERE="judged 0 right 0 lost-elsewhere 1"
check cxx-exit cxx "$ELSEWHERE" <<EOF
perf 400 [000] 1.000: 1 cpu-clock:
__cxa_finalize $LIBC
[unknown] $CXXLIB
_dl_call_fini /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
_dl_fini /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
__run_exit_handlers $LIBC
__libc_start_call_main $LIBC
__libc_start_main@@GLIBC_2.34 $LIBC
EOF

# a fault on a page of libstdc++ with no symbol there (start-up): no sign of the workload
check cxx-unknown cxx "$ELSEWHERE" <<EOF
perf 400 [000] 1.000: 1 cpu-clock:
exc_page_fault [kernel.kallsyms]
[unknown] $CXXLIB
EOF

# memset from another library of the program's (libdw's constructor): not the workload's
check syscalls-other-lib syscalls "$ELSEWHERE" <<EOF
perf 100 [000] 1.000: 1 cpu-clock:
__memset_avx2_unaligned_erms $LIBC
[unknown] /usr/lib/x86_64-linux-gnu/libdw-0.196.so
EOF

# a workload the judge has no table for is an error, not a pass
echo | awk -v workload=nosuch -v prog=$PROG -f "$judge" >nosuch.out 2>nosuch.err
rc=$?
if [ $rc -ne 2 ] || ! grep -q "no call structure" nosuch.err; then
	echo "an unknown workload: exit $rc, want 2 with an error; stderr: $(cat nosuch.err)"
	failures=$((failures + 1))
fi

[ $failures -eq 0 ] || fail "$failures of the judge's verdicts are not the expected ones"

# The table holds only if the compiled workloads call, never jump to, what it says each
# function calls: inlining, a tail jump or a clone (foo.constprop.0) would make the judge
# expect a caller the stack cannot have. The C functions of every workload, in the binary
# the tests run the workloads with (a library function as its PLT stub or a direct call).
need_cmd objdump
[ -x "$WORKLOAD_PERF" ] || fail "WORKLOAD_PERF=$WORKLOAD_PERF is not an executable"
objdump -d --no-show-raw-insn "$WORKLOAD_PERF" >perf.dis 2>objdump.err ||
	fail "objdump -d $WORKLOAD_PERF failed: $(tail -1 objdump.err)"
bad=
for w in syscalls calls stdio pread condwait nanosleep poll malloc cxx; do
	awk -v workload=$w -v pairs=1 -f "$judge" </dev/null >pairs.$w || fail "no pairs for $w"
	[ -s pairs.$w ] || fail "the judge's table gives no calls for $w"
	while read -r caller callee; do
		# the caller's body: from its label to the next one
		awk -v f="<$caller>:" '$2 == f { on = 1; next } on && /^[0-9a-f]+ <.*>:$/ { exit }
			on { print }' perf.dis >body
		[ -s body ] || { bad="$bad $caller(missing)"; continue; }
		# glibc's 64-bit names: pread64, preadv64
		want="<$callee(64)?(@plt)?>"
		if ! grep -qE "call +[0-9a-f]+ $want" body || grep -qE "jmp +[0-9a-f]+ $want" body; then
			bad="$bad $caller->$callee"
		fi
	done <pairs.$w
done
[ -z "$bad" ] || fail "the workloads do not call as the judge's table says (inlined, tail jump or missing):$bad"
exit 0
