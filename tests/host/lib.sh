# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers of the host tests. Sourced, not run.

# shellcheck source=scripts/tap.sh
. "$TOP/scripts/tap.sh"
tap_begin

# ok DESCRIPTION COMMAND...: one TAP result, from COMMAND's exit status.
ok() {
	tap_test "$@"
}

# done_testing: the plan (at the end, as TAP allows), and the exit status.
done_testing() {
	tap_end
	exit
}

# tools_and_scratch: the project's scripts/lib.sh (paths, kmake, helpers)
# for a test that checks every failure itself (set +e), and a scratch
# directory T, removed on exit.
tools_and_scratch() {
	# shellcheck source=scripts/lib.sh
	. "$TOP/scripts/lib.sh"
	set +e
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
}

# The DKMS helpers need T (a scratch directory) and TOP. dkms runs with
# private source, state and module trees under T, so the host's are never
# touched.
dkms_version() {
	sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf"
}

dkms_() {
	mkdir -p "$T/dkms" "$T/modules"
	dkms --sourcetree "$T/root/usr/src" --dkmstree "$T/dkms" --installtree "$T/modules" "$@"
}

# dkms_install_for RELEASE KDIR: "make dkms-source" into T/root (once),
# dkms add and install for RELEASE with KDIR as its build tree; the module
# must land with RELEASE's vermagic and dkms must call it installed.
dkms_install_for() {
	local rel=$1 kdir=$2 version ko
	version=$(dkms_version)
	[ -f "$T/root/usr/src/cpuidle-budget-$version/dkms.conf" ] ||
		make -s -C "$TOP" dkms-source DESTDIR="$T/root" || return 1
	mkdir -p "$T/modules/$rel"
	dkms_ add -m cpuidle-budget -v "$version" >/dev/null 2>&1 || true
	dkms_ install -m cpuidle-budget -v "$version" -k "$rel" \
		--kernelsourcedir "$kdir" --no-depmod >"$T/install-$rel.log" 2>&1 ||
		{ cat "$T/install-$rel.log"; return 1; }
	ko=$T/modules/$rel/updates/dkms/cpuidle_budget.ko
	[ -f "$ko" ] || { echo "no $ko"; return 1; }
	echo "# $(modinfo -F vermagic "$ko")"
	modinfo -F vermagic "$ko" | grep -q "^$rel " &&
		dkms_ status | grep -q "cpuidle-budget/$version, $rel, .*: installed"
}
