// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perf inject -j's jitdump reader (tools/perf/util/jitdump.c) and the
 * ELF files it writes (jit-elf.c): the input is a jitdump file, read as the dump of the pid
 * its header names, into a private directory where its ELF files go (removed after each
 * input). Every ELF written is opened again with libelf, as a reader would.
 *
 * A malformed dump is fine (an error); a crash, a sanitizer report, a leak or a hang is a
 * finding.
 */
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);

/* each ELF written is read back: its header and sections */
static int check_map(void *ctx, const struct jit_map *map)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *e;
	int fd;

	(void)ctx;
	fd = open(map->path, O_RDONLY);
	if (fd < 0)
		abort();	/* a map of a file that was not written */
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh))
		abort();
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			abort();
		(void)elf_getdata(scn, NULL);
	}
	elf_end(e);
	close(fd);
	return 0;
}

static void remove_dir(const char *dir)
{
	char path[4096];
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		unlink(path);
	}
	closedir(dp);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
	char dir[] = "/tmp/fuzz-jitdump-XXXXXX", path[64];
	struct perf_err err;
	u32 pid = 0;
	FILE *f;

	if (size >= 24)
		memcpy(&pid, bytes + 20, sizeof(pid));
	if (!mkdtemp(dir))
		return 0;
	snprintf(path, sizeof(path), "%s/jit-%u.dump", dir, pid);
	f = fopen(path, "w");
	if (f) {
		bool written = fwrite(bytes, 1, size, f) == size;

		/* closed once, whatever fwrite did */
		if (!fclose(f) && written)
			(void)jitdump__process(path, pid, check_map, NULL, &err);
	}
	remove_dir(dir);
	return 0;
}
