"""The compiled proof search on built tables against packed ones: the cost of a compact probe.

    python benchmarks/compact.py --packed CACHE [--built CACHE] [--nodes 3000000] [--first N]

``--packed`` is a cache folder whose 5-piece classes are packed (``rulebook tables --pieces 5
--pack --cache-dir CACHE``), ``--built`` one with the same classes built (default: the user's
cache).  For every PWCP-2 problem, the position after each White first move (the searches of
criterion C, which run into the 5-piece endings) is searched to a fixed number of nodes, once
on each cache, with no time limit that could end a search early; the same node count makes the
two runs do the same work, so the ratio of their times is the cost of reading compact tables.
Prints per cache the nodes, seconds and nodes a second over all positions, and whether every
search ended the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.cachedir import cache_root
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.rules import INTERNATIONAL
from rulebook_build.rules.drawrules import initial_clocks
from rulebook_build.rules.movegen import generate, make

PWCP = Path(__file__).resolve().parents[1] / "tests/data/pdn-conformance/games/succeed/PWCP_2.pdn"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packed", type=Path, required=True)
    parser.add_argument("--built", type=Path, default=None)
    parser.add_argument("--nodes", type=int, default=3_000_000)
    parser.add_argument("--first", type=int, default=10, help="the first N problems")
    args = parser.parse_args()
    games, _errors = read_pdn_file(PWCP)
    starts = []
    for game in [g for g in games if g.is_problem][: args.first]:
        state = parse_fen(game.fen or "", variant=INTERNATIONAL).state()
        for move in generate(INTERNATIONAL, state):
            starts.append(make(INTERNATIONAL, state, move))
    results = {}
    for name, folder in (("built", args.built or cache_root()), ("packed", args.packed)):
        tables = checker_tables(INTERNATIONAL, cache_dir=folder / "endgame")
        prover = tables.prover()
        if prover is None:
            print("no compiled search on this machine", file=sys.stderr)
            return 1
        nodes, started, verdicts = 0, time.perf_counter(), []
        for state in starts:
            clocks = initial_clocks(INTERNATIONAL, state)
            answer = prover.solve(state, clocks, seconds=600.0, node_limit=args.nodes)
            nodes += answer.nodes
            verdicts.append(answer.verdict)
        seconds = time.perf_counter() - started
        results[name] = verdicts
        print(
            f"{name:7} {len(starts)} searches, {nodes:,} nodes in {seconds:.1f} s: "
            f"{nodes / seconds:,.0f} nodes a second ({folder})",
            flush=True,
        )
    same = results["built"] == results["packed"]
    print(f"every search ended the same way: {'yes' if same else 'no'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
