// SPDX-License-Identifier: GPL-2.0
/*
 * signals.c - the package power signals of the budget cpuidle governor
 *
 * The sampler, the registry of sources and the debugfs files of the
 * signals. Each sample goes through the pressure rule (pressure.c), and
 * the idle path reads what it published. How and when the sampler runs
 * and where its readings come from are the DOC: blocks below.
 *
 * Override (debugfs, for tests): with allow_override=1 at load time, root
 * can write a made-up sample to cpuidle_budget/override, which then
 * replaces every package's sources (the pressure arithmetic still runs),
 * and "off" to go back. See the documentation for the format.
 */

/**
 * DOC: Sampling
 *
 * A work per package reads the signals every sample_period_ms (100 by
 * default: the averages it feeds have time constants of seconds, and a
 * sample costs tens of microseconds, 0.03% of a CPU at this period) from
 * process context, where MSR reads through IPIs are allowed, computes the
 * pressure and publishes it with WRITE_ONCE(). The idle path only
 * READ_ONCE()s it. Sampling runs only while budget is the governor of at
 * least one CPU: a kernel that has the governor but uses another pays
 * nothing.
 *
 * What runs the work is a heartbeat: a per-CPU deferrable timer, pinned
 * to its CPU, every sample_period_ms. When it fires and its package's last
 * sample is a period old or older, it queues the package's work on its own
 * CPU; the first CPU of the package to see that wins (cmpxchg() on the
 * time of the last sample), the others return. A deferrable timer fires
 * with the tick of a CPU that is running and never wakes one that is idle,
 * so a package is sampled every period while any of its CPUs is busy,
 * whichever that is and however the load moves between them, and an idle
 * package is not woken up to be sampled. One work re-arming itself on a
 * chosen CPU cannot have both: a deferrable timer on a CPU that goes idle
 * stalls the package while another CPU runs without ever idling (nothing
 * of that CPU passes through the idle path to restart it), and an ordinary
 * one wakes idle CPUs. A CPU whose tick is stopped while it runs
 * (nohz_full) fires its heartbeat only with its residual tick, about once
 * a second, and the work then runs there: isolated CPUs are not yet kept
 * out of sampling (housekeeping_cpu() would). The idle path ends a
 * pause: when a CPU of the package wakes up (->reflect()) and the last
 * sample is more than two periods old, the work is queued at once on
 * that CPU (cpuidle_budget_signals_poke()). Every selection follows a
 * wake-up, so the pressure a selection reads was measured at most about
 * two periods before, or right after its CPU woke. Once no
 * CPU has budget as its governor, each heartbeat fires once more and
 * stops; the next start arms them all again.
 *
 * CPU hotplug: a CPU going offline stops its heartbeat, one coming online
 * starts it. The source is read from an online CPU of the package (the
 * one whose heartbeat or wake-up queued the last sample); when the
 * package's last CPU goes, sampling stops, with pressure 0; when a CPU of
 * an empty package comes back, sampling resumes there.
 *
 * Baselines: every sample takes differences against the previous one (the
 * source's counters, each CPU's idle time). After a gap (the first sample
 * after budget becomes the governor again, a package coming back online,
 * a change of source) the previous values are from before the gap, and a
 * window spanning it would report whatever happened while nobody looked,
 * an offline CPU's missing idle time as busy time among it. So the first
 * sample after a gap only takes new baselines and publishes pressure 0;
 * the next one measures a normal window.
 */

/**
 * DOC: Sources
 *
 * A source (struct cpuidle_budget_source) hands the sampler cumulative
 * readings: package energy and throttled time; and the limits in force
 * (PL1 with its window, PL2) with the status bits of the moment (a limit
 * being enforced, the turbo ratio limit holding the CPUs back). The
 * sampler takes the differences over its window and averages the bits.
 * The signals module parameter picks the source:
 *
 * ``intel-rapl``
 *	the RAPL MSRs (below)
 * ``amd``
 *	the AMD package energy MSR, and the amd_power_limit_mw parameter
 *	as the limit (below)
 * ``platform``
 *	a source a platform driver registered with
 *	cpuidle_budget_register_source(); none until one does
 * ``none``
 *	no power signals: pressure 0, a latency-first governor
 * ``auto`` (the default)
 *	a registered platform source if there is one, else intel-rapl on
 *	Intel, amd on AMD and Hygon, else none
 *
 * A source whose probe fails, whose read fails, or whose energy counter
 * does not advance for 64 samples (some hypervisors let the read succeed
 * and return a constant) is disabled for the package with one log line
 * (the register that faulted goes to dynamic debug); the package then has
 * no power signal until the source changes.
 *
 * Whatever the source, the sampler also looks at the package's CPUs: a CPU
 * idle (iowait included) for less than half the window is busy, and
 * arch_freq_scale (updated every tick from APERF/MPERF), or the source's
 * own frequency report, says how close to its maximum frequency it ran.
 * Frequency from arch_freq_scale counts as known once any CPU reported a
 * scale below the maximum: without frequency invariance the scale stays at
 * the maximum.
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuidle_budget.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timer.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "budget.h"
#include "trace.h"

/* Samples in a row without energy counter progress before giving up. */
#define BUDGET_STUCK_SAMPLES	64

