#!/bin/bash
# Solves Lanes deals with each tactic alone (`patience solve --tactic`),
# for simulate.py: the plan's and the others it tries, or TACTICS.
# Arguments: numbered deals. One CSV row per deal and tactic goes to
# standard output:
#   deal,tactic,verdict,stop,nodes,micros
# Each stops at CAP positions (default 3M) or SECONDS_EACH seconds (8);
# rerun those that stopped so with a larger CAP where a schedule needs
# more, and give simulate.py both files (a later row of a deal and
# tactic wins).
#
#   cargo build --release
#   results/schedule/lanes/profile.sh $(seq 1 1000) > p.csv
set -euo pipefail
export PATIENCE=${PATIENCE:-target/release/patience} CAP=${CAP:-3000000} SECONDS_EACH=${SECONDS_EACH:-8}
export TACTICS=${TACTICS:-full narrowed-1 narrowed-2 narrowed-3 horizon-3 horizon-4 horizon-5 horizon-6 horizon-7 horizon-8 beam-2 beam-3}
one() {
    for tactic in $TACTICS; do
        "$PATIENCE" solve lanes "$1" --tactic "$tactic" --threads 1 \
            --max-nodes "$CAP" --timeout "${SECONDS_EACH}s" --json |
            python3 -c '
import json, sys
j = json.load(sys.stdin)
print(",".join(str(x) for x in (sys.argv[1], sys.argv[2], j["verdict"], j["stop"] or "", j["nodes"], j["micros"])))
' "$1" "$tactic"
    done
}
export -f one
echo "deal,tactic,verdict,stop,nodes,micros"
printf '%s\n' "$@" | xargs -P "${JOBS:-1}" -I{} bash -c 'one "$@"' _ {}
