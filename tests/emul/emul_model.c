// SPDX-License-Identifier: GPL-2.0
/*
 * emul_model.c - package power model of the emulated hybrid platform
 *
 * Every model interval (a jiffy or more: it runs from the per-CPU
 * deferrable timers below, so a fully idle guest is not woken for it, and
 * a busy CPU's tasks never delay it) the model looks at what each CPU did
 * since the last interval: time busy, time in each idle state (the cpuidle
 * core's per-state time, plus the idle period still in progress). From
 * that and the package's current frequency scale it computes the
 * package's average power:
 *
 *   busy core     dynamic power C * V^2 * f (at the rail voltage) + leakage
 *   POLL          leakage + poll_activity of the dynamic power (C0, spinning)
 *   clock-gated   leakage only: still powered at the rail (C1, C1E)
 *   power-gated   gated_mw (C6 and deeper)
 *   transitions   each entry into a state costs emul_transition_uj(): what
 *                 the state saves over the next shallower one during its
 *                 target residency, which is how the kernel defines target
 *                 residency (the break-even time, entry and exit included)
 *   uncore        uncore_mw, or a package C-state's lower power for the time
 *                 every CPU was idle at once in a state that allows it (the
 *                 driver times that at each entry and exit, so idle periods
 *                 that do not overlap give no package C-state)
 *
 * All cores share one voltage rail, as the IA cores of a client part do:
 * while any core is busy, the rail sits at the voltage the busy cores'
 * frequency needs, and every powered core, busy or idle, leaks at it. This
 * is what makes shallow idle expensive exactly when busy cores run fast.
 * Leakage grows with the cube of the rail voltage, dynamic power with its
 * square and with the frequency; the voltage is flat up to a knee
 * frequency and rises linearly to the maximum after it.
 *
 * The energy integrates this power. Like RAPL, the model keeps a long
 * (PL1) and a short (PL2) exponentially weighted average of the power;
 * while the long average is below PL1 the package may draw up to PL2, and
 * once it reaches PL1 it is held at PL1. The frequency scale of the next
 * interval is then the highest one, up to the turbo limit for the number
 * of active (powered) cores, whose power with the last interval's activity
 * fits the allowed power: a power-control unit that settles in one
 * interval. When that is below the turbo limit the package is at its
 * limit (throttled).
 *
 * Busy CPUs really do less work at a lower scale: a per-CPU deferrable
 * timer every jiffy spins, in softirq context, until the CPU's work (its
 * busy time less the spinning) is what the model's cycles for its busy
 * time pay for (emul_spin_ns()). A CPU-bound benchmark measures the loss.
 */

#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/cpuidle_budget.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tick.h>
#include <linux/timer.h>

#include "emul.h"

/* Arithmetic. */

#define EMUL_SCALE_MIN	(EMUL_SCALE / 8)

/**
 * emul_voltage_mv - rail voltage a core type needs at a frequency scale
 * @m: the model
 * @t: the core type
 * @scale: frequency, of EMUL_SCALE (the type's maximum)
 *
 * Return: the voltage in mV: vmin up to the knee, linear to vmax at the
 * maximum frequency.
 */
u32 emul_voltage_mv(const struct emul_pkg_model *m,
		    enum emul_core_type t, u32 scale)
{
	const struct emul_core_model *c = &m->core[t];
	u32 f = (u64)min_t(u32, scale, EMUL_SCALE) * c->fmax_mhz / EMUL_SCALE;

	if (f <= c->fknee_mhz || c->fmax_mhz <= c->fknee_mhz)
		return m->vmin_mv;
	return m->vmin_mv + (u64)(m->vmax_mv - m->vmin_mv) * (f - c->fknee_mhz) /
	       (c->fmax_mhz - c->fknee_mhz);
}
EXPORT_SYMBOL_IF_KUNIT(emul_voltage_mv);

/**
 * emul_leak_mw - leakage of a powered core at a rail voltage
 * @m: the model
 * @t: the core type
 * @rail_mv: the rail voltage
 *
 * Return: leak_mw * (rail / vmax)^3, in mW.
 */
u32 emul_leak_mw(const struct emul_pkg_model *m,
		 enum emul_core_type t, u32 rail_mv)
{
	u64 v = rail_mv, vmax = m->vmax_mv;

	return div64_u64(m->core[t].leak_mw * v * v * v, vmax * vmax * vmax);
}
EXPORT_SYMBOL_IF_KUNIT(emul_leak_mw);

static u32 emul_dyn_mw(const struct emul_pkg_model *m, enum emul_core_type t,
		       u32 scale, u32 rail_mv)
{
	u64 v = rail_mv, vmax = m->vmax_mv;

	return div64_u64(m->core[t].dyn_mw * v * v * min_t(u32, scale, EMUL_SCALE),
			 vmax * vmax * EMUL_SCALE);
}