enum budget_source_param {
	BUDGET_SRC_AUTO,
	BUDGET_SRC_RAPL,
	BUDGET_SRC_AMD,
	BUDGET_SRC_PLATFORM,
	BUDGET_SRC_NONE,
};

static const char * const budget_source_names[] = {
	[BUDGET_SRC_AUTO] = "auto",
	[BUDGET_SRC_RAPL] = "intel-rapl",
	[BUDGET_SRC_AMD] = "amd",
	[BUDGET_SRC_PLATFORM] = "platform",
	[BUDGET_SRC_NONE] = "none",
};

static enum budget_source_param budget_signals_param = BUDGET_SRC_AUTO;

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
MODULE_PARM_DESC(signals,
		 "Power signal source: auto, intel-rapl, amd, platform or none (default: auto)");

static unsigned int budget_period_ms = 100;
/* budget_period_ms in jiffies, for the idle path (set with it, and at init). */
static unsigned long budget_period_j;

static int budget_period_set(const char *val, const struct kernel_param *kp)
{
	int ret = cpuidle_budget_uint_param_set(val, kp, 1, 1000);

	if (!ret)
		WRITE_ONCE(budget_period_j, msecs_to_jiffies(READ_ONCE(budget_period_ms)));
	return ret;
}

static const struct kernel_param_ops budget_period_ops = {
	.set = budget_period_set,
	.get = param_get_uint,
};
module_param_cb(sample_period_ms, &budget_period_ops, &budget_period_ms, 0644);
MODULE_PARM_DESC(sample_period_ms, "Power signal sampling period, 1..1000 ms (default: 100)");

static bool budget_allow_override;
module_param_named(allow_override, budget_allow_override, bool, 0444);
MODULE_PARM_DESC(allow_override, "Allow root to override the power signals through debugfs (default: N)");

static bool budget_headroom_pressure;
module_param_named(headroom_pressure, budget_headroom_pressure, bool, 0644);
MODULE_PARM_DESC(headroom_pressure,
		 "Without a known power limit, take busy CPUs' frequency headroom as pressure (default: N)");

/**
 * struct budget_pkg - one package's sampler
 * @id: logical package id
 * @cpu: the online CPU of the package the source is read from, -1 while
 *	the package has none
 * @work: the sampling work
 * @pressure: published pressure, read by the idle path
 * @turbo: published turbo share (turbo_avg), read by the idle path
 * @last_jiffies: when the work was last queued (budget_queue())
 * @kick_cpu: the CPU that queued the work last, -1 for none in particular
 * @rebase: take new baselines at the next sample (set from outside the work)
 * @src: power source in use, NULL for none
 * @last: the last sample published (for debugfs): @avg, or the override
 * @prev: the source's reading at the previous sample
 * @prev_us: time of the previous sample
 * @have_prev: @prev, @prev_us and the CPUs' idle baselines are valid
 * @avg: the last sample measured from the source, whose averages the next
 *	one goes on from (cpuidle_budget_smooth()); @last differs from it
 *	while the override is on
 * @have_avg: @avg is valid
 * @stuck_samples: consecutive samples without energy counter progress
 * @samples: samples taken
 * @busy_ns: total time spent sampling (the sampler's own overhead)
 *
 * @cpu, @src and @prev change under budget_source_lock, which the work
 * holds while it reads; @cpu changes only with CPU hotplug held off too.
 */
struct budget_pkg {
	unsigned int id;
	int cpu;
	struct work_struct work;
	unsigned int pressure;
	unsigned int turbo;
	unsigned long last_jiffies;
	int kick_cpu;
	bool rebase;
	const struct cpuidle_budget_source *src;
	struct budget_sample last;
	struct cpuidle_budget_reading prev;
	u64 prev_us;
	bool have_prev;
	struct budget_sample avg;
	bool have_avg;
	unsigned int stuck_samples;
	u64 samples;
	u64 busy_ns;
};

