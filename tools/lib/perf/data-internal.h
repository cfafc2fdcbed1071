/* SPDX-License-Identifier: GPL-2.0 */
/*
 * data-internal.h - struct perf_data, shared by the reader (data.c) and the header-feature
 * parser (features.c). Not part of the library's API.
 */
#ifndef PERF_DATA_INTERNAL_H
#define PERF_DATA_INTERNAL_H

#include <zstd.h>
#include <perf/data.h>

struct perf_id_entry {
	u64	id;
	size_t	attr;
};

struct perf_data {
	char			*name;		/* the file read: DIR/data for a directory */
	char			*dir;		/* the directory given, NULL for a file or pipe */
	int			fd;
	bool			pipe;
	bool			swapped;
	struct perf_file_header	header;
	struct perf_env		env;
	struct perf_evattr	*attrs;
	size_t			nr_attrs;
	struct perf_id_entry	*id_index;	/* sorted by id */
	size_t			nr_id_index;
	size_t			id_index_attrs;	/* nr_attrs when it was built */

	/* file mode: the whole file, mapped private and writable so swapping works in place */
	u8			*map;
	size_t			map_size;
	u64			pos;		/* next record's file offset */
	u64			data_end;
	size_t			released;	/* mapping below this was given back */
	struct data_prefetch	*prefetch;	/* maps in ahead, drops behind (large files) */
	size_t			prefetch_next;	/* report the position to it from here */
	bool			prefetch_tried;
	struct helper_budget	*helpers;	/* borrowed; NULL: no prefetch thread */
	u8			*align_buf;	/* aligned copy of a misaligned record */

	/* pipe mode: one record at a time */
	u8			*rec_buf;
	size_t			rec_buf_size;
	u64			pipe_bytes;
	u8			*in_buf;	/* read-ahead buffer */
	size_t			in_pos, in_len;

	/* decompressed records waiting to be handed out */
	ZSTD_DCtx		*zstd;
	u8			*decomp;
	size_t			decomp_size;	/* allocated */
	size_t			decomp_len;	/* valid bytes */
	size_t			decomp_pos;	/* next record */
	u64			decomp_offset;	/* file offset of the container record */
	u8			*decomp_rec;	/* aligned copy of the record being handed out */
	size_t			decomp_rec_size;
	u64			nr_compressed, nr_compressed2;	/* containers read */
};

/*
 * data-prefetch.c: a thread that populates [begin, end) of map ahead of the reader and, with
 * drop_step, gives back what is behind it each time the reader went that far. NULL when no
 * thread could be started (or hb has no spare CPU). Positions are offsets into map; released
 * is what is already gone.
 */
struct data_prefetch;
struct helper_budget;
struct data_prefetch *data_prefetch__start(struct helper_budget *hb, u8 *map, size_t begin,
					   size_t end, size_t released, size_t drop_step);
/* the reader is at pos: call once per data_prefetch__step() bytes */
void data_prefetch__advance(struct data_prefetch *pf, size_t pos);
size_t data_prefetch__step(void);
void data_prefetch__stop(struct data_prefetch *pf);

int perf_data__read_features(struct perf_data *data, struct perf_err *err);
int perf_data__apply_feature(struct perf_data *data, int feat, const u8 *buf, size_t size,
			     u64 offset, struct perf_err *err);
int perf_data__add_attr(struct perf_data *data, const struct perf_event_attr *attr, size_t attr_size,
			const u64 *ids, size_t nr_ids, struct perf_err *err);

#endif
