// SPDX-License-Identifier: GPL-2.0
/*
 * trace-event.c - the tracing data blob into libtraceevent, and tracepoint samples out as text.
 *
 * Two halves: trace_event__new() walks the blob with a bounds-checked cursor and hands each
 * section to libtraceevent the way upstream perf does (so printing matches it byte for byte);
 * trace_event__format() checks a sample's raw data against the event's format before
 * libtraceevent reads it, because libtraceevent trusts record contents (offsets, lengths and
 * counts taken from the data) and a corrupt sample must not make it read out of bounds.
 */
#include <byteswap.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/cursor.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <perf/kernel.h>
#include "trace-event.h"

static const u8 te_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* a dynamic field's location word holds a 16-bit offset and a 16-bit length */
#define TE_MAX_RECORD		65536
/* the largest format file of Linux 6.18 is 5.5 KiB; this leaves room for any real one */
#define TE_MAX_FORMAT		(256 * 1024)
/*
 * libtraceevent parses print fmts recursively: limit bracket nesting and operators so a
 * crafted format cannot exhaust the stack (real formats nest < 10 deep, use < 200 operators)
 */
#define TE_MAX_NESTING		64
#define TE_MAX_OPERATORS	4096
#define TE_MAX_EVAL_DEPTH	256
/* version strings and system names */
#define TE_MAX_NAME		256
/*
 * zeros after a copy of the raw data: they end strings the data leaves unterminated, and
 * cover libtraceevent's binary-printk walk, which may read up to 11 bytes past the record
 */
#define TE_RAW_PAD		64

struct trace_event {
	struct tep_handle	*tep;
	struct tep_handle	*fields_tep;	/* while loading: formats without print fmt */
	char			*version;
	bool			file_bigendian;
	int			long_size;
	int			page_size;
	/* common_type: where libtraceevent finds the event of a record (same in every event) */
	int			type_offset;
	int			type_size;
	struct trace_seq	seq;
	u8			*scratch;	/* raw data copy + TE_RAW_PAD zeros */
	size_t			scratch_size;
};

/* ---- reading the blob ---- */

/* the blob's perf_cursor and where its errors go, with the blob's own message prefix */
struct te_cursor {
	struct perf_cursor	cur;
	struct perf_err		*err;
};

static int cursor__fail(struct te_cursor *c, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cursor__fail(struct te_cursor *c, size_t at, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return perf_err__set(c->err, EINVAL, "tracing data offset %#zx: %s", at, msg);
}

static size_t cursor__left(const struct te_cursor *c)
{
	return perf_cursor__left(&c->cur);
}

/* the offset of p, a pointer into the blob */
static size_t cursor__offset(const struct te_cursor *c, const void *p)
{
	return (size_t)((const u8 *)p - c->cur.base);
}

/* the cursor's first failure as this reader has always worded it */
static int cursor__check(struct te_cursor *c)
{
	const struct perf_cursor *cur = &c->cur;

	if (!perf_cursor__failed(cur))
		return 0;
	if (cur->fault == PERF_CURSOR_NO_NUL)
		return cursor__fail(c, cur->err_at, "%s is not a NUL-terminated string of at most %d bytes",
				    cur->err_what, TE_MAX_NAME);
	return cursor__fail(c, cur->err_at, "%s: %zu bytes needed, %zu left", cur->err_what,
			    cur->err_need, cur->err_left);
}

static int cursor__bytes(struct te_cursor *c, size_t n, const u8 **p, const char *what)
{
	c->cur.what = what;
	*p = perf_cursor__bytes(&c->cur, n);
	return cursor__check(c);
}

static int cursor__u8(struct te_cursor *c, u8 *v, const char *what)
{
	c->cur.what = what;
	*v = perf_cursor__u8(&c->cur);
	return cursor__check(c);
}

static int cursor__u32(struct te_cursor *c, u32 *v, const char *what)
{
	c->cur.what = what;
	*v = perf_cursor__u32(&c->cur);
	return cursor__check(c);
}

static int cursor__u64(struct te_cursor *c, u64 *v, const char *what)
{
	c->cur.what = what;
	*v = perf_cursor__u64(&c->cur);
	return cursor__check(c);
}

/* a NUL-terminated string of at most TE_MAX_NAME bytes, left in the blob */
static int cursor__string(struct te_cursor *c, const char **s, const char *what)
{
	c->cur.what = what;
	*s = perf_cursor__cstring(&c->cur, TE_MAX_NAME);
	return cursor__check(c);
}

/* a size (4 or 8 bytes) followed by that many bytes */
static int cursor__section(struct te_cursor *c, int size_bytes, const u8 **p, size_t *n,
			   const char *what)
{
	size_t at = c->cur.pos;
	u64 size;
	int ret;

	if (size_bytes == 4) {
		u32 size32;

		ret = cursor__u32(c, &size32, what);
		size = size32;
	} else {
		ret = cursor__u64(c, &size, what);
	}
	if (ret)
		return ret;
	if (size > cursor__left(c))
		return cursor__fail(c, at, "%s: size %llu runs past the end (%zu bytes left)", what,
				    (unsigned long long)size, cursor__left(c));
	*n = size;
	return cursor__bytes(c, size, p, what);
}

static int cursor__tag(struct te_cursor *c, const char *tag)
{
	size_t at = c->cur.pos;
	size_t n = strlen(tag) + 1;
	const u8 *p;
	int ret = cursor__bytes(c, n, &p, tag);

	if (ret)
		return ret;
	if (memcmp(p, tag, n))
		return cursor__fail(c, at, "expected the \"%s\" section", tag);
	return 0;
}

/*
 * Format text (header_page, event formats) goes to libtraceevent's recursive parser: only
 * printable ASCII and whitespace, bounded size, nesting and operator count.
 */
static int cursor__check_text(struct te_cursor *c, const u8 *p, size_t n, const char *what)
{
	size_t at = cursor__offset(c, p);
	int depth = 0, ops = 0;
	size_t i;

	if (n > TE_MAX_FORMAT)
		return cursor__fail(c, at, "%s of %zu bytes is larger than %d", what, n, TE_MAX_FORMAT);
	for (i = 0; i < n; i++) {
		u8 ch = p[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch > 0x7e)
			return cursor__fail(c, at + i, "%s: byte %#x is not text", what, ch);
		if (strchr("([{", ch) && ++depth > TE_MAX_NESTING)
			return cursor__fail(c, at + i, "%s nests brackets deeper than %d", what,
					    TE_MAX_NESTING);
		if (strchr(")]}", ch) && depth > 0)
			depth--;
		if (strchr("+-*/%<>=!&|^~?:", ch) && ++ops > TE_MAX_OPERATORS)
			return cursor__fail(c, at + i, "%s has more than %d operators", what,
					    TE_MAX_OPERATORS);
	}
	return 0;
}

/*
 * The lines of a format before its print fmt, and of header_page: libtraceevent's field
 * parser reads past a field line cut short ("field:char comm[" at the end of the text), so
 * each must be whole: "field:DECL; offset:N; size:N;" with an optional "signed:N;".
 */
static const char *field_line__end(const char *s, const char *end)
{
	static const char *const keys[] = { "offset:", "size:", "signed:" };
	int depth = 0;
	size_t k;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (end - s < 6 || memcmp(s, "field:", 6))
		return NULL;
	for (s += 6; s < end && *s != ';' && *s != '\n'; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && --depth < 0)
			return NULL;
	}
	if (s == end || *s != ';' || depth)
		return NULL;
	s++;
	for (k = 0; k < 3; k++) {
		const char *digits;

		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(end - s) < strlen(keys[k]) || memcmp(s, keys[k], strlen(keys[k])))
			return k == 2 ? s : NULL;	/* old kernels have no "signed:" */
		s += strlen(keys[k]);
		while (s < end && *s == ' ')
			s++;
		for (digits = s; s < end && isdigit(*s); s++)
			;
		if (s == digits || s == end || *s != ';')
			return NULL;
		s++;
	}
	return s;
}

