// SPDX-License-Identifier: GPL-2.0
/*
 * budget.c - the "budget" cpuidle governor
 *
 * The governor this file grows into biases idle state selection by the
 * package's power budget: deeper idle on idle CPUs while the package is
 * power-limited, so that busy CPUs get the power, latency first otherwise.
 * This first policy has no prediction and no power signals yet. It trusts
 * the timers, and only the timers:
 *
 * 1. The candidates are the enabled states whose exit latency fits the
 *    CPU's latency limit (PM QoS: the CPU's resume latency request and
 *    /dev/cpu_dma_latency). The first enabled state is always a candidate,
 *    so that there is something to enter when nothing fits.
 *
 * 2. The expected idle duration is the time until the next timer event,
 *    from tick_nohz_get_sleep_length(), which assumes the tick is stopped.
 *    Of the candidates, the deepest one whose target residency is within
 *    that duration is chosen.
 *
 * 3. The tick is stopped when the next timer event comes after the next
 *    tick: the duration was computed for a sleep the tick would otherwise
 *    cut short. When the next event comes first, the tick is not in the
 *    way and is left alone, which saves reprogramming it. A polling state
 *    never stops the tick: it must not poll for an unbounded time.
 *
 * What this policy gets wrong, on purpose for now: wake-ups that are not
 * timers (I/O completion, IPIs, a task woken on another CPU) end idle
 * periods early, and a timer-only policy then picks states that are too
 * deep. The reflect() callback counts those early wake-ups per CPU, which
 * is the first input the predictor will use.
 *
 * Statistics per CPU are in debugfs, in cpuidle_budget/stats.
 */

#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/tick.h>

/* Below menu (20) and teo (19): loading the module never switches to it. */
#define BUDGET_RATING 15

/**
 * struct budget_cpu - per-CPU governor state
 * @selects: select() calls
 * @tick_stops: select() calls that asked to stop the tick
 * @early_wakeups: idle periods that ended before the entered state's target
 *	residency (the state was deeper than the period deserved)
 *
 * Written only by the CPU it belongs to, from the idle path; read from
 * debugfs without locking (each counter is one naturally aligned word).
 */
struct budget_cpu {
	u64 selects;
	u64 tick_stops;
	u64 early_wakeups;
};

static DEFINE_PER_CPU(struct budget_cpu, budget_cpus);

static void budget_count(u64 *counter)
{
	WRITE_ONCE(*counter, *counter + 1);
}

/*
 * The deepest enabled state whose exit latency fits @latency_req and whose
 * target residency fits @duration_ns; the first enabled state if none
 * does, 0 if every state is disabled.
 */
static int budget_pick_state(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev,
			     s64 latency_req, s64 duration_ns)
{
	int first = -1, best = -1;
	int i;

	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;
		if (first < 0)
			first = i;
		if (s->exit_latency_ns <= latency_req &&
		    s->target_residency_ns <= duration_ns)
			best = i;
	}
	if (best >= 0)
		return best;
	return first >= 0 ? first : 0;
}

static int budget_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	struct budget_cpu *bc = this_cpu_ptr(&budget_cpus);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick;
	s64 duration_ns;
	int idx;

	/* Both can be negative when the next event is already due. */
	duration_ns = max_t(s64, tick_nohz_get_sleep_length(&delta_tick), 0);
	delta_tick = max_t(s64, delta_tick, 0);

	idx = budget_pick_state(drv, dev, latency_req, duration_ns);

	if (drv->states[idx].flags & CPUIDLE_FLAG_POLLING)
		*stop_tick = false;
	else
		*stop_tick = duration_ns > delta_tick;

	budget_count(&bc->selects);
	if (*stop_tick)
		budget_count(&bc->tick_stops);

	return idx;
}

static void budget_reflect(struct cpuidle_device *dev, int index)
{
	struct cpuidle_driver *drv = cpuidle_get_cpu_driver(dev);
	struct budget_cpu *bc = this_cpu_ptr(&budget_cpus);

	if (drv && dev->last_residency_ns < drv->states[index].target_residency_ns)
		budget_count(&bc->early_wakeups);
}

/*
 * Called for each CPU when budget becomes the current governor. A CPU that
 * slept through the switch may call reflect() right after this, so the
 * per-CPU state must be valid when it returns.
 */
static int budget_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct budget_cpu *bc = per_cpu_ptr(&budget_cpus, dev->cpu);

	WRITE_ONCE(bc->selects, 0);
	WRITE_ONCE(bc->tick_stops, 0);
	WRITE_ONCE(bc->early_wakeups, 0);
	return 0;
}

static struct cpuidle_governor budget_governor = {
	.name =		"budget",
	.rating =	BUDGET_RATING,
	.owner =	THIS_MODULE,
	.enable =	budget_enable,
	.select =	budget_select,
	.reflect =	budget_reflect,
};

static int budget_stats_show(struct seq_file *m, void *unused)
{
	int cpu;

	seq_puts(m, "cpu selects tick_stops early_wakeups\n");
	for_each_possible_cpu(cpu) {
		struct budget_cpu *bc = per_cpu_ptr(&budget_cpus, cpu);

		seq_printf(m, "%d %llu %llu %llu\n", cpu,
			   READ_ONCE(bc->selects), READ_ONCE(bc->tick_stops),
			   READ_ONCE(bc->early_wakeups));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(budget_stats);

static struct dentry *budget_debugfs;

static int __init budget_init(void)
{
	int ret;

	ret = cpuidle_register_governor(&budget_governor);
	if (ret) {
		pr_err("cpuidle_budget: cannot register governor: %d\n", ret);
		return ret;
	}

	/* Statistics are optional: a debugfs failure is not fatal. */
	budget_debugfs = debugfs_create_dir("cpuidle_budget", NULL);
	debugfs_create_file("stats", 0444, budget_debugfs, NULL,
			    &budget_stats_fops);
	return 0;
}

static void __exit budget_exit(void)
{
	/* After this no CPU runs our callbacks: the stats may go. */
	cpuidle_unregister_governor(&budget_governor);
	debugfs_remove_recursive(budget_debugfs);
}

module_init(budget_init);
module_exit(budget_exit);

MODULE_ALIAS_CPUIDLE_GOVERNOR("budget");
MODULE_DESCRIPTION("cpuidle governor that biases idle depth by the package power budget");
MODULE_AUTHOR("cpuidle-budget maintainers <maintainers@cpuidle-budget.invalid>");
MODULE_LICENSE("GPL");
