#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU offline/online while budget is the current governor: every
# secondary CPU goes offline and comes back online (each one, and the
# online mask as it was), budget stays current, and the CPU that came
# back idles under budget again.

DIR=$(dirname "$0")
. "$DIR/lib.sh"

ktap_print_header
require_cpuidle_driver
ktap_set_plan 3
selftest_setup
modprobe "$MODULE"
set_governor budget

cpus=()
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -f "$c/online" ] && cpus+=("${c##*/cpu}")
done
# The guest of make check has CONFIG_HOTPLUG_CPU and 4 CPUs: no
# hot-pluggable CPU there is a failure, not a skip.
[ ${#cpus[@]} -gt 0 ] || ktap_exit_fail_msg "no hot-pluggable CPU"
online_before=$(cat /sys/devices/system/cpu/online)

offline_online() {
	local c
	for c in "${cpus[@]}"; do
		echo 0 >/sys/devices/system/cpu/cpu$c/online || return 1
		[ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 0 ] ||
			{ ktap_print_msg "CPU $c did not go offline"; return 1; }
		echo 1 >/sys/devices/system/cpu/cpu$c/online || return 1
		[ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 1 ] ||
			{ ktap_print_msg "CPU $c did not come back online"; return 1; }
	done
	[ "$(cat /sys/devices/system/cpu/online)" = "$online_before" ] ||
		{ ktap_print_msg "online CPUs $(cat /sys/devices/system/cpu/online), were $online_before"; return 1; }
}
ktap_test_result "offline and online each of ${#cpus[@]} secondary CPUs, all back online" \
	offline_online

ktap_test_result "budget is still the current governor" \
	[ "$(current_governor)" = budget ]

# The CPU idles while a timer thread pinned to it sleeps and wakes.
cpu=${cpus[0]}
back_cpu_idles() {
	local u0
	u0=$(total_usage "$cpu")
	taskset -c "$cpu" cyclictest -q --laptop -t 1 -i 1000 -l 300 >/dev/null 2>&1 ||
		{ ktap_print_msg "cyclictest on CPU $cpu failed"; return 1; }
	[ "$(total_usage "$cpu")" -gt $((u0 + 100)) ]
}
ktap_test_result "CPU $cpu idles again after coming back" back_cpu_idles

ktap_finished