/**
 * emul_busy_mw - power of a busy core
 * @m: the model
 * @t: the core type
 * @scale: its frequency, of EMUL_SCALE
 * @rail_mv: the rail voltage (at least what @scale needs)
 *
 * Return: dynamic power (dyn_mw * (V/vmax)^2 * f/fmax) plus leakage, mW.
 */
u32 emul_busy_mw(const struct emul_pkg_model *m, enum emul_core_type t,
		 u32 scale, u32 rail_mv)
{
	return emul_dyn_mw(m, t, scale, rail_mv) + emul_leak_mw(m, t, rail_mv);
}
EXPORT_SYMBOL_IF_KUNIT(emul_busy_mw);

/**
 * emul_turbo_cap - the frequency cap for a number of active cores
 * @m: the model
 * @active: cores in C0, POLL, C1 or C1E
 *
 * Return: the highest frequency scale allowed, of EMUL_SCALE.
 */
u32 emul_turbo_cap(const struct emul_pkg_model *m, unsigned int active)
{
	active = clamp(active, 1U, (unsigned int)ARRAY_SIZE(m->turbo_pct) - 1);
	return m->turbo_pct[active] * EMUL_SCALE / 100;
}
EXPORT_SYMBOL_IF_KUNIT(emul_turbo_cap);

/* Time power-gated: such a core neither leaks nor counts as active. */
static u64 emul_deep_ns(const struct emul_pkg_model *m,
			const struct emul_cpu_window *c)
{
	u64 ns = 0;
	unsigned int s;

	for (s = 0; s < m->nstates; s++)
		if (m->state[s].kind == EMUL_KIND_POWER_GATED)
			ns += c->state_ns[s];
	return ns;
}

/**
 * emul_active_cores - average number of powered cores over a window
 * @m: the model
 * @w: the window
 *
 * Return: the number of cores not power-gated, averaged over the window
 * and rounded to the nearest.
 */
unsigned int emul_active_cores(const struct emul_pkg_model *m,
			       const struct emul_pkg_window *w)
{
	u64 powered = 0;
	unsigned int i;

	if (!w->len_ns)
		return 0;
	for (i = 0; i < w->ncpus; i++)
		powered += w->len_ns - min(emul_deep_ns(m, &w->cpu[i]), w->len_ns);
	return div64_u64(powered + w->len_ns / 2, w->len_ns);
}
EXPORT_SYMBOL_IF_KUNIT(emul_active_cores);

/* A core's power in an idle state at the minimum voltage (nothing busy). */
static u32 emul_idle_mw(const struct emul_pkg_model *m, enum emul_core_type t,
			unsigned int s)
{
	switch (m->state[s].kind) {
	case EMUL_KIND_POWER_GATED:
		return m->core[t].gated_mw;
	case EMUL_KIND_CLOCK_GATED:
		return emul_leak_mw(m, t, m->vmin_mv);
	default:
		return emul_busy_mw(m, t, EMUL_SCALE_MIN, m->vmin_mv);
	}
}

/**
 * emul_transition_uj - energy of one entry into a state and exit from it
 * @m: the model
 * @t: the core type
 * @state: the state index
 *
 * The kernel defines a state's target residency as the shortest stay,
 * entry and exit included, that saves more energy than the next shallower
 * state would: the transition energies of two neighbouring states differ
 * by what the deeper one saves per unit of time times its target
 * residency. The first hardware state (and POLL) costs nothing to enter.
 * Power is taken at the minimum voltage, where the package sits when
 * everything is idle; the sum is scaled by @m->trans_pct.
 *
 * Return: the energy in uJ.
 */
u32 emul_transition_uj(const struct emul_pkg_model *m, enum emul_core_type t,
		       unsigned int state)
{
	u64 nj = 0;
	unsigned int s;

	for (s = 2; s <= state && s < m->nstates; s++) {
		u32 saved = emul_idle_mw(m, t, s - 1), p = emul_idle_mw(m, t, s);

		/* mW * us = nJ */
		if (saved > p)
			nj += (u64)(saved - p) * m->state[s].target_us[t];
	}
	return div_u64(nj * m->trans_pct, 100 * 1000);
}
EXPORT_SYMBOL_IF_KUNIT(emul_transition_uj);

/**
 * emul_cycles - work a core does at a frequency scale
 * @m: the model
 * @t: the core type
 * @busy_ns: time busy
 * @scale: the frequency, of EMUL_SCALE
 *
 * Return: the cycles its type's frequency at @scale gives in @busy_ns.
 */
