/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcore.h - the kernel's memory as an ELF core file: /proc/kcore, or the copy of its text
 * segments that perf record --kcore keeps in a perf.data directory (DIR/kcore_dir/kcore,
 * beside copies of kallsyms and modules; record-kcore.h writes it).
 *
 * The reading side is upstream perf's dso__load_kcore(): once the kernel's symbols are read
 * from a file named "kallsyms" that has a "kcore" (and a "modules") beside it, the kcore's
 * segments become the kernel's maps. Upstream does that for every such kallsyms (an explicit
 * --kallsyms, a --kcore directory's copy, /proc/kallsyms with a readable /proc/kcore), and so
 * do we: what a recording's kernel frames print depends on it (see machine__load_kcore()).
 */
#ifndef PERF_UTIL_KCORE_H
#define PERF_UTIL_KCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <perf/abi.h>
#include <perf/error.h>

struct machine;

/* one PT_LOAD of a kcore: [vaddr, vaddr + len) at file offset offset */
struct kcore_seg {
	u64	vaddr;
	u64	len;		/* min(p_memsz, p_filesz) */
	u64	offset;
	u32	flags;		/* PF_* */
};

/* what an ELF core file says of itself and its loadable segments */
struct kcore_elf {
	unsigned char		ident[16];	/* e_ident */
	u16			type, machine;	/* e_type, e_machine */
	u32			version, flags;	/* e_version, e_flags */
	struct kcore_seg	*segs;		/* owned; the PT_LOADs with bytes, file order */
	size_t			nr_segs;
};

/*
 * Reads the ELF and program headers of the core file open at fd (native byte order, 32 or
 * 64 bits; the header's PN_XNUM escape is followed). A segment whose end wraps around the
 * address space is left out. 0, or a negative errno with err (may be NULL) saying what is
 * wrong with name. kcore__exit() frees what it filled, also after a failure.
 */
int kcore__read(struct kcore_elf *k, int fd, const char *name, struct perf_err *err);
void kcore__exit(struct kcore_elf *k);

/*
 * One line of a modules list (/proc/modules: "name size refs deps state 0xaddr"), as perf's
 * modules__parse() takes it: the name as perf names the module, "[name]", into name (size
 * bytes), and the address after the line's last 'x'. False for a line without both.
 */
bool modules__parse_line(const char *line, char *name, size_t size, u64 *start);

/* what the kallsyms file said, as machine__load_kallsyms() read it */
struct kcore_kallsyms {
	const char	*path;		/* the kallsyms file */
	bool		have_ref;	/* the recorded reference symbol, a function, was found */
	u64		ref_addr;
	bool		have_stext;	/* _stext, a function of the kernel's */
	u64		stext;
};

/*
 * After machine__load_kallsyms() filled the kernel's and the modules' dsos from ks->path:
 * when a "kcore" is beside a file named "kallsyms", as upstream's dso__load_kcore():
 *  - it must fit the recording: the reference symbol (_text) at its recorded address, every
 *    module map at the address the "modules" beside it gives;
 *  - the kernel map becomes the segment holding _stext; the other segments are maps of the
 *    kernel too, in the gaps the BPF programs' maps (KSYMBOL "bpf_prog_*") leave; every
 *    other kernel map (the modules') goes;
 *  - every kallsyms symbol, the modules' too (without their "[module]" tag), belongs to the
 *    kernel, cut at the end of its segment; a symbol in no segment goes.
 * So the modules' frames are [kernel.kallsyms]'s, and an address in no segment (the init
 * text past _etext) has no map. The kernel dso names the kcore (dso->kcore_path), as
 * upstream's long name. Returns 1 when the kcore was taken, 0 when there is none or it does
 * not fit (the kallsyms maps stay), -ENOMEM.
 */
int machine__load_kcore(struct machine *machine, const struct kcore_kallsyms *ks);

#endif
