#!/usr/bin/env bash
# Fault tests against a real server process (scripts/fault-tests.py): a
# flood of concurrent sign-ins with the server's memory measured, a full
# disk under SQLite (a small tmpfs: needs root, else skipped with a note),
# PostgreSQL restarted under the server (when scripts/test.sh started
# one: TABULA_TEST_PG and TABULA_PG_DIR), and 1,000 WebSocket clients from
# one address that never read.
#
#   scripts/fault-tests.sh [signins|diskfull|pgrestart|silent ...]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=${TABULA_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --profile test -p tabula-cli --bin tabula --quiet
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/tabula"
fi
WORK=$(mktemp -d)
trap 'umount "$WORK/small" 2>/dev/null || true; rm -rf "$WORK"' EXIT
timeout 600 python3 scripts/fault-tests.py --bin "$(realpath "$BIN")" --work "$WORK" "$@"
