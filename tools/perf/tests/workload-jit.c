// SPDX-License-Identifier: GPL-2.0
/*
 * jitmap: a tiny JIT. Two functions of machine code written into executable anonymous
 * memory, named in /tmp/perf-PID.map as runtimes name theirs: jit_outer calls jit_inner,
 * which spins; both keep frame pointers, so the kernel's walk goes jit_inner -> jit_outer ->
 * jitmap_run. The map file stays behind, as the runtimes leave theirs, for the report.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "workloads.h"
/* last: it sets the optimisation flags of what follows */
#include "workload.h"

#define JIT_OUTER_OFF	0x0
#define JIT_INNER_OFF	0x100

#if defined(__x86_64__)
/* push %rbp; mov %rsp,%rbp; call jit_inner; pop %rbp; ret */
static const unsigned char jit_outer_code[] = {
	0x55, 0x48, 0x89, 0xe5,
	0xe8, 0, 0, 0, 0,	/* rel32 filled in */
	0x5d, 0xc3,
};
/* push %rbp; mov %rsp,%rbp; mov $100000,%ecx; 1: dec %ecx; jnz 1b; pop %rbp; ret */
static const unsigned char jit_inner_code[] = {
	0x55, 0x48, 0x89, 0xe5,
	0xb9, 0xa0, 0x86, 0x01, 0x00,
	0xff, 0xc9, 0x75, 0xfc,
	0x5d, 0xc3,
};

static int jit__write_map(const unsigned char *code)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	fp = fopen(path, "w");
	if (!fp) {
		fprintf(stderr, "perf test -w jitmap: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* the runtimes' format: hex without 0x */
	fprintf(fp, "%lx %zx jit_outer\n", (unsigned long)(code + JIT_OUTER_OFF),
		sizeof(jit_outer_code));
	fprintf(fp, "%lx %zx jit_inner\n", (unsigned long)(code + JIT_INNER_OFF),
		sizeof(jit_inner_code));
	if (fclose(fp)) {
		fprintf(stderr, "perf test -w jitmap: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static WORKLOAD_FN int jitmap_run(struct spin *s, void (*outer)(void))
{
	do {
		outer();
		s->acc++;
	} while (!spin__expired(s));
	return 0;
}

int workload__jitmap(int argc, const char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *code;
	void (*outer)(void);
	struct spin s;
	int rel, ret;

	if (spin__init(&s, "jitmap", argc, argv))
		return 1;
	code = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (code == MAP_FAILED) {
		fprintf(stderr, "perf test -w jitmap: mmap: %s\n", strerror(errno));
		return 1;
	}
	memcpy(code + JIT_OUTER_OFF, jit_outer_code, sizeof(jit_outer_code));
	rel = (JIT_INNER_OFF) - (JIT_OUTER_OFF + 9);
	memcpy(code + JIT_OUTER_OFF + 5, &rel, sizeof(rel));
	memcpy(code + JIT_INNER_OFF, jit_inner_code, sizeof(jit_inner_code));
	/* W^X as runtimes do it: the kernel's MMAP2 of the now executable region follows */
	if (mprotect(code, (size_t)page, PROT_READ | PROT_EXEC)) {
		fprintf(stderr, "perf test -w jitmap: mprotect: %s\n", strerror(errno));
		munmap(code, (size_t)page);
		return 1;
	}
	if (jit__write_map(code)) {
		munmap(code, (size_t)page);
		return 1;
	}
	outer = (void (*)(void))(void *)(code + JIT_OUTER_OFF);
	ret = jitmap_run(&s, outer);
	munmap(code, (size_t)page);
	return ret;
}
#else
int workload__jitmap(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "perf test -w jitmap: its machine code is x86-64's only\n");
	return 1;
}
#endif
