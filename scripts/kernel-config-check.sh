#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-config-check.sh CONFIG FRAGMENT...
# Fail, naming each option, when a value requested by a fragment is not
# what Kconfig put in CONFIG (an unmet dependency silently drops it).
# With CONFIG_UNDEFINED_OK=1 (a tree part-way through the series), an
# option no Kconfig file of $KSRC defines yet is skipped.

set -euo pipefail
config=$1
shift
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		want=${line#*=}
		got=$(grep -E "^$opt=" "$config" | cut -d= -f2- || true)
		if [ "$want" = n ]; then
			[ -z "$got" ] && continue
		elif [ "$got" = "$want" ]; then
			continue
		fi
		if [ "${CONFIG_UNDEFINED_OK:-0}" = 1 ] &&
		   ! grep -rqsE --include='Kconfig*' "^(menu)?config ${opt#CONFIG_}\$" "${KSRC:?}"; then
			continue
		fi
		echo "config: $opt requested ${want}, got ${got:-not set}" >&2
		bad=1 ;;
	esac
done < <(cat "$@")
exit $bad
