#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest selftests' helpers on the host, fed no data: they must fail
# where the kernel's KTAP helpers pass.
#
#  - tests/selftests/ktap.sh: ktap_test_result on a comparison of two
#    empty values fails (the kernel's passes it: "if $@" drops the empty
#    arguments, and [ -gt ] is true); is_count and is_number refuse what
#    is no number.
#
# Needs build/linux (the kernel's ktap_helpers.sh): make check runs it
# after the series step.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch
export CB_TOP=$TOP KSRC

# ktap_of SCRIPT...: the KTAP result lines a shell prints running SCRIPT
# (bash code) with tests/selftests/ktap.sh sourced, or the kernel's
# helpers alone when KERNEL=1.
ktap_of() {
	local helpers=$TOP/tests/selftests/ktap.sh
	[ "${KERNEL:-0}" = 1 ] && helpers=$KSRC/tools/testing/selftests/kselftest/ktap_helpers.sh
	bash -c ". '$helpers'; $1" 2>/dev/null | grep -E '^(not )?ok'
}

# The empty values pressure.sh compared when its counters were not read.
empty_gt='a= b=; ktap_test_result "deeper1 > deeper0" [ "$a" -gt "$b" ]'
kernel_passes_empty() {
	[ "$(KERNEL=1 ktap_of "$empty_gt")" = "ok 1 deeper1 > deeper0" ]
}
ok "the kernel's ktap_test_result passes [ \"\" -gt \"\" ] (the defect)" kernel_passes_empty
ours_fails_empty() {
	[ "$(ktap_of "$empty_gt")" = "not ok 1 deeper1 > deeper0" ]
}
ok "tests/selftests/ktap.sh's ktap_test_result fails it" ours_fails_empty

counts() {
	[ "$(ktap_of 'ktap_test_result c is_count 0 12 4294967295
		ktap_test_result e is_count "" 3
		ktap_test_result m is_count -1
		ktap_test_result w is_count "1 2"
		ktap_test_result n is_number 97.25 0.0 3
		ktap_test_result x is_number 1e-06')" = "$(printf '%s\n' "ok 1 c" "not ok 2 e" \
		"not ok 3 m" "not ok 4 w" "ok 5 n" "not ok 6 x")" ]
}
ok "is_count and is_number take numbers only: not empty, negative, two words, 1e-06" counts

done_testing
