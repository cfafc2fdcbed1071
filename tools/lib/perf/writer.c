// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer: file and pipe layouts, zstd COMPRESSED2 wrapping, and output in the
 * other byte order. See writer.h for the layouts.
 *
 * Output goes through one buffer to the descriptor; file mode writes a zeroed header first
 * and rewrites it in finish(), when the data size and the feature table are known:
 *
 *   0      header (104 bytes)
 *   104    ids of attr 0, ids of attr 1, ...
 *          attr section: { attr (attr_size bytes), { ids offset, ids size } } per attr
 *          data section: the records
 *          feature table: { offset, size } per feature bit set, in bit order
 *          feature sections
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <perf/data.h>
#include <perf/record.h>
#include <perf/synthesize.h>
#include <perf/writer.h>
#include <perf/kernel.h>
#include "swap-out.h"

#define PERF_FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define OUT_BUF_SIZE		(64 * 1024)
#define MAX_RECORD_SIZE		65535
/* perf pads header strings to this, NUL included */
#define NAME_ALIGN		64

_Static_assert(sizeof(struct perf_file_header) == PERF_FILE_HEADER_SIZE, "file header layout");

/* a growable byte buffer that stores numbers in the output's byte order */
struct wbuf {
	u8	*p;
	size_t	len, alloc;
	bool	swap;
	bool	oom;
};

struct perf_writer {
	int			fd;
	char			*name;
	struct perf_writer_opts	opts;
	bool			started;	/* attrs and features are out */
	bool			finished;
	bool			failed;		/* a write failed: the output is unusable */

	struct perf_evattr	*attrs;		/* host order; ids and name owned */
	size_t			nr_attrs;
	u64			*ids_offset;	/* file mode: where each attr's ids went */

	char			*strings[HEADER_LAST_FEATURE];
	bool			has_nrcpus;
	u32			nr_cpus_avail, nr_cpus_online;
	char			**cmdline;
	int			cmdline_argc;
	struct wbuf		build_ids;	/* HEADER_BUILD_ID entries, output order */
	/* the other binary features, serialized by their setter in the output byte order */
	struct wbuf		sections[HEADER_LAST_FEATURE];
	void			*tracing_data;
	size_t			tracing_data_size;

	u8			*out;		/* pending output bytes */
	size_t			out_len;
	u64			pos;		/* file offset of out[0] + out_len */
	u64			disk_pos;	/* bytes the descriptor took */
	u64			data_offset;

	u64			*rec;		/* an aligned record being swapped */

	ZSTD_CCtx		*zstd;
	u8			*comp_in;	/* record bytes not yet compressed */
	size_t			comp_in_len, comp_in_alloc;
	u8			*comp_out;	/* one COMPRESSED2 record */
	size_t			comp_out_alloc;
	u64			comp_in_total, comp_out_total;
};

/* ---- byte order --------------------------------------------------------------------------- */

static u64 w64(const struct perf_writer *w, u64 v)
{
	return w->opts.cross_endian ? bswap_64(v) : v;
}

static void wbuf__put(struct wbuf *b, const void *p, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len > b->alloc) {
		size_t n = b->alloc ? b->alloc : 256;
		u8 *np;

		while (n < b->len + len)
			n *= 2;
		np = realloc(b->p, n);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->alloc = n;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

static void wbuf__u32(struct wbuf *b, u32 v)
{
	if (b->swap)
		v = bswap_32(v);
	wbuf__put(b, &v, 4);
}

static void wbuf__u64(struct wbuf *b, u64 v)
{
	if (b->swap)
		v = bswap_64(v);
	wbuf__put(b, &v, 8);
}

static void wbuf__zeros(struct wbuf *b, size_t n)
{
	static const u8 zero[NAME_ALIGN];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		wbuf__put(b, zero, k);
		n -= k;
	}
}

/* a perf header string: u32 length (NUL included, padded to NAME_ALIGN), then the bytes */
static void wbuf__string(struct wbuf *b, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	wbuf__u32(b, (u32)padded);
	wbuf__put(b, s, len);
	wbuf__zeros(b, padded - len);
}

/* an attr as it sits in the output: host order, or swapped like a big-endian perf wrote it */
static void attr__to_output(const struct perf_writer *w, const struct perf_event_attr *attr,
			    struct perf_event_attr *out)
{
	*out = *attr;
	out->size = w->opts.attr_size;
	/* every field swap is its own inverse, the flag bit mirroring too */
	if (w->opts.cross_endian)
		perf_event_attr__swap(out, w->opts.attr_size);
}

/* ---- output ------------------------------------------------------------------------------- */

static int out__flush(struct perf_writer *w, struct perf_err *err)
{
	size_t done = 0;

	while (done < w->out_len) {
		ssize_t n = write(w->fd, w->out + done, w->out_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->failed = true;
			return perf_err__set(err, n < 0 ? errno : EIO, "cannot write %s: %m", w->name);
		}
		done += (size_t)n;
		w->disk_pos += (u64)n;
	}
	w->out_len = 0;
	return 0;
}

static int out__write(struct perf_writer *w, const void *p, size_t len, struct perf_err *err)
{
	const u8 *src = p;

	w->pos += len;
	while (len) {
		size_t k = OUT_BUF_SIZE - w->out_len;

		if (!k && out__flush(w, err))
			return -EIO;
		k = OUT_BUF_SIZE - w->out_len;
		if (k > len)
			k = len;
		memcpy(w->out + w->out_len, src, k);
		w->out_len += k;
		src += k;
		len -= k;
	}
	return 0;
}

/* ---- setup -------------------------------------------------------------------------------- */

