// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF CFI unwinder (util/unwind-dwarf.c) on a real `--call-graph dwarf` recording.
 *
 *  unwind_dwarf_golden  every sample of the perf72 fixture's data/calls_cet.dwarf.data
 *                       unwound from its user regs + stack dump, each ip resolved by the frame
 *                       resolver, must give the user frames upstream perf 7.2 prints for it
 *                       (upstream/calls_cet.dwarf.script-noinline.txt, libdw's unwinding),
 *                       except in the samples listed in upstream_short[], where upstream's
 *                       unwinding stopped after two frames although the dump holds the rest:
 *                       there ours must start with upstream's two frames and go on to
 *                       _start, as the other samples of the same code do.
 *  unwind_dwarf_rules   unwind_dwarf__rule() on the same file's DSOs, checked against the
 *                       instructions (objdump of the fixture's calls_cet, -fcf-protection):
 *                       entry after endbr64, after push %rbp, in the body, and the .plt's
 *                       expression row (not representable).
 *  unwind_dwarf_bounds  the walk on the same samples with every dump cut short (dyn_size),
 *                       registers and dump bytes corrupted: never a read outside the dump
 *                       (ASan sees), CFAs increase, at most 510 frames, every frame found
 *                       before a cut is the one found with the whole dump.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <perf/event.h>
#include <perf/kernel.h>
#include "util/dso.h"
#include "util/frame-resolver.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/sbuf.h"
#include "util/session.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "util/unwind-dwarf.h"
#include "run-helpers.h"
#include "tests.h"

#define USER_TOP	0x0000800000000000ULL

/*
 * The samples (by their header line's timestamp) where upstream's libdw unwinding gave two
 * user frames only (`mid top` or `rec main`) though the dump has the whole stack: each was
 * taken on a `ret` right after `pop %rbp` (mid+0x25, rec+0x48), where the CFI still says
 * rbp is saved at CFA-16, a slot below SP and so outside the dump; libdwfl loses rbp there
 * and, with it, the CFA of every rbp-framed caller. rbp already holds the caller's value.
 */
static const char * const upstream_short[] = {
	" 2995.944074: ", " 2996.310249: ", " 2996.328255: ", " 2996.606243: ",
	NULL,
};

struct golden {
	const struct test_env	*env;
	struct unwind_dwarf	*ud;
	struct frame_resolver	*fr;
	char			*want;		/* upstream's text, cut into samples in place */
	char			*next;		/* the next sample's block in want */
	const char *const	*short_list;	/* upstream_short[] or another, NULL-ended */
	struct sbuf		got;
	bool			live;		/* a recording of this machine: see golden__sample */
	const char *const	*truth;		/* the program's call structure, or NULL */
	const char		*truth_dso;	/* the program's file (a part of its path) */
	const char		*must;		/* count the samples with this in a frame line */
	u64			nr_must;
	u64			nr_truth, nr_truth_bad;
	u64			nr_samples, nr_short, nr_bad, nr_up_empty, nr_up_gave_up;
	int			err;
};

/* one frame as perf script prints it: "\t<ip %16lx> <sym>+0x<off> (<dso>)\n" */
static void format_frame(struct sbuf *sb, const struct resolved_frame *f)
{
	sbuf__printf(sb, "\t%16llx ", (unsigned long long)f->ip);
	if (f->sym)
		sbuf__printf(sb, "%s+0x%llx", f->sym->name,
			     (unsigned long long)(f->sym_addr - f->sym->start));
	else
		sbuf__adds(sb, "[unknown]");
	sbuf__printf(sb, " (%s)\n", f->map && f->map->dso ? f->map->dso->long_name : "[unknown]");
}

/* the next block of upstream's text: *header its first line, the rest its user frames */
static bool next_block(struct golden *g, char **header, struct sbuf *user)
{
	char *p = g->next, *end, *line;

	if (!p || !*p)
		return false;
	end = strstr(p, "\n\n");
	if (end) {
		end[1] = '\0';
		g->next = end + 2;
	} else {
		g->next = p + strlen(p);
	}
	*header = p;
	line = strchr(p, '\n');
	if (!line)
		return true;
	*line++ = '\0';
	sbuf__reset(user);
	while (*line) {
		char *nl = strchr(line, '\n');
		unsigned long long ip = strtoull(line, NULL, 16);

		if (!nl)
			break;
		if (ip < USER_TOP)
			sbuf__add(user, line, (size_t)(nl - line) + 1);
		line = nl + 1;
	}
	return true;
}

/* calls_cet's outermost frame */
static const char cet_start[] = " _start+0x20 (/tmp/w/calls_cet)\n";

static bool listed_short(const struct golden *g, const char *header)
{
	for (size_t i = 0; g->short_list && g->short_list[i]; i++)
		if (strstr(header, g->short_list[i]))
			return true;
	return false;
}

/* name without its version or clone suffix (f3.constprop.0, __libc_start_main@@GLIBC_2.34) */
static bool same_function(const char *name, const char *want)
{
	size_t len = strlen(want);

	return !strncmp(name, want, len) && (!name[len] || name[len] == '.' || name[len] == '@');
}

/*
 * Ground truth: a sample whose ip is in one of the program's functions truth[k] has the
 * callers truth[k + 1], ..., the last (_start), exactly: no frame missing, none spurious.
 */
static void check_truth(struct golden *g, struct thread *thread, const u64 *ips, int n)
{
	const struct resolved_frame *f;
	size_t k, nr = 0;

	while (g->truth[nr])
		nr++;
	f = frame_resolver__addr(g->fr, thread, PERF_RECORD_MISC_USER, ips[0]);
	for (k = 0; k < nr; k++)
		if (f->sym && same_function(f->sym->name, g->truth[k]))
			break;
	/* only the program's own functions: libc's frames below main are not the program's */
	if (k >= nr || !f->dso || f->dso->kind != DSO_KIND_USER || !strstr(f->dso->long_name, g->truth_dso))
		return;
	g->nr_truth++;
	for (int i = 0; i < n || k + (size_t)i < nr; i++) {
		if (i >= n || k + i >= nr) {
			g->nr_truth_bad++;
			return;
		}
		f = frame_resolver__addr(g->fr, thread, PERF_RECORD_MISC_USER, ips[i]);
		if (!f->sym || !same_function(f->sym->name, g->truth[k + i])) {
			g->nr_truth_bad++;
			return;
		}
	}
}

struct golden_tool {
	struct perf_tool	tool;
	struct golden		*g;
};

static int golden__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct golden *g = ((const struct golden_tool *)tool)->g;
	struct thread *thread = perf_session__sample_thread(session, sample);
	u64 ips[UNWIND_MAX_FRAMES];
	struct sbuf want;
	enum unwind_stop why;
	char *header;
	int n;

	(void)event;
	(void)evattr;
	if (!thread)
		return -ENOMEM;
	if (!g->fr) {
		g->fr = frame_resolver__new(&session->machine);
		if (!g->fr)
			return -ENOMEM;
	}
	g->nr_samples++;
	sbuf__init(&want);
	if (!next_block(g, &header, &want)) {
		if (g->env->verbose)
			fprintf(stderr, "sample %llu: upstream has fewer samples\n",
				(unsigned long long)g->nr_samples);
		g->nr_bad++;
		goto out;
	}
	n = unwind_dwarf__walk(g->ud, thread, sample, false, ips, UNWIND_MAX_FRAMES, &why);
	if (n < 0) {
		g->err = n;
		goto out;
	}
	sbuf__reset(&g->got);
	for (int i = 0; i < n; i++)
		format_frame(&g->got, frame_resolver__addr(g->fr, thread, PERF_RECORD_MISC_USER,
							   ips[i]));
	if (g->truth)
		check_truth(g, thread, ips, n);
	if (g->must && g->got.len && memmem(g->got.buf, g->got.len, g->must, strlen(g->must)))
		g->nr_must++;
	if (g->got.len == want.len && !memcmp(g->got.buf, want.buf, want.len))
		goto out;
	/* upstream's two frames, then ours go on to the outermost frame (see upstream_short) */
	if (listed_short(g, header) && g->got.len > want.len &&
	    !memcmp(g->got.buf, want.buf, want.len) && n > 2 && why == UNWIND_STOP_END &&
	    memmem(g->got.buf + want.len, g->got.len - want.len, cet_start, strlen(cet_start))) {
		g->nr_short++;
		goto out;
	}
	/*
	 * Live recordings: upstream prints no user frame at all when the dump is empty (the
	 * kernel could not copy the stack: "nothing was captured", perf does not unwind) or
	 * when libdwfl fails on the first frame: an ip in the [vdso] (upstream 7.2 does not
	 * find it for its unwinder, here where the system perf 6.1 unwinds it) or in no map.
	 * Ours has at least the ip.
	 */
	if (g->live && !want.len && n >= 1) {
		const struct resolved_frame *f = frame_resolver__addr(g->fr, thread,
								      PERF_RECORD_MISC_USER, ips[0]);

		if (!sample->user_stack_dyn_size || !sample->user_stack_size || !f->map ||
		    (f->map->dso && f->map->dso->kind == DSO_KIND_VDSO)) {
			g->nr_up_empty++;
			goto out;
		}
	}
	/*
	 * Live recordings: libdwfl also gives up halfway now and then (seen under load at
	 * _dl_relocate_object+0x840, a sample in ld.so's start-up, where another sample of the
	 * same run went on through dl_main to _start). Allowed where upstream's frames begin
	 * ours and ours reach the outermost frame; counted apart.
	 */
	if (g->live && want.len && g->got.len > want.len &&
	    !memcmp(g->got.buf, want.buf, want.len) && why == UNWIND_STOP_END) {
		g->nr_up_gave_up++;
		goto out;
	}
	g->nr_bad++;
	if (g->env->verbose && g->nr_bad <= 20)
		fprintf(stderr, "%s\n  upstream:\n%.*s  ours (%s; dump %llu of %llu bytes):\n%.*s\n",
			header, (int)want.len, want.buf, unwind_stop__name(why),
			(unsigned long long)sample->user_stack_dyn_size,
			(unsigned long long)sample->user_stack_size, (int)g->got.len, g->got.buf);
out:
	sbuf__exit(&want);
	return g->err;
}

static int fixture_paths(const struct test_env *env, char *data, char *want, char *symfs,
			 size_t size)
{
	char dir[2048];

	if (test_fixture(env, "perf72", dir, sizeof(dir)))
		return -ENOENT;
	snprintf(data, size, "%s/data/calls_cet.dwarf.data", dir);
	snprintf(want, size, "%s/upstream/calls_cet.dwarf.script-noinline.txt", dir);
	snprintf(symfs, size, "%s/symfs", dir);
	return access(data, R_OK) ? -errno : 0;
}

/*
 * Unwinds every sample of data (DSOs under symfs) and compares the user frames with
 * upstream's text want; short lists the samples where upstream stopped short (NULL-ended).
 * 0 with g's counts filled, or a negative errno / TEST_SKIP-worthy -ENOENT for want.
 */
static int compare_with_upstream(const struct test_env *env, const char *data, const char *symfs,
				 const char *want, const char *const *short_list,
				 const char *const *truth, const char *truth_dso, struct golden *g)
{
	struct symbol_conf conf = { .symfs = symfs };
	struct session_opts opts = { .path = data, .symbol_conf = &conf };
	struct golden_tool gt = { .g = g };
	struct perf_session *session = NULL;
	struct perf_err err;
	size_t len;
	int ret;

	const char *must = g->must;

	memset(g, 0, sizeof(*g));
	g->must = must;
	g->env = env;
	g->live = !short_list;
	g->truth = truth;
	g->truth_dso = truth_dso;
	g->short_list = short_list;
	ret = test_read_file(want, &g->want, &len);
	if (ret)
		return ret;
	g->next = g->want;
	sbuf__init(&g->got);
	ret = -ENOMEM;
	g->ud = unwind_dwarf__new(&conf);
	if (!g->ud)
		goto out;
	perf_tool__init(&gt.tool);
	gt.tool.sample = golden__sample;
	session = perf_session__new(&opts, &gt.tool, &err);
	if (!session) {
		if (env->verbose)
			fprintf(stderr, "cannot open %s: %s\n", data, err.msg);
		ret = -EINVAL;
		goto out;
	}
	ret = perf_session__process_events(session);
	if (ret && env->verbose)
		fprintf(stderr, "processing %s failed: %s (%d)\n", data, session->err.msg, g->err);
	/* upstream printed samples we did not see */
	if (*g->next)
		g->nr_bad++;
	if (env->verbose)
		fprintf(stderr, "%s: %llu samples, %llu differ, %llu where upstream stopped short, %llu where it has no user frame, %llu where it gave up before the outermost frame\n",
			data, (unsigned long long)g->nr_samples, (unsigned long long)g->nr_bad,
			(unsigned long long)g->nr_short, (unsigned long long)g->nr_up_empty,
			(unsigned long long)g->nr_up_gave_up);
	if (env->verbose && truth)
		fprintf(stderr, "%s: %llu samples in the program's functions, %llu with wrong callers\n",
			data, (unsigned long long)g->nr_truth, (unsigned long long)g->nr_truth_bad);
out:
	perf_session__delete(session);
	frame_resolver__delete(g->fr);
	unwind_dwarf__delete(g->ud);
	sbuf__exit(&g->got);
	free(g->want);
	return ret;
}

/* calls_cet's structure (the perf72 fixture's src/): rec recurses once here */
static const char *const cet_truth[] = {
	"leaf", "mid", "top", "rec", "main", "__libc_start_call_main", "__libc_start_main",
	"_start", NULL,
};

static size_t list_len(const char *const *list)
{
	size_t n = 0;

	while (list[n])
		n++;
	return n;
}

DEFINE_SUITE(unwind_dwarf_golden)
{
	char data[4096], want[4096], symfs[4096];
	struct golden g = { .must = NULL };
	int ret;

	TEST_ASSERT(env, !fixture_paths(env, data, want, symfs, sizeof(data)), "no fixture %s", data);
	ret = compare_with_upstream(env, data, symfs, want, upstream_short, cet_truth, "/calls_cet",
				    &g);
	if (ret == -ENOENT)
		return test__skip(env, "no fixture %s", want);
	/* every listed sample must still be one: the list is of upstream's faults, not ours */
	TEST_ASSERT(env, !ret && !g.nr_bad && g.nr_samples, "%llu of %llu samples differ",
		    (unsigned long long)g.nr_bad, (unsigned long long)g.nr_samples);
	TEST_ASSERT(env, g.nr_short == list_len(upstream_short), "%llu listed samples, %zu listed",
		    (unsigned long long)g.nr_short, list_len(upstream_short));
	TEST_ASSERT(env, g.nr_truth && !g.nr_truth_bad, "%llu of %llu samples in leaf/mid/top/rec have the wrong callers",
		    (unsigned long long)g.nr_truth_bad, (unsigned long long)g.nr_truth);
	return TEST_OK;
}

/* ---- live recordings of this machine's programs, against upstream perf 7.2 ---- */

/* a C program without frame pointers: a chain of calls whose only record is the CFI */
static const char fpless_src[] =
	"#include <stdlib.h>\n"
	"static volatile unsigned long sink;\n"
	"__attribute__((noinline)) static unsigned long f3(unsigned long x)\n"
	"{ unsigned long r = 0; for (int i = 0; i < 64; i++) r += (x ^ i) * 3; return r; }\n"
	"__attribute__((noinline)) static unsigned long f2(unsigned long x)\n"
	"{ unsigned long a[8]; for (int i = 0; i < 8; i++) a[i] = f3(x + i); return a[x & 7] + 1; }\n"
	"__attribute__((noinline)) static unsigned long f1(unsigned long x)\n"
	"{ return f2(x) + f2(x + 1); }\n"
	"int main(int argc, char **argv)\n"
	"{ unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 200000;\n"
	"  for (unsigned long i = 0; i < n; i++) sink += f1(i); return 0; }\n";

/* C++ through libstdc++: std::sort with a comparator, strings in a map */
static const char cxx_src[] =
	"#include <algorithm>\n#include <map>\n#include <string>\n#include <vector>\n"
	"int main() { std::map<std::string, long> m; std::vector<long> v;\n"
	"  for (long i = 0; i < 300000; i++) { v.push_back((i * 7919) % 100003);\n"
	"    m[std::to_string(i % 5000)] += i; }\n"
	"  for (int k = 0; k < 8; k++) { std::sort(v.begin(), v.end(), [](long a, long b)"
	" { return a % 1000 < b % 1000 || (a % 1000 == b % 1000 && a < b); });\n"
	"    std::reverse(v.begin(), v.end()); }\n"
	"  return m.size() + v[0] == 0; }\n";

/*
 * time spent in a signal handler: chains through glibc's __restore_rt (CIE 'S', expressions).
 * outer() spins until the handler has run 5 times, not for a count of its own: a count ends
 * in some 18 ms on an idle machine, before the first 20 ms SIGALRM, and the case then has no
 * sample in the handler. The timer counts CPU time (ITIMER_PROF): a busy machine delays the
 * signals no more than the program.
 */
static const char signal_src[] =
	"#include <signal.h>\n#include <sys/time.h>\n"
	"static volatile unsigned long sink;\n"
	"static volatile sig_atomic_t handled;\n"
	"__attribute__((noinline)) static void spin(unsigned long n)\n"
	"{ for (unsigned long i = 0; i < n; i++) sink += i * i; }\n"
	"__attribute__((noinline)) static void handler(int sig) { (void)sig; spin(3000000); handled++; }\n"
	"__attribute__((noinline)) static void outer(void) { while (handled < 5) spin(100000); }\n"
	"int main(void) { struct itimerval it = { { 0, 20000 }, { 0, 20000 } };\n"
	"  signal(SIGPROF, handler); setitimer(ITIMER_PROF, &it, 0); outer(); return 0; }\n";

struct live_case {
	const char	*name;
	const char	*build;		/* shell line run in the temp dir first, NULL: none */
	const char	*cmd;		/* what perf record runs (%s: the perf under test) */
	const char *const *truth;	/* its call structure (check_truth()), NULL: none */
	const char	*must;		/* a frame some sample must have, NULL: none */
};

static const char *const fpless_truth[] = {
	"f3", "f2", "f1", "main", "__libc_start_call_main", "__libc_start_main", "_start", NULL,
};

DEFINE_SUITE(unwind_dwarf_live)
{
	const struct live_case cases[] = {
		{ "calls", NULL, "%s test -w calls 1" },
		{ "python", NULL, "/usr/bin/python3 -c 'import json\nfor i in range(200000): json.dumps({str(i): [i] * 8})'" },
		{ "cxx", "g++ -O2 -g -o cxx cxx.cc", "./cxx" },
		{ "fpless", "gcc -O2 -g -fomit-frame-pointer -fno-inline -o fpless fpless.c", "./fpless",
		  fpless_truth },
		{ "signal", "gcc -O2 -g -o signal signal.c", "./signal", NULL,
		  " __restore_rt+0x0 (" },
	};
	char upstream[4096], sysperf[4096], cmd[4096], data[64], want[64], workload[4096];
	int nr_run = 0;
	const char *not_built = NULL;

	if (!test_upstream_perf(env, upstream, sizeof(upstream)))
		return test__skip(env, TEST_NO_UPSTREAM_PERF);
	if (!test_system_perf(env, sysperf, sizeof(sysperf)))
		return test__skip(env, TEST_NO_SYSTEM_PERF);
	/*
	 * the workload runs from the normal build when there is one, as the shell tests' do:
	 * under ASan, LeakSanitizer's thread at exit adds samples in its clone of its own
	 */
	snprintf(workload, sizeof(workload), "%s/tools/perf/perf", env->srcdir);
	if (access(workload, X_OK))
		snprintf(workload, sizeof(workload), "%s", env->perf);
	if (chdir(env->tmpdir) ||
	    test_write_file("fpless.c", fpless_src, sizeof(fpless_src) - 1) ||
	    test_write_file("cxx.cc", cxx_src, sizeof(cxx_src) - 1) ||
	    test_write_file("signal.c", signal_src, sizeof(signal_src) - 1))
		return TEST_FAIL;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct live_case *c = &cases[i];
		struct golden g = { .must = NULL };
		int ret;

		if (c->build && test_run_shell(env, "%s", c->build)) {
			if (env->verbose)
				fprintf(stderr, "  %s: cannot build, skipped\n", c->name);
			not_built = c->name;
			continue;
		}
		snprintf(data, sizeof(data), "%s.data", c->name);
		snprintf(want, sizeof(want), "%s.want", c->name);
		snprintf(cmd, sizeof(cmd), c->cmd, workload);
		if (test_run_shell(env, "%s record -q -N -F 2000 --call-graph dwarf -o %s -- %s >/dev/null",
				   sysperf, data, cmd))
			return test__skip(env, "%s: perf record --call-graph dwarf fails here", c->name);
		/* braces: test_run_shell() appends its own redirection to the line */
		ret = test_run_shell(env, "{ %s script --no-inline -i %s >%s 2>/dev/null; }",
				     upstream, data, want);
		/* its exit 2: upstream perf could not be set up here, nothing to compare with */
		if (ret != -1 && WIFEXITED(ret) && WEXITSTATUS(ret) == 2)
			return nr_run ? test__partial(env, "%d of %zu cases: upstream perf unavailable from %s on",
						      nr_run, ARRAY_SIZE(cases), c->name) :
					test__skip(env, "upstream perf unavailable (%s exited 2)", upstream);
		TEST_ASSERT(env, !ret, "upstream script of %s", data);
		g.must = c->must;
		ret = compare_with_upstream(env, data, "", want, NULL, c->truth, "/fpless", &g);
		TEST_ASSERT(env, !ret, "%s: %d", c->name, ret);
		TEST_ASSERT(env, g.nr_samples, "%s: no samples", c->name);
		TEST_ASSERT(env, !g.nr_bad, "%s: %llu of %llu samples differ from upstream's", c->name,
			    (unsigned long long)g.nr_bad, (unsigned long long)g.nr_samples);
		TEST_ASSERT(env, !c->must || g.nr_must, "%s: no sample has a frame '%s'", c->name,
			    c->must);
		/* without frame pointers the CFI alone must give the whole stack */
		TEST_ASSERT(env, !c->truth || (g.nr_truth && !g.nr_truth_bad),
			    "%s: %llu of %llu samples in the program have the wrong callers", c->name,
			    (unsigned long long)g.nr_truth_bad, (unsigned long long)g.nr_truth);
		nr_run++;
	}
	if (!nr_run)
		return test__skip(env, "no case could be built (%s: cannot build)", not_built);
	if (nr_run < (int)ARRAY_SIZE(cases))
		return test__partial(env, "%d of %zu cases: %s and maybe more cannot build (-v)",
				     nr_run, ARRAY_SIZE(cases), not_built);
	return TEST_OK;
}

