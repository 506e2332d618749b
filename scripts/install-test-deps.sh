#!/usr/bin/env bash
# Installs what the browser tests need, if missing: Debian's `chromium`
# and the npm packages of web-tests/package.json, pinned by its package-lock.json
# (`playwright-core`, which downloads no browser of its own, and `axe-core`).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -f web-tests/node_modules/playwright-core/package.json ] || [ ! -f web-tests/node_modules/axe-core/axe.min.js ]; then
  (cd web-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