struct perf_writer *perf_writer__new_fd(int fd, const char *name,
					const struct perf_writer_opts *opts, struct perf_err *err)
{
	struct perf_writer *w = calloc(1, sizeof(*w));

	if (!w) {
		close(fd);
		perf_err__set(err, ENOMEM, "out of memory");
		return NULL;
	}
	w->fd = fd;
	if (opts)
		w->opts = *opts;
	if (!w->opts.attr_size)
		w->opts.attr_size = PERF_WRITER_DEFAULT_ATTR_SIZE;
	if (!w->opts.comp_chunk)
		w->opts.comp_chunk = PERF_WRITER_DEFAULT_COMP_CHUNK;
	w->build_ids.swap = w->opts.cross_endian;
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		w->sections[i].swap = w->opts.cross_endian;
	w->name = strdup(name);
	w->out = malloc(OUT_BUF_SIZE);
	w->rec = malloc(MAX_RECORD_SIZE + 1);
	if (!w->name || !w->out || !w->rec) {
		perf_err__set(err, ENOMEM, "out of memory");
		goto out_delete;
	}
	if (w->opts.attr_size < PERF_ATTR_SIZE_VER0 || w->opts.attr_size > sizeof(struct perf_event_attr) ||
	    w->opts.attr_size % 8) {
		perf_err__set(err, EINVAL, "attr size %u: must be a multiple of 8 from %d to %zu",
			      w->opts.attr_size, PERF_ATTR_SIZE_VER0, sizeof(struct perf_event_attr));
		goto out_delete;
	}
	if (w->opts.zstd_level < 0 || w->opts.zstd_level > ZSTD_maxCLevel() ||
	    w->opts.comp_chunk > PERF_WRITER_MAX_COMP_CHUNK) {
		perf_err__set(err, EINVAL, "zstd level %d (0..%d) or chunk %u (at most %d) out of range",
			      w->opts.zstd_level, ZSTD_maxCLevel(), w->opts.comp_chunk,
			      PERF_WRITER_MAX_COMP_CHUNK);
		goto out_delete;
	}
	if (w->opts.zstd_level) {
		w->zstd = ZSTD_createCCtx();
		w->comp_in_alloc = w->opts.comp_chunk + MAX_RECORD_SIZE + 1;
		w->comp_in = malloc(w->comp_in_alloc);
		w->comp_out_alloc = sizeof(struct perf_record_compressed2) +
				    ZSTD_compressBound(w->opts.comp_chunk) + 8;
		w->comp_out = malloc(w->comp_out_alloc);
		if (!w->zstd || !w->comp_in || !w->comp_out) {
			perf_err__set(err, ENOMEM, "out of memory for zstd");
			goto out_delete;
		}
		if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zstd, ZSTD_c_compressionLevel,
							w->opts.zstd_level))) {
			perf_err__set(err, EINVAL, "zstd refuses level %d", w->opts.zstd_level);
			goto out_delete;
		}
	}
	return w;

out_delete:
	perf_writer__delete(w);
	return NULL;
}

struct perf_writer *perf_writer__new(const char *path, const struct perf_writer_opts *opts,
				     struct perf_err *err)
{
	int fd;

	if (!strcmp(path, "-")) {
		if (!opts || !opts->pipe) {
			perf_err__set(err, EINVAL, "standard output can only take a pipe-mode stream");
			return NULL;
		}
		fd = dup(STDOUT_FILENO);
	} else {
		/* read-write: perf_writer__salvage() reads back the records that reached the file */
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		perf_err__set(err, errno, "cannot create %s: %m", path);
		return NULL;
	}
	return perf_writer__new_fd(fd, path, opts, err);
}

void perf_writer__delete(struct perf_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	free(w->ids_offset);
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		free(w->strings[i]);
	for (int i = 0; i < w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	free(w->build_ids.p);
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		free(w->sections[i].p);
	free(w->tracing_data);
	free(w->out);
	free(w->rec);
	if (w->zstd)
		ZSTD_freeCCtx(w->zstd);
	free(w->comp_in);
	free(w->comp_out);
	if (w->fd >= 0)
		close(w->fd);
	free(w->name);
	free(w);
}

static int writer__check_setup(struct perf_writer *w, const char *what, struct perf_err *err)
{
	if (w->started)
		return perf_err__set(err, EBUSY, "%s: %s must come before the first record", w->name, what);
	return 0;
}

/* the fields a sample_id trailer is made of */
#define SAMPLE_ID_FIELDS	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const u64 *ids, size_t nr_ids, const char *name, struct perf_err *err)
{
	struct perf_evattr *ea, *n;

	if (writer__check_setup(w, "attrs", err))
		return -EBUSY;
	if (w->nr_attrs) {
		const struct perf_event_attr *first = &w->attrs[0].attr;

		/*
		 * the reader finds a record's trailer with the first attr's layout, or, when
		 * every attr has PERF_SAMPLE_IDENTIFIER (the id last in any trailer), by the id:
		 * perf's choice for events of different sample types (a tracepoint's CPU)
		 */
		bool by_identifier = (first->sample_type & PERF_SAMPLE_IDENTIFIER) &&
				     (attr->sample_type & PERF_SAMPLE_IDENTIFIER);

		if ((!by_identifier && (first->sample_type & SAMPLE_ID_FIELDS) !=
				       (attr->sample_type & SAMPLE_ID_FIELDS)) ||
		    perf_attr__has(first, PERF_ATTR_BIT_SAMPLE_ID_ALL) !=
		    perf_attr__has(attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))
			return perf_err__set(err, EINVAL, "%s: attr %zu has another sample_id layout than attr 0",
					     w->name, w->nr_attrs);
	}
	if (w->opts.pipe && sizeof(struct perf_event_header) + w->opts.attr_size + nr_ids * 8 > MAX_RECORD_SIZE)
		return perf_err__set(err, EINVAL, "%s: %zu ids do not fit a HEADER_ATTR record", w->name, nr_ids);
	n = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return perf_err__set(err, ENOMEM, "out of memory");
	w->attrs = n;
	ea = &n[w->nr_attrs];
	memset(ea, 0, sizeof(*ea));
	ea->attr = *attr;
	ea->attr.size = w->opts.attr_size;
	if (nr_ids) {
		ea->ids = malloc(nr_ids * sizeof(u64));
		if (!ea->ids)
			return perf_err__set(err, ENOMEM, "out of memory");
		memcpy(ea->ids, ids, nr_ids * sizeof(u64));
	}
	ea->nr_ids = nr_ids;
	if (name) {
		ea->name = strdup(name);
		if (!ea->name) {
			free(ea->ids);
			return perf_err__set(err, ENOMEM, "out of memory");
		}
	}
	ea->idx = (int)w->nr_attrs;
	perf_evattr__init_positions(ea);
	return (int)w->nr_attrs++;
}

int perf_writer__set_string(struct perf_writer *w, int feat, const char *value,
			    struct perf_err *err)
{
	char *s;

	if (writer__check_setup(w, "features", err))
		return -EBUSY;
	switch (feat) {
	case HEADER_HOSTNAME:
	case HEADER_OSRELEASE:
	case HEADER_VERSION:
	case HEADER_ARCH:
	case HEADER_CPUDESC:
	case HEADER_CPUID:
		break;
	default:
		return perf_err__set(err, EINVAL, "feature %d is not a string feature", feat);
	}
	s = strdup(value);
	if (!s)
		return perf_err__set(err, ENOMEM, "out of memory");
	free(w->strings[feat]);
	w->strings[feat] = s;
	return 0;
}

int perf_writer__set_nrcpus(struct perf_writer *w, u32 available, u32 online,
			    struct perf_err *err)
{
	if (writer__check_setup(w, "features", err))
		return -EBUSY;
	w->has_nrcpus = true;
	w->nr_cpus_avail = available;
	w->nr_cpus_online = online;
	return 0;
}

int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv,
			     struct perf_err *err)
{
	char **v;

