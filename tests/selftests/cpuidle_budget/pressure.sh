#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The power-pressure bias, driven through the debugfs signal override: on
# an early-wake-up workload, high pressure moves selections deeper than
# pressure 0 would on the same history, and pressure 0 does not bias; the
# latency limit (/dev/cpu_dma_latency) and disabled states hold whatever
# the pressure; the select tracepoint reports both choices, the reflect
# one each period's classification; a PM QoS request is latency evidence
# (the 1/8 tolerance at pressure 0), and its absence is not.
#
# Every assertion first checks its inputs: the workload ran (wakeups
# exited 0 and the CPU entered idle at least MIN_ENTRIES times), the
# counters were read, and the pressure was what the test says it was,
# before and after the run. "Nothing deep was entered" only means
# something when deep states were entered in the same conditions without
# the limit: the run at pressure 1024 shows that (a positive control).

DIR=$(dirname "$0")
. "$DIR/lib.sh"

OVERRIDE=/sys/kernel/debug/cpuidle_budget/override
CPU=${CPU:-2}
SRC=${SRC:-1}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
STATE=/sys/devices/system/cpu/cpu$CPU/cpuidle

ktap_print_header
require_cpuidle_driver
# "Deep" states are those whose exit latency is above LIMIT_US, the
# /dev/cpu_dma_latency limit of case 5: on Alder Lake-L's states (intel_idle's
# adl_l_cstates, which the emulated platform has too) C6, C8 and C10
# (170, 200 and 230 us), from index 3 on. DEEP is the first one's index,
# LAST the deepest state's. Without a deep state there is nothing to test.
LIMIT_US=100
[ -d "$STATE" ] || { ktap_skip_all "no CPU $CPU with idle states"; exit "$KSFT_SKIP"; }
NSTATES=$(ls -d $STATE/state[0-9]* | wc -l)
LAST=$((NSTATES - 1))
DEEP=
for i in $(seq 0 $LAST); do
	if [ "$(cat $STATE/state$i/latency)" -gt $LIMIT_US ]; then
		DEEP=$i
		break
	fi
done
if [ -z "$DEEP" ]; then
	ktap_skip_all "no idle state of CPU $CPU has an exit latency above $LIMIT_US us: $(cat $STATE/state*/name | paste -sd ' ')"
	exit "$KSFT_SKIP"
fi
DEEP_NAME=$(cat $STATE/state$DEEP/name)
LAST_NAME=$(cat $STATE/state$LAST/name)
ktap_set_plan 11
selftest_setup
set_governor menu
rmmod "$MODULE" 2>/dev/null
modprobe "$MODULE" allow_override=1 || ktap_exit_fail_msg "modprobe allow_override=1"
set_governor budget

# Built by make check from wakeups.c (tests/selftests/cpuidle_budget).
WAKEUPS=${WAKEUPS:-$DIR/wakeups}
# wakeups -s wakes $CPU after pauses of 100..400 us (30%) and 1..2 ms
# (70%), each from the reader's way back into idle (wakeups.c says why
# -s): under TCG 400-700 times a second. Fewer entries than this in a
# run mean that it did not run, whatever TCG's speed.
MIN_ENTRIES=${MIN_ENTRIES:-100}

# Entries per state of $CPU while the workload runs ("N N N N N N");
# fails, printing nothing (its messages go to standard error, which the
# TAP file also gets), when the workload fails or makes fewer than
# MIN_ENTRIES entries, or the counters cannot be read.
entries() {
	local before after n
	before=$(cat $STATE/state*/usage | tr '\n' ' ')
	if ! "$WAKEUPS" -s "$CPU" "$SRC" "$SECONDS_PER_RUN" >&2; then
		ktap_print_msg "wakeups $CPU $SRC $SECONDS_PER_RUN failed" >&2
		return 1
	fi
	after=$(cat $STATE/state*/usage | tr '\n' ' ')
	# shellcheck disable=SC2086 # one word per state
	is_count $before $after >&2 || return 1
	n=$(paste <(echo "$before" | tr ' ' '\n') <(echo "$after" | tr ' ' '\n') |
		awk 'NF == 2 { printf "%d ", $2 - $1 }')
	if [ "$(total_of "$n")" -lt "$MIN_ENTRIES" ]; then
		ktap_print_msg "only $(total_of "$n") idle entries on CPU $CPU (at least $MIN_ENTRIES)" >&2
		return 1
	fi
	echo "$n"
}

