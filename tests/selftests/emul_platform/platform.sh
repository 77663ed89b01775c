#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The emulated power-constrained platform (tests/emul, emul_idle with
# power_model=1), run under -icount with 6 CPUs (2 P-cores busy, 4 E-cores
# idle): the model's parameters refuse bad values; under a power limit,
# deeper idle on the idle E-cores gives the busy P-cores a higher
# frequency and more measured throughput; far from the limit it changes
# nothing but through the turbo ratio limits; the budget governor
# reads the model through its signal source interface.

DIR=$(dirname "$0")
. "$DIR/../cpuidle_budget/lib.sh"

P=/sys/module/emul_idle/parameters
PLATFORM=/sys/kernel/debug/emul_idle/platform
PACKAGES=/sys/kernel/debug/cpuidle_budget/packages
SECS=${SECONDS_PER_RUN:-6}
IDLE_CPUS="2 3 4 5"
cd "${TMPDIR:-/tmp}" || exit 1

ktap_print_header
require_cpuidle_driver
if [ "$(nproc)" != 6 ]; then
	ktap_skip_all "needs the 2P+4E layout (6 CPUs), have $(nproc)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 8
taskset -pc 0,1 $$ >/dev/null || ktap_exit_fail_msg "cannot pin the test to the P-cores"
selftest_setup
set_governor menu

# Restore the model as found on exit (after selftest_restore's own work).
saved=$(for k in power_model pl1_mw pl2_mw e_leak_mw turbo_by_active; do
	echo "$k=$(cat $P/$k)"; done)
restore_model() {
	local kv
	echo 500000 >$P/pl2_mw
	for kv in $saved; do
		echo "${kv#*=}" >"$P/${kv%%=*}" 2>/dev/null
	done
	only_states all
	selftest_restore
}
trap restore_model EXIT

platform() {
	awk -v k="$1" '$1 == k { print $2 }' $PLATFORM
}

