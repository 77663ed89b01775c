#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/cpuidle-analyze and tools/sched-placement on small traces built by
# hand, whose right answers are worked out in the comments, in each of the
# three trace formats; and on malformed input, which must give a message
# naming the line and no Python traceback. Then the placement tests' load,
# dutycycle: where -s starts it, and what it refuses.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ANALYZE=$TOP/tools/cpuidle-analyze
PLACEMENT=$TOP/tools/sched-placement

# A two-CPU state table as the kernel shows it: POLL (no power figure: -1
# as %u, so counted at C1's 500 mW, a lower bound), C1 (exit 1 us, target
# 1 us, 500 mW), C6 (exit 100 us, target 400 us, 50 mW).
mkstate() {	# CPU INDEX NAME LATENCY RESIDENCY POWER
	local d=$T/sysfs/cpu$1/cpuidle/state$2
	mkdir -p "$d"
	echo "$3" >"$d/name"
	echo "$4" >"$d/latency"
	echo "$5" >"$d/residency"
	echo "$6" >"$d/power"
	echo 0 >"$d/disable"
}
for cpu in 0 1; do
	mkstate $cpu 0 POLL 0 0 4294967295
	mkstate $cpu 1 C1 1 1 500
	mkstate $cpu 2 C6 100 400 50
done

# Three periods on CPU 0 (length = traced time - exit latency):
#  C1 for 201 us: 200 us. Right. Energy per state (P*L + (P0-P)*T)/1000,
#     P0 = 500: POLL 100, C1 100, C6 190 uJ: the oracle takes C1 too (on
#     the tie with POLL, whose figure is assumed).
#  C6 for 150 us: 50 us, below C6's 400: too deep. POLL 25, C1 25,
#     C6 182.5 uJ: oracle C1; latency regret 100 - 1 = 99 us.
#  C1 for 1001 us: 1000 us, C6 fits: too shallow. C1 500, C6 230 uJ:
#     oracle C6; no latency regret.
# Spent 782.5 uJ, oracle 355 uJ: regret 120.423%; latency 99/3 = 33 us.
# Exit latencies 1, 1, 100 us: p50 1, p99 (the 3rd of 3) 100; regrets 0,
# 0, 99: p99 99.
# A cpu_idle_miss on C6, a budget select that moved C1 to C6, an unknown
# event and a period on CPU 1 left open at the end (not counted).
cat >"$T/idle.ftrace" <<'EOF'
# tracer: nop
#
          <idle>-0       [000] d..1.     1.000000: cpu_idle: state=1 cpu_id=0
          <idle>-0       [000] d..1.     1.000201: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0       [000] d..1.     1.000900: cpuidle_budget_select: cpu=0 predicted_ns=900000 sleep_ns=900000 pressure=800 state=2 unbiased=1 stop_tick=1
          <idle>-0       [000] d..1.     1.001000: cpu_idle: state=2 cpu_id=0
          <idle>-0       [000] dN.1.     1.001150: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0       [000] dN.1.     1.001151: cpu_idle_miss: cpu_id=0 state=2 type=above
          <idle>-0       [000] d.h1.     1.001500: irq_handler_entry: irq=1 name=foo
          <idle>-0       [000] d..1.     1.002000: cpu_idle: state=1 cpu_id=0
          <idle>-0       [000] d..1.     1.003001: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0       [001] d..1.     1.003100: cpu_idle: state=2 cpu_id=1
EOF
# The same events as trace-cmd report and perf script print them.
sed -E 's/^ *(<idle>-0) +\[(...)\] [^ ]+ +/  \1     [\2]   /; s/: (cpu_idle|cpu_idle_miss|cpuidle_budget_select|irq_handler_entry): /: \1:             /' \
	"$T/idle.ftrace" | grep -v '^#' >"$T/idle.trace-cmd"
sed -E 's/^ *<idle>-0 +\[(...)\] [^ ]+ +/         swapper     0 [\1]   /; s/: (cpu_idle|cpu_idle_miss): /: power:\1: /; s/: cpuidle_budget_select: /: cpuidle_budget:cpuidle_budget_select: /; s/: irq_handler_entry: /: irq:irq_handler_entry: /' \
	"$T/idle.ftrace" | grep -v '^#' >"$T/idle.perf"

# json FILE EXPR: evaluate a Python expression over the JSON in FILE (j).
json_is() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}

