# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the sched_hybrid selftest and bench/sched.sh.
# Sourced, not run. The placement summary helpers (field, share, ran,
# at_least) read tools/sched-placement's JSON in $OUT and need ../cpuidle_budget_lib/ktap.sh;
# tests/host/selftest-helpers.sh runs them on the host.

TRACING=/sys/kernel/tracing
# The fake_hybrid= test hook's table (cpu type capacity priority), or,
# on a real hybrid CPU, one made of its core types (real_core_types).
HYBRID=${HYBRID:-/sys/kernel/debug/x86/fake_hybrid}
# Where a real hybrid CPU says which CPUs are of which type: the PMU
# devices of its core types, cpu_core/cpus and cpu_atom/cpus (CPU lists).
# Another directory of that shape stands in for them in a test of this
# path on a faked part (tests/guest/selftests.sh).
CPU_TYPES_DIR=${CPU_TYPES_DIR:-/sys/devices}
DUTY=$(dirname "${BASH_SOURCE[0]}")/dutycycle
# shellcheck source=tests/selftests/cpuidle_budget_lib/debugfs.sh
. "$(dirname "${BASH_SOURCE[0]}")/../cpuidle_budget_lib/debugfs.sh"

# real_core_types FILE: a table as the hook's, "cpu type" only, of the
# CPU's own core types (CPU_TYPES_DIR): P for cpu_core, E for cpu_atom.
# Fails, writing nothing, where they are not both there.
real_core_types() {
	local t dir
	for t in cpu_core cpu_atom; do
		[ -r "$CPU_TYPES_DIR/$t/cpus" ] || return 1
	done
	{
		echo "cpu type"
		for t in P:cpu_core E:cpu_atom; do
			dir=$CPU_TYPES_DIR/${t#*:}
			tr ',' '\n' <"$dir/cpus" | awk -v type="${t%%:*}" -F- \
				'NF { for (c = $1; c <= (NF > 1 ? $2 : $1); c++) print c, type }'
		done | sort -n
	} >"$1"
}

# hybrid_table COLUMN...: the fake_hybrid hook's table, these columns of
# every possible CPU, by name, one CPU a line.
hybrid_table() {
	table_cols $HYBRID "$@"
}

# core_type_cpus TYPE: the online CPUs the fake_hybrid hook made P or E,
# as a list ("2,3,4,5"). The hook lists every possible CPU; with SMT, the
# E-cores' second threads are offline.
core_type_cpus() {
	hybrid_table cpu type |
	awk -v t="$1" -v online="$(cat /sys/devices/system/cpu/online)" '
		BEGIN {
			n = split(online, r, ",")
			for (i = 1; i <= n; i++) {
				m = split(r[i], b, "-")
				for (c = b[1] + 0; c <= b[m] + 0; c++)
					on[c] = 1
			}
		}
		$2 == t && ($1 in on) { printf "%s%s", sep, $1; sep = "," }'
}

# hybrid_smt: the faked part has SMT P-cores (CPU 0 has a sibling online).
hybrid_smt() {
	[ "$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)" != 0 ]
}

# duty ARGS...: dutycycle ARGS, forked on an E-core (-s). A task forked on
# a P-core starts with a utilization above the E-core packing limit, which
# util_est can keep for a whole run under QEMU (dutycycle.c says why);
# started on an E-core, where it runs is the scheduler's choice alone.
duty() {
	"$DUTY" -s "$(core_type_cpus E)" "$@"
}

# release_gate N PID: once N dutycycle tasks wait at their gate (-g, named
# NAME-gate), release them together. Fails, releasing none, if more than N
# are there (a task left over), if PID (what starts them) ends first, or
# if they are not all there within about a minute.
release_gate() {
	local _ n
	for _ in $(seq 600); do
		n=$(pgrep -c -- '-gate$')
		[ "$n" -gt "$1" ] && return 1
		if [ "$n" = "$1" ]; then
			pkill -USR1 -- '-gate$'
			return
		fi
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# placement_trace_arm: stop and clear the trace, and enable the events
# tools/sched-placement reads; tracing_on stays 0 until the caller starts.
placement_trace_arm() {
	local e
	echo 0 >$TRACING/tracing_on
	echo >$TRACING/trace
	echo 16384 >$TRACING/buffer_size_kb
	for e in sched/sched_switch sched/sched_migrate_task sched/sched_wakeup \
		 sched/sched_wakeup_new task/task_rename; do
		echo 1 >$TRACING/events/$e/enable
	done
}

# The placement summaries (tools/sched-placement --json) of the runs, as
# $OUT/NAME.json.

# field NAME CLASS KEY [SUBKEY]: a value of the class in $OUT/NAME.json;
# nothing, and failure, when the summary, the class or the key is missing.
field() {
	python3 -c 'import json, sys
try:
    v = json.load(open(sys.argv[1]))["classes"][sys.argv[2]]
    for k in sys.argv[3:]:
        v = v[k]
except (OSError, ValueError, KeyError) as e:
    sys.exit("# no %s in %s: %r" % ("/".join(sys.argv[2:]), sys.argv[1], e))
print(v)' "$OUT/$1.json" "${@:2}"
}

# share NAME CLASS TYPE: the class's runtime share (%) on that core type;
# 0.0 when the class never ran there, nothing (and failure) when the class
# or the summary is missing.
share() {
	field "$1" "$2" share_pct >/dev/null || return 1
	field "$1" "$2" share_pct "$3" 2>/dev/null || echo 0.0
}

# ran NAME CLASS TASKS SECONDS: the positive control of a placement
# assertion: CLASS is in the summary of run NAME with TASKS tasks and at
# least SECONDS of runtime (half of what they were started for).
ran() {
	local tasks runtime
	tasks=$(field "$1" "$2" tasks) && runtime=$(field "$1" "$2" runtime_s) || return 1
	ktap_print_msg "$1: $2: $tasks tasks, ${runtime} s of runtime"
	[ "$tasks" = "$3" ] && at_least "$runtime" "$4"
}

# at_least VALUE LIMIT: both are numbers, and VALUE >= LIMIT.
at_least() {
	is_number "$1" "$2" && awk -v v="$1" -v l="$2" 'BEGIN { exit !(v >= l) }'
}
