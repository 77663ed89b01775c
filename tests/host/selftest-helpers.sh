#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest selftests' helpers on the host, fed no data: they must fail
# where the kernel's KTAP helpers pass.
#
#  - tests/selftests/cpuidle_budget_lib/ktap.sh: ktap_test_result on a comparison of two
#    empty values fails (the kernel's passes it: "if $@" drops the empty
#    arguments, and [ -gt ] is true); is_count and is_number refuse what
#    is no number; ktap_load_case_fail fails but on a KASAN kernel;
#  - tests/selftests/cpuidle_budget_lib/debugfs.sh: the tables read by column name, a
#    missing column or table an error, not another column's values;
#  - tests/selftests/sched_hybrid/lib.sh: a placement summary that is
#    missing, lacks the task class, has too few of its tasks or too little
#    runtime fails the positive control (ran) and gives no share, where the
#    old share() read a missing class as 0.0 and so passed the baseline
#    ("E share <= 50%").
#  - tests/selftests/cpuidle_budget_lib/sporadic.c (the bench's seeded
#    wake-ups), built here: its sequence (-n) repeats for a seed and
#    differs for another; periodic times are a period apart from a phase
#    inside the first period; exponential pauses have the mean asked for
#    and none beyond ten times it; trains (-t) keep their gap; bad
#    arguments are refused.
#
# Needs build/linux (the kernel's ktap_helpers.sh): make check runs it
# after the series step.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch
export CB_TOP=$TOP KSRC
# The kernel's KTAP helpers, which ktap.sh finds next to it in a selftests tree.
export KSELFTEST_DIR=$KSRC/tools/testing/selftests/kselftest

# ktap_of SCRIPT...: the KTAP result lines a shell prints running SCRIPT
# (bash code) with tests/selftests/cpuidle_budget_lib/ktap.sh sourced, or the kernel's
# helpers alone when KERNEL=1.
ktap_of() {
	local helpers=$TOP/tests/selftests/cpuidle_budget_lib/ktap.sh
	[ "${KERNEL:-0}" = 1 ] && helpers=$KSRC/tools/testing/selftests/kselftest/ktap_helpers.sh
	bash -c ". '$helpers'; $1" 2>/dev/null | grep -E '^(not )?ok'
}

# The empty values pressure.sh compared when its counters were not read.
empty_gt='a= b=; ktap_test_result "deeper1 > deeper0" [ "$a" -gt "$b" ]'
kernel_passes_empty() {
	[ "$(KERNEL=1 ktap_of "$empty_gt")" = "ok 1 deeper1 > deeper0" ]
}
ok "the kernel's ktap_test_result passes [ \"\" -gt \"\" ] (the defect)" kernel_passes_empty
ours_fails_empty() {
	[ "$(ktap_of "$empty_gt")" = "not ok 1 deeper1 > deeper0" ]
}
ok "tests/selftests/cpuidle_budget_lib/ktap.sh's ktap_test_result fails it" ours_fails_empty