idle_right() {
	"$ANALYZE" --sysfs "$T/sysfs" --json "$T/idle.$1" >"$T/idle-$1.json" &&
	json_is "$T/idle-$1.json" 'j["periods"] == 3 and
		j["states"]["C1"]["usage"] == 2 and j["states"]["C6"]["usage"] == 1 and
		abs(j["states"]["C1"]["residency_us"] - 1202) < 0.01 and
		abs(j["states"]["C6"]["residency_us"] - 150) < 0.01 and
		j["states"]["C1"]["too_shallow"] == 1 and j["states"]["C1"]["too_deep"] == 0 and
		j["states"]["C6"]["too_deep"] == 1 and j["states"]["C6"]["too_shallow"] == 0 and
		abs(j["oracle_energy_regret_pct"] - 120.423) < 0.001 and
		j["power_assumed"] == ["POLL"] and
		abs(j["oracle_latency_regret_us"] - 33.0) < 0.001 and
		j["exit_latency_p50_us"] == 1 and j["exit_latency_p99_us"] == 100 and
		j["latency_regret_p99_us"] == 99 and
		j["states"]["C6"]["kernel_miss_above"] == 1 and
		j["states"]["C6"]["budget_biased"] == 1 and
		j["cpus"]["1"]["periods"] == 0'
}
for fmt in ftrace trace-cmd perf; do
	ok "cpuidle-analyze: hand-worked trace ($fmt format) gives the worked-out counts and regrets" \
		idle_right $fmt
done

no_power() {
	cp -r "$T/sysfs" "$T/nopower"
	echo 0 >"$T/nopower/cpu0/cpuidle/state2/power"
	# Without energy, the oracle is the deepest state whose target fits:
	# C1, C1, C6; latency regret still 99 / 3.
	"$ANALYZE" --sysfs "$T/nopower" --json "$T/idle.ftrace" >"$T/nopower.json" &&
	json_is "$T/nopower.json" 'j["energy_known"] is False and
		j["oracle_energy_regret_pct"] is None and
		abs(j["oracle_latency_regret_us"] - 33.0) < 0.001'
}
ok "cpuidle-analyze: without power figures, no energy regret, the same latency regret" no_power

minus_one_power() {
	cp -r "$T/sysfs" "$T/minusone"
	echo 4294967295 >"$T/minusone/cpu1/cpuidle/state1/power"
	# -1 on a state other than POLL is no figure either; and then POLL
	# on CPU 1 has nothing to borrow.
	"$ANALYZE" --sysfs "$T/minusone" --json "$T/idle.ftrace" >"$T/minusone.json" &&
	json_is "$T/minusone.json" 'j["energy_known"] is False and
		j["oracle_energy_regret_pct"] is None and j["power_assumed"] == []'
}
ok "cpuidle-analyze: a power of -1 outside POLL is no figure: no energy regret" minus_one_power

poll_lower_bound() {
	# POLL for 11 us: 11 us (exit 0). POLL (at C1's 500 mW) 5.5 uJ, C1
	# 5.5, C6 180.55: the oracle takes C1, the state with a real figure:
	# energy regret 0 (a lower bound), latency regret max(0, 0 - 1) = 0.
	printf '%s\n' \
		'          <idle>-0       [000] d..1.     2.000000: cpu_idle: state=0 cpu_id=0' \
		'          <idle>-0       [000] d..1.     2.000011: cpu_idle: state=4294967295 cpu_id=0' |
		"$ANALYZE" --sysfs "$T/sysfs" --json >"$T/poll.json" &&
	json_is "$T/poll.json" 'j["periods"] == 1 and j["states"]["POLL"]["usage"] == 1 and
		j["oracle_energy_regret_pct"] == 0 and j["oracle_energy_actual_uj"] == 5.5 and
		j["oracle_latency_regret_us"] == 0'
}
ok "cpuidle-analyze: POLL counts at C1's power, and the oracle prefers C1 on that tie" poll_lower_bound

report_from_stdin() {
	"$ANALYZE" --sysfs "$T/sysfs" <"$T/idle.ftrace" >"$T/report.txt" &&
	grep -q "oracle energy regret: 120.42%" "$T/report.txt" &&
	grep -Eq "^C6 +100 +400 +1 " "$T/report.txt"
}
ok "cpuidle-analyze: text report from stdin" report_from_stdin