static struct budget_pkg *budget_pkgs;
static unsigned int budget_npkgs;
static bool budget_freq_known;
static enum cpuhp_state budget_cpuhp_state;
/* CPUs whose current governor is budget: sampling runs while non-zero. */
static atomic_t budget_enabled_cpus = ATOMIC_INIT(0);

static DEFINE_MUTEX(budget_source_lock);
static const struct cpuidle_budget_source *budget_platform_source;

static DEFINE_PER_CPU(u64, budget_prev_idle_us);
static DEFINE_PER_CPU(u64, budget_prev_iowait_us);
/* The CPU's last window had iowait: latency evidence (policy.c). */
static DEFINE_PER_CPU(bool, budget_iowait_seen);
static DEFINE_PER_CPU(u64, budget_prev_wall_us);
/* Each online CPU's heartbeat (see "Sampling"). */
static DEFINE_PER_CPU(struct timer_list, budget_heartbeat);

static DEFINE_SPINLOCK(budget_override_lock);
static struct budget_sample budget_override;
static bool budget_override_active;

/* Pure arithmetic, exported to the KUnit suite. */

/**
 * cpuidle_budget_power_mw - average power from an energy difference
 * @delta_uj: energy used over the window, in microjoules
 * @window_us: length of the window
 *
 * Return: average power in mW, saturated at U32_MAX; 0 for an empty window.
 */
u32 cpuidle_budget_power_mw(u64 delta_uj, u64 window_us)
{
	if (!window_us)
		return 0;
	if (delta_uj > U64_MAX / 1000)
		return U32_MAX;
	/* uJ per ms is mW. */
	return min_t(u64, div64_u64(delta_uj * 1000, window_us), U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_power_mw);

/**
 * cpuidle_budget_sample_from_readings - a window's signals from two readings
 * @prev: the reading at the start of the window
 * @now: the reading at its end
 * @window_us: the time between them
 * @s: the sample to fill (its CPU fields are left alone)
 *
 * Differences are taken only of fields both readings have; a counter that
 * went backwards (a source restarted) gives no figure for this window.
 */
void cpuidle_budget_sample_from_readings(const struct cpuidle_budget_reading *prev,
					 const struct cpuidle_budget_reading *now,
					 u64 window_us, struct budget_sample *s)
{
	unsigned int both = prev->valid & now->valid;

	if ((both & CPUIDLE_BUDGET_HAS_ENERGY) && now->energy_uj >= prev->energy_uj)
		s->power_mw = cpuidle_budget_power_mw(now->energy_uj - prev->energy_uj, window_us);
	if (now->valid & CPUIDLE_BUDGET_HAS_LIMIT) {
		s->limit_mw = now->limit_mw;
		s->window_us = now->limit_window_us;
		s->short_limit_mw = now->short_limit_mw;
	}
	if ((both & CPUIDLE_BUDGET_HAS_THROTTLE) && window_us &&
	    now->throttled_us >= prev->throttled_us) {
		u64 throttled = min(now->throttled_us - prev->throttled_us, window_us);

		s->throttle = div64_u64(throttled * BUDGET_PRESSURE_MAX, window_us);
	}
	if (now->valid & CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE)
		s->limit_notified = now->limit_active;
	if (now->valid & CPUIDLE_BUDGET_HAS_TURBO_LIMIT)
		s->turbo_limited = now->turbo_limited;
	if (!s->window_us)
		s->window_us = BUDGET_DEFAULT_WINDOW_US;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_sample_from_readings);

/* The sampler. */

/* @cpu's package; NULL before init, after exit, or beyond the packages. */
static struct budget_pkg *budget_cpu_pkg(unsigned int cpu)
{
	unsigned int id = topology_logical_package_id(cpu);

	return budget_pkgs && id < budget_npkgs ? &budget_pkgs[id] : NULL;
}

/* An online CPU of @pkg other than @except; -1 if there is none. */
static int budget_pkg_online_cpu(struct budget_pkg *pkg, int except)
{
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu != except && topology_logical_package_id(cpu) == pkg->id)
			return cpu;
	}
	return -1;
}

static const char *budget_src_name(const struct cpuidle_budget_source *src)
{
	return src ? src->name : "none";
}

static void budget_source_failed(struct budget_pkg *pkg, const char *why, int err)
{
	pr_warn("cpuidle_budget: package %u: %s (%d), %s signals disabled\n",
		pkg->id, why, err, budget_src_name(pkg->src));
	pkg->src = NULL;
}

/* Power, limit and throttling from the package's source. */
static void budget_read_source(struct budget_pkg *pkg, int cpu, u64 window_us,
			       struct budget_sample *s)
{
	struct cpuidle_budget_reading now = {};
	int ret;

