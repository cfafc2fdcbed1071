# SPDX-License-Identifier: GPL-2.0
# callers.awk - do the callchains of `perf script --no-inline` output hold the known call
# structure of a built-in workload (tools/perf/tests/workloads*.c, workload-cxx.cc)?
#
#	perf script --no-inline -i F | awk -v workload=NAME -v prog=/abs/perf -f callers.awk
#
# prog is the perf binary that ran the workload, as the DSO column names it. Used by
# scripts/vmtest-check.sh and the shell tests (callers-judge.sh checks this judge itself).
#
# A sample is judged when a workload function is in its user chain, or when its user chain
# has no frame of the program (a walk lost in the library's frames, which have no frame
# pointers, ending there or going on into garbage) and has a function the workload calls
# or one that function calls in turn (INNER below: __syscall_cancel, _IO_file_xsgetn, ...):
# a process's start-up and exit, also in libc, are not the workload's (chains without a
# frame of the program in neither, or ending in ld.so, are counted apart, as "lost
# elsewhere"; chains through other functions of the program are not judged). It is right
# when, from its
# innermost frame of the program (a PLT stub counts as the library function it calls):
#   - the library function just below it is one that function calls (read -> sys_read_one,
#     memset -> sys_touch, clock_gettime -> the loop that reads the clock, ...): a caller
#     that is skipped, or the library's own inner frame (__syscall_cancel) appearing as the
#     callee, is wrong. A function the library function tail-jumps to stands for it, as it
#     replaced its frame (__pthread_mutex_unlock_usercnt for pthread_mutex_unlock; glibc
#     2.43's __libc_malloc2 and _int_free_chunk for malloc and free);
#   - each workload function's caller is the one the source calls it from, up to one of
#     the workload's entries (workload__NAME; a thread's start function), which must be
#     reached. Below the library function, its own inner frames are not checked.
#
# python3 is judged differently, as the interpreter is not ours: its samples (comm python3*)
# whose user chain has libc's read in it are judged, and are right when the frame right
# below libc's frames is the interpreter's (python3* or libpython*), called read, and the
# chain does not end in libc (the walk got out of libc); those whose outermost frame is the
# interpreter's _start are counted too ("reach _start"), as the walk through a program
# built without frame pointers may stop short of it.
#
# Prints "judged N right M lost-elsewhere L"; to stderr, the chains of the first 5 wrong
# samples, the count of wrong ones by reason and the innermost functions of the chains
# lost elsewhere.

