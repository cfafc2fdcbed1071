// SPDX-License-Identifier: GPL-2.0
/* The perf record options this perf refuses, and why. See record-unsupported.h. */
#include "parse-options.h"
#include "record-unsupported.h"

int record_unsupported__opt_aio(const struct option *opt, const char *arg, bool unset)
{
	(void)arg;
	if (unset)
		return 0;
	return parse_options__error(opt, false,
				    "is not supported: this perf writes the rings with plain write(2) from its one thread (no POSIX AIO); drop --aio");
}

const char *record_unsupported__lbr(void)
{
	return "lbr is not supported: LBR call stacks need an Intel PMU with LBR call-stack mode, and this perf's readers cannot stitch them; use --call-graph fp or dwarf";
}
