// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-insn.c - x86 instruction lengths, and the stack effect of the few instructions a
 * prologue or epilogue is made of.
 *
 * The state while decoding, relative to the function's entry (where RA is at [SP]):
 *   depth     bytes pushed since the entry: CFA = SP + ws + depth
 *   fp_depth  depth when mov %rsp,%rbp ran (fp_set): CFA = FP + ws + fp_depth
 *   fp_slot   depth right after push %rbp (fp_pushed): the caller's FP is at CFA - ws - fp_slot
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "unwind-insn.h"

struct insn {
	size_t	len;
	u8	map;		/* 0: one-byte opcodes, 1: 0f, 2: 0f38, 3: 0f3a; VEX/EVEX too */
	u8	op;
	u8	rex;		/* 0: none */
	bool	vex;		/* VEX or EVEX: never a stack operation of ours */
	bool	has_modrm;
	u8	modrm;
	u8	sib;
	s64	disp;
	s64	imm;
};

struct frame_state {
	s64	depth, fp_depth, fp_slot;
	bool	fp_set, fp_pushed;
};

/* one-byte opcodes with a ModRM byte, a bit each */
static bool modrm_1byte(u8 op, bool x64)
{
	if (op < 0x40)
		return (op & 7) < 4;
	switch (op) {
	case 0x62:
		return !x64;	/* BOUND; EVEX is taken apart before */
	case 0x63: case 0x69: case 0x6b:
	case 0x80 ... 0x8f:
	case 0xc0: case 0xc1: case 0xc6: case 0xc7:
	case 0xd0 ... 0xd3: case 0xd8 ... 0xdf:
	case 0xf6: case 0xf7: case 0xfe: case 0xff:
		return true;
	case 0xc4: case 0xc5:
		return !x64;	/* LES/LDS; VEX is taken apart before */
	default:
		break;
	}
	return false;
}

/* 0f xx without a ModRM byte */
static bool modrm_0f(u8 op)
{
	switch (op) {
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b: case 0x0e:
	case 0x30 ... 0x37: case 0x77:
	case 0x80 ... 0x8f:
	case 0xa0: case 0xa1: case 0xa2: case 0xa8: case 0xa9: case 0xaa:
	case 0xc8 ... 0xcf:
		return false;
	default:
		break;
	}
	return true;
}

/* bytes of immediate after a one-byte opcode (and its ModRM); -1: not decodable here */
static int imm_1byte(u8 op, u8 modrm, bool rexw, bool opsize16, bool addr32, bool x64)
{
	int z = opsize16 ? 2 : 4;

	if (op < 0x40 && (op & 7) == 4)
		return 1;
	if (op < 0x40 && (op & 7) == 5)
		return z;
	switch (op) {
	case 0x68: case 0x69: case 0x81: case 0xa9: case 0xc7: case 0xe8: case 0xe9:
		return z;
	case 0x6a: case 0x6b: case 0x70 ... 0x7f: case 0x80: case 0x82: case 0x83:
	case 0xa8: case 0xb0 ... 0xb7: case 0xc0: case 0xc1: case 0xc6: case 0xcd:
	case 0xe0 ... 0xe7: case 0xeb:
		return 1;
	case 0xb8 ... 0xbf:
		return rexw ? 8 : z;
	case 0xa0 ... 0xa3:
		return x64 ? (addr32 ? 4 : 8) : (addr32 ? 2 : 4);
	case 0xc2: case 0xca:
		return 2;
	case 0xc8:
		return 3;
	case 0xea: case 0x9a:
		return x64 ? -1 : z + 2;
	case 0xf6:
		return ((modrm >> 3) & 7) < 2 ? 1 : 0;
	case 0xf7:
		return ((modrm >> 3) & 7) < 2 ? z : 0;
	default:
		break;
	}
	return 0;
}

static bool imm8_0f(u8 op)
{
	switch (op) {
	case 0x70 ... 0x73: case 0xa4: case 0xac: case 0xba: case 0xc2: case 0xc4 ... 0xc6:
		return true;
	default:
		break;
	}
	return false;
}

