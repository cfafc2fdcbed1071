// SPDX-License-Identifier: GPL-2.0
/* CPU lists in perf's syntax. See cpu-list.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cpu-list.h"

/* what may follow a number: the end, the next entry, or (after a range's first) its dash */
static bool cpu_list__sep(char c, bool range_first)
{
	return c == '\0' || c == ',' || c == '\n' || (range_first && c == '-');
}

static int cpu_list__number(const char *s, char **end, bool range_first, const char *spec,
			    unsigned long *v, struct perf_err *err)
{
	errno = 0;
	*v = strtoul(s, end, 0);
	if (*end == s || !isdigit((unsigned char)*s))
		return perf_err__set(err, EINVAL, "'%s': a number expected at '%s'", spec, s);
	if (errno || *v > CPU_LIST_MAX)
		return perf_err__set(err, EINVAL, "'%s': CPU %.*s is out of range (at most %u)",
				     spec, (int)(*end - s), s, CPU_LIST_MAX);
	if (!cpu_list__sep(**end, range_first))
		return perf_err__set(err, EINVAL, "'%s': unexpected '%c' after %.*s", spec, **end,
				     (int)(*end - s), s);
	return 0;
}

static int u32__cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

int cpu_list__cpus(const char *spec, u32 **cpus, size_t *nr, struct perf_err *err)
{
	const char *s = spec;
	u32 *v = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	*cpus = NULL;
	*nr = 0;
	if (!isdigit((unsigned char)*s)) {
		ret = perf_err__set(err, EINVAL, "'%s': not a CPU list (e.g. 0-3,5)", spec);
		goto out_free;
	}
	while (isdigit((unsigned char)*s)) {
		unsigned long first, last;
		char *end;

		ret = cpu_list__number(s, &end, true, spec, &first, err);
		if (ret)
			goto out_free;
		last = first;
		if (*end == '-' && cpu_list__sep(end[1], false)) {
			end++;		/* perf's strtoul reads "0-" as 0-0 */
			last = 0;
		} else if (*end == '-') {
			ret = cpu_list__number(end + 1, &end, false, spec, &last, err);
			if (ret)
				goto out_free;
		}
		if (last < first) {
			ret = perf_err__set(err, EINVAL,
					    "'%s': a range that goes down (ranges are low-high, e.g. 0-3)",
					    spec);
			goto out_free;
		}
		for (unsigned long c = first; c <= last; c++) {
			if (n == cap) {
				u32 *nv;

				cap = cap ? cap * 2 : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					ret = perf_err__set(err, ENOMEM, "out of memory");
					goto out_free;
				}
				v = nv;
			}
			v[n++] = (u32)c;
		}
		s = *end ? end + 1 : end;
	}
	qsort(v, n, sizeof(*v), u32__cmp);
	for (size_t i = 1; i < n; i++) {
		if (v[i] == v[i - 1]) {
			ret = perf_err__set(err, EINVAL, "'%s': CPU %u named twice", spec, v[i]);
			goto out_free;
		}
	}
	*cpus = v;
	*nr = n;
	return 0;

out_free:
	free(v);
	return ret;
}

int cpu_list__parse(const char *list, u32 *max_plus_one, u32 *count)
{
	struct perf_err err;
	size_t nr = 0;
	u32 *cpus = NULL;
	int ret = 0;

	/* sysfs writes an empty line for an empty set (a node without CPUs) */
	if (list[0] && list[0] != '\n')
		ret = cpu_list__cpus(list, &cpus, &nr, &err);
	if (ret)
		return ret;
	if (max_plus_one)
		*max_plus_one = nr ? cpus[nr - 1] + 1 : 0;
	if (count)
		*count = (u32)nr;
	free(cpus);
	return 0;
}

bool cpu_list__has(const char *list, u32 n)
{
	struct perf_err err;
	bool has = false;
	size_t nr;
	u32 *cpus;

	if (cpu_list__cpus(list, &cpus, &nr, &err))
		return false;
	has = bsearch(&n, cpus, nr, sizeof(*cpus), u32__cmp) != NULL;
	free(cpus);
	return has;
}
