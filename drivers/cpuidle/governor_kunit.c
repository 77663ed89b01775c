// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the cpuidle core's choice of the governor that takes over
 * when the current one is unregistered (cpuidle_governor_successor()).
 *
 * Each case builds its own list of governors; the registered ones and the
 * current governor are never touched.
 */

#include <kunit/test.h>
#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/string.h>

#include "cpuidle.h"

static struct cpuidle_governor *add_governor(struct kunit *test,
					     struct list_head *governors,
					     const char *name,
					     unsigned int rating,
					     struct module *owner)
{
	struct cpuidle_governor *gov;

	gov = kunit_kzalloc(test, sizeof(*gov), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gov);
	strscpy(gov->name, name);
	gov->rating = rating;
	gov->owner = owner;
	list_add_tail(&gov->governor_list, governors);
	return gov;
}

/* The highest-rated other governor takes over, wherever it is listed. */
static void successor_highest_rating(struct kunit *test)
{
	struct cpuidle_governor *curr, *best;
	LIST_HEAD(governors);

	add_governor(test, &governors, "low", 10, NULL);
	curr = add_governor(test, &governors, "curr", 15, NULL);
	best = add_governor(test, &governors, "best", 20, NULL);
	add_governor(test, &governors, "mid", 19, NULL);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    best);
}

/* The governor being unregistered never succeeds itself when others exist. */
static void successor_not_itself(struct kunit *test)
{
	struct cpuidle_governor *curr, *next;
	LIST_HEAD(governors);

	curr = add_governor(test, &governors, "curr", 20, NULL);
	next = add_governor(test, &governors, "next", 10, NULL);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    next);
}

/*
 * The last governor: the choice is to keep it. The core used to make no
 * governor current instead, and CPUs then called through a NULL pointer.
 */
static void successor_last_governor_kept(struct kunit *test)
{
	struct cpuidle_governor *curr;
	LIST_HEAD(governors);

	curr = add_governor(test, &governors, "curr", 20, NULL);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    curr);
}

/* Of equally rated governors, the one registered first takes over. */
static void successor_tie_first_registered(struct kunit *test)
{
	struct cpuidle_governor *curr, *first;
	LIST_HEAD(governors);

	curr = add_governor(test, &governors, "curr", 30, NULL);
	first = add_governor(test, &governors, "first", 20, NULL);
	add_governor(test, &governors, "second", 20, NULL);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    first);
}

/* A governor rated 0 is still better than none. */
static void successor_rating_zero(struct kunit *test)
{
	struct cpuidle_governor *curr, *zero;
	LIST_HEAD(governors);

	curr = add_governor(test, &governors, "curr", 10, NULL);
	zero = add_governor(test, &governors, "zero", 0, NULL);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    zero);
}

#ifdef CONFIG_MODULES
/*
 * A governor whose module is being unloaded is about to unregister itself
 * and cannot be pinned: it is passed over, even when it rates highest. The
 * same governor with its module live is chosen (the control).
 */
static void successor_skips_going_module(struct kunit *test)
{
	struct cpuidle_governor *curr, *modular, *builtin;
	struct module *mod;
	LIST_HEAD(governors);

	mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mod);

	curr = add_governor(test, &governors, "curr", 10, NULL);
	modular = add_governor(test, &governors, "modular", 30, mod);
	builtin = add_governor(test, &governors, "builtin", 20, NULL);

	mod->state = MODULE_STATE_LIVE;
	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    modular);

	mod->state = MODULE_STATE_GOING;
	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    builtin);
}

/* When every other governor is going away, the current one is kept. */
static void successor_all_others_going(struct kunit *test)
{
	struct cpuidle_governor *curr;
	struct module *mod;
	LIST_HEAD(governors);

	mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mod);
	mod->state = MODULE_STATE_GOING;

	curr = add_governor(test, &governors, "curr", 10, NULL);
	add_governor(test, &governors, "going", 20, mod);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, curr),
			    curr);
}
#endif /* CONFIG_MODULES */

static struct kunit_case cpuidle_governor_cases[] = {
	KUNIT_CASE(successor_highest_rating),
	KUNIT_CASE(successor_not_itself),
	KUNIT_CASE(successor_last_governor_kept),
	KUNIT_CASE(successor_tie_first_registered),
	KUNIT_CASE(successor_rating_zero),
#ifdef CONFIG_MODULES
	KUNIT_CASE(successor_skips_going_module),
	KUNIT_CASE(successor_all_others_going),
#endif
	{}
};

static struct kunit_suite cpuidle_governor_suite = {
	.name = "cpuidle_governor",
	.test_cases = cpuidle_governor_cases,
};

kunit_test_suite(cpuidle_governor_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the cpuidle governor core");
MODULE_LICENSE("GPL");