static s64 read_signed(const u8 *p, int n)
{
	int8_t b;
	int16_t w;
	s32 d;
	s64 q;

	switch (n) {
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&w, p, 2); return w;
	case 4: memcpy(&d, p, 4); return d;
	case 8: memcpy(&q, p, 8); return q;
	default:
		break;
	}
	return 0;
}

/* ModRM, SIB and displacement at code[*pos]; false past len */
static bool decode_modrm(const u8 *code, size_t len, size_t *pos, struct insn *in, bool addr16)
{
	u8 mod, rm;
	int disp = 0;

	if (*pos >= len)
		return false;
	in->has_modrm = true;
	in->modrm = code[(*pos)++];
	mod = in->modrm >> 6;
	rm = in->modrm & 7;
	if (addr16) {
		/* 16-bit addressing exists only outside 64-bit mode */
		disp = mod == 1 ? 1 : mod == 2 ? 2 : (mod == 0 && rm == 6) ? 2 : 0;
	} else {
		if (mod != 3 && rm == 4) {
			if (*pos >= len)
				return false;
			in->sib = code[(*pos)++];
			if (mod == 0 && (in->sib & 7) == 5)
				disp = 4;
		}
		if (mod == 1)
			disp = 1;
		else if (mod == 2 || (mod == 0 && rm == 5))
			disp = 4;
	}
	if (len - *pos < (size_t)disp)
		return false;
	in->disp = read_signed(code + *pos, disp);
	*pos += disp;
	return true;
}

/* one instruction at code[0..len): false when it is cut by len or not decodable */
static bool insn_decode(const u8 *code, size_t len, bool x64, struct insn *in)
{
	bool opsize16 = false, addr32 = false;
	size_t pos = 0;
	int imm = 0;
	u8 op;

	memset(in, 0, sizeof(*in));
	/* legacy prefixes, at most 14 of them (an instruction is at most 15 bytes) */
	for (; pos < len && pos < 14; pos++) {
		op = code[pos];
		if (op == 0x66)
			opsize16 = true;
		else if (op == 0x67)
			addr32 = true;
		else if (op != 0xf0 && op != 0xf2 && op != 0xf3 && op != 0x2e && op != 0x36 &&
			 op != 0x3e && op != 0x26 && op != 0x64 && op != 0x65)
			break;
	}
	if (pos >= len)
		return false;
	if (x64 && (code[pos] & 0xf0) == 0x40)
		in->rex = code[pos++];
	if (pos >= len)
		return false;
	op = code[pos++];
	/* VEX (c4/c5) and EVEX (62): in 32-bit mode only with the top bits of the next byte set */
	if ((op == 0xc4 || op == 0xc5 || op == 0x62) && pos < len &&
	    (x64 || (code[pos] & 0xc0) == 0xc0)) {
		size_t nvex = op == 0xc5 ? 1 : op == 0xc4 ? 2 : 3;

		if (len - pos < nvex + 1)
			return false;
		in->map = op == 0xc5 ? 1 : code[pos] & (op == 0x62 ? 7 : 0x1f);
		pos += nvex;
		in->vex = true;
		in->op = code[pos++];
		if (in->map < 1 || in->map > 3)
			return false;
		if (!decode_modrm(code, len, &pos, in, false))
			return false;
		imm = in->map == 3 ? 1 : 0;
		goto out_imm;
	}
	if (op == 0x0f) {
		if (pos >= len)
			return false;
		op = code[pos++];
		if (op == 0x38 || op == 0x3a) {
			in->map = op == 0x38 ? 2 : 3;
			if (pos >= len)
				return false;
			in->op = code[pos++];
			if (!decode_modrm(code, len, &pos, in, !x64 && addr32))
				return false;
			imm = in->map == 3 ? 1 : 0;
			goto out_imm;
		}
		in->map = 1;
		in->op = op;
		if (modrm_0f(op) && !decode_modrm(code, len, &pos, in, !x64 && addr32))
			return false;
		imm = (op >= 0x80 && op <= 0x8f) ? (opsize16 && !x64 ? 2 : 4) : imm8_0f(op) ? 1 : 0;
		goto out_imm;
	}
	in->op = op;
	if (modrm_1byte(op, x64) && !decode_modrm(code, len, &pos, in, !x64 && addr32))
		return false;
	imm = imm_1byte(op, in->modrm, in->rex & 8, opsize16, addr32, x64);
	if (imm < 0)
		return false;
out_imm:
	if (len - pos < (size_t)imm)
		return false;
	in->imm = read_signed(code + pos, imm);
	in->len = pos + imm;
	return true;
}

