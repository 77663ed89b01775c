// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the budget governor's power signal arithmetic: the MSR
 * decoding (msr.c), the sampler's differences (signals.c) and the pressure
 * (pressure.c), as the cpuidle_budget_signals suite. Part of the
 * cpuidle_budget_kunit module (policy_kunit.c).
 */

#include <kunit/test.h>
#include <linux/cpuidle_budget.h>
#include <linux/kernel.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>

#include "../budget.h"

static void rapl_units_decoded(struct kunit *test)
{
	struct budget_rapl_units u;

	cpuidle_budget_rapl_decode_units(0x000A0E03, false, &u);
	KUNIT_EXPECT_EQ(test, u.power_shift, 3);	/* 1/8 W */
	KUNIT_EXPECT_EQ(test, u.energy_shift, 14);	/* ~61 uJ */
	KUNIT_EXPECT_EQ(test, u.time_shift, 10);	/* ~977 us */
	KUNIT_EXPECT_FALSE(test, u.atom);
}

/*
 * Bay Trail's 0x505: on Silvermont, power unit 2^5 mW = 32 mW, energy
 * unit 2^5 uJ = 32 uJ, time unit 1/2^0 s = 1 s (intel_rapl_common's
 * rapl_check_unit_atom()). Read as Core units it would be 1/32 W and
 * 1/32 J: about a thousand times too much energy.
 */
static void rapl_units_atom(struct kunit *test)
{
	struct budget_rapl_units u, core;
	struct budget_rapl_limit l;

	cpuidle_budget_rapl_decode_units(0x505, true, &u);
	cpuidle_budget_rapl_decode_units(0x505, false, &core);
	/* 1000 counts: 32,000 uJ on Atom, 1000/32 J = 31,250,000 uJ as Core. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_energy_uj(1000, &u), 32000ULL);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_energy_uj(1000, &core), 31250000ULL);
	/* PL1 100 units (3.2 W), enabled, window 28 units of 1 s. */
	cpuidle_budget_rapl_decode_limit(BIT_ULL(15) | (28ULL << 17) | 100, &u, &l);
	KUNIT_EXPECT_EQ(test, l.pl1_mw, 3200U);
	KUNIT_EXPECT_TRUE(test, l.pl1_enabled);
	KUNIT_EXPECT_EQ(test, l.pl1_window_us, 28000000ULL);
	/* A window field of 0 means one unit. */
	cpuidle_budget_rapl_decode_limit(100, &u, &l);
	KUNIT_EXPECT_EQ(test, l.pl1_window_us, 1000000ULL);
	/* The same limit register as Core units: 100/32 W. */
	cpuidle_budget_rapl_decode_limit(BIT_ULL(15) | 100, &core, &l);
	KUNIT_EXPECT_EQ(test, l.pl1_mw, 3125U);
}

static const struct budget_rapl_units adl_units = {
	.power_shift = 3, .energy_shift = 14, .time_shift = 10,
};

static void rapl_limit_decoded(struct kunit *test)
{
	/* PL1 15 W enabled, window 2^10 * 1/1024 s; PL2 25 W enabled; locked. */
	u64 raw = BIT_ULL(63) | BIT_ULL(47) | (200ULL << 32) |
		  (10ULL << 17) | BIT_ULL(15) | 120;
	struct cpuidle_budget_reading r = {};
	struct budget_rapl_limit l;

	cpuidle_budget_rapl_decode_limit(raw, &adl_units, &l);
	KUNIT_EXPECT_EQ(test, l.pl1_mw, 15000U);
	KUNIT_EXPECT_TRUE(test, l.pl1_enabled);
	KUNIT_EXPECT_EQ(test, l.pl1_window_us, 1000000ULL);
	KUNIT_EXPECT_EQ(test, l.pl2_mw, 25000U);
	KUNIT_EXPECT_TRUE(test, l.pl2_enabled);
	KUNIT_EXPECT_TRUE(test, l.locked);
	cpuidle_budget_rapl_fill_limits(&l, &r);
	KUNIT_EXPECT_EQ(test, r.limit_mw, 15000U);
	KUNIT_EXPECT_EQ(test, r.limit_window_us, 1000000ULL);
	KUNIT_EXPECT_EQ(test, r.short_limit_mw, 25000U);
}

