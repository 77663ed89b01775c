# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# rt-app helpers shared by the benches (bench/ab.sh in the guest, and
# bench/sched.sh). Sourced, not run.

# rtapp_ns_per_loop: rt-app's calibration (ns per loop of its work) on
# CPU0, printed as "pLoad = Nns"; rt-app's output is kept in
# calibrate.out in the current directory. Fails, saying why on standard
# error, when rt-app printed no positive whole number. Under QEMU a loop
# takes about 100 times what rt-app's usual fixed figures assume: with
# "calibration": 100, a "runtime" event works in 32 us chunks of 320
# loops, each of them several milliseconds long, and a 10 ms event ran
# 12.5 ms at the median and up to 56 ms. Calibrated, the chunks are as
# long as rt-app means.
rtapp_ns_per_loop() {
	local ns
	printf '%s' '{"global": {"duration": 1, "calibration": "CPU0",
		"logdir": ".", "lock_pages": false},
		"tasks": {"cal": {"loop": 1, "run": 1000}}}' >calibrate.json
	rt-app calibrate.json >calibrate.out 2>&1
	ns=$(sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p' calibrate.out | head -n 1)
	if ! [[ $ns =~ ^[1-9][0-9]*$ ]]; then
		echo "rt-app's calibration gave no ns per loop: $(tail -n 3 calibrate.out)" >&2
		return 1
	fi
	echo "$ns"
}
