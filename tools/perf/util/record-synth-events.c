// SPDX-License-Identifier: GPL-2.0
/*
 * record-synth-events.c - ID_INDEX, EVENT_UPDATE, THREAD_MAP and CPU_MAP of a recording
 * (record-synth-events.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include <perf/synthesize.h>
#include "record-synth-events.h"

#define MAX_RECORD	65535u	/* header.size is a u16 */

/* PERF_RECORD_EVENT_UPDATE types */
#define EVENT_UPDATE__UNIT	0
#define EVENT_UPDATE__SCALE	1
#define EVENT_UPDATE__NAME	2

static size_t align8(size_t n)
{
	return (n + 7) / 8 * 8;
}

/* the position of cpu in the cpu map: perf's idx of an id; 0 for "any cpu" */
static u64 cpu_map__idx(const struct record_synth_events *e, int cpu)
{
	for (size_t i = 0; e->cpus && i < e->nr_cpus; i++)
		if (e->cpus[i] == cpu)
			return i;
	return 0;
}

int record_synth__id_index(const struct record_synth_events *e, struct perf_err *err)
{
	const size_t max_nr = (MAX_RECORD - sizeof(struct perf_record_id_index)) /
			      sizeof(struct perf_id_index_entry);
	struct perf_record_id_index *rec;
	size_t total = 0, nr = 0;
	int ret = 0;

	for (size_t i = 0; i < e->nr_attrs; i++) {
		if (e->attrs[i].nr_ids != e->nr_slots && !e->slot_ids)
			return perf_err__set(err, EINVAL, "event %zu has %zu ids for %zu slots",
					     i, e->attrs[i].nr_ids, e->nr_slots);
		total += e->attrs[i].nr_ids;
	}
	if (!total)
		return 0;
	rec = malloc(sizeof(*rec) + (total < max_nr ? total : max_nr) * sizeof(rec->entries[0]));
	if (!rec)
		return perf_err__set(err, ENOMEM, "out of memory");
	/* attr-major, each attr's ids in slot order, as perf lists them */
	for (size_t i = 0; i < e->nr_attrs && !ret; i++) {
		size_t k = 0;	/* the slot */

		for (size_t n = 0; n < e->attrs[i].nr_ids && !ret; n++, k++) {
			struct perf_id_index_entry *x = &rec->entries[nr++];
			const struct evlist_slot *sl;

			while (e->slot_ids && k < e->nr_slots && !e->slot_ids[k * e->nr_attrs + i])
				k++;	/* not opened there */
			if (k >= e->nr_slots) {
				ret = perf_err__set(err, EINVAL, "event %zu has %zu ids for fewer slots",
						    i, e->attrs[i].nr_ids);
				break;
			}
			sl = &e->slots[k];
			x->id = e->slot_ids ? e->slot_ids[k * e->nr_attrs + i] : e->attrs[i].ids[n];
			x->idx = e->slot_ids ? n : cpu_map__idx(e, sl->cpu);
			x->cpu = (u64)(s64)sl->cpu;
			x->tid = (u64)(s64)sl->pid;
			/* out when the record is full, or at the last entry */
			if (--total && nr < max_nr)
				continue;
			rec->header = (struct perf_event_header){
				.type = PERF_RECORD_ID_INDEX,
				.size = (u16)(sizeof(*rec) + nr * sizeof(rec->entries[0])),
			};
			rec->nr = nr;
			ret = e->emit(e->ctx, &rec->header);
			nr = 0;
		}
	}
	free(rec);
	return ret;
}

/* the kernel's software event numbers of the two clocks */
#define SW_CPU_CLOCK	0
#define SW_TASK_CLOCK	1

/* cpu-clock and task-clock count nanoseconds, which perf shows as msec */
static bool attr__is_clock(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == SW_CPU_CLOCK || attr->config == SW_TASK_CLOCK);
}

/*
 * One EVENT_UPDATE: type, id, then the body. perf sizes the record as its struct, whose union
 * is 16 bytes, plus the padded body again: 48 bytes for "msec" and for a scale (a double).
 * Readers stop at the string's NUL or read one double, so the zeros after are never read.
 */
static int event_update__emit(const struct record_synth_events *e, u64 type, u64 id,
			      const void *body, size_t len)
{
	u64 buf[(24 + 16 + 256) / 8] = { 0 };
	struct perf_record_event_update *rec = (struct perf_record_event_update *)buf;
	size_t size = sizeof(*rec) + 16 + align8(len);

	if (size > sizeof(buf))
		return -E2BIG;

	rec->header = (struct perf_event_header){ .type = PERF_RECORD_EVENT_UPDATE, .size = (u16)size };
	rec->type = type;
	rec->id = id;
	memcpy(rec->data, body, len);
	return e->emit(e->ctx, &rec->header);
}

int record_synth__event_updates(const struct record_synth_events *e, struct perf_err *err)
{
	static const char unit[] = "msec";
	const double scale = 1e-6;	/* ns to msec */
	int ret = 0;

	for (size_t i = 0; i < e->nr_attrs && !ret; i++) {
		const struct perf_evattr *ea = &e->attrs[i];

		if (!ea->nr_ids)
			continue;	/* nothing to key the update by */
		if (attr__is_clock(&ea->attr) && !(e->no_unit && e->no_unit[i])) {
			ret = event_update__emit(e, EVENT_UPDATE__UNIT, ea->ids[0], unit, sizeof(unit));
			if (!ret)
				ret = event_update__emit(e, EVENT_UPDATE__SCALE, ea->ids[0], &scale,
							 sizeof(scale));
		}
		if (!ret && e->pipe && ea->name) {
			ret = event_update__emit(e, EVENT_UPDATE__NAME, ea->ids[0], ea->name,
						 strlen(ea->name) + 1);
			if (ret == -E2BIG)
				ret = perf_err__set(err, E2BIG, "event name '%s' too long for its EVENT_UPDATE record",
						    ea->name);
		}
	}
	return ret;
}