/* every line from p to end is empty or a whole field line; returns the offset of a bad one */
static int cursor__check_field_lines(struct te_cursor *c, const u8 *p, const u8 *end,
				     const char *what)
{
	while (p < end) {
		const u8 *eol = memchr(p, '\n', end - p);
		const char *s = (const char *)p, *e = eol ? (const char *)eol : (const char *)end;

		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s < e) {
			s = field_line__end(s, e);
			while (s && s < e && (*s == ' ' || *s == '\t'))
				s++;
			if (!s || s != e)
				return cursor__fail(c, cursor__offset(c, p), "%s: malformed field line", what);
		}
		p = eol ? eol + 1 : end;
	}
	return 0;
}

/*
 * libtraceevent folds an operator of two constants while it parses a print fmt, and divides
 * by zero if a "/" or "%" has a constant 0 on its right ("x / 0", "4 / 2 * 0", "1 % FOO"
 * with FOO an enum the kernel left unresolved, "1 / \"s\""). This walks the print fmt the way
 * it builds its tree (operators of equal priority group to the right) and refuses such a
 * division. Divisors read from the record are checked per sample instead.
 */
struct pf_parser {
	const char	*s, *end;
	const char	*tok;		/* current token */
	size_t		len;
	bool		confused;	/* not an expression we know: fall back to a token scan */
	const char	*bad;		/* the division by a constant zero */
	int		depth;
	int		long_size;
};

struct pf_val {
	unsigned long long	v;
	bool			konst;	/* what libtraceevent would fold to one atom */
};

static void pf__next(struct pf_parser *pp)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *s = pp->tok + pp->len;
	size_t i;

	while (s < pp->end && isspace(*s))
		s++;
	pp->tok = s;
	pp->len = 0;
	if (s == pp->end)
		return;
	if (*s == '"' || *s == '\'') {
		const char *q = s + 1;

		while (q < pp->end && *q != *s)
			q += *q == '\\' ? 2 : 1;
		pp->len = (q < pp->end ? q + 1 : pp->end) - s;
		return;
	}
	if (isalnum(*s) || *s == '_') {
		while (s + pp->len < pp->end && (isalnum(s[pp->len]) || s[pp->len] == '_'))
			pp->len++;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(two); i++) {
		if (pp->end - s >= 2 && !memcmp(s, two[i], 2)) {
			pp->len = 2;
			return;
		}
	}
	pp->len = 1;
}

static bool pf__is(const struct pf_parser *pp, const char *t)
{
	return pp->len == strlen(t) && !memcmp(pp->tok, t, pp->len);
}

/* libtraceevent's operator priorities, 0 for what is not a binary operator */
static int pf__prio(const struct pf_parser *pp)
{
	static const struct { const char *op; int prio; } ops[] = {
		{ "*", 6 }, { "/", 6 }, { "%", 6 }, { "+", 7 }, { "-", 7 }, { "<<", 8 }, { ">>", 8 },
		{ "<", 9 }, { ">", 9 }, { "<=", 9 }, { ">=", 9 }, { "==", 10 }, { "!=", 10 },
		{ "&", 11 }, { "^", 12 }, { "|", 13 }, { "&&", 14 }, { "||", 15 }, { "?", 16 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (pf__is(pp, ops[i].op))
			return ops[i].prio;
	}
	return 0;
}

static struct pf_val pf__expr(struct pf_parser *pp, int max_prio);

/* expressions separated by commas up to the closing token */
static void pf__list(struct pf_parser *pp, const char *close)
{
	while (!pp->confused && pp->len && !pf__is(pp, close)) {
		pf__expr(pp, 16);
		if (pf__is(pp, ","))
			pf__next(pp);
		else if (!pf__is(pp, close))
			pp->confused = true;
	}
	if (pf__is(pp, close))
		pf__next(pp);
	else
		pp->confused = true;
}

static unsigned long long pf__sizeof(const char *type, size_t len, int long_size)
{
	static const struct { const char *type; int size; } sizes[] = {
		{ "char", 1 }, { "u8", 1 }, { "s8", 1 }, { "bool", 1 }, { "short", 2 }, { "u16", 2 },
		{ "s16", 2 }, { "int", 4 }, { "u32", 4 }, { "s32", 4 }, { "unsigned int", 4 },
		{ "u64", 8 }, { "s64", 8 }, { "long long", 8 }, { "unsigned long long", 8 },
	};
	size_t i;

	if ((len == 4 && !memcmp(type, "long", 4)) || (len == 13 && !memcmp(type, "unsigned long", 13)))
		return long_size;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (strlen(sizes[i].type) == len && !memcmp(type, sizes[i].type, len))
			return sizes[i].size;
	}
	return 0;
}

static struct pf_val pf__primary(struct pf_parser *pp)
{
	struct pf_val v = { 0, false };
	char num[64];

