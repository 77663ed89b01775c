// SPDX-License-Identifier: GPL-2.0
/*
 * emul_parts.c - the parts the emulated platform can be (emul_idle part=)
 *
 * Every constant of a part is in its entry here and nowhere else, but for
 * the Alder Lake parts' cores and clocks, which emul_topology.h shares
 * with the faked topology of the scheduler tests (fake_hybrid=);
 * tests/emul/README.md gives the public source of each, or says it is an
 * estimate and what range it was taken from. The idle state tables are the
 * kernel's own: intel_idle.c of Linux 6.12 for the Alder Lake parts, the
 * ACPI _CST table read on the Jasper Lake Chromebooks of the 2025 menu
 * regression for the 6 W part (acpi_idle would register it).
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

#include "emul.h"
#include "emul_topology.h"

/*
 * Alder Lake: P-core adl_l_cstates, E-core gmt_cstates (intel_idle.c); one
 * package C-state figure for every depth that allows one.
 */
#define ADL_STATES \
	.nstates = 6, \
	.state = { \
		{ .name = "POLL", .kind = EMUL_KIND_POLL }, \
		{ .name = "C1", .desc = "emulated ADL-L C1 (HLT)", \
		  .kind = EMUL_KIND_CLOCK_GATED, \
		  .exit_us = { 1, 1 }, .target_us = { 1, 1 } }, \
		{ .name = "C1E", .desc = "emulated ADL-L C1E (HLT)", \
		  .kind = EMUL_KIND_CLOCK_GATED, \
		  .exit_us = { 2, 2 }, .target_us = { 4, 4 } }, \
		{ .name = "C6", .desc = "emulated ADL-L C6 (HLT)", \
		  .kind = EMUL_KIND_POWER_GATED, \
		  .exit_us = { 170, 195 }, .target_us = { 500, 585 }, \
		  .pkg_mw = 300 }, \
		{ .name = "C8", .desc = "emulated ADL-L C8 (HLT)", \
		  .kind = EMUL_KIND_POWER_GATED, \
		  .exit_us = { 200, 260 }, .target_us = { 600, 1040 }, \
		  .pkg_mw = 300 }, \
		{ .name = "C10", .desc = "emulated ADL-L C10 (HLT)", \
		  .kind = EMUL_KIND_POWER_GATED, \
		  .exit_us = { 230, 660 }, .target_us = { 700, 1980 }, \
		  .pkg_mw = 300 }, \
	}

/*
 * Golden Cove P-cores and Gracemont E-cores on one rail, the uncore, the
 * turbo ratios (estimates) and the states: all but the limits.
 */
#define ADL_MODEL \
	.core = { \
		[EMUL_P_CORE] = { \
			.fmax_mhz = EMUL_ADL_P_MHZ, .fknee_mhz = 1600, \
			.dyn_mw = 11000, .leak_mw = 1200, .gated_mw = 30, \
		}, \
		[EMUL_E_CORE] = { \
			.fmax_mhz = EMUL_ADL_E_MHZ, .fknee_mhz = 1200, \
			.dyn_mw = 2200, .leak_mw = 300, .gated_mw = 10, \
		}, \
	}, \
	.vmin_mv = 650, \
	.vmax_mv = 1250, \
	.poll_activity = EMUL_SCALE / 2, \
	.trans_pct = 100, \
	.uncore_mw = 1500, \
	.turbo_pct = { 100, 100, 100, 96, 96, 91, 91, 91, 91, 91, 91 }, \
	ADL_STATES

const struct emul_part emul_parts[] = {
	{
		.name = "adl-u-15w",
		.desc = "Alder Lake-U 2P+4E, 15 W (Core i3-1215U class)",
		.p_cores = EMUL_ADL_P_CORES, .e_cores = EMUL_ADL_E_CORES,
		.pl1_mw = 15000, .pl2_mw = 55000,
		.pl1_window_ms = 28000, .pl2_window_ms = 10,
		.model = { ADL_MODEL },
	},
	{
		.name = "adl-u-9w",
		.desc = "Alder Lake-U 2P+4E, 9 W (Core i3-1210U class)",
		.p_cores = EMUL_ADL_P_CORES, .e_cores = EMUL_ADL_E_CORES,
		.pl1_mw = 9000, .pl2_mw = 29000,
		.pl1_window_ms = 28000, .pl2_window_ms = 10,
		.model = { ADL_MODEL },
	},
	{
		.name = "jsl-6w",
		.desc = "Jasper Lake 4 cores, 6 W (Pentium Silver N6000 class)",
		.p_cores = 4, .e_cores = 0,
		.pl1_mw = 6000, .pl2_mw = 20000,
		.pl1_window_ms = 28000, .pl2_window_ms = 10,
		.model = {
			.core = {
				[EMUL_P_CORE] = {
					.fmax_mhz = 3300, .fknee_mhz = 1100,
					.dyn_mw = 2500, .leak_mw = 250, .gated_mw = 5,
				},
			},
			.vmin_mv = 600,
			.vmax_mv = 1100,
			.uncore_mw = 1000,
			.poll_activity = EMUL_SCALE / 2,
			.trans_pct = 100,
			/* The _CST table of the Chromebooks: ACPI C1, C2, C3. */
			.nstates = 4,
			.state = {
				{ .name = "POLL", .kind = EMUL_KIND_POLL },
				{ .name = "C1_ACPI", .desc = "emulated JSL ACPI C1 (HLT)",
				  .kind = EMUL_KIND_CLOCK_GATED,
				  .exit_us = { 1 }, .target_us = { 1 } },
				{ .name = "C2_ACPI", .desc = "emulated JSL ACPI C2 (HLT)",
				  .kind = EMUL_KIND_POWER_GATED,
				  .exit_us = { 253 }, .target_us = { 759 } },
				{ .name = "C3_ACPI", .desc = "emulated JSL ACPI C3 (HLT)",
				  .kind = EMUL_KIND_POWER_GATED,
				  .exit_us = { 1048 }, .target_us = { 3144 },
				  .pkg_mw = 100 },
			},
			.turbo_pct = { 100, 100, 93, 86, 79, 79, 79, 79, 79, 79, 79 },
		},
	},
};
EXPORT_SYMBOL_IF_KUNIT(emul_parts);

const unsigned int emul_nr_parts = ARRAY_SIZE(emul_parts);
EXPORT_SYMBOL_IF_KUNIT(emul_nr_parts);

/**
 * emul_find_part - a part by name
 * @name: its name, as emul_idle's part= takes it
 *
 * Return: the part, or NULL if there is none of that name.
 */
const struct emul_part *emul_find_part(const char *name)
{
	unsigned int i;

	for (i = 0; i < emul_nr_parts; i++)
		if (!strcmp(emul_parts[i].name, name))
			return &emul_parts[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(emul_find_part);