# make check installs no matplotlib (it is make bench's, whose report runs
# --plot on every traced governor): where it is installed, three PNGs;
# where it is not, a clear stop naming the package, and no report.
# Asked of the interpreter the tool runs under (its #! line): the python3
# first on PATH may be another one (a pyenv's, without the package).
plots() {
	local py
	py=$(sed -n '1s/^#! *//p' "$ANALYZE")
	if ${py:-python3} -c 'import matplotlib' 2>/dev/null; then
		"$ANALYZE" --sysfs "$T/sysfs" --plot "$T/plots" <"$T/idle.ftrace" >/dev/null &&
		for p in residency durations regret; do
			[ "$(head -c 4 "$T/plots/$p.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
				return 1
		done
	else
		! "$ANALYZE" --sysfs "$T/sysfs" --plot "$T/plots" <"$T/idle.ftrace" \
			>"$T/plot.out" 2>"$T/plot.err" &&
		grep -q "needs matplotlib (Debian: python3-matplotlib)" "$T/plot.err" &&
		[ ! -s "$T/plot.out" ]
	fi
}
ok "cpuidle-analyze --plot: three PNGs with matplotlib, a stop naming the package without" plots

snapshot_same() {
	"$ANALYZE" --sysfs "$T/sysfs" --snapshot "$T/snap" >/dev/null &&
	"$ANALYZE" --sysfs "$T/snap" --json "$T/idle.ftrace" >"$T/snap.json" &&
	cmp -s "$T/snap.json" "$T/idle-ftrace.json"
}
ok "cpuidle-analyze --snapshot copies a state table that gives the same analysis" snapshot_same

# refused TOOL ARGS... -- WANT INPUT: the tool fails, its message has WANT,
# and there is no traceback.
refused() {
	local tool=$1 out
	shift
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	local want=$2
	out=$(printf '%s\n' "$3" | "$tool" "${args[@]}" 2>&1) && return 1
	grep -q "Traceback" <<<"$out" && return 1
	grep -qF "$want" <<<"$out" || { echo "got: $out"; return 1; }
}
line='          <idle>-0       [000] d..1.     1.000000: cpu_idle: state=1 cpu_id=0'
ok "cpuidle-analyze: a truncated line is refused with its line number" \
	refused "$ANALYZE" --sysfs "$T/sysfs" -- "<stdin>:2: cannot read" \
	"$line"$'\n''          <idle>-0       [000] d..1.     1.0002'
ok "cpuidle-analyze: a cpu_idle without cpu_id is refused" \
	refused "$ANALYZE" --sysfs "$T/sysfs" -- "<stdin>:1: cpu_idle without cpu_id" \
	'          <idle>-0       [000] d..1.     1.000000: cpu_idle: state=1'
ok "cpuidle-analyze: a CPU beyond the state table is refused" \
	refused "$ANALYZE" --sysfs "$T/sysfs" -- "<stdin>:1: CPU 7 has no idle states" \
	'          <idle>-0       [007] d..1.     1.000000: cpu_idle: state=1 cpu_id=7'
ok "cpuidle-analyze: a state beyond the table is refused" \
	refused "$ANALYZE" --sysfs "$T/sysfs" -- "<stdin>:1: CPU 0 has no state 5" \
	'          <idle>-0       [000] d..1.     1.000000: cpu_idle: state=5 cpu_id=0'
ok "cpuidle-analyze: a trace without cpu_idle events is refused" \
	refused "$ANALYZE" --sysfs "$T/sysfs" -- "no cpu_idle events" \
	'          <idle>-0       [000] d.h1.     1.001500: irq_handler_entry: irq=1 name=foo'
ok "cpuidle-analyze: a missing state table is refused" \
	refused "$ANALYZE" --sysfs "$T/none" -- "no cpuN/cpuidle/stateK" "$line"

# Placement: CPUs 0-1 P, 2-5 E. Task "light" (pid 10) runs 1 ms on CPU 0,
# migrates to CPU 2, waits 0.5 ms runnable, runs 3 ms there; renames
# itself "light2" 1 ms into a run on CPU 2 that lasts 4 ms. Task "hog"
# (pid 11) runs 10 ms on CPU 1, is preempted (R) and waits 2 ms.
#   light:  run 1 + 3 + 1 = 5 ms, P 1/5 = 20%, E 80%; 1 migration over
#           its life (100.000 to 100.021 s): 1 / 0.021 = 47.619/s;
#           waited 0.5 ms.
#   light2: run 3 ms, all E.
#   hog:    run 10 ms on P (until its preemption; the second run is
#           still open when the trace ends at 100.030 and closes there:
#           100.018 to 100.030 = 12 ms more on P); waited 2 ms.
cat >"$T/sched.ftrace" <<'EOF'
          <idle>-0       [000] d..2.   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=10 next_prio=120
          <idle>-0       [001] d..2.   100.006000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=11 next_prio=120
           light-10      [000] d..2.   100.001000: sched_switch: prev_comm=light prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [002] dNh3.   100.010000: sched_migrate_task: comm=light pid=10 prio=120 orig_cpu=0 dest_cpu=2
          <idle>-0       [002] dNh3.   100.010000: sched_wakeup: comm=light pid=10 prio=120 target_cpu=002
          <idle>-0       [002] d..2.   100.010500: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=10 next_prio=120
           light-10      [002] d..2.   100.013500: sched_switch: prev_comm=light prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120
             hog-11      [001] d..2.   100.016000: sched_switch: prev_comm=hog prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=kworker/1:1 next_pid=40 next_prio=120
     kworker/1:1-40      [001] d..2.   100.018000: sched_switch: prev_comm=kworker/1:1 prev_pid=40 prev_prio=120 prev_state=I ==> next_comm=hog next_pid=11 next_prio=120
          <idle>-0       [002] d..2.   100.020000: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=10 next_prio=120
           light-10      [002] .....   100.021000: task_rename: pid=10 oldcomm=light newcomm=light2 oom_score_adj=0
          light2-10      [002] d..2.   100.024000: sched_switch: prev_comm=light2 prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120
          <idle>-0       [003] d.h2.   100.030000: irq_handler_entry: irq=1 name=foo
          <idle>-0       [003] d..2.   100.030000: sched_waking: comm=hog pid=11 prio=120 target_cpu=001
EOF
placement_right() {
	"$PLACEMENT" --json --core-types "$1" "$T/sched.ftrace" >"$T/place.json" &&
	json_is "$T/place.json" '(lambda c:
		abs(c["light"]["runtime_s"] - 0.005) < 1e-9 and
		c["light"]["share_pct"] == {"E": 80.0, "P": 20.0} and
		c["light"]["migrations"] == 1 and
		abs(c["light"]["migrations_per_s"] - 47.619) < 0.001 and
		abs(c["light"]["runnable_wait_s"] - 0.0005) < 1e-9 and
		abs(c["light2"]["runtime_s"] - 0.003) < 1e-9 and
		c["light2"]["share_pct"] == {"E": 100.0} and
		abs(c["hog"]["runtime_s"] - 0.022) < 1e-9 and
		c["hog"]["share_pct"] == {"P": 100.0} and
		abs(c["hog"]["runnable_wait_s"] - 0.002) < 1e-9)(j["classes"])'
}
ok "sched-placement: hand-worked trace gives the worked-out shares, migrations and waits" \
	placement_right P:0-1,E:2-5
