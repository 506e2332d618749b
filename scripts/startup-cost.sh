#!/usr/bin/env bash
# Start-up time and memory of `tabula serve` on a given database: the time
# until it listens, then its RSS after listing the games and opening one.
#
#   scripts/startup-cost.sh DB [BIN]    # DB: a SQLite file or a postgres:// URL
set -euo pipefail
DB=${1:?a database}
BIN=${2:-target/release/tabula}
LOG=$(mktemp)
start=$(date +%s.%N)
"$BIN" serve --addr 127.0.0.1:0 --db "$DB" --ai-pause-ms 0 >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -f "$LOG"' EXIT
URL=""
for _ in $(seq 1 6000); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$LOG" | head -n 1 || true)
  [ -n "$URL" ] && break
  kill -0 $PID 2>/dev/null || { cat "$LOG"; exit 1; }
  sleep 0.01
done
ready=$(date +%s.%N)
rss_start=$(awk '/VmRSS/ {print $2}' /proc/$PID/status)
first=$(curl -s "$URL/api/games" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
curl -s "$URL/api/games/$first" >/dev/null
rss_after=$(awk '/VmRSS/ {print $2}' /proc/$PID/status)
games=$(curl -s "$URL/healthz" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
printf 'games stored: %s; listening after %.2f s; RSS %s KB at start, %s KB after listing and opening a game\n' \
  "$games" "$(echo "$ready - $start" | bc)" "$rss_start" "$rss_after"
