// SPDX-License-Identifier: GPL-2.0
/*
 * The words of a data_src value, part by part. Most parts are bit masks whose set bits are
 * named in bit order; the level is a number (lvl_num) where the hardware gives one and the
 * older mask otherwise. Upstream's quirks are kept, each where it happens: they are what
 * users compare against.
 */
#include <perf/kernel.h>
#include "mem-data-src.h"

/* one name per bit of the part; NULL for a bit printed elsewhere or not at all */
static const char *const op_names[PERF_MEM_OP_BITS] = {
	"N/A", "LOAD", "STORE", "PFETCH", "EXEC",
};

/* NA, HIT and MISS are not levels: hit or miss is said after the level names */
static const char *const lvl_names[PERF_MEM_LVL_BITS] = {
	NULL, NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
	"Uncached",
};

static const char *const lvlnum_names[1 << PERF_MEM_LVLNUM_BITS] = {
	[PERF_MEM_LVLNUM_L1]		= "L1",
	[PERF_MEM_LVLNUM_L2]		= "L2",
	[PERF_MEM_LVLNUM_L3]		= "L3",
	[PERF_MEM_LVLNUM_L4]		= "L4",
	[PERF_MEM_LVLNUM_L2_MHB]	= "L2 MHB",
	[PERF_MEM_LVLNUM_MSC]		= "Memory-side Cache",
	[PERF_MEM_LVLNUM_UNC]		= "Uncached",
	[PERF_MEM_LVLNUM_CXL]		= "CXL",
	[PERF_MEM_LVLNUM_IO]		= "I/O",
	[PERF_MEM_LVLNUM_ANY_CACHE]	= "Any cache",
	[PERF_MEM_LVLNUM_LFB]		= "LFB/MAB",
	[PERF_MEM_LVLNUM_RAM]		= "RAM",
	[PERF_MEM_LVLNUM_PMEM]		= "PMEM",
};

/*
 * "Remote" comes before these from the remote bit. Upstream's table stops at hops 4 and
 * what it reads past it for 5..7 is NULL, which its printf prints as "(null)".
 */
static const char *const hops_names[1 << PERF_MEM_HOPS_BITS] = {
	NULL, "core, same node", "node, same socket", "socket, same board", "board",
	"(null)", "(null)", "(null)",
};

static const char *const snoop_names[PERF_MEM_SNOOP_BITS] = {
	"N/A", "None", "Hit", "Miss", "HitM",
};

static const char *const snoopx_names[PERF_MEM_SNOOPX_BITS] = { "Fwd", "Peer" };

/* unlike the level's, the TLB's NA bit is named among the others */
static const char *const tlb_names[PERF_MEM_TLB_BITS] = {
	"N/A", NULL, NULL, "L1", "L2", "Walker", "Fault",
};

static const char *const lock_names[PERF_MEM_LOCK_BITS] = { "N/A", "Yes" };

/*
 * Appends the names of the set bits of bits, " or " between them; printed: names already
 * in the list (snoop and snoopx make one). Returns the names in it now.
 */
static int join_names(struct sbuf *sb, u64 bits, const char *const *names, size_t nr,
		      int printed)
{
	for (size_t i = 0; i < nr; i++) {
		if (!(bits & (1ULL << i)) || !names[i])
			continue;
		if (printed++)
			sbuf__adds(sb, " or ");
		sbuf__adds(sb, names[i]);
	}
	return printed;
}

/* parts that are one word, the lowest bit's: the others are ignored */
static void first_name(struct sbuf *sb, u64 bits, const char *const *names, size_t nr,
		       const char *none)
{
	for (size_t i = 0; i < nr; i++) {
		if (bits & (1ULL << i)) {
			sbuf__adds(sb, names[i]);
			return;
		}
	}
	sbuf__adds(sb, none);
}

static void mem_data_src__lvl(struct sbuf *sb, u64 v)
{
	u64 lvl = PERF_MEM_GET(v, LVL), num = PERF_MEM_GET(v, LVLNUM);
	u64 hops = PERF_MEM_GET(v, HOPS);
	const char *hit_miss = "";

	if (lvl & PERF_MEM_LVL_HIT)
		hit_miss = "hit";
	else if (lvl & PERF_MEM_LVL_MISS)
		hit_miss = "miss";

	/* a level number wins over the mask, and only it says remote and hops */
	if (num && num != PERF_MEM_LVLNUM_NA) {
		if (PERF_MEM_GET(v, REMOTE))
			sbuf__adds(sb, "Remote ");
		if (hops) {
			sbuf__adds(sb, hops_names[hops]);
			sbuf__addc(sb, ' ');
		}
		if (lvlnum_names[num])
			sbuf__adds(sb, lvlnum_names[num]);
		else
			sbuf__printf(sb, "Unknown level %llu", (unsigned long long)num);
		sbuf__addc(sb, ' ');
		sbuf__adds(sb, hit_miss);
		return;
	}
	if (!join_names(sb, lvl, lvl_names, ARRAY_SIZE(lvl_names), 0)) {
		sbuf__adds(sb, "N/A");
		return;
	}
	/* neither hit nor miss still leaves the space: "L3 " */
	sbuf__addc(sb, ' ');
	sbuf__adds(sb, hit_miss);
}

static void mem_data_src__tlb(struct sbuf *sb, u64 v)
{
	u64 tlb = PERF_MEM_GET(v, TLB);

	if (!join_names(sb, tlb, tlb_names, ARRAY_SIZE(tlb_names), 0))
		sbuf__adds(sb, "N/A");
	/* both can be said */
	if (tlb & PERF_MEM_TLB_HIT)
		sbuf__adds(sb, " hit");
	if (tlb & PERF_MEM_TLB_MISS)
		sbuf__adds(sb, " miss");
}

static void mem_data_src__blk(struct sbuf *sb, u64 v)
{
	u64 blk = PERF_MEM_GET(v, BLK);

	/* upstream's words here carry their own leading space: "|BLK  N/A" */
	if (!blk || (blk & PERF_MEM_BLK_NA)) {
		sbuf__adds(sb, " N/A");
		return;
	}
	if (blk & PERF_MEM_BLK_DATA)
		sbuf__adds(sb, " Data");
	if (blk & PERF_MEM_BLK_ADDR)
		sbuf__adds(sb, " Addr");
}

void mem_data_src__decode(struct sbuf *sb, u64 data_src)
{
	int snoops;

	sbuf__adds(sb, "|OP ");
	first_name(sb, PERF_MEM_GET(data_src, OP), op_names, ARRAY_SIZE(op_names), "No");
	sbuf__adds(sb, "|LVL ");
	mem_data_src__lvl(sb, data_src);
	sbuf__adds(sb, "|SNP ");
	snoops = join_names(sb, PERF_MEM_GET(data_src, SNOOP), snoop_names,
			    ARRAY_SIZE(snoop_names), 0);
	if (!join_names(sb, PERF_MEM_GET(data_src, SNOOPX), snoopx_names,
			ARRAY_SIZE(snoopx_names), snoops))
		sbuf__adds(sb, "N/A");
	sbuf__adds(sb, "|TLB ");
	mem_data_src__tlb(sb, data_src);
	sbuf__adds(sb, "|LCK ");
	first_name(sb, PERF_MEM_GET(data_src, LOCK), lock_names, ARRAY_SIZE(lock_names), "No");
	sbuf__adds(sb, "|BLK ");
	mem_data_src__blk(sb, data_src);
}