/* ---- unwind_dwarf__rule() against the instructions of the fixture's calls_cet ---- */

#define CET_BASE	0x555555554000ULL

DEFINE_SUITE(unwind_dwarf_rules)
{
	/* addresses and rows from objdump -d / readelf --debug-dump=frames of calls_cet */
	static const struct {
		u64			vaddr;
		int			err;
		struct unwind_rule	rule;
		const char		*what;
	} cases[] = {
		{ 0x1230, 0, { .base = UNWIND_BASE_SP, .cfa_off = 8, .ra = UNWIND_LOC_CFA, .ra_off = -8 },
		  "top+0: endbr64, the entry frame" },
		{ 0x1234, 0, { .base = UNWIND_BASE_SP, .cfa_off = 8, .ra = UNWIND_LOC_CFA, .ra_off = -8 },
		  "top+4: push %rbp still to run" },
		{ 0x1235, 0, { .base = UNWIND_BASE_SP, .cfa_off = 16, .ra = UNWIND_LOC_CFA,
			       .ra_off = -8, .fp = UNWIND_LOC_CFA, .fp_off = -16 },
		  "top+5: after push %rbp, before mov %rsp,%rbp (scheduled later)" },
		{ 0x123d, 0, { .base = UNWIND_BASE_SP, .cfa_off = 16, .ra = UNWIND_LOC_CFA,
			       .ra_off = -8, .fp = UNWIND_LOC_CFA, .fp_off = -16 },
		  "top+0xd: the mov %rsp,%rbp itself" },
		{ 0x1240, 0, { .base = UNWIND_BASE_FP, .cfa_off = 16, .ra = UNWIND_LOC_CFA,
			       .ra_off = -8, .fp = UNWIND_LOC_CFA, .fp_off = -16 },
		  "top+0x10: the body, an FP frame" },
		{ 0x125c, 0, { .base = UNWIND_BASE_SP, .cfa_off = 8, .ra = UNWIND_LOC_CFA, .ra_off = -8 },
		  "top+0x2c: ret after pop %rbp: rbp's slot is below SP, rbp unchanged" },
		{ 0x11f4, 0, { .base = UNWIND_BASE_SP, .cfa_off = 8, .ra = UNWIND_LOC_CFA, .ra_off = -8 },
		  "leaf+4: frameless leaf" },
		{ 0x1030, -EOPNOTSUPP, { 0 }, ".plt entry: CFA is an expression" },
		{ 0x1100, -EOPNOTSUPP, { 0 }, "_start: RA undefined, the outermost frame" },
		{ 0x1000, -ENOENT, { 0 }, ".init: no CFI" },
		{ 0x9000, -ENOENT, { 0 }, "past the map" },
	};
	char dir[2048], symfs[4096], path[4096 + 32];
	struct symbol_conf conf = { .symfs = symfs };
	struct unwind_dwarf *ud = NULL;
	struct machine m;
	struct thread *t;
	int ret = TEST_FAIL;

	TEST_ASSERT(env, !test_fixture(env, "perf72", dir, sizeof(dir)), "cannot unpack perf72");
	snprintf(symfs, sizeof(symfs), "%s/symfs", dir);
	snprintf(path, sizeof(path), "%s/tmp/w/calls_cet", symfs);
	TEST_ASSERT(env, !access(path, R_OK), "no fixture %s", path);
	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	if (test_machine_mmap(&m, PERF_RECORD_MISC_USER, 10, CET_BASE, 0x5000, 0, "/tmp/w/calls_cet"))
		goto out;
	t = machine__findnew_thread(&m, 10, 10);
	ud = unwind_dwarf__new(&conf);
	if (!t || !ud)
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct unwind_rule r = { .cfa_off = 12345 };
		int err = unwind_dwarf__rule(ud, t, CET_BASE + cases[i].vaddr, &r);
		const struct unwind_rule *w = &cases[i].rule;

		if (err != cases[i].err) {
			if (env->verbose)
				fprintf(stderr, "%s: returned %d, not %d\n", cases[i].what, err,
					cases[i].err);
			goto out;
		}
		if (err) {
			if (r.cfa_off != 12345) {
				if (env->verbose)
					fprintf(stderr, "%s: rule written on error\n", cases[i].what);
				goto out;
			}
			continue;
		}
		if (r.base != w->base || r.cfa_off != w->cfa_off || r.ra != w->ra ||
		    r.ra_off != w->ra_off || r.fp != w->fp ||
		    (r.fp == UNWIND_LOC_CFA && r.fp_off != w->fp_off) ||
		    r.source != UNWIND_SRC_CFI) {
			if (env->verbose)
				fprintf(stderr, "%s: base %d cfa %d ra %d fp %d/%d source %d\n",
					cases[i].what, r.base, r.cfa_off, r.ra_off, r.fp,
					r.fp_off, r.source);
			goto out;
		}
	}
	/* a thread without maps, or no thread, has no CFI */
	TEST_ASSERT(env, unwind_dwarf__rule(ud, NULL, CET_BASE + 0x1230, &(struct unwind_rule){ 0 }) ==
		    -ENOENT, "no thread");
	ret = TEST_OK;
