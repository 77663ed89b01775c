// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the budget governor's idle state selection (policy.c):
 * the cpuidle_budget_policy suite. Each case builds a made-up driver (the
 * idle states of Alder Lake-L, in places with extra deep states) and
 * history, and asserts the exact state chosen and the tick decision.
 *
 * Built with signals_kunit.c into one module, cpuidle_budget_kunit, which
 * this file describes.
 */

#include <kunit/test.h>
#include <linux/cpuidle.h>
#include <linux/cpuidle_budget.h>
#include <linux/slab.h>

#include "../budget.h"

#define US	NSEC_PER_USEC
#define MS	NSEC_PER_MSEC

enum { POLL, C1, C1E, C6, C8, C10, DEEP5, DEEP8 };

struct budget_fixture {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	struct budget_history hist;
	struct budget_input in;
	struct budget_choice out;
};

static void add_state(struct cpuidle_driver *drv, const char *name,
		      s64 exit_ns, s64 target_ns, unsigned int flags)
{
	struct cpuidle_state *s = &drv->states[drv->state_count++];

	strscpy(s->name, name, sizeof(s->name));
	s->exit_latency_ns = exit_ns;
	s->target_residency_ns = target_ns;
	s->flags = flags;
}

/* ADL-L states (intel_idle's adl_l_cstates), and optionally two deeper. */
static struct budget_fixture *fixture(struct kunit *test, bool deep)
{
	struct budget_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	add_state(&f->drv, "POLL", 0, 0, CPUIDLE_FLAG_POLLING);
	add_state(&f->drv, "C1", 1 * US, 1 * US, 0);
	add_state(&f->drv, "C1E", 2 * US, 4 * US, 0);
	add_state(&f->drv, "C6", 170 * US, 500 * US, 0);
	add_state(&f->drv, "C8", 200 * US, 600 * US, 0);
	add_state(&f->drv, "C10", 230 * US, 700 * US, 0);
	if (deep) {
		add_state(&f->drv, "DEEP5", 1 * MS, 5 * MS, 0);
		add_state(&f->drv, "DEEP8", 2 * MS, 8 * MS, 0);
	}
	f->in.latency_req_ns = S64_MAX;
	/* Latency first, the 1/8 tolerance, unless a case says otherwise. */
	f->in.latency_evidence = true;
	f->in.sleep_ns = 10 * MS;
	f->in.tick_ns = 4 * MS;
	return f;
}

static void choose(struct budget_fixture *f)
{
	cpuidle_budget_select_state(&f->drv, &f->dev, &f->hist, &f->in, &f->out);
}

/* Feed @n idle periods that slept for @sleep_ns and lasted @residency_ns. */
static void feed(struct budget_fixture *f, int n, s64 sleep_ns,
		 s64 residency_ns, bool tick_kept, bool tick_wakeup)
{
	while (n--) {
		f->hist.sleep_ns = sleep_ns;
		f->hist.tick_kept = tick_kept;
		cpuidle_budget_history_update(&f->hist, &f->drv, residency_ns,
					      tick_wakeup ? BUDGET_END_TICK : 0);
	}
}

#define TICK_PERIOD_NS	(4 * MS)	/* HZ=250, as Debian builds it */
#define NO_EVENT	S64_MAX

/*
 * One idle period the way main.c runs it: select (skipping the timers when
 * the history allows), remember the selection, then record how the period
 * ended: at the timer @timer_ns away, at an event @event_ns away, or at
 * the tick if the selection kept it and it came first. Returns the state.
 */
