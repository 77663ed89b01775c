/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint of the budget cpuidle governor: one event per selection, with
 * what the selection saw and what it chose, biased and unbiased.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM cpuidle_budget

#if !defined(_CPUIDLE_BUDGET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CPUIDLE_BUDGET_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(select,
	    TP_PROTO(int cpu, s64 predicted_ns, s64 sleep_ns,
		     unsigned int pressure, int state, int unbiased,
		     bool stop_tick),
	    TP_ARGS(cpu, predicted_ns, sleep_ns, pressure, state, unbiased,
		    stop_tick),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(s64, predicted_ns)
			     __field(s64, sleep_ns)
			     __field(unsigned int, pressure)
			     __field(int, state)
			     __field(int, unbiased)
			     __field(bool, stop_tick)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->predicted_ns = predicted_ns;
			   __entry->sleep_ns = sleep_ns;
			   __entry->pressure = pressure;
			   __entry->state = state;
			   __entry->unbiased = unbiased;
			   __entry->stop_tick = stop_tick;),
	    TP_printk("cpu=%d predicted_ns=%lld sleep_ns=%lld pressure=%u state=%d unbiased=%d stop_tick=%d",
		      __entry->cpu, __entry->predicted_ns, __entry->sleep_ns,
		      __entry->pressure, __entry->state, __entry->unbiased,
		      __entry->stop_tick)
);

#endif /* _CPUIDLE_BUDGET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
