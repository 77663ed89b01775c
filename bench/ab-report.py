#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ab-report.py RESULTS_JSON REPORT_MD RUN_DIR...: read bench/ab.sh's runs.

For every scenario under each RUN_DIR/ab/ (bench/ab.sh's "scenario" and
"blocks" files), the primary metric of each block, then for every pair of
arms the paired log-ratio over rounds (both arms' blocks of one round are
a pair: same load, adjacent in time) with its mean and 95% Student-t
interval, reported as a ratio: > 1 means the first arm did better. The A/A
pair (teo against teo2) must contain 1, or the scenario is marked not
trustworthy, and the exit status is 1. Writes key "ab" of RESULTS_JSON
(other keys kept) and REPORT_MD, a table per scenario.
"""

import json
import math
import os
import sys

# Two-sided 95% Student-t quantiles by degrees of freedom (1..30).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    """The two-sided 95% quantile of Student's t with df degrees of freedom."""
    return T95[df - 1] if df <= len(T95) else 1.96


def read_kv_lines(path):
    """One dict per line of key=value words."""
    rows = []
    with open(path) as f:
        for line in f:
            words = [w.split("=", 1) for w in line.split() if "=" in w]
            if words:
                rows.append(dict(words))
    return rows


def read_scenario(path):
    """The scenario file: "key value..." lines."""
    info = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition(" ")
            if key:
                info[key] = value
    return info


def csv_ints(text):
    return [int(x) for x in text.split(",") if x != ""]


# Primary metrics: name -> (function of (block, scenario), higher_is_better)
def p_mcycles_per_s(block, info):
    """Cycles per second of the P-cores (the busy CPUs of steady-15w)."""
    types = info["types"].split(",")
    dt = (int(block["b_time_us"]) - int(block["a_time_us"])) / 1e6
    cyc_a, cyc_b = csv_ints(block["a_mcycles"]), csv_ints(block["b_mcycles"])
    work = sum(b - a for a, b, t in zip(cyc_a, cyc_b, types) if t == "P")
    return work / dt


def energy_mw(block, info):
    """Average package power over the block."""
    dt = (int(block["b_time_us"]) - int(block["a_time_us"])) / 1e6
    return (int(block["b_energy_uj"]) - int(block["a_energy_uj"])) / 1e3 / dt


def rtapp_log(path):
    """rt-app's per-loop lines: dicts of its columns (times in us)."""
    rows, names = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("#idx"):
                names = line[1:].split()
            elif not line.startswith("#") and names and line.strip():
                rows.append(dict(zip(names, (int(x) for x in line.split()))))
    return rows


class Typing:
    """The keystrokes and frames of bench/typing.py's run, for slicing."""

    def __init__(self, directory):
        logs = os.path.join(directory, "rtapp")
        files = os.listdir(logs)

        def log(task):
            name = next(f for f in files if f.startswith(f"typing-{task}-"))
            return rtapp_log(os.path.join(logs, name))

        source = log("source")
        workers = [log(f"key{w}") for w in range(3)]
        # Key k: the source's k-th wake-up of worker k % 3, the worker's
        # (k // 3)-th burst; from the moment the key was sent to the end.
        self.keys = []
        for k, s in enumerate(source):
            w = workers[k % 3]
            if k // 3 < len(w):
                self.keys.append((s["end"], w[k // 3]["end"] - s["end"]))
        self.frames = [(f["start"], f["slack"] < 0) for f in log("frame")]

    def block(self, block):
        t0, t1 = int(block["a_time_us"]), int(block["b_time_us"])
        lat = sorted(lat for t, lat in self.keys if t0 <= t < t1)
        frames = [missed for t, missed in self.frames if t0 <= t < t1]
        return lat, frames


def percentile(sorted_values, p):
    """Nearest-rank percentile of a sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def key_p99_ms(block, info):
    """The keystrokes' 99th percentile latency in the block, ms."""
    lat, _ = info["typing"].block(block)
    return percentile(lat, 99) / 1000


def typing_details(block, info):
    """Secondary figures of a typing block."""
    lat, frames = info["typing"].block(block)
    return {"keys": len(lat), "key_p50_ms": percentile(lat, 50) / 1000,
            "key_p95_ms": percentile(lat, 95) / 1000,
            "frames": len(frames), "frames_missed": sum(frames)}


METRICS = {
    "p_mcycles_per_s": (p_mcycles_per_s, True),
    "key_p99_ms": (key_p99_ms, False),
}


def interval(logs):
    """Mean and 95% t-interval of a list of log-ratios, as ratios."""
    n = len(logs)
    mean = sum(logs) / n
    if n < 2:
        return {"est": math.exp(mean), "lo": None, "hi": None, "n": n}
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    return {"est": round(math.exp(mean), 5), "lo": round(math.exp(mean - half), 5),
            "hi": round(math.exp(mean + half), 5), "n": n}


def contains_one(ci):
    return ci["lo"] is not None and ci["lo"] <= 1.0 <= ci["hi"]


def analyse(directory):
    """The "ab" entry of one scenario directory."""
    info = read_scenario(os.path.join(directory, "scenario"))
    blocks = read_kv_lines(os.path.join(directory, "blocks"))
    if info["primary"] == "key_p99_ms":
        info["typing"] = Typing(directory)
    metric, higher_better = METRICS[info["primary"]]
    arms = info["arms"].split()
    per_round = {}
    for b in blocks:
        per_round.setdefault(int(b["round"]), {})[b["arm"]] = b
    values = {a: [] for a in arms}
    power = {a: [] for a in arms}
    details = {a: [] for a in arms}
    rounds = sorted(r for r, got in per_round.items() if all(a in got for a in arms))
    for r in rounds:
        for a in arms:
            values[a].append(metric(per_round[r][a], info))
            power[a].append(energy_mw(per_round[r][a], info))
            if "typing" in info:
                details[a].append(typing_details(per_round[r][a], info))
    out = {
        "part": info.get("part"),
        "pl1_mw": int(info["pl1_mw"]),
        "pl1_window_ms": int(info["pl1_window_ms"]),
        "settings": {k: info[k] for k in ("seed", "wpm", "work_pct") if k in info},
        "primary": info["primary"],
        "higher_is_better": higher_better,
        "rounds": len(rounds),
        "block_s": {"settle": float(info["settle_s"]), "measure": float(info["measure_s"])},
        "arms": {},
    }
    if len(rounds) < 2:
        out["error"] = f"{len(rounds)} complete rounds: no interval"
        return out
    for a in arms:
        entry = {
            "mean": round(sum(values[a]) / len(rounds), 3),
            "power_mw": round(sum(power[a]) / len(rounds), 1),
            "vs": {},
        }
        if details[a]:
            entry["typing"] = {k: round(sum(d[k] for d in details[a]) / len(rounds), 3)
                               for k in details[a][0]}
        for o in arms:
            if o == a:
                continue
            sign = 1 if higher_better else -1
            logs = [sign * math.log(x / y) for x, y in zip(values[a], values[o])]
            entry["vs"][o] = interval(logs)
        out["arms"][a] = entry
    if "teo" in arms and "teo2" in arms:
        out["aa"] = out["arms"]["teo"]["vs"]["teo2"]
        out["trustworthy"] = contains_one(out["aa"])
    return out


def fmt(ci):
    if ci["lo"] is None:
        return f'{ci["est"]:.3f}'
    return f'{ci["est"]:.3f} [{ci["lo"]:.3f}, {ci["hi"]:.3f}]'


def report(ab):
    lines = ["# A/B bench (bench/ab.sh)", ""]
    for name, s in sorted(ab.items()):
        lines += [f"## {name}", "",
                  f'part {s["part"]}, PL1 {s["pl1_mw"]} mW (window {s["pl1_window_ms"]} ms), '
                  f'{s["rounds"]} rounds of {s["block_s"]["settle"]:g} s settle + '
                  f'{s["block_s"]["measure"]:g} s measured blocks; primary metric '
                  f'{s["primary"]} ({"higher" if s["higher_is_better"] else "lower"} is better).', ""]
        if "error" in s:
            lines += [s["error"], ""]
            continue
        if "aa" in s:
            lines += [f'A/A (teo against teo2): {fmt(s["aa"])}: '
                      + ("contains 1." if s["trustworthy"] else
                         "**does not contain 1: this scenario's results are not trustworthy.**"), ""]
        arms = list(s["arms"])
        lines += ["| arm | mean | power mW | " + " | ".join(f"vs {o}" for o in arms) + " |",
                  "|---" * (len(arms) + 3) + "|"]
        for a in arms:
            e = s["arms"][a]
            cells = [fmt(e["vs"][o]) if o in e["vs"] else "" for o in arms]
            lines.append(f'| {a} | {e["mean"]} | {e["power_mw"]} | ' + " | ".join(cells) + " |")
        lines += ["", "Ratios > 1: the row's arm did better than the column's on the primary "
                  "metric (95% t-interval over the rounds' paired log-ratios).", ""]
    return "\n".join(lines)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    results_json, report_md = sys.argv[1], sys.argv[2]
    ab = {}
    for run in sys.argv[3:]:
        base = os.path.join(run, "ab")
        for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            d = os.path.join(base, name)
            if os.path.isfile(os.path.join(d, "blocks")):
                ab[name] = analyse(d)
    if not ab:
        sys.exit(f"no scenario under {' '.join(sys.argv[3:])}")
    try:
        with open(results_json) as f:
            results = json.load(f)
    except FileNotFoundError:
        results = {}
    results["ab"] = ab
    os.makedirs(os.path.dirname(os.path.abspath(results_json)), exist_ok=True)
    with open(results_json, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    text = report(ab)
    with open(report_md, "w") as f:
        f.write(text + "\n")
    print(text)
    # A scenario run without the A/A arm has no verdict; one whose A/A
    # interval excludes 1 fails the run.
    return 0 if all(s.get("trustworthy", True) for s in ab.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
