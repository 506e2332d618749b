#!/usr/bin/env bash
# Every test of the project: the Rust workspace (with a throw-away PostgreSQL
# for the store's second engine), the server's game tests again on
# PostgreSQL, then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_DIR=""
cleanup() { [ -n "$PG_DIR" ] && bash scripts/postgres.sh stop "$PG_DIR"; }
trap cleanup EXIT
if pg_env=$(bash scripts/postgres.sh start); then
  eval "$pg_env"
  PG_DIR=$TABULA_PG_DIR
else
  unset TABULA_TEST_PG
  echo "##################################################################"
  echo "## PostgreSQL could not be started: its tests are SKIPPED here. ##"
  echo "##################################################################"
fi

cargo test --workspace
if [ -n "${TABULA_TEST_PG:-}" ]; then
  echo "== the server's game tests on PostgreSQL =="
  TABULA_TEST_STORE=postgres cargo test -p tabula-server --test api --test rounds
fi
echo "== tabula engine: one full game of each game through scripts/engine-match.py =="
cargo build -q -p tabula-cli
TABULA_BIN="${CARGO_TARGET_DIR:-target}/debug/tabula"
case "$TABULA_BIN" in /*) ;; *) TABULA_BIN="$PWD/$TABULA_BIN" ;; esac
MATCH_DIR=$(mktemp -d)
for game in dragonchess gildervaik phylde stelpur; do
  python3 scripts/engine-match.py "$game" --engine "$TABULA_BIN engine" --level 3 --nodes 300 \
    --seed 3 > "$MATCH_DIR/$game.txt"
  "$TABULA_BIN" replay "$MATCH_DIR/$game.txt" | tail -n 1
done
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

if [ -f scripts/browser-tests.sh ]; then
  bash scripts/browser-tests.sh
fi
