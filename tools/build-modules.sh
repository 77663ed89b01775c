#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the project's out-of-tree modules against the test kernel in
# build/kobj (the governor from the top-level Kbuild, the guest-only
# emulation driver from tests/emul) and install them into build/stage,
# where the guest's modprobe finds them by name.

. "$(dirname "$0")/lib.sh"

[ -f "$KOBJ/Module.symvers" ] || die "no test kernel in $KOBJ (make kernel)"
krel=$(cat "$KOBJ/include/config/kernel.release")

# tests/emul's emul_budget.ko uses the governor's exports: built second,
# with the governor's Module.symvers.
extra=()
for dir in "$TOP" "$TOP/tests/emul"; do
	kmake -s M="$dir" "${BUDGET_KCONFIG[@]}" W=1 "${extra[@]}" modules
	kmake -s M="$dir" "${BUDGET_KCONFIG[@]}" \
		INSTALL_MOD_PATH="$STAGE" INSTALL_MOD_DIR=extra modules_install
	extra=(KBUILD_EXTRA_SYMBOLS="$TOP/Module.symvers")
done
depmod -b "$STAGE" "$krel"