printf 'cpu type capacity priority\n0 P 1024 64\n1 P 1024 64\n2 E 605 32\n3 E 605 32\n4 E 605 32\n5 E 605 32\n' \
	>"$T/fake_hybrid"
ok "sched-placement: the core types from a fake_hybrid debugfs file give the same" \
	placement_right "$T/fake_hybrid"
ok "sched-placement: the core types from a fake_hybrid= value give the same" \
	placement_right P:0-1:1024:64,E:2-5:605:32

perf_same() {
	sed -E 's/^ *([^ ]+)-([0-9]+) +\[(...)\] [^ ]+ +([0-9.]+): ([a-z_]+): /  \1 \2 [\3] \4: sched:\5: /' \
		"$T/sched.ftrace" | sed 's/ sched:task_rename:/ task:task_rename:/' >"$T/sched.perf" &&
	"$PLACEMENT" --json --core-types P:0-1,E:2-5 "$T/sched.perf" >"$T/place-perf.json" &&
	"$PLACEMENT" --json --core-types P:0-1,E:2-5 "$T/sched.ftrace" >"$T/place-ftrace.json" &&
	cmp -s "$T/place-perf.json" "$T/place-ftrace.json"
}
ok "sched-placement: the perf script form of the trace gives the same" perf_same

sw='          <idle>-0       [000] d..2.   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=10 next_prio=120'
ok "sched-placement: a truncated line is refused with its line number" \
	refused "$PLACEMENT" --core-types P:0-1,E:2-5 -- "<stdin>:2: cannot read" \
	"$sw"$'\n''          <idle>-0       [000] d..2.   100.0010'
