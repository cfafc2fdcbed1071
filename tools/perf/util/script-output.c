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
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dso.h"
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
	{ "misc",	SF_MISC,	0 },
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
		const char *name = perf_session__evattr_name(session, ea);
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
	callchain_cursor__init(&out->cursor);
}

void script_output__exit(struct script_output *out)
{
	callchain_cursor__exit(&out->cursor);
}

/*
 * The hot path prints ~15 frame lines per sample: numbers are formatted by hand and every
 * piece goes out with fwrite_unlocked(), which is several times cheaper than fprintf().
 */
static void put_str(FILE *fp, const char *str)
{
	fwrite_unlocked(str, 1, strlen(str), fp);
}

static void put_hex(FILE *fp, u64 v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char buf[32], *p = buf + sizeof(buf);
	int n = 0;

	do {
		*--p = digits[v & 0xf];
		v >>= 4;
		n++;
	} while (v);
	while (n++ < width)
		*--p = ' ';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), fp);
}

/* unsigned decimal, right-aligned in width, zero-padded when zero_pad */
static void put_dec(FILE *fp, u64 v, int width, bool zero_pad)
{
	char buf[32], *p = buf + sizeof(buf);
	int n = 0;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	while (n++ < width)
		*--p = zero_pad ? '0' : ' ';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), fp);
}

static void put_s32(FILE *fp, s32 v, int width)
{
	if (v < 0) {
		fprintf(fp, "%*d", width, v);
		return;
	}
	put_dec(fp, (u64)v, width, false);
}

static void print_time(FILE *fp, u64 t, bool nanosecs)
{
	u64 secs = t / NSEC_PER_SEC, nsecs = t % NSEC_PER_SEC;
	u64 frac = nanosecs ? nsecs : nsecs / NSEC_PER_USEC;
	int frac_digits = nanosecs ? 9 : 6;
	/* perf: "%12s: " of "secs.usecs", or "%5lu.%09llu: " with --ns */
	if (nanosecs)
		put_dec(fp, secs, 5, false);
	else
		put_dec(fp, secs, 12 - 1 - frac_digits, false);
	putc_unlocked('.', fp);
	put_dec(fp, frac, frac_digits, true);
	fwrite_unlocked(": ", 1, 2, fp);
}

static const char *dso_name(const struct map *map)
{
	return map && map->dso ? map->dso->long_name : "[unknown]";
}

static void print_sym(FILE *fp, const struct symbol *sym, u64 sym_addr, const struct map *map,
		      unsigned int fields)
{
	if (fields & SF_SYM) {
		putc_unlocked(' ', fp);
		if (sym) {
			put_str(fp, sym->name);
			if (fields & SF_SYMOFFSET) {
				fwrite_unlocked("+0x", 1, 3, fp);
				put_hex(fp, sym_addr - sym->start, 0);
			}
		} else {
			fwrite_unlocked("[unknown]", 1, 9, fp);
		}
	}
	if (fields & SF_DSO) {
		fwrite_unlocked(" (", 1, 2, fp);
		put_str(fp, dso_name(map));
		if ((fields & SF_DSOFF) && map) {
			fwrite_unlocked("+0x", 1, 3, fp);
			put_hex(fp, sym_addr, 0);
		}
		putc_unlocked(')', fp);
	}
}

void script_output__fprintf_start(struct script_output *out, struct perf_session *session,
				  struct thread *thread, const struct perf_sample *sample,
				  struct perf_evattr *ea)
{
	enum script_type t = ea ? script_type_of(&ea->attr) : ST_SOFTWARE;
	unsigned int f = out->sel.fields[t];
	FILE *fp = out->fp;

	(void)session;
	if (f & SF_COMM) {
		const char *comm = thread ? thread__comm_str(thread, sample->time) : ":-1";

		if ((f & SF_IP) && ea && (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && out->use_callchain)
			put_str(fp, comm);
		else
			fprintf(fp, "%16s", comm);
		putc_unlocked(' ', fp);
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		fprintf(fp, "%7d/%-7d ", (s32)sample->pid, (s32)sample->tid);
	} else if (f & (SF_PID | SF_TID)) {
		put_s32(fp, (s32)((f & SF_PID) ? sample->pid : sample->tid), 7);
		putc_unlocked(' ', fp);
	}
	if (f & SF_CPU)
		fprintf(fp, "[%03d] ", (s32)sample->cpu);
	if (f & SF_TIME)
		print_time(fp, sample->time, out->nanosecs);
}

int script_output__sample(struct script_output *out, struct perf_session *session,
			  struct perf_sample *sample, struct perf_evattr *ea)
{
	struct machine *machine = &session->machine;
	enum script_type t = script_type_of(&ea->attr);
	unsigned int f = out->sel.fields[t];
	struct thread *thread;
	FILE *fp = out->fp;

	thread = machine__findnew_thread(machine, (s32)sample->pid, (s32)sample->tid);
	script_output__fprintf_start(out, session, thread, sample, ea);
	if (f & SF_PERIOD) {
		put_dec(fp, sample->period, 10, false);
		putc_unlocked(' ', fp);
	}
	if (f & SF_EVNAME)
		fprintf(fp, "%*s: ", out->name_width, perf_session__evattr_name(session, ea));
	if ((f & SF_TRACE) && sample->raw_data && out->tevent) {
		char buf[16384];

		if (trace_event__format(out->tevent, ea->attr.config, sample->raw_data,
					sample->raw_size, (int)sample->cpu, buf, sizeof(buf),
					&out->err) >= 0)
			fputs(buf, fp);
	}
	if (f & SF_ADDR)
		fprintf(fp, "%16" PRIx64, sample->addr);
	if (f & SF_IP) {
		bool chain = out->use_callchain && (ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN);

		if (chain && callchain__resolve(machine, thread, sample, out->max_stack, &out->cursor,
						&out->err))
			chain = false;
		fputc(chain ? '\n' : ' ', fp);
		if (chain) {
			for (size_t i = 0; i < out->cursor.nr; i++) {
				const struct callchain_frame *fr = &out->cursor.frames[i];

				putc_unlocked('\t', fp);
				put_hex(fp, fr->ip, 16);
				if (fr->cookie) {
					put_str(fp, " (cookie) ([unknown])\n");
					continue;
				}
				print_sym(fp, fr->sym, fr->sym_addr, fr->map, f);
				putc_unlocked('\n', fp);
			}
		} else {
			struct addr_location al;

			machine__resolve(machine, thread, (u8)sample->cpumode, sample->ip, &al);
			put_hex(fp, sample->ip, 16);
			print_sym(fp, al.sym, al.sym_addr, al.map, f);
		}
	}
	fputc('\n', fp);
	return 0;
}
