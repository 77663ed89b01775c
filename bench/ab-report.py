#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ab-report.py [--plot DIR] RESULTS_JSON REPORT_MD RUN_DIR...: read bench/ab.sh's runs.

For every scenario under each RUN_DIR/ab/ (bench/ab.sh's "scenario" and
"blocks" files), the primary metric of each block, then for every pair of
arms the paired log-ratio over rounds (both arms' blocks of one round are
a pair: same load, adjacent in time) with its mean and 95% Student-t
interval, reported as a ratio: > 1 means the first arm did better. The A/A
pair (teo against teo2) must contain 1, or the scenario is marked not
trustworthy, and the exit status is 1. Writes key "ab" of RESULTS_JSON
(other keys kept; within "ab", this run's scenarios replace their
namesakes, others stay) and REPORT_MD, a table per scenario and the
sensitivity tables of scenarios run with variant=; with --plot, DIR/ab-
SCENARIO.png, every arm against teo with its interval.
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import detectable, interval, paired, sd_of, t95  # noqa: E402


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
    # int(float()): ab.sh before 2026-12-06 let awk print sums past 2^31
    # as 2.17402e+09 (six digits: a few ms of a block's summed idle time).
    return [int(float(x)) for x in text.split(",") if x != ""]


# Primary metrics: name -> (function of (block, scenario), higher_is_better)
def _p_mcycles(block, info):
    """The P-cores' Mcycles over the block."""
    types = info["types"].split(",")
    cyc_a, cyc_b = csv_ints(block["a_mcycles"]), csv_ints(block["b_mcycles"])
    return sum(b - a for a, b, t in zip(cyc_a, cyc_b, types) if t == "P")


def p_mcycles_per_s(block, info):
    """Cycles per second of the P-cores (the busy CPUs of steady-15w)."""
    dt = (int(block["b_time_us"]) - int(block["a_time_us"])) / 1e6
    return _p_mcycles(block, info) / dt


def energy_mw(block, info):
    """Average package power over the block: idle-* and video-*'s primary
    metric, whose load does the same work in every block, so that its
    energy is its power times the block's length."""
    dt = (int(block["b_time_us"]) - int(block["a_time_us"])) / 1e6
    return (int(block["b_energy_uj"]) - int(block["a_energy_uj"])) / 1e3 / dt


def p_mcycles_per_burst(block, info):
    """The Mcycles one P-core's burst delivers (burst-* and turbo-*): the
    bursts are time-boxed, burst_ms of spinning, so a burst's work is the
    P-cores' cycles per busy ms over the block times burst_ms. Per busy
    time, not per block: the measured span (measure plus the edges'
    reads) is no whole number of burst periods, and a burst cut by an
    edge would count by where the edge fell. None without P-core busy
    time."""
    types = info["types"].split(",")
    cyc, busy = _per_cpu(block, "mcycles"), _per_cpu(block, "busy_ms")
    p_cyc = sum(c for c, t in zip(cyc, types) if t == "P")
    p_busy = sum(b for b, t in zip(busy, types) if t == "P")
    return p_cyc / p_busy * int(info["burst_ms"]) if p_busy > 0 else None


def work_unit(info):
    """(name, count of the work in a block) of the scenario, or None:
    WORK_UNITS by primary metric, video's frames (its primary is power)."""
    if info.get("scenario", "").startswith("video"):
        return ("uJ per frame", _frames)
    return WORK_UNITS.get(info["primary"])


def energy_per_work(block, info):
    """Energy per unit of the scenario's work (work_unit()), or None: the
    primary metric's cost, so that a faster arm that pays for its speed
    in energy shows it."""
    unit = work_unit(info)
    if unit is None:
        return None
    energy_uj = int(block["b_energy_uj"]) - int(block["a_energy_uj"])
    work = unit[1](block, info)
    return round(energy_uj / work, 3) if work else None


def _requests(block, info):
    return int(block["b_requests"]) - int(block["a_requests"])


def _keys(block, info):
    """The keystrokes served in the block (the lost ones did no work)."""
    lat, _ = info["typing"].block(block)
    return len(lat) - info["typing"].lost_in(block) if lat else 0


def _frames(block, info):
    return len(info["video"].block(block))


# Per primary metric, the unit of work its energy is divided by: (name,
# count of the work in a block). Idle has no work: its power is all.
WORK_UNITS = {
    "p_mcycles_per_s": ("uJ per P-core Mcycle", _p_mcycles),
    "p_mcycles_per_burst": ("uJ per P-core Mcycle", _p_mcycles),
    "iops": ("uJ per request", _requests),
    "key_p90_ms": ("uJ per keystroke", _keys),
    "key_p99_ms": ("uJ per keystroke", _keys),
    "power_mw": None,
}


