// SPDX-License-Identifier: GPL-2.0
/*
 * The sample filters of perf script and perf report (see sample-filter.h): the list
 * syntaxes upstream accepts, and the checks each sample goes through.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/data.h>
#include <perf/env.h>
#include "dso.h"
#include "cpu-list.h"
#include "machine.h"
#include "sample-filter.h"
#include "session.h"
#include "symbol.h"

/* upstream's MAX_NR_CPUS: the cpu numbers it can keep in its bitmap */
#define FILTER_MAX_CPUS	4096

void sample_filter__init(struct sample_filter *f)
{
	*f = (struct sample_filter){ 0 };
}

static void name_list__exit(struct name_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->names[i]);
	free(list->names);
	*list = (struct name_list){ 0 };
}

void sample_filter__exit(struct sample_filter *f)
{
	name_list__exit(&f->comms);
	name_list__exit(&f->dsos);
	name_list__exit(&f->syms);
	free(f->pids.ids);
	free(f->tids.ids);
	free(f->cpus);
	free(f->ranges);
	free(f->sym_addrs);
	f->sym_addrs = NULL;
	f->nr_sym_addrs = 0;
	f->pids = f->tids = (struct id_list){ 0 };
	f->cpus = NULL;
	f->ranges = NULL;
	f->nr_cpus = 0;
	f->nr_ranges = 0;
}

static bool name_list__has(const struct name_list *list, const char *name)
{
	for (size_t i = 0; i < list->nr; i++)
		if (!strcmp(list->names[i], name))
			return true;
	return false;
}

/* a set, as upstream's strlist, which refuses an entry given twice */
static int name_list__add(struct name_list *list, const char *name, size_t len)
{
	char **names, *copy;

	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	if (name_list__has(list, copy)) {
		free(copy);
		return -EEXIST;
	}
	names = realloc(list->names, (list->nr + 1) * sizeof(*names));
	if (!names) {
		free(copy);
		return -ENOMEM;
	}
	list->names = names;
	list->names[list->nr++] = copy;
	return 0;
}

static int name_list__parse(struct name_list *list, const char *str, const char *what,
			    struct perf_err *err)
{
	int ret;

	name_list__exit(list);
	/* every comma ends an entry; what follows the last one is an entry unless empty */
	for (const char *s = str; *s;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		ret = name_list__add(list, s, len);
		if (ret == -EEXIST)
			return perf_err__set(err, EINVAL, "problems parsing %s list", what);
		if (ret)
			return perf_err__set(err, ENOMEM, "out of memory");
		if (!comma)
			break;
		s = comma + 1;
	}
	return 0;
}

static bool id_list__has(const struct id_list *list, s32 id)
{
	for (size_t i = 0; i < list->nr; i++)
		if (list->ids[i] == id)
			return true;
	return false;
}

static int id_list__parse(struct id_list *list, const char *str, const char *what,
			 struct perf_err *err)
{
	const char *s = str;
	char *end;

	free(list->ids);
	*list = (struct id_list){ .set = true };
	/* strtol's numbers, each ended by a comma or the end: "" and "1," hold a 0 */
	do {
		long v = strtol(s, &end, 10);
		s32 *ids;

		if (*end != ',' && *end != '\0')
			return perf_err__set(err, EINVAL, "problems parsing %s list", what);
		if (id_list__has(list, (s32)v))
			return perf_err__set(err, EINVAL, "problems parsing %s list", what);
		ids = realloc(list->ids, (list->nr + 1) * sizeof(*ids));
		if (!ids)
			return perf_err__set(err, ENOMEM, "out of memory");
		list->ids = ids;
		list->ids[list->nr++] = (s32)v;
		s = end + 1;
	} while (*end);
	return 0;
}

/*
 * -S entries that are whole hex numbers ("ffffffff816e1f12", "0x4005d0", "add") are sample
 * addresses, not names, as upstream takes them.
 */
static int sample_filter__split_addrs(struct sample_filter *f)
{
	struct name_list *syms = &f->syms;
	size_t kept = 0;

	f->sym_addrs = calloc(syms->nr ? syms->nr : 1, sizeof(*f->sym_addrs));
	if (!f->sym_addrs)
		return -ENOMEM;
	for (size_t i = 0; i < syms->nr; i++) {
		char *end;
		unsigned long long addr;

		errno = 0;
		addr = strtoull(syms->names[i], &end, 16);
		if (errno || end == syms->names[i] || *end) {
			syms->names[kept++] = syms->names[i];
			continue;
		}
		f->sym_addrs[f->nr_sym_addrs++] = addr;
		free(syms->names[i]);
	}
	syms->nr = kept;
	return 0;
}

