#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/ab-report.py on hand-made runs of bench/ab.sh: the paired
# log-ratio intervals worked by hand, the A/A verdict both ways, the
# direction of a lower-is-better metric, and the typing reader's keystroke
# latencies cut by block from rt-app logs. Runs on the host in a second.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib.sh
. "$TOP/tests/host/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# steady DIR AA: a steady-15w run, 4 rounds of teo, teo2 and x, 1 s
# blocks; per round and P-core, millions of cycles: teo 10^6, x 10^6 times
# 1.04, 1.06, 1.05, 1.05, teo2 10^6 times AA (one factor for every round,
# or "noise": 1.001, 0.999, 1.0005, 0.9995).
steady() {
	mkdir -p "$1/ab/steady-15w"
	python3 - "$1/ab/steady-15w" "$2" <<'EOF'
import sys
d, aa = sys.argv[1], sys.argv[2]
with open(f"{d}/scenario", "w") as f:
    f.write("scenario steady-15w\npart adl-u-15w\nprimary p_mcycles_per_s\n"
            "rounds 4\nsettle_s 1\nmeasure_s 1\narms teo teo2 x\n"
            "pl1_mw 15000\npl1_window_ms 1000\ntypes P,P,E\n")
x = [1.04, 1.06, 1.05, 1.05]
t2 = [1.001, 0.999, 1.0005, 0.9995] if aa == "noise" else [float(aa)] * 4
t = 0
with open(f"{d}/blocks", "w") as f:
    for r in range(4):
        for arm, k in (("teo", 1.0), ("teo2", t2[r]), ("x", x[r])):
            c = round(1000000 * k)         # per P-core, millions of cycles
            f.write(f"round={r} pos=0 arm={arm} a_time_us={t} a_energy_uj=0 "
                    f"a_mcycles=0,0,0 a_busy_ms=0,0,0 b_time_us={t + 1000000} "
                    f"b_energy_uj=5000000 b_mcycles={c},{c},7 "
                    f"b_busy_ms=1000,1000,1\n")
            t += 2000000
EOF
}

# report DIR: ab-report.py's exit status; results.json in DIR/r.json.
report() {
	python3 "$TOP/bench/ab-report.py" "$1/r.json" "$1/r.md" "$1" >"$1/out" 2>&1
}

# ci DIR ARM OTHER: "est lo hi" of ARM against OTHER, 3 decimals.
ci() {
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["ab"][sys.argv[2]]
c = s["arms"][sys.argv[3]]["vs"][sys.argv[4]] if sys.argv[3] != "aa" else s["aa"]
print("%.3f %.3f %.3f" % (c["est"], c["lo"], c["hi"]))' "$1/r.json" "${4:-steady-15w}" "$2" "$3"
}

# Ratios 1.04, 1.06, 1.05, 1.05: logs 0.039221, 0.058269, 0.048790 (x2),
# mean 0.048768, sd 0.0077763, se 0.0038882, t(3) 3.182: half-width
# 0.012372; exp(mean) 1.050, exp(mean -+ half) 1.037, 1.063.
steady "$T/a" noise
worked() {
	report "$T/a" || { cat "$T/a/out"; return 1; }
	[ "$(ci "$T/a" x teo)" = "1.050 1.037 1.063" ] &&
		[ "$(ci "$T/a" teo x)" = "0.952 0.941 0.964" ]
}
ok "the paired log-ratio interval is the one worked by hand, both ways round" worked

aa_holds() {
	python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["ab"]["steady-15w"]["trustworthy"] else 1)' \
		"$T/a/r.json" && grep -q "contains 1" "$T/a/r.md"
}
ok "A/A within noise: the interval contains 1, the run is trustworthy" aa_holds

# teo2 3% better in every round: the A/A interval is [1/1.03] exactly,
# it excludes 1, and the report says the run cannot be trusted.
steady "$T/b" 1.03
aa_fails() {
	! report "$T/b" && [ "$(ci "$T/b" aa aa)" = "0.971 0.971 0.971" ] &&
		grep -q "not trustworthy" "$T/b/r.md"
}
ok "A/A that differs: interval excludes 1, report says not trustworthy, exit 1" aa_fails

# typing DIR: a typing-6w run of 2 rounds, arms teo and slow (no A/A);
# one block per arm and round, each 1 s; 10 keys per block, sent at the
# start of each 100 ms, whose bursts end 1..10 ms (teo), 2..20 ms (slow)
# later; a key between blocks is not counted.
typing() {
	mkdir -p "$1/ab/typing-6w/rtapp"
	python3 - "$1/ab/typing-6w" <<'EOF'
import sys
d = sys.argv[1]
with open(f"{d}/scenario", "w") as f:
    f.write("scenario typing-6w\npart jsl-6w\nprimary key_p99_ms\nrounds 2\n"
            "settle_s 1\nmeasure_s 1\narms teo slow\npl1_mw 6000\n"
            "pl1_window_ms 1000\ntypes P,P,P,P\nseed 1\nwpm 120\nwork_pct 100\n")
head = ("# Policy : SCHED_OTHER priority : 0\n#idx     perf      run   period"
        "           start             end          rel_st      slack c_duration"
        "   c_period     wu_lat\n")
src, workers, blocks, t = [], [[], [], []], [], 10_000_000
for r in range(2):
    for arm, scale in (("teo", 1000), ("slow", 2000)):
        blocks.append(f"round={r} pos=0 arm={arm} a_time_us={t} a_energy_uj=0 "
                      f"a_mcycles=0 a_busy_ms=0 b_time_us={t + 1000000} "
                      f"b_energy_uj=1000000 b_mcycles=0 b_busy_ms=0\n")
        for i in range(10):
            sent = t + i * 100000
            src.append((sent - 100, sent))
            workers[(len(src) - 1) % 3].append(
                (sent + 10, sent + (i + 1) * scale))
        src.append((t + 1500000, t + 1600000))          # between blocks
        workers[(len(src) - 1) % 3].append((t + 1600010, t + 1700000))
        t += 2000000


def write(name, rows):
    with open(f"{d}/rtapp/{name}", "w") as f:
        f.write(head)
        for start, end in rows:
            f.write(f"0 1 20 {end - start} {start} {end} 0 0 20 0 0\n")


write("typing-source-0.log", src)
for w in range(3):
    write(f"typing-key{w}-{w + 3}.log", workers[w])
write("typing-frame-1.log", [(10_000_000, 10_016_000)])
with open(f"{d}/blocks", "w") as f:
    f.writelines(blocks)
EOF
}

# Per block p99 (nearest rank of 10: the 10th) 10 ms and 20 ms, p50 (the
# 5th) 5 and 10 ms: teo is better by 2 (lower is better), every round.
# Without A/A arms there is no verdict on trust, and the exit status is 0.
typing "$T/c"
typing_read() {
	report "$T/c" || { cat "$T/c/out"; return 1; }
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["ab"]["typing-6w"]["arms"]
ok = (s["teo"]["mean"] == 10.0 and s["slow"]["mean"] == 20.0 and
      s["teo"]["typing"]["key_p50_ms"] == 5.0 and s["teo"]["typing"]["keys"] == 10 and
      s["teo"]["vs"]["slow"]["est"] == 2.0)
sys.exit(0 if ok else 1)' "$T/c/r.json"
}
ok "typing: keystrokes cut by block, p99 and p50 by nearest rank, lower is better" typing_read

done_testing
