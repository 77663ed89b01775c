#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The budget governor module: loads, shows up, gets selected through sysfs,
# really makes the idle decisions, loads on demand through the module
# alias, refuses bad names (with the documented errno, case included)
# without changing anything, and cannot be unloaded while current.

DIR=$(dirname "$0")
. "$DIR/lib.sh"

ktap_print_header
require_cpuidle_driver
ktap_set_plan 14
selftest_setup

set_governor menu
rmmod "$MODULE" 2>/dev/null

modprobe "$MODULE"
ktap_test_result "modprobe $MODULE makes budget available" has_governor budget

ktap_test_result "loading the module does not switch to budget" \
	[ "$(current_governor)" = menu ]

set_governor budget
ktap_test_result "writing budget to current_governor selects it" \
	[ "$(current_governor)" = budget ]

u0=$(total_usage) s0=$(budget_selects)
periodic_wakeups
u1=$(total_usage) s1=$(budget_selects)
ktap_print_msg "usage $u0 -> $u1, budget selects $s0 -> $s1"
ktap_test_result "idle state usage counters move with budget current" \
	[ "$u1" -gt $((u0 + 100)) ]
ktap_test_result "budget's select() makes those decisions" \
	[ "$s1" -gt $((s0 + 100)) ]

bad_name_refused() {
	local name=$1
	set_governor budget
	if set_governor "$name"; then
		ktap_print_msg "write of '$name' succeeded"
		return 1
	fi
	[ "$(current_governor)" = budget ]
}
# Each bad name gets a function of its own (the kernel's ktap_test_result
# split its arguments on white space; ours, from ../cpuidle_budget_lib/ktap.sh, does not, but
# a named function also reads better in the result).
refuse_unknown() { bad_name_refused nosuchgovernor; }
refuse_empty_line() { bad_name_refused $'\n'; }
refuse_blank() { bad_name_refused ' '; }
refuse_long() { bad_name_refused budgetbudgetbudgetbudget; }
refuse_space() { bad_name_refused 'menu teo'; }
ktap_test_result "an unknown name is refused, governor unchanged" refuse_unknown
ktap_test_result "an empty line is refused, governor unchanged" refuse_empty_line
ktap_test_result "a blank name is refused, governor unchanged" refuse_blank
ktap_test_result "an over-long name is refused, governor unchanged" refuse_long
ktap_test_result "a name with a space is refused, governor unchanged" refuse_space

# The errno and the case rule are what Documentation/ABI/testing/
# sysfs-devices-system-cpu promises for current_governor: names match
# exactly, case included (cpuidle_find_governor() alone ignores case, for
# cpuidle.governor=), and a name no governor has fails with EINVAL.
write_error() {
	(LC_ALL=C; printf '%s' "$1" >"$GOV_FILE") 2>&1
}
refused_with_einval() {
	local name=$1 err
	set_governor menu || return 1
	err=$(write_error "$name")
	ktap_print_msg "write of '$name': ${err:-succeeded}"
	[[ $err == *"Invalid argument"* ]] && [ "$(current_governor)" = menu ]
}
refuse_other_case() { has_governor budget && refused_with_einval BUDGET; }
refuse_unknown_einval() { refused_with_einval nosuchgovernor; }
ktap_test_result "a name in another case (BUDGET) fails with EINVAL, governor unchanged" \
	refuse_other_case
ktap_test_result "an unknown name fails with EINVAL, governor unchanged" \
	refuse_unknown_einval

rmmod_refused() {
	set_governor budget
	if rmmod "$MODULE" 2>/dev/null; then
		ktap_print_msg "rmmod of the current governor succeeded"
		return 1
	fi
	module_loaded && [ "$(current_governor)" = budget ] || return 1
	# And it still runs the CPUs' idle decisions.
	local s0
	s0=$(budget_selects)
	periodic_wakeups
	[ "$(budget_selects)" -gt $((s0 + 100)) ]
}
ktap_test_result "rmmod of the current governor is refused, budget keeps running" \
	rmmod_refused

autoload() {
	set_governor menu && rmmod "$MODULE" || return 1
	module_loaded && return 1
	set_governor budget || return 1
	module_loaded && [ "$(current_governor)" = budget ]
}
ktap_test_result "writing budget while unloaded loads it (cpuidle-governor-budget alias)" \
	autoload

ktap_finished
