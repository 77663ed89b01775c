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

/**
 * struct cpuidle_budget_reading - a package's power counters at one instant
 * @valid: CPUIDLE_BUDGET_HAS_* flags of the fields below that were read
 * @energy_uj: energy the package consumed since an arbitrary origin, in
 *	microjoules; must never go backwards (a source extends a wrapping
 *	hardware counter itself)
 * @throttled_us: time the package was held below the performance it was
 *	asked for, to stay within its power limits, since an arbitrary
 *	origin; never goes backwards
 * @limit_mw: the package power limit in force now, 0 for none
 * @limit_active: the hardware (or firmware) says the limit is being
 *	enforced right now
 *
 * The governor takes differences of the cumulative fields between two
 * readings itself, so a source needs no notion of the sampling window.
 */
struct cpuidle_budget_reading {
	unsigned int valid;
	u64 energy_uj;
	u64 throttled_us;
	u32 limit_mw;
	bool limit_active;
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