def rtapp_log(path):
    """rt-app's per-loop lines: dicts of its columns (times in us). A line
    without every column (the last one, when ab.sh's SIGTERM stopped
    rt-app in the middle of writing it) is left out."""
    rows, names = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("#idx"):
                names = line[1:].split()
            elif not line.startswith("#") and names and line.strip():
                values = line.split()
                if len(values) == len(names):
                    rows.append(dict(zip(names, (int(x) for x in values))))
    return rows


def rtapp_dirs(directory):
    """The directories of rt-app's logs: one per round (rtapp/rN/, rt-app
    restarted with each round's seed), or rtapp/ itself in runs before
    2026-12-07."""
    logs = os.path.join(directory, "rtapp")
    rounds = sorted((d for d in os.listdir(logs) if d[:1] == "r" and d[1:].isdigit()),
                    key=lambda d: int(d[1:]))
    return [os.path.join(logs, d) for d in rounds] or [logs]


class Typing:
    """The keystrokes and frames of bench/typing-rtapp.py's run, for slicing."""

    def __init__(self, directory):
        self.keys, self.lost, self.frames = [], [], []
        for logs in rtapp_dirs(directory):
            files = os.listdir(logs)

            def log(task):
                # None: rt-app left no log (a round cut short); its blocks
                # then hold no keystroke and their round is dropped.
                name = next((f for f in files if f.startswith(f"typing-{task}-")), None)
                return rtapp_log(os.path.join(logs, name)) if name else []

            source = log("source")
            workers = [log(f"key{w}") for w in range(3)]
            keys, lost = self.pair([s["end"] for s in source], workers)
            self.keys += keys
            self.lost += lost
            # Frames: start, and whether the frame missed its deadline:
            # rt-app's slack (the time left before the next period's
            # timer) below 0. A loop's end - start is the whole period,
            # timer wait included.
            self.frames += [(f["start"], f["slack"] < 0) for f in log("frame")]
        self.keys.sort()
        self.lost.sort()
        self.frames.sort()

    @staticmethod
    def pair(sent, workers):
        """Key k (sent at sent[k]) goes to worker k % 3. rt-app's resume
        does not queue: a key is lost when its worker is not waiting for
        it, still busy with its last burst (that row ends after the send)
        or not yet waiting at all (its next row starts after the send);
        otherwise the worker's next row is the key's. Return (sent,
        latency, run) per key, latency from the send to the burst's end,
        and the lost keys' send times. Pairing by index shifted every later
        key of a worker by one burst after a lost key (2026-12-06:
        typing-9w's p99 of 1.5 s). The send time is the source's row end,
        logged after the resume, a little late: a burst that ends inside
        that delay is taken as waiting, and the next key, finding the row
        it would take already ended after its send, is then lost instead,
        so the pairing comes back in step."""
        keys, lost = [], []
        for w, rows in enumerate(workers):
            j = 0
            for s in sent[w::3]:
                if j == len(rows):
                    break
                if (j and rows[j - 1]["end"] > s) or rows[j]["start"] > s:
                    lost.append(s)
                    continue
                keys.append((s, rows[j]["end"] - s, rows[j]["run"]))
                j += 1
        return sorted(keys), sorted(lost)

    @staticmethod
    def _in(rows, block):
        """The ROWS (time first) that fall in the block's measured span."""
        t0, t1 = int(block["a_time_us"]), int(block["b_time_us"])
        return [r for r in rows if t0 <= r[0] < t1]

    def lost_in(self, block):
        """How many keys of the block's span were lost."""
        t0, t1 = int(block["a_time_us"]), int(block["b_time_us"])
        return sum(t0 <= t < t1 for t in self.lost)

    def block(self, block):
        """Key latencies (sorted, us) and per frame whether it missed its
        period, in the block. Guest time: the platform's cycle stealer
        has already run every burst at the model's frequency. A lost key
        counts as the block's worst latency (the slowest key that was
        served): the user waited at least that long for it, and dropping
        it would make an arm that loses keys look faster."""
        lat = sorted(lat for _, lat, _ in self._in(self.keys, block))
        if lat:
            lat += [lat[-1]] * self.lost_in(block)
        return lat, [missed for _, missed in self._in(self.frames, block)]

    def split(self, block):
        """The block's keystrokes as (burst, wake-up) lists, sorted, us."""
        keys = self._in(self.keys, block)
        return sorted(run for _, _, run in keys), sorted(lat - run for _, lat, run in keys)


def _per_cpu(block, name):
    """A per-CPU counter's increase over the block (None: not recorded)."""
    if f"a_{name}" not in block:
        return None
    return [b - a for a, b in zip(csv_ints(block[f"a_{name}"]), csv_ints(block[f"b_{name}"]))]


