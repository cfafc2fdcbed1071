// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph.c - the flame graph's tree: each sample's process and resolved callchain
 * merged into it as upstream's flamegraph.py merges them (see flamegraph.h), plus the
 * shared escaping helpers of the writers. Resolution is the frame resolver's; this file
 * only decides names, kinds and where a stack ends.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include "dso.h"
#include "flamegraph.h"
#include "frame-resolver.h"
#include "hash.h"
#include "map.h"
#include "symbol.h"
#include "thread.h"

/* a repeated chain of one process lands on the same leaf: one lookup instead of a walk */
#define FG_CACHE_BITS	12

struct fg_chain_cache {
	u64			id;		/* resolved_chain id, 0: empty slot */
	const struct fg_node	*process;
	struct fg_node		*leaf;
};

struct fg_name {
	struct hashmap_node	node;
	u32			id;		/* its index in flamegraph.strings */
	char			name[];
};

u32 flamegraph__string_id(const char *s)
{
	/* by hand: container_of() would name the const of a const char twice */
	return ((const struct fg_name *)(const void *)(s - offsetof(struct fg_name, name)))->id;
}

static const char *flamegraph__intern(struct flamegraph *fg, const char *s);

int flamegraph__init(struct flamegraph *fg, const struct flamegraph_opts *opts)
{
	memset(fg, 0, sizeof(*fg));
	fg->opts = *opts;
	hashmap__init(&fg->children, 1024);
	hashmap__init(&fg->names, 1024);
	fg->cache = calloc(1U << FG_CACHE_BITS, sizeof(*fg->cache));
	if (!fg->cache)
		return -ENOMEM;
	fg->root.name = flamegraph__intern(fg, "all");
	fg->root.classes = 1U << FG_CLASS_PROCESS;	/* drawn as the processes are */
	return fg->root.name ? 0 : -ENOMEM;
}

static void fg_node__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct fg_node, node));
}

static void fg_name__free(struct hashmap_node *node, void *arg)
{
	(void)arg;
	free(container_of(node, struct fg_name, node));
}

void flamegraph__exit(struct flamegraph *fg)
{
	/* every node but the root is in the children map, which frees them */
	hashmap__clear(&fg->children, fg_node__free, NULL);
	hashmap__exit(&fg->children);
	hashmap__clear(&fg->names, fg_name__free, NULL);
	hashmap__exit(&fg->names);
	free(fg->strings);
	frame_resolver__delete(fg->resolver);
	for (unsigned int i = 0; i < fg->nr_events; i++)
		free(fg->events[i]);
	free(fg->events);
	free(fg->cache);
}

/* the one copy of s, NULL on allocation failure */
static const char *flamegraph__intern(struct flamegraph *fg, const char *s)
{
	u64 h = hash__str(s);
	struct hashmap_node *pos;
	struct fg_name *n;
	size_t len;

	hashmap__for_each_hash(&fg->names, pos, h) {
		n = container_of(pos, struct fg_name, node);
		if (!strcmp(n->name, s))
			return n->name;
	}
	if (fg->nr_strings == fg->alloc_strings) {
		u32 alloc = fg->alloc_strings ? fg->alloc_strings * 2 : 256;
		const char **strings = realloc(fg->strings, alloc * sizeof(*strings));

		if (!strings)
			return NULL;
		fg->strings = strings;
		fg->alloc_strings = alloc;
	}
	len = strlen(s);
	n = malloc(sizeof(*n) + len + 1);
	if (!n)
		return NULL;
	memcpy(n->name, s, len + 1);
	n->id = fg->nr_strings;
	if (hashmap__add(&fg->names, &n->node, h)) {
		free(n);
		return NULL;
	}
	fg->strings[fg->nr_strings++] = n->name;
	return n->name;
}

/* upstream's get_libtype_from_dso(): [kernel.kallsyms], or a vmlinux found for it */
static bool dso_name__kernel(const char *dso)
{
	size_t len;

	if (!dso)
		return false;
	if (!strcmp(dso, "[kernel.kallsyms]"))
		return true;
	len = strlen(dso);
	return len >= 8 && !strcmp(dso + len - 8, "/vmlinux");
}

/*
 * parent's child called name (and module, see fg_node; both interned), made with kernel and
 * dso when new; NULL: -ENOMEM
 */