# total_of ENTRIES, deep_of ENTRIES: all entries, and those into the deep
# states (index DEEP on), of an entries() result.
total_of() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) t += $i; print t + 0 }'
}
deep_of() {
	echo "$1" | awk -v deep=$DEEP '{ for (i = deep + 1; i <= NF; i++) d += $i; print d + 0 }'
}

# Share (per mille) of the entries into the deep states.
deep_share() {
	echo "$1" | awk -v deep=$DEEP '{ for (i = 1; i <= NF; i++) { t += $i; if (i > deep) d += $i }
		print t ? int(1000 * d / t) : 0 }'
}

# pressure_is P: $CPU's published pressure is P now (says so if not).
pressure_is() {
	local p
	p=$(budget_stat "$CPU" pressure)
	[ "$p" = "$1" ] && return 0
	ktap_print_msg "pressure on CPU $CPU is '$p', not $1"
	return 1
}

wait_pressure() {
	local _
	for _ in $(seq 50); do
		[ "$(budget_stat "$CPU" pressure)" = "$1" ] && return 0
		sleep 0.05
	done
	pressure_is "$1"
}

# at_pressure P VAR: entries() into VAR with the pressure P before and
# after the run; fails if the pressure was not P, or entries() failed.
at_pressure() {
	local out
	pressure_is "$1" && out=$(entries) && pressure_is "$1" || return 1
	printf -v "$2" '%s' "$out"
}

TRACE=/sys/kernel/tracing
EVENTS=$TRACE/events/cpuidle_budget
SELECT_EVENT=$EVENTS/cpuidle_budget_select

# trace_on EVENT, trace_off EVENT FILE: trace $CPU's events of the
# governor's EVENT (cpuidle_budget_select, cpuidle_budget_reflect) into
# FILE.
trace_on() {
	echo >$TRACE/trace
	echo "cpu == $CPU" >"$EVENTS/$1/filter"
	echo 1 >"$EVENTS/$1/enable"
}
trace_off() {
	echo 0 >"$EVENTS/$1/enable"
	echo 0 >"$EVENTS/$1/filter"
	grep "$1:" $TRACE/trace >"$2"
}
# The first rule of every awk program below: an event's key=value fields
# into v[key].
FIELDS='{ for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2] }'
# choices FILE: "N U D" from a trace_off file of selections: N
# selections, U of them whose unbiased (pressure-0) choice is shallower
# than the deep states, D of those U that went to a deep state.
choices() {
	awk -v deep=$DEEP "$FIELDS"'
	     { n++; if (v["unbiased"] < deep) { u++; if (v["state"] >= deep) d++ } }
	     END { print n + 0, u + 0, d + 0 }' "$1"
}
# differing [FILE]: selection events (in FILE, else on standard input)
# whose state is not the unbiased one.
differing() {
	awk "$FIELDS"'
	     { if (v["state"] != v["unbiased"]) b++ } END { print b + 0 }' "$@"
}
LOW_TRACE=$(mktemp) HIGH_TRACE=$(mktemp) REFLECT_TRACE=$(mktemp)
restore() {
	local e
	for e in cpuidle_budget_select cpuidle_budget_reflect; do
		echo 0 >"$EVENTS/$e/enable" 2>/dev/null
		echo 0 >"$EVENTS/$e/filter" 2>/dev/null
	done
	rm -f "$LOW_TRACE" "$HIGH_TRACE" "$NOEV_TRACE" "$REFLECT_TRACE"
	exec 4>&- 2>/dev/null
	selftest_restore
}
trap restore EXIT

