# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the sched_hybrid selftest and tests/guest/bench-sched.sh.
# Sourced, not run.

TRACING=/sys/kernel/tracing
HYBRID=/sys/kernel/debug/x86/fake_hybrid
DUTY=${CB_TOP:?}/build/selftests/dutycycle

# core_type_cpus TYPE: the CPUs the fake_hybrid hook made P or E, as a
# list ("2,3,4,5").
core_type_cpus() {
	awk -v t="$1" '$2 == t { printf "%s%s", sep, $1; sep = "," }' $HYBRID
}

# duty ARGS...: dutycycle ARGS, forked on an E-core (-s). A task forked on
# a P-core starts with a utilization above the E-core packing limit, which
# util_est can keep for a whole run under QEMU (dutycycle.c says why);
# started on an E-core, where it runs is the scheduler's choice alone.
duty() {
	"$DUTY" -s "$(core_type_cpus E)" "$@"
}

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
