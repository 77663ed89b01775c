#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/kernel-tree.sh on a small fake kernel tarball and a fake series:
# the version check, the pristine commit, "git am" in series order, reuse
# of an up-to-date tree, and reset of a dirty, stale or half-applied one.
# Runs on the host in a few seconds (no kernel build).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"

# fake_tarball NAME VERSION PATCHLEVEL: a "linux-source" tarball.
fake_tarball() {
	local d=$work/src-$1
	mkdir -p "$d/linux-source-x/drivers"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 7\nEXTRAVERSION =\n' \
		"$2" "$3" >"$d/linux-source-x/Makefile"
	printf 'one\ntwo\nthree\n' >"$d/linux-source-x/drivers/file.c"
	# Debian's tree ignores everything at the top level.
	printf '/*\n' >"$d/linux-source-x/.gitignore"
	tar -C "$d" -cJf "$work/$1.tar.xz" linux-source-x
}

# A two-patch series against the fake tree, made with git format-patch.
make_series() {
	local g=$work/series-src
	mkdir -p "$work/patches"
	rm -rf "$g" && mkdir -p "$g" && tar -C "$g" -xf "$work/good.tar.xz" --strip-components=1
	git -C "$g" init -q && git -C "$g" add -A -f . &&
		git -C "$g" -c user.name=t -c user.email=t@t commit -qm base
	sed -i 's/two/TWO/' "$g/drivers/file.c"
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "first: TWO"
	echo four >>"$g/drivers/file.c"
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "second: four"
	git -C "$g" format-patch -q -2 -o "$work/patches"
	(cd "$work/patches" && ls 0*.patch) >"$work/patches/series"
}

tree() {
	KERNEL_TARBALL=$work/${TARBALL:-good}.tar.xz KSRC=$work/linux \
		PATCHES=$work/patches RESULTS=$work/results \
		"$TOP/tools/kernel-tree.sh" "$@" >"$work/out" 2>&1
}

fake_tarball good 6 12
fake_tarball old 6 1
make_series

refuses_wrong_version() {
	! TARBALL=old tree && grep -q "contains Linux 6.1.7; the series targets 6.12" "$work/out"
}
ok "a tarball of another version is refused, naming both versions" refuses_wrong_version

applies() {
	tree && [ "$(git -C "$work/linux" log --format=%s | head -2 | tr '\n' ,)" = "second: four,first: TWO," ] &&
		git -C "$work/linux" rev-parse -q --verify pristine >/dev/null
}
ok "pristine commit tagged, the series applied in order" applies

head=$(git -C "$work/linux" rev-parse HEAD 2>/dev/null)
reuses() {
	tree && grep -q "up to date" "$work/out" && [ "$(git -C "$work/linux" rev-parse HEAD)" = "$head" ]
}
ok "an up-to-date tree is reused as it is" reuses

dirty_reset() {
	echo local-edit >>"$work/linux/drivers/file.c"
	tree && ! grep -q local-edit "$work/linux/drivers/file.c" && grep -q "applying" "$work/out"
}
ok "a tree with a local edit is reset and the series applied again" dirty_reset

untracked_reset() {
	touch "$work/linux/drivers/stray.o"
	tree && [ ! -e "$work/linux/drivers/stray.o" ]
}
ok "an untracked (even ignored) file makes the tree stale" untracked_reset

stale_series() {
	printf '%s\n' "$(head -1 "$work/patches/series")" >"$work/patches/series"
	tree && [ "$(git -C "$work/linux" log -1 --format=%s)" = "first: TWO" ]
}
ok "a changed series is applied afresh" stale_series

bad_patch() {
	sed -i 's/^-two/-zwei/' "$work/patches/0001-"*.patch
	! tree && grep -q "0001-.* does not apply" "$work/out" &&
		[ ! -d "$work/linux/.git/rebase-apply" ]
}
ok "a patch that does not apply fails, naming it, with no git am left half-done" bad_patch

after_failure() {
	make_series
	tree && [ "$(git -C "$work/linux" log -1 --format=%s)" = "second: four" ]
}
ok "after a failed run, the next run rebuilds the tree" after_failure

done_testing
