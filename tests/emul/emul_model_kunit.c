// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the emulated platform's power model arithmetic
 * (emul_model.c) with its default constants. The expected values are
 * worked out by hand from the formulas at the top of emul_model.c.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "emul.h"

#define MS	1000000ULL	/* one millisecond, in ns */

static const struct emul_pkg_model *m = &emul_default_model;

static void voltage_flat_then_linear(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_voltage_mv(m, EMUL_P_CORE, EMUL_SCALE), 1250U);
	/* 372/1024 of 4400 MHz is 1598 MHz: below the 1600 MHz knee. */
	KUNIT_EXPECT_EQ(test, emul_voltage_mv(m, EMUL_P_CORE, 372), 650U);
	/* 2200 MHz: 650 + 600 * 600 / 2800. */
	KUNIT_EXPECT_EQ(test, emul_voltage_mv(m, EMUL_P_CORE, 512), 778U);
	/* E-core: 1650 MHz, 650 + 600 * 450 / 2100. */
	KUNIT_EXPECT_EQ(test, emul_voltage_mv(m, EMUL_E_CORE, 512), 778U);
	/* Scales above the maximum are the maximum. */
	KUNIT_EXPECT_EQ(test, emul_voltage_mv(m, EMUL_E_CORE, 4096), 1250U);
}

static void leakage_cubic_in_voltage(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_leak_mw(m, EMUL_P_CORE, 1250), 1200U);
	KUNIT_EXPECT_EQ(test, emul_leak_mw(m, EMUL_P_CORE, 625), 150U);
	KUNIT_EXPECT_EQ(test, emul_leak_mw(m, EMUL_P_CORE, 650), 168U);
	KUNIT_EXPECT_EQ(test, emul_leak_mw(m, EMUL_E_CORE, 1250), 300U);
}

static void busy_power(struct kunit *test)
{
	/* Maximum frequency and voltage: dyn_mw + leak_mw. */
	KUNIT_EXPECT_EQ(test, emul_busy_mw(m, EMUL_P_CORE, EMUL_SCALE, 1250), 12200U);
	/* Half the frequency at 778 mV: 11000 * 0.3874 / 2 + 289. */
	KUNIT_EXPECT_EQ(test, emul_busy_mw(m, EMUL_P_CORE, 512, 778), 2130U + 289U);
}

static void turbo_cap_by_active_cores(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_turbo_cap(m, 0), 1024U);
	KUNIT_EXPECT_EQ(test, emul_turbo_cap(m, 2), 1024U);
	KUNIT_EXPECT_EQ(test, emul_turbo_cap(m, 3), 983U);
	KUNIT_EXPECT_EQ(test, emul_turbo_cap(m, 6), 931U);
	KUNIT_EXPECT_EQ(test, emul_turbo_cap(m, 16), 931U);
}

/* CPU 0 a P-core busy for the whole window, CPU 1 an E-core in @state. */
static void one_busy_one_idle(struct emul_cpu_window *cpu, struct emul_pkg_window *w,
			      int state)
{
	memset(cpu, 0, 2 * sizeof(*cpu));
	cpu[0].type = EMUL_P_CORE;
	cpu[0].busy_ns = MS;
	cpu[1].type = EMUL_E_CORE;
	cpu[1].state_ns[state] = MS;
	*w = (struct emul_pkg_window) { .ncpus = 2, .len_ns = MS, .cpu = cpu };
}

static void window_power_by_idle_depth(struct kunit *test)
{
	struct emul_cpu_window cpu[2];
	struct emul_pkg_window w;

	/* P busy 12200, E gated 10, uncore on 1500. */
	one_busy_one_idle(cpu, &w, EMUL_C6);
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 13710ULL);
	KUNIT_EXPECT_EQ(test, emul_active_cores(&w), 1U);
	/* The idle E-core in C1 leaks at the busy P-core's 1250 mV: 300. */
	one_busy_one_idle(cpu, &w, EMUL_C1);
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 14000ULL);
	KUNIT_EXPECT_EQ(test, emul_active_cores(&w), 2U);
	/* POLL: leakage plus half the dynamic power, 300 + 1100. */
	one_busy_one_idle(cpu, &w, EMUL_POLL);
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 15100ULL);
}

