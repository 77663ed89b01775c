# SPDX-License-Identifier: GPL-2.0
#
# The KTAP helpers of every selftest here: the kernel's own
# (tools/testing/selftests/kselftest/ktap_helpers.sh, next to this
# directory in a kernel tree's selftests, or in the one scripts/
# selftests-stage.sh makes; KSELFTEST_DIR names another), with
# ktap_test_result replaced, and the checks every assertion makes of its
# inputs first. Sourced, not run.

KSELFTEST_DIR=${KSELFTEST_DIR:-$(dirname "${BASH_SOURCE[0]}")/../kselftest}
# shellcheck source=/dev/null
. "$KSELFTEST_DIR/ktap_helpers.sh"

# ktap_test_result DESCRIPTION COMMAND...: one result, from COMMAND's exit
# status. The kernel's runs "if $@", unquoted: an empty argument vanishes,
# so [ "$a" = "$b" ] with both empty becomes [ = ] and [ "$a" -gt "$b" ]
# becomes [ -gt ], both true, and a test passes on no data at all. This
# one runs COMMAND exactly as given.
ktap_test_result() {
	local description=$1
	shift
	if "$@"; then
		ktap_test_pass "$description"
	else
		ktap_test_fail "$description"
	fi
}

# is_count VALUE...: every VALUE is a whole number (a counter that was
# read), else says which is not and fails: the first check of an
# assertion, so that it never compares a missing or garbled value.
is_count() {
	local v
	for v in "$@"; do
		if ! [[ $v =~ ^[0-9]+$ ]]; then
			ktap_print_msg "no data: '$v' is not a count"
			return 1
		fi
	done
}

# is_number VALUE...: every VALUE is a decimal number (such as 97.25).
is_number() {
	local v
	for v in "$@"; do
		if ! [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
			ktap_print_msg "no data: '$v' is not a number"
			return 1
		fi
	done
}

# KASAN_KERNEL is 1 on a KASAN kernel (make check DEBUG=1, which adds
# lockdep too). Such a kernel runs several times the instructions per
# interrupt, timer, idle entry and system call, and under -icount every
# instruction of one vCPU is time taken from the others: measured there,
# the package C-state of an all-idle guest fell from over 50% to 17%, and
# the placement harness's own processes took 19 s of CPU in a 20 s
# trace. Cases that assert what a load does (the model's physics, task
# placement under load) have a production kernel's cost as their premise.
KASAN_KERNEL=0
zgrep -qx 'CONFIG_KASAN=y' /proc/config.gz 2>/dev/null && KASAN_KERNEL=1

# ktap_load_case_fail DESCRIPTION: a failed case of that kind: skipped,
# saying why, on a KASAN kernel (its figures are printed before); failed
# on any other.
ktap_load_case_fail() {
	if [ "$KASAN_KERNEL" = 1 ]; then
		ktap_test_skip "$1 (KASAN kernel: its instrumented kernel work breaks the load's premise)"
	else
		ktap_test_fail "$1"
	fi
}
