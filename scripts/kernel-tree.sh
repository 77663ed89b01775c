#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare build/linux: Debian's linux-source-6.12 committed pristine in a
# git repository (tag "pristine"), with the series patches/series names
# applied by "git am" in that order (series_patches in lib.sh).
#
# The tree is reused only when it is exactly what the current series
# produces: its HEAD is the commit recorded for this series id (a hash of
# the series file and every patch in it) and "git status" is clean. A
# stale series, stray files or a half-applied "git am" of this script's
# is reset to the pristine commit and the series is applied again. Work
# of a developer's (commits the script did not make, edits to tracked
# files) stops it with a pointer to scripts/export-patches.sh, unless
# DISCARD_KERNEL_WORK=1. The pristine commit itself is rebuilt when the
# tarball changes.
#
# How much is built (a TAP line per patch in $RESULTS/series.tap, or
# series-NAME.tap with --alone; on failure it ends with its "not ok"):
#   (default)     nothing: every patch applies ("P applies")
#   --build-last  every patch applies, then the kernel is built once, at
#                 the last patch (one more line): what make check does
#   --build-each  the kernel is built after every patch ("P applies and
#                 the kernel builds"): bisectability, make bisect
# Objects live in build/kobj, outside the tree, so resets cost only what
# ccache misses. --build-each's per-patch results are kept under a build
# id (build_id: the series, the configs, the build scripts, the compiler,
# the flavour, the mode) and reused, whichever application of the series
# the tree is, while that id holds; the last patch is always built in
# this run, so a build that fails now fails now.
#
# With --alone NAME, only series NAME (patches/NAME, or a list of some of
# a series' patches, see series_patches in lib.sh) is applied to the
# pristine tree, built as the mode says, to show that it applies (and
# builds) without the others; its TAP lines go to $RESULTS/series-NAME.tap
# ("/" in NAME as "-"). KOBJ and STAGE in the environment put that build
# elsewhere (make baseline: the bench's kernel without the series).
# The tree is left at that series, so the next plain run applies the full
# series again. The result is kept under its build id and a run with
# that build id reuses it without touching the tree (make check: the
# same patches, configs, scripts and compiler build the same way, and
# redoing it would throw away the full tree that the test kernel is built
# from). With --tree, the caller needs build/linux at series NAME, and
# its build, afterwards (make baseline builds modules against them): a
# tree at NAME already is kept and built (make's no-op when nothing
# changed), any other is applied again.
#
# build/linux/.git/cpuidle-budget-series says which series the tree is
# (its series id and HEAD), written once every patch applied.

. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"

mode=apply
alone=
need_tree=0
usage="usage: $0 [--build-each | --build-last] [--alone SERIES [--tree]]"
while [ $# -gt 0 ]; do
	case $1 in
	--build-each|--build-last)
		[ $mode = apply ] || die "$usage"
		mode=${1#--build-} ;;
	--alone) [ -n "${2:-}" ] || die "--alone needs a series name"
		alone=$2; shift ;;
	--tree) need_tree=1 ;;
	*) die "$usage" ;;
	esac
	shift
done
[ $need_tree = 0 ] || [ -n "$alone" ] || die "$usage"
# NAME as one word for file names.
alone_tag=${alone//\//-}
# Where the per-patch TAP lines go.
tap_out=$(series_result "$alone")
[ -z "$alone" ] || series_patches "$alone" >/dev/null || exit 1
# The kernel build at each patch; tests/host/kernel-tree.sh puts a fake
# one here.
BUILD_KERNEL=${BUILD_KERNEL:-$TOP/scripts/build-kernel.sh}

git_k() {
	git -C "$KSRC" -c user.name="$PROJECT_IDENT" \
		-c user.email="$PROJECT_EMAIL" "$@"
}

tarball_id() {
	# Size and mtime identify the installed package's tarball cheaply.
	stat -c '%s-%Y' "$KERNEL_TARBALL"
}

makefile_version() {
	awk -F' *= *' '/^VERSION =/ {v=$2} /^PATCHLEVEL =/ {p=$2}
		/^SUBLEVEL =/ {s=$2} END {print v "." p "." s}' "$1/Makefile"
}

make_pristine() {
	[ -r "$KERNEL_TARBALL" ] ||
		die "$KERNEL_TARBALL not found: install Debian's linux-source-$KERNEL_EXPECTED (make deps)"
	log "unpacking $KERNEL_TARBALL"
	rm -rf "$KSRC" "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	tar -xf "$KERNEL_TARBALL" -C "$KSRC.tmp" --strip-components=1
	local found
	found=$(makefile_version "$KSRC.tmp")
	case "$found" in
	"$KERNEL_EXPECTED".*) ;;
	*)	rm -rf "$KSRC.tmp"
		die "$KERNEL_TARBALL contains Linux $found; the series targets $KERNEL_EXPECTED.y" ;;
	esac
	mv "$KSRC.tmp" "$KSRC"
	log "committing pristine Linux $found"
	git_k init -q
	# -f: Debian's top-level .gitignore ignores everything ("/*").
	git_k add -A -f .
	git_k commit -q -m "Linux $found (Debian linux-source-$KERNEL_EXPECTED)"
	git_k tag -a -m "source $(tarball_id)" pristine
}

