# SPDX-License-Identifier: GPL-2.0
"""Pieces shared by the bench's report scripts (tools/demo-report.py,
tools/bench-report.py, tools/bench-sched-report.py, tools/bench-summary.py).
"""

import json
import os


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
