// SPDX-License-Identifier: GPL-2.0
/*
 * perf kallsyms SYMBOL...: where the running kernel has each function, as perf's symbol
 * tables see it (this boot's /proc/kallsyms, duplicates resolved as perf resolves them).
 * One line per name, upstream's: "NAME: SHORT LONG START-END (START-END)", the second pair
 * in the dso's own addresses, or "NAME: not found".
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/kallsyms.h"
#include "util/machine.h"
#include "util/parse-options.h"
#include "util/record-synth.h"

static const char *const kallsyms_usage[] = {
	"perf kallsyms [<options>] symbol_name",
	NULL
};

/* the kernel and module maps as perf record would have written them, straight to machine */
static int kallsyms__add_map(void *ctx, const struct perf_event_header *ev)
{
	return machine__process_mmap(ctx, ev, 0);
}

static const struct symbol *dso__find_by_name(const struct dso *dso, const char *name)
{
	for (size_t i = 0; i < dso->symbols.nr; i++)
		if (!strcmp(dso->symbols.syms[i].name, name))
			return &dso->symbols.syms[i];
	return NULL;
}

/* upstream names the kernel "[kernel]" before its long name; a module by its own name */
static const char *dso__kallsyms_short_name(const struct dso *dso)
{
	return dso->kind == DSO_KIND_KERNEL ? "[kernel]" : dso->short_name;
}

static void kallsyms__lookup(struct machine *machine, const char *name)
{
	struct hashmap_node *pos;
	size_t bkt;

	hashmap__for_each(&machine->dsos.map, pos, bkt) {
		const struct dso *dso = container_of(pos, struct dso, node);
		const struct symbol *sym;

		if (dso->kind != DSO_KIND_KERNEL && dso->kind != DSO_KIND_KMODULE)
			continue;
		sym = dso__find_by_name(dso, name);
		if (!sym)
			continue;
		/* kernel maps are identities (machine.c): unmap_ip is the address itself */
		printf("%s: %s %s %#" PRIx64 "-%#" PRIx64 " (%#" PRIx64 "-%#" PRIx64 ")\n", name,
		       dso__kallsyms_short_name(dso), dso->long_name, sym->start, sym->end,
		       sym->start, sym->end);
		return;
	}
	printf("%s: not found\n", name);
}

int cmd_kallsyms(int argc, const char **argv)
{
	int verbose = 0;
	const struct option options[] = {
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show counter open errors, etc)"),
		OPT_END()
	};
	const struct symbol_conf conf = { .symfs = "" };
	const struct perf_event_attr attr = { .size = sizeof(attr) };
	struct machine machine;
	struct perf_err err = {};
	int left, ret = PERF_EXIT_INPUT;

	left = parse_options(argc, argv, options, kallsyms_usage, 0);
	if (left == -2)
		return 0;
	if (left < 0)
		return PERF_EXIT_USAGE;
	if (left == 0) {
		usage_with_options(kallsyms_usage, options, stderr);
		return PERF_EXIT_USAGE;
	}
	if (machine__init(&machine, &conf)) {
		fprintf(stderr, "perf kallsyms: out of memory\n");
		return PERF_EXIT_INPUT;
	}
	{
		const struct record_synth synth = {
			.attr = &attr, .emit = kallsyms__add_map, .ctx = &machine,
		};

		if (record_synth__kernel(&synth, &err) || record_synth__modules(&synth, &err)) {
			fprintf(stderr, "perf kallsyms: %s\n", err.msg);
			goto out;
		}
	}
	if (machine__load_kallsyms(&machine) < 0) {
		fprintf(stderr, "perf kallsyms: %s\n",
			machine.kernel_warning[0] ? machine.kernel_warning :
			"cannot read the kernel's symbols from /proc/kallsyms");
		goto out;
	}
	for (int i = 0; i < left; i++)
		kallsyms__lookup(&machine, argv[i]);
	ret = 0;
out:
	machine__exit(&machine);
	return ret;
}
