// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - idle state selection of the budget cpuidle governor
 *
 * The algorithm comes first, in the DOC: blocks below (which
 * Documentation/admin-guide/pm/cpuidle-budget.rst pulls in), then the
 * code: pure functions of a driver's states, a CPU's history and the
 * inputs of one selection, which main.c gathers and KUnit feeds directly.
 */

/**
 * DOC: Predicting the idle period
 *
 * The governor must guess how long a CPU will stay idle. The timers give an
 * upper bound: unless something else wakes the CPU first, it sleeps until
 * the next timer event. Everything else (device interrupts, IPIs, wake-ups
 * of tasks queued from other CPUs) can only end the period earlier, so the
 * policy starts from the timer and asks the CPU's recent past how its idle
 * periods ended. What it does with the answer depends on the package's
 * power pressure (pressure.c): with power to spare it is latency-first,
 * shallow whenever a deeper state is in doubt; as the power budget binds,
 * its objective moves to the expected energy of the period, which can be
 * deeper than any majority or quantile rule, never past the timer.
 */

/**
 * DOC: History
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
 * How long a period was: the core's measure (dev->last_residency_ns),
 * from before the state's entry to after its exit, taken as it is. The
 * exit latency a driver gives is a worst case (intel_idle's tables, ACPI
 * _CST), and the real exit is often much shorter; nothing tells how long
 * it was. Subtracting the worst case, as an earlier version did, made
 * short periods look shorter than they were: a period measured at 1.5 us
 * in C1E (2 us worst-case exit) became 0, filed as too short for C1
 * (1 us), and with the latency-first rule's 1/8 tolerance one such period
 * in eight put the CPU in the polling state, spinning (the KUnit case
 * polling_edge_from_exit). Taking the measure as it is errs the other
 * way, by the real exit at most: a period that ended less than that short
 * of a deeper state's target residency is filed under that state. In the
 * emulator, whose exits take exactly the worst case, that is the whole
 * exit latency: 170 us from Alder Lake's C6, so a 350 us period there
 * counts as reaching C6's 500 us.
 *
 * Nothing is discarded as an outlier: when intervals are noisy, each
 * period still says exactly which states it would have paid off for, and
 * that is all the selection uses.
 */

/**
 * DOC: Selection
 *
 * 1. Candidates: enabled states whose exit latency fits the CPU's latency
 *    limit (PM QoS). The first enabled state is the fallback when nothing
 *    fits; it is what the hardware would do anyway.
 * 2. Timer state: the deepest candidate whose target residency fits the
 *    time to the next timer event.
 * 3. Latency first, where latency is at stake: for a candidate k, the
 *    risk is the weight of early periods that did not reach k's target
 *    residency, as a share of all periods. From the timer state
 *    downwards, the first candidate whose risk is at most 1/8 is the
 *    latency-first choice: a state is entered only if at most one recent
 *    period in eight would have been too short for it. That tolerance
 *    holds only with evidence that this CPU's next wake-up is
 *    latency-critical (see "Latency evidence"); without it, the share
 *    allowed is a half, as in a majority rule (teo's). This is the
 *    choice at pressure 0, and the unbiased choice.
 * 4. Energy under pressure: the deepest candidate, from the latency-first
 *    choice up to the timer state, whose break-even is within the idle
 *    length the pressure weighs: the latency-first choice's target
 *    residency at pressure 0, the expected idle length at full pressure,
 *    linear in between (see "The energy rule"); or, while the turbo
 *    ratio limits hold the busy CPUs back, whose exit latency is worth
 *    paying for the turbo bin (see "Turbo").
 * 5. Tick: the tick is stopped when the timer says the CPU sleeps past the
 *    next tick and the choice agrees (the timer state was chosen), at
 *    any pressure. A choice short of the timer state says an event is
 *    expected first, and the tick is then the safety net that ends a
 *    wrong guess within a tick period, the only one (step 6 acts only at
 *    the next selection). This keeps the tick more often than menu (which
 *    stops it when its predicted idle duration reaches a tick period) and
 *    teo (whenever the next timer is a tick period or more away, unless
 *    most recent wake-ups came before a tick). An earlier version also
 *    stopped it at pressure 512 and above; no measurement ever showed
 *    that buying anything. Where a state's target residency is beyond
 *    the tick (Skylake's C9 and C10 at 5 ms, Haswell's C10 at 7.7 ms,
 *    against a 4 ms tick), a choice of it short of the timer state is cut
 *    to a state that fits before the tick: a cost on those parts, not yet
 *    measured, that stopping the tick for such a choice would avoid.
 *    With no history at all (the governor just became current), the timer state
 *    is chosen but the tick is not stopped: nothing says yet that no
 *    event comes first, and a CPU that then serves only interrupts (an
 *    I/O completion CPU, say) never runs a task to restart its tick:
 *    step 6 would then keep it in the timer state, whatever its history
 *    comes to say. When the tick stays, it will end the period before
 *    the next tick, so the state is limited to those whose target
 *    residency fits that time. A polling state never stops the tick.
 * 6. Tick already stopped: the idle loop does not restart a stopped tick
 *    for a shallow state, so nothing but an event or the next timer, which
 *    can be seconds away, ends the period. A wrong shallow guess then costs
 *    the whole sleep in a state that saves next to nothing, while a wrong
 *    deep guess costs one exit latency. So with the tick stopped, a choice
 *    whose target residency is below a tick period is replaced by the timer
 *    state: the deepest the time to the next timer allows (and the latency
 *    limit, which the timer state respects, still holds).
 */

