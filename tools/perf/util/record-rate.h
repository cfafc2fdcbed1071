/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-rate.h - how fast and how much perf record asks the kernel for: -F against
 * kernel.perf_event_max_sample_rate, and -m's ring size, with perf 6.1's rules and words.
 *
 * -F: a positive number of Hz or "max". Above the limit, perf lowers it to the limit with a
 * warning (--strict-freq: an error instead); perf's default 4000 Hz above the limit (the
 * kernel lowers the limit when sampling interrupts take too long) is lowered with a note.
 * -m: a number of pages, or a size with B, K, M or G (perf's upper-case tags); perf rounds it
 * up to a power of two of pages (the kernel maps no other ring size) and says so.
 *
 * Pure functions: the limit and the page size come from the caller. The messages go into
 * msg (one line for an error, perf's lines for a warning or note; "" when none is due).
 */
#ifndef PERF_UTIL_RECORD_RATE_H
#define PERF_UTIL_RECORD_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>

/* perf's default sampling frequency */
#define RECORD_DEFAULT_FREQ	4000
/* the ring size we accept at most: 1 Mi pages (4 GiB of 4 KiB pages) per ring */
#define RECORD_MAX_MMAP_PAGES	(1u << 20)

/*
 * The frequency to sample at. arg: -F's value, NULL when not given; max: the sysctl's
 * value; strict: --strict-freq. 0 with *freq (msg: a warning to print, or ""), or -EINVAL
 * with msg the error.
 */
int record_rate__freq(const char *arg, u64 max, bool strict, u64 *freq, char *msg,
		      size_t size);
/*
 * -m's value into *pages, a power of two; msg: perf's "rounding mmap pages size to ..."
 * line when it was rounded up, or "". -EINVAL with msg the error.
 */
int record_rate__mmap_pages(const char *arg, size_t page_size, size_t *pages, char *msg,
			    size_t size);

#endif
