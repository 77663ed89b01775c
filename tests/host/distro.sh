#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a distribution or a test lab does with the module: install its
# sources for DKMS and let dkms build and install it for a kernel that
# carries patch pm/0001 (the test kernel's build tree), and remove it again;
# and build it against a kernel without patch pm/0001 (Debian's own 6.12
# headers), which must stop with one message naming the missing symbols
# and the patch, before anything is compiled. dkms runs with private
# source, state and module trees, so the host's are never touched.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch

VERSION=$(dkms_version)
KREL=$(cat "$KOBJ/include/config/kernel.release")
UNPATCHED=/usr/src/$(debian_headers)
SYMBOLS="cpuidle_register_governor cpuidle_unregister_governor cpuidle_governor_latency_req
	 tick_nohz_tick_stopped tick_nohz_idle_got_tick tick_nohz_get_sleep_length"
SRC=$T/root/usr/src/cpuidle-budget-$VERSION
mkdir -p "$T/modules/unpatched"

sources() {
	make -s -C "$TOP" dkms-source DESTDIR="$T/root" &&
	[ -f "$SRC/dkms.conf" ] && [ -f "$SRC/drivers/cpuidle/governors/budget/main.c" ] &&
	[ -f "$SRC/include/linux/cpuidle_budget.h" ] &&
	# Sources only: nothing a build in the work tree left behind.
	[ -z "$(find "$SRC" -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd')" ]
}
ok "make dkms-source installs the module's sources, and nothing built" sources

ok "dkms install builds and installs cpuidle_budget.ko for the patched test kernel" \
	dkms_install_for "$KREL" "$KOBJ"

dkms_remove() {
	dkms_ remove -m cpuidle-budget -v "$VERSION" --all >/dev/null 2>&1 &&
	[ ! -e "$T/modules/$KREL/updates/dkms/cpuidle_budget.ko" ] &&
	[ -z "$(dkms_ status)" ]
}
ok "dkms remove --all takes it out again" dkms_remove

# names_all FILE: FILE has the message: every symbol, the patch, how to
# apply it; and no compiler or modpost ran.
names_all() {
	local s
	for s in $SYMBOLS; do
		grep -q "does not export:.* $s\\b" "$1" || { echo "$s not named"; return 1; }
	done
	grep -q "patches/pm/0001-cpuidle-Allow-governors-to-be-built-as-modules.patch" "$1" &&
		grep -q "patch -p1 <" "$1" &&
		! grep -Eq "CC \[M\]|error:|MODPOST|undefined!" "$1" ||
		{ cat "$1"; return 1; }
}

unpatched_make() {
	[ -d "$UNPATCHED" ] || { echo "no $UNPATCHED"; return 1; }
	! make -C "$TOP" KDIR="$UNPATCHED" >"$T/unpatched.log" 2>&1 &&
		names_all "$T/unpatched.log"
}
ok "make against Debian's unpatched 6.12 stops with the missing symbols and patch pm/0001" \
	unpatched_make

unpatched_dkms() {
	local log=$T/dkms/cpuidle-budget/$VERSION/build/make.log
	dkms_ add -m cpuidle-budget -v "$VERSION" >/dev/null &&
	! dkms_ build -m cpuidle-budget -v "$VERSION" -k unpatched \
		--kernelsourcedir "$UNPATCHED" >"$T/dkms-unpatched.log" 2>&1 &&
		[ -f "$log" ] && names_all "$log"
}
ok "dkms build against it fails with the same message in its make.log" unpatched_dkms

# make deb's release suffix becomes part of package names: one that is
# not a valid one is refused at once, before anything is installed or
# built.
bad_suffix() {
	local suffix out
	for suffix in -Budget budget -.x "-a b"; do
		out=$(BUILD=$T/deb-build LOCALVERSION_SUFFIX=$suffix "$TOP/scripts/make-deb.sh" 2>&1) &&
			{ echo "# accepted '$suffix'"; return 1; }
		echo "$out" | grep -q "LOCALVERSION_SUFFIX=$suffix: must be" ||
			{ echo "$out" | sed 's/^/# /'; return 1; }
	done
	[ ! -e "$T/deb-build" ]
}
ok "make deb refuses a release suffix that is no valid package name, before any work" bad_suffix

done_testing
