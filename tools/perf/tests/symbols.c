// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables and DSO symbol loading.
 *
 * Where expectations come from: the table rules are upstream perf's (symbols__fixup_end,
 * choose_best_symbol, the red-black tree search), worked by hand in the comments; the ELF
 * tests build a program with gcc whose functions have sizes fixed in assembly and that
 * prints, from /proc/self/maps, the file offset of each function as a running process sees
 * it (exactly what a sample gives us); the golden test replays the frames upstream perf 7.2
 * printed for the fixture recordings; the PLT names of the fixture DSOs were printed by
 * upstream perf 7.2 for synthetic samples at those offsets (see golden_plt below).
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/kernel.h>
#include "util/dso.h"
#include "util/symbol.h"
#include "run-helpers.h"
#include "tests.h"

/* ---- helpers ---- */

static bool sym_is(const struct symbol *sym, const char *name)
{
	return sym && sym->name && !strcmp(sym->name, name);
}

static const char *sym_name(const struct symbol *sym)
{
	return sym ? sym->name : "(none)";
}

/* ---- the table: perf's rules, no files ---- */

static const struct symbol *add_find(struct symbols *s, u64 addr)
{
	return symbols__find(s, addr);
}

DEFINE_SUITE(symbols_table)
{
	struct symbols s;
	const struct symbol *sym;
	long a, b;

	/*
	 * Duplicates: each pair shares a start; perf keeps, in this order of criteria, the
	 * sized one, the typed one, the non-weak, the global, the one with fewer leading
	 * underscores, the longer name, the first added; "SyS" kernel aliases lose ties.
	 */
	symbols__init(&s);
	symbols__add(&s, 0x100, 0, "zz", STB_GLOBAL, STT_FUNC);		/* ends at 0x100: dup */
	symbols__add(&s, 0x100, 0x110, "yy", STB_LOCAL, STT_FUNC);
	symbols__add(&s, 0x200, 0x210, "lab", STB_GLOBAL, STT_NOTYPE);
	symbols__add(&s, 0x200, 0x210, "fun", STB_LOCAL, STT_FUNC);
	symbols__add(&s, 0x300, 0x310, "weakk", STB_WEAK, STT_FUNC);
	symbols__add(&s, 0x300, 0x310, "strong", STB_LOCAL, STT_FUNC);
	symbols__add(&s, 0x400, 0x410, "loc", STB_LOCAL, STT_FUNC);
	symbols__add(&s, 0x400, 0x410, "glo", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x500, 0x510, "__x", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x500, 0x510, "_yy", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x600, 0x610, "abc", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x600, 0x610, "abcd", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x700, 0x710, "one", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x700, 0x710, "two", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x800, 0x810, "SyS_read", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x800, 0x810, "sys_read", STB_GLOBAL, STT_FUNC);
	/*
	 * Ends are fixed before duplicates go: of two zero-sized symbols at 0x900 the first
	 * ends where the second starts (still size 0), the second at 0xa00, so the second wins
	 * although a plain tie would keep the first.
	 */
	symbols__add(&s, 0x900, 0, "aa1", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x900, 0, "aa2", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0xa00, 0xa08, "sized", STB_GLOBAL, STT_FUNC);
	/* the last symbol, zero-sized: ends at the page boundary after its start, + 4096 */
	symbols__add(&s, 0x1234, 0, "last", STB_GLOBAL, STT_FUNC);
	symbols__finish(&s);

	TEST_ASSERT(env, s.nr == 11, "%zu symbols survive, expected 11", s.nr);
	TEST_ASSERT(env, sym_is(add_find(&s, 0x105), "yy"), "sized wins: %s", sym_name(add_find(&s, 0x105)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x200), "fun"), "typed wins: %s", sym_name(add_find(&s, 0x200)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x300), "strong"), "non-weak wins: %s", sym_name(add_find(&s, 0x300)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x400), "glo"), "global wins: %s", sym_name(add_find(&s, 0x400)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x500), "_yy"), "fewer underscores win: %s", sym_name(add_find(&s, 0x500)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x600), "abcd"), "longer name wins: %s", sym_name(add_find(&s, 0x600)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x700), "one"), "tie keeps the first: %s", sym_name(add_find(&s, 0x700)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x800), "sys_read"), "SyS loses: %s", sym_name(add_find(&s, 0x800)));
	TEST_ASSERT(env, sym_is(add_find(&s, 0x9ff), "aa2"), "end fixup before dedup: %s", sym_name(add_find(&s, 0x9ff)));

	/* gaps: a sized symbol does not reach the next one; 0x110..0x1ff has no symbol */
	TEST_ASSERT(env, add_find(&s, 0x110) == NULL, "gap after yy: %s", sym_name(add_find(&s, 0x110)));
	TEST_ASSERT(env, add_find(&s, 0xff) == NULL, "before the first symbol");
	sym = add_find(&s, 0x10f);
	TEST_ASSERT(env, sym_is(sym, "yy") && sym->end == 0x110, "end is exclusive");
	/* "sized" [0xa00, 0xa08), then "last" from 0x1234 to 0x2000 + 0x1000 */
	TEST_ASSERT(env, add_find(&s, 0xa08) == NULL, "gap after sized");
	TEST_ASSERT(env, sym_is(add_find(&s, 0x2fff), "last"), "last symbol's page rule: %s", sym_name(add_find(&s, 0x2fff)));
	TEST_ASSERT(env, add_find(&s, 0x3000) == NULL, "after the last symbol's end");
	TEST_ASSERT(env, !s.key_sym, "disjoint symbols need no range table");

	/* adding after sealing reopens the table */
	TEST_ASSERT(env, symbols__add(&s, 0x4000, 0x4010, "late", STB_GLOBAL, STT_FUNC) == 0, "late add");
	symbols__finish(&s);
	TEST_ASSERT(env, sym_is(add_find(&s, 0x4008), "late") && sym_is(add_find(&s, 0x105), "yy"),
		    "reopened table lost symbols");
	symbols__exit(&s);

	/*
	 * Overlaps are resolved like perf's tree search. Inserting outer [0,100), inner
	 * [50,60), third [70,80) rotates inner to the root (outer left, third right). So 65
	 * goes right of inner, left of third and finds nothing, although outer contains it.
	 */
	symbols__init(&s);
	symbols__add(&s, 0, 100, "outer", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 50, 60, "inner", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 70, 80, "third", STB_GLOBAL, STT_FUNC);
	symbols__finish(&s);
	TEST_ASSERT(env, sym_is(add_find(&s, 20), "outer"), "20: %s", sym_name(add_find(&s, 20)));
	TEST_ASSERT(env, sym_is(add_find(&s, 55), "inner"), "55: %s", sym_name(add_find(&s, 55)));
	TEST_ASSERT(env, add_find(&s, 65) == NULL, "65: %s", sym_name(add_find(&s, 65)));
	TEST_ASSERT(env, sym_is(add_find(&s, 75), "third"), "75: %s", sym_name(add_find(&s, 75)));
	TEST_ASSERT(env, add_find(&s, 90) == NULL, "90: %s", sym_name(add_find(&s, 90)));
	symbols__exit(&s);

	/* without fixups a zero-sized symbol matches its start only; before sealing, nothing */
	symbols__init(&s);
	symbols__add(&s, 0x100, 0, "z", STB_GLOBAL, STT_FUNC);
	TEST_ASSERT(env, add_find(&s, 0x100) == NULL, "lookups before sealing must miss");
	symbols__seal(&s);
	TEST_ASSERT(env, sym_is(add_find(&s, 0x100), "z") && !add_find(&s, 0x101), "zero-sized");
	symbols__exit(&s);

	/* the survivor of a duplicate with an IFUNC counts as one (it names IRELATIVE PLT slots) */
	symbols__init(&s);
	a = symbols__insert(&s, 0x10, 0x20, "memcpy_ifunc", STB_LOCAL, STT_GNU_IFUNC);
	b = symbols__insert(&s, 0x10, 0x20, "memcpy", STB_GLOBAL, STT_FUNC);
	TEST_ASSERT(env, a >= 0 && b >= 0, "insert");
	symbols__fixup(&s, false);
	TEST_ASSERT(env, symbols__find_idx(&s, 0x10) == b && symbols__is_ifunc(&s, b),
		    "ifunc alias not recorded");
	symbols__exit(&s);

	/* kallsyms: the last kernel symbol before a module stops at a page boundary */
	symbols__init(&s);
	symbols__add(&s, 0x1000, 0, "k1", STB_GLOBAL, STT_FUNC);
	symbols__add(&s, 0x9000, 0, "m1\t[modA]", STB_GLOBAL, STT_FUNC);
	symbols__fixup(&s, true);
	symbols__seal(&s);
	TEST_ASSERT(env, sym_is(add_find(&s, 0x1fff), "k1") && !add_find(&s, 0x2000),
		    "kernel symbol ran into the module gap");
	symbols__exit(&s);
	return TEST_OK;
}