# Latency evidence (policy.c): without it, pressure 0 lets a majority
# of the periods, not one in eight, vote shallow, and this workload's
# 30% of short pauses would leave nothing for the bias to move. A PM QoS
# request of 1 s, which rules out no state, is evidence: the tracepoint
# says so in every selection, and without the request in none (the
# reader waits on a pipe, not on I/O).
NOEV_TRACE=$(mktemp)
echo "power_mw=1000 limit_mw=6000 busy_cpus=1" >"$OVERRIDE"
trace_on cpuidle_budget_select
wait_pressure 0 && "$WAKEUPS" -s "$CPU" "$SRC" 1
trace_off cpuidle_budget_select "$NOEV_TRACE"
# evidence_in FILE: "N E", selections and those with latency evidence.
evidence_in() {
	awk "$FIELDS"'
	     { n++; if (v["evidence"] == 1) e++ } END { print n + 0, e + 0 }' "$1"
}
exec 4>/dev/cpu_dma_latency
printf '%x' 1000000 >&4

low='' high='' deeper0='' deeper1=''
low_ok=0
trace_on cpuidle_budget_select
wait_pressure 0 && at_pressure 0 low && low_ok=1
trace_off cpuidle_budget_select "$LOW_TRACE"
evidence_follows_qos() {
	local n0 e0 n1 e1
	read -r n0 e0 < <(evidence_in "$NOEV_TRACE")
	read -r n1 e1 < <(evidence_in "$LOW_TRACE")
	ktap_print_msg "no PM QoS request: $e0 of $n0 selections with evidence; a 1 s request: $e1 of $n1"
	is_count "$n0" "$e0" "$n1" "$e1" && [ "$n0" -gt 0 ] && [ "$n1" -gt 0 ] &&
		[ "$e0" = 0 ] && [ "$e1" = "$n1" ]
}
ktap_test_result "latency evidence: a PM QoS request, even one that rules out no state; none without one" \
	evidence_follows_qos
echo "power_mw=6000 limit_mw=6000 busy_cpus=1" >"$OVERRIDE"
high_ok=0
BIAS_STATS=/sys/module/$MODULE/parameters/bias_stats
if wait_pressure 1024; then
	# Counted only on request (bias_stats): the second pass it needs.
	echo 1 >"$BIAS_STATS"
	deeper0=$(budget_stat "$CPU" deeper)
	trace_on cpuidle_budget_select
	at_pressure 1024 high && high_ok=1
	trace_off cpuidle_budget_select "$HIGH_TRACE"
	deeper1=$(budget_stat "$CPU" deeper)
	echo 0 >"$BIAS_STATS"
fi
exec 4>&-
ktap_print_msg "pressure 0:    entries per state: $low(deep share $(deep_share "$low")/1000)"
ktap_print_msg "pressure 1024: entries per state: $high(deep share $(deep_share "$high")/1000)"
# Pressure 1024 must move the selections deeper. Not measured as the
# change between the two runs' entries: each run's history is its own, so
# two runs compare two histories. The tracepoint gives, for every
# selection, the state chosen and the one pressure 0 would have chosen on
# the same history (unbiased): of the selections whose unbiased choice is
# shallower than the deep states (C6 on Alder Lake-L), pressure 1024 must
# take a third at least to one of them.
#
# The premise: the history gave the bias something to do, that is, half
# the selections at least would be shallower than C6 at pressure 0 (their
# history has more than 1/8 of periods too short for C6). This guest does
# not always give it: under TCG the reader's way back into idle takes a
# time that varies from one boot to the next, and in some boots it
# outlasts most of the short pauses, so that the byte is there before the
# reader idles and the short periods all but vanish. Over 15 runs of this
# test the share of such selections was either 0.85 to 0.94 (and then
# 0.60 to 0.86 of them went to C6 or deeper) or 0.03 to 0.08, whatever
# the exit latencies, with a shallow warm-up or without. Without the
# premise the test is skipped, saying so: it cannot tell a bias that does
# nothing from a history that asks for nothing.
moves_deeper() {
	local n u d
	[ $high_ok = 1 ] || return 1
	read -r n u d < <(choices "$HIGH_TRACE")
	is_count "$n" "$u" "$d" || return 1
	ktap_print_msg "pressure 1024: $n selections; $u of them shallower than $DEEP_NAME at pressure 0, $d of those made $DEEP_NAME or deeper"
	if [ $((2 * u)) -lt "$n" ]; then
		ktap_print_msg "premise not met: fewer than half the selections would be shallow at pressure 0"
		return 2
	fi
	[ $((3 * d)) -ge "$u" ] && [ "$(deep_of "$high")" -gt 0 ]
}
MOVES="pressure 1024 moves a third of the selections that would be shallow at pressure 0 to $DEEP_NAME or deeper"
moves_deeper
case $? in
0) ktap_test_pass "$MOVES" ;;
2) ktap_test_skip "$MOVES (the workload's history asked for nothing shallow)" ;;
*) ktap_test_fail "$MOVES" ;;
esac
# Pressure 0 has no bias: no selection differs from the unbiased one.
unbiased_at_zero() {
	local n b
	[ $low_ok = 1 ] || return 1
	n=$(wc -l <"$LOW_TRACE")
	b=$(differing "$LOW_TRACE")
	ktap_print_msg "pressure 0: $n selections, $b of them not the unbiased state"
	[ "$n" -gt 0 ] && [ "$b" = 0 ]
}
ktap_test_result "pressure 0 selects the unbiased state every time" unbiased_at_zero
counts_deeper() {
	[ $high_ok = 1 ] && is_count "$deeper0" "$deeper1" && [ "$deeper1" -gt "$deeper0" ]
}
ktap_test_result "with bias_stats, the statistics count selections the pressure made deeper" \
	counts_deeper

