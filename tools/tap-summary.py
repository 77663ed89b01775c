#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count TAP/KTAP results and print the closing line of "make check".

tap-summary.py FILE...

Every top-level (unindented) "ok"/"not ok" line of every file is one test,
except in *.ktap files (KUnit), where each case (a result indented by one
level, four spaces) is one test and the suite lines are not counted;
"ok ... # SKIP" counts as skipped. A file whose plan ("1..N") does not match
the number of results it has counts one extra failure, so a test script
that died half-way cannot pass by silence. Prints one line per file, then
"N passed, N failed[, N skipped]". Exits 1 if anything failed.
"""

import re
import sys

RESULT = re.compile(r"^(not ok|ok)\b(.*)$")
CASE = re.compile(r"^    (not ok|ok)\b(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)")


def count(path):
    ktap = path.endswith(".ktap")
    result = CASE if ktap else RESULT
    passed = failed = skipped = 0
    plan = None
    failures = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if ktap:
                # Plans of the suites' cases add up.
                m = re.match(r"^    1\.\.(\d+)", line)
                if m:
                    plan = (plan or 0) + int(m.group(1))
                    continue
            else:
                m = PLAN.match(line)
                if m and plan is None:
                    plan = int(m.group(1))
                    continue
            m = result.match(line)
            if not m:
                continue
            if m.group(1) == "not ok":
                failed += 1
                failures.append(line)
            elif re.search(r"#\s*SKIP", m.group(2), re.I):
                skipped += 1
            else:
                passed += 1
    seen = passed + failed + skipped
    if plan is None or plan != seen:
        failed += 1
        failures.append(f"plan {plan} but {seen} results")
    return passed, failed, skipped, failures


def main(paths):
    total = [0, 0, 0]
    for path in paths:
        p, f, s, failures = count(path)
        total = [total[0] + p, total[1] + f, total[2] + s]
        print(f"# {path}: {p} passed, {f} failed, {s} skipped")
        for line in failures:
            print(f"#   {line}")
    line = f"{total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if total[1] or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
