#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the test kernel from build/linux into build/kobj:
# tinyconfig, then tests/kconfig/test-kernel.config (plus debug.config with
# DEBUG=1) merged over it, then a check that every requested option
# survived olddefconfig. Builds vmlinux (QEMU boots it via PVH; the debug
# flavour also a bzImage, see KIMAGE in lib.sh), modules,
# and what out-of-tree modules need (Module.symvers), then installs the
# kernel's modules into build/stage for the guest.
#
# Regenerating .config every time is cheap and deterministic; Kbuild only
# rebuilds what a changed option really touches.

. "$(dirname "$0")/lib.sh"

fragments=("$TOP/tests/kconfig/test-kernel.config")
[ "${DEBUG:-0}" = 1 ] && fragments+=("$TOP/tests/kconfig/debug.config")

kconfig_generate "$KOBJ" "${fragments[@]}"

start=$(date +%s)
kmake "$KIMAGE_TARGET" modules
log "kernel built in $(( $(date +%s) - start )) s"

rm -rf "$STAGE"
kmake -s INSTALL_MOD_PATH="$STAGE" modules_install >/dev/null
