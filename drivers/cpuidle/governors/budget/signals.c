// SPDX-License-Identifier: GPL-2.0
/*
 * signals.c - package power signals and the power pressure
 *
 * The pressure says how much a package's busy CPUs would gain from power
 * that idle CPUs leave unspent: 0 when the package is far from its power
 * limit (latency first), BUDGET_PRESSURE_MAX when it runs at the limit and
 * busy CPUs are held below their maximum frequency.
 *
 * Sampling
 *
 * One deferrable delayed work per package reads the signals every
 * sample_period_ms from process context, where MSR reads through IPIs are
 * allowed, computes the pressure and publishes it with WRITE_ONCE(). The
 * idle path only READ_ONCE()s it. Being deferrable, the work does not wake
 * an idle CPU: a fully idle package is not sampled, and its pressure is
 * whatever it was when it went idle, which does not matter while nothing
 * runs there.
 *
 * Sources (module parameter "signals", chosen once at load)
 *
 * intel-rapl	MSR_RAPL_POWER_UNIT decodes the units; MSR_PKG_POWER_LIMIT
 *		gives PL1 and PL2 with their enable bits (re-read every
 *		sample: firmware and user space change them);
 *		MSR_PKG_ENERGY_STATUS, a wrapping 32-bit counter, gives the
 *		average power over the window; MSR_PKG_PERF_STATUS, where it
 *		exists, the share of the window the package was throttled;
 *		bit 10 of MSR_IA32_PACKAGE_THERM_STATUS whether the power
 *		limit is being enforced right now.
 * amd		MSR_AMD_RAPL_POWER_UNIT and MSR_AMD_PKG_ENERGY_STATUS give the
 *		power; there is no limit register (limits live in firmware),
 *		so the limit is the amd_power_limit_mw parameter.
 * none		no power signals: pressure 0, a latency-first governor.
 * auto		(default) intel-rapl on Intel, amd on AMD and Hygon, else
 *		none.
 * Every MSR access uses a _safe variant. A fault (the register does not
 * exist on this part, or a hypervisor hides it) disables that source for
 * the package with one log line; the package then has no power signal.
 *
 * Whatever the source, the sampler also looks at the package's CPUs: a CPU
 * idle for less than half the window is busy, and arch_freq_scale (updated
 * every tick from APERF/MPERF) says how close to its maximum frequency it
 * ran. Frequency counts as known once any CPU reported a scale below the
 * maximum: without frequency invariance the scale stays at the maximum.
 *
 * Pressure (budget_pressure_from_sample())
 *
 * - limit: 0 below 85% of the power limit, rising linearly to the maximum
 *   at the limit (85%: RAPL averages over a window, so a package that
 *   reads 85-100% of PL1 is, in practice, being held at it);
 * - throttling: the throttled share of the window, or the maximum while
 *   the hardware reports the power limit as active;
 * - the larger of the two, scaled by the busy CPUs' frequency headroom
 *   when it is known: half at no headroom (the limit is near but does not
 *   hold them back yet), full from 1/8 below maximum frequency on;
 * - with no power information at all but a known frequency, twice the
 *   headroom: busy CPUs running far below their maximum are what a power
 *   limit looks like from the inside;
 * - 0 when no CPU of the package is busy: nothing would use the budget.
 *
 * Override (debugfs, for tests)
 *
 * With allow_override=1 at load time, root can write a made-up sample to
 * cpuidle_budget/override, which then replaces every package's sources
 * (the pressure arithmetic still runs), and "off" to go back. See the
 * documentation for the format.
 */

#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <asm/msr.h>

#include "budget.h"

#define BUDGET_PLN_STATUS	BIT_ULL(10)	/* package power limit notification */
/* Samples in a row without energy counter progress before giving up. */
#define BUDGET_STUCK_SAMPLES	64

