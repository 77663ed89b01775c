// SPDX-License-Identifier: GPL-2.0
/*
 * emul_driver.c (module emul_idle) - an emulated power-constrained Intel
 * hybrid platform for a QEMU guest: idle states, core types and (with
 * power_model=1) a package power model
 *
 * Under QEMU TCG a guest has no cpuidle driver (no MWAIT hints, no ACPI
 * _CST, no haltpoll), so no cpuidle governor ever runs. This driver gives
 * every CPU the idle states of a real low-power Intel part, chosen with
 * the load parameter "part" from the table in emul_parts.c: the default
 * is a 2P+4E Alder Lake-U at 15 W, with the P-core table adl_l_cstates
 * and the E-core table gmt_cstates of drivers/idle/intel_idle.c; there is
 * a 9 W one, and a 4-core 6 W Jasper Lake with the ACPI _CST table of
 * the Chromebooks whose regression had menu's 2025 change reverted. The
 * layout (parameter "layout", the part's by default) says which CPUs are
 * P-cores and which E-cores.
 *
 * An x86 kernel has one cpuidle driver for all CPUs (no
 * CPU_IDLE_MULTIPLE_DRIVERS), and so does intel_idle on a real Alder
 * Lake-L, which registers adl_l_cstates for P- and E-cores alike: the
 * governors see the P-core table everywhere, as they do on that part,
 * while each E-core really takes its own exit latency.
 *
 * Every state is entered with HLT: the vCPU really stops until an
 * interrupt. On wake-up, with emulate_exit_latency set (the default), the
 * CPU halts again for its core type's exit latency of the state (a pinned
 * hrtimer ends it) before it returns to the idle loop, so a task woken by that interrupt
 * (cyclictest's timer, say) sees the latency a real package would add. The
 * interrupt handler itself runs before the spin: this emulates a late
 * resume of the woken task, not a late interrupt. Per-state usage and time
 * are kept by the cpuidle core as for any driver.
 *
 * Each state's "power" (sysfs stateN/power, mW) is the P-core's figure
 * from the power model at the maximum voltage; the model itself
 * (emul_model.c) computes power from the real residencies, the entries
 * into each state, and the time every CPU was idle at once, which this
 * driver keeps at each entry and exit (emul_pkg_track()).
 *
 * debugfs emul_idle/: "cpus" (CPU, core type, the model's cycles of
 * work), "platform" (the part and the model's figures).
 */

#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "emul.h"

static bool emulate_exit_latency = true;
module_param(emulate_exit_latency, bool, 0644);
MODULE_PARM_DESC(emulate_exit_latency,
		 "Spin for a state's exit latency after waking from it (default: Y)");

/*
 * Without its debugfs files the emulated platform is, to the selftests, a
 * cpuidle driver like a real machine's: what needs the model skips
 * (tests/guest/real-machine.sh).
 */
static bool emul_debugfs_on = true;
module_param_named(debugfs, emul_debugfs_on, bool, 0444);
MODULE_PARM_DESC(debugfs,
		 "Show the model in debugfs, emul_idle/ (default: Y; N: look like a real machine)");

/* The part emulated: emul_parts[0] unless part= names another. */
static const struct emul_part *emul_part = &emul_parts[0];
static bool emul_loaded;

static int emul_part_set(const char *val, const struct kernel_param *kp)
{
	char name[32];
	const struct emul_part *part;

	if (emul_loaded || strscpy(name, val) < 0)
		return -EINVAL;
	part = emul_find_part(strim(name));
	if (!part)
		return -EINVAL;
	emul_part = part;
	return 0;
}

static int emul_part_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", emul_part->name);
}

static const struct kernel_param_ops emul_part_ops = {
	.set = emul_part_set,
	.get = emul_part_get,
};
module_param_cb(part, &emul_part_ops, NULL, 0444);
MODULE_PARM_DESC(part,
		 "The part emulated: adl-u-15w (default), adl-u-9w or jsl-6w; other parameters given at load override its values");