static struct fg_node *flamegraph__findnew(struct flamegraph *fg, struct fg_node *parent,
					   const char *name, const char *module, bool kernel,
					   const char *dso)
{
	u64 h = hash__u64x2((u64)(uintptr_t)parent,
			    (u64)(uintptr_t)name ^ ((u64)(uintptr_t)module << 1));
	struct hashmap_node *pos;
	struct fg_node *n;

	hashmap__for_each_hash(&fg->children, pos, h) {
		n = container_of(pos, struct fg_node, node);
		if (n->parent == parent && n->name == name && n->module == module)
			return n;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->name = name;
	n->module = module;
	n->dso = dso;
	n->kernel = kernel;
	n->parent = parent;
	if (hashmap__add(&fg->children, &n->node, h)) {
		free(n);
		return NULL;
	}
	/* upstream appends a new child after the others: the order first seen */
	if (parent->last_child)
		parent->last_child->next = n;
	else
		parent->child = n;
	parent->last_child = n;
	fg->nr_nodes++;
	return n;
}

static u8 frame__class(const struct resolved_frame *f)
{
	switch ((enum frame_origin)f->origin) {
	case FRAME_ORIGIN_KERNEL:
		return FG_CLASS_KERNEL;
	case FRAME_ORIGIN_INLINE:
		return FG_CLASS_INLINE;
	case FRAME_ORIGIN_DEFERRED:
	case FRAME_ORIGIN_COOKIE:
		return FG_CLASS_DEFERRED;
	case FRAME_ORIGIN_DWARF:
	case FRAME_ORIGIN_REGS:
	case FRAME_ORIGIN_STACK_FP:
	case FRAME_ORIGIN_ENTRY:
	case FRAME_ORIGIN_CFI:
	case FRAME_ORIGIN_INSN:
		return FG_CLASS_UNWOUND;
	case FRAME_ORIGIN_SAMPLE:
		return f->cpumode == PERF_RECORD_MISC_KERNEL ||
		       f->cpumode == PERF_RECORD_MISC_GUEST_KERNEL ? FG_CLASS_KERNEL : FG_CLASS_USER;
	case FRAME_ORIGIN_USER_FP:
	case FRAME_ORIGIN_NR:
	default:
		return FG_CLASS_USER;
	}
}

/* the node "comm (pid)" under the root, or "comm" for pid 0 (the kernel's) */
static struct fg_node *flamegraph__process(struct flamegraph *fg, struct thread *thread,
					   const struct perf_sample *sample)
{
	const char *comm = thread ? thread__comm_str(thread, sample->time) : NULL;
	s32 pid = (s32)sample->pid;
	const char *name;
	struct fg_node *n;
	char buf[512];

	if (!comm)
		comm = "[unknown]";
	if (pid) {
		snprintf(buf, sizeof(buf), "%s (%d)", comm, pid);
		comm = buf;
	}
	name = flamegraph__intern(fg, comm);
	if (!name)
		return NULL;
	n = flamegraph__findnew(fg, &fg->root, name, NULL, pid == 0, NULL);
	if (n)
		n->classes |= 1U << (pid ? FG_CLASS_PROCESS : FG_CLASS_KERNEL);
	return n;
}

/*
 * The frames of chain from the outermost one kept to the innermost, below process: at most
 * max_stack recorded addresses, a frame's inlined functions counted with it (as script).
 */
static struct fg_node *flamegraph__walk(struct flamegraph *fg, struct fg_node *node,
					const struct resolved_chain *chain)
{
	u32 nr = 0;

	for (u32 depth = 0; nr < chain->nr; nr++) {
		bool starts = !nr || chain->frames[nr - 1].origin != FRAME_ORIGIN_INLINE;

		if (starts && depth++ >= fg->opts.max_stack)
			break;
	}
	while (nr--) {
		const struct resolved_frame *f = &chain->frames[nr];
		const struct dso *d = f->map ? f->map->dso : NULL;
		const char *name = flamegraph__intern(fg, f->sym ? f->sym->name : "[unknown]");
		const char *dso = NULL, *module = NULL;

		if (!name)
			return NULL;
		if (d) {
			dso = flamegraph__intern(fg, d->long_name);
			if (!dso)
				return NULL;
			/* no file was read for the module's symbols: kallsyms named them */
			if (f->sym && d->kind == DSO_KIND_KMODULE && !d->symsrc_path)
				module = dso;
		}
		node = flamegraph__findnew(fg, node, name, module, dso_name__kernel(dso), dso);
		if (!node)
			return NULL;
		node->classes |= 1U << frame__class(f);
	}
	return node;
}

/* ea's name among the events counted, for the page's heading */
static int flamegraph__note_event(struct flamegraph *fg, struct perf_evattr *ea)
{
	const char *name = perf_evattr__name(ea);
	char **events;

	for (unsigned int i = 0; i < fg->nr_events; i++)
		if (!strcmp(fg->events[i], name))
			return 0;
	events = realloc(fg->events, (fg->nr_events + 1) * sizeof(*events));
	if (!events)
		return -ENOMEM;
	fg->events = events;
	events[fg->nr_events] = strdup(name);
	if (!events[fg->nr_events])
		return -ENOMEM;
	fg->nr_events++;
	return 0;
}

int flamegraph__add_sample(struct flamegraph *fg, struct machine *machine, struct thread *thread,
			   const struct perf_sample *sample, struct perf_evattr *ea)
{
	struct resolved_chain chain = { .nr = 0 };
	struct fg_chain_cache *slot = NULL;
	struct fg_node *process, *leaf;
	int ret;

	/*
	 * upstream's perf hands tracepoint samples to a script's per-event handlers, which
	 * flamegraph.py has none of: they never reach its tree
	 */
	if (ea->attr.type == PERF_TYPE_TRACEPOINT) {
		fg->nr_tracepoint++;
		return 0;
	}
	/* upstream compares the event's full name ("cycles:P", "cpu-clock:pppH") */
	if (fg->opts.event && strcmp(perf_evattr__name(ea), fg->opts.event))
		return 0;
	if (flamegraph__note_event(fg, ea))
		return -ENOMEM;
	process = flamegraph__process(fg, thread, sample);
	if (!process)
		return -ENOMEM;
	/* a sample without a callchain counts for its process alone, as upstream has it */
	if (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (!fg->resolver) {
			fg->resolver = frame_resolver__new(machine);
			if (!fg->resolver)
				return -ENOMEM;
			frame_resolver__set_inline(fg->resolver, fg->opts.inline_frames, stderr);
		}
		ret = frame_resolver__chain(fg->resolver, thread, sample, &chain);
		if (ret)
			return ret;
	}
	if (chain.id) {
		slot = &fg->cache[hash_64(hash__u64x2(chain.id, (u64)(uintptr_t)process),
					  FG_CACHE_BITS)];
		if (slot->id == chain.id && slot->process == process) {
			leaf = slot->leaf;
			goto count;
		}
	}
	leaf = flamegraph__walk(fg, process, &chain);
	if (!leaf)
		return -ENOMEM;
	if (slot)
		*slot = (struct fg_chain_cache){ .id = chain.id, .process = process, .leaf = leaf };
count:
	leaf->self++;
	leaf->self_period += sample->period;
	fg->nr_samples++;
	return 0;
}

static void fg_node__sum(struct fg_node *n)
{
	n->total = n->self;
	n->total_period = n->self_period;
	for (struct fg_node *c = n->child; c; c = c->next) {
		fg_node__sum(c);
		n->total += c->total;
		n->total_period += c->total_period;
	}
}

void flamegraph__sum(struct flamegraph *fg)
{
	fg_node__sum(&fg->root);
}

bool flamegraph__visible(const struct flamegraph *fg, const struct fg_node *n)
{
	u64 all = flamegraph__value(fg, &fg->root), v = flamegraph__value(fg, n);

	if (n == &fg->root || fg->opts.minwidth <= 0)
		return true;
	if (!all)
		return false;
	return (double)v * FLAMEGRAPH_WIDTH / (double)all >= fg->opts.minwidth;
}

/* the code point at *s (advanced past it), U+FFFD for a byte that starts no UTF-8 sequence */
static u32 utf8__next(const unsigned char **s)
{
	const unsigned char *p = *s;
	u32 cp, min;
	int more;

	if (p[0] < 0x80) {
		*s = p + 1;
		return p[0];
	}
	if ((p[0] & 0xe0) == 0xc0) {
		cp = p[0] & 0x1f;
		more = 1;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		cp = p[0] & 0x0f;
		more = 2;
		min = 0x800;
	} else if ((p[0] & 0xf8) == 0xf0) {
		cp = p[0] & 0x07;
		more = 3;
		min = 0x10000;
	} else {
		*s = p + 1;
		return 0xfffd;
	}
	for (int i = 1; i <= more; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*s = p + 1;
			return 0xfffd;
		}
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*s = p + 1 + more;
	/* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 either */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0xfffd;
	return cp;
}

void flamegraph__json_string(FILE *fp, const char *s, bool html)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		u32 cp = utf8__next(&p);

		switch (cp) {
		case '"':	fputs("\\\"", fp); continue;
		case '\\':	fputs("\\\\", fp); continue;
		case '\n':	fputs("\\n", fp); continue;
		case '\r':	fputs("\\r", fp); continue;
		case '\t':	fputs("\\t", fp); continue;
		case '\b':	fputs("\\b", fp); continue;
		case '\f':	fputs("\\f", fp); continue;
		default:	break;
		}
		if (cp >= 0x20 && cp < 0x7f && !(html && (cp == '<' || cp == '>' || cp == '&'))) {
			fputc((int)cp, fp);
		} else if (cp < 0x10000) {
			/* 0x7f too: Python's ensure_ascii leaves only 0x20..0x7e as they are */
			fprintf(fp, "\\u%04x", cp);
		} else {
			cp -= 0x10000;
			fprintf(fp, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
		}
	}
}

void flamegraph__xml_string(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':	fputs("&lt;", fp); break;
		case '>':	fputs("&gt;", fp); break;
		case '&':	fputs("&amp;", fp); break;
		case '"':	fputs("&quot;", fp); break;
		case '\'':	fputs("&apos;", fp); break;
		default:
			/* XML 1.0 has no control characters but these three */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
				fputc('?', fp);
			else
				fputc(*s, fp);
		}
	}
}
