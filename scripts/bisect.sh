#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bisect: every patch of every series built in order, the kernel
# built in full after each one (a full build is the final word: no
# guessing which objects a patch's headers reach). Each series of
# ALONE_SERIES (lib.sh) on pristine 6.12 alone, then the full series
# (patches/series) in its order: scripts/kernel-tree.sh --build-each.
# A patch that does not build fails its series there; the other series
# are still built, so one run names every break. TAP and build logs in
# build/bisect/ (BISECT_RESULTS), and there "state": this run's
# bisect_id, its verdict and date, which make check reports in one line.
# The last line is tap-summary's "N passed, N failed".
#
# Results are kept per series under their build id (kernel-tree.sh): a
# second run with nothing changed rebuilds only the full series' last
# patch. make check does not build patch by patch (it builds the final
# trees: the full series, and pm alone), so whoever changes patches/
# runs this before sending them.

. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"

start=$(date +%s)
# What is built, as it is now: patches edited during the run are not
# credited with its verdict.
id=$(bisect_id)
RESULTS=$BISECT_RESULTS
export RESULTS
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
taps=()
rc=0
for s in $ALONE_SERIES; do
	log "make bisect: series $s alone, every patch built"
	t=$(series_result "$s")
	series_run "$t" "$(series_count "$s")" --alone "$s" --build-each || rc=1
	taps+=("$t")
done
log "make bisect: the full series, every patch built"
series_run "$(series_result)" "$(series_count)" --build-each || rc=1
taps+=("$(series_result)")
verdict=passed
[ $rc = 0 ] || verdict=failed
took=$(( $(date +%s) - start ))
echo "$id $verdict $(date -u +%Y-%m-%dT%H:%MZ) ${took}s" >"$RESULTS/state"
log "make bisect $verdict in $took s"
python3 "$TOP/scripts/tap-summary.py" "${taps[@]}" || rc=1
exit $rc
