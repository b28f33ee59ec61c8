"""The long run of the differential test: the compiled proof search against the Python engine.

    python benchmarks/differential.py [--nodes 100000] [--seed 1] [--variant frisian]

Random positions with random game state (see ``tests/checker/differential.py``); for each, every
child with its clocks, every count-rule draw and both table values must be the same in the
compiled program and in the Python engine.  Prints, per variant, how many nodes were compared,
what they met (captures, table values, art. 17 runs, ...), the time, and every difference (exit
status 1 if there is one).  The test suite runs 1,500 nodes a variant.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import VARIANTS, find_variant
from tests.checker.differential import compare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=[v.name for v in VARIANTS], default=None)
    args = parser.parse_args()
    variants = [find_variant(args.variant)] if args.variant else list(VARIANTS)
    failed = False
    for variant in variants:
        tables = checker_tables(variant)
        tables.prepare_missing()
        prover = tables.prover()
        if prover is None:
            print(f"{variant.name}: no compiled search on this machine (no C compiler)")
            return 1
        started = time.perf_counter()
        found = compare(variant, tables, prover, random.Random(args.seed), args.nodes)
        seconds = time.perf_counter() - started
        met = ", ".join(f"{what} {count:,}" for what, count in sorted(found.seen.items()))
        print(
            f"{variant.name}: {found.nodes:,} nodes in {seconds:.0f} s, "
            f"{len(found.differences)} differences; met: {met}",
            flush=True,
        )
        for line in found.differences[:20]:
            print(f"  {line}")
        failed = failed or bool(found.differences)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