counts() {
	[ "$(ktap_of 'ktap_test_result c is_count 0 12 4294967295
		ktap_test_result e is_count "" 3
		ktap_test_result m is_count -1
		ktap_test_result w is_count "1 2"
		ktap_test_result n is_number 97.25 0.0 3
		ktap_test_result x is_number 1e-06')" = "$(printf '%s\n' "ok 1 c" "not ok 2 e" \
		"not ok 3 m" "not ok 4 w" "ok 5 n" "not ok 6 x")" ]
}
ok "is_count and is_number take numbers only: not empty, negative, two words, 1e-06" counts

# A load case that failed: failed on this (KASAN-less) host's kernel
# check, skipped only with KASAN_KERNEL=1, never passed.
load_case() {
	[ "$(ktap_of 'ktap_load_case_fail "light on E"
		KASAN_KERNEL=1; ktap_load_case_fail "heavy on P"')" = "$(printf '%s\n' \
		"not ok 1 light on E" \
		"ok 2 heavy on P (KASAN kernel: its instrumented kernel work breaks the load's premise) # SKIP")" ]
}
ok "ktap_load_case_fail fails, and skips (never passes) only on a KASAN kernel" load_case

# Placement summaries as tools/sched-placement --json writes them.
export OUT=$T
cat >"$T/good.json" <<'JSON'
{"duration_s": 6.0, "classes": {
 "light-0": {"tasks": 4, "runtime_s": 2.31, "share_pct": {"P": 97.5, "E": 2.5},
             "migrations": 3, "migrations_per_s": 0.125, "runnable_wait_s": 0.01},
 "heavy-0": {"tasks": 2, "runtime_s": 11.9, "share_pct": {"P": 100.0},
             "migrations": 0, "migrations_per_s": 0.0, "runnable_wait_s": 0.0}}}
JSON
# The run whose light tasks never started: only a stray class.
cat >"$T/no-light.json" <<'JSON'
{"duration_s": 6.0, "classes": {
 "sh": {"tasks": 1, "runtime_s": 0.01, "share_pct": {"P": 100.0},
        "migrations": 0, "migrations_per_s": 0.0, "runnable_wait_s": 0.0}}}
JSON

# sched NAME: runs bash code with ktap.sh and sched_hybrid/lib.sh sourced;
# its standard output in T/out.
sched() {
	bash -c ". '$TOP/tests/selftests/cpuidle_budget_lib/ktap.sh'; . '$TOP/tests/selftests/sched_hybrid/lib.sh'; $1" \
		>"$T/out" 2>&1
}

good_summary() {
	sched 'ran good light-0 4 1.2 && [ "$(share good light-0 E)" = 2.5 ] &&
		[ "$(share good heavy-0 E)" = 0.0 ] &&
		[ "$(field good heavy-0 migrations_per_s)" = 0.0 ] &&
		at_least 50 "$(share good light-0 E)"'
}
ok "a summary with the class: ran passes, shares read (0.0 on a type never used)" good_summary

# The baseline of placement.sh as it was: the share of a missing class
# read as 0.0, which is "at most 50% on E-cores".
old_share() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["classes"].get(sys.argv[2], {})
print(c.get("share_pct", {}).get(sys.argv[3], 0.0))' "$T/$1.json" "$2" "$3"
}
old_baseline_passes() {
	awk -v v=50 -v l="$(old_share no-light light-0 E)" 'BEGIN { exit !(v >= l) }'
}
ok "the old share() passes the baseline on a summary without the class (the defect)" \
	old_baseline_passes

missing_class() {
	! sched 'ran no-light light-0 4 1.2' && ! sched 'share no-light light-0 E' &&
		! sched 'at_least 50 "$(share no-light light-0 E)"' &&
		grep -q "not a number" "$T/out"
}
ok "a summary without the class: ran fails, no share, the baseline comparison fails" \
	missing_class

missing_json() {
	! sched 'ran nothing light-0 4 1.2' && ! sched 'share nothing light-0 E' &&
		! sched 'at_least 50 "$(share nothing light-0 E)"'
}
ok "no summary at all: ran fails, no share, the baseline comparison fails" missing_json

too_little() {
	! sched 'ran good light-0 5 1.2' && ! sched 'ran good light-0 4 2.4'
}
ok "fewer tasks than started, or less than half their runtime: ran fails" too_little

# tests/selftests/cpuidle_budget_lib/debugfs.sh on a table like x86/fake_hybrid's, with the
# columns in another order than the scripts ask for them.
cat >"$T/table" <<'TABLE'
cpu capacity type priority
0 1024 P 64
1 1024 P 64
2 605 E 32
TABLE
tables_by_name() {
	sched "HYBRID=$T/table"'
		[ "$(table_col $HYBRID type | paste -sd,)" = P,P,E ] &&
		[ "$(table_col $HYBRID capacity 2)" = 605 ] &&
		[ "$(table_cols $HYBRID type priority | paste -sd,)" = "P 64,P 64,E 32" ] &&
		[ "$(table_sum $HYBRID capacity)" = 2653 ] &&
		[ "$(core_type_cpus P)" = 0,1 ]'
}
ok "debugfs tables read by column name, in any order; core types from them" tables_by_name

