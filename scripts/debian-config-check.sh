#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series under Debian's own amd64 kernel config (linux-config-6.12):
# build every object the series touches, and the governor through
# modpost, with W=1 and sparse (C=1), once with the governor as a module
# and once built in. A warning fails the check when it points at a line
# the series adds (git diff pristine..HEAD in build/linux); warnings on
# upstream's own lines in the same files are counted, not failed: they
# are there without the series too.
#
# Deviations from Debian's config, each for the build host, none touching
# the code the series builds: no debug info (a third of the compile
# time, no warnings of its own) and no Debian signing certificates (not
# shipped with the source).
#
# Output: TAP on stdout. Objects in build/kobj-debian (ccache'd).

. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"
set +e

OBJ=$BUILD/kobj-debian
LOGS=$RESULTS/debian-config
# The series' files, and the cpuidle governors and core that include the
# changed cpuidle.h.
OBJECTS=(drivers/cpuidle/{cpuidle,driver,governor,sysfs,poll_state}.o
	 drivers/cpuidle/governors/{ladder,menu,teo,haltpoll}.o
	 kernel/sched/{core,fair,build_policy,build_utility}.o kernel/time/tick-sched.o
	 arch/x86/kernel/{itmt,fake_hybrid}.o arch/x86/kernel/cpu/aperfmperf.o
	 drivers/cpufreq/intel_pstate.o)
mkdir -p "$OBJ" "$LOGS"

dmake() {
	KOBJ=$OBJ kmake W=1 C=1 "$@"
}

# configure BUDGET: Debian's config with the governor =BUDGET and the
# fake_hybrid= hook (its code is built only with it).
configure() {
	debian_config "$OBJ" "CONFIG_CPU_IDLE_GOV_BUDGET=$1" CONFIG_X86_FAKE_HYBRID=y
}

series_added_lines >"$LOGS/added-lines"

# check NAME SCOPE COMMAND...: run the build COMMAND, then fail on its
# warnings on the series' lines (SCOPE "series"), or on any (SCOPE "all":
# the governor's own build, every line of which is the series').
check() {
	local log=$LOGS/build-$1.log scope=$2
	shift 2
	"$@" >"$log" 2>&1
	local rc=$?
	source_warnings "$log" "$OBJ" >"$log.warnings"
	warnings_on_lines "$LOGS/added-lines" "$log.warnings" >"$log.ours"
	echo "# $(wc -l <"$log.warnings") warnings in the touched files, $(wc -l <"$log.ours") on the series' lines"
	sed 's/^/#   /' "$log.ours"
	[ $rc = 0 ] || { tail -20 "$log" | sed 's/^/#   /'; return 1; }
	[ ! -s "$log.ours" ] && { [ "$scope" = series ] || [ ! -s "$log.warnings" ]; }
}

t0=$(date +%s)
tap_begin
configure m; tap_result $? "Debian's config + CPU_IDLE_GOV_BUDGET=m + X86_FAKE_HYBRID resolves (olddefconfig)"
KOBJ=$OBJ kmake -s modules_prepare >"$LOGS/prepare.log" 2>&1
tap_result $? "make modules_prepare under Debian's config"
echo "# prepared in $(( $(date +%s) - t0 )) s"
# Built again every time: an up-to-date object prints no warnings.
rebuild() {
	(cd "$OBJ" && rm -f "${OBJECTS[@]}")
	dmake -k "${OBJECTS[@]}" "$@"
}
check objects-m series rebuild
tap_result $? "W=1 C=1, governor as a module: the objects the series touches, nothing on the series' lines"

# modpost needs the kernel's exports: Debian's own Module.symvers of this
# kernel version and config, with the CRCs the patched objects export
# (patch pm/0001's new exports among them) in place of Debian's.
symvers() {
	local stock
	stock=/usr/src/$(debian_headers)/Module.symvers
	[ -f "$stock" ] || { echo "no $stock"; return 1; }
	sed -n 's/^#SYMVER \([^ ]*\) \(0x[0-9a-f]*\)$/\2\t\1\tvmlinux\tEXPORT_SYMBOL_GPL\t/p' \
		"$OBJ/drivers/cpuidle/.governor.o.cmd" "$OBJ/kernel/time/.tick-sched.o.cmd" \
		>"$LOGS/patched.symvers"
	awk -F'\t' 'NR == FNR { ours[$2]; print; next } !($2 in ours)' \
		"$LOGS/patched.symvers" "$stock" >"$OBJ/Module.symvers"
}
symvers; tap_result $? "Module.symvers: Debian's, with the patched objects' exports"
# The module out of tree, as users build it, from a copy of the sources
# (the work tree's objects are the test kernel's).
module_build() {
	local copy
	copy=$(project_copy)
	KOBJ=$OBJ kmake W=1 C=1 M="$copy" CONFIG_CPU_IDLE_GOV_BUDGET=m modules
	local rc=$?
	[ $rc = 0 ] && modinfo -F vermagic "$copy/drivers/cpuidle/governors/budget/cpuidle_budget.ko"
	rm -rf "$copy"
	return $rc
}
check module all module_build
tap_result $? "W=1 C=1: cpuidle_budget.ko through modpost against those exports, no warnings"
echo "# module pass done at $(( $(date +%s) - t0 )) s"
configure y; tap_result $? "... and with CPU_IDLE_GOV_BUDGET=y"
check objects-y series rebuild drivers/cpuidle/governors/budget/
tap_result $? "W=1 C=1, governor built in: the touched objects, nothing on the series' lines"
echo "# took $(( $(date +%s) - t0 )) s"
tap_end
