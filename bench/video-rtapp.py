#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""video-rtapp.py SEED SECONDS WORK_PCT LOGDIR NS_PER_LOOP [DECODERS]: rt-app's video load.

Local video playback on a laptop, as threads rt-app runs, written to
standard output as rt-app's JSON:

  decode0..  DECODERS threads (default 1, at most 2) decoding at 30
             frames a second: a 33.3 ms timer, then one frame's work,
             split evenly between the decoders (frame-threaded decoding)
  compose    the compositor at 60 Hz: a 16.7 ms timer, then one frame's
             composition and page flip
  audio      the audio thread: a 10 ms period buffer refill

Each thread's timer starts at a phase drawn from SEED (rt-app's "delay"
before the first loop), so that two seeds give the decoder and the
compositor different alignments.

The work per frame is an estimate (no public per-frame figures for
these parts): software decoding of 1080p H.264 at about 6 ms of one
core at full speed per frame, the compositor 1 ms a frame, the audio
refill 0.2 ms; with hardware decoding the CPU does much less, so this is
the heavier of the two cases. Work is in rt-app's calibrated
microseconds at full speed (NS_PER_LOOP ns a loop, measured by
bench/ab.sh before the platform's model is loaded), times WORK_PCT / 100.

A frame is missed when its loop's work ends after the next period's
timer: rt-app's slack below 0 (bench/ab-report.py).
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from benchlib import write_rtapp  # noqa: E402

DECODE_PERIOD_US = 33333
DECODE_US = 6000
COMPOSE_PERIOD_US = 16667
COMPOSE_US = 1000
AUDIO_PERIOD_US = 10000
AUDIO_US = 200


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    seed, seconds, work_pct = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    logdir, ns_per_loop = sys.argv[4], int(sys.argv[5])
    decoders = int(sys.argv[6]) if len(sys.argv) == 7 else 1
    if decoders not in (1, 2) or seconds <= 0 or not 0 < work_pct <= 100 or ns_per_loop <= 0:
        sys.exit("video-rtapp.py: DECODERS is 1 or 2; SECONDS, WORK_PCT (1..100) "
                 "and NS_PER_LOOP are positive")
    rng = random.Random(seed)

    def scale(us):
        return max(1, us * work_pct // 100)

    def periodic(name, period, work):
        return {"loop": -1, "delay": rng.randrange(period), "run": scale(work),
                "timer": {"ref": name, "period": period}}

    tasks = {f"decode{d}": periodic(f"decode{d}", DECODE_PERIOD_US, DECODE_US // decoders)
             for d in range(decoders)}
    tasks["compose"] = periodic("compose", COMPOSE_PERIOD_US, COMPOSE_US)
    tasks["audio"] = periodic("audio", AUDIO_PERIOD_US, AUDIO_US)
    write_rtapp(tasks, seconds, ns_per_loop, logdir, "video")


if __name__ == "__main__":
    main()