/* the register numbers of ModRM (with REX.B/R for registers 8-15) */
#define REG_SP	4
#define REG_BP	5

static int modrm_rm(const struct insn *in)
{
	return (in->modrm & 7) | ((in->rex & 1) << 3);
}

static int modrm_reg(const struct insn *in)
{
	return ((in->modrm >> 3) & 7) | ((in->rex & 4) << 1);
}

enum insn_effect {
	EFFECT_NONE,
	EFFECT_EPILOGUE,	/* a pop, leave or stack release: part of an epilogue */
	EFFECT_RETURN,		/* ret or jmp: this path leaves the function */
	EFFECT_UNKNOWN,		/* moves SP in a way we cannot follow */
};

/* the stack effect of one instruction on st */
static enum insn_effect insn_apply(const struct insn *in, struct frame_state *st, s64 ws)
{
	int rm = in->has_modrm ? modrm_rm(in) : 0;
	bool reg_form = in->has_modrm && (in->modrm >> 6) == 3;

	if (in->vex)
		return EFFECT_NONE;
	if (in->map == 1) {
		/* push/pop %fs, %gs */
		if (in->op == 0xa0 || in->op == 0xa8) {
			st->depth += ws;
			return EFFECT_NONE;
		}
		if (in->op == 0xa1 || in->op == 0xa9) {
			st->depth -= ws;
			return EFFECT_EPILOGUE;
		}
		return EFFECT_NONE;
	}
	if (in->map)
		return EFFECT_NONE;
	switch (in->op) {
	case 0x50 ... 0x57:
		if (in->op == 0x55 && !(in->rex & 1) && !st->fp_pushed) {
			st->fp_pushed = true;
			st->fp_slot = st->depth + ws;
		}
		st->depth += ws;
		return EFFECT_NONE;
	case 0x58 ... 0x5f:
		st->depth -= ws;
		if (in->op == 0x5d && !(in->rex & 1)) {
			/* the caller's FP is back: the CFA is SP-based again */
			st->fp_pushed = false;
			st->fp_set = false;
		}
		return EFFECT_EPILOGUE;
	case 0x68: case 0x6a: case 0x9c:
		st->depth += ws;
		return EFFECT_NONE;
	case 0x9d:
		st->depth -= ws;
		return EFFECT_NONE;
	case 0x89: case 0x8b: {
		/* mov between registers: 89 is "rm <- reg", 8b is "reg <- rm" */
		int dst = in->op == 0x89 ? rm : modrm_reg(in);
		int src = in->op == 0x89 ? modrm_reg(in) : rm;

		if (!reg_form)
			return EFFECT_NONE;
		if (dst == REG_BP && src == REG_SP && st->fp_pushed) {
			st->fp_set = true;
			st->fp_depth = st->depth;
			return EFFECT_NONE;
		}
		if (dst == REG_SP) {
			if (src == REG_BP && st->fp_set) {
				st->depth = st->fp_depth;
				return EFFECT_EPILOGUE;
			}
			return st->fp_set ? EFFECT_NONE : EFFECT_UNKNOWN;
		}
		if (dst == REG_BP)
			st->fp_set = false;	/* rbp used as a general register */
		return EFFECT_NONE;
	}
	case 0x81: case 0x83: {
		int sub = (in->modrm >> 3) & 7;

		if (!reg_form || rm != REG_SP)
			return EFFECT_NONE;
		if (sub == 5) {
			st->depth += in->imm;
			return EFFECT_NONE;
		}
		if (sub == 0) {
			st->depth -= in->imm;
			return EFFECT_EPILOGUE;
		}
		/* and $-16,%rsp and the like: only a frame pointer still finds the CFA */
		return st->fp_set ? EFFECT_NONE : EFFECT_UNKNOWN;
	}
	case 0x8d:
		/* lea disp(%rsp),%rsp */
		if (modrm_reg(in) != REG_SP || reg_form)
			return EFFECT_NONE;
		if (rm == REG_SP && (in->sib & 7) == REG_SP && ((in->sib >> 3) & 7) == 4) {
			st->depth -= in->disp;
			return in->disp > 0 ? EFFECT_EPILOGUE : EFFECT_NONE;
		}
		if (rm == REG_BP && st->fp_set) {
			st->depth = st->fp_depth - in->disp;
			return EFFECT_EPILOGUE;
		}
		return st->fp_set ? EFFECT_NONE : EFFECT_UNKNOWN;
	case 0xc9:
		if (!st->fp_set)
			return EFFECT_UNKNOWN;
		st->depth = st->fp_depth - ws;
		st->fp_set = false;
		st->fp_pushed = false;
		return EFFECT_EPILOGUE;
	case 0xc2: case 0xc3: case 0xe9: case 0xeb:
		return EFFECT_RETURN;
	case 0xff: {
		int sub = (in->modrm >> 3) & 7;

		if (sub == 4 || sub == 5)
			return EFFECT_RETURN;	/* indirect jmp */
		if (sub == 6) {
			st->depth += ws;	/* push r/m */
			return EFFECT_NONE;
		}
		return EFFECT_NONE;
	}
	case 0x8f:
		st->depth -= ws;
		return EFFECT_EPILOGUE;
	default:
		break;
	}
	if (in->has_modrm && reg_form && rm == REG_SP && modrm_1byte(in->op, true) &&
	    in->op != 0x84 && in->op != 0x85 && in->op != 0x38 && in->op != 0x39 &&
	    in->op != 0x3a && in->op != 0x3b && in->op != 0x80 && in->op != 0x82 &&
	    !(in->op >= 0xd8 && in->op <= 0xdf) && in->op != 0xf6 && in->op != 0xf7)
		/* any other write to rsp: unfollowable without a frame pointer */
		return st->fp_set ? EFFECT_NONE : EFFECT_UNKNOWN;
	return EFFECT_NONE;
}