static int run_period(struct budget_fixture *f, s64 timer_ns, s64 event_ns)
{
	bool got_tick = false;
	s64 residency_ns;

	f->in.sleep_ns = timer_ns;
	f->in.tick_ns = min(timer_ns, TICK_PERIOD_NS);
	if (!cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist, &f->in, &f->out))
		cpuidle_budget_select_state(&f->drv, &f->dev, &f->hist, &f->in, &f->out);
	cpuidle_budget_history_selected(&f->hist, &f->in, &f->out);
	residency_ns = min(timer_ns, event_ns);
	if (f->hist.tick_kept && TICK_PERIOD_NS < residency_ns) {
		residency_ns = TICK_PERIOD_NS;
		got_tick = true;
	}
	cpuidle_budget_history_reflect(&f->hist, &f->drv, f->out.state,
				       residency_ns, got_tick, false);
	return f->out.state;
}

static void timer_picks_deepest_fitting(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->in.sleep_ns = 650 * US;
	f->in.tick_ns = 650 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C8);
	KUNIT_EXPECT_EQ(test, f->out.timer_state, C8);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);	/* timer before tick */
	KUNIT_EXPECT_EQ(test, f->out.predicted_ns, 650 * US);
}

static void latency_limit_respected(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->in.latency_req_ns = 180 * US;	/* C6 exits in 170, C8 in 200 */
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C6);
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C6);
}

static void latency_limit_holds_under_pressure(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->in.latency_req_ns = 100 * US;
	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
}

static void zero_latency_limit_polls(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->in.latency_req_ns = 0;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, POLL);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
}

static void disabled_states_skipped(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->dev.states_usage[C10].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	f->dev.states_usage[C8].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C6);
}

static void only_enabled_state_used(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i;

	for (i = 0; i < f->drv.state_count; i++)
		f->dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	f->dev.states_usage[C1E].disable = 0;
	f->in.sleep_ns = 0;			/* too short even for C1E */
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
}

static void first_enabled_when_nothing_fits(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->dev.states_usage[POLL].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	f->in.sleep_ns = -5 * US;		/* event already due */
	f->in.tick_ns = 0;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
}

static void polling_never_stops_tick(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->in.sleep_ns = 500;			/* below C1's 1 us target */
	f->in.tick_ns = 500;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, POLL);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
}

static void long_sleep_stops_tick(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	/* No history yet: the timer state, the tick kept running. */
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);

	/* Periods that ran to their timers: now it is stopped. */
	feed(f, 4, 10 * MS, 10 * MS, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);
}

static void tick_already_stopped(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, true);

	f->in.tick_stopped = true;
	f->in.sleep_ns = 20 * MS;
	f->in.tick_ns = 20 * MS;
	/* Early periods that rule out DEEP8 but not DEEP5. */
	feed(f, 20, 20 * MS, 6 * MS, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, DEEP5);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);
}

/*
 * With the tick stopped, a history that says "shallow" must not leave the
 * CPU in C1E until a timer a second away: the timer state is taken.
 */
static void stopped_tick_never_shallow(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 30 * US, false, false);	/* busy: C1E */
	f->in.tick_stopped = true;
	f->in.sleep_ns = 1000 * MS;
	f->in.tick_ns = 1000 * MS;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);

	/* The latency limit still holds: C1E is all that fits 100 us. */
	f->in.latency_req_ns = 100 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);

	/* A timer 300 us away: C1E is the timer state, nothing deeper fits. */
	f->in.latency_req_ns = S64_MAX;
	f->in.sleep_ns = 300 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
}

/* The same history on the skip path: with the tick stopped, no skipping. */
static void stopped_tick_consults_timers(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 30 * US, false, false);
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								     &f->in, &f->out));
	f->in.tick_stopped = true;
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								      &f->in, &f->out));
}

static void kept_tick_limits_state(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, true);

	/* History rules DEEP8 out; DEEP5 needs 5 ms, the tick comes in 4. */
	feed(f, 20, 10 * MS, 6 * MS, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.timer_state, DEEP8);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
}

