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
# with the governor's Module.symvers. A kernel without modular governors
# (patch pm/0001: the bench's baseline, make baseline) gets the emulated
# platform without them: no governor, no emul_budget.ko.
dirs=("$TOP" "$TOP/tests/emul")
extra=()
if ! grep -q '[[:space:]]cpuidle_register_governor[[:space:]]' "$KOBJ/Module.symvers"; then
	log "$KOBJ: no modular cpuidle governors; the emulated platform only"
	dirs=("$TOP/tests/emul")
	extra=(CB_NO_GOVERNOR=1)
fi
for dir in "${dirs[@]}"; do
	kmake -s M="$dir" "${BUDGET_KCONFIG[@]}" W=1 "${extra[@]}" modules
	kmake -s M="$dir" "${BUDGET_KCONFIG[@]}" "${extra[@]}" \
		INSTALL_MOD_PATH="$STAGE" INSTALL_MOD_DIR=extra modules_install
	extra=(KBUILD_EXTRA_SYMBOLS="$TOP/Module.symvers")
done
depmod -b "$STAGE" "$krel"
