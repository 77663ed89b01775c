#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make deb": Debian binary packages of the patched kernel, for test
# machines. The series applied to 6.12 (build/linux's HEAD, checked out
# in a git worktree of its own, build/linux-deb, so that make check
# resetting build/linux does not pull the sources from under an
# hours-long build; unchanged files keep their times) configured with
# Debian's own amd64 config (scripts/lib.sh debian_config: no debug info,
# no Debian certificates), the governor as a module, and a local version
# suffix so the kernel installs next to Debian's own:
#
#   LOCALVERSION_SUFFIX   kernel release suffix (default -budget), giving
#                         e.g. 6.12.118-budget
#   KDEB_PKGVERSION       package version (default <kernel version>-1+budget)
#
# then the kernel's own "make bindeb-pkg". Writes to build/deb/: the
# linux-image, linux-headers and linux-libc-dev packages, build.log and
# build-info (kernel release, wall and CPU time, ccache). Objects in
# build/kobj-deb. The compiler cache is one of its own (CCACHE_DEB_DIR,
# default ~/.cache/cpuidle-budget-deb, 20 GB): a full distribution build
# would evict the test kernel's objects from the shared one, and outside
# the work tree it survives a fresh clone, so a build stopped half-way
# resumes from it.
#
# The packages are then checked as a test machine would use them
# (tests/host/deb-packages.sh, TAP in build/deb/packages.tap): the
# release, the signed governor module, the config against Debian's, and
# the module built out of tree and by DKMS against the headers package.
#
# Not run by make check: a full Debian-config build takes hours on
# 2 cores (README says how long it took here).

. "$(dirname "$0")/lib.sh"

OBJ=$BUILD/kobj-deb
OUT=$BUILD/deb
SUFFIX=${LOCALVERSION_SUFFIX:--budget}
# The suffix ends up in package names: lower case, digits, '.', '+', '-'.
[[ $SUFFIX =~ ^-[a-z0-9][a-z0-9.+-]*$ ]] ||
	die "LOCALVERSION_SUFFIX=$SUFFIX: must be '-' then lower-case letters, digits, '.', '+' or '-' (it becomes part of the package names)"

# dpkg-buildpackage and the dh_* tools that the kernel's debian/rules calls.
"$TOP/scripts/install-deps.sh" dpkg-dev debhelper rsync
"$TOP/scripts/kernel-tree.sh"
series_head=$(git -C "$KSRC" rev-parse HEAD)
# A worktree left from an earlier build/linux (unpacked anew since) is
# no longer one: checked out again from scratch.
if ! git -C "$BUILD/linux-deb" checkout -q --detach "$series_head" 2>/dev/null; then
	rm -rf "$BUILD/linux-deb"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$BUILD/linux-deb" "$series_head"
fi
KSRC=$BUILD/linux-deb

debian_config "$OBJ" CONFIG_CPU_IDLE_GOV_BUDGET=m \
	"CONFIG_LOCALVERSION=\"$SUFFIX\"" CONFIG_LOCALVERSION_AUTO=n ||
	die "Debian's config with the series' options does not resolve"
release=$(KOBJ=$OBJ kmake -s kernelrelease)
version=$(KOBJ=$OBJ kmake -s kernelversion)
pkgversion=${KDEB_PKGVERSION:-$version-1+budget}

rm -rf "$OUT"
mkdir -p "$OUT"
log "building the Debian packages of $release ($pkgversion) in $OBJ; log: $OUT/build.log"
export CCACHE_DIR=${CCACHE_DEB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cpuidle-budget-deb}
mkdir -p "$CCACHE_DIR"
ccache -M 20G >/dev/null
ccache -z >/dev/null
start=$(date +%s)
# bindeb-pkg writes the packages next to the objects directory.
rm -f "$BUILD"/*.deb "$BUILD"/*.buildinfo "$BUILD"/*.changes
TIMEFORMAT='%R s wall, %U s user, %S s system'
{ time KOBJ=$OBJ kmake KDEB_PKGVERSION="$pkgversion" bindeb-pkg >"$OUT/build.log" 2>&1; } \
	2>"$OUT/time" || { tail -30 "$OUT/build.log" >&2; die "bindeb-pkg failed (see $OUT/build.log)"; }
mv "$BUILD"/*.deb "$BUILD"/*.buildinfo "$BUILD"/*.changes "$OUT/"

{
	echo "kernel release: $release"
	echo "package version: $pkgversion"
	echo "config: $DEBIAN_CONFIG, CPU_IDLE_GOV_BUDGET=m, LOCALVERSION=$SUFFIX, no debug info"
	echo "built on: $(nproc) CPUs, $(date -u -d "@$start" '+%F %T UTC')"
	echo "time: $(cat "$OUT/time")"
	ccache -s | grep -E 'Hits|Misses' | sed 's/^ */ccache: /'
	(cd "$OUT" && ls -l ./*.deb)
} >"$OUT/build-info"
cat "$OUT/build-info"
# KSRC is the worktree: the same series as build/linux, for diffconfig.
KSRC=$KSRC "$TOP/tests/host/deb-packages.sh" "$OUT" | tee "$OUT/packages.tap"
[ "${PIPESTATUS[0]}" = 0 ] || die "the packages failed their checks ($OUT/packages.tap)"