/**
 * DOC: Latency evidence
 *
 * Shallow idle costs power on every part, and most of the time nothing is
 * waiting for an idle CPU's wake-up: a laptop at idle or playing video
 * wakes for timers and for interrupts whose handling nobody times. Erring
 * shallow there is what the 2025 change to menu did (it bounded the
 * prediction by the longest of a spread history's shorter samples), and
 * every measurement of it found more idle power (up to 5% of battery
 * life). So the 1/8 tolerance of step 3 holds only with evidence that the
 * next wake-up is latency-critical; otherwise a state may be too deep for
 * up to half of the recent periods, as in a majority rule. The evidence
 * is either of:
 *
 * - a task of this CPU waits on I/O: in the package's last sample
 *   (sample_period_ms), the kernel accounted some of the CPU's idle time
 *   as iowait (get_cpu_iowait_time_us()). A synchronous reader at queue
 *   depth 1 is the case: its CPU's idle periods end with the completion
 *   it waits for, and each exit latency adds to every request (the 2025
 *   reports: 35-50% of fio's IOPS on eMMC, SATA and NVMe when menu erred
 *   deep);
 * - a PM QoS CPU latency request is in force (cpuidle_governor_latency_req()
 *   below its default): someone said latency matters, and the states it
 *   leaves are all usable.
 *
 * Why iowait, which menu stopped using (upstream in 6.13)? Its reasons
 * were that a task in iowait need not wake on the CPU it waited on; that
 * iowait says nothing of how long the CPU will be idle, so menu (which
 * capped the exit latency at the predicted length over one plus ten times
 * the number of iowaiters) could stay shallow for long periods; that
 * iowait need not mean a latency cost, and the count of iowaiters does
 * not measure one; and that iowait is defined loosely. Here it never sets
 * a length or a limit: it chooses only how much of the CPU's own history
 * may vote shallow, so a CPU whose waits are long (a disk's milliseconds)
 * keeps its long periods and its deep states under either tolerance, and
 * only a CPU whose recent periods really were short, and which waits on
 * I/O, goes by the stricter one. It is a yes or no, not a count; and it
 * is the tick's own accounting, idle time while a task that slept on this
 * CPU in io_schedule() waits. Where it still fails: the task may be woken
 * on another CPU (this one then errs shallow for nothing, for up to a
 * sample period); nobody may be timing the I/O (a backup's reads get a
 * database's treatment); the evidence lags by up to a sample period; and
 * a latency-critical wake-up that is neither (a network request served
 * from memory) gets the majority rule, teo's, and its latency.
 */

