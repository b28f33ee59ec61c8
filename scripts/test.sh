#!/usr/bin/env bash
# Set up and run every check: the one test command of the README and of CI (.ci/run).
#   - a virtual environment in .venv with the package, its test extras and Zig (wasm)
#   - Debian's Chromium for the browser test (installed with apt when running as root)
#   - ruff (lint and format), mypy --strict, then pytest
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,wasm]'
# Pyodide, for the in-browser checker and its browser test (pinned in package-lock.json)
npm ci --silent --no-audit --no-fund

if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium for the browser test"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "note: /usr/bin/chromium missing and not root: the browser tests will be skipped"
    fi
fi
# CI runs every test: a browser test that skips there would hide what the pages do in a browser
# (tests/conftest.py fails a CI run with a skipped browser test as well)
if [ -n "${CI:-}" ] && [ ! -x /usr/bin/chromium ]; then
    echo "error: CI is set and /usr/bin/chromium is missing after the install step:" \
        "the browser tests cannot run (apt-get install chromium)" >&2
    exit 1
fi

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
# -rs lists every skipped test with its reason (only optional parts may skip; the summary also
# counts the skipped browser tests in one line, tests/conftest.py); -n auto runs
# the tests in one process a core (pytest-xdist), work stolen from the busier one at the end;
# '-n 0' after the command runs them in this process
.venv/bin/python -m pytest -rs -n auto --dist worksteal "$@"
