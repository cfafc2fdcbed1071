// SPDX-License-Identifier: GPL-2.0
/*
 * The perf binary's own symbol table, as perf loads any DSO's: the functions of the
 * workloads that upstream's shell tests look for by name are there (their
 * lib/perf_has_symbol.sh runs `perf test -vv -F Symbols` and greps this test's listing for
 * test_loop and brstack), and the table is sorted without overlaps. -vv lists it as
 * upstream's Symbols test does: the dso, then " START-END BINDING NAME" a symbol.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/build-id.h"
#include "util/dso.h"
#include "util/symbol.h"
#include "tests.h"

static const char *const wanted[] = { "test_loop", "thfunc", "brstack", "noploop", "cmd_test" };

static char binding__letter(u8 binding)
{
	switch (binding) {
	case 0:		return 'l';	/* STB_LOCAL */
	case 1:		return 'g';	/* STB_GLOBAL */
	case 2:		return 'w';	/* STB_WEAK */
	default:	return '?';
	}
}

DEFINE_SUITE(symbols_perf)
{
	const struct symbol_conf conf = { .symfs = "" };
	char bid[BUILD_ID_HEX_SIZE] = "";
	const struct symbols *t;
	struct dso *dso;
	int ret = TEST_FAIL;

	dso = dso__new(env->perf, DSO_KIND_USER);
	TEST_ASSERT(env, dso, "dso__new");
	if (dso__load(dso, &conf) || !dso->symbols.nr) {
		if (env->verbose)
			fprintf(stderr, "cannot load the symbols of %s\n", env->perf);
		goto out;
	}
	t = &dso->symbols;
	if (dso->has_build_id)
		dso__build_id_hex(dso, bid);
	if (env->verbose > 1) {
		printf("Testing %s\ndso: %s (%s, loaded, %s)\n", env->perf, dso->short_name,
		       dso->long_name, bid);
		for (size_t i = 0; i < t->nr; i++)
			printf(" %" PRIx64 "-%" PRIx64 " %c %s\n", t->syms[i].start, t->syms[i].end,
			       binding__letter(t->syms[i].binding), t->syms[i].name);
	}
	for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
		bool found = false;

		for (size_t i = 0; i < t->nr && !found; i++)
			found = !strcmp(t->syms[i].name, wanted[w]);
		if (!found) {
			if (env->verbose)
				fprintf(stderr, "%s has no symbol %s\n", env->perf, wanted[w]);
			goto out;
		}
	}
	for (size_t i = 1; i < t->nr; i++) {
		if (t->syms[i - 1].start > t->syms[i].start ||
		    t->syms[i - 1].end > t->syms[i].start) {
			if (env->verbose)
				fprintf(stderr, "%s and %s overlap or are out of order\n",
					t->syms[i - 1].name, t->syms[i].name);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	dso__put(dso);
	return ret;
}
