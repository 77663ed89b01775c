#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The warning filter of scripts/debian-config-check.sh (scripts/lib.sh:
# series_added_lines, source_warnings, warnings_on_lines) on a hand-made
# kernel tree and build log: a warning counts as the series' exactly when
# its file and line are ones the series added, whether Kbuild printed the
# path relative to the objects directory or absolute; a file of the same
# name elsewhere, or an upstream line of the same file, is not the
# series'.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch
KSRC=$T/linux
OBJ=$T/kobj

# same: diff's arguments; a difference is printed as TAP comments.
same() {
	local out
	out=$(diff "$@") || { echo "$out" | sed 's/^/# /'; return 1; }
}

# A "pristine" tree with one file, then a series commit that adds lines
# 3-4 to it and a new file.
tree() {
	mkdir -p "$KSRC/drivers/x" "$KSRC/other/x" "$OBJ" &&
	printf 'one\ntwo\nthree\n' >"$KSRC/drivers/x/a.c" &&
	printf 'one\ntwo\nthree\n' >"$KSRC/other/x/a.c" &&
	git -C "$KSRC" init -q &&
	git -C "$KSRC" add -A &&
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q -m pristine &&
	git -C "$KSRC" tag pristine &&
	printf 'one\ntwo\nadded3\nadded4\nthree\n' >"$KSRC/drivers/x/a.c" &&
	printf 'new1\nnew2\n' >"$KSRC/drivers/x/new.c" &&
	git -C "$KSRC" add -A &&
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q -m series
}
ok "a pristine tree and a series commit" tree

added() {
	series_added_lines >"$T/added"
	printf 'drivers/x/a.c:3\ndrivers/x/a.c:4\ndrivers/x/new.c:1\ndrivers/x/new.c:2\n' |
		same - <(sort "$T/added")
}
ok "series_added_lines: exactly the added lines, new files included" added

cat >"$T/build.log" <<LOG
  CC      drivers/x/a.o
../linux/drivers/x/a.c:3:5: warning: relative path, added line
$KSRC/drivers/x/new.c:2:1: error: absolute path, new file
../linux/drivers/x/a.c:1:1: warning: upstream line of a touched file
../linux/other/x/a.c:3:1: warning: same name and line, another directory
../linux/drivers/x/a.c:3:5: warning: relative path, added line
make[2]: *** [scripts/Makefile.build:229: drivers/x/a.o] Error 1
LOG

paths() {
	source_warnings "$T/build.log" "$OBJ" >"$T/warnings"
	cat <<WANT | same - "$T/warnings"
drivers/x/a.c:1:1: warning: upstream line of a touched file
drivers/x/a.c:3:5: warning: relative path, added line
drivers/x/new.c:2:1: error: absolute path, new file
other/x/a.c:3:1: warning: same name and line, another directory
WANT
}
ok "source_warnings: paths relative to the source, whole, once each" paths

ours() {
	warnings_on_lines "$T/added" "$T/warnings" | cut -d: -f1,2 |
		same - <(printf 'drivers/x/a.c:3\ndrivers/x/new.c:2\n')
}
ok "warnings_on_lines: the two on added lines, not upstream's nor a namesake's" ours

done_testing
