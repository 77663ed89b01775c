#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the scheduler half of "make bench", on a faked hybrid part
# of either shape (scripts/vm-run.sh --hybrid: 2P+4E, one thread per core;
# --hybrid-smt: 2 P-cores of two threads and 4 E-cores), -icount, with the
# emulated platform's power model running far from its limits, so that it
# counts energy without throttling anyone.
#
# kernel.sched_itmt_efficiency_first off and on, in ROUNDS rounds (the
# first argument, default 5) in one boot, the order of the two alternating
# from round to round, so that a drift over the boot falls on both alike.
# On the kernel without the series (make baseline: 6.12 and the test
# hook alone), which has no such knob, the rounds are of that kernel
# alone, setting "base": what the knob's off setting is held against.
# In each round and for each setting, under rt-app (tasks named light0,
# light1, ... and "heavy"):
#
#   light   4 light periodic tasks: 10 ms of work every 100 ms, a quarter
#           period apart
#   mixed   the same, and 2 CPU-bound tasks
#
# The work is rt-app's "runtime" (busy for that long), not "run" (a number
# of loops): under -icount all busy vCPUs share one instruction budget, so
# a number of loops takes 2-4 times longer whenever other vCPUs are busy
# (BENCH-NOTES.md, tests/emul/README.md), and a "light" task would not be
# light. Energy is then that of the same busy time in both settings.
# rt-app works in 32 us chunks of loops between its clock reads, sized by
# its calibration (ns per loop): measured in the guest at the start
# (calibration.txt), not rt-app's usual fixed guess, 100 times too fast
# under QEMU (bench/rtapp.sh).
#
# each started by rt-app on an E-core, and traced from $WARMUP s in for
# $SECS s; then one "hackbench -g 2 -l 100". rt-app runs confined to the
# E-cores until its threads exist, then every thread is let go: a task
# starts with half the spare capacity of the CPU it is forked on as its
# utilization, 512 and more on a P-core, and under -icount, where every
# wake-up waits for its vCPU's turn, util_est never lowers that estimate
# (bench/results-2026-12-06e/README.md traced it: util_avg 238, util_est
# 645), so where a light task was forked decided where it ran for the
# whole run. From an E-core it starts at 302 at most, and where it runs
# is the scheduler's choice, as in the placement selftest (dutycycle -s).
# Files,
# per round R and setting MODE (off, on; base on the baseline kernel):
#
#   placement-WORKLOAD-MODE-R.json  tools/sched-placement's summary
#   energy-WORKLOAD-MODE-R.txt      modeled package energy over the trace
#   rtapp-WORKLOAD-MODE-R/          rt-app's logs (wu_lat: wake-up latency
#                                   of each period, us)
#   hackbench-MODE-R.txt            hackbench's time (s)
#   shape.txt                       the fake_hybrid= table and SMT or not
#   calibration.txt                 rt-app's ns per loop, measured
#   trace-WORKLOAD-MODE-R.txt       the trace itself, with --keep-traces
#                                   (the second argument)
#
# bench/bench-sched-report.py turns these into build/bench/results.json.

# shellcheck source=tests/selftests/sched_hybrid/lib.sh
. "$CB_SELFTESTS/sched_hybrid/lib.sh"
# shellcheck source=bench/rtapp.sh
. "$CB_TOP/bench/rtapp.sh"
T=$TRACING
KNOB=/proc/sys/kernel/sched_itmt_efficiency_first
PLATFORM=/sys/kernel/debug/emul_idle/platform
SECS=${BENCH_SECONDS:-6}
ROUNDS=${1:-5}
KEEP_TRACES=0
[ "${2:-}" = --keep-traces ] && KEEP_TRACES=1
# PELT settles to a task's own demand in about a second: measure after.
WARMUP=2
cd "${TMPDIR:-/tmp}" || exit 1

[ -r $HYBRID ] || { echo "no $HYBRID: boot with fake_hybrid=" >&2; exit 1; }
if [ -e $KNOB ]; then
	modes=(off on)
else
	modes=(base)
	echo "no $KNOB: a kernel without the series, its rounds are \"base\""
fi
# The power model's core types, P-cores first, as the hook's table says:
# every possible CPU (offline E-core threads draw nothing while offline).
np=$(table_col $HYBRID type | grep -c '^P$')
ne=$(table_col $HYBRID type | grep -c '^E$')
# rt-app's unit of work, measured before the power model runs (see
# bench/rtapp.sh for what a guessed one did to a 10 ms "runtime").
NS_PER_LOOP=$(rtapp_ns_per_loop) || exit 1
# Limits far above what the busy CPUs draw: energy is counted, nothing slowed.
modprobe emul_idle layout="${np}p${ne}e" power_model=1 pl1_mw=400000 \
	pl2_mw=500000 || exit 1
{ cat $HYBRID; hybrid_smt && echo "smt 1" || echo "smt 0"; } >"$RESULTS_DIR/shape.txt"
echo "rt-app ns_per_loop $NS_PER_LOOP" >"$RESULTS_DIR/calibration.txt"

