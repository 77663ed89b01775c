#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the scheduler half of "make bench": a faked 2P+4E part
# (fake_hybrid= on the command line, 6 CPUs, -icount) with the emulated
# platform's power model running far from its limits, so that it counts
# energy without throttling anyone. For each setting of
# kernel.sched_itmt_efficiency_first (off, on, and on with the fit check
# turned off through NO_ASYM_PACK_FIT, to show what the check prevents),
# in one boot:
#
#   placement-light-MODE.json  4 light tasks (10 ms of every 100 ms,
#                        tests/selftests/sched_hybrid/dutycycle.c), traced
#                        after a warm-up and summed up by tools/sched-placement
#   placement-mixed-MODE.json  the same with 2 CPU-bound tasks added
#   trace-light-MODE.txt, trace-mixed-MODE.txt  the traces themselves
#   energy-light-MODE.txt, energy-mixed-MODE.txt
#                        modeled package energy over the traced part (uJ)
#   hackbench-MODE.txt   three hackbench runs (seconds each)
#   cyclictest-MODE.txt  cyclictest histogram with 4 light tasks running
#
# tools/bench-sched-report.py turns these into build/bench/results.json.

# shellcheck source=tests/selftests/sched_hybrid/lib.sh
. "$CB_TOP/tests/selftests/sched_hybrid/lib.sh"
T=$TRACING
KNOB=/proc/sys/kernel/sched_itmt_efficiency_first
FEATURES=/sys/kernel/debug/sched/features
PLATFORM=/sys/kernel/debug/emul_idle/platform
SECS=${BENCH_SECONDS:-6}
# Every task starts on an E-core (duty in lib.sh); PELT settles to its own
# demand in about a second. Measure after that.
WARMUP=2
cd "${TMPDIR:-/tmp}" || exit 1

[ -w $KNOB ] || { echo "no $KNOB: boot with fake_hybrid=" >&2; exit 1; }
# Limits far above what 6 busy CPUs draw: energy is counted, nothing slowed.
modprobe emul_idle power_model=1 pl1_mw=400000 pl2_mw=500000 || exit 1
cp $HYBRID "$RESULTS_DIR/core-types.txt"

energy_uj() {
	awk '$1 == "energy_uj" { print $2 }' $PLATFORM
}

# workload light|mixed: start the tasks for the warm-up and $SECS.
workload() {
	local i
	if [ "$1" = mixed ]; then
		for i in 1 2; do
			duty -n heavy "100:$((WARMUP + SECS))" &
		done
	fi
	for i in 1 2 3 4; do
		duty -p 100000 -n light "10:$((WARMUP + SECS))" &
	done
}

# measure light|mixed MODE: trace and count energy after the warm-up.
measure() {
	local e0 e1
	placement_trace_arm
	workload "$1"
	sleep $WARMUP
	e0=$(energy_uj)
	echo 1 >$T/tracing_on
	wait
	echo 0 >$T/tracing_on
	e1=$(energy_uj)
	echo "energy_uj $((e1 - e0)) seconds $SECS" >"$RESULTS_DIR/energy-$1-$2.txt"
	cp $T/trace "$RESULTS_DIR/trace-$1-$2.txt"
	"$CB_TOP/tools/sched-placement" --json --core-types $HYBRID $T/trace \
		>"$RESULTS_DIR/placement-$1-$2.json" || exit 1
	echo "# $1 $2:"
	"$CB_TOP/tools/sched-placement" --core-types $HYBRID $T/trace | grep -E 'light|heavy'
}

for mode in off on on_no_fit; do
	case $mode in
	off)	echo 0 >$KNOB; echo ASYM_PACK_FIT >$FEATURES ;;
	on)	echo 1 >$KNOB; echo ASYM_PACK_FIT >$FEATURES ;;
	on_no_fit) echo 1 >$KNOB; echo NO_ASYM_PACK_FIT >$FEATURES ;;
	esac

	measure light $mode
	measure mixed $mode

	: >"$RESULTS_DIR/hackbench-$mode.txt"
	for i in 1 2 3; do
		hackbench -g 4 -l 200 2>&1 | awk '/^Time:/ { print $2 }' \
			>>"$RESULTS_DIR/hackbench-$mode.txt"
	done

	for i in 1 2 3 4; do
		duty -p 100000 -n light "10:$SECS" &
	done
	cyclictest -q --laptop -t 4 -i 1000 -D "$SECS" -h 20000 \
		--histfile="$RESULTS_DIR/cyclictest-$mode.txt" >/dev/null 2>&1
	wait
done
echo 0 >$KNOB
echo ASYM_PACK_FIT >$FEATURES
exit 0
