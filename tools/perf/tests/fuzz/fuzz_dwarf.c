// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the DWARF lookups of inline frames and source lines
 * (tools/perf/util/dwarf-inline.c): the input is the file a DSO's symbols came from, an ELF
 * image with (or without) DWARF; every address of a window is asked for its inline chain,
 * under a symbol covering the window, and its srcline, some twice (cached answers).
 *
 * Input: u8 flags (1: ask for srclines first, which makes the chain lookups hit a cached
 * line), u8 window page (the window starts at page * 0x1000), then the file's bytes.
 * A malformed file is fine (no entries, maybe one error); a crash, a sanitizer report, a leak
 * or a hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/dso.h"
#include "util/dso-file.h"
#include "util/dwarf-inline.h"
#include "util/symbol.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

/* the window asked: a small program's code fits in it */
#define WINDOW	0x600

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct dso dso = { .long_name = (char *)"/fuzz/dso", .kind = DSO_KIND_USER };
	struct symbol sym = { .name = "fuzz_sym", .type = 2 };
	char path[64];
	int fd;

	if (size < 2)
		return 0;
	fd = memfd_create("fuzz_dwarf", 0);
	if (fd < 0)
		abort();
	if (write(fd, bytes + 2, size - 2) != (ssize_t)(size - 2))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dso.symsrc_path = path;
	sym.start = (u64)bytes[1] * 0x1000;
	sym.end = sym.start + WINDOW;
	for (int pass = 0; pass < 2; pass++) {
		for (u64 a = sym.start; a < sym.end; a += 3) {
			u32 nr;
			const struct inline_entry *e;

			if (bytes[0] & 1)
				(void)dso__srcline(&dso, a);
			e = dso__inlines(&dso, &sym, a, &nr);
			for (u32 i = 0; i < nr; i++)
				if (!e[i].sym || !e[i].sym->name || !e[i].srcline)
					abort();
			(void)dso__srcline(&dso, a);
		}
		(void)dso_dwarf__error(&dso);
	}
	dso_file__delete(dso.file);
	close(fd);
	return 0;
}
