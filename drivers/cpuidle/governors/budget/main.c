// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the "budget" cpuidle governor
 *
 * Biases idle state selection by the package's power budget: deeper idle on
 * idle CPUs while the package is power-limited, so that busy CPUs get the
 * power, latency first otherwise. This file is the governor's glue: it
 * gathers the inputs of a selection (timers, tick, latency limit, the
 * package's power pressure), lets policy.c decide, records how each idle
 * period ended, and keeps statistics. The algorithm is described in
 * policy.c's DOC: blocks, the power pressure in pressure.c's and the
 * sampling in signals.c's; Documentation/admin-guide/pm/cpuidle-budget.rst
 * pulls them all in.
 *
 * Files, in debugfs under cpuidle_budget/: stats (per CPU), packages (per
 * package signals) and override (test scenarios, see signals.c).
 */

#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pm_qos.h>
#include <linux/seq_file.h>
#include <linux/tick.h>
#include <linux/topology.h>

#include "budget.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/**
 * cpuidle_budget_uint_param_set - set an unsigned int parameter within a range
 * @val: the text written
 * @kp: the parameter
 * @min: smallest value allowed
 * @max: largest value allowed
 *
 * Return: 0, or -EINVAL (and the parameter unchanged) for a bad value.
 */
int cpuidle_budget_uint_param_set(const char *val, const struct kernel_param *kp,
				  unsigned int min, unsigned int max)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < min || v > max)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

/* Below menu (20) and teo (19): loading the module never switches to it. */
#define BUDGET_RATING 15

/*
 * cpuidle_governor_latency_req() with no PM QoS request in force: the
 * global CPU latency default (the device's default, no constraint, is
 * larger). Anything below is a request: latency evidence (policy.c).
 */
#define BUDGET_QOS_DEFAULT_NS	((s64)PM_QOS_CPU_LATENCY_DEFAULT_VALUE * NSEC_PER_USEC)

/*
 * The biased/deeper statistics need the pressure-0 choice with the tick
 * rules applied to it, more work on every selection under pressure: only
 * on request.
 */
static bool budget_bias_stats;
module_param_named(bias_stats, budget_bias_stats, bool, 0644);
MODULE_PARM_DESC(bias_stats,
		 "Count the selections the pressure or the turbo rule changed (debugfs stats biased, deeper; default: N)");

/**
 * struct budget_cpu - per-CPU governor state
 * @hist: how recent idle periods ended
 * @selects: selections made
 * @biased: selections where the pressure or the turbo rule changed the
 *	state (counted only with bias_stats set)
 * @deeper: of those, selections where it made the state deeper
 * @tick_stops: selections that asked to stop the tick
 * @early_wakeups: idle periods that ended early (see policy.c)
 * @pkg_deep: selections the package term made deeper (see policy.c)
 * @turbo_deep: selections the turbo rule made deeper (see policy.c)
 *
 * Written only by the CPU it belongs to, from the idle path; the counters
 * are read from debugfs without locking (one naturally aligned word each).
 */
struct budget_cpu {
	struct budget_history hist;
	u64 selects;
	u64 biased;
	u64 deeper;
	u64 tick_stops;
	u64 early_wakeups;
	u64 pkg_deep;
	u64 turbo_deep;
};

static DEFINE_PER_CPU(struct budget_cpu, budget_cpus);

/*
 * The target residency of the state each CPU is idle in, 0 while it runs
 * or polls: how deep it is, for the other CPUs of its package
 * (budget_pkg_depth()). Written by its CPU at every idle entry and exit and
 * read by the others, so on a cache line of its own, away from the
 * history the CPU updates at every period. The core does not call
 * ->reflect() when a state was chosen but not entered (need_resched()):
 * the CPU then runs with its word still set until its next idle entry, or
 * until the sampler sees it busy and clears it
 * (cpuidle_budget_cpu_ran()), within a sampling period.
 */
static DEFINE_PER_CPU_SHARED_ALIGNED(s64, budget_idle_target_ns);

static void budget_count(u64 *counter)
{
	WRITE_ONCE(*counter, *counter + 1);
}

/*
 * Other CPUs of a package that budget_pkg_depth() reads at most. A package
 * C-state needs every CPU of the package idle at once: on a client part
 * (up to 16 or so CPUs) that happens between bursts; a server package of
 * dozens of cores seldom gets there, and reading all of their words on
 * every selection would cost more than the term is worth.
 */
