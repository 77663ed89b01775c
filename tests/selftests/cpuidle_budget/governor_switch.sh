#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 200 governor switches among ladder, menu, teo and budget while stress-ng
# keeps every CPU partly busy (so CPUs keep entering and leaving idle in
# the middle of the switches). Every switch must take effect, and each
# governor must still drive idle afterwards. The load is the point of the
# test: stress-ng must be running before and after the switches and exit
# 0 when stopped (a stress-ng that failed to start made this a test of
# switches on an idle system).

DIR=$(dirname "$0")
. "$DIR/lib.sh"

SWITCHES=${SWITCHES:-200}

ktap_print_header
require_cpuidle_driver
ktap_set_plan 2
selftest_setup
modprobe "$MODULE"

govs=(ladder menu teo budget)
for g in "${govs[@]}"; do
	has_governor "$g" || ktap_exit_fail_msg "governor $g is not available"
done

cd "${TMPDIR:-/tmp}" || exit 1
stress-ng --cpu "$(nproc)" --cpu-load 60 --timeout 300s >/dev/null 2>&1 &
stress=$!
sleep 1
running_before=0
kill -0 "$stress" 2>/dev/null && running_before=1

bad=0
for i in $(seq 1 "$SWITCHES"); do
	g=${govs[$((i % ${#govs[@]}))]}
	if ! set_governor "$g" || [ "$(current_governor)" != "$g" ]; then
		ktap_print_msg "switch $i to $g failed (current: $(current_governor))"
		bad=$((bad + 1))
	fi
done
running_after=0
kill -0 "$stress" 2>/dev/null && running_after=1
# SIGTERM ends stress-ng's run early, and it exits 0 ("successful run").
kill "$stress" 2>/dev/null
wait "$stress"
stress_rc=$?
ktap_print_msg "stress-ng running before the switches: $running_before, after: $running_after; exit $stress_rc"
switches_under_load() {
	[ $running_before = 1 ] && [ $running_after = 1 ] && [ $stress_rc = 0 ] && [ $bad = 0 ]
}
ktap_test_result "$SWITCHES switches under stress-ng (running throughout, exit 0) all take effect" \
	switches_under_load

every_governor_runs() {
	local g u0
	for g in "${govs[@]}"; do
		set_governor "$g" || return 1
		u0=$(total_usage)
		periodic_wakeups
		if [ "$(total_usage)" -le $((u0 + 100)) ]; then
			ktap_print_msg "no idle activity under $g"
			return 1
		fi
	done
}
ktap_test_result "every governor still drives idle after the switches" every_governor_runs

ktap_finished