	if (writer__check_setup(w, "features", err))
		return -EBUSY;
	v = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*v));
	if (!v)
		return perf_err__set(err, ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (!v[i]) {
			while (i--)
				free(v[i]);
			free(v);
			return perf_err__set(err, ENOMEM, "out of memory");
		}
	}
	for (int i = 0; i < w->cmdline_argc; i++)
		free(w->cmdline[i]);
	free(w->cmdline);
	w->cmdline = v;
	w->cmdline_argc = argc;
	return 0;
}

/*
 * A binary feature's section: emptied, to be filled by the caller. NULL (with err) once the
 * features are out, except for a late feature in file mode, whose section finish() writes.
 */
static struct wbuf *writer__section(struct perf_writer *w, int feat, bool late,
				    struct perf_err *err)
{
	struct wbuf *b = &w->sections[feat];

	if (w->finished || w->failed) {
		perf_err__set(err, EBUSY, "%s: %s after the end", w->name, perf_header_feature__name(feat));
		return NULL;
	}
	if (!(late && !w->opts.pipe) && writer__check_setup(w, perf_header_feature__name(feat), err))
		return NULL;
	b->len = 0;
	b->oom = false;
	return b;
}

static int writer__section_done(struct perf_writer *w, struct wbuf *b, struct perf_err *err)
{
	if (!b->oom)
		return 0;
	b->len = 0;
	return perf_err__set(err, ENOMEM, "%s: out of memory", w->name);
}

int perf_writer__set_total_mem(struct perf_writer *w, u64 kb, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_TOTAL_MEM, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u64(b, kb);
	return writer__section_done(w, b, err);
}

int perf_writer__set_clockid(struct perf_writer *w, u64 res_ns, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_CLOCKID, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u64(b, res_ns);
	return writer__section_done(w, b, err);
}

int perf_writer__set_clock_data(struct perf_writer *w, u32 clockid, u64 tod_ns, u64 clk_ns,
				struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_CLOCK_DATA, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, 1);	/* version */
	wbuf__u32(b, clockid);
	wbuf__u64(b, tod_ns);
	wbuf__u64(b, clk_ns);
	return writer__section_done(w, b, err);
}

int perf_writer__set_sample_time(struct perf_writer *w, u64 first, u64 last, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_SAMPLE_TIME, true, err);

	if (!b)
		return -EBUSY;
	wbuf__u64(b, first);
	wbuf__u64(b, last);
	return writer__section_done(w, b, err);
}

static void wbuf__strings(struct wbuf *b, char *const *v, u32 nr)
{
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++)
		wbuf__string(b, v[i] ? v[i] : "");
}

int perf_writer__set_cpu_topology(struct perf_writer *w, const struct perf_env_cpu_topology *t,
				  struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_CPU_TOPOLOGY, false, err);

	if (!b)
		return -EBUSY;
	wbuf__strings(b, t->core_siblings, t->nr_core_siblings);
	wbuf__strings(b, t->thread_siblings, t->nr_thread_siblings);
	if (t->has_ids) {
		for (u32 i = 0; i < t->nr_cpus; i++) {
			wbuf__u32(b, t->core_id[i]);
			wbuf__u32(b, t->socket_id[i]);
		}
		/* the die part follows the ids: without them a reader stops before it */
		if (t->nr_die_siblings) {
			wbuf__strings(b, t->die_siblings, t->nr_die_siblings);
			for (u32 i = 0; i < t->nr_cpus; i++)
				wbuf__u32(b, t->die_id[i]);
		}
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_numa_topology(struct perf_writer *w, const struct perf_env_numa_node *nodes,
				   u32 nr, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_NUMA_TOPOLOGY, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++) {
		wbuf__u32(b, nodes[i].node);
		wbuf__u64(b, nodes[i].mem_total);
		wbuf__u64(b, nodes[i].mem_free);
		wbuf__string(b, nodes[i].cpus ? nodes[i].cpus : "");
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_pmu_mappings(struct perf_writer *w, const struct perf_env_pmu *pmus, u32 nr,
				  struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_PMU_MAPPINGS, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++) {
		wbuf__u32(b, pmus[i].type);
		wbuf__string(b, pmus[i].name ? pmus[i].name : "");
	}
	return writer__section_done(w, b, err);
}

/* the name=value pairs of one pmu, as HEADER_CPU_PMU_CAPS and each entry of HEADER_PMU_CAPS have them */
static void wbuf__pmu_caps(struct wbuf *b, const struct perf_env_pmu_caps *p)
{
	wbuf__u32(b, p->nr);
	for (u32 i = 0; i < p->nr; i++) {
		wbuf__string(b, p->names[i] ? p->names[i] : "");
		wbuf__string(b, p->values[i] ? p->values[i] : "");
	}
}

int perf_writer__set_pmu_caps(struct perf_writer *w, const struct perf_env_pmu_caps *pmus, u32 nr,
			      struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_PMU_CAPS, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++) {
		wbuf__pmu_caps(b, &pmus[i]);
		wbuf__string(b, pmus[i].pmu ? pmus[i].pmu : "");
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_cpu_pmu_caps(struct perf_writer *w, const struct perf_env_pmu_caps *caps,
				  struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_CPU_PMU_CAPS, false, err);

	if (!b)
		return -EBUSY;
	wbuf__pmu_caps(b, caps);
	return writer__section_done(w, b, err);
}

int perf_writer__set_no_bpf(struct perf_writer *w, struct perf_err *err)
{
	static const int feats[] = { HEADER_BPF_PROG_INFO, HEADER_BPF_BTF };

	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		struct wbuf *b = writer__section(w, feats[i], false, err);

		if (!b)
			return -EBUSY;
		wbuf__u32(b, 0);	/* nr of programs, of BTF objects */
		if (writer__section_done(w, b, err))
			return -ENOMEM;
	}
	return 0;
}

