#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""typing-rtapp.py SEED WPM SECONDS WORK_PCT LOGDIR PLAN [NS_PER_LOOP [CHATTER [PERIOD]]]: rt-app's typing load.

The Chromebook case of the 2025 menu revert (a Google Docs typing test at
60/90/120 words per minute on 4-CPU 6 W Jasper Lake parts), as threads
rt-app runs, written to standard output as rt-app's JSON:

  source   the keyboard: sleeps the gap to the next key, then wakes the
           next of the key workers (an interrupt the workers' own timers
           know nothing about, as a real key press is)
  key0..2  each wakes on its turn, handles a key (input, layout,
           compositing in one burst): the burst ends the keystroke
  frame    60 Hz frames (a 16.7 ms timer) throughout, heavier in scroll
           phases of 0.5-1 s after light phases of 2.5-5 s
  bg0, bg1 background timers (20 Hz); gc: a collection every second
  ipc0..   CHATTER threads (default 0) of the browser's message traffic:
           short runs (40-120 us of work) after gaps drawn from the
           Chromebooks' idle mix, three in four short (150-350 us) and one in four
           long (1.5-4 ms), so the CPUs see many idle periods around the
           deep state's target residency (C3: 3144 us), where the
           governors' choices differ

Three key workers take the keys in turn, so that a key arriving while the
previous one's burst still runs is not lost (rt-app's resume does not
queue). Keys come at WPM * 5 characters a minute with gaps uniform in
+-50% of the mean, a pause of 0.5-2 s after every 8-15 words. Every random
choice comes from SEED. The gaps, in order, go to PLAN (one per line, us).

The scroll phases take a sixth of the time. They are short next to the
bench's blocks so that every block of 6-12 s holds about its share: with
the scrolls of 1-3 s every 5-15 s of 2026-12-05, a block held anything
from none to 3 s of scrolling, and its frame misses said where the
scrolls fell more than what the governor did.

With PERIOD (seconds), the keys and the frames' light and scroll phases
are drawn for PERIOD seconds only and repeat for the whole run: the gaps
sum to exactly PERIOD (the last one takes what is left), the frame
phases to the whole frames nearest to it. The bench measures blocks of
PERIOD seconds, so every block, whatever its phase, holds the same keys
and frames: its arms compare on the same load, not on whichever
stretch of typing (a pause, a scroll) fell into their block. Without it
the plan runs once, SECONDS long.

