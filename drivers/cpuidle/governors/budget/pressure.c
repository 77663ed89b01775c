// SPDX-License-Identifier: GPL-2.0
/*
 * pressure.c - the power pressure of the budget cpuidle governor
 *
 * What a package's power signals mean for its idle CPUs: the rule is the
 * DOC: block below, the code the pure arithmetic after it. The sampler
 * that feeds it one sample per period, and publishes what it returns, is
 * in signals.c; policy.c is what the pressure biases.
 */

/**
 * DOC: Power pressure
 *
 * The pressure, 0 to 1024 (BUDGET_PRESSURE_MAX), says how much a package's
 * busy CPUs, now or within the limit's window, would gain from power that
 * its idle CPUs leave unspent: 0 far from every power limit (the governor
 * is then latency first), 1024 when the package has used up its energy
 * budget or is held at a limit.
 *
 * It follows what the limit enforces, not the moment. RAPL holds the
 * package's power *averaged* with a time constant (PL1's window, Tau: 28 s
 * on most laptops, 1 s at reset) at PL1, and the short average at PL2.
 * Under PL1, joules spent now are joules a later burst will not have, so a
 * mostly idle, bursty load (typing, scrolling) is held by PL1 through its
 * average exactly like a steady one, whether or not some CPU happens to
 * be busy at the moment of the sample. The pressure is the largest of
 * these terms, each 0 to 1024:
 *
 * - *Energy budget*: the package power averaged over the limit's window,
 *   as the limit averages it (1 s where the source gives no window),
 *   against PL1: 0 up to 85% of the limit, linear to 1024 at the limit.
 *   Equivalently, the energy left in the window, (PL1 - average) x Tau,
 *   against 15% of the window's budget: the bias starts while energy is
 *   left, so that what idle CPUs save is still there for the next burst
 *   instead of arriving after the limit has bitten. (6 W for 28 s is
 *   168 J; 15% is 25 J, 1.8 s of a 20 W burst above PL1.)
 * - *Short limit*: the last sample's power against PL2, with the same
 *   ramp. PL2's own window is milliseconds, shorter than a sample, so a
 *   sample's average at PL2 means PL2 held for the whole sample.
 * - *Time at the limit*: the throttled share of each sample, where the
 *   source counts throttled time, averaged over an eighth of the window.
 * - *Limit bits*: the share of samples in which the hardware reported a
 *   power limit as active, averaged likewise. An eighth of the window is
 *   long enough not to follow one PL2 burst, and short enough to let go
 *   within the window once the limit stops binding. The bits are read at
 *   one instant per sample, so these averages span at least eight
 *   sampling periods, whatever the window.
 *
 * The *turbo share* is published beside the pressure, not in it: the share
 * of samples in which the hardware reported the busy CPUs held below their
 * turbo ratio by the number of active cores, averaged like the limit bits.
 * No power limit binds then, so a joule saved is worth no frequency and
 * the energy rule does not apply; what deeper idle buys is a higher turbo
 * bin, while the idle CPU stays power-gated (see "Turbo").
 *
 * The busy CPUs and their frequency are measured, and shown in debugfs,
 * but do not gate the pressure: under an average limit the CPUs that need
 * the budget are often not busy when the sample is taken. With no known
 * limit, no throttling and no limit bits, the pressure is 0 whatever the
 * frequency: busy CPUs below their maximum on a package without a known
 * limit are as likely held there by schedutil, EPP, a thermal cap or
 * scaling_max_freq as by power, and deeper idle elsewhere helps none of
 * those. Only with the headroom_pressure parameter set does such a package
 * get twice the busy CPUs' frequency headroom as its pressure, for parts
 * whose limit the source cannot see.
 *
 * Until the averages have run for a time constant (after loading, or
 * after a gap in sampling), each is the plain mean of what was seen since:
 * an average started at 0 would take a whole window to show a package
 * already at its limit.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "budget.h"

/* The status bits' averages span at least this many sampling periods. */
#define BUDGET_STATUS_PERIODS	8ULL

/**
 * cpuidle_budget_ewma - one step of an exponentially weighted moving average
 * @avg: the average so far
 * @sample: the new value, which held for @dt_us
 * @dt_us: time since the last step
 * @tau_us: the time constant
 *
 * Moves @avg by @dt_us / @tau_us of the way to @sample: the first-order
 * term of 1 - exp(-dt/tau), within 1% of it while the step is below 1/50
 * of the time constant (a 100 ms sample against a 28 s PL1 window is
 * 1/280), and all the way once the step is as long as the time constant.
 *
 * A step is at least one unit: rounded down to 0, the average would stop
 * short of a steady value, by up to @tau_us / @dt_us units (34 of 1024
 * for the status bits' 3.5 s against a 100 ms sample), and one burst at
 * a limit would have left a pressure of 34 for good.
 *
 * Return: the new average.
 */
