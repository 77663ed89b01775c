#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module parameters and the override file refuse bad values with an error
# and change nothing. Each refusal is checked against a value the test set
# first (not the default a reset would also give), and each parameter is
# shown to take a good value (a positive control: a write that fails
# because the file is missing, or a modprobe that fails because the module
# is, refuses everything too).

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
		! modprobe "$MODULE" sample_period_ms=0 2>/dev/null && ! module_loaded || return 1
	# The control: with good values the same modprobe loads.
	modprobe "$MODULE" signals=none sample_period_ms=4 && module_loaded &&
		rmmod "$MODULE" && ! module_loaded
}
ktap_test_result "modprobe with a bad signals= or sample_period_ms= fails, nothing loaded" \
	refused_at_load

modprobe "$MODULE" allow_override=1 signals=none || ktap_exit_fail_msg "modprobe"
ktap_test_result "signals=none is taken" [ "$(cat $P/signals)" = none ]

# takes FILE VALUE: writing VALUE to FILE works and reads back.
takes() {
	printf '%s' "$2" >"$1" && [ "$(cat "$1")" = "$2" ] ||
		{ ktap_print_msg "$1 did not take '$2'"; return 1; }
}

# write_refused FILE VALUE: FILE has a value, the write of VALUE fails,
# and FILE still has that value.
write_refused() {
	local before
	before=$(cat "$1") && [ -n "$before" ] || { ktap_print_msg "cannot read $1"; return 1; }
	if printf '%s' "$2" >"$1" 2>/dev/null; then
		ktap_print_msg "$1 took '$2'"
		return 1
	fi
	[ "$(cat "$1")" = "$before" ] ||
		{ ktap_print_msg "$1 changed from '$before' to '$(cat "$1")'"; return 1; }
}

# refused_keep FILE OLD VALUE...: FILE takes OLD (not its default), then
# refuses each VALUE and still reads OLD.
refused_keep() {
	local f=$1 old=$2 v
	shift 2
	takes "$f" "$old" || return 1
	for v in "$@"; do
		write_refused "$f" "$v" || return 1
	done
	[ "$(cat "$f")" = "$old" ]
}

period_refused() {
	refused_keep $P/sample_period_ms 10 0 1001 abc -4 && takes $P/sample_period_ms 4
}
ktap_test_result "sample_period_ms takes 10, then refuses 0, 1001, abc and -4 and keeps 10" \
	period_refused

period_taken() {
	takes $P/sample_period_ms 1 && takes $P/sample_period_ms 1000 &&
		takes $P/sample_period_ms 4
}
ktap_test_result "sample_period_ms takes 1 and 1000, the ends of its range" period_taken

amd_refused() {
	refused_keep $P/amd_power_limit_mw 15000 -1 20000000 12W &&
		takes $P/amd_power_limit_mw 0
}
ktap_test_result "amd_power_limit_mw takes 15000, then refuses -1, 20000000 and 12W and keeps it" \
	amd_refused

read_only() {
	write_refused $P/allow_override 0 && write_refused $P/signals auto &&
		[ "$(cat $P/allow_override)" = Y ] && [ "$(cat $P/signals)" = none ]
}
ktap_test_result "signals and allow_override cannot change after load" read_only

override_refused() {
	echo "power_mw=5000 limit_mw=6000" >"$OVERRIDE" || return 1
	local before
	before=$(cat "$OVERRIDE")
	write_refused "$OVERRIDE" "power_mw=1 bogus=2" && write_refused "$OVERRIDE" "throttle=5000" &&
		write_refused "$OVERRIDE" "limit_notified=2" && write_refused "$OVERRIDE" "power_mw" &&
		write_refused "$OVERRIDE" "turbo_limited=2" &&
		write_refused "$OVERRIDE" "short_limit_mw=-1" &&
		write_refused "$OVERRIDE" "short_limit_mw=6W" &&
		[ "$(cat "$OVERRIDE")" = "$before" ] && echo off >"$OVERRIDE"
}
ktap_test_result "the override refuses unknown keys and out-of-range values, unchanged" \
	override_refused

ktap_finished
