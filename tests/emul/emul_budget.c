// SPDX-License-Identifier: GPL-2.0
/*
 * emul_budget.c - the emulated platform's package model as the budget
 * governor's power signal source
 *
 * Loading this module registers the model (emul_idle power_model=1) with
 * cpuidle_budget_register_source(): with the governor's "signals"
 * parameter at auto or platform, the governor then reads the model's
 * package energy, limit, throttling and frequency where, on a real part,
 * it reads the RAPL MSRs and arch_freq_scale. Unloading it gives the
 * governor its own sources back. It is a separate module so that the idle
 * driver and the model do not depend on the governor: menu and teo run on
 * the same platform without it.
 */

#include <linux/cpuidle_budget.h>
#include <linux/module.h>

#include "emul.h"

static const struct cpuidle_budget_source emul_budget_source = {
	.name = "emul-platform",
	.read = emul_platform_read,
	.freq_scale = emul_platform_freq_scale,
};

static int __init emul_budget_init(void)
{
	struct cpuidle_budget_reading r;
	int ret;

	/* Without the model there is nothing to provide. */
	ret = emul_platform_read(0, 0, &r);
	if (ret) {
		pr_err("emul_budget: load emul_idle with power_model=1 first\n");
		return ret;
	}
	return cpuidle_budget_register_source(&emul_budget_source);
}

static void __exit emul_budget_exit(void)
{
	cpuidle_budget_unregister_source(&emul_budget_source);
}

module_init(emul_budget_init);
module_exit(emul_budget_exit);

MODULE_DESCRIPTION("The emulated platform's power model as the budget governor's signal source");
MODULE_LICENSE("GPL");