#define BUDGET_PKG_SCAN_MAX	16

/*
 * How deep the other CPUs of @cpu's package are: the smallest target
 * residency of the states they are idle in, 0 as soon as one of them runs
 * (or the package is too large to look at), S64_MAX for a CPU alone in
 * its package. It reads a word of each other CPU (written by that CPU at
 * every idle entry and exit), so it is only worked out under pressure;
 * the first running CPU ends the walk, which keeps it short on a busy
 * package.
 */
static s64 budget_pkg_depth(int cpu)
{
	const struct cpumask *pkg = topology_core_cpumask(cpu);
	s64 depth = S64_MAX;
	int other;

	if (cpumask_weight(pkg) > BUDGET_PKG_SCAN_MAX + 1)
		return 0;
	for_each_cpu(other, pkg) {
		if (other == cpu)
			continue;
		depth = min(depth, READ_ONCE(per_cpu(budget_idle_target_ns, other)));
		if (!depth)
			break;
	}
	return depth;
}

/**
 * cpuidle_budget_cpu_ran - the sampler saw @cpu busy: it is not idle deep
 * @cpu: the CPU
 *
 * Clears what a selection that was never entered left behind (see
 * budget_idle_target_ns). Racing with @cpu's own next selection, it may
 * clear a valid word: the package term is then lost for one period.
 */
void cpuidle_budget_cpu_ran(unsigned int cpu)
{
	WRITE_ONCE(per_cpu(budget_idle_target_ns, cpu), 0);
}

static int budget_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	struct budget_cpu *bc = this_cpu_ptr(&budget_cpus);
	bool bias_stats = READ_ONCE(budget_bias_stats);
	struct budget_choice choice;
	struct budget_input in = {};
	ktime_t tick_ns;

	in.latency_req_ns = cpuidle_governor_latency_req(dev->cpu);
	in.latency_evidence = cpuidle_budget_cpu_iowait(dev->cpu) ||
			      in.latency_req_ns < BUDGET_QOS_DEFAULT_NS;
	in.tick_stopped = tick_nohz_tick_stopped();
	in.pressure = cpuidle_budget_pressure(dev->cpu, &in.turbo);
	in.want_unbiased = bias_stats || trace_cpuidle_budget_select_enabled();
	if (in.pressure)
		in.pkg_depth_ns = budget_pkg_depth(dev->cpu);

	if (cpuidle_budget_select_without_timers(drv, dev, &bc->hist, &in, &choice)) {
		in.sleep_ns = S64_MAX;
	} else {
		in.sleep_ns = tick_nohz_get_sleep_length(&tick_ns);
		in.tick_ns = max_t(s64, tick_ns, 0);
		cpuidle_budget_select_state(drv, dev, &bc->hist, &in, &choice);
	}

	cpuidle_budget_history_selected(&bc->hist, &in, &choice);
	*stop_tick = choice.stop_tick;

	budget_count(&bc->selects);
	if (bias_stats && choice.state != choice.unbiased) {
		budget_count(&bc->biased);
		if (choice.state > choice.unbiased)
			budget_count(&bc->deeper);
	}
	if (choice.stop_tick)
		budget_count(&bc->tick_stops);
	if (choice.pkg_deep)
		budget_count(&bc->pkg_deep);
	if (choice.turbo_deep)
		budget_count(&bc->turbo_deep);
	this_cpu_write(budget_idle_target_ns,
		       drv->states[choice.state].flags & CPUIDLE_FLAG_POLLING ? 0 :
		       drv->states[choice.state].target_residency_ns);

	trace_cpuidle_budget_select(dev->cpu, choice.predicted_ns, in.sleep_ns,
				    in.pressure, choice.state, choice.unbiased,
				    choice.stop_tick, choice.expected_ns,
				    choice.pkg_deep, in.turbo, choice.turbo_deep,
				    in.latency_evidence);
	return choice.state;
}

/*
 * How the period ended is recorded by policy.c, from what the core
 * reports of it.
 */
