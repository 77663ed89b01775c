// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the cpuidle governor core:
 *
 * - the choice of the governor that takes over when the current one is
 *   unregistered (cpuidle_governor_successor()): each case builds its own
 *   list of governors, the registered ones are never touched;
 *
 * - which governor hears cpuidle_reflect() across a switch: these cases
 *   make two governors of their own current in turn, through the core's
 *   own cpuidle_switch_governor(), and put the governor that was current
 *   back when they end, pass or fail. Every CPU runs the test governors
 *   meanwhile, so they pick the shallowest enabled state and keep the
 *   tick. The cases select and reflect on a probe device that stands for a
 *   CPU that slept through the switch: it is on the core's device list
 *   (so a switch treats it as it treats every CPU's device) but was never
 *   registered, so nothing enables it or enters a state on it.
 */

#include <kunit/test.h>
#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/mutex.h>
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

/**
 * struct probe_governor - a governor that counts its calls for the probe
 * @gov: the governor
 * @selects: ->select() calls for the probe device
 * @reflects: ->reflect() calls for the probe device
 *
 * Only the test thread calls into the core for the probe device, so plain
 * counters do; the idle loop's calls for real CPUs are not counted.
 */
struct probe_governor {
	struct cpuidle_governor gov;
	int selects;
	int reflects;
};

static struct cpuidle_device probe_dev;

/*
 * For real CPUs, the shallowest enabled state with the tick kept: always
 * allowed, and the tick ends a polling state.
 */
static int probe_select(struct probe_governor *pg, struct cpuidle_driver *drv,
			struct cpuidle_device *dev, bool *stop_tick)
{
	int i;

	*stop_tick = false;
	if (dev == &probe_dev) {
		pg->selects++;
		return 0;
	}
	for (i = 0; i < drv->state_count; i++)
		if (!dev->states_usage[i].disable)
			return i;
	return 0;
}

static void probe_reflect(struct probe_governor *pg, struct cpuidle_device *dev)
{
	if (dev == &probe_dev)
		pg->reflects++;
}

static struct probe_governor probe_a, probe_b, probe_silent;

static int select_a(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		    bool *stop_tick)
{
	return probe_select(&probe_a, drv, dev, stop_tick);
}

static void reflect_a(struct cpuidle_device *dev, int index)
{
	probe_reflect(&probe_a, dev);
}

static int select_b(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		    bool *stop_tick)
{
	return probe_select(&probe_b, drv, dev, stop_tick);
}

static void reflect_b(struct cpuidle_device *dev, int index)
{
	probe_reflect(&probe_b, dev);
}

static int select_silent(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	return probe_select(&probe_silent, drv, dev, stop_tick);
}

/* Never registered: they are only ever made current by the cases. */
static struct probe_governor probe_a = {
	.gov = { .name = "kunit_a", .select = select_a, .reflect = reflect_a,
		 .owner = THIS_MODULE },
};

static struct probe_governor probe_b = {
	.gov = { .name = "kunit_b", .select = select_b, .reflect = reflect_b,
		 .owner = THIS_MODULE },
};

static struct probe_governor probe_silent = {
	.gov = { .name = "kunit_silent", .select = select_silent,
		 .owner = THIS_MODULE },
};

static void probe_counts_reset(struct probe_governor *pg)
{
	pg->selects = 0;
	pg->reflects = 0;
}

/* The governor current when a case started, pinned until it is back. */
static struct cpuidle_governor *saved_governor;

static void switch_cases_exit(struct kunit *test)
{
	mutex_lock(&cpuidle_lock);
	if (saved_governor) {
		/*
		 * It cannot be unloaded meanwhile (we hold its module), and
		 * being pinned it cannot fail try_module_get().
		 */
		WARN_ON(cpuidle_switch_governor(saved_governor));
		module_put(saved_governor->owner);
		saved_governor = NULL;
	}
	list_del_init(&probe_dev.device_list);
	mutex_unlock(&cpuidle_lock);
}

static int switch_cases_init(struct kunit *test)
{
	mutex_lock(&cpuidle_lock);
	saved_governor = cpuidle_curr_governor;
	if (saved_governor && !try_module_get(saved_governor->owner))
		saved_governor = NULL;
	memset(&probe_dev, 0, sizeof(probe_dev));
	list_add_tail(&probe_dev.device_list, &cpuidle_detected_devices);
	mutex_unlock(&cpuidle_lock);

	probe_counts_reset(&probe_a);
	probe_counts_reset(&probe_b);
	probe_counts_reset(&probe_silent);

	/* switch_cases_exit() takes the probe off the list. */
	if (!saved_governor)
		kunit_skip(test, "no current governor to come back to");
	return 0;
}

static void switch_to(struct kunit *test, struct probe_governor *pg)
{
	int ret;

	mutex_lock(&cpuidle_lock);
	ret = cpuidle_switch_governor(&pg->gov);
	mutex_unlock(&cpuidle_lock);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/* One idle-loop pass on the probe: select, then reflect the state. */
static void probe_pass(void)
{
	bool stop_tick = true;

	cpuidle_reflect(&probe_dev, cpuidle_select(NULL, &probe_dev, &stop_tick));
}

/*
 * A CPU that selected under one governor and wakes up after a switch: the
 * new governor must not hear a ->reflect() before its own ->select() on
 * that CPU (its ->enable() may still be resetting the CPU's data), and the
 * old one, disabled, must not hear it either. The core used to call the
 * current governor's ->reflect() whatever had selected.
 */
static void reflect_after_switch_reaches_nobody(struct kunit *test)
{
	bool stop_tick = true;

	switch_to(test, &probe_a);
	probe_pass();
	KUNIT_ASSERT_EQ(test, probe_a.selects, 1);
	KUNIT_ASSERT_EQ(test, probe_a.reflects, 1);	/* the control */

	KUNIT_EXPECT_EQ(test, cpuidle_select(NULL, &probe_dev, &stop_tick), 0);
	switch_to(test, &probe_b);
	cpuidle_reflect(&probe_dev, 0);
	KUNIT_EXPECT_EQ(test, probe_b.reflects, 0);
	KUNIT_EXPECT_EQ(test, probe_a.reflects, 1);

	/* Once the new governor has selected, it hears how it went. */
	probe_pass();
	KUNIT_EXPECT_EQ(test, probe_b.selects, 1);
	KUNIT_EXPECT_EQ(test, probe_b.reflects, 1);
	KUNIT_EXPECT_EQ(test, probe_a.selects, 2);
}

/*
 * A governor without ->reflect() (a module may have none) is current:
 * reflecting its selections, or a selection the previous governor made,
 * calls nothing. An index below 0 (the state was not entered) reaches no
 * governor either.
 */
static void reflect_without_callback(struct kunit *test)
{
	bool stop_tick = true;

	switch_to(test, &probe_a);
	cpuidle_select(NULL, &probe_dev, &stop_tick);
	cpuidle_reflect(&probe_dev, -1);
	KUNIT_EXPECT_EQ(test, probe_a.reflects, 0);

	switch_to(test, &probe_silent);
	cpuidle_reflect(&probe_dev, 0);
	probe_pass();
	KUNIT_EXPECT_EQ(test, probe_silent.selects, 1);
	KUNIT_EXPECT_EQ(test, probe_a.reflects, 0);
}

static struct kunit_case cpuidle_reflect_cases[] = {
	KUNIT_CASE(reflect_after_switch_reaches_nobody),
	KUNIT_CASE(reflect_without_callback),
	{}
};

static struct kunit_suite cpuidle_reflect_suite = {
	.name = "cpuidle_reflect",
	.init = switch_cases_init,
	.exit = switch_cases_exit,
	.test_cases = cpuidle_reflect_cases,
};

kunit_test_suites(&cpuidle_governor_suite, &cpuidle_reflect_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the cpuidle governor core");
MODULE_LICENSE("GPL");
