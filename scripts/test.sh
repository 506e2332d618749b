#!/usr/bin/env bash
# Every test of the project: the Rust workspace, then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
if [ -f scripts/browser-tests.sh ]; then
  bash scripts/browser-tests.sh
fi
