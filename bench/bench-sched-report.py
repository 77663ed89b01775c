#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scheduler half of "make bench": build/bench/results.json "sched".

bench-sched-report.py [--baseline BASE_DIR] SHAPE RESULTS_DIR OUT_JSON

RESULTS_DIR is what bench/sched.sh left on a faked part of
SHAPE ("no_smt" or "smt"): per round and per setting of
kernel.sched_itmt_efficiency_first (off, on), rt-app's runs of two
workloads ("light": 4 tasks, 10 ms of work every 100 ms; "mixed": the same
and 2 CPU-bound tasks), each traced after a 2 s warm-up and summed up by
tools/sched-placement, the modeled package energy over them, rt-app's
wake-up latencies and a hackbench time. Per setting and round:

  light_on_e_pct        light workload: the light tasks' runtime share on
                        E-cores
  light_on_e_mixed_pct  the same in the mixed workload
  heavy_on_p_pct        mixed workload: the CPU-bound tasks' share on
                        P-cores
  heavy_migrations_per_s  mixed workload: migrations per CPU-bound task
                        and second
  energy_j, energy_mixed_j  modeled package energy over each workload
  wake_p99_us, wake_p99_mixed_us  99th percentile of the light tasks'
                        wake-up latency (rt-app's wu_lat, every period)
  hackbench_s           "hackbench -g 2 -l 100" time

OUT_JSON's "sched" gets SHAPE: each measure's per-round values, mean and
95% t-interval of the mean per setting, and "on_vs_off", the paired
interval of on against off over the rounds (> 1: on did better; energy,
latency and hackbench time lower is better). Times are -icount virtual
time. Existing keys of OUT_JSON, and the other shape, are kept.

With --baseline, BASE_DIR is what the same script left on the kernel
without the series (make baseline), whose rounds are of one setting,
"base": each measure also gets "base" and "off_minus_base", off's mean
less base's with its 95% interval (benchlib.difference(): two boots, so
unpaired). Knob off is meant to be that kernel: the interval should
hold 0, and its width says how close the bench can tell.
"""

import glob
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import difference, paired, t95, update_results  # noqa: E402

MODES = ("off", "on")
# Measure, and whether higher is better (for the paired on/off interval;
# None: no ratio, a share in percent is read against its bound).
MEASURES = {
    "light_on_e_pct": None, "light_on_e_mixed_pct": None, "heavy_on_p_pct": None,
    "heavy_migrations_per_s": None,
    "energy_j": False, "energy_mixed_j": False,
    "wake_p99_us": False, "wake_p99_mixed_us": False,
    "hackbench_s": False,
}


def light_class(classes):
    """The light tasks as one class: rt-app runs them as "light", or, one
    definition each, as light0, light1, ...; shares weighted by runtime."""
    parts = [c for name, c in classes.items() if re.fullmatch(r"light\d*", name)]
    runtime = sum(c.get("runtime_s", 0) for c in parts)
    if not parts or not runtime:
        return {}
    share = {}
    for c in parts:
        for kind, pct in c.get("share_pct", {}).items():
            share[kind] = share.get(kind, 0) + pct * c["runtime_s"] / runtime
    return {"tasks": sum(c.get("tasks", 0) for c in parts), "runtime_s": runtime,
            "share_pct": {k: round(v, 2) for k, v in share.items()}}


def share(cls, kind):
    """A class's runtime share (%) on a core type: 0.0 where it never ran
    there (sched-placement lists only the types it ran on), None where the
    class is missing."""
    if not cls.get("tasks"):
        return None
    return cls.get("share_pct", {}).get(kind, 0.0)


def placement(path):
    """The summary's light share on E, heavy share on P, and heavy
    migrations per task and second."""
    summary = json.load(open(path))
    classes, duration = summary["classes"], summary["duration_s"]
    light = light_class(classes)
    heavy = classes.get("heavy", {})
    migr = None
    if heavy.get("tasks") and duration:
        migr = round(heavy.get("migrations", 0) / (heavy["tasks"] * duration), 3)
    return (share(light, "E"), share(heavy, "P"), migr)


def energy_j(path):
    fields = open(path).read().split()
    return round(int(dict(zip(fields[::2], fields[1::2]))["energy_uj"]) / 1e6, 3)


def wake_p99_us(logdir):
    """p99 of wu_lat over every light task's periods in rt-app's logs."""
    lats = []
    for path in glob.glob(os.path.join(logdir, "rt-light*-*.log")):
        if not re.fullmatch(r"rt-light\d*-\d+\.log", os.path.basename(path)):
            continue
        names = None
        for line in open(path):
            if line.startswith("#idx"):
                names = line[1:].split()
            elif not line.startswith("#") and names and len(line.split()) == len(names):
                lats.append(int(dict(zip(names, line.split()))["wu_lat"]))
    if not lats:
        return None
    lats.sort()
    return lats[max(1, math.ceil(0.99 * len(lats))) - 1]


def round_numbers(results, mode, r):
    def f(kind, workload):
        return os.path.join(results, f"{kind}-{workload}-{mode}-{r}")

    light_e, _, _ = placement(f("placement", "light") + ".json")
    mixed_e, heavy_p, migr = placement(f("placement", "mixed") + ".json")
    times = open(os.path.join(results, f"hackbench-{mode}-{r}.txt")).read().split()
    return {"light_on_e_pct": light_e, "light_on_e_mixed_pct": mixed_e,
            "heavy_on_p_pct": heavy_p, "heavy_migrations_per_s": migr,
            "energy_j": energy_j(f("energy", "light") + ".txt"),
            "energy_mixed_j": energy_j(f("energy", "mixed") + ".txt"),
            "wake_p99_us": wake_p99_us(f("rtapp", "light")),
            "wake_p99_mixed_us": wake_p99_us(f("rtapp", "mixed")),
            "hackbench_s": float(times[0]) if times else None}


def mean_interval(values):
    """Mean and 95% t-interval of the mean of the values that exist."""
    got = [v for v in values if v is not None]
    if not got:
        return None
    mean = statistics.fmean(got)
    if len(got) < 2:
        return {"mean": round(mean, 3), "lo": None, "hi": None, "n": 1}
    half = t95(len(got) - 1) * statistics.stdev(got) / math.sqrt(len(got))
    return {"mean": round(mean, 3), "lo": round(mean - half, 3),
            "hi": round(mean + half, 3), "n": len(got)}


def rounds_in(results, mode):
    return sorted({int(os.path.basename(p)[:-4].rsplit("-", 1)[1])
                   for p in glob.glob(os.path.join(results, f"hackbench-{mode}-*.txt"))})


def main():
    args = sys.argv[1:]
    base_dir = None
    if args[:1] == ["--baseline"] and len(args) > 1:
        base_dir, args = args[1], args[2:]
    if len(args) != 3 or args[0] not in ("no_smt", "smt"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    shape, results, out_path = args
    rounds = rounds_in(results, "off")
    base_rounds = rounds_in(base_dir, "base") if base_dir else []
    if not rounds or (base_dir and not base_rounds):
        print(f"bench-sched-report: no rounds in {results if not rounds else base_dir}",
              file=sys.stderr)
        return 1
    per = {m: [round_numbers(results, m, r) for r in rounds] for m in MODES}
    if base_dir:
        per["base"] = [round_numbers(base_dir, "base", r) for r in base_rounds]
    out = {"rounds": len(rounds), "shape_table": open(os.path.join(results, "shape.txt")).read()}
    for key, higher in MEASURES.items():
        entry = {m: {"per_round": [d[key] for d in per[m]],
                     **(mean_interval([d[key] for d in per[m]]) or {})} for m in MODES}
        if higher is not None:
            # Throughput is 1/time, so for hackbench this is on's
            # throughput against off's.
            entry["on_vs_off"] = paired([d[key] for d in per["on"]],
                                        [d[key] for d in per["off"]], higher)
        if base_dir:
            values = [d[key] for d in per["base"]]
            entry["base"] = {"per_round": values, **(mean_interval(values) or {})}
            entry["off_minus_base"] = difference([d[key] for d in per["off"]], values)
        out[key] = entry
    out["how"] = (f"faked hybrid part ({shape}; scripts/vm-run.sh --hybrid"
                  f"{'-smt' if shape == 'smt' else ''}), QEMU -icount shift 4, one boot, "
                  f"{len(rounds)} rounds, off and on alternating first; rt-app: 4 light "
                  "tasks (10 ms of every 100 ms), alone and with 2 CPU-bound tasks, "
                  "traced 6 s after a 2 s warm-up; hackbench -g 2 -l 100; modeled "
                  "energy from the emulated platform (no limit binding). 6.12 has no "
                  "energy-aware scheduling on x86 to compare with.")
    if base_dir:
        out["how"] += (f" base: the kernel without the series (make baseline), one boot "
                       f"of its own, {len(base_rounds)} rounds.")
    sched = {}
    if os.path.exists(out_path):
        sched = json.load(open(out_path)).get("sched", {})
        if "off" in sched:  # the one-shape layout of older runs
            sched = {}
    sched[shape] = out
    update_results(out_path, {"sched": sched})
    for key in MEASURES:
        e = out[key]
        print(shape, key, "off", e["off"].get("mean"), "on", e["on"].get("mean"),
              "on/off", json.dumps(e.get("on_vs_off")),
              *(("base", e["base"].get("mean"), "off-base", json.dumps(e["off_minus_base"]))
                if base_dir else ()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