int record_synth__thread_map(const struct record_synth_events *e, struct perf_err *err)
{
	const size_t max_nr = (MAX_RECORD - sizeof(struct perf_record_thread_map)) /
			      sizeof(struct perf_thread_map_entry);
	size_t nr = e->threads ? e->nr_threads : 1;
	struct perf_record_thread_map *rec;
	int ret;

	/* perf writes one record: a map that does not fit has no faithful form */
	if (nr > max_nr)
		return perf_err__set(err, E2BIG,
				     "%zu threads do not fit a THREAD_MAP record (at most %zu)",
				     nr, max_nr);
	rec = calloc(1, sizeof(*rec) + nr * sizeof(rec->entries[0]));
	if (!rec)
		return perf_err__set(err, ENOMEM, "out of memory");
	rec->header = (struct perf_event_header){
		.type = PERF_RECORD_THREAD_MAP,
		.size = (u16)(sizeof(*rec) + nr * sizeof(rec->entries[0])),
	};
	rec->nr = nr;
	for (size_t i = 0; i < nr; i++)
		rec->entries[i].pid = (u64)(s64)(e->threads ? e->threads[i] : -1);
	ret = e->emit(e->ctx, &rec->header);
	free(rec);
	return ret;
}

static void put16(u8 *p, u16 v)
{
	memcpy(p, &v, sizeof(v));
}

int cpu_map__synthesize(const int *cpus, size_t nr, void *buf, size_t size)
{
	static const int any = -1;
	struct perf_event_header *h = buf;
	size_t has_any, body, words = 0, list_size, mask_size;
	u8 *p = (u8 *)(h + 1);
	bool range;
	int min, max;

	if (!cpus) {
		cpus = &any;
		nr = 1;
	}
	if (!nr)
		return -EINVAL;
	has_any = cpus[0] == -1;
	for (size_t i = has_any; i < nr; i++)
		if (cpus[i] < 0 || cpus[i] > 0xfffe || (i > has_any && cpus[i] <= cpus[i - 1]))
			return -EINVAL;
	min = nr > has_any ? cpus[has_any] : -1;
	max = cpus[nr - 1];
	range = nr > has_any && (size_t)(max - min) + 1 == nr - has_any;
	if (range) {
		body = 8;
	} else {
		list_size = 2 + 2 + 2 * nr;
		words = ((size_t)max + 32) / 32;
		mask_size = 2 + 2 + 2 + 4 * words;
		if (has_any || list_size < mask_size)
			words = 0;
		body = align8(words ? mask_size : list_size);
	}
	if (sizeof(*h) + body > size || sizeof(*h) + body > MAX_RECORD)
		return -E2BIG;
	memset(buf, 0, sizeof(*h) + body);
	h->type = PERF_RECORD_CPU_MAP;
	h->size = (u16)(sizeof(*h) + body);
	if (range) {
		put16(p, 2);
		p[2] = (u8)has_any;
		put16(p + 4, (u16)min);
		put16(p + 6, (u16)max);
	} else if (words) {
		put16(p, 1);
		put16(p + 2, (u16)words);
		put16(p + 4, 4);
		for (size_t i = 0; i < nr; i++) {
			u32 w;

			memcpy(&w, p + 6 + 4 * (cpus[i] / 32), 4);
			w |= 1u << (cpus[i] % 32);
			memcpy(p + 6 + 4 * (cpus[i] / 32), &w, 4);
		}
	} else {
		put16(p, 0);
		put16(p + 2, (u16)nr);
		for (size_t i = 0; i < nr; i++)
			put16(p + 4 + 2 * i, (u16)cpus[i]);
	}
	return (int)h->size;
}

int record_synth__cpu_map(const struct record_synth_events *e, struct perf_err *err)
{
	size_t size = sizeof(struct perf_event_header) + 8 + 2 * (e->cpus ? e->nr_cpus : 1) + 8;
	void *buf = malloc(size);
	int ret;

	if (!buf)
		return perf_err__set(err, ENOMEM, "out of memory");
	ret = cpu_map__synthesize(e->cpus, e->nr_cpus, buf, size);
	if (ret == -EINVAL)
		ret = perf_err__set(err, EINVAL, "the cpu map is not ascending cpus from 0 to 65534");
	else if (ret < 0)
		ret = perf_err__set(err, -ret, "%zu cpus do not fit a CPU_MAP record", e->nr_cpus);
	else
		ret = e->emit(e->ctx, buf);
	free(buf);
	return ret;
}

int record_synth__workload_comm(const struct record_synth *s, pid_t pid, struct perf_err *err)
{
	static const char comm[] = WORKLOAD_COMM;
	const struct perf_sample zero = { 0 };
	u64 buf[(8 + 8 + sizeof(comm) + 7 + 64) / 8] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)buf;
	u32 *ids = (u32 *)(h + 1);
	size_t at = sizeof(*h) + 8 + align8(sizeof(comm));
	int n;

	ids[0] = ids[1] = (u32)pid;
	memcpy(ids + 2, comm, sizeof(comm));
	/* a synthesized record's trailer is zeros, as perf's: time 0 sorts it first */
	n = perf_sample__synthesize_id(s->attr, s->id ? s->id : &zero, false, (u8 *)buf + at,
				       sizeof(buf) - at);
	if (n < 0)
		return perf_err__set(err, -n, "no room for a sample_id trailer");
	h->type = PERF_RECORD_COMM;
	h->size = (u16)(at + (size_t)n);
	return s->emit(s->ctx, h);
}
