// SPDX-License-Identifier: GPL-2.0
/* -F and -m of perf record, as perf 6.1 reads them. See record-rate.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record-rate.h"

int record_rate__freq(const char *arg, u64 max, bool strict, u64 *freq, char *msg,
		      size_t size)
{
	unsigned long long v;
	char *end;

	msg[0] = '\0';
	if (!arg) {
		*freq = RECORD_DEFAULT_FREQ;
		if (max < RECORD_DEFAULT_FREQ) {
			snprintf(msg, size, "Lowering default frequency rate from %u to %llu.\nPlease consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
				 RECORD_DEFAULT_FREQ, (unsigned long long)max);
			*freq = max;
		}
		return 0;
	}
	if (!strcmp(arg, "max")) {
		snprintf(msg, size, "info: Using a maximum frequency rate of %llu Hz\n",
			 (unsigned long long)max);
		*freq = max;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || !v) {
		snprintf(msg, size, "-F '%s': the sampling frequency must be a positive number of Hz or 'max'",
			 arg);
		return -EINVAL;
	}
	*freq = v;
	if (v <= max)
		return 0;
	if (strict) {
		snprintf(msg, size, "-F %llu --strict-freq: Maximum frequency rate (%llu Hz) exceeded: use a lower -F or raise /proc/sys/kernel/perf_event_max_sample_rate",
			 v, (unsigned long long)max);
		return -EINVAL;
	}
	/* perf's words: scripts and users know them */
	snprintf(msg, size, "warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
		 "         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
		 "         The kernel will lower it when perf's interrupts take too long.\n"
		 "         Use --strict-freq to disable this throttling, refusing to record.\n",
		 (unsigned long long)max, v, (unsigned long long)max);
	*freq = max;
	return 0;
}

/* perf's short form of a size: divided by 1024 while more than 2047 is left, then B/K/M/G */
static void size__format(unsigned long long bytes, char *buf, size_t size)
{
	static const char units[] = "BKMGTPE";
	int i = 0;

	while (bytes / 1024 > 1 && units[i + 1]) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, size, "%llu%c", bytes, units[i]);
}

int record_rate__mmap_pages(const char *arg, size_t page_size, size_t *pages, char *msg,
			    size_t size)
{
	unsigned long long v, mul = 0, p;
	char *end, human[32];

	msg[0] = '\0';
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end != arg && end[0] && !end[1]) {
		switch (end[0]) {
		case 'B': mul = 1; break;
		case 'K': mul = 1ULL << 10; break;
		case 'M': mul = 1ULL << 20; break;
		case 'G': mul = 1ULL << 30; break;
		default: break;
		}
		if (mul)
			end++;
	}
	if (errno || end == arg || *end || arg[0] == '-' || arg[0] == '+' || arg[0] == ' ') {
		snprintf(msg, size, "-m '%s': the ring size must be a number of pages (128) or a size with B, K, M or G (512K)",
			 arg);
		return -EINVAL;
	}
	/* a size: whole pages, rounded up; a number of pages: as given */
	if (mul) {
		if (v > (~0ULL - page_size) / mul)
			goto out_big;
		p = (v * mul + page_size - 1) / page_size;
	} else {
		p = v;
	}
	if (p > RECORD_MAX_MMAP_PAGES)
		goto out_big;
	if (!p || (p & (p - 1))) {
		unsigned long long r = 1;

		/* as perf: up to the next power of two (-m 0 is one page) */
		while (r < p)
			r <<= 1;
		p = r;
		size__format(p * page_size, human, sizeof(human));
		snprintf(msg, size, "rounding mmap pages size to %s (%llu pages)\n", human, p);
	}
	*pages = (size_t)p;
	return 0;

out_big:
	snprintf(msg, size, "-m '%s': at most %u pages per ring", arg, RECORD_MAX_MMAP_PAGES);
	return -EINVAL;
}