/* ---- DSO kinds and the table ---- */

DEFINE_SUITE(dsos_table)
{
	static const struct {
		const char	*name;
		enum dso_kind	kind;
	} kinds[] = {
		{ "[kernel.kallsyms]", DSO_KIND_KERNEL },
		{ "[kernel.kallsyms]_text", DSO_KIND_KERNEL },
		{ "[guest.kernel.kallsyms]", DSO_KIND_KERNEL },
		{ "[vdso]", DSO_KIND_VDSO },
		{ "//anon", DSO_KIND_ANON },
		{ "[heap]", DSO_KIND_ANON },
		{ "[stack]", DSO_KIND_ANON },
		{ "[stack:1234]", DSO_KIND_ANON },
		{ "/anon_hugepage (deleted)", DSO_KIND_ANON },
		{ "/dev/zero (deleted)", DSO_KIND_ANON },
		{ "/memfd:jit (deleted)", DSO_KIND_ANON },
		{ "/SYSV00000000 (deleted)", DSO_KIND_ANON },
		{ "[uprobes]", DSO_KIND_ANON },
		{ "[vsyscall]", DSO_KIND_ANON },
		{ "[ext4]", DSO_KIND_KMODULE },
		{ "/usr/lib/x86_64-linux-gnu/libc.so.6", DSO_KIND_USER },
		{ "/lib/modules/6.1/kernel/fs/ext4/ext4.ko", DSO_KIND_USER },
	};
	struct dsos dsos;
	struct dso *d, *first, *kept;
	char name[64];

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		TEST_ASSERT(env, dso__kind_of(kinds[i].name) == kinds[i].kind, "kind of %s: %d",
			    kinds[i].name, dso__kind_of(kinds[i].name));

	dsos__init(&dsos);
	first = dsos__findnew(&dsos, "/bin/x", DSO_KIND_USER);
	TEST_ASSERT(env, first && !strcmp(first->short_name, "x"), "short name");
	/* enough names to make the table grow several times */
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/lib/lib%d.so", i);
		TEST_ASSERT(env, dsos__findnew(&dsos, name, DSO_KIND_USER), "findnew %s", name);
	}
	TEST_ASSERT(env, hashmap__nr(&dsos.map) == 1001, "%zu dsos", hashmap__nr(&dsos.map));
	TEST_ASSERT(env, dsos__findnew(&dsos, "/bin/x", DSO_KIND_USER) == first, "findnew dup");
	d = dsos__find(&dsos, "/lib/lib517.so");
	TEST_ASSERT(env, d && !strcmp(d->long_name, "/lib/lib517.so"), "find");
	TEST_ASSERT(env, !dsos__find(&dsos, "/lib/lib1000.so"), "find of an unknown name");
	/* a map's reference outlives the table */
	kept = dso__get(d);
	dsos__exit(&dsos);
	TEST_ASSERT(env, kept->refcnt == 1 && !strcmp(kept->short_name, "lib517.so"), "ref");
	/* loading a pseudo mapping or kernel dso is a no-op, and safe */
	TEST_ASSERT(env, dso__find_symbol_by_offset(kept, NULL, 0, NULL) == NULL, "no file");
	dso__put(kept);
	d = dso__new("[kernel.kallsyms]", DSO_KIND_KERNEL);
	TEST_ASSERT(env, d && dso__load(d, NULL) == 0 && d->symbols.nr == 0 && !d->loaded,
		    "dso__load must leave kernel dsos to kallsyms");
	/* kernel dsos are searched by address, whatever kallsyms put there since */
	{
		u64 addr = 0;

		TEST_ASSERT(env, !dso__find_symbol_by_offset(d, NULL, 0xffffffff81000010, &addr) &&
			    addr == 0xffffffff81000010, "kernel lookup before kallsyms");
		symbols__add(&d->symbols, 0xffffffff81000000, 0, "_text", STB_GLOBAL, STT_FUNC);
		symbols__finish(&d->symbols);
		TEST_ASSERT(env, sym_is(dso__find_symbol_by_offset(d, NULL, 0xffffffff81000010, &addr),
					"_text"), "kernel lookup after kallsyms");
	}
	dso__put(d);
	d = dso__new("//anon", DSO_KIND_ANON);
	TEST_ASSERT(env, d && dso__load(d, NULL) == 0, "anon load");
	dso__put(d);
	return TEST_OK;
}

/* ---- a fresh build ---- */

/*
 * Sizes are fixed in assembly; comments give the expected survivor of each alias group.
 * The gap after fa belongs to no symbol since fa is sized.
 */
