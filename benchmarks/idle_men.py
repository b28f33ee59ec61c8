"""Criterion D's old and new rule side by side, on published problems (default: Cat.B1 and
Cat.D1 of the PDN conformance set).

    python benchmarks/idle_men.py [--time-limit 20] [--file PDN ...]

The old rule called a man idle when the composer's solution stays legal without it and its key
still wins.  The new one (criteria/idle.py) calls such a man needed all the same when the start
without it breaks B1 or B2, or a second key or a new cook or dual appears.  For every man the old
rule calls idle, this prints what the new rule makes of it in a full judgement of the given time.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_build.checker.criteria.idle import without
from rulebook_build.checker.front import Checker
from rulebook_build.engine.search import ProofSearch, root_node
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import replay
from rulebook_build.rules import INTERNATIONAL

CONFORMANCE = Path(__file__).resolve().parents[1] / "tests/data/pdn-conformance/games/succeed"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument(
        "--file",
        type=Path,
        nargs="+",
        default=[CONFORMANCE / "Cat.B1.pdn", CONFORMANCE / "Cat.D1.pdn"],
    )
    args = parser.parse_args()
    tables = checker_tables(INTERNATIONAL)
    prover = tables.prover()
    outcomes: Counter[str] = Counter()
    for path in args.file:
        games, _errors = read_pdn_file(path)
        for game in (g for g in games if g.is_problem):
            position = parse_fen(game.fen or "", variant=INTERNATIONAL)
            checker = Checker(opened={INTERNATIONAL.name: tables})
            judgement = checker.judge(game, variant=INTERNATIONAL, seconds=args.time_limit)
            try:
                steps = replay(game, variant=INTERNATIONAL).main.moves
            except Exception:
                continue
            for square, piece in position.pieces().items():
                if piece.is_king:
                    continue
                smaller = without(position, square)
                if smaller is None or not steps:
                    continue
                current, legal = smaller, True
                for step in steps:
                    if step.move not in current.legal_moves():
                        legal = False
                        break
                    current = current.play(step.move)
                if not legal:
                    continue
                child = root_node(INTERNATIONAL, smaller.play(steps[0].move).state())
                search = ProofSearch(INTERNATIONAL, tables=tables, prover=prover)
                if search.prove(child, seconds=5.0).verdict != "proved":
                    continue  # the old rule does not call it idle (or could not say)
                colour = "white" if piece.is_white else "black"
                use = checker.last_judge._idle.uses.get(square, "not examined")  # type: ignore[union-attr]
                outcomes[f"{colour} {use}"] += 1
                print(
                    f"{path.name} {game.tag('Event')}: {colour} man on {square}: old rule idle, "
                    f"new rule {use} ({judgement.grade})",
                    flush=True,
                )
    print(
        "old rule idle -> new rule: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
