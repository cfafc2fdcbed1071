// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's text output for samples, in upstream perf 7.2's layout:
 *
 *   comm  tid [cpu]  secs.usecs:  period event: [trace fields]
 *   \t<ip %16lx> <sym>+0x<off> (<dso>)          one line per callchain frame
 *   <empty line>
 *
 * or, for a sample without a callchain, "... event:  <ip> sym+off (dso)" on one line.
 */
#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <perf/kernel.h>
#include "dso.h"
#include "dwarf-inline.h"
#include "mem-data-src.h"
#include "perf-regs.h"
#include "sbuf.h"
#include "script-output.h"
#include "trace-event.h"

#define NSEC_PER_SEC	((u64)1000000000)
#define NSEC_PER_USEC	((u64)1000)

static const unsigned int default_fields[ST_NR] = {
	[ST_HARDWARE]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			  SF_DSO | SF_PERIOD,
	[ST_SOFTWARE]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			  SF_DSO | SF_PERIOD,
	[ST_TRACEPOINT]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE,
	[ST_HW_CACHE]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			  SF_DSO | SF_PERIOD,
	[ST_RAW]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			  SF_DSO | SF_PERIOD | SF_ADDR,
	[ST_BREAKPOINT]	= SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			  SF_DSO | SF_PERIOD,
};

static const struct {
	const char	*name;
	unsigned int	field;
	u64		needs;		/* sample_type bits the field needs, 0: none */
	const char	*needs_name;	/* as perf names them when they are missing */
} field_names[] = {
	{ "comm",	SF_COMM,	PERF_SAMPLE_TID,	"TID" },
	{ "tid",	SF_TID,		PERF_SAMPLE_TID,	"TID" },
	{ "pid",	SF_PID,		PERF_SAMPLE_TID,	"TID" },
	{ "time",	SF_TIME,	PERF_SAMPLE_TIME,	"TIME" },
	{ "cpu",	SF_CPU,		PERF_SAMPLE_CPU,	"CPU" },
	{ "event",	SF_EVNAME,	0,			NULL },
	{ "trace",	SF_TRACE,	PERF_SAMPLE_RAW,	"RAW" },
	{ "ip",		SF_IP,		PERF_SAMPLE_IP,		"IP" },
	{ "sym",	SF_SYM,		PERF_SAMPLE_IP,		"IP" },
	{ "dso",	SF_DSO,		PERF_SAMPLE_IP,		"IP" },
	{ "dsoff",	SF_DSOFF,	PERF_SAMPLE_IP,		"IP" },
	{ "addr",	SF_ADDR,	PERF_SAMPLE_ADDR,	"ADDR" },
	{ "symoff",	SF_SYMOFFSET,	PERF_SAMPLE_IP,		"IP" },
	/* a fixed period (-c) is the attr's: perf prints it then too */
	{ "period",	SF_PERIOD,	0,			NULL },
	{ "cgroup",	SF_CGROUP,	PERF_SAMPLE_CGROUP,	"CGROUP" },
	/* its address is the ip's: perf checks that ip is printed instead (see setup) */
	{ "srcline",	SF_SRCLINE,	0,			NULL },
	{ "iregs",	SF_IREGS,	PERF_SAMPLE_REGS_INTR,	"IREGS" },
	{ "uregs",	SF_UREGS,	PERF_SAMPLE_REGS_USER,	"UREGS" },
	{ "weight",	SF_WEIGHT,	PERF_SAMPLE_WEIGHT_TYPE, "WEIGHT" },
	{ "phys_addr",	SF_PHYS_ADDR,	PERF_SAMPLE_PHYS_ADDR,	"PHYS_ADDR" },
	{ "data_page_size", SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ "code_page_size", SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ "data_src",	SF_DATA_SRC,	PERF_SAMPLE_DATA_SRC,	"DATA_SRC" },
	{ "ins_lat",	SF_INS_LAT,	PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ "retire_lat",	SF_RETIRE_LAT,	PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
};

/* what -F takes before a colon: perf has no word for hardware-cache events */
static const char *const type_names[ST_NR] = {
	[ST_HARDWARE] = "hw", [ST_SOFTWARE] = "sw", [ST_TRACEPOINT] = "trace",
	[ST_RAW] = "raw", [ST_BREAKPOINT] = "break",
};

/* "synth:": perf's synthesized events (Intel PT and the like), which we never have */
#define TYPE_SYNTH	ST_NR

/* the names perf's messages give the types */
static const char *const type_long_names[ST_NR] = {
	[ST_HARDWARE] = "hardware", [ST_SOFTWARE] = "software", [ST_TRACEPOINT] = "tracepoint",
	[ST_HW_CACHE] = "hardware-cache", [ST_RAW] = "raw", [ST_BREAKPOINT] = "breakpoint",
};

/*
 * Fields a type cannot have: the tracepoint payload is the tracepoints' alone. type: ST_*, or
 * ST_NR for the two types perf has beyond ours (synthesized and other events, which its
 * warning names "unknown"): it warns for those too.
 */
static unsigned int invalid_fields(int type)
{
	return type == ST_TRACEPOINT ? 0 : SF_TRACE;
}

#define EXTRA_OUTPUT_TYPES	2

void script_fields__init_defaults(struct script_fields *sel)
{
	memset(sel, 0, sizeof(*sel));
	memcpy(sel->fields, default_fields, sizeof(sel->fields));
}

enum script_type script_type_of(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:	return ST_HARDWARE;
	case PERF_TYPE_SOFTWARE:	return ST_SOFTWARE;
	case PERF_TYPE_TRACEPOINT:	return ST_TRACEPOINT;
	case PERF_TYPE_HW_CACHE:	return ST_HW_CACHE;
	case PERF_TYPE_BREAKPOINT:	return ST_BREAKPOINT;
	default:			return ST_RAW;	/* PMU types: perf prints them as raw */
	}
}