	if (!pkg->src)
		return;
	ret = pkg->src->read(pkg->id, cpu, &now);
	if (ret) {
		budget_source_failed(pkg, "reading the signals failed", ret);
		return;
	}
	if (pkg->have_prev) {
		if ((pkg->prev.valid & now.valid & CPUIDLE_BUDGET_HAS_ENERGY) &&
		    now.energy_uj == pkg->prev.energy_uj) {
			if (++pkg->stuck_samples >= BUDGET_STUCK_SAMPLES) {
				budget_source_failed(pkg, "energy counter does not advance",
						     -ENODATA);
				return;
			}
		} else {
			pkg->stuck_samples = 0;
		}
		cpuidle_budget_sample_from_readings(&pkg->prev, &now, window_us, s);
	}
	pkg->prev = now;
}

/*
 * @cpu's idle and wall time since its last baseline, which becomes now;
 * false when the CPU's idle time is not accounted (no NO_HZ).
 *
 * Idle time is the kernel's idle plus its iowait: tick-sched accounts an
 * idle CPU's time as iowait instead of idle while a task that slept on
 * I/O from it waits, but the CPU is in an idle state all the same and
 * draws an idle CPU's power. Leaving iowait out counts a CPU running
 * fio at queue depth 1 busy, though it is idle most of the time. The two
 * are read one after the other; a CPU cannot enter iowait while idle (a
 * task blocks on I/O from a running CPU), so their sum never goes back.
 */
static bool budget_cpu_window(int cpu, u64 *idle_delta, u64 *wall_delta)
{
	u64 wall, idle = get_cpu_idle_time_us(cpu, &wall);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

	if (idle == (u64)-1 || iowait == (u64)-1)
		return false;
	WRITE_ONCE(per_cpu(budget_iowait_seen, cpu),
		   iowait != per_cpu(budget_prev_iowait_us, cpu));
	per_cpu(budget_prev_iowait_us, cpu) = iowait;
	idle += iowait;
	*idle_delta = idle - per_cpu(budget_prev_idle_us, cpu);
	*wall_delta = wall - per_cpu(budget_prev_wall_us, cpu);
	per_cpu(budget_prev_idle_us, cpu) = idle;
	per_cpu(budget_prev_wall_us, cpu) = wall;
	return true;
}

/**
 * cpuidle_budget_cpu_iowait - a task of @cpu waited on I/O in its last window
 * @cpu: the CPU
 *
 * Return: whether the sampler's last window of @cpu (sample_period_ms)
 * had iowait time: latency evidence (see "Latency evidence" in policy.c).
 */
bool cpuidle_budget_cpu_iowait(unsigned int cpu)
{
	return READ_ONCE(per_cpu(budget_iowait_seen, cpu));
}

/*
 * Busy CPUs of the package and how far below maximum frequency they ran.
 * With @baseline, only new baselines are taken.
 */
static void budget_read_cpus(struct budget_pkg *pkg, struct budget_sample *s,
			     bool baseline)
{
	unsigned int (*freq_scale)(int cpu) = pkg->src ? pkg->src->freq_scale : NULL;
	unsigned long scale_sum = 0;
	u64 idle_delta, wall_delta;
	int cpu;

	for_each_online_cpu(cpu) {
		if (topology_logical_package_id(cpu) != pkg->id)
			continue;
		if (!budget_cpu_window(cpu, &idle_delta, &wall_delta) ||
		    baseline || !wall_delta)
			continue;
		if (2 * idle_delta >= wall_delta)
			continue;
		cpuidle_budget_cpu_ran(cpu);
		s->busy_cpus++;
		scale_sum += min_t(unsigned long,
				   freq_scale ? freq_scale(cpu) : arch_scale_freq_capacity(cpu),
				   SCHED_CAPACITY_SCALE);
	}
	if (!s->busy_cpus)
		return;
	scale_sum /= s->busy_cpus;
	if (freq_scale || scale_sum < SCHED_CAPACITY_SCALE)
		budget_freq_known = true;
	s->freq_known = budget_freq_known;
	s->headroom = (SCHED_CAPACITY_SCALE - scale_sum) * BUDGET_PRESSURE_MAX /
		      SCHED_CAPACITY_SCALE;
}

/* Forget the previous sample: the next one only takes baselines. */
static void budget_pkg_forget(struct budget_pkg *pkg)
{
	pkg->have_prev = false;
	pkg->have_avg = false;
	pkg->stuck_samples = 0;
	pkg->prev = (struct cpuidle_budget_reading) {};
}

static unsigned long budget_period_jiffies(void)
{
	return READ_ONCE(budget_period_j);
}