static const char funcs_s[] =
	"\t.text\n\t.p2align 6\n"
	"\t.globl fa\n\t.type fa,@function\nfa:\n\t.fill 64,1,0xc3\n\t.size fa,64\n"
	"\t.fill 32,1,0xcc\n"
	/* an untyped global label in .text: kept, zero-sized, so it ends at fb */
	"\t.globl zl\nzl:\n\t.fill 16,1,0xc3\n"
	/* global fb beats weak fw */
	"\t.globl fb\n\t.type fb,@function\n\t.weak fw\n\t.type fw,@function\n"
	"fb:\nfw:\n\t.fill 48,1,0xc3\n\t.size fb,48\n\t.size fw,48\n"
	/* global __fu beats local fl despite its underscores */
	"\t.type fl,@function\n\t.globl __fu\n\t.type __fu,@function\n"
	"fl:\n__fu:\n\t.fill 16,1,0xc3\n\t.size fl,16\n\t.size __fu,16\n"
	/* the sized fs beats the zero-sized fz at the same address */
	"\t.globl fz\n\t.type fz,@function\n\t.globl fs\n\t.type fs,@function\n"
	"fz:\nfs:\n\t.fill 8,1,0xc3\n\t.size fs,8\n"
	"\t.section .note.GNU-stack,\"\",@progbits\n";

/* prints the file offsets a sample in each function would carry: ip - start + pgoff */
static const char prog_c[] =
	"#include <stdio.h>\n"
	"void fa(void), zl(void), fb(void), __fu(void), fs(void);\n"
	"static unsigned long long off(void (*fn)(void))\n"
	"{\n"
	"	unsigned long long lo, hi, pgoff, a = (unsigned long long)(unsigned long)fn;\n"
	"	char line[512];\n"
	"	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"	while (f && fgets(line, sizeof(line), f))\n"
	"		if (sscanf(line, \"%llx-%llx %*s %llx\", &lo, &hi, &pgoff) == 3 &&\n"
	"		    a >= lo && a < hi) {\n"
	"			fclose(f);\n"
	"			return a - lo + pgoff;\n"
	"		}\n"
	"	return 0;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"	/* not PIE, not PIC: &puts is the executable's PLT entry */\n"
	"	printf(\"%llx %llx %llx %llx %llx %llx\\n\", off(fa), off(zl), off(fb), off(__fu),\n"
	"	       off(fs), off((void (*)(void))puts));\n"
	"	return 0;\n"
	"}\n";

enum { OFF_FA, OFF_ZL, OFF_FB, OFF_FU, OFF_FS, OFF_PUTS, NR_OFFS };

struct build {
	char	fs[4096];		/* the symfs */
	u64	off[NR_OFFS];
};

static int build_init(const struct test_env *env, struct build *b)
{
	char path[4096];

	snprintf(b->fs, sizeof(b->fs), "%s/fs", env->tmpdir);
	if (test_run_shell(env, "mkdir -p '%s/bin' '%s/bin/.debug' '%s/usr/lib/debug/.build-id'", b->fs,
		b->fs, b->fs))
		return -1;
	snprintf(path, sizeof(path), "%s/funcs.S", env->tmpdir);
	if (test_write_file(path, funcs_s, sizeof(funcs_s) - 1))
		return -1;
	snprintf(path, sizeof(path), "%s/prog.c", env->tmpdir);
	return test_write_file(path, prog_c, sizeof(prog_c) - 1);
}

/* build <fs>/bin/<name> with the given 20-byte build id (40 hex digits) */
static int build_prog(const struct test_env *env, struct build *b, const char *name,
		      const char *bid, const char *extra)
{
	return test_run_shell(env, "cd '%s' && gcc -O2 -no-pie -fno-pic %s -Wl,--build-id=0x%s -o '%s/bin/%s' "
		   "prog.c funcs.S", env->tmpdir, extra, bid, b->fs, name);
}

static int read_offsets(const struct test_env *env, struct build *b, const char *name)
{
	char cmd[8192];
	unsigned long long v[NR_OFFS];
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "'%s/bin/%s'", b->fs, name);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fscanf(p, "%llx %llx %llx %llx %llx %llx", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]);
	pclose(p);
	if (n != NR_OFFS)
		return -1;
	for (int i = 0; i < NR_OFFS; i++)
		b->off[i] = v[i];
	if (env->verbose)
		fprintf(stderr, "offsets of %s: fa %llx zl %llx fb %llx __fu %llx fs %llx puts %llx\n",
			name, v[0], v[1], v[2], v[3], v[4], v[5]);
	return 0;
}

/* name+off as perf script prints a frame, or [unknown] */
static const char *resolve(struct dso *dso, const struct symbol_conf *conf, u64 off,
			   char *buf, size_t size)
{
	u64 vaddr;
	const struct symbol *sym = dso__find_symbol_by_offset(dso, conf, off, &vaddr);

	if (!sym)
		return "[unknown]";
	snprintf(buf, size, "%s+0x%llx", sym->name, (unsigned long long)(vaddr - sym->start));
	return buf;
}

#define EXPECT_SYM(env, dso, conf, off, want)						\
	do {										\
		char __buf[512];							\
		const char *__got = resolve(dso, conf, off, __buf, sizeof(__buf));	\
		TEST_ASSERT(env, !strcmp(__got, want), "%s at %#llx: %s, expected %s",	\
			    (dso)->long_name, (unsigned long long)(off), __got, want);	\
	} while (0)

static bool prereqs(const struct test_env *env)
{
	(void)env;
	return test_have_tool("gcc") && test_have_tool("objcopy") && test_have_tool("strip");
}

static int check_prog(const struct test_env *env, const struct build *b, const char *name,
		      bool plt)
{
	struct symbol_conf conf = { .symfs = b->fs };
	char long_name[256];
	struct dso *dso;
	int ret = TEST_FAIL;

	snprintf(long_name, sizeof(long_name), "/bin/%s", name);
	dso = dso__new(long_name, DSO_KIND_USER);
	if (!dso)
		return TEST_FAIL;
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FA], "fa+0x0");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FA] + 63, "fa+0x3f");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FA] + 64, "[unknown]");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FA] + 95, "[unknown]");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_ZL], "zl+0x0");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_ZL] + 15, "zl+0xf");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FB], "fb+0x0");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FB] + 47, "fb+0x2f");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FU] + 1, "__fu+0x1");
	EXPECT_SYM(env, dso, &conf, b->off[OFF_FS] + 7, "fs+0x7");
	if (plt) {
		EXPECT_SYM(env, dso, &conf, b->off[OFF_PUTS], "puts@plt+0x0");
		EXPECT_SYM(env, dso, &conf, b->off[OFF_PUTS] + 4, "puts@plt+0x4");
	}
	TEST_ASSERT(env, dso->load_errno == 0, "load_errno %d", dso->load_errno);
	ret = TEST_OK;
	dso__put(dso);
	return ret;
}

