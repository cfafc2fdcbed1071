/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph.h - perf script report flamegraph: samples merged into one tree of stacks
 * (flamegraph.c), written as upstream's stacks.json (flamegraph-json.c), a self-contained
 * HTML page (flamegraph-html.c, its script in flamegraph-page.c) or an interactive SVG
 * (flamegraph-svg.c).
 *
 * The tree is upstream flamegraph.py's: a root "all", one child per process ("comm (pid)",
 * plain "comm" for pid 0), then the callchain's frames outermost first. A node's children
 * are told apart by name alone, kept in the order first seen, and the node a stack ends at
 * counts the sample (its self count: upstream's "v"). A frame's name is its symbol's, or
 * "[unknown]"; its dso and its kind (kernel when the dso is [kernel.kallsyms] or a vmlinux,
 * as upstream decides) are those of the first frame that made the node. What the pictures
 * add: the period beside the count, and where the frames came from (the frame resolver's
 * origins, as a mask of FG_CLASS_* bits over all frames merged into the node).
 *
 * Ownership: the tree owns its nodes and a copy of every name; it borrows nothing from the
 * session after flamegraph__add_sample() returns, except through the frame resolver it made
 * for the session's machine, which must outlive it.
 */
#ifndef PERF_UTIL_FLAMEGRAPH_H
#define PERF_UTIL_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/abi.h>
#include <perf/data.h>
#include "hashmap.h"

struct machine;
struct thread;
struct perf_sample;
struct perf_err;

enum flamegraph_format {
	FLAMEGRAPH_HTML,
	FLAMEGRAPH_JSON,
	FLAMEGRAPH_SVG,
};

enum flamegraph_colors {
	FLAMEGRAPH_BLUE_GREEN,	/* upstream's default */
	FLAMEGRAPH_ORANGE,
};

/* where a node's frames came from, for the colours; a node may have several */
enum flamegraph_class {
	FG_CLASS_USER,		/* the sample's ip, the kernel's user FP walk */
	FG_CLASS_KERNEL,	/* kernel frames (and the pid 0 process) */
	FG_CLASS_INLINE,	/* inlined functions from DWARF */
	FG_CLASS_DEFERRED,	/* user frames from a deferred callchain record */
	FG_CLASS_UNWOUND,	/* recovered by perf: DWARF unwinding, the report-side unwinder */
	FG_CLASS_PROCESS,	/* a process node */
	FG_CLASS_NR,
};

/* what the command asked for (perf script report flamegraph's options) */
struct flamegraph_opts {
	enum flamegraph_format	format;
	enum flamegraph_colors	colors;
	const char		*event;		/* -e: only the samples of this event name */
	bool			by_period;	/* html/svg widths by period, not samples */
	bool			icicle;		/* html: open in the callee (icicle) view */
	double			minwidth;	/* html/svg: drop boxes narrower (px at full width) */
	unsigned int		max_stack;	/* recorded addresses per stack, as script */
	bool			inline_frames;
	const char		*title;		/* the page's heading (the input's name) */
};

/* the width, in pixels, that --minwidth is measured against (flamegraph.pl's default) */
#define FLAMEGRAPH_WIDTH	1200

struct fg_node {
	struct hashmap_node	node;		/* in the tree's (parent, name) map */
	const char		*name;		/* interned: names compare by pointer */
	const char		*dso;		/* interned, NULL without one */
	/*
	 * Interned, NULL but for a kernel module's symbol read from kallsyms: upstream's name
	 * of it then goes on past its NUL ("name\0[module]", the kallsyms line cut in place
	 * with its length kept), and its stacks.json says so. Part of the node's name.
	 */
	const char		*module;
	struct fg_node		*parent;
	struct fg_node		*child, *last_child, *next;	/* first seen first */
	u64			self, self_period;	/* the samples ending here */
	u64			total, total_period;	/* and below (flamegraph__sum()) */
	bool			kernel;		/* upstream's "l": "kernel" (else "", "root") */
	u8			classes;	/* 1 << enum flamegraph_class */
};

struct flamegraph {
	struct flamegraph_opts	opts;
	struct fg_node		root;		/* "all" */
	struct hashmap		children;	/* (parent, name) -> fg_node */
	struct hashmap		names;		/* interned strings */
	const char		**strings;	/* the interned strings, in the order made */
	u32			nr_strings, alloc_strings;
	struct hashmap		syms;		/* symbol pointer -> interned name */
	struct frame_resolver	*resolver;	/* made for the first sample's machine */
	struct fg_chain_cache	*cache;		/* (chain id, process) -> leaf node */
	u64			nr_samples;	/* samples counted */
	u64			nr_tracepoint;	/* tracepoint samples left out, as upstream */
	u64			nr_nodes;
	char			**events;	/* names of the events counted, for the page */
	unsigned int		nr_events;
};

/* opts is copied (its strings are borrowed: they must outlive fg). 0 or -ENOMEM */
int flamegraph__init(struct flamegraph *fg, const struct flamegraph_opts *opts);
void flamegraph__exit(struct flamegraph *fg);

/*
 * One sample of event ea by thread (may be NULL: pid 0's nameless process), resolved in
 * machine. Samples of another event than opts.event are skipped, and so are tracepoints'
 * (counted in nr_tracepoint): upstream's flamegraph.py never sees them. 0 or -ENOMEM.
 */
int flamegraph__add_sample(struct flamegraph *fg, struct machine *machine, struct thread *thread,
			   const struct perf_sample *sample, struct perf_evattr *ea);

/* fills every node's total and total_period; call once before the writers below */
void flamegraph__sum(struct flamegraph *fg);

/*
 * The writers: fp is the caller's, they report failed writes through ferror(fp) only.
 * json: upstream's stacks.json, byte for byte. html/svg: see flamegraph-html.c, -svg.c.
 */
void flamegraph__write_json(const struct flamegraph *fg, FILE *fp);
void flamegraph__write_html(const struct flamegraph *fg, FILE *fp);
void flamegraph__write_svg(const struct flamegraph *fg, FILE *fp);

/*
 * Shared by the writers: s as the body of a JSON string (no quotes), non-ASCII as \uXXXX
 * escapes (surrogate pairs above the BMP) like Python's json.dumps; bytes that are not
 * UTF-8 become U+FFFD. html: also escape '<', '>' and '&' so that the text can sit in a
 * <script> element.
 */
void flamegraph__json_string(FILE *fp, const char *s, bool html);
/* s with XML's five special characters escaped, for SVG text and attributes */
void flamegraph__xml_string(FILE *fp, const char *s);
/* whether the node is drawn: at least minwidth px wide at full width (root always) */
bool flamegraph__visible(const struct flamegraph *fg, const struct fg_node *n);
/* the node's width value: samples, or period with --period */
static inline u64 flamegraph__value(const struct flamegraph *fg, const struct fg_node *n)
{
	return fg->opts.by_period ? n->total_period : n->total;
}

/* the number of an interned string (name, dso, module) in fg->strings */
u32 flamegraph__string_id(const char *s);

/* the page's script and styles (flamegraph-page.c), NUL-terminated */
extern const char flamegraph_page_script[];
extern const char flamegraph_page_style[];
extern const char flamegraph_svg_script[];

#endif
