#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw figures of bench/demo.sh into the demo's table and
the "scenarios" key of build/bench/results.json.

demo-report.py RESULTS_DIR JSON_OUT

RESULTS_DIR/demo/<scenario>-<governor>/ holds, per run: stress.yaml
(stress-ng --yaml), cyclictest.hist (cyclictest -h, one column per
thread), states.before/after (per CPU and idle state: usage and time in
us), platform.before/after (the emulated platform's debugfs file:
energy_uj, throttled_us, ...), pressure (budget's package pressure,
and the model's energy, power and frequency scale, sampled every 100 ms)
and run (secs, t0, t1: guest time).

Columns:
  busy_ops/s   stress-ng bogo-ops per second (real time), both P-core
               workers together: the busy CPUs' throughput
  p50/p99/max  cyclictest wake-up latency over all E-core threads, us
               (max from cyclictest's own maximum, beyond the histogram;
               a p99 at the histogram's end, 20000, is only a lower bound)
  energy_J     modeled package energy over the run
  power_W      energy_J / run time
  limit%       share of the run the model held the package at its limit
  pressure     budget's mean package pressure (0..1024), only for budget
  residency    share of all CPUs' idle time in each state
JSON_OUT is merged: its other keys are kept.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import cyclictest_latency, update_results  # noqa: E402


def read_kv(path):
    """Lines "key value" into a dict of numbers (or strings)."""
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                try:
                    out[parts[0]] = float(parts[1])
                except ValueError:
                    out[parts[0]] = parts[1]
    return out


def stress_ops_per_s(path):
    """Sum of bogo-ops-per-second-real-time over the stressors."""
    total = 0.0
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*bogo-ops-per-second-real-time:\s*([0-9.]+)", line)
            if m:
                total += float(m.group(1))
    return total


def residency(before, after):
    """Share of idle time (all CPUs) per state name, in percent."""
    def load(path):
        out = {}
        with open(path) as f:
            for line in f:
                key, name, usage, time_us = line.split()
                out[key] = (name, int(usage), int(time_us))
        return out

    b, a = load(before), load(after)
    per_state = {}
    for key, (name, _, t1) in a.items():
        t0 = b.get(key, (name, 0, 0))[2]
        per_state[name] = per_state.get(name, 0) + max(t1 - t0, 0)
    total = sum(per_state.values())
    return {k: round(100.0 * v / total, 2) if total else 0.0 for k, v in per_state.items()}


def one_run(d):
    run = read_kv(os.path.join(d, "run"))
    secs = run["t1"] - run["t0"]
    p0 = read_kv(os.path.join(d, "platform.before"))
    p1 = read_kv(os.path.join(d, "platform.after"))
    energy_j = (p1["energy_uj"] - p0["energy_uj"]) / 1e6
    p50, p99, lmax, hist_end = cyclictest_latency(os.path.join(d, "cyclictest.hist"))
    res = {
        "busy_ops_per_s": round(stress_ops_per_s(os.path.join(d, "stress.yaml")), 3),
        "wake_lat_p50_us": p50,
        "wake_lat_p99_us": p99,
        "wake_lat_max_us": lmax,
        "energy_j": round(energy_j, 3),
        "avg_power_w": round(energy_j / secs, 3) if secs > 0 else None,
        "time_at_limit_pct": round(100.0 * (p1["throttled_us"] - p0["throttled_us"]) /
                                   (secs * 1e6), 1) if secs > 0 else None,
        "residency_pct": residency(os.path.join(d, "states.before"),
                                   os.path.join(d, "states.after")),
        "run_s": round(secs, 3),
        # p99 beyond the histogram: only a lower bound (no ratio made of it)
        "wake_lat_p99_lower_bound": p99 is not None and p99 >= hist_end,
    }
    samples_file = os.path.join(d, "samples")
    if os.path.exists(samples_file):
        # pressure energy_uj power_mw freq_scale (the platform file's order)
        with open(samples_file) as f:
            rows = [line.split() for line in f if len(line.split()) == 4]
        if rows:
            res["mean_pressure"] = round(sum(int(r[0]) for r in rows) / len(rows), 1)
            res["mean_freq_scale"] = round(sum(int(r[3]) for r in rows) / len(rows), 1)
    return res


def fmt(v, width, prec=0):
    if v is None:
        return "-".rjust(width)
    return f"{v:{width}.{prec}f}"


def main():
    results, out = sys.argv[1], sys.argv[2]
    demo = os.path.join(results, "demo")
    scenarios = {}
    for entry in sorted(os.listdir(demo)):
        d = os.path.join(demo, entry)
        if not os.path.isdir(d) or "-" not in entry:
            continue
        scenario, gov = entry.split("-", 1)
        try:
            scenarios.setdefault(scenario, {})[gov] = one_run(d)
        except (OSError, KeyError, ValueError) as e:
            sys.exit(f"demo-report: {d}: incomplete run ({e})")
    if not scenarios:
        sys.exit(f"demo-report: no runs in {demo}")

    order = ["ladder", "menu", "teo", "budget"]
    for scenario in ("limited", "unlimited"):
        runs = scenarios.get(scenario)
        if not runs:
            continue
        states = sorted({s for r in runs.values() for s in r["residency_pct"]},
                        key=lambda s: ["POLL", "C1", "C1E", "C6", "C8", "C10"].index(s)
                        if s in ["POLL", "C1", "C1E", "C6", "C8", "C10"] else 99)
        print(f"\nscenario {scenario}")
        print(f"{'governor':8} {'busy_ops/s':>10} {'p50':>6} {'p99':>6} {'max':>6} "
              f"{'energy_J':>8} {'power_W':>7} {'limit%':>6} {'pressure':>8}  "
              "residency % " + " ".join(f"{s:>5}" for s in states))
        for gov in sorted(runs, key=lambda g: order.index(g) if g in order else 99):
            r = runs[gov]
            print(f"{gov:8} {fmt(r['busy_ops_per_s'], 10, 2)} {fmt(r['wake_lat_p50_us'], 6)} "
                  f"{fmt(r['wake_lat_p99_us'], 6)} {fmt(r['wake_lat_max_us'], 6)} "
                  f"{fmt(r['energy_j'], 8, 2)} {fmt(r['avg_power_w'], 7, 2)} "
                  f"{fmt(r['time_at_limit_pct'], 6, 1)} {fmt(r.get('mean_pressure'), 8)}  "
                  "            " +
                  " ".join(fmt(r["residency_pct"].get(s), 5, 1) for s in states))
        ratios = goal_ratios(runs, scenario)
        if ratios:
            print("  " + "; ".join(f"{k} {v}" for k, v in ratios.items()))
        runs_ratios = {k: v for k, v in ratios.items()}
        scenarios[scenario] = dict(runs)
        if runs_ratios:
            scenarios[scenario]["ratios"] = runs_ratios

    update_results(out, {
        "scenarios": scenarios,
        "scenarios_method": (
            "bench/demo.sh under -icount: 2 stress-ng workers on the P-cores, "
            "cyclictest and cross-CPU wake-ups on the E-cores, the same run per governor; "
            "energy, power and time at limit from the emulated platform's model "
            "(tests/emul)")})


def goal_ratios(runs, scenario):
    """The issue's goal ratios, where the runs for them exist."""
    b, t, m = runs.get("budget"), runs.get("teo"), runs.get("menu")
    out = {}
    if not (b and t):
        return out

    def ratio(x, y):
        return round(x / y, 3) if x is not None and y else None

    def p99_ratio():
        if b["wake_lat_p99_lower_bound"] or t["wake_lat_p99_lower_bound"]:
            return None  # beyond cyclictest's histogram: not comparable
        return ratio(b["wake_lat_p99_us"], t["wake_lat_p99_us"])

    if scenario == "limited" and m:
        best = max(t["busy_ops_per_s"], m["busy_ops_per_s"])
        out["budget_ops_vs_best_of_menu_teo"] = ratio(b["busy_ops_per_s"], best)
        out["budget_p99_vs_teo"] = p99_ratio()
    if scenario == "unlimited":
        out["budget_p99_vs_teo"] = p99_ratio()
        out["budget_energy_vs_teo"] = ratio(b["energy_j"], t["energy_j"])
    return out


if __name__ == "__main__":
    main()