static const char bid_plain[] = "0123456789abcdef0123456789abcdef01234567";
static const char bid_ibt[] = "1123456789abcdef0123456789abcdef01234567";

DEFINE_SUITE(symbols_elf)
{
	struct build b;

	if (!prereqs(env))
		return test__skip(env, "gcc, objcopy and strip are needed to build test DSOs");
	TEST_ASSERT(env, !build_init(env, &b), "setting up %s", env->tmpdir);
	TEST_ASSERT(env, !build_prog(env, &b, "prog", bid_plain, ""), "gcc failed");
	TEST_ASSERT(env, !read_offsets(env, &b, "prog"), "running the test program failed");
	return check_prog(env, &b, "prog", true);
}

/*
 * IBT: &puts is the .plt.sec entry; .plt holds the lazy stubs. A test of its own, so a
 * toolchain without -fcf-protection or -z ibtplt shows as Skip, not as a pass.
 */
DEFINE_SUITE(symbols_elf_ibt)
{
	struct build b;

	if (!prereqs(env))
		return test__skip(env, "gcc, objcopy and strip are needed to build test DSOs");
	TEST_ASSERT(env, !build_init(env, &b), "setting up %s", env->tmpdir);
	if (test_run_shell(env, "cd '%s' && gcc -O2 -no-pie -fno-pic -fcf-protection=full -Wl,-z,ibtplt "
		"-Wl,--build-id=0x%s -o '%s/bin/prog_ibt' prog.c funcs.S && "
		"readelf -SW '%s/bin/prog_ibt' | grep -q '\\.plt\\.sec'", env->tmpdir, bid_ibt,
		b.fs, b.fs))
		return test__skip(env, "no IBT PLT (.plt.sec) from this toolchain");
	TEST_ASSERT(env, !read_offsets(env, &b, "prog_ibt"), "running the IBT program failed");
	return check_prog(env, &b, "prog_ibt", true);
}

/* ---- debug files ---- */

struct dbg_case {
	const char	*name;
	const char	*bid;		/* of the binary under symfs */
	const char	*recorded;	/* build id in the recording, or NULL */
	const char	*setup;		/* shell, in <fs>/bin, after the build */
	const char	*symsrc;	/* expected source, relative to <fs>; NULL: none */
	bool		resolves;	/* fa has a name */
	int		load_errno;
};

/* %1$s = fs, %2$s = name, %3$s = build id (hex) of the binary, %4$s = tmpdir */
static const struct dbg_case dbg_cases[] = {
	{ "p1", "1000000000000000000000000000000000000001", NULL,
	  "objcopy --only-keep-debug p1 p1.debug && strip -s p1 && "
	  "objcopy --add-gnu-debuglink=p1.debug p1",
	  "/bin/p1.debug", true, 0 },
	/* the debuglink file in .debug/, under a name unlike the binary's */
	{ "p2", "2000000000000000000000000000000000000002", NULL,
	  "objcopy --only-keep-debug p2 .debug/other.dbg && strip -s p2 && "
	  "cd .debug && objcopy --add-gnu-debuglink=other.dbg ../p2",
	  "/bin/.debug/other.dbg", true, 0 },
	/* only the build-id tree */
	{ "p3", "3000000000000000000000000000000000000003", NULL,
	  "mkdir -p ../usr/lib/debug/.build-id/30 && objcopy --only-keep-debug p3 "
	  "../usr/lib/debug/.build-id/30/00000000000000000000000000000000000003.debug && strip -s p3",
	  "/usr/lib/debug/.build-id/30/00000000000000000000000000000000000003.debug", true, 0 },
	/* a debuglink to another build's debug file is skipped; the build-id tree has ours */
	{ "p4", "4000000000000000000000000000000000000004", NULL,
	  "objcopy --only-keep-debug other p4.debug && mkdir -p ../usr/lib/debug/.build-id/40 && "
	  "objcopy --only-keep-debug p4 "
	  "../usr/lib/debug/.build-id/40/00000000000000000000000000000000000004.debug && "
	  "strip -s p4 && objcopy --add-gnu-debuglink=p4.debug p4",
	  "/usr/lib/debug/.build-id/40/00000000000000000000000000000000000004.debug", true, 0 },
	/* ... and with nothing else, only .dynsym is left: imports, no symbol at all */
	{ "p5", "5000000000000000000000000000000000000005", NULL,
	  "objcopy --only-keep-debug other p5.debug && strip -s p5 && "
	  "objcopy --add-gnu-debuglink=p5.debug p5",
	  "/bin/p5", false, DSO_LOAD_ERRNO__NO_SYMBOLS },
	/* a debug file wins over the binary's own .symtab, as in perf's order */
	{ "p6", "6000000000000000000000000000000000000006", NULL,
	  "objcopy --only-keep-debug p6 p6.debug && objcopy --add-gnu-debuglink=p6.debug p6",
	  "/bin/p6.debug", true, 0 },
	/* recorded build id != the binary's: the binary is rejected, the debug file is not */
	{ "p7", "7000000000000000000000000000000000000077", "7000000000000000000000000000000000000007",
	  "mkdir -p ../usr/lib/debug/.build-id/70 && objcopy --only-keep-debug p7_rec "
	  "../usr/lib/debug/.build-id/70/00000000000000000000000000000000000007.debug",
	  "/usr/lib/debug/.build-id/70/00000000000000000000000000000000000007.debug", true, 0 },
	/* ... and without one nothing is usable */
	{ "p8", "8000000000000000000000000000000000000088", "8000000000000000000000000000000000000008",
	  "true", NULL, false, DSO_LOAD_ERRNO__MISMATCHING_BUILDID },
};

