#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The emulated block device of the io-qd1 bench (tests/emul/emul_blk.c):
# bad parameters are refused and leave no device; fio at queue depth 1
# runs on it; every request waits at least the shortest service time;
# completions come from the interrupt CPU, so a task on another CPU is
# woken remotely (and one on the interrupt CPU is not); the module
# unloads and its device goes. Runs in make check's platform guest.

DIR=$(dirname "$0")
. "$DIR/../cpuidle_budget/lib.sh"

DEV=/dev/emulblk0
STATS=/sys/kernel/debug/emul_blk/stats
cd "${TMPDIR:-/tmp}" || exit 1

ktap_print_header
require_emulated emul_blk
ktap_set_plan 5
command -v fio >/dev/null || ktap_exit_fail_msg "fio is not installed (scripts/install-deps.sh)"
module_loaded emul_blk && ktap_exit_fail_msg "emul_blk is already loaded"
trap 'rmmod emul_blk 2>/dev/null' EXIT

stat_of() {
	awk -v k="$1" '$1 == k { print $2 }' $STATS
}

# Each refused load must fail and leave no module and no device behind.
refused() {
	local args
	for args in "irq_cpu=$(nproc)" "irq_cpu=-1" "lat_min_us=0" \
		"lat_min_us=300 lat_max_us=200" "lat_max_us=100001" "size_mb=0"; do
		# shellcheck disable=SC2086 # one word per parameter
		if modprobe emul_blk $args 2>/dev/null; then
			ktap_print_msg "accepted: $args"
			return 1
		fi
		if module_loaded emul_blk || [ -e $DEV ]; then
			ktap_print_msg "left behind by: $args"
			return 1
		fi
	done
}
ktap_test_result "bad parameters are refused, no module or device left" refused

# qd1 CPU: fio at queue depth 1 on CPU for 2 s (4 KiB random reads,
# O_DIRECT); "ios min_clat_us remote requests" from its JSON and the
# device's statistics (remote and requests counted over the run), or
# nothing if fio failed or did no I/O.
qd1() {
	local r0 q0 out
	r0=$(stat_of remote_completions) q0=$(stat_of requests)
	out=$(taskset -c "$1" fio --name=qd1 --filename=$DEV --ioengine=psync --iodepth=1 \
		--rw=randread --bs=4k --direct=1 --time_based --runtime=2 --randseed=1 \
		--output-format=json) || { ktap_print_msg "fio failed"; return 1; }
	echo "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["jobs"][0]["read"]
if r["total_ios"] > 0:
    print(r["total_ios"], r["clat_ns"]["min"] // 1000)' | {
		read -r ios min || return 1
		echo "$ios $min $(($(stat_of remote_completions) - r0)) $(($(stat_of requests) - q0))"
	}
}

modprobe emul_blk irq_cpu=0 lat_min_us=200 lat_max_us=400 seed=7 ||
	ktap_exit_fail_msg "cannot load emul_blk"
[ -b $DEV ] || ktap_exit_fail_msg "no $DEV"
read -r ios min remote requests < <(qd1 1)
ktap_print_msg "fio on CPU 1: $ios I/Os, shortest completion $min us; device: $requests requests, $remote completed remotely"

# fio's count and the device's may differ by the one request in flight at
# either end of the run.
ran() {
	is_count "$ios" && is_count "$requests" && [ "$ios" -gt 0 ] &&
		[ "$requests" -ge "$ios" ] && [ "$requests" -le $((ios + 2)) ]
}
ktap_test_result "fio at queue depth 1 runs on the device, every request counted" ran

not_early() {
	is_count "$min" && [ "$min" -ge 200 ]
}
ktap_test_result "no request completes before the shortest service time (200 us)" not_early

all_remote() {
	is_count "$remote" "$requests" && [ "$requests" -gt 0 ] && [ "$remote" = "$requests" ]
}
ktap_test_result "a task off the interrupt CPU: every completion is remote" all_remote

read -r ios min remote requests < <(qd1 0)
ktap_print_msg "fio on CPU 0: $ios I/Os, $requests requests, $remote completed remotely"
unloads() {
	is_count "$remote" "$requests" && [ "$requests" -gt 0 ] && [ "$remote" = 0 ] &&
		rmmod emul_blk && [ ! -e $DEV ]
}
ktap_test_result "a task on the interrupt CPU: none remote; the module unloads, the device goes" \
	unloads

ktap_finished