u64 emul_cycles(const struct emul_pkg_model *m, enum emul_core_type t,
		u64 busy_ns, u32 scale)
{
	/* ns * MHz = 1/1000 cycle */
	return div_u64(busy_ns * (m->core[t].fmax_mhz * min_t(u32, scale, EMUL_SCALE) /
				  EMUL_SCALE), 1000);
}
EXPORT_SYMBOL_IF_KUNIT(emul_cycles);

/**
 * emul_window_power_mw - average package power over a window
 * @m: the model
 * @w: what each CPU did
 * @scale: the package's frequency scale during the window
 *
 * Return: the average power in mW (see the comment at the top).
 */
u64 emul_window_power_mw(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 scale)
{
	u64 busy_max = 0, pkg = 0, energy = 0, len = w->len_ns;
	u32 rail = m->vmin_mv;
	unsigned int i, s;

	if (!len)
		return 0;
	for (i = 0; i < w->ncpus; i++) {
		const struct emul_cpu_window *c = &w->cpu[i];

		busy_max = max(busy_max, min(c->busy_ns + c->state_ns[EMUL_POLL], len));
		if (c->busy_ns)
			rail = max(rail, emul_voltage_mv(m, c->type, scale));
	}

	for (i = 0; i < w->ncpus; i++) {
		const struct emul_cpu_window *c = &w->cpu[i];
		enum emul_core_type t = c->type;
		/* Idle powered cores leak at the rail while anyone is busy. */
		u64 leak_idle = div64_u64(emul_leak_mw(m, t, rail) * busy_max +
					  emul_leak_mw(m, t, m->vmin_mv) * (len - busy_max),
					  len);
		u64 poll_mw = emul_leak_mw(m, t, rail) +
			      emul_dyn_mw(m, t, scale, rail) * m->poll_activity / EMUL_SCALE;

		energy += c->busy_ns * emul_busy_mw(m, t, scale, rail);
		for (s = 0; s < m->nstates; s++) {
			switch (m->state[s].kind) {
			case EMUL_KIND_POLL:
				energy += c->state_ns[s] * poll_mw;
				break;
			case EMUL_KIND_CLOCK_GATED:
				energy += c->state_ns[s] * leak_idle;
				break;
			case EMUL_KIND_POWER_GATED:
				energy += c->state_ns[s] * m->core[t].gated_mw;
				break;
			}
			/* uJ = 10^6 pJ, the unit of mW * ns */
			energy += c->entries[s] * emul_transition_uj(m, t, s) * 1000000ULL;
		}
	}
	for (s = 0; s < m->nstates; s++) {
		u64 ns = min(w->pkg_ns[s], len - pkg);

		pkg += ns;
		energy += ns * (m->state[s].pkg_mw ?: m->uncore_mw);
	}
	energy += (len - pkg) * m->uncore_mw;
	return div64_u64(energy, len);
}
EXPORT_SYMBOL_IF_KUNIT(emul_window_power_mw);

/**
 * emul_requested_scale - the frequency the busiest CPU asks for
 * @w: the last window
 *
 * Like hardware P-state control (HWP) on its own, frequency follows
 * utilization: a CPU busy for 80% of the window or more asks for the
 * maximum, a less busy one proportionally less, so that a mostly idle
 * package runs slow and at the minimum voltage.
 *
 * Return: the scale the busiest CPU asks for, EMUL_SCALE / 8 at least.
 */
u32 emul_requested_scale(const struct emul_pkg_window *w)
{
	u64 busiest = 0;
	unsigned int i;

	if (!w->len_ns)
		return EMUL_SCALE;
	for (i = 0; i < w->ncpus; i++)
		busiest = max(busiest, w->cpu[i].busy_ns);
	busiest = min(busiest, w->len_ns);
	return clamp_t(u64, div64_u64(busiest * EMUL_SCALE * 5 / 4, w->len_ns),
		       EMUL_SCALE_MIN, EMUL_SCALE);
}
EXPORT_SYMBOL_IF_KUNIT(emul_requested_scale);

/**
 * emul_scale_for_power - the highest frequency scale within a power limit
 * @m: the model
 * @w: the activity to assume (the last window)
 * @cap: the turbo cap, of EMUL_SCALE
 * @allowed_mw: the power allowed
 *
 * Return: the largest scale in [EMUL_SCALE / 8, @cap] whose power with
 * the activity of @w is at most @allowed_mw; EMUL_SCALE / 8 if none is.
 */
