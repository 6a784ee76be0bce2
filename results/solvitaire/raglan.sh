#!/bin/bash
# Times patience on the 150 Raglan boards Solvitaire solved
# (tests/data/solvitaire/raglan.jsonl), a process per board, one after
# another, as Solvitaire was timed, and sets it beside Solvitaire's own
# solving times for the same boards (the data file's `ms`).
#
#   cargo build --release
#   results/solvitaire/raglan.sh            # 3 timed runs
#   ROUNDS=5 results/solvitaire/raglan.sh
#
# Run it on an idle machine: it measures wall-clock time.
set -euo pipefail
PATIENCE=$(realpath "${PATIENCE:-target/release/patience}")
DATA=$(realpath "${DATA:-tests/data/solvitaire/raglan.jsonl}")
BOARDS=$(mktemp -d)
trap 'rm -rf "$BOARDS"' EXIT
python3 - "$DATA" "$BOARDS" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    board = json.loads(line)
    with open(f"{sys.argv[2]}/b{board['deal']:03}.txt", "w") as f:
        f.write(board["text"])
EOF
cd "$BOARDS"
COUNT=$(ls b*.txt | wc -l)

# Whole runs, process start included.
for round in $(seq "${ROUNDS:-3}"); do
    start=$(date +%s.%N)
    for f in b*.txt; do "$PATIENCE" solve raglan --file "$f" --threads 1 >/dev/null; done
    end=$(date +%s.%N)
    python3 -c "s = $end - $start; print(f'run $round: {s:.3f} s, {$COUNT / s:.0f} boards/s')"
done

# Solving time alone, from --json, beside Solvitaire's.
for f in b*.txt; do "$PATIENCE" solve raglan --file "$f" --threads 1 --json; echo; done |
    python3 -c '
import json, statistics, sys
ours = [json.loads(line) for line in sys.stdin if line.strip()]
theirs = [json.loads(line) for line in open(sys.argv[1])]
micros = sum(r["micros"] for r in ours) / 1e6
nodes = sum(r["nodes"] for r in ours)
median = statistics.median(r["micros"] for r in ours) / 1e3
ms = sum(int(r["ms"]) for r in theirs) / 1e3
states = sum(int(r["states"]) for r in theirs)
their_median = statistics.median(int(r["ms"]) for r in theirs)
print(f"patience solving: {micros:.3f} s, {nodes} positions, median {median:.2f} ms")
print(f"Solvitaire solving (its ms): {ms:.3f} s, {states} states, median {their_median} ms:")
print(f"  at most {len(theirs) / ms:.1f} boards/s, with its process start left out")
print(f"solving time, Solvitaire / patience: {ms / micros:.1f}x")
' "$DATA"
