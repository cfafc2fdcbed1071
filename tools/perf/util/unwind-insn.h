/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-insn.h - a frame rule (unwind-rule.h) for an ip inside a function without CFI, from
 * decoding the function's x86 instructions from its first byte up to the ip.
 *
 * What it follows: endbr64/endbr32, push/pop of any register (and push imm, pushf/popf),
 * mov %rsp,%rbp, sub/add $imm,%rsp, lea disp(%rsp),%rsp, mov %rbp,%rsp, leave, ret, and
 * jumps; every other instruction is only measured (prefixes, REX, VEX, EVEX, the 0f, 0f38
 * and 0f3a maps) to find the next one. The decoding is linear: conditional branches fall
 * through, and after a ret or an unconditional jmp the state goes back to what it was before
 * the epilogue that preceded it (the pops, leave or stack release gcc puts in front of a
 * ret in the middle of a function), which is the body's state again for the code after it.
 *
 * Limits: a stack realignment (and $-16,%rsp), any other write to the stack pointer before
 * a frame pointer is set up, or an ip that is not on an instruction boundary of the linear
 * decoding give no rule. The code bytes are untrusted: every read is bounded by len.
 */
#ifndef PERF_UTIL_UNWIND_INSN_H
#define PERF_UTIL_UNWIND_INSN_H

#include <stddef.h>
#include <perf/abi.h>
#include "unwind-rule.h"

/*
 * code: the function's bytes from its entry, len of them (at least up to the ip); ip_off:
 * the ip's offset from the entry; ws: 8 for x86-64 code, 4 for 32-bit code. Returns 0 and
 * the rule (source UNWIND_SRC_ENTRY when nothing is pushed yet and the frame pointer is
 * the caller's, else UNWIND_SRC_INSN), -ENOENT when ip_off is past len or not on an
 * instruction boundary, -EOPNOTSUPP when an instruction before it moves the stack pointer
 * in a way it cannot follow or cannot be decoded.
 */
int unwind_insn__rule(const u8 *code, size_t len, size_t ip_off, u32 ws,
		      struct unwind_rule *rule);

#endif
