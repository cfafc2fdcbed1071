/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read-stage.h - samples with read values (PERF_SAMPLE_READ, e.g. of a sampling group
 * -e '{a,b}:S') as perf delivers them: the session's last sample stage.
 *
 * A sample of an attr with PERF_SAMPLE_READ goes out once per read value (each member of a
 * PERF_FORMAT_GROUP read, or the one value), as a sample of the attr that value's id belongs
 * to, with that id and, as its period, the growth of the value since the previous sample
 * that read the same id (per thread too when the attr inherits: attr.inherit with TID).
 * A value that did not grow goes nowhere; a value of an id no attr lists (env->data's) is
 * counted in env->nr_unknown_id and dropped. Samples of other attrs pass unchanged. The
 * stage owns the previous values.
 */
#ifndef PERF_UTIL_READ_STAGE_H
#define PERF_UTIL_READ_STAGE_H

struct sample_stage;
struct sample_stage_env;

/* NULL when out of memory */
struct sample_stage *read_stage__new(const struct sample_stage_env *env);

#endif