static int field_of(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++)
		if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, name, len))
			return (int)i;
	return -1;
}

enum field_change { CHANGE_NONE, CHANGE_SET, CHANGE_ADD, CHANGE_REMOVE };

static void script_fields__apply(struct script_fields *sel, int type, unsigned int field,
				 enum field_change change)
{
	if (change == CHANGE_REMOVE) {
		sel->fields[type] &= ~field;
		sel->user_del[type] |= field;
		sel->user_add[type] &= ~field;
	} else {
		sel->fields[type] |= field;
		if (change == CHANGE_ADD) {
			sel->user_add[type] |= field;
			sel->user_del[type] &= ~field;
		}
	}
	sel->touched[type] = true;
}

/*
 * "synth:LIST": the names are checked as perf checks them (perf's warning calls these
 * events "unknown"), and nothing is changed: no recording we read has such events.
 */
static int script_fields__check_synth(const char *arg, struct perf_err *err)
{
	for (const char *p = arg; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");
		const char *name = p;
		int f;

		p += len;
		if (*name == '+' || *name == '-') {
			name++;
			len--;
		}
		if (!len)
			continue;
		f = field_of(name, len);
		if (f < 0)
			return perf_err__set(err, EINVAL, "Invalid field requested: '%.*s'",
					     (int)len, name);
		if (invalid_fields(ST_NR) & field_names[f].field)
			return perf_err__set(err, EINVAL, "'%s' not valid for unknown events.",
					     field_names[f].name);
	}
	return 0;
}

int script_fields__parse(struct script_fields *sel, const char *arg, FILE *warn,
			 struct perf_err *err)
{
	const char *colon = strchr(arg, ':'), *p;
	enum field_change change = CHANGE_NONE;
	int only = -1;

