/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind-dwarf.h - DWARF CFI of user DSOs (libdw) and a full CFI unwinding of a sample's user
 * stack (user regs + stack dump, as `perf record --call-graph dwarf` writes them); also the
 * CFI row at one address as a struct unwind_rule (unwind-rule.h), for the FP walk's repair
 * of the topmost frame.
 *
 * The CFI of a DSO is its dso_file's (dso-file.h: .eh_frame of the DSO's own file, and
 * .debug_frame of that file or of its debug file, build ids checked; [vdso] from the build-id
 * cache or this process's own vDSO), opened at most once; this module owns, per session, a
 * cache of the rows found per (DSO, address). The rows are keyed by the dso's CFI: the dsos
 * must live as long as the unwinder (the machine's table holds them until it is freed).
 * Addresses are turned into ELF addresses through the map (file offset -> PT_LOAD vaddr).
 *
 * Registers: x86-64 only (PERF_SAMPLE_REGS_ABI_64); the DWARF numbers 0-16 (rax, rdx, rcx,
 * rbx, rsi, rdi, rbp, rsp, r8-r15, RA = rip) are taken from the sample's user regs by their
 * perf_event_x86_regs bits; a register the sample lacks is unknown, and a rule that needs it
 * ends the walk.
 *
 * The walk is the CFI provider of the one validated step (unwind-step.h): each frame's row
 * is evaluated over that frame's registers (CFA expressions such as PLT entries', registers
 * saved in registers, a signal frame's restoring every register) into a rule of the
 * step's form, and unwind_step() applies it with its checks: the dump read in the file's
 * byte order and only its first user_stack_dyn_size bytes (at most user_stack_size), the
 * CFA strictly increasing, RA and rbp slots in [SP, CFA), at most UNWIND_MAX_FRAMES frames.
 * The registers, the dump and the CFI are untrusted.
 *
 * Not thread safe: one struct unwind_dwarf per session (or per thread of a tool).
 */
#ifndef PERF_UTIL_UNWIND_DWARF_H
#define PERF_UTIL_UNWIND_DWARF_H

#include <perf/abi.h>
#include <stdbool.h>
#include "unwind-step.h"

struct unwind_dwarf;
struct thread;
struct perf_sample;
struct symbol_conf;

/*
 * conf is borrowed and must outlive the result; NULL means no symfs and the default
 * build-id dir. NULL on allocation failure.
 */
struct unwind_dwarf *unwind_dwarf__new(const struct symbol_conf *conf);
/* NULL-safe; frees the rows (the CFI stays with the dsos) */
void unwind_dwarf__delete(struct unwind_dwarf *ud);

/*
 * The CFI row for ip in thread's address space as a struct unwind_rule (source
 * UNWIND_SRC_CFI): CFA from SP or FP (rbp) plus an offset, RA saved at an offset from the
 * CFA, rbp either saved at an offset from the CFA or unchanged. Returns 0, -ENOENT (no
 * map, no DSO file, or no CFI covers ip), -EOPNOTSUPP (the row is not representable as a
 * rule: CFA from another register or an expression, RA or rbp in a register, ...).
 * gcc's epilogues keep "rbp saved at CFA-16" after `pop %rbp`, up to the `ret`: a slot
 * below SP is dead, rbp already holds the caller's value, so the rule says fp unchanged
 * (the walk below does the same). The outermost frame (RA undefined) is -EOPNOTSUPP too.
 * rule is written only on 0. ip is a sampled address (a return address minus one for
 * callers' frames, as the caller prefers).
 */
int unwind_dwarf__rule(struct unwind_dwarf *ud, struct thread *thread, u64 ip,
		       struct unwind_rule *rule);

/*
 * A full DWARF unwinding of sample's user stack: ips[0] is the user ip (the sample's user
 * regs' ip), then each caller's call site, innermost first, at most max. A caller's ip is
 * its return address minus one, except above a signal frame (CIE augmentation 'S'), where
 * the interrupted ip is itself: exactly the addresses upstream perf's libdw unwinder puts
 * in the callchain (dwfl_frame_pc()'s isactivation), so script and report print the same.
 * swapped: the file is in the other byte order (its dump is read so). Returns the count
 * (>= 0; 0 when max is 0) or a negative errno (-EINVAL: no user regs ip and sp in the
 * sample, or not the 64-bit ABI; -ENOMEM). *why (may be NULL): UNWIND_STOP_END when the
 * walk reached the outermost frame (RA undefined or 0, rbp 0 in a frame without CFI),
 * UNWIND_OK when max was reached first, else why it stopped. Frames found before it
 * stopped are returned either way.
 *
 * The CFI of a caller is looked up at that same ip (inside the call instruction); an ip
 * no CFI covers gets the frame-pointer rule, as libdwfl's x86-64 backend falls back on.
 */
int unwind_dwarf__walk(struct unwind_dwarf *ud, struct thread *thread,
		       const struct perf_sample *sample, bool swapped, u64 *ips, u32 max,
		       enum unwind_stop *why);

#endif /* PERF_UTIL_UNWIND_DWARF_H */