/**
 * DOC: The energy rule
 *
 * A state k costs an entry and exit energy e_k and then draws P_k while
 * the CPU sleeps in it, so a period of length t costs e_k + P_k * t. The
 * kernel defines k's target residency T_k as the length at which k and the
 * next shallower state cost the same (Documentation/admin-guide/pm/
 * cpuidle.rst), so, with dP_k = P_{k-1} - P_k::
 *
 *	E_k(t) - E_{k-1}(t) = dP_k * (T_k - t)
 *
 * and, over the idle lengths the CPU can expect, dP_k * (T_k - E[t]). It
 * is linear in t: only the mean E[t] matters, not the spread; and its
 * sign does not depend on dP_k, which the driver does not tell (intel_idle
 * leaves power_usage at 0): k costs less than k - 1 exactly when
 * E[t] > T_k. The target residencies grow with depth, so the state of
 * least expected energy is the deepest whose target residency is within
 * E[t] (cpuidle_budget_expected_ns(): the mean of min(event, timer) over
 * the history, so never past the timer). Under a binding power limit,
 * every joule an idle CPU saves is frequency for a busy one, so that is
 * the state to pick at full pressure. An example, with Alder Lake-L's
 * states: three periods in four end after 100 us (an interrupt), one in
 * four at its 3 ms timer. E[t] = 0.75 * 100 + 0.25 * 3000 = 825 us, past
 * C10's 700 us target: the energy rule takes C10, where latency-first,
 * seeing three periods in four too short for C6 (500 us), takes C1E, as a
 * majority rule would. In C6 rather than C1E, each short period costs
 * dP_C6 * (500 - 100) us and the long one saves dP_C6 * (3000 - 500) us:
 * 3 * 400 < 2500 (C8 and C10 likewise, with their own dP and T).
 *
 * The price is latency: three wake-ups in four now leave C10 (230 us)
 * instead of C1E (2 us), which latency-first would not pay. The pressure
 * moves between the two objectives: the length weighed is::
 *
 *	L = T_lat + pressure * (E[t] - T_lat)
 *
 * (T_lat the latency-first choice's target residency, pressure of its
 * maximum), and the choice is the deepest state whose break-even is
 * within L. It is never shallower than the latency-first choice: at most
 * one period in eight was too short for that, so E[t] is at least 7/8 of
 * its target residency, and a shallower state would save latency but
 * hardly any energy.
 */

/**
 * DOC: The package term
 *
 * A CPU's depth is worth more when the rest of its package is deep: if
 * every other CPU of the package is idle in a state at least as deep as
 * k, this CPU entering k lets the package into the package C-state k
 * allows, and the uncore then saves dU on top of the core's dP_k. The
 * extra entry and exit energy of k is still dP_k * T_k, so k breaks even
 * after dP_k * T_k / (dP_k + dU) = T_k / (1 + W), W = dU / dP_k. The
 * emulated parts' constants (tests/emul/README.md, estimates) give W of 9
 * (an Alder Lake P-core's C6) to 37 (an E-core's), 26 for Jasper Lake's
 * C3; the rule takes W = 3, far below, because the others may wake before
 * this CPU does, ending the package state early, and the package state's
 * own entry and exit (cache flush, uncore clocks) are not in T_k. The
 * break-even moves from T_k to T_k / 4 in proportion to the pressure
 * (cpuidle_budget_break_even_ns()): at pressure 0 the rule is not used.
 * The glue (main.c) works out how deep the other CPUs are, only under
 * pressure and on packages of at most 17 CPUs (the walk reads a word of
 * each).
 */

/**
 * DOC: Turbo
 *
 * With no power limit near, a joule saved buys nothing, but a core in a
 * shallow state still counts as active for the turbo ratio limits, and
 * when the hardware reports the busy CPUs held below their turbo ratio by
 * the number of active cores in most samples (the turbo share of
 * cpuidle_budget_pressure(), at least half), an idle CPU that power-gates
 * lifts their cap by a bin,
 * d of their frequency. Over an idle period t that is worth d * t of a
 * busy CPU's work; it costs the idle CPU one exit latency L when it wakes.
 * Deeper idle is worth its latency from t > L / d on; with d = 1/16 (an
 * estimate: mobile parts' MSR_TURBO_RATIO_LIMIT steps are 2-7% of the
 * top bin, the emulated parts' 4% (Alder Lake-U) and 7% (Jasper Lake)),
 * the turbo rule accepts a state deeper than latency first if the
 * expected idle length is at least 16 times its exit latency (and its
 * target residency): Alder Lake's C6 from 2.7 ms, Jasper Lake's C3 from
 * 16.8 ms. A CPU on the critical path of a short request-response loop
 * (fio at queue depth 1) never qualifies; a CPU idle between keystrokes
 * does, where latency first might have stayed shallow on a noisy history.
 * The bits do not say whether the active cores that hold the bin are busy
 * ones or idle ones in shallow states; the rule asks only for periods long
 * enough to be worth it either way. The turbo share is not pressure: it
 * neither weighs the mean nor stops the tick.
 *
 * The pressure-0 choice is reported in the statistics and the trace, the
 * *unbiased* state, so that the bias can be seen at work, with the
 * expected idle length the energy rule weighed.
 */

