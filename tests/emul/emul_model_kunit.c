// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the emulated platform's power model arithmetic
 * (emul_model.c) with the constants of its parts (emul_parts.c): the
 * default adl-u-15w unless a case says otherwise. The expected values are
 * worked out by hand from the formulas at the top of emul_model.c.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "emul.h"

#define MS	1000000ULL	/* one millisecond, in ns */

static const struct emul_pkg_model *m;

static int emul_model_suite_init(struct kunit_suite *suite)
{
	const struct emul_part *part = emul_find_part("adl-u-15w");

	if (!part)
		return -ENOENT;
	m = &part->model;
	return 0;
}

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
	KUNIT_EXPECT_EQ(test, emul_active_cores(m, &w), 1U);
	/* The idle E-core in C1 leaks at the busy P-core's 1250 mV: 300. */
	one_busy_one_idle(cpu, &w, EMUL_C1);
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 14000ULL);
	KUNIT_EXPECT_EQ(test, emul_active_cores(m, &w), 2U);
	/* POLL: leakage plus half the dynamic power, 300 + 1100. */
	one_busy_one_idle(cpu, &w, EMUL_POLL);
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 15100ULL);
}

static void window_power_package_idle(struct kunit *test)
{
	struct emul_cpu_window cpu[2] = {};
	struct emul_pkg_window w = { .ncpus = 2, .len_ns = MS, .cpu = cpu };

	/*
	 * Both cores gated all the time, at once (the shallowest in C6):
	 * 30 + 10 + the package C-state's uncore 300.
	 */
	cpu[0].type = EMUL_P_CORE;
	cpu[0].state_ns[EMUL_C6] = MS;
	cpu[1].type = EMUL_E_CORE;
	cpu[1].state_ns[EMUL_C10] = MS;
	w.pkg_ns[EMUL_C6] = MS;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 340ULL);
	KUNIT_EXPECT_EQ(test, emul_active_cores(m, &w), 0U);
	/* An empty window has no power. */
	w.len_ns = 0;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 0ULL);
}

/*
 * Each core gated half the window, the other half in C1 at the minimum
 * voltage (P 168 mW, E 42 mW): 15 + 84 + 5 + 21 = 125 mW of cores. The
 * package C-state needs the gated halves to overlap: apart, the uncore
 * stays at 1500 mW; together, half the window at 300.
 */
static void package_state_needs_overlap(struct kunit *test)
{
	struct emul_cpu_window cpu[2] = {};
	struct emul_pkg_window w = { .ncpus = 2, .len_ns = MS, .cpu = cpu };
	int i;

	cpu[0].type = EMUL_P_CORE;
	cpu[1].type = EMUL_E_CORE;
	for (i = 0; i < 2; i++) {
		cpu[i].state_ns[EMUL_C6] = MS / 2;
		cpu[i].state_ns[EMUL_C1] = MS / 2;
	}
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 125ULL + 1500);
	w.pkg_ns[EMUL_C6] = MS / 2;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 125ULL + 900);
}

/*
 * A state's transition energy is what it saves over the next shallower
 * one during its target residency, at the minimum voltage: C6 saves
 * 168 - 30 mW on a P-core over 500 us (69 uJ), 42 - 10 mW on an E-core
 * over 585 us (18.72, 18 uJ). C1E saves nothing over C1 (both leak), nor
 * C8 and C10 over C6 (all gated), so they cost what C6 does.
 */
static void transition_energy_from_target_residency(struct kunit *test)
{
	struct emul_pkg_model scaled = *m;

	KUNIT_EXPECT_EQ(test, emul_transition_uj(m, EMUL_P_CORE, EMUL_C1), 0U);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(m, EMUL_P_CORE, EMUL_C1E), 0U);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(m, EMUL_P_CORE, EMUL_C6), 69U);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(m, EMUL_P_CORE, EMUL_C10), 69U);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(m, EMUL_E_CORE, EMUL_C6), 18U);
	scaled.trans_pct = 200;
	KUNIT_EXPECT_EQ(test, emul_transition_uj(&scaled, EMUL_P_CORE, EMUL_C6), 138U);
	scaled.trans_pct = 0;
	KUNIT_EXPECT_EQ(test, emul_transition_uj(&scaled, EMUL_P_CORE, EMUL_C6), 0U);
}

/*
 * Entries cost energy: 10 entries into C6 on the E-core within 1 ms are
 * 10 * 18 uJ, 180 mW on top of the 13710 mW of one_busy_one_idle().
 */
static void window_power_counts_entries(struct kunit *test)
{
	struct emul_cpu_window cpu[2];
	struct emul_pkg_window w;

	one_busy_one_idle(cpu, &w, EMUL_C6);
	cpu[1].entries[EMUL_C6] = 10;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(m, &w, EMUL_SCALE), 13710ULL + 180);
}

