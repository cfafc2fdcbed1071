// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf map reader (tools/perf/util/perf-map.c): a JIT runtime's
 * /tmp/perf-PID.map read through a dso's first lookup, its hex fields, names and line
 * ends, overlapping entries in the table as upstream's tree orders them, and lookups in it.
 *
 * Input: u64 base for the lookups (little endian), then the map file's bytes, written to
 * <dir>/tmp/perf-1.map under a private symfs directory. Warnings go to /dev/null.
 *
 * A malformed map is fine; a crash, a sanitizer report, a leak or a hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

static char symfs[64], map_path[96];
static FILE *devnull;

static void fuzz__setup(void)
{
	char dir[96];

	snprintf(symfs, sizeof(symfs), "%s", "/tmp/fuzz-perfmap.XXXXXX");
	if (!mkdtemp(symfs))
		abort();
	snprintf(dir, sizeof(dir), "%s/tmp", symfs);
	if (mkdir(dir, 0700))
		abort();
	snprintf(map_path, sizeof(map_path), "%s/tmp/perf-1.map", symfs);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
}

static void fuzz__cleanup(void)
{
	unlink(map_path);
	snprintf(map_path, sizeof(map_path), "%s/tmp", symfs);
	rmdir(map_path);
	rmdir(symfs);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	struct symbol_conf conf = { 0 };
	struct dso *dso;
	u64 base, addr;
	FILE *fp;

	if (size < 8)
		return 0;
	if (!symfs[0]) {
		fuzz__setup();
		atexit(fuzz__cleanup);
	}
	memcpy(&base, bytes, sizeof(base));
	fp = fopen(map_path, "w");
	if (!fp || (size > 8 && fwrite(bytes + 8, 1, size - 8, fp) != size - 8) || fclose(fp))
		abort();
	conf.symfs = symfs;
	conf.warn = devnull;
	dso = dso__new("/tmp/perf-1.map", DSO_KIND_ANON);
	if (!dso)
		abort();
	for (int i = 0; i < 64; i++) {
		const struct symbol *sym;

		addr = base + (u64)i * 0x41;
		sym = dso__find_symbol_by_offset(dso, &conf, addr, NULL);
		if (sym && (addr < sym->start || (addr >= sym->end && sym->end != sym->start) ||
			    !sym->name))
			abort();	/* a lookup must land inside what it returns */
	}
	dso__put(dso);
	return 0;
}
