/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - the two helpers the kernel's <linux/kernel.h> gives every file: ARRAY_SIZE and
 * container_of. Both libraries and the tests use them; nothing here has state.
 */
#ifndef PERF_KERNEL_H
#define PERF_KERNEL_H

#include <stddef.h>

/* the number of elements of an array (not of a pointer: that does not compile) */
#define ARRAY_SIZE(a) \
	(sizeof(a) / sizeof((a)[0]) + \
	 0 * sizeof(struct { int array_not_pointer : \
		 __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])) ? -1 : 1; }))

/*
 * The struct of type that embeds *ptr as member. Const-correct: a pointer to a const member
 * gives a pointer to a const struct, so a read-only view never becomes a writable one. A
 * callback handed its table const (a tool, a stage) inside state its owner may change casts
 * the result: the cast marks the one place const is dropped.
 */
#define container_of(ptr, type, member) \
	_Generic((ptr), \
		const __typeof__(*(ptr)) *: \
			((const type *)((const char *)(ptr) - offsetof(type, member))), \
		default: \
			((type *)((char *)(ptr) - offsetof(type, member))))

#endif