u32 emul_scale_for_power(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 cap,
			 u32 allowed_mw)
{
	u32 lo = EMUL_SCALE_MIN, hi = max_t(u32, cap, EMUL_SCALE_MIN);

	if (emul_window_power_mw(m, w, hi) <= allowed_mw)
		return hi;
	/* Power grows with the scale: bisect for the last one that fits. */
	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (emul_window_power_mw(m, w, mid) <= allowed_mw)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
EXPORT_SYMBOL_IF_KUNIT(emul_scale_for_power);

/**
 * emul_ewma_mw - exponentially weighted average of power, any step
 * @avg_mw: the average so far
 * @sample_mw: power over the last step
 * @dt_ns: length of the step
 * @tau_ns: time constant of the average (the RAPL window)
 *
 * Return: avg + (sample - avg) * dt / (tau + dt), which for dt << tau is
 * the usual exponential average and never overshoots for long steps.
 */
u32 emul_ewma_mw(u32 avg_mw, u32 sample_mw, u64 dt_ns, u64 tau_ns)
{
	u64 den = tau_ns + dt_ns;

	if (!den)
		return sample_mw;
	if (sample_mw >= avg_mw)
		return avg_mw + div64_u64((u64)(sample_mw - avg_mw) * dt_ns, den);
	return avg_mw - div64_u64((u64)(avg_mw - sample_mw) * dt_ns, den);
}
EXPORT_SYMBOL_IF_KUNIT(emul_ewma_mw);

/**
 * emul_spin_gap_ns - work done that the model's frequency has not paid for
 * @work_ns: a CPU's busy time so far, less its spinning: the work it did,
 *	at the top frequency (the guest runs at full speed between spins)
 * @credit_ns: the model's cycles for its busy time so far (spinning
 *	included), as time at its type's top frequency: the work it should
 *	have done
 * @forgiven_ns: in and out: what was written off so far
 * @limit_ns: the most the gap may be either way
 *
 * Negative when the guest is behind the model: it spun more than the
 * frequency asked, which happens when the frequency rises during a spin.
 * A gap beyond @limit_ns either way is written off into @forgiven_ns
 * (anti-windup): without it, a phase spun too slow would let the next
 * phase run free, at a lower frequency, until the two evened out, and a
 * phase below the lowest frequency the stealer can keep up with (two
 * jiffies of spin a jiffy) would be paid for in a faster one after it.
 *
 * Return: the gap, ns, within [-@limit_ns, @limit_ns].
 */
s64 emul_spin_gap_ns(u64 work_ns, u64 credit_ns, s64 *forgiven_ns, u64 limit_ns)
{
	s64 gap = (s64)(work_ns - credit_ns) - *forgiven_ns;

	if (gap > (s64)limit_ns) {
		*forgiven_ns += gap - (s64)limit_ns;
		gap = limit_ns;
	} else if (gap < -(s64)limit_ns) {
		*forgiven_ns += gap + (s64)limit_ns;
		gap = -(s64)limit_ns;
	}
	return gap;
}
EXPORT_SYMBOL_IF_KUNIT(emul_spin_gap_ns);

/**
 * emul_spin_ns - how long a busy CPU spins to close its gap
 * @gap_ns: emul_spin_gap_ns()
 * @scale: the frequency now, of EMUL_SCALE
 *
 * A spin earns the model's cycles like any busy time, @scale of its
 * length, so it takes gap / scale to close.
 *
 * Return: @gap_ns * EMUL_SCALE / @scale, or 0 for a gap not above 0.
 */
u64 emul_spin_ns(s64 gap_ns, u32 scale)
{
	if (gap_ns <= 0)
		return 0;
	scale = clamp_t(u32, scale, 1, EMUL_SCALE);
	return div_u64((u64)gap_ns * EMUL_SCALE, scale);
}
EXPORT_SYMBOL_IF_KUNIT(emul_spin_ns);

/* The running model. */

struct emul_cpu_prev {
	u64 idle_us;
	u64 wall_us;
	u64 state_ns[EMUL_MAX_STATES];
	u64 entries[EMUL_MAX_STATES];
};

/**
 * struct emul_stealer - one CPU's cycle stealer
 * @timer: per-jiffy deferrable timer, pinned to @cpu
 * @cpu: the CPU
 * @spin_ns: time spent spinning since the model started (written by @cpu
 *	only, read by emul_model_cpu_work())
 * @forgiven_ns: the gap written off (emul_spin_gap_ns())
 */
struct emul_stealer {
	struct timer_list timer;
	int cpu;
	u64 spin_ns;
	s64 forgiven_ns;
};

static struct {
	spinlock_t lock;		/* all of the model's state */
	u64 energy_uj;
	u64 throttled_us;
	u64 pkg_idle_ns;
	u32 ewma1_mw;
	u32 ewma2_mw;
	u32 last_mw;
	u32 scale;
	bool limited;
	bool turbo_limited;
	const struct emul_pkg_model *m;
	const enum emul_core_type *types;
	u32 pl1_mw, pl2_mw;
	u64 tau1_ns, tau2_ns;
	u64 last_ns;
	u64 energy_pj_rem;
	u64 intervals;
	u64 max_len_ns;
	struct emul_pkg_window w;
	struct emul_cpu_prev *prev;
	u64 pkg_prev[EMUL_MAX_STATES];
	struct emul_cpu_work *work;
	bool running;
} emul = {
	.lock = __SPIN_LOCK_UNLOCKED(emul.lock),
	.scale = EMUL_SCALE,
};

static DEFINE_PER_CPU(struct emul_stealer, emul_stealers);

/* What each CPU, and the package, did since the last interval. */
static void emul_fill_window(u64 len_ns)
{
	int cpu, s;

	emul.w.len_ns = len_ns;
	for (s = 0; s < EMUL_MAX_STATES; s++) {
		u64 t = emul_pkg_time_ns(s);

		emul.w.pkg_ns[s] = min(t - emul.pkg_prev[s], len_ns);
		emul.pkg_prev[s] = t;
	}
	for_each_possible_cpu(cpu) {
		struct emul_cpu_window *c = &emul.w.cpu[cpu];
		struct emul_cpu_prev *p = &emul.prev[cpu];
		u64 idle_us, iowait_us, wall_us, idle_ns, done = 0;

		memset(c, 0, sizeof(*c));
		c->type = emul.types[cpu];
		if (!cpu_online(cpu))
			continue;
		/* iowait is idle to the hardware: see budget_cpu_window(). */
		idle_us = get_cpu_idle_time_us(cpu, &wall_us);
		iowait_us = get_cpu_iowait_time_us(cpu, NULL);
		if (idle_us == (u64)-1 || iowait_us == (u64)-1)
			continue;
		idle_us += iowait_us;
		idle_ns = min((idle_us - p->idle_us) * NSEC_PER_USEC, len_ns);
		p->idle_us = idle_us;
		p->wall_us = wall_us;
		for (s = 0; s < EMUL_MAX_STATES; s++) {
			u64 t = emul_state_time_ns(cpu, s), n = emul_state_entries(cpu, s);

			c->state_ns[s] = t - p->state_ns[s];
			p->state_ns[s] = t;
			done += c->state_ns[s];
			c->entries[s] = n - p->entries[s];
			p->entries[s] = n;
		}
		/*
		 * Completed idle periods are in the per-state times; the one in
		 * progress only in the idle time: give it to the state entered.
		 * A long period that completed now was partly counted before:
		 * scale the completed ones down to the idle time.
		 */
		if (done < idle_ns) {
			s = emul_current_state(cpu);
			c->state_ns[s >= 0 ? s : EMUL_POLL] += idle_ns - done;
		} else if (done > idle_ns) {
			for (s = 0; s < EMUL_MAX_STATES; s++)
				c->state_ns[s] = div64_u64(c->state_ns[s] * idle_ns, done);
		}
		c->busy_ns = len_ns - idle_ns;
	}
}

/*
 * One model interval, from any CPU's stealer timer (softirq) once a jiffy
 * has passed since the last: busy CPUs tick, so the model runs at every
 * tick of any busy CPU and never waits behind a busy CPU's tasks; with
 * every CPU idle it does not run, and the next interval integrates the
 * idle time exactly. A reading of the model's figures (debugfs) runs one
 * too, so that it sees them up to the moment it reads.
 */
static void emul_model_update(void)
{
	u64 now, len, pj;
	u32 power, allowed, cap, scale, turbo, requested;
	unsigned long flags;
	unsigned int i;

	if (!READ_ONCE(emul.running) ||
	    (s64)(ktime_get_ns() - READ_ONCE(emul.last_ns)) < (s64)jiffies_to_nsecs(1) ||
	    !spin_trylock_irqsave(&emul.lock, flags))
		return;
	/* Stopped meanwhile: its arrays are being freed (emul_model_stop()). */
	if (!emul.running) {
		spin_unlock_irqrestore(&emul.lock, flags);
		return;
	}
	/*
	 * Under the lock: another CPU may have just run an interval, after
	 * this one read the clock (signed: "now" may then be behind).
	 */
	now = ktime_get_ns();
	len = now - emul.last_ns;
	if ((s64)len < (s64)jiffies_to_nsecs(1)) {
		spin_unlock_irqrestore(&emul.lock, flags);
		return;
	}
	emul_fill_window(len);
	WRITE_ONCE(emul.last_ns, now);
	/* Work done at the scale that held during the interval. */
	for (i = 0; i < emul.w.ncpus; i++) {
		u64 busy = emul.w.cpu[i].busy_ns;
		u64 cycles = emul_cycles(emul.m, emul.w.cpu[i].type, busy, emul.scale);

		emul.work[i].cycles += cycles;
		emul.work[i].busy_ns += busy;
		/*
		 * Kept apart: the frequency a long burst ran at, which the
		 * whole busy time's average (short wake-ups and timers
		 * included) need not be.
		 */
		if (busy * 100 >= len * EMUL_SAT_PCT) {
			emul.work[i].sat_cycles += cycles;
			emul.work[i].sat_busy_ns += busy;
		}
	}
	for (i = 0; i < EMUL_MAX_STATES; i++)
		emul.pkg_idle_ns += emul.m->state[i].pkg_mw ? emul.w.pkg_ns[i] : 0;

	power = min_t(u64, emul_window_power_mw(emul.m, &emul.w, emul.scale), U32_MAX);
	/* mW * ns = pJ: keep the remainder so the energy is exact. */
	pj = (u64)power * len + emul.energy_pj_rem;
	emul.energy_uj += div64_u64_rem(pj, 1000000, &emul.energy_pj_rem);
	emul.ewma1_mw = emul_ewma_mw(emul.ewma1_mw, power, len, emul.tau1_ns);
	emul.ewma2_mw = emul_ewma_mw(emul.ewma2_mw, power, len, emul.tau2_ns);
	emul.last_mw = power;
	if (emul.limited)
		emul.throttled_us += div_u64(len, NSEC_PER_USEC);

	/* Turbo up to PL2 while the long average is under PL1. */
	allowed = emul.ewma1_mw < emul.pl1_mw ? emul.pl2_mw : emul.pl1_mw;
	turbo = emul_turbo_cap(emul.m, emul_active_cores(emul.m, &emul.w));
	requested = emul_requested_scale(&emul.w);
	cap = min(turbo, requested);
	scale = emul_scale_for_power(emul.m, &emul.w, cap, allowed);
	WRITE_ONCE(emul.scale, scale);
	emul.limited = scale < cap;
	/* What MSR_CORE_PERF_LIMIT_REASONS' Max Turbo Limit status says. */
	emul.turbo_limited = !emul.limited && turbo < requested;
	emul.intervals++;
	emul.max_len_ns = max(emul.max_len_ns, len);
	spin_unlock_irqrestore(&emul.lock, flags);
}

static u32 emul_current_scale(void)
{
	return READ_ONCE(emul.scale);
}

/*
 * Spin until the work this CPU did (its busy time less its spinning) is
 * what the model's cycles for its busy time pay for: the frequency's cost
 * as a running balance, not the work since the last run at the frequency
 * of the moment. The latter charged work at the scale that follows it, not
 * the one it ran at (right after a burst, for one, the package asks for a
 * low frequency, emul_requested_scale(), and a CPU whose tick still ran
 * in a shallow state could pay its burst's last jiffy at that scale). The
 * stealers spun 11% (teo) to 30% (budget at pressure 0) more than the
 * model's frequency asked, by arm (tests/emul/README.md). Deferrable: an
 * idle CPU is not woken for it; a gap not closed within two jiffies is
 * closed at the next runs, up to two jiffies of it (emul_spin_gap_ns()).
 */
static void emul_steal(struct timer_list *t)
{
	struct emul_stealer *st = from_timer(st, t, timer);
	struct emul_cpu_work w;
	u64 spin_ns, credit_ns, t0;
	u32 fmax_mhz;
	s64 gap, forgiven;

	if (!READ_ONCE(emul.running) || smp_processor_id() != st->cpu)
		return;
	emul_model_cpu_work(st->cpu, &w);
	fmax_mhz = emul.m->core[emul.types[st->cpu]].fmax_mhz;
	/* cycles / MHz = us */
	credit_ns = fmax_mhz ? div_u64(w.cycles * 1000, fmax_mhz) : 0;
	forgiven = st->forgiven_ns;
	gap = emul_spin_gap_ns(w.busy_ns - min(w.spin_ns, w.busy_ns), credit_ns,
			       &forgiven, 2 * jiffies_to_nsecs(1));
	WRITE_ONCE(st->forgiven_ns, forgiven);
	spin_ns = min_t(u64, emul_spin_ns(gap, emul_current_scale()), 2 * jiffies_to_nsecs(1));
	if (spin_ns) {
		t0 = ktime_get_ns();
		while (spin_ns >= NSEC_PER_MSEC) {
			mdelay(1);
			spin_ns -= NSEC_PER_MSEC;
		}
		ndelay(spin_ns);
		WRITE_ONCE(st->spin_ns, st->spin_ns + ktime_get_ns() - t0);
	}
	mod_timer(&st->timer, jiffies + 1);
}

/**
 * emul_model_start - start the package model and the cycle stealers
 * @m: the constants
 * @types: core type of each possible CPU
 * @pl1_mw: long-term limit
 * @pl2_mw: short-term limit (at least @pl1_mw)
 * @pl1_window_ms: time constant of the PL1 average
 * @pl2_window_ms: time constant of the PL2 average
 *
 * Return: 0 or -ENOMEM.
 */
int emul_model_start(const struct emul_pkg_model *m, const enum emul_core_type *types,
		     u32 pl1_mw, u32 pl2_mw, u32 pl1_window_ms, u32 pl2_window_ms)
{
	int cpu;

	emul.w.cpu = kcalloc(nr_cpu_ids, sizeof(*emul.w.cpu), GFP_KERNEL);
	emul.prev = kcalloc(nr_cpu_ids, sizeof(*emul.prev), GFP_KERNEL);
	emul.work = kcalloc(nr_cpu_ids, sizeof(*emul.work), GFP_KERNEL);
	if (!emul.w.cpu || !emul.prev || !emul.work) {
		kfree(emul.w.cpu);
		kfree(emul.prev);
		kfree(emul.work);
		return -ENOMEM;
	}
	emul.w.ncpus = nr_cpu_ids;
	emul.m = m;
	emul.types = types;
	emul.pl1_mw = pl1_mw;
	emul.pl2_mw = pl2_mw;
	emul.tau1_ns = (u64)pl1_window_ms * NSEC_PER_MSEC;
	emul.tau2_ns = (u64)pl2_window_ms * NSEC_PER_MSEC;
	emul.scale = EMUL_SCALE;
	emul.last_ns = ktime_get_ns();
	emul_fill_window(0);
	WRITE_ONCE(emul.running, true);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct emul_stealer *st = per_cpu_ptr(&emul_stealers, cpu);

		st->cpu = cpu;
		st->spin_ns = 0;
		st->forgiven_ns = 0;
		timer_setup(&st->timer, emul_steal, TIMER_DEFERRABLE | TIMER_PINNED);
		st->timer.expires = jiffies + 1;
		add_timer_on(&st->timer, cpu);
	}
	cpus_read_unlock();
	return 0;
}