int unwind_insn__rule(const u8 *code, size_t len, size_t ip_off, u32 ws,
		      struct unwind_rule *rule)
{
	struct frame_state st = { 0 }, before_epilogue = { 0 };
	bool in_epilogue = false, x64 = ws == 8;
	size_t pos = 0;
	struct insn in;

	if (ip_off >= len)
		return -ENOENT;
	while (pos < ip_off) {
		struct frame_state prev = st;
		enum insn_effect e;

		if (!insn_decode(code + pos, len - pos, x64, &in))
			return -EOPNOTSUPP;
		e = insn_apply(&in, &st, ws);
		switch (e) {
		case EFFECT_UNKNOWN:
			return -EOPNOTSUPP;
		case EFFECT_EPILOGUE:
			if (!in_epilogue)
				before_epilogue = prev;
			in_epilogue = true;
			break;
		case EFFECT_RETURN:
			/* the code after it is reached from the body, by a branch */
			if (in_epilogue)
				st = before_epilogue;
			in_epilogue = false;
			break;
		case EFFECT_NONE:
			in_epilogue = false;
			break;
		default:
			break;
		}
		if (st.depth < 0)
			return -EOPNOTSUPP;
		pos += in.len;
	}
	if (pos != ip_off)
		return -ENOENT;
	*rule = (struct unwind_rule){ .ra = UNWIND_LOC_CFA, .ra_off = -(s32)ws,
				      .fp = UNWIND_LOC_SAME, .source = UNWIND_SRC_INSN };
	if (st.fp_set) {
		rule->base = UNWIND_BASE_FP;
		rule->cfa_off = (s32)(ws + st.fp_depth);
	} else {
		rule->base = UNWIND_BASE_SP;
		rule->cfa_off = (s32)(ws + st.depth);
	}
	if (st.fp_pushed) {
		rule->fp = UNWIND_LOC_CFA;
		rule->fp_off = -(s32)(ws + st.fp_slot);
	} else if (!st.depth) {
		rule->source = UNWIND_SRC_ENTRY;
	}
	return 0;
}
