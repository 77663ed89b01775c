// SPDX-License-Identifier: GPL-2.0
/*
 * msr.c - the budget governor's built-in power signal sources
 *
 * Two sources read model-specific registers and hand the sampler in
 * signals.c cumulative readings (struct cpuidle_budget_reading), the same
 * interface an external source registers through. What they read, and
 * what they cannot see, is the DOC: block below; the rest of this comment
 * is for whoever changes the code.
 *
 * RAPL units come in two encodings (Intel SDM vol. 4, and the table of
 * drivers/powercap/intel_rapl_common.c): on Core parts, and on Atom parts
 * from Goldmont on, a unit is 1/2^N of a joule, watt or second; on
 * Silvermont and Airmont (Bay Trail, Cherry Trail, Braswell, Merrifield,
 * Moorefield) the energy unit is 2^N microjoules, the power unit 2^N
 * milliwatts, and the PL1 time window is a plain count of time units.
 * budget_rapl_atom_units() picks the encoding by CPU model.
 *
 * Every access uses a _safe variant, through rdmsrl_safe_on_cpu() on the
 * CPU of the package the sampler names: the sampling work is bound to
 * that CPU (signals.c), so the call normally runs the read locally, and
 * it is an IPI only when the work ran elsewhere (the CPU went offline
 * under it). rdmsrl_safe_on_cpu() waits for a completion: it may sleep
 * and is called only from the sampler's process context, never with
 * preemption disabled.
 */

/**
 * DOC: MSR sources
 *
 * ``intel-rapl``
 *	MSR_RAPL_POWER_UNIT decodes the units, once per package.
 *	MSR_PKG_POWER_LIMIT gives PL1 with its time window and PL2, with
 *	their enable bits; it is re-read at every sample, as firmware and
 *	user space change it. PL1 is the long-term limit, PL2 the short-term
 *	one (a PL2 below PL1 is both). MSR_PKG_ENERGY_STATUS, a wrapping
 *	32-bit counter, gives the average power. MSR_PKG_PERF_STATUS, where
 *	it exists, counts the time the package was throttled. The power
 *	limit notification bit (10) of MSR_IA32_PACKAGE_THERM_STATUS (read
 *	only where CPUID says the register and the bit exist: PTM and PLN)
 *	and, where the model documents them, the PL1 and PL2 status bits
 *	(10, 11) of the core's limit-reasons register say whether a power
 *	limit is enforced right now, and its Max Turbo Limit status bit (12)
 *	whether the turbo ratio limit for the number of active cores holds
 *	the CPUs back. The register is 0x690 on Haswell and Broadwell client
 *	parts and 0x64F from Skylake on (SDM vol. 4; 0x690 is an LBR
 *	register there); other models have none read (the table in msr.c).
 *	Only the status bits are read: the sticky log bits would have to be
 *	cleared by writing the register. The units are decoded as
 *	Silvermont and Airmont encode them on those models (energy unit
 *	2^N uJ, power unit 2^N mW, the PL1 window a count of time units) and
 *	as 1/2^N J, W and s on all others, as intel_rapl_common does.
 * ``amd``
 *	MSR_AMD_RAPL_POWER_UNIT and MSR_AMD_PKG_ENERGY_STATUS give the
 *	energy. There is no limit register (the limits live in firmware), so
 *	the limit is the amd_power_limit_mw parameter.
 *
 * Every MSR access uses a _safe variant.
 *
 * What the intel-rapl source cannot see: limits held only in the
 * memory-mapped copy of the power limit (the MCHBAR registers that BIOS and
 * intel_rapl_mmio program on client parts; the lower of the MSR and MMIO
 * limits is enforced), limits set through TPMI (Granite Rapids and later
 * servers, intel_rapl_tpmi), PL4, and the platform (PSys) domain. A part
 * limited by one of these looks unlimited through the MSRs, unless it
 * reports throttling (MSR_PKG_PERF_STATUS) or the limit notification bits,
 * which reflect the limit actually being enforced, wherever it was set.
 *
 * HWP capabilities are not read: on hybrid parts arch_freq_scale is
 * already scaled against each CPU's HWP highest performance (intel_pstate
 * sets it through arch_set_cpu_capacity()), elsewhere against the turbo
 * ratio limits, so the sampler's frequency headroom is the headroom below
 * what HWP would grant.
 */

