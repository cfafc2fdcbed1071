// SPDX-License-Identifier: GPL-2.0
/*
 * record-kcore.c - perf record --kcore's copies of kallsyms, modules and the text of kcore
 * (record-kcore.h), as upstream's kcore_copy() makes them.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kcore.h"
#include "record-kcore.h"
#include "sysfile.h"

int record_kcore__readable(const char *proc_dir)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/kcore", proc_dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int write_full(int fd, const void *buf, size_t size)
{
	while (size) {
		ssize_t n = write(fd, buf, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf = (const char *)buf + n;
		size -= (size_t)n;
	}
	return 0;
}

/* dir/name, or -ENAMETOOLONG */
static int path_in(char *buf, size_t size, const char *dir, const char *name)
{
	return snprintf(buf, size, "%s/%s", dir, name) >= (int)size ? -ENAMETOOLONG : 0;
}

/* a new file (O_EXCL), 0400 as upstream's copies; -errno */
static int create_0400(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);

	return fd < 0 ? -errno : fd;
}

/* to_dir/name: the bytes of from_dir/name; with empty_if_missing, none when it is not there */
static int copy_file(const char *from_dir, const char *to_dir, const char *name,
		     bool empty_if_missing, char **bytes, size_t *len, struct perf_err *err)
{
	char from[PATH_MAX], to[PATH_MAX];
	int fd, ret;

	*bytes = NULL;
	*len = 0;
	if (path_in(from, sizeof(from), from_dir, name) || path_in(to, sizeof(to), to_dir, name))
		return perf_err__set(err, ENAMETOOLONG, "%s/%s: path too long", to_dir, name);
	ret = sysfile__read(from, bytes, len);
	/* a kernel without modules has no /proc/modules: its list is empty */
	if (ret == -ENOENT && empty_if_missing)
		ret = 0;
	if (ret)
		return perf_err__set(err, -ret, "cannot read %s: %s", from, strerror(-ret));
	fd = create_0400(to);
	if (fd < 0)
		return perf_err__set(err, -fd, "cannot create %s: %s", to, strerror(-fd));
	ret = write_full(fd, *bytes, *len);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		return perf_err__set(err, -ret, "cannot write %s: %s", to, strerror(-ret));
	return 0;
}

/* upstream's kcore_copy_info: what kallsyms and modules say of the text to copy */
struct kcore_copy_info {
	u64	stext, etext;
	u64	first_symbol, last_symbol;
	u64	first_module;
	u64	first_module_symbol, last_module_symbol;
	u64	*trampolines;		/* the x86 PTI entry trampolines, owned */
	size_t	nr_trampolines;
};

/* one piece of kcore to copy: [addr, addr + len) at offset in kcore, at rel in the copy */
struct kcore_piece {
	u64	addr, len, offset, rel;
	int	remaps;			/* the piece whose bytes it shares, -1: none */
};

static u64 round_down_page(u64 v, u64 page)
{
	return v & ~(page - 1);
}

static u64 round_up_page(u64 v, u64 page)
{
	return (v + page - 1) & ~(page - 1);
}

/* upstream's kcore_copy__process_kallsyms(), over the lines of the copy */
static int kcore_copy__parse_kallsyms(struct kcore_copy_info *kci, char *text, size_t len)
{
	char *line = text, *end = text + len;

	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line)), *p, *name;
		u64 start;
		char type;

		if (nl)
			*nl = '\0';
		p = line;
		line = nl ? nl + 1 : end;
		start = strtoull(p, &p, 16);
		if (*p != ' ' || !p[1] || p[2] != ' ')
			continue;
		type = (char)toupper((unsigned char)p[1]);
		name = p + 3;
		/* the functions only (kallsyms__is_function()) */
		if (type != 'T' && type != 'W')
			continue;
		if (strchr(name, '[')) {
			if (!kci->first_module_symbol || start < kci->first_module_symbol)
				kci->first_module_symbol = start;
			if (start > kci->last_module_symbol)
				kci->last_module_symbol = start;
			continue;
		}
		if (!kci->first_symbol || start < kci->first_symbol)
			kci->first_symbol = start;
		if (!kci->last_symbol || start > kci->last_symbol)
			kci->last_symbol = start;
		if (!strcmp(name, "_stext")) {
			kci->stext = start;
		} else if (!strcmp(name, "_etext")) {
			kci->etext = start;
		} else if (!strcmp(name, "__entry_SYSCALL_64_trampoline")) {
			u64 *t = realloc(kci->trampolines, (kci->nr_trampolines + 1) * sizeof(*t));

			if (!t)
				return -ENOMEM;
			kci->trampolines = t;
			t[kci->nr_trampolines++] = start;
		}
	}
	return 0;
}

