// SPDX-License-Identifier: GPL-2.0
/*
 * emul_rapl.c - the emulated package as a RAPL interface of intel_rapl_common
 *
 * Loading this module registers the package model (emul_idle
 * power_model=1) with the kernel's RAPL driver, the way intel_rapl_tpmi
 * plugs a package in: a struct rapl_if_priv whose read_raw and write_raw
 * callbacks serve registers made from the model. The guest then has
 * /sys/class/powercap/intel-rapl:0 ("package-0") with energy_uj,
 * max_energy_range_uj and the long_term (PL1) and short_term (PL2)
 * constraints, as a laptop has: user space and the kernel read the
 * emulated package the way they read a real one.
 *
 * The registers have TPMI's layout (drivers/powercap/intel_rapl_common.c:
 * rpi_tpmi, rapl_check_unit_tpmi()), not the MSRs' a client part has:
 * intel_rapl_common gives the MSR and MMIO interfaces their units and
 * time-window arithmetic only on CPU models of its own table, and a TCG
 * guest's CPU is not one; TPMI's work on any CPU. What user space sees
 * in powercap sysfs is the same either way.
 *
 * - Unit register: power 1/8 W, energy 2^-14 J (61 uJ), time 2^-10 s,
 *   the units of most Intel client parts' MSR_RAPL_POWER_UNIT.
 * - Status (energy): the model's package energy in energy units, a
 *   32-bit counter that wraps, as RAPL's does (at 262 kJ: 30 minutes at
 *   145 W), 1 at the model's start so that the driver sees it counting.
 * - Perf status: the model's time at the limit, in time units.
 * - PL1 and PL2: limit (bits 17:0), time window (24:18, 2^Y * (1 + F/4)
 *   time units), enable (62), never locked (63). They are emul_idle's
 *   pl1_mw, pl2_mw, pl1_window_ms and pl2_window_ms parameters: a write
 *   through powercap is a write to those, refused where the parameters
 *   refuse it (PL2 below PL1, out of range). A disabled limit holds its
 *   value for the register; the model then runs without PL2 (at
 *   EMUL_NO_LIMIT_MW), or with PL1 at PL2, which then holds the average.
 *
 * On unload intel_rapl_common disables every limit of the package (as it
 * does for a real one); the model then gets back the limits it had when
 * this module was loaded.
 */

#include <linux/bits.h>
#include <linux/cpuidle_budget.h>
#include <linux/intel_rapl.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/powercap.h>

#include "emul.h"

/* Units, as a unit register encodes them: 1/2^N W, J and s (emul.h). */
#define EMUL_RAPL_UNITS		(EMUL_RAPL_POWER_SHIFT | EMUL_RAPL_ENERGY_SHIFT << 6 | \
				 EMUL_RAPL_TIME_SHIFT << 12)

/* The TPMI layout of a power limit register. */
#define EMUL_RAPL_LIMIT		GENMASK_ULL(17, 0)
#define EMUL_RAPL_WINDOW_SHIFT	18
#define EMUL_RAPL_WINDOW	GENMASK_ULL(24, 18)
#define EMUL_RAPL_ENABLE	BIT_ULL(62)

/* Register cookies (union rapl_reg.val): 0 is "no register". */
enum {
	EMUL_REG_NONE,
	EMUL_REG_UNIT,
	EMUL_REG_STATUS,
	EMUL_REG_PERF,
	EMUL_REG_PL1,
	EMUL_REG_PL2,
};

/**
 * struct emul_rapl_pl - one power limit as its register holds it
 * @disabled: the enable bit is clear: the model runs without the limit
 * @held_mw: the limit's value while disabled
 */
struct emul_rapl_pl {
	bool disabled;
	u32 held_mw;
};

static struct {
	struct mutex lock;	/* the registers' read-modify-write */
	struct emul_rapl_pl pl[2];
	struct emul_limits loaded;
	struct powercap_control_type *ct;
	struct rapl_package *rp;
} emul_rapl = {
	.lock = __MUTEX_INITIALIZER(emul_rapl.lock),
};

static struct rapl_if_priv emul_rapl_priv = {
	.type = RAPL_IF_TPMI,
	.reg_unit.val = EMUL_REG_UNIT,
	.regs[RAPL_DOMAIN_PACKAGE] = {
		[RAPL_DOMAIN_REG_UNIT].val = EMUL_REG_UNIT,
		[RAPL_DOMAIN_REG_STATUS].val = EMUL_REG_STATUS,
		[RAPL_DOMAIN_REG_PERF].val = EMUL_REG_PERF,
		[RAPL_DOMAIN_REG_LIMIT].val = EMUL_REG_PL1,
		[RAPL_DOMAIN_REG_PL2].val = EMUL_REG_PL2,
	},
	.limits[RAPL_DOMAIN_PACKAGE] = BIT(POWER_LIMIT1) | BIT(POWER_LIMIT2),
};

/* Time units in a microsecond count. */
static u64 emul_rapl_us_to_units(u64 us)
{
	return div_u64(us << EMUL_RAPL_TIME_SHIFT, USEC_PER_SEC);
}

static u64 emul_rapl_pl_reg(const struct emul_rapl_pl *pl, u32 mw, u32 window_ms)
{
	u64 power = (u64)(pl->disabled ? pl->held_mw : mw) << EMUL_RAPL_POWER_SHIFT;

	return min_t(u64, div_u64(power, 1000), EMUL_RAPL_LIMIT) |
	       (u64)emul_rapl_window_encode(window_ms) << EMUL_RAPL_WINDOW_SHIFT |
	       (pl->disabled ? 0 : EMUL_RAPL_ENABLE);
}

