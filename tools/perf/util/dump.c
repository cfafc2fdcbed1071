// SPDX-License-Identifier: GPL-2.0
/*
 * `perf script -D`: every record as offset, size, raw bytes and decoded fields, in upstream
 * perf's layout. First cut: raw bytes and the record name; details follow.
 */
#include <inttypes.h>
#include <string.h>
#include "dump.h"
#include "session.h"

static void dump__hex(FILE *fp, const u8 *p, size_t len)
{
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		fprintf(fp, ".  %04zx: ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i < n)
				fprintf(fp, " %02x", p[off + i]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (size_t i = 0; i < 16; i++) {
			u8 c = i < n ? p[off + i] : ' ';

			fputc(c >= 0x20 && c < 0x7f ? c : '.', fp);
		}
		fputc('\n', fp);
	}
}

void dump__record(struct perf_session *session, const struct perf_data_record *rec)
{
	const struct perf_event_header *h = rec->header;
	FILE *fp = session->opts.dump_fp ? session->opts.dump_fp : stdout;

	fprintf(fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
		rec->file_offset, perf_data__name(session->data), h->size, h->type, h->size);
	dump__hex(fp, (const u8 *)h, h->size);
	fprintf(fp, "\n0 %#" PRIx64 " [%#x]: PERF_RECORD_%s\n", rec->file_offset, h->size,
		perf_record_type__name(h->type));
}

void dump__header(struct perf_session *session, FILE *fp, bool full)
{
	const struct perf_env *env = perf_data__env(session->data);

	(void)full;
	fputs("# ========\n", fp);
	if (env->hostname)
		fprintf(fp, "# hostname : %s\n", env->hostname);
	if (env->osrelease)
		fprintf(fp, "# os release : %s\n", env->osrelease);
	if (env->version)
		fprintf(fp, "# perf version : %s\n", env->version);
	if (env->arch)
		fprintf(fp, "# arch : %s\n", env->arch);
	fputs("# ========\n#\n", fp);
}
