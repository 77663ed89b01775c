#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The last step of "make bench": analyse the idle traces, write the report.

bench-summary.py RESULTS_DIR BENCH_DIR

RESULTS_DIR is build/results after the bench's guests ran: vm-demo/demo
holds per scenario and governor an idle trace (idle.trace) and the state
table (sysfs). Each trace goes through tools/cpuidle-analyze; its summary
lands in BENCH_DIR/results.json as "idle_analysis" and its plots in
BENCH_DIR/plots/idle-SCENARIO-GOVERNOR/. Then BENCH_DIR/report.md is
written from everything results.json holds (select() cost, sampler
overhead, the governor comparison, the idle analysis, the scheduler
knob), with how each number was measured.
"""

import json
import os
import subprocess
import sys

BENCH = os.path.dirname(os.path.realpath(__file__))
TOOLS = os.path.join(BENCH, "..", "tools")
sys.path.insert(0, BENCH)
from benchlib import update_results  # noqa: E402
GOVERNORS = ("ladder", "menu", "teo", "budget")


def analyse_idle(results, bench):
    demo = os.path.join(results, "vm-demo", "demo")
    sysfs = os.path.join(demo, "sysfs")
    out = {}
    for scenario in ("limited", "unlimited"):
        for gov in GOVERNORS:
            run = os.path.join(demo, f"{scenario}-{gov}")
            trace = os.path.join(run, "idle.trace")
            if not os.path.exists(trace):
                continue
            plots = os.path.join(bench, "plots", f"idle-{scenario}-{gov}")
            p = subprocess.run([os.path.join(TOOLS, "cpuidle-analyze"), "--sysfs", sysfs,
                                "--json", "--plot", plots, trace],
                               capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"bench-summary: cpuidle-analyze on {trace}: {p.stderr.strip()}")
            s = json.loads(p.stdout)
            n = sum(c["usage"] for c in s["states"].values()) or 1
            out.setdefault(scenario, {})[gov] = {
                "periods": s["periods"],
                "oracle_energy_regret_pct": s["oracle_energy_regret_pct"],
                "oracle_latency_regret_us": s["oracle_latency_regret_us"],
                "exit_latency_p50_us": s["exit_latency_p50_us"],
                "exit_latency_p99_us": s["exit_latency_p99_us"],
                "latency_regret_p99_us": s["latency_regret_p99_us"],
                "too_deep_pct": round(100.0 * sum(c["too_deep"] for c in s["states"].values()) / n, 2),
                "too_shallow_pct": round(100.0 * sum(c["too_shallow"] for c in s["states"].values()) / n, 2),
                "states": s["states"],
                "power_assumed": s["power_assumed"],
                "plots": os.path.relpath(plots, bench),
            }
    return out


def state_power(sysfs):
    """[[state name, sysfs power figure]...] of cpu0 in the snapshot, in
    state order (a list: results.json's objects are written sorted)."""
    d = os.path.join(sysfs, "cpu0", "cpuidle")
    figures = []
    for k in range(len(os.listdir(d))):
        with open(os.path.join(d, f"state{k}", "name")) as f:
            name = f.read().strip()
        with open(os.path.join(d, f"state{k}", "power")) as f:
            figures.append([name, int(f.read())])
    return figures


def fmt(v, spec=""):
    if v is None:
        return "n/a"
    return format(v, spec)


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def power_figures(data):
    """The state table's power figures, in words, for the report."""
    figures = data.get("idle_state_power_mw", [])
    text = ", ".join(f"{n} {mw} mW" if 0 < mw < 2 ** 31 else f"{n} none"
                     for n, mw in figures) or "not recorded"
    assumed = sorted({n for govs in data.get("idle_analysis", {}).values()
                      for v in govs.values() for n in v.get("power_assumed", [])})
    if assumed:
        text += (f" ({', '.join(assumed)} counted at the next state's power, a lower "
                 "bound: the kernel gives the poll state no figure)")
    return text


# The pairs of the A/B bench that say where the governors stand.
STANDING = (("budget", "teo"), ("budget", "menu"), ("menu", "teo"),
            ("budget-energy", "budget-lat"))


def interval_text(ci):
    if not ci:
        return "-"
    if ci.get("lo") is None:
        return f"{ci['est']:.3f}"
    return f"{ci['est']:.3f} [{ci['lo']:.3f}, {ci['hi']:.3f}]"


def ab_standing(ab):
    """Lines of the report: per A/B scenario (bench/ab-report.py's "ab"),
    the A/A control and budget, menu and teo against each other."""
    if not ab:
        return []
    md = ["## Where budget, menu and teo stand (the A/B bench, bench/README.md)", "",
          "Per scenario, the paired 95% interval of the primary metric over the "
          "rounds, as a ratio: > 1, the first arm did better. budget-energy and "
          "budget-lat are budget with its signals overridden to pressure 1024 and 0. "
          "The details, the secondary figures and the per-round values are in "
          "ab-report.md and results.json (key ab).", ""]
    rows = []
    for name, s in sorted(ab.items()):
        arms = s.get("arms", {})
        cells = [interval_text(arms.get(a, {}).get("vs", {}).get(b)) for a, b in STANDING]
        if "error" in s:
            cells = [s["error"]] + [""] * (len(STANDING) - 1)
        aa = interval_text(s.get("aa"))
        if "aa" in s and not s.get("trustworthy"):
            aa += " (not trustworthy)"
        rows.append([name, s.get("primary", "-"), s.get("rounds", 0), aa] + cells)
    md.append(table(["scenario", "primary", "rounds", "A/A (teo vs teo2)"]
                    + [f"{a} vs {b}" for a, b in STANDING], rows))
    md.append("")
    return md


def report(data):
    md = ["# cpuidle-budget bench report", "",
          "Everything below was measured in QEMU guests under `-icount` virtual time "
          "(shift 4: one guest instruction is 16 ns), on the project's test kernel. "
          "Virtual time makes the numbers independent of how loaded the host is; "
          "ratios between governors or settings come from the same boot and the same "
          "workload. Wall-clock latencies under -icount include the time a vCPU waits "
          "for its turn (the vCPUs run one after another), milliseconds that no "
          "governor or scheduler controls.", ""]

    if "select_cost_ns" in data:
        md += ["## Idle re-entry cost (select + reflect)", "",
               data.get("select_cost_method", ""), ""]
        md.append(table(["governor", "median ns", "samples"],
                        [[g, data["select_cost_ns"].get(g),
                          data.get("select_cost_detail", {}).get(g, {}).get("samples", "")]
                         for g in GOVERNORS if g in data["select_cost_ns"]]))
        md.append("")
    if "sampler_cpu_pct" in data:
        d = data.get("sampler_detail", {})
        md += ["## Budget sampler overhead", "",
               f"{data['sampler_cpu_pct']:.3f}% of one CPU: {d.get('samples')} samples "
               f"in {d.get('wall_s')} s, {d.get('ns_per_sample')} ns each, reading the "
               "emulated platform as its power source.", ""]

    sc = data.get("scenarios", {})
    if sc:
        md += ["## Governors on the emulated power-limited 2P+4E platform", "",
               data.get("scenarios_method", ""), ""]
        for scenario, govs in sc.items():
            md += [f"### {scenario}", ""]
            md.append(table(
                ["governor", "busy ops/s", "energy J", "avg power W", "time at limit %",
                 "wake p50 us", "wake p99 us", "mean pressure"],
                [[g, fmt(v.get("busy_ops_per_s"), ".0f"), fmt(v.get("energy_j"), ".1f"),
                  fmt(v.get("avg_power_w"), ".2f"), fmt(v.get("time_at_limit_pct")),
                  fmt(v.get("wake_lat_p50_us")),
                  (">= " if v.get("wake_lat_p99_lower_bound") else "") +
                  fmt(v.get("wake_lat_p99_us")), fmt(v.get("mean_pressure"))]
                 for g, v in govs.items() if g != "ratios"]))
            ratios = govs.get("ratios", {})
            if ratios:
                md += ["", "Ratios: " + ", ".join(f"{k} {fmt(v)}" for k, v in ratios.items())]
            md.append("")

    md += ab_standing(data.get("ab", {}))

    ia = data.get("idle_analysis", {})
    if ia:
        md += ["## Idle decisions against an oracle (tools/cpuidle-analyze)", "",
               "Each idle period of the runs above, with its real length (traced time "
               "minus the chosen state's exit latency), against an oracle that knew "
               "the length and picked the cheapest state for it. A state's energy over "
               "L is P*L + (P0-P)*T (P its power from sysfs, T its target residency, "
               "P0 the shallowest state's power: T is the break-even time). The power "
               "figures are the state table's, fixed per state, not the platform "
               "model's, which vary with the voltage: " + power_figures(data) + ". Too deep: "
               "the period was shorter than the state's target residency; too "
               "shallow: a deeper state's target fitted. Latency regret: exit latency "
               "paid beyond the oracle's state, per period. Exit p50/p99: the "
               "latency the governor added to each wake-up (the chosen state's exit "
               "latency), from the trace; wake p99: cyclictest's measured wake-up "
               "latency of the same run (the table above), for comparison.", ""]
        for scenario, govs in ia.items():
            measured = sc.get(scenario, {})
            md += [f"### {scenario}", ""]
            md.append(table(
                ["governor", "periods", "energy regret %", "latency regret us/period",
                 "regret p99 us", "exit p50 us", "exit p99 us", "wake p99 us",
                 "too deep %", "too shallow %", "plots"],
                [[g, v["periods"], fmt(v["oracle_energy_regret_pct"], ".2f"),
                  fmt(v["oracle_latency_regret_us"], ".1f"),
                  fmt(v.get("latency_regret_p99_us")), fmt(v.get("exit_latency_p50_us")),
                  fmt(v.get("exit_latency_p99_us")),
                  fmt(measured.get(g, {}).get("wake_lat_p99_us")), v["too_deep_pct"],
                  v["too_shallow_pct"], f"[{v['plots']}]({v['plots']}/residency.png)"]
                 for g, v in govs.items()]))
            md.append("")

    sched = data.get("sched", {})
    shapes = [k for k in ("no_smt", "smt") if k in sched]
    if shapes:
        md += ["## Scheduler: kernel.sched_itmt_efficiency_first", ""]
    for shape in shapes:
        s = sched[shape]
        md += [f"### {shape}", "", s.get("how", ""), "",
               "Mean over the rounds [95% t-interval of the mean]; on/off: the "
               "paired interval over the rounds, > 1 when on did better "
               "(hackbench: on's throughput against off's).", ""]

        def cell(e):
            if not e or e.get("mean") is None:
                return "-"
            if e.get("lo") is None:
                return fmt(e["mean"])
            return f"{fmt(e['mean'])} [{fmt(e['lo'])}, {fmt(e['hi'])}]"

        def ratio(c):
            return "-" if not c else f"{c['est']:.3f} [{c['lo']:.3f}, {c['hi']:.3f}]"

        keys = [k for k in s if isinstance(s[k], dict) and "off" in s[k]]
        md.append(table(["measure", "off", "on", "on/off"],
                        [[k, cell(s[k]["off"]), cell(s[k]["on"]),
                          ratio(s[k].get("on_vs_off"))] for k in keys]))
        md.append("")
    return "\n".join(md) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench-summary.py RESULTS_DIR BENCH_DIR")
    results, bench = sys.argv[1:]
    path = os.path.join(bench, "results.json")
    ia = analyse_idle(results, bench)
    new = {}
    if ia:
        new = {"idle_analysis": ia, "idle_state_power_mw":
               state_power(os.path.join(results, "vm-demo", "demo", "sysfs"))}
    data = update_results(path, new)
    with open(os.path.join(bench, "report.md"), "w") as f:
        f.write(report(data))
    print(f"bench-summary: {path}, {os.path.join(bench, 'report.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