	if (colon) {
		for (int t = 0; t < ST_NR; t++)
			if (type_names[t] && strlen(type_names[t]) == (size_t)(colon - arg) &&
			    !strncmp(type_names[t], arg, (size_t)(colon - arg)))
				only = t;
		if (colon - arg == 5 && !strncmp(arg, "synth", 5))
			only = TYPE_SYNTH;
		if (only < 0)
			return perf_err__set(err, EINVAL, "Invalid event type in field string: '%.*s'",
					     (int)(colon - arg), arg);
		arg = colon + 1;
		if (only == TYPE_SYNTH)
			return script_fields__check_synth(arg, err);
		if (sel->touched[only])
			fprintf(warn, "Overriding previous field request for %s events.\n",
				type_long_names[only]);
	} else if (!*arg) {
		return perf_err__set(err, EINVAL, "Cannot set fields to 'none' for all event types.");
	} else if (!strpbrk(arg, "+-")) {
		for (int t = 0; t < ST_NR; t++) {
			if (sel->touched[t]) {
				fprintf(warn, "Overriding previous field request for all events.\n");
				break;
			}
		}
	}
	/* a list without +/- replaces the fields; one with them edits the defaults */
	if (!strpbrk(arg, "+-")) {
		for (int t = 0; t < ST_NR; t++) {
			if (only >= 0 && t != only)
				continue;
			sel->fields[t] = 0;
			sel->user_set[t] = true;
			sel->typed[t] = only >= 0;
			sel->touched[t] = true;
		}
	}
	for (p = arg; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");
		enum field_change tok = CHANGE_SET;
		const char *name = p;
		int f;

		p += len;
		if (!len)
			continue;	/* "comm,,tid": perf's tokenizer skips empty fields */
		if (*name == '+' || *name == '-') {
			tok = *name == '+' ? CHANGE_ADD : CHANGE_REMOVE;
			name++;
			len--;
		}
		if ((tok == CHANGE_SET) != (change == CHANGE_SET) && change != CHANGE_NONE)
			return perf_err__set(err, EINVAL, "Cannot mix +-field with overridden fields");
		change = tok;
		f = field_of(name, len);
		if (f < 0)
			return perf_err__set(err, EINVAL, "Invalid field requested: '%.*s'", (int)len, name);
		if (only >= 0) {
			if (invalid_fields(only) & field_names[f].field)
				return perf_err__set(err, EINVAL, "'%s' not valid for %s events.",
						     field_names[f].name, type_long_names[only]);
			script_fields__apply(sel, only, field_names[f].field, change);
			continue;
		}
		for (int t = 0; t < ST_NR; t++) {
			if (invalid_fields(t) & field_names[f].field)
				fprintf(warn, "'%s' not valid for %s events. Ignoring.\n",
					field_names[f].name, type_long_names[t]);
			else
				script_fields__apply(sel, t, field_names[f].field, change);
		}
		for (int t = 0; t < EXTRA_OUTPUT_TYPES; t++)
			if (invalid_fields(ST_NR) & field_names[f].field)
				fprintf(warn, "'%s' not valid for unknown events. Ignoring.\n",
					field_names[f].name);
	}
	return 0;
}

static unsigned int field_needs_missing(unsigned int fields, u64 sample_type, int *which)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_names); i++) {
		if (!(fields & field_names[i].field) || !field_names[i].needs)
			continue;
		if (!(sample_type & field_names[i].needs)) {
			*which = (int)i;
			return field_names[i].field;
		}
	}
	return 0;
}

int script_output__setup(struct script_output *out, struct perf_session *session)
{
	struct perf_data *data = session->data;
	size_t nr = perf_data__nr_attrs(data);
	bool pipe = perf_data__is_pipe(data);
	bool seen[ST_NR] = { false };
	u64 sample_types = 0;

	out->name_width = 0;
	for (size_t i = 0; i < nr; i++) {
		struct perf_evattr *ea = perf_data__attr(data, i);
		const char *name = perf_evattr__name(ea);
		enum script_type t = script_type_of(&ea->attr);
		u64 st = ea->attr.sample_type;
		unsigned int f;
		int missing;

		if ((int)strlen(name) > out->name_width)
			out->name_width = (int)strlen(name);
		sample_types |= st;
		/*
		 * Callchains print where the samples were taken. A file's tracepoints get the
		 * frames with symbols, offsets and dsos; a pipe's first event of each type gets
		 * ip and sym (unless -F took them away) when its attr arrives and any attr so far has
		 * callchains, as perf does.
		 */
		if (out->use_callchain && pipe && !seen[t] && (sample_types & PERF_SAMPLE_CALLCHAIN))
			out->sel.fields[t] |= (SF_IP | SF_SYM) & ~out->sel.user_del[t];
		else if (out->use_callchain && !pipe && t == ST_TRACEPOINT && !out->sel.touched[t] &&
			 (st & PERF_SAMPLE_CALLCHAIN))
			out->sel.fields[t] |= SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO;
		/*
		 * As perf: the first event of each type decides what its type prints; a later
		 * one lacking a field (a :S member with its leader's sample_type) prints it
		 * empty, the cpu as -1
		 */
		while (!seen[t] && (f = field_needs_missing(out->sel.fields[t], st, &missing))) {
			if (out->sel.user_set[t] || (out->sel.user_add[t] & f))
				return perf_err__set(&out->err, EINVAL,
						     "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.%s",
						     name, field_names[missing].needs_name,
						     field_names[missing].name,
						     f == SF_CGROUP ? "\nHint: run 'perf record --all-cgroups ...'" : "");
			out->sel.fields[t] &= ~f;
		}
		seen[t] = true;
		if ((out->sel.fields[t] & SF_SRCLINE) && !(out->sel.fields[t] & SF_IP))
			return perf_err__set(&out->err, EINVAL,
					     "Display of source line number requested but sample IP is not\nselected. Hence, no address to lookup the source line number.");
	}
	/*
	 * "-F hw:" asks for nothing of a type, so that type must be there, as perf says (not
	 * for a list without a type: "-F trace" leaves software events nothing, and is fine).
	 * A pipe has shown no attrs at the first call: perf refuses it then too.
	 */
	for (int t = 0; t < ST_NR; t++)
		if (out->sel.user_set[t] && out->sel.typed[t] && !out->sel.fields[t] && !seen[t] && type_names[t])
			return perf_err__set(&out->err, ENOENT,
					     "%s events do not exist. Remove corresponding -F option to proceed.",
					     type_long_names[t]);
	return 0;
}