	if (!pp->len || ++pp->depth > TE_MAX_NESTING) {
		pp->confused = true;
		return v;
	}
	if (pf__is(pp, "-") || pf__is(pp, "+") || pf__is(pp, "!") || pf__is(pp, "~")) {
		/* libtraceevent does not fold unary operators */
		pf__next(pp);
		pf__primary(pp);
		v.konst = false;
	} else if (pf__is(pp, "(")) {
		pf__next(pp);
		v = pf__expr(pp, 16);
		if (!pf__is(pp, ")")) {
			pp->confused = true;
		} else {
			pf__next(pp);
			/* "(type)x" is a cast, never folded */
			if (pp->len && (isalnum(*pp->tok) || *pp->tok == '_' || *pp->tok == '(' ||
					*pp->tok == '"')) {
				pf__primary(pp);
				v.konst = false;
			}
		}
	} else if (pf__is(pp, "{")) {
		pf__next(pp);
		pf__list(pp, "}");
	} else if (*pp->tok == '"' || *pp->tok == '\'') {
		/* a string is an atom too, with the value strtoull() gives its text */
		size_t len = pp->len >= 2 ? pp->len - 2 : 0;

		if (len >= sizeof(num))
			len = sizeof(num) - 1;
		memcpy(num, pp->tok + 1, len);
		num[len] = '\0';
		v.v = strtoull(num, NULL, 0);
		v.konst = true;
		pf__next(pp);
	} else if (isalnum(*pp->tok) || *pp->tok == '_') {
		bool is_rec = pf__is(pp, "REC"), is_sizeof = pf__is(pp, "sizeof");
		size_t len = pp->len < sizeof(num) ? pp->len : sizeof(num) - 1;

		memcpy(num, pp->tok, len);
		num[len] = '\0';
		pf__next(pp);
		if (is_rec && pf__is(pp, "->")) {
			pf__next(pp);
			pf__next(pp);
		} else if (is_sizeof && pf__is(pp, "(")) {
			const char *type;

			pf__next(pp);
			type = pp->tok;
			while (pp->len && !pf__is(pp, ")"))
				pf__next(pp);
			v.v = pf__sizeof(type, pp->tok - type - (pp->tok > type && pp->tok[-1] == ' '),
					 pp->long_size);
			v.konst = v.v != 0;
			pf__next(pp);
		} else if (pf__is(pp, "(")) {
			pf__next(pp);
			pf__list(pp, ")");
		} else {
			/* a number, or a name libtraceevent reads as 0 */
			v.v = strtoull(num, NULL, 0);
			v.konst = true;
		}
	} else {
		pp->confused = true;
	}
	/* array index and member access */
	while (!pp->confused && (pf__is(pp, "[") || pf__is(pp, "->"))) {
		if (pf__is(pp, "->")) {
			pf__next(pp);
			pf__next(pp);
		} else {
			pf__next(pp);
			pf__expr(pp, 16);
			if (!pf__is(pp, "]"))
				pp->confused = true;
			pf__next(pp);
		}
		v.konst = false;
	}
	pp->depth--;
	return v;
}

static struct pf_val pf__expr(struct pf_parser *pp, int max_prio)
{
	struct pf_val lhs = pf__primary(pp), rhs;
	int prio;

	while (!pp->confused && (prio = pf__prio(pp)) && prio <= max_prio) {
		const char *op = pp->tok;

		pf__next(pp);
		if (*op == '?') {
			pf__expr(pp, 16);
			if (!pf__is(pp, ":")) {
				pp->confused = true;
				break;
			}
			pf__next(pp);
			pf__expr(pp, 16);
			lhs.konst = false;
			continue;
		}
		/* an operator of the same priority goes to the right, as in libtraceevent */
		rhs = pf__expr(pp, prio);
		if ((*op == '/' || *op == '%') && lhs.konst && rhs.konst && !rhs.v && !pp->bad)
			pp->bad = op;
		if (lhs.konst && rhs.konst) {
			switch (*op) {
			case '*': lhs.v *= rhs.v; break;
			case '/': lhs.v = rhs.v ? lhs.v / rhs.v : 0; break;
			case '%': lhs.v = rhs.v ? lhs.v % rhs.v : 0; break;
			case '+': lhs.v += rhs.v; break;
			case '-': lhs.v -= rhs.v; break;
			case '<': lhs.v = op[1] == '<' ? lhs.v << (rhs.v & 63) :
					  op[1] == '=' ? lhs.v <= rhs.v : lhs.v < rhs.v; break;
			case '>': lhs.v = op[1] == '>' ? lhs.v >> (rhs.v & 63) :
					  op[1] == '=' ? lhs.v >= rhs.v : lhs.v > rhs.v; break;
			case '=': lhs.v = lhs.v == rhs.v; break;
			case '!': lhs.v = lhs.v != rhs.v; break;
			case '&': lhs.v = op[1] == '&' ? lhs.v && rhs.v : lhs.v & rhs.v; break;
			case '|': lhs.v = op[1] == '|' ? lhs.v || rhs.v : lhs.v | rhs.v; break;
			case '^': lhs.v ^= rhs.v; break;
			default: break;
			}
		} else {
			lhs.konst = false;
		}
	}
	return lhs;
}

static int cursor__check_print_fmt(struct te_cursor *c, const u8 *fmt, const u8 *end,
				   int long_size)
{
	struct pf_parser pp = { .s = (const char *)fmt, .end = (const char *)end,
				.tok = (const char *)fmt, .long_size = long_size };

	pf__next(&pp);
	while (pp.len && !pp.confused && !pp.bad) {
		pf__expr(&pp, 16);
		if (pf__is(&pp, ","))
			pf__next(&pp);
		else if (pp.len)
			pp.confused = true;
	}
	/*
	 * Past what we can follow (GNU statement expressions...): refuse any "/" or "%" that a
	 * constant zero, string or unknown name follows directly.
	 */
	while (!pp.bad && pp.len) {
		const char *op = pp.tok;

		if (pf__is(&pp, "/") || pf__is(&pp, "%")) {
			pf__next(&pp);
			if (pp.len && (*pp.tok == '"' || *pp.tok == '\'' ||
				       ((isalnum(*pp.tok) || *pp.tok == '_') && !pf__is(&pp, "REC") &&
					!pf__is(&pp, "sizeof") && !strtoull(pp.tok, NULL, 0))))
				pp.bad = op;
			continue;
		}
		pf__next(&pp);
	}
	if (pp.bad)
		return cursor__fail(c, cursor__offset(c, pp.bad),
				    "event format: \"%c\" by a constant 0 in the print fmt",
				    *pp.bad);
	return 0;
}

/* what libtraceevent's parser cannot take without reading out of bounds or trapping */
static int cursor__check_format(struct te_cursor *c, const u8 *p, size_t n, int long_size)
{
	static const char fields[] = "\nformat:\n", print[] = "\nprint fmt:";
	const u8 *end = p + n, *f, *pf;

	if (n < 6 || memcmp(p, "name: ", 6))
		return cursor__fail(c, cursor__offset(c, p), "event format does not start with \"name: \"");
	f = memmem(p, n, fields, sizeof(fields) - 1);
	if (!f)
		return cursor__fail(c, cursor__offset(c, p), "event format has no \"format:\" line");
	f += sizeof(fields) - 1;
	pf = memmem(f, end - f, print, sizeof(print) - 1);
	if (cursor__check_field_lines(c, f, pf ? pf + 1 : end, "event format"))
		return -EINVAL;
	if (!pf)
		return 0;
	pf += sizeof(print) - 1;
	return cursor__check_print_fmt(c, pf, end, long_size);
}

