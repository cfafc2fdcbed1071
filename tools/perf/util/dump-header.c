// SPDX-License-Identifier: GPL-2.0
/*
 * `perf script --header` / `--header-only` / `-I`, and the pipe-mode HEADER_FEATURE records
 * of -D: the input's side of header printing. The text comes from header-fprintf.c, which
 * prints the parsed form (perf/env.h) and never looks at bytes.
 *
 * File mode prints the features the reader parsed when it opened the file. A HEADER_FEATURE
 * record is printed from its own parse, by the same library parser, so that exactly the record
 * at hand is shown (-D shows every instance of a repeated feature; tests hand in records the
 * reader never saw). CPU_TOPOLOGY and CPU_DOMAIN_INFO are sized by the cpu counts, which that
 * parse takes from the reader's env, as perf does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "dump.h"
#include "dump-internal.h"
#include "header-fprintf.h"

static const char *data_event_name(void *arg, size_t idx)
{
	return perf_evattr__name(perf_data__attr(arg, idx));
}

static void data_events(struct perf_data *data, struct header_events *events)
{
	events->nr = perf_data__nr_attrs(data);
	events->name = data_event_name;
	events->arg = data;
}

int dump__feature(FILE *fp, struct perf_data *data, int feat, const u8 *buf, size_t size,
		  bool full)
{
	const struct perf_env *denv = perf_data__env(data);
	struct header_events events;
	struct perf_env env;
	int ret;

	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return -EINVAL;
	/* perf names a feature it prints nothing of (a pipe's BUILD_ID), without a newline */
	if (!header__feature_has_text(feat))
		return fprintf(fp, "# %s", header__feature_name(feat)) < 0 ? -EIO : 0;
	perf_env__init(&env);
	env.nr_cpus_avail = denv->nr_cpus_avail;
	env.nr_cpus_online = denv->nr_cpus_online;
	if (denv->arch) {
		env.arch = strdup(denv->arch);
		if (!env.arch)
			return -ENOMEM;
	}
	/* a malformed section is not printable: the parser's error is not needed */
	perf_env__parse_feature(&env, feat, buf, size, perf_data__needs_swap(data), 0, NULL);
	data_events(data, &events);
	ret = header__fprintf_feature(fp, &env, feat, full, &events);
	perf_env__exit(&env);
	return ret;
}

void dump__feature_event(struct perf_data *data, const struct perf_event_header *event,
			 FILE *fp, bool full)
{
	const struct perf_record_header_feature *f = (const void *)event;

	if (event->type != PERF_RECORD_HEADER_FEATURE || event->size < sizeof(*f))
		return;
	if (!f->feat_id || f->feat_id >= HEADER_LAST_FEATURE)
		return;
	dump__feature(fp, data, (int)f->feat_id, (const u8 *)f->data, event->size - sizeof(*f),
		      full);
}

static int open_input(const struct perf_data *data)
{
	const char *name = perf_data__name(data);

	if (!strcmp(name, "-"))
		return dup(STDIN_FILENO);
	return open(name, O_RDONLY | O_CLOEXEC);
}

/* the file-mode features, in bit order, as the reader parsed them */
static void dump__file_features(FILE *fp, struct perf_data *data, bool full)
{
	const struct perf_env *env = perf_data__env(data);
	struct header_events events;

	data_events(data, &events);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (perf_env__has_feat(env, feat))
			header__fprintf_feature(fp, env, feat, full, &events);
}

void dump__header(struct perf_data *data, FILE *fp, bool full)
{
	const struct perf_file_header *h = perf_data__file_header(data);
	bool pipe = perf_data__is_pipe(data);
	int fd = open_input(data);
	struct stat st;

	fputs("# ========\n", fp);
	if (fd >= 0 && !fstat(fd, &st)) {
		time_t mtime = st.st_mtime;

		fprintf(fp, "# captured on    : %s", ctime(&mtime));
	}
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", pipe ? 0 : h->data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", pipe ? 0 : h->data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : h->data.offset + h->data.size);
	if (!pipe) {
		dump__file_features(fp, data, full);
		fprintf(fp, "# missing features: ");
		for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
			if (!((h->adds_features[feat / 64] >> (feat % 64)) & 1))
				fprintf(fp, "%s ", header__feature_name(feat));
		fprintf(fp, "\n");
	}
	fputs("# ========\n#\n", fp);
	if (fd >= 0)
		close(fd);
}