/**
 * emul_model_stop - stop what emul_model_start() started
 *
 * The model's arrays are taken away under its lock, after which no update
 * (which checks emul.running under the lock) and no reader (which checks
 * the pointers) can reach them, and freed after it.
 */
void emul_model_stop(void)
{
	struct emul_cpu_window *w;
	struct emul_cpu_work *work;
	unsigned long flags;
	struct emul_cpu_prev *prev;
	int cpu;

	WRITE_ONCE(emul.running, false);
	for_each_possible_cpu(cpu) {
		struct emul_stealer *st = per_cpu_ptr(&emul_stealers, cpu);

		if (st->timer.function)
			timer_delete_sync(&st->timer);
	}
	spin_lock_irqsave(&emul.lock, flags);
	w = emul.w.cpu;
	prev = emul.prev;
	work = emul.work;
	emul.w.cpu = NULL;
	emul.prev = NULL;
	emul.work = NULL;
	spin_unlock_irqrestore(&emul.lock, flags);
	kfree(w);
	kfree(prev);
	kfree(work);
}

/**
 * emul_model_set_limits - change the power limits of the running model
 * @pl1_mw: long-term limit
 * @pl2_mw: short-term limit
 * @pl1_window_ms: time constant of the PL1 average
 * @pl2_window_ms: time constant of the PL2 average
 *
 * As RAPL's, the limits and their time windows can change at any time.
 */