enum budget_source {
	BUDGET_SRC_AUTO,
	BUDGET_SRC_RAPL,
	BUDGET_SRC_AMD,
	BUDGET_SRC_NONE,
};

static const char * const budget_source_names[] = {
	[BUDGET_SRC_AUTO] = "auto",
	[BUDGET_SRC_RAPL] = "intel-rapl",
	[BUDGET_SRC_AMD] = "amd",
	[BUDGET_SRC_NONE] = "none",
};

/* Module parameters; each setter validates and changes nothing on error. */

static enum budget_source budget_signals_param = BUDGET_SRC_AUTO;

static int budget_signals_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(budget_source_names, val);

	if (i < 0)
		return -EINVAL;
	budget_signals_param = i;
	return 0;
}

static int budget_signals_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", budget_source_names[budget_signals_param]);
}

static const struct kernel_param_ops budget_signals_ops = {
	.set = budget_signals_set,
	.get = budget_signals_get,
};
module_param_cb(signals, &budget_signals_ops, NULL, 0444);
MODULE_PARM_DESC(signals, "Power signal source: auto, intel-rapl, amd or none (default: auto)");

static unsigned int budget_period_ms = 4;

static int budget_uint_range_set(const char *val, const struct kernel_param *kp,
				 unsigned int min, unsigned int max)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < min || v > max)
		return -EINVAL;
	*(unsigned int *)kp->arg = v;
	return 0;
}

static int budget_period_set(const char *val, const struct kernel_param *kp)
{
	return budget_uint_range_set(val, kp, 1, 1000);
}

static const struct kernel_param_ops budget_period_ops = {
	.set = budget_period_set,
	.get = param_get_uint,
};
module_param_cb(sample_period_ms, &budget_period_ops, &budget_period_ms, 0644);
MODULE_PARM_DESC(sample_period_ms, "Power signal sampling period, 1..1000 ms (default: 4)");

static unsigned int budget_amd_limit_mw;

static int budget_amd_limit_set(const char *val, const struct kernel_param *kp)
{
	return budget_uint_range_set(val, kp, 0, 10000000);
}

static const struct kernel_param_ops budget_amd_limit_ops = {
	.set = budget_amd_limit_set,
	.get = param_get_uint,
};
module_param_cb(amd_power_limit_mw, &budget_amd_limit_ops, &budget_amd_limit_mw, 0644);
MODULE_PARM_DESC(amd_power_limit_mw,
		 "Package power limit for the amd source, 0..10000000 mW, 0 = none (default: 0)");

static bool budget_allow_override;
module_param_named(allow_override, budget_allow_override, bool, 0444);
MODULE_PARM_DESC(allow_override, "Allow root to override the power signals through debugfs (default: N)");

/**
 * struct budget_pkg - one package's sampler
 * @id: logical package id
 * @work: the sampling work
 * @pressure: published pressure, read by the idle path
 * @source: power source in use (BUDGET_SRC_NONE after a fault)
 * @units: RAPL units
 * @last: the last sample (for debugfs)
 * @prev_energy: energy counter at the previous sample
 * @prev_throttle: throttled-time counter at the previous sample
 * @prev_us: time of the previous sample
 * @have_prev: the prev_* fields are valid
 * @has_perf_status: MSR_PKG_PERF_STATUS can be read
 * @stuck_samples: consecutive samples without energy counter progress
 * @samples: samples taken
 * @busy_ns: total time spent sampling (the sampler's own overhead)
 */
struct budget_pkg {
	unsigned int id;
	struct delayed_work work;
	unsigned int pressure;
	enum budget_source source;
	struct budget_rapl_units units;
	struct budget_sample last;
	u32 prev_energy;
	u32 prev_throttle;
	u64 prev_us;
	bool have_prev;
	bool has_perf_status;
	unsigned int stuck_samples;
	u64 samples;
	u64 busy_ns;
};

static struct budget_pkg *budget_pkgs;
static unsigned int budget_npkgs;
static bool budget_freq_known;

