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
 * Untrusted input: the registers, the dump (only its first user_stack_dyn_size bytes, at
 * most user_stack_size, are read), and the CFI itself. Every stack read is bounded by the
 * dump, the CFA must strictly increase from frame to frame, at most UNWIND_DWARF_MAX_FRAMES.
 *
 * Not thread safe: one struct unwind_dwarf per session (or per thread of a tool).
 *
 * Adjustments to the API in /work/notes/unwind-iface.md: unwind_dwarf__new() takes the
 * command's symbol_conf (symfs, build-id dir), which lookups need and a thread cannot give;
 * unwind_dwarf__walk() returns callers' ips as return address - 1 (see there).
 */
#ifndef PERF_UTIL_UNWIND_DWARF_H
#define PERF_UTIL_UNWIND_DWARF_H

#include <perf/abi.h>
#include "unwind-rule.h"

/* as the kernel's and perf's limit on a callchain's user part */
#define UNWIND_DWARF_MAX_FRAMES	510

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
 * in the callchain (dwfl_frame_pc()'s isactivation), so script and report print the same. Returns the count
 * (>= 0; 0 when max is 0 or the sample has no user regs ip) or a negative errno (-EINVAL:
 * no user regs / stack in the sample, or not the 64-bit ABI; -ENOMEM). *why (may be NULL)
 * is set to NULL when the walk ended normally (outermost frame: RA undefined or 0) and to
 * a short static reason otherwise ("no CFI", "read outside the stack dump", "CFA did not
 * increase", ...). Frames found before the walk stopped are returned either way.
 *
 * The CFI of a caller is looked up at that same ip (inside the call instruction).
 */
int unwind_dwarf__walk(struct unwind_dwarf *ud, struct thread *thread,
		       const struct perf_sample *sample, u64 *ips, u32 max,
		       const char **why);

#endif /* PERF_UTIL_UNWIND_DWARF_H */
