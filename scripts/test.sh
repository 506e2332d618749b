#!/usr/bin/env bash
# Every test of the project: the Rust workspace (with a throw-away PostgreSQL
# for the store's second engine), the server's game tests again on
# PostgreSQL, the Python package, the engine protocol, the sample bot, the
# cluster behind HAProxy (scripts/cluster.sh), then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_DIR=""
cleanup() { [ -n "$PG_DIR" ] && bash scripts/postgres.sh stop "$PG_DIR"; }
trap cleanup EXIT
if pg_env=$(bash scripts/postgres.sh start); then
  eval "$pg_env"
  PG_DIR=$TABULA_PG_DIR
  # From here a test that finds no PostgreSQL fails instead of skipping.
  export TABULA_REQUIRE_PG=1
else
  unset TABULA_TEST_PG
  echo "##################################################################"
  echo "## PostgreSQL could not be started: its tests are SKIPPED here. ##"
  echo "##################################################################"
fi

cargo test --workspace
echo "== every stored mate in 2 and 3 proved again (the fast test samples the long proofs) =="
cargo test -p tabula-learn --test puzzles -- --ignored
if [ -n "${TABULA_TEST_PG:-}" ]; then
  echo "== the server's game tests on PostgreSQL =="
  TABULA_TEST_STORE=postgres cargo test -p tabula-server --test api --test rounds --test players --test clocks --test ratings --test tournaments
fi
echo "== the Python package =="
bash scripts/python-tests.sh
echo "== tabula engine: one full game of each game through scripts/engine-match.py =="
bash scripts/engine-tests.sh
echo "== the sample bot against a real server =="
bash scripts/bot-tests.sh
echo "== fault tests: a sign-in flood, a full disk, PostgreSQL restarted =="
bash scripts/fault-tests.sh
if [ -n "${TABULA_TEST_PG:-}" ]; then
  echo "== the cluster: HAProxy, three web instances without AI, two AI workers, a short load =="
  bash scripts/cluster.sh
fi

if [ -f scripts/browser-tests.sh ]; then
  bash scripts/browser-tests.sh
fi
