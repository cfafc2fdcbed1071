/* SPDX-License-Identifier: GPL-2.0 */
/*
 * defer-convert.h - rewrite a real `perf record -g` (frame-pointer) recording into the form a
 * Linux >= 6.19 kernel writes with `--call-graph fp,defer`, so that real stacks exercise the
 * stitcher end to end: `perf script` of the output must print what it prints for the input.
 * For the tests and the benchmarks only (`perf test -w defer-convert`): not part of the
 * file-format library, whose public headers it uses.
 *
 * What the kernel would have done, per thread in time order:
 *  - kernel-mode samples in a row with the same user stack are one kernel entry: they share a
 *    cookie, their chains become [PERF_CONTEXT_KERNEL, kernel ips..., USER_DEFERRED, cookie];
 *  - a user-mode sample is an entry of its own: [USER_DEFERRED, cookie];
 *  - each entry's PERF_RECORD_CALLCHAIN_DEFERRED (cookie + the user ips) follows the entry's
 *    last sample, 1 ns later (never at or after the thread's next event), with the sample_id
 *    of the event that gets defer_output;
 *  - cookies are (odd per-CPU counter << 32) | (cpu + 1), as the kernel makes them.
 * The attrs with callchains get defer_callchain, the tracking event (or the first) also
 * defer_output. Samples without a user part (kernel threads) stay as they are.
 *
 * Flags perturb the records the way real recordings do:
 *  DROP      every fifth entry loses its record (its samples must come out unmerged);
 *  EARLY     in every third entry of two samples or more (not dropped) the record is written
 *            before the last sample (a sample taken after the unwind ran);
 *  DELAY     every fourth entry's record comes after the next record of another thread, when
 *            that still precedes the thread's own next event;
 *  EXPECTED  instead of the deferred form, write what `perf script` must show for it: the
 *            input, except that samples of entries whose record was dropped keep the
 *            deferred form (marker + cookie) and no record at all;
 *  EACH      every sample is an entry of its own, kernel-mode ones too: one record per
 *            sample, the most a deferred file can hold (the benchmark's worst case);
 *  PIPE, ZSTD, SWAP   the output layout (pipe mode, COMPRESSED2 records, other byte order).
 *
 * Input: a file or pipe recording in host byte order with PERF_SAMPLE_TIME; compressed input
 * is fine. SWAP refuses recordings with PERF_SAMPLE_RAW (-EOPNOTSUPP): a tracepoint payload
 * can only be swapped field by field from its format. Returns 0 or a negative errno with err
 * saying why.
 */
#ifndef PERF_TESTS_DEFER_CONVERT_H
#define PERF_TESTS_DEFER_CONVERT_H

#include <perf/error.h>

enum perf_defer_convert_flags {
	PERF_DEFER_CONVERT_DROP	= 1 << 0,
	PERF_DEFER_CONVERT_EARLY	= 1 << 1,
	PERF_DEFER_CONVERT_DELAY	= 1 << 2,
	PERF_DEFER_CONVERT_EXPECTED	= 1 << 3,
	PERF_DEFER_CONVERT_PIPE	= 1 << 4,
	PERF_DEFER_CONVERT_ZSTD	= 1 << 5,
	PERF_DEFER_CONVERT_SWAP	= 1 << 6,
	PERF_DEFER_CONVERT_EACH	= 1 << 7,
};

/* what a conversion did, for tests */
struct perf_defer_convert_stats {
	unsigned long	samples;	/* samples rewritten into the deferred form */
	unsigned long	entries;	/* kernel entries (cookies) */
	unsigned long	dropped, early, delayed;	/* entries */
	unsigned long	dropped_samples;	/* samples whose entry lost its record */
};

int perf_defer_convert(const char *in, const char *out, unsigned flags, struct perf_err *err);
int perf_defer_convert__stats(const char *in, const char *out, unsigned flags,
			 struct perf_defer_convert_stats *stats, struct perf_err *err);

#endif
