#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make check's run of the selftests as a test machine runs
# them: through make selftests' runner (scripts/selftests-run.sh, the
# kernel's kselftest run_tests), on a guest that looks to them like a real
# machine of one package that is no hybrid: a cpuidle driver with Alder
# Lake-L's states on every CPU (emul_idle, all P-cores), but without the
# emulated platform's model in debugfs, and no fake_hybrid=. What needs
# the model, two packages or a hybrid CPU must skip, saying why; the rest
# must pass. One TAP file per suite in the results share (selftests/).

modprobe emul_idle debugfs=0 layout="$(nproc)p0e" ||
	{ echo "cannot load emul_idle" >&2; exit 1; }
[ ! -e /sys/kernel/debug/emul_idle ] ||
	{ echo "emul_idle's debugfs is there: not a real machine's view" >&2; exit 1; }
SELFTESTS_OUT=$RESULTS_DIR/selftests "$CB_TOP/scripts/selftests-run.sh"
# The results are in the TAP files; the runner's own status is not.
exit 0
