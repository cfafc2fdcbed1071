/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject-jit.h - perf inject -j: the jitdump a JIT runtime marked the recording with becomes
 * the MMAP2 records of its code, each mapping the ELF file jitdump.c wrote for it, so that
 * perf report and perf script name JIT'd functions as upstream's inject -j makes them do.
 *
 * The marker is the runtime's executable mapping of its jit-PID.dump: at that record the dump
 * is read (once per process), its mappings are written in its order with their own times in
 * their sample_id (a reader orders them by time), and the marker itself is dropped, as
 * upstream does. The dump's times are CLOCK_MONOTONIC, so the recording must have been made
 * with -k 1 (-k mono); inject_jit__check() says so before anything is written.
 */
#ifndef PERF_UTIL_INJECT_JIT_H
#define PERF_UTIL_INJECT_JIT_H

#include <perf/abi.h>
#include <perf/data.h>
#include <perf/error.h>

struct inject_jit;

struct inject_jit *inject_jit__new(void);
/* accepts NULL */
void inject_jit__delete(struct inject_jit *ij);

/* 0 when every attr of data samples CLOCK_MONOTONIC, else -EINVAL with err saying why */
int inject_jit__check(struct perf_data *data, struct perf_err *err);

/* one MMAP2 of JIT'd code (host order) and its sample_id as parsed, for the machine's maps too */
typedef int (*inject_jit_write_t)(void *arg, const struct perf_event_header *event,
				  struct perf_sample *id);

/*
 * event: an MMAP or MMAP2 record (host order), id its parsed sample_id, ea its attr (may be
 * NULL: no trailer). A marker of a dump not read yet: the dump's mappings go out through
 * write() and 1 is returned (drop the marker); another marker of the same process: 1; any
 * other record: 0. A negative errno with err when the dump cannot be read, or when check
 * (the recording, until a first marker passed it) fails inject_jit__check().
 */
int inject_jit__mmap(struct inject_jit *ij, const struct perf_event_header *event,
		     const struct perf_sample *id, const struct perf_evattr *ea,
		     struct perf_data *check, inject_jit_write_t write, void *arg,
		     struct perf_err *err);

/* how many dumps were read and mappings written, for -v */
void inject_jit__counts(const struct inject_jit *ij, u64 *dumps, u64 *maps);

#endif