static void budget_sample(struct budget_pkg *pkg)
{
	struct budget_sample s = {};
	u64 now_us, window_us, start = local_clock();
	bool baseline;
	int kick;

	cpus_read_lock();
	mutex_lock(&budget_source_lock);
	/* Nobody uses the pressure: publish 0 and wait for the next start. */
	if (!atomic_read(&budget_enabled_cpus) || pkg->cpu < 0) {
		WRITE_ONCE(pkg->pressure, 0);
		WRITE_ONCE(pkg->turbo, 0);
		goto out;
	}
	/* Read from the CPU that asked, if it is still one of ours. */
	kick = READ_ONCE(pkg->kick_cpu);
	if (kick >= 0 && cpu_online(kick) && topology_logical_package_id(kick) == pkg->id)
		pkg->cpu = kick;
	if (xchg(&pkg->rebase, false))
		budget_pkg_forget(pkg);
	baseline = !pkg->have_prev;
	now_us = ktime_to_us(ktime_get());
	window_us = now_us - pkg->prev_us;
	budget_read_source(pkg, pkg->cpu, window_us, &s);
	budget_read_cpus(pkg, &s, baseline);
	pkg->prev_us = now_us;
	pkg->have_prev = true;
	s.headroom_alone = READ_ONCE(budget_headroom_pressure);
	if (!baseline) {
		cpuidle_budget_smooth(pkg->have_avg ? &pkg->avg : NULL, &s, window_us,
				      jiffies_to_usecs(budget_period_jiffies()));
		pkg->avg = s;
		pkg->have_avg = true;
	}

	/* allow_override is fixed at load: without it there is none. */
	if (budget_allow_override && !baseline) {
		spin_lock(&budget_override_lock);
		if (budget_override_active)
			s = budget_override;
		spin_unlock(&budget_override_lock);
	}

	pkg->last = s;
	pkg->samples++;
	/* A baseline sample measured nothing: it publishes no pressure. */
	WRITE_ONCE(pkg->pressure, baseline ? 0 : cpuidle_budget_pressure_from_sample(&s));
	WRITE_ONCE(pkg->turbo, baseline ? 0 : min(s.turbo_avg, BUDGET_PRESSURE_MAX));
	trace_cpuidle_budget_sample(pkg->id, pkg->cpu, baseline ? 0 : window_us,
				    &s, READ_ONCE(pkg->pressure));
out:
	mutex_unlock(&budget_source_lock);
	cpus_read_unlock();
	WRITE_ONCE(pkg->busy_ns, pkg->busy_ns + local_clock() - start);
}

static void budget_sample_work(struct work_struct *work)
{
	budget_sample(container_of(work, struct budget_pkg, work));
}

/*
 * Queue @pkg's work on @cpu (any CPU for -1), from now on its last
 * sample's time. Any context.
 */
static void budget_queue(struct budget_pkg *pkg, int cpu)
{
	WRITE_ONCE(pkg->last_jiffies, jiffies);
	WRITE_ONCE(pkg->kick_cpu, cpu);
	if (cpu < 0)
		queue_work(system_power_efficient_wq, &pkg->work);
	else
		queue_work_on(cpu, system_power_efficient_wq, &pkg->work);
}

/*
 * Queue the work of @cpu's package on @cpu if its last sample is at least
 * @age jiffies old; of the CPUs that see that at once, one wins. Any
 * context.
 */
static void budget_kick(unsigned int cpu, unsigned long age)
{
	struct budget_pkg *pkg = budget_cpu_pkg(cpu);
	unsigned long last;

	if (!pkg || !atomic_read(&budget_enabled_cpus))
		return;
	last = READ_ONCE(pkg->last_jiffies);
	if (time_before(jiffies, last + age))
		return;
	if (cmpxchg(&pkg->last_jiffies, last, jiffies) != last)
		return;
	budget_queue(pkg, cpu);
}

/*
 * A heartbeat is only ever armed with mod_timer() on its own CPU: by
 * itself, by budget_heartbeat_arm() (an IPI at start, the online callback)
 * - never add_timer_on() from another CPU, which must not meet a timer
 * being re-armed. Once no CPU has budget as its governor, each heartbeat
 * fires once more and stops.
 */
static void budget_heartbeat_fn(struct timer_list *t)
{
	unsigned int cpu = smp_processor_id();

	/*
	 * An IPI that re-armed a heartbeat after its CPU's offline callback
	 * stopped it leaves it to be moved to another CPU when the CPU dies:
	 * it stops there, and the online callback starts it again.
	 */
	if (t != per_cpu_ptr(&budget_heartbeat, cpu) || !atomic_read(&budget_enabled_cpus))
		return;
	budget_kick(cpu, budget_period_jiffies());
	mod_timer(t, jiffies + budget_period_jiffies());
}

