// SPDX-License-Identifier: GPL-2.0
/*
 * Perf maps (util/perf-map.h): which mmaps are JIT memory, the map's name and pid, and a map
 * file's symbols through a dso: hex fields, any line order, overlaps resolved as upstream's
 * tree, malformed lines skipped with one warning, files missing or misplaced refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "util/dso.h"
#include "util/perf-map.h"
#include "util/symbol.h"
#include "tests.h"

static bool sym_named(const struct symbol *sym, const char *name)
{
	return sym && !strcmp(sym->name, name);
}

/* writes text to <tmpdir>/tmp/perf-PID.map for a --symfs of tmpdir */
static int write_map(const struct test_env *env, int pid, const char *text)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tmp", env->tmpdir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/tmp/perf-%d.map", env->tmpdir, pid);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

/* the dso of pid's map loaded under the test's symfs; its warnings into warn */
static struct dso *load_map(const struct test_env *env, int pid, char *warn, size_t size)
{
	struct symbol_conf conf = { .symfs = env->tmpdir };
	char name[64];
	struct dso *dso;
	FILE *fp = fmemopen(warn, size, "w");

	memset(warn, 0, size);
	conf.warn = fp;
	snprintf(name, sizeof(name), "/tmp/perf-%d.map", pid);
	dso = dso__new(name, DSO_KIND_ANON);
	if (dso)
		dso__load(dso, &conf);
	if (fp)
		fclose(fp);
	return dso;
}

DEFINE_SUITE(perf_map)
{
	char warn[1024], name[64];
	struct dso *dso;
	u64 addr;

	TEST_ASSERT(env, perf_map__is_jit_memory("//anon", PROT_EXEC, 0), "//anon");
	TEST_ASSERT(env, !perf_map__is_jit_memory("//anon", PROT_READ, 0), "//anon not exec");
	TEST_ASSERT(env, perf_map__is_jit_memory("[anon:v8 code]", PROT_EXEC, 0), "[anon:]");
	TEST_ASSERT(env, perf_map__is_jit_memory("/dev/zero (deleted)", PROT_EXEC, 0), "zero");
	TEST_ASSERT(env, perf_map__is_jit_memory("/x/huge", PROT_EXEC, MAP_HUGETLB), "hugetlb");
	TEST_ASSERT(env, perf_map__is_jit_memory("[stack:12]", PROT_EXEC, 0), "stack");
	TEST_ASSERT(env, !perf_map__is_jit_memory("/memfd:x (deleted)", PROT_EXEC, 0),
		    "a memfd is a file to upstream");
	TEST_ASSERT(env, !perf_map__is_jit_memory("/usr/lib/libc.so.6", PROT_EXEC, 0), "file");
	TEST_ASSERT(env, perf_map__name(4242, name, sizeof(name)) &&
		    !strcmp(name, "/tmp/perf-4242.map"), "name %s", name);
	TEST_ASSERT(env, !perf_map__name(4242, name, 8), "a name that does not fit");
	TEST_ASSERT(env, perf_map__pid("/tmp/perf-4242.map") == 4242, "pid");
	TEST_ASSERT(env, perf_map__pid("/tmp/perf-4242.mapx") == -1, "suffix");
	TEST_ASSERT(env, perf_map__pid("/tmp/perf-.map") == -1, "no pid");
	TEST_ASSERT(env, perf_map__pid("/tmp/perf-x1.map") == -1, "not a number");
	TEST_ASSERT(env, perf_map__pid("/tmp/perf-99999999999.map") == -1, "too large");
	TEST_ASSERT(env, perf_map__pid("/usr/tmp/perf-1.map") == -1, "elsewhere");

	/* lines in any order, upper-case hex, overlaps as upstream's red-black tree finds them */
	TEST_ASSERT(env, !write_map(env, 4242, "2000 100 second\n1000 100 first\n"
				    "3000 1000 outer\n3400 10 inner\nABCD0 10 upper"),
		    "cannot write the map");
	dso = load_map(env, 4242, warn, sizeof(warn));
	TEST_ASSERT(env, dso && !strcmp(dso->short_name, "[JIT] tid 4242"), "short name");
	TEST_ASSERT(env, !warn[0], "a good map warned: %s", warn);
	TEST_ASSERT(env, sym_named(dso__find_symbol_by_offset(dso, NULL, 0x1010, &addr), "first") &&
		    addr == 0x1010, "first at its address");
	TEST_ASSERT(env, sym_named(dso__find_symbol_by_offset(dso, NULL, 0x20ff, NULL), "second"),
		    "second's last byte");
	TEST_ASSERT(env, !dso__find_symbol_by_offset(dso, NULL, 0x2100, NULL), "after second");
	TEST_ASSERT(env, sym_named(dso__find_symbol_by_offset(dso, NULL, 0x3408, NULL), "inner"),
		    "inner inside outer");
	/*
	 * upstream's tree has inner above outer and ABCD0 right of inner: its search goes
	 * right at inner, then left at ABCD0, and never meets outer
	 */
	TEST_ASSERT(env, !dso__find_symbol_by_offset(dso, NULL, 0x3800, NULL),
		    "outer after inner: upstream's search finds nothing there");
	TEST_ASSERT(env, sym_named(dso__find_symbol_by_offset(dso, NULL, 0x3200, NULL), "outer"),
		    "outer before inner");
	TEST_ASSERT(env, sym_named(dso__find_symbol_by_offset(dso, NULL, 0xabcd4, NULL), "upper"),
		    "the last line, without a newline, keeps its whole name");
	dso__put(dso);

	/* malformed lines: counted, the first named, the good ones kept */
	TEST_ASSERT(env, !write_map(env, 4243, "1000 10 good\nnothex 10 x\n\n2000\n"
				    "0x3000 10 prefixed\n4000 10 \n5000 10 also_good\n"),
		    "cannot write the map");
	dso = load_map(env, 4243, warn, sizeof(warn));
	TEST_ASSERT(env, dso && sym_named(dso__find_symbol_by_offset(dso, NULL, 0x1000, NULL), "good") &&
		    sym_named(dso__find_symbol_by_offset(dso, NULL, 0x5000, NULL), "also_good"),
		    "good lines among bad ones");
	TEST_ASSERT(env, strstr(warn, "perf-4243.map: 5 malformed lines skipped (the first: line 2;") &&
		    !strchr(strchr(warn, '\n') + 1, '\n') ? 1 : 0, "warning: %s", warn);
	dso__put(dso);

	/* a missing map: no symbols, one warning, the load remembered */
	dso = load_map(env, 4244, warn, sizeof(warn));
	TEST_ASSERT(env, dso && !dso__find_symbol_by_offset(dso, NULL, 0x1000, NULL) &&
		    dso->load_errno == ENOENT, "missing map");
	TEST_ASSERT(env, strstr(warn, "perf-4244.map: No such file or directory"), "warning: %s", warn);
	dso__put(dso);
	return TEST_OK;
}
