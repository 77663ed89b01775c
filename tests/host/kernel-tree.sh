#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-tree.sh on a small fake kernel tarball and a fake series:
# the version check, the pristine commit, "git am" in series order, reuse
# of an up-to-date tree, and reset of a stale or half-applied one, never
# of a developer's commits or edits, which scripts/export-patches.sh writes
# back to the patches;
# with --build-each and a fake kernel build: a TAP line per patch, a
# failed build on a reused tree fails (it used to pass on the cached
# results), and cached results are dropped when the build changes;
# with --build-last, every patch applies and one build at the end;
# --alone applies one series of two, or a list of some of a series'
# patches, on the pristine tree (built as the mode says) and keeps its
# result by build id.
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

# Two series against the fake tree, made with git format-patch: "a" of
# two patches, and "b" of one (patches/series: a, then b), which also
# applies to the pristine tree alone.
make_series() {
	local g=$work/series-src
	rm -rf "$work/patches"
	mkdir -p "$work/patches/a" "$work/patches/b"
	rm -rf "$g" && mkdir -p "$g" && tar -C "$g" -xf "$work/good.tar.xz" --strip-components=1
	git -C "$g" init -q && git -C "$g" add -A -f . &&
		git -C "$g" -c user.name=t -c user.email=t@t commit -qm base
	sed -i 's/two/TWO/' "$g/drivers/file.c"
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "first: TWO"
	echo four >>"$g/drivers/file.c"
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "second: four"
	git -C "$g" format-patch -q -2 -o "$work/patches/a"
	(cd "$work/patches/a" && ls 0*.patch) >"$work/patches/a/series"
	echo b >"$g/drivers/b.c"
	git -C "$g" add -f drivers/b.c
	git -C "$g" -c user.name=t -c user.email=t@t commit -qam "b: new file"
	git -C "$g" format-patch -q -1 -o "$work/patches/b"
	(cd "$work/patches/b" && ls 0*.patch) >"$work/patches/b/series"
	printf '# the order\na\nb\n' >"$work/patches/series"
}

tree() {
	KERNEL_TARBALL=$work/${TARBALL:-good}.tar.xz KSRC=$work/linux \
		PATCHES=$work/patches RESULTS=$work/results \
		BUILD_KERNEL=$work/build-kernel.sh \
		"$TOP/scripts/kernel-tree.sh" "$@" >"$work/out" 2>&1
}

# The fake kernel build: logs each call (the patch it built, whether
# undefined options were allowed) to $work/builds, and fails while
# $work/break-build exists.
cat >"$work/build-kernel.sh" <<SCRIPT
#!/bin/bash
echo "\$(git -C "$work/linux" log -1 --format=%s) undefined_ok=\${CONFIG_UNDEFINED_OK:-0}" >>"$work/builds"
[ ! -e "$work/break-build" ]
SCRIPT
chmod +x "$work/build-kernel.sh"

fake_tarball good 6 12
fake_tarball old 6 1
make_series

refuses_wrong_version() {
	! TARBALL=old tree && grep -q "contains Linux 6.1.7; the series targets 6.12" "$work/out"
}
ok "a tarball of another version is refused, naming both versions" refuses_wrong_version

applies() {
	tree && [ "$(git -C "$work/linux" log --format=%s | head -3 | tr '\n' ,)" = "b: new file,second: four,first: TWO," ] &&
		git -C "$work/linux" rev-parse -q --verify pristine >/dev/null
}
ok "pristine commit tagged, the series applied in order" applies

head=$(git -C "$work/linux" rev-parse HEAD 2>/dev/null)
reuses() {
	tree && grep -q "up to date" "$work/out" && [ "$(git -C "$work/linux" rev-parse HEAD)" = "$head" ]
}
ok "an up-to-date tree is reused as it is" reuses

# A change to the series, so that the tree is stale and would be reset.
touch_series() {
	echo "# $1" >>"$work/patches/series"
}

edit_kept() {
	echo local-edit >>"$work/linux/drivers/file.c"
	touch_series edit
	! tree && grep -q local-edit "$work/linux/drivers/file.c" &&
		grep -q "export it with scripts/export-patches.sh" "$work/out" &&
		DISCARD_KERNEL_WORK=1 tree && ! grep -q local-edit "$work/linux/drivers/file.c" &&
		grep -q "applying" "$work/out"
}
ok "a local edit stops a reset, naming export-patches.sh; DISCARD_KERNEL_WORK=1 resets" edit_kept

