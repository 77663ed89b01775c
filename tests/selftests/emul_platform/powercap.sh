#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The emulated package as a RAPL interface (tests/emul/emul_rapl.c): with
# emul_rapl loaded, the guest has the powercap zone a laptop has,
# /sys/class/powercap/intel-rapl:0 ("package-0"), whose energy counter
# and PL1/PL2 constraints are the model's: the energy advances as the
# model's does, the constraints read the model's limits, and writing them
# (or disabling the zone) sets the model's limits as emul_idle's
# parameters would, refusing what those refuse. Unloading it leaves the
# model with the limits it had.

DIR=$(dirname "$0")
. "$DIR/../cpuidle_budget/lib.sh"

P=/sys/module/emul_idle/parameters
PLATFORM=/sys/kernel/debug/emul_idle/platform
ZONE=/sys/class/powercap/intel-rapl:0

ktap_print_header
require_emulated emul_rapl
ktap_set_plan 7

# The model as found, restored on exit (PL2 first raised so that any PL1
# goes back in).
saved=$(for k in pl1_mw pl2_mw pl1_window_ms pl2_window_ms power_model; do
	echo "$k=$(cat $P/$k)"; done)
restore() {
	local kv
	rmmod emul_rapl 2>/dev/null
	echo 1000000 >$P/pl2_mw
	for kv in $saved; do
		echo "${kv#*=}" >"$P/${kv%%=*}" 2>/dev/null
	done
}
trap restore EXIT
echo 1 >$P/power_model || ktap_exit_fail_msg "cannot start the power model"
rmmod emul_rapl 2>/dev/null
modprobe emul_rapl || ktap_exit_fail_msg "modprobe emul_rapl"

platform() {
	awk -v k="$1" '$1 == k { print $2 }' $PLATFORM
}
param() {
	cat "$P/$1"
}

zone_is_the_package() {
	ktap_print_msg "$ZONE: name $(cat $ZONE/name 2>/dev/null), enabled $(cat $ZONE/enabled 2>/dev/null), constraints $(cat $ZONE/constraint_0_name 2>/dev/null) $(cat $ZONE/constraint_1_name 2>/dev/null)"
	[ "$(cat $ZONE/name)" = package-0 ] && [ "$(cat $ZONE/enabled)" = 1 ] &&
		[ "$(cat $ZONE/constraint_0_name)" = long_term ] &&
		[ "$(cat $ZONE/constraint_1_name)" = short_term ]
}
ktap_test_result "emul_rapl gives the guest the powercap zone intel-rapl:0 (package-0, long_term and short_term)" \
	zone_is_the_package

# The time window as RAPL's field holds it, read back by intel_rapl_common
# in its integer time unit (976 us for 2^-10 s): within 1% of the model's.
constraints_are_the_limits() {
	local pl1 pl2 win want
	pl1=$(cat $ZONE/constraint_0_power_limit_uw)
	pl2=$(cat $ZONE/constraint_1_power_limit_uw)
	win=$(cat $ZONE/constraint_0_time_window_us)
	want=$(($(param pl1_window_ms) * 1000))
	ktap_print_msg "long_term $pl1 uW over $win us, short_term $pl2 uW; the model: $(param pl1_mw) mW over $(param pl1_window_ms) ms, $(param pl2_mw) mW"
	is_count "$pl1" "$pl2" "$win" &&
		[ "$pl1" = $(($(param pl1_mw) * 1000)) ] && [ "$pl2" = $(($(param pl2_mw) * 1000)) ] &&
		[ $((100 * win)) -ge $((99 * want)) ] && [ "$win" -le "$want" ]
}
ktap_test_result "the constraints are the model's PL1 (with its window) and PL2" \
	constraints_are_the_limits

