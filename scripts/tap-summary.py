#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count TAP/KTAP results and print the closing line of "make check".

tap-summary.py FILE...
tap-summary.py --suites FILE NAME...

Every top-level (unindented) "ok"/"not ok" line of every file is one test,
except in *.ktap files (KUnit), where each case (a result indented by one
level, four spaces) is one test; "ok ... # SKIP" counts as skipped, and
each skipped test is listed. Prints one line per file, then
"N passed, N failed[, N skipped]". Exits 1 if anything failed.

A file counts one extra failure for each way it can have passed by
silence or by accident, so that a test that did not run is never a pass:

 - no plan ("1..N"), a second plan, or a plan that does not match the
   number of results (a test script that died half-way);
 - a plan of no tests ("1..0", with or without "# SKIP"): a suite that
   skipped whole, or ran nothing, did not run;
 - a result without a number, or with a number other than the next one
   (duplicated or out of order: two runs mixed in one file, or a result
   printed twice);
 - "Bail out!".

In a KTAP file, the same holds at both levels: the top-level plan counts
the suites, whose results are the unindented lines, and each suite's own
plan its cases. A suite whose result is "not ok" although none of its
cases failed (its init or exit failed) is a failure, and so is a suite
skipped whole ("ok N suite # SKIP").

With --suites, FILE is a KTAP file and each NAME a suite that must have
run in it and passed (kunit.py parse exits 0 when a suite is simply
missing); exits 1 otherwise.
"""

import re
import sys

RESULT = re.compile(r"^(not ok|ok)\b\s*(\d+)?\s*(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)\s*(.*)$")
SKIP = re.compile(r"#\s*SKIP", re.I)


class Level:
    """The results of one TAP level: one file, or one KTAP suite's cases."""

    def __init__(self, where):
        self.where = where
        self.plan = None
        self.results = 0
        self.problems = []

    def set_plan(self, n, rest, lineno):
        if self.plan is not None:
            self.problems.append(f"line {lineno}: a second plan 1..{n}")
            return
        self.plan = n
        if n == 0:
            why = "skipped whole" if SKIP.search(rest) else "plans no tests"
            self.problems.append(f"{self.where} {why}: 1..0 {rest}".rstrip())

    def result(self, num, lineno):
        self.results += 1
        if num is None:
            self.problems.append(f"line {lineno}: result without a number")
        elif int(num) != self.results:
            self.problems.append(f"line {lineno}: test number {num}, "
                                 f"expected {self.results} (duplicated or out of order)")

    def close(self):
        if self.plan is None:
            self.problems.append(f"{self.where}: no plan, {self.results} results")
        elif self.plan != self.results:
            self.problems.append(f"{self.where}: plan {self.plan} but "
                                 f"{self.results} results")
        return self.problems


def count(path):
    """Returns passed, failed, skipped, the failure lines, the skipped lines
    and the KTAP suites as (name, "ok"/"not ok"/"skipped") in file order."""
    ktap = path.endswith(".ktap")
    passed = failed = skipped = 0
    failures, skips, suites = [], [], []
    top = Level("the file")
    suite = Level("a suite")
    suite_failed = 0
    with open(path, errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("Bail out!"):
                failures.append(f"line {lineno}: {line}")
                failed += 1
                continue
            # A KTAP suite's lines are indented by four spaces.
            nested = ktap and line.startswith("    ")
            body, level = (line[4:], suite) if nested else (line, top)
            if nested and body.startswith("# Subtest:"):
                suite.where = f"suite {body[10:].strip()}"
                continue
            m = PLAN.match(body)
            if m:
                level.set_plan(int(m.group(1)), m.group(2), lineno)
                continue
            m = RESULT.match(body)
            if not m:
                continue
            level.result(m.group(2), lineno)
            if ktap and not nested:
                # A suite's result: it closes that suite's cases.
                name = m.group(3).split("#")[0].strip().lstrip("- ")
                suite.where = f"suite {name}"
                problems = suite.close()
                failed += len(problems)
                failures += problems
                state = m.group(1)
                if state == "not ok" and not suite_failed:
                    failed += 1
                    failures.append(f"line {lineno}: {line} (its cases passed)")
                elif state == "ok" and SKIP.search(m.group(3)):
                    state = "skipped"
                    failed += 1
                    failures.append(f"line {lineno}: {line} (skipped whole)")
                suites.append((name, state))
                suite = Level("a suite")
                suite_failed = 0
                continue
            if m.group(1) == "not ok":
                failed += 1
                suite_failed += 1
                failures.append(f"line {lineno}: {line.strip()}")
            elif SKIP.search(m.group(3)):
                skipped += 1
                skips.append(f"line {lineno}: {line.strip()}")
            else:
                passed += 1
    if ktap and (suite.results or suite.plan is not None):
        problems = ["cases after the last suite's result, in no suite"]
        failed += 1
        failures += problems
    problems = top.close()
    failed += len(problems)
    failures += problems
    return passed, failed, skipped, failures, skips, suites


def check_suites(path, names):
    """--suites: every NAME ran in PATH, once, and passed."""
    *_, suites = count(path)
    bad = 0
    for name in names:
        states = [s for n, s in suites if n == name]
        if states == ["ok"]:
            print(f"# {path}: suite {name} ran and passed")
            continue
        bad += 1
        if not states:
            print(f"# {path}: suite {name} did not run (not in the file)")
        else:
            print(f"# {path}: suite {name}: {', '.join(states)}")
    return 1 if bad or not names else 0


def main(paths):
    total = [0, 0, 0]
    for path in paths:
        try:
            p, f, s, failures, skips, _ = count(path)
        except OSError as e:
            p, f, s, failures, skips = 0, 1, 0, [str(e)], []
        total = [total[0] + p, total[1] + f, total[2] + s]
        print(f"# {path}: {p} passed, {f} failed, {s} skipped")
        for line in failures:
            print(f"#   {line}")
        for line in skips:
            print(f"#   skipped: {line}")
    line = f"{total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if total[1] or not paths else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--suites"]:
        if len(sys.argv) < 4:
            sys.exit("usage: tap-summary.py --suites FILE NAME...")
        sys.exit(check_suites(sys.argv[2], sys.argv[3:]))
    sys.exit(main(sys.argv[1:]))
