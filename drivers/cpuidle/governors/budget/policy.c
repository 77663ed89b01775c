// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - idle state selection of the budget cpuidle governor
 *
 * The governor must guess how long a CPU will stay idle. The timers give an
 * upper bound: unless something else wakes the CPU first, it sleeps until
 * the next timer event. Everything else (device interrupts, IPIs, wake-ups
 * of tasks queued from other CPUs) can only end the period earlier, so the
 * policy starts from the timer and asks one question of the CPU's recent
 * past: how often did an idle period end early, too early for the state we
 * are about to pick? It then accepts a state if that risk is below a
 * tolerance, and the tolerance is what the package's power pressure moves.
 *
 * History
 *
 * Each CPU keeps one weight per idle state for early wake-ups and one for
 * all periods, in fixed point (BUDGET_WEIGHT_ONE per period), decayed
 * geometrically: every new period first scales all weights by 7/8, so the
 * last couple of dozen periods dominate and old behaviour fades without a
 * window to manage. A period counts as *early* when it ended before 7/8 of
 * the time to the timer it slept for. It is then filed under the deepest
 * state whose target residency it still reached. All other periods (the
 * timer fired, more or less on time) only add to the total.
 *
 * Two kinds of wake-up are never early. A polling state that ran into its
 * time limit (dev->poll_time_limit) ended because the governor's own
 * safety net ended it, not because an event came: the CPU was still idle.
 * And a period ended by the tick, while the tick was left running, is not
 * early: the CPU was woken by our own decision to keep the tick, not by an
 * event the timers did not know about. Counting such wake-ups as early
 * would make a nearly idle CPU vote for shallow states, the tick's period
 * being the only thing it ever sees (a known failure of governors that
 * treat every tick wake-up as a short idle period).
 *
 * Nothing is discarded as an outlier: when intervals are noisy, each
 * period still says exactly which states it would have paid off for, and
 * that is all the selection uses.
 *
 * Selection
 *
 * 1. Candidates: enabled states whose exit latency fits the CPU's latency
 *    limit (PM QoS). The first enabled state is the fallback when nothing
 *    fits; it is what the hardware would do anyway.
 * 2. Timer state: the deepest candidate whose target residency fits the
 *    time to the next timer event.
 * 3. Risk: for a candidate k, the weight of early periods that did not
 *    reach k's target residency, as a share of all periods. From the timer
 *    state downwards, the first candidate whose risk is within the
 *    tolerance is chosen; the first enabled state if none is.
 * 4. Tolerance: cpuidle_budget_risk_tolerance(). At pressure 0 a state may be
 *    chosen if at most 1/8 of recent periods would have been too short for
 *    it: shallow when in doubt, latency first. At full pressure, up to 1/2:
 *    when busy CPUs are held back by the package limit, the power a deeper
 *    state saves is worth more than the occasional wasted entry, and a
 *    wrong guess costs at most the state's exit latency, which the latency
 *    limit already bounds. The mapping is linear in between.
 * 5. Tick: the tick is stopped when the timer says the CPU sleeps past the
 *    next tick and either the history agrees (the timer state was chosen)
 *    or the pressure is at least half: then a long idle period is worth
 *    more than the tick's safety net against a wrong guess. When the tick
 *    stays, it will end the period before the next tick, so the state is
 *    limited to those whose target residency fits that time. A polling
 *    state never stops the tick.
 * 6. Tick already stopped: the idle loop does not restart a stopped tick
 *    for a shallow state, so nothing but an event or the next timer, which
 *    can be seconds away, ends the period. A wrong shallow guess then costs
 *    the whole sleep in a state that saves next to nothing, while a wrong
 *    deep guess costs one exit latency. So with the tick stopped, a choice
 *    whose target residency is below a tick period is replaced by the timer
 *    state: the deepest the time to the next timer allows (and the latency
 *    limit, which the timer state respects, still holds).
 *
 * The same history at pressure 0 gives the *unbiased* choice, reported in
 * the statistics and the trace so that the bias can be seen at work. It
 * takes a second pass over the states, so it is computed only while
 * someone looks: the tracepoint is on, or the bias_stats parameter is set.
 *
 * Skipping the timers
 *
 * Finding the next timer event is the most expensive part of a selection.
 * When the history alone already limits the choice to a state so shallow
 * that being wrong costs next to nothing (target residency below
 * BUDGET_CHEAP_RESIDENCY_NS, with a polling state to fall back on), the
 * timers cannot make the choice any deeper and are not consulted: the
 * state is entered with the tick left running.
 *
 * Such a period's length relative to its timer stays unknown, so it cannot
 * be classified, and it is not recorded at all. Filing it as early would
 * feed the skip its own reason to skip: a CPU whose own timers end most
 * periods short of a deep state's target, and the others long, would see
 * every short one as an early wake-up and never look at the timers again,
 * locked into a shallow state at low pressure. Instead every
 * BUDGET_SKIP_MAX + 1-th selection in a row consults the timers whatever
 * the history says, so the history keeps being fed with periods that can
 * be classified, and it follows the workload at that fraction of the
 * usual rate while skipping. With the tick already stopped there is no
 * skipping (step 6: a wrong guess is not cheap then).
 */

