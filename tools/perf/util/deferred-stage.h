/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deferred-stage.h - deferred callchain stitching (deferred.h) as the session's first sample
 * stage: session_opts.merge_deferred asks for it.
 *
 * It claims, before their parse, the samples whose callchain ends in the deferred marker +
 * cookie (a peek at tid and cookie; the full parse happens once, when the stitcher emits the
 * sample) and every PERF_RECORD_CALLCHAIN_DEFERRED; on the parsed path (-D) it takes the
 * same ones parsed. A held sample holds a reference on its thread, so tid reuse before its
 * record comes leaves it with the thread it was taken in. Errors of that late parse name the
 * sample's offset in env->err (the first failure stays); threads are env->machine's.
 */
#ifndef PERF_UTIL_DEFERRED_STAGE_H
#define PERF_UTIL_DEFERRED_STAGE_H

#include <stddef.h>

struct sample_stage;
struct sample_stage_env;

/* max_mem: the pending-sample cap (0: the default); NULL when out of memory */
struct sample_stage *deferred_stage__new(const struct sample_stage_env *env, size_t max_mem);

#endif