/* upstream's kcore_copy__process_modules(): the lowest module address */
static void kcore_copy__parse_modules(struct kcore_copy_info *kci, char *text, size_t len)
{
	char *line = text, *end = text + len;

	while (line && line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		u64 start;
		bool ok;

		if (nl)
			*nl = '\0';
		ok = modules__parse_line(line, NULL, 0, &start);
		line = nl ? nl + 1 : end;
		if (ok && (!kci->first_module || start < kci->first_module))
			kci->first_module = start;
	}
}

struct kcore_pieces {
	struct kcore_piece	*p;
	size_t			nr;
};

/* upstream's kcore_copy__map(): the part of [s, e) a segment at [start, end) holds */
static int kcore_pieces__map(struct kcore_pieces *kp, const struct kcore_seg *seg, u64 s, u64 e)
{
	u64 start = seg->vaddr, end = seg->vaddr + seg->len;
	struct kcore_piece *n;

	if (s < start || s >= end)
		return 0;
	n = realloc(kp->p, (kp->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	kp->p = n;
	n[kp->nr++] = (struct kcore_piece){
		.addr = s, .len = (e < end ? e : end) - s, .offset = s - start + seg->offset,
		.remaps = -1,
	};
	return 0;
}

/* upstream's kcore_copy__calc_maps() on kallsyms' and modules' copies and kcore's headers */
static int kcore_copy__pieces(struct kcore_copy_info *kci, const struct kcore_elf *k, u64 page,
			      struct kcore_pieces *kp, struct perf_err *err)
{
	int k_idx = -1;
	u64 rel = 0;

	kci->stext = round_down_page(kci->stext ? kci->stext : kci->first_symbol, page);
	if (kci->etext)
		kci->etext = round_up_page(kci->etext, page);
	else if (kci->last_symbol)
		kci->etext = round_up_page(kci->last_symbol, page) + page;
	if (kci->first_module_symbol &&
	    (!kci->first_module || kci->first_module_symbol < kci->first_module))
		kci->first_module = kci->first_module_symbol;
	kci->first_module = round_down_page(kci->first_module, page);
	if (kci->last_module_symbol)
		kci->last_module_symbol = round_up_page(kci->last_module_symbol, page) + page;
	if (!kci->stext || !kci->etext)
		return perf_err__set(err, EINVAL, "kallsyms has no kernel text (all addresses zero: kptr_restrict?)");
	if (kci->first_module && !kci->last_module_symbol)
		return perf_err__set(err, EINVAL, "kallsyms has modules but no module function");
	/* the executable segments, as upstream's elf_read_maps(elf, true) */
	for (size_t i = 0; i < k->nr_segs; i++) {
		const struct kcore_seg *seg = &k->segs[i];

		if (!(seg->flags & PF_X))
			continue;
		if (kcore_pieces__map(kp, seg, kci->stext, kci->etext) ||
		    kcore_pieces__map(kp, seg, kci->first_module, kci->last_module_symbol))
			return perf_err__set(err, ENOMEM, "out of memory");
		/* the trampoline's page, and as far as upstream takes it: the segment's length */
		for (size_t t = 0; t < kci->nr_trampolines; t++) {
			u64 s = round_down_page(kci->trampolines[t], page);

			if (kcore_pieces__map(kp, seg, s, s + seg->len))
				return perf_err__set(err, ENOMEM, "out of memory");
		}
	}
	if (!kp->nr)
		return perf_err__set(err, EINVAL, "no segment of kcore holds the kernel text at %#llx",
				     (unsigned long long)kci->stext);
	/* upstream's kcore_copy__layout(): pieces inside the kernel's share its bytes */
	for (size_t i = 0; i < kp->nr; i++)
		if (kp->p[i].addr <= kci->stext && kp->p[i].addr + kp->p[i].len - 1 >= kci->stext) {
			k_idx = (int)i;
			break;
		}
	for (size_t i = 0; k_idx >= 0 && i < kp->nr; i++) {
		const struct kcore_piece *kk = &kp->p[k_idx];

		if ((int)i != k_idx && kp->p[i].offset >= kk->offset &&
		    kp->p[i].offset + kp->p[i].len <= kk->offset + kk->len)
			kp->p[i].remaps = k_idx;
	}
	for (size_t i = 0; i < kp->nr; i++)
		if (kp->p[i].remaps < 0) {
			kp->p[i].rel = rel;
			rel += kp->p[i].len;
		}
	for (size_t i = 0; i < kp->nr; i++) {
		const struct kcore_piece *kk = kp->p[i].remaps >= 0 ? &kp->p[kp->p[i].remaps] : NULL;

		if (kk)
			kp->p[i].rel = kp->p[i].offset - kk->offset + kk->rel;
	}
	return 0;
}

/* the ELF header and program headers of the copy, as upstream's kcore__copy_hdr() */
static int kcore_copy__write_headers(int fd, const struct kcore_elf *k,
				     const struct kcore_pieces *kp, u64 data_off, u64 page)
{
	bool is64 = k->ident[EI_CLASS] == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t size = ehsize + kp->nr * phsize;
	unsigned char *buf = calloc(1, size);
	int ret;

	if (!buf)
		return -ENOMEM;
	if (is64) {
		Elf64_Ehdr eh = {
			.e_type = k->type, .e_machine = k->machine, .e_version = k->version,
			.e_phoff = ehsize, .e_flags = k->flags, .e_ehsize = (Elf64_Half)ehsize,
			.e_phentsize = (Elf64_Half)phsize, .e_phnum = (Elf64_Half)kp->nr,
		};

		memcpy(eh.e_ident, k->ident, EI_NIDENT);
		memcpy(buf, &eh, sizeof(eh));
		for (size_t i = 0; i < kp->nr; i++) {
			Elf64_Phdr ph = {
				.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
				.p_offset = kp->p[i].rel + data_off, .p_vaddr = kp->p[i].addr,
				.p_filesz = kp->p[i].len, .p_memsz = kp->p[i].len, .p_align = page,
			};

			memcpy(buf + ehsize + i * phsize, &ph, sizeof(ph));
		}
	} else {
		Elf32_Ehdr eh = {
			.e_type = k->type, .e_machine = k->machine, .e_version = k->version,
			.e_phoff = (Elf32_Off)ehsize, .e_flags = k->flags,
			.e_ehsize = (Elf32_Half)ehsize, .e_phentsize = (Elf32_Half)phsize,
			.e_phnum = (Elf32_Half)kp->nr,
		};

		memcpy(eh.e_ident, k->ident, EI_NIDENT);
		memcpy(buf, &eh, sizeof(eh));
		for (size_t i = 0; i < kp->nr; i++) {
			Elf32_Phdr ph = {
				.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
				.p_offset = (Elf32_Off)(kp->p[i].rel + data_off),
				.p_vaddr = (Elf32_Addr)kp->p[i].addr,
				.p_filesz = (Elf32_Word)kp->p[i].len,
				.p_memsz = (Elf32_Word)kp->p[i].len, .p_align = (Elf32_Word)page,
			};

			memcpy(buf + ehsize + i * phsize, &ph, sizeof(ph));
		}
	}
	ret = write_full(fd, buf, size);
	free(buf);
	return ret;
}

/* len bytes of from at from_off to to at to_off (upstream's copy_bytes(): stops at an end) */
static int copy_range(int from, u64 from_off, int to, u64 to_off, u64 len)
{
	size_t bufsize = 1 << 20;
	char *buf = malloc(bufsize);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (len) {
		size_t n = len < bufsize ? (size_t)len : bufsize;
		ssize_t r = pread(from, buf, n, (off_t)from_off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : 0;
			break;
		}
		if (lseek(to, (off_t)to_off, SEEK_SET) < 0) {
			ret = -errno;
			break;
		}
		ret = write_full(to, buf, (size_t)r);
		if (ret)
			break;
		from_off += (u64)r;
		to_off += (u64)r;
		len -= (u64)r;
	}
	free(buf);
	return ret;
}

/* to_dir/kcore: the pieces of from_dir/kcore that kallsyms and modules say hold code */
static int kcore_copy__kcore(const char *from_dir, const char *to_dir, struct kcore_copy_info *kci,
			     struct perf_err *err)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct kcore_pieces kp = { 0 };
	u64 page = (u64)sysconf(_SC_PAGESIZE), data_off;
	struct kcore_elf k;
	int in, out = -1, ret;

	if (path_in(from, sizeof(from), from_dir, "kcore") ||
	    path_in(to, sizeof(to), to_dir, "kcore"))
		return perf_err__set(err, ENAMETOOLONG, "%s/kcore: path too long", to_dir);
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return perf_err__set(err, errno, "cannot open %s: %m", from);
	ret = kcore__read(&k, in, from, err);
	if (!ret)
		ret = kcore_copy__pieces(kci, &k, page, &kp, err);
	if (ret)
		goto out;
	out = create_0400(to);
	if (out < 0) {
		ret = perf_err__set(err, -out, "cannot create %s: %s", to, strerror(-out));
		goto out;
	}
	data_off = (k.ident[EI_CLASS] == ELFCLASS64 ?
		    sizeof(Elf64_Ehdr) + kp.nr * sizeof(Elf64_Phdr) :
		    sizeof(Elf32_Ehdr) + kp.nr * sizeof(Elf32_Phdr));
	data_off = round_up_page(data_off, page);
	ret = kcore_copy__write_headers(out, &k, &kp, data_off, page);
	for (size_t i = 0; !ret && i < kp.nr; i++)
		if (kp.p[i].remaps < 0)
			ret = copy_range(in, kp.p[i].offset, out, kp.p[i].rel + data_off, kp.p[i].len);
	if (close(out) && !ret)
		ret = -errno;
	if (ret)
		ret = perf_err__set(err, -ret, "cannot copy %s to %s: %s", from, to, strerror(-ret));
out:
	close(in);
	kcore__exit(&k);
	free(kp.p);
	return ret;
}

/* the files kcore__copy() writes, in the order it writes them */
static const char *const kcore_files[] = { "kallsyms", "modules", "kcore" };

static void kcore_copy__unlink(const char *to_dir)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(kcore_files) / sizeof(kcore_files[0]); i++)
		if (!path_in(path, sizeof(path), to_dir, kcore_files[i]))
			unlink(path);
}

