/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated power-constrained hybrid platform (guest-only): the idle
 * driver (emul_driver.c), its parts (emul_parts.c) and its package power
 * model (emul_model.c). See
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

/*
 * Idle state indices of the Alder Lake parts' tables (0 is the core's POLL
 * state). Other parts have their own (tests/emul/emul_parts.c); the model
 * goes by each state's kind, never by these names.
 */
enum emul_state {
	EMUL_POLL,
	EMUL_C1,
	EMUL_C1E,
	EMUL_C6,
	EMUL_C8,
	EMUL_C10,
};

/* POLL and at most five hardware states. */
#define EMUL_MAX_STATES		6

/**
 * enum emul_state_kind - what a state does to a core's power
 * @EMUL_KIND_POLL: the core spins in C0 (the core's POLL state)
 * @EMUL_KIND_CLOCK_GATED: clock-gated, still powered: leaks at the rail
 * @EMUL_KIND_POWER_GATED: power-gated: draws the core type's gated_mw, and
 *	does not count as active for the turbo ratio limits
 */
enum emul_state_kind {
	EMUL_KIND_POLL,
	EMUL_KIND_CLOCK_GATED,
	EMUL_KIND_POWER_GATED,
};

/* Fixed point of frequency scales: EMUL_SCALE is a core type's maximum. */
#define EMUL_SCALE		1024

/**
 * struct emul_state_desc - one idle state of a part
 * @name: the name the cpuidle driver registers
 * @desc: its description
 * @kind: what it does to the core's power
 * @exit_us: exit latency per core type (the driver registers the first
 *	type's; each CPU halts through its own type's on wake-up)
 * @target_us: target residency per core type (likewise)
 * @pkg_mw: uncore power while every CPU is in this state or a deeper one
 *	(the package C-state it allows); 0 if it allows none
 */
struct emul_state_desc {
	const char *name;
	const char *desc;
	enum emul_state_kind kind;
	u32 exit_us[EMUL_NR_TYPES];
	u32 target_us[EMUL_NR_TYPES];
	u32 pkg_mw;
};

/**
 * struct emul_core_model - power figures of one core type
 * @fmax_mhz: highest frequency (one core active)
 * @fknee_mhz: highest frequency reached at the minimum voltage
 * @dyn_mw: dynamic power of a busy core at @fmax_mhz and the maximum
 *	voltage
 * @leak_mw: leakage of a powered core (C0 and clock-gated states) at the
 *	maximum voltage
 * @gated_mw: residual power of a power-gated core
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
 * @uncore_mw: uncore (ring, memory controller, graphics idle) while the
 *	package is in no package C-state
 * @poll_activity: share (of EMUL_SCALE) of a busy core's dynamic power
 *	that a core spinning in the POLL state draws
 * @trans_pct: the transition energies (emul_transition_uj()) in percent of
 *	what the target residencies imply, for sensitivity runs
 * @nstates: entries of @state, POLL included
 * @state: the idle states, POLL first, shallow to deep
 * @turbo_pct: frequency cap, in percent of the maximum, by number of
 *	active (not power-gated) cores, index 1..EMUL_TURBO_BINS; beyond, the
 *	last entry
 */
struct emul_pkg_model {
	struct emul_core_model core[EMUL_NR_TYPES];
	u32 vmin_mv;
	u32 vmax_mv;
	u32 uncore_mw;
	u32 poll_activity;
	u32 trans_pct;
	unsigned int nstates;
	struct emul_state_desc state[EMUL_MAX_STATES];
	u8 turbo_pct[11];
};

#define EMUL_TURBO_BINS		10

/**
 * struct emul_part - one emulated part: every constant of it
 * @name: the value of emul_idle's part= parameter
 * @desc: what it stands for
 * @p_cores: P-cores of its default layout (the first CPUs)
 * @e_cores: E-cores of its default layout
 * @pl1_mw: long-term power limit PL1
 * @pl2_mw: short-term power limit PL2
 * @pl1_window_ms: time constant of the PL1 average (RAPL's Tau)
 * @pl2_window_ms: time constant of the PL2 average
 * @model: the package model
 *
 * A part with one core type (@e_cores 0) uses the P-core entries only.
 * tests/emul/README.md gives the source of every number, or says it is an
 * estimate.
 */
struct emul_part {
	const char *name;
	const char *desc;
	unsigned int p_cores;
	unsigned int e_cores;
	u32 pl1_mw;
	u32 pl2_mw;
	u32 pl1_window_ms;
	u32 pl2_window_ms;
	struct emul_pkg_model model;
};

/**
 * struct emul_cpu_window - what one CPU did over a model interval
 * @type: its core type
 * @busy_ns: time not idle
 * @state_ns: time in each idle state
 * @entries: entries into each idle state
 */
struct emul_cpu_window {
	enum emul_core_type type;
	u64 busy_ns;
	u64 state_ns[EMUL_MAX_STATES];
	u64 entries[EMUL_MAX_STATES];
};

/**
 * struct emul_pkg_window - the whole package over a model interval
 * @ncpus: entries of @cpu
 * @len_ns: the interval
 * @pkg_ns: time during which the shallowest CPU was in each state: every
 *	CPU idle at once, in that state or deeper
 * @cpu: per CPU
 */
struct emul_pkg_window {
	unsigned int ncpus;
	u64 len_ns;
	u64 pkg_ns[EMUL_MAX_STATES];
	struct emul_cpu_window *cpu;
};

/* emul_parts.c: the parts (part= of emul_idle), the first the default */
extern const struct emul_part emul_parts[];
extern const unsigned int emul_nr_parts;
const struct emul_part *emul_find_part(const char *name);