out:
	unwind_dwarf__delete(ud);
	machine__exit(&m);
	return ret;
}

/* ---- bounds: cut and corrupted dumps, loops, depth ---- */

/* perf_event_x86_regs bits a --call-graph dwarf recording has: AX..SS, R8..R15 (not DS..GS) */
#define REGS_MASK	0xff0fffULL
#define NR_MASK_REGS	20

/* the regs array of REGS_MASK: AX..SS at their bit numbers, then R8..R15 */
static void set_regs(u64 *regs, u64 ip, u64 sp, u64 bp)
{
	memset(regs, 0, NR_MASK_REGS * sizeof(*regs));
	regs[PERF_REG_X86_BP] = bp;
	regs[PERF_REG_X86_SP] = sp;
	regs[PERF_REG_X86_IP] = ip;
}

struct bounds {
	const struct test_env	*env;
	struct unwind_dwarf	*ud;
	u64			nr_samples, nr_walks, nr_bad;
	u64			rnd;
};

static u64 xorshift(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* every walk of a cut or corrupted copy of each sample, against the whole one */
static int bounds__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr);

struct bounds_tool {
	struct perf_tool	tool;
	struct bounds		*b;
};

static int bounds__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr)
{
	struct bounds *b = ((const struct bounds_tool *)tool)->b;
	struct thread *thread = perf_session__sample_thread(session, sample);
	u64 full[UNWIND_MAX_FRAMES], ips[UNWIND_MAX_FRAMES];
	u64 size = sample->user_stack_dyn_size, regs[64];
	struct perf_sample cut = *sample;
	int nfull, n;

	(void)event;
	(void)evattr;
	if (!thread)
		return -ENOMEM;
	nfull = unwind_dwarf__walk(b->ud, thread, sample, false, full, UNWIND_MAX_FRAMES, NULL);
	if (nfull < 1)
		return nfull < 0 ? nfull : -EINVAL;
	b->nr_samples++;
	/* 36: not a multiple of the word size, so that words straddle the end too */
	for (u64 len = 0; len <= size; len += 36) {
		u8 *copy = malloc(len ? len : 1);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, sample->user_stack, len);
		cut.user_stack = copy;
		cut.user_stack_size = len;
		/* a dyn_size past the dump must not be believed */
		cut.user_stack_dyn_size = len & 1 ? size * 2 : len;
		n = unwind_dwarf__walk(b->ud, thread, &cut, false, ips, UNWIND_MAX_FRAMES, NULL);
		b->nr_walks++;
		if (n < 1 || n > nfull || memcmp(ips, full, (size_t)n * sizeof(u64))) {
			if (b->env->verbose && b->nr_bad < 5)
				fprintf(stderr, "sample at %llu, dump cut to %llu: %d frames, whole: %d\n",
					(unsigned long long)sample->time, (unsigned long long)len, n, nfull);
			b->nr_bad++;
		}
		free(copy);
	}
	/* corrupted: a few registers and dump words replaced by noise or by nearby pointers */
	if (sample->user_regs_mask > 0 && __builtin_popcountll(sample->user_regs_mask) <= 64) {
		u8 *copy = malloc(size ? size : 1);
		int nregs = __builtin_popcountll(sample->user_regs_mask);

		if (!copy)
			return -ENOMEM;
		for (int round = 0; round < 8; round++) {
			memcpy(regs, sample->user_regs, (size_t)nregs * sizeof(u64));
			memcpy(copy, sample->user_stack, size);
			for (int k = 0; k < 4; k++) {
				u64 r = xorshift(&b->rnd);

				if (size >= 8)
					memcpy(copy + (r % (size - 7)), &(u64){ r & 1 ? r :
						full[r % nfull] + (r >> 60) }, 8);
				if (round & 1)
					regs[r % nregs] ^= 1ULL << (r >> 58);
			}
			cut = *sample;
			cut.user_regs = regs;
			cut.user_stack = copy;
			cut.user_stack_size = size;
			n = unwind_dwarf__walk(b->ud, thread, &cut, false, ips, UNWIND_MAX_FRAMES, NULL);
			b->nr_walks++;
			if (n < 1 || n > UNWIND_MAX_FRAMES)
				b->nr_bad++;
		}
		free(copy);
	}
	return 0;
}