# The table: for each workload,
#   FN:    "f<-c1|c2 ..." each function of ours and the functions calling it
#   LIB:   "l<-c1|c2 ..." each library function called and the functions of ours calling it
#   INNER: the library's functions that those call (names as libname() gives them)
#   INNER_DSO: a library all of whose functions count as INNER (a frame of it without a
#          symbol is no sign of the workload: start-up touches its pages too)
#   TOP:   the entries: the workload's, and each thread's start function
function table(   f, s) {
	# libc's read(), write(), close() and others make their system call with these
	# (glibc >= 2.41)
	s = "syscall_cancel internal_syscall_cancel"

	FN["syscalls"] = "sys_read_one<-sys_loop sys_write_one<-sys_loop sys_touch<-sys_loop" \
		" sys_loop<-workload__syscalls"
	# spin__expired() is inlined into the loop that spins: clock_gettime's caller
	LIB["syscalls"] = "read<-sys_read_one write<-sys_write_one memset<-sys_touch" \
		" clock_gettime<-sys_loop close<-workload__syscalls"
	INNER["syscalls"] = s

	FN["calls"] = "calls_leaf<-calls_level8|calls_recurse calls_recurse<-calls_level8|calls_recurse"
	for (f = 8; f > 1; f--)
		FN["calls"] = FN["calls"] " calls_level" f "<-calls_level" (f - 1)
	FN["calls"] = FN["calls"] " calls_level1<-workload__calls"
	LIB["calls"] = "clock_gettime<-calls_leaf"

	FN["stdio"] = "stdio_read_one<-stdio_loop stdio_write_one<-stdio_loop stdio_loop<-workload__stdio"
	LIB["stdio"] = "fread<-stdio_read_one fwrite<-stdio_write_one fflush<-stdio_write_one" \
		" clock_gettime<-stdio_loop fclose<-workload__stdio"
	INNER["stdio"] = s " file_xsgetn file_read read new_file_underflow file_underflow" \
		" file_xsputn new_file_xsputn file_sync new_file_sync do_write new_do_write" \
		" file_write new_file_write write memcpy memmove default_xsputn file_overflow" \
		" new_file_overflow file_close_it new_file_close_it new_fclose"

	FN["pread"] = "pread_one<-pread_loop readv_one<-pread_loop preadv_one<-pread_loop" \
		" pread_loop<-workload__pread"
	LIB["pread"] = "pread<-pread_one readv<-readv_one preadv<-preadv_one clock_gettime<-pread_loop"
	INNER["pread"] = s

	FN["condwait"] = "condwait_wait<-condwait_player condwait_signal<-condwait_player" \
		" condwait_player<-condwait_run|condwait_thread condwait_run<-workload__condwait"
	LIB["condwait"] = "pthread_cond_wait<-condwait_wait pthread_cond_signal<-condwait_signal" \
		" pthread_mutex_lock<-condwait_player pthread_mutex_unlock<-condwait_player" \
		" clock_gettime<-condwait_player pthread_create<-condwait_run pthread_join<-condwait_run"
	INNER["condwait"] = s " pthread_cond_wait_common futex_abstimed_wait_common" \
		" futex_abstimed_wait_common64 futex_abstimed_wait_cancelable64 futex_wake" \
		" lll_lock_wait lll_lock_wake pthread_mutex_cond_lock condvar_dec_grefs" \
		" condvar_confirm_wakeup condvar_cancel_waiting condvar_quiesce_and_switch_g1" \
		" pthread_enable_asynccancel pthread_disable_asynccancel pthread_cleanup_push" \
		" pthread_cleanup_pop"
	TOP["condwait"] = "condwait_thread"

	FN["nanosleep"] = "nap_one<-nap_loop nap_clock_one<-nap_loop nap_loop<-workload__nanosleep"
	LIB["nanosleep"] = "nanosleep<-nap_one clock_nanosleep<-nap_clock_one clock_gettime<-nap_loop"
	INNER["nanosleep"] = s

	FN["poll"] = "poll_one<-poll_loop epoll_one<-poll_loop poll_loop<-workload__poll"
	LIB["poll"] = "poll<-poll_one epoll_wait<-epoll_one clock_gettime<-poll_loop"
	INNER["poll"] = s " epoll_pwait"

	FN["malloc"] = "malloc_one<-malloc_loop free_one<-malloc_loop malloc_loop<-workload__malloc"
	LIB["malloc"] = "malloc<-malloc_one free<-free_one clock_gettime<-malloc_loop"
	INNER["malloc"] = "int_malloc int_free sysmalloc sysmalloc_mmap malloc_consolidate" \
		" tcache_init tcache_get tcache_put munmap mmap munmap_chunk unlink_chunk" \
		" int_free_merge_chunk int_free_create_chunk int_free_maybe_consolidate" \
		" malloc_printerr madvise mprotect systrim"

	FN["cxx"] = "cxx_insert_one<-cxx_loop cxx_rewind_one<-cxx_loop cxx_append_one<-cxx_loop" \
		" cxx_shrink_one<-cxx_loop cxx_loop<-workload__cxx"
	LIB["cxx"] = "std::ostream::_M_insert<long><-cxx_insert_one std::ostream::seekp<-cxx_rewind_one|workload__cxx" \
		" std::string::_M_append<-cxx_append_one std::string::reserve<-cxx_shrink_one" \
		" clock_gettime<-cxx_loop"
	# what those call in libstdc++ is too many names: any of its frames is the workload's
	INNER_DSO["cxx"] = "/libstdc\\+\\+\\.so"
	INNER["cxx"] = "malloc free int_malloc int_free memcpy memmove"

	# libc's read() called from the interpreter: see the header. No INNER: the other
	# system calls share them (open's __syscall_cancel is not read's)
	LIB["python3"] = "read<-"
}

