// SPDX-License-Identifier: GPL-2.0
/*
 * fake_hybrid=: make any x86 machine look like an Intel hybrid part to the
 * scheduler, for testing (not for production use).
 *
 * Format: a comma-separated list of groups TYPE:CPUS:CAPACITY:PRIORITY,
 *
 *	fake_hybrid=P:0-1:1024:64,E:2-5:605:32
 *
 * TYPE is P or E, CPUS one CPU or a range "first-last", CAPACITY the CPU's
 * capacity at its highest frequency (1..1024; the largest one given becomes
 * 1024) and PRIORITY its ITMT priority (1..255; efficiency-first packing
 * fills the lowest first).
 * Every possible CPU must be named exactly once, both types must appear and
 * every E-core must have less capacity than every P-core. The example is a
 * 2P+4E part with P-cores at 4.4 GHz and E-cores at 3.3 GHz: intel_pstate
 * counts 78741 kHz per HWP performance unit on such P-cores and 100000 on
 * the E-cores, so their HWP highest performance is 55.9 and 33, and the
 * E-core capacity is 1024 * 33 / 55.9 = 605.
 *
 * What it does, once the CPUs are up (late initcall, where rebuilding the
 * sched domains is allowed), is what 6.12's intel_pstate does on a hybrid
 * part of the machine's shape (hybrid_init_cpu_capacity_scaling()), with
 * nothing 6.12 does not have, so that a kernel without the scheduler series
 * fakes the same parts. Without SMT, it enables hybrid capacity scaling
 * (arch_set_cpu_capacity()), sets the ITMT priorities but not ITMT support,
 * and rebuilds the domains: the domain spanning both core types then has
 * SD_ASYM_CPUCAPACITY and no SD_ASYM_PACKING. With SMT (cpu_smt_possible()),
 * every CPU keeps capacity 1024; it sets the priorities and declares ITMT
 * support, and the domains get SD_ASYM_PACKING, P-cores first. QEMU gives
 * every core the same number of threads; for the shape of an Alder Lake,
 * the test offlines each E-core's second thread after boot. Frequency
 * invariance, where the CPU has it, counts the base frequency as full
 * speed. A malformed value is refused with a message naming the problem,
 * and the machine then boots as if the parameter were absent; so does a
 * real hybrid CPU, whose own drivers know better.
 *
 * /sys/kernel/debug/x86/fake_hybrid lists each CPU's type, capacity and
 * priority as the scheduler sees them.
 */

#define pr_fmt(fmt) "fake_hybrid: " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cpuset.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <linux/cpufeature.h>
#include <linux/topology.h>

#include "fake_hybrid.h"

#define FAKE_HYBRID_ARG_MAX	256

static char fake_hybrid_arg[FAKE_HYBRID_ARG_MAX] __initdata;
static bool fake_hybrid_arg_too_long __initdata;
static struct fake_hybrid_cpu *fake_hybrid_cpus;

static int __init fake_hybrid_setup(char *arg)
{
	if (strscpy(fake_hybrid_arg, arg, sizeof(fake_hybrid_arg)) < 0)
		fake_hybrid_arg_too_long = true;
	return 1;
}
__setup("fake_hybrid=", fake_hybrid_setup);

static int parse_cpus(char *field, unsigned int nr_cpus,
		      unsigned int *first, unsigned int *last,
		      char *err, size_t err_len)
{
	char *dash = strchr(field, '-');

	if (dash)
		*dash++ = '\0';
	if (kstrtouint(field, 10, first) ||
	    (dash && kstrtouint(dash, 10, last))) {
		snprintf(err, err_len, "CPUS must be N or N-M");
		return -EINVAL;
	}
	if (!dash)
		*last = *first;
	if (*first > *last) {
		snprintf(err, err_len, "CPU range %u-%u runs backwards",
			 *first, *last);
		return -EINVAL;
	}
	if (*last >= nr_cpus) {
		snprintf(err, err_len, "CPU %u does not exist (last is %u)",
			 *last, nr_cpus - 1);
		return -EINVAL;
	}
	return 0;
}

