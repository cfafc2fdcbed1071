/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind.h - the report-side user-stack unwinder as a sample stage, after the deferred
 * stitcher: a sample with user registers and a user stack dump gets a new user callchain.
 *
 * Modes (perf script / perf report --unwind=):
 *   auto   the file decides, per attr: exclude_callchain_user == 0 (the kernel's user FP
 *          chain is in the callchain: a fallback recording of ours) -> fp; == 1 (perf's
 *          --call-graph dwarf) -> dwarf. Samples without regs + stack: as recorded.
 *   fp     the frame walk (unwind-walk.h) over the dump, with the top frame repaired: its
 *          rule comes from the DSO's CFI (unwind-dwarf.h) if any, else from decoding the
 *          function's instructions up to the ip (unwind-insn.h), else the FP rule; callers'
 *          frames use their CFI row, else the FP rule. Where the dump ends before the
 *          outermost frame, the kernel's inline user chain (if the sample has one) goes on
 *          from the matching return address.
 *   dwarf  a full CFI unwinding of the dump (unwind_dwarf__walk()); a sample it cannot
 *          start on (a compat process) gets the fp walk.
 * Both go through the one validated step (unwind-step.h) over the dump, read in the file's
 * byte order and never past the dump's own size, whatever dyn_size says.
 *   none   nothing: the callchains as recorded (no stage at all).
 *
 * The chain it makes: the sample's words up to and including its last user context
 * marker (PERF_CONTEXT_USER, or USER_DEFERRED of a stitched chain; PERF_CONTEXT_USER is
 * appended when there is none), then the unwound user frames; sample->callchain_origin
 * says per word where it came from (enum frame_origin). Both live in the stage's memory
 * until the emit returns. Unstitched deferred samples, samples of a compat process with an
 * ABI we do not know, samples without PERF_SAMPLE_CALLCHAIN and every sample of a file of
 * another architecture (HEADER_ARCH, or a user register mask x86 cannot have: counted,
 * one warning at the end) pass unchanged.
 *
 * Statistics (fprintf_stats, full: perf script --unwind-stats): samples unwound per mode,
 * the top frame's rule, the samples whose caller was repaired (by rule), why walks ended
 * (enum unwind_stop, per mode; the 510-frame cap too), how many were joined with the
 * kernel's chain and how many ended early.
 */
#ifndef PERF_UTIL_UNWIND_H
#define PERF_UTIL_UNWIND_H

#include <stdbool.h>

struct sample_stage;
struct sample_stage_env;

enum unwind_mode {
	UNWIND_MODE_NONE,	/* 0: options that do not say unwind nothing */
	UNWIND_MODE_AUTO,
	UNWIND_MODE_FP,
	UNWIND_MODE_DWARF,
	/*
	 * perf inject without --convert-callchain: fp for our repair data (auto's fp files),
	 * --call-graph dwarf samples pass as recorded. Not an --unwind value.
	 */
	UNWIND_MODE_REPAIR,
	UNWIND_MODE_NR,
};

/*
 * --unwind=name: "auto", "fp", "dwarf", "none", or NULL (the option not given: auto).
 * 0, or -EINVAL for an unknown name (the command says so).
 */
int unwind_mode__parse(const char *name, enum unwind_mode *mode);

#define UNWIND_OPT_HELP	"auto|fp|dwarf|none"

/*
 * --unwind-style, upstream's choice of DWARF unwinder: "libdw" is what this perf does
 * always (its unwinder reads libdw's CFI), "libunwind" is refused. Value unused.
 */
struct option;
int unwind__opt_style(const struct option *opt, const char *arg, bool unset);
#define OPT_UNWIND_STYLE() \
	OPT_CALLBACK(0, "unwind-style", NULL, "unwind style", "unwind styles (libdw,libunwind)", \
		     unwind__opt_style)

/*
 * mode is not UNWIND_MODE_NONE. Threads and maps are env->machine's; --symfs and debug
 * files from env->symbol_conf. NULL when out of memory.
 */
struct sample_stage *unwind_stage__new(const struct sample_stage_env *env, enum unwind_mode mode);

#endif
