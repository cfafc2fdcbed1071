// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-html.c - the flame graph as one self-contained HTML page: the styles, the data
 * and the renderer (flamegraph-page.c) inline, a Content-Security-Policy that forbids every
 * fetch, so the page opens offline and asks nothing of the network.
 *
 * The data block is JSON: {"title", "events", "samples", "colorscheme", "icicle", "period",
 * "minwidth", "names": [strings], "nodes": [...]}, where nodes is the visible tree in
 * preorder, six numbers a node: its name's index, its dso's (-1: none), its class mask
 * (1 << enum flamegraph_class), its samples and period with everything below it (boxes
 * left out included, so that widths stay true), and its number of visible children.
 */
#include "flamegraph.h"

static void html__text(FILE *fp, const char *s)
{
	flamegraph__xml_string(fp, s);
}

static unsigned int fg_node__nr_visible(const struct flamegraph *fg, const struct fg_node *n)
{
	unsigned int nr = 0;

	for (const struct fg_node *c = n->child; c; c = c->next)
		nr += flamegraph__visible(fg, c);
	return nr;
}

static void fg_node__write_data(const struct flamegraph *fg, const struct fg_node *n, FILE *fp,
				bool first)
{
	fprintf(fp, "%s%u,%d,%u,%llu,%llu,%u", first ? "" : ",\n", flamegraph__string_id(n->name),
		n->dso ? (int)flamegraph__string_id(n->dso) : -1, n->classes,
		(unsigned long long)n->total, (unsigned long long)n->total_period,
		fg_node__nr_visible(fg, n));
	for (const struct fg_node *c = n->child; c; c = c->next)
		if (flamegraph__visible(fg, c))
			fg_node__write_data(fg, c, fp, false);
}

static void flamegraph__write_data(const struct flamegraph *fg, FILE *fp)
{
	fputs("{\"title\": \"", fp);
	flamegraph__json_string(fp, fg->opts.title, true);
	fputs("\", \"events\": [", fp);
	for (unsigned int i = 0; i < fg->nr_events; i++) {
		fputs(i ? ", \"" : "\"", fp);
		flamegraph__json_string(fp, fg->events[i], true);
		fputc('"', fp);
	}
	fprintf(fp, "], \"samples\": %llu, \"colorscheme\": \"%s\", \"icicle\": %s, \"period\": %s, \"minwidth\": %g,\n\"names\": [",
		(unsigned long long)fg->nr_samples,
		fg->opts.colors == FLAMEGRAPH_ORANGE ? "orange" : "blue-green",
		fg->opts.icicle ? "true" : "false", fg->opts.by_period ? "true" : "false",
		fg->opts.minwidth);
	for (u32 i = 0; i < fg->nr_strings; i++) {
		fputs(i ? ",\n\"" : "\"", fp);
		flamegraph__json_string(fp, fg->strings[i], true);
		fputc('"', fp);
	}
	fputs("],\n\"nodes\": [\n", fp);
	fg_node__write_data(fg, &fg->root, fp, true);
	fputs("]}", fp);
}

void flamegraph__write_html(const struct flamegraph *fg, FILE *fp)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      /* inline code and styles only: nothing may be fetched, from anywhere */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
	      "<title>Flame graph: ", fp);
	html__text(fp, fg->opts.title);
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>Flame graph: ",
		flamegraph_page_style);
	html__text(fp, fg->opts.title);
	fprintf(fp, "</h1>\n<div id=\"fg-info\">%llu samples of ", (unsigned long long)fg->nr_samples);
	for (unsigned int i = 0; i < fg->nr_events; i++) {
		if (i)
			fputs(", ", fp);
		html__text(fp, fg->events[i]);
	}
	if (!fg->nr_events)
		fputs("no event", fp);
	fputs("; widths by ", fp);
	fputs(fg->opts.by_period ? "period" : "samples", fp);
	fputs(". Colours: <span id=\"fg-legend\"></span></div>\n"
	      "<div id=\"fg-bar\"><input id=\"fg-search\" type=\"search\" placeholder=\"Search (regular expression)\">"
	      "<button id=\"fg-reset\">Reset</button><button id=\"fg-view\"></button>"
	      "<span id=\"fg-status\"></span></div>\n"
	      "<div id=\"fg-chart\"></div>\n<div id=\"fg-tip\"></div>\n"
	      "<script type=\"application/json\" id=\"fg-data\">", fp);
	flamegraph__write_data(fg, fp);
	fprintf(fp, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", flamegraph_page_script);
}
