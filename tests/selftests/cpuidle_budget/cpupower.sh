#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cpupower (Debian's linux-cpupower) as a client of the cpuidle sysfs
# files while budget is the current governor: "cpupower idle-info" names
# budget and lists the driver's states; "cpupower idle-set -d" disables the
# deepest state on every CPU, budget then never enters it, and "idle-set
# -e" enables it again. Every state's disable flag is put back as it was,
# also when the test fails.

DIR=$(dirname "$0")
. "$DIR/lib.sh"

ktap_print_header
require_cpuidle_driver
if ! command -v cpupower >/dev/null; then
	ktap_skip_all "cpupower is not installed (Debian: linux-cpupower)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 4
selftest_setup
SYSCPU=/sys/devices/system/cpu
# The deepest state and every CPU's disable flags as found.
deepest=$(( $(ls -d $SYSCPU/cpu0/cpuidle/state[0-9]* | wc -l) - 1 ))
declare -A was
for f in $SYSCPU/cpu[0-9]*/cpuidle/state[0-9]*/disable; do
	was[$f]=$(cat "$f")
done
restore_states() {
	local f
	for f in "${!was[@]}"; do
		echo "${was[$f]}" >"$f" 2>/dev/null
	done
	selftest_restore
}
trap restore_states EXIT
modprobe "$MODULE" && set_governor budget ||
	ktap_exit_fail_msg "cannot make budget the current governor"

idle_info() {
	local out n
	out=$(cpupower -c 0 idle-info 2>/dev/null)
	n=$(ls -d $SYSCPU/cpu0/cpuidle/state[0-9]* | wc -l)
	echo "$out" | grep -q "^CPUidle governor: budget$" &&
		echo "$out" | grep -q "^Number of idle states: $n$" ||
		{ echo "$out" | head -8 | sed 's/^/# /'; return 1; }
}
ktap_test_result "cpupower idle-info names budget and the driver's $((deepest + 1)) states" idle_info

# all_disable V: every online CPU's deepest state has disable V.
all_disable() {
	local c v
	for c in $SYSCPU/cpu[0-9]*; do
		[ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] || continue
		v=$(cat "$c/cpuidle/state$deepest/disable")
		[ "$v" = "$1" ] || { ktap_print_msg "${c##*/} state$deepest disable $v"; return 1; }
	done
}
disable_deepest() {
	cpupower -c all idle-set -d "$deepest" >/dev/null 2>&1 && all_disable 1
}
ktap_test_result "cpupower idle-set -d $deepest disables state $deepest on every CPU" \
	disable_deepest

# Under periodic wake-ups budget selects states, none of them the
# disabled one (its usage stays put), and some other one (usage moves).
never_entered() {
	local before after total0 total1
	before=$(cat $SYSCPU/cpu*/cpuidle/state$deepest/usage | awk '{ s += $1 } END { print s + 0 }')
	total0=$(total_usage)
	periodic_wakeups
	after=$(cat $SYSCPU/cpu*/cpuidle/state$deepest/usage | awk '{ s += $1 } END { print s + 0 }')
	total1=$(total_usage)
	ktap_print_msg "state $deepest entries $before -> $after, all states $total0 -> $total1"
	is_count "$before" "$after" "$total0" "$total1" &&
		[ "$after" = "$before" ] && [ "$total1" -gt "$total0" ]
}
ktap_test_result "budget never enters the disabled state, and idles in the others" never_entered

enable_deepest() {
	cpupower -c all idle-set -e "$deepest" >/dev/null 2>&1 && all_disable 0
}
ktap_test_result "cpupower idle-set -e $deepest enables it again on every CPU" enable_deepest

ktap_finished
