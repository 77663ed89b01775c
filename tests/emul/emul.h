/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated power-constrained hybrid platform (guest-only): the idle
 * driver (emul_idle.c) and its package power model (emul_model.c). See
 * tests/emul/README.md for what is modeled, what is not, and where every
 * number comes from.
 */
#ifndef _EMUL_H
#define _EMUL_H

#include <linux/types.h>

struct cpuidle_budget_reading;

enum emul_core_type {
	EMUL_P_CORE,
	EMUL_E_CORE,
	EMUL_NR_TYPES,
};

/* Idle state indices of the driver (0 is the core's POLL state). */
enum emul_state {
	EMUL_POLL,
	EMUL_C1,
	EMUL_C1E,
	EMUL_C6,
	EMUL_C8,
	EMUL_C10,
	EMUL_NR_STATES,
};

/* Fixed point of frequency scales: EMUL_SCALE is a core type's maximum. */
#define EMUL_SCALE		1024

/**
 * struct emul_core_model - power figures of one core type
 * @fmax_mhz: highest frequency (one core active)
 * @fknee_mhz: highest frequency reached at the minimum voltage
 * @dyn_mw: dynamic power of a busy core at @fmax_mhz and the maximum
 *	voltage
 * @leak_mw: leakage of a powered core (C0, C1, C1E) at the maximum voltage
 * @gated_mw: residual power of a power-gated core (C6 and deeper)
 */
struct emul_core_model {
	u32 fmax_mhz;
	u32 fknee_mhz;
	u32 dyn_mw;
	u32 leak_mw;
	u32 gated_mw;
};

/**
 * struct emul_pkg_model - the package's constants
 * @core: per core type
 * @vmin_mv: rail voltage at or below a type's knee frequency
 * @vmax_mv: rail voltage at a type's maximum frequency
 * @uncore_mw: uncore (ring, memory controller, graphics idle) while any
 *	core is powered
 * @uncore_pkg_idle_mw: uncore while every core is power-gated (a package
 *	C-state)
 * @poll_activity: share (of EMUL_SCALE) of a busy core's dynamic power
 *	that a core spinning in the POLL state draws
 * @turbo_pct: frequency cap, in percent of the maximum, by number of
 *	active (powered) cores, index 1..6; beyond 6 the last entry
 */
struct emul_pkg_model {
	struct emul_core_model core[EMUL_NR_TYPES];
	u32 vmin_mv;
	u32 vmax_mv;
	u32 uncore_mw;
	u32 uncore_pkg_idle_mw;
	u32 poll_activity;
	u8 turbo_pct[7];
};

/**
 * struct emul_cpu_window - what one CPU did over a model interval
 * @type: its core type
 * @busy_ns: time not idle
 * @state_ns: time in each idle state
 */
struct emul_cpu_window {
	enum emul_core_type type;
	u64 busy_ns;
	u64 state_ns[EMUL_NR_STATES];
};

/**
 * struct emul_pkg_window - the whole package over a model interval
 * @ncpus: entries of @cpu
 * @len_ns: the interval
 * @cpu: per CPU
 */
struct emul_pkg_window {
	unsigned int ncpus;
	u64 len_ns;
	struct emul_cpu_window *cpu;
};

/*
 * The default constants: a 2P+4E thin-and-light part of the Alder Lake-U
 * kind. See tests/emul/README.md for where each number comes from.
 */
#define EMUL_DEFAULT_MODEL \
{ \
	.core = { \
		[EMUL_P_CORE] = { \
			.fmax_mhz = 4400, .fknee_mhz = 1600, \
			.dyn_mw = 11000, .leak_mw = 1200, .gated_mw = 30, \
		}, \
		[EMUL_E_CORE] = { \
			.fmax_mhz = 3300, .fknee_mhz = 1200, \
			.dyn_mw = 2200, .leak_mw = 300, .gated_mw = 10, \
		}, \
	}, \
	.vmin_mv = 650, \
	.vmax_mv = 1250, \
	.uncore_mw = 1500, \
	.uncore_pkg_idle_mw = 300, \
	.poll_activity = EMUL_SCALE / 2, \
	.turbo_pct = { 100, 100, 100, 96, 96, 91, 91 }, \
}

/* emul_model.c: arithmetic (KUnit-tested) */
u32 emul_voltage_mv(const struct emul_pkg_model *m, enum emul_core_type t, u32 scale);
u32 emul_busy_mw(const struct emul_pkg_model *m, enum emul_core_type t,
		 u32 scale, u32 rail_mv);
u32 emul_leak_mw(const struct emul_pkg_model *m, enum emul_core_type t, u32 rail_mv);
u32 emul_turbo_cap(const struct emul_pkg_model *m, unsigned int active);
u64 emul_window_power_mw(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 scale);
unsigned int emul_active_cores(const struct emul_pkg_window *w);
u32 emul_scale_for_power(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 cap, u32 allowed_mw);
u32 emul_requested_scale(const struct emul_pkg_window *w);
u32 emul_ewma_mw(u32 avg_mw, u32 sample_mw, u64 dt_ns, u64 tau_ns);
u64 emul_steal_ns(u64 work_ns, u32 scale);
extern const struct emul_pkg_model emul_default_model;

/* emul_model.c: the running model, started by emul_idle.c */
int emul_model_start(const struct emul_pkg_model *m, const enum emul_core_type *types,
		     u32 pl1_mw, u32 pl2_mw, u32 pl1_window_ms, u32 pl2_window_ms);
void emul_model_stop(void);
void emul_model_set_limits(u32 pl1_mw, u32 pl2_mw);
void emul_model_status(u64 *energy_uj, u64 *throttled_us, u32 *power_mw,
		       u32 *ewma1_mw, u32 *scale, u64 *intervals, u64 *max_len_ns);

/* emul_idle.c: what the model reads of the driver */
u64 emul_state_time_ns(int cpu, int state);
int emul_current_state(int cpu);

/* For the budget governor's signal source (emul_budget.c). */
int emul_platform_read(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r);
unsigned int emul_platform_freq_scale(int cpu);

#endif /* _EMUL_H */