energy_uj() {
	awk '$1 == "energy_uj" { print $2 }' $PLATFORM
}

# rtapp_json WORKLOAD LOGDIR SECONDS: rt-app's task set on standard output.
# The light tasks are one definition each (light0, light1, ...), so that
# each can start a share of the period after the one before: started
# together, periodic tasks wake together every period, and under -icount
# each vCPU then waits its turn behind the others and the spinning ones
# (tests/selftests/sched_hybrid/placement.sh, vote(), has the traces). The
# report counts them as one class.
rtapp_json() {
	local i sep= lights= heavy=
	for i in $(seq 0 $((light_n - 1))); do
		lights+="$sep
    \"light$i\": { \"instance\": 1, \"loop\": -1, \"delay\": $((i * 100000 / light_n)),
               \"runtime\": 10000, \"timer\": { \"ref\": \"unique\", \"period\": 100000 } }"
		sep=,
	done
	[ "${heavy_n[$1]}" -gt 0 ] && heavy=',
    "heavy": { "instance": '"${heavy_n[$1]}"', "loop": -1, "runtime": 100000 }'
	cat <<EOF
{
  "global": { "duration": $3, "calibration": $NS_PER_LOOP, "default_policy": "SCHED_OTHER",
              "logdir": "$2", "log_basename": "rt", "lock_pages": false },
  "tasks": {$lights$heavy
  }
}
EOF
}

# The light tasks, and the CPU-bound ones next to them per workload.
light_n=4
declare -A heavy_n=([light]=0 [mixed]=2)

# release_threads PID N: once process PID has N threads (rt-app's main
# thread and its tasks), lets every one of them run on every online CPU;
# fails if that takes more than about 2 s or PID exits first.
release_threads() {
	local pid=$1 n=$2 _ threads
	for _ in $(seq 40); do
		[ -d "/proc/$pid" ] || return 1
		threads=(/proc/"$pid"/task/*)
		if [ ${#threads[@]} -ge "$n" ]; then
			taskset -a -p -c "$(cat /sys/devices/system/cpu/online)" "$pid" >/dev/null
			return
		fi
		sleep 0.05
	done
	return 1
}

# measure WORKLOAD MODE ROUND: run it, trace and count energy after the
# warm-up.
measure() {
	local tag=$1-$2-$3 e0 e1 pid
	local logs=$RESULTS_DIR/rtapp-$tag
	mkdir -p "$logs"
	rtapp_json "$1" "$logs" $((WARMUP + SECS)) >"$logs/taskset.json"
	placement_trace_arm
	taskset -c "$(core_type_cpus E)" rt-app "$logs/taskset.json" \
		>"$logs/rt-app.out" 2>&1 &
	pid=$!
	release_threads $pid $((1 + light_n + ${heavy_n[$1]})) ||
		{ echo "rt-app did not start its threads: $tag" >&2; exit 1; }
	sleep $WARMUP
	e0=$(energy_uj)
	echo 1 >$T/tracing_on
	wait $pid || { echo "rt-app failed: $tag" >&2; exit 1; }
	echo 0 >$T/tracing_on
	e1=$(energy_uj)
	echo "energy_uj $((e1 - e0)) seconds $SECS" >"$RESULTS_DIR/energy-$tag.txt"
	"$CB_TOP/tools/sched-placement" --json --core-types $HYBRID $T/trace \
		>"$RESULTS_DIR/placement-$tag.json" || exit 1
	[ $KEEP_TRACES = 0 ] || cp $T/trace "$RESULTS_DIR/trace-$tag.txt"
	echo "# $tag:"
	"$CB_TOP/tools/sched-placement" --core-types $HYBRID $T/trace | grep -E 'light|heavy'
}

for round in $(seq "$ROUNDS"); do
	order=${modes[*]}
	if [ ${#modes[@]} = 2 ] && [ $((round % 2)) = 0 ]; then order="on off"; fi
	for mode in $order; do
		case $mode in
		off)	echo 0 >$KNOB ;;
		on)	echo 1 >$KNOB ;;
		esac
		measure light $mode "$round"
		measure mixed $mode "$round"
		hackbench -g 2 -l 100 2>&1 | awk '/^Time:/ { print $2 }' \
			>"$RESULTS_DIR/hackbench-$mode-$round.txt"
	done
done
[ ! -e $KNOB ] || echo 0 >$KNOB
exit 0
