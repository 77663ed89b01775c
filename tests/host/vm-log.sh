#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The verdict of scripts/vm-run.sh (--check-log) on hand-made results
# directories: a clean boot log passes; each kind of kernel splat (WARN,
# BUG, Oops, a bare Call Trace, KASAN, UBSAN, a panic, a general
# protection fault, lockdep, RCU) fails the run, whether it is in the
# serial console log or only in the dmesg the guest saved; so does a guest
# script that failed or left no exit status. Booting nothing, this covers
# what tests/host/vm-runner.sh cannot afford a boot for each; that test
# checks the same path end to end in a guest. Runs on the host in seconds.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A clean boot and run, as the guest's console and dmesg show them.
clean_log() {
	cat <<'LOG'
[    0.000000] Linux version 6.12.57 (cpuidle-budget@bench) #1 SMP PREEMPT_DYNAMIC
[    0.912345] cpuidle: using governor menu
[    1.234567] emul_idle: layout 4p0e, 6 states
# guest: 6.12.57, 4 CPUs, running /work/tests/guest/selftests.sh
[    2.000000] KTAP version 1
[    2.000001] 1..1
[    2.000002]     # Subtest: cpuidle_budget_policy
[    2.000003]     ok 1 no_warning_without_pressure
[    2.000004] ok 1 cpuidle_budget_policy
[    3.000000] cpuidle_budget: DEBUG_ATOMIC_SLEEP and lockdep checks are on
LOG
}

# run_dir NAME CONSOLE_EXTRA DMESG_EXTRA RC: a results directory T/NAME
# with the clean log plus the extra lines (if any) in each file, and the
# guest's exit status RC ("none": no rc file).
run_dir() {
	local d=$T/$1
	mkdir -p "$d"
	{ clean_log; [ -z "$2" ] || printf '%s\n' "$2"; } >"$d/console.log"
	{ clean_log; [ -z "$3" ] || printf '%s\n' "$3"; } >"$d/dmesg"
	[ "$4" = none ] || echo "$4" >"$d/rc"
	echo "$d"
}

check_log() {
	"$TOP/scripts/vm-run.sh" --check-log "$1" >"$T/out" 2>&1
}

passes() {
	check_log "$(run_dir clean "" "" 0)" || { sed 's/^/# /' "$T/out"; return 1; }
}
ok "a clean kernel log and exit status 0 pass" passes

# fails_with NAME WHERE LINE: the LINE in the console log, the dmesg or
# both (WHERE) fails the run, and the report quotes it.
fails_with() {
	local d console='' dmesg=''
	case $2 in
	console) console=$3 ;;
	dmesg) dmesg=$3 ;;
	esac
	d=$(run_dir "$1" "$console" "$dmesg" 0)
	if ! check_log "$d" && grep -q "kernel log shows a problem" "$T/out" &&
	   grep -qF -- "${3#\[*\] }" "$T/out"; then
		return 0
	fi
	sed 's/^/# /' "$T/out"
	return 1
}

# One line per kind, each matching only its own pattern where the kernel
# allows (a KASAN report proper starts with "BUG: KASAN:"; the line here
# is the one KASAN adds to a general protection fault).
while IFS='|' read -r name line; do
	ok "$name in the console log fails the run" fails_with "$name-console" console "$line"
	ok "$name only in the saved dmesg fails the run" fails_with "$name-dmesg" dmesg "$line"
done <<'KINDS'
WARN|[    5.123456] WARNING: CPU: 1 PID: 93 at drivers/cpuidle/governors/budget/main.c:210 budget_select+0x1a/0x200
BUG|[    3.100000] BUG: sleeping function called from invalid context at kernel/sched/completion.c:111
Oops|[    3.200000] Oops: 0000 [#1] PREEMPT SMP NOPTI
a bare Call Trace|[    3.300000]  Call Trace:
KASAN|[    3.400000] KASAN: null-ptr-deref in range [0x0000000000000000-0x0000000000000007]
a KASAN report|[    3.450000] BUG: KASAN: slab-out-of-bounds in budget_select+0x1b4/0x200
UBSAN|[    3.500000] UBSAN: shift-out-of-bounds in kernel/sched/fair.c:123:4
a panic|[    3.600000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009
a general protection fault|[    3.700000] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP
lockdep|[    3.800000] WARNING: possible circular locking dependency detected
RCU|[    3.900000] WARNING: suspicious RCU usage
KINDS

script_failed() {
	! check_log "$(run_dir rc3 "" "" 3)" &&
		grep -q "guest script exit status: 3" "$T/out"
}
ok "a guest script that exited 3 fails the run" script_failed

no_rc() {
	! check_log "$(run_dir norc "" "" none)" &&
		grep -q "guest script exit status: missing" "$T/out"
}
ok "a guest that left no exit status fails the run" no_rc

done_testing
