/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of the budget cpuidle governor: the selection policy
 * (policy.c), the power pressure (pressure.c), the power signals
 * (signals.c, msr.c) and the glue that makes them a governor (main.c). The
 * DOC: blocks of policy.c, pressure.c and signals.c describe the algorithm.
 */
#ifndef _CPUIDLE_BUDGET_H
#define _CPUIDLE_BUDGET_H

#include <linux/cpuidle.h>
#include <linux/types.h>

struct cpuidle_budget_reading;
struct cpuidle_budget_source;
struct dentry;
struct kernel_param;

/* Power pressure: 0 (plenty of budget) to BUDGET_PRESSURE_MAX (at limit). */
#define BUDGET_PRESSURE_MAX	1024

/* Fixed-point weight of one idle period in the history (see policy.c). */
#define BUDGET_WEIGHT_ONE	1024
/* Each new period keeps (1 - 2^-BUDGET_DECAY_SHIFT) of the old weights. */
#define BUDGET_DECAY_SHIFT	3

/**
 * struct budget_history - how this CPU's recent idle periods ended
 * @early: decayed weight of periods that ended early (before the timer
 *	the CPU slept for, and not by the tick), by the deepest state whose
 *	target residency the period still reached
 * @early_len_ns: the mean length of the early periods in each state's
 *	bin (an average of its own, each new period weighing 1/8)
 * @total: decayed weight of all periods
 * @risk_cut: the shallowest state that more than BUDGET_RISK (policy.c)
 *	of the recent periods were too short for, 0 when there is none (a
 *	zeroed history has none): the latency-first rule's bound, worked
 *	out when a period is recorded rather than at every selection
 * @majority_cut: the same for more than half of the recent periods: the
 *	bound without evidence that latency is at stake
 * @sleep_ns: time to the next timer event when the last state was chosen
 *	(S64_MAX when the timers were not consulted)
 * @skips: selections in a row that did not consult the timers
 * @timers_skipped: the last selection did not consult the timers
 * @tick_kept: the last selection left the tick running
 */
struct budget_history {
	u32 early[CPUIDLE_STATE_MAX];
	s64 early_len_ns[CPUIDLE_STATE_MAX];
	u32 total;
	int risk_cut;
	int majority_cut;
	s64 sleep_ns;
	unsigned int skips;
	bool timers_skipped;
	bool tick_kept;
};

/* How an idle period ended, when not by an event (cpuidle_budget_history_update()). */
#define BUDGET_END_TICK		BIT(0)	/* by the tick */
#define BUDGET_END_POLL_LIMIT	BIT(1)	/* a polling state hit its time limit */

/**
 * struct budget_input - what a selection is based on
 * @sleep_ns: time to the next timer event, the tick stopped
 * @tick_ns: time to the next timer event or tick, the tick running
 * @latency_req_ns: the CPU's exit latency limit (PM QoS)
 * @tick_stopped: the tick is already stopped on this CPU
 * @latency_evidence: a wake-up of this CPU is latency-critical: a task
 *	of it waits on I/O, or a PM QoS latency request is in force (see
 *	"Latency evidence" in policy.c)
 * @want_unbiased: report the pressure-0 choice, with the tick rules
 *	applied to it (tracing, statistics)
 * @pressure: package power pressure, 0..BUDGET_PRESSURE_MAX
 * @turbo: how often the package's busy CPUs are held by the turbo ratio
 *	limit for the active cores, 0..BUDGET_PRESSURE_MAX (pressure.c)
 * @pkg_depth_ns: how deep the package's other CPUs are: the smallest
 *	target residency of the states they are idle in now; 0 when one of
 *	them runs, or nobody looked (only under pressure, and on packages of
 *	at most 17 CPUs), S64_MAX when the CPU is alone in its package
 */
struct budget_input {
	s64 sleep_ns;
	s64 tick_ns;
	s64 latency_req_ns;
	bool tick_stopped;
	bool latency_evidence;
	bool want_unbiased;
	unsigned int pressure;
	unsigned int turbo;
	s64 pkg_depth_ns;
};