static DEFINE_PER_CPU(u64, budget_prev_idle_us);
static DEFINE_PER_CPU(u64, budget_prev_wall_us);

static DEFINE_SPINLOCK(budget_override_lock);
static struct budget_sample budget_override;
static bool budget_override_active;

/* Pure arithmetic, exported to the KUnit suite. */

/**
 * budget_rapl_decode_units - decode MSR_RAPL_POWER_UNIT
 * @raw: register value
 * @u: decoded units
 */
VISIBLE_IF_KUNIT void budget_rapl_decode_units(u64 raw, struct budget_rapl_units *u)
{
	u->power_shift = raw & 0xf;
	u->energy_shift = (raw >> 8) & 0x1f;
	u->time_shift = (raw >> 16) & 0xf;
}
EXPORT_SYMBOL_IF_KUNIT(budget_rapl_decode_units);

static u32 budget_units_to_mw(u64 units, u8 power_shift)
{
	return min_t(u64, (units * 1000) >> power_shift, U32_MAX);
}

/**
 * budget_rapl_decode_limit - decode MSR_PKG_POWER_LIMIT
 * @raw: register value
 * @u: the package's RAPL units
 * @l: decoded limits
 */
VISIBLE_IF_KUNIT void budget_rapl_decode_limit(u64 raw, const struct budget_rapl_units *u,
					       struct budget_rapl_limit *l)
{
	u64 y = (raw >> 17) & 0x1f, z = (raw >> 22) & 0x3;

	l->pl1_mw = budget_units_to_mw(raw & 0x7fff, u->power_shift);
	l->pl1_enabled = raw & BIT_ULL(15);
	/* Window = 2^Y * (1 + Z/4) time units. */
	l->pl1_window_us = (((4 + z) << y) * USEC_PER_SEC) >> (u->time_shift + 2);
	l->pl2_mw = budget_units_to_mw((raw >> 32) & 0x7fff, u->power_shift);
	l->pl2_enabled = raw & BIT_ULL(47);
	l->locked = raw & BIT_ULL(63);
}
EXPORT_SYMBOL_IF_KUNIT(budget_rapl_decode_limit);

/**
 * budget_rapl_limit_mw - the limit in force
 * @l: decoded limits
 *
 * Return: the lowest enabled, non-zero limit of PL1 and PL2; 0 if none.
 */
VISIBLE_IF_KUNIT u32 budget_rapl_limit_mw(const struct budget_rapl_limit *l)
{
	u32 mw = 0;

	if (l->pl1_enabled && l->pl1_mw)
		mw = l->pl1_mw;
	if (l->pl2_enabled && l->pl2_mw && (!mw || l->pl2_mw < mw))
		mw = l->pl2_mw;
	return mw;
}
EXPORT_SYMBOL_IF_KUNIT(budget_rapl_limit_mw);

/**
 * budget_counter_delta - advance of a wrapping 32-bit hardware counter
 * @prev: earlier reading
 * @now: later reading
 *
 * Return: @now - @prev modulo 2^32 (one wrap at most between readings).
 */
VISIBLE_IF_KUNIT u32 budget_counter_delta(u32 prev, u32 now)
{
	return now - prev;
}
EXPORT_SYMBOL_IF_KUNIT(budget_counter_delta);

/**
 * budget_energy_to_mw - average power from an energy counter advance
 * @delta: counter advance, in energy units
 * @u: RAPL units
 * @window_us: time between the two readings
 *
 * Return: average power in mW, 0 for an empty window.
 */