void emul_model_set_limits(u32 pl1_mw, u32 pl2_mw, u32 pl1_window_ms,
			   u32 pl2_window_ms)
{
	unsigned long flags;

	spin_lock_irqsave(&emul.lock, flags);
	emul.pl1_mw = pl1_mw;
	emul.pl2_mw = pl2_mw;
	emul.tau1_ns = (u64)pl1_window_ms * NSEC_PER_MSEC;
	emul.tau2_ns = (u64)pl2_window_ms * NSEC_PER_MSEC;
	spin_unlock_irqrestore(&emul.lock, flags);
}

/**
 * emul_model_status - the model's state, up to now, for debugfs and emul_rapl
 * @st: filled in, all from one moment
 *
 * Brings the model up to now first: its intervals otherwise end at a busy
 * CPU's tick, and an idle package's figures would lag for as long as it
 * stays idle. (The budget governor's source, emul_platform_read(), does
 * not: its sampler would pay for the model's work, which a RAPL read
 * does not cost.)
 */
void emul_model_status(struct emul_status *st)
{
	unsigned long flags;

	/* Up to now, not to the last busy CPU's tick: nobody ticks when idle. */
	emul_model_update();
	spin_lock_irqsave(&emul.lock, flags);
	st->time_ns = emul.last_ns;
	st->intervals = emul.intervals;
	st->max_len_ns = emul.max_len_ns;
	st->energy_uj = emul.energy_uj;
	st->throttled_us = emul.throttled_us;
	st->pkg_idle_us = div_u64(emul.pkg_idle_ns, NSEC_PER_USEC);
	st->power_mw = emul.last_mw;
	st->ewma1_mw = emul.ewma1_mw;
	st->scale = emul.scale;
	spin_unlock_irqrestore(&emul.lock, flags);
}
EXPORT_SYMBOL_GPL(emul_model_status);

