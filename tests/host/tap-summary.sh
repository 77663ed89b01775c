#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/tap-summary.py on hand-made TAP and KTAP files: each way a suite
# can "pass" without having run (skipped whole, no tests, a result
# printed twice or out of order, a missing suite, a suite-level "not ok"
# over passing cases, a top-level plan that does not match) must fail;
# good files pass with the counts worked out here, and skipped tests are
# listed. Runs on the host in a second.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# summary FILE...: tap-summary's output in T/out, its exit status returned.
summary() {
	python3 "$TOP/scripts/tap-summary.py" "$@" >"$T/out" 2>&1
}

# passes WANT FILE...: exit 0 and the closing line is WANT.
passes() {
	local want=$1
	shift
	summary "$@" && last_line_is "$want"
}

# fails WANT WHY FILE...: exit 1, the closing line is WANT and the report
# names WHY (an extended regular expression).
fails() {
	local want=$1 why=$2
	shift 2
	if ! summary "$@" && last_line_is "$want" && grep -Eq "$why" "$T/out"; then
		return 0
	fi
	sed 's/^/# /' "$T/out"
	return 1
}

last_line_is() {
	[ "$(tail -1 "$T/out")" = "$1" ] || { sed 's/^/# /' "$T/out"; return 1; }
}

# file NAME: standard input into T/NAME; prints the path.
file() {
	cat >"$T/$1"
	echo "$T/$1"
}

good_tap=$(file good.tap <<'EOF'
TAP version 13
1..3
ok 1 - one
# a comment
not ok 2 - two # TODO is still a failure here
ok 3 - three
EOF
)
# Plan at the end, as tests/host/lib.sh prints it; a skipped test.
plan_last=$(file plan-last.tap <<'EOF'
ok 1 - one
ok 2 - two # SKIP not here
1..2
EOF
)
ok "a TAP file: results counted, the failed one fails it" \
	fails "2 passed, 1 failed" "line 5: not ok 2" "$good_tap"
ok "plan at the end; a skipped test passes but is listed" \
	passes "1 passed, 0 failed, 1 skipped" "$plan_last"
listed() { grep -q "skipped: line 2: ok 2 - two # SKIP not here" "$T/out"; }
ok "... the skipped test's line is in the report" listed

# Item 16: a suite that skips whole, or plans nothing, did not run.
skip_all=$(file skip-all.tap <<'EOF'
TAP version 13
1..0 # SKIP needs fake_hybrid= and kernel.sched_itmt_efficiency_first
EOF
)
ok "a plan of 1..0 with a SKIP directive (a suite skipped whole) fails" \
	fails "0 passed, 1 failed" "skipped whole: 1..0 # SKIP needs fake_hybrid" "$skip_all"
no_tests=$(file no-tests.tap <<'EOF'
1..0
EOF
)
ok "1..0 without SKIP (no tests) fails" fails "0 passed, 1 failed" "plans no tests" "$no_tests"
empty=$(file empty.tap </dev/null)
ok "an empty file (no plan) fails" fails "0 passed, 1 failed" "no plan, 0 results" "$empty"
short=$(file short.tap <<'EOF'
1..3
ok 1 - one
ok 2 - two
EOF
)
ok "a plan of 3 with 2 results (died half-way) fails" \
	fails "2 passed, 1 failed" "plan 3 but 2 results" "$short"
bail=$(file bail.tap <<'EOF'
1..1
ok 1 - one
Bail out! modprobe failed
EOF
)
ok "Bail out! fails" fails "1 passed, 1 failed" "Bail out! modprobe failed" "$bail"
two_plans=$(file two-plans.tap <<'EOF'
1..1
ok 1 - one
1..1
EOF
)
ok "a second plan fails" fails "1 passed, 1 failed" "a second plan" "$two_plans"

# Item 20: numbers must run 1, 2, 3...
dup=$(file dup.tap <<'EOF'
1..3
ok 1 - one
ok 1 - one, again
ok 2 - two
EOF
)
ok "a duplicated test number fails (even with the plan's count of results)" \
	fails "3 passed, 2 failed" "line 3: test number 1, expected 2" "$dup"
order=$(file order.tap <<'EOF'
1..2
ok 2 - two
ok 1 - one
EOF
)
ok "test numbers out of order fail" \
	fails "2 passed, 2 failed" "line 2: test number 2, expected 1" "$order"
nonum=$(file nonum.tap <<'EOF'
1..1
ok - one
EOF
)
ok "a result without a number fails" fails "1 passed, 1 failed" "without a number" "$nonum"

