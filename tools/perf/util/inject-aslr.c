// SPDX-License-Identifier: GPL-2.0
/* perf inject --aslr's new layout. See inject-aslr.h. */
#include <string.h>
#include "inject-aslr.h"

#define PAGE		0x1000ULL
#define KERNEL_ALIGN	0x200000ULL	/* as KASLR aligns the kernel */
#define KERNEL_SLOTS	255		/* slides of 2 MB .. 510 MB */
#define KERNEL_HALF	0x8000000000000000ULL

/* a 64-bit mix of the seed (splitmix64's finalizer): independent fields from one number */
static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void inject_aslr__init(struct inject_aslr *a, const char *arch, u64 seed)
{
	/* where user space ends, and the hole W is drawn from: its middle eighth to quarter */
	bool x86 = !arch || !strcmp(arch, "x86_64") || !strcmp(arch, "x86");
	u64 end = x86 ? 1ULL << 47 : 1ULL << 48;
	u64 lo = end / 8 * 6, span = end / 8;

	memset(a, 0, sizeof(*a));
	a->user_end = end;
	a->cut = (lo + mix(seed) % span) & ~(PAGE - 1);
	a->kernel_slide = (1 + mix(seed ^ 0x5a5a5a5a5a5a5a5aULL) % KERNEL_SLOTS) * KERNEL_ALIGN;
}

u64 inject_aslr__addr(const struct inject_aslr *a, u64 addr)
{
	if (addr >= KERNEL_HALF)
		return addr - a->kernel_slide;
	if (!addr || addr >= a->user_end)
		return addr;
	return addr >= a->cut ? addr - a->cut : addr + (a->user_end - a->cut);
}

void inject_aslr__sample(const struct inject_aslr *a, struct perf_sample *s, u64 *chain,
			 struct perf_branch_entry *branches)
{
	s->ip = inject_aslr__addr(a, s->ip);
	s->addr = inject_aslr__addr(a, s->addr);
	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];

		chain[i] = ip >= PERF_CONTEXT_MAX ? ip : inject_aslr__addr(a, ip);
		/* the cookie after the deferred marker is a number, not an address */
		if (ip == PERF_CONTEXT_USER_DEFERRED && i + 1 < s->callchain_nr) {
			i++;
			chain[i] = s->callchain[i];
		}
	}
	if (s->callchain_nr)
		s->callchain = chain;
	for (u64 i = 0; i < s->branch_nr; i++) {
		branches[i] = s->branches[i];
		branches[i].from = inject_aslr__addr(a, branches[i].from);
		branches[i].to = inject_aslr__addr(a, branches[i].to);
	}
	if (s->branch_nr)
		s->branches = branches;
}

/* a map [start, start + len) moved; counted when W cuts it */
static u64 inject_aslr__map(struct inject_aslr *a, u64 start, u64 len)
{
	if (start < a->cut && start + len > a->cut)
		a->straddling++;
	return inject_aslr__addr(a, start);
}

/*
 * A kernel map's pgoff that is an address (the kernel's: the _text of "[kernel.kallsyms]_text",
 * which readers take as where kallsyms' _text was) moves with the map, so that the readers'
 * relocation of kallsyms puts the symbols where the kernel now is; a file offset stays
 */
static u64 inject_aslr__pgoff(const struct inject_aslr *a, u64 pgoff)
{
	return pgoff >= KERNEL_HALF ? pgoff - a->kernel_slide : pgoff;
}

void inject_aslr__record(struct inject_aslr *a, struct perf_event_header *h)
{
	struct perf_record_mmap *m1 = (void *)h;
	struct perf_record_mmap2 *m2 = (void *)h;
	struct perf_record_ksymbol *ks = (void *)h;
	struct perf_record_text_poke *tp = (void *)h;

	switch (h->type) {
	case PERF_RECORD_MMAP:
		if (h->size >= sizeof(*m1)) {
			m1->start = inject_aslr__map(a, m1->start, m1->len);
			m1->pgoff = inject_aslr__pgoff(a, m1->pgoff);
		}
		break;
	case PERF_RECORD_MMAP2:
		if (h->size >= sizeof(*m2)) {
			m2->start = inject_aslr__map(a, m2->start, m2->len);
			m2->pgoff = inject_aslr__pgoff(a, m2->pgoff);
		}
		break;
	case PERF_RECORD_KSYMBOL:
		if (h->size >= sizeof(*ks))
			ks->addr = inject_aslr__addr(a, ks->addr);
		break;
	case PERF_RECORD_TEXT_POKE:
		if (h->size >= sizeof(*tp))
			tp->addr = inject_aslr__addr(a, tp->addr);
		break;
	default:
		break;
	}
}
