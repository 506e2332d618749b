#!/usr/bin/env bash
# The AI strength table of docs/benchmarks.md: for each game, level 8
# against random, level 8 against plain UCT at equal time, and the ladder
# (each level against the one below), all with `tabula arena --json`.
#
#   bash scripts/strength.sh [GAME ...]        (default: all four games)
#
# Environment (defaults in brackets):
#   GAMES   games per match, rounded up to whole seating blocks   [20]
#   SCALE   factor on every level's own thinking time            [0.1]
#   UCT_T   seconds a move for the level 8 vs UCT match          [0.2]
#   OUT     directory for the JSON results and game records      [target/strength]
#
# Three-player games put the stronger agent in one seat and the other
# agent in both others. Progress goes to stderr; one JSON line per match
# is appended to $OUT/results.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-20}
SCALE=${SCALE:-0.1}
UCT_T=${UCT_T:-0.2}
OUT=${OUT:-target/strength}
mkdir -p "$OUT"
cargo build --release --quiet
tabula=target/release/tabula

games=("$@")
[ ${#games[@]} -gt 0 ] || games=(dragonchess gildervaik phylde stelpur)

# Agent list for `game`: the first agent, then the second in every other seat.
seats() {
  local game=$1 first=$2 other=$3 players
  players=$("$tabula" moves "$game" --json | sed -n 's/.*"players":\([0-9]*\).*/\1/p')
  local list=$first
  for ((i = 1; i < players; i++)); do list+=",$other"; done
  echo "$list"
}

match() {
  local game=$1 label=$2 agents=$3
  shift 3
  echo "== $game: $label ($agents)" >&2
  local json
  json=$("$tabula" arena "$game" --agents "$agents" --games "$GAMES" --json \
    --records "$OUT/records/$game/$label" "$@")
  echo "{\"game\":\"$game\",\"match\":\"$label\",\"result\":$json}" >>"$OUT/results.jsonl"
  echo "$json" | sed -n 's/.*"agents":\[{"[^}]*"name":"\([^"]*\)"[^}]*"score":\([0-9.]*\).*/   \1 scored \2/p' >&2
}

for game in "${games[@]}"; do
  match "$game" level8-random "$(seats "$game" level8 random)" --time-scale "$SCALE"
  match "$game" level8-uct "$(seats "$game" level8 uct)" --time "$UCT_T"
  for n in 1 2 3 4 5 6 7; do
    match "$game" "level$((n + 1))-level$n" "$(seats "$game" "level$((n + 1))" "level$n")" \
      --time-scale "$SCALE"
  done
done
echo "results in $OUT/results.jsonl" >&2
