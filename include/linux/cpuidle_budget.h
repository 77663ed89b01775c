/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Power signal sources of the budget cpuidle governor.
 *
 * The governor turns a package's power signals into a power pressure that
 * biases its idle state selection (see
 * Documentation/admin-guide/pm/cpuidle-budget.rst). It has built-in
 * sources for Intel RAPL and AMD package energy; a platform whose power
 * information lives elsewhere (firmware, a board controller, a model)
 * registers a source of its own with cpuidle_budget_register_source() and
 * feeds the governor exactly where the built-in sources do.
 */
#ifndef _LINUX_CPUIDLE_BUDGET_H
#define _LINUX_CPUIDLE_BUDGET_H

#include <linux/types.h>

/* Which fields of a struct cpuidle_budget_reading the source fills. */
#define CPUIDLE_BUDGET_HAS_ENERGY	BIT(0)
#define CPUIDLE_BUDGET_HAS_LIMIT	BIT(1)
#define CPUIDLE_BUDGET_HAS_THROTTLE	BIT(2)
#define CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE	BIT(3)
#define CPUIDLE_BUDGET_HAS_TURBO_LIMIT	BIT(4)

/**
 * struct cpuidle_budget_reading - a package's power counters at one instant
 * @valid: CPUIDLE_BUDGET_HAS_* flags of the fields below that were read
 * @energy_uj: energy the package consumed since an arbitrary origin, in
 *	microjoules; must never go backwards (a source extends a wrapping
 *	hardware counter itself)
 * @throttled_us: time the package was held below the performance it was
 *	asked for, to stay within its power limits, since an arbitrary
 *	origin; never goes backwards
 * @limit_mw: the package's long-term power limit (RAPL's PL1) in force
 *	now, 0 for none
 * @limit_window_us: the time constant over which @limit_mw holds the
 *	average power (RAPL's PL1 time window), 0 if not known
 * @short_limit_mw: the short-term limit (RAPL's PL2), 0 for none
 * @limit_active: the hardware (or firmware) says a power limit is being
 *	enforced right now
 * @turbo_limited: the hardware says the busy CPUs run below the frequency
 *	they asked for because of the turbo ratio limit for the number of
 *	active cores, not because of a power limit
 *
 * The governor takes differences of the cumulative fields between two
 * readings itself, so a source needs no notion of the sampling window.
 * @limit_window_us and @short_limit_mw come with CPUIDLE_BUDGET_HAS_LIMIT;
 * the two status bits are what the hardware says at the moment of the
 * reading, and the governor averages them over its samples.
 */
struct cpuidle_budget_reading {
	unsigned int valid;
	u64 energy_uj;
	u64 throttled_us;
	u32 limit_mw;
	u64 limit_window_us;
	u32 short_limit_mw;
	bool limit_active;
	bool turbo_limited;
};

/**
 * struct cpuidle_budget_source - a provider of package power signals
 * @name: short name, shown in debugfs and matched by the "signals" module
 *	parameter
 * @probe: optional; return 0 if the source works for package @pkg (whose
 *	online CPU @cpu the caller is running on or may read registers of),
 *	a negative errno otherwise
 * @read: fill @r for package @pkg, reading on or for @cpu; a negative
 *	errno disables the source for the package (with one log line)
 * @freq_scale: optional; the current frequency of @cpu relative to its
 *	maximum, 0..SCHED_CAPACITY_SCALE, in place of arch_freq_scale
 *
 * The callbacks run in process context from the governor's sampling work
 * (never from the idle path), one package at a time, with CPU hotplug
 * held off; they may sleep. Once cpuidle_budget_unregister_source()
 * returns, none of them runs again.
 */
struct cpuidle_budget_source {
	const char *name;
	int (*probe)(unsigned int pkg, int cpu);
	int (*read)(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r);
	unsigned int (*freq_scale)(int cpu);
};

int cpuidle_budget_register_source(const struct cpuidle_budget_source *src);
void cpuidle_budget_unregister_source(const struct cpuidle_budget_source *src);

#endif /* _LINUX_CPUIDLE_BUDGET_H */