DEFINE_SUITE(symbols_debuginfo)
{
	struct build b;
	char path[8192];

	if (!prereqs(env))
		return test__skip(env, "gcc, objcopy and strip are needed to build test DSOs");
	TEST_ASSERT(env, !build_init(env, &b), "setting up %s", env->tmpdir);
	/* "other": a different build, whose debug file must never be used for ours */
	TEST_ASSERT(env, !build_prog(env, &b, "other", "ff00000000000000000000000000000000000000", ""),
		    "gcc failed");
	TEST_ASSERT(env, !read_offsets(env, &b, "other"), "running the test program failed");
	/* every build has the same layout (same code, same build id size), so one run suffices */
	for (size_t i = 0; i < ARRAY_SIZE(dbg_cases); i++) {
		const struct dbg_case *c = &dbg_cases[i];
		struct symbol_conf conf = { .symfs = b.fs };
		char buf[512];
		struct dso *dso;
		const char *got;

		TEST_ASSERT(env, !build_prog(env, &b, c->name, c->bid, ""), "gcc failed");
		if (c->recorded) {
			/* the build that was recorded, for its debug file */
			snprintf(buf, sizeof(buf), "%s_rec", c->name);
			TEST_ASSERT(env, !build_prog(env, &b, buf, c->recorded, ""), "gcc failed");
		}
		TEST_ASSERT(env, !test_run_shell(env, "cd '%s/bin' && %s", b.fs, c->setup), "%s: setup failed",
			    c->name);

		snprintf(path, sizeof(path), "/bin/%s", c->name);
		dso = dso__new(path, DSO_KIND_USER);
		TEST_ASSERT(env, dso, "dso__new");
		if (c->recorded) {
			u8 id[20];

			for (int j = 0; j < 20; j++)
				sscanf(c->recorded + 2 * j, "%2hhx", &id[j]);
			dso__set_build_id(dso, id, sizeof(id));
		}
		got = resolve(dso, &conf, b.off[OFF_FA] + 1, buf, sizeof(buf));
		if (strcmp(got, c->resolves ? "fa+0x1" : "[unknown]")) {
			if (env->verbose)
				fprintf(stderr, "%s: fa+1 resolves to %s (from %s)\n", c->name, got,
					dso->symsrc_path ? dso->symsrc_path : "nothing");
			dso__put(dso);
			return TEST_FAIL;
		}
		snprintf(path, sizeof(path), "%s%s", b.fs, c->symsrc ? c->symsrc : "");
		if (c->symsrc ? !dso->symsrc_path || strcmp(dso->symsrc_path, path) : !!dso->symsrc_path) {
			if (env->verbose)
				fprintf(stderr, "%s: symbols from %s, expected %s\n", c->name,
					dso->symsrc_path ? dso->symsrc_path : "nothing",
					c->symsrc ? path : "nothing");
			dso__put(dso);
			return TEST_FAIL;
		}
		if (dso->load_errno != c->load_errno) {
			if (env->verbose)
				fprintf(stderr, "%s: load_errno %d, expected %d\n", c->name,
					dso->load_errno, c->load_errno);
			dso__put(dso);
			return TEST_FAIL;
		}
		dso__put(dso);
	}
	return TEST_OK;
}

/* ---- malformed files ---- */

static int corrupt_copy(const char *from, const char *to, size_t keep, size_t patch_off,
			const void *patch, size_t patch_len)
{
	FILE *f = fopen(from, "r");
	char *buf;
	size_t n;
	int err;

	if (!f)
		return -errno;
	buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	if (keep < n)
		n = keep;
	if (patch && patch_off + patch_len <= n)
		memcpy(buf + patch_off, patch, patch_len);
	err = test_write_file(to, buf, n);
	free(buf);
	return err;
}

/* the file offset of section name's header and the header itself; independent of libelf */
static int find_shdr(const char *path, const char *name, long *off, Elf64_Shdr *out)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strs;
	char secname[64];
	FILE *f = fopen(path, "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || fseek(f, (long)(eh.e_shoff + (u64)eh.e_shstrndx *
							     eh.e_shentsize), SEEK_SET) ||
	    fread(&strs, sizeof(strs), 1, f) != 1)
		goto out;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		long at = (long)(eh.e_shoff + (u64)i * eh.e_shentsize);
		Elf64_Shdr sh;

		if (fseek(f, at, SEEK_SET) || fread(&sh, sizeof(sh), 1, f) != 1 ||
		    fseek(f, (long)(strs.sh_offset + sh.sh_name), SEEK_SET) ||
		    !fgets(secname, sizeof(secname), f))
			break;
		if (!strcmp(secname, name)) {
			*off = at;
			*out = sh;
			ret = 0;
			break;
		}
	}
out:
	fclose(f);
	return ret;
}

static int patch_file(const char *path, long off, const void *bytes, size_t len)
{
	FILE *f = fopen(path, "r+");
	int ret = 0;

	if (!f)
		return -errno;
	if (fseek(f, off, SEEK_SET) || fwrite(bytes, 1, len, f) != len)
		ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}

/*
 * Damage inside sections libelf accepts, so that our own parsing meets it. where: the
 * section header's field at that offset, or (in_data) the section's bytes at that offset;
 * SYM_FROM_END + x: byte x of the section's last symbol.
 */
#define SYM_FROM_END	(1UL << 30)

static const struct {
	const char	*what;
	const char	*section;
	bool		in_data;
	size_t		where;
	u64		value;
	size_t		len;
	bool		loads;		/* symbols still load (the damage is in optional parts) */
} sec_damage[] = {
	{ ".symtab entry size 0", ".symtab", false, offsetof(Elf64_Shdr, sh_entsize), 0, 8, false },
	{ ".symtab linked to .text", ".symtab", false, offsetof(Elf64_Shdr, sh_link), 15, 4, false },
	{ ".symtab past the end", ".symtab", false, offsetof(Elf64_Shdr, sh_size), 1ULL << 40, 8, false },
	{ ".symtab data offset past the end", ".symtab", false, offsetof(Elf64_Shdr, sh_offset),
	  1ULL << 40, 8, false },
	/* the last symbol (a global function in any gcc output): name or section out of bounds */
	{ "symbol name out of bounds", ".symtab", true, SYM_FROM_END + offsetof(Elf64_Sym, st_name),
	  0x7fffffff, 4, false },
	{ "symbol section out of bounds", ".symtab", true, SYM_FROM_END + offsetof(Elf64_Sym, st_shndx),
	  0xfeee, 2, false },
	{ ".rela.plt linked nowhere", ".rela.plt", false, offsetof(Elf64_Shdr, sh_link), 9999, 4, true },
	{ ".rela.plt entry size 0", ".rela.plt", false, offsetof(Elf64_Shdr, sh_entsize), 0, 8, true },
	{ ".rela.plt huge", ".rela.plt", false, offsetof(Elf64_Shdr, sh_size), 1ULL << 40, 8, true },
	{ ".plt entry size odd", ".plt", false, offsetof(Elf64_Shdr, sh_entsize), 3, 8, true },
	{ "build id note name size huge", ".note.gnu.build-id", true, 0, 0xfffffff0, 4, true },
	{ "build id note desc size huge", ".note.gnu.build-id", true, 4, 0xfffffff0, 4, true },
	{ ".dynsym entry size 0", ".dynsym", false, offsetof(Elf64_Shdr, sh_entsize), 0, 8, false },
};

