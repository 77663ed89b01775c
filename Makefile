# SPDX-License-Identifier: GPL-2.0
#
# cpuidle-budget: the budget cpuidle governor, its kernel series and bench.
#
#   make check   all tests; the last line is "N passed, N failed"
#   make bisect  every patch of every series built in order (for whoever
#                changes patches/; make check builds only the final trees)
#   make demo    the A/B bench in short: governors side by side, with intervals
#   make ab      the A/B bench: governors in rotated blocks, with intervals
#   make         build cpuidle_budget.ko against KDIR (a kernel carrying
#                patches/pm/0001, default: the running kernel's build tree)
#
# See README for the rest.

KDIR ?= /lib/modules/$(shell uname -r)/build
# The KUnit suite (cpuidle_budget_kunit.ko) only where the kernel has KUnit.
BUDGET_KUNIT ?= $(shell grep -qs '^CONFIG_KUNIT=[ym]' $(KDIR)/.config && echo m)
KCONFIG_FLAGS = CONFIG_CPU_IDLE_GOV_BUDGET=m \
		CONFIG_CPU_IDLE_GOV_BUDGET_KUNIT_TEST=$(BUDGET_KUNIT)

.PHONY: all module install dkms-source patches deps deps-plots bisect tree kernel modules baseline helpers selftests check demo bench ab sensitivity deb clean distclean

all: module

# Out-of-tree build of the governor against any prepared kernel tree.
module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KCONFIG_FLAGS) modules

# Installs into /lib/modules/<release>/extra of the KDIR kernel.
install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KCONFIG_FLAGS) modules_install
	depmod -a $(shell cat $(KDIR)/include/config/kernel.release)