# print_pairs LIST: "f<-c1|c2" items as "c1 f" and "c2 f" lines; C++ names and the
# interpreter's (no caller of ours) are left out
function print_pairs(list,   a, b, c, i, j, nc, na) {
	na = split(list, a, " ")
	for (i = 1; i <= na; i++) {
		split(a[i], b, "<-")
		if (b[1] ~ /::/ || b[2] == "")
			continue
		nc = split(b[2], c, "|")
		for (j = 1; j <= nc; j++)
			print c[j], b[1]
	}
}

function die(msg) {
	print "callers.awk: " msg > "/dev/stderr"
	failed = 1
	exit 2
}

BEGIN {
	table()
	if (!(workload in LIB))
		die("no call structure for workload '" workload "'")
	# -v pairs=1: the table's "CALLER CALLEE" calls of C functions, for objdump to check
	if (pairs) {
		print_pairs(FN[workload] " " LIB[workload])
		exit 0
	}
	if (prog == "" && workload != "python3")
		die("prog (the perf binary that ran the workload, as perf script names it) is not set")
	interp = workload == "python3"
	top["workload__" workload] = 1
	nt = split(TOP[workload], a, " ")
	for (i = 1; i <= nt; i++)
		top[a[i]] = 1
	nf = split(FN[workload], a, " ")
	for (i = 1; i <= nf; i++) {
		split(a[i], b, "<-")
		known[b[1]] = 1
		parents[b[1]] = "|" b[2] "|"
	}
	for (f in top)
		known[f] = 1
	nl = split(LIB[workload], a, " ")
	for (i = 1; i <= nl; i++) {
		split(a[i], b, "<-")
		calls[b[1]] = "|" b[2] "|"
	}
	ni = split(INNER[workload], a, " ")
	for (i = 1; i <= ni; i++)
		inner[a[i]] = 1
	n = 0
}

# a demangled C++ name without its parameter list, a template function's return type and
# the std::__cxx11 spelling of the standard strings, which differ by compiler and flags:
# "std::ostream& std::ostream::_M_insert<long>(long)" is std::ostream::_M_insert<long>
function cxxname(s,   i, c, depth, cut) {
	gsub(/std::__cxx11::/, "std::", s)
	gsub(/std::basic_string<char, std::char_traits<char>, std::allocator<char> >/, "std::string", s)
	gsub(/std::basic_stringbuf<char, std::char_traits<char>, std::allocator<char> >/, "std::stringbuf", s)
	sub(/ const$/, "", s)
	if (s ~ /\)$/) {
		depth = 0
		for (i = length(s); i > 0; i--) {
			c = substr(s, i, 1)
			if (c == ")")
				depth++
			else if (c == "(" && !--depth)
				break
		}
		if (i > 1)
			s = substr(s, 1, i - 1)
	}
	# the return type ends at the last space outside template brackets
	depth = 0
	cut = 0
	for (i = length(s); i > 0; i--) {
		c = substr(s, i, 1)
		if (c == ">")
			depth++
		else if (c == "<")
			depth--
		else if (c == " " && !depth) {
			cut = i
			break
		}
	}
	if (cut && substr(s, 1, cut - 1) !~ /^operator$/)
		s = substr(s, cut + 1)
	sub(/^operator /, "operator_", s)
	return s
}

