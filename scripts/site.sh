#!/usr/bin/env bash
# README command 1: set up and build the federation's site into site/ (arguments go to
# `rulebook build`, e.g. --out DIR).
#   - .venv with the package and its wasm (Zig: the check page's search) and pdf (WeasyPrint)
#     extras, and Pyodide from npm
#   - Pango and a font for the rulebooks' PDFs, installed with apt when running as root
#   - the endgame tables the checker and the check page share (once, into the cache folder)
#   - every page in every language, with a PDF of each rulebook where they can be made
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

setup_environment "wasm,pdf"
setup_pdf
.venv/bin/rulebook tables --pieces 5 --pack
.venv/bin/rulebook build "$@"
