#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-patches.sh [--check]
#
# Regenerate the patches listed in patches/overlay from the overlay: each
# keeps its commit message, author, date and its edits to existing files
# as written in patches/, and its diffs of the listed paths (new files)
# are made afresh from the project's working tree. With --check, write
# nothing and fail, naming the patch, when a committed patch differs from
# what the overlay gives (the "From <sha>" line aside).
#
# Works on build/linux's object store only (a private index, commit-tree):
# no checkout, no change to the kernel tree's working files.

. "$(dirname "$0")/lib.sh"

check=0
[ "${1:-}" = --check ] && check=1
[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC (make tree)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The kernel tree's commands use a private index; the project's do not.
# The diffs' "index" lines abbreviate to a fixed length: git's automatic
# one follows the object count, which a fresh tree and one that has had
# the series applied a few times do not share.
g() {
	GIT_INDEX_FILE=$tmp/index git -C "$KSRC" -c core.abbrev=$PATCH_ABBREV "$@"
}

overlay_paths() {
	awk -v p="$1" '$1 == p { $1 = ""; print }' "$PATCHES/overlay"
}

# commit_patch PARENT PATCHFILE [OVERLAY PATHS...]: a commit of PATCHFILE
# on PARENT, with the overlay paths taken from the working tree.
commit_patch() {
	local parent=$1 patch=$2 info subject author email date tree f mode
	shift 2
	g read-tree "$parent"
	if [ $# -gt 0 ]; then
		python3 "$TOP/scripts/patch-filter.py" "$@" <"$patch" >"$tmp/apply.patch"
	else
		cp "$patch" "$tmp/apply.patch"
	fi
	g apply --cached "$tmp/apply.patch" || die "$(basename "$patch") does not apply"
	[ $# -gt 0 ] || set -- /dev/null/none
	for f in $(cd "$TOP" && git ls-files -- "$@" 2>/dev/null); do
		mode=100644
		[ -x "$TOP/$f" ] && mode=100755
		g update-index --add --cacheinfo "$mode,$(g hash-object -w "$TOP/$f"),$f"
	done
	tree=$(g write-tree)
	info=$(g mailinfo "$tmp/msg" /dev/null <"$patch")
	subject=$(sed -n 's/^Subject: //p' <<<"$info")
	author=$(sed -n 's/^Author: //p' <<<"$info")
	email=$(sed -n 's/^Email: //p' <<<"$info")
	date=$(sed -n 's/^Date: //p' <<<"$info")
	{ echo "$subject"; echo; cat "$tmp/msg"; } >"$tmp/full"
	GIT_AUTHOR_NAME=$author GIT_AUTHOR_EMAIL=$email GIT_AUTHOR_DATE=$date \
	GIT_COMMITTER_NAME=$author GIT_COMMITTER_EMAIL=$email GIT_COMMITTER_DATE=$date \
		g commit-tree "$tree" -p "$parent" -F "$tmp/full"
}

parent=$(g rev-parse "pristine^{commit}")
drift=0
while read -r patch; do
	read -r -a paths <<<"$(overlay_paths "$patch")"
	parent=$(commit_patch "$parent" "$PATCHES/$patch" "${paths[@]}")
	[ ${#paths[@]} -gt 0 ] || continue
	g format-patch -1 --stdout -O"$PATCHES/orderfile" "$parent" >"$tmp/new.patch"
	if ! diff -q <(tail -n +2 "$PATCHES/$patch") <(tail -n +2 "$tmp/new.patch") >/dev/null; then
		if [ $check = 1 ]; then
			echo "patches/$patch differs from the overlay (run make patches):"
			diff -u <(tail -n +2 "$PATCHES/$patch") <(tail -n +2 "$tmp/new.patch") | head -40 || true
			drift=1
		else
			cp "$tmp/new.patch" "$PATCHES/$patch"
			log "regenerated patches/$patch"
		fi
	fi
done < <(series_patches)
exit $drift