int perf_writer__set_group_desc(struct perf_writer *w, const struct perf_env_group *groups,
				u32 nr, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_GROUP_DESC, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++) {
		/* perf's name for a group that has none */
		wbuf__string(b, groups[i].name ? groups[i].name : "{anon_group}");
		wbuf__u32(b, groups[i].leader);
		wbuf__u32(b, groups[i].nr_members);
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_cache(struct perf_writer *w, const struct perf_env_cache *caches, u32 nr,
			   struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_CACHE, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, 1);	/* version */
	wbuf__u32(b, nr);
	for (u32 i = 0; i < nr; i++) {
		const struct perf_env_cache *c = &caches[i];

		wbuf__u32(b, c->level);
		wbuf__u32(b, c->line_size);
		wbuf__u32(b, c->sets);
		wbuf__u32(b, c->ways);
		wbuf__string(b, c->type ? c->type : "");
		wbuf__string(b, c->size ? c->size : "");
		wbuf__string(b, c->map ? c->map : "");
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_mem_topology(struct perf_writer *w, u64 block_size,
				  const struct perf_env_mem_node *nodes, u64 nr, struct perf_err *err)
{
	struct wbuf *b = writer__section(w, HEADER_MEM_TOPOLOGY, false, err);

	if (!b)
		return -EBUSY;
	wbuf__u64(b, 1);	/* version */
	wbuf__u64(b, block_size);
	wbuf__u64(b, nr);
	for (u64 i = 0; i < nr; i++) {
		const struct perf_env_mem_node *n = &nodes[i];

		if (n->nr_words != perf_env__bitmap_words(n->nr_bits)) {
			b->len = 0;
			return perf_err__set(err, EINVAL, "%s: mem_topology node %llu: %llu words for %llu bits",
					     w->name, (unsigned long long)n->node,
					     (unsigned long long)n->nr_words, (unsigned long long)n->nr_bits);
		}
		wbuf__u64(b, n->node);
		wbuf__u64(b, n->size);
		wbuf__u64(b, n->nr_bits);
		for (u64 k = 0; k < n->nr_words; k++)
			wbuf__u64(b, n->bits[k]);
	}
	return writer__section_done(w, b, err);
}

int perf_writer__set_feature_bytes(struct perf_writer *w, int feat, const void *bytes,
				   size_t size, struct perf_err *err)
{
	struct wbuf *b;

	switch (feat) {
	case HEADER_TRACING_DATA:
	case HEADER_BUILD_ID:
	case HEADER_NRCPUS:
	case HEADER_CMDLINE:
	case HEADER_EVENT_DESC:
	case HEADER_COMPRESSED:
		return perf_err__set(err, EINVAL, "%s: feature %s is the writer's own", w->name,
				     perf_header_feature__name(feat));
	default:
		break;
	}
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE || w->strings[feat])
		return perf_err__set(err, EINVAL, "%s: no feature %d to set as bytes", w->name, feat);
	if (!size)
		return 0;	/* an empty section is no section for the writer */
	b = writer__section(w, feat, feat == HEADER_SAMPLE_TIME, err);
	if (!b)
		return -EBUSY;
	wbuf__put(b, bytes, size);
	return writer__section_done(w, b, err);
}

static int writer__emit(struct perf_writer *w, const void *rec, u16 size, bool compress,
			struct perf_err *err);

int perf_writer__add_build_id(struct perf_writer *w, s32 pid, u16 misc, const u8 *build_id,
			      u8 size, const char *filename, struct perf_err *err)
{
	struct wbuf *b = &w->build_ids;
	size_t len = strlen(filename) + 1;
	size_t padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct perf_record_header_build_id e;
	size_t before = b->len, rec_len;
	u16 hsize;
	int ret;

	if (w->finished || w->failed)
		return perf_err__set(err, EBUSY, "%s: build id after the end", w->name);
	if (size > sizeof(e.build_id) || sizeof(e) + padded + 8 > MAX_RECORD_SIZE)
		return perf_err__set(err, EINVAL, "build id of %u bytes or file name '%s' too long", size, filename);
	memset(&e, 0, sizeof(e));
	e.header.type = PERF_RECORD_HEADER_BUILD_ID;
	e.header.misc = misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
	e.header.size = (u16)(sizeof(e) + padded);
	e.pid = pid;
	memcpy(e.build_id, build_id, size);
	e.size = size;
	if (w->opts.cross_endian) {
		perf_header__swap_out(&e.header);
		e.pid = (s32)bswap_32((u32)e.pid);
	}
	wbuf__put(b, &e, sizeof(e));
	wbuf__put(b, filename, len);
	wbuf__zeros(b, padded - len);
	if (b->oom)
		return perf_err__set(err, ENOMEM, "out of memory");
	if (!w->opts.pipe)
		return 0;
	/*
	 * A pipe carries each entry as a record of its own (a HEADER_BUILD_ID feature would be
	 * read by perf from its standard input, not from the record), so its size must be a
	 * multiple of 8 (perf 6.1 stops at one that is not): the name's zero padding grows by
	 * the 4 bytes the 36-byte head lacks. Those known before the first record follow the
	 * features (writer__start_pipe()); the others go out now.
	 */
	rec_len = (b->len - before + 7) / 8 * 8;
	hsize = (u16)rec_len;
	wbuf__zeros(b, rec_len - (b->len - before));
	if (b->oom)
		return perf_err__set(err, ENOMEM, "out of memory");
	if (w->opts.cross_endian)
		hsize = bswap_16(hsize);
	memcpy(b->p + before + offsetof(struct perf_event_header, size), &hsize, 2);
	if (!w->started)
		return 0;
	ret = writer__emit(w, b->p + before, (u16)rec_len, false, err);
	if (ret)
		w->failed = true;
	b->len = before;
	return ret;
}

int perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size,
				  struct perf_err *err)
{
	void *copy;