static void window_power_package_idle(struct kunit *test)
{
	struct emul_cpu_window cpu[2] = {};
	struct emul_pkg_window w = { .ncpus = 2, .len_ns = MS, .cpu = cpu };

	/* Both cores gated all the time: 30 + 10 + package-idle uncore 300. */
	cpu[0].type = EMUL_P_CORE;
	cpu[0].state_ns[EMUL_C6] = MS;
	cpu[1].type = EMUL_E_CORE;
	cpu[1].state_ns[EMUL_C10] = MS;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 340ULL);
	KUNIT_EXPECT_EQ(test, emul_active_cores(&w), 0U);
	/* An empty window has no power. */
	w.len_ns = 0;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 0ULL);
}

static void scale_fits_the_limit(struct kunit *test)
{
	struct emul_cpu_window cpu[2];
	struct emul_pkg_window w;
	u32 deep, shallow;

	one_busy_one_idle(cpu, &w, EMUL_C6);
	/* Within the limit: the turbo cap. */
	KUNIT_EXPECT_EQ(test, emul_scale_for_power(m, &w, 983, 20000), 983U);
	deep = emul_scale_for_power(m, &w, EMUL_SCALE, 5000);
	KUNIT_EXPECT_LE(test, emul_window_power_mw(m, &w, deep), 5000ULL);
	KUNIT_EXPECT_GT(test, emul_window_power_mw(m, &w, deep + 1), 5000ULL);
	KUNIT_EXPECT_EQ(test, deep, 604U);

	/* The same limit with the idle core in C1 leaves the busy one less. */
	one_busy_one_idle(cpu, &w, EMUL_C1);
	shallow = emul_scale_for_power(m, &w, EMUL_SCALE, 5000);
	KUNIT_EXPECT_EQ(test, shallow, 597U);
	KUNIT_EXPECT_LT(test, shallow, deep);

	/* Nothing fits: the lowest scale. */
	KUNIT_EXPECT_EQ(test, emul_scale_for_power(m, &w, EMUL_SCALE, 100), 128U);
}

static void ewma_steps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_ewma_mw(1000, 2000, 1 * MS, 9 * MS), 1100U);
	KUNIT_EXPECT_EQ(test, emul_ewma_mw(2000, 1000, 1 * MS, 9 * MS), 1900U);
	/* A step far longer than the window lands (almost) on the sample. */
	KUNIT_EXPECT_EQ(test, emul_ewma_mw(1000, 2000, 1000000 * MS, 1000 * MS), 1999U);
	KUNIT_EXPECT_EQ(test, emul_ewma_mw(1000, 2000, 0, 0), 2000U);
}

static void steal_for_lower_frequency(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_steal_ns(MS, EMUL_SCALE), 0ULL);
	KUNIT_EXPECT_EQ(test, emul_steal_ns(MS, 512), MS);
	KUNIT_EXPECT_EQ(test, emul_steal_ns(MS, 768), 333333ULL);
	/* Scales out of range are clamped, never a division by zero. */
	KUNIT_EXPECT_EQ(test, emul_steal_ns(MS, 0), 1023 * MS);
	KUNIT_EXPECT_EQ(test, emul_steal_ns(MS, 4096), 0ULL);
}

static struct kunit_case emul_model_cases[] = {
	KUNIT_CASE(voltage_flat_then_linear),
	KUNIT_CASE(leakage_cubic_in_voltage),
	KUNIT_CASE(busy_power),
	KUNIT_CASE(turbo_cap_by_active_cores),
	KUNIT_CASE(window_power_by_idle_depth),
	KUNIT_CASE(window_power_package_idle),
	KUNIT_CASE(scale_fits_the_limit),
	KUNIT_CASE(ewma_steps),
	KUNIT_CASE(steal_for_lower_frequency),
	{}
};

static struct kunit_suite emul_model_suite = {
	.name = "emul_model",
	.test_cases = emul_model_cases,
};

kunit_test_suite(emul_model_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the emulated platform's power model");
MODULE_LICENSE("GPL");
