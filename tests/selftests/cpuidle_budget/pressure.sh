#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The power-pressure bias, driven through the debugfs signal override: on
# the same early-wake-up workload, high pressure moves residency toward
# deeper states; the latency limit (/dev/cpu_dma_latency) and disabled
# states hold whatever the pressure; the tracepoint reports both choices.

DIR=$(dirname "$0")
. "$DIR/lib.sh"

OVERRIDE=/sys/kernel/debug/cpuidle_budget/override
CPU=${CPU:-2}
SRC=${SRC:-1}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
STATE=/sys/devices/system/cpu/cpu$CPU/cpuidle

ktap_print_header
require_cpuidle_driver
ktap_set_plan 7
selftest_setup
set_governor menu
rmmod "$MODULE" 2>/dev/null
modprobe "$MODULE" allow_override=1 || ktap_exit_fail_msg "modprobe allow_override=1"
set_governor budget

# Built by make check from wakeups.c (tests/selftests/cpuidle_budget).
WAKEUPS=${WAKEUPS:-$CB_TOP/build/selftests/wakeups}

# Entries per state of $CPU while the workload runs.
entries() {
	local before after
	before=$(cat $STATE/state*/usage | tr '\n' ' ')
	"$WAKEUPS" "$CPU" "$SRC" "$SECONDS_PER_RUN"
	after=$(cat $STATE/state*/usage | tr '\n' ' ')
	paste <(echo "$before" | tr ' ' '\n') <(echo "$after" | tr ' ' '\n') |
		awk 'NF == 2 { printf "%d ", $2 - $1 }'
}

# Share (per mille) of the entries into states at or beyond C6 (index 3).
deep_share() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) { t += $i; if (i >= 4) d += $i }
		print t ? int(1000 * d / t) : 0 }'
}

# usage_of N: entries of state N on $CPU.
usage_of() {
	cat $STATE/state$1/usage
}

wait_pressure() {
	local want=$1 i
	for i in $(seq 50); do
		[ "$(awk -v c="$CPU" '$1 == c { print $7 }' "$STATS")" = "$want" ] && return 0
		sleep 0.05
	done
	return 1
}

echo "power_mw=1000 limit_mw=6000 busy_cpus=1" >"$OVERRIDE"
wait_pressure 0 || ktap_print_msg "pressure did not drop to 0"
low=$(entries)
echo "power_mw=6000 limit_mw=6000 busy_cpus=1" >"$OVERRIDE"
wait_pressure 1024 || ktap_print_msg "pressure did not rise to 1024"
deeper0=$(awk -v c="$CPU" '$1 == c { print $4 }' "$STATS")
high=$(entries)
deeper1=$(awk -v c="$CPU" '$1 == c { print $4 }' "$STATS")
ktap_print_msg "pressure 0:    entries per state: $low(deep share $(deep_share "$low")/1000)"
ktap_print_msg "pressure 1024: entries per state: $high(deep share $(deep_share "$high")/1000)"
ktap_test_result "pressure 1024 moves idle entries toward deeper states (>= +10 points)" \
	[ "$(deep_share "$high")" -ge $(( $(deep_share "$low") + 100 )) ]
ktap_test_result "the statistics count selections the pressure made deeper" \
	[ "$deeper1" -gt "$deeper0" ]

# Exit latency limit of 100 us: C6 (170), C8 (200), C10 (230) must not run.
deep_usage() {
	echo $(( $(usage_of 3) + $(usage_of 4) + $(usage_of 5) ))
}
# The request holds while fd 3 is open; "64" is hex for 100 us.
exec 3>/dev/cpu_dma_latency
printf 64 >&3
u0=$(deep_usage)
entries >/dev/null
u1=$(deep_usage)
exec 3>&-
ktap_print_msg "deep state entries on CPU $CPU under a 100 us limit: $((u1 - u0))"
ktap_test_result "with /dev/cpu_dma_latency at 100 us no deeper state is entered, even at pressure 1024" \
	[ "$u1" = "$u0" ]

# A disabled state is never entered.
echo 1 >$STATE/state5/disable
c0=$(usage_of 5)
entries >/dev/null
c1=$(usage_of 5)
echo 0 >$STATE/state5/disable
ktap_test_result "a disabled state (C10) is never entered, even at pressure 1024" [ "$c1" = "$c0" ]

# The tracepoint: both the chosen and the unbiased state, and the pressure.
TRACE=/sys/kernel/tracing
tracepoint_reports() {
	[ -d $TRACE/events/cpuidle_budget/select ] || return 1
	echo >$TRACE/trace
	echo 1 >$TRACE/events/cpuidle_budget/select/enable
	"$WAKEUPS" "$CPU" "$SRC" 0.5
	echo 0 >$TRACE/events/cpuidle_budget/select/enable
	grep -m3 'cpuidle_budget' $TRACE/trace | sed 's/^/# /'
	grep -q "select: cpu=$CPU predicted_ns=[0-9]* sleep_ns=-\?[0-9]* pressure=1024 state=[0-9] unbiased=[0-9] stop_tick=[01]" \
		$TRACE/trace
}
ktap_test_result "tracepoint cpuidle_budget:select reports pressure, state and unbiased state" \
	tracepoint_reports

echo off >"$OVERRIDE"
ktap_test_result "override off: the real signals are back (none in this guest: pressure 0)" \
	wait_pressure 0

override_refused_without_parameter() {
	set_governor menu && rmmod "$MODULE" && modprobe "$MODULE" || return 1
	! echo "power_mw=6000 limit_mw=6000" >"$OVERRIDE" 2>/dev/null &&
		grep -q '^off$' "$OVERRIDE"
}
ktap_test_result "the override is refused unless allow_override=1 was given at load" \
	override_refused_without_parameter

ktap_finished
