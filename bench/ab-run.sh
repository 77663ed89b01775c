#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/ab-run.sh [--plot DIR] RESULTS_JSON REPORT_MD JOB... - host side of the A/B
# bench: run bench/ab.sh jobs, two guests at a time, then report
#
# Each JOB is one ab.sh command line, quoted as one word: "SCENARIO
# [KEY=VALUE...]" (typing-6w rounds=6 pl1_mw=3500 variant=pl1-3500, say),
# or @FILE: one job per line of FILE (# starts a comment).
# Under -icount each guest runs on one host core, so two at a time fill a
# 2-core machine; jobs are dealt to the two lanes in order. Every job's
# guest writes build/results/vm-ab-SCENARIO[@VARIANT]; that directory is
# emptied first, and the report reads exactly this run's directories.
# Extra settings for every job come from AB_ARGS. Exit status: non-zero
# if a guest failed or bench/ab-report.py found an A/A interval without 1.

TOP=$(cd "$(dirname "$0")/.." && pwd)
plot=()
if [ "${1:-}" = --plot ]; then
	plot=(--plot "$2")
	shift 2
fi
[ $# -ge 3 ] || { sed -n '4,16p' "$0"; exit 2; }
results_json=$1 report_md=$2
shift 2
jobs=()
for j in "$@"; do
	if [[ $j == @* ]]; then
		mapfile -t -O ${#jobs[@]} jobs < <(sed 's/#.*//; /^[[:space:]]*$/d' "${j#@}")
	else
		jobs+=("$j")
	fi
done
[ ${#jobs[@]} -gt 0 ] || { echo "ab-run.sh: no jobs" >&2; exit 2; }

# job_name JOB: SCENARIO[@VARIANT], as ab.sh names its output.
job_name() {
	local w variant=
	for w in $1; do
		case $w in variant=*) variant=${w#variant=} ;; esac
	done
	echo "${1%% *}${variant:+@$variant}"
}

# Every job's scenario and settings checked before any guest boots.
for j in "${jobs[@]}"; do
	# shellcheck disable=SC2086 # the job's words and AB_ARGS are words
	"$TOP/bench/ab.sh" --check $j ${AB_ARGS:-} || { echo "ab-run.sh: job '$j' refused" >&2; exit 2; }
done

# lane N: run jobs N, N+2, ... one after the other.
lane() {
	local i rc=0 name cpus
	for ((i = $1; i < ${#jobs[@]}; i += 2)); do
		name=$(job_name "${jobs[i]}")
		cpus=$("$TOP/bench/ab.sh" --cpus "${jobs[i]%% *}") || return 1
		rm -rf "$TOP/build/results/vm-ab-$name"
		echo "# ab-run: $name on $cpus CPUs"
		# shellcheck disable=SC2086 # the job's words and AB_ARGS are words
		"$TOP/scripts/vm-run.sh" --quiet --name "ab-$name" --smp "$cpus" --icount 4 \
			--timeout 3600 "$TOP/bench/ab.sh" ${jobs[i]} ${AB_ARGS:-} || rc=1
	done
	return $rc
}

lane 0 &
pid=$!
lane 1
rc=$?
wait $pid || rc=1
dirs=()
for j in "${jobs[@]}"; do
	dirs+=("$TOP/build/results/vm-ab-$(job_name "$j")")
done
"$TOP/bench/ab-report.py" "${plot[@]}" "$results_json" "$report_md" "${dirs[@]}" || rc=1
exit $rc
