// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from another boot: the same kallsyms moved by a KASLR offset must give the
 * same perf script output, because the recorded _text (the kernel MMAP's pgoff) relocates them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/abi.h>
#include "run-helpers.h"
#include "tests.h"

/* a made-up KASLR slide: 2 MB aligned, as the kernel's are */
#define SLIDE	((u64)0x1e00000)

static int shift_kallsyms(const char *gz, const char *out_orig, const char *out_shifted)
{
	char cmd[2048], line[1024];
	FILE *in, *a, *b;
	int ret = 0;

	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", gz);
	in = popen(cmd, "r");
	a = fopen(out_orig, "w");
	b = fopen(out_shifted, "w");
	if (!in || !a || !b) {
		ret = -1;
		goto out;
	}
	while (fgets(line, sizeof(line), in)) {
		char *end;
		u64 addr = strtoull(line, &end, 16);

		fputs(line, a);
		fprintf(b, "%016" PRIx64 "%s", addr ? addr + SLIDE : 0, end);
	}
out:
	if (in && pclose(in))
		ret = -1;
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	return ret;
}

static int run_script(const struct test_env *env, const char *symfs, const char *ks,
		      const char *data, const char *out)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "'%s' script --symfs='%s' --kallsyms='%s' -i '%s' >'%s' 2>/dev/null",
		 env->perf, symfs, ks, data, out);
	return system(cmd);
}

/* writes the fixture's kallsyms (gz) to plain as it is and to variant changed */
typedef int (*kallsyms_writer)(const char *gz, const char *plain, const char *variant);

/* perf script of the fixture recording with the plain and the changed kallsyms: the same */
static int same_script(const struct test_env *env, kallsyms_writer write, const char *what)
{
	char dir[900], gz[1024], symfs[1024], data[1024], ks[1024], ks2[1024], o1[1024], o2[1024];
	char cmd[4096];

	TEST_ASSERT(env, !test_fixture(env, "perf72", dir, sizeof(dir)), "cannot unpack perf72");
	snprintf(gz, sizeof(gz), "%s/kallsyms.gz", dir);
	snprintf(symfs, sizeof(symfs), "%s/symfs", dir);
	snprintf(data, sizeof(data), "%s/data/sys.fp.data", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", env->tmpdir);
	snprintf(ks2, sizeof(ks2), "%s/kallsyms.changed", env->tmpdir);
	snprintf(o1, sizeof(o1), "%s/plain.txt", env->tmpdir);
	snprintf(o2, sizeof(o2), "%s/changed.txt", env->tmpdir);
	TEST_ASSERT(env, write(gz, ks, ks2) == 0, "cannot write the kallsyms files");
	TEST_ASSERT(env, run_script(env, symfs, ks, data, o1) == 0, "perf script failed");
	TEST_ASSERT(env, run_script(env, symfs, ks2, data, o2) == 0, "perf script failed (%s)", what);
	snprintf(cmd, sizeof(cmd), "grep -q 'do_syscall_64+0x' '%s'", o1);
	TEST_ASSERT(env, system(cmd) == 0, "no kernel symbols resolved at all");
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", o1, o2);
	TEST_ASSERT(env, system(cmd) == 0, "output with %s differs", what);
	return TEST_OK;
}

DEFINE_SUITE(kaslr)
{
	char what[64];

	snprintf(what, sizeof(what), "kallsyms slid by %#" PRIx64, SLIDE);
	return same_script(env, shift_kallsyms, what);
}

/*
 * The kallsyms reader takes the file in 256 KiB chunks (on a thread of its own) and parses
 * the address column itself: a line longer than a chunk, upper-case and 0x-prefixed
 * addresses, blank lines and a last line without its newline must read as the plain file.
 */
static int odd_kallsyms(const char *gz, const char *plain, const char *out)
{
	char cmd[2048], line[1024];
	FILE *in, *p, *o;
	long n = 0;
	int ret = 0;

	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", gz);
	in = popen(cmd, "r");
	p = fopen(plain, "w");
	o = fopen(out, "w");
	if (!in || !p || !o) {
		ret = -1;
		goto out;
	}
	/* not a symbol: skipped, as a line that does not parse always was */
	for (int i = 0; i < 300 * 1024; i++)
		fputc('x', o);
	fputs("\n\n", o);
	while (fgets(line, sizeof(line), in)) {
		fputs(line, p);
		if (n % 3 == 1)
			for (char *c = line; *c && *c != ' '; c++)
				*c = (char)(*c >= 'a' && *c <= 'f' ? *c - 'a' + 'A' : *c);
		if (n % 5 == 2)
			fputs("0x", o);
		fputs(line, o);
		n++;
	}
	/* the file's last line goes without its newline */
	if (fflush(o) || ftruncate(fileno(o), ftell(o) - 1))
		ret = -1;
out:
	if (in && pclose(in))
		ret = -1;
	if (p && fclose(p))
		ret = -1;
	if (o)
		fclose(o);
	return ret;
}

DEFINE_SUITE(kallsyms_reader)
{
	return same_script(env, odd_kallsyms, "an odd kallsyms file");
}
