#!/usr/bin/env bash
# The sample bot against a real server: starts `tabula serve` on a free
# loopback port with a fresh database, makes a person and a bot account
# through the API, runs scripts/tabula-bot.py with the bot's token, has the
# person challenge the bot and play its side (first legal action), and
# checks that both sides played and the bot saw the game end; then again as a
# rated game of a tournament that takes bots (other accounts, a new bot
# process). Bounded in time (each run gives up after 90 s).
#
#   scripts/bot-tests.sh                 # builds the `tabula` binary (test profile)
#   TABULA_BIN=path/to/tabula scripts/bot-tests.sh [SPEC]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SPEC=${1:-stelpur}

BIN=${TABULA_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --profile test -p tabula-cli --bin tabula --quiet
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/tabula"
fi
BIN=$(realpath "$BIN")

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" serve --addr 127.0.0.1:0 --db "$WORK/tabula.db" --ai-pause-ms 0 >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 1 100); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" 2>/dev/null | head -n 1 || true)
  [ -n "$URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$URL" ] || { echo "the server did not start"; cat "$WORK/server.log"; exit 1; }

for run in "--names alice,robo" "--names carol,tourbot --tournament --moves 20"; do
  # shellcheck disable=SC2086 # the run's words are separate arguments
  if ! timeout 90 python3 scripts/bot-tests.py --server "$URL" --engine "$BIN engine" --spec "$SPEC" $run; then
    echo "== server log (last lines) =="
    tail -n 40 "$WORK/server.log"
    exit 1
  fi
done