/* ---- -C ---- */

/*
 * The list as upstream's cpu map reads it (cpu-list.h) into a bitmap of max_cpu bits, with
 * upstream's words: its warning past MAX_NR_CPUS, then "Invalid cpu_list" for any error.
 */
static int cpu_list__bitmap(const char *str, u64 **bits, u32 *max_cpu, struct perf_err *err)
{
	struct perf_err why;
	u64 *map;
	u32 *cpus, nr_bits;
	size_t nr;
	int ret = cpu_list__cpus(str, &cpus, &nr, &why);

	err->msg[0] = '\0';
	if (ret == -ENOMEM)
		return perf_err__set(err, ENOMEM, "out of memory");
	if (ret)
		return perf_err__set(err, EINVAL, "Invalid cpu_list");
	nr_bits = (cpus[nr - 1] + 64) & ~63u;
	map = calloc(nr_bits / 64, sizeof(*map));
	if (!map) {
		free(cpus);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nr; i++)
		map[cpus[i] / 64] |= 1ULL << (cpus[i] % 64);
	if (cpus[nr - 1] >= FILTER_MAX_CPUS)
		snprintf(err->msg, sizeof(err->msg),
			 "Perf can support %d CPUs. Consider raising MAX_NR_CPUS\n", FILTER_MAX_CPUS);
	free(cpus);
	*bits = map;
	*max_cpu = nr_bits;
	return 0;
}

static int sample_filter__setup_cpus(struct sample_filter *f, struct perf_data *data,
				     struct perf_err *err)
{
	const struct perf_env *env = perf_data__env(data);
	bool type_seen[PERF_TYPE_BREAKPOINT + 1] = { false };
	u32 nr_cpus;
	int ret;

	/* upstream looks at the first event of each type only */
	for (size_t i = 0; i < perf_data__nr_attrs(data); i++) {
		const struct perf_evattr *ea = perf_data__attr(data, i);

		if (ea->attr.type > PERF_TYPE_BREAKPOINT || type_seen[ea->attr.type])
			continue;
		type_seen[ea->attr.type] = true;
		if (!(ea->attr.sample_type & PERF_SAMPLE_CPU))
			return perf_err__set(err, EINVAL,
					     "File does not contain CPU events. Remove -C option to proceed.");
	}
	ret = cpu_list__bitmap(f->cpu_str, &f->cpus, &f->nr_cpus, err);
	if (ret)
		return ret;
	nr_cpus = env ? env->nr_cpus_avail : 0;
	if (nr_cpus > FILTER_MAX_CPUS)
		nr_cpus = FILTER_MAX_CPUS;
	for (u32 c = nr_cpus; c < f->nr_cpus; c++) {
		if (f->cpus[c / 64] & (1ULL << (c % 64))) {
			size_t at = strlen(err->msg);

			snprintf(err->msg + at, sizeof(err->msg) - at,
				 "Requested CPU %u too large. Consider raising MAX_NR_CPUS", c);
			return -EINVAL;
		}
	}
	err->msg[0] = '\0';
	return 0;
}

/* ---- --time ---- */

/* "sec[.frac]" with at most 9 digits of fraction, into ns */
static int parse_nsec(const char *s, u64 *out)
{
	unsigned long long sec, nsec = 0;
	char *end;

	sec = strtoull(s, &end, 10);
	if (*end == '.') {
		char digits[10], *frac_end;
		size_t n = strlen(end + 1);

		if (n > 9)
			return -1;
		/* "1.5" is 1.500000000: the fraction padded to 9 digits */
		memset(digits, '0', 9);
		memcpy(digits, end + 1, n);
		digits[9] = '\0';
		nsec = strtoull(digits, &frac_end, 10);
		if (*frac_end)
			return -1;
	} else if (*end) {
		return -1;
	}
	*out = (u64)sec * 1000000000ULL + nsec;
	return 0;
}

