# SPDX-License-Identifier: GPL-2.0
# lib-unwind.sh - the unwinder's ground-truth scoring, sourced by the unwind-*.sh tests after
# lib.sh. A score is "GOOD JUDGED": of the samples judged (those whose top user frame is in
# the workload's code), how many have exactly the right callers and no spurious frame.

# score_calls OUT PROG: perf script output of the calls program PROG (truth.c below): the
# user frames from the top one down to main must all be PROG's and be one of the chains
# leaf|leaf_adj <- mid <- top <- rec... <- main (a suffix of it)
score_calls() {
	: >score.wrong
	awk -v prog="($2)" '
	BEGIN { RS = ""; FS = "\n" }
	{
		chain = ""; top = 1; judged = 0; foreign = 0
		for (i = 2; i <= NF; i++) {
			if (index($i, "([kernel.kallsyms])")) continue
			inprog = index($i, prog) > 0
			if (top) { top = 0; if (!inprog) break; judged = 1 }
			s = $i; sub(/^[ \t]*[0-9a-f]+ /, "", s); sub(/\+0x[0-9a-f]+ .*/, "", s); sub(/ \(.*/, "", s)
			if (!inprog) { foreign = 1; break }
			chain = chain s " "
			if (s == "main") break
		}
		if (!judged) next
		n++
		if (!foreign && chain ~ /^(((((leaf|leaf_adj) )?mid )?top )?(rec )+)?main $/) good++
		else if (bad++ < 3) print "wrong: " chain "(sample: " $1 ")" > "score.wrong"
	}
	END { print good + 0, n + 0 }' "$1"
}

# score_sys OUT PERFBIN: perf script output of `perf test -w syscalls`: a sample whose top
# user frame is libc's read, write or memset must have one libc frame, then the wrapper's
# caller in PERFBIN (sys_read_one, sys_write_one, sys_touch), sys_loop, workload__syscalls.
# Judged from the first sample in sys_loop on: the ones before are perf's own start-up
# (memset in cmd_test, __pthread_tunables_init in dl_main), whose frame-pointer-less
# callers no --unwind=fp gets right, and their number is not the workload's to size.
score_sys() {
	: >score.wrong
	awk -v bin="($2)" '
	BEGIN { RS = ""; FS = "\n" }
	function name(l) { sub(/^[ \t]*[0-9a-f]+ /, "", l); sub(/\+0x[0-9a-f]+ .*/, "", l); sub(/ \(.*/, "", l); return l }
	{
		k = 0
		for (i = 2; i <= NF; i++)
			if (!index($i, "([kernel.kallsyms])")) u[++k] = $i
		for (i = 1; !started && i <= k; i++)
			if (index(u[i], bin) && name(u[i]) == "sys_loop") started = 1
		if (!started || k < 1 || !index(u[1], "/libc.so")) next
		f = name(u[1])
		if (f ~ /read/) want = "sys_read_one"
		else if (f ~ /write/) want = "sys_write_one"
		else if (f ~ /^__mem|^mem/) want = "sys_touch"
		else next
		n++
		if (k >= 4 && index(u[2], bin) && name(u[2]) == want && name(u[3]) == "sys_loop" &&
		    name(u[4]) == "workload__syscalls") good++
		else if (bad++ < 3) print "wrong: " f " <- " name(u[2]) " <- " name(u[3]) " (sample: " $1 ")" > "score.wrong"
	}
	END { print good + 0, n + 0 }' "$1"
}

# at_least GOOD JUDGED WHAT: fail unless GOOD >= 99.95% of JUDGED (the issue's bar) and
# something was judged at all; the failure names the first wrong samples the last score found,
# so that a failure seen once in CI says what went wrong
at_least() {
	[ "$2" -gt 0 ] || fail "$3: no sample was judged"
	# integers: GOOD * 10000 >= JUDGED * 9995
	[ $(($1 * 10000)) -ge $(($2 * 9995)) ] ||
		fail "$3: only $1 of $2 samples have the right callers; the first wrong ones: $(cat score.wrong)"
	verbose "$3: $1 of $2 samples right"
}

# the calls program: frame-pointer code with prologues and epilogues everywhere, a frameless
# leaf with a stack adjustment past the red zone, recursion turned into a loop by gcc
write_truth_c() {
	cat >truth.c <<'EOC'
#include <stdlib.h>
#include <stdio.h>
__attribute__((noinline)) long leaf(long x) { return x * 3 + 1; }
__attribute__((noinline, optimize("omit-frame-pointer"))) long leaf_adj(long x)
{
	volatile long a[40];
	for (int i = 0; i < 40; i++) a[i] = x + i;
	return a[x & 31];
}
__attribute__((noinline)) long mid(long x) { long s = 0; for (int i = 0; i < 16; i++) s += leaf(x + i); return s + leaf_adj(x); }
__attribute__((noinline)) long top(long x) { long s = 0; for (int i = 0; i < 64; i++) s += mid(x ^ i); return s; }
__attribute__((noinline)) long rec(int d, long x) { if (d == 0) return top(x); return rec(d - 1, x + d) + 1; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000, s = 0;
	for (long i = 0; i < n; i++) s += rec((int)(i % 24), i);
	printf("%ld\n", s);
	return 0;
}
EOC
}