static int parse_bounded(const char *field, const char *what,
			 unsigned int max, unsigned int *val,
			 char *err, size_t err_len)
{
	if (kstrtouint(field, 10, val) || *val < 1 || *val > max) {
		snprintf(err, err_len, "%s '%s' is not in 1..%u", what, field, max);
		return -EINVAL;
	}
	return 0;
}

/* One group TYPE:CPUS:CAPACITY:PRIORITY into @cpus. */
static int parse_group(char *group, struct fake_hybrid_cpu *cpus,
		       unsigned int nr_cpus, char *err, size_t err_len)
{
	char *field[4];
	enum fake_hybrid_type type;
	unsigned int first, last, capacity, prio, cpu, n;

	for (n = 0; n < ARRAY_SIZE(field); n++) {
		field[n] = strsep(&group, ":");
		if (!field[n])
			break;
	}
	if (n != ARRAY_SIZE(field) || group) {
		snprintf(err, err_len, "want TYPE:CPUS:CAPACITY:PRIORITY");
		return -EINVAL;
	}

	if (!strcasecmp(field[0], "P")) {
		type = FAKE_HYBRID_P;
	} else if (!strcasecmp(field[0], "E")) {
		type = FAKE_HYBRID_E;
	} else {
		snprintf(err, err_len, "TYPE '%s' is neither P nor E", field[0]);
		return -EINVAL;
	}
	if (parse_cpus(field[1], nr_cpus, &first, &last, err, err_len) ||
	    parse_bounded(field[2], "CAPACITY", SCHED_CAPACITY_SCALE,
			  &capacity, err, err_len) ||
	    parse_bounded(field[3], "PRIORITY", FAKE_HYBRID_MAX_PRIO,
			  &prio, err, err_len))
		return -EINVAL;

	for (cpu = first; cpu <= last; cpu++) {
		if (cpus[cpu].type != FAKE_HYBRID_NONE) {
			snprintf(err, err_len, "CPU %u is named twice", cpu);
			return -EINVAL;
		}
		cpus[cpu].type = type;
		cpus[cpu].capacity = capacity;
		cpus[cpu].prio = prio;
	}
	return 0;
}

/* The checks that need every group: coverage, both types, capacity order. */
static int check_layout(const struct fake_hybrid_cpu *cpus,
			unsigned int nr_cpus, char *err, size_t err_len)
{
	unsigned int cpu, min_p = UINT_MAX, max_e = 0;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		switch (cpus[cpu].type) {
		case FAKE_HYBRID_NONE:
			snprintf(err, err_len, "CPU %u is not named", cpu);
			return -EINVAL;
		case FAKE_HYBRID_P:
			min_p = min(min_p, cpus[cpu].capacity);
			break;
		case FAKE_HYBRID_E:
			max_e = max(max_e, cpus[cpu].capacity);
			break;
		}
	}
	if (min_p == UINT_MAX || !max_e) {
		snprintf(err, err_len, "need at least one P-core and one E-core");
		return -EINVAL;
	}
	if (max_e >= min_p) {
		snprintf(err, err_len,
			 "E-core capacity %u is not below P-core capacity %u",
			 max_e, min_p);
		return -EINVAL;
	}
	return 0;
}

/**
 * fake_hybrid_parse() - parse a fake_hybrid= value
 * @arg:	the value, e.g. "P:0-1:1024:64,E:2-5:605:32"
 * @cpus:	@nr_cpus entries, filled in from @arg
 * @nr_cpus:	how many CPUs the machine can have; all must be named
 * @err:	on failure, what is wrong with @arg
 * @err_len:	size of @err
 *
 * Return: 0, or -EINVAL (and a message in @err) when @arg is malformed, or
 * -ENOMEM. @cpus is meaningless on failure.
 */
