#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-run.sh against guests that behave well and badly: a clean run
# passes and returns the guest's output; a WARN, a BUG, an Oops, a bare
# Call Trace or a KASAN report in the kernel log, a guest that never
# finishes and a failing guest script each fail the run. Eight short
# boots of the test kernel (1 vCPU). tests/host/vm-log.sh checks the same
# verdict on hand-made logs for every kind of splat, without booting.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
probe=$TOP/tests/host/guest/runner-probe.sh
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
run() {
	"$TOP/scripts/vm-run.sh" --smp 1 --name "runner-$1" --timeout "${2:-120}" "$probe" "$1" \
		>"$TOP/build/results/runner-$1.out" 2>&1
}

clean_run() {
	run ok && grep -q "probe output" "$TOP/build/results/runner-ok.out" &&
		[ -e "$TOP/build/results/vm-runner-ok/probe-wrote-here" ]
}
ok "a clean guest run passes and returns the guest's output" clean_run

# splat_fails KIND: the probe's KIND of splat (written to /dev/kmsg) fails
# the run, and the report quotes it.
splat_fails() {
	! run "$1" && grep -q "kernel log shows a problem" "$TOP/build/results/runner-$1.out" &&
		grep -q "injected by vm-runner test" "$TOP/build/results/runner-$1.out"
}
ok "a WARNING in the guest's kernel log fails the run" splat_fails warn
ok "a BUG in the guest's kernel log fails the run" splat_fails bug
ok "an Oops in the guest's kernel log fails the run" splat_fails oops
ok "a Call Trace in the guest's kernel log fails the run" splat_fails calltrace
ok "a KASAN report in the guest's kernel log fails the run" splat_fails kasan

hang_fails() {
	! run hang 25 && grep -q "did not finish within 25s" "$TOP/build/results/runner-hang.out"
}
ok "a guest that does not finish in time fails the run" hang_fails

fail_fails() {
	! run fail && grep -q "guest script exit status: 3" "$TOP/build/results/runner-fail.out"
}
ok "a failing guest script fails the run" fail_fails

done_testing