/**
 * struct budget_choice - the outcome of a selection
 * @state: the state to enter
 * @unbiased: the state the same history would give at pressure 0; equal
 *	to @state unless &budget_input.want_unbiased was set
 * @timer_state: the deepest state the timer alone would allow; -1 when
 *	the timers were not consulted
 * @predicted_ns: the idle duration the choice assumes: the time to the
 *	timer, or less than the target residency of the next deeper state
 *	when the history ruled that state out
 * @expected_ns: the expected idle length (the history's mean, capped by
 *	the timer) the energy rule weighed; 0 when it did not run (no
 *	pressure, or no history)
 * @pkg_deep: the package term lowered the break-even of the state chosen
 * @turbo_deep: the turbo rule chose the state
 * @stop_tick: ask the idle loop to stop the tick
 */
struct budget_choice {
	int state;
	int unbiased;
	int timer_state;
	s64 predicted_ns;
	s64 expected_ns;
	bool pkg_deep;
	bool turbo_deep;
	bool stop_tick;
};

/**
 * struct budget_sample - package power signals over one sampling window
 * @power_mw: average package power over the window, 0 if unknown
 * @limit_mw: the long-term power limit in force (PL1, or the configured
 *	limit), 0 if none is known
 * @window_us: the time constant of @avg_mw: the limit's window, or
 *	BUDGET_DEFAULT_WINDOW_US where the source does not say
 * @short_limit_mw: the short-term limit (PL2), 0 if none is known
 * @throttle: share of the window the package was throttled to stay within
 *	its limits, 0..BUDGET_PRESSURE_MAX
 * @limit_notified: the hardware reported a power limit as active
 * @turbo_limited: the hardware reported the turbo ratio limit for the
 *	active cores as holding the busy CPUs back (published apart from the
 *	pressure: cpuidle_budget_pressure())
 * @avg_us: the time the averages cover (since the last gap)
 * @status_us: the time the status bits' averages cover (each read
 *	standing for a sampling period at most)
 * @avg_mw: the package power averaged over @window_us, as the limit
 *	averages it (cpuidle_budget_smooth())
 * @throttle_avg: @throttle averaged over @window_us / 8 (at least eight
 *	sampling periods)
 * @limited_avg: share of recent samples with @limit_notified, likewise
 * @turbo_avg: share of recent samples with @turbo_limited, likewise
 * @busy_cpus: CPUs of the package that were busy for most of the window
 * @headroom: how far below its maximum the average busy CPU ran,
 *	0 (at max) .. BUDGET_PRESSURE_MAX
 * @freq_known: @headroom was measured (frequency invariance available)
 * @headroom_alone: without a known limit, the headroom is the pressure
 *	(the headroom_pressure parameter)
 *
 * The pressure is worked out of the averages (pressure.c), not of one
 * window alone, except for @power_mw against @short_limit_mw (the short
 * limit's own window is shorter than a sample's) and the headroom
 * (headroom_pressure).
 */
struct budget_sample {
	u32 power_mw;
	u32 limit_mw;
	u64 window_us;
	u32 short_limit_mw;
	u32 throttle;
	bool limit_notified;
	bool turbo_limited;
	u64 avg_us;
	u64 status_us;
	u32 avg_mw;
	u32 throttle_avg;
	u32 limited_avg;
	u32 turbo_avg;
	u32 busy_cpus;
	u32 headroom;
	bool freq_known;
	bool headroom_alone;
};

/* The limit's window where the source does not give one: RAPL's reset value of Tau. */
#define BUDGET_DEFAULT_WINDOW_US	(1000ULL * 1000)

/**
 * struct budget_rapl_units - decoded MSR_RAPL_POWER_UNIT
 * @power_shift: power unit is 1/2^power_shift W
 * @energy_shift: energy unit is 1/2^energy_shift J
 * @time_shift: time unit is 1/2^time_shift s
 * @atom: Silvermont/Airmont encoding: the power unit is 2^power_shift mW,
 *	the energy unit 2^energy_shift uJ, the PL1 window a count of time
 *	units (see msr.c)
 */
struct budget_rapl_units {
	u8 power_shift;
	u8 energy_shift;
	u8 time_shift;
	bool atom;
};

