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
#include "dso.h"
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
} field_names[] = {
	{ "comm",	SF_COMM,	PERF_SAMPLE_TID },
	{ "tid",	SF_TID,		PERF_SAMPLE_TID },
	{ "pid",	SF_PID,		PERF_SAMPLE_TID },
	{ "time",	SF_TIME,	PERF_SAMPLE_TIME },
	{ "cpu",	SF_CPU,		PERF_SAMPLE_CPU },
	{ "event",	SF_EVNAME,	0 },
	{ "trace",	SF_TRACE,	PERF_SAMPLE_RAW },
	{ "ip",		SF_IP,		PERF_SAMPLE_IP },
	{ "sym",	SF_SYM,		PERF_SAMPLE_IP },
	{ "dso",	SF_DSO,		PERF_SAMPLE_IP },
	{ "dsoff",	SF_DSOFF,	PERF_SAMPLE_IP },
	{ "addr",	SF_ADDR,	PERF_SAMPLE_ADDR },
	{ "symoff",	SF_SYMOFFSET,	PERF_SAMPLE_IP },
	{ "period",	SF_PERIOD,	PERF_SAMPLE_PERIOD },
};

static const char *const type_names[ST_NR] = {
	[ST_HARDWARE] = "hw", [ST_SOFTWARE] = "sw", [ST_TRACEPOINT] = "trace",
	[ST_HW_CACHE] = "hw-cache", [ST_RAW] = "raw", [ST_BREAKPOINT] = "break",
};

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
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (strlen(field_names[i].name) == len && !strncmp(field_names[i].name, name, len))
			return (int)i;
	return -1;
}

int script_fields__parse(struct script_fields *sel, const char *arg, struct perf_err *err)
{
	const char *colon = strchr(arg, ':'), *p;
	int only = -1;
	unsigned int set = 0, add = 0, del = 0;
	bool any_plain = false;

	if (colon) {
		for (int t = 0; t < ST_NR; t++)
			if (strlen(type_names[t]) == (size_t)(colon - arg) &&
			    !strncmp(type_names[t], arg, (size_t)(colon - arg)))
				only = t;
		if (only < 0)
			return perf_err__set(err, EINVAL, "Invalid event type in field string: '%.*s'",
					     (int)(colon - arg), arg);
		arg = colon + 1;
	}
	for (p = arg; *p;) {
		size_t len = strcspn(p, ",");
		char sign = 0;
		int f;

		if (*p == '+' || *p == '-') {
			sign = *p++;
			len--;
		}
		f = field_of(p, len);
		if (f < 0)
			return perf_err__set(err, EINVAL, "Invalid field requested: '%.*s'", (int)len, p);
		if (sign == '+')
			add |= field_names[f].field;
		else if (sign == '-')
			del |= field_names[f].field;
		else {
			set |= field_names[f].field;
			any_plain = true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	for (int t = 0; t < ST_NR; t++) {
		if (only >= 0 && t != only)
			continue;
		if (any_plain) {
			sel->fields[t] = set;
			sel->user_set[t] = true;
		}
		sel->fields[t] = (sel->fields[t] | add) & ~del;
		sel->user_add[t] |= add;
		sel->user_del[t] |= del;
	}
	return 0;
}

static unsigned int field_needs_missing(unsigned int fields, u64 sample_type, const char **name)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++) {
		if (!(fields & field_names[i].field) || !field_names[i].needs)
			continue;
		if (!(sample_type & field_names[i].needs)) {
			*name = field_names[i].name;
			return field_names[i].field;
		}
	}
	return 0;
}

