#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing need, from Debian's archive. Quiet and
# quick when everything is already there.

. "$(dirname "$0")/lib.sh"

packages=(linux-source-6.12 qemu-system-x86 build-essential bc bison flex
	  libelf-dev libssl-dev ccache rt-tests stress-ng kmod cpio xz-utils
	  python3 python3-ply python3-git python3-matplotlib git procps util-linux
	  sparse)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}); run as root or install them"
log "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
