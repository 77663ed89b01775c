#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of one "make check" boot with a malformed fake_hybrid= (see
# scripts/check.sh): the kernel must say what is wrong and boot as if the
# parameter were absent. TAP into $RESULTS_DIR/fake-hybrid-refused.tap.

KSRC=$CB_TOP/build/linux
# shellcheck source=/dev/null
. "$KSRC/tools/testing/selftests/kselftest/ktap_helpers.sh"

{
	ktap_print_header
	ktap_set_plan 3
	arg=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^fake_hybrid=//p')
	msg=$(dmesg | grep 'fake_hybrid:')
	ktap_print_msg "fake_hybrid=$arg: $msg"
	named=0
	grep -q "refused: group 2: CPU 9 does not exist (last is $(($(nproc) - 1)))" <<<"$msg" &&
		named=1
	ktap_test_result "the kernel names the problem (CPU 9 does not exist)" test $named = 1
	ktap_test_result "no capacities, no ITMT: no debugfs file, no knob" \
		test ! -e /sys/kernel/debug/x86/fake_hybrid -a \
		! -e /proc/sys/kernel/sched_itmt_efficiency_first
	echo Y >/sys/kernel/debug/sched/verbose
	flags=$(cat /sys/kernel/debug/sched/domains/cpu0/domain*/flags 2>/dev/null)
	ktap_print_msg "cpu0 domain flags: $flags"
	no_asym=0
	[ -n "$flags" ] && ! grep -q SD_ASYM <<<"$flags" && no_asym=1
	ktap_test_result "the domains have no SD_ASYM_* flag" test $no_asym = 1
	ktap_print_totals
} >"$RESULTS_DIR/fake-hybrid-refused.tap" 2>&1
exit 0
