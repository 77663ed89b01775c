#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make demo" (run under -icount): the emulated 2P+4E
# platform with its power model, and for each scenario and each governor
# (selected through /sys/devices/system/cpu/cpuidle/current_governor) the
# same mixed workload:
#
#   P-cores (CPUs 0-1)  CPU-bound stress-ng, one worker each: throughput
#   E-cores (CPUs 2-5)  cyclictest timer threads (wake-up latency), and
#                       cross-CPU wake-ups from tests/.../wakeups.c
#                       (CPU 2 wakes 3, CPU 4 wakes 5)
#
# Scenarios: "limited" (PL1 well below the all-busy power) and
# "unlimited" (PL1 and PL2 far above it). Raw figures go to
# $RESULTS_DIR/demo/<scenario>-<governor>/ (with idle.trace, the
# power:cpu_idle, cpu_idle_miss and cpuidle_budget:cpuidle_budget_select
# events of the run, and demo/sysfs, the state table, for tools/cpuidle-analyze);
# bench/demo-report.py turns them into the table and
# build/bench/results.json.
#
# Environment: DEMO_SECONDS (default 5) per run, DEMO_PL1_MW (default
# 15000), DEMO_GOVERNORS (default "ladder menu teo budget").

CPUIDLE=/sys/devices/system/cpu/cpuidle
PLATFORM=/sys/kernel/debug/emul_idle/platform
PACKAGES=/sys/kernel/debug/cpuidle_budget/packages
PARAMS=/sys/module/emul_idle/parameters
T=/sys/kernel/tracing
WAKEUPS=$CB_SELFTESTS/cpuidle_budget/wakeups
# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
. "$CB_TOP/tests/selftests/cpuidle_budget_lib/debugfs.sh"
SECS=${DEMO_SECONDS:-5}
PL1=${DEMO_PL1_MW:-15000}
GOVERNORS=${DEMO_GOVERNORS:-ladder menu teo budget}
cd "${TMPDIR:-/tmp}" || exit 1

[ "$(nproc)" -ge 6 ] || { echo "demo needs 6 CPUs, has $(nproc)" >&2; exit 1; }

# states FILE: per CPU and state, usage and time (us).
states() {
	local d
	for d in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		echo "${d#/sys/devices/system/cpu/} $(cat "$d/name") $(cat "$d/usage") $(cat "$d/time")"
	done >"$1"
}

# samples FILE: every 100 ms, on CPU 0: budget's package pressure, and
# the model's power_mw, freq_scale and energy_uj.
samples() {
	taskset -c 0 bash -c ". $CB_TOP/tests/selftests/cpuidle_budget_lib/debugfs.sh; while :; do
		printf '%s ' \"\$(table_col $PACKAGES pressure 0)\"
		awk '\$1 ~ /^(power_mw|freq_scale|energy_uj)\$/ { printf \"%s \", \$2 } END { print \"\" }' $PLATFORM
		sleep 0.1; done" >"$1" 2>/dev/null &
	echo $!
}

# workload SECONDS: the mixed workload; stress-ng's YAML to ./stress.yaml.
workload() {
	stress-ng --cpu 2 --taskset 0,1 --cpu-method nsqrt -t "$1" \
		--metrics-brief --yaml stress.yaml >/dev/null 2>&1 &
	cyclictest -q --laptop -m -t 4 -a 2-5 -i 1500 -D "$1" -h 20000 --histfile=cyclictest.hist \
		>/dev/null 2>&1 &
	"$WAKEUPS" 3 2 "$1" &
	"$WAKEUPS" 5 4 "$1" &
	wait
}

# limits PL1 PL2: the emulated package's power limits (PL2 >= PL1 always).
limits() {
	if [ "$2" -ge "$(cat $PARAMS/pl2_mw)" ]; then
		echo "$2" >$PARAMS/pl2_mw && echo "$1" >$PARAMS/pl1_mw
	else
		echo "$1" >$PARAMS/pl1_mw && echo "$2" >$PARAMS/pl2_mw
	fi
}

run_scenario() {
	local scenario=$1 gov out pid

	limits "$2" "$3" || return 1
	echo "# $scenario: $(tr '\n' ' ' <$PLATFORM)"
	# Bring the model's averages to the workload's steady state.
	printf menu >$CPUIDLE/current_governor
	workload 2
	for gov in $GOVERNORS; do
		printf '%s' "$gov" >$CPUIDLE/current_governor || return 1
		[ "$(cat $CPUIDLE/current_governor)" = "$gov" ] || return 1
		out=$RESULTS_DIR/demo/$scenario-$gov
		mkdir -p "$out"
		workload 1		# settle under this governor
		# The platform snapshots and the clock readings are adjacent:
		# the energy is over exactly t1 - t0.
		states "$out/states.before"
		pid=$(samples "$out/samples")
		echo >$T/trace
		echo 1 >$T/tracing_on
		cp $PLATFORM "$out/platform.before"
		t0=$(date +%s.%N)
		workload "$SECS"
		t1=$(date +%s.%N)
		cp $PLATFORM "$out/platform.after"
		echo 0 >$T/tracing_on
		kill "$pid"
		states "$out/states.after"
		cp $T/trace "$out/idle.trace"
		mv stress.yaml cyclictest.hist "$out/"
		printf 'secs %s\nt0 %s\nt1 %s\n' "$SECS" "$t0" "$t1" >"$out/run"
		echo "# $scenario $gov: done"
	done
	cp $PACKAGES "$RESULTS_DIR/demo/$scenario-packages.txt"
}

mkdir -p "$RESULTS_DIR/demo"
# The old demo keeps its 1 s PL1 window (the part has the real 28 s).
modprobe emul_idle power_model=1 pl1_window_ms=1000 || exit 1
modprobe cpuidle_budget || exit 1
modprobe emul_budget || exit 1
# Idle decisions for tools/cpuidle-analyze: the trace of every run, and
# the state table it needs.
"$CB_TOP/tools/cpuidle-analyze" --snapshot "$RESULTS_DIR/demo/sysfs" || exit 1
echo 0 >$T/tracing_on
echo 16384 >$T/buffer_size_kb
for e in power/cpu_idle power/cpu_idle_miss cpuidle_budget/cpuidle_budget_select; do
	echo 1 >$T/events/$e/enable || exit 1
done
echo "# core types: $(table_cols /sys/kernel/debug/emul_idle/cpus cpu type | tr -d ' ' | paste -sd ' ')"
run_scenario limited "$PL1" 55000 || exit 1
run_scenario unlimited 500000 500000 || exit 1
printf menu >$CPUIDLE/current_governor
rmmod emul_budget cpuidle_budget
