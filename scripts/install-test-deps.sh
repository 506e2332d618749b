#!/usr/bin/env bash
# Installs what the browser tests need, if missing: Debian's `chromium`
# and the npm package `playwright-core` (pinned by web-tests/package-lock.json;
# it downloads no browser of its own).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -f web-tests/node_modules/playwright-core/package.json ]; then
  (cd web-tests && npm ci --no-audit --no-fund --loglevel=error)
fi
