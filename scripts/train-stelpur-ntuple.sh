#!/usr/bin/env bash
# Train Ad Elta Stelpur's n-tuple network by self-play and write its
# weights to crates/stelpur/data/ntuple-weights.txt.
#
#   bash scripts/train-stelpur-ntuple.sh [ROUNDS]     (default: 1 round)
#
# Environment (defaults in brackets):
#   GAMES   self-play games a round                    [60000]
#   NODES   expectimax nodes a decision in those games [500]
#   SEED    seed of the first round (then +1 a round)  [11]
#   EPOCHS  passes of gradient descent over the data   [12]
#   KEEP    directory for the position files           [a temporary one]
#
# A round plays GAMES games with the evaluation built in (the linear model
# plus the current network), writes their positions, and refits the
# network on top of the linear weights (crates/stelpur/data/eval-weights.txt,
# tuned by scripts/tune-stelpur.sh), starting from the current network.
# Rounds rebuild, so that each round's games follow the previous network.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-1}
GAMES=${GAMES:-60000}
NODES=${NODES:-500}
SEED=${SEED:-11}
EPOCHS=${EPOCHS:-12}
KEEP=${KEEP:-$(mktemp -d)}
mkdir -p "$KEEP"
weights=crates/stelpur/data/ntuple-weights.txt
for ((r = 0; r < ROUNDS; r++)); do
  echo "== round $((r + 1)) of $ROUNDS" >&2
  cargo build --release --quiet -p tabula-games --example tune_stelpur --example fit_stelpur_ntuple
  positions="$KEEP/positions-$((SEED + r)).txt"
  target/release/examples/tune_stelpur --games "$GAMES" --nodes "$NODES" --seed $((SEED + r)) \
    --positions "$positions"
  target/release/examples/fit_stelpur_ntuple --epochs "$EPOCHS" --init "$weights" "$positions" \
    >"$weights.new"
  mv "$weights.new" "$weights"
done
echo "weights in $weights (positions in $KEEP); rebuild, then measure with tabula arena stelpur" >&2
