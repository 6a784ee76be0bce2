#!/usr/bin/env python3
"""Times one deal's search on 1 and on 2 threads (`solve --threads N`).

For each game, the three slowest decided deals of its record in
results/<game>.csv, each solved REPEATS times on each thread count with
default limits; prints one CSV row per run and, at the end, a Markdown
table of the median times and the speed-ups. Run from the repository's
root after `cargo build --release`, on an idle machine:

    python3 results/threads/hard_deals.py > results/threads/hard-deals.csv

Games named as arguments are measured alone, e.g. `hard_deals.py raglan`.
"""

import csv
import json
import statistics
import subprocess
import sys

BIN = "target/release/patience"
GAMES = ["all-in-a-row", "raglan", "lanes", "rows-of-four", "alexandria"]
PER_GAME = 3
REPEATS = 3


def slowest(game):
    with open(f"results/{game}.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] != "unknown"]
    rows.sort(key=lambda r: -int(r["micros"]))
    return [int(r["deal"]) for r in rows[:PER_GAME]]


def solve(game, deal, threads):
    out = subprocess.run(
        [BIN, "solve", game, str(deal), "--threads", str(threads), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def main():
    out = csv.writer(sys.stdout)
    out.writerow(["game", "deal", "threads", "run", "verdict", "nodes", "micros"])
    medians = {}
    for game in sys.argv[1:] or GAMES:
        for deal in slowest(game):
            for threads in (1, 2):
                times = []
                for run in range(REPEATS):
                    report = solve(game, deal, threads)
                    times.append(report["micros"])
                    out.writerow([game, deal, threads, run, report["verdict"],
                                  report["nodes"], report["micros"]])
                    sys.stdout.flush()
                medians[(game, deal, threads)] = (statistics.median(times), report["verdict"])
    print("\n| game | deal | verdict (2 threads) | 1 thread | 2 threads | speed-up |", file=sys.stderr)
    print("|---|---|---|---|---|---|", file=sys.stderr)
    for (game, deal, threads), (median, verdict) in medians.items():
        if threads != 1:
            continue
        two, verdict2 = medians[(game, deal, 2)]
        print(f"| {game} | {deal} | {verdict2} | {median / 1e6:.2f} s | {two / 1e6:.2f} s "
              f"| {median / two:.2f}x |", file=sys.stderr)


if __name__ == "__main__":
    main()
