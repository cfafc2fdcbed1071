/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject-buildid.h - perf inject -b / --buildid-all: the build ids of the DSOs the samples
 * hit (the sample's ip and every callchain frame), or of every DSO a map names, added to
 * the output's build-id table (file) or as HEADER_BUILD_ID records at the end (pipe).
 *
 * A DSO whose file name the input's table has already is not added again; the id is the
 * one the recording gave the DSO (an MMAP2 build id), else the file's own (under --symfs).
 * A DSO without either (anonymous memory, a file gone) is left out, as upstream does.
 *
 * Ownership: the set holds a reference on each DSO it marked until it is deleted. Errors:
 * 0 or a negative errno, the session's tool error saying why.
 */
#ifndef PERF_UTIL_INJECT_BUILDID_H
#define PERF_UTIL_INJECT_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>
#include <perf/event.h>

struct inject_buildids;
struct machine;
struct perf_env;
struct perf_session;
struct perf_writer;
struct symbol_conf;

/* all: --buildid-all. conf (may be NULL) is borrowed: --symfs. NULL when out of memory */
struct inject_buildids *inject_buildids__new(bool all, const struct symbol_conf *conf);
/* accepts NULL */
void inject_buildids__delete(struct inject_buildids *b);
/* the input's table, which the output copies: its file names are not added again */
int inject_buildids__start(struct inject_buildids *b, const struct perf_env *env,
			   struct perf_err *err);
/* marks the DSOs of the sample's ip and callchain (-b only; --buildid-all needs nothing) */
int inject_buildids__sample(struct inject_buildids *b, struct perf_session *session,
			    const struct perf_sample *sample);
/* a HEADER_BUILD_ID record of a pipe input after the output began: passed on. b may be NULL */
int inject_buildids__record(struct inject_buildids *b, struct perf_writer *w,
			    struct perf_session *session, const struct perf_event_header *event);
/* adds the ids of the DSOs marked (or of all of the machine's) to w */
int inject_buildids__finish(struct inject_buildids *b, struct perf_writer *w,
			    struct machine *machine, struct perf_err *err);
/* dso's build id: the recorded one, else its file's (under conf's --symfs); -ENOENT: none */
struct dso;
int inject_buildids__dso_id(const struct symbol_conf *conf, const struct dso *dso, u8 *id,
			    size_t *size);
/* ids added */
size_t inject_buildids__nr(const struct inject_buildids *b);

#endif
