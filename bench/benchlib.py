# SPDX-License-Identifier: GPL-2.0
"""Pieces shared by the bench's report scripts (bench/demo-report.py,
bench/bench-report.py, bench/bench-sched-report.py, bench/bench-summary.py,
bench/ab-report.py) and its rt-app load writers (bench/typing-rtapp.py,
bench/video-rtapp.py).
"""

import json
import math
import os
import sys


def write_rtapp(tasks, seconds, calibration, logdir, basename):
    """rt-app's JSON for TASKS on standard output: SECONDS long, its unit
    of work CALIBRATION (ns per loop, or "CPU0" for rt-app's own
    measurement), every thread SCHED_OTHER, logs in LOGDIR named
    BASENAME-TASK-N.log, pages not locked (the guest's memory limit)."""
    desc = {
        "global": {"duration": seconds, "calibration": calibration,
                   "default_policy": "SCHED_OTHER", "logdir": logdir,
                   "log_basename": basename, "lock_pages": False},
        "tasks": tasks,
    }
    json.dump(desc, sys.stdout, indent=1)
    sys.stdout.write("\n")



def cyclictest_latency(path):
    """p50, p99 (from the histogram) and max (cyclictest's) in us, and the
    histogram's length: a percentile at that length lies in the overflow,
    so it is only a lower bound."""
    counts, maxima, overflows = [], [], 0
    with open(path) as f:
        for line in f:
            if line.startswith("# Max Latencies:"):
                maxima = [int(x) for x in line.split(":")[1].split()]
            elif line.startswith("# Histogram Overflows:"):
                overflows = sum(int(x) for x in line.split(":")[1].split())
            elif not line.startswith("#"):
                parts = line.split()
                if len(parts) >= 2:
                    counts.append(sum(int(x) for x in parts[1:]))
    total = sum(counts) + overflows
    if not total:
        return None, None, None, len(counts)

    def percentile(q):
        seen = 0
        for us, n in enumerate(counts):
            seen += n
            if seen >= total * q:
                return us
        return len(counts)  # in the overflow: at least the histogram's end

    samples = [m for m in maxima if m < 1000000]  # threads with no sample
    return percentile(0.50), percentile(0.99), max(samples) if samples else None, len(counts)


def update_results(path, keys):
    """Merge @keys into the JSON object in @path (created if missing);
    the file's other keys are kept."""
    data = {}
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
    data.update(keys)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    return data


# Two-sided 95% Student-t quantiles by degrees of freedom (1..30).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    """The two-sided 95% quantile of Student's t with df degrees of freedom."""
    return T95[df - 1] if df <= len(T95) else 1.96


# One-sided 80% quantiles of Student's t, df 1..30 (0.8416, the normal's,
# beyond): the power term of detectable(). Worked here by integrating t's
# density (Simpson's rule) and bisecting; they agree with the published
# tables to the third decimal.
T80 = [1.376, 1.061, 0.978, 0.941, 0.920, 0.906, 0.896, 0.889, 0.883, 0.879,
       0.876, 0.873, 0.870, 0.868, 0.866, 0.865, 0.863, 0.862, 0.861, 0.860,
       0.859, 0.858, 0.858, 0.857, 0.856, 0.856, 0.855, 0.855, 0.854, 0.854]


def t80(df):
    """The one-sided 80% quantile of Student's t with df degrees of freedom."""
    return T80[df - 1] if df <= len(T80) else 0.8416


def sd_of(logs):
    """The sample standard deviation of a list of at least two numbers."""
    mean = sum(logs) / len(logs)
    return math.sqrt(sum((x - mean) ** 2 for x in logs) / (len(logs) - 1))


def detectable(sd, n):
    """The smallest ratio (> 1) that a paired 95% interval over n rounds
    whose log-ratios scatter with standard deviation sd excludes 1 with
    80% power: exp((t95 + t80) * sd / sqrt(n)), df = n - 1. None with
    fewer than two rounds."""
    if n < 2:
        return None
    return round(math.exp((t95(n - 1) + t80(n - 1)) * sd / math.sqrt(n)), 5)


def interval(logs):
    """Mean and 95% t-interval of a list of log-ratios, as ratios."""
    n = len(logs)
    mean = sum(logs) / n
    if n < 2:
        return {"est": math.exp(mean), "lo": None, "hi": None, "n": n}
    sd = sd_of(logs)
    half = t95(n - 1) * sd / math.sqrt(n)
    return {"est": round(math.exp(mean), 5), "lo": round(math.exp(mean - half), 5),
            "hi": round(math.exp(mean + half), 5), "n": n}


def paired(mine, theirs, higher_better):
    """The interval of paired per-round values, > 1 when MINE did better;
    rounds where either value is missing or not positive are left out
    (a count of 0 has no log-ratio). None with fewer than two rounds."""
    sign = 1 if higher_better else -1
    logs = [sign * math.log(x / y) for x, y in zip(mine, theirs)
            if x is not None and y is not None and x > 0 and y > 0]
    return interval(logs) if len(logs) >= 2 else None


def difference(mine, theirs):
    """MINE's mean less THEIRS' and its 95% interval, for values of two
    separate runs (two boots, two kernels): Welch's t-interval, unpaired
    and without assuming equal variances, its degrees of freedom rounded
    down (the wider interval). Missing values are left out; None with
    fewer than two on either side."""
    a = [x for x in mine if x is not None]
    b = [x for x in theirs if x is not None]
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return {"est": round(ma - mb, 5), "lo": round(ma - mb, 5),
                "hi": round(ma - mb, 5), "n": [len(a), len(b)]}
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = t95(max(1, math.floor(df))) * se
    return {"est": round(ma - mb, 5), "lo": round(ma - mb - half, 5),
            "hi": round(ma - mb + half, 5), "n": [len(a), len(b)]}
