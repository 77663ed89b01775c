#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# global-symbols.sh OBJECT...
#
# The governor's global symbols must carry its prefix: built in (=y), its
# objects share one namespace with the whole kernel, where "budget_" is
# already drivers/media's DVB family. Lists every global symbol an OBJECT
# defines outside that prefix and fails if there is one. Allowed:
#   cpuidle_budget_*                     the governor's own
#   __tracepoint_cpuidle_budget_* etc.   what CREATE_TRACE_POINTS makes of
#                                        its events (named with the prefix)
#   init_module, cleanup_module          a module's entry points (=m only)

set -euo pipefail

[ $# -ge 1 ] || { echo "usage: global-symbols.sh OBJECT..." >&2; exit 2; }
allowed='^((__tracepoint_|__traceiter_|__probestub_|__SCK__tp_func_|__SCT__tp_func_)?cpuidle_budget_|(init|cleanup)_module$)'
bad=0
for obj in "$@"; do
	[ -f "$obj" ] || { echo "$obj: no such object" >&2; exit 2; }
	syms=$(nm -g --defined-only "$obj" | awk 'NF == 3 { print $3 }')
	while read -r sym; do
		[ -n "$sym" ] || continue
		if ! [[ $sym =~ $allowed ]]; then
			echo "$obj: global symbol $sym lacks the cpuidle_budget_ prefix"
			bad=1
		fi
	done <<<"$syms"
done
exit $bad
