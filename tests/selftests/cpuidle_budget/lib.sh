# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the cpuidle_budget selftests. Sourced, not run. Uses the
# kernel's own KTAP helpers (tools/testing/selftests/kselftest/) from the
# tree the test kernel was built from, through ../cpuidle_budget_lib/ktap.sh (which makes
# ktap_test_result quote its command).

# shellcheck source=tests/selftests/cpuidle_budget_lib/ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../cpuidle_budget_lib/ktap.sh"
# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
. "$(dirname "${BASH_SOURCE[0]}")/../cpuidle_budget_lib/debugfs.sh"

CPUIDLE=/sys/devices/system/cpu/cpuidle
GOV_FILE=$CPUIDLE/current_governor
MODULE=cpuidle_budget
STATS=/sys/kernel/debug/cpuidle_budget/stats

current_governor() {
	cat "$GOV_FILE"
}

# set_governor NAME: write NAME as one write(2); fails as the write fails.
set_governor() {
	printf '%s' "$1" >"$GOV_FILE" 2>/dev/null
}

has_governor() {
	grep -qw "$1" "$CPUIDLE/available_governors"
}

module_loaded() {
	[ -d "/sys/module/$MODULE" ]
}

# Sum of the usage counters of every state on every CPU (or on CPU $1).
total_usage() {
	cat /sys/devices/system/cpu/cpu${1:-*}/cpuidle/state*/usage |
		awk '{ s += $1 } END { print s + 0 }'
}

# Sum of budget's select() count over CPUs, from its debugfs statistics.
budget_selects() {
	table_sum "$STATS" selects
}

# budget_stat CPU COLUMN: CPU's value in the debugfs statistics column
# COLUMN (selects, deeper, pressure...); nothing if either is missing.
budget_stat() {
	table_col "$STATS" "$2" "$1"
}

# A periodic wake-up workload: two timer threads, 1 ms period, 0.3 s.
periodic_wakeups() {
	cyclictest -q --laptop -t 2 -i 1000 -l 300 >/dev/null 2>&1
}

# Leave the system as found: the governor of the start, module unloaded
# if it was not loaded before.
selftest_setup() {
	ORIG_GOV=$(current_governor)
	ORIG_LOADED=0
	module_loaded && ORIG_LOADED=1
	trap selftest_restore EXIT
}

selftest_restore() {
	set_governor "$ORIG_GOV" || true
	if [ "$ORIG_LOADED" = 0 ] && module_loaded && [ "$ORIG_GOV" != budget ]; then
		rmmod "$MODULE" 2>/dev/null || true
	fi
}

# require_emulated [MODULE]: skip the whole test, saying why, unless the
# project's emulated platform is here: emul_idle's model in debugfs (and
# MODULE, when given, installed). A real machine has neither; make check
# loads emul_idle first (tests/guest/selftests.sh), and, in the guest that
# looks like a real machine, without its debugfs (real-machine.sh).
require_emulated() {
	if [ ! -d /sys/kernel/debug/emul_idle ] ||
	   { [ -n "${1:-}" ] && ! modprobe -n -q "$1"; }; then
		ktap_skip_all "needs the emulated platform (tests/emul: emul_idle's model${1:+ and $1}), cpuidle driver here: $(cat "$CPUIDLE/current_driver" 2>/dev/null)"
		exit "$KSFT_SKIP"
	fi
}

# require_packages N: skip the whole test, saying why, on a machine of
# fewer than N packages.
require_packages() {
	local n
	n=$(sort -u /sys/devices/system/cpu/cpu*/topology/physical_package_id 2>/dev/null | wc -l)
	if [ "$n" -lt "$1" ]; then
		ktap_skip_all "needs $1 packages, this machine has $n"
		exit "$KSFT_SKIP"
	fi
}

require_cpuidle_driver() {
	local drv
	drv=$(cat "$CPUIDLE/current_driver" 2>/dev/null)
	if [ -z "$drv" ] || [ "$drv" = none ]; then
		ktap_skip_all "no cpuidle driver: governors never run (load emul_idle)"
		exit "$KSFT_SKIP"
	fi
}