DEFINE_SUITE(symbols_malformed)
{
	struct build b;
	char from[8192], to[8192], garbage[4096];
	struct stat st;
	Elf64_Ehdr eh;
	FILE *f;
	size_t size;
	u32 x = 12345;
	struct {
		const char	*what;
		size_t		keep;		/* bytes of the good file kept */
		size_t		patch_off;
		const void	*patch;
		size_t		patch_len;
	} cases[16];
	size_t nr = 0;
	u64 huge = ~0ULL;
	u16 many = 0xffff, zero16 = 0;

	if (!prereqs(env))
		return test__skip(env, "gcc, objcopy and strip are needed to build test DSOs");
	TEST_ASSERT(env, !build_init(env, &b), "setting up %s", env->tmpdir);
	TEST_ASSERT(env, !build_prog(env, &b, "good", bid_plain, "-g"), "gcc failed");
	snprintf(from, sizeof(from), "%s/bin/good", b.fs);
	TEST_ASSERT(env, !stat(from, &st), "stat");
	size = (size_t)st.st_size;
	f = fopen(from, "r");
	TEST_ASSERT(env, f && fread(&eh, sizeof(eh), 1, f) == 1, "reading the ELF header");
	fclose(f);

	cases[nr++] = (typeof(cases[0])){ "empty", 0, 0, NULL, 0 };
	cases[nr++] = (typeof(cases[0])){ "half an ELF header", 32, 0, NULL, 0 };
	cases[nr++] = (typeof(cases[0])){ "only the ELF header", sizeof(eh), 0, NULL, 0 };
	cases[nr++] = (typeof(cases[0])){ "half the file", size / 2, 0, NULL, 0 };
	cases[nr++] = (typeof(cases[0])){ "all but one byte", size - 1, 0, NULL, 0 };
	cases[nr++] = (typeof(cases[0])){ "section headers past the end", size,
		offsetof(Elf64_Ehdr, e_shoff), &huge, sizeof(huge) };
	cases[nr++] = (typeof(cases[0])){ "65535 section headers", size,
		offsetof(Elf64_Ehdr, e_shnum), &many, sizeof(many) };
	cases[nr++] = (typeof(cases[0])){ "bad section name table index", size,
		offsetof(Elf64_Ehdr, e_shstrndx), &many, sizeof(many) };
	cases[nr++] = (typeof(cases[0])){ "no section headers", size,
		offsetof(Elf64_Ehdr, e_shnum), &zero16, sizeof(zero16) };
	/* every section header's sh_offset of the symbol table's neighbourhood, smashed */
	cases[nr++] = (typeof(cases[0])){ "smashed section headers", size,
		(size_t)eh.e_shoff + (size_t)eh.e_shentsize * (eh.e_shnum - 3u),
		garbage, 3u * eh.e_shentsize <= sizeof(garbage) ? 3u * eh.e_shentsize : 0 };

	for (size_t i = 0; i < sizeof(garbage); i++) {
		x = x * 1103515245 + 12345;	/* any fixed sequence will do */
		garbage[i] = (char)(x >> 16);
	}
	for (size_t i = 0; i < nr; i++) {
		struct symbol_conf conf = { .symfs = b.fs };
		struct dso *dso;
		char name[64];

		snprintf(name, sizeof(name), "/bin/bad%zu", i);
		snprintf(to, sizeof(to), "%s%s", b.fs, name);
		TEST_ASSERT(env, !corrupt_copy(from, to, cases[i].keep, cases[i].patch_off,
					       cases[i].patch, cases[i].patch_len), "copy");
		dso = dso__new(name, DSO_KIND_USER);
		TEST_ASSERT(env, dso, "dso__new");
		for (u64 off = 0; off < size; off += 61)
			dso__find_symbol_by_offset(dso, &conf, off, NULL);
		if (env->verbose) {
			char buf[128];

			fprintf(stderr, "%s: load_errno %d (%s), %zu symbols\n", cases[i].what,
				dso->load_errno, dso__strerror_load(dso, buf, sizeof(buf)),
				dso->symbols.nr);
		}
		/* damage that leaves .symtab readable may load; everything else must say why */
		if (i < 5 || i == 8)
			TEST_ASSERT(env, dso->load_errno != 0 && dso->symbols.nr == 0,
				    "%s: load_errno %d, %zu symbols", cases[i].what, dso->load_errno,
				    dso->symbols.nr);
		dso__put(dso);
	}

	for (size_t i = 0; i < ARRAY_SIZE(sec_damage); i++) {
		struct symbol_conf conf = { .symfs = b.fs };
		Elf64_Shdr sh = { 0 };
		struct dso *dso;
		char name[64];
		long shoff = 0, where;

		snprintf(name, sizeof(name), "/bin/dmg%zu", i);
		snprintf(to, sizeof(to), "%s%s", b.fs, name);
		TEST_ASSERT(env, !corrupt_copy(from, to, size, 0, NULL, 0), "copy");
		TEST_ASSERT(env, !find_shdr(to, sec_damage[i].section, &shoff, &sh), "no %s in %s",
			    sec_damage[i].section, to);
		where = (long)sec_damage[i].where;
		if (sec_damage[i].where >= SYM_FROM_END)
			where += (long)sh.sh_size - (long)sizeof(Elf64_Sym) - (long)SYM_FROM_END;
		where += sec_damage[i].in_data ? (long)sh.sh_offset : shoff;
		TEST_ASSERT(env, !patch_file(to, where, &sec_damage[i].value, sec_damage[i].len),
			    "patch");
		dso = dso__new(name, DSO_KIND_USER);
		TEST_ASSERT(env, dso, "dso__new");
		for (u64 off = 0; off < size; off += 7)
			dso__find_symbol_by_offset(dso, &conf, off, NULL);
		if (env->verbose) {
			char buf[128];

			fprintf(stderr, "%s: load_errno %d (%s), %zu symbols\n", sec_damage[i].what,
				dso->load_errno, dso__strerror_load(dso, buf, sizeof(buf)),
				dso->symbols.nr);
		}
		TEST_ASSERT(env, sec_damage[i].loads ? dso->load_errno == 0 && dso->symbols.nr > 0 :
			    dso->load_errno != 0 && dso->symbols.nr == 0, "%s: load_errno %d, %zu symbols",
			    sec_damage[i].what, dso->load_errno, dso->symbols.nr);
		dso__put(dso);
	}

	/* not an ELF file at all */
	{
		struct symbol_conf conf = { .symfs = b.fs };
		struct dso *dso;

		snprintf(to, sizeof(to), "%s/bin/garbage", b.fs);
		TEST_ASSERT(env, !test_write_file(to, garbage, sizeof(garbage)), "write");
		dso = dso__new("/bin/garbage", DSO_KIND_USER);
		TEST_ASSERT(env, dso && !dso__find_symbol_by_offset(dso, &conf, 100, NULL), "garbage");
		TEST_ASSERT(env, dso->load_errno == DSO_LOAD_ERRNO__INVALID_ELF, "garbage: %d",
			    dso->load_errno);
		dso__put(dso);
		dso = dso__new("/bin/missing", DSO_KIND_USER);
		TEST_ASSERT(env, dso && !dso__find_symbol_by_offset(dso, &conf, 100, NULL), "missing");
		TEST_ASSERT(env, dso->load_errno == ENOENT, "missing: %d", dso->load_errno);
		dso__put(dso);
		/* a directory where the DSO should be */
		dso = dso__new("/bin", DSO_KIND_USER);
		TEST_ASSERT(env, dso && !dso__find_symbol_by_offset(dso, &conf, 100, NULL), "dir");
		dso__put(dso);
	}
	return TEST_OK;
}

