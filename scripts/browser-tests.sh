#!/usr/bin/env bash
# Browser tests of the web app: installs Chromium and playwright-core if
# needed, starts `tabula serve` on a free loopback port with a fresh
# database, plays every registered game by clicking (desktop and phone
# viewports; screenshots in web-tests/screenshots/), then stops the server.
# First, without a browser: every string key of the app is in every language.
#
#   scripts/browser-tests.sh            # builds the `tabula` binary (test profile)
#   TABULA_BIN=path/to/tabula scripts/browser-tests.sh
#   scripts/browser-tests.sh --test-name-pattern=axe   # some tests only
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

# Every string key of the app exists in every web/locales/*.json (node only).
node --test web-tests/i18n.test.mjs web-tests/hint.test.mjs web-tests/guide.test.mjs web-tests/clock.test.mjs web-tests/refusal.test.mjs

scripts/install-test-deps.sh

BIN=${TABULA_BIN:-}
if [ -z "$BIN" ]; then
  cargo build --profile test -p tabula-cli --bin tabula --quiet
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/tabula"
fi

BIN=$(realpath "$BIN") # the tests below start servers of their own from web-tests/
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# --trust-proxy: each browser context sends an address of its own (X-Forwarded-For).
"$BIN" serve --addr 127.0.0.1:0 --db "$WORK/tabula.db" --ai-pause-ms 0 --trust-proxy >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 1 100); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" 2>/dev/null | head -n 1 || true)
  [ -n "$URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$URL" ] || { echo "the server did not start"; cat "$WORK/server.log"; exit 1; }

cd web-tests
TABULA_BIN="$BIN" TABULA_URL="$URL" SCREENSHOTS="$ROOT/web-tests/screenshots" node --test --test-concurrency=1 "$@" browser.test.mjs learn.test.mjs