unknown_column() {
	! sched "table_col $T/table type2" && [ ! -s "$T/out" ] &&
		! sched "table_cols $T/table cpu type2" && [ ! -s "$T/out" ] &&
		! sched "table_sum $T/table type2" &&
		! sched "table_col $T/nosuch cpu"
}
ok "a column not in the header, or no table: nothing read, failure" unknown_column

SPORADIC=$T/sporadic
gcc -O2 -Wall -Wextra -Werror -o "$SPORADIC" \
	"$TOP/tests/selftests/cpuidle_budget_lib/sporadic.c" -lm 2>"$T/cc.out" ||
	cat "$T/cc.out"
seeded() {
	[ -x "$SPORADIC" ] || return 1
	"$SPORADIC" -n 50 -s 7 0 0 1000 >"$T/s7a" && "$SPORADIC" -n 50 -s 7 0 0 1000 >"$T/s7b" &&
		"$SPORADIC" -n 50 -s 8 0 0 1000 >"$T/s8" &&
		[ "$(wc -l <"$T/s7a")" = 50 ] && cmp -s "$T/s7a" "$T/s7b" && ! cmp -s "$T/s7a" "$T/s8"
}
ok "sporadic: a seed repeats its wake-ups, another seed draws others" seeded

# Periodic, 1000 us: the first at a phase in 0..999 us, then 1000 us apart.
periodic() {
	"$SPORADIC" -p -n 20 -s 3 0 0 1000 | awk '
		NR == 1 { first = $1; ok = $1 >= 0 && $1 < 1000 }
		NR > 1 && $1 - prev != 1000 { ok = 0 }
		{ prev = $1 } END { exit !(ok && NR == 20) }'
}
ok "sporadic -p: periodic from a seeded phase within the first period" periodic

# Exponential, mean 1000 us, 20000 pauses: their mean within 3% of 1000
# (the mean's standard error is 0.7%), none over 10000 us, and about
# e^-1 of them (36.8%) longer than the mean.
exponential() {
	"$SPORADIC" -n 20000 -s 5 0 0 1000 | awk '
		{ d = $1 - prev; prev = $1; sum += d; if (d > max) max = d; if (d > 1000) long++ }
		END { m = sum / NR; f = long / NR
		      exit !(m > 970 && m < 1030 && max <= 10000 && f > 0.35 && f < 0.385) }'
}
ok "sporadic: exponential pauses of the mean asked for, none past ten times it" exponential

# Trains of 3, 300 us apart: within a train exactly 300 us; between the
# last of one and the first of the next an exponential pause (mean 40 ms:
# over 100 trains, between 30 and 50 ms on average).
trains() {
	"$SPORADIC" -n 300 -s 9 -t 3 -g 300 0 0 40000 | awk '
		{ d = $1 - prev; prev = $1 }
		NR % 3 != 1 && d != 300 { bad = 1 }
		NR % 3 == 1 && NR > 1 { sum += d; n++ }
		END { exit !(!bad && NR == 300 && n == 99 && sum / n > 30000 && sum / n < 50000) }'
}
ok "sporadic -t: trains of wake-ups a gap apart, pauses between them" trains

refused() {
	local args
	for args in "0 0 0" "0 0 x" "-s -1 0 0 10" "0 99999 10" "-b 5 0 0" "0 0 10 1 2" \
		"-t 3 0 0 10" "-t 0 -g 5 0 0 10"; do
		# shellcheck disable=SC2086 # one word per argument
		if "$SPORADIC" -n 1 $args >/dev/null 2>&1; then
			echo "# accepted: $args"
			return 1
		fi
	done
}
ok "sporadic: bad arguments are refused" refused

done_testing