/* Start the current CPU's heartbeat, if sampling runs. */
static void budget_heartbeat_arm(void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (atomic_read(&budget_enabled_cpus) && budget_cpu_pkg(cpu))
		mod_timer(per_cpu_ptr(&budget_heartbeat, cpu),
			  jiffies + budget_period_jiffies());
}

/**
 * cpuidle_budget_pressure - the pressure of a CPU's package, for the idle path
 * @cpu: the CPU
 * @turbo: where to put how often the package's busy CPUs were held by
 *	their turbo bins (the turbo share), 0..BUDGET_PRESSURE_MAX
 *
 * Return: the last published pressure; 0 (and a turbo share of 0) before
 * the first sample.
 */
unsigned int cpuidle_budget_pressure(unsigned int cpu, unsigned int *turbo)
{
	struct budget_pkg *pkg = budget_cpu_pkg(cpu);

	if (!pkg) {
		*turbo = 0;
		return 0;
	}
	*turbo = READ_ONCE(pkg->turbo);
	return READ_ONCE(pkg->pressure);
}

/**
 * cpuidle_budget_signals_start - a CPU switched to the budget governor
 *
 * The first one starts the sampling, from fresh baselines: the previous
 * samples may be from before another governor ran, and starts every
 * online CPU's heartbeat, which from then on queue the work with the
 * CPUs' wake-ups. Waits for the IPIs that start the heartbeats (no
 * sleeping lock): callable with CPU hotplug and the cpuidle lock held, not
 * with interrupts disabled.
 */
void cpuidle_budget_signals_start(void)
{
	unsigned int i;

	if (atomic_inc_return(&budget_enabled_cpus) != 1)
		return;
	for (i = 0; i < budget_npkgs; i++) {
		WRITE_ONCE(budget_pkgs[i].rebase, true);
		budget_queue(&budget_pkgs[i], -1);
	}
	on_each_cpu(budget_heartbeat_arm, NULL, true);
}

/**
 * cpuidle_budget_signals_stop - a CPU switched away from the budget governor
 *
 * After the last one, each package's work runs once more and publishes
 * pressure 0; nothing queues it again until the next start.
 */
void cpuidle_budget_signals_stop(void)
{
	unsigned int i;

	if (!atomic_dec_and_test(&budget_enabled_cpus))
		return;
	for (i = 0; i < budget_npkgs; i++)
		budget_queue(&budget_pkgs[i], -1);
}

/**
 * cpuidle_budget_signals_poke - a CPU of a package woke up (the idle path)
 * @cpu: the CPU, the current one
 *
 * If the package's last sample is more than two periods old (sampling
 * paused while the package was idle, see "Sampling"), queue the work now
 * on @cpu, which is awake. One CPU of the package wins the poke; the
 * others see the updated time. Callable with preemption disabled.
 */
void cpuidle_budget_signals_poke(unsigned int cpu)
{
	budget_kick(cpu, 2 * budget_period_jiffies() + 1);
}

static const struct cpuidle_budget_source *budget_wanted_source(void)
{
	switch (budget_signals_param) {
	case BUDGET_SRC_AUTO:
		return budget_platform_source ?: cpuidle_budget_msr_default_source();
	case BUDGET_SRC_RAPL:
		return &cpuidle_budget_rapl_source;
	case BUDGET_SRC_AMD:
		return &cpuidle_budget_amd_source;
	case BUDGET_SRC_PLATFORM:
		return budget_platform_source;
	default:
		return NULL;
	}
}

/*
 * Give every package the source the parameter and the registered platform
 * source call for, probed on the package. Called with CPU hotplug held off
 * and budget_source_lock held, so no sample is in progress.
 */
static void budget_choose_sources(void)
{
	const struct cpuidle_budget_source *src = budget_wanted_source();
	unsigned int i;
	int ret;

	for (i = 0; i < budget_npkgs; i++) {
		struct budget_pkg *pkg = &budget_pkgs[i];

		pkg->src = src;
		budget_pkg_forget(pkg);
		ret = 0;
		if (src && src->probe)
			ret = pkg->cpu < 0 ? -ENODEV : src->probe(i, pkg->cpu);
		if (ret) {
			budget_source_failed(pkg, "probing the source failed", ret);
			continue;
		}
		pr_info("cpuidle_budget: package %u: %s power signals\n", i,
			budget_src_name(src));
	}
}

/**
 * cpuidle_budget_register_source - provide the budget governor's power signals
 * @src: the source; must stay valid until unregistered
 *
 * With the "signals" parameter at auto (the default) or platform, every
 * package switches to @src (after @src->probe, where given, accepts it)
 * from its next sample on. One platform source at a time.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for a source without a name or read callback, or
 * -EBUSY if another source is registered.
 */
