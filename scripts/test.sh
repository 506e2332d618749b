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
rm -r "$MATCH_DIR"

if [ -f scripts/browser-tests.sh ]; then
  bash scripts/browser-tests.sh
fi
