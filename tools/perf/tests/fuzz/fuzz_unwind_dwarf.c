// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the DWARF CFI unwinder (util/unwind-dwarf.c): random user registers
 * and a random stack dump, walked over the real CFI of this machine's libc and libstdc++
 * (.eh_frame with every augmentation gcc emits, .plt expressions, signal trampolines).
 *
 * Input: byte 0 picks the DSO of the ip and whether dyn_size lies; bytes 1-4 the ip's
 * offset in it; then 20 registers (perf's --call-graph dwarf set, AX..SS and R8..R15);
 * the rest is the dump. Dump words whose top 16 bits are 0x5555 are rebased into the maps
 * (so that return addresses land in code with CFI), and SP is fixed, so that words of
 * 0x7ffd0000xxxx point into the dump.
 *
 * Checked: no read outside the dump or the registers (ASan: the dump is copied to a buffer
 * of exactly its size), 1 to max frames, ips[0] is the ip, the caller's max is obeyed, and
 * unwind_dwarf__rule() gives rules of the documented shape.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perf/event.h>
#include <perf/kernel.h>
#include "util/dso.h"
#include "util/map.h"
#include "util/thread.h"
#include "util/unwind-dwarf.h"

#define SP		0x7ffd00000000ULL
#define NR_REGS		20
#define REGS_MASK	0xff0fffULL

static const char *const dso_paths[] = {
	"/lib/x86_64-linux-gnu/libc.so.6",
	"/lib/x86_64-linux-gnu/libstdc++.so.6",
};
#define NR_DSOS	(ARRAY_SIZE(dso_paths))

/* set up once: the harness's address space, as a recording's maps would give it */
static struct {
	struct symbol_conf	conf;
	struct unwind_dwarf	*ud;
	struct thread		*thread;
	u64			base[NR_DSOS], len[NR_DSOS];
	int			nr;
} fz;

static int setup(void)
{
	fz.conf.symfs = "";
	fz.thread = thread__new(1, 1);
	fz.ud = unwind_dwarf__new(&fz.conf);
	if (!fz.thread || !fz.ud)
		return -1;
	fz.thread->maps = maps__new();
	if (!fz.thread->maps)
		return -1;
	for (size_t i = 0; i < NR_DSOS; i++) {
		struct dso *dso = dso__new(dso_paths[i], DSO_KIND_USER);
		struct map *map;

		if (!dso)
			return -1;
		fz.base[fz.nr] = 0x7f0000000000ULL + (u64)i * 0x10000000ULL;
		fz.len[fz.nr] = 0x400000;
		map = map__new(fz.base[fz.nr], fz.len[fz.nr], 0, dso);
		dso__put(dso);
		if (!map || maps__insert(fz.thread->maps, map))
			return -1;
		map__put(map);
		fz.nr++;
	}
	return 0;
}

static u64 get_u64(const uint8_t *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 regs[NR_REGS], ips[UNWIND_MAX_FRAMES], ip;
	size_t head = 5 + NR_REGS * 8, dump_len;
	struct perf_sample s = { 0 };
	struct unwind_rule rule;
	enum unwind_stop why;
	u8 *dump;
	u32 max;
	int n, which;

	if (!fz.ud && setup())
		abort();
	if (size < head)
		return 0;
	which = data[0] % fz.nr;
	ip = fz.base[which] + (u64)(data[1] | data[2] << 8 | data[3] << 16 | (u32)data[4] << 24) %
	     fz.len[which];
	for (int i = 0; i < NR_REGS; i++)
		regs[i] = get_u64(data + 5 + 8 * i);
	regs[PERF_REG_X86_IP] = ip;
	regs[PERF_REG_X86_SP] = SP;
	dump_len = size - head;
	if (dump_len > 16384)
		dump_len = 16384;
	dump = malloc(dump_len ? dump_len : 1);
	if (!dump)
		return 0;
	memcpy(dump, data + head, dump_len);
	for (size_t off = 0; off + 8 <= dump_len; off += 8) {
		u64 w = get_u64(dump + off);

		if (w >> 48 == 0x5555) {
			int d = (int)((w >> 40) & 0xff) % fz.nr;

			w = fz.base[d] + (w & 0xffffffffffULL) % fz.len[d];
			memcpy(dump + off, &w, 8);
		}
	}
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.user_regs_mask = REGS_MASK;
	s.user_regs = regs;
	s.user_stack = dump;
	s.user_stack_size = dump_len;
	/* a dyn_size past the dump must not be believed */
	s.user_stack_dyn_size = data[0] & 0x80 ? dump_len + 4096 : dump_len;
	max = data[0] & 0x40 ? 1 + data[1] % 16 : UNWIND_MAX_FRAMES;

	/* either byte order: the swapped reads are bounded as the others */
	n = unwind_dwarf__walk(fz.ud, fz.thread, &s, data[0] & 0x20, ips, max, &why);
	if (n < 1 || (u32)n > max || ips[0] != ip || why >= UNWIND_STOP_NR)
		abort();

	if (!unwind_dwarf__rule(fz.ud, fz.thread, ip, &rule) &&
	    (rule.source != UNWIND_SRC_CFI || rule.base > UNWIND_BASE_FP ||
	     rule.ra != UNWIND_LOC_CFA || rule.fp > UNWIND_LOC_CFA))
		abort();
	free(dump);
	return 0;
}
