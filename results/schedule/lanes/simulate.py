#!/usr/bin/env python3
"""Simulates Lanes' schedule (src/search/rounds.rs) from what each tactic
takes alone (profile.sh), as results/schedule/simulate.py does Raglan's:
a turn takes up its attempt where it stopped, so a schedule spends in
each tactic what the tactic alone spends up to there.

    simulate.py p.csv [more.csv ...]

Prints, for each schedule tried, the seconds of solving with each deal
counted at most 10 s (an unknown at the limit), and the deals unknown.
"""
import csv
import sys
from collections import defaultdict

TACTICS = ["full", "narrowed-1", "narrowed-2", "narrowed-3", "beam-2", "beam-3"]
LIMIT = 10e6


def load(paths):
    deals = defaultdict(dict)
    for path in paths:
        for row in csv.DictReader(open(path)):
            deals[row["deal"]][row["tactic"]] = (
                row["verdict"], row["stop"], int(row["nodes"]), int(row["micros"]))
    return {d: t for d, t in deals.items() if len(t) == len(TACTICS)}


def simulate(tactics, by_round, beam_weight, first=1000, growth=3):
    """(verdict, micros) of one deal; verdict None past what is known."""
    tasks, spent, micros = list(TACTICS), defaultdict(int), 0.0
    while tasks:
        budget, budgets = first, []
        for task in tasks:
            budgets.append(budget * (beam_weight if task.startswith("beam") else 1))
            if not by_round:
                budget *= growth
        first = budget * growth if by_round else budget
        ended = []
        for task, allowance in zip(tasks, budgets):
            verdict, stop, need, time = tactics[task]
            per_node = time / max(need, 1)
            ends = verdict in ("won", "lost") or stop == "narrowed"
            if not ends and allowance > need:
                return None, micros
            reached = need if ends and need <= allowance else max(allowance, spent[task])
            micros += (reached - spent[task]) * per_node
            spent[task] = reached
            if ends and need <= allowance:
                if verdict in ("won", "lost"):
                    return verdict, micros
                ended.append(task)
        for task in ended:
            level = int(task[-1])
            narrower = task.startswith("narrowed")
            tasks = [t for t in tasks if not (t == task or narrower and t.startswith("narrowed") and int(t[-1]) <= level)]
    return "unknown", micros


def main():
    deals = load(sys.argv[1:])
    print(f"{len(deals)} deals")
    for by_round in (False, True):
        for weight in (1, 2, 3, 9):
            seconds, unknown = 0.0, 0
            for tactics in deals.values():
                verdict, micros = simulate(tactics, by_round, weight)
                if verdict in (None, "unknown") or micros > LIMIT:
                    seconds, unknown = seconds + LIMIT, unknown + 1
                else:
                    seconds += micros
            growth = "each round" if by_round else "each turn"
            print(f"growth {growth:10s} beams x{weight}: {seconds / 1e6:7.1f} s, {unknown} unknown")


if __name__ == "__main__":
    main()