# The zone's counter is the model's energy, not just its rate: each
# reading of the model's, taken between two of the zone's, lies between
# them (to within a counter unit, 61 uJ, and the units' rounding: 1 mJ),
# three times a second apart. Under -icount a command takes a good part
# of a second of guest time, so readings are bracketed, not compared.
# max_energy_range_uj is the 32-bit counter's range in its unit.
energy_is_the_models() {
	local z0 m z1 range want i
	for i in 1 2 3; do
		z0=$(cat $ZONE/energy_uj); m=$(platform energy_uj); z1=$(cat $ZONE/energy_uj)
		ktap_print_msg "zone $z0 uJ, the model $m uJ, the zone $z1 uJ"
		is_count "$z0" "$m" "$z1" && [ "$z0" -lt "$z1" ] &&
			[ "$m" -ge $((z0 - 1000)) ] && [ "$m" -le $((z1 + 1000)) ] || return 1
		sleep 1
	done
	range=$(cat $ZONE/max_energy_range_uj)
	want=$((4294967295 * (1000000000 / 16384) / 1000))
	ktap_print_msg "max_energy_range_uj $range (want $want)"
	[ "$range" = "$want" ]
}
ktap_test_result "energy_uj is the model's package energy; max_energy_range_uj is the counter's range" \
	energy_is_the_models

writes_set_the_model() {
	local pl1
	echo 7000000 >$ZONE/constraint_0_power_limit_uw || return 1
	pl1=$(param pl1_mw)
	ktap_print_msg "long_term written 7 W: emul_idle pl1_mw $pl1, the zone $(cat $ZONE/constraint_0_power_limit_uw) uW"
	[ "$pl1" = 7000 ] && [ "$(cat $ZONE/constraint_0_power_limit_uw)" = 7000000 ]
}
ktap_test_result "writing long_term's power limit sets the model's PL1" writes_set_the_model

below_pl1_refused() {
	local before
	before=$(param pl2_mw)
	! echo 5000000 >$ZONE/constraint_1_power_limit_uw 2>/dev/null &&
		[ "$(param pl2_mw)" = "$before" ] && [ "$(param pl1_mw)" = 7000 ]
}
ktap_test_result "a PL2 below PL1 is refused, as emul_idle's parameters refuse it, and nothing changes" \
	below_pl1_refused

# Disabling the zone clears the enable bits of PL1 and of PL2
# (intel_rapl_common's set_domain_enable() and set_floor_freq_default()):
# the model then runs without a limit; the constraints still read the
# limits they hold, and enabling the zone again puts both back. Only the
# enable bits are written: the windows stay as they were (each written
# back through RAPL's 7-bit field would lose its rounding: PL2's 10 ms
# comes back as 9).
disable_enable() {
	local off_pl1 off_pl2 shown1 shown2 windows
	windows="$(param pl1_window_ms) $(param pl2_window_ms)"
	echo 0 >$ZONE/enabled || return 1
	off_pl1=$(param pl1_mw); off_pl2=$(param pl2_mw)
	shown1=$(cat $ZONE/constraint_0_power_limit_uw)
	shown2=$(cat $ZONE/constraint_1_power_limit_uw)
	echo 1 >$ZONE/enabled || return 1
	ktap_print_msg "disabled: the model's pl1_mw $off_pl1, pl2_mw $off_pl2, the constraints read $shown1 and $shown2 uW; enabled again: pl1_mw $(param pl1_mw), pl2_mw $(param pl2_mw); windows $windows ms before, $(param pl1_window_ms) $(param pl2_window_ms) after"
	[ "$off_pl1" = 1000000 ] && [ "$off_pl2" = 1000000 ] &&
		[ "$shown1" = 7000000 ] && [ "$shown2" = $((PL2_MW * 1000)) ] &&
		[ "$(param pl1_mw)" = 7000 ] && [ "$(param pl2_mw)" = "$PL2_MW" ] &&
		[ "$(cat $ZONE/enabled)" = 1 ] &&
		[ "$(param pl1_window_ms) $(param pl2_window_ms)" = "$windows" ]
}
PL2_MW=$(param pl2_mw)
ktap_test_result "disabling the zone lifts both limits in the model; enabling it restores the held ones" \
	disable_enable

# intel_rapl_common disables every limit of a package it removes; the
# model gets the limits it had at load, not the 7 W set through the zone.
unload_restores() {
	rmmod emul_rapl || return 1
	ktap_print_msg "after rmmod: zone $([ -d $ZONE ] && echo present || echo gone), pl1_mw $(param pl1_mw), pl2_mw $(param pl2_mw)"
	[ ! -d $ZONE ] && [ "$(param pl1_mw)" = "$(echo "$saved" | sed -n 's/^pl1_mw=//p')" ] &&
		[ "$(param pl2_mw)" = "$(echo "$saved" | sed -n 's/^pl2_mw=//p')" ]
}
ktap_test_result "rmmod emul_rapl removes the zone and leaves the model's limits as they were at load" \
	unload_restores

ktap_finished