ok "sched-placement: a sched_switch without next_pid is refused" \
	refused "$PLACEMENT" --core-types P:0-1,E:2-5 -- "<stdin>:1: sched_switch without" \
	"${sw% next_pid=*}"
ok "sched-placement: a CPU outside the core-type map is refused" \
	refused "$PLACEMENT" --core-types P:0-1,E:2-3 -- "<stdin>:1: CPU 5 is not in the core-type map" \
	"${sw/\[000\]/[005]}"
ok "sched-placement: a malformed core-type map is refused" \
	refused "$PLACEMENT" --core-types P:1-0 -- 'CPU range "1-0" runs backwards' "$sw"
ok "sched-placement: a trace without scheduler events is refused" \
	refused "$PLACEMENT" --core-types P:0-1,E:2-5 -- "no sched_switch" \
	'          <idle>-0       [003] d.h2.   100.030000: irq_handler_entry: irq=1 name=foo'

# bench/bench-sched-report.py: rt-app's light tasks, one definition each
# (light0, light1, ...), are one class, shares weighted by runtime; a
# single "light" class reads as it is; other names starting "light" are
# not light tasks.
light_class() {
	python3 - "$TOP/bench/bench-sched-report.py" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("report", sys.argv[1])
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)
split = report.light_class({
    "light0": {"tasks": 1, "runtime_s": 1.0, "share_pct": {"E": 100.0}},
    "light1": {"tasks": 1, "runtime_s": 3.0, "share_pct": {"E": 50.0, "P": 50.0}},
    "lightdm": {"tasks": 1, "runtime_s": 5.0, "share_pct": {"P": 100.0}}})
one = report.light_class({"light": {"tasks": 4, "runtime_s": 2.0,
                                    "share_pct": {"E": 90.0, "P": 10.0}}})
print(split, one)
sys.exit(not (split == {"tasks": 2, "runtime_s": 4.0,
                        "share_pct": {"E": 62.5, "P": 37.5}} and
              one["share_pct"] == {"E": 90.0, "P": 10.0} and one["tasks"] == 4 and
              report.light_class({}) == {} and
              report.share(split, "X") == 0.0 and report.share({}, "E") is None))
EOF
}
ok "bench-sched-report: light0, light1, ... are one light class, weighted by runtime; no time on a core type is 0%, not missing" \
	light_class

# bench/benchlib.py difference(): the knob-off rounds against the kernel
# without the series (bench-sched-report.py --baseline), two boots and so
# unpaired: Welch's interval, worked by hand for [1, 2, 3] against
# [1, 2, 3.5] (variances of the means 1/3 and 0.528, 3.8 degrees of
# freedom taken as 3, t 3.182: -0.167 +- 2.953); None without two values a
# side, missing values left out.
welch() {
	python3 - "$TOP/bench" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from benchlib import difference
d = difference([1, 2, 3], [1, 2, 3.5])
print(d)
sys.exit(not (abs(d["est"] + 0.16667) < 1e-4 and abs(d["lo"] + 3.1194) < 1e-3 and
              abs(d["hi"] - 2.7861) < 1e-3 and d["n"] == [3, 3] and
              difference([5, None], [1, 2]) is None and
              difference([2, 2, None], [2, 2])["lo"] == 0.0))
EOF
}
ok "benchlib difference(): Welch's interval of two runs' means, as worked by hand; None on too few" welch

# dutycycle -s: the phases run in a child forked while confined to the list,
# which takes back the affinity dutycycle started with; the parent stays
# confined and exits with the child's status.
# Built as the suite's lib.mk Makefile builds it (its CFLAGS), without
# staging the selftests tree, which wants the kernel tree.
DUTY=$T/dutycycle
# shellcheck disable=SC2046
gcc $(sed -n 's/^CFLAGS += //p' "$TOP/tests/selftests/sched_hybrid/Makefile") -D_GNU_SOURCE= \
	-o "$DUTY" "$TOP/tests/selftests/sched_hybrid/dutycycle.c"