/* 1 ms at half of 4400 MHz is 2.2 million cycles; an E-core's at 3300. */
static void cycles_of_work(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_cycles(m, EMUL_P_CORE, MS, 512), 2200000ULL);
	KUNIT_EXPECT_EQ(test, emul_cycles(m, EMUL_E_CORE, MS, EMUL_SCALE), 3300000ULL);
	KUNIT_EXPECT_EQ(test, emul_cycles(m, EMUL_P_CORE, 0, EMUL_SCALE), 0ULL);
}

/*
 * The 6 W part: its ACPI C2 saves leak(600 mV) - 5 mW = 250 * (6/11)^3
 * - 5 = 40 - 5 mW over 759 us (26.6, 26 uJ); C3 only adds a package
 * C-state, whose power the window takes when every CPU is in C3.
 */
static void jasper_lake_part(struct kunit *test)
{
	const struct emul_part *jsl = emul_find_part("jsl-6w");
	struct emul_cpu_window cpu[4] = {};
	struct emul_pkg_window w = { .ncpus = 4, .len_ns = MS, .cpu = cpu };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, jsl);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(&jsl->model, EMUL_P_CORE, 2), 26U);
	KUNIT_EXPECT_EQ(test, emul_transition_uj(&jsl->model, EMUL_P_CORE, 3), 26U);
	/* All four in C3 at once: 4 * 5 mW gated + 100 mW package. */
	for (i = 0; i < 4; i++)
		cpu[i].state_ns[3] = MS;
	w.pkg_ns[3] = MS;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(&jsl->model, &w, EMUL_SCALE), 120ULL);
	/* All four in C2 at once: no package C-state, uncore 1000 mW. */
	for (i = 0; i < 4; i++) {
		cpu[i].state_ns[3] = 0;
		cpu[i].state_ns[2] = MS;
	}
	w.pkg_ns[3] = 0;
	w.pkg_ns[2] = MS;
	KUNIT_EXPECT_EQ(test, emul_window_power_mw(&jsl->model, &w, EMUL_SCALE), 1020ULL);
}

/* Each part in turn (their number is only known at link time). */
static const void *part_gen_params(const void *prev, char *desc)
{
	const struct emul_part *p = prev ? (const struct emul_part *)prev + 1 : emul_parts;

	if (p >= emul_parts + emul_nr_parts)
		return NULL;
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

/*
 * Every part is one the driver and the model can use: POLL first, then
 * hardware states ordered shallow to deep (kinds, exit latencies and
 * target residencies not decreasing, exit within target), turbo ratios
 * not increasing with the active cores, PL2 at least PL1.
 */
static void part_is_consistent(struct kunit *test)
{
	const struct emul_part *p = test->param_value;
	const struct emul_pkg_model *pm = &p->model;
	int t, s, types = p->e_cores ? EMUL_NR_TYPES : 1;

	KUNIT_EXPECT_GE(test, p->p_cores, 1U);
	KUNIT_EXPECT_GE(test, p->pl2_mw, p->pl1_mw);
	KUNIT_EXPECT_GT(test, p->pl1_window_ms, 0U);
	KUNIT_EXPECT_GT(test, p->pl2_window_ms, 0U);
	KUNIT_ASSERT_GE(test, pm->nstates, 2U);
	KUNIT_ASSERT_LE(test, pm->nstates, (unsigned int)EMUL_MAX_STATES);
	KUNIT_EXPECT_EQ(test, pm->state[0].kind, EMUL_KIND_POLL);
	for (t = 0; t < types; t++) {
		KUNIT_EXPECT_GT(test, pm->core[t].fmax_mhz, pm->core[t].fknee_mhz);
		KUNIT_EXPECT_LT(test, pm->core[t].gated_mw, pm->core[t].leak_mw);
		for (s = 1; s < pm->nstates; s++) {
			const struct emul_state_desc *d = &pm->state[s];

			KUNIT_EXPECT_NE(test, d->kind, EMUL_KIND_POLL);
			KUNIT_EXPECT_LE(test, d->exit_us[t], d->target_us[t]);
			if (s < 2)
				continue;
			KUNIT_EXPECT_GE(test, d->kind, pm->state[s - 1].kind);
			KUNIT_EXPECT_GE(test, d->exit_us[t], pm->state[s - 1].exit_us[t]);
			KUNIT_EXPECT_GE(test, d->target_us[t], pm->state[s - 1].target_us[t]);
		}
	}
	for (s = 1; s <= EMUL_TURBO_BINS; s++) {
		KUNIT_EXPECT_LE(test, pm->turbo_pct[s], 100);
		KUNIT_EXPECT_LE(test, pm->turbo_pct[s], pm->turbo_pct[s - 1]);
	}
	KUNIT_EXPECT_PTR_EQ(test, emul_find_part(p->name), p);
}

static void unknown_part(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, emul_find_part("adl-u"));
	KUNIT_EXPECT_NULL(test, emul_find_part(""));
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

static void spin_pays_the_gap(struct kunit *test)
{
	s64 forgiven = 0;

	/* Paid for: no gap, nothing written off. */
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(3 * MS, 3 * MS, &forgiven, 8 * MS), 0LL);
	KUNIT_EXPECT_EQ(test, forgiven, 0LL);
	/* 2 ms of work, 1 ms paid for; behind the model by 1 ms. */
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(2 * MS, MS, &forgiven, 8 * MS), (s64)MS);
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(MS, 2 * MS, &forgiven, 8 * MS), -(s64)MS);
	KUNIT_EXPECT_EQ(test, forgiven, 0LL);
	/* 20 ms behind: 12 ms written off, and remembered. */
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(MS, 21 * MS, &forgiven, 8 * MS), -8 * (s64)MS);
	KUNIT_EXPECT_EQ(test, forgiven, -12 * (s64)MS);
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(MS, 21 * MS, &forgiven, 8 * MS), -8 * (s64)MS);
	/* 30 ms more work unpaid: the gap is 22 ms, 14 ms of it written off. */
	KUNIT_EXPECT_EQ(test, emul_spin_gap_ns(31 * MS, 21 * MS, &forgiven, 8 * MS), 8 * (s64)MS);
	KUNIT_EXPECT_EQ(test, forgiven, 2 * (s64)MS);
}