	if (writer__check_setup(w, "tracing data", err))
		return -EBUSY;
	if (size > UINT32_MAX)
		return perf_err__set(err, EINVAL, "%zu bytes of tracing data do not fit its u32 size", size);
	copy = malloc(size ? size : 1);
	if (!copy)
		return perf_err__set(err, ENOMEM, "out of memory");
	memcpy(copy, data, size);
	free(w->tracing_data);
	w->tracing_data = copy;
	w->tracing_data_size = size;
	return 0;
}

/* ---- features ----------------------------------------------------------------------------- */

static bool writer__has_feature(const struct perf_writer *w, int feat)
{
	switch (feat) {
	case HEADER_NRCPUS:
		return w->has_nrcpus;
	case HEADER_CMDLINE:
		return w->cmdline != NULL;
	case HEADER_EVENT_DESC:
		return w->nr_attrs > 0;
	case HEADER_COMPRESSED:
		return w->zstd != NULL;
	case HEADER_BUILD_ID:	/* a pipe's are records (perf_writer__add_build_id()) */
		return !w->opts.pipe && w->build_ids.len > 0;
	case HEADER_TRACING_DATA:
		return w->tracing_data != NULL;
	default:
		return feat < HEADER_LAST_FEATURE && (w->strings[feat] || w->sections[feat].len);
	}
}

/* one feature's section, in the output byte order */
static int writer__feature(const struct perf_writer *w, int feat, struct wbuf *b)
{
	switch (feat) {
	case HEADER_BUILD_ID:
		wbuf__put(b, w->build_ids.p, w->build_ids.len);
		break;
	case HEADER_TRACING_DATA:
		wbuf__put(b, w->tracing_data, w->tracing_data_size);
		break;
	case HEADER_NRCPUS:
		wbuf__u32(b, w->nr_cpus_avail);
		wbuf__u32(b, w->nr_cpus_online);
		break;
	case HEADER_CMDLINE:
		wbuf__u32(b, (u32)w->cmdline_argc);
		for (int i = 0; i < w->cmdline_argc; i++)
			wbuf__string(b, w->cmdline[i]);
		break;
	case HEADER_EVENT_DESC:
		wbuf__u32(b, (u32)w->nr_attrs);
		wbuf__u32(b, w->opts.attr_size);
		for (size_t i = 0; i < w->nr_attrs; i++) {
			const struct perf_evattr *ea = &w->attrs[i];
			struct perf_event_attr attr;
			char name[128];

			attr__to_output(w, &ea->attr, &attr);
			wbuf__put(b, &attr, w->opts.attr_size);
			wbuf__u32(b, (u32)ea->nr_ids);
			if (!ea->name)
				perf_evattr__default_name(&ea->attr, name, sizeof(name));
			wbuf__string(b, ea->name ? ea->name : name);
			for (size_t k = 0; k < ea->nr_ids; k++)
				wbuf__u64(b, ea->ids[k]);
		}
		break;
	case HEADER_COMPRESSED: {
		u64 ratio = w->comp_out_total ? w->comp_in_total / w->comp_out_total : 0;

		wbuf__u32(b, 0);	/* version */
		wbuf__u32(b, 1);	/* zstd */
		wbuf__u32(b, (u32)w->opts.zstd_level);
		wbuf__u32(b, (u32)ratio);
		/*
		 * perf sizes its decompression buffer with this and wants whole pages: room for
		 * one chunk plus the largest record left over from the chunk before
		 */
		wbuf__u32(b, (w->opts.comp_chunk + MAX_RECORD_SIZE + 4095) / 4096 * 4096);
		break;
	}
	default:
		if (w->sections[feat].len)
			wbuf__put(b, w->sections[feat].p, w->sections[feat].len);
		else
			wbuf__string(b, w->strings[feat]);
		break;
	}
	return b->oom ? -ENOMEM : 0;
}

/* pipe mode: every feature as a HEADER_FEATURE record */
static int writer__pipe_features(struct perf_writer *w, struct perf_err *err)
{
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		struct wbuf b = { .swap = w->opts.cross_endian };
		struct perf_record_header_feature f;
		size_t pad;
		int ret;

		/* tracing data travels in its own record, see writer__pipe_tracing_data() */
		if (!writer__has_feature(w, feat) || feat == HEADER_TRACING_DATA)
			continue;
		/* the compression ratio is only known at the end: pipes carry the settings */
		ret = writer__feature(w, feat, &b);
		pad = (8 - b.len % 8) % 8;
		if (!ret && sizeof(f) + b.len + pad > MAX_RECORD_SIZE)
			ret = -E2BIG;
		if (ret) {
			free(b.p);
			return perf_err__set(err, ret, "%s: feature %s does not fit a record", w->name,
					     perf_header_feature__name(feat));
		}
		f.header = (struct perf_event_header){
			.type = PERF_RECORD_HEADER_FEATURE,
			.size = (u16)(sizeof(f) + b.len + pad),
		};
		f.feat_id = w64(w, (u64)feat);
		if (w->opts.cross_endian)
			perf_header__swap_out(&f.header);
		wbuf__zeros(&b, pad);
		ret = b.oom ? -ENOMEM : 0;
		if (!ret)
			ret = out__write(w, &f, sizeof(f), err);
		if (!ret)
			ret = out__write(w, b.p, b.len, err);
		free(b.p);
		if (ret)
			return perf_err__set(err, ret, "%s: cannot write feature %s", w->name,
					     perf_header_feature__name(feat));
	}
	return 0;
}

/*
 * pipe mode: a HEADER_TRACING_DATA record, then the blob padded to 8 bytes. Its size is the
 * padded one, as perf writes it: upstream checks that what it parsed plus the padding is
 * exactly that size, and refuses the stream otherwise ("tracing data size mismatch").
 */
static int writer__pipe_tracing_data(struct perf_writer *w, struct perf_err *err)
{
	static const u8 zero[8];
	struct perf_record_header_tracing_data rec = {
		.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(rec) },
	};
	size_t pad = (8 - w->tracing_data_size % 8) % 8;

	if (!w->tracing_data)
		return 0;
	rec.size = (u32)(w->tracing_data_size + pad);
	if (w->opts.cross_endian) {
		perf_header__swap_out(&rec.header);
		rec.size = bswap_32(rec.size);
	}
	if (out__write(w, &rec, sizeof(rec), err) ||
	    out__write(w, w->tracing_data, w->tracing_data_size, err) || out__write(w, zero, pad, err))
		return -EIO;
	return 0;
}