#include <kunit/visibility.h>
#include <linux/cpufeature.h>
#include <linux/cpuidle_budget.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

#include "budget.h"

/*
 * The limit-reason bits, the same in both registers below: package-level
 * PL1 and PL2 status.
 */
#define BUDGET_PLR_PL1		BIT_ULL(10)
#define BUDGET_PLR_PL2		BIT_ULL(11)
/* Held below the requested frequency by the turbo ratio limit for the active cores. */
#define BUDGET_PLR_MAX_TURBO	BIT_ULL(12)

static unsigned int budget_amd_limit_mw;

static int budget_amd_limit_set(const char *val, const struct kernel_param *kp)
{
	return cpuidle_budget_uint_param_set(val, kp, 0, 10000000);
}

static const struct kernel_param_ops budget_amd_limit_ops = {
	.set = budget_amd_limit_set,
	.get = param_get_uint,
};
module_param_cb(amd_power_limit_mw, &budget_amd_limit_ops, &budget_amd_limit_mw, 0644);
MODULE_PARM_DESC(amd_power_limit_mw,
		 "Package power limit for the amd source, 0..10000000 mW, 0 = none (default: 0)");

/* Pure arithmetic, exported to the KUnit suite. */

/**
 * cpuidle_budget_rapl_decode_units - decode MSR_RAPL_POWER_UNIT
 * @raw: register value
 * @atom: the part uses the Silvermont/Airmont encoding
 * @u: decoded units
 */
void cpuidle_budget_rapl_decode_units(u64 raw, bool atom, struct budget_rapl_units *u)
{
	u->power_shift = raw & 0xf;
	u->energy_shift = (raw >> 8) & 0x1f;
	u->time_shift = (raw >> 16) & 0xf;
	u->atom = atom;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_rapl_decode_units);

/* Core: 1/2^N W per unit. Atom: 2^N mW per unit. */
static u32 budget_units_to_mw(u64 units, const struct budget_rapl_units *u)
{
	if (u->atom)
		return min_t(u64, units << u->power_shift, U32_MAX);
	return min_t(u64, (units * 1000) >> u->power_shift, U32_MAX);
}

/**
 * cpuidle_budget_rapl_decode_limit - decode MSR_PKG_POWER_LIMIT
 * @raw: register value
 * @u: the package's RAPL units
 * @l: decoded limits
 */
void cpuidle_budget_rapl_decode_limit(u64 raw, const struct budget_rapl_units *u,
				      struct budget_rapl_limit *l)
{
	u64 y = (raw >> 17) & 0x1f, z = (raw >> 22) & 0x3;
	u64 unit_us = USEC_PER_SEC >> u->time_shift;

	l->pl1_mw = budget_units_to_mw(raw & 0x7fff, u);
	l->pl1_enabled = raw & BIT_ULL(15);
	if (u->atom) {
		/* Bits 23:17 count time units; 0 means one. */
		l->pl1_window_us = max_t(u64, (raw >> 17) & 0x7f, 1) * unit_us;
	} else {
		/* Window = 2^Y * (1 + Z/4) time units. */
		l->pl1_window_us = (((4 + z) << y) * USEC_PER_SEC) >> (u->time_shift + 2);
	}
	l->pl2_mw = budget_units_to_mw((raw >> 32) & 0x7fff, u);
	l->pl2_enabled = raw & BIT_ULL(47);
	l->locked = raw & BIT_ULL(63);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_rapl_decode_limit);

/**
 * cpuidle_budget_rapl_fill_limits - a reading's limits from the decoded register
 * @l: decoded limits
 * @r: the reading whose @limit_mw, @limit_window_us and @short_limit_mw
 *	to fill
 *
 * An enforced PL1 is the long-term limit, with its window; an enforced
 * PL2 the short-term one. A PL2 at or below PL1 (some firmware sets them
 * equal) holds the power at all times: it is then the long-term limit too,
 * the window being the PL1 window if PL1 is enforced, else unknown.
 */
void cpuidle_budget_rapl_fill_limits(const struct budget_rapl_limit *l,
				     struct cpuidle_budget_reading *r)
{
	bool pl1 = l->pl1_enabled && l->pl1_mw, pl2 = l->pl2_enabled && l->pl2_mw;

