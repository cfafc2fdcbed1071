// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-json.c - the flame graph tree as upstream flamegraph.py's stacks.json: what
 * Python's json.dumps makes of its nodes, {"n": name, "l": "root"|"kernel"|"", "v": self
 * count, "c": [children]}, with its ", " and ": " separators and no newline at the end.
 * A module symbol from kallsyms is named as upstream's Python binding hands it over: the
 * name, a NUL and "[module]" (see fg_node.module).
 */
#include "flamegraph.h"

static void fg_node__write_json(const struct flamegraph *fg, const struct fg_node *n,
				FILE *fp)
{
	fputs("{\"n\": \"", fp);
	flamegraph__json_string(fp, n->name, false);
	if (n->module) {
		fputs("\\u0000", fp);
		flamegraph__json_string(fp, n->module, false);
	}
	fprintf(fp, "\", \"l\": \"%s\", \"v\": %llu, \"c\": [",
		n == &fg->root ? "root" : n->kernel ? "kernel" : "", (unsigned long long)n->self);
	for (const struct fg_node *c = n->child; c; c = c->next) {
		fg_node__write_json(fg, c, fp);
		if (c->next)
			fputs(", ", fp);
	}
	fputs("]}", fp);
}

void flamegraph__write_json(const struct flamegraph *fg, FILE *fp)
{
	fg_node__write_json(fg, &fg->root, fp);
}
