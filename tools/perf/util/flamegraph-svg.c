// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-svg.c - the flame graph as one standalone SVG, as flamegraph.pl draws them:
 * FLAMEGRAPH_WIDTH pixels wide, the root at the bottom, one <g class="f"> per visible box
 * (a <title> tooltip, the <rect>, its label cut to fit) laid out here, so that the picture
 * shows without script (an <img> embedding it). The embedded script (flamegraph-page.c)
 * adds click to zoom, search with the matched share, and reset, in a browser.
 */
#include <string.h>
#include "flamegraph.h"

#define SVG_PAD		10	/* left and right margin */
#define SVG_ROW		16	/* pixels a frame */
#define SVG_TOP		48	/* title and controls */
#define SVG_CHAR	6.6	/* an average character of the 11px label font */

/* hue base, hue spread per class (enum flamegraph_class), as the HTML page's */
static const int svg_hues[2][FG_CLASS_NR][2] = {
	[FLAMEGRAPH_BLUE_GREEN] = { { 100, 40 }, { 205, 30 }, { 172, 14 }, { 275, 25 }, { 42, 14 }, { 0, 0 } },
	[FLAMEGRAPH_ORANGE] = { { 28, 14 }, { 2, 12 }, { 52, 10 }, { 310, 20 }, { 190, 20 }, { 0, 0 } },
};

/* the class that colours a box: the rarer origins win, so that they show */
static enum flamegraph_class fg_node__main_class(const struct fg_node *n)
{
	static const enum flamegraph_class order[] = {
		FG_CLASS_INLINE, FG_CLASS_UNWOUND, FG_CLASS_DEFERRED, FG_CLASS_KERNEL,
		FG_CLASS_PROCESS, FG_CLASS_USER,
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (n->classes & (1U << order[i]))
			return order[i];
	return FG_CLASS_USER;
}

/* a fraction in [0, 1) from the name: one function keeps its shade across the picture */
static double name__shade(const char *s)
{
	u32 h = 2166136261U;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return h / 4294967296.0;
}

static void svg__fill(const struct flamegraph *fg, const struct fg_node *n, FILE *fp)
{
	enum flamegraph_class c = fg_node__main_class(n);
	const int *hue = svg_hues[fg->opts.colors == FLAMEGRAPH_ORANGE][c];
	double r = name__shade(n->name);

	if (c == FG_CLASS_PROCESS) {
		fprintf(fp, "hsl(0,0%%,%d%%)", (int)(72 + 10 * r));
		return;
	}
	fprintf(fp, "hsl(%d,%d%%,%d%%)", (int)(hue[0] + hue[1] * r), (int)(55 + 25 * r),
		(int)(c == FG_CLASS_INLINE ? 70 + 10 * r : 55 + 12 * r));
}

static unsigned int fg_node__depth(const struct flamegraph *fg, const struct fg_node *n)
{
	unsigned int d = 0;

	for (const struct fg_node *c = n->child; c; c = c->next) {
		unsigned int cd;

		if (!flamegraph__visible(fg, c))
			continue;
		cd = fg_node__depth(fg, c) + 1;
		if (cd > d)
			d = cd;
	}
	return d;
}

/* the label that fits w pixels, as the script cuts it */
static void svg__label(FILE *fp, const char *name, double w)
{
	int fit = (int)((w - 6) / SVG_CHAR);
	size_t len = strlen(name);
	char buf[512];

	if (fit < 3)
		return;
	if (len <= (size_t)fit) {
		flamegraph__xml_string(fp, name);
		return;
	}
	if (fit > (int)sizeof(buf) - 1)
		fit = sizeof(buf) - 1;
	snprintf(buf, sizeof(buf), "%.*s..", fit - 2, name);
	flamegraph__xml_string(fp, buf);
}

static void fg_node__write_svg(const struct flamegraph *fg, const struct fg_node *n, FILE *fp,
			       double x, unsigned int depth, unsigned int max_depth)
{
	u64 all = flamegraph__value(fg, &fg->root), v = flamegraph__value(fg, n);
	double w = all ? (double)v * FLAMEGRAPH_WIDTH / (double)all : FLAMEGRAPH_WIDTH;
	double y = SVG_TOP + (double)(max_depth - depth) * SVG_ROW;

	fprintf(fp, "<g class=\"f\" data-d=\"%u\" data-v=\"%llu\" data-n=\"", depth,
		(unsigned long long)v);
	flamegraph__xml_string(fp, n->name);
	fputs("\"><title>", fp);
	flamegraph__xml_string(fp, n->name);
	if (n->dso) {
		fputs(" (", fp);
		flamegraph__xml_string(fp, n->dso);
		fputc(')', fp);
	}
	fprintf(fp, ": %llu samples (%.2f%%), period %llu</title>", (unsigned long long)n->total,
		fg->root.total ? 100.0 * (double)n->total / (double)fg->root.total : 0.0,
		(unsigned long long)n->total_period);
	fprintf(fp, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		x + SVG_PAD, y, w, SVG_ROW - 1);
	svg__fill(fg, n, fp);
	fprintf(fp, "\"/><text x=\"%.2f\" y=\"%.0f\">", x + SVG_PAD + 3, y + SVG_ROW - 4.5);
	svg__label(fp, n->name, w);
	fputs("</text></g>\n", fp);
	for (const struct fg_node *c = n->child; c; c = c->next) {
		u64 cv = flamegraph__value(fg, c);

		if (flamegraph__visible(fg, c))
			fg_node__write_svg(fg, c, fp, x, depth + 1, max_depth);
		x += all ? (double)cv * FLAMEGRAPH_WIDTH / (double)all : 0;
	}
}

void flamegraph__write_svg(const struct flamegraph *fg, FILE *fp)
{
	unsigned int max_depth = fg_node__depth(fg, &fg->root);
	int width = FLAMEGRAPH_WIDTH + 2 * SVG_PAD;
	int height = SVG_TOP + (int)(max_depth + 1) * SVG_ROW + SVG_PAD;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-width=\"%d\">\n"
		"<style>text { font: 11px Verdana, sans-serif; fill: #000; } g.f { cursor: pointer; } g.f:hover rect { stroke: #000; stroke-width: 0.5; } .ctl { cursor: pointer; fill: #226; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
		"<text x=\"%d\" y=\"20\" text-anchor=\"middle\" style=\"font-size: 16px\">Flame graph: ",
		width, height, width, height, FLAMEGRAPH_WIDTH, width, height, width / 2);
	flamegraph__xml_string(fp, fg->opts.title);
	fprintf(fp, " (%llu samples)</text>\n"
		"<text id=\"reset\" class=\"ctl\" x=\"%d\" y=\"40\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"ctl\" x=\"%d\" y=\"40\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"status\" x=\"%d\" y=\"40\" text-anchor=\"middle\"></text>\n",
		(unsigned long long)fg->nr_samples, SVG_PAD, width - SVG_PAD, width / 2);
	fg_node__write_svg(fg, &fg->root, fp, 0, 0, max_depth);
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		flamegraph_svg_script);
}