/**
 * DOC: Skipping the timers
 *
 * Finding the next timer event is the most expensive part of a selection.
 * When the history alone already limits the choice to a state so shallow
 * that being wrong costs next to nothing (target residency below 15 us,
 * RESIDENCY_THRESHOLD_NS as menu and teo use it, with a polling state to
 * fall back on), the
 * timers cannot make the choice any deeper and are not consulted: the
 * state is entered with the tick left running. Under pressure the energy
 * rule is worked out as if the timer were infinitely far: a real timer can
 * only lower the expected length, so if even that choice is cheap, the
 * timers would not change it.
 *
 * Such a period's length relative to its timer stays unknown, so it cannot
 * be classified, and it is not recorded at all. Filing it as early would
 * feed the skip its own reason to skip: a CPU whose own timers end most
 * periods short of a deep state's target, and the others long, would see
 * every short one as an early wake-up and never look at the timers again,
 * locked into a shallow state at low pressure. Instead every fifth
 * selection in a row (BUDGET_SKIP_MAX + 1) consults the timers whatever
 * the history says, so the history keeps being fed with periods that can
 * be classified, and it follows the workload at that fraction of the
 * usual rate while skipping. With the tick already stopped there is no
 * skipping (step 6: a wrong guess is not cheap then).
 */

#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "budget.h"

/*
 * RESIDENCY_THRESHOLD_NS, the target residency below which menu and teo
 * find a wrong guess too cheap to look up the next timer for, is in
 * drivers/cpuidle/governors/gov.h, which kernel header packages do not
 * ship: built against one (dkms), the module defines the same value
 * (the Makefile says which).
 */
#ifdef CPUIDLE_BUDGET_HAVE_GOV_H
#include "gov.h"
#else
#define RESIDENCY_THRESHOLD_NS	(15 * NSEC_PER_USEC)
#endif
/* Selections in a row that may skip the timers before one must not. */
#define BUDGET_SKIP_MAX			4

/* The latency-first rule's share of periods a state may be too deep for. */
#define BUDGET_RISK		(BUDGET_WEIGHT_ONE / 8)
/* The same without evidence that latency is at stake: a majority. */
#define BUDGET_RISK_MAJORITY	(BUDGET_WEIGHT_ONE / 2)

/*
 * The package term: a state's break-even shrinks to 1/(1 + W) of its
 * target residency, with W = 3, when the other CPUs of the package are at
 * least as deep (see "The package term").
 */
#define BUDGET_PKG_SHIFT	2

/*
 * The turbo rule: a state is worth its exit latency for the turbo bins
 * from an expected idle length of this many exit latencies on (see
 * "Turbo").
 */
#define BUDGET_TURBO_LATENCY_MULT	16

/*
 * Times to the next timer beyond this are taken as this in the expected
 * idle length: 2^40 ns, 18 minutes, is far past any state's target
 * residency, and keeps weight x time within 64 bits.
 */
#define BUDGET_SLEEP_CAP_NS	((s64)BIT_ULL(40))

/**
 * cpuidle_budget_break_even_ns - the idle length from which a state pays off
 * @target_ns: the state's target residency
 * @pressure: package power pressure, clamped to 0..BUDGET_PRESSURE_MAX
 * @pkg_deep: the package's other CPUs are idle at least as deep
 *
 * Return: @target_ns, or with @pkg_deep, @target_ns moved towards
 * @target_ns / 4 in proportion to @pressure.
 */
