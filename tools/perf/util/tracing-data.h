/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing-data.h - tracepoints for a recording: name -> id from tracefs, and the
 * HEADER_TRACING_DATA blob perf writes so readers can print the fields of their samples.
 *
 * tracefs is /sys/kernel/tracing, else /sys/kernel/debug/tracing (or the root given). The blob,
 * in the host's order, laid out as perf's tracing-data writer does (version "0.6"):
 *   "\x17\x08\x44tracing" "0.6\0", endian byte (0 little, 1 big), sizeof(long), u32 page size
 *   "header_page\0" u64 size, events/header_page; "header_event\0" u64 size, events/header_event
 *   u32 nr of ftrace formats of the list (subsystem "ftrace"), each u64 size + format
 *   u32 nr of other subsystems of the list, each its name\0, u32 nr, each u64 size + format
 *   u32 size + /proc/kallsyms (0: perf leaves it empty, readers take kallsyms from the file)
 *   u32 size + printk_formats
 *   u64 size + saved_cmdlines
 * Readers: util/trace-event.c, perf 6.1 and 7.2.
 */
#ifndef PERF_UTIL_TRACING_DATA_H
#define PERF_UTIL_TRACING_DATA_H

#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

/*
 * The tracefs mount into buf (size bytes): root when given (tests), else the first of the
 * two places that has an events directory. -ENOENT with err saying where it looked.
 */
int tracefs__find(const char *root, char *buf, size_t size, struct perf_err *err);

/*
 * "subsys:name" -> the tracepoint's id (the attr config of PERF_TYPE_TRACEPOINT).
 * -EINVAL for a name without "subsys:", -ENOENT "unknown tracepoint 'x' (no TRACEFS/events/x/id)"
 * for one that does not exist; -EACCES and others with the path.
 */
int tracepoint__id(const char *tracefs, const char *name, u64 *id, struct perf_err *err);

/* the other way: "subsys:name" of the tracepoint with that id into buf; -ENOENT: none */
int tracepoint__name(const char *tracefs, u64 id, char *buf, size_t size);

/*
 * The blob for names[0..nr) ("subsys:name", duplicates allowed), malloc'd into *data (the
 * caller frees it), *size its length. Errors as tracepoint__id() for a bad name.
 */
int tracing_data__build(const char *tracefs, const char *const *names, size_t nr, void **data,
			size_t *size, struct perf_err *err);

#endif /* PERF_UTIL_TRACING_DATA_H */
