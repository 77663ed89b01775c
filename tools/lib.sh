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
KOBJ=${KOBJ:-$BUILD/kobj$flavour}	# kernel objects (O=), survive tree resets
STAGE=${STAGE:-$BUILD/stage$flavour}	# INSTALL_MOD_PATH for the guest
RESULTS=${RESULTS:-$BUILD/results}
PATCHES=${PATCHES:-$TOP/patches}		# the series: PATCHES/series lists it
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
KERNEL_EXPECTED=6.12			# VERSION.PATCHLEVEL the series targets
JOBS=${JOBS:-$(nproc)}

# debian_headers: the package of Debian's own build tree of the stock
# kernel that linux-source-6.12 is the source of: an unpatched 6.12, for
# the tests that build the module against a kernel without patch 0001.
debian_headers() {
	local v
	v=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || return 1
	echo "linux-headers-${v%%-*}+deb12-amd64"
}
PROJECT_IDENT="cpuidle-budget maintainers"
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
# The faked hybrid part of the scheduler tests and bench: 2 P-cores and 4
# E-cores of capacity 605 (arch/x86/kernel/fake_hybrid.c says why 605).
FAKE_HYBRID="P:0-1:1024:64,E:2-5:605:32"

# The patches of the series, in "git am" order: PATCHES/series without its
# comments and blank lines.
series_patches() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series"
}

# kconfig_generate OBJDIR FRAGMENT...: tinyconfig in OBJDIR, the fragments
# merged over it, olddefconfig, then a check that every requested option
# survived (an unmet dependency silently drops one).
kconfig_generate() {
	local obj=$1
	shift
	mkdir -p "$obj"
	KOBJ=$obj kmake -s tinyconfig >/dev/null
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" >/dev/null
	KOBJ=$obj kmake -s olddefconfig >/dev/null
	KSRC=$KSRC "$TOP/tools/kernel-config-check.sh" "$obj/.config" "$@"
}

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo "== $*" >&2
}