static void pressure_leaves_tick_to_choice(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, true);

	feed(f, 20, 10 * MS, 6 * MS, false, false);
	f->in.pressure = BUDGET_PRESSURE_MAX / 2;
	f->in.want_unbiased = true;
	choose(f);
	/*
	 * Early periods all end at 6 ms: latency first takes DEEP5; at
	 * pressure 512 the length weighed is 5 + (6 - 5) / 2 = 5.5 ms, short
	 * of DEEP8, the timer state: DEEP5 again. An event is expected
	 * before the timer, so the tick stays, as at pressure 0, and limits
	 * the state to those that fit the 4 ms to it: C10.
	 */
	KUNIT_EXPECT_EQ(test, f->out.timer_state, DEEP8);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C10);
	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
}

static void break_even_with_package(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cpuidle_budget_break_even_ns(500 * US, BUDGET_PRESSURE_MAX, false),
			500 * US);
	/* The rest of the package deep: T / (1 + 3) at full pressure... */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_break_even_ns(500 * US, BUDGET_PRESSURE_MAX, true),
			125 * US);
	/* ...500 - 375 / 2 at half, and T itself at none. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_break_even_ns(500 * US, 512, true), 312500LL);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_break_even_ns(500 * US, 0, true), 500 * US);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_break_even_ns(500 * US, 100000, true), 125 * US);
}

static void expected_idle_worked_by_hand(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	KUNIT_EXPECT_EQ(test, cpuidle_budget_expected_ns(&f->drv, &f->hist, 3 * MS), 3 * MS);
	/*
	 * One early period of 100 us, then one to its 3 ms timer: weights
	 * 7/8 and 1, (0.875 * 100 + 3000) / 1.875 = 1646.67 us.
	 */
	feed(f, 1, 3 * MS, 100 * US, false, false);
	feed(f, 1, 3 * MS, 3 * MS, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.total, 1920U);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1E], 896U);
	KUNIT_EXPECT_EQ(test, f->hist.early_len_ns[C1E], 100 * US);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_expected_ns(&f->drv, &f->hist, 3 * MS), 1646666LL);
	/* A nearer timer caps both: (0.875 * 100 + 1000) / 1.875 = 580 us. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_expected_ns(&f->drv, &f->hist, 1 * MS), 580000LL);
	/* Nearer than the early period itself: the timer. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_expected_ns(&f->drv, &f->hist, 50 * US), 50 * US);
	/* No timer at all: capped, not overflowing. */
	KUNIT_EXPECT_GT(test, cpuidle_budget_expected_ns(&f->drv, &f->hist, S64_MAX), 1000 * MS);
}

/*
 * The example of policy.c's header: three periods in four end after
 * 100 us, one in four at its 3 ms timer. Latency first takes C1E; the
 * energy rule, the deepest state whose target is within the mean, C10.
 */
static void energy_rule_goes_past_majority(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	s64 mean;
	int i;

	for (i = 0; i < 10; i++) {
		feed(f, 3, 3 * MS, 100 * US, false, false);
		feed(f, 1, 3 * MS, 3 * MS, false, false);
	}
	f->in.sleep_ns = 3 * MS;
	f->in.want_unbiased = true;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_EQ(test, f->out.expected_ns, 0LL);	/* no pressure: not worked out */

	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	mean = f->out.expected_ns;
	/* The last of each four weighs most: between 825 us and 1 ms. */
	KUNIT_EXPECT_GE(test, mean, 825 * US);
	KUNIT_EXPECT_LE(test, mean, 1000 * US);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C1E);
	KUNIT_EXPECT_FALSE(test, f->out.pkg_deep);

	/*
	 * At a quarter of the pressure the length weighed is 4 us plus a
	 * quarter of the way to the mean, at most 253 us: short of C6.
	 */
	f->in.pressure = BUDGET_PRESSURE_MAX / 4;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);

	/*
	 * Never past the timer: 650 us away, it allows C8 at most. With the
	 * package term, C10 would break even at 175 us, within the mean
	 * capped by the timer (about 0.3 * 650 + 0.7 * 100 = 265 us).
	 */
	f->in.pressure = BUDGET_PRESSURE_MAX;
	f->in.pkg_depth_ns = S64_MAX;
	f->in.sleep_ns = 650 * US;
	f->in.tick_ns = 650 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.timer_state, C8);
	KUNIT_EXPECT_EQ(test, f->out.state, C8);
	KUNIT_EXPECT_GE(test, f->out.expected_ns, 175 * US);
	KUNIT_EXPECT_LE(test, f->out.expected_ns, 650 * US);
}

