// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF CFI unwinder (util/unwind-dwarf.c) on a real `--call-graph dwarf` recording.
 *
 *  unwind_dwarf_golden  every sample of ../shared/fixtures/perf72/data/calls_cet.dwarf.data
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
#include <perf/event.h>
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
	struct sbuf		got;
	u64			nr_samples, nr_short, nr_bad;
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

static bool listed_short(const char *header)
{
	for (size_t i = 0; upstream_short[i]; i++)
		if (strstr(header, upstream_short[i]))
			return true;
	return false;
}

static int golden__sample(const struct perf_tool *tool, struct perf_session *session,
			  const struct perf_event_header *event, struct perf_sample *sample,
			  struct perf_evattr *evattr);

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
	u64 ips[UNWIND_DWARF_MAX_FRAMES];
	struct sbuf want;
	const char *why;
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
	n = unwind_dwarf__walk(g->ud, thread, sample, ips, UNWIND_DWARF_MAX_FRAMES, &why);
	if (n < 0) {
		g->err = n;
		goto out;
	}
	sbuf__reset(&g->got);
	for (int i = 0; i < n; i++)
		format_frame(&g->got, frame_resolver__addr(g->fr, thread, PERF_RECORD_MISC_USER,
							   ips[i]));
	if (g->got.len == want.len && !memcmp(g->got.buf, want.buf, want.len))
		goto out;
	/* upstream's two frames, then ours go on to the outermost frame (see upstream_short) */
	if (listed_short(header) && g->got.len > want.len &&
	    !memcmp(g->got.buf, want.buf, want.len) && n > 2 && !why &&
	    strstr(g->got.buf + want.len, " _start+0x20 (/tmp/w/calls_cet)\n")) {
		g->nr_short++;
		goto out;
	}
	g->nr_bad++;
	if (g->env->verbose && g->nr_bad <= 20)
		fprintf(stderr, "%s\n  upstream:\n%.*s  ours (%s):\n%.*s\n", header, (int)want.len,
			want.buf, why ? why : "outermost", (int)g->got.len, g->got.buf);
out:
	sbuf__exit(&want);
	return g->err;
}

static int fixture_paths(const struct test_env *env, char *data, char *want, char *symfs,
			 size_t size)
{
	const char *dir = "../shared/fixtures/perf72";

	snprintf(data, size, "%s/%s/data/calls_cet.dwarf.data", env->srcdir, dir);
	snprintf(want, size, "%s/%s/upstream/calls_cet.dwarf.script-noinline.txt", env->srcdir, dir);
	snprintf(symfs, size, "%s/%s/symfs", env->srcdir, dir);
	return access(data, R_OK) ? -errno : 0;
}

DEFINE_SUITE(unwind_dwarf_golden)
{
	char data[4096], want[4096], symfs[4096];
	struct symbol_conf conf = { .symfs = symfs };
	struct session_opts opts = { .path = data, .symbol_conf = &conf };
	struct golden g = { .env = env };
	struct golden_tool gt = { .g = &g };
	struct perf_session *session = NULL;
	struct perf_err err;
	size_t len;
	int ret = TEST_FAIL;

	if (fixture_paths(env, data, want, symfs, sizeof(data)) ||
	    test_read_file(want, &g.want, &len)) {
		if (env->verbose)
			fprintf(stderr, "  no fixture %s\n", want);
		return TEST_SKIP;
	}
	g.next = g.want;
	sbuf__init(&g.got);
	g.ud = unwind_dwarf__new(&conf);
	if (!g.ud)
		goto out;
	perf_tool__init(&gt.tool);
	gt.tool.sample = golden__sample;
	session = perf_session__new(&opts, &gt.tool, &err);
	TEST_ASSERT(env, session, "cannot open %s: %s", data, err.msg);
	if (perf_session__process_events(session)) {
		if (env->verbose)
			fprintf(stderr, "processing failed: %s (%d)\n", session->err.msg, g.err);
		goto out;
	}
	if (env->verbose)
		fprintf(stderr, "%llu samples, %llu differ, %llu where upstream stopped short\n",
			(unsigned long long)g.nr_samples, (unsigned long long)g.nr_bad,
			(unsigned long long)g.nr_short);
	/* every listed sample must still be one: the list is of upstream's faults, not ours */
	if (!g.nr_bad && g.nr_samples && !*g.next &&
	    g.nr_short == sizeof(upstream_short) / sizeof(upstream_short[0]) - 1)
		ret = TEST_OK;
out:
	perf_session__delete(session);
	frame_resolver__delete(g.fr);
	unwind_dwarf__delete(g.ud);
	sbuf__exit(&g.got);
	free(g.want);
	return ret;
}
