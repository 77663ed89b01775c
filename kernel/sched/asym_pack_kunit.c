// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of capacity-aware asym packing (fair.c). The decisions under
 * test are static functions of the load balancer, so this file is included
 * at the end of fair.c (CONFIG_SCHED_ASYM_PACK_KUNIT_TEST, built in) rather
 * than built as a module of its own. Capacities are those of a 2P+4E part
 * with 4.4 GHz P-cores and 3.3 GHz E-cores: 1024 and 605.
 */

#include <kunit/test.h>

#define P_CAP	1024UL
#define E_CAP	605UL

/* 2/3 of 605 is 403.3: 403 fits, 404 does not; nothing is checked upwards. */
static void asym_pack_limit(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, sched_asym_pack_fits(0, E_CAP));
	KUNIT_EXPECT_TRUE(test, sched_asym_pack_fits(403, E_CAP));
	KUNIT_EXPECT_FALSE(test, sched_asym_pack_fits(404, E_CAP));
	KUNIT_EXPECT_TRUE(test, __sched_asym_fits(E_CAP, P_CAP, 1, 1024, 1024));
	KUNIT_EXPECT_TRUE(test, __sched_asym_fits(E_CAP, E_CAP, 1, 1024, 1024));
	KUNIT_EXPECT_TRUE(test, __sched_asym_fits(P_CAP, E_CAP, E_CAP, 0, 403));
	KUNIT_EXPECT_FALSE(test, __sched_asym_fits(P_CAP, E_CAP, E_CAP, 0, 404));
}

/*
 * Worked by hand, for capacities from the smallest to a P-core's: the
 * largest utilization packing may load a CPU of that capacity with (below
 * 2/3 of it), and the largest misfit handling lets a task have there
 * (fits_capacity(): below 80% of it). Between the two lies the band a
 * packed task can grow into before it is a misfit.
 */
static const struct {
	unsigned long cap;
	unsigned long last_packed;
	unsigned long last_fitting;
} asym_pack_limits[] = {
	{   64,  42,  51 },	/* 42.7; 51.2 */
	{  256, 170, 204 },	/* 170.7; 204.8 */
	{  512, 341, 409 },	/* 341.3; 409.6 */
	{  605, 403, 483 },	/* the E-core: 403.3; 484 exactly, a misfit */
	{  768, 511, 614 },	/* 512 exactly, not below; 614.4 */
	{ 1024, 682, 819 },	/* 682.7; 819.2 */
};

static void asym_pack_leaves_band(struct kunit *test)
{
	unsigned long util;
	int i;

	for (i = 0; i < ARRAY_SIZE(asym_pack_limits); i++) {
		unsigned long cap = asym_pack_limits[i].cap;
		unsigned long packed = asym_pack_limits[i].last_packed;
		unsigned long fitting = asym_pack_limits[i].last_fitting;

		for (util = 0; util <= SCHED_CAPACITY_SCALE; util++) {
			KUNIT_ASSERT_EQ_MSG(test, sched_asym_pack_fits(util, cap),
					    util <= packed, "util %lu cap %lu", util, cap);
			KUNIT_ASSERT_EQ_MSG(test, fits_capacity(util, cap),
					    util <= fitting, "util %lu cap %lu", util, cap);
		}
		/* A packed task can grow by 10% of the capacity before misfit. */
		KUNIT_EXPECT_GE_MSG(test, (fitting - packed) * 10, cap, "cap %lu", cap);
	}
}

/*
 * Whatever packing places on a smaller CPU is not a misfit there, however
 * much RT, IRQ or thermal pressure has taken off its capacity: for every
 * capacity left to CFS and every utilization, packed implies
 * fits_capacity(). Against the original capacity alone the two overlapped:
 * with 480 of 605 left, 400 was packed (below 403.3) and was a misfit
 * (above 384).
 */
static void asym_pack_never_misfit(struct kunit *test)
{
	unsigned long cap, util;

	for (cap = 1; cap <= E_CAP; cap++) {
		for (util = 0; util <= SCHED_CAPACITY_SCALE; util++) {
			if (__sched_asym_fits(P_CAP, E_CAP, cap, 0, util) &&
			    !fits_capacity(util, cap)) {
				KUNIT_FAIL(test, "util %lu packed onto capacity %lu, misfit",
					   util, cap);
				return;
			}
		}
	}
	KUNIT_EXPECT_FALSE(test, __sched_asym_fits(P_CAP, E_CAP, 480, 0, 400));
	/* A capacity_of() above the original one (not updated yet) is not used. */
	KUNIT_EXPECT_FALSE(test, __sched_asym_fits(P_CAP, E_CAP, P_CAP, 0, 404));
}