static void rapl_window_with_fraction(struct kunit *test)
{
	/* Y = 3, Z = 2: 2^3 * 1.5 = 12 time units of 1/1024 s. */
	struct budget_rapl_limit l;

	cpuidle_budget_rapl_decode_limit((2ULL << 22) | (3ULL << 17), &adl_units, &l);
	KUNIT_EXPECT_EQ(test, l.pl1_window_us, 12ULL * 1000000 / 1024);
	KUNIT_EXPECT_FALSE(test, l.locked);
}

static void rapl_limit_disabled(struct kunit *test)
{
	struct cpuidle_budget_reading r = {};
	struct budget_rapl_limit l;

	cpuidle_budget_rapl_decode_limit((200ULL << 32) | (10ULL << 17) | 120, &adl_units, &l);
	KUNIT_EXPECT_FALSE(test, l.pl1_enabled);
	KUNIT_EXPECT_FALSE(test, l.pl2_enabled);
	cpuidle_budget_rapl_fill_limits(&l, &r);
	KUNIT_EXPECT_EQ(test, r.limit_mw, 0U);
	KUNIT_EXPECT_EQ(test, r.limit_window_us, 0ULL);
	KUNIT_EXPECT_EQ(test, r.short_limit_mw, 0U);
	/* Only PL2 enforced: it holds at all times, with no known window. */
	cpuidle_budget_rapl_decode_limit(BIT_ULL(47) | (200ULL << 32) | (10ULL << 17) | 120,
					 &adl_units, &l);
	cpuidle_budget_rapl_fill_limits(&l, &r);
	KUNIT_EXPECT_EQ(test, r.limit_mw, 25000U);
	KUNIT_EXPECT_EQ(test, r.limit_window_us, 0ULL);
	KUNIT_EXPECT_EQ(test, r.short_limit_mw, 25000U);
	/* Both enforced, PL2 below PL1: PL2 is the long-term limit too. */
	cpuidle_budget_rapl_decode_limit(BIT_ULL(47) | (40ULL << 32) | BIT_ULL(15) |
					 (10ULL << 17) | 120, &adl_units, &l);
	cpuidle_budget_rapl_fill_limits(&l, &r);
	KUNIT_EXPECT_EQ(test, r.limit_mw, 5000U);
	KUNIT_EXPECT_EQ(test, r.limit_window_us, 1000000ULL);
	KUNIT_EXPECT_EQ(test, r.short_limit_mw, 5000U);
}

static void energy_counter_wraps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cpuidle_budget_counter_delta(0xFFFFFF00, 0x100), 0x200U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_counter_delta(1000, 1000), 0U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_counter_delta(5, 7), 2U);
}

static void rapl_units_to_micro(struct kunit *test)
{
	/* 2^14 energy units of 1/2^14 J: 1 J. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_to_micro(16384, 14), 1000000ULL);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_to_micro(1, 14), 61ULL);
	/* An extended counter far beyond 2^44 units does not overflow. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_to_micro(1ULL << 50, 14), 1000000ULL << 36);
	/* Time units of 1/1024 s. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_rapl_to_micro(1024, 10), 1000000ULL);
}

static void energy_to_power(struct kunit *test)
{
	/* 1 J over 1 s: 1 W. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_power_mw(1000000, 1000000), 1000U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_power_mw(15000, 1000), 15000U);
	/* Saturates rather than wraps... */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_power_mw(1ULL << 50, 1000), U32_MAX);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_power_mw(U64_MAX, 1), U32_MAX);
	/* ...and an empty window has no power. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_power_mw(1000, 0), 0U);
}

static void readings_give_sample(struct kunit *test)
{
	struct cpuidle_budget_reading prev = {
		.valid = CPUIDLE_BUDGET_HAS_ENERGY | CPUIDLE_BUDGET_HAS_THROTTLE,
		.energy_uj = 5000000, .throttled_us = 100,
	};
	struct cpuidle_budget_reading now = {
		.valid = CPUIDLE_BUDGET_HAS_ENERGY | CPUIDLE_BUDGET_HAS_THROTTLE |
			 CPUIDLE_BUDGET_HAS_LIMIT | CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE,
		.energy_uj = 5040000, .throttled_us = 1100, .limit_mw = 9000,
		.limit_window_us = 28000000, .short_limit_mw = 29000,
		.limit_active = true,
	};
	struct budget_sample s = { .busy_cpus = 3 };

	/* 40 mJ in 4 ms: 10 W; throttled 1 ms of 4: 256 of 1024. */
	cpuidle_budget_sample_from_readings(&prev, &now, 4000, &s);
	KUNIT_EXPECT_EQ(test, s.power_mw, 10000U);
	KUNIT_EXPECT_EQ(test, s.throttle, 256U);
	KUNIT_EXPECT_EQ(test, s.limit_mw, 9000U);
	KUNIT_EXPECT_EQ(test, s.window_us, 28000000ULL);
	KUNIT_EXPECT_EQ(test, s.short_limit_mw, 29000U);
	KUNIT_EXPECT_TRUE(test, s.limit_notified);
	/* No turbo status in the reading: not limited. */
	KUNIT_EXPECT_FALSE(test, s.turbo_limited);
	KUNIT_EXPECT_EQ(test, s.busy_cpus, 3U);

	now.valid |= CPUIDLE_BUDGET_HAS_TURBO_LIMIT;
	now.turbo_limited = true;
	now.limit_window_us = 0;
	cpuidle_budget_sample_from_readings(&prev, &now, 4000, &s);
	KUNIT_EXPECT_TRUE(test, s.turbo_limited);
	/* No window given: RAPL's reset value. */
	KUNIT_EXPECT_EQ(test, s.window_us, BUDGET_DEFAULT_WINDOW_US);
}