	r->limit_mw = pl1 ? l->pl1_mw : 0;
	r->limit_window_us = pl1 ? l->pl1_window_us : 0;
	r->short_limit_mw = pl2 ? l->pl2_mw : 0;
	if (pl2 && (!pl1 || l->pl2_mw < l->pl1_mw))
		r->limit_mw = l->pl2_mw;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_rapl_fill_limits);

/**
 * cpuidle_budget_counter_delta - advance of a wrapping 32-bit hardware counter
 * @prev: earlier reading
 * @now: later reading
 *
 * Return: @now - @prev modulo 2^32 (one wrap at most between readings).
 */
u32 cpuidle_budget_counter_delta(u32 prev, u32 now)
{
	return now - prev;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_counter_delta);

/**
 * cpuidle_budget_rapl_to_micro - a count of RAPL units of 1/2^shift in millionths
 * @count: number of units (an extended counter: any 64-bit value)
 * @shift: the unit's shift, from MSR_RAPL_POWER_UNIT
 *
 * Return: @count * 10^6 / 2^@shift, without overflowing the intermediate.
 */
u64 cpuidle_budget_rapl_to_micro(u64 count, u8 shift)
{
	return mul_u64_u32_shr(count, USEC_PER_SEC, shift);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_rapl_to_micro);

/**
 * cpuidle_budget_rapl_energy_uj - an energy count in microjoules
 * @count: energy status units (an extended counter)
 * @u: the package's RAPL units
 *
 * Return: @count in microjoules: 10^6 / 2^N each on Core, 2^N on Atom.
 */
u64 cpuidle_budget_rapl_energy_uj(u64 count, const struct budget_rapl_units *u)
{
	if (u->atom)
		return count << u->energy_shift;
	return cpuidle_budget_rapl_to_micro(count, u->energy_shift);
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_rapl_energy_uj);

/* Silvermont and Airmont: the Atom encoding of MSR_RAPL_POWER_UNIT. */
static const struct x86_cpu_id budget_rapl_atom_ids[] = {
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT, NULL),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT_MID, NULL),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT, NULL),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT_MID, NULL),
	{}
};

static bool budget_rapl_atom_units(void)
{
	return x86_match_cpu(budget_rapl_atom_ids);
}

/*
 * Where each model keeps the core's limit reasons (SDM vol. 4): Haswell
 * and Broadwell client parts at 0x690, MSR_CORE_PERF_LIMIT_REASONS; from
 * Skylake on, client parts at 0x64F, MSR_PERF_LIMIT_REASONS in
 * msr-index.h, and 0x690 is then the LBR stack's 17th FROM_IP register,
 * a branch address whose bits 10-12 mean nothing here. Models not in the
 * table, Atom parts (Jasper Lake among them) and the server parts, have
 * no register read: none is documented for them, or this table has not
 * been checked against the SDM for them (Meteor Lake and later).
 */
static const struct budget_plr_model {
	u32 vfm;
	u32 msr;
} budget_plr_models[] = {
	{ INTEL_HASWELL, MSR_CORE_PERF_LIMIT_REASONS },
	{ INTEL_HASWELL_L, MSR_CORE_PERF_LIMIT_REASONS },
	{ INTEL_HASWELL_G, MSR_CORE_PERF_LIMIT_REASONS },
	{ INTEL_BROADWELL, MSR_CORE_PERF_LIMIT_REASONS },
	{ INTEL_BROADWELL_G, MSR_CORE_PERF_LIMIT_REASONS },
	{ INTEL_SKYLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_SKYLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_KABYLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_KABYLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_COMETLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_COMETLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_CANNONLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_ICELAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_ICELAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_TIGERLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_TIGERLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_ROCKETLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_ALDERLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_ALDERLAKE_L, MSR_PERF_LIMIT_REASONS },
	{ INTEL_RAPTORLAKE, MSR_PERF_LIMIT_REASONS },
	{ INTEL_RAPTORLAKE_P, MSR_PERF_LIMIT_REASONS },
	{ INTEL_RAPTORLAKE_S, MSR_PERF_LIMIT_REASONS },
};

/**
 * cpuidle_budget_limit_reasons_msr - the limit-reasons register of a model
 * @vfm: the CPU's vendor, family and model (boot_cpu_data.x86_vfm)
 *
 * Return: the register's address, 0 where the model has none documented.
 */
