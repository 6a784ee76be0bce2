#!/bin/sh
# How often a player wins (results/players.md): every batch of the study,
# resumable (re-run this script after a stop; finished rows are kept).
#
#   results/players/run.sh [aiar|others|samplers|all]
#
# PATIENCE names the binary (default: target/release/patience). Each batch
# runs on one thread; run two parts side by side on a 2-core machine.
set -eu
P=${PATIENCE:-target/release/patience}
D=results/players
part=${1:-all}

run() { # game player deals
    "$P" batch "$1" --player "$2" --deals "$3" --threads 1 \
        --out "$D/$1-$2.csv" --resume >/dev/null
}

if [ "$part" = aiar ] || [ "$part" = all ]; then
    # All in a Row: the win rate against how far ahead the player plans.
    for p in random greedy lookahead-1 lookahead-2 lookahead-4 lookahead-8 \
        lookahead-12 lookahead-16 lookahead-20 lookahead-24 lookahead-28 \
        lookahead-32 lookahead-40; do
        run all-in-a-row "$p" 1..10000
    done
fi
if [ "$part" = others ] || [ "$part" = all ]; then
    for g in raglan lanes rows-of-four alexandria; do
        for p in random greedy lookahead-2; do
            run "$g" "$p" 1..1000
        done
    done
    for g in raglan lanes rows-of-four; do
        run "$g" lookahead-4 1..1000
    done
fi
if [ "$part" = samplers ] || [ "$part" = all ]; then
    # With no card hidden (All in a Row, Raglan) the sampler solves the
    # deal itself; elsewhere it is slow, so fewer deals.
    run all-in-a-row sampler 1..1000
    run raglan sampler 1..1000
    run lanes sampler 1..200
    run rows-of-four sampler 1..100
    # What K buys, on Lanes (sampler is sampler-10).
    for k in 1 3 30; do
        run lanes "sampler-$k" 1..50
    done
    run alexandria sampler 1..10
fi
