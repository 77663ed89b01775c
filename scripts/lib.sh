# SPDX-License-Identifier: GPL-2.0
# Shared settings for the project's shell tools. Sourced, not run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC=${KSRC:-$BUILD/linux}		# git tree: pristine commit + the series
# DEBUG=1 selects the debug flavour (tests/kconfig/debug.config), built in
# directories of its own so that switching flavours rebuilds nothing.
flavour=
if [ "${DEBUG:-0}" = 1 ]; then flavour=-debug; fi
# BASELINE=1 selects the bench's kernel without the series (make
# baseline, BASELINE_PATCHES below): objects and modules of its own.
baseline_sfx=
if [ "${BASELINE:-0}" = 1 ]; then baseline_sfx=-base; fi
KOBJ=${KOBJ:-$BUILD/kobj$baseline_sfx$flavour}	# kernel objects (O=), survive tree resets
# What QEMU boots: vmlinux through its PVH entry, which is quick (nothing
# to decompress). The debug flavour boots the bzImage through the normal
# 64-bit entry instead: with KASAN, the PVH entry runs instrumented code
# (a memcmp in the hypervisor signature check before the Xen/PVH setup)
# before KASAN's early shadow exists, and faults before the console is up.
KIMAGE_TARGET=vmlinux
[ -n "$flavour" ] && KIMAGE_TARGET=bzImage
KIMAGE=$KOBJ/vmlinux
[ -n "$flavour" ] && KIMAGE=$KOBJ/arch/x86/boot/bzImage
STAGE=${STAGE:-$BUILD/stage$baseline_sfx$flavour}	# INSTALL_MOD_PATH for the guest
RESULTS=${RESULTS:-$BUILD/results}
PATCHES=${PATCHES:-$TOP/patches}		# the series: PATCHES/series lists it
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# The selftests as a kernel selftests tree (scripts/selftests-stage.sh), and
# the suites in it that test something (tests/selftests/NAME).
KSELFTEST=${KSELFTEST:-$BUILD/kselftest/tools/testing/selftests}
SELFTEST_SUITES="cpuidle_budget cpuidle_budget_packages emul_platform sched_hybrid"
KERNEL_EXPECTED=6.12			# VERSION.PATCHLEVEL the series targets
JOBS=${JOBS:-$(nproc)}

# debian_headers: the package of Debian's own build tree of the stock
# kernel that linux-source-6.12 is the source of: an unpatched 6.12, for
# the tests that build the module against a kernel without patch pm/0001.
debian_headers() {
	local v
	v=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || return 1
	echo "linux-headers-${v%%-*}+deb12-amd64"
}
# Debian's own amd64 kernel config (package linux-config-6.12), the base
# of the distribution builds: scripts/debian-config-check.sh, scripts/make-deb.sh.
DEBIAN_CONFIG=${DEBIAN_CONFIG:-/usr/src/linux-config-6.12/config.amd64_none_amd64.xz}

# debian_config OBJDIR OPTION...: Debian's config in OBJDIR/.config with
# the OPTIONs ("CONFIG_FOO=m" lines) merged over it, then olddefconfig and
# the check that every one survived (kconfig_merge). Two deviations from
# Debian's config, both for any build outside Debian's own
# infrastructure, are merged and checked the same way: no trusted keys
# (Debian's certificates are not shipped with the source; its config has
# no revocation list) and no debug info (a third of the compile time; the
# packages would need -dbg splitting).
debian_config() {
	local obj=$1
	shift
	[ -f "$DEBIAN_CONFIG" ] || die "no $DEBIAN_CONFIG (apt-get install linux-config-$KERNEL_EXPECTED)"
	# Chained: callers test the result (debian_config ... || die), and
	# bash suspends set -e inside a function called that way.
	mkdir -p "$obj" &&
		xz -dc "$DEBIAN_CONFIG" >"$obj/.config" &&
		printf '%s\n' 'CONFIG_SYSTEM_TRUSTED_KEYS=""' CONFIG_DEBUG_INFO_NONE=y \
			CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=n CONFIG_DEBUG_INFO_DWARF5=n \
			CONFIG_DEBUG_INFO_BTF=n "$@" >"$obj/debian-options.config" &&
		kconfig_merge "$obj" "$obj/debian-options.config"
}
PROJECT_IDENT="cpuidle-budget maintainers"
# The length of the abbreviated hashes in the patches' "index" lines
# (scripts/gen-patches.sh, export-patches.sh): fixed, as git's automatic
# length follows the kernel tree's object count.
PATCH_ABBREV=9
PROJECT_EMAIL="maintainers@cpuidle-budget.invalid"