# the library function a frame's symbol names: libc's aliases and variants to one name
function libname(s) {
	# read@plt, clock_gettime@@GLIBC_2.17, std::ostream::sentry::sentry(std::ostream&)@plt
	sub(/@[^()]*$/, "", s)
	if (s ~ /::|\(/)
		return cxxname(s)
	sub(/^_+/, "", s)
	# __GI___libc_write, __libc_pread, __GI___readv
	sub(/^GI_+/, "", s)
	sub(/^libc_/, "", s)
	sub(/^IO_/, "", s)
	sub(/\.(constprop|isra|part|cold)\.[0-9]+$/, "", s)
	if (s ~ /^mem(set|cpy|move)_/)
		sub(/_.*/, "", s)
	if (s ~ /^clock_gettime/ || s ~ /^vdso_clock_gettime/) return "clock_gettime"
	if (s ~ /^clock_nanosleep/) return "clock_nanosleep"
	if (s ~ /^(read|write|pread|preadv|mmap|poll|nanosleep)64$/)
		return substr(s, 1, length(s) - 2)
	# glibc's old names for free
	if (s == "cfree") return "free"
	# tail jumps: pthread_mutex_unlock's to it; glibc 2.43's malloc and free (their
	# fast paths inline, the rest a jump)
	if (s == "pthread_mutex_unlock_usercnt") return "pthread_mutex_unlock"
	if (s == "pthread_clockjoin_ex") return "pthread_join"
	if (s == "malloc2") return "malloc"
	if (s == "int_free_chunk" || s == "tcache_free_init") return "free"
	if (s ~ /^futex_abstimed_wait_common/) return "futex_abstimed_wait_common"
	if (s ~ /^fclose/) return "fclose"
	return s
}

function islib(d) {
	return d ~ /\/lib[^\/]*\.so/ || d == "[vdso]"
}

function judge() {
	if (interp)
		judge_interp()
	else
		judge_program()
}

function judge_program(   i, f, first, user, onlylib, ours, callee, ok, inwl, why) {
	user = 0
	first = 0
	onlylib = 1
	inwl = 0
	for (i = 1; i <= n; i++) {
		if (kern[i])
			continue
		user++
		if (dso[i] == prog && sym[i] !~ /@plt$/) {
			if (!first)
				first = i
			onlylib = 0
		}
		if (dso[i] == prog && (sym[i] in known))
			inwl = 1
	}
	if (!user)
		return
	# a chain through other functions of the program is not the workload's
	if (!inwl && !onlylib)
		return
	if (!inwl) {
		# a chain lost in a library, or walked out of it into garbage: is it in what
		# the workload calls? (ld.so's own mmap and memset at start-up are not, nor
		# what runs from ld.so before main: chains that end in ld.so)
		ours = 0
		for (i = 1; i <= n; i++)
			if (!kern[i] && dso[i] !~ /\/ld-linux/ &&
			    ((f = libname(sym[i])) in calls || f in inner ||
			     (INNER_DSO[workload] != "" && dso[i] ~ INNER_DSO[workload] &&
			      sym[i] != "[unknown]")))
				ours = 1
		if (dso[user_last()] ~ /\/ld-linux/)
			ours = 0
		# a whole chain of start-up or exit (libc's start of main calling exit, the
		# exit handlers, static destructors in libstdc++): it got out, not lost
		if (libname(sym[user_last()]) ~ /^(libc_)?start_(call_)?main$|^start$/)
			ours = 0
		# another library of the program's (libdw's constructor calling memset): the
		# workload calls none but libc (and its INNER_DSO)
		for (i = 1; i <= n; i++)
			if (!kern[i] && islib(dso[i]) && dso[i] !~ /\/(libc|ld-linux[^\/]*)\.so/ &&
			    dso[i] != "[vdso]" &&
			    (INNER_DSO[workload] == "" || dso[i] !~ INNER_DSO[workload]))
				ours = 0
		if (!ours) {
			elsewhere++
			lost[libname(sym[user_first()]) " (" dso[user_first()] ")"]++
			return
		}
	}
	judged++
	ok = first > 0
	why = "the chain ends in " libname(sym[user_last()]) " (" dso[user_last()] ") without a frame of the program"
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
		# an entry calls much else (spin__init, strtoul, open): only its known
		# callees are checked there
		if (callee != "" && (sym[first] in top) && !(callee in calls))
			callee = ""
		if (callee != "" && (!(callee in calls) || !index(calls[callee], "|" sym[first] "|"))) {
			ok = 0
			why = "the program's frame called from " callee " is " sym[first]
		}
	}
	if (ok) {
		# from the first workload function, each caller as the source has it
		for (i = first; i <= n && !(sym[i] in known); i++)
			;
		for (; ok && i <= n && !(sym[i] in top); i++) {
			if (kern[i] || dso[i] != prog) {
				ok = 0
				why = "a frame outside the program between the workload's"
			} else if (i == n) {
				ok = 0
				why = "the chain ends at " sym[i]
			} else if (!index(parents[sym[i]], "|" sym[i + 1] "|")) {
				ok = 0
				why = sym[i] "'s caller is " sym[i + 1]
			}
		}
		if (ok && i > n) {
			ok = 0
			why = "no entry of the workload in the chain"
		}
	}
	verdict(ok, why)
}

