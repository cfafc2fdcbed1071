// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <perf/helper-threads.h>
#include <perf/kernel.h>
#include "build-id.h"
#include "kallsyms.h"
#include "kcore.h"
#include "machine.h"
#include "symbol-elf.h"

/* the symbol types perf keeps from kallsyms: text, weak, and data/bss */
static bool kallsyms_type_wanted(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* upstream's kallsyms__is_function() */
static bool kallsyms_type_function(char type)
{
	char t = (char)toupper((unsigned char)type);

	return t == 'T' || t == 'W';
}

/* perf's binding for a kallsyms letter: it decides which of two aliases is kept */
static u8 kallsyms_binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

static struct dso *module_dso(struct machine *machine, const char *mod, size_t len)
{
	char name[256];

	snprintf(name, sizeof(name), "[%.*s]", (int)len, mod);
	return dsos__findnew(&machine->dsos, name, DSO_KIND_KMODULE);
}

/* notes blob records: namesz, descsz, type, name and desc, the last two padded to 4 bytes */
/* does the recorded build id of dso name what the running system has at notes_path? */
static bool dso__build_id_is_running(const struct dso *dso, const char *notes_path)
{
	u8 id[20];
	size_t size;

	if (build_id__read_notes(notes_path, id, &size))
		return false;
	return size == dso->build_id_size && !memcmp(id, dso->build_id, size);
}

/* the kallsyms copy perf record keeps for this build id (new layout, then the old one) */
static bool kallsyms__cached(const char *root, const char *dir, const char *hex, char *path,
			     size_t size)
{
	static const char *const layouts[] = { "%s%s/[kernel.kallsyms]/%s/kallsyms",
					       "%s%s/[kernel.kallsyms]/%s" };

	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		struct stat st;

		if (snprintf(path, size, layouts[i], root, dir, hex) >= (int)size)
			continue;
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* fmt (one %s: arg) under conf->running_root; "" when it does not fit */
static const char *running_path(const struct symbol_conf *conf, const char *fmt, const char *arg,
				char *buf, size_t size)
{
	const char *root = conf && conf->running_root ? conf->running_root : "";
	int n = snprintf(buf, size, "%s", root);

	if (n < 0 || (size_t)n >= size || snprintf(buf + n, size - n, fmt, arg) >= (int)(size - n))
		buf[0] = '\0';
	return buf;
}

/*
 * Where the kernel's symbols come from, as perf chooses: an explicit --kallsyms is trusted,
 * and so is the copy a perf.data directory brought (perf record --kcore); /proc/kallsyms
 * when the recording has no kernel build id or names the running kernel; else the build-id
 * cache (then the same cache under --symfs). 0 with path filled, or -ENOENT with
 * machine->kernel_warning saying so (the symbols stay unknown).
 */
static int machine__kallsyms_path(struct machine *machine, char *path, size_t size)
{
	const struct symbol_conf *conf = machine->conf;
	const struct dso *kernel = machine->kernel_dso;
	char hex[41], dirbuf[PATH_MAX], notes[PATH_MAX];
	const char *dir;

	if (conf && conf->kallsyms) {
		snprintf(path, size, "%s", conf->kallsyms);
		return 0;
	}
	if (machine->dir_kallsyms) {
		snprintf(path, size, "%s", machine->dir_kallsyms);
		return 0;
	}
	if (!kernel->has_build_id || !kernel->build_id_size ||
	    dso__build_id_is_running(kernel, running_path(conf, "/sys/kernel/notes", "", notes,
							  sizeof(notes)))) {
		running_path(conf, "/proc/kallsyms", "", path, size);
		machine->kallsyms_is_running = true;
		return 0;
	}
	dso__build_id_hex(kernel, hex);
	dir = symbol_conf__buildid_dir(conf, dirbuf, sizeof(dirbuf));
	if (dir && kallsyms__cached("", dir, hex, path, size))
		return 0;
	if (dir && conf && conf->symfs && conf->symfs[0] &&
	    kallsyms__cached(conf->symfs, dir, hex, path, size))
		return 0;
	snprintf(machine->kernel_warning, sizeof(machine->kernel_warning),
		 "No kallsyms or vmlinux with build-id %s was found", hex);
	return -ENOENT;
}

/*
 * Module symbols of the running kernel's kallsyms belong to the recorded module only if
 * its build id (when the recording has one) is the loaded module's.
 */
static bool module__matches_running(const struct machine *machine, const struct dso *dso)
{
	char name[256], notes[PATH_MAX];

	if (!dso->has_build_id || !dso->build_id_size)
		return true;
	/* "[name]" -> name */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(dso->long_name + 1, "]"),
		 dso->long_name + 1);
	running_path(machine->conf, "/sys/module/%s/notes/.note.gnu.build-id", name, notes,
		     sizeof(notes));
	return notes[0] && dso__build_id_is_running(dso, notes);
}

/*
 * perf moves the kernel map over the kernel's symbols once they are loaded (map__fixup_start
 * and map__fixup_end): an -a profile has samples in the init text, which lies past the end
 * of the recorded kernel MMAP (that ends at _etext).
 */
static void machine__fit_kernel_map(struct machine *machine)
{
	const struct symbols *syms = &machine->kernel_dso->symbols;
	struct map *map = machine->kernel_map;
	u64 first, last;

	if (!map || !syms->nr)
		return;
	/* perf's: the first symbol's start, the end of the one that starts last */
	first = syms->syms[0].start;
	last = syms->syms[syms->nr - 1].end;
	/* back from the kallsyms address space to the recorded one */
	maps__set_range(machine->kmaps, map, first - (u64)map->reloc, last - (u64)map->reloc);
	/* resolutions cached before the move are stale only if one of them missed */
	if (machine->kernel_missed)
		machine->maps_gen++;
}

/* -k: the sections of the vmlinux that got symbols, and the dso each went to */
struct vmlinux_load {
	struct machine		*machine;
	struct vmlinux_section {
		char		*name;		/* owned */
		u64		addr, size, offset;
		struct dso	*dso;
	}			*secs;		/* owned */
	size_t			nr_secs;
};

/*
 * As perf: .text's symbols are the kernel's, each other section's go to a dso of their own,
 * "[kernel.kallsyms]<section>", mapped over that section
 */
static struct dso *vmlinux__section_dso(void *arg, const char *name, u64 addr, u64 size,
					u64 offset)
{
	struct vmlinux_load *vl = arg;
	struct vmlinux_section *sec;
	char *dso_name;

	/* the last one first: symbols come section by section */
	for (size_t i = vl->nr_secs; i-- > 0;)
		if (!strcmp(vl->secs[i].name, name))
			return vl->secs[i].dso;
	sec = realloc(vl->secs, (vl->nr_secs + 1) * sizeof(*sec));
	if (!sec)
		return NULL;
	vl->secs = sec;
	sec = &vl->secs[vl->nr_secs];
	*sec = (struct vmlinux_section){
		.name = strdup(name), .addr = addr, .size = size, .offset = offset,
	};
	if (!sec->name)
		return NULL;
	vl->nr_secs++;
	if (!strcmp(name, ".text")) {
		sec->dso = vl->machine->kernel_dso;
		return sec->dso;
	}
	if (asprintf(&dso_name, "[kernel.kallsyms]%s", name) < 0)
		return NULL;
	sec->dso = dsos__findnew(&vl->machine->dsos, dso_name, DSO_KIND_KERNEL);
	free(dso_name);
	return sec->dso;
}

/*
 * Maps the sections of the vmlinux at their recorded addresses (address + reloc is the
 * file's). Each section's dso gets the section as its one segment: perf's symbols there are
 * at file offsets, which a caller's symoff shows (see hists), and names the file for -v.
 */
static int vmlinux__map_sections(struct machine *machine, struct vmlinux_load *vl, s64 reloc,
				 const char *path)
{
	for (size_t i = 0; i < vl->nr_secs; i++) {
		const struct vmlinux_section *sec = &vl->secs[i];
		struct dso *dso = sec->dso;
		struct map *map;
		int ret;

		symbols__fixup(&dso->symbols, false);
		symbols__seal(&dso->symbols);
		dso->loaded = true;
		dso->load_errno = 0;
		free(dso->segs);
		dso->segs = calloc(1, sizeof(*dso->segs));
		free(dso->symsrc_path);
		dso->symsrc_path = strdup(path);
		if (!dso->segs || !dso->symsrc_path)
			return -ENOMEM;
		dso->segs[0] = (struct dso_segment){
			.file_off = sec->offset, .file_size = sec->size, .vaddr = sec->addr,
		};
		dso->nr_segs = 1;
		dso->is_exec = true;
		/* perf's map of a section: its address, at its file offset */
		dso->vmlinux_unmap = sec->addr - (u64)reloc - sec->offset;
		if (dso == machine->kernel_dso) {
			/* perf moves the kernel map onto .text */
			if (machine->kernel_map) {
				maps__set_range(machine->kmaps, machine->kernel_map,
						sec->addr - (u64)reloc,
						sec->addr + sec->size - (u64)reloc);
				machine->kernel_map->pgoff = sec->offset;
			}
			continue;
		}
		map = map__new(sec->addr - (u64)reloc, sec->size, sec->offset, dso);
		if (!map)
			return -ENOMEM;
		map->reloc = reloc;
		ret = maps__insert(machine->kmaps, map);
		map__put(map);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * -k FILE (a relative one under --symfs, an absolute one as it is, as perf takes them): the
 * kernel's symbols from a vmlinux ELF whose build id is the recorded one, relocated by the
 * recorded reference symbol. 0, or negative when the file is no such vmlinux: the kernel
 * then has no symbols (perf falls back on nothing either, and says nothing; we say why).
 */
static int machine__load_vmlinux(struct machine *machine)
{
	const struct symbol_conf *conf = machine->conf;
	struct dso *kernel = machine->kernel_dso;
	struct vmlinux_load vl = { .machine = machine };
	char path[PATH_MAX];
	struct symsrc ss;
	u64 ref_addr = 0;
	s64 reloc = 0;
	int ret;

	if (conf->vmlinux[0] == '/' || !conf->symfs || !conf->symfs[0])
		ret = snprintf(path, sizeof(path), "%s", conf->vmlinux);
	else
		ret = snprintf(path, sizeof(path), "%s/%s", conf->symfs, conf->vmlinux);
	if (ret < 0 || ret >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = symsrc__init(&ss, path, kernel->has_build_id ? kernel->build_id : NULL,
			   kernel->build_id_size);
	if (ret)
		return ret;
	ss.demangle = conf->demangle_kernel;
	ret = vmlinux__load_sym(&ss, machine->ref_reloc_sym_name, &ref_addr,
				vmlinux__section_dso, &vl);
	symsrc__exit(&ss);
	if (ret <= 0) {
		/* what went in is not perf's table: kallsyms starts from nothing */
		for (size_t i = 0; i < vl.nr_secs; i++) {
			if (!vl.secs[i].dso)
				continue;
			symbols__exit(&vl.secs[i].dso->symbols);
			symbols__init(&vl.secs[i].dso->symbols);
		}
		if (!ret)
			ret = -DSO_LOAD_ERRNO__NO_SYMBOLS;
		goto out_free;
	}
	if (ref_addr && machine->ref_reloc_sym_addr)
		reloc = (s64)(ref_addr - machine->ref_reloc_sym_addr);
	if (machine->kernel_map)
		machine->kernel_map->reloc = reloc;
	ret = vmlinux__map_sections(machine, &vl, reloc, path);
	if (ret)
		goto out_free;
	/* resolutions cached before the maps moved are stale */
	machine->maps_gen++;
out_free:
	for (size_t i = 0; i < vl.nr_secs; i++)
		free(vl.secs[i].name);
	free(vl.secs);
	return ret;
}

/*
 * The file read on a thread of its own while its lines are parsed: /proc/kallsyms costs the
 * kernel about as long to print as us to parse, and the first kernel sample waits for both.
 * The bytes and their order are the file's, whoever reads them.
 */
struct feed_chunk {
	struct feed_chunk	*next;
	size_t			len;
	char			data[];
};

struct chunk_feed {
	struct helper_thread	thread;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	int			fd;
	struct feed_chunk	*head, *tail;	/* read, not taken yet */
	unsigned int		queued;
	bool			done;		/* the end was read (or an error, taken as the end) */
	bool			stop;		/* the parser gave up */
};

#define LINE_READER_CHUNK	(256 << 10)
#define FEED_MAX_QUEUED		8

static void chunk_feed__run(void *arg)
{
	struct chunk_feed *cf = arg;
	bool end = false;


	while (!end) {
		struct feed_chunk *c = malloc(sizeof(*c) + LINE_READER_CHUNK);

		if (!c)
			break;
		c->next = NULL;
		c->len = 0;
		while (c->len < LINE_READER_CHUNK) {
			ssize_t n = read(cf->fd, c->data + c->len, LINE_READER_CHUNK - c->len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				end = true;
				break;
			}
			c->len += (size_t)n;
		}
		pthread_mutex_lock(&cf->lock);
		while (cf->queued >= FEED_MAX_QUEUED && !cf->stop)
			pthread_cond_wait(&cf->cond, &cf->lock);
		if (cf->stop) {
			pthread_mutex_unlock(&cf->lock);
			free(c);
			return;
		}
		if (c->len) {
			if (cf->tail)
				cf->tail->next = c;
			else
				cf->head = c;
			cf->tail = c;
			cf->queued++;
		} else {
			free(c);
		}
		pthread_cond_broadcast(&cf->cond);
		pthread_mutex_unlock(&cf->lock);
	}
	pthread_mutex_lock(&cf->lock);
	cf->done = true;
	pthread_cond_broadcast(&cf->cond);
	pthread_mutex_unlock(&cf->lock);
}

/* the next chunk in file order, NULL at the end; the caller frees it */
static struct feed_chunk *chunk_feed__take(struct chunk_feed *cf)
{
	struct feed_chunk *c;

	pthread_mutex_lock(&cf->lock);
	while (!cf->head && !cf->done)
		pthread_cond_wait(&cf->cond, &cf->lock);
	c = cf->head;
	if (c) {
		cf->head = c->next;
		if (!cf->head)
			cf->tail = NULL;
		cf->queued--;
		pthread_cond_broadcast(&cf->cond);
	}
	pthread_mutex_unlock(&cf->lock);
	return c;
}

/* NULL: no slot of hb is free (a DWARF opener has it), or no memory: read(2) here */
static struct chunk_feed *chunk_feed__start(int fd, struct helper_budget *hb)
{
	struct chunk_feed *cf = calloc(1, sizeof(*cf));

	if (!cf)
		return NULL;
	cf->fd = fd;
	pthread_mutex_init(&cf->lock, NULL);
	pthread_cond_init(&cf->cond, NULL);
	if (!helper_thread__start(&cf->thread, hb, chunk_feed__run, cf, HELPER_REFUSE)) {
		pthread_cond_destroy(&cf->cond);
		pthread_mutex_destroy(&cf->lock);
		free(cf);
		return NULL;
	}
	return cf;
}

static void chunk_feed__stop(struct chunk_feed *cf)
{
	if (!cf)
		return;
	pthread_mutex_lock(&cf->lock);
	cf->stop = true;
	pthread_cond_broadcast(&cf->cond);
	pthread_mutex_unlock(&cf->lock);
	helper_thread__join(&cf->thread);
	while (cf->head) {
		struct feed_chunk *c = cf->head;

		cf->head = c->next;
		free(c);
	}
	pthread_cond_destroy(&cf->cond);
	pthread_mutex_destroy(&cf->lock);
	free(cf);
}

/* reads a file line by line in large chunks: /proc/kallsyms in 1 KiB reads costs 5000 calls */
struct line_reader {
	int			fd;
	struct chunk_feed	*feed;		/* NULL: read(2) here */
	char			*buf;
	size_t			size, start, end;
	bool			eof;
};

/* the next line without its newline, NUL-terminated in place; NULL at the end */
static char *line_reader__next(struct line_reader *lr)
{
	for (;;) {
		char *nl = memchr(lr->buf + lr->start, '\n', lr->end - lr->start);
		ssize_t n;

		if (nl) {
			char *line = lr->buf + lr->start;

			*nl = '\0';
			lr->start = (size_t)(nl + 1 - lr->buf);
			return line;
		}
		if (lr->eof) {
			char *line = lr->buf + lr->start;

			if (lr->start == lr->end)
				return NULL;
			/* a last line without a newline: the buffer always has room for a NUL */
			lr->buf[lr->end] = '\0';
			lr->start = lr->end;
			return line;
		}
		if (lr->start) {
			memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
			lr->end -= lr->start;
			lr->start = 0;
		}
		if (lr->size - lr->end < LINE_READER_CHUNK + 1) {
			char *b = realloc(lr->buf, lr->size * 2);

			if (!b)
				return NULL;
			lr->buf = b;
			lr->size *= 2;
		}
		if (lr->feed) {
			struct feed_chunk *c = chunk_feed__take(lr->feed);

			if (!c) {
				lr->eof = true;
				continue;
			}
			memcpy(lr->buf + lr->end, c->data, c->len);
			lr->end += c->len;
			free(c);
			continue;
		}
		do {
			n = read(lr->fd, lr->buf + lr->end, lr->size - lr->end - 1);
		} while (n < 0 && errno == EINTR);
		if (n <= 0)
			lr->eof = true;
		else
			lr->end += (size_t)n;
	}
}

/* kallsyms' address column, as strtoull(16) reads it; its plain form without libc's locale */
static bool parse_hex(const char **pp, u64 *val)
{
	const char *p = *pp;
	u64 v = 0;
	int digits = 0;

	for (;; p++, digits++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (unsigned int)((*p | 0x20) - 'a' + 10);
		else
			break;
		v = v << 4 | d;
	}
	/* blanks, a sign, 0x or an overflow: strtoull's own rules */
	if (!digits || digits > 16 || (digits == 1 && (*p | 0x20) == 'x')) {
		char *end;

		v = strtoull(*pp, &end, 16);
		p = end;
		if (p == *pp)
			return false;
	}
	*pp = p;
	*val = v;
	return true;
}

int machine__load_kallsyms(struct machine *machine)
{
	char path[PATH_MAX];
	struct dso *kernel = machine->kernel_dso;
	struct line_reader lr = { .size = 2 * LINE_READER_CHUNK };
	char *line;
	bool have_ref = false;
	u64 ref_addr = 0;
	struct kcore_kallsyms ks = { .path = path };
	struct hashmap_node *pos;
	size_t bkt;
	int ret;

	if (machine->kernel_loaded)
		return kernel ? kernel->load_errno : 0;
	machine->kernel_loaded = true;
	if (!kernel)
		return 0;
	kernel->loaded = true;
	/* an explicit --kallsyms wins over -k, as in perf */
	if (machine->conf && machine->conf->vmlinux && !machine->conf->kallsyms &&
	    !machine->conf->ignore_vmlinux) {
		char why[80];

		ret = machine__load_vmlinux(machine);
		kernel->load_errno = -ret;
		/* upstream says nothing: one line, so that [unknown] frames have a reason */
		if (ret)
			snprintf(machine->kernel_warning, sizeof(machine->kernel_warning),
				 "vmlinux %.100s: %s: kernel symbols unknown", machine->conf->vmlinux,
				 dso__strerror_load(kernel, why, sizeof(why)));
		return ret;
	}
	if (machine__kallsyms_path(machine, path, sizeof(path))) {
		kernel->load_errno = ENOENT;
		return -ENOENT;
	}
	lr.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (lr.fd < 0) {
		kernel->load_errno = errno;
		return -errno;
	}
	lr.buf = malloc(lr.size);
	if (!lr.buf) {
		close(lr.fd);
		kernel->load_errno = ENOMEM;
		return -ENOMEM;
	}
	/* no thread (no CPU to spare): read here, the same bytes */
	lr.feed = chunk_feed__start(lr.fd, machine->helpers);
	while ((line = line_reader__next(&lr))) {
		const char *p = line;
		char *name, *mod;
		struct dso *dso = kernel;
		u64 addr;
		char type;

		if (!parse_hex(&p, &addr) || *p != ' ')
			continue;
		p++;
		type = *p;
		if (!type || p[1] != ' ')
			continue;
		name = line + (p + 2 - line);
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[') {
				size_t len = strcspn(mod + 1, "]");

				dso = module_dso(machine, mod + 1, len);
				if (!dso)
					continue;
				if (machine->kallsyms_is_running && !dso->loaded &&
				    !dso->symbols.nr && !module__matches_running(machine, dso)) {
					/* a foreign module: its symbols stay unknown */
					dso->loaded = true;
					dso->load_errno = DSO_LOAD_ERRNO__MISMATCHING_BUILDID;
				}
				if (dso->load_errno)
					continue;
			}
		}
		if (!have_ref && machine->ref_reloc_sym_name &&
		    !strcmp(name, machine->ref_reloc_sym_name) && dso == kernel) {
			ref_addr = addr;
			have_ref = true;
		}
		/* for the kcore (kcore.h): upstream's kallsyms__get_function_start() */
		if (dso == kernel && kallsyms_type_function(type)) {
			if (!ks.have_ref && machine->ref_reloc_sym_name &&
			    !strcmp(name, machine->ref_reloc_sym_name)) {
				ks.ref_addr = addr;
				ks.have_ref = true;
			}
			if (!ks.have_stext && !strcmp(name, "_stext")) {
				ks.stext = addr;
				ks.have_stext = true;
			}
		}
		if (!kallsyms_type_wanted(type))
			continue;
		if (symbols__add(&dso->symbols, addr, addr, name, kallsyms_binding(type), (u8)type)) {
			kernel->load_errno = ENOMEM;
			break;
		}
		dso->loaded = true;
	}
	chunk_feed__stop(lr.feed);
	free(lr.buf);
	close(lr.fd);
	/* kallsyms was read from another boot: symbols move by the KASLR difference */
	if (have_ref && machine->ref_reloc_sym_addr && machine->kernel_map)
		machine->kernel_map->reloc = (s64)(ref_addr - machine->ref_reloc_sym_addr);
	symbols__finish(&kernel->symbols);
	hashmap__for_each(&machine->dsos.map, pos, bkt) {
		struct dso *d = container_of(pos, struct dso, node);

		if (d->kind == DSO_KIND_KMODULE)
			symbols__finish(&d->symbols);
	}
	if (kernel->load_errno)
		return -kernel->load_errno;
	/* a kcore beside the kallsyms makes the maps, as in perf; else the map grows over it */
	ret = machine__load_kcore(machine, &ks);
	if (ret < 0) {
		kernel->load_errno = -ret;
		return ret;
	}
	if (!ret)
		machine__fit_kernel_map(machine);
	return 0;
}