def _full_cycles(busy_ms, info):
    """Mcycles each CPU's busy_ms would give at its core type's fmax (0:
    the scenario file does not give the fmax)."""
    if "p_fmax_mhz" not in info:
        return 0
    fmax = {"P": int(info["p_fmax_mhz"]), "E": int(info.get("e_fmax_mhz", 0) or 0)}
    return sum(ms / 1000 * fmax[t] for ms, t in zip(busy_ms, info["types"].split(",")))


def busy_scale(block, info, prefix=""):
    """The model's frequency while busy, as a share of the part's maximum:
    every CPU's cycles over the block divided by its busy time at its core
    type's fmax. A detail, not a correction: tests/emul's cycle stealer
    (emul_model.c, emul_steal()) spins on each busy CPU every jiffy for as
    long as its work would have taken longer at this frequency, so the
    guest-time latencies already carry it. prefix "sat_": the same over
    the model intervals in which a CPU was busy for 90% of the time or
    more (long bursts, not wake-ups); None where not recorded."""
    cyc, busy = _per_cpu(block, prefix + "mcycles"), _per_cpu(block, prefix + "busy_ms")
    if cyc is None or busy is None:
        return None
    full = _full_cycles(busy, info)
    return sum(cyc) / full if full > 0 else None


def spin_fidelity(block, info):
    """The model's cycles over what the CPUs' busy time less the cycle
    stealer's spinning gives at fmax: 1 when the stealer spins exactly
    what the frequency costs, above 1 when the guest did less work in
    guest time than the model credits (its bursts ran slower than the
    modeled frequency), below 1 when more. None where not recorded."""
    cyc, busy, spin = (_per_cpu(block, n) for n in ("mcycles", "busy_ms", "spin_ms"))
    if cyc is None or busy is None or spin is None:
        return None
    full = _full_cycles([b - s for b, s in zip(busy, spin)], info)
    return sum(cyc) / full if full > 0 else None


