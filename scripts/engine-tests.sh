#!/usr/bin/env bash
# The engine protocol end to end: one full game of each game between
# `tabula engine` processes through the reference driver
# (scripts/engine-match.py), each record checked by `tabula replay`; the
# measuring scripts' record reader, the search-depth driver, the won-position
# picker and the decision-loss judge; clocks for three seats; and the driver
# refusing an engine that cheats.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p tabula-cli
TABULA_BIN="${CARGO_TARGET_DIR:-target}/debug/tabula"
case "$TABULA_BIN" in /*) ;; *) TABULA_BIN="$PWD/$TABULA_BIN" ;; esac
MATCH_DIR=$(mktemp -d)
for game in dragonchess gildervaik phylde stelpur; do
  python3 scripts/engine-match.py "$game" --engine "$TABULA_BIN engine" --level 3 --nodes 300 \
    --seed 3 > "$MATCH_DIR/$game.txt"
  "$TABULA_BIN" replay "$MATCH_DIR/$game.txt" | tail -n 1
done
python3 scripts/test_records.py
# The depth-at-fixed-time driver over two of those records, on 1 and 2 threads.
python3 scripts/search-depth.py --engine "$TABULA_BIN engine" --movetime 20 --threads 1,2 \
  --plies 10,30 "$MATCH_DIR/dragonchess.txt" "$MATCH_DIR/phylde.txt" | tail -n 2
# ... and at fixed nodes over a record with dice (rolls skipped to a decision).
python3 scripts/search-depth.py --engine "$TABULA_BIN engine" --nodes 2000 --plies 10,30 \
  "$MATCH_DIR/stelpur.txt" | tail -n 1 | grep 'positions, mean depth'
# The first position of the Dragonchess game where the mover leads at all.
python3 scripts/won-positions.py --engine "$TABULA_BIN engine" --lead 0 \
  "$MATCH_DIR/dragonchess.txt" | grep -c ' -- .* lead '
# Decision losses judged at fixed nodes, over two arena games with dice.
"$TABULA_BIN" arena stelpur --agents level3,random --games 2 --time 0.01 --threads 1 \
  --records "$MATCH_DIR/arena" > /dev/null
python3 scripts/decision-loss.py --tabula "$TABULA_BIN" --nodes 200000 "$MATCH_DIR"/arena/*.txt \
  | grep "level3 against random: predicted"
# Clocks for three seats, and a driver that insists on time.
python3 scripts/engine-match.py 'gildervaik(mode=warrior)' --engine "$TABULA_BIN engine" \
  --level 4,3,2 --clock 4000 --inc 20 --seed 5 > "$MATCH_DIR/warrior.txt"
"$TABULA_BIN" replay "$MATCH_DIR/warrior.txt" | tail -n 1
# The driver must refuse an engine that answers an illegal action.
cat > "$MATCH_DIR/cheat.py" <<'EOF'
import sys
answers = {"ugi": "ugiok", "isready": "readyok", "go": "bestmove W2b2-2b5"}
for line in sys.stdin:
    word = (line.split() or [""])[0]
    if word == "quit":
        break
    if word in answers:
        print(answers[word], flush=True)
EOF
if python3 scripts/engine-match.py dragonchess --referee "$TABULA_BIN engine" \
  --engine "python3 $MATCH_DIR/cheat.py" --engine "$TABULA_BIN engine" \
  > /dev/null 2> "$MATCH_DIR/cheat.err"; then
  echo "engine-match accepted an illegal action"; exit 1
fi
grep "is not legal" "$MATCH_DIR/cheat.err"
rm -r "$MATCH_DIR"