#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "budget.h"

/* Below this target residency a wrong guess is too cheap to look at timers. */
#define BUDGET_CHEAP_RESIDENCY_NS	(15 * NSEC_PER_USEC)
/* Selections in a row that may skip the timers before one must not. */
#define BUDGET_SKIP_MAX			4

/* Risk tolerance at pressure 0 and at full pressure, of BUDGET_WEIGHT_ONE. */
#define BUDGET_RISK_MIN		(BUDGET_WEIGHT_ONE / 8)
#define BUDGET_RISK_MAX		(BUDGET_WEIGHT_ONE / 2)

/**
 * cpuidle_budget_risk_tolerance - share of early periods a state may be too deep for
 * @pressure: package power pressure, clamped to 0..BUDGET_PRESSURE_MAX
 *
 * Return: the tolerated share, in units of 1/BUDGET_WEIGHT_ONE.
 */
unsigned int cpuidle_budget_risk_tolerance(unsigned int pressure)
{
	pressure = min(pressure, BUDGET_PRESSURE_MAX);
	return BUDGET_RISK_MIN +
	       (BUDGET_RISK_MAX - BUDGET_RISK_MIN) * pressure / BUDGET_PRESSURE_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_risk_tolerance);

static bool budget_state_usable(struct cpuidle_driver *drv,
				struct cpuidle_device *dev, int i,
				s64 latency_req_ns)
{
	return !dev->states_usage[i].disable &&
	       drv->states[i].exit_latency_ns <= latency_req_ns;
}

static int budget_first_enabled(struct cpuidle_driver *drv,
				struct cpuidle_device *dev)
{
	int i;

	for (i = 0; i < drv->state_count; i++) {
		if (!dev->states_usage[i].disable)
			return i;
	}
	return 0;
}

/* Deepest usable state not deeper than @limit whose target fits @span_ns. */
static int budget_deepest_fitting(struct cpuidle_driver *drv,
				  struct cpuidle_device *dev, int limit,
				  s64 latency_req_ns, s64 span_ns)
{
	int i;

	for (i = limit; i >= 0; i--) {
		if (budget_state_usable(drv, dev, i, latency_req_ns) &&
		    drv->states[i].target_residency_ns <= span_ns)
			return i;
	}
	return -1;
}

/*
 * Steps 3 and 4: the deepest usable state, not deeper than @timer_state,
 * whose risk is within @tolerance; -1 if none.
 */
static int budget_pick(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       const struct budget_history *hist,
		       const struct budget_input *in, int timer_state,
		       unsigned int tolerance)
{
	u64 allowed = (u64)tolerance * hist->total;
	u64 short_weight = 0;
	int i, best = -1;

	/* short_weight: early periods that did not reach state i's target. */
	for (i = 0; i <= timer_state; i++) {
		if (budget_state_usable(drv, dev, i, in->latency_req_ns) &&
		    short_weight * BUDGET_WEIGHT_ONE <= allowed)
			best = i;
		short_weight += hist->early[i];
	}
	return best;
}