# Without bias_stats (and the tracepoint off) nothing is counted: the
# pressure-0 choice is not worked out at all.
not_counted_unasked() {
	local d0 d1 run=
	[ "$(cat "$BIAS_STATS")" = N ] || return 1
	d0=$(budget_stat "$CPU" deeper)
	at_pressure 1024 run
	d1=$(budget_stat "$CPU" deeper)
	ktap_print_msg "bias_stats off: deeper $d0 -> $d1 over entries $run"
	[ -n "$run" ] && [ "$(deep_of "$run")" -gt 0 ] && is_count "$d0" "$d1" && [ "$d1" = "$d0" ]
}
ktap_test_result "without bias_stats the statistics do not count (no second pass)" \
	not_counted_unasked

# The positive control of the two tests that follow: at pressure 1024 this
# workload does enter deep states when nothing forbids them.
deep_control() {
	[ $high_ok = 1 ] && [ "$(deep_of "$high")" -gt 0 ] && return 0
	ktap_print_msg "no deep state entries at pressure 1024 without a limit: nothing to hold back"
	return 1
}

# Exit latency limit of 100 us: no deep state may run (on Alder Lake-L,
# C6 at 170 us, C8 at 200, C10 at 230).
latency_limit_holds() {
	local run=
	deep_control || return 1
	# The request holds while fd 3 is open, in hex.
	exec 3>/dev/cpu_dma_latency
	printf '%x' $LIMIT_US >&3
	at_pressure 1024 run
	exec 3>&-
	[ -n "$run" ] || return 1
	ktap_print_msg "under a 100 us limit: entries per state: $run"
	[ "$(deep_of "$run")" = 0 ]
}
ktap_test_result "with /dev/cpu_dma_latency at $LIMIT_US us no deeper state is entered, even at pressure 1024" \
	latency_limit_holds

# The deepest state disabled is never entered; the other deep ones still
# are (the pressure still drives the CPU deep: the control that the
# deepest would be a candidate). Needs two deep states.
disabled_state_holds() {
	local run= was
	deep_control || return 1
	was=$(cat $STATE/state$LAST/disable)
	echo 1 >$STATE/state$LAST/disable || return 1
	at_pressure 1024 run
	echo "$was" >$STATE/state$LAST/disable
	[ -n "$run" ] || return 1
	ktap_print_msg "$LAST_NAME disabled: entries per state: $run"
	[ "$(echo "$run" | awk -v last=$LAST '{ print $(last + 1) }')" = 0 ] &&
		[ "$(echo "$run" | awk -v deep=$DEEP -v last=$LAST \
			'{ for (i = deep + 1; i <= last; i++) d += $i; print d + 0 }')" -gt 0 ]
}
DISABLED="a disabled state ($LAST_NAME) is never entered, even at pressure 1024"
if [ $LAST -gt $DEEP ]; then
	ktap_test_result "$DISABLED" disabled_state_holds