/**
 * emul_model_cpu_work - the work a CPU has done since the model started
 * @cpu: the CPU
 * @work: filled in: its cycles, the integral of its frequency over its busy
 *	time (the cycle stealer's spinning included: it stands for the work's
 *	own slower cycles), that busy time, the same two for its saturated
 *	intervals, the time spent spinning and the gap written off, up to
 *	now (to within a jiffy); zeroes when the model is not running
 *
 * Unlike anything measured in the guest, neither depends on how QEMU
 * shares the host between the vCPUs.
 */
void emul_model_cpu_work(int cpu, struct emul_cpu_work *work)
{
	unsigned long flags;

	emul_model_update();
	spin_lock_irqsave(&emul.lock, flags);
	if (emul.work && cpu < emul.w.ncpus) {
		*work = emul.work[cpu];
		work->spin_ns = READ_ONCE(per_cpu(emul_stealers, cpu).spin_ns);
		work->forgiven_ns = READ_ONCE(per_cpu(emul_stealers, cpu).forgiven_ns);
	} else {
		*work = (struct emul_cpu_work) {};
	}
	spin_unlock_irqrestore(&emul.lock, flags);
}

/**
 * emul_platform_read - the model's package signals, as a budget source
 * @pkg: package (the model has one)
 * @cpu: unused: the model is not per CPU
 * @r: the reading
 *
 * Return: 0, or -ENODEV when the model is not running or @pkg is not 0.
 */