static size_t token_len(const u8 *s, const u8 *end)
{
	size_t len = 0;

	while (s + len < end && (isalnum(s[len]) || s[len] == '_'))
		len++;
	return len;
}

static const u8 *skip_blanks(const u8 *s, const u8 *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/*
 * libtraceevent dereferences the field of a REC->name it did not find when the reference
 * is the first argument of __print_flags() or __print_symbolic(). Every REC->name of the
 * print fmt must name a field of the event: event holds the fields as libtraceevent parsed
 * them from the same text (see trace_event__read_format()).
 */
static int cursor__check_fields(struct te_cursor *c, const u8 *p, size_t n,
				struct tep_event *fields)
{
	static const char marker[] = "print fmt:";
	const u8 *end = p + n, *s;
	u8 quote = 0;

	s = memmem(p, n, marker, sizeof(marker) - 1);
	if (!s)
		return 0;
	for (s += sizeof(marker) - 1; s < end; s++) {
		char name[TE_MAX_NAME];
		const u8 *t;
		size_t len;

		if (quote) {
			if (*s == '\\')
				s++;
			else if (*s == quote)
				quote = 0;
			continue;
		}
		if (*s == '"' || *s == '\'') {
			quote = *s;
			continue;
		}
		len = token_len(s, end);
		if (!len)
			continue;
		if (len != 3 || memcmp(s, "REC", 3)) {
			s += len - 1;
			continue;
		}
		t = skip_blanks(s + 3, end);
		if (t < end && *t == ')')
			t = skip_blanks(t + 1, end);
		if (end - t < 2 || t[0] != '-' || t[1] != '>') {
			s += 2;
			continue;
		}
		t = skip_blanks(t + 2, end);
		len = token_len(t, end);
		if (!len || len >= sizeof(name))
			return cursor__fail(c, cursor__offset(c, s), "event format: REC-> without a field name");
		memcpy(name, t, len);
		name[len] = '\0';
		if (!tep_find_any_field(fields, name))
			return cursor__fail(c, cursor__offset(c, s), "event format prints REC->%s, which is not one of its fields",
					    name);
		s = t + len - 1;
	}
	return 0;
}

/* ---- loading formats ---- */

static bool field__fits(const struct tep_format_field *f)
{
	if (f->offset < 0 || f->size < 0 || f->offset > TE_MAX_RECORD ||
	    f->size > TE_MAX_RECORD - f->offset)
		return false;
	/* libtraceevent reads the location word as a number of the field's size */
	if ((f->flags & TEP_FIELD_IS_DYNAMIC) && f->size != 2 && f->size != 4)
		return false;
	return true;
}

static int trace_event__check_event(struct trace_event *te, struct te_cursor *c, size_t at,
				    struct tep_event *event)
{
	struct tep_format_field *lists[2] = { event->format.common_fields, event->format.fields };
	struct tep_format_field *type;
	int i;

	for (i = 0; i < 2; i++) {
		struct tep_format_field *f;

		for (f = lists[i]; f; f = f->next) {
			if (!field__fits(f))
				return cursor__fail(c, at, "event %s:%s: field %s (offset %d, size %d%s) does not fit a %d-byte record",
						    event->system, event->name, f->name, f->offset, f->size,
						    (f->flags & TEP_FIELD_IS_DYNAMIC) ? ", dynamic" : "",
						    TE_MAX_RECORD);
		}
	}

	/*
	 * libtraceevent finds a record's event through the common_type of its first event;
	 * insist that all agree so the checks in trace_event__format() look at the same bytes.
	 */
	type = tep_find_common_field(event, "common_type");
	if (!type || (type->size != 1 && type->size != 2 && type->size != 4))
		return cursor__fail(c, at, "event %s:%s has no 1, 2 or 4 byte common_type field",
				    event->system, event->name);
	if (!te->type_size) {
		te->type_offset = type->offset;
		te->type_size = type->size;
	} else if (te->type_offset != type->offset || te->type_size != type->size) {
		return cursor__fail(c, at, "event %s:%s: common_type at offset %d size %d, other events have it at %d size %d",
				    event->system, event->name, type->offset, type->size,
				    te->type_offset, te->type_size);
	}
	return 0;
}

/*
 * libtraceevent before 1.8 fails on a tab inside a print fmt string (maple_tree:ma_op has
 * "%s\tNode"), later ones print it; as "\\t" both print a tab. Returns the text to parse:
 * p itself when it has no such tab, else a copy the caller frees (NULL: out of memory).
 */
static char *format__escape_tabs(const u8 *p, size_t n, const u8 *fmt, size_t *lenp)
{
	size_t tabs = 0, i, o;
	bool quoted = false;
	char *text;

	for (i = fmt ? (size_t)(fmt - p) : n; i < n; i++) {
		if (p[i] == '"')
			quoted = !quoted;
		else if (p[i] == '\\')
			i++;
		else if (p[i] == '\t' && quoted)
			tabs++;
	}
	*lenp = n;
	if (!tabs)
		return (char *)p;
	text = malloc(n + tabs);
	if (!text)
		return NULL;
	quoted = false;
	for (i = o = 0; i < n; i++) {
		bool in_fmt = fmt && i >= (size_t)(fmt - p);

		if (in_fmt && p[i] == '"') {
			quoted = !quoted;
		} else if (in_fmt && p[i] == '\\' && i + 1 < n) {
			text[o++] = p[i++];
		} else if (in_fmt && p[i] == '\t' && quoted) {
			text[o++] = '\\';
			text[o++] = 't';
			continue;
		}
		text[o++] = p[i];
	}
	*lenp = o;
	return text;
}

static int trace_event__read_format(struct trace_event *te, struct te_cursor *c, const char *sys)
{
	struct tep_event *event = NULL;
	enum tep_errno tep_ret;
	const u8 *p, *fmt;
	size_t n, at;
	char *text;
	int ret;

	ret = cursor__section(c, 8, &p, &n, "event format");
	if (ret)
		return ret;
	at = cursor__offset(c, p);
	ret = cursor__check_text(c, p, n, "event format");
	if (!ret)
		ret = cursor__check_format(c, p, n, te->long_size);
	if (ret)
		return ret;
	/* the fields alone first, into a scratch handle, to check what the print fmt uses */
	fmt = memmem(p, n, "print fmt:", 10);
	tep_ret = tep_parse_format(te->fields_tep, &event, (const char *)p,
				   fmt ? (size_t)(fmt - p) : n, sys);
	if (!tep_ret && event)
		ret = cursor__check_fields(c, p, n, event);
	if (ret)
		return ret;
	event = NULL;
	text = format__escape_tabs(p, n, fmt, &n);
	if (!text)
		return perf_err__set(c->err, ENOMEM, "out of memory for an event format");
	/* an unparsable print fmt still loads (it prints "[FAILED TO PARSE]"), as upstream */
	tep_ret = tep_parse_format(te->tep, &event, text, n, sys);
	if (text != (const char *)p)
		free(text);
	if (tep_ret || !event) {
		char why[128] = "unknown error";

		tep_strerror(te->tep, tep_ret, why, sizeof(why));
		return cursor__fail(c, at, "%s event format: %s", sys, why);
	}
	return trace_event__check_event(te, c, at, event);
}

static int trace_event__read_header_page(struct trace_event *te, struct te_cursor *c)
{
	const u8 *p;
	char *text;
	size_t n;
	int ret;

	ret = cursor__tag(c, "header_page");
	if (!ret)
		ret = cursor__section(c, 8, &p, &n, "header_page");
	if (!ret)
		ret = cursor__check_text(c, p, n, "header_page");
	if (!ret)
		ret = cursor__check_field_lines(c, p, p + n, "header_page");
	if (ret)
		return ret;
	text = malloc(n + 1);
	if (!text)
		return perf_err__set(c->err, ENOMEM, "out of memory for %zu bytes of header_page", n);
	memcpy(text, p, n);
	text[n] = '\0';
	/* the "commit" field is a kernel long: it overrides the long size byte, as upstream */
	if (tep_parse_header_page(te->tep, text, n, te->long_size) == 0) {
		int hp = tep_get_header_page_size(te->tep);

		if (hp != 4 && hp != 8) {
			free(text);
			return cursor__fail(c, cursor__offset(c, p), "header_page: commit field size %d is not 4 or 8", hp);
		}
		te->long_size = hp;
		tep_set_long_size(te->tep, hp);
		tep_set_long_size(te->fields_tep, hp);
	}
	free(text);
	return 0;
}

/*
 * "addr : \"string\"" lines: the strings behind pointer fields and binary printk formats.
 * The string starts one character after the first ':', as in upstream perf.
 */
static int trace_event__parse_printk(struct trace_event *te, const u8 *p, size_t n,
				     struct perf_err *err)
{
	char *text = malloc(n + 1), *line, *save = NULL;

	if (!text)
		return perf_err__set(err, ENOMEM, "out of memory for %zu bytes of printk formats", n);
	memcpy(text, p, n);
	text[n] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		const char *str;
		unsigned long long addr;

		if (!colon || !colon[1])
			continue;
		*colon = '\0';
		addr = strtoull(line, NULL, 16);
		str = colon + 2;
		/*
		 * tep_register_print_string() strips quotes and a trailing "\n" by looking two
		 * bytes before the end: shorter strings would make it read before its copy.
		 */
		if (strlen(str) - (str[0] == '"') < 3)
			continue;
		if (tep_register_print_string(te->tep, str, addr)) {
			free(text);
			return perf_err__set(err, ENOMEM, "out of memory for printk formats");
		}
	}
	free(text);
	return 0;
}

