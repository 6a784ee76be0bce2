#!/usr/bin/env python3
"""Simulates Alexandria's schedule of two beams (src/search/rounds.rs)
from what each beam takes alone to win a deal (beams-alone.csv): a turn
takes up its beam where it stopped, and its budget is the nodes its beam
may have taken by the turn's end, all its turns together. The full walk's
turns (weight 1) are counted, and win nothing.

    simulate.py [beams-alone.csv]

The plan kept one beam: `[2, 3] 96:32, half again by round`, the best
here, was built and run on fresh deals 21001..22000 at the default
limits, and won one deal fewer than one beam (`results/schedule/README.md`).

Prints, for each schedule and limit (the positions a deal gets within
`batch`'s minute on two threads, 36M to 61M in the records), the deals
won, and those won or lost against the plan of one beam (`[2]`, weight
64, turns growing threefold at every turn).

beams-alone.csv: `beam2`, the positions the plan of one beam took to win
(its record's `nodes`; empty where the minute left the deal unknown);
`beam3`, the positions `solve alexandria N --threads 1 --tactic beam-3`
took to win (empty where it had not won after `beam3_reached`).
"""
import csv
import os
import sys

FIRST = 1000


def won_at(need, order, weights, by_round, growth, joins_at, limit):
    """The positions taken in all when a beam wins, or None past limit."""
    used = {t: 0 for t in order}
    total = 0
    nxt = FIRST
    while total < limit:
        for t in order:
            if total < joins_at.get(t, 0):
                continue
            budget = nxt * weights[t]
            if not by_round:
                nxt = nxt * growth // 100
            step = max(0, budget - used[t])
            n = need.get(t)
            if n is not None and used[t] + step >= n:
                won = total + n - used[t]
                return won if won <= limit else None
            used[t] += step
            total += step
            if total >= limit:
                return None
        if by_round:
            nxt = nxt * growth // 100
    return None


ONE_BEAM = (["walk", 2], {"walk": 1, 2: 64}, False, 300, {})
SCHEDULES = {
    "[2] (before)": ONE_BEAM,
    "[2, 3] 96:32, threefold by round": (
        ["walk", 2, 3], {"walk": 1, 2: 96, 3: 32}, True, 300, {3: 1_000_000}),
    "[2, 3] 96:32, half again by round (tried)": (
        ["walk", 2, 3], {"walk": 1, 2: 96, 3: 32}, True, 150, {3: 1_000_000}),
    "[2, 3] 64:32, half again by round": (
        ["walk", 2, 3], {"walk": 1, 2: 64, 3: 32}, True, 150, {3: 1_000_000}),
    "[2, 3] 64:64, half again by round": (
        ["walk", 2, 3], {"walk": 1, 2: 64, 3: 64}, True, 150, {3: 1_000_000}),
    "[3, 2] 32:96, threefold by round": (
        ["walk", 3, 2], {"walk": 1, 2: 96, 3: 32}, True, 300, {3: 1_000_000}),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "beams-alone.csv")
    deals = []
    for row in csv.DictReader(open(path)):
        need = {"walk": None}
        for level in (2, 3):
            cell = row[f"beam{level}"]
            need[level] = int(cell) if cell else None
        deals.append((int(row["deal"]), need))
    for limit in (36_000_000, 45_000_000, 55_000_000):
        print(f"limit {limit / 1e6:.0f}M positions")
        befores = [won_at(need, *ONE_BEAM, limit) for _, need in deals]
        for name, (order, weights, by_round, growth, joins) in SCHEDULES.items():
            won, gained, lost = 0, [], []
            for (deal, need), before in zip(deals, befores):
                at = won_at(need, order, weights, by_round, growth, joins, limit)
                won += at is not None
                if at is not None and before is None:
                    gained.append(deal)
                if at is None and before is not None:
                    lost.append(deal)
            print(f"  {name:45} won {won:3} of {len(deals)}, +{len(gained)} {gained}, "
                  f"-{len(lost)} {lost}")


if __name__ == "__main__":
    main()