/* A mean short of C6 (300 us): the package term decides. */
static void package_term_lowers_break_even(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 300 * US, false, false);
	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);

	/* Every other CPU in C10 (or alone): C10 breaks even at 175 us. */
	f->in.pkg_depth_ns = 700 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.pkg_deep);
	f->in.pkg_depth_ns = S64_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);

	/* The shallowest of them in C6: C6 at 125 us, C8 still at 600. */
	f->in.pkg_depth_ns = 500 * US;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C6);
	KUNIT_EXPECT_TRUE(test, f->out.pkg_deep);

	/* One of them running: no package state to gain. */
	f->in.pkg_depth_ns = 0;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);

	/*
	 * At half pressure the length weighed is 4 + (300 - 4) / 2 = 152 us,
	 * and C6 breaks even at 312.5 us.
	 */
	f->in.pkg_depth_ns = 700 * US;
	f->in.pressure = BUDGET_PRESSURE_MAX / 2;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	/* And at none, the rule is not used. */
	f->in.pressure = 0;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_FALSE(test, f->out.pkg_deep);
}

/*
 * The turbo rule, at pressure 0: one period in four ends 100 us in, the
 * rest at their 10 ms timer. Latency first stays in C1E; held by the
 * turbo bins in most samples, the mean (about 7 ms) is past 16 exit
 * latencies of C10 (3.68 ms), so C10 is worth its latency.
 */
static void turbo_rule_pays_for_long_periods(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i;

	for (i = 0; i < 10; i++) {
		feed(f, 1, 10 * MS, 100 * US, false, false);
		feed(f, 3, 10 * MS, 10 * MS, false, false);
	}
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);

	f->in.turbo = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.turbo_deep);
	KUNIT_EXPECT_GE(test, f->out.expected_ns, 16 * 230 * US);

	/* Held in fewer than half the samples: latency first. */
	f->in.turbo = BUDGET_PRESSURE_MAX / 2 - 1;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_FALSE(test, f->out.turbo_deep);
}

/*
 * A request-response loop (fio at queue depth 1): every period ends
 * 400 us in. C6's 170 us exit latency would need 2.72 ms periods: the
 * turbo rule leaves the CPU in C1E, however long the bins hold.
 */
/*
 * The turbo share alone, at pressure 0, still has the unbiased choice
 * worked out: the turbo rule changed the state, and the trace and the
 * statistics must show it (they showed the turbo rule's state as the
 * unbiased one while the pressure was 0).
 */
static void turbo_rule_reports_unbiased(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i;

	/* One period in four ends after 100 us, the others at a 10 ms timer. */
	for (i = 0; i < 8; i++) {
		feed(f, 1, 10 * MS, 100 * US, false, false);
		feed(f, 3, 10 * MS, 10 * MS, false, false);
	}
	f->in.turbo = BUDGET_PRESSURE_MAX;
	f->in.want_unbiased = true;
	choose(f);
	/*
	 * A quarter too short for C6 (over 1/8): latency first takes C1E.
	 * The expected length is 0.25 x 0.1 + 0.75 x 10 = 7.5 ms, past 16
	 * exit latencies of C10 (3.68 ms): the turbo rule takes C10, the
	 * timer state, and stops the tick.
	 */
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.turbo_deep);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C1E);
}