/* Step 5 for one choice: may change @state, returns whether to stop. */
static bool budget_tick(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			const struct budget_input *in, int timer_state,
			unsigned int pressure, int *state)
{
	bool stop;
	int limited;

	/* Step 6; the timer state is usable, so deeper is never wrong here. */
	if (in->tick_stopped) {
		if (drv->states[*state].target_residency_ns < TICK_NSEC &&
		    timer_state > *state)
			*state = timer_state;
		return !(drv->states[*state].flags & CPUIDLE_FLAG_POLLING);
	}
	if (drv->states[*state].flags & CPUIDLE_FLAG_POLLING)
		return false;

	stop = in->sleep_ns > in->tick_ns &&
	       (*state == timer_state || pressure >= BUDGET_PRESSURE_MAX / 2);
	if (!stop && drv->states[*state].target_residency_ns > in->tick_ns) {
		limited = budget_deepest_fitting(drv, dev, *state,
						 in->latency_req_ns, in->tick_ns);
		*state = limited >= 0 ? limited : budget_first_enabled(drv, dev);
	}
	return stop;
}

/**
 * cpuidle_budget_select_state - choose an idle state and whether to stop the tick
 * @drv: the CPU's cpuidle driver
 * @dev: the CPU's cpuidle device (for the disabled states)
 * @hist: the CPU's idle history
 * @in: timer, tick, latency limit and pressure for this selection
 * @out: the decision, and the pressure-0 decision for comparison
 *
 * Pure: reads nothing but its arguments, so that every branch can be
 * tested with made-up states and histories.
 */
void cpuidle_budget_select_state(struct cpuidle_driver *drv,
				 struct cpuidle_device *dev,
				 const struct budget_history *hist,
				 const struct budget_input *in,
				 struct budget_choice *out)
{
	int first = budget_first_enabled(drv, dev);
	int timer_state, state, unbiased;
	s64 sleep_ns = max_t(s64, in->sleep_ns, 0);

	timer_state = budget_deepest_fitting(drv, dev, drv->state_count - 1,
					     in->latency_req_ns, sleep_ns);
	if (timer_state < 0) {
		timer_state = first;
		state = first;
		unbiased = first;
	} else {
		state = budget_pick(drv, dev, hist, in, timer_state,
				    cpuidle_budget_risk_tolerance(in->pressure));
		if (state < 0)
			state = first;
		unbiased = state;
		/* Without pressure there is no bias: skip the second pass. */
		if (in->pressure && in->want_unbiased) {
			unbiased = budget_pick(drv, dev, hist, in, timer_state,
					       cpuidle_budget_risk_tolerance(0));
			if (unbiased < 0)
				unbiased = first;
		}
	}

	out->timer_state = timer_state;
	out->stop_tick = budget_tick(drv, dev, in, timer_state, in->pressure,
				     &state);
	if (in->pressure && in->want_unbiased)
		budget_tick(drv, dev, in, timer_state, 0, &unbiased);
	else
		unbiased = state;
	out->state = state;
	out->unbiased = unbiased;
	out->predicted_ns = sleep_ns;
	if (state < timer_state)
		out->predicted_ns = min(sleep_ns,
					drv->states[state + 1].target_residency_ns);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_select_state);

/**
 * cpuidle_budget_select_without_timers - decide from the history alone, if cheap
 * @drv: the CPU's cpuidle driver
 * @dev: the CPU's cpuidle device
 * @hist: the CPU's idle history
 * @in: latency limit, pressure and tick state (the timer fields are unused)
 * @out: the decision, filled only when this returns %true
 *
 * Return: %true if the history limits the choice to a state shallow enough
 * that the timers need not be consulted (see "Skipping the timers").
 */