allowed() {	# PID: its Cpus_allowed_list
	awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$1/status"
}
# The first CPU this test may run on: where dutycycle is confined.
first_cpu=$(allowed $$ | sed 's/[,-].*//')
start_on_first_cpu() {
	local all parent worker got_parent got_worker
	all=$(allowed $$)
	[ "$all" != "$first_cpu" ] || { echo "one CPU only: cannot tell"; return 1; }
	"$DUTY" -s "$first_cpu" -n dcstart 100:0.5 &
	parent=$!
	sleep 0.2
	worker=$(pgrep -P "$parent")
	got_parent=$(allowed "$parent")
	got_worker=$(allowed "$worker")
	echo "dutycycle: $got_parent, its worker: $got_worker ($(cat "/proc/$worker/comm"))"
	wait "$parent" && [ "$got_parent" = "$first_cpu" ] && [ "$got_worker" = "$all" ] &&
		[ "$(cat "/proc/$worker/comm" 2>/dev/null)" = "" ]
}
ok "dutycycle -s CPU: the worker is forked confined to that CPU, then runs with the original affinity" \
	start_on_first_cpu
status_of() {	# STATUS ARGS...: dutycycle ARGS exits with STATUS
	local want=$1
	shift
	"$DUTY" "$@" 2>/dev/null
	[ $? = "$want" ]
}
ok "dutycycle -s CPU: the worker's exit status is dutycycle's (a bad phase: 2)" \
	status_of 2 -s "$first_cpu" 101:1
ok "dutycycle -s: malformed CPU lists are refused (5-2, '1,', x, -1, empty)" \
	eval 'status_of 2 -s 5-2 10:1 && status_of 2 -s 1, 10:1 && status_of 2 -s x 10:1 &&
		status_of 2 -s -1 10:1 && status_of 2 -s "" 10:1'
ok "dutycycle -s: a list with no CPU this machine has is refused" \
	status_of 1 -s 1000 10:0.1
# dutycycle -g: the task waits at its gate, named NAME-gate and asleep,
# until SIGUSR1; then it runs its phases and exits 0. -o delays the first
# phase; a NAME too long for "-gate" to fit is refused.
gate_holds() {
	local pid worker= comm= state _ rc=1
	"$DUTY" -g -o 200000 -s "$first_cpu" -n dcgate 100:0.2 &
	pid=$!
	for _ in $(seq 50); do
		worker=$(pgrep -P "$pid")
		comm=$(cat "/proc/$worker/comm" 2>/dev/null)
		[ "$comm" = dcgate-gate ] && break
		sleep 0.1
	done
	sleep 0.5
	state=$(awk '{ print $3 }' "/proc/$worker/stat" 2>/dev/null)
	echo "at the gate: $comm, state $state"
	if [ "$comm" = dcgate-gate ] && [ "$state" = S ] && kill -0 "$pid"; then
		kill -USR1 "$worker"
		# 0.2 s of offset and 0.2 s of work: done well within 5 s.
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	kill "$pid" "$worker" 2>/dev/null && { wait "$pid"; return 1; }
	wait "$pid" && rc=0
	return $rc
}
ok "dutycycle -g: held asleep at its gate (NAME-gate) until SIGUSR1, then runs and exits 0" gate_holds
ok "dutycycle -g: a NAME longer than 10 characters is refused" \
	status_of 2 -g -n elevenchars 10:0.1

# dutycycle -v: one line when the last phase ends, with the task's name,
# its CPU and the scheduler's figures for it, on standard error only.
stats_line() {
	local line out
	out=$("$DUTY" -v -n dcstats 50:0.2 2>/dev/null) || return 1
	line=$("$DUTY" -v -n dcstats 50:0.2 2>&1 >/dev/null) || return 1
	echo "$line"
	[ -z "$out" ] && [[ $line =~ ^dcstats-0\ cpu\ [0-9]+\  ]] &&
		[[ $line =~ \ util_avg\ [0-9]+ ]] && [[ $line =~ \ util_est\ [0-9]+ ]] &&
		[[ $line =~ \ nr_migrations\ [0-9]+ ]]
}
ok "dutycycle -v: the task's CPU, PELT utilization and util_est on standard error when it ends" \
	stats_line

done_testing