/*
 * pipe mode: each named event's name in an EVENT_UPDATE (NAME) record after the attrs, as
 * perf writes them; upstream names a pipe's events from these, not from EVENT_DESC
 * (without them it prints "cpu-clock:H")
 */
static int writer__pipe_event_names(struct perf_writer *w, struct perf_err *err)
{
	static const u8 zero[8];

	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct perf_evattr *ea = &w->attrs[i];
		struct perf_event_header h = { .type = PERF_RECORD_EVENT_UPDATE };
		u64 words[2] = { 2 /* PERF_EVENT_UPDATE__NAME */, 0 };
		size_t len, padded;

		if (!ea->name || !ea->nr_ids)
			continue;
		len = strlen(ea->name) + 1;
		padded = (len + 7) / 8 * 8;
		if (sizeof(h) + sizeof(words) + padded > MAX_RECORD_SIZE)
			return perf_err__set(err, EINVAL, "%s: event name '%s' too long", w->name, ea->name);
		h.size = (u16)(sizeof(h) + sizeof(words) + padded);
		words[0] = w64(w, words[0]);
		words[1] = w64(w, ea->ids[0]);
		if (w->opts.cross_endian)
			perf_header__swap_out(&h);
		if (out__write(w, &h, sizeof(h), err) || out__write(w, words, sizeof(words), err) ||
		    out__write(w, ea->name, len, err) || out__write(w, zero, padded - len, err))
			return -EIO;
	}
	return 0;
}

/* ---- start: everything before the first record -------------------------------------------- */

static int writer__start_pipe(struct perf_writer *w, struct perf_err *err)
{
	u64 head[2] = { w->opts.cross_endian ? PERF_MAGIC2_SWAPPED : PERF_MAGIC2,
			w64(w, PIPE_HEADER_SIZE) };

	if (out__write(w, head, sizeof(head), err))
		return -EIO;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct perf_evattr *ea = &w->attrs[i];
		struct perf_event_header h = {
			.type = PERF_RECORD_HEADER_ATTR,
			.size = (u16)(sizeof(h) + w->opts.attr_size + ea->nr_ids * 8),
		};
		struct perf_event_attr attr;

		attr__to_output(w, &ea->attr, &attr);
		if (w->opts.cross_endian)
			perf_header__swap_out(&h);
		if (out__write(w, &h, sizeof(h), err) || out__write(w, &attr, w->opts.attr_size, err))
			return -EIO;
		for (size_t k = 0; k < ea->nr_ids; k++) {
			u64 id = w64(w, ea->ids[k]);

			if (out__write(w, &id, 8, err))
				return -EIO;
		}
	}
	if (!w->opts.caller_names && writer__pipe_event_names(w, err))
		return -EIO;
	/* perf's order: the features, then the tracing data; then the build ids known so far */
	if (writer__pipe_features(w, err) || writer__pipe_tracing_data(w, err))
		return -EIO;
	if (w->build_ids.len && out__write(w, w->build_ids.p, w->build_ids.len, err))
		return -EIO;
	w->build_ids.len = 0;
	return 0;
}

static int writer__start_file(struct perf_writer *w, struct perf_err *err)
{
	static const u8 zero[PERF_FILE_HEADER_SIZE];

	w->ids_offset = calloc(w->nr_attrs ? w->nr_attrs : 1, sizeof(u64));
	if (!w->ids_offset)
		return perf_err__set(err, ENOMEM, "out of memory");
	if (out__write(w, zero, sizeof(zero), err))
		return -EIO;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		w->ids_offset[i] = w->pos;
		for (size_t k = 0; k < w->attrs[i].nr_ids; k++) {
			u64 id = w64(w, w->attrs[i].ids[k]);

			if (out__write(w, &id, 8, err))
				return -EIO;
		}
	}
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct perf_event_attr attr;
		u64 ids[2] = { w64(w, w->ids_offset[i]), w64(w, w->attrs[i].nr_ids * 8) };

		attr__to_output(w, &w->attrs[i].attr, &attr);
		if (out__write(w, &attr, w->opts.attr_size, err) || out__write(w, ids, sizeof(ids), err))
			return -EIO;
	}
	w->data_offset = w->pos;
	return 0;
}

static int writer__start(struct perf_writer *w, struct perf_err *err)
{
	int ret;

	if (w->started)
		return 0;
	if (!w->nr_attrs)
		return perf_err__set(err, EINVAL, "%s: no attrs were added before the first record", w->name);
	w->started = true;
	ret = w->opts.pipe ? writer__start_pipe(w, err) : writer__start_file(w, err);
	if (ret)
		w->failed = true;
	return ret;
}

/* ---- records ------------------------------------------------------------------------------ */

/* compress len bytes of comp_in (all of it at the end) into one COMPRESSED2 record */
static int writer__compress(struct perf_writer *w, size_t len, struct perf_err *err)
{
	struct perf_record_compressed2 *c = (void *)w->comp_out;
	ZSTD_inBuffer in = { w->comp_in, len, 0 };
	ZSTD_outBuffer out = { c->data, w->comp_out_alloc - sizeof(*c) - 8, 0 };
	size_t ret, size, pad;

	if (!len)
		return 0;
	/* flush, never end: the stream goes on in the next record, as perf's does */
	do {
		ret = ZSTD_compressStream2(w->zstd, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(ret)) {
			w->failed = true;
			return perf_err__set(err, EIO, "%s: zstd: %s", w->name, ZSTD_getErrorName(ret));
		}
	} while (ret || in.pos < in.size);
	pad = (8 - out.pos % 8) % 8;
	memset(c->data + out.pos, 0, pad);
	size = sizeof(*c) + out.pos + pad;
	if (size > MAX_RECORD_SIZE) {
		w->failed = true;
		return perf_err__set(err, E2BIG, "%s: %zu bytes compressed to %zu, more than a record holds",
				     w->name, len, out.pos);
	}
	c->header = (struct perf_event_header){ .type = PERF_RECORD_COMPRESSED2, .size = (u16)size };
	c->data_size = w64(w, out.pos);
	if (w->opts.cross_endian)
		perf_header__swap_out(&c->header);
	w->comp_in_total += len;
	w->comp_out_total += size;
	memmove(w->comp_in, w->comp_in + len, w->comp_in_len - len);
	w->comp_in_len -= len;
	return out__write(w, c, size, err);
}

