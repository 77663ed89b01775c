#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module parameters and the override file refuse bad values with an error
# and change nothing.

DIR=$(dirname "$0")
. "$DIR/lib.sh"

P=/sys/module/$MODULE/parameters
OVERRIDE=/sys/kernel/debug/cpuidle_budget/override

ktap_print_header
ktap_set_plan 7
selftest_setup
set_governor menu 2>/dev/null
rmmod "$MODULE" 2>/dev/null

refused_at_load() {
	! modprobe "$MODULE" signals=bogus 2>/dev/null && ! module_loaded &&
		! modprobe "$MODULE" sample_period_ms=0 2>/dev/null && ! module_loaded
}
ktap_test_result "modprobe with a bad signals= or sample_period_ms= fails, nothing loaded" \
	refused_at_load

modprobe "$MODULE" allow_override=1 signals=none || ktap_exit_fail_msg "modprobe"
ktap_test_result "signals=none is taken" [ "$(cat $P/signals)" = none ]

# write_refused FILE VALUE: the write fails and FILE keeps its value.
write_refused() {
	local before
	before=$(cat "$1")
	printf '%s' "$2" >"$1" 2>/dev/null && return 1
	[ "$(cat "$1")" = "$before" ]
}
period_refused() {
	write_refused $P/sample_period_ms 0 && write_refused $P/sample_period_ms 1001 &&
		write_refused $P/sample_period_ms abc && write_refused $P/sample_period_ms -4
}
ktap_test_result "sample_period_ms refuses 0, 1001, abc and -4, unchanged" period_refused

period_taken() {
	printf 10 >$P/sample_period_ms && [ "$(cat $P/sample_period_ms)" = 10 ] &&
		printf 4 >$P/sample_period_ms
}
ktap_test_result "sample_period_ms takes 10" period_taken

amd_refused() {
	write_refused $P/amd_power_limit_mw -1 && write_refused $P/amd_power_limit_mw 20000000 &&
		write_refused $P/amd_power_limit_mw 12W
}
ktap_test_result "amd_power_limit_mw refuses -1, 20000000 and 12W, unchanged" amd_refused

read_only() {
	! printf 1 >$P/allow_override 2>/dev/null && ! printf auto >$P/signals 2>/dev/null
}
ktap_test_result "signals and allow_override cannot change after load" read_only

override_refused() {
	echo "power_mw=5000 limit_mw=6000" >"$OVERRIDE" || return 1
	local before
	before=$(cat "$OVERRIDE")
	write_refused "$OVERRIDE" "power_mw=1 bogus=2" && write_refused "$OVERRIDE" "throttle=5000" &&
		write_refused "$OVERRIDE" "limit_notified=2" && write_refused "$OVERRIDE" "power_mw" &&
		[ "$(cat "$OVERRIDE")" = "$before" ] && echo off >"$OVERRIDE"
}
ktap_test_result "the override refuses unknown keys and out-of-range values, unchanged" \
	override_refused

ktap_finished