/*
 * What the destination carries counts: four tasks of 150 each fit an idle
 * E-core alone, but only two of them together (300 < 403.3 <= 450), the
 * way detach_tasks() adds up what it has detached for one destination.
 */
static void asym_pack_counts_destination(struct kunit *test)
{
	unsigned long pending = 0;
	int i, taken = 0;

	for (i = 0; i < 4; i++) {
		if (__sched_asym_fits(P_CAP, E_CAP, E_CAP, 0, pending + 150)) {
			pending += 150;
			taken++;
		}
	}
	KUNIT_EXPECT_EQ(test, taken, 2);
	KUNIT_EXPECT_TRUE(test, __sched_asym_fits(P_CAP, E_CAP, E_CAP, 250, 150));
	KUNIT_EXPECT_FALSE(test, __sched_asym_fits(P_CAP, E_CAP, E_CAP, 300, 150));
}

/*
 * LBF_ASYM_FIT belongs to one packing decision: a second pass of the same
 * balance (goto redo) that decides on a misfit move must not keep checking
 * the fit, nor lose the other flags.
 */
static void asym_pack_flag_not_left_over(struct kunit *test)
{
	struct sched_domain sd = { .flags = SD_ASYM_CPUCAPACITY };
	struct sd_lb_stats sds = { };
	struct lb_env env = {
		.sd = &sd,
		.flags = LBF_ASYM_FIT | LBF_SOME_PINNED,
	};

	sds.busiest_stat.group_type = group_misfit_task;
	calculate_imbalance(&env, &sds);
	KUNIT_EXPECT_EQ(test, env.migration_type, migrate_misfit);
	KUNIT_EXPECT_FALSE(test, env.flags & LBF_ASYM_FIT);
	KUNIT_EXPECT_TRUE(test, env.flags & LBF_SOME_PINNED);
}

/*
 * The active balance stopper checks the fit like any balance, whatever
 * asked for the push: without LBF_ASYM_FIT there, a task that does not
 * fit was pushed down after a few failed balances
 * (imbalanced_active_balance()). The static key is held on for the test,
 * as a domain with both flags would: it only lets the flags of the domain
 * decide, and no real domain has both without a hybrid part.
 */
static void asym_pack_active_push_checks_fit(struct kunit *test)
{
	struct sched_domain both = { .flags = SD_ASYM_PACKING | SD_ASYM_CPUCAPACITY };
	struct sched_domain packing = { .flags = SD_ASYM_PACKING };

	static_branch_inc(&sched_asym_fit_packing);
	KUNIT_EXPECT_EQ(test, active_balance_flags(&both), LBF_ACTIVE_LB | LBF_ASYM_FIT);
	KUNIT_EXPECT_EQ(test, active_balance_flags(&packing), LBF_ACTIVE_LB);
	static_branch_dec(&sched_asym_fit_packing);
	KUNIT_EXPECT_EQ(test, active_balance_flags(&both),
			LBF_ACTIVE_LB | (sched_asym_fit_packing_active() ? LBF_ASYM_FIT : 0));
}

/*
 * A plain pull (not asym packing) moves a task that would be a misfit on
 * the E-core only if it gets more there than where it waits.
 */
static void asym_pull_waits_out_preemption(struct kunit *test)
{
	/* CPU-bound, preempted by a kthread of 30 on its P-core: stays. */
	KUNIT_EXPECT_FALSE(test, __sched_asym_pull_fits(1000, E_CAP, E_CAP, P_CAP - 30));
	/* Queued behind another CPU-bound task (512 each): goes. */
	KUNIT_EXPECT_TRUE(test, __sched_asym_pull_fits(1000, E_CAP, E_CAP, P_CAP - 512));
	/* The same, onto an E-core that RT pressure leaves 400: stays. */
	KUNIT_EXPECT_FALSE(test, __sched_asym_pull_fits(1000, 400, 400, P_CAP - 512));
	/* What is no misfit there moves as before, whatever waits. */
	KUNIT_EXPECT_TRUE(test, __sched_asym_pull_fits(483, E_CAP, 0, P_CAP));
	KUNIT_EXPECT_FALSE(test, __sched_asym_pull_fits(484, E_CAP, 0, P_CAP));
}