VISIBLE_IF_KUNIT u32 budget_energy_to_mw(u64 delta, const struct budget_rapl_units *u,
					 u64 window_us)
{
	if (!window_us)
		return 0;
	/* delta < 2^32, so delta * 10^9 fits in 64 bits. */
	return min_t(u64, div64_u64((delta * NSEC_PER_SEC) >> u->energy_shift,
				    window_us), U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(budget_energy_to_mw);

#define BUDGET_LIMIT_RAMP_START	870	/* 85% of the limit, of 1024 */

/**
 * budget_pressure_from_sample - the pressure a sample means
 * @s: the sample
 *
 * Return: pressure, 0..BUDGET_PRESSURE_MAX (see the comment at the top).
 */
VISIBLE_IF_KUNIT unsigned int budget_pressure_from_sample(const struct budget_sample *s)
{
	unsigned int limit = 0, throttle, headroom, p;
	u64 ratio;

	if (!s->busy_cpus)
		return 0;

	if (s->limit_mw && s->power_mw) {
		ratio = div_u64((u64)s->power_mw * BUDGET_PRESSURE_MAX, s->limit_mw);
		if (ratio >= BUDGET_PRESSURE_MAX)
			limit = BUDGET_PRESSURE_MAX;
		else if (ratio > BUDGET_LIMIT_RAMP_START)
			limit = (ratio - BUDGET_LIMIT_RAMP_START) * BUDGET_PRESSURE_MAX /
				(BUDGET_PRESSURE_MAX - BUDGET_LIMIT_RAMP_START);
	}
	throttle = s->limit_notified ? BUDGET_PRESSURE_MAX :
		   min(s->throttle, BUDGET_PRESSURE_MAX);
	p = max(limit, throttle);
	headroom = min(s->headroom, BUDGET_PRESSURE_MAX);

	if (!s->freq_known)
		return p;
	if (!s->limit_mw && !p)
		return min(2 * headroom, BUDGET_PRESSURE_MAX);
	/* Half at no headroom, full from 1/8 (128 of 1024) on. */
	return p * (BUDGET_PRESSURE_MAX / 2 + min(4 * headroom, BUDGET_PRESSURE_MAX / 2)) /
	       BUDGET_PRESSURE_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(budget_pressure_from_sample);

/* The sampler. */

static int budget_pkg_cpu(struct budget_pkg *pkg)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (topology_logical_package_id(cpu) == pkg->id)
			return cpu;
	}
	return -1;
}

/*
 * Read an MSR of the package: locally when running on one of its CPUs (no
 * IPI; the usual case with one package), else on @cpu.
 */
static int budget_rdmsr(struct budget_pkg *pkg, int cpu, u32 msr, u64 *val)
{
	int here = get_cpu();
	int ret;

	if (topology_logical_package_id(here) == pkg->id)
		ret = rdmsrl_safe(msr, val);
	else
		ret = rdmsrl_safe_on_cpu(cpu, msr, val);
	put_cpu();
	return ret;
}

static void budget_source_failed(struct budget_pkg *pkg, u32 msr)
{
	pr_warn("cpuidle_budget: package %u: reading MSR 0x%x faulted, %s signals disabled\n",
		pkg->id, msr, budget_source_names[pkg->source]);
	pkg->source = BUDGET_SRC_NONE;
}

/* Power and limit from the package's MSRs; false after a fault. */
static bool budget_read_power(struct budget_pkg *pkg, int cpu, u64 window_us,
			      struct budget_sample *s)
{
	u32 energy_msr = pkg->source == BUDGET_SRC_AMD ?
			 MSR_AMD_PKG_ENERGY_STATUS : MSR_PKG_ENERGY_STATUS;
	struct budget_rapl_limit limit;
	u64 raw;

	if (budget_rdmsr(pkg, cpu, energy_msr, &raw)) {
		budget_source_failed(pkg, energy_msr);
		return false;
	}
	if (pkg->have_prev) {
		/*
		 * A counter that never moves is no signal: some hypervisors
		 * let the read succeed and return a constant.
		 */
		if ((u32)raw == pkg->prev_energy &&
		    ++pkg->stuck_samples >= BUDGET_STUCK_SAMPLES) {
			pr_warn("cpuidle_budget: package %u: energy counter does not advance, %s signals disabled\n",
				pkg->id, budget_source_names[pkg->source]);
			pkg->source = BUDGET_SRC_NONE;
			return false;
		}
		if ((u32)raw != pkg->prev_energy)
			pkg->stuck_samples = 0;
		s->power_mw = budget_energy_to_mw(budget_counter_delta(pkg->prev_energy, raw),
						  &pkg->units, window_us);
	}
	pkg->prev_energy = raw;

	if (pkg->source == BUDGET_SRC_AMD) {
		s->limit_mw = READ_ONCE(budget_amd_limit_mw);
		return true;
	}

	if (budget_rdmsr(pkg, cpu, MSR_PKG_POWER_LIMIT, &raw)) {
		budget_source_failed(pkg, MSR_PKG_POWER_LIMIT);
		return false;
	}
	budget_rapl_decode_limit(raw, &pkg->units, &limit);
	s->limit_mw = budget_rapl_limit_mw(&limit);

	/* Optional registers: their absence is normal, not a fault. */
	if (pkg->has_perf_status && !budget_rdmsr(pkg, cpu, MSR_PKG_PERF_STATUS, &raw)) {
		u64 throttled_us = ((u64)budget_counter_delta(pkg->prev_throttle, raw) *
				    USEC_PER_SEC) >> pkg->units.time_shift;

		if (pkg->have_prev && window_us)
			s->throttle = min_t(u64, div64_u64(throttled_us * BUDGET_PRESSURE_MAX,
							   window_us), BUDGET_PRESSURE_MAX);
		pkg->prev_throttle = raw;
	}
	if (!budget_rdmsr(pkg, cpu, MSR_IA32_PACKAGE_THERM_STATUS, &raw))
		s->limit_notified = raw & BUDGET_PLN_STATUS;
	return true;
}

/* Busy CPUs of the package and how far below maximum frequency they ran. */
static void budget_read_cpus(struct budget_pkg *pkg, struct budget_sample *s)
{
	unsigned long scale_sum = 0;
	u64 idle, wall, idle_delta, wall_delta;
	int cpu;

	for_each_online_cpu(cpu) {
		if (topology_logical_package_id(cpu) != pkg->id)
			continue;
		idle = get_cpu_idle_time_us(cpu, &wall);
		if (idle == (u64)-1)
			continue;
		idle_delta = idle - per_cpu(budget_prev_idle_us, cpu);
		wall_delta = wall - per_cpu(budget_prev_wall_us, cpu);
		per_cpu(budget_prev_idle_us, cpu) = idle;
		per_cpu(budget_prev_wall_us, cpu) = wall;
		if (!wall_delta || 2 * idle_delta >= wall_delta)
			continue;
		s->busy_cpus++;
		scale_sum += min_t(unsigned long, arch_scale_freq_capacity(cpu),
				   SCHED_CAPACITY_SCALE);
	}
	if (!s->busy_cpus)
		return;
	scale_sum /= s->busy_cpus;
	if (scale_sum < SCHED_CAPACITY_SCALE)
		budget_freq_known = true;
	s->freq_known = budget_freq_known;
	s->headroom = (SCHED_CAPACITY_SCALE - scale_sum) * BUDGET_PRESSURE_MAX /
		      SCHED_CAPACITY_SCALE;
}

static void budget_sample_work(struct work_struct *work)
{
	struct budget_pkg *pkg = container_of(to_delayed_work(work),
					      struct budget_pkg, work);
	struct budget_sample s = {};
	u64 now_us, window_us, start = local_clock();
	int cpu;

	cpus_read_lock();
	now_us = ktime_to_us(ktime_get());
	window_us = now_us - pkg->prev_us;
	cpu = budget_pkg_cpu(pkg);
	if (cpu >= 0) {
		if (pkg->source != BUDGET_SRC_NONE &&
		    !budget_read_power(pkg, cpu, window_us, &s))
			memset(&s, 0, sizeof(s));
		budget_read_cpus(pkg, &s);
	}
	cpus_read_unlock();
	pkg->prev_us = now_us;
	pkg->have_prev = true;

	spin_lock(&budget_override_lock);
	if (budget_override_active)
		s = budget_override;
	spin_unlock(&budget_override_lock);

	pkg->last = s;
	pkg->samples++;
	WRITE_ONCE(pkg->pressure, budget_pressure_from_sample(&s));
	WRITE_ONCE(pkg->busy_ns, pkg->busy_ns + local_clock() - start);

	queue_delayed_work(system_power_efficient_wq, &pkg->work,
			   msecs_to_jiffies(READ_ONCE(budget_period_ms)));
}

/**
 * budget_pressure - the pressure of a CPU's package, for the idle path
 * @cpu: the CPU
 *
 * Return: the last published pressure; 0 before the first sample.
 */
unsigned int budget_pressure(unsigned int cpu)
{
	unsigned int id = topology_logical_package_id(cpu);

	if (!budget_pkgs || id >= budget_npkgs)
		return 0;
	return READ_ONCE(budget_pkgs[id].pressure);
}

static enum budget_source budget_auto_source(void)
{
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL)
		return BUDGET_SRC_RAPL;
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
	    boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		return BUDGET_SRC_AMD;
	return BUDGET_SRC_NONE;
}