bool cpuidle_budget_select_without_timers(struct cpuidle_driver *drv,
					  struct cpuidle_device *dev,
					  const struct budget_history *hist,
					  const struct budget_input *in,
					  struct budget_choice *out)
{
	int deepest = drv->state_count - 1;
	int state, unbiased;

	if (!hist->total || !(drv->states[0].flags & CPUIDLE_FLAG_POLLING) ||
	    in->tick_stopped || hist->skips >= BUDGET_SKIP_MAX)
		return false;
	state = budget_pick(drv, dev, hist, in, deepest,
			    cpuidle_budget_risk_tolerance(in->pressure));
	if (state < 0 || state == deepest ||
	    drv->states[state].target_residency_ns >= BUDGET_CHEAP_RESIDENCY_NS)
		return false;

	unbiased = state;
	if (in->pressure && in->want_unbiased) {
		unbiased = budget_pick(drv, dev, hist, in, deepest,
				       cpuidle_budget_risk_tolerance(0));
		if (unbiased < 0)
			unbiased = budget_first_enabled(drv, dev);
	}
	out->state = state;
	out->unbiased = unbiased;
	out->timer_state = -1;
	out->predicted_ns = drv->states[state + 1].target_residency_ns;
	out->stop_tick = false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_select_without_timers);

/**
 * cpuidle_budget_history_reset - forget all idle periods
 * @hist: the history
 */
void cpuidle_budget_history_reset(struct budget_history *hist)
{
	memset(hist, 0, sizeof(*hist));
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_history_reset);

/**
 * cpuidle_budget_history_selected - remember what a selection knew about its period
 * @hist: the CPU's history
 * @in: the selection's input (@in->sleep_ns is unused when the timers
 *	were skipped)
 * @out: the selection's outcome
 *
 * Called after every selection, before the state is entered, so that
 * cpuidle_budget_history_update() can classify the period when it ends.
 */
void cpuidle_budget_history_selected(struct budget_history *hist,
				     const struct budget_input *in,
				     const struct budget_choice *out)
{
	hist->timers_skipped = out->timer_state < 0;
	if (hist->timers_skipped) {
		hist->sleep_ns = S64_MAX;
		hist->skips++;
	} else {
		hist->sleep_ns = max_t(s64, in->sleep_ns, 0);
		hist->skips = 0;
	}
	hist->tick_kept = !out->stop_tick && !in->tick_stopped;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_history_selected);

/**
 * cpuidle_budget_history_update - record how an idle period ended
 * @hist: the CPU's history, as cpuidle_budget_history_selected() left it
 * @drv: the CPU's cpuidle driver (for the target residencies)
 * @residency_ns: how long the CPU actually stayed idle
 * @end: BUDGET_END_* flags: how the period ended, when not by an event
 *
 * A period whose selection skipped the timers is not recorded (see
 * "Skipping the timers").
 *
 * Return: %true if the period counted as early.
 */
bool cpuidle_budget_history_update(struct budget_history *hist,
				   struct cpuidle_driver *drv,
				   s64 residency_ns, unsigned int end)
{
	bool early;
	int i, bin = 0;

	if (hist->timers_skipped)
		return false;
	/* Before 7/8 of the time to the timer; no overflow at S64_MAX. */
	early = !(end & BUDGET_END_POLL_LIMIT) &&
		!((end & BUDGET_END_TICK) && hist->tick_kept) &&
		residency_ns < hist->sleep_ns - hist->sleep_ns / 8;

	for (i = 0; i < drv->state_count; i++) {
		hist->early[i] -= hist->early[i] >> BUDGET_DECAY_SHIFT;
		if (drv->states[i].target_residency_ns <= residency_ns)
			bin = i;
	}
	hist->total -= hist->total >> BUDGET_DECAY_SHIFT;
	hist->total += BUDGET_WEIGHT_ONE;
	if (early)
		hist->early[bin] += BUDGET_WEIGHT_ONE;
	return early;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_history_update);