commit_kept() {
	local head
	echo five >>"$work/linux/drivers/file.c"
	git -C "$work/linux" -c user.name=t -c user.email=t@t commit -qam "fixup! b: new file"
	head=$(git -C "$work/linux" rev-parse HEAD)
	touch_series commit
	! tree && [ "$(git -C "$work/linux" rev-parse HEAD)" = "$head" ] &&
		grep -q "commits of its own" "$work/out"
}
ok "a commit of a developer's stops a reset, and stays" commit_kept

export_script() {
	KSRC=$work/linux PATCHES=$work/patches "$TOP/scripts/export-patches.sh" >"$work/out" 2>&1
}

# The fixup above, exported: refused while it is a commit of its own,
# then folded in, exported into b's patch, and applied from there.
export_round_trip() {
	! export_script && grep -q "4 commits on pristine and patches/series names 3" "$work/out" &&
		GIT_SEQUENCE_EDITOR=true git -C "$work/linux" -c user.name=t -c user.email=t@t \
			rebase -q -i --autosquash pristine &&
		export_script && grep -q "updated patches/b/0001-" "$work/out" &&
		grep -q "^+five" "$work/patches/b/0001-"*.patch &&
		! grep -q "^+five" "$work/patches/a/"*.patch &&
		tree && grep -q "applying" "$work/out" && grep -q five "$work/linux/drivers/file.c" &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD | tr '\n' ,)" = \
		  "b: new file,second: four,first: TWO," ] &&
		export_script && grep -q "0 of 3 patches changed" "$work/out"
}
ok "export-patches.sh writes the tree's commits back to their patches; the next run applies them" \
	export_round_trip

untracked_reset() {
	touch "$work/linux/drivers/stray.o"
	tree && [ ! -e "$work/linux/drivers/stray.o" ]
}
ok "an untracked (even ignored) file makes the tree stale" untracked_reset

stale_series() {
	printf 'a\n' >"$work/patches/series"
	printf '%s\n' "$(head -1 "$work/patches/a/series")" >"$work/patches/a/series"
	tree && [ "$(git -C "$work/linux" log -1 --format=%s)" = "first: TWO" ]
}
ok "a changed series is applied afresh" stale_series

bad_patch() {
	sed -i 's/^-two/-zwei/' "$work/patches/a/0001-"*.patch
	! tree && grep -q "0001-.* does not apply" "$work/out" &&
		[ ! -d "$work/linux/.git/rebase-apply" ]
}
ok "a patch that does not apply fails, naming it, with no git am left half-done" bad_patch

after_failure() {
	make_series
	tree && [ "$(git -C "$work/linux" log -1 --format=%s)" = "b: new file" ]
}
ok "after a failed run, the next run rebuilds the tree" after_failure

# series_tap_is LINE...: the result lines of $work/results/series.tap.
series_tap_is() {
	[ "$(grep -E '^(not )?ok' "$work/results/series.tap")" = "$(printf '%s\n' "$@")" ] ||
		{ sed 's/^/# /' "$work/results/series.tap" "$work/out"; return 1; }
}
p1=a/$(head -1 "$work/patches/a/series")
p2=a/$(tail -1 "$work/patches/a/series")
p3=b/$(cat "$work/patches/b/series")

build_each() {
	rm -f "$work/builds" "$work/results/series.tap"
	tree --build-each && series_tap_is "ok 1 - $p1 applies and the kernel builds" \
		"ok 2 - $p2 applies and the kernel builds" \
		"ok 3 - $p3 applies and the kernel builds" &&
		[ "$(cat "$work/builds")" = "$(printf '%s\n' "first: TWO undefined_ok=1" \
			"second: four undefined_ok=1" "b: new file undefined_ok=0")" ] &&
		grep -q "^# series a on pristine" "$work/results/series.tap" &&
		grep -q "^# series b on top of the series before it" "$work/results/series.tap"
}
ok "--build-each: the kernel built after each patch, a TAP line each" build_each

