# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers of the host tests. Sourced, not run.

n=0 failed=0

# ok DESCRIPTION COMMAND...: one TAP result, from COMMAND's exit status.
ok() {
	n=$((n + 1))
	if "${@:2}"; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}

# done_testing: the plan (at the end, as TAP allows), and the exit status.
done_testing() {
	echo "1..$n"
	exit $failed
}
