#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/global-symbols.sh, the check that the governor's global symbols
# carry its prefix, on objects made here: it must refuse one stray global
# (the budget_* clash with drivers/media it exists for), accept what the
# governor may define, and not mistake static or undefined symbols for
# globals.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CHECK=$TOP/scripts/global-symbols.sh

# obj NAME C-SOURCE: compile C-SOURCE into $T/NAME.o.
obj() {
	printf '%s\n' "$2" >"$T/$1.c" && gcc -c -o "$T/$1.o" "$T/$1.c"
}

obj good 'int cpuidle_budget_pressure(void) { return 0; }
static int budget_helper(void) { return 1; }
extern int budget_elsewhere(void);
int __tracepoint_cpuidle_budget_select;
int __probestub_cpuidle_budget_select;
int init_module(void) { return budget_helper() + budget_elsewhere(); }
void cleanup_module(void) { }'
obj stray 'int cpuidle_budget_pressure(void) { return 0; }
int budget_pressure(void) { return 1; }'
obj event 'int __tracepoint_select;'

ok "the governor's own, prefixed tracepoints and module entry points pass" \
	"$CHECK" "$T/good.o"
ok "a global budget_pressure fails" \
	bash -c '! "$1" "$2" >/dev/null' _ "$CHECK" "$T/stray.o"
ok "it is named in the output" \
	bash -c '"$1" "$2" | grep -q "global symbol budget_pressure "' _ "$CHECK" "$T/stray.o"
ok "an unprefixed tracepoint (__tracepoint_select) fails" \
	bash -c '! "$1" "$2" >/dev/null' _ "$CHECK" "$T/event.o"
ok "one bad object among good ones fails the lot" \
	bash -c '! "$1" "$2" "$3" >/dev/null' _ "$CHECK" "$T/good.o" "$T/stray.o"
ok "a missing object is an error, not a pass" \
	bash -c '! "$1" "$2" 2>/dev/null' _ "$CHECK" "$T/none.o"
done_testing
