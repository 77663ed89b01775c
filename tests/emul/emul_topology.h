/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emul_topology.h - the core topology of the emulated Alder Lake parts
 *
 * The one description of their cores that both sides of the tests take:
 * the emulated platform (emul_parts.c: the parts' layouts and clocks) and
 * the faked topology the scheduler sees (fake_hybrid=, whose value
 * scripts/lib.sh works out of these lines, fake_hybrid_value()). Plain
 * "#define NAME VALUE" lines only, so that the shell can read them.
 *
 * Layout and clocks: the Core i3-1215U, 2P+4E, P-cores at 4.4 GHz and
 * E-cores at 3.3 GHz (Intel ARK; tests/emul/README.md). kHz per HWP
 * performance unit: what 6.12's intel_pstate counts on Alder Lake's
 * Golden Cove P-cores (HYBRID_SCALING_FACTOR, 78741) and on its Gracemont
 * E-cores (core_get_scaling(), 100000); the E-cores' capacity is their HWP
 * highest performance against the P-cores', 33 against 55.9: 605. ITMT
 * priorities: P-cores above E-cores, as intel_pstate orders them by HWP
 * highest performance; the values themselves are estimates.
 */
#ifndef _EMUL_TOPOLOGY_H
#define _EMUL_TOPOLOGY_H

#define EMUL_ADL_P_CORES	2
#define EMUL_ADL_E_CORES	4
#define EMUL_ADL_P_MHZ	4400
#define EMUL_ADL_E_MHZ	3300
#define EMUL_ADL_P_KHZ_PER_PERF	78741
#define EMUL_ADL_E_KHZ_PER_PERF	100000
#define EMUL_ADL_P_PRIO	64
#define EMUL_ADL_E_PRIO	32

#endif /* _EMUL_TOPOLOGY_H */
