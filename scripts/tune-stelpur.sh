#!/usr/bin/env bash
# Tune Ad Elta Stelpur's evaluation by self-play (Texel-style) and write
# the weights to crates/stelpur/data/eval-weights.txt.
#
#   bash scripts/tune-stelpur.sh [ROUNDS]        (default: 2 rounds)
#
# Environment (defaults in brackets):
#   GAMES   self-play games a round                    [30000]
#   NODES   expectimax nodes a decision in those games [500]
#   SEED    seed of the first round (then +1 a round)  [1]
#
# Each round rebuilds the tuner, so that its games are played with the
# weights the previous round wrote: the evaluation is fitted to the results
# of its own play. A round takes a few minutes on 2 cores; the held-out
# log-loss of the old and new weights is printed at the end of each.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2}
GAMES=${GAMES:-30000}
NODES=${NODES:-500}
SEED=${SEED:-1}
weights=crates/stelpur/data/eval-weights.txt
for ((r = 0; r < ROUNDS; r++)); do
  echo "== round $((r + 1)) of $ROUNDS" >&2
  cargo build --release --quiet -p tabula-games --example tune_stelpur
  target/release/examples/tune_stelpur --games "$GAMES" --nodes "$NODES" --seed $((SEED + r)) \
    >"$weights.new"
  mv "$weights.new" "$weights"
done
echo "weights in $weights; rebuild, then measure with tabula arena stelpur" >&2
