/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-synth.h - the side-band perf record synthesizes at the start of a recording, for what
 * the kernel will not tell: the kernel map, the module maps, and the threads and executable
 * mappings of processes that were already running (-p, -t, -a).
 *
 * What is synthesized, as perf 6.x does it:
 *  - the kernel: PERF_RECORD_MMAP, pid -1 (perf's host kernel), misc KERNEL, filename
 *    "[kernel.kallsyms]_text", start = pgoff = the address of _text, len up to _etext, so
 *    readers relocate kallsyms of another boot by _text (KASLR);
 *  - each module of /proc/modules: PERF_RECORD_MMAP, pid -1, misc KERNEL, start = its load
 *    address, len = its size, pgoff 0, filename its .ko under /lib/modules/RELEASE when found,
 *    else "[name]";
 *  - each thread of a process: PERF_RECORD_COMM (pid = tgid, tid, its comm, misc 0), no FORK
 *    (readers give a thread its leader's maps by pid); then once per process, from
 *    /proc/PID/maps, a PERF_RECORD_MMAP2 for each executable mapping (and with data_maps each
 *    other one, misc MMAP_DATA): maj/min/ino from the line, or with build_ids the build id of
 *    the ELF file (misc PERF_RECORD_MISC_MMAP_BUILD_ID, as perf --buildid-mmap) when it can
 *    be read, prot/flags from the permissions, "//anon" for a nameless one, [vdso] and
 *    [vsyscall] by name ([vdso] with this process's own vDSO build id: the kernel maps the
 *    same image in every native process). Kernel threads get their COMM only.
 *  - with namespaces, a PERF_RECORD_NAMESPACES per thread (before its COMM for a process,
 *    after it for a thread named by -t, as perf orders them): the dev and inode of each of
 *    /proc/TID/ns/{net,uts,ipc,pid,user,mnt,cgroup}.
 * Every record ends in the sample_id trailer of attr (sample_id_all), made from id (NULL: all
 * zeros, which is what perf writes for synthesized records: time 0 sorts them first).
 *
 * Errors: 0 or a negative errno, with err saying what and where (a path). A process or
 * thread that is gone by the time it is read, or whose /proc files may not be read (EACCES),
 * is not an error for record_synth__all() (it is counted), but is one for
 * record_synth__process()/__thread(): the user named it.
 * The emit callback's non-zero return stops the synthesis and is returned as it is.
 *
 * Nothing here keeps a pointer past a call beyond those in struct record_synth, which the
 * caller owns and keeps alive while using it. No global state: two instances may run at once.
 */
#ifndef PERF_UTIL_RECORD_SYNTH_H
#define PERF_UTIL_RECORD_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <perf/abi.h>
#include <perf/error.h>
#include <perf/event.h>

/* one synthesized record, host order, valid during the call only */
typedef int (*record_emit_fn)(void *ctx, const struct perf_event_header *ev);

struct record_synth {
	const struct perf_event_attr *attr;	/* the first attr: its sample_id layout */
	const struct perf_sample *id;		/* the trailer's values; NULL: zeros (perf's) */
	record_emit_fn	emit;
	void		*ctx;			/* emit's */
	const char	*proc;			/* NULL: "/proc" (tests point it elsewhere) */
	const char	*sys;			/* NULL: "/sys" */
	bool		build_ids;		/* MMAP2 with the ELF's build id */
	bool		data_maps;		/* also the non-executable mappings (perf -d) */
	bool		namespaces;		/* a NAMESPACES record per thread (--namespaces) */
	bool		kernel_mmap2;		/* kernel and module maps as MMAP2 with build ids */
	bool		no_maps;		/* processes' COMMs only (--synth=task) */
};

/* what record_synth__all() did */
struct record_synth_stats {
	u32	processes, threads, mmaps;
	u32	vanished;	/* processes or threads gone before they could be read */
	u32	unreadable;	/* processes whose /proc files this user may not read */
};

/* the kernel map (needs _text and _etext in PROC/kallsyms) */
int record_synth__kernel(const struct record_synth *s, struct perf_err *err);
/* the module maps; no /proc/modules (a kernel without modules) is not an error */
int record_synth__modules(const struct record_synth *s, struct perf_err *err);
/* -p PID: every thread of pid's process, then its mappings */
int record_synth__process(const struct record_synth *s, pid_t pid, struct perf_err *err);
/* -t TID: that thread's COMM, then its process's mappings */
int record_synth__thread(const struct record_synth *s, pid_t tid, struct perf_err *err);
/* -a: every process of PROC, in pid order; stats may be NULL */
int record_synth__all(const struct record_synth *s, struct record_synth_stats *stats,
		      struct perf_err *err);

/* --namespaces with a workload: its NAMESPACES record (pid = tid = pid), as perf writes it */
int record_synth__namespaces(const struct record_synth *s, pid_t pid, struct perf_err *err);
/*
 * --all-cgroups: a PERF_RECORD_CGROUP (the kernel's id of the directory, its path from the
 * hierarchy's root, "/" for the root) for every cgroup of the hierarchy perf reads (cgroup
 * v1's with perf_event, else cgroup2's), parents first, as perf 6.1 does
 */
int record_synth__cgroups(const struct record_synth *s, struct perf_err *err);

/*
 * The BPF programs loaded already, as perf 6.1 synthesizes them: a KSYMBOL for each JIT
 * function ("bpf_prog_TAG_NAME"; "_F" for a program of several functions, whose BTF names
 * perf prints and we do not read), then a BPF_EVENT PROG_LOAD (id, tag). Listing them takes
 * CAP_SYS_ADMIN: -EPERM otherwise, with err saying so.
 */
int record_synth__bpf(const struct record_synth *s, struct perf_err *err);

/*
 * This process's own vDSO image (the ELF the kernel maps at AT_SYSINFO_EHDR), size set; NULL
 * when there is none or it is not a 64-bit ELF. The pointer is the mapping's: never freed.
 */
const void *vdso__image(size_t *size);
/* its build id (BUILD_ID_SIZE_MAX bytes at id); 0, -ENOENT when it has none, or -errno */
int vdso__build_id(u8 *id, size_t *size);

#endif /* PERF_UTIL_RECORD_SYNTH_H */
