// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader: file mode (PERFILE2 header, attr section, data section, features) and
 * pipe mode (a 16-byte header, then records, metadata included), zstd-compressed records, and
 * cross-endian files.
 *
 * Validation ladder: anything that makes the rest of the input unreadable (bad magic, a
 * section past EOF, a record size smaller than its header or past its section, undecodable
 * zstd) aborts with an error naming the file offset and record type. Record contents are
 * checked by whoever parses them.
 */
#include <byteswap.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "data-internal.h"

#define PIPE_HEADER_SIZE	16
#define PIPE_BUF_SIZE		(1 << 20)
#define DROP_BEHIND_BYTES	(64 << 20)
/* a data section this large gets the prefetch thread, which keeps RSS as flat */
#define PREFETCH_MIN_BYTES	(64 << 20)
#define PREFETCH_DROP_BYTES	(48 << 20)
#define PREFETCH_STREAM_BYTES	1024
#define PERF_EVENT_UPDATE__NAME	2

static int read_full(int fd, void *buf, size_t len)
{
	u8 *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int)(done == len ? 1 : (done == 0 ? 0 : -ENODATA));
}

/* buffered reads from the pipe: one read(2) per MB instead of two per record */
static int pipe_read(struct perf_data *data, void *buf, size_t len)
{
	u8 *p = buf;
	size_t done = 0;

	while (done < len) {
		size_t avail = data->in_len - data->in_pos, take;

		if (!avail) {
			ssize_t n;

			if (!data->in_buf) {
				data->in_buf = malloc(PIPE_BUF_SIZE);
				if (!data->in_buf)
					return -ENOMEM;
			}
			do {
				n = read(data->fd, data->in_buf, PIPE_BUF_SIZE);
			} while (n < 0 && errno == EINTR);
			if (n < 0)
				return -errno;
			if (n == 0)
				break;
			data->in_pos = 0;
			data->in_len = (size_t)n;
			avail = (size_t)n;
		}
		take = avail < len - done ? avail : len - done;
		memcpy(p + done, data->in_buf + data->in_pos, take);
		data->in_pos += take;
		done += take;
	}
	return done == len ? 1 : (done == 0 ? 0 : -ENODATA);
}

/*
 * A failed pipe_read() inside a record: -ENODATA when the stream was cut there (perf record
 * killed, `head -c`), which the session takes as the end of what can be read; any other
 * errno is a read error. Upstream's words lead, ours say where.
 */
static int pipe_read_failed(const struct perf_data *data, int ret, struct perf_err *err,
			    const char *what, u64 off)
{
	if (ret == -ENODATA || ret == 0)
		return perf_err__set(err, ENODATA, "unexpected end of event stream: the input ends inside %s at offset %#llx",
				     what, (unsigned long long)off);
	return perf_err__set(err, -ret, "cannot read %s: %s, at offset %#llx", data->name,
			     strerror(-ret), (unsigned long long)data->pipe_bytes);
}

/*
 * The fields of an attr that lay out its records: a sample_type or read_format bit past the
 * last this reader knows means fields of unknown size, and every sample of the event would
 * be misread. idx and off name the attr (its index, its file offset).
 */
static int check_attr_layout(const struct perf_event_attr *attr, u64 idx, u64 off,
			     struct perf_err *err)
{
	u64 st_unknown = attr->sample_type & ~(PERF_SAMPLE_MAX - 1);
	u64 rf_unknown = attr->read_format & ~(PERF_FORMAT_MAX - 1);

	if (st_unknown)
		return perf_err__set(err, EINVAL, "attr %llu at offset %#llx: sample_type %#llx has bits this perf does not know (%#llx): its samples cannot be parsed",
				     (unsigned long long)idx, (unsigned long long)off,
				     (unsigned long long)attr->sample_type,
				     (unsigned long long)st_unknown);
	if (rf_unknown)
		return perf_err__set(err, EINVAL, "attr %llu at offset %#llx: read_format %#llx has bits this perf does not know (%#llx): its read values cannot be parsed",
				     (unsigned long long)idx, (unsigned long long)off,
				     (unsigned long long)attr->read_format,
				     (unsigned long long)rf_unknown);
	return 0;
}

int perf_data__add_attr(struct perf_data *data, const struct perf_event_attr *attr, size_t attr_size,
			const u64 *ids, size_t nr_ids, struct perf_err *err)
{
	struct perf_evattr *ea, *attrs;

	attrs = realloc(data->attrs, (data->nr_attrs + 1) * sizeof(*attrs));
	if (!attrs)
		return perf_err__set(err, ENOMEM, "out of memory reading attrs");
	data->attrs = attrs;
	ea = &attrs[data->nr_attrs];
	memset(ea, 0, sizeof(*ea));
	/* attrs from newer kernels are longer: keep what we know, the rest is ignored */
	memcpy(&ea->attr, attr, attr_size < sizeof(ea->attr) ? attr_size : sizeof(ea->attr));
	if (nr_ids) {
		ea->ids = malloc(nr_ids * sizeof(u64));
		if (!ea->ids)
			return perf_err__set(err, ENOMEM, "out of memory reading attr ids");
		memcpy(ea->ids, ids, nr_ids * sizeof(u64));
	}
	ea->nr_ids = nr_ids;
	ea->idx = (int)data->nr_attrs;
	perf_evattr__init_positions(ea);
	data->nr_attrs++;
	return 0;
}