def percentile(sorted_values, p):
    """Nearest-rank percentile of a sorted list; None if it is empty."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def scaled(value, factor):
    return None if value is None else value / factor


def key_p90_ms(block, info):
    """The keystrokes' 90th percentile latency in the block, ms (None: no
    key in the block): typing's primary metric. A block of 6 s at 120 wpm
    holds about 55 keys, and by nearest rank their p99 is the block's
    slowest key, their p95 its third slowest: a sample extreme, whose
    paired intervals over 5 rounds spanned 0.6 to 1.6 for teo against
    itself. The p90 has about 6 keys above it, the highest percentile a
    block carries; p95 and p99 stay as figures beside it."""
    lat, _ = info["typing"].block(block)
    return scaled(percentile(lat, 90), 1000)


def key_p99_ms(block, info):
    """The keystrokes' 99th percentile latency in the block, ms (None: no
    key in the block): typing's primary metric in runs before
    2026-12-06, which their scenario files name."""
    lat, _ = info["typing"].block(block)
    return scaled(percentile(lat, 99), 1000)


def idle_mix(block, info):
    """Idle entries per second of idle time (all CPUs), and each state's
    mean residency per entry, us ("res_us_NAME"); None where the block
    has no state counters."""
    names = info.get("states", "").split(",")
    out = {"idle_entries_per_idle_s": None}
    out.update({f"res_us_{n}": None for n in names if n})
    if "a_state_usage" not in block:
        return out
    du = [b - a for a, b in zip(csv_ints(block["a_state_usage"]), csv_ints(block["b_state_usage"]))]
    dt = [b - a for a, b in zip(csv_ints(block["a_state_us"]), csv_ints(block["b_state_us"]))]
    if sum(dt) > 0:
        out["idle_entries_per_idle_s"] = round(sum(du) / (sum(dt) / 1e6), 1)
    for n, u, t in zip(names, du, dt):
        if n and u > 0:
            out[f"res_us_{n}"] = round(t / u, 1)
    return out


def typing_details(block, info):
    """Secondary figures of a typing block."""
    s = busy_scale(block, info)
    sat = busy_scale(block, info, "sat_")
    fid = spin_fidelity(block, info)
    lat, frames = info["typing"].block(block)
    burst, wake = info["typing"].split(block)
    burst_p50 = scaled(percentile(burst, 50), 1000)
    lost = info["typing"].lost_in(block)
    return {"keys": len(lat) - lost if lat else 0, "keys_lost": lost,
            "busy_scale": None if s is None else round(s, 4),
            "key_p50_ms": scaled(percentile(lat, 50), 1000),
            "key_p90_ms": scaled(percentile(lat, 90), 1000),
            "key_p95_ms": scaled(percentile(lat, 95), 1000),
            "key_p99_ms": scaled(percentile(lat, 99), 1000),
            # The two parts of a keystroke; the burst times the frequency
            # scale is the same in every arm if bursts ran at the block's
            # modeled frequency (under -icount, also at the same share of
            # the instruction budget).
            "key_burst_p50_ms": burst_p50, "key_wake_p50_ms": scaled(percentile(wake, 50), 1000),
            "key_burst_x_scale_ms": None if burst_p50 is None or s is None
            else round(burst_p50 * s, 3),
            # Which frequency the bursts saw, and whether the stealer
            # charged it: the scale of the saturated intervals only, and
            # the model's cycles against the unspun busy time.
            "sat_scale": None if sat is None else round(sat, 4),
            "key_burst_x_sat_scale_ms": None if burst_p50 is None or sat is None
            else round(burst_p50 * sat, 3),
            "spin_fidelity": None if fid is None else round(fid, 4),
            "frames": len(frames), "frames_missed": sum(frames), **idle_mix(block, info)}


class Video:
    """The frames of bench/video-rtapp.py's run: per loop of the decoders
    and the compositor (not the audio thread's buffer refills), its start
    and whether it missed its period."""

    def __init__(self, directory):
        self.frames = sorted((row["start"], row["slack"] < 0)
                             for logs in rtapp_dirs(directory)
                             for name in os.listdir(logs)
                             if name.startswith(("video-decode", "video-compose"))
                             and name.endswith(".log")
                             for row in rtapp_log(os.path.join(logs, name)))

    def block(self, block):
        """Per frame of the block's span, whether it missed."""
        t0, t1 = int(block["a_time_us"]), int(block["b_time_us"])
        return [missed for t, missed in self.frames if t0 <= t < t1]


def video_details(block, info):
    """Secondary figures of a video block."""
    frames = info["video"].block(block)
    return {"frames": len(frames), "frames_missed": sum(frames), **idle_mix(block, info)}


def plain_details(block, info):
    """Secondary figures of a scenario without a load log of its own."""
    s = busy_scale(block, info)
    return {"busy_scale": None if s is None else round(s, 4), **idle_mix(block, info)}


def fio_dumps(path):
    """The JSON documents of fio's output, in order (text between them skipped)."""
    with open(path) as f:
        text = f.read()
    decoder, docs, pos = json.JSONDecoder(), [], 0
    while True:
        pos = text.find("{", pos)
        if pos < 0:
            return docs
        try:
            doc, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            pos += 1
            continue
        if isinstance(doc, dict) and "jobs" in doc:
            docs.append(doc)
        pos = end


class Fio:
    """fio's status dumps; an edge's is the first stamped at or after it."""

    # A dump answers its SIGUSR1 within this long, or the edge has none.
    DUMP_WITHIN_MS = 1000

    def __init__(self, directory):
        self.dumps = sorted(fio_dumps(os.path.join(directory, "fio.json")),
                            key=lambda d: d.get("timestamp_ms", 0))

    def histogram(self, wall_ms):
        """Cumulative completion latency bins, {ns: count}, of the edge at wall_ms."""
        for d in self.dumps:
            if wall_ms <= d.get("timestamp_ms", 0) < wall_ms + self.DUMP_WITHIN_MS:
                read = d["jobs"][0]["read"]
                return {int(k): v for k, v in read["clat_ns"].get("bins", {}).items()}
        return None

    def block(self, block):
        """The block's completion latency bins: the difference of its edges'."""
        a = self.histogram(int(block["a_wall_ms"]))
        b = self.histogram(int(block["b_wall_ms"]))
        if a is None or b is None:
            return None
        return {ns: c - a.get(ns, 0) for ns, c in b.items() if c > a.get(ns, 0)}


def hist_percentile(bins, p):
    """Nearest-rank percentile of a {value: count} histogram; None if empty."""
    total = sum(bins.values()) if bins else 0
    if not total:
        return None
    rank, seen = max(1, math.ceil(p / 100 * total)), 0
    for value in sorted(bins):
        seen += bins[value]
        if seen >= rank:
            return value
    return None


def iops(block, info):
    """The device's completed requests per second of the block."""
    dt = (int(block["b_time_us"]) - int(block["a_time_us"])) / 1e6
    return (int(block["b_requests"]) - int(block["a_requests"])) / dt


def io_details(block, info):
    """Secondary figures of an io-qd1 block, from fio's histogram."""
    bins = info["fio"].block(block)
    count = sum(bins.values()) if bins else 0
    return {"ios": count, "clat_p50_us": scaled(hist_percentile(bins, 50), 1000),
            "clat_p99_us": scaled(hist_percentile(bins, 99), 1000)}


METRICS = {
    "p_mcycles_per_s": (p_mcycles_per_s, True),
    "key_p90_ms": (key_p90_ms, False),
    "key_p99_ms": (key_p99_ms, False),
    "iops": (iops, True),
    "power_mw": (energy_mw, False),
    "p_mcycles_per_burst": (p_mcycles_per_burst, True),
}

# The figures beside the primary metric that get intervals of their own,
# for the pairs below: name, higher is better. power_mw is the model's
# energy over the block's time; the others are the details' figures.
TYPING_FIGURES = (("key_p50_ms", False), ("key_p90_ms", False), ("key_p95_ms", False),
                  ("key_p99_ms", False), ("frames_missed", False), ("keys_lost", False),
                  ("busy_scale", True),
                  ("key_burst_p50_ms", False), ("key_burst_x_scale_ms", False),
                  ("sat_scale", True), ("key_burst_x_sat_scale_ms", False),
                  ("spin_fidelity", True), ("power_mw", False), ("energy_per_work", False))
TYPING_PRIMARIES = ("key_p90_ms", "key_p99_ms")
SECONDARY = {
    **{p: tuple(f for f in TYPING_FIGURES if f[0] != p) for p in TYPING_PRIMARIES},
    "iops": (("clat_p50_us", False), ("clat_p99_us", False), ("power_mw", False),
             ("energy_per_work", False)),
    "p_mcycles_per_s": (("power_mw", False), ("energy_per_work", False),
                        ("busy_scale", True)),
    "p_mcycles_per_burst": (("power_mw", False), ("energy_per_work", False),
                            ("busy_scale", True)),
    # idle-* and video-*: power is the primary; video's frames are the
    # figure beside it.
    "power_mw": (("frames_missed", False),),
}
# (arm, other): the A/A control first, then the comparisons the issues ask
# about; a pair is reported where the run had both arms.
PAIRS = (("teo", "teo2"), ("budget-energy", "budget-lat"), ("budget", "teo"),
         ("budget", "menu"), ("menu", "teo"), ("menu2025", "menu"))


def mean_of(values):
    """Mean of the values that exist, rounded; None if none does."""
    got = [v for v in values if v is not None]
    return round(sum(got) / len(got), 3) if got else None


def contains_one(ci):
    return ci["lo"] is not None and ci["lo"] <= 1.0 <= ci["hi"]


def elasticity(arms, details, y="key_p50_ms", x="busy_scale"):
    """How much of a frequency change reaches a latency: the slope of
    log(Y) on log(X) over every arm's block, each round's mean taken out
    of both (so the load a round saw cancels), with its 95% t-interval.
    -1: the latency scales as 1/frequency, as it would with one busy CPU;
    nearer 0, something other than the frequency sets it (bursts that
    share the -icount budget, exit latencies that move with the arm).
    None without a degree of freedom left (blocks, less one per round
    with two or more, less one for the slope)."""
    rows = {}
    for a in arms:
        for r, d in enumerate(details[a]):
            if d.get(y) and d.get(x) and d[y] > 0 and d[x] > 0:
                rows.setdefault(r, []).append((math.log(d[x]), math.log(d[y])))
    pts = []
    for got in rows.values():
        if len(got) < 2:
            continue
        mx = sum(p[0] for p in got) / len(got)
        my = sum(p[1] for p in got) / len(got)
        pts += [(px - mx, py - my) for px, py in got]
    # One degree of freedom per round's mean, one for the slope.
    df = len(pts) - len([g for g in rows.values() if len(g) >= 2]) - 1
    sxx = sum(px * px for px, _ in pts)
    if df < 1 or sxx <= 0:
        return None
    slope = sum(px * py for px, py in pts) / sxx
    resid = sum((py - slope * px) ** 2 for px, py in pts) / df
    half = t95(df) * math.sqrt(resid / sxx)
    return {"est": round(slope, 3), "lo": round(slope - half, 3),
            "hi": round(slope + half, 3), "n": len(pts)}


# Counts that are often 0 in a block: their intervals are of add-one
# ratios, (a + 1) / (b + 1), so that a round where one arm had none stays
# in (a plain ratio has no log there, and dropping such rounds keeps only
# the rounds where both arms did badly).
COUNT_FIGURES = ("frames_missed", "keys_lost")


def secondary(primary, arms, power, details):
    """Intervals of the SECONDARY figures for the PAIRS present."""
    out = {}
    for name, higher_better in SECONDARY.get(primary, ()):
        def per_round(a):
            if name == "power_mw":
                return power[a]
            if not details[a]:
                return None
            if name in COUNT_FIGURES:
                return [None if d.get(name) is None else d[name] + 1 for d in details[a]]
            return [d.get(name) for d in details[a]]
        pairs = {}
        for a, o in PAIRS:
            if a in arms and o in arms and per_round(a) and per_round(o):
                ci = paired(per_round(a), per_round(o), higher_better)
                if ci:
                    pairs[f"{a} vs {o}"] = ci
        if pairs:
            out[name] = {"higher_is_better": higher_better, "pairs": pairs}
    return out


def analyse(directory):
    """The "ab" entry of one scenario directory."""
    info = read_scenario(os.path.join(directory, "scenario"))
    blocks = read_kv_lines(os.path.join(directory, "blocks"))
    details_of = None
    if info["primary"] in TYPING_PRIMARIES:
        info["typing"] = Typing(directory)
        details_of = typing_details
    elif info["primary"] == "iops":
        info["fio"] = Fio(directory)
        details_of = io_details
    elif info["scenario"].startswith("video"):
        info["video"] = Video(directory)
        details_of = video_details
    else:
        details_of = plain_details
    metric, higher_better = METRICS[info["primary"]]
    arms = info["arms"].split()
    per_round = {}
    for b in blocks:
        per_round.setdefault(int(b["round"]), {})[b["arm"]] = b
    values = {a: [] for a in arms}
    power = {a: [] for a in arms}
    details = {a: [] for a in arms}
    # A round counts if every arm has a block with a positive value (a
    # typing block may see no keystroke at all).
    rounds, dropped = [], []
    for r in sorted(per_round):
        got = per_round[r]
        v = {a: metric(got[a], info) if a in got else None for a in arms}
        # Not positive: no log-ratio (a block in which fio did nothing).
        if any(x is None or x <= 0 for x in v.values()):
            dropped.append(r)
            continue
        rounds.append(r)
        for a in arms:
            values[a].append(v[a])
            power[a].append(energy_mw(got[a], info))
            if details_of:
                # Every scenario's cost per unit of its work, beside
                # its own figures.
                details[a].append(dict(details_of(got[a], info),
                                       energy_per_work=energy_per_work(got[a], info)))
    out = {
        "variant": info.get("variant", "-"),
        "model": {k: int(info[k]) for k in MODEL_KEYS if k in info},
        "part": info.get("part"),
        "pl1_mw": int(info["pl1_mw"]),
        "pl1_window_ms": int(info["pl1_window_ms"]),
        "settings": {k: info[k] for k in SETTING_KEYS if k in info},
        "primary": info["primary"],
        "higher_is_better": higher_better,
        "energy_per_work_unit": (work_unit(info) or ("-",))[0],
        "seeds": sorted({int(b["seed"]) for b in blocks if "seed" in b}),
        "rounds": len(rounds),
        "dropped_rounds": dropped,
        "rounds_kept": rounds,
        "block_s": {"settle": float(info["settle_s"]), "measure": float(info["measure_s"])},
        "arms": {},
    }
    if len(rounds) < 2:
        out["error"] = f"{len(rounds)} complete rounds: no interval"
        return out
    for a in arms:
        entry = {
            "mean": round(sum(values[a]) / len(rounds), 3),
            "per_round": [round(v, 3) for v in values[a]],
            "power_mw": round(sum(power[a]) / len(rounds), 1),
            "vs": {},
        }
        if details[a]:
            entry["details"] = {k: mean_of([d[k] for d in details[a]])
                                for k in details[a][0]}
        for o in arms:
            if o == a:
                continue
            sign = 1 if higher_better else -1
            logs = [sign * math.log(x / y) for x, y in zip(values[a], values[o])]
            entry["vs"][o] = interval(logs)
        out["arms"][a] = entry
    out["secondary"] = secondary(info["primary"], arms, power, details)
    if info["primary"] in TYPING_PRIMARIES:
        out["key_p50_scale_elasticity"] = elasticity(arms, details)
    if "teo" in arms and "teo2" in arms:
        out["aa"] = out["arms"]["teo"]["vs"]["teo2"]
        out["trustworthy"] = contains_one(out["aa"])
    out["detectable"] = smallest_detectable(arms, values, higher_better)
    return out


def smallest_detectable(arms, values, higher_better):
    """The smallest ratio on the primary metric that this run's rounds
    could tell from 1 with 80% power (benchlib.detectable()), from the
    scatter of the A/A pair's per-round log-ratios, which is the noise
    two identical arms show; without an A/A pair, the median scatter of
    every pair's."""
    n = len(values[arms[0]])

    def sd(a, o):
        return sd_of([math.log(x / y) for x, y in zip(values[a], values[o])])
    if "teo" in arms and "teo2" in arms:
        s, source = sd("teo", "teo2"), "aa"
    else:
        sds = sorted(sd(a, o) for i, a in enumerate(arms) for o in arms[i + 1:])
        if not sds:
            return None
        s, source = sds[len(sds) // 2], "median of the pairs"
    return {"ratio": detectable(s, n), "sd_log": round(s, 5), "n": n, "from": source,
            "higher_is_better": higher_better}


# The model's constants a sweep varies, as the scenario file records them.
MODEL_KEYS = ("p_dyn_mw", "p_leak_mw", "e_dyn_mw", "e_leak_mw", "uncore_mw", "trans_pct")
# The secondary figures a sensitivity table shows after the primary one.
SENSITIVITY_FIGURES = ("key_p50_ms", "key_p99_ms", "frames_missed", "busy_scale", "clat_p99_us")
# The load's settings, as the scenario file records them ("-": not set).
SETTING_KEYS = ("seed", "wpm", "work_pct", "rtapp_ns_per_loop", "chatter", "lat_us",
                "train", "train_gap_us", "emul_args", "budget_args")


def sensitivity(ab, arm="budget-energy", other="budget-lat"):
    """Per base scenario with variants: one row per run, the constants
    that differ between the runs, the load's power, ARM against OTHER."""
    lines = []
    bases = sorted({n.split("@")[0] for n in ab if "@" in n})
    for base in bases:
        runs = sorted((n for n in ab if n.split("@")[0] == base and "error" not in ab[n]
                       and arm in ab[n]["arms"] and other in ab[n]["arms"][arm]["vs"]),
                      key=lambda n: (ab[n]["pl1_mw"], n))
        if not runs:
            continue
        # rt-app's calibration is measured, not chosen: not a column.
        keys = (["pl1_mw", "pl1_window_ms"] + list(MODEL_KEYS)
                + [k for k in SETTING_KEYS if k != "rtapp_ns_per_loop"])
        value = {n: dict(ab[n]["model"], **ab[n].get("settings", {}), pl1_mw=ab[n]["pl1_mw"],
                         pl1_window_ms=ab[n]["pl1_window_ms"]) for n in runs}
        keys = [k for k in keys if len({value[n].get(k) for n in runs}) > 1]
        # The secondary figures the runs have for this pair (typing's
        # p50 and frequency scale, say), after the primary metric.
        pair = f"{arm} vs {other}"
        figs = [m for m in SENSITIVITY_FIGURES
                if any(pair in ab[n].get("secondary", {}).get(m, {}).get("pairs", {})
                       for n in runs)]
        lines += [f"### {base}: {arm} against {other}", "",
                  "| run | " + "".join(f"{k} | " for k in keys) + f"power mW ({other}) | "
                  f"power mW ({arm}) | {'/'.join(sorted({ab[n]['primary'] for n in runs}))} |"
                  + "".join(f" {m} |" for m in figs),
                  "|---" * (len(keys) + 4 + len(figs)) + "|"]
        for n in runs:
            a = ab[n]["arms"]
            sec = ab[n].get("secondary", {})
            cells = ([n] + [str(value[n].get(k)) for k in keys]
                     + [str(a[other]["power_mw"]), str(a[arm]["power_mw"]),
                        fmt(a[arm]["vs"][other])]
                     + [fmt(sec[m]["pairs"][pair]) if pair in sec.get(m, {}).get("pairs", {})
                        else "-" for m in figs])
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", f"{arm} against {other}, paired 95% intervals; > 1: {arm} did "
                  "better on that figure.", ""]
    return lines


def fmt(ci):
    if ci["lo"] is None:
        return f'{ci["est"]:.3f}'
    return f'{ci["est"]:.3f} [{ci["lo"]:.3f}, {ci["hi"]:.3f}]'


def report(ab):
    failed = sorted(n for n, s in ab.items() if s.get("trustworthy") is False)
    lines = []
    if failed:
        # The first line, where nobody quoting from the report misses it.
        lines += ["**NOT TRUSTWORTHY: the A/A interval excludes 1 in " + ", ".join(failed)
                  + "; quote nothing from this run.**", ""]
    lines += ["# A/B bench (bench/ab.sh)", ""]
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
        d = s.get("detectable")
        if d and d["ratio"]:
            lines += [f'Smallest effect this run could detect (80% power, from the scatter of '
                      f'{"the A/A pair" if d["from"] == "aa" else d["from"]} over {d["n"]} '
                      f'rounds): {d["ratio"]:.3f}.', ""]
        arms = list(s["arms"])
        lines += ["| arm | mean | power mW | " + " | ".join(f"vs {o}" for o in arms) + " |",
                  "|---" * (len(arms) + 3) + "|"]
        for a in arms:
            e = s["arms"][a]
            cells = [fmt(e["vs"][o]) if o in e["vs"] else "" for o in arms]
            lines.append(f'| {a} | {e["mean"]} | {e["power_mw"]} | ' + " | ".join(cells) + " |")
        lines += ["", "Ratios > 1: the row's arm did better than the column's on the primary "
                  "metric (95% t-interval over the rounds' paired log-ratios).", ""]
        keys = [k for k in s["arms"][arms[0]].get("details", {})]
        if keys:
            lines += ["| arm | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
            lines += [f"| {a} | " + " | ".join(str(s["arms"][a]["details"][k]) for k in keys)
                      + " |" for a in arms]
            lines += ["", "Means over the rounds of each block's figure.", ""]
        el = s.get("key_p50_scale_elasticity")
        if el:
            lines += [f'Keystroke p50 against the busy-time frequency scale, within rounds: '
                      f'slope of the logs {el["est"]:.3f} [{el["lo"]:.3f}, {el["hi"]:.3f}] '
                      f'over {el["n"]} blocks (-1: latency as 1/frequency).', ""]
        sec = s.get("secondary", {})
        order = {f"{a} vs {o}": i for i, (a, o) in enumerate(PAIRS)}
        pairs = sorted({p for m in sec.values() for p in m["pairs"]},
                       key=lambda p: (order.get(p, len(order)), p))
        if pairs:
            lines += ["| figure | " + " | ".join(pairs) + " |", "|---" * (len(pairs) + 1) + "|"]
            for m, e in sec.items():
                lines.append(f"| {m} ({'higher' if e['higher_is_better'] else 'lower'} better) | "
                             + " | ".join(fmt(e["pairs"][p]) if p in e["pairs"] else ""
                                          for p in pairs) + " |")
            lines += ["", "The figures beside the primary metric, per pair: > 1, the first "
                      "arm did better (95% t-interval over the rounds' paired log-ratios; "
                      "the A/A pair, teo vs teo2, shows each figure's noise). Counts ("
                      + ", ".join(COUNT_FIGURES) + ") as add-one ratios. These are "
                      f"{len(sec)} figures a pair, each at 95% with no correction for "
                      "their number: one in twenty excludes 1 by chance; only the primary "
                      "metric was declared before the run.", ""]
    sens = sensitivity(ab)
    if sens:
        lines += ["## Sensitivity", ""] + sens
    return "\n".join(lines)


def plot(ab, directory, reference="teo"):
    """One PNG per scenario: every arm against REFERENCE, estimate and
    95% interval, a line at 1. Needs matplotlib (python3-matplotlib)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    for name, s in sorted(ab.items()):
        arms = [a for a in s.get("arms", {}) if reference in s["arms"][a]["vs"]]
        cis = [s["arms"][a]["vs"][reference] for a in arms]
        if not arms or any(c["lo"] is None for c in cis):
            continue
        fig, ax = plt.subplots(figsize=(6, 0.5 * len(arms) + 1.2))
        y = range(len(arms))
        est = [c["est"] for c in cis]
        err = [[c["est"] - c["lo"] for c in cis], [c["hi"] - c["est"] for c in cis]]
        ax.errorbar(est, y, xerr=err, fmt="o", capsize=4)
        ax.axvline(1.0, color="grey", linestyle="--")
        ax.set_yticks(list(y), arms)
        ax.set_xlabel(f"vs {reference}: {s['primary']}, > 1 better (95% interval)")
        ax.set_title(f"{name} ({s['rounds']} rounds)")
        fig.tight_layout()
        fig.savefig(os.path.join(directory, f"ab-{name}.png"), dpi=100)
        plt.close(fig)


def main():
    args = sys.argv[1:]
    plot_dir = None
    if args[:1] == ["--plot"] and len(args) > 1:
        plot_dir, args = args[1], args[2:]
    if len(args) < 3:
        sys.exit(__doc__)
    results_json, report_md = args[0], args[1]
    ab = {}
    for run in args[2:]:
        base = os.path.join(run, "ab")
        for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            d = os.path.join(base, name)
            if os.path.isfile(os.path.join(d, "blocks")):
                ab[name] = analyse(d)
    if not ab:
        sys.exit(f"no scenario under {' '.join(args[2:])}")
    try:
        with open(results_json) as f:
            results = json.load(f)
    except FileNotFoundError:
        results = {}
    # This run's scenarios replace their namesakes of an earlier run
    # (make bench, then make sensitivity: one report of both).
    ab = dict(results.get("ab", {}), **ab)
    results["ab"] = ab
    os.makedirs(os.path.dirname(os.path.abspath(results_json)), exist_ok=True)
    with open(results_json, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    text = report(ab)
    with open(report_md, "w") as f:
        f.write(text + "\n")
    print(text)
    if plot_dir:
        plot(ab, plot_dir)
    # A scenario run without the A/A arm has no verdict; one whose A/A
    # interval excludes 1 fails the run.
    return 0 if all(s.get("trustworthy", True) for s in ab.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
