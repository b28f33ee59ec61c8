"""The evaluating search (``native/opinion.h``, the "opinion" request): nodes a second and the
depth it reaches for a budget of nodes.

    python benchmarks/engine_speed.py [--first 3] [--budgets 100000 1000000] [FILE]

Takes the start of a game and the first problems of each variant in FILE (default
``problems/verdicts.jsonl``, field ``fen``) and asks the compiled program, through
``ProverSession``, for an opinion of each position at each budget, without endgame tables (empty
folders: the tables' reading is another cost).  One session per variant, opened with a first
small request, so that the times measure the search (and the clearing of its table, which each
request pays), not the process start.  A search that ends, its result known, in fewer than
``SHORT`` nodes gets no rate: its time is mostly that clearing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.engine import binaries  # noqa: E402
from rulebook_build.engine.search import root_node  # noqa: E402
from rulebook_build.engine.tables.endgame import default_cache_dir  # noqa: E402
from rulebook_build.notation.fen import parse_fen  # noqa: E402
from rulebook_build.rules import FRISIAN, INTERNATIONAL  # noqa: E402

SHORT = 50_000
START = (
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
    ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "problems/verdicts.jsonl"))
    parser.add_argument("--first", type=int, default=3, help="problems of each variant")
    parser.add_argument("--budgets", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    program = binaries.executable(default_cache_dir(), binaries.PROVER_SOURCE)
    assert program is not None, "needs a C compiler"
    rows = [json.loads(line) for line in Path(args.file).read_text().splitlines() if line]
    empty = Path(tempfile.mkdtemp())
    for variant in (INTERNATIONAL, FRISIAN):
        chosen = [{"source": "start of a game", "fen": START}]
        chosen += [row for row in rows if row.get("variant") == variant.name][: args.first]
        prover = binaries.NativeProver(program, empty, empty, variant=variant)
        with prover.session(0.0) as session:
            for row in chosen:
                node = root_node(variant, parse_fen(row["fen"], variant=variant).state())
                session.opinion(*node, node_limit=1)  # the process started, its table made
                for budget in args.budgets:
                    began = time.perf_counter()
                    answer = session.opinion(*node, node_limit=budget)
                    seconds = time.perf_counter() - began
                    assert answer.problem is None, answer.problem
                    rate = (
                        f"{answer.nodes / seconds:11,.0f} nodes/s" if answer.nodes >= SHORT else ""
                    )
                    print(
                        f"{variant.name:13} {row.get('source', '?')[-28:]:28} "
                        f"budget {budget:>9,}  nodes {answer.nodes:>9,}  depth {answer.depth:2}  "
                        f"score {answer.score:6}  {rate}".rstrip(),
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
