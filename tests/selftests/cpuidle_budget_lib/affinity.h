/* SPDX-License-Identifier: GPL-2.0 */
/*
 * affinity.h - what the selftests' and the bench's C helpers share:
 * pinning the calling thread to one CPU, and the monotonic clock.
 */
#ifndef CPUIDLE_BUDGET_AFFINITY_H
#define CPUIDLE_BUDGET_AFFINITY_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Pin the calling thread to CPU, or exit saying why. */
static inline void pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* CLOCK_MONOTONIC, in ns. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif
