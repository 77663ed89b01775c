#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/ab.sh SCENARIO [KEY=VALUE...] - guest side of "make ab": one
# scenario's A/B runs
#
# One load for the whole run (its seeded parts restarted per round or
# block, below); the governors ("arms") take turns on it in blocks,
# switched through current_governor. Each block settles
# for AB_SETTLE seconds, then is measured for AB_MEASURE seconds by
# reading the emulated platform's counters once at each edge (its own
# clock, energy, package C-state time, and per CPU the model's cycles and
# busy time): no sampling loop, no tracing. Rounds rotate the arms' order
# in a balanced (Williams) design: see arm_order(). The first block of
# the run is a warm-up under teo, not measured.
#
# Seeds: round R's seed is seed * 100000 + 16 * R, the same for every arm
# of the round; the block's loads draw their streams from it plus 0..15. The seeded wake-up loads (tests/selftests/cpuidle_budget_lib/
# sporadic.c) restart with it at every block, and in io-qd1 the device's
# service times restart from it (emul_blk's seed), so that every block of
# a round sees the same wake-ups from its start; rt-app's loads (typing,
# video) restart with it at every round (their logs in rtapp/rR/), so a
# round's blocks hold the same keys and frames and the next round new
# ones. Until 2026-12-07 every round and run used seed 1.
#
# Arms: ladder, menu, menu2025 (menu with the 2025 prediction, the test
# series' patch: the model's calibration against the reports that found
# it faster on QD1 I/O and worse on idle power), teo, teo2 (teo again: the
# A/A control), budget, budget-lat and budget-energy (budget with its
# signals overridden to a package far from its limit, pressure 0, and to
# one at its limit, pressure 1024). Each scenario has six by default, so
# that six rounds complete the design.
#
# Scenarios, each with its primary metric, declared here before it runs:
#   steady-15w  adl-u-15w, 6 CPUs: the demo's load, CPU-bound stress-ng on
#               the two P-cores, cross-CPU wake-ups on the E-cores; primary
#               metric the P-cores' cycles per second (higher is better)
#   typing-6w   jsl-6w, 4 CPUs: bench/typing-rtapp.py's keystrokes, frames and
#               background timers under rt-app (the key gaps of one
#               measured block's length in rtapp/rR/plan, repeated: every
#               block of a round holds the same keys and frames); primary
#               metric the keystrokes' p90 latency, key to end of its
#               burst (lower is better; about 55 keys a block: their p99
#               is the slowest, see ab-report.py)
#   typing-9w   the same on adl-u-9w, 6 CPUs
#   io-qd1      adl-u-15w with PL1 and PL2 at 1000 W (no power limit),
#               4 CPUs: fio at queue depth 1 (psync, 4 KiB random reads,
#               O_DIRECT) on tests/emul's emul_blk, whose completions come
#               from CPU 0's timer after a seeded random service time
#               (lat_min_us..lat_max_us), fio pinned to CPU 1 (a P-core);
#               primary metric the device's requests per second (higher
#               is better), fio's completion latency p99 from its json+
#               histogram (a SIGUSR1 status dump at each edge, fio.json)
#   idle-6w     jsl-6w, 4 CPUs, a screen-on idle desktop: per CPU a
#               periodic application timer, device interrupts waking
#               tasks from CPU 0, nothing busy (load_block()); primary
#               metric the package's average power (lower is better)
#   video-15w   adl-u-15w, 4 CPUs: bench/video-rtapp.py's player (30 fps
#               decoding, 60 Hz compositing, audio) and one stream of
#               device interrupts (from CPU 0 to CPU 2); primary metric
#               the package's power (lower), frames missed and energy
#               per frame beside it
#   burst-9w    adl-u-9w, 6 CPUs: both P-cores spin 400 ms of every
#               second, time-boxed, at one seeded phase, the E-cores idle
#               with cross-CPU wake-ups: on average near the 9 W PL1;
#               primary metric the Mcycles one P-core's burst delivers
#               (its cycles per busy ms times the burst; higher is better)
#   turbo-15w   adl-u-15w, 6 CPUs, no power limit (PL1 and PL2 at
#               1000 W): both P-cores spin 100 ms of every 500 ms, the
#               E-cores idle with cross-CPU wake-ups; only the turbo
#               ratio limits by active cores bind (a core in C1/C1E
#               counts as active, one in C6 or deeper not); primary
#               metric the P-cores' Mcycles per burst
#
# Output, in $RESULTS_DIR/ab/SCENARIO/: blocks (one line per block:
# round, position, arm, seed, then the counters at each edge as
# key=value, the idle states' entries and time summed over the CPUs among
# them), scenario (its constants), pressure (at each budget block's end,
# per package, budget's pressure and the terms behind it: the power
# averaged over the PL1 window, the turbo and limit status shares),
# rtapp/rR/ (rt-app's logs of round R). bench/ab-report.py reads them.
#
# Settings (KEY=VALUE after the scenario): rounds (the design's: 6 for
# six arms; a multiple of it, or ab.sh refuses), settle (6 s), measure
# (6 s), arms (the scenario's six, comma-separated), pl1_window_ms (2000:
# the parts' real 28 s would need blocks of about 90 s for the PL1
# average to forget the previous arm; settle is 3 windows, and
# bench/ab.jobs runs burst-9w with 8 s as well), pl1_mw (the part's),
# seed (1), for typing and video ns_per_loop (rt-app's unit of work; by
# default measured by rt-app on CPU0 before the platform's model is
# loaded, so at full speed and the same in every run) and work_pct (50:
# under -icount all vCPUs together run one CPU's worth of instructions,
# and at 100 the load's one CPU on average would saturate the guest), for
# typing wpm (120) and chatter (0: how many of typing-rtapp.py's
# message-traffic threads), for idle and video train (1) and
# train_gap_us (300: each device interrupt a train of that many, that far
# apart), for io-qd1 lat_min_us (200) and lat_max_us
# (800: an eMMC/SATA-class device, see bench/README.md); emul.NAME=VALUE
# passes any other parameter to emul_idle (emul.p_leak_mw=500, say),
# budget.NAME=VALUE one to cpuidle_budget (budget.sample_period_ms=1000);
# variant=TAG writes to ab/SCENARIO@TAG instead, one point of a
# sensitivity sweep.

# arm_order N ROUND: the arms' indices, 0..N-1, in ROUND's order, one a
# line. A Williams design: row 0 is 0, 1, N-1, 2, N-2, ..., and round r
# adds r to each (mod N), so over N rounds each arm runs once in every
# position and once directly after every other arm; for odd N, rounds N
# to 2N-1 take row 0 reversed, and over 2N rounds each arm follows each
# other twice. A plain rotation (arm i + r) keeps every arm's predecessor
# fixed: teo2 ran after teo in every round, and what the block before
# leaves behind (the power averages' memory) then differs by
# arm, which the paired intervals do not see as noise.
arm_order() {
	local n=$1 r=$2 i k=1 row=(0)
	while [ ${#row[@]} -lt "$n" ]; do
		row+=("$k")
		[ ${#row[@]} -lt "$n" ] && row+=($((n - k)))
		k=$((k + 1))
	done
	for ((i = 0; i < n; i++)); do
		if (((r / n) % 2)); then k=${row[n - 1 - i]}; else k=${row[i]}; fi
		echo $(((k + r) % n))
	done
}

# ab.sh --order N ROUNDS: the arms' order in each round, a line per round
# (on the host, for tests/host/ab-report.sh).
if [ "$1" = --order ]; then
	for ((r = 0; r < $3; r++)); do
		arm_order "$2" "$r" | paste -sd ' '
	done
	exit 0
fi

# design_rounds N: how many rounds complete the Williams design of N
# arms (N for an even N, 2N for an odd one: arm_order()).
design_rounds() {
	echo $(($1 % 2 ? 2 * $1 : $1))
}

# ab.sh --design N: the same, on the host.
if [ "$1" = --design ]; then
	design_rounds "$2"
	exit 0
fi

# ab.sh --cpus SCENARIO: the CPU count the scenario's guest needs (on the
# host, for bench/ab-run.sh).
if [ "$1" = --cpus ]; then
	case $2 in
	steady-15w | typing-9w | burst-9w | turbo-15w) echo 6 ;;
	typing-6w | io-qd1 | idle-6w | video-15w) echo 4 ;;
	*) echo "ab.sh: unknown scenario $2" >&2; exit 1 ;;
	esac
	exit 0
fi

# ab.sh --check SCENARIO [KEY=VALUE...]: check the scenario and its
# settings, as the guest would, and stop (bench/ab-run.sh, on the host,
# before it boots a guest for them).
CHECK=0
if [ "$1" = --check ]; then
	CHECK=1
	shift
fi
SCENARIO=${1:?usage: ab.sh SCENARIO [rounds=N] [settle=S] [measure=S] [arms=A,B] [pl1_window_ms=MS]}
shift
ROUNDS='' SETTLE=6 MEASURE=6 ARMS_LIST=''
LOAD_PID='' LOAD_THREADS=0 FIO_PID='' BLOCK_PIDS=()
EMUL_ARGS=() BUDGET_ARGS=() VARIANT='' PL1_WINDOW_MS=2000 PL1_MW='' PL2_MW='' SEED=1 WPM=120 WORK_PCT=50 LAT_MIN_US=200 LAT_MAX_US=800
NS_PER_LOOP='' CHATTER=0 TRAIN=1 TRAIN_GAP_US=300
for kv in "$@"; do
	case $kv in
	rounds=*) ROUNDS=${kv#*=} ;;
	settle=*) SETTLE=${kv#*=} ;;
	measure=*) MEASURE=${kv#*=} ;;
	arms=*) ARMS_LIST=${kv#*=} ;;
	pl1_window_ms=*) PL1_WINDOW_MS=${kv#*=} ;;
	pl1_mw=*) PL1_MW=${kv#*=} ;;
	seed=*) SEED=${kv#*=} ;;
	wpm=*) WPM=${kv#*=} ;;
	work_pct=*) WORK_PCT=${kv#*=} ;;
	ns_per_loop=*) NS_PER_LOOP=${kv#*=} ;;
	chatter=*) CHATTER=${kv#*=} ;;
	lat_min_us=*) LAT_MIN_US=${kv#*=} ;;
	lat_max_us=*) LAT_MAX_US=${kv#*=} ;;
	train=*) TRAIN=${kv#*=} ;;
	train_gap_us=*) TRAIN_GAP_US=${kv#*=} ;;
	emul.*=*) EMUL_ARGS+=("${kv#emul.}") ;;
	budget.*=*) BUDGET_ARGS+=("${kv#budget.}") ;;
	variant=*) VARIANT=${kv#*=} ;;
	*) echo "ab.sh: unknown setting $kv" >&2; exit 1 ;;
	esac
done
CPUIDLE=/sys/devices/system/cpu/cpuidle
PLATFORM=/sys/kernel/debug/emul_idle/platform
CPUS=/sys/kernel/debug/emul_idle/cpus
PACKAGES=/sys/kernel/debug/cpuidle_budget/packages
OVERRIDE=/sys/kernel/debug/cpuidle_budget/override
SPORADIC=$CB_SELFTESTS/cpuidle_budget_lib/sporadic
OUT=$RESULTS_DIR/ab/$SCENARIO${VARIANT:+@$VARIANT}
cd "${TMPDIR:-/tmp}" || exit 1

die() {
	echo "ab.sh: $*" >&2
	exit 1
}

# Every scenario's default arms: six, so that six rounds complete the
# design. The A/A pair (teo, teo2) is in every one.
ARMS_BUDGET=menu,teo,teo2,budget,budget-lat,budget-energy
ARMS_2025=menu,menu2025,teo,teo2,budget,budget-lat
BURST_PERIOD_MS='' BURST_MS=''
case $SCENARIO in
steady-15w)
	part=adl-u-15w primary=p_mcycles_per_s arms=$ARMS_BUDGET
	;;
typing-6w)
	part=jsl-6w primary=key_p90_ms arms=$ARMS_BUDGET
	;;
typing-9w)
	part=adl-u-9w primary=key_p90_ms arms=$ARMS_BUDGET
	;;
io-qd1)
	# No power limit: the pair at the parameters' ceiling.
	part=adl-u-15w primary=iops PL1_MW=${PL1_MW:-1000000} PL2_MW=1000000
	arms=menu,menu2025,teo,teo2,budget,budget-energy
	;;
idle-6w)
	part=jsl-6w primary=power_mw arms=$ARMS_2025
	;;
video-15w)
	part=adl-u-15w primary=power_mw arms=$ARMS_2025
	;;
burst-9w)
	part=adl-u-9w primary=p_mcycles_per_burst arms=$ARMS_BUDGET BURST_PERIOD_MS=1000 BURST_MS=400
	;;
turbo-15w)
	# No power limit: only the turbo ratio limits bind.
	part=adl-u-15w primary=p_mcycles_per_burst PL1_MW=${PL1_MW:-1000000} PL2_MW=1000000
	arms=$ARMS_BUDGET BURST_PERIOD_MS=500 BURST_MS=100
	;;
*)
	die "unknown scenario $SCENARIO"
	;;
esac
ARMS_LIST=${ARMS_LIST:-$arms}
IFS=, read -r -a ARMS <<<"$ARMS_LIST"
design=$(design_rounds ${#ARMS[@]})
ROUNDS=${ROUNDS:-$design}
if ! [[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || ((ROUNDS % design)); then
	die "rounds=$ROUNDS: ${#ARMS[@]} arms need a multiple of $design rounds (the Williams design)"
fi
[[ $TRAIN =~ ^[1-9][0-9]*$ && $TRAIN_GAP_US =~ ^[1-9][0-9]*$ ]] ||
	die "train=$TRAIN train_gap_us=$TRAIN_GAP_US: positive whole numbers"
[[ $SEED =~ ^[0-9]{1,9}$ ]] || die "seed=$SEED: a whole number of up to 9 digits"
for a in "${ARMS[@]}"; do
	case $a in
	ladder | menu | menu2025 | teo | teo2 | budget | budget-lat | budget-energy) ;;
	*) die "unknown arm $a" ;;
	esac
done
((CHECK)) && exit 0
ncpus=$("$0" --cpus "$SCENARIO") || exit 1
[ "$(nproc)" = "$ncpus" ] || die "$SCENARIO needs $ncpus CPUs, has $(nproc)"
[ -x "$SPORADIC" ] || die "no $SPORADIC (make helpers)"

# rt-app's unit of work is calibrated (bench/rtapp.sh) before emul_idle is
# loaded, when nothing steals cycles: every run's "20 ms" burst is then the
# same work (calibrated under the running model, runs of 2026-12-05
# differed by 1.8 times: 3581 to 6373 loops a key burst).
# shellcheck source=bench/rtapp.sh
. "$CB_TOP/bench/rtapp.sh"
# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
. "$CB_TOP/tests/selftests/cpuidle_budget_lib/debugfs.sh"
if [[ $SCENARIO == typing-* || $SCENARIO == video-* ]]; then
	if [ -z "$NS_PER_LOOP" ]; then
		NS_PER_LOOP=$(rtapp_ns_per_loop) || die "rt-app's calibration failed"
	elif ! [[ $NS_PER_LOOP =~ ^[1-9][0-9]*$ ]]; then
		die "ns_per_loop=$NS_PER_LOOP is not a positive whole number"
	fi
	[[ $CHATTER =~ ^[0-9]+$ ]] || die "chatter=$CHATTER is not a count"
fi

modprobe emul_idle part=$part power_model=1 \
	${PL1_WINDOW_MS:+pl1_window_ms=$PL1_WINDOW_MS} ${PL1_MW:+pl1_mw=$PL1_MW} \
	${PL2_MW:+pl2_mw=$PL2_MW} "${EMUL_ARGS[@]}" || die "emul_idle"
modprobe cpuidle_budget allow_override=1 "${BUDGET_ARGS[@]}" || die "cpuidle_budget"
modprobe emul_budget || die "emul_budget"
mkdir -p "$OUT" || die "no results directory"

# round_seed R: round R's seed, the same for every arm of the round.
# Rounds' seeds are 16 apart: a block's loads draw their streams from the
# seed plus 0..15, so no stream of one round is another round's (with
# rounds one apart, round R+1's CPU 1 replayed round R's CPU 3).
round_seed() {
	echo $((SEED * 100000 + 16 * $1))
}

# rtapp_round R: the rt-app loads (typing, video) restarted for round R,
# drawn from its seed, their logs in rtapp/rR/ (rt-app writes them out on
# SIGTERM). Long enough for the round's blocks and the warm-up, with
# half as much again for the edges' reads (about 1.4 s a block under
# -icount) and some: keys after the last block cost nothing, a block
# after the last key has no value. Typing's plan is one measured block
# long and repeats, so every block of the round holds the same keys and
# frames; a new round draws new ones.
rtapp_round() {
	local r=$1 seed seconds logs=$OUT/rtapp/r$1
	seed=$(round_seed "$r")
	seconds=$(((${#ARMS[@]} + 1) * (SETTLE + MEASURE) * 3 / 2 + 60))
	if [ -n "$LOAD_PID" ]; then
		kill -TERM "$LOAD_PID" 2>/dev/null
		wait "$LOAD_PID" 2>/dev/null
	fi
	case $SCENARIO in
	typing-* | video-*) mkdir -p "$logs" || die "no $logs" ;;
	*) return 0 ;;
	esac
	case $SCENARIO in
	typing-*)
		python3 "$CB_TOP/bench/typing-rtapp.py" "$seed" "$WPM" "$seconds" \
			"$WORK_PCT" "$logs" "$logs/plan" "$NS_PER_LOOP" "$CHATTER" "$MEASURE" \
			>rtapp.json || die "typing-rtapp.py"
		;;
	video-*)
		python3 "$CB_TOP/bench/video-rtapp.py" "$seed" "$seconds" "$WORK_PCT" \
			"$logs" "$NS_PER_LOOP" >rtapp.json || die "video-rtapp.py"
		;;
	esac
	rt-app rtapp.json >"$logs/rt-app.out" 2>&1 &
	LOAD_PID=$! LOAD_THREADS=$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["tasks"]))' <rtapp.json)
	load_running || die "round $r: the load did not start its threads in 120 s"
}

# The load, started once; every arm runs on the same one (rt-app's,
# once a round: rtapp_round).
load_start() {
	case $SCENARIO in
	steady-15w)
		stress-ng --cpu 2 --taskset 0,1 --cpu-method nsqrt -t 0 >/dev/null 2>&1 &
		;;
	io-qd1)
		modprobe emul_blk irq_cpu=0 seed="$SEED" lat_min_us="$LAT_MIN_US" \
			lat_max_us="$LAT_MAX_US" || die "emul_blk"
		[ -b /dev/emulblk0 ] || die "no /dev/emulblk0"
		# json+ carries the completion latency histogram; each SIGUSR1
		# appends the counts so far.
		taskset -c 1 fio --name=qd1 --filename=/dev/emulblk0 --ioengine=psync \
			--iodepth=1 --rw=randread --bs=4k --direct=1 --time_based \
			--runtime=100000 --randseed="$SEED" --output-format=json+ \
			>"$OUT/fio.json" 2>fio.err &
		FIO_PID=$!
		# fio takes seconds to start under -icount, and a SIGUSR1
		# before its handler is in place kills it: wait for its I/O.
		local i
		for ((i = 0; i < 240; i++)); do
			[ "$(awk '$1 == "requests" { print $2 }' /sys/kernel/debug/emul_blk/stats)" -gt 10 ] &&
				return 0
			kill -0 "$FIO_PID" 2>/dev/null || die "fio exited: $(tail -n 3 fio.err)"
			sleep 0.5
		done
		die "fio did no I/O in 120 s"
		;;
	esac
}

# sporadic ARGS...: one of the block's seeded wake-up loads, in the
# background (tests/selftests/cpuidle_budget_lib/sporadic.c).
sporadic() {
	"$SPORADIC" "$@" &
	BLOCK_PIDS+=($!)
}

# load_block SEED: the part of the load that restarts at every block with
# the round's seed, so that every arm of a round sees the same wake-ups
# and service times from its block's start: the seeded wake-ups (their
# phases and pauses), and in io-qd1 the device's service times.
load_block() {
	local seed=$1
	if [ ${#BLOCK_PIDS[@]} -gt 0 ]; then
		kill "${BLOCK_PIDS[@]}" 2>/dev/null
		wait "${BLOCK_PIDS[@]}" 2>/dev/null
	fi
	BLOCK_PIDS=()
	case $SCENARIO in
	steady-15w)
		# Cross-CPU wake-ups on the E-cores, a mean 1 ms apart: about
		# 40% of them before the deep states' target residency.
		sporadic -s "$seed" 3 2 1000
		sporadic -s $((seed + 1)) 5 4 1000
		;;
	io-qd1)
		echo "$seed" >/sys/module/emul_blk/parameters/seed || die "emul_blk seed"
		;;
	idle-6w)
		# A screen-on idle desktop (estimates, see bench/README.md):
		# per CPU an application timer of its own (10, 25, 50 and
		# 100 ms: 170 wake-ups a second in all, at seeded phases),
		# each a 50 us run; and device interrupts (a touchpad, Wi-Fi,
		# audio: exponential, a mean 40 ms apart, from CPU 0) waking a
		# task on CPUs 1 and 3 for 100 us.
		local cpu timer_us=(10000 25000 50000 100000)
		for cpu in 0 1 2 3; do
			sporadic -p -s $((seed + cpu)) -b 50 "$cpu" "$cpu" "${timer_us[cpu]}"
		done
		# With train=N each interrupt is a train of N, train_gap_us
		# apart (a network adapter's packets, say).
		sporadic -s $((seed + 4)) -b 100 -t "$TRAIN" -g "$TRAIN_GAP_US" 1 0 40000
		sporadic -s $((seed + 5)) -b 100 -t "$TRAIN" -g "$TRAIN_GAP_US" 3 0 40000
		;;
	video-*)
		# One stream of idle-6w's device interrupts, beside the player.
		sporadic -s $((seed + 4)) -b 100 -t "$TRAIN" -g "$TRAIN_GAP_US" 2 0 40000
		;;
	burst-* | turbo-*)
		# Bursts on both P-cores at once: every BURST_PERIOD_MS,
		# BURST_MS spinning, at the same seeded phase (each process
		# times it from its own start, a fork and exec apart); the
		# E-cores idle with cross-CPU wake-ups (exponential, a mean
		# 2 ms apart) that no timer of theirs predicts.
		local period=$((BURST_PERIOD_MS * 1000))
		sporadic -p -s "$seed" -b $((BURST_MS * 1000)) 0 0 "$period"
		sporadic -p -s "$seed" -b $((BURST_MS * 1000)) 1 1 "$period"
		sporadic -s $((seed + 2)) 3 2 2000
		sporadic -s $((seed + 3)) 5 4 2000
		;;
	esac
}

# arm NAME: make NAME the current governor, with budget's override set.
arm() {
	local gov=$1 over=off

	case $1 in
	teo2) gov=teo ;;
	budget-lat) gov=budget over="power_mw=1000 limit_mw=0" ;;
	budget-energy) gov=budget over="power_mw=20000 limit_mw=15000 throttle=1024 busy_cpus=2" ;;
	budget*) gov=budget ;;
	esac
	echo "$over" >$OVERRIDE || die "override '$over'"
	printf '%s' "$gov" >$CPUIDLE/current_governor || die "governor $gov"
	[ "$(cat $CPUIDLE/current_governor)" = "$gov" ] || die "governor $gov not current"
}

# edge TAG: the counters, as TAG_key=value words, read in one go. In
# io-qd1 also the device's request count, and a status dump of fio's is
# asked for: its first dump stamped at or after TAG_wall_ms is this
# edge's (a SIGUSR1 can print more than one).
edge() {
	if [ -n "$FIO_PID" ]; then
		printf '%s_wall_ms=%s ' "$1" "$(date +%s%3N)"
		kill -USR1 "$FIO_PID" || printf 'fio_gone=1 '
		printf '%s_requests=%s ' "$1" \
			"$(awk '$1 == "requests" { print $2 }' /sys/kernel/debug/emul_blk/stats)"
	fi
	awk -v tag="$1" '
		FILENAME ~ /platform$/ && $1 ~ /^(time_us|energy_uj|pkg_idle_us|freq_scale)$/ {
			printf "%s_%s=%s ", tag, $1, $2
		}
		# Per CPU, by the header names: TAG_NAME=CPU0,CPU1,...
		FILENAME ~ /cpus$/ && FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		FILENAME ~ /cpus$/ {
			for (i = 1; i <= n; i++) v[i] = v[i] sep $col[k[i]]
			sep = ","
		}
		BEGIN { n = split("mcycles busy_ms sat_mcycles sat_busy_ms spin_ms", k) }
		END { for (i = 1; i <= n; i++) if (k[i] in col) printf "%s_%s=%s ", tag, k[i], v[i] }
	' $PLATFORM $CPUS
	# Per idle state, entries and time (us) summed over the CPUs.
	awk -v tag="$1" '
		{ n = split(FILENAME, p, "/"); s = substr(p[n - 1], 6) + 0 }
		p[n] == "usage" { u[s] += $1 } p[n] == "time" { t[s] += $1 }
		s > max { max = s }
		END {
			# %.0f: past 2^31 awk would print a sum as 2.17402e+09.
			for (i = 0; i <= max; i++) {
				us = us sep sprintf("%.0f", u[i]); ts = ts sep sprintf("%.0f", t[i]); sep = ","
			}
			printf "%s_state_usage=%s %s_state_us=%s ", tag, us, tag, ts
		}
	' /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/{usage,time}
}

