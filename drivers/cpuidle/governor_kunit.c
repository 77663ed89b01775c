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

/**
 * struct successor_case - a list of governors and who must take over
 * @desc: what the case shows
 * @ratings: the governors' ratings, in registration order; -1 ends the list
 * @curr: index of the governor being unregistered
 * @want: index of the governor that must take over
 */
struct successor_case {
	const char *desc;
	int ratings[5];
	int curr;
	int want;
};

static const struct successor_case successor_cases[] = {
	{ "the highest-rated other governor, wherever it is listed",
	  { 10, 15, 20, 19, -1 }, 1, 2 },
	{ "never itself when others exist, even rated lower",
	  { 20, 10, -1 }, 0, 1 },
	/* The core used to make no governor current: CPUs then hit NULL. */
	{ "the last governor is kept", { 20, -1 }, 0, 0 },
	{ "of equally rated governors, the first registered",
	  { 30, 20, 20, -1 }, 0, 1 },
	{ "a governor rated 0 is still better than none",
	  { 10, 0, -1 }, 0, 1 },
};

static void successor_case_desc(const struct successor_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(successor, successor_cases, successor_case_desc);

/* Built-in governors (no module): the choice is by rating alone. */
static void successor_by_rating(struct kunit *test)
{
	const struct successor_case *c = test->param_value;
	struct cpuidle_governor *govs[ARRAY_SIZE(c->ratings)];
	LIST_HEAD(governors);
	int i;

	for (i = 0; i < ARRAY_SIZE(c->ratings) && c->ratings[i] >= 0; i++)
		govs[i] = add_governor(test, &governors, "gov", c->ratings[i], NULL);
	KUNIT_ASSERT_LT(test, c->curr, i);
	KUNIT_ASSERT_LT(test, c->want, i);

	KUNIT_EXPECT_PTR_EQ(test, cpuidle_governor_successor(&governors, govs[c->curr]),
			    govs[c->want]);
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
	KUNIT_CASE_PARAM(successor_by_rating, successor_gen_params),
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