static const char * const emul_type_names[EMUL_NR_TYPES] = {
	[EMUL_P_CORE] = "P",
	[EMUL_E_CORE] = "E",
};

/* Parameters, validated when set; the combination is checked at load. */

static unsigned int emul_layout_p, emul_layout_e;
static bool emul_layout_given;

static int emul_layout_set(const char *val, const struct kernel_param *kp)
{
	unsigned int p, e;
	int used = 0;

	if (sscanf(val, "%up%ue%n", &p, &e, &used) != 2 ||
	    used != strcspn(val, "\n") || p > nr_cpu_ids || e > nr_cpu_ids ||
	    !(p + e) || p + e > nr_cpu_ids)
		return -EINVAL;
	emul_layout_p = p;
	emul_layout_e = e;
	emul_layout_given = true;
	return 0;
}

static int emul_layout_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%up%ue\n", emul_layout_p, emul_layout_e);
}

static const struct kernel_param_ops emul_layout_ops = {
	.set = emul_layout_set,
	.get = emul_layout_get,
};
module_param_cb(layout, &emul_layout_ops, NULL, 0444);
MODULE_PARM_DESC(layout,
		 "Core types: <P>p<E>e, P-cores first (default: the part's, adapted to the CPU count)");

static bool power_model;
static DEFINE_MUTEX(emul_param_lock);
/*
 * The four limits alone, for emul_rapl: its callbacks run under the CPU
 * hotplug read lock, which starting the model takes under
 * emul_param_lock, so they must not take that one. Taken after
 * emul_param_lock where both are held, never before it.
 */
static DEFINE_MUTEX(emul_limits_lock);
static int emul_start_model(void);

/* Switching the model on or off at run time starts or stops it. */
static int emul_power_model_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = 0;

	if (kstrtobool(val, &on))
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	if (emul_loaded && on && !power_model)
		ret = emul_start_model();
	else if (emul_loaded && !on && power_model)
		emul_model_stop();
	if (!ret)
		power_model = on;
	mutex_unlock(&emul_param_lock);
	return ret;
}

static const struct kernel_param_ops emul_power_model_ops = {
	.set = emul_power_model_set,
	.get = param_get_bool,
};
module_param_cb(power_model, &emul_power_model_ops, &power_model, 0644);
MODULE_PARM_DESC(power_model,
		 "Run the package power model and slow busy CPUs at its limit (default: N)");

/* The part's model, with the parameters applied (emul_setup_model()). */
static struct emul_pkg_model emul_model;

/*
 * An unsigned int parameter with a range; nothing changes on error. One
 * given at load (@given) overrides the part's value.
 */
struct emul_uint_param {
	unsigned int *val;
	unsigned int min, max;
	bool given;
	unsigned int given_val;
};

static bool emul_uint_in_range(const struct emul_uint_param *p, unsigned int v)
{
	return v >= p->min && v <= p->max;
}

static int emul_uint_set(const char *val, const struct kernel_param *kp)
{
	struct emul_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || !emul_uint_in_range(p, v))
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	*p->val = v;
	if (!emul_loaded) {
		p->given = true;
		p->given_val = v;
	}
	mutex_unlock(&emul_param_lock);
	return 0;
}