else
	ktap_test_skip "$DISABLED (one deep state only: nothing to enter instead)"
fi

# The tracepoint: both the chosen and the unbiased state, and the pressure.
# While it is on, the unbiased choice is worked out (bias_stats is off):
# every event at pressure 1024 has both. Whether they differ is the first
# test's question, on the same history.
tracepoint_reports() {
	local line='cpuidle_budget_select: cpu=[0-9]* predicted_ns=[0-9]* sleep_ns=-\?[0-9]* pressure=1024 state=[0-9] unbiased=[0-9] stop_tick=[01]'
	local n biased
	[ -d "$SELECT_EVENT" ] || return 1
	echo >$TRACE/trace
	echo 1 >"$SELECT_EVENT/enable"
	"$WAKEUPS" -s "$CPU" "$SRC" "$SECONDS_PER_RUN"
	echo 0 >"$SELECT_EVENT/enable"
	grep -m3 'cpuidle_budget' $TRACE/trace | sed 's/^/# /'
	n=$(grep -c "$line" $TRACE/trace)
	biased=$(grep "$line" $TRACE/trace | differing)
	ktap_print_msg "$n events at pressure 1024, $biased with state != unbiased"
	is_count "$n" "$biased" && [ "$n" -gt 0 ]
}
ktap_test_result "tracepoint cpuidle_budget_select reports pressure, state and the unbiased state it works out" \
	tracepoint_reports

# The reflect tracepoint: every period the governor recorded, with how
# it was classified. A period that neither the tick nor a poll's time
# limit ended is early exactly when its measure is below 7/8 of the time
# to the timer it slept for (sleep_ns; S64_MAX: the selection skipped the
# timers, and the period is not recorded, never early); a poll that ran
# into its limit is never early. wakeups -s gives early periods (its
# wake-ups), and seldom others: each period is checked against the rule,
# whichever way it went.
reflect_classified() {
	local out
	[ -d "$EVENTS/cpuidle_budget_reflect" ] || return 1
	trace_on cpuidle_budget_reflect
	"$WAKEUPS" -s "$CPU" "$SRC" "$SECONDS_PER_RUN" || return 1
	trace_off cpuidle_budget_reflect "$REFLECT_TRACE"
	head -2 "$REFLECT_TRACE" | sed 's/^/# /'
	out=$(awk "$FIELDS"'
		{ n++
		  if (v["sleep_ns"] == "9223372036854775807") { skipped++; want = 0 }
		  else if (v["poll_limit"] == 1 && v["state"] == 0) want = 0
		  else if (v["got_tick"] == 1) next
		  else want = (v["measured_ns"] < v["sleep_ns"] - int(v["sleep_ns"] / 8))
		  checked++; early += v["early"]
		  if (v["early"] != want) bad++ }
		END { print n + 0, checked + 0, early + 0, skipped + 0, bad + 0 }' "$REFLECT_TRACE")
	read -r n checked early skipped bad <<<"$out"
	# Periods of skipped timers are never early: at least MIN_ENTRIES
	# others must have been checked.
	ktap_print_msg "$n periods, $checked checked ($skipped with the timers skipped), $early early, $bad misclassified"
	is_count "$n" "$checked" "$early" "$skipped" "$bad" &&
		[ $((checked - skipped)) -ge "$MIN_ENTRIES" ] && [ "$early" -gt 0 ] &&
		[ "$bad" -eq 0 ]
}
ktap_test_result "tracepoint cpuidle_budget_reflect: each period early exactly when it ended before 7/8 of its timer" \
	reflect_classified

echo off >"$OVERRIDE"
ktap_test_result "override off: the real signals are back (none in this guest: pressure 0)" \
	wait_pressure 0

override_refused_without_parameter() {
	set_governor menu && rmmod "$MODULE" && modprobe "$MODULE" || return 1
	! echo "power_mw=6000 limit_mw=6000" >"$OVERRIDE" 2>/dev/null &&
		grep -q '^off$' "$OVERRIDE"
}
ktap_test_result "the override is refused unless allow_override=1 was given at load" \
	override_refused_without_parameter

ktap_finished
