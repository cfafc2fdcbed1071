// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-code.c - DSO files mapped once each, found by a small open-addressed table keyed by
 * the dso pointer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dso.h"
#include "unwind-code.h"

struct code_file {
	const struct dso	*dso;	/* NULL: free slot */
	const u8		*data;	/* NULL: the file could not be mapped */
	size_t			size;
};

struct unwind_code {
	const char		*symfs;
	struct code_file	*files;
	size_t			nr, alloc;	/* alloc: a power of two */
};

struct unwind_code *unwind_code__new(const char *symfs)
{
	struct unwind_code *uc = calloc(1, sizeof(*uc));

	if (uc)
		uc->symfs = symfs ? symfs : "";
	return uc;
}

void unwind_code__delete(struct unwind_code *uc)
{
	if (!uc)
		return;
	for (size_t i = 0; i < uc->alloc; i++)
		if (uc->files[i].data)
			munmap((void *)uc->files[i].data, uc->files[i].size);
	free(uc->files);
	free(uc);
}

static size_t slot_of(const struct dso *dso, size_t alloc)
{
	return (size_t)(((uintptr_t)dso * 0x9e3779b97f4a7c15ULL) >> 20) & (alloc - 1);
}

static int unwind_code__grow(struct unwind_code *uc)
{
	size_t alloc = uc->alloc ? uc->alloc * 2 : 64;
	struct code_file *files = calloc(alloc, sizeof(*files));

	if (!files)
		return -ENOMEM;
	for (size_t i = 0; i < uc->alloc; i++) {
		size_t j;

		if (!uc->files[i].dso)
			continue;
		for (j = slot_of(uc->files[i].dso, alloc); files[j].dso; j = (j + 1) & (alloc - 1))
			;
		files[j] = uc->files[i];
	}
	free(uc->files);
	uc->files = files;
	uc->alloc = alloc;
	return 0;
}

static void code_file__map(struct code_file *f, const char *symfs, const struct dso *dso)
{
	char path[4096];
	struct stat st;
	void *p;
	int fd;

	if (snprintf(path, sizeof(path), "%s%s", symfs, dso->long_name) >= (int)sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			f->data = p;
			f->size = (size_t)st.st_size;
		}
	}
	close(fd);
}

static struct code_file *unwind_code__file(struct unwind_code *uc, struct dso *dso)
{
	size_t i;

	if (uc->alloc) {
		for (i = slot_of(dso, uc->alloc); uc->files[i].dso; i = (i + 1) & (uc->alloc - 1))
			if (uc->files[i].dso == dso)
				return &uc->files[i];
	}
	/* at most half full */
	if ((uc->nr + 1) * 2 > uc->alloc && unwind_code__grow(uc))
		return NULL;
	for (i = slot_of(dso, uc->alloc); uc->files[i].dso; i = (i + 1) & (uc->alloc - 1))
		;
	uc->files[i].dso = dso;
	uc->nr++;
	if (dso->kind == DSO_KIND_USER)
		code_file__map(&uc->files[i], uc->symfs, dso);
	return &uc->files[i];
}

const u8 *unwind_code__bytes(struct unwind_code *uc, struct dso *dso, u64 off, size_t want,
			     size_t *len)
{
	struct code_file *f = unwind_code__file(uc, dso);

	if (!f || !f->data || off >= f->size)
		return NULL;
	*len = f->size - off < want ? (size_t)(f->size - off) : want;
	return f->data + off;
}
