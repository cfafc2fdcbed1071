// SPDX-License-Identifier: GPL-2.0
/* x86-64 register names for --user-regs and --intr-regs. See perf-regs.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "perf-regs.h"

/* indexed by PERF_REG_X86_*: the kernel's numbering, the name perf prints */
static const char *const reg_names[PERF_REG_X86_64_MAX] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

const char *perf_reg__name(unsigned int rid)
{
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (rid < PERF_REG_X86_64_MAX)
		return reg_names[rid];
	/* each XMM register takes two u64 slots from bit 32 on; perf names the first */
	if (rid >= 32 && rid < 64 && !(rid & 1))
		return xmm[(rid - 32) / 2];
	return "unknown";
}

static int reg__find(const char *name)
{
	for (int r = 0; r < PERF_REG_X86_64_MAX; r++)
		if ((PERF_REGS_X86_64_USER_MASK & (1ULL << r)) && !strcasecmp(name, reg_names[r]))
			return r;
	return -1;
}

int perf_regs__parse(const char *list, u64 *mask, char *buf, size_t size, const char **bad)
{
	char *p, *comma;
	u64 m = 0;

	*bad = NULL;
	if (snprintf(buf, size, "%s", list) >= (int)size) {
		*bad = list;
		return -EINVAL;
	}
	for (p = buf;; p = comma + 1) {
		int r;

		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		r = reg__find(p);
		if (r < 0) {
			*bad = p;
			return -EINVAL;
		}
		m |= 1ULL << r;
		if (!comma)
			break;
	}
	*mask = m;
	return 0;
}

void perf_regs__fprintf_names(FILE *fp)
{
	fprintf(fp, "available registers: ");
	for (int r = 0; r < PERF_REG_X86_64_MAX; r++)
		if (PERF_REGS_X86_64_USER_MASK & (1ULL << r))
			fprintf(fp, "%s ", reg_names[r]);
	fputc('\n', fp);
}