int script_output__setup(struct script_output *out, struct perf_session *session)
{
	struct perf_data *data = session->data;
	size_t nr = perf_data__nr_attrs(data);

	out->name_width = 0;
	for (size_t i = 0; i < nr; i++) {
		struct perf_evattr *ea = perf_data__attr(data, i);
		const char *name = perf_evattr__name(ea);
		enum script_type t = script_type_of(&ea->attr);
		u64 st = ea->attr.sample_type;
		const char *missing;
		unsigned int f;

		if ((int)strlen(name) > out->name_width)
			out->name_width = (int)strlen(name);
		/* tracepoints print where they were hit when they have callchains */
		if (t == ST_TRACEPOINT && !out->sel.user_set[t] && (st & PERF_SAMPLE_CALLCHAIN) &&
		    out->use_callchain)
			out->sel.fields[t] |= SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO;
		while ((f = field_needs_missing(out->sel.fields[t], st, &missing))) {
			if (out->sel.user_set[t] || (out->sel.user_add[t] & f))
				return perf_err__set(&out->err, EINVAL,
						     "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.",
						     name, missing[0] == 't' && !strcmp(missing, "trace") ? "RAW" :
						     !strcmp(missing, "cpu") ? "CPU" : !strcmp(missing, "addr") ? "ADDR" :
						     !strcmp(missing, "period") ? "PERIOD" : !strcmp(missing, "time") ? "TIME" :
						     !strcmp(missing, "comm") || !strcmp(missing, "tid") || !strcmp(missing, "pid") ? "TID" : "IP",
						     missing);
			out->sel.fields[t] &= ~f;
		}
	}
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

static void print_sym(struct sbuf *sb, const struct symbol *sym, u64 sym_addr,
		      const struct map *map, unsigned int fields)
{
	if (fields & SF_SYM) {
		sbuf__addc(sb, ' ');
		if (sym) {
			sbuf__adds(sb, sym->name);
			if (fields & SF_SYMOFFSET) {
				sbuf__add(sb, "+0x", 3);
				sbuf__hex(sb, sym_addr - sym->start, 0);
			}
		} else {
			sbuf__add(sb, "[unknown]", 9);
		}
	}
	if (fields & SF_DSO) {
		sbuf__add(sb, " (", 2);
		sbuf__adds(sb, dso_name(map));
		if ((fields & SF_DSOFF) && map) {
			sbuf__add(sb, "+0x", 3);
			sbuf__hex(sb, sym_addr, 0);
		}
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
		const char *comm = thread ? thread__comm_str(thread, sample->time) : ":-1";

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
		print_time(sb, sample->time, out->nanosecs);
}

void script_output__fprintf_start(struct script_output *out, struct perf_session *session,
				  struct thread *thread, const struct perf_sample *sample,
				  struct perf_evattr *ea)
{
	(void)session;
	fprintf_start(out, &out->sb, thread, sample, ea);
	sbuf__flush(&out->sb, out->fp);
}

/* "\t<ip> sym+off (dso)\n", or the cookie line of an unstitched deferred sample */
static void frame_line(struct sbuf *sb, const struct resolved_frame *f, unsigned int fields)
{
	sbuf__addc(sb, '\t');
	sbuf__hex(sb, f->ip, 16);
	if (f->origin == FRAME_ORIGIN_COOKIE) {
		sbuf__adds(sb, " (cookie) ([unknown])\n");
		return;
	}
	print_sym(sb, f->sym, f->sym_addr, f->map, fields);
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
	if (!out->resolver)
		out->resolver = frame_resolver__new(machine);
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
	for (u32 i = 0; i < chain.nr && i < out->max_stack; i++)
		frame_line(sb, &chain.frames[i], f);
	if (t && !sb->oom)
		chain_text__store(t, sb, start, chain.id, f);
	return 0;
}

int script_output__sample(struct script_output *out, struct perf_session *session,
			  struct perf_sample *sample, struct perf_evattr *ea)
{
	struct machine *machine = &session->machine;
	enum script_type t = script_type_of(&ea->attr);
	unsigned int f = out->sel.fields[t];
	struct sbuf *sb = &out->sb;
	struct thread *thread;

	/* the thread a sample stage held for it, if one did: tid reuse does not change it */
	thread = perf_session__sample_thread(session, sample);
	fprintf_start(out, sb, thread, sample, ea);
	if (f & SF_PERIOD) {
		sbuf__dec(sb, sample->period, 10, false);
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
	if (f & SF_ADDR)
		sbuf__hex(sb, sample->addr, 16);
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
			print_sym(sb, fr->sym, fr->sym_addr, fr->map, f);
		}
	}
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