function judge_interp(   i, f, user, hasread, libtop, callee, ok, why) {
	if (comm !~ /^python3/)
		return
	user = 0
	hasread = 0
	for (i = 1; i <= n; i++) {
		if (kern[i])
			continue
		user++
		if (islib(dso[i]) && ((f = libname(sym[i])) in calls || f in inner))
			hasread = 1
	}
	if (!user || !hasread)
		return
	judged++
	# the first frame past the innermost run of library frames
	for (i = 1; i <= n && (kern[i] || islib(dso[i])); i++)
		;
	ok = 1
	if (i > n) {
		ok = 0
		why = "the chain ends in " libname(sym[user_last()]) " (" dso[user_last()] ") without a frame of the interpreter"
	} else if (dso[i] !~ /\/(lib)?python3[^\/]*$/) {
		ok = 0
		why = "the frame below libc's is " sym[i] " (" dso[i] "), not the interpreter's"
	} else {
		for (libtop = i - 1; libtop >= 1 && kern[libtop]; libtop--)
			;
		callee = libtop >= 1 ? libname(sym[libtop]) : ""
		if (!(callee in calls)) {
			ok = 0
			why = "the interpreter's frame " sym[i] " calls " callee
		} else if (islib(dso[user_last()])) {
			ok = 0
			why = "the chain ends in " libname(sym[user_last()]) " (" dso[user_last()] ")"
		}
	}
	if (ok && sym[user_last()] == "_start" && dso[user_last()] ~ /\/python3[^\/]*$/)
		started++
	verdict(ok, why)
}

function verdict(ok, why,   i) {
	if (ok) {
		right++
		return
	}
	reasons[why]++
	if (shown++ < 5) {
		print "wrong (" why "): " header > "/dev/stderr"
		for (i = 1; i <= n; i++)
			print "\t" line[i] > "/dev/stderr"
	}
}

# the innermost and the outermost user frames
function user_first(   i) {
	for (i = 1; i <= n; i++)
		if (!kern[i])
			return i
	return 1
}

function user_last(   i) {
	for (i = n; i >= 1; i--)
		if (!kern[i])
			return i
	return 1
}

/^[^\t]/ {
	if (n)
		judge()
	n = 0
	header = $0
	comm = $1
	next
}

/^\t/ {
	# "\t  ADDR SYM+OFF (DSO)" or "\t  ADDR [unknown] (DSO)"; a C++ name may hold
	# spaces and parentheses, a DSO path neither
	s = $0
	sub(/^\t[ ]*/, "", s)
	addr = s
	sub(/ .*/, "", addr)
	d = ""
	f = s
	if (match(s, / \([^()]*\)$/)) {
		d = substr(s, RSTART + 2, RLENGTH - 3)
		f = substr(s, 1, RSTART - 1)
	}
	sub(/^[^ ]+ /, "", f)
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
	n = 0
	header = ""
}

END {
	if (failed)
		exit 2
	if (pairs)
		exit 0
	if (n)
		judge()
	printf "judged %d right %d lost-elsewhere %d\n", judged, right, elsewhere
	if (interp)
		printf "of the right ones, %d reach the interpreter's _start\n", started > "/dev/stderr"
	print "the wrong ones, by reason:" > "/dev/stderr"
	for (r in reasons)
		printf "%7d  %s\n", reasons[r], r > "/dev/stderr"
	print "the chains lost elsewhere, by innermost function:" > "/dev/stderr"
	for (r in lost)
		printf "%7d  %s\n", lost[r], r > "/dev/stderr"
}
