# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the sched_hybrid selftest and tests/guest/bench-sched.sh.
# Sourced, not run.

TRACING=/sys/kernel/tracing

# placement_trace_arm: stop and clear the trace, and enable the events
# tools/sched-placement reads; tracing_on stays 0 until the caller starts.
placement_trace_arm() {
	local e
	echo 0 >$TRACING/tracing_on
	echo >$TRACING/trace
	echo 16384 >$TRACING/buffer_size_kb
	for e in sched/sched_switch sched/sched_migrate_task sched/sched_wakeup \
		 sched/sched_wakeup_new task/task_rename; do
		echo 1 >$TRACING/events/$e/enable
	done
}
