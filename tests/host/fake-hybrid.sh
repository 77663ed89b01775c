#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The faked hybrid part of the scheduler tests (fake_hybrid=, scripts/lib.sh)
# comes from the emulated platform's description of its cores
# (tests/emul/emul_topology.h), which emul_parts.c builds its Alder Lake
# parts from: the values the guests boot with today, and a changed
# description changes them, so that the two cannot disagree.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
tools_and_scratch

today() {
	echo "# $FAKE_HYBRID / $FAKE_HYBRID_SMT / $FAKE_HYBRID_SMT_QEMU / offline $FAKE_HYBRID_SMT_OFFLINE"
	[ "$FAKE_HYBRID" = "P:0-1:1024:64,E:2-5:605:32" ] &&
		[ "$FAKE_HYBRID_SMT" = "P:0-3:1024:64,E:4-11:605:32" ] &&
		[ "$FAKE_HYBRID_SMT_QEMU" = "12,sockets=1,cores=6,threads=2" ] &&
		[ "$FAKE_HYBRID_SMT_OFFLINE" = "5,7,9,11" ]
}
ok "2P+4E, E-cores at 605 (33 against 55.9 HWP units), with and without SMT" today

parts_use_it() {
	grep -q '\.p_cores = EMUL_ADL_P_CORES, \.e_cores = EMUL_ADL_E_CORES' \
		"$TOP/tests/emul/emul_parts.c" &&
		grep -q 'fmax_mhz = EMUL_ADL_P_MHZ' "$TOP/tests/emul/emul_parts.c" &&
		grep -q 'fmax_mhz = EMUL_ADL_E_MHZ' "$TOP/tests/emul/emul_parts.c"
}
ok "emul_parts.c takes the Alder Lake layout and clocks from the same header" parts_use_it

# A 4P+8E part with E-cores at 3.0 GHz: 1024 * 30 / 55.88 = 549.7.
changed() {
	sed -e 's/P_CORES\t2/P_CORES\t4/' -e 's/E_CORES\t4/E_CORES\t8/' \
		-e 's/E_MHZ\t3300/E_MHZ\t3000/' "$TOP/tests/emul/emul_topology.h" >"$T/topology.h"
	EMUL_TOPOLOGY=$T/topology.h fake_hybrid_topology &&
		echo "# $FAKE_HYBRID / $FAKE_HYBRID_SMT / $FAKE_HYBRID_SMT_QEMU / offline $FAKE_HYBRID_SMT_OFFLINE" &&
		[ "$FAKE_HYBRID" = "P:0-3:1024:64,E:4-11:550:32" ] &&
		[ "$FAKE_HYBRID_SMT" = "P:0-7:1024:64,E:8-23:550:32" ] &&
		[ "$FAKE_HYBRID_SMT_QEMU" = "24,sockets=1,cores=12,threads=2" ] &&
		[ "$FAKE_HYBRID_SMT_OFFLINE" = "9,11,13,15,17,19,21,23" ]
}
ok "a changed description (4P+8E, E at 3.0 GHz) changes fake_hybrid= with it" changed

incomplete() {
	grep -v E_PRIO "$TOP/tests/emul/emul_topology.h" >"$T/short.h"
	! (EMUL_TOPOLOGY=$T/short.h fake_hybrid_topology 2>"$T/err") &&
		grep -q "no EMUL_ADL_E_PRIO" "$T/err"
}
ok "a description without a value is refused, naming it" incomplete

done_testing