void script_output__init(struct script_output *out, FILE *fp, const struct script_fields *sel)
{
	memset(out, 0, sizeof(*out));
	out->fp = fp;
	out->sel = *sel;
	out->max_stack = PERF_MAX_STACK_DEPTH;
	out->use_callchain = true;
	sbuf__init(&out->sb);
	out->texts = calloc(1U << CHAIN_TEXT_BITS, sizeof(*out->texts));
}

void script_output__exit(struct script_output *out)
{
	sbuf__exit(&out->sb);
	if (out->texts)
		for (size_t i = 0; i < (1U << CHAIN_TEXT_BITS); i++)
			free(out->texts[i].text);
	free(out->texts);
	out->texts = NULL;
	frame_resolver__delete(out->resolver);
	out->resolver = NULL;
}

/* the machine's path for the id (its first); "unknown" for an id no record named */
static const char *cgroup_name(const struct machine *machine, u64 id)
{
	const char *path = machine__find_cgroup(machine, id);

	return path ? path : "unknown";
}

/*
 * --reltime counts from the first nonzero timestamp, --deltatime from the previous line's
 * (samples and side-band lines alike, a zero one too), as perf does
 */
static u64 script_output__time(struct script_output *out, u64 t)
{
	u64 shown = t;

	if (out->reltime) {
		if (!out->first_time)
			out->first_time = t;
		shown = t - out->first_time;
	} else if (out->deltatime) {
		shown = out->previous_time ? t - out->previous_time : 0;
		out->previous_time = t;
	}
	return shown;
}

static void print_time(struct sbuf *sb, u64 t, bool nanosecs)
{
	u64 secs = t / NSEC_PER_SEC, nsecs = t % NSEC_PER_SEC;

	/* perf: "%12s: " of "secs.usecs", or "%5lu.%09llu: " with --ns */
	if (nanosecs) {
		sbuf__dec(sb, secs, 5, false);
		sbuf__addc(sb, '.');
		sbuf__dec(sb, nsecs, 9, true);
	} else {
		sbuf__dec(sb, secs, 12 - 7, false);
		sbuf__addc(sb, '.');
		sbuf__dec(sb, nsecs / NSEC_PER_USEC, 6, true);
	}
	sbuf__add(sb, ": ", 2);
}

static const char *dso_name(const struct map *map)
{
	return map && map->dso ? map->dso->long_name : "[unknown]";
}

/* a kernel dso whose symbols came from a vmlinux (-k): perf's dsoff names that file */
static bool dso__from_vmlinux(const struct dso *dso)
{
	return dso && dso->kind == DSO_KIND_KERNEL && dso->symsrc_path;
}

/*
 * dsoff: the offset in the dso's file, for files only (not the kernel's or a module's
 * kallsyms, but a vmlinux's); memory without a file ([stack], //anon) counts from address 0,
 * as perf has it
 */