static void turbo_rule_spares_short_periods(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 400 * US, false, false);
	f->in.turbo = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_FALSE(test, f->out.turbo_deep);
	/* 400 us, less the decay's rounding (399.843 us). */
	KUNIT_EXPECT_GE(test, f->out.expected_ns, 399 * US);
	KUNIT_EXPECT_LE(test, f->out.expected_ns, 400 * US);
}

/*
 * Under pressure the timers may be skipped only if the choice with no
 * timer at all is cheap: a history of 2 us wake-ups is; one with a long
 * period in it is not, because the energy rule would go deep on it.
 */
static void skipping_under_pressure(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 2 * US, false, false);
	f->in.pressure = BUDGET_PRESSURE_MAX;
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								     &f->in, &f->out));
	KUNIT_EXPECT_EQ(test, f->out.state, C1);

	feed(f, 1, 10 * MS, 10 * MS, false, false);
	feed(f, 7, 10 * MS, 2 * US, false, false);
	f->in.pressure = 0;
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								     &f->in, &f->out));
	f->in.pressure = BUDGET_PRESSURE_MAX;
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								      &f->in, &f->out));
}

/*
 * 3 early wake-ups at 300 us in 10: too many for C6 latency first; at
 * 1024 the energy rule weighs the mean, about 7 ms, and takes C10.
 */
static void pressure_accepts_uncertain_deep_state(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i;

	for (i = 0; i < 10; i++) {
		if (i % 3 == 1)
			feed(f, 1, 10 * MS, 300 * US, false, false);
		else
			feed(f, 1, 10 * MS, 10 * MS, false, false);
	}
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_EQ(test, f->out.predicted_ns, 500 * US);

	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	/* Nobody asked for the unbiased choice: it is not computed. */
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C10);

	f->in.want_unbiased = true;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_EQ(test, f->out.unbiased, C1E);
}

/*
 * A nearly idle CPU woken only by the tick it kept running: those periods
 * are not early, so they must not pull the choice below the timer state.
 * Were they counted as early (the last half of the case), the tick period
 * would rule DEEP5 and DEEP8 out.
 */
static void tick_wakeups_do_not_vote_shallow(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, true);

	f->in.sleep_ns = 1000 * MS;
	feed(f, 50, 1000 * MS, 4 * MS, true, true);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, DEEP8);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);

	cpuidle_budget_history_reset(&f->hist);
	feed(f, 50, 1000 * MS, 4 * MS, true, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
}

/* Noisy early wake-ups that all reach C10's target: nothing is discarded. */
static void noisy_intervals_keep_their_information(struct kunit *test)
{
	static const s64 noisy_us[] = { 800, 2900, 1100, 750, 2400, 900, 3000, 1700 };
	struct budget_fixture *f = fixture(test, false);
	int i;

	for (i = 0; i < 40; i++)
		feed(f, 1, 10 * MS, noisy_us[i % ARRAY_SIZE(noisy_us)] * US,
		     false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
}

/* A busy CPU, woken every few tens of us: shallow, even under pressure. */
static void busy_cpu_stays_shallow(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 30 * US, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	f->in.pressure = BUDGET_PRESSURE_MAX;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
}

static void history_fades(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 30 * US, false, false);
	feed(f, 40, 10 * MS, 10 * MS, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
}

/*
 * The latency-first bound is kept as each period is recorded: one early
 * period in eight (1024 of a full history's 8192, reached after 57
 * periods in integer arithmetic) is still allowed, a
 * second is not, and it takes five more timer periods for the two to
 * fade below an eighth: 1920 decays to 1680, 1470, 1287, 1127, 987.
 */
/*
 * Without latency evidence (no task in iowait, no PM QoS request) the
 * history votes shallow only by a majority, as teo's does. Two early
 * periods of 100 us in a full history of 10 ms timer periods (1920 of
 * 8192, 23%) rule out C6 and deeper under the 1/8 tolerance, not under
 * a half: C1E with evidence, C10 (the timer state) without. Early
 * periods then add 1024 after each 1/8 decay: 1920, 2704, 3390, 3991,
 * 4517; the fourth more is past half of 8192 (4096), and without
 * evidence too the choice is C1E.
 */
static void majority_without_evidence(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 60, 10 * MS, 10 * MS, false, false);
	feed(f, 2, 10 * MS, 100 * US, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1E], 1920U);
	KUNIT_EXPECT_EQ(test, f->hist.risk_cut, C6);
	KUNIT_EXPECT_EQ(test, f->hist.majority_cut, 0);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	f->in.latency_evidence = false;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	KUNIT_EXPECT_TRUE(test, f->out.stop_tick);

	feed(f, 3, 10 * MS, 100 * US, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1E], 3991U);
	KUNIT_EXPECT_EQ(test, f->hist.majority_cut, 0);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	feed(f, 1, 10 * MS, 100 * US, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1E], 4517U);
	KUNIT_EXPECT_EQ(test, f->hist.majority_cut, C6);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	/* The history's verdict without the timers too. */
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev,
								     &f->hist, &f->in,
								     &f->out));
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	cpuidle_budget_history_reset(&f->hist);
	KUNIT_EXPECT_EQ(test, f->hist.majority_cut, 0);
}

