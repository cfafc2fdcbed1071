// SPDX-License-Identifier: GPL-2.0
/*
 * cxx: C++ code calling into libstdc++.so proper, not header code inlined into ours: the
 * stream inserter of a long and a string's growth are instantiated in the library (the
 * headers declare them extern templates) and built without frame pointers.
 *
 *   workload__cxx -> cxx_loop -> cxx_insert_one -> std::ostream::_M_insert<long>
 *                             -> cxx_rewind_one -> std::ostream::seekp
 *                             -> cxx_append_one -> std::string::_M_append
 *                             -> cxx_shrink_one -> std::string::reserve
 *
 * Each of ours calls that one function of the library (objdump -d shows it; an inline
 * wrapper around the call is not a frame). Our functions have C linkage, so that their
 * symbols are the plain names the callchain judge (tests/shell/lib/callers.awk) knows.
 */
#include <sstream>
#include <string>
/* last: it sets the optimisation flags of what follows */
#include "workload.h"

/* a round's worth of appends grows the string past a few reallocations */
#define CXX_APPENDS	64
/* rounds between two looks at the clock: one round costs about what reading it does */
#define CXX_ROUNDS	64

static const char cxx_chunk[] = "the quick brown fox jumps over the lazy dog, ";

extern "C" {

static WORKLOAD_FN long cxx_insert_one(std::ostringstream &os, long v)
{
	os << v;
	return v;
}

static WORKLOAD_FN long cxx_rewind_one(std::ostringstream &os)
{
	os.seekp(0);
	return 0;
}

static WORKLOAD_FN size_t cxx_append_one(std::string &s)
{
	s.append(cxx_chunk, sizeof(cxx_chunk) - 1);
	return s.size();
}

static WORKLOAD_FN size_t cxx_shrink_one(std::string &s)
{
	s.clear();
	s.reserve();
	return s.capacity();
}

/* the stream and the string are made by our entry: their constructors are not the loop's callees */
static WORKLOAD_FN unsigned long cxx_loop(std::ostringstream &os, std::string &s, struct spin *sp)
{
	unsigned long n = 0;

	do {
		for (int r = 0; r < CXX_ROUNDS; r++) {
			for (int i = 0; i < CXX_APPENDS; i++) {
				n += (unsigned long)cxx_insert_one(os, (long)(n % 1000003) * 7919);
				n += cxx_append_one(s);
			}
			n += (unsigned long)cxx_rewind_one(os);
			n += cxx_shrink_one(s);
		}
	} while (!spin__expired(sp));
	return n;
}

/*
 * The stream's buffer grows to a round's worth once, here: in the loop its inserts only
 * overwrite it (seekp(0) keeps the buffer). That first growth runs ten frames of
 * libstdc++ and libc without frame pointers (_M_insert<long> -> _M_insert_int -> xsputn ->
 * overflow -> reserve -> operator new -> malloc -> _int_malloc -> unlink_chunk), about 700
 * bytes of stack: more than the default repair dump, and a one-off of start-up. The
 * string's growth in the loop (append after shrinking) goes through operator new and
 * malloc every round.
 */
#define CXX_DIGITS	24

int workload__cxx(int argc, const char **argv)
{
	std::ostringstream os;
	std::string s;
	struct spin sp;

	if (spin__init(&sp, "cxx", argc, argv))
		return 1;
	os << std::string(CXX_APPENDS * CXX_DIGITS, ' ');
	os.seekp(0);
	sp.acc = cxx_loop(os, s, &sp);
	return 0;
}

}
