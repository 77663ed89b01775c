#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/host/vm-runner.sh: behave as the first argument says.
# The splats are written to /dev/kmsg, which puts them in the kernel log
# (console and dmesg) exactly where the kernel's own would be: a real
# BUG, Oops or KASAN report would cost the guest, or a test module.
case "$1" in
ok)	echo "probe output on the results share"
	grep -q 9p /proc/mounts && touch "$RESULTS_DIR/probe-wrote-here" ;;
warn)	echo "WARNING: CPU: 0 PID: 1 at probe.c:1 injected by vm-runner test" >/dev/kmsg ;;
bug)	echo "BUG: sleeping function called from invalid context at probe.c:2 (injected by vm-runner test)" >/dev/kmsg ;;
oops)	echo "Oops: 0000 [#1] PREEMPT SMP NOPTI (injected by vm-runner test)" >/dev/kmsg ;;
calltrace)
	echo " Call Trace: (injected by vm-runner test)" >/dev/kmsg ;;
kasan)	echo "KASAN: null-ptr-deref in range [0x0-0x7] (injected by vm-runner test)" >/dev/kmsg ;;
hang)	sleep 100000 ;;
fail)	exit 3 ;;
esac