static bool section_ok(const struct perf_data *data, const struct perf_file_section *s)
{
	return s->offset <= data->map_size && s->size <= data->map_size - s->offset;
}

static int read_attrs(struct perf_data *data, struct perf_err *err)
{
	const struct perf_file_header *h = &data->header;
	u64 n, entry = h->attr_size;

	if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section))
		return perf_err__set(err, EINVAL, "attr size %llu in the file header at offset 0x10 is too small",
				     (unsigned long long)entry);
	if (!section_ok(data, &h->attrs))
		return perf_err__set(err, EINVAL, "attr section [%#llx, +%#llx) runs past the end of the file (%zu bytes)",
				     (unsigned long long)h->attrs.offset,
				     (unsigned long long)h->attrs.size, data->map_size);
	/* the attr section lies after the file header, and holds whole entries */
	if (h->attrs.size && h->attrs.offset < h->size)
		return perf_err__set(err, EINVAL, "attr section [%#llx, +%#llx) overlaps the file header (%llu bytes)",
				     (unsigned long long)h->attrs.offset,
				     (unsigned long long)h->attrs.size, (unsigned long long)h->size);
	if (h->attrs.size % entry)
		return perf_err__set(err, EINVAL, "attr section size %#llx at offset 0x20 is not a multiple of the attr size %llu",
				     (unsigned long long)h->attrs.size, (unsigned long long)entry);
	n = h->attrs.size / entry;
	for (u64 i = 0; i < n; i++) {
		u64 off = h->attrs.offset + i * entry;
		struct perf_event_attr *attr = (void *)(data->map + off);
		size_t asz = (size_t)(entry - sizeof(struct perf_file_section));
		struct perf_file_section ids;
		int ret;

		if (data->swapped)
			perf_event_attr__swap(attr, asz);
		/* 0 is the first ABI's size; a writer's attr never outgrows the entry it wrote */
		if (attr->size && (attr->size < PERF_ATTR_SIZE_VER0 || attr->size > asz))
			return perf_err__set(err, EINVAL, "attr %llu at offset %#llx: attr size %u is not between %u and the %zu bytes of its entry",
					     (unsigned long long)i, (unsigned long long)off, attr->size,
					     PERF_ATTR_SIZE_VER0, asz);
		if (check_attr_layout(attr, i, off, err))
			return -EINVAL;
		memcpy(&ids, data->map + off + asz, sizeof(ids));
		if (data->swapped) {
			ids.offset = bswap_64(ids.offset);
			ids.size = bswap_64(ids.size);
		}
		if (!section_ok(data, &ids))
			return perf_err__set(err, EINVAL, "id array of attr %llu (at offset %#llx) runs past the end of the file",
					     (unsigned long long)i, (unsigned long long)off);
		if (ids.size % sizeof(u64))
			return perf_err__set(err, EINVAL, "id array of attr %llu (at offset %#llx) is %#llx bytes, not a whole number of ids",
					     (unsigned long long)i, (unsigned long long)off,
					     (unsigned long long)ids.size);
		if (data->swapped) {
			u64 *v = (u64 *)(data->map + ids.offset);

			for (u64 k = 0; k < ids.size / 8; k++)
				v[k] = bswap_64(v[k]);
		}
		ret = perf_data__add_attr(data, attr, asz, (const u64 *)(data->map + ids.offset),
					  ids.size / 8, err);
		if (ret)
			return ret;
	}
	if (!data->nr_attrs)
		return perf_err__set(err, EINVAL, "the file has no attrs (attr section at offset %#llx is empty)",
				     (unsigned long long)h->attrs.offset);
	return 0;
}

