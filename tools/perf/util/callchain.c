// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include "callchain.h"

void callchain_cursor__init(struct callchain_cursor *c)
{
	c->frames = NULL;
	c->nr = c->alloc = 0;
}

void callchain_cursor__exit(struct callchain_cursor *c)
{
	free(c->frames);
	callchain_cursor__init(c);
}

static struct callchain_frame *callchain_cursor__append(struct callchain_cursor *c)
{
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? c->alloc * 2 : 128;
		struct callchain_frame *f = realloc(c->frames, n * sizeof(*f));

		if (!f)
			return NULL;
		c->frames = f;
		c->alloc = n;
	}
	return &c->frames[c->nr++];
}

int callchain__resolve(struct machine *machine, struct thread *thread,
		       const struct perf_sample *sample, unsigned int max_stack,
		       struct callchain_cursor *c, struct perf_err *err)
{
	/* perf starts in user mode: a chain without markers is a user chain */
	u8 cpumode = PERF_RECORD_MISC_USER;
	unsigned int nr_entries = 0;
	u64 nr = sample->callchain_nr;

	c->nr = 0;
	/* an unstitched deferred sample: its cookie is not an address */
	if (sample->deferred_callchain)
		nr -= 1;
	for (u64 i = 0; i < nr && nr_entries < max_stack; i++) {
		u64 ip = sample->callchain[i];
		struct callchain_frame *f;
		struct addr_location al;

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV:
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
				break;
			case PERF_CONTEXT_KERNEL:
				cpumode = PERF_RECORD_MISC_KERNEL;
				break;
			case PERF_CONTEXT_USER:
			case PERF_CONTEXT_USER_DEFERRED:
				cpumode = PERF_RECORD_MISC_USER;
				break;
			case PERF_CONTEXT_GUEST_KERNEL:
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
				break;
			case PERF_CONTEXT_GUEST_USER:
				cpumode = PERF_RECORD_MISC_GUEST_USER;
				break;
			case PERF_CONTEXT_GUEST:
				break;
			default:
				c->nr = 0;
				return perf_err__set(err, EINVAL, "invalid callchain context: %lld",
						     (long long)ip);
			}
			continue;
		}
		nr_entries++;
		machine__resolve(machine, thread, cpumode, ip, &al);
		f = callchain_cursor__append(c);
		if (!f)
			return perf_err__set(err, ENOMEM, "out of memory resolving a callchain");
		f->ip = ip;
		f->map = al.map;
		f->sym = al.sym;
		f->sym_addr = al.sym_addr;
		f->cpumode = cpumode;
		f->cookie = false;
	}
	if (sample->deferred_callchain && nr_entries < max_stack) {
		struct callchain_frame *f = callchain_cursor__append(c);

		if (!f)
			return perf_err__set(err, ENOMEM, "out of memory resolving a callchain");
		*f = (struct callchain_frame){
			.ip = sample->deferred_cookie,
			.cpumode = PERF_RECORD_MISC_USER,
			.cookie = true,
		};
	}
	return 0;
}
