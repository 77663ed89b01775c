#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [--plots] [PACKAGE...]
#
# Install what building and testing need, from Debian's archive. Quiet and
# quick when everything is already there. Only what a target needs: the
# build, the tests and the guests' tools (the guests share the host's
# root file system, so fio, rt-app and the rest run from here) for every
# target; --plots adds matplotlib, which only the bench's and the demo's
# plots use (make bench, ab, demo, sensitivity). Extra package names on
# the command line are installed too (scripts/make-deb.sh's packaging
# tools).

. "$(dirname "$0")/lib.sh"

packages=(linux-source-6.12 qemu-system-x86 build-essential bc bison flex
	  libelf-dev libssl-dev ccache rt-tests stress-ng fio rt-app linux-cpupower kmod cpio xz-utils
	  python3 python3-ply python3-git python3-docutils git procps util-linux
	  sparse linux-config-6.12)
if [ "${1:-}" = --plots ]; then
	packages+=(python3-matplotlib)
	shift
fi
packages+=("$@")

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"
}

# After linux-source-6.12, whose version names Debian's unpatched headers.
if installed linux-source-6.12; then
	packages+=(dkms "$(debian_headers)")
fi

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}); run as root or install them"
start=$(date +%s)
log "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
# A fresh machine had no linux-source-6.12 to name the headers by: again.
if ! installed "$(debian_headers)"; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		dkms "$(debian_headers)" >/dev/null
fi
log "packages installed in $(( $(date +%s) - start )) s"
