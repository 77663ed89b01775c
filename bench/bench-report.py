#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's bench output into numbers in build/bench/results.json.

bench-report.py RESULTS_DIR OUT_JSON

Per-call cost, per governor: on one CPU, the time from a cpu_idle exit
event (the CPU woke up) to the next cpu_idle entry event (it chose and
enters a state again), counted only when no other traced event happened
on that CPU in between: no task switch and no hrtimer start or cancel, so
the tick was neither stopped nor restarted. What remains is the governor's
reflect() and select() plus the idle loop's own bookkeeping, the same code
for every governor: differences between governors are their own costs,
and ratios understate them. Gaps where the tick was stopped or restarted
are reported apart (reentry_with_tick_ns): they mostly measure how often a
governor stops the tick. Medians, in ns of -icount virtual time; trace
timestamps have 1 us resolution.

budget_p1024 and budget_p1024_stats are budget at pressure 1024 (the
signal override) without and with the bias statistics, whose second pass
over the states every selection under pressure used to make; their
ratios to teo are in select_cost_vs_teo.

Sampler overhead: the budget sampler's accumulated run time over a loaded
interval, as a percentage of one CPU.

Existing keys of OUT_JSON are kept; these are replaced.
"""

import json
import os
import random
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import update_results  # noqa: E402

EVENT = re.compile(r"\[(\d+)\].*?\s(\d+\.\d+): (cpu_idle|sched_switch|hrtimer_start|hrtimer_cancel): (.*)$")
EXIT = "state=4294967295"


def reentry_gaps(path):
    """(clean gaps, gaps with tick changes), in ns."""
    last_exit, touched = {}, {}
    clean, tick = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = EVENT.search(line)
            if not m:
                continue
            cpu, ts, event, rest = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
            if event == "sched_switch":
                last_exit.pop(cpu, None)
            elif event.startswith("hrtimer"):
                touched[cpu] = True
            elif rest.startswith(EXIT):
                last_exit[cpu] = ts
                touched[cpu] = False
            elif cpu in last_exit:
                gap = (ts - last_exit.pop(cpu)) * 1e9
                (tick if touched.get(cpu) else clean).append(gap)
    return clean, tick


def bootstrap_medians(gaps, n=1000, seed=1):
    """Medians of @n resamples of @gaps (fixed seed: the report repeats)."""
    rng = random.Random(seed)
    k = len(gaps)
    return [statistics.median(rng.choices(gaps, k=k)) for _ in range(n)]


def interval(values):
    """The 2.5th and 97.5th percentiles of @values."""
    v = sorted(values)
    return [v[int(0.025 * (len(v) - 1))], v[int(0.975 * (len(v) - 1))]]


def main(results, out):
    data = {}
    cost, detail, boots = {}, {}, {}
    for name in sorted(os.listdir(results)):
        m = re.match(r"trace-(\w+)\.txt$", name)
        if not m:
            continue
        gaps, tick = reentry_gaps(os.path.join(results, name))
        if not gaps:
            continue
        cost[m.group(1)] = round(statistics.median(gaps))
        boots[m.group(1)] = bootstrap_medians(gaps)
        detail[m.group(1)] = {"samples": len(gaps),
                              "mean_ns": round(statistics.mean(gaps)),
                              "p90_ns": round(sorted(gaps)[int(0.9 * len(gaps))]),
                              "reentry_with_tick_samples": len(tick),
                              "reentry_with_tick_ns": round(statistics.median(tick)) if tick else None,
                              "median_ci95_ns": [round(x) for x in interval(boots[m.group(1)])]}
    data["select_cost_ns"] = cost
    data["select_cost_detail"] = detail
    data["select_cost_method"] = ("median idle re-entry path (cpu_idle exit to next entry, "
                                  "no task switch or hrtimer change between): reflect + "
                                  "select + idle loop, -icount virtual ns")
    with open(os.path.join(results, "sampler.txt")) as f:
        words = f.read().split()
    sampler_ns, wall_s, samples = int(words[1]), float(words[3]), int(words[5])
    data["sampler_cpu_pct"] = round(100.0 * sampler_ns / (wall_s * 1e9), 5)
    data["sampler_detail"] = {"samples": samples, "wall_s": wall_s,
                              "ns_per_sample": round(sampler_ns / samples) if samples else None,
                              "samples_per_s": round(samples / wall_s, 1)}
    update_results(out, data)
    print(json.dumps({k: data[k] for k in ("select_cost_ns", "sampler_cpu_pct")}))
    if "teo" in cost:
        # Percentile bootstrap of the ratio of medians, each governor's
        # gaps resampled on their own (independent runs).
        ratios, cis = {}, {}
        for g in cost:
            if g == "teo":
                continue
            ratios[g] = round(cost[g] / cost["teo"], 3)
            cis[g] = [round(x, 3) for x in
                      interval([a / b for a, b in zip(boots[g], boots["teo"])])]
        update_results(out, {"select_cost_vs_teo": ratios,
                             "select_cost_vs_teo_ci95": cis})
        for g in sorted(ratios):
            print(f"{g} / teo re-entry cost: {ratios[g]:.3f} "
                  f"(95% CI {cis[g][0]:.3f}..{cis[g][1]:.3f})")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
