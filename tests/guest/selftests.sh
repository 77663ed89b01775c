#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make check": load the emulated idle driver, then run every
# selftest of one suite, each into its own TAP file in the results share.
#
#   selftests.sh [SUITE [real-types]]
#
# SUITE is a directory of tests/selftests, run from the tree
# scripts/selftests-stage.sh staged ($CB_SELFTESTS): cpuidle_budget (the default)
# also runs the KUnit suites and the kernel's own cpu-hotplug selftest
# (with budget current); cpuidle_budget_packages runs on a guest with two
# packages (-smp 4,sockets=2); emul_platform runs under -icount with 6 CPUs;
# sched_hybrid boots with fake_hybrid= (6 CPUs, -icount), runs the
# x86_fake_hybrid KUnit suite and leaves idle to the kernel's default
# (no emulated idle driver, whose power model would slow busy CPUs).
# Exit status is non-zero only when the bench itself is broken; test
# failures are in the TAP files.

SUITE=${1:-cpuidle_budget}
TESTS=$CB_SELFTESTS/$SUITE
KSRC=$CB_TOP/build/linux
[ -d "$TESTS" ] || { echo "no suite $SUITE" >&2; exit 1; }

# The governor's own tests (both suites) want one idle state table that is
# true for every CPU: all P-cores. The platform's tests use its hybrid default.
layout=
case $SUITE in
cpuidle_budget*) layout="layout=$(nproc)p0e" ;;
esac
if [ "$SUITE" != sched_hybrid ]; then
	modprobe emul_idle $layout || { echo "cannot load emul_idle" >&2; exit 1; }
	drv=$(cat /sys/devices/system/cpu/cpuidle/current_driver)
	[ "$drv" = emul_idle ] ||
		{ echo "cpuidle driver is '$drv', not emul_idle" >&2; exit 1; }
fi

# run_kunit MODULE FILE: a KUnit suite module; its KTAP (in the kernel
# log) into FILE of the results share.
run_kunit() {
	local lines
	lines=$(dmesg | wc -l)
	if modprobe "$1"; then
		dmesg --notime | tail -n +$((lines + 1)) | sed -n '/^KTAP version/,$p' \
			>"$RESULTS_DIR/$2"
		rmmod "$1"
	fi
}

if [ "$SUITE" = cpuidle_budget ]; then
	run_kunit cpuidle_budget_kunit kunit.ktap
	rmmod cpuidle_budget 2>/dev/null
	run_kunit emul_model_kunit kunit-emul.ktap
	run_kunit cpuidle_governor_kunit kunit-cpuidle-core.ktap
fi
if [ "$SUITE" = sched_hybrid ]; then
	run_kunit fake_hybrid_kunit kunit-hybrid.ktap
	# Built into the scheduler (CONFIG_SCHED_ASYM_PACK_KUNIT_TEST): it
	# ran at boot; its KTAP is the first suite of the boot log, from its
	# header to its result, without the lines other drivers logged
	# meanwhile.
	dmesg --notime | awk '/^KTAP version/ { on = 1 }
		on && /^([ \t]|KTAP|1\.\.|# |ok |not ok )/ { print }
		on && /^(not )?ok [0-9]+ sched_asym_pack$/ { exit }' \
		>"$RESULTS_DIR/kunit-sched.ktap"
fi

for t in "$TESTS"/*.sh; do
	name=$(basename "$t" .sh)
	[ "$name" = lib ] && continue
	echo "# selftest $name"
	"$t" >"$RESULTS_DIR/$name.tap" 2>&1
	echo "# selftest $name: exit $?"
done

# sched_hybrid real-types: placement.sh once more as on a real hybrid CPU:
# the hook's table hidden (HYBRID), the core types read from cpu_core/cpus
# and cpu_atom/cpus as such a CPU has them (CPU_TYPES_DIR, made here from
# the table), into placement-real.tap.
if [ "$SUITE" = sched_hybrid ] && [ "${2:-}" = real-types ]; then
	# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
	. "$CB_SELFTESTS/cpuidle_budget_lib/debugfs.sh"
	types=${TMPDIR:-/tmp}/cpu-types
	mkdir -p "$types/cpu_core" "$types/cpu_atom"
	table_cols /sys/kernel/debug/x86/fake_hybrid cpu type |
		awk '$2 == "P" { p = p s1 $1; s1 = "," } $2 == "E" { e = e s2 $1; s2 = "," }
		     END { print p > "'"$types"'/cpu_core/cpus"; print e > "'"$types"'/cpu_atom/cpus" }'
	echo "# selftest placement (real core types: P $(cat "$types/cpu_core/cpus"), E $(cat "$types/cpu_atom/cpus"))"
	HYBRID=/nonexistent CPU_TYPES_DIR=$types "$TESTS/placement.sh" \
		>"$RESULTS_DIR/placement-real.tap" 2>&1
	echo "# selftest placement (real core types): exit $?"
fi

[ "$SUITE" = cpuidle_budget ] || exit 0

# The kernel's CPU hotplug selftest, with budget as the current governor.
# It skips (exit 4) only when not root, without sysfs or with one CPU:
# none of which is true of this guest, so a skip here is a failure.
modprobe cpuidle_budget
printf budget >/sys/devices/system/cpu/cpuidle/current_governor
# shellcheck source=scripts/tap.sh
. "$CB_TOP/scripts/tap.sh"
tap_begin "$RESULTS_DIR/cpu-hotplug.tap"
out=$("$KSRC/tools/testing/selftests/cpu-hotplug/cpu-on-off-test.sh" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /' | tap_out
gov=$(cat /sys/devices/system/cpu/cpuidle/current_governor)
if [ $rc = 4 ]; then
	tap_result 1 "cpu-hotplug/cpu-on-off-test.sh skipped (exit 4) in a guest that has CPU hotplug"
else
	[ $rc = 0 ] && [ "$gov" = budget ]
	tap_result $? "cpu-hotplug/cpu-on-off-test.sh passes with budget current (exit $rc, governor $gov)"
fi
tap_end
printf menu >/sys/devices/system/cpu/cpuidle/current_governor
rmmod cpuidle_budget
exit 0
