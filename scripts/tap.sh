# SPDX-License-Identifier: GPL-2.0
#
# The one TAP writer of the project's shell producers: make check
# (check.sh), the kernel tree's per-patch builds (kernel-tree.sh), the
# Debian config check, the host tests and the guest's runner. Sourced,
# not run. tap-summary.py reads what they write (TAP 13; a plan at the
# end is as good as one at the start).
#
# A stream goes to stdout, or to the file tap_begin names; results are
# numbered in the order they come, and tap_end writes the plan. Safe
# under "set -e" (scripts/lib.sh sets it): a failing command is a result,
# not the end of the script.

TAP_FILE=
TAP_N=0
TAP_FAILED=0

# tap_begin [FILE]: a new stream into FILE (emptied), else on stdout.
tap_begin() {
	TAP_FILE=${1:-}
	TAP_N=0
	TAP_FAILED=0
	[ -z "$TAP_FILE" ] || : >"$TAP_FILE"
}

# tap_out: standard input to the stream. Not through /dev/stdout: opened
# anew with O_APPEND it would write past what the caller's own descriptor
# writes next, when that is a file.
tap_out() {
	if [ -n "$TAP_FILE" ]; then cat >>"$TAP_FILE"; else cat; fi
}

# tap_line N STATUS DESCRIPTION: result N, "ok" when STATUS is 0, as a
# line of its own, outside the count (kernel-tree.sh numbers its results
# by the patch's place in the series).
tap_line() {
	if [ "$2" = 0 ]; then
		echo "ok $1 - $3"
	else
		echo "not ok $1 - $3"
	fi
}

# tap_result STATUS DESCRIPTION: the next result of the stream.
tap_result() {
	TAP_N=$((TAP_N + 1))
	[ "$1" = 0 ] || TAP_FAILED=1
	tap_line "$TAP_N" "$1" "$2" | tap_out
}

# tap_comment TEXT...: a comment line.
tap_comment() {
	echo "# $*" | tap_out
}

# tap_test DESCRIPTION COMMAND...: the next result, from COMMAND's exit
# status; COMMAND's output goes where it goes (host tests write their own
# comments).
tap_test() {
	local desc=$1 rc=0
	shift
	"$@" || rc=$?
	tap_result $rc "$desc"
}

# tap_check DESCRIPTION COMMAND...: the next result, from COMMAND's exit
# status; COMMAND's output (its last 40 lines) becomes comments when it
# fails, and is dropped when it passes.
tap_check() {
	local desc=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	[ $rc = 0 ] || echo "$out" | tail -40 | sed 's/^/# /' | tap_out
	tap_result $rc "$desc"
}

# tap_end: the plan; fails when a result did.
tap_end() {
	echo "1..$TAP_N" | tap_out
	return $TAP_FAILED
}

# tap_plan_first FILE N: a plan of N results at the top of FILE, for a
# producer that may stop early: the results it never wrote count as
# failures.
tap_plan_first() {
	sed -i "1i 1..$2" "$1"
}

# tap_absent FILE DESCRIPTION: unless FILE has results, it becomes one
# failed result, DESCRIPTION (a guest that died before writing its TAP).
tap_absent() {
	[ -s "$1" ] || printf '1..1\nnot ok 1 - %s\n' "$2" >"$1"
}
