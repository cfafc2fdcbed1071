// SPDX-License-Identifier: GPL-2.0
/* perf record -D: the enable schedule. See record-delay.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "record-delay.h"

static int delay__ms(const char *s, char **end, u64 *ms)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*ms = strtoull(s, end, 10);
	return errno ? -EINVAL : 0;
}

int record_delay__parse(struct record_delay *d, const char *spec, struct perf_err *err)
{
	const char *p = spec;
	char *end;
	u64 ms;

	memset(d, 0, sizeof(*d));
	if (!strcmp(spec, "-1")) {
		d->set = d->forever = true;
		return 0;
	}
	if (!delay__ms(spec, &end, &ms) && !*end) {
		d->set = ms > 0;
		d->nr = d->set;
		d->range[0].start = ms;
		d->range[0].end = UINT64_MAX;
		return 0;
	}
	for (;;) {
		u64 a, b;

		if (delay__ms(p, &end, &a) || *end != '-' || delay__ms(end + 1, &end, &b) ||
		    (*end && *end != ','))
			return perf_err__set(err, EINVAL,
					     "'%s': expected milliseconds, -1, or ranges such as 10-20,30-40",
					     spec);
		if (b <= a || (d->nr && a < d->range[d->nr - 1].end))
			return perf_err__set(err, EINVAL,
					     "'%s': ranges must each end after they start, in order, without overlap",
					     spec);
		if (d->nr == RECORD_DELAY_MAX_RANGES)
			return perf_err__set(err, EINVAL, "'%s': more than %d ranges", spec,
					     RECORD_DELAY_MAX_RANGES);
		d->range[d->nr].start = a;
		d->range[d->nr].end = b;
		d->nr++;
		if (!*end)
			break;
		p = end + 1;
	}
	d->set = true;
	return 0;
}

void record_delay__at(const struct record_delay *d, u64 elapsed_ms, bool *enabled, bool *done,
		      u64 *next_ms)
{
	*enabled = false;
	*done = false;
	*next_ms = UINT64_MAX;
	if (!d->set)
		*enabled = true;
	if (!d->set || d->forever)
		return;
	for (u32 i = 0; i < d->nr; i++) {
		if (elapsed_ms < d->range[i].start) {
			*next_ms = d->range[i].start - elapsed_ms;
			return;
		}
		if (elapsed_ms < d->range[i].end) {
			*enabled = true;
			if (d->range[i].end != UINT64_MAX)
				*next_ms = d->range[i].end - elapsed_ms;
			return;
		}
	}
	*done = true;
}
