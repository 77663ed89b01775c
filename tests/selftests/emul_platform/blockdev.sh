#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The emulated block device of the io-qd1 bench (tests/emul/emul_blk.c):
# bad parameters are refused and leave no device; fio at queue depth 1
# runs on it; every request waits at least the shortest service time;
# writing the seed restarts the sequence of service times (the bench's
# seed per round);
# completions come from the interrupt CPU, so a task on another CPU is
# woken remotely (and one on the interrupt CPU is not); a CPU whose task
# waits on I/O is idle to the power model and to the governor's sampler
# (iowait is idle time), and is latency evidence to budget (its
# tracepoint); the module unloads and its device goes. Runs in make
# check's platform guest.

DIR=$(dirname "$0")
. "$DIR/../cpuidle_budget/lib.sh"

DEV=/dev/emulblk0
STATS=/sys/kernel/debug/emul_blk/stats
cd "${TMPDIR:-/tmp}" || exit 1

ktap_print_header
require_emulated emul_blk
ktap_set_plan 9
command -v fio >/dev/null || ktap_exit_fail_msg "fio is not installed (scripts/install-deps.sh)"
module_loaded emul_blk && ktap_exit_fail_msg "emul_blk is already loaded"
MODEL=/sys/module/emul_idle/parameters/power_model
CPUS=/sys/kernel/debug/emul_idle/cpus
PKGS=/sys/kernel/debug/cpuidle_budget/packages
TRACE=/sys/kernel/tracing
SELECT_EVENT=$TRACE/events/cpuidle_budget/cpuidle_budget_select
ORIG_MODEL=$(cat $MODEL)
# The governor and its module as found (lib.sh), the device gone, the
# model as it was.
selftest_setup
trap 'echo 0 >"$SELECT_EVENT/enable" 2>/dev/null; echo 0 >"$SELECT_EVENT/filter" 2>/dev/null
	rmmod emul_blk 2>/dev/null; echo "$ORIG_MODEL" >$MODEL; selftest_restore' EXIT

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

# seeded SEED: after writing SEED, the sum of the service
# times drawn for 40 direct 4 KiB reads (one request each), in ns.
seeded() {
	local s0
	echo "$1" >/sys/module/emul_blk/parameters/seed || return 1
	s0=$(stat_of service_ns)
	dd if=$DEV of=/dev/null bs=4k count=40 iflag=direct status=none || return 1
	echo $(($(stat_of service_ns) - s0))
}
first=$(seeded 11) again=$(seeded 11) other=$(seeded 12)
ktap_print_msg "service times of 40 reads: seed 11: $first ns, seed 11 again: $again ns, seed 12: $other ns"
reseeds() {
	is_count "$first" "$again" "$other" && [ "$first" -gt 0 ] &&
		[ "$first" = "$again" ] && [ "$first" != "$other" ]
}
ktap_test_result "writing the seed restarts the service times: the same seed draws the same, another seed not" \
	reseeds

read -r ios min remote requests < <(qd1 0)
ktap_print_msg "fio on CPU 0: $ios I/Os, $requests requests, $remote completed remotely"
unloads() {
	is_count "$remote" "$requests" && [ "$requests" -gt 0 ] && [ "$remote" = 0 ] &&
		rmmod emul_blk && [ ! -e $DEV ]
}
ktap_test_result "a task on the interrupt CPU: none remote; the module unloads, the device goes" \
	unloads

# iowait is idle: fio at queue depth 1 on CPU 1 against a slow device
# (5 ms a request, every completion from CPU 0) spends most of the run
# waiting on it, in iowait, not running: its own work per request is
# about 2 ms of CPU under -icount (measured: 1073 ms busy for 478
# requests in a 2969 ms window), well under the 6 ms a request takes
# here. The model's busy time of CPU 1
# and the busy CPUs of the governor's samples must say idle; counting
# iowait as busy, they said CPU 1 was busy the whole run, and io-qd1
# drew a busy CPU's power for it.
modprobe emul_blk irq_cpu=0 lat_min_us=5000 lat_max_us=5000 seed=7 ||
	ktap_exit_fail_msg "cannot load emul_blk with 5 ms requests"
echo Y >$MODEL || ktap_exit_fail_msg "cannot start the power model"
modprobe "$MODULE" && set_governor budget ||
	ktap_exit_fail_msg "cannot make budget the governor"
# fio takes seconds to start here: the window opens once it runs.
taskset -c 1 fio --name=iowait --filename=$DEV --ioengine=psync --iodepth=1 --rw=randread \
	--bs=4k --direct=1 --time_based --runtime=8 --randseed=1 >/dev/null 2>&1 &
fio_pid=$!
sleep 4
busy0=$(table_col $CPUS busy_ms 1)
r0=$(stat_of requests)
t0=$(date +%s%N)
samples=
# Budget's selections on CPU 1 in the window, for the latency evidence.
echo >$TRACE/trace
echo "cpu == 1" >"$SELECT_EVENT/filter"
echo 1 >"$SELECT_EVENT/enable"
for _ in 1 2 3 4 5 6; do
	sleep 0.3
	samples+="$(table_col $PKGS busy_cpus 0) "
done
echo 0 >"$SELECT_EVENT/enable"
echo 0 >"$SELECT_EVENT/filter"
busy1=$(table_col $CPUS busy_ms 1)
read -r sel ev < <(grep 'cpuidle_budget_select:' $TRACE/trace | awk '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	  n++; if (v["evidence"] == 1) e++ } END { print n + 0, e + 0 }')
done_in_window=$(($(stat_of requests) - r0))
elapsed=$((($(date +%s%N) - t0) / 1000000))
wait $fio_pid
ktap_print_msg "fio on CPU 1, 5 ms requests: $done_in_window requests in $elapsed ms; the model counts CPU 1 busy $((busy1 - busy0)) ms; the governor's samples count busy CPUs: $samples"
# fio was waiting on the device in the window: it completed requests.
model_idle() {
	is_count "$busy0" "$busy1" "$done_in_window" && [ "$done_in_window" -gt 0 ] &&
		[ $((2 * (busy1 - busy0))) -lt "$elapsed" ]
}
ktap_test_result "iowait is idle to the model: CPU 1 waiting on fio's I/O is busy under half the run" \
	model_idle
# Most samples count no busy CPU: the one in iowait is not.
sampler_idle() {
	local n zero
	read -r n zero < <(echo "$samples" | tr ' ' '\n' |
		awk 'NF { n++; if ($1 == 0) z++ } END { print n + 0, z + 0 }')
	[ "$n" = 6 ] && [ $((2 * zero)) -ge "$n" ]
}
ktap_test_result "iowait is idle to the governor's sampler: most samples count no busy CPU" \
	sampler_idle
# fio's CPU waits on I/O: latency evidence (policy.c) in most of its
# selections; the first sample of the window may still miss it.
ktap_print_msg "CPU 1: $ev of $sel selections with latency evidence"
iowait_evidence() {
	is_count "$sel" "$ev" && [ "$sel" -gt 0 ] && [ $((2 * ev)) -gt "$sel" ]
}
ktap_test_result "a CPU whose task waits on I/O has latency evidence in most selections" \
	iowait_evidence

ktap_finished