# The series (all, or the one --alone names) and the test-kernel config:
# per-patch build results are only valid for both.
series_id() {
	series_hash "$alone"
}

# Everything the per-patch build results depend on besides the tree: the
# series and configs (series_id), the build scripts, the compiler and
# make, the flavour (DEBUG) and where the objects are (KOBJ). A cached
# result is only reused under the same build id.
build_id() {
	(series_id
	 echo "DEBUG=${DEBUG:-0} KOBJ=$KOBJ mode=$mode"
	 cat "$BUILD_KERNEL" "$TOP/scripts/lib.sh" "$TOP/scripts/kernel-config-check.sh"
	 gcc --version | head -1
	 make --version | head -1) | sha256sum | cut -c1-16
}

tree_state_file() {
	echo "$KSRC/.git/cpuidle-budget-series"
}

# Per-patch results of the run that applied the series in this mode
# (--build-each), or of the last --alone run of that series in this mode.
series_tap() {
	echo "$KSRC/.git/cpuidle-budget-series${alone:+-alone-$alone_tag}-$mode.tap"
}

pristine_ok() {
	[ -d "$KSRC/.git" ] || return 1
	[ "$(git_k tag -l --format='%(contents:subject)' pristine)" = \
	  "source $(tarball_id)" ]
}

tree_up_to_date() {
	local want
	want="$(series_id) $(git_k rev-parse HEAD)"
	[ -f "$(tree_state_file)" ] && [ "$(cat "$(tree_state_file)")" = "$want" ] &&
		[ -z "$(git_k status --porcelain --ignored)" ] &&
		[ ! -d "$KSRC/.git/rebase-apply" ]
}

# A developer's work in the tree (README, "Editing the patches"): commits
# that neither this script nor scripts/export-patches.sh recorded, or edits
# to tracked files. A reset would throw it away, so the script stops
# instead, unless DISCARD_KERNEL_WORK=1. Untracked files are no work of
# anyone's: Debian's tree ignores everything, and a new file counts once
# it is committed.
applied_file() {
	echo "$KSRC/.git/cpuidle-budget-applied"
}
own_head() {
	local head
	head=$(git_k rev-parse HEAD) || return 1
	[ "$head" = "$(git_k rev-parse 'pristine^{commit}')" ] ||
		grep -qx "$head" "$(applied_file)" 2>/dev/null ||
		grep -q " $head\$" "$(tree_state_file)" 2>/dev/null
}
keep_work() {
	[ -d "$KSRC/.git" ] && [ "${DISCARD_KERNEL_WORK:-0}" != 1 ] || return 0
	if [ -d "$KSRC/.git/rebase-merge" ] || ! own_head || ! git_k diff --quiet HEAD; then
		die "$KSRC holds work that is not in patches/ (commits of its own, or edits): export it with scripts/export-patches.sh, or run again with DISCARD_KERNEL_WORK=1 to throw it away"
	fi
}

if ! pristine_ok; then
	keep_work
	make_pristine
fi

total=$(series_patches "$alone" | grep -c .)

# build_log N: the log of the build at patch N (of this run's series;
# N = total + 1 for --build-last's one build).
build_log() {
	echo "$RESULTS/build${alone:+-$alone_tag}-$1.log"
}

# build_at N DESCRIPTION TAP WHERE: the kernel built now into build_log N,
# its TAP line N appended to TAP, which becomes $tap_out. Options that later
# patches add (or, alone, the other series) may be missing from the test
# config, except at the full series' last patch. Exits with an error if
# it does not build.
build_at() {
	local n=$1 desc=$2 tap=$3 where=$4 undefined_ok=1 rc=0
	[ -z "$alone" ] && [ "$n" -ge "$total" ] && undefined_ok=0
	CONFIG_UNDEFINED_OK=$undefined_ok "$BUILD_KERNEL" >"$(build_log "$n")" 2>&1 </dev/null ||
		rc=1
	tap_line "$n" $rc "$desc" >>"$tap"
	cp "$tap" "$tap_out"
	[ $rc = 0 ] && return 0
	tail -30 "$(build_log "$n")" >&2
	die "the kernel does not build $where (see $(build_log "$n"))"
}

# What --build-last builds: "with series NAME alone" or "with the whole
# series".
last_what() {
	if [ -n "$alone" ]; then
		echo "with series $alone alone"
	else
		echo "with the whole series"
	fi
}
# last_build TAP: --build-last's one build, TAP line total + 1.
last_build() {
	build_at $((total + 1)) "the kernel builds $(last_what)" "$1" "$(last_what)"
}