/**
 * struct budget_rapl_limit - decoded MSR_PKG_POWER_LIMIT
 * @pl1_mw: long-term limit
 * @pl1_enabled: PL1 is enforced
 * @pl1_window_us: PL1 averaging window
 * @pl2_mw: short-term limit
 * @pl2_enabled: PL2 is enforced
 * @locked: the register is locked until reset
 */
struct budget_rapl_limit {
	u32 pl1_mw;
	bool pl1_enabled;
	u64 pl1_window_us;
	u32 pl2_mw;
	bool pl2_enabled;
	bool locked;
};

/* main.c: the glue, and what its parts share */
int cpuidle_budget_uint_param_set(const char *val, const struct kernel_param *kp,
				  unsigned int min, unsigned int max);

/* pressure.c: what a sample means */
unsigned int cpuidle_budget_pressure_from_sample(const struct budget_sample *s);
u32 cpuidle_budget_ewma(u32 avg, u32 sample, u64 dt_us, u64 tau_us);
void cpuidle_budget_smooth(const struct budget_sample *prev, struct budget_sample *s,
			   u64 dt_us, u64 period_us);

/* signals.c: the sampler and the sources' registry */
void cpuidle_budget_cpu_ran(unsigned int cpu);
bool cpuidle_budget_cpu_iowait(unsigned int cpu);
u32 cpuidle_budget_power_mw(u64 delta_uj, u64 window_us);
void cpuidle_budget_sample_from_readings(const struct cpuidle_budget_reading *prev,
					 const struct cpuidle_budget_reading *now,
					 u64 window_us, struct budget_sample *s);
unsigned int cpuidle_budget_pressure(unsigned int cpu, unsigned int *turbo);
void cpuidle_budget_signals_start(void);
void cpuidle_budget_signals_stop(void);
void cpuidle_budget_signals_poke(unsigned int cpu);
int cpuidle_budget_signals_init(void);
void cpuidle_budget_signals_exit(void);
void cpuidle_budget_signals_debugfs(struct dentry *dir);

/* msr.c: the built-in sources */
void cpuidle_budget_rapl_decode_units(u64 raw, bool atom, struct budget_rapl_units *u);
void cpuidle_budget_rapl_decode_limit(u64 raw, const struct budget_rapl_units *u,
				      struct budget_rapl_limit *l);
void cpuidle_budget_rapl_fill_limits(const struct budget_rapl_limit *l,
				     struct cpuidle_budget_reading *r);
u32 cpuidle_budget_counter_delta(u32 prev, u32 now);
u64 cpuidle_budget_rapl_to_micro(u64 count, u8 shift);
u64 cpuidle_budget_rapl_energy_uj(u64 count, const struct budget_rapl_units *u);
u32 cpuidle_budget_limit_reasons_msr(u32 vfm);
extern const struct cpuidle_budget_source cpuidle_budget_rapl_source;
extern const struct cpuidle_budget_source cpuidle_budget_amd_source;
const struct cpuidle_budget_source *cpuidle_budget_msr_default_source(void);
int cpuidle_budget_msr_init(unsigned int npkgs);
void cpuidle_budget_msr_exit(void);

/* policy.c: the selection */

s64 cpuidle_budget_expected_ns(struct cpuidle_driver *drv,
			       const struct budget_history *hist, s64 sleep_ns);
s64 cpuidle_budget_break_even_ns(s64 target_ns, unsigned int pressure, bool pkg_deep);
void cpuidle_budget_select_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				 const struct budget_history *hist,
				 const struct budget_input *in,
				 struct budget_choice *out);
bool cpuidle_budget_select_without_timers(struct cpuidle_driver *drv,
					  struct cpuidle_device *dev,
					  const struct budget_history *hist,
					  const struct budget_input *in,
					  struct budget_choice *out);
void cpuidle_budget_history_reset(struct budget_history *hist);
void cpuidle_budget_history_selected(struct budget_history *hist,
				     const struct budget_input *in,
				     const struct budget_choice *out);
bool cpuidle_budget_history_update(struct budget_history *hist,
				   struct cpuidle_driver *drv, s64 residency_ns,
				   unsigned int end);
bool cpuidle_budget_history_reflect(struct budget_history *hist,
				    struct cpuidle_driver *drv, int index,
				    s64 measured_ns, bool got_tick,
				    bool poll_time_limit);

#endif /* _CPUIDLE_BUDGET_H */