int cpuidle_budget_register_source(const struct cpuidle_budget_source *src)
{
	int ret = 0;

	if (!src || !src->name || !*src->name || !src->read)
		return -EINVAL;

	cpus_read_lock();
	mutex_lock(&budget_source_lock);
	if (budget_platform_source) {
		ret = -EBUSY;
	} else {
		budget_platform_source = src;
		budget_choose_sources();
	}
	mutex_unlock(&budget_source_lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(cpuidle_budget_register_source);

/**
 * cpuidle_budget_unregister_source - withdraw a registered source
 * @src: the source given to cpuidle_budget_register_source()
 *
 * Packages go back to the source they would have without it. When this
 * returns, no callback of @src runs or will run.
 *
 * Context: process context; may sleep.
 */
void cpuidle_budget_unregister_source(const struct cpuidle_budget_source *src)
{
	cpus_read_lock();
	mutex_lock(&budget_source_lock);
	if (budget_platform_source == src) {
		budget_platform_source = NULL;
		budget_choose_sources();
	}
	mutex_unlock(&budget_source_lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_GPL(cpuidle_budget_unregister_source);

/*
 * CPU hotplug (CPUHP_AP_ONLINE_DYN, on the CPU coming or going, with the
 * hotplug lock held for write: no sample is running, and none will until
 * the operation is over). Neither callback waits for the work.
 */
static int budget_cpu_online(unsigned int cpu)
{
	struct budget_pkg *pkg = budget_cpu_pkg(cpu);
	u64 idle_delta, wall_delta;

	if (!pkg)
		return 0;
	mutex_lock(&budget_source_lock);
	/* Its idle time stood still while it was offline: a new baseline. */
	budget_cpu_window(cpu, &idle_delta, &wall_delta);
	if (pkg->cpu < 0) {
		/* The package is back: its counters ran on without us. */
		pkg->cpu = cpu;
		budget_pkg_forget(pkg);
		if (pkg->src && pkg->src->probe && pkg->src->probe(pkg->id, cpu))
			budget_source_failed(pkg, "probing the source failed", -ENODEV);
		if (atomic_read(&budget_enabled_cpus))
			budget_queue(pkg, cpu);
	}
	mutex_unlock(&budget_source_lock);
	budget_heartbeat_arm(NULL);
	return 0;
}

static int budget_cpu_offline(unsigned int cpu)
{
	struct budget_pkg *pkg = budget_cpu_pkg(cpu);

	/* On @cpu itself: its heartbeat is not running now (but see budget_heartbeat_fn()). */
	timer_delete_sync(per_cpu_ptr(&budget_heartbeat, cpu));
	if (!pkg)
		return 0;
	mutex_lock(&budget_source_lock);
	if (pkg->cpu == cpu) {
		pkg->cpu = budget_pkg_online_cpu(pkg, cpu);
		if (pkg->cpu < 0) {
			WRITE_ONCE(pkg->pressure, 0);
			WRITE_ONCE(pkg->turbo, 0);
		}
	}
	mutex_unlock(&budget_source_lock);
	return 0;
}

int cpuidle_budget_signals_init(void)
{
	unsigned int i, cpu, npkgs = topology_max_packages();
	int ret;

	budget_period_j = msecs_to_jiffies(budget_period_ms);
	ret = cpuidle_budget_msr_init(npkgs);
	if (ret)
		return ret;
	budget_pkgs = kcalloc(npkgs, sizeof(*budget_pkgs), GFP_KERNEL);
	if (!budget_pkgs) {
		cpuidle_budget_msr_exit();
		return -ENOMEM;
	}
	for (i = 0; i < npkgs; i++) {
		budget_pkgs[i].id = i;
		budget_pkgs[i].cpu = -1;
		budget_pkgs[i].kick_cpu = -1;
		INIT_WORK(&budget_pkgs[i].work, budget_sample_work);
	}
	for_each_possible_cpu(cpu)
		timer_setup(per_cpu_ptr(&budget_heartbeat, cpu), budget_heartbeat_fn,
			    TIMER_DEFERRABLE | TIMER_PINNED);

	cpus_read_lock();
	mutex_lock(&budget_source_lock);
	budget_npkgs = npkgs;
	for (i = 0; i < npkgs; i++)
		budget_pkgs[i].cpu = budget_pkg_online_cpu(&budget_pkgs[i], -1);
	budget_choose_sources();
	mutex_unlock(&budget_source_lock);
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "cpuidle/budget:online",
						   budget_cpu_online,
						   budget_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		budget_npkgs = 0;
		kfree(budget_pkgs);
		budget_pkgs = NULL;
		cpuidle_budget_msr_exit();
		return ret;
	}
	budget_cpuhp_state = ret;
	return 0;
}

/* Called once no CPU uses the governor any more. */
void cpuidle_budget_signals_exit(void)
{
	unsigned int i, cpu;

	/*
	 * First what could queue the work again: the hotplug callbacks, then
	 * the heartbeats (no CPU has budget as its governor, so the idle
	 * path does not, and a running work does not queue itself).
	 */
	cpuhp_remove_state_nocalls(budget_cpuhp_state);
	for_each_possible_cpu(cpu)
		timer_shutdown_sync(per_cpu_ptr(&budget_heartbeat, cpu));
	for (i = 0; i < budget_npkgs; i++)
		cancel_work_sync(&budget_pkgs[i].work);
	budget_npkgs = 0;
	kfree(budget_pkgs);
	budget_pkgs = NULL;
	cpuidle_budget_msr_exit();
}

/* debugfs: per-package state, and the override. */

static int budget_packages_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	mutex_lock(&budget_source_lock);
	seq_puts(m, "package source pressure power_mw limit_mw throttle limit_notified busy_cpus headroom freq_known samples sampler_ns cpu avg_mw window_ms short_limit_mw throttle_avg limited_avg turbo_avg\n");
	for (i = 0; i < budget_npkgs; i++) {
		struct budget_pkg *pkg = &budget_pkgs[i];
		struct budget_sample s = pkg->last;

		seq_printf(m, "%u %s %u %u %u %u %d %u %u %d %llu %llu %d %u %llu %u %u %u %u\n", i,
			   READ_ONCE(budget_override_active) ? "override" :
			   budget_src_name(pkg->src),
			   READ_ONCE(pkg->pressure), s.power_mw, s.limit_mw,
			   s.throttle, s.limit_notified, s.busy_cpus, s.headroom,
			   s.freq_known, pkg->samples, READ_ONCE(pkg->busy_ns), pkg->cpu,
			   s.avg_mw, div_u64(s.window_us, USEC_PER_MSEC), s.short_limit_mw,
			   s.throttle_avg, s.limited_avg, s.turbo_avg);
	}
	mutex_unlock(&budget_source_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(budget_packages);

/*
 * "off", or space-separated key=value pairs: power_mw, limit_mw,
 * short_limit_mw, throttle, limit_notified, turbo_limited, busy_cpus,
 * headroom, freq_known. Unset keys are 0, but busy_cpus, which defaults to
 * 1. The values stand for the averages too (power_mw for the PL1-window
 * average, and so on), so a scenario holds from the next sample on. All or
 * nothing: one bad pair, and the override stays as it was.
 */
static int budget_parse_override(char *buf, struct budget_sample *s)
{
	enum { POWER, LIMIT, SHORT, THROTTLE, NOTIFIED, TURBO, BUSY, HEADROOM, FREQ,
	       NKEYS };
	static const char * const keys[NKEYS] = {
		"power_mw", "limit_mw", "short_limit_mw", "throttle", "limit_notified",
		"turbo_limited", "busy_cpus", "headroom", "freq_known",
	};
	static const u32 max[NKEYS] = {
		U32_MAX, U32_MAX, U32_MAX, BUDGET_PRESSURE_MAX, 1,
		1, U32_MAX, BUDGET_PRESSURE_MAX, 1,
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
		.window_us = BUDGET_DEFAULT_WINDOW_US,
		.short_limit_mw = vals[SHORT],
		.throttle = vals[THROTTLE],
		.limit_notified = vals[NOTIFIED],
		.turbo_limited = vals[TURBO],
		.avg_mw = vals[POWER],
		.throttle_avg = vals[THROTTLE],
		.limited_avg = vals[NOTIFIED] ? BUDGET_PRESSURE_MAX : 0,
		.turbo_avg = vals[TURBO] ? BUDGET_PRESSURE_MAX : 0,
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
	seq_printf(m, "power_mw=%u limit_mw=%u short_limit_mw=%u throttle=%u limit_notified=%d turbo_limited=%d busy_cpus=%u headroom=%u freq_known=%d\n",
		   s.power_mw, s.limit_mw, s.short_limit_mw, s.throttle,
		   s.limit_notified, s.turbo_limited, s.busy_cpus, s.headroom,
		   s.freq_known);
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

void cpuidle_budget_signals_debugfs(struct dentry *dir)
{
	debugfs_create_file("packages", 0444, dir, NULL, &budget_packages_fops);
	debugfs_create_file("override", 0600, dir, NULL, &budget_override_fops);
}
