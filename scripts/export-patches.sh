#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export-patches.sh: write the work done in build/linux back to patches/.
#
# For editing the patches that change existing kernel files (README, "For
# kernel developers"): commit in build/linux, one commit per patch of
# patches/series (fold fixups in with "git rebase -i --autosquash
# pristine"), then run this. Each commit on pristine, in order, is written
# with git format-patch over the patch file patches/series names at that
# place (its file name kept); the new files a patch takes from the overlay
# (patches/overlay) are copied back from that patch's commit into the
# project's tree, so that the overlay stays their one source. Files a
# patch adds no more are named, for "git rm". Ends with gen-patches.sh's
# check that patches and overlay agree.
#
# The tree's HEAD is then recorded as exported: scripts/kernel-tree.sh
# replaces an exported tree with a fresh application of patches/ (the
# same commits' content), while it refuses to reset a tree that holds
# work not yet exported.

. "$(dirname "$0")/lib.sh"

[ $# = 0 ] || die "usage: $0 (no arguments: exports build/linux's HEAD)"
[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC (make tree)"
gk() {
	git -C "$KSRC" -c core.abbrev=$PATCH_ABBREV "$@"
}
if [ -d "$KSRC/.git/rebase-apply" ] || [ -d "$KSRC/.git/rebase-merge" ]; then
	die "a git am or rebase is in progress in $KSRC: finish or abort it first"
fi
gk diff --quiet HEAD ||
	die "$KSRC has uncommitted edits: commit them (git commit --fixup=<commit>) first"

mapfile -t commits < <(gk rev-list --reverse pristine..HEAD)
mapfile -t patches < <(series_patches)
[ ${#commits[@]} = ${#patches[@]} ] ||
	die "$KSRC has ${#commits[@]} commits on pristine and patches/series names ${#patches[@]} patches: export takes the full series, one commit per patch (git rebase -i --autosquash pristine folds fixups in)"

overlay_paths() {
	[ ! -f "$PATCHES/overlay" ] ||
		awk -v p="$1" '$1 == p { $1 = ""; print }' "$PATCHES/overlay"
}
order=()
[ ! -f "$PATCHES/orderfile" ] || order=(-O "$PATCHES/orderfile")

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
changed=0
for i in "${!commits[@]}"; do
	c=${commits[$i]} p=${patches[$i]}
	subject=$(gk log -1 --format=%s "$c")
	case $subject in
	fixup!* | squash!* | amend!*)
		die "commit $c is \"$subject\": fold it in first (git rebase -i --autosquash pristine)" ;;
	esac
	gk format-patch -1 --stdout "${order[@]}" "$c" >"$tmp"
	# The "From <sha>" line changes with every rebase: not a change.
	if ! cmp -s <(tail -n +2 "$tmp") <(tail -n +2 "$PATCHES/$p"); then
		cp "$tmp" "$PATCHES/$p"
		log "updated patches/$p"
		changed=$((changed + 1))
	fi
	for path in $(overlay_paths "$p"); do
		while read -r f; do
			mkdir -p "$(dirname "$TOP/$f")"
			gk show "$c:$f" >"$tmp"
			cmp -s "$tmp" "$TOP/$f" && continue
			cp "$tmp" "$TOP/$f"
			log "updated $f (overlay of patches/$p)"
		done < <(gk ls-tree -r --name-only "$c" -- "$path")
		while read -r f; do
			[ -n "$(gk ls-tree --name-only "$c" -- "$f")" ] ||
				log "$f is no longer in patches/$p: git rm it"
		done < <(git -C "$TOP" ls-files -- "$path")
	done
done
log "$changed of ${#patches[@]} patches changed"
gk rev-parse HEAD >>"$KSRC/.git/cpuidle-budget-applied"
[ ! -f "$PATCHES/overlay" ] || "$TOP/scripts/gen-patches.sh" --check
