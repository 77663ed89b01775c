#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check": everything, from a fresh clone.
#
#  1. series.tap     the series applies to pristine 6.12 and the kernel
#                    builds after every patch (bisectable)
#  2. static.tap     checkpatch --strict on patches/ and the project's
#                    kernel sources; the modules build with W=1
#  3. vm-selftests/  the selftests in a guest booted from that kernel
#
# Every step writes TAP into build/results; tools/tap-summary.py counts it
# all and prints the closing "N passed, N failed" line. A step that cannot
# run is a failure, never a silent skip.

. "$(dirname "$0")/lib.sh"

start=$(date +%s)
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
tap_files=()

tap_file() {
	tap_files+=("$RESULTS/$1")
	: >"$RESULTS/$1"
}

# 1. The series, patch by patch.
if ! "$TOP/tools/kernel-tree.sh" --build-each; then
	[ -f "$RESULTS/series.tap" ] || echo "not ok 1 - the kernel tree can be prepared" >"$RESULTS/series.tap"
fi
n=$(grep -c '^\(not \)\?ok' "$RESULTS/series.tap" || true)
sed -i "1i 1..$(grep -vc '^#' "$TOP/patches/series")" "$RESULTS/series.tap"
tap_files+=("$RESULTS/series.tap")
log "series: $n patches checked ($(( $(date +%s) - start )) s)"

# 2. Static checks and the out-of-tree modules.
tap_file static.tap
sources=$(cd "$TOP" && git ls-files 'drivers/*.[ch]' 'kernel/*.[ch]' 'tests/*.[ch]')
patches=$(grep -v '^#' "$TOP/patches/series" | grep .)
{
	echo "1..$(( $(echo "$sources" | grep -c .) + $(echo "$patches" | grep -c .) + 2 ))"
	i=0
	for p in $patches; do
		i=$((i + 1))
		if out=$("$KSRC/scripts/checkpatch.pl" --strict -q "$TOP/patches/$p" 2>&1); then
			echo "ok $i - checkpatch --strict: patches/$p"
		else
			echo "$out" | sed 's/^/# /'
			echo "not ok $i - checkpatch --strict: patches/$p"
		fi
	done
	for f in $sources; do
		i=$((i + 1))
		if out=$("$KSRC/scripts/checkpatch.pl" --strict -q --no-tree -f "$TOP/$f" 2>&1); then
			echo "ok $i - checkpatch --strict: $f"
		else
			echo "$out" | sed 's/^/# /'
			echo "not ok $i - checkpatch --strict: $f"
		fi
	done
	i=$((i + 1))
	if out=$("$TOP/tools/build-modules.sh" 2>&1) && ! echo "$out" | grep -q 'warning:'; then
		echo "ok $i - out-of-tree modules build with W=1, no warnings"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $i - out-of-tree modules build with W=1, no warnings"
	fi
	i=$((i + 1))
	if out=$(kmake -s M="$TOP" CONFIG_CPU_IDLE_GOV_BUDGET=m C=2 modules 2>&1) &&
	   ! echo "$out" | grep -Eq 'warning:|error:'; then
		echo "ok $i - sparse (C=2) reports nothing on the governor"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $i - sparse (C=2) reports nothing on the governor"
	fi
} >"$RESULTS/static.tap"
log "static checks done ($(( $(date +%s) - start )) s)"

# 3. The guest.
tap_file vm.tap
{
	echo "1..1"
	if "$TOP/tools/vm-run.sh" --quiet --name selftests --timeout 1200 \
		"$TOP/tests/guest/selftests.sh"; then
		echo "ok 1 - guest selftest run: booted, finished, kernel log clean"
	else
		echo "not ok 1 - guest selftest run: booted, finished, kernel log clean"
	fi
} >"$RESULTS/vm.tap" 2>&1
# A selftest that left no TAP behind (the guest died first) is a failure.
for t in "$TOP"/tests/selftests/cpuidle_budget/*.sh cpu-hotplug; do
	name=$(basename "$t" .sh)
	[ "$name" = lib ] && continue
	f=$RESULTS/vm-selftests/$name.tap
	[ -s "$f" ] || printf '1..1\nnot ok 1 - %s ran in the guest\n' "$name" >"$f"
	tap_files+=("$f")
done
log "guest done ($(( $(date +%s) - start )) s)"

for t in "${tap_files[@]}"; do
	echo "# ---- ${t#"$TOP"/}"
	cat "$t"
done
echo "# make check took $(( $(date +%s) - start )) s"
python3 "$TOP/tools/tap-summary.py" "${tap_files[@]}"
