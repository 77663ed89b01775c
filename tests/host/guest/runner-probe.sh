#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/host/vm-runner.sh: behave as the first argument says.
case "$1" in
ok)	echo "probe output on the results share"
	grep -q 9p /proc/mounts && touch "$RESULTS_DIR/probe-wrote-here" ;;
warn)	echo "WARNING: CPU: 0 PID: 1 at probe.c:1 injected by vm-runner test" >/dev/kmsg ;;
hang)	sleep 100000 ;;
fail)	exit 3 ;;
esac
