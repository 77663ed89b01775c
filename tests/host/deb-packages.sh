#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What "make deb" built (build/deb, or DIR), checked as a test machine
# would use it, without installing anything on this host: the packages are
# unpacked into a scratch directory.
#
#   tests/host/deb-packages.sh [DIR]
#
# The image carries the release with the local suffix, its kernel, and the
# governor as a signed module for that release; its config is Debian's
# apart from the deviations scripts/lib.sh (debian_config) documents; the
# headers package is a build tree the README's "make KDIR=" and DKMS
# build the module against. TAP on stdout. scripts/make-deb.sh runs it after
# every build; make check does not (no packages there).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch
DEBS=${1:-$BUILD/deb}

# The release, from the image package's name (not the -dbg one).
image=$(find "$DEBS" -maxdepth 1 -name 'linux-image-*.deb' ! -name '*-dbg_*' | head -1)
REL=$(basename "${image:-none}" | sed -n 's/^linux-image-\([^_]*\)_.*/\1/p')
HEADERS=$T/root/usr/src/linux-headers-$REL

packages() {
	[ -n "$REL" ] || { echo "no linux-image-*.deb in $DEBS"; return 1; }
	echo "# release $REL"
	ls "$DEBS"/linux-headers-"$REL"_*.deb "$DEBS"/linux-libc-dev_*.deb >/dev/null &&
	dpkg-deb -x "$image" "$T/root" &&
	dpkg-deb -x "$DEBS"/linux-headers-"$REL"_*.deb "$T/root"
}
ok "linux-image, linux-headers and linux-libc-dev packages, unpacked" packages

image_files() {
	local config=$T/root/boot/config-$REL suffix
	suffix=$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$config" 2>/dev/null)
	echo "# CONFIG_LOCALVERSION=\"$suffix\""
	[ -f "$T/root/boot/vmlinuz-$REL" ] && [ -f "$T/root/boot/System.map-$REL" ] &&
	[ -n "$suffix" ] && [[ $REL == *"$suffix" ]] &&
	grep -qx "CONFIG_CPU_IDLE_GOV_BUDGET=m" "$config"
}
ok "the image installs /boot/vmlinuz-$REL and a config with the suffix and the governor =m" \
	image_files

module_in_image() {
	local ko signer
	ko=$(find "$T/root/lib/modules/$REL/kernel/drivers/cpuidle" -name 'cpuidle_budget.ko*')
	[ -n "$ko" ] || { echo "no cpuidle_budget.ko in the image"; return 1; }
	signer=$(modinfo -F signer "$ko")
	echo "# ${ko#"$T/root"}: $(modinfo -F vermagic "$ko"), signer \"$signer\""
	modinfo -F vermagic "$ko" | grep -q "^$REL SMP " || return 1
	# Debian's config signs every module at build time (MODULE_SIG_ALL,
	# with a key the build makes); a config that does not, signs none.
	if grep -qx CONFIG_MODULE_SIG_ALL=y "$T/root/boot/config-$REL"; then
		[ -n "$signer" ]
	else
		[ -z "$signer" ]
	fi
}
ok "the image's cpuidle_budget.ko is built for $REL, signed where the config signs modules" \
	module_in_image

# Every option the image's config changes against Debian's must be one of
# the documented deviations: debug info and what needs it (BTF, pahole,
# sched_ext), certificates and signing keys, the release suffix, the
# compiler's version texts, and the series' own options.
DEVIATIONS='^(DEBUG_INFO.*|GDB_SCRIPTS|MODULE_ALLOW_BTF_MISMATCH|PAHOLE_.*|PROBE_EVENTS_BTF_ARGS|SCHED_CLASS_EXT|SYSTEM_TRUSTED_KEYS|MODULE_SIG_ALL|MODULE_SIG_KEY|BUILD_SALT|LOCALVERSION|CC_VERSION_TEXT|RUSTC_.*|CPU_IDLE_GOV_BUDGET.*|X86_FAKE_HYBRID)$'
config_is_debians() {
	local changed other
	xz -dc "$DEBIAN_CONFIG" >"$T/debian.config" || return 1
	changed=$("$KSRC/scripts/diffconfig" "$T/debian.config" "$T/root/boot/config-$REL" |
		sed -E 's/^[-+ ]//; s/ .*//')
	echo "# changed against Debian's: $(echo "$changed" | tr '\n' ' ')"
	other=$(echo "$changed" | grep -Ev "$DEVIATIONS")
	[ -z "$other" ] || { echo "# not a documented deviation: $other"; return 1; }
}
ok "the image's config is Debian's but for the documented deviations" config_is_debians

ok "make KDIR=<the headers package's tree> builds cpuidle_budget.ko for $REL" \
	module_build_for "$HEADERS" "$REL"

ok "dkms install builds it against the headers package" dkms_install_for "$REL" "$HEADERS"

done_testing