/* "pid comm" lines: the comms libtraceevent prints for pids */
static int trace_event__parse_cmdlines(struct trace_event *te, const u8 *p, size_t n,
				       struct perf_err *err)
{
	char *text = malloc(n + 1), *line, *save = NULL;

	if (!text)
		return perf_err__set(err, ENOMEM, "out of memory for %zu bytes of saved cmdlines", n);
	memcpy(text, p, n);
	text[n] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[17];	/* the kernel's comm is at most 16 bytes */
		int pid;

		/* a pid registered twice is not an error, upstream ignores it too */
		if (sscanf(line, "%d %16s", &pid, comm) == 2)
			tep_register_comm(te->tep, comm, pid);
	}
	free(text);
	return 0;
}

static int trace_event__read(struct trace_event *te, struct te_cursor *c)
{
	const bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	const u8 *p;
	const char *version;
	u32 count, page_size, i, j;
	size_t n, at;
	u8 endian, long_size;
	int ret;

	ret = cursor__bytes(c, sizeof(te_magic), &p, "magic");
	if (ret)
		return ret;
	if (memcmp(p, te_magic, sizeof(te_magic)))
		return cursor__fail(c, 0, "no \"\\027\\010\\104tracing\" magic");
	ret = cursor__string(c, &version, "version");
	if (ret)
		return ret;
	te->version = strdup(version);
	if (!te->version)
		return perf_err__set(c->err, ENOMEM, "out of memory");

	at = c->cur.pos;
	ret = cursor__u8(c, &endian, "endianness");
	if (ret)
		return ret;
	if (endian > 1)
		return cursor__fail(c, at, "endianness byte %u is neither 0 (little) nor 1 (big)", endian);
	te->file_bigendian = endian;
	c->cur.swapped = te->file_bigendian != host_be;
	tep_set_file_bigendian(te->tep, endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(te->tep, host_be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);

	at = c->cur.pos;
	ret = cursor__u8(c, &long_size, "long size");
	if (ret)
		return ret;
	if (long_size != 4 && long_size != 8)
		return cursor__fail(c, at, "long size %u is not 4 or 8", long_size);
	at = c->cur.pos;
	ret = cursor__u32(c, &page_size, "page size");
	if (ret)
		return ret;
	if (!page_size || (page_size & (page_size - 1)) || page_size > INT_MAX)
		return cursor__fail(c, at, "page size %u is not a power of two", page_size);
	te->long_size = long_size;
	te->page_size = page_size;
	tep_set_long_size(te->tep, long_size);
	tep_set_page_size(te->tep, page_size);
	tep_set_long_size(te->fields_tep, long_size);

	ret = trace_event__read_header_page(te, c);
	if (ret)
		return ret;
	/* libtraceevent learns nothing perf needs from header_event */
	ret = cursor__tag(c, "header_event");
	if (!ret)
		ret = cursor__section(c, 8, &p, &n, "header_event");
	if (ret)
		return ret;

	ret = cursor__u32(c, &count, "ftrace format count");
	for (i = 0; !ret && i < count; i++)
		ret = trace_event__read_format(te, c, "ftrace");
	if (ret)
		return ret;

	ret = cursor__u32(c, &count, "event system count");
	for (i = 0; !ret && i < count; i++) {
		const char *sys;
		u32 nr;

		at = c->cur.pos;
		ret = cursor__string(c, &sys, "system name");
		if (ret)
			break;
		if (!*sys)
			return cursor__fail(c, at, "empty system name");
		ret = cursor__u32(c, &nr, "event format count");
		for (j = 0; !ret && j < nr; j++)
			ret = trace_event__read_format(te, c, sys);
	}
	if (ret)
		return ret;

	/* kallsyms: skipped, as upstream does, kernel addresses go through the resolver */
	ret = cursor__section(c, 4, &p, &n, "kallsyms");
	if (ret)
		return ret;
	ret = cursor__section(c, 4, &p, &n, "printk formats");
	if (!ret && n)
		ret = trace_event__parse_printk(te, p, n, c->err);
	if (ret)
		return ret;
	/* saved cmdlines came with version 0.6 */
	if (strtod(te->version, NULL) >= 0.6) {
		ret = cursor__section(c, 8, &p, &n, "saved cmdlines");
		if (!ret && n)
			ret = trace_event__parse_cmdlines(te, p, n, c->err);
	}
	/* bytes after the last section are padding of the feature section */
	return ret;
}

struct trace_event *trace_event__new(const void *tracing_data, size_t size, struct perf_err *err)
{
	struct te_cursor c = { .err = err };
	struct trace_event *te;
	int ret;

	if (!tracing_data && size) {
		perf_err__set(err, EINVAL, "no tracing data");
		return NULL;
	}
	perf_cursor__init(&c.cur, tracing_data, size, false);
	te = calloc(1, sizeof(*te));
	if (!te)
		goto out_nomem;
	te->tep = tep_alloc();
	te->fields_tep = tep_alloc();
	if (!te->tep || !te->fields_tep) {
		tep_free(te->tep);
		tep_free(te->fields_tep);
		goto out_free;
	}
	/* the same flag upstream sets; it only affects timestamps, which we never print */
	tep_set_flag(te->tep, TEP_NSEC_OUTPUT);
	trace_seq_init(&te->seq);
	ret = trace_event__read(te, &c);
	tep_free(te->fields_tep);
	te->fields_tep = NULL;
	if (ret) {
		trace_event__delete(te);
		return NULL;
	}
	return te;

out_free:
	free(te);
out_nomem:
	perf_err__set(err, ENOMEM, "out of memory for the tracing data");
	return NULL;
}

void trace_event__delete(struct trace_event *te)
{
	if (!te)
		return;
	trace_seq_destroy(&te->seq);
	tep_free(te->tep);
	free(te->scratch);
	free(te->version);
	free(te);
}

int trace_event__set_resolver(struct trace_event *te, trace_event__resolver_t fn, void *priv)
{
	if (!fn) {
		tep_reset_function_resolver(te->tep);
		return 0;
	}
	return tep_set_function_resolver(te->tep, fn, priv) ? -ENOMEM : 0;
}

static struct tep_event *trace_event__find(struct trace_event *te, u64 config)
{
	if (config > INT_MAX)
		return NULL;
	return tep_find_event(te->tep, (int)config);
}

const char *trace_event__name(struct trace_event *te, u64 config, char *buf, size_t len)
{
	struct tep_event *event = trace_event__find(te, config);
	int n;

	if (!event)
		return NULL;
	n = snprintf(buf, len, "%s:%s", event->system, event->name);
	return n >= 0 && (size_t)n < len ? buf : NULL;
}

bool trace_event__file_bigendian(const struct trace_event *te)
{
	return te->file_bigendian;
}

int trace_event__long_size(const struct trace_event *te)
{
	return te->long_size;
}

struct tep_handle *trace_event__tep(struct trace_event *te)
{
	return te->tep;
}

/* ---- checking a sample before libtraceevent prints it ---- */

/*
 * One pass over the print args of the record's event, computing numbers the way
 * libtraceevent's evaluator does so that counts, lengths and divisors taken from the data are
 * known before it uses them.
 */
struct te_sample {
	struct tep_handle	*tep;
	struct tep_event	*event;
	const u8		*data;		/* size bytes + TE_RAW_PAD zeros */
	u32			size;
	const char		*bad;		/* what failed */
	const char		*bad_name;
};

static int sample__fail(struct te_sample *s, const char *what, const char *name)
{
	s->bad = what;
	s->bad_name = name ? name : "?";
	return -1;
}

/* where a dynamic field's data lies, as libtraceevent computes it; -1 if outside the record */
static int sample__loc(struct te_sample *s, const struct tep_format_field *f, u32 *offp, u32 *lenp)
{
	unsigned long long val;
	u64 off, len;

	if (f->offset < 0 || f->size <= 0 || (u64)f->offset + f->size > s->size)
		return sample__fail(s, "location of dynamic field", f->name);
	val = tep_read_number(s->tep, s->data + f->offset, f->size);
	off = val & 0xffff;
	len = f->size == 2 ? (off <= s->size ? s->size - off : 0) : (val >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off > s->size || len > s->size - off)
		return sample__fail(s, "dynamic field data outside the record", f->name);
	*offp = off;
	*lenp = len;
	return 0;
}

static struct tep_format_field *sample__field(struct te_sample *s, struct tep_format_field *f,
					      const char *name)
{
	if (f)
		return f;
	return name ? tep_find_any_field(s->event, name) : NULL;
}

/* a cast as libtraceevent applies it: integer types mask to their width, others pass */
static unsigned long long sample__cast(unsigned long long val, const char *type, bool pointer)
{
	static const struct { const char *type; unsigned long long mask; } widths[] = {
		{ "u8", 0xff }, { "s8", 0xff }, { "char", 0xff }, { "unsigned char", 0xff },
		{ "u16", 0xffff }, { "s16", 0xffff }, { "short", 0xffff }, { "unsigned short", 0xffff },
		{ "u32", 0xffffffff }, { "s32", 0xffffffff }, { "int", 0xffffffff },
		{ "unsigned int", 0xffffffff },
	};
	size_t len = strlen(type), i;

	if (!len)
		return val;
	if (pointer) {
		char base[TE_MAX_NAME];

		/* "T *" indexes as T */
		if (type[len - 1] != '*' || len < 2 || len - 2 >= sizeof(base))
			return val;
		memcpy(base, type, len - 2);
		base[len - 2] = '\0';
		return sample__cast(val, base, false);
	}
	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		if (!strcmp(type, widths[i].type))
			return val & widths[i].mask;
	}
	return val;
}