int emul_platform_read(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r)
{
	unsigned long flags;

	if (pkg || !READ_ONCE(emul.running))
		return -ENODEV;
	spin_lock_irqsave(&emul.lock, flags);
	r->energy_uj = emul.energy_uj;
	r->throttled_us = emul.throttled_us;
	r->limit_mw = emul.pl1_mw;
	r->limit_window_us = div_u64(emul.tau1_ns, NSEC_PER_USEC);
	r->short_limit_mw = emul.pl2_mw;
	r->limit_active = emul.limited;
	r->turbo_limited = emul.turbo_limited;
	spin_unlock_irqrestore(&emul.lock, flags);
	r->valid = CPUIDLE_BUDGET_HAS_ENERGY | CPUIDLE_BUDGET_HAS_LIMIT |
		   CPUIDLE_BUDGET_HAS_THROTTLE | CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE |
		   CPUIDLE_BUDGET_HAS_TURBO_LIMIT;
	return 0;
}
EXPORT_SYMBOL_GPL(emul_platform_read);

/**
 * emul_platform_freq_scale - a CPU's emulated frequency
 * @cpu: the CPU
 *
 * Return: its frequency relative to its core type's maximum, of
 * SCHED_CAPACITY_SCALE (the package shares one scale).
 */
unsigned int emul_platform_freq_scale(int cpu)
{
	return emul_current_scale() * SCHED_CAPACITY_SCALE / EMUL_SCALE;
}
EXPORT_SYMBOL_GPL(emul_platform_freq_scale);

/**
 * emul_rapl_window_encode - a time window as the 7-bit field holds it
 * @ms: the window
 *
 * Return: Y (bits 4:0) and F (bits 6:5) with 2^Y * (1 + F/4) time units
 * (2^-EMUL_RAPL_TIME_SHIFT s) the largest such window not above @ms, at
 * least one unit: RAPL's time window field, as intel_rapl_common's
 * rapl_compute_time_window_core() decodes it.
 */
u32 emul_rapl_window_encode(u32 ms)
{
	u64 units = max_t(u64, div_u64((u64)ms << EMUL_RAPL_TIME_SHIFT, MSEC_PER_SEC), 1);
	u32 y = min_t(u32, ilog2(units), 31);
	u32 f = min_t(u64, div64_u64(4 * (units - BIT_ULL(y)), BIT_ULL(y)), 3);

	return y | f << 5;
}
EXPORT_SYMBOL_GPL(emul_rapl_window_encode);

/**
 * emul_rapl_window_decode - the window a 7-bit field stands for
 * @field: Y (bits 4:0) and F (bits 6:5)
 *
 * Return: 2^Y * (1 + F/4) time units, in milliseconds (rounded down, at
 * least 1).
 */
u32 emul_rapl_window_decode(u32 field)
{
	u64 units = (BIT_ULL(field & 0x1f) * (4 + ((field >> 5) & 3))) / 4;

	return max_t(u64, div_u64(units * MSEC_PER_SEC, 1 << EMUL_RAPL_TIME_SHIFT), 1);
}
EXPORT_SYMBOL_GPL(emul_rapl_window_decode);
