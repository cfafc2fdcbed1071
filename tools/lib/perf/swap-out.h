/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swap-out.h - host order to the other byte order, for the writer (writer.c) and the
 * synthesizers (synthesize.c). Not part of the library's API. Each function works in place on
 * a record the caller owns, whose header is still in host order (the header itself is
 * swapped last, by perf_header__swap_out).
 */
#ifndef PERF_SWAP_OUT_H
#define PERF_SWAP_OUT_H

#include <perf/data.h>

void perf_header__swap_out(struct perf_event_header *h);
/*
 * The sample_id trailer (the last trailer_size bytes of h, laid out by attr) in either
 * direction; the caller checked it fits.
 */
void perf_trailer__swap(const struct perf_event_attr *attr, struct perf_event_header *h,
			u16 trailer_size);
/*
 * The body of a non-sample record, the trailer_size bytes at its end excluded. -EOPNOTSUPP
 * for a type whose layout is not known here, -EINVAL for a body too short for its fields.
 */
int perf_record__swap_body_out(struct perf_event_header *h, u16 trailer_size);

#endif