static int sample__eval(struct te_sample *s, struct tep_print_arg *arg, unsigned long long *val,
			int depth);

/* REC->array[index] and __get_dynamic_array(x)[index] */
static int sample__eval_index(struct te_sample *s, struct tep_print_arg *arg,
			      unsigned long long *val, int depth)
{
	struct tep_print_arg *larg = arg->op.left, *typearg = NULL;
	struct tep_format_field *f;
	unsigned long long index;
	u32 off, size, doff, dlen;

	if (!larg || sample__eval(s, arg->op.right, &index, depth))
		return -1;
	while (larg && larg->type == TEP_PRINT_TYPE) {
		if (!typearg)
			typearg = larg;
		larg = larg->typecast.item;
	}
	if (!larg)
		return sample__fail(s, "array index without an array", NULL);
	*val = 0;
	/*
	 * libtraceevent computes the offset in an unsigned int. Its enum grows with its
	 * releases: the switch is on the value, the kinds not named here go to default.
	 */
	switch ((int)larg->type) {
	case TEP_PRINT_DYNAMIC_ARRAY:
		f = larg->dynarray.field;
		if (!f || sample__loc(s, f, &doff, &dlen))
			return -1;
		off = doff + (u32)index;
		size = f->elementsize ? f->elementsize : (u32)tep_get_long_size(s->tep);
		break;
	case TEP_PRINT_FIELD:
		f = sample__field(s, larg->field.field, larg->field.name);
		if (!f)
			return 0;
		size = f->elementsize;
		off = f->offset + (u32)index * f->elementsize;
		break;
	default:
		/* libtraceevent gives up on these with a warning and a 0 */
		return 0;
	}
	/* some libtraceevent versions check this range, with int arithmetic; not all do */
	if ((u64)off + size > s->size)
		return sample__fail(s, "array index outside the record", f->name);
	*val = tep_read_number(s->tep, s->data + off, size);
	if (typearg)
		*val = sample__cast(*val, typearg->typecast.type, true);
	return 0;
}