reuse_builds_last() {
	rm -f "$work/builds" "$work/results/series.tap"
	tree --build-each && grep -q "up to date" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies and the kernel builds" \
			"ok 2 - $p2 applies and the kernel builds" \
			"ok 3 - $p3 applies and the kernel builds" &&
		grep -q "^# patches 1..2: cached results of build id" "$work/results/series.tap" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "--build-each on a reused tree: patches 1-2 from the cache, the last built in this run" \
	reuse_builds_last

# Item 17 of issue 14: the cached all-ok series.tap was copied before the
# rebuild, so a rebuild that failed left only "ok" lines behind.
reuse_failed_build() {
	rm -f "$work/results/series.tap"
	touch "$work/break-build"
	! tree --build-each && grep -q "the kernel does not build at patches/$p3" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies and the kernel builds" \
			"ok 2 - $p2 applies and the kernel builds" \
			"not ok 3 - $p3 applies and the kernel builds"
}
ok "--build-each on a reused tree whose build fails: fails, series.tap ends not ok" \
	reuse_failed_build

# Applied afresh (a stray file made the tree stale), the per-patch
# results of this build id still hold: only the last patch is built, and
# its failure fails the run.
fresh_failed_build() {
	rm -f "$work/results/series.tap" "$work/builds"
	touch "$work/linux/drivers/stray.o"
	! tree --build-each && grep -q "applying patches" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies and the kernel builds" \
			"ok 2 - $p2 applies and the kernel builds" \
			"not ok 3 - $p3 applies and the kernel builds" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "--build-each applying afresh: cached results of this build id kept, the last built and failing" \
	fresh_failed_build

fixed_again() {
	rm -f "$work/break-build" "$work/builds"
	tree --build-each &&
		series_tap_is "ok 1 - $p1 applies and the kernel builds" \
			"ok 2 - $p2 applies and the kernel builds" \
			"ok 3 - $p3 applies and the kernel builds" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "after the failure, a working build passes again" fixed_again

new_build_id() {
	rm -f "$work/builds"
	echo "# changed" >>"$work/build-kernel.sh"
	tree --build-each && grep -q "no per-patch build results for this tree and build id" "$work/out" &&
		[ "$(wc -l <"$work/builds")" = 3 ]
}
ok "a changed build script (build id) drops the cached results: every patch built again" \
	new_build_id

build_last() {
	rm -f "$work/builds" "$work/results/series.tap"
	touch "$work/linux/drivers/stray.o"
	tree --build-last && grep -q "applying patches" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies" "ok 2 - $p2 applies" "ok 3 - $p3 applies" \
			"ok 4 - the kernel builds with the whole series" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "--build-last: every patch applies, one build at the last, every option defined" build_last

build_last_reused() {
	rm -f "$work/builds" "$work/results/series.tap"
	tree --build-last && grep -q "up to date" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies" "ok 2 - $p2 applies" "ok 3 - $p3 applies" \
			"ok 4 - the kernel builds with the whole series" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "--build-last on an up-to-date tree: the patches as applied, the build this run's" \
	build_last_reused

build_last_fails() {
	rm -f "$work/results/series.tap"
	touch "$work/break-build"
	! tree --build-last && grep -q "the kernel does not build with the whole series" "$work/out" &&
		series_tap_is "ok 1 - $p1 applies" "ok 2 - $p2 applies" "ok 3 - $p3 applies" \
			"not ok 4 - the kernel builds with the whole series"
	local rc=$?
	rm -f "$work/break-build"
	return $rc
}
ok "--build-last whose build fails: fails, series.tap ends not ok" build_last_fails

# --build-last's results are not --build-each's: without per-patch
# results of its own, every patch is built.
each_after_last() {
	rm -f "$work/builds" "$work/linux/.git/cpuidle-budget-series-each.tap"
	[ -f "$work/linux/.git/cpuidle-budget-series-last.tap" ] &&
		tree --build-each && grep -q "no per-patch build results" "$work/out" &&
		[ "$(wc -l <"$work/builds")" = 3 ]
}
ok "--build-each after --build-last: every patch built, nothing taken from the other mode" \
	each_after_last

alone_apply() {
	rm -f "$work/builds" "$work/results/series-b.tap"
	tree --alone b && [ "$(git -C "$work/linux" log --format=%s pristine..HEAD)" = "b: new file" ] &&
		[ "$(grep -E '^(not )?ok' "$work/results/series-b.tap")" = "ok 1 - $p3 applies" ] &&
		[ ! -e "$work/builds" ]
}
ok "--alone b without a build mode: applies on the pristine tree, nothing built" alone_apply

alone_last() {
	rm -f "$work/builds" "$work/results/series-b.tap"
	tree --alone b --build-last &&
		[ "$(grep -E '^(not )?ok' "$work/results/series-b.tap" | tr '\n' ,)" = \
		  "ok 1 - $p3 applies,ok 2 - the kernel builds with series b alone," ] &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=1" ]
}
ok "--alone b --build-last: one build, options of the other series may be missing" alone_last

# make bisect after make check: the --alone runs in between leave the
# tree at another series, and the full series' per-patch results of this
# build id still hold.
each_survives_alone() {
	rm -f "$work/builds"
	tree --build-each && tree --alone b --build-last && rm -f "$work/builds" &&
		tree --build-each && grep -q "applying patches" "$work/out" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=0" ]
}
ok "--build-each after an --alone run: the tree applied again, only the last patch built" \
	each_survives_alone

# make baseline: --tree needs the tree at the series afterwards.
alone_tree() {
	rm -f "$work/builds"
	tree --alone b --build-last && grep -q "kept, tree untouched" "$work/out" &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD | wc -l)" = 3 ] &&
		tree --alone b --build-last --tree && grep -q "applying series b" "$work/out" &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD)" = "b: new file" ] &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=1" ] &&
		tree --alone b --build-last --tree && grep -q "up to date with series b" "$work/out" &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD)" = "b: new file" ] &&
		[ "$(wc -l <"$work/builds")" = 2 ]
}
ok "--alone --tree: a tree at that series kept and built, any other applied again" \
	alone_tree

usage_refused() {
	! tree --build-each --build-last && grep -q "usage:" "$work/out" &&
		! tree --tree && grep -q "usage:" "$work/out"
}
ok "two build modes, or --tree without --alone, are refused" usage_refused

# make tree builds nothing: make check's series.tap is not its to write.
apply_quiet() {
	echo "make check's" >"$work/results/series.tap"
	tree && [ "$(cat "$work/results/series.tap")" = "make check's" ]
}
ok "a plain run (nothing built) leaves series.tap as it was" apply_quiet

# alone_tap_is LINE...: the result lines of $work/results/series-b.tap.
alone_tap_is() {
	[ "$(grep -E '^(not )?ok' "$work/results/series-b.tap")" = "$(printf '%s\n' "$@")" ] ||
		{ sed 's/^/# /' "$work/results/series-b.tap" "$work/out"; return 1; }
}
alone_b() {
	rm -f "$work/builds"
	tree --alone b --build-each &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD)" = "b: new file" ] &&
		alone_tap_is "ok 1 - $p3 applies and the kernel builds" &&
		grep -q "^# series b alone on pristine" "$work/results/series-b.tap" &&
		[ "$(cat "$work/builds")" = "b: new file undefined_ok=1" ]
}
ok "--alone b: only series b on the pristine tree, built, a TAP line in series-b.tap" alone_b

