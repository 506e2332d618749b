#!/usr/bin/env bash
# Train Ad Elta Stelpur's n-tuple network by self-play and write its
# weights to crates/stelpur/data/ntuple-weights.txt.
#
#   bash scripts/train-stelpur-ntuple.sh [ROUNDS]     (default: 3 rounds)
#
# Environment (defaults in brackets):
#   GAMES   self-play games a round                    [40000]
#   NODES   expectimax nodes a decision in those games [500]
#   SEED    seed of the first round (then +1 a round)  [11]
#   EPOCHS  passes of gradient descent over the data   [6]
#   LAMBDA  TD(lambda) of the targets (1: the results) [0.7]
#   KEEP    directory for the position files           [a temporary one]
#
# A round plays GAMES games with the evaluation built in (the linear model
# plus the current network), writes their positions, and fits the network
# afresh on the positions of every round so far, on top of the linear
# weights (crates/stelpur/data/eval-weights.txt, tuned by
# scripts/tune-stelpur.sh). Rounds rebuild, so that each round's games
# follow the previous round's network. A round takes about 6 minutes on
# 2 cores. The weights in the repository come from 7 rounds of the
# defaults (seeds 11 to 17, 280,000 games), except that rounds 1 and 2 were
# played with the same network (none): `SEED=11 bash
# scripts/train-stelpur-ntuple.sh 7` reproduces the procedure, not the
# file byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
GAMES=${GAMES:-40000}
NODES=${NODES:-500}
SEED=${SEED:-11}
EPOCHS=${EPOCHS:-6}
LAMBDA=${LAMBDA:-0.7}
KEEP=${KEEP:-$(mktemp -d)}
mkdir -p "$KEEP"
weights=crates/stelpur/data/ntuple-weights.txt
for ((r = 0; r < ROUNDS; r++)); do
  echo "== round $((r + 1)) of $ROUNDS" >&2
  cargo build --release --quiet -p tabula-games --example tune_stelpur --example fit_stelpur_ntuple
  target/release/examples/tune_stelpur --games "$GAMES" --nodes "$NODES" --seed $((SEED + r)) \
    --positions "$KEEP/positions-$((SEED + r)).txt"
  # No --init: every round fits from zero weights.
  target/release/examples/fit_stelpur_ntuple --epochs "$EPOCHS" --lambda "$LAMBDA" \
    "$KEEP"/positions-*.txt >"$weights.new"
  mv "$weights.new" "$weights"
done
echo "weights in $weights (positions in $KEEP); rebuild, then measure with tabula arena stelpur" >&2