/* a synthetic stack in calls_cet's top (an FP frame): [sp] = saved rbp, [sp + 8] = RA */
static int synthetic(const struct test_env *env, struct unwind_dwarf *ud, struct thread *t)
{
	const u64 sp = 0x7ffd00000000ULL, body = CET_BASE + 0x1240, ra = CET_BASE + 0x124f;
	enum { DEEP = 600 };
	u64 *stack = calloc(2 * DEEP + 2, sizeof(u64)), *ips = calloc(DEEP, sizeof(u64));
	u64 regs[NR_MASK_REGS];
	struct perf_sample s = {
		.user_regs_abi = PERF_SAMPLE_REGS_ABI_64, .user_regs_mask = REGS_MASK,
		.user_regs = regs, .user_stack = (const u8 *)stack,
	};
	enum unwind_stop why;
	int n, ret = TEST_FAIL;

	if (!stack || !ips)
		goto out;
	/* a loop: the saved rbp is the frame itself, so the CFA cannot increase */
	stack[0] = sp;
	stack[1] = ra;
	set_regs(regs, body, sp, sp);
	s.user_stack_size = s.user_stack_dyn_size = 16;
	n = unwind_dwarf__walk(ud, t, &s, false, ips, DEEP, &why);
	if (n != 2 || why != UNWIND_STOP_LOOP) {
		if (env->verbose)
			fprintf(stderr, "loop: %d frames (%s)\n", n, unwind_stop__name(why));
		goto out;
	}
	/* deeper than the limit: exactly UNWIND_MAX_FRAMES, said so */
	for (int i = 0; i < DEEP; i++) {
		stack[2 * i] = sp + 16 * (i + 1);
		stack[2 * i + 1] = ra;
	}
	s.user_stack_size = s.user_stack_dyn_size = 16 * DEEP;
	n = unwind_dwarf__walk(ud, t, &s, false, ips, DEEP, &why);
	if (n != UNWIND_MAX_FRAMES || why != UNWIND_STOP_MAX_FRAMES) {
		if (env->verbose)
			fprintf(stderr, "deep: %d frames (%s)\n", n, unwind_stop__name(why));
		goto out;
	}
	/* the caller's max is obeyed, and is no error */
	n = unwind_dwarf__walk(ud, t, &s, false, ips, 5, &why);
	if (n != 5 || why != UNWIND_OK || ips[0] != body || ips[1] != ra - 1) {
		if (env->verbose)
			fprintf(stderr, "max 5: %d frames\n", n);
		goto out;
	}
	/* the 32-bit ABI, or no regs: not ours */
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_32;
	if (unwind_dwarf__walk(ud, t, &s, false, ips, DEEP, &why) != -EINVAL)
		goto out;
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_NONE;
	if (unwind_dwarf__walk(ud, t, &s, false, ips, DEEP, &why) != -EINVAL)
		goto out;
	ret = TEST_OK;
out:
	free(stack);
	free(ips);
	return ret;
}