# Every kernel make call goes through here so that the compiler, the
# release string and the objects directory are always the same: a
# mismatch makes out-of-tree modules refuse to load.
kmake() {
	# Paths relative to build/ in ccache's hash: a clone elsewhere hits too.
	CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=true \
	make -C "$KSRC" O="$KOBJ" -j"$JOBS" CC="ccache gcc" LOCALVERSION= \
		KBUILD_BUILD_USER=cpuidle-budget KBUILD_BUILD_HOST=bench \
		KBUILD_BUILD_TIMESTAMP="2026-01-01" "$@"
}

# The project's Kconfig symbols for out-of-tree builds against the test
# kernel: the governor and its KUnit suite as modules.
BUDGET_KCONFIG=(CONFIG_CPU_IDLE_GOV_BUDGET=m CONFIG_CPU_IDLE_GOV_BUDGET_KUNIT_TEST=m)
# emul_topology NAME...: the EMUL_ADL_NAME values of tests/emul/emul_topology.h
# (EMUL_TOPOLOGY: another file, for the host test), the one description of
# the emulated part's cores, one a line in the order asked, the file read
# once; fails, naming it, where one is missing.
emul_topology() {
	local -A v
	local name value
	while read -r _ name value; do
		v[${name#EMUL_ADL_}]=$value
	done < <(grep '^#define[[:space:]]\+EMUL_ADL_' "${EMUL_TOPOLOGY:-$TOP/tests/emul/emul_topology.h}")
	for name in "$@"; do
		[[ "${v[$name]:-}" =~ ^[0-9]+$ ]] ||
			{ echo "no EMUL_ADL_$name in emul_topology.h" >&2; return 1; }
		echo "${v[$name]}"
	done
}

# fake_hybrid_topology: sets the faked hybrid part of the scheduler tests
# and bench from the emulated part's cores (emul_topology.h), as 6.12's
# intel_pstate would see them: P-cores at capacity 1024, E-cores at their
# HWP highest performance against the P-cores' (rounded; 605 for Alder
# Lake, arch/x86/kernel/fake_hybrid.c works it through).
#   FAKE_HYBRID            without SMT: "P:0-1:1024:64,E:2-5:605:32"
#   FAKE_HYBRID_SMT        the same cores with SMT, the shape of an Alder
#                          Lake U: P-cores of two threads (CPUs 0-3), and
#                          E-cores at CPUs 4, 6, 8 and 10; QEMU gives
#                          every core the same number of threads, so
#   FAKE_HYBRID_SMT_OFFLINE  the E-cores' second threads (5, 7, 9, 11) are
#                          taken offline before the guest script runs
#                          (tests/guest/init.sh)
#   FAKE_HYBRID_SMT_QEMU   QEMU's -smp for that shape
fake_hybrid_topology() {
	local p e pmhz emhz pkhz ekhz pprio eprio ecap i off= values
	values=$(emul_topology P_CORES E_CORES P_MHZ E_MHZ P_KHZ_PER_PERF E_KHZ_PER_PERF \
		P_PRIO E_PRIO) || return 1
	read -r -d '' p e pmhz emhz pkhz ekhz pprio eprio <<<"$values" || true
	# 1024 * (emhz / ekhz) / (pmhz / pkhz), to the nearest integer.
	ecap=$(( (2048 * emhz * pkhz / (pmhz * ekhz) + 1) / 2 ))
	FAKE_HYBRID="P:0-$((p - 1)):1024:$pprio,E:$p-$((p + e - 1)):$ecap:$eprio"
	FAKE_HYBRID_SMT="P:0-$((2 * p - 1)):1024:$pprio,E:$((2 * p))-$((2 * (p + e) - 1)):$ecap:$eprio"
	FAKE_HYBRID_SMT_QEMU="$((2 * (p + e))),sockets=1,cores=$((p + e)),threads=2"
	for ((i = 2 * p + 1; i < 2 * (p + e); i += 2)); do
		off+=${off:+,}$i
	done
	FAKE_HYBRID_SMT_OFFLINE=$off
}

# series_file FILE: FILE without its comments and blank lines.
series_file() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$1"
}

# series_patches [NAME]: the patches of series NAME (a directory of
# PATCHES with its own cover letter and "series" file) in "git am"
# order, as paths relative to PATCHES; NAME may also be DIR/FILE, a list
# in the series file's format of some of DIR's patches (test/baseline:
# those of the test hook that apply to pristine 6.12 alone). Without
# NAME, those of every series PATCHES/series names, in its order (what
# the test kernel carries).
series_patches() {
	local s list=$PATCHES/${1:-}/series dir=${1:-} what=series
	if [ -n "${1:-}" ]; then
		case $1 in */*) list=$PATCHES/$1 dir=${1%/*} what="patch list" ;; esac
		[ -f "$list" ] || die "no $what $list"
		series_file "$list" | sed "s|^|$dir/|"
		return
	fi
	for s in $(series_file "$PATCHES/series"); do
		series_patches "$s" || return
	done
}

# series_hash [NAME]: an id of what series_patches NAME applies and of
# the test kernel's configs: the patches (names and contents, in order)
# and tests/kconfig. Equal ids, equal trees and configs.
series_hash() {
	(echo "series ${1:-all}"
	 series_patches "${1:-}"
	 series_patches "${1:-}" | (cd "$PATCHES" && xargs cat)
	 cat "$TOP"/tests/kconfig/*.config) | sha256sum | cut -c1-16
}

# The bench's kernel without the series: pristine 6.12 and the test hook's
# patches that apply to it alone (a list for series_patches), built by
# "BASELINE=1 scripts/kernel-tree.sh --alone $BASELINE_PATCHES --build-last --tree"
# (make baseline), so that it fakes the same hybrid parts.
BASELINE_PATCHES=test/baseline

# The series (or patch lists) that apply to pristine 6.12 without the
# others, besides the full series: make check applies each of them alone
# (and builds the governor's series, pm, alone: BUILD_ALONE), make bisect
# builds each of them alone patch by patch.
ALONE_SERIES=${ALONE_SERIES:-pm $BASELINE_PATCHES}
BUILD_ALONE=${BUILD_ALONE:-pm}

# bisect_id: an id of everything make bisect builds (the full series and
# each of ALONE_SERIES, with the configs); make check compares it with
# the last make bisect's.
bisect_id() {
	local s
	(series_hash
	 for s in $ALONE_SERIES; do series_hash "$s"; done) | sha256sum | cut -c1-16
}
# bisect_note: one line on whether every patch was built in order for
# the patches as they are: make bisect's verdict when its state file is of
# this bisect_id, else that it did not run (make check prints it).
bisect_note() {
	local id verdict when took
	if read -r id verdict when took 2>/dev/null <"$BISECT_RESULTS/state" &&
	   [ "$id" = "$(bisect_id)" ]; then
		echo "make bisect $verdict for these patches ($when, $took; $BISECT_RESULTS)"
	else
		echo "make bisect not run for these patches: make check builds only the final trees"
	fi
}

# series_run TAP PLAN ARGS...: scripts/kernel-tree.sh ARGS, which writes
# its per-patch results to TAP (the one its arguments name); whatever
# failed, TAP says so, and it gets a plan of PLAN results at the top, so
# that a run that stopped early counts what it never wrote as failed.
# Fails if the run did. Needs scripts/tap.sh.
series_run() {
	local tap=$1 plan=$2 rc=0
	shift 2
	rm -f "$tap"
	"$TOP/scripts/kernel-tree.sh" "$@" || rc=1
	[ $rc = 0 ] || grep -q '^not ok' "$tap" 2>/dev/null ||
		tap_line $(($(grep -Ec '^(not )?ok' "$tap" 2>/dev/null) + 1)) 1 \
			"scripts/kernel-tree.sh $* prepares the tree" >>"$tap"
	tap_plan_first "$tap" "$plan"
	return $rc
}

# series_result [NAME]: the TAP file of scripts/kernel-tree.sh's results
# for series NAME alone ("/" as "-"), or for the full series without NAME.
series_result() {
	local name=${1:-}
	echo "$RESULTS/series${name:+-${name//\//-}}.tap"
}

# series_count [NAME]: how many patches series_patches NAME lists.
series_count() {
	series_patches "${1:-}" | grep -c .
}

# Where make bisect leaves its TAP, build logs and its verdict ("state").
BISECT_RESULTS=${BISECT_RESULTS:-$BUILD/bisect}

# kconfig_generate OBJDIR FRAGMENT...: tinyconfig in OBJDIR, the fragments
# merged over it (kconfig_merge; an unmet dependency silently drops an
# option, and the check names it).
kconfig_generate() {
	local obj=$1
	shift
	mkdir -p "$obj"
	KOBJ=$obj kmake -s tinyconfig >/dev/null
	kconfig_merge "$obj" "$@"
}

# kconfig_merge OBJDIR FRAGMENT...: the fragments merged over
# OBJDIR/.config, olddefconfig, then the check that every requested
# option survived. Each step only after the one before succeeded, also
# where a caller's "||" has switched set -e off.
kconfig_merge() {
	local obj=$1
	shift
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null &&
		KOBJ=$obj kmake -s olddefconfig >/dev/null &&
		KSRC=$KSRC "$TOP/scripts/kernel-config-check.sh" "$obj/.config" "$@"
}

# series_added_lines: "path:line" for every line the series adds to the
# kernel source (git diff pristine..HEAD in KSRC).
series_added_lines() {
	git -C "$KSRC" diff -U0 pristine HEAD | awk '
		/^\+\+\+ b\// { file = substr($2, 3) }
		/^@@/ { split($3, a, ","); start = substr(a[1], 2); n = (a[2] == "" ? 1 : a[2])
			for (i = 0; i < n; i++) print file ":" start + i }'
}

# source_warnings LOG OBJDIR: every compiler and sparse warning or error
# in the build log LOG, as "path:line[:col]: text" with the path relative
# to KSRC. Kbuild prints a path relative to the objects directory OBJDIR
# (O=, "../linux/kernel/sched/fair.c") or absolute; only that prefix goes,
# the path inside the source stays whole.
source_warnings() {
	local rel
	rel=$(realpath -m --relative-to="$2" "$KSRC")
	grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error):' "$1" |
		sed -E "s|^\./||; s|^$rel/||; s|^$KSRC/||" | sort -u
}

# warnings_on_lines ADDED WARNINGS: the WARNINGS (source_warnings) whose
# path:line is in ADDED (series_added_lines).
warnings_on_lines() {
	awk -F: 'NR == FNR { added[$1 ":" $2]; next } ($1 ":" $2) in added' "$1" "$2"
}

# module_build_for KDIR RELEASE: the README's "make KDIR=KDIR", from a
# copy of the project (project_copy), builds cpuidle_budget.ko for
# RELEASE (its vermagic); on failure, the build's last lines as comments.
module_build_for() {
	local copy rc
	copy=$(project_copy)
	make -s -C "$copy" KDIR="$1" >"$copy.log" 2>&1 &&
		modinfo -F vermagic "$copy/drivers/cpuidle/governors/budget/cpuidle_budget.ko" |
		grep -q "^$2 "
	rc=$?
	[ $rc = 0 ] || tail -20 "$copy.log" | sed 's/^/# /'
	rm -rf "$copy" "$copy.log"
	return $rc
}

# project_copy: a new directory holding the project's tracked files, as a
# user's checkout has them (the work tree's objects belong to the test
# kernel); prints its path. The caller removes it.
project_copy() {
	local copy
	copy=$(mktemp -d)
	git -C "$TOP" ls-files -z | (cd "$TOP" && xargs -0 cp --parents -t "$copy")
	echo "$copy"
}

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo "== $*" >&2
}

# Last, once die() is defined.
fake_hybrid_topology || die "tests/emul/emul_topology.h does not describe the emulated part"