static void readings_missing_or_backwards(struct kunit *test)
{
	struct cpuidle_budget_reading prev = {
		.valid = CPUIDLE_BUDGET_HAS_LIMIT, .energy_uj = 1,
	};
	struct cpuidle_budget_reading now = {
		.valid = CPUIDLE_BUDGET_HAS_ENERGY | CPUIDLE_BUDGET_HAS_THROTTLE,
		.energy_uj = 900000, .throttled_us = 50, .limit_mw = 7000,
	};
	struct budget_sample s = {};

	/* Energy only in the later reading, no limit in it: no figures. */
	cpuidle_budget_sample_from_readings(&prev, &now, 1000, &s);
	KUNIT_EXPECT_EQ(test, s.power_mw, 0U);
	KUNIT_EXPECT_EQ(test, s.throttle, 0U);
	KUNIT_EXPECT_EQ(test, s.limit_mw, 0U);

	/* A counter that went backwards (source restarted): no figure. */
	prev.valid = now.valid;
	prev.energy_uj = 1000000;
	prev.throttled_us = 60;
	cpuidle_budget_sample_from_readings(&prev, &now, 1000, &s);
	KUNIT_EXPECT_EQ(test, s.power_mw, 0U);
	KUNIT_EXPECT_EQ(test, s.throttle, 0U);

	/* More throttled time than window (a late sample): all of it. */
	prev.energy_uj = 0;
	prev.throttled_us = 0;
	now.throttled_us = 5000;
	cpuidle_budget_sample_from_readings(&prev, &now, 1000, &s);
	KUNIT_EXPECT_EQ(test, s.throttle, 1024U);
	KUNIT_EXPECT_EQ(test, s.power_mw, 900000U);
}

static void ewma_steps(struct kunit *test)
{
	/* A tenth of a 1 s time constant: a tenth of the way. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(0, 1000, 100000, 1000000), 100U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(1000, 0, 100000, 1000000), 900U);
	/* 100 ms of a 28 s window: 4000 * 100 / 28000 = 14.3. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(5000, 9000, 100000, 28000000), 5014U);
	/* A step as long as the time constant, or none: all the way. */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(5000, 9000, 28000000, 28000000), 9000U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(5000, 9000, 1, 0), 9000U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_ewma(U32_MAX, 0, 1, 2), U32_MAX / 2 + 1);
}

static void smoothing_by_window(struct kunit *test)
{
	struct budget_sample prev = {
		.avg_mw = 5000, .avg_us = 28000000, .status_us = 28000000,
	};
	struct budget_sample s = {
		.power_mw = 9000, .window_us = 28000000, .throttle = 1024,
		.limit_notified = true, .turbo_limited = true,
	};

	/*
	 * The power over the window (100 ms of 28 s: 14 of 4000 mW), the
	 * rest over an eighth of it (100 ms of 3.5 s: 1024 / 35 = 29.3).
	 */
	cpuidle_budget_smooth(&prev, &s, 100000, 100000);
	KUNIT_EXPECT_EQ(test, s.avg_mw, 5014U);
	KUNIT_EXPECT_EQ(test, s.throttle_avg, 29U);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 29U);
	KUNIT_EXPECT_EQ(test, s.turbo_avg, 29U);
	KUNIT_EXPECT_EQ(test, s.avg_us, 28100000ULL);

	/*
	 * After a 10 s pause in sampling: the energy and the throttled time
	 * were measured over the 10 s (10 / 28 of the way: +1428 mW; all the
	 * way for the throttling), but a status bit read once still stands
	 * for one period.
	 */
	cpuidle_budget_smooth(&prev, &s, 10000000, 100000);
	KUNIT_EXPECT_EQ(test, s.avg_mw, 6428U);
	KUNIT_EXPECT_EQ(test, s.throttle_avg, 1024U);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 29U);

	/* A 1 s window: the bits average over 8 periods, not 125 ms. */
	s.window_us = 1000000;
	cpuidle_budget_smooth(&prev, &s, 100000, 100000);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 128U);
	KUNIT_EXPECT_EQ(test, s.turbo_avg, 128U);
}