static int open_file(struct perf_data *data, struct perf_err *err)
{
	struct perf_file_header *h = &data->header;
	struct stat st;

	if (fstat(data->fd, &st))
		return perf_err__set(err, errno, "cannot stat %s: %m", data->name);
	if ((size_t)st.st_size < sizeof(*h))
		return perf_err__set(err, EINVAL, "%s is truncated: %lld bytes, the file header needs %zu",
				     data->name, (long long)st.st_size, sizeof(*h));
	data->map_size = (size_t)st.st_size;
	data->map = mmap(NULL, data->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, data->fd, 0);
	if (data->map == MAP_FAILED) {
		data->map = NULL;
		return perf_err__set(err, errno, "cannot map %s: %m", data->name);
	}
	memcpy(h, data->map, sizeof(*h));
	if (data->swapped) {
		u64 *v = (u64 *)h;

		for (size_t i = 1; i < sizeof(*h) / 8; i++)
			v[i] = bswap_64(v[i]);
	}
	if (h->size < sizeof(*h))
		return perf_err__set(err, EINVAL, "file header size %llu at offset 0x8 is smaller than %zu",
				     (unsigned long long)h->size, sizeof(*h));
	if (h->size > data->map_size)
		return perf_err__set(err, EINVAL, "file header size %llu at offset 0x8 is larger than the file (%zu bytes)",
				     (unsigned long long)h->size, data->map_size);
	if (!section_ok(data, &h->data))
		return perf_err__set(err, EINVAL, "data section [%#llx, +%#llx) runs past the end of the file (%zu bytes): truncated?",
				     (unsigned long long)h->data.offset,
				     (unsigned long long)h->data.size, data->map_size);
	if (h->data.size && h->data.offset < h->size)
		return perf_err__set(err, EINVAL, "data section [%#llx, +%#llx) overlaps the file header (%llu bytes)",
				     (unsigned long long)h->data.offset,
				     (unsigned long long)h->data.size, (unsigned long long)h->size);
	memcpy(data->env.features, h->adds_features, sizeof(data->env.features));
	if (read_attrs(data, err))
		return -EINVAL;
	if (perf_data__read_features(data, err))
		return -EINVAL;
	data->pos = h->data.offset;
	data->data_end = h->data.offset + h->data.size;
	/* the header, attrs and ids before the data stay: attrs are copied, ids too */
	data->released = (size_t)(h->data.offset & ~(u64)4095);
	return 0;
}

static struct perf_data *perf_data__new(int fd, const char *name)
{
	struct perf_data *data = calloc(1, sizeof(*data));

	if (!data)
		return NULL;
	data->fd = fd;
	data->name = strdup(name);
	if (!data->name) {
		free(data);
		return NULL;
	}
	return data;
}

struct perf_data *perf_data__open_fd(int fd, const char *name, struct perf_err *err)
{
	struct perf_data *data = perf_data__new(fd, name);
	u64 magic, size;
	u8 head[PIPE_HEADER_SIZE];
	struct stat st;
	int ret;

	if (!data) {
		close(fd);
		perf_err__set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (fstat(fd, &st))
		goto out_errno;
	if (S_ISREG(st.st_mode)) {
		if (!st.st_size && strcmp(name, "-")) {
			/* upstream's words (for a named file: it reads "-" as a stream) */
			perf_err__set(err, ENODATA, "zero-sized data (%s), nothing to do!", name);
			goto out_close;
		}
		if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head)) {
			perf_err__set(err, EINVAL, "%s is truncated: no 16-byte header", name);
			goto out_close;
		}
	} else {
		ret = read_full(fd, head, sizeof(head));
		if (ret < 0 && ret != -ENODATA) {
			perf_err__set(err, -ret, "cannot read %s: %s", name, strerror(-ret));
			goto out_close;
		}
		if (ret <= 0) {
			perf_err__set(err, EINVAL, "%s: input ended before the 16-byte pipe header", name);
			goto out_close;
		}
		data->pipe_bytes = sizeof(head);
	}
	memcpy(&magic, head, 8);
	memcpy(&size, head + 8, 8);
	if (magic == PERF_MAGIC2_SWAPPED) {
		data->swapped = true;
		size = bswap_64(size);
	} else if (magic != PERF_MAGIC2) {
		perf_err__set(err, EINVAL, "%s: bad magic at offset 0 (not a perf.data file, or the old PERFFILE format)", name);
		goto out_close;
	}
	if (size == PIPE_HEADER_SIZE) {
		data->pipe = true;
		if (S_ISREG(st.st_mode) && lseek(fd, PIPE_HEADER_SIZE, SEEK_SET) < 0)
			goto out_errno;
		data->pipe_bytes = PIPE_HEADER_SIZE;
		data->pos = PIPE_HEADER_SIZE;
		return data;
	}
	if (!S_ISREG(st.st_mode)) {
		perf_err__set(err, EINVAL, "%s: a file-mode header (size %llu) arrived on a pipe", name,
			      (unsigned long long)size);
		goto out_close;
	}
	if (open_file(data, err))
		goto out_close;
	return data;

out_errno:
	perf_err__set(err, errno, "%s: %m", name);
out_close:
	perf_data__close(data);
	return NULL;
}

/*
 * The data.N files of a perf.data directory (perf record --threads: one per thread, as
 * upstream's perf_data__open_dir() finds them: regular files named "data.*"). Their number;
 * first and last get the lowest and highest N (of the names that have one).
 */