# only_states LIST: the idle CPUs may enter only the listed state indices
# ("all": every state).
only_states() {
	local cpu s i
	for cpu in $IDLE_CPUS; do
		for s in /sys/devices/system/cpu/cpu$cpu/cpuidle/state*; do
			i=${s##*state}
			if [ "$1" = all ] || [[ " $1 " == *" $i "* ]]; then
				echo 0 >"$s/disable"
			else
				echo 1 >"$s/disable"
			fi
		done
	done
}

# throughput: bogo-ops of two nsqrt workers on the P-cores over $SECS s,
# and the model's mean frequency scale (sampled once a second). The
# sampler and stress-ng's parent run on the busy P-cores (the test shell
# is pinned there below): on an idle E-core every sample would wake it out
# of deep idle, raise the active-core count and so lower the very turbo
# cap the deep runs are measured for.
throughput() {
	local scale=0 n=0 i
	stress-ng --cpu 2 --taskset 0,1 --cpu-method nsqrt -t "$SECS" \
		--metrics-brief --yaml run.yaml >/dev/null 2>&1 &
	for i in $(seq "$SECS"); do
		sleep 1
		scale=$((scale + $(platform freq_scale))); n=$((n + 1))
	done
	wait
	ops=$(awk '/bogo-ops:/ { s += $2 } END { print s + 0 }' run.yaml)
	mean_scale=$((scale / n))
}

# Bad values are refused and change nothing.
refused() {
	local before after
	before=$(cat $P/pl1_mw $P/pl2_mw $P/power_model $P/e_leak_mw)
	! echo abc >$P/pl1_mw 2>/dev/null &&
	! echo 500 >$P/pl1_mw 2>/dev/null &&
	! echo "$(( $(cat $P/pl1_mw) - 1 ))" >$P/pl2_mw 2>/dev/null &&
	! echo "$(( $(cat $P/pl2_mw) + 1 ))" >$P/pl1_mw 2>/dev/null &&
	! echo maybe >$P/power_model 2>/dev/null &&
	! echo 99999 >$P/e_leak_mw 2>/dev/null || return 1
	after=$(cat $P/pl1_mw $P/pl2_mw $P/power_model $P/e_leak_mw)
	[ "$before" = "$after" ]
}
ktap_test_result "bad model parameters are refused (-EINVAL), nothing changes" refused

# Every state has a power figure for tools/cpuidle-analyze, POLL too (the
# kernel's poll state has -1): spinning costs at least what C1 does, and
# the deeper states less.
state_power() {
	cat /sys/devices/system/cpu/cpu0/cpuidle/state"$1"/power
}
power_figures() {
	local poll c1 c6
	poll=$(state_power 0) c1=$(state_power 1) c6=$(state_power 3)
	ktap_print_msg "state power: POLL $poll mW, C1 $c1 mW, C6 $c6 mW"
	[ "$poll" -lt 2147483648 ] && [ "$poll" -ge "$c1" ] && [ "$c1" -gt "$c6" ] &&
		[ "$c6" -gt 0 ]
}
ktap_test_result "the state table has power figures, POLL's at least C1's" power_figures

echo 1 >$P/power_model || ktap_exit_fail_msg "cannot start the power model"
model_runs() {
	local e0 e1 t0 t1 mw
	e0=$(platform energy_uj) t0=$(date +%s%N)
	stress-ng --cpu 1 --taskset 0 --cpu-method nsqrt -t 1 >/dev/null 2>&1
	e1=$(platform energy_uj) t1=$(date +%s%N)
	mw=$(( (e1 - e0) * 1000000 / (t1 - t0) ))
	ktap_print_msg "one busy P-core, the rest idle: $mw mW over $(( (t1 - t0) / 1000000 )) ms"
	# 12.2 W for the core at full speed, 1.5 W uncore, little for the
	# idle cores: more than an idle package, less than two busy P-cores.
	[ "$mw" -gt 5000 ] && [ "$mw" -lt 25000 ]
}
ktap_test_result "the model integrates energy (one busy P-core: 5..25 W)" model_runs

# Under the limit: a leaky part (2.5 W per idle powered E-core at the
# maximum voltage), PL1 12 W.
echo 2500 >$P/e_leak_mw
echo 55000 >$P/pl2_mw
echo 12000 >$P/pl1_mw
only_states "1"			# C1 only
throughput; throughput	# the first one settles the averages
shallow_ops=$ops shallow_scale=$mean_scale
only_states "3 4 5"		# C6, C8, C10
throughput
deep_ops=$ops deep_scale=$mean_scale
ktap_print_msg "limited: C1-only idle: $shallow_ops ops, scale $shallow_scale; C6+ idle: $deep_ops ops, scale $deep_scale"
ktap_test_result "limited: deeper idle on idle CPUs raises the busy CPUs' frequency" \
	[ "$deep_scale" -gt "$shallow_scale" ]
ktap_test_result "limited: ... and their measured throughput (>= +5%)" \
	[ $((deep_ops * 100)) -ge $((shallow_ops * 105)) ]

# Far from the limit, with and without turbo ratio limits.
echo 500000 >$P/pl2_mw
echo 500000 >$P/pl1_mw
echo 0 >$P/turbo_by_active
only_states "1"; throughput; flat_shallow=$ops s1=$mean_scale
only_states "3 4 5"; throughput; flat_deep=$ops s2=$mean_scale
ktap_print_msg "unlimited, flat turbo: C1-only $flat_shallow ops (scale $s1), C6+ $flat_deep ops (scale $s2)"
# within A B LO HI: A / B is within [LO, HI] percent.
within() {
	[ $(($1 * 100)) -ge $(($2 * $3)) ] && [ $(($1 * 100)) -le $(($2 * $4)) ]
}
ktap_test_result "unlimited, no turbo ratio limits: deeper idle changes nothing (within 3%)" \
	within "$flat_deep" "$flat_shallow" 97 103
echo 1 >$P/turbo_by_active
only_states "1"; throughput; turbo_shallow=$ops s1=$mean_scale
only_states "3 4 5"; throughput; turbo_deep=$ops s2=$mean_scale
ktap_print_msg "unlimited, turbo ratio limits: C1-only $turbo_shallow ops (scale $s1), C6+ $turbo_deep ops (scale $s2)"
# 6 active cores cap at 91%, 2 at 100% (the test's own sampling wakes an
# E-core now and then, so the deep run averages a little less).
turbo_gain() {
	[ "$s2" -gt "$s1" ] && [ $((turbo_deep * 100)) -ge $((turbo_shallow * 101)) ]
}
ktap_test_result "unlimited, turbo ratio limits: deeper idle raises the cap, and throughput (>= +1%)" \
	turbo_gain
only_states all

source_interface() {
	local src limit
	rmmod "$MODULE" 2>/dev/null
	modprobe "$MODULE" && modprobe emul_budget || return 1
	echo 12000 >$P/pl1_mw
	src=$(awk 'NR == 2 { print $2 }' $PACKAGES)
	set_governor budget
	stress-ng --cpu 2 --taskset 0,1 --cpu-method nsqrt -t 1 >/dev/null 2>&1
	limit=$(awk 'NR == 2 { print $5 }' $PACKAGES)
	set_governor menu
	rmmod emul_budget
	ktap_print_msg "budget's source with emul_budget: $src, limit $limit mW; after rmmod: $(awk 'NR == 2 { print $2 }' $PACKAGES)"
	[ "$src" = emul-platform ] && [ "$limit" = 12000 ] &&
		[ "$(awk 'NR == 2 { print $2 }' $PACKAGES)" != emul-platform ] &&
		rmmod "$MODULE"
}
ktap_test_result "the budget governor reads the model through cpuidle_budget_register_source()" \
	source_interface

ktap_finished