static void budget_reflect(struct cpuidle_device *dev, int index)
{
	struct cpuidle_driver *drv = cpuidle_get_cpu_driver(dev);
	struct budget_cpu *bc = this_cpu_ptr(&budget_cpus);
	bool got_tick, early;

	/* Awake now: a package whose sampler fell behind is sampled here. */
	cpuidle_budget_signals_poke(dev->cpu);
	this_cpu_write(budget_idle_target_ns, 0);

	if (!drv)
		return;
	got_tick = tick_nohz_idle_got_tick();
	early = cpuidle_budget_history_reflect(&bc->hist, drv, index,
					       dev->last_residency_ns, got_tick,
					       dev->poll_time_limit);
	if (early)
		budget_count(&bc->early_wakeups);
	trace_cpuidle_budget_reflect(dev->cpu, index, dev->last_residency_ns,
				     bc->hist.sleep_ns, got_tick,
				     dev->poll_time_limit, early);
}

/*
 * Called for each CPU when budget becomes the current governor. The core
 * calls reflect() only on a CPU whose last select() was budget's, so a CPU
 * that slept through the switch does not reflect() into this reset, nor
 * before its first select() (struct cpuidle_governor, patch 0001): plain
 * writes to the history are safe here.
 */
static int budget_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct budget_cpu *bc = per_cpu_ptr(&budget_cpus, dev->cpu);

	cpuidle_budget_history_reset(&bc->hist);
	WRITE_ONCE(bc->selects, 0);
	WRITE_ONCE(bc->biased, 0);
	WRITE_ONCE(bc->deeper, 0);
	WRITE_ONCE(bc->tick_stops, 0);
	WRITE_ONCE(bc->early_wakeups, 0);
	WRITE_ONCE(bc->pkg_deep, 0);
	WRITE_ONCE(bc->turbo_deep, 0);
	cpuidle_budget_cpu_ran(dev->cpu);
	cpuidle_budget_signals_start();
	return 0;
}

static void budget_disable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	cpuidle_budget_signals_stop();
}

static struct cpuidle_governor budget_governor = {
	.name =		"budget",
	.rating =	BUDGET_RATING,
	.owner =	THIS_MODULE,
	.enable =	budget_enable,
	.disable =	budget_disable,
	.select =	budget_select,
	.reflect =	budget_reflect,
};

static int budget_stats_show(struct seq_file *m, void *unused)
{
	int cpu;

	seq_puts(m, "cpu selects biased deeper tick_stops early_wakeups pressure pkg_deep turbo turbo_deep\n");
	for_each_possible_cpu(cpu) {
		struct budget_cpu *bc = per_cpu_ptr(&budget_cpus, cpu);
		unsigned int pressure, turbo;

		pressure = cpuidle_budget_pressure(cpu, &turbo);
		seq_printf(m, "%d %llu %llu %llu %llu %llu %u %llu %u %llu\n", cpu,
			   READ_ONCE(bc->selects), READ_ONCE(bc->biased),
			   READ_ONCE(bc->deeper), READ_ONCE(bc->tick_stops),
			   READ_ONCE(bc->early_wakeups), pressure,
			   READ_ONCE(bc->pkg_deep), turbo, READ_ONCE(bc->turbo_deep));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(budget_stats);

static struct dentry *budget_debugfs;

static int __init budget_init(void)
{
	int ret;

	ret = cpuidle_budget_signals_init();
	if (ret)
		return ret;

	ret = cpuidle_register_governor(&budget_governor);
	if (ret) {
		pr_err("cpuidle_budget: cannot register governor: %d\n", ret);
		cpuidle_budget_signals_exit();
		return ret;
	}

	/* Statistics are optional: a debugfs failure is not fatal. */
	budget_debugfs = debugfs_create_dir("cpuidle_budget", NULL);
	debugfs_create_file("stats", 0444, budget_debugfs, NULL,
			    &budget_stats_fops);
	cpuidle_budget_signals_debugfs(budget_debugfs);
	return 0;
}

static void __exit budget_exit(void)
{
	/* After this no CPU runs our callbacks: the rest may go. */
	cpuidle_unregister_governor(&budget_governor);
	debugfs_remove_recursive(budget_debugfs);
	cpuidle_budget_signals_exit();
}

module_init(budget_init);
module_exit(budget_exit);

MODULE_ALIAS_CPUIDLE_GOVERNOR("budget");
MODULE_DESCRIPTION("cpuidle governor that biases idle depth by the package power budget");
MODULE_AUTHOR("cpuidle-budget maintainers <maintainers@cpuidle-budget.invalid>");
MODULE_LICENSE("GPL");