int fake_hybrid_parse(const char *arg, struct fake_hybrid_cpu *cpus,
		      unsigned int nr_cpus, char *err, size_t err_len)
{
	char *copy, *rest, *group;
	unsigned int n = 0;
	int ret = 0;

	memset(cpus, 0, nr_cpus * sizeof(*cpus));
	copy = kstrdup(arg, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	rest = copy;
	while ((group = strsep(&rest, ",")) != NULL) {
		char msg[96];

		n++;
		if (parse_group(group, cpus, nr_cpus, msg, sizeof(msg))) {
			snprintf(err, err_len, "group %u: %s", n, msg);
			ret = -EINVAL;
			goto out;
		}
	}
	ret = check_layout(cpus, nr_cpus, err, err_len);
out:
	kfree(copy);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(fake_hybrid_parse);

static const char *const fake_hybrid_type_name[] = {
	[FAKE_HYBRID_NONE] = "-",
	[FAKE_HYBRID_P] = "P",
	[FAKE_HYBRID_E] = "E",
};

static int fake_hybrid_show(struct seq_file *m, void *unused)
{
	unsigned int cpu;

	seq_puts(m, "cpu type capacity priority\n");
	for_each_possible_cpu(cpu)
		seq_printf(m, "%u %s %lu %d\n", cpu,
			   fake_hybrid_type_name[fake_hybrid_cpus[cpu].type],
			   arch_scale_cpu_capacity(cpu),
			   arch_asym_cpu_priority(cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fake_hybrid);

/*
 * As 6.12's intel_pstate does on a hybrid part of this machine's shape
 * (hybrid_init_cpu_capacity_scaling()):
 *
 *  - without SMT, capacities instead of ITMT, the priorities set all the
 *    same; the rebuild makes the capacity scan see the new capacities;
 *  - with SMT, ITMT with flat capacities.
 */
static void __init fake_hybrid_apply(bool smt)
{
	unsigned int cpu, max_cap = 0;

	for_each_possible_cpu(cpu)
		max_cap = max(max_cap, fake_hybrid_cpus[cpu].capacity);

	for_each_possible_cpu(cpu) {
		const struct fake_hybrid_cpu *c = &fake_hybrid_cpus[cpu];

		if (!smt)
			arch_set_cpu_capacity(cpu, c->capacity, max_cap, 1, 1);
		sched_set_itmt_core_prio(c->prio, cpu);
		pr_info("CPU %u: %s-core, capacity %lu%s, priority %u\n", cpu,
			fake_hybrid_type_name[c->type],
			(unsigned long)c->capacity * SCHED_CAPACITY_SCALE / max_cap,
			smt ? " (not set: SMT)" : "", c->prio);
	}

	if (smt) {
		if (sched_set_itmt_support())
			pr_err("ITMT support refused\n");
		return;
	}
	x86_topology_update = true;
	rebuild_sched_domains();
}

static int __init fake_hybrid_init(void)
{
	char err[128];
	bool smt;
	int ret;

	if (!fake_hybrid_arg[0] && !fake_hybrid_arg_too_long)
		return 0;
	if (fake_hybrid_arg_too_long) {
		pr_err("value longer than %d characters, ignored\n",
		       FAKE_HYBRID_ARG_MAX - 1);
		return 0;
	}
	if (cpu_feature_enabled(X86_FEATURE_HYBRID_CPU)) {
		pr_warn("this is a real hybrid CPU, parameter ignored\n");
		return 0;
	}

	if (num_possible_cpus() != nr_cpu_ids) {
		pr_err("possible CPUs are not numbered 0..%u; parameter ignored\n",
		       num_possible_cpus() - 1);
		return 0;
	}

	fake_hybrid_cpus = kcalloc(nr_cpu_ids, sizeof(*fake_hybrid_cpus),
				   GFP_KERNEL);
	if (!fake_hybrid_cpus)
		return -ENOMEM;

	ret = fake_hybrid_parse(fake_hybrid_arg, fake_hybrid_cpus, nr_cpu_ids,
				err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL)
			pr_err("'%s' refused: %s; booting without it\n",
			       fake_hybrid_arg, err);
		goto fail;
	}
	smt = cpu_smt_possible();
	if (!smt && !arch_enable_hybrid_capacity_scale()) {
		pr_err("cannot enable capacity scaling; booting without it\n");
		goto fail;
	}

	fake_hybrid_apply(smt);
	debugfs_create_file("fake_hybrid", 0444, arch_debugfs_dir, NULL,
			    &fake_hybrid_fops);
	return 0;

fail:
	kfree(fake_hybrid_cpus);
	fake_hybrid_cpus = NULL;
	return 0;
}
late_initcall(fake_hybrid_init);
