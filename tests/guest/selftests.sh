#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of "make check": load the emulated idle driver, then run every
# selftest in tests/selftests/cpuidle_budget and the kernel's own
# cpu-hotplug selftest (with budget current), each into its own TAP file in
# the results share. Exit status is non-zero only when the bench itself is
# broken; test failures are in the TAP files.

TESTS=$CB_TOP/tests/selftests/cpuidle_budget
KSRC=$CB_TOP/build/linux

modprobe emul_idle || { echo "cannot load emul_idle" >&2; exit 1; }
drv=$(cat /sys/devices/system/cpu/cpuidle/current_driver)
[ "$drv" = emul_idle ] || { echo "cpuidle driver is '$drv', not emul_idle" >&2; exit 1; }

# The KUnit suites, as a module: their KTAP goes to the kernel log.
lines=$(dmesg | wc -l)
if modprobe cpuidle_budget_kunit; then
	dmesg --notime | tail -n +$((lines + 1)) | sed -n '/^KTAP version/,$p' \
		>"$RESULTS_DIR/kunit.ktap"
	rmmod cpuidle_budget_kunit
fi
rmmod cpuidle_budget 2>/dev/null

for t in "$TESTS"/*.sh; do
	name=$(basename "$t" .sh)
	[ "$name" = lib ] && continue
	echo "# selftest $name"
	"$t" >"$RESULTS_DIR/$name.tap" 2>&1
	echo "# selftest $name: exit $?"
done

# The kernel's CPU hotplug selftest, with budget as the current governor.
modprobe cpuidle_budget
printf budget >/sys/devices/system/cpu/cpuidle/current_governor
{
	echo "TAP version 13"
	echo "1..1"
	out=$("$KSRC/tools/testing/selftests/cpu-hotplug/cpu-on-off-test.sh" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	gov=$(cat /sys/devices/system/cpu/cpuidle/current_governor)
	if [ $rc = 0 ] && [ "$gov" = budget ]; then
		echo "ok 1 cpu-hotplug/cpu-on-off-test.sh passes with budget current"
	elif [ $rc = 4 ]; then
		echo "ok 1 cpu-hotplug/cpu-on-off-test.sh # SKIP"
	else
		echo "not ok 1 cpu-hotplug/cpu-on-off-test.sh passes with budget current (exit $rc, governor $gov)"
	fi
} >"$RESULTS_DIR/cpu-hotplug.tap"
printf menu >/sys/devices/system/cpu/cpuidle/current_governor
rmmod cpuidle_budget
exit 0
