#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests-run.sh [SUITE...]: the staged selftests (scripts/selftests-
# stage.sh; make selftests does both) on the running kernel, as root. Each
# suite (all of SELFTEST_SUITES by default) runs through its lib.mk's
# run_tests, the kernel's kselftest runner: KTAP, one result per test
# program, "# SKIP" where a program skipped (exit 4), with the program's
# own KTAP as comments. Each suite's output goes to stdout and to
# OUT/SUITE.tap (OUT: SELFTESTS_OUT, else build/results/selftests); last,
# the summary of scripts/tap-summary.py. Exit status 1 when a test
# failed. A test that needs the emulated platform, two packages or a
# hybrid CPU skips, saying so, where that is missing.

. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "the selftests load modules and write sysfs: run as root"
[ -f "$KSELFTEST/lib.mk" ] || die "no selftests tree in $KSELFTEST (scripts/selftests-stage.sh)"
suites=("$@")
[ ${#suites[@]} -gt 0 ] || read -ra suites <<<"$SELFTEST_SUITES"
out=${SELFTESTS_OUT:-$RESULTS/selftests}
mkdir -p "$out"
files=()
for s in "${suites[@]}"; do
	[ -f "$KSELFTEST/$s/Makefile" ] || die "no suite $s in $KSELFTEST"
	# Not "make -s": the runner's own lines are what is wanted.
	# OUTPUT given, as in selftests-stage.sh (make selftests is a make).
	make --no-print-directory -C "$KSELFTEST/$s" OUTPUT="$KSELFTEST/$s" run_tests 2>&1 |
		tee "$out/$s.tap" || true
	files+=("$out/$s.tap")
done
python3 "$TOP/scripts/tap-summary.py" "${files[@]}"
