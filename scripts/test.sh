#!/usr/bin/env bash
# Set up and run every check: the one test command of the README and of CI (.ci/run).
#   - a virtual environment in .venv with the package, its test extras and Zig (wasm)
#   - Debian's Chromium for the browser test, and Pango and a font for WeasyPrint (the
#     rulebooks' PDFs), installed with apt when running as root
#   - ruff (lint and format), mypy --strict, then pytest
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/setup.sh

setup_environment "test,wasm"
if [ ! -x /usr/bin/chromium ]; then
    if can_apt; then
        echo "installing Debian's chromium for the browser test"
        apt_install chromium
    else
        echo "note: /usr/bin/chromium missing and not root: the browser tests will be skipped"
    fi
fi
# nginx and openssl for the test of the webmasters' nginx recipe (tests/site/test_nginx.py:
# a real nginx on a loopback port, with a certificate made by openssl, runs the guide's own
# configuration). The test starts an nginx of its own, whether or not the system's runs.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null; then
    if can_apt; then
        echo "installing Debian's nginx and openssl for the test of the nginx recipe"
        apt_install nginx openssl
    else
        echo "note: nginx or openssl missing and not root: the nginx recipe's test will be skipped"
    fi
fi
# the PDF tests (rulebook build, tests/site/test_pdf.py)
setup_pdf
# CI runs every test: a browser test that skips there would hide what the pages do in a browser
# (tests/conftest.py fails a CI run with a skipped browser test as well)
if [ -n "${CI:-}" ] && [ ! -x /usr/bin/chromium ]; then
    echo "error: CI is set and /usr/bin/chromium is missing after the install step:" \
        "the browser tests cannot run (apt-get install chromium)" >&2
    exit 1
fi
if [ -n "${CI:-}" ] && [ ! -x /usr/sbin/nginx ]; then
    echo "error: CI is set and /usr/sbin/nginx is missing after the install step:" \
        "the test of the nginx recipe cannot run (apt-get install nginx)" >&2
    exit 1
fi
if [ -n "${CI:-}" ] && ! pdf_ready; then
    echo "error: CI is set and WeasyPrint cannot print (Pango, HarfBuzz's subsetter or the DejaVu" \
        "fonts missing after the install step): the PDF tests cannot run" >&2
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