static void risk_cut_follows_history(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 60, 10 * MS, 10 * MS, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.total, 8192U);
	KUNIT_EXPECT_EQ(test, f->hist.risk_cut, 0);
	feed(f, 1, 10 * MS, 100 * US, false, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	feed(f, 1, 10 * MS, 100 * US, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.risk_cut, C6);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	/* The cut bounds the walk; disabled states below it are passed. */
	f->dev.states_usage[C1E].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1);
	f->dev.states_usage[C1E].disable = 0;
	feed(f, 4, 10 * MS, 10 * MS, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1E], 1127U);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	feed(f, 1, 10 * MS, 10 * MS, false, false);
	KUNIT_EXPECT_EQ(test, f->hist.risk_cut, 0);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C10);
	cpuidle_budget_history_reset(&f->hist);
	KUNIT_EXPECT_EQ(test, f->hist.risk_cut, 0);
}

static void early_wakeup_classification(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	f->hist.sleep_ns = 800 * US;
	f->hist.tick_kept = false;
	/* 7/8 of 800 us is 700 us. */
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_history_update(&f->hist, &f->drv, 699 * US, 0));
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_history_update(&f->hist, &f->drv, 700 * US, 0));
	f->hist.tick_kept = true;
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_history_update(&f->hist, &f->drv, 100 * US,
							       BUDGET_END_TICK));
	KUNIT_EXPECT_TRUE(test, cpuidle_budget_history_update(&f->hist, &f->drv, 100 * US, 0));
	/* A poll that hit its time limit was not ended by an event. */
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_history_update(&f->hist, &f->drv, 100 * US,
							       BUDGET_END_POLL_LIMIT));
	/* Filed under the deepest state the period reached: 699 us -> C8. */
	cpuidle_budget_history_reset(&f->hist);
	f->hist.sleep_ns = 800 * US;
	cpuidle_budget_history_update(&f->hist, &f->drv, 699 * US, 0);
	KUNIT_EXPECT_EQ(test, f->hist.early[C8], (u32)BUDGET_WEIGHT_ONE);
	KUNIT_EXPECT_EQ(test, f->hist.total, (u32)BUDGET_WEIGHT_ONE);
}

/*
 * @n periods ended by an event, measured at @measured_ns in state @index
 * by the core, each after a selection that slept for 10 ms with the tick
 * stopped; @poll_limit as the core's poll_time_limit reads meanwhile.
 */
static void reflect_n(struct budget_fixture *f, int n, int index,
		      s64 measured_ns, bool poll_limit)
{
	while (n--) {
		f->hist.sleep_ns = 10 * MS;
		f->hist.tick_kept = false;
		cpuidle_budget_history_reflect(&f->hist, &f->drv, index,
					       measured_ns, false, poll_limit);
	}
}