# KTAP (KUnit): cases are the tests; suites have results and a plan too.
good_ktap=$(file good.ktap <<'EOF'
KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite_a
    # module: test_module
    1..2
    ok 1 case_one
        KTAP version 1
        # Subtest: case_two
        ok 1 case_two param 0
        ok 2 case_two param 1
    ok 2 case_two
# suite_a: pass:2 fail:0 skip:0 total:2
ok 1 suite_a
    KTAP version 1
    # Subtest: suite_b
    1..1
    ok 1 case_three # SKIP not on this machine
ok 2 suite_b
EOF
)
ok "a KTAP file: cases counted (parameters and suites not), skip listed" \
	passes "2 passed, 0 failed, 1 skipped" "$good_ktap"
suites_pass() {
	python3 "$TOP/scripts/tap-summary.py" --suites "$@" >"$T/out" ||
		{ sed 's/^/# /' "$T/out"; return 1; }
}
ok "--suites: both suites ran and passed" suites_pass "$good_ktap" suite_a suite_b

# Item 18: the suite count, suite-level results, missing suites.
missing_suite=$(file missing-suite.ktap <<'EOF'
KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite_a
    1..1
    ok 1 case_one
ok 1 suite_a
EOF
)
ok "KTAP: top-level plan 1..2 with one suite fails" \
	fails "1 passed, 1 failed" "plan 2 but 1 results" "$missing_suite"
only_a=$(file only-a.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..1
    ok 1 case_one
ok 1 suite_a
EOF
)
# suites_fail WHY FILE NAME...: --suites exits 1 and says WHY.
suites_fail() {
	local why=$1
	shift
	if ! python3 "$TOP/scripts/tap-summary.py" --suites "$@" >"$T/out" &&
		grep -q "$why" "$T/out"; then
		return 0
	fi
	sed 's/^/# /' "$T/out"
	return 1
}
ok "--suites: a suite not in the file (never ran) fails" \
	suites_fail "suite suite_b did not run" "$only_a" suite_a suite_b
suite_not_ok=$(file suite-not-ok.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_one
    ok 2 case_two
# suite_a: initialization failed
not ok 1 suite_a
EOF
)
ok "KTAP: a suite-level not ok over passing cases fails" \
	fails "2 passed, 1 failed" "not ok 1 suite_a \(its cases passed\)" "$suite_not_ok"
ok "--suites: a suite that ended not ok fails" \
	suites_fail "suite suite_a: not ok" "$suite_not_ok" suite_a
case_fails=$(file case-fails.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_one
    not ok 2 case_two
not ok 1 suite_a
EOF
)
ok "KTAP: a failed case fails once (its suite's not ok is not counted again)" \
	fails "1 passed, 1 failed" "not ok 2 case_two" "$case_fails"
suite_skipped=$(file suite-skipped.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..1
    ok 1 case_one # SKIP no hybrid CPU
ok 1 suite_a # SKIP no hybrid CPU
EOF
)
ok "KTAP: a suite skipped whole fails" \
	fails "0 passed, 1 failed, 1 skipped" "skipped whole" "$suite_skipped"
cases_short=$(file cases-short.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..3
    ok 1 case_one
    ok 2 case_two
ok 1 suite_a
EOF
)
ok "KTAP: a suite's case plan of 3 with 2 cases fails, naming the suite" \
	fails "2 passed, 1 failed" "suite suite_a: plan 3 but 2 results" "$cases_short"
cases_dup=$(file cases-dup.ktap <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_one
    ok 1 case_one
ok 1 suite_a
EOF
)
ok "KTAP: a duplicated case number fails" \
	fails "2 passed, 1 failed" "line 7: test number 1, expected 2" "$cases_dup"
no_top=$(file no-top.ktap <<'EOF'
    KTAP version 1
    # Subtest: suite_a
    1..1
    ok 1 case_one
EOF
)
ok "KTAP: cases with no suite result and no top-level plan fail" \
	fails "1 passed, 2 failed" "in no suite" "$no_top"

ok "several files add up, and any failure fails the whole" \
	fails "4 passed, 2 failed, 2 skipped" "skipped whole" "$plan_last" "$good_ktap" "$skip_all" \
	"$missing_suite"
ok "no file at all fails" fails "0 passed, 0 failed" "" 
missing_file() { fails "0 passed, 1 failed" "No such file" "$T/nonexistent.tap"; }
ok "a missing file fails" missing_file

done_testing
