#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests-stage.sh: the project's selftests as a kernel selftests tree,
# $KSELFTEST (build/kselftest/tools/testing/selftests), ready to run on the
# running kernel (scripts/selftests-run.sh, make selftests), in the guest
# (tests/guest/selftests.sh) or to be copied into a kernel tree's
# tools/testing/selftests.
#
# The tree gets the kernel's lib.mk, kselftest/ (the runner and the KTAP
# helpers) and the kselftest headers lib.mk's rules name, from build/linux, or, on a machine without it, from Debian's
# linux-source-6.12 tarball; every directory of tests/selftests (the suites
# of SELFTEST_SUITES and cpuidle_budget_lib, the helpers they share); and,
# for sched_hybrid, tools/sched-placement and its tracelib.py. Then each
# suite's programs are built there by its lib.mk Makefile (wakeups,
# dutycycle: -Wall -Wextra -Werror).

. "$(dirname "$0")/lib.sh"

[ $# = 0 ] || die "usage: $0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -rf "$KSELFTEST"
mkdir -p "$KSELFTEST"
kself=$KSRC/tools/testing/selftests
if [ ! -f "$kself/lib.mk" ]; then
	[ -r "$KERNEL_TARBALL" ] ||
		die "no $kself and no $KERNEL_TARBALL: install Debian's linux-source-$KERNEL_EXPECTED (make deps)"
	log "taking lib.mk and kselftest/ from $KERNEL_TARBALL"
	tar -xf "$KERNEL_TARBALL" -C "$tmp" --wildcards \
		'*/tools/testing/selftests/lib.mk' '*/tools/testing/selftests/kselftest*' ||
		die "no kselftest infrastructure in $KERNEL_TARBALL"
	kself=$(dirname "$(find "$tmp" -path '*/tools/testing/selftests/lib.mk' | head -1)")
fi
cp -a "$kself/lib.mk" "$kself/kselftest" "$kself/kselftest.h" "$kself/kselftest_harness.h" \
	"$KSELFTEST/"
for d in "$TOP"/tests/selftests/*/; do
	cp -a "$d" "$KSELFTEST/"
done
cp -a "$TOP/tools/sched-placement" "$TOP/tools/tracelib.py" "$KSELFTEST/sched_hybrid/"
# OUTPUT given: lib.mk sets it (to the suite's directory) only at the
# top make level, and make helpers runs this from a make.
for s in $SELFTEST_SUITES cpuidle_budget_lib; do
	make -s -C "$KSELFTEST/$s" OUTPUT="$KSELFTEST/$s" || die "the $s selftests do not build"
done
log "selftests staged in $KSELFTEST"