static int dir__thread_files(int dirfd, long *first, long *last)
{
	int fd = dup(dirfd), nr = 0;
	struct dirent *d;
	DIR *dir;

	*first = *last = -1;
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while ((d = readdir(dir))) {
		struct stat st;
		char *end;
		long n;

		if (strncmp(d->d_name, "data.", 5) || fstatat(dirfd, d->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
			continue;
		nr++;
		n = strtol(d->d_name + 5, &end, 10);
		if (end == d->d_name + 5 || *end || n < 0)
			continue;
		if (*first < 0 || n < *first)
			*first = n;
		if (n > *last)
			*last = n;
	}
	closedir(dir);
	return nr;
}

/*
 * perf's directory format, as upstream reads it: the header and the samples in DIR/data,
 * beside what perf record --kcore copied (DIR/kcore_dir, which the commands look at). A
 * directory of perf record --threads (DIR_FORMAT in the header, the samples in data.N files)
 * is refused: its samples are not in DIR/data.
 */
static struct perf_data *perf_data__open_dir(int dirfd, const char *path, struct perf_err *err)
{
	struct perf_data *data = NULL;
	long first, last;
	char *name;
	int fd, nr;

	if (asprintf(&name, "%s/data", path) < 0) {
		close(dirfd);
		perf_err__set(err, ENOMEM, "out of memory");
		return NULL;
	}
	fd = openat(dirfd, "data", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* upstream's words */
		perf_err__set(err, errno, "failed to open %s: %m", name);
		goto out_free;
	}
	data = perf_data__open_fd(fd, name, err);
	if (!data)
		goto out_free;
	nr = dir__thread_files(dirfd, &first, &last);
	if (nr || (!data->pipe && perf_env__has_feat(&data->env, HEADER_DIR_FORMAT))) {
		char files[128] = "no data.N file is there";

		if (nr == 1 && first >= 0)
			snprintf(files, sizeof(files), "its samples are in data.%ld", first);
		else if (nr && first >= 0)
			snprintf(files, sizeof(files), "its samples are in data.%ld ... data.%ld, %d files",
				 first, last, nr);
		else if (nr)
			snprintf(files, sizeof(files), "its samples are in %d data.* files", nr);
		perf_err__set(err, EISDIR, "failed to open %s: a perf.data directory of perf record --threads (%s), which is not supported",
			      path, files);
		perf_data__close(data);
		data = NULL;
		goto out_free;
	}
	data->dir = strdup(path);
	if (!data->dir) {
		perf_data__close(data);
		data = NULL;
		perf_err__set(err, ENOMEM, "out of memory");
	}
out_free:
	free(name);
	close(dirfd);
	return data;
}

struct perf_data *perf_data__open(const char *path, struct perf_err *err)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return perf_data__open_fd(dup(STDIN_FILENO), "-", err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out_errno;
	if (!fstat(fd, &st) && S_ISDIR(st.st_mode))
		return perf_data__open_dir(fd, path, err);
	return perf_data__open_fd(fd, path, err);

out_errno:
	/* upstream's words, and its hint when the default input is missing */
	perf_err__set(err, errno, "failed to open %s: %m%s", path,
		      errno == ENOENT && !strcmp(path, "perf.data") ? "  (try 'perf record' first)" : "");
	return NULL;
}

void perf_data__close(struct perf_data *data)
{
	if (!data)
		return;
	data_prefetch__stop(data->prefetch);
	for (size_t i = 0; i < data->nr_attrs; i++) {
		free(data->attrs[i].ids);
		free(data->attrs[i].name);
	}
	free(data->attrs);
	perf_env__exit(&data->env);
	if (data->map)
		munmap(data->map, data->map_size);
	if (data->fd >= 0)
		close(data->fd);
	if (data->zstd)
		ZSTD_freeDCtx(data->zstd);
	free(data->decomp);
	free(data->decomp_rec);
	free(data->rec_buf);
	free(data->align_buf);
	free(data->in_buf);
	free(data->id_index);
	free(data->name);
	free(data->dir);
	free(data);
}

static u16 trailer_size(const struct perf_data *data)
{
	return data->nr_attrs ? data->attrs[0].id_hdr_size : 0;
}

/* append the zstd payload of a COMPRESSED(2) record to the decompression buffer */
static int decompress(struct perf_data *data, const struct perf_event_header *h, u64 offset,
		      struct perf_err *err)
{
	const u8 *src = (const u8 *)(h + 1);
	size_t src_len = h->size - sizeof(*h);
	ZSTD_inBuffer in;

	if (h->type == PERF_RECORD_COMPRESSED2) {
		const struct perf_record_compressed2 *c2 = (const void *)h;

		if (h->size < sizeof(*c2) || c2->data_size > h->size - sizeof(*c2))
			return perf_err__set(err, EINVAL, "COMPRESSED2 (83) record at offset %#llx: data_size %llu exceeds the record (%u bytes)",
					     (unsigned long long)offset,
					     (unsigned long long)(h->size >= sizeof(*c2) ? c2->data_size : 0),
					     h->size);
		src = (const u8 *)c2->data;
		src_len = (size_t)c2->data_size;
	}
	if (!data->zstd) {
		data->zstd = ZSTD_createDCtx();
		if (!data->zstd)
			return perf_err__set(err, ENOMEM, "cannot create a zstd context");
	}
	/* keep the partial record left over from the previous chunk at the front */
	if (data->decomp_pos) {
		memmove(data->decomp, data->decomp + data->decomp_pos, data->decomp_len - data->decomp_pos);
		data->decomp_len -= data->decomp_pos;
		data->decomp_pos = 0;
	}
	in = (ZSTD_inBuffer){ src, src_len, 0 };
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		if (data->decomp_size - data->decomp_len < 65536) {
			size_t nsize = data->decomp_size ? data->decomp_size * 2 : 1 << 20;
			u8 *n = realloc(data->decomp, nsize);

			if (!n)
				return perf_err__set(err, ENOMEM, "out of memory decompressing");
			data->decomp = n;
			data->decomp_size = nsize;
		}
		out = (ZSTD_outBuffer){ data->decomp, data->decomp_size, data->decomp_len };
		ret = ZSTD_decompressStream(data->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return perf_err__set(err, EINVAL, "%s (%u) record at offset %#llx: zstd: %s",
					     perf_record_type__name(h->type), h->type, (unsigned long long)offset,
					     ZSTD_getErrorName(ret));
		data->decomp_len = out.pos;
		/* all input taken and the output not full: nothing is left inside zstd */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	data->decomp_offset = offset;
	return 0;
}

/* the next complete record in the decompression buffer, or 0 when none is left */
static int next_decompressed(struct perf_data *data, struct perf_data_record *rec, struct perf_err *err)
{
	struct perf_event_header h;
	size_t left = data->decomp_len - data->decomp_pos;
	u8 *p = data->decomp + data->decomp_pos;

	if (left < sizeof(h))
		return 0;
	memcpy(&h, p, sizeof(h));
	if (data->swapped)
		h.size = bswap_16(h.size);
	if (h.size < sizeof(h))
		return perf_err__set(err, EINVAL, "record of size %u inside the compressed record at offset %#llx is smaller than its header",
				     h.size, (unsigned long long)data->decomp_offset);
	if (left < h.size)
		return 0;	/* the rest comes with the next compressed record */
	/* an aligned private copy: consumers read u64 fields in place */
	if (data->decomp_rec_size < h.size) {
		u8 *n = realloc(data->decomp_rec, 65536);

		if (!n)
			return perf_err__set(err, ENOMEM, "out of memory");
		data->decomp_rec = n;
		data->decomp_rec_size = 65536;
	}
	memcpy(data->decomp_rec, p, h.size);
	data->decomp_pos += h.size;
	if (data->swapped)
		perf_record__swap((void *)data->decomp_rec, trailer_size(data));
	rec->header = (const void *)data->decomp_rec;
	rec->file_offset = data->decomp_offset;
	rec->stable = false;
	rec->decompressed = true;
	return 1;
}

static int next_file_record(struct perf_data *data, struct perf_data_record *rec, struct perf_err *err)
{
	struct perf_event_header hdr, *h;
	u64 off = data->pos;

	if (off >= data->data_end)
		return 0;
	if (!data->prefetch_tried) {
		data->prefetch_tried = true;
		if (data->data_end - off >= PREFETCH_MIN_BYTES) {
			data->prefetch = data_prefetch__start(data->helpers, data->map, off,
							      data->data_end, data->released,
							      data->swapped ? 0 : PREFETCH_DROP_BYTES);
			data->prefetch_next = off + data_prefetch__step();
		}
	}
	if (data->data_end - off < sizeof(hdr))
		return perf_err__set(err, EINVAL, "truncated record header at offset %#llx: %llu bytes left in the data section",
				     (unsigned long long)off, (unsigned long long)(data->data_end - off));
	memcpy(&hdr, data->map + off, sizeof(hdr));
	if (data->swapped) {
		hdr.size = bswap_16(hdr.size);
		hdr.type = bswap_32(hdr.type);
	}
	if (hdr.size < sizeof(hdr))
		return perf_err__set(err, EINVAL, "record at offset %#llx (type %u %s) has size %u, smaller than its 8-byte header",
				     (unsigned long long)off, hdr.type, perf_record_type__name(hdr.type), hdr.size);
	if (hdr.size > data->data_end - off)
		return perf_err__set(err, EINVAL, "record at offset %#llx (type %u %s, size %u) runs past the end of the data section at %#llx",
				     (unsigned long long)off, hdr.type, perf_record_type__name(hdr.type), hdr.size,
				     (unsigned long long)data->data_end);
	h = (void *)(data->map + off);
	rec->stable = true;
	/* records after an unpadded COMPRESSED record are misaligned: hand out a copy */
	if (off & 7) {
		if (!data->align_buf) {
			data->align_buf = malloc(65536);
			if (!data->align_buf)
				return perf_err__set(err, ENOMEM, "out of memory");
		}
		memcpy(data->align_buf, h, hdr.size);
		h = (void *)data->align_buf;
		rec->stable = false;
	}
	if (data->swapped)
		perf_record__swap(h, trailer_size(data));
	data->pos += hdr.size;
	/*
	 * The next headers are cache misses when records are KBs apart (stack dumps): start
	 * them while this one is used, the one after guessed to follow a record of this size.
	 */
	if (data->pos + hdr.size < data->data_end)
		__builtin_prefetch(data->map + data->pos + hdr.size);
	if (data->pos < data->data_end)
		__builtin_prefetch(data->map + data->pos);
	/* small records: the stream a few lines ahead, where page boundaries stop the hardware */
	if (data->pos + PREFETCH_STREAM_BYTES < data->data_end)
		__builtin_prefetch(data->map + data->pos + PREFETCH_STREAM_BYTES);
	if (data->prefetch) {
		if (data->pos >= data->prefetch_next) {
			data_prefetch__advance(data->prefetch, data->pos);
			data->prefetch_next = data->pos + data_prefetch__step();
		}
		goto out;
	}
	/*
	 * Give back what is behind us to keep RSS flat on large files. The pages read back
	 * from the file if touched again, so pointers stay good; not so the in-place swapping
	 * of a cross-endian file, which therefore keeps its pages.
	 */
	if (!data->swapped && data->pos - data->released > DROP_BEHIND_BYTES) {
		size_t page = 4096, upto = (size_t)(off & ~(u64)(page - 1));

		if (upto > data->released) {
			madvise(data->map + data->released, upto - data->released, MADV_DONTNEED);
			data->released = upto;
		}
	}
out:
	rec->header = h;
	rec->file_offset = off;
	rec->decompressed = false;
	return 1;
}

static int pipe_read_record(struct perf_data *data, struct perf_data_record *rec, struct perf_err *err)
{
	struct perf_event_header h;
	u64 off = data->pipe_bytes;
	int ret;

	ret = pipe_read(data, &h, sizeof(h));
	if (ret == 0)
		return 0;
	if (ret < 0)
		return pipe_read_failed(data, ret, err, "the 8-byte header of the record", off);
	if (data->swapped) {
		h.size = bswap_16(h.size);
		h.type = bswap_32(h.type);
	}
	if (h.size < sizeof(h))
		return perf_err__set(err, EINVAL, "record at offset %#llx (type %u %s) has size %u, smaller than its 8-byte header",
				     (unsigned long long)off, h.type, perf_record_type__name(h.type), h.size);
	if (data->rec_buf_size < 65536) {
		data->rec_buf = malloc(65536);
		if (!data->rec_buf)
			return perf_err__set(err, ENOMEM, "out of memory");
		data->rec_buf_size = 65536;
	}
	memcpy(data->rec_buf, &h, sizeof(h));
	if (data->swapped) {
		/* undo our partial swap so perf_record__swap sees the file's bytes */
		struct perf_event_header *raw = (void *)data->rec_buf;

		raw->size = bswap_16(h.size);
		raw->type = bswap_32(h.type);
	}
	ret = pipe_read(data, data->rec_buf + sizeof(h), h.size - sizeof(h));
	if (ret <= 0 && h.size > sizeof(h)) {
		char what[96];

		snprintf(what, sizeof(what), "the record (type %u %s, size %u)", h.type,
			 perf_record_type__name(h.type), h.size);
		return pipe_read_failed(data, ret, err, what, off);
	}
	data->pipe_bytes += h.size;
	if (data->swapped)
		perf_record__swap((void *)data->rec_buf, trailer_size(data));
	rec->header = (const void *)data->rec_buf;
	rec->file_offset = off;
	rec->stable = false;
	rec->decompressed = false;
	return 1;
}

static struct perf_evattr *attr_by_id(struct perf_data *data, u64 id);

/* pipe-mode metadata: the reader keeps what later records need */
static int apply_pipe_metadata(struct perf_data *data, const struct perf_data_record *rec,
			       struct perf_err *err)
{
	const struct perf_event_header *h = rec->header;
	unsigned long long off = (unsigned long long)rec->file_offset;

	switch (h->type) {
	case PERF_RECORD_HEADER_ATTR: {
		const struct perf_event_attr *attr = (const void *)(h + 1);
		size_t len = h->size - sizeof(*h);
		u32 asz;

		if (len < PERF_ATTR_SIZE_VER0)
			return perf_err__set(err, EINVAL, "ATTR (64) record at offset %#llx is too short (%u bytes)", off, h->size);
		asz = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
		if (asz > len || asz < PERF_ATTR_SIZE_VER0)
			return perf_err__set(err, EINVAL, "ATTR (64) record at offset %#llx: attr size %u does not fit the record (%u bytes)",
					     off, asz, h->size);
		if (check_attr_layout(attr, data->nr_attrs, off + sizeof(*h), err))
			return -EINVAL;
		return perf_data__add_attr(data, attr, asz, (const u64 *)((const u8 *)attr + asz),
					   (len - asz) / 8, err);
	}
	case PERF_RECORD_HEADER_FEATURE: {
		const struct perf_record_header_feature *f = (const void *)h;
		int applied;

		if (h->size < sizeof(*f))
			return perf_err__set(err, EINVAL, "FEATURE record at offset %#llx is too short", off);
		if (f->feat_id >= HEADER_FEAT_BITS)
			return 0;
		data->env.features[f->feat_id / 64] |= 1ULL << (f->feat_id % 64);
		applied = perf_data__apply_feature(data, (int)f->feat_id, (const u8 *)f->data,
						   h->size - sizeof(*f), rec->file_offset + sizeof(*f),
						   err);
		/*
		 * perf ends its features with an empty one of its own HEADER_LAST_FEATURE id, a
		 * real feature for a newer perf (6.1's 32 is 7.2's CPU_DOMAIN_INFO): an empty
		 * body that does not parse is that marker, not the feature
		 */
		if (!applied && h->size == sizeof(*f) && f->feat_id < HEADER_LAST_FEATURE &&
		    !perf_env__parsed(&data->env, (int)f->feat_id))
			data->env.features[f->feat_id / 64] &= ~(1ULL << (f->feat_id % 64));
		return applied;
	}
	case PERF_RECORD_EVENT_UPDATE: {
		/* header | u64 type | u64 id | name: perf renames the event with that id */
		const u64 *w = (const void *)(h + 1);
		struct perf_evattr *ea;
		char *name;

		if (h->size < sizeof(*h) + 17 || w[0] != PERF_EVENT_UPDATE__NAME)
			return 0;
		ea = data->nr_attrs == 1 ? &data->attrs[0] : attr_by_id(data, w[1]);
		if (!ea)
			return 0;
		name = strndup((const char *)(w + 2), h->size - sizeof(*h) - 16);
		if (!name)
			return perf_err__set(err, ENOMEM, "out of memory");
		free(ea->name);
		ea->name = name;
		return 0;
	}
	case PERF_RECORD_HEADER_BUILD_ID: {
		const struct perf_record_header_build_id *bid = (const void *)h;

		if (h->size < sizeof(*bid))
			return perf_err__set(err, EINVAL, "BUILD_ID record at offset %#llx is too short (%u bytes)", off, h->size);
		if (perf_env__add_build_id(&data->env, bid, bid->filename, h->size - sizeof(*bid)))
			return perf_err__set(err, ENOMEM, "out of memory");
		return 0;
	}
	case PERF_RECORD_HEADER_TRACING_DATA: {
		/* the tracing data follows the record in the stream, padded to 8 bytes */
		u32 size;
		size_t padded;
		void *buf;
		int ret;

		if (h->size < sizeof(*h) + 4)
			return perf_err__set(err, EINVAL, "TRACING_DATA record at offset %#llx is too short", off);
		memcpy(&size, h + 1, 4);
		padded = ((size_t)size + 7) & ~(size_t)7;
		if (data->map) {
			if (padded > data->data_end - data->pos)
				return perf_err__set(err, EINVAL, "TRACING_DATA at offset %#llx: %u bytes run past the end of the input", off, size);
			buf = malloc(padded ? padded : 1);
			if (!buf)
				return perf_err__set(err, ENOMEM, "out of memory for %u bytes of tracing data", size);
			memcpy(buf, data->map + data->pos, padded);
			data->pos += padded;
		} else {
			/* grow as the bytes really arrive: the size field is untrusted */
			size_t have = 0, cap = 0;

			buf = NULL;
			while (have < padded) {
				size_t chunk = padded - have < (1 << 20) ? padded - have : (1 << 20);
				void *n;

				if (have + chunk > cap) {
					cap = have + chunk;
					n = realloc(buf, cap);
					if (!n) {
						free(buf);
						return perf_err__set(err, ENOMEM, "out of memory for %u bytes of tracing data", size);
					}
					buf = n;
				}
				ret = pipe_read(data, (u8 *)buf + have, chunk);
				if (ret != 1) {
					free(buf);
					return pipe_read_failed(data, ret, err, "the tracing data of the TRACING_DATA record", off);
				}
				have += chunk;
			}
			if (!buf)
				buf = malloc(1);
			if (!buf)
				return perf_err__set(err, ENOMEM, "out of memory");
			data->pipe_bytes += padded;
		}
		free(data->env.tracing_data);
		data->env.tracing_data = buf;
		data->env.tracing_data_size = size;
		data->env.features[HEADER_TRACING_DATA / 64] |= 1ULL << HEADER_TRACING_DATA;
		data->env.parsed[HEADER_TRACING_DATA / 64] |= 1ULL << HEADER_TRACING_DATA;
		return 0;
	}
	default:
		return 0;
	}
}

int perf_data__next(struct perf_data *data, struct perf_data_record *rec, struct perf_err *err)
{
	for (;;) {
		int ret;

		if (data->decomp) {
			ret = next_decompressed(data, rec, err);
			if (ret)
				return ret;
		}
		ret = data->pipe && !data->map ? pipe_read_record(data, rec, err)
					       : next_file_record(data, rec, err);
		if (ret <= 0) {
			if (ret == 0 && data->decomp_len > data->decomp_pos)
				return perf_err__set(err, EINVAL, "the compressed data ends inside a record (%zu bytes left over from the record at offset %#llx)",
						     data->decomp_len - data->decomp_pos,
						     (unsigned long long)data->decomp_offset);
			return ret;
		}
		if (rec->header->type == PERF_RECORD_COMPRESSED ||
		    rec->header->type == PERF_RECORD_COMPRESSED2) {
			if (rec->header->type == PERF_RECORD_COMPRESSED)
				data->nr_compressed++;
			else
				data->nr_compressed2++;
			ret = decompress(data, rec->header, rec->file_offset, err);
			if (ret)
				return ret;
			continue;
		}
		if (rec->header->type >= PERF_RECORD_USER_TYPE_START) {
			ret = apply_pipe_metadata(data, rec, err);
			if (ret)
				return ret;
		}
		return 1;
	}
}

u64 perf_data__nr_compressed(const struct perf_data *data, u32 type)
{
	return type == PERF_RECORD_COMPRESSED ? data->nr_compressed :
	       type == PERF_RECORD_COMPRESSED2 ? data->nr_compressed2 : 0;
}

void perf_data__set_helpers(struct perf_data *data, struct helper_budget *hb)
{
	data->helpers = hb;
}

bool perf_data__is_pipe(const struct perf_data *data)
{
	return data->pipe;
}

bool perf_data__needs_swap(const struct perf_data *data)
{
	return data->swapped;
}

const char *perf_data__name(const struct perf_data *data)
{
	return data->name;
}

const char *perf_data__dir(const struct perf_data *data)
{
	return data->dir;
}

const struct perf_file_header *perf_data__file_header(const struct perf_data *data)
{
	return &data->header;
}

const struct perf_env *perf_data__env(const struct perf_data *data)
{
	return &data->env;
}

size_t perf_data__nr_attrs(const struct perf_data *data)
{
	return data->nr_attrs;
}

struct perf_evattr *perf_data__attr(struct perf_data *data, size_t idx)
{
	return idx < data->nr_attrs ? &data->attrs[idx] : NULL;
}

static int id_entry__cmp(const void *a, const void *b)
{
	const struct perf_id_entry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* a sorted (id -> attr) index, rebuilt when pipe mode adds attrs */
static void build_id_index(struct perf_data *data)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < data->nr_attrs; i++)
		n += data->attrs[i].nr_ids;
	free(data->id_index);
	data->id_index = malloc((n ? n : 1) * sizeof(*data->id_index));
	data->nr_id_index = 0;
	data->id_index_attrs = data->nr_attrs;
	if (!data->id_index)
		return;
	for (size_t i = 0; i < data->nr_attrs; i++)
		for (size_t j = 0; j < data->attrs[i].nr_ids; j++)
			data->id_index[k++] = (struct perf_id_entry){ data->attrs[i].ids[j], i };
	qsort(data->id_index, k, sizeof(*data->id_index), id_entry__cmp);
	data->nr_id_index = k;
}

static struct perf_evattr *attr_by_id(struct perf_data *data, u64 id)
{
	struct perf_id_entry key = { id, 0 }, *hit;

	if (data->id_index_attrs != data->nr_attrs)
		build_id_index(data);
	if (!data->nr_id_index)
		return NULL;
	hit = bsearch(&key, data->id_index, data->nr_id_index, sizeof(key), id_entry__cmp);
	return hit ? &data->attrs[hit->attr] : NULL;
}

struct perf_evattr *perf_data__attr_by_id(struct perf_data *data, u64 id)
{
	return attr_by_id(data, id);
}

struct perf_evattr *perf_data__attr_of(struct perf_data *data, const struct perf_event_header *h)
{
	const struct perf_evattr *first;
	const u8 *p;
	u64 id;
	int pos;

	if (!data->nr_attrs)
		return NULL;
	if (data->nr_attrs == 1)
		return &data->attrs[0];
	first = &data->attrs[0];
	if (h->type == PERF_RECORD_SAMPLE) {
		pos = first->id_pos;
		if (pos < 0 || sizeof(*h) + (size_t)(pos + 1) * 8 > h->size)
			return &data->attrs[0];
		p = (const u8 *)(h + 1) + pos * 8;
	} else {
		if (!perf_attr__has(&first->attr, PERF_ATTR_BIT_SAMPLE_ID_ALL))
			return &data->attrs[0];
		pos = first->is_pos;
		if (pos < 0 || !first->id_hdr_size || (size_t)pos * 8 > h->size - sizeof(*h))
			return &data->attrs[0];
		p = (const u8 *)h + h->size - pos * 8;
	}
	memcpy(&id, p, 8);
	if (data->swapped)
		id = bswap_64(id);
	/* perf synthesizes side-band records with id 0: they belong to the first event */
	if (!id)
		return &data->attrs[0];
	return attr_by_id(data, id);
}

struct perf_data *perf_data__open_whole(const char *path, struct perf_err *err)
{
	struct perf_data *data = perf_data__open(path, err);
	struct perf_data_record rec;
	int ret;

	if (!data || !perf_data__is_pipe(data))
		return data;
	while ((ret = perf_data__next(data, &rec, err)) > 0)
		;
	if (ret < 0) {
		perf_data__close(data);
		return NULL;
	}
	return data;
}