/* Decide a package's source: its unit register must be readable. */
static void budget_pkg_probe(struct budget_pkg *pkg)
{
	u32 unit_msr;
	u64 raw;
	int cpu;

	pkg->source = budget_signals_param == BUDGET_SRC_AUTO ?
		      budget_auto_source() : budget_signals_param;
	if (pkg->source == BUDGET_SRC_NONE)
		return;

	cpus_read_lock();
	cpu = budget_pkg_cpu(pkg);
	unit_msr = pkg->source == BUDGET_SRC_AMD ?
		   MSR_AMD_RAPL_POWER_UNIT : MSR_RAPL_POWER_UNIT;
	if (cpu < 0 || budget_rdmsr(pkg, cpu, unit_msr, &raw)) {
		cpus_read_unlock();
		budget_source_failed(pkg, unit_msr);
		return;
	}
	budget_rapl_decode_units(raw, &pkg->units);
	pkg->has_perf_status = pkg->source == BUDGET_SRC_RAPL &&
			       !budget_rdmsr(pkg, cpu, MSR_PKG_PERF_STATUS, &raw);
	cpus_read_unlock();
}

int budget_signals_init(void)
{
	unsigned int i;

	budget_npkgs = topology_max_packages();
	budget_pkgs = kcalloc(budget_npkgs, sizeof(*budget_pkgs), GFP_KERNEL);
	if (!budget_pkgs)
		return -ENOMEM;

	for (i = 0; i < budget_npkgs; i++) {
		struct budget_pkg *pkg = &budget_pkgs[i];

		pkg->id = i;
		budget_pkg_probe(pkg);
		pr_info("cpuidle_budget: package %u: %s power signals\n", i,
			budget_source_names[pkg->source]);
		INIT_DEFERRABLE_WORK(&pkg->work, budget_sample_work);
		queue_delayed_work(system_power_efficient_wq, &pkg->work, 0);
	}
	return 0;
}

