#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make bench" (run under -icount: virtual time, so costs are
# instruction counts, not host noise). For each governor, the same workload
# (early wake-ups from tests/selftests/cpuidle_budget/wakeups.c on CPU 2,
# cyclictest timers on CPUs 0 and 3) with the power:cpu_idle and
# sched:sched_switch and timer:hrtimer_start/cancel events recorded;
# bench/bench-report.py measures the idle re-entry path from them. Then
# budget twice more at pressure 1024 (the signal override), with and
# without the bias statistics: with them, every selection also works out
# the pressure-0 choice, as every selection under pressure did before
# that became optional (trace-budget_p1024_stats against
# trace-budget_p1024). Then the budget sampler's own run time over a
# loaded interval, reading the emulated platform's power model.

CPUIDLE=/sys/devices/system/cpu/cpuidle
T=/sys/kernel/tracing
WAKEUPS=$CB_SELFTESTS/cpuidle_budget/wakeups
# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
. "$CB_TOP/tests/selftests/cpuidle_budget_lib/debugfs.sh"
SECS=${BENCH_SECONDS:-3}
cd "${TMPDIR:-/tmp}" || exit 1

modprobe emul_idle || exit 1
modprobe cpuidle_budget || exit 1

EVENTS="power/cpu_idle sched/sched_switch timer/hrtimer_start timer/hrtimer_cancel"
# trace_events 0|1: switch the recorded events off or on.
trace_events() {
	local e
	for e in $EVENTS; do
		echo "$1" >$T/events/$e/enable
	done
}

# run_traced NAME: the workload under the current governor, its trace
# into trace-NAME.txt.
run_traced() {
	echo >$T/trace
	trace_events 1
	cyclictest -q --laptop -t 2 -a 0,3 -i 1000 -D "$SECS" >/dev/null 2>&1 &
	"$WAKEUPS" 2 1 "$SECS"
	wait
	trace_events 0
	cat $T/trace >"$RESULTS_DIR/trace-$1.txt"
	echo "# $1: $(grep -c cpu_idle "$RESULTS_DIR/trace-$1.txt") cpu_idle events"
}

echo 4096 >$T/buffer_size_kb
for gov in ladder menu teo budget; do
	printf '%s' "$gov" >$CPUIDLE/current_governor || exit 1
	run_traced "$gov"
done

# Pressure 1024 through the override; bias_stats on, then off.
printf menu >$CPUIDLE/current_governor
rmmod cpuidle_budget && modprobe cpuidle_budget allow_override=1 || exit 1
echo "power_mw=6000 limit_mw=6000 busy_cpus=1" >/sys/kernel/debug/cpuidle_budget/override
printf budget >$CPUIDLE/current_governor || exit 1
for stats in 1 0; do
	echo $stats >/sys/module/cpuidle_budget/parameters/bias_stats
	name=budget_p1024
	[ $stats = 1 ] && name=budget_p1024_stats
	run_traced $name
	echo "# $name: pressure $(table_col /sys/kernel/debug/cpuidle_budget/packages pressure 0)"
done
echo off >/sys/kernel/debug/cpuidle_budget/override
printf menu >$CPUIDLE/current_governor
rmmod cpuidle_budget && modprobe cpuidle_budget || exit 1

# Sampler overhead: its accumulated run time over a loaded 10 s, with the
# emulated platform's model as its power source (so that every sample
# reads a source, as on a machine with RAPL: under TCG the MSR sources
# give up, see signals.c).
echo 1 >/sys/module/emul_idle/parameters/power_model || exit 1
modprobe emul_budget || exit 1
printf budget >$CPUIDLE/current_governor
P=/sys/kernel/debug/cpuidle_budget/packages
sampler_ns() {
	table_sum $P sampler_ns
}
samples() {
	table_sum $P samples
}
cyclictest -q --laptop -t 2 -a 0,3 -i 1000 -D 10 >/dev/null 2>&1 &
a=$(sampler_ns)
n0=$(samples)
t0=$(awk '{ print $1 }' /proc/uptime)
"$WAKEUPS" 2 1 10
wait
b=$(sampler_ns)
n1=$(samples)
t1=$(awk '{ print $1 }' /proc/uptime)
cat $P >"$RESULTS_DIR/packages.txt"
echo "sampler_ns $((b - a)) wall_s $(echo "$t1 - $t0" | bc -l) samples $((n1 - n0))" \
	>"$RESULTS_DIR/sampler.txt"
printf menu >$CPUIDLE/current_governor
rmmod emul_budget
echo 0 >/sys/module/emul_idle/parameters/power_model
