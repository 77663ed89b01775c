// SPDX-License-Identifier: GPL-2.0
/*
 * emul_driver.c (module emul_idle) - an emulated power-constrained Intel
 * hybrid platform for a QEMU guest: idle states, core types and (with
 * power_model=1) a package power model
 *
 * Under QEMU TCG a guest has no cpuidle driver (no MWAIT hints, no ACPI
 * _CST, no haltpoll), so no cpuidle governor ever runs. This driver gives
 * every CPU the idle states of a real Intel hybrid part. The layout
 * (parameter "layout", default 2p4e: 2 P-cores then 4 E-cores, no SMT)
 * says which CPUs are P-cores and which E-cores. Each core type has its
 * own table, from drivers/idle/intel_idle.c of Linux 6.12:
 *
 *          P-core (adl_l_cstates,    E-core (gmt_cstates,
 *          Alder Lake-L)             Gracemont, Alder Lake-N)
 *   POLL   the core's polling state
 *   C1     exit 1 us,   target 1 us    exit 1 us,   target 1 us
 *   C1E    exit 2 us,   target 4 us    exit 2 us,   target 4 us
 *   C6     exit 170 us, target 500 us  exit 195 us, target 585 us
 *   C8     exit 200 us, target 600 us  exit 260 us, target 1040 us
 *   C10    exit 230 us, target 700 us  exit 660 us, target 1980 us
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
 * (emul_model.c) computes power from the real residencies.
 *
 * debugfs emul_idle/: "cpus" (CPU, core type), "platform" (the model).
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

/* Exit latencies, us, per core type (see the table above). */
static const unsigned int emul_exit_us[EMUL_NR_TYPES][EMUL_NR_STATES] = {
	[EMUL_P_CORE] = { 0, 1, 2, 170, 200, 230 },
	[EMUL_E_CORE] = { 0, 1, 2, 195, 260, 660 },
};

static const char * const emul_type_names[EMUL_NR_TYPES] = {
	[EMUL_P_CORE] = "P",
	[EMUL_E_CORE] = "E",
};

/* Parameters, validated when set; the combination is checked at load. */

static unsigned int emul_layout_p = 2, emul_layout_e = 4;
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
		 "Core types: <P>p<E>e, P-cores first (default: 2p4e; adapted to the CPU count unless given)");

static bool power_model;
static bool emul_loaded;
static DEFINE_MUTEX(emul_param_lock);
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

static struct emul_pkg_model emul_model = EMUL_DEFAULT_MODEL;

/* An unsigned int parameter with a range; nothing changes on error. */
struct emul_uint_param {
	unsigned int *val;
	unsigned int min, max;
};

static int emul_uint_set(const char *val, const struct kernel_param *kp)
{
	const struct emul_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < p->min || v > p->max)
		return -EINVAL;
	*p->val = v;
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

static unsigned int pl1_mw = 15000, pl2_mw = 55000;
static unsigned int pl1_window_ms = 1000, pl2_window_ms = 10;

/*
 * The limits change at run time, as RAPL's do; then PL2 may not go below
 * PL1 (at load time the pair is checked once all parameters are in).
 */
static int emul_limit_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v, pl1, pl2;

	if (kstrtouint(val, 0, &v) || v < 1000 || v > 1000000)
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	pl1 = kp->arg == &pl1_mw ? v : pl1_mw;
	pl2 = kp->arg == &pl2_mw ? v : pl2_mw;
	if (emul_loaded && pl2 < pl1) {
		mutex_unlock(&emul_param_lock);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	if (emul_loaded)
		emul_model_set_limits(pl1, pl2);
	mutex_unlock(&emul_param_lock);
	return 0;
}

static const struct kernel_param_ops emul_limit_ops = {
	.set = emul_limit_set,
	.get = param_get_uint,
};
module_param_cb(pl1_mw, &emul_limit_ops, &pl1_mw, 0644);
MODULE_PARM_DESC(pl1_mw, "Long-term package power limit PL1, 1000..1000000 mW (default: 15000)");
module_param_cb(pl2_mw, &emul_limit_ops, &pl2_mw, 0644);
MODULE_PARM_DESC(pl2_mw, "Short-term package power limit PL2, >= pl1_mw, ..1000000 mW (default: 55000)");

/* Turbo ratio limits by active cores, on or off (a flat table). */
static bool turbo_by_active = true;
static const u8 emul_flat_turbo[7] = { 100, 100, 100, 100, 100, 100, 100 };