u32 cpuidle_budget_limit_reasons_msr(u32 vfm)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(budget_plr_models); i++) {
		if (budget_plr_models[i].vfm == vfm)
			return budget_plr_models[i].msr;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cpuidle_budget_limit_reasons_msr);

/* The sources. */

/**
 * struct budget_msr_pkg - per-package state of the MSR sources
 * @units: decoded power units
 * @energy_raw: last raw energy counter
 * @energy: energy counter extended to 64 bits
 * @perf_raw: last raw MSR_PKG_PERF_STATUS
 * @perf: throttled-time counter extended to 64 bits
 * @primed: the raw fields hold a first reading
 * @has_perf_status: MSR_PKG_PERF_STATUS can be read
 * @limit_reasons_msr: the model's limit-reasons register, 0 if none
 * @has_therm_status: MSR_IA32_PACKAGE_THERM_STATUS and its power limit
 *	notification bit exist (CPUID.06H:EAX bits 6 and 4)
 */
struct budget_msr_pkg {
	struct budget_rapl_units units;
	u32 energy_raw;
	u64 energy;
	u32 perf_raw;
	u64 perf;
	bool primed;
	bool has_perf_status;
	u32 limit_reasons_msr;
	bool has_therm_status;
};

static struct budget_msr_pkg *budget_msr_pkgs;
static unsigned int budget_msr_npkgs;

/* Process context only: rdmsrl_safe_on_cpu() may sleep. */
static int budget_rdmsr(int cpu, u32 msr, u64 *val)
{
	might_sleep();
	return rdmsrl_safe_on_cpu(cpu, msr, val);
}

/*
 * A register the source cannot do without: its fault disables the source,
 * and the sampler logs that one line; the register is for dynamic debug.
 */
static int budget_rdmsr_required(unsigned int pkg, int cpu, u32 msr, u64 *val)
{
	int ret = budget_rdmsr(cpu, msr, val);

	if (ret)
		pr_debug("cpuidle_budget: package %u: reading MSR 0x%x faulted\n", pkg, msr);
	return ret;
}

/* Extend a wrapping 32-bit counter: @total advances by what @last moved. */
static void budget_extend_counter(u32 *last, u64 *total, u32 now, bool primed)
{
	if (primed)
		*total += cpuidle_budget_counter_delta(*last, now);
	*last = now;
}

static struct budget_msr_pkg *budget_msr_pkg(unsigned int pkg)
{
	return pkg < budget_msr_npkgs ? &budget_msr_pkgs[pkg] : NULL;
}

static int budget_msr_probe(unsigned int pkg, int cpu, u32 unit_msr, bool intel)
{
	struct budget_msr_pkg *mp = budget_msr_pkg(pkg);
	u64 raw;
	int ret;

	if (!mp)
		return -ENODEV;
	ret = budget_rdmsr_required(pkg, cpu, unit_msr, &raw);
	if (ret)
		return ret;
	*mp = (struct budget_msr_pkg) {};
	cpuidle_budget_rapl_decode_units(raw, intel && budget_rapl_atom_units(), &mp->units);
	if (intel) {
		mp->has_perf_status = !budget_rdmsr(cpu, MSR_PKG_PERF_STATUS, &raw);
		mp->limit_reasons_msr =
			cpuidle_budget_limit_reasons_msr(boot_cpu_data.x86_vfm);
		if (mp->limit_reasons_msr && budget_rdmsr(cpu, mp->limit_reasons_msr, &raw))
			mp->limit_reasons_msr = 0;
		mp->has_therm_status = boot_cpu_has(X86_FEATURE_PTS) &&
				       boot_cpu_has(X86_FEATURE_PLN);
	}
	return 0;
}

static int budget_read_energy(unsigned int pkg, int cpu, u32 msr,
			      struct budget_msr_pkg *mp, struct cpuidle_budget_reading *r)
{
	u64 raw;
	int ret;

	ret = budget_rdmsr_required(pkg, cpu, msr, &raw);
	if (ret)
		return ret;
	budget_extend_counter(&mp->energy_raw, &mp->energy, raw, mp->primed);
	r->energy_uj = cpuidle_budget_rapl_energy_uj(mp->energy, &mp->units);
	r->valid |= CPUIDLE_BUDGET_HAS_ENERGY;
	return 0;
}