u32 cpuidle_budget_ewma(u32 avg, u32 sample, u64 dt_us, u64 tau_us)
{
	u64 step;

	if (!tau_us || dt_us >= tau_us)
		return sample;
	if (sample == avg)
		return avg;
	step = div64_u64((u64)abs_diff(sample, avg) * dt_us, tau_us) ?: 1;
	return sample > avg ? avg + step : avg - step;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_ewma);

/**
 * cpuidle_budget_smooth - a sample's averages, from the previous sample's
 * @prev: the previous sample of the package, NULL for the first after a gap
 * @s: the new sample, its window's figures filled; its averages are set
 * @dt_us: the new sample's window
 * @period_us: the sampling period
 *
 * The power is averaged over the limit's window (see "Power pressure"), the
 * throttling and the status bits over an eighth of it, but over no less
 * than BUDGET_STATUS_PERIODS sampling periods: the status bits are read at
 * one instant per sample, and a shorter time constant would let one read
 * decide. For the same reason a read stands for one period at most, even
 * after a pause in sampling.
 *
 * Until the averages have run for a time constant, each is the plain mean
 * of what was seen since the gap (the time constant used is the time
 * covered, @s->avg_us): nothing older is known, an average started at 0
 * would take a whole window (28 s on most laptops) to show a package
 * already at its limit, and one started at the first window's value would
 * take as long to forget a burst that happened to fill it.
 */
void cpuidle_budget_smooth(const struct budget_sample *prev, struct budget_sample *s,
			   u64 dt_us, u64 period_us)
{
	u32 limited = s->limit_notified ? BUDGET_PRESSURE_MAX : 0;
	u32 turbo = s->turbo_limited ? BUDGET_PRESSURE_MAX : 0;
	u64 tau = s->window_us ?: BUDGET_DEFAULT_WINDOW_US;
	u64 tau_status = max(tau / 8, BUDGET_STATUS_PERIODS * period_us);
	u64 dt_status = min(dt_us, period_us);

	if (!prev) {
		s->avg_us = dt_us;
		s->status_us = dt_status;
		s->avg_mw = s->power_mw;
		s->throttle_avg = s->throttle;
		s->limited_avg = limited;
		s->turbo_avg = turbo;
		return;
	}
	s->avg_us = prev->avg_us + dt_us;
	s->status_us = prev->status_us + dt_status;
	s->avg_mw = cpuidle_budget_ewma(prev->avg_mw, s->power_mw, dt_us,
					min(tau, s->avg_us));
	s->throttle_avg = cpuidle_budget_ewma(prev->throttle_avg, s->throttle, dt_us,
					      min(tau_status, s->avg_us));
	tau_status = min(tau_status, s->status_us);
	s->limited_avg = cpuidle_budget_ewma(prev->limited_avg, limited, dt_status, tau_status);
	s->turbo_avg = cpuidle_budget_ewma(prev->turbo_avg, turbo, dt_status, tau_status);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_smooth);

#define BUDGET_LIMIT_RAMP_START	870	/* 85% of the limit, of 1024 */

/* 0 up to 85% of @limit_mw, rising linearly to the maximum at the limit. */
static unsigned int budget_limit_ramp(u32 power_mw, u32 limit_mw)
{
	u64 ratio;

	if (!limit_mw || !power_mw)
		return 0;
	ratio = div_u64((u64)power_mw * BUDGET_PRESSURE_MAX, limit_mw);
	if (ratio >= BUDGET_PRESSURE_MAX)
		return BUDGET_PRESSURE_MAX;
	if (ratio <= BUDGET_LIMIT_RAMP_START)
		return 0;
	return (ratio - BUDGET_LIMIT_RAMP_START) * BUDGET_PRESSURE_MAX /
	       (BUDGET_PRESSURE_MAX - BUDGET_LIMIT_RAMP_START);
}

/**
 * cpuidle_budget_pressure_from_sample - the pressure a sample means
 * @s: the sample, its averages set
 *
 * Return: pressure, 0..BUDGET_PRESSURE_MAX (see "Power pressure" above).
 */
unsigned int cpuidle_budget_pressure_from_sample(const struct budget_sample *s)
{
	unsigned int p;

	p = max(budget_limit_ramp(s->avg_mw, s->limit_mw),
		budget_limit_ramp(s->power_mw, s->short_limit_mw));
	p = max3(p, s->throttle_avg, s->limited_avg);
	p = min(p, BUDGET_PRESSURE_MAX);
	if (!p && !s->limit_mw && !s->short_limit_mw && s->freq_known && s->headroom_alone)
		return min(2 * min(s->headroom, BUDGET_PRESSURE_MAX), BUDGET_PRESSURE_MAX);
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_pressure_from_sample);
