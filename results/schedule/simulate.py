#!/usr/bin/env python3
"""Simulates the turns of `patience solve` (src/search/mod.rs) from what
each tactic takes alone (profile.sh), to compare schedules without
re-running the searches.

A turn that takes up its attempt where it stopped spends exactly the
positions the tactic alone spends up to there, so the simulated node
counts are exact; the time is each tactic's own time a position.

    simulate.py p150.csv p1.csv p3.csv            # the grid in the docs
    simulate.py --order B8 --start 1000 --growth 3 --weight 2 p150.csv
"""
import argparse
import csv
from collections import defaultdict

CODES = {"best-first": "B", "narrowed-4": "4", "narrowed-8": "8", "full": "F"}


def load(path):
    deals = defaultdict(dict)
    with open(path) as f:
        for row in csv.DictReader(f):
            deals[row["deal"]][CODES[row["tactic"]]] = (
                row["verdict"],
                row["stop"],
                int(row["nodes"]),
                int(row["micros"]),
            )
    return deals


def simulate(tactics, order, start, growth, weight):
    """(verdict, micros, nodes) of one deal, or verdict None when the turns
    reach past what the profile knows."""
    rotation = list(order)
    spent = defaultdict(int)
    budget, turn, micros, nodes = start, 0, 0.0, 0
    while True:
        tactic = rotation[turn % len(rotation)]
        turn += 1
        allowance = budget * (weight if tactic == "B" else 1)
        budget *= growth
        verdict, stop, need, time = tactics[tactic]
        per_node = time / max(need, 1)
        done = spent[tactic]
        ended = verdict in ("won", "lost") or stop == "narrowed"
        if not ended and allowance > need:
            return None, micros, nodes
        if ended and need <= allowance:
            micros += (need - done) * per_node
            nodes += need - done
            if verdict in ("won", "lost"):
                return verdict, micros, nodes
            level = int(tactic)
            rotation = [t for t in rotation if t in "BF" or int(t) > level]
            continue
        allowance = max(allowance, done)
        micros += (allowance - done) * per_node
        nodes += allowance - done
        spent[tactic] = allowance


def totals(sets, **schedule):
    """Seconds of solving per set, over the deals every schedule knows."""
    return [
        sum(simulate(deals[d], **schedule)[1] for d in known) / 1e6
        for deals, known in sets
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profiles", nargs="+")
    parser.add_argument("--order")
    parser.add_argument("--start", type=int, default=1000)
    parser.add_argument("--growth", type=int, default=3)
    parser.add_argument("--weight", type=int, default=2)
    args = parser.parse_args()
    loaded = [load(p) for p in args.profiles]
    if args.order:
        schedules = [dict(order=args.order, start=args.start, growth=args.growth, weight=args.weight)]
    else:
        base = dict(order="B8", start=1000, growth=3, weight=2)
        schedules = [base]
        for key, values in [
            ("order", ["B48", "B4", "B"]),
            ("start", [300, 3000, 10000]),
            ("growth", [2, 4]),
            ("weight", [1, 3]),
        ]:
            schedules += [dict(base, **{key: v}) for v in values]
    sets = []
    for deals in loaded:
        known = [
            d
            for d, tactics in deals.items()
            if all(simulate(tactics, **s)[0] for s in schedules)
        ]
        sets.append((deals, known))
    print("profiles:", ", ".join(f"{p} ({len(k)} of {len(d)} deals)" for p, (d, k) in zip(args.profiles, sets)))
    for schedule in schedules:
        seconds = totals(sets, **schedule)
        nodes = [sum(simulate(d[x], **schedule)[2] for x in k) for d, k in sets]
        print(" ".join(f"{s:7.2f} s {n:>10} nodes" for s, n in zip(seconds, nodes)), schedule)


if __name__ == "__main__":
    main()