static int sample__eval_op(struct te_sample *s, struct tep_print_arg *arg, unsigned long long *val,
			   int depth)
{
	const char *op = arg->op.op;
	unsigned long long left, right;

	if (!op || !op[0])
		return sample__fail(s, "operator", NULL);
	if (!strcmp(op, "["))
		return sample__eval_index(s, arg, val, depth);
	if (!strcmp(op, "?")) {
		struct tep_print_arg *colon = arg->op.right;

		if (!colon || colon->type != TEP_PRINT_OP ||
		    sample__eval(s, arg->op.left, &left, depth))
			return sample__fail(s, "?: operator", NULL);
		return sample__eval(s, left ? colon->op.left : colon->op.right, val, depth);
	}
	if (sample__eval(s, arg->op.left, &left, depth) ||
	    sample__eval(s, arg->op.right, &right, depth))
		return -1;
	*val = 0;
	switch (op[0]) {
	case '!':
		*val = op[1] == '=' ? left != right : !right;
		break;
	case '~':
		*val = ~right;
		break;
	case '|':
		*val = op[1] ? left || right : left | right;
		break;
	case '&':
		*val = op[1] ? left && right : left & right;
		break;
	case '<':
		*val = op[1] == '<' ? left << (right & 63) :
		       op[1] == '=' ? left <= right : left < right;
		break;
	case '>':
		*val = op[1] == '>' ? left >> (right & 63) :
		       op[1] == '=' ? left >= right : left > right;
		break;
	case '=':
		*val = op[1] == '=' && left == right;
		break;
	case '-':
		*val = left - right;
		break;
	case '+':
		*val = left + right;
		break;
	case '*':
		*val = left * right;
		break;
	case '/':
	case '%':
		/* libtraceevent divides with no check: a zero from the data would trap */
		if (!right)
			return sample__fail(s, "division by zero in the print fmt", NULL);
		*val = op[0] == '/' ? left / right : left % right;
		break;
	default:
		break;
	}
	return 0;
}

static int sample__eval(struct te_sample *s, struct tep_print_arg *arg, unsigned long long *val,
			int depth)
{
	struct tep_format_field *f;
	u32 off, len;

	if (!arg || depth > TE_MAX_EVAL_DEPTH)
		return sample__fail(s, "print fmt expression", NULL);
	*val = 0;
	/* on the value: libtraceevent's enum grows, the kinds not named here go to default */
	switch ((int)arg->type) {
	case TEP_PRINT_NULL:
		return 0;
	case TEP_PRINT_ATOM:
		/* a non-numeric atom names a kernel symbol; none are registered, so it is 0 */
		*val = arg->atom.atom ? strtoull(arg->atom.atom, NULL, 0) : 0;
		return 0;
	case TEP_PRINT_FIELD:
		f = sample__field(s, arg->field.field, arg->field.name);
		/* a missing or out-of-record field evaluates to 0 in libtraceevent */
		if (f && f->offset >= 0 && f->size >= 0 && (u64)f->offset + f->size <= s->size)
			*val = tep_read_number(s->tep, s->data + f->offset, f->size);
		return 0;
	case TEP_PRINT_TYPE:
		if (!arg->typecast.type || sample__eval(s, arg->typecast.item, val, depth + 1))
			return sample__fail(s, "type cast", NULL);
		*val = sample__cast(*val, arg->typecast.type, false);
		return 0;
	case TEP_PRINT_OP:
		return sample__eval_op(s, arg, val, depth + 1);
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!arg->dynarray.field || sample__loc(s, arg->dynarray.field, &off, &len))
			return -1;
		*val = len;
		return 0;
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
	case TEP_PRINT_INT_ARRAY:
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
	case TEP_PRINT_STRING:
	case TEP_PRINT_BSTRING:
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		return 0;
	default:
		/* a pointer into the record, or a helper function: not a number we can bound */
		return sample__fail(s, "print fmt argument that is not a number", NULL);
	}
}

/* __print_hex(), __print_hex_str(), __print_array(): where the bytes start, how many remain */
static int sample__array_base(struct te_sample *s, struct tep_print_arg *base, u64 *avail)
{
	struct tep_format_field *f;
	u32 off, len;

	if (!base)
		return sample__fail(s, "array argument", NULL);
	if (base->type == TEP_PRINT_DYNAMIC_ARRAY) {
		if (!base->dynarray.field || sample__loc(s, base->dynarray.field, &off, &len))
			return -1;
		*avail = s->size - off;
		return 0;
	}
	if (base->type != TEP_PRINT_FIELD)
		return sample__fail(s, "array argument that is neither a field nor a dynamic array", NULL);
	f = sample__field(s, base->field.field, base->field.name);
	if (!f) {
		/* libtraceevent prints nothing for a field it cannot find */
		*avail = ~0ULL;
		return 1;
	}
	*avail = (u64)f->offset <= s->size ? s->size - f->offset : 0;
	return 0;
}

static int sample__check_arg(struct te_sample *s, struct tep_print_arg *arg, int depth);

static int sample__check_list(struct te_sample *s, struct tep_print_arg *arg, int depth)
{
	for (; arg; arg = arg->next) {
		if (sample__check_arg(s, arg, depth))
			return -1;
	}
	return 0;
}

