#!/bin/bash
# Solves Raglan deals with each tactic alone (`patience solve --tactic`),
# for simulate.py. Each argument is a numbered deal or a board file; one
# CSV row per deal and tactic goes to standard output:
#   deal,tactic,verdict,stop,nodes,micros
# Each tactic stops at 5M positions or 20 s (stop max-nodes or timeout),
# which simulate.py counts as "not known past here".
#
#   cargo build --release
#   results/schedule/profile.sh $(seq 1 2000) > p1.csv
set -euo pipefail
PATIENCE=${PATIENCE:-target/release/patience}
ROWS=$(mktemp -d)
trap 'rm -rf "$ROWS"' EXIT
one() {
    local deal=$1 source name
    if [ -f "$deal" ]; then source=(--file "$deal"); else source=("$deal"); fi
    name=$(basename "$deal" .txt)
    for tactic in best-first narrowed-4 narrowed-8 full; do
        "$PATIENCE" solve raglan "${source[@]}" --tactic "$tactic" --threads 1 \
            --max-nodes 5000000 --timeout 20s --json |
            python3 -c '
import json, sys
j = json.load(sys.stdin)
print(",".join(str(x) for x in (sys.argv[1], sys.argv[2], j["verdict"], j["stop"] or "", j["nodes"], j["micros"])))
' "$name" "$tactic"
    done > "$ROWS/$name.csv"
}
export -f one
export PATIENCE ROWS
# A file of its own for each deal: jobs writing to one output interleave.
printf '%s\n' "$@" | xargs -P "${JOBS:-2}" -I{} bash -c 'one "$@"' _ {}
echo "deal,tactic,verdict,stop,nodes,micros"
find "$ROWS" -name '*.csv' -print0 | sort -zV | xargs -0 cat