static int budget_rapl_probe(unsigned int pkg, int cpu)
{
	return budget_msr_probe(pkg, cpu, MSR_RAPL_POWER_UNIT, true);
}

static int budget_rapl_read(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r)
{
	struct budget_msr_pkg *mp = budget_msr_pkg(pkg);
	struct budget_rapl_limit limit;
	u64 raw;
	int ret;

	if (!mp)
		return -ENODEV;
	ret = budget_read_energy(pkg, cpu, MSR_PKG_ENERGY_STATUS, mp, r);
	if (ret)
		return ret;

	ret = budget_rdmsr_required(pkg, cpu, MSR_PKG_POWER_LIMIT, &raw);
	if (ret)
		return ret;
	cpuidle_budget_rapl_decode_limit(raw, &mp->units, &limit);
	cpuidle_budget_rapl_fill_limits(&limit, r);
	r->valid |= CPUIDLE_BUDGET_HAS_LIMIT;

	/* Optional registers: their absence is normal, not a fault. */
	if (mp->has_perf_status && !budget_rdmsr(cpu, MSR_PKG_PERF_STATUS, &raw)) {
		budget_extend_counter(&mp->perf_raw, &mp->perf, raw, mp->primed);
		r->throttled_us = cpuidle_budget_rapl_to_micro(mp->perf, mp->units.time_shift);
		r->valid |= CPUIDLE_BUDGET_HAS_THROTTLE;
	}
	if (mp->has_therm_status &&
	    !budget_rdmsr(cpu, MSR_IA32_PACKAGE_THERM_STATUS, &raw)) {
		r->limit_active = raw & PACKAGE_THERM_STATUS_POWER_LIMIT;
		r->valid |= CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE;
	}
	if (mp->limit_reasons_msr &&
	    !budget_rdmsr(cpu, mp->limit_reasons_msr, &raw)) {
		r->limit_active |= !!(raw & (BUDGET_PLR_PL1 | BUDGET_PLR_PL2));
		r->turbo_limited = raw & BUDGET_PLR_MAX_TURBO;
		r->valid |= CPUIDLE_BUDGET_HAS_LIMIT_ACTIVE | CPUIDLE_BUDGET_HAS_TURBO_LIMIT;
	}
	mp->primed = true;
	return 0;
}

const struct cpuidle_budget_source cpuidle_budget_rapl_source = {
	.name = "intel-rapl",
	.probe = budget_rapl_probe,
	.read = budget_rapl_read,
};

static int budget_amd_probe(unsigned int pkg, int cpu)
{
	return budget_msr_probe(pkg, cpu, MSR_AMD_RAPL_POWER_UNIT, false);
}

static int budget_amd_read(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r)
{
	struct budget_msr_pkg *mp = budget_msr_pkg(pkg);
	int ret;

	if (!mp)
		return -ENODEV;
	ret = budget_read_energy(pkg, cpu, MSR_AMD_PKG_ENERGY_STATUS, mp, r);
	if (ret)
		return ret;
	mp->primed = true;
	r->limit_mw = READ_ONCE(budget_amd_limit_mw);
	r->valid |= CPUIDLE_BUDGET_HAS_LIMIT;
	return 0;
}

const struct cpuidle_budget_source cpuidle_budget_amd_source = {
	.name = "amd",
	.probe = budget_amd_probe,
	.read = budget_amd_read,
};

/**
 * cpuidle_budget_msr_default_source - the built-in source for this CPU vendor
 *
 * Return: intel-rapl on Intel, amd on AMD and Hygon, NULL elsewhere.
 */
const struct cpuidle_budget_source *cpuidle_budget_msr_default_source(void)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		return &cpuidle_budget_rapl_source;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return &cpuidle_budget_amd_source;
	default:
		return NULL;
	}
}

int cpuidle_budget_msr_init(unsigned int npkgs)
{
	budget_msr_pkgs = kcalloc(npkgs, sizeof(*budget_msr_pkgs), GFP_KERNEL);
	if (!budget_msr_pkgs)
		return -ENOMEM;
	budget_msr_npkgs = npkgs;
	return 0;
}

void cpuidle_budget_msr_exit(void)
{
	kfree(budget_msr_pkgs);
	budget_msr_pkgs = NULL;
	budget_msr_npkgs = 0;
}