static int sample__check_arg(struct te_sample *s, struct tep_print_arg *arg, int depth)
{
	unsigned long long count, el_size, dummy;
	struct tep_format_field *f;
	u64 avail, bytes;
	u32 off, len;
	int ret;

	if (depth > TE_MAX_EVAL_DEPTH)
		return sample__fail(s, "print fmt nesting", NULL);
	switch (arg->type) {
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		ret = sample__array_base(s, arg->hex.field, &avail);
		if (ret)
			return ret < 0 ? -1 : 0;
		if (sample__eval(s, arg->hex.size, &count, depth + 1))
			return -1;
		/* libtraceevent loops over an unsigned int count of bytes */
		if ((unsigned int)count > avail)
			return sample__fail(s, "__print_hex() length beyond the record", NULL);
		return 0;
	case TEP_PRINT_INT_ARRAY:
		ret = sample__array_base(s, arg->int_array.field, &avail);
		if (ret)
			return ret < 0 ? -1 : 0;
		if (sample__eval(s, arg->int_array.count, &count, depth + 1) ||
		    sample__eval(s, arg->int_array.el_size, &el_size, depth + 1))
			return -1;
		/* an element size other than 1, 2, 4, 8 prints one byte per element */
		el_size = (int)el_size;
		if (el_size != 2 && el_size != 4 && el_size != 8)
			el_size = 1;
		bytes = (u64)(unsigned int)count * el_size;
		if (bytes > avail)
			return sample__fail(s, "__print_array() count beyond the record", NULL);
		return 0;
	case TEP_PRINT_STRING:
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK: {
		const char *name = arg->type == TEP_PRINT_STRING ? arg->string.string :
							arg->bitmask.bitmask;

		f = sample__field(s, arg->type == TEP_PRINT_STRING ? arg->string.field :
				  arg->bitmask.field, name);
		/* libtraceevent dereferences a cpumask field it did not find */
		if (!f)
			return arg->type == TEP_PRINT_CPUMASK ?
				sample__fail(s, "unknown __get_cpumask() field", name) : 0;
		return sample__loc(s, f, &off, &len);
	}
	case TEP_PRINT_DYNAMIC_ARRAY:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!arg->dynarray.field)
			return sample__fail(s, "dynamic array without a field", NULL);
		return sample__loc(s, arg->dynarray.field, &off, &len);
	case TEP_PRINT_FLAGS:
		return sample__eval(s, arg->flags.field, &dummy, depth + 1);
	case TEP_PRINT_SYMBOL:
		return sample__eval(s, arg->symbol.field, &dummy, depth + 1);
	case TEP_PRINT_OP:
		if (arg->op.op && !strcmp(arg->op.op, "?")) {
			struct tep_print_arg *colon = arg->op.right;

			if (!colon || colon->type != TEP_PRINT_OP ||
			    sample__eval(s, arg->op.left, &dummy, depth + 1))
				return sample__fail(s, "?: operator", NULL);
			arg = dummy ? colon->op.left : colon->op.right;
			return arg ? sample__check_arg(s, arg, depth + 1) :
				     sample__fail(s, "?: operator", NULL);
		}
		return sample__eval(s, arg, &dummy, depth + 1);
	case TEP_PRINT_TYPE:
		/* the cast item is what gets printed: check it as an arg, then as a number */
		if (!arg->typecast.item || sample__check_arg(s, arg->typecast.item, depth + 1))
			return sample__fail(s, "type cast", NULL);
		if (arg->typecast.item->type == TEP_PRINT_DYNAMIC_ARRAY)
			return 0;
		return sample__eval(s, arg, &dummy, depth + 1);
	case TEP_PRINT_FUNC:
		return sample__check_list(s, arg->func.args, depth + 1);
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
	case TEP_PRINT_FIELD:
	case TEP_PRINT_BSTRING:
		return 0;
	default:
		return sample__fail(s, "unknown print fmt argument", NULL);
	}
}

static int sample__check(struct te_sample *s)
{
	struct tep_format_field *lists[2] = { s->event->format.common_fields, s->event->format.fields };
	struct tep_format_field *f;
	u32 off, len;
	int i;

	for (i = 0; i < 2; i++) {
		for (f = lists[i]; f; f = f->next) {
			if ((u64)f->offset + f->size > s->size)
				return sample__fail(s, "field beyond the end of the raw data", f->name);
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && sample__loc(s, f, &off, &len))
				return -1;
		}
	}
	/* an unparsed print fmt prints the fields raw: the checks above cover that */
	if (s->event->flags & TEP_EVENT_FL_FAILED)
		return 0;
	return sample__check_list(s, s->event->print_fmt.args, 0);
}

int trace_event__format(struct trace_event *te, u64 config, const void *raw, u32 raw_size,
			int cpu, char *buf, size_t len, struct perf_err *err)
{
	struct tep_record record;
	struct tep_event *event;
	size_t need = (size_t)raw_size + TE_RAW_PAD;
	unsigned int n;

	if (!trace_event__find(te, config))
		return perf_err__set(err, ENOENT, "the tracing data has no format for tracepoint id %llu",
				     (unsigned long long)config);
	if (!te->type_size || raw_size < (u32)(te->type_offset + te->type_size))
		return perf_err__set(err, EINVAL, "tracepoint raw data of %u bytes has no common_type",
				     raw_size);
	if (need > te->scratch_size) {
		u8 *scratch = realloc(te->scratch, need);

		if (!scratch)
			return perf_err__set(err, ENOMEM, "out of memory for %u bytes of raw data", raw_size);
		te->scratch = scratch;
		te->scratch_size = need;
	}
	/* an aligned copy with zeros after it: see TE_RAW_PAD */
	memcpy(te->scratch, raw, raw_size);
	memset(te->scratch + raw_size, 0, TE_RAW_PAD);

	event = tep_find_event(te->tep, tep_read_number(te->tep, te->scratch + te->type_offset,
							te->type_size));
	/* without an event, libtraceevent prints "[UNKNOWN TYPE n]" and a hex dump of the record */
	if (event) {
		struct te_sample s = {
			.tep = te->tep, .event = event, .data = te->scratch, .size = raw_size,
		};

		if (sample__check(&s))
			return perf_err__set(err, EINVAL, "%s:%s raw data (%u bytes) does not fit its format: %s (%s)",
					     event->system, event->name, raw_size, s.bad, s.bad_name);
	}

	memset(&record, 0, sizeof(record));
	record.cpu = cpu;
	record.size = raw_size;
	record.data = te->scratch;
	trace_seq_reset(&te->seq);
	tep_print_event(te->tep, &te->seq, &record, "%s", TEP_PRINT_INFO);
	if (te->seq.state != TRACE_SEQ__GOOD)
		return perf_err__set(err, ENOMEM, "out of memory formatting %s:%s",
				     event ? event->system : "?", event ? event->name : "?");
	n = te->seq.len;
	if (len) {
		size_t copy = n < len ? n : len - 1;

		memcpy(buf, te->seq.buffer, copy);
		buf[copy] = '\0';
	}
	return n > INT_MAX ? -EOVERFLOW : (int)n;
}
