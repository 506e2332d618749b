#!/usr/bin/env bash
# The Python package (python/): lint its Rust, build and install it with pip
# into a throw-away venv under target/ (maturin from PyPI is the build
# backend), then run its pytest suite and the example.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR=$PWD/target/python
VENV=$PWD/target/python-venv

cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets -- -D warnings

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi
"$VENV/bin/python" -c "import pytest" 2>/dev/null || "$VENV/bin/python" -m pip install -q pytest

echo "== pip install ./python (a release build of the extension) =="
start=$(date +%s)
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps ./python
"$VENV/bin/python" -m pip install -q numpy
echo "built and installed in $(($(date +%s) - start)) s"

"$VENV/bin/python" -m pytest -q python/tests
"$VENV/bin/python" python/examples/random_games.py --games 20