# The module's sources, for DKMS: $(DESTDIR)/usr/src/cpuidle-budget-VERSION
# (VERSION from dkms.conf), then "dkms install -m cpuidle-budget -v VERSION".
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SOURCES := Kbuild Makefile dkms.conf include/linux/cpuidle_budget.h \
		$(filter-out %.mod.c,$(wildcard drivers/cpuidle/governors/budget/*.[ch])) \
		drivers/cpuidle/governors/budget/Kconfig \
		drivers/cpuidle/governors/budget/Makefile \
		$(wildcard patches/pm/0001-*.patch)
dkms-source:
	install -d $(DESTDIR)/usr/src/cpuidle-budget-$(DKMS_VERSION)
	cp --parents $(DKMS_SOURCES) $(DESTDIR)/usr/src/cpuidle-budget-$(DKMS_VERSION)/

# Regenerate the patches that add overlay files (patches/overlay).
patches: tree
	scripts/gen-patches.sh

# What every target needs; deps-plots adds matplotlib for the bench's and
# the demo's plots.
deps:
	scripts/install-deps.sh

deps-plots:
	scripts/install-deps.sh --plots

# build/linux: pristine 6.12 plus patches/, then the lean test kernel.
tree: deps
	scripts/kernel-tree.sh

kernel: tree
	scripts/build-kernel.sh

modules: kernel
	scripts/build-modules.sh

# The bench's kernel without the series (scripts/lib.sh BASELINE_PATCHES):
# pristine 6.12 and the test hook's patches that apply to it alone, in
# build/kobj-base with the emulated platform's modules in build/stage-base
# (BASELINE=1 selects them, also for scripts/vm-run.sh). Leaves build/linux
# at that tree; the next "make tree" applies the series again (the test
# kernel in build/kobj is not touched).
baseline: deps
	BASELINE=1 scripts/kernel-tree.sh --alone test/baseline --build-last --tree
	BASELINE=1 scripts/build-modules.sh

# The selftests as a kernel selftests tree, their helper programs built
# (build/kselftest/tools/testing/selftests): what the guests and the bench
# run.
helpers:
	scripts/selftests-stage.sh

# For test machines: the selftests on the running kernel, as root (a
# kernel with the series, cpuidle_budget.ko installed). KTAP per suite in
# build/results/selftests/, then the summary. What needs the emulated
# platform or another machine skips, saying why.
selftests: helpers
	scripts/selftests-run.sh

check: deps
	scripts/check.sh

# Every patch of every series built in order (scripts/bisect.sh): each
# series of ALONE_SERIES alone on pristine 6.12, then the full series.
# TAP and logs in build/bisect/; make check says, in a line before its
# summary, whether it ran for the patches as they are.
bisect: deps
	scripts/bisect.sh

# The A/B bench (bench/README.md): per scenario one continuous load, the
# governors in rotated blocks, paired 95% intervals and an A/A control;
# two guests at a time (-icount runs each on one host core). AB_ARGS are
# bench/ab.sh settings for every job (rounds=, settle=, measure=, ...).
AB_JOBS = @bench/ab.jobs
AB_ARGS ?=
export AB_ARGS
AB_RUN = bench/ab-run.sh --plot build/bench/plots build/bench/results.json \
	build/bench/ab-report.md

# Numbers, not tests: select() cost, the A/B bench's scenarios, a traced
# pass of the governors on the demo load (its idle traces through
# tools/cpuidle-analyze: the latency each state choice added), the
# scheduler knob off and on, and off against the kernel without the
# series (make baseline; it leaves build/linux at that tree, the test
# kernel stays built); build/bench/results.json, report.md, ab-report.md and
# plots/. Each run starts from an empty build/bench (no result of an
# older tree is carried into the report); an A/B scenario whose A/A
# interval excludes 1 fails the target after everything else has run
# and been reported.
bench: deps-plots modules helpers
	rm -rf build/bench
	scripts/vm-run.sh --name bench --icount 4 --timeout 1200 bench/idle-path.sh
	bench/bench-report.py build/results/vm-bench build/bench/results.json
	$(AB_RUN) $(AB_JOBS) || touch build/bench/ab-untrustworthy
	scripts/vm-run.sh --name demo --smp 6 --icount 4 --timeout 900 bench/demo.sh
	bench/demo-report.py build/results/vm-demo build/bench/results.json
	scripts/vm-run.sh --name bench-sched --smp 6 --icount 4 --timeout 1500 --hybrid \
		bench/sched.sh
	scripts/vm-run.sh --name bench-sched-smt --icount 4 --timeout 1500 --hybrid-smt \
		bench/sched.sh
	$(MAKE) baseline
	BASELINE=1 scripts/vm-run.sh --name bench-sched-base --smp 6 --icount 4 --timeout 1500 \
		--hybrid bench/sched.sh
	BASELINE=1 scripts/vm-run.sh --name bench-sched-smt-base --icount 4 --timeout 1500 \
		--hybrid-smt bench/sched.sh
	bench/bench-sched-report.py --baseline build/results/vm-bench-sched-base \
		no_smt build/results/vm-bench-sched build/bench/results.json
	bench/bench-sched-report.py --baseline build/results/vm-bench-sched-smt-base \
		smt build/results/vm-bench-sched-smt build/bench/results.json
	bench/bench-summary.py build/results build/bench
	@if [ -e build/bench/ab-untrustworthy ]; then \
		echo "make bench: an A/A interval excludes 1 or a guest failed (build/bench/ab-report.md)" >&2; \
		exit 1; fi

# The A/B bench alone; make sensitivity: the sweeps of
# bench/sensitivity.jobs, added to the same results and report.
ab: deps-plots modules helpers
	$(AB_RUN) $(AB_JOBS)

sensitivity: deps-plots modules helpers
	$(AB_RUN) @bench/sensitivity.jobs

# A short A/B bench: the same scenarios, four arms (menu, teo, its A/A
# twin teo2, budget) in 4 rounds of short blocks; the table on the
# terminal, build/demo/ab-report.md and a plot per scenario with the
# intervals in build/demo/plots/.
demo: deps-plots modules helpers
	AB_ARGS="arms=menu,teo,teo2,budget rounds=4 settle=3 measure=3 $(AB_ARGS)" \
		bench/ab-run.sh --plot build/demo/plots build/demo/results.json \
		build/demo/ab-report.md $(AB_JOBS)

# Debian binary packages of the patched kernel under Debian's own config,
# for test machines (build/deb/). Hours on 2 cores; not part of check.
deb: deps
	scripts/make-deb.sh

# Kbuild's clean deletes every object below M: M=$(CURDIR) would take
# build/ (the test kernel's objects) with it.
clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/drivers/cpuidle/governors/budget $(KCONFIG_FLAGS) \
		clean 2>/dev/null || true
	rm -f Module.symvers modules.order
	rm -rf build/results build/stage

distclean:
	rm -rf build