/*
 * Wake-up placement grades an idle CPU by what it would carry with the
 * task: below 2/3 of its capacity it packs, below 80% the task is no
 * misfit there, which counts only with SMT (select_idle_packing()).
 */
static void asym_wake_fit_grades(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(403, E_CAP, false), ASYM_WAKE_PACKS);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(403, E_CAP, true), ASYM_WAKE_PACKS);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(404, E_CAP, false), ASYM_WAKE_NONE);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(404, E_CAP, true), ASYM_WAKE_NO_MISFIT);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(483, E_CAP, true), ASYM_WAKE_NO_MISFIT);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(484, E_CAP, true), ASYM_WAKE_NONE);
	/* Two light tasks of 225 (the placement selftest's) on one E-core. */
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(2 * 225, E_CAP, true), ASYM_WAKE_NO_MISFIT);
	KUNIT_EXPECT_EQ(test, sched_asym_wake_fit(2 * 225, P_CAP, true), ASYM_WAKE_PACKS);
}

static const struct asym_wake_case {
	enum asym_wake_fit fit;		/* of the idle CPU */
	int cmp;			/* its priority against the target's */
	enum asym_wake_fit target_fit;
	bool beats;
	const char *desc;
} asym_wake_cases[] = {
	{ ASYM_WAKE_PACKS, 1, ASYM_WAKE_PACKS, true,
	  "packs on an E-core: beats an idle P-core it packs on too" },
	{ ASYM_WAKE_NO_MISFIT, 1, ASYM_WAKE_NONE, true,
	  "no misfit on an E-core: beats a P thread with a busy sibling" },
	{ ASYM_WAKE_NO_MISFIT, 1, ASYM_WAKE_NO_MISFIT, true,
	  "no misfit on an E-core: beats no misfit on a P-core" },
	{ ASYM_WAKE_NO_MISFIT, 1, ASYM_WAKE_PACKS, false,
	  "no misfit on an E-core: does not beat a target it packs on" },
	{ ASYM_WAKE_PACKS, 0, ASYM_WAKE_PACKS, false,
	  "same priority: no hop while the target packs" },
	{ ASYM_WAKE_PACKS, 0, ASYM_WAKE_NO_MISFIT, false,
	  "same priority: no hop while the target is no misfit" },
	{ ASYM_WAKE_PACKS, 0, ASYM_WAKE_NONE, true,
	  "same priority: off a target that is busy" },
	{ ASYM_WAKE_PACKS, -1, ASYM_WAKE_NONE, false,
	  "never to a CPU packing prefers less" },
	{ ASYM_WAKE_NONE, 1, ASYM_WAKE_NONE, false,
	  "never to a CPU the task does not fit" },
};

static void asym_wake_case_desc(const struct asym_wake_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(asym_wake, asym_wake_cases, asym_wake_case_desc);

static void asym_wake_beats_target(struct kunit *test)
{
	const struct asym_wake_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sched_asym_wake_beats_target(c->fit, c->cmp, c->target_fit),
			c->beats);
}

static struct kunit_case sched_asym_pack_cases[] = {
	KUNIT_CASE(asym_pack_limit),
	KUNIT_CASE(asym_pack_leaves_band),
	KUNIT_CASE(asym_pack_never_misfit),
	KUNIT_CASE(asym_pack_counts_destination),
	KUNIT_CASE(asym_pack_flag_not_left_over),
	KUNIT_CASE(asym_pack_active_push_checks_fit),
	KUNIT_CASE(asym_pull_waits_out_preemption),
	KUNIT_CASE(asym_wake_fit_grades),
	KUNIT_CASE_PARAM(asym_wake_beats_target, asym_wake_gen_params),
	{}
};

static struct kunit_suite sched_asym_pack_suite = {
	.name = "sched_asym_pack",
	.test_cases = sched_asym_pack_cases,
};

kunit_test_suite(sched_asym_pack_suite);