{
	echo "scenario $SCENARIO"
	echo "variant ${VARIANT:--}"
	echo "emul_args ${EMUL_ARGS[*]:--}"
	echo "budget_args ${BUDGET_ARGS[*]:--}"
	echo "part $part"
	echo "primary $primary"
	echo "rounds $ROUNDS"
	echo "settle_s $SETTLE"
	echo "measure_s $MEASURE"
	echo "arms ${ARMS[*]}"
	echo "seed $SEED"
	echo "burst_period_ms ${BURST_PERIOD_MS:--}"
	echo "burst_ms ${BURST_MS:--}"
	echo "wpm $WPM"
	echo "typing_period_s $MEASURE"
	echo "work_pct $WORK_PCT"
	echo "rtapp_ns_per_loop ${NS_PER_LOOP:--}"
	echo "chatter $CHATTER"
	echo "lat_us $LAT_MIN_US..$LAT_MAX_US"
	echo "train $TRAIN"
	echo "train_gap_us $TRAIN_GAP_US"
	awk '{ print $1, $2 }' $PLATFORM
	for p in p_dyn_mw p_leak_mw e_dyn_mw e_leak_mw uncore_mw trans_pct; do
		echo "$p $(cat /sys/module/emul_idle/parameters/$p)"
	done
	echo "types $(table_col $CPUS type | paste -sd,)"
	echo "states $(cat /sys/devices/system/cpu/cpu0/cpuidle/state[0-9]*/name | paste -sd,)"
} >"$OUT/scenario"

# load_running: the load has started its threads. rt-app calibrates
# first, which took up to 18 s of a binding PL1's slow guest; a warm-up
# timed from its start left the first block without a keystroke.
load_running() {
	local i threads
	[ -n "${LOAD_PID:-}" ] || return 0
	for ((i = 0; i < 240; i++)); do
		kill -0 "$LOAD_PID" 2>/dev/null || return 1
		# The main thread and one per task.
		threads=(/proc/"$LOAD_PID"/task/*)
		[ "${#threads[@]}" -gt "$LOAD_THREADS" ] && return 0
		sleep 0.5
	done
	return 1
}

load_start
rtapp_round 0
arm teo
load_block "$(round_seed 0)"
sleep "$SETTLE"
: >"$OUT/blocks"
: >"$OUT/pressure"
n=${#ARMS[@]}
for ((r = 0; r < ROUNDS; r++)); do
	mapfile -t order < <(arm_order "$n" "$r")
	((r)) && rtapp_round "$r"
	seed=$(round_seed "$r")
	for ((i = 0; i < n; i++)); do
		a=${ARMS[order[i]]}
		arm "$a"
		load_block "$seed"
		sleep "$SETTLE"
		line="round=$r pos=$i arm=$a seed=$seed $(edge a)"
		sleep "$MEASURE"
		echo "$line $(edge b)" >>"$OUT/blocks"
		# Per package: pressure, then the terms behind it by name.
		[[ $a == budget* ]] && echo "$r $a $(awk '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ printf "%s avg_mw=%s turbo_avg=%s limited_avg=%s ", $3, $c["avg_mw"],
				$c["turbo_avg"], $c["limited_avg"] }' $PACKAGES)" >>"$OUT/pressure"
	done
	echo "# $SCENARIO: round $((r + 1)) of $ROUNDS done"
done
arm teo
echo off >$OVERRIDE
# rt-app writes out its logs and fio its totals on SIGTERM. (Background
# jobs of a script ignore SIGINT: stress-ng would never stop on it.)
# shellcheck disable=SC2046 # one word per job
kill -TERM $(jobs -p) 2>/dev/null
wait
exit 0
