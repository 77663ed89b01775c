#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bisect's scripts/bisect.sh on a scratch tree that really compiles:
# a small C program as the "kernel", two series of patches. A patch that
# breaks the build and a later one that mends it: the final tree builds
# (make check's --build-last passes), make bisect fails naming the
# broken patch, and still builds the other series. Its state file is
# what make check's one line (bisect_note) reports, for these patches
# only. The patches after a break count as failed: they were not built. A few seconds; no kernel build.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"

git_t() {
	git -C "$work/src" -c user.name=t -c user.email=t@t "$@"
}

# The scratch "kernel": a version the series accepts, and a program that
# make compiles with -Werror.
mkdir -p "$work/src/linux-source-x"
cat >"$work/src/linux-source-x/Makefile" <<'MK'
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 7
EXTRAVERSION =
prog: main.c
	$(CC) -Wall -Werror -o $@ main.c
MK
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$work/src/linux-source-x/main.c"
printf '/*\n' >"$work/src/linux-source-x/.gitignore"
tar -C "$work/src" -cJf "$work/linux.tar.xz" linux-source-x

# Series "a" (two patches) then "b" (one, which also applies alone).
# With BREAK=1, a's first patch leaves main.c unbuildable and its second
# mends it: the final tree is the same either way.
make_series() {
	local g=$work/src/g
	rm -rf "$g" "$work/patches"
	mkdir -p "$g" "$work/patches/a" "$work/patches/b"
	tar -C "$g" -xf "$work/linux.tar.xz" --strip-components=1
	git -C "$g" init -q && git -C "$g" add -A -f . &&
		git -C "$g" -c user.name=t -c user.email=t@t commit -qm base
	if [ "${BREAK:-0}" = 1 ]; then
		sed -i 's/return 0;/return zero;/' "$g/main.c"
	else
		sed -i 's/return 0;/return 0; \/* one *\//' "$g/main.c"
	fi
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "a one"
	sed -i 's/return .*;.*/return 0; \/* two *\//' "$g/main.c"
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "a two"
	git -C "$g" format-patch -q -2 -o "$work/patches/a"
	(cd "$work/patches/a" && ls 0*.patch) >"$work/patches/a/series"
	printf 'int helper(void)\n{\n\treturn 1;\n}\n' >"$g/helper.c"
	git -C "$g" add -f helper.c
	git -C "$g" -c user.name=t -c user.email=t@t commit -qm "b helper"
	git -C "$g" format-patch -q -1 -o "$work/patches/b"
	(cd "$work/patches/b" && ls 0*.patch) >"$work/patches/b/series"
	printf 'a\nb\n' >"$work/patches/series"
}

# The build at each patch: the scratch tree's make, in the tree.
cat >"$work/build-kernel.sh" <<SCRIPT
#!/bin/bash
echo "\$(git -C "$work/linux" log -1 --format=%s)" >>"$work/builds"
make -s -C "$work/linux"
SCRIPT
chmod +x "$work/build-kernel.sh"

# env_run COMMAND...: COMMAND with the scratch tree, series and build.
env_run() {
	BUILD=$work/build KSRC=$work/linux PATCHES=$work/patches \
		KERNEL_TARBALL=$work/linux.tar.xz RESULTS=$work/results \
		BISECT_RESULTS=$work/build/bisect BUILD_KERNEL=$work/build-kernel.sh \
		ALONE_SERIES=b "$@"
}
bisect() {
	rm -f "$work/builds"
	env_run "$TOP/scripts/bisect.sh" >"$work/out" 2>&1
}
# tap_of FILE: the result lines of make bisect's FILE, one a line.
tap_of() {
	grep -E '^(not )?ok' "$work/build/bisect/$1"
}
note() {
	env_run bash -c '. "$1/scripts/lib.sh" && bisect_note' _ "$TOP"
}

make_series
a1=a/$(head -1 "$work/patches/a/series")
a2=a/$(tail -1 "$work/patches/a/series")
b1=b/$(cat "$work/patches/b/series")

not_run_yet() {
	note | grep -q "^make bisect not run for these patches"
}
ok "before any make bisect, make check's line says it did not run" not_run_yet

good_series() {
	bisect && tail -1 "$work/out" | grep -q "^4 passed, 0 failed" &&
		[ "$(tap_of series.tap)" = "$(printf '%s\n' \
			"ok 1 - $a1 applies and the kernel builds" \
			"ok 2 - $a2 applies and the kernel builds" \
			"ok 3 - $b1 applies and the kernel builds")" ] &&
		[ "$(tap_of series-b.tap)" = "ok 1 - $b1 applies and the kernel builds" ] &&
		[ "$(cat "$work/builds")" = "$(printf '%s\n' "b helper" "a one" "a two" "b helper")" ] &&
		[ -x "$work/linux/prog" ]
}
ok "make bisect: b alone, then every patch of a and b, each built in order" good_series

passed_note() {
	note | grep -q "^make bisect passed for these patches"
}
ok "after it passed, make check's line says so" passed_note

BREAK=1 make_series
broken_note() {
	note | grep -q "^make bisect not run for these patches"
}
ok "a changed patch: make check's line no longer takes the old verdict" broken_note

# What make check builds passes on the broken series: only the final tree.
final_tree_builds() {
	rm -f "$work/builds"
	env_run "$TOP/scripts/kernel-tree.sh" --build-last >"$work/out" 2>&1 &&
		[ "$(cat "$work/builds")" = "b helper" ]
}
ok "the broken series' final tree builds (make check's --build-last cannot see the break)" \
	final_tree_builds

broken_fails() {
	! bisect && grep -q "the kernel does not build at patches/$a1" "$work/out" &&
		grep -q "error: .*zero.* undeclared" "$work/build/bisect/build-1.log" &&
		grep -qx "1 passed, 2 failed" "$work/out" &&
		[ "$(tap_of series.tap)" = "not ok 1 - $a1 applies and the kernel builds" ] &&
		[ "$(tap_of series-b.tap)" = "ok 1 - $b1 applies and the kernel builds" ] &&
		note | grep -q "^make bisect failed for these patches"
}
ok "make bisect fails at the patch that does not build, naming it; series b still built" \
	broken_fails

done_testing