static int emul_uint_get(char *buf, const struct kernel_param *kp)
{
	const struct emul_uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops emul_uint_ops = {
	.set = emul_uint_set,
	.get = emul_uint_get,
};

/* 0 until given or loaded: then the part's. */
static unsigned int pl1_mw, pl2_mw;
static unsigned int pl1_window_ms, pl2_window_ms;

/*
 * The limits and their time windows change at run time, as RAPL's do; then
 * PL2 may not go below PL1 (at load time the pair is checked once all
 * parameters are in).
 */
static int emul_limit_set(const char *val, const struct kernel_param *kp)
{
	const struct emul_uint_param *p = kp->arg;
	unsigned int v, pl1, pl2;

	if (kstrtouint(val, 0, &v) || !emul_uint_in_range(p, v))
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	mutex_lock(&emul_limits_lock);
	pl1 = p->val == &pl1_mw ? v : pl1_mw;
	pl2 = p->val == &pl2_mw ? v : pl2_mw;
	if (emul_loaded && pl2 < pl1) {
		mutex_unlock(&emul_limits_lock);
		mutex_unlock(&emul_param_lock);
		return -EINVAL;
	}
	*p->val = v;
	if (emul_loaded)
		emul_model_set_limits(pl1_mw, pl2_mw, pl1_window_ms, pl2_window_ms);
	mutex_unlock(&emul_limits_lock);
	mutex_unlock(&emul_param_lock);
	return 0;
}

static const struct kernel_param_ops emul_limit_ops = {
	.set = emul_limit_set,
	.get = emul_uint_get,
};

static struct emul_uint_param emul_limit_pl1 = {
	.val = &pl1_mw, .min = 1000, .max = 1000000,
};

module_param_cb(pl1_mw, &emul_limit_ops, &emul_limit_pl1, 0644);
MODULE_PARM_DESC(pl1_mw, "Long-term package power limit PL1, 1000..1000000 mW (default: the part's)");
static struct emul_uint_param emul_limit_pl2 = {
	.val = &pl2_mw, .min = 1000, .max = 1000000,
};

module_param_cb(pl2_mw, &emul_limit_ops, &emul_limit_pl2, 0644);
MODULE_PARM_DESC(pl2_mw, "Short-term package power limit PL2, >= pl1_mw, ..1000000 mW (default: the part's)");
static struct emul_uint_param emul_limit_pl1_window = {
	.val = &pl1_window_ms, .min = 10, .max = 100000,
};

module_param_cb(pl1_window_ms, &emul_limit_ops, &emul_limit_pl1_window, 0644);
MODULE_PARM_DESC(pl1_window_ms,
		 "Time constant of the PL1 average, 10..100000 ms (default: the part's)");
static struct emul_uint_param emul_limit_pl2_window = {
	.val = &pl2_window_ms, .min = 1, .max = 10000,
};

module_param_cb(pl2_window_ms, &emul_limit_ops, &emul_limit_pl2_window, 0644);
MODULE_PARM_DESC(pl2_window_ms,
		 "Time constant of the PL2 average, 1..10000 ms (default: the part's)");

/**
 * emul_platform_limits - the package's power limits, as the parameters hold them
 * @l: filled in
 */
void emul_platform_limits(struct emul_limits *l)
{
	mutex_lock(&emul_limits_lock);
	l->pl1_mw = pl1_mw;
	l->pl2_mw = pl2_mw;
	l->pl1_window_ms = pl1_window_ms;
	l->pl2_window_ms = pl2_window_ms;
	mutex_unlock(&emul_limits_lock);
}
EXPORT_SYMBOL_GPL(emul_platform_limits);

/**
 * emul_platform_set_limits - set all four limits at once, as the parameters would
 * @l: the limits
 *
 * For the emulated RAPL interface (emul_rapl.c): a write to the package's
 * powercap zone is a write to these parameters, checked the same way.
 *
 * Takes only emul_limits_lock: callable under the CPU hotplug read lock.
 *
 * Return: 0, -EINVAL (nothing changed) for a value out of a parameter's
 * range or PL2 below PL1, -ENODEV before the platform is loaded.
 */
int emul_platform_set_limits(const struct emul_limits *l)
{
	int ret = 0;

	mutex_lock(&emul_limits_lock);
	if (!READ_ONCE(emul_loaded))
		ret = -ENODEV;
	else if (!emul_uint_in_range(&emul_limit_pl1, l->pl1_mw) ||
		 !emul_uint_in_range(&emul_limit_pl2, l->pl2_mw) ||
		 !emul_uint_in_range(&emul_limit_pl1_window, l->pl1_window_ms) ||
		 !emul_uint_in_range(&emul_limit_pl2_window, l->pl2_window_ms) ||
		 l->pl2_mw < l->pl1_mw)
		ret = -EINVAL;
	if (!ret) {
		pl1_mw = l->pl1_mw;
		pl2_mw = l->pl2_mw;
		pl1_window_ms = l->pl1_window_ms;
		pl2_window_ms = l->pl2_window_ms;
		emul_model_set_limits(pl1_mw, pl2_mw, pl1_window_ms, pl2_window_ms);
	}
	mutex_unlock(&emul_limits_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(emul_platform_set_limits);

/* Turbo ratio limits by active cores, on or off (a flat table). */
static bool turbo_by_active = true;

static int emul_turbo_set(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (kstrtobool(val, &on))
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	if (on)
		memcpy(emul_model.turbo_pct, emul_part->model.turbo_pct,
		       sizeof(emul_model.turbo_pct));
	else
		memset(emul_model.turbo_pct, 100, sizeof(emul_model.turbo_pct));
	turbo_by_active = on;
	mutex_unlock(&emul_param_lock);
	return 0;
}

static const struct kernel_param_ops emul_turbo_ops = {
	.set = emul_turbo_set,
	.get = param_get_bool,
};
module_param_cb(turbo_by_active, &emul_turbo_ops, &turbo_by_active, 0644);
MODULE_PARM_DESC(turbo_by_active,
		 "Cap the frequency by the number of active (powered) cores, as turbo ratio limits do (default: Y)");

static struct emul_uint_param emul_param_p_dyn_mw = {
	.val = &emul_model.core[EMUL_P_CORE].dyn_mw, .min = 100, .max = 100000,
};

module_param_cb(p_dyn_mw, &emul_uint_ops, &emul_param_p_dyn_mw, 0644);
MODULE_PARM_DESC(p_dyn_mw,
		 "P-core dynamic power at its maximum frequency, 100..100000 mW (default: the part's)");
static struct emul_uint_param emul_param_p_leak_mw = {
	.val = &emul_model.core[EMUL_P_CORE].leak_mw, .min = 0, .max = 20000,
};

module_param_cb(p_leak_mw, &emul_uint_ops, &emul_param_p_leak_mw, 0644);
MODULE_PARM_DESC(p_leak_mw,
		 "P-core leakage at the maximum voltage, 0..20000 mW (default: the part's)");
static struct emul_uint_param emul_param_e_dyn_mw = {
	.val = &emul_model.core[EMUL_E_CORE].dyn_mw, .min = 100, .max = 100000,
};

module_param_cb(e_dyn_mw, &emul_uint_ops, &emul_param_e_dyn_mw, 0644);
MODULE_PARM_DESC(e_dyn_mw,
		 "E-core dynamic power at its maximum frequency, 100..100000 mW (default: the part's)");
static struct emul_uint_param emul_param_e_leak_mw = {
	.val = &emul_model.core[EMUL_E_CORE].leak_mw, .min = 0, .max = 20000,
};

module_param_cb(e_leak_mw, &emul_uint_ops, &emul_param_e_leak_mw, 0644);
MODULE_PARM_DESC(e_leak_mw,
		 "E-core leakage at the maximum voltage, 0..20000 mW (default: the part's)");
static struct emul_uint_param emul_param_uncore_mw = {
	.val = &emul_model.uncore_mw, .min = 0, .max = 50000,
};

module_param_cb(uncore_mw, &emul_uint_ops, &emul_param_uncore_mw, 0644);
MODULE_PARM_DESC(uncore_mw,
		 "Uncore power outside package C-states, 0..50000 mW (default: the part's)");

static struct emul_uint_param emul_param_trans_pct = {
	.val = &emul_model.trans_pct, .min = 0, .max = 1000,
};

module_param_cb(trans_pct, &emul_uint_ops, &emul_param_trans_pct, 0644);
MODULE_PARM_DESC(trans_pct,
		 "State transition energies in percent of what the target residencies imply, 0..1000 (default: 100)");

/* Every parameter of the model, to keep those given at load over the part. */
static struct emul_uint_param *const emul_model_params[] = {
	&emul_param_p_dyn_mw, &emul_param_p_leak_mw, &emul_param_e_dyn_mw,
	&emul_param_e_leak_mw, &emul_param_uncore_mw, &emul_param_trans_pct,
};

/* The driver. */

static enum emul_core_type *emul_types;
static DEFINE_PER_CPU(struct cpuidle_device, emul_devices);
static DEFINE_PER_CPU(int, emul_cur_state) = -1;

static DEFINE_PER_CPU(struct hrtimer, emul_exit_timers);
static DEFINE_PER_CPU(bool, emul_exiting);

static enum hrtimer_restart emul_exit_done(struct hrtimer *timer)
{
	__this_cpu_write(emul_exiting, false);
	return HRTIMER_NORESTART;
}

/* STI; HLT with RCU off: sleep until the next interrupt, which runs here. */
static void emul_halt(void)
{
	ct_cpuidle_enter();
	raw_safe_halt();
	raw_local_irq_disable();
	ct_cpuidle_exit();
}

/*
 * The package C-state: the shallowest state any online CPU is in, -1 while
 * one is not idle (busy, polling, or on its way out of a state). Kept at
 * every entry into and exit from a state, under one lock: a package has a
 * few CPUs, and this is the emulation's cost, not the governor's.
 */
static DEFINE_RAW_SPINLOCK(emul_pkg_lock);
static int emul_pkg_depth = -1;
static u64 emul_pkg_since;
static u64 emul_pkg_ns[EMUL_MAX_STATES];

static void emul_pkg_track(int state)
{
	int cpu, depth = INT_MAX;
	unsigned long flags;
	u64 now;

	__this_cpu_write(emul_cur_state, state);
	raw_spin_lock_irqsave(&emul_pkg_lock, flags);
	for_each_online_cpu(cpu)
		depth = min(depth, READ_ONCE(per_cpu(emul_cur_state, cpu)));
	if (depth != emul_pkg_depth) {
		now = ktime_get_ns();
		if (emul_pkg_depth >= 0)
			emul_pkg_ns[emul_pkg_depth] += now - emul_pkg_since;
		emul_pkg_depth = depth;
		emul_pkg_since = now;
	}
	raw_spin_unlock_irqrestore(&emul_pkg_lock, flags);
}

/**
 * emul_pkg_time_ns - how long every CPU was idle at once, by depth
 * @state: a state index
 *
 * Return: the total time during which the shallowest CPU was in @state,
 * the period in progress included.
 */
u64 emul_pkg_time_ns(int state)
{
	unsigned long flags;
	u64 ns;

	raw_spin_lock_irqsave(&emul_pkg_lock, flags);
	ns = emul_pkg_ns[state];
	if (emul_pkg_depth == state)
		ns += ktime_get_ns() - emul_pkg_since;
	raw_spin_unlock_irqrestore(&emul_pkg_lock, flags);
	return ns;
}

/*
 * The states carry CPUIDLE_FLAG_RCU_IDLE: RCU is switched off around the
 * halts only, so the exit latency can use an hrtimer. The CPU halts
 * through its exit latency rather than spinning: under -icount a spinning
 * vCPU would take virtual time from the others, a halted one does not,
 * just as a core powering up takes nothing from the busy ones.
 */
static int emul_idle_enter(struct cpuidle_device *dev,
			   struct cpuidle_driver *drv, int index)
{
	unsigned int exit_us = emul_model.state[index].exit_us[emul_types[dev->cpu]];

	emul_pkg_track(index);
	emul_halt();
	/* Waking up: the package is out of its C-state from here. */
	emul_pkg_track(-1);

	if (READ_ONCE(emulate_exit_latency) && exit_us) {
		__this_cpu_write(emul_exiting, true);
		hrtimer_start(this_cpu_ptr(&emul_exit_timers), ns_to_ktime(exit_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
		while (__this_cpu_read(emul_exiting))
			emul_halt();
	}
	return index;
}

/* The states are the part's, filled in by emul_setup_states(). */
static struct cpuidle_driver emul_idle_driver = {
	.name = "emul_idle",
	.owner = THIS_MODULE,
};

/* The part's states as the driver's: the first core type's latencies. */
static void emul_setup_states(void)
{
	unsigned int i;

	/* states[0] is the core's POLL state (cpuidle_poll_state_init()). */
	for (i = 1; i < emul_model.nstates; i++) {
		const struct emul_state_desc *d = &emul_model.state[i];
		struct cpuidle_state *st = &emul_idle_driver.states[i];

		strscpy(st->name, d->name);
		strscpy(st->desc, d->desc);
		st->exit_latency = d->exit_us[EMUL_P_CORE];
		st->target_residency = d->target_us[EMUL_P_CORE];
		st->enter = emul_idle_enter;
		st->flags = CPUIDLE_FLAG_RCU_IDLE;
	}
	emul_idle_driver.state_count = emul_model.nstates;
}

/**
 * emul_state_time_ns - total time a CPU spent in an idle state
 * @cpu: the CPU
 * @state: the state index
 *
 * Return: the cpuidle core's per-state time (completed periods only).
 */
u64 emul_state_time_ns(int cpu, int state)
{
	return READ_ONCE(per_cpu(emul_devices, cpu).states_usage[state].time_ns);
}

/**
 * emul_state_entries - how often a CPU entered an idle state
 * @cpu: the CPU
 * @state: the state index
 *
 * Return: the cpuidle core's per-state usage count.
 */
u64 emul_state_entries(int cpu, int state)
{
	return READ_ONCE(per_cpu(emul_devices, cpu).states_usage[state].usage);
}

/**
 * emul_current_state - the idle state a CPU is in
 * @cpu: the CPU
 *
 * Return: the state index, or -1 when it is not in one of ours.
 */
int emul_current_state(int cpu)
{
	return READ_ONCE(per_cpu(emul_cur_state, cpu));
}

static void emul_unregister_devices(unsigned int n)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (!n--)
			break;
		cpuidle_unregister_device(per_cpu_ptr(&emul_devices, cpu));
	}
}

static int emul_register(void)
{
	unsigned int n = 0;
	int cpu, ret;

	ret = cpuidle_register_driver(&emul_idle_driver);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu) {
		struct cpuidle_device *dev = per_cpu_ptr(&emul_devices, cpu);

		dev->cpu = cpu;
		ret = cpuidle_register_device(dev);
		if (ret) {
			emul_unregister_devices(n);
			cpuidle_unregister_driver(&emul_idle_driver);
			return ret;
		}
		n++;
	}
	return 0;
}

/*
 * Which CPU is which core type: the part's layout, or the one given, which
 * must match the CPUs. The part's adapts to the CPU count: its P-cores
 * first, the rest E-cores; a part of one core type has no E-cores.
 */
static int emul_setup_layout(void)
{
	unsigned int ncpus = num_possible_cpus(), i = 0;
	int cpu;

	if (emul_layout_given && (emul_layout_p + emul_layout_e != ncpus ||
				  (emul_layout_e && !emul_part->e_cores))) {
		pr_err("emul_idle: layout %up%ue does not fit %u CPUs of part %s\n",
		       emul_layout_p, emul_layout_e, ncpus, emul_part->name);
		return -EINVAL;
	}
	if (!emul_layout_given) {
		emul_layout_p = emul_part->e_cores ? min(emul_part->p_cores, ncpus) : ncpus;
		emul_layout_e = ncpus - emul_layout_p;
	}
	emul_types = kcalloc(nr_cpu_ids, sizeof(*emul_types), GFP_KERNEL);
	if (!emul_types)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		emul_types[cpu] = i++ < emul_layout_p ? EMUL_P_CORE : EMUL_E_CORE;
	pr_info("emul_idle: part %s, layout %up%ue, %u states\n", emul_part->name,
		emul_layout_p, emul_layout_e, emul_model.nstates);
	return 0;
}

/* The model's constants: the part's, with the parameters given applied. */
static int emul_setup_model(void)
{
	unsigned int i;

	emul_model = emul_part->model;
	for (i = 0; i < ARRAY_SIZE(emul_model_params); i++)
		if (emul_model_params[i]->given)
			*emul_model_params[i]->val = emul_model_params[i]->given_val;
	if (!turbo_by_active)
		memset(emul_model.turbo_pct, 100, sizeof(emul_model.turbo_pct));
	pl1_mw = pl1_mw ?: emul_part->pl1_mw;
	pl2_mw = pl2_mw ?: emul_part->pl2_mw;
	pl1_window_ms = pl1_window_ms ?: emul_part->pl1_window_ms;
	pl2_window_ms = pl2_window_ms ?: emul_part->pl2_window_ms;
	if (pl2_mw < pl1_mw) {
		pr_err("emul_idle: pl2_mw (%u) is below pl1_mw (%u)\n", pl2_mw, pl1_mw);
		return -EINVAL;
	}
	return 0;
}

/* sysfs stateN/power: the P-core's figure at the maximum voltage. */
static void emul_setup_power_figures(void)
{
	const struct emul_core_model *p = &emul_model.core[EMUL_P_CORE];
	unsigned int i;

	for (i = 0; i < emul_model.nstates; i++) {
		struct cpuidle_state *st = &emul_idle_driver.states[i];

		switch (emul_model.state[i].kind) {
		case EMUL_KIND_POLL:
			st->power_usage = p->leak_mw +
					  p->dyn_mw * emul_model.poll_activity / EMUL_SCALE;
			break;
		case EMUL_KIND_CLOCK_GATED:
			st->power_usage = p->leak_mw;
			break;
		case EMUL_KIND_POWER_GATED:
			st->power_usage = p->gated_mw;
			break;
		}
	}
}

static int emul_start_model(void)
{
	struct emul_limits l;

	emul_platform_limits(&l);
	return emul_model_start(&emul_model, emul_types, l.pl1_mw, l.pl2_mw,
				l.pl1_window_ms, l.pl2_window_ms);
}

/*
 * Per CPU, with the model on, its work since the model started: cycles
 * (millions) and busy time (ms), the same for its saturated intervals
 * (struct emul_cpu_work), the cycle stealer's spinning and the gap it
 * wrote off (ms); zeroes with it off. Readers go by the header's names.
 */
static int emul_cpus_show(struct seq_file *m, void *unused)
{
	struct emul_cpu_work work = {};
	int cpu;

	seq_puts(m, "cpu type mcycles busy_ms sat_mcycles sat_busy_ms spin_ms forgiven_ms\n");
	mutex_lock(&emul_param_lock);
	for_each_possible_cpu(cpu) {
		if (power_model)
			emul_model_cpu_work(cpu, &work);
		seq_printf(m, "%d %s %llu %llu %llu %llu %llu %lld\n", cpu,
			   emul_type_names[emul_types[cpu]],
			   div_u64(work.cycles, 1000000), div_u64(work.busy_ns, NSEC_PER_MSEC),
			   div_u64(work.sat_cycles, 1000000),
			   div_u64(work.sat_busy_ns, NSEC_PER_MSEC),
			   div_u64(work.spin_ns, NSEC_PER_MSEC),
			   div_s64(work.forgiven_ns, NSEC_PER_MSEC));
	}
	mutex_unlock(&emul_param_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_cpus);

static int emul_platform_show(struct seq_file *m, void *unused)
{
	struct emul_status st;
	bool on;

	mutex_lock(&emul_param_lock);
	on = power_model;
	seq_printf(m, "layout %up%ue\npower_model %d\npl1_mw %u\npl2_mw %u\n",
		   emul_layout_p, emul_layout_e, on, pl1_mw, pl2_mw);
	if (on)
		emul_model_status(&st);
	mutex_unlock(&emul_param_lock);
	seq_printf(m, "part %s\npl1_window_ms %u\npl2_window_ms %u\n", emul_part->name,
		   pl1_window_ms, pl2_window_ms);
	/* What "cpus" cycles are relative to: each core type's top frequency. */
	seq_printf(m, "p_fmax_mhz %u\ne_fmax_mhz %u\n",
		   emul_model.core[EMUL_P_CORE].fmax_mhz, emul_model.core[EMUL_E_CORE].fmax_mhz);
	/* The model's figures as read under the lock, not a later state. */
	if (!on)
		return 0;
	seq_printf(m, "energy_uj %llu\nthrottled_us %llu\npower_mw %u\npl1_avg_mw %u\nfreq_scale %u\n",
		   st.energy_uj, st.throttled_us, st.power_mw, st.ewma1_mw, st.scale);
	seq_printf(m, "intervals %llu\nmax_interval_us %llu\npkg_idle_us %llu\ntime_us %llu\n",
		   st.intervals, div_u64(st.max_len_ns, NSEC_PER_USEC), st.pkg_idle_us,
		   div_u64(st.time_ns, NSEC_PER_USEC));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_platform);

static struct dentry *emul_debugfs;

static int __init emul_idle_init(void)
{
	int cpu, ret;

	ret = emul_setup_model();
	if (ret)
		return ret;
	ret = emul_setup_layout();
	if (ret)
		return ret;
	emul_setup_states();
	/* Before the figures: it gives POLL -1 for power. */
	cpuidle_poll_state_init(&emul_idle_driver);
	emul_setup_power_figures();

	for_each_possible_cpu(cpu) {
		hrtimer_init(per_cpu_ptr(&emul_exit_timers, cpu), CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		per_cpu_ptr(&emul_exit_timers, cpu)->function = emul_exit_done;
	}
	ret = emul_register();
	if (ret) {
		pr_err("emul_idle: cannot register: %d\n", ret);
		goto free_types;
	}
	mutex_lock(&emul_param_lock);
	ret = power_model ? emul_start_model() : 0;
	emul_loaded = !ret;
	mutex_unlock(&emul_param_lock);
	if (ret)
		goto unregister;

	if (emul_debugfs_on) {
		emul_debugfs = debugfs_create_dir("emul_idle", NULL);
		debugfs_create_file("cpus", 0444, emul_debugfs, NULL, &emul_cpus_fops);
		debugfs_create_file("platform", 0444, emul_debugfs, NULL,
				    &emul_platform_fops);
	}
	return 0;

unregister:
	emul_unregister_devices(num_possible_cpus());
	cpuidle_unregister_driver(&emul_idle_driver);
free_types:
	kfree(emul_types);
	return ret;
}

static void __exit emul_idle_exit(void)
{
	debugfs_remove_recursive(emul_debugfs);
	mutex_lock(&emul_param_lock);
	if (power_model)
		emul_model_stop();
	emul_loaded = false;
	mutex_unlock(&emul_param_lock);
	emul_unregister_devices(num_possible_cpus());
	cpuidle_unregister_driver(&emul_idle_driver);
	kfree(emul_types);
}

module_init(emul_idle_init);
module_exit(emul_idle_exit);

MODULE_DESCRIPTION("Emulated power-constrained Intel hybrid platform for QEMU guests");
MODULE_LICENSE("GPL");