static void spin_closes_the_gap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, emul_spin_ns(0, 512), 0ULL);
	KUNIT_EXPECT_EQ(test, emul_spin_ns(-(s64)MS, 512), 0ULL);
	KUNIT_EXPECT_EQ(test, emul_spin_ns(MS, EMUL_SCALE), MS);
	/* At half the frequency a spin earns half its length: 2 ms for 1. */
	KUNIT_EXPECT_EQ(test, emul_spin_ns(MS, 512), 2 * MS);
	KUNIT_EXPECT_EQ(test, emul_spin_ns(MS, 768), 1333333ULL);
	/* Scales out of range are clamped, never a division by zero. */
	KUNIT_EXPECT_EQ(test, emul_spin_ns(MS, 0), 1024 * MS);
	KUNIT_EXPECT_EQ(test, emul_spin_ns(MS, 4096), MS);
}

/*
 * RAPL's time window field, 2^Y * (1 + F/4) units of 2^-10 s: the
 * windows the parts use come back exactly, others as the largest window
 * the field holds below them.
 */
static void rapl_window_field(struct kunit *test)
{
	/* 2 s: 2048 units, 2^11: Y = 11, F = 0. */
	KUNIT_EXPECT_EQ(test, emul_rapl_window_encode(2000), 11U);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(11), 2000U);
	/* 28 s: 28672 units = 2^14 * 7/4: Y = 14, F = 3. */
	KUNIT_EXPECT_EQ(test, emul_rapl_window_encode(28000), 14U | 3U << 5);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(14 | 3 << 5), 28000U);
	/* 8 s: 2^13. */
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(emul_rapl_window_encode(8000)), 8000U);
	/*
	 * 3 s: 3072 units = 2^11 * 6/4: Y = 11, F = 2. 5 s: 5120 units,
	 * 2^12 * 5/4 = 5120: F = 1. 100 ms: 102 units, 2^6 * 6/4 = 96 is
	 * the largest below: 93 ms.
	 */
	KUNIT_EXPECT_EQ(test, emul_rapl_window_encode(3000), 11U | 2U << 5);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(emul_rapl_window_encode(5000)), 5000U);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_encode(100), 6U | 2U << 5);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(6 | 2 << 5), 93U);
	/* Below one unit: one unit, which decodes to 0 ms, shown as 1. */
	KUNIT_EXPECT_EQ(test, emul_rapl_window_encode(0), 0U);
	KUNIT_EXPECT_EQ(test, emul_rapl_window_decode(0), 1U);
}

static struct kunit_case emul_model_cases[] = {
	KUNIT_CASE(voltage_flat_then_linear),
	KUNIT_CASE(leakage_cubic_in_voltage),
	KUNIT_CASE(busy_power),
	KUNIT_CASE(turbo_cap_by_active_cores),
	KUNIT_CASE(window_power_by_idle_depth),
	KUNIT_CASE(window_power_package_idle),
	KUNIT_CASE(package_state_needs_overlap),
	KUNIT_CASE(transition_energy_from_target_residency),
	KUNIT_CASE(window_power_counts_entries),
	KUNIT_CASE(cycles_of_work),
	KUNIT_CASE(jasper_lake_part),
	KUNIT_CASE_PARAM(part_is_consistent, part_gen_params),
	KUNIT_CASE(unknown_part),
	KUNIT_CASE(scale_fits_the_limit),
	KUNIT_CASE(ewma_steps),
	KUNIT_CASE(spin_pays_the_gap),
	KUNIT_CASE(spin_closes_the_gap),
	KUNIT_CASE(rapl_window_field),
	{}
};

static struct kunit_suite emul_model_suite = {
	.name = "emul_model",
	.suite_init = emul_model_suite_init,
	.test_cases = emul_model_cases,
};

kunit_test_suite(emul_model_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the emulated platform's power model");
MODULE_LICENSE("GPL");