/* ---- the golden recordings ---- */

struct golden_map {
	const char	*comm;		/* the process, by command */
	const char	*dso;
	u64		start, len, pgoff;
};

/*
 * The executable mappings of each recording, from `perf script --show-mmap-events` (they
 * are facts of the recordings). Forked children keep the parent's command until exec.
 */
static const struct golden_map thr_maps[] = {
	{ "thr", "/tmp/w/thr", 0x55ff7736c000, 0x1000, 0x1000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7fe916c81000, 0x26000, 0x1000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/libm.so.6", 0x7fe916b96000, 0x74000, 0x10000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7fe9169ca000, 0x156000, 0x26000 },
	{ "sh", "/usr/bin/dash", 0x5652a5f6e000, 0x13000, 0x4000 },
	{ "sh", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7fe898179000, 0x26000, 0x1000 },
	{ "sh", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7fe897fa2000, 0x156000, 0x26000 },
	{ NULL },
};

static const struct golden_map cet_maps[] = {
	{ "calls_cet", "/tmp/w/calls_cet", 0x5640fadc2000, 0x1000, 0x1000 },
	{ "calls_cet", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7f34d80ff000, 0x26000, 0x1000 },
	{ "calls_cet", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f34d7f28000, 0x156000, 0x26000 },
	{ NULL },
};

static const struct golden_map calls_maps[] = {
	{ "calls", "/tmp/w/calls", 0x55ec8fcbc000, 0x1000, 0x1000 },
	{ "calls", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7ffb78dd8000, 0x26000, 0x1000 },
	{ "calls", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7ffb78c01000, 0x156000, 0x26000 },
	{ NULL },
};

static const struct golden_map sys_maps[] = {
	{ "sys", "/tmp/w/sys", 0x564e8be01000, 0x1000, 0x1000 },
	{ "sys", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7f82053fb000, 0x26000, 0x1000 },
	{ "sys", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f8205224000, 0x156000, 0x26000 },
	{ NULL },
};

static const struct golden_map sched_maps[] = {
	{ "thr", "/tmp/w/thr", 0x564f72154000, 0x1000, 0x1000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7fa28d5bb000, 0x26000, 0x1000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/libm.so.6", 0x7fa28d4d0000, 0x74000, 0x10000 },
	{ "thr", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7fa28d304000, 0x156000, 0x26000 },
	{ "sh", "/usr/bin/dash", 0x5621b0c52000, 0x13000, 0x4000 },
	{ "sh", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x7f8741154000, 0x26000, 0x1000 },
	{ "sh", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f8740f7d000, 0x156000, 0x26000 },
	{ NULL },
};

/*
 * PLT entries no golden sample hits: names upstream perf 7.2 printed for synthetic samples at
 * these file offsets (mkdata-style recording, `perf script -F ip,sym,symoff --symfs=symfs`).
 * libc's IRELATIVE slots are named after the IFUNC their addend points at.
 */
static const struct {
	const char	*dso;
	u64		off;
	const char	*sym;
} golden_plt[] = {
	{ "/tmp/w/calls_cet", 0x1020, ".plt+0x0" },
	{ "/tmp/w/calls_cet", 0x1030, "printf@plt+0x0" },
	{ "/tmp/w/calls_cet", 0x1045, "strtol@plt+0x5" },
	{ "/tmp/w/calls_cet", 0x1050, "__cxa_finalize@plt+0x0" },	/* .plt.got */
	{ "/tmp/w/calls_cet", 0x1058, "[unknown]" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26000, ".plt+0x0" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26010, "__strnlen_ifunc@plt+0x0" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26030, "realloc@plt+0x0" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26290, "memcpy@@GLIBC_2.14@plt+0x0" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26360, "free@plt+0x0" },	/* .plt.got */
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26368, "malloc@plt+0x0" },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x26370, "[unknown]" },
};