static void smoothing_after_gap(struct kunit *test)
{
	struct budget_sample prev, s = {
		.power_mw = 9000, .window_us = 28000000, .throttle = 1024,
		.limit_notified = true,
	};

	/* The first sample after a gap: every average is its own value. */
	cpuidle_budget_smooth(NULL, &s, 100000, 100000);
	KUNIT_EXPECT_EQ(test, s.avg_mw, 9000U);
	KUNIT_EXPECT_EQ(test, s.throttle_avg, 1024U);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 1024U);
	KUNIT_EXPECT_EQ(test, s.turbo_avg, 0U);
	KUNIT_EXPECT_EQ(test, s.avg_us, 100000ULL);

	/*
	 * Then the plain mean of what was seen, until a time constant has
	 * passed: one window at 9 W and one at 3 W are 6 W, not 9 W less
	 * 1/280 of the difference; three, 5 W.
	 */
	prev = s;
	s.power_mw = 3000;
	s.throttle = 0;
	s.limit_notified = false;
	cpuidle_budget_smooth(&prev, &s, 100000, 100000);
	KUNIT_EXPECT_EQ(test, s.avg_mw, 6000U);
	KUNIT_EXPECT_EQ(test, s.throttle_avg, 512U);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 512U);
	prev = s;
	cpuidle_budget_smooth(&prev, &s, 100000, 100000);
	KUNIT_EXPECT_EQ(test, s.avg_mw, 5000U);
	KUNIT_EXPECT_EQ(test, s.limited_avg, 342U);	/* 512 - 512 / 3 */
}

static void pressure_from_energy_budget(struct kunit *test)
{
	struct budget_sample s = { .limit_mw = 6000 };

	/* Average at 85% of PL1 (870.4 of 1024) or below: no pressure. */
	s.avg_mw = 5100;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
	/* 5550 mW: 947 of 1024, halfway up the ramp: (947 - 870) * 1024 / 154. */
	s.avg_mw = 5550;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 512U);
	s.avg_mw = 6000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 1024U);
	s.avg_mw = 9000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 1024U);
	/* Busy CPUs or none in this window: the budget binds all the same. */
	s.avg_mw = 5550;
	s.busy_cpus = 3;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 512U);
	s.busy_cpus = 0;
	/* The last window alone at the limit, the average below: none. */
	s.avg_mw = 3000;
	s.power_mw = 12000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
}

static void pressure_from_short_limit(struct kunit *test)
{
	struct budget_sample s = { .limit_mw = 6000, .short_limit_mw = 20000,
				   .avg_mw = 3000 };

	/* 18 W of 20: 921 of 1024, (921 - 870) * 1024 / 154 = 339. */
	s.power_mw = 18000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 339U);
	s.power_mw = 20000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 1024U);
}

static void pressure_from_status(struct kunit *test)
{
	struct budget_sample s = { .throttle_avg = 300 };

	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 300U);
	s.limited_avg = 700;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 700U);
	/* Held by the turbo ratio limit: published apart, not pressure. */
	s.turbo_avg = 800;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 700U);
	/* The window's own figures count only through the averages. */
	s = (struct budget_sample){ .throttle = 1024, .limit_notified = true,
				    .turbo_limited = true };
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
}

static void pressure_from_frequency_alone(struct kunit *test)
{
	struct budget_sample s = { .busy_cpus = 1, .freq_known = true, .headroom = 200 };

	/* No limit known: frequency headroom alone is no pressure... */
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
	/* ...unless asked for: twice the headroom, saturating. */
	s.headroom_alone = true;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 400U);
	s.headroom = 700;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 1024U);
	/* Not without frequency invariance. */
	s.freq_known = false;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
	/* Nor with a known limit far away. */
	s.freq_known = true;
	s.limit_mw = 15000;
	s.avg_mw = 2000;
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&s), 0U);
}

