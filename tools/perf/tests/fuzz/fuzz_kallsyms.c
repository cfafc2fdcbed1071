// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kallsyms reader (tools/perf/util/kallsyms.c): its chunked line
 * reader, hex parser and module tags, the sorted symbol table built from them, and lookups
 * in it through machine__resolve(), as a kernel sample's address is resolved.
 *
 * Input: u8 flags (1: the helper budget has no slot, so the file is read on the command's
 * thread; else a budget of one slot, and the file is read on a helper thread;
 * 2: the kernel map is recorded at the file's own _text, found by a first pass over it),
 * u64 base for the lookups (little endian), then the kallsyms file's bytes.
 *
 * A malformed file is fine; a crash, a sanitizer report, a leak or a hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <perf/helper-threads.h>
#include "util/kallsyms.h"
#include "util/machine.h"
#include "tests/run-helpers.h"

#define KERNEL_START	0xffffffff81000000ULL

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct symbol_conf conf = { .symfs = "" };
	struct addr_location al;
	struct helper_budget *hb;
	struct machine m;
	struct thread *t;
	char path[64];
	u64 base, start;
	int fd;

	if (size < 9)
		return 0;
	memcpy(&base, bytes + 1, sizeof(base));
	fd = memfd_create("kallsyms", 0);
	if (fd < 0)
		abort();
	if (size > 9 && write(fd, bytes + 9, size - 9) != (ssize_t)(size - 9))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	conf.kallsyms = path;
	hb = helper_budget__new(bytes[0] & 1 ? 0 : 1);
	if (!hb || machine__init(&m, &conf))
		abort();
	m.helpers = hb;
	start = bytes[0] & 2 ? (base & ~0xfffULL) : KERNEL_START;
	if (test_machine_mmap(&m, PERF_RECORD_MISC_KERNEL, (u32)-1, start, 0x1000000, start,
			      "[kernel.kallsyms]_text"))
		goto out;
	t = machine__findnew_thread(&m, 1, 1);
	if (!t)
		goto out;
	/* the first lookup loads the file; then around the base, and the map's ends */
	for (u64 i = 0; i < 64; i++) {
		machine__resolve(&m, t, PERF_RECORD_MISC_KERNEL, base + i * 0x40, &al);
		machine__resolve(&m, t, PERF_RECORD_MISC_KERNEL, KERNEL_START + i * i * 0x1000, &al);
	}
	machine__resolve(&m, t, PERF_RECORD_MISC_KERNEL, ~0ULL, &al);
out:
	machine__exit(&m);
	helper_budget__delete(hb);
	close(fd);
	return 0;
}