/* "start,stop", either side may be empty; stop before start is refused */
static int parse_range(char *s, struct time_range *r)
{
	char *comma = strchr(s, ',');

	*r = (struct time_range){ 0 };
	if (comma)
		*comma++ = '\0';
	if (*s && parse_nsec(s, &r->start))
		return -1;
	if (comma && *comma && parse_nsec(comma, &r->end))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/*
 * Absolute ranges: "a,b" or several separated by blanks ("a,b c,d"), in increasing order
 * and not overlapping. Returns the number of ranges or -1.
 */
static int parse_abs_ranges(char *str, struct time_range *r, size_t size)
{
	size_t nr_commas = 0, i;
	char *p = str;

	for (const char *c = str; *c; c++)
		nr_commas += *c == ',';
	if (!nr_commas || nr_commas > size)
		return -1;
	for (i = 0; i + 1 < nr_commas; i++) {
		char *arg = p;

		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				return -1;
		if (*p)
			*p++ = '\0';
		if (parse_range(arg, &r[i]))
			return -1;
	}
	if (parse_range(p, &r[i]))
		return -1;
	for (i = 0; i + 1 < nr_commas; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return (int)nr_commas;
}

/* "10%": the text up to the '%' a whole strtod number, as a fraction */
static int parse_percent(char *s, double *out)
{
	char *pct = s ? strchr(s, '%') : NULL, *end;

	if (!pct)
		return -1;
	*pct = '\0';
	*out = strtod(s, &end) / 100.0;
	return *end ? -1 : 0;
}

static int percent_range(double from, double to, u64 first, u64 last, struct time_range *r)
{
	double total = (double)(last - first);

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -1;
	r->start = (u64)((double)first + round(from * total));
	r->end = (u64)((double)first + round(to * total));
	/* slices do not share their boundary, except that the last one ends at the end */
	if (r->end > r->start && to != 1.0)
		r->end--;
	return 0;
}

/* "10%/2": the second slice of 10% */
static int percent_slice(char *s, u64 first, u64 last, struct time_range *r)
{
	char *slash = strchr(s, '/'), *end;
	double pcnt;
	long nth;

	if (!slash)
		return -1;
	*slash = '\0';
	if (parse_percent(s, &pcnt))
		return -1;
	nth = strtol(slash + 1, &end, 10);
	if (*end || pcnt <= 0.0)
		return -1;
	return percent_range(pcnt * (double)(nth - 1), pcnt * (double)nth, first, last, r);
}

/* "0%-10%"; an empty piece is an empty range, as upstream has it */
static int percent_span(char *s, u64 first, u64 last, struct time_range *r)
{
	char *dash;
	double from, to;

	*r = (struct time_range){ 0 };
	if (!*s)
		return 0;
	dash = strchr(s, '-');
	if (!dash)
		return -1;
	*dash = '\0';
	if (parse_percent(s, &from) || parse_percent(dash + 1, &to))
		return -1;
	return percent_range(from, to, first, last, r);
}

/* "10%/1,10%/3", "0%-10%,30%-40%" or "10%" (the first slice of 10%) */
static int parse_percent_ranges(char *str, struct time_range *r, size_t size, u64 first,
				u64 last)
{
	int (*piece)(char *, u64, u64, struct time_range *);
	char *end = str + strlen(str), *p = str;
	size_t nr = 0;

	if (strchr(str, '/')) {
		piece = percent_slice;
	} else if (strchr(str, '-')) {
		piece = percent_span;
	} else {
		char one[64];

		/* the '%' must end it */
		if (end[-1] != '%' || strchr(str, '%') != end - 1 || (size_t)(end - str) + 3 > sizeof(one))
			return -1;
		snprintf(one, sizeof(one), "%s/1", str);
		return percent_slice(one, first, last, r) ? -1 : 1;
	}
	while (p < end) {
		char *comma = strchr(p, ',');

		if (nr >= size)
			return -1;
		if (comma)
			*comma = '\0';
		if (piece(p, first, last, &r[nr]))
			return -1;
		nr++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)nr;
}

static int sample_filter__setup_time(struct sample_filter *f, const struct perf_data *data,
				     struct perf_err *err)
{
	const struct perf_env *env = perf_data__env(data);
	u64 first = env ? env->first_sample_time : 0, last = env ? env->last_sample_time : 0;
	bool percent = strchr(f->time_str, '%');
	size_t size = 1;
	char *copy;
	int nr;

	if (percent && !first && !last)
		return perf_err__set(err, EINVAL,
				     "HINT: no first/last sample time found in perf data.\n"
				     "Please use latest perf binary to execute 'perf record'\n"
				     "(if '--buildid-all' is enabled, please set '--timestamp-boundary').");
	for (const char *c = f->time_str; *c; c++)
		size += *c == ',';
	f->ranges = calloc(size, sizeof(*f->ranges));
	copy = strdup(f->time_str);
	if (!f->ranges || !copy) {
		free(copy);
		return perf_err__set(err, ENOMEM, "out of memory");
	}
	nr = percent ? parse_percent_ranges(copy, f->ranges, size, first, last)
		     : parse_abs_ranges(copy, f->ranges, size);
	free(copy);
	if (nr < 0)
		return perf_err__set(err, EINVAL, "Invalid time string");
	f->nr_ranges = (size_t)nr;
	return 0;
}

int sample_filter__setup(struct sample_filter *f, struct perf_data *data,
			 enum sample_filter_fail *failed, struct perf_err *err)
{
	int ret = 0;

	*failed = SAMPLE_FILTER_FAIL_LIST;
	if (f->comm_str)
		ret = name_list__parse(&f->comms, f->comm_str, "comm", err);
	if (!ret && f->dso_str)
		ret = name_list__parse(&f->dsos, f->dso_str, "dso", err);
	if (!ret && f->sym_str)
		ret = name_list__parse(&f->syms, f->sym_str, "symbol", err);
	if (!ret && f->sym_str)
		ret = sample_filter__split_addrs(f);
	if (!ret && f->pid_str)
		ret = id_list__parse(&f->pids, f->pid_str, "pid", err);
	if (!ret && f->tid_str)
		ret = id_list__parse(&f->tids, f->tid_str, "tid", err);
	if (ret)
		return ret;
	if (f->cpu_str) {
		*failed = SAMPLE_FILTER_FAIL_CPU;
		ret = sample_filter__setup_cpus(f, data, err);
		if (ret)
			return ret;
	}
	if (f->time_str && *f->time_str) {
		*failed = SAMPLE_FILTER_FAIL_TIME;
		ret = sample_filter__setup_time(f, data, err);
	}
	return ret;
}

static bool range__has(const struct time_range *r, u64 time)
{
	return time >= r->start && (time <= r->end || !r->end);
}

bool sample_filter__drops_cpu(const struct sample_filter *f, u32 cpu)
{
	return f->cpus && cpu != (u32)-1 &&
	       (cpu >= f->nr_cpus || !(f->cpus[cpu / 64] & (1ULL << (cpu % 64))));
}

bool sample_filter__drops(const struct sample_filter *f, u32 cpu, u64 time)
{
	if (sample_filter__drops_cpu(f, cpu))
		return true;
	/* samples without a time are never dropped by --time */
	if (!f->nr_ranges || !time)
		return false;
	for (size_t i = 0; i < f->nr_ranges; i++)
		if (range__has(&f->ranges[i], time))
			return false;
	return true;
}

bool sample_filter__has_hide(const struct sample_filter *f)
{
	return f->comm_str || f->dso_str || f->sym_str || f->pids.set || f->tids.set;
}

bool sample_filter__active(const struct sample_filter *f)
{
	return f->cpus || f->nr_ranges || f->time_str || sample_filter__has_hide(f);
}

bool sample_filter__hides(const struct sample_filter *f, const char *comm, s32 pid, s32 tid,
			  const struct dso *dso, const struct symbol *sym, u64 ip, bool has_map)
{
	if (f->comm_str && !name_list__has(&f->comms, comm))
		return true;
	if (f->pids.set && !id_list__has(&f->pids, pid))
		return true;
	if (f->tids.set && !id_list__has(&f->tids, tid))
		return true;
	if (f->dso_str && (!dso || !(name_list__has(&f->dsos, dso->short_name) ||
				     name_list__has(&f->dsos, dso->long_name))))
		return true;
	if (f->sym_str) {
		if (sym && name_list__has(&f->syms, sym->name))
			return false;
		for (size_t i = 0; has_map && i < f->nr_sym_addrs; i++)
			if (f->sym_addrs[i] == ip)
				return false;
		return true;
	}
	return false;
}

const char *name_list__single(const struct name_list *list, const char *str)
{
	return str && list->nr == 1 ? list->names[0] : NULL;
}

bool sample_filter__skips(const struct sample_filter *f, struct perf_session *session,
			  const struct perf_sample *sample)
{
	struct addr_location al = { 0 };
	struct thread *thread;

	if (sample_filter__drops(f, sample->cpu, sample->time))
		return true;
	if (!sample_filter__has_hide(f))
		return false;
	thread = perf_session__sample_thread(session, sample);
	if (!thread)
		return false;
	if (f->sym_str)
		machine__resolve(&session->machine, thread, (u8)sample->cpumode, sample->ip, &al);
	return sample_filter__hides(f, thread__comm_str(thread, sample->time), thread->pid,
				    thread->tid, al.map ? al.map->dso : NULL, al.sym, sample->ip,
				    al.map);
}