alone_kept() {
	rm -f "$work/builds" "$work/results/series-b.tap"
	tree && grep -q "applying patches" "$work/out" &&
		[ "$(git -C "$work/linux" log -1 --format=%s)" = "b: new file" ] &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD | wc -l)" = 3 ] &&
		head=$(git -C "$work/linux" rev-parse HEAD) &&
		tree --alone b --build-each && grep -q "results of build id .* kept, tree untouched" "$work/out" &&
		[ "$(git -C "$work/linux" rev-parse HEAD)" = "$head" ] && [ ! -e "$work/builds" ] &&
		alone_tap_is "ok 1 - $p3 applies and the kernel builds"
}
ok "after --alone the full series is applied again; a second --alone keeps the result, tree untouched" \
	alone_kept

alone_changed() {
	rm -f "$work/builds"
	touch "$work/break-build"
	echo "# changed again" >>"$work/build-kernel.sh"
	! tree --alone b --build-each && alone_tap_is "not ok 1 - $p3 applies and the kernel builds"
	local rc=$?
	rm -f "$work/break-build"
	return $rc
}
ok "--alone with a new build id builds again; a failed build fails and series-b.tap says so" \
	alone_changed

# A list of some of a series' patches (patches/test/baseline's kind):
# those alone on the pristine tree, their TAP in series-a-first.tap.
alone_list() {
	rm -f "$work/builds"
	printf '# only the first\n%s\n' "$(head -1 "$work/patches/a/series")" \
		>"$work/patches/a/first"
	tree --alone a/first --build-each &&
		[ "$(git -C "$work/linux" log --format=%s pristine..HEAD)" = "first: TWO" ] &&
		[ "$(grep -E '^(not )?ok' "$work/results/series-a-first.tap")" = \
		  "ok 1 - a/$(head -1 "$work/patches/a/series") applies and the kernel builds" ] &&
		[ "$(cat "$work/builds")" = "first: TWO undefined_ok=1" ] &&
		! tree --alone a/nosuch && grep -q "no patch list .*a/nosuch" "$work/out"
}
ok "--alone DIR/LIST: only the listed patches of DIR on the pristine tree; an unknown list is refused" \
	alone_list

unknown_series() {
	! tree --alone nosuch && grep -q "no series .*nosuch/series" "$work/out"
}
ok "--alone with an unknown series is refused, naming it" unknown_series

done_testing