static int check_golden(const struct test_env *env, const char *dir, const char *file,
			const struct golden_map *maps, struct dsos *dsos,
			const struct symbol_conf *conf, size_t *checked)
{
	char path[8192], *line = NULL, comm[64] = "";
	size_t cap = 0;
	int ret = TEST_OK;
	FILE *f;

	snprintf(path, sizeof(path), "%s/upstream/%s", dir, file);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "missing golden %s\n", path);
		return TEST_FAIL;
	}
	while (getline(&line, &cap, f) > 0) {
		char *open, *close, want[512], got_buf[512];
		unsigned long long ip;
		const struct golden_map *m;
		const char *got;
		int n;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '\t') {
			/* a sample's first line: "comm  tid ...", or the blank line after it */
			if (line[0] && sscanf(line, "%63s", comm) != 1)
				comm[0] = '\0';
			continue;
		}
		/* "\t<ip> <sym>+0x<off> (<dso>)" or "\t<ip> [unknown] (<dso>)" */
		if (sscanf(line, " %llx %n", &ip, &n) != 1)
			continue;
		open = strrchr(line, '(');
		close = strrchr(line, ')');
		if (!open || !close || open < line + n + 1 || open[-1] != ' ')
			continue;
		*close = '\0';
		open[-1] = '\0';
		for (m = maps; m->comm; m++)
			if (!strcmp(m->comm, comm) && !strcmp(m->dso, open + 1) && ip >= m->start &&
			    ip < m->start + m->len)
				break;
		if (!m->comm)
			continue;
		snprintf(want, sizeof(want), "%s", line + n);
		got = resolve(dsos__findnew(dsos, m->dso, DSO_KIND_USER), conf,
			      ip - m->start + m->pgoff, got_buf, sizeof(got_buf));
		(*checked)++;
		if (strcmp(got, want)) {
			if (env->verbose)
				fprintf(stderr, "%s: %s at %llx: %s, upstream printed %s\n", file,
					m->dso, ip, got, want);
			ret = TEST_FAIL;
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

DEFINE_SUITE(symbols_goldens)
{
	static const struct {
		const char		*file;
		const struct golden_map	*maps;
	} goldens[] = {
		{ "thr.fpz.script-noinline.txt", thr_maps },
		{ "calls_cet.dwarf.script-noinline.txt", cet_maps },
		{ "calls.fp.script-noinline.txt", calls_maps },
		{ "sys.fp.script-noinline.txt", sys_maps },
		{ "sched.script-noinline.txt", sched_maps },
	};
	char dir[2048], symfs[2100], nocache[2100], buf[512];
	/* the fixtures' files only: not the copies a build-id cache here may hold */
	struct symbol_conf conf = { .symfs = symfs, .buildid_dir = nocache };
	struct dsos dsos;
	struct dso *libc;
	struct stat st;
	size_t checked = 0;
	int ret = TEST_OK;

	TEST_ASSERT(env, !test_fixture(env, "perf72", dir, sizeof(dir)), "cannot unpack perf72");
	snprintf(symfs, sizeof(symfs), "%s/symfs", dir);
	snprintf(nocache, sizeof(nocache), "%s/no-buildid-cache", dir);
	TEST_ASSERT(env, !stat(symfs, &st), "no symfs in %s", dir);
	dsos__init(&dsos);
	for (size_t i = 0; i < ARRAY_SIZE(goldens) && ret == TEST_OK; i++) {
		ret = check_golden(env, dir, goldens[i].file, goldens[i].maps, &dsos, &conf,
				   &checked);
	}
	if (env->verbose)
		fprintf(stderr, "%zu golden frames checked\n", checked);
	/* the goldens above must have exercised something: they hold thousands of user frames */
	if (ret == TEST_OK && checked < 1000)
		ret = TEST_FAIL;

	/* libc's .symtab comes from its build-id debug file (versioned names prove it) */
	libc = dsos__findnew(&dsos, "/usr/lib/x86_64-linux-gnu/libc.so.6", DSO_KIND_USER);
	if (ret == TEST_OK && (!libc || !libc->symsrc_path ||
			       !strstr(libc->symsrc_path, "/usr/lib/debug/.build-id/93/"
					"ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"))) {
		if (env->verbose)
			fprintf(stderr, "libc symbols from %s\n",
				libc && libc->symsrc_path ? libc->symsrc_path : "nothing");
		ret = TEST_FAIL;
	}
	for (size_t i = 0; ret == TEST_OK && i < ARRAY_SIZE(golden_plt); i++) {
		struct dso *dso = dsos__findnew(&dsos, golden_plt[i].dso, DSO_KIND_USER);
		const char *got = resolve(dso, &conf, golden_plt[i].off, buf, sizeof(buf));

		if (strcmp(got, golden_plt[i].sym)) {
			if (env->verbose)
				fprintf(stderr, "%s at %#llx: %s, upstream printed %s\n",
					golden_plt[i].dso, (unsigned long long)golden_plt[i].off, got,
					golden_plt[i].sym);
			ret = TEST_FAIL;
		}
	}
	dsos__exit(&dsos);
	return ret;
}

/* ---- the tree built late: sorted adds skip it, answers must not change ---- */

static u64 lazy_rand(u64 *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

/*
 * One table built twice from the same sorted symbols: once as it comes (the tree is built
 * only when sealing finds overlaps), once with the tree forced from the first add on (a
 * lookup while adding builds it). Zero-sized, sized, overlapping and same-start symbols, IFUNCs,
 * kallsyms-style module names, and adds after the fixups (PLT entries) must all give the
 * same sealed table and the same lookups.
 */
static int lazy_tree__compare(const struct test_env *env, u64 seed)
{
	struct symbols lazy, eager;
	u64 st = seed, addr = 0x1000;
	int nr = 20 + (int)(lazy_rand(&st) % 200), late = (int)(lazy_rand(&st) % 4);
	bool kallsyms = lazy_rand(&st) % 3 == 0;
	int ret = TEST_OK;

	symbols__init(&lazy);
	symbols__init(&eager);
	for (int i = 0; i < nr + late; i++) {
		u64 r = lazy_rand(&st), start, end;
		char name[48];
		u8 bind = (u8)(r % 3 == 0 ? STB_WEAK : r % 3 == 1 ? STB_GLOBAL : STB_LOCAL);
		u8 type = (u8)((r >> 2) % 5 == 0 ? STT_GNU_IFUNC : (r >> 2) % 5 == 1 ? STT_NOTYPE :
			       STT_FUNC);

		if (i == nr) {
			/* the fixups, then late adds at any address (PLT entries come so) */
			symbols__fixup(&lazy, kallsyms);
			symbols__fixup(&eager, kallsyms);
		}
		/* sorted: the same start a third of the time, else forward by up to 64 */
		if (i < nr && (r >> 5) % 3)
			addr += 1 + (r >> 7) % 64;
		start = i < nr ? addr : 0x1000 + lazy_rand(&st) % (addr - 0x1000 + 1);
		/* zero-sized, inside the gap, or overlapping what follows */
		end = (r >> 13) % 3 == 0 ? 0 : start + 1 + (r >> 15) % ((r >> 13) % 3 == 1 ? 16 : 200);
		snprintf(name, sizeof(name), "%.*sf%d%s", (int)((r >> 23) % 3), "__", i,
			 kallsyms && (r >> 25) % 4 == 0 ? "\t[mod]" : "");
		TEST_ASSERT(env, symbols__insert(&lazy, start, end, name, bind, type) >= 0, "insert");
		TEST_ASSERT(env, symbols__insert(&eager, start, end, name, bind, type) >= 0, "insert");
		if (!i)
			symbols__find_idx(&eager, start);
	}
	if (!late) {
		symbols__fixup(&lazy, kallsyms);
		symbols__fixup(&eager, kallsyms);
	}
	symbols__seal(&lazy);
	symbols__seal(&eager);
	TEST_ASSERT(env, lazy.nr == eager.nr && lazy.nr_keys == eager.nr_keys &&
			 !lazy.key_sym == !eager.key_sym,
		    "seed %llu: %zu/%zu symbols, %zu/%zu keys", (unsigned long long)seed, lazy.nr,
		    eager.nr, lazy.nr_keys, eager.nr_keys);
	for (size_t i = 0; i < lazy.nr; i++)
		TEST_ASSERT(env, lazy.syms[i].start == eager.syms[i].start &&
				 lazy.syms[i].end == eager.syms[i].end &&
				 !strcmp(lazy.syms[i].name, eager.syms[i].name),
			    "seed %llu: symbol %zu differs", (unsigned long long)seed, i);
	for (u64 a = 0xff0; a < addr + 300; a++) {
		const struct symbol *x = symbols__find(&lazy, a), *y = symbols__find(&eager, a);

		TEST_ASSERT(env, (!x && !y) || (x && y && x - lazy.syms == y - eager.syms),
			    "seed %llu: %#llx finds %s, the tree %s", (unsigned long long)seed,
			    (unsigned long long)a, sym_name(x), sym_name(y));
	}
	symbols__exit(&lazy);
	symbols__exit(&eager);
	return ret;
}

DEFINE_SUITE(symbols_lazy_tree)
{
	for (u64 seed = 1; seed <= 400; seed++)
		if (lazy_tree__compare(env, seed) != TEST_OK)
			return TEST_FAIL;
	return TEST_OK;
}
