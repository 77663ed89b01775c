#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check": everything, from a fresh clone. Each step writes TAP into
# build/results; scripts/tap-summary.py counts it all and prints the closing
# "N passed, N failed" line. A step that cannot run is a failure, never a
# silent skip: tap-summary fails a suite that skipped whole or ran
# nothing, and lists every skipped test.
#
#  host-tap-summary.tap  scripts/tap-summary.py on hand-made TAP and KTAP
#                        files: what did not run never passes (seconds)
#  host-kernel-tree.tap  scripts/kernel-tree.sh on a fake tree (seconds)
#  host-bisect.tap       make bisect on a scratch tree that compiles: a
#                        patch that breaks the build fails it (seconds)
#  host-series-warnings.tap  the warning filter of the Debian config check
#                        on a hand-made tree and log (seconds)
#  host-analysers.tap    tools/cpuidle-analyze and tools/sched-placement on
#                        hand-made traces (seconds)
#  series-pm.tap         the cpuidle series alone applies to pristine 6.12,
#                        and that kernel builds
#  series-test-baseline.tap  the test hook's first two patches apply
#                        alone (the bench's kernel without the series)
#  series.tap            the full series (sched, then pm, then the test
#                        hook) applies to pristine 6.12 and the kernel
#                        builds: the test kernel. Every patch built in
#                        order (bisectable) is make bisect's
#                        (scripts/bisect.sh); a comment line here, and
#                        one before the summary, say whether it ran for
#                        these patches
#  host-selftest-helpers.tap  the guest selftests' helpers fail on no data
#                        (needs build/linux's KTAP helpers; seconds)
#  static.tap            checkpatch --strict on patches/ and the project's
#                        kernel sources, kernel-doc and the rst files
#                        (scripts/doc-check.py), modules with W=1 and sparse, the
#                        README's "make KDIR=" build, the debug config
#  debian-config.tap     the series under Debian's own amd64 config:
#                        the touched objects and the governor through
#                        modpost, W=1 and sparse (scripts/debian-config-check.sh)
#  host-fake-hybrid.tap  fake_hybrid= from the emulated part's description
#                        (tests/emul/emul_topology.h) (seconds)
#  host-vm-log.tap       the kernel-log check of scripts/vm-run.sh on
#                        hand-made logs: every kind of splat (seconds)
#  host-vm-runner.tap    scripts/vm-run.sh catches splats, hangs, failures
#  host-distro.tap       DKMS against the test kernel, the clear stop on
#                        an unpatched kernel (tests/host/distro.sh)
#  vm-selftests/*.tap    the selftests, in a guest booted from the kernel
#  vm-real/selftests/*.tap  the same suites through make selftests' runner,
#                        on a guest that looks like a test machine

. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"

start=$(date +%s)
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
tap_files=()

elapsed() {
	echo "$(( $(date +%s) - start )) s"
}

# host_test NAME: run tests/host/NAME.sh into host-NAME.tap.
host_test() {
	local f=$RESULTS/host-$1.tap
	"$TOP/tests/host/$1.sh" >"$f" 2>&1 || true
	tap_files+=("$f")
	log "host test $1 done ($(elapsed))"
}

host_test tap-summary
host_test kernel-tree
host_test bisect
host_test analysers
host_test ab-report
host_test series-warnings
host_test global-symbols
host_test vm-log
host_test fake-hybrid

# The series: each applies alone and together on pristine 6.12, and the
# final trees build (pm alone, and the full series, which is the test
# kernel). Not every patch: that is make bisect's (scripts/bisect.sh),
# seventeen kernel builds, most of an hour and a half on a cold cache.
# The scheduler series comes first in patches/series, so the full run
# applies it to pristine 6.12 as it would be alone (series.tap's comments
# say where each series starts), then pm on top of it, then the test hook
# (not for merge).
for s in $ALONE_SERIES; do
	t=$(series_result "$s")
	if [[ " $BUILD_ALONE " == *" $s "* ]]; then
		series_run "$t" $(($(series_count "$s") + 1)) --alone "$s" --build-last || true
	else
		series_run "$t" "$(series_count "$s")" --alone "$s" || true
	fi
	tap_files+=("$t")
done
# The full series; this also builds the test kernel. Its last line is
# this run's build (kernel-tree.sh builds it every time).
if ! series_run "$(series_result)" $(($(series_count) + 1)) --build-last; then
	# The kernel of an earlier run must not stand in for the one that
	# failed to build: without a kernel image every guest run below fails.
	rm -f "$KOBJ/vmlinux" "$KIMAGE"
fi
tap_files+=("$(series_result)")
echo "# $(bisect_note)" >>"$(series_result)"
log "series done ($(elapsed))"
host_test selftest-helpers

