/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject.h - a recording rewritten into one that every reader understands, the engine of
 * perf inject: one session over the input (deferred stitching, the user-stack unwinder),
 * one writer for the output.
 *
 * What changes, per attr of the input (everything else passes as it came):
 *  - deferred callchains (defer_callchain): each sample the session stitched carries its
 *    full chain inline (kernel part, PERF_CONTEXT_USER, the user ips, repaired where the
 *    unwinder repairs); PERF_RECORD_CALLCHAIN_DEFERRED records are dropped and so are the
 *    defer bits of the attrs. A sample nothing stitched keeps its kernel part; its marker
 *    and cookie only with keep_deferred (which then keeps the attrs' defer bits too, so
 *    that a reader knows what the marker means).
 *  - repair data (callchain + user regs + stack dump, exclude_callchain_user clear: our
 *    fallback and --defer recordings): the repaired chain inline; the regs and the dump
 *    leave the samples and the attr (sample_type, sample_regs_user, sample_stack_user).
 *  - --call-graph dwarf (exclude_callchain_user set): with convert_callchain, the DWARF
 *    chain inline, the dumps dropped as above and exclude_callchain_user cleared (the
 *    chain has a user part now); without it, as recorded.
 *  - keep_stack: nothing is unwound; the samples keep their regs, dumps and the chain
 *    they had (stitched), for a reader that unwinds them itself. A chain repaired inline
 *    would be joined with the dump's walk a second time by such a reader. It excludes
 *    convert_callchain (the caller refuses both).
 *
 * Records are written in the order the session delivers them (time order; a stitched
 * sample when its deferred record came, as perf script prints it), without FINISHED_ROUND:
 * a stitched sample is older than the records around it, which a round would make "out of
 * order" for every reader. The header: attrs, the strings, nrcpus, cmdline, build ids and
 * tracing data from their parsed form; every other feature we know as its bytes when the
 * input is in host order (from the file's sections or a pipe's HEADER_FEATURE records),
 * dropped otherwise; AUXTRACE (file offsets of the input) and DIR_FORMAT never.
 * COMPRESSED input is written uncompressed unless zstd_level.
 */
#ifndef PERF_UTIL_INJECT_H
#define PERF_UTIL_INJECT_H

#include <stdbool.h>
#include <perf/abi.h>
#include <perf/error.h>

struct symbol_conf;

enum inject_build_ids {
	INJECT_BUILD_IDS_NONE,
	INJECT_BUILD_IDS_HIT,	/* -b: the DSOs a sample or its callchain hit */
	INJECT_BUILD_IDS_ALL,	/* --buildid-all: every DSO a map names */
};

struct inject_opts {
	const char		*input;		/* a file, or "-" for standard input */
	/*
	 * the file written (its final name is the caller's business: see builtin/inject.c),
	 * or "-": a pipe-mode stream on standard output
	 */
	const char		*output;
	const struct symbol_conf *symbol_conf;	/* --symfs for the unwinder and build ids */
	bool			keep_deferred;
	bool			keep_stack;
	bool			convert_callchain;
	/*
	 * -j: the jitdumps the recording's JIT runtimes marked it with become ELF files and
	 * their MMAP2 records (inject-jit.h); the recording must have CLOCK_MONOTONIC times
	 */
	bool			jit;
	enum inject_build_ids	build_ids;
	/* --mmap2-buildid-all: every file mapping's MMAP/MMAP2 as an MMAP2 with its build id */
	bool			mmap2_build_ids;
	/*
	 * -B/--mmap2-buildids: the maps of files dropped, each process's map a sample hits
	 * written before that sample as an MMAP2 with its build id (inject-lazy-mmaps.h)
	 */
	bool			lazy_mmaps;
	/* --aslr: every address moved to another layout (inject-aslr.h) */
	bool			aslr;
	int			zstd_level;	/* 0: uncompressed */
};

/* what was done, for -v */
struct inject_stats {
	u64	samples;		/* written */
	u64	stitched;		/* of them with a stitched user chain inline */
	u64	unstitched;		/* deferred samples nothing stitched */
	u64	unwound;		/* samples whose dump was unwound into their chain */
	u64	deferred_dropped;	/* PERF_RECORD_CALLCHAIN_DEFERRED records not written */
	u64	build_ids;		/* build ids added */
	u64	jit_dumps, jit_maps;	/* -j: jitdumps read, MMAP2 records of their code */
	u64	in_bytes, out_bytes;	/* the input's data section, the output's */
	u64	aslr_dropped;		/* --aslr: samples with physical addresses or dumps */
	u64	aslr_straddling;	/* --aslr: maps cut by the rotation */
};

/*
 * Reads opts->input to the end and writes opts->output. 0, or a negative errno with err
 * saying what and where (the input's file offset and record type for a corrupt input).
 * On failure the output file (not "-") is incomplete: the caller removes it. stats may be
 * NULL.
 */
int inject__run(const struct inject_opts *opts, struct inject_stats *stats,
		struct perf_err *err);

#endif