static void polling_edge_from_exit(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	bool early;

	/*
	 * A CPU woken from C1E (2 us worst-case exit) after 1.5 us by the
	 * core's measure, every time, with latency evidence: 1.5 us reached
	 * C1's 1 us target, so C1 it is. Less the worst-case exit, it was 0,
	 * short of C1, and the CPU polled.
	 */
	reflect_n(f, 20, C1E, 1500, false);
	KUNIT_EXPECT_EQ(test, f->hist.early[C1], (u32)f->hist.total);
	KUNIT_EXPECT_EQ(test, f->hist.early[POLL], 0U);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1);
	/* Below C1's target, polling is what the measure says. */
	reflect_n(f, 20, C1, 800, false);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, POLL);
	/* The core's measure is never negative, but a bad one is no harm. */
	early = cpuidle_budget_history_reflect(&f->hist, &f->drv, C1, -5, false, false);
	KUNIT_EXPECT_TRUE(test, early);
	early = cpuidle_budget_history_reflect(&f->hist, &f->drv, f->drv.state_count,
					       5, false, false);
	KUNIT_EXPECT_FALSE(test, early);
}

static void stale_poll_limit_ignored(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	bool early;

	/* A poll that ran into its time limit: not an early wake-up. */
	f->hist.sleep_ns = 10 * MS;
	early = cpuidle_budget_history_reflect(&f->hist, &f->drv, POLL, 50 * US, false, true);
	KUNIT_EXPECT_FALSE(test, early);
	/*
	 * Then C6 periods ended by an event after 100 us, while the core's
	 * flag still says how that poll ended: each is early, and the
	 * history brings the CPU to C1E. Taking the stale flag at its word
	 * made every one "not early", and the CPU stayed in C10, its timer
	 * state, for good.
	 */
	reflect_n(f, 20, C6, 100 * US, true);
	KUNIT_EXPECT_GT(test, f->hist.early[C1E], f->hist.total - f->hist.total / 8);
	choose(f);
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_EQ(test, f->out.timer_state, C10);
}

/* A busy CPU's history: the timers need not be looked at. */
static void shallow_history_skips_timers(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	feed(f, 30, 10 * MS, 30 * US, false, false);
	KUNIT_ASSERT_TRUE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								     &f->in, &f->out));
	KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	KUNIT_EXPECT_FALSE(test, f->out.stop_tick);
	KUNIT_EXPECT_EQ(test, f->out.predicted_ns, 500 * US);
}

/* No history, a history that allows deep states, or no polling state. */
static void timers_consulted_otherwise(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);

	KUNIT_EXPECT_FALSE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								      &f->in, &f->out));
	feed(f, 30, 10 * MS, 10 * MS, false, false);
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								      &f->in, &f->out));
	cpuidle_budget_history_reset(&f->hist);
	feed(f, 30, 10 * MS, 30 * US, false, false);
	f->drv.states[0].flags = 0;
	KUNIT_EXPECT_FALSE(test, cpuidle_budget_select_without_timers(&f->drv, &f->dev, &f->hist,
								      &f->in, &f->out));
}

/*
 * The skip-timers lock-in. After 30 busy periods (events 30 us in) the
 * history skips the timers. Then the events stop, and the CPU's own
 * timers alternate between 300 us (C1E is all that fits) and 5 ms (C10
 * fits). Were the skipped periods filed as early (their timer unknown),
 * every 300 us one would count against C6 and deeper: half of all
 * periods, four times the 1/8 latency first allows, and the CPU would
 * stay in C1E through the 5 ms periods for good. Not recording them, and
 * consulting the timers every fifth selection, the history sees the
 * 300 us periods as timer-ended; the 30 us ones fade by 7/8 per recorded
 * period, below 1/8 after 16 (7/8^16 = 0.118), about 80 periods in.
 * After 200 periods every 5 ms timer must get C10.
 */