static int emul_turbo_set(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (kstrtobool(val, &on))
		return -EINVAL;
	mutex_lock(&emul_param_lock);
	memcpy(emul_model.turbo_pct, on ? emul_default_model.turbo_pct : emul_flat_turbo,
	       sizeof(emul_model.turbo_pct));
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

static struct emul_uint_param emul_param_pl1_window_ms = {
	.val = &pl1_window_ms, .min = 10, .max = 100000,
};

module_param_cb(pl1_window_ms, &emul_uint_ops, &emul_param_pl1_window_ms, 0444);
MODULE_PARM_DESC(pl1_window_ms,
		 "Time constant of the PL1 average, 10..100000 ms (default: 1000)");
static struct emul_uint_param emul_param_pl2_window_ms = {
	.val = &pl2_window_ms, .min = 1, .max = 10000,
};

module_param_cb(pl2_window_ms, &emul_uint_ops, &emul_param_pl2_window_ms, 0444);
MODULE_PARM_DESC(pl2_window_ms,
		 "Time constant of the PL2 average, 1..10000 ms (default: 10)");

static struct emul_uint_param emul_param_p_dyn_mw = {
	.val = &emul_model.core[EMUL_P_CORE].dyn_mw, .min = 100, .max = 100000,
};

module_param_cb(p_dyn_mw, &emul_uint_ops, &emul_param_p_dyn_mw, 0644);
MODULE_PARM_DESC(p_dyn_mw,
		 "P-core dynamic power at its maximum frequency, 100..100000 mW (default: 11000)");
static struct emul_uint_param emul_param_p_leak_mw = {
	.val = &emul_model.core[EMUL_P_CORE].leak_mw, .min = 0, .max = 20000,
};

module_param_cb(p_leak_mw, &emul_uint_ops, &emul_param_p_leak_mw, 0644);
MODULE_PARM_DESC(p_leak_mw,
		 "P-core leakage at the maximum voltage, 0..20000 mW (default: 1200)");
static struct emul_uint_param emul_param_e_dyn_mw = {
	.val = &emul_model.core[EMUL_E_CORE].dyn_mw, .min = 100, .max = 100000,
};

module_param_cb(e_dyn_mw, &emul_uint_ops, &emul_param_e_dyn_mw, 0644);
MODULE_PARM_DESC(e_dyn_mw,
		 "E-core dynamic power at its maximum frequency, 100..100000 mW (default: 2200)");
static struct emul_uint_param emul_param_e_leak_mw = {
	.val = &emul_model.core[EMUL_E_CORE].leak_mw, .min = 0, .max = 20000,
};

module_param_cb(e_leak_mw, &emul_uint_ops, &emul_param_e_leak_mw, 0644);
MODULE_PARM_DESC(e_leak_mw,
		 "E-core leakage at the maximum voltage, 0..20000 mW (default: 300)");
static struct emul_uint_param emul_param_uncore_mw = {
	.val = &emul_model.uncore_mw, .min = 0, .max = 50000,
};

module_param_cb(uncore_mw, &emul_uint_ops, &emul_param_uncore_mw, 0644);
MODULE_PARM_DESC(uncore_mw,
		 "Uncore power while any core is powered, 0..50000 mW (default: 1500)");

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
 * The states carry CPUIDLE_FLAG_RCU_IDLE: RCU is switched off around the
 * halts only, so the exit latency can use an hrtimer. The CPU halts
 * through its exit latency rather than spinning: under -icount a spinning
 * vCPU would take virtual time from the others, a halted one does not,
 * just as a core powering up takes nothing from the busy ones.
 */
static int emul_idle_enter(struct cpuidle_device *dev,
			   struct cpuidle_driver *drv, int index)
{
	unsigned int exit_us = emul_exit_us[emul_types[dev->cpu]][index];

	__this_cpu_write(emul_cur_state, index);
	emul_halt();
	__this_cpu_write(emul_cur_state, -1);

	if (READ_ONCE(emulate_exit_latency) && exit_us) {
		__this_cpu_write(emul_exiting, true);
		hrtimer_start(this_cpu_ptr(&emul_exit_timers), ns_to_ktime(exit_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
		while (__this_cpu_read(emul_exiting))
			emul_halt();
	}
	return index;
}

#define EMUL_STATE(_name, _desc, _exit_us, _target_us)		\
	{							\
		.name = _name,					\
		.desc = _desc,					\
		.exit_latency = _exit_us,			\
		.target_residency = _target_us,			\
		.enter = emul_idle_enter,			\
		.flags = CPUIDLE_FLAG_RCU_IDLE,			\
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
	.state_count = EMUL_NR_STATES,
};

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

/* Which CPU is which core type; checks an explicit layout against the CPUs. */
static int emul_setup_layout(void)
{
	unsigned int ncpus = num_possible_cpus(), i = 0;
	int cpu;

	if (emul_layout_given && emul_layout_p + emul_layout_e != ncpus) {
		pr_err("emul_idle: layout %up%ue needs %u CPUs, the guest has %u\n",
		       emul_layout_p, emul_layout_e, emul_layout_p + emul_layout_e, ncpus);
		return -EINVAL;
	}
	if (!emul_layout_given && emul_layout_p + emul_layout_e != ncpus) {
		emul_layout_p = min(emul_layout_p, ncpus);
		emul_layout_e = ncpus - emul_layout_p;
	}
	emul_types = kcalloc(nr_cpu_ids, sizeof(*emul_types), GFP_KERNEL);
	if (!emul_types)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		emul_types[cpu] = i++ < emul_layout_p ? EMUL_P_CORE : EMUL_E_CORE;
	pr_info("emul_idle: layout %up%ue\n", emul_layout_p, emul_layout_e);
	return 0;
}

/* The model's constants: the defaults with the parameters applied. */
static int emul_setup_model(void)
{
	const struct emul_core_model *p;
	int i;

	if (pl2_mw < pl1_mw) {
		pr_err("emul_idle: pl2_mw (%u) is below pl1_mw (%u)\n", pl2_mw, pl1_mw);
		return -EINVAL;
	}
	/* sysfs stateN/power: the P-core's figure at the maximum voltage. */
	p = &emul_model.core[EMUL_P_CORE];
	emul_idle_driver.states[EMUL_POLL].power_usage =
		p->leak_mw + p->dyn_mw * emul_model.poll_activity / EMUL_SCALE;
	for (i = EMUL_C1; i < EMUL_NR_STATES; i++)
		emul_idle_driver.states[i].power_usage =
			i < EMUL_C6 ? p->leak_mw : p->gated_mw;
	return 0;
}

static int emul_start_model(void)
{
	return emul_model_start(&emul_model, emul_types, pl1_mw, pl2_mw,
				pl1_window_ms, pl2_window_ms);
}

static int emul_cpus_show(struct seq_file *m, void *unused)
{
	int cpu;

	seq_puts(m, "cpu type\n");
	for_each_possible_cpu(cpu)
		seq_printf(m, "%d %s\n", cpu, emul_type_names[emul_types[cpu]]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_cpus);

static int emul_platform_show(struct seq_file *m, void *unused)
{
	u64 energy_uj, throttled_us, intervals, max_len_ns;
	u32 power, ewma1, scale;

	bool on;

	mutex_lock(&emul_param_lock);
	on = power_model;
	seq_printf(m, "layout %up%ue\npower_model %d\npl1_mw %u\npl2_mw %u\n",
		   emul_layout_p, emul_layout_e, on, pl1_mw, pl2_mw);
	if (on)
		emul_model_status(&energy_uj, &throttled_us, &power, &ewma1, &scale,
				  &intervals, &max_len_ns);
	mutex_unlock(&emul_param_lock);
	/* The model's figures as read under the lock, not a later state. */
	if (!on)
		return 0;
	seq_printf(m, "energy_uj %llu\nthrottled_us %llu\npower_mw %u\npl1_avg_mw %u\nfreq_scale %u\n",
		   energy_uj, throttled_us, power, ewma1, scale);
	seq_printf(m, "intervals %llu\nmax_interval_us %llu\n", intervals,
		   div_u64(max_len_ns, NSEC_PER_USEC));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_platform);

static struct dentry *emul_debugfs;

static int __init emul_idle_init(void)
{
	int cpu, ret;

	ret = emul_setup_layout();
	if (ret)
		return ret;
	/* Before the model: it gives POLL a power figure in place of the -1. */
	cpuidle_poll_state_init(&emul_idle_driver);
	ret = emul_setup_model();
	if (ret)
		goto free_types;

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

	emul_debugfs = debugfs_create_dir("emul_idle", NULL);
	debugfs_create_file("cpus", 0444, emul_debugfs, NULL, &emul_cpus_fops);
	debugfs_create_file("platform", 0444, emul_debugfs, NULL, &emul_platform_fops);
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
