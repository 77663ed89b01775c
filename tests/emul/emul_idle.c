// SPDX-License-Identifier: GPL-2.0
/*
 * emul_idle.c - emulated Intel idle states for a QEMU guest
 *
 * Under QEMU TCG a guest has no cpuidle driver (no MWAIT hints, no ACPI
 * _CST, no haltpoll), so no cpuidle governor ever runs. This driver gives
 * every CPU the idle states of a real Intel part, so that governors choose
 * among states with realistic exit latencies and target residencies:
 *
 *   POLL  the core's polling state (cpuidle_poll_state_init())
 *   C1    exit 1 us,   target residency 1 us
 *   C1E   exit 2 us,   target residency 4 us
 *   C6    exit 170 us, target residency 500 us
 *   C8    exit 200 us, target residency 600 us
 *   C10   exit 230 us, target residency 700 us
 *
 * The numbers are those of Alder Lake-L (adl_l_cstates[] in
 * drivers/idle/intel_idle.c, Linux 6.12), a mobile hybrid part of the kind
 * the budget governor is meant for.
 *
 * Every state is entered with HLT: the vCPU really stops until an
 * interrupt. On wake-up, with emulate_exit_latency set (the default), the
 * CPU then spins for the state's exit latency before it returns to the
 * idle loop, so a task woken by that interrupt (cyclictest's timer, say)
 * sees the latency a real package would add. The interrupt handler itself
 * runs before the spin: this emulates a late resume of the woken task, not
 * a late interrupt. Per-state usage and time are kept by the cpuidle core
 * as for any driver (/sys/devices/system/cpu/cpuN/cpuidle/stateM/).
 */

#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/module.h>

static bool emulate_exit_latency = true;
module_param(emulate_exit_latency, bool, 0644);
MODULE_PARM_DESC(emulate_exit_latency,
		 "Spin for a state's exit latency after waking from it (default: Y)");

static __cpuidle int emul_idle_enter(struct cpuidle_device *dev,
				     struct cpuidle_driver *drv, int index)
{
	/* STI; HLT: sleep until the next interrupt, which runs here. */
	raw_safe_halt();
	raw_local_irq_disable();

	if (READ_ONCE(emulate_exit_latency))
		udelay(drv->states[index].exit_latency);

	return index;
}

#define EMUL_STATE(_name, _desc, _exit_us, _target_us)		\
	{							\
		.name = _name,					\
		.desc = _desc,					\
		.exit_latency = _exit_us,			\
		.target_residency = _target_us,			\
		.enter = emul_idle_enter,			\
	}

static struct cpuidle_driver emul_idle_driver = {
	.name = "emul_idle",
	.owner = THIS_MODULE,
	.states = {
		{ /* states[0] is filled in by cpuidle_poll_state_init() */ },
		EMUL_STATE("C1", "emulated ADL-L C1 (HLT)", 1, 1),
		EMUL_STATE("C1E", "emulated ADL-L C1E (HLT)", 2, 4),
		EMUL_STATE("C6", "emulated ADL-L C6 (HLT)", 170, 500),
		EMUL_STATE("C8", "emulated ADL-L C8 (HLT)", 200, 600),
		EMUL_STATE("C10", "emulated ADL-L C10 (HLT)", 230, 700),
	},
	.state_count = 6,
};

static int __init emul_idle_init(void)
{
	int ret;

	cpuidle_poll_state_init(&emul_idle_driver);
	ret = cpuidle_register(&emul_idle_driver, NULL);
	if (ret)
		pr_err("emul_idle: cannot register: %d\n", ret);
	return ret;
}

static void __exit emul_idle_exit(void)
{
	cpuidle_unregister(&emul_idle_driver);
}

module_init(emul_idle_init);
module_exit(emul_idle_exit);

MODULE_DESCRIPTION("Emulated Intel (Alder Lake-L) idle states for QEMU guests");
MODULE_LICENSE("GPL");
