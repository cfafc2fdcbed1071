/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-features.h - the header features perf record writes about the machine it runs on,
 * read from /proc and /sys and set on a struct perf_writer, as perf 6.1/7.2 fill them:
 *   hostname, osrelease (uname), version (opts), arch (uname machine), nrcpus (possible and
 *   online), cpudesc ("model name" of /proc/cpuinfo, blanks squeezed), cpuid (x86:
 *   "Vendor,family,model,stepping"), total_mem (MemTotal, kB), cmdline (opts), cpu_topology,
 *   numa_topology, pmu_mappings, cache, mem_topology, clockid + clock_data when
 *   opts->use_clockid (perf -k), bpf_prog_info and bpf_btf (empty: no BPF information is
 *   collected), pmu_caps (the caps/ files of every pmu under SYS/bus/event_source/devices but
 *   "cpu"; a count of 0 when none has them) and cpu_pmu_caps (the "cpu" pmu's, when it has any).
 * event_desc and compressed are the writer's own; build_id comes from build-id-list.h; the
 * sample time is known at the end (perf_writer__set_sample_time()).
 *
 * A feature whose source this machine lacks (no NUMA node directory, no cache info, a cpuid
 * format for another arch) is left out, as perf leaves it out; one whose source exists but
 * cannot be parsed is an error naming the file. 0 or a negative errno with err.
 */
#ifndef PERF_UTIL_RECORD_FEATURES_H
#define PERF_UTIL_RECORD_FEATURES_H

#include <stdbool.h>
#include <perf/error.h>

struct perf_writer;

struct record_features_opts {
	const char		*version;	/* "perf version" string, e.g. "6.1.0" */
	/*
	 * cmdline: the arguments after "perf" ("record", "-g", ...; NULL: no cmdline). perf
	 * writes its executable's path (/proc/self/exe) before them, and so does this.
	 */
	int			argc;
	const char *const	*argv;
	bool			use_clockid;	/* -k: write clockid and clock_data */
	int			clockid;	/* with use_clockid */
	const char		*proc;		/* NULL: "/proc" */
	const char		*sys;		/* NULL: "/sys" */
};

/* every feature above that this machine has, set on w (before its first record) */
int record_features__fill(struct perf_writer *w, const struct record_features_opts *opts,
			  struct perf_err *err);

#endif /* PERF_UTIL_RECORD_FEATURES_H */
