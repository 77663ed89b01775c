/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the budget cpuidle governor: one event per selection, with
 * what the selection saw and what it chose, biased and unbiased, and the
 * expected idle length, package term and turbo rule behind the choice
 * (0 when they did not run) and whether latency evidence held (iowait,
 * a PM QoS request: policy.c's "Latency evidence"); one per idle period
 * recorded, with how it was classified; one per package sample, with the
 * terms of the pressure.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM cpuidle_budget

#if !defined(_CPUIDLE_BUDGET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CPUIDLE_BUDGET_TRACE_H

#include <linux/tracepoint.h>

#include "budget.h"

/*
 * Event names carry the governor's prefix: CREATE_TRACE_POINTS makes
 * global symbols of them (__tracepoint_<name>), which a built-in governor
 * shares with the rest of the kernel.
 */
TRACE_EVENT(cpuidle_budget_select,
	    TP_PROTO(int cpu, s64 predicted_ns, s64 sleep_ns,
		     unsigned int pressure, int state, int unbiased,
		     bool stop_tick, s64 expected_ns, bool pkg_deep,
		     unsigned int turbo, bool turbo_deep, bool evidence),
	    TP_ARGS(cpu, predicted_ns, sleep_ns, pressure, state, unbiased,
		    stop_tick, expected_ns, pkg_deep, turbo, turbo_deep, evidence),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(s64, predicted_ns)
			     __field(s64, sleep_ns)
			     __field(unsigned int, pressure)
			     __field(int, state)
			     __field(int, unbiased)
			     __field(bool, stop_tick)
			     __field(s64, expected_ns)
			     __field(bool, pkg_deep)
			     __field(unsigned int, turbo)
			     __field(bool, turbo_deep)
			     __field(bool, evidence)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->predicted_ns = predicted_ns;
			   __entry->sleep_ns = sleep_ns;
			   __entry->pressure = pressure;
			   __entry->state = state;
			   __entry->unbiased = unbiased;
			   __entry->stop_tick = stop_tick;
			   __entry->expected_ns = expected_ns;
			   __entry->pkg_deep = pkg_deep;
			   __entry->turbo = turbo;
			   __entry->turbo_deep = turbo_deep;
			   __entry->evidence = evidence;),
	    TP_printk("cpu=%d predicted_ns=%lld sleep_ns=%lld pressure=%u state=%d unbiased=%d stop_tick=%d expected_ns=%lld pkg_deep=%d turbo=%u turbo_deep=%d evidence=%d",
		      __entry->cpu, __entry->predicted_ns, __entry->sleep_ns,
		      __entry->pressure, __entry->state, __entry->unbiased,
		      __entry->stop_tick, __entry->expected_ns, __entry->pkg_deep,
		      __entry->turbo, __entry->turbo_deep, __entry->evidence)
);

/*
 * One per idle period the governor records: the state, the core's
 * measure of the period, the time to the timer the selection slept for
 * (S64_MAX when it skipped the timers: the period is then not recorded),
 * how it ended when not by an event (the tick, a poll's time limit) and
 * whether it counted as early (policy.c's "History").
 */
TRACE_EVENT(cpuidle_budget_reflect,
	    TP_PROTO(int cpu, int state, s64 measured_ns, s64 sleep_ns,
		     bool got_tick, bool poll_limit, bool early),
	    TP_ARGS(cpu, state, measured_ns, sleep_ns, got_tick, poll_limit, early),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, state)
			     __field(s64, measured_ns)
			     __field(s64, sleep_ns)
			     __field(bool, got_tick)
			     __field(bool, poll_limit)
			     __field(bool, early)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->state = state;
			   __entry->measured_ns = measured_ns;
			   __entry->sleep_ns = sleep_ns;
			   __entry->got_tick = got_tick;
			   __entry->poll_limit = poll_limit;
			   __entry->early = early;),
	    TP_printk("cpu=%d state=%d measured_ns=%lld sleep_ns=%lld got_tick=%d poll_limit=%d early=%d",
		      __entry->cpu, __entry->state, __entry->measured_ns,
		      __entry->sleep_ns, __entry->got_tick, __entry->poll_limit,
		      __entry->early)
);

/*
 * One per package sample: where it ran, the window it measured (0 for a
 * sample that only took baselines after a gap) and the pressure it
 * published.
 */
TRACE_EVENT(cpuidle_budget_sample,
	    TP_PROTO(unsigned int pkg, int cpu, u64 window_us,
		     const struct budget_sample *s, unsigned int pressure),
	    TP_ARGS(pkg, cpu, window_us, s, pressure),
	    TP_STRUCT__entry(__field(unsigned int, pkg)
			     __field(int, cpu)
			     __field(u64, window_us)
			     __field(u32, power_mw)
			     __field(u32, limit_mw)
			     __field(u32, busy_cpus)
			     __field(u32, avg_mw)
			     __field(u32, short_limit_mw)
			     __field(u32, throttle_avg)
			     __field(u32, limited_avg)
			     __field(u32, turbo_avg)
			     __field(unsigned int, pressure)),
	    TP_fast_assign(__entry->pkg = pkg;
			   __entry->cpu = cpu;
			   __entry->window_us = window_us;
			   __entry->power_mw = s->power_mw;
			   __entry->limit_mw = s->limit_mw;
			   __entry->busy_cpus = s->busy_cpus;
			   __entry->avg_mw = s->avg_mw;
			   __entry->short_limit_mw = s->short_limit_mw;
			   __entry->throttle_avg = s->throttle_avg;
			   __entry->limited_avg = s->limited_avg;
			   __entry->turbo_avg = s->turbo_avg;
			   __entry->pressure = pressure;),
	    TP_printk("pkg=%u cpu=%d window_us=%llu power_mw=%u limit_mw=%u busy_cpus=%u pressure=%u avg_mw=%u short_limit_mw=%u throttle_avg=%u limited_avg=%u turbo_avg=%u",
		      __entry->pkg, __entry->cpu, __entry->window_us,
		      __entry->power_mw, __entry->limit_mw, __entry->busy_cpus,
		      __entry->pressure, __entry->avg_mw, __entry->short_limit_mw,
		      __entry->throttle_avg, __entry->limited_avg,
		      __entry->turbo_avg)
);

#endif /* _CPUIDLE_BUDGET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
