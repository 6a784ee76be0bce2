#!/usr/bin/env python3
"""Simulates Lanes' schedule (src/search/rounds.rs: every tactic the same
budget each round, from 1000 nodes, three times more each round) from
what each tactic takes alone (profile.sh): a turn takes up its attempt
where it stopped, so a schedule spends in each tactic what the tactic
alone spends up to there. A narrowed walk that ends drops the narrower
ones and the beams at its level or below; any other tactic that ends
without a win drops alone. A tactic written `beam-3@1000000` leaves
after that many nodes without a win (`Plan::beam_nodes`), alone; one
written `horizon-3>9` gives its place, once it ends, to a horizon walk of
9 begun afresh, and `relaxed>full` to the full walk.

    simulate.py p.csv [more.csv ...]
    SCHEDULES="full relaxed narrowed-1; full horizon-3>9" simulate.py p.csv ...

Prints the plan's schedule, then those SCHEDULES gives (`;` between
them), or else the best of the schedules made of the
full walk, narrowed walks 1..3, horizon walks 3..8 and beams 2 and 3
(with no cap, or a cap of 1M nodes):
the seconds of solving with each deal counted at most 10 s (an unknown
at the limit), the deals unknown, and how many of them the profiles
could not follow far enough (rerun those with a larger CAP).
"""
import csv
import itertools
import os
import sys
from collections import defaultdict

LIMIT = 10e6
PLAN = "full narrowed-1 horizon-3 horizon-5 beam-3@1000000"


def load(paths):
    deals = defaultdict(dict)
    for path in paths:
        for row in csv.DictReader(open(path)):
            deals[row["deal"]][row["tactic"]] = (
                row["verdict"], row["stop"], int(row["nodes"]), int(row["micros"]))
    return deals


def level(tactic):
    return int(tactic.partition("@")[0].partition(">")[0].rsplit("-", 1)[1])


def wider(task):
    """The task that takes the place of `task` once it ends, if any: a
    tactic named after `>`, or for `horizon-3>9` a horizon walk of 9."""
    name, _, then = task.partition(">")
    if then.isdigit():
        return f"{name.rsplit('-', 1)[0]}-{then}"
    return then


def profile(tactics, task):
    """What `task` takes alone: its tactic's profile, cut at its cap."""
    name, _, cap = task.partition(">")[0].partition("@")
    verdict, stop, need, time = tactics[name]
    if cap and need >= int(cap) and not (verdict in ("won", "lost") and need == int(cap)):
        return "unknown", "capped", int(cap), time / max(need, 1) * int(cap)
    return verdict, stop, need, time


def simulate(tactics, order, first=1000, growth=3):
    """(verdict, micros) of one deal; verdict None past what is known."""
    tasks, spent, micros, budget = list(order), defaultdict(int), 0.0, first
    while tasks:
        ended = []
        for task in tasks:
            verdict, stop, need, time = profile(tactics, task)
            per_node = time / max(need, 1)
            ends = verdict in ("won", "lost") or stop in ("narrowed", "capped")
            if not ends and budget > need:
                return None, micros
            reached = need if ends and need <= budget else max(budget, spent[task])
            micros += (reached - spent[task]) * per_node
            spent[task] = reached
            if ends and need <= budget:
                if verdict in ("won", "lost"):
                    return verdict, micros
                ended.append((task, stop == "capped"))
        budget *= growth
        for task, capped in ended:
            if wider(task):
                tasks[tasks.index(task)] = wider(task)
                continue
            covers = lambda t: t == task or not capped and (
                task.startswith("narrowed")
                and t.startswith(("narrowed", "beam"))
                and level(t) <= level(task))
            tasks = [t for t in tasks if not covers(t)]
    return "unknown", micros


def run(deals, order):
    seconds, unknown, unfollowed = 0.0, [], 0
    for deal, tactics in deals.items():
        names = [n for t in order for n in (t.partition(">")[0].partition("@")[0], wider(t)) if n]
        if any(n not in tactics for n in names):
            continue
        verdict, micros = simulate(tactics, order)
        unfollowed += verdict is None
        if verdict in (None, "unknown") or micros > LIMIT:
            seconds, unknown = seconds + LIMIT, unknown + [deal]
        else:
            seconds += micros
    return seconds, unknown, unfollowed


def show(result, order):
    seconds, unknown, unfollowed = result
    print(f"{seconds / 1e6:7.1f} s {len(unknown):3d} unknown ({unfollowed} unfollowed)"
          f"  {' '.join(order)}: {' '.join(unknown)}")


def main():
    deals = load(sys.argv[1:])
    print(f"{len(deals)} deals; the plan:")
    show(run(deals, PLAN.split()), PLAN.split())
    if "SCHEDULES" in os.environ:
        for order in os.environ["SCHEDULES"].split(";"):
            show(run(deals, order.split()), order.split())
        return
    narrowed = [[f"narrowed-{k}" for k in range(1, top + 1)] for top in range(4)]
    horizons = [f"horizon-{h}" for h in range(3, 9)]
    beams = [[], ["beam-2"], ["beam-3"], ["beam-2", "beam-3"],
             ["beam-2@1000000"], ["beam-3@1000000"]]
    tried = []
    for n in narrowed:
        for k in range(4):
            for h in itertools.combinations(horizons, k):
                for b in beams:
                    order = ["full"] + n + list(h) + b
                    tried.append((run(deals, order), order))
    tried.sort(key=lambda t: (t[0][0], len(t[0][1])))
    print("the best schedules:")
    for result, order in tried[:15]:
        show(result, order)


if __name__ == "__main__":
    main()
