# SPDX-License-Identifier: GPL-2.0
# vmtest-callers.awk - do the callchains of `perf script --no-inline` output hold the known
# call structure of a built-in workload (tools/perf/tests/workloads.c)?
#
#	perf script --no-inline -i F | awk -v workload=syscalls -v prog=/vmtest/perf -f THIS
#
# A sample is judged when a workload function is in its user chain, or when its user chain
# ends in libc without reaching the program (a walk lost in libc's frames, which have no
# frame pointers) in a function the workload calls or one they call to make their system
# call (__syscall_cancel): a process's start-up and exit, also in libc, are not the
# workload's (their chains that end in libc are counted apart, as "lost elsewhere"). It is
# right when, from its innermost frame of the program (a PLT stub
# counts as the library function it calls):
#   - the library function just below it is one that function calls (read -> sys_read_one,
#     memset -> sys_touch, clock_gettime -> the spin loop that reads the clock, ...): a
#     caller that is skipped, or the library's own inner frame (__syscall_cancel) appearing
#     as the callee, is wrong;
#   - each workload function's caller is the one workloads.c calls it from, up to the
#     workload's entry (workload__NAME), which must be reached.
# Prints "judged N right M lost-elsewhere L"; to stderr, the chains of the first 5 wrong
# samples and the count of wrong ones by reason.
BEGIN {
	if (workload == "syscalls") {
		parent["sys_read_one"] = "sys_loop"
		parent["sys_write_one"] = "sys_loop"
		parent["sys_touch"] = "sys_loop"
		parent["sys_loop"] = "workload__syscalls"
		calls["read"] = "sys_read_one"
		calls["write"] = "sys_write_one"
		calls["memset"] = "sys_touch"
		# spin__expired() is inlined into the loop that spins
		calls["clock_gettime"] = "sys_loop"
		calls["close"] = "workload__syscalls"
		# what read(), write() and close() call to make the system call (glibc >= 2.41)
		calls["syscall_cancel"] = ""
		calls["internal_syscall_cancel"] = ""
	} else if (workload == "calls") {
		parent["calls_leaf"] = "calls_level8"
		for (i = 8; i > 1; i--)
			parent["calls_level" i] = "calls_level" (i - 1)
		parent["calls_level1"] = "workload__calls"
		calls["clock_gettime"] = "calls_leaf"
	} else {
		print "vmtest-callers.awk: workload must be syscalls or calls" > "/dev/stderr"
		exit 2
	}
	top = "workload__" workload
	for (f in parent)
		known[f] = 1
	known[top] = 1
	n = 0
}

# the library function a frame's symbol names: libc's aliases and variants to one name
function libname(s) {
	# read@plt, clock_gettime@@GLIBC_2.17
	sub(/@.*$/, "", s)
	sub(/^_+/, "", s)
	sub(/^(GI_+)?(libc_)?/, "", s)
	if (s ~ /^memset/) return "memset"
	if (s ~ /^clock_gettime/ || s ~ /^vdso_clock_gettime/) return "clock_gettime"
	if (s ~ /^read(64)?$/) return "read"
	if (s ~ /^write(64)?$/) return "write"
	return s
}

function judge(   i, f, first, user, onlylib, libc, ours, callee, ok) {
	user = 0
	first = 0
	onlylib = 1
	for (i = 1; i <= n; i++) {
		if (kern[i])
			continue
		user++
		if (dso[i] == prog && sym[i] !~ /@plt$/) {
			if (!first)
				first = i
			onlylib = 0
		}
		if (sym[i] in known)
			inwl = 1
	}
	if (!user)
		return
	# the outermost user frame: does the chain end in libc?
	libc = 0
	for (i = n; i >= 1; i--)
		if (!kern[i]) {
			libc = dso[i] ~ /\/libc\.so/
			break
		}
	if (!inwl && !(onlylib && libc))
		return
	if (!inwl) {
		# a chain lost in libc: is it in what the workload calls?
		ours = 0
		for (i = 1; i <= n; i++)
			if (!kern[i] && (libname(sym[i]) in calls))
				ours = 1
		if (!ours) {
			elsewhere++
			return
		}
	}
	judged++
	ok = first > 0
	why = "the chain ends in " libname(sym[user_last()]) " (libc) without a frame of the program"
	if (ok && (sym[first] in known)) {
		# the library function called from the program's innermost frame
		callee = ""
		for (i = first - 1; i >= 1; i--)
			if (!kern[i]) {
				# ld.so resolving a PLT entry (lazy binding) is a callee of any
				if (dso[i] !~ /\/ld-linux/)
					callee = libname(sym[i])
				break
			}
		# the workload's entry calls much else (spin__init, strtoul, open): only the
		# known callees of it are checked there
		if (callee != "" && sym[first] == top && !(callee in calls))
			callee = ""
		if (callee != "" && (!(callee in calls) || calls[callee] != sym[first])) {
			ok = 0
			why = "the program's frame called from " callee " is " sym[first]
		}
	}
	if (ok) {
		# from the first workload function, each caller as workloads.c has it
		for (i = first; i <= n && !(sym[i] in known); i++)
			;
		for (; ok && i <= n && sym[i] != top; i++) {
			if (kern[i] || dso[i] != prog) {
				ok = 0
				why = "a frame outside the program between the workload's"
			} else if (i == n) {
				ok = 0
				why = "the chain ends at " sym[i]
			} else if (sym[i + 1] != parent[sym[i]]) {
				ok = 0
				why = sym[i] "'s caller is " sym[i + 1]
			}
		}
		if (ok && i > n) {
			ok = 0
			why = "no " top " in the chain"
		}
	}
	if (ok) {
		right++
	} else {
		reasons[why]++
	}
	if (!ok && shown++ < 5) {
		print "wrong (" why "): " header > "/dev/stderr"
		for (i = 1; i <= n; i++)
			print "\t" line[i] > "/dev/stderr"
	}
}

# the outermost user frame
function user_last(   i) {
	for (i = n; i >= 1; i--)
		if (!kern[i])
			return i
	return 1
}

function reset() {
	n = 0
	inwl = 0
}

/^[^\t]/ {
	if (n || header != "")
		judge()
	reset()
	header = $0
	next
}

/^\t/ {
	# "\t  ADDR SYM+OFF (DSO)" or "\t  ADDR [unknown] (DSO)"
	s = $0
	sub(/^\t[ ]*/, "", s)
	addr = s
	sub(/ .*/, "", addr)
	d = s
	sub(/^[^(]*\(/, "", d)
	sub(/\)$/, "", d)
	f = s
	sub(/^[^ ]+ /, "", f)
	sub(/ \(.*$/, "", f)
	sub(/\+0x[0-9a-f]+$/, "", f)
	n++
	line[n] = s
	sym[n] = f
	dso[n] = d
	kern[n] = length(addr) == 16 && addr ~ /^ffff/
	next
}

/^$/ {
	if (n)
		judge()
	reset()
	header = ""
}

END {
	if (n)
		judge()
	printf "judged %d right %d lost-elsewhere %d\n", judged, right, elsewhere
	print "the wrong ones, by reason:" > "/dev/stderr"
	for (r in reasons)
		printf "%7d  %s\n", reasons[r], r > "/dev/stderr"
}