/* 0 when to_dir/kallsyms holds exactly bytes, -EAGAIN when not, else -errno */
static int kallsyms_copy__same(const char *to_dir, const char *bytes, size_t len)
{
	char path[PATH_MAX], *copy;
	size_t copy_len;
	int ret;

	if (path_in(path, sizeof(path), to_dir, "kallsyms"))
		return -ENAMETOOLONG;
	ret = sysfile__read(path, &copy, &copy_len);
	if (ret)
		return ret;
	ret = copy_len == len && !memcmp(copy, bytes, len) ? 0 : -EAGAIN;
	free(copy);
	return ret;
}

int kcore__copy(const char *from_dir, const char *to_dir, struct perf_err *err)
{
	struct kcore_copy_info kci = { 0 };
	char *kallsyms = NULL, *modules = NULL, *again = NULL, from[PATH_MAX];
	size_t kallsyms_len, modules_len, again_len;
	int ret;

	ret = copy_file(from_dir, to_dir, "kallsyms", false, &kallsyms, &kallsyms_len, err);
	if (!ret)
		ret = copy_file(from_dir, to_dir, "modules", true, &modules, &modules_len, err);
	if (ret)
		goto out;
	/* parsed in place: the copies on disk are what kallsyms is compared with at the end */
	if (kcore_copy__parse_kallsyms(&kci, kallsyms, kallsyms_len)) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out;
	}
	kcore_copy__parse_modules(&kci, modules, modules_len);
	ret = kcore_copy__kcore(from_dir, to_dir, &kci, err);
	if (ret)
		goto out;
	/* a module loaded or unloaded while we copied: the copies do not fit together */
	free(kallsyms);
	kallsyms = NULL;
	if (path_in(from, sizeof(from), from_dir, "kallsyms")) {
		ret = perf_err__set(err, ENAMETOOLONG, "%s/kallsyms: path too long", from_dir);
		goto out;
	}
	ret = sysfile__read(from, &again, &again_len);
	if (ret) {
		perf_err__set(err, -ret, "cannot read %s: %s", from, strerror(-ret));
		goto out;
	}
	ret = kallsyms_copy__same(to_dir, again, again_len);
	if (ret == -EAGAIN)
		perf_err__set(err, EAGAIN, "%s changed while kcore was copied (a module was loaded or unloaded): try again",
			      from);
	else if (ret)
		perf_err__set(err, -ret, "cannot read the copy of %s: %s", from, strerror(-ret));
out:
	if (ret)
		kcore_copy__unlink(to_dir);
	free(kallsyms);
	free(modules);
	free(again);
	free(kci.trampolines);
	return ret;
}

int record_kcore__mkdir(const char *out, const char *proc_dir, struct perf_err *err)
{
	char kdir[PATH_MAX];
	int ret;

	if (path_in(kdir, sizeof(kdir), out, "kcore_dir"))
		return perf_err__set(err, ENAMETOOLONG, "%s/kcore_dir: path too long", out);
	if (mkdir(out, S_IRWXU))
		return perf_err__set(err, errno, "cannot create the directory %s: %m", out);
	if (mkdir(kdir, S_IRWXU)) {
		ret = perf_err__set(err, errno, "cannot create the directory %s: %m", kdir);
		rmdir(out);
		return ret;
	}
	ret = kcore__copy(proc_dir, kdir, err);
	if (ret) {
		rmdir(kdir);
		rmdir(out);
	}
	return ret;
}