void budget_signals_exit(void)
{
	unsigned int i;

	for (i = 0; i < budget_npkgs; i++)
		cancel_delayed_work_sync(&budget_pkgs[i].work);
	kfree(budget_pkgs);
	budget_pkgs = NULL;
}

/* debugfs: per-package state, and the override. */

static int budget_packages_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	seq_puts(m, "package source pressure power_mw limit_mw throttle limit_notified busy_cpus headroom freq_known samples sampler_ns\n");
	for (i = 0; i < budget_npkgs; i++) {
		struct budget_pkg *pkg = &budget_pkgs[i];
		struct budget_sample s = pkg->last;

		seq_printf(m, "%u %s %u %u %u %u %d %u %u %d %llu %llu\n", i,
			   READ_ONCE(budget_override_active) ? "override" :
			   budget_source_names[pkg->source],
			   READ_ONCE(pkg->pressure), s.power_mw, s.limit_mw,
			   s.throttle, s.limit_notified, s.busy_cpus, s.headroom,
			   s.freq_known, pkg->samples, READ_ONCE(pkg->busy_ns));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(budget_packages);

/*
 * "off", or space-separated key=value pairs: power_mw, limit_mw, throttle,
 * limit_notified, busy_cpus, headroom, freq_known. Unset keys are 0, but
 * busy_cpus, which defaults to 1. All or nothing: one bad pair, and the
 * override stays as it was.
 */
static int budget_parse_override(char *buf, struct budget_sample *s)
{
	enum { POWER, LIMIT, THROTTLE, NOTIFIED, BUSY, HEADROOM, FREQ, NKEYS };
	static const char * const keys[NKEYS] = {
		"power_mw", "limit_mw", "throttle", "limit_notified",
		"busy_cpus", "headroom", "freq_known",
	};
	static const u32 max[NKEYS] = {
		U32_MAX, U32_MAX, BUDGET_PRESSURE_MAX, 1,
		U32_MAX, BUDGET_PRESSURE_MAX, 1,
	};
	u32 vals[NKEYS] = { [BUSY] = 1 };
	char *tok, *val;
	int k;

	while ((tok = strsep(&buf, " \t\n"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		k = match_string(keys, NKEYS, tok);
		if (k < 0 || kstrtou32(val, 0, &vals[k]) || vals[k] > max[k])
			return -EINVAL;
	}
	*s = (struct budget_sample) {
		.power_mw = vals[POWER],
		.limit_mw = vals[LIMIT],
		.throttle = vals[THROTTLE],
		.limit_notified = vals[NOTIFIED],
		.busy_cpus = vals[BUSY],
		.headroom = vals[HEADROOM],
		.freq_known = vals[FREQ],
	};
	return 0;
}

static ssize_t budget_override_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct budget_sample s;
	char buf[256];
	int ret;

	if (!budget_allow_override)
		return -EPERM;
	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	if (sysfs_streq(buf, "off")) {
		spin_lock(&budget_override_lock);
		budget_override_active = false;
		spin_unlock(&budget_override_lock);
		return count;
	}
	ret = budget_parse_override(buf, &s);
	if (ret)
		return ret;
	spin_lock(&budget_override_lock);
	budget_override = s;
	budget_override_active = true;
	spin_unlock(&budget_override_lock);
	return count;
}

static int budget_override_show(struct seq_file *m, void *unused)
{
	struct budget_sample s;
	bool active;

	spin_lock(&budget_override_lock);
	s = budget_override;
	active = budget_override_active;
	spin_unlock(&budget_override_lock);
	if (!active) {
		seq_puts(m, "off\n");
		return 0;
	}
	seq_printf(m, "power_mw=%u limit_mw=%u throttle=%u limit_notified=%d busy_cpus=%u headroom=%u freq_known=%d\n",
		   s.power_mw, s.limit_mw, s.throttle, s.limit_notified,
		   s.busy_cpus, s.headroom, s.freq_known);
	return 0;
}

static int budget_override_open(struct inode *inode, struct file *file)
{
	return single_open(file, budget_override_show, NULL);
}

static const struct file_operations budget_override_fops = {
	.owner = THIS_MODULE,
	.open = budget_override_open,
	.read = seq_read,
	.write = budget_override_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void budget_signals_debugfs(struct dentry *dir)
{
	debugfs_create_file("packages", 0444, dir, NULL, &budget_packages_fops);
	debugfs_create_file("override", 0600, dir, NULL, &budget_override_fops);
}
