"""The proof search under Fries Spel rules against International rules, on the same positions.

    python benchmarks/frisian.py [--time-limit 20] [--all] [--python-only]

Every fifth problem of PWCP-2 (A1, A6, ..., A51: 11 positions; ``--all``: the 51), judged for the
win only (criterion A and the winning keys, as ``rulebook check --win-only``) once under each
rule set, with the tables ``rulebook check`` builds itself.  Prints per position the verdict,
nodes and seconds under both rules, then for each rule set the nodes a second over all positions
and how many stay undecided, and the ratio of the two speeds (issue 20 asks at least 0.5, and
no more undecided positions under Fries Spel).  Under Fries Spel the same positions are other
problems: most are no win at all, which a search must show as surely as a win.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.checker.front import Checker
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import FRISIAN, INTERNATIONAL

PWCP = Path(__file__).resolve().parents[1] / "tests/data/pdn-conformance/games/succeed/PWCP_2.pdn"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--all", action="store_true", help="all 51 problems, not every fifth")
    parser.add_argument("--python-only", action="store_true", help="no compiled search")
    args = parser.parse_args()

    games, _errors = read_pdn_file(PWCP)
    problems = [g for g in games if g.is_problem]
    if not args.all:
        problems = problems[::5]
    rows: dict[str, dict[str, tuple[str, int, float]]] = {}
    totals: dict[str, tuple[int, float, int]] = {}
    for variant in (INTERNATIONAL, FRISIAN):
        started = time.perf_counter()
        tables = checker_tables(variant)
        tables.prepare_missing()
        prover = None if args.python_only else tables.prover()
        print(
            f"{variant.name}: tables ready in {time.perf_counter() - started:.1f} s, "
            f"compiled search {'used' if prover else 'not used'}",
            flush=True,
        )
        nodes = undecided = 0
        seconds = 0.0
        for game in problems:
            checker = Checker(compiled=prover is not None, opened={variant.name: tables})
            judgement = checker.judge(game, variant=variant, seconds=args.time_limit, full=False)
            name = game.tag("Event") or "?"
            rows.setdefault(name, {})[variant.name] = (
                judgement.white_wins,
                judgement.nodes,
                judgement.seconds,
            )
            nodes += judgement.nodes
            seconds += judgement.seconds
            undecided += judgement.white_wins == "undecided"
        totals[variant.name] = (nodes, seconds, undecided)

    print(f"\n{'':5} {'international':>36}   {'frisian':>36}")
    for name, by_variant in rows.items():
        cells = [
            f"{verdict:9} {found:>12,} nodes {spent:6.2f} s"
            for verdict, found, spent in (by_variant[v] for v in ("international", "frisian"))
        ]
        print(f"{name:5} {cells[0]}   {cells[1]}")
    speeds = {}
    for name, (nodes, seconds, undecided) in totals.items():
        speeds[name] = nodes / seconds if seconds else 0.0
        print(
            f"{name}: {nodes:,} nodes in {seconds:.1f} s, {speeds[name]:,.0f} nodes a second; "
            f"undecided {undecided} of {len(problems)}"
        )
    ratio = speeds["frisian"] / speeds["international"] if speeds["international"] else 0.0
    print(f"frisian / international nodes a second: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
