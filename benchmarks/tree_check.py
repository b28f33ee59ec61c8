"""How fast the Python engine checks the compiled search's trees (``ProofSearch._adopt``).

    python benchmarks/tree_check.py [SPEC ...] [--repeat 3] [--node-limit N] [--cache-dir DIR]

A SPEC is ``FILE:LINE`` (the winning key of that problem of ``problems/``: a proof tree) or
``FILE:LINE:MOVE`` (a second key, usually refuted: a refutation tree).  Each position after
the move is searched once by the compiled search (not timed); then its tree is checked
``--repeat`` times, each time by a new search with an empty table, and the fastest is kept.  It
prints per tree the positions checked (as ``check --deterministic`` counts them), the seconds
and the rate, then the rate over all trees, which is what ``budget.CHECK_RATE`` stands for (in
real judgements, two side by side, ``benchmarks/work_rates.py`` measures it where it runs).

The defaults are refutation trees that hold open problems (``benchmarks/unchecked_trees.py``):
the second keys 41-37 of PWCP-2 A12, 13-8 of A13 and 41-36 of Cat.B1 73.  The proof trees of
winning keys are small (a few hundred positions): the work is in refuting the other keys.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import add_cache_argument, use_cache_argument
from rulebook_build.engine import budget
from rulebook_build.engine.search import ProofSearch, root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.replay import move_notation, start_position
from rulebook_build.rules.position import to_move

sys.path.insert(0, str(Path(__file__).resolve().parent))
from work_rates import problem

DEFAULTS = (
    "problems/pwcp-2/PWCP 2a.pdn:150:41-37",
    "problems/pwcp-2/PWCP 2a.pdn:164:13-8",
    "problems/cat-b1/Cat.B1.pdn:73:41-36",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULTS), help="FILE:LINE[:MOVE]")
    parser.add_argument("--repeat", type=int, default=3, help="checks of each tree (3)")
    parser.add_argument(
        "--node-limit", type=int, default=60_000_000, help="compiled search (60 million)"
    )
    add_cache_argument(parser)
    args = parser.parse_args()
    use_cache_argument(args)
    total_positions, total_seconds = 0, 0.0
    for spec in args.specs:
        parts = spec.split(":")
        game, variant = problem(":".join(parts[:2]))
        position = start_position(game, variant)
        tables = checker_tables(variant)
        prover = tables.prover()
        if prover is None:
            print("no compiled search on this machine (a C compiler is needed)", file=sys.stderr)
            return 2
        finder = ProofSearch(variant, tables=tables)
        solution = game.moves.moves()
        wanted = parts[2] if len(parts) > 2 else (solution[0].notation if solution else "")
        found = [
            child
            for raw, child in finder.expand(root_node(variant, position.state()))
            if move_notation(position, to_move(raw)) == wanted
        ]
        if len(found) != 1:
            print(f"{spec}: no legal move {wanted!r}", file=sys.stderr)
            return 2
        node = found[0]
        answer = prover.solve(node[0], node[1], seconds=3600, node_limit=args.node_limit)
        if answer.verdict == "undecided" or answer.problem is not None:
            print(f"{spec} {wanted}: not settled by the compiled search ({answer.nodes:,} nodes)")
            continue
        best = float("inf")
        positions = 0
        for _ in range(args.repeat):
            timer = budget.Work()
            checker = ProofSearch(variant, tables=tables, timer=timer)
            started = time.perf_counter()
            whole = checker._adopt(node, answer, deadline=float("inf"))
            best = min(best, time.perf_counter() - started)
            positions = round(timer.now() * budget.CHECK_RATE)
            if not whole:
                print(f"{spec} {wanted}: the check failed: {checker.native_problems}")
                return 1
        total_positions += positions
        total_seconds += best
        print(
            f"{spec} {wanted}: {answer.verdict}, {answer.nodes:,} compiled nodes, "
            f"{len(answer.choices):,} choices; checked {positions:,} positions in {best:.2f} s, "
            f"{positions / best:,.0f} a second"
        )
    if total_seconds:
        print(
            f"all: {total_positions:,} positions in {total_seconds:.2f} s, "
            f"{total_positions / total_seconds:,.0f} a second (CHECK_RATE {budget.CHECK_RATE:,})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
