#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scheduler half of "make bench": build/bench/results.json "sched".

bench-sched-report.py RESULTS_DIR OUT_JSON

RESULTS_DIR is what tests/guest/bench-sched.sh left: per mode (off, on,
on_no_fit) placement summaries from tools/sched-placement of two
workloads ("light": 4 tasks busy 10 ms of every 100 ms; "mixed": the same
plus 2 CPU-bound tasks), traced after a 2 s warm-up, the modeled energy
over them, hackbench times and a cyclictest histogram. Per mode:

  light_on_e_pct    light workload: the light tasks' runtime share on
                    E-cores
  light_on_e_mixed_pct  the same in the mixed workload
  heavy_on_p_pct    mixed workload: the CPU-bound tasks' share on P-cores
  migrations_per_s  mixed workload: migrations per task per second, light
                    and heavy tasks together (wake-up placement and load
                    balancing)
  energy_j          modeled package energy over the light workload
  energy_mixed_j    the same over the mixed workload
  hackbench_s       median of three "hackbench -g 4 -l 200" times
  wake_lat_p99_us   99th percentile of cyclictest's wake-up latency, all
                    threads together, with 4 light tasks running; a value
                    past the histogram is reported as its bound with
                    "wake_lat_p99_beyond_histogram": true

and "ratios" of on against off. Times are -icount virtual time. Existing
keys of OUT_JSON are kept; "sched" is replaced.
"""

import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import cyclictest_latency, update_results  # noqa: E402

MODES = ("off", "on", "on_no_fit")


def placement(path):
    """(light share on E, heavy share on P, migrations per task and s)."""
    summary = json.load(open(path))
    classes, duration = summary["classes"], summary["duration_s"]
    light = classes.get("light-0", {})
    heavy = classes.get("heavy-0", {})
    migrations = light.get("migrations", 0) + heavy.get("migrations", 0)
    tasks = light.get("tasks", 0) + heavy.get("tasks", 0)
    return (light.get("share_pct", {}).get("E", 0.0),
            heavy.get("share_pct", {}).get("P", 0.0),
            round(migrations / (tasks * duration), 3) if tasks and duration else None)


def energy_j(path):
    fields = open(path).read().split()
    return round(int(dict(zip(fields[::2], fields[1::2]))["energy_uj"]) / 1e6, 3)


def mode_numbers(results, mode):
    light_e, _, _ = placement(os.path.join(results, f"placement-light-{mode}.json"))
    mixed_e, heavy_p, migr = placement(os.path.join(results, f"placement-mixed-{mode}.json"))
    out = {"light_on_e_pct": light_e, "light_on_e_mixed_pct": mixed_e,
           "heavy_on_p_pct": heavy_p, "migrations_per_s": migr,
           "energy_j": energy_j(os.path.join(results, f"energy-light-{mode}.txt")),
           "energy_mixed_j": energy_j(os.path.join(results, f"energy-mixed-{mode}.txt"))}
    times = [float(x) for x in open(os.path.join(results, f"hackbench-{mode}.txt")).read().split()]
    out["hackbench_s"] = statistics.median(times) if times else None
    _, p99, _, hist_end = cyclictest_latency(os.path.join(results, f"cyclictest-{mode}.txt"))
    out["wake_lat_p99_us"] = p99
    if p99 is not None and p99 >= hist_end:
        out["wake_lat_p99_beyond_histogram"] = True
    return out


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results, out_path = sys.argv[1:]
    sched = {mode: mode_numbers(results, mode) for mode in MODES}
    on, off = sched["on"], sched["off"]
    sched["ratios"] = {
        # Throughput is 1/time: on's throughput relative to off's.
        "hackbench_throughput_on_vs_off": ratio(off["hackbench_s"], on["hackbench_s"]),
        "wake_lat_p99_on_vs_off": None if on.get("wake_lat_p99_beyond_histogram") or
        off.get("wake_lat_p99_beyond_histogram") else ratio(on["wake_lat_p99_us"],
                                                             off["wake_lat_p99_us"]),
        "energy_on_vs_off": ratio(on["energy_j"], off["energy_j"]),
        "energy_mixed_on_vs_off": ratio(on["energy_mixed_j"], off["energy_mixed_j"]),
    }
    sched["how"] = ("faked 2P+4E guest (fake_hybrid=), QEMU -icount shift 4, "
                    "one boot; placement and energy of 4 light tasks (10 ms "
                    "per 100 ms), alone and with 2 CPU-bound tasks, traced "
                    "6 s after a 2 s warm-up; hackbench -g 4 -l 200 median "
                    "of 3; cyclictest --laptop -t 4 -i 1000 with 4 light tasks")
    update_results(out_path, {"sched": sched})
    for mode in MODES:
        print(mode, json.dumps(sched[mode]))
    print("ratios", json.dumps(sched["ratios"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
