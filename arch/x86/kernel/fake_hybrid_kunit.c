// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hybrid scheduling test hook's parser: good values of
 * fake_hybrid= land per CPU as given, and every kind of malformed value is
 * refused with a message that names it. (The packing rule it is used to
 * test has its own suite, kernel/sched/asym_pack_kunit.c.)
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "fake_hybrid.h"

#define NR_TEST_CPUS 6

struct parse_case {
	const char *arg;
	const char *err;	/* expected in the message; NULL: must parse */
};

static int parse(struct kunit *test, const char *arg,
		 struct fake_hybrid_cpu *cpus, char *err, size_t len)
{
	memset(err, 0, len);
	return fake_hybrid_parse(arg, cpus, NR_TEST_CPUS, err, len);
}

static void parse_two_types(struct kunit *test)
{
	struct fake_hybrid_cpu cpus[NR_TEST_CPUS];
	char err[128];
	int cpu;

	KUNIT_ASSERT_EQ(test, parse(test, "P:0-1:1024:64,E:2-5:605:32",
				    cpus, err, sizeof(err)), 0);
	for (cpu = 0; cpu < 2; cpu++) {
		KUNIT_EXPECT_EQ(test, cpus[cpu].type, FAKE_HYBRID_P);
		KUNIT_EXPECT_EQ(test, cpus[cpu].capacity, 1024);
		KUNIT_EXPECT_EQ(test, cpus[cpu].prio, 64);
	}
	for (cpu = 2; cpu < NR_TEST_CPUS; cpu++) {
		KUNIT_EXPECT_EQ(test, cpus[cpu].type, FAKE_HYBRID_E);
		KUNIT_EXPECT_EQ(test, cpus[cpu].capacity, 605);
		KUNIT_EXPECT_EQ(test, cpus[cpu].prio, 32);
	}
}

static void parse_single_cpus_any_order(struct kunit *test)
{
	struct fake_hybrid_cpu cpus[NR_TEST_CPUS];
	char err[128];

	/* Lower case, single CPUs, interleaved types, one P-core per group. */
	KUNIT_ASSERT_EQ(test, parse(test,
				    "e:5:500:1,p:0:1024:9,E:1-4:500:2,P:2:900:8",
				    cpus, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err, "CPU 2 is named twice"));

	KUNIT_ASSERT_EQ(test, parse(test, "e:5:500:1,p:0:1024:9,E:2-4:500:2,P:1:900:8",
				    cpus, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, cpus[0].type, FAKE_HYBRID_P);
	KUNIT_EXPECT_EQ(test, cpus[1].capacity, 900);
	KUNIT_EXPECT_EQ(test, cpus[1].prio, 8);
	KUNIT_EXPECT_EQ(test, cpus[5].type, FAKE_HYBRID_E);
	KUNIT_EXPECT_EQ(test, cpus[5].prio, 1);
}

static const struct parse_case malformed[] = {
	{ "", "want TYPE:CPUS:CAPACITY:PRIORITY" },
	{ "P:0-5:1024", "want TYPE:CPUS:CAPACITY:PRIORITY" },
	{ "P:0-1:1024:64:1,E:2-5:605:32", "want TYPE:CPUS:CAPACITY:PRIORITY" },
	{ "X:0-1:1024:64,E:2-5:605:32", "TYPE 'X' is neither P nor E" },
	{ "P:1-0:1024:64,E:2-5:605:32", "runs backwards" },
	{ "P:0-1:1024:64,E:2-6:605:32", "CPU 6 does not exist" },
	{ "P:a-1:1024:64,E:2-5:605:32", "CPUS must be N or N-M" },
	{ "P:0-1:1025:64,E:2-5:605:32", "CAPACITY '1025' is not in 1..1024" },
	{ "P:0-1:1024:0,E:2-5:605:32", "PRIORITY '0' is not in 1..255" },
	{ "P:0-1:1024:64,E:2-5:605:256", "PRIORITY '256' is not in 1..255" },
	{ "P:0-1:1024:64,E:2-5:-5:32", "CAPACITY '-5' is not in 1..1024" },
	{ "P:0-1:1024:64,E:2-4:605:32", "CPU 5 is not named" },
	{ "P:0-5:1024:64", "need at least one P-core and one E-core" },
	{ "P:0-1:600:64,E:2-5:605:32", "E-core capacity 605 is not below P-core capacity 600" },
	{ "P:0-1:1024:64,,E:2-5:605:32", "group 2: want" },
};

static void parse_refuses_malformed(struct kunit *test)
{
	struct fake_hybrid_cpu cpus[NR_TEST_CPUS];
	char err[128];
	int i;

	for (i = 0; i < ARRAY_SIZE(malformed); i++) {
		KUNIT_EXPECT_EQ_MSG(test, parse(test, malformed[i].arg, cpus,
						err, sizeof(err)), -EINVAL,
				    "'%s' was accepted", malformed[i].arg);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, malformed[i].err),
					  "'%s': message '%s', want '%s'",
					  malformed[i].arg, err, malformed[i].err);
	}
}

static struct kunit_case fake_hybrid_cases[] = {
	KUNIT_CASE(parse_two_types),
	KUNIT_CASE(parse_single_cpus_any_order),
	KUNIT_CASE(parse_refuses_malformed),
	{}
};

static struct kunit_suite fake_hybrid_suite = {
	.name = "x86_fake_hybrid",
	.test_cases = fake_hybrid_cases,
};

kunit_test_suite(fake_hybrid_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the fake_hybrid= parser");
MODULE_LICENSE("GPL");