static int emul_rapl_read(int id, struct reg_action *ra)
{
	struct cpuidle_budget_reading r;
	struct emul_status st;
	struct emul_limits l;
	u64 v;

	switch (ra->reg.val) {
	case EMUL_REG_UNIT:
		v = EMUL_RAPL_UNITS;
		break;
	case EMUL_REG_STATUS:
	case EMUL_REG_PERF:
		/* Up to now, as RAPL's counters always are. */
		if (emul_platform_read(0, 0, &r))
			return -EIO;
		emul_model_status(&st);
		if (ra->reg.val == EMUL_REG_PERF)
			v = emul_rapl_us_to_units(st.throttled_us);
		else
			v = div_u64(st.energy_uj << EMUL_RAPL_ENERGY_SHIFT, USEC_PER_SEC) + 1;
		v &= GENMASK_ULL(31, 0);
		break;
	case EMUL_REG_PL1:
	case EMUL_REG_PL2:
		emul_platform_limits(&l);
		mutex_lock(&emul_rapl.lock);
		v = ra->reg.val == EMUL_REG_PL1 ?
			emul_rapl_pl_reg(&emul_rapl.pl[0], l.pl1_mw, l.pl1_window_ms) :
			emul_rapl_pl_reg(&emul_rapl.pl[1], l.pl2_mw, l.pl2_window_ms);
		mutex_unlock(&emul_rapl.lock);
		break;
	default:
		return -EINVAL;
	}
	ra->value = v & ra->mask;
	return 0;
}

/*
 * A limit register written: the fields the write covers (@ra->mask)
 * become the parameters; the others stay as they are, not decoded again
 * (a window read back through the 7-bit field is rounded down, and every
 * rewrite would shorten it). The limit is EMUL_NO_LIMIT_MW while
 * disabled, PL1 at PL2 while only PL1 is.
 */
static int emul_rapl_write(int id, struct reg_action *ra)
{
	struct emul_rapl_pl pl[2];
	struct emul_limits l;
	u32 *mw, *window_ms, limit_mw;
	int i, ret;
	u64 v;

	if (ra->reg.val != EMUL_REG_PL1 && ra->reg.val != EMUL_REG_PL2)
		return -EINVAL;
	i = ra->reg.val == EMUL_REG_PL2;

	mutex_lock(&emul_rapl.lock);
	emul_platform_limits(&l);
	memcpy(pl, emul_rapl.pl, sizeof(pl));
	mw = i ? &l.pl2_mw : &l.pl1_mw;
	window_ms = i ? &l.pl2_window_ms : &l.pl1_window_ms;
	v = ra->value & ra->mask;

	limit_mw = pl[i].disabled ? pl[i].held_mw : *mw;
	if (ra->mask & EMUL_RAPL_LIMIT)
		limit_mw = div_u64((v & EMUL_RAPL_LIMIT) * 1000, 1 << EMUL_RAPL_POWER_SHIFT);
	if (ra->mask & EMUL_RAPL_WINDOW)
		*window_ms = emul_rapl_window_decode((v & EMUL_RAPL_WINDOW) >>
						     EMUL_RAPL_WINDOW_SHIFT);
	if (ra->mask & EMUL_RAPL_ENABLE)
		pl[i].disabled = !(v & EMUL_RAPL_ENABLE);
	if (pl[i].disabled)
		pl[i].held_mw = limit_mw;
	else
		*mw = limit_mw;
	/*
	 * Without PL2 the model has none (the largest its parameter takes);
	 * without PL1, PL2 is what holds the average too: PL1 at PL2, which
	 * the parameters allow, where 1000 W would not be.
	 */
	if (pl[1].disabled)
		l.pl2_mw = EMUL_NO_LIMIT_MW;
	if (pl[0].disabled)
		l.pl1_mw = l.pl2_mw;
	ret = emul_platform_set_limits(&l);
	if (!ret)
		memcpy(emul_rapl.pl, pl, sizeof(pl));
	mutex_unlock(&emul_rapl.lock);
	return ret;
}

static int __init emul_rapl_init(void)
{
	struct cpuidle_budget_reading r;
	struct rapl_package *rp;

	/* Without the model there is nothing to provide. */
	if (emul_platform_read(0, 0, &r)) {
		pr_err("emul_rapl: load emul_idle with power_model=1 first\n");
		return -ENODEV;
	}
	emul_platform_limits(&emul_rapl.loaded);

	emul_rapl_priv.read_raw = emul_rapl_read;
	emul_rapl_priv.write_raw = emul_rapl_write;
	emul_rapl.ct = powercap_register_control_type(NULL, "intel-rapl", NULL);
	if (IS_ERR(emul_rapl.ct))
		return PTR_ERR(emul_rapl.ct);
	emul_rapl_priv.control_type = emul_rapl.ct;

	rp = rapl_add_package(0, &emul_rapl_priv, false);
	if (IS_ERR(rp)) {
		powercap_unregister_control_type(emul_rapl.ct);
		return PTR_ERR(rp);
	}
	emul_rapl.rp = rp;
	return 0;
}

static void __exit emul_rapl_exit(void)
{
	rapl_remove_package(emul_rapl.rp);
	powercap_unregister_control_type(emul_rapl.ct);
	/* The removal disabled the limits: the model gets its own back. */
	if (emul_platform_set_limits(&emul_rapl.loaded))
		pr_warn("emul_rapl: could not restore the package's limits\n");
}

module_init(emul_rapl_init);
module_exit(emul_rapl_exit);

MODULE_DESCRIPTION("The emulated platform's package as a RAPL interface (powercap intel-rapl)");
MODULE_LICENSE("GPL");
