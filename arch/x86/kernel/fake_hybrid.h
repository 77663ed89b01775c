/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_hybrid= test hook: the parsed form of the parameter, shared by
 * arch/x86/kernel/fake_hybrid.c and its KUnit test.
 */
#ifndef _X86_KERNEL_FAKE_HYBRID_H
#define _X86_KERNEL_FAKE_HYBRID_H

#include <linux/types.h>

/* Bounds of the values one group may give. */
#define FAKE_HYBRID_MAX_PRIO	255

enum fake_hybrid_type {
	FAKE_HYBRID_NONE,	/* CPU not named by the parameter */
	FAKE_HYBRID_P,		/* performance core */
	FAKE_HYBRID_E,		/* efficiency core */
};

/**
 * struct fake_hybrid_cpu - what the parameter says about one CPU
 * @type:	core type, FAKE_HYBRID_NONE when the CPU is not named
 * @capacity:	capacity at the CPU's highest frequency, 1..1024
 * @prio:	ITMT (asym packing) priority, 1..FAKE_HYBRID_MAX_PRIO
 */
struct fake_hybrid_cpu {
	enum fake_hybrid_type type;
	unsigned int capacity;
	unsigned int prio;
};

int fake_hybrid_parse(const char *arg, struct fake_hybrid_cpu *cpus,
		      unsigned int nr_cpus, char *err, size_t err_len);

#endif /* _X86_KERNEL_FAKE_HYBRID_H */
