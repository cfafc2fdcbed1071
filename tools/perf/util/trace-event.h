/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-event.h - tracepoint formats from a perf.data file's tracing data, and the text
 * upstream `perf script` prints for a tracepoint sample's raw data (its "trace" field).
 *
 * The tracing data blob (HEADER_TRACING_DATA: feature section in file mode, the bytes after
 * the PERF_RECORD_HEADER_TRACING_DATA record in pipe mode) is laid out as:
 *
 *   "\027\010\104tracing"  version "0.6\0"  endian u8  long_size u8  page_size u32
 *   "header_page\0"  u64 size  text        (ring-buffer page header; gives the kernel's long)
 *   "header_event\0" u64 size  text        (skipped)
 *   u32 nr_ftrace   { u64 size  format }    (system "ftrace")
 *   u32 nr_systems  { name\0  u32 nr  { u64 size  format } }
 *   u32 size  kallsyms                      (skipped: addresses resolve via the resolver)
 *   u32 size  printk formats                ("addr : \"string\"" lines)
 *   u64 size  saved cmdlines                (only when version >= 0.6; "pid comm" lines)
 *
 * every number in the blob's own byte order (the endian byte: 1 = big endian).
 *
 * Invariants after trace_event__new() succeeds: every format the blob holds is loaded into a
 * libtraceevent handle, every event has the same common_type field, and every field of every
 * event lies inside the first 64 KiB of a record (a dynamic field's location word is 2 or 4
 * bytes). The blob is untrusted: each read of it is bounds-checked; format text is checked
 * before libtraceevent parses it (text only, whole field lines, bounded nesting, no
 * REC->field that is not a field, no "/" or "%" by a constant 0: each of those makes
 * libtraceevent crash); each sample's raw data is checked against its event's format (static
 * fields, dynamic field locations, array indexes and counts, divisors) before libtraceevent
 * prints it. A corrupt blob or sample gives an error, not an out-of-bounds read or a trap.
 *
 * The text is libtraceevent's, printed as upstream perf script prints it: no plugins (the
 * reference upstream 7.2 has none installed), the print fmt of the event. libtraceevent 1.7
 * differs from the 1.9 the reference links in a few print fmts: sizeof() and %c are not
 * understood (dma:*, tcp:tcp_hash_* print "[FAILED TO PARSE]" or ">c<"), and a tab inside a
 * print fmt string, which 1.7 cannot parse, is handed to it as "\t".
 *
 * A struct trace_event is not thread-safe (it keeps one output and one scratch buffer).
 */
#ifndef PERF_UTIL_TRACE_EVENT_H
#define PERF_UTIL_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct trace_event;
struct tep_handle;

/*
 * Parses the blob (not kept: the trace_event copies what it needs). Returns NULL with err
 * (may be NULL) naming the offset inside the tracing data and what was wrong.
 */
struct trace_event *trace_event__new(const void *tracing_data, size_t size, struct perf_err *err);
/* te may be NULL */
void trace_event__delete(struct trace_event *te);

/*
 * Kernel symbol lookup for %pS/%ps and function fields in print fmts, as upstream perf script
 * registers machine__resolve_kernel_addr: return the name of the symbol containing *addrp
 * and set *addrp to the symbol's start and *modp to its module name (or NULL), or return
 * NULL when nothing covers the address (the address is then printed in hex). The strings
 * must stay valid while te is used; fn may be NULL to clear. priv is passed through.
 * Returns 0 or -ENOMEM.
 */
typedef char *(*trace_event__resolver_t)(void *priv, unsigned long long *addrp, char **modp);
int trace_event__set_resolver(struct trace_event *te, trace_event__resolver_t fn, void *priv);

/*
 * "sys:name" (e.g. "sched:sched_switch") of the event whose id is config (a tracepoint
 * attr's config) written into buf; returns buf, or NULL when the tracing data has no such
 * event or buf is too small.
 */
const char *trace_event__name(struct trace_event *te, u64 config, char *buf, size_t len);

/*
 * The text upstream perf script prints for the raw data of a PERF_SAMPLE_RAW sample of the
 * event config (what follows "sched:sched_switch: "), without a trailing newline.
 *
 * raw is the sample's raw data as recorded (file byte order, any alignment), raw_size its
 * size; cpu the sample's cpu. Like upstream, the event that prints is the one named by the
 * common_type inside the raw data (it is config's in any sane file).
 *
 * Writes at most len - 1 bytes plus a NUL into buf (buf may be NULL when len is 0) and
 * returns the length of the whole text, as snprintf does: a result >= len means buf was too
 * small. Returns -ENOENT when the tracing data has no format for config (upstream prints
 * nothing then), -EINVAL with err (may be NULL) set when the raw data does not fit its
 * format, -ENOMEM.
 */
int trace_event__format(struct trace_event *te, u64 config, const void *raw, u32 raw_size,
			int cpu, char *buf, size_t len, struct perf_err *err);

/* what the header of the blob said, after header_page adjusted the long size */
bool trace_event__file_bigendian(const struct trace_event *te);
int trace_event__long_size(const struct trace_event *te);

/*
 * The libtraceevent handle, borrowed (owned by te) for callers that need field access.
 * Raw data handed to libtraceevent directly gets none of the checks above.
 */
struct tep_handle *trace_event__tep(struct trace_event *te);

#endif /* PERF_UTIL_TRACE_EVENT_H */
