/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture-unwind.h - fallback-like recordings for the unwinder's tests, made from a real
 * `perf record --call-graph dwarf` recording (user regs + a big stack dump per sample).
 *
 * What our fallback recording (record issue: `-g` + user regs + a small dump on kernels that
 * cannot defer) would have written for the same samples:
 *  - the kernel's inline user FP chain: PERF_CONTEXT_USER, the ip, then [fp + 8] and
 *    fp = [fp] while fp points into the full dump: the kernel's rule with its blind spots
 *    (no caller in prologues, epilogues and frameless code), appended to the sample's
 *    kernel chain; at most 127 user entries, the kernel's default perf_event_max_stack;
 *  - the dump cut to dump_size bytes (dyn_size too);
 *  - user regs ip, sp and bp only; exclude_callchain_user cleared in the attrs.
 * Other records are copied. Input: host byte order, file or pipe; output: a file.
 */
#ifndef PERF_TESTS_FIXTURE_UNWIND_H
#define PERF_TESTS_FIXTURE_UNWIND_H

#include <stdbool.h>
#include <perf/error.h>
#include "../util/tool.h"

struct unwind_convert_stats {
	unsigned long	samples;	/* samples rewritten */
	unsigned long	user_frames;	/* user entries of the kernel chains made */
};

/* dump_size: a multiple of 8; 0 or a negative errno with err saying why */
int unwind_fixture__convert(const char *in, const char *out, unsigned int dump_size,
			    struct unwind_convert_stats *stats, struct perf_err *err);

/*
 * What the unwinder stage's tests see: the callchain (and per-word origins) of each of the
 * first UNWIND_GOT_SAMPLES samples a session delivers to the tool. Embed the tool first and
 * set tool.sample to unwind_got__sample; a sample past those, or a longer chain, is -E2BIG.
 */
#define UNWIND_GOT_SAMPLES	3
#define UNWIND_GOT_WORDS	520	/* the marker, 510 frames and a margin */

struct unwind_got {
	u64			words[UNWIND_GOT_SAMPLES][UNWIND_GOT_WORDS];
	u8			origins[UNWIND_GOT_SAMPLES][UNWIND_GOT_WORDS];
	u32			nr[UNWIND_GOT_SAMPLES];
	bool			has_origins[UNWIND_GOT_SAMPLES];
	u32			samples;
	struct perf_evattr	*evattr;	/* the last sample's, borrowed from the session */
};

struct unwind_got_tool {
	struct perf_tool	tool;		/* first */
	struct unwind_got	got;
};

int unwind_got__sample(const struct perf_tool *tool, struct perf_session *session,
		       const struct perf_event_header *event, struct perf_sample *sample,
		       struct perf_evattr *evattr);

#endif