# Static checks, and the out-of-tree modules the guest needs.
static=$RESULTS/static.tap
tap_files+=("$static")
tap_begin "$static"
no_output() {
	local out
	out=$("$@" 2>&1)
	echo "$out"
	[ -z "$out" ]
}
no_warnings() {
	local out
	out=$("$@" 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	! echo "$out" | grep -Eq 'warning:|error:'
}
# checkpatch runs scripts/spdxcheck.py on new files with "python3" from
# PATH: Debian's, which has the ply and git modules installed by deps.
export PATH=/usr/bin:$PATH
# checkpatch asks whether MAINTAINERS needs updating for every new file,
# whether or not an entry covers it already (kernel/sched/ does); the
# question is answered by the check after the loop instead.
for p in $(series_patches); do
	tap_check "checkpatch --strict: patches/$p" \
		no_output "$KSRC/scripts/checkpatch.pl" --strict -q \
		--ignore FILE_PATH_CHANGES "$PATCHES/$p"
done
# every_new_file_maintained: each file the series adds has a maintainer
# in the patched tree's MAINTAINERS (a named person, not only a list).
every_new_file_maintained() {
	local f m rc=0
	# A new file's "+++" line follows "--- /dev/null".
	for f in $(cd "$PATCHES" && series_patches |
		   xargs grep -h -A1 '^--- /dev/null' | sed -n 's|^+++ b/||p' | sort -u); do
		m=$(cd "$KSRC" && ./scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats --no-l --no-r -f "$f" 2>/dev/null)
		[ -n "$m" ] || { echo "# no maintainer for $f"; rc=1; }
	done
	return $rc
}
tap_check "every file the series adds has a maintainer in MAINTAINERS" \
	every_new_file_maintained
tap_check "patches generated from the overlay match it (scripts/gen-patches.sh --check)" \
	"$TOP/scripts/gen-patches.sh" --check
# A file on its own cannot show that its __setup() is documented: the
# patch adding it does, and the patch check above sees that.
for f in $(cd "$TOP" && git ls-files 'arch/*.[ch]' 'drivers/*.[ch]' 'kernel/*.[ch]' 'tests/*.[ch]'); do
	tap_check "checkpatch --strict: $f" \
		no_output "$KSRC/scripts/checkpatch.pl" --strict -q --no-tree \
		--ignore UNDOCUMENTED_SETUP -f "$TOP/$f"
done
# kernel-doc: every comment that claims its format (/**) is well formed,
# and the rst files find the DOC: blocks they pull in, as valid reST.
kernel_doc_clean() {
	local f
	for f in $(cd "$TOP" && git ls-files 'arch/*.[ch]' 'drivers/*.[ch]' 'include/*.h' 'kernel/*.[ch]'); do
		"$KSRC/scripts/kernel-doc" -none -Wall "$TOP/$f" 2>&1 | grep -v '^Warning: Sphinx'
	done
}
tap_check "kernel-doc -Wall reports nothing on the project's kernel sources" \
	no_output kernel_doc_clean
mapfile -t rst_files < <(cd "$TOP" && git ls-files 'Documentation/*.rst')
tap_check "the rst files' kernel-doc blocks exist and are valid reST (scripts/doc-check.py)" \
	"$TOP/scripts/doc-check.py" "$KSRC" "$TOP" "${rst_files[@]}"
# Kbuild compiles only what changed, so on a rerun with unchanged sources
# no compiler ran and no warning could show: every W=1 check below first
# removes the objects it checks. ccache replays a cached compile's
# warnings, so this costs seconds.
# Not "make M=$TOP clean": Kbuild's clean deletes every object and .ko
# below M, and build/ (the kernel's objects, the guest's staged modules)
# is below $TOP. Each module directory is cleaned on its own.
modules_rebuilt() {
	kmake -s M="$TOP/drivers/cpuidle/governors/budget" "${BUDGET_KCONFIG[@]}" clean &&
		kmake -s M="$TOP/tests/emul" clean &&
		"$TOP/scripts/build-modules.sh"
}
# rebuilt_w1 OBJECT...: the in-tree OBJECTs compiled now, with W=1 (and
# the rest of the arguments of kmake).
rebuilt_w1() {
	local o
	for o in "$@"; do
		case $o in *.o) rm -f "$KOBJ/$o" ;; esac
	done
	kmake -s W=1 "$@"
}
# Every object of the governor (not the .mod.o modpost makes), just built.
governor_symbols() {
	local objs=()
	mapfile -t objs < <(find "$TOP/drivers/cpuidle/governors/budget" -name '*.o' ! -name '*.mod.o')
	[ ${#objs[@]} -ge 5 ] || { echo "only ${#objs[@]} objects built"; return 1; }
	"$TOP/scripts/global-symbols.sh" "${objs[@]}"
}
tap_check "out-of-tree modules build with W=1 (all compiled now), no warnings" \
	no_warnings modules_rebuilt
tap_check "the governor's objects define no global symbol without the cpuidle_budget_ prefix" \
	governor_symbols
tap_check "the selftests staged as a kselftest tree, their programs built by lib.mk with -Wall -Werror (make helpers)" \
	no_warnings make -s -C "$TOP" helpers
tap_check "sparse (C=2) reports nothing on the governor" \
	no_warnings kmake -s M="$TOP" "${BUDGET_KCONFIG[@]}" C=2 modules
# The scheduler patches: W=1 on every object they touch; sparse too on the
# x86 ones (fair.c and topology.c have sparse warnings of their own
# upstream, none on the lines the series adds).
tap_check "W=1 and sparse report nothing on fake_hybrid.c, its KUnit test and itmt.c" \
	no_warnings rebuilt_w1 C=1 arch/x86/kernel/fake_hybrid.o \
	arch/x86/kernel/fake_hybrid_kunit.o arch/x86/kernel/itmt.o
tap_check "W=1 reports nothing on kernel/sched/fair.c and topology.c" \
	no_warnings rebuilt_w1 kernel/sched/fair.o kernel/sched/build_utility.o
tap_check "make KDIR=<test kernel> builds cpuidle_budget.ko for it (README)" \
	module_build_for "$KOBJ" "$(cat "$KOBJ/include/config/kernel.release")"
debug_config() {
	local obj
	obj=$(mktemp -d)
	kconfig_generate "$obj" "$TOP/tests/kconfig/test-kernel.config" \
		"$TOP/tests/kconfig/debug.config"
	local rc=$?
	rm -rf "$obj"
	return $rc
}
tap_check "the debug flavour's config (lockdep, KASAN) resolves as written" debug_config
tap_end || true
log "static checks done ($(elapsed))"

# The series under Debian's own config: what a distribution builds.
tap_files+=("$RESULTS/debian-config.tap")
"$TOP/scripts/debian-config-check.sh" >"$RESULTS/debian-config.tap" \
	2>"$RESULTS/debian-config.stderr" || true
log "Debian config check done ($(elapsed))"

host_test vm-runner
# DKMS against the test kernel, and the build against an unpatched one.
host_test distro

# kunit_ran FILE SUITE...: kunit.py parse finds no failure in FILE (KTAP
# from the guest) and every SUITE ran there and passed: kunit.py exits 0
# when a suite is missing altogether, and when a suite ends "not ok" over
# passing cases. A missing FILE becomes one failed suite, so that
# tap-summary counts it.
kunit_ran() {
	local f=$1
	shift
	[ -s "$f" ] || printf 'KTAP version 1\n1..1\nnot ok 1 %s: the KUnit module ran in the guest\n' \
		"${f##*/}" >"$f"
	python3 "$KSRC/tools/testing/kunit/kunit.py" parse "$f" &&
		python3 "$TOP/scripts/tap-summary.py" --suites "$f" "$@"
}

# The guest selftests: the governor's (MTTCG, 4 CPUs; then on two packages),
# then the emulated platform's (-icount, 6 CPUs: its throughput comparisons
# need virtual time).
vm=$RESULTS/vm.tap
tap_files+=("$vm")
tap_begin "$vm"
tap_check "guest selftest run: booted, finished, kernel log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name selftests --timeout 1200 \
	"$TOP/tests/guest/selftests.sh"
# The suites each KUnit module must have run (kunit_test_suite() in
# drivers/cpuidle/governors/budget/tests/*_kunit.c,
# tests/emul/emul_model_kunit.c, arch/x86/kernel/fake_hybrid_kunit.c).
f=$RESULTS/vm-selftests/kunit.ktap
tap_check "KUnit: cpuidle_budget_policy and cpuidle_budget_signals ran, no failure (kunit.py parse)" \
	kunit_ran "$f" cpuidle_budget_policy cpuidle_budget_signals
tap_files+=("$f")
f=$RESULTS/vm-selftests/kunit-emul.ktap
tap_check "KUnit: emul_model ran, no failure (kunit.py parse)" \
	kunit_ran "$f" emul_model
tap_files+=("$f")
# drivers/cpuidle/governor_kunit.c (patch pm/0001).
f=$RESULTS/vm-selftests/kunit-cpuidle-core.ktap
tap_check "KUnit: cpuidle_governor and cpuidle_reflect ran, no failure (kunit.py parse)" \
	kunit_ran "$f" cpuidle_governor cpuidle_reflect
tap_files+=("$f")
# Two packages (-smp 4,sockets=2): the sampler per package, through CPU
# hotplug, with every cross-package MSR read under the atomic-sleep checks.
tap_check "two-package selftest run (4 CPUs, 2 sockets): booted, finished, log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name packages --smp 4,sockets=2 --timeout 600 \
	"$TOP/tests/guest/selftests.sh" cpuidle_budget_packages
tap_check "emulated platform selftest run (-icount, 6 CPUs): booted, finished, log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name platform --smp 6 --icount 4 --timeout 900 \
	"$TOP/tests/guest/selftests.sh" emul_platform
tap_check "scheduler selftest run on a faked 2P+4E part (-icount, 6 CPUs): booted, finished, log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name sched --smp 6 --icount 4 --timeout 1200 \
	--hybrid "$TOP/tests/guest/selftests.sh" sched_hybrid real-types
f=$RESULTS/vm-sched/kunit-hybrid.ktap
tap_check "KUnit: x86_fake_hybrid ran, no failure (kunit.py parse)" \
	kunit_ran "$f" x86_fake_hybrid
tap_files+=("$f")
f=$RESULTS/vm-sched/kunit-sched.ktap
tap_check "KUnit: sched_asym_pack (built in, at boot) ran, no failure (kunit.py parse)" \
	kunit_ran "$f" sched_asym_pack
tap_files+=("$f")
tap_check "a malformed fake_hybrid= boots as if absent (guest finished, log clean)" \
	"$TOP/scripts/vm-run.sh" --quiet --name hybrid-refused --smp 4 --timeout 300 \
	--append "fake_hybrid=P:0-1:1024:64,E:2-9:605:32" "$TOP/tests/guest/fake-hybrid-refused.sh"
# placement.sh again with the core types read as on a real hybrid CPU.
f=$RESULTS/vm-sched/placement-real.tap
tap_absent "$f" "placement.sh ran with real core types (cpu_core, cpu_atom)"
tap_files+=("$f")
f=$RESULTS/vm-hybrid-refused/fake-hybrid-refused.tap
tap_absent "$f" "fake-hybrid-refused.sh ran in the guest"
tap_files+=("$f")
# The same placement tests on the other shape of hybrid part: SMT P-cores,
# where intel_pstate keeps ITMT and the knob brings the capacities.
tap_check "scheduler selftest run on a faked part with SMT P-cores (-icount, 12 CPUs, 4 offline): booted, finished, log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name sched-smt --icount 4 --timeout 900 \
	--hybrid-smt "$TOP/tests/guest/selftests.sh" sched_hybrid
# The selftests as a test machine runs them (make selftests' runner), on a
# guest that looks like one: a cpuidle driver but no emulated model in
# debugfs, one package, no fake_hybrid=. Pass or skip, never fail.
tap_check "selftests as on a test machine (scripts/selftests-run.sh; no emulated model, one package, no hybrid): booted, finished, log clean" \
	"$TOP/scripts/vm-run.sh" --quiet --name real --smp 4 --timeout 900 \
	"$TOP/tests/guest/real-machine.sh"
tap_end || true
for s in $SELFTEST_SUITES; do
	f=$RESULTS/vm-real/selftests/$s.tap
	tap_absent "$f" "the $s suite ran in the guest that looks like a test machine"
	tap_files+=("$f")
done
# A selftest that left no TAP behind (the guest died first) is a failure.
for t in "$TOP"/tests/selftests/cpuidle_budget/*.sh cpu-hotplug \
	 "$TOP"/tests/selftests/cpuidle_budget_packages/*.sh \
	 "$TOP"/tests/selftests/emul_platform/*.sh \
	 "$TOP"/tests/selftests/sched_hybrid/*.sh; do
	name=$(basename "$t" .sh)
	[ "$name" = lib ] && continue
	vmdir=vm-selftests
	[[ "$t" == */cpuidle_budget_packages/* ]] && vmdir=vm-packages
	[[ "$t" == */emul_platform/* ]] && vmdir=vm-platform
	[[ "$t" == */sched_hybrid/* ]] && vmdir=vm-sched
	f=$RESULTS/$vmdir/$name.tap
	tap_absent "$f" "$name ran in the guest"
	tap_files+=("$f")
	[[ "$t" == */sched_hybrid/* ]] || continue
	f=$RESULTS/vm-sched-smt/$name.tap
	tap_absent "$f" "$name ran in the SMT guest"
	tap_files+=("$f")
done
log "guest done ($(elapsed))"

for t in "${tap_files[@]}"; do
	echo "# ---- ${t#"$TOP"/}"
	cat "$t"
done
echo "# make check took $(elapsed)"
echo "# $(bisect_note) (make bisect: every patch built in order)"
python3 "$TOP/scripts/tap-summary.py" "${tap_files[@]}"