# series_comment PATCH PREVIOUS: the comment that opens PATCH's series
# in the TAP, when PATCH starts one (PREVIOUS: the series of the patch
# before it, empty for the first).
series_comment() {
	[ "${1%%/*}" != "$2" ] || return 0
	if [ -n "$alone" ]; then
		echo "# series $alone alone on pristine $KERNEL_EXPECTED"
	elif [ -z "$2" ]; then
		echo "# series ${1%%/*} on pristine $KERNEL_EXPECTED (as alone)"
	else
		echo "# series ${1%%/*} on top of the series before it"
	fi
}

# This run's TAP lines, published to $tap_out as they come; a plain run
# that builds nothing (make tree and the targets on it) publishes only a
# failure, leaving make check's series.tap alone.
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
publish() {
	[ $mode = apply ] && [ -z "$alone" ] || cp "$tap" "$tap_out"
}

# cached_each FILE: the results of patches 1..total-1 of a --build-each
# run under this build id into FILE; fails unless there are such results
# and every one passed. They hold whichever application of the series
# the tree is now: the build id covers everything that decides them.
cached_each() {
	[ $mode = each ] && [ -f "$(series_tap)" ] &&
		[ "$(head -1 "$(series_tap)")" = "# build id $(build_id)" ] || return 1
	awk -v last="$total" '/^(not )?ok [0-9]+ / && $2 + 0 < last' "$(series_tap)" >"$1"
	[ "$(grep -c '^ok ' "$1")" = $((total - 1)) ]
}

# each_from_cache: the cached results of patches 1..total-1, then the
# last patch built now.
each_from_cache() {
	local last
	last=$(series_patches "$alone" | tail -1)
	echo "# patches 1..$((total - 1)): cached results of build id $(build_id)" >>"$tap"
	log "per-patch results cached for build id $(build_id): building the last patch"
	build_at "$total" "$last applies and the kernel builds" "$tap" "at patches/$last"
}

mkdir -p "$RESULTS"
if [ -n "$alone" ] && [ $need_tree = 0 ] && [ -f "$(series_tap)" ] &&
   [ "$(head -1 "$(series_tap)")" = "# build id $(build_id)" ]; then
	log "series $alone alone: results of build id $(build_id) kept, tree untouched"
	{ tail -n +2 "$(series_tap)"
	  echo "# series $alone alone: results kept from the run of build id $(build_id)"
	} >"$tap_out"
	exit 0
fi

if tree_up_to_date; then
	log "build/linux is up to date with ${alone:+series $alone of }patches/ ($(series_id))"
	if [ $mode != each ]; then
		# The state file is written only once every patch of this
		# series id applied: each one did.
		n=0 series=
		while read -r patch; do
			n=$((n + 1))
			series_comment "$patch" "$series"
			series=${patch%%/*}
			tap_line "$n" 0 "$patch applies"
		done < <(series_patches "$alone") >"$tap"
		echo "# applied by an earlier run: the tree is this series ($(series_id))" >>"$tap"
		publish
		[ $mode = apply ] || last_build "$tap"
		exit 0
	fi
	if cached_each "$tap"; then
		each_from_cache
		exit 0
	fi
	log "no per-patch build results for this tree and build id: applying again"
fi

use_cache=0
cached_each "$tap" && use_cache=1
keep_work
log "applying ${alone:+series $alone of }patches/ to the pristine tree"
rm -f "$(tree_state_file)"
[ $use_cache = 1 ] || rm -f "$(series_tap)"
[ -d "$KSRC/.git/rebase-apply" ] && git_k am --abort || true
git_k reset -q --hard pristine
git_k clean -q -fdx
[ $use_cache = 1 ] || : >"$tap"
n=0
series=
while read -r patch; do
	n=$((n + 1))
	[ $use_cache = 1 ] || series_comment "$patch" "$series" >>"$tap"
	series=${patch%%/*}
	if ! git_k am -q "$PATCHES/$patch"; then
		git_k am --abort || true
		tap_line "$n" 1 "$patch applies" >>"$tap"
		cp "$tap" "$tap_out"
		die "patches/$patch does not apply"
	fi
	git_k rev-parse HEAD >>"$(applied_file)"
	if [ $use_cache = 1 ]; then
		continue
	elif [ $mode = each ]; then
		build_at "$n" "$patch applies and the kernel builds" "$tap" "at patches/$patch"
	else
		tap_line "$n" 0 "$patch applies" >>"$tap"
	fi
done < <(series_patches "$alone")
# The last few hundred commits made are enough to recognise the tree's.
tail -n 500 "$(applied_file)" >"$(applied_file).tmp" && mv "$(applied_file).tmp" "$(applied_file)"
# What the tree is now: the full series, or series NAME alone, so that the
# next run of another knows to apply again.
echo "$(series_id) $(git_k rev-parse HEAD)" >"$(tree_state_file)"
if [ $use_cache = 1 ]; then
	each_from_cache
else
	[ $mode != last ] || last_build "$tap"
	# Every build passed (build_at exits otherwise): the results are
	# kept under this build id, for the next run in this mode.
	{ echo "# build id $(build_id)"; cat "$tap"; } >"$(series_tap)"
	publish
fi
log "applied $n patches${alone:+ (series $alone alone)}"
