#!/bin/bash
# Times patience on numbered Raglan deals 1..300, a process per deal, one
# after another: the set Solvitaire's README times (300 random boards,
# 16 s with process start, 18 boards/s). The data file's 150 boards are
# deals 1..150 (the same layouts), and patience's verdicts on 1..300 give
# the README's counts exactly (234 won, 66 lost), so these are taken to be
# its 300 boards.
#
#   cargo build --release
#   results/solvitaire/raglan-deals.sh            # 3 timed runs
#
#   cargo build-static                            # a static binary
#   PATIENCE=target/x86_64-unknown-linux-gnu/release/patience results/solvitaire/raglan-deals.sh
#   ROUNDS=5 DEALS=300 results/solvitaire/raglan-deals.sh
#
# Run it on an idle machine: it measures wall-clock time. One thread a
# deal (`--threads 1`), as Solvitaire searches, and as these figures were
# measured before `solve` searched on every core by default.
set -euo pipefail
PATIENCE=$(realpath "${PATIENCE:-target/release/patience}")
DEALS=${DEALS:-300}

for round in $(seq "${ROUNDS:-3}"); do
    start=$(date +%s.%N)
    for n in $(seq "$DEALS"); do "$PATIENCE" solve raglan "$n" --threads 1 >/dev/null; done
    end=$(date +%s.%N)
    python3 -c "s = $end - $start; print(f'run $round: {s:.3f} s, {$DEALS / s:.0f} deals/s')"
done

for n in $(seq "$DEALS"); do "$PATIENCE" solve raglan "$n" --threads 1 --json; echo; done |
    python3 -c '
import json, statistics, sys
runs = [json.loads(line) for line in sys.stdin if line.strip()]
count = {v: sum(r["verdict"] == v for r in runs) for v in ("won", "lost", "unknown")}
micros = sum(r["micros"] for r in runs) / 1e6
nodes = sum(r["nodes"] for r in runs)
median = statistics.median(r["micros"] for r in runs) / 1e3
print(f"verdicts: {count}")
print(f"solving: {micros:.3f} s, {nodes} positions, median {median:.2f} ms")
'
