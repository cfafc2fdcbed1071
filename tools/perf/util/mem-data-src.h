/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem-data-src.h - a PERF_SAMPLE_DATA_SRC value (union perf_mem_data_src) in perf's words:
 *
 *   |OP <op>|LVL <level>|SNP <snoop>|TLB <tlb>|LCK <lock>|BLK <blocked>
 *
 * as upstream perf 7.2 decodes it. Owns the names of every part and how they are joined;
 * the line around the text (the raw value, perf script's width and cut) is the caller's.
 */
#ifndef PERF_UTIL_MEM_DATA_SRC_H
#define PERF_UTIL_MEM_DATA_SRC_H

#include <perf/abi.h>
#include "sbuf.h"

/* appends the decoding of data_src to sb, whole (however long) */
void mem_data_src__decode(struct sbuf *sb, u64 data_src);

#endif