DEFINE_SUITE(unwind_dwarf_bounds)
{
	char data[4096], want[4096], symfs[4096];
	struct symbol_conf conf = { .symfs = symfs };
	struct session_opts opts = { .path = data, .symbol_conf = &conf };
	struct bounds b = { .env = env, .rnd = 0x9e3779b97f4a7c15ULL };
	struct bounds_tool bt = { .b = &b };
	struct perf_session *session;
	struct perf_err err;
	struct machine m;
	struct thread *t;
	int ret;

	TEST_ASSERT(env, !fixture_paths(env, data, want, symfs, sizeof(data)), "no fixture %s", data);
	b.ud = unwind_dwarf__new(&conf);
	TEST_ASSERT(env, b.ud, "unwind_dwarf__new");
	perf_tool__init(&bt.tool);
	bt.tool.sample = bounds__sample;
	session = perf_session__new(&opts, &bt.tool, &err);
	if (!session) {
		unwind_dwarf__delete(b.ud);
		TEST_ASSERT(env, 0, "cannot open %s: %s", data, err.msg);
	}
	ret = perf_session__process_events(session);
	perf_session__delete(session);
	unwind_dwarf__delete(b.ud);
	if (env->verbose)
		fprintf(stderr, "%llu samples, %llu walks, %llu bad\n", (unsigned long long)b.nr_samples,
			(unsigned long long)b.nr_walks, (unsigned long long)b.nr_bad);
	TEST_ASSERT(env, !ret && b.nr_samples && !b.nr_bad, "%llu of %llu walks wrong",
		    (unsigned long long)b.nr_bad, (unsigned long long)b.nr_walks);

	TEST_ASSERT(env, !machine__init(&m, &conf), "machine__init");
	b.ud = unwind_dwarf__new(&conf);
	ret = TEST_FAIL;
	if (b.ud && !test_machine_mmap(&m, PERF_RECORD_MISC_USER, 10, CET_BASE, 0x5000, 0,
				       "/tmp/w/calls_cet") &&
	    (t = machine__findnew_thread(&m, 10, 10)))
		ret = synthetic(env, b.ud, t);
	unwind_dwarf__delete(b.ud);
	machine__exit(&m);
	return ret;
}