static void skipped_periods_do_not_lock_in(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i, deep = 0, skipped = 0;

	for (i = 0; i < 30; i++) {
		run_period(f, 10 * MS, 30 * US);
		skipped += f->out.timer_state < 0;
	}
	/* The premise: the busy history does skip the timers. */
	KUNIT_ASSERT_GT(test, skipped, 0);
	for (i = 0; i < 200; i++)
		run_period(f, i % 2 ? 5 * MS : 300 * US, NO_EVENT);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, run_period(f, 300 * US, NO_EVENT), C1E);
		deep += run_period(f, 5 * MS, NO_EVENT) == C10;
	}
	KUNIT_EXPECT_EQ(test, deep, 10);
}

/* While the events go on, the skip goes on: 4 selections in 5 skip. */
static void skipping_consults_timers_regularly(struct kunit *test)
{
	struct budget_fixture *f = fixture(test, false);
	int i, skipped = 0;

	for (i = 0; i < 30; i++)
		run_period(f, 10 * MS, 30 * US);
	for (i = 0; i < 50; i++) {
		run_period(f, 10 * MS, 30 * US);
		skipped += f->out.timer_state < 0;
		KUNIT_EXPECT_EQ(test, f->out.state, C1E);
	}
	KUNIT_EXPECT_EQ(test, skipped, 40);
}

static struct kunit_case budget_policy_cases[] = {
	KUNIT_CASE(timer_picks_deepest_fitting),
	KUNIT_CASE(latency_limit_respected),
	KUNIT_CASE(latency_limit_holds_under_pressure),
	KUNIT_CASE(zero_latency_limit_polls),
	KUNIT_CASE(disabled_states_skipped),
	KUNIT_CASE(only_enabled_state_used),
	KUNIT_CASE(first_enabled_when_nothing_fits),
	KUNIT_CASE(polling_never_stops_tick),
	KUNIT_CASE(long_sleep_stops_tick),
	KUNIT_CASE(tick_already_stopped),
	KUNIT_CASE(stopped_tick_never_shallow),
	KUNIT_CASE(stopped_tick_consults_timers),
	KUNIT_CASE(kept_tick_limits_state),
	KUNIT_CASE(pressure_leaves_tick_to_choice),
	KUNIT_CASE(break_even_with_package),
	KUNIT_CASE(expected_idle_worked_by_hand),
	KUNIT_CASE(energy_rule_goes_past_majority),
	KUNIT_CASE(package_term_lowers_break_even),
	KUNIT_CASE(skipping_under_pressure),
	KUNIT_CASE(turbo_rule_pays_for_long_periods),
	KUNIT_CASE(turbo_rule_spares_short_periods),
	KUNIT_CASE(turbo_rule_reports_unbiased),
	KUNIT_CASE(pressure_accepts_uncertain_deep_state),
	KUNIT_CASE(tick_wakeups_do_not_vote_shallow),
	KUNIT_CASE(noisy_intervals_keep_their_information),
	KUNIT_CASE(busy_cpu_stays_shallow),
	KUNIT_CASE(history_fades),
	KUNIT_CASE(risk_cut_follows_history),
	KUNIT_CASE(majority_without_evidence),
	KUNIT_CASE(early_wakeup_classification),
	KUNIT_CASE(polling_edge_from_exit),
	KUNIT_CASE(stale_poll_limit_ignored),
	KUNIT_CASE(shallow_history_skips_timers),
	KUNIT_CASE(timers_consulted_otherwise),
	KUNIT_CASE(skipped_periods_do_not_lock_in),
	KUNIT_CASE(skipping_consults_timers_regularly),
	{}
};

static struct kunit_suite budget_policy_suite = {
	.name = "cpuidle_budget_policy",
	.test_cases = budget_policy_cases,
};

kunit_test_suite(budget_policy_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the budget cpuidle governor");
MODULE_LICENSE("GPL");