/* emul_model.c: arithmetic (KUnit-tested) */
u32 emul_voltage_mv(const struct emul_pkg_model *m, enum emul_core_type t, u32 scale);
u32 emul_busy_mw(const struct emul_pkg_model *m, enum emul_core_type t,
		 u32 scale, u32 rail_mv);
u32 emul_leak_mw(const struct emul_pkg_model *m, enum emul_core_type t, u32 rail_mv);
u32 emul_turbo_cap(const struct emul_pkg_model *m, unsigned int active);
u64 emul_window_power_mw(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 scale);
unsigned int emul_active_cores(const struct emul_pkg_model *m,
			       const struct emul_pkg_window *w);
u32 emul_scale_for_power(const struct emul_pkg_model *m,
			 const struct emul_pkg_window *w, u32 cap, u32 allowed_mw);
u32 emul_requested_scale(const struct emul_pkg_window *w);
u32 emul_ewma_mw(u32 avg_mw, u32 sample_mw, u64 dt_ns, u64 tau_ns);
s64 emul_spin_gap_ns(u64 work_ns, u64 credit_ns, s64 *forgiven_ns, u64 limit_ns);
u64 emul_spin_ns(s64 gap_ns, u32 scale);
u32 emul_transition_uj(const struct emul_pkg_model *m, enum emul_core_type t,
		       unsigned int state);
u64 emul_cycles(const struct emul_pkg_model *m, enum emul_core_type t,
		u64 busy_ns, u32 scale);

/* emul_model.c: the running model, started by emul_idle.c */
int emul_model_start(const struct emul_pkg_model *m, const enum emul_core_type *types,
		     u32 pl1_mw, u32 pl2_mw, u32 pl1_window_ms, u32 pl2_window_ms);
void emul_model_stop(void);
void emul_model_set_limits(u32 pl1_mw, u32 pl2_mw, u32 pl1_window_ms,
			   u32 pl2_window_ms);
/**
 * struct emul_status - the running model's figures, for debugfs
 * @time_ns: when they were read (CLOCK_MONOTONIC): the end of the interval
 *	they are counted to
 * @energy_uj: package energy so far
 * @throttled_us: time at the limit so far
 * @pkg_idle_us: time in a package C-state so far
 * @power_mw: power over the last interval
 * @ewma1_mw: the PL1 average
 * @scale: the frequency scale
 * @intervals: model intervals so far
 * @max_len_ns: the longest interval
 */
struct emul_status {
	u64 time_ns;
	u64 energy_uj;
	u64 throttled_us;
	u64 pkg_idle_us;
	u32 power_mw;
	u32 ewma1_mw;
	u32 scale;
	u64 intervals;
	u64 max_len_ns;
};

void emul_model_status(struct emul_status *st);

/**
 * struct emul_cpu_work - what one CPU did since the model started
 * @cycles: the integral of its frequency over its busy time
 * @busy_ns: its busy time
 * @sat_cycles: @cycles of the intervals in which it was busy for at least
 *	EMUL_SAT_PCT percent of the time (a long burst, not a short wake-up)
 * @sat_busy_ns: @busy_ns of those intervals
 * @spin_ns: the part of @busy_ns the cycle stealer spent spinning
 * @forgiven_ns: the stealer's gap written off (emul_spin_gap_ns()):
 *	negative for spinning the model did not ask for, positive for work
 *	it did not charge
 *
 * With the stealer exact, @cycles is the CPU's time busy less @spin_ns at
 * its type's top frequency: the frequency's cost is all in the spin.
 */
struct emul_cpu_work {
	u64 cycles;
	u64 busy_ns;
	u64 sat_cycles;
	u64 sat_busy_ns;
	u64 spin_ns;
	s64 forgiven_ns;
};

/* A model interval in which a CPU was busy this much counts as saturated. */
#define EMUL_SAT_PCT	90

void emul_model_cpu_work(int cpu, struct emul_cpu_work *work);

/* emul_driver.c: what the model reads of the driver */
u64 emul_state_time_ns(int cpu, int state);
u64 emul_state_entries(int cpu, int state);
int emul_current_state(int cpu);
u64 emul_pkg_time_ns(int state);

/**
 * struct emul_limits - the package's power limits (emul_idle's parameters)
 * @pl1_mw: long-term limit
 * @pl2_mw: short-term limit, at least @pl1_mw
 * @pl1_window_ms: time constant of the PL1 average
 * @pl2_window_ms: time constant of the PL2 average
 */
struct emul_limits {
	u32 pl1_mw;
	u32 pl2_mw;
	u32 pl1_window_ms;
	u32 pl2_window_ms;
};

/* The limits no limit stands for: the parameters' largest (1000 W). */
#define EMUL_NO_LIMIT_MW	1000000

void emul_platform_limits(struct emul_limits *l);

/*
 * The emulated RAPL interface's units (emul_rapl.c), as a unit register
 * encodes them: 1/2^N W, J and s, those of most Intel client parts.
 */
#define EMUL_RAPL_POWER_SHIFT	3
#define EMUL_RAPL_ENERGY_SHIFT	14
#define EMUL_RAPL_TIME_SHIFT	10

u32 emul_rapl_window_encode(u32 ms);
u32 emul_rapl_window_decode(u32 field);
int emul_platform_set_limits(const struct emul_limits *l);

/* For the budget governor's signal source (emul_budget.c). */
int emul_platform_read(unsigned int pkg, int cpu, struct cpuidle_budget_reading *r);
unsigned int emul_platform_freq_scale(int cpu);

#endif /* _EMUL_H */