Work is in rt-app's calibrated microseconds at full speed, times
WORK_PCT / 100. NS_PER_LOOP fixes rt-app's unit of work (its
"calibration", ns per loop at full speed); without it rt-app calibrates
on CPU0 when it starts, under whatever frequency the platform runs then,
and two runs differ in their work (bench/ab.sh measures it once before
the platform's model is loaded). The amounts are estimates (no public per-event figures):
at 100% the load keeps about one CPU busy on average, spread over all
four, each mostly idle; the regression thread's turbostat showed the
package at 8.6-9.5 W unthrottled against a 6 W PL1, which WORK_PCT (and
the bench's PL1 sweep) places the load against.

The Chromebooks idled about 1,200-1,350 times per idle second per CPU,
three in four of the periods C1's (about 220 us mean residency), the
rest mostly C3's (about 2.5 ms); without the chatter threads this load
idles about 100 times per idle second, in periods of several ms, where
every governor but ladder picks the deep state. Each chatter thread adds
about 1,100 wake-ups a second (a mean gap of 875 us, a run of 40 us at
WORK_PCT 50); under -icount every one of them is paid
from the one instruction budget all vCPUs share (about 35 us of guest
time a wake-up: bench/idle-path.sh's re-entry cost), so a few threads
are what the guest can afford, not the Chromebooks' full rate.
"""

import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import write_rtapp  # noqa: E402

KEY_US = 40000
KEY_WORKERS = 3
FRAME_US, SCROLL_FRAME_US, FRAME_PERIOD_US = 6000, 12000, 16667
BG_US, BG_PERIOD_US = 4000, 50000
GC_US, GC_PERIOD_US = 60000, 1000000


def keystrokes(rng, wpm, seconds, exact=False):
    """Gaps (us) between keys for about SECONDS of typing; with EXACT,
    summing to SECONDS exactly."""
    mean = 60e6 / (wpm * 5)
    gaps, t, words, next_pause = [], 0.0, 0, rng.randint(8, 15)
    while t < seconds * 1e6:
        for _ in range(5):      # a word: five keys, the last one a space
            gap = rng.uniform(0.5, 1.5) * mean
            gaps.append(int(gap))
            t += gap
        words += 1
        if words == next_pause:
            pause = rng.uniform(0.5e6, 2e6)
            gaps[-1] += int(pause)
            t += pause
            words, next_pause = 0, rng.randint(8, 15)
    if exact:
        period, kept, t = int(seconds * 1e6), [], 0
        for gap in gaps:
            if t + gap > period:
                break
            kept.append(gap)
            t += gap
        # What is left is the last gap, or part of the one before when
        # it would be a key too close to the next period's first.
        if kept and period - t < 0.5 * mean:
            kept[-1] += period - t
        else:
            kept.append(period - t)
        gaps = kept
    return gaps


def frames(rng, seconds, scale, exact=False):
    """Phases of the frame thread: light frames, and scrolls between;
    with EXACT, one light and one scroll phase, in whole frames nearest
    to SECONDS."""
    if exact:
        total = round(seconds * 1e6 / FRAME_PERIOD_US)
        scroll = min(total - 1, max(1, round(rng.uniform(0.5, 1) * 1e6 / FRAME_PERIOD_US)))
        return {name: {"loop": n, "run": scale(work),
                       "timer": {"ref": "frame", "period": FRAME_PERIOD_US}}
                for name, n, work in (("light0", total - scroll, FRAME_US),
                                      ("scroll0", scroll, SCROLL_FRAME_US))}
    phases, t, i = {}, 0.0, 0
    while t < seconds:
        light, scroll = rng.uniform(2.5, 5), rng.uniform(0.5, 1)
        for name, length, work in (("light", light, FRAME_US),
                                   ("scroll", scroll, SCROLL_FRAME_US)):
            phases[f"{name}{i}"] = {
                "loop": max(1, int(length * 1e6 / FRAME_PERIOD_US)),
                "run": scale(work),
                "timer": {"ref": "frame", "period": FRAME_PERIOD_US}}
        t += light + scroll
        i += 1
    return phases


def ipc_events(rng, scale, n=512):
    """One pass of a chatter thread: N runs, each after a gap of the
    Chromebooks' idle mix (rt-app tells events apart by a name's prefix,
    so "run7" and "sleep7" are a run and a sleep, kept in order)."""
    events = {}
    for i in range(n):
        short = rng.random() < 0.75
        events[f"sleep{i}"] = int(rng.uniform(150, 350) if short else rng.uniform(1500, 4000))
        events[f"run{i}"] = scale(rng.randint(40, 120))
    return events


def main():
    if len(sys.argv) not in (7, 8, 9, 10):
        sys.exit(__doc__)
    seed, wpm, seconds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    work_pct, logdir, plan = int(sys.argv[4]), sys.argv[5], sys.argv[6]
    calibration = int(sys.argv[7]) if len(sys.argv) >= 8 and sys.argv[7] else "CPU0"
    chatter = int(sys.argv[8]) if len(sys.argv) >= 9 and sys.argv[8] else 0
    period = int(sys.argv[9]) if len(sys.argv) == 10 and sys.argv[9] else 0
    rng = random.Random(seed)

    def scale(us):
        return max(1, us * work_pct // 100)

    gaps = keystrokes(rng, wpm, period or seconds, exact=bool(period))
    with open(plan, "w") as f:
        f.write("".join(f"{g}\n" for g in gaps))
    # The source loops over as many periods as it takes for the next key
    # to go to worker 0 again, so that key k goes to worker k % 3 across
    # periods too.
    periods = KEY_WORKERS // math.gcd(len(gaps), KEY_WORKERS) if period else 1
    repeat = -1 if period else 1
    tasks = {
        "source": {"loop": repeat, "phases": {
            f"k{i}": {"loop": 1, "sleep": g, "run": 20,
                      "resume": f"key{i % KEY_WORKERS}"}
            for i, g in enumerate(gaps * periods)}},
        "frame": {"loop": repeat, "phases": frames(rng, period or seconds, scale,
                                                   exact=bool(period))},
        "gc": {"loop": -1, "run": scale(GC_US),
               "timer": {"ref": "gc", "period": GC_PERIOD_US}},
    }
    for w in range(KEY_WORKERS):
        tasks[f"key{w}"] = {"loop": -1, "suspend": f"key{w}", "run": scale(KEY_US)}
    for c in range(chatter):
        tasks[f"ipc{c}"] = {"loop": -1, "phases": {"msgs": ipc_events(rng, scale)}}
    for b in range(2):
        tasks[f"bg{b}"] = {"loop": -1, "run": scale(BG_US),
                           "timer": {"ref": f"bg{b}", "period": BG_PERIOD_US}}
    write_rtapp(tasks, seconds, calibration, logdir, "typing")


if __name__ == "__main__":
    main()