/*
 * A laptop's package sampled every 100 ms: Alder Lake-U15's limits (Intel
 * ARK, i7-1255U: 15 W base, 55 W maximum turbo power; PL1's window 28 s,
 * as most laptops program it).
 */
#define LAPTOP_PERIOD_US	100000ULL

static void laptop_sample(struct budget_sample *s)
{
	*s = (struct budget_sample){ .limit_mw = 15000, .short_limit_mw = 55000,
				     .window_us = 28000000 };
}

/*
 * @n samples of @power_mw, the limit bits as @bits, after @prev (whose
 * averages are updated); returns the largest pressure seen.
 */
static unsigned int laptop_run(struct budget_sample *prev, int n, u32 power_mw,
			       bool bits)
{
	unsigned int p, most = 0;
	struct budget_sample s;

	while (n--) {
		laptop_sample(&s);
		s.power_mw = power_mw;
		s.limit_notified = bits;
		cpuidle_budget_smooth(prev->avg_us ? prev : NULL, &s,
				      LAPTOP_PERIOD_US, LAPTOP_PERIOD_US);
		p = cpuidle_budget_pressure_from_sample(&s);
		most = max(most, p);
		*prev = s;
	}
	return most;
}

static void ordinary_turbo_bursts_no_pressure(struct kunit *test)
{
	struct budget_sample prev = {};
	unsigned int most = 0;
	int i;

	/*
	 * Half a minute idle at 2 W, so that the averages have run for a
	 * time constant (before, each is the plain mean of what it has
	 * seen: a first burst alone would be at PL1). Then a minute of
	 * 400 ms bursts at 25 W (two P-cores in turbo, below
	 * 85% of PL2's 55 W: 46.75 W; no limit bit) every second, 2 W
	 * between: 0.4 * 25 + 0.6 * 2 = 11.2 W on average, 75% of PL1.
	 */
	KUNIT_EXPECT_EQ(test, laptop_run(&prev, 300, 2000, false), 0U);
	for (i = 0; i < 60; i++) {
		most = max(most, laptop_run(&prev, 4, 25000, false));
		most = max(most, laptop_run(&prev, 6, 2000, false));
	}
	KUNIT_EXPECT_EQ(test, most, 0U);
	KUNIT_EXPECT_LT(test, prev.avg_mw, 12750U);
}

static void limit_bits_let_go(struct kunit *test)
{
	struct budget_sample prev = {};
	unsigned int during;

	/* Half a minute idle, then one second held at PL2, bits set. */
	KUNIT_EXPECT_EQ(test, laptop_run(&prev, 300, 2000, false), 0U);
	during = laptop_run(&prev, 10, 55000, true);
	KUNIT_EXPECT_EQ(test, during, 1024U);
	/*
	 * The bits' average, over 3.5 s (28 s / 8): 10 steps of 1/35 of the
	 * way up leave 1024 * (1 - (34/35)^10) = 258.6, 253 with each step
	 * rounded down. Back at 2 W, with no bit, it falls by 1/35 a step
	 * (rounded down) to 34 in 86 steps, then by a unit a step: 0 after
	 * 120 steps, 12 s. Where a step of 0 was allowed, it stopped at 34,
	 * and so did the pressure, for good.
	 */
	KUNIT_EXPECT_EQ(test, prev.limited_avg, 253U);
	laptop_run(&prev, 119, 2000, false);
	KUNIT_EXPECT_EQ(test, prev.limited_avg, 1U);
	laptop_run(&prev, 1, 2000, false);
	KUNIT_EXPECT_EQ(test, prev.limited_avg, 0U);
	KUNIT_EXPECT_EQ(test, cpuidle_budget_pressure_from_sample(&prev), 0U);
}

/*
 * The limit-reasons register, a case per model: the address written out
 * here, not taken from msr.c's table (SDM vol. 4; msr-index.h names 0x690
 * MSR_CORE_PERF_LIMIT_REASONS and 0x64F MSR_PERF_LIMIT_REASONS).
 */
struct plr_case {
	const char *name;
	u32 vfm;
	u32 msr;
};