static int writer__emit(struct perf_writer *w, const void *rec, u16 size, bool compress,
			struct perf_err *err)
{
	int ret;

	if (!w->zstd)
		return out__write(w, rec, size, err);
	if (!compress) {
		/* what was buffered goes first, so the order of records holds */
		ret = writer__compress(w, w->comp_in_len, err);
		return ret ? ret : out__write(w, rec, size, err);
	}
	memcpy(w->comp_in + w->comp_in_len, rec, size);
	w->comp_in_len += size;
	/* cut at a fixed byte count, wherever the records fall */
	while (w->comp_in_len >= w->opts.comp_chunk) {
		ret = writer__compress(w, w->opts.comp_chunk, err);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct perf_evattr *writer__attr_of(const struct perf_writer *w,
						 const struct perf_event_header *h)
{
	const struct perf_evattr *first = &w->attrs[0];
	u64 id;

	if (w->nr_attrs == 1 || h->type != PERF_RECORD_SAMPLE)
		return first;	/* trailers share the first attr's layout */
	if (first->id_pos < 0 || sizeof(*h) + (size_t)(first->id_pos + 1) * 8 > h->size)
		return NULL;
	memcpy(&id, (const u8 *)(h + 1) + first->id_pos * 8, 8);
	for (size_t i = 0; i < w->nr_attrs; i++)
		for (size_t k = 0; k < w->attrs[i].nr_ids; k++)
			if (w->attrs[i].ids[k] == id)
				return &w->attrs[i];
	return NULL;
}

/*
 * the attr whose sample_id trailer a non-sample record has: the first's, unless the attrs
 * differ in it, when the trailer's last u64 (PERF_SAMPLE_IDENTIFIER) names it
 */
static const struct perf_evattr *writer__trailer_attr(const struct perf_writer *w,
						      const struct perf_event_header *h)
{
	const struct perf_evattr *first = &w->attrs[0];
	u64 id;

	if (w->nr_attrs == 1 || !(first->attr.sample_type & PERF_SAMPLE_IDENTIFIER) ||
	    h->size < sizeof(*h) + 8)
		return first;
	memcpy(&id, (const u8 *)h + h->size - 8, 8);
	for (size_t i = 0; i < w->nr_attrs; i++)
		for (size_t k = 0; k < w->attrs[i].nr_ids; k++)
			if (w->attrs[i].ids[k] == id)
				return &w->attrs[i];
	return first;
}

/* a host-order record into w->rec in the output byte order */
static int writer__swap_record(struct perf_writer *w, const struct perf_event_header *event,
			       struct perf_err *err)
{
	struct perf_event_header *h = (void *)w->rec;
	const struct perf_evattr *ea;
	int ret;

	memcpy(h, event, event->size);
	if (event->type == PERF_RECORD_SAMPLE) {
		ea = writer__attr_of(w, event);
		if (!ea)
			return perf_err__set(err, EINVAL, "%s: sample at output offset %#llx: its id matches no attr",
					     w->name, (unsigned long long)w->pos);
		ret = perf_sample__swap(&ea->attr, h, false, err);
		if (ret)
			return ret;
		perf_header__swap_out(h);
		return 0;
	}
	ea = writer__trailer_attr(w, event);
	if (perf_record_type__has_sample_id(event->type) && ea->id_hdr_size) {
		if (event->size < sizeof(*h) + ea->id_hdr_size)
			return perf_err__set(err, EINVAL, "%s: record type %u of %u bytes has no room for its %u-byte sample_id",
					     w->name, event->type, event->size, ea->id_hdr_size);
		perf_trailer__swap(&ea->attr, h, ea->id_hdr_size);
	}
	ret = perf_record__swap_body_out(h, ea->id_hdr_size);
	if (ret == -EOPNOTSUPP)
		return perf_err__set(err, EOPNOTSUPP, "%s: cannot write a %s record (type %u) in the other byte order",
				     w->name, perf_record_type__name(event->type), event->type);
	if (ret)
		return perf_err__set(err, EINVAL, "%s: %s record (type %u) of %u bytes is too short for its fields",
				     w->name, perf_record_type__name(event->type), event->type, event->size);
	perf_header__swap_out(h);
	return 0;
}

int perf_writer__write(struct perf_writer *w, const struct perf_event_header *event,
		       struct perf_err *err)
{
	bool compress = event->type < PERF_RECORD_USER_TYPE_START;
	const void *rec = event;
	int ret;

	if (w->failed || w->finished)
		return perf_err__set(err, EINVAL, "%s: %s", w->name,
				     w->failed ? "an earlier write failed" : "already finished");
	if (event->size < sizeof(*event) || event->size % 8)
		return perf_err__set(err, EINVAL, "%s: record type %u has size %u: must be a multiple of 8, at least 8",
				     w->name, event->type, event->size);
	switch (event->type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return perf_err__set(err, EINVAL, "%s: record type %u (%s) is the writer's own business",
				     w->name, event->type, perf_record_type__name(event->type));
	default:
		break;
	}
	ret = writer__start(w, err);
	if (ret)
		return ret;
	if (w->opts.cross_endian) {
		ret = writer__swap_record(w, event, err);
		if (ret)
			return ret;
		rec = w->rec;
	}
	ret = writer__emit(w, rec, event->size, compress, err);
	if (ret)
		w->failed = true;
	return ret;
}

/* the PERFILE2 header of what was written, in the output's order (h's features are set) */
static void writer__file_header(const struct perf_writer *w, struct perf_file_header *h,
				u64 data_size)
{
	u64 attrs = w->nr_attrs * (w->opts.attr_size + sizeof(struct perf_file_section));

	h->magic = w->opts.cross_endian ? PERF_MAGIC2_SWAPPED : PERF_MAGIC2;
	h->size = w64(w, sizeof(*h));
	h->attr_size = w64(w, w->opts.attr_size + sizeof(struct perf_file_section));
	h->attrs.offset = w64(w, w->data_offset - attrs);
	h->attrs.size = w64(w, attrs);
	h->data.offset = w64(w, w->data_offset);
	h->data.size = w64(w, data_size);
	for (int i = 0; i < HEADER_FEAT_BITS / 64; i++)
		h->adds_features[i] = w64(w, h->adds_features[i]);
}

int perf_writer__finish(struct perf_writer *w, struct perf_err *err)
{
	struct perf_file_header h;
	u64 table, at, data_size;
	int nr_feat = 0, ret;
	struct wbuf sections = { .swap = w->opts.cross_endian };
	struct wbuf index = { .swap = w->opts.cross_endian };

	if (w->failed || w->finished)
		return perf_err__set(err, EINVAL, "%s: %s", w->name,
				     w->failed ? "an earlier write failed" : "already finished");
	ret = writer__start(w, err);
	if (!ret && w->zstd)
		ret = writer__compress(w, w->comp_in_len, err);
	if (ret)
		goto out_fail;
	if (w->opts.pipe)
		goto out_flush;

	data_size = w->pos - w->data_offset;
	memset(&h, 0, sizeof(h));
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (writer__has_feature(w, feat)) {
			h.adds_features[feat / 64] |= 1ULL << (feat % 64);
			nr_feat++;
		}
	table = w->pos;
	at = table + (u64)nr_feat * sizeof(struct perf_file_section);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		size_t before = sections.len;

		if (!writer__has_feature(w, feat))
			continue;
		if (writer__feature(w, feat, &sections)) {
			ret = perf_err__set(err, ENOMEM, "out of memory");
			goto out_free;
		}
		wbuf__u64(&index, at + before);
		wbuf__u64(&index, sections.len - before);
	}
	if (index.oom) {
		ret = perf_err__set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	if (out__write(w, index.p, index.len, err) || out__write(w, sections.p, sections.len, err)) {
		ret = -EIO;
		goto out_free;
	}

	writer__file_header(w, &h, data_size);
	ret = out__flush(w, err);
	if (ret)
		goto out_free;
	if (pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		ret = perf_err__set(err, errno ? errno : EIO, "cannot write the header of %s: %m", w->name);
		goto out_free;
	}
	free(index.p);
	free(sections.p);
	w->finished = true;
	return 0;

out_flush:
	ret = out__flush(w, err);
	if (!ret) {
		w->finished = true;
		return 0;
	}
	goto out_fail;
out_free:
	free(index.p);
	free(sections.p);
out_fail:
	w->failed = true;
	return ret;
}

int perf_writer__salvage(struct perf_writer *w, u64 *data_size, struct perf_err *err)
{
	struct perf_file_header h;
	u64 at = w->data_offset, end = w->disk_pos;

	if (w->opts.pipe || w->finished || !w->started || end < w->data_offset)
		return perf_err__set(err, EINVAL, "%s: nothing to salvage", w->name);
	/* walk the records that reached the file; the last one may be cut */
	while (at + sizeof(struct perf_event_header) <= end) {
		struct perf_event_header eh;

		if (pread(w->fd, &eh, sizeof(eh), (off_t)at) != (ssize_t)sizeof(eh))
			break;
		if (w->opts.cross_endian)
			eh.size = bswap_16(eh.size);
		if (eh.size < sizeof(eh) || at + eh.size > end)
			break;
		at += eh.size;
	}
	memset(&h, 0, sizeof(h));
	writer__file_header(w, &h, at - w->data_offset);
	/* the header's blocks exist already: rewriting them needs no free space */
	if (pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return perf_err__set(err, errno ? errno : EIO, "cannot write the header of %s: %m", w->name);
	if (ftruncate(w->fd, (off_t)at))
		return perf_err__set(err, errno, "cannot cut %s after its last record: %m", w->name);
	*data_size = at - w->data_offset;
	w->finished = true;
	return 0;
}

int perf_writer__flush(struct perf_writer *w, struct perf_err *err)
{
	int ret = 0;

	/* a file is read once finished: its records may wait for a full buffer */
	if (!w->opts.pipe || !w->started)
		return 0;
	if (w->failed || w->finished)
		return perf_err__set(err, EINVAL, "%s: %s", w->name,
				     w->failed ? "an earlier write failed" : "already finished");
	if (w->zstd)
		ret = writer__compress(w, w->comp_in_len, err);
	if (!ret)
		ret = out__flush(w, err);
	if (ret)
		w->failed = true;
	return ret;
}

u64 perf_writer__data_size(const struct perf_writer *w)
{
	return w->pos - w->data_offset;
}

int perf_writer__copy_features(struct perf_writer *w, struct perf_data *data, struct perf_err *err)
{
	const struct perf_env *env = perf_data__env(data);
	const struct { int feat; const char *s; } strings[] = {
		{ HEADER_HOSTNAME, env->hostname }, { HEADER_OSRELEASE, env->osrelease },
		{ HEADER_VERSION, env->version }, { HEADER_ARCH, env->arch },
		{ HEADER_CPUDESC, env->cpudesc }, { HEADER_CPUID, env->cpuid },
	};
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(strings) && !ret; i++)
		if (strings[i].s)
			ret = perf_writer__set_string(w, strings[i].feat, strings[i].s, err);
	if (!ret && perf_env__has_feat(env, HEADER_NRCPUS))
		ret = perf_writer__set_nrcpus(w, env->nr_cpus_avail, env->nr_cpus_online, err);
	if (!ret && env->cmdline)
		ret = perf_writer__set_cmdline(w, (int)env->nr_cmdline, (const char *const *)env->cmdline, err);
	for (size_t i = 0; i < env->nr_build_ids && !ret; i++) {
		const struct perf_build_id_entry *b = &env->build_ids[i];

		ret = perf_writer__add_build_id(w, b->pid, b->misc & ~PERF_RECORD_MISC_BUILD_ID_SIZE,
						b->build_id, b->size, b->filename, err);
	}
	if (!ret && env->tracing_data)
		ret = perf_writer__set_tracing_data(w, env->tracing_data, env->tracing_data_size, err);
	return ret;
}

int perf_writer__copy_header(struct perf_writer *w, struct perf_data *data, struct perf_err *err)
{
	int ret = 0;

	for (size_t i = 0; i < perf_data__nr_attrs(data) && !ret; i++) {
		const struct perf_evattr *ea = perf_data__attr(data, i);

		ret = perf_writer__add_attr(w, &ea->attr, ea->ids, ea->nr_ids, ea->name, err);
		ret = ret < 0 ? ret : 0;
	}
	return ret ? ret : perf_writer__copy_features(w, data, err);
}