s64 cpuidle_budget_break_even_ns(s64 target_ns, unsigned int pressure, bool pkg_deep)
{
	s64 cut;

	if (!pkg_deep)
		return target_ns;
	pressure = min(pressure, BUDGET_PRESSURE_MAX);
	cut = target_ns - (target_ns >> BUDGET_PKG_SHIFT);
	return target_ns - div_s64(cut * pressure, BUDGET_PRESSURE_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_break_even_ns);

/**
 * cpuidle_budget_expected_ns - the expected idle length, given the history
 * @drv: the CPU's cpuidle driver (for the number of states)
 * @hist: the CPU's idle history
 * @sleep_ns: time to the next timer event
 *
 * The mean of min(event, timer) over the recent periods: the early
 * periods of each state's bin count with the bin's mean length, capped by
 * @sleep_ns, any other one with @sleep_ns, since no event came before its
 * own timer (which may have been nearer than this one: the mean leans
 * deep where a CPU's timers vary a lot).
 *
 * Return: the expected length, 0..@sleep_ns; @sleep_ns with no history.
 */
s64 cpuidle_budget_expected_ns(struct cpuidle_driver *drv,
			       const struct budget_history *hist, s64 sleep_ns)
{
	u64 sleep = clamp_t(s64, sleep_ns, 0, BUDGET_SLEEP_CAP_NS);
	u64 sum = 0, early = 0;
	int i;

	if (!hist->total)
		return sleep;
	for (i = 0; i < drv->state_count; i++) {
		sum += hist->early[i] * min_t(u64, hist->early_len_ns[i], sleep) /
		       BUDGET_WEIGHT_ONE;
		early += hist->early[i];
	}
	/* Decayed separately, the bins may add up to a little over the total. */
	if (early < hist->total)
		sum += (hist->total - early) * sleep / BUDGET_WEIGHT_ONE;
	return min(div64_u64(sum * BUDGET_WEIGHT_ONE, hist->total), sleep);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_expected_ns);

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
 * Step 3, the latency-first rule: the deepest usable state, not deeper
 * than @limit, that at most BUDGET_RISK of the recent periods were too
 * short for (BUDGET_RISK_MAJORITY without latency evidence); the first
 * enabled state if none is. The weight of the
 * periods too short for a state only grows with its depth, so those are
 * the states shallower than the history's risk cut, or all of them when
 * there is none (cpuidle_budget_history_update()).
 */
static int budget_latency_pick(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			       const struct budget_history *hist,
			       const struct budget_input *in, int limit)
{
	int cut = in->latency_evidence ? hist->risk_cut : hist->majority_cut;
	int i = cut ? min(limit, cut - 1) : limit;

	for (; i >= 0; i--) {
		if (budget_state_usable(drv, dev, i, in->latency_req_ns))
			return i;
	}
	return budget_first_enabled(drv, dev);
}

/*
 * Step 4, the energy rule under pressure and the turbo rule: from @lat,
 * the latency-first choice, the deepest usable state up to @limit whose
 * break-even is within the idle length the pressure weighs, or which the
 * turbo rule accepts. Fills @out's expected_ns, pkg_deep and turbo_deep;
 * returns the state.
 */
static int budget_energy_pick(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			      const struct budget_history *hist,
			      const struct budget_input *in, int lat, int limit,
			      s64 sleep_ns, struct budget_choice *out)
{
	unsigned int p = min(in->pressure, BUDGET_PRESSURE_MAX);
	bool turbo = in->turbo >= BUDGET_PRESSURE_MAX / 2;
	s64 mean, floor_ns, weighed, target;
	bool deep;
	int i;

	out->expected_ns = 0;
	out->pkg_deep = false;
	out->turbo_deep = false;
	if ((!p && !turbo) || !hist->total)
		return lat;
	mean = cpuidle_budget_expected_ns(drv, hist, sleep_ns);
	out->expected_ns = mean;
	floor_ns = drv->states[lat].target_residency_ns;
	weighed = floor_ns;
	if (mean > floor_ns)
		weighed += div_s64((mean - floor_ns) * p, BUDGET_PRESSURE_MAX);

	for (i = limit; i > lat; i--) {
		if (!budget_state_usable(drv, dev, i, in->latency_req_ns))
			continue;
		target = drv->states[i].target_residency_ns;
		deep = in->pkg_depth_ns >= target;
		if (cpuidle_budget_break_even_ns(target, p, deep) <= weighed) {
			out->pkg_deep = deep && target > weighed;
			return i;
		}
		if (turbo && target <= mean &&
		    drv->states[i].exit_latency_ns * BUDGET_TURBO_LATENCY_MULT <= mean) {
			out->turbo_deep = true;
			return i;
		}
	}
	return lat;
}

/*
 * Step 5 for one choice: may change @state, returns whether to stop.
 * @known: the history has periods (the tick is not stopped on none)
 */
static bool budget_tick(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			const struct budget_input *in, int timer_state,
			bool known, int *state)
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

	stop = known && in->sleep_ns > in->tick_ns && *state == timer_state;
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
 * @in: timer, tick, latency limit, pressure and package depth
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
	int timer_state, state, unbiased;
	s64 sleep_ns = max_t(s64, in->sleep_ns, 0);

	timer_state = budget_deepest_fitting(drv, dev, drv->state_count - 1,
					     in->latency_req_ns, sleep_ns);
	if (timer_state < 0) {
		timer_state = budget_first_enabled(drv, dev);
		state = timer_state;
		unbiased = timer_state;
		out->expected_ns = 0;
		out->pkg_deep = false;
		out->turbo_deep = false;
	} else {
		unbiased = budget_latency_pick(drv, dev, hist, in, timer_state);
		state = budget_energy_pick(drv, dev, hist, in, unbiased,
					   timer_state, sleep_ns, out);
	}

	out->timer_state = timer_state;
	out->stop_tick = budget_tick(drv, dev, in, timer_state, hist->total, &state);
	if ((in->pressure || in->turbo) && in->want_unbiased)
		budget_tick(drv, dev, in, timer_state, hist->total, &unbiased);
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
	/* With the timer as far as can be: a real one can only cut it. */
	unbiased = budget_latency_pick(drv, dev, hist, in, deepest);
	/* The energy rule is never shallower: no need to work it out. */
	if (unbiased == deepest ||
	    drv->states[unbiased].target_residency_ns >= RESIDENCY_THRESHOLD_NS)
		return false;
	state = budget_energy_pick(drv, dev, hist, in, unbiased, deepest,
				   BUDGET_SLEEP_CAP_NS, out);
	if (state == deepest ||
	    drv->states[state].target_residency_ns >= RESIDENCY_THRESHOLD_NS)
		return false;

	out->state = state;
	out->unbiased = in->want_unbiased ? unbiased : state;
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
 * cpuidle_budget_history_reflect - record an idle period as the core reports it
 * @hist: the CPU's history, as cpuidle_budget_history_selected() left it
 * @drv: the CPU's cpuidle driver
 * @index: the state the CPU was in
 * @measured_ns: the core's measure of the period (dev->last_residency_ns)
 * @got_tick: the tick ended the period (tick_nohz_idle_got_tick())
 * @poll_time_limit: dev->poll_time_limit
 *
 * The measure is taken as it is, exit included (see "How long a period
 * was"). Only the polling state sets or clears @poll_time_limit: after
 * any other state it still says how the last polling period ended, and
 * is not looked at.
 *
 * Return: %true if the period counted as early.
 */
bool cpuidle_budget_history_reflect(struct budget_history *hist,
				    struct cpuidle_driver *drv, int index,
				    s64 measured_ns, bool got_tick,
				    bool poll_time_limit)
{
	unsigned int end = 0;

	if (index < 0 || index >= drv->state_count)
		return false;
	if (got_tick)
		end |= BUDGET_END_TICK;
	if ((drv->states[index].flags & CPUIDLE_FLAG_POLLING) && poll_time_limit)
		end |= BUDGET_END_POLL_LIMIT;
	return cpuidle_budget_history_update(hist, drv, max_t(s64, measured_ns, 0), end);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_history_reflect);

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
	u64 allowed, majority, short_weight;
	bool early;
	int i, bin = 0;
	s64 len;

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
	if (early) {
		/*
		 * The bin's mean length: its own average, 1/8 per period; a
		 * bin whose weight has faded below an eighth of a period
		 * starts afresh.
		 */
		len = max_t(s64, residency_ns, 0);
		if (hist->early[bin] >= BUDGET_WEIGHT_ONE / 8)
			len = hist->early_len_ns[bin] + div_s64(len - hist->early_len_ns[bin],
								1 << BUDGET_DECAY_SHIFT);
		hist->early_len_ns[bin] = len;
		hist->early[bin] += BUDGET_WEIGHT_ONE;
	}

	/*
	 * The latency-first rule's bound (step 3), worked out here, once per
	 * recorded period, instead of at every selection, which may be two
	 * (with and without the timers) or, skipping the timers, several per
	 * recorded period.
	 */
	allowed = (u64)BUDGET_RISK * hist->total;
	majority = (u64)BUDGET_RISK_MAJORITY * hist->total;
	short_weight = 0;
	hist->risk_cut = 0;
	hist->majority_cut = 0;
	for (i = 0; i < drv->state_count; i++) {
		if (!hist->risk_cut && short_weight * BUDGET_WEIGHT_ONE > allowed)
			hist->risk_cut = i;
		if (short_weight * BUDGET_WEIGHT_ONE > majority) {
			hist->majority_cut = i;
			break;
		}
		short_weight += hist->early[i];
	}
	return early;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_history_update);
