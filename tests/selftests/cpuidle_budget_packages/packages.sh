#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sampler on a two-package machine (a guest booted with -smp
# 4,sockets=2: CPUs 0-1 are package 0, CPUs 2-3 package 1).
#
# - Loading the governor probes both packages' sources, and sampling reads
#   them, from a CPU of the other package too: with
#   CONFIG_DEBUG_ATOMIC_SLEEP a read that may sleep under preemption off
#   splats, and the runner fails the run on the splat.
# - Each package is sampled from one of its own CPUs: package 1 keeps being
#   sampled while it is busy and the CPU that wrote current_governor
#   (CPU 1) idles, and after that CPU goes offline.
# - A busy package is sampled every period wherever its load moves: a
#   CPU-bound task moved between its CPUs leaves no gap in the samples.
# - The sample's busy CPU count follows each package's own load.
# - A package whose CPUs all go offline stops being sampled; when one comes
#   back, sampling resumes there, from fresh baselines.
# - After budget was not the governor for a while, the first sample only
#   takes baselines: no window spans the gap, no pressure comes of it.

DIR=$(dirname "$0")
. "$DIR/../cpuidle_budget/lib.sh"

PACKAGES=/sys/kernel/debug/cpuidle_budget/packages
TRACE=/sys/kernel/tracing
SAMPLE_EVENT=$TRACE/events/cpuidle_budget/cpuidle_budget_sample
# The sampling period the module is loaded with (sample_period_ms; the
# default, 100 ms, would give too few samples for these counts) and how
# long each measurement runs: 2 s is 200 periods; at least a fifth must
# be sampled, and no window may be longer than 25 periods.
PERIOD_MS=10
MEASURE_S=2
MIN_SAMPLES=$((MEASURE_S * 1000 / PERIOD_MS / 5))
MAX_WINDOW_US=$((25 * PERIOD_MS * 1000))

ktap_print_header
require_packages 2
ktap_set_plan 9
require_cpuidle_driver
selftest_setup
# This script runs on CPU 0 so that CPU 1, the writer, stays idle.
taskset -pc 0 $$ >/dev/null

cpu_online() {
	echo "$2" >"/sys/devices/system/cpu/cpu$1/online"
}

# pkg_field PACKAGE NAME: PACKAGE's column NAME of the packages file.
pkg_field() {
	table_col "$PACKAGES" "$2" "$1"
}

restore() {
	local c
	kill "$BUSY" "${LOOPS[@]}" 2>/dev/null
	for c in 1 2 3; do cpu_online $c 1 2>/dev/null; done
	echo 0 >"$SAMPLE_EVENT/enable" 2>/dev/null
	selftest_restore
}
trap restore EXIT

two_packages() {
	local c want
	for c in 0 1 2 3; do
		want=$((c / 2))
		[ "$(cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id)" = $want ] ||
			return 1
	done
	grep -q '^CONFIG_DEBUG_ATOMIC_SLEEP=y' <(zcat /proc/config.gz)
}
ktap_test_result "the guest has two packages (CPUs 0-1, 2-3) and atomic-sleep checks" two_packages

# Loaded and made current from CPU 1: the old sampler queued every
# package's work there.
set_governor menu
rmmod "$MODULE" 2>/dev/null
taskset -c 1 modprobe "$MODULE" sample_period_ms=$PERIOD_MS ||
	ktap_exit_fail_msg "modprobe $MODULE"
taskset -c 1 bash -c "printf budget >$GOV_FILE" || ktap_exit_fail_msg "cannot select budget"

bound_to_own_package() {
	local p cpu
	sleep 0.2
	[ "$(table_col "$PACKAGES" package | wc -l)" = 2 ] || return 1
	for p in 0 1; do
		cpu=$(pkg_field $p cpu)
		ktap_print_msg "package $p: sampled on CPU $cpu, $(pkg_field $p samples) samples"
		[ -n "$cpu" ] && [ "$cpu" -ge 0 ] || return 1
		[ "$(cat /sys/devices/system/cpu/cpu"$cpu"/topology/physical_package_id)" = "$p" ] ||
			return 1
		[ "$(pkg_field $p samples)" -gt 0 ] || return 1
	done
}
ktap_test_result "each package is sampled on a CPU of its own" bound_to_own_package

# busy_on CPU: a CPU-bound loop there, its pid in BUSY.
busy_on() {
	taskset -c "$1" bash -c 'while :; do :; done' &
	BUSY=$!
}

# A CPU-bound loop on CPU 3 (package 1); CPU 1 idles, this script sleeps.
busy_on 3
LOOPS=()
sleep 0.5

