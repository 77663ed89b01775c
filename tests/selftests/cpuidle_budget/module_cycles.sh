#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the governor module repeatedly: 50 cycles of modprobe,
# select, idle, switch away, rmmod; once without switching away (refused,
# nothing changes); and rmmod racing with writes to current_governor (no
# CPU may call into a departed governor: the kernel log must stay clean,
# which scripts/vm-run.sh checks).

DIR=$(dirname "$0")
. "$DIR/lib.sh"

CYCLES=${CYCLES:-50}

ktap_print_header
require_cpuidle_driver
ktap_set_plan 4
selftest_setup
set_governor menu
rmmod "$MODULE" 2>/dev/null

cycle() {
	modprobe "$MODULE" && set_governor budget &&
		[ "$(current_governor)" = budget ] || return 1
	sleep 0.02
	set_governor menu && rmmod "$MODULE" && ! module_loaded
}
bad=0
for i in $(seq 1 "$CYCLES"); do
	cycle || { ktap_print_msg "cycle $i failed"; bad=$((bad + 1)); }
done
ktap_test_result "$CYCLES modprobe/select/switch-away/rmmod cycles" [ $bad = 0 ]

without_switching_away() {
	modprobe "$MODULE" && set_governor budget || return 1
	rmmod "$MODULE" 2>/dev/null && return 1
	module_loaded && [ "$(current_governor)" = budget ] || return 1
	set_governor menu && rmmod "$MODULE" && ! module_loaded
}
ktap_test_result "rmmod without switching away is refused, then works after" \
	without_switching_away

# Writers keep selecting budget while the module comes and goes.
race() {
	local writer i end
	(
		end=$((SECONDS + 20))
		while [ $SECONDS -lt $end ]; do
			set_governor budget
			set_governor teo
		done
	) &
	writer=$!
	for i in $(seq 1 30); do
		modprobe "$MODULE"
		sleep 0.01
		rmmod "$MODULE" 2>/dev/null
	done
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
	set_governor menu
	rmmod "$MODULE" 2>/dev/null
	! module_loaded && [ "$(current_governor)" = menu ]
}
ktap_test_result "rmmod racing with governor writes leaves a consistent state" race

idle_still_works() {
	local u0
	u0=$(total_usage)
	periodic_wakeups
	[ "$(total_usage)" -gt $((u0 + 100)) ]
}
ktap_test_result "idle still works after the cycles" idle_still_works

ktap_finished