static void print_dsoff(struct sbuf *sb, const struct resolved_frame *fr)
{
	const struct dso *dso = fr->map ? fr->map->dso : NULL;

	if (!dso || dso->kind == DSO_KIND_KMODULE ||
	    (dso->kind == DSO_KIND_KERNEL && !dso__from_vmlinux(dso)))
		return;
	sbuf__add(sb, "+0x", 3);
	sbuf__hex(sb, dso->kind == DSO_KIND_ANON ? fr->ip : fr->map_ip, 0);
}

static void print_sym(struct sbuf *sb, const struct resolved_frame *fr, unsigned int fields)
{
	const struct symbol *sym = fr->sym;

	if (fields & SF_SYM) {
		sbuf__addc(sb, ' ');
		if (sym) {
			sbuf__adds(sb, sym->name);
			if (fields & SF_SYMOFFSET) {
				sbuf__add(sb, "+0x", 3);
				sbuf__hex(sb, fr->sym_addr - sym->start, 0);
			}
		} else {
			sbuf__add(sb, "[unknown]", 9);
		}
	}
	/* upstream prints an inlined function without its dso, and says so after the rest */
	if ((fields & SF_DSO) && !(sym && sym->inlined)) {
		sbuf__add(sb, " (", 2);
		if ((fields & SF_DSOFF) && fr->map && dso__from_vmlinux(fr->map->dso))
			sbuf__adds(sb, fr->map->dso->symsrc_path);
		else
			sbuf__adds(sb, dso_name(fr->map));
		if (fields & SF_DSOFF)
			print_dsoff(sb, fr);
		sbuf__addc(sb, ')');
	}
}

/* "%*s": s right-aligned in width */
static void put_padded(struct sbuf *sb, const char *str, int width)
{
	size_t len = strlen(str);

	for (int i = (int)len; i < width; i++)
		sbuf__addc(sb, ' ');
	sbuf__add(sb, str, len);
}

/* "%*d" for the pid/tid columns (-1 for unknown tasks) */
static void put_s32(struct sbuf *sb, s32 v, int width)
{
	if (v < 0) {
		sbuf__printf(sb, "%*d", width, v);
		return;
	}
	sbuf__dec(sb, (u64)v, width, false);
}