# samples_rise PACKAGE: its sample count grows by MIN_SAMPLES in MEASURE_S.
samples_rise() {
	local s0 s1
	s0=$(pkg_field "$1" samples)
	sleep "$MEASURE_S"
	s1=$(pkg_field "$1" samples)
	ktap_print_msg "package $1: $((s1 - s0)) samples in ${MEASURE_S} s (at least $MIN_SAMPLES), on CPU $(pkg_field "$1" cpu), busy CPUs $(pkg_field "$1" busy_cpus)"
	[ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -ge $((s0 + MIN_SAMPLES)) ]
}
ktap_test_result "busy package 1 is sampled while the writer CPU 1 idles" samples_rise 1

# Start tracing the sample events afresh.
trace_samples() {
	echo >"$TRACE/trace"
	echo 1 >"$SAMPLE_EVENT/enable"
}
# sample_field N PKG FIELD: FIELD of the Nth sample event of package PKG.
sample_field() {
	grep "cpuidle_budget_sample: pkg=$2 " "$TRACE/trace" | sed -n "$1p" |
		sed -n "s/.* $3=\([0-9-]*\).*/\1/p"
}
# max_window PKG: the longest window of PKG's traced samples, in us.
max_window() {
	grep "cpuidle_budget_sample: pkg=$1 " "$TRACE/trace" |
		sed -n 's/.* window_us=\([0-9]*\).*/\1/p' | sort -n | tail -1
}
# sample_count PKG: how many samples of PKG were traced.
sample_count() {
	grep -c "cpuidle_budget_sample: pkg=$1 " "$TRACE/trace"
}

# The loop on CPU 3 moves to CPU 2 and back, ten times, 200 ms on each:
# the CPU it leaves goes idle, the one it comes to never idles again
# while it runs. However the sampler follows the load, no window may be
# longer than 25 periods, nor may the samples be fewer than a
# fifth of the periods. (A sampler that stays on the CPU the load left,
# on a timer that does not wake it, stops until that CPU wakes up for
# something else; the CPU the load came to woke up right after a sample,
# too early to restart it.)
load_moves() {
	local i n longest
	trace_samples
	for i in 1 2 3 4 5 6 7 8 9 10; do
		taskset -pc $((2 + i % 2)) "$BUSY" >/dev/null || return 1
		sleep 0.2
	done
	echo 0 >"$SAMPLE_EVENT/enable"
	taskset -pc 3 "$BUSY" >/dev/null || return 1
	n=$(sample_count 1)
	longest=$(max_window 1)
	ktap_print_msg "load moving between CPUs 2 and 3: $n samples of package 1 in 2 s (at least $MIN_SAMPLES), the longest window $longest us"
	is_count "$n" "$longest" && [ "$n" -ge "$MIN_SAMPLES" ] && [ "$longest" -lt "$MAX_WINDOW_US" ]
}
ktap_test_result "package 1 is sampled every period while its load moves between its CPUs" load_moves

offline_writer() {
	cpu_online 1 0 || return 1
	[ "$(pkg_field 0 cpu)" = 0 ] || return 1
	samples_rise 1 && [ "$(pkg_field 1 busy_cpus)" -ge 1 ]
}
ktap_test_result "after CPU 1 goes offline package 1 is still sampled, and busy" offline_writer

# both_busy PKG: "N B", PKG's traced samples that measured a window, and
# how many of them saw both of its CPUs busy.
both_busy() {
	grep "cpuidle_budget_sample: pkg=$1 " "$TRACE/trace" | grep -v ' window_us=0 ' |
		awk '{ n++; if ($0 ~ / busy_cpus=2 /) b++ } END { print n + 0, b + 0 }'
}

# loops_on CPU CPU: a CPU-bound loop on each, their pids in LOOPS.
loops_on() {
	local c
	LOOPS=()
	for c in "$@"; do
		taskset -c "$c" bash -c 'while :; do :; done' &
		LOOPS+=($!)
	done
}

# The load, a loop on each of a package's two CPUs, moves from package 1
# to package 0: the loaded package's samples see both CPUs busy (nine in
# ten at least), the other's seldom (one in four at most). Both CPUs, not
# one: under TCG a CPU woken to be sampled spends long enough waking up
# and sampling that a short window of it can read as busy (measured on the
# debug kernel: 177 of 211 samples of an idle package showed one busy
# CPU); both at once, 31 of 347 there, with the host's two cores taken by
# the loops.
# under_load CPU CPU: loops on both CPUs of one package for a traced
# second; prints "N B I J": the loaded package's samples and how many saw
# both its CPUs busy, then the same for the other package.
under_load() {
	local loaded=$(($1 / 2))
	loops_on "$@"
	sleep 0.3
	trace_samples
	sleep 1
	echo "$(both_busy $loaded) $(both_busy $((1 - loaded)))"
	kill "${LOOPS[@]}" && wait "${LOOPS[@]}" 2>/dev/null
}