static const struct plr_case plr_cases[] = {
	{ "Haswell", INTEL_HASWELL, 0x690 },
	{ "Haswell-ULT", INTEL_HASWELL_L, 0x690 },
	{ "Haswell-GT3e", INTEL_HASWELL_G, 0x690 },
	{ "Broadwell", INTEL_BROADWELL, 0x690 },
	{ "Broadwell-GT3e", INTEL_BROADWELL_G, 0x690 },
	{ "Skylake-U", INTEL_SKYLAKE_L, 0x64f },
	{ "Skylake-S", INTEL_SKYLAKE, 0x64f },
	{ "Kaby/Coffee/Whiskey Lake-U", INTEL_KABYLAKE_L, 0x64f },
	{ "Kaby/Coffee Lake-S", INTEL_KABYLAKE, 0x64f },
	{ "Comet Lake-S", INTEL_COMETLAKE, 0x64f },
	{ "Comet Lake-U", INTEL_COMETLAKE_L, 0x64f },
	{ "Cannon Lake-U", INTEL_CANNONLAKE_L, 0x64f },
	{ "Ice Lake", INTEL_ICELAKE, 0x64f },
	{ "Ice Lake-U", INTEL_ICELAKE_L, 0x64f },
	{ "Tiger Lake-H", INTEL_TIGERLAKE, 0x64f },
	{ "Tiger Lake-U", INTEL_TIGERLAKE_L, 0x64f },
	{ "Rocket Lake", INTEL_ROCKETLAKE, 0x64f },
	{ "Alder Lake-S", INTEL_ALDERLAKE, 0x64f },
	{ "Alder Lake-P/U", INTEL_ALDERLAKE_L, 0x64f },
	{ "Raptor Lake-S", INTEL_RAPTORLAKE, 0x64f },
	{ "Raptor Lake-P", INTEL_RAPTORLAKE_P, 0x64f },
	{ "Raptor Lake-S (0xBF)", INTEL_RAPTORLAKE_S, 0x64f },
	/* None documented, or not checked: nothing is read. */
	{ "Jasper Lake (Tremont)", INTEL_ATOM_TREMONT_L, 0 },
	{ "Gemini Lake (Goldmont Plus)", INTEL_ATOM_GOLDMONT_PLUS, 0 },
	{ "Ivy Bridge", INTEL_IVYBRIDGE, 0 },
	{ "Skylake-X", INTEL_SKYLAKE_X, 0 },
	{ "Meteor Lake-U/H", INTEL_METEORLAKE_L, 0 },
	{ "AMD Zen 3", VFM_MAKE(X86_VENDOR_AMD, 0x19, 0x21), 0 },
	/* Model 0x3C (Haswell) on another vendor is not Haswell. */
	{ "AMD family 6 model 0x3C", VFM_MAKE(X86_VENDOR_AMD, 6, 0x3c), 0 },
};

static void plr_case_desc(const struct plr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(plr, plr_cases, plr_case_desc);

static void limit_reasons_register(struct kunit *test)
{
	const struct plr_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, cpuidle_budget_limit_reasons_msr(c->vfm), c->msr);
}

static struct kunit_case budget_signal_cases[] = {
	KUNIT_CASE(rapl_units_decoded),
	KUNIT_CASE(rapl_units_atom),
	KUNIT_CASE(rapl_limit_decoded),
	KUNIT_CASE(rapl_window_with_fraction),
	KUNIT_CASE(rapl_limit_disabled),
	KUNIT_CASE(energy_counter_wraps),
	KUNIT_CASE(rapl_units_to_micro),
	KUNIT_CASE(energy_to_power),
	KUNIT_CASE(readings_give_sample),
	KUNIT_CASE(readings_missing_or_backwards),
	KUNIT_CASE(ewma_steps),
	KUNIT_CASE(smoothing_by_window),
	KUNIT_CASE(smoothing_after_gap),
	KUNIT_CASE(pressure_from_energy_budget),
	KUNIT_CASE(pressure_from_short_limit),
	KUNIT_CASE(pressure_from_status),
	KUNIT_CASE(pressure_from_frequency_alone),
	KUNIT_CASE(ordinary_turbo_bursts_no_pressure),
	KUNIT_CASE(limit_bits_let_go),
	KUNIT_CASE_PARAM(limit_reasons_register, plr_gen_params),
	{}
};

static struct kunit_suite budget_signal_suite = {
	.name = "cpuidle_budget_signals",
	.test_cases = budget_signal_cases,
};

kunit_test_suite(budget_signal_suite);