static void fprintf_start(struct script_output *out, struct sbuf *sb, struct thread *thread,
			  const struct perf_sample *sample, struct perf_evattr *ea)
{
	enum script_type t = ea ? script_type_of(&ea->attr) : ST_SOFTWARE;
	unsigned int f = out->sel.fields[t];

	if (f & SF_COMM) {
		u64 at = out->comm_as_read ? 0 : sample->time;
		const char *comm = thread ? thread__comm_str(thread, at) : ":-1";

		if ((f & SF_IP) && ea && (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && out->use_callchain)
			sbuf__adds(sb, comm);
		else
			put_padded(sb, comm, 16);
		sbuf__addc(sb, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		sbuf__printf(sb, "%7d/%-7d ", (s32)sample->pid, (s32)sample->tid);
	} else if (f & (SF_PID | SF_TID)) {
		put_s32(sb, (s32)((f & SF_PID) ? sample->pid : sample->tid), 7);
		sbuf__addc(sb, ' ');
	}
	if (f & SF_CPU) {
		if ((s32)sample->cpu < 0) {
			sbuf__printf(sb, "[%03d] ", (s32)sample->cpu);
		} else {
			sbuf__addc(sb, '[');
			sbuf__dec(sb, sample->cpu, 3, true);
			sbuf__add(sb, "] ", 2);
		}
	}
	if (f & SF_TIME)
		print_time(sb, script_output__time(out, sample->time), out->nanosecs);
}

void script_output__fprintf_start(struct script_output *out, struct perf_session *session,
				  struct thread *thread, const struct perf_sample *sample,
				  struct perf_evattr *ea)
{
	(void)session;
	fprintf_start(out, &out->sb, thread, sample, ea);
	sbuf__flush(&out->sb, out->fp);
}

/*
 * -F srcline: "\n  file:line" for a frame with a map. An inline expansion's frames carry
 * theirs; other addresses are looked up in the DWARF, and without an answer print as
 * upstream does: "dso[addr]", addr the ELF address (the ip itself for kernel dsos).
 */
static void print_srcline(struct sbuf *sb, const struct machine *machine,
			  const struct resolved_frame *f)
{
	char buf[4096];

	if (!f->map)
		return;
	sbuf__add(sb, "\n  ", 3);
	sbuf__adds(sb, frame__srcline(f, machine, 0, buf, sizeof(buf)));
}

/* "\t<ip> sym+off (dso)\n", or the cookie line of an unstitched deferred sample */
static void frame_line(struct sbuf *sb, const struct machine *machine,
		       const struct resolved_frame *f, unsigned int fields, bool show_unwind)
{
	sbuf__addc(sb, '\t');
	sbuf__hex(sb, f->ip, 16);
	if (f->origin == FRAME_ORIGIN_COOKIE) {
		sbuf__adds(sb, " (cookie) ([unknown])\n");
		return;
	}
	print_sym(sb, f, fields);
	if (fields & SF_SRCLINE)
		print_srcline(sb, machine, f);
	if (f->sym && f->sym->inlined)
		sbuf__add(sb, " (inlined)", 10);
	if (show_unwind) {
		sbuf__adds(sb, " [");
		sbuf__adds(sb, frame_origin__name(f->origin));
		sbuf__addc(sb, ']');
	}
	sbuf__addc(sb, '\n');
}

static void chain_text__store(struct chain_text *t, const struct sbuf *sb, size_t start, u64 id,
			      unsigned int fields)
{
	size_t len = sb->len - start;

	t->id = 0;
	if (t->alloc < len) {
		char *n = realloc(t->text, len);

		if (!n)
			return;
		t->text = n;
		t->alloc = (u32)len;
	}
	/* an empty chain (no frames, --max-stack 0) has no text, maybe no buffer either */
	if (len)
		memcpy(t->text, sb->buf + start, len);
	t->len = (u32)len;
	t->fields = fields;
	t->id = id;
}

/* the resolver, made for the machine of the first sample that needs it */
static struct frame_resolver *script_output__resolver(struct script_output *out,
						       struct machine *machine)
{
	if (!out->resolver) {
		out->resolver = frame_resolver__new(machine);
		if (out->resolver)
			frame_resolver__set_inline(out->resolver, out->inline_frames, stderr);
	}
	return out->resolver;
}

/* the frame lines, at most --max-stack of them (the cookie counts as one) */
static int print_callchain(struct script_output *out, struct machine *machine,
			   struct thread *thread, const struct perf_sample *sample, unsigned int f)
{
	struct sbuf *sb = &out->sb;
	struct resolved_chain chain;
	struct chain_text *t = NULL;
	size_t start = sb->len;
	int ret;

	if (!script_output__resolver(out, machine))
		return -ENOMEM;
	ret = frame_resolver__chain(out->resolver, thread, sample, &chain);
	if (ret)
		return ret;
	if (chain.id && out->texts) {
		t = &out->texts[chain.id & ((1U << CHAIN_TEXT_BITS) - 1)];
		if (t->id == chain.id && t->fields == f) {
			if (t->len)
				sbuf__add(sb, t->text, t->len);
			return 0;
		}
	}
	/* --max-stack counts recorded addresses: a frame's inlined functions come with it */
	for (u32 i = 0, depth = 0; i < chain.nr; i++) {
		bool starts = !i || chain.frames[i - 1].origin != FRAME_ORIGIN_INLINE;

		if (starts && depth++ >= out->max_stack)
			break;
		frame_line(sb, machine, &chain.frames[i], f, out->show_unwind);
	}
	if (t && !sb->oom)
		chain_text__store(t, sb, start, chain.id, f);
	return 0;
}

/* -F iregs, uregs: " ABI:2    SP:0x7ffd...    IP:0x4011... ", nothing without regs (ABI none) */
/*
 * A page size as perf names it: in the largest unit of B, K, M, G that leaves more than 1024
 * of the next smaller one ("1024B", "4K", "2M"); a size the kernel could not tell is "N/A"
 */
static void print_page_size(struct sbuf *sb, u64 size)
{
	static const char units[] = "BKMG";
	unsigned int i = 0;

	if (!size) {
		sbuf__adds(sb, " N/A");
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	sbuf__printf(sb, " %llu%c", (unsigned long long)size, units[i]);
}

static void print_regs(struct sbuf *sb, u64 abi, u64 mask, const u64 *regs)
{
	unsigned int i = 0;

	if (abi == PERF_SAMPLE_REGS_ABI_NONE || !regs)
		return;
	sbuf__printf(sb, " ABI:%llu ", (unsigned long long)abi);
	for (unsigned int rid = 0; rid < 64; rid++)
		if (mask & (1ULL << rid))
			sbuf__printf(sb, "%5s:0x%llx ", perf_reg__name(rid),
				     (unsigned long long)regs[i++]);
}

/*
 * Upstream builds this text in a buffer of 100 bytes: what does not fit is cut, however
 * much of the decoding that leaves out (a level mask with many bits set fills it alone)
 */
#define DATA_SRC_TEXT_MAX	99

/*
 * -F data_src: "%16llx |OP ...", padded to the longest such text printed so far in the run,
 * as upstream pads it (the next field starts there; a later, longer one moves it)
 */
static void print_data_src(struct script_output *out, u64 data_src)
{
	struct sbuf *sb = &out->sb;
	size_t start = sb->len, len;

	sbuf__hex(sb, data_src, 16);
	sbuf__addc(sb, ' ');
	mem_data_src__decode(sb, data_src);
	len = sb->len - start;
	if (len > DATA_SRC_TEXT_MAX) {
		len = DATA_SRC_TEXT_MAX;
		sb->len = start + len;
	}
	if (out->data_src_width < len)
		out->data_src_width = len;
	for (; len < out->data_src_width; len++)
		sbuf__addc(sb, ' ');
}

/* the events whose addr is a data address worth naming (perf: sample_addr_correlates_sym) */
static bool addr_correlates_sym(const struct perf_event_attr *attr)
{
	if (attr->type == PERF_TYPE_SOFTWARE)
		return attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		       attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	/* branch tracing (BTS): every branch is a sample, addr is its target */
	return attr->type == PERF_TYPE_HARDWARE &&
	       attr->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS && attr->sample_period == 1;
}

/*
 * A sample's data address, resolved in the sample's cpumode and, when no map there covers
 * it, in the one its value belongs to (a kernel fault on a user buffer), as perf does
 */
static const struct resolved_frame *script_output__data_addr(struct script_output *out,
							     struct machine *machine,
							     struct thread *thread,
							     const struct perf_sample *sample)
{
	const struct resolved_frame *fr;
	u64 kernel_start = machine->kernel_map ? machine->kernel_map->start : 1ULL << 63;
	u8 cpumode = (u8)sample->cpumode, addr_cpumode;

	if (!script_output__resolver(out, machine))
		return NULL;
	fr = frame_resolver__addr(out->resolver, thread, cpumode, sample->addr);
	if (fr->map || (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER))
		return fr;
	addr_cpumode = sample->addr >= kernel_start ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (addr_cpumode == cpumode)
		return fr;
	return frame_resolver__addr(out->resolver, thread, addr_cpumode, sample->addr);
}

int script_output__sample(struct script_output *out, struct perf_session *session,
			  struct perf_sample *sample, struct perf_evattr *ea)
{
	struct machine *machine = &session->machine;
	enum script_type t = script_type_of(&ea->attr);
	unsigned int f = out->sel.fields[t];
	struct sbuf *sb = &out->sb;
	struct thread *thread;

	/* perf prints nothing at all, not even a newline, for a type -F emptied */
	if (!f)
		return 0;
	/* the thread a sample stage held for it, if one did: tid reuse does not change it */
	thread = perf_session__sample_thread(session, sample);
	fprintf_start(out, sb, thread, sample, ea);
	if (f & SF_PERIOD) {
		sbuf__dec(sb, (ea->attr.sample_type & PERF_SAMPLE_PERIOD) ? sample->period :
			  ea->attr.sample_period, 10, false);
		sbuf__addc(sb, ' ');
	}
	if (f & SF_EVNAME) {
		put_padded(sb, perf_evattr__name(ea), out->name_width);
		sbuf__add(sb, ": ", 2);
	}
	if ((f & SF_TRACE) && sample->raw_data && out->tevent) {
		char buf[16384];

		if (trace_event__format(out->tevent, ea->attr.config, sample->raw_data,
					sample->raw_size, (int)sample->cpu, buf, sizeof(buf),
					&out->err) >= 0)
			sbuf__adds(sb, buf);
	}
	if (f & SF_ADDR) {
		sbuf__hex(sb, sample->addr, 16);
		if (addr_correlates_sym(&ea->attr) && (f & (SF_SYM | SF_DSO))) {
			const struct resolved_frame *fr = script_output__data_addr(out, machine, thread,
										    sample);

			if (!fr)
				return -ENOMEM;
			print_sym(sb, fr, f);
		}
	}
	if (f & SF_DATA_SRC)
		print_data_src(out, sample->data_src);
	if (f & SF_WEIGHT)
		sbuf__printf(sb, "%16llu", (unsigned long long)sample->weight);
	/* WEIGHT_STRUCT's other two parts; the third is the retire latency on x86 */
	if (f & SF_INS_LAT)
		sbuf__printf(sb, "%16u", sample->ins_lat);
	if (f & SF_RETIRE_LAT)
		sbuf__printf(sb, "%16u", sample->p_stage_cyc);
	if (f & SF_CGROUP) {
		sbuf__addc(sb, ' ');
		sbuf__adds(sb, cgroup_name(machine, sample->cgroup));
	}
	if (f & SF_IP) {
		bool chain = out->use_callchain && (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN);

		sbuf__addc(sb, chain ? '\n' : ' ');
		if (chain) {
			int ret = print_callchain(out, machine, thread, sample, f);

			if (ret)
				return ret;
		} else {
			const struct resolved_frame *fr;

			if (!script_output__resolver(out, machine))
				return -ENOMEM;
			fr = frame_resolver__addr(out->resolver, thread, (u8)sample->cpumode, sample->ip);
			sbuf__hex(sb, sample->ip, 16);
			print_sym(sb, fr, f);
			if (f & SF_SRCLINE)
				print_srcline(sb, machine, fr);
		}
	}
	if (f & SF_IREGS)
		print_regs(sb, sample->intr_regs_abi, sample->intr_regs_mask, sample->intr_regs);
	if (f & SF_UREGS)
		print_regs(sb, sample->user_regs_abi, sample->user_regs_mask, sample->user_regs);
	if (f & SF_PHYS_ADDR)
		sbuf__printf(sb, "%16llx", (unsigned long long)sample->phys_addr);
	if (f & SF_DATA_PAGE_SIZE)
		print_page_size(sb, sample->data_page_size);
	if (f & SF_CODE_PAGE_SIZE)
		print_page_size(sb, sample->code_page_size);
	sbuf__addc(sb, '\n');
	return sbuf__flush(sb, out->fp);
}

/*
 * --no-merge-callchains: a PERF_RECORD_CALLCHAIN_DEFERRED on its own, as upstream prints it:
 * "comm tid time: DEFERRED CALLCHAIN [cookie: %llx]" and its user frames.
 */
int script_output__deferred_record(struct script_output *out, struct perf_session *session,
				   const struct perf_record_callchain_deferred *rec,
				   struct perf_sample *id, struct perf_evattr *ea)
{
	struct machine *machine = &session->machine;
	struct sbuf *sb = &out->sb;
	struct thread *thread;
	struct perf_sample chain = *id;
	u64 *ips;
	int ret;

	thread = machine__findnew_thread(machine, (s32)id->pid, (s32)id->tid);
	fprintf_start(out, sb, thread, id, ea);
	sbuf__printf(sb, "DEFERRED CALLCHAIN [cookie: %llx]\n", (unsigned long long)rec->cookie);
	/* the record's ips carry no marker: they are user addresses, from the record */
	ips = malloc((rec->nr + 1) * sizeof(u64));
	if (!ips)
		return -ENOMEM;
	ips[0] = PERF_CONTEXT_USER_DEFERRED;
	memcpy(ips + 1, rec->ips, rec->nr * sizeof(u64));
	chain.callchain = ips;
	chain.callchain_nr = rec->nr + 1;
	chain.deferred_callchain = false;
	ret = print_callchain(out, machine, thread, &chain, SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO);
	free(ips);
	if (ret)
		return ret;
	sbuf__addc(sb, '\n');
	ret = sbuf__flush(sb, out->fp);
	return ret;
}