load_follows() {
	local n1 b1 n0 b0 i0 j0 i1 j1
	kill "$BUSY" && wait "$BUSY" 2>/dev/null
	cpu_online 1 1 || return 1
	read -r n1 b1 i0 j0 < <(under_load 2 3)
	read -r n0 b0 i1 j1 < <(under_load 0 1)
	echo 0 >"$SAMPLE_EVENT/enable"
	ktap_print_msg "loops on package 1: both its CPUs busy in $b1 of $n1 samples, package 0's in $j0 of $i0"
	ktap_print_msg "loops on package 0: both its CPUs busy in $b0 of $n0 samples, package 1's in $j1 of $i1"
	is_count "$n1" "$b1" "$n0" "$b0" "$i0" "$j0" "$i1" "$j1" || return 1
	[ "$n1" -ge 50 ] && [ $((10 * b1)) -ge $((9 * n1)) ] &&
		[ "$n0" -ge 50 ] && [ $((10 * b0)) -ge $((9 * n0)) ] &&
		[ $((4 * j0)) -le "$i0" ] && [ $((4 * j1)) -le "$i1" ]
}
ktap_test_result "each package's busy CPUs follow its own load" load_follows

# While loaded, a package is sampled every period: a window of 100 ms
# would be 25 periods missed.
package_back() {
	local s0 s1 first rose
	cpu_online 2 0 && cpu_online 3 0 || return 1
	[ "$(pkg_field 1 cpu)" = -1 ] && [ "$(pkg_field 1 pressure)" = 0 ] || return 1
	s0=$(pkg_field 1 samples)
	sleep 1
	s1=$(pkg_field 1 samples)
	ktap_print_msg "package 1 offline: $((s1 - s0)) samples in 1 s"
	[ "$s1" = "$s0" ] || return 1
	# Back: the online callback takes the baseline sample at once.
	trace_samples
	cpu_online 2 1 || return 1
	sleep 0.2
	first=$(sample_field 1 1 window_us)
	busy_on 2
	sleep 0.3
	trace_samples
	samples_rise 1
	rose=$?
	kill "$BUSY"
	echo 0 >"$SAMPLE_EVENT/enable"
	ktap_print_msg "package 1 back on CPU $(pkg_field 1 cpu): first window_us $first; loaded, the longest $(max_window 1) us"
	[ $rose = 0 ] && [ "$(pkg_field 1 cpu)" = 2 ] && [ "$first" = 0 ] &&
		[ "$(max_window 1)" -lt "$MAX_WINDOW_US" ]
}
ktap_test_result "package 1 offline: not sampled; back: sampled again from fresh baselines" package_back
cpu_online 3 1

# Away for 3 s, then back with package 0 loaded. A window that spanned
# the gap would be at least 3 s long; the bound is a third of that, not
# the loaded cadence that test 4 checks: one make check run of 2026-12-05
# saw a 145 ms window here (and 28 ms in test 4), which says nothing about
# the baselines. Without them, the first window is the whole gap. The
# cadence under load still has a bound, looser than test 4's: 400 ms
# (100 periods).
GAP_MS=3000
switch_back() {
	local first
	set_governor menu || return 1
	sleep $((GAP_MS / 1000))
	trace_samples
	busy_on 1
	set_governor budget || return 1
	sleep 1
	kill "$BUSY"
	echo 0 >"$SAMPLE_EVENT/enable"
	first=$(sample_field 1 0 window_us)
	ktap_print_msg "package 0 back: window_us $first, then $(sample_field 2 0 window_us); first pressure $(sample_field 1 0 pressure); longest $(max_window 0) us"
	[ "$first" = 0 ] && [ "$(sample_field 1 0 pressure)" = 0 ] &&
		[ "$(sample_field 2 0 window_us)" -gt 0 ] &&
		[ "$(max_window 0)" -lt 400000 ]
}
ktap_test_result "back to budget after 3 s: the first sample takes baselines, no window spans the gap" \
	switch_back

ktap_test_result "budget is still the current governor" [ "$(current_governor)" = budget ]

ktap_finished
