// SPDX-License-Identifier: GPL-2.0
/* --mmap-flush, --affinity, -r of perf record. See record-opts.h. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "parse-options.h"
#include "record-opts.h"
#include "units.h"

int record_opts__mmap_flush(const struct option *opt, const char *arg, bool unset)
{
	u64 *flush = opt->value;

	*flush = 0;
	if (unset)
		return 0;
	if (units__parse_size_or_bytes(arg, flush))
		return parse_options__error(opt, false,
					    "'%s': expected a number of bytes or a size with B, K, M or G (e.g. 48K)",
					    arg);
	return 0;
}

/* perf's two modes; anything else is a typo, which perf would silently take for its default */
int record_opts__affinity(const struct option *opt, const char *arg, bool unset)
{
	const char **mode = opt->value;

	*mode = NULL;
	if (unset)
		return 0;
	if (strcmp(arg, "node") && strcmp(arg, "cpu"))
		return parse_options__error(opt, false, "'%s': expected node or cpu", arg);
	*mode = arg;
	return 0;
}

u64 record_opts__flush_min(u64 flush, size_t pages, bool verbose)
{
	u64 max = (u64)pages * (u64)sysconf(_SC_PAGESIZE) / 4;

	if (flush <= max)
		return flush;
	if (verbose)
		fprintf(stderr, "perf record: --mmap-flush: %llu bytes, a quarter of the ring\n",
			(unsigned long long)max);
	return max;
}

int record_opts__check_realtime(int prio)
{
	int max = sched_get_priority_max(SCHED_FIFO);

	if (prio >= 0 && prio <= max)
		return 0;
	fprintf(stderr, "perf record: -r %d: a SCHED_FIFO priority from 1 to %d\n", prio, max);
	return -EINVAL;
}

/* the reader must keep up with the rings; the workload (forked already) keeps its policy */
int record_opts__realtime(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	int e;

	if (!prio || !sched_setscheduler(0, SCHED_FIFO, &sp))
		return 0;
	e = errno;
	fprintf(stderr, "perf record: -r %d: cannot set SCHED_FIFO priority %d: %s\n", prio, prio,
		strerror(e));
	return -e;
}
