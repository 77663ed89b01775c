#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make demo": load the emulated idle driver and the budget
# governor with modprobe, then, for each governor selected through
# /sys/devices/system/cpu/cpuidle/current_governor, run the same short
# wake-up workload (cyclictest: two timer threads, 2 ms period, 1 s) and
# print the wake-up latency it measured and how often each idle state was
# entered (summed over CPUs) while it ran.

CPUIDLE=/sys/devices/system/cpu/cpuidle
cd "${TMPDIR:-/tmp}" || exit 1

modprobe emul_idle || exit 1
modprobe cpuidle_budget || exit 1
echo "cpuidle driver:      $(cat $CPUIDLE/current_driver)"
echo "available governors: $(cat $CPUIDLE/available_governors)"

states=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state*/name | tr '\n' ' ')
usage() {
	local s
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		cat /sys/devices/system/cpu/cpu*/cpuidle/"${s##*/}"/usage |
			awk '{ t += $1 } END { printf "%d ", t }'
	done
}

printf '\n%-8s %9s %9s  %s\n' governor lat_avg lat_max "idle state entries: $states"
for gov in ladder menu teo budget; do
	printf '%s' "$gov" >$CPUIDLE/current_governor || exit 1
	[ "$(cat $CPUIDLE/current_governor)" = "$gov" ] || exit 1
	before=$(usage)
	lat=$(cyclictest -q -t 2 -i 2000 -l 500 2>/dev/null |
		awk '/Avg:/ { for (i = 1; i <= NF; i++) {
			if ($i == "Avg:") a += $(i + 1); if ($i == "Max:" && $(i + 1) > m) m = $(i + 1) }
			n++ } END { printf "%7dus %7dus", n ? a / n : 0, m }')
	after=$(usage)
	delta=$(paste -d' ' <(echo "$before" | tr ' ' '\n') <(echo "$after" | tr ' ' '\n') |
		awk 'NF == 2 { printf "%s ", $2 - $1 }')
	printf '%-8s %s  %s\n' "$gov" "$lat" "$delta"
done
echo
echo "budget's own counters (debugfs cpuidle_budget/stats):"
cat /sys/kernel/debug/cpuidle_budget/stats
echo
echo "budget's power signals (debugfs cpuidle_budget/packages):"
cat /sys/kernel/debug/cpuidle_budget/packages
printf menu >$CPUIDLE/current_governor
rmmod cpuidle_budget
